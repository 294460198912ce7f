//! Each shipped scenario tells the story its narration tells: the steps come
//! in the order the narration numbers them, end the way it says, and show
//! the one thing the scenario is there to show.

mod common;

use agent_loop_sim::load::{self, CATALOG};
use agent_loop_sim::scenario::{EndStatus, Lang};
use agent_loop_sim::trace::{
    CallStatus, FileChange, Outcome, Role, StepKind, TaskOutcome, Trace, Verdict,
};
use agent_loop_sim::{i18n, trace_json};

fn trace(name: &str) -> Trace {
    load::load(name).unwrap().trace(Lang::En).clone()
}

/// One letter per step: Task, Model call, Proposes, Validates (approved),
/// X refused, Executes, Result, Answers, verifY, veriFied, Budget, Crash,
/// H the host answers from its record, J the provider rejects the request,
/// Q the host asks the user (policy ask), U the user answers.
/// K the host compacts the context. Z a recorded reply cut (no lesson has one).
/// I the user interrupts running calls, W the user writes again.
/// S a piece of a streamed reply arrives.
/// L the provider turns a request away (rate limit, overload), G the host
/// sends the same request again.
fn story(t: &Trace) -> String {
    t.steps
        .iter()
        .map(|s| match &s.kind {
            StepKind::TaskArrives => 'T',
            StepKind::UserTurn => 'W',
            StepKind::Interrupted { .. } => 'I',
            StepKind::ModelCall { .. } => 'M',
            StepKind::Proposes { .. } => 'P',
            StepKind::Validates {
                verdict: Verdict::Approved,
                ..
            } => 'V',
            StepKind::Validates {
                verdict: Verdict::AwaitsApproval,
                ..
            } => 'Q',
            StepKind::Validates { .. } => 'X',
            StepKind::Executes { .. } => 'E',
            StepKind::ResultArrives { .. } => 'R',
            StepKind::Answers { .. } => 'A',
            StepKind::Verifies { .. } => 'Y',
            StepKind::Verified { .. } => 'F',
            StepKind::BudgetExhausted { .. } => 'B',
            StepKind::Crashes { .. } => 'C',
            StepKind::Replays { .. } => 'H',
            StepKind::Rejected { .. } => 'J',
            StepKind::Cut { .. } => 'Z',
            StepKind::UserDecides { .. } => 'U',
            StepKind::Compacts { .. } => 'K',
            StepKind::Streams { .. } => 'S',
            StepKind::Throttled { .. } => 'L',
            StepKind::Resends { .. } => 'G',
            StepKind::McpLists => 'D',
            StepKind::McpListed => 'N',
        })
        .collect()
}

/// Each shipped lesson in the catalogue's order: its story (`story`) and
/// how its run ends.
const STORIES: [(&str, &str, EndStatus); 35] = [
    ("read-config-timeout", "TMPVERMA", EndStatus::Completed),
    (
        "wrong-path-first",
        "TMPVERMPVERMPVERMA",
        EndStatus::Completed,
    ),
    (
        "wrong-path-first-anthropic",
        "TMPVERMPVERMPVERMA",
        EndStatus::Completed,
    ),
    ("explain-entry", "TMPVERMPVERMA", EndStatus::Completed),
    (
        "streaming-one-call",
        "TMSSSSSPVERMSSSA",
        EndStatus::Completed,
    ),
    (
        "parallel-calls-out-of-order",
        "TMPVVERRMA",
        EndStatus::Completed,
    ),
    (
        "parallel-calls-anthropic",
        "TMPVVERRMA",
        EndStatus::Completed,
    ),
    ("refused-tool", "TMPVERMPXMA", EndStatus::Completed),
    ("path-outside-workspace", "TMPVXERMA", EndStatus::Completed),
    (
        "patch-and-test",
        "TMPVERMPVERMPVHMPVERMA",
        EndStatus::Completed,
    ),
    (
        "verify-before-done",
        "TMPVERMPVERMAYFMPVERMAYF",
        EndStatus::Completed,
    ),
    (
        "budget-exhausted",
        "TMPVERMPVERMPB",
        EndStatus::BudgetExhausted,
    ),
    ("harness-drops-results", "TMPVERMJ", EndStatus::Rejected),
    (
        "harness-drops-calls",
        "TMPVERMPVERMPVERB",
        EndStatus::BudgetExhausted,
    ),
    ("harness-crashes-on-error", "TMPVERC", EndStatus::Crashed),
    ("harness-pairs-by-order", "TMPVVERRMA", EndStatus::Completed),
    (
        "harness-trusts-done",
        "TMPVERMPVERMA",
        EndStatus::VerificationMissing,
    ),
    (
        "harness-answers-with-item-id",
        "TMPVERMJ",
        EndStatus::Rejected,
    ),
    (
        "seed-agent-loop",
        "TMPVERMPVERMPVHMPVERMPXMA",
        EndStatus::Completed,
    ),
    (
        "approve-side-effects",
        "TMPVERMPQUERMPQUERMPVERMPQUMA",
        EndStatus::Completed,
    ),
    (
        "malformed-arguments",
        "TMPXMPXMPXMPVERMA",
        EndStatus::Completed,
    ),
    (
        "strict-schema-tool-choice",
        "TMPVERMPVERMPVERMA",
        EndStatus::Completed,
    ),
    (
        "reasoning-travels-with-calls",
        "TMPVERMPVERMA",
        EndStatus::Completed,
    ),
    ("harness-drops-thinking", "TMPVERMJ", EndStatus::Rejected),
    (
        "reply-cut-off",
        "TMPVVERRMPXMPVERMAYF",
        EndStatus::Completed,
    ),
    (
        "prompt-injection-in-file",
        "TMPVERMPXMA",
        EndStatus::Completed,
    ),
    (
        "exfiltration-needs-approval",
        "TMPVERMPVERMPQUMA",
        EndStatus::Completed,
    ),
    (
        "mcp-tools-from-a-server",
        "DNTMPXMPVERMPVERMPVERMA",
        EndStatus::Completed,
    ),
    (
        "context-compaction-summary",
        "TMPVERMPVERMPVERKMA",
        EndStatus::Completed,
    ),
    (
        "context-compaction-lost-fact",
        "TMPVERMPVERMPVERKMPVERMA",
        EndStatus::Completed,
    ),
    (
        "prompt-cache-stable-prefix",
        "TMPVERMPVERMPVERMA",
        EndStatus::Completed,
    ),
    (
        "interrupt-pending-calls",
        "TMPVVERIWMPVERMPVERMA",
        EndStatus::Completed,
    ),
    (
        "interrupt-forgets-results",
        "TMPVVERIWMJ",
        EndStatus::Rejected,
    ),
    (
        "rate-limit-retry",
        "TMLGPVERMPVERMLGPVERMA",
        EndStatus::Completed,
    ),
    // The main agent's loop; its sub-agent's own is `sub_agent_story`.
    ("sub-agent-own-context", "TMPVERMA", EndStatus::Completed),
];

