//! End to end: the real binary in a pseudo-terminal, its output read back
//! through a terminal emulator (vt100), as a person at a terminal sees it.
//! Also what it leaves behind: after q, Ctrl-C, SIGTERM or a panic the
//! terminal is out of raw mode, off the alternate screen, cursor shown.
//!
//! Waits poll the screen against a deadline instead of sleeping, so the
//! tests are quick when the machine is idle and still pass when it is busy.

mod common;

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use common::{BIN, long_scenario, scenario_file};
use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
/// Generous, for a loaded two-core machine; a pass takes far less.
const DEADLINE: Duration = Duration::from_secs(10);

/// Everything the program wrote, raw and as a screen.
struct Output {
    raw: Vec<u8>,
    screen: vt100::Parser,
    /// The program and everything it started have closed the terminal.
    closed: bool,
}

struct Session {
    master: Box<dyn MasterPty + Send>,
    child: Box<dyn Child + Send + Sync>,
    keys: Box<dyn Write + Send>,
    output: Arc<(Mutex<Output>, Condvar)>,
}

impl Session {
    fn start(cols: u16, rows: u16, env: &[(&str, &str)]) -> Session {
        Session::start_command(cols, rows, env, &[BIN])
    }

    /// The simulator with these arguments.
    fn start_with(cols: u16, rows: u16, env: &[(&str, &str)], args: &[&str]) -> Session {
        let argv: Vec<&str> = std::iter::once(BIN).chain(args.iter().copied()).collect();
        Session::start_command(cols, rows, env, &argv)
    }

    /// `argv` in the terminal instead of the simulator alone (a shell).
    fn start_command(cols: u16, rows: u16, env: &[(&str, &str)], argv: &[&str]) -> Session {
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
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = pty.slave.spawn_command(cmd).expect("spawn agent-loop-sim");
        // Only the child holds the terminal now, so its exit ends the output.
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

    /// Wait until `done` holds for the output; fail with the screen if it
    /// does not within the deadline.
    fn wait_for(&self, what: &str, done: impl Fn(&Output) -> bool) -> MutexGuard<'_, Output> {
        self.wait_for_within(what, DEADLINE, done)
    }

    fn wait_for_within(
        &self,
        what: &str,
        deadline: Duration,
        done: impl Fn(&Output) -> bool,
    ) -> MutexGuard<'_, Output> {
        let (lock, changed) = &*self.output;
        let until = Instant::now() + deadline;
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

    fn wait_for_text(&self, texts: &[&str]) -> String {
        self.wait_for_text_within(texts, DEADLINE)
    }

    fn wait_for_text_within(&self, texts: &[&str], deadline: Duration) -> String {
        let out = self.wait_for_within(&format!("{texts:?} on the screen"), deadline, |o| {
            let screen = o.screen.screen().contents();
            texts.iter().all(|t| screen.contains(t))
        });
        out.screen.screen().contents()
    }

    fn resize(&self, cols: u16, rows: u16) {
        // The emulator changes size at the same point of the byte stream.
        let mut out = self.output.0.lock().unwrap();
        out.screen.screen_mut().set_size(rows, cols);
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
    }

    /// (canonical input, echo) as the terminal is set now.
    fn line_mode(&self) -> (bool, bool) {
        let termios = self
            .master
            .get_termios()
            .expect("read the terminal's termios");
        let flags = termios.local_flags.bits();
        (flags & libc::ICANON != 0, flags & libc::ECHO != 0)
    }

