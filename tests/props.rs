//! Property tests: no frame of any shipped scenario panics at any screen
//! size, and no sequence of keys, resizes and ticks breaks the app state.

use agent_loop_sim::app::{self, Action, App, DWELL_MAX_MS, DWELL_MIN_MS, Overlay, Panel};
use agent_loop_sim::frames;
use agent_loop_sim::keymap::{self, KEYMAP, Key};
use agent_loop_sim::load::{self, CATALOG, DEFAULT_SCENARIO, Loaded};
use agent_loop_sim::picker::{self, Picker, Source};
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::theme::Theme;
use agent_loop_sim::view;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers, MediaKeyCode, ModifierKeyCode,
};

const MAX_W: u16 = 250;
const MAX_H: u16 = 80;

fn loaded(name: &str) -> Loaded {
    load::load(name).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn lang(zh: bool) -> Lang {
    if zh { Lang::Zh } else { Lang::En }
}

/// Render `app` at `w`×`h` the way the terminal does: the app knows its size.
fn draw(app: &App, w: u16, h: u16) {
    let mut app = app.clone();
    app::update(&mut app, Action::Resize(w, h));
    frames::render(&app, w, h);
}

/// A cheap deterministic spread of numbers (an LCG), so every frame gets
/// sizes from across the whole range without a random seed.
struct Spread(u64);

impl Spread {
    fn next(&mut self, below: u16) -> u16 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % u64::from(below)) as u16
    }
}

#[test]
fn every_small_size_renders_exhaustively() {
    // Every size up to 70×25 (through the minimum of 60×18 and the
    // compact layout), at the last step and at a step that moves with the
    // size, alternating languages.
    let app = App::new(loaded(DEFAULT_SCENARIO), Lang::Zh, Theme::DARK);
    let steps = app.trace().len();
    let last = frames::at_step(&app, steps - 1, 1, 1);
    for w in 0..=70u16 {
        for h in 0..=25u16 {
            draw(&last, w, h);
            let mut at = frames::at_step(&app, (w as usize * 7 + h as usize) % steps, 1, 1);
            at.lang = lang((w + h) % 2 == 0);
            draw(&at, w, h);
        }
    }
}

#[test]
fn every_width_and_every_height_renders() {
    // Dense sweeps across the whole range, in both layouts and both
    // languages, with an overlay or a zoom on some.
    let app = App::new(loaded(DEFAULT_SCENARIO), Lang::Zh, Theme::DARK);
    let mut at = frames::at_step(&app, 6, 1, 1);
    for w in 1..=MAX_W {
        for h in [18, 24, 31, MAX_H] {
            at.lang = lang(w % 2 == 0);
            at.zoom = w % 7 == 0;
            at.overlay = [None, Some(Overlay::Help), Some(Overlay::About)][(w % 3) as usize];
            draw(&at, w, h);
        }
    }
    for h in 1..=MAX_H {
        for w in [60, 99, 120, MAX_W] {
            at.lang = lang(h % 2 == 0);
            at.zoom = h % 5 == 0;
            at.overlay = [None, Some(Overlay::Help), Some(Overlay::About)][(h % 3) as usize];
            draw(&at, w, h);
        }
    }
}

#[test]
fn every_frame_of_every_shipped_scenario_renders_at_sampled_sizes() {
    let mut spread = Spread(0x5eed);
    for (name, _) in CATALOG {
        let loaded = loaded(name);
        for zh in [true, false] {
            let app = App::new(loaded.clone(), lang(zh), Theme::DARK);
            for step in 0..app.trace().len() {
                let at = frames::at_step(&app, step, 1, 1);
                // One size anywhere, one in the compact layout, one wide.
                draw(&at, 1 + spread.next(MAX_W), 1 + spread.next(MAX_H));
                draw(&at, 60 + spread.next(40), 18 + spread.next(12));
                draw(
                    &at,
                    100 + spread.next(MAX_W - 99),
                    30 + spread.next(MAX_H - 29),
                );
            }
        }
    }
}

fn any_panel() -> impl Strategy<Value = Panel> {
    prop::sample::select(Panel::ALL.to_vec())
}

