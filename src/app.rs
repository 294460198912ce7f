//! The app state and its one `update` function. No terminal, no clock here:
//! the event loop turns keys and timer ticks into `Action`s.
//!
//! Long because the app state and the handling of every action are one state
//! machine here; splitting it waits until the lessons' branches that edit it
//! have merged (issue 33).

use std::sync::Arc;

pub use crate::action::{Action, Limits};
use crate::compare::Comparison;
use crate::keymap::Mode;
use crate::load::Loaded;
use crate::picker::Picker;
use crate::quiz::{self, Quiz};
use crate::scenario::Lang;
use crate::theme::Theme;
pub use crate::timelines::Timelines;
use crate::trace::{Timeline, Trace};

pub const DWELL_DEFAULT_MS: u32 = 2000;
pub const DWELL_MIN_MS: u32 = 500;
pub const DWELL_MAX_MS: u32 = 10_000;
pub const DWELL_STEP_MS: u32 = 500;

/// The panels that can take focus, in Tab order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Panel {
    Lanes,
    Context,
    Pairing,
    Explain,
}

impl Panel {
    pub const ALL: [Panel; 4] = [Panel::Lanes, Panel::Context, Panel::Pairing, Panel::Explain];

    /// Panels that show their newest lines at the bottom and scroll back
    /// up through older ones: ↑ shows what is above.
    pub fn anchored_at_end(self) -> bool {
        matches!(self, Panel::Lanes | Panel::Context | Panel::Pairing)
    }

