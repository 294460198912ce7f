//! Request and response bodies, built from the trace in one provider's
//! shape, and where each message of the trace sits in them.
//!
//! A body is built only when it is asked for (the wire view, `export
//! --format requests`); what the screen needs at every step, the place and
//! size of each message, is computed once per trace by `measure`, so the
//! size of every request is known without serialising it.
//!
//! Long because request bodies, rebuilt responses, and every message's place,
//! size and tokens follow the same three provider shapes and change together;
//! an eighth of it is tests.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::place::{CallMeasure, Measures, Place};
use crate::provider::Provider;
use crate::scenario::ToolChoice;
use crate::tokens;
use crate::tokens::Counts;
use crate::trace::{CallId, Message, ModelCall, Role, Thinking, ToolCall, Trace};

use super::thinking;

/// The model an OpenAI body names: the scripted model stands in for it.
pub const OPENAI_MODEL: &str = "gpt-4.1";
/// The model an Anthropic body names.
pub const ANTHROPIC_MODEL: &str = "claude-sonnet-4-5";
/// Anthropic requires `max_tokens` on every request.
pub const MAX_TOKENS: u32 = 1024;

/// The model a lesson's bodies name (its scripted model stands in for
/// it); None for a replayed run's body rebuilt from its messages, whose
/// file does not record the model: none is invented.
pub fn model(trace: &Trace) -> Option<&str> {
    if trace.recorded.is_some() {
        return None;
    }
    Some(match trace.provider {
        Provider::Anthropic => ANTHROPIC_MODEL,
        Provider::Chat | Provider::Responses if trace.thinking != Thinking::Off => {
            thinking::OPENAI_REASONING_MODEL
        }
        Provider::Chat | Provider::Responses => OPENAI_MODEL,
    })
}

/// The model call's request as recorded, parsed; None where it is rebuilt.
fn recorded_request(trace: &Trace, index: usize) -> Option<Value> {
    let body = trace.model_calls[index].body.as_ref()?;
    serde_json::from_str(&body.request).ok()
}

/// Where the items new since the call before start in model call
/// `index`'s recorded list (`list`, its `messages` or `input`): after the
/// items of the previous call's recorded list, where this list begins with
/// them (Anthropic's `cache_control` marks aside: clients move them to the
/// newest message on every call). None where that cannot be told: the
/// previous body is not recorded, or this list does not extend it.
pub fn recorded_new_from(trace: &Trace, index: usize, list: &[Value]) -> Option<usize> {
    let Some(prev) = index.checked_sub(1) else {
        return Some(0);
    };
    let before = recorded_request(trace, prev)?;
    let before = before.get(list_key(trace.provider))?.as_array()?;
    let extends = before.len() <= list.len()
        && before
            .iter()
            .zip(list)
            .all(|(a, b)| unmarked(a) == unmarked(b));
    extends.then_some(before.len())
}

/// A message without Anthropic's `cache_control` marks (a client moves
/// them to its newest messages on every call), and a content of one text
/// block written as the string it stands for (the Messages API's own
/// shorthand: Claude Code sends its newest message as a block, to mark it,
/// and the same message as a string on the next call).
pub fn unmarked(v: &Value) -> Value {
    match v {
        Value::Object(map) => {
            let mut out: serde_json::Map<String, Value> = map
                .iter()
                .filter(|(k, _)| k.as_str() != "cache_control")
                .map(|(k, v)| (k.clone(), unmarked(v)))
                .collect();
            if let Some(Value::Array(blocks)) = out.get("content")
                && let [Value::Object(block)] = blocks.as_slice()
                && block.len() == 2
                && block.get("type").and_then(Value::as_str) == Some("text")
                && let Some(text) = block.get("text").filter(|t| t.is_string())
            {
                let text = text.clone();
                out.insert("content".into(), text);
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(unmarked).collect()),
        other => other.clone(),
    }
}

/// Is model call `index`'s request body rebuilt from a replayed run's
/// messages (its file records no body)? Then it names no model and no
/// parameters. A lesson's body is its own, not rebuilt.
pub fn rebuilt(trace: &Trace, index: usize) -> bool {
    trace.recorded.is_some() && trace.model_calls[index].body.is_none()
}

/// The model a recorded request names, made safe for a screen.
pub fn recorded_model(trace: &Trace, index: usize) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Named<'a> {
        #[serde(borrow)]
        model: Option<std::borrow::Cow<'a, str>>,
    }
    let body = trace.model_calls[index].body.as_ref()?;
    let named: Named = serde_json::from_str(&body.request).ok()?;
    Some(crate::safe::for_screen(&named.model?).into_owned())
}

/// The item `id` a call is shown and sent with: the one its file records;
/// a lesson's own (`item_id`); none for a replayed call whose file has none
/// (an invented `fc_…` would read as recorded).
pub fn item_id_of(trace: &Trace, call: &ToolCall) -> Option<String> {
    match (&call.item_id, &trace.recorded) {
        (Some(id), _) => Some(id.clone()),
        (None, None) => Some(item_id(&call.id)),
        (None, Some(_)) => None,
    }
}

/// The `id` of the Responses `function_call` item that carries a call. The
/// result names the call's `call_id`, never this id. Real ones are `fc_`
/// and 48 hexadecimal digits; a lesson's numbered `call_3` gets `fc_3`.
pub fn item_id(call: &CallId) -> String {
    if let Some(n) = call.0.strip_prefix("call_")
        && !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
    {
        return format!("fc_{n}");
    }
    let mut seed: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in call.0.bytes() {
        seed ^= u64::from(byte);
        seed = seed.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let mut hex = String::with_capacity(51);
    hex.push_str("fc_");
    for _ in 0..3 {
        seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        hex.push_str(&format!("{z:016x}"));
    }
    hex
}

/// A tool's parameters as the JSON schema the host sends: a custom tool's
/// own, else one string property per parameter, all required.
pub fn schema(tool: &crate::trace::OfferedTool) -> Value {
    if let Some(schema) = &tool.schema {
        return schema.clone();
    }
    let properties: Map<String, Value> = tool
        .params
        .iter()
        .map(|p| (p.clone(), json!({ "type": "string" })))
        .collect();
    json!({
        "type": "object",
        "properties": properties,
        "required": tool.params,
    })
}

/// The tool definitions as the provider receives them.
pub fn tools(trace: &Trace) -> Value {
    let defs = trace.tools.iter().map(|t| {
        // A provider's own tool is named by its type, not made a function.
        if let Some(kind) = &t.builtin {
            return match trace.provider {
                Provider::Anthropic => json!({ "type": kind, "name": t.name }),
                Provider::Chat | Provider::Responses => json!({ "type": kind }),
            };
        }
        let parameters = schema(t);
        let mut def = match trace.provider {
            Provider::Chat => json!({
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": parameters,
                },
            }),
            // Responses makes a function strict unless told not to.
            Provider::Responses => json!({
                "type": "function",
                "name": t.name,
                "description": t.description,
                "parameters": parameters,
                "strict": t.strict,
            }),
            Provider::Anthropic => json!({
                "name": t.name,
                "description": t.description,
                "input_schema": parameters,
            }),
        };
        if t.strict {
            match trace.provider {
                Provider::Chat => def["function"]["strict"] = true.into(),
                Provider::Anthropic => def["strict"] = true.into(),
                Provider::Responses => {}
            }
        }
        def
    });
    Value::Array(defs.collect())
}

/// The arguments as the model wrote them: the recorded JSON text where
/// there is one, else the pairs as a JSON object of strings.
pub(super) fn arguments_text(call: &ToolCall) -> String {
    match &call.raw_args {
        Some(raw) => raw.clone(),
        None => Value::Object(args_object(call)).to_string(),
    }
}