prop_compose! {
    /// Any frame of any shipped scenario, in any state a user can reach,
    /// at any size from 1×1 to 250×80.
    fn any_frame()(
        scenario in 0..CATALOG.len(),
        step in any::<prop::sample::Index>(),
        zh in any::<bool>(),
        focus in any_panel(),
        zoom in any::<bool>(),
        overlay in prop::option::of(prop::sample::select(vec![Overlay::Help, Overlay::About])),
        scroll in 0u16..40,
        w in 1..=MAX_W,
        h in 1..=MAX_H,
    ) -> (usize, prop::sample::Index, bool, Panel, bool, Option<Overlay>, u16, u16, u16) {
        (scenario, step, zh, focus, zoom, overlay, scroll, w, h)
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn any_reachable_frame_renders_at_any_size(
        (scenario, step, zh, focus, zoom, overlay, scroll, w, h) in any_frame()
    ) {
        let app = App::new(loaded(CATALOG[scenario].0), lang(zh), Theme::DARK);
        let mut at = frames::at_step(&app, step.index(app.trace().len()), w, h);
        at.focus = focus;
        at.zoom = zoom;
        at.overlay = overlay;
        // Scroll as a user would, so the offsets stay as `update` keeps them.
        for _ in 0..scroll {
            app::update(&mut at, Action::Scroll(-1));
        }
        frames::render(&at, w, h);
    }
}

/// A key a user can press: one from the keymap, or anything else at all.
fn any_key() -> impl Strategy<Value = KeyEvent> {
    let bound: Vec<KeyCode> = KEYMAP
        .iter()
        .flat_map(|b| b.keys.iter())
        .flat_map(|k| match *k {
            Key::Code(c) => vec![c],
            Key::Char(c) => vec![KeyCode::Char(c)],
            Key::Ctrl(c) => vec![KeyCode::Char(c)],
            Key::Digits => ('0'..='9').map(KeyCode::Char).collect(),
            Key::Choices => ('1'..='4').map(KeyCode::Char).collect(),
        })
        .collect();
    let garbage = prop_oneof![
        any::<char>().prop_map(KeyCode::Char),
        (0u8..=30).prop_map(KeyCode::F),
        prop::sample::select(vec![
            KeyCode::Delete,
            KeyCode::Insert,
            KeyCode::Null,
            KeyCode::CapsLock,
            KeyCode::ScrollLock,
            KeyCode::NumLock,
            KeyCode::PrintScreen,
            KeyCode::Pause,
            KeyCode::Menu,
            KeyCode::KeypadBegin,
            KeyCode::Media(MediaKeyCode::Play),
            KeyCode::Modifier(ModifierKeyCode::LeftShift),
        ]),
    ];
    let code = prop_oneof![4 => prop::sample::select(bound), 1 => garbage];
    let modifiers = prop_oneof![
        4 => Just(KeyModifiers::NONE),
        1 => (0u8..=0x3f).prop_map(KeyModifiers::from_bits_truncate),
    ];
    let kind = prop_oneof![
        8 => Just(KeyEventKind::Press),
        1 => Just(KeyEventKind::Repeat),
        1 => Just(KeyEventKind::Release),
    ];
    (code, modifiers, kind).prop_map(|(code, modifiers, kind)| KeyEvent {
        code,
        modifiers,
        kind,
        state: KeyEventState::NONE,
    })
}

/// What the event loop can hand to `update`.
#[derive(Debug, Clone)]
enum Input {
    Key(KeyEvent),
    Resize(u16, u16),
    Tick,
}

fn any_input() -> impl Strategy<Value = Input> {
    let size = prop_oneof![
        1 => prop::sample::select(vec![(0, 0), (1, 1), (60, 18), (80, 24), (59, 17)]),
        4 => (0..=300u16, 0..=100u16),
    ];
    prop_oneof![
        16 => any_key().prop_map(Input::Key),
        1 => size.prop_map(|(w, h)| Input::Resize(w, h)),
        4 => Just(Input::Tick),
    ]
}

/// The action the event loop makes of an input (presses only, as tui.rs;
/// in the app's mode).
fn action(input: &Input, mode: keymap::Mode) -> Option<Action> {
    match input {
        Input::Key(key) if key.kind == KeyEventKind::Press => keymap::action_in(key, mode),
        Input::Key(_) => None,
        Input::Resize(w, h) => Some(Action::Resize(*w, *h)),
        Input::Tick => Some(Action::Tick),
    }
}

fn check(app: &App, before: &App, action: Action) -> Result<(), TestCaseError> {
    // Two runs compared step over the longer one.
    let len = app.steps();
    prop_assert!(app.step < len, "step {} of {len}", app.step);
    prop_assert!((DWELL_MIN_MS..=DWELL_MAX_MS).contains(&app.dwell_ms));
    if action == Action::Tick {
        prop_assert!(
            !(app.playing && app.step == app.last()),
            "still playing on the last step after a tick"
        );
    }
    // The screen drawn after the action says how far each panel can
    // scroll; no panel is left past that, and drawing again at the clamped
    // offsets gives the same limits (they do not depend on the offset).
    let limits = view::render(
        app,
        ratatui::layout::Rect::new(0, 0, app.size.0, app.size.1),
        &mut ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(
            0, 0, app.size.0, app.size.1,
        )),
    );
    match app.overlay {
        // The highlighted lesson is in the list, and on screen.
        Some(Overlay::Picker) => {
            let p = &app.picker;
            prop_assert!(p.cursor < p.lessons.len().max(1));
            let rows = usize::from(limits.picker_rows);
            if rows > 0 {
                // As `update` keeps it, not only as the view would draw it.
                prop_assert!(
                    (p.top..p.top + rows).contains(&p.cursor),
                    "{p:?} in {rows} rows"
                );
            }
        }
        Some(overlay) => {
            let max = limits.overlay;
            prop_assert!(
                app.overlay_scroll <= max,
                "{overlay:?} scrolled to {} of {max} after {action:?}",
                app.overlay_scroll
            );
        }
        None => {
            let focus = app.focus;
            let max = limits.panels[focus.index()];
            prop_assert!(
                app.scroll[focus.index()] <= max,
                "{focus:?} scrolled to {} of {max} after {action:?}",
                app.scroll[focus.index()]
            );
        }
    }
    // Under an overlay nothing moves behind it and nothing is scored:
    // only the picker's Enter opens another lesson, and `c` (offered by
    // the about overlay) changes how many runs are shown.
    if before.overlay.is_some() && !matches!(action, Action::Open | Action::ToggleCompare) {
        prop_assert_eq!(
            app.step,
            before.step,
            "{:?} moved the step under {:?}",
            action,
            before.overlay
        );
        prop_assert_eq!(&app.quiz.answers, &before.quiz.answers);
        prop_assert_eq!(
            app.quiz.asking.is_some() && before.quiz.asking.is_none(),
            false
        );
    }
    if action == Action::ToggleHelp {
        let expected = if before.overlay == Some(Overlay::Help) {
            None
        } else {
            Some(Overlay::Help)
        };
        prop_assert_eq!(app.overlay, expected);
    }
    Ok(())
}

