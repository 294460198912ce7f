//! A streamed response put back together as the object the provider
//! would have sent unstreamed: server-sent events parsed from any slices
//! of the stream (`Sse`), then each API's events assembled (`Assembly`):
//! Chat Completions chunks, Responses events, Anthropic Messages events.

use serde_json::{Map, Value, json};

use crate::wire::Provider;

/// Server-sent events, parsed from any slices of the stream.
#[derive(Default)]
pub(super) struct Sse {
    pending: Vec<u8>,
    event: String,
    data: String,
}

impl Sse {
    pub(super) fn feed(&mut self, bytes: &[u8]) -> Vec<(String, String)> {
        self.pending.extend_from_slice(bytes);
        let mut out = Vec::new();
        let mut start = 0;
        while let Some(nl) = self.pending[start..].iter().position(|&b| b == b'\n') {
            let line = &self.pending[start..start + nl];
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let line = String::from_utf8_lossy(line).into_owned();
            start += nl + 1;
            if line.is_empty() {
                if !self.data.is_empty() || !self.event.is_empty() {
                    out.push((
                        std::mem::take(&mut self.event),
                        std::mem::take(&mut self.data),
                    ));
                }
                continue;
            }
            let (field, value) = match line.split_once(':') {
                Some((f, v)) => (f.to_string(), v.strip_prefix(' ').unwrap_or(v).to_string()),
                None => (line.clone(), String::new()),
            };
            match field.as_str() {
                "event" => self.event = value,
                "data" => {
                    if !self.data.is_empty() {
                        self.data.push('\n');
                    }
                    self.data.push_str(&value);
                }
                _ => {}
            }
        }
        self.pending.drain(..start);
        out
    }
}

/// A streamed response put back together as the unstreamed object.
pub(super) enum Assembly {
    Chat {
        base: Map<String, Value>,
        choices: Vec<(u64, ChatChoice)>,
        usage: Option<Value>,
        /// `data: [DONE]` came.
        done: bool,
    },
    Responses {
        response: Option<Value>,
        items: Vec<(u64, Value)>,
        done: bool,
        error: Option<Value>,
    },
    Anthropic {
        message: Option<Value>,
        blocks: Vec<(u64, Value, String)>,
        error: Option<Value>,
        /// `message_stop` came.
        stopped: bool,
    },
}

#[derive(Default)]
pub(super) struct ChatChoice {
    role: Option<Value>,
    content: Option<String>,
    refusal: Option<String>,
    calls: Vec<(u64, Map<String, Value>, String, String)>,
    finish: Option<Value>,
}

fn index_of(v: &Value) -> u64 {
    v.get("index")
        .or_else(|| v.get("output_index"))
        .and_then(Value::as_u64)
        .unwrap_or(0)
}

fn slot<T: Default>(list: &mut Vec<(u64, T)>, index: u64) -> &mut T {
    let at = match list.iter().position(|(i, _)| *i == index) {
        Some(at) => at,
        None => {
            list.push((index, T::default()));
            list.len() - 1
        }
    };
    &mut list[at].1
}

impl Assembly {
    pub(super) fn new(provider: Provider) -> Assembly {
        match provider {
            Provider::Chat => Assembly::Chat {
                base: Map::new(),
                choices: Vec::new(),
                usage: None,
                done: false,
            },
            Provider::Responses => Assembly::Responses {
                response: None,
                items: Vec::new(),
                done: false,
                error: None,
            },
            Provider::Anthropic => Assembly::Anthropic {
                message: None,
                blocks: Vec::new(),
                error: None,
                stopped: false,
            },
        }
    }