    pub fn index(self) -> usize {
        match self {
            Panel::Lanes => 0,
            Panel::Context => 1,
            Panel::Pairing => 2,
            Panel::Explain => 3,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overlay {
    Help,
    About,
    /// The lesson picker (`o`); its state is `App::picker`.
    Picker,
    /// `--class`: the QR code and address the phones join by (`i`).
    Join,
}

#[derive(Debug, Clone)]
pub struct App {
    /// Shared, not copied: `frames::at_step` clones the app for every frame
    /// it exports, and a long trace is megabytes.
    pub loaded: Arc<Loaded>,
    /// The open run's timelines, made when it was opened (`timeline`).
    pub timelines: Arc<Timelines>,
    pub lang: Lang,
    pub theme: Theme,
    /// 0-based index of the current step.
    pub step: usize,
    pub playing: bool,
    pub dwell_ms: u32,
    pub focus: Panel,
    /// Lines scrolled, per panel (for Context: up from the newest).
    pub scroll: [u16; 4],
    pub overlay_scroll: u16,
    pub zoom: bool,
    /// Long messages in the context shown whole (else folded).
    pub unfold: bool,
    /// Whether the screen names keys (the footer's hints, "scroll ↑",
    /// "f shows all", "Tab"): always in the terminal; a still figure or a
    /// cast leaves them out unless exported with `--keys`.
    pub key_hints: bool,
    /// A figure's panel under the lanes in the compact layout while the
    /// lanes have the focus: None in the terminal (the explanation; Tab
    /// picks another), the step's own or the one chosen in an export.
    pub lower: Option<Panel>,
    /// The context panel shows the request body as JSON (`w`).
    pub wire: bool,
    pub overlay: Option<Overlay>,
    pub size: (u16, u16),
    /// How far each panel can scroll, as the last drawn screen said.
    pub limits: Limits,
    /// The digit just typed, when another one could still follow it.
    pub pending_digit: Option<usize>,
    pub quit: bool,
    /// Predict, then reveal: whether it is on, the open question, answers.
    pub quiz: Quiz,
    /// The lessons `o` offers, and where the list stands.
    pub picker: Picker,
    /// Another run to show beside this one (`--compare`, or the scenario's
    /// correct twin, offered by `a` and opened by `c`).
    pub compare: Option<Comparison>,
    /// The search typed with `/`, and the steps it matches.
    pub search: crate::find::Search,
    /// A tap's run as it grows (`tap -- COMMAND` in a terminal).
    pub live: Option<crate::live::Live>,
    /// Where each lesson was left (self-study): kept by the interactive
    /// simulator only (`study.rs`); None in exports and tests.
    pub study: Option<crate::study::Kept>,
    /// `--class`: the room's counts, as the server tells them.
    pub class: Option<crate::room::Class>,
}

impl App {
    pub fn new(loaded: Loaded, lang: Lang, theme: Theme) -> Self {
        let loaded = Arc::new(loaded);
        let live = crate::live::Live::of_lesson(&loaded);
        App {
            timelines: Arc::new(Timelines::of(&loaded)),
            loaded,
            lang,
            theme,
            step: 0,
            playing: false,
            dwell_ms: DWELL_DEFAULT_MS,
            focus: Panel::Lanes,
            scroll: [0; 4],
            overlay_scroll: 0,
            zoom: false,
            unfold: false,
            key_hints: true,
            lower: None,
            wire: false,
            overlay: None,
            size: (120, 40),
            limits: Limits::default(),
            pending_digit: None,
            quit: false,
            quiz: Quiz::default(),
            picker: Picker::default(),
            compare: None,
            search: crate::find::Search::default(),
            live,
            study: None,
            class: None,
        }
        .with_twin()
    }

    /// The app with these lessons in its picker, `current` the one shown.
    pub fn with_lessons(mut self, picker: Picker) -> Self {
        self.picker = picker;
        self
    }

    /// The app keeping progress in `kept`, the open lesson resumed where it
    /// was left.
    pub fn with_study(mut self, kept: crate::study::Kept) -> Self {
        self.study = Some(kept);
        self.resume();
        self
    }

    /// Where the open lesson (the picker's current one) was left, if it was.
    pub fn progress(&self) -> Option<&crate::study::Progress> {
        self.study.as_ref()?.of(self.picker.current?)
    }

    /// Go to the step the open lesson was left at, unless it was read to
    /// its end (then it starts again from step 1).
    fn resume(&mut self) {
        if let Some(p) = self.progress().copied()
            && p.step < p.steps
            && p.steps == self.trace().len()
        {
            self.go(p.step.saturating_sub(1));
        }
    }

    /// Record where the open lesson stands: the step on screen and, once a
    /// question was answered, the quiz score. Returns whether anything
    /// changed (the caller then saves it).
    pub fn note_progress(&mut self) -> bool {
        let Some(i) = self.picker.current else {
            return false;
        };
        let steps = self.trace().len();
        let step = (self.step + 1).min(steps);
        let (right, answered) = self.quiz.score();
        let Some(kept) = &mut self.study else {
            return false;
        };
        let Some(Some(key)) = kept.keys.get(i) else {
            return false;
        };
        let before = kept.study.lessons.get(key).copied();
        let quiz = match answered {
            0 => before.and_then(|p| p.quiz),
            _ => Some((right, answered)),
        };
        let now = crate::study::Progress { step, steps, quiz };
        if before == Some(now) {
            return false;
        }
        kept.study.lessons.insert(key.clone(), now);
        true
    }

    /// Show another lesson from its first step, as if just opened: the
    /// view state that belongs to a run (step, scrolling, zoom, folding,
    /// focus, playing, the overlay) starts afresh; language, theme and
    /// dwell time are the user's and stay.
    fn open_lesson(&mut self, loaded: Arc<Loaded>) {
        self.timelines = Arc::new(Timelines::of(&loaded));
        // Another lesson: the recording's conversations are not its; a
        // lesson with a sub-agent has its own two.
        self.live = crate::live::Live::of_lesson(&loaded);
        self.loaded = loaded;
        self.step = 0;
        self.playing = false;
        self.focus = Panel::Lanes;
        self.scroll = [0; 4];
        self.overlay_scroll = 0;
        self.zoom = false;
        self.unfold = false;
        self.overlay = None;
        self.pending_digit = None;
        self.search = crate::find::Search::default();
        // A new lesson starts a new quiz: the answers were about the old one.
        let quiz_on = self.quiz.on;
        self.quiz = Quiz::default();
        // The twin offered is the new lesson's, if it has one.
        self.offer_twin();
        // A lesson read before opens where it was left.
        self.resume();
        if quiz_on {
            self.quiz.on = true;
            self.ask_next();
        }
    }

    /// A scenario that names its correct twin offers the comparison: the
    /// twin is a shipped scenario or a lesson file (checked when the
    /// scenario was loaded, its path then made relative to here).
    fn with_twin(mut self) -> Self {
        self.offer_twin();
        self
    }

    /// The comparison offered (not shown) with the lesson's twin, or none.
    fn offer_twin(&mut self) {
        let twin = self.loaded.lesson.as_ref().and_then(|l| l.twin.as_deref());
        // Both runs in this run's provider, where the twin may be shown so
        // (a mistake pinned to Anthropic beside its twin in Anthropic).
        let provider = Some(self.loaded.traces[0].provider);
        self.compare = twin
            .and_then(|name| {
                let as_this = crate::load::load_shown_in(name, provider, self.lang);
                as_this
                    .or_else(|_| crate::load::load_shown_in(name, None, self.lang))
                    .ok()
            })
            .map(|other| {
                let mut offered = Comparison::new(&self.loaded, Arc::new(other), false);
                offered.twin = true;
                offered
            });
    }

    /// The app showing this run and `other` side by side (`--compare`).
    /// The quiz waits until one run is shown: its question panel is not
    /// drawn beside two runs.
    pub fn with_comparison(mut self, other: Loaded) -> Self {
        self.compare = Some(Comparison::new(&self.loaded, Arc::new(other), true));
        self.close_question();
        self
    }

    /// What is on screen, as far as keys go: the overlay first, then two
    /// runs, then an open question, then the lesson.
    pub fn mode(&self) -> Mode {
        if self.live.as_ref().is_some_and(|l| l.confirm_quit) {
            return Mode::ConfirmQuit;
        }
        match self.overlay {
            Some(Overlay::Picker) => Mode::Picker,
            Some(_) => Mode::Overlay,
            None if self.comparing().is_some() => Mode::Compare,
            // A room that did not open counts no votes: the teacher answers.
            None if self.quiz.is_asking()
                && self.class.as_ref().is_some_and(|c| c.join.is_ok()) =>
            {
                let second = (self.quiz.asking)
                    .zip(self.class.as_ref())
                    .is_some_and(|(step, c)| c.round(step) == 2);
                Mode::ClassAsking {
                    choices: self.question().map_or(0, |q| q.choices.len()),
                    second,
                }
            }
            None if self.quiz.is_asking() => Mode::Asking {
                choices: self.question().map_or(0, |q| q.choices.len()),
            },
            None if self.class.is_some() => Mode::ClassLesson,
            None => Mode::Lesson { quiz: self.quiz.on },
        }
    }

    /// Does `panel` show its newest lines at the bottom now? The context
    /// reads from the top right after the host compacted it
    /// (`Trace::just_compacted`), so the host's placeholder or summary shows.
    pub fn anchored_at_end(&self, panel: Panel) -> bool {
        match panel {
            // The JSON body ends with the newest items, compacted or not.
            Panel::Context => self.wire || !self.trace().just_compacted(self.step),
            other => other.anchored_at_end(),
        }
    }

    /// The comparison, when it is on screen.
    pub fn comparing(&self) -> Option<&Comparison> {
        self.compare.as_ref().filter(|c| c.shown)
    }

    /// How many steps the step index runs over: the longer run's when two
    /// are compared.
    pub fn steps(&self) -> usize {
        let other = self
            .comparing()
            .map_or(0, |c| c.other.trace(self.lang).len());
        self.trace().len().max(other)
    }

    /// The Tool lane's index of the run on screen: the one made when it
    /// was opened, or (for a run swapped in without one) made now.
    pub fn timeline(&self) -> std::borrow::Cow<'_, Timeline> {
        match self.timelines.of_run(&self.loaded, self.lang) {
            Some(timeline) => std::borrow::Cow::Borrowed(timeline),
            None => std::borrow::Cow::Owned(Timeline::of(self.trace())),
        }
    }

    pub fn trace(&self) -> &Trace {
        self.loaded.trace(self.lang)
    }

    pub fn last(&self) -> usize {
        self.steps().saturating_sub(1)
    }

    fn go(&mut self, step: usize) {
        let step = step.min(self.last());
        if step == self.last()
            && let Some(live) = &mut self.live
        {
            live.new_steps = 0;
        }
        if step != self.step {
            self.step = step;
            self.scroll = [0; 4];
            // A hint is about the step it was given at.
            self.quiz.hint = false;
            if let Some(c) = &mut self.compare {
                c.scroll = [0; 2];
            }
        }
        // A step shown is never asked about again (a jump past unanswered
        // steps shows them unscored).
        self.quiz.seen = self.quiz.seen.max(step);
    }

    /// The question open now, if any.
    pub fn question(&self) -> Option<quiz::Question> {
        let index = self.quiz.asking?;
        quiz::asked(&self.loaded, self.trace(), index)
    }

    /// One step on; in the quiz, a step not shown yet is asked about first.
    fn forward(&mut self) {
        if !self.ask_next() {
            self.go(self.step + 1);
        }
    }

    /// Open the question about the next step if the quiz is on and that
    /// step has not been shown. Asking pauses play and leaves zoom, so the
    /// question is on screen.
    fn ask_next(&mut self) -> bool {
        let next = self.step + 1;
        if !self.quiz.on || next > self.last() || next <= self.quiz.seen {
            return false;
        }
        // Beside another run the question is not drawn: it is not asked.
        if self.comparing().is_some() {
            return false;
        }
        if quiz::asked(&self.loaded, self.trace(), next).is_none() {
            return false;
        }
        self.quiz.asking = Some(next);
        self.quiz.hint = false;
        self.playing = false;
        self.zoom = false;
        // The question is in the explanation's place: a focus on a panel
        // that shares that place (80×24) moves to it, so it shows. Tab
        // still reaches the others while the question waits.
        if matches!(self.focus, Panel::Context | Panel::Pairing) {
            self.focus = Panel::Explain;
        }
        self.scroll[Panel::Explain.index()] = 0;
        true
    }

    /// The steps the search matches, found again when the language changed
    /// (the titles and explanations are in it).
    fn find_matches(&mut self) {
        if self.search.query.trim().is_empty() || self.search.lang == Some(self.lang) {
            return;
        }
        self.search.matches = crate::find::matches(self.trace(), &self.search.query);
        self.search.lang = Some(self.lang);
    }

    fn close_question(&mut self) {
        self.quiz.asking = None;
        self.quiz.hint = false;
    }

    /// Choice `n` (1-based) for the open question: reveal the step, keep
    /// the answer. A number with no choice only says what to press.
    fn answer(&mut self, n: usize) {
        let Some(q) = self.question() else {
            self.close_question();
            return;
        };
        if !(1..=q.choices.len()).contains(&n) {
            self.quiz.hint = true;
            return;
        }
        // A panel tabbed over the question (80×24): the digit brings it
        // back instead of answering a question no one could read.
        if self.limits.explain_hidden {
            self.focus = Panel::Explain;
            self.zoom = false;
            self.quiz.hint = true;
            return;
        }
        let answer = quiz::Answer {
            choice: n - 1,
            right: n - 1 == q.answer,
        };
        self.quiz.answers.insert(q.step, answer);
        // The teacher answered for the room: the room sees the reveal.
        if let Some(class) = &mut self.class {
            class.reveal(q.step, q.choices.len());
        }
        self.close_question();
        self.quiz.just_answered = true;
        self.go(q.step);
    }
}

/// Apply one action. The only place the app state changes.
pub fn update(app: &mut App, action: Action) {
    let pending = app.pending_digit.take();
    if held(app, action) {
        return;
    }
    match action {
        // The last step of a lesson in today's plan: on to the next one.
        Action::Next if app.step == app.last() && app.comparing().is_none() => next_lesson(app),
        Action::Next => app.forward(),
        Action::Prev => app.go(app.step.saturating_sub(1)),
        Action::First => app.go(0),
        Action::Last => app.go(app.last()),
        Action::GoTo(step) => app.go(step),
        Action::Jump(digit) => jump(app, digit, pending),
        Action::TogglePlay => toggle_play(app),
        Action::Tick => tick(app),
        Action::DwellLonger => {
            app.dwell_ms = (app.dwell_ms + DWELL_STEP_MS).min(DWELL_MAX_MS);
        }
        Action::DwellShorter => {
            app.dwell_ms = app.dwell_ms.saturating_sub(DWELL_STEP_MS).max(DWELL_MIN_MS);
        }
        // Two runs on screen: Tab moves between them.
        Action::FocusNext | Action::FocusPrev if app.comparing().is_some() => {
            if let Some(c) = &mut app.compare {
                c.focus = c.focus.flip();
            }
        }
        Action::FocusNext | Action::FocusPrev => {
            let n = Panel::ALL.len();
            let shift = if action == Action::FocusNext {
                1
            } else {
                n - 1
            };
            app.focus = Panel::ALL[(app.focus.index() + shift) % n];
        }
        Action::Scroll(delta) => scroll(app, delta),
        // Two runs: each side's context in place of its lanes, or back.
        Action::Zoom if app.comparing().is_some() => {
            if let Some(c) = &mut app.compare {
                c.contexts = !c.contexts;
                c.scroll = [0; 2];
            }
        }
        Action::Zoom => app.zoom = !app.zoom,
        Action::ToggleFold => app.unfold = !app.unfold,
        Action::ToggleWire => {
            app.wire = !app.wire;
            app.scroll[Panel::Context.index()] = 0;
        }
        Action::ToggleHelp => toggle_overlay(app, Overlay::Help),
        Action::ToggleAbout => toggle_overlay(app, Overlay::About),
        Action::SwitchLanguage => app.lang = app.lang.other(),
        Action::Back => back(app),
        Action::Resize(w, h) => app.size = (w, h),
        Action::ToggleCompare => toggle_compare(app),
        Action::Drawn(limits) => drawn(app, limits, pending),
        Action::Quit => quit(app),
        Action::QuitYes => app.quit = true,
        Action::QuitNo => {
            if let Some(live) = &mut app.live {
                live.confirm_quit = false;
            }
        }
        Action::SwitchConversation => switch_conversation(app),
        Action::IntoSubAgent => into_sub_agent(app),
        Action::OutOfSubAgent => out_of_sub_agent(app),
        Action::ToggleQuiz => {
            app.quiz.on = !app.quiz.on;
            if app.quiz.on {
                app.ask_next();
            } else {
                app.close_question();
            }
        }
        Action::Answer(n) => app.answer(n),
        Action::Reveal => reveal(app),
        Action::SecondRound => {
            if let (Some(q), Some(class)) = (app.question(), &mut app.class) {
                class.second_round(q.step, q.choices.len());
            }
        }
        Action::ToggleJoin if app.class.is_some() => toggle_overlay(app, Overlay::Join),
        Action::ToggleJoin => {}
        // Only the picker opens (`picker_update`).
        Action::Open => {}
        Action::SearchStart
        | Action::SearchInput(_)
        | Action::SearchBackspace
        | Action::SearchCancel
        | Action::SearchDone => search(app, action),
        Action::NextMatch
        | Action::PrevMatch
        | Action::NextModelCall
        | Action::PrevModelCall
        | Action::NextTrouble
        | Action::PrevTrouble => find_next(app, action),
        Action::TogglePicker => toggle_picker(app),
    }
}

/// Esc: closes what is open, the innermost first.
fn back(app: &mut App) {
    if app.overlay.is_some() {
        app.overlay = None;
    } else if app.zoom {
        app.zoom = false;
    } else if app.comparing().is_some() {
        // Back to one run, as `c` does; q still quits.
        update(app, Action::ToggleCompare);
    }
    // With nothing to close, Esc does nothing: one key too many
    // must not end a class (its step and quiz score). q quits.
}

fn toggle_play(app: &mut App) {
    if app.playing {
        app.playing = false;
    } else {
        // Play from the start again when already at the end.
        if app.step == app.last() {
            app.go(0);
        }
        app.playing = app.step < app.last();
    }
}

/// The next step is due while playing.
fn tick(app: &mut App) {
    if app.playing {
        app.forward();
    }
    if app.step >= app.last() {
        app.playing = false;
    }
}

/// A search typed (`/`), taken back, or done: then at its first match.
fn search(app: &mut App, action: Action) {
    match action {
        Action::SearchStart => {
            app.search = crate::find::Search {
                typing: true,
                ..Default::default()
            };
            app.playing = false;
        }
        Action::SearchInput(c) => app.search.query.push(c),
        Action::SearchBackspace => {
            app.search.query.pop();
        }
        Action::SearchCancel => app.search = crate::find::Search::default(),
        Action::SearchDone => {
            app.search.typing = false;
            app.find_matches();
            // The first match from here on (this step included).
            if let Some(to) = app.search.next(app.step.wrapping_sub(1), true) {
                app.go(to);
            }
        }
        _ => {}
    }
}

/// To the next (or previous) match, model call or step where something
/// went wrong.
fn find_next(app: &mut App, action: Action) {
    let to = match action {
        Action::NextMatch | Action::PrevMatch => {
            app.find_matches();
            app.search.next(app.step, action == Action::NextMatch)
        }
        Action::NextModelCall | Action::PrevModelCall => {
            crate::find::model_call(app.trace(), app.step, action == Action::NextModelCall)
        }
        Action::NextTrouble | Action::PrevTrouble => {
            crate::find::trouble(app.trace(), app.step, action == Action::NextTrouble)
        }
        _ => None,
    };
    if let Some(to) = to {
        app.go(to);
    }
}

fn toggle_picker(app: &mut App) {
    toggle_overlay(app, Overlay::Picker);
    if app.overlay != Some(Overlay::Picker) {
        return;
    }
    // Watching a tap, the picker lists its conversations (the lessons
    // would leave the run that grows): Enter switches, as `s` does.
    if app.live.as_ref().is_some_and(|l| l.watching) {
        app.picker = conversations_picker(app.picker.cursor, app.live.as_ref());
    }
    app.picker.prepare_all();
    app.picker.reset_cursor();
}

/// Whether what is on screen has taken `action` itself (the picker, an
/// open question) or does not offer it: then `update` goes no further.
fn held(app: &mut App, action: Action) -> bool {
    let keyed = !matches!(
        action,
        Action::Tick | Action::Drawn(_) | Action::Resize(..) | Action::GoTo(_)
    );
    // A digit typed right after a digit answered a question was meant
    // with it (`1 1` for step 11): it is held, not taken as a jump.
    if keyed && std::mem::take(&mut app.quiz.just_answered) && matches!(action, Action::Jump(_)) {
        app.quiz.hint = true;
        return true;
    }
    // A key does something only where what is on screen offers it: a
    // digit under help answers nothing, PageDown under the picker moves
    // nothing. Ticks, draws and resizes are not keys.
    // A search being typed takes its own keys (`keymap::typing_action`).
    let typing = app.search.typing
        && matches!(
            action,
            Action::SearchInput(_)
                | Action::SearchBackspace
                | Action::SearchDone
                | Action::SearchCancel
                | Action::Quit
        );
    if keyed && !typing && !app.mode().enables(action) {
        return true;
    }
    if app.overlay == Some(Overlay::Picker) && picker_update(app, action) {
        return true;
    }
    app.quiz.is_asking() && question_holds(app, action)
}

/// The last step of a lesson in today's plan: on to the next one (or on,
/// as `Next` goes, without one).
fn next_lesson(app: &mut App) {
    if let Some((next, _)) = app.picker.next_in_plan()
        && let Some(Ok(loaded)) = app.picker.lessons.get(next).map(|l| l.loaded().clone())
    {
        app.picker.current = Some(next);
        app.picker.cursor = next;
        app.open_lesson(loaded);
    } else {
        app.forward();
    }
}

/// `--class`: show the room's counts of the open question, then its step.
fn reveal(app: &mut App) {
    if let (Some(q), Some(class)) = (app.question(), &mut app.class) {
        class.reveal(q.step, q.choices.len());
        app.close_question();
        app.go(q.step);
    }
}

/// What `action` does while a question is open: true when that is all
/// (the question holds it), false when `update` goes on with it.
fn question_holds(app: &mut App, action: Action) -> bool {
    match action {
        // An open question holds the keys that would show the step:
        // they say what to do instead.
        Action::Next | Action::TogglePlay | Action::Jump(_) => {
            app.quiz.hint = true;
            true
        }
        Action::Tick | Action::Zoom => true,
        // Two runs would hide the question and step past it unanswered.
        Action::ToggleCompare => {
            app.quiz.hint = true;
            true
        }
        // Moving elsewhere closes it unanswered.
        Action::Prev
        | Action::First
        | Action::Last
        | Action::GoTo(_)
        | Action::SearchDone
        | Action::NextMatch
        | Action::PrevMatch
        | Action::NextModelCall
        | Action::PrevModelCall
        | Action::NextTrouble
        | Action::PrevTrouble => {
            app.close_question();
            false
        }
        Action::Back if app.overlay.is_none() => {
            app.close_question();
            true
        }
        _ => false,
    }
}

/// Digits typed in a row make one step number (1 5 0 → 150), as long as
/// it names a step; a 0 alone names none.
fn jump(app: &mut App, digit: usize, pending: Option<usize>) {
    let steps = app.steps();
    let n = match pending.map(|before| before * 10 + digit) {
        Some(n) if n <= steps => n,
        _ => digit,
    };
    if n > 0 {
        app.go(n - 1);
    }
    // Wait for another digit only where it can still make a step.
    if n > 0 && n * 10 <= steps {
        app.pending_digit = Some(n);
    }
}

/// Scroll what has the keys: the overlay, the focused side of a
/// comparison, or the focused panel.
fn scroll(app: &mut App, delta: i32) {
    let comparing = app.comparing().is_some();
    let at_end = app.anchored_at_end(app.focus);
    let (max, target, delta) = match (app.overlay, &mut app.compare) {
        (Some(_), _) => (app.limits.overlay, &mut app.overlay_scroll, delta),
        // The focused side's lanes, anchored at their newest row.
        (None, Some(c)) if comparing => (
            app.limits.sides[c.focus.index()],
            &mut c.scroll[c.focus.index()],
            -delta,
        ),
        (None, _) => (
            app.limits.panels[app.focus.index()],
            &mut app.scroll[app.focus.index()],
            // Offsets of these count up from the newest line.
            if at_end { -delta } else { delta },
        ),
    };
    let moved = i64::from(*target) + i64::from(delta);
    *target = moved.clamp(0, i64::from(max)) as u16;
}

/// The screen was drawn with these limits: keep every scroll within them,
/// and a digit typed before still waiting for the next.
fn drawn(app: &mut App, limits: Limits, pending: Option<usize>) {
    // After the screen changed shape (a resize, zoom, the other
    // language), no panel stays scrolled past its end.
    app.limits = limits;
    for panel in Panel::ALL {
        let s = &mut app.scroll[panel.index()];
        *s = (*s).min(limits.panels[panel.index()]);
    }
    app.overlay_scroll = app.overlay_scroll.min(limits.overlay);
    if limits.picker_rows > 0 {
        app.picker.keep_in_view(usize::from(limits.picker_rows));
    }
    if let Some(c) = &mut app.compare {
        for (s, max) in c.scroll.iter_mut().zip(limits.sides) {
            *s = (*s).min(max);
        }
    }
    app.pending_digit = pending;
}

/// Show the second run beside this one, or go back to one run.
fn toggle_compare(app: &mut App) {
    if let Some(c) = &mut app.compare {
        c.shown = !c.shown;
        c.scroll = [0; 2];
        // A question waits for one run on screen (`ask_next`).
        if c.shown {
            app.quiz.asking = None;
            app.quiz.hint = false;
        }
        // Opened from the about overlay: show it, not the overlay.
        app.overlay = None;
        // Back to one run: stay within it.
        app.go(app.step.min(app.last()));
    }
}

/// Quit; while a tap's agent still runs, ask first (`QuitYes` quits, and
/// the tap stops the agent). Asked once: `q` again is yes.
fn quit(app: &mut App) {
    match &mut app.live {
        Some(live) if live.running && live.serving.is_none() && !live.confirm_quit => {
            live.confirm_quit = true;
            app.playing = false;
        }
        _ => app.quit = true,
    }
}

/// A watched tap's conversations as the picker's rows, the one on screen
/// current, the highlight at `cursor` where it still is one.
fn conversations_picker(cursor: usize, live: Option<&crate::live::Live>) -> Picker {
    let Some(live) = live else {
        return Picker::default();
    };
    let n = live.conversations.len();
    let lessons = live
        .conversations
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let source = crate::picker::Source::Transcript(match n {
                1 => live.recording.clone(),
                _ => format!("{}#{}", live.recording, k + 1),
            });
            crate::picker::Lesson::ready(source, Ok(c.clone()))
        })
        .collect();
    let mut picker = Picker::new(lessons, Some(live.current));
    picker.cursor = cursor.min(live.conversations.len().saturating_sub(1));
    picker
}