fn args_object(call: &ToolCall) -> Map<String, Value> {
    call.args
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect()
}

/// Anthropic's `input` is an object. Arguments that are not a JSON object
/// (a reply cut short) are wrapped in one under a key that says so, as
/// Anthropic's docs advise for invalid JSON passed back to the model
/// (docs.claude.com, "Fine-grained tool streaming": `{"INVALID_JSON": …}`).
fn input_object(call: &ToolCall) -> Value {
    match &call.raw_args {
        Some(raw) => match serde_json::from_str::<Value>(raw) {
            Ok(v @ Value::Object(_)) => v,
            _ => json!({ "INVALID_JSON": raw }),
        },
        None => Value::Object(args_object(call)),
    }
}

/// The call `id` that message `m` names, as `Trace::call` finds it. Where
/// ids are unique, looked for from `m`'s step back, where it was proposed
/// (a long run has thousands of calls, and each message is written out
/// when its run is measured).
fn call_of<'a>(trace: &'a Trace, m: &Message, id: &CallId) -> Option<&'a ToolCall> {
    if trace.unique_ids {
        let near = proposed_by(trace, m, id);
        if let Some(call) = near {
            debug_assert!(trace.call(id).is_some_and(|c| std::ptr::eq(c, call)));
            return near;
        }
    }
    trace.call(id)
}

/// The items one message makes in a Chat or Responses list, or its one
/// Anthropic message (for a message that starts one).
pub fn items(trace: &Trace, m: &Message) -> Vec<Value> {
    match trace.provider {
        Provider::Chat => vec![chat_message(trace, m)],
        Provider::Responses => responses_items(trace, m),
        Provider::Anthropic => vec![anthropic_message(trace, m)],
    }
}

fn chat_message(trace: &Trace, m: &Message) -> Value {
    match m.role {
        Role::User => json!({ "role": "user", "content": &*m.text }),
        Role::Tool => json!({
            "role": "tool",
            "tool_call_id": m.call_id.as_ref().map_or("", |c| c.0.as_ref()),
            "content": &*m.text,
        }),
        Role::Assistant => {
            let mut o = Map::new();
            o.insert("role".into(), "assistant".into());
            let content = if m.text.is_empty() && !m.calls.is_empty() {
                Value::Null
            } else {
                Value::String(m.text.to_string())
            };
            o.insert("content".into(), content);
            if !m.calls.is_empty() {
                let calls: Vec<Value> = m
                    .calls
                    .iter()
                    .filter_map(|id| call_of(trace, m, id))
                    .map(|c| {
                        json!({
                            "id": &*c.id.0,
                            "type": "function",
                            "function": { "name": c.tool, "arguments": arguments_text(c) },
                        })
                    })
                    .collect();
                o.insert("tool_calls".into(), Value::Array(calls));
            }
            Value::Object(o)
        }
    }
}

fn responses_items(trace: &Trace, m: &Message) -> Vec<Value> {
    match m.role {
        Role::User => vec![json!({ "role": "user", "content": &*m.text })],
        Role::Tool => vec![json!({
            "type": "function_call_output",
            "call_id": m.call_id.as_ref().map_or("", |c| c.0.as_ref()),
            "output": &*m.text,
        })],
        Role::Assistant => {
            // Its reasoning first, as the response returned it.
            let mut items: Vec<Value> = thinking::sent(trace, m).into_iter().collect();
            if !m.text.is_empty() || m.calls.is_empty() {
                items.push(json!({ "role": "assistant", "content": &*m.text }));
            }
            items.extend(
                m.calls
                    .iter()
                    .filter_map(|id| call_of(trace, m, id))
                    .map(|c| function_call(trace, c, false)),
            );
            items
        }
    }
}

/// A Responses `function_call` item; an output item also has a status.
/// The item `id` is optional in a request: a replayed file that records
/// none gets none (`item_id_of`).
fn function_call(trace: &Trace, c: &ToolCall, output: bool) -> Value {
    let mut item = serde_json::Map::new();
    item.insert("type".into(), "function_call".into());
    if let Some(id) = item_id_of(trace, c) {
        item.insert("id".into(), id.into());
    }
    item.insert("call_id".into(), c.id.0.to_string().into());
    item.insert("name".into(), c.tool.clone().into());
    item.insert("arguments".into(), arguments_text(c).into());
    let mut item = Value::Object(item);
    if output {
        item["status"] = "completed".into();
    }
    item
}

/// An Anthropic message that starts an item: the task or a host's text (a
/// string), a reply (text and `tool_use` blocks), or the user message that
/// carries tool results (its first block).
fn anthropic_message(trace: &Trace, m: &Message) -> Value {
    match m.role {
        Role::User => json!({ "role": "user", "content": &*m.text }),
        Role::Tool => json!({ "role": "user", "content": [anthropic_block(m)] }),
        Role::Assistant => json!({
            "role": "assistant",
            "content": reply_blocks(trace, m, m.reasoning.as_deref(), false),
        }),
    }
}

/// A reply's content blocks: as the request sends them back, or (with
/// `response`) as the response returns them, with the fields the API
/// always fills in (`citations`, and `caller`: the model called directly);
/// its `reasoning` first, as a thinking block.
fn reply_blocks(trace: &Trace, m: &Message, reasoning: Option<&str>, response: bool) -> Vec<Value> {
    let mut blocks: Vec<Value> = reasoning
        .map(|r| thinking::anthropic_block(trace, m, r))
        .into_iter()
        .collect();
    if !m.text.is_empty() || m.calls.is_empty() {
        let mut text = json!({ "type": "text", "text": &*m.text });
        if response {
            text["citations"] = Value::Null;
        }
        blocks.push(text);
    }
    blocks.extend(m.calls.iter().filter_map(|id| call_of(trace, m, id)).map(|c| {
        let mut block =
            json!({ "type": "tool_use", "id": &*c.id.0, "name": c.tool, "input": input_object(c) });
        if response {
            block["caller"] = json!({ "type": "direct" });
        }
        block
    }));
    blocks
}

/// A message's block inside an Anthropic user message: a `tool_result`
/// (with `is_error: true` when it failed), or a host's text after them.
pub fn anthropic_block(m: &Message) -> Value {
    match m.role {
        Role::Tool => {
            let mut block = json!({
                "type": "tool_result",
                "tool_use_id": m.call_id.as_ref().map_or("", |c| c.0.as_ref()),
                "content": &*m.text,
            });
            if m.is_error {
                block["is_error"] = true.into();
            }
            block
        }
        Role::User | Role::Assistant => json!({ "type": "text", "text": &*m.text }),
    }
}

/// The output limit every request of the run sets, where a reply was cut
/// off by one: a reply stops at the limit, so the limit is what the cut
/// reply generated. None where no reply was cut (OpenAI needs none;
/// Anthropic always sends `max_tokens`).
fn output_limit(trace: &Trace) -> Option<usize> {
    trace
        .model_calls
        .iter()
        .filter(|mc| mc.cut_off)
        .filter_map(|mc| mc.tokens)
        .max()
}

