//! The trace: what the engine recorded while running the loop, one `Step`
//! per message or host action. Everything a frame shows is derived from it.
//!
//! The trace is append-only: messages, tool calls and file events are stored
//! once, each stamped with the step that made it, and the state at step k is
//! derived by looking only at what happened up to k. Nothing is cloned per
//! step, so a long trace stays small.
//!
//! Long because it holds every type a trace is made of and the queries each
//! view asks of them, so that the trace stays plain data defined in one
//! place.

use std::fmt;
use std::sync::Arc;

use crate::scenario::{EndStatus, Lang, Text};

/// A tool call's id, as the model wrote it in its reply (`call_1`, ...).
/// One buffer, shared by every step, message and list that names the call
/// (a long run names each id about ten times).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallId(pub Arc<str>);

impl fmt::Display for CallId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The three swimlanes. The user is not a lane: the task enters at the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Lane {
    Model,
    Host,
    Tool,
}

impl Lane {
    pub const ALL: [Lane; 3] = [Lane::Model, Lane::Host, Lane::Tool];

    pub fn index(self) -> usize {
        match self {
            Lane::Model => 0,
            Lane::Host => 1,
            Lane::Tool => 2,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Role {
    User,
    Assistant,
    Tool,
}

/// One message of the conversation the host keeps and sends to the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub role: Role,
    pub text: Arc<str>,
    /// Assistant messages: the calls the model proposed, in order.
    pub calls: Vec<CallId>,
    /// Tool messages: the call this result is attached to.
    pub call_id: Option<CallId>,
    pub is_error: bool,
    /// The step that appended it.
    pub step: usize,
    /// What it adds to the context's size, in characters (text, call ids,
    /// tool names and arguments).
    pub size: usize,
    /// Its estimated size in tokens, in a lesson; 0 in a replayed
    /// transcript, counted when asked beside it (`tokens::Counts`).
    pub tokens: usize,
    /// For a text the host or a tool wrote in the trace's language: the
    /// same text in English. Scripted rules that look for a phrase match
    /// either, so a scenario runs the same in every language.
    pub canonical: Option<String>,
    /// A copy the host made when it compacted the context: the index of the
    /// message carried over (the model saw it before; not new).
    pub carried: Option<usize>,
    /// A message the host wrote in place of others when it compacted.
    pub host_insert: Option<HostInsert>,
    /// What the text says, as a fact, when the host or a tool wrote it.
    pub said: Option<Said>,
    /// A reply's reasoning, held to be sent back with it (a Responses
    /// `reasoning` item, an Anthropic `thinking` block): the text the
    /// provider showed (`ModelCall::reasoning`), unless the host dropped it.
    pub reasoning: Option<Arc<str>>,
}

pub use crate::scenario::Thinking;

/// What the host put in the context in place of messages it removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum HostInsert {
    /// A result under the same call id, saying the result was removed.
    Placeholder,
    /// A summary of earlier turns, in place of those turns.
    Summary,
}

impl Message {
    /// A message of `role` saying `text`, appended at `step`: no calls, no
    /// id, no marks; its sizes are filled in when it is appended.
    pub fn new(role: Role, text: impl Into<Arc<str>>, step: usize) -> Message {
        Message {
            role,
            text: text.into(),
            calls: Vec::new(),
            call_id: None,
            is_error: false,
            step,
            size: 0,
            tokens: 0,
            canonical: None,
            said: None,
            carried: None,
            host_insert: None,
            reasoning: None,
        }
    }

    /// Does the message say `phrase`, in its language or in English?
    pub fn says(&self, phrase: &str) -> bool {
        self.text.contains(phrase)
            || self
                .canonical
                .as_deref()
                .is_some_and(|c| c.contains(phrase))
    }
}

/// The host's decision on a proposed call, made before anything runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Approved,
    Refused(Refusal),
    /// The call is valid and its tool's policy is `ask`: the host asks the
    /// user before anything runs.
    AwaitsApproval,
}

/// The user's answer when the host asks about a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Approved,
    /// With the user's reason in both languages, if they gave one, which
    /// goes back to the model as the result.
    Denied(Option<Text>),
    /// The user changed these arguments; the host runs the call with them.
    Edited(Vec<(String, String)>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    NotOffered,
    MissingArg(String),
    UnknownArg(String),
    OutsideWorkspace(String),
    /// The tool is offered but its policy is `deny`.
    NotAuthorised,
    /// The arguments are not a JSON object (the parser's words).
    InvalidJson(String),
    /// An argument's value is not of the type the schema gives.
    WrongType {
        arg: String,
        expected: String,
    },
    /// An argument's value is not one of the schema's `enum`.
    NotAllowed {
        arg: String,
        allowed: Vec<String>,
    },
}

/// What a tool (or the host, on refusal or replay) gave back for a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolResult {
    pub text: Arc<str>,
    pub is_error: bool,
    /// An operation id seen before: the host answered from its record.
    pub replayed: bool,
    /// The same text in English, when the trace is in another language.
    pub canonical: Option<String>,
    /// What the text says, as a fact, when the host or a tool wrote it:
    /// its words in any language are `i18n::said` of it.
    pub said: Option<Said>,
}

/// What the host or a tool wrote into the context, as a fact; the words
/// for it in a language are composed outside the engine (`i18n::said`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// What a tool (built-in or custom) said back.
    Tool(ToolSays),
    /// The host refused a call to `tool` before anything ran.
    Refusal { refusal: Refusal, tool: String },
    /// The operation id was used before for a different call.
    OpConflict { op: String },
    /// The host's own check with `tool` failed; the tool said this.
    VerificationFailed { tool: String, said: Box<Said> },
    /// The user denied the call, with their reason, if they gave one.
    DeniedByUser { reason: Option<Text> },
    /// The user changed the call's arguments (`args`, as the call shows
    /// them); the tool said this.
    EditedByUser { args: String, said: Box<Said> },
    /// The recorded result the host answers a replayed operation id with
    /// (`mark_replayed` of its words).
    Replayed(Box<Said>),
    /// The host's placeholder for a removed result of this many tokens.
    Placeholder { tokens: usize },
    /// The host's summary of earlier turns, the scenario's words if any.
    Summary(Option<Text>),
    /// The user stopped the run while the call's tool ran: the host
    /// stopped the tool, which gave no result.
    Interrupted,
}

/// What a built-in tool says back, before it is put into words
/// (`i18n::tool_says`). File contents are data and stay as they are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolSays {
    Content(Arc<str>),
    NoSuchFile(String),
    Wrote {
        path: String,
        version: u32,
    },
    Patched {
        path: String,
        version: u32,
    },
    FindNotFound(String),
    TestsPassed(usize),
    TestFailed {
        path: String,
        wanted: String,
        line: bool,
    },
    NoSuchTool(String),
    /// A custom tool's scripted result, in both languages.
    Custom(Text),
}

/// A recorded result as the host answers a replay with it: a JSON object
/// gains `"replayed": true`, as the notes' executor returns
/// `{**result, "replayed": True}`; other text comes back unchanged, as an
/// HTTP idempotency key replays the same body.
pub fn mark_replayed(text: &str) -> String {
    let trimmed = text.trim_end();
    let is_object = serde_json::from_str::<serde_json::Value>(trimmed).is_ok_and(|v| v.is_object());
    match trimmed.strip_suffix('}') {
        Some(open) if is_object => {
            let empty = open.trim_end().ends_with('{');
            let sep = if empty { "" } else { ", " };
            format!("{}{sep}\"replayed\": true}}", open.trim_end())
        }
        _ => text.to_string(),
    }
}

/// What answered a call, decided once here for the view, the trace JSON
/// and the alt text alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Outcome {
    /// The tool ran and succeeded.
    Ok,
    /// The tool ran and failed: an error result, not a crash.
    Error,
    /// The host refused the call before anything ran.
    Refused,
    /// The host answered from its record of the operation id: nothing ran.
    Replayed,
    /// The operation id was used before for a different call: the host
    /// answers with an error and runs nothing.
    OpConflict,
    /// The user denied the call when the host asked: nothing ran.
    Denied,
    /// The user stopped the run while the call's tool ran: it gave no result.
    Interrupted,
}

