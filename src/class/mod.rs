//! `--class`: the room predicts each step on its phones. A small web
//! server (`server.rs`, axum on tokio) serves one page to the phones and
//! counts their votes (`ballots.rs`); the app is told the counts as
//! messages (`Heard`, applied by `heard`) and tells the server what the
//! room is shown (`Showing`, made from the app state by `showing`). The
//! server never steps, reveals or changes the lesson: only the teacher's
//! keys do, and they never wait on it (a `watch` sent without waiting, a
//! channel read with `try_recv`).

pub mod ballots;
pub mod qr;
pub mod results;
pub mod server;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use serde::Serialize;

use crate::app::App;
use crate::scenario::Lang;

/// What the app keeps of the room: plain data, part of `App`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    /// The address the phones open, or why the room could not open (the
    /// lesson runs without it).
    pub join: Result<String, server::Unopened>,
    /// Phones connected now.
    pub present: usize,
    /// Each asked step's counts per choice, one list per round: the first
    /// vote, then the vote after discussion (`SecondRound`).
    pub tallies: BTreeMap<usize, Vec<Vec<u32>>>,
    /// The steps whose counts were revealed (frozen then).
    pub revealed: BTreeSet<usize>,
}

impl Class {
    pub fn new(join: Result<String, server::Unopened>) -> Self {
        Class {
            join,
            present: 0,
            tallies: BTreeMap::new(),
            revealed: BTreeSet::new(),
        }
    }

    /// The round open on `step`'s question: 1, or 2 after a second round.
    pub fn round(&self, step: usize) -> u8 {
        self.tallies.get(&step).map_or(1, |r| r.len().max(1) as u8)
    }

    /// How many answered `step` in its latest round.
    pub fn answered(&self, step: usize, round: u8) -> u32 {
        self.tallies
            .get(&step)
            .and_then(|r| r.get(usize::from(round) - 1))
            .map_or(0, |c| c.iter().sum())
    }

    /// Freeze `step`'s counts as they are: the room sees them.
    pub fn reveal(&mut self, step: usize, choices: usize) {
        let rounds = self.tallies.entry(step).or_default();
        if rounds.is_empty() {
            rounds.push(vec![0; choices]);
        }
        self.revealed.insert(step);
    }

    /// Peer instruction: the first vote is kept, and the room votes again.
    /// Once per question, before its reveal.
    pub fn second_round(&mut self, step: usize, choices: usize) {
        if self.revealed.contains(&step) {
            return;
        }
        let rounds = self.tallies.entry(step).or_default();
        if rounds.is_empty() {
            rounds.push(vec![0; choices]);
        }
        if rounds.len() == 1 {
            rounds.push(vec![0; choices]);
        }
    }
}

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

/// Apply what the server said: the one entry, besides `update`, for the
/// room. Counts of a revealed question, or of a round that is not its
/// latest, were frozen and stay as shown.
pub fn heard(app: &mut App, heard: Heard) {
    let Some(class) = &mut app.class else { return };
    match heard {
        Heard::Present(n) => class.present = n,
        Heard::Tally {
            step,
            round,
            counts,
        } => {
            if class.revealed.contains(&step) || class.round(step) != round {
                return;
            }
            let rounds = class.tallies.entry(step).or_default();
            if rounds.is_empty() {
                rounds.push(Vec::new());
            }
            rounds[usize::from(round) - 1] = counts;
        }
    }
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

/// What the room is shown for the app as it is: the open question, or
/// the revealed question of the step on screen, or nothing.
pub fn showing(app: &App) -> Showing {
    let Some(class) = &app.class else {
        return Showing::Wait;
    };
    let words = |step: usize, why: bool| {
        Lang::ALL.map(|lang| {
            let trace = app.loaded.trace(lang);
            crate::quiz::asked(&app.loaded, trace, step).map(|q| {
                let why = why.then(|| {
                    q.why.clone().unwrap_or_else(|| {
                        trace.steps[step]
                            .narration
                            .clone()
                            .unwrap_or_else(|| crate::i18n::generic_explanation(trace, step))
                    })
                });
                (
                    q.answer,
                    Words {
                        prompt: q.prompt,
                        choices: q.choices,
                        why,
                    },
                )
            })
        })
    };
    if let Some(step) = app.quiz.asking
        && let [Some((_, zh)), Some((_, en))] = words(step, false)
    {
        let round = class.round(step);
        return Showing::Open {
            step,
            round,
            zh,
            en,
        };
    }
    let step = app.step;
    if class.revealed.contains(&step)
        && app.quiz.asking.is_none()
        && let [Some((answer, zh)), Some((_, en))] = words(step, true)
    {
        let counts = class.tallies.get(&step).cloned().unwrap_or_default();
        return Showing::Revealed {
            step,
            answer,
            zh,
            en,
            counts,
        };
    }
    Showing::Wait
}

/// The event loop's end of the room: the server (if it opened) and where
/// the results go.
pub struct Link {
    pub room: Option<server::Room>,
    pub results: Option<PathBuf>,
    /// The reveals last written: the file is written again at the next.
    written: BTreeSet<usize>,
    /// Why the results could not be written, said when the program ends
    /// (the class goes on meanwhile).
    pub failed: Option<String>,
}

impl Link {
    pub fn new(room: Option<server::Room>, results: Option<PathBuf>) -> Self {
        Link {
            room,
            results,
            written: BTreeSet::new(),
            failed: None,
        }
    }

    /// Apply everything the server said since the last look, without
    /// waiting: true when the app changed.
    pub fn pump(&mut self, app: &mut App) -> bool {
        let Some(room) = &self.room else { return false };
        let mut changed = false;
        while let Ok(h) = room.heard.try_recv() {
            heard(app, h);
            changed = true;
        }
        changed
    }

    /// Tell the phones what the app shows now; write the results when a
    /// reveal changed them.
    pub fn publish(&mut self, app: &App) {
        if let Some(room) = &self.room {
            room.show(showing(app));
        }
        let Some(class) = &app.class else { return };
        if self.written != class.revealed {
            self.written = class.revealed.clone();
            self.write(app);
        }
    }

    /// Write the results now (at the end: the counts of a question still
    /// open are written too); a failure is kept in `failed`.
    pub fn write(&mut self, app: &App) {
        if let Some(path) = &self.results {
            self.failed = results::write(path, app)
                .err()
                .map(|e| format!("--class-results {}: cannot write it: {e}", path.display()));
        }
    }
}