/// The request body with its list empty but for what every call sends
/// first (a Chat system message): model, system, tools.
fn envelope(trace: &Trace) -> (Value, usize) {
    let mut o = Map::new();
    if let Some(model) = model(trace) {
        o.insert("model".into(), model.into());
    }
    let system = trace.system.as_deref().filter(|s| !s.is_empty());
    let limit = output_limit(trace);
    let mut fixed = Vec::new();
    match trace.provider {
        Provider::Chat => {
            if let Some(limit) = limit {
                o.insert("max_completion_tokens".into(), limit.into());
            }
            if let Some(s) = system {
                fixed.push(json!({ "role": "system", "content": s }));
            }
        }
        Provider::Responses => {
            if let Some(limit) = limit {
                o.insert("max_output_tokens".into(), limit.into());
            }
            if let Some(s) = system {
                o.insert("instructions".into(), s.into());
            }
        }
        Provider::Anthropic => {
            // A replayed run's limit is not recorded where its body is not.
            let most = match trace.thinking {
                Thinking::Off => MAX_TOKENS,
                _ => thinking::THINKING_MAX_TOKENS,
            };
            let limit = limit.or((trace.recorded.is_none()).then_some(most as usize));
            if let Some(limit) = limit {
                o.insert("max_tokens".into(), limit.into());
            }
            if let Some(s) = system {
                o.insert("system".into(), s.into());
            }
        }
    }
    thinking::settings(trace, &mut o);
    if trace.stream {
        o.insert("stream".into(), true.into());
    }
    if !trace.tools.is_empty() {
        o.insert("tools".into(), tools(trace));
    }
    let n = fixed.len();
    debug_assert_eq!(n, fixed_items(trace), "fixed items counted otherwise");
    o.insert(list_key(trace.provider).into(), Value::Array(fixed));
    (Value::Object(o), n)
}

/// How many items every request's list starts with, before the run's
/// messages (`envelope`'s): Chat's system message.
fn fixed_items(trace: &Trace) -> usize {
    let system = trace.system.as_deref().is_some_and(|s| !s.is_empty());
    usize::from(trace.provider == Provider::Chat && system)
}

/// The name of the request's list of messages or items.
pub fn list_key(provider: Provider) -> &'static str {
    match provider {
        Provider::Chat | Provider::Anthropic => "messages",
        Provider::Responses => "input",
    }
}

/// The request body of model call `index` (into `trace.model_calls`), as
/// its provider receives it: as recorded, where the run's file holds it;
/// else built from the messages.
pub fn request(trace: &Trace, index: usize) -> Value {
    if let Some(body) = recorded_request(trace, index) {
        return body;
    }
    let mc = &trace.model_calls[index];
    let (mut body, _) = envelope(trace);
    let key = list_key(trace.provider);
    let mut list = match body[key].take() {
        Value::Array(a) => a,
        _ => Vec::new(),
    };
    let context = mc.context_start..mc.context_len;
    for i in context {
        let m = &trace.messages[i];
        let joins = trace.places.get(i).is_some_and(Place::joins) && i > mc.context_start;
        if joins && let Some(Value::Array(blocks)) = list.last_mut().map(|l| &mut l["content"]) {
            blocks.push(anthropic_block(m));
            continue;
        }
        list.extend(items(trace, m));
    }
    body[key] = Value::Array(list);
    if let Some(choice) = &mc.tool_choice {
        body["tool_choice"] = tool_choice(trace.provider, choice);
    }
    body
}

/// A `tool_choice` as its provider takes it: Chat and Responses the
/// words `auto`, `required`, `none`, or a function named; Anthropic a
/// `type` (`auto`, `any`, `none`, or `tool` with its name).
pub fn tool_choice(provider: Provider, choice: &ToolChoice) -> Value {
    match (provider, choice) {
        (Provider::Anthropic, ToolChoice::Auto) => json!({ "type": "auto" }),
        (Provider::Anthropic, ToolChoice::Required) => json!({ "type": "any" }),
        (Provider::Anthropic, ToolChoice::None) => json!({ "type": "none" }),
        (Provider::Anthropic, ToolChoice::Tool(name)) => json!({ "type": "tool", "name": name }),
        (_, ToolChoice::Auto) => "auto".into(),
        (_, ToolChoice::Required) => "required".into(),
        (_, ToolChoice::None) => "none".into(),
        (Provider::Chat, ToolChoice::Tool(name)) => {
            json!({ "type": "function", "function": { "name": name } })
        }
        (Provider::Responses, ToolChoice::Tool(name)) => {
            json!({ "type": "function", "name": name })
        }
    }
}

/// The bytes `,"tool_choice":…` adds to a request that sends one.
fn tool_choice_bytes(provider: Provider, choice: Option<&ToolChoice>) -> usize {
    choice.map_or(0, |c| {
        ",\"tool_choice\":".len() + json_len(&tool_choice(provider, c))
    })
}

/// The reply message to model call `index`, if the model replied.
pub fn reply(trace: &Trace, index: usize) -> Option<&Message> {
    let mc = &trace.model_calls[index];
    let end = trace
        .model_calls
        .get(index + 1)
        .map_or(trace.messages.len(), |next| next.context_len);
    trace
        .messages
        .slice(mc.context_len.min(end)..end)
        .iter()
        .find(|m| m.role == Role::Assistant)
}

/// The response to model call `index`, as its provider sends it (not
/// streamed); the body of a 400 when the provider refused the request
/// (`status`); None when the run records no reply.
pub fn response(trace: &Trace, counts: &Counts, index: usize) -> Option<Value> {
    let mc = &trace.model_calls[index];
    let recorded = mc.body.as_ref().and_then(|b| b.response.as_deref());
    if let Some(response) = recorded.and_then(|r| serde_json::from_str(r).ok()) {
        return Some(response);
    }
    let mut response = rebuilt_response(trace, counts, index)?;
    if trace.recorded.is_some()
        && let Value::Object(o) = &mut response
    {
        // A replayed run's response rebuilt from its reply: the model and
        // the settings a response echoes are not recorded; none invented.
        for key in [
            "model",
            "service_tier",
            "max_output_tokens",
            "parallel_tool_calls",
            "temperature",
            "tool_choice",
            "top_p",
        ] {
            o.shift_remove(key);
        }
    }
    Some(response)
}

/// `response`, built from the trace.
fn rebuilt_response(trace: &Trace, counts: &Counts, index: usize) -> Option<Value> {
    let mc = &trace.model_calls[index];
    if let Some(error) = trace.rejection(mc) {
        return Some(error_body(trace.provider, error));
    }
    let sent;
    let message = match dropped_calls(trace, mc.number) {
        dropped if dropped.is_empty() => reply(trace, index)?,
        dropped => {
            sent = with_calls(reply(trace, index), dropped, mc.step + 1);
            &sent
        }
    };
    let r = Replied {
        mc,
        message,
        calls: message
            .calls
            .iter()
            .filter_map(|id| call_of(trace, message, id))
            .collect(),
        input: context_tokens(trace, counts, index),
        cached: match trace.prompt_cache {
            true => cached_tokens(trace, counts, index),
            false => 0,
        },
        output: output_tokens(trace, counts, index),
    };
    // Fields in an order of our choosing (a JSON object's members have
    // none): what the model said last, as the wire view shows the end of
    // the body first; the bookkeeping (ids, echoed settings, usage) above.
    Some(match trace.provider {
        Provider::Chat => chat_response(trace, &r),
        Provider::Responses => responses_response(trace, &r),
        Provider::Anthropic => anthropic_response(trace, &r),
    })
}

/// The body of a 400, in the provider's error shape.
fn error_body(provider: Provider, error: &str) -> Value {
    let message = error
        .strip_prefix("400 invalid_request_error: ")
        .unwrap_or(error);
    match provider {
        Provider::Anthropic => json!({
            "type": "error",
            "error": { "type": "invalid_request_error", "message": message },
        }),
        Provider::Chat | Provider::Responses => json!({
            "error": {
                "message": message,
                "type": "invalid_request_error",
                "param": list_key(provider),
                "code": null,
            }
        }),
    }
}

