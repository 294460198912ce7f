//! Two runs side by side: the main run and another (a harness mistake and
//! its correct twin), stepped together with one step index. This module
//! holds what the comparison is and where the runs first differ; the view
//! draws it in `view/compare.rs`.

use std::sync::Arc;

use crate::i18n;
use crate::load::{Loaded, ScenarioError};
use crate::scenario::Lang;
use crate::timelines::Timelines;
use crate::trace::{Message, Slice, Trace};

/// One side of the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The run the app was opened on.
    Main,
    /// The run it is compared with.
    Other,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Main, Side::Other];

    /// The side's short name: "main run" or "other run".
    pub fn label(self) -> i18n::Label {
        match self {
            Side::Main => i18n::COMPARE_MAIN,
            Side::Other => i18n::COMPARE_OTHER,
        }
    }

    pub fn index(self) -> usize {
        match self {
            Side::Main => 0,
            Side::Other => 1,
        }
    }

    pub fn flip(self) -> Side {
        match self {
            Side::Main => Side::Other,
            Side::Other => Side::Main,
        }
    }
}

/// The other run, and how the comparison stands on screen.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// Shared, like the app's own run: frames clone the app.
    pub other: Arc<Loaded>,
    /// The other run's timelines, made once (`App::timeline`).
    pub other_timelines: Arc<Timelines>,
    /// The two runs are on screen (else only offered, from `a`).
    pub shown: bool,
    /// The other run is the main one's `twin` (a shipped lesson by that
    /// name, or the lesson file it names).
    pub twin: bool,
    /// The side whose explanation is shown and whose lanes scroll.
    pub focus: Side,
    /// Lines each side's lanes are scrolled up from the newest.
    pub scroll: [u16; 2],
    /// Each side shows the context it sent in place of its lanes (`z`).
    pub contexts: bool,
    /// Where the runs first differ, per language shown (0-based step
    /// index), found once here rather than on every frame.
    first_difference: [Option<usize>; Lang::SHOWN.len()],
    /// Where the contexts they send first differ, per language shown.
    context_difference: [Option<ContextDifference>; Lang::SHOWN.len()],
}

/// The first model call whose context differs between the two runs: a
/// message differs, one is missing, or one run never makes that call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContextDifference {
    /// The model call (0-based).
    pub call: usize,
    /// The step each run makes it at (`Side::index`); None where that run
    /// never makes it.
    pub steps: [Option<usize>; 2],
}

impl ContextDifference {
    /// The earlier of the two steps: where the header names it.
    pub fn step(&self) -> usize {
        self.steps.into_iter().flatten().min().unwrap_or(0)
    }
}

impl Comparison {
    pub fn new(main: &Loaded, other: Arc<Loaded>, shown: bool) -> Comparison {
        // In the languages both runs are told in: the written ones, and
        // the pseudo-locale when both were shown in it (`load::shown_in`).
        let both =
            |lang: Lang| lang.is_written() || (main.pseudo.is_some() && other.pseudo.is_some());
        let first_difference = Lang::SHOWN.map(|lang| {
            both(lang)
                .then(|| first_difference(main.trace(lang), other.trace(lang)))
                .flatten()
        });
        let context_difference = Lang::SHOWN.map(|lang| {
            both(lang)
                .then(|| first_context_difference(main.trace(lang), other.trace(lang)))
                .flatten()
        });
        let twin =
            main.lesson.as_ref().and_then(|l| l.twin.as_deref()) == Some(other.card.name.as_str());
        Comparison {
            other_timelines: Arc::new(Timelines::of(&other)),
            other,
            shown,
            twin,
            focus: Side::Main,
            scroll: [0; 2],
            contexts: false,
            first_difference,
            context_difference,
        }
    }

    /// The first model call (and its steps) where the contexts sent differ.
    pub fn context_difference(&self, lang: Lang) -> Option<ContextDifference> {
        self.context_difference[lang.index()]
    }

    /// The first step (0-based) where the two runs differ in `lang`.
    pub fn first_difference(&self, lang: Lang) -> Option<usize> {
        self.first_difference[lang.index()]
    }

