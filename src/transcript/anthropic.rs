//! Anthropic Messages: a request body (`system`, `tools`, `messages`), a
//! `messages` array, or one request (and its response) per JSONL line.
//! `tool_use` blocks (`id`, `name`, `input`) in assistant messages;
//! `tool_result` blocks (`tool_use_id`, `content`, `is_error`) in user
//! messages, all results of a parallel group in one user message.

use serde::Deserialize;
use serde_json::Value;

use super::api;
use super::builder::{Builder, CallSpec, Msg, args_of, attachment, size_text, text_of};
use super::exchange::{MessagesApi, read_messages};
use super::format::Format;
use super::reader::{At, Reader};
use super::shape::{Lenient, Object, Usage};
use crate::i18n;
use crate::load::ScenarioError;
use crate::provider::Provider;

/// Anthropic Messages, told from the other APIs by its shape.
pub(crate) const READER: Reader = Reader::new(
    Format::Anthropic,
    i18n::FORMAT_ANTHROPIC,
    Provider::Anthropic,
    "Anthropic Messages: a request body or a messages array",
)
.scored(|value, ask| api::score(Format::Anthropic, value, ask))
.requests(|at, value, b| read_messages(&API, at, value, b));

/// Anthropic Messages as `exchange::read_messages` reads it.
const API: MessagesApi = MessagesApi {
    response_key: "content",
    schema_key: "input_schema",
    system_key: Some("system"),
    messages,
    reply: |at, r, b| {
        let usage = r.get("usage").map(Object::<Usage>::of).unwrap_or_default();
        let mut msgs = Vec::new();
        blocks_of(r, at.line, "assistant", usage.output_tokens.0, &mut msgs, b);
        Ok((msgs, usage.input_tokens.0))
    },
};

/// Messages with string or block content, in order.
pub fn messages(at: At, items: &[Value], b: &mut Builder) -> Result<Vec<Msg>, ScenarioError> {
    let mut out = Vec::new();
    for message in at.roles(items, "user or assistant") {
        let (at, role, m) = message?;
        blocks_of(m, at, role, None, &mut out, b);
    }
    Ok(out)
}

/// A content block's `type` and the fields of the types read here:
/// `tool_use` (`id`, `name`; its `input` is any JSON), `tool_result`
/// (`tool_use_id`, `is_error`; its `content` a string or blocks),
/// `thinking` and `redacted_thinking` (`data`). `text`, `input` and
/// `content` stay JSON values, read where they are used.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Block<'a> {
    #[serde(rename = "type", borrow)]
    kind: Lenient<&'a str>,
    #[serde(borrow)]
    id: Lenient<&'a str>,
    #[serde(borrow)]
    name: Lenient<&'a str>,
    #[serde(borrow)]
    tool_use_id: Lenient<&'a str>,
    is_error: Lenient<bool>,
    #[serde(borrow)]
    thinking: Lenient<&'a str>,
    #[serde(borrow)]
    data: Lenient<&'a str>,
}

/// A string field of a block, empty when absent or of another type.
fn str_of(field: &Lenient<&str>) -> String {
    field.0.unwrap_or("").to_string()
}

/// One message's content: text and tool_use blocks make an assistant
/// reply; text and tool_result blocks make a user message and results.
pub fn blocks_of(
    m: &Value,
    at: usize,
    role: &str,
    tokens_out: Option<u64>,
    out: &mut Vec<Msg>,
    b: &mut Builder,
) {
    let content = m.get("content").unwrap_or(&Value::Null);
    let blocks: Vec<&Value> = match content {
        Value::Array(blocks) => blocks.iter().collect(),
        other => vec![other],
    };
    let mut texts = Vec::new();
    let mut calls = Vec::new();
    for block in blocks {
        let fields = match block {
            Value::String(s) => {
                texts.push(s.clone());
                continue;
            }
            Value::Null => continue,
            // Not an object: a block of no type.
            other => Object::<Block>::of(other),
        };
        let kind = fields.kind.0.unwrap_or("");
        match kind {
            "text" => texts.push(text_of(block.get("text").unwrap_or(&Value::Null))),
            "tool_use" => calls.push(CallSpec {
                id: str_of(&fields.id),
                name: str_of(&fields.name),
                args: args_of(block.get("input").unwrap_or(&Value::Null)),
                item_id: None,
            }),
            "tool_result" => out.push(Msg::Tool {
                call_id: str_of(&fields.tool_use_id),
                text: text_of(block.get("content").unwrap_or(&Value::Null)),
                is_error: fields.is_error.0.unwrap_or(false),
                line: at,
            }),
            // Reasoning: said with its size, and shown in the reply by its
            // kind and size (`signature` verifies the text; it is not
            // reasoning).
            "thinking" => {
                let thinking = str_of(&fields.thinking);
                texts.push(format!("[thinking, {}]", size_text(thinking.len())));
                out.push(Msg::Reasoning {
                    summary: thinking,
                    encrypted: 0,
                    line: at,
                });
            }
            "redacted_thinking" => {
                let data = str_of(&fields.data);
                texts.push(format!("[redacted_thinking, {}]", size_text(data.len())));
                out.push(Msg::Reasoning {
                    summary: String::new(),
                    encrypted: data.chars().count(),
                    line: at,
                });
            }
            "image" | "document" => {
                texts.push(attachment(block).unwrap_or_else(|| format!("[{kind}]")))
            }
            // A tool the provider runs itself (web search, code execution,
            // MCP): its call and its result are both in the reply.
            "server_tool_use" | "mcp_tool_use" => {
                let input = block.get("input").map_or(String::new(), Value::to_string);
                texts.push(format!(
                    "[{kind} {} {} {input}]",
                    str_of(&fields.id),
                    str_of(&fields.name)
                ));
            }
            result if result.ends_with("_tool_result") => {
                let content = block.get("content").unwrap_or(&Value::Null);
                let results = match content.as_array() {
                    Some(list) => format!("{} results, ", list.len()),
                    None => String::new(),
                };
                texts.push(format!(
                    "[{result} {}: {results}{}]",
                    str_of(&fields.tool_use_id),
                    size_text(content.to_string().len())
                ));
            }
            other => b.skip(&format!("content block {other:?}"), at),
        }
    }
    let text = texts.join("\n");
    if role == "assistant" {
        out.push(Msg::Assistant {
            text,
            calls,
            tokens_out,
            line: at,
        });
    } else if !text.is_empty() {
        // Text after the results of a parallel group: the user's own words.
        out.push(Msg::User { text, line: at });
    }
}
