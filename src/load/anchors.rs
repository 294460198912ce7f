//! Narration keys: a step number, or an anchor on an event of the run, so
//! that adding a call does not renumber every later narration.
//!
//! | key | the step |
//! | --- | --- |
//! | `7` | step 7 |
//! | `task` | the task arrives (step 1) |
//! | `model_call.N` | the host sends model call N |
//! | `reply.N` | the model's reply to model call N (calls or an answer) |
//! | `ID.proposed` | the reply that proposed call ID (ID: the call's id, or its `label`) |
//! | `ID.validated` | the host's check of call ID |
//! | `ID.decided` | the user's answer when the host asked about call ID (policy `ask`) |
//! | `ID.executed` | the host starting the tool for call ID |
//! | `ID.result` | call ID's result attached (or its refusal, or the host's replay) |
//! | `ID.compacted` | the host removing call ID's result from the context |
//! | `compacts.N` | the host's Nth compaction |
//! | `end` | the last step |
//!
//! A key that names no event of the run is an error, as are two keys that
//! land on one step.

use std::collections::BTreeMap;

use crate::scenario::Text;
use crate::trace::{CallId, StepKind, Trace};

use super::errors::{key_path, quoted};

const EVENTS: &str = "task, model_call.N, reply.N, \
                     CALL_ID.proposed, CALL_ID.validated, CALL_ID.decided, CALL_ID.executed, CALL_ID.result, \
                     CALL_ID.compacted, compacts.N, end";

/// Each narration's step (0-based), in step order, and every bad key: its
/// JSON path and what was expected.
#[allow(clippy::type_complexity)]
pub(super) fn resolve<'s>(
    narration: &'s BTreeMap<String, Text>,
    trace: &Trace,
) -> (Vec<(usize, &'s Text)>, Vec<(String, String)>) {
    let mut at: BTreeMap<usize, &str> = BTreeMap::new();
    let mut out = Vec::new();
    let mut bad = Vec::new();
    for (key, text) in narration {
        let path = key_path("narration", key);
        let step = match step_of(key, trace) {
            Ok(step) => step,
            Err(message) => {
                bad.push((path, message));
                continue;
            }
        };
        if let Some(other) = at.insert(step, key) {
            bad.push((
                path,
                format!(
                    "lands on step {}, which {} also narrates; expected one narration per step",
                    step + 1,
                    key_path("narration", other)
                ),
            ));
            continue;
        }
        out.push((step, text));
    }
    out.sort_by_key(|(step, _)| *step);
    (out, bad)
}

/// The step (0-based) a key names (a narration key, or one of
/// `quiz_steps`), or what is wrong with it.
pub fn step_of(key: &str, trace: &Trace) -> Result<usize, String> {
    let steps = trace.len();
    let number = |s: &str| s.parse::<usize>().ok().filter(|n| n.to_string() == s);
    if let Some(n) = number(key) {
        return (1..=steps).contains(&n).then(|| n - 1).ok_or_else(|| {
            format!("expected a step number from 1 to {steps}, or an event: {EVENTS}")
        });
    }
    let no_event = |what: String| format!("{what}; expected an event of the run ({EVENTS})");
    match key {
        "task" => return Ok(0),
        "end" => return Ok(steps - 1),
        _ => {}
    }
    let Some((head, tail)) = key.rsplit_once('.') else {
        return Err(format!(
            "expected a step number from 1 to {steps}, or an event: {EVENTS}"
        ));
    };
    let nth = |what: &str| {
        number(tail).filter(|&n| n >= 1).ok_or_else(|| {
            format!(
                "expected {what}.N with N a number from 1, got {}",
                quoted(key)
            )
        })
    };
    let find = |pred: &dyn Fn(&StepKind) -> bool| trace.steps.iter().position(|s| pred(&s.kind));
    match head {
        "model_call" => {
            let n = nth("model_call")? as u32;
            find(&|k| matches!(k, StepKind::ModelCall { number } if *number == n)).ok_or_else(
                || {
                    no_event(format!(
                        "the run makes {} model calls",
                        trace.model_calls.len()
                    ))
                },
            )
        }
        "reply" => {
            let n = nth("reply")? as u32;
            find(&|k| {
                matches!(k, StepKind::Proposes { number, .. } | StepKind::Answers { number } if *number == n)
            })
            .ok_or_else(|| no_event(format!("model call #{n} gets no reply in the run")))
        }
        "compacts" => {
            let n = nth("compacts")?;
            trace.compactions.get(n - 1).map(|c| c.step).ok_or_else(|| {
                no_event(format!(
                    "the host compacts {} times in the run",
                    trace.compactions.len()
                ))
            })
        }
        id => {
            // A call's label (`"label"` on the call in the scenario) names
            // it as well as its id does, and does not move when a call is
            // added earlier in the run.
            let labelled: Vec<&crate::trace::ToolCall> = trace
                .calls
                .iter()
                .filter(|c| c.label.as_deref() == Some(id))
                .collect();
            let by_label = match labelled.as_slice() {
                [] => None,
                [one] => Some(*one),
                many => {
                    let ids: Vec<&str> = many.iter().map(|c| c.id.0.as_str()).collect();
                    return Err(format!(
                        "the label {} names {} calls of the run ({}): the rule that gives it \
                         fires more than once; expected a label that names one call, or the call's id",
                        quoted(id),
                        many.len(),
                        ids.join(", ")
                    ));
                }
            };
            let Some(call) = by_label.or_else(|| trace.call(&CallId(id.to_string()))) else {
                let ids: Vec<&str> = trace.calls.iter().map(|c| c.id.0.as_str()).collect();
                let known = match ids.as_slice() {
                    [] => "the run has no tool calls".to_string(),
                    [one] => format!("the only call is {one}"),
                    [first, .., last] => format!("calls are {first} … {last}"),
                };
                return Err(format!(
                    "{} is not a call id or label of the run ({known}); expected a step number \
                     from 1 to {steps}, or an event: {EVENTS}",
                    quoted(id)
                ));
            };
            let event = match tail {
                "proposed" => Some(call.proposed),
                "validated" => call.verdict.as_ref().map(|(s, _)| *s),
                "decided" => call.decision.as_ref().map(|(s, _)| *s),
                "executed" => call.started,
                "result" => call.finished,
                "compacted" => trace.compacted_at(&call.id),
                _ => {
                    return Err(format!(
                        "unknown event {} of {id}; expected proposed, validated, decided, \
                         executed, result or compacted",
                        quoted(tail)
                    ));
                }
            };
            event.ok_or_else(|| no_event(format!("{id} is never {tail} in the run")))
        }
    }
}
