//! End to end: the real binary in a pseudo-terminal, its output read back
//! through a terminal emulator (vt100), as a person at a terminal sees it.
//! Also what it leaves behind: after q, Ctrl-C, SIGTERM or a panic the
//! terminal is out of raw mode, off the alternate screen, cursor shown.
//!
//! Waits poll the screen against a deadline instead of sleeping, so the
//! tests are quick when the machine is idle and still pass when it is busy.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

const BIN: &str = env!("CARGO_BIN_EXE_agent-loop-sim");
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
        Session::start_with(cols, rows, env, &[])
    }

    fn start_with(cols: u16, rows: u16, env: &[(&str, &str)], args: &[&str]) -> Session {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("open a pseudo-terminal");
        let mut cmd = CommandBuilder::new(BIN);
        cmd.args(args);
        cmd.cwd(env!("CARGO_MANIFEST_DIR"));
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("NO_COLOR");
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

    fn wait_for_text(&self, texts: &[&str]) -> String {
        let out = self.wait_for(&format!("{texts:?} on the screen"), |o| {
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
