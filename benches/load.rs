//! Loading a big valid run (issue 13): a scenario with 10,000 rules and 8
//! calls per reply, whose run has 190,002 steps, must load in under 1 s
//! (release). With 1 rule, the same run: the rules' share of the cost.
//!
//!     cargo bench --bench load
//!
//! Timings are reported here, never asserted in tests.

#[path = "support/many_rules.rs"]
mod many_rules;

use std::hint::black_box;
use std::time::Duration;

use agent_loop_sim::engine;
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
            b.iter(|| engine::run(black_box(&scenario), Lang::En).unwrap())
        });
        group.bench_function(
            BenchmarkId::new("load-prepare-both-languages", rules),
            |b| b.iter(|| load::prepare("<bench>", black_box(json.as_bytes())).unwrap()),
        );
    }
    group.finish();
}

/// What the lesson picker (`o`) costs at startup: every shipped scenario
/// parsed, checked and run in both languages (`picker::gather`).
fn catalog(c: &mut Criterion) {
    use agent_loop_sim::picker::{self, Source};
    use std::sync::Arc;
    let open = Arc::new(load::load(load::DEFAULT_SCENARIO).unwrap());
    c.bench_function("catalog/gather-every-lesson", |b| {
        b.iter(|| picker::gather(Source::Shipped(load::DEFAULT_SCENARIO), open.clone(), &[]))
    });
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .configure_from_args();
    many_rules(&mut c);
    catalog(&mut c);
    c.final_summary();
}
