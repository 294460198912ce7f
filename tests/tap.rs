//! `agent-loop-sim tap` with real clients (the official `openai` and
//! `anthropic` Python SDKs) and with faults, against the scripted model
//! server (tests/model_server/server.py), in plain HTTP and HTTPS.

#[path = "model_server/harness.rs"]
mod harness;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use harness::*;
use serde_json::{Value, json};

/// The two-call script of every SDK loop: read the file, then answer.
fn read_then_answer(path: &Path) -> Value {
    json!([
        {"tool_calls": [{"name": "read_file", "arguments": {"path": path}}]},
        {"text": "The limit is 42.", "chunks": 4}
    ])
}

fn sdk_loop(kind: &str, base: &str, stream: bool) -> String {
    let mut cmd = Command::new("python3");
    cmd.arg(format!("{SERVER_DIR}/sdk_client.py"))
        .arg(kind)
        .arg(base);
    if stream {
        cmd.arg("--stream");
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{kind} via {base}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// The tool result the loop sent back, as the recording of the second
/// call holds it.
fn result_in(provider: &str, request: &Value) -> String {
    match provider {
        "chat" => request["messages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["role"] == "tool")
            .map(|m| m["content"].as_str().unwrap().to_string()),
        "responses" => request["input"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["type"] == "function_call_output")
            .map(|i| i["output"].as_str().unwrap().to_string()),
        _ => request["messages"][2]["content"][0]["content"]
            .as_str()
            .map(str::to_string),
    }
    .unwrap_or_else(|| panic!("no tool result in {request}"))
}

fn sdk_runs(tls: bool) {
    if !have_python_sdks() || (tls && !have("openssl", &["version"])) {
        return;
    }
    let dir = fresh_dir(if tls { "sdk-https" } else { "sdk-http" });
    let config = dir.join("config.txt");
    std::fs::write(&config, "limit = 42\n").unwrap();
    let certs = tls.then(|| make_certificates(&dir));
    for kind in ["chat", "responses", "anthropic"] {
        for stream in [true, false] {
            let server = Server::start(
                &dir,
                &read_then_answer(&config),
                certs.as_ref().map(|(_, c, k)| (c.as_path(), k.as_path())),
            );
            let out = dir.join(format!("{kind}-{stream}.jsonl"));
            let ca = certs.as_ref().map(|(ca, _, _)| ca.display().to_string());
            let env: Vec<(&str, &str)> = ca.iter().map(|c| ("SSL_CERT_FILE", c.as_str())).collect();
            let tap = Tap::start(&server.url, &out, &env);
            assert_eq!(sdk_loop(kind, &tap.base(), stream), "The limit is 42.");
            let stderr = tap.stop();
            assert!(stderr.contains("2 model calls recorded"), "{stderr}");
            let lines = read_jsonl(&out);
            assert_eq!(lines.len(), 2, "{kind} stream={stream}: {lines:?}");
            // Exactly what the upstream received.
            let sent: Vec<Value> = lines.iter().map(|l| l["request"].clone()).collect();
            assert_eq!(sent, server.bodies(), "{kind} stream={stream}");
            for line in &lines {
                assert_eq!(line["provider"], kind);
                assert_eq!(line["status"], 200);
                assert!(line.get("incomplete").is_none(), "{line}");
                assert_eq!(line.get("stream").is_some(), stream, "{line}");
                let t = &line["timing"];
                assert!(t["start_ms"].as_u64() <= t["first_byte_ms"].as_u64());
                assert!(t["first_byte_ms"].as_u64() <= t["end_ms"].as_u64());
            }
            assert_eq!(result_in(kind, &lines[1]["request"]), "limit = 42\n");
            // The responses, streamed or not, in the unstreamed shape.
            let (first, last) = (&lines[0]["response"], &lines[1]["response"]);
            match kind {
                "chat" => {
                    let call = &first["choices"][0]["message"]["tool_calls"][0];
                    assert_eq!(call["function"]["name"], "read_file");
                    assert_eq!(
                        serde_json::from_str::<Value>(
                            call["function"]["arguments"].as_str().unwrap()
                        )
                        .unwrap(),
                        json!({"path": config})
                    );
                    assert_eq!(last["choices"][0]["message"]["content"], "The limit is 42.");
                }
                "responses" => {
                    assert_eq!(first["output"][0]["type"], "function_call");
                    assert_eq!(first["status"], "completed");
                    assert_eq!(last["output"][0]["content"][0]["text"], "The limit is 42.");
                }
                _ => {
                    assert_eq!(first["content"][0]["input"], json!({"path": config}));
                    assert_eq!(first["stop_reason"], "tool_use");
                    assert_eq!(last["content"][0]["text"], "The limit is 42.");
                }
            }
            let text = std::fs::read_to_string(&out).unwrap();
            assert!(
                !text.contains("not-a-real-key"),
                "a key was recorded: {text:.300}"
            );
        }
    }
}

#[test]
fn openai_and_anthropic_sdks_run_their_loop_through_the_tap_over_http() {
    sdk_runs(false);
}

#[test]
fn openai_and_anthropic_sdks_run_their_loop_through_the_tap_to_an_https_upstream() {
    sdk_runs(true);
}

fn chat_request(stream: bool) -> Vec<u8> {
    json!({
        "model": "gpt-test",
        "stream": stream,
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}]
    })
    .to_string()
    .into_bytes()
}

#[test]
fn credentials_in_headers_are_never_recorded_and_redact_masks_them_in_bodies() {
    if !have("python3", &["--version"]) {
        return;
    }
    let dir = fresh_dir("credentials");
    let server = Server::start(&dir, &json!([{"text": "ok"}, {"text": "ok"}]), None);
    let out = dir.join("plain.jsonl");
    let tap = Tap::start(&server.url, &out, &[]);
    let body = json!({"model": "m", "messages": [{"role": "user", "content": "token=ghp_0123456789abcdefghijABCD"}],
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}]});
    let r = post(
        &tap.addr,
        "/v1/chat/completions",
        body.to_string().as_bytes(),
    );
    assert_eq!(r.status, 200);
    tap.stop();
    let text = std::fs::read_to_string(&out).unwrap();
    for secret in [
        "sk-test-secret",
        "sk-ant-secret",
        "s3cr3t-cookie",
        "Bearer",
        "x-api-key",
    ] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
    assert!(
        text.contains("ghp_0123456789abcdefghijABCD"),
        "the body is kept as sent without --redact"
    );
    // --redact: the body's secret is masked too.
    let out = dir.join("redacted.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_agent-loop-sim"))
        .args([
            "tap",
            "--redact",
            "--listen",
            "0",
            "--upstream",
            &server.url,
            "--out",
        ])
        .arg(&out)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut err, &mut line).unwrap();
    let addr = line
        .strip_prefix("tap: http://")
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let r = post(&addr, "/v1/chat/completions", body.to_string().as_bytes());
    assert_eq!(r.status, 200);
    let _ = child.kill();
    let _ = child.wait();
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(!text.contains("ghp_0123"), "{text}");
    assert!(text.contains("[redacted"), "{text}");
}

