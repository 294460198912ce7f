//! SWE-agent trajectories (`.traj`, one JSON document): `history` is the
//! conversation as the model saw it, Chat Completions messages with a
//! `tool_calls` list on the assistant's and, on each `tool` message, the
//! ids it answers in `tool_call_ids` (where Chat has one `tool_call_id`).
//! `trajectory` repeats the steps as thought / action / observation and
//! `info` holds the outcome: neither is drawn (both listed as not drawn).

use serde_json::Value;

use super::builder::Builder;
use super::chat;
use super::format::Format;
use super::reader::{Ask, At, Reader, Score};
use crate::i18n;
use crate::load::ScenarioError;
use crate::provider::Provider;

/// A `.traj`: one JSON document.
pub(crate) const READER: Reader = Reader::new(
    Format::SweAgent,
    i18n::FORMAT_SWE_AGENT,
    Provider::Chat,
    "A SWE-agent trajectory (`.traj`): its `history` of Chat messages, results naming their calls in `tool_call_ids`",
)
.scored(score)
.document(document);

/// A `history` list beside a `trajectory` or an `info`; a `history` of
/// messages alone (a trajectory saved without the rest) less surely.
fn score(value: &Value, _ask: &Ask) -> Score {
    let Some(history) = value.get("history").and_then(Value::as_array) else {
        return 0;
    };
    let messages = !history.is_empty()
        && history
            .iter()
            .all(|m| m.get("role").is_some_and(Value::is_string));
    if value.get("trajectory").is_some() || value.get("info").is_some() {
        94
    } else if messages {
        50
    } else {
        0
    }
}

pub fn document(at: At, value: &Value, b: &mut Builder) -> Result<(), ScenarioError> {
    let history = value
        .get("history")
        .and_then(Value::as_array)
        .ok_or_else(|| at.error("expected \"history\", a list of messages"))?;
    // A result for several ids (one observation for a parallel group) is
    // one result per id, each with the text.
    let mut messages = Vec::with_capacity(history.len());
    for m in history {
        match (
            m.get("role").and_then(Value::as_str),
            m.get("tool_call_ids"),
        ) {
            (Some("tool"), Some(Value::Array(ids))) if m.get("tool_call_id").is_none() => {
                for id in ids {
                    let mut one = m.clone();
                    if let Some(o) = one.as_object_mut() {
                        o.insert("tool_call_id".into(), id.clone());
                    }
                    messages.push(one);
                }
            }
            _ => messages.push(m.clone()),
        }
    }
    for msg in chat::messages(at, &messages, b)? {
        b.push(msg);
    }
    for key in ["trajectory", "info"] {
        if value.get(key).is_some() {
            b.skip(&format!("key {key:?}"), 1);
        }
    }
    Ok(())
}
