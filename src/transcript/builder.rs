//! The one place that turns what a transcript holds into steps.
//!
//! Readers push format-neutral events (a user message, a model reply with
//! its calls, a tool result, a request body's context, a compaction); the
//! builder pairs results with calls by id, groups the calls that ran
//! together, and records the same `Trace` the engine records. Narration is
//! generated from the events in both languages (`text.rs`).
//!
//! Long because every reader's events meet here to become steps; it is split
//! after the readers' and lessons' branches merge (issue 33).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use crate::load::{Card, Loaded, ScenarioError};
use crate::recorder::Recorder;
use crate::scenario::{About, CompactPolicy, EndStatus, Lang, Text};
use crate::trace::{
    CallId, Compaction, Lane, OfferedTool, Recorded, RecordedBody, Role, Shared, Slice, Step,
    StepKind, TaskOutcome, ToolCall, ToolResult, Trace,
};

use super::clean::{clean, clean_json, clean_owned, clean_redacted};
use super::errors::error;
use super::format::{Format, PairRule};
use super::text::{self, Say, Source};

/// A tool call as the model wrote it.
#[derive(Debug, Clone)]
pub struct CallSpec {
    pub id: String,
    pub name: String,
    pub args: CallArgs,
    /// A Responses `function_call` item's own `id` (`fc_…`), where the
    /// file records one; the result pairs by `id` above (the `call_id`).
    pub item_id: Option<String>,
}

/// A call's arguments: as name → value pairs (strings as they are, other
/// values as JSON), and exactly as the file wrote them, where it did.
#[derive(Debug, Clone, Default)]
pub struct CallArgs {
    pub pairs: Vec<(String, String)>,
    pub raw: Option<String>,
}

impl From<Vec<(String, String)>> for CallArgs {
    fn from(pairs: Vec<(String, String)>) -> Self {
        CallArgs { pairs, raw: None }
    }
}

/// One message of a transcript, format-neutral.
#[derive(Debug, Clone)]
pub enum Msg {
    User {
        text: String,
        line: usize,
    },
    Assistant {
        text: String,
        calls: Vec<CallSpec>,
        /// Output tokens of this reply, where the file records them.
        tokens_out: Option<u64>,
        line: usize,
    },
    Tool {
        call_id: String,
        text: String,
        is_error: bool,
        line: usize,
    },
    /// A user-role message the harness writes, not the user (Codex's
    /// `<environment_context>` and AGENTS.md instructions, Claude Code's
    /// `isMeta` lines): in the context, but not a task arriving.
    Context {
        text: String,
        line: usize,
    },
    /// The model's reasoning, part of the reply that follows it in the
    /// same turn (a Responses `reasoning` item, an Anthropic `thinking`
    /// block): its readable summary and the size of what is encrypted or
    /// redacted. Not a message of the trace, but never dropped unsaid.
    Reasoning {
        summary: String,
        /// Characters of `encrypted_content` / `redacted_thinking` data.
        encrypted: usize,
        line: usize,
    },
}

impl Msg {
    fn key(&self) -> Key {
        let hash = |parts: &[&str]| {
            let mut h = DefaultHasher::new();
            parts.hash(&mut h);
            h.finish()
        };
        match self {
            Msg::User { text, .. } | Msg::Context { text, .. } => Key::User(hash(&[text])),
            Msg::Assistant { text, calls, .. } => {
                let mut parts = vec![text.as_str()];
                parts.extend(calls.iter().map(|c| c.id.as_str()));
                Key::Assistant(hash(&parts))
            }
            Msg::Tool { call_id, .. } => Key::Tool(hash(&[call_id.as_str()])),
            Msg::Reasoning {
                summary, encrypted, ..
            } => Key::Reasoning(hash(&[summary, &encrypted.to_string()])),
        }
    }
}

/// Consecutive parts of one reply become one reply: the text and calls of
/// an assistant message and the `function_call` items after it (Responses
/// writes each call as its own item), with any reasoning between them.
/// The same rule `Builder::push` applies to what a file holds in order.
fn group_turns(messages: Vec<Msg>) -> Vec<Msg> {
    let mut out: Vec<Msg> = Vec::with_capacity(messages.len());
    for msg in messages {
        if let Msg::Assistant { .. } = msg
            && let Some(Msg::Assistant { .. }) = last_reply(&mut out)
        {
            merge_into(last_reply(&mut out).unwrap(), msg);
            continue;
        }
        out.push(msg);
    }
    out
}

/// The reply a new part would join: the last message, past any reasoning.
fn last_reply(list: &mut [Msg]) -> Option<&mut Msg> {
    list.iter_mut()
        .rev()
        .find(|m| !matches!(m, Msg::Reasoning { .. }))
        .filter(|m| matches!(m, Msg::Assistant { .. }))
}

fn merge_into(into: &mut Msg, part: Msg) {
    let (
        Msg::Assistant {
            text: prev_text,
            calls: prev_calls,
            tokens_out: prev_tokens,
            ..
        },
        Msg::Assistant {
            text,
            calls,
            tokens_out,
            ..
        },
    ) = (into, part)
    else {
        return;
    };
    if !text.is_empty() {
        if !prev_text.is_empty() {
            prev_text.push('\n');
        }
        prev_text.push_str(&text);
    }
    prev_calls.extend(calls);
    *prev_tokens = (*prev_tokens).max(tokens_out);
}

/// What a message is, for comparing a request's messages with the history.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Key {
    User(u64),
    Assistant(u64),
    /// The call it answers, hashed as the others are (a long run's
    /// history of thousands is copied with each running call).
    Tool(u64),
    Reasoning(u64),
}

/// A model call the file records as a request (its exact context).
#[derive(Debug, Clone)]
struct Request {
    line: usize,
    /// The request's messages are the earlier ones plus new ones, in order.
    consistent: bool,
    /// Responses `previous_response_id`: the earlier context is held by
    /// the server, not repeated in the request.
    continues: bool,
    tokens_in: Option<u64>,
    /// Reasoning items the request holds: how many, and their characters
    /// (summary and encrypted content).
    reasoning: (usize, usize),
    /// The request body (and response) as the file records them.
    body: Option<RecordedBody>,
}

#[derive(Debug, Clone)]
enum Event {
    Msg(Msg),
    Request(Request),
    Compacted {
        line: usize,
        /// What replaced the history, where the file records it (Codex
        /// `replacement_history`): items and characters.
        replaced: Option<(usize, usize)>,
        /// That history's messages: the context from here on.
        history: Vec<Msg>,
    },
    /// The file records the next model call's request exactly, though not
    /// as messages of the trace (Claude Code `api-request`): its line, how
    /// many messages it sent and its body (parameters, system prompt, tool
    /// definitions and messages).
    Recorded {
        line: usize,
        messages: usize,
        body: RecordedBody,
    },
    /// The provider refused the request before (a 400 body in the file).
    Rejected {
        line: usize,
        error: String,
    },
    /// The reply to the latest request was cut before its end (a tap
    /// recording's `incomplete`, with its `error`).
    Cut {
        line: usize,
        error: String,
    },
    /// The harness stopped the turn (Codex `turn_aborted`).
    Aborted {
        line: usize,
        reason: String,
    },
    Tokens {
        input: Option<u64>,
        output: Option<u64>,
    },
}

/// An OpenTelemetry GenAI span the OTel reader keeps here until all are
/// read (they are replayed by start time).
#[derive(Debug, Clone)]
pub struct Span {
    pub(super) start: u128,
    pub(super) line: usize,
    pub(super) attributes: serde_json::Map<String, serde_json::Value>,
    pub(super) error: bool,
}

/// Collects a transcript's events, then builds its traces.
#[derive(Debug, Clone, Default)]
pub struct Builder {
    name: String,
    /// Shared item by item with a copy made to read the calls still
    /// running (`Growing::runs`): copying it copies pointers.
    events: Shared<Event>,
    /// Persistent: the copy that reads the calls still running
    /// (`Growing::runs`) shares all of it but what it adds (a long run's
    /// history is thousands of messages).
    history: imbl::Vector<Key>,
    system: Vec<String>,
    tools: Option<Arc<[OfferedTool]>>,
    /// Lines skipped, by the type they had; a key of the document beside
    /// its list (`skip_key`) has no place: no lines.
    skipped: BTreeMap<String, Vec<usize>>,
    truncated: Option<usize>,
    /// Claude Code: conversation lines off the chain that was followed.
    off_chain: usize,
    requests: usize,
    /// What places are counted in: lines of JSON lines, items of one
    /// document's list, requests of a tap's live view.
    unit: text::Unit,
    /// `--redact`: mask likely secrets in every text stored.
    pub(crate) redact: bool,
    /// `FILE#N`: the run chosen in a file of many runs.
    pub(crate) run: Option<usize>,
    /// The file holds runs to choose from (a results file, a tap
    /// recording): `run` was read.
    pub(crate) runs_read: bool,
    /// Said once among the warnings and in the about overlay (which run of
    /// many is shown), in each language.
    notes: Vec<[String; Lang::COUNT]>,
    /// How the run links to its sub-agents' runs.
    sub_agents: crate::trace::SubAgents,
    /// Exit codes recorded apart from a result (Codex `exec_command_end`),
    /// for a result not read yet.
    exit_codes: HashMap<String, i64>,
    /// The request body (and response) a reader is about to hand over.
    recorded_body: Option<RecordedBody>,
    /// The text of the next request body recorded, where the caller
    /// wrote it before (`body_known`): a tap's call ends with the request
    /// it began with, megabytes in a long run, not written out again.
    known_body: Option<Arc<str>>,
    /// Where its tool list is written in it, if it has one.
    known_tools: Option<std::ops::Range<usize>>,
    /// The system texts read (as given to `system`) and the latest tool
    /// list a request offered (`tools_listed`): a run repeats them at
    /// every call, tens of kilobytes, read again only when they change.
    system_read: Vec<Arc<str>>,
    tools_read: Option<ToolsRead>,
    /// OTLP: GenAI spans, replayed by start time once all are read.
    pub(crate) spans: Vec<Span>,
    /// Set by a reader whose file pairs otherwise than its format's rule
    /// (`PairRule::of`).
    pub(crate) pairing: Option<PairRule>,
    /// How many first messages of the next request its conversation's
    /// previous request sent (`repeats`).
    repeats: usize,
    /// Where the latest request's reading ended, if it can be gone on from.
    read_before: Option<ReadBefore>,
    /// The request being read (`repeated`), until `request_from` takes it.
    reading: Option<Reading>,
    /// Events read for good, and changes of them (`changed`); those past
    /// may still change (a tap's calls still running). None: all of them.
    final_read: Option<Read>,
    /// Each event changed where it stood (its index), in order: a replay
    /// kept past it (`Kept`) is out of date.
    changed: Vec<usize>,
}

/// Where a request's reading ended, when a request that repeats it can go
/// on from there: its messages were all found in the history in order or
/// appended after it, the last of them last and not a reply (nothing of
/// the next request joins it), and none of them was left unread. A tap
/// client sends the whole history on every call: its next request is read
/// from here, the history it repeats not read again.
#[derive(Debug, Clone, Copy)]
struct ReadBefore {
    /// The request's messages (items of its list).
    items: usize,
    /// The history's length after it.
    history: usize,
    /// Its reasoning: items and characters.
    reasoning: (usize, usize),
}

/// The request a reader is reading (`Builder::repeated`).
#[derive(Debug, Clone, Copy)]
struct Reading {
    /// Its messages (items of its list).
    items: usize,
    /// Where it goes on from, if its first messages were read before.
    from: Option<ReadBefore>,
    /// None of its messages read was left unread (`skip`).
    whole: bool,
}

impl Builder {
    pub fn new(name: &str) -> Self {
        Builder {
            name: name.to_string(),
            ..Builder::default()
        }
    }

    /// The events read so far, and their changes.
    pub(crate) fn read(&self) -> Read {
        Read {
            events: self.events.len(),
            changes: self.changed.len(),
        }
    }

    /// Only what was `read` then is read for good: the events after may
    /// still change (`Growing::runs`), and a build keeps no replay of them.
    pub(crate) fn final_up_to(&mut self, read: Read) {
        self.final_read = Some(read);
    }

    /// The name titles are made from (a live recording's first conversation
    /// becomes `FILE#1` once a second one starts).
    pub(crate) fn rename(&mut self, name: &str) {
        self.name = name.to_string();
    }

    /// A message in the order the run had it. Consecutive parts of one
    /// reply (Responses items, Claude Code lines) become one reply.
    pub fn push(&mut self, msg: Msg) {
        self.push_part(msg, true);
    }

    /// A reply that starts a model call of its own, though no request
    /// comes before it (an inference span that records no input
    /// messages): it never joins the reply before it.
    pub fn push_reply(&mut self, msg: Msg) {
        self.push_part(msg, false);
    }

    fn push_part(&mut self, msg: Msg, joins: bool) {
        let mut msg = cleaned(msg, self.redact);
        if let Msg::Tool {
            call_id,
            is_error,
            text,
            ..
        } = &mut msg
            && !still_running(text)
            && let Some(code) = self.exit_codes.remove(call_id.as_str())
        {
            *is_error |= code != 0;
        }
        if joins && matches!(msg, Msg::Assistant { .. }) {
            // The reply this part joins: the last event, past any reasoning.
            let at = self
                .events
                .iter()
                .rposition(|e| !matches!(e, Event::Msg(Msg::Reasoning { .. })));
            if let Some(at) = at
                && let Event::Msg(prev @ Msg::Assistant { .. }) = &mut self.events[at]
            {
                merge_into(prev, msg);
                self.changed.push(at);
                let key = prev.key();
                let back = self.events.len() - at;
                let slot = self.history.len() - back;
                self.history.set(slot, key);
                return;
            }
        }
        self.history.push_back(msg.key());
        self.events.push(Event::Msg(msg));
    }

