//! SWE-agent trajectories (`.traj`, one JSON document): `history` is the
//! conversation as the model saw it, Chat Completions messages.
//! `trajectory` repeats the steps as thought / action / observation and
//! `info` holds the outcome: neither is drawn (both listed as not drawn).
//!
//! Two kinds of run, told apart by the messages:
//!
//! - **function calling**: the assistant's messages carry a `tool_calls`
//!   list and each `tool` message names the ids it answers in
//!   `tool_call_ids` (where Chat has one `tool_call_id`);
//! - **text-based** (every 0.x run, 1.x's `thought_action` parser): no
//!   `tool_calls`; an assistant message's `action` is the command the
//!   environment ran (parsed from its text), named by its first word as
//!   SWE-agent names commands (`create`, `edit`, `submit`, or a shell
//!   command such as `python`), and the next `user` message is its output.
//!   The file names no call: they pair by position, as the agent does
//!   (`chat::by_position`), and the ids drawn (`history[N]`) are ours,
//!   which a note says. A final `submit` with no message after it is
//!   unanswered: the run ended there.
//!
//! A message marked `is_demo` is the demonstration SWE-agent puts before
//! the task: the harness's text (context), not the user's or the model's.

use serde_json::Value;

use super::builder::{Builder, CallArgs};
use super::chat::{self, TextRun};
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
    "A SWE-agent trajectory (`.traj`): its `history` of Chat messages, results naming their calls in `tool_call_ids`; text-based runs name no call (paired by position, said so)",
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
    let function_calling = history.iter().any(|m| {
        !m.get("tool_calls").is_none_or(Value::is_null)
            || m.get("role").and_then(Value::as_str) == Some("tool")
    });
    if !function_calling {
        chat::by_position(at.path, &TEXT_RUN, history, b)?;
        skip_keys(value, b);
        return Ok(());
    }
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
    skip_keys(value, b);
    Ok(())
}

fn skip_keys(value: &Value, b: &mut Builder) {
    for key in ["trajectory", "info"] {
        if value.get(key).is_some() {
            b.skip_key(key);
        }
    }
}

/// A text-based run: a reply's `action`, when not empty, is its one call,
/// named by the action's first word; an observation has no error flag.
const TEXT_RUN: TextRun = TextRun {
    list: "history",
    call: |m, _| {
        let action = m.get("action").and_then(Value::as_str)?.trim();
        let name = action.split_whitespace().next()?;
        Some((
            name.to_string(),
            CallArgs::from(vec![("action".to_string(), action.to_string())]),
        ))
    },
    failed: |_| false,
    harness: |m| m.get("is_demo").and_then(Value::as_bool) == Some(true),
    unread: |_| None,
    note: i18n::SWE_AGENT_NO_IDS,
};