impl Outcome {
    pub fn code(&self) -> &'static str {
        self.into()
    }
}

impl Pairing {
    pub fn code(&self) -> &'static str {
        self.into()
    }
}

/// How the host attached a result to the messages.
#[derive(Debug, Clone, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Pairing {
    /// Appended with its own call id.
    ById,
    /// Appended with another call's id (a harness bug).
    WrongId(CallId),
    /// Never appended (a harness bug): the call stays unanswered.
    Dropped,
    /// Never appended, and neither was the call (a harness bug): no
    /// request shows that the model asked.
    CallDropped,
}

/// One tool call from proposal to result. Status at a step is derived from
/// the step numbers at which each stage happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    pub id: CallId,
    pub tool: String,
    pub args: Vec<(String, String)>,
    /// The arguments exactly as a replayed transcript wrote them (JSON),
    /// shown instead of `args` where present.
    pub raw_args: Option<String>,
    /// A replayed Responses call's item `id`, as the file records it.
    pub item_id: Option<String>,
    /// The model call (1-based) whose reply proposed it.
    pub model_call: u32,
    pub proposed: usize,
    pub verdict: Option<(usize, Verdict)>,
    pub started: Option<usize>,
    pub finished: Option<usize>,
    pub result: Option<ToolResult>,
    /// The id the host attached the result to (differs only in a harness bug).
    pub paired_to: Option<CallId>,
    /// Whether the result was appended to the messages.
    pub appended: bool,
    /// The host never appended the call itself (a harness bug): no
    /// request holds it, nor its result.
    pub call_dropped: bool,
    /// The user's answer, when the host asked, and the step it came.
    pub decision: Option<(usize, Decision)>,
    /// The step at which the host said it will not run the call (its
    /// budget of model calls was used up: no call is left to read it).
    pub not_run: Option<usize>,
    /// The author's name for the call (`label` in the scenario), which
    /// narration keys may use instead of its run-wide id.
    pub label: Option<String>,
}

impl ToolCall {
    /// A call just proposed in model call `model_call`'s reply at `step`:
    /// nothing decided, run or answered yet.
    pub fn proposed(
        id: CallId,
        tool: String,
        args: Vec<(String, String)>,
        model_call: u32,
        step: usize,
    ) -> Self {
        ToolCall {
            id,
            tool,
            args,
            raw_args: None,
            item_id: None,
            model_call,
            proposed: step,
            verdict: None,
            started: None,
            finished: None,
            result: None,
            paired_to: None,
            appended: false,
            call_dropped: false,
            not_run: None,
            decision: None,
            label: None,
        }
    }

    /// The arguments the tool runs with: the user's edit over the model's.
    pub fn run_args(&self) -> Vec<(String, String)> {
        let mut args = self.args.clone();
        if let Some((_, Decision::Edited(edit))) = &self.decision {
            for (k, v) in edit {
                match args.iter_mut().find(|(name, _)| name == k) {
                    Some(arg) => arg.1 = v.clone(),
                    None => args.push((k.clone(), v.clone())),
                }
            }
        }
        args
    }

    /// The arguments the tool runs with, as `args_text` writes them, the
    /// values the user put in by an edit first and marked `✎` (a narrow
    /// table cuts the end, not the user's values); None unless the user
    /// edited the call by `step`.
    pub fn run_args_text_at(&self, step: usize) -> Option<String> {
        let Some((decided, Decision::Edited(edit))) = &self.decision else {
            return None;
        };
        if *decided > step {
            return None;
        }
        let edited = |k: &str| edit.iter().any(|(e, _)| e == k);
        // Where the model wrote the arguments as JSON text, a value that is
        // not a string there (a number, `false`) is shown as JSON, not quoted.
        let written: Option<serde_json::Map<String, serde_json::Value>> = self
            .raw_args
            .as_deref()
            .and_then(|raw| serde_json::from_str(raw).ok());
        let shown = |k: &str, v: &str| {
            let typed = written
                .as_ref()
                .and_then(|w| w.get(k))
                .is_some_and(|original| !original.is_string());
            match serde_json::from_str::<serde_json::Value>(v) {
                Ok(value) if typed && !value.is_string() => spaced_json(&value),
                _ => quote(v),
            }
        };
        let mut args = self.run_args();
        args.sort_by_key(|(k, _)| !edited(k));
        let parts: Vec<String> = args
            .iter()
            .map(|(k, v)| {
                let mark = if edited(k) { "✎ " } else { "" };
                format!("\"{k}\": {mark}{}", shown(k, v))
            })
            .collect();
        Some(format!("{{{}}}", parts.join(", ")))
    }

    pub fn args_text(&self) -> String {
        if let Some(raw) = &self.raw_args {
            // The file's JSON, as values exactly; spaced after `:` and `,` as
            // the scenarios' arguments are, so a long one wraps between fields.
            return serde_json::from_str(raw).map_or_else(|_| raw.clone(), |v| spaced_json(&v));
        }
        let parts: Vec<String> = self
            .args
            .iter()
            .map(|(k, v)| format!("\"{k}\": {}", quote(v)))
            .collect();
        format!("{{{}}}", parts.join(", "))
    }

    /// What answered the call, once it has a result.
    pub fn outcome(&self) -> Option<Outcome> {
        let result = self.result.as_ref()?;
        Some(match (&self.verdict, result) {
            (Some((_, Verdict::Refused(_))), _) => Outcome::Refused,
            _ if matches!(self.decision, Some((_, Decision::Denied(_)))) => Outcome::Denied,
            (_, r) if r.said == Some(Said::Interrupted) => Outcome::Interrupted,
            (_, r) if r.replayed => Outcome::Replayed,
            (_, r) if r.is_error && self.started.is_none() => Outcome::OpConflict,
            (_, r) if r.is_error => Outcome::Error,
            _ => Outcome::Ok,
        })
    }

    /// How the result was attached, once there is one.
    pub fn pairing(&self) -> Option<Pairing> {
        self.result.as_ref()?;
        Some(match &self.paired_to {
            _ if self.call_dropped => Pairing::CallDropped,
            _ if !self.appended => Pairing::Dropped,
            Some(to) if *to != self.id => Pairing::WrongId(to.clone()),
            _ => Pairing::ById,
        })
    }

    pub fn status_at(&self, step: usize) -> Option<CallStatus> {
        self.status_with_compaction(step, None)
    }

    /// `status_at`, with the step at which the host removed the result
    /// from the context, if it did (`Trace::compacted_at`).
    pub fn status_with_compaction(
        &self,
        step: usize,
        compacted: Option<usize>,
    ) -> Option<CallStatus> {
        if self.proposed > step {
            return None;
        }
        if compacted.is_some_and(|c| c <= step) {
            return Some(CallStatus::Compacted);
        }
        let done = |s: Option<usize>| s.is_some_and(|s| s <= step);
        if done(self.finished) {
            // A result the host lost or filed under another id is what the
            // table must say first: the call is not answered as asked.
            match self.pairing() {
                Some(Pairing::Dropped) => return Some(CallStatus::Unanswered),
                Some(Pairing::CallDropped) => return Some(CallStatus::NotSent),
                Some(Pairing::WrongId(_)) => return Some(CallStatus::WrongId),
                _ => {}
            }
            return Some(match self.outcome() {
                Some(Outcome::Refused) => CallStatus::Refused,
                Some(Outcome::Error | Outcome::OpConflict) => CallStatus::Error,
                Some(Outcome::Replayed) => CallStatus::Replayed,
                Some(Outcome::Denied) => CallStatus::Denied,
                Some(Outcome::Interrupted) => CallStatus::Interrupted,
                _ => CallStatus::Done,
            });
        }
        if done(self.started) {
            return Some(CallStatus::Running);
        }
        if done(self.not_run) {
            return Some(CallStatus::NotRun);
        }
        match &self.decision {
            Some((s, Decision::Approved)) if *s <= step => return Some(CallStatus::UserApproved),
            Some((s, Decision::Edited(_))) if *s <= step => return Some(CallStatus::Edited),
            _ => {}
        }
        match &self.verdict {
            Some((s, Verdict::AwaitsApproval)) if *s <= step => Some(CallStatus::AwaitingUser),
            Some((s, Verdict::Approved)) if *s <= step => Some(CallStatus::Approved),
            _ => Some(CallStatus::Proposed),
        }
    }
}

