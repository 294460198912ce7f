//! Benchmarks: drawing frames, building a long trace, exporting.
//!
//!     cargo bench                       # everything (about two minutes)
//!     cargo bench -- long/              # a group by name
//!
//! Goals (see docs/performance.md for the measured numbers): a frame at
//! 120×40 in ≤ 300 µs, at 200×60 in ≤ 700 µs; the last step of a
//! 1,000-call trace drawn within 1.5× of the first; that trace built in
//! ≤ 50 ms and ≤ 50 MB. Timings are reported here, never asserted in tests.
//!
//! Memory is measured with a counting global allocator: before criterion
//! runs, the binary prints the peak heap used while building the long trace.

#[path = "support/long_scenario.rs"]
mod long_scenario;

use std::hint::black_box;
use std::time::{Duration, Instant};

use agent_loop_sim::app::{self, Action, App, Panel};
use agent_loop_sim::engine;
use agent_loop_sim::export;
use agent_loop_sim::frames;
use agent_loop_sim::i18n;
use agent_loop_sim::load::{self, DEFAULT_SCENARIO};
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::theme::Theme;
use criterion::{BenchmarkId, Criterion};
use lean_backend::LeanBackend;
use ratatui::backend::Backend;

#[path = "support/counting.rs"]
mod counting;
use counting::heap_of;

const LONG_CALLS: u32 = 1000;

fn default_app() -> App {
    App::new(load::load(DEFAULT_SCENARIO).unwrap(), Lang::Zh, Theme::DARK)
}

