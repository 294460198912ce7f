//! Anthropic Messages: a request body (`system`, `tools`, `messages`), a
//! `messages` array, or one request (and its response) per JSONL line.
//! `tool_use` blocks (`id`, `name`, `input`) in assistant messages;
//! `tool_result` blocks (`tool_use_id`, `content`, `is_error`) in user
//! messages, all results of a parallel group in one user message.

use serde::Deserialize;
use serde_json::Value;

use super::builder::{
    Builder, CallSpec, Msg, args_of, attachment, offered_tools, size_text, text_of,
};
use super::errors::at_line;
use super::exchange::{exchange, incomplete, refusal};
use super::shape::{Lenient, Object, Usage};
use crate::load::ScenarioError;

pub fn document(
    path: &str,
    value: &Value,
    line: usize,
    whole: bool,
    b: &mut Builder,
) -> Result<(), ScenarioError> {
    let parts = exchange(path, value, line, "messages", "content")?;
    if let Some(items) = parts.list {
        for msg in messages(path, items, line, whole, b)? {
            b.push(msg);
        }
        return Ok(());
    }
    let cut = incomplete(value);
    let reply = parts.response.filter(|_| cut.is_none()).map(|r| {
        let usage = r.get("usage").map(Object::<Usage>::of).unwrap_or_default();
        let mut msgs = Vec::new();
        blocks_of(r, line, "assistant", usage.output_tokens.0, &mut msgs, b);
        (msgs, usage.input_tokens.0)
    });
    if let Some(request) = parts.request {
        if let Some(system) = request.get("system") {
            b.system(&text_of(system));
        }
        if let Some(tools) = request.get("tools").and_then(Value::as_array) {
            b.tools(offered_tools(tools, "input_schema"));
        }
        let items = request
            .get("messages")
            .and_then(Value::as_array)
            .ok_or_else(|| at_line(path, line, "expected \"messages\", a list of messages"))?;
        let msgs = messages(path, items, line, whole, b)?;
        let tokens_in = reply.as_ref().and_then(|r| r.1);
        let refused = refusal(value).filter(|_| cut.is_none());
        if !parts.rebuilt {
            b.recorded_body(request, parts.response);
        }
        let asked = reply.is_some() || cut.is_some();
        b.request_or_record_refused(msgs, line, tokens_in, asked, refused);
    }
    if let Some(why) = &cut {
        b.cut(line, why);
    }
    for msg in reply.map(|r| r.0).unwrap_or_default() {
        b.push(msg);
    }
    Ok(())
}

/// Messages with string or block content, in order.
pub fn messages(
    path: &str,
    items: &[Value],
    line: usize,
    whole: bool,
    b: &mut Builder,
) -> Result<Vec<Msg>, ScenarioError> {
    let mut out = Vec::new();
    for (i, m) in items.iter().enumerate() {
        let at = if whole { i + 1 } else { line };
        let role = m.get("role").and_then(Value::as_str).ok_or_else(|| {
            at_line(
                path,
                line,
                format!("messages[{i}]: expected a message with a \"role\" (user or assistant)"),
            )
        })?;
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
