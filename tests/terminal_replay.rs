//! The simulator's frames on a terminal: every frame a lesson draws, sent
//! through the terminal encoder (`lean_backend`) and replayed through a
//! terminal emulator (its `check` feature), shows what ratatui drew; rows
//! that move are scrolled. The encoder's own tests, on synthetic buffers,
//! are in lean-backend/src/tests.rs.

mod common;

use agent_loop_sim::app::{self, Action, App};
use agent_loop_sim::frames;
use agent_loop_sim::load;
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::theme::Theme;
use common::long_scenario;
use lean_backend::check::{replay_buffers, replay_scrolling, scrolls};
use ratatui::buffer::Buffer;

/// Draw `frames` one after the other through a backend and a terminal
/// emulator; after each, the emulator's screen must be the buffer.
/// The bytes written in all.
fn replay(width: u16, height: u16, frames: impl IntoIterator<Item = (String, App)>) -> usize {
    let buffers = frames.into_iter().map(|(name, app)| {
        let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, width, height));
        agent_loop_sim::view::render(&app, buf.area, &mut buf);
        (name, buf)
    });
    replay_buffers(width, height, buffers).len()
}

fn steps_of(app: &App, width: u16, height: u16) -> Vec<(String, App)> {
    (0..app.steps())
        .map(|i| {
            let at = frames::at_step(app, i, width, height);
            (format!("step {}", i + 1), at)
        })
        .collect()
}

#[test]
fn every_frame_of_a_lesson_shows_on_a_terminal_as_drawn() {
    for name in [
        "read-config-timeout",
        "parallel-calls-out-of-order",
        "patch-and-test",
    ] {
        for lang in [Lang::Zh, Lang::En] {
            for (w, h) in [(120, 40), (80, 24)] {
                let app = App::new(load::load(name).unwrap(), lang, Theme::DARK);
                let mut frames = steps_of(&app, w, h);
                // Back again, and the help overlay over the last step.
                frames.extend(steps_of(&app, w, h).into_iter().rev().skip(1));
                let mut help = frames::at_step(&app, app.last(), w, h);
                app::update(&mut help, Action::ToggleHelp);
                frames.push(("help".into(), help));
                for theme in [Theme::LIGHT, Theme::PLAIN] {
                    let mut other = frames::at_step(&app, 2, w, h);
                    other.theme = theme;
                    frames.push((format!("{theme:?}"), other));
                }
                // Frames far apart: the first step after the plain
                // theme's third, the last after the first, and the
                // other language's second.
                frames.push(("first".into(), frames::at_step(&app, 0, w, h)));
                frames.push(("last".into(), frames::at_step(&app, app.last(), w, h)));
                let other = if lang == Lang::Zh { Lang::En } else { Lang::Zh };
                let app = App::new(load::load(name).unwrap(), other, Theme::DARK);
                frames.push((format!("{other:?}"), frames::at_step(&app, 1, w, h)));
                replay(w, h, frames);
            }
        }
    }
}

/// A long run stepped forward and back (the lanes and the call_id
/// table move a row a step): every frame shows as drawn with rows
/// scrolled, scrolling is used, and it sends fewer bytes than writing
/// the rows again.
#[test]
fn rows_that_move_are_scrolled() {
    let loaded = load::prepare("<long>", long_scenario::json(20).as_bytes()).expect("the long run");
    for lang in [Lang::Zh, Lang::En] {
        let app = App::new(loaded.clone(), lang, Theme::DARK);
        for (w, h) in [(120, 40), (80, 24)] {
            let steps: Vec<usize> = (10..45).chain((10..44).rev()).collect();
            let frames = || {
                steps.iter().map(|&i| {
                    let at = frames::at_step(&app, i, w, h);
                    let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, w, h));
                    agent_loop_sim::view::render(&at, buf.area, &mut buf);
                    (format!("{lang:?} {w}x{h} step {}", i + 1), buf)
                })
            };
            let scrolled = replay_scrolling(w, h, frames(), true);
            let written = replay_scrolling(w, h, frames(), false);
            assert!(scrolls(&scrolled), "{lang:?} {w}x{h}: no scrolling");
            assert!(!scrolls(&written));
            assert!(
                scrolled.len() < written.len(),
                "{lang:?} {w}x{h}: {} bytes scrolled, {} written",
                scrolled.len(),
                written.len()
            );
        }
    }
}

/// Tamil (vowel signs that join or sit before their consonant) and
/// Hangul jamo (a syllable spelled letter by letter, leading
/// consonants that pile up) in the lanes' words, the context and the
/// disk: every frame, replayed through a terminal emulator, shows what
/// ratatui drew, with no stray glyph left by an earlier frame.
#[test]
fn tamil_and_hangul_jamo_leave_no_stray_glyphs() {
    let names = [
        "தமிழ்-கொ-கெ-கை.txt",
        "\u{1100}\u{1161}\u{11A8}-\u{1100}\u{1100}\u{1161}-\u{1161}\u{11A8}.txt",
        "ஸ்ரீ-\u{115F}\u{1160}-x.txt",
    ];
    let mut s: serde_json::Value =
        serde_json::from_str(include_str!("../scenarios/read-config-timeout.json")).unwrap();
    for name in names {
        s["files"][name] = "தமிழ் \u{1100}\u{1161}\u{11A8}\u{1100}\u{1100}".into();
    }
    s["task"]["en"] = format!("Find the timeout in config.txt. {}", names.join(" ")).into();
    s["task"]["zh"] = format!("找出 config.txt 里 timeout 的值。{}", names.join(" ")).into();
    let loaded = load::prepare("<scripts>", s.to_string().as_bytes()).unwrap();
    for lang in [Lang::En, Lang::Zh] {
        let app = App::new(loaded.clone(), lang, Theme::DARK);
        for (w, h) in [(120, 40), (80, 24)] {
            let frames: Vec<_> = (0..app.steps())
                .chain((0..app.steps()).rev())
                .map(|i| {
                    (
                        format!("{lang:?} step {}", i + 1),
                        frames::at_step(&app, i, w, h),
                    )
                })
                .collect();
            replay(w, h, frames);
        }
    }
}
