//! Gemini CLI sessions, in the shapes google-gemini/gemini-cli writes them
//! (`packages/core/src/services/chatRecordingTypes.ts` and
//! `chatRecordingService.ts`):
//!
//! - a session record, `~/.gemini/tmp/<project>/chats/session-*.json`: one
//!   `ConversationRecord` `{sessionId, projectHash, startTime, lastUpdated,
//!   messages}`;
//! - the same as JSON lines (`session-*.jsonl`, the newer writer): a first
//!   line of metadata, then one message record per line, `{"$set": {…}}`
//!   lines that update the metadata (with `messages`: replace them all) and
//!   `{"$rewindTo": id}` lines that drop that message and all after it. A
//!   message written again under its id replaces the earlier copy where it
//!   stood (a reply is rewritten once its tool calls finish).
//! - a checkpoint (`/chat save`, `checkpoint-<tag>.json`): the API history
//!   itself, a list of `Content` `{role: "user" | "model", parts}` with
//!   `text`, `functionCall` and `functionResponse` parts.
//!
//! In a session record a `gemini` message holds the reply's text, its
//! `thoughts`, its `tokens` and its `toolCalls`, each with the `result` the
//! CLI sent back (`functionResponse` parts) and a `status`; `user` messages
//! are the user's; `info`, `error` and `warning` messages are the CLI's own
//! lines on screen, never sent to the model (listed as not drawn).
//!
//! The Gemini API is not one of the providers drawn: the context is drawn
//! in Chat's shape, which a note says on screen.

use std::collections::{HashMap, HashSet};

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

use super::builder::{Builder, CallSpec, Msg, args_of};
use super::errors::at_line;
use super::format::{Format, PairRule};
use super::jsonl::Lines;
use super::reader::{Ask, At, Reader, Score, Seen};
use super::shape::{Lenient, Object, Present};
use super::text;
use crate::i18n;
use crate::load::ScenarioError;
use crate::provider::Provider;
use crate::scenario::Lang;

/// A session record (JSON or JSONL) or a `/chat save` checkpoint.
pub(crate) const READER: Reader = Reader::new(
    Format::GeminiCli,
    i18n::FORMAT_GEMINI_CLI,
    Provider::Chat,
    "A Gemini CLI session (`chats/session-*.json` or `.jsonl`) or a `/chat save` checkpoint (`functionCall` / `functionResponse` parts)",
)
.paired(PairRule::FunctionResponseId)
.scored(score)
.document(document)
.lines(read);

/// A session's metadata (surer as a first line without a `type`, which
/// Claude Code's lines, also naming a `sessionId`, have), or a checkpoint.
fn score(value: &Value, ask: &Ask) -> Score {
    match value {
        Value::Object(o) if is_session(o) => {
            match ask.seen == Seen::FirstLine && !o.get("type").is_some_and(Value::is_string) {
                true => 120,
                false => 92,
            }
        }
        Value::Array(items) if is_checkpoint(items) => 92,
        _ => 0,
    }
}

/// A session record's top level (or the first line of a JSONL session).
pub fn is_session(o: &serde_json::Map<String, Value>) -> bool {
    o.contains_key("sessionId") && o.contains_key("projectHash")
}

/// A checkpoint's list: Gemini `Content` items (`role` and `parts`).
pub fn is_checkpoint(items: &[Value]) -> bool {
    !items.is_empty()
        && items.iter().all(|i| {
            parts_of(i).is_some() && matches!(Object::<Turn>::of(i).role.0, Some("user" | "model"))
        })
}

/// A checkpoint's `Content`: its `role` (its `parts` are read one by one,
/// by `parts_of`).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Turn<'a> {
    #[serde(borrow)]
    role: Lenient<&'a str>,
}

/// A `Content`'s `parts`, when they are a list.
fn parts_of(item: &Value) -> Option<&[Value]> {
    item.get("parts")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
}

