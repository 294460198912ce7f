//! The window as files written before 2026-12-01 counted it
//! (`WindowCount::Estimate`): an estimate of about four ASCII characters a
//! token, over the messages and the tools' signatures and descriptions.
//! Kept so that such a file compacts where its author saw it compact.

use crate::trace::{Message, Trace};

/// A message as counted then: its text, each call's id, tool and
/// arguments, and the id a result answers.
pub(super) fn message(trace: &Trace, m: &Message) -> usize {
    let mut tokens = estimate_tokens(&m.text);
    for id in &m.calls {
        if let Some(call) = trace.call(id) {
            tokens += estimate_tokens(&id.0) + estimate_tokens(&call.tool);
            tokens += estimate_tokens(&call.args_text());
        }
    }
    if let Some(id) = &m.call_id {
        tokens += estimate_tokens(&id.0);
    }
    tokens
}

/// Every message's count, by its index in `trace.messages`.
pub(super) fn weights(trace: &Trace) -> Vec<usize> {
    trace.messages.iter().map(|m| message(trace, m)).collect()
}

/// The tools as counted then: each one's signature and description.
pub(super) fn tools(trace: &Trace) -> usize {
    (trace.tools.iter())
        .map(|t| estimate_tokens(&t.signature()) + estimate_tokens(&t.description))
        .sum()
}

/// A host's text (placeholder or summary) and the id it answers, as
/// counted then.
pub(super) fn text(text: &str, id: Option<&str>) -> usize {
    estimate_tokens(text) + id.map_or(0, estimate_tokens)
}

/// A rough, deterministic token count: about four ASCII characters a token,
/// one token per CJK character. Labelled as an estimate wherever shown.
pub fn estimate_tokens(s: &str) -> usize {
    let ascii = s.chars().filter(char::is_ascii).count();
    let other = s.chars().count() - ascii;
    ascii.div_ceil(4) + other
}