/// The next conversation of a tap's run, where it was left (live: at its
/// newest step, following it, when it was never shown or left there).
fn switch_conversation(app: &mut App) {
    let Some(live) = &app.live else { return };
    let n = live.conversations.len();
    if n < 2 {
        return;
    }
    switch_to(app, (live.current + 1) % n);
}

/// Conversation `to` of a tap's run, where it was left.
fn switch_to(app: &mut App, to: usize) {
    let at_end = app.step >= app.last();
    let step = app.step;
    let Some(live) = &mut app.live else { return };
    if to >= live.conversations.len() || to == live.current {
        return;
    }
    // Live, left at its newest step it follows on; else it stays put.
    live.positions[live.current] = (!(at_end && live.watching)).then_some(step);
    // Where `d` left from: only `d` sets it again.
    live.back = None;
    live.current = to;
    let next = live.conversations[live.current].clone();
    // Never shown: live, at its newest step (following it); in a
    // recording read afterwards, at its first.
    let unseen = if live.watching { usize::MAX } else { 0 };
    let position = live.positions[live.current].unwrap_or(unseen);
    live.new_steps = 0;
    app.timelines = Arc::new(Timelines::of(&next));
    app.loaded = next;
    app.scroll = [0; 4];
    app.search.lang = None;
    app.step = position.min(app.last());
}