    /// A comparison figure's title and alt text, at the shared `step` of
    /// the open run `main` and this comparison's other run: both titles and
    /// the step; then where the runs first differ, and for each side its
    /// step, who acts, what happens and how its loop ended.
    pub fn figure_words(&self, main: &Trace, lang: Lang, step: usize) -> (String, String) {
        let c = self;
        let other = c.other.trace(lang);
        let steps = main.len().max(other.len());
        let shown = format!("{} {}/{}", i18n::STEP.get(lang), step + 1, steps);
        let names =
            i18n::COMPARE_FIGURE.fill(lang, &[("main", &main.title), ("other", &other.title)]);
        let mut text = match c.first_difference(lang) {
            Some(i) => i18n::COMPARE_FIRST_DIFF.fill(lang, &[("n", &(i + 1))]),
            None => i18n::COMPARE_NO_DIFF.get(lang).to_string(),
        };
        for (side, trace) in [(i18n::COMPARE_MAIN, main), (i18n::COMPARE_OTHER, other)] {
            let k = side_step(trace, step);
            let s = &trace.steps[k];
            text.push_str(&format!(
                "\n{}{} · {} {}/{}",
                i18n::lead(side, lang),
                trace.title,
                i18n::STEP.get(lang),
                k + 1,
                trace.len()
            ));
            if k < step {
                text.push_str(&format!(" · {}", i18n::COMPARE_ENDED.get(lang)));
            }
            text.push_str(&format!(
                "\n{}{}\n{}",
                i18n::lead(i18n::ACTING, lang),
                i18n::who_acts(trace, k),
                i18n::step_title(trace, k)
            ));
            if let Some(end) = s.end {
                text.push('\n');
                text.push_str(&i18n::loop_ended(end, trace.task, lang));
            }
        }
        (format!("{names} · {shown}"), text)
    }
}

/// The run named by `--compare`: a shipped name or a scenario file, ready
/// to be shown in `lang`. Its errors say they are about `--compare`.
pub fn load_other(
    name_or_path: &str,
    provider: Option<crate::wire::Provider>,
    lang: Lang,
) -> Result<Loaded, ScenarioError> {
    crate::load::load_shown_in(name_or_path, provider, lang).map_err(|e| ScenarioError {
        file: format!("--compare {}", e.file),
        ..e
    })
}

/// The step a side shows at the shared index: its own, or its last one
/// when it has ended earlier than the other.
pub fn side_step(trace: &Trace, step: usize) -> usize {
    step.min(trace.len().saturating_sub(1))
}

/// The first step index at which the runs differ (see `step_differs`).
pub fn first_difference(a: &Trace, b: &Trace) -> Option<usize> {
    let touched_a = calls_touched(a);
    let touched_b = calls_touched(b);
    (0..a.len().max(b.len())).find(|&i| step_differs_with(a, b, i, &touched_a, &touched_b))
}

/// Whether step `i` (0-based) differs between two runs, judged from the
/// traces alone. They differ when one run has a step there and the other
/// has ended, or when the steps differ in any of:
/// - who sends the message (user, a lane, the provider's API) and which
///   lane receives it;
/// - what happens (the step's kind with its call ids, model call number,
///   verdict, check output), and whether the step ends the loop and how;
/// - the calls this step proposes, decides, starts or answers: their ids,
///   tools, arguments, status after the step and how the result was
///   attached (by id, to a wrong id, dropped);
/// - the messages this step appends to the conversation: role, text, the
///   call ids they carry, error or not.
///
/// Narration is not compared: it is the author's words about a step, not
/// what the run did.
pub fn step_differs(a: &Trace, b: &Trace, i: usize) -> bool {
    step_differs_with(a, b, i, &calls_touched(a), &calls_touched(b))
}

fn step_differs_with(
    a: &Trace,
    b: &Trace,
    i: usize,
    touched_a: &[Vec<usize>],
    touched_b: &[Vec<usize>],
) -> bool {
    let (Some(x), Some(y)) = (a.steps.get(i), b.steps.get(i)) else {
        return a.steps.get(i).is_some() != b.steps.get(i).is_some();
    };
    if x.source() != y.source() || x.to != y.to || x.kind != y.kind || x.end != y.end {
        return true;
    }
    let calls = |t: &Trace, touched: &[Vec<usize>]| -> Vec<_> {
        touched
            .get(i)
            .into_iter()
            .flatten()
            .map(|&k| {
                let c = &t.calls[k];
                (
                    c.id.clone(),
                    c.tool.clone(),
                    c.args.clone(),
                    c.status_at(i),
                    c.pairing().filter(|_| c.finished.is_some_and(|f| f <= i)),
                )
            })
            .collect()
    };
    if calls(a, touched_a) != calls(b, touched_b) {
        return true;
    }
    let (ma, mb) = (appended_at(a, i), appended_at(b, i));
    ma.len() != mb.len() || ma.iter().zip(mb).any(|(x, y)| !same_message(x, y))
}

