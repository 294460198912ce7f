//! agent-loop-sim: a terminal simulator that teaches how an LLM agent loop
//! really runs. Data flows one way: scenario → engine → trace → app → view.

pub mod action;
pub mod app;
pub mod batch;
pub mod class;
pub mod cli;
pub mod compare;
pub mod engine;
pub mod export;
pub mod find;
pub mod frames;
pub mod i18n;
pub mod keymap;
pub mod live;
pub mod load;
pub mod opening;
pub mod output;
pub mod picker;
pub mod place;
pub mod plain;
pub mod provider;
#[cfg(test)]
mod pseudo;
pub mod quiz;
pub mod recorder;
pub mod room;
pub mod rules;
pub mod safe;
pub mod scenario;
pub mod study;
pub mod sub_agent;
pub mod tap;
pub mod theme;
pub mod timelines;
pub mod tokens;
pub mod trace;
pub mod trace_json;
pub mod transcript;
pub mod tui;
pub mod view;
pub mod wire;