#[test]
fn upstream_429_and_500_reach_the_agent_unchanged_and_are_recorded_with_their_status() {
    if !have("python3", &["--version"]) {
        return;
    }
    let dir = fresh_dir("errors");
    let server = Server::start(
        &dir,
        &json!([{"status": 429, "message": "slow down"}, {"status": 500, "message": "boom"}]),
        None,
    );
    let out = dir.join("rec.jsonl");
    let tap = Tap::start(&server.url, &out, &[]);
    let r = post(&tap.addr, "/v1/messages", &chat_request(true));
    assert_eq!(r.status, 429);
    assert!(
        r.head.to_ascii_lowercase().contains("retry-after: 0"),
        "{}",
        r.head
    );
    let body: Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(
        body,
        json!({"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}})
    );
    let r = post(&tap.addr, "/v1/chat/completions", &chat_request(false));
    assert_eq!(r.status, 500);
    assert_eq!(
        serde_json::from_slice::<Value>(&r.body).unwrap()["error"]["message"],
        "boom"
    );
    tap.stop();
    let lines = read_jsonl(&out);
    assert_eq!(lines.len(), 2);
    assert_eq!(
        (lines[0]["status"].clone(), lines[1]["status"].clone()),
        (json!(429), json!(500))
    );
    assert_eq!(lines[0]["response"]["error"]["type"], "rate_limit_error");
    assert!(lines.iter().all(|l| l.get("incomplete").is_none()));
}

#[test]
fn an_upstream_that_closes_mid_stream_closes_the_agent_connection_and_is_recorded_incomplete() {
    if !have("python3", &["--version"]) {
        return;
    }
    let dir = fresh_dir("upstream-cut");
    let server = Server::start(
        &dir,
        &json!([{"text": "one two three four five six", "chunks": 6, "close_after": 4}, {"text": "after"}]),
        None,
    );
    let out = dir.join("rec.jsonl");
    let tap = Tap::start(&server.url, &out, &[]);
    let r = post(&tap.addr, "/v1/chat/completions", &chat_request(true));
    assert_eq!(r.status, 200);
    let body = String::from_utf8_lossy(&r.body);
    assert!(body.contains("one "), "{body}");
    assert!(
        !body.ends_with("0\r\n\r\n"),
        "the cut stream must not look finished: {body}"
    );
    assert!(!body.contains("[DONE]"));
    // The tap goes on serving.
    let r = post(&tap.addr, "/v1/chat/completions", &chat_request(false));
    assert_eq!(r.status, 200);
    tap.stop();
    let lines = read_jsonl(&out);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["incomplete"], true);
    assert!(
        lines[0]["error"]
            .as_str()
            .unwrap()
            .contains("upstream closed"),
        "{}",
        lines[0]
    );
    // What came before the cut is kept.
    let content = lines[0]["response"]["choices"][0]["message"]["content"]
        .as_str()
        .unwrap();
    assert!(content.starts_with("one "), "{content}");
    assert!(lines[1].get("incomplete").is_none());
}

/// Sends a streamed request and reads the answer's first bytes.
fn start_stream(addr: &str, body: &[u8]) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        s,
        "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    s.write_all(body).unwrap();
    let mut first = [0u8; 64];
    assert!(s.read(&mut first).unwrap() > 0);
    s
}

