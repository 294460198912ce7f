//! Telling the three APIs' values apart (OpenAI Chat Completions, OpenAI
//! Responses, Anthropic Messages): a message or item list, a request body,
//! a response, `{request, response}`. Their shapes overlap (a list of
//! `{role, content}` is either), so one comparison decides among them, and
//! each of the three readers scores a value by it.

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

use super::format::Format;
use super::reader::{Ask, Score, Seen};
use super::shape::{Lenient, Object, Present};

/// A tap or `export --format requests` line that names its API.
const NAMED: Score = 96;
/// Told from the shape.
const SHAPE: Score = 60;

/// How well `format` (one of the three APIs) recognises `value`: the
/// comparison is made once for all three (`Ask::api`).
pub(crate) fn score(format: Format, value: &Value, ask: &Ask) -> Score {
    match ask.api.get_or_init(|| api_of(value)) {
        Some((found, score)) if *found == format => *score,
        _ => 0,
    }
}

/// Which API a value is of, and how surely.
fn api_of(value: &Value) -> Option<(Format, Score)> {
    let o = match value {
        Value::Array(items) => return detect_items(items).map(|f| (f, SHAPE)),
        Value::Object(o) => o,
        _ => return None,
    };
    // A line of `export --format requests` (or of `tap`) names its
    // provider.
    if o.contains_key("request")
        && let Some(p) = o.get("provider").and_then(Value::as_str)
        && let Some(format) = Format::of_provider(p)
    {
        return Some((format, NAMED));
    }
    if let Some(request) = o.get("request").or_else(|| o.get("body")) {
        // The response's shape settles what the request leaves open.
        let response = o.get("response").map(|r| r.get("body").unwrap_or(r));
        let found = match (
            Seen::Document.detect(request),
            response.and_then(response_format),
        ) {
            (Some(Format::Chat), Some(by_response)) => Some(by_response),
            (found, by_response) => found.or(by_response),
        };
        return found.map(|f| (f, SHAPE));
    }
    if o.contains_key("input") || o.get("object").and_then(Value::as_str) == Some("response") {
        return Some((Format::Responses, SHAPE));
    }
    let messages = o.get("messages")?.as_array()?;
    let anthropic_tools = o
        .get("tools")
        .and_then(Value::as_array)
        .is_some_and(|t| t.iter().any(|t| t.get("input_schema").is_some()));
    // Keys only the Messages API takes, or a Claude model.
    let anthropic_keys = ["anthropic_version", "stop_sequences", "top_k"]
        .iter()
        .any(|k| o.contains_key(*k))
        || o.get("model")
            .and_then(Value::as_str)
            .is_some_and(|m| m.starts_with("claude"));
    if o.contains_key("system") || anthropic_tools {
        return Some((Format::Anthropic, SHAPE));
    }
    let found = match detect_items(messages) {
        Some(Format::Chat) if anthropic_keys && !chat_signals(&signals(messages)) => {
            Some(Format::Anthropic)
        }
        found => found.or(Some(Format::Chat)),
    };
    found.map(|f| (f, SHAPE))
}

/// What telling the formats apart reads of a message or an item: its
/// `type` and `role`, whether it carries a key only Chat has, and the
/// blocks of its content when that is a list.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Signals<'a> {
    #[serde(rename = "type", borrow)]
    kind: Lenient<&'a str>,
    #[serde(borrow)]
    role: Lenient<&'a str>,
    tool_calls: Present<IgnoredAny>,
    tool_call_id: Present<IgnoredAny>,
    function_call: Present<IgnoredAny>,
    #[serde(borrow)]
    content: Lenient<Vec<Object<Block<'a>>>>,
}

/// A content block's `type` (there, even when not a string).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Block<'a> {
    #[serde(rename = "type", borrow)]
    kind: Present<Lenient<&'a str>>,
}

impl Signals<'_> {
    /// The content's blocks; none when it is not a list.
    fn blocks(&self) -> &[Object<Block<'_>>] {
        self.content.0.as_deref().unwrap_or_default()
    }

    /// A block of this type in its content.
    fn has_block(&self, t: &str) -> bool {
        self.blocks()
            .iter()
            .any(|b| b.0.as_ref().and_then(|b| b.kind.value.0) == Some(t))
    }
}

fn signals(items: &[Value]) -> Vec<Signals<'_>> {
    items.iter().map(Object::<Signals>::of).collect()
}

/// A messages or items array: Responses items carry a `type`, Anthropic
/// messages carry content blocks, Chat messages a `role` (and tool roles).
fn detect_items(items: &[Value]) -> Option<Format> {
    if items.is_empty() || !items.iter().all(Value::is_object) {
        return None;
    }
    let items = signals(items);
    let typed = |t: &str| items.iter().any(|i| i.kind.0 == Some(t));
    if [
        "function_call",
        "function_call_output",
        "message",
        "reasoning",
        "custom_tool_call",
    ]
    .iter()
    .any(|t| typed(t))
    {
        return Some(Format::Responses);
    }
    if !items.iter().all(|i| i.role.0.is_some()) {
        return None;
    }
    let block = |t: &str| items.iter().any(|i| i.has_block(t));
    if ["tool_use", "tool_result", "thinking", "redacted_thinking"]
        .iter()
        .any(|t| block(t))
    {
        return Some(Format::Anthropic);
    }
    // Content as a list of typed blocks, and nothing only Chat has.
    let blocks = items.iter().any(|i| {
        i.content.0.as_ref().is_some_and(|c| {
            !c.is_empty() && c.iter().all(|b| b.0.as_ref().is_some_and(|b| b.kind.there))
        })
    });
    if blocks && !chat_signals(&items) {
        return Some(Format::Anthropic);
    }
    Some(Format::Chat)
}

/// What only OpenAI Chat messages have: system, developer and tool roles,
/// `tool_calls`, `tool_call_id`, `function_call`, and content parts of
/// Chat's own types.
fn chat_signals(items: &[Signals]) -> bool {
    items.iter().any(|i| {
        matches!(i.role.0, Some("system" | "developer" | "tool" | "function"))
            || i.tool_calls.there
            || i.tool_call_id.there
            || i.function_call.there
            || ["image_url", "input_audio", "refusal", "file"]
                .iter()
                .any(|t| i.has_block(t))
    })
}

/// A response's provider, from its shape: Chat's `choices`, the Messages
/// API's `type: "message"` with `content` blocks, Responses' `output`.
fn response_format(r: &Value) -> Option<Format> {
    if r.get("choices").is_some() {
        Some(Format::Chat)
    } else if r.get("type").and_then(Value::as_str) == Some("message") && r.get("content").is_some()
    {
        Some(Format::Anthropic)
    } else if r.get("output").is_some() {
        Some(Format::Responses)
    } else {
        None
    }
}
