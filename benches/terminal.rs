//! What the terminal gets (issue 22): the real binary in a pseudo-terminal,
//! its output read back through a terminal emulator (vt100).
//!
//! - bytes per step key ÷ cells the key changed on screen, in en and zh
//!   (goal: ≤ 1.3), over 40 step keys of a long run at 120×40; where the
//!   bytes go (the symbols' text, cursor moves, SGR, erasing, scrolling),
//!   and the floor: the UTF-8 bytes of the changed cells alone (a
//!   box-drawing character is 3 bytes for one cell, a CJK one 3 for two),
//!   with and without the blanks (which erasing can send for less). Rows
//!   that move are scrolled (DECSTBM and SU/SD), which writes fewer cells
//!   than changed: the bytes can fall below that floor, down to another
//!   (`band_floor`): the least text any plan of full-width bands leaves to
//!   write, with every move and SGR free;
//! - CPU per key that has no binding, from the kernel's count of the time
//!   the process ran (`/proc/PID/schedstat`; goal: ≤ 0.1 ms), and the bytes
//!   such keys write (goal: none).
//!
//!     cargo bench --bench terminal
//!
//! Numbers are printed, never asserted. Each key waits for the screen to
//! settle, so the run takes a few seconds more on a busy machine.

// The binary's allocator (src/main.rs): what is timed is what it runs.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "support/long_scenario.rs"]
mod long_scenario;

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

const BIN: &str = env!("CARGO_BIN_EXE_agent-loop-sim");
const COLS: u16 = 120;
const ROWS: u16 = 40;