/// JSON with a space after each `:` and `,`.
pub fn spaced_json(value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::Object(o) => {
            let fields: Vec<String> = o
                .iter()
                .map(|(k, v)| format!("{}: {}", quote(k), spaced_json(v)))
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        Value::Array(a) => {
            let items: Vec<String> = a.iter().map(spaced_json).collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum CallStatus {
    Proposed,
    Approved,
    Running,
    Done,
    /// Answered by the host from its record of the operation id.
    Replayed,
    /// The result came back but was never appended (a harness bug).
    Unanswered,
    /// Neither the call nor its result was appended (a harness bug): the
    /// model never sees it.
    NotSent,
    /// The result was appended under another call's id (a harness bug).
    WrongId,
    Error,
    Refused,
    /// Valid, and the host has asked the user: nothing runs until they answer.
    AwaitingUser,
    /// The user approved the call when the host asked.
    UserApproved,
    /// The user approved the call with arguments of their own.
    Edited,
    /// The user denied the call; their reason is the result.
    Denied,
    /// The user stopped the run while the call ran.
    Interrupted,
    /// The host did not run the call: its budget was used up.
    NotRun,
    /// The host removed the result from the context when it compacted it
    /// (a placeholder or a summary stands in its place).
    Compacted,
}

impl CallStatus {
    pub const ALL: [CallStatus; 16] = [
        CallStatus::Proposed,
        CallStatus::Approved,
        CallStatus::Running,
        CallStatus::Done,
        CallStatus::Replayed,
        CallStatus::Unanswered,
        CallStatus::WrongId,
        CallStatus::Error,
        CallStatus::Refused,
        CallStatus::AwaitingUser,
        CallStatus::UserApproved,
        CallStatus::Edited,
        CallStatus::Denied,
        CallStatus::Interrupted,
        CallStatus::NotRun,
        CallStatus::Compacted,
    ];

    pub fn code(self) -> &'static str {
        self.into()
    }
}

/// One model call of the outer loop and the context it was sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelCall {
    /// 1-based.
    pub number: u32,
    pub step: usize,
    /// The context is exactly `trace.messages.slice(..context_len)`.
    pub context_len: usize,
    /// Size of the request body as sent, in bytes (compact JSON, as the
    /// SDKs send it: `wire::request`).
    pub context_size: usize,
    /// Of which the tool definitions, in bytes.
    pub tools_size: usize,
    /// The request in `o200k_base` tokens (`wire::tokens`), in a lesson;
    /// 0 in a replayed transcript, whose counts are made when asked: read
    /// it through `wire::context_tokens`.
    pub context_tokens: usize,
    /// Tokens the model generated in its reply (the inner loop): a
    /// lesson's, counted as recorded; a replayed run's where its file
    /// records them. None where neither is known: no reply, or a replayed
    /// reply counted when asked, beside the trace (`wire::output_tokens`).
    pub tokens: Option<usize>,
    /// The context starts here: `trace.messages.slice(context_start..context_len)`.
    /// 0 unless the host compacted the context (`Compaction`).
    pub context_start: usize,
    /// A replayed run whose file (or tap recording) holds the request
    /// body: that body as recorded, shown and measured instead of one
    /// rebuilt from the trace's messages. None in a lesson, and where the
    /// file records only messages (the body is rebuilt, and says so).
    pub body: Option<RecordedBody>,
    /// The reply stopped at the output-token limit (`Rule::cut_off`).
    pub cut_off: bool,
    /// The `tool_choice` the host sent (`Scenario::tool_choice`); None: it
    /// sent none, and the provider's default (auto) held.
    pub tool_choice: Option<crate::scenario::ToolChoice>,
    /// The reasoning the provider returned with the reply (its summary, or
    /// the thinking block's text), whether or not the host sends it back.
    pub reasoning: Option<Arc<str>>,
}

/// A model call's request (and response) as a file or a tap recorded
/// them: plain data, set once when the run is read. The texts are shared
/// by the run's traces in every language (cloning one shares them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedBody {
    /// The request body, compact JSON, members in the order recorded (as
    /// an SDK sends it: its length is the body's size in bytes).
    pub request: Arc<str>,
    /// Bytes of the body's `tools` array (0 without one).
    pub tools_bytes: usize,
    /// Items of its `messages` (or `input`) list.
    pub items: usize,
    /// The 1-based numbers of the `reasoning` items in its `input` (a
    /// Responses request that sends reasoning back): the context list
    /// numbers the items it draws past them.
    pub reasoning_at: Vec<u32>,
    /// The response as recorded, compact JSON, where the file has it.
    pub response: Option<Arc<str>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileChange {
    Read,
    Written { version: u32 },
}

impl FileChange {
    /// A file's state after `next`, given its state before: a read after a
    /// write does not hide that the file was written.
    pub fn then<'a>(before: Option<&'a FileChange>, next: &'a FileChange) -> &'a FileChange {
        match (before, next) {
            (Some(written @ FileChange::Written { .. }), FileChange::Read) => written,
            _ => next,
        }
    }
}

/// Something a tool did to the environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEvent {
    pub step: usize,
    pub path: String,
    pub change: FileChange,
}

/// What happened at one step.
#[derive(Debug, Clone, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum StepKind {
    /// The user's task reaches the host. The model has seen nothing yet.
    TaskArrives,
    /// A later message from the user (a real run's next turn): appended
    /// after everything before it, not a new task.
    UserTurn,
    /// The host sends the context to the model (outer turn `number`).
    ModelCall { number: u32 },
    /// The provider turns model call `number`'s request away before the
    /// model runs (`wire::turned_away` gives its status and body); the
    /// response asks the host to wait `retry_after` seconds.
    Throttled {
        number: u32,
        error: crate::scenario::HttpError,
        retry_after: u32,
    },
    /// The host has waited and sends model call `number`'s request again,
    /// byte for byte: the same model call, one more HTTP request.
    Resends { number: u32 },
    /// The model replies with tool calls: proposals, nothing has run.
    Proposes { number: u32, calls: Vec<CallId> },
    /// The host checks one proposed call before anything runs.
    Validates { call: CallId, verdict: Verdict },
    /// The host runs the approved calls (in parallel when more than one).
    Executes { calls: Vec<CallId> },
    /// A result comes back; the host attaches it to a call id and appends it.
    ResultArrives { call: CallId },
    /// The model replies without tool calls.
    Answers { number: u32 },
    /// The host runs the verification check itself before accepting "done".
    Verifies { tool: String },
    /// The verification result comes back: what the check's tool said,
    /// as a fact (`i18n::said` words it in a language).
    Verified { passed: bool, output: Said },
    /// The host will not call the model again: the budget is used up.
    /// `not_run`: the last reply's calls, which a careful host does not
    /// run (no model call is left to read their results) and names to the
    /// user, whom it tells the budget ended the run; empty when it checks
    /// the budget only before a model call.
    BudgetExhausted { budget: u32, not_run: Vec<CallId> },
    /// The harness fails on a tool error it does not handle.
    Crashes { call: CallId },
    /// The host answers a call from its record of an operation id; nothing
    /// runs. With `conflict`, the id was recorded for a different call.
    Replays {
        call: CallId,
        op: String,
        conflict: bool,
    },
    /// The provider refuses model call `number` before the model runs: the
    /// context holds tool calls that have no result.
    Rejected {
        number: u32,
        unanswered: Vec<CallId>,
        error: String,
    },
    /// The reply to model call `number` was cut before it ended (its
    /// stream stopped short: the connection closed, the agent or the tap
    /// was stopped): the agent got no whole reply. Only in a replayed
    /// recording (`incomplete`, with the recorder's `error`).
    Cut { number: u32, error: String },
    /// The user answers the host's question about a call (policy `ask`).
    UserDecides { call: CallId, decision: Decision },
    /// The user stops the run while `calls` run: the host stops their
    /// tools, and each gets the result that says so (unless the harness
    /// forgets them).
    Interrupted { calls: Vec<CallId> },
    /// The next request would exceed the context window: the host compacts
    /// the context before model call `number` (`Trace::compactions[index]`).
    Compacts { number: u32, index: usize },
    /// Piece `piece` of the streamed reply to model call `number` arrives
    /// (`wire::stream::piece` says what it carries): the host appends it
    /// to what came before and acts on nothing until the stream ends.
    Streams { number: u32, piece: usize },
    /// At start-up, before any model call, the host connects to the MCP
    /// server (`initialize`) and asks for its tools (`tools/list`).
    McpLists,
    /// The MCP server answers `tools/list`: the host will offer those
    /// tools, descriptions and all, to the model.
    McpListed,
}