proptest! {
    // Few cases of many inputs each. A failure names the input that broke
    // the state and the inputs before it; shrinking 10,000 inputs would
    // take long and tell little more.
    #![proptest_config(ProptestConfig {
        cases: 6,
        max_shrink_iters: 32,
        ..ProptestConfig::default()
    })]

    #[test]
    fn ten_thousand_inputs_keep_the_app_consistent(
        scenario in 0..CATALOG.len(),
        zh in any::<bool>(),
        (w, h) in (0..=MAX_W, 0..=MAX_H),
        inputs in prop::collection::vec(any_input(), 10_000),
    ) {
        // With the lesson picker (`o`) offering the whole catalogue, so
        // Enter in it switches lessons among the inputs.
        let app = App::new(loaded(CATALOG[scenario].0), lang(zh), Theme::DARK);
        let (lessons, current) =
            picker::gather(Source::Shipped(CATALOG[scenario].0), app.loaded.clone(), &[]);
        let mut app = app.with_lessons(Picker::new(lessons, Some(current)));
        app::update(&mut app, Action::Resize(w, h));
        // The inputs must reach the states worth checking, or the test
        // says little: help open, playing, a panel scrolled.
        let (mut helped, mut played, mut scrolled) = (false, false, false);
        // Whether a scroll key ever met a panel that could scroll that way.
        let mut could_scroll = false;
        for (i, input) in inputs.iter().enumerate() {
            let Some(action) = action(input, app.mode()) else { continue };
            let before = app.clone();
            frames::apply(&mut app, action);
            if let Action::Scroll(delta) = action
                && before.overlay.is_none()
            {
                let panel = before.focus.index();
                let grows = (delta < 0) == before.anchored_at_end(before.focus);
                let room = if grows {
                    before.scroll[panel] < before.limits.panels[panel]
                } else {
                    before.scroll[panel] > 0
                };
                // A scroll key on a panel with room that way moves it.
                if room && app.size == before.size {
                    could_scroll = true;
                    prop_assert_ne!(app.scroll[panel], before.scroll[panel], "{:?} at input {}", action, i);
                }
            }
            helped |= app.overlay == Some(Overlay::Help);
            played |= app.playing;
            scrolled |= app.scroll.iter().any(|s| *s > 0);
            check(&app, &before, action).map_err(|e| {
                let recent = &inputs[i.saturating_sub(5)..=i];
                TestCaseError::fail(format!("{e}\n  at input {i}; the last inputs: {recent:?}"))
            })?;
        }
        prop_assert!(
            helped && played && (scrolled || !could_scroll),
            "help {helped}, play {played}, scroll {scrolled}"
        );
    }
}
