//! A reply as its stream (`"stream": true` in the request): the pieces a
//! lesson draws as steps, and the server-sent events each provider sends
//! for them.
//!
//! A reply is a list of blocks: its text (when it has any, or no calls),
//! then each tool call. A lesson draws each block in two pieces (it opens
//! with the first half of its text or arguments; the rest comes and it
//! closes), then one piece for the end, which says why the model stopped.
//! A real stream cuts a block into many more deltas, a few tokens each;
//! the events and their order are the providers' own:
//! - Chat Completions: `chat.completion.chunk` objects, `delta.content`
//!   pieces and `delta.tool_calls[i]` (its `id` and `function.name` first,
//!   then `function.arguments` pieces), a last chunk with `finish_reason`,
//!   then `data: [DONE]` (platform.openai.com, "Streaming API responses";
//!   the SDK's `ChatCompletionChunk`).
//! - Responses: `response.created`, `response.in_progress`, per item
//!   `response.output_item.added`, `response.output_text.delta` or
//!   `response.function_call_arguments.delta`, their `.done` events,
//!   `response.output_item.done`, and `response.completed` (the SDK's
//!   `ResponseStreamEvent`).
//! - Anthropic Messages: `message_start`, per block `content_block_start`,
//!   `content_block_delta` (`text_delta`, or `input_json_delta` with
//!   `partial_json`) and `content_block_stop`, then `message_delta` with
//!   `stop_reason`, and `message_stop` (docs.claude.com, "Streaming
//!   Messages"; the SDK's `RawMessageStreamEvent`).

use serde_json::{Value, json};

use super::body::{arguments_text, reply, response};
use crate::provider::Provider;
use crate::tokens::Counts;
use crate::trace::{StepKind, ToolCall, Trace};

/// One block of a reply: its text, or one tool call with its arguments as
/// the JSON text the model writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block<'a> {
    Text(&'a str),
    Call {
        call: &'a ToolCall,
        arguments: String,
    },
}

impl Block<'_> {
    /// What the block's deltas add up to.
    pub fn whole(&self) -> &str {
        match self {
            Block::Text(text) => text,
            Block::Call { arguments, .. } => arguments,
        }
    }
}

/// Why the model stopped, as the stream's end says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The reply holds tool calls.
    ToolUse,
    /// The reply is done.
    EndTurn,
    /// The reply reached the output-token limit.
    Limit,
}

/// What one stream step carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece<'a> {
    /// A block opens and the first half of its text or arguments arrives.
    Opens { block: Block<'a>, delta: String },
    /// The rest arrives and the block closes: `block.whole()` is all there.
    Closes { block: Block<'a>, delta: String },
    /// The stream ends, saying why the model stopped.
    Ends { stop: Stop },
}

/// How many pieces a reply streams in: two for each block, one for the end.
pub fn piece_count(has_text: bool, calls: usize) -> usize {
    2 * (usize::from(has_text || calls == 0) + calls) + 1
}

/// A block's text cut in two, at the middle character.
pub fn halves(text: &str) -> (&str, &str) {
    let middle = text.chars().count() / 2;
    let at = text
        .char_indices()
        .nth(middle)
        .map_or(text.len(), |(i, _)| i);
    text.split_at(at)
}

/// The blocks of the reply to model call `index`, in the order they stream.
pub fn blocks(trace: &Trace, index: usize) -> Vec<Block<'_>> {
    let Some(message) = reply(trace, index) else {
        return Vec::new();
    };
    let mut blocks = Vec::new();
    if !message.text.is_empty() || message.calls.is_empty() {
        blocks.push(Block::Text(&message.text));
    }
    blocks.extend(
        message
            .calls
            .iter()
            .filter_map(|id| trace.call(id))
            .map(|call| Block::Call {
                call,
                arguments: arguments_text(call),
            }),
    );
    blocks
}

/// Why the reply to model call `index` stopped.
pub fn stop(trace: &Trace, index: usize) -> Stop {
    let has_calls = reply(trace, index).is_some_and(|m| !m.calls.is_empty());
    match (trace.model_calls[index].cut_off, has_calls) {
        (true, _) => Stop::Limit,
        (false, true) => Stop::ToolUse,
        (false, false) => Stop::EndTurn,
    }
}

/// The piece step `step` shows, if it is a stream step.
pub fn piece_at(trace: &Trace, step: usize) -> Option<(u32, Piece<'_>)> {
    let s = &trace.steps[step];
    let StepKind::Streams { number, piece } = s.kind else {
        return None;
    };
    let index = s.model_call?;
    Some((number, piece_of(trace, index, piece)?))
}