/// The sub-agent of `sub-agent-own-context`: its own loop, a grep, then
/// two reads in one reply, then its answer (tests/sub_agent_lesson.rs).
#[test]
fn sub_agent_story() {
    let loaded = load::load("sub-agent-own-context").unwrap();
    let sub = loaded.sub_agent.as_ref().expect("its sub-agent");
    for lang in Lang::ALL {
        assert_eq!(story(sub.trace(lang)), "TMPVERMPVVERRMA", "{}", lang.code());
        assert_eq!(sub.trace(lang).end, EndStatus::Completed);
    }
}

#[test]
fn every_scenario_has_its_story_and_end() {
    let expected = STORIES;
    let names: Vec<&str> = CATALOG.iter().map(|(n, _)| *n).collect();
    let listed: Vec<&str> = expected.iter().map(|(n, _, _)| *n).collect();
    assert_eq!(names, listed, "every shipped scenario has a story here");
    for (name, steps, end) in expected {
        let loaded = load::load(name).unwrap();
        for lang in Lang::ALL {
            let t = loaded.trace(lang);
            assert_eq!(story(t), steps, "{name} ({})", lang.code());
            assert_eq!(t.end, end, "{name}");
            assert_eq!(t.steps.last().unwrap().end, Some(end), "{name}");
        }
        // Narration for every step (by number or by event), in both
        // languages, and none extra.
        assert_eq!(
            loaded.lesson.as_ref().unwrap().narration.len(),
            steps.len(),
            "{name}"
        );
        for lang in Lang::ALL {
            for (i, step) in loaded.trace(lang).steps.iter().enumerate() {
                let text = step.narration.as_deref().unwrap_or("");
                assert!(!text.trim().is_empty(), "{name} step {}", i + 1);
            }
        }
    }
}

/// A shipped lesson's JSON, as written.
fn shipped_json(name: &str) -> serde_json::Value {
    let (_, source) = CATALOG.iter().find(|(n, _)| *n == name).unwrap();
    serde_json::from_str(source).unwrap()
}

/// Sentences in a text: ended by `.`, `!`, `?` (followed by a space or the
/// end) or by `。！？`.
fn sentences(text: &str) -> usize {
    let chars: Vec<char> = text.chars().collect();
    (0..chars.len())
        .filter(|&i| match chars[i] {
            '。' | '！' | '？' => true,
            '.' | '!' | '?' => chars.get(i + 1).is_none_or(|c| *c == ' '),
            _ => false,
        })
        .count()
}

#[test]
fn every_shipped_lesson_has_a_short_system_prompt_in_both_languages() {
    for (name, _) in CATALOG {
        let loaded = load::load(name).unwrap();
        let system = loaded
            .lesson
            .as_ref()
            .unwrap()
            .system
            .as_ref()
            .unwrap_or_else(|| panic!("{name} has no system prompt"));
        for lang in Lang::ALL {
            let text = system.get(lang);
            let n = sentences(text);
            assert!(
                (2..=5).contains(&n),
                "{name} ({}): {n} sentences: {text}",
                lang.code()
            );
        }
        // Written right after the task, as the guide asks.
        let keys: Vec<String> = shipped_json(name)
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        let task = keys.iter().position(|k| k == "task").unwrap();
        assert_eq!(keys[task + 1], "system", "{name}");
    }
}

#[test]
fn a_harness_mistake_sends_the_same_system_prompt_as_its_twin() {
    let mut twins = 0;
    for (name, _) in CATALOG {
        let loaded = load::load(name).unwrap();
        let Some(twin) = &loaded.lesson.as_ref().unwrap().twin else {
            continue;
        };
        let correct = load::load(twin).unwrap();
        for lang in Lang::ALL {
            assert_eq!(
                loaded
                    .lesson
                    .as_ref()
                    .unwrap()
                    .system
                    .as_ref()
                    .unwrap()
                    .get(lang),
                correct
                    .lesson
                    .as_ref()
                    .unwrap()
                    .system
                    .as_ref()
                    .unwrap()
                    .get(lang),
                "{name} and its twin {twin}"
            );
        }
        twins += 1;
    }
    assert_eq!(twins, 6);
}

/// Every text a lesson explains itself with (conditions, about, narration,
/// quiz questions and answers), in both languages.
fn lesson_texts(lesson: &serde_json::Value) -> Vec<(String, String)> {
    let mut texts = Vec::new();
    let mut push = |place: String, text: &serde_json::Value| {
        for lang in ["zh", "en"] {
            texts.push((
                format!("{place}.{lang}"),
                text[lang].as_str().unwrap().to_string(),
            ));
        }
    };
    for (i, c) in lesson["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        push(format!("conditions[{i}]"), c);
    }
    for (k, v) in lesson["about"].as_object().unwrap() {
        push(format!("about.{k}"), v);
    }
    for (k, v) in lesson["narration"].as_object().into_iter().flatten() {
        push(format!("narration.{k}"), v);
    }
    for (i, q) in lesson["quiz"].as_array().into_iter().flatten().enumerate() {
        // Its choices are left out: all but one are meant to be wrong.
        push(format!("quiz[{i}].question"), &q["question"]);
        if !q["why"].is_null() {
            push(format!("quiz[{i}].why"), &q["why"]);
        }
    }
    texts
}

