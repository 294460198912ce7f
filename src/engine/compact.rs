//! The host's context window: before each model call it estimates the
//! request in tokens (`wire::tokens`: the messages it holds, the system
//! prompt and the tools' schemas); when that would exceed the scenario's window it compacts
//! its message list, at a step of its own, by the scenario's policy:
//!
//! - `drop_oldest_results`: the oldest tool results the model has already
//!   been sent are replaced, one at a time, by a placeholder result under
//!   the same call id (a provider rejects a call without its result), until
//!   the request fits;
//! - `summarize`: the oldest turns (a reply with its calls and all their
//!   results, never split) are replaced, one at a time, by one summary
//!   message written by the host, until the request fits. The latest turn
//!   always stays.
//!
//! The compacted list is appended to `Trace::messages` as a fresh copy, so
//! what was sent before stays as it was sent; later model calls send from
//! the copy (`ModelCall::context_start`) and the scripted model starts over
//! on it (`RuleMatcher::restart`): it sees only what the host now sends.

use crate::scenario::{ContextLimit, WindowCount};
use crate::trace::{CallId, Compaction, HostInsert, Lane, Message, Role, Said, StepKind};

use super::EngineError;
use super::count;
use super::plan::{Item, Sight};
use super::run::Run;

impl Run<'_> {
    /// Compact the held messages if the next request would exceed the
    /// window. Err when even the most the policy may remove is not enough.
    pub(super) fn compact_if_needed(&mut self) -> Result<(), EngineError> {
        let Some(limit) = self.scenario.context.as_ref() else {
            return Ok(());
        };
        let held: Vec<usize> = (self.rec.held_from..self.rec.trace.messages.len()).collect();
        // The window counted as the file means it: o200k tokens, or the
        // estimate of files written before 2026-12-01 (`count.rs`).
        let estimated = (limit.count == Some(WindowCount::Estimate)).then(|| {
            let trace = &self.rec.trace;
            (count::weights(trace), count::tools(trace))
        });
        let (fixed, before) = match &estimated {
            Some((weights, tools)) => (
                *tools,
                held.iter().map(|&i| weights[i]).sum::<usize>() + tools,
            ),
            None => (
                self.rec.fixed_tokens,
                self.rec.messages_tokens + self.rec.fixed_tokens,
            ),
        };
        if before <= limit.window {
            return Ok(());
        }
        let number = self.rec.counters.model_calls + 1;
        let over = |tokens| EngineError::OverWindow {
            model_call: number,
            tokens,
            window: limit.window,
        };
        // Messages not sent yet (appended since the latest model call) stay:
        // the model has not read them.
        let sent_to = self
            .rec
            .trace
            .model_calls
            .last()
            .map_or(0, |mc| mc.context_len);
        let budget = limit.window.saturating_sub(fixed);
        let summary = limit.summary(self.rec.trace.compactions.len());
        let sight = Sight {
            messages: &self.rec.trace.messages,
            words: self.words,
            lang: self.lang,
            weights: estimated.as_ref().map(|(w, _)| w.as_slice()),
        };
        let plan = sight.plan(limit.policy, &held, sent_to, budget, summary);
        let Some(plan) = plan else {
            return Err(over(before));
        };
        let step = self.current_step();
        let start = self.rec.trace.messages.len();
        let mut calls: Vec<CallId> = Vec::new();
        let mut removed = Vec::new();
        for item in &plan {
            let message = self.compacted(item, step, limit, &mut calls, &mut removed);
            self.rec.trace.messages.push(message);
        }
        let copy = self.rec.trace.messages.slice(start..);
        let after_messages: usize = copy.iter().map(|m| m.tokens).sum();
        let after = match estimated {
            Some(_) => {
                let trace = &self.rec.trace;
                copy.iter().map(|m| count::message(trace, m)).sum::<usize>() + fixed
            }
            None => after_messages + fixed,
        };
        self.rec.messages_tokens = after_messages;
        self.rec.messages_size = copy.iter().map(|m| m.size).sum();
        let compaction = Compaction {
            step,
            policy: limit.policy,
            window: limit.window,
            tokens_before: before,
            tokens_after: after,
            messages_before: held.len(),
            messages_after: copy.len(),
            start,
            removed,
            calls,
        };
        self.rec.held_from = start;
        self.rules.restart();
        let index = self.rec.trace.compactions.len();
        self.rec.trace.compactions.push(compaction);
        self.step(
            StepKind::Compacts { number, index },
            Some(Lane::Host),
            Lane::Host,
        );
        if after > limit.window {
            return Err(over(after));
        }
        Ok(())
    }

    /// One message of the compacted copy at `step`: a message kept, a
    /// placeholder for a result, or the summary of messages gone; the
    /// calls whose messages leave and the messages removed are noted.
    fn compacted(
        &mut self,
        item: &Item,
        step: usize,
        limit: &ContextLimit,
        calls: &mut Vec<CallId>,
        removed: &mut Vec<usize>,
    ) -> Message {
        match *item {
            Item::Keep(i) => {
                let mut copy = self.rec.trace.messages[i].clone();
                copy.step = step;
                copy.carried = Some(i);
                copy
            }
            Item::Placeholder(i) => {
                removed.push(i);
                let original = &self.rec.trace.messages[i];
                let tokens = original.tokens;
                let id = original.call_id.clone();
                calls.extend(id.clone());
                let said = Said::Placeholder { tokens };
                let (text, canonical) = self.said(&said);
                let mut m = self.message(Role::Tool, text, step);
                m.call_id = id;
                m.canonical = canonical;
                m.said = Some(said);
                m.host_insert = Some(HostInsert::Placeholder);
                self.rec.measured(m)
            }
            Item::Summary(ref gone) => {
                removed.extend(gone.iter().copied());
                for &i in gone {
                    calls.extend(self.rec.trace.messages[i].calls.iter().cloned());
                }
                let summary = limit.summary(self.rec.trace.compactions.len());
                let said = Said::Summary(summary.cloned());
                let (text, canonical) = self.said(&said);
                let mut m = self.message(Role::User, text, step);
                m.canonical = canonical;
                m.said = Some(said);
                m.host_insert = Some(HostInsert::Summary);
                self.rec.measured(m)
            }
        }
    }
}
