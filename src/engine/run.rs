//! The state of one run of the loop (`Run`), and how a step, a message or
//! a result is recorded into its trace. Every part of the engine acts on
//! it: the loop (`mod.rs`), the host's checks and tool runs (`host.rs`,
//! `policy.rs`), custom tools and compaction. This file names none of
//! them, so each can take `Run` without a cycle back.

use crate::recorder::Recorder;
use crate::rules::RuleMatcher;
use crate::scenario::{Lang, Rule, Scenario, Text};
use crate::trace::{Lane, Message, Role, Said, StepKind, ToolResult};

use super::tools::Workspace;

/// The words for what the host or a tool said, in a language. The engine
/// records the fact (`Said`); the caller says how it reads
/// (`i18n::said`), so the engine knows no wording.
pub type Words = fn(&Said, Lang) -> String;

/// What the run took from the scenario's words, so the trace in another
/// language can say them (`told`): the task and each reply by the message
/// that holds them; each reply's words by its model call's index, for the
/// tokens it generated; the rule chosen at each model call (its number),
/// to tell whether the other language's context would choose it too.
#[derive(Debug, Default)]
pub(super) struct Sources<'a> {
    pub(super) scripted: Vec<(usize, &'a Text)>,
    pub(super) replies: Vec<(usize, &'a Text)>,
    pub(super) chosen: Vec<(u32, usize)>,
}

/// One run of a scenario's loop as it goes: the trace recorded so far,
/// the workspace the tools act on, and what the host keeps to decide how
/// the run ends.
pub(super) struct Run<'a> {
    pub(super) scenario: &'a Scenario,
    pub(super) lang: Lang,
    pub(super) words: Words,
    /// The trace as it grows, recorded as a transcript's is (`Recorder`).
    pub(super) rec: Recorder,
    pub(super) workspace: Workspace,
    pub(super) last_write: Option<usize>,
    pub(super) last_pass: Option<usize>,
    /// The final reply's rule, to tell whether it says the task is done.
    pub(super) final_rule: Option<&'a Rule>,
    /// Which rule of the scripted model holds (see `crate::rules`).
    pub(super) rules: RuleMatcher<'a>,
    /// The scenario's words the run took, for the trace in another
    /// language (`told`).
    pub(super) sources: Sources<'a>,
}

impl Run<'_> {
    /// Record a step; returns its index. The author's narration is set
    /// once the run is known (`load`), since a key may name a later event.
    pub(super) fn step(&mut self, kind: StepKind, from: Option<Lane>, to: Lane) -> usize {
        self.rec.step(kind, from, to)
    }

    pub(super) fn current_step(&self) -> usize {
        self.rec.next_step()
    }

    pub(super) fn append(&mut self, message: Message) {
        self.rec.append(message);
    }

    /// A message for the context, appended at `step`; sizes are filled in
    /// by `append`.
    pub(super) fn message(&self, role: Role, text: String, step: usize) -> Message {
        Message {
            step,
            ..self.rec.message(role, text)
        }
    }

    /// What the host or a tool said, in the trace's language, with its
    /// English form for rules when that is another text (a file's content
    /// reads the same in every language: rules look at it once).
    pub(super) fn said(&self, said: &Said) -> (String, Option<String>) {
        let text = (self.words)(said, self.lang);
        let canonical = (self.lang != Lang::En)
            .then(|| (self.words)(said, Lang::En))
            .filter(|c| *c != text);
        (text, canonical)
    }

    /// A result for a call that says `said`.
    pub(super) fn result(&self, said: Said, is_error: bool) -> ToolResult {
        let (text, canonical) = self.said(&said);
        ToolResult {
            text: text.into(),
            is_error,
            replayed: false,
            canonical,
            said: Some(said),
        }
    }
}
