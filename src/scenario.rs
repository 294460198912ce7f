//! A scenario: the fixed inputs of one teaching run, as written by an author
//! in `scenarios/*.json`. Format documented in `scenarios/README.md`.
//!
//! Long because it is the scenario file's whole schema: one serde type per
//! part of the format, each with its defaults and its documentation.

use std::collections::BTreeMap;

use serde::Deserialize;

/// The languages the screen is shown in (`--lang zh|en`): the two every
/// text is written in, and a pseudo-locale made from English.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, strum::IntoStaticStr, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Lang {
    Zh,
    En,
    /// English's texts accented and a third longer (`i18n::pseudo`), for
    /// testers: text that stays plain ASCII did not come from the
    /// catalogue or the lesson, and every frame holds longer texts. Not
    /// written (no lesson or catalogue column), not in the help or the
    /// switch key's round (`--lang pseudo` only).
    #[value(hide = true)]
    Pseudo,
}

impl Lang {
    /// The languages texts are written in, in the order of their columns
    /// (`i18n::Label`, `Text`); the switch key goes round them. Adding one
    /// is a variant here, its code below, and one text per entry of the
    /// catalogue in `i18n` (the compiler lists every entry to fill).
    pub const ALL: [Lang; 2] = [Lang::Zh, Lang::En];
    pub const COUNT: usize = Lang::ALL.len();
    /// Every language the screen is shown in: the written ones, then the
    /// pseudo-locale (each at its `index`).
    pub const SHOWN: [Lang; 3] = [Lang::Zh, Lang::En, Lang::Pseudo];
    /// The language the program opens in, and the one a lesson's run is
    /// made in (its token counts decide when the host compacts).
    pub const DEFAULT: Lang = Lang::Zh;

    /// Where this language's text sits in a `Label` (a written language;
    /// the pseudo-locale's is the one after them, held apart).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The written language whose texts this one shows: its own, or for
    /// the pseudo-locale English's, transformed (`i18n::pseudo::shown`).
    pub const fn written(self) -> Lang {
        match self {
            Lang::Pseudo => Lang::En,
            written => written,
        }
    }

    /// Is this a language texts are written in (not made from another)?
    pub fn is_written(self) -> bool {
        self.written() == self
    }

    /// `written`, a text in `self.written()`, as this language shows it.
    pub fn shown(self, written: &str) -> &str {
        match self.is_written() {
            true => written,
            false => crate::pseudo::of(written),
        }
    }

    pub fn code(self) -> &'static str {
        self.into()
    }

    /// The BCP 47 tag of a text in it (`xml:lang`, `<html lang>`): the
    /// Chinese is in simplified characters; the pseudo-locale's is
    /// Android's for accented pseudo-English (`en-XA`,
    /// developer.android.com/guide/topics/resources/pseudolocales).
    pub fn tag(self) -> &'static str {
        match self {
            Lang::Zh => "zh-Hans",
            Lang::En => "en",
            Lang::Pseudo => "en-XA",
        }
    }

    /// The language the switch key goes to: the next written one, round
    /// the list (from the pseudo-locale, the first).
    pub fn other(self) -> Lang {
        match self.is_written() {
            true => Lang::ALL[(self.index() + 1) % Lang::COUNT],
            false => Lang::ALL[0],
        }
    }

    /// A written language by its code (a lesson's `{"zh": …, "en": …}`).
    pub fn parse(s: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|lang| lang.code() == s)
    }
}

/// A text in every language: one column per written `Lang`, in
/// `Lang::ALL`'s order. A lesson file writes it as `{"zh": "…", "en":
/// "…"}`; a third language is a third key there and a third column here.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(from = "file::Text")]
pub struct Text([String; Lang::COUNT]);

/// `Text` as a lesson file writes it, under the same name for serde's
/// errors ("expected struct Text", which `load::wording` words).
mod file {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Text {
        pub zh: String,
        pub en: String,
    }
}

impl From<file::Text> for Text {
    fn from(file: file::Text) -> Text {
        Text([file.zh, file.en])
    }
}

impl Text {
    /// The texts in `Lang::ALL`'s order.
    pub fn new(by_lang: [String; Lang::COUNT]) -> Text {
        Text(by_lang)
    }

