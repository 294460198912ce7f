//! A lesson's reasoning on the wire (`Trace::thinking`): the settings that
//! turn it on, the item or block that carries a reply's reasoning in each
//! provider's shape, and Anthropic's 400 for a reply sent back without its
//! thinking block.
//!
//! - OpenAI Responses: a `reasoning` item before the reply's items, with
//!   its summary and, as the request asks (`store: false`, `include:
//!   ["reasoning.encrypted_content"]`), its `encrypted_content`.
//! - Anthropic Messages: a `thinking` block first in the reply, with its
//!   `signature` (extended thinking, `thinking: {type: "enabled"}`).
//! - OpenAI Chat Completions: nothing. A reasoning model there returns no
//!   reasoning to send back, only a count of its tokens in `usage`.
//!
//! The encrypted content and the signature are opaque to anyone but the
//! provider; the simulator writes a stand-in of the same kind (base64,
//! made from the lesson's name and the model call), not a real one.

use base64::Engine;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::provider::Provider;
use crate::trace::{Message, Thinking, Trace};

/// The OpenAI model a reasoning lesson's bodies name: one that reasons in
/// both Chat Completions and Responses.
pub const OPENAI_REASONING_MODEL: &str = "o4-mini";
/// Anthropic's extended thinking budget: at least 1,024 tokens, and below
/// `max_tokens` ("Building with extended thinking").
pub const THINKING_BUDGET: u32 = 1024;
/// `max_tokens` with extended thinking on: above the budget.
pub const THINKING_MAX_TOKENS: u32 = 2048;
/// Reasoning effort, as both OpenAI APIs take it.
const EFFORT: &str = "medium";

/// The request's settings that turn reasoning on, added to `o`.
pub fn settings(trace: &Trace, o: &mut Map<String, Value>) {
    if trace.thinking == Thinking::Off {
        return;
    }
    match trace.provider {
        Provider::Chat => {
            o.insert("reasoning_effort".into(), EFFORT.into());
        }
        Provider::Responses => {
            o.insert(
                "reasoning".into(),
                json!({ "effort": EFFORT, "summary": "auto" }),
            );
            // Stateless: the provider keeps nothing, so the reasoning
            // travels in the request, encrypted.
            o.insert("store".into(), false.into());
            o.insert("include".into(), json!(["reasoning.encrypted_content"]));
        }
        Provider::Anthropic => {
            o.insert(
                "thinking".into(),
                json!({ "type": "enabled", "budget_tokens": THINKING_BUDGET }),
            );
        }
    }
}

/// The number of the model call whose reply `m` is (1-based).
fn model_call_of(trace: &Trace, m: &Message) -> usize {
    trace.model_calls.partition_point(|mc| mc.step < m.step)
}

/// A stand-in for an opaque value (`encrypted_content`, `signature`):
/// base64 of 64 bytes, the same for the same lesson, call and kind.
fn stand_in(trace: &Trace, n: usize, kind: &str) -> String {
    let first = Sha256::digest(format!("{}/{n}/{kind}", trace.scenario));
    let second = Sha256::digest(first);
    let mut bytes = first.to_vec();
    bytes.extend_from_slice(&second);
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The Responses `reasoning` item of reply `m` (a request's input item, or
/// a response's output item: the same fields).
pub fn responses_item(trace: &Trace, m: &Message, text: &str) -> Value {
    let n = model_call_of(trace, m);
    json!({
        "type": "reasoning",
        "id": format!("rs_{n}"),
        "summary": [{ "type": "summary_text", "text": text }],
        "encrypted_content": stand_in(trace, n, "encrypted_content"),
    })
}

/// The Anthropic `thinking` block that opens reply `m`.
pub fn anthropic_block(trace: &Trace, m: &Message, text: &str) -> Value {
    let n = model_call_of(trace, m);
    json!({
        "type": "thinking",
        "thinking": text,
        "signature": stand_in(trace, n, "signature"),
    })
}

/// The reasoning reply `m` carries in a request, where its provider has a
/// place for it and the host kept it.
pub fn sent(trace: &Trace, m: &Message) -> Option<Value> {
    let text = m.reasoning.as_deref()?;
    match trace.provider {
        Provider::Responses => Some(responses_item(trace, m, text)),
        Provider::Anthropic => Some(anthropic_block(trace, m, text)),
        Provider::Chat => None,
    }
}