#[test]
fn lesson_texts_name_the_provider_whose_shape_they_describe() {
    // Any lesson can be shown as any provider (`--provider`): a word of one
    // provider's wire shape stands only beside that provider's name (a
    // lesson that pins a provider, and says so in its conditions, may use
    // that provider's words throughout), and an error is never just
    // "marked" without saying how.
    let shapes: [(&str, &[&str]); 8] = [
        ("tool message", &["Chat"]),
        ("tool 消息", &["Chat"]),
        ("tool_call_id", &["Chat"]),
        ("function_call_output", &["Responses"]),
        ("tool_use_id", &["Anthropic"]),
        ("tool_result", &["Anthropic"]),
        ("is_error", &["Anthropic"]),
        ("role tool", &["Chat"]),
    ];
    let vague = [
        "marked as an error",
        "标记为错误",
        "被标为错误",
        "并标为错误",
    ];
    let mut faults = Vec::new();
    let names = [
        ("chat", "Chat"),
        ("responses", "Responses"),
        ("anthropic", "Anthropic"),
    ];
    for (name, _) in CATALOG {
        let lesson = shipped_json(name);
        let pinned = names
            .iter()
            .find(|(code, _)| lesson["provider"] == *code)
            .map(|(_, p)| *p);
        for (place, text) in lesson_texts(&lesson) {
            for (word, providers) in shapes {
                let named = providers
                    .iter()
                    .any(|p| text.contains(p) || pinned == Some(*p));
                if text.contains(word) && !named {
                    faults.push(format!("{name} {place}: {word:?} without {providers:?}"));
                }
            }
            for v in vague {
                if text.contains(v) {
                    faults.push(format!("{name} {place}: {v:?} without saying how"));
                }
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn a_wrong_path_is_an_error_result_the_model_reads() {
    let t = trace("wrong-path-first");
    let call_1 = &t.calls[0];
    assert_eq!(call_1.status_at(5), Some(CallStatus::Error));
    let second = &t.model_calls[1];
    let error = t
        .context(second)
        .iter()
        .find(|m| m.role == Role::Tool)
        .unwrap();
    assert!(error.is_error);
    assert_eq!(&*error.call_id.as_ref().unwrap().0, "call_1");
    assert_eq!(t.calls[1].tool, "list_files");
    assert_eq!(t.calls[2].args[0].1, "conf/config.txt");
    assert!(t.messages.last().unwrap().text.contains("30"));
}

#[test]
fn the_anthropic_wrong_path_runs_as_its_chat_relative_with_anthropic_ids() {
    use agent_loop_sim::scenario::IdStyle;
    use agent_loop_sim::wire::Provider;
    let pinned = load::load("wrong-path-first-anthropic").unwrap();
    let relative = load::load("wrong-path-first").unwrap();
    assert_eq!(
        pinned.lesson.as_ref().unwrap().provider,
        Some(Provider::Anthropic)
    );
    assert_eq!(pinned.lesson.as_ref().unwrap().ids, IdStyle::Anthropic);
    assert_eq!(relative.lesson.as_ref().unwrap().provider(), Provider::Chat);
    for lang in Lang::ALL {
        let (t, r) = (pinned.trace(lang), relative.trace(lang));
        assert_eq!(story(t), story(r));
        assert_eq!(
            t.messages.last().unwrap().text,
            r.messages.last().unwrap().text
        );
        assert!(t.calls.iter().all(|c| c.id.0.starts_with("toolu_01")));
        // The one error result (is_error: true on Anthropic's tool_result)
        // answers the first call; the other two are not errors.
        let errors: Vec<bool> = t
            .messages
            .iter()
            .filter(|m| m.role == Role::Tool)
            .map(|m| m.is_error)
            .collect();
        assert_eq!(errors, [true, false, false]);
        let first = t.messages.iter().find(|m| m.role == Role::Tool).unwrap();
        assert_eq!(first.call_id.as_ref(), Some(&t.calls[0].id));
    }
}

#[test]
fn the_second_read_is_decided_after_the_first_result() {
    let t = trace("explain-entry");
    assert_eq!(t.model_calls.len(), 3);
    assert_eq!(t.calls.len(), 2);
    // call_2 is proposed by model call #2, whose context holds call_1's result.
    assert_eq!(t.calls[1].model_call, 2);
    let context = t.context(&t.model_calls[1]);
    assert!(context.iter().any(|m| m.text.contains("from \"./config\"")));
}

/// The tool results as the model reads them: (call id attached, text).
fn tool_results(t: &Trace) -> Vec<(&str, &str)> {
    t.messages
        .iter()
        .filter(|m| m.role == Role::Tool)
        .map(|m| (m.call_id.as_ref().unwrap().0.as_ref(), &*m.text))
        .collect()
}

#[test]
fn out_of_order_results_are_paired_by_id_and_appended_in_call_order() {
    let t = trace("parallel-calls-out-of-order");
    assert_eq!(
        tool_results(&t),
        [
            ("call_1", "PORT=443\nTIMEOUT=60"),
            ("call_2", "PORT=8080\nTIMEOUT=5")
        ]
    );
    // call_2 came first and was held; both went in when call_1's came.
    let (first, second) = (&t.calls[0], &t.calls[1]);
    assert!(second.finished < first.finished);
    assert_eq!(t.appended_at(second), first.finished);
    assert_eq!(t.appended_at(first), first.finished);
    let held = second.finished.unwrap();
    assert!(
        i18n::step_title(&t, held).contains("held"),
        "{}",
        i18n::step_title(&t, held)
    );
    // The JSON trace says so at the step it came, and at the next.
    let json = trace_json::to_value(&t, trace_json::ContextShape::Linear);
    let appended = |step: usize| &json["steps"][step]["appended"];
    assert_eq!(*appended(held), false, "{}", json["steps"][held]);
    assert_eq!(*appended(held + 1), true, "{}", json["steps"][held + 1]);
    assert!(
        t.messages
            .last()
            .unwrap()
            .text
            .contains("prod has TIMEOUT=60")
    );
}

#[test]
fn the_anthropic_parallel_reads_send_both_results_on_the_next_call() {
    use agent_loop_sim::wire::Provider;
    let pinned = load::load("parallel-calls-anthropic").unwrap();
    assert_eq!(
        pinned.lesson.as_ref().unwrap().provider(),
        Provider::Anthropic
    );
    let t = pinned.trace(Lang::En);
    let relative = trace("parallel-calls-out-of-order");
    assert_eq!(story(t), story(&relative));
    // Both calls come from one reply, and both results, each under its own
    // tool_use id, are new in the context of the next model call, with
    // nothing between them (one user message of two tool_result blocks).
    let (prod, dev) = (&t.calls[0], &t.calls[1]);
    assert_eq!((prod.model_call, dev.model_call), (1, 1));
    assert!(prod.id.0.starts_with("toolu_01") && dev.id.0.starts_with("toolu_01"));
    let second = t.context(&t.model_calls[1]);
    let n = second.len();
    let last_two: Vec<(&str, &str)> = second
        .slice(n - 2..)
        .iter()
        .map(|m| {
            assert_eq!(m.role, Role::Tool);
            (m.call_id.as_ref().unwrap().0.as_ref(), &*m.text)
        })
        .collect();
    assert_eq!(
        last_two,
        [
            (prod.id.0.as_ref(), "PORT=443\nTIMEOUT=60"),
            (dev.id.0.as_ref(), "PORT=8080\nTIMEOUT=5")
        ]
    );
    assert_eq!(second[n - 3].calls, [prod.id.clone(), dev.id.clone()]);
    assert_eq!(
        t.messages.last().unwrap().text,
        relative.messages.last().unwrap().text
    );
}

#[test]
fn pairing_by_order_swaps_the_results_and_the_answer() {
    let t = trace("harness-pairs-by-order");
    assert_eq!(
        tool_results(&t),
        [
            ("call_1", "PORT=8080\nTIMEOUT=5"),
            ("call_2", "PORT=443\nTIMEOUT=60")
        ]
    );
    assert_eq!(&*t.calls[1].paired_to.as_ref().unwrap().0, "call_1");
    assert!(
        t.messages
            .last()
            .unwrap()
            .text
            .contains("prod has TIMEOUT=5")
    );
}

#[test]
fn refused_calls_never_run_and_their_refusal_is_a_result() {
    for (name, refused) in [("refused-tool", 1), ("path-outside-workspace", 1)] {
        let t = trace(name);
        let call = &t.calls[refused];
        assert!(matches!(call.verdict, Some((_, Verdict::Refused(_)))));
        assert_eq!(call.started, None, "{name}: never executed");
        let last = t.steps.len() - 1;
        assert_eq!(call.status_at(last), Some(CallStatus::Refused));
        let result = t
            .messages
            .iter()
            .find(|m| m.call_id.as_ref() == Some(&call.id))
            .unwrap();
        assert!(result.is_error && result.text.starts_with("refused by host"));
        // Only approved calls were counted as tool runs.
        assert_eq!(t.steps[last].counters.tool_runs, 1, "{name}");
    }
    assert_eq!(trace("refused-tool").calls[1].tool, "publish");
    assert!(
        trace("refused-tool")
            .tools
            .iter()
            .all(|t| t.name != "publish")
    );
}

#[test]
fn a_replayed_patch_writes_once_and_the_test_passes_after_it() {
    let t = trace("patch-and-test");
    let (first, replay) = (&t.calls[1], &t.calls[2]);
    assert_eq!(first.args, replay.args);
    assert!(!first.result.as_ref().unwrap().replayed);
    assert!(replay.result.as_ref().unwrap().replayed);
    assert!(first.args.iter().any(|(k, _)| k == "op_id"));
    // The host answers the replay from its record: it never runs.
    assert_eq!(replay.started, None);
    assert_eq!(replay.outcome(), Some(Outcome::Replayed));
    assert!(t.steps.iter().any(
        |s| matches!(&s.kind, StepKind::Replays { call, conflict: false, .. } if *call == replay.id)
    ));
    assert!(
        !t.steps
            .iter()
            .any(|s| matches!(&s.kind, StepKind::Executes { calls } if calls.contains(&replay.id)))
    );
    assert_eq!(t.steps.last().unwrap().counters.tool_runs, 3);
    assert_eq!(t.task, TaskOutcome::Verified);
    let writes: Vec<_> = t
        .file_events
        .iter()
        .filter(|e| matches!(e.change, FileChange::Written { .. }))
        .collect();
    assert_eq!(writes.len(), 1);
    assert_eq!(t.steps.last().unwrap().counters.writes, 1);
    let test = &t.calls[3];
    assert_eq!(test.tool, "run_tests");
    assert!(!test.result.as_ref().unwrap().is_error);
    assert!(test.finished > first.finished);
}

/// Whether each of the host's own verifications passed, in order.
fn verified(t: &Trace) -> Vec<bool> {
    t.steps
        .iter()
        .filter_map(|s| match s.kind {
            StepKind::Verified { passed, .. } => Some(passed),
            _ => None,
        })
        .collect()
}

#[test]
fn the_host_verifies_done_and_the_failure_goes_back() {
    let t = trace("verify-before-done");
    let verified = verified(&t);
    assert_eq!(verified, [false, true]);
    let fourth = &t.model_calls[3];
    assert!(
        t.context(fourth)
            .iter()
            .any(|m| m.role == Role::User && m.is_error && m.text.contains("verification failed"))
    );
    // The same model and files, trusted: it ends before any verification.
    let trusted = trace("harness-trusts-done");
    assert!(
        !trusted
            .steps
            .iter()
            .any(|s| matches!(s.kind, StepKind::Verifies { .. }))
    );
    assert_eq!(trusted.len(), 13);
    for (a, b) in t.steps.iter().zip(&trusted.steps) {
        assert_eq!((&a.kind, a.counters), (&b.kind, b.counters));
    }
}

#[test]
fn the_host_runs_nothing_past_the_budget_and_tells_the_user() {
    let t = trace("budget-exhausted");
    assert_eq!(t.model_calls.len(), 3);
    // Every result appended was sent on a later model call.
    let last_result = t
        .messages
        .iter()
        .rposition(|m| m.role == Role::Tool)
        .unwrap();
    assert!(t.model_calls.last().unwrap().context_len > last_result);
    // call_3, proposed on the last call, never runs; the host names it.
    let call_3 = t.calls.last().unwrap();
    assert_eq!((call_3.started, &call_3.result), (None, &None));
    let last = t.steps.last().unwrap();
    let StepKind::BudgetExhausted { not_run, .. } = &last.kind else {
        panic!("{:?}", last.kind)
    };
    assert_eq!(not_run, std::slice::from_ref(&call_3.id));
    assert_eq!(last.counters.tool_runs, 2);
    let arrow = i18n::arrow_label(&t, t.steps.len() - 1);
    assert!(
        arrow.contains("user told") && arrow.contains("call_3 not run"),
        "{arrow}"
    );
}

/// A file that does not ask for the careful host's habits keeps its
/// meaning: results appended as they come, every call of the last reply run.
#[test]
fn without_host_the_results_go_in_as_they_come_and_the_last_calls_run() {
    let mut parallel = common::shipped_json("parallel-calls-out-of-order");
    parallel.as_object_mut().unwrap().remove("host");
    let loaded = load::prepare("p.json", parallel.to_string().as_bytes()).unwrap();
    let t = loaded.trace(Lang::En);
    let ids: Vec<&str> = tool_results(t).iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, ["call_2", "call_1"]);
    let mut budget = common::shipped_json("budget-exhausted");
    budget.as_object_mut().unwrap().remove("host");
    let loaded = load::prepare("b.json", budget.to_string().as_bytes()).unwrap();
    let t = loaded.trace(Lang::En);
    assert!(t.calls.iter().all(|c| c.started.is_some()));
    let last = &t.steps.last().unwrap().kind;
    assert!(matches!(last, StepKind::BudgetExhausted { not_run, .. } if not_run.is_empty()));
}

#[test]
fn dropped_results_make_the_provider_reject_the_next_call() {
    let t = trace("harness-drops-results");
    assert!(t.messages.iter().all(|m| m.role != Role::Tool));
    assert!(t.calls.iter().all(|c| !c.appended && c.result.is_some()));
    let last = t.steps.last().unwrap();
    let StepKind::Rejected {
        number,
        unanswered,
        error,
    } = &last.kind
    else {
        panic!("{:?}", last.kind)
    };
    assert_eq!(*number, 2);
    assert_eq!(unanswered, &[t.calls[0].id.clone()]);
    assert!(error.contains("tool_call_id") && error.contains("call_1"));
    // The model never answered the rejected request.
    assert_eq!(t.model_calls.len(), 2);
    assert_eq!(t.model_calls[1].tokens, None);
    assert_eq!(t.task, TaskOutcome::NotDone);
}

#[test]
fn refusals_and_out_of_reach_files_leave_the_task_not_done() {
    for name in ["refused-tool", "path-outside-workspace"] {
        let t = trace(name);
        assert_eq!(
            (t.end, t.task),
            (EndStatus::Completed, TaskOutcome::NotDone),
            "{name}"
        );
    }
    assert_eq!(trace("read-config-timeout").task, TaskOutcome::Answered);
    assert_eq!(trace("verify-before-done").task, TaskOutcome::Verified);
    assert_eq!(trace("harness-trusts-done").task, TaskOutcome::Unverified);
}

#[test]
fn a_crash_stops_before_the_model_sees_the_error() {
    let t = trace("harness-crashes-on-error");
    assert_eq!(t.model_calls.len(), 1);
    assert!(matches!(
        t.steps.last().unwrap().kind,
        StepKind::Crashes { .. }
    ));
}

#[test]
fn the_example_in_the_format_guide_is_a_valid_scenario() {
    let guide = include_str!("../scenarios/README.md");
    let start = guide.find("```json\n").expect("a json example") + "```json\n".len();
    let end = start + guide[start..].find("```").unwrap();
    let loaded = load::prepare("scenarios/README.md", &guide.as_bytes()[start..end])
        .unwrap_or_else(|e| panic!("{e}"));
    let t = loaded.trace(Lang::En);
    assert_eq!(story(t), "TMPVERMPVERMAYF", "the guide says 15 steps");
    assert_eq!(t.end, EndStatus::Completed);
    assert_eq!(
        t.steps[12].narration.as_deref().map(|n| &n[..9]),
        Some("The model")
    );
}

/// A scenario that writes a file, then reads another one, then says done,
/// with `verify` set to `verify_args`.
fn write_then_read(verify_args: &str) -> String {
    format!(
        r#"{{
  "name": "strict-verify",
  "title": {{ "zh": "验证", "en": "Verify" }},
  "task": {{ "zh": "写 notes.txt", "en": "Write notes.txt" }},
  "about": {{
    "why": {{ "zh": "x", "en": "x" }}, "how": {{ "zh": "x", "en": "x" }},
    "cost": {{ "zh": "x", "en": "x" }}, "check": {{ "zh": "x", "en": "x" }}
  }},
  "files": {{ "config.txt": "timeout=30" }},
  "tools": [
    {{ "name": "read_file", "description": {{ "zh": "读", "en": "read" }}, "params": ["path"] }},
    {{ "name": "write_file", "description": {{ "zh": "写", "en": "write" }}, "params": ["path", "content"] }}
  ],
  "budget": 5,
  "verify": {{ "tool": "read_file", "args": {verify_args} }},
  "model": [
    {{ "when": {{ "contains": "verification failed" }}, "say": {{ "zh": "无法验证。", "en": "Cannot verify." }} }},
    {{ "when": {{ "has_result": {{ "tool": "read_file" }} }}, "say": {{ "zh": "好了。", "en": "Done." }} }},
    {{ "when": {{ "has_result": {{ "tool": "write_file" }} }},
       "calls": [ {{ "tool": "read_file", "args": {{ "path": "config.txt" }} }} ] }},
    {{ "calls": [ {{ "tool": "write_file", "args": {{ "path": "notes.txt", "content": "hi" }} }} ] }}
  ],
  "expect": "budget_exhausted"
}}"#
    )
}

/// A verify of `read_file nope.rs` is not satisfied by the model's read of
/// config.txt: the host runs its own check, which fails, and says so.
/// The same read with the verify's own arguments does satisfy it.
#[test]
fn a_verify_is_satisfied_only_by_a_call_with_its_own_arguments() {
    let wrong = write_then_read(r#"{ "path": "nope.rs" }"#);
    let loaded = load::prepare("strict.json", wrong.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let t = loaded.trace(Lang::En);
    let verified = verified(t);
    assert!(!verified.is_empty(), "the host verifies: {}", story(t));
    assert!(verified.iter().all(|passed| !passed));
    assert_eq!(t.end, EndStatus::BudgetExhausted);
    assert_eq!(t.task, TaskOutcome::NotDone);
    assert!(!loaded.has_errors(), "{:?}", loaded.faults);

    // The model's read is the verify's own call: nothing more to check.
    let right = write_then_read(r#"{ "path": "config.txt" }"#).replace(
        r#""expect": "budget_exhausted""#,
        r#""expect": "completed""#,
    );
    let loaded = load::prepare("strict.json", right.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let t = loaded.trace(Lang::En);
    assert!(!loaded.has_errors(), "{:?}", loaded.faults);
    assert_eq!(t.end, EndStatus::Completed);
    assert!(
        !t.steps
            .iter()
            .any(|s| matches!(s.kind, StepKind::Verifies { .. }))
    );
    assert_eq!(t.task, TaskOutcome::Verified);
}

/// The host summarizes: calls and their results go together, the summary
/// is the host's, the request fits after, and no call is left unanswered.
#[test]
fn a_summary_replaces_whole_turns_and_the_request_fits() {
    use agent_loop_sim::trace::HostInsert;
    for lang in Lang::ALL {
        let t = load::load("context-compaction-summary").unwrap().traces[lang.index()].clone();
        let c = &t.compactions[0];
        assert!(c.tokens_before > c.window && c.tokens_after <= c.window);
        let last = t.model_calls.last().unwrap();
        assert!(last.context_tokens <= c.window);
        let context = t.context(last);
        let ids: Vec<&str> = context
            .iter()
            .flat_map(|m| m.calls.iter().chain(&m.call_id))
            .map(|id| id.0.as_ref())
            .collect();
        assert_eq!(ids, ["call_3", "call_3"], "only the latest turn stays");
        assert_eq!(context[1].host_insert, Some(HostInsert::Summary));
        assert!(t.unanswered_at(last).is_empty());
        assert_eq!(
            t.status_at(&t.calls[0], t.len() - 1),
            Some(CallStatus::Compacted)
        );
        assert_eq!(
            t.status_at(&t.calls[2], t.len() - 1),
            Some(CallStatus::Done)
        );
    }
}

/// The host drops old results: placeholders keep the ids, the model sees
/// the fact is gone and reads it again, and the answer rests on the re-read.
#[test]
fn a_dropped_result_keeps_its_id_and_the_model_reads_again() {
    use agent_loop_sim::trace::HostInsert;
    for lang in Lang::ALL {
        let t = load::load("context-compaction-lost-fact").unwrap().traces[lang.index()].clone();
        let after = &t.model_calls[3];
        let context = t.context(after);
        let placeholders: Vec<&str> = context
            .iter()
            .filter(|m| m.host_insert == Some(HostInsert::Placeholder))
            .map(|m| m.call_id.as_ref().unwrap().0.as_ref())
            .collect();
        assert_eq!(placeholders, ["call_1", "call_2"]);
        assert!(!context.iter().any(|m| m.text.contains("port = 8080")));
        assert!(t.unanswered_at(after).is_empty());
        let reread = &t.calls[3];
        assert_eq!(reread.tool, "read_file");
        assert_eq!(
            reread.args,
            [("path".to_string(), "config.ini".to_string())]
        );
        let last = t.model_calls.last().unwrap();
        assert!(
            t.context(last)
                .iter()
                .any(|m| m.text.contains("port = 8080"))
        );
        assert!(last.context_tokens <= t.compactions[0].window);
        assert_eq!(t.task, TaskOutcome::Answered);
    }
}

/// The run is made once, on zh's token counts: a lesson whose en requests
/// cross the window at another model call than zh's is a fault of the
/// lesson, naming the step, the model call and both counts.
#[test]
fn compacting_at_different_calls_in_zh_and_en_is_a_fault() {
    let mut lesson = shipped_json("context-compaction-lost-fact");
    // About 160 more tokens in en's task only: en's requests cross the
    // window of 900 a model call before zh's do.
    let task = lesson["task"]["en"].as_str().unwrap().to_string();
    lesson["task"]["en"] = format!("{task}{}", " Please be thorough.".repeat(40)).into();
    let json = serde_json::to_string(&lesson).unwrap();
    let loaded = load::prepare_all("<lesson>", json.as_bytes()).unwrap();
    let (zh, en) = (loaded.trace(Lang::Zh), loaded.trace(Lang::En));
    assert_eq!(story(zh), story(en), "one run, told in both languages");
    let window = zh.window.unwrap();
    let compacts_before = |number: u32| {
        zh.steps
            .iter()
            .any(|s| matches!(s.kind, StepKind::Compacts { number: n, .. } if n == number))
    };
    let k = (en.model_calls.iter())
        .position(|mc| mc.context_tokens > window && !compacts_before(mc.number))
        .expect("en is over the window where zh does not compact");
    let (ours, theirs) = (&zh.model_calls[k], &en.model_calls[k]);
    assert!(ours.context_tokens <= window);
    let said = format!(
        "at step {}, model call #{}, the request is {} tokens in zh, within the window of \
         {window}, but {} in en, over it",
        ours.step + 1,
        ours.number,
        ours.context_tokens,
        theirs.context_tokens
    );
    let errors: Vec<String> = (loaded.faults.iter())
        .filter(|f| f.is_error())
        .map(|f| f.to_string())
        .collect();
    assert!(
        errors
            .iter()
            .any(|e| e.contains(&said) && e.contains("context.window")),
        "{said}\nnot in {errors:#?}"
    );
    // The shipped lesson compacts at the same calls in both: no such fault.
    let shipped = load::load("context-compaction-lost-fact").unwrap();
    assert!(!shipped.has_errors(), "{:?}", shipped.faults);
}

/// The run is made once, on zh's context: a rule whose text is in only
/// one language's words would hold in en where zh chose another, a fault
/// naming the step, the model call and both rules.
#[test]
fn a_rule_that_holds_in_one_language_only_is_a_fault() {
    let mut lesson = shipped_json("read-config-timeout");
    let task = lesson["task"]["en"].as_str().unwrap().to_string();
    lesson["task"]["en"] = format!("{task} Answer at once.").into();
    let first = serde_json::json!({
        "when": { "contains": "Answer at once." },
        "say": { "zh": "好的。", "en": "Done." }
    });
    lesson["model"].as_array_mut().unwrap().insert(0, first);
    let json = serde_json::to_string(&lesson).unwrap();
    let loaded = load::prepare_all("<lesson>", json.as_bytes()).unwrap();
    let zh = loaded.trace(Lang::Zh);
    assert_eq!(story(zh), story(loaded.trace(Lang::En)));
    let errors: Vec<String> = (loaded.faults.iter())
        .filter(|f| f.is_error())
        .map(|f| f.to_string())
        .collect();
    let said = format!(
        "at step {}, model call #1, model[",
        zh.model_calls[0].step + 1
    );
    assert!(
        errors.iter().any(|e| e.contains(&said)
            && e.contains("holds on the context in zh but model[0] holds on the context in en")),
        "{said}\nnot in {errors:#?}"
    );
}

/// The injected read is refused before anything runs; the task is still
/// answered and nothing outside the workspace enters the context.
#[test]
fn an_injected_read_outside_the_workspace_is_refused() {
    let t = trace("prompt-injection-in-file");
    let injected = &t.calls[1];
    assert_eq!(injected.args[0].1, "../secrets.txt");
    assert_eq!(
        t.status_at(injected, t.len() - 1),
        Some(CallStatus::Refused)
    );
    assert_eq!(injected.started, None);
    assert_eq!(t.steps.last().unwrap().counters.tool_runs, 1);
    assert_eq!(t.task, TaskOutcome::Answered);
}

/// Files written for the format before custom tools, policies, id styles,
/// rule conditions, anchors and the context window (the shipped scenarios
/// as they were, kept frozen in tests/old-format) still load with no error
/// and end as their `expect` says.
#[test]
fn files_written_for_the_old_format_still_pass_check() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/old-format");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.display().to_string();
        let loaded = load::examine(&name).unwrap_or_else(|faults| {
            panic!("{name}: {}", faults[0]);
        });
        assert!(!loaded.has_errors(), "{name}: {:?}", loaded.faults);
        for lang in Lang::ALL {
            assert_eq!(
                loaded.trace(lang).end,
                loaded.lesson.as_ref().unwrap().expect,
                "{name}"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 16);
}

/// A compaction lesson as shipped before 2026-12-01, when the window
/// counted an estimate of the messages and tools: counted as now (o200k
/// tokens of the whole request) it fails `check` (the host compacts at
/// other calls and the budget runs out); read as its author meant it, it
/// passes with a warning that says how to keep that meaning, and compacts
/// once, where its narration says (issue 35 item 16). (Its twin,
/// `context-compaction-summary` of then, passes either way.)
#[test]
fn a_window_written_before_the_o200k_count_keeps_its_meaning() {
    for name in ["context-compaction-lost-fact"] {
        let file = format!(
            "{}/tests/old-format/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let mut json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        // Counted as now: it fails (a text made in memory is not read as
        // an old file, nor is a file that says how it counts).
        let now = load::prepare_all("<now>", &serde_json::to_vec(&json).unwrap());
        assert!(
            now.is_err() || now.unwrap().has_errors(),
            "{name} passes as counted now"
        );
        json["context"]["count"] = "o200k".into();
        let path = common::scenario_file(&format!("{name}-o200k.json"), &json.to_string());
        let now = load::examine(&path);
        assert!(
            now.is_err() || now.unwrap().has_errors(),
            "{name} passes as counted now"
        );
        // Not said: read as counted then, with the warning.
        let loaded = load::examine(&file).unwrap_or_else(|faults| panic!("{name}: {}", faults[0]));
        assert!(!loaded.has_errors(), "{name}: {:?}", loaded.faults);
        let warning = loaded
            .faults
            .iter()
            .map(|f| f.to_string())
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            warning.contains("counted as before 2026-12-01"),
            "{name}: {warning}"
        );
        assert!(
            warning.contains("\"count\": \"estimate\""),
            "{name}: {warning}"
        );
        for lang in Lang::ALL {
            let t = loaded.trace(lang);
            assert!(t.window_estimated);
            assert_eq!(t.compactions.len(), 1, "{name}");
            let step = t.compactions[0].step;
            let narrated = json["narration"]["compacts.1"][lang.code()]
                .as_str()
                .unwrap();
            assert_eq!(t.steps[step].narration.as_deref(), Some(narrated), "{name}");
            assert!(t.compactions[0].tokens_before > 640, "{name}");
            assert!(t.compactions[0].tokens_after <= 640, "{name}");
        }
        // Said to count as then: the same run, and no warning.
        json["context"]["count"] = "estimate".into();
        let said = load::prepare_all("<then>", &serde_json::to_vec(&json).unwrap()).unwrap();
        assert!(said.faults.is_empty(), "{name}: {:?}", said.faults);
        assert_eq!(said.trace(Lang::En).len(), loaded.trace(Lang::En).len());
    }
}

/// A file written when a replayed call took two steps (the host executes,
/// the result arrives; before 2026-11-30) keeps its meaning: its numbers
/// are read the old way, with a warning, so the narration of both old
/// steps is shown at the one replay step and every later text stays on the
/// step it was written for.
#[test]
fn a_file_numbered_when_a_replay_took_two_steps_keeps_its_meaning() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/old-format/patch-and-test-two-step-replay.json"
    );
    let source: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let old = |n: &str| source["narration"][n]["en"].as_str().unwrap().to_string();
    let loaded = load::examine(file).unwrap_or_else(|faults| panic!("{}", faults[0]));
    assert!(!loaded.has_errors(), "{:?}", loaded.faults);
    let warnings: Vec<String> = loaded.faults.iter().map(|f| f.to_string()).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("at narration: warning: step numbers read as before 2026-11-30"),
        "{}",
        warnings[0]
    );
    let t = loaded.trace(Lang::En);
    let replay = t
        .steps
        .iter()
        .position(|s| matches!(s.kind, StepKind::Replays { .. }))
        .expect("the run replays call_3");
    // Old 15 (the host executes call_3) and 16 (its result) are one step.
    assert_eq!(replay, 14, "step 15");
    assert_eq!(
        t.steps[replay].narration.as_deref(),
        Some(format!("{} {}", old("15"), old("16")).as_str())
    );
    assert_eq!(t.steps[13].narration.as_deref(), Some(old("14").as_str()));
    // Old 17 (model call #4) is step 16 now, and so on to the end.
    assert!(matches!(
        t.steps[15].kind,
        StepKind::ModelCall { number: 4 }
    ));
    assert_eq!(t.steps[15].narration.as_deref(), Some(old("17").as_str()));
    assert_eq!(t.len(), 22);
    assert_eq!(t.steps[21].narration.as_deref(), Some(old("23").as_str()));
}

/// A user's edit passes the host's checks as the model's arguments do: an
/// edit to a path outside the workspace, or a word for an integer, is
/// refused before anything runs, as a Validates step after the user's.
#[test]
fn the_host_checks_the_users_edit_again() {
    let run = |json: serde_json::Value| {
        let bytes = serde_json::to_vec(&json).unwrap();
        match load::prepare_all("<edit>", &bytes) {
            Ok(loaded) => loaded.trace(Lang::En).clone(),
            Err(faults) => panic!("{faults:?}"),
        }
    };
    let find_tool = |json: &mut serde_json::Value, name: &str| -> usize {
        json["tools"]
            .as_array()
            .unwrap()
            .iter()
            .position(|t| t["name"] == name)
            .unwrap()
    };
    // The path: the user "fixes" patch_file's path to ../etc/passwd.
    let mut json = common::shipped_json("approve-side-effects");
    let i = find_tool(&mut json, "patch_file");
    json["tools"][i]["approvals"][0]["edit"] = serde_json::json!({ "path": "../etc/passwd" });
    let t = run(json);
    let call = t.calls.iter().find(|c| c.tool == "patch_file").unwrap();
    let decided = call.decision.as_ref().unwrap().0;
    let (checked, verdict) = call.verdict.clone().unwrap();
    assert_eq!(checked, decided + 1, "the host checks right after the user");
    assert!(
        matches!(&verdict, Verdict::Refused(agent_loop_sim::trace::Refusal::OutsideWorkspace(p)) if p == "../etc/passwd"),
        "{verdict:?}"
    );
    assert!(matches!(t.steps[checked].kind, StepKind::Validates { .. }));
    assert_eq!(call.started, None, "nothing ran");
    assert_eq!(call.outcome(), Some(Outcome::Refused));
    assert!(t.files.iter().all(|f| !f.contains("passwd")));
    // The refusal the model reads says the user changed the arguments:
    // the model never wrote ../etc/passwd (issue 35 item 15).
    let result = &call.result.as_ref().unwrap().text;
    assert!(
        result.contains("the user changed the arguments to: {\"path\": \"../etc/passwd\"}"),
        "{result}"
    );
    assert!(result.contains("nothing ran"), "{result}");

    // The type: max_results edited to "high" on a schema that says integer.
    let mut json = common::shipped_json("malformed-arguments");
    json["tools"][0]["policy"] = "ask".into();
    json["tools"][0]["approvals"] =
        serde_json::json!([{ "decision": "edit", "edit": { "max_results": "high" } }]);
    let t = run(json);
    for call in &t.calls {
        // Every call the user edited is refused: none runs.
        if call.decision.is_some() {
            assert!(
                matches!(call.verdict, Some((_, Verdict::Refused(_)))),
                "{:?}",
                call.verdict
            );
            assert_eq!(call.started, None);
        }
    }
    // And a number for the integer passes the check: the edit runs.
    let mut json = common::shipped_json("malformed-arguments");
    json["tools"][0]["policy"] = "ask".into();
    json["tools"][0]["approvals"] =
        serde_json::json!([{ "decision": "edit", "edit": { "max_results": "3" } }]);
    let t = run(json);
    assert!(
        t.calls
            .iter()
            .any(|c| c.decision.is_some() && c.started.is_some())
    );
}

/// The data an injection asks for is read (the path rule lets a file in
/// the workspace through); the send to the network waits for the user, who
/// denies it: the tool never runs and nothing leaves.
#[test]
fn a_network_tool_that_asks_first_keeps_the_secret_in() {
    let t = trace("exfiltration-needs-approval");
    let read = t
        .calls
        .iter()
        .find(|c| c.args.iter().any(|(_, v)| v == ".env"))
        .unwrap();
    assert!(read.started.is_some(), "the read inside the workspace runs");
    let post = t.calls.iter().find(|c| c.tool == "http_post").unwrap();
    assert!(matches!(post.verdict, Some((_, Verdict::AwaitsApproval))));
    assert_eq!(post.outcome(), Some(Outcome::Denied));
    assert_eq!(post.started, None, "nothing is sent");
    assert_eq!(t.end, EndStatus::Completed);
}

/// A reply cut off at the token limit leaves a call half written: the host
/// refuses it (its arguments are not whole JSON), nothing is written until
/// the shorter call, and the host's check passes at the end.
#[test]
fn a_half_written_call_is_refused_and_writes_nothing() {
    let t = trace("reply-cut-off");
    // call_1 and call_2 read NOTES.md and CHANGELOG.md; call_3 is cut.
    let cut = &t.calls[2];
    assert_eq!(cut.tool, "write_file");
    assert!(
        matches!(
            cut.verdict,
            Some((
                _,
                Verdict::Refused(agent_loop_sim::trace::Refusal::InvalidJson(_))
            ))
        ),
        "{:?}",
        cut.verdict
    );
    assert_eq!(cut.started, None);
    let patch = &t.calls[3];
    assert_eq!(patch.tool, "patch_file");
    let first_write = t
        .file_events
        .iter()
        .find(|e| matches!(e.change, FileChange::Written { .. }))
        .unwrap();
    assert!(
        first_write.step >= patch.started.unwrap(),
        "nothing written before call_4 ran"
    );
    assert_eq!(t.end, EndStatus::Completed);
    assert_eq!(t.task, TaskOutcome::Verified);
}

/// A narration key may name a call by its label: it lands where the id
/// key would, and stays on that call when a call is added before it (the
/// ids move, the label does not). A label that names several calls is an
/// error where a key uses it.
#[test]
fn a_label_keys_narration_to_its_call_whatever_its_id() {
    let load =
        |json: &serde_json::Value| load::prepare_all("<label>", &serde_json::to_vec(json).unwrap());
    let mut json = common::shipped_json("read-config-timeout");
    json["model"][0]["calls"][0]["label"] = "config".into();
    let text = serde_json::json!({ "zh": "配置回来了", "en": "the config is back" });
    json["narration"].as_object_mut().unwrap().remove("6");
    json["narration"]["config.result"] = text.clone();
    let loaded = load(&json).unwrap_or_else(|f| panic!("{f:?}"));
    assert!(loaded.faults.is_empty(), "{:?}", loaded.faults);
    let t = loaded.trace(Lang::En);
    assert_eq!(t.steps[5].narration.as_deref(), Some("the config is back"));
    // A call added first: the config read is now call_2, and the label
    // still finds it.
    let mut json2 = json.clone();
    json2["files"]["README.md"] = "see config.txt".into();
    let first = serde_json::json!({
        "when": { "lacks_result": { "tool": "read_file", "args": { "path": "README.md" } } },
        "say": { "zh": "先看 README。", "en": "README first." },
        "calls": [ { "tool": "read_file", "args": { "path": "README.md" } } ]
    });
    json2["model"].as_array_mut().unwrap().insert(0, first);
    json2["narration"] = serde_json::json!({ "config.result": text });
    let loaded = load(&json2).unwrap_or_else(|f| panic!("{f:?}"));
    let t = loaded.trace(Lang::En);
    let config = t
        .calls
        .iter()
        .find(|c| c.label.as_deref() == Some("config"))
        .unwrap();
    assert_eq!(&*config.id.0, "call_2");
    let step = config.finished.unwrap();
    assert_eq!(
        t.steps[step].narration.as_deref(),
        Some("the config is back")
    );
    // A label on a rule that fires twice names two calls: an error.
    // (The read rule holds on every call here: it reads until the budget.)
    let mut json3 = common::shipped_json("read-config-timeout");
    json3["model"][0]["when"] = serde_json::json!({});
    json3["model"][0]["calls"][0]["label"] = "read".into();
    json3["expect"] = "budget_exhausted".into();
    json3["narration"] = serde_json::json!({ "read.result": text });
    let faults = match load(&json3) {
        Ok(l) => l.faults,
        Err(f) => f,
    };
    let shown: Vec<String> = faults.iter().map(|f| f.to_string()).collect();
    assert!(
        shown
            .iter()
            .any(|f| f.contains("the label \"read\" names 4 calls")),
        "{shown:?}"
    );
}

/// A harness that appends neither the model's call nor its result: every
/// request is the first one again, so every provider accepts it, the model
/// asks again each time, and the run ends on the budget. The trace keeps
/// each call (proposed, run, its result) and each response still holds it.
#[test]
fn a_harness_that_drops_calls_sends_the_same_request_until_the_budget_is_spent() {
    use agent_loop_sim::trace::Pairing;
    use agent_loop_sim::wire::{self, Provider};
    for provider in Provider::ALL {
        let loaded = load::load_as("harness-drops-calls", Some(provider)).unwrap();
        assert!(loaded.faults.is_empty(), "{:?}", loaded.faults);
        for lang in Lang::ALL {
            let t = loaded.trace(lang);
            assert_eq!(t.end, EndStatus::BudgetExhausted, "{provider:?}");
            assert_eq!(t.model_calls.len(), 3);
            assert_eq!(t.steps.last().unwrap().counters.tool_runs, 3);
            // The host holds the task alone: no reply, no result.
            assert!(
                t.messages
                    .iter()
                    .all(|m| m.calls.is_empty() && m.call_id.is_none()),
                "{:?}",
                t.messages
            );
            let first = wire::request(t, 0);
            for (i, mc) in t.model_calls.iter().enumerate() {
                assert_eq!(wire::request(t, i), first, "request {} is the first", i + 1);
                assert!(t.rejection(mc).is_none());
                assert_eq!(wire::status(t, i), 200);
                // The provider's response proposed the call the host lost.
                let response = wire::response(t, &loaded.counts, i)
                    .expect("a response")
                    .to_string();
                let id = &t.calls[i].id.0;
                assert!(response.contains(&**id), "{response}");
            }
            for call in &t.calls {
                assert_eq!(call.pairing(), Some(Pairing::CallDropped));
                assert!(call.result.is_some() && call.started.is_some());
                assert_eq!(t.status_at(call, t.len() - 1), Some(CallStatus::NotSent));
            }
        }
    }
}

/// `summary` may be a list, one per compaction: the Nth compaction's
/// message says the Nth. A list shorter than the compactions is an error,
/// a longer one a warning, an empty one refused; one text (as before)
/// stands for every compaction.
#[test]
fn each_compaction_may_have_its_own_summary() {
    use agent_loop_sim::trace::HostInsert;
    let mut json = common::shipped_json("context-compaction-summary");
    // A smaller window: the host compacts twice.
    json["context"]["window"] = 650.into();
    let prepare = |v: &serde_json::Value| match load::prepare_all(
        "summaries.json",
        &serde_json::to_vec(v).unwrap(),
    ) {
        Ok(loaded) => Ok(loaded),
        Err(faults) => Err(faults.iter().map(|f| f.to_string()).collect::<Vec<_>>()),
    };
    let texts: Vec<serde_json::Value> = (1..=3)
        .map(|n| serde_json::json!({ "zh": format!("摘要 {n}"), "en": format!("summary {n}") }))
        .collect();
    let summaries_of = |v: &serde_json::Value| {
        let loaded = prepare(v).unwrap();
        let faults: Vec<String> = loaded.faults.iter().map(|f| f.to_string()).collect();
        let said = Lang::ALL.map(|lang| {
            let t = loaded.trace(lang);
            assert_eq!(t.compactions.len(), 2, "{lang:?}");
            t.messages
                .iter()
                .filter(|m| m.host_insert == Some(HostInsert::Summary) && m.carried.is_none())
                .map(|m| m.text.to_string())
                .collect::<Vec<String>>()
        });
        (said, faults)
    };
    let mut each = json.clone();
    each["context"]["summary"] = texts[..2].to_vec().into();
    let (said, faults) = summaries_of(&each);
    assert!(faults.is_empty(), "{faults:?}");
    for lang in Lang::ALL {
        let said = &said[lang.index()];
        assert_eq!(said.len(), 2);
        for (n, text) in said.iter().enumerate() {
            let written = texts[n][lang.code()].as_str().unwrap();
            assert!(
                text.ends_with(written),
                "{lang:?} compaction {}: {text}",
                n + 1
            );
        }
    }
    // One text for both, as before.
    let mut one = json.clone();
    one["context"]["summary"] = texts[0].clone();
    let (said, faults) = summaries_of(&one);
    assert!(faults.is_empty(), "{faults:?}");
    assert!(
        said[Lang::En.index()]
            .iter()
            .all(|t| t.ends_with("summary 1"))
    );
    // Too few: an error, and the later compaction reuses the last.
    let mut short = json.clone();
    short["context"]["summary"] = texts[..1].to_vec().into();
    let (said, faults) = summaries_of(&short);
    assert!(
        faults[0].contains("at context.summary: the host compacts 2 times in the run but the list has 1 summary (the later ones reuse the last)"),
        "{faults:?}"
    );
    assert!(
        said[Lang::En.index()]
            .iter()
            .all(|t| t.ends_with("summary 1"))
    );
    // Too many: a warning.
    let mut long = json.clone();
    long["context"]["summary"] = texts.clone().into();
    let (_, faults) = summaries_of(&long);
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert!(
        faults[0].contains("at context.summary: warning: the host compacts 2 times"),
        "{faults:?}"
    );
    let mut empty = json.clone();
    empty["context"]["summary"] = serde_json::json!([]);
    let err = prepare(&empty).map(|_| ()).unwrap_err();
    assert!(
        err[0].contains("at context.summary: expected at least one summary"),
        "{err:?}"
    );
}
