//! OpenTelemetry GenAI spans in OTLP JSON (resourceSpans → scopeSpans →
//! spans), as the GenAI semantic conventions define them (v0.1.0 of
//! open-telemetry/semantic-conventions-genai, which continues
//! semantic-conventions v1.41.0; status: development). Inference spans
//! (`gen_ai.operation.name` = chat) carry `gen_ai.input.messages` and
//! `gen_ai.output.messages` (JSON: messages of parts `text`, `tool_call`,
//! `tool_call_response`); `execute_tool` spans carry `gen_ai.tool.name`,
//! `gen_ai.tool.call.id` and an error as the span status. Spans are
//! replayed in order of start time.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::builder::{
    Builder, CallSpec, Msg, Span, args_of, args_of_json_text, offered_tools, text_of,
};
use super::errors::at_line;
use crate::load::ScenarioError;

/// Collect the spans of one OTLP JSON document (or JSONL line).
pub fn document(
    path: &str,
    value: &Value,
    line: usize,
    whole: bool,
    b: &mut Builder,
) -> Result<(), ScenarioError> {
    let resource_spans = value
        .get("resourceSpans")
        .and_then(Value::as_array)
        .ok_or_else(|| at_line(path, line, "expected \"resourceSpans\", a list (OTLP JSON)"))?;
    for rs in resource_spans {
        let scopes = rs
            .get("scopeSpans")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        for scope in scopes {
            let spans = scope
                .get("spans")
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice);
            for span in spans {
                let at = if whole { b.spans.len() + 1 } else { line };
                let start = match span.get("startTimeUnixNano") {
                    Some(Value::String(s)) => s.parse().unwrap_or(0),
                    Some(Value::Number(n)) => n.as_u64().unwrap_or(0) as u128,
                    _ => 0,
                };
                let code = span.pointer("/status/code");
                let error = matches!(code, Some(Value::Number(n)) if n.as_u64() == Some(2))
                    || code.and_then(Value::as_str) == Some("STATUS_CODE_ERROR");
                let name = span.get("name").and_then(Value::as_str).unwrap_or("");
                collect(
                    name,
                    attributes(span.get("attributes")),
                    start,
                    error,
                    at,
                    b,
                );
            }
        }
    }
    Ok(())
}

/// One span as the OpenTelemetry SDKs print it (`span.to_json()`, the
/// console exporter): `name`, `context.span_id`, `start_time` (ISO 8601),
/// `status.status_code` (`ERROR`), and `attributes` as a plain object.
pub fn sdk_span(value: &Value, at: usize, b: &mut Builder) {
    let name = value.get("name").and_then(Value::as_str).unwrap_or("");
    let attributes = value
        .get("attributes")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    // The time's digits, in order: the SDKs write one fixed ISO form, so
    // they sort as the times do.
    let start = value
        .get("start_time")
        .and_then(Value::as_str)
        .map(|t| {
            t.chars()
                .filter(char::is_ascii_digit)
                .take(38)
                .collect::<String>()
        })
        .and_then(|d| d.parse::<u128>().ok())
        .unwrap_or(0);
    let error = value.pointer("/status/status_code").and_then(Value::as_str) == Some("ERROR");
    collect(name, attributes, start, error, at, b);
}

/// Keep a GenAI span for `finish`; list any other span as not drawn.
fn collect(
    name: &str,
    attributes: Map<String, Value>,
    start: u128,
    error: bool,
    at: usize,
    b: &mut Builder,
) {
    // The operation, or else the first word of the span's name
    // ("chat gpt-4.1", "execute_tool read_file").
    let mut attributes = attributes;
    let op = match attributes
        .get("gen_ai.operation.name")
        .and_then(Value::as_str)
    {
        Some(op) => op.to_string(),
        None => {
            let first = name.split(' ').next().unwrap_or("");
            if matches!(first, "chat" | "execute_tool") {
                attributes.insert("gen_ai.operation.name".into(), first.into());
            }
            first.to_string()
        }
    };
    let op = op.as_str();
    if !matches!(
        op,
        "chat" | "text_completion" | "generate_content" | "execute_tool"
    ) {
        let what = if op.is_empty() || !attributes.contains_key("gen_ai.operation.name") {
            "span without gen_ai.operation.name".to_string()
        } else {
            format!("{op} span")
        };
        b.skip(&what, at);
        return;
    }
    b.spans.push(Span {
        start,
        line: at,
        attributes,
        error,
    });
}

/// OTLP attributes `[{key, value: {stringValue | intValue | …}}]` as a map.
fn attributes(list: Option<&Value>) -> Map<String, Value> {
    let mut out = Map::new();
    for kv in list
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
    {
        let Some(key) = kv.get("key").and_then(Value::as_str) else {
            continue;
        };
        out.insert(
            key.to_string(),
            any_value(kv.get("value").unwrap_or(&Value::Null)),
        );
    }
    out
}

