//! Rate limits and retries (`provider_errors`, a result's `attempt`): the
//! provider turns a request away in its own shape and the host sends the
//! same request again (one model call, one more HTTP request); a post
//! that timed out after it landed is retried under the host's operation
//! id and lands once; and `check` names the place of every mistake.

mod common;

use agent_loop_sim::load;
use agent_loop_sim::scenario::{EndStatus, Lang};
use agent_loop_sim::trace::{FileChange, StepKind, Trace};
use agent_loop_sim::wire::{self, Provider};
use serde_json::{Value, json};

const LESSON: &str = "rate-limit-retry";
const PROVIDERS: [Provider; 3] = [Provider::Chat, Provider::Responses, Provider::Anthropic];
const CHANNEL: &str = "channel/releases.log";

/// The steps at which the provider turns a request away, and the host's
/// resend right after each.
fn turned_away(trace: &Trace) -> Vec<usize> {
    (trace.steps.iter().enumerate())
        .filter(|(_, s)| matches!(s.kind, StepKind::Throttled { .. }))
        .map(|(i, _)| i)
        .collect()
}

#[test]
fn a_turned_away_request_is_sent_again_unchanged_in_each_providers_words() {
    for provider in PROVIDERS {
        let loaded = load::examine_as(LESSON, Some(provider)).unwrap_or_else(|f| panic!("{f:?}"));
        assert_eq!(loaded.faults, [], "{provider:?}");
        let trace = loaded.trace(Lang::En);
        assert_eq!(trace.end, EndStatus::Completed);
        let at = turned_away(trace);
        assert_eq!(at.len(), 2, "{provider:?}");
        let overload = match provider {
            Provider::Anthropic => {
                "HTTP 529 Overloaded · retry-after: 1\n{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"
            }
            _ => {
                "HTTP 503 Service Unavailable · retry-after: 1\n{\"error\":{\"message\":\"Our servers are currently overloaded. Please try again later.\",\"type\":\"service_unavailable_error\",\"param\":null,\"code\":\"server_is_overloaded\"}}"
            }
        };
        let said = |i: usize| wire::error_at(trace, &trace.steps[i].kind).unwrap();
        assert!(said(at[0]).starts_with("HTTP 429 Too Many Requests · retry-after: 2\n"));
        assert_eq!(said(at[1]), overload, "{provider:?}");
        for &i in &at {
            // From the provider's API, then the host sends the same call again.
            assert_eq!(trace.steps[i].acting_lane(), None);
            let StepKind::Throttled { number, .. } = trace.steps[i].kind else {
                unreachable!()
            };
            assert_eq!(trace.steps[i - 1].kind, StepKind::ModelCall { number });
            assert_eq!(trace.steps[i + 1].kind, StepKind::Resends { number });
            let (before, after) = (trace.steps[i].counters, trace.steps[i + 1].counters);
            assert_eq!(after.model_calls, before.model_calls);
            assert_eq!(after.http_requests, before.http_requests + 1);
            // Nothing was appended: the context sent again is the same.
            assert_eq!(trace.steps[i + 1].model_call, trace.steps[i - 1].model_call);
        }
        let end = trace.steps.last().unwrap().counters;
        assert_eq!((end.model_calls, end.http_requests), (4, 6), "{provider:?}");
    }
    // The header says both counts, once they differ.
    let out = common::run(&["transcript", LESSON, "--lang", "en"]);
    let text = out.stdout;
    assert!(text.contains("model calls 1/6 (HTTP requests 2)"), "{text}");
    assert!(text.contains("model calls 4/6 (HTTP requests 6)"), "{text}");
}

