//! The transcript formats the importer reads.

/// The transcript formats the importer reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum Format {
    /// OpenAI Chat Completions: a messages array, a request body, or JSONL
    /// of requests (and their responses).
    Chat,
    /// OpenAI Responses: input/output items, request bodies, responses.
    Responses,
    /// Anthropic Messages: a request body or a messages array.
    Anthropic,
    /// Codex CLI rollout JSONL (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl).
    Codex,
    /// Claude Code session JSONL (~/.claude/projects/<dir>/<uuid>.jsonl).
    ClaudeCode,
    /// OpenTelemetry GenAI spans in OTLP JSON.
    Otel,
    /// OpenTelemetry GenAI spans as the SDKs print them (`span.to_json()`,
    /// the console exporter): one object per span, attributes plain.
    OtelSdk,
    /// A SWE-agent trajectory (`.traj`): its `history` of Chat messages,
    /// results naming their calls in `tool_call_ids`.
    SweAgent,
    /// A mini-swe-agent trajectory (`.traj.json`): `messages` and `info`;
    /// text-based runs name no call (paired by position, said so).
    MiniSweAgent,
    /// A Gemini CLI session (`chats/session-*.json` or `.jsonl`) or a
    /// `/chat save` checkpoint (`functionCall` / `functionResponse` parts).
    GeminiCli,
}

impl Format {
    pub const ALL: [Format; 10] = [
        Format::Chat,
        Format::Responses,
        Format::Anthropic,
        Format::Codex,
        Format::ClaudeCode,
        Format::Otel,
        Format::OtelSdk,
        Format::SweAgent,
        Format::MiniSweAgent,
        Format::GeminiCli,
    ];

    /// The name used on the command line and in snapshot names.
    /// (kebab-case, as clap names the `--transcript-format` values; a test
    /// checks the two agree.)
    pub fn code(self) -> &'static str {
        self.into()
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
    /// to the Responses API; Claude Code to Anthropic Messages).
    pub fn provider(self) -> crate::wire::Provider {
        use crate::wire::Provider;
        match self {
            // SWE-agent and mini-swe-agent keep Chat Completions messages;
            // OTel spans and Gemini CLI sessions (the Gemini API is not
            // drawn) are drawn in Chat's shape, as a note says.
            Format::Chat
            | Format::Otel
            | Format::OtelSdk
            | Format::SweAgent
            | Format::MiniSweAgent
            | Format::GeminiCli => Provider::Chat,
            Format::Responses | Format::Codex => Provider::Responses,
            Format::Anthropic | Format::ClaudeCode => Provider::Anthropic,
        }
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
    /// The rule a format follows unless its reader says otherwise.
    pub fn of(format: Format) -> PairRule {
        match format {
            Format::Chat | Format::SweAgent | Format::MiniSweAgent => PairRule::ToolCallId,
            Format::Responses | Format::Codex => PairRule::CallId,
            Format::Anthropic | Format::ClaudeCode => PairRule::ToolUseId,
            Format::GeminiCli => PairRule::FunctionResponseId,
            Format::Otel | Format::OtelSdk => PairRule::PartId,
        }
    }
}
