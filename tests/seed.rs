//! The notes' own loop, `07_agent_loop.py` (a copy in `tests/seed/`), and
//! its port, `scenarios/seed-agent-loop.json`: what the Python file prints
//! and asserts must hold in the engine's trace too, in both languages.

mod common;

use std::process::Command;

use agent_loop_sim::load::{self, prepare};
use agent_loop_sim::scenario::{EndStatus, Lang};
use agent_loop_sim::trace::{
    CallStatus, Outcome, Refusal, StepKind, TaskOutcome, ToolCall, Trace, Verdict,
};

const SEED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/seed/07_agent_loop.py");

fn arg<'a>(call: &'a ToolCall, name: &str) -> Option<&'a str> {
    call.args
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// The calls a tool really ran for: (tool, op_id, scope).
fn executed(trace: &Trace) -> Vec<(&str, &str, &str)> {
    trace
        .calls
        .iter()
        .filter(|c| c.started.is_some())
        .map(|c| {
            let op = arg(c, "op_id").unwrap_or("");
            (c.tool.as_str(), op, arg(c, "scope").unwrap_or(""))
        })
        .collect()
}

#[test]
fn the_port_keeps_the_invariants_of_the_notes_loop() {
    let loaded = load::load("seed-agent-loop").unwrap();
    for lang in Lang::ALL {
        let trace = loaded.trace(lang);
        assert_eq!(trace.end, EndStatus::Completed, "{lang:?}");
        assert_eq!(trace.task, TaskOutcome::Verified);
        let last = trace.steps.last().unwrap();
        assert_eq!(last.counters.writes, 1, "exactly one write");
        // read → patch → test, with operation ids op-1 … op-3.
        assert_eq!(
            executed(trace),
            [
                ("read", "op-1", "toy-project"),
                ("patch", "op-2", "toy-project"),
                ("test", "op-3", "toy-project"),
            ]
        );
        // The replay of op-2: answered by the host from its record, with a
        // step of its own and no execute step.
        let patches: Vec<&ToolCall> = trace.calls.iter().filter(|c| c.tool == "patch").collect();
        assert_eq!(patches.len(), 2);
        let replay = patches[1];
        assert_eq!(arg(replay, "op_id"), Some("op-2"));
        assert_eq!(replay.outcome(), Some(Outcome::Replayed));
        assert!(replay.started.is_none());
        assert!(trace.steps.iter().all(|s| match &s.kind {
            StepKind::Executes { calls } => !calls.contains(&replay.id),
            _ => true,
        }));
        let replayed_at = replay.finished.unwrap();
        assert!(matches!(
            &trace.steps[replayed_at].kind,
            StepKind::Replays { op, conflict: false, .. } if op == "op-2"
        ));
        // The recorded result, marked as the notes' executor marks it:
        // {**result, "replayed": True}.
        let json = |c: &ToolCall| -> serde_json::Value {
            serde_json::from_str(&c.result.as_ref().unwrap().text).unwrap()
        };
        let mut recorded = json(patches[0]);
        assert_eq!(recorded.get("replayed"), None);
        recorded["replayed"] = serde_json::Value::Bool(true);
        assert_eq!(json(replay), recorded);
        assert_eq!(trace.steps[replayed_at].counters.writes, 1);
        // The test passes, and only after the patch wrote.
        let test = trace.calls.iter().find(|c| c.tool == "test").unwrap();
        assert_eq!(test.outcome(), Some(Outcome::Ok));
        assert!(test.started.unwrap() > patches[0].finished.unwrap());
        // publish: offered, refused as not authorised, returned as a result.
        assert!(trace.tools.iter().any(|t| t.name == "publish"));
        let publish = trace.calls.iter().find(|c| c.tool == "publish").unwrap();
        assert!(matches!(
            publish.verdict,
            Some((_, Verdict::Refused(Refusal::NotAuthorised)))
        ));
        assert!(publish.started.is_none());
        assert!(publish.appended);
        let refusal = publish.result.as_ref().unwrap();
        assert!(refusal.is_error);
        let english = refusal.canonical.as_deref().unwrap_or(&refusal.text);
        assert!(english.contains("not authorised"), "{english}");
        assert_eq!(
            publish.status_at(last_index(trace)),
            Some(CallStatus::Refused)
        );
        // Not a crash: the model reads the refusal and answers.
        assert!(matches!(last.kind, StepKind::Answers { .. }));
        assert!(trace.model_calls.len() as u32 <= trace.budget);
    }
}

fn last_index(trace: &Trace) -> usize {
    trace.len() - 1
}

/// Run the Python file (when python3 is there): its self_test asserts the
/// replay and the refused publish before it prints; what it prints is the
/// run. The trace must agree call for call, result for result.
#[test]
fn the_python_file_and_the_trace_agree() {
    let output = match Command::new("python3").arg(SEED).output() {
        Ok(output) => output,
        Err(e) => {
            common::missing_tool(
                "the_python_file_and_the_trace_agree",
                &format!("python3 not runnable ({e}): the Python side is not checked"),
            );
            return;
        }
    };
    assert!(
        output.status.success(),
        "07_agent_loop.py failed its own self_test: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let printed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let loaded = load::load("seed-agent-loop").unwrap();
    let trace = loaded.trace(Lang::En);
    assert_eq!(printed["最终状态"], trace.end.code());
    assert_eq!(
        printed["实际模拟写入次数"],
        trace.steps.last().unwrap().counters.writes
    );
    let events = printed["事件"].as_array().unwrap();
    let ran: Vec<&ToolCall> = trace.calls.iter().filter(|c| c.started.is_some()).collect();
    assert_eq!(events.len(), ran.len());
    for (event, call) in events.iter().zip(ran) {
        let asked = &event["call"];
        assert_eq!(asked["id"], arg(call, "op_id").unwrap());
        assert_eq!(asked["tool"], call.tool.as_str());
        assert_eq!(asked["args"]["scope"], arg(call, "scope").unwrap());
        // The tool's result is the Python result, as JSON.
        let text = &call.result.as_ref().unwrap().text;
        let result: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(event["result"], result, "{}", call.tool);
    }
}

/// `run(1)` in the notes ends budget_exhausted; so does the port with a
/// budget of one model call.
#[test]
fn a_budget_of_one_call_is_exhausted_as_in_the_notes() {
    let source = load::CATALOG
        .iter()
        .find(|(n, _)| *n == "seed-agent-loop")
        .unwrap()
        .1;
    let mut scenario: serde_json::Value = serde_json::from_str(source).unwrap();
    scenario["budget"] = 1.into();
    scenario["expect"] = "budget_exhausted".into();
    scenario["narration"] = serde_json::json!({});
    let bytes = serde_json::to_vec(&scenario).unwrap();
    let loaded = prepare("budget-1.json", &bytes).unwrap();
    assert_eq!(loaded.trace(Lang::En).end, EndStatus::BudgetExhausted);
}