    /// Each language's text, made by `f`.
    pub fn of(f: impl Fn(Lang) -> String) -> Text {
        Text(Lang::ALL.map(f))
    }

    /// The same words in every language (a name, a path).
    pub fn same(text: &str) -> Text {
        Text::of(|_| text.to_string())
    }

    pub fn get(&self, lang: Lang) -> &str {
        lang.shown(&self.0[lang.written().index()])
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Short stable name, used on the command line and in file names.
    pub name: String,
    pub title: Text,
    /// What the user asks; the first message the model will see.
    pub task: Text,
    /// The fixed inputs and conditions, stated plainly (shown by `a`).
    #[serde(default)]
    pub conditions: Vec<Text>,
    pub about: About,
    /// The in-memory workspace: path → content. Nothing touches real disks.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
    pub tools: Vec<ToolDef>,
    /// The most model calls the host will make.
    pub budget: u32,
    /// What-if switches: mistakes a harness can make.
    #[serde(default)]
    pub harness: Harness,
    /// What a careful host does beyond the loop itself.
    #[serde(default)]
    pub host: HostCare,
    /// The check the host runs before it accepts "done" after a change.
    #[serde(default)]
    pub verify: Option<Verify>,
    /// The scripted model: ordered rules over the context it was sent.
    pub model: Vec<Rule>,
    /// How the author says the loop ends; `check` reports a mismatch.
    pub expect: EndStatus,
    /// Plain-words explanation per step: a step number (1-based, as a
    /// string key) or an event anchor (`crate::narration`).
    #[serde(default)]
    pub narration: BTreeMap<String, Text>,
    /// The author's own questions for the quiz (predict, then reveal).
    #[serde(default)]
    pub quiz: Vec<QuizItem>,
    /// The steps the quiz asks about, as narration keys (`"7"`,
    /// `"reply.2"`, `"config.result"`); empty: every step that has a
    /// question. The author marks the steps worth a class's pause.
    #[serde(default)]
    pub quiz_steps: Vec<String>,
    /// A shipped scenario that is the same task under a correct harness:
    /// `a` offers it and `c` opens the two runs side by side.
    #[serde(default)]
    pub twin: Option<String>,
    /// How the API names tool calls: `call_1` (default), or opaque ids in
    /// the style of OpenAI (`call_…`) or Anthropic (`toolu_01…`).
    #[serde(default)]
    pub ids: IdStyle,
    /// The model's context window and what the host does when the next
    /// request would not fit (`engine::compact`).
    #[serde(default)]
    pub context: Option<ContextLimit>,
    /// The system prompt the host sends first on every model call (Chat: a
    /// `system` message; Responses: `instructions`; Anthropic: `system`).
    #[serde(default)]
    pub system: Option<Text>,
    /// The API the host talks to; by default it follows `ids` (Anthropic
    /// ids mean Anthropic Messages, others OpenAI Chat Completions).
    #[serde(default)]
    pub provider: Option<crate::provider::Provider>,
    /// What the host sends as `tool_choice`: one choice for every model
    /// call, or a list, the Nth for model call N and the last for every
    /// call after (`ToolChoice::parse`; `check` says what is wrong). Left
    /// out, the request has none: the provider's default, auto.
    #[serde(default)]
    pub tool_choice: Option<serde_json::Value>,
    /// The user stops the run while a call runs, then writes again
    /// (`engine/interrupt.rs`).
    #[serde(default)]
    pub interrupt: Option<Interrupt>,
    /// The host asks for each reply as a stream (`"stream": true` in the
    /// request): each reply's events become steps of their own before the
    /// host takes the whole reply (`wire::stream`).
    #[serde(default)]
    pub stream: bool,
    /// The provider turns a model call's first HTTP request away (a rate
    /// limit, an overload); the host waits as `retry-after` asks and sends
    /// the same request again (`engine/retry.rs`).
    #[serde(default)]
    pub provider_errors: Vec<ProviderError>,
    /// A sub-agent the model starts with a call of one tool: its own loop,
    /// with its own system prompt, tools and context; only its final reply
    /// returns, as that call's result (`load::sub_agent`).
    #[serde(default)]
    pub sub_agent: Option<SubAgent>,
    /// An MCP server the host connects to at start-up (`engine/mcp.rs`):
    /// it lists some of `tools` (`tools/list`), whose calls the host sends
    /// it (`tools/call`).
    #[serde(default)]
    pub mcp: Option<McpServer>,
}

/// A sub-agent (Claude Code's Task/Agent tool, the OpenAI Agents SDK's
/// `as_tool`): the parent's call of `tool` starts it with the call's
/// `prompt` argument as its task; it runs its own loop over the lesson's
/// files, and its final reply is the call's result. Its messages never
/// enter the parent's context.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubAgent {
    /// The parent's tool whose call starts it (a tool of `tools`, with
    /// no `results`: the sub-agent's final reply is its one result).
    pub tool: String,
    /// Its name, as the parent's screen and its own title say it.
    pub title: Text,
    /// Its own system prompt.
    pub system: Text,
    /// Its own tools: the parent's are not offered to it.
    pub tools: Vec<ToolDef>,
    /// The most model calls its loop makes.
    pub budget: u32,
    /// Its own scripted model, over its own context.
    pub model: Vec<Rule>,
    /// How its loop ends.
    pub expect: EndStatus,
    /// Its steps' narration, keyed as the lesson's is.
    #[serde(default)]
    pub narration: BTreeMap<String, Text>,
}

