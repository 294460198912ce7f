//! Transcripts of real runs: every fixture in tests/transcripts/ is opened
//! with `trace --transcript` and its summary must be the counts written in
//! its `.expect.json` (worked out by hand from the file); bad inputs are
//! refused with exit code 2 and one line naming the file and the line; a
//! few frames are snapshots.

mod common;

use common::summary_counts as counts;

use std::path::Path;

use agent_loop_sim::app::App;
use agent_loop_sim::frames;
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::theme::Theme;
use agent_loop_sim::transcript::{self, Format};
use common::{Output, snapshot_settings as settings};
use serde_json::Value;

/// The binary with the user's colour setting (not `common::run`'s NO_COLOR).
fn run(args: &[&str]) -> Output {
    let mut cmd = common::command(args);
    cmd.env_remove("NO_COLOR");
    common::run_command(cmd, args)
}

const FIXTURES: [(&str, Format); 7] = [
    ("chat.jsonl", Format::Chat),
    ("responses.json", Format::Responses),
    ("anthropic.json", Format::Anthropic),
    ("codex.jsonl", Format::Codex),
    ("codex-legacy.jsonl", Format::Codex),
    ("claude-code.jsonl", Format::ClaudeCode),
    ("otel.json", Format::Otel),
];

fn fixture(name: &str) -> String {
    format!("tests/transcripts/{name}")
}