    /// A request body: its messages are the exact context of one model
    /// call. Messages already in the history are matched in order; the new
    /// ones are appended. The reply, if the file has it, is pushed next.
    pub fn request(&mut self, messages: Vec<Msg>, line: usize, tokens_in: Option<u64>) {
        self.request_from(messages, line, tokens_in, false);
    }

    /// A request body as a file holds it. Without a response, one whose
    /// messages end with the assistant's reply is a record of the
    /// conversation, not a pending call: its messages are pushed as they are.
    pub fn request_or_record(
        &mut self,
        messages: Vec<Msg>,
        line: usize,
        tokens_in: Option<u64>,
        has_reply: bool,
    ) {
        self.request_or_record_refused(messages, line, tokens_in, has_reply, None);
    }

    /// `request_or_record`, where the file records that the provider
    /// refused the request with this error (a 400 body): a request, whose
    /// model call the provider rejected; the model never ran.
    pub fn request_or_record_refused(
        &mut self,
        messages: Vec<Msg>,
        line: usize,
        tokens_in: Option<u64>,
        has_reply: bool,
        refused: Option<String>,
    ) {
        if let Some(error) = refused {
            self.request(messages, line, tokens_in);
            let error = clean_redacted(&error, self.redact);
            self.events.push(Event::Rejected { line, error });
            return;
        }
        if !has_reply && matches!(messages.last(), Some(Msg::Assistant { .. })) {
            // A record of messages, not a request: it has no body.
            self.recorded_body = None;
            self.not_a_request();
            for msg in messages {
                self.push(msg);
            }
        } else {
            self.request(messages, line, tokens_in);
        }
    }

    /// A request that continues an earlier response held by the server
    /// (Responses `previous_response_id`): only its new items are in it.
    pub fn request_continuing(&mut self, messages: Vec<Msg>, line: usize, tokens_in: Option<u64>) {
        self.request_from(messages, line, tokens_in, true);
    }

    fn request_from(
        &mut self,
        messages: Vec<Msg>,
        line: usize,
        tokens_in: Option<u64>,
        continues: bool,
    ) {
        let reading = self.reading.take();
        let from = reading.and_then(|r| r.from);
        let before = self.history.len();
        // Where the request repeating the latest one read goes on from:
        // its first messages matched as they did then.
        let mut matched = from.map_or(0, |r| r.history);
        let mut appended = false;
        let mut consistent = true;
        // Every message found in order or appended, none dropped as a repeat.
        let mut in_order = true;
        // Where the last message stands in the history, and whether it ends
        // a turn (a reply, or its reasoning, would join what comes next).
        let mut last_at = from.map(|r| r.history - 1);
        let mut ends_turn = from.is_some();
        // Results of the latest turn already in the history (a tool span
        // may have recorded one before the request that repeats it). Only
        // after the latest reply: an id may be reused in a later turn.
        let turn = self
            .history
            .iter()
            .rposition(|k| matches!(k, Key::Assistant(_)))
            .map_or(0, |i| i + 1);
        let answered: HashSet<u64> = (turn..self.history.len())
            .filter_map(|i| match self.history[i] {
                Key::Tool(id) => Some(id),
                _ => None,
            })
            .collect();
        let mut reasoning = from.map_or((0, 0), |r| r.reasoning);
        for msg in group_turns(messages) {
            let msg = cleaned(msg, self.redact);
            let key = msg.key();
            ends_turn = !matches!(key, Key::Assistant(_) | Key::Reasoning(_));
            if let Msg::Reasoning {
                summary, encrypted, ..
            } = &msg
            {
                reasoning.0 += 1;
                reasoning.1 += summary.chars().count() + encrypted;
            }
            // Reasoning of earlier turns a request need not send back.
            while matched < before
                && matches!(self.history[matched], Key::Reasoning(_))
                && self.history[matched] != key
            {
                matched += 1;
            }
            if matched < before && self.history[matched] == key {
                last_at = Some(matched);
                matched += 1;
                consistent &= !appended;
                continue;
            }
            // Further on: results of a parallel group recorded in another
            // order than the request lists them. Any other skip means the
            // request left out an earlier message.
            // A bounded look-ahead: a parallel group, not the whole history.
            let window = before.min(matched + 64);
            if let Some(j) = (matched..window).find(|&j| self.history[j] == key) {
                consistent &= !appended
                    && matches!(key, Key::Tool(_))
                    && (matched..j).all(|k| matches!(self.history[k], Key::Tool(_)));
                self.history.swap(matched, j);
                last_at = Some(matched);
                matched += 1;
                continue;
            }
            if let Key::Tool(id) = &key
                && answered.contains(id)
            {
                // The same result, recorded twice (a tool span and the next request).
                in_order = false;
                continue;
            }
            appended = true;
            self.history.push_back(key);
            last_at = Some(self.history.len() - 1);
            self.events.push(Event::Msg(msg));
        }
        while matched < before && matches!(self.history[matched], Key::Reasoning(_)) {
            matched += 1;
        }
        consistent &= matched == before;
        self.read_before = reading
            .filter(|r| {
                r.whole
                    && consistent
                    && in_order
                    && ends_turn
                    && last_at.is_some_and(|at| at + 1 == self.history.len())
            })
            .map(|r| ReadBefore {
                items: r.items,
                history: self.history.len(),
                reasoning,
            });
        self.requests += 1;
        let body = self.recorded_body.take();
        self.events.push(Event::Request(Request {
            line,
            consistent,
            continues,
            tokens_in,
            reasoning,
            body,
        }));
    }

    /// The exit code of a call's command, recorded apart from its result:
    /// non-zero makes the result an error (the latest one by that id, or
    /// the next one read).
    pub fn exit_code(&mut self, call_id: &str, code: i64) {
        // Back to the result, or to the reply that made the call (then
        // its result is still to come).
        let mut latest = None;
        for (i, e) in self.events.iter().enumerate().rev() {
            match e {
                Event::Msg(Msg::Tool {
                    call_id: id, text, ..
                }) if id == call_id => {
                    // A process still running when the call returned (Codex
                    // unified exec): its exit code is the later
                    // `write_stdin`'s to report, not this result's.
                    if !still_running(text) {
                        latest = Some(i);
                    }
                    break;
                }
                Event::Msg(Msg::Assistant { calls, .. })
                    if calls.iter().any(|c| c.id == call_id) =>
                {
                    break;
                }
                _ => {}
            }
        }
        match latest {
            Some(i) => {
                if let Event::Msg(Msg::Tool { is_error, .. }) = &mut self.events[i] {
                    *is_error |= code != 0;
                }
                self.changed.push(i);
            }
            None => {
                self.exit_codes.insert(call_id.to_string(), code);
            }
        }
    }

    /// The next request's body as the file records it, and its response
    /// where the file has one: shown, exported and measured as recorded.
    pub fn recorded_body(
        &mut self,
        body: &serde_json::Value,
        response: Option<&serde_json::Value>,
    ) {
        let tools_bytes = self.known_tools().map(str::len);
        let known = self.known_body.take();
        debug_assert!(
            known
                .as_ref()
                .is_none_or(|k| **k == *recorded_text(body, self.redact)),
            "a body known as another"
        );
        self.recorded_body = Some(self.body_of(body, response, known, tools_bytes));
    }

    /// The next request body recorded is `text` (`recorded_text` of it),
    /// its tool list written at `tools` in it: kept, not written out
    /// again. Unused, it is forgotten at the next.
    pub(crate) fn body_known(
        &mut self,
        text: Option<Arc<str>>,
        tools: Option<std::ops::Range<usize>>,
    ) {
        self.known_tools = tools.filter(|_| text.is_some());
        self.known_body = text;
    }

    /// The tool list of the body known, as written there, where it is
    /// written as it is (not masked: `--redact` may make two lists one).
    fn known_tools(&self) -> Option<&str> {
        let at = self.known_tools.clone().filter(|_| !self.redact)?;
        self.known_body.as_deref()?.get(at)
    }

    /// A recorded body as the trace keeps it: compact JSON text (masked
    /// with `--redact`; `known` where it was written before), the bytes of
    /// its tools (`tools_bytes` where they were counted) and the items of
    /// its list.
    fn body_of(
        &self,
        body: &serde_json::Value,
        response: Option<&serde_json::Value>,
        known: Option<Arc<str>>,
        tools_bytes: Option<usize>,
    ) -> RecordedBody {
        let text = |v: &serde_json::Value| recorded_text(v, self.redact);
        let tools_bytes = body
            .get("tools")
            .and_then(serde_json::Value::as_array)
            .map_or(0, |t| match (tools_bytes, &self.tools_read) {
                (Some(bytes), _) => {
                    debug_assert_eq!(bytes, compact_len(t), "tools written otherwise");
                    bytes
                }
                (None, Some(read)) if written_alike(&read.list, t) => read.bytes,
                _ => compact_len(t),
            });
        let items = ["messages", "input"]
            .iter()
            .find_map(|k| body.get(*k))
            .map_or(0, |list| list.as_array().map_or(1, Vec::len));
        let reasoning_at = body
            .get("input")
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
            .zip(1..)
            .filter(|(item, _)| {
                item.get("type").and_then(serde_json::Value::as_str) == Some("reasoning")
            })
            .map(|(_, number)| number)
            .collect();
        RecordedBody {
            request: known.unwrap_or_else(|| text(body)),
            tools_bytes,
            items,
            reasoning_at,
            response: response.map(text),
        }
    }

    /// The file is one document, `value` read from `text`: where it is a
    /// request body recorded here, the body is kept as the file writes it
    /// (its bytes and tokens are the file's, indentation and all).
    pub fn written_whole(&mut self, value: &serde_json::Value, text: &str) {
        if self.redact {
            return;
        }
        let compact = value.to_string();
        let holds = |event: &Event| {
            matches!(event, Event::Request(Request { body: Some(body), .. })
                if *body.request == *compact)
        };
        for i in 0..self.events.len() {
            if holds(&self.events[i])
                && let Event::Request(Request {
                    body: Some(body), ..
                }) = &mut self.events[i]
            {
                body.request = text.trim().into();
                self.changed.push(i);
            }
        }
    }

    /// A system prompt or developer instruction: sent to the model, but
    /// not a message of the trace (it has no system role).
    pub fn system(&mut self, text: &str) {
        // A text read before is held already (`system` only grows).
        if self.system_read.iter().any(|read| **read == *text) {
            return;
        }
        self.system_read.push(text.into());
        let text = clean_redacted(text, self.redact);
        if !text.trim().is_empty() && !self.system.contains(&text) {
            self.system.push(text);
        }
    }

    pub fn tools(&mut self, mut tools: Vec<OfferedTool>) {
        self.tools_read = None;
        for tool in &mut tools {
            tool.description = clean_redacted(&tool.description, self.redact);
        }
        if !tools.is_empty() {
            self.tools = Some(tools.into());
        }
    }

    /// A request's `tools` list (each tool's parameters under
    /// `schema_key`): `tools` of them, unless it is the list read last.
    pub fn tools_listed(&mut self, listed: &[serde_json::Value], schema_key: &str) {
        let text = self.known_tools();
        if let Some(read) = &self.tools_read {
            // A run's list as written is compared as written, a memcmp
            // (its values are a walk over tens of kilobytes).
            let alike = match (&read.text, text) {
                (Some(was), Some(text)) => **was == *text,
                _ => written_alike(&read.list, listed),
            };
            debug_assert_eq!(alike, written_alike(&read.list, listed));
            if alike {
                // Compared as written from the next call on.
                if read.text.is_none() {
                    let text = self.known_tools().map(Arc::from);
                    self.tools_read.as_mut().expect("a list read").text = text;
                }
                return;
            }
        }
        let text: Option<Arc<str>> = text.map(Into::into);
        self.tools(offered_tools(listed, schema_key));
        self.tools_read = Some(ToolsRead {
            list: listed.into(),
            bytes: text
                .as_ref()
                .map_or_else(|| compact_len(listed), |t| t.len()),
            text,
        });
    }

    /// The next model call's request as the file records it (`Event::Recorded`).
    pub fn recorded_request(&mut self, line: usize, messages: usize, body: &serde_json::Value) {
        self.requests += 1;
        let body = self.body_of(body, None, None, None);
        self.events.push(Event::Recorded {
            line,
            messages,
            body,
        });
    }

    pub fn compacted(&mut self, line: usize) {
        self.read_before = None;
        self.events.push(Event::Compacted {
            line,
            replaced: None,
            history: Vec::new(),
        });
    }

    /// A compaction whose replacement the file records (`items` items of
    /// `chars` characters): from here the context is exactly `history`,
    /// then what follows.
    pub fn compacted_to(&mut self, line: usize, items: usize, chars: usize, history: Vec<Msg>) {
        let history: Vec<Msg> = group_turns(history)
            .into_iter()
            .map(|m| cleaned(m, self.redact))
            .collect();
        // Later request bodies repeat this history, not the earlier one.
        self.history = history.iter().map(Msg::key).collect();
        self.read_before = None;
        self.events.push(Event::Compacted {
            line,
            replaced: Some((items, chars)),
            history,
        });
    }

    /// The reply to the request just read was cut before its end: `error`
    /// says why (the recorder's words).
    pub fn cut(&mut self, line: usize, error: &str) {
        let error = clean_redacted(error, self.redact);
        self.events.push(Event::Cut { line, error });
    }

    /// The turn was stopped here (interrupted by the user, …).
    pub fn aborted(&mut self, line: usize, reason: &str) {
        let reason = clean(reason);
        self.events.push(Event::Aborted { line, reason });
    }

    /// Token counts the file records for the latest model call.
    pub fn tokens(&mut self, input: Option<u64>, output: Option<u64>) {
        self.events.push(Event::Tokens { input, output });
    }

