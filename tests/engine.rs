//! Engine invariants, on every shipped scenario and in both languages.

use agent_loop_sim::load::{self, CATALOG};
use agent_loop_sim::scenario::{EndStatus, Lang};
use agent_loop_sim::trace::{
    CallStatus, FileChange, Lane, Message, Outcome, Role, StepKind, Trace,
};

fn shipped() -> Vec<Trace> {
    CATALOG
        .iter()
        .flat_map(|(name, _)| {
            let loaded = load::load(name).expect("shipped scenario loads");
            Lang::ALL.map(|lang| loaded.trace(lang).clone())
        })
        .collect()
}

#[test]
fn default_scenario_runs_the_eight_steps_of_the_design() {
    let loaded = load::load("read-config-timeout").unwrap();
    for lang in Lang::ALL {
        let t = loaded.trace(lang);
        let kinds: Vec<&str> = t
            .steps
            .iter()
            .map(|s| match &s.kind {
                StepKind::TaskArrives => "task",
                StepKind::UserTurn => "user-turn",
                StepKind::ModelCall { .. } => "model-call",
                StepKind::Proposes { .. } => "proposes",
                StepKind::Validates { .. } => "validates",
                StepKind::Executes { .. } => "executes",
                StepKind::ResultArrives { .. } => "result",
                StepKind::Answers { .. } => "answers",
                _ => "other",
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "task",
                "model-call",
                "proposes",
                "validates",
                "executes",
                "result",
                "model-call",
                "answers"
            ]
        );
        let lanes: Vec<(Option<Lane>, Lane)> = t.steps.iter().map(|s| (s.from, s.to)).collect();
        assert_eq!(
            lanes,
            [
                (None, Lane::Host),
                (Some(Lane::Host), Lane::Model),
                (Some(Lane::Model), Lane::Host),
                (Some(Lane::Host), Lane::Host),
                (Some(Lane::Host), Lane::Tool),
                (Some(Lane::Tool), Lane::Host),
                (Some(Lane::Host), Lane::Model),
                (Some(Lane::Model), Lane::Host),
            ]
        );
        assert_eq!(t.end, EndStatus::Completed);
        assert_eq!(t.steps[7].end, Some(EndStatus::Completed));
        // call_1 is only a proposal at step 3, runs at 5, is done at 6.
        let call = &t.calls[0];
        assert_eq!(&*call.id.0, "call_1");
        assert_eq!(call.status_at(2), Some(CallStatus::Proposed));
        assert_eq!(call.status_at(3), Some(CallStatus::Approved));
        assert_eq!(call.status_at(4), Some(CallStatus::Running));
        assert_eq!(call.status_at(5), Some(CallStatus::Done));
        assert_eq!(&*call.result.as_ref().unwrap().text, "timeout=30");
        // config.txt is untouched until the result comes back.
        assert_eq!(t.file_state_at("config.txt", 4), None);
        assert!(t.file_state_at("config.txt", 5).is_some());
        // Model call #2 is sent task, assistant call_1, tool result for call_1.
        let second = &t.model_calls[1];
        let roles: Vec<Role> = t.context(second).iter().map(|m| m.role).collect();
        assert_eq!(roles, [Role::User, Role::Assistant, Role::Tool]);
        assert_eq!(&*t.context(second)[2].call_id.as_ref().unwrap().0, "call_1");
        assert_eq!(t.steps[7].counters.model_calls, 2);
        assert_eq!(t.steps[7].counters.tool_runs, 1);
        assert_eq!(t.steps[7].counters.writes, 0);
    }
}

#[test]
fn the_context_at_each_model_call_is_exactly_the_messages_appended_before_it() {
    for t in shipped() {
        for mc in &t.model_calls {
            // What the host holds: since its latest compaction, if any.
            let from = t.held_from(mc.step);
            let before: Vec<_> = t
                .messages
                .slice(from..)
                .iter()
                .filter(|m| m.step < mc.step)
                .collect();
            let sent: Vec<_> = t.context(mc).iter().collect();
            assert_eq!(sent, before, "{} call #{}", t.scenario, mc.number);
            let size: usize = sent.iter().map(|m| m.size).sum::<usize>();
            assert!(mc.context_size >= size, "size counts every message");
        }
        // Contexts only grow: each one is a prefix of the next, unless the
        // host compacted in between (then the next starts at its copy).
        let model_calls: Vec<_> = t.model_calls.iter().collect();
        for pair in model_calls.windows(2) {
            assert!(pair[0].context_len <= pair[1].context_len);
            let compacted = t
                .compactions
                .iter()
                .any(|c| c.step > pair[0].step && c.step < pair[1].step);
            assert_eq!(pair[0].context_start == pair[1].context_start, !compacted);
        }
    }
}

