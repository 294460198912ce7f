//! What a transcript value holds: a list, a request, a response, or a
//! provider's refusal; the Chat, Responses and Anthropic readers share it.

use serde_json::Value;

use super::builder::{Builder, Msg, text_of};
use super::errors::not_a_transcript;
use super::reader::At;
use crate::load::ScenarioError;

/// A transcript value split into what it holds: a bare list of messages or
/// items, a request body, a response, or both (`{request, response}`, a
/// batch line `{custom_id, body | params}`).
pub(crate) struct Parts<'a> {
    pub list: Option<&'a [Value]>,
    pub request: Option<&'a Value>,
    pub response: Option<&'a Value>,
    /// The line says its request was rebuilt from messages, not recorded
    /// (`export --format requests` of a run whose file held no body).
    pub rebuilt: bool,
}

/// The error a line records for its request (the provider's 400 body:
/// `{"error": {"message"}}`), if it records one.
pub(crate) fn refusal(value: &Value) -> Option<String> {
    let response = value.get("response")?;
    let body = response.get("body").unwrap_or(response);
    // A Responses object always has `"error": null`; only a real error counts.
    let error = body.get("error").filter(|e| !e.is_null())?;
    let message = error.get("message").and_then(Value::as_str);
    let status = value.get("status").and_then(Value::as_u64).unwrap_or(400);
    let kind = error
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("invalid_request_error");
    Some(match message {
        Some(m) => format!("{status} {kind}: {m}"),
        None => format!("{status} {error}"),
    })
}

/// Why a recorded call did not end whole, if the line says it did not
/// (the tap's and `export --format requests`' `incomplete`, with its
/// `error`): what came of its reply is not a reply.
pub(crate) fn incomplete(value: &Value) -> Option<String> {
    if value.get("incomplete") != Some(&Value::Bool(true)) {
        return None;
    }
    let error = value.get("error").and_then(Value::as_str);
    Some(error.unwrap_or("incomplete").to_string())
}

pub(crate) fn exchange<'a>(
    at: At,
    value: &'a Value,
    list_key: &str,
    response_key: &str,
) -> Result<Parts<'a>, ScenarioError> {
    let none = Parts {
        list: None,
        request: None,
        response: None,
        rebuilt: false,
    };
    match value {
        Value::Array(items) => Ok(Parts {
            list: Some(items),
            ..none
        }),
        Value::Object(o) => {
            // An error body (a provider's 400) is no reply: the model never ran.
            let response = o
                .get("response")
                .map(|r| r.get("body").unwrap_or(r))
                .filter(|r| r.is_object() && r.get("error").is_none_or(Value::is_null));
            if let Some(request) = ["request", "body", "params"].iter().find_map(|k| o.get(*k)) {
                return Ok(Parts {
                    request: Some(request),
                    response,
                    rebuilt: o.contains_key("rebuilt"),
                    ..none
                });
            }
            if o.contains_key(list_key) {
                return Ok(Parts {
                    request: Some(value),
                    ..none
                });
            }
            if o.contains_key(response_key) || response.is_some() {
                return Ok(Parts {
                    response: response.or(Some(value)),
                    ..none
                });
            }
            Err(not_a_transcript(at.path, at.line, value))
        }
        other => Err(not_a_transcript(at.path, at.line, other)),
    }
}

/// Reads a list of messages where it stands.
pub(crate) type ReadMessages = fn(At, &[Value], &mut Builder) -> Result<Vec<Msg>, ScenarioError>;

/// Reads a response: the reply's messages and the prompt's tokens.
pub(crate) type ReadReply =
    fn(At, &Value, &mut Builder) -> Result<(Vec<Msg>, Option<u64>), ScenarioError>;

/// How an API whose request holds a `messages` list (Chat Completions,
/// Anthropic Messages) writes a value: the keys of its list and its
/// response, where its tools keep their schema, where its system prompt
/// is, and how its messages and a response read.
pub(crate) struct MessagesApi {
    pub response_key: &'static str,
    pub schema_key: &'static str,
    /// A request body's own system prompt (Anthropic's `system`).
    pub system_key: Option<&'static str>,
    pub messages: ReadMessages,
    /// A response: the reply's messages and the prompt's tokens.
    pub reply: ReadReply,
}

/// A value of such an API: a message list, or a request (its tools, its
/// messages, the body as recorded) and then its response's reply.
pub(crate) fn read_messages(
    api: &MessagesApi,
    at: At,
    value: &Value,
    b: &mut Builder,
) -> Result<(), ScenarioError> {
    let parts = exchange(at, value, "messages", api.response_key)?;
    if let Some(items) = parts.list {
        for msg in (api.messages)(at, items, b)? {
            b.push(msg);
        }
        return Ok(());
    }
    let cut = incomplete(value);
    let reply = match parts.response.filter(|_| cut.is_none()) {
        Some(r) => Some((api.reply)(at, r, b)?),
        None => None,
    };
    if let Some(request) = parts.request {
        if let Some(system) = api.system_key.and_then(|k| request.get(k)) {
            b.system(&text_of(system));
        }
        if let Some(tools) = request.get("tools").and_then(Value::as_array) {
            b.tools_listed(tools, api.schema_key);
        }
        let items = request
            .get("messages")
            .and_then(Value::as_array)
            .ok_or_else(|| at.error("expected \"messages\", a list of messages"))?;
        // A tap's request repeats the history its previous one sent: only
        // what follows it is read.
        let first = b.repeated(items.len());
        let msgs =
            (api.messages)(At { first, ..at }, items, b).inspect_err(|_| b.not_a_request())?;
        let tokens_in = reply.as_ref().and_then(|r| r.1);
        let refused = refusal(value).filter(|_| cut.is_none());
        if !parts.rebuilt {
            b.recorded_body(request, parts.response);
        }
        let asked = reply.is_some() || cut.is_some();
        b.request_or_record_refused(msgs, at.line, tokens_in, asked, refused);
    }
    if let Some(why) = &cut {
        b.cut(at.line, why);
    }
    for msg in reply.map(|r| r.0).unwrap_or_default() {
        b.push(msg);
    }
    Ok(())
}