#[test]
fn an_agent_killed_mid_stream_is_recorded_incomplete_and_the_tap_serves_on() {
    if !have("python3", &["--version"]) {
        return;
    }
    let dir = fresh_dir("agent-cut");
    let server = Server::start(
        &dir,
        &json!([{"text": "a b c d e f g h i j", "chunks": 10, "delay_ms": 100}, {"text": "next"}]),
        None,
    );
    let out = dir.join("rec.jsonl");
    let tap = Tap::start(&server.url, &out, &[]);
    let s = start_stream(&tap.addr, &chat_request(true));
    drop(s); // the agent dies
    eventually("the cut call to be written", || read_jsonl(&out).len() == 1);
    let line = &read_jsonl(&out)[0];
    assert_eq!(line["incomplete"], true);
    assert!(
        line["error"].as_str().unwrap().contains("agent closed"),
        "{line}"
    );
    let r = post(&tap.addr, "/v1/chat/completions", &chat_request(false));
    assert_eq!(r.status, 200);
    tap.stop();
    assert_eq!(read_jsonl(&out).len(), 2);
}

#[test]
fn a_tap_stopped_mid_stream_writes_the_call_in_flight_as_incomplete_and_keeps_the_rest() {
    if !have("python3", &["--version"]) {
        return;
    }
    let dir = fresh_dir("tap-stopped");
    let server = Server::start(
        &dir,
        &json!([{"text": "done"}, {"text": "a b c d e f g h", "chunks": 8, "delay_ms": 300}]),
        None,
    );
    let out = dir.join("rec.jsonl");
    let tap = Tap::start(&server.url, &out, &[]);
    assert_eq!(
        post(&tap.addr, "/v1/chat/completions", &chat_request(true)).status,
        200
    );
    let _s = start_stream(&tap.addr, &chat_request(true));
    let stderr = tap.stop();
    assert!(stderr.contains("2 model calls recorded"), "{stderr}");
    let lines = read_jsonl(&out);
    assert_eq!(lines.len(), 2);
    assert!(lines[0].get("incomplete").is_none());
    assert_eq!(
        lines[0]["response"]["choices"][0]["message"]["content"],
        "done"
    );
    assert_eq!(lines[1]["incomplete"], true);
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("tap was stopped")
    );
}

