//! Narration keys: a step number, or an anchor on an event of the run, so
//! that adding a call does not renumber every later narration.
//!
//! | key | the step |
//! | --- | --- |
//! | `7` | step 7 |
//! | `task` | the task arrives (step 1, or 3 after an MCP server's start-up) |
//! | `mcp.list` | the host asking its MCP server for its tools (`mcp`) |
//! | `mcp.listed` | the MCP server's list of tools |
//! | `model_call.N` | the host sends model call N |
//! | `reply.N` | the model's reply to model call N (calls or an answer) |
//! | `turned_away.N` | the provider turning model call N's request away (`provider_errors`) |
//! | `resend.N` | the host sending model call N's request again |
//! | `ID.proposed` | the reply that proposed call ID (ID: the call's id, or its `label`) |
//! | `ID.validated` | the host's check of call ID |
//! | `ID.decided` | the user's answer when the host asked about call ID (policy `ask`) |
//! | `ID.executed` | the host starting the tool for call ID |
//! | `ID.result` | call ID's result attached (or its refusal, or the host's replay) |
//! | `ID.compacted` | the host removing call ID's result from the context |
//! | `compacts.N` | the host's Nth compaction |
//! | `interrupt` | the user stopping the calls still running (`interrupt`) |
//! | `user_turn.N` | the user's Nth message (the task is the 1st) |
//! | `end` | the last step |
//!
//! A key that names no event of the run is an error, as are two keys that
//! land on one step.

use std::collections::BTreeMap;

use crate::scenario::Text;
use crate::trace::{CallId, StepKind, Trace};

use super::wording::{key_path, quoted};

const EVENTS: &str = "task, mcp.list, mcp.listed, model_call.N, reply.N, turned_away.N, resend.N, \
                     CALL_ID.proposed, CALL_ID.validated, CALL_ID.decided, CALL_ID.executed, CALL_ID.result, \
                     CALL_ID.compacted, compacts.N, interrupt, user_turn.N, end";

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

/// Step numbers as files written before 2026-11-30 counted them, when a
/// call the host answered from its record of the operation id took two
/// steps, as a run does (the host executes, the result arrives), and now
/// takes one (the host replays). Per old step (0-based), the step of the
/// run it is now. In a reply with replayed and fresh calls the old steps
/// were: the host executes them all, then each result arrives (taken here
/// in the order the model asked: `delay` is not looked at).
pub(super) fn steps_before_one_step_replays(trace: &Trace) -> Vec<usize> {
    let steps = &trace.steps;
    let mut old = Vec::with_capacity(steps.len() + 4);
    let mut i = 0;
    while i < steps.len() {
        if !matches!(steps[i].kind, StepKind::Replays { .. }) {
            old.push(i);
            i += 1;
            continue;
        }
        let first = i;
        let mut replayed: Vec<(&CallId, usize)> = Vec::new();
        while let Some(StepKind::Replays { call, .. }) = steps.get(i).map(|s| &s.kind) {
            replayed.push((call, i));
            i += 1;
        }
        let Some(StepKind::Executes { calls: fresh }) = steps.get(i).map(|s| &s.kind) else {
            // Only replays: the host executed them (one step), then each
            // result arrived.
            old.push(first);
            old.extend(replayed.iter().map(|&(_, step)| step));
            continue;
        };
        // The host executes every call, then the results arrive, in the
        // order the model asked.
        old.push(i);
        i += 1;
        let mut arrivals: Vec<(&CallId, usize)> = replayed;
        while let Some(StepKind::ResultArrives { call }) = steps.get(i).map(|s| &s.kind)
            && fresh.contains(call)
        {
            arrivals.push((call, i));
            i += 1;
        }
        let asked = |id: &CallId| trace.calls.iter().position(|c| &c.id == id);
        arrivals.sort_by_key(|&(id, _)| asked(id));
        old.extend(arrivals.iter().map(|&(_, step)| step));
    }
    old
}

