//! A lesson's sub-agent (`Scenario::sub_agent`): the parent's call of one
//! tool starts it, with the call's `prompt` as its task. It runs first, as
//! a scenario of its own (its system prompt, tools and rules over the
//! lesson's files), and its final reply becomes that tool's one scripted
//! result; then the parent runs. Two runs, two traces, linked as a Claude
//! Code session's sub-agents are (`Trace::sub_agents`): `d` at the call's
//! step opens the sub-agent's run, `u` there comes back. The parent's
//! context holds the call and that one result, never the sub-agent's
//! messages: they are in the other trace.

use crate::engine;
use crate::i18n;
use crate::scenario::{Lang, Scenario, ScriptedResult, Text};
use crate::trace::{SubAgents, Trace};

use super::checks::{Found, check_fields};
use super::fault::Severity;
use super::{anchors, tool_checks};

/// The agent id both traces name (`agent-1` on screen): a lesson has one.
const AGENT: &str = "1";

/// The argument of the parent's call that is the sub-agent's task, as
/// Claude Code's Task tool and the Agents SDK's `as_tool` name it.
const PROMPT: &str = "prompt";

/// The fields of `SubAgent`, which keep their names in the sub-agent's
/// scenario: a fault found there is said at `sub_agent.FIELD`.
const OWN: [&str; 6] = ["tools", "model", "budget", "system", "expect", "narration"];

/// The parent's tool of the sub-agent made a custom tool with one result,
/// a stand-in until the sub-agent has run (`run` sets its final reply), so
/// the tool's schema is checked as any custom tool's.
pub(super) fn stand_in(scenario: &mut Scenario) {
    let Some(sub) = &scenario.sub_agent else {
        return;
    };
    if let Some(tool) = scenario.tools.iter_mut().find(|t| t.name == sub.tool)
        && tool.results.is_empty()
    {
        tool.results.push(result(Text::same("")));
    }
}

fn result(text: Text) -> ScriptedResult {
    ScriptedResult {
        args: Default::default(),
        files: Vec::new(),
        ok: true,
        text,
        writes: None,
        reads: Vec::new(),
        attempt: None,
    }
}

/// What the file says wrong about its sub-agent, before anything runs:
/// its tool, the one call that starts it, then its own fields as a
/// scenario's are checked.
pub(super) fn check(written: &Scenario) -> Vec<Found> {
    let Some(sub) = &written.sub_agent else {
        return Vec::new();
    };
    let error = |path: &str, message: String| (Severity::Error, path.to_string(), message);
    let Some(tool) = written.tools.iter().find(|t| t.name == sub.tool) else {
        return vec![error(
            "sub_agent.tool",
            format!(
                "expected the name of a tool of \"tools\" (the parent's call of it starts the \
                 sub-agent), got {:?}",
                sub.tool
            ),
        )];
    };
    if !tool.offered || !engine::call_params(tool).iter().any(|p| p == PROMPT) {
        return vec![error(
            "sub_agent.tool",
            format!(
                "expected an offered tool with a \"{PROMPT}\" parameter (the sub-agent's task), \
                 which {:?} is not",
                sub.tool
            ),
        )];
    }
    if !tool.results.is_empty() {
        return vec![error(
            "sub_agent.tool",
            format!(
                "expected {:?} without \"results\": the sub-agent's final reply is its one result",
                sub.tool
            ),
        )];
    }
    let mut found = match task_of(written) {
        Ok(_) => Vec::new(),
        Err(message) => vec![error("sub_agent.tool", message)],
    };
    let Some(own) = scenario_of(written, Text::same("")) else {
        return found;
    };
    let checked = check_fields(&own).into_iter().chain(
        tool_checks::check_custom_tools(&own)
            .into_iter()
            .map(|(path, message)| (Severity::Error, path, message)),
    );
    found.extend(checked.filter_map(|(severity, path, message)| {
        OWN.iter()
            .any(|f| path.starts_with(f))
            .then(|| (severity, format!("sub_agent.{path}"), message))
    }));
    found
}

/// The task of the sub-agent: the `prompt` of the parent's one call of
/// its tool, written in its rules.
fn task_of(scenario: &Scenario) -> Result<Text, String> {
    let tool = scenario.sub_agent.as_ref().map_or("", |s| s.tool.as_str());
    let calls: Vec<_> = (scenario.model.iter())
        .flat_map(|r| &r.calls)
        .filter(|c| c.tool == tool)
        .collect();
    let [call] = calls.as_slice() else {
        return Err(format!(
            "expected one call of {tool:?} in the parent's rules (a lesson shows one \
             sub-agent), found {}",
            calls.len()
        ));
    };
    match call.args.get(PROMPT).and_then(|v| v.as_str()) {
        Some(prompt) => Ok(Text::same(prompt)),
        None => Err(format!(
            "expected the call of {tool:?} to give \"{PROMPT}\" as a string in \"args\": it \
             is the sub-agent's task"
        )),
    }
}

