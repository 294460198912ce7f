//! The provider turns a request away (`Scenario::provider_errors`): a 429
//! for the organisation's rate limit, or an overload (Anthropic 529,
//! OpenAI 503), each with a `retry-after` header. The model never ran, so
//! nothing is owed and nothing is appended: the host waits as asked and
//! sends the very same request again. One model call, two HTTP requests.

use crate::trace::{Lane, StepKind};

use super::Run;

impl Run<'_> {
    /// When the lesson turns model call `number`'s first request away:
    /// the error comes back to the host (one step), which waits and sends
    /// the request again (a second step, one more HTTP request).
    pub(super) fn retry_if_turned_away(&mut self, number: u32) {
        let Some(turned) = self
            .scenario
            .provider_errors
            .iter()
            .find(|e| e.model_call == number)
        else {
            return;
        };
        let kind = StepKind::Throttled {
            number,
            error: turned.error,
            retry_after: turned.retry_after,
        };
        self.step(kind, Some(Lane::Model), Lane::Host);
        self.rec.counters.http_requests += 1;
        self.step(StepKind::Resends { number }, Some(Lane::Host), Lane::Model);
    }
}