/// Counters shown at every step.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counters {
    pub model_calls: u32,
    /// HTTP requests the host sent to the provider: one a model call, and
    /// one more each time it sends a turned-away request again.
    pub http_requests: u32,
    pub tool_runs: u32,
    /// Of the tool runs, those the host made itself to verify.
    pub host_checks: u32,
    pub writes: u32,
    /// Bytes of the request body sent on the latest model call.
    pub context_size: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub kind: StepKind,
    /// Arrow source (None: the user, outside the lanes) and target.
    pub from: Option<Lane>,
    pub to: Lane,
    pub counters: Counters,
    /// The latest model call at this step (index into `Trace::model_calls`).
    pub model_call: Option<usize>,
    /// Set on the step that ends the loop.
    pub end: Option<EndStatus>,
    /// The author's plain-words explanation for this step, if any.
    pub narration: Option<Arc<str>>,
}

/// Who sends a step's message: the user (outside the lanes), a lane, or
/// the provider's API refusing a request before the model runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    User,
    Lane(Lane),
    Provider,
}

impl Step {
    /// Whether `other` is this step, but for its narration.
    pub fn alike(&self, other: &Step) -> bool {
        let Step {
            kind,
            from,
            to,
            counters,
            model_call,
            end,
            narration: _,
        } = self;
        *kind == other.kind
            && *from == other.from
            && *to == other.to
            && *counters == other.counters
            && *model_call == other.model_call
            && *end == other.end
    }

    /// The lane that acts at this step.
    pub fn actor(&self) -> Lane {
        self.from.unwrap_or(self.to)
    }

    /// Who sends this step's message.
    pub fn source(&self) -> Source {
        match (&self.kind, self.from) {
            (StepKind::Rejected { .. } | StepKind::Throttled { .. }, _) => Source::Provider,
            (_, None) => Source::User,
            (_, Some(lane)) => Source::Lane(lane),
        }
    }

    /// The lane that acts, if a lane does (not the user, not the API).
    pub fn acting_lane(&self) -> Option<Lane> {
        match self.source() {
            Source::Lane(lane) => Some(lane),
            Source::User | Source::Provider => None,
        }
    }
}

/// A tool definition as offered to the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OfferedTool {
    pub name: String,
    pub params: Vec<String>,
    pub description: String,
    /// A custom tool's JSON schema, as sent.
    pub schema: Option<serde_json::Value>,
    /// Sent with `strict: true`: the provider holds the model's arguments
    /// to the schema.
    pub strict: bool,
    /// A tool the provider defines, by its `type` as the request names it
    /// (`web_search_20250305`, `web_search`); None for a function the host
    /// defines and runs.
    pub builtin: Option<String>,
}

impl OfferedTool {
    /// A provider's tool that runs on its servers (web search and fetch,
    /// code execution, file search, MCP, …): its results come back in the
    /// reply, the host runs nothing.
    pub fn is_server_tool(&self) -> bool {
        const SERVER: [&str; 8] = [
            "web_search",
            "web_fetch",
            "code_execution",
            "code_interpreter",
            "file_search",
            "image_generation",
            "tool_search",
            "mcp",
        ];
        self.builtin
            .as_deref()
            .is_some_and(|t| SERVER.iter().any(|s| t.starts_with(s)))
    }
}

impl OfferedTool {
    /// `read_file(path)`; with a schema, each parameter's type, and `?`
    /// after the optional ones: `search(query: string, limit?: integer)`.
    pub fn signature(&self) -> String {
        let Some(schema) = &self.schema else {
            return format!("{}({})", self.name, self.params.join(", "));
        };
        let required = |name: &str| {
            schema
                .get("required")
                .and_then(serde_json::Value::as_array)
                .is_some_and(|r| r.iter().any(|v| v.as_str() == Some(name)))
        };
        let params: Vec<String> = self
            .params
            .iter()
            .map(|p| {
                let kind = schema
                    .get("properties")
                    .and_then(|ps| ps.get(p))
                    .map_or_else(|| "any".to_string(), kind_of);
                let optional = if required(p) { "" } else { "?" };
                format!("{p}{optional}: {kind}")
            })
            .collect();
        format!("{}({})", self.name, params.join(", "))
    }
}

/// A property's type as a signature shows it: its `enum` values
/// (`low|high`), an array by its items (`string[]`), else its `type`.
fn kind_of(property: &serde_json::Value) -> String {
    use serde_json::Value;
    if let Some(values) = property.get("enum").and_then(Value::as_array) {
        let words: Vec<String> = values
            .iter()
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
            .collect();
        return words.join("|");
    }
    match (
        property.get("type").and_then(Value::as_str),
        property.get("items"),
    ) {
        (Some("array"), Some(items)) => match kind_of(items) {
            one_of if one_of.contains('|') => format!("({one_of})[]"),
            kind => format!("{kind}[]"),
        },
        (Some(kind), _) => kind.to_string(),
        (None, _) => "any".to_string(),
    }
}

pub use crate::shared::{Shared, Slice};

/// Steps and model calls, each step of the size of its model call, that a
/// trace may share chunks of steps with (`Trace::set_measures_like`).
pub type Like<'a> = (&'a Shared<Step>, &'a Shared<ModelCall>);

/// The whole recorded run of one scenario in one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    pub scenario: String,
    pub title: String,
    pub lang: Lang,
    /// The lists a language's words do not change are shared with the
    /// run's trace in the other language (`Shared`).
    pub steps: Shared<Step>,
    pub messages: Shared<Message>,
    pub calls: Shared<ToolCall>,
    /// No two `calls` share an id, as the recorder saw each proposed
    /// (`Recorder::propose`): the first call with an id is then the only
    /// one, looked for from the newest (a long run's views and builds ask
    /// for its newest calls). False where that is not known; whatever
    /// changes a call's id after it is recorded sets it false.
    pub unique_ids: bool,
    pub model_calls: Shared<ModelCall>,
    pub files: Vec<String>,
    pub file_events: Shared<FileEvent>,
    pub tools: Arc<[OfferedTool]>,
    pub budget: u32,
    pub end: EndStatus,
    /// Whether the task is done, and how we know; kept apart from `end`.
    pub task: TaskOutcome,
    /// Each time the host compacted the context, in order.
    pub compactions: Vec<Compaction>,
    /// The scenario's context window in tokens, if it sets one.
    pub window: Option<usize>,
    /// The window (and each compaction's counts) is counted as files
    /// written before 2026-12-01 meant it (`WindowCount::Estimate`).
    pub window_estimated: bool,
    /// The provider's prompt cache is reported for every model call
    /// (`HostCare::caches_prompt`; `wire::cache`).
    pub prompt_cache: bool,
    /// Reasoning on or off, and sent back or not (`Scenario::thinking`).
    pub thinking: Thinking,
    /// The API the model calls go to, whose shape the requests take.
    pub provider: crate::provider::Provider,
    /// The system prompt every request sends first, if there is one.
    pub system: Option<String>,
    /// The host asks for each reply as a stream (`Scenario::stream`).
    pub stream: bool,
    /// Where each message sits in its provider's requests (parallel to
    /// `messages`; `wire::measure`). Persistent, shared by a trace's
    /// copies: a live build copies a long run's trace several times, one
    /// per language and for the next build, and places its newest messages
    /// after those of the build before, which it shares.
    pub places: imbl::Vector<crate::place::Place>,
    /// A replayed transcript: what its file records and what it is silent
    /// on. None for a scenario's run, where the engine knows it all.
    pub recorded: Option<Recorded>,
    /// Sub-agents: each call of this run that started one, with the
    /// agent's id; and the agent whose own run this is. A Claude Code
    /// session's file records them; a lesson's `sub_agent` makes them.
    pub sub_agents: SubAgents,
    /// The MCP server a lesson's host connects to (`Scenario::mcp`).
    pub mcp: Option<crate::scenario::McpServer>,
}

