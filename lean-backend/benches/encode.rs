//! What a frame costs to send: the bytes and the time to encode a few
//! synthetic frames at 120×40 into a `Vec`, through `LeanBackend` and
//! through ratatui's `CrosstermBackend`, each given ratatui's diff from the
//! frame before.
//!
//!     cargo bench -p lean-backend
//!
//! The bytes are printed before criterion's timings; nothing is asserted.
//! The frames: a screen drawn on a blank one (`first`), a list beside a
//! panel that stays moving up a row (`list-moves`, which `LeanBackend`
//! scrolls), a clock in the footer ticking (`clock`), and the panel's
//! Chinese text replaced (`cjk-text`).

use std::hint::black_box;

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
        if n % 5 == 0 {
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

/// `backend` once it has drawn `before` on a blank screen.
fn drawn<B: Backend>(mut backend: B, before: &Buffer) -> B {
    let blank = Buffer::empty(before.area);
    backend.draw(blank.diff(before).into_iter()).unwrap();
    backend
}

fn lean(before: &Buffer) -> LeanBackend<Vec<u8>> {
    let mut backend = drawn(LeanBackend::with_size(Vec::new(), WIDTH, HEIGHT), before);
    backend.writer_mut().clear();
    backend
}

fn crossterm(before: &Buffer) -> CrosstermBackend<Vec<u8>> {
    let mut backend = drawn(CrosstermBackend::new(Vec::new()), before);
    Backend::flush(&mut backend).unwrap();
    backend.writer_mut().clear();
    backend
}

fn main() {
    for (name, before, after) in frames() {
        let diff = before.diff(&after);
        let mut l = lean(&before);
        l.draw(diff.iter().copied()).unwrap();
        let mut c = crossterm(&before);
        c.draw(diff.iter().copied()).unwrap();
        Backend::flush(&mut c).unwrap();
        let (l, c) = (l.writer().len(), c.writer().len());
        println!(
            "encode/{name}: {} cells changed; lean {l} bytes, crossterm {c} bytes ({:.2}×)",
            diff.len(),
            c as f64 / l.max(1) as f64
        );
    }
    let mut criterion = Criterion::default().configure_from_args();
    let mut group = criterion.benchmark_group("encode/120x40");
    for (name, before, after) in frames() {
        group.bench_function(format!("{name}/lean"), |b| {
            b.iter_batched(
                || lean(&before),
                |mut backend| {
                    backend.draw(before.diff(&after).into_iter()).unwrap();
                    black_box(backend.writer().len())
                },
                BatchSize::SmallInput,
            )
        });
        group.bench_function(format!("{name}/crossterm"), |b| {
            b.iter_batched(
                || crossterm(&before),
                |mut backend| {
                    backend.draw(before.diff(&after).into_iter()).unwrap();
                    Backend::flush(&mut backend).unwrap();
                    black_box(backend.writer().len())
                },
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
    criterion.final_summary();
}