/// What a JSONL line is, by its keys: a rewind (`$rewindTo`, an id), or a
/// message record (a `type` and an `id`, whatever they hold; the `id` as
/// a string is the key a later copy replaces it by).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Line<'a> {
    #[serde(rename = "$rewindTo", borrow)]
    rewind_to: Lenient<&'a str>,
    #[serde(rename = "type")]
    kind: Present<IgnoredAny>,
    #[serde(borrow)]
    id: Present<Lenient<&'a str>>,
}

/// A message record's `type` and what a `gemini` record says besides its
/// `content` (a `PartListUnion`, read by `parts_text`): its `thoughts` and
/// its `tokens` (its `toolCalls` are read one by one, as `ToolCall`).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Record<'a> {
    #[serde(rename = "type", borrow)]
    kind: Lenient<&'a str>,
    #[serde(borrow)]
    thoughts: Lenient<Vec<Object<Thought<'a>>>>,
    tokens: Object<Tokens>,
}

/// A thought of a reply: `{subject, description}`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Thought<'a> {
    #[serde(borrow)]
    subject: Lenient<&'a str>,
    #[serde(borrow)]
    description: Lenient<&'a str>,
}

/// A reply's `tokens` (the record has more counts; these two are drawn).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Tokens {
    input: Lenient<u64>,
    output: Lenient<u64>,
}

/// A reply's `toolCalls[]`: `{id, name, args, result, status}`; `args`
/// and `result` (the parts sent back) stay JSON values.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ToolCall<'a> {
    #[serde(borrow)]
    id: Lenient<&'a str>,
    #[serde(borrow)]
    name: Lenient<&'a str>,
    #[serde(borrow)]
    status: Lenient<&'a str>,
    /// When the CLI recorded the call, once it had run.
    #[serde(borrow)]
    timestamp: Lenient<&'a str>,
}

/// A `Part`: a `text` (reasoning where `thought` is true), a
/// `functionCall` or a `functionResponse` (there whatever it holds; its
/// `args` and `response` stay JSON values).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Part<'a> {
    #[serde(borrow)]
    text: Lenient<&'a str>,
    thought: Lenient<bool>,
    #[serde(rename = "functionCall", borrow)]
    function_call: Present<Object<Named<'a>>>,
    #[serde(rename = "functionResponse", borrow)]
    function_response: Present<Object<Named<'a>>>,
}

/// A `functionCall`'s or a `functionResponse`'s `id` and `name`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Named<'a> {
    #[serde(borrow)]
    id: Lenient<&'a str>,
    #[serde(borrow)]
    name: Lenient<&'a str>,
}

impl<'a> Named<'a> {
    /// The (id, name) of a call or a response, when the part holds one:
    /// the name empty when absent, as it is when the value is no object.
    fn of(f: &Present<Object<Named<'a>>>) -> Option<(Option<&'a str>, &'a str)> {
        f.there.then(|| {
            let f = f.value.0.as_ref();
            (
                f.and_then(|f| f.id.0),
                f.and_then(|f| f.name.0).unwrap_or(""),
            )
        })
    }
}

/// Is this part a reasoning part (`thought: true`)?
fn is_thought(p: &Value) -> bool {
    Object::<Part>::of(p).thought.0 == Some(true)
}

/// Is this part a `functionResponse`?
fn is_response(p: &Value) -> bool {
    Object::<Part>::of(p).function_response.there
}

/// Messages by id, in the order the session holds them once every update
/// and rewind is applied.
#[derive(Default)]
struct Session {
    order: Vec<Option<(usize, Value)>>,
    at: HashMap<String, usize>,
    /// Message records that a later one replaced or a rewind removed.
    replaced: usize,
    rewound: usize,
}

impl Session {
    fn message(&mut self, line: usize, v: Value) {
        let id = Object::<Line>::of(&v).id.value.0.map(str::to_string);
        match id.as_ref().and_then(|id| self.at.get(id)) {
            Some(&i) => {
                self.order[i] = Some((line, v));
                self.replaced += 1;
            }
            None => {
                if let Some(id) = id {
                    self.at.insert(id, self.order.len());
                }
                self.order.push(Some((line, v)));
            }
        }
    }

