//! The batch commands under hostile conditions (issue 13): a reader that
//! stops reading, a full disk, text made to act on a terminal, long runs.

mod common;

use std::fs::File;
use std::process::Stdio;

use common::{BIN, command, long_scenario, run, scenario_file, wait};

/// Every byte a terminal would act on instead of drawing: C0 controls but
/// the line break, DEL, C1 controls and the bidi controls.
fn unsafe_chars(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| {
            (c.is_control() && c != '\n')
                || ('\u{202A}'..='\u{202E}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c)
                || ['\u{200B}', '\u{200E}', '\u{200F}', '\u{FEFF}', '\u{2028}'].contains(&c)
        })
        .collect()
}

fn export_dir(name: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir.to_str().unwrap().to_string()
}

fn files_in(dir: &str) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.count())
}

const EXPORT_TXT: [&str; 4] = ["export", "--format", "txt", "--out"];

/// Run with stdout a pipe whose reading end is closed before the program
/// writes: every write fails with EPIPE, as after `| head -1` has read its line.
fn run_with_closed_stdout(args: &[&str]) -> (i32, String) {
    let mut child = command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut err = child.stderr.take().unwrap();
    let err = std::thread::spawn(move || std::io::read_to_string(&mut err).unwrap());
    let status = wait(&mut child, args);
    (
        status.code().expect("exited, not killed by SIGPIPE"),
        err.join().unwrap(),
    )
}

fn run_with_full_stdout(args: &[&str]) -> (i32, String) {
    let full = File::options().write(true).open("/dev/full").unwrap();
    let mut child = command(args)
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = child.stderr.take().unwrap();
    let err = std::thread::spawn(move || std::io::read_to_string(&mut err).unwrap());
    let status = wait(&mut child, args);
    (status.code().unwrap(), err.join().unwrap())
}

#[test]
fn help_and_version_that_cannot_be_written_fail() {
    for args in [["--help"], ["--version"]] {
        let (code, err) = run_with_full_stdout(&args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert_eq!(
            err.trim_end(),
            "agent-loop-sim: cannot write the output: No space left on device",
            "{args:?}"
        );
    }
    let help = run(&["--help"]);
    assert_eq!(help.code, 0);
    assert!(help.stdout.contains("Usage"), "{}", help.stdout);
    assert_eq!(run(&["--no-such-option"]).code, 2);
}

#[test]
fn a_reader_that_stops_reading_ends_every_command_quietly() {
    let out = export_dir("closed-pipe-export");
    let commands: [Vec<&str>; 4] = [
        vec!["list"],
        vec![
            "check",
            "scenarios/read-config-timeout.json",
            "wrong-path-first",
        ],
        vec!["trace", "patch-and-test"],
        [&EXPORT_TXT[..], &[out.as_str()]].concat(),
    ];
    for args in &commands {
        let (code, err) = run_with_closed_stdout(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert_eq!(err, "", "{args:?}: nothing on stderr");
    }
    // Export stopped printing, not writing: every frame is on disk.
    assert_eq!(files_in(&out), 8);
}

#[test]
fn a_full_disk_is_one_line_and_exit_code_1() {
    let out = export_dir("full-disk-export");
    let commands: [Vec<&str>; 4] = [
        vec!["list"],
        vec!["check", "read-config-timeout"],
        vec!["trace", "read-config-timeout"],
        [&EXPORT_TXT[..], &[out.as_str()]].concat(),
    ];
    for args in &commands {
        let (code, err) = run_with_full_stdout(args);
        assert_eq!(code, 1, "{args:?}: {err}");
        let err = err.trim_end();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with(&format!("{}: cannot write the output: ", args[0]))
                && err.contains("No space left on device")
                && !err.contains("panicked")
                && !err.contains("os error"),
            "{args:?}: {err}"
        );
    }
    assert_eq!(files_in(&out), 8);
}

#[test]
fn head_after_a_pipe_gives_no_panic() {
    // The way a user meets it: a real `| head -1` in a shell.
    for args in ["list", "check scenarios/*.json", "trace budget-exhausted"] {
        let script = format!("{BIN} {args} | head -1 >/dev/null; exit ${{PIPESTATUS[0]}}");
        let out = std::process::Command::new("bash")
            .args(["-c", &script])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args}: {err}");
        assert_eq!(err, "", "{args}");
    }
}