/// Calls of model call `number` the host never appended (`drop_calls`):
/// they were still in the response: it is the provider's, the harness
/// lost them afterwards.
fn dropped_calls(trace: &Trace, number: u32) -> Vec<CallId> {
    let from = trace.calls.partition_point(|c| c.model_call < number);
    let to = trace.calls.partition_point(|c| c.model_call <= number);
    trace
        .calls
        .slice(from..to)
        .iter()
        .filter(|c| c.call_dropped)
        .map(|c| c.id.clone())
        .collect()
}

/// The reply held (or an empty one, at `step`) with the `calls` the
/// response made.
fn with_calls(held: Option<&Message>, calls: Vec<CallId>, step: usize) -> Message {
    Message {
        calls,
        ..held
            .cloned()
            .unwrap_or_else(|| Message::new(Role::Assistant, "", step))
    }
}

/// What a rebuilt response says: the model call, its message and calls,
/// and the tokens in and out.
struct Replied<'t> {
    mc: &'t ModelCall,
    message: &'t Message,
    calls: Vec<&'t ToolCall>,
    input: usize,
    /// Of `input`, the tokens the provider's cache served (`wire::cache`).
    cached: usize,
    output: usize,
}

impl Replied<'_> {
    /// The reasoning the provider returned, whether or not the host keeps it.
    fn returned(&self) -> Option<&str> {
        self.mc.reasoning.as_deref()
    }

    fn reasoning_tokens(&self) -> usize {
        self.returned().map_or(0, tokens::count)
    }
}

fn chat_response(trace: &Trace, r: &Replied<'_>) -> Value {
    // A response's message also says the model did not refuse.
    let mut message = json!({ "role": "assistant", "refusal": null, "annotations": [] });
    if let (Value::Object(said), Value::Object(into)) =
        (chat_message(trace, r.message), &mut message)
    {
        into.extend(said);
    }
    let mut chat = json!({
        "id": format!("chatcmpl-{}", r.mc.number),
        "object": "chat.completion",
        "created": 0,
        "model": model(trace),
        "service_tier": "default",
        "usage": {
            "prompt_tokens": r.input,
            "completion_tokens": r.output,
            "total_tokens": r.input + r.output,
        },
        "choices": [{
            "index": 0,
            "logprobs": null,
            "message": message,
            "finish_reason": match (r.mc.cut_off, r.calls.is_empty()) {
                (true, _) => "length",
                (false, true) => "stop",
                (false, false) => "tool_calls",
            },
        }],
    });
    // Where the lesson reads the prompt cache: how much of the input it served.
    if trace.prompt_cache {
        chat["usage"]["prompt_tokens_details"] = json!({ "cached_tokens": r.cached });
    }
    // A reasoning model's reply: only the count of its reasoning.
    if trace.thinking != Thinking::Off {
        chat["usage"]["completion_tokens_details"] =
            json!({ "reasoning_tokens": r.reasoning_tokens() });
    }
    chat
}

fn responses_response(trace: &Trace, r: &Replied<'_>) -> Value {
    // Its reasoning first, as the response returned it.
    let mut output_items: Vec<Value> = r
        .returned()
        .map(|reasoning| thinking::responses_item(trace, r.message, reasoning))
        .into_iter()
        .collect();
    if !r.message.text.is_empty() || r.calls.is_empty() {
        output_items.push(json!({
            "type": "message",
            "id": format!("msg_{}", r.mc.number),
            "status": "completed",
            "role": "assistant",
            "content": [{ "type": "output_text", "text": &*r.message.text, "annotations": [] }],
        }));
    }
    output_items.extend(r.calls.iter().map(|c| function_call(trace, c, true)));
    // Cut at the limit: the response and its last item are incomplete.
    if r.mc.cut_off
        && let Some(last) = output_items.last_mut()
    {
        last["status"] = "incomplete".into();
    }
    // A response echoes the request's settings: its instructions,
    // tools, output limit and sampling (the defaults, here). Made
    // as `envelope` makes them, not by building the whole request.
    let instructions = trace.system.as_deref().filter(|s| !s.is_empty());
    let tools = if trace.tools.is_empty() {
        json!([])
    } else {
        tools(trace)
    };
    json!({
        "id": format!("resp_{}", r.mc.number),
        "object": "response",
        "created_at": 0,
        "model": model(trace),
        "instructions": instructions,
        "max_output_tokens": output_limit(trace),
        "parallel_tool_calls": true,
        "temperature": 1.0,
        "tool_choice": r.mc.tool_choice.as_ref().map_or_else(
            || "auto".into(),
            |c| tool_choice(trace.provider, c),
        ),
        "tools": tools,
        "top_p": 1.0,
        "metadata": {},
        "access_programs": null,
        "error": null,
        "usage": {
            "input_tokens": r.input,
            "input_tokens_details": { "cached_tokens": r.cached, "cache_write_tokens": 0 },
            "output_tokens": r.output,
            "output_tokens_details": { "reasoning_tokens": r.reasoning_tokens() },
            "total_tokens": r.input + r.output,
        },
        "status": if r.mc.cut_off { "incomplete" } else { "completed" },
        "incomplete_details": if r.mc.cut_off {
            json!({ "reason": "max_output_tokens" })
        } else {
            Value::Null
        },
        "output": output_items,
    })
}

fn anthropic_response(trace: &Trace, r: &Replied<'_>) -> Value {
    json!({
        "id": format!("msg_{}", r.mc.number),
        "type": "message",
        "role": "assistant",
        "model": model(trace),
        "container": null,
        "diagnostics": null,
        "stop_details": null,
        "stop_sequence": null,
        "usage": {
            "input_tokens": r.input,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "cache_creation": null,
            "output_tokens": r.output,
            "output_tokens_details": null,
            "server_tool_use": null,
            "service_tier": "standard",
            "inference_geo": null,
            "speed": null,
        },
        "content": reply_blocks(trace, r.message, r.returned(), true),
        "stop_reason": match (r.mc.cut_off, r.calls.is_empty()) {
            (true, _) => "max_tokens",
            (false, true) => "end_turn",
            (false, false) => "tool_use",
        },
    })
}

fn json_len(v: &Value) -> usize {
    // Compact, as the SDKs send it; a `Value` always serialises.
    serde_json::to_vec(v).map_or(0, |b| b.len())
}

/// Message `m`'s items in its provider's list and their bytes (a
/// message that `joins` the Anthropic user message before it adds its
/// block and a comma, no item). A long text is not copied into a JSON
/// value to be written out and measured: the message is measured with a
/// one-byte text, and the text's escaped length added (it is written once,
/// as one string, in every shape).
fn sized(trace: &Trace, m: &Message, joins: bool) -> (u32, usize) {
    const LONG: usize = 256;
    if m.text.len() > LONG {
        let mut short = m.clone();
        short.text = "x".into();
        let (items, bytes) = sized_by_writing(trace, &short, joins);
        return (items, bytes - 1 + escaped_len(&m.text));
    }
    sized_by_writing(trace, m, joins)
}

/// `sized`, by writing the message's JSON out.
fn sized_by_writing(trace: &Trace, m: &Message, joins: bool) -> (u32, usize) {
    match trace.provider {
        Provider::Anthropic if joins => (0, 1 + json_len(&anthropic_block(m))),
        Provider::Anthropic => (1, json_len(&anthropic_message(trace, m))),
        Provider::Chat | Provider::Responses => {
            let items = items(trace, m);
            let bytes = items.iter().map(json_len).sum::<usize>() + items.len() - 1;
            (items.len() as u32, bytes)
        }
    }
}

