//! The user interrupts the agent while a tool runs (`Scenario::interrupt`).
//!
//! Every call the model made owes a result before the next model call:
//! all three APIs refuse a request that holds a call without one
//! (`wire::rejection`). So a host that stops running tools still answers
//! each of them, with a result that says it was stopped (Codex gives such
//! a call the output "aborted"; Claude Code an error `tool_result`), and
//! then appends what the user writes next: a second user turn. With
//! `harness.forget_interrupted` it answers none, and the next request is
//! refused.

use crate::trace::{Lane, Role, Said, StepKind};

use super::Run;

impl<'a> Run<'a> {
    /// Is the call at `index` the one the user stops, and has the user
    /// not interrupted yet? Only the first run of the labelled call is.
    pub(super) fn interrupts_at(&self, index: usize) -> bool {
        let Some(interrupt) = &self.scenario.interrupt else {
            return false;
        };
        // The label first: the steps are looked at only for that call.
        self.rec.trace.calls[index].label.as_deref() == Some(interrupt.call.as_str())
            && !self
                .rec
                .trace
                .steps
                .iter()
                .any(|s| matches!(s.kind, StepKind::Interrupted { .. }))
    }

    /// The user stops `stopped` (calls' indexes, still running): the host
    /// stops their tools and answers each (one step, from the user), then
    /// the user's message is appended (a second step: a new turn).
    pub(super) fn interrupt(&mut self, stopped: &[usize]) {
        let scenario: &'a crate::scenario::Scenario = self.scenario;
        let Some(interrupt) = &scenario.interrupt else {
            return;
        };
        let step = self.current_step();
        let forget = self.scenario.harness.forget_interrupted;
        for &index in stopped {
            let id = self.rec.trace.calls[index].id.clone();
            let result = self.result(Said::Interrupted, true);
            self.rec.answer(index, id, result, step, !forget);
        }
        let calls = stopped
            .iter()
            .map(|&i| self.rec.trace.calls[i].id.clone())
            .collect();
        self.step(StepKind::Interrupted { calls }, None, Lane::Host);
        let step = self.current_step();
        let text = interrupt.message.get(self.lang).to_string();
        let index = self.rec.trace.messages.len();
        self.sources.scripted.push((index, &interrupt.message));
        self.append(self.message(Role::User, text, step));
        self.step(StepKind::UserTurn, None, Lane::Host);
    }
}
