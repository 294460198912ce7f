//! Anthropic's 400 for a reply sent back without its thinking block
//! (`harness.drop_reasoning`), apart from `thinking.rs`, whose shapes the
//! bodies (`body.rs`) use: this reads the bodies' places.

use crate::provider::Provider;
use crate::trace::{Role, Thinking, Trace};

/// Anthropic with extended thinking on refuses a request whose last reply
/// made calls and does not start with its thinking block, in its own
/// words (as quoted in the 400s of Kilo-Org/kilocode#5219 and
/// deepset-ai/haystack-core-integrations#2146): the place of that reply in
/// `messages` and the type of its first block. None where the request
/// keeps the rule.
pub fn thinking_rejection(trace: &Trace) -> Option<String> {
    if trace.provider != Provider::Anthropic || trace.thinking == Thinking::Off {
        return None;
    }
    let mc = trace.model_calls.last()?;
    let context = mc.context_start..mc.context_len;
    let (index, m) = trace
        .messages
        .slice(context.clone())
        .iter()
        .enumerate()
        .rev()
        .find(|(_, m)| m.role == Role::Assistant)?;
    if m.calls.is_empty() || m.reasoning.is_some() {
        return None;
    }
    let found = if m.text.is_empty() {
        "tool_use"
    } else {
        "text"
    };
    let index = context.start + index;
    let places = super::body::measure(trace, None).places;
    let at = places[index].number.saturating_sub(1);
    Some(format!(
        "400 invalid_request_error: messages.{at}.content.0.type: Expected `thinking` or \
         `redacted_thinking`, but found `{found}`. When `thinking` is enabled, a final \
         `assistant` message must start with a thinking block (preceeding the lastmost set of \
         `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from \
         previous turns. To avoid this requirement, disable `thinking`. Please consult our \
         documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
    ))
}
