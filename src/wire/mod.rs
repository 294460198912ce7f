//! The wire: a model call as one provider receives it. A request body in the
//! provider's own shape (system prompt or instructions, tools with their JSON
//! schema, the messages or input items exactly as sent) and the response.
//!
//! Three shapes, as the providers document them:
//! - OpenAI Chat Completions (`POST /v1/chat/completions`): `messages`, the
//!   system prompt as the first message, assistant `tool_calls` with `id`,
//!   results as `tool` messages with `tool_call_id`; errors only as text.
//! - OpenAI Responses (`POST /v1/responses`): `instructions` and `input`
//!   items; a call is a `function_call` item with its own `id` (`fc_…`) and
//!   the `call_id` (`call_…`) that its `function_call_output` names.
//! - Anthropic Messages (`POST /v1/messages`): `system`, `tools` with
//!   `input_schema`, `tool_use` blocks inside the assistant message, and all
//!   `tool_result` blocks of a turn first in the next user message, with
//!   `is_error: true` on a failed result.
//!
//! `export --format requests` writes one JSON line per model call:
//! `{"provider": "chat"|"responses"|"anthropic", "request": {…}, "response": {…}}`,
//! and `--transcript` reads such a file back.

mod body;
pub mod cache;
mod dropped_thinking;
pub mod mcp;
mod reasoning;
pub mod stream;
mod thinking;
mod turned_away;

pub use body::{
    ANTHROPIC_MODEL, Changed, MAX_TOKENS, OPENAI_MODEL, anthropic_block, cached_tokens,
    compaction_tokens, context_tokens, context_tokens_ready, count_in_background, counts_of,
    fixed_tokens, item_id, item_id_of, items, list_counts, list_key, measure, measure_after,
    message_tokens, model, output_tokens, rebuilt, recorded_model, recorded_new_from, rejection,
    reply, reply_tokens, request, response, schema, status, tokens_besides_text, tokens_of_message,
    tool_choice, tools, unmarked,
};

pub use crate::place::Place;
pub use crate::provider::Provider;
pub use dropped_thinking::thinking_rejection;
pub use reasoning::{Reasoning, number_past, reasoning_at, reasoning_items};
pub use turned_away::{TurnedAway, error_at, turned_away};
// The provider, placing and counting sit below the trace; the wire reads
// traces. Their old paths under `wire` stay.
pub use crate::tokens;

use serde::{Deserialize, Serialize};

/// What a requests line says where its body is rebuilt from a replayed
/// run's messages (the file records no request body).
pub const REBUILT: &str = "request rebuilt from the messages; model and parameters: not recorded";

/// What a requests line says where the response is the lesson's own: its
/// `usage` is our count, never a provider's. Anthropic, for one, adds a
/// tool-use system prompt of a few hundred tokens whenever `tools` is set
/// (docs.anthropic.com, "Tool use pricing and tokens").
pub const ESTIMATED_USAGE: &str = "usage: o200k_base tokens of this body and reply, counted by the \
     simulator; a provider counts with its own tokenizer and adds input of its own (Anthropic: a \
     tool-use system prompt when tools are offered)";

/// One line of `export --format requests`: a model call as its provider
/// received it and answered it.
#[derive(Debug, Serialize, Deserialize)]
pub struct Exchange {
    pub provider: Provider,
    /// Set (`REBUILT`) where the request is rebuilt from a replayed run's
    /// messages, not recorded; absent where it is the body as recorded,
    /// or a lesson's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebuilt: Option<String>,
    /// Set (`ESTIMATED_USAGE`) where the response's `usage` is the
    /// simulator's count, not one a provider reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<String>,
    pub request: serde_json::Value,
    /// The response's HTTP status: 200, or 400 when the provider refused.
    pub status: u16,
    /// None where the run records no reply.
    pub response: Option<serde_json::Value>,
    /// Where the request asked for a stream, the events that brought the
    /// response, in order (each an event's data): what the host assembles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<Vec<serde_json::Value>>,
}

/// Every model call of the trace, one JSON line each.
pub fn write_requests(
    trace: &crate::trace::Trace,
    out: &mut (impl std::io::Write + ?Sized),
) -> std::io::Result<()> {
    let counts = counts_of(trace);
    for k in 0..trace.model_calls.len() {
        let line = Exchange {
            provider: trace.provider,
            rebuilt: rebuilt(trace, k).then(|| REBUILT.to_string()),
            usage: trace
                .recorded
                .is_none()
                .then(|| ESTIMATED_USAGE.to_string()),
            request: request(trace, k),
            status: status(trace, k),
            response: response(trace, &counts, k),
            stream: (trace.stream && status(trace, k) == 200).then(|| {
                let events = stream::events(trace, &counts, k);
                events.into_iter().flatten().map(|e| e.data).collect()
            }),
        };
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

#[cfg(test)]
mod body_tests {
    use super::*;
    use crate::load::{CATALOG, load_as};
    use crate::scenario::Lang;

    /// The size the screen states for every model call is the length of
    /// the body `request` builds, byte for byte, for every shipped lesson
    /// in every provider and language.
    #[test]
    fn stated_sizes_are_the_bodies_lengths() {
        for (name, _) in CATALOG {
            for provider in Provider::ALL {
                // A lesson that names its provider is refused in others.
                let Ok(loaded) = load_as(name, Some(provider)) else {
                    let pinned = crate::load::load(name).unwrap().lesson.unwrap().provider;
                    assert!(pinned.is_some_and(|p| p != provider), "{name}");
                    continue;
                };
                for lang in Lang::ALL {
                    let trace = loaded.trace(lang);
                    assert_eq!(trace.provider, provider);
                    for (k, mc) in trace.model_calls.iter().enumerate() {
                        let body = serde_json::to_vec(&request(trace, k)).unwrap();
                        assert_eq!(
                            mc.context_size,
                            body.len(),
                            "{name} {provider:?} {lang:?} call #{}",
                            mc.number
                        );
                    }
                }
            }
        }
    }
}
