//! What the app and the room's server say to each other: what the server
//! heard (`Heard`) and what the phones are shown (`Showing`). Plain data,
//! named by both ends, so neither names the other for it.

use serde::Serialize;
use serde::ser::SerializeMap as _;

use super::ballots;
use crate::scenario::Lang;

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

/// A question's words in each written language (`Lang::ALL`'s order),
/// sent beside the state under each language's code (`"zh": …, "en":
/// …`): a phone shows the one it is set to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phrased(pub [Words; Lang::COUNT]);

impl Serialize for Phrased {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(Lang::COUNT))?;
        for (lang, words) in Lang::ALL.iter().zip(&self.0) {
            map.serialize_entry(lang.code(), words)?;
        }
        map.end()
    }
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
        #[serde(flatten)]
        words: Phrased,
    },
    Revealed {
        step: usize,
        answer: usize,
        #[serde(flatten)]
        words: Phrased,
        /// Per round, the counts per choice as the projector shows them.
        counts: Vec<Vec<u32>>,
    },
}

impl Showing {
    /// The question the room may vote on now.
    pub fn open(&self) -> Option<ballots::Open> {
        match self {
            Showing::Open { step, round, words } => Some(ballots::Open {
                step: *step,
                round: *round,
                // The same choices in every language.
                choices: words.0[0].choices.len(),
            }),
            _ => None,
        }
    }
}
