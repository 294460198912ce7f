//! The user interrupts while a tool runs (`interrupt`): every call still
//! running gets a result before the next model call, in each provider's
//! shape, and the user's next message follows them; a host that forgets
//! those results (`harness.forget_interrupted`) gets each provider's 400;
//! and `check` names the place of every mistake in `interrupt`.

mod common;

use agent_loop_sim::load;
use agent_loop_sim::scenario::{EndStatus, Lang};
use agent_loop_sim::trace::{CallStatus, Role, StepKind};
use agent_loop_sim::wire::{self, Provider};
use serde_json::{Value, json};

const LESSON: &str = "interrupt-pending-calls";
const TWIN: &str = "interrupt-forgets-results";
const PROVIDERS: [Provider; 3] = [Provider::Chat, Provider::Responses, Provider::Anthropic];
const STOPPED: &str =
    "interrupted by the user: the tool was stopped before it finished, with no result";
const USER: &str =
    "Don't run the whole suite, it takes twenty minutes. Run only tests/login.test.js.";

#[test]
fn the_call_still_running_is_answered_before_the_next_model_call() {
    for provider in PROVIDERS {
        let loaded = load::examine_as(LESSON, Some(provider)).unwrap_or_else(|f| panic!("{f:?}"));
        assert_eq!(loaded.faults, [], "{provider:?}");
        let trace = loaded.trace(Lang::En);
        assert_eq!(trace.end, EndStatus::Completed);
        let interrupt = trace
            .steps
            .iter()
            .position(|s| matches!(s.kind, StepKind::Interrupted { .. }))
            .expect("the user interrupts");
        // From the user, outside the lanes; only the call still running.
        assert_eq!(trace.steps[interrupt].from, None);
        let StepKind::Interrupted { calls } = &trace.steps[interrupt].kind else {
            unreachable!()
        };
        assert_eq!(calls, &[trace.calls[1].id.clone()]);
        let (read, suite) = (&trace.calls[0], &trace.calls[1]);
        assert_eq!(read.status_at(interrupt), Some(CallStatus::Done));
        assert_eq!(suite.status_at(interrupt), Some(CallStatus::Interrupted));
        assert_eq!(suite.finished, Some(interrupt));
        // The suite never finished: its scripted output never arrives.
        assert!(
            trace
                .messages
                .iter()
                .all(|m| !m.text.contains("1412 total"))
        );
        // Model call #2 sends, in order: the reply, both results (the
        // stopped one an error), then the user's new message.
        let mc = &trace.model_calls[1];
        let sent = trace.messages.slice(..mc.context_len);
        let tail: Vec<(Role, bool, &str)> = sent
            .slice(sent.len() - 3..)
            .iter()
            .map(|m| (m.role, m.is_error, m.text.as_ref()))
            .collect();
        assert_eq!(tail[1], (Role::Tool, true, STOPPED));
        assert_eq!(tail[2], (Role::User, false, USER));
        assert!(trace.rejection(mc).is_none(), "{provider:?}");
        // As the provider receives it.
        let body = wire::request(trace, 1);
        let stopped = suite.id.0.as_ref();
        match provider {
            Provider::Chat => {
                let m = body["messages"].as_array().unwrap();
                let n = m.len();
                assert_eq!(m[n - 2]["role"], "tool");
                assert_eq!(m[n - 2]["tool_call_id"], stopped);
                assert_eq!(m[n - 2]["content"], STOPPED);
                assert_eq!(m[n - 1], json!({"role": "user", "content": USER}));
            }
            Provider::Responses => {
                let items = body["input"].as_array().unwrap();
                let n = items.len();
                assert_eq!(items[n - 2]["type"], "function_call_output");
                assert_eq!(items[n - 2]["call_id"], stopped);
                assert_eq!(items[n - 2]["output"], STOPPED);
                assert_eq!(items[n - 1]["role"], "user");
            }
            Provider::Anthropic => {
                // One user message: both tool_result blocks first, the
                // user's text after them, as Claude Code sends it.
                let last = body["messages"].as_array().unwrap().last().unwrap().clone();
                assert_eq!(last["role"], "user");
                let kinds: Vec<&str> = last["content"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|b| b["type"].as_str().unwrap())
                    .collect();
                assert_eq!(kinds, ["tool_result", "tool_result", "text"]);
                assert_eq!(
                    last["content"][1],
                    json!({"type": "tool_result", "tool_use_id": stopped, "content": STOPPED, "is_error": true})
                );
            }
        }
        // The size on screen is the body's.
        assert_eq!(mc.context_size, body.to_string().len(), "{provider:?}");
    }
}