/// Narration keyed by old step numbers (`old`: per old step, the step it
/// is now), keyed by the run's: two old steps that are one now share it,
/// their texts joined. None when a number is past the old steps too.
pub(super) fn renumber_narration(
    narration: &BTreeMap<String, Text>,
    old: &[usize],
) -> Option<BTreeMap<String, Text>> {
    let number = |s: &str| s.parse::<usize>().ok().filter(|n| n.to_string() == s);
    let mut numbered: Vec<(usize, &Text)> = Vec::new();
    let mut out = BTreeMap::new();
    for (key, text) in narration {
        match number(key) {
            Some(n) => numbered.push((n, text)),
            None => {
                out.insert(key.clone(), text.clone());
            }
        }
    }
    numbered.sort_by_key(|&(n, _)| n);
    for (n, text) in numbered {
        let now = renumber(n, old)?;
        out.entry(now.to_string())
            .and_modify(|t: &mut Text| {
                *t = Text::of(|lang| format!("{} {}", t.get(lang), text.get(lang)));
            })
            .or_insert_with(|| text.clone());
    }
    Some(out)
}

/// The step of an event at the run's start: the task, after an MCP
/// server's start-up steps when the lesson has one (`mcp.list`, the host
/// asking for its tools; `mcp.listed`, the server's answer).
fn start_event(
    key: &str,
    trace: &Trace,
    no_event: impl Fn(String) -> String,
) -> Result<usize, String> {
    let at = |kind: fn(&StepKind) -> bool| trace.steps.iter().position(|s| kind(&s.kind));
    match key {
        "task" => at(|k| matches!(k, StepKind::TaskArrives)).or(Some(0)),
        "mcp.list" => at(|k| matches!(k, StepKind::McpLists)),
        _ => at(|k| matches!(k, StepKind::McpListed)),
    }
    .ok_or_else(|| no_event("the lesson has no MCP server (\"mcp\")".into()))
}

/// Old step number `n` (from 1) as the run's step number.
pub(super) fn renumber(n: usize, old: &[usize]) -> Option<usize> {
    n.checked_sub(1)
        .and_then(|i| old.get(i))
        .map(|&step| step + 1)
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
        "task" | "mcp.list" | "mcp.listed" => return start_event(key, trace, no_event),
        "end" => return Ok(steps - 1),
        "interrupt" => {
            return trace
                .steps
                .iter()
                .position(|s| matches!(s.kind, StepKind::Interrupted { .. }))
                .ok_or_else(|| no_event("the user never interrupts in the run".into()));
        }
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
        "turned_away" | "resend" => {
            let n = nth(head)? as u32;
            find(&|k| match k {
                StepKind::Throttled { number, .. } => head == "turned_away" && *number == n,
                StepKind::Resends { number } => head == "resend" && *number == n,
                _ => false,
            })
            .ok_or_else(|| no_event(format!("the provider never turns model call #{n} away")))
        }
        "reply" => {
            let n = nth("reply")? as u32;
            find(&|k| {
                matches!(k, StepKind::Proposes { number, .. } | StepKind::Answers { number } if *number == n)
            })
            .ok_or_else(|| no_event(format!("model call #{n} gets no reply in the run")))
        }
        "user_turn" => {
            let n = nth("user_turn")?;
            let turns = |k: &StepKind| matches!(k, StepKind::TaskArrives | StepKind::UserTurn);
            let mut at = trace
                .steps
                .iter()
                .enumerate()
                .filter(|(_, s)| turns(&s.kind));
            at.nth(n - 1).map(|(i, _)| i).ok_or_else(|| {
                let count = trace.steps.iter().filter(|s| turns(&s.kind)).count();
                no_event(format!("the user writes {count} messages in the run"))
            })
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
        id => call_event(trace, id, tail),
    }
}

/// The step of event `tail` of the call that `id` names (its label or
/// its id), as `step_of` reads `CALL_ID.EVENT`.
fn call_event(trace: &Trace, id: &str, tail: &str) -> Result<usize, String> {
    let steps = trace.len();
    let no_event = |what: String| format!("{what}; expected an event of the run ({EVENTS})");
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
            let ids: Vec<&str> = many.iter().map(|c| c.id.0.as_ref()).collect();
            return Err(format!(
                "the label {} names {} calls of the run ({}): the rule that gives it \
                 fires more than once; expected a label that names one call, or the call's id",
                quoted(id),
                many.len(),
                ids.join(", ")
            ));
        }
    };
    let Some(call) = by_label.or_else(|| trace.call(&CallId(id.into()))) else {
        let ids: Vec<&str> = trace.calls.iter().map(|c| c.id.0.as_ref()).collect();
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
