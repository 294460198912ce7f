//! The tap's live view: `tap -- COMMAND` in a pseudo-terminal, read back
//! through a terminal emulator (vt100), with the official `anthropic` SDK's
//! loop (tests/model_server/sdk_client.py) as the agent, held between its
//! model calls by the test, against the scripted model server.

#[path = "model_server/harness.rs"]
mod harness;

use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use harness::*;
use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use serde_json::json;

/// Generous, for a loaded two-core machine (the SDK takes a while to start).
const DEADLINE: Duration = Duration::from_secs(30);

struct Output {
    raw: Vec<u8>,
    screen: vt100::Parser,
    closed: bool,
}

struct Session {
    master: Box<dyn MasterPty + Send>,
    child: Box<dyn Child + Send + Sync>,
    keys: Box<dyn Write + Send>,
    output: Arc<(Mutex<Output>, Condvar)>,
}

impl Session {
    fn start(cols: u16, rows: u16, argv: &[String]) -> Session {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("open a pseudo-terminal");
        let mut cmd = CommandBuilder::from_argv(argv.iter().map(Into::into).collect());
        cmd.cwd(env!("CARGO_MANIFEST_DIR"));
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("NO_COLOR");
        // Progress is kept in a state directory of the test's own, never
        // the user's (and each session starts with none).
        cmd.env("XDG_STATE_HOME", fresh_state_dir());
        let child = pty.slave.spawn_command(cmd).expect("spawn the tap");
        drop(pty.slave);
        let output = Arc::new((
            Mutex::new(Output {
                raw: Vec::new(),
                screen: vt100::Parser::new(rows, cols, 0),
                closed: false,
            }),
            Condvar::new(),
        ));
        let mut reader = pty.master.try_clone_reader().expect("pty reader");
        let shared = Arc::clone(&output);
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            loop {
                let n = reader.read(&mut buf).unwrap_or(0);
                let (lock, changed) = &*shared;
                let mut out = lock.lock().unwrap();
                if n == 0 {
                    out.closed = true;
                    changed.notify_all();
                    return;
                }
                out.raw.extend_from_slice(&buf[..n]);
                out.screen.process(&buf[..n]);
                changed.notify_all();
            }
        });
        let keys = pty.master.take_writer().expect("pty writer");
        Session {
            master: pty.master,
            child,
            keys,
            output,
        }
    }

    fn press(&mut self, keys: &str) {
        self.keys.write_all(keys.as_bytes()).unwrap();
        self.keys.flush().unwrap();
    }

    fn wait_for(&self, what: &str, done: impl Fn(&Output) -> bool) -> MutexGuard<'_, Output> {
        let (lock, changed) = &*self.output;
        let until = Instant::now() + DEADLINE;
        let mut out = lock.lock().unwrap();
        while !done(&out) {
            let now = Instant::now();
            if now >= until {
                panic!(
                    "timed out waiting for {what}; the screen:\n{}",
                    out.screen.screen().contents()
                );
            }
            out = changed.wait_timeout(out, until - now).unwrap().0;
        }
        out
    }

    /// Wait until every one of `texts` is on the screen (and none of
    /// `absent`); the screen.
    fn wait_for_screen(&self, texts: &[&str], absent: &[&str]) -> String {
        let what = format!("{texts:?} on the screen without {absent:?}");
        let out = self.wait_for(&what, |o| {
            let screen = o.screen.screen().contents();
            texts.iter().all(|t| screen.contains(t)) && !absent.iter().any(|t| screen.contains(t))
        });
        out.screen.screen().contents()
    }

    fn exit_code(&mut self) -> u32 {
        drop(self.wait_for("the tap to exit", |o| o.closed));
        let until = Instant::now() + DEADLINE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.exit_code();
            }
            assert!(
                Instant::now() < until,
                "the tap closed its terminal but did not exit"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// After the exit: out of raw mode, off the alternate screen, cursor shown.
    fn assert_restored(&self) {
        let termios = self.master.get_termios().expect("termios");
        let flags = termios.local_flags.bits();
        assert!(
            flags & libc::ICANON != 0 && flags & libc::ECHO != 0,
            "the terminal is still in raw mode"
        );
        let out = self.output.0.lock().unwrap();
        let screen = out.screen.screen();
        assert!(!screen.alternate_screen(), "still on the alternate screen");
        assert!(!screen.hide_cursor(), "the cursor is still hidden");
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.output.0.lock().unwrap().raw).into_owned()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// `agent-loop-sim --lang en tap … -- sh -c 'python3 sdk_client.py …'`,
/// the client held at `hold` when given.
fn tap_argv(upstream: &str, out: &Path, hold: Option<&Path>) -> Vec<String> {
    let mut client = format!(
        "exec python3 {SERVER_DIR}/sdk_client.py anthropic \"$ANTHROPIC_BASE_URL\" --stream"
    );
    if let Some(dir) = hold {
        client.push_str(&format!(" --hold {}", dir.display()));
    }
    [
        env!("CARGO_BIN_EXE_agent-loop-sim"),
        "--lang",
        "en",
        "tap",
        "--upstream",
        upstream,
        "--out",
        &out.display().to_string(),
        "--",
        "sh",
        "-c",
        &client,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The tap in `lang` before an upstream no one answers at, recording to
/// `out`, starting `command` when there is one.
fn tap_unreachable(lang: &str, out: &Path, command: &[&str]) -> Vec<String> {
    let out = out.display().to_string();
    let mut argv = vec![
        env!("CARGO_BIN_EXE_agent-loop-sim"),
        "--lang",
        lang,
        "tap",
        "--upstream",
        "http://127.0.0.1:9",
        "--out",
        &out,
    ];
    if !command.is_empty() {
        argv.push("--");
        argv.extend(command);
    }
    argv.iter().map(|s| s.to_string()).collect()
}

/// The number of steps, from the header's "step k/N".
fn steps_in(screen: &str) -> usize {
    let at = screen.find(" step ").expect("the header's step counter") + " step ".len();
    let counter = screen[at..].split_whitespace().next().unwrap();
    counter.split('/').nth(1).unwrap().parse().unwrap()
}

fn script(config: &Path) -> serde_json::Value {
    json!([
        {"tool_calls": [{"name": "read_file", "arguments": {"path": config}}]},
        {"text": "The limit is 42.", "chunks": 4}
    ])
}

#[test]
fn the_live_view_shows_the_second_model_call_while_the_agent_runs_and_asks_before_stopping_it() {
    if !have_python_sdks() {
        return;
    }
    let dir = fresh_dir("live");
    let config = dir.join("config.txt");
    std::fs::write(&config, "limit = 42\n").unwrap();
    let hold = dir.join("hold");
    std::fs::create_dir_all(&hold).unwrap();
    let server = Server::start(&dir, &script(&config), None);
    let out = dir.join("run.jsonl");
    let mut s = Session::start(120, 40, &tap_argv(&server.url, &out, Some(&hold)));

    // Call #1 has come back: the view follows it to the last step, and the
    // agent waits before its second call.
    // (The task, model call #1, its reply: three steps.)
    s.wait_for_screen(&[" step 3/3 ", "call #1", "● live: the agent runs"], &[]);
    // Away from the last step, the new steps are counted, not shown.
    s.press("g");
    let screen = s.wait_for_screen(&[" step 1/"], &[]);
    let before = steps_in(&screen);
    std::fs::write(hold.join("call-2"), "").unwrap();
    // The second call and its answer: every step it adds is counted.
    drop(s.wait_for("call #2's steps counted as new", |o| {
        let screen = o.screen.screen().contents();
        let total = steps_in(&screen);
        screen.contains(&format!("{} new steps (End shows them)", total - before))
            && total >= before + 3
    }));
    let screen = s.wait_for_screen(&[" step 1/"], &[]);
    assert!(
        !screen.contains("call #2"),
        "the view stayed put:\n{screen}"
    );
    // At the end: the second model call, its answer, and the agent still
    // running (it waits for the test before it exits).
    s.press("G");
    let screen = s.wait_for_screen(
        &["call #2", "The limit is 42.", "● live: the agent runs"],
        &["new steps"],
    );
    assert_eq!(
        screen
            .lines()
            .next()
            .map(|l| l.contains(&format!("step {0}/{0}", steps_in(&screen)))),
        Some(true),
        "at the last step:\n{screen}"
    );

    // Quitting asks first; n keeps watching.
    s.press("q");
    s.wait_for_screen(
        &["The agent is still running. Stop it and quit?", "y yes"],
        &[],
    );
    s.press("n");
    s.wait_for_screen(&["● live: the agent runs"], &["Stop it and quit?"]);
    // y stops the agent (SIGTERM), and the tap ends with its status.
    s.press("q");
    s.wait_for_screen(&["Stop it and quit?"], &[]);
    s.press("y");
    let code = s.exit_code();
    s.assert_restored();
    assert_eq!(
        code,
        128 + 15,
        "the agent was ended by SIGTERM: {}",
        s.text()
    );
    let after = s.text();
    assert!(after.contains("tap: the agent was stopped"), "{after}");
    assert!(after.contains("2 model calls recorded"), "{after}");
    let lines = read_jsonl(&out);
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|l| l.get("incomplete").is_none()));
    // The agent's own output went to its log, not over the view.
    assert!(dir.join("run.agent.log").exists());
}

#[test]
fn an_agent_that_ends_by_itself_says_so_and_q_quits_without_asking() {
    if !have_python_sdks() {
        return;
    }
    let dir = fresh_dir("live-ends");
    let config = dir.join("config.txt");
    std::fs::write(&config, "limit = 42\n").unwrap();
    let server = Server::start(&dir, &script(&config), None);
    let out = dir.join("run.jsonl");
    let mut s = Session::start(80, 24, &tap_argv(&server.url, &out, None));
    s.wait_for_screen(&["the agent ended (exit code 0)"], &[]);
    s.press("q");
    assert_eq!(s.exit_code(), 0);
    s.assert_restored();
    let log = std::fs::read_to_string(dir.join("run.agent.log")).unwrap();
    assert_eq!(log.trim(), "The limit is 42.");
    assert_eq!(read_jsonl(&out).len(), 2);
}

/// Before the agent's first model call, the tap has the terminal: the
/// screen says what it waits for, keys are not echoed, and q quits,
/// stopping the agent (issue 39).
#[test]
fn before_the_first_model_call_the_screen_waits_and_q_stops_the_agent() {
    let dir = fresh_dir("live-before-first");
    let out = dir.join("run.jsonl");
    let argv = tap_unreachable("en", &out, &["sleep", "30"]);
    let mut s = Session::start(100, 30, &argv);
    s.wait_for_screen(
        &["waiting for the first model call of sleep 30", "q quits"],
        &[],
    );
    let termios = s.master.get_termios().expect("termios");
    let flags = termios.local_flags.bits();
    assert_eq!(
        flags & (libc::ICANON | libc::ECHO),
        0,
        "keys are not echoed"
    );
    s.press("x");
    s.press("q");
    let code = s.exit_code();
    s.assert_restored();
    assert_eq!(
        code,
        128 + 15,
        "the agent was ended by SIGTERM: {}",
        s.text()
    );
    assert!(
        s.text().contains("tap: the agent was stopped"),
        "{}",
        s.text()
    );
}

/// Without `-- COMMAND`, in a terminal: the screen says where to point an
/// agent until the first model call, then the lanes grow as an agent
/// started elsewhere works; `q` quits at once (the tap started no agent).
#[test]
fn without_a_command_the_screen_says_where_to_point_an_agent_then_shows_its_lanes() {
    if !have_python_sdks() {
        return;
    }
    let dir = fresh_dir("live-serve");
    let config = dir.join("config.txt");
    std::fs::write(&config, "limit = 42\n").unwrap();
    let server = Server::start(&dir, &script(&config), None);
    let out = dir.join("run.jsonl");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let base = format!("http://127.0.0.1:{port}");
    let argv: Vec<String> = [
        env!("CARGO_BIN_EXE_agent-loop-sim"),
        "--lang",
        "en",
        "tap",
        "--upstream",
        &server.url,
        "--listen",
        &port.to_string(),
        "--out",
        &out.display().to_string(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut s = Session::start(120, 40, &argv);
    let screen = s.wait_for_screen(
        &[
            "waiting for the first model call",
            &format!("ANTHROPIC_BASE_URL={base} claude"),
            &format!("OPENAI_BASE_URL={base}/v1 python agent.py"),
            &format!("base_url=\"{base}/v1\",wire_api=\"responses\""),
            "q quits",
        ],
        &[],
    );
    assert!(screen.contains("run.jsonl"), "{screen}");
    // An agent started by hand, beside the tap.
    let agent = std::process::Command::new("python3")
        .arg(format!("{SERVER_DIR}/sdk_client.py"))
        .args(["anthropic", &base, "--stream"])
        .output()
        .unwrap();
    assert!(agent.status.success(), "{agent:?}");
    s.wait_for_screen(
        &[
            "call #2",
            "The limit is 42.",
            &format!("● live: the tap serves at {base}"),
        ],
        &[],
    );
    s.press("q");
    assert_eq!(s.exit_code(), 0, "{}", s.text());
    s.assert_restored();
    assert!(s.text().contains("2 model calls recorded"), "{}", s.text());
    assert_eq!(read_jsonl(&out).len(), 2);
}

/// Without a command, `q` on the waiting screen quits at once.
#[test]
fn without_a_command_q_quits_the_waiting_screen() {
    let dir = fresh_dir("live-serve-q");
    let out = dir.join("run.jsonl");
    let argv = tap_unreachable("zh", &out, &[]);
    let mut s = Session::start(80, 24, &argv);
    s.wait_for_screen(
        &["等待第一次模型调用", "ANTHROPIC_BASE_URL=http://127.0.0.1:"],
        &[],
    );
    s.press("q");
    assert_eq!(s.exit_code(), 0, "{}", s.text());
    s.assert_restored();
    assert!(s.text().contains("0 model calls recorded"), "{}", s.text());
}

/// The real Claude Code (tests/model_server/package.json) in the live view:
/// its second model call is on screen while the agent still runs (the
/// scripted answer to it comes slowly), and the view says when it ends.
#[test]
fn the_live_view_shows_claude_codes_second_model_call_while_it_runs() {
    let claude = format!("{SERVER_DIR}/node_modules/.bin/claude");
    if !have(&claude, &["--version"]) {
        return;
    }
    let dir = fresh_dir("live-claude");
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let config = work.join("config.txt");
    std::fs::write(&config, "limit = 42\n").unwrap();
    let server = Server::start(
        &dir,
        &json!([
            {"tool_calls": [{"name": "Read", "arguments": {"file_path": config}}]},
            {"text": "config.txt sets the limit to 42.", "chunks": 6, "delay_ms": 1500}
        ]),
        None,
    );
    let out = dir.join("claude.jsonl");
    // The tap points ANTHROPIC_BASE_URL at itself for the shell, and so for Claude Code.
    let agent = format!(
        "cd {} && HOME={} ANTHROPIC_API_KEY=sk-ant-claude-dummy-key-0000000000 DISABLE_AUTOUPDATER=1 \
         CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 exec {claude} -p 'What is the limit in config.txt?'",
        work.display(),
        dir.display()
    );
    let argv: Vec<String> = [
        env!("CARGO_BIN_EXE_agent-loop-sim"),
        "--lang",
        "en",
        "tap",
        "--upstream",
        &server.url,
        "--out",
        &out.display().to_string(),
        "--",
        "sh",
        "-c",
        &agent,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut s = Session::start(120, 40, &argv);
    s.wait_for_screen(&["call #2", "● live: the agent runs"], &[]);
    s.wait_for_screen(&["the agent ended (exit code 0)"], &[]);
    s.press("q");
    assert_eq!(s.exit_code(), 0, "{}", s.text());
    s.assert_restored();
    let log = std::fs::read_to_string(dir.join("claude.agent.log")).unwrap();
    assert!(log.contains("limit to 42"), "{log}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(!text.contains("claude-dummy"), "the key was recorded");
}

/// An empty directory for one session's kept progress.
fn fresh_state_dir() -> std::path::PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("als-state-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}
