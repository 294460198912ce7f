//! Edges of the batch commands found by the attack of issue 39: a closed
//! standard output, `--out` naming a file, `FILE#N` on a file of one run.

mod common;

use std::os::unix::process::CommandExt;
use std::process::Stdio;

use common::{command, run, wait};

/// Standard output closed (`agent-loop-sim list >&-`): Rust's stdout
/// drops every write without an error, so the command must notice itself.
#[test]
fn a_closed_standard_output_is_an_error_not_a_silent_success() {
    for args in [
        &["list"][..],
        &["trace", "read-config-timeout"],
        &["transcript", "read-config-timeout"],
    ] {
        let mut cmd = command(args);
        cmd.stderr(Stdio::piped());
        // SAFETY: close(2) in the child before exec; no allocation.
        unsafe {
            cmd.pre_exec(|| {
                libc::close(1);
                Ok(())
            });
        }
        let mut child = cmd.spawn().unwrap();
        let mut err = child.stderr.take().unwrap();
        let err = std::thread::spawn(move || std::io::read_to_string(&mut err).unwrap());
        let status = wait(&mut child, args);
        let err = err.join().unwrap();
        assert_eq!(status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("standard output is closed"), "{args:?}: {err}");
    }
    // /dev/null, as a shell or Python's DEVNULL (read-write) opens it, is
    // a reader like any other.
    let null = std::fs::File::options()
        .read(true)
        .write(true)
        .open("/dev/null")
        .unwrap();
    let mut child = command(&["list"]).stdout(null).spawn().unwrap();
    assert_eq!(wait(&mut child, &["list"]).code(), Some(0));
}

#[test]
fn out_naming_a_file_says_so() {
    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("out-is-a-file.txt");
    std::fs::write(&file, "not a folder").unwrap();
    let out = run(&["export", "--format", "txt", "--out", file.to_str().unwrap()]);
    let err = &out.stderr;
    assert_ne!(out.code, 0, "{err}");
    assert!(err.contains("is a file; expected a folder"), "{err}");
    assert!(!err.contains("File exists"), "{err}");
}

#[test]
fn a_run_number_on_a_file_of_one_run_is_refused() {
    let out = run(&[
        "transcript",
        "--transcript",
        "tests/transcripts/chat.jsonl#7",
    ]);
    let err = &out.stderr;
    assert_eq!(out.code, 2, "{err}");
    assert!(
        err.contains("the file holds one run; run 7 is not one of them"),
        "{err}"
    );
    // `#1` is the one run.
    let out = run(&[
        "transcript",
        "--transcript",
        "tests/transcripts/chat.jsonl#1",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

/// `--lang pseudo` (left out of the help) shows a lesson's run told in the
/// pseudo-locale, English accented and lengthened; a transcript's words
/// are made as it is read, in zh or en, and it is refused with why.
#[test]
fn the_pseudo_locale_tells_a_lesson_and_refuses_a_transcript() {
    let trace = |lang: &str| {
        let out = run(&["--lang", lang, "trace", "read-config-timeout"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        serde_json::from_str::<serde_json::Value>(&out.stdout).unwrap()
    };
    let (pseudo, en) = (trace("pseudo"), trace("en"));
    let (pseudo, en) = (&pseudo["scenario"], &en["scenario"]);
    assert_eq!(pseudo["lang"], "pseudo");
    let (title, english) = (
        pseudo["title"].as_str().unwrap(),
        en["title"].as_str().unwrap(),
    );
    assert!(
        !title.is_ascii() && title.chars().count() > english.len(),
        "{title}"
    );
    assert_eq!(pseudo["steps"], en["steps"]);
    let out = run(&[
        "--lang",
        "pseudo",
        "transcript",
        "--transcript",
        "tests/transcripts/chat.jsonl",
    ]);
    let err = &out.stderr;
    assert_eq!(out.code, 2, "{err}");
    assert!(
        err.contains("--lang pseudo shows a lesson's run, not a transcript's"),
        "{err}"
    );
    // A lesson tuned to a token count would compact elsewhere with texts
    // a third longer: refused, with the counts.
    let out = run(&["--lang", "pseudo", "trace", "context-compaction-summary"]);
    let err = &out.stderr;
    assert_eq!(out.code, 2, "{err}");
    assert!(
        err.contains("the lesson runs otherwise in pseudo")
            && err.contains("in zh, within the window"),
        "{err}"
    );
    let help = run(&["--help"]);
    assert!(
        help.stdout.contains("--lang") && !help.stdout.contains("pseudo"),
        "{}",
        help.stdout
    );
}

/// A real run's file given where a scenario belongs (`trace FILE`,
/// `check FILE`, `--scenario FILE`) is named as the transcript it is, with
/// the option that opens it, not refused for the scenario fields its first
/// line lacks. No scenario, shipped or an example, reads as a transcript.
#[test]
fn a_transcript_given_as_a_scenario_says_how_to_open_it() {
    let file = "tests/transcripts/real/cli/claude-code-session.jsonl";
    for args in [
        &["trace", file][..],
        &["transcript", file],
        &["check", file],
        &[
            "--scenario",
            file,
            "export",
            "--format",
            "txt",
            "--out",
            "/nonexistent-dir",
        ],
    ] {
        let out = run(args);
        let err = &out.stderr;
        assert_eq!(out.code, 2, "{args:?}: {err}");
        assert!(
            err.contains(&format!(
                "this is a transcript (Claude Code session), not a scenario; open it with --transcript {file}"
            )) && !err.contains("unknown field"),
            "{args:?}: {err}"
        );
    }
    let shipped = agent_loop_sim::load::CATALOG
        .iter()
        .map(|(_, s)| s.as_bytes().to_vec());
    let examples = std::fs::read_dir("scenarios")
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap());
    for bytes in shipped.chain(examples) {
        assert_eq!(agent_loop_sim::transcript::detect_bytes(&bytes), None);
    }
}

/// `--transcript FILE` before `trace` or `transcript` opens it as after
/// them (clap does not see a global option given before the subcommand
/// when it checks what the subcommand requires); with neither a scenario
/// nor a transcript, and with `--scenario`, the command says what it takes.
#[test]
fn trace_and_transcript_take_the_transcript_option_on_either_side() {
    let file = "tests/transcripts/real/cli/claude-code-session.jsonl";
    for command in ["trace", "transcript"] {
        let after = run(&[command, "--transcript", file]);
        let before = run(&["--transcript", file, command]);
        assert_eq!(after.code, 0, "{command}: {}", after.stderr);
        assert_eq!(before.code, 0, "{command}: {}", before.stderr);
        assert_eq!(before.stdout, after.stdout, "{command}");
        let none = run(&[command]);
        assert_eq!(none.code, 2, "{command}");
        assert!(
            none.stderr.contains(&format!(
                "{command}: expected a scenario (NAME|FILE) or --transcript FILE"
            )),
            "{command}: {}",
            none.stderr
        );
        let scenario = run(&["--scenario", "default", command]);
        assert_eq!(scenario.code, 2, "{command}");
        assert!(
            scenario
                .stderr
                .contains("trace and transcript take the scenario as their argument"),
            "{command}: {}",
            scenario.stderr
        );
    }
}