    pub(super) fn event(&mut self, event: &str, data: &str) {
        if data == "[DONE]" {
            if let Assembly::Chat { done, .. } = self {
                *done = true;
            }
            return;
        }
        let Ok(v) = serde_json::from_str::<Value>(data) else {
            return;
        };
        match self {
            Assembly::Chat {
                base,
                choices,
                usage,
                ..
            } => chat_event(&v, base, choices, usage),
            Assembly::Responses {
                response,
                items,
                done,
                error,
            } => responses_event(&v, event, response, items, done, error),
            Assembly::Anthropic {
                message,
                blocks,
                error,
                stopped,
            } => {
                let kind = v.get("type").and_then(Value::as_str).unwrap_or(event);
                *stopped |= kind == "message_stop";
                anthropic_event(&v, event, message, blocks, error);
            }
        }
    }

    /// Why the stream is not whole, if it is not: it never sent the
    /// event its API ends a stream with (Chat `data: [DONE]`, or a
    /// `finish_reason` on every choice; Responses `response.completed`,
    /// `.failed` or `.incomplete`; Anthropic `message_stop`). An upstream
    /// that frames its stream by closing the connection (no length, not
    /// chunked) and is killed mid-stream ends its HTTP body cleanly: only
    /// this tells the cut, as it tells the SDKs (the `openai` SDK's "Didn't
    /// receive a `response.completed` event").
    pub(super) fn unfinished(&self) -> Option<String> {
        let (last, error) = match self {
            Assembly::Chat { choices, done, .. } => {
                let finished =
                    !choices.is_empty() && choices.iter().all(|(_, c)| c.finish.is_some());
                if *done || finished {
                    return None;
                }
                ("data: [DONE]", false)
            }
            Assembly::Responses { done, error, .. } => {
                if *done {
                    return None;
                }
                ("response.completed", error.is_some())
            }
            Assembly::Anthropic { stopped, error, .. } => {
                if *stopped {
                    return None;
                }
                ("message_stop", error.is_some())
            }
        };
        Some(if error {
            format!("the stream ended with an error event, without {last}")
        } else {
            format!(
                "the stream ended without {last}: the upstream closed it before the response ended"
            )
        })
    }

    pub(super) fn value(&self) -> Value {
        match self {
            Assembly::Chat {
                base,
                choices,
                usage,
                ..
            } => {
                let mut out = base.clone();
                out.insert("object".into(), json!("chat.completion"));
                let choices: Vec<Value> = choices
                    .iter()
                    .map(|(i, c)| {
                        let mut msg = Map::new();
                        msg.insert("role".into(), c.role.clone().unwrap_or(json!("assistant")));
                        msg.insert("content".into(), json!(c.content));
                        if let Some(r) = &c.refusal {
                            msg.insert("refusal".into(), json!(r));
                        }
                        if !c.calls.is_empty() {
                            let calls: Vec<Value> = c
                                .calls
                                .iter()
                                .map(|(_, fields, name, args)| {
                                    let mut call = fields.clone();
                                    call.entry("type").or_insert(json!("function"));
                                    call.insert(
                                        "function".into(),
                                        json!({"name": name, "arguments": args}),
                                    );
                                    Value::Object(call)
                                })
                                .collect();
                            msg.insert("tool_calls".into(), Value::Array(calls));
                        }
                        json!({"index": i, "message": msg, "finish_reason": c.finish})
                    })
                    .collect();
                out.insert("choices".into(), Value::Array(choices));
                if let Some(u) = usage {
                    out.insert("usage".into(), u.clone());
                }
                Value::Object(out)
            }
            Assembly::Responses {
                response,
                items,
                done,
                error,
            } => {
                let mut out = response
                    .clone()
                    .unwrap_or_else(|| json!({"object": "response"}));
                if !done && out.is_object() {
                    let mut items: Vec<&(u64, Value)> = items.iter().collect();
                    items.sort_by_key(|(i, _)| *i);
                    out["output"] =
                        Value::Array(items.into_iter().map(|(_, v)| v.clone()).collect());
                }
                if let (Some(e), true) = (error, out.is_object()) {
                    out["error"] = e.clone();
                }
                out
            }
            Assembly::Anthropic {
                message,
                blocks,
                error,
                ..
            } => {
                let mut out = message
                    .clone()
                    .unwrap_or_else(|| json!({"type": "message"}));
                let mut blocks: Vec<&(u64, Value, String)> = blocks.iter().collect();
                blocks.sort_by_key(|(i, _, _)| *i);
                let content: Vec<Value> = blocks
                    .into_iter()
                    .map(|(_, b, json_text)| {
                        let mut b = b.clone();
                        if !json_text.is_empty() {
                            b["input"] = serde_json::from_str(json_text)
                                .unwrap_or_else(|_| Value::String(json_text.clone()));
                        }
                        b
                    })
                    .collect();
                if out.is_object() {
                    out["content"] = Value::Array(content);
                    if let Some(e) = error {
                        out["error"] = e.clone();
                    }
                }
                out
            }
        }
    }
}