    /// Wait for the program to exit and close the terminal; its exit code.
    fn exit_code(&mut self) -> u32 {
        drop(self.wait_for("the program to exit", |o| o.closed));
        let until = Instant::now() + DEADLINE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.exit_code();
            }
            assert!(
                Instant::now() < until,
                "the program closed its terminal but did not exit"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// After the program has exited: the terminal is as it was before.
    fn assert_restored(&self) {
        let (canonical, echo) = self.line_mode();
        assert!(
            canonical && echo,
            "the terminal is still in raw mode (icanon {canonical}, echo {echo})"
        );
        let out = self.output.0.lock().unwrap();
        let raw = &out.raw[..];
        let entered = rfind(raw, b"\x1b[?1049h").expect("the alternate screen was entered");
        let left = rfind(raw, b"\x1b[?1049l").expect("the alternate screen was left");
        let last_draw = last_cursor_move(raw).expect("something was drawn");
        assert!(
            entered < last_draw && last_draw < left,
            "the alternate screen is left after the last draw (entered at {entered}, last draw at {last_draw}, left at {left})"
        );
        let shown = rfind(raw, b"\x1b[?25h").expect("the cursor was shown");
        assert!(
            shown > left,
            "the cursor is shown again after the last draw"
        );
        let screen = out.screen.screen();
        assert!(!screen.alternate_screen(), "still on the alternate screen");
        assert!(!screen.hide_cursor(), "the cursor is still hidden");
    }

    /// What the program printed after leaving the alternate screen.
    fn after_exit_text(&self) -> String {
        let out = self.output.0.lock().unwrap();
        let left = rfind(&out.raw, b"\x1b[?1049l").map_or(0, |i| i + 8);
        String::from_utf8_lossy(&out.raw[left..]).into_owned()
    }
}

/// A test that fails half way leaves no simulator running.
impl Drop for Session {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn rfind(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|w| w == needle)
}

/// Where the last cursor move (`ESC [ row ; col H`, how every draw places
/// its text) starts.
fn last_cursor_move(raw: &[u8]) -> Option<usize> {
    (0..raw.len()).rev().find(|&i| {
        let Some(rest) = raw[i..].strip_prefix(b"\x1b[") else {
            return false;
        };
        let end = rest
            .iter()
            .position(|b| !(b.is_ascii_digit() || *b == b';'));
        end.is_some_and(|e| e > 0 && rest[e] == b'H' && rest[..e].contains(&b';'))
    })
}

const RIGHT: &str = "\x1b[C";

#[test]
fn steps_plays_resizes_and_quits_leaving_the_terminal_as_it_was() {
    let mut s = Session::start(120, 40, &[]);
    s.wait_for_text(&["1/8", "config.txt"]);
    let (canonical, echo) = s.line_mode();
    assert!(!canonical && !echo, "raw mode while running");

    s.press(RIGHT);
    s.press(RIGHT);
    s.wait_for_text(&["3/8", "call_1"]);

    // The shortest dwell (0.5 s), then play: it stops on the last step.
    s.press("----");
    s.wait_for_text(&["0.5s"]);
    s.press(" ");
    s.wait_for_text(&["8/8", "已暂停"]);

    s.resize(80, 24);
    // The compact layout (one panel under the lanes, Tab) at the new size.
    let screen = s.wait_for_text(&["8/8", "(Tab)"]);
    assert!(screen.lines().count() <= 24, "{screen}");

    s.press("q");
    assert_eq!(s.exit_code(), 0);
    s.assert_restored();
}

#[test]
fn a_transcript_opens_steps_and_quits_leaving_the_terminal_as_it_was() {
    let args = [
        "--transcript",
        "tests/transcripts/codex.jsonl",
        "--lang",
        "en",
    ];
    let mut s = Session::start_with(120, 40, &[], &args);
    s.wait_for_text(&["1/11", "Codex CLI rollout"]);
    s.press(RIGHT);
    s.press(RIGHT);
    s.wait_for_text(&["3/11", "call_A1", "call_B2"]);
    s.press("q");
    assert_eq!(s.exit_code(), 0);
    s.assert_restored();
}

#[test]
fn ctrl_c_quits_cleanly() {
    let mut s = Session::start(120, 40, &[]);
    s.wait_for_text(&["1/8"]);
    s.press("\x03");
    assert_eq!(s.exit_code(), 0);
    s.assert_restored();
}

#[test]
fn sigterm_restores_the_terminal() {
    let mut s = Session::start(100, 30, &[]);
    s.wait_for_text(&["1/8"]);
    let pid = s.child.process_id().expect("the child's pid");
    // SAFETY: kill(2) on a pid we spawned and have not reaped.
    assert_eq!(unsafe { libc::kill(pid as libc::pid_t, libc::SIGTERM) }, 0);
    assert_eq!(s.exit_code(), 128 + libc::SIGTERM as u32);
    s.assert_restored();
}

#[test]
fn a_panic_restores_the_terminal_and_says_where_to_report_it() {
    let mut s = Session::start(120, 40, &[(agent_loop_sim::tui::PANIC_TEST_VAR, "1")]);
    assert_ne!(s.exit_code(), 0);
    s.assert_restored();
    let message = s.after_exit_text();
    assert!(
        message.contains("agent-loop-sim stopped on an internal error")
            && message.contains("src/tui.rs")
            && message.contains("report this as an issue"),
        "{message}"
    );
    // Short: a few lines, no backtrace.
    assert!(message.lines().count() <= 6, "{message}");
}

#[test]
fn without_a_terminal_it_refuses_and_points_at_the_batch_commands() {
    let out = Command::new(BIN)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("needs a terminal") && err.contains("export") && err.contains("trace"),
        "{err}"
    );
}

