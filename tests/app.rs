//! The app's update function, tested without drawing anything.

mod common;

use agent_loop_sim::app::{
    Action, App, DWELL_DEFAULT_MS, DWELL_MAX_MS, DWELL_MIN_MS, Overlay, Panel,
};
use agent_loop_sim::frames;
use agent_loop_sim::keymap::{self, KEYMAP};
use agent_loop_sim::load::{self, DEFAULT_SCENARIO};
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::theme::Theme;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

fn app() -> App {
    common::app(DEFAULT_SCENARIO, Lang::Zh)
}

fn apply(app: &mut App, actions: &[Action]) {
    for a in actions {
        frames::apply(app, *a);
    }
}

#[test]
fn starts_paused_on_the_first_step() {
    let a = app();
    assert_eq!(a.step, 0);
    assert!(!a.playing);
    assert_eq!(a.dwell_ms, DWELL_DEFAULT_MS);
    assert_eq!(a.trace().len(), 8);
}

#[test]
fn no_step_past_either_end() {
    let mut a = app();
    apply(&mut a, &[Action::Prev, Action::Prev]);
    assert_eq!(a.step, 0);
    apply(&mut a, &[Action::Next; 20]);
    assert_eq!(a.step, 7);
    apply(&mut a, &[Action::Jump(9)]);
    assert_eq!(a.step, 7);
    apply(&mut a, &[Action::Jump(3)]);
    assert_eq!(a.step, 2);
    apply(&mut a, &[Action::Last, Action::Prev]);
    assert_eq!(a.step, 6);
    apply(&mut a, &[Action::First]);
    assert_eq!(a.step, 0);
}

#[test]
fn two_digits_in_a_row_reach_steps_past_nine() {
    let loaded = load::load("patch-and-test").unwrap();
    let mut a = App::new(loaded, Lang::Zh, Theme::DARK);
    assert_eq!(a.trace().len(), 22);
    apply(&mut a, &[Action::Jump(1), Action::Jump(5)]);
    assert_eq!(a.step, 14, "1 then 5 is step 15");
    apply(&mut a, &[Action::Jump(2), Action::Jump(4)]);
    assert_eq!(a.step, 3, "24 is past the end: 4 alone");
    apply(&mut a, &[Action::Jump(1), Action::Next, Action::Jump(2)]);
    assert_eq!(a.step, 1, "another key in between: 2 alone");
    apply(&mut a, &[Action::Jump(3), Action::Jump(1)]);
    assert_eq!(a.step, 0, "30 and up cannot be: 3 waits for nothing");
    // The default scenario has 8 steps: each digit is a step of its own.
    let mut b = app();
    apply(&mut b, &[Action::Jump(1), Action::Jump(5)]);
    assert_eq!(b.step, 4);
}

#[test]
fn play_advances_one_step_per_tick_and_stops_on_the_last() {
    let mut a = app();
    apply(&mut a, &[Action::TogglePlay]);
    assert!(a.playing);
    apply(&mut a, &[Action::Tick, Action::Tick]);
    assert_eq!(a.step, 2);
    apply(&mut a, &[Action::Tick; 10]);
    assert_eq!(a.step, 7);
    assert!(!a.playing, "play stops on the last step");
    // Space on the last step plays again from the start.
    apply(&mut a, &[Action::TogglePlay]);
    assert_eq!(a.step, 0);
    assert!(a.playing);
    apply(&mut a, &[Action::TogglePlay, Action::Tick]);
    assert_eq!(a.step, 0, "a tick while paused does nothing");
}

#[test]
fn dwell_stays_in_its_range() {
    let mut a = app();
    apply(&mut a, &[Action::DwellLonger; 40]);
    assert_eq!(a.dwell_ms, DWELL_MAX_MS);
    apply(&mut a, &[Action::DwellShorter; 40]);
    assert_eq!(a.dwell_ms, DWELL_MIN_MS);
    apply(&mut a, &[Action::DwellLonger]);
    assert_eq!(a.dwell_ms, DWELL_MIN_MS + 500);
}