#[test]
fn every_tool_result_pairs_with_exactly_one_earlier_call() {
    for t in shipped() {
        // In the host's own log, and in every context sent (after a
        // compaction, too: a placeholder keeps its call's id, a summary
        // removes calls and results together).
        let originals: Vec<&Message> = t
            .messages
            .iter()
            .filter(|m| m.carried.is_none() && m.host_insert.is_none())
            .collect();
        let contexts = t
            .model_calls
            .iter()
            .map(|mc| t.context(mc).iter().collect::<Vec<_>>());
        for list in std::iter::once(originals).chain(contexts) {
            for (i, m) in list.iter().enumerate() {
                if m.role != Role::Tool {
                    continue;
                }
                let id = m.call_id.as_ref().expect("a tool result carries a call id");
                // The harness that files a result under the fc_ item id:
                // an id no call has, which the provider refuses.
                if t.calls.iter().all(|c| &c.id != id) {
                    assert_eq!(t.end, agent_loop_sim::scenario::EndStatus::Rejected);
                    continue;
                }
                let asked: Vec<_> = list[..i]
                    .iter()
                    .filter(|a| a.role == Role::Assistant && a.calls.contains(id))
                    .collect();
                assert_eq!(
                    asked.len(),
                    1,
                    "{}: {id} asked exactly once before",
                    t.scenario
                );
                let answered = list.iter().filter(|r| r.call_id.as_ref() == Some(id));
                assert_eq!(answered.count(), 1, "{}: {id} answered once", t.scenario);
            }
        }
    }
}

#[test]
fn two_runs_give_identical_traces() {
    assert_eq!(shipped(), shipped());
}