#[test]
fn a_20_mb_request_body_passes_whole_and_is_recorded_whole() {
    if !have("python3", &["--version"]) {
        return;
    }
    let dir = fresh_dir("big");
    let server = Server::start(&dir, &json!([{"text": "read it all"}]), None);
    let out = dir.join("rec.jsonl");
    let tap = Tap::start(&server.url, &out, &[]);
    let big = "0123456789abcdef".repeat(20 * 1024 * 1024 / 16);
    let body = json!({"model": "m", "stream": true, "messages": [{"role": "user", "content": big}],
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}]})
    .to_string();
    assert!(body.len() > 20 * 1024 * 1024);
    let r = post(&tap.addr, "/v1/chat/completions", body.as_bytes());
    assert_eq!(r.status, 200);
    tap.stop();
    let lines = read_jsonl(&out);
    assert_eq!(lines.len(), 1);
    assert_eq!(
        lines[0]["request"]["messages"][0]["content"]
            .as_str()
            .unwrap()
            .len(),
        big.len()
    );
    assert_eq!(
        server.bodies()[0]["messages"][0]["content"]
            .as_str()
            .unwrap()
            .len(),
        big.len()
    );
    // 60 MB of logs and recording: not left behind on a shared machine.
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fifty_concurrent_streams_all_end_whole_and_are_all_recorded() {
    if !have("python3", &["--version"]) {
        return;
    }
    let dir = fresh_dir("fifty");
    // Requests without tools get the server's side reply: no script needed.
    let server = Server::start(&dir, &json!([]), None);
    let out = dir.join("rec.jsonl");
    let tap = Tap::start(&server.url, &out, &[]);
    let started = Instant::now();
    let body =
        json!({"model": "m", "stream": true, "messages": [{"role": "user", "content": "hi"}]})
            .to_string();
    let threads: Vec<_> = (0..50)
        .map(|_| {
            let (addr, body) = (tap.addr.clone(), body.clone());
            std::thread::spawn(move || post(&addr, "/v1/chat/completions", body.as_bytes()))
        })
        .collect();
    for t in threads {
        let r = t.join().unwrap();
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        assert!(r.body.ends_with(b"0\r\n\r\n"), "a stream was cut");
        assert!(String::from_utf8_lossy(&r.body).contains("[DONE]"));
    }
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "took {:?}",
        started.elapsed()
    );
    tap.stop();
    let lines = read_jsonl(&out);
    assert_eq!(lines.len(), 50);
    for l in &lines {
        assert!(l.get("incomplete").is_none(), "{l}");
        assert_eq!(
            l["response"]["choices"][0]["message"]["content"],
            "Scripted side reply."
        );
    }
}

