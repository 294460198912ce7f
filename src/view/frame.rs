//! Header (where we are, who acts, the counters) and footer (keys, play
//! state, dwell time, progress).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::scene::Scene;
use super::text::{truncate, width};
use crate::app::{App, Panel};
use crate::i18n;
use crate::scenario::Lang;
use crate::theme::Theme;
use crate::trace::{Source, TaskOutcome, Trace};

/// What the header draws: the run at its step, and where the step stands
/// in a search. Built from the app by `of`, or by hand to draw it alone.
pub struct Header<'a> {
    pub scene: &'a Scene<'a>,
    /// The search's words, once one has been made (`search_status`).
    pub search: Option<String>,
}

impl<'a> Header<'a> {
    /// The app's header, over `scene` (`Scene::of(app)`).
    pub fn of(app: &'a App, scene: &'a Scene<'a>) -> Header<'a> {
        Header {
            scene,
            search: search_status(app),
        }
    }

    /// Draw its three lines on `area`.
    pub fn render(&self, area: Rect, buf: &mut Buffer) {
        header(self, area, buf);
    }
}

fn header(h: &Header<'_>, area: Rect, buf: &mut Buffer) {
    let s = h.scene;
    let lang = s.lang;
    let theme = s.theme;
    let trace = s.trace;
    let step = &trace.steps[s.step];

    let (first, _) = first_line(s, h.search.as_deref(), area.width);

    let actor_style = match step.source() {
        Source::User => theme.user(),
        Source::Provider => theme.error(),
        Source::Lane(lane) => theme.lane_style(lane),
    };
    // `level` 0: all words; 1: the task's short name; 2: also the shorter
    // actor and no "acting:" label.
    let who = |level: u8| {
        let who_acts = if level < 2 {
            i18n::who_acts(trace, s.step)
        } else {
            i18n::who_acts_short(trace, s.step)
        };
        let mut spans = vec![Span::raw(" ")];
        if level < 2 {
            spans.push(Span::styled(i18n::lead(i18n::ACTING, lang), theme.muted()));
        }
        spans.push(Span::styled(
            who_acts,
            actor_style.add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::styled(" │", theme.muted()));
        spans.extend(loop_state(lang, theme, trace, s.step, level == 0));
        Line::from(spans)
    };
    // Narrow screens get shorter words, never a cut state.
    let second = (0..=2)
        .map(who)
        .find(|l| l.width() <= area.width as usize)
        .unwrap_or_else(|| who(2));
    // The counters, in words; narrow screens get the shorter wording, and
    // what still does not fit is cut at a word, with a mark.
    let room = (area.width as usize).saturating_sub(1);
    let counters = (0..=2)
        .map(|detail| i18n::counters_at(trace, s.counts, step, detail, lang))
        .find(|c| super::text::width(c) <= room)
        .unwrap_or_else(|| {
            super::text::truncate(&i18n::counters_at(trace, s.counts, step, 2, lang), room)
        });
    let third = Line::from(format!(" {counters}"));
    super::window::draw_lines(&[first, second, third], area, buf);
}

/// The header's first line (the step, the lesson, the step's title) in
/// `cells` cells, and whether the title had to be cut there.
fn first_line(s: &Scene<'_>, search: Option<&str>, cells: u16) -> (Line<'static>, bool) {
    let theme = s.theme;
    let trace = s.trace;
    let indicator = format!(
        " {} {}/{} ",
        i18n::STEP.get(s.lang),
        s.step + 1,
        trace.len()
    );
    // A search: where this step stands among its matches.
    let indicator = match search {
        Some(status) => format!("{indicator}· {status} "),
        None => indicator,
    };
    let indicator = Span::styled(indicator, theme.current_marker());
    let title = i18n::step_title(trace, s.step);
    let first = Line::from(vec![
        indicator.clone(),
        Span::styled(format!(" {} ", trace.title), theme.title()),
        Span::styled("· ", theme.muted()),
        Span::styled(title.clone(), theme.current()),
    ]);
    if first.width() <= cells as usize {
        return (first, false);
    }
    // On a narrow screen the step's title matters more than the scenario's;
    // what still does not fit is cut at a word, and says so.
    let room = (cells as usize).saturating_sub(indicator.width() + 1);
    let title = if width(&title) > room {
        super::ids::shorten_ids(&title, &trace.steps[s.step])
    } else {
        title
    };
    let cut = width(&title) > room;
    let line = Line::from(vec![
        indicator,
        Span::raw(" "),
        Span::styled(truncate(&title, room), theme.current()),
    ]);
    (line, cut)
}

/// Does the header cut the step's title at `cells` cells (no search
/// shown)? The explanation then begins with the whole title.
pub(super) fn title_cut(s: &Scene<'_>, cells: u16) -> bool {
    first_line(s, None, cells).1
}

/// How the loop stands at `step` of `trace`, and once it has ended,
/// whether the task is done: two separate things, both said in words, in
/// `lang` and `theme`. `long`: the task state's long name.
pub(super) fn loop_state(
    lang: Lang,
    theme: Theme,
    trace: &Trace,
    step: usize,
    long: bool,
) -> Vec<Span<'static>> {
    match trace.steps[step].end {
        Some(end) => vec![
            Span::styled(
                format!(
                    " ■ {}{} ",
                    i18n::lead(i18n::LOOP, lang),
                    i18n::end_name(end, lang)
                ),
                theme.current_marker(),
            ),
            Span::styled("│ ", theme.muted()),
            Span::styled(
                format!(
                    "{}{}",
                    i18n::lead(i18n::TASK, lang),
                    i18n::task_name(trace.task, long, lang)
                ),
                task_style(theme, trace.task),
            ),
        ],
        None => vec![Span::styled(
            format!(" {}", i18n::RUNNING_LOOP.get(lang)),
            theme.muted(),
        )],
    }
}

pub(super) fn task_style(theme: Theme, task: TaskOutcome) -> ratatui::style::Style {
    match task {
        TaskOutcome::Verified | TaskOutcome::Answered => theme.ok(),
        TaskOutcome::Unverified | TaskOutcome::NotDone => theme.error(),
        TaskOutcome::Unknown => theme.muted(),
    }
}

/// The warning line of a scenario file that runs but has faults: how many,
/// and the first, cut to the width (`check` lists them all).
pub fn faults(app: &App, area: Rect, buf: &mut Buffer) {
    let faults = &app.loaded.faults;
    let Some(first) = faults.first() else {
        return;
    };
    let text = i18n::FILE_FAULTS.fill(
        app.lang,
        &[("count", &faults.len()), ("first", &first.without_file())],
    );
    let text = super::text::truncate(&text, area.width as usize);
    super::window::draw_lines(
        &[Line::from(Span::styled(text, app.theme.error()))],
        area,
        buf,
    );
}

/// The search's words for the header, once it has been made.
fn search_status(app: &App) -> Option<String> {
    let s = &app.search;
    let query = s.query.trim();
    if s.typing || query.is_empty() {
        return None;
    }
    let query = super::text::truncate(&crate::safe::for_screen(query), 24);
    let lang = app.lang;
    Some(match (s.position(app.step), s.matches.len()) {
        (_, 0) => i18n::SEARCH_NONE.fill(lang, &[("query", &query)]),
        (Some((k, n)), _) => {
            i18n::SEARCH_MATCH.fill(lang, &[("query", &query), ("k", &k), ("n", &n)])
        }
        (None, n) => i18n::SEARCH_ELSEWHERE.fill(lang, &[("query", &query), ("n", &n)]),
    })
}

/// The live view's state: the agent running or ended, steps not seen yet
/// and, with several, the conversation on screen.
fn live_status(live: &crate::live::Live, lang: Lang, short: bool) -> String {
    let mut parts = Vec::new();
    if let Some(base) = live.serving.as_ref().filter(|_| live.exit.is_none()) {
        parts.push(i18n::LIVE_SERVING.fill(lang, &[("base", base)]));
    } else if live.watching {
        parts.push(match live.exit {
            None => i18n::LIVE_RUNNING.get(lang).to_string(),
            Some(Some(code)) => i18n::LIVE_ENDED.fill(lang, &[("code", &code)]),
            Some(None) => i18n::LIVE_STOPPED.get(lang).to_string(),
        });
    }
    if live.new_steps > 0 {
        let steps = i18n::STEP_N.get(live.new_steps, lang);
        let new = if short {
            i18n::LIVE_NEW_SHORT
        } else {
            i18n::LIVE_NEW
        };
        parts.push(new.fill(lang, &[("n", &live.new_steps), ("steps", &steps)]));
    }
    if live.conversations.len() > 1 {
        let conversation = if short {
            i18n::LIVE_CONVERSATION_SHORT
        } else {
            i18n::LIVE_CONVERSATION
        };
        parts.push(conversation.fill(
            lang,
            &[("k", &(live.current + 1)), ("n", &live.conversations.len())],
        ));
    }
    // A sub-agent's own run: whose call started it, and the way back.
    let shown = live.conversations.get(live.current).map(|c| c.trace(lang));
    if let Some(link) = shown.and_then(|t| crate::sub_agent::out(live, t)) {
        parts.push(if short {
            i18n::LIVE_SUB_AGENT_SHORT.get(lang).to_string()
        } else {
            i18n::LIVE_SUB_AGENT.fill(
                lang,
                &[
                    ("agent", &crate::safe::for_screen(&link.agent)),
                    ("call", &crate::safe::for_screen(&link.call)),
                ],
            )
        });
    }
    parts.join(" · ")
}

/// What the footer draws: the keys of the mode on screen, then the play
/// state, dwell time, focus, quiz score and progress. Built from the app by
/// `of`, or by hand to draw it alone.
pub struct Footer<'a> {
    pub lang: Lang,
    pub theme: Theme,
    /// The `key label` pairs of the mode on screen (`Mode::hints`).
    pub hints: Vec<(String, &'static str)>,
    /// The search being typed: its text, drawn where the keys go.
    pub typing: Option<&'a str>,
    /// The live view (a tap): its state, and whether it asks to quit.
    pub live: Option<&'a crate::live::Live>,
    pub playing: bool,
    pub dwell_ms: u32,
    /// What has the focus, in words: a panel, or a side of a comparison.
    pub focus: String,
    /// The step shown (0-based) of `steps`.
    pub step: usize,
    pub steps: usize,
    /// The quiz's score (right, asked), while the quiz is on.
    pub score: Option<(usize, usize)>,
    /// At the last step of a lesson in today's plan: the next one, offered
    /// in the place of the program's state.
    pub next: Option<String>,
    /// The program's state (playing or paused, dwell, focus) is said: in
    /// the terminal, and in a figure exported with `--keys`. A figure
    /// shows the lesson, so it says only where the step stands.
    pub program_state: bool,
}

impl<'a> Footer<'a> {
    /// The app's footer.
    pub fn of(app: &'a App) -> Footer<'a> {
        let lang = app.lang;
        // Two runs compared: the focus is on one of them, and the step
        // index runs over the longer.
        let focus = match app.comparing() {
            Some(c) if app.key_hints => format!(
                "{} · {}",
                c.focus.label().get(lang),
                i18n::COMPARE_KEYS.get(lang)
            ),
            Some(c) => c.focus.label().get(lang).to_string(),
            None => panel_title(app.focus).get(lang).to_string(),
        };
        Footer {
            lang,
            theme: app.theme,
            hints: app.mode().hints(lang),
            typing: app.search.typing.then_some(app.search.query.as_str()),
            live: app.live.as_ref(),
            playing: app.playing,
            dwell_ms: app.dwell_ms,
            focus,
            step: app.step,
            steps: app.steps(),
            score: app.quiz.on.then(|| app.quiz.score()),
            next: next_lesson(app),
            program_state: app.key_hints,
        }
    }

    /// Draw its two lines on `area`.
    pub fn render(&self, area: Rect, buf: &mut Buffer) {
        footer(self, area, buf);
    }
}

/// The next lesson of today's plan, at the last step of one in it (keys
/// on screen, one run, no overlay): `→` opens it.
fn next_lesson(app: &App) -> Option<String> {
    if !app.key_hints
        || app.step != app.last()
        || app.comparing().is_some()
        || app.overlay.is_some()
    {
        return None;
    }
    let (next, k) = app.picker.next_in_plan()?;
    let loaded = app.picker.lessons[next].loaded().as_ref().ok()?;
    Some(i18n::NEXT_LESSON.fill(
        app.lang,
        &[
            ("k", &k),
            ("n", &app.picker.plan.len()),
            ("title", &loaded.trace(app.lang).title),
        ],
    ))
}

fn footer(f: &Footer<'_>, area: Rect, buf: &mut Buffer) {
    let room = area.width as usize;
    if let Some(prompt) = f.prompt() {
        super::window::draw_lines(&prompt, area, buf);
        return;
    }
    let status = f.status_line(room);
    super::window::draw_lines(&[f.key_line(room), status], area, buf);
}

impl Footer<'_> {
    /// A question in the place of the key hints: the search being typed,
    /// or whether to stop the agent and quit; with its keys.
    fn prompt(&self) -> Option<[Line<'static>; 2]> {
        let (lang, theme) = (self.lang, self.theme);
        if let Some(query) = self.typing {
            let prompt = Line::from(vec![
                Span::styled(format!(" {}", i18n::SEARCH_PROMPT.get(lang)), theme.title()),
                Span::styled(
                    format!("/{}▏", crate::safe::for_screen(query)),
                    theme.current(),
                ),
            ]);
            let keys = Line::from(Span::styled(
                format!(" {}", i18n::SEARCH_KEYS.get(lang)),
                theme.muted(),
            ));
            return Some([prompt, keys]);
        }
        if self.live.is_some_and(|l| l.confirm_quit) {
            let question = i18n::LIVE_CONFIRM_QUIT.get(lang);
            let prompt = Line::from(Span::styled(format!(" {question}"), theme.title()));
            let keys: Vec<String> = self.hints.iter().map(|(k, l)| format!("{k} {l}")).collect();
            let keys = Line::from(Span::styled(
                format!(" {}", keys.join("  ")),
                theme.current(),
            ));
            return Some([prompt, keys]);
        }
        None
    }

