//! The counts a teacher's script (and a test) checks first, for any trace:
//! a scenario's or a transcript's. `trace` prints them as `summary`.

use serde::Serialize;

use crate::trace::{Message, Role, StepKind, Trace};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Model calls that got a reply (with or without tool calls).
    pub model_replies: usize,
    pub tool_calls: usize,
    /// Calls whose result is attached to their own id.
    pub paired: usize,
    /// Error results (a refusal by the host counts: the model reads it as one).
    pub errors: usize,
    /// Replies that ask for two or more tools at once.
    pub parallel_groups: usize,
    /// Calls that never got a result.
    pub unanswered: usize,
    /// Results that answer no call: no call has their id, or it was
    /// already answered.
    pub orphans: usize,
    /// The text of the last reply, when it has no tool calls and nothing
    /// after it asks the model again.
    pub final_answer: Option<String>,
}

/// Count them from the trace.
pub fn summary(trace: &Trace) -> Summary {
    let mut s = Summary {
        model_replies: 0,
        tool_calls: trace.calls.len(),
        paired: trace
            .calls
            .iter()
            .filter(|c| c.result.is_some() && c.appended && c.paired_to.as_ref() == Some(&c.id))
            .count(),
        errors: trace
            .calls
            .iter()
            .filter(|c| c.result.as_ref().is_some_and(|r| r.is_error))
            .count(),
        parallel_groups: 0,
        unanswered: trace.calls.iter().filter(|c| c.result.is_none()).count(),
        orphans: 0,
        final_answer: None,
    };
    // The step each call's result arrived at (an id may be reused).
    let finished: std::collections::HashSet<usize> =
        trace.calls.iter().filter_map(|c| c.finished).collect();
    let mut last_reply = None;
    for (index, step) in trace.steps.iter().enumerate() {
        match &step.kind {
            StepKind::Proposes { calls, .. } => {
                s.model_replies += 1;
                s.parallel_groups += usize::from(calls.len() > 1);
                last_reply = Some(index);
            }
            StepKind::Answers { .. } => {
                s.model_replies += 1;
                last_reply = Some(index);
            }
            // A result that answers no call of its id.
            StepKind::ResultArrives { .. } if !finished.contains(&index) => {
                s.orphans += 1;
                s.errors +=
                    usize::from(appended_at(trace, index, Role::Tool).is_some_and(|m| m.is_error));
            }
            _ => {}
        }
    }
    // Final only if nothing after it asks the model again (a new user
    // message, another model call).
    s.final_answer = last_reply
        .filter(|&i| matches!(trace.steps[i].kind, StepKind::Answers { .. }))
        .filter(|&i| {
            !trace.steps.slice(i + 1..).iter().any(|step| {
                matches!(
                    step.kind,
                    StepKind::TaskArrives | StepKind::UserTurn | StepKind::ModelCall { .. }
                )
            })
        })
        .and_then(|i| appended_at(trace, i, Role::Assistant))
        .map(|m| m.text.to_string());
    s
}

/// The message of this role appended at `step` (messages are in step order).
fn appended_at(trace: &Trace, step: usize, role: Role) -> Option<&Message> {
    let start = trace.messages.partition_point(|m| m.step < step);
    trace
        .messages
        .slice(start..)
        .iter()
        .take_while(|m| m.step == step)
        .find(|m| m.role == role)
}
