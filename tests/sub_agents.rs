//! A Claude Code session's sub-agents in the simulator: the step of the
//! Task call that started one says so and `d` opens the sub-agent's own
//! run; there, its first step and the footer name the call, and `u` goes
//! back to the step it came from (or, reached otherwise, the step that
//! ran the call). Without the sub-agent's file, nothing links.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use agent_loop_sim::app::{self, Action, App};
use agent_loop_sim::frames;
use agent_loop_sim::live::Live;
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::theme::Theme;
use agent_loop_sim::trace::StepKind;
use common::snapshot_settings;
use serde_json::{Value, json};

const SESSION: &str = "tests/transcripts/cases/claude-code-with-subagent.jsonl";

/// The session opened as the simulator opens it: its sub-agents' files
/// found beside it, each a conversation (`opening::prepare`).
fn opened(path: &str, lang: Lang) -> App {
    let (loaded, others, _) =
        agent_loop_sim::transcript::open_all(path, None, false, None).unwrap();
    let mut a = App::new(loaded, lang, Theme::DARK);
    if !others.is_empty() {
        let mut conversations = vec![a.loaded.clone()];
        conversations.extend(others.into_iter().map(Arc::new));
        a.live = Some(Live::recorded(conversations));
    }
    a
}

/// The session and its sub-agent's file, each opened alone (no token
/// counting on a thread of its own, so each frame is the same every time).
fn opened_still(lang: Lang) -> App {
    let open = |path: &str| agent_loop_sim::transcript::open(path, None).unwrap().loaded;
    let main = open(SESSION);
    let sub =
        open("tests/transcripts/cases/claude-code-with-subagent/subagents/agent-a1b2c3d.jsonl");
    let mut a = App::new(main, lang, Theme::DARK);
    a.live = Some(Live::recorded(vec![a.loaded.clone(), Arc::new(sub)]));
    a
}

fn screen(a: &App, w: u16, h: u16) -> String {
    frames::to_text(&frames::render(a, w, h))
}

fn current(a: &App) -> usize {
    a.live.as_ref().map_or(0, |l| l.current)
}

/// The first step of kind `kind` naming call `call`.
fn step_of(a: &App, call: &str, executes: bool) -> usize {
    a.trace()
        .steps
        .iter()
        .position(|s| {
            matches!(
                (&s.kind, executes),
                (StepKind::Executes { .. }, true) | (StepKind::ResultArrives { .. }, false)
            ) && s.kind.call_ids().iter().any(|id| &*id.0 == call)
        })
        .unwrap()
}

#[test]
fn the_task_calls_step_opens_its_sub_agent_and_u_comes_back_to_that_step() {
    for (lang, w, h, name) in [
        (Lang::En, 120, 40, "en_120x40"),
        (Lang::Zh, 80, 24, "zh_80x24"),
    ] {
        let mut a = opened_still(lang);
        let runs = step_of(&a, "toolu_task", true);
        app::update(&mut a, Action::GoTo(runs));
        let parent = screen(&a, w, h);
        if lang == Lang::En {
            assert!(
                parent.contains("Call toolu_task started sub-agent")
                    && parent.contains("agent-a1b2c3d, which ran in a loop of its")
                    && parent.contains("conversation 2/2. d opens it; u there"),
                "{parent}"
            );
        }
        let look = frames::to_styled_text(&frames::render(&a, w, h));
        snapshot_settings()
            .bind(|| insta::assert_snapshot!(format!("sub_agent_call_{name}"), look));

        app::update(&mut a, Action::IntoSubAgent);
        assert_eq!(current(&a), 1);
        assert_eq!(a.step, 0, "a sub-agent never shown opens at its first step");
        assert!(a.trace().title.starts_with("agent-a1b2c3d.jsonl"));
        let sub = screen(&a, w, h);
        if lang == Lang::En {
            assert!(
                sub.contains("This is sub-agent agent-a1b2c3d's own loop,")
                    && sub.contains("u goes back to that call's step.")
                    && sub.contains("sub-agent agent-a1b2c3d of call toolu_task (u goes back)"),
                "{sub}"
            );
        }
        let look = frames::to_styled_text(&frames::render(&a, w, h));
        snapshot_settings()
            .bind(|| insta::assert_snapshot!(format!("sub_agent_own_loop_{name}"), look));

        // Anywhere in the sub-agent's run, u goes back to the step left.
        app::update(&mut a, Action::Last);
        app::update(&mut a, Action::OutOfSubAgent);
        assert_eq!((current(&a), a.step), (0, runs));
    }
}

#[test]
fn u_goes_back_to_the_step_d_left_and_reached_by_s_to_the_step_that_ran_the_call() {
    let mut a = opened(SESSION, Lang::En);
    // From the result's step: back to the result's step.
    let result = step_of(&a, "toolu_task", false);
    app::update(&mut a, Action::GoTo(result));
    app::update(&mut a, Action::IntoSubAgent);
    assert_eq!(current(&a), 1);
    app::update(&mut a, Action::OutOfSubAgent);
    assert_eq!((current(&a), a.step), (0, result));
    // Reached by `s` from the first step: to the step that ran the call.
    app::update(&mut a, Action::First);
    app::update(&mut a, Action::SwitchConversation);
    assert_eq!(current(&a), 1);
    app::update(&mut a, Action::OutOfSubAgent);
    assert_eq!((current(&a), a.step), (0, step_of(&a, "toolu_task", true)));
}