/// A Chat Completions chunk: the choices' deltas appended by index, the
/// call pieces by their index within the choice.
fn chat_event(
    v: &Value,
    base: &mut Map<String, Value>,
    choices: &mut Vec<(u64, ChatChoice)>,
    usage: &mut Option<Value>,
) {
    if let Some(e) = v.get("error") {
        base.insert("error".into(), e.clone());
    }
    for key in [
        "id",
        "created",
        "model",
        "system_fingerprint",
        "service_tier",
    ] {
        if let Some(x) = v.get(key) {
            base.insert(key.into(), x.clone());
        }
    }
    if let Some(u) = v.get("usage").filter(|u| !u.is_null()) {
        *usage = Some(u.clone());
    }
    for c in v
        .get("choices")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let choice = slot(choices, index_of(c));
        if let Some(f) = c.get("finish_reason").filter(|f| !f.is_null()) {
            choice.finish = Some(f.clone());
        }
        let Some(delta) = c.get("delta") else {
            continue;
        };
        if let Some(r) = delta.get("role") {
            choice.role = Some(r.clone());
        }
        if let Some(t) = delta.get("content").and_then(Value::as_str) {
            choice.content.get_or_insert_default().push_str(t);
        }
        if let Some(t) = delta.get("refusal").and_then(Value::as_str) {
            choice.refusal.get_or_insert_default().push_str(t);
        }
        for call in delta
            .get("tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let i = index_of(call);
            let at = match choice.calls.iter().position(|c| c.0 == i) {
                Some(at) => at,
                None => {
                    choice
                        .calls
                        .push((i, Map::new(), String::new(), String::new()));
                    choice.calls.len() - 1
                }
            };
            let (_, fields, name, args) = &mut choice.calls[at];
            for key in ["id", "type"] {
                if let Some(x) = call.get(key) {
                    fields.insert(key.into(), x.clone());
                }
            }
            if let Some(f) = call.get("function") {
                if let Some(n) = f.get("name").and_then(Value::as_str) {
                    name.push_str(n);
                }
                if let Some(a) = f.get("arguments").and_then(Value::as_str) {
                    args.push_str(a);
                }
            }
        }
    }
}

