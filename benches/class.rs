//! `--class` with a room of 200 phones on 127.0.0.1: the time from a
//! phone's vote to the counts on the projector's screen, and what a
//! teacher's key costs with the room connected and voting and without it.
//!
//!     cargo bench --bench class
//!
//! A vote is timed from the phone's request to the count drawn: the
//! server counts it, tells the app (`Heard`), the app takes it and the
//! screen is drawn. The event loop looks for the room's news every 50 ms
//! (crossterm cannot be woken), so on screen add up to that. A key is
//! `update`, the draw and the room told what it shows (`class::showing`,
//! `Room::show`). Timings are reported here, never asserted in tests.

// The binary's allocator (src/main.rs): what is timed is what it runs.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../tests/common/phones.rs"]
mod phones;

use std::hint::black_box;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use agent_loop_sim::app::{Action, App};
use agent_loop_sim::class::ballots::Bounds;
use agent_loop_sim::class::{self, Class, Heard, server};
use agent_loop_sim::frames;
use agent_loop_sim::load::{self, DEFAULT_SCENARIO};
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::theme::Theme;
use criterion::Criterion;
use phones::Phone;

const PHONES: usize = 200;

fn class_app(url: &str) -> App {
    let mut app = App::new(load::load(DEFAULT_SCENARIO).unwrap(), Lang::Zh, Theme::DARK);
    app.class = Some(Class::new(Ok(url.to_string())));
    frames::apply(&mut app, Action::Resize(120, 40));
    frames::apply(&mut app, Action::ToggleQuiz);
    while app.quiz.asking.is_none() && app.step < app.last() {
        frames::apply(&mut app, Action::Next);
    }
    app
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();

    // The teacher's key without a room: update, draw.
    let mut alone = class_app("http://192.0.2.1:8737/c/x/");
    alone.class = None;
    c.bench_function("class/key-without-room", |b| {
        b.iter(|| frames::apply(black_box(&mut alone), Action::SwitchLanguage))
    });

    let listen: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let bounds = Bounds {
        devices_per_address: PHONES + 1,
        ..Bounds::default()
    };
    let room = server::open(listen, bounds).unwrap();
    let mut app = class_app(&room.url);
    let q = app.question().unwrap();
    room.show(class::showing(&app));
    let phones: Vec<Phone> = (0..PHONES).map(|_| Phone::join(&room.url)).collect();
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        // Every phone listens, and votes about once a second.
        for (i, phone) in phones.iter().enumerate() {
            let stop = &stop;
            let step = q.step;
            let n = q.choices.len();
            s.spawn(move || {
                let mut events = phone.listen();
                let _ = events.next();
                while !stop.load(Ordering::Relaxed) {
                    let _ = phone.vote(step, 1, i % n);
                    std::thread::sleep(Duration::from_millis(900 + (i % 200) as u64));
                }
            });
        }
        let started = Instant::now();
        while app.class.as_ref().unwrap().present < PHONES
            && started.elapsed() < Duration::from_secs(30)
        {
            if let Ok(h) = room.heard.recv_timeout(Duration::from_millis(100)) {
                class::heard(&mut app, h);
            }
        }
        println!(
            "class: {} phones connected",
            app.class.as_ref().unwrap().present
        );

        // A vote to the screen: one more phone votes, the rest go on.
        let timer = Phone::join(&room.url);
        let mut samples = Vec::new();
        for k in 0..100 {
            while room.heard.try_recv().is_ok() {}
            let choice = k % q.choices.len();
            let sent = Instant::now();
            let status = timer.vote(q.step, 1, choice);
            if status != 204 {
                std::thread::sleep(Duration::from_millis(600));
                continue;
            }
            // Its own count: the first tally after it that has it.
            loop {
                match room.heard.recv_timeout(Duration::from_secs(5)) {
                    Ok(h @ Heard::Tally { .. }) => {
                        class::heard(&mut app, h);
                        break;
                    }
                    Ok(other) => class::heard(&mut app, other),
                    Err(_) => panic!("no count within 5 s"),
                }
            }
            black_box(frames::render(&app, 120, 40));
            samples.push(sent.elapsed());
            std::thread::sleep(Duration::from_millis(600));
        }
        samples.sort();
        println!(
            "class/vote-to-screen ({} votes, {PHONES} phones voting): p50 {:?}, p95 {:?}, max {:?} (+ up to 50 ms until the event loop looks)",
            samples.len(),
            percentile(&samples, 0.5),
            percentile(&samples, 0.95),
            samples.last().unwrap()
        );

        // The teacher's key with the room connected and voting.
        c.bench_function("class/key-with-room-of-200", |b| {
            b.iter(|| {
                while let Ok(h) = room.heard.try_recv() {
                    class::heard(&mut app, h);
                }
                frames::apply(black_box(&mut app), Action::SwitchLanguage);
                room.show(class::showing(&app));
            })
        });
        // The phones stop after their next vote; the scope waits for them.
        stop.store(true, Ordering::Relaxed);
    });
}
