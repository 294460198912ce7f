//! `agent-loop-sim transcript`: the run as plain text, for screen readers,
//! alt text and grep — the same trace as the screen, with no box drawing.

mod common;

use agent_loop_sim::load::{self, CATALOG};
use agent_loop_sim::scenario::Lang;
use common::run;

fn box_drawing(text: &str) -> Option<char> {
    text.chars().find(|c| ('\u{2500}'..='\u{259F}').contains(c))
}

#[test]
fn the_default_run_reads_step_by_step_with_its_pairing() {
    let out = run(&["transcript", "read-config-timeout", "--lang", "en"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = out.stdout;
    for k in 1..=8 {
        assert!(
            text.contains(&format!("Step {k}/8 — ")),
            "step {k}:\n{text}"
        );
    }
    assert!(text.contains("call_1") && text.contains("timeout=30"));
    // The context of model call #2, exactly as sent, with call_1's result,
    // numbered as the context panel numbers it (the system message is 1).
    assert!(text.contains("+ 4. tool: [call_1] timeout=30"), "{text}");
    assert!(text.contains("call_1 read_file {\"path\": \"config.txt\"} — done ⇒ timeout=30"));
    assert_eq!(box_drawing(&text), None);
}

#[test]
fn each_message_is_written_once_and_the_whole_context_on_request() {
    let linear = run(&["transcript", "read-config-timeout", "--lang", "en"]).stdout;
    // Model call #2 names the system prompt and the task it sent before
    // and writes what is new.
    assert!(
        linear.contains("  already sent on an earlier call (shown there): 1–2 · --full-context"),
        "{linear}"
    );
    assert_eq!(linear.matches("  + 1. system: ").count(), 1, "{linear}");
    assert_eq!(linear.matches("  + 2. user: ").count(), 1, "{linear}");
    assert!(!linear.contains("    2. user: "), "{linear}");
    let full = run(&[
        "transcript",
        "read-config-timeout",
        "--lang",
        "en",
        "--full-context",
    ]);
    assert_eq!(full.code, 0, "{}", full.stderr);
    let full = full.stdout;
    assert!(full.contains("    1. system: "), "{full}");
    assert!(full.contains("    2. user: "), "{full}");
    assert!(!full.contains("already sent"), "{full}");
    // The same steps either way; only the contexts differ.
    let steps = |t: &str| t.lines().filter(|l| l.starts_with("Step ")).count();
    assert_eq!(steps(&linear), steps(&full));
}

/// The context is written as each provider's list holds it, as the
/// context panel draws it: Anthropic's system prompt is a field, not a
/// message, and the results of one turn are blocks of one user message;
/// a Responses call is an input item of its own.
#[test]
fn each_provider_s_list_is_numbered_as_the_screen_numbers_it() {
    let anthropic = run(&["transcript", "parallel-calls-anthropic", "--lang", "en"]).stdout;
    assert!(anthropic.contains("  +    system: You are"), "{anthropic}");
    assert!(anthropic.contains("  + 1. user: Compare"), "{anthropic}");
    // Call #2: the reply (2), then one user message (3) with both results,
    // in call order (the host holds the early one).
    assert!(
        anthropic.contains("  + 3. user tool_result: [toolu_01CFzxXQSv7KF6AsFxHrLx5e] PORT=443"),
        "{anthropic}"
    );
    assert!(
        anthropic.contains("  +    tool_result: [toolu_01vXxV6zevtANCXDimBJGJkY] PORT=8080"),
        "{anthropic}"
    );
    let responses = run(&["transcript", "harness-answers-with-item-id", "--lang", "en"]).stdout;
    assert!(responses.contains("  +    instructions: "), "{responses}");
    assert!(
        responses.contains("→ 3. function_call call_mLAhv5WDxfcCQbBppWLHzYHT read_file"),
        "{responses}"
    );
    assert!(
        responses.contains("  + 4. function_call_output: [fc_"),
        "{responses}"
    );
    // Call #2 sends 4 input items: the 1 sent before is named.
    assert!(
        responses.contains("already sent on an earlier call (shown there): 1 ·"),
        "{responses}"
    );
}

#[test]
fn every_scenario_in_both_languages_has_every_step_and_no_box_drawing() {
    for (name, _) in CATALOG {
        let steps = load::load(name).unwrap().trace(Lang::En).len();
        for (lang, word) in [("en", "Step"), ("zh", "步骤")] {
            let out = run(&["transcript", name, "--lang", lang]);
            assert_eq!(out.code, 0, "{name}: {}", out.stderr);
            let headings = out
                .stdout
                .lines()
                .filter(|l| {
                    l.starts_with(&format!("{word} ")) && l.contains(&format!("/{steps} — "))
                })
                .count();
            assert_eq!(headings, steps, "{name} {lang}");
            assert_eq!(box_drawing(&out.stdout), None, "{name} {lang}");
            if lang == "zh" {
                assert!(!out.stdout.contains(". assistant:"), "{name}");
            }
        }
    }
}

#[test]
fn a_replayed_transcript_reads_the_same_way_and_bad_input_is_refused() {
    let out = run(&[
        "transcript",
        "--transcript",
        "tests/transcripts/anthropic.json",
        "--lang",
        "en",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("Step 1/"), "{}", out.stdout);
    let bad = run(&["transcript", "/nonexistent.json"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("/nonexistent.json"), "{}", bad.stderr);
}

/// What the screen says and the plain text used to leave out: the final
/// answer in the model's words, the inner-loop line, the environment and
/// disk lines, and the user's edit at the step it is made.
#[test]
fn the_plain_run_says_what_the_screen_says() {
    let text = run(&["transcript", "read-config-timeout", "--lang", "en"]).stdout;
    let last = text.split("Step 8/8").nth(1).unwrap();
    assert!(
        last.contains("The model's reply: The timeout in config.txt is 30."),
        "{last}"
    );
    assert!(
        last.contains("Inner loop: model call #2 generated about"),
        "{last}"
    );
    assert!(
        last.contains("Environment (Tool): config.txt: read"),
        "{last}"
    );
    assert!(
        last.contains("Disk (not sent to the model): config.txt"),
        "{last}"
    );
    // The user's decision is a step of its own, and it names the call.
    let text = run(&["transcript", "approve-side-effects", "--lang", "en"]).stdout;
    let approve = text
        .split("Step 10/29")
        .nth(1)
        .unwrap()
        .split("Step 11/29")
        .next()
        .unwrap();
    assert!(
        approve.contains("write_file {\"path\": \"VERSION\""),
        "{approve}"
    );
    assert!(approve.contains("— user ok"), "{approve}");
}

/// `transcript --quiz`: each question before its step, numbered choices,
/// and the answer after the step, the same as the simulator asks.
#[test]
fn transcript_quiz_reads_each_question_then_the_step_then_its_answer() {
    let out = run(&["transcript", "--quiz", "patch-and-test", "--lang", "en"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let loaded = load::load("patch-and-test").unwrap();
    let trace = loaded.trace(Lang::En);
    let asked = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("Quiz: "))
        .count();
    let mut chosen = 0;
    for index in 1..trace.len() {
        // Only the lesson's chosen steps (`quiz_steps`) are asked about.
        let Some(q) = agent_loop_sim::quiz::asked(&loaded, trace, index) else {
            continue;
        };
        chosen += 1;
        let block = out
            .stdout
            .split(&format!("Step {}/{} — ", index + 1, trace.len()))
            .collect::<Vec<_>>();
        let before = block[0].rsplit("\n\n").nth(1).unwrap();
        assert!(
            before.starts_with(&format!("Quiz: {}", q.prompt)),
            "{before}"
        );
        for (k, c) in q.choices.iter().enumerate() {
            let line = format!("  [{}] {c}", k + 1);
            assert!(before.lines().any(|l| l == line), "{before}");
        }
        let step = block[1].split("\nQuiz: ").next().unwrap();
        let answer = format!("Answer: [{}] {}", q.answer + 1, q.choices[q.answer]);
        assert!(step.contains(&answer), "{step}");
    }
    assert_eq!((asked, chosen), (chosen, 5));
    // Without --quiz, no question.
    let plain = run(&["transcript", "patch-and-test", "--lang", "en"]).stdout;
    assert!(!plain.contains("Quiz: ") && !plain.contains("Answer: ["));
}

/// An option the command does not use is refused with exit 2 and says
/// where it applies, instead of being silently ignored.
#[test]
fn options_a_command_ignores_are_refused() {
    for args in [
        &["list", "--quiz"][..],
        &["check", "read-config-timeout", "--compare", "no-such-thing"],
        &[
            "trace",
            "read-config-timeout",
            "--scenario",
            "wrong-path-first",
        ],
        &[
            "transcript",
            "read-config-timeout",
            "--compare",
            "wrong-path-first",
        ],
        &["transcript", "read-config-timeout", "--redact"],
        &["trace", "read-config-timeout", "--quiz"],
        &["--redact", "list"],
    ] {
        let out = run(args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(
            out.stderr.contains("is not used by") || out.stderr.contains("applies to a transcript"),
            "{args:?}: {}",
            out.stderr
        );
    }
}