/// The first model call whose context is not the same in both runs.
pub fn first_context_difference(a: &Trace, b: &Trace) -> Option<ContextDifference> {
    let n = a.model_calls.len().max(b.model_calls.len());
    (0..n)
        .find(|&k| match (a.model_calls.get(k), b.model_calls.get(k)) {
            (Some(x), Some(y)) => {
                let (x, y) = (a.context(x), b.context(y));
                x.len() != y.len() || x.iter().zip(y).any(|(m, n)| !same_message(m, n))
            }
            _ => true,
        })
        .map(|call| ContextDifference {
            call,
            steps: [a, b].map(|t| t.model_calls.get(call).map(|c| c.step)),
        })
}

/// For each message `a` holds at its step `sa`: is it other than the
/// message at the same place among those `b` holds at `sb` (or is there
/// none)? The context panels mark these `≠`.
pub fn differing_messages(a: &Trace, sa: usize, b: &Trace, sb: usize) -> Vec<bool> {
    let held = |t: &Trace, s: usize| t.messages.partition_point(|m| m.step <= s);
    let theirs = b.messages.slice(..held(b, sb));
    a.messages
        .slice(..held(a, sa))
        .iter()
        .enumerate()
        .map(|(i, m)| theirs.get(i).is_none_or(|n| !same_message(m, n)))
        .collect()
}

/// The same message as the model reads it: role, text, calls, the id it
/// answers, error or not, and the reasoning sent back with it.
fn same_message(x: &Message, y: &Message) -> bool {
    (
        x.role,
        &x.text,
        &x.calls,
        &x.call_id,
        x.is_error,
        &x.reasoning,
    ) == (
        y.role,
        &y.text,
        &y.calls,
        &y.call_id,
        y.is_error,
        &y.reasoning,
    )
}

/// For each step, the calls (indices into `trace.calls`) it proposes,
/// decides, starts or finishes: one pass over the calls.
fn calls_touched(trace: &Trace) -> Vec<Vec<usize>> {
    let mut touched = vec![Vec::new(); trace.len()];
    for (k, c) in trace.calls.iter().enumerate() {
        let mut at = vec![Some(c.proposed), c.verdict.as_ref().map(|(s, _)| *s)];
        at.extend([c.started, c.finished]);
        let mut steps: Vec<usize> = at.into_iter().flatten().collect();
        steps.sort_unstable();
        steps.dedup();
        for s in steps {
            if let Some(list) = touched.get_mut(s) {
                list.push(k);
            }
        }
    }
    touched
}

