//! OpenHands event streams (the V0 runtime's, as `event_to_dict` in
//! All-Hands-AI/OpenHands `openhands/events/serialization/event.py` writes
//! them, and a saved trajectory holds them): one JSON list of events.
//!
//! An action is `{id, source, action, args}`; an observation `{id, source,
//! cause, observation, content, extras}`. An action the model asked for
//! carries `tool_call_metadata`: the call's `tool_call_id` and
//! `function_name`, and the whole `model_response` (a Chat Completions
//! object) it came from; several actions of one response share it. The
//! observation that answers one carries the same `tool_call_metadata`.
//! This is how OpenHands' own `ConversationMemory` rebuilds the Chat
//! messages it sends: the response's message (with all its `tool_calls`),
//! then a `tool` message per observation, by `tool_call_id`.
//!
//! A `message` action is the user's words (`source: "user"`) or a reply
//! with no call (`source: "agent"`); a `system` action the system prompt.
//! Observations without a call (`agent_state_changed`, `null`) and actions
//! the model did not ask for (`change_agent_state`) are the runtime's own:
//! listed as not drawn, but an `error` observation of no call is sent to
//! the model as a user message (the runtime's words). An `error`
//! observation, or a command's non-zero
//! `extras.metadata.exit_code`, is a failed result; -1 is not: the command
//! was still running when the runtime stopped waiting.
//!
//! The older flat layout (`dataclasses.asdict` of each event, as the
//! resolver's `output.jsonl` kept its `history` in 2024) has no `source`,
//! `id`, `args`/`extras` or `tool_call_metadata`: an action is `{action,
//! thought, command | code, …}`, an observation `{observation, content,
//! exit_code, command | code, …}`. The CodeAct agent without function
//! calling sent these as plain messages, in order (`get_action_message`,
//! `get_observation_message`): the first `message` action is the task,
//! every other action a reply (its `thought` the text), one not `message`
//! or `finish` its one call, named by the action; the observation of that
//! name (and command or code) after it is the result, by position
//! (`chat::by_position`, the ids `history[N]` ours, which a note says).
//!
//! This file is the whole format: its `READER` is one line in
//! `readers::READERS`.

use std::collections::HashSet;

use serde_json::{Value, json};

use super::builder::{Builder, CallSpec, Msg, args_of, text_of};
use super::chat::{self, TextRun};
use super::format::Format;
use super::reader::{Ask, At, Reader, Score};
use crate::i18n;
use crate::load::ScenarioError;
use crate::provider::Provider;

/// A saved OpenHands trajectory: one JSON list of events.
pub(crate) const READER: Reader = Reader::new(
    Format::new("openhands"),
    i18n::FORMAT_OPENHANDS,
    // The context OpenHands sends is Chat Completions messages (LiteLLM).
    Provider::Chat,
    "An OpenHands event stream (a saved trajectory): a list of actions and observations, calls in tool_call_metadata; the older flat layout names no call (paired by position, said so)",
)
.scored(score)
.document(document);

/// A list of events, each an `action` or an `observation`: each with a
/// `source`, or (the flat layout) none with one.
fn score(value: &Value, _ask: &Ask) -> Score {
    let event = |e: &Value| e.get("action").is_some() || e.get("observation").is_some();
    let source = |e: &Value| e.get("source").is_some_and(Value::is_string);
    match value.as_array() {
        Some(events) if events.is_empty() || !events.iter().all(event) => 0,
        Some(events) if events.iter().all(source) => 91,
        Some(events) if flat(events) => 80,
        _ => 0,
    }
}

/// The older flat layout: no event has a `source` or `tool_call_metadata`.
fn flat(events: &[Value]) -> bool {
    let keys = |e: &Value| e.get("source").is_some() || e.get("tool_call_metadata").is_some();
    !events.iter().any(keys)
}

/// A command's exit code says it failed: positive (-1: still running when
/// the runtime stopped waiting).
fn failed(code: Option<&Value>) -> bool {
    code.and_then(Value::as_i64).is_some_and(|code| code > 0)
}

fn document(at: At, value: &Value, b: &mut Builder) -> Result<(), ScenarioError> {
    let events = value
        .as_array()
        .ok_or_else(|| at.error("expected a list of OpenHands events"))?;
    if flat(events) {
        return chat::by_position(at.path, &FLAT_RUN, &flat_messages(events), b);
    }
    // The model responses whose reply is already drawn: the actions of one
    // response come one by one, each followed by its observation.
    let mut replied: HashSet<&str> = HashSet::new();
    for (i, event) in events.iter().enumerate() {
        let at = i + 1;
        let str_at = |pointer: &str| event.pointer(pointer).and_then(Value::as_str);
        let meta = event.get("tool_call_metadata").filter(|m| m.is_object());
        match (str_at("/action"), str_at("/observation")) {
            (Some(_), _) if meta.is_some() => {
                let response = meta.and_then(|m| m.get("model_response"));
                let id = response.and_then(|r| r.get("id")).and_then(Value::as_str);
                if id.is_none_or(|id| replied.insert(id)) {
                    b.push(reply(event, meta, response, at));
                }
            }
            (Some("message"), _) => {
                let text = event
                    .pointer("/args/content")
                    .map(text_of)
                    .unwrap_or_default();
                match str_at("/source") {
                    Some("user") => b.push(Msg::User { text, line: at }),
                    Some("agent") => b.push(Msg::Assistant {
                        text,
                        calls: Vec::new(),
                        tokens_out: None,
                        line: at,
                    }),
                    other => b.skip(&format!("message from {other:?}"), at),
                }
            }
            (Some("system"), _) => {
                b.system(
                    &event
                        .pointer("/args/content")
                        .map(text_of)
                        .unwrap_or_default(),
                );
            }
            (Some(action), _) => b.skip(&format!("action {action:?}"), at),
            (None, Some(observation)) => match meta.and_then(|m| m.get("tool_call_id")) {
                Some(id) => b.push(Msg::Tool {
                    call_id: text_of(id),
                    text: event.get("content").map(text_of).unwrap_or_default(),
                    is_error: observation == "error"
                        || failed(event.pointer("/extras/metadata/exit_code")),
                    line: at,
                }),
                // An error no call's result carries (a reply whose call
                // could not be read or checked, which leaves no action).
                None if observation == "error" => b.push(Msg::Context {
                    text: error_text(event),
                    line: at,
                }),
                None => b.skip(&format!("observation {observation:?}"), at),
            },
            (None, None) => b.skip("event without action or observation", at),
        }
    }
    Ok(())
}