/// Piece `k` of the reply to model call `index`.
fn piece_of(trace: &Trace, index: usize, k: usize) -> Option<Piece<'_>> {
    let blocks = blocks(trace, index);
    if k == 2 * blocks.len() {
        return Some(Piece::Ends {
            stop: stop(trace, index),
        });
    }
    let block = blocks.into_iter().nth(k / 2)?;
    let (first, rest) = halves(block.whole());
    let (first, rest) = (first.to_string(), rest.to_string());
    Some(match k % 2 {
        0 => Piece::Opens {
            block,
            delta: first,
        },
        _ => Piece::Closes { block, delta: rest },
    })
}

/// A server-sent event: its `event:` name (none in Chat, whose lines are
/// `data:` alone) and its data.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub name: Option<&'static str>,
    pub data: Value,
}

/// The events of the reply to model call `index` in its provider's stream,
/// grouped by piece (`piece_count` groups). Built from the response the
/// call returns whole, so the stream adds up to it.
pub fn events(trace: &Trace, counts: &Counts, index: usize) -> Vec<Vec<Event>> {
    let Some(whole) = response(trace, counts, index) else {
        return Vec::new();
    };
    let blocks = blocks(trace, index);
    let stop = stop(trace, index);
    match trace.provider {
        Provider::Chat => chat(&whole, &blocks, stop),
        Provider::Responses => responses(&whole, &blocks),
        Provider::Anthropic => anthropic(&whole, &blocks),
    }
}

/// Data alone, as Chat sends it; an event named as the others send it.
fn data(data: Value) -> Event {
    Event { name: None, data }
}

fn named(name: &'static str, data: Value) -> Event {
    Event {
        name: Some(name),
        data,
    }
}

