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

use serde::Deserialize;
use serde_json::{Map, Value};

use super::builder::{
    Builder, CallSpec, Msg, Span, args_of, args_of_json_text, offered_tools, text_of,
};
use super::format::{Format, PairRule};
use super::jsonl::Lines;
use super::reader::{Ask, At, Reader, Score, Seen};
use super::shape::{Lenient, Object, Present};
use crate::i18n;
use crate::load::ScenarioError;
use crate::provider::Provider;

/// OTLP JSON: a document, or one per line.
pub(crate) const READER: Reader = Reader::new(
    Format::Otel,
    i18n::FORMAT_OTEL,
    Provider::Chat,
    "OpenTelemetry GenAI spans in OTLP JSON",
)
.paired(PairRule::PartId)
.scored(|value, ask| match (value.get("resourceSpans"), ask.seen) {
    (None, _) => 0,
    (Some(_), Seen::FirstLine) => 140,
    (Some(_), Seen::Document) => 97,
})
.document(|at, value, b| {
    document(at, value, b)?;
    finish(b);
    Ok(())
})
.request(document)
.lines(|path, lines, b| {
    lines.each(|line, value| document(At::jsonl_line(path, line), &value, b))?;
    finish(b);
    Ok(())
});

/// Spans as the SDKs print them: a list, one a line, or one after another.
pub(crate) const SDK_READER: Reader = Reader::new(
    Format::OtelSdk,
    i18n::FORMAT_OTEL_SDK,
    Provider::Chat,
    "OpenTelemetry GenAI spans as the SDKs print them (`span.to_json()`, the console exporter): one object per span, attributes plain",
)
.paired(PairRule::PartId)
.scored(sdk_score)
.document(|_, value, b| {
    match sdk_spans(value) {
        Some(spans) => {
            for (i, span) in spans.iter().enumerate() {
                sdk_span(span, i + 1, b);
            }
        }
        None => sdk_span(value, 1, b),
    }
    finish(b);
    Ok(())
})
.lines(sdk_lines);

/// An SDK span, or a list that starts with one.
fn sdk_score(value: &Value, ask: &Ask) -> Score {
    let span = match sdk_spans(value) {
        Some(items) => items.first().is_some_and(is_sdk_span),
        None => is_sdk_span(value),
    };
    match (span, ask.seen) {
        (false, _) => 0,
        (true, Seen::FirstLine) => 130,
        (true, Seen::Document) => 95,
    }
}

/// A list of SDK spans: the list itself, or the `spans` of an any-agent
/// trace export (`AgentTrace`: `{spans, final_output}`).
fn sdk_spans(value: &Value) -> Option<&Vec<Value>> {
    match value {
        Value::Array(items) => Some(items),
        Value::Object(o) => o.get("spans").and_then(Value::as_array),
        _ => None,
    }
}

/// A span as the OpenTelemetry SDKs print it: a `name`, a `context` with
/// its `span_id`, and `attributes` as an object.
pub(crate) fn is_sdk_span(v: &Value) -> bool {
    v.get("name").is_some_and(Value::is_string)
        && v.pointer("/context/span_id").is_some()
        && v.get("attributes").is_some_and(Value::is_object)
}

/// One SDK span a line.
fn sdk_lines(_path: &str, lines: &mut Lines, b: &mut Builder) -> Result<(), ScenarioError> {
    lines.each(|line, value| {
        sdk_span(&value, line, b);
        Ok(())
    })?;
    finish(b);
    Ok(())
}

/// An OTLP JSON document: `resourceSpans`, each of `scopeSpans`, each of
/// `spans`. A span that is not an object is read as one of no fields
/// (listed as a span without an operation).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Document<'a> {
    #[serde(rename = "resourceSpans", borrow)]
    resource_spans: Lenient<Vec<Object<ResourceSpans<'a>>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ResourceSpans<'a> {
    #[serde(rename = "scopeSpans", borrow)]
    scope_spans: Lenient<Vec<Object<ScopeSpans<'a>>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ScopeSpans<'a> {
    #[serde(borrow)]
    spans: Lenient<Vec<Object<OtlpSpan<'a>>>>,
}

/// An OTLP span: its name, start time (int64 nanoseconds, a JSON string
/// in OTLP JSON), status and attributes.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct OtlpSpan<'a> {
    #[serde(borrow)]
    name: Lenient<&'a str>,
    #[serde(rename = "startTimeUnixNano", borrow)]
    start: Lenient<Int<'a>>,
    #[serde(borrow)]
    status: Object<Status<'a>>,
    #[serde(borrow)]
    attributes: Lenient<Vec<Object<KeyValue<'a>>>>,
}

