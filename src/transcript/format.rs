//! The transcript formats the importer reads: a `Format` names one of the
//! readers in `readers::READERS`, where each format says what it is
//! (`Format::reader`, `Format::ALL` and detection are there, so this
//! file, which every reader names, names none of them).

use std::fmt;

/// A transcript format, by the name the command line gives it
/// (`--transcript-format`). Its reader (`reader`) says everything else.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Format(&'static str);

// The formats other code names; any other is found by its code.
#[allow(non_upper_case_globals)]
impl Format {
    pub const Chat: Format = Format("chat");
    pub const Responses: Format = Format("responses");
    pub const Anthropic: Format = Format("anthropic");
    pub const Codex: Format = Format("codex");
    pub const ClaudeCode: Format = Format("claude-code");
    pub const Otel: Format = Format("otel");
    pub const OtelSdk: Format = Format("otel-sdk");
    pub const SweAgent: Format = Format("swe-agent");
    pub const MiniSweAgent: Format = Format("mini-swe-agent");
    pub const GeminiCli: Format = Format("gemini-cli");
}

impl Format {
    /// A format's code, as its reader is listed with it.
    pub(crate) const fn new(code: &'static str) -> Format {
        Format(code)
    }

    /// The name used on the command line and in snapshot names
    /// (kebab-case; a test checks clap names the values so).
    pub fn code(self) -> &'static str {
        self.0
    }

    /// The format of a provider named as `export --format requests` names it.
    pub fn of_provider(name: &str) -> Option<Format> {
        use crate::wire::Provider;
        Provider::ALL
            .into_iter()
            .find(|p| p.code() == name)
            .map(|p| match p {
                Provider::Chat => Format::Chat,
                Provider::Responses => Format::Responses,
                Provider::Anthropic => Format::Anthropic,
            })
    }

    /// The API whose requests this format holds or reflects (Codex talks
    /// to the Responses API; Claude Code to Anthropic Messages; the others
    /// are drawn in Chat's shape, as a note says).
    pub fn provider(self) -> crate::wire::Provider {
        self.reader().provider
    }
}

impl fmt::Debug for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl clap::ValueEnum for Format {
    fn value_variants<'a>() -> &'a [Self] {
        &Format::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0).help(self.reader().about))
    }
}

/// How a file's results name the calls they answer: the format's own
/// rule, which the about overlay states (one reader can follow two: a
/// mini-swe-agent run with tool calling pairs by id, a text-based one by
/// position).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairRule {
    /// Chat Completions: a `tool` message's `tool_call_id` (SWE-agent: its
    /// `tool_call_ids`), among the results after the call's reply.
    ToolCallId,
    /// Responses: a `function_call_output` item's `call_id`, after the
    /// call's turn.
    CallId,
    /// Anthropic Messages: a `tool_result` block's `tool_use_id`, in the
    /// user message after the reply.
    ToolUseId,
    /// Gemini: a `functionResponse` part's `id` (a checkpoint's part
    /// without one: the call of that name in the model turn before).
    FunctionResponseId,
    /// OpenTelemetry GenAI messages: a `tool_call_response` part's `id`.
    PartId,
    /// No ids in the file: the user message right after a reply is the
    /// output of its one command (mini-swe-agent's text-based runs).
    Position,
}

impl PairRule {
    /// The rule of an API's own results.
    pub const fn of_api(provider: crate::wire::Provider) -> PairRule {
        use crate::wire::Provider;
        match provider {
            Provider::Chat => PairRule::ToolCallId,
            Provider::Responses => PairRule::CallId,
            Provider::Anthropic => PairRule::ToolUseId,
        }
    }

    /// The rule a format follows unless its reader says otherwise.
    pub fn of(format: Format) -> PairRule {
        format.reader().pairing
    }
}
