//! Benchmark: opening a long real run. A generated Codex CLI rollout of
//! 2,000 tool calls with 20 MB of tool output (10 KB each, like whole
//! files and test logs) is written to a temporary file, then:
//!
//! - open: read, detect, build both languages' traces (target: first frame
//!   within 150 ms, together with `first-frame`); tokens are counted when a
//!   frame shows them, so the report also times End pressed at once (the
//!   last request, every tool output, counted then);
//! - first-frame / last-frame: draw step 1 and the last step at 120x40;
//!   open-to-first-frame: open, then draw step 1 (the 150 ms target);
//! - key-at-last-step: one key (Next is a no-op there, so Prev) at the end
//!   (target: under 16 ms);
//! - memory: the peak heap while opening (target: under 200 MB), printed
//!   before the timings.
//!
//!     cargo bench --bench transcript -- --warm-up-time 1 --measurement-time 3

use std::hint::black_box;
use std::io::Write;
use std::time::Instant;

use agent_loop_sim::app::{self, Action, App};
use agent_loop_sim::frames;
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::theme::Theme;
use agent_loop_sim::transcript;
use criterion::Criterion;

#[path = "support/counting.rs"]
mod counting;
use counting::heap_of;

const CALLS: usize = 2000;
const OUTPUT_BYTES: usize = 10 * 1024;

/// Write the rollout: a task, then per model call one reply with a
/// parallel pair every tenth call, each call's 10 KB output, and a final
/// answer. Returns the path.
fn write_rollout() -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("als-bench-rollout-{}.jsonl", std::process::id()));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let mut line = |kind: &str, payload: serde_json::Value| {
        let v = serde_json::json!({"timestamp": "2026-11-30T10:00:00.000Z", "type": kind, "payload": payload});
        serde_json::to_writer(&mut out, &v).unwrap();
        out.write_all(b"\n").unwrap();
    };
    line(
        "session_meta",
        serde_json::json!({"id": "bench", "cwd": "/bench", "originator": "bench", "cli_version": "0"}),
    );
    line(
        "response_item",
        serde_json::json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Read every file and report."}]}),
    );
    let body: String = "fn main() { println!(\"hello\"); } // a line of a long file\n"
        .repeat(OUTPUT_BYTES / 58 + 1)[..OUTPUT_BYTES]
        .to_string();
    let mut n = 0;
    while n < CALLS {
        let group = if n % 10 == 0 && n + 1 < CALLS { 2 } else { 1 };
        for k in 0..group {
            line(
                "response_item",
                serde_json::json!({"type": "function_call", "name": "shell",
                "arguments": format!("{{\"command\":[\"cat\",\"src/file_{}.rs\"]}}", n + k), "call_id": format!("call_{}", n + k)}),
            );
        }
        for k in 0..group {
            line(
                "response_item",
                serde_json::json!({"type": "function_call_output", "call_id": format!("call_{}", n + k), "output": body}),
            );
        }
        line(
            "event_msg",
            serde_json::json!({"type": "token_count", "info": {"last_token_usage": {"input_tokens": 1000 + n, "output_tokens": 20}}}),
        );
        n += group;
    }
    line(
        "response_item",
        serde_json::json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Done."}]}),
    );
    out.flush().unwrap();
    path
}

fn open(path: &str) -> App {
    let opened = transcript::open(path, None).unwrap();
    App::new(opened.loaded, Lang::Zh, Theme::DARK)
}

fn report(path: &str) {
    let size = std::fs::metadata(path).unwrap().len();
    let start = Instant::now();
    let ((app, opened, first), peak, kept) = heap_of(|| {
        let app = open(path);
        let opened = start.elapsed();
        let at = frames::at_step(&app, 0, 120, 40);
        let _ = frames::render(&at, 120, 40);
        (app, opened, start.elapsed())
    });
    // End at once, nothing counted yet: the last request's texts (every
    // tool output the run holds) are counted for its heading and counters.
    let end = Instant::now();
    let at = frames::at_step(&app, app.last(), 120, 40);
    let _ = frames::render(&at, 120, 40);
    let end = end.elapsed();
    // The simulator counts on a thread of its own once the file is open
    // (`transcript::load_all`): how long until every text is counted, and
    // End after that.
    let again = open(path);
    let counting = Instant::now();
    if let Some(thread) =
        agent_loop_sim::wire::count_in_background(again.trace(), &again.loaded.counts)
    {
        thread.join().unwrap();
    }
    let counting = counting.elapsed();
    let counted_end = Instant::now();
    let at = frames::at_step(&again, again.last(), 120, 40);
    let _ = frames::render(&at, 120, 40);
    let counted_end = counted_end.elapsed();
    drop(again);
    // End pressed as the thread starts, as in the simulator: the frame
    // does not wait for the texts the thread has not counted yet (its
    // count shows `…`, drawn when the thread is done).
    let racing = open(path);
    let thread = agent_loop_sim::wire::count_in_background(racing.trace(), &racing.loaded.counts);
    let racing_end = Instant::now();
    let at = frames::at_step(&racing, racing.last(), 120, 40);
    let _ = frames::render(&at, 120, 40);
    let racing_end = racing_end.elapsed();
    if let Some(thread) = thread {
        thread.join().unwrap();
    }
    drop(racing);
    println!(
        "transcript: the counting thread counts every text in {:.0} ms; End after it in {:.1} ms, \
         End as it starts in {:.0} ms",
        counting.as_secs_f64() * 1e3,
        counted_end.as_secs_f64() * 1e3,
        racing_end.as_secs_f64() * 1e3
    );
    println!(
        "transcript: {:.1} MB file, {} calls, {} steps: opened in {:.0} ms, first frame at {:.0} ms; \
         peak heap {:.1} MiB while opening, {:.1} MiB kept; then End at once (its request counted) in {:.0} ms",
        size as f64 / 1e6,
        app.trace().calls.len(),
        app.trace().len(),
        opened.as_secs_f64() * 1e3,
        first.as_secs_f64() * 1e3,
        peak as f64 / (1024.0 * 1024.0),
        kept as f64 / (1024.0 * 1024.0),
        end.as_secs_f64() * 1e3
    );
}

fn main() {
    let path = write_rollout();
    let path_str = path.to_string_lossy().into_owned();
    report(&path_str);
    let mut c = Criterion::default().configure_from_args().sample_size(10);
    let app = open(&path_str);
    let last = app.last();
    let mut group = c.benchmark_group("transcript-2000-calls");
    group.bench_function("open", |b| b.iter(|| open(black_box(&path_str))));
    // From nothing to the first frame drawn (the target, 150 ms).
    group.bench_function("open-to-first-frame", |b| {
        b.iter(|| {
            let app = open(black_box(&path_str));
            frames::render(&frames::at_step(&app, 0, 120, 40), 120, 40)
        })
    });
    let first = frames::at_step(&app, 0, 120, 40);
    group.bench_function("first-frame", |b| {
        b.iter(|| frames::render(black_box(&first), 120, 40))
    });
    let at_last = frames::at_step(&app, last, 120, 40);
    group.bench_function("last-frame", |b| {
        b.iter(|| frames::render(black_box(&at_last), 120, 40))
    });
    group.bench_function("key-at-last-step", |b| {
        b.iter(|| {
            let mut a = at_last.clone();
            app::update(&mut a, Action::Prev);
            frames::render(&a, 120, 40)
        })
    });
    group.finish();
    c.final_summary();
    std::fs::remove_file(&path).ok();
}