    /// A line of a type that is not part of the loop drawn here.
    pub fn skip(&mut self, kind: &str, line: usize) {
        self.skipped.entry(clean(kind)).or_default().push(line);
        if let Some(reading) = &mut self.reading {
            // A request that repeats it would skip it again: read it whole.
            reading.whole = false;
        }
    }

    /// A key of the document, beside the list read (a trajectory's
    /// `info`): not drawn, listed by name, with no place, as it is no
    /// item of the list the places count.
    pub fn skip_key(&mut self, key: &str) {
        self.skipped
            .entry(clean(&format!("key {key:?}")))
            .or_default();
    }

    /// The next request's first `n` messages are its conversation's
    /// previous request's, as sent (a tap's splitter compared them).
    pub(crate) fn repeats(&mut self, n: usize) {
        self.repeats = n;
    }

    /// A request of `items` messages is about to be read: how many of its
    /// first ones were read before and need not be read again. None but
    /// where `repeats` said that the previous request, which this builder
    /// read whole and in order, sent them all.
    pub(crate) fn repeated(&mut self, items: usize) -> usize {
        let repeats = std::mem::take(&mut self.repeats);
        let from = self
            .read_before
            .filter(|r| r.items == repeats && 0 < repeats && repeats < items);
        self.reading = Some(Reading {
            items,
            from,
            whole: true,
        });
        from.map_or(0, |r| r.items)
    }

    /// The request read was not one (unreadable, or a record of messages).
    pub(crate) fn not_a_request(&mut self) {
        self.reading = None;
        self.read_before = None;
    }

    pub fn skipped_lines(&mut self, truncated: Option<usize>) {
        self.truncated = truncated;
    }

    /// The places pushed are items of one document's list (1-based).
    pub fn by_item(&mut self) {
        self.unit = text::Unit::Item;
    }

    /// The places pushed are requests of a tap's live view.
    pub fn by_request(&mut self) {
        self.unit = text::Unit::Request;
    }

    /// A line for the warnings, about the file as a whole.
    pub fn note(&mut self, text: [String; Lang::COUNT]) {
        self.notes.push(text);
    }

    /// How the run links to its sub-agents' runs (`Trace::sub_agents`).
    pub fn sub_agents(&mut self, links: crate::trace::SubAgents) {
        self.sub_agents = links;
    }

    pub fn off_chain(&mut self, count: usize) {
        self.off_chain = count;
    }

    /// One line per thing skipped, naming the file, the lines and the count.
    pub fn warnings(&self, path: &str) -> Vec<String> {
        let file = clean(path);
        let (noun, nouns) = match self.unit {
            text::Unit::Line => ("line", "lines"),
            text::Unit::Item => ("item", "items"),
            text::Unit::Request => ("request", "requests"),
        };
        let mut out: Vec<String> = self
            .notes
            .iter()
            .map(|note| format!("{file}: note: {}", note[Lang::En.index()]))
            .collect();
        if let Some(line) = self.truncated {
            out.push(format!(
                "{file}: warning: line {line} is cut short (was the session still being written?); skipped 1 line"
            ));
        }
        let (keys, placed): (Vec<_>, Vec<_>) = self.skipped.iter().partition(|(_, v)| v.is_empty());
        if !placed.is_empty() {
            let count: usize = placed.iter().map(|(_, v)| v.len()).sum();
            let kinds: Vec<String> = placed
                .iter()
                .map(|(k, v)| format!("{k} ×{}", v.len()))
                .collect();
            let mut lines: Vec<usize> =
                placed.iter().flat_map(|(_, v)| v.iter()).copied().collect();
            lines.sort_unstable();
            let shown: Vec<String> = lines.iter().take(20).map(usize::to_string).collect();
            let more = if lines.len() > 20 { ", …" } else { "" };
            out.push(format!(
                "{file}: warning: skipped {count} {} of types not drawn as steps ({}): {} {}{more}",
                if count == 1 { noun } else { nouns },
                kinds.join(", "),
                if lines.len() == 1 { noun } else { nouns },
                shown.join(", ")
            ));
        }
        if !keys.is_empty() {
            let keys: Vec<&str> = keys.iter().map(|(k, _)| k.as_str()).collect();
            out.push(format!(
                "{file}: warning: not drawn as steps: {} (the document's own, beside the messages)",
                keys.join(", ")
            ));
        }
        for (id, call, result, reply) in pairing(self.events.slice(..), 0).late {
            out.push(format!(
                "{file}: warning: the result at {noun} {result} answers call_id {id} of the reply at {noun} {call}, \
                 but another reply ({noun} {reply}) came between them; paired by id"
            ));
        }
        if self.off_chain > 0 {
            out.push(format!(
                "{file}: warning: {} conversation line{} not on the parentUuid chain of the last message \
                 (side chains, or branches left by a retry); not shown",
                self.off_chain,
                if self.off_chain == 1 { "" } else { "s" }
            ));
        }
        out
    }

    /// Build the traces (one per language) and the `Loaded` the app holds.
    pub fn finish(self, format: Format, path: &str) -> Result<Loaded, ScenarioError> {
        self.finish_after(format, path, None)
    }

    /// What the file tells of the run built, as titles and the about card
    /// say it.
    fn facts(&self, built: &Build, format: Format, name: &str) -> text::Facts {
        text::Facts {
            file: name.to_string(),
            format,
            model_calls: built.rec.trace.model_calls.len(),
            exact_calls: built.exact_calls,
            requests: self.requests,
            system_parts: self.system.len(),
            system_chars: self.system.iter().map(|s| s.chars().count()).sum(),
            tools_known: self.tools.is_some(),
            compactions: built.compactions,
            compactions_recorded: built.rec.trace.compactions.len(),
            unread: self
                .skipped
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            unit: self.unit,
            truncated: self.truncated,
            writes_known: writes_known(format),
            notes: self.notes.clone(),
            off_chain: self.off_chain,
            redacted: self.redact,
            pairing: self.pairing.unwrap_or(PairRule::of(format)),
        }
    }

    /// `finish`, where `earlier` holds what the build of this run from
    /// fewer of its lines left (a tap's live view, built again as calls
    /// come): what is alike is taken from it, not made again (the places
    /// of the messages, the narration of the steps), and this build's is
    /// left there for the next. The same traces either way.
    pub fn finish_after(
        mut self,
        format: Format,
        path: &str,
        mut earlier: Option<&mut Earlier>,
    ) -> Result<Loaded, ScenarioError> {
        let name = self.name.clone();
        let kept = earlier.as_deref_mut().map(|e| &mut e.kept);
        let built = Build::run(&mut self, format, kept);
        if built.rec.trace.steps.is_empty() {
            return Err(error(
                path,
                None,
                format!(
                    "read as {}, but it holds no message, model reply or tool result; expected a transcript of a run",
                    text::format_name(format, Lang::En)
                ),
            ));
        }
        let facts = self.facts(&built, format, &name);
        // One clone: a long run's trace is megabytes.
        let Build {
            rec,
            says,
            tokens_in,
            notes,
            ..
        } = built;
        let before = earlier.as_deref_mut().and_then(|e| {
            let trace = e.traces.first()?;
            Some((trace, &e.run_steps, &mut e.measured))
        });
        // The last build's run, each step of its call's size, shares most
        // chunks of steps with this one.
        let (earlier_run, like) = match before {
            Some((t, steps, measured)) => (Some((t, measured)), Some((steps, &t.model_calls))),
            None => (None, None),
        };
        let run = rec.finish_after(earlier_run, like);
        if let Some(kept) = earlier.as_mut().and_then(|e| e.kept.as_mut()) {
            // The next build goes on from a replay measured as this one
            // is: its steps and calls are then shared, not copied to be
            // measured again.
            kept.build.rec.trace.measured_as(&run);
        }
        // Each call's narration counts what its context heading counts.
        let mut told_before = earlier
            .as_mut()
            .map(|e| std::mem::take(&mut e.told))
            .unwrap_or_default();
        let was = std::mem::take(&mut told_before.numbers);
        let before = earlier
            .as_deref()
            .and_then(|e| Some((e.traces.first()?, e.measured.placed_alike)));
        let numbers = Numbers::of_calls(&run, &tokens_in, before, was);
        let (narrations, same) = narrations(&says, numbers, self.unit, told_before);
        let told = Told {
            narrations: &narrations.said,
            same: &same,
            noted: &noted(says.len(), earlier.as_deref(), &notes),
            notes: &notes,
            unit: self.unit,
        };
        let run_steps = run.steps.clone();
        // Each language's trace is the run with its own words; the last
        // takes the run itself (a long run's trace is megabytes).
        let (mut run, mut left) = (Some(run), Lang::COUNT);
        let mut traces = Lang::ALL.map(|_| {
            left -= 1;
            let trace = if left == 0 { run.take() } else { run.clone() };
            trace.expect("the run, until the last language takes it")
        });
        for (trace, lang) in traces.iter_mut().zip(Lang::ALL) {
            trace.lang = lang;
            trace.title = text::title(&facts, lang);
            let before = earlier
                .as_ref()
                .and_then(|e| Some((e.traces.get(lang.index())?, &e.run_steps)));
            tell(trace, &told, before);
        }
        let card = card_of(&facts, &name);
        let counts = crate::wire::counts_of(&traces[0]);
        if let Some(earlier) = earlier {
            earlier.traces = traces.to_vec();
            earlier.told = narrations;
            earlier.run_steps = run_steps;
            earlier.noted = notes.iter().map(|(index, _)| *index).collect();
        }
        Ok(Loaded {
            card,
            lesson: None,
            traces,
            pseudo: None,
            faults: Vec::new(),
            counts,
            sub_agent: None,
        })
    }
}

/// Per step of `steps`, and per chunk of them: a note is said after it,
/// in `notes` or in the build `before`.
fn noted(steps: usize, before: Option<&Earlier>, notes: &[(usize, text::Note)]) -> PerStep {
    let mut noted = PerStep {
        steps: vec![false; steps],
        chunks: vec![false; steps.div_ceil(crate::shared::CHUNK)],
    };
    let before = before.map_or(&[][..], |e| &e.noted[..]);
    for &i in before.iter().chain(notes.iter().map(|(i, _)| i)) {
        if let Some(n) = noted.steps.get_mut(i) {
            *n = true;
            noted.chunks[i / crate::shared::CHUNK] = true;
        }
    }
    noted
}

/// A fact of each step, and of each chunk of steps (`Shared`'s): true of
/// a chunk when of each of its steps (`same`) or of any (`noted`). A long
/// run has thousands of steps, and a build reads them chunk by chunk.
#[derive(Debug, Default)]
struct PerStep {
    steps: Vec<bool>,
    chunks: Vec<bool>,
}

/// What each step of a run says, in every language (`tell`).
struct Told<'a> {
    narrations: &'a [Said],
    /// Per step: its narration is the one the build before had there.
    same: &'a PerStep,
    /// Per step: a note is said after it, now or in the build before.
    noted: &'a PerStep,
    notes: &'a [(usize, text::Note)],
    unit: text::Unit,
}

impl Told<'_> {
    /// Step `i` says what it said in the build before, and no note after.
    fn unchanged(&self, i: usize) -> bool {
        self.same.steps.get(i) == Some(&true) && self.noted.steps.get(i) == Some(&false)
    }

    /// Each step of chunk `k` is `unchanged`, known unread.
    fn chunk_unchanged(&self, k: usize) -> bool {
        self.same.chunks.get(k) == Some(&true) && self.noted.chunks.get(k) == Some(&false)
    }
}

/// Each step of `trace` told in its language: its narration, and the notes
/// after it. A step told as the build `before` told it is that build's
/// step, shared, not a copy (a long run has thousands): known without
/// reading either step where the run's step is the very one that build
/// told (`before`'s run steps) with the same narration and no note, and a
/// whole chunk of such steps is that build's chunk.
fn tell(trace: &mut Trace, told: &Told, before: Option<(&Trace, &Shared<Step>)>) {
    let lang = trace.lang;
    let empty = Shared::default();
    let (before, before_run) = before.map_or((&empty, &empty), |(t, run)| (&t.steps, run));
    let run = std::mem::take(&mut trace.steps);
    // Chunk `k` of the run told as `before` told it: that build's chunk.
    let whole = |k: usize| {
        let (first, len) = (k * crate::shared::CHUNK, run.chunk_len(k));
        debug_assert_eq!(
            told.chunk_unchanged(k),
            (first..first + len).all(|i| told.unchanged(i)),
            "chunk {k} said unchanged otherwise than its steps"
        );
        let very = match (run.chunk(k), before_run.chunk(k)) {
            (Some(chunk), Some(was)) => Arc::ptr_eq(chunk, was),
            _ => false,
        };
        very && told.chunk_unchanged(k) && before.chunk_len(k) == len && before.chunk(k).is_some()
    };
    // The first chunks so told are that build's list, shared, not added
    // again chunk by chunk (a long run has a hundred of them).
    let kept = (0..run.chunk_count()).take_while(|&k| whole(k)).count();
    let mut steps = match kept {
        0 => Shared::default(),
        _ => before.clone(),
    };
    steps.truncate((kept * crate::shared::CHUNK).min(run.len()));
    for (k, chunk) in run.chunks().enumerate().skip(kept) {
        let first = k * crate::shared::CHUNK;
        if whole(k)
            && let Some(old) = before.chunk(k)
        {
            steps.push_chunk(old.clone());
            continue;
        }
        for (i, step) in (first..).zip(chunk.iter()) {
            steps.push_shared(told_step(i, step, told, lang, before, before_run));
        }
    }
    trace.steps = steps;
}

