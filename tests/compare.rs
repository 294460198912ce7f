//! Two runs side by side (`--compare`, `c`): snapshots of the comparison
//! frames, the state changes of `update`, the `twin` field, the command
//! line and export.

mod common;

use agent_loop_sim::app::{Action, App};
use agent_loop_sim::compare::Side;
use agent_loop_sim::frames;
use agent_loop_sim::load::{self, CATALOG};
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::theme::Theme;
use common::{app, run, snapshot_settings as settings};
use ratatui::style::Modifier;

/// The harness mistakes and the shipped scenario each names as its twin.
const TWINS: [(&str, &str); 6] = [
    ("harness-drops-results", "read-config-timeout"),
    ("harness-crashes-on-error", "wrong-path-first"),
    ("harness-pairs-by-order", "parallel-calls-out-of-order"),
    ("harness-trusts-done", "verify-before-done"),
    ("interrupt-forgets-results", "interrupt-pending-calls"),
    ("harness-drops-thinking", "reasoning-travels-with-calls"),
];

const SIZES: [(u16, u16); 2] = [(120, 40), (80, 24)];

/// `name` compared with its twin, the comparison open.
fn compared(name: &str, lang: Lang) -> App {
    let mut app = app(name, lang);
    frames::apply(&mut app, Action::ToggleCompare);
    assert!(app.comparing().is_some(), "{name} offers a comparison");
    app
}

fn frame_text(app: &App, step: usize, (w, h): (u16, u16)) -> String {
    let at = frames::at_step(app, step, w, h);
    frames::to_text(&frames::render(&at, w, h))
}

fn snapshot(name: &str, app: &App, step: usize, (w, h): (u16, u16)) {
    let text = frame_text(app, step, (w, h));
    let snap = format!(
        "compare__{name}__{w}x{h}__{}__step-{:02}",
        app.lang.code(),
        step + 1
    );
    settings().bind(|| insta::assert_snapshot!(snap, text));
}

#[test]
fn every_step_of_the_dropped_results_beside_its_twin() {
    for lang in Lang::ALL {
        let app = compared("harness-drops-results", lang);
        for size in SIZES {
            for step in 0..app.steps() {
                snapshot("harness-drops-results", &app, step, size);
            }
        }
    }
}

#[test]
fn the_last_step_of_every_other_twin_pair() {
    for (name, _) in &TWINS[1..] {
        for lang in Lang::ALL {
            let app = compared(name, lang);
            for size in SIZES {
                snapshot(name, &app, app.steps() - 1, size);
            }
        }
    }
}

#[test]
fn the_about_overlay_of_a_harness_mistake_offers_its_twin() {
    for lang in Lang::ALL {
        for (w, h) in SIZES {
            let mut app = app("harness-drops-results", lang);
            frames::apply(&mut app, Action::Resize(w, h));
            frames::apply(&mut app, Action::ToggleAbout);
            let text = frames::to_text(&frames::render(&app, w, h));
            let snap = format!("harness-drops-results__{w}x{h}__{}__about", lang.code());
            settings().bind(|| insta::assert_snapshot!(snap, text));
        }
    }
    let mut app = app("harness-drops-results", Lang::En);
    frames::apply(&mut app, Action::ToggleAbout);
    let text = frames::to_text(&frames::render(&app, 120, 40));
    assert!(
        text.contains("press c to compare with the correct harness: Read the timeout"),
        "{text}"
    );
    // `c` from the overlay opens the comparison and closes the overlay.
    frames::apply(&mut app, Action::ToggleCompare);
    assert!(app.overlay.is_none() && app.comparing().is_some());
    // A scenario without a twin offers nothing, and `c` does nothing.
    let mut plain = common::app("read-config-timeout", Lang::En);
    assert!(plain.compare.is_none());
    frames::apply(&mut plain, Action::ToggleAbout);
    let text = frames::to_text(&frames::render(&plain, 120, 40));
    assert!(!text.contains("press c"), "{text}");
    frames::apply(&mut plain, Action::ToggleCompare);
    assert!(plain.comparing().is_none());
}

/// `name` compared with its twin, with the picker's lessons as the
/// binary gathers them.
fn compared_with_lessons(name: &'static str, lang: Lang) -> App {
    use agent_loop_sim::picker::{self, Picker, Source};
    let app = compared(name, lang);
    let (lessons, current) = picker::gather(Source::Shipped(name), app.loaded.clone(), &[]);
    app.with_lessons(Picker::new(lessons, Some(current)))
}