/// The default scenario with text made to act on a terminal: an OSC title
/// change ending in BEL, a CSI as one C1 character, a right-to-left
/// override, and emoji sequences whose width terminals disagree on.
fn hostile_scenario() -> String {
    let source = include_str!("../scenarios/read-config-timeout.json");
    let mut s: serde_json::Value = serde_json::from_str(source).unwrap();
    let evil = "\u{1b}]0;owned\u{7} \u{9b}31m \u{202e}txt.exe \u{7f} \
                \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} \u{2764}\u{FE0F} \u{1F1F3}\u{1F1F1}";
    for field in ["title", "task"] {
        for lang in ["zh", "en"] {
            let text = s[field][lang].as_str().unwrap().to_string();
            s[field][lang] = format!("{text} {evil}").into();
        }
    }
    s["narration"]["3"]["en"] = format!("narrated {evil}").into();
    s["files"] = serde_json::json!({ "config.txt": format!("timeout=30 {evil}") });
    serde_json::to_string_pretty(&s).unwrap()
}

#[test]
fn scenario_text_never_reaches_the_output_raw() {
    let file = scenario_file("hostile-text.json", &hostile_scenario());
    for shape in [None, Some("--full-context")] {
        let mut args = vec!["trace", file.as_str(), "--lang", "en"];
        args.extend(shape);
        let out = run(&args);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert_eq!(unsafe_chars(&out.stdout), Vec::<char>::new(), "{shape:?}");
        for joiner in ['\u{200D}', '\u{FE0F}', '\u{1F1F3}'] {
            assert!(!out.stdout.contains(joiner), "{joiner:?} in the trace");
        }
        // What was escaped is still there to read.
        let t: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        let task = t["steps"][0]["task"].as_str().unwrap();
        assert!(
            task.contains("\\u{1b}]0;owned\\u{7}") && task.contains("\\u{202e}txt.exe"),
            "{task}"
        );
        assert!(
            task.contains("\u{1F468}\u{1F469}\u{1F467} \u{2764} [NL]"),
            "{task}"
        );
    }
    for format in ["svg", "txt", "ansi", "cast"] {
        let out = export_dir(&format!("hostile-{format}"));
        let args = [
            "--scenario",
            &file,
            "--lang",
            "en",
            "export",
            "--format",
            format,
            "--out",
            &out,
        ];
        let result = run(&args);
        assert_eq!(result.code, 0, "{}", result.stderr);
        for entry in std::fs::read_dir(&out).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            // ansi and cast files hold the program's own colour codes (ESC [
            // ... m): those are the only escapes allowed.
            let own_escapes = regex_free_strip_sgr(&text);
            let found = unsafe_chars(&own_escapes);
            assert!(found.is_empty(), "{}: {found:?}", path.display());
            assert!(!text.contains("owned\u{7}"), "{}", path.display());
        }
    }
}