/// An MCP server (modelcontextprotocol.io, specification 2025-06-18): the
/// host asks it for its tools before the first model call and sends it
/// each call of them. Its tools are defined under `tools` as custom tools
/// (the definitions its `tools/list` returns, the results it gives).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct McpServer {
    /// The server's name, as the host's configuration names it.
    pub server: String,
    /// The tools it lists, in its order: names of custom tools.
    pub tools: Vec<String>,
}

impl McpServer {
    /// Does the server serve the tool named `tool`?
    pub fn serves(&self, tool: &str) -> bool {
        self.tools.iter().any(|t| t == tool)
    }
}

/// One model call whose first HTTP request the provider turns away.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderError {
    /// The model call (1-based) whose first request is turned away.
    pub model_call: u32,
    /// Why: each provider answers it with its own status and body
    /// (`wire::turned_away`).
    pub error: HttpError,
    /// The seconds the response's `retry-after` header asks for.
    pub retry_after: u32,
}

/// Why a provider turns a request away before the model runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum HttpError {
    /// The organisation's own limit (requests or tokens a minute): 429.
    RateLimit,
    /// The provider is short of capacity for everyone: Anthropic 529,
    /// OpenAI 503.
    Overloaded,
}

/// The user interrupts the agent while the call labelled `call` runs (the
/// first time it runs): that call and every call of its reply still
/// running are stopped, and each gets a result that says so; then the
/// user's `message` is appended, a second user turn.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Interrupt {
    /// The `label` of the call the user stops.
    pub call: String,
    /// What the user writes after stopping it.
    pub message: Text,
}

impl Scenario {
    /// The tool choice the host sends with model call `number` (1-based),
    /// if the lesson sets one.
    pub fn tool_choice_at(&self, number: u32) -> Option<ToolChoice> {
        let list = match self.tool_choice.as_ref()? {
            serde_json::Value::Array(list) => list.as_slice(),
            one => std::slice::from_ref(one),
        };
        let at = (number as usize)
            .saturating_sub(1)
            .min(list.len().checked_sub(1)?);
        ToolChoice::parse(&list[at]).ok()
    }

    /// Does the model reason (a rule returns reasoning), and does the host
    /// send it back?
    pub fn thinking(&self) -> Thinking {
        match (
            self.model.iter().any(|r| r.reasoning.is_some()),
            self.harness.drop_reasoning,
        ) {
            (false, _) => Thinking::Off,
            (true, false) => Thinking::SentBack,
            (true, true) => Thinking::Dropped,
        }
    }