    /// `$rewindTo`: that message and every one after it are gone; an id
    /// not held clears all (as the CLI's loader does).
    fn rewind(&mut self, id: &str) {
        let from = self.at.get(id).copied().unwrap_or(0);
        for slot in &mut self.order[from..] {
            if slot.take().is_some() {
                self.rewound += 1;
            }
        }
        self.at.retain(|_, i| *i < from);
    }

    fn replace_all(&mut self, line: usize, messages: &[Value]) {
        self.rewind("");
        for m in messages {
            self.message(line, m.clone());
        }
    }
}

/// A session record held in one JSON document.
pub fn document(at: At, value: &Value, b: &mut Builder) -> Result<(), ScenarioError> {
    if let Value::Array(items) = value {
        return checkpoint(items, b);
    }
    let messages = value
        .get("messages")
        .and_then(Value::as_array)
        .ok_or_else(|| at.error("expected \"messages\", a list of message records"))?;
    let mut session = Session::default();
    for (i, m) in messages.iter().enumerate() {
        session.message(i + 1, m.clone());
    }
    finish(at.path, session, b)
}

/// A session as JSON lines.
pub fn read(path: &str, lines: &mut Lines, b: &mut Builder) -> Result<(), ScenarioError> {
    let mut session = Session::default();
    lines.each(|line, v| {
        let keys = Object::<Line>::of(&v);
        let record = keys.kind.there && keys.id.there;
        if let Some(id) = keys.rewind_to.0 {
            session.rewind(id);
        } else if let Some(set) = v.get("$set") {
            if let Some(messages) = set.get("messages").and_then(Value::as_array) {
                session.replace_all(line, messages);
            } else {
                b.skip("$set", line);
            }
        } else if record {
            session.message(line, v);
        } else if is_session(v.as_object().map_or(&Default::default(), |o| o)) {
            // The metadata line (a whole legacy record on one line holds
            // its messages too).
            if let Some(messages) = v.get("messages").and_then(Value::as_array) {
                for m in messages {
                    session.message(line, m.clone());
                }
            }
        } else {
            b.skip("line without a message", line);
        }
        Ok(())
    })?;
    finish(path, session, b)
}

fn finish(path: &str, session: Session, b: &mut Builder) -> Result<(), ScenarioError> {
    let Session {
        order,
        replaced,
        rewound,
        ..
    } = session;
    let mut answered = HashSet::new();
    let mut again = Vec::new();
    let mut split = Vec::new();
    for (line, m) in order.into_iter().flatten() {
        record(path, line, &m, b, &mut answered, &mut again, &mut split)?;
    }
    if !split.is_empty() {
        let places = split
            .iter()
            .map(|(line, turns)| format!("{line} ({turns})"))
            .collect::<Vec<_>>()
            .join(", ");
        b.note(text::every_n(i18n::GEMINI_TURNS_SPLIT, split.len(), |_| {
            vec![("n", split.len().to_string()), ("places", places.clone())]
        }));
    }
    if !again.is_empty() {
        let lines = again
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        b.note(text::every_n(
            i18n::GEMINI_RESULTS_TWICE,
            again.len(),
            |_| vec![("lines", lines.clone())],
        ));
    }
    if rewound > 0 {
        b.note(text::every_n(i18n::GEMINI_REWOUND, rewound, |_| {
            vec![("n", rewound.to_string())]
        }));
    }
    if replaced > 0 {
        b.note(text::every_n(i18n::GEMINI_REPLACED, replaced, |_| {
            vec![("n", replaced.to_string())]
        }));
    }
    b.note(drawn_as_chat());
    Ok(())
}

fn drawn_as_chat() -> [String; Lang::COUNT] {
    text::fixed(i18n::GEMINI_DRAWN_AS_CHAT)
}