/// The sub-agent as a scenario of its own: the lesson's files, the
/// parent's provider and id style, everything else its own.
fn scenario_of(parent: &Scenario, task: Text) -> Option<Scenario> {
    let sub = parent.sub_agent.clone()?;
    Some(Scenario {
        name: format!("{}.sub-agent", parent.name),
        title: sub.title,
        task,
        conditions: Vec::new(),
        tools: sub.tools,
        budget: sub.budget,
        harness: Default::default(),
        host: Default::default(),
        verify: None,
        model: sub.model,
        expect: sub.expect,
        narration: sub.narration,
        quiz: Vec::new(),
        quiz_steps: Vec::new(),
        twin: None,
        context: None,
        system: Some(sub.system),
        tool_choice: None,
        interrupt: None,
        stream: false,
        provider_errors: Vec::new(),
        sub_agent: None,
        ..parent.clone()
    })
}

/// A sub-agent's run: its scenario and its trace in each language, its
/// narration not set yet (`load` sets it, as it sets a lesson's).
pub(super) struct Ran {
    pub(super) scenario: Scenario,
    pub(super) traces: [Trace; Lang::COUNT],
}

/// Run the sub-agent of `scenario` (checked: `check` found nothing) and
/// make its final reply the one result of the parent's tool. Its run, to
/// show as a conversation of its own; Err: the place and what is wrong.
pub(super) fn run(scenario: &mut Scenario) -> Result<Option<Ran>, (String, String)> {
    if scenario.sub_agent.is_none() {
        return Ok(None);
    }
    let at = |field: &str| format!("sub_agent.{field}");
    let task = task_of(scenario).map_err(|m| (at("tool"), m))?;
    let own = scenario_of(scenario, task).expect("a sub-agent");
    let told = engine::run_once(&own, i18n::said).map_err(|e| (at("model"), e.to_string()))?;
    let mut traces = told.traces;
    let run = &traces[Lang::DEFAULT.index()];
    if run.end != own.expect {
        return Err((
            at("expect"),
            format!(
                "the sub-agent's loop ends {} at step {}, but \"expect\" says {}",
                run.end.code(),
                run.len(),
                own.expect.code()
            ),
        ));
    }
    let (_, bad) = anchors::resolve(&own.narration, run);
    if let Some((path, message)) = bad.into_iter().next() {
        return Err((at(&path), message));
    }
    let answer = Text::of(|lang| final_reply(&traces[lang.index()]));
    // The files its tools read, read by the call that ran it: one workspace.
    let mut read: Vec<String> = (run.file_events.iter())
        .filter(|e| e.change == crate::trace::FileChange::Read)
        .map(|e| e.path.clone())
        .collect();
    read.sort();
    read.dedup();
    for trace in &mut traces {
        trace.sub_agents.agent = Some(AGENT.to_string());
    }
    let tool = scenario.sub_agent.as_ref().map(|s| s.tool.clone());
    if let Some(def) = (scenario.tools.iter_mut()).find(|t| Some(&t.name) == tool.as_ref()) {
        def.results = vec![ScriptedResult {
            reads: read,
            ..result(answer)
        }];
    }
    Ok(Some(Ran {
        scenario: own,
        traces,
    }))
}

/// The sub-agent's final reply: the text of its last message, which a
/// loop that ends with an answer makes the model's reply without calls.
fn final_reply(trace: &Trace) -> String {
    trace
        .messages
        .last()
        .map(|m| m.text.to_string())
        .unwrap_or_default()
}

/// Link the parent's traces to the sub-agent's run: the call that started
/// it. Err when the parent's run never makes that call.
pub(super) fn link(traces: &mut [Trace], scenario: &Scenario) -> Result<(), (String, String)> {
    let Some(sub) = &scenario.sub_agent else {
        return Ok(());
    };
    for trace in traces {
        let Some(call) = trace
            .calls
            .iter()
            .find(|c| c.tool == sub.tool && c.result.is_some())
        else {
            return Err((
                "sub_agent.tool".to_string(),
                format!(
                    "the parent's run never gets a result of {:?}, so the sub-agent it shows \
                     never starts; expected a rule of \"model\" whose call of it runs",
                    sub.tool
                ),
            ));
        };
        trace.sub_agents = SubAgents {
            started: vec![(call.id.to_string(), AGENT.to_string())],
            agent: None,
        };
    }
    Ok(())
}