/// `o` in a comparison opens the picker with its list, as over a lesson
/// (it drew an empty popup), and Enter opens the lesson chosen.
#[test]
fn the_picker_opened_in_a_comparison_lists_the_lessons() {
    for lang in Lang::ALL {
        for (w, h) in SIZES {
            let mut app = compared_with_lessons("harness-drops-results", lang);
            frames::apply(&mut app, Action::Resize(w, h));
            frames::apply(&mut app, Action::TogglePicker);
            let text = frames::to_text(&frames::render(&app, w, h));
            let snap = format!(
                "compare__harness-drops-results__{w}x{h}__{}__picker",
                lang.code()
            );
            settings().bind(|| insta::assert_snapshot!(snap, text));
        }
    }
    let mut app = compared_with_lessons("harness-drops-results", Lang::En);
    frames::apply(&mut app, Action::TogglePicker);
    let text = frames::to_text(&frames::render(&app, 120, 40));
    assert!(text.contains("Read the timeout"), "{text}");
    assert!(text.contains("(open now)"), "{text}");
    frames::apply(&mut app, Action::Scroll(1));
    frames::apply(&mut app, Action::Open);
    assert_eq!(app.loaded.card.name, "harness-drops-calls");
    assert!(app.comparing().is_none() && app.overlay.is_none());
}

/// Both titles, both step counters and, at the end, both outcomes.
#[test]
fn both_runs_show_their_title_step_and_outcome() {
    for (name, twin) in TWINS {
        let app = compared(name, Lang::En);
        let (main, other) = (load::load(name).unwrap(), load::load(twin).unwrap());
        let (main, other) = (main.trace(Lang::En), other.trace(Lang::En));
        for size in SIZES {
            let text = frame_text(&app, app.steps() - 1, size);
            for trace in [main, other] {
                assert!(text.contains(&trace.title), "{name} {size:?}: {text}");
                let counter = format!("step {}/{}", trace.len(), trace.len());
                assert!(
                    text.contains(&counter),
                    "{name} {size:?}: {counter}\n{text}"
                );
                let end = agent_loop_sim::i18n::end_name(trace.end, Lang::En);
                assert!(
                    text.contains(&format!("loop: {end}")),
                    "{name}: {end}\n{text}"
                );
            }
            if main.len() != other.len() {
                assert!(text.contains("ended"), "{name} {size:?}: {text}");
            }
        }
    }
}

#[test]
fn the_first_difference_is_marked_on_both_sides_and_named() {
    let app = compared("harness-drops-results", Lang::En);
    let first = app.comparing().unwrap().first_difference(Lang::En).unwrap();
    assert_eq!(first, 5, "the dropped result is step 6");
    for (w, h) in SIZES {
        let at = frames::at_step(&app, first, w, h);
        let buf = frames::render(&at, w, h);
        let text = frames::to_text(&buf);
        assert!(text.contains("first differ here, at step 6"), "{text}");
        // One ≠ in the gutter of each side, bold in the error colour.
        let marks: Vec<(u16, u16)> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| buf[(x, y)].symbol() == "≠")
            .filter(|&(x, y)| x + 1 < w && buf[(x + 1, y)].symbol() == "6")
            .collect();
        assert_eq!(marks.len(), 2, "{w}x{h}: {text}");
        for (x, y) in marks {
            let cell = &buf[(x, y)];
            assert!(cell.modifier.contains(Modifier::BOLD));
            assert_eq!(cell.fg, Theme::DARK.error().fg.unwrap());
        }
    }
}