/// Step `i` of a run (`step`) told in `lang` (`tell`).
fn told_step(
    i: usize,
    step: &Arc<Step>,
    told: &Told,
    lang: Lang,
    before: &Shared<Step>,
    before_run: &Shared<Step>,
) -> Arc<Step> {
    let unchanged = told.unchanged(i)
        && before_run
            .get_shared(i)
            .is_some_and(|run| Arc::ptr_eq(run, step));
    if unchanged && let Some(old) = before.get_shared(i) {
        return old.clone();
    }
    let Some(said) = told.narrations.get(i) else {
        return step.clone();
    };
    let mut narration = said.narration[lang.index()].clone();
    for (_, note) in told.notes.iter().filter(|(at, _)| *at == i) {
        narration = format!("{narration}{}", text::note(note, told.unit, lang)).into();
    }
    match before.get_shared(i) {
        Some(old) if old.narration.as_ref() == Some(&narration) && old.alike(step) => old.clone(),
        _ => {
            let mut step = step.clone();
            Arc::make_mut(&mut step).narration = Some(narration);
            step
        }
    }
}

/// What the file tells of the run, as the about card and the picker say
/// it; it has no lesson behind it.
fn card_of(facts: &text::Facts, name: &str) -> Card {
    let both = |f: &dyn Fn(Lang) -> String| Text::of(f);
    Card {
        name: crate::safe::stem_part(name),
        title: both(&|l| text::title(facts, l)),
        task: both(&|l| text::task(facts, l)),
        conditions: text::conditions(facts).into_iter().map(Text::new).collect(),
        about: {
            let [why, how, cost, check] = text::about(facts).map(Text::new);
            About {
                why,
                how,
                cost,
                check,
            }
        },
    }
}

/// What the build of a growing run leaves for the next one
/// (`Builder::finish_after`).
#[derive(Debug, Clone, Default)]
pub struct Earlier {
    /// The run built, in each language (`Lang::ALL`; the places of each
    /// are the run's).
    traces: Vec<Trace>,
    /// What each step said, and what from.
    told: Tellings,
    /// The run's steps before they were told (`tell`).
    run_steps: Shared<Step>,
    /// The steps a note was said after.
    noted: Vec<usize>,
    /// Its replay, as far as no later line changes it.
    kept: Option<Kept>,
    /// What measuring its run read of its messages and model calls.
    measured: crate::recorder::Measured,
}

/// A replay stopped where no line after it changes what it made: no call
/// waits for a result (whether a later line answers a call is all a
/// replay looks ahead for, `pairing`), and no reply may go on.
#[derive(Clone)]
struct Kept {
    build: Build,
    pending: Option<Request>,
    /// Events replayed.
    events: usize,
    /// The builder's `changed` seen.
    changes: usize,
    basis: Basis,
}

impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Kept {{ events: {} }}", self.events)
    }
}

/// A recorded body's text as a trace keeps it: compact JSON, masked
/// with `--redact`.
pub(crate) fn recorded_text(value: &serde_json::Value, redact: bool) -> Arc<str> {
    match redact {
        true => {
            let mut value = value.clone();
            super::redact::redact_strings(&mut value);
            compact(&value).into()
        }
        false => compact(value).into(),
    }
}

/// `value` as compact JSON: what `to_string` makes, written straight into
/// the string rather than through `fmt` (a long run's request is
/// megabytes, written at every call).
fn compact(value: &serde_json::Value) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| value.to_string())
}

/// The length of `items` as a compact JSON list (`compact`).
fn compact_len(items: &[serde_json::Value]) -> usize {
    let written: usize = items.iter().map(|item| compact(item).len()).sum();
    written + "[]".len() + items.len().saturating_sub(1)
}

/// The latest tool list a request offered (`Builder::tools_listed`), and
/// its length as compact JSON (`compact_len`).
#[derive(Debug, Clone)]
struct ToolsRead {
    list: Arc<[serde_json::Value]>,
    bytes: usize,
    /// The list as written in the body it was read from, where known
    /// (`Builder::known_tools`).
    text: Option<Arc<str>>,
}

/// `a == b`, each object's keys in the order written: a run writes its
/// tool list alike at each call, tens of kilobytes, and a map's `==`
/// looks each key up (a list written in another order is only read again).
fn written_alike(a: &[serde_json::Value], b: &[serde_json::Value]) -> bool {
    use serde_json::Value;
    fn alike(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Array(a), Value::Array(b)) => written_alike(a, b),
            (Value::Object(a), Value::Object(b)) => {
                let keys = |((ka, a), (kb, b)): ((&String, &Value), (&String, &Value))| {
                    ka == kb && alike(a, b)
                };
                a.len() == b.len() && a.iter().zip(b).all(keys)
            }
            _ => a == b,
        }
    }
    a.len() == b.len() && a.iter().zip(b).all(|(a, b)| alike(a, b))
}

/// How much of a builder is read (`Builder::read`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Read {
    events: usize,
    changes: usize,
}

/// What a replay starts from (`Build::new`), besides the lines skipped.
#[derive(Clone)]
struct Basis {
    name: String,
    tools: Option<Arc<[OfferedTool]>>,
    system: Vec<String>,
    unit: text::Unit,
    pairing: Option<PairRule>,
    sub_agents: crate::trace::SubAgents,
    format: Format,
}

impl Basis {
    /// Whether `b` still starts a replay as it did (compared in place: a
    /// coding agent's tool schemas are tens of kilobytes).
    fn is_of(&self, b: &Builder, format: Format) -> bool {
        self.name == b.name
            // The very list, if not read again (`Arc`'s `==`).
            && self.tools == b.tools
            && self.system == b.system
            && self.unit == b.unit
            && self.pairing == b.pairing
            && self.sub_agents == b.sub_agents
            && self.format == format
    }

    fn of(b: &Builder, format: Format) -> Basis {
        Basis {
            name: b.name.clone(),
            tools: b.tools.clone(),
            system: b.system.clone(),
            unit: b.unit,
            pairing: b.pairing,
            sub_agents: b.sub_agents.clone(),
            format,
        }
    }
}

/// How far, from event `from` (where no call waits) up to `to`, a replay
/// can be kept: the last point where every call proposed has its result
/// and the event before is no reply (nor reasoning) a later part may join.
fn settled(events: &Shared<Event>, from: usize, to: usize) -> usize {
    let mut open: HashSet<&str> = HashSet::new();
    let mut last = from;
    // A slice: skipping `from` items of the whole list would walk them.
    let to = to.min(events.len()).max(from);
    for (i, event) in (from..).zip(events.slice(from..to).iter()) {
        match event {
            Event::Msg(Msg::Assistant { calls, .. }) => {
                open.extend(calls.iter().map(|c| c.id.as_str()));
                continue;
            }
            Event::Msg(Msg::Reasoning { .. }) => continue,
            Event::Msg(Msg::Tool { call_id, .. }) => {
                open.remove(call_id.as_str());
            }
            _ => {}
        }
        if open.is_empty() {
            last = i + 1;
        }
    }
    last
}

/// A step's narration in each language, before any note, and what it was
/// made from: what the step says, and its model call's size and input
/// tokens (all `text::narrate` reads besides the unit).
#[derive(Debug, Clone)]
struct Said {
    /// Shared with the build's (`Shared`): compared by pointer first.
    say: Arc<Say>,
    /// Its model call's index, if it speaks of one.
    at: Option<usize>,
    size: Option<usize>,
    tokens_in: Option<Option<u64>>,
    list: Option<(usize, usize)>,
    /// Shared with the traces built (a long run's narration is megabytes).
    narration: [Arc<str>; Lang::COUNT],
}

/// Per model call, what its narration counts: its body's size, the input
/// tokens the file records, and its list as the context heading counts it
/// (`wire::list_counts`).
#[derive(Debug, Clone, Default)]
struct Numbers {
    sizes: Vec<usize>,
    /// The build's own list (a copy shares it).
    tokens_in: Shared<Option<u64>>,
    lists: Vec<(usize, usize)>,
    /// Per chunk of model calls (`CHUNK`), the most messages a call of it
    /// sends (its `context_len`).
    reach: Vec<usize>,
}

/// What a model call's narration counts: its size, input tokens and list.
type Counted = (Option<usize>, Option<Option<u64>>, Option<(usize, usize)>);

impl Numbers {
    /// The numbers of `run`'s model calls, counted over `was` (the numbers
    /// the build before counted, in place: a long run has thousands of
    /// calls, and only the newest change): a chunk of calls that is the
    /// very chunk of the build `before` (with its run), after the very
    /// call there, whose messages and places are the same there as far as
    /// the chunk's calls send them, keeps its numbers; the others are read.
    /// And the first call whose numbers are not those of `was`.
    fn of_calls(
        run: &Trace,
        tokens_in: &Shared<Option<u64>>,
        before: Option<(&Trace, usize)>,
        was: Numbers,
    ) -> (Numbers, usize) {
        let before = before.filter(|(t, _)| t.provider == run.provider && t.system == run.system);
        // How many first messages read and are placed alike (the first
        // `placed` as they were measured: copied from there, not read).
        let alike = before.map_or(0, |(t, placed)| {
            let placed = placed.min(run.places.len()).min(t.places.len());
            debug_assert!((0..placed).all(|i| run.places[i] == t.places[i]));
            let more = (placed..run.places.len().min(t.places.len()))
                .take_while(|&i| run.places[i] == t.places[i])
                .count();
            let places = placed + more;
            places.min(run.messages.alike(&t.messages, |a, b| a == b))
        });
        let before = before.map(|(t, _)| t);
        let calls = &run.model_calls;
        // The very call there (a call read again is counted again:
        // comparing one compares its body, megabytes at call 2,000).
        let same = |t: &Trace, i: usize| match (calls.get_shared(i), t.model_calls.get_shared(i)) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        #[cfg(debug_assertions)]
        let was_before = was.clone();
        let Numbers {
            mut sizes,
            mut lists,
            mut reach,
            tokens_in: tokens,
        } = was;
        let mut changed = tokens_in
            .len()
            .min(sizes.len())
            .min(lists.len())
            .min(calls.len())
            .min(tokens.alike(tokens_in, |a, b| a == b));
        let tokens = tokens_in.clone();
        // The chunk before was kept: its last call is the very one.
        let mut took = false;
        for (k, chunk) in calls.chunks().enumerate() {
            let (first, len) = (k * crate::shared::CHUNK, calls.chunk_len(k));
            took = before.is_some_and(|t| {
                t.model_calls
                    .chunk(k)
                    .is_some_and(|c| Arc::ptr_eq(c, chunk))
                    && (k == 0 || took || same(t, first - 1))
                    && reach.get(k).is_some_and(|&r| r <= alike)
                    && sizes.len() >= first + len
                    && lists.len() >= first + len
            });
            if took {
                continue;
            }
            let mut most = 0;
            for (i, call) in (first..).zip(chunk.iter()) {
                let list = before
                    .filter(|t| same(t, i) && (i == 0 || same(t, i - 1)))
                    .filter(|_| call.context_len <= alike)
                    .and_then(|_| lists.get(i).copied());
                let list = list.unwrap_or_else(|| crate::wire::list_counts(run, i));
                put(&mut sizes, i, call.context_size, &mut changed);
                put(&mut lists, i, list, &mut changed);
                most = most.max(call.context_len);
            }
            match reach.get_mut(k) {
                Some(r) => *r = most,
                None => reach.push(most),
            }
        }
        sizes.truncate(calls.len());
        lists.truncate(calls.len());
        reach.truncate(calls.len().div_ceil(crate::shared::CHUNK));
        let numbers = Numbers {
            sizes,
            tokens_in: tokens,
            lists,
            reach,
        };
        debug_assert_eq!(
            (0..calls.len())
                .map(|i| (calls[i].context_size, crate::wire::list_counts(run, i)))
                .collect::<Vec<_>>(),
            numbers
                .sizes
                .iter()
                .copied()
                .zip(numbers.lists.iter().copied())
                .collect::<Vec<_>>(),
            "numbers taken from the build before that differ"
        );
        #[cfg(debug_assertions)]
        debug_assert_eq!(
            changed,
            [
                prefix_alike(&was_before.sizes, &numbers.sizes),
                prefix_alike(
                    &was_before.tokens_in.iter().collect::<Vec<_>>(),
                    &numbers.tokens_in.iter().collect::<Vec<_>>()
                ),
                prefix_alike(&was_before.lists, &numbers.lists),
            ]
            .into_iter()
            .min()
            .unwrap_or(0),
            "the first call counted otherwise, found otherwise"
        );
        (numbers, changed)
    }

    /// What model call `at` counts.
    fn of(&self, at: Option<usize>) -> Counted {
        (
            at.and_then(|k| self.sizes.get(k).copied()),
            at.and_then(|k| self.tokens_in.get(k).copied()),
            at.and_then(|k| self.lists.get(k).copied()),
        )
    }
}

/// What a build told (`narrations`), for the next to take where alike.
#[derive(Debug, Clone, Default)]
struct Tellings {
    /// What each step said, in order.
    said: Vec<Said>,
    /// The says told.
    says: Shared<Say>,
    /// The numbers counted.
    numbers: Numbers,
    /// Per chunk of `says`: the last model call its says count.
    last_at: Vec<Option<usize>>,
}