/// Text without the SGR sequences (`ESC [ digits;... m`) and the cursor
/// and clearing sequences the cast writes itself.
fn regex_free_strip_sgr(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('\u{1b}') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let body = after.strip_prefix('[').map(|b| {
            let end = b
                .find(|c: char| !(c.is_ascii_digit() || c == ';' || c == '?'))
                .unwrap_or(b.len());
            (end, b[end..].chars().next())
        });
        match body {
            Some((end, Some('m' | 'H' | 'J' | 'l' | 'h'))) => rest = &after[1 + end + 1..],
            _ => {
                out.push('\u{1b}');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn file_names_and_errors_are_escaped_where_they_are_printed() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let name = dir.join("title-\u{1b}]0;owned\u{7}-\u{202e}.json");
    std::fs::write(&name, include_str!("../scenarios/read-config-timeout.json")).unwrap();
    let name = name.to_str().unwrap();

    let checked = run(&["check", name]);
    assert_eq!(checked.code, 0, "{}", checked.stderr);
    assert_eq!(unsafe_chars(&checked.stdout), Vec::<char>::new());
    assert!(
        checked
            .stdout
            .contains("title-\\u{1b}]0;owned\\u{7}-\\u{202e}.json: ok"),
        "{}",
        checked.stdout
    );

    // The no-terminal message names the scenario too.
    let refused = run(&["--scenario", name]);
    assert_ne!(refused.code, 0);
    assert_eq!(unsafe_chars(&refused.stderr), Vec::<char>::new());
    assert!(
        refused.stderr.contains("\\u{1b}]0;owned"),
        "{}",
        refused.stderr
    );

    // Export lists the files it writes, under a folder of that name.
    let out = dir.join("out-\u{1b}[2J-\u{9b}H");
    let _ = std::fs::remove_dir_all(&out);
    let exported = run(&[
        "--scenario",
        name,
        "export",
        "--format",
        "txt",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(exported.code, 0, "{}", exported.stderr);
    assert_eq!(exported.stdout.lines().count(), 8);
    assert_eq!(unsafe_chars(&exported.stdout), Vec::<char>::new());

    // A missing file, and an error quoting a C1 control and an override.
    let missing = run(&["check", &format!("{name}.missing")]);
    assert_eq!(missing.code, 2);
    assert_eq!(unsafe_chars(&missing.stderr), Vec::<char>::new());
    let mut s: serde_json::Value =
        serde_json::from_str(include_str!("../scenarios/read-config-timeout.json")).unwrap();
    s["model"][0]["calls"][0]["tool"] = "read\u{9b}2J\u{202e}".into();
    let bad = scenario_file("bad-c1-tool.json", &s.to_string());
    let refused = run(&["check", &bad]);
    assert_eq!(refused.code, 2);
    assert_eq!(unsafe_chars(&refused.stderr), Vec::<char>::new());
    assert!(
        refused.stderr.contains("\\u{9b}2J\\u{202e}"),
        "{}",
        refused.stderr
    );
}

/// The default scenario with `edit` applied to its JSON, as a file.
fn edited_default(name: &str, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut s: serde_json::Value =
        serde_json::from_str(include_str!("../scenarios/read-config-timeout.json")).unwrap();
    edit(&mut s);
    scenario_file(name, &s.to_string())
}

#[test]
fn an_interrupted_export_leaves_no_temporary_file() {
    let scenario = scenario_file("interrupted.json", &long_scenario::json(2000));
    for (signal, name) in [(libc::SIGTERM, "term"), (libc::SIGINT, "int")] {
        let out = export_dir(&format!("interrupted-{name}"));
        let args = [
            "--scenario",
            &scenario,
            "export",
            "--format",
            "cast",
            "--out",
            &out,
        ];
        let mut child = command(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // The recording of 10,002 steps is written for seconds: stop it
        // once its temporary file is there.
        let temps = || -> Vec<String> {
            std::fs::read_dir(&out).map_or(Vec::new(), |d| {
                d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .filter(|n| n.ends_with(".tmp"))
                    .collect()
            })
        };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while temps().is_empty() {
            assert!(
                std::time::Instant::now() < deadline,
                "no temporary file appeared"
            );
            assert!(
                child.try_wait().unwrap().is_none(),
                "the export ended first"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(child.id() as libc::pid_t, signal) };
        let status = wait(&mut child, &args);
        assert_eq!(status.code(), Some(128 + signal), "{name}: {status:?}");
        assert_eq!(temps(), Vec::<String>::new(), "{name}");
        assert_eq!(files_in(&out), 0, "{name}: nothing half-written is left");
    }
}

#[test]
fn output_names_never_start_with_a_dash_and_foreign_names_stay_apart() {
    // A scenario named "-rf" is refused, at the field that says it.
    let dashed = edited_default("-rf.json", |s| s["name"] = "-rf".into());
    let checked = run(&["check", &dashed]);
    assert_eq!(checked.code, 2);
    assert!(
        checked.stderr.contains("at name: expected a short name of lowercase letters, digits and '-', starting with a letter or digit, got \"-rf\""),
        "{}",
        checked.stderr
    );
    // Transcripts are named by their file: "-rf", "会话" and "对话".
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let chat = include_str!("transcripts/chat.jsonl");
    let out = export_dir("foreign-names");
    for file in ["-rf.jsonl", "会话.jsonl", "对话.jsonl", "résumé.jsonl"] {
        let path = dir.join(file);
        std::fs::write(&path, chat).unwrap();
        let exported = run(&[
            "export",
            "--format",
            "txt",
            "--out",
            &out,
            "--steps",
            "1",
            "--transcript",
            path.to_str().unwrap(),
        ]);
        assert_eq!(exported.code, 0, "{file}: {}", exported.stderr);
    }
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 4, "one file each, none overwritten: {names:?}");
    for name in &names {
        assert!(
            name.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.+".contains(c))
                && !name.starts_with(['-', '.']),
            "{name}"
        );
    }
    // Named by folder (target/tmp) and file; a name that had to change
    // keeps what it can and gains `+` and a hash.
    assert!(names.iter().any(|n| n.starts_with("tmp.rf+")), "{names:?}");
    assert!(
        names.iter().any(|n| n.starts_with("tmp.r-sum+")),
        "{names:?}"
    );
}

#[test]
fn a_file_name_holding_a_control_is_refused_by_check_as_by_every_command() {
    let file = edited_default("esc-file-key.json", |s| {
        s["files"]["a\u{1b}[31mred\u{202e}.txt"] = "x".into();
    });
    let mut messages = Vec::new();
    for args in [
        vec!["check", file.as_str()],
        vec!["trace", file.as_str()],
        vec!["transcript", file.as_str()],
        vec![
            "--scenario",
            file.as_str(),
            "export",
            "--format",
            "txt",
            "--out",
            "/nonexistent/x",
        ],
    ] {
        let out = run(&args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert_eq!(unsafe_chars(&out.stderr), Vec::<char>::new(), "{args:?}");
        messages.push(out.stderr);
    }
    let first = messages[0].lines().next().unwrap();
    assert!(
        first.contains(r#"at files["a\u{1b}[31mred\u{202e}.txt"]: expected a file name without control, bidirectional or invisible characters"#),
        "{first}"
    );
    for m in &messages[1..] {
        assert_eq!(
            m.lines().next().unwrap(),
            messages[0].lines().next().unwrap()
        );
    }
}

#[test]
fn wrong_values_are_named_as_what_they_are() {
    for (text, holds) in [
        ("null", "null"),
        ("  true\n", "a boolean (true or false)"),
        ("nul", "text that is not JSON"),
    ] {
        let file = scenario_file("literal.json", text);
        let out = run(&["check", &file]);
        assert_eq!(out.code, 2);
        assert!(
            out.stderr
                .contains(&format!("but the file holds {holds}\n")),
            "{text}: {}",
            out.stderr
        );
    }
    let transcript = scenario_file("null.jsonl", "null\n");
    let out = run(&["trace", "--transcript", &transcript]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("the file holds JSON null;"),
        "{}",
        out.stderr
    );

    for budget in [-1, 0, 10_001] {
        let file = edited_default("budget.json", |s| s["budget"] = budget.into());
        let out = run(&["check", &file]);
        assert_eq!(out.code, 2);
        assert!(
            out.stderr
                .contains("at budget: expected a number of model calls from 1 to 10000"),
            "{budget}: {}",
            out.stderr
        );
        assert!(!out.stderr.contains("0 or more"), "{}", out.stderr);
    }
}

#[test]
fn transcript_grows_linearly_with_the_run() {
    let size = |calls: u32| {
        let file = scenario_file(&format!("long-{calls}.json"), &long_scenario::json(calls));
        let out = run(&["transcript", &file, "--lang", "en"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        out.stdout.len()
    };
    let (half, full) = (size(1000), size(2000));
    assert!(
        full < 20 * 1024 * 1024,
        "a 2,000-call transcript is {full} bytes, over 20 MB"
    );
    let ratio = full as f64 / half as f64;
    assert!(
        (1.9..2.2).contains(&ratio),
        "{half} → {full} bytes: ×{ratio:.2}"
    );
}

#[test]
fn trace_grows_linearly_with_the_run() {
    let size = |calls: u32| {
        let file = scenario_file(&format!("long-{calls}.json"), &long_scenario::json(calls));
        let out = run(&["trace", &file]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        out.stdout.len()
    };
    let (half, full) = (size(1000), size(2000));
    assert!(
        full < 50 * 1024 * 1024,
        "a 2,000-call trace is {full} bytes, over 50 MB"
    );
    // Twice the calls, about twice the bytes (call numbers grow a digit).
    let ratio = full as f64 / half as f64;
    assert!(
        (1.9..2.2).contains(&ratio),
        "{half} → {full} bytes: ×{ratio:.2}"
    );
}

#[test]
fn chat_and_codex_arguments_names_and_texts_reach_no_output_raw() {
    // Escaped in the file's JSON, so a reader sees them only once it parses.
    let evil = "a\u{9b}2J\u{202e}b\u{7f}c\u{200b}d\u{feff}e\u{2066}f\u{200f}g";
    let args = serde_json::json!({"path": evil, evil: [evil]}).to_string();
    let chat = serde_json::json!([
        {"role": "user", "content": format!("read {evil}")},
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "read_file", "arguments": args}}
        ]},
        {"role": "tool", "tool_call_id": "c1", "content": evil},
        {"role": "assistant", "content": "Done."}
    ]);
    let line = |kind: &str, payload: serde_json::Value| {
        serde_json::json!({"timestamp": "2026-11-30T10:00:00.000Z", "type": kind, "payload": payload})
            .to_string()
    };
    let codex = [
        line("session_meta", serde_json::json!({"id": "x", "cwd": "/x", "originator": "codex_cli_rs", "cli_version": "0"})),
        line("response_item", serde_json::json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": evil}]})),
        line("response_item", serde_json::json!({"type": "function_call", "name": "shell", "arguments": serde_json::json!({"command": ["cat", evil]}).to_string(), "call_id": "call_1"})),
        line("response_item", serde_json::json!({"type": "function_call_output", "call_id": "call_1", "output": evil})),
        line("response_item", serde_json::json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Done."}]})),
    ]
    .join("\n");
    // The file names: an OSC 0 (window title) and an OSC 52 (clipboard).
    let files = [
        scenario_file("chat-\u{1b}]0;owned\u{7}.json", &chat.to_string()),
        scenario_file("codex-\u{1b}]52;c;aGk=\u{7}.jsonl", &codex),
    ];
    for file in &files {
        for args in [
            vec!["transcript", "--transcript", file, "--lang", "en"],
            vec!["transcript", "--transcript", file],
            vec!["trace", "--transcript", file],
            vec!["trace", "--full-context", "--transcript", file],
        ] {
            let out = run(&args);
            assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
            assert_eq!(unsafe_chars(&out.stdout), Vec::<char>::new(), "{args:?}");
            assert_eq!(unsafe_chars(&out.stderr), Vec::<char>::new(), "{args:?}");
            assert!(out.stdout.contains("\\u{9b}2J"), "{args:?}: {}", out.stdout);
        }
        for format in ["txt", "svg", "html", "cast", "ansi"] {
            let dir = export_dir(&format!("evil-{format}"));
            let args = [
                "export",
                "--transcript",
                file,
                "--format",
                format,
                "--out",
                &dir,
            ];
            let out = run(&args);
            assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
            assert!(files_in(&dir) > 0, "{args:?}");
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                assert_eq!(unsafe_chars(&name), Vec::<char>::new(), "{name}");
                let text = std::fs::read_to_string(&path).unwrap();
                // ANSI figures and casts hold their own escapes: look at
                // the text between them.
                let text = match format {
                    "ansi" | "cast" => strip_sgr(&text),
                    _ => text,
                };
                let found: Vec<char> = unsafe_chars(&text)
                    .into_iter()
                    .filter(|c| !matches!(c, '\t' | '\r'))
                    .collect();
                assert_eq!(found, Vec::<char>::new(), "{name}");
            }
        }
    }
}

/// The text of an ANSI figure or a cast without its colour escapes
/// (`ESC [ … m`) and cursor moves (`ESC [ … H`), and a cast's JSON escapes
/// (`\u001b`) read as what they are.
fn strip_sgr(text: &str) -> String {
    let text = text.replace("\\u001b", "\u{1b}");
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `tests/secrets/fake-keys.tsv`: (format, secret, the text holding it).
fn fake_keys() -> Vec<(String, String, String)> {
    include_str!("secrets/fake-keys.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<String> = l.split('\t').map(|f| f.replace("\\n", "\n")).collect();
            let text = f[2].replace("{}", &f[1]);
            (f[0].clone(), f[1].clone(), text)
        })
        .collect()
}

#[test]
fn redact_hides_every_fake_key_in_every_output() {
    // Each secret three times: in the user's text, in a tool call's
    // arguments (a command, and a value named by its key), in a result.
    let keys = fake_keys();
    let mut messages = vec![];
    for (k, (format, secret, text)) in keys.iter().enumerate() {
        messages.push(serde_json::json!({"role": "user", "content": format!("{format}: {text}")}));
        let args = serde_json::json!({"cmd": text, "api_key": secret}).to_string();
        messages.push(serde_json::json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": format!("call_{k}"), "type": "function", "function": {"name": "run", "arguments": args}}
        ]}));
        messages.push(
            serde_json::json!({"role": "tool", "tool_call_id": format!("call_{k}"), "content": text}),
        );
    }
    messages.push(serde_json::json!({"role": "assistant", "content": "Done."}));
    let file = scenario_file(
        "fake-keys.json",
        &serde_json::Value::Array(messages).to_string(),
    );
    let mut outputs = vec![];
    for args in [
        vec!["trace", "--transcript", &file, "--redact"],
        vec!["trace", "--full-context", "--transcript", &file, "--redact"],
        vec!["transcript", "--transcript", &file, "--redact"],
    ] {
        let out = run(&args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        outputs.push((args.join(" "), out.stdout));
    }
    for format in ["txt", "svg", "html", "cast"] {
        let dir = export_dir(&format!("fake-keys-{format}"));
        let args = [
            "export",
            "--transcript",
            &file,
            "--redact",
            "--format",
            format,
            "--out",
            &dir,
        ];
        let out = run(&args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        let mut all = String::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            // A long run's player packs its steps: read them unpacked.
            let text = common::unpacked_html(&text);
            all.push_str(&text);
            // An SVG draws each character in its own element: the text is
            // what is left without the tags.
            if format == "svg" || format == "html" {
                let mut inside = false;
                all.extend(text.chars().filter(|&c| {
                    let keep = !inside && c != '<';
                    inside = (inside || c == '<') && c != '>';
                    keep
                }));
            }
        }
        outputs.push((format!("export {format}"), all));
    }
    let mut leaks = vec![];
    for (what, text) in &outputs {
        for (format, secret, _) in &keys {
            // JSON and SVG escape `/`, `"` and `<` their own way: look for a
            // run of the secret's letters and digits.
            let core: String = secret
                .chars()
                .skip_while(|c| !c.is_ascii_alphanumeric())
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            let core = if core.len() >= 8 {
                core
            } else {
                secret.clone()
            };
            if text.contains(&core) {
                leaks.push(format!("{what}: {format} ({core})"));
            }
        }
        assert!(text.contains("[redacted: "), "{what}");
    }
    assert!(leaks.is_empty(), "{}", leaks.join("\n"));
}
