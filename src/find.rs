//! Finding your way in a long run: `/` searches the steps (their titles,
//! the call ids and tool names they name, their explanation and the texts
//! of the messages and results they add), `n` / `N` go to the next and
//! previous match; `m` / `M` to the next and previous model call; `e` /
//! `E` to the next and previous error or warning. Pure functions of the
//! trace: the app keeps only the query and the matches.

use crate::i18n;
use crate::scenario::Lang;
use crate::trace::{StepKind, Trace, Verdict};

/// A search: the query as typed, whether it is still being typed, and the
/// steps it matches (0-based, in order) in the language they were found in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Search {
    pub query: String,
    pub typing: bool,
    pub matches: Vec<usize>,
    pub lang: Option<Lang>,
}

impl Search {
    /// Where `step` stands among the matches: (1-based position, count),
    /// or None when it is not a match.
    pub fn position(&self, step: usize) -> Option<(usize, usize)> {
        self.matches
            .binary_search(&step)
            .ok()
            .map(|i| (i + 1, self.matches.len()))
    }

    /// The next match after `step` (`forward`) or before it, wrapping
    /// around the ends of the run.
    pub fn next(&self, step: usize, forward: bool) -> Option<usize> {
        let (first, last) = (self.matches.first()?, self.matches.last()?);
        if forward {
            let i = self.matches.partition_point(|&m| m <= step);
            Some(*self.matches.get(i).unwrap_or(first))
        } else {
            let i = self.matches.partition_point(|&m| m < step);
            Some(if i == 0 { *last } else { self.matches[i - 1] })
        }
    }
}

/// The steps whose words hold `query`, ignoring case.
pub fn matches(trace: &Trace, query: &str) -> Vec<usize> {
    let needle = query.trim().to_lowercase();
    if needle.is_empty() {
        return Vec::new();
    }
    (0..trace.len())
        .filter(|&i| step_holds(trace, i, &needle))
        .collect()
}

fn step_holds(trace: &Trace, index: usize, needle: &str) -> bool {
    let step = &trace.steps[index];
    let has = |text: &str| contains_ignoring_case(text, needle);
    if has(&i18n::step_title(trace, index)) || step.narration.as_deref().is_some_and(has) {
        return true;
    }
    let named = step.kind.call_ids().into_iter().any(|id| {
        has(&id.0)
            || trace.call_at(id, index).is_some_and(|c| {
                has(&c.tool)
                    || c.args.iter().any(|(_, v)| has(v))
                    || (c.finished == Some(index)
                        && c.result.as_ref().is_some_and(|r| has(&r.text)))
            })
    });
    if named {
        return true;
    }
    // The messages this step adds (a task, a reply, a result).
    let start = trace.messages.partition_point(|m| m.step < index);
    trace
        .messages
        .slice(start..)
        .iter()
        .take_while(|m| m.step == index)
        .any(|m| has(&m.text))
}

/// `needle` (already lower case) in `text`, ignoring case: byte by byte
/// for ASCII, with no copy of the text (long runs hold megabytes).
fn contains_ignoring_case(text: &str, needle: &str) -> bool {
    if needle.is_ascii() {
        let (t, n) = (text.as_bytes(), needle.as_bytes());
        return n.len() <= t.len() && t.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n));
    }
    text.to_lowercase().contains(needle)
}

/// The next (or previous) model call after `step`.
pub fn model_call(trace: &Trace, step: usize, forward: bool) -> Option<usize> {
    let at = |i: usize| matches!(trace.steps[i].kind, StepKind::ModelCall { .. });
    next_where(trace, step, forward, at)
}

/// The next (or previous) step that shows an error or a warning: an error
/// result, a result that answers no call, a refusal, an interrupt, a crash, a turned-away or rejected
/// request, the budget running out, or an explanation that warns (⚠).
pub fn trouble(trace: &Trace, step: usize, forward: bool) -> Option<usize> {
    next_where(trace, step, forward, |i| is_trouble(trace, i))
}

pub fn is_trouble(trace: &Trace, index: usize) -> bool {
    let step = &trace.steps[index];
    let kind = match &step.kind {
        StepKind::ResultArrives { call } => trace.call_at(call, index).is_none_or(|c| {
            c.finished != Some(index) || c.result.as_ref().is_some_and(|r| r.is_error)
        }),
        StepKind::Validates { verdict, .. } => matches!(verdict, Verdict::Refused(_)),
        StepKind::Crashes { .. }
        | StepKind::Interrupted { .. }
        | StepKind::Throttled { .. }
        | StepKind::Rejected { .. }
        | StepKind::Cut { .. }
        | StepKind::BudgetExhausted { .. } => true,
        _ => false,
    };
    kind || step.narration.as_deref().is_some_and(|n| n.contains('⚠'))
}

fn next_where(
    trace: &Trace,
    step: usize,
    forward: bool,
    at: impl Fn(usize) -> bool,
) -> Option<usize> {
    if forward {
        (step + 1..trace.len()).find(|&i| at(i))
    } else {
        (0..step.min(trace.len())).rev().find(|&i| at(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_wrap_around_and_say_where_a_step_stands() {
        let s = Search {
            matches: vec![3, 7, 20],
            ..Search::default()
        };
        assert_eq!(s.next(0, true), Some(3));
        assert_eq!(s.next(7, true), Some(20));
        assert_eq!(s.next(20, true), Some(3));
        assert_eq!(s.next(7, false), Some(3));
        assert_eq!(s.next(3, false), Some(20));
        assert_eq!(s.position(7), Some((2, 3)));
        assert_eq!(s.position(8), None);
        assert_eq!(Search::default().next(0, true), None);
    }

    #[test]
    fn case_is_ignored_without_copying_ascii_text() {
        assert!(contains_ignoring_case("Cargo TEST failed", "test"));
        assert!(!contains_ignoring_case("tes", "test"));
        assert!(contains_ignoring_case("读取 Config", "config"));
        assert!(contains_ignoring_case("读取配置文件", "配置"));
    }
}
