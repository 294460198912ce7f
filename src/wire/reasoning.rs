//! The reasoning items a recorded Responses request sends back. The
//! readable context list draws them in their place, so that its item
//! numbers are the request's own and add up to its heading's count.

use serde::Deserialize;

use crate::provider::Provider;
use crate::trace::Trace;

/// One `reasoning` item of a recorded request's `input`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reasoning {
    /// Its 1-based number in `input`.
    pub number: u32,
    pub id: Option<String>,
    /// Its summary's texts, joined.
    pub summary: String,
    /// Characters of `encrypted_content` (opaque to anyone but the provider).
    pub encrypted: usize,
}

#[derive(Deserialize)]
struct Body {
    #[serde(default)]
    input: Vec<Item>,
}

#[derive(Deserialize)]
struct Item {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    summary: Vec<Summary>,
    #[serde(default)]
    encrypted_content: Option<String>,
}

#[derive(Deserialize)]
struct Summary {
    #[serde(default)]
    text: String,
}

/// The reasoning items model call `index` sent, as its recorded body holds
/// them; none for a lesson, another provider or a body rebuilt from the
/// messages (it sends no reasoning).
pub fn reasoning_items(trace: &Trace, index: usize) -> Vec<Reasoning> {
    let Some(body) = trace.model_calls.get(index).and_then(|m| m.body.as_ref()) else {
        return Vec::new();
    };
    // Read again only for a body that holds some (`reasoning_at`).
    if trace.provider != Provider::Responses || body.reasoning_at.is_empty() {
        return Vec::new();
    }
    // A body of another shape (an `input` that is text) holds none.
    let Ok(body) = serde_json::from_str::<Body>(&body.request) else {
        return Vec::new();
    };
    body.input
        .into_iter()
        .enumerate()
        .filter(|(_, item)| item.kind.as_deref() == Some("reasoning"))
        .map(|(at, item)| Reasoning {
            number: at as u32 + 1,
            id: item.id.map(|id| crate::safe::for_screen(&id).into_owned()),
            summary: item
                .summary
                .iter()
                .map(|s| s.text.as_str())
                .collect::<Vec<_>>()
                .join(" "),
            encrypted: item.encrypted_content.map_or(0, |e| e.chars().count()),
        })
        .collect()
}

/// The number in the request of the item the list without reasoning
/// numbers `drawn`: past every reasoning item (numbered `reasoning_at`,
/// in order) that comes before it.
pub fn number_past(drawn: u32, reasoning_at: &[u32]) -> u32 {
    let mut number = drawn;
    for &at in reasoning_at {
        if at <= number {
            number += 1;
        }
    }
    number
}

/// The numbers of model call `index`'s reasoning items, as its recorded
/// body keeps them (none for a body rebuilt or of another provider).
pub fn reasoning_at(trace: &Trace, index: usize) -> &[u32] {
    match trace.model_calls.get(index).and_then(|m| m.body.as_ref()) {
        Some(body) if trace.provider == Provider::Responses => &body.reasoning_at,
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_step_past_the_reasoning_before_them() {
        // input: 1 user, 2 reasoning, 3 call, 4 call, 5 reasoning, 6 output
        let r = [2, 5];
        let drawn: Vec<u32> = (1..=4).map(|n| number_past(n, &r)).collect();
        assert_eq!(drawn, [1, 3, 4, 6]);
        assert_eq!(number_past(3, &[]), 3);
    }
}