/// What a transcript's file records, so that no screen states what the
/// file is silent on ("not recorded", never "none").
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Recorded {
    /// The file holds the tools offered (a request's tool schemas).
    pub tools: bool,
    /// The format names the tools that change files (Claude Code Edit,
    /// Write, MultiEdit, NotebookEdit; Codex apply_patch), so writes are
    /// counted; otherwise how many files were written is unknown.
    pub writes: bool,
    /// Lines (or items) of types not drawn as steps: each type, in order
    /// of name, with the lines that had it; a key of the document beside
    /// its list (a trajectory's `info`) with none, as it has no place.
    pub unread: Vec<(String, Vec<usize>)>,
    /// Places are items of one JSON document's list, not lines.
    pub by_item: bool,
    /// The file names no call: each result is the message right after
    /// the reply that made its call (`PairRule::Position`).
    pub by_position: bool,
}

/// How a run links to its sub-agents' runs: a Claude Code file records the
/// agent a Task (Agent) call ran (`toolUseResult.agentId`), and a
/// sub-agent's own file names its agent (`agentId`); a lesson links its
/// one sub-agent to the call that started it (`load::sub_agent`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SubAgents {
    /// (call id, agent id), in the order of the results.
    pub started: Vec<(String, String)>,
    /// This run is that agent's own loop.
    pub agent: Option<String>,
}

/// The host compacting its message list to fit the window. The compacted
/// list is a fresh copy appended to `Trace::messages` from `start` (earlier
/// messages stay as they were sent); later model calls send from there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compaction {
    pub step: usize,
    pub policy: crate::scenario::CompactPolicy,
    /// The window, in tokens (`wire::tokens`).
    pub window: usize,
    /// The next request in tokens, before and after, in a lesson; 0 in a
    /// replayed transcript: read them through `wire::compaction_tokens`.
    pub tokens_before: usize,
    pub tokens_after: usize,
    /// Messages held before and after.
    pub messages_before: usize,
    pub messages_after: usize,
    /// Where the compacted list starts in `Trace::messages`.
    pub start: usize,
    /// The messages (indices in `Trace::messages`) the model no longer sees.
    pub removed: Vec<usize>,
    /// The calls whose results were removed (their call stays paired).
    pub calls: Vec<CallId>,
}

/// Whether the task is done and how we know, as opposed to how the loop
/// ended: a final answer is not proof that the work is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum TaskOutcome {
    /// Something changed, and a check passed after the last change.
    Verified,
    /// Nothing changed: the answer rests on the tool results in the context.
    Answered,
    /// Something changed and nobody checked it afterwards.
    Unverified,
    /// The task was not done: the loop stopped early, or the final answer
    /// says it could not be done.
    NotDone,
    /// Not known: a replayed transcript records no check of the task.
    Unknown,
}

impl TaskOutcome {
    pub fn code(self) -> &'static str {
        self.into()
    }
}

impl Trace {
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Set what its requests measure (`wire::measure`): once, when the run
    /// is recorded (`Recorder::finish`) or told in another language.
    pub fn set_measures(&mut self, measures: crate::place::Measures) {
        self.set_measures_like(measures, None);
    }

    /// `set_measures`, where `like` (steps and model calls, each step of
    /// the size of its model call) shares chunks of steps with this trace:
    /// those are not read again where their model calls measure alike.
    pub fn set_measures_like(&mut self, measures: crate::place::Measures, like: Option<Like>) {
        self.places = measures.places;
        self.set_call_measures(measures.calls, like);
    }

    /// Take the sizes `run` measured (`set_measures`) for the model calls
    /// and steps this trace has of it: `run` is this trace gone on and
    /// finished (a live view's kept replay, `Builder::finish_after`).
    pub fn measured_as(&mut self, run: &Trace) {
        // A chunk of model calls that is `run`'s very chunk is as measured.
        let mut calls = Vec::new();
        for (c, chunk) in run.model_calls.chunks().enumerate() {
            let held = self.model_calls.chunk(c);
            if held.is_some_and(|h| Arc::ptr_eq(h, chunk)) {
                continue;
            }
            let first = c * crate::shared::CHUNK;
            calls.extend((first..).zip(chunk.iter()).map(|(k, m)| {
                let measure = crate::place::CallMeasure {
                    context_size: m.context_size,
                    tools_size: m.tools_size,
                    context_tokens: Some(m.context_tokens),
                };
                (k, measure)
            }));
        }
        self.set_call_measures(calls, Some((&run.steps, &run.model_calls)));
    }

    /// Each model call's measures, and each step's size of its latest call.
    fn set_call_measures(
        &mut self,
        calls: impl IntoIterator<Item = (usize, crate::place::CallMeasure)>,
        like: Option<Like>,
    ) {
        // Written only where it changes: a trace told in another language
        // (or built again, live) shares its items with the run's until then
        // (`Shared`). A call left out is as it is.
        for (k, m) in calls {
            let Some(mc) = self.model_calls.get(k) else {
                continue;
            };
            let tokens = m.context_tokens.unwrap_or(mc.context_tokens);
            if (mc.context_size, mc.tools_size, mc.context_tokens)
                != (m.context_size, m.tools_size, tokens)
            {
                let mc = &mut self.model_calls[k];
                mc.context_size = m.context_size;
                mc.tools_size = m.tools_size;
                mc.context_tokens = tokens;
            }
        }
        // A chunk of steps `like` holds is of its sizes: read only if one
        // of its steps' model calls (their indexes grow with the steps)
        // measures otherwise here.
        let (like_steps, alike_calls) = match like {
            Some((steps, model_calls)) => {
                let alike = self
                    .model_calls
                    .alike(model_calls, |a, b| a.context_size == b.context_size);
                (Some(steps), alike)
            }
            None => (None, 0),
        };
        let measured_otherwise = |chunk: &crate::shared::Chunk<Step>| {
            let last = chunk.last().and_then(|s| s.model_call);
            last.is_some_and(|k| k >= alike_calls)
        };
        // The chunks from the first so are found by halving (a step's model
        // call is the latest as of it: they grow with the steps), not by
        // reading the last step of each of a long run's chunks.
        let from = self.steps.chunk_partition_point(|c| !measured_otherwise(c));
        let mut read = Vec::new();
        for (c, chunk) in self.steps.chunks().enumerate() {
            let shared = like_steps
                .and_then(|l| l.chunk(c))
                .is_some_and(|l| Arc::ptr_eq(l, chunk));
            debug_assert_eq!(
                c >= from,
                measured_otherwise(chunk),
                "model calls out of order"
            );
            if !shared || c >= from {
                let first = c * crate::shared::CHUNK;
                read.push(first..first + chunk.len());
            }
        }
        for s in read.into_iter().flatten() {
            if let Some(k) = self.steps[s].model_call
                && self.steps[s].counters.context_size != self.model_calls[k].context_size
            {
                self.steps[s].counters.context_size = self.model_calls[k].context_size;
            }
        }
    }