/// The same operation id for a different action is answered by the host
/// with an error, and nothing runs or is written (as in the notes' loop:
/// 同一幂等ID不能指向不同动作).
#[test]
fn an_operation_id_reused_for_another_action_is_an_error_from_the_host() {
    let mut s: serde_json::Value =
        serde_json::from_str(include_str!("../scenarios/patch-and-test.json")).unwrap();
    // The resent patch now writes something else under the same id.
    s["model"][2]["calls"][0]["args"]["replace"] = "[net]\nretries = 5\n".into();
    s["narration"] = serde_json::json!({});
    s["model"][1]["when"] =
        serde_json::json!({ "has_result": { "tool": "patch_file", "ok": false } });
    let loaded =
        load::prepare("<test>", s.to_string().as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let t = loaded.trace(Lang::En);
    let second = &t.calls[2];
    assert_eq!(second.outcome(), Some(Outcome::OpConflict));
    assert_eq!(second.started, None, "nothing runs");
    let result = second.result.as_ref().unwrap();
    assert!(
        result.is_error && result.text.contains("add-retries-1"),
        "{}",
        result.text
    );
    assert!(
        t.steps
            .iter()
            .any(|s| matches!(&s.kind, StepKind::Replays { conflict: true, .. }))
    );
    let writes = t
        .file_events
        .iter()
        .filter(|e| matches!(e.change, FileChange::Written { .. }))
        .count();
    assert_eq!(writes, 1);
}

/// A lesson runs once and is told in the other language: the en trace told
/// from the zh run is the trace an en run of its own records, field for
/// field (texts, sizes, tokens, places, narration by number), wherever the
/// two languages decide alike; and every shipped lesson does. Also for
/// long runs the host compacts, by summary and by placeholders.
#[test]
fn the_run_told_in_en_is_the_run_made_in_en() {
    use agent_loop_sim::{engine, i18n};
    let mut lessons: Vec<(String, String)> = CATALOG
        .iter()
        .map(|(name, source)| (name.to_string(), source.to_string()))
        .collect();
    let base: serde_json::Value = serde_json::from_str(
        CATALOG
            .iter()
            .find(|(n, _)| *n == "read-config-timeout")
            .unwrap()
            .1,
    )
    .unwrap();
    // Windows both languages cross at the same calls and compact alike (at
    // 1,400 tokens dropping removes two results in zh, one in en: `Differs`).
    let summary = serde_json::json!({ "zh": "此前读过配置：timeout=30。", "en": "The config was read before: timeout=30." });
    for (window, policy) in [(1000, "summarize"), (1600, "drop_oldest_results")] {
        let mut long = base.clone();
        long["budget"] = 15.into();
        long["expect"] = "budget_exhausted".into();
        long["context"] =
            serde_json::json!({ "window": window, "policy": policy, "summary": summary });
        // The model reads a long config again and again, so the host
        // compacts, and its placeholders and summaries read differently in
        // each language.
        long["files"]["config.txt"] =
            format!("timeout=30\n{}", "# a comment line\n".repeat(40)).into();
        long["model"] = serde_json::json!([{
            "say": { "zh": "再读一遍配置。", "en": "Reading the config again." },
            "calls": [{ "tool": "read_file", "args": { "path": "config.txt" } }]
        }]);
        lessons.push((format!("long-{policy}"), long.to_string()));
    }
    for (name, source) in &lessons {
        let scenario = load::parse(name, source.as_bytes()).unwrap();
        let told = engine::run_once(&scenario, i18n::said).unwrap();
        assert_eq!(told.differs, [], "{name}");
        assert_eq!(told.rules_differ, None, "{name}");
        for lang in Lang::ALL {
            let own = engine::run(&scenario, lang, i18n::said).unwrap();
            assert_eq!(told.traces[lang.index()], own, "{name} in {lang:?}");
        }
        if name.starts_with("long-") {
            assert!(told.traces[0].compactions.len() > 1, "{name} compacts");
        }
    }
    let unlike = |policy: &str, window: usize| {
        let (_, source) = lessons
            .iter()
            .find(|(n, _)| *n == format!("long-{policy}"))
            .unwrap();
        let mut lesson: serde_json::Value = serde_json::from_str(source).unwrap();
        lesson["context"]["window"] = window.into();
        let scenario = load::parse("<lesson>", lesson.to_string().as_bytes()).unwrap();
        let told = engine::run_once(&scenario, i18n::said).unwrap();
        told.differs.first().map(|d| d.how)
    };
    assert!(matches!(
        unlike("drop_oldest_results", 1400),
        Some(engine::How::OtherPlan { removed: [2, 1] })
    ));
}

#[path = "../benches/support/many_rules.rs"]
mod many_rules;

/// The run told in en holds once, with the zh run, every list its words do
/// not change (`trace::Shared`): in a lesson whose texts read alike in both
/// languages (the many-rules lesson of `benches/load.rs`, shortened), the
/// steps, messages, calls and file events; in every shipped lesson the file
/// events, while the messages, whose words differ, are each language's own.
#[test]
fn the_run_told_in_en_shares_what_its_words_do_not_change() {
    use agent_loop_sim::{engine, i18n};
    let mut lesson: serde_json::Value = serde_json::from_str(&many_rules::json(10)).unwrap();
    lesson["budget"] = 20.into();
    let scenario = load::parse("<many-rules>", lesson.to_string().as_bytes()).unwrap();
    let told = engine::run_once(&scenario, i18n::said).unwrap();
    let [zh, en] = &told.traces;
    assert_eq!(zh.model_calls.len(), 20);
    assert!(en.steps.is_shared_with(&zh.steps));
    assert!(en.messages.is_shared_with(&zh.messages));
    assert!(en.calls.is_shared_with(&zh.calls));
    assert!(en.file_events.is_shared_with(&zh.file_events));
    for (name, _) in CATALOG {
        let loaded = load::load(name).unwrap();
        let [zh, en] = &loaded.traces;
        assert!(en.file_events.is_shared_with(&zh.file_events), "{name}");
        assert!(!en.messages.is_shared_with(&zh.messages), "{name}");
        assert_ne!(zh.messages[0].text, en.messages[0].text, "{name}");
    }
}