#[test]
fn bad_arguments_are_refused_with_exit_code_2_and_a_clear_line() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_agent-loop-sim"))
            .args(args)
            .output()
            .unwrap()
    };
    let o = run(&["tap", "--upstream", "api.openai.com"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("does not start with http:// or https://"),
        "{err}"
    );
    let o = run(&[
        "tap",
        "--upstream",
        "http://127.0.0.1:1",
        "--listen",
        "nowhere.invalid:80",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&[
        "tap",
        "--upstream",
        "http://127.0.0.1:1",
        "--out",
        "/nonexistent-dir/x.jsonl",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot open /nonexistent-dir/x.jsonl"));
}

#[test]
fn an_unreachable_upstream_is_a_502_from_the_tap_and_an_incomplete_line() {
    let dir = fresh_dir("unreachable");
    // A port that was free a moment ago.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = dir.join("rec.jsonl");
    let tap = Tap::start(&format!("http://127.0.0.1:{port}"), &out, &[]);
    let r = post(
        &tap.addr,
        "/v1/responses",
        b"{\"model\":\"m\",\"input\":\"hi\"}",
    );
    assert_eq!(r.status, 502);
    assert!(String::from_utf8_lossy(&r.body).contains("could not send the request upstream"));
    tap.stop();
    let lines = read_jsonl(&out);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["incomplete"], true);
    assert_eq!(lines[0]["status"], Value::Null);
}

#[test]
fn a_client_that_expects_100_continue_gets_it_and_its_call_goes_through() {
    if !have("python3", &["--version"]) {
        return;
    }
    let dir = fresh_dir("expect");
    let server = Server::start(&dir, &json!([{"text": "ok"}]), None);
    let out = dir.join("rec.jsonl");
    let tap = Tap::start(&server.url, &out, &[]);
    let body = chat_request(false);
    let mut s = TcpStream::connect(&tap.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        s,
        "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    let mut first = [0u8; 25];
    s.read_exact(&mut first).unwrap();
    if &first != b"HTTP/1.1 100 Continue\r\n\r\n" {
        // The whole answer, so a refusal says who refused and why.
        let mut rest = String::new();
        let _ = s.read_to_string(&mut rest);
        panic!(
            "expected 100 Continue, got {}{rest}",
            String::from_utf8_lossy(&first)
        );
    }
    s.write_all(&body).unwrap();
    let mut rest = String::new();
    s.read_to_string(&mut rest).unwrap();
    assert!(rest.starts_with("HTTP/1.1 200"), "{rest}");
    tap.stop();
    assert_eq!(
        read_jsonl(&out)[0]["response"]["choices"][0]["message"]["content"],
        "ok"
    );
}

#[test]
fn a_recording_of_claude_code_replays_with_its_two_calls_paired() {
    // The recording regenerate.sh kept (tests/transcripts/real/cli/).
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/transcripts/real/cli/claude-code.tap.jsonl"
    );
    let o = Command::new(env!("CARGO_BIN_EXE_agent-loop-sim"))
        .args(["trace", "--transcript", file])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let trace: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(trace["scenario"]["model_calls"], 2);
    assert_eq!(trace["scenario"]["end"], "completed");
    let summary = &trace["summary"];
    assert_eq!(
        (summary["tool_calls"].clone(), summary["paired"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(summary["final_answer"], "config.txt sets the limit to 42.");
}

/// The wire view (`export --panel wire`) of the step where `run` makes its
/// first model call, as text.
fn wire_view(run: &str, dir: &Path) -> String {
    let out = dir.join(format!("wire-{}", run.rsplit('#').next().unwrap_or("1")));
    let o = Command::new(env!("CARGO_BIN_EXE_agent-loop-sim"))
        .args([
            "--lang", "en", "export", "--format", "txt", "--panel", "wire",
        ])
        .args(["--steps", "2", "--transcript", run, "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let file = std::fs::read_dir(&out).unwrap().next().unwrap().unwrap();
    std::fs::read_to_string(file.path()).unwrap()
}

#[test]
fn three_sdk_clients_through_one_tap_are_three_conversations_each_named_by_its_api() {
    if !have_python_sdks() {
        return;
    }
    let dir = fresh_dir("sdk-mixed");
    let config = dir.join("config.txt");
    std::fs::write(&config, "limit = 42\n").unwrap();
    let script: Vec<Value> = (0..3)
        .flat_map(|_| read_then_answer(&config).as_array().unwrap().clone())
        .collect();
    let server = Server::start(&dir, &Value::Array(script), None);
    let out = dir.join("mixed.jsonl");
    let tap = Tap::start(&server.url, &out, &[]);
    let kinds = [
        (
            "chat",
            "OpenAI Chat Completions",
            "POST /v1/chat/completions",
        ),
        ("responses", "OpenAI Responses", "POST /v1/responses"),
        ("anthropic", "Anthropic Messages", "POST /v1/messages"),
    ];
    for (kind, _, _) in kinds {
        assert_eq!(sdk_loop(kind, &tap.base(), true), "The limit is 42.");
    }
    assert!(tap.stop().contains("6 model calls recorded"));
    let path = out.to_str().unwrap();
    let (first, others) = agent_loop_sim::transcript::load_all(path, None, false, None).unwrap();
    let runs: Vec<_> = std::iter::once(first).chain(others).collect();
    assert_eq!(runs.len(), 3, "one conversation per client");
    for (k, (run, (kind, api, endpoint))) in runs.iter().zip(kinds).enumerate() {
        let trace = run.trace(agent_loop_sim::scenario::Lang::En);
        assert_eq!(trace.provider.code(), kind);
        assert_eq!(trace.model_calls.len(), 2, "{kind}");
        assert!(trace.title.contains(api), "{kind}: {}", trace.title);
        assert!(
            trace.title.contains(&format!("mixed.jsonl#{}", k + 1)),
            "{}",
            trace.title
        );
        let wire = wire_view(&format!("{path}#{}", k + 1), &dir);
        assert!(wire.contains(endpoint), "{kind}: {wire}");
        for (_, _, other) in kinds.iter().filter(|(_, _, e)| *e != endpoint) {
            assert!(!wire.contains(other), "{kind}: {wire}");
        }
    }
}

#[test]
fn an_upstream_killed_mid_stream_gives_an_incomplete_call_drawn_as_cut() {
    if !have("python3", &["--version"]) {
        return;
    }
    use agent_loop_sim::scenario::Lang;
    use agent_loop_sim::trace::StepKind;
    // Framed by chunks, the kill leaves the body short; framed by closing
    // the connection, it ends the body cleanly and only the missing
    // `data: [DONE]` tells the cut.
    for framing in ["chunked", "close"] {
        let dir = fresh_dir(&format!("killed-{framing}"));
        let mut server = Server::start(
            &dir,
            &json!([{"text": "one two three four five six seven eight", "chunks": 8,
                     "delay_ms": 300, "framing": framing}]),
            None,
        );
        let out = dir.join("rec.jsonl");
        let tap = Tap::start(&server.url, &out, &[]);
        let mut agent = start_stream(&tap.addr, &chat_request(true));
        std::thread::sleep(Duration::from_millis(700));
        server.kill();
        let mut rest = Vec::new();
        let _ = agent.read_to_end(&mut rest);
        tap.stop();
        let lines = read_jsonl(&out);
        assert_eq!(lines.len(), 1, "{framing}: {lines:?}");
        assert_eq!(lines[0]["incomplete"], true, "{framing}: {}", lines[0]);
        let error = lines[0]["error"].as_str().unwrap();
        assert!(error.contains("upstream closed"), "{framing}: {error}");
        let said = lines[0]["response"]["choices"][0]["message"]["content"]
            .as_str()
            .unwrap_or_default();
        assert!(said.starts_with("one"), "{framing}: {said:?}");
        // Replayed, the call is drawn as cut, not as a reply.
        let run = agent_loop_sim::transcript::load(out.to_str().unwrap(), None, false).unwrap();
        let trace = run.trace(Lang::En);
        let last = trace.steps.last().unwrap();
        assert!(
            matches!(&last.kind, StepKind::Cut { number: 1, error: e } if e == error),
            "{framing}: {:?}",
            last.kind
        );
        assert!(
            !trace
                .steps
                .iter()
                .any(|s| matches!(s.kind, StepKind::Answers { .. })),
            "{framing}: a cut reply drawn as an answer"
        );
        let title = agent_loop_sim::i18n::step_title(trace, trace.steps.len() - 1);
        assert!(title.contains("no whole reply"), "{title}");
        let narration = last.narration.as_deref().unwrap();
        assert!(narration.contains("did not arrive whole"), "{narration}");
    }
}