    /// A run read from a file: its tokens are counted when asked, beside
    /// the trace (`tokens::Counts`, `wire::context_tokens`); a lesson's are
    /// in its messages and model calls, counted as the run was recorded.
    pub fn is_replayed(&self) -> bool {
        self.recorded.is_some()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    pub fn call(&self, id: &CallId) -> Option<&ToolCall> {
        self.call_by(id, |id| self.first_call(id))
    }

    /// `call`, `first` finding the index of the first call with an id.
    fn call_by(&self, id: &CallId, first: impl Fn(&CallId) -> Option<usize>) -> Option<&ToolCall> {
        // The engine numbers calls call_1, call_2, ... in order, so look
        // there first: views ask this for every step of long runs.
        let numbered =
            id.0.strip_prefix("call_")
                .and_then(|n| n.parse::<usize>().ok())
                .and_then(|n| self.calls.get(n.checked_sub(1)?))
                .filter(|c| &c.id == id);
        numbered.or_else(|| self.calls.get(first(id)?))
    }

    /// The index of the first call with this id.
    fn first_call(&self, id: &CallId) -> Option<usize> {
        match self.unique_ids {
            true => self.calls.iter().rposition(|c| &c.id == id),
            false => self.calls.iter().position(|c| &c.id == id),
        }
    }

    /// Where `id` stands in the order the trace's ids first appear, from
    /// 0, for its colour: the index of the first call with this id in
    /// `calls`; an id that no call has (a result attached to an id the
    /// model never proposed) comes after all calls, by the first message
    /// that names it.
    pub fn id_place(&self, id: &CallId) -> usize {
        self.id_place_by(id, |id| self.first_call(id))
    }

    /// `id_place`, `first` finding the index of the first call with an id.
    fn id_place_by(&self, id: &CallId, first: impl Fn(&CallId) -> Option<usize>) -> usize {
        // The engine's call_n is the n-th call: no walk over a long run.
        let numbered =
            id.0.strip_prefix("call_")
                .and_then(|n| n.parse::<usize>().ok());
        if let Some(i) = numbered.and_then(|n| n.checked_sub(1))
            && self.calls.get(i).is_some_and(|c| &c.id == id)
            // A real run may reuse an id: its first call decides there.
            && (self.recorded.is_none() || first(id) == Some(i))
        {
            return i;
        }
        if let Some(i) = first(id) {
            return i;
        }
        let message = self
            .messages
            .iter()
            .position(|m| m.call_id.as_ref() == Some(id) || m.calls.contains(id))
            .unwrap_or(self.messages.len());
        self.calls.len() + message
    }

    /// The call with this id that step `step` refers to: the latest one
    /// proposed at or before it. The same as `call` unless a transcript
    /// reuses an id in a later turn (valid: each is answered in its turn).
    pub fn call_at(&self, id: &CallId, step: usize) -> Option<&ToolCall> {
        let before = self.calls.partition_point(|c| c.proposed <= step);
        self.calls
            .slice(..before)
            .iter()
            .rev()
            .find(|c| &c.id == id)
            .or_else(|| self.call(id))
    }

    /// The step that appended the call's result to the messages: the step
    /// it came, unless the host held it to append one reply's results in
    /// call order (then the step the last of them came). None if never.
    pub fn appended_at(&self, call: &ToolCall) -> Option<usize> {
        let (finished, to) = (call.finished?, call.paired_to.as_ref()?);
        if !call.appended {
            return None;
        }
        self.messages
            .iter()
            .find(|m| m.step >= finished && m.call_id.as_ref() == Some(to))
            .map(|m| m.step)
    }

    /// The calls whose results step `index` appended, more than one only
    /// where a host held them to append in call order.
    pub fn appended_by(&self, index: usize) -> Vec<&CallId> {
        let first = self.messages.partition_point(|m| m.step < index);
        self.messages
            .slice(first..)
            .iter()
            .take_while(|m| m.step == index)
            .filter_map(|m| m.call_id.as_ref())
            .collect()
    }

    /// The messages sent on a model call: exactly those appended before it
    /// (since the latest compaction, if the host compacted).
    pub fn context(&self, model_call: &ModelCall) -> Slice<'_, Message> {
        self.messages
            .slice(model_call.context_start..model_call.context_len)
    }

    /// Is message `index` new on model call `mc_index`, i.e. not sent on
    /// the call before? A copy the host made when compacting is new only if
    /// what it copies was not sent then (it was appended since); the host's
    /// placeholder or summary is new.
    pub fn is_new(&self, mc_index: usize, index: usize) -> bool {
        let sent = match mc_index.checked_sub(1) {
            Some(prev) => {
                let p = &self.model_calls[prev];
                p.context_start..p.context_len
            }
            None => 0..0,
        };
        let mut at = index;
        loop {
            if sent.contains(&at) {
                return false;
            }
            match self.messages[at].carried {
                Some(original) => at = original,
                None => return true,
            }
        }
    }

    /// A call's status at `step`, counting the host's compactions.
    pub fn status_at(&self, call: &ToolCall, step: usize) -> Option<CallStatus> {
        call.status_with_compaction(step, self.compacted_at(&call.id))
    }

    /// How many messages of model call `mc_index`'s context are new.
    pub fn new_count(&self, mc_index: usize) -> usize {
        let mc = &self.model_calls[mc_index];
        (mc.context_start..mc.context_len)
            .filter(|&i| self.is_new(mc_index, i))
            .count()
    }

    /// The step at which the host removed call `id`'s result from the
    /// context, if it ever did.
    pub fn compacted_at(&self, id: &CallId) -> Option<usize> {
        self.compactions
            .iter()
            .find(|c| c.calls.contains(id))
            .map(|c| c.step)
    }

    /// Is `step` the host's compaction, or a step after it up to the model
    /// call that first sends the compacted context? There the context panel
    /// reads from the top, so what the host removed and put in is in sight.
    pub fn just_compacted(&self, step: usize) -> bool {
        let Some(c) = self.compactions.iter().rev().find(|c| c.step <= step) else {
            return false;
        };
        let mut between = c.step + 1..step;
        between.start > between.end
            || between.end > self.steps.len()
            || between.all(|i| !matches!(self.steps[i].kind, StepKind::ModelCall { .. }))
    }

    /// The messages the host holds at `step` start here: at the latest
    /// compaction at or before it, else 0.
    pub fn held_from(&self, step: usize) -> usize {
        self.compactions
            .iter()
            .rev()
            .find(|c| c.step <= step)
            .map_or(0, |c| c.start)
    }

    /// The context sent on the model call before this one, as a length.
    pub fn previous_context_len(&self, index: usize) -> usize {
        if index == 0 {
            0
        } else {
            self.model_calls[index - 1].context_len
        }
    }