#[test]
fn update_steps_both_runs_with_one_index() {
    // The crashing run has 7 steps, its twin 18: the index runs to 18.
    let mut app = compared("harness-crashes-on-error", Lang::En);
    assert_eq!(app.trace().len(), 7);
    assert_eq!(app.steps(), 18);
    frames::apply(&mut app, Action::Last);
    assert_eq!(app.step, 17);
    let text = frame_text(&app, 17, (120, 40));
    assert!(
        text.contains("step 7/7  ended, stays on its last step"),
        "{text}"
    );
    assert!(text.contains("step 18/18"), "{text}");
    // Two digits reach steps past the shorter run's end.
    frames::apply(&mut app, Action::Jump(1));
    frames::apply(&mut app, Action::Jump(2));
    assert_eq!(app.step, 11);
    // Tab moves between the runs, not between panels.
    let focus = app.focus;
    frames::apply(&mut app, Action::FocusNext);
    assert_eq!(app.comparing().unwrap().focus, Side::Other);
    assert_eq!(app.focus, focus);
    // ↑ scrolls the focused side's lanes back, as far as they go.
    frames::apply(&mut app, Action::Resize(80, 24));
    for _ in 0..50 {
        frames::apply(&mut app, Action::Scroll(-1));
    }
    let c = app.comparing().unwrap();
    assert!(
        c.scroll[1] > 0 && c.scroll[1] == app.limits.sides[1],
        "{c:?}"
    );
    assert_eq!(c.scroll[0], 0);
    let text = frames::to_text(&frames::render(&app, 80, 24));
    assert!(text.contains("  1 user ○"), "scrolled to step 1: {text}");
    // There is no one panel to zoom.
    frames::apply(&mut app, Action::Zoom);
    assert!(!app.zoom);
    // Closing the comparison keeps the step within the one run shown.
    frames::apply(&mut app, Action::ToggleCompare);
    assert!(app.comparing().is_none());
    assert_eq!(app.step, 6);
    assert_eq!(app.steps(), 7);
    // Playing stops on the last step of the longer run.
    let mut app = compared("harness-crashes-on-error", Lang::En);
    frames::apply(&mut app, Action::TogglePlay);
    for _ in 0..40 {
        frames::apply(&mut app, Action::Tick);
    }
    assert_eq!((app.step, app.playing), (17, false));
}

#[test]
fn every_harness_mistake_names_a_twin_that_is_the_same_task() {
    for (name, source) in CATALOG {
        let loaded = load::load(name).unwrap();
        let twin = loaded.lesson.as_ref().unwrap().twin.as_deref();
        assert_eq!(
            twin,
            TWINS.iter().find(|(n, _)| n == name).map(|(_, t)| *t),
            "{name}"
        );
        let Some(twin) = twin else { continue };
        // Everything but the words, the harness switches and the careful
        // host's habits is the same.
        let strip = |json: &str| {
            let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
            for key in [
                "name",
                "twin",
                "title",
                "conditions",
                "about",
                "narration",
                "harness",
                "host",
                // A mistake one provider refuses is pinned to it; its
                // twin is shown in every provider.
                "provider",
                "expect",
                // The questions suit the lesson, not the task.
                "quiz",
                "quiz_steps",
            ] {
                v.as_object_mut().unwrap().remove(key);
            }
            v
        };
        let twin_source = CATALOG.iter().find(|(n, _)| *n == twin).unwrap().1;
        assert_eq!(strip(source), strip(twin_source), "{name} and {twin}");
        assert!(
            load::load(twin)
                .unwrap()
                .lesson
                .as_ref()
                .unwrap()
                .twin
                .is_none()
        );
    }
}

#[test]
fn an_unknown_twin_names_the_file_the_path_and_the_known_names() {
    let source = CATALOG[0].1;
    let mut v: serde_json::Value = serde_json::from_str(source).unwrap();
    v["twin"] = serde_json::json!("no-such-run");
    let bytes = serde_json::to_vec(&v).unwrap();
    let err = load::prepare("lesson.json", &bytes)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("lesson.json: ") && err.contains(" at twin: unknown twin \"no-such-run\""),
        "{err}"
    );
    assert!(err.contains("wrong-path-first"), "{err}");
    assert!(err.contains("harness-trusts-done"), "{err}");
    // Through the command line: `check` exits 2 with that line.
    let file = common::scenario_file("bad-twin.json", std::str::from_utf8(&bytes).unwrap());
    let out = run(&["check", &file]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("twin: unknown twin"), "{}", out.stderr);
}

#[test]
fn an_unknown_compare_name_exits_2_with_a_clear_message() {
    let out = run(&["--compare", "no-such-run"]);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr.trim(),
        "--compare no-such-run: no such file, and no shipped scenario by that name \
         (see `agent-loop-sim list`)"
    );
    assert!(out.stdout.is_empty());
    // The same for export, before anything is written.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("compare-unknown");
    let dir = dir.to_str().unwrap();
    let out = run(&[
        "export",
        "--format",
        "txt",
        "--out",
        dir,
        "--compare",
        "no-such-run",
    ]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.starts_with("--compare no-such-run: "),
        "{}",
        out.stderr
    );
}