/// A Responses stream event: items set whole when added or done, text and
/// arguments appended by the deltas in between.
fn responses_event(
    v: &Value,
    event: &str,
    response: &mut Option<Value>,
    items: &mut Vec<(u64, Value)>,
    done: &mut bool,
    error: &mut Option<Value>,
) {
    let kind = v.get("type").and_then(Value::as_str).unwrap_or(event);
    match kind {
        "response.created" | "response.in_progress" | "response.queued" => {
            if let Some(r) = v.get("response") {
                *response = Some(r.clone());
            }
        }
        "response.completed" | "response.failed" | "response.incomplete" => {
            if let Some(r) = v.get("response") {
                *response = Some(r.clone());
                *done = true;
            }
        }
        "response.output_item.added" | "response.output_item.done" => {
            if let Some(item) = v.get("item") {
                *slot(items, index_of(v)) = item.clone();
            }
        }
        "response.output_text.delta" | "response.refusal.delta" => {
            let item = slot(items, index_of(v));
            let ci = v.get("content_index").and_then(Value::as_u64).unwrap_or(0) as usize;
            let delta = v.get("delta").and_then(Value::as_str).unwrap_or_default();
            let field = if kind == "response.refusal.delta" {
                "refusal"
            } else {
                "text"
            };
            if let Some(content) = item.get_mut("content").and_then(Value::as_array_mut) {
                while content.len() <= ci {
                    let t = if field == "text" {
                        "output_text"
                    } else {
                        "refusal"
                    };
                    content.push(json!({"type": t, field: ""}));
                }
                if let Some(Value::String(s)) = content[ci].get_mut(field) {
                    s.push_str(delta);
                } else {
                    content[ci][field] = json!(delta);
                }
            }
        }
        "response.function_call_arguments.delta" => {
            let item = slot(items, index_of(v));
            let delta = v.get("delta").and_then(Value::as_str).unwrap_or_default();
            if let Some(Value::String(s)) = item.get_mut("arguments") {
                s.push_str(delta);
            } else if item.is_object() {
                item["arguments"] = json!(delta);
            }
        }
        "error" => *error = Some(v.clone()),
        _ => {}
    }
}

/// An Anthropic Messages stream event: blocks started, then their deltas
/// appended, the message's delta and usage merged in.
fn anthropic_event(
    v: &Value,
    event: &str,
    message: &mut Option<Value>,
    blocks: &mut Vec<(u64, Value, String)>,
    error: &mut Option<Value>,
) {
    let kind = v.get("type").and_then(Value::as_str).unwrap_or(event);
    match kind {
        "message_start" => *message = v.get("message").cloned(),
        "content_block_start" => {
            if let Some(b) = v.get("content_block") {
                let i = index_of(v);
                blocks.retain(|(j, _, _)| *j != i);
                blocks.push((i, b.clone(), String::new()));
            }
        }
        "content_block_delta" => {
            let i = index_of(v);
            let Some((_, block, json_text)) = blocks.iter_mut().find(|(j, _, _)| *j == i) else {
                return;
            };
            let Some(delta) = v.get("delta") else { return };
            let append = |block: &mut Value, field: &str, key: &str| {
                let piece = delta.get(key).and_then(Value::as_str).unwrap_or_default();
                match block.get_mut(field) {
                    Some(Value::String(s)) => s.push_str(piece),
                    _ => block[field] = json!(piece),
                }
            };
            match delta
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or_default()
            {
                "text_delta" => append(block, "text", "text"),
                "thinking_delta" => append(block, "thinking", "thinking"),
                "signature_delta" => append(block, "signature", "signature"),
                "citations_delta" => {
                    if let Some(c) = delta.get("citation") {
                        match block.get_mut("citations") {
                            Some(Value::Array(list)) => list.push(c.clone()),
                            _ => block["citations"] = json!([c]),
                        }
                    }
                }
                "input_json_delta" => json_text.push_str(
                    delta
                        .get("partial_json")
                        .and_then(Value::as_str)
                        .unwrap_or_default(),
                ),
                _ => {}
            }
        }
        "message_delta" => {
            let Some(Value::Object(m)) = message else {
                return;
            };
            if let Some(Value::Object(d)) = v.get("delta") {
                for (k, x) in d {
                    m.insert(k.clone(), x.clone());
                }
            }
            if let Some(Value::Object(u)) = v.get("usage") {
                let usage = m.entry("usage").or_insert_with(|| json!({}));
                if let Value::Object(have) = usage {
                    for (k, x) in u {
                        have.insert(k.clone(), x.clone());
                    }
                }
            }
        }
        "error" => *error = v.get("error").cloned().or(Some(v.clone())),
        _ => {}
    }
}
