//! One interface for every transcript format, as mitmproxy's content views
//! are one interface for every body: a `Reader` says how well it
//! recognises a value (`score`) and reads it. Detection asks each reader in
//! `readers::READERS` in turn and takes the best score (a tie: the earlier one).
//!
//! A new format is one file that builds its `READER` (`Reader::new`, then
//! what it reads), declared in `transcript/mod.rs` and listed by one line
//! in `readers::READERS` (and its name in the catalogue, `i18n`, as every
//! text on screen is), as `openhands.rs` shows.

use std::cell::OnceCell;

use serde_json::{Map, Value};

use super::builder::Builder;
use super::errors::at_line;
use super::format::{Format, PairRule};
use super::jsonl::Lines;
use crate::i18n::Label;
use crate::load::ScenarioError;
use crate::wire::Provider;

/// How a value is met: a whole JSON document (or one line of a JSONL of
/// requests), or the first line of a JSONL file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seen {
    Document,
    FirstLine,
}

/// What detection asks each reader of one value: how it is met, and the
/// one comparison the three APIs share, made for the first that asks.
pub(crate) struct Ask {
    pub seen: Seen,
    pub api: OnceCell<Option<(Format, Score)>>,
}

impl Ask {
    /// The value as the first line of a JSONL, if it is met so and is an
    /// object: what the formats told by their first line look at.
    pub(crate) fn first_line<'v>(&self, value: &'v Value) -> Option<&'v Map<String, Value>> {
        value.as_object().filter(|_| self.seen == Seen::FirstLine)
    }
}

/// How well a reader recognises a value: 0 not at all, the higher the
/// surer. The bands the readers use:
///
/// - 100 and up: a first JSONL line carries a mark only this format
///   writes (a Codex `payload`, a Claude Code `uuid`);
/// - 90 to 99: a document holds a key or shape only this format has
///   (`resourceSpans`, a SWE-agent `history`, a tap line naming its API);
/// - 60: a request, response or message list of one of the three APIs,
///   told apart by their shapes (`api`);
/// - below: a weaker guess.
pub(crate) type Score = u8;

/// Where a value stands: its file (for errors), the line it starts on,
/// and whether it is the whole file (its items numbered from 1) or one
/// line of a JSONL (its items all told at that line).
#[derive(Debug, Clone, Copy)]
pub(crate) struct At<'a> {
    pub path: &'a str,
    pub line: usize,
    pub whole: bool,
    /// A list's first items, read before (`Builder::repeated`): `roles`
    /// goes on from here, its items numbered as in the whole list.
    pub first: usize,
}

impl<'a> At<'a> {
    /// A value that is the whole file, starting at `line`.
    pub(crate) fn whole_file(path: &'a str, line: usize) -> Self {
        At {
            path,
            line,
            whole: true,
            first: 0,
        }
    }

    /// A value that is one line of a JSONL.
    pub(crate) fn jsonl_line(path: &'a str, line: usize) -> Self {
        At {
            path,
            line,
            whole: false,
            first: 0,
        }
    }

    /// The line item `i` of the value (from 0) is told at.
    pub(crate) fn item(self, i: usize) -> usize {
        if self.whole { i + 1 } else { self.line }
    }

    /// An error at the value's line.
    pub(crate) fn error(self, reason: impl Into<String>) -> ScenarioError {
        at_line(self.path, self.line, reason)
    }

    /// Each message of a list with the line it is told at and its `role`;
    /// a message without one is an error naming the `roles` expected.
    pub(crate) fn roles<'v>(
        self,
        messages: &'v [Value],
        roles: &'static str,
    ) -> impl Iterator<Item = Result<(usize, &'v str, &'v Value), ScenarioError>> + use<'v, 'a>
    {
        messages
            .iter()
            .enumerate()
            .skip(self.first)
            .map(move |(i, m)| {
                let role = m.get("role").and_then(Value::as_str).ok_or_else(|| {
                    self.error(format!(
                        "messages[{i}]: expected a message with a \"role\" ({roles})"
                    ))
                })?;
                Ok((self.item(i), role, m))
            })
    }
}

/// Reads a JSON value where it stands.
pub(crate) type ReadValue = fn(At, &Value, &mut Builder) -> Result<(), ScenarioError>;

/// Reads a JSONL file (its path, for errors), from its first line on.
pub(crate) type ReadLines = fn(&str, &mut Lines, &mut Builder) -> Result<(), ScenarioError>;

/// What a JSONL file of this format is.
#[derive(Clone, Copy)]
pub(crate) enum Jsonl {
    /// Not written as JSON lines.
    No,
    /// One model call a line (a request, `{request, response}`, a batch
    /// line), or a tap's recording: read by `request`.
    Requests,
    /// Lines of the format's own, read by its reader.
    Own(ReadLines),
}

/// A transcript format: what it is called and reflects, how it recognises
/// a value, and how it reads one. Built as `Reader::new(…)` and then what
/// it reads (`document`, `requests`, `lines`), so a format says only what
/// is its own.
pub(crate) struct Reader {
    pub format: Format,
    /// Its name on screen and in messages.
    pub name: Label,
    /// The `--transcript-format` value's help.
    pub about: &'static str,
    /// The API whose requests it holds or reflects (drawn as that API).
    pub provider: Provider,
    /// How its results name their calls.
    pub pairing: PairRule,
    pub score: fn(&Value, &Ask) -> Score,
    /// A whole JSON document; None: the format is JSON lines only.
    pub document: Option<ReadValue>,
    /// One line of a JSONL of model calls (a tap line); None: not read so.
    pub request: Option<ReadValue>,
    pub jsonl: Jsonl,
}

impl Reader {
    /// A format that holds (or reflects) `provider`'s requests, its
    /// results naming their calls as that API's do; it recognises and
    /// reads nothing until told how.
    pub(crate) const fn new(
        format: Format,
        name: Label,
        provider: Provider,
        about: &'static str,
    ) -> Reader {
        Reader {
            format,
            name,
            about,
            provider,
            pairing: PairRule::of_api(provider),
            score: |_, _| 0,
            document: None,
            request: None,
            jsonl: Jsonl::No,
        }
    }

    /// How well it recognises a value.
    pub(crate) const fn scored(self, score: fn(&Value, &Ask) -> Score) -> Reader {
        Reader { score, ..self }
    }

    /// Its results name their calls otherwise than its API's do.
    pub(crate) const fn paired(self, pairing: PairRule) -> Reader {
        Reader { pairing, ..self }
    }

    /// It reads a whole JSON document.
    pub(crate) const fn document(self, read: ReadValue) -> Reader {
        Reader {
            document: Some(read),
            ..self
        }
    }

    /// It reads one line of a JSONL of model calls (a tap line).
    pub(crate) const fn request(self, read: ReadValue) -> Reader {
        Reader {
            request: Some(read),
            ..self
        }
    }

    /// It reads one model call (or a list of messages), as a whole
    /// document and as each line of a JSONL of model calls.
    pub(crate) const fn requests(self, read: ReadValue) -> Reader {
        Reader {
            document: Some(read),
            request: Some(read),
            jsonl: Jsonl::Requests,
            ..self
        }
    }

    /// It reads JSON lines of its own, from the first on.
    pub(crate) const fn lines(self, read: ReadLines) -> Reader {
        Reader {
            jsonl: Jsonl::Own(read),
            ..self
        }
    }
}