/// An int64 as OTLP JSON writes it (a string), or as a JSON number; a
/// span status's code as a number (2: error) or as its enum name.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Int<'a> {
    Number(u64),
    Text(&'a str),
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Status<'a> {
    #[serde(borrow)]
    code: Lenient<Int<'a>>,
}

/// An attribute `{key, value}`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct KeyValue<'a> {
    #[serde(borrow)]
    key: Lenient<&'a str>,
    #[serde(borrow)]
    value: Object<AnyValue<'a>>,
}

/// An OTLP `AnyValue`: the first of its fields that is there (even null)
/// is the value.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct AnyValue<'a> {
    #[serde(rename = "stringValue")]
    string: Present<Value>,
    #[serde(rename = "intValue")]
    int: Present<Value>,
    #[serde(rename = "doubleValue")]
    double: Present<Value>,
    #[serde(rename = "boolValue")]
    boolean: Present<Value>,
    #[serde(rename = "arrayValue", borrow)]
    array: Object<ArrayValue<'a>>,
    #[serde(rename = "kvlistValue", borrow)]
    kvlist: Object<KvList<'a>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ArrayValue<'a> {
    #[serde(borrow)]
    values: Lenient<Vec<Object<AnyValue<'a>>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct KvList<'a> {
    /// There, whatever it holds: a value that is a list of attributes (of
    /// none when it is not a list).
    #[serde(borrow)]
    values: Present<Lenient<Vec<Object<KeyValue<'a>>>>>,
}

/// One span as an SDK prints it (`sdk_span`).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct SdkSpan<'a> {
    #[serde(borrow)]
    name: Lenient<&'a str>,
    attributes: Lenient<Map<String, Value>>,
    /// ISO 8601 (the SDKs' `to_json`) or nanoseconds (any-agent).
    start_time: Option<Value>,
    #[serde(borrow)]
    status: Object<SdkStatus<'a>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct SdkStatus<'a> {
    #[serde(borrow)]
    status_code: Lenient<&'a str>,
}

/// Collect the spans of one OTLP JSON document (or JSONL line).
pub fn document(at: At, value: &Value, b: &mut Builder) -> Result<(), ScenarioError> {
    let resource_spans = Object::<Document>::of(value)
        .resource_spans
        .0
        .ok_or_else(|| at.error("expected \"resourceSpans\", a list (OTLP JSON)"))?;
    for rs in resource_spans.into_iter().filter_map(|rs| rs.0) {
        let scopes = rs.scope_spans.0.unwrap_or_default();
        for scope in scopes.into_iter().filter_map(|scope| scope.0) {
            for span in scope.spans.0.unwrap_or_default() {
                let span = span.0.unwrap_or_default();
                let line = at.item(b.spans.len());
                let start = match span.start.0 {
                    Some(Int::Text(s)) => s.parse().unwrap_or(0),
                    Some(Int::Number(n)) => n as u128,
                    None => 0,
                };
                let code = span.status.0.and_then(|s| s.code.0);
                let error = matches!(code, Some(Int::Number(2) | Int::Text("STATUS_CODE_ERROR")));
                collect(
                    span.name.0.unwrap_or(""),
                    attributes(span.attributes.0.unwrap_or_default()),
                    start,
                    error,
                    line,
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
    let span = Object::<SdkSpan>::of(value);
    let name = span.name.0.unwrap_or("");
    let attributes = span.attributes.0.unwrap_or_default();
    // The time's digits, in order: the SDKs write one fixed ISO form, so
    // they sort as the times do.
    let start = match &span.start_time {
        Some(Value::Number(n)) => n.as_u64().map_or(0, u128::from),
        Some(Value::String(t)) => t
            .chars()
            .filter(char::is_ascii_digit)
            .take(38)
            .collect::<String>()
            .parse::<u128>()
            .unwrap_or(0),
        _ => 0,
    };
    let error = span
        .status
        .0
        .and_then(|s| s.status_code.0)
        .is_some_and(|c| c.eq_ignore_ascii_case("ERROR"));
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
    let op = match op.as_str() {
        "call_llm" => {
            any_agent_call(&mut attributes);
            "chat"
        }
        "execute_tool" => {
            any_agent_tool(&mut attributes);
            "execute_tool"
        }
        op => op,
    };
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
fn attributes(list: Vec<Object<KeyValue>>) -> Map<String, Value> {
    let mut out = Map::new();
    for kv in list.into_iter().filter_map(|kv| kv.0) {
        let Some(key) = kv.key.0 else {
            continue;
        };
        out.insert(key.to_string(), any_value(kv.value.0));
    }
    out
}

/// An attribute's value as JSON; null when it is not an `AnyValue`.
fn any_value(v: Option<AnyValue>) -> Value {
    let Some(v) = v else {
        return Value::Null;
    };
    if v.string.there {
        return v.string.value;
    }
    if v.int.there {
        // int64 is written as a JSON string in OTLP JSON.
        return match v.int.value {
            Value::String(s) => s.parse::<i64>().map_or(Value::String(s), Value::from),
            other => other,
        };
    }
    if v.double.there {
        return v.double.value;
    }
    if v.boolean.there {
        return v.boolean.value;
    }
    if let Some(values) = v.array.0.and_then(|a| a.values.0) {
        return Value::Array(values.into_iter().map(|v| any_value(v.0)).collect());
    }
    if let Some(list) = v.kvlist.0
        && list.values.there
    {
        // A structured value (messages recorded as objects, not JSON text).
        return Value::Object(attributes(list.values.value.0.unwrap_or_default()));
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

/// The output an any-agent span records: `gen_ai.output` (`genai.output`
/// before any-agent 0.20) and its `.type`.
fn any_agent_output(a: &Map<String, Value>) -> Option<(Value, bool)> {
    let (output, kind) = ["gen_ai.output", "genai.output"]
        .into_iter()
        .find_map(|k| Some((a.get(k)?.clone(), a.get(&format!("{k}.type")))))?;
    Some((output, kind.and_then(Value::as_str) == Some("json")))
}

/// An any-agent `call_llm` span, in the GenAI conventions' terms: its
/// input messages are Chat messages (`{role, content}`), its output the
/// reply's text or, as JSON, its calls (`[{name, arguments}]`, with no
/// ids: `finish` pairs them with the tool spans in order).
fn any_agent_call(a: &mut Map<String, Value>) {
    a.insert("gen_ai.operation.name".into(), "chat".into());
    if let Some(Value::Array(messages)) = json_attr(a, "gen_ai.input.messages") {
        let messages: Vec<Value> = messages
            .into_iter()
            .map(|m| {
                let text = m.get("content").map(text_of).unwrap_or_default();
                let part = match m.get("tool_call_id") {
                    Some(id) => serde_json::json!({"type": "tool_call_response", "id": id, "response": text}),
                    None => serde_json::json!({"type": "text", "content": text}),
                };
                match m.get("parts") {
                    Some(_) => m,
                    None => serde_json::json!({"role": m.get("role").cloned().unwrap_or_default(), "parts": [part]}),
                }
            })
            .collect();
        a.insert("gen_ai.input.messages".into(), Value::Array(messages));
    }
    if a.contains_key("gen_ai.output.messages") {
        return;
    }
    let Some((output, json)) = any_agent_output(a) else {
        return;
    };
    let calls = match (json, &output) {
        (true, Value::String(s)) => serde_json::from_str::<Vec<Value>>(s).ok(),
        (true, Value::Array(list)) => Some(list.clone()),
        _ => None,
    };
    let parts: Vec<Value> = match calls {
        Some(calls) => calls.iter().map(any_agent_call_part).collect(),
        None => vec![serde_json::json!({"type": "text", "content": text_of(&output)})],
    };
    let reply = serde_json::json!([{"role": "assistant", "parts": parts}]);
    a.insert("gen_ai.output.messages".into(), reply);
}

/// One call of an any-agent output, `{"tool.name", "tool.args"}`,
/// earlier `{name, arguments}` or (the OpenAI framework's) Chat's `{id,
/// function: {name, arguments}}`, as a part.
fn any_agent_call_part(c: &Value) -> Value {
    let f = c.get("function").unwrap_or(c);
    let field = |key: &str, dotted: &str| {
        f.get(key)
            .or_else(|| c.get(dotted))
            .cloned()
            .unwrap_or_default()
    };
    let mut part = serde_json::json!({
        "type": "tool_call",
        "name": field("name", "tool.name"),
        "arguments": field("arguments", "tool.args"),
    });
    if let Some(id) = c.get("id").filter(|id| id.is_string()) {
        part["id"] = id.clone();
    }
    part
}

/// An any-agent `execute_tool` span: its result is its output.
fn any_agent_tool(a: &mut Map<String, Value>) {
    if !a.contains_key("gen_ai.tool.call.result")
        && let Some((output, _)) = any_agent_output(a)
    {
        a.insert("gen_ai.tool.call.result".into(), output);
    }
}

/// Calls that name no id (any-agent's `call_llm` output): each gets one
/// (`call-N`, in order), and each tool span answers the earliest call of
/// its tool's name still unanswered. A tool span that records its own id
/// (`gen_ai.tool.call.id`: Agno's, Google ADK's) gives that call its id;
/// one that records none takes the call's. Says so, when it does.
fn ids_by_order(spans: &mut [Span], b: &mut Builder) {
    let mut open: Vec<(String, String)> = Vec::new();
    // A call numbered here → the id its tool span records.
    let mut from_tools: HashMap<String, String> = HashMap::new();
    let mut given = 0;
    for span in spans.iter_mut() {
        let a = &mut span.attributes;
        if a.get("gen_ai.operation.name").and_then(Value::as_str) == Some("execute_tool") {
            let name = a
                .get("gen_ai.tool.name")
                .and_then(Value::as_str)
                .unwrap_or("");
            let Some(k) = open.iter().position(|(n, _)| n == name) else {
                continue;
            };
            let (_, id) = open.remove(k);
            match a.get("gen_ai.tool.call.id").and_then(Value::as_str) {
                Some(own) => {
                    from_tools.insert(id, own.to_string());
                }
                None => {
                    a.insert("gen_ai.tool.call.id".into(), id.into());
                }
            }
            continue;
        }
        for part in tool_call_parts(a).filter(|p| p.get("id").is_none()) {
            given += 1;
            let id = format!("call-{given}");
            let name = part.get("name").map(text_of).unwrap_or_default();
            open.push((name, id.clone()));
            part["id"] = id.into();
        }
    }
    if !from_tools.is_empty() {
        for span in spans.iter_mut() {
            for part in tool_call_parts(&mut span.attributes) {
                let own = part.get("id").and_then(Value::as_str);
                if let Some(own) = own.and_then(|id| from_tools.get(id)) {
                    part["id"] = own.clone().into();
                }
            }
        }
        b.note(super::text::fixed(i18n::OTEL_CALL_IDS_FROM_TOOLS));
    } else if given > 0 {
        b.note(super::text::fixed(i18n::OTEL_CALLS_BY_ORDER));
    }
}

/// The `tool_call` parts of an inference span's output messages.
fn tool_call_parts(a: &mut Map<String, Value>) -> impl Iterator<Item = &mut Value> {
    a.get_mut("gen_ai.output.messages")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(|m| m.get_mut("parts")?.as_array_mut())
        .flatten()
        .filter(|p| p.get("type").and_then(Value::as_str) == Some("tool_call"))
}

/// Replay the collected spans in order of start time.
pub fn finish(b: &mut Builder) {
    let mut spans = std::mem::take(&mut b.spans);
    spans.sort_by_key(|s| s.start);
    ids_by_order(&mut spans, b);
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
        let requested = match json_attr(a, "gen_ai.input.messages") {
            Some(Value::Array(messages)) => {
                for m in &messages {
                    message(m, span.line, None, &mut input, b);
                }
                b.request(input, span.line, tokens("gen_ai.usage.input_tokens"));
                true
            }
            _ => false,
        };
        if let Some(Value::Array(messages)) = json_attr(a, "gen_ai.output.messages") {
            let mut out = Vec::new();
            let mut tokens_out = tokens("gen_ai.usage.output_tokens");
            for m in &messages {
                message(m, span.line, tokens_out.take(), &mut out, b);
            }
            // Each inference span is a model call of its own: its reply
            // never joins the one before, even with no input messages
            // between them (any-agent's text answer, then its
            // structured-output call).
            let mut first = true;
            for msg in out {
                match msg {
                    Msg::Assistant { .. } if first => {
                        first = false;
                        b.push_reply(msg);
                    }
                    msg => b.push(msg),
                }
            }
            // No request carried the call's input tokens: its reply does.
            if !requested && !first {
                b.tokens(tokens("gen_ai.usage.input_tokens"), None);
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
                item_id: None,
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