/// One message record of a session; `answered`: the call ids whose
/// results were pushed so far; `again`: the lines that only repeat them;
/// `split`: the messages that hold several model turns, with how many.
fn record(
    path: &str,
    line: usize,
    m: &Value,
    b: &mut Builder,
    answered: &mut HashSet<String>,
    again_lines: &mut Vec<usize>,
    split: &mut Vec<(usize, usize)>,
) -> Result<(), ScenarioError> {
    let fields = Object::<Record>::of(m);
    let kind = fields.kind.0.ok_or_else(|| {
        at_line(
            path,
            line,
            "expected a message record with a \"type\" (user, gemini, info, error or warning)",
        )
    })?;
    let content = m.get("content").map(parts_text).unwrap_or_default();
    match kind {
        // The results sent back, recorded again as a `user` message of
        // `functionResponse` parts (gemini-cli 0.61 writes one after each
        // reply whose calls ran): they are drawn from the reply's
        // `toolCalls`, so this copy is listed, not drawn twice.
        "user" if content.is_empty() && holds_responses(m.get("content")) => {
            let parts = match m.get("content") {
                Some(Value::Array(parts)) => parts.iter().collect(),
                Some(one) => vec![one],
                None => Vec::new(),
            };
            let mut again = true;
            for p in parts {
                let Some((id, _)) = Named::of(&Object::<Part>::of(p).function_response) else {
                    continue;
                };
                let id = id.unwrap_or("");
                if answered.contains(id) {
                    continue;
                }
                // A result the reply's record does not hold: this is where
                // the file has it.
                again = false;
                let (text, failed) = response_text(p);
                answered.insert(id.to_string());
                b.push(Msg::Tool {
                    call_id: id.to_string(),
                    text,
                    is_error: failed,
                    line,
                });
            }
            if again {
                b.skip("user/functionResponse", line);
                again_lines.push(line);
            }
        }
        // What the CLI writes itself before the user's first words (the
        // date, the OS, the workspace's files): sent, not the user's.
        "user" if content.trim_start().starts_with("<session_context>") => b.push(Msg::Context {
            text: content,
            line,
        }),
        "user" => b.push(Msg::User {
            text: content,
            line,
        }),
        "gemini" => {
            for t in fields.thoughts.0.unwrap_or_default() {
                let t = t.0.unwrap_or_default();
                let summary = [t.subject.0, t.description.0]
                    .map(|p| p.unwrap_or(""))
                    .into_iter()
                    .filter(|p| !p.is_empty())
                    .collect::<Vec<_>>()
                    .join(": ");
                b.push(Msg::Reasoning {
                    summary,
                    encrypted: 0,
                    line,
                });
            }
            let turns = reply(m, content, fields.tokens.0.as_ref(), line, b, answered);
            if turns > 1 {
                split.push((line, turns));
            }
        }
        other => b.skip(&format!("message type {other:?}"), line),
    }
    Ok(())
}