    /// The provider its model calls go to: as written, else as its ids
    /// say; a lesson whose model reasons opens in Responses, where the
    /// reasoning has an item of its own (Chat Completions returns none).
    pub fn provider(&self) -> crate::provider::Provider {
        use crate::provider::Provider;
        self.provider.unwrap_or(match self.ids {
            IdStyle::Anthropic => Provider::Anthropic,
            _ if self.thinking() != Thinking::Off => Provider::Responses,
            IdStyle::Sequential | IdStyle::Openai => Provider::Chat,
        })
    }
}

/// How the host lets the model use its tools on one model call (Chat and
/// Responses `tool_choice`; Anthropic `tool_choice.type`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolChoice {
    /// The model decides: words, one call or several (the default).
    Auto,
    /// At least one call (Anthropic: `any`).
    Required,
    /// No call: words only.
    None,
    /// Exactly one call, of this tool.
    Tool(String),
}

impl ToolChoice {
    /// `"auto"`, `"required"`, `"none"` or `{"tool": NAME}`; Err says what
    /// was expected.
    pub fn parse(v: &serde_json::Value) -> Result<ToolChoice, String> {
        const EXPECTED: &str =
            "expected \"auto\", \"required\", \"none\" or {\"tool\": NAME} (a tool offered)";
        match v {
            serde_json::Value::String(s) => match s.as_str() {
                "auto" => Ok(ToolChoice::Auto),
                "required" => Ok(ToolChoice::Required),
                "none" => Ok(ToolChoice::None),
                other => Err(format!("unknown value {other:?}; {EXPECTED}")),
            },
            serde_json::Value::Object(o) => match (o.len(), o.get("tool")) {
                (1, Some(serde_json::Value::String(name))) => Ok(ToolChoice::Tool(name.clone())),
                _ => Err(EXPECTED.to_string()),
            },
            _ => Err(EXPECTED.to_string()),
        }
    }

    /// The model must call a tool: it writes no words before the call
    /// (Anthropic prefills the reply with the call).
    pub fn forces_a_call(&self) -> bool {
        matches!(self, ToolChoice::Required | ToolChoice::Tool(_))
    }
}

/// A question the author adds for one step: asked, in quiz mode, before the
/// step is shown, instead of the generated one.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuizItem {
    /// The step asked about, from 2 (step 1 is on screen before any
    /// question), or an event key as narration takes it (`reply.2`).
    pub step: QuizStep,
    pub question: Text,
    /// Two to four.
    pub choices: Vec<Text>,
    /// The right choice, counted from 1 as the screen numbers them.
    pub answer: usize,
    /// Why, in the author's words; shown with the step's explanation.
    #[serde(default)]
    pub why: Option<Text>,
}

/// A quiz question's step: its number, or an event key (`reply.2`,
/// `LABEL.result`) that `load` turns into the number of its step once
/// the run is made, so a question stays on its event when steps move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QuizStep {
    Number(usize),
    Key(String),
}

impl QuizStep {
    /// The step number; 0 for a key not yet resolved (`load` resolves
    /// every key before the quiz is read, or refuses the file).
    pub fn number(&self) -> usize {
        match self {
            QuizStep::Number(n) => *n,
            QuizStep::Key(_) => 0,
        }
    }
}

impl<'de> Deserialize<'de> for QuizStep {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = QuizStep;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a step number (2 or more) or an event key such as \"reply.2\"")
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<QuizStep, E> {
                Ok(QuizStep::Number(n as usize))
            }
            fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<QuizStep, E> {
                Ok(QuizStep::Key(key.to_string()))
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// The style of the tool-call ids in a run. Real ids are opaque strings
/// made by the provider's API; the host echoes them back exactly.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum IdStyle {
    /// `call_1`, `call_2`, … numbered across the run.
    #[default]
    Sequential,
    /// OpenAI Chat Completions `tool_calls[].id` (and Responses `call_id`):
    /// `call_` then 24 letters and digits.
    Openai,
    /// Anthropic Messages `tool_use.id`: `toolu_01` then 22 letters and digits.
    Anthropic,
}

/// What the host does with an offered tool's calls.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Policy {
    /// Runs a valid call.
    #[default]
    Allow,
    /// Refuses every call: "not authorised", returned as an error result.
    Deny,
    /// Asks the user first; the scripted `approvals` answer.
    Ask,
}