#[test]
fn steps_that_name_no_such_call_offer_no_link_and_d_and_u_do_nothing() {
    let mut a = opened(SESSION, Lang::En);
    for step in [0, 1] {
        app::update(&mut a, Action::GoTo(step));
        app::update(&mut a, Action::IntoSubAgent);
        assert_eq!((current(&a), a.step), (0, step));
        assert!(!screen(&a, 120, 40).contains("started sub-agent"));
    }
    // The main session is no sub-agent's run: u stays.
    app::update(&mut a, Action::OutOfSubAgent);
    assert_eq!((current(&a), a.step), (0, 1));
    // In the sub-agent's run, only its first step names the call.
    app::update(&mut a, Action::SwitchConversation);
    app::update(&mut a, Action::GoTo(1));
    assert!(!screen(&a, 120, 40).contains("own loop"));
}

#[test]
fn without_the_sub_agents_file_the_call_claims_no_conversation() {
    let dir = temp("alone");
    let path = dir.join("0b7c1e2a-5d4f-4c61-9a0e-2f3b4c5d6e7f.jsonl");
    std::fs::copy(SESSION, &path).unwrap();
    let mut a = opened(path.to_str().unwrap(), Lang::En);
    assert!(a.live.is_none());
    let runs = step_of(&a, "toolu_task", true);
    app::update(&mut a, Action::GoTo(runs));
    app::update(&mut a, Action::IntoSubAgent);
    assert_eq!(a.step, runs);
    assert!(!screen(&a, 120, 40).contains("started sub-agent"));
    std::fs::remove_dir_all(dir).unwrap();
}

/// Two Task calls in one reply, each result naming its own agent: each
/// result's step leads to its own sub-agent, and back to itself.
#[test]
fn parallel_task_calls_each_lead_to_their_own_sub_agent() {
    let dir = temp("parallel");
    let session = "5e551011-0000-4000-8000-000000000001";
    let path = dir.join(format!("{session}.jsonl"));
    write_parallel_session(&dir, session, &path);
    let mut a = opened(path.to_str().unwrap(), Lang::En);
    assert_eq!(a.live.as_ref().unwrap().conversations.len(), 3);
    for (call, agent) in [("toolu_a", "aaaa111"), ("toolu_b", "bbbb222")] {
        let result = step_of(&a, call, false);
        app::update(&mut a, Action::GoTo(result));
        assert!(
            screen(&a, 120, 40).contains(&format!("Call {call} started sub-agent")),
            "{}",
            screen(&a, 120, 40)
        );
        app::update(&mut a, Action::IntoSubAgent);
        assert!(
            a.trace().title.starts_with(&format!("agent-{agent}.jsonl")),
            "{}",
            a.trace().title
        );
        app::update(&mut a, Action::OutOfSubAgent);
        assert_eq!((current(&a), a.step), (0, result));
    }
    std::fs::remove_dir_all(dir).unwrap();
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("als-sub-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A session whose one reply makes two Task calls, and the two
/// sub-agents' files in `<session>/subagents/`, in Claude Code 2.1's
/// shape (as `claude-code-with-subagent.jsonl`).
fn write_parallel_session(dir: &Path, session: &str, path: &Path) {
    let line = |uuid: &str, parent: Option<&str>, side: bool, message: Value| {
        json!({"parentUuid": parent, "isSidechain": side, "sessionId": session,
               "version": "2.1.30", "type": message["role"], "uuid": uuid, "message": message})
    };
    let task = |id: &str, what: &str| {
        json!({"type": "tool_use", "id": id, "name": "Task",
               "input": {"description": what, "prompt": what, "subagent_type": "general-purpose"}})
    };
    let reply = |id: &str, content: Value| json!({"id": id, "type": "message", "role": "assistant", "model": "m", "content": content});
    let result = |id: &str, text: &str| json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": text}]});
    let mut ra = line("r1", Some("a1"), false, result("toolu_a", "3"));
    ra["toolUseResult"] = json!({"status": "completed", "agentId": "aaaa111"});
    let mut rb = line("r2", Some("r1"), false, result("toolu_b", "5"));
    rb["toolUseResult"] = json!({"status": "completed", "agentId": "bbbb222"});
    let main = [
        line(
            "u1",
            None,
            false,
            json!({"role": "user", "content": "Count a.txt and b.txt."}),
        ),
        line(
            "a1",
            Some("u1"),
            false,
            reply(
                "msg_1",
                json!([
                    task("toolu_a", "Count a.txt"),
                    task("toolu_b", "Count b.txt")
                ]),
            ),
        ),
        ra,
        rb,
        line(
            "a2",
            Some("r2"),
            false,
            reply("msg_2", json!([{"type": "text", "text": "3 and 5."}])),
        ),
    ];
    write_lines(path, &main);
    let subs = dir.join(session).join("subagents");
    std::fs::create_dir_all(&subs).unwrap();
    for (agent, file, n) in [("aaaa111", "a.txt", "3"), ("bbbb222", "b.txt", "5")] {
        let mut lines = [
            line(
                "s1",
                None,
                true,
                json!({"role": "user", "content": format!("Count {file}")}),
            ),
            line(
                "s2",
                Some("s1"),
                true,
                reply(
                    &format!("msg_{agent}"),
                    json!([{"type": "text", "text": n}]),
                ),
            ),
        ];
        for l in &mut lines {
            l["agentId"] = json!(agent);
        }
        write_lines(&subs.join(format!("agent-{agent}.jsonl")), &lines);
    }
}

fn write_lines(path: &Path, lines: &[Value]) {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(path, text).unwrap();
}
