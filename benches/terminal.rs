//! What the terminal gets (issue 22): the real binary in a pseudo-terminal,
//! its output read back through a terminal emulator (vt100).
//!
//! - bytes per step key ÷ cells the key changed on screen, in en and zh
//!   (goal: ≤ 1.3);
//! - CPU per key that has no binding, from the kernel's count of the time
//!   the process ran (`/proc/PID/schedstat`; goal: ≤ 0.1 ms), and the bytes
//!   such keys write (goal: none).
//!
//!     cargo bench --bench terminal
//!
//! Numbers are printed, never asserted. Each key waits for the screen to
//! settle, so the run takes a few seconds more on a busy machine.

#[path = "support/long_scenario.rs"]
mod long_scenario;

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

const BIN: &str = env!("CARGO_BIN_EXE_agent-loop-sim");
const COLS: u16 = 120;
const ROWS: u16 = 40;

struct Terminal {
    child: Box<dyn portable_pty::Child + Send + Sync>,
    keys: Box<dyn Write + Send>,
    output: Arc<Mutex<(Vec<u8>, vt100::Parser)>>,
    _master: Box<dyn portable_pty::MasterPty + Send>,
}

impl Terminal {
    fn start(args: &[&str]) -> Terminal {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut cmd = CommandBuilder::new(BIN);
        cmd.args(args);
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("NO_COLOR");
        let child = pty.slave.spawn_command(cmd).expect("spawn");
        drop(pty.slave);
        let output = Arc::new(Mutex::new((Vec::new(), vt100::Parser::new(ROWS, COLS, 0))));
        let mut reader = pty.master.try_clone_reader().expect("reader");
        let shared = Arc::clone(&output);
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    return;
                }
                let mut out = shared.lock().unwrap();
                out.0.extend_from_slice(&buf[..n]);
                out.1.process(&buf[..n]);
            }
        });
        let keys = pty.master.take_writer().expect("writer");
        Terminal {
            child,
            keys,
            output,
            _master: pty.master,
        }
    }

    fn bytes(&self) -> usize {
        self.output.lock().unwrap().0.len()
    }

    /// Wait until nothing more arrives for `quiet`.
    fn settle(&self, quiet: Duration) {
        let mut last = (self.bytes(), Instant::now());
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
            let n = self.bytes();
            if n != last.0 {
                last = (n, Instant::now());
            } else if last.1.elapsed() >= quiet {
                return;
            }
        }
    }

    /// Every cell: its text and its look.
    fn cells(&self) -> Vec<(String, vt100::Color, vt100::Color, bool, bool, bool)> {
        let out = self.output.lock().unwrap();
        let screen = out.1.screen();
        let mut cells = Vec::new();
        for row in 0..ROWS {
            for col in 0..COLS {
                let c = screen.cell(row, col).expect("a cell");
                cells.push((
                    c.contents().to_string(),
                    c.fgcolor(),
                    c.bgcolor(),
                    c.bold(),
                    c.dim(),
                    c.inverse(),
                ));
            }
        }
        cells
    }

    fn send(&mut self, bytes: &[u8]) {
        self.keys.write_all(bytes).unwrap();
        self.keys.flush().unwrap();
    }

    /// Nanoseconds the process has run on a CPU.
    fn cpu_ns(&self) -> u64 {
        let pid = self.child.process_id().expect("a pid");
        let stat = std::fs::read_to_string(format!("/proc/{pid}/schedstat")).expect("schedstat");
        stat.split_whitespace().next().unwrap().parse().unwrap()
    }

    fn quit(mut self) {
        self.send(b"q");
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if self.child.try_wait().unwrap().is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.child.kill().ok();
    }
}

fn main() {
    // Under `cargo test --benches` the benchmark is only built.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let file = std::env::temp_dir().join(format!("als-terminal-{}.json", std::process::id()));
    std::fs::write(&file, long_scenario::json(50)).unwrap();
    let file = file.to_str().unwrap().to_string();
    for lang in ["en", "zh"] {
        let mut t = Terminal::start(&["--scenario", &file, "--lang", lang]);
        t.settle(Duration::from_millis(300));
        let (mut bytes, mut changed) = (0, 0);
        for _ in 0..40 {
            let before = (t.bytes(), t.cells());
            t.send(b"\x1b[C");
            t.settle(Duration::from_millis(60));
            let after = t.cells();
            bytes += t.bytes() - before.0;
            changed += before.1.iter().zip(&after).filter(|(a, b)| a != b).count();
        }
        println!(
            "terminal/{lang}/step-key: {bytes} bytes for {changed} changed cells: {:.2} bytes a cell",
            bytes as f64 / changed.max(1) as f64
        );

        let keys = 500;
        let (cpu, written) = (t.cpu_ns(), t.bytes());
        for _ in 0..keys {
            t.send(b"y");
            std::thread::sleep(Duration::from_millis(2));
        }
        t.settle(Duration::from_millis(200));
        let per_key = (t.cpu_ns() - cpu) as f64 / keys as f64 / 1e6;
        println!(
            "terminal/{lang}/unbound-key: {per_key:.3} ms CPU a key, {} bytes written for {keys} keys",
            t.bytes() - written
        );
        t.quit();
    }
    std::fs::remove_file(&file).ok();
}