/// Each step's narration in every language: as `before` (the build
/// before's, taken and changed in place) has it where the step says the
/// same with the same numbers (`changed`: the first model call whose
/// numbers are not those `before` told with), else told now; and per
/// step (and chunk), whether it is the narration `before` had.
fn narrations(
    says: &Shared<Say>,
    (numbers, changed): (Numbers, usize),
    unit: text::Unit,
    before: Tellings,
) -> (Tellings, PerStep) {
    let mut said = before.said;
    said.truncate(says.len());
    let mut same = PerStep {
        steps: Vec::with_capacity(says.len()),
        chunks: Vec::with_capacity(says.len().div_ceil(crate::shared::CHUNK)),
    };
    let mut last_at = Vec::with_capacity(says.len().div_ceil(crate::shared::CHUNK));
    for (k, chunk) in says.chunks().enumerate() {
        let first = k * crate::shared::CHUNK;
        // The very chunk of says as before, none counting a call whose
        // numbers changed: nothing to read (a long run has thousands).
        let was = before.last_at.get(k).copied();
        if before.says.chunk(k).is_some_and(|c| Arc::ptr_eq(c, chunk))
            && said.len() >= first + says.chunk_len(k)
            && let Some(was) = was.filter(|at| at.is_none_or(|at| at < changed))
        {
            same.steps.resize(first + says.chunk_len(k), true);
            same.chunks.push(true);
            last_at.push(was);
            continue;
        }
        let mut last = None;
        for (i, say) in (first..).zip(chunk.iter()) {
            let at = told_now(i, say, &numbers, unit, &mut said, &mut same.steps);
            last = last.max(at);
        }
        same.chunks.push(same.steps[first..].iter().all(|&s| s));
        last_at.push(last);
    }
    let told = Tellings {
        said,
        says: says.clone(),
        numbers,
        last_at,
    };
    (told, same)
}

/// `slice::partition_point` of a persistent list.
fn partition_point<T: Clone>(list: &imbl::Vector<T>, pred: impl Fn(&T) -> bool) -> usize {
    let order = |item: &T| match pred(item) {
        true => std::cmp::Ordering::Less,
        false => std::cmp::Ordering::Greater,
    };
    list.binary_search_by(order).unwrap_or_else(|at| at)
}

/// How many first items `a` and `b` both have alike.
#[cfg(debug_assertions)]
fn prefix_alike<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    a.iter().zip(b).take_while(|(a, b)| a == b).count()
}

/// `v[i] = x`, or `x` pushed where `i` is `v`'s length (items are put in
/// order); `changed` lowered to `i` where `x` is not what `v` had.
fn put<T: PartialEq>(v: &mut Vec<T>, i: usize, x: T, changed: &mut usize) {
    match v.get_mut(i) {
        Some(old) if *old == x => {}
        Some(old) => {
            *old = x;
            *changed = (*changed).min(i);
        }
        None => {
            debug_assert_eq!(i, v.len(), "an item put after a gap");
            v.push(x);
            *changed = (*changed).min(i);
        }
    }
}

/// Say `i` told (`narrations`): in `said`, as it was where it says the
/// same with the same numbers, else told now; whether it was, in `same`.
/// The model call it counts.
fn told_now(
    i: usize,
    say: &Arc<Say>,
    numbers: &Numbers,
    unit: text::Unit,
    said: &mut Vec<Said>,
    same: &mut Vec<bool>,
) -> Option<usize> {
    // The very say as before, with the same numbers: nothing to read.
    if let Some(s) = said.get(i)
        && Arc::ptr_eq(&s.say, say)
        && (s.size, s.tokens_in, s.list) == numbers.of(s.at)
    {
        same.push(true);
        return s.at;
    }
    let at = say.call_number().map(|n| n as usize - 1);
    let (size, tokens_in, list) = numbers.of(at);
    let alike = said
        .get(i)
        .filter(|s| s.say == *say && (s.size, s.tokens_in, s.list) == (size, tokens_in, list));
    let narration = match alike {
        Some(s) => s.narration.clone(),
        None => {
            // Each call's narration counts what its context heading
            // counts.
            let mut counted = Say::clone(say);
            counted.count_as_sent(&numbers.lists);
            Lang::ALL.map(|lang| {
                text::narrate(&counted, &numbers.sizes, &numbers.tokens_in, unit, lang).into()
            })
        }
    };
    same.push(alike.is_some());
    let now = Said {
        say: say.clone(),
        at,
        size,
        tokens_in,
        list,
        narration,
    };
    match said.get_mut(i) {
        Some(s) => *s = now,
        None => said.push(now),
    }
    at
}

/// Text from the file made safe before it is stored.
fn cleaned(msg: Msg, redact: bool) -> Msg {
    let clean = |s: String| clean_owned(s, redact);
    match msg {
        Msg::User { text, line } => Msg::User {
            text: clean(text),
            line,
        },
        Msg::Context { text, line } => Msg::Context {
            text: clean(text),
            line,
        },
        Msg::Assistant {
            text,
            calls,
            tokens_out,
            line,
        } => Msg::Assistant {
            text: clean(text),
            calls: calls
                .into_iter()
                .map(|c| CallSpec {
                    id: clean(c.id),
                    item_id: c.item_id.map(clean),
                    name: clean(c.name),
                    args: CallArgs {
                        pairs: c
                            .args
                            .pairs
                            .into_iter()
                            .map(|(k, v)| {
                                let k = clean(k);
                                let v = match redact {
                                    // The name says what the value is: `{"password": "x"}`.
                                    true => super::redact::redact_named(&k, &clean(v)),
                                    false => clean(v),
                                };
                                (k, v)
                            })
                            .collect(),
                        raw: c.args.raw.as_deref().map(|raw| match redact {
                            true => super::redact::redact(&clean_json(raw)).into_owned(),
                            false => clean_json(raw),
                        }),
                    },
                })
                .collect(),
            tokens_out,
            line,
        },
        Msg::Tool {
            call_id,
            text,
            is_error,
            line,
        } => Msg::Tool {
            call_id: clean(call_id),
            text: clean(text),
            is_error,
            line,
        },
        Msg::Reasoning {
            summary,
            encrypted,
            line,
        } => Msg::Reasoning {
            summary: clean(summary),
            encrypted,
            line,
        },
    }
}

/// The trace being recorded, and what each step will say.
#[derive(Clone)]
struct Build {
    /// The trace as it grows, recorded as a lesson's is (`Recorder`).
    rec: Recorder,
    says: Shared<Say>,
    /// Input tokens per model call, where the file records them.
    /// Shared: a live build copies the replay it kept twice a call, and
    /// a copy shares all but its latest chunks (and compares with the
    /// build before chunk pointer by chunk pointer, `Shared::alike`).
    tokens_in: Shared<Option<u64>>,
    /// Per call (as `trace.calls`): the ordinal of the reply that proposed it.
    call_reply: imbl::Vector<usize>,
    /// Replies so far.
    replies: usize,
    /// Reasoning read since the last reply: it belongs to the next one.
    reasoning: Vec<text::Thought>,
    /// Reasoning of earlier replies, for what a later context holds.
    reasoning_before: Vec<text::Thought>,
    exact_calls: usize,
    compactions: usize,
    compacted_at: Option<usize>,
    replaced: Option<(usize, usize)>,
    /// A compaction since the latest model call: its messages' newness is
    /// counted one by one.
    compacted_since_call: bool,
    /// Said after a step's own narration: (step, note).
    notes: Vec<(usize, text::Note)>,
    /// Lines of harness-written messages appended for the next step.
    context_lines: Vec<usize>,
    /// The next model call's recorded request: (line, messages, body).
    recorded: Option<(usize, usize, RecordedBody)>,
    format: Format,
    /// Characters of the system prompt, said at every model call (counted
    /// once: a coding agent's is tens of kilobytes, its runs long).
    system_chars: usize,
    /// Every call before this one has its result (`unanswered`).
    answered_below: usize,
}

impl Build {
    /// Replays the builder's events; with `kept`, from the replay an
    /// earlier build of this run kept there where it is still alike, and
    /// kept again as far as no later line can change it.
    fn run(b: &mut Builder, format: Format, kept: Option<&mut Option<Kept>>) -> Build {
        // The events are consumed: their texts move into the trace.
        let events = std::mem::take(&mut b.events);
        let (mut build, mut pending) = match kept {
            None => {
                let mut build = Build::new(b, format);
                let answered = pairing(events.slice(..), 0).answered;
                let mut pending = None;
                for event in events.into_items() {
                    build.event(event, &mut pending, &answered);
                }
                (build, pending)
            }
            Some(slot) => {
                let alike = |k: &Kept| {
                    k.basis.is_of(b, format)
                        && k.events <= events.len()
                        && b.changed[k.changes.min(b.changed.len())..]
                            .iter()
                            .all(|&i| i >= k.events)
                };
                let mut kept = slot.take().filter(alike).unwrap_or_else(|| Kept {
                    build: Build::new(b, format),
                    pending: None,
                    events: 0,
                    changes: 0,
                    basis: Basis::of(b, format),
                });
                // The builder's very list from now on (two copies read the
                // same list apart): compared by pointer, not value by value.
                kept.basis.tools.clone_from(&b.tools);
                let from = kept.events;
                let read = b.final_read.unwrap_or(Read {
                    events: events.len(),
                    changes: b.changed.len(),
                });
                let to = settled(&events, from, read.events);
                let answered = pairing(events.slice(from..), kept.build.replies).answered;
                // The events kept are not copied (`Shared`).
                let mut events = events.into_items_from(from);
                for event in events.by_ref().take(to - from) {
                    kept.build.event(event, &mut kept.pending, &answered);
                }
                kept.events = to;
                // The builds after it start from the calls it saw answered.
                kept.build.unanswered();
                // Changes made after, even to lines read again, are seen.
                kept.changes = read.changes;
                let (mut build, mut pending) = (kept.build.clone(), kept.pending.clone());
                // What the file skipped may have grown since.
                build.rec.trace.recorded = Some(Build::recorded_of(b, format));
                for event in events {
                    build.event(event, &mut pending, &answered);
                }
                *slot = Some(kept);
                (build, pending)
            }
        };
        if let Some(last) = pending.take() {
            build.model_call(Some(last), true, format);
        }
        if let Some(&line) = build.context_lines.first() {
            // Harness messages with no step after them: a step of their own.
            build.user_step(line);
        }
        let unanswered = build
            .unanswered()
            .iter()
            .map(|id| id.0.to_string())
            .collect();
        if let Some(say) = build.says.last_mut() {
            say.set_end(unanswered);
        }
        build.rec.trace.budget = build.rec.trace.model_calls.len() as u32;
        build
    }

    /// A build with nothing replayed yet: the trace as the file tells it
    /// (its tools, system prompt, what was not drawn).
    fn new(b: &Builder, format: Format) -> Build {
        let tools = b.tools.clone().unwrap_or_default();
        let system = (!b.system.is_empty()).then(|| b.system.join("\n\n"));
        let system_chars = system.as_deref().map_or(0, |s| s.chars().count());
        Build {
            rec: Recorder::new(Trace {
                scenario: crate::safe::stem_part(&b.name),
                title: String::new(),
                lang: Lang::En,
                steps: Default::default(),
                messages: Default::default(),
                calls: Default::default(),
                unique_ids: true,
                model_calls: Default::default(),
                files: Vec::new(),
                file_events: Default::default(),
                tools,
                budget: 0,
                end: EndStatus::Completed,
                // A transcript says nothing of whether its task was done.
                task: TaskOutcome::Unknown,
                compactions: Vec::new(),
                window: None,
                window_estimated: false,
                // What a provider reported is in the recorded bodies.
                prompt_cache: false,
                // A replayed run's reasoning is drawn from its recorded bodies.
                thinking: crate::trace::Thinking::Off,
                provider: format.provider(),
                system,
                // A recorded request says `stream` in its own body.
                stream: false,
                places: Default::default(),
                recorded: Some(Build::recorded_of(b, format)),
                sub_agents: b.sub_agents.clone(),
                // A transcript's MCP tools are in its recorded tools.
                mcp: None,
            }),
            says: Default::default(),
            tokens_in: Default::default(),
            call_reply: imbl::Vector::new(),
            replies: 0,
            reasoning: Vec::new(),
            reasoning_before: Vec::new(),
            exact_calls: 0,
            compactions: 0,
            compacted_at: None,
            replaced: None,
            compacted_since_call: false,
            notes: Vec::new(),
            context_lines: Vec::new(),
            recorded: None,
            format,
            system_chars,
            answered_below: 0,
        }
    }

    /// What the file records and is silent on (`Trace::recorded`).
    fn recorded_of(b: &Builder, format: Format) -> Recorded {
        Recorded {
            tools: b.tools.is_some(),
            writes: writes_known(format),
            unread: b
                .skipped
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            by_item: b.unit == text::Unit::Item,
            by_position: b.pairing == Some(PairRule::Position),
        }
    }

    /// Replays one event; `pending` is the request not yet answered.
    fn event(&mut self, event: Event, pending: &mut Option<Request>, answered: &Answered) {
        match event {
            Event::Msg(Msg::User { text, line }) => {
                self.append(Role::User, text, Vec::new(), None, false);
                self.user_step(line);
            }
            Event::Msg(Msg::Assistant {
                text,
                calls,
                tokens_out,
                line,
            }) => {
                self.model_call(pending.take(), false, self.format);
                self.reply(text, &calls, tokens_out, line, answered);
            }
            Event::Msg(Msg::Tool {
                call_id,
                text,
                is_error,
                line,
            }) => self.result(&call_id, text, is_error, line, answered),
            Event::Msg(Msg::Context { text, line }) => {
                // Part of the next step's context, said there.
                self.append(Role::User, text, Vec::new(), None, false);
                self.context_lines.push(line);
            }
            Event::Msg(Msg::Reasoning {
                summary,
                encrypted,
                line,
            }) => self.reasoning.push(text::Thought {
                line,
                summary_chars: summary.chars().count(),
                excerpt: text::excerpt(&summary),
                encrypted,
            }),
            Event::Request(request) => {
                if let Some(earlier) = pending.replace(request) {
                    self.model_call(Some(earlier), true, self.format);
                }
            }
            Event::Recorded {
                line,
                messages,
                body,
            } => self.recorded = Some((line, messages, body)),
            Event::Rejected { line, error } => {
                self.model_call(pending.take(), true, self.format);
                self.rejected(line, error);
            }
            Event::Cut { line, error } => {
                self.model_call(pending.take(), false, self.format);
                self.cut(line, error);
            }
            Event::Compacted {
                line,
                replaced,
                history,
            } => {
                self.compactions += 1;
                self.compacted_at = Some(line);
                self.replaced = replaced;
                if !history.is_empty() {
                    self.replace_context(history);
                }
            }
            Event::Aborted { line, reason } => {
                let step = self.says.len().saturating_sub(1);
                self.notes
                    .push((step, text::Note::Aborted { line, reason }));
            }
            Event::Tokens { input, output } => {
                if let Some(last) = self.rec.trace.model_calls.last_mut() {
                    if let Some(out) = output {
                        last.tokens = Some(out as usize);
                    }
                    if let Some(slot) = self.tokens_in.last_mut() {
                        *slot = input.or(*slot);
                    }
                }
            }
        }
    }

