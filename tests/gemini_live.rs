//! The real Gemini CLI (from npm, tests/model_server/package.json) run
//! offline against the scripted model server, which answers the Gemini API
//! (streamed generateContent with functionCall parts): the model asks to
//! read two files, one missing, then to run a shell command, then answers.
//! The session file the CLI writes is then read as a transcript, and its
//! counts must be the ones recounted here from the file itself and from the
//! requests the server received. (Not through the tap: it does not speak
//! the Gemini API.)

#[path = "model_server/harness.rs"]
mod harness;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use agent_loop_sim::scenario::Lang;
use agent_loop_sim::transcript::{self, Format};
use harness::*;
use serde_json::{Value, json};

fn session_file(home: &Path) -> PathBuf {
    let mut found = Vec::new();
    let mut dirs = vec![home.join(".gemini/tmp")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                dirs.push(path);
            } else if name.starts_with("session-") {
                found.push(path);
            }
        }
    }
    assert_eq!(found.len(), 1, "one session file: {found:?}");
    found.remove(0)
}

/// What the session file holds, counted without the reader: each message
/// record's last copy (the CLI writes a reply again once its tools end),
/// its tool calls, those with a result naming their id, the failed ones,
/// and the replies that asked for more than one tool at once.
fn recount(file: &Path) -> [usize; 5] {
    let text = std::fs::read_to_string(file).unwrap();
    let mut last: BTreeMap<String, Value> = BTreeMap::new();
    let mut order = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let record: Value = serde_json::from_str(line).unwrap();
        if record["type"] == "gemini" {
            let id = record["id"].as_str().unwrap().to_string();
            if !last.contains_key(&id) {
                order.push(id.clone());
            }
            last.insert(id, record);
        }
    }
    let replies = order.len();
    let calls: Vec<&Value> = last
        .values()
        .flat_map(|r| r["toolCalls"].as_array().into_iter().flatten())
        .collect();
    let paired = calls
        .iter()
        .filter(|c| {
            c["result"]
                .as_array()
                .is_some_and(|parts| parts.iter().any(|p| p["functionResponse"]["id"] == c["id"]))
        })
        .count();
    let errors = calls.iter().filter(|c| c["status"] == "error").count();
    let parallel = last
        .values()
        .filter(|r| r["toolCalls"].as_array().is_some_and(|c| c.len() > 1))
        .count();
    [replies, calls.len(), paired, errors, parallel]
}

#[test]
fn gemini_cli_runs_its_loop_offline_and_its_session_reads_as_the_run_it_was() {
    let bin = format!("{SERVER_DIR}/node_modules/.bin/gemini");
    if !have(&bin, &["--version"]) {
        return;
    }
    let dir = fresh_dir("gemini");
    let (work, home) = (dir.join("work"), dir.join("home"));
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(home.join(".gemini")).unwrap();
    std::fs::write(work.join("config.txt"), "limit = 42\n").unwrap();
    // An API-key login, no telemetry or update checks: nothing leaves
    // 127.0.0.1.
    std::fs::write(
        home.join(".gemini/settings.json"),
        json!({
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "privacy": {"usageStatisticsEnabled": false},
            "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
            "telemetry": {"enabled": false}
        })
        .to_string(),
    )
    .unwrap();
    let script: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/transcripts/real/cli/gemini-cli.script.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let server = Server::start(&dir, &script, None);
    // A fixed model: "auto" routing would first ask the model a side
    // question. --yolo runs the tools without asking.
    let mut cmd = Command::new(&bin);
    cmd.args(["-m", "gemini-2.5-flash", "--yolo", "-p"])
        .arg("What is the limit in config.txt? Also look at missing.txt.")
        .current_dir(&work)
        .env("HOME", &home)
        .env("GOOGLE_GEMINI_BASE_URL", &server.url)
        .env("GEMINI_API_KEY", "dummy-not-a-key")
        .env("GEMINI_CLI_TRUST_WORKSPACE", "true")
        .env_remove("GOOGLE_API_KEY")
        .env_remove("GOOGLE_CLOUD_PROJECT")
        .stdin(Stdio::null());
    let out = run_bounded(cmd, 180);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("limit to 42"),
        "{stderr}"
    );

    // The CLI's loop: one generateContent request a reply, each after the
    // results of the calls before it.
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 3, "{bodies:?}");
    let file = session_file(&home);
    let counts = recount(&file);
    assert_eq!(counts, [3, 3, 3, 1, 1], "the recount of {}", file.display());

    let opened = transcript::open(file.to_str().unwrap(), None).unwrap();
    assert_eq!(opened.format, Format::GeminiCli);
    for lang in Lang::ALL {
        let summary = transcript::summary(opened.loaded.trace(lang));
        assert_eq!(
            [
                summary.model_replies,
                summary.tool_calls,
                summary.paired,
                summary.errors,
                summary.parallel_groups,
            ],
            counts,
            "{lang:?}"
        );
        assert_eq!(summary.unanswered, 0, "{lang:?}");
        assert_eq!(summary.orphans, 0, "{lang:?}");
    }
    // Each model call drawn is one the server received: as many, and the
    // last request holds every result the file pairs.
    let trace = opened.loaded.trace(Lang::En);
    assert_eq!(trace.model_calls.len(), bodies.len());
    let responses = bodies[2]["contents"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["parts"].as_array().into_iter().flatten())
        .filter(|p| p.get("functionResponse").is_some())
        .count();
    assert_eq!(responses, counts[1], "{}", bodies[2]);
}