/// The bytes of `text` inside a JSON string as serde_json writes it: `"`,
/// `\\`, `\n`, `\r`, `\t`, backspace and form feed escaped in two bytes,
/// the other controls below U+0020 as `\u00XX`, everything else as is.
/// Without a branch per byte, in blocks summed in 16 bits (at most 5 a
/// byte, 8 KiB a block): the compiler tests many bytes at a time, twice
/// as many as in 32 bits (a long run's tool output is megabytes, and
/// opening a 2,000-call transcript measures every text).
fn escaped_len(text: &str) -> usize {
    let extra = |b: &u8| -> u16 {
        let short = matches!(*b, b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c);
        u16::from(short) + 5 * u16::from(*b < 0x20 && !short)
    };
    text.len()
        + text
            .as_bytes()
            .chunks(1 << 13)
            .map(|block| usize::from(block.iter().map(extra).sum::<u16>()))
            .sum::<usize>()
}

/// Where each message sits in its provider's requests, and each model
/// call's body in bytes and tokens: read from the trace, set into it once,
/// when a run is recorded (`Trace::set_measures`).
///
/// With `changed`, the trace's messages are those of a trace already
/// measured but for the texts marked (a run told in another language):
/// only those messages are measured again.
///
/// A request's list restarts where the host's compacted copy starts.
pub fn measure(trace: &Trace, changed: Option<&[bool]>) -> Measures {
    measure_after(trace, changed.map(Changed::Marked), None)
}

/// The messages of a trace measured before whose texts changed since.
#[derive(Debug, Clone, Copy)]
pub enum Changed<'a> {
    /// Those marked (a run told in another language).
    Marked(&'a [bool]),
    /// All but the first N (a live build of a growing run: not a mark
    /// per message, thousands, at every call).
    After(usize),
}

impl Changed<'_> {
    fn kept(self, i: usize) -> bool {
        match self {
            Changed::Marked(marks) => !marks.get(i).copied().unwrap_or(true),
            Changed::After(n) => i < n,
        }
    }

    /// How many first messages are kept.
    fn head(self) -> usize {
        match self {
            Changed::Marked(marks) => marks.iter().take_while(|&&changed| !changed).count(),
            Changed::After(n) => n,
        }
    }
}

/// `measure`, where `before` holds model calls a build of this run before
/// measured, and per chunk of them whether each call has its recorded body
/// (`Measures::bodied`): a chunk of this trace's model calls that is that
/// very chunk, each call of it with its body, in a replayed run (whose
/// tokens are counted when asked), measures as it did, and is not read
/// (a long run has thousands of calls): its measures are None.
pub fn measure_after(
    trace: &Trace,
    changed: Option<Changed>,
    before: Option<(&crate::trace::Shared<ModelCall>, &[bool])>,
) -> Measures {
    let provider = trace.provider;
    let kept = |i: usize| changed.is_some_and(|c| c.kept(i)) && i < trace.places.len();
    let fixed = fixed_items(trace);
    // A call recorded with its body is sized by it: the envelope and the
    // tools (a coding agent's are tens of kilobytes) are written out only
    // for a call without one.
    let unrecorded = std::cell::OnceCell::new();
    let envelope_and_tools = || {
        *unrecorded.get_or_init(|| {
            let tools_bytes = match trace.tools.is_empty() {
                true => 0,
                false => json_len(&tools(trace)),
            };
            (json_len(&envelope(trace).0), tools_bytes)
        })
    };
    let starts: Vec<usize> = trace.compactions.iter().map(|c| c.start).collect();
    // Anthropic: the user message open holds tool results, so a result
    // (or the host's text after them) joins it.
    let joins = |m: &Message, results_open: bool| {
        provider == Provider::Anthropic && results_open && matches!(m.role, Role::Tool | Role::User)
    };
    let mut places = imbl::Vector::new();
    let mut number = fixed as u32 + 1;
    let mut results_open = false;
    // The first messages kept are placed as they were: taken whole, and
    // the walk goes on after the last of them (a long run's builds keep
    // all but the newest few of thousands).
    let head = changed
        .map_or(0, Changed::head)
        .min(trace.places.len())
        .min(trace.messages.len());
    debug_assert_eq!(
        head,
        (0..trace.messages.len()).take_while(|&i| kept(i)).count()
    );
    if let Some(last) = head.checked_sub(1) {
        places = trace.places.clone();
        places.truncate(head);
        let open_before =
            last > 0 && !starts.contains(&last) && trace.messages[last - 1].role == Role::Tool;
        let m = &trace.messages[last];
        let p = trace.places[last];
        number = p.number + p.items + u32::from(joins(m, open_before));
        results_open = m.role == Role::Tool;
    }
    for (i, m) in trace.messages.slice(head..).iter().enumerate() {
        let i = head + i;
        if i == 0 || starts.contains(&i) {
            number = fixed as u32 + 1;
            results_open = false;
        }
        let joins = joins(m, results_open);
        // Anthropic: results first; once the host's text follows, a later
        // result starts a new user message.
        results_open = m.role == Role::Tool;
        // A message whose text is unchanged has the bytes it had.
        let (items, bytes) = if kept(i) {
            (trace.places[i].items, trace.places[i].bytes)
        } else {
            sized(trace, m, joins)
        };
        let place = Place {
            number: if joins { number - 1 } else { number },
            items,
            bytes,
        };
        number += place.items;
        places.push_back(place);
    }
    // A replayed run counts its tokens when asked (`context_tokens`).
    let lazy = trace.is_replayed();
    let fixed_tokens = if lazy { 0 } else { fixed_tokens(trace) };
    // Running sums, so each call's size is a difference, not a walk over
    // its whole context (a long run has thousands of calls); made only
    // for a call without its recorded body, or tokens counted now.
    let sums = std::cell::OnceCell::new();
    let sums = || sums.get_or_init(|| running_sums(&places, trace));
    let measure_call = |mc: &ModelCall| {
        // The messages' sums over the call's context.
        let within = || {
            let upto = sums();
            let ((b0, n0, t0), (b1, n1, t1)) = (upto[mc.context_start], upto[mc.context_len]);
            (b1 - b0, n1 - n0, t1 - t0)
        };
        let (context_size, tools_size) = match &mc.body {
            Some(body) => (body.request.len(), body.tools_bytes),
            None => {
                // Messages that start items (a message's own items are
                // separated within its `bytes`), and the commas between
                // them: after what every call sends first, one before
                // each message; else one fewer.
                let (bytes, starts, _) = within();
                let commas = if fixed > 0 {
                    starts
                } else {
                    starts.saturating_sub(1)
                };
                let choice = tool_choice_bytes(provider, mc.tool_choice.as_ref());
                let (envelope_bytes, tools_bytes) = envelope_and_tools();
                (envelope_bytes + bytes + commas + choice, tools_bytes)
            }
        };
        CallMeasure {
            context_size,
            tools_size,
            context_tokens: (!lazy).then(|| fixed_tokens + within().2),
        }
    };
    // A replayed run's call with its body is sized by the body alone (its
    // tokens are counted when asked): as a build before sized it.
    let (calls, bodied) = call_measures(trace, lazy.then_some(before).flatten(), measure_call);
    Measures {
        places,
        calls,
        bodied,
        placed_as_held: head,
    }
}