    /// Calls proposed up to and including `step`.
    pub fn calls_at(&self, step: usize) -> Slice<'_, ToolCall> {
        // Calls are stored in proposal order: a binary search finds the end.
        self.calls
            .slice(..self.calls.partition_point(|c| c.proposed <= step))
    }

    /// Each file's state after `step`: last change, if any.
    pub fn file_state_at(&self, path: &str, step: usize) -> Option<&FileChange> {
        self.file_events
            .iter()
            .take_while(|e| e.step <= step)
            .filter(|e| e.path == path)
            .fold(None, |before, e| Some(FileChange::then(before, &e.change)))
    }

    /// The step that created a file the run wrote anew; None for a file
    /// the workspace started with.
    pub fn created_at(&self, path: &str) -> Option<usize> {
        self.file_events
            .iter()
            .find(|e| e.path == path)
            .filter(|e| e.change == FileChange::Written { version: 1 })
            .map(|e| e.step)
    }

    /// The provider's error, when it refused model call `mc`'s request
    /// (the model never ran on it).
    pub fn rejection(&self, mc: &ModelCall) -> Option<&str> {
        match &self.steps.get(mc.step + 1)?.kind {
            StepKind::Rejected { number, error, .. } if *number == mc.number => Some(error),
            _ => None,
        }
    }

    /// The calls proposed before model call `mc` whose results are not in
    /// the context it sends: a request real providers reject.
    pub fn unanswered_at(&self, mc: &ModelCall) -> Vec<CallId> {
        let context = self.context(mc);
        let answered: std::collections::HashSet<&CallId> =
            context.iter().filter_map(|m| m.call_id.as_ref()).collect();
        context
            .iter()
            .flat_map(|m| &m.calls)
            .filter(|id| !answered.contains(id))
            .cloned()
            .collect()
    }

    /// Whether a file exists after `step`.
    pub fn file_exists_at(&self, path: &str, step: usize) -> bool {
        self.created_at(path).is_none_or(|created| created <= step)
    }
}

/// What the Tool lane asks of every frame, indexed once per run: each
/// file's changes, and when each call ran. Asked by step in log time, so a
/// frame at the end of 10,000 calls costs what one at step 5 does
/// (`file_state_at`, `file_exists_at` and `calls_at` scan the run).
#[derive(Debug, Clone, Default)]
pub struct Timeline {
    /// Per file: its events' steps and changes in step order, and for each
    /// the index of the latest write at or before it.
    files: std::collections::HashMap<String, FileTimeline>,
    /// The file events indexed, in order.
    file_events: Shared<FileEvent>,
    /// Calls that started and finished, by start step: (started,
    /// finished, call).
    runs: Vec<(usize, usize, usize)>,
    /// At least the longest of those runs, in steps (a run's index grown
    /// from another's keeps that one's: a bound is all `running_at` needs).
    longest: usize,
    /// Calls that started and never finished: (started, call).
    unfinished: Vec<(usize, usize)>,
    /// The calls indexed, and the index of the first with each id: a
    /// frame finds each id it draws without a walk over a long run's calls.
    calls: Shared<ToolCall>,
    first_call: std::collections::HashMap<CallId, usize, foldhash::fast::RandomState>,
}

#[derive(Debug, Clone, Default, PartialEq)]
struct FileTimeline {
    events: Vec<(usize, FileChange)>,
    last_write: Vec<Option<usize>>,
}

impl Timeline {
    pub fn of(trace: &Trace) -> Timeline {
        Timeline::grown(Timeline::default(), trace)
    }

    /// `trace`'s timeline, made from `before`, another trace's (in a live
    /// run, the build before this one): what it indexed of the first calls
    /// and file events the two hold alike is kept, and the rest indexed
    /// again. At call 2,000, a few calls, not all of them.
    pub fn grown(mut before: Timeline, trace: &Trace) -> Timeline {
        let calls = trace
            .calls
            .alike(&before.calls, |a, b| Arc::ptr_eq(a, b) || a == b);
        let events = (trace.file_events).alike(&before.file_events, |a, b| a == b);
        before.forget_events_from(events);
        before.forget_calls_from(calls);
        for e in trace.file_events.slice(events..).iter() {
            let f = before.files.entry(e.path.clone()).or_default();
            let write = match e.change {
                FileChange::Written { .. } => Some(f.events.len()),
                FileChange::Read => f.last_write.last().copied().flatten(),
            };
            f.events.push((e.step, e.change.clone()));
            f.last_write.push(write);
        }
        let (mut runs, mut unfinished) = (Vec::new(), Vec::new());
        (before.first_call).reserve(trace.calls.len() - calls);
        for (i, c) in trace.calls.slice(calls..).iter().enumerate() {
            let i = calls + i;
            match (c.started, c.finished) {
                (Some(start), Some(end)) => runs.push((start, end, i)),
                (Some(start), None) => unfinished.push((start, i)),
                (None, _) => {}
            }
            before.first_call.entry(c.id.clone()).or_insert(i);
        }
        let longest = runs.iter().map(|r| r.1.saturating_sub(r.0)).max();
        before.longest = before.longest.max(longest.unwrap_or(0));
        add_sorted(&mut before.runs, runs);
        add_sorted(&mut before.unfinished, unfinished);
        before.file_events = trace.file_events.clone();
        before.calls = trace.calls.clone();
        before
    }

    /// Leaves out the file events from `from` on.
    fn forget_events_from(&mut self, from: usize) {
        for e in self.file_events.slice(from..).iter().rev() {
            let Some(f) = self.files.get_mut(&e.path) else {
                continue;
            };
            f.events.pop();
            f.last_write.pop();
            if f.events.is_empty() {
                self.files.remove(&e.path);
            }
        }
        self.file_events.truncate(from);
    }

    /// Leaves out the calls from `from` on.
    fn forget_calls_from(&mut self, from: usize) {
        for (i, c) in self.calls.slice(from..).iter().enumerate() {
            let i = from + i;
            match (c.started, c.finished) {
                (Some(start), Some(end)) => {
                    if let Ok(at) = self.runs.binary_search(&(start, end, i)) {
                        self.runs.remove(at);
                    }
                }
                (Some(start), None) => {
                    if let Ok(at) = self.unfinished.binary_search(&(start, i)) {
                        self.unfinished.remove(at);
                    }
                }
                (None, _) => {}
            }
            if self.first_call.get(&c.id) == Some(&i) {
                self.first_call.remove(&c.id);
            }
        }
        self.calls.truncate(from);
    }

    /// `Trace::call`, found in this index where it is `trace`'s.
    pub fn call<'t>(&self, trace: &'t Trace, id: &CallId) -> Option<&'t ToolCall> {
        match self.calls.is_shared_with(&trace.calls) {
            true => trace.call_by(id, |id| self.first_call.get(id).copied()),
            false => trace.call(id),
        }
    }

    /// `Trace::id_place`, found in this index where it is `trace`'s.
    pub fn id_place(&self, trace: &Trace, id: &CallId) -> usize {
        match self.calls.is_shared_with(&trace.calls) {
            true => trace.id_place_by(id, |id| self.first_call.get(id).copied()),
            false => trace.id_place(id),
        }
    }

    /// `Trace::file_state_at`.
    pub fn state_at(&self, path: &str, step: usize) -> Option<&FileChange> {
        let f = self.files.get(path)?;
        let n = f.events.partition_point(|(s, _)| *s <= step);
        let latest = n.checked_sub(1)?;
        let at = f.last_write[latest].unwrap_or(latest);
        Some(&f.events[at].1)
    }

    /// `Trace::created_at`.
    pub fn created_at(&self, path: &str) -> Option<usize> {
        let (step, change) = self.files.get(path)?.events.first()?;
        (*change == FileChange::Written { version: 1 }).then_some(*step)
    }

    /// The calls running at `step` (started, not finished), in proposal
    /// order.
    pub fn running_at<'t>(&self, trace: &'t Trace, step: usize) -> Vec<&'t ToolCall> {
        // A call that finished ran at most `longest` steps: only those that
        // started that recently can still be running.
        let started = self.runs.partition_point(|r| r.0 <= step);
        let recent = step.saturating_sub(self.longest);
        let first = self.runs[..started].partition_point(|r| r.0 < recent);
        let unfinished = self.unfinished.partition_point(|r| r.0 <= step);
        let mut running: Vec<usize> = self.runs[first..started]
            .iter()
            .filter(|r| r.1 > step)
            .map(|r| r.2)
            .chain(self.unfinished[..unfinished].iter().map(|r| r.1))
            .collect();
        running.sort_unstable();
        running
            .into_iter()
            .map(|i| &trace.calls[i])
            .filter(|c| c.status_at(step) == Some(CallStatus::Running))
            .collect()
    }
}

