//! The transcript readers (issue 33 item 2, issue 34 items 1–6 and 9): one
//! interface every format is read through, an 11th format added as one
//! file, and the files of today's agents read whole. Each case is a file of
//! the shape the agent writes (tests/transcripts/cases/make_readers.py, its
//! sources in cases/README.md, or a real file named in real/manifest.json);
//! its counts are also checked against recount.py by transcripts.rs.

mod common;

use common::summary_counts as counts;

use agent_loop_sim::scenario::Lang;
use agent_loop_sim::trace::{Role, StepKind, Trace};
use agent_loop_sim::transcript::{self, Format};
use clap::ValueEnum as _;
use serde_json::Value;

fn path(name: &str) -> String {
    format!("{}/tests/transcripts/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The summary `trace --transcript` prints (with no format forced), and
/// the trace as the library reads it.
fn read(name: &str) -> (Value, transcript::Opened) {
    let file = path(name);
    let out = common::run(&["trace", "--transcript", &file, "--lang", "en"]);
    assert_eq!(out.code, 0, "{name}: {}", out.stderr);
    let summary = serde_json::from_str::<Value>(&out.stdout).unwrap()["summary"].clone();
    (summary, transcript::open(&file, None).unwrap())
}

fn trace(opened: &transcript::Opened) -> &Trace {
    opened.loaded.trace(Lang::En)
}

/// How many times the user writes again after the task.
fn user_turns(trace: &Trace) -> usize {
    (trace.steps.iter())
        .filter(|s| matches!(s.kind, StepKind::UserTurn))
        .count()
}

fn conditions(opened: &transcript::Opened) -> Vec<String> {
    opened
        .loaded
        .card
        .conditions
        .iter()
        .map(|c| c.get(Lang::En).to_string())
        .collect()
}

#[test]
fn an_eleventh_format_is_one_file_and_one_line_in_the_list() {
    // OpenHands: src/transcript/openhands.rs and its line in READERS.
    let openhands = Format::named("openhands").expect("a format named openhands");
    assert!(Format::ALL.contains(&openhands));
    assert_eq!(Format::ALL.len(), 11);
    let value = openhands.to_possible_value().unwrap();
    assert_eq!(value.get_name(), "openhands");
    assert_eq!(transcript::format_name(openhands), "OpenHands event stream");
    // Detected from the content, and read: two real event streams.
    let (summary, opened) = read("real/openhands-wrong-initial-state.json");
    assert_eq!(opened.format, openhands);
    // read, run, read answered; the finish call ends the run unanswered.
    assert_eq!(counts(&summary), [4, 4, 3, 0, 0, 1, 0], "{summary}");
    let (summary, opened) = read("real/openhands-basic-gui-mode.json");
    assert_eq!(opened.format, openhands);
    assert_eq!(counts(&summary), [5, 4, 4, 0, 0, 0, 0], "{summary}");
    // The runtime's own events are listed, not drawn.
    let unread: Vec<&str> = trace(&opened)
        .recorded
        .as_ref()
        .unwrap()
        .unread
        .iter()
        .map(|(k, _)| k.as_str())
        .collect();
    assert!(
        unread.contains(&"observation \"agent_state_changed\""),
        "{unread:?}"
    );
    // The command line takes it too.
    let out = common::run(&[
        "trace",
        "--transcript",
        &path("real/openhands-basic-gui-mode.json"),
        "--transcript-format",
        "openhands",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

/// OpenHands' older flat serialisation (the resolver's output in 2024): no
/// `source`, `id`, `args`/`extras` or `tool_call_metadata`. Detected and
/// read as the CodeAct agent sent it without function calling: the first
/// `message` action the task, each other action a reply, its call named by
/// the action and answered by the next observation of that name.
#[test]
fn openhands_older_flat_event_streams_are_read_their_results_by_position() {
    let openhands = Format::named("openhands").unwrap();
    for (name, expected) in [
        // touch LICENSE, the license written in IPython, cat LICENSE; finish.
        ("real/openhands-flat-resolver-1.json", [4, 3, 3, 0, 0, 0, 0]),
        // One run and 20 run_ipython, each answered; finish.
        (
            "real/openhands-flat-resolver-2.json",
            [22, 21, 21, 0, 0, 0, 0],
        ),
    ] {
        let (summary, opened) = read(name);
        assert_eq!(opened.format, openhands, "{name}");
        assert_eq!(counts(&summary), expected, "{name}: {summary}");
        // The ids are ours, named by the action's place, and said to be.
        assert!(
            (opened.warnings.iter()).any(|w| w.contains("history[N], the action's place")),
            "{name}: {:?}",
            opened.warnings
        );
    }
    // Each call named by its action, its command or code the arguments.
    let (_, opened) = read("real/openhands-flat-resolver-1.json");
    let calls: Vec<String> = (trace(&opened).calls.iter())
        .map(|c| format!("{} {} {:?}", c.id, c.tool, c.args.first()))
        .collect();
    assert_eq!(calls.len(), 3);
    assert_eq!(
        calls[0],
        r#"history[1] run Some(("command", "touch LICENSE"))"#
    );
    assert!(calls[1].starts_with(r#"history[3] run_ipython Some(("code", "mit_license"#));
    assert_eq!(
        calls[2],
        r#"history[5] run Some(("command", "cat LICENSE"))"#
    );
}

#[test]
fn claude_code_parallel_results_that_arrive_out_of_order_are_all_read() {
    // Three Reads of one reply; their results each parent their own call
    // and arrive C, A, B: the chain from the last line holds only A and B's
    // calls and B's result.
    let (summary, opened) = read("cases/claude-code-parallel-out-of-order.jsonl");
    assert_eq!(counts(&summary), [2, 3, 3, 0, 1, 0, 0], "{summary}");
    let trace = trace(&opened);
    let proposes: Vec<usize> = trace
        .steps
        .iter()
        .filter_map(|s| match &s.kind {
            StepKind::Proposes { calls, .. } => Some(calls.len()),
            _ => None,
        })
        .collect();
    assert_eq!(proposes, [3]);
    // Nothing is blamed on side chains or a retry.
    assert!(
        !conditions(&opened).iter().any(|c| c.contains("side chain")),
        "{:?}",
        conditions(&opened)
    );
}

#[test]
fn every_api_request_a_claude_code_session_records_is_drawn() {
    // The second request names the reply (three lines) and the results
    // (two lines) as the API is sent them: one message each, by hash.
    let (summary, opened) = read("cases/claude-code-requests-merged.jsonl");
    assert_eq!(counts(&summary), [2, 2, 2, 0, 1, 0, 0], "{summary}");
    let trace = trace(&opened);
    let bodies: Vec<bool> = trace.model_calls.iter().map(|m| m.body.is_some()).collect();
    assert_eq!(bodies, [true, true]);
    let second: Value =
        serde_json::from_str(&trace.model_calls[1].body.as_ref().unwrap().request).unwrap();
    let messages = second["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3);
    assert_eq!(messages[1]["content"].as_array().unwrap().len(), 3);
    assert_eq!(messages[2]["content"].as_array().unwrap().len(), 2);
    let said = trace.steps[trace.model_calls[1].step]
        .narration
        .clone()
        .unwrap();
    assert!(
        said.contains("at line 10 (api-request): 3 messages"),
        "{said}"
    );
}

#[test]
fn claude_code_harness_text_is_context_not_the_users_words() {
    let (_, opened) = read("cases/claude-code-harness-text.jsonl");
    let trace = trace(&opened);
    let users: Vec<&StepKind> = trace
        .steps
        .iter()
        .map(|s| &s.kind)
        .filter(|k| matches!(k, StepKind::TaskArrives | StepKind::UserTurn))
        .collect();
    assert_eq!(users, [&StepKind::TaskArrives], "one task, no second turn");
    let texts: Vec<&str> = trace
        .messages
        .iter()
        .filter(|m| m.role == Role::User)
        .map(|m| &*m.text)
        .collect();
    // In the context as sent, the harness's first; the task is the user's
    // own words alone.
    assert_eq!(texts.len(), 3, "{texts:?}");
    assert!(texts[0].starts_with("Environment:"), "{texts:?}");
    assert!(texts[1].starts_with("<system-reminder>"), "{texts:?}");
    assert_eq!(texts[2], "Say hello.");
}

#[test]
fn a_claude_code_reply_that_streams_while_its_calls_run_is_one_reply() {
    // Claude Code 2.1.39: the reply's second block comes after the first
    // call's result and a progress line; its third hangs off a progress
    // line off the chain. One reply of three calls, all answered.
    let (summary, opened) = read("cases/claude-code-streamed-reply.jsonl");
    assert_eq!(counts(&summary), [2, 3, 3, 0, 1, 0, 0], "{summary}");
    let proposes: Vec<usize> = trace(&opened)
        .steps
        .iter()
        .filter_map(|s| match &s.kind {
            StepKind::Proposes { calls, .. } => Some(calls.len()),
            _ => None,
        })
        .collect();
    assert_eq!(proposes, [3], "the three calls proposed at once");
}

#[test]
fn a_claude_code_compaction_whose_parent_is_gone_keeps_the_history_before_it() {
    let (summary, opened) = read("cases/claude-code-compaction-parent-missing.jsonl");
    // Both replies before the compaction are read, and the one after.
    assert_eq!(counts(&summary), [3, 1, 1, 0, 0, 0, 0], "{summary}");
    let said = conditions(&opened).join(" ");
    assert!(
        said.contains("The compaction boundary at line 5 names a message before it")
            && said.contains("(line 4)"),
        "{said}"
    );
    // The summary and the background task's notice are Claude Code's
    // words in the user's turn, not the user writing again.
    let trace = trace(&opened);
    let turns = user_turns(trace);
    assert_eq!(turns, 0);
    let said = trace.steps.iter().filter_map(|s| s.narration.as_deref());
    let harness = said
        .filter(|n| n.contains("written by the harness itself"))
        .count();
    assert_eq!(
        harness, 1,
        "one step says the two messages are the harness's"
    );
}

#[test]
fn claude_codes_compaction_file_is_not_called_a_sub_agent_a_call_started() {
    let (_, opened) = read("real/claude-code-2.1.39-agent-acompact.jsonl");
    let said = conditions(&opened).join(" ");
    assert!(
        said.contains("the model call Claude Code makes to compact the context"),
        "{said}"
    );
    assert!(!said.contains("a Task (Agent) call"), "{said}");
}

#[test]
fn an_openhands_evaluation_output_is_a_run_a_line_and_its_bare_errors_are_sent_on() {
    let (summary, opened) = read("cases/openhands-output.jsonl");
    assert_eq!(opened.format, Format::named("openhands").unwrap());
    assert_eq!(counts(&summary), [2, 1, 1, 0, 0, 0, 0], "{summary}");
    let said = conditions(&opened).join(" ");
    assert!(
        said.contains("holds 2 runs (an OpenHands evaluation's output")
            && said.contains("showing run 1 (instance_id \"example__repo-1\")"),
        "{said}"
    );
    // A line that is not such a run is named.
    let bad = std::env::temp_dir().join("agent-loop-sim-openhands-bad-line.jsonl");
    let first = std::fs::read_to_string(path("cases/openhands-output.jsonl")).unwrap();
    let first = first.lines().next().unwrap();
    std::fs::write(&bad, format!("{first}\n{{\"foo\": 1}}\n")).unwrap();
    let out = common::run(&["trace", "--transcript", bad.to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("line 2: expected a run of an OpenHands evaluation's output"),
        "{}",
        out.stderr
    );
    // Run 2: the error of a reply that left no action is what OpenHands
    // sends the model next, in a user message it writes itself.
    let (_, opened) = read("cases/openhands-output.jsonl#2");
    let sent = trace(&opened)
        .messages
        .iter()
        .find(|m| m.text.contains("expected to be one of"))
        .expect("the error is in the context");
    assert_eq!(sent.role, Role::User);
    assert!(
        sent.text
            .ends_with("[Error occurred in processing last action]")
    );
    let users = user_turns(trace(&opened));
    assert_eq!(users, 0, "not the user writing again");
}

#[test]
fn a_mini_swe_agent_format_error_is_the_harness_speaking_not_the_user() {
    let (summary, opened) = read("cases/mini-swe-agent-format-error.traj.json");
    assert_eq!(counts(&summary), [2, 2, 1, 0, 0, 1, 0], "{summary}");
    let trace = trace(&opened);
    let turns = user_turns(trace);
    assert_eq!(turns, 0, "the FormatError message is no new turn");
    let said = trace.steps.iter().filter_map(|s| s.narration.as_deref());
    assert_eq!(
        said.filter(|n| n.contains("written by the harness itself"))
            .count(),
        1
    );
}

#[test]
fn a_run_whose_file_names_no_call_says_its_results_pair_by_position() {
    for name in [
        "cases/mini-swe-agent-messages.json",
        "real/sweagent-pydicom-1458.traj",
        "real/openhands-flat-resolver-1.json",
        "real/openhands-flat-resolver-2.json",
    ] {
        let (_, opened) = read(name);
        let trace = trace(&opened);
        let results: Vec<usize> = (0..trace.len())
            .filter(|&i| matches!(trace.steps[i].kind, StepKind::ResultArrives { .. }))
            .collect();
        assert!(!results.is_empty(), "{name}");
        for i in results {
            let title = agent_loop_sim::i18n::step_title(trace, i);
            assert!(title.contains("paired by position"), "{name}: {title}");
            let said = trace.steps[i].narration.as_deref().unwrap_or_default();
            assert!(said.contains("paired by position"), "{name}: {said}");
            assert!(!said.contains("call_id"), "{name}: {said}");
        }
    }
}

#[test]
fn claude_code_sub_agents_are_conversations_of_their_own_linked_both_ways() {
    let session = path("cases/claude-code-with-subagent.jsonl");
    let (main, others, _) = transcript::open_all(&session, None, false, None).unwrap();
    assert_eq!(others.len(), 1, "the sub-agent's file beside the session");
    let sub = others[0].trace(Lang::En);
    assert_eq!(sub.model_calls.len(), 2);
    let started = main
        .card
        .conditions
        .iter()
        .any(|c| c.get(Lang::En).contains("agent-a1b2c3d ← toolu_task (3)"));
    assert!(started, "{:?}", main.card.conditions);
    let back = others[0].card.conditions.iter().any(|c| {
        c.get(Lang::En)
            .contains("sub-agent agent-a1b2c3d's own file")
    });
    assert!(back, "{:?}", others[0].card.conditions);
    // Its first message is its caller's prompt, as the step's title says.
    let first = sub.steps[0].narration.as_deref().unwrap_or_default();
    assert!(
        first.contains("the prompt of the agent that called it reaches the host first"),
        "{first}"
    );
    let main = main.trace(Lang::En).steps[0].narration.as_deref();
    assert!(
        main.unwrap_or_default()
            .contains("the user's message reaches the host first")
    );
    // Opened alone, a sub-agent's file (all side chain) reads as one.
    let (summary, _) = read("cases/claude-code-with-subagent/subagents/agent-a1b2c3d.jsonl");
    assert_eq!(counts(&summary), [2, 1, 1, 0, 0, 0, 0], "{summary}");
}

#[test]
fn codex_unified_exec_still_running_is_not_the_later_exit_codes_error() {
    // exec_command returned "Process running…"; the write_stdin after it
    // reported exit code 2, which exec_command_end files under the first
    // call's id.
    let (summary, opened) = read("cases/codex-unified-exec.jsonl");
    assert_eq!(counts(&summary), [3, 2, 2, 1, 0, 0, 0], "{summary}");
    let errors: Vec<bool> = trace(&opened)
        .messages
        .iter()
        .filter(|m| m.role == Role::Tool)
        .map(|m| m.is_error)
        .collect();
    assert_eq!(errors, [false, true]);
}

#[test]
fn shapes_once_forced_are_told_from_the_content() {
    let (summary, opened) = read("cases/swe-agent-history-only.traj");
    assert_eq!(opened.format, Format::SweAgent);
    assert_eq!(counts(&summary), [2, 2, 1, 0, 0, 1, 0], "{summary}");
    let (summary, opened) = read("cases/mini-swe-agent-messages.json");
    assert_eq!(opened.format, Format::MiniSweAgent);
    assert_eq!(counts(&summary), [3, 3, 2, 0, 0, 1, 0], "{summary}");
    // any-agent's `{spans: [...]}`: its call_llm spans are the model calls.
    let (summary, opened) = read("real/any-agent-openai-trace.json");
    assert_eq!(opened.format, Format::OtelSdk);
    assert_eq!(counts(&summary), [3, 2, 2, 0, 0, 0, 0], "{summary}");
    assert!(
        conditions(&opened)
            .iter()
            .any(|c| c.contains("record no call ids")),
        "{:?}",
        conditions(&opened)
    );
    let (summary, _) = read("real/any-agent-tinyagent-trace.json");
    assert_eq!(counts(&summary), [4, 3, 3, 0, 0, 0, 0], "{summary}");
}
