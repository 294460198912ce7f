//! A request the provider turns away before the model runs: its HTTP
//! status, the `retry-after` header and the body, in the provider's own
//! shape (`StepKind::Throttled`).
//!
//! - OpenAI (Chat and Responses): `{"error": {"message", "type", "param",
//!   "code"}}`; a rate limit is 429 `rate_limit_exceeded`, an overload 503
//!   `server_is_overloaded` of type `service_unavailable_error`
//!   (platform.openai.com/docs/guides/error-codes lists the 503; the body,
//!   code and message as recorded from the API in Wei-Shaw/sub2api#5909
//!   and #6631). OpenAI has no 529.
//! - Anthropic: `{"type": "error", "error": {"type", "message"}}`; a rate
//!   limit is 429 `rate_limit_error` with `retry-after`, an overload 529
//!   `overloaded_error` (docs.anthropic.com/en/api/errors, "HTTP errors";
//!   /en/api/rate-limits: "a retry-after header indicating how long to
//!   wait").
//!
//! The message text names a limit and an organisation of the lesson's
//! making: a real one names the account's own.

use serde_json::{Value, json};

use super::{OPENAI_MODEL, Provider};
use crate::scenario::HttpError;

/// What the provider answers a turned-away request.
pub struct TurnedAway {
    /// The HTTP status: 429, 503 or 529.
    pub status: u16,
    /// The status line's reason phrase.
    pub reason: &'static str,
    /// The response body, exactly as the provider returns it.
    pub body: Value,
}

/// The provider's answer to a request turned away for `error`.
pub fn turned_away(provider: Provider, error: HttpError, retry_after: u32) -> TurnedAway {
    let openai = |status, reason, message: String, kind: &str, code: &str| TurnedAway {
        status,
        reason,
        body: json!({"error": {"message": message, "type": kind, "param": null, "code": code}}),
    };
    let anthropic = |status, reason, kind: &str, message: &str| TurnedAway {
        status,
        reason,
        body: json!({"type": "error", "error": {"type": kind, "message": message}}),
    };
    match (provider, error) {
        (Provider::Chat | Provider::Responses, HttpError::RateLimit) => openai(
            429,
            "Too Many Requests",
            format!(
                "Rate limit reached for {OPENAI_MODEL} in organization org-lesson on requests \
                 per min (RPM): Limit 3, Used 3, Requested 1. Please try again in {retry_after}s. \
                 Visit https://platform.openai.com/account/rate-limits to learn more."
            ),
            "requests",
            "rate_limit_exceeded",
        ),
        (Provider::Chat | Provider::Responses, HttpError::Overloaded) => openai(
            503,
            "Service Unavailable",
            "Our servers are currently overloaded. Please try again later.".to_string(),
            "service_unavailable_error",
            "server_is_overloaded",
        ),
        (Provider::Anthropic, HttpError::RateLimit) => anthropic(
            429,
            "Too Many Requests",
            "rate_limit_error",
            "This request would exceed the rate limit for your organization of 3 requests per \
             minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.",
        ),
        (Provider::Anthropic, HttpError::Overloaded) => {
            anthropic(529, "Overloaded", "overloaded_error", "Overloaded")
        }
    }
}

impl TurnedAway {
    /// The answer as the explanation quotes it: the status line, the
    /// header the host waits by, and the body.
    pub fn text(&self, retry_after: u32) -> String {
        format!(
            "HTTP {} {} · retry-after: {retry_after}\n{}",
            self.status, self.reason, self.body
        )
    }
}

/// The provider's own words at a step where it answers with an error: the
/// 400 of a rejected request, or the answer to a turned-away one.
pub fn error_at(trace: &crate::trace::Trace, kind: &crate::trace::StepKind) -> Option<String> {
    use crate::trace::StepKind;
    match kind {
        StepKind::Rejected { error, .. } => Some(error.clone()),
        StepKind::Throttled {
            error, retry_after, ..
        } => Some(turned_away(trace.provider, *error, *retry_after).text(*retry_after)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each provider's shape, status and code, as its documentation gives
    /// them: OpenAI has no 529, Anthropic's overload is one.
    #[test]
    fn each_provider_answers_in_its_own_shape() {
        let cases = [
            (
                Provider::Chat,
                HttpError::RateLimit,
                429,
                "/error/code",
                "rate_limit_exceeded",
            ),
            (
                Provider::Responses,
                HttpError::Overloaded,
                503,
                "/error/code",
                "server_is_overloaded",
            ),
            (
                Provider::Anthropic,
                HttpError::RateLimit,
                429,
                "/error/type",
                "rate_limit_error",
            ),
            (
                Provider::Anthropic,
                HttpError::Overloaded,
                529,
                "/error/type",
                "overloaded_error",
            ),
        ];
        for (provider, error, status, path, code) in cases {
            let answer = turned_away(provider, error, 2);
            assert_eq!(answer.status, status, "{provider:?} {error:?}");
            assert_eq!(
                answer.body.pointer(path),
                Some(&json!(code)),
                "{provider:?}"
            );
            assert!(answer.text(2).starts_with(&format!("HTTP {status} ")));
        }
        let anthropic = turned_away(Provider::Anthropic, HttpError::Overloaded, 1).body;
        assert_eq!(anthropic["type"], "error");
    }
}