/// `d`: the sub-agent's run that a call of this step started, where it
/// was left (its first step, never shown); `u` there comes back here.
fn into_sub_agent(app: &mut App) {
    let Some(live) = &app.live else { return };
    let Some(link) = crate::sub_agent::into(live, app.trace(), app.step) else {
        return;
    };
    let from = (live.current, app.step);
    switch_to(app, link.conversation);
    if let Some(live) = &mut app.live {
        live.back = Some(from);
    }
}

/// `u`: from a sub-agent's run back to the step of the call that started it.
fn out_of_sub_agent(app: &mut App) {
    let Some(live) = &app.live else { return };
    let Some(link) = crate::sub_agent::out(live, app.trace()) else {
        return;
    };
    switch_to(app, link.conversation);
    app.step = link.step.min(app.last());
}

/// The tap's run grew, or its agent ended: the one entry besides `update`,
/// for what comes from outside the terminal. At the last step the view
/// follows the new steps; elsewhere it stays and counts them.
pub fn grow(app: &mut App, update: crate::live::Update) {
    use crate::live::Update;
    let before = app.trace().len();
    let at_end = app.step + 1 >= before;
    let Some(live) = &mut app.live else { return };
    match update {
        Update::Ended(code) => {
            live.running = false;
            live.exit = Some(code);
            live.confirm_quit = false;
        }
        Update::Grown(conversations) => {
            live.positions.resize(conversations.len(), None);
            live.current = live.current.min(conversations.len().saturating_sub(1));
            let Some(shown) = conversations.get(live.current).cloned() else {
                return;
            };
            live.conversations = conversations;
            // Indexed once an update, not at every frame of the grown run,
            // and from the index before: at call 2,000, its newest calls.
            let index = Arc::try_unwrap(std::mem::take(&mut app.timelines));
            app.timelines = Arc::new(Timelines::grown(index.unwrap_or_default(), &shown));
            app.loaded = shown;
            if app.overlay == Some(Overlay::Picker) && live.watching {
                // The list grows with the run.
                app.picker = conversations_picker(app.picker.cursor, app.live.as_ref());
            }
            // The matches are found again in the grown run.
            app.search.lang = None;
            let after = app.trace().len();
            if at_end {
                app.step = app.last();
                if let Some(live) = &mut app.live {
                    live.new_steps = 0;
                }
            } else {
                app.step = app.step.min(app.last());
                if let Some(live) = &mut app.live {
                    live.new_steps += after.saturating_sub(before);
                }
            }
        }
    }
}