/// `list`, sorted, with `new` added where each goes (most often all at
/// its end: a run's latest calls start after the others).
fn add_sorted<T: Ord>(list: &mut Vec<T>, mut new: Vec<T>) {
    new.sort_unstable();
    let at_end = match (list.last(), new.first()) {
        (Some(last), Some(first)) => last <= first,
        _ => true,
    };
    list.extend(new);
    if !at_end {
        list.sort_unstable();
    }
}

impl StepKind {
    /// The call ids a step names, in the order its words name them.
    pub fn call_ids(&self) -> Vec<&CallId> {
        match self {
            StepKind::Proposes { calls, .. }
            | StepKind::Executes { calls }
            | StepKind::Interrupted { calls } => calls.iter().collect(),
            StepKind::Rejected { unanswered, .. } => unanswered.iter().collect(),
            StepKind::Validates { call, .. }
            | StepKind::ResultArrives { call }
            | StepKind::Crashes { call }
            | StepKind::Replays { call, .. }
            | StepKind::UserDecides { call, .. } => vec![call],
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call found by its id is the first call with it, in every lesson
    /// and recorded transcript, where ids are known to be unique (and
    /// looked for from the newest) and where one is reused.
    #[test]
    fn a_call_found_by_id_is_the_first_with_it() {
        let (mut unique, mut reused) = (0, 0);
        let case = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/transcripts/cases/chat-reused-ids.json"
        );
        let case = crate::transcript::load(case, None, false)
            .unwrap()
            .traces
            .to_vec();
        for trace in crate::load::every_run().into_iter().flatten().chain(case) {
            let ids: Vec<&CallId> = trace.calls.iter().map(|c| &c.id).collect();
            let distinct = ids.iter().collect::<std::collections::HashSet<_>>().len() == ids.len();
            assert!(
                !trace.unique_ids || distinct,
                "{}: an id repeats",
                trace.scenario
            );
            unique += usize::from(trace.unique_ids && ids.len() > 1);
            reused += usize::from(!distinct);
            for id in ids {
                let first = trace.calls.iter().position(|c| &c.id == id);
                let found = trace.call(id).map(|c| c as *const ToolCall);
                assert_eq!(
                    found,
                    first.map(|i| &trace.calls[i] as *const ToolCall),
                    "{id:?}"
                );
            }
        }
        assert!(unique > 0 && reused > 0, "{unique} unique, {reused} reused");
    }

    /// The timeline answers as the scans over the whole run do, at every
    /// step of every shipped lesson and of the recorded transcripts.
    #[test]
    fn a_timeline_says_what_scanning_the_run_says() {
        let mut traces: Vec<Trace> = crate::load::every_run().into_iter().flatten().collect();
        // An id reused (valid in a real run: each answered in its turn),
        // by a lesson's calls (numbered) and a replayed run's.
        let reused: Vec<Trace> = traces
            .iter()
            .filter(|t| t.calls.len() > 2)
            .flat_map(|t| {
                let mut t = t.clone();
                let id = t.calls[1].id.clone();
                t.calls[2].id = id;
                t.unique_ids = false;
                [
                    t.clone(),
                    Trace {
                        recorded: t.recorded.clone().or(Some(Recorded::default())),
                        ..t
                    },
                ]
            })
            .collect();
        traces.extend(reused);
        for trace in &traces {
            let timeline = Timeline::of(trace);
            for step in 0..trace.len() + 2 {
                for path in &trace.files {
                    assert_eq!(
                        timeline.state_at(path, step),
                        trace.file_state_at(path, step),
                        "{} {path} at {step}",
                        trace.scenario
                    );
                    assert_eq!(timeline.created_at(path), trace.created_at(path));
                }
                let scanned: Vec<&ToolCall> = trace
                    .calls_at(step)
                    .iter()
                    .filter(|c| c.status_at(step) == Some(CallStatus::Running))
                    .collect();
                assert_eq!(
                    timeline.running_at(trace, step),
                    scanned,
                    "{}",
                    trace.scenario
                );
            }
            // Every id the run names, and one it does not, finds the call
            // and the place a walk over the calls and messages finds.
            let unknown = CallId("not_an_id".into());
            let named = trace
                .messages
                .iter()
                .flat_map(|m| m.call_id.iter().chain(&m.calls));
            for id in trace
                .calls
                .iter()
                .map(|c| &c.id)
                .chain(named)
                .chain([&unknown])
            {
                let (found, walked) = (timeline.call(trace, id), trace.call(id));
                assert!(found.map(std::ptr::from_ref) == walked.map(std::ptr::from_ref));
                assert_eq!(timeline.id_place(trace, id), trace.id_place(id), "{id}");
            }
        }
    }

    #[test]
    fn a_replayed_json_object_says_so_and_other_text_is_unchanged() {
        assert_eq!(
            super::mark_replayed(r#"{"status": "ok", "version": "toy:v2"}"#),
            r#"{"status": "ok", "version": "toy:v2", "replayed": true}"#
        );
        assert_eq!(super::mark_replayed("{}"), r#"{"replayed": true}"#);
        assert_eq!(
            super::mark_replayed("patched app.toml (now v2)"),
            "patched app.toml (now v2)"
        );
        assert_eq!(super::mark_replayed("[1, 2]"), "[1, 2]");
        assert_eq!(super::mark_replayed("{not json}"), "{not json}");
    }

    /// What a timeline grown from another's indexes, as one made anew
    /// indexes it (its bound on the longest run at least that run).
    fn assert_indexed_alike(grown: &Timeline, trace: &Trace, what: &str) {
        let anew = Timeline::of(trace);
        assert!(grown.files == anew.files, "{what}: files");
        assert!(grown.file_events == anew.file_events, "{what}: file events");
        assert_eq!(grown.runs, anew.runs, "{what}");
        assert_eq!(grown.unfinished, anew.unfinished, "{what}");
        assert!(grown.calls == anew.calls, "{what}: calls");
        assert_eq!(grown.first_call, anew.first_call, "{what}");
        assert!(grown.longest >= anew.longest, "{what}");
    }

    #[test]
    fn a_timeline_grown_from_another_indexes_what_one_made_anew_does() {
        // Every lesson and transcript in turn, each also cut at half its
        // calls and file events: grown from the one before, and back.
        let mut traces = Vec::new();
        for trace in crate::load::every_run().into_iter().flatten() {
            let mut cut = trace.clone();
            cut.calls.truncate(trace.calls.len() / 2);
            cut.file_events.truncate(trace.file_events.len() / 2);
            traces.extend([cut, trace]);
        }
        for pair in traces.windows(2) {
            let [a, b] = [&pair[0], &pair[1]];
            let what = format!("{} after {}", b.scenario, a.scenario);
            assert_indexed_alike(&Timeline::grown(Timeline::of(a), b), b, &what);
            assert_indexed_alike(&Timeline::grown(Timeline::of(b), a), a, &what);
        }
        // A tap's run as its live view builds it: each call while it runs,
        // then ended, each build's timeline grown from the one before.
        for file in ["claude-code.tap.jsonl", "codex.tap.jsonl"] {
            let path = format!(
                "{}/tests/transcripts/real/cli/{file}",
                env!("CARGO_MANIFEST_DIR")
            );
            let text = std::fs::read_to_string(path).unwrap();
            let mut growing = crate::transcript::growing::Growing::new(file, false);
            let mut timeline = Timeline::default();
            for (k, line) in text.lines().enumerate() {
                let line: serde_json::Value = serde_json::from_str(line).unwrap();
                let mut running = line.clone();
                running["response"] = serde_json::Value::Null;
                running["status"] = serde_json::Value::Null;
                let running = growing.runs(vec![Arc::new(running)]);
                growing.push(line);
                let ended = growing.runs(Vec::new());
                for (when, runs) in [("running", running), ("ended", ended)] {
                    let trace = &runs[0].traces[0];
                    timeline = Timeline::grown(timeline, trace);
                    assert_indexed_alike(&timeline, trace, &format!("{file} call {k} {when}"));
                }
            }
        }
    }
}