fn long_app() -> App {
    let json = long_scenario::json(LONG_CALLS);
    let loaded = load::prepare("<bench:long-reader>", json.as_bytes()).unwrap();
    App::new(loaded, Lang::Zh, Theme::DARK)
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// Printed once before the timings: memory, and one-shot times too long to
/// repeat under criterion.
fn report_memory() {
    let json = long_scenario::json(LONG_CALLS);
    let scenario = load::parse("<bench>", json.as_bytes()).unwrap();
    let (trace, peak, kept) = heap_of(|| engine::run(&scenario, Lang::Zh, i18n::said).unwrap());
    println!(
        "memory: the {LONG_CALLS}-call trace ({} steps, {} messages, ended {}): \
         peak heap {:.2} MiB while building, {:.2} MiB kept",
        trace.len(),
        trace.messages.len(),
        trace.end.code(),
        mib(peak),
        mib(kept)
    );
    drop(trace);
    let (loaded, peak, kept) = heap_of(|| load::prepare("<bench>", json.as_bytes()).unwrap());
    println!(
        "memory: load::prepare (parse, check, both languages): peak heap {:.2} MiB, {:.2} MiB kept",
        mib(peak),
        mib(kept)
    );
    let app = App::new(loaded, Lang::Zh, Theme::DARK);
    let last = app.last();
    let at = frames::at_step(&app, last, 120, 40);
    let (_, peak, _) = heap_of(|| frames::render(&at, 120, 40));
    println!(
        "memory: one frame of the last step at 120x40: peak heap {:.1} KiB",
        peak as f64 / 1024.0
    );
}

/// `export::write_cast` and `export::write_player`: steps to a writer.
type WriteExport = fn(
    &App,
    std::ops::RangeInclusive<usize>,
    (u16, u16),
    frames::Framing,
    f64,
    &mut dyn std::io::Write,
) -> std::io::Result<()>;

/// An export of a 2,000-call trace (10,002 steps) written to a sink: the
/// asciicast streams, so its peak heap is one screen's worth, not the
/// recording's (issue 12 asks for under 50 MB); the HTML player is packed
/// (gzip blocks of its steps): its size, its peak heap and the time to
/// write it.
fn export_memory(what: &str, write: WriteExport) {
    const CALLS: u32 = 2000;
    let json = long_scenario::json(CALLS);
    let loaded = load::prepare("<bench:export>", json.as_bytes()).unwrap();
    let app = App::new(loaded, Lang::Zh, Theme::DARK);
    let steps = app.trace().len();
    let start = Instant::now();
    let mut sink = CountingSink(0);
    let (result, peak, _) = heap_of(|| {
        write(
            &app,
            0..=steps - 1,
            (120, 40),
            frames::Framing::default(),
            2.0,
            &mut sink,
        )
    });
    result.unwrap();
    println!(
        "memory: {what} export of the {CALLS}-call trace ({steps} steps, {:.1} MiB written): \
         peak heap {:.2} MiB, {:.1} s",
        mib(sink.0),
        mib(peak),
        start.elapsed().as_secs_f64()
    );
}

/// A writer that keeps only the count of bytes.
struct CountingSink(usize);

impl std::io::Write for CountingSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Every frame of the long trace as text, once: five thousand frames take
/// seconds, too long to repeat under criterion.
fn export_long_once() {
    let app = long_app();
    let start = Instant::now();
    let mut bytes = 0;
    for index in 0..app.trace().len() {
        bytes += export::txt(&app, index, (120, 40)).len();
    }
    println!(
        "time: long/export-txt-all-frames, all {} frames of the {LONG_CALLS}-call trace at 120x40, once: {:.2} s ({:.1} MiB of text)",
        app.trace().len(),
        start.elapsed().as_secs_f64(),
        mib(bytes)
    );
}

fn default_frames(c: &mut Criterion) {
    let app = default_app();
    let steps = app.trace().len();
    for (w, h) in [(120, 40), (200, 60)] {
        let mut group = c.benchmark_group(format!("default/{w}x{h}"));
        for index in 0..steps {
            let at = frames::at_step(&app, index, w, h);
            group.bench_function(BenchmarkId::new("step", index + 1), |b| {
                b.iter(|| frames::render(black_box(&at), w, h))
            });
        }
        group.finish();
    }
}

fn long_trace(c: &mut Criterion) {
    let json = long_scenario::json(LONG_CALLS);
    let scenario = load::parse("<bench>", json.as_bytes()).unwrap();
    let app = long_app();
    let last = app.last();

    let mut group = c.benchmark_group("long");
    group.sample_size(20);
    group.bench_function("build-trace", |b| {
        b.iter(|| engine::run(black_box(&scenario), Lang::Zh, i18n::said).unwrap())
    });
    group.bench_function("load-prepare-both-languages", |b| {
        b.iter(|| load::prepare("<bench>", black_box(json.as_bytes())).unwrap())
    });
    group.finish();

    let mut group = c.benchmark_group("long/120x40");
    // Step 100 already fills every panel: against it, the last step shows
    // what the length of the trace costs, apart from how full the screen is.
    for (name, index) in [("first", 0), ("step-100", 99), ("last", last)] {
        let at = frames::at_step(&app, index, 120, 40);
        group.bench_function(name, |b| b.iter(|| frames::render(black_box(&at), 120, 40)));
    }
    // What a key costs at the end of the long trace: scrolling the context
    // (it measures how far it can scroll) and a resize (it clamps every
    // panel's scroll).
    let mut at = frames::at_step(&app, last, 120, 40);
    app::update(&mut at, Action::FocusNext);
    assert_eq!(at.focus, Panel::Context);
    group.bench_function("update-scroll-context", |b| {
        b.iter(|| {
            let mut a = at.clone();
            frames::apply(&mut a, Action::Scroll(-1));
            a.scroll
        })
    });
    group.bench_function("update-resize", |b| {
        b.iter(|| {
            let mut a = at.clone();
            frames::apply(&mut a, Action::Resize(121, 40));
            a.scroll
        })
    });
    group.finish();

    // Issue 22: the bytes of a step (steps 30 to 31 of the long run, where
    // the lanes and the call_id table move a row) through the terminal
    // backend, with the rows that move scrolled (the search for them, the
    // scrolling, the rest written) and with them written again: the
    // difference is what the search costs less what it saves in writing.
    let mut group = c.benchmark_group("backend/120x40");
    let (before, after) = (
        frames::render(&frames::at_step(&app, 29, 120, 40), 120, 40),
        frames::render(&frames::at_step(&app, 30, 120, 40), 120, 40),
    );
    for (name, scrolling) in [("step-scrolled", true), ("step-written", false)] {
        group.bench_function(name, |b| {
            b.iter_batched(
                || {
                    let mut backend =
                        LeanBackend::with_size(Vec::new(), 120, 40).with_scrolling(scrolling);
                    let empty = ratatui::buffer::Buffer::empty(before.area);
                    backend.draw(empty.diff(&before).into_iter()).unwrap();
                    backend.writer_mut().clear();
                    backend
                },
                |mut backend| {
                    backend.draw(before.diff(&after).into_iter()).unwrap();
                    backend.writer().len()
                },
                criterion::BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

/// Issue 18: what the wire costs on a 2,000-call run. `trace` is the
/// engine's run (which places every message in its provider's requests,
/// `wire::measure`) and the trace JSON; against it, `measure` alone,
/// one request body built, and a frame of the wire view (`w`) at the last
/// step.
fn wire_costs(c: &mut Criterion) {
    use agent_loop_sim::{trace_json, wire};
    let json = long_scenario::json(2000);
    let scenario = load::parse("<bench>", json.as_bytes()).unwrap();
    let trace = engine::run(&scenario, Lang::En, i18n::said).unwrap();
    let mut group = c.benchmark_group("wire/2000-calls");
    group.sample_size(10);
    group.bench_function("trace-engine-and-json", |b| {
        b.iter(|| {
            let t = engine::run(black_box(&scenario), Lang::En, i18n::said).unwrap();
            let mut out = Vec::new();
            trace_json::write(&t, trace_json::ContextShape::Linear, &mut out).unwrap();
            out.len()
        })
    });
    group.bench_function("measure", |b| {
        b.iter(|| wire::measure(black_box(&trace), None).places.len())
    });
    let last = trace.model_calls.len() - 1;
    group.bench_function("request-body-last-call", |b| {
        b.iter(|| wire::request(black_box(&trace), last))
    });
    let loaded = load::prepare("<bench:wire>", json.as_bytes()).unwrap();
    let mut app = App::new(loaded, Lang::En, Theme::DARK);
    app.wire = true;
    let at = frames::at_step(&app, app.last(), 120, 40);
    group.bench_function("wire-view-frame-last-step-120x40", |b| {
        b.iter(|| frames::render(black_box(&at), 120, 40))
    });
    app.wire = false;
    let at = frames::at_step(&app, app.last(), 120, 40);
    group.bench_function("context-frame-last-step-120x40", |b| {
        b.iter(|| frames::render(black_box(&at), 120, 40))
    });
    // The other providers' bodies: a Responses response echoes the tools,
    // an Anthropic request joins results into one user message.
    for provider in [wire::Provider::Responses, wire::Provider::Anthropic] {
        let loaded = load::prepare_all_as("<bench:wire>", json.as_bytes(), Some(provider)).unwrap();
        let mut app = App::new(loaded, Lang::En, Theme::DARK);
        app.wire = true;
        let at = frames::at_step(&app, app.last(), 120, 40);
        let name = format!("wire-view-frame-last-step-120x40-{}", provider.code());
        group.bench_function(name, |b| b.iter(|| frames::render(black_box(&at), 120, 40)));
    }
    group.finish();
}

/// Issue 22: a frame costs what the screen shows, not what the run holds.
/// The last step of 10 and of 10,000 model calls (goal: the same), and the
/// first frame of a workspace of 10,000 files, with and without loading it
/// (goal: under 16 ms).
fn big_runs(c: &mut Criterion) {
    let app_of = |json: String| {
        let loaded = load::prepare("<bench:big>", json.as_bytes()).unwrap();
        App::new(loaded, Lang::Zh, Theme::DARK)
    };
    let mut group = c.benchmark_group("big/120x40");
    group.sample_size(20);
    for calls in [10, 10_000] {
        let app = app_of(long_scenario::json(calls));
        let at = frames::at_step(&app, app.last(), 120, 40);
        group.bench_function(format!("last-step-{calls}-calls"), |b| {
            b.iter(|| frames::render(black_box(&at), 120, 40))
        });
    }
    let json = long_scenario::with_files(3, 10_000);
    let started = Instant::now();
    let app = app_of(json.clone());
    let loaded = started.elapsed();
    frames::render(&app, 120, 40);
    println!(
        "one-shot: 10,000 files: loaded in {:.1} ms, first frame {:.1} ms after",
        loaded.as_secs_f64() * 1e3,
        (started.elapsed() - loaded).as_secs_f64() * 1e3
    );
    if std::env::var_os("BIG_ONE_SHOT_ONLY").is_some() {
        return;
    }
    group.bench_function("first-frame-10000-files", |b| {
        b.iter(|| frames::render(black_box(&app), 120, 40))
    });
    group.sample_size(10);
    group.bench_function("load-and-first-frame-10000-files", |b| {
        b.iter(|| frames::render(&app_of(black_box(json.clone())), 120, 40))
    });
    group.finish();
}

fn export_all(c: &mut Criterion) {
    let app = default_app();
    let steps = app.trace().len();
    let mut group = c.benchmark_group("export/default/120x40");
    group.bench_function("svg-all-frames", |b| {
        b.iter(|| {
            (0..steps)
                .map(|i| export::svg(&app, i, (120, 40)).len())
                .sum::<usize>()
        })
    });
    group.bench_function("txt-all-frames", |b| {
        b.iter(|| {
            (0..steps)
                .map(|i| export::txt(&app, i, (120, 40)).len())
                .sum::<usize>()
        })
    });
    group.bench_function("ansi-all-frames", |b| {
        b.iter(|| {
            (0..steps)
                .map(|i| export::ansi(&app, i, (120, 40)).len())
                .sum::<usize>()
        })
    });
    group.finish();
}

/// A PNG frame in each language, with the fonts loaded once (as an export
/// does): the Chinese frame draws its CJK text in Noto Sans Mono CJK SC.
fn export_png(c: &mut Criterion) {
    let Ok(fonts) = export::PngFonts::named(true) else {
        eprintln!(
            "export/png: skipped, the fonts are not installed (fonts-dejavu-core, fonts-noto-cjk)"
        );
        return;
    };
    let mut group = c.benchmark_group("export/png/120x40");
    group.sample_size(10);
    for (name, step) in [("read-config-timeout", 7), ("seed-agent-loop", 25)] {
        for lang in [Lang::Zh, Lang::En] {
            let app = App::new(load::load(name).unwrap(), lang, Theme::DARK);
            let id = format!("{name}-step-{step}-{}", lang.code());
            group.bench_function(id, |b| {
                b.iter(|| {
                    export::png(&app, step - 1, (120, 40), &fonts, 2.0)
                        .unwrap()
                        .len()
                })
            });
        }
    }
    group.bench_function("load-fonts", |b| {
        b.iter(|| export::PngFonts::named(true).is_ok())
    });
    group.finish();
}

/// The default lesson as one PDF handout (`export --format pdf`, zh and
/// en): the fonts found and read, every step a page, the fonts subset.
fn export_pdf(c: &mut Criterion) {
    if export::PngFonts::named(true).is_err() {
        eprintln!(
            "export/pdf: skipped, the fonts are not installed (fonts-dejavu-core, fonts-noto-cjk)"
        );
        return;
    }
    let mut group = c.benchmark_group("export/pdf/120x40");
    group.sample_size(10);
    for lang in [Lang::Zh, Lang::En] {
        let dir = std::env::temp_dir().join(format!("bench-pdf-{}", lang.code()));
        let mut options = export::Options::new(agent_loop_sim::cli::ExportFormat::Pdf, dir);
        options.lang = lang;
        let id = format!("read-config-timeout-{}", lang.code());
        group.bench_function(id, |b| {
            b.iter(|| export::export(&options, |_| {}).unwrap().len())
        });
    }
    group.finish();
}

fn main() {
    // With a filter (`cargo bench -- long/120x40`), only what it names runs.
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let wanted = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));
    if wanted("memory") {
        report_memory();
    }
    if wanted("memory/cast") {
        export_memory("cast", export::write_cast);
    }
    if wanted("memory/html") {
        export_memory("html", export::write_player);
    }
    if wanted("long/export-txt-all-frames") {
        export_long_once();
    }
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    default_frames(&mut c);
    long_trace(&mut c);
    if filter
        .as_deref()
        .is_none_or(|f| "wire/2000-calls".contains(f) || f.starts_with("wire"))
    {
        wire_costs(&mut c);
    }
    if filter
        .as_deref()
        .is_none_or(|f| f.starts_with("big") || "big/120x40".contains(f))
    {
        big_runs(&mut c);
    }
    export_all(&mut c);
    export_png(&mut c);
    export_pdf(&mut c);
    c.final_summary();
}
