//! One interface for every transcript format, as mitmproxy's content views
//! are one interface for every body: a `Reader` says how well it
//! recognises a value (`score`) and reads it. Detection asks each reader in
//! `readers::READERS` in turn and takes the best score (a tie: the earlier one).
//!
//! A new format is one file that defines its `READER` and one line in
//! `readers::READERS` (and its name in the catalogue, `i18n`), as
//! `openhands.rs` shows.

use std::cell::OnceCell;

use serde_json::Value;

use super::builder::Builder;
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

/// Reads a JSON value: the path (for errors), the value, its line, and
/// whether it is the whole file (items numbered from 1) or one line of it.
pub(crate) type ReadValue =
    fn(&str, &Value, usize, bool, &mut Builder) -> Result<(), ScenarioError>;

/// Reads a JSONL file from its first line on.
pub(crate) type ReadLines =
    fn(&str, (usize, Value), &mut Lines, &mut Builder) -> Result<(), ScenarioError>;

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
/// a value, and how it reads one.
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
