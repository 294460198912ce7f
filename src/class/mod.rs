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
mod talk;

pub use talk::{Heard, Phrased, Showing, Words};

// The room as the app keeps it lives below the app (`room.rs`).
pub use crate::room::Class;

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::app::App;
use crate::scenario::Lang;

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

/// What the room is shown for the app as it is: the open question, or
/// the revealed question of the step on screen, or nothing.
pub fn showing(app: &App) -> Showing {
    let Some(class) = &app.class else {
        return Showing::Wait;
    };
    // The question at `step` in every written language, and its answer.
    let words = |step: usize, why: bool| {
        let each = Lang::ALL.map(|lang| {
            let trace = app.loaded.trace(lang);
            crate::quiz::asked(&app.loaded, trace, step).map(|q| {
                let why = why.then(|| {
                    q.why
                        .clone()
                        .unwrap_or_else(|| crate::i18n::explanation(trace, step))
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
        });
        let answer = each[0].as_ref()?.0;
        let words: Vec<Words> = each
            .into_iter()
            .map(|w| w.map(|(_, w)| w))
            .collect::<Option<_>>()?;
        Some((answer, Phrased(words.try_into().ok()?)))
    };
    if let Some(step) = app.quiz.asking
        && let Some((_, words)) = words(step, false)
    {
        let round = class.round(step);
        return Showing::Open { step, round, words };
    }
    let step = app.step;
    if class.revealed.contains(&step)
        && app.quiz.asking.is_none()
        && let Some((answer, words)) = words(step, true)
    {
        let counts = class.tallies.get(&step).cloned().unwrap_or_default();
        return Showing::Revealed {
            step,
            answer,
            words,
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