    /// The user (or the harness) speaks: the task arriving if nothing came
    /// before, else a user turn.
    fn user_step(&mut self, line: usize) {
        let first = self.rec.trace.steps.is_empty();
        let kind = match first {
            true => StepKind::TaskArrives,
            false => StepKind::UserTurn,
        };
        let format = self.format;
        // A sub-agent's first message is its caller's prompt.
        let caller = self.rec.trace.sub_agents.agent.is_some();
        self.step(
            kind,
            None,
            Lane::Host,
            Say::User {
                line,
                first,
                caller,
                format,
            },
        );
    }

    /// The calls still without a result.
    fn unanswered(&mut self) -> Vec<CallId> {
        let calls = &self.rec.trace.calls;
        // A call keeps its result: those before the first without one are
        // not read again (a long run has thousands).
        while calls
            .get(self.answered_below)
            .is_some_and(|c| c.result.is_some())
        {
            self.answered_below += 1;
        }
        calls
            .slice(self.answered_below..)
            .iter()
            .filter(|c| c.result.is_none())
            .map(|c| c.id.clone())
            .collect()
    }

    /// The provider refused the latest model call: the calls still without
    /// a result are why, as its error says.
    fn rejected(&mut self, line: usize, error: String) {
        let number = self.rec.trace.model_calls.len() as u32;
        let unanswered = self.unanswered();
        let step = self.step(
            StepKind::Rejected {
                number,
                unanswered,
                error: error.clone(),
            },
            Some(Lane::Model),
            Lane::Host,
            Say::Rejected {
                number,
                line,
                error,
            },
        );
        self.rec.end(EndStatus::Rejected);
        debug_assert_eq!(step + 1, self.rec.next_step());
        self.rec.trace.task = TaskOutcome::NotDone;
    }

    /// The reply to the latest model call was cut: a step of its own,
    /// from the model, and no reply.
    fn cut(&mut self, line: usize, error: String) {
        let number = self.rec.trace.model_calls.len() as u32;
        self.step(
            StepKind::Cut {
                number,
                error: error.clone(),
            },
            Some(Lane::Model),
            Lane::Host,
            Say::Cut {
                number,
                line,
                error,
            },
        );
    }

    /// Record a step, and what its narration will say.
    fn step(&mut self, kind: StepKind, from: Option<Lane>, to: Lane, say: Say) -> usize {
        let answers = matches!(kind, StepKind::Answers { .. });
        let index = self.rec.step(kind, from, to);
        if answers {
            self.rec.trace.steps[index].end = Some(EndStatus::Completed);
        }
        self.said(index, say);
        index
    }

    /// What the step at `index` will say, with the harness messages
    /// appended since the step before it.
    fn said(&mut self, index: usize, say: Say) {
        debug_assert_eq!(index, self.says.len());
        if !self.context_lines.is_empty() {
            let lines = std::mem::take(&mut self.context_lines);
            self.notes.push((index, text::Note::Context { lines }));
        }
        self.says.push(say);
    }

    fn append(
        &mut self,
        role: Role,
        text: String,
        calls: Vec<CallId>,
        call_id: Option<CallId>,
        is_error: bool,
    ) {
        let mut message = self.rec.message(role, text);
        message.calls = calls;
        message.call_id = call_id;
        message.is_error = is_error;
        self.rec.append(message);
    }

    /// The host sends the context. `request`: the file's request body for
    /// it; `no_reply`: the file ends (or retries) before a reply.
    fn model_call(&mut self, request: Option<Request>, no_reply: bool, format: Format) {
        let number = self.rec.trace.model_calls.len() as u32 + 1;
        let recorded = self.recorded.take();
        let previous = self
            .rec
            .trace
            .model_calls
            .last()
            .map_or(0, |m| m.context_len)
            .max(self.rec.held_from);
        let messages = self.rec.trace.messages.len();
        self.tokens_in
            .push(request.as_ref().and_then(|r| r.tokens_in));
        let source = match (&request, &recorded) {
            // Its size is the file's; its messages drawn are rebuilt.
            (None, Some((line, messages, body))) => Source::Recorded {
                line: *line,
                messages: *messages,
                bytes: body.request.len(),
            },
            (Some(r), _) if r.continues => Source::Continues { line: r.line },
            (Some(r), _) if r.consistent => {
                self.exact_calls += 1;
                Source::Exact { line: r.line }
            }
            (Some(r), _) => Source::Rewritten { line: r.line },
            (None, None) => Source::Reconstructed,
        };
        let reasoning = match &request {
            Some(r) => (r.reasoning.0, r.reasoning.1, Some(r.body.is_some())),
            None => (
                self.reasoning_before.len() + self.reasoning.len(),
                self.reasoning_before
                    .iter()
                    .chain(&self.reasoning)
                    .map(|t| t.summary_chars + t.encrypted)
                    .sum(),
                None,
            ),
        };
        let held = self.rec.held_from;
        let new = match std::mem::take(&mut self.compacted_since_call) {
            // After a recorded compaction: what its history repeats of the
            // context last sent is not new (`Trace::is_new`'s rule).
            true => {
                let trace = &self.rec.trace;
                let sent = trace
                    .model_calls
                    .last()
                    .map_or(0..0, |m| m.context_start..m.context_len);
                (held..messages)
                    .filter(|&i| {
                        let mut at = i;
                        loop {
                            if sent.contains(&at) {
                                return false;
                            }
                            match trace.messages[at].carried {
                                Some(original) => at = original,
                                None => return true,
                            }
                        }
                    })
                    .count()
            }
            false => messages - previous,
        };
        let say = Say::ModelCall {
            number,
            source,
            format,
            reasoning,
            messages: messages - held,
            new,
            compacted: self.compacted_at,
            replaced: self.replaced,
            system: self.system_chars,
            tools_known: !self.rec.trace.tools.is_empty(),
            no_reply,
        };
        // A recorded request is shown as recorded.
        let body = request
            .and_then(|r| r.body)
            .or(recorded.map(|(_, _, body)| body));
        self.rec.model_call(body);
        self.said(self.rec.next_step() - 1, say);
    }

    /// The file's record of what replaced the history (Codex
    /// `replacement_history`): the context from here is exactly these
    /// messages, a fresh copy at the end of `trace.messages` as the engine
    /// compacts (earlier messages stay as they were sent). A message the
    /// model was sent before, word for word, is a copy of it (`carried`).
    fn replace_context(&mut self, history: Vec<Msg>) {
        let before = self.rec.held_from..self.rec.trace.messages.len();
        let start = self.rec.trace.messages.len();
        let key = |role: Role| std::mem::discriminant(&role);
        let sent: HashMap<_, usize> = before
            .clone()
            .map(|i| {
                let m = &self.rec.trace.messages[i];
                ((key(m.role), &*m.text), i)
            })
            .collect();
        let mut carried: Vec<Option<usize>> = Vec::new();
        let mut added = Vec::new();
        for msg in history {
            let (role, text, calls, call_id, is_error) = match msg {
                Msg::User { text, .. } | Msg::Context { text, .. } => {
                    (Role::User, text, Vec::new(), None, false)
                }
                Msg::Assistant { text, calls, .. } => (
                    Role::Assistant,
                    text,
                    calls.into_iter().map(|c| CallId(c.id.into())).collect(),
                    None,
                    false,
                ),
                Msg::Tool {
                    call_id,
                    text,
                    is_error,
                    ..
                } => (
                    Role::Tool,
                    text,
                    Vec::new(),
                    Some(CallId(call_id.into())),
                    is_error,
                ),
                // Reasoning is not a message of the context drawn.
                Msg::Reasoning { .. } => continue,
            };
            carried.push(sent.get(&(key(role), text.as_str())).copied());
            added.push((role, text, calls, call_id, is_error));
        }
        // The held messages are these from here (as the engine's compaction).
        self.rec.messages_size = 0;
        self.rec.messages_tokens = 0;
        for ((role, text, calls, call_id, is_error), from) in added.into_iter().zip(carried) {
            self.append(role, text, calls, call_id, is_error);
            if let Some(m) = self.rec.trace.messages.last_mut() {
                m.carried = from;
            }
        }
        let messages_after = self.rec.trace.messages.len() - start;
        self.rec.trace.compactions.push(Compaction {
            step: self.rec.next_step(),
            policy: CompactPolicy::Summarize,
            window: 0,
            // Counted when asked: `wire::compaction_tokens`.
            tokens_before: 0,
            tokens_after: 0,
            messages_before: before.len(),
            messages_after,
            start,
            removed: before.collect(),
            calls: Vec::new(),
        });
        self.rec.held_from = start;
        self.compacted_since_call = true;
    }

    fn reply(
        &mut self,
        text: String,
        calls: &[CallSpec],
        tokens_out: Option<u64>,
        line: usize,
        answered: &Answered,
    ) {
        let number = self.rec.trace.model_calls.len() as u32;
        let proposed = self.rec.next_step();
        let reply = self.replies;
        self.replies += 1;
        let reasoning = std::mem::take(&mut self.reasoning);
        self.reasoning_before.extend(reasoning.iter().cloned());
        let mut ids = Vec::new();
        for spec in calls {
            self.call_reply.push_back(reply);
            let mut call = ToolCall::proposed(
                CallId(spec.id.as_str().into()),
                spec.name.clone(),
                spec.args.pairs.clone(),
                number,
                proposed,
            );
            call.raw_args = spec.args.raw.clone();
            call.item_id = spec.item_id.clone();
            // The latest call by an id is the one its next result answers.
            ids.push(self.rec.propose(call));
        }
        // Where the file does not record them, counted when asked
        // (`wire::output_tokens`). A file records no output limit: a reply
        // is never said cut off.
        self.rec.reply_tokens(tokens_out.map(|t| t as usize), false);
        self.append(Role::Assistant, text, ids.clone(), None, false);
        if ids.is_empty() {
            self.step(
                StepKind::Answers { number },
                Some(Lane::Model),
                Lane::Host,
                Say::Answers {
                    number,
                    line,
                    tokens: tokens_out,
                    reasoning,
                    end: None,
                },
            );
        } else {
            let unanswered = calls
                .iter()
                .filter(|c| !answered.contains(&(reply, c.id.clone())))
                .map(|c| c.id.clone())
                .collect();
            let say = Say::Proposes {
                number,
                calls: calls
                    .iter()
                    .map(|c| (c.id.clone(), c.name.clone()))
                    .collect(),
                unanswered,
                line,
                tokens: tokens_out,
                reasoning,
                end: None,
            };
            self.step(
                StepKind::Proposes { number, calls: ids },
                Some(Lane::Model),
                Lane::Host,
                say,
            );
        }
    }

    fn result(
        &mut self,
        call_id: &str,
        text: String,
        is_error: bool,
        line: usize,
        answered: &Answered,
    ) {
        let id = CallId(call_id.into());
        let open = self
            .rec
            .index_of(&id)
            .filter(|&i| self.rec.trace.calls[i].finished.is_none());
        let Some(index) = open else {
            // A result that answers no call: none by that id, or one
            // already answered. Appended as the file has it, and flagged.
            let duplicate = self.rec.index_of(&id).is_some();
            self.append(Role::Tool, text, Vec::new(), Some(id.clone()), is_error);
            self.result_step(id, None, is_error, line, Some(duplicate));
            return;
        };
        if self.rec.trace.calls[index].started.is_none() {
            // The calls of this reply that the file shows ran: they run together.
            let reply = self.call_reply[index];
            // A reply's calls are consecutive in `trace.calls`.
            let first = partition_point(&self.call_reply, |&r| r < reply);
            let last = partition_point(&self.call_reply, |&r| r <= reply);
            let group: Vec<usize> = (first..last)
                .filter(|&i| {
                    let c = &self.rec.trace.calls[i];
                    c.started.is_none()
                        && (i == index || answered.contains(&(reply, c.id.0.to_string())))
                })
                .collect();
            let ids: Vec<CallId> = group
                .iter()
                .map(|&i| self.rec.trace.calls[i].id.clone())
                .collect();
            self.rec.counters.tool_runs += ids.len() as u32;
            let say = Say::Executes {
                calls: group
                    .iter()
                    .map(|&i| {
                        let c = &self.rec.trace.calls[i];
                        (c.id.0.to_string(), c.tool.clone())
                    })
                    .collect(),
            };
            let step = self.step(
                StepKind::Executes { calls: ids },
                Some(Lane::Host),
                Lane::Tool,
                say,
            );
            for i in group {
                self.rec.trace.calls[i].started = Some(step);
            }
        }
        let step = self.rec.next_step();
        let tool = self.rec.trace.calls[index].tool.clone();
        if !is_error && writes_known(self.format) && writes_a_file(&self.rec.trace.calls[index]) {
            self.rec.counters.writes += 1;
        }
        let result = ToolResult {
            text: text.into(),
            is_error,
            replayed: false,
            canonical: None,
            said: None,
        };
        // A file shows a result where it was appended, under its call's id.
        self.rec.answer(index, id.clone(), result, step, true);
        self.result_step(id, Some(tool), is_error, line, None);
    }

