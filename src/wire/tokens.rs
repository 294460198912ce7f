//! Tokens, counted with a real tokenizer: OpenAI's `o200k_base` encoding
//! (the GPT-4o and GPT-4.1 family), from tiktoken-rs. A request's count is
//! the texts it carries plus OpenAI's documented overhead for chat messages
//! (three tokens a message and three to prime the reply); the provider's own
//! count can differ by a few tokens. Anthropic's tokenizer is not public, so
//! for Anthropic requests the same count is labelled an estimate.

/// Tokens added for each message of a chat request (the role and the
/// separators around it), as OpenAI's cookbook counts them.
pub const PER_MESSAGE: usize = 3;

/// Tokens that prime the assistant's reply, once a request.
pub const REPLY_PRIMING: usize = 3;

/// The number of `o200k_base` tokens in `text` (no special tokens).
pub fn count(text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    tiktoken_rs::o200k_base_singleton().count_ordinary(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_the_encodings() {
        // Checked against the reference tokenizer: "hello world" is two
        // tokens in o200k_base, and the empty text none.
        assert_eq!(count("hello world"), 2);
        assert_eq!(count(""), 0);
        assert!(count("读取超时配置") >= 2);
    }
}