/// Chat: one `chat.completion.chunk` for each delta, the fields of the
/// whole response's envelope on each.
fn chat(whole: &Value, blocks: &[Block<'_>], stop: Stop) -> Vec<Vec<Event>> {
    let chunk = |delta: Value, finish: Value| {
        data(json!({
            "id": whole["id"],
            "object": "chat.completion.chunk",
            "created": whole["created"],
            "model": whole["model"],
            "service_tier": whole["service_tier"],
            "choices": [{ "index": 0, "delta": delta, "logprobs": null, "finish_reason": finish }],
        }))
    };
    let mut pieces = Vec::new();
    let mut calls = 0;
    for (k, block) in blocks.iter().enumerate() {
        let (first, rest) = halves(block.whole());
        let (mut opens, first, rest) = match block {
            Block::Text(_) => (
                json!({ "content": "" }),
                json!({ "content": first }),
                json!({ "content": rest }),
            ),
            Block::Call { call, .. } => {
                let at = calls;
                calls += 1;
                let piece = |text: &str| json!({ "tool_calls": [{ "index": at, "function": { "arguments": text } }] });
                let opens = json!({ "tool_calls": [{
                    "index": at,
                    "id": &*call.id.0,
                    "type": "function",
                    "function": { "name": call.tool, "arguments": "" },
                }] });
                (opens, piece(first), piece(rest))
            }
        };
        // The first chunk says whose message it is.
        if k == 0 {
            opens["role"] = "assistant".into();
        }
        pieces.push(vec![chunk(opens, Value::Null), chunk(first, Value::Null)]);
        pieces.push(vec![chunk(rest, Value::Null)]);
    }
    let finish = match stop {
        Stop::ToolUse => "tool_calls",
        Stop::EndTurn => "stop",
        Stop::Limit => "length",
    };
    pieces.push(vec![chunk(json!({}), finish.into())]);
    pieces
}

/// Responses: the response in progress, each output item added, its
/// deltas and its `.done` events, and the response completed (or
/// incomplete, cut at the limit), every event numbered in order.
fn responses(whole: &Value, blocks: &[Block<'_>]) -> Vec<Vec<Event>> {
    let mut number = 0;
    let mut next = |name: &'static str, mut data: Value| {
        data["type"] = name.into();
        data["sequence_number"] = number.into();
        number += 1;
        // `type` first, as the API writes it.
        let mut ordered = serde_json::Map::new();
        if let Value::Object(o) = data {
            let (typed, rest): (Vec<_>, Vec<_>) = o.into_iter().partition(|(k, _)| k == "type");
            ordered.extend(typed);
            ordered.extend(rest);
        }
        named(name, Value::Object(ordered))
    };
    let mut begun = whole.clone();
    begun["status"] = "in_progress".into();
    begun["output"] = json!([]);
    // No usage yet: the field is left out until the response completes.
    if let Value::Object(o) = &mut begun {
        o.shift_remove("usage");
    }
    begun["incomplete_details"] = Value::Null;
    let mut pieces = Vec::new();
    let mut start = vec![
        next("response.created", json!({ "response": begun })),
        next("response.in_progress", json!({ "response": begun })),
    ];
    let items = whole["output"].as_array().cloned().unwrap_or_default();
    for (at, (block, item)) in blocks.iter().zip(items).enumerate() {
        let (first, rest) = halves(block.whole());
        let id = item["id"].clone();
        let mut added = item.clone();
        added["status"] = "in_progress".into();
        let mut opens = std::mem::take(&mut start);
        let mut closes = Vec::new();
        match block {
            Block::Text(text) => {
                added["content"] = json!([]);
                let part = json!({ "type": "output_text", "text": "", "annotations": [] });
                let at_part = json!({ "item_id": id, "output_index": at, "content_index": 0 });
                let with = |mut v: Value, more: Value| {
                    if let (Value::Object(o), Value::Object(m)) = (&mut v, more) {
                        o.extend(m);
                    }
                    v
                };
                opens.push(next(
                    "response.output_item.added",
                    json!({ "output_index": at, "item": added }),
                ));
                opens.push(next(
                    "response.content_part.added",
                    with(at_part.clone(), json!({ "part": part })),
                ));
                let delta =
                    |text: &str| with(at_part.clone(), json!({ "delta": text, "logprobs": [] }));
                opens.push(next("response.output_text.delta", delta(first)));
                closes.push(next("response.output_text.delta", delta(rest)));
                closes.push(next(
                    "response.output_text.done",
                    with(at_part.clone(), json!({ "text": text, "logprobs": [] })),
                ));
                let part = json!({ "type": "output_text", "text": text, "annotations": [] });
                closes.push(next(
                    "response.content_part.done",
                    with(at_part, json!({ "part": part })),
                ));
            }
            Block::Call { arguments, .. } => {
                added["arguments"] = "".into();
                opens.push(next(
                    "response.output_item.added",
                    json!({ "output_index": at, "item": added }),
                ));
                let delta =
                    |text: &str| json!({ "item_id": id, "output_index": at, "delta": text });
                opens.push(next("response.function_call_arguments.delta", delta(first)));
                closes.push(next("response.function_call_arguments.delta", delta(rest)));
                closes.push(next(
                    "response.function_call_arguments.done",
                    json!({ "item_id": id, "output_index": at, "arguments": arguments }),
                ));
            }
        }
        closes.push(next(
            "response.output_item.done",
            json!({ "output_index": at, "item": item }),
        ));
        pieces.push(opens);
        pieces.push(closes);
    }
    let end = if whole["status"] == "incomplete" {
        "response.incomplete"
    } else {
        "response.completed"
    };
    pieces.push(vec![next(end, json!({ "response": whole }))]);
    pieces
}

/// Anthropic: the message started empty, each content block started,
/// its deltas and its stop, then the stop reason and the message's stop.
fn anthropic(whole: &Value, blocks: &[Block<'_>]) -> Vec<Vec<Event>> {
    let mut started = whole.clone();
    started["content"] = json!([]);
    started["stop_reason"] = Value::Null;
    started["stop_sequence"] = Value::Null;
    // As the docs' example stream starts: one output token so far.
    started["usage"]["output_tokens"] = 1.into();
    let mut start = vec![named(
        "message_start",
        json!({ "type": "message_start", "message": started }),
    )];
    let returned = whole["content"].as_array().cloned().unwrap_or_default();
    let mut pieces = Vec::new();
    for (index, (block, returned)) in blocks.iter().zip(returned).enumerate() {
        let (first, rest) = halves(block.whole());
        let mut opening = returned;
        let delta: fn(&str) -> Value = match block {
            Block::Text(_) => {
                opening["text"] = "".into();
                |text: &str| json!({ "type": "text_delta", "text": text })
            }
            Block::Call { .. } => {
                opening["input"] = json!({});
                |text: &str| json!({ "type": "input_json_delta", "partial_json": text })
            }
        };
        let delta = |text: &str| {
            named(
                "content_block_delta",
                json!({ "type": "content_block_delta", "index": index, "delta": delta(text) }),
            )
        };
        let mut opens = std::mem::take(&mut start);
        opens.push(named(
            "content_block_start",
            json!({ "type": "content_block_start", "index": index, "content_block": opening }),
        ));
        opens.push(delta(first));
        let stop = named(
            "content_block_stop",
            json!({ "type": "content_block_stop", "index": index }),
        );
        pieces.push(opens);
        pieces.push(vec![delta(rest), stop]);
    }
    let usage = &whole["usage"];
    pieces.push(vec![
        named(
            "message_delta",
            json!({
                "type": "message_delta",
                "delta": {
                    "container": whole["container"],
                    "stop_details": whole["stop_details"],
                    "stop_reason": whole["stop_reason"],
                    "stop_sequence": whole["stop_sequence"],
                },
                "usage": {
                    "input_tokens": usage["input_tokens"],
                    "cache_creation_input_tokens": usage["cache_creation_input_tokens"],
                    "cache_read_input_tokens": usage["cache_read_input_tokens"],
                    "output_tokens": usage["output_tokens"],
                    "output_tokens_details": usage["output_tokens_details"],
                    "server_tool_use": usage["server_tool_use"],
                },
            }),
        ),
        named("message_stop", json!({ "type": "message_stop" })),
    ]);
    pieces
}
