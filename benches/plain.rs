//! Benchmark: `transcript` (the run as plain text, `plain::write`) of
//! runs that grow with their rules (issue 39: 1.2 / 5.8 / 34 / 172 s for
//! 1,000 / 2,000 / 4,000 / 10,000 rules, quadratic, while the output grows
//! linearly). Each rule of the scenario fires once (`many_rules::once_each`),
//! so N rules make N model calls and about 6N steps. The engine's run is
//! prepared once, outside the timing; what is timed is writing the text,
//! and the report prints the time per step at each size (linear: about
//! the same at every size).
//!
//!     cargo bench --bench plain

// The binary's allocator (src/main.rs): what is timed is what it runs.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "support/many_rules.rs"]
#[allow(dead_code)] // This bench uses `once_each` only.
mod many_rules;

use std::hint::black_box;
use std::time::Instant;

use agent_loop_sim::load;
use agent_loop_sim::plain;
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::trace_json::ContextShape;
use criterion::{BenchmarkId, Criterion};

fn main() {
    let mut c = Criterion::default().configure_from_args().sample_size(10);
    let mut group = c.benchmark_group("transcript");
    for rules in [1_000, 2_000, 4_000, 10_000] {
        let json = many_rules::once_each(rules);
        let loaded = load::prepare("<bench>", json.as_bytes()).unwrap();
        let trace = loaded.trace(Lang::En);
        let start = Instant::now();
        let mut out = Vec::new();
        plain::write(trace, ContextShape::Linear, &mut out).unwrap();
        let took = start.elapsed();
        println!(
            "transcript: {rules} rules, {} steps, {:.1} MB of text in {:.0} ms ({:.2} µs a step)",
            trace.len(),
            out.len() as f64 / 1e6,
            took.as_secs_f64() * 1e3,
            took.as_secs_f64() * 1e6 / trace.len() as f64
        );
        group.bench_function(BenchmarkId::new("write", rules), |b| {
            b.iter(|| {
                let mut out = Vec::with_capacity(1 << 20);
                plain::write(black_box(trace), ContextShape::Linear, &mut out).unwrap();
                out
            })
        });
    }
    group.finish();
    c.final_summary();
}