/// The reply an action came from: its model response's message (all the
/// calls it made), or, where the file keeps no response, the one call.
fn reply(event: &Value, meta: Option<&Value>, response: Option<&Value>, at: usize) -> Msg {
    let message = response.and_then(|r| r.pointer("/choices/0/message"));
    if let Some(message) = message {
        let tokens = response
            .and_then(|r| r.pointer("/usage/completion_tokens"))
            .and_then(Value::as_u64);
        return chat::assistant(message, at, tokens);
    }
    let field = |key: &str| {
        meta.and_then(|m| m.get(key))
            .map(text_of)
            .unwrap_or_default()
    };
    Msg::Assistant {
        text: event
            .pointer("/args/thought")
            .map(text_of)
            .unwrap_or_default(),
        calls: vec![CallSpec {
            id: field("tool_call_id"),
            name: field("function_name"),
            args: args_of(event.get("args").unwrap_or(&Value::Null)),
            item_id: None,
        }],
        tokens_out: None,
        line: at,
    }
}

/// Actions that make no call: the agent's words, and its end.
const NO_CALL: [&str; 3] = ["message", "finish", "reject"];
/// Actions and observations the runtime makes, which the agent never sent.
const RUNTIME: [&str; 4] = [
    "change_agent_state",
    "null",
    "agent_state_changed",
    "recall",
];

/// The flat events as the messages the CodeAct agent sent, one per event
/// (its place kept): a reply's call is named by its `action`, with the
/// event's other fields its arguments; an observation answers the open
/// call of its name (and command or code), else it is not drawn (an
/// `error` observation is sent as the runtime's words).
fn flat_messages(events: &[Value]) -> Vec<Value> {
    let mut open: Option<&Value> = None;
    let mut task_seen = false;
    let name = |e: &Value, key: &str| e.get(key).and_then(Value::as_str).map(str::to_string);
    let mut out = Vec::with_capacity(events.len());
    for e in events {
        let content = e.get("content");
        out.push(match (name(e, "action"), name(e, "observation")) {
            (Some(kind), _) if RUNTIME.contains(&kind.as_str()) => {
                json!({"unread": format!("action {kind:?}")})
            }
            (Some(kind), _) if kind == "system" => json!({"role": "system", "content": content}),
            (Some(kind), _) if kind == "message" && !task_seen => {
                task_seen = true;
                json!({"role": "user", "content": content})
            }
            (Some(kind), _) => {
                let text = if kind == "message" {
                    content
                } else {
                    e.get("thought")
                };
                open = (!NO_CALL.contains(&kind.as_str())).then_some(e);
                json!({"role": "assistant", "content": text, "event": e})
            }
            (None, Some(kind)) => match open {
                Some(call) if answers(call, e, &kind) => {
                    open = None;
                    json!({"role": "user", "content": content, "exit_code": e.get("exit_code")})
                }
                _ if kind == "error" => {
                    json!({"role": "user", "content": error_text(e), "harness": true})
                }
                _ => json!({"unread": format!("observation {kind:?}")}),
            },
            (None, None) => json!({"unread": "event without action or observation"}),
        });
    }
    out
}

/// An observation (of kind `kind`) answers a call: the call's name, and
/// its command or code where both give one.
fn answers(call: &Value, observation: &Value, kind: &str) -> bool {
    let same = |key: &str| (observation.get(key).zip(call.get(key))).is_none_or(|(a, b)| a == b);
    call.get("action").and_then(Value::as_str) == Some(kind) && same("command") && same("code")
}

/// An `error` observation no call's result carries, as OpenHands'
/// ConversationMemory sends it: a user message.
fn error_text(event: &Value) -> String {
    format!(
        "{}\n[Error occurred in processing last action]",
        event.get("content").map(text_of).unwrap_or_default()
    )
}

/// An action's fields that are no argument of its call: the reply's text,
/// and the runtime's own settings and confirmation state.
const NOT_ARGS: [&str; 8] = [
    "action",
    "thought",
    "is_confirmed",
    "action_risk",
    "security_risk",
    "confirmation_state",
    "keep_prompt",
    "kernel_init_code",
];

/// The flat layout as `chat::by_position` reads it (`flat_messages`).
const FLAT_RUN: TextRun = TextRun {
    list: "history",
    call: |m, _| {
        let event = m.get("event")?.as_object()?;
        let name = event.get("action")?.as_str()?;
        if NO_CALL.contains(&name) {
            return None;
        }
        let mut args = event.clone();
        args.retain(|key, _| !NOT_ARGS.contains(&key.as_str()));
        Some((name.to_string(), args_of(&Value::Object(args))))
    },
    failed: |m| failed(m.get("exit_code")),
    harness: |m| m.get("harness").is_some(),
    unread: |m| m.get("unread").and_then(Value::as_str).map(str::to_string),
    note: i18n::OPENHANDS_NO_IDS,
};
