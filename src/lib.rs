//! agent-loop-sim: a terminal simulator that teaches how an LLM agent loop
//! really runs. Data flows one way: scenario → engine → trace → app → view.

pub mod engine;
pub mod load;
pub mod scenario;
pub mod trace;