fn any_value(v: &Value) -> Value {
    if let Some(s) = v.get("stringValue") {
        return s.clone();
    }
    if let Some(i) = v.get("intValue") {
        // int64 is written as a JSON string in OTLP JSON.
        return match i {
            Value::String(s) => s.parse::<i64>().map_or(i.clone(), Value::from),
            other => other.clone(),
        };
    }
    if let Some(d) = v.get("doubleValue").or_else(|| v.get("boolValue")) {
        return d.clone();
    }
    if let Some(values) = v.pointer("/arrayValue/values").and_then(Value::as_array) {
        return Value::Array(values.iter().map(any_value).collect());
    }
    if let Some(values) = v.pointer("/kvlistValue/values") {
        // A structured value (messages recorded as objects, not JSON text).
        return Value::Object(attributes(Some(values)));
    }
    Value::Null
}

/// A structured attribute: a JSON string (as recorded on spans) or a value.
fn json_attr(attrs: &Map<String, Value>, key: &str) -> Option<Value> {
    match attrs.get(key)? {
        Value::String(s) => serde_json::from_str(s).ok(),
        Value::Null => None,
        other => Some(other.clone()),
    }
}

/// Replay the collected spans in order of start time.
pub fn finish(b: &mut Builder) {
    let mut spans = std::mem::take(&mut b.spans);
    spans.sort_by_key(|s| s.start);
    // A tool span may not record its result (`gen_ai.tool.call.result` is
    // opt-in); the next inference span's input then holds it.
    let mut responses: HashMap<String, String> = HashMap::new();
    for span in &spans {
        if let Some(Value::Array(messages)) = json_attr(&span.attributes, "gen_ai.input.messages") {
            for part in messages
                .iter()
                .filter_map(|m| m.get("parts")?.as_array())
                .flatten()
            {
                if part.get("type").and_then(Value::as_str) == Some("tool_call_response")
                    && let Some(id) = part.get("id").and_then(Value::as_str)
                {
                    responses.insert(id.to_string(), response_text(part.get("response")));
                }
            }
        }
    }
    for span in spans {
        let a = &span.attributes;
        if a.get("gen_ai.operation.name").and_then(Value::as_str) == Some("execute_tool") {
            let id = a
                .get("gen_ai.tool.call.id")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let text = match json_attr(a, "gen_ai.tool.call.result")
                .or_else(|| a.get("gen_ai.tool.call.result").cloned())
            {
                Some(v) => response_text(Some(&v)),
                None => responses.get(&id).cloned().unwrap_or_default(),
            };
            b.push(Msg::Tool {
                call_id: id,
                text,
                is_error: span.error,
                line: span.line,
            });
            continue;
        }
        if let Some(Value::Array(parts)) = json_attr(a, "gen_ai.system_instructions") {
            b.system(&parts.iter().map(part_text).collect::<Vec<_>>().join("\n"));
        }
        if let Some(Value::Array(tools)) = json_attr(a, "gen_ai.tool.definitions") {
            b.tools(offered_tools(&tools, "parameters"));
        }
        let tokens = |k: &str| a.get(k).and_then(Value::as_u64);
        let mut input = Vec::new();
        if let Some(Value::Array(messages)) = json_attr(a, "gen_ai.input.messages") {
            for m in &messages {
                message(m, span.line, None, &mut input, b);
            }
            b.request(input, span.line, tokens("gen_ai.usage.input_tokens"));
        }
        if let Some(Value::Array(messages)) = json_attr(a, "gen_ai.output.messages") {
            let mut out = Vec::new();
            let mut tokens_out = tokens("gen_ai.usage.output_tokens");
            for m in &messages {
                message(m, span.line, tokens_out.take(), &mut out, b);
            }
            for msg in out {
                b.push(msg);
            }
        }
    }
}

/// One GenAI message `{role, parts}` as messages of the trace.
fn message(m: &Value, line: usize, tokens_out: Option<u64>, out: &mut Vec<Msg>, b: &mut Builder) {
    let role = m.get("role").and_then(Value::as_str).unwrap_or("");
    let parts = m
        .get("parts")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let mut texts = Vec::new();
    let mut calls = Vec::new();
    for part in parts {
        match part.get("type").and_then(Value::as_str).unwrap_or("") {
            "tool_call" => calls.push(CallSpec {
                id: part
                    .get("id")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                name: part
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                args: match part.get("arguments") {
                    Some(Value::String(s)) => args_of_json_text(s),
                    Some(v) => args_of(v),
                    None => Default::default(),
                },
            }),
            "tool_call_response" => out.push(Msg::Tool {
                call_id: part
                    .get("id")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                text: response_text(part.get("response")),
                is_error: false,
                line,
            }),
            "reasoning" => {}
            _ => texts.push(part_text(part)),
        }
    }
    let text = texts.join("\n");
    match role {
        "assistant" => out.push(Msg::Assistant {
            text,
            calls,
            tokens_out,
            line,
        }),
        "system" => b.system(&text),
        _ if !text.is_empty() => out.push(Msg::User { text, line }),
        _ => {}
    }
}

fn part_text(part: &Value) -> String {
    match part.get("content") {
        Some(c) => text_of(c),
        None => format!(
            "[{}]",
            part.get("type").and_then(Value::as_str).unwrap_or("part")
        ),
    }
}

fn response_text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    }
}
