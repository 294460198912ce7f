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
//! This file is the whole format: its `READER` is one line in
//! `readers::READERS`.

use std::collections::HashSet;

use serde_json::Value;

use super::builder::{Builder, CallSpec, Msg, args_of, text_of};
use super::chat;
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
    "An OpenHands event stream (a saved trajectory): a list of actions and observations, calls in tool_call_metadata",
)
.scored(score)
.document(document);

/// A list of events: each has a `source`, and an `action` or an
/// `observation`.
fn score(value: &Value, _ask: &Ask) -> Score {
    let event = |e: &Value| {
        e.get("source").is_some_and(Value::is_string)
            && (e.get("action").is_some() || e.get("observation").is_some())
    };
    match value.as_array() {
        Some(events) if !events.is_empty() && events.iter().all(event) => 91,
        _ => 0,
    }
}

fn document(at: At, value: &Value, b: &mut Builder) -> Result<(), ScenarioError> {
    let events = value
        .as_array()
        .ok_or_else(|| at.error("expected a list of OpenHands events"))?;
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
                        || event
                            .pointer("/extras/metadata/exit_code")
                            .and_then(Value::as_i64)
                            .is_some_and(|code| code > 0),
                    line: at,
                }),
                // An error no call's result carries (a reply whose call
                // could not be read or checked, which leaves no action):
                // OpenHands' ConversationMemory sends it as a user message.
                None if observation == "error" => b.push(Msg::Context {
                    text: format!(
                        "{}\n[Error occurred in processing last action]",
                        event.get("content").map(text_of).unwrap_or_default()
                    ),
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