/// A custom tool's scripted result: the first entry whose `args` and
/// `files` hold is the answer; an entry with neither is the default.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedResult {
    /// These arguments must have these values (non-strings as JSON text).
    #[serde(default)]
    pub args: BTreeMap<String, String>,
    /// What must hold in the workspace for this entry to answer.
    #[serde(default)]
    pub files: Vec<FileCheck>,
    /// `false`: an error result.
    #[serde(default = "yes")]
    pub ok: bool,
    pub text: Text,
    /// A side-effecting tool's change: this file gets this content.
    #[serde(default)]
    pub writes: Option<FileWrite>,
    /// Files this answer reads (a search, a lint), marked read on the
    /// environment line as a built-in read would be.
    #[serde(default)]
    pub reads: Vec<String>,
    /// Only the Nth run of the tool with these arguments (an operation id
    /// aside) gets this answer: a failure that a retry gets past.
    #[serde(default)]
    pub attempt: Option<u32>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileWrite {
    pub path: String,
    pub content: String,
}

/// The user's scripted answer when the host asks about a call: the first
/// entry whose `args` match.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Approval {
    #[serde(default)]
    pub args: BTreeMap<String, String>,
    pub decision: ApprovalDecision,
    /// Why the user says no (or edits): goes back to the model.
    #[serde(default)]
    pub reason: Option<Text>,
    /// With `edit`: the arguments the user changes, by name.
    #[serde(default)]
    pub edit: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalDecision {
    Approve,
    Deny,
    Edit,
}

/// Where an operation id comes from.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum OpIdSource {
    /// The `op_id` argument the model fills (declare it in the parameters).
    #[default]
    Param,
    /// The host derives it from the tool and its arguments.
    Derived,
}

/// A context window in tokens (`wire::tokens`, o200k_base) and the
/// host's policy when the next request would exceed it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContextLimit {
    /// The window, in tokens (system prompt, tool schemas and messages).
    pub window: usize,
    pub policy: CompactPolicy,
    /// For `summarize`: the summary the host puts in place of earlier
    /// turns (scripted; real harnesses usually have a model write it):
    /// one text for every compaction, or a list, the Nth for the Nth.
    #[serde(default)]
    pub summary: Option<Summaries>,
    /// How the window is counted: `o200k` (when not said), or `estimate`,
    /// as files written before 2026-12-01 meant it (`WindowCount`). A file
    /// that does not say, and fails as counted now but not as counted
    /// then, is read as then, with a warning (`load`).
    #[serde(default)]
    pub count: Option<WindowCount>,
    /// The file did not say, and is read as counted before (`load`).
    #[serde(skip)]
    pub count_assumed: bool,
}

/// How the host counts the request against the window.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize, strum::IntoStaticStr,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum WindowCount {
    /// o200k_base tokens of the whole request: the system prompt, the
    /// tools' schemas and every message as its provider receives it.
    #[default]
    O200k,
    /// The count before 2026-12-01: about four ASCII characters a token
    /// and one a token for any other character, over the messages (texts,
    /// call ids, tool names and arguments) and the tools' signatures and
    /// descriptions; no system prompt, no JSON.
    Estimate,
}

impl ContextLimit {
    /// The summary of the `n`th compaction (from 0). Past the end of a
    /// list, the last one (`check` says the list is short).
    pub fn summary(&self, n: usize) -> Option<&Text> {
        match self.summary.as_ref()? {
            Summaries::One(text) => Some(text),
            Summaries::Each(list) => list.get(n).or(list.last()),
        }
    }
}

/// The summaries of a `summarize` policy: `{"zh", "en"}` for every
/// compaction, or `[{"zh", "en"}, …]`, one per compaction in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Summaries {
    One(Text),
    Each(Vec<Text>),
}

impl<'de> Deserialize<'de> for Summaries {
    /// An object is one text, an array a list of them; serde's own words
    /// for a fault inside either (`missing field en`).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Either;
        impl<'de> serde::de::Visitor<'de> for Either {
            type Value = Summaries;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "a text {\"zh\": …, \"en\": …} for every compaction, or a list of them, \
                     one per compaction",
                )
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Summaries, A::Error> {
                Text::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(Summaries::One)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                seq: A,
            ) -> Result<Summaries, A::Error> {
                Vec::<Text>::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))
                    .map(Summaries::Each)
            }
        }
        d.deserialize_any(Either)
    }
}

