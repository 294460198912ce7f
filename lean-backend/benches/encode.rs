//! What a frame costs to send: the bytes and the time to encode a few
//! synthetic frames at 120×40 into a `Vec`, through `LeanBackend` and
//! through ratatui's `CrosstermBackend`, each given ratatui's diff from the
//! frame before.
//!
//!     cargo bench -p lean-backend
//!
//! The bytes are printed before criterion's timings; nothing is asserted.
//! `LeanBackend` is timed with rows that move scrolled (its default, `lean`)
//! and written again (`lean-unscrolled`: no search for them).
//! The frames: a screen drawn on a blank one (`first`), a list beside a
//! panel that stays moving up a row (`list-moves`, which `LeanBackend`
//! scrolls), a clock in the footer ticking (`clock`), and the panel's
//! Chinese text replaced (`cjk-text`).

use std::cell::RefCell;
use std::hint::black_box;
use std::io::{self, Write};
use std::rc::Rc;

use criterion::{BatchSize, Criterion};
use lean_backend::LeanBackend;
use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

const WIDTH: u16 = 120;
const HEIGHT: u16 = 40;

/// A screen of a program that steps through a log: a title bar, a list of
/// entries from `first` on the left (box drawing, three colours), a
/// bordered panel of Chinese text on the right (`text`: which of two), and
/// a footer with keys and a clock.
fn screen(first: usize, text: usize, clock: u32) -> Buffer {
    let mut buf = Buffer::empty(Rect::new(0, 0, WIDTH, HEIGHT));
    let title = Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD);
    buf.set_string(0, 0, format!("{:<120}", " log viewer · step view"), title);
    let kinds = [
        ("model → host", Style::new().fg(Color::Cyan)),
        ("host  → tool", Style::new().fg(Color::Yellow)),
        ("tool  → host", Style::new().fg(Color::Green)),
    ];
    for y in 1..HEIGHT - 1 {
        let n = first + usize::from(y);
        let (what, style) = kinds[n % 3];
        let row = format!("{n:04} │ {what} │ read notes/{:02}.md", n % 17);
        buf.set_string(1, y, row, style);
        if n.is_multiple_of(5) {
            buf.set_string(48, y, "读取文件", style.add_modifier(Modifier::BOLD));
        }
    }
    let border = Style::new().fg(Color::DarkGray);
    let panel = [
        "模型只看到它收到的上下文：每一步都重新发送。",
        "工具的结果以 call_id 配对，回到下一次请求里。",
    ][text];
    for y in 1..HEIGHT - 1 {
        buf.set_string(70, y, "│", border);
        buf.set_string(119, y, "│", border);
        if (3..HEIGHT - 3).contains(&y) && y % 2 == 1 {
            buf.set_string(72, y, panel, Style::new().fg(Color::White));
        }
    }
    let footer = Style::new().fg(Color::DarkGray);
    buf.set_string(0, HEIGHT - 1, " ←/→ step  ? help  q quit", footer);
    buf.set_string(
        108,
        HEIGHT - 1,
        format!("{:02}:{:02}:{:02}", 12, clock / 60, clock % 60),
        footer,
    );
    buf
}

/// The frames: a name, the frame before and the frame sent.
fn frames() -> Vec<(&'static str, Buffer, Buffer)> {
    vec![
        (
            "first",
            Buffer::empty(Rect::new(0, 0, WIDTH, HEIGHT)),
            screen(10, 0, 0),
        ),
        ("list-moves", screen(10, 0, 0), screen(11, 0, 0)),
        ("clock", screen(10, 0, 0), screen(10, 0, 1)),
        ("cjk-text", screen(10, 0, 0), screen(10, 1, 0)),
    ]
}

/// `backend` once it has drawn `before` on a blank screen (nothing when
/// `before` is blank: then what `LeanBackend` sends with its first frame,
/// the tab stops, counts in the frame measured).
fn drawn<B: Backend>(mut backend: B, before: &Buffer) -> B {
    let blank = Buffer::empty(before.area);
    if *before != blank {
        backend.draw(blank.diff(before).into_iter()).unwrap();
    }
    backend
}

/// A `Vec` the bytes are written into, read from outside the backend
/// (`CrosstermBackend::writer` is unstable in ratatui 0.30).
#[derive(Clone, Default)]
struct Sink(Rc<RefCell<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Sink {
    fn len(&self) -> usize {
        self.0.borrow().len()
    }

    fn clear(&self) {
        self.0.borrow_mut().clear();
    }
}

/// `LeanBackend`, with rows that move scrolled or written again.
fn lean(before: &Buffer, scrolling: bool) -> (LeanBackend<Sink>, Sink) {
    let sink = Sink::default();
    let backend = LeanBackend::with_size(sink.clone(), WIDTH, HEIGHT).with_scrolling(scrolling);
    let backend = drawn(backend, before);
    sink.clear();
    (backend, sink)
}

fn crossterm(before: &Buffer) -> (CrosstermBackend<Sink>, Sink) {
    let sink = Sink::default();
    let mut backend = drawn(CrosstermBackend::new(sink.clone()), before);
    Backend::flush(&mut backend).unwrap();
    sink.clear();
    (backend, sink)
}

fn main() {
    for (name, before, after) in frames() {
        let diff = before.diff(&after);
        let lean_bytes = |scrolling| {
            let (mut backend, sink) = lean(&before, scrolling);
            backend.draw(diff.iter().copied()).unwrap();
            sink.len()
        };
        let (l, unscrolled) = (lean_bytes(true), lean_bytes(false));
        let (mut backend, sink) = crossterm(&before);
        backend.draw(diff.iter().copied()).unwrap();
        Backend::flush(&mut backend).unwrap();
        let c = sink.len();
        println!(
            "encode/{name}: {} cells changed; lean {l} bytes ({unscrolled} unscrolled), \
             crossterm {c} bytes ({:.2}×)",
            diff.len(),
            c as f64 / l.max(1) as f64
        );
    }
    let mut criterion = Criterion::default().configure_from_args();
    let mut group = criterion.benchmark_group("encode/120x40");
    for (name, before, after) in frames() {
        for (kind, scrolling) in [("lean", true), ("lean-unscrolled", false)] {
            group.bench_function(format!("{name}/{kind}"), |b| {
                b.iter_batched(
                    || lean(&before, scrolling),
                    |(mut backend, sink)| {
                        backend.draw(before.diff(&after).into_iter()).unwrap();
                        black_box(sink.len())
                    },
                    BatchSize::SmallInput,
                )
            });
        }
        group.bench_function(format!("{name}/crossterm"), |b| {
            b.iter_batched(
                || crossterm(&before),
                |(mut backend, sink)| {
                    backend.draw(before.diff(&after).into_iter()).unwrap();
                    Backend::flush(&mut backend).unwrap();
                    black_box(sink.len())
                },
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
    criterion.final_summary();
}