/// The messages appended at step `i` (they are stored in step order).
fn appended_at(trace: &Trace, i: usize) -> Slice<'_, Message> {
    let start = trace.messages.partition_point(|m| m.step < i);
    let end = trace.messages.partition_point(|m| m.step <= i);
    trace.messages.slice(start..end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::load;

    fn traces(a: &str, b: &str) -> (Trace, Trace) {
        let (a, b) = (load(a).unwrap(), load(b).unwrap());
        (a.trace(Lang::En).clone(), b.trace(Lang::En).clone())
    }

    #[test]
    fn a_run_does_not_differ_from_itself() {
        let (a, b) = traces("read-config-timeout", "read-config-timeout");
        assert_eq!(first_difference(&a, &b), None);
        assert!((0..a.len()).all(|i| !step_differs(&a, &b, i)));
    }

    /// The dropped result is the same step, the same arrow and the same
    /// kind in both runs; what differs is the call's status and the tool
    /// message the correct host appends.
    #[test]
    fn a_dropped_result_differs_by_status_and_message() {
        let (bad, good) = traces("harness-drops-results", "read-config-timeout");
        let i = first_difference(&bad, &good).expect("the runs differ");
        let (x, y) = (&bad.steps[i], &good.steps[i]);
        assert_eq!((x.source(), x.to, &x.kind), (y.source(), y.to, &y.kind));
        assert!(matches!(
            x.kind,
            crate::trace::StepKind::ResultArrives { .. }
        ));
        assert_eq!(appended_at(&bad, i).len(), 0);
        assert_eq!(appended_at(&good, i).len(), 1);
        assert!((0..i).all(|k| !step_differs(&bad, &good, k)));
    }

    #[test]
    fn each_part_of_a_step_counts() {
        let (a, _) = traces("read-config-timeout", "read-config-timeout");
        let i = 2; // the model proposes call_1
        // The kind, with its call ids.
        let mut b = a.clone();
        b.steps[i].kind = crate::trace::StepKind::Answers { number: 1 };
        assert_eq!(first_difference(&a, &b), Some(i));
        // The receiving lane.
        let mut b = a.clone();
        b.steps[i].to = crate::trace::Lane::Tool;
        assert_eq!(first_difference(&a, &b), Some(i));
        // The sender.
        let mut b = a.clone();
        b.steps[i].from = None;
        assert_eq!(first_difference(&a, &b), Some(i));
        // How the step ends the loop.
        let mut b = a.clone();
        b.steps[i].end = Some(crate::scenario::EndStatus::Crashed);
        assert_eq!(first_difference(&a, &b), Some(i));
        // A call's arguments, at the step that proposes it.
        let mut b = a.clone();
        b.calls[0].args[0].1 = "other.txt".into();
        assert_eq!(first_difference(&a, &b), Some(b.calls[0].proposed));
        // A message's content, at the step that appends it.
        let mut b = a.clone();
        let last = b.messages.len() - 1;
        b.messages[last].text = format!("{}!", b.messages[last].text).into();
        assert_eq!(first_difference(&a, &b), Some(b.messages[last].step));
        // The author's narration does not.
        let mut b = a.clone();
        b.steps[i].narration = Some("other words".into());
        assert_eq!(first_difference(&a, &b), None);
        // A run that ends earlier differs where the other goes on.
        let mut b = a.clone();
        b.steps.truncate(5);
        assert_eq!(first_difference(&a, &b), Some(5));
        assert_eq!(side_step(&b, 7), 4);
    }

    /// The dropped result: the runs differ at step 6, the contexts they
    /// send at call #2 (step 7 in both), where only the correct host's
    /// holds call_1's result; the crashing host never makes call #2.
    #[test]
    fn the_contexts_first_differ_where_a_result_is_missing_or_a_call_never_made() {
        let (bad, good) = traces("harness-drops-results", "read-config-timeout");
        let d = first_context_difference(&bad, &good).expect("the contexts differ");
        assert_eq!((d.call, d.steps, d.step()), (1, [Some(6), Some(6)], 6));
        let marked = differing_messages(&good, 6, &bad, 6);
        let tool: Vec<usize> = (0..marked.len()).filter(|&i| marked[i]).collect();
        assert_eq!(tool.len(), 1, "{marked:?}");
        assert!(good.messages[tool[0]].call_id.is_some());
        assert!(differing_messages(&bad, 6, &good, 6).iter().all(|d| !d));
        let (a, b) = traces("read-config-timeout", "read-config-timeout");
        assert_eq!(first_context_difference(&a, &b), None);
        let (crash, twin) = traces("harness-crashes-on-error", "wrong-path-first");
        let d = first_context_difference(&crash, &twin).unwrap();
        assert_eq!(d.call, 1);
        assert_eq!(d.steps[0], None);
        assert_eq!(d.steps[1], Some(twin.model_calls[1].step));
    }

    #[test]
    fn every_twin_pair_differs_where_the_harness_goes_wrong() {
        for (bad, good, kind) in [
            (
                "harness-drops-results",
                "read-config-timeout",
                "result_arrives",
            ),
            ("harness-crashes-on-error", "wrong-path-first", "crashes"),
            (
                "harness-pairs-by-order",
                "parallel-calls-out-of-order",
                "result_arrives",
            ),
            ("harness-trusts-done", "verify-before-done", "answers"),
        ] {
            let (a, b) = traces(bad, good);
            let i = first_difference(&a, &b).unwrap_or_else(|| panic!("{bad}: no difference"));
            let code: &'static str = (&a.steps[i].kind).into();
            assert_eq!(code, kind, "{bad}: first difference at step {}", i + 1);
        }
    }
}
