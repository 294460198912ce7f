//! Tool-call ids in the style a scenario asks for. Real ids are opaque
//! strings the provider's API makes; these are made the same shape, and
//! deterministically (seeded from the scenario's name and the call's
//! number), so every run of a scenario shows the same ids.
//!
//! Shapes, as real responses show them:
//! - OpenAI Chat Completions `tool_calls[].id`, and the Responses API's
//!   `function_call.call_id`: `call_` then 24 ASCII letters and digits
//!   (`call_OnWAk719Jr3tte4OmCJtJOB4`), 29 characters. (A Responses
//!   `function_call` item also has an `id`, `fc_…`; the result names the
//!   `call_id`.)
//! - Anthropic Messages `tool_use.id`: `toolu_01` then 22 letters and
//!   digits (`toolu_01D7FLrfh4GYq7yT1ULFeyMV`), 30 characters.

use crate::scenario::IdStyle;
use crate::trace::CallId;

const BASE62: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/// Anthropic's ids seen in the wild avoid 0, O, I and l (base58).
const BASE58: &[u8] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/// The id of the `n`-th call (1-based) of a run of `scenario`.
pub fn call_id(style: IdStyle, scenario: &str, n: usize) -> CallId {
    match style {
        IdStyle::Sequential => CallId(format!("call_{n}").into()),
        IdStyle::Openai => CallId(format!("call_{}", opaque(scenario, n, 24, BASE62)).into()),
        IdStyle::Anthropic => CallId(format!("toolu_01{}", opaque(scenario, n, 22, BASE58)).into()),
    }
}

/// `len` characters of `alphabet`, from a splitmix64 stream seeded with
/// an FNV-1a hash of the scenario's name and the call's number.
fn opaque(scenario: &str, n: usize, len: usize, alphabet: &[u8]) -> String {
    let mut seed: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in scenario.bytes().chain((n as u64).to_le_bytes()) {
        seed ^= u64::from(byte);
        seed = seed.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (0..len)
        .map(|_| {
            seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            alphabet[(z % alphabet.len() as u64) as usize] as char
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_the_real_shapes_and_stay_the_same() {
        let a = call_id(IdStyle::Openai, "lesson", 1).0;
        assert_eq!(a.len(), 29);
        assert!(a.starts_with("call_"));
        assert!(a[5..].bytes().all(|b| b.is_ascii_alphanumeric()));
        let b = call_id(IdStyle::Anthropic, "lesson", 1).0;
        assert_eq!(b.len(), 30);
        assert!(b.starts_with("toolu_01"));
        assert!(b[8..].bytes().all(|b| BASE58.contains(&b)));
        assert_eq!(a, call_id(IdStyle::Openai, "lesson", 1).0);
        assert_ne!(a, call_id(IdStyle::Openai, "lesson", 2).0);
        assert_ne!(a, call_id(IdStyle::Openai, "other", 1).0);
        assert_eq!(&*call_id(IdStyle::Sequential, "lesson", 3).0, "call_3");
    }
}