/// Keys while the lesson picker is open (the picker's mode lets no other
/// key through); false for those that act as everywhere else (Esc, `o`,
/// `?`, `L`, quit, a resize, a draw).
fn picker_update(app: &mut App, action: Action) -> bool {
    let picker = &mut app.picker;
    match action {
        Action::Scroll(delta) => picker.move_by(delta),
        Action::First => picker.first(),
        Action::Last => picker.last(),
        // The open lesson, where the list starts: back to it as it was,
        // its step and its quiz score kept.
        Action::Open if picker.current == Some(picker.cursor) => app.overlay = None,
        // A watched tap's conversation: switched to where it was left.
        Action::Open if app.live.as_ref().is_some_and(|l| l.watching) => {
            let to = picker.cursor;
            switch_to(app, to);
            app.overlay = None;
        }
        Action::Open => {
            // A lesson that cannot be opened stays listed with its error.
            if let Some(Ok(loaded)) = picker
                .lessons
                .get(picker.cursor)
                .map(|l| l.loaded().clone())
            {
                picker.current = Some(picker.cursor);
                app.open_lesson(loaded);
            }
        }
        _ => return false,
    }
    true
}

fn toggle_overlay(app: &mut App, overlay: Overlay) {
    app.overlay_scroll = 0;
    app.overlay = if app.overlay == Some(overlay) {
        None
    } else {
        // Nothing moves behind an overlay, not even play: it pauses.
        app.playing = false;
        Some(overlay)
    };
}
