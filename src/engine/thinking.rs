//! A reply's reasoning (`Rule::reasoning`): recorded as the provider
//! returned it, held with the reply unless the harness drops it, and the
//! provider's 400 when a request breaks its rule for it
//! (`wire::thinking_rejection`).

use std::sync::Arc;

use crate::scenario::{EndStatus, Rule};
use crate::trace::{Lane, Message, StepKind, Thinking};
use crate::wire;

use super::run::Run;

impl Run<'_> {
    /// The reasoning of the reply to the latest model call: on its model
    /// call as returned (its tokens are generated tokens too), and on the
    /// reply's message unless the harness drops it or its provider
    /// returns none to send back (Chat Completions: a count only).
    pub(super) fn reasoning(&mut self, rule: &Rule, message: &mut Message) {
        let Some(text) = rule.reasoning.as_ref() else {
            return;
        };
        let text: Arc<str> = text.get(self.lang).into();
        if let Some(mc) = self.rec.trace.model_calls.last_mut() {
            if let Some(tokens) = &mut mc.tokens {
                *tokens += wire::tokens::count(&text);
            }
            mc.reasoning = Some(text.clone());
        }
        // Chat Completions returns no reasoning, so there is none to hold.
        let kept = !self.scenario.harness.drop_reasoning
            && self.scenario.provider() != crate::provider::Provider::Chat;
        if kept {
            message.reasoning = Some(text);
        }
    }

    /// Anthropic with extended thinking on: the last reply of the request
    /// made calls, and the host sent it back without its thinking block.
    /// The API refuses the request ("Building with extended thinking":
    /// during tool use the thinking block must be passed back); the model
    /// never runs.
    pub(super) fn thinking_rejects(&mut self, number: u32) -> Option<EndStatus> {
        if self.rec.trace.thinking != Thinking::Dropped {
            return None;
        }
        let error = wire::thinking_rejection(&self.rec.trace)?;
        self.step(
            StepKind::Rejected {
                number,
                unanswered: Vec::new(),
                error,
            },
            Some(Lane::Model),
            Lane::Host,
        );
        Some(EndStatus::Rejected)
    }
}