fn expected(name: &str) -> Value {
    let stem = name.rsplit_once('.').unwrap().0;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(fixture(&format!("{stem}.expect.json")));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_fixture_gives_the_counts_it_holds() {
    for (name, format) in FIXTURES {
        let out = run(&["trace", "--transcript", &fixture(name), "--lang", "en"]);
        assert_eq!(out.code, 0, "{name}: {}", out.stderr);
        let trace: Value = serde_json::from_str(&out.stdout).unwrap();
        let expect = expected(name);
        assert_eq!(trace["summary"], expect["summary"], "{name}");
        assert_eq!(expect["format"], format.code(), "{name}");
        // The detected format is named in the title.
        let title = trace["scenario"]["title"].as_str().unwrap();
        let opened = transcript::open(&fixture_path(name), None).unwrap();
        assert_eq!(opened.format, format, "{name}: detected format");
        assert!(title.starts_with(name), "{name}: {title}");
    }
}

fn fixture_path(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(fixture(name))
        .to_string_lossy()
        .into_owned()
}

#[test]
fn both_languages_have_the_same_steps_and_their_own_narration() {
    for (name, _) in FIXTURES {
        let loaded = transcript::open(&fixture_path(name), None).unwrap().loaded;
        let (zh, en) = (loaded.trace(Lang::Zh), loaded.trace(Lang::En));
        assert_eq!(zh.steps.len(), en.steps.len(), "{name}");
        for (a, b) in zh.steps.iter().zip(&en.steps) {
            assert_eq!(a.kind, b.kind, "{name}");
            assert!(
                a.narration.is_some() && a.narration != b.narration,
                "{name}"
            );
        }
    }
}

#[test]
fn request_bodies_give_exact_contexts_and_the_rest_is_marked_reconstructed() {
    let exact = transcript::open(&fixture_path("chat.jsonl"), None)
        .unwrap()
        .loaded;
    let trace = exact.trace(Lang::En);
    assert!(!trace.title.contains("reconstructed"), "{}", trace.title);
    let first_call = &trace.steps[trace.model_calls[0].step];
    assert!(first_call.narration.as_ref().unwrap().contains("exactly"));
    // Chat Completions sends the system prompt as message 1: said so,
    // and counted among the messages, as the context heading counts it.
    assert!(
        first_call
            .narration
            .as_ref()
            .unwrap()
            .contains("chars) is message 1, as Chat Completions sends it")
    );

    let rebuilt = transcript::open(&fixture_path("claude-code.jsonl"), None)
        .unwrap()
        .loaded;
    let trace = rebuilt.trace(Lang::En);
    assert!(trace.title.contains("reconstructed"), "{}", trace.title);
    let call = trace.steps[trace.model_calls[0].step]
        .narration
        .clone()
        .unwrap();
    assert!(call.contains("(reconstructed)"), "{call}");
    assert!(call.contains("no system prompt"), "{call}");
    assert!(call.contains("no tool schemas"), "{call}");
    // No host validation is invented: the file records none.
    assert!(
        trace
            .steps
            .iter()
            .all(|s| !matches!(s.kind, agent_loop_sim::trace::StepKind::Validates { .. }))
    );
}

#[test]
fn responses_pair_by_call_id_not_by_the_items_own_id() {
    let loaded = transcript::open(&fixture_path("responses.json"), None)
        .unwrap()
        .loaded;
    let trace = loaded.trace(Lang::En);
    let grep = trace.calls.iter().find(|c| c.tool == "grep").unwrap();
    assert_eq!(&*grep.id.0, "call_g1");
    assert!(grep.result.is_none(), "fc_003 is an item id, not a call id");
}

#[test]
fn claude_code_follows_the_parent_chain_not_the_file_order() {
    let opened = transcript::open(&fixture_path("claude-code.jsonl"), None).unwrap();
    let trace = opened.loaded.trace(Lang::En);
    assert!(
        trace
            .messages
            .iter()
            .all(|m| !m.text.contains("draft that was retried"))
    );
    assert!(trace.messages.iter().all(|m| !m.text.contains("subagent")));
    assert!(
        opened
            .warnings
            .iter()
            .any(|w| w.contains("2 conversation lines")),
        "{:?}",
        opened.warnings
    );
    // Three assistant lines of one API message are one reply with two calls.
    let first = trace
        .steps
        .iter()
        .find(|s| matches!(s.kind, agent_loop_sim::trace::StepKind::Proposes { .. }))
        .unwrap();
    assert!(
        matches!(&first.kind, agent_loop_sim::trace::StepKind::Proposes { calls, .. } if calls.len() == 2)
    );
}

#[test]
fn forcing_a_format_reads_the_file_as_that_format() {
    // anthropic.json read as Chat Completions: the tool_use blocks are not
    // Chat tool calls, so no call is found.
    let out = run(&[
        "trace",
        "--transcript",
        &fixture("anthropic.json"),
        "--transcript-format",
        "chat",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let trace: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(trace["summary"]["tool_calls"], 0);
    assert!(
        trace["scenario"]["title"]
            .as_str()
            .unwrap()
            .contains("OpenAI Chat Completions")
    );
}

#[test]
fn scenarios_get_a_summary_too() {
    let out = run(&["trace", "harness-pairs-by-order", "--lang", "en"]);
    assert_eq!(out.code, 0);
    let trace: Value = serde_json::from_str(&out.stdout).unwrap();
    let s = &trace["summary"];
    assert_eq!(s["tool_calls"], 2);
    assert_eq!(s["parallel_groups"], 1);
    // Each result is attached to the other call's id: none paired by id.
    assert_eq!(s["paired"], 0);
    assert_eq!(s["unanswered"], 0);
    assert!(s["final_answer"].as_str().is_some());
}

/// Exit 2, nothing on stdout, one line on stderr: `FILE: PLACE: message`.
fn assert_refused(name: &str, place: &str, what: &str) {
    let file = fixture(&format!("bad/{name}"));
    let out = run(&["trace", "--transcript", &file]);
    assert_eq!(out.code, 2, "{name}: {}", out.stderr);
    assert!(out.stdout.is_empty(), "{name}");
    let err = out.stderr.trim_end();
    assert_eq!(err.lines().count(), 1, "{name}: {err}");
    assert!(
        err.starts_with(&format!("{file}: {place}")),
        "{name}: {err}"
    );
    assert!(err.contains(what), "{name}: {err}");
    assert!(
        !err.contains("panicked") && !err.contains("Error("),
        "{name}: {err}"
    );
}

#[test]
fn bad_inputs_are_refused_with_the_file_and_the_line() {
    assert_refused("not-json-mid.jsonl", "line 3, column", "not JSON");
    assert_refused("unknown-format.jsonl", "line 1:", "not a transcript");
    assert_refused("package.json", "line 1:", "not a transcript");
    assert_refused("invalid-utf8.jsonl", "line 4, column", "invalid UTF-8");
    assert_refused("cut-document.json", "line 14, column 1", "ends too early");
}

#[test]
fn a_cut_last_line_and_unknown_types_are_skipped_with_a_warning() {
    let out = run(&[
        "trace",
        "--transcript",
        &fixture("bad/truncated-last-line.jsonl"),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("line 17 is cut short"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("skipped 2 lines of types not drawn as steps (event_msg/user_message ×1, future_item_type ×1): lines 4, 14"),
        "{}",
        out.stderr
    );
    let trace: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(trace["summary"], expected("codex.jsonl")["summary"]);
}

#[test]
fn a_missing_file_is_refused() {
    let out = run(&[
        "trace",
        "--transcript",
        "tests/transcripts/no-such-file.jsonl",
    ]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("no such file"), "{}", out.stderr);
}

#[test]
fn control_characters_from_a_transcript_never_reach_the_terminal() {
    let dir = std::env::temp_dir().join(format!("als-transcript-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("escape.json");
    std::fs::write(
        &path,
        r#"[{"role":"user","content":"hi \u001b[31mred\u001b[0m \u202eevil"},{"role":"assistant","content":"ok"}]"#,
    )
    .unwrap();
    let loaded = transcript::open(path.to_str().unwrap(), None)
        .unwrap()
        .loaded;
    let text = &loaded.trace(Lang::En).messages[0].text;
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{202e}'),
        "{text:?}"
    );
    assert!(text.contains("\\u{1b}[31mred"), "{text:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_few_frames_of_transcripts() {
    // Few on purpose: the view is changing; these show a parallel group,
    // an orphan result and the final step with an unanswered call.
    for (name, format, lang, step) in [
        ("codex.jsonl", Format::Codex, Lang::En, 3),
        ("otel.json", Format::Otel, Lang::En, 9),
        ("claude-code.jsonl", Format::ClaudeCode, Lang::Zh, 0),
    ] {
        let loaded = transcript::open(&fixture_path(name), None).unwrap().loaded;
        let app = App::new(loaded, lang, Theme::DARK);
        let last = app.trace().len();
        let step = if step == 0 { last } else { step };
        let frame = frames::at_step(&app, step - 1, 120, 40);
        let text = frames::to_text(&frames::render(&frame, 120, 40));
        let snap = format!(
            "transcript-{}__120x40__{}__step-{step:02}",
            format.code(),
            lang.code()
        );
        settings().bind(|| insta::assert_snapshot!(snap, text));
    }
}

#[test]
fn redact_masks_secrets_on_screen_and_in_every_export() {
    let dir = std::env::temp_dir().join(format!("als-redact-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("secret.json");
    std::fs::write(
        &path,
        r#"[{"role":"user","content":"deploy with OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234 and mail ada@example.org"},
            {"role":"assistant","content":"Done."}]"#,
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let out = run(&["trace", "--transcript", file, "--redact", "--lang", "en"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stdout.contains("sk-proj-abc") && !out.stdout.contains("ada@example.org"));
    assert!(out.stdout.contains("[redacted: email]"), "{}", out.stdout);
    let figures = dir.join("figures");
    let out = run(&[
        "export",
        "--transcript",
        file,
        "--redact",
        "--format",
        "svg",
        "--out",
        figures.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for entry in std::fs::read_dir(&figures).unwrap() {
        let svg = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(!svg.contains("sk-proj-abc") && !svg.contains("ada@example.org"));
    }
    // Without --redact the text is as the file has it.
    let out = run(&["trace", "--transcript", file]);
    assert!(out.stdout.contains("ada@example.org"));
    std::fs::remove_dir_all(&dir).ok();
}

/// A small file that once read wrong: its summary from `trace`, its
/// stderr, and its English trace.
fn case(name: &str) -> (Value, String, agent_loop_sim::trace::Trace) {
    let file = fixture(&format!("cases/{name}"));
    let out = run(&["trace", "--transcript", &file, "--lang", "en"]);
    assert_eq!(out.code, 0, "{name}: {}", out.stderr);
    let trace: Value = serde_json::from_str(&out.stdout).unwrap();
    let opened = transcript::open(&fixture_path(&format!("cases/{name}")), None).unwrap();
    (
        trace["summary"].clone(),
        out.stderr,
        opened.loaded.trace(Lang::En).clone(),
    )
}

#[test]
fn a_responses_request_body_holds_one_reply_per_turn_not_one_per_function_call() {
    // Two requests with their responses: the first reply is a reasoning
    // item and two function_call items, which the second request repeats.
    let (summary, stderr, trace) = case("responses-requests.jsonl");
    assert_eq!(counts(&summary), [2, 2, 2, 0, 1, 0, 0], "{summary}");
    assert!(stderr.is_empty(), "{stderr}");
    // Both calls' contexts are the request bodies, exactly.
    let said = |i: usize| {
        trace.steps[trace.model_calls[i].step]
            .narration
            .clone()
            .unwrap()
    };
    // Counted as the heading counts them: each function call and output
    // an input item of its own.
    assert!(said(1).contains("exactly the 6 input items"), "{}", said(1));
    // The reasoning item is said, with its size, in the reply and in the
    // request that sends it back.
    assert!(
        said(1).contains("1 reasoning item (36 chars)"),
        "{}",
        said(1)
    );
    let reply = trace.steps[trace.model_calls[0].step + 1]
        .narration
        .clone()
        .unwrap();
    assert!(
        reply.contains("reasoning (line 1): 22 chars of summary")
            && reply.contains("14 chars of encrypted content"),
        "{reply}"
    );
}

#[test]
fn a_chat_id_reused_in_a_later_turn_is_paired_within_its_turn() {
    let (summary, stderr, trace) = case("chat-reused-ids.json");
    assert_eq!(counts(&summary), [3, 2, 2, 0, 0, 0, 0], "{summary}");
    assert!(stderr.is_empty(), "{stderr}");
    // The second call_0 is cancel_order, run and answered in its own turn.
    let second = &trace.calls[1];
    assert_eq!(
        (second.id.0.as_ref(), second.tool.as_str()),
        ("call_0", "cancel_order")
    );
    assert!(second.result.as_ref().unwrap().text.contains("cancelled"));
    let titles: Vec<String> = (0..trace.steps.len())
        .map(|i| agent_loop_sim::i18n::step_title(&trace, i))
        .collect();
    assert!(
        titles.contains(&"The host executes call_0 cancel_order".to_string()),
        "{titles:?}"
    );
}

#[test]
fn a_result_after_a_later_reply_is_paired_by_id_and_warned_about_naming_both_lines() {
    let (summary, stderr, _) = case("anthropic-late-result.json");
    assert_eq!(counts(&summary), [3, 2, 2, 0, 0, 0, 0], "{summary}");
    assert!(
        stderr.contains("the result at item 5 answers call_id toolu_1 of the reply at item 2")
            && stderr.contains("another reply (item 4) came between them"),
        "{stderr}"
    );
}

#[test]
fn codex_failures_are_errors_by_any_of_the_ways_codex_writes_them() {
    // `Process exited with code 101` in the output's header lines, and an
    // `exec_command_end` event with exit_code 2 beside a plain output.
    let (summary, _, trace) = case("codex-exit-codes.jsonl");
    assert_eq!(counts(&summary), [3, 2, 2, 2, 0, 0, 0], "{summary}");
    // Codex's own <environment_context> is not the user's task.
    let first = trace.steps[0].narration.clone().unwrap();
    assert!(first.contains("(Codex CLI rollout, line 3)"), "{first}");
    assert!(first.contains("written by the harness itself"), "{first}");
}

#[test]
fn an_anthropic_body_without_system_or_tools_is_read_as_anthropic() {
    let opened = transcript::open(&fixture_path("cases/anthropic-no-system.json"), None).unwrap();
    assert_eq!(opened.format, Format::Anthropic);
    let call = &opened.loaded.trace(Lang::En).steps[1];
    assert!(
        call.narration
            .as_ref()
            .unwrap()
            .contains("Anthropic Messages rules"),
        "{:?}",
        call.narration
    );
}

#[test]
fn what_is_not_drawn_is_listed_by_type_count_and_line_everywhere() {
    // In `trace` JSON, with every line.
    let out = run(&[
        "trace",
        "--transcript",
        &fixture("codex.jsonl"),
        "--lang",
        "en",
    ]);
    let trace: Value = serde_json::from_str(&out.stdout).unwrap();
    let recorded = &trace["scenario"]["recorded"];
    assert_eq!(
        recorded["unread"],
        serde_json::json!([
            {"type": "event_msg/user_message", "count": 1, "lines": [4]},
            {"type": "future_item_type", "count": 1, "lines": [14]}
        ]),
        "{recorded}"
    );
    // No budget is invented for a replayed run.
    assert!(trace["scenario"]["budget"].is_null());
    // In the about overlay's conditions, and in `transcript`.
    let loaded = transcript::open(&fixture_path("codex.jsonl"), None)
        .unwrap()
        .loaded;
    let said: Vec<&str> = loaded
        .card
        .conditions
        .iter()
        .map(|c| c.get(Lang::En))
        .collect();
    let line =
        "Not drawn as steps: event_msg/user_message ×1 (line 4); future_item_type ×1 (line 14).";
    assert!(said.contains(&line), "{said:?}");
    let plain = run(&[
        "transcript",
        "--transcript",
        &fixture("codex.jsonl"),
        "--lang",
        "en",
    ]);
    assert!(
        plain.stdout.lines().nth(1) == Some(line),
        "{}",
        plain.stdout
    );
    // Claude Code's bookkeeping lines are listed too, not dropped unsaid.
    let out = run(&[
        "trace",
        "--transcript",
        &fixture("claude-code.jsonl"),
        "--lang",
        "en",
    ]);
    let trace: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        trace["scenario"]["recorded"]["unread"][0]["type"],
        "summary"
    );
}

#[test]
fn what_the_file_is_silent_on_is_not_recorded_never_none() {
    let loaded = transcript::open(&fixture_path("codex.jsonl"), None)
        .unwrap()
        .loaded;
    let trace = loaded.trace(Lang::En);
    let header =
        agent_loop_sim::i18n::counters(trace, &loaded.counts, &trace.steps[2], false, Lang::En);
    // Codex names apply_patch, so writes are counted; no budget is shown.
    assert!(
        header.starts_with("model calls 1 · tool runs 0 · writes 0"),
        "{header}"
    );
    let chat = transcript::open(&fixture_path("chat.jsonl"), None)
        .unwrap()
        .loaded;
    let trace = chat.trace(Lang::En);
    let header = agent_loop_sim::i18n::counters(
        trace,
        &chat.counts,
        trace.steps.last().unwrap(),
        false,
        Lang::En,
    );
    assert!(header.contains("writes unknown"), "{header}");
    assert!(!header.contains('/'), "{header}");
}

#[test]
fn a_claude_code_request_the_session_records_is_drawn_at_its_size_with_its_tools() {
    // `api-request` lines: the first sends one blob; the second keeps it
    // and adds the reply and the result, named by hash, with no blob.
    let (summary, _, trace) = case("claude-code-requests.jsonl");
    assert_eq!(counts(&summary), [2, 1, 1, 0, 0, 0, 0], "{summary}");
    let names: Vec<&str> = trace.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["Read", "Edit"]);
    // The bodies rebuilt from the records: no params in this file, the
    // shape's system and tools, then the messages (a blob, then the
    // conversation's reply and result, named by hash).
    let lines: Vec<Value> =
        std::fs::read_to_string(fixture_path("cases/claude-code-requests.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
    let shape = &lines[2]["shape"];
    let wire = |i: usize| {
        let m = &lines[i]["message"];
        serde_json::json!({"role": m["role"], "content": m["content"]})
    };
    let body = |messages: Vec<Value>| {
        serde_json::to_vec(&serde_json::json!({"system": shape["system"], "tools": shape["tools"], "messages": messages}))
            .unwrap()
            .len()
    };
    let first = body(vec![lines[3]["message"].clone()]);
    let second = body(vec![lines[3]["message"].clone(), wire(5), wire(6)]);
    let sizes: Vec<Option<usize>> = trace
        .model_calls
        .iter()
        .map(|m| m.body.as_ref().map(|b| b.request.len()))
        .collect();
    assert_eq!(sizes, [Some(first), Some(second)]);
    let said = trace.steps[trace.model_calls[1].step]
        .narration
        .clone()
        .unwrap();
    assert!(
        said.contains("records the request itself at line 8 (api-request): 3 messages"),
        "{said}"
    );
    // Read, not listed as a line type not drawn.
    let unread: Vec<&str> = trace
        .recorded
        .as_ref()
        .unwrap()
        .unread
        .iter()
        .map(|(k, _)| k.as_str())
        .collect();
    assert_eq!(unread, ["last-prompt", "queue-operation"]);
}

/// The counts `recount.py` makes of a file, with no code of this project.
fn recount(file: &str, format: &str) -> Option<Value> {
    let out = std::process::Command::new("python3")
        .arg("tests/transcripts/real/recount.py")
        .arg(file)
        .arg(format)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    match out {
        Ok(out) if out.status.success() => Some(serde_json::from_slice(&out.stdout).unwrap()),
        Ok(out) => panic!(
            "recount.py {file}: {}",
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => {
            common::missing_tool(
                "real_runs_give_the_counts_an_independent_recount_makes",
                &format!("python3 cannot be run ({e}): the real files are not recounted"),
            );
            None
        }
    }
}

#[test]
fn real_runs_give_the_counts_an_independent_recount_makes() {
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture_path("real/manifest.json")).unwrap())
            .unwrap();
    let files = manifest["files"].as_array().unwrap();
    assert!(files.len() >= 4);
    // The small cases too: each reproduces a reader bug.
    let cases = [
        ("cases/responses-requests.jsonl", None),
        ("cases/chat-reused-ids.json", Some("chat")),
        ("cases/anthropic-late-result.json", Some("anthropic")),
        ("cases/codex-exit-codes.jsonl", Some("codex")),
        ("cases/claude-code-requests.jsonl", Some("claude-code")),
        ("codex.jsonl", Some("codex")),
        ("claude-code.jsonl", Some("claude-code")),
        // Sessions the real CLIs wrote here (real/cli/regenerate.sh).
        ("real/cli/codex-rollout.jsonl", Some("codex")),
        ("real/cli/claude-code-session.jsonl", Some("claude-code")),
        ("real/cli/gemini-cli-session.jsonl", Some("gemini-cli")),
        // Written from gemini-cli's types, not real runs.
        ("cases/gemini-cli-session.json", Some("gemini-cli")),
        ("cases/gemini-cli-session.jsonl", Some("gemini-cli")),
        ("cases/gemini-cli-checkpoint.json", Some("gemini-cli")),
        ("cases/gemini-cli-turns-merged.json", Some("gemini-cli")),
        // The shapes of issue 34 (cases/make_readers.py).
        (
            "cases/claude-code-parallel-out-of-order.jsonl",
            Some("claude-code"),
        ),
        (
            "cases/claude-code-requests-merged.jsonl",
            Some("claude-code"),
        ),
        ("cases/claude-code-harness-text.jsonl", Some("claude-code")),
        (
            "cases/claude-code-streamed-reply.jsonl",
            Some("claude-code"),
        ),
        (
            "cases/claude-code-compaction-parent-missing.jsonl",
            Some("claude-code"),
        ),
        ("cases/claude-code-with-subagent.jsonl", Some("claude-code")),
        (
            "cases/claude-code-with-subagent/subagents/agent-a1b2c3d.jsonl",
            Some("claude-code"),
        ),
        ("cases/codex-unified-exec.jsonl", Some("codex")),
        ("cases/swe-agent-history-only.traj", Some("swe-agent")),
        ("cases/mini-swe-agent-messages.json", Some("mini-swe-agent")),
        (
            "cases/mini-swe-agent-format-error.traj.json",
            Some("mini-swe-agent"),
        ),
    ];
    let real = files.iter().map(|f| {
        (
            format!("real/{}", f["file"].as_str().unwrap()),
            f["format"].as_str(),
        )
    });
    for (name, format) in real.chain(cases.iter().map(|(n, f)| (n.to_string(), *f))) {
        let Some(format) = format else { continue };
        let file = fixture(&name);
        let Some(mut expected) = recount(&file, format) else {
            return;
        };
        let out = run(&["trace", "--transcript", &file, "--lang", "en"]);
        assert_eq!(out.code, 0, "{name}: {}", out.stderr);
        let mut summary: Value =
            serde_json::from_str::<Value>(&out.stdout).unwrap()["summary"].clone();
        summary.as_object_mut().unwrap().remove("final_answer");
        expected.as_object_mut().unwrap().remove("final_answer");
        assert_eq!(summary, expected, "{name}");
    }
}

#[test]
fn more_formats_are_read_and_a_file_of_many_runs_offers_a_choice() {
    let (summary, _, trace) = case("swe-agent.traj");
    assert_eq!(counts(&summary), [2, 2, 2, 0, 0, 0, 0], "{summary}");
    assert!(
        trace.title.contains("SWE-agent trajectory (.traj)"),
        "{}",
        trace.title
    );
    let (summary, _, trace) = case("otel-sdk-console.json");
    assert_eq!(counts(&summary), [2, 1, 1, 1, 0, 0, 0], "{summary}");
    assert!(trace.title.contains("SDK span JSON"), "{}", trace.title);
    // A tau-bench results file: run 1 unless FILE#N names another.
    let (summary, stderr, _) = case("tau-bench-results.json");
    assert_eq!(counts(&summary), [1, 0, 0, 0, 0, 0, 0], "{summary}");
    assert!(
        stderr.contains("holds 3 runs") && stderr.contains("showing run 1 (task_id 0, reward 1.0)"),
        "{stderr}"
    );
    let second = fixture("cases/tau-bench-results.json#2");
    let out = run(&["trace", "--transcript", &second, "--lang", "en"]);
    let trace: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(counts(&trace["summary"]), [3, 2, 2, 0, 0, 0, 0]);
    let out = run(&[
        "trace",
        "--transcript",
        &fixture("cases/tau-bench-results.json#9"),
    ]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("run 9 is not one of them (FILE#1 to FILE#3)"),
        "{}",
        out.stderr
    );
}

#[test]
fn after_a_recorded_compaction_the_context_is_the_replacement_history_exactly() {
    let (summary, _, trace) = case("codex-compacted.jsonl");
    assert_eq!(counts(&summary), [4, 3, 3, 1, 0, 0, 0], "{summary}");
    // The compacted line's replacement_history, as the file writes it.
    let lines: Vec<Value> = std::fs::read_to_string(fixture_path("cases/codex-compacted.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let compacted = lines.iter().find(|l| l["type"] == "compacted").unwrap();
    let history: Vec<&str> = compacted["payload"]["replacement_history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["content"][0]["text"].as_str().unwrap())
        .collect();
    // Calls #1 and #2 before it send everything; #3, the first after (the
    // compaction came mid-turn, after a result), sends that history and
    // nothing else before it.
    assert_eq!(trace.model_calls.len(), 4);
    assert!(
        trace
            .model_calls
            .slice(..2)
            .iter()
            .all(|m| m.context_start == 0)
    );
    let after = &trace.model_calls[2];
    let sent: Vec<&str> = trace.context(after).iter().map(|m| &*m.text).collect();
    assert_eq!(sent, history);
    // Its size is that history's: the same as the first call of a rollout
    // whose conversation is that history.
    let chars: usize = trace.context(after).iter().map(|m| m.size).sum();
    assert_eq!(
        chars,
        history.iter().map(|t| t.chars().count()).sum::<usize>()
    );
    let plain = std::env::temp_dir().join(format!("als-history-{}.jsonl", std::process::id()));
    let mut text = format!("{}\n", serde_json::to_string(&lines[0]).unwrap());
    for item in compacted["payload"]["replacement_history"]
        .as_array()
        .unwrap()
    {
        let line = serde_json::json!({"timestamp": "t", "type": "response_item", "payload": item});
        text.push_str(&format!("{line}\n"));
    }
    // The reply that call answers (the patch call after the compaction).
    text.push_str(&format!("{}\n", serde_json::to_string(&lines[8]).unwrap()));
    std::fs::write(&plain, text).unwrap();
    let same = transcript::open(plain.to_str().unwrap(), None).unwrap();
    std::fs::remove_file(&plain).unwrap();
    let same_trace = same.loaded.trace(Lang::En);
    let same = same_trace.model_calls[0].clone();
    assert_eq!(after.context_size, same.context_size);
    // Counted when asked, and the same count.
    let counts = agent_loop_sim::wire::counts_of(&trace);
    let tokens = agent_loop_sim::wire::context_tokens(&trace, &counts, 2);
    assert!(tokens > 0);
    let same_counts = agent_loop_sim::wire::counts_of(same_trace);
    assert_eq!(
        tokens,
        agent_loop_sim::wire::context_tokens(same_trace, &same_counts, 0)
    );
    assert!(after.context_start > trace.model_calls[1].context_start);
    // The task was sent before, word for word: not new; the summary is.
    assert_eq!(trace.new_count(2), 1);
    // The last call sends the history plus the patch call and its result.
    let last = &trace.model_calls[3];
    assert_eq!(last.context_start, after.context_start);
    assert_eq!(trace.context(last).len(), history.len() + 2);
    let said = trace.steps[after.step].narration.clone().unwrap();
    assert!(
        said.contains("the context drawn is exactly that history plus the messages after it")
            && said.contains("2 input items before it (1 new"),
        "{said}"
    );
}

#[test]
fn a_text_based_mini_swe_agent_run_says_it_names_no_call_and_pairs_by_position() {
    let file = fixture("real/mini-swe-agent-gemini-django-13670.traj.json");
    let out = run(&["trace", "--transcript", &file, "--lang", "en"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("mini-swe-agent records no tool-call ids")
            && out.stderr.contains("this program's names, not the file's"),
        "{}",
        out.stderr
    );
    let opened = transcript::open(
        &fixture_path("real/mini-swe-agent-gemini-django-13670.traj.json"),
        None,
    )
    .unwrap();
    assert_eq!(opened.format, Format::MiniSweAgent);
    let trace = opened.loaded.trace(Lang::En);
    assert!(
        trace.title.contains("mini-swe-agent trajectory"),
        "{}",
        trace.title
    );
    // Each call is named by its assistant message's place; the first is
    // messages[2] (system, task, then the first reply).
    assert_eq!(&*trace.calls[0].id.0, "messages[2]");
    assert!(
        trace
            .calls
            .iter()
            .all(|c| c.id.0.starts_with("messages[") && c.tool == "bash")
    );
    // messages[22] holds two ```bash blocks: no call; the harness's format
    // error after it is context, not a result.
    assert!(!trace.calls.iter().any(|c| &*c.id.0 == "messages[22]"));
    let error = trace
        .messages
        .iter()
        .find(|m| {
            m.text
                .starts_with("Please always provide EXACTLY ONE action")
        })
        .unwrap();
    assert_eq!(error.role, agent_loop_sim::trace::Role::User);
    assert!(error.call_id.is_none());
    // The system prompt is sent, not a message; the about overlay says the ids are ours.
    assert!(
        trace
            .system
            .as_deref()
            .unwrap()
            .starts_with("You are a helpful assistant")
    );
    let about = &opened.loaded.card.conditions;
    assert!(
        about
            .iter()
            .any(|c| c.get(Lang::En).contains("paired by position")),
        "{about:?}"
    );
    // With tool calling, the file's ids are used as they are.
    let v2 = transcript::open(
        &fixture_path("real/mini-swe-agent-deepseek-sqlfluff-2419.traj.json"),
        None,
    )
    .unwrap();
    let trace = v2.loaded.trace(Lang::En);
    assert_eq!(&*trace.calls[0].id.0, "call_00_DWuPj6lu5KzoLnXB0Rb4ItZo");
    assert!(!v2.warnings.iter().any(|w| w.contains("no tool-call ids")));
}

#[test]
fn a_text_based_swe_agent_run_makes_the_calls_its_actions_name_paired_by_position() {
    let opened = transcript::open(&fixture_path("real/sweagent-pydicom-1458.traj"), None).unwrap();
    assert_eq!(opened.format, Format::SweAgent);
    let trace = opened.loaded.trace(Lang::En);
    // Each assistant message's action, named by its first word.
    let calls: Vec<(&str, &str)> = trace
        .calls
        .iter()
        .map(|c| (&*c.id.0, c.tool.as_str()))
        .collect();
    assert_eq!(calls.len(), 12);
    assert_eq!(calls[0], ("history[3]", "create"));
    assert_eq!(calls[2], ("history[7]", "python"));
    assert_eq!(calls[11], ("history[25]", "submit"));
    // The submit has nothing after it: the run ends unanswered.
    assert!(trace.calls[11].result.is_none());
    assert!(trace.calls.slice(..11).iter().all(|c| c.result.is_some()));
    // The demonstration is the harness's, not the user's: the task is the
    // first step, history[2], and the demonstration is said as context.
    let said = trace.steps[0].narration.clone().unwrap();
    assert!(
        said.contains("item 3")
            && said.contains("1 user-role message (item 2) written by the harness"),
        "{said}"
    );
    assert!(
        opened
            .warnings
            .iter()
            .any(|w| w.contains("This SWE-agent run is text-based")),
        "{:?}",
        opened.warnings
    );
    // Its top-level keys are named, with no place.
    assert!(
        opened
            .warnings
            .iter()
            .any(|w| w.ends_with("not drawn as steps: key \"info\", key \"trajectory\" (the document's own, beside the messages)")),
        "{:?}",
        opened.warnings
    );
    assert!(
        !opened.warnings.iter().any(|w| w.contains("item 1")),
        "{:?}",
        opened.warnings
    );
    // With function calling, the file's ids are used as they are.
    let fc = transcript::open(&fixture_path("cases/swe-agent-history-only.traj"), None).unwrap();
    let trace = fc.loaded.trace(Lang::En);
    assert_eq!(&*trace.calls[0].id.0, "call_1");
    assert!(!fc.warnings.iter().any(|w| w.contains("text-based")));
}

#[test]
fn gemini_cli_sessions_and_checkpoints_are_read_as_gemini_cli_writes_them() {
    for name in [
        "gemini-cli-session.json",
        "gemini-cli-session.jsonl",
        "gemini-cli-checkpoint.json",
    ] {
        let opened = transcript::open(&fixture_path(&format!("cases/{name}")), None).unwrap();
        assert_eq!(opened.format, Format::GeminiCli, "{name}");
        assert!(
            opened
                .warnings
                .iter()
                .any(|w| w.contains("the context is rebuilt in OpenAI Chat's shape")),
            "{name}: {:?}",
            opened.warnings
        );
    }
    // A session record: the thought is reasoning, the CLI's info line is
    // listed as not drawn, the failed shell call is an error.
    let (summary, stderr, trace) = case("gemini-cli-session.json");
    assert_eq!(counts(&summary), [2, 2, 2, 1, 1, 0, 0], "{summary}");
    assert!(stderr.contains("message type \"info\" ×1"), "{stderr}");
    let shell = trace
        .calls
        .iter()
        .find(|c| c.tool == "run_shell_command")
        .unwrap();
    assert!(shell.result.as_ref().unwrap().is_error);
    // JSON lines: the reply rewritten with its calls is one reply, the
    // rewound turn is gone (and said to be), the executing call has no result.
    let (summary, stderr, trace) = case("gemini-cli-session.jsonl");
    assert_eq!(counts(&summary), [3, 2, 1, 0, 0, 1, 0], "{summary}");
    assert!(
        stderr.contains("rewound ($rewindTo): 2 message records"),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 message record was rewritten under the same id"),
        "{stderr}"
    );
    assert!(
        !trace
            .messages
            .iter()
            .any(|m| m.text.contains("Delete tests/"))
    );
    // Three model turns in one message (the later two began with a call):
    // split where the calls were recorded apart, and said so.
    let (summary, stderr, trace) = case("gemini-cli-turns-merged.json");
    assert_eq!(counts(&summary), [4, 4, 4, 1, 1, 0, 0], "{summary}");
    assert!(
        stderr.contains(
            "1 gemini message record holds the tool calls of several model turns (at 2 (3),"
        ),
        "{stderr}"
    );
    assert_eq!(
        trace.model_calls[1].tokens, None,
        "a later turn's tokens are not recorded"
    );
    // A checkpoint without ids: paired by name and order, the ids ours.
    let (summary, stderr, trace) = case("gemini-cli-checkpoint.json");
    assert_eq!(counts(&summary), [2, 2, 2, 1, 1, 0, 0], "{summary}");
    assert_eq!(&*trace.calls[0].id.0, "contents[1].parts[1]");
    assert!(
        stderr.contains("this program's names, not the file's"),
        "{stderr}"
    );
}

/// The session file today's Gemini CLI (0.61, from npm) wrote in a run
/// against the scripted model server (real/cli/regenerate.sh): its own
/// `<session_context>` is context, not the task; the results it records
/// twice (in the reply's toolCalls and again as a user message of
/// functionResponse parts) are drawn once, the copies listed; the about
/// overlay pairs by the functionResponse's id.
#[test]
fn a_real_gemini_cli_session_reads_as_the_run_it_was() {
    let file = fixture_path("real/cli/gemini-cli-session.jsonl");
    let opened = transcript::open(&file, None).unwrap();
    assert_eq!(opened.format, Format::GeminiCli);
    let trace = opened.loaded.trace(Lang::En);
    let summary = transcript::summary(trace);
    assert_eq!(
        [
            summary.model_replies,
            summary.tool_calls,
            summary.paired,
            summary.errors,
            summary.parallel_groups,
        ],
        [3, 3, 3, 1, 1]
    );
    // Step 1 is the user's question, with the CLI's context before it in
    // the messages, and no later step is a user turn.
    let task = trace.messages.slice(..2);
    assert!(
        task[0].text.starts_with("<session_context>"),
        "{:?}",
        task[0].text
    );
    assert_eq!(
        &*task[1].text,
        "What is the limit in config.txt? Also look at missing.txt."
    );
    assert_eq!(
        agent_loop_sim::i18n::step_title(trace, 0),
        "The user's task arrives at the host"
    );
    assert!(
        !trace
            .steps
            .iter()
            .any(|s| s.kind == agent_loop_sim::trace::StepKind::UserTurn),
        "a results copy drawn as a user turn"
    );
    assert!(
        !trace
            .messages
            .iter()
            .any(|m| m.role == agent_loop_sim::trace::Role::User && m.text.is_empty())
    );
    let unread = &opened.loaded.card.conditions;
    assert!(
        unread
            .iter()
            .any(|c| c.get(Lang::En).contains("user/functionResponse ×2")),
        "{unread:?}"
    );
    // What those lines are is said in both languages.
    assert!(
        unread
            .iter()
            .any(|c| c.get(Lang::En).contains("a second time")
                && c.get(Lang::En).contains("lines 8, 13")
                && c.get(Lang::Zh).contains("再写一次")),
        "{unread:?}"
    );
    let how = &opened.loaded.card.about.how.get(Lang::En);
    assert!(
        how.contains("functionResponse names the functionCall it answers by its id"),
        "{how}"
    );
    // The missing file is an error result, paired with its own call.
    let missing = trace
        .calls
        .iter()
        .find(|c| c.args_text().contains("missing.txt"))
        .unwrap();
    assert!(missing.result.as_ref().unwrap().is_error);
    assert_eq!(missing.paired_to.as_ref(), Some(&missing.id));
}

/// The about overlay's pairing line is the file's own rule: ids by each
/// API's field, and by position where a mini-swe-agent run names no call.
#[test]
fn the_about_overlay_pairs_by_each_formats_own_rule() {
    for (name, says) in [
        ("chat.jsonl", "by its tool_call_id"),
        ("responses.json", "by its call_id"),
        ("codex.jsonl", "by its call_id"),
        (
            "anthropic.json",
            "by its tool_use_id, in the user message after the reply",
        ),
        ("claude-code.jsonl", "by its tool_use_id"),
        (
            "otel.json",
            "tool_call_response part names the tool_call part",
        ),
        (
            "cases/gemini-cli-checkpoint.json",
            "functionResponse names the functionCall",
        ),
        (
            "real/mini-swe-agent-gemini-django-13670.traj.json",
            "paired by position",
        ),
        (
            "real/mini-swe-agent-deepseek-sqlfluff-2419.traj.json",
            "by its tool_call_id",
        ),
    ] {
        let card = transcript::open(&fixture_path(name), None)
            .unwrap()
            .loaded
            .card;
        let (how, why) = (&card.about.how, &card.about.why);
        assert!(
            how.get(Lang::En).contains(says),
            "{name}: {}",
            how.get(Lang::En)
        );
        // No format's line names a pairing it does not have.
        assert!(
            !why.get(Lang::En).contains("call_id") && !why.get(Lang::Zh).contains("call_id"),
            "{name}"
        );
        if says == "paired by position" {
            assert!(
                !how.get(Lang::En).contains("_id"),
                "{name}: {}",
                how.get(Lang::En)
            );
            assert!(
                how.get(Lang::Zh).contains("按位置配对"),
                "{name}: {}",
                how.get(Lang::Zh)
            );
        }
    }
}

/// A user message after the first is a new turn of the same run, not the
/// task: its step says so, and `trace` gives that message, not the task.
#[test]
fn a_later_user_message_is_a_new_turn_not_the_task() {
    let file = fixture_path("real/codemie-codex-turn-2.jsonl");
    let trace = transcript::open(&file, None)
        .unwrap()
        .loaded
        .trace(Lang::En)
        .clone();
    use agent_loop_sim::trace::StepKind;
    let turns: Vec<usize> = (0..trace.len())
        .filter(|&i| trace.steps[i].kind == StepKind::UserTurn)
        .collect();
    assert_eq!(trace.steps[0].kind, StepKind::TaskArrives);
    assert!(!turns.is_empty());
    assert!(
        !trace
            .steps
            .slice(1..)
            .iter()
            .any(|s| s.kind == StepKind::TaskArrives)
    );
    assert_eq!(
        agent_loop_sim::i18n::step_title(&trace, turns[0]),
        "The user writes again: a new turn"
    );
    let out = run(&[
        "trace",
        "--transcript",
        &fixture("real/codemie-codex-turn-2.jsonl"),
        "--lang",
        "en",
    ]);
    let json: Value = serde_json::from_str(&out.stdout).unwrap();
    let steps = json["steps"].as_array().unwrap();
    let first = steps[0]["task"].as_str().unwrap();
    let later = steps[turns[0]]["text"].as_str().unwrap();
    assert_ne!(first, later);
    assert_eq!(steps[turns[0]]["kind"], "user_turn");
}

#[test]
fn a_file_of_no_known_format_says_what_was_recognised_and_which_formats_exist() {
    let out = run(&["trace", "--transcript", &fixture("bad/package.json")]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("not a transcript: recognised an object with the keys"),
        "{}",
        out.stderr
    );
    for format in Format::ALL {
        let name = agent_loop_sim::transcript::format_name(format);
        assert!(out.stderr.contains(name), "{name}: {}", out.stderr);
    }
    // The newest formats are among them, and JSON lines are refused alike.
    assert!(
        out.stderr
            .contains("mini-swe-agent trajectory (.traj.json)")
            && out.stderr.contains("Gemini CLI session"),
        "{}",
        out.stderr
    );
    let out = run(&[
        "trace",
        "--transcript",
        &fixture("bad/unknown-format.jsonl"),
    ]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("recognised an object with the keys \"event\", \"level\"")
            && out.stderr.contains("Gemini CLI session"),
        "{}",
        out.stderr
    );
}

// ------------------------------------------------ recorded request bodies

/// Files that record request bodies (made by `cases/make_recorded.py`):
/// an Anthropic request/response log with `thinking`, an image and the
/// web search server tool; a tap recording of the openai SDK (`gpt-5`,
/// streamed, reasoning included); a Responses request body with a
/// reasoning item, a `web_search_call` and an image, pretty-printed.
const RECORDED: [&str; 3] = [
    "anthropic-recorded.jsonl",
    "tap-sdk-gpt5.jsonl",
    "responses-recorded.json",
];

/// The request bodies a fixture holds, in order, each as the file writes
/// it, with the response recorded beside it (if any).
fn recorded_bodies(name: &str) -> Vec<(String, Option<Value>)> {
    let text = std::fs::read_to_string(fixture_path(&format!("cases/{name}"))).unwrap();
    if name.ends_with(".json") {
        return vec![(text.trim().to_string(), None)];
    }
    text.lines()
        .map(|l| {
            let line: Value = serde_json::from_str(l).unwrap();
            (line["request"].to_string(), line.get("response").cloned())
        })
        .collect()
}

/// `export --format requests` of a case: its lines.
fn exported_requests(name: &str) -> Vec<Value> {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("requests-{}", name.replace('/', "_")));
    std::fs::remove_dir_all(&dir).ok();
    let file = fixture(&format!("cases/{name}"));
    let out = run(&[
        "export",
        "--transcript",
        &file,
        "--format",
        "requests",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{name}: {}", out.stderr);
    let written = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".requests.jsonl"))
        .unwrap();
    std::fs::read_to_string(written)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The wire view (`w`) of a run at a step, the context panel zoomed.
fn wire_view(loaded: agent_loop_sim::load::Loaded, lang: Lang, step: usize) -> String {
    use agent_loop_sim::app::{Action, Panel};
    let mut app = App::new(loaded, lang, Theme::DARK);
    frames::apply(&mut app, Action::Resize(120, 40));
    frames::apply(&mut app, Action::ToggleWire);
    while app.focus != Panel::Context {
        frames::apply(&mut app, Action::FocusNext);
    }
    frames::apply(&mut app, Action::Zoom);
    let at = frames::at_step(&app, step, 120, 40);
    frames::to_text(&frames::render(&at, 120, 40))
}

/// The exported request of every model call whose body the file records
/// is that body, as a JSON value, and its response the recorded one; a
/// call whose body the file does not hold says it is rebuilt.
#[test]
fn a_recorded_request_is_exported_as_recorded() {
    for name in RECORDED {
        let bodies = recorded_bodies(name);
        let lines = exported_requests(name);
        // The calls before the one a body file records are rebuilt.
        let first = lines.len() - bodies.len();
        for line in &lines[..first] {
            assert_eq!(
                line["rebuilt"],
                "request rebuilt from the messages; model and parameters: not recorded",
                "{name}"
            );
            assert!(line["request"].get("model").is_none(), "{name}: {line}");
        }
        for (line, (body, response)) in lines[first..].iter().zip(&bodies) {
            let body: Value = serde_json::from_str(body).unwrap();
            assert_eq!(line["request"], body, "{name}");
            assert!(line.get("rebuilt").is_none(), "{name}");
            if let Some(response) = response {
                assert_eq!(&line["response"], response, "{name}");
            }
        }
    }
}

/// The wire view names the model the body names; the sizes are those of
/// the body as the file writes it: its bytes, and its o200k tokens. The
/// tools offered are the body's, counted as tools; its `tools` in bytes.
#[test]
fn a_recorded_request_is_shown_and_measured_as_recorded() {
    use agent_loop_sim::wire;
    let models = ["claude-haiku-4-5", "gpt-5", "gpt-4o"];
    for (name, model) in RECORDED.into_iter().zip(models) {
        let bodies = recorded_bodies(name);
        let opened = transcript::open(&fixture_path(&format!("cases/{name}")), None).unwrap();
        let trace = opened.loaded.trace(Lang::En).clone();
        let first = trace.model_calls.len() - bodies.len();
        for (k, (body, _)) in bodies.iter().enumerate() {
            let index = first + k;
            let mc = &trace.model_calls[index];
            assert_eq!(mc.context_size, body.len(), "{name} call #{}", mc.number);
            assert_eq!(
                wire::context_tokens(&trace, &opened.loaded.counts, index),
                wire::tokens::count(body),
                "{name} call #{}",
                mc.number
            );
            let value: Value = serde_json::from_str(body).unwrap();
            let tools = value["tools"].as_array().unwrap();
            assert_eq!(mc.tools_size, value["tools"].to_string().len(), "{name}");
            assert_eq!(trace.tools.len(), tools.len(), "{name}: tools counted");
            for lang in Lang::ALL {
                let text = wire_view(opened.loaded.clone(), lang, mc.step);
                assert!(text.contains(model), "{name} {lang:?}:\n{text}");
                assert!(
                    text.contains(&format!("{} ", body.len())),
                    "{name}: {} bytes\n{text}",
                    body.len()
                );
                for invented in ["claude-sonnet-4-5", "gpt-4.1", "[image]"] {
                    assert!(!text.contains(invented), "{name}: {invented}\n{text}");
                }
            }
        }
    }
}

/// A body rebuilt from a run's messages (a Codex rollout records none)
/// says so, in the wire view and in the export, and names no model and
/// no parameters it would have to invent.
#[test]
fn a_rebuilt_request_says_so_and_invents_no_model() {
    let lines = exported_requests("../codex.jsonl");
    assert!(!lines.is_empty());
    for line in &lines {
        assert!(line["rebuilt"].as_str().unwrap().contains("not recorded"));
        assert!(line["request"].get("model").is_none(), "{line}");
        assert!(line["request"].get("max_tokens").is_none(), "{line}");
        if let Some(response) = line["response"].as_object() {
            for key in ["model", "temperature", "tool_choice", "parallel_tool_calls"] {
                assert!(!response.contains_key(key), "{key}: {line}");
            }
        }
    }
    // Read back, the exported lines are still rebuilt bodies, not recorded.
    let back = Path::new(env!("CARGO_TARGET_TMPDIR")).join("codex-rebuilt.requests.jsonl");
    let text: Vec<String> = lines.iter().map(Value::to_string).collect();
    std::fs::write(&back, text.join("\n") + "\n").unwrap();
    let reread = transcript::open(back.to_str().unwrap(), None).unwrap();
    let trace = reread.loaded.trace(Lang::En);
    assert_eq!(trace.model_calls.len(), lines.len());
    for k in 0..lines.len() {
        assert!(agent_loop_sim::wire::rebuilt(trace, k), "call #{}", k + 1);
    }
    let opened = transcript::open(&fixture_path("codex.jsonl"), None).unwrap();
    let step = opened.loaded.trace(Lang::En).model_calls[0].step;
    for (lang, said) in [
        (Lang::En, "model and parameters: not recorded"),
        (Lang::Zh, "模型与参数：未记录"),
    ] {
        let text = wire_view(opened.loaded.clone(), lang, step);
        assert!(text.contains(said), "{lang:?}:\n{text}");
        assert!(!text.contains("\"model\""), "{lang:?}:\n{text}");
        assert!(!text.contains("gpt-4.1"), "{lang:?}:\n{text}");
    }
}

/// The readable context of a recorded body keeps what it holds: the
/// server tool among the tools offered (as a server tool), the image by
/// type and size, the thinking block by kind and size, the server tool's
/// call and result in the reply.
#[test]
fn the_readable_context_of_a_recorded_body_keeps_server_tools_images_and_thinking() {
    let opened = transcript::open(&fixture_path("cases/anthropic-recorded.jsonl"), None).unwrap();
    let trace = opened.loaded.trace(Lang::En);
    let tools = agent_loop_sim::i18n::tools_offered(trace, Lang::En);
    assert!(
        tools.starts_with("web_search (server tool web_search_20250305), read_file(path)"),
        "{tools}"
    );
    let texts: Vec<&str> = trace.messages.iter().map(|m| &*m.text).collect();
    let all = texts.join("\n");
    for shown in [
        "[image/png, 69 B]",
        "[thinking, 129 B]",
        "[server_tool_use srvtoolu_01WYG3ziw53XMcoyKL4XcZmE web_search {\"query\":\"default request timeout config.txt\"}]",
        "[web_search_tool_result srvtoolu_01WYG3ziw53XMcoyKL4XcZmE: 3 results, 2.0 KB]",
    ] {
        assert!(all.contains(shown), "{shown}\n{all}");
    }
    let opened = transcript::open(&fixture_path("cases/responses-recorded.json"), None).unwrap();
    let trace = opened.loaded.trace(Lang::En);
    let tools = agent_loop_sim::i18n::tools_offered(trace, Lang::En);
    assert!(
        tools.starts_with("web_search (server tool web_search), read_file(path)"),
        "{tools}"
    );
    let all: Vec<&str> = trace.messages.iter().map(|m| &*m.text).collect();
    let all = all.join("\n");
    assert!(all.contains("[image/png, 69 B]"), "{all}");
    assert!(
        all.contains("[web_search_call ws_68b1f0b1a2b38190 {\"type\":\"search\",\"query\":\"default request timeout\"}]"),
        "{all}"
    );
}

/// Every frame of the recorded-body cases, readable and as the wire view,
/// in both languages.
#[test]
fn every_frame_of_the_recorded_body_cases() {
    for name in RECORDED {
        let loaded = transcript::open(&fixture_path(&format!("cases/{name}")), None)
            .unwrap()
            .loaded;
        let stem = name.rsplit_once('.').unwrap().0;
        for lang in Lang::ALL {
            let app = App::new(loaded.clone(), lang, Theme::DARK);
            for step in 0..app.trace().len() {
                let at = frames::at_step(&app, step, 120, 40);
                let text = frames::to_text(&frames::render(&at, 120, 40));
                let snap = format!(
                    "transcript-{stem}__120x40__{}__step-{:02}",
                    lang.code(),
                    step + 1
                );
                settings().bind(|| insta::assert_snapshot!(snap, text));
                let text = wire_view(loaded.clone(), lang, step);
                let snap = format!(
                    "transcript-{stem}__wire__120x40__{}__step-{:02}",
                    lang.code(),
                    step + 1
                );
                settings().bind(|| insta::assert_snapshot!(snap, text));
            }
        }
    }
}

#[test]
fn a_compaction_item_in_the_replacement_history_is_that_compaction_not_a_second() {
    // Codex's replacement_history may hold the `compaction` item (the
    // encrypted summary the Responses API's compaction returns).
    let text = std::fs::read_to_string(fixture_path("cases/codex-compacted.jsonl")).unwrap();
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            if v["type"] == "compacted" {
                let history = v["payload"]["replacement_history"].as_array_mut().unwrap();
                history.push(
                    serde_json::json!({"type": "compaction", "encrypted_content": "gAAAAB-fake"}),
                );
            }
            v.to_string()
        })
        .collect();
    let file =
        std::env::temp_dir().join(format!("als-compaction-item-{}.jsonl", std::process::id()));
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let opened = transcript::open(file.to_str().unwrap(), None).unwrap();
    std::fs::remove_file(&file).unwrap();
    let about: Vec<&str> = opened
        .loaded
        .card
        .conditions
        .iter()
        .map(|t| t.get(Lang::En))
        .collect();
    let about = about.join("\n");
    assert!(
        about.contains("1 compaction(s) record the history"),
        "{about}"
    );
    assert!(!about.contains("shorter than shown here"), "{about}");
}

/// Every model call of every transcript here: its explanation counts the
/// request's list as its context heading does (Chat's system prompt as
/// message 1, Anthropic's turns as one message each, Responses' items),
/// in both languages.
#[test]
fn each_calls_explanation_counts_what_its_context_heading_counts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut checked = 0;
    for dir in [root.clone(), root.join("cases"), root.join("real")] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.to_string_lossy().to_string();
            let data = [".json", ".jsonl", ".traj"]
                .iter()
                .any(|e| name.ends_with(e));
            if !path.is_file() || !data || name.contains("expect") || name.contains("manifest") {
                continue;
            }
            let Ok(opened) = transcript::open(&name, None) else {
                continue;
            };
            for lang in Lang::ALL {
                let trace = opened.loaded.trace(lang);
                for step in trace.steps.iter() {
                    let agent_loop_sim::trace::StepKind::ModelCall { number } = step.kind else {
                        continue;
                    };
                    let (len, new) = agent_loop_sim::wire::list_counts(trace, number as usize - 1);
                    let said = step.narration.as_deref().unwrap_or_default();
                    let (list, fresh) = match lang {
                        Lang::Zh => (format!(" {len} "), format!("其中 {new} 条")),
                        _ => (format!(" {len} "), format!("({new} new")),
                    };
                    let rewritten = said.contains("does not extend")
                        || said.contains("对不上")
                        || said.contains("previous_response_id");
                    assert!(
                        said.contains(&list),
                        "{name} call #{number} ({len}, {new}): {said}"
                    );
                    assert!(
                        rewritten
                            || said.contains(&fresh)
                            || said.contains(&format!("（{new} 条新的")),
                        "{name} call #{number} ({len}, {new}): {said}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 300, "{checked}");
}

/// Codex sends its instructions as developer items, drawn together as the
/// instructions row: at its first call every item is new, those too.
#[test]
fn at_a_first_call_every_item_is_new_also_those_drawn_as_instructions() {
    let opened = transcript::open(&fixture_path("real/cli/codex.tap.jsonl"), None).unwrap();
    let trace = opened.loaded.trace(Lang::En);
    assert_eq!(agent_loop_sim::wire::list_counts(trace, 0), (4, 4));
    let (items, new) = agent_loop_sim::wire::list_counts(trace, 1);
    assert!(new < items, "({items}, {new})");
}
