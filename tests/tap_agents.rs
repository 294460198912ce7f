//! The real Codex CLI and Claude Code (from npm, tests/model_server/
//! package.json) driven through `agent-loop-sim tap -- COMMAND` against the
//! scripted model server, offline: the model asks to read config.txt, the
//! agent really runs the tool, the model answers.

#[path = "model_server/harness.rs"]
mod harness;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use harness::*;
use serde_json::{Value, json};

fn cli(name: &str) -> Option<String> {
    let bin = format!("{SERVER_DIR}/node_modules/.bin/{name}");
    have(&bin, &["--version"]).then_some(bin)
}

fn tap_command(upstream: &str, out: &Path, listen: Option<u16>, agent: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_agent-loop-sim"));
    cmd.args(["tap", "--upstream", upstream, "--out"]).arg(out);
    if let Some(port) = listen {
        cmd.args(["--listen", &port.to_string()]);
    }
    cmd.arg("--").args(agent).stdin(Stdio::null());
    cmd
}

fn loop_calls(lines: &[Value]) -> Vec<&Value> {
    lines.iter().filter(|l| l.get("side").is_none()).collect()
}

/// The recording, replayed (`--transcript FILE`), draws the lanes the live
/// view drew as the calls ended (`transcript::growing::Growing`), the words that
/// name places aside (requests live, lines of the file in a replay); its
/// main conversation has `calls` model calls.
fn replays_as_it_was_watched(out: &Path, calls: usize) {
    use agent_loop_sim::scenario::Lang;
    use agent_loop_sim::transcript;
    let name = out.file_name().unwrap().to_str().unwrap();
    let mut growing = transcript::growing::Growing::new(name, false);
    for line in read_jsonl(out) {
        growing.push(line);
    }
    let live = growing.runs(Vec::new());
    let path = out.to_str().unwrap();
    let (main, others) = transcript::load_all(path, None, false, None).unwrap();
    let replay: Vec<_> = std::iter::once(main).chain(others).collect();
    assert_eq!(live.len(), replay.len(), "conversations");
    let unnarrated = |t: &agent_loop_sim::trace::Trace| {
        let mut t = t.clone();
        t.steps.iter_mut().for_each(|s| s.narration = None);
        t
    };
    for (a, b) in live.iter().zip(&replay) {
        for lang in Lang::ALL {
            assert!(unnarrated(a.trace(lang)) == unnarrated(b.trace(lang)));
        }
    }
    assert_eq!(replay[0].trace(Lang::En).model_calls.len(), calls);
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn codex_runs_its_loop_through_the_tap_and_every_call_is_recorded_as_sent() {
    let Some(codex) = cli("codex") else { return };
    let dir = fresh_dir("codex");
    let work = dir.join("work");
    let home = dir.join("codex-home");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(work.join("config.txt"), "limit = 42\n").unwrap();
    let server = Server::start(
        &dir,
        &json!([
            {"tool_calls": [{"name": "exec_command", "arguments": {"cmd": "cat config.txt"}}]},
            {"text": "config.txt sets the limit to 42."}
        ]),
        None,
    );
    // Codex reads its provider's base_url from config.toml, not from
    // OPENAI_BASE_URL, so the tap listens on a port named there.
    let port = free_port();
    std::fs::write(
        home.join("config.toml"),
        format!(
            "model = \"scripted-model\"\nmodel_provider = \"tap\"\n\n[model_providers.tap]\nname = \"tap\"\nbase_url = \"http://127.0.0.1:{port}/v1\"\nwire_api = \"responses\"\nenv_key = \"TAP_TEST_KEY\"\n"
        ),
    )
    .unwrap();
    let out = dir.join("codex.jsonl");
    let mut cmd = tap_command(
        &server.url,
        &out,
        Some(port),
        &[
            &codex,
            "exec",
            "--skip-git-repo-check",
            "-s",
            "danger-full-access",
            "What is the limit in config.txt?",
        ],
    );
    cmd.current_dir(&work)
        .env("CODEX_HOME", &home)
        .env("TAP_TEST_KEY", "sk-codex-dummy-key-0000000000");
    let o = run_bounded(cmd, 120);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("limit to 42"),
        "{stderr}"
    );
    let lines = read_jsonl(&out);
    assert_eq!(
        lines
            .iter()
            .map(|l| l["request"].clone())
            .collect::<Vec<_>>(),
        server.bodies()
    );
    let calls = loop_calls(&lines);
    assert_eq!(calls.len(), 2, "{lines:?}");
    for c in &calls {
        assert_eq!(c["provider"], "responses");
        assert_eq!(c["status"], 200);
        let tools: Vec<&str> = c["request"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t["name"].as_str())
            .collect();
        assert!(tools.contains(&"exec_command"), "{tools:?}");
        assert!(
            c["request"]["tools"][0]["parameters"].is_object(),
            "the schema is kept"
        );
        let input = c["request"]["input"].as_array().unwrap();
        assert!(
            input.iter().any(|i| i["role"] == "developer"),
            "the system prompt is kept"
        );
    }
    let second = calls[1]["request"]["input"].as_array().unwrap();
    let result = second
        .iter()
        .find(|i| i["type"] == "function_call_output")
        .expect("the tool result");
    assert!(
        result["output"].as_str().unwrap().contains("limit = 42"),
        "{result}"
    );
    assert_eq!(
        result["call_id"],
        calls[0]["response"]["output"][0]["call_id"]
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(!text.contains("sk-codex-dummy"), "the key was recorded");
    replays_as_it_was_watched(&out, 2);
}

fn claude_env(cmd: &mut Command, home: &Path) {
    cmd.env("HOME", home)
        .env("ANTHROPIC_API_KEY", "sk-ant-claude-dummy-key-0000000000")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env_remove("ANTHROPIC_BASE_URL");
}

#[test]
fn claude_code_runs_its_loop_through_the_tap_and_every_call_is_recorded_as_sent() {
    let Some(claude) = cli("claude") else { return };
    let dir = fresh_dir("claude");
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let config = work.join("config.txt");
    std::fs::write(&config, "limit = 42\n").unwrap();
    let server = Server::start(
        &dir,
        &json!([
            {"tool_calls": [{"name": "Read", "arguments": {"file_path": config}}]},
            {"text": "config.txt sets the limit to 42."}
        ]),
        None,
    );
    let out = dir.join("claude.jsonl");
    let mut cmd = tap_command(
        &server.url,
        &out,
        None,
        &[&claude, "-p", "What is the limit in config.txt?"],
    );
    cmd.current_dir(&work);
    claude_env(&mut cmd, &dir);
    let o = run_bounded(cmd, 120);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("limit to 42"),
        "{stderr}"
    );
    let lines = read_jsonl(&out);
    assert_eq!(
        lines
            .iter()
            .map(|l| l["request"].clone())
            .collect::<Vec<_>>(),
        server.bodies()
    );
    let calls = loop_calls(&lines);
    assert_eq!(calls.len(), 2, "{lines:?}");
    for c in &calls {
        assert_eq!(c["provider"], "anthropic");
        assert_eq!(c["status"], 200);
        assert_eq!(c["stream"], true);
        let tools: Vec<&str> = c["request"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t["name"].as_str())
            .collect();
        assert!(tools.contains(&"Read"), "{tools:?}");
        assert!(
            c["request"]["system"].is_array() || c["request"]["system"].is_string(),
            "the system prompt is kept"
        );
    }
    assert_eq!(
        calls[0]["response"]["content"][0]["input"],
        json!({"file_path": config})
    );
    let messages = calls[1]["request"]["messages"].as_array().unwrap();
    let last = messages.last().unwrap()["content"].as_array().unwrap();
    let result = last
        .iter()
        .find(|b| b["type"] == "tool_result")
        .expect("the tool result");
    assert_eq!(
        result["tool_use_id"],
        calls[0]["response"]["content"][0]["id"]
    );
    assert!(
        result["content"].to_string().contains("limit = 42"),
        "{result}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(!text.contains("claude-dummy"), "the key was recorded");
    replays_as_it_was_watched(&out, 2);
}

#[test]
fn claude_code_stopped_mid_stream_ends_the_tap_with_the_call_written_as_incomplete() {
    let Some(claude) = cli("claude") else { return };
    let dir = fresh_dir("claude-stopped");
    let server = Server::start(
        &dir,
        &json!([{"text": "a slow answer that takes its time to arrive", "chunks": 20, "delay_ms": 500}]),
        None,
    );
    let out = dir.join("claude.jsonl");
    let mut cmd = tap_command(
        &server.url,
        &out,
        None,
        &[&claude, "-p", "Say something slowly."],
    );
    cmd.current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    claude_env(&mut cmd, &dir);
    let mut tap = Proc(cmd.spawn().unwrap());
    eventually("the model call to start streaming", || {
        read_jsonl(&server.log)
            .iter()
            .any(|l| l["body"]["tools"].is_array())
    });
    // Events come every 500 ms: by now the first pieces of text have.
    std::thread::sleep(Duration::from_millis(2800));
    // SAFETY: kill(2) on our own child; the tap passes SIGTERM on to the agent.
    unsafe { libc::kill(tap.0.id() as libc::pid_t, libc::SIGTERM) };
    let mut waited = 0;
    while tap.0.try_wait().unwrap().is_none() {
        assert!(
            waited < 200,
            "the tap did not end after its agent was stopped"
        );
        std::thread::sleep(Duration::from_millis(50));
        waited += 1;
    }
    let lines = read_jsonl(&out);
    let cut: Vec<&Value> = lines.iter().filter(|l| l["incomplete"] == true).collect();
    assert_eq!(cut.len(), 1, "{lines:?}");
    let text = cut[0]["response"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(
        text.starts_with("a slow") && text.len() < 44,
        "what came before the cut: {text:?}"
    );
}
