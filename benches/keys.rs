//! What a key costs at the last step of a 10,000-call run, and how soon
//! that run's first frame appears (issue 8's targets: a key under one
//! 60 Hz frame, 16 ms of CPU; the first frame within 150 ms).
//!
//!     cargo bench --bench keys
//!
//! A key is measured the way the terminal handles it: `update`, then the
//! draw, then the drawn screen's scroll limits handed back
//! (`frames::apply`). Timings are reported here, never asserted in tests.

// The binary's allocator (src/main.rs): what is timed is what it runs.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "support/long_scenario.rs"]
mod long_scenario;

use std::hint::black_box;
use std::time::Duration;

use agent_loop_sim::app::{Action, App, Panel};
use agent_loop_sim::frames;
use agent_loop_sim::load;
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::theme::Theme;
use criterion::Criterion;

const CALLS: u32 = 10_000;

fn main() {
    let json = long_scenario::json(CALLS);
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();

    let mut group = c.benchmark_group("10000-calls");
    group.sample_size(10);
    // From the scenario's bytes to the first frame on screen: parse, run
    // the loop in both languages, draw step 1.
    group.bench_function("first-frame", |b| {
        b.iter(|| {
            let loaded = load::prepare("<bench>", black_box(json.as_bytes())).unwrap();
            let mut app = App::new(loaded, Lang::Zh, Theme::DARK);
            frames::apply(&mut app, Action::Resize(120, 40));
            app.step
        })
    });
    group.finish();

    let loaded = load::prepare("<bench>", json.as_bytes()).unwrap();
    let mut app = App::new(loaded, Lang::Zh, Theme::DARK);
    frames::apply(&mut app, Action::Resize(120, 40));
    frames::apply(&mut app, Action::Last);
    println!("10000-calls: {} steps", app.trace().len());

    let mut group = c.benchmark_group("10000-calls/last-step/key");
    let keys: [(&str, Panel, Action); 7] = [
        ("next (at the end)", Panel::Lanes, Action::Next),
        ("scroll-lanes", Panel::Lanes, Action::Scroll(-1)),
        ("scroll-context", Panel::Context, Action::Scroll(-1)),
        ("scroll-pairing", Panel::Pairing, Action::Scroll(-1)),
        ("L-switch-language", Panel::Lanes, Action::SwitchLanguage),
        ("z-zoom", Panel::Context, Action::Zoom),
        ("resize", Panel::Lanes, Action::Resize(100, 30)),
    ];
    for (name, focus, action) in keys {
        let mut at = app.clone();
        at.focus = focus;
        // Scrolled a little already, so a scroll key has a limit to meet.
        frames::apply(&mut at, Action::Scroll(-3));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut a = at.clone();
                frames::apply(&mut a, black_box(action));
                a.scroll
            })
        });
    }
    group.finish();
    c.final_summary();
}