/// What the host does when the next request would exceed the window.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Deserialize,
    serde::Serialize,
    strum::IntoStaticStr,
    strum::VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum CompactPolicy {
    /// Replace the oldest tool results, one by one, with a placeholder
    /// result under the same call id, until the request fits.
    DropOldestResults,
    /// Replace the oldest turns (a reply with its calls and all their
    /// results) with one summary message, until the request fits.
    Summarize,
}

impl CompactPolicy {
    pub fn code(self) -> &'static str {
        self.into()
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct About {
    pub why: Text,
    pub how: Text,
    pub cost: Text,
    pub check: Text,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolDef {
    /// An offered tool names a built-in (read_file, patch_file, run_tests,
    /// …) or is a custom tool, one with `results`.
    pub name: String,
    pub description: Text,
    /// Argument names, in order; the host refuses any other set.
    #[serde(default)]
    pub params: Vec<String>,
    /// A tool that exists but is not offered to the model: the host refuses it.
    #[serde(default = "yes")]
    pub offered: bool,
    /// For run_tests: what must hold in the workspace for the tests to pass.
    #[serde(default)]
    pub checks: Vec<FileCheck>,
    /// A custom tool's JSON schema (`type: object`, `properties`,
    /// `required`), sent to the model exactly as written.
    #[serde(default)]
    pub parameters: Option<serde_json::Value>,
    /// Whether a successful run changes the environment (counts a write).
    #[serde(default)]
    pub side_effects: bool,
    /// A custom tool's scripted results, tried in order.
    #[serde(default)]
    pub results: Vec<ScriptedResult>,
    /// allow (default), deny (the host refuses: not authorised), ask (the
    /// host asks the user).
    #[serde(default)]
    pub policy: Policy,
    /// With `ask`: the user's scripted answers.
    #[serde(default)]
    pub approvals: Vec<Approval>,
    /// Where the operation id comes from: the model's `op_id` argument
    /// (default) or derived by the host from the call.
    #[serde(default)]
    pub op_id: OpIdSource,
    /// A custom tool sent with `strict: true`: the provider constrains the
    /// model's arguments to the schema, which must then be closed (every
    /// object `additionalProperties: false`, every property required).
    #[serde(default)]
    pub strict: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileCheck {
    pub path: String,
    /// The file must contain this text somewhere.
    #[serde(default)]
    pub contains: Option<String>,
    /// The file must have a line exactly like this (so `retries = 3` does
    /// not pass `retries = 30`).
    #[serde(default)]
    pub line: Option<String>,
}

#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Harness {
    /// Forget to append tool results to the messages.
    #[serde(default)]
    pub drop_results: bool,
    /// Forget to append the model's tool calls (a reply's text is kept, a
    /// reply of calls only is not appended at all), and so their results:
    /// the next request holds neither, and the provider accepts it.
    #[serde(default)]
    pub drop_calls: bool,
    /// Stop the whole loop when a tool returns an error.
    #[serde(default)]
    pub crash_on_tool_error: bool,
    /// Pair results with calls by arrival order instead of by call id.
    #[serde(default)]
    pub pair_by_order: bool,
    /// Accept the model's "done" without running the verification.
    #[serde(default)]
    pub trust_done: bool,
    /// OpenAI Responses only: answer a call under its `function_call`
    /// item's `id` (`fc_…`) instead of its `call_id`.
    #[serde(default)]
    pub answer_with_item_id: bool,
    /// When the user interrupts, append no result for the calls stopped:
    /// the next request holds calls without results.
    #[serde(default)]
    pub forget_interrupted: bool,
    /// Anthropic only: send a reply back without the `thinking` block it
    /// came with (the provider rejects the next request: `wire::reasoning`).
    #[serde(default)]
    pub drop_reasoning: bool,
    /// Send no operation id to a side-effecting tool's service: a call
    /// sent again after a change landed makes the change again.
    #[serde(default)]
    pub ignore_op_ids: bool,
}

/// A careful host's habits (the opposite of `Harness`'s mistakes); each
/// is off unless the lesson turns it on, so a file keeps its meaning.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct HostCare {
    /// Append one reply's results in the order of its calls, all at the
    /// step the last of them arrives, not each as it arrives: the APIs
    /// accept either order, but prompt caching matches a request byte for
    /// byte, so an order that changes between requests misses the cache
    /// (vercel/ai#16567).
    #[serde(default)]
    pub results_in_call_order: bool,
    /// At the last model call the budget allows, run none of the reply's
    /// calls (no model call is left to read their results): end the loop
    /// and tell the user which calls were not run.
    #[serde(default)]
    pub checks_budget_before_running: bool,
    /// Read the provider's prompt-cache report: each response's usage
    /// says how many input tokens the provider served from its cache of
    /// earlier requests' prefixes (`wire::cache`). OpenAI caches without
    /// being asked; Anthropic only where a request marks `cache_control`,
    /// which no lesson writes, so `load` refuses it there.
    #[serde(default)]
    pub caches_prompt: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Verify {
    pub tool: String,
    #[serde(default)]
    pub args: BTreeMap<String, String>,
}

/// One rule of the scripted model: when `when` holds for the context it was
/// sent, reply with `say` and/or `calls`. Rules are tried in order.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    #[serde(default)]
    pub when: Condition,
    #[serde(default)]
    pub say: Option<Text>,
    #[serde(default)]
    pub calls: Vec<CallSpec>,
    /// On a reply without calls: `false` when the reply says the task could
    /// not be done (a refused action, a file out of reach). The screen then
    /// says "not done" however the loop ended.
    #[serde(default)]
    pub task_done: Option<bool>,
    /// Fire at most once: once chosen, the rule never holds again.
    #[serde(default)]
    pub once: bool,
    /// The reply stopped at the output-token limit: the response says so
    /// (Chat `finish_reason: "length"`, Responses `status: "incomplete"`,
    /// Anthropic `stop_reason: "max_tokens"`), and a call in it may be cut.
    #[serde(default)]
    pub cut_off: bool,
    /// The reasoning the model returns with this reply, as its provider
    /// shows it: a Responses `reasoning` item's summary, an Anthropic
    /// `thinking` block's text (Chat Completions returns none). A scenario
    /// with any turns reasoning on in every request (`wire::reasoning`).
    #[serde(default)]
    pub reasoning: Option<Text>,
}

/// Every field present must hold; an empty condition always holds.
/// `all` and `any` nest conditions, so one rule can ask for several
/// results (`"all": [{"has_result": …}, {"has_result": …}]`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// The context holds a result paired (by id) with a matching call.
    #[serde(default)]
    pub has_result: Option<CallMatch>,
    /// The context holds no result paired with a matching call.
    #[serde(default)]
    pub lacks_result: Option<CallMatch>,
    /// Some message in the context contains this text.
    #[serde(default)]
    pub contains: Option<String>,
    /// No message in the context contains this text.
    #[serde(default)]
    pub lacks: Option<String>,
    /// Holds only at this model call (1-based). The script's own count, not
    /// something in the context.
    #[serde(default)]
    pub model_call: Option<u32>,
    /// Every one of these conditions holds.
    #[serde(default)]
    pub all: Vec<Condition>,
    /// At least one of these conditions holds (so an empty list never
    /// holds, and `check` refuses it).
    #[serde(default)]
    pub any: Option<Vec<Condition>>,
}