#[test]
fn focus_cycles_and_scroll_stays_within_the_content() {
    let mut a = app();
    apply(&mut a, &[Action::Resize(80, 24), Action::Last]);
    apply(&mut a, &[Action::FocusNext]);
    assert_eq!(a.focus, Panel::Context);
    apply(&mut a, &[Action::FocusPrev, Action::FocusPrev]);
    assert_eq!(a.focus, Panel::Explain);

    // The help overlay at 80x24 is longer than the screen: it scrolls to
    // its end and no further, and one key brings it back one line.
    apply(&mut a, &[Action::ToggleHelp, Action::Scroll(1000)]);
    let max = a.limits.overlay;
    assert!(max > 0);
    assert_eq!(a.overlay_scroll, max);
    apply(&mut a, &[Action::Scroll(-1)]);
    assert_eq!(a.overlay_scroll, max - 1);
    apply(&mut a, &[Action::Back, Action::Scroll(-5)]);
    assert_eq!(a.scroll[Panel::Explain.index()], 0);

    // Lanes scroll back through history, at most until step 1 is shown.
    apply(&mut a, &[Action::FocusNext, Action::Scroll(-50)]);
    assert_eq!(a.focus, Panel::Lanes);
    let lanes = a.scroll[Panel::Lanes.index()];
    assert!(lanes > 0 && lanes == a.limits.panels[Panel::Lanes.index()]);
    let screen = frames::to_text(&frames::render(&a, 80, 24));
    assert!(screen.contains("  1 用户 ○"), "{screen}");
    apply(&mut a, &[Action::Scroll(1)]);
    let screen = frames::to_text(&frames::render(&a, 80, 24));
    assert!(!screen.contains("  1 用户 ○"), "{screen}");
    apply(&mut a, &[Action::Prev]);
    assert_eq!(a.scroll, [0; 4], "a new step starts unscrolled");
}

#[test]
fn esc_closes_an_overlay_then_zoom_and_never_quits() {
    let mut a = app();
    apply(&mut a, &[Action::Zoom, Action::ToggleHelp]);
    assert_eq!(a.overlay, Some(Overlay::Help));
    apply(&mut a, &[Action::ToggleAbout]);
    assert_eq!(a.overlay, Some(Overlay::About));
    apply(&mut a, &[Action::Back]);
    assert_eq!(a.overlay, None);
    assert!(a.zoom && !a.quit);
    apply(&mut a, &[Action::Back]);
    assert!(!a.zoom && !a.quit);
    // Nothing left to close: one Esc too many does not end the class.
    apply(&mut a, &[Action::Back, Action::Back]);
    assert!(!a.quit);
    apply(&mut a, &[Action::Quit]);
    assert!(a.quit);
}

#[test]
fn switching_language_keeps_the_step() {
    let mut a = app();
    apply(&mut a, &[Action::Jump(5), Action::SwitchLanguage]);
    assert_eq!((a.lang, a.step), (Lang::En, 4));
    assert_eq!(a.trace().lang, Lang::En);
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

#[test]
fn the_keys_of_the_design_map_to_their_actions() {
    let cases = [
        (key(KeyCode::Right), Action::Next),
        (key(KeyCode::Char('l')), Action::Next),
        (key(KeyCode::PageDown), Action::Next),
        (key(KeyCode::Enter), Action::Next),
        (key(KeyCode::Left), Action::Prev),
        (key(KeyCode::Char('h')), Action::Prev),
        (key(KeyCode::PageUp), Action::Prev),
        (key(KeyCode::Backspace), Action::Prev),
        (key(KeyCode::Char(' ')), Action::TogglePlay),
        (key(KeyCode::Home), Action::First),
        (key(KeyCode::Char('g')), Action::First),
        (key(KeyCode::End), Action::Last),
        (
            KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT),
            Action::Last,
        ),
        (key(KeyCode::Char('7')), Action::Jump(7)),
        (key(KeyCode::Char('+')), Action::DwellLonger),
        (key(KeyCode::Char('-')), Action::DwellShorter),
        (key(KeyCode::Tab), Action::FocusNext),
        (key(KeyCode::Up), Action::Scroll(-1)),
        (key(KeyCode::Down), Action::Scroll(1)),
        (key(KeyCode::Char('z')), Action::Zoom),
        (
            KeyEvent::new(KeyCode::Char('L'), KeyModifiers::SHIFT),
            Action::SwitchLanguage,
        ),
        (key(KeyCode::Char('a')), Action::ToggleAbout),
        (key(KeyCode::Char('?')), Action::ToggleHelp),
        (key(KeyCode::Char('o')), Action::TogglePicker),
        (key(KeyCode::Char('q')), Action::Quit),
        (key(KeyCode::Esc), Action::Back),
        (
            KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
            Action::Quit,
        ),
    ];
    for (event, action) in cases {
        assert_eq!(keymap::action_for(&event), Some(action), "{event:?}");
    }
    assert_eq!(keymap::action_for(&key(KeyCode::Char('x'))), None);
    // 0 is a digit of a step number (1 5 0 → 150); alone it names no step.
    assert_eq!(
        keymap::action_for(&key(KeyCode::Char('0'))),
        Some(Action::Jump(0))
    );
}