    /// The step a result arrives in, under its call's id; `orphan`: it
    /// answers no call (`Some(true)`: one already answered).
    fn result_step(
        &mut self,
        id: CallId,
        tool: Option<String>,
        is_error: bool,
        line: usize,
        orphan: Option<bool>,
    ) {
        let by_position = (self.rec.trace.recorded.as_ref()).is_some_and(|r| r.by_position);
        let say = Say::Result {
            id: id.0.to_string(),
            tool,
            is_error,
            by_position,
            line,
            orphan,
            end: None,
        };
        let kind = StepKind::ResultArrives { call: id };
        self.step(kind, Some(Lane::Tool), Lane::Host, say);
    }
}

/// A unified exec output that says its process was still running: its
/// header (the lines before `Output:`) has `Process running with session
/// ID N` (codex-rs `unified_exec`).
fn still_running(text: &str) -> bool {
    text.lines()
        .take(8)
        .take_while(|l| l.trim_end() != "Output:")
        .any(|l| l.starts_with("Process running with session ID"))
}

/// Formats that name the tools that change files: their writes are counted.
fn writes_known(format: Format) -> bool {
    matches!(format, Format::ClaudeCode | Format::Codex)
}

/// A call of a tool that changes a file: Claude Code's Edit, Write,
/// MultiEdit and NotebookEdit; Codex's apply_patch (a tool of its own, or
/// the command of a shell call). A shell command that writes a file is
/// not counted: the file does not say it did.
fn writes_a_file(call: &ToolCall) -> bool {
    // `["apply_patch", patch]`, or a shell's script that starts with it.
    let shell_patch = call.args.iter().any(|(k, v)| {
        let words: Vec<String> = serde_json::from_str(v).unwrap_or_else(|_| vec![v.clone()]);
        let script = match words.as_slice() {
            [shell, flag, script] if shell.ends_with("sh") && flag.starts_with('-') => script,
            [first, ..] => first,
            [] => return false,
        };
        k == "command" && script.trim_start().starts_with("apply_patch")
    });
    matches!(
        call.tool.as_str(),
        "Edit" | "Write" | "MultiEdit" | "NotebookEdit" | "apply_patch"
    ) || shell_patch
}

/// (reply ordinal, call id): the calls that get a result in the file.
type Answered = HashSet<(usize, String)>;

/// How results pair with calls: each result answers the latest call
/// before it with its id that has no result yet (so an id reused in a
/// later turn is paired within that turn). Known before building, so an
/// `Executes` step lists only the calls the file shows ran.
struct Pairs {
    answered: Answered,
    /// Results that answer a call of an earlier turn than the latest
    /// reply before them: (call id, the call's line, the result's line,
    /// the later reply's line). Paired by id, and warned about.
    late: Vec<(String, usize, usize, usize)>,
}

/// `replies`: the replies before `events` (none of whose calls waits).
fn pairing(events: Slice<'_, Event>, replies: usize) -> Pairs {
    // id → (reply ordinal, the call's line), while it waits for a result.
    let mut open: HashMap<&str, (usize, usize)> = HashMap::new();
    let mut pairs = Pairs {
        answered: HashSet::new(),
        late: Vec::new(),
    };
    let mut replies = replies;
    let mut last_reply_line = 0;
    for event in events {
        match event {
            Event::Msg(Msg::Assistant { calls, line, .. }) => {
                for c in calls {
                    open.insert(c.id.as_str(), (replies, *line));
                }
                replies += 1;
                last_reply_line = *line;
            }
            Event::Msg(Msg::Tool { call_id, line, .. }) => {
                if let Some((reply, call_line)) = open.remove(call_id.as_str()) {
                    if reply + 1 != replies {
                        pairs
                            .late
                            .push((call_id.clone(), call_line, *line, last_reply_line));
                    }
                    pairs.answered.insert((reply, call_id.clone()));
                }
            }
            _ => {}
        }
    }
    pairs
}

/// Arguments as the trace keeps them: an object's keys with their values
/// (strings as they are, anything else as JSON); anything else as `input`;
/// and the JSON itself, to show exactly.
pub fn args_of(value: &serde_json::Value) -> CallArgs {
    let raw = (!value.is_null()).then(|| value.to_string());
    CallArgs {
        pairs: pairs_of(value),
        raw,
    }
}

fn pairs_of(value: &serde_json::Value) -> Vec<(String, String)> {
    match value {
        serde_json::Value::Object(o) => o
            .iter()
            .map(|(k, v)| {
                let v = match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (k.clone(), v)
            })
            .collect(),
        serde_json::Value::Null => Vec::new(),
        serde_json::Value::String(s) => vec![("input".to_string(), s.clone())],
        other => vec![("input".to_string(), other.to_string())],
    }
}

/// Arguments written as a JSON string (OpenAI's `function.arguments`),
/// kept exactly as written.
pub fn args_of_json_text(text: &str) -> CallArgs {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v @ serde_json::Value::Object(_)) => CallArgs {
            pairs: pairs_of(&v),
            raw: Some(text.to_string()),
        },
        _ if text.trim().is_empty() => CallArgs::default(),
        _ => vec![("arguments".to_string(), text.to_string())].into(),
    }
}

/// A request's list of tool definitions, each read by `offered`: its
/// `name`, `description` and the JSON schema under `schema_key`
/// (`parameters`, `input_schema`), looked for inside `function` where the
/// format wraps it there (Chat Completions). A tool the provider defines
/// (its `type` neither `function` nor `custom`: Anthropic's
/// `web_search_20250305`, OpenAI's `web_search`) keeps its type, and is
/// named by it where it has no name.
pub fn offered_tools(tools: &[serde_json::Value], schema_key: &str) -> Vec<OfferedTool> {
    use serde_json::Value;
    tools
        .iter()
        .filter_map(|t| {
            let f = t.get("function").unwrap_or(t);
            let kind = t
                .get("type")
                .and_then(Value::as_str)
                .filter(|k| !matches!(*k, "function" | "custom"));
            let name = f.get("name").and_then(Value::as_str).or(kind)?;
            let description = f.get("description").and_then(Value::as_str).unwrap_or("");
            let mut tool = offered(name, description, f.get(schema_key));
            tool.builtin = kind.map(clean);
            Some(tool)
        })
        .collect()
}

/// Tool definitions as offered: name, parameter names, description.
pub fn offered(name: &str, description: &str, schema: Option<&serde_json::Value>) -> OfferedTool {
    let params = schema
        .and_then(|s| s.get("properties"))
        .and_then(serde_json::Value::as_object)
        .map(|p| p.keys().map(|k| clean(k)).collect())
        .unwrap_or_default();
    OfferedTool {
        name: clean(name),
        params,
        description: clean(description),
        schema: None,
        strict: false,
        builtin: None,
    }
}

/// An image or a file sent in a message, as the context shows it: its
/// type and size, `[image/png, 12.3 KB]` (the bytes its base64 data
/// decodes to), or where it is: `[image, https://…]`. Anthropic `image`
/// and `document` blocks (`source`), Chat `image_url` and `file` parts,
/// Responses `input_image` and `input_file`; None for any other part.
pub fn attachment(part: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    let kind = part.get("type")?.as_str()?;
    let noun = match kind {
        "image" | "image_url" | "input_image" => "image",
        "document" | "file" | "input_file" => "file",
        _ => return None,
    };
    let source = part.get("source");
    let field = |k: &str| source.and_then(|s| s.get(k)).and_then(Value::as_str);
    // A data URL (`data:image/png;base64,…`) or a URL, wherever it is.
    let url = part
        .get("image_url")
        .and_then(|u| u.get("url").unwrap_or(u).as_str())
        .or_else(|| part.get("file_data").and_then(Value::as_str))
        .or_else(|| {
            part.get("file")
                .and_then(|f| f.get("file_data"))
                .and_then(Value::as_str)
        })
        .or_else(|| field("url"));
    let (media, data) = match (field("data"), url) {
        (Some(data), _) => (field("media_type"), Some(data)),
        (None, Some(url)) => match url.strip_prefix("data:").and_then(|d| d.split_once(',')) {
            Some((head, data)) => (head.split(';').next().filter(|m| !m.is_empty()), Some(data)),
            None => return Some(clean(&format!("[{noun}, {url}]"))),
        },
        (None, None) => (field("media_type"), None),
    };
    let media = media.unwrap_or(noun);
    Some(clean(&match data {
        Some(data) => format!("[{media}, {}]", size_text(base64_len(data))),
        None => format!("[{media}]"),
    }))
}

/// The bytes base64 text decodes to.
fn base64_len(data: &str) -> usize {
    let chars = data.bytes().filter(|b| !b.is_ascii_whitespace()).count();
    let padding = data
        .trim_end()
        .bytes()
        .rev()
        .take_while(|&b| b == b'=')
        .count();
    (chars * 3 / 4).saturating_sub(padding)
}

/// A size in bytes as the context shows it: `67 B`, `12.3 KB`, `4.1 MB`
/// (1 KB = 1,000 bytes).
pub fn size_text(bytes: usize) -> String {
    match bytes {
        0..1_000 => format!("{bytes} B"),
        1_000..1_000_000 => format!("{:.1} KB", bytes as f64 / 1e3),
        _ => format!("{:.1} MB", bytes as f64 / 1e6),
    }
}

