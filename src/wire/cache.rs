//! The provider's prompt cache, for a lesson whose host reads it
//! (`host.caches_prompt`): how many input tokens of each request the
//! provider serves from its cache of earlier requests, and what the call
//! costs with and without it.
//!
//! As OpenAI documents it (developers.openai.com, "Prompt caching"):
//! caching is automatic for prompts of 1,024 tokens or more; a hit needs
//! an exact prefix match; cached tokens count in steps of 128 (1,024,
//! 1,152, 1,280, …); the count is `usage.prompt_tokens_details.
//! cached_tokens` (Chat Completions) or `usage.input_tokens_details.
//! cached_tokens` (Responses), part of the input tokens, not besides them.
//! The prefix here is what every request sends first (system prompt, tool
//! definitions) and then the messages, compared item by item as the body
//! carries them: a message that differs by one byte ends the match.
//! Counts are the simulator's o200k_base counts, never a provider's.

use super::cached_tokens;
use crate::tokens::Counts;
use crate::trace::Trace;

/// `OPENAI_MODEL`'s (gpt-4.1) list prices in US dollars per million
/// tokens: input, cached input, output (openai.com/api/pricing).
pub const PRICE_INPUT: f64 = 2.00;
pub const PRICE_CACHED: f64 = 0.50;
pub const PRICE_OUTPUT: f64 = 8.00;

/// One model call's tokens as its response's usage reports them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheUse {
    /// Every input token, the cached ones included.
    pub input: usize,
    /// The input tokens served from the cache.
    pub cached: usize,
    pub output: usize,
}

impl CacheUse {
    /// The call's price in dollars, its cached tokens at the cached price.
    pub fn cost(&self) -> f64 {
        let fresh = self.input - self.cached;
        (fresh as f64 * PRICE_INPUT
            + self.cached as f64 * PRICE_CACHED
            + self.output as f64 * PRICE_OUTPUT)
            / 1e6
    }

    /// The same call's price had nothing been cached.
    pub fn cost_uncached(&self) -> f64 {
        (self.input as f64 * PRICE_INPUT + self.output as f64 * PRICE_OUTPUT) / 1e6
    }
}

/// Model call `index`'s cache use, where the trace reports the cache.
pub fn cache_use(trace: &Trace, counts: &Counts, index: usize) -> Option<CacheUse> {
    trace.prompt_cache.then(|| CacheUse {
        input: super::context_tokens(trace, counts, index),
        cached: cached_tokens(trace, counts, index),
        output: super::output_tokens(trace, counts, index),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_costs_less_by_its_cached_tokens() {
        let u = CacheUse {
            input: 2000,
            cached: 1024,
            output: 100,
        };
        // 976 × $2 + 1024 × $0.50 + 100 × $8, per million.
        assert!((u.cost() - 0.003264).abs() < 1e-12);
        assert!((u.cost_uncached() - 0.0048).abs() < 1e-12);
    }
}