/// Each model call's measure (`measure_call`), by its index, but those of
/// a chunk that is the very chunk of `before` (model calls a build before
/// measured, and per chunk whether each has its recorded body) where each
/// has it; and per chunk, whether each call has its body.
fn call_measures(
    trace: &Trace,
    before: Option<(&crate::trace::Shared<ModelCall>, &[bool])>,
    measure_call: impl Fn(&ModelCall) -> CallMeasure,
) -> (Vec<(usize, CallMeasure)>, Vec<bool>) {
    let mut calls = Vec::new();
    let mut bodied = Vec::with_capacity(trace.model_calls.len().div_ceil(crate::shared::CHUNK));
    for (c, chunk) in trace.model_calls.chunks().enumerate() {
        let as_before = before.is_some_and(|(model_calls, bodied)| {
            bodied.get(c) == Some(&true)
                && model_calls.chunk(c).is_some_and(|b| Arc::ptr_eq(b, chunk))
        });
        if as_before {
            debug_assert!(
                chunk.iter().all(|mc| {
                    let m = measure_call(mc);
                    (m.context_size, m.tools_size) == (mc.context_size, mc.tools_size)
                }),
                "a chunk of model calls taken as measured measures otherwise"
            );
            bodied.push(true);
        } else {
            let first = c * crate::shared::CHUNK;
            calls.extend((first..).zip(chunk.iter().map(|mc| measure_call(mc))));
            bodied.push(chunk.iter().all(|mc| mc.body.is_some()));
        }
    }
    (calls, bodied)
}

/// Before each message of `trace` (placed at `places`) and after the
/// last: the bytes, the items started and the tokens of those before it.
fn running_sums(places: &imbl::Vector<Place>, trace: &Trace) -> Vec<(usize, usize, usize)> {
    let mut upto = Vec::with_capacity(places.len() + 1);
    let (mut b, mut n, mut t) = (0usize, 0usize, 0usize);
    upto.push((0, 0, 0));
    for (p, m) in places.leaves().flatten().zip(&trace.messages) {
        b += p.bytes;
        n += usize::from(!p.joins());
        t += m.tokens;
        upto.push((b, n, t));
    }
    upto
}

/// Tokens every request carries whatever its messages: the system prompt,
/// the tool definitions and the reply priming.
pub fn fixed_tokens(trace: &Trace) -> usize {
    let system = trace
        .system
        .as_deref()
        .map_or(0, |s| tokens::count(s) + tokens::PER_MESSAGE);
    let tools = if trace.tools.is_empty() {
        0
    } else {
        tokens::count(&tools(trace).to_string())
    };
    system + tools + tokens::REPLY_PRIMING
}

/// A message's tokens: its text, its calls' names, ids and arguments, the
/// id it answers, and the per-message overhead.
pub fn message_tokens(m: &Message, calls: &[&ToolCall]) -> usize {
    tokens::count(&m.text) + tokens_besides_text(m, calls)
}

/// A message's tokens but for its text's: its calls' ids, names and
/// arguments, the id it answers, the per-message overhead.
pub fn tokens_besides_text(m: &Message, calls: &[&ToolCall]) -> usize {
    let mut n = tokens::PER_MESSAGE;
    if let Some(reasoning) = &m.reasoning {
        n += tokens::count(reasoning);
    }
    if let Some(id) = &m.call_id {
        n += tokens::count(&id.0);
    }
    for c in calls {
        n += tokens::count(&c.id.0) + tokens::count(&c.tool) + tokens::count(&arguments_text(c));
    }
    n
}

/// Message `index`'s tokens (`message_tokens`): a lesson's as recorded, a
/// replayed run's counted the first time they are asked for (`counts`).
pub fn tokens_of_message(trace: &Trace, counts: &Counts, index: usize) -> usize {
    let m = &trace.messages[index];
    counts
        .message(index, || message_tokens(m, &calls_of(trace, m)))
        .unwrap_or(m.tokens)
}

/// The request of model call `index` (into `trace.model_calls`) in tokens:
/// what every request carries and the messages it sends. A lesson's as
/// recorded; a replayed run's counted the first time it is asked for (a
/// frame shows one call's count; the first frame of a 2,000-call run
/// counts only its first request), then kept in `counts`.
pub fn context_tokens(trace: &Trace, counts: &Counts, index: usize) -> usize {
    let mc = &trace.model_calls[index];
    counts
        .request(index, || match &mc.body {
            // The body as recorded, every byte of it.
            Some(body) => tokens::count_long(&body.request),
            None => {
                fixed_of(trace, counts)
                    + messages_tokens(trace, counts, mc.context_start..mc.context_len)
            }
        })
        .unwrap_or(mc.context_tokens)
}

/// `context_tokens`, unless the messages it needs are still being counted
/// on the thread of their own (a long transcript just opened): then None,
/// at once, and a frame shows the count as being counted, drawn when the
/// thread is done, so a key never waits for it.
pub fn context_tokens_ready(trace: &Trace, counts: &Counts, index: usize) -> Option<usize> {
    let mc = &trace.model_calls[index];
    let ready = match mc.body {
        Some(_) => counts.body_ready(index),
        None => counts.ready(index, mc.context_start..mc.context_len),
    };
    ready.then(|| context_tokens(trace, counts, index))
}

// The provider's prompt cache (`cache.rs` prices it): how many tokens of
// a request count as a hit, here beside the counting it is made of.

/// The shortest prompt OpenAI caches, in tokens.
pub const MIN_CACHED: usize = 1024;
/// Cached tokens come in steps of this many.
pub const STEP: usize = 128;

/// The tokens of call `index`'s request that an earlier request began
/// with too, as the provider counts a hit: none under `MIN_CACHED`, else
/// whole `STEP`s.
pub fn cached_tokens(trace: &Trace, counts: &Counts, index: usize) -> usize {
    let longest = (0..index)
        .map(|earlier| shared_prefix(trace, counts, earlier, index))
        .max()
        .unwrap_or(0);
    match longest {
        n if n < MIN_CACHED => 0,
        n => n / STEP * STEP,
    }
}

/// Tokens at the start of call `b`'s request that call `a`'s had too:
/// what every request sends first (the reply's priming comes last, so
/// not counted), then each message while the two bodies carry the same.
fn shared_prefix(trace: &Trace, counts: &Counts, a: usize, b: usize) -> usize {
    let (ca, cb) = (&trace.model_calls[a], &trace.model_calls[b]);
    let first = fixed_tokens(trace) - tokens::REPLY_PRIMING;
    let sent_a = ca.context_start..ca.context_len;
    let sent_b = cb.context_start..cb.context_len;
    let same = sent_a
        .zip(sent_b)
        .take_while(|&(i, j)| items(trace, &trace.messages[i]) == items(trace, &trace.messages[j]))
        .map(|(_, j)| tokens_of_message(trace, counts, j))
        .sum::<usize>();
    first + same
}

/// Compaction `index`'s next request in tokens, before and after it (as
/// `Compaction::tokens_before` and `tokens_after` hold them in a lesson):
/// in a replayed run, what every request carries and the messages held
/// before (since the compaction before, or the start) and after (its
/// copy).
pub fn compaction_tokens(trace: &Trace, counts: &Counts, index: usize) -> (usize, usize) {
    let c = &trace.compactions[index];
    if !counts.is_lazy() {
        return (c.tokens_before, c.tokens_after);
    }
    let held_from = index
        .checked_sub(1)
        .map_or(0, |p| trace.compactions[p].start);
    let fixed = fixed_of(trace, counts);
    (
        fixed + messages_tokens(trace, counts, held_from..c.start),
        fixed + messages_tokens(trace, counts, c.start..c.start + c.messages_after),
    )
}