/// A cell as the terminal shows it: text, foreground, background, bold,
/// dim, inverse, underline.
type Look = (String, vt100::Color, vt100::Color, bool, bool, bool, bool);

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

    /// Every cell: its text and its look, as far as it shows. A cell erased
    /// (by ECH, EL or a clear) reads back as "" in vt100 and one holding a
    /// space as " ": the same on screen, so both count as " " (the right
    /// half of a wide character stays ""); and a blank neither reversed nor
    /// underlined shows its background only, so its foreground, boldness
    /// and dimness count as the default's. With `as_recorded`, every cell
    /// as vt100 records it instead (how this was counted up to 2026-12-01).
    fn cells(&self, as_recorded: bool) -> Vec<Look> {
        let out = self.output.lock().unwrap();
        let screen = out.1.screen();
        let mut cells = Vec::new();
        for row in 0..ROWS {
            for col in 0..COLS {
                let c = screen.cell(row, col).expect("a cell");
                let text = match c.contents() {
                    "" if !c.is_wide_continuation() && !as_recorded => " ",
                    t => t,
                };
                let shows_fg = as_recorded || text != " " || c.inverse() || c.underline();
                cells.push((
                    text.to_string(),
                    if shows_fg {
                        c.fgcolor()
                    } else {
                        vt100::Color::Default
                    },
                    c.bgcolor(),
                    c.bold() && shows_fg,
                    c.dim() && shows_fg,
                    c.inverse(),
                    c.underline(),
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

/// Where the bytes a key writes go: the symbols' text, cursor moves (CR,
/// LF, HT, BS and CSI moves), SGR,
/// erasing (ECH, EL, ED), scrolling (DECSTBM, SU, SD, IL, DL) and anything
/// else (bytes, sequences).
#[derive(Default)]
struct Tally {
    text: usize,
    /// Of `text`, the ASCII bytes.
    ascii: usize,
    moves: (usize, usize),
    sgr: (usize, usize),
    erase: (usize, usize),
    scroll: (usize, usize),
    other: (usize, usize),
}

impl Tally {
    fn add(&mut self, bytes: &[u8]) {
        let mut i = 0;
        while i < bytes.len() {
            let (kind, n) = match bytes[i] {
                0x1b if bytes.get(i + 1) == Some(&b'[') => {
                    // CSI: parameters and intermediates, then one final byte.
                    let end = (i + 2..bytes.len())
                        .find(|&j| (0x40..=0x7e).contains(&bytes[j]))
                        .unwrap_or(bytes.len() - 1);
                    let private = bytes.get(i + 2) == Some(&b'?');
                    let kind = match bytes[end] {
                        b'm' => &mut self.sgr,
                        b'H' | b'f' | b'A' | b'B' | b'C' | b'D' | b'E' | b'F' | b'G' | b'd'
                            if !private =>
                        {
                            &mut self.moves
                        }
                        b'X' | b'K' | b'J' => &mut self.erase,
                        b'r' | b'S' | b'T' | b'L' | b'M' if !private => &mut self.scroll,
                        _ => &mut self.other,
                    };
                    (kind, end + 1 - i)
                }
                0x1b => (&mut self.other, 2.min(bytes.len() - i)),
                b'\r' | b'\n' | b'\t' | 0x08 => (&mut self.moves, 1),
                b if b < 0x20 || b == 0x7f => (&mut self.other, 1),
                b => {
                    self.text += 1;
                    self.ascii += usize::from(b < 0x80);
                    i += 1;
                    continue;
                }
            };
            kind.0 += n;
            kind.1 += 1;
            i += n;
        }
    }
}

/// The UTF-8 bytes of the changed cells alone, by kind of cell: what
/// writing them costs with no move, no SGR and no erasing.
#[derive(Default)]
struct Floor {
    blanks: usize,
    ascii: usize,
    /// Narrow characters beyond ASCII (box drawing: 3 bytes a cell): count, bytes.
    narrow: (usize, usize),
    /// Wide characters (CJK: 3 bytes for 2 cells): count, bytes.
    wide: (usize, usize),
}

impl Floor {
    fn add(&mut self, text: &str) {
        use unicode_width::UnicodeWidthStr;
        match text {
            // The right half of a wide character: its bytes are the left's.
            "" => {}
            " " => self.blanks += 1,
            t if t.len() == 1 => self.ascii += 1,
            t if t.width() >= 2 => {
                self.wide.0 += 1;
                self.wide.1 += t.len();
            }
            t => {
                self.narrow.0 += 1;
                self.narrow.1 += t.len();
            }
        }
    }

    fn bytes(&self) -> usize {
        self.blanks + self.ascii + self.narrow.1 + self.wide.1
    }
}

/// The most rows the backend scrolls a band by (`lean-backend/src/scroll.rs`).
const MAX_SHIFT: usize = 3;

/// The least a step can cost when rows move only by full-width scrolling
/// (DECSTBM and SU/SD, as on tmux and the vt100 crate, which have no left
/// and right margins), with moves and SGR free: over every plan of bands
/// (none overlapping, each shifted by 1 to `MAX_SHIFT` rows), the UTF-8
/// bytes of the cells left to write (a run of blanks at most an ECH, 4
/// bytes), and 8 bytes a band for its sequences. A floor for what any
/// backend scrolling such bands sends, not what this one does.
fn band_floor(before: &[Look], after: &[Look]) -> usize {
    let (w, h) = (usize::from(COLS), usize::from(ROWS));
    let blank: Look = (
        " ".into(),
        vt100::Color::Default,
        vt100::Color::Default,
        false,
        false,
        false,
        false,
    );
    let blank_row = vec![blank; w];
    // Row `new` of `after` written over `old`.
    let cost = |new: &[Look], old: &[Look]| {
        let (mut bytes, mut blanks) = (0, 0);
        for (n, o) in new.iter().zip(old) {
            if n == o {
                bytes += blanks.min(4);
                blanks = 0;
            } else if n.0 == " " {
                blanks += 1;
            } else {
                bytes += blanks.min(4) + n.0.len();
                blanks = 0;
            }
        }
        bytes + blanks.min(4)
    };
    let row = |cells: &[Look], y: usize| cells[y * w..(y + 1) * w].to_vec();
    let new: Vec<Vec<Look>> = (0..h).map(|y| row(after, y)).collect();
    let old: Vec<Vec<Look>> = (0..h).map(|y| row(before, y)).collect();
    // moved[y][s]: row y over old row s; in[y]: over a blank row.
    let moved: Vec<Vec<usize>> = (0..h)
        .map(|y| (0..h).map(|s| cost(&new[y], &old[s])).collect())
        .collect();
    let scrolled_in: Vec<usize> = (0..h).map(|y| cost(&new[y], &blank_row)).collect();
    // least[y]: the least for rows y.. .
    let mut least = vec![0; h + 1];
    for y in (0..h).rev() {
        let mut best = moved[y][y] + least[y + 1];
        for bottom in y + 1..h {
            for k in 1..=MAX_SHIFT.min(bottom - y) {
                for up in [true, false] {
                    let band: usize = (y..=bottom)
                        .map(|r| {
                            let from = if up { r + k } else { r.wrapping_sub(k) };
                            if (y..=bottom).contains(&from) {
                                moved[r][from]
                            } else {
                                scrolled_in[r]
                            }
                        })
                        .sum();
                    best = best.min(band + 8 + least[bottom + 1]);
                }
            }
        }
        least[y] = best;
    }
    least[0]
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
        let (mut bytes, mut changed, mut changed_as_recorded) = (0, 0, 0);
        let (mut tally, mut floor) = (Tally::default(), Floor::default());
        let mut scrolled_floor = 0;
        for _ in 0..40 {
            let before = (t.bytes(), t.cells(false), t.cells(true));
            t.send(b"\x1b[C");
            t.settle(Duration::from_millis(60));
            let after = t.cells(false);
            let recorded = t.cells(true);
            changed_as_recorded += before
                .2
                .iter()
                .zip(&recorded)
                .filter(|(a, b)| a != b)
                .count();
            let written = t.output.lock().unwrap().0[before.0..].to_vec();
            bytes += written.len();
            tally.add(&written);
            for (_, cell) in before.1.iter().zip(&after).filter(|(a, b)| a != b) {
                changed += 1;
                floor.add(&cell.0);
            }
            scrolled_floor += band_floor(&before.1, &after);
        }
        println!(
            "terminal/{lang}/step-key: {bytes} bytes for {changed} changed cells: {:.3} bytes a cell \
             ({changed_as_recorded} cells as vt100 records them: {:.2})",
            bytes as f64 / changed.max(1) as f64,
            bytes as f64 / changed_as_recorded.max(1) as f64
        );
        println!(
            "terminal/{lang}/step-key/bytes: text {} ({} of them ASCII, {} of wider characters), \
             moves {} ({}), SGR {} ({}), erase {} ({}), scroll {} ({}), other {} ({})",
            tally.text,
            tally.ascii,
            tally.text - tally.ascii,
            tally.moves.0,
            tally.moves.1,
            tally.sgr.0,
            tally.sgr.1,
            tally.erase.0,
            tally.erase.1,
            tally.scroll.0,
            tally.scroll.1,
            tally.other.0,
            tally.other.1,
        );
        println!(
            "terminal/{lang}/step-key/floor: the changed cells' own UTF-8 bytes: {} ({:.2} a cell): \
             {} blanks, {} other ASCII, {} narrow non-ASCII ({} bytes), {} wide ({} bytes, {} cells); \
             without the blanks: {} ({:.2} a cell)",
            floor.bytes(),
            floor.bytes() as f64 / changed.max(1) as f64,
            floor.blanks,
            floor.ascii,
            floor.narrow.0,
            floor.narrow.1,
            floor.wide.0,
            floor.wide.1,
            2 * floor.wide.0,
            floor.bytes() - floor.blanks,
            (floor.bytes() - floor.blanks) as f64 / changed.max(1) as f64,
        );

        println!(
            "terminal/{lang}/step-key/floor-scrolled: the least text any plan of full-width \
             bands scrolled by up to {MAX_SHIFT} rows leaves to write, moves and SGR free: \
             {scrolled_floor} ({:.2} a cell)",
            scrolled_floor as f64 / changed.max(1) as f64,
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
