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

use serde_json::Value;

use super::builder::{Builder, CallSpec, Msg, args_of};
use super::errors::at_line;
use super::jsonl::Lines;
use super::text;
use crate::i18n;
use crate::load::ScenarioError;

/// A session record's top level (or the first line of a JSONL session).
pub fn is_session(o: &serde_json::Map<String, Value>) -> bool {
    o.contains_key("sessionId") && o.contains_key("projectHash")
}

/// A checkpoint's list: Gemini `Content` items (`role` and `parts`).
pub fn is_checkpoint(items: &[Value]) -> bool {
    !items.is_empty()
        && items.iter().all(|i| {
            i.get("parts").is_some_and(Value::is_array)
                && matches!(
                    i.get("role").and_then(Value::as_str),
                    Some("user" | "model")
                )
        })
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
        let id = v.get("id").and_then(Value::as_str).map(str::to_string);
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
pub fn document(path: &str, value: &Value, b: &mut Builder) -> Result<(), ScenarioError> {
    if let Value::Array(items) = value {
        return checkpoint(items, b);
    }
    let messages = value
        .get("messages")
        .and_then(Value::as_array)
        .ok_or_else(|| at_line(path, 1, "expected \"messages\", a list of message records"))?;
    let mut session = Session::default();
    for (i, m) in messages.iter().enumerate() {
        session.message(i + 1, m.clone());
    }
    finish(path, session, b)
}

/// A session as JSON lines.
pub fn read(
    path: &str,
    first: (usize, Value),
    lines: &mut Lines,
    b: &mut Builder,
) -> Result<(), ScenarioError> {
    let mut session = Session::default();
    let mut next = Some(first);
    while let Some((line, v)) = next {
        if let Some(id) = v.get("$rewindTo").and_then(Value::as_str) {
            session.rewind(id);
        } else if let Some(set) = v.get("$set") {
            if let Some(messages) = set.get("messages").and_then(Value::as_array) {
                session.replace_all(line, messages);
            } else {
                b.skip("$set", line);
            }
        } else if v.get("type").is_some() && v.get("id").is_some() {
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
        next = lines.next_value()?;
    }
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
    for (line, m) in order.into_iter().flatten() {
        record(path, line, &m, b, &mut answered, &mut again)?;
    }
    if !again.is_empty() {
        let lines = again
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        b.note(text::every(
            i18n::GEMINI_RESULTS_TWICE.of(again.len()),
            |_| vec![("lines", lines.clone())],
        ));
    }
    if rewound > 0 {
        b.note(text::every(i18n::GEMINI_REWOUND.of(rewound), |_| {
            vec![("n", rewound.to_string())]
        }));
    }
    if replaced > 0 {
        b.note(text::every(i18n::GEMINI_REPLACED.of(replaced), |_| {
            vec![("n", replaced.to_string())]
        }));
    }
    b.note(drawn_as_chat());
    Ok(())
}

fn drawn_as_chat() -> [String; 2] {
    text::fixed(i18n::GEMINI_DRAWN_AS_CHAT)
}

/// One message record of a session; `answered`: the call ids whose
/// results were pushed so far; `again`: the lines that only repeat them.
fn record(
    path: &str,
    line: usize,
    m: &Value,
    b: &mut Builder,
    answered: &mut HashSet<String>,
    again_lines: &mut Vec<usize>,
) -> Result<(), ScenarioError> {
    let kind = m.get("type").and_then(Value::as_str).ok_or_else(|| {
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
                let Some(f) = p.get("functionResponse") else {
                    continue;
                };
                let id = f.get("id").and_then(Value::as_str).unwrap_or("");
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
            for t in m
                .get("thoughts")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let s = |k: &str| t.get(k).and_then(Value::as_str).unwrap_or("");
                let summary = [s("subject"), s("description")]
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
            let tokens = |k: &str| m.pointer(&format!("/tokens/{k}")).and_then(Value::as_u64);
            let tool_calls = m.get("toolCalls").and_then(Value::as_array);
            let calls: Vec<CallSpec> = tool_calls
                .into_iter()
                .flatten()
                .map(|c| CallSpec {
                    id: c
                        .get("id")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string(),
                    name: c
                        .get("name")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string(),
                    args: args_of(c.get("args").unwrap_or(&Value::Null)),
                })
                .collect();
            b.push(Msg::Assistant {
                text: content,
                calls,
                tokens_out: tokens("output"),
                line,
            });
            if m.get("tokens").is_some_and(Value::is_object) {
                b.tokens(tokens("input"), tokens("output"));
            }
            // The results the CLI sent back, in the order of the calls.
            for c in tool_calls.into_iter().flatten() {
                let Some(result) = c.get("result").filter(|r| !r.is_null()) else {
                    continue;
                };
                let status = c.get("status").and_then(Value::as_str);
                let (text, failed) = response_text(result);
                let id = c.get("id").and_then(Value::as_str).unwrap_or("");
                answered.insert(id.to_string());
                b.push(Msg::Tool {
                    call_id: id.to_string(),
                    text,
                    is_error: failed || matches!(status, Some("error" | "cancelled")),
                    line,
                });
            }
        }
        other => b.skip(&format!("message type {other:?}"), line),
    }
    Ok(())
}

/// Does this `PartListUnion` hold a `functionResponse` part?
fn holds_responses(content: Option<&Value>) -> bool {
    match content {
        Some(Value::Array(parts)) => parts.iter().any(|p| p.get("functionResponse").is_some()),
        Some(p @ Value::Object(_)) => p.get("functionResponse").is_some(),
        _ => false,
    }
}

/// The text of a `PartListUnion`: a string, a part, or a list of them.
fn parts_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter(|p| p.get("thought").and_then(Value::as_bool) != Some(true))
            .map(parts_text)
            .collect::<Vec<_>>()
            .join(""),
        Value::Object(_) => v
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
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
        let parts = item
            .get("parts")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let role = item.get("role").and_then(Value::as_str);
        if role == Some("model") {
            let mut text = String::new();
            let mut calls = Vec::new();
            open.clear();
            for (j, p) in parts.iter().enumerate() {
                if let Some(f) = p.get("functionCall") {
                    let name = f.get("name").and_then(Value::as_str).unwrap_or("");
                    let id = match f.get("id").and_then(Value::as_str) {
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
                        args: args_of(f.get("args").unwrap_or(&Value::Null)),
                    });
                } else if p.get("thought").and_then(Value::as_bool) == Some(true) {
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
        for p in parts {
            if let Some(f) = p.get("functionResponse") {
                let name = f.get("name").and_then(Value::as_str).unwrap_or("");
                let id = match f.get("id").and_then(Value::as_str) {
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
        if !text.is_empty() || !parts.iter().any(|p| p.get("functionResponse").is_some()) {
            b.push(Msg::User { text, line: at });
        }
    }
    if rebuilt > 0 {
        b.note(text::every(i18n::GEMINI_IDS_REBUILT.of(rebuilt), |_| {
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
