//! Sub-agents, linked to the calls that started them. A Claude Code
//! session's file records which agent a Task (Agent) call ran (its
//! result's `toolUseResult.agentId`) and a sub-agent's own file names its
//! agent (`agentId`); a lesson's `sub_agent` links its one sub-agent the
//! same way (`load::sub_agent`). Both runs are open as conversations
//! (`s` switches). Here: from a step naming such a call, the sub-agent's
//! conversation (`d`), and from that conversation, the call's step (`u`).

use crate::live::Live;
use crate::trace::{StepKind, Trace};

/// Which way a link leads from the conversation on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Way {
    /// From the call into the sub-agent's run (`d`).
    Into,
    /// From the sub-agent's run out to the call (`u`).
    Out,
}

/// One end of a link between a call and the sub-agent it started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub way: Way,
    /// The conversation at the other end (index in `Live::conversations`).
    pub conversation: usize,
    /// How many conversations there are.
    pub of: usize,
    /// The call that started the sub-agent, as the file names it.
    pub call: String,
    /// The sub-agent's id.
    pub agent: String,
    /// Going out: the step of the call in its conversation.
    pub step: usize,
}

/// The calls of `trace` that started sub-agents: (call id, agent id).
fn started(trace: &Trace) -> &[(String, String)] {
    &trace.sub_agents.started
}

/// The agent whose own run `trace` is.
fn agent_of(trace: &Trace) -> Option<&str> {
    trace.sub_agents.agent.as_deref()
}

fn first_trace(live: &Live, k: usize) -> Option<&Trace> {
    live.conversations.get(k)?.traces.first()
}

/// Does step `step` of `trace` name the call `call`? (A provider's
/// refusal names calls without a result: not the call's own step.)
fn names(trace: &Trace, step: usize, call: &str) -> bool {
    trace.steps.get(step).is_some_and(|s| {
        !matches!(s.kind, StepKind::Rejected { .. })
            && s.kind.call_ids().iter().any(|id| &*id.0 == call)
    })
}

/// Into: the first call named at `step` of `trace` (the conversation on
/// screen) that started a sub-agent whose own run is another conversation
/// of `live`.
pub fn into(live: &Live, trace: &Trace, step: usize) -> Option<Link> {
    let started = started(trace);
    if started.is_empty() {
        return None;
    }
    started
        .iter()
        .filter(|(call, _)| names(trace, step, call))
        .find_map(|(call, agent)| {
            let conversation = (0..live.conversations.len()).find(|&k| {
                k != live.current && first_trace(live, k).and_then(agent_of) == Some(agent)
            })?;
            Some(Link {
                way: Way::Into,
                conversation,
                of: live.conversations.len(),
                call: call.clone(),
                agent: agent.clone(),
                step,
            })
        })
}

/// Out: `trace` (the conversation on screen) is a sub-agent's own run;
/// the conversation and step of the call that started it. The step is
/// the one `d` left from (`Live::back`), else the one that runs the call,
/// else the first that names it.
pub fn out(live: &Live, trace: &Trace) -> Option<Link> {
    let agent = agent_of(trace)?;
    (0..live.conversations.len())
        .filter(|&k| k != live.current)
        .find_map(|k| {
            let parent = first_trace(live, k)?;
            let (call, _) = started(parent).iter().find(|(_, a)| a == agent)?;
            let runs = |s: usize| matches!(parent.steps[s].kind, StepKind::Executes { .. });
            let step = live
                .back
                .filter(|&(c, s)| c == k && names(parent, s, call))
                .map(|(_, s)| s)
                .or_else(|| (0..parent.len()).find(|&s| runs(s) && names(parent, s, call)))
                .or_else(|| (0..parent.len()).find(|&s| names(parent, s, call)))?;
            Some(Link {
                way: Way::Out,
                conversation: k,
                of: live.conversations.len(),
                call: call.clone(),
                agent: agent.to_string(),
                step,
            })
        })
}

/// What the explanation of `step` links to: a call of it that started a
/// sub-agent, or, at a sub-agent's first step and at its last (its answer,
/// which goes back as the call's result), the call that started it.
pub fn at(live: &Live, trace: &Trace, step: usize) -> Option<Link> {
    let ends = step == 0 || step + 1 == trace.len();
    into(live, trace, step).or_else(|| ends.then(|| out(live, trace)).flatten())
}
