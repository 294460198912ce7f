//! Loading a big valid run (issue 13): a scenario with 10,000 rules and 8
//! calls per reply, whose run has 190,002 steps, must load in under 1 s
//! (release). With 1 rule, the same run: the rules' share of the cost.
//! A load runs the loop once and tells it in the other language
//! (`engine::run_once`); `engine::run` is one language on its own.
//!
//!     cargo bench --bench load
//!
//! Timings are reported here, never asserted in tests.

// The binary's allocator (src/main.rs): what is timed is what it runs.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "support/long_scenario.rs"]
mod long_scenario;
#[path = "support/many_rules.rs"]
mod many_rules;

use std::hint::black_box;
use std::time::Duration;

use agent_loop_sim::engine;
use agent_loop_sim::i18n;
use agent_loop_sim::load;
use agent_loop_sim::scenario::Lang;
use criterion::{BenchmarkId, Criterion};

fn many_rules(c: &mut Criterion) {
    let mut group = c.benchmark_group("many-rules");
    group.sample_size(10);
    for rules in [1, 10_000] {
        let json = many_rules::json(rules);
        let scenario = load::parse("<bench>", json.as_bytes()).unwrap();
        group.bench_function(BenchmarkId::new("engine-run-one-language", rules), |b| {
            b.iter(|| engine::run(black_box(&scenario), Lang::En, i18n::said).unwrap())
        });
        // The run a load makes: once, then told in the other language.
        group.bench_function(BenchmarkId::new("engine-run-once-told-both", rules), |b| {
            b.iter(|| engine::run_once(black_box(&scenario), i18n::said).unwrap())
        });
        group.bench_function(
            BenchmarkId::new("load-prepare-both-languages", rules),
            |b| b.iter(|| load::prepare("<bench>", black_box(json.as_bytes())).unwrap()),
        );
    }
    group.finish();
}

/// Long runs whose context reaches the window, so the host compacts: by a
/// summary, before almost every one of 2,000 calls; by dropping old
/// results (long ones here; dropping cannot shrink the replies, so 200
/// calls in a window that holds them and the placeholders), once the results no longer fit. Each beside the same run
/// without a window.
fn compaction(c: &mut Criterion) {
    let mut group = c.benchmark_group("compaction");
    group.sample_size(10);
    let summary = serde_json::json!({ "zh": "此前读过记录，没有日期。", "en": "The notes were read before; no date." });
    let runs = [
        ("2000-calls-no-window", 2_000, serde_json::Value::Null),
        (
            "2000-calls-summarize",
            2_000,
            serde_json::json!({ "window": 400, "policy": "summarize", "summary": summary }),
        ),
        ("200-calls-no-window", 200, serde_json::Value::Null),
        (
            "200-calls-drop-oldest-results",
            200,
            serde_json::json!({ "window": 12_000, "policy": "drop_oldest_results" }),
        ),
    ];
    for (name, calls, context) in runs {
        let mut s: serde_json::Value = serde_json::from_str(&long_scenario::json(calls)).unwrap();
        if !context.is_null() {
            s["context"] = context;
        }
        // Results worth dropping: a placeholder is only put in where it is
        // shorter than the result.
        if calls == 200 {
            s["files"]["notes/today.md"] = "Stand-up notes. Nothing about a release yet. "
                .repeat(40)
                .into();
        }
        let json = serde_json::to_string(&s).unwrap();
        let scenario = load::parse("<bench>", json.as_bytes()).unwrap();
        let trace = engine::run(&scenario, Lang::En, i18n::said).unwrap();
        eprintln!(
            "compaction/{name}: {} steps, {} compactions, {} messages",
            trace.len(),
            trace.compactions.len(),
            trace.messages.len()
        );
        group.bench_function(BenchmarkId::new("engine-run-one-language", name), |b| {
            b.iter(|| engine::run(black_box(&scenario), Lang::En, i18n::said).unwrap())
        });
    }
    group.finish();
}

/// What the lesson picker (`o`) costs: at start, the list made (the open
/// lesson only; `picker::gather`); when it first opens, every shipped
/// scenario parsed, checked and run in both languages (`prepare_all`).
fn catalog(c: &mut Criterion) {
    use agent_loop_sim::picker::{self, Picker, Source};
    use std::sync::Arc;
    let open = Arc::new(load::load(load::DEFAULT_SCENARIO).unwrap());
    let gather = || picker::gather(Source::Shipped(load::DEFAULT_SCENARIO), open.clone(), &[]);
    c.bench_function("catalog/gather-at-start", |b| b.iter(gather));
    c.bench_function("catalog/first-open-every-lesson", |b| {
        b.iter_batched(
            || {
                let (lessons, current) = gather();
                Picker::new(lessons, Some(current))
            },
            |picker| {
                picker.prepare_all();
                picker
            },
            criterion::BatchSize::SmallInput,
        )
    });
}

/// The whole process, as a teacher starts it: `trace` of the default
/// lesson beside `--version` (a process that loads nothing). The lessons'
/// token counts come from `src/tokens/known.bin`, so neither builds the
/// tokenizer (issue 33: about 65 ms and 74 MiB before, when it did).
fn start_up(c: &mut Criterion) {
    use std::process::{Command, Stdio};
    let bin = env!("CARGO_BIN_EXE_agent-loop-sim");
    let mut group = c.benchmark_group("start-up");
    group.sample_size(20);
    for (name, args) in [
        ("version", &["--version"][..]),
        (
            "trace-default-lesson",
            &["trace", load::DEFAULT_SCENARIO][..],
        ),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let status = Command::new(bin)
                    .args(args)
                    .stdout(Stdio::null())
                    .status()
                    .unwrap();
                assert!(status.success());
            })
        });
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .configure_from_args();
    many_rules(&mut c);
    compaction(&mut c);
    catalog(&mut c);
    start_up(&mut c);
    c.final_summary();
}