#[test]
fn export_writes_the_side_by_side_frames() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("compare-export");
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let args = [
        "export",
        "--scenario",
        "harness-drops-results",
        "--compare",
        "read-config-timeout",
        "--lang",
        "en",
        "--out",
        d,
        "--format",
    ];
    for format in ["txt", "svg", "ansi"] {
        let mut a = args.to_vec();
        a.push(format);
        let out = run(&a);
        assert_eq!(out.code, 0, "{format}: {}", out.stderr);
        assert_eq!(out.stdout.lines().count(), 8, "{format}: {}", out.stdout);
    }
    // The txt figure is the very frame the screen shows, without the
    // row of key hints (and the status line's "Tab other side · c one run").
    let app = compared("harness-drops-results", Lang::En);
    let name = "harness-drops-results.vs.read-config-timeout.en.step-06";
    let txt = std::fs::read_to_string(dir.join(format!("{name}.txt"))).unwrap();
    let screen = frame_text(&app, 5, (120, 40));
    let lines: Vec<&str> = screen.lines().collect();
    assert!(lines[38].contains("q quit") && lines[39].contains("Tab other side"));
    assert!(
        !txt.contains("q quit") && !txt.contains("Tab other side"),
        "{txt}"
    );
    assert_eq!(txt.lines().take(3).collect::<Vec<_>>(), lines[..3]);
    // The status line keeps where the step stands, not the program's state.
    let status = txt.lines().last().unwrap();
    assert!(status.ends_with(" 6/8"), "{status}");
    assert!(lines[39].starts_with(" ‖ paused · dwell 2.0s · focus: main run "));
    assert!(
        !status.contains("paused") && !status.contains("focus"),
        "{status}"
    );
    // The SVG says what it shows, in its title and alt text.
    let svg = std::fs::read_to_string(dir.join(format!("{name}.svg"))).unwrap();
    assert!(
        svg.contains("Harness mistake: results never appended compared with Read the timeout"),
        "{svg}"
    );
    assert!(svg.contains("The runs first differ at step 6"));
    // Formats that play the steps are refused, with the reason.
    let mut a = args.to_vec();
    a.push("cast");
    let out = run(&a);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("expected --format svg, png, txt, ansi or pdf"),
        "{}",
        out.stderr
    );
}

/// `twin` may name a lesson file, relative to the lesson's own file: it is
/// checked (it must exist, not be this lesson, and pass `check`), and the
/// simulator offers it as it offers a shipped twin.
#[test]
fn a_twin_may_be_a_lesson_file_beside_the_lesson() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("twin-files");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("fixed")).unwrap();
    let json = |name: &str| -> serde_json::Value {
        serde_json::from_str(CATALOG.iter().find(|(n, _)| *n == name).unwrap().1).unwrap()
    };
    let write = |path: &std::path::Path, v: &serde_json::Value| {
        std::fs::write(path, serde_json::to_vec_pretty(v).unwrap()).unwrap();
    };
    let mut correct = json("read-config-timeout");
    correct["name"] = "my-correct-host".into();
    write(&dir.join("fixed/correct.json"), &correct);
    let mut mistake = json("harness-drops-results");
    mistake["name"] = "my-mistake".into();
    mistake["twin"] = "fixed/correct.json".into();
    let lesson = dir.join("mistake.json");
    write(&lesson, &mistake);
    let lesson = lesson.to_str().unwrap().to_string();

    let loaded = load::examine(&lesson).unwrap_or_else(|f| panic!("{}", f[0]));
    assert!(!loaded.has_errors(), "{:?}", loaded.faults);
    let out = run(&["check", &lesson]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // Offered by `a`, opened by `c`, as a shipped twin is.
    let mut app = App::new(loaded, Lang::En, Theme::DARK);
    let offered = app.compare.as_ref().expect("the twin is offered");
    assert!(offered.twin && !offered.shown);
    assert_eq!(offered.other.card.name, "my-correct-host");
    frames::apply(&mut app, Action::ToggleCompare);
    assert!(app.comparing().is_some());

    // Missing, itself, faulty: refused at `twin`, saying which.
    let refused = |twin: &str, file: &str, what: &str| {
        let mut v = mistake.clone();
        v["twin"] = twin.into();
        let path = dir.join(file);
        write(&path, &v);
        let out = run(&["check", path.to_str().unwrap()]);
        assert_eq!(out.code, 2, "{twin}: {}", out.stderr);
        assert!(
            out.stderr.contains(" at twin: ") && out.stderr.contains(what),
            "{twin}: {}",
            out.stderr
        );
    };
    refused(
        "fixed/nothing.json",
        "missing.json",
        "unknown twin \"fixed/nothing.json\"; expected a lesson file",
    );
    refused("itself.json", "itself.json", "is this lesson's own file");
    let mut broken = correct.clone();
    broken["budget"] = 0.into();
    write(&dir.join("fixed/broken.json"), &broken);
    refused(
        "fixed/broken.json",
        "with-broken-twin.json",
        "the twin file \"fixed/broken.json\" does not pass check: ",
    );
}