impl Condition {
    /// This condition and each one nested in it (`all`, `any`, at any
    /// depth), parents first, each with its JSON path under `path`.
    pub fn each(&self, path: &str) -> Vec<(String, &Condition)> {
        let mut out = vec![(path.to_string(), self)];
        let any = self.any.as_deref().unwrap_or_default();
        for (field, list) in [("all", self.all.as_slice()), ("any", any)] {
            for (i, c) in list.iter().enumerate() {
                out.extend(c.each(&format!("{path}.{field}[{i}]")));
            }
        }
        out
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallMatch {
    pub tool: String,
    /// These arguments must have these values; others may be anything.
    #[serde(default)]
    pub args: BTreeMap<String, String>,
    /// The result must (true) or must not (false) be an error.
    #[serde(default)]
    pub ok: Option<bool>,
    /// The result's text must contain this.
    #[serde(default)]
    pub contains: Option<String>,
    /// What answered the call (`ToolCall::outcome`), or `compacted` for the
    /// host's placeholder in place of a dropped result.
    #[serde(default)]
    pub status: Option<ResultStatus>,
    /// How many matching results: `has_result` holds from the `count`-th
    /// on, `lacks_result` while there are fewer. Default 1.
    #[serde(default)]
    pub count: Option<u32>,
}

/// A result's status as a rule names it: the codes of `trace::Outcome`,
/// and `compacted` for a placeholder the host put in place of a result.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Deserialize, strum::IntoStaticStr, strum::VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ResultStatus {
    Ok,
    Error,
    Refused,
    Replayed,
    OpConflict,
    /// The user denied the call when the host asked (policy `ask`).
    Denied,
    /// The user stopped the run while the call's tool ran.
    Interrupted,
    Compacted,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallSpec {
    pub tool: String,
    /// A name for the call that narration keys use (`LABEL.result`): call
    /// ids are numbered across the run, so a call added earlier renumbers
    /// every later one; a label stays.
    #[serde(default)]
    pub label: Option<String>,
    /// Name → value: a string, or any JSON value (`5`, `true`, a list, an
    /// object); a call with a value that is not a string is sent as the
    /// JSON text of its arguments.
    #[serde(default)]
    pub args: BTreeMap<String, serde_json::Value>,
    /// How long the tool takes, in ticks: results of one reply arrive in
    /// order of delay, so a later call can finish first.
    #[serde(default)]
    pub delay: u32,
    /// The arguments exactly as the model wrote them, as JSON text (OpenAI's
    /// `arguments` is such a string, so it can be cut short or invalid);
    /// instead of `args`.
    #[serde(default)]
    pub arguments: Option<String>,
}

/// How a loop ends.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Deserialize,
    serde::Serialize,
    strum::IntoStaticStr,
    strum::VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum EndStatus {
    /// A reply without tool calls, verified where the task changed things.
    Completed,
    /// The host stopped because the budget of model calls ran out.
    BudgetExhausted,
    /// The model said done after a change and the host did not verify it.
    VerificationMissing,
    /// The harness itself failed (a tool error it did not handle).
    Crashed,
    /// The provider rejected a request: the context held a tool call with
    /// no result (a harness that dropped results).
    Rejected,
}

impl EndStatus {
    /// The name a scenario's `expect` and the trace JSON use.
    pub fn code(self) -> &'static str {
        self.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::VariantNames as _;

    /// The names strum derives are the ones serde reads and writes, so the
    /// error that lists them and the trace JSON agree with the file format.
    #[test]
    fn end_status_names_are_the_serde_names() {
        for name in EndStatus::VARIANTS {
            let end: EndStatus = serde_json::from_value(serde_json::json!(name)).unwrap();
            assert_eq!(end.code(), *name);
            assert_eq!(serde_json::to_value(end).unwrap(), serde_json::json!(name));
        }
        assert_eq!(Lang::Zh.other(), Lang::En);
        assert_eq!(Lang::En.other(), Lang::Zh);
        // The pseudo-locale is shown, not written: the switch key leaves
        // it for the first written language, and no lesson key names it.
        assert_eq!(Lang::Pseudo.other(), Lang::Zh);
        assert_eq!(Lang::parse(Lang::Pseudo.code()), None);
        assert_eq!(Lang::Pseudo.written(), Lang::En);
        for lang in Lang::ALL {
            assert_eq!(Lang::parse(lang.code()), Some(lang));
            assert_eq!(
                serde_json::to_value(lang).unwrap(),
                serde_json::json!(lang.code())
            );
        }
    }
}

/// Does the model reason before it replies (a lesson's rules return
/// reasoning), and does the host send the reasoning back with the reply?
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Thinking {
    #[default]
    Off,
    SentBack,
    /// The harness keeps the reply and drops its reasoning.
    Dropped,
}