/// The text of a content value: a string, or the text parts of a list.
pub fn text_of(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(parts) => {
            let texts: Vec<String> = parts
                .iter()
                .filter_map(|p| match p {
                    serde_json::Value::String(s) => Some(s.clone()),
                    serde_json::Value::Object(_) if attachment(p).is_some() => attachment(p),
                    serde_json::Value::Object(o) => o
                        .get("text")
                        .or_else(|| o.get("content"))
                        .and_then(|t| t.as_str())
                        .map(str::to_string)
                        .or_else(|| {
                            o.get("type")
                                .and_then(|t| t.as_str())
                                .map(|t| format!("[{t}]"))
                        }),
                    _ => None,
                })
                .collect();
            texts.join("\n")
        }
        serde_json::Value::Null => String::new(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_list_written_alike_keeps_its_length_as_compact_json() {
        use serde_json::{Value, json};
        let lists = [
            json!([]),
            json!([{"name": "Read"}]),
            json!([{"name": "Read", "input_schema": {"type": "object", "properties": {"path": {"type": "string", "description": "a \"path\" 中 \n"}}}}, {"name": "Bash", "n": [1, 2.5, null, true]}]),
        ];
        for list in &lists {
            let items = list.as_array().unwrap();
            assert_eq!(compact_len(items), compact(list).len(), "{list}");
            assert!(written_alike(items, &items.clone()));
        }
        // Another list, or the same written in another order: read again.
        let tools = |list: &Value| list.as_array().unwrap().clone();
        let (one, two) = (tools(&lists[1]), tools(&lists[2]));
        assert!(!written_alike(&one, &two) && !written_alike(&two, &one));
        let reordered = tools(&json!([{"input_schema": {"type": "object"}, "name": "Read"}]));
        let ordered = tools(&json!([{"name": "Read", "input_schema": {"type": "object"}}]));
        assert!(reordered == ordered && !written_alike(&reordered, &ordered));
        let changed = tools(&json!([{"name": "Read", "input_schema": {"type": "array"}}]));
        assert!(!written_alike(&changed, &ordered));
        // A builder given a list it read keeps its length; given another, the other's.
        let mut b = Builder::new("run.jsonl");
        let body = |list: &Value| json!({"model": "m", "tools": list, "messages": []});
        for list in [&lists[2], &lists[2], &lists[1], &lists[0]] {
            b.tools_listed(list.as_array().unwrap(), "input_schema");
            let recorded = b.body_of(&body(list), None, None, None);
            assert_eq!(recorded.tools_bytes, compact(list).len());
        }
        assert_eq!(
            b.body_of(&body(&lists[2]), None, None, None).tools_bytes,
            compact(&lists[2]).len()
        );
    }

    /// A run's list counts taken from a build before where its calls are
    /// alike are those counted afresh: in every lesson and transcript
    /// fixture, against the same run changed in a call, a message's place,
    /// a message, or its API.
    #[test]
    fn list_counts_taken_from_the_build_before_are_those_counted_afresh() {
        // The first trace of each run (its others are its words in
        // another language).
        let runs: Vec<Trace> = crate::load::every_run()
            .into_iter()
            .filter_map(|traces| traces.into_iter().next())
            .collect();
        let afresh = |t: &Trace| -> Vec<(usize, usize)> {
            (0..t.model_calls.len())
                .map(|k| crate::wire::list_counts(t, k))
                .collect()
        };
        let mut differed = 0;
        for was in runs.iter().filter(|t| t.model_calls.len() > 2) {
            let lists = afresh(was);
            let counted = Numbers::of_calls(was, &Default::default(), None, Numbers::default()).0;
            let k = was.model_calls.len() / 2;
            let mid = was.model_calls[k].context_len.saturating_sub(1);
            let mut changed = Vec::new();
            let mut t = was.clone();
            if let Some(mc) = t.model_calls.get_mut(k) {
                mc.context_len = mc.context_len.saturating_sub(1).max(mc.context_start);
            }
            changed.push(t);
            let mut t = was.clone();
            if let Some(p) = t.places.get_mut(mid) {
                p.items += 1;
            }
            changed.push(t);
            let mut t = was.clone();
            if let Some(m) = t.messages.get_mut(mid) {
                m.carried = Some(0).filter(|_| mid > 0);
            }
            changed.push(t);
            changed.push(Trace {
                provider: crate::provider::Provider::Chat,
                system: Some("s".into()),
                ..was.clone()
            });
            changed.push(was.clone());
            for run in &changed {
                let fresh = afresh(run);
                differed += usize::from(fresh != lists);
                let (like, _) =
                    Numbers::of_calls(run, &Default::default(), Some((was, 0)), counted.clone());
                assert_eq!(like.lists, fresh, "{}", was.title);
                let sizes: Vec<usize> = run.model_calls.iter().map(|m| m.context_size).collect();
                assert_eq!(like.sizes, sizes, "{}", was.title);
            }
        }
        // The changes change some counts.
        assert!(differed > 20, "{differed}");
    }

    #[test]
    fn a_request_s_tools_and_system_are_read_again_only_when_they_change() {
        use serde_json::json;
        let tool = |name: &str| json!({"name": name, "description": "d\tx", "input_schema": {"properties": {"p": {}}}});
        let (a, b) = (vec![tool("A")], vec![tool("B")]);
        let offered = |list: &[serde_json::Value]| {
            let mut fresh = Builder::new("run.jsonl");
            fresh.tools(offered_tools(list, "input_schema"));
            fresh.tools
        };
        let mut built = Builder::new("run.jsonl");
        for (list, direct) in [
            (&a, None),
            (&a, None),
            (&b, None),
            (&a, None),
            (&a, Some(&b)),
            (&a, None),
        ] {
            if let Some(other) = direct {
                // Another reader's tools in between: the list is read again.
                built.tools(offered_tools(other, "input_schema"));
                assert_eq!(built.tools, offered(other));
            }
            built.tools_listed(list, "input_schema");
            assert_eq!(built.tools, offered(list));
        }
        for text in ["one", "one", "two\t", "one", "", "two\t"] {
            built.system(text);
        }
        assert_eq!(built.system, ["one", "two    "]);
    }

    /// A task, then `replies` replies, each a Read and its result.
    fn run(replies: usize) -> Builder {
        run_after(1, replies)
    }

    /// `run`, after `asks` messages of the user.
    fn run_after(asks: usize, replies: usize) -> Builder {
        let mut b = Builder::new("run.jsonl");
        for _ in 0..asks {
            let text = "Read the files.".to_string();
            b.push(Msg::User { text, line: 1 });
        }
        for k in 0..replies {
            let id = format!("toolu_{k}");
            let args = args_of(&serde_json::json!({ "file_path": format!("f{k}.rs") }));
            let call = CallSpec {
                id: id.clone(),
                name: "Read".into(),
                args,
                item_id: None,
            };
            b.push(Msg::Assistant {
                text: String::new(),
                calls: vec![call],
                tokens_out: None,
                line: k + 2,
            });
            let text = "fn main() {}".to_string();
            b.push(Msg::Tool {
                call_id: id,
                text,
                is_error: false,
                line: k + 3,
            });
        }
        b
    }

    /// A growing run's build takes from the build before it what is alike
    /// there (its messages' places, its steps' narration) and makes the
    /// rest as a build from nothing does.
    #[test]
    fn a_build_after_another_takes_what_is_alike_from_it() {
        let (format, name) = (Format::Anthropic, "run.jsonl");
        let fresh = run(3).finish(format, name).unwrap();
        let fresh = fresh.trace(Lang::ALL[0]);
        let built_after = |mark: &dyn Fn(&mut Earlier)| {
            let mut earlier = Earlier::default();
            run(2)
                .finish_after(format, name, Some(&mut earlier))
                .unwrap();
            // Marked, to tell what is taken from what is made again.
            mark(&mut earlier);
            let grown = run(3).finish_after(format, name, Some(&mut earlier));
            // What it leaves for the next build is its own.
            assert_eq!(earlier.told.said.len(), fresh.steps.len());
            assert_eq!(earlier.traces[0].messages, fresh.messages);
            grown.unwrap().traces[0].clone()
        };
        let grown = built_after(&|e| e.traces[0].places[0].bytes += 1000);
        assert_eq!(grown.places[0].bytes, fresh.places[0].bytes + 1000);
        assert_eq!(grown.places.skip(1), fresh.places.skip(1));
        for (a, b) in grown.model_calls.iter().zip(&fresh.model_calls) {
            assert_eq!(a.context_size, b.context_size + 1000);
        }
        let grown = built_after(&|e| {
            let taken: Arc<str> = format!("{} (taken)", e.told.said[0].narration[0]).into();
            e.told.said[0].narration[0] = taken.clone();
            e.traces[0].steps[0].narration = Some(taken);
            // The last step said the run ended there: not alike any more.
            let last = e.told.said.len() - 1;
            e.told.said[last].narration[0] =
                format!("{} (stale)", e.told.said[last].narration[0]).into();
        });
        let said = |t: &Trace, i: usize| t.steps[i].narration.as_deref().unwrap().to_string();
        assert_eq!(said(&grown, 0), said(fresh, 0) + " (taken)");
        for i in 1..fresh.steps.len() {
            assert_eq!(said(&grown, i), said(fresh, i), "step {i}");
        }
    }

    /// A growing run's build holds the items the build before it made of
    /// the same lines (its steps, in each language, its messages, calls and
    /// model calls), not copies: at call 2,000 a copy of each is tens of
    /// thousands of items, made at every call.
    #[test]
    fn a_build_after_another_shares_what_it_kept() {
        let (format, name) = (Format::Anthropic, "run.jsonl");
        let mut earlier = Earlier::default();
        let mut build = |replies| {
            run(replies)
                .finish_after(format, name, Some(&mut earlier))
                .unwrap()
        };
        // The first build measures what its replay leaves for the next.
        build(2);
        let (before, after) = (build(3), build(4));
        fn shared<T>(a: &Shared<T>, b: &Shared<T>) -> Vec<bool> {
            a.iter_shared()
                .zip(b.iter_shared())
                .map(|(a, b)| Arc::ptr_eq(a, b))
                .collect()
        }
        for lang in Lang::ALL {
            let (a, b) = (before.trace(lang), after.trace(lang));
            // All but the last step, which said the run ended there.
            let steps = a.steps.len() - 1;
            assert_eq!(shared(&a.steps, &b.steps)[..steps], vec![true; steps]);
            assert_eq!(
                shared(&a.messages, &b.messages),
                vec![true; a.messages.len()]
            );
            assert_eq!(shared(&a.calls, &b.calls), vec![true; a.calls.len()]);
            // All but the last model call, which the next reply closes.
            let calls = a.model_calls.len() - 1;
            assert_eq!(
                shared(&a.model_calls, &b.model_calls)[..calls],
                vec![true; calls]
            );
        }
    }

    /// A run built after itself at every length, past several chunks of
    /// steps (`narrations` takes a chunk of says whole), tells each step
    /// as a build from nothing does; and a say whose model call the build
    /// before counted otherwise is told again, though its chunk is the same.
    #[test]
    fn a_build_after_another_tells_each_step_as_a_build_from_nothing() {
        let (format, name) = (Format::Anthropic, "run.jsonl");
        let narrations = |t: &Trace| -> Vec<Option<Arc<str>>> {
            t.steps.iter().map(|s| s.narration.clone()).collect()
        };
        let mut filled = false;
        // Some build of some run's steps fills its last chunk exactly.
        for asks in 1..=4 {
            let mut earlier = Earlier::default();
            for replies in 1..=(3 * crate::shared::CHUNK / 2) {
                let grown = run_after(asks, replies)
                    .finish_after(format, name, Some(&mut earlier))
                    .unwrap();
                let fresh = run_after(asks, replies).finish(format, name).unwrap();
                for lang in Lang::ALL {
                    let (a, b) = (grown.trace(lang), fresh.trace(lang));
                    let at = format!("{asks} asks, {replies} replies, {lang:?}");
                    let (a, b) = (narrations(a), narrations(b));
                    assert_eq!(a.len(), b.len(), "{at}");
                    for (i, (a, b)) in a.iter().zip(&b).enumerate() {
                        assert_eq!(a, b, "{at}: step {i}");
                    }
                }
                filled |= grown
                    .trace(Lang::En)
                    .steps
                    .len()
                    .is_multiple_of(crate::shared::CHUNK);
            }
        }
        assert!(filled, "no build filled its last chunk of steps");
        let mut earlier = Earlier::default();
        for replies in 1..=(3 * crate::shared::CHUNK / 2) {
            run(replies)
                .finish_after(format, name, Some(&mut earlier))
                .unwrap();
        }
        // The build before counted the first model call's size otherwise.
        let i = earlier
            .told
            .said
            .iter()
            .position(|s| s.at == Some(0))
            .unwrap();
        // As if its first model call had been read again (the very chunk
        // is then not taken) and had counted otherwise.
        let calls = &mut earlier.traces[0].model_calls;
        let chunk = calls.chunk(0).unwrap().clone();
        calls[0] = calls[0].clone();
        assert!(!Arc::ptr_eq(&chunk, calls.chunk(0).unwrap()));
        earlier.told.numbers.sizes[0] += 1;
        let said = &mut earlier.told.said[i];
        said.size = said.size.map(|s| s + 1);
        said.narration = said
            .narration
            .clone()
            .map(|n| format!("{n} (stale)").into());
        let stale = said.narration[0].clone();
        earlier.traces[0].steps[i].narration = Some(stale);
        let replies = 3 * crate::shared::CHUNK / 2;
        let grown = run(replies)
            .finish_after(format, name, Some(&mut earlier))
            .unwrap();
        let fresh = run(replies).finish(format, name).unwrap();
        for lang in Lang::ALL {
            assert_eq!(narrations(grown.trace(lang)), narrations(fresh.trace(lang)));
        }
    }

    /// `recorder::sized_alike`, taking chunks of messages whole as it read
    /// them before (`Walked`), finds and leaves what reading every message
    /// finds and leaves: for runs of a few chunks of messages, against
    /// themselves, where the first call was proposed at another step (no
    /// chunk needing that call is taken), and where the last message of
    /// the first chunk is at another step (that chunk is read again).
    #[test]
    fn chunks_of_messages_taken_whole_are_sized_as_read_one_by_one() {
        use crate::recorder::sized_alike;
        use crate::shared::CHUNK;
        let read = |t: &Trace, earlier: &Trace| {
            let mut walked = Vec::new();
            (sized_alike(t, earlier, &mut walked), walked)
        };
        for (asks, replies) in [(1, 40), (2, 100), (3, 2 * CHUNK)] {
            let run = run_after(asks, replies).finish(Format::Anthropic, "run.jsonl");
            let trace = run.unwrap().trace(Lang::En).clone();
            assert!(trace.messages.len() > CHUNK);
            let (_, walked) = read(&trace, &trace);
            let mut proposed = trace.clone();
            proposed.calls[0].proposed += 1;
            let mut moved = trace.clone();
            moved.messages[CHUNK - 1].step += 1;
            for (t, what) in [
                (trace.clone(), "itself"),
                (proposed, "proposed"),
                (moved, "moved"),
            ] {
                let mut taken = walked.clone();
                let kept = sized_alike(&t, &trace, &mut taken);
                assert_eq!((kept, taken), read(&t, &trace), "{replies} replies, {what}");
            }
        }
    }

    /// A line that changes an event the kept replay went past (an exit
    /// code recorded apart, making its result an error) has the next build
    /// replay from the start.
    #[test]
    fn a_change_behind_the_kept_replay_replays_again() {
        let (format, name) = (Format::Anthropic, "run.jsonl");
        let ran = || {
            let mut b = run(1);
            b.push(Msg::User {
                text: "Thanks.".into(),
                line: 9,
            });
            b
        };
        let mut earlier = Earlier::default();
        ran()
            .finish_after(format, name, Some(&mut earlier))
            .unwrap();
        assert!(earlier.kept.as_ref().is_some_and(|k| k.events > 2));
        let failed = || {
            let mut b = ran();
            b.exit_code("toolu_0", 1);
            b
        };
        let grown = failed().finish_after(format, name, Some(&mut earlier));
        let fresh = failed().finish(format, name).unwrap();
        let grown = grown.unwrap();
        let (grown, fresh) = (grown.trace(Lang::En), fresh.trace(Lang::En));
        assert!(fresh.calls[0].result.as_ref().unwrap().is_error);
        assert_eq!(grown.calls, fresh.calls);
    }

    /// A growing run's replay is kept only up to where no call waits for
    /// its result: a result read later changes how the calls before it
    /// are drawn (one reply's calls answered run together).
    #[test]
    fn a_kept_replay_stops_where_a_call_still_waits() {
        let (format, name) = (Format::Anthropic, "run.jsonl");
        let reply = |b: &mut Builder| {
            b.push(Msg::User {
                text: "Read two files.".into(),
                line: 1,
            });
            let call = |id: &str| CallSpec {
                id: id.into(),
                name: "Read".into(),
                args: args_of(&serde_json::json!({ "file_path": id })),
                item_id: None,
            };
            b.push(Msg::Assistant {
                text: String::new(),
                calls: vec![call("a"), call("b")],
                tokens_out: None,
                line: 2,
            });
        };
        let result = |b: &mut Builder, id: &str, line: usize| {
            b.push(Msg::Tool {
                call_id: id.into(),
                text: "fn main() {}".into(),
                is_error: false,
                line,
            })
        };
        let one = |b: &mut Builder| {
            reply(b);
            result(b, "a", 3);
        };
        let mut earlier = Earlier::default();
        let mut first = Builder::new(name);
        one(&mut first);
        first
            .finish_after(format, name, Some(&mut earlier))
            .unwrap();
        let both = || {
            let mut b = Builder::new(name);
            one(&mut b);
            result(&mut b, "b", 4);
            b
        };
        let grown = both()
            .finish_after(format, name, Some(&mut earlier))
            .unwrap();
        let fresh = both().finish(format, name).unwrap();
        for lang in Lang::ALL {
            let (grown, fresh) = (grown.trace(lang), fresh.trace(lang));
            // Both calls run together, in one step.
            assert_eq!(grown.steps.len(), fresh.steps.len(), "{lang:?}");
            for (a, b) in grown.steps.iter().zip(fresh.steps.iter()) {
                assert_eq!(a.kind, b.kind);
                assert_eq!(a.narration, b.narration);
            }
        }
    }
}