/// A process's state letter from /proc (R, S, T for stopped, ...).
fn process_state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (name) S ...": the name may hold spaces, so look after the ')'.
    stat.rsplit_once(')')?.1.trim_start().chars().next()
}

/// The pid of `parent`'s child, waiting for it to be started.
fn child_of(parent: u32) -> u32 {
    let until = Instant::now() + DEADLINE;
    loop {
        let children = std::fs::read_dir("/proc").unwrap().filter_map(|e| {
            let pid: u32 = e.ok()?.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let ppid: u32 = stat
                .rsplit_once(')')?
                .1
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()?;
            (ppid == parent).then_some(pid)
        });
        if let Some(pid) = children.into_iter().next() {
            return pid;
        }
        assert!(Instant::now() < until, "no child of {parent}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn wait_for_state(pid: u32, wanted: char) {
    let until = Instant::now() + DEADLINE;
    while process_state(pid) != Some(wanted) {
        assert!(
            Instant::now() < until,
            "process {pid} is {:?}, expected {wanted}",
            process_state(pid)
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn send(pid: u32, signal: libc::c_int) {
    // SAFETY: kill(2) on a pid of a process this test started.
    assert_eq!(unsafe { libc::kill(pid as libc::pid_t, signal) }, 0);
}

/// Under a shell with job control, as a user runs it: `kill -TSTP` (or
/// Ctrl-Z) stops the simulator with the terminal given back, and `fg`
/// brings back a redrawn simulator whose keys work.
#[test]
fn suspend_gives_the_terminal_back_and_fg_brings_the_simulator_back() {
    // The shell waits on the simulator; each time it stops, the shell reads
    // a line (as a user types at the prompt), then runs `fg`.
    let script = format!("set -m; {BIN} --lang en; read -r line; fg; read -r line; fg");
    let mut s = Session::start_command(
        100,
        30,
        &[],
        &["bash", "--norc", "--noprofile", "-c", &script],
    );
    s.wait_for_text(&["1/8"]);
    let shell = s.child.process_id().unwrap();
    let sim = child_of(shell);
    s.press(RIGHT);
    s.wait_for_text(&["2/8"]);

    for suspend in [Suspend::Signal, Suspend::CtrlZ] {
        match suspend {
            Suspend::Signal => send(sim, libc::SIGTSTP),
            Suspend::CtrlZ => s.press("\x1a"),
        }
        wait_for_state(sim, 'T');
        let (canonical, echo) = s.line_mode();
        assert!(
            canonical && echo,
            "{suspend:?}: stopped in raw mode (icanon {canonical}, echo {echo})"
        );
        drop(s.wait_for("the main screen back", |o| {
            !o.screen.screen().alternate_screen() && !o.screen.screen().hide_cursor()
        }));
        // The shell reads its line in line mode: Enter ends it; `fg`.
        s.press("\r");
        wait_for_state(sim, 'S');
        drop(s.wait_for("the alternate screen again", |o| {
            o.screen.screen().alternate_screen() && o.screen.screen().hide_cursor()
        }));
        let (canonical, echo) = s.line_mode();
        assert!(!canonical && !echo, "{suspend:?}: raw mode again");
        // Redrawn in full, and keys work.
        s.wait_for_text(&["2/8", "Lanes", "Context"]);
        s.press(RIGHT);
        s.wait_for_text(&["3/8"]);
        s.press("\x1b[D");
        s.wait_for_text(&["2/8"]);
    }
    s.press("q");
    assert_eq!(s.exit_code(), 0);
    s.assert_restored();
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Suspend {
    Signal,
    CtrlZ,
}

/// SIGUSR1, like SIGTERM, ends the program with the terminal restored.
#[test]
fn sigusr1_restores_the_terminal() {
    let mut s = Session::start(100, 30, &[]);
    s.wait_for_text(&["1/8"]);
    send(s.child.process_id().unwrap(), libc::SIGUSR1);
    assert_eq!(s.exit_code(), 128 + libc::SIGUSR1 as u32);
    s.assert_restored();
}

/// 6,000 Right keys sent at once are all taken (the event loop reads every
/// pending event before it draws), and a `q` after them quits.
#[test]
fn a_burst_of_keys_is_taken_in_full() {
    let file = scenario_file("pty-long-10000.json", &long_scenario::json(10_000));
    let mut s = Session::start_command(120, 40, &[], &[BIN, "--scenario", &file, "--lang", "en"]);
    s.wait_for_text_within(&["1/50002"], Duration::from_secs(60));
    s.press(&RIGHT.repeat(6000));
    s.wait_for_text_within(&["6001/50002"], Duration::from_secs(60));
    s.press("q");
    assert_eq!(s.exit_code(), 0);
    s.assert_restored();
}

#[test]
fn the_quiz_asks_before_step_2_and_a_digit_reveals_it_with_the_score() {
    // The lesson asks from step 3 on; `--quiz-steps 2` asks about step 2.
    let args = ["--quiz", "--quiz-steps", "2", "--lang", "en"];
    let mut s = Session::start_with(120, 40, &[], &args);
    let screen = s.wait_for_text(&["step 1/8", "Predict step 2", "[1] ", "[2] ", "score 0/0"]);
    assert!(!screen.contains("step 2/8"), "{screen}");
    s.press("1");
    // Right or wrong, the answer is scored (the frame is read whole).
    let out = s.wait_for("step 2 and the score", |o| {
        let screen = o.screen.screen().contents();
        screen.contains("step 2/8")
            && (screen.contains("score 1/1") || screen.contains("score 0/1"))
    });
    let screen = out.screen.screen().contents();
    drop(out);
    assert!(!screen.contains("Predict step"), "{screen}");
    s.press("q");
    assert_eq!(s.exit_code(), 0);
    s.assert_restored();

    // A replayed transcript is asked about in the same way.
    let args = [
        "--transcript",
        "tests/transcripts/codex.jsonl",
        "--quiz",
        "--lang",
        "en",
    ];
    let mut s = Session::start_with(80, 24, &[], &args);
    s.wait_for_text(&["1/11", "Predict step 2", "[1] "]);
    s.press("2");
    s.wait_for_text(&["2/11", "score "]);
}

/// The lesson picker in a real terminal: opened on a transcript, it offers
/// the catalogue, the transcript and a broken file (with its error); Enter
/// on the broken one changes nothing, on the second lesson opens it.
#[test]
fn the_lesson_picker_switches_lessons_without_restarting() {
    let args = [
        "--transcript",
        "tests/transcripts/codex.jsonl",
        "--lesson",
        "no-such-lesson.json",
        "--lang",
        "en",
    ];
    let mut s = Session::start_with(120, 40, &[], &args);
    s.wait_for_text(&["1/11", "Codex CLI rollout"]);
    s.press("o");
    // The picker opens at the run shown, below the 30 lessons.
    s.wait_for_text(&["Lessons", "codex.jsonl", "(open now)"]);
    s.press("g");
    s.wait_for_text(&["Lessons", "Read the timeout"]);
    s.press("G");
    s.wait_for_text(&["no-such-lesson.json", "cannot open: no-such-lesson.json"]);
    s.press("\r");
    s.press("g");
    s.press("j");
    s.press("\r");
    s.wait_for_text(&["1/18", "Wrong path first"]);
    let (canonical, echo) = s.line_mode();
    assert!(!canonical && !echo, "raw mode while running");
    s.press("q");
    assert_eq!(s.exit_code(), 0);
    s.assert_restored();
}

/// Self-study: the step a lesson was left at is kept in the state
/// directory the environment names ($XDG_STATE_HOME), and the next start
/// opens the lesson there; a broken state file is ignored with a note.
#[test]
fn a_lesson_opens_again_where_it_was_left() {
    let state = fresh_state_dir();
    let env = [("XDG_STATE_HOME", state.to_str().unwrap())];
    let mut s = Session::start_with(120, 40, &env, &["--lang", "en"]);
    s.wait_for_text(&["1/8", "config.txt"]);
    s.press(RIGHT);
    s.press(RIGHT);
    s.press(RIGHT);
    s.wait_for_text(&["4/8"]);
    s.press("q");
    assert_eq!(s.exit_code(), 0);
    let kept = std::fs::read_to_string(state.join("agent-loop-sim/progress.json")).unwrap();
    let kept: serde_json::Value = serde_json::from_str(&kept).unwrap();
    assert_eq!(kept["lessons"]["read-config-timeout"]["step"], 4, "{kept}");
    let mut s = Session::start_with(120, 40, &env, &["--lang", "en"]);
    s.wait_for_text(&["4/8"]);
    s.press("o");
    s.wait_for_text(&["seen 4/8"]);
    s.press("\x1b");
    s.wait_for_text(&["Explanation"]);
    s.press("q");
    assert_eq!(s.exit_code(), 0);
    // A file this program did not write: ignored, and said after the run.
    std::fs::write(state.join("agent-loop-sim/progress.json"), "{oops").unwrap();
    let mut s = Session::start_with(120, 40, &env, &["--lang", "en"]);
    s.wait_for_text(&["1/8"]);
    s.press("q");
    assert_eq!(s.exit_code(), 0);
    // Printed before the screen was taken, seen again once it is given back.
    s.wait_for_text(&["ignoring the progress file"]);
    let _ = std::fs::remove_dir_all(&state);
}

/// A Codex rollout of 33 MiB and more (700 shell calls of 50 kB output),
/// written once for the tests that open a big transcript.
fn big_transcript(name: &str) -> std::path::PathBuf {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let mut text = String::from(
        "{\"timestamp\":\"2026-11-30T10:00:00.000Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"Read every log.\"}]}}\n",
    );
    let output = "log line ".repeat(50_000 / 9);
    for i in 0..700 {
        text.push_str(&format!(
            "{{\"timestamp\":\"2026-11-30T10:00:01.000Z\",\"type\":\"response_item\",\"payload\":{{\"type\":\"function_call\",\"name\":\"shell\",\"arguments\":\"{{\\\"command\\\":[\\\"cat\\\",\\\"{i}.log\\\"]}}\",\"call_id\":\"call_{i}\"}}}}\n\
             {{\"timestamp\":\"2026-11-30T10:00:02.000Z\",\"type\":\"response_item\",\"payload\":{{\"type\":\"function_call_output\",\"call_id\":\"call_{i}\",\"output\":\"{output}\"}}}}\n"
        ));
    }
    assert!(text.len() > 33 << 20, "{}", text.len());
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_big_transcript_shows_how_far_it_has_been_read_until_the_first_frame() {
    let path = big_transcript("big-progress.jsonl");
    let args = ["--transcript", path.to_str().unwrap(), "--lang", "en"];
    let mut s = Session::start_with(120, 40, &[], &args);
    // The loading screen, on the terminal the simulator has taken (keys
    // are not echoed), until the first step replaces it.
    s.wait_for_text_within(
        &["big-progress.jsonl", "q or Esc: stop and quit"],
        Duration::from_secs(120),
    );
    s.wait_for_text_within(&["step 1/", "Codex CLI rollout"], Duration::from_secs(120));
    s.press("q");
    assert_eq!(s.exit_code(), 0);
    s.assert_restored();
    let out = s.wait_for("the end", |o| o.closed);
    let raw = String::from_utf8_lossy(&out.raw);
    let alternate = raw.find("\u{1b}[?1049h").unwrap();
    let loading = raw.find("q or Esc: stop and quit").unwrap();
    assert!(
        alternate < loading,
        "the loading screen is drawn on the taken screen"
    );
    drop(out);
    std::fs::remove_file(&path).ok();
}

#[test]
fn q_stops_a_big_transcript_while_it_loads() {
    let path = big_transcript("big-stopped.jsonl");
    let args = ["--transcript", path.to_str().unwrap(), "--lang", "en"];
    let mut s = Session::start_with(120, 40, &[], &args);
    s.wait_for_text_within(
        &["big-stopped.jsonl", "q or Esc: stop and quit"],
        Duration::from_secs(120),
    );
    let (canonical, echo) = s.line_mode();
    assert!(!canonical && !echo, "keys are not echoed while it loads");
    s.press("q");
    assert_eq!(s.exit_code(), 0);
    // The terminal as it was (the loading screen is text only, so the
    // order of draws that `assert_restored` checks does not apply).
    assert_eq!(s.line_mode(), (true, true), "raw mode left");
    let out = s.wait_for("the end", |o| o.closed);
    let raw = String::from_utf8_lossy(&out.raw);
    assert!(!raw.contains("step 1/"), "stopped before the first step");
    let left = raw
        .rfind("\u{1b}[?1049l")
        .expect("the alternate screen was left");
    assert!(
        raw[left..].contains("\u{1b}[?25h"),
        "the cursor is shown again"
    );
    drop(out);
    std::fs::remove_file(&path).ok();
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