/// The step where the contexts sent first differ is named in the header
/// and marked `≠` in both runs' lanes, and each run's context stands
/// under its lanes (at 120×40), the message only one of them holds
/// marked `≠` (issue 35 item 13).
#[test]
fn the_contexts_sent_differ_at_call_2_and_both_contexts_are_on_screen() {
    let app = compared("harness-drops-results", Lang::En);
    let d = app
        .comparing()
        .unwrap()
        .context_difference(Lang::En)
        .unwrap();
    assert_eq!((d.call, d.steps), (1, [Some(6), Some(6)]));
    let (w, h) = (120, 40);
    let at = frames::at_step(&app, 6, w, h);
    let buf = frames::render(&at, w, h);
    let text = frames::to_text(&buf);
    assert!(
        text.contains("the contexts sent, from call #2 (step 7)"),
        "{text}"
    );
    let marked = |digit: &str| {
        (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| buf[(x, y)].symbol() == "≠")
            .filter(|&(x, y)| x + 1 < w && buf[(x + 1, y)].symbol() == digit)
            .count()
    };
    // Steps 6 and 7 in both lanes.
    assert_eq!((marked("6"), marked("7")), (2, 2), "{text}");
    assert!(text.contains("Context · main run"), "{text}");
    assert!(text.contains("Context · other run"), "{text}");
    // call_1's result, only in the correct host's context.
    let lines: Vec<&str> = text.lines().collect();
    let result = lines
        .iter()
        .find(|l| l.contains("≠ 4 tool"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(result.contains("timeout=30"), "{result}");
}

/// At the end, each run's final answer is on screen together with the
/// other's, at both sizes, in both languages.
#[test]
fn both_answers_stand_on_screen_together_at_the_end() {
    for (name, twin) in TWINS {
        for lang in Lang::ALL {
            let app = compared(name, lang);
            let answers: Vec<String> = [name, twin]
                .iter()
                .filter_map(|n| {
                    let loaded = load::load(n).unwrap();
                    let t = loaded.trace(lang);
                    let last = t.messages.last()?;
                    let ended = t.steps.last()?.end.is_some();
                    (ended
                        && last.calls.is_empty()
                        && last.role == agent_loop_sim::trace::Role::Assistant)
                        .then(|| {
                            agent_loop_sim::i18n::one_line(&last.text)
                                .chars()
                                .take(12)
                                .collect()
                        })
                })
                .collect();
            assert!(!answers.is_empty(), "{name}");
            for size in SIZES {
                let text = frame_text(&app, app.steps() - 1, size);
                for answer in &answers {
                    assert!(
                        text.contains(answer.as_str()),
                        "{name} {size:?}: {answer}\n{text}"
                    );
                }
            }
        }
    }
}

/// `z` shows each run's context in place of its lanes, at 80×24 too,
/// and `z` again brings the lanes back.
#[test]
fn z_shows_each_context_in_place_of_the_lanes() {
    let mut app = compared("harness-drops-results", Lang::En);
    frames::apply(&mut app, Action::Resize(80, 24));
    frames::apply(&mut app, Action::Jump(7));
    let lanes = frames::to_text(&frames::render(&app, 80, 24));
    frames::apply(&mut app, Action::Zoom);
    assert!(app.comparing().unwrap().contexts);
    let contexts = frames::to_text(&frames::render(&app, 80, 24));
    assert!(
        lanes.contains("Model") && !contexts.contains("  Model  "),
        "{contexts}"
    );
    assert!(contexts.matches("Call #2").count() >= 2, "{contexts}");
    frames::apply(&mut app, Action::Zoom);
    assert_eq!(frames::to_text(&frames::render(&app, 80, 24)), lanes);
}