/// A `gemini` message: its reply, and the results the CLI sent back, in
/// the order of the calls. A message may hold the calls of several model
/// turns (`turns`): each later turn is drawn as a reply of its own, with
/// no text and no token counts (the file records neither for it).
fn reply(
    m: &Value,
    content: String,
    tokens: Option<&Tokens>,
    line: usize,
    b: &mut Builder,
    answered: &mut HashSet<String>,
) -> usize {
    let (input, output) = (
        tokens.and_then(|t| t.input.0),
        tokens.and_then(|t| t.output.0),
    );
    let tool_calls: Vec<(&Value, ToolCall)> = m
        .get("toolCalls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|c| (c, Object::<ToolCall>::of(c)))
        .collect();
    let turns = turns(&tool_calls);
    let mut content = Some(content);
    for turn in &turns {
        let turn = &tool_calls[turn.clone()];
        let calls: Vec<CallSpec> = turn
            .iter()
            .map(|(c, f)| CallSpec {
                id: f.id.0.unwrap_or("").to_string(),
                name: f.name.0.unwrap_or("").to_string(),
                args: args_of(c.get("args").unwrap_or(&Value::Null)),
                item_id: None,
            })
            .collect();
        let first = content.is_some();
        b.push(Msg::Assistant {
            text: content.take().unwrap_or_default(),
            calls,
            tokens_out: output.filter(|_| first),
            line,
        });
        if first && tokens.is_some() {
            b.tokens(input, output);
        }
        for (c, f) in turn {
            let Some(result) = c.get("result").filter(|r| !r.is_null()) else {
                continue;
            };
            let (text, failed) = response_text(result);
            let id = f.id.0.unwrap_or("");
            answered.insert(id.to_string());
            b.push(Msg::Tool {
                call_id: id.to_string(),
                text,
                is_error: failed || matches!(f.status.0, Some("error" | "cancelled")),
                line,
            });
        }
    }
    turns.len()
}

/// Calls recorded further apart than this are of different model turns.
const TURN_GAP_MS: i64 = 100;

/// The model turns a message's calls came from, as ranges of them. The
/// CLI adds a later turn's calls to the last `gemini` message when that
/// turn starts with neither text nor thoughts (`recordToolCalls` in
/// chatRecordingService.ts), and records each turn's calls together once
/// all have run (`recordCompletedToolCalls` in geminiChat.ts: one
/// `new Date()` per call in one pass, the same millisecond or the next).
/// Calls recorded more than `TURN_GAP_MS` apart were run by different
/// turns; calls without a time stay with the turn before them. Always at
/// least one turn.
fn turns(calls: &[(&Value, ToolCall)]) -> Vec<std::ops::Range<usize>> {
    // One turn to start with, the first call's.
    let mut turns = Vec::new();
    turns.push(0..0);
    let mut last: Option<i64> = None;
    for (i, (_, call)) in calls.iter().enumerate() {
        let at = call.timestamp.0.and_then(millis);
        if let (Some(at), Some(before)) = (at, last)
            && at - before > TURN_GAP_MS
        {
            turns.push(i..i);
        }
        last = at.or(last);
        if let Some(turn) = turns.last_mut() {
            turn.end = i + 1;
        }
    }
    turns
}

/// Milliseconds since 1970 of an ISO 8601 UTC time as JavaScript's
/// `toISOString` writes it (`2026-11-30T09:12:10.002Z`).
fn millis(t: &str) -> Option<i64> {
    let num = |r: std::ops::Range<usize>| t.get(r)?.parse::<i64>().ok();
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let ms = match t.get(19..20) {
        Some(".") => num(20..23)?,
        _ => 0,
    };
    // Days from 1970-01-01 to the date (the proleptic Gregorian calendar).
    let y = if mo <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * ((mo + 9) % 12) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some((((days * 24 + h) * 60 + mi) * 60 + sec) * 1000 + ms)
}

/// Does this `PartListUnion` hold a `functionResponse` part?
fn holds_responses(content: Option<&Value>) -> bool {
    match content {
        Some(Value::Array(parts)) => parts.iter().any(is_response),
        Some(p @ Value::Object(_)) => is_response(p),
        _ => false,
    }
}

/// The text of a `PartListUnion`: a string, a part, or a list of them.
fn parts_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter(|p| !is_thought(p))
            .map(parts_text)
            .collect::<Vec<_>>()
            .join(""),
        Value::Object(_) => Object::<Part>::of(v).text.0.unwrap_or("").to_string(),
        _ => String::new(),
    }
}

/// A tool's result as sent back: the `functionResponse` parts' `response`
/// (its `output`, or its `error`: then it failed), other parts' text.
fn response_text(v: &Value) -> (String, bool) {
    let mut failed = false;
    let mut out = Vec::new();
    let parts: Vec<&Value> = match v {
        Value::Array(items) => items.iter().collect(),
        one => vec![one],
    };
    for p in parts {
        if let Some(r) = p.pointer("/functionResponse/response") {
            if let Some(e) = r.get("error").filter(|e| !e.is_null()) {
                failed = true;
                out.push(e.as_str().map_or_else(|| e.to_string(), str::to_string));
            } else if let Some(o) = r.get("output") {
                out.push(o.as_str().map_or_else(|| o.to_string(), str::to_string));
            } else {
                out.push(r.to_string());
            }
        } else {
            out.push(parts_text(p));
        }
    }
    (out.join("\n"), failed)
}

