//! What the app and the room's server say to each other: what the server
//! heard (`Heard`) and what the phones are shown (`Showing`). Plain data,
//! named by both ends, so neither names the other for it.

use serde::Serialize;

use super::ballots;

/// What the server tells the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heard {
    /// Phones connected now.
    Present(usize),
    /// The counts of a round after a vote was counted.
    Tally {
        step: usize,
        round: u8,
        counts: Vec<u32>,
    },
}

/// One language's words of a question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Words {
    pub prompt: String,
    pub choices: Vec<String>,
    /// Why the right choice is right: the author's reason, else the
    /// step's own explanation. Sent only once revealed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// What the phones are shown: made from the app state, never the other
/// way round. `step` is 0-based, as votes name it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum Showing {
    /// No question open: the room waits for the next.
    Wait,
    Open {
        step: usize,
        round: u8,
        zh: Words,
        en: Words,
    },
    Revealed {
        step: usize,
        answer: usize,
        zh: Words,
        en: Words,
        /// Per round, the counts per choice as the projector shows them.
        counts: Vec<Vec<u32>>,
    },
}

impl Showing {
    /// The question the room may vote on now.
    pub fn open(&self) -> Option<ballots::Open> {
        match self {
            Showing::Open {
                step, round, zh, ..
            } => Some(ballots::Open {
                step: *step,
                round: *round,
                choices: zh.choices.len(),
            }),
            _ => None,
        }
    }
}