/// Count a replayed run's tokens on a thread of their own (`Counts::
/// in_background`): every request body the file records first, then every
/// message, in order. The thread holds its own copy of the trace (its
/// messages and steps are shared, not copied). None for a lesson.
pub fn count_in_background(trace: &Trace, counts: &Counts) -> Option<std::thread::JoinHandle<()>> {
    let trace = trace.clone();
    counts.in_background(move |counts| {
        for (index, mc) in trace.model_calls.iter().enumerate() {
            if mc.body.is_some() {
                context_tokens(&trace, counts, index);
            }
        }
        for index in 0..trace.messages.len() {
            tokens_of_message(&trace, counts, index);
        }
    })
}

/// The counts a trace needs kept beside it: made when asked for a replayed
/// run (none made yet), none for a lesson (its own are exact).
pub fn counts_of(trace: &Trace) -> Counts {
    match trace.is_replayed() {
        true => Counts::lazy(trace.messages.len(), trace.model_calls.len()),
        false => Counts::default(),
    }
}

/// Tokens model call `index`'s reply generated: as recorded (a lesson's,
/// or where the file records them), else its words and calls counted the
/// first time they are asked for (`reply_tokens`), then kept in `counts`;
/// 0 where there is no reply.
pub fn output_tokens(trace: &Trace, counts: &Counts, index: usize) -> usize {
    if let Some(tokens) = trace.model_calls[index].tokens {
        return tokens;
    }
    counts
        .reply(index, || {
            reply(trace, index).map_or(0, |m| reply_tokens(&m.text, &calls_of(trace, m)))
        })
        .unwrap_or(0)
}

/// The calls message `m` proposed, as the recorder knew them then: the
/// latest with each id proposed at or before its step.
fn calls_of<'t>(trace: &'t Trace, m: &Message) -> Vec<&'t ToolCall> {
    m.calls
        .iter()
        .filter_map(|id| proposed_by(trace, m, id))
        .collect()
}

/// The latest call `id` proposed at or before message `m`'s step.
fn proposed_by<'t>(trace: &'t Trace, m: &Message, id: &CallId) -> Option<&'t ToolCall> {
    let before = trace.calls.partition_point(|c| c.proposed <= m.step);
    let proposed = trace.calls.slice(..before);
    proposed.iter().rev().find(|c| &c.id == id)
}

fn fixed_of(trace: &Trace, counts: &Counts) -> usize {
    counts
        .fixed(|| fixed_tokens(trace))
        .unwrap_or_else(|| fixed_tokens(trace))
}

fn messages_tokens(trace: &Trace, counts: &Counts, range: std::ops::Range<usize>) -> usize {
    range.map(|i| tokens_of_message(trace, counts, i)).sum()
}

/// Tokens of a reply the model generates (the inner loop): its text and
/// its calls.
pub fn reply_tokens(text: &str, calls: &[&ToolCall]) -> usize {
    tokens::count(text)
        + calls
            .iter()
            .map(|c| tokens::count(&c.tool) + tokens::count(&arguments_text(c)) + 1)
            .sum::<usize>()
}

/// How many items the list of model call `index`'s request holds (Chat's
/// system message counted), and how many of them are new since the call
/// before: an Anthropic user message is new if any block in it is.
pub fn list_counts(trace: &Trace, index: usize) -> (usize, usize) {
    let mc = &trace.model_calls[index];
    if let Some(body) = &mc.body {
        let (drawn, new) = list_counts_rebuilt(trace, index);
        // A reasoning item is new with the reply it comes before (the
        // context list marks it so).
        let reasoning = super::reasoning_at(trace, index);
        let last_old = super::number_past(drawn.saturating_sub(new) as u32, reasoning);
        let new = new + reasoning.iter().filter(|&&at| at > last_old).count();
        // Items the list folds into a row of their own (Codex's developer
        // messages, drawn with the instructions) are new when all is.
        let new = match new >= drawn + reasoning.len() {
            true => body.items,
            false => new,
        };
        return (body.items, new.min(body.items));
    }
    list_counts_rebuilt(trace, index)
}

/// `list_counts` of the body built from the messages.
fn list_counts_rebuilt(trace: &Trace, index: usize) -> (usize, usize) {
    let mc = &trace.model_calls[index];
    let fixed = usize::from(
        trace.provider == Provider::Chat && trace.system.as_deref().is_some_and(|s| !s.is_empty()),
    );
    let (start, end) = (mc.context_start, mc.context_len);
    if trace.places.len() < end || end <= start {
        return list_counts_by_walking(trace, index, fixed);
    }
    // The places number the list from where it starts: its length is the
    // number of its last item (a frame at call 10,000 does not walk the
    // 20,000 messages before it).
    let (first, last) = (trace.places[start], trace.places[end - 1]);
    if first.joins() || first.number as usize != fixed + 1 {
        return list_counts_by_walking(trace, index, fixed);
    }
    let items = match last.joins() {
        true => last.number as usize,
        false => (last.number + last.items) as usize - 1,
    };
    // Only what the call before did not send can be new: the messages it
    // sent lead the list, none of them new.
    let from = match index.checked_sub(1).map(|p| &trace.model_calls[p]) {
        Some(prev) if prev.context_start <= start => prev.context_len.clamp(start, end),
        Some(_) => return list_counts_by_walking(trace, index, fixed),
        None => start,
    };
    let new = new_items(trace, index, from..end, if index == 0 { fixed } else { 0 });
    (items, new)
}

/// `list_counts` by looking at every message of the context.
fn list_counts_by_walking(trace: &Trace, index: usize, fixed: usize) -> (usize, usize) {
    let mc = &trace.model_calls[index];
    let items = fixed
        + (mc.context_start..mc.context_len)
            .map(|i| trace.places.get(i).copied().unwrap_or_default().items as usize)
            .sum::<usize>();
    // Call #1 sends everything for the first time, the system message too.
    let new = new_items(
        trace,
        index,
        mc.context_start..mc.context_len,
        if index == 0 { fixed } else { 0 },
    );
    (items, new)
}

/// The items new on model call `index` among the messages `range`, which
/// starts after a message that is not new (or at the list's start).
fn new_items(trace: &Trace, index: usize, range: std::ops::Range<usize>, mut new: usize) -> usize {
    let mut starter_new = false;
    for i in range {
        let place = trace.places.get(i).copied().unwrap_or_default();
        let is_new = trace.is_new(index, i);
        if place.joins() {
            if is_new && !starter_new {
                new += 1;
                starter_new = true;
            }
        } else {
            starter_new = is_new;
            if is_new {
                new += place.items as usize;
            }
        }
    }
    new
}

/// The 400 a provider answers when the request holds tool calls without
/// their results, in the provider's own words (as its API returns them):
/// Chat names every id; Responses the first; Anthropic the index of the
/// assistant message in `messages` and every id.
pub fn rejection(trace: &Trace, unanswered: &[CallId]) -> String {
    let ids = unanswered
        .iter()
        .map(|c| c.0.as_ref())
        .collect::<Vec<_>>()
        .join(", ");
    match trace.provider {
        Provider::Chat => format!(
            "400 invalid_request_error: An assistant message with 'tool_calls' must be followed by \
             tool messages responding to each 'tool_call_id'. The following tool_call_ids did not \
             have response messages: {ids}"
        ),
        Provider::Responses => format!(
            "400 invalid_request_error: No tool output found for function call {}.",
            unanswered.first().map_or("", |c| c.0.as_ref())
        ),
        Provider::Anthropic => {
            let places = measure(trace, None).places;
            let holder = trace
                .messages
                .iter()
                .zip(&places)
                .rev()
                .find(|(m, _)| m.calls.iter().any(|c| unanswered.contains(c)))
                .map_or(0, |(_, p)| p.number.saturating_sub(1));
            format!(
                "400 invalid_request_error: messages.{holder}: `tool_use` ids were found without \
                 `tool_result` blocks immediately after: {ids}. Each `tool_use` block must have a \
                 corresponding `tool_result` block in the next message."
            )
        }
    }
}