#[test]
fn footer_and_help_are_drawn_from_the_keymap_table() {
    for lang in Lang::ALL {
        let mut a = App::new(load::load(DEFAULT_SCENARIO).unwrap(), lang, Theme::DARK);
        let screen = frames::to_text(&frames::render(&a, 120, 40));
        let footer = screen.lines().nth(38).unwrap();
        for (keys, label) in keymap::footer_hints(lang) {
            assert!(footer.contains(&format!("{keys} {label}")), "{footer}");
        }
        apply(&mut a, &[Action::ToggleHelp]);
        // The whole help, scrolled through a page at a time.
        let mut help = String::new();
        for _ in 0..6 {
            help.push_str(&frames::to_text(&frames::render(&a, 120, 40)));
            apply(&mut a, &[Action::Scroll(30)]);
        }
        for binding in KEYMAP {
            assert!(
                help.contains(binding.help.get(lang)),
                "{}",
                binding.help.get(lang)
            );
            assert!(help.contains(&binding.keys_text()));
        }
    }
}

/// A long tool result (a whole file) is folded in the context to its first
/// lines, saying how much is left; `f` shows it whole, and again folds it.
#[test]
fn long_messages_fold_and_f_unfolds_them() {
    let mut s: serde_json::Value =
        serde_json::from_str(include_str!("../scenarios/read-config-timeout.json")).unwrap();
    let long: String = (1..=40).map(|i| format!("line{i}=value{i}\n")).collect();
    s["files"]["config.txt"] = format!("{long}timeout=30\n").into();
    let loaded =
        load::prepare("<test>", s.to_string().as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let mut a = App::new(loaded, Lang::En, Theme::DARK);
    apply(
        &mut a,
        &[
            Action::Resize(120, 40),
            Action::Jump(7),
            Action::FocusNext,
            Action::Zoom,
        ],
    );
    let folded = frames::to_text(&frames::render(&a, 120, 40));
    assert!(folded.contains("folded: "), "{folded}");
    assert!(folded.contains("line1=value1") && !folded.contains("timeout=30\n"));
    apply(&mut a, &[Action::ToggleFold]);
    assert!(a.unfold);
    // Whole now: the last line of the file can be scrolled to.
    apply(&mut a, &[Action::Scroll(-100)]);
    let mut seen = String::new();
    for _ in 0..60 {
        seen.push_str(&frames::to_text(&frames::render(&a, 120, 40)));
        apply(&mut a, &[Action::Scroll(1)]);
    }
    assert!(seen.contains("line40=value40") && !seen.contains("folded: "));
    let key = KeyEvent::new(KeyCode::Char('f'), KeyModifiers::NONE);
    assert_eq!(keymap::action_for(&key), Some(Action::ToggleFold));
}

/// A file that runs but does not end as its `expect` says is shown, with a
/// warning line under the header that says so, in the screen's language;
/// a file without faults has no such line.
#[test]
fn a_faulty_file_is_shown_with_a_warning_line() {
    let loaded = load::load("tests/bad-scenarios/expect-mismatch.json").unwrap();
    assert!(loaded.has_errors());
    for (lang, words, all) in [
        (
            Lang::En,
            "⚠ Scenario file fault: 98:3 at expect: the loop ends",
            "— 1 in all;",
        ),
        (
            Lang::Zh,
            "⚠ 场景文件有问题：98:3 at expect: the loop ends",
            "——共 1 处",
        ),
    ] {
        let app = App::new(loaded.clone(), lang, Theme::PLAIN);
        for (width, height) in [(120, 40), (80, 24)] {
            let text = frames::to_text(&frames::render(&app, width, height));
            let line = text.lines().nth(3).unwrap();
            assert!(line.starts_with(words), "{width}x{height}: {line:?}");
            assert!(line.ends_with('…'), "cut to the width: {line:?}");
            let whole = agent_loop_sim::i18n::FILE_FAULTS.fill(
                lang,
                &[("count", &1), ("first", &loaded.faults[0].without_file())],
            );
            assert!(whole.contains(all), "{whole}");
            assert!(!text.lines().skip(4).any(|l| l.contains('⚠')));
        }
    }
    let text = frames::to_text(&frames::render(&app(), 120, 40));
    assert!(!text.contains('⚠'), "{text}");
}

fn with_picker(a: App, extra: &[String]) -> App {
    use agent_loop_sim::picker::{self, Picker, Source};
    let (lessons, current) =
        picker::gather(Source::Shipped(DEFAULT_SCENARIO), a.loaded.clone(), extra);
    a.with_lessons(Picker::new(lessons, Some(current)))
}

#[test]
fn the_lesson_picker_opens_on_the_lesson_shown_and_enter_opens_another() {
    let mut a = with_picker(app(), &[]);
    apply(
        &mut a,
        &[
            Action::Jump(5),
            Action::FocusNext,
            Action::Zoom,
            Action::ToggleFold,
            Action::SwitchLanguage,
        ],
    );
    apply(&mut a, &[Action::TogglePlay, Action::TogglePicker]);
    assert_eq!(a.overlay, Some(Overlay::Picker));
    assert!(!a.playing, "opening the list pauses the run");
    assert_eq!(a.picker.cursor, 0);
    // Keys that move the run do nothing behind the list.
    apply(
        &mut a,
        &[
            Action::Prev,
            Action::Jump(2),
            Action::TogglePlay,
            Action::Tick,
        ],
    );
    assert_eq!((a.step, a.playing), (4, false));
    apply(
        &mut a,
        &[Action::Scroll(1), Action::Scroll(1), Action::Scroll(-1)],
    );
    // → and PageDown (a clicker's "next") do not open: only Enter does.
    let key = |c| KeyEvent::new(c, KeyModifiers::NONE);
    for code in [KeyCode::PageDown, KeyCode::Right, KeyCode::Char('2')] {
        if let Some(action) = keymap::action_in(&key(code), a.mode()) {
            apply(&mut a, &[action]);
        }
    }
    assert_eq!((a.overlay, a.picker.cursor), (Some(Overlay::Picker), 1));
    assert_eq!(
        keymap::action_in(&key(KeyCode::Enter), a.mode()),
        Some(Action::Open)
    );
    apply(&mut a, &[Action::Open]);
    assert_eq!(a.loaded.card.name, load::CATALOG[1].0);
    assert_eq!(a.trace().title, "Wrong path first");
    assert_eq!(
        (a.step, a.overlay, a.zoom, a.unfold),
        (0, None, false, false)
    );
    assert_eq!((a.focus, a.scroll), (Panel::Lanes, [0; 4]));
    // Language stays; the list now starts on the lesson shown.
    assert_eq!(a.lang, Lang::En);
    apply(&mut a, &[Action::TogglePicker]);
    assert_eq!((a.picker.cursor, a.picker.current), (1, Some(1)));
    apply(&mut a, &[Action::Last, Action::Back]);
    assert_eq!(a.overlay, None);
    assert_eq!(a.loaded.card.name, load::CATALOG[1].0);
}

#[test]
fn a_lesson_that_cannot_be_opened_keeps_the_list_and_the_run() {
    let mut a = with_picker(app(), &["no-such-lesson.json".to_string()]);
    apply(&mut a, &[Action::Next, Action::TogglePicker, Action::Last]);
    let last = a.picker.lessons.last().unwrap();
    let error = last.loaded().as_ref().unwrap_err();
    assert!(error.starts_with("no-such-lesson.json: "), "{error}");
    apply(&mut a, &[Action::Next]);
    assert_eq!(a.overlay, Some(Overlay::Picker));
    assert_eq!((a.step, a.loaded.card.name.as_str()), (1, DEFAULT_SCENARIO));
}

#[test]
fn lessons_are_listed_once_in_catalogue_order_then_files() {
    use agent_loop_sim::picker::{self, Source};
    let a = app();
    let extra = [
        "wrong-path-first".to_string(),
        "scenarios/wrong-path-first.json".to_string(),
        "scenarios/wrong-path-first.json".to_string(),
    ];
    let (lessons, current) =
        picker::gather(Source::Shipped(DEFAULT_SCENARIO), a.loaded.clone(), &extra);
    assert_eq!(current, 0);
    assert_eq!(lessons.len(), load::CATALOG.len() + 1);
    for (lesson, (name, _)) in lessons.iter().zip(load::CATALOG) {
        assert_eq!(lesson.source, Source::Shipped(name));
        assert!(lesson.loaded().is_ok(), "{name}");
    }
    assert_eq!(
        lessons.last().unwrap().source,
        Source::File("scenarios/wrong-path-first.json".into())
    );
    // The open lesson is the very run the app shows, not a second copy.
    assert!(std::sync::Arc::ptr_eq(
        lessons[0].loaded().as_ref().unwrap(),
        &a.loaded
    ));
    // A file opened with --scenario FILE is listed after the catalogue.
    let (lessons, current) = picker::gather(
        Source::File("scenarios/budget-exhausted.json".into()),
        a.loaded.clone(),
        &[],
    );
    assert_eq!(current, load::CATALOG.len());
    assert_eq!(lessons.len(), load::CATALOG.len() + 1);
}