    /// The keys of what is on screen (the lesson, a question, an overlay,
    /// the picker, two runs), in that mode's order, as many as fit `room`;
    /// the last two are always kept.
    fn key_line(&self, room: usize) -> Line<'static> {
        let theme = self.theme;
        let pieces: Vec<String> = self.hints.iter().map(|(k, l)| format!("{k} {l}")).collect();
        let (must, optional): (Vec<_>, Vec<_>) = pieces
            .iter()
            .enumerate()
            .partition(|(i, _)| *i + 2 >= pieces.len());
        let reserved: usize = must.iter().map(|(_, p)| width(p) + 2).sum::<usize>() + 1;
        let mut keys = vec![Span::raw(" ")];
        let mut used = reserved;
        for (_, p) in optional {
            if used + width(p) + 2 > room {
                break;
            }
            used += width(p) + 2;
            keys.push(Span::styled(p.clone(), theme.muted()));
            keys.push(Span::raw("  "));
        }
        for (_, p) in must {
            keys.push(Span::styled(p.clone(), theme.muted()));
            keys.push(Span::raw("  "));
        }
        Line::from(keys)
    }

    /// The status line: the state, a bar of the progress, the counter.
    fn status_line(&self, room: usize) -> Line<'static> {
        let theme = self.theme;
        let steps = self.steps;
        let counter = format!(" {}/{} ", self.step + 1, steps);
        let left = self.state_text(room, &counter);
        let bar_room = room.saturating_sub(width(&left) + width(&counter) + 1);
        let filled = if steps <= 1 {
            bar_room
        } else {
            bar_room * self.step / (steps - 1)
        };
        Line::from(vec![
            Span::styled(
                left,
                if self.playing {
                    theme.current_marker()
                } else {
                    theme.current()
                },
            ),
            Span::styled("━".repeat(filled), theme.current()),
            Span::styled("─".repeat(bar_room - filled), theme.muted()),
            Span::styled(counter, theme.current()),
        ])
    }

    /// What the status line says before its bar: playing or paused, the
    /// dwell, the focus, a quiz's score, a live view's status, or the
    /// next lesson; as fits `room` beside `counter`.
    fn state_text(&self, room: usize, counter: &str) -> String {
        let lang = self.lang;
        let state = if self.playing {
            i18n::PLAYING
        } else {
            i18n::PAUSED
        };
        let mut left = format!(
            " {} · {} {:.1}s · {}{} ",
            state.get(lang),
            i18n::DWELL.get(lang),
            f64::from(self.dwell_ms) / 1000.0,
            i18n::lead(i18n::FOCUS, lang),
            self.focus,
        );
        if let Some((right, asked)) = self.score {
            let score = i18n::QUIZ_SCORE.fill(lang, &[("k", &right), ("n", &asked)]);
            left.push_str(&format!("· {score} "));
            // The score stays; on a narrow screen the focus goes first (the
            // focused panel also says so with ▶ and its heavier border).
            if width(&left) + width(counter) + 1 > room {
                left = format!(
                    " {} · {} {:.1}s · {score} ",
                    state.get(lang),
                    i18n::DWELL.get(lang),
                    f64::from(self.dwell_ms) / 1000.0,
                );
            }
        }
        if let Some(live) = self.live {
            // Only the live view (and a recording of several conversations)
            // says this: a lesson's footer is as it was. Narrower, the dwell
            // and focus go first, then the keys named in it, then the state.
            let (status, short) = (
                live_status(live, lang, false),
                live_status(live, lang, true),
            );
            if !status.is_empty() {
                let fits = |text: &str| width(text) + width(counter) < room;
                let tries = [
                    format!("{left}· {status} "),
                    format!(" {} · {status} ", state.get(lang)),
                    format!(" {} · {short} ", state.get(lang)),
                ];
                left = tries
                    .into_iter()
                    .find(|t| fits(t))
                    .unwrap_or_else(|| format!(" {short} "));
            }
        }
        if let Some(next) = &self.next {
            // The next lesson in the place of the state, cut as room asks.
            left = format!(
                " {} ",
                truncate(next, room.saturating_sub(width(counter) + 3))
            );
        }
        if !self.program_state {
            // A figure: where the step stands, and a recording's own status.
            left = match self.live.map(|live| live_status(live, lang, false)) {
                Some(status) if width(&status) + width(counter) + 3 < room => format!(" {status} "),
                _ => " ".to_string(),
            };
        }
        left
    }
}

/// A panel's name, as its title and the footer say it.
pub(super) fn panel_title(panel: Panel) -> i18n::Label {
    match panel {
        Panel::Lanes => i18n::LANES,
        Panel::Context => i18n::CONTEXT,
        Panel::Pairing => i18n::PAIRING,
        Panel::Explain => i18n::EXPLAIN,
    }
}