/// The HTTP status of model call `index`'s response: 400 when the
/// provider refused the request, else 200.
pub fn status(trace: &Trace, index: usize) -> u16 {
    match trace.rejection(&trace.model_calls[index]) {
        Some(_) => 400,
        None => 200,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run measured again with its first messages (any number of them)
    /// or some of them kept as placed measures as measured whole, in every
    /// lesson and transcript fixture.
    #[test]
    fn a_run_measured_again_keeping_what_is_placed_measures_as_measured_whole() {
        let traces: Vec<Trace> = crate::load::every_run().into_iter().flatten().collect();
        // Each run in each API too: a lesson's compaction with Anthropic's
        // joined results.
        let traces = traces.into_iter().flat_map(|t| {
            [Provider::Chat, Provider::Responses, Provider::Anthropic].map(|provider| Trace {
                provider,
                ..t.clone()
            })
        });
        let mut joined = 0;
        for mut trace in traces {
            let whole = measure(&trace, None);
            trace.places = whole.places.clone();
            let n = trace.messages.len();
            let masks = (0..=n)
                .map(|head| (0..n).map(|i| i >= head).collect::<Vec<_>>())
                .chain([(0..n).map(|i| i % 3 == 0).collect()]);
            for changed in masks {
                let again = measure(&trace, Some(&changed));
                let head = changed.iter().take_while(|c| !**c).count();
                let at = format!(
                    "{} ({:?}), first {head} of {n} kept",
                    trace.title, trace.provider
                );
                assert_eq!(again.places, whole.places, "{at}");
                assert_eq!(
                    format!("{:?}", again.calls),
                    format!("{:?}", whole.calls),
                    "{at}"
                );
                joined += usize::from(head > 0 && whole.places[head - 1].joins());
            }
        }
        // Some runs keep a head ending in an item that joins the one before.
        assert!(joined > 0);
    }

    /// Every byte JSON escapes, and every other ASCII one, counted as
    /// serde_json writes it, in a text of several blocks.
    #[test]
    fn escaped_len_is_the_length_serde_json_writes() {
        let ascii: String = (0u8..0x80).map(char::from).chain("中文".chars()).collect();
        let long = ascii.repeat(2000);
        // Each byte written in six: a block's count is at its largest.
        let controls = "\u{1}".repeat(20_000);
        for text in [&ascii, &long, &controls] {
            let written = serde_json::to_string(text).unwrap().len() - 2;
            assert_eq!(escaped_len(text), written);
        }
    }

    /// A long text measured by its escaped length gives the bytes that
    /// writing the message's JSON out gives, in every provider's shape:
    /// every message of every lesson and transcript fixture, and long
    /// texts full of what JSON escapes.
    #[test]
    fn a_long_text_is_measured_as_its_json_is_written() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut traces = Vec::new();
        for (name, _) in crate::load::CATALOG {
            for provider in [Provider::Chat, Provider::Responses, Provider::Anthropic] {
                if let Ok(loaded) = crate::load::load_as(name, Some(provider)) {
                    traces.extend(loaded.traces);
                }
            }
        }
        let mut dirs = vec![root.join("tests/transcripts")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if let Ok(opened) = crate::transcript::open(&path.to_string_lossy(), None) {
                    traces.extend(opened.loaded.traces);
                }
            }
        }
        let awkward: String = (0u8..0x80)
            .map(char::from)
            .chain("é读🙂\u{2028}".chars())
            .collect();
        let (mut long, mut checked) = (0, 0);
        for trace in &mut traces {
            for provider in [Provider::Chat, Provider::Responses, Provider::Anthropic] {
                trace.provider = provider;
                for (i, m) in trace.messages.iter().enumerate() {
                    let mut texts = vec![m.clone()];
                    let mut odd = m.clone();
                    odd.text = format!("{awkward}{}{awkward}", m.text).repeat(3).into();
                    texts.push(odd);
                    for m in &texts {
                        for joins in [false, true] {
                            if joins && (provider != Provider::Anthropic || i == 0) {
                                continue;
                            }
                            assert_eq!(
                                sized(trace, m, joins),
                                sized_by_writing(trace, m, joins),
                                "{} as {provider:?}: {:?}",
                                trace.scenario,
                                m.text
                            );
                            long += usize::from(m.text.len() > 256);
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(long > 1000 && checked > 5000, "{long} long of {checked}");
    }

    /// A replayed run's counts, made when asked, are those of every
    /// message counted as a lesson's are when recorded: what every request
    /// carries and each message it sends (its calls as proposed then); a
    /// request whose body the file records, that body's.
    #[test]
    fn a_transcripts_counts_made_when_asked_are_its_messages_counted_one_by_one() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![root.join("tests/transcripts")];
        let (mut traces, mut calls, mut compactions) = (0, 0, 0);
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                let Ok(opened) = crate::transcript::open(&path.to_string_lossy(), None) else {
                    continue;
                };
                let counts = &opened.loaded.counts;
                for trace in &opened.loaded.traces {
                    assert!(counts.is_lazy());
                    let message = |i: usize| {
                        let m = &trace.messages[i];
                        let calls: Vec<&ToolCall> = m
                            .calls
                            .iter()
                            .filter_map(|id| trace.call_at(id, m.step))
                            .collect();
                        message_tokens(m, &calls)
                    };
                    let fixed = fixed_tokens(trace);
                    for (index, mc) in trace.model_calls.iter().enumerate() {
                        // A body the file records is counted as recorded.
                        let counted = match &mc.body {
                            Some(body) => tokens::count_long(&body.request),
                            None => {
                                fixed
                                    + (mc.context_start..mc.context_len)
                                        .map(message)
                                        .sum::<usize>()
                            }
                        };
                        assert_eq!(
                            context_tokens(trace, counts, index),
                            counted,
                            "{} call #{}",
                            path.display(),
                            mc.number
                        );
                        calls += 1;
                    }
                    for (index, c) in trace.compactions.iter().enumerate() {
                        let from = index
                            .checked_sub(1)
                            .map_or(0, |p| trace.compactions[p].start);
                        let before: usize = (from..c.start).map(message).sum();
                        let after: usize = (c.start..c.start + c.messages_after).map(message).sum();
                        assert_eq!(
                            compaction_tokens(trace, counts, index),
                            (fixed + before, fixed + after),
                            "{}",
                            path.display()
                        );
                        compactions += 1;
                    }
                    traces += 1;
                }
            }
        }
        assert!(
            traces >= 60 && calls >= 200 && compactions >= 1,
            "{traces} {calls} {compactions}"
        );
    }

    #[test]
    fn list_counts_from_the_places_are_those_of_every_message_walked() {
        let mut checked = 0;
        for (name, _) in crate::load::CATALOG {
            for provider in [Provider::Chat, Provider::Responses, Provider::Anthropic] {
                // A lesson written for one provider is shown only as it.
                let Ok(loaded) = crate::load::load_as(name, Some(provider)) else {
                    continue;
                };
                for trace in &loaded.traces {
                    for index in 0..trace.model_calls.len() {
                        let fixed = usize::from(
                            trace.provider == Provider::Chat
                                && trace.system.as_deref().is_some_and(|s| !s.is_empty()),
                        );
                        assert_eq!(
                            list_counts(trace, index),
                            list_counts_by_walking(trace, index, fixed),
                            "{name} as {provider:?}, call #{}",
                            index + 1
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }
}