#[test]
fn a_host_that_forgets_the_stopped_call_gets_each_providers_400() {
    let wanted = [
        (
            Provider::Chat,
            "400 invalid_request_error: An assistant message with 'tool_calls' must be followed \
             by tool messages responding to each 'tool_call_id'. The following tool_call_ids did \
             not have response messages: call_2",
        ),
        (
            Provider::Responses,
            "400 invalid_request_error: No tool output found for function call call_2.",
        ),
        (
            Provider::Anthropic,
            "400 invalid_request_error: messages.1: `tool_use` ids were found without \
             `tool_result` blocks immediately after: call_2. Each `tool_use` block must have a \
             corresponding `tool_result` block in the next message.",
        ),
    ];
    for (provider, text) in wanted {
        let loaded = load::examine_as(TWIN, Some(provider)).unwrap_or_else(|f| panic!("{f:?}"));
        assert_eq!(loaded.faults, [], "{provider:?}");
        let trace = loaded.trace(Lang::En);
        assert_eq!(trace.end, EndStatus::Rejected, "{provider:?}");
        let last = trace.steps.last().unwrap();
        let StepKind::Rejected {
            number,
            unanswered,
            error,
        } = &last.kind
        else {
            panic!("{provider:?}: ends with {:?}", last.kind)
        };
        assert_eq!(*number, 2);
        assert_eq!(unanswered, &[trace.calls[1].id.clone()]);
        assert_eq!(error, text, "{provider:?}");
        // The user's words are sent; the stopped call's result is not.
        let sent = trace.messages.slice(..trace.model_calls[1].context_len);
        assert_eq!(sent.last().unwrap().text.as_ref(), USER);
        assert!(sent.iter().all(|m| m.text.as_ref() != STOPPED));
        assert_eq!(
            trace.calls[1].status_at(trace.len() - 1),
            Some(CallStatus::Unanswered)
        );
    }
}

/// The faults of the lesson with `edit` made to its JSON.
fn faults(edit: impl FnOnce(&mut Value)) -> Vec<String> {
    let mut json = common::shipped_json(LESSON);
    edit(&mut json);
    common::faults_of("i.json", &json)
}

fn has(faults: &[String], place: &str, words: &str) {
    assert!(
        faults.iter().any(|f| f.starts_with("i.json: ")
            && f.contains(&format!("at {place}:"))
            && f.contains(words)),
        "no fault at {place} saying {words:?}: {faults:#?}"
    );
}

#[test]
fn check_names_the_place_of_every_mistake_in_an_interrupt() {
    has(
        &faults(|j| j["interrupt"]["call"] = json!("whole-suite")),
        "interrupt.call",
        "\"whole-suite\" is not the label of a call in \"model\" (the labels are login-test, \
         fix, read-login, full-suite); expected the \"label\" of the call the user stops",
    );
    has(
        &faults(|j| j["interrupt"]["message"]["en"] = json!(" ")),
        "interrupt.message.en",
        "expected what the user writes after stopping the run",
    );
    has(
        &faults(|j| {
            j.as_object_mut().unwrap().remove("interrupt");
            j["harness"] = json!({"forget_interrupted": true});
        }),
        "harness.forget_interrupted",
        "there is no \"interrupt\" for the harness to forget",
    );
    // A call the host refuses never runs, so no one can stop it.
    has(
        &faults(|j| j["model"][3]["calls"][1]["args"] = json!({})),
        "interrupt.call",
        "the call labelled \"full-suite\" never runs in the run",
    );
    has(
        &faults(|j| j["interrupt"]["when"] = json!("later")),
        "interrupt.when",
        "unknown field \"when\" (unknown fields are refused; expected one of: call, message)",
    );
    // The shipped lessons have none of these faults.
    assert_eq!(faults(|_| {}), Vec::<String>::new());
}

#[test]
fn a_narration_or_question_keyed_by_the_interrupt_lands_on_it() {
    let loaded = load::examine(LESSON).unwrap();
    let trace = loaded.trace(Lang::En);
    let at = |n: usize| &trace.steps[n - 1].kind;
    assert!(matches!(at(8), StepKind::Interrupted { .. }));
    assert!(matches!(at(9), StepKind::UserTurn));
    let quiz = &loaded.lesson.as_ref().unwrap().quiz;
    let steps: Vec<String> = quiz.iter().map(|q| format!("{:?}", q.step)).collect();
    assert_eq!(
        steps,
        [
            "Number(7)",
            "Number(8)",
            "Number(9)",
            "Number(10)",
            "Number(21)"
        ]
    );
    // A key past the run's user turns names the ones it has.
    has(
        &faults(|j| j["narration"]["user_turn.3"] = json!({"zh": "三", "en": "three"})),
        "narration[\"user_turn.3\"]",
        "the user writes 2 messages in the run",
    );
}