/// The lesson's post lands at its first run, whose answer is a timeout;
/// the model's retry of the same call lands nothing more, unless the
/// host keys no operation (`harness.ignore_op_ids`).
#[test]
fn a_retried_post_lands_once_under_the_hosts_operation_id() {
    let written = |trace: &Trace| {
        (trace.file_events.iter())
            .filter(|e| e.path == CHANNEL && matches!(e.change, FileChange::Written { .. }))
            .count()
    };
    let loaded = load::examine(LESSON).unwrap();
    let trace = loaded.trace(Lang::En);
    let posts: Vec<_> = (trace.calls.iter())
        .filter(|c| c.tool == "post_message")
        .collect();
    assert_eq!(posts.len(), 2);
    // Both ran (no replay from the record): the first failed, the second
    // got the service's answer for the same key.
    assert!(posts.iter().all(|c| c.started.is_some()));
    let texts: Vec<(&str, bool)> = posts
        .iter()
        .map(|c| {
            let r = c.result.as_ref().unwrap();
            (r.text.as_ref(), r.is_error)
        })
        .collect();
    assert_eq!(
        texts,
        [
            (
                "timeout: chat.example did not answer within 10 s (the message may have been posted)",
                true
            ),
            ("posted to #releases: message m-1042", false)
        ]
    );
    assert_eq!(written(trace), 1);
    assert_eq!(trace.steps.last().unwrap().counters.writes, 1);

    let mut json = common::shipped_json(LESSON);
    json["harness"] = json!({"ignore_op_ids": true});
    let bytes = serde_json::to_vec(&json).unwrap();
    let twice = load::prepare_all("twice.json", &bytes).unwrap();
    let trace = twice.trace(Lang::En);
    assert_eq!(written(trace), 2);
    assert_eq!(trace.steps.last().unwrap().counters.writes, 2);
}

/// The faults of the lesson with `edit` made to its JSON.
fn faults(edit: impl FnOnce(&mut Value)) -> Vec<String> {
    let mut json = common::shipped_json(LESSON);
    edit(&mut json);
    common::faults_of("r.json", &json)
}

fn has(faults: &[String], place: &str, words: &str) {
    assert!(
        faults.iter().any(|f| f.starts_with("r.json: ")
            && f.contains(&format!("at {place}:"))
            && f.contains(words)),
        "no fault at {place} saying {words:?}: {faults:#?}"
    );
}

#[test]
fn check_names_the_place_of_every_mistake_in_a_retry() {
    let entry = |j: &mut Value, field: &str, value: Value| j["provider_errors"][1][field] = value;
    has(
        &faults(|j| entry(j, "model_call", json!(0))),
        "provider_errors[1].model_call",
        "0 is not a model call of the run; expected a number from 1 to the budget, 6",
    );
    has(
        &faults(|j| entry(j, "model_call", json!(1))),
        "provider_errors[1].model_call",
        "model call #1 is already turned away by an earlier entry",
    );
    has(
        &faults(|j| entry(j, "retry_after", json!(61))),
        "provider_errors[1].retry_after",
        "61 seconds is not a wait the host keeps; expected 1 to 60",
    );
    has(
        &faults(|j| entry(j, "model_call", json!(5))),
        "provider_errors[1].model_call",
        "the run makes 4 model calls, so model call #5 is never sent",
    );
    has(
        &faults(|j| entry(j, "error", json!("quota"))),
        "provider_errors[1].error",
        "rate_limit",
    );
    has(
        &faults(|j| entry(j, "status", json!(529))),
        "provider_errors[1].status",
        "unknown field \"status\"",
    );
    has(
        &faults(|j| j["tools"][1]["results"][0]["attempt"] = json!(0)),
        "tools[1].results[0].attempt",
        "runs are counted from 1",
    );
    has(
        &faults(|j| j["tools"][1]["results"][1]["attempt"] = json!(2)),
        "tools[1].results[1]",
        "the last result is the default: expected it without \"args\", \"files\" and \"attempt\"",
    );
    // The shipped lesson has none of these faults.
    assert_eq!(faults(|_| {}), Vec::<String>::new());
}

#[test]
fn narration_and_questions_keyed_by_a_retry_land_on_it() {
    let loaded = load::examine(LESSON).unwrap();
    let trace = loaded.trace(Lang::En);
    assert_eq!(turned_away(trace), [2, 14]);
    assert!(matches!(
        trace.steps[3].kind,
        StepKind::Resends { number: 1 }
    ));
    let quiz = &loaded.lesson.as_ref().unwrap().quiz;
    let steps: Vec<String> = quiz.iter().map(|q| format!("{:?}", q.step)).collect();
    assert_eq!(
        steps,
        [
            "Number(3)",
            "Number(4)",
            "Number(13)",
            "Number(20)",
            "Number(22)"
        ]
    );
    has(
        &faults(|j| j["narration"]["resend.2"] = json!({"zh": "二", "en": "two"})),
        "narration[\"resend.2\"]",
        "the provider never turns model call #2 away",
    );
}