/// A checkpoint: the API's own history. Results answer calls by
/// `functionResponse.id` where the parts carry one; where they do not
/// (the Gemini API does not require ids), a response answers the call of
/// the model turn before it with its name, in order, and both get a name
/// of ours, said in a note.
fn checkpoint(items: &[Value], b: &mut Builder) -> Result<(), ScenarioError> {
    // Calls of the latest model turn still without a response: (name, id).
    let mut open: Vec<(String, String)> = Vec::new();
    let mut rebuilt = 0;
    for (i, item) in items.iter().enumerate() {
        let at = i + 1;
        let parts = parts_of(item).unwrap_or_default();
        let role = Object::<Turn>::of(item).role.0;
        if role == Some("model") {
            let mut text = String::new();
            let mut calls = Vec::new();
            open.clear();
            for (j, p) in parts.iter().enumerate() {
                let part = Object::<Part>::of(p);
                if let Some((id, name)) = Named::of(&part.function_call) {
                    let id = match id {
                        Some(id) => id.to_string(),
                        None => {
                            rebuilt += 1;
                            format!("contents[{i}].parts[{j}]")
                        }
                    };
                    open.push((name.to_string(), id.clone()));
                    calls.push(CallSpec {
                        id,
                        name: name.to_string(),
                        args: args_of(p.pointer("/functionCall/args").unwrap_or(&Value::Null)),
                        item_id: None,
                    });
                } else if part.thought.0 == Some(true) {
                    b.push(Msg::Reasoning {
                        summary: parts_text(p),
                        encrypted: 0,
                        line: at,
                    });
                } else {
                    text.push_str(&parts_text(p));
                }
            }
            b.push(Msg::Assistant {
                text,
                calls,
                tokens_out: None,
                line: at,
            });
            continue;
        }
        let mut text = String::new();
        let mut responses = false;
        for p in parts {
            if let Some((id, name)) = Named::of(&Object::<Part>::of(p).function_response) {
                responses = true;
                let id = match id {
                    Some(id) => {
                        open.retain(|(_, open_id)| open_id != id);
                        id.to_string()
                    }
                    None => match open.iter().position(|(n, _)| n == name) {
                        Some(k) => open.remove(k).1,
                        None => String::new(),
                    },
                };
                let (result, failed) = response_text(p);
                b.push(Msg::Tool {
                    call_id: id,
                    text: result,
                    is_error: failed,
                    line: at,
                });
            } else {
                text.push_str(&parts_text(p));
            }
        }
        if !text.is_empty() || !responses {
            b.push(Msg::User { text, line: at });
        }
    }
    if rebuilt > 0 {
        b.note(text::every_n(i18n::GEMINI_IDS_REBUILT, rebuilt, |_| {
            vec![("n", rebuilt.to_string())]
        }));
    }
    b.note(drawn_as_chat());
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_rewind_drops_the_message_and_all_after_it_and_a_rewrite_keeps_its_place() {
        let mut s = Session::default();
        for (i, id) in ["a", "b", "c"].iter().enumerate() {
            s.message(i + 1, json!({"id": id, "type": "user", "content": *id}));
        }
        s.message(4, json!({"id": "a", "type": "user", "content": "a2"}));
        s.rewind("b");
        let kept: Vec<String> = s
            .order
            .iter()
            .flatten()
            .map(|(line, v)| format!("{line}:{}", v["content"].as_str().unwrap()))
            .collect();
        assert_eq!(kept, ["4:a2"]);
        assert_eq!((s.replaced, s.rewound), (1, 2));
        // A message written after the rewind under a dropped id is new.
        s.message(5, json!({"id": "b", "type": "user", "content": "b2"}));
        assert_eq!(s.order.iter().flatten().count(), 2);
    }

    #[test]
    fn a_function_response_says_its_output_or_its_error() {
        let ok = json!([{"functionResponse": {"id": "x", "name": "ls", "response": {"output": "a\nb"}}}]);
        assert_eq!(response_text(&ok), ("a\nb".into(), false));
        let bad = json!([{"functionResponse": {"name": "ls", "response": {"error": "denied"}}}]);
        assert_eq!(response_text(&bad), ("denied".into(), true));
        assert_eq!(
            parts_text(&json!([{"text": "a"}, {"text": "b", "thought": true}])),
            "a"
        );
    }
}
