//! Two runs side by side: each side its title, its step `k/N`, who acts,
//! its lanes (drawn by `lanes.rs`, as on the single-run screen), a line
//! of counters and one of call_id pairing, and at its end how the loop
//! ended and the task's state. The first step where the runs differ is
//! marked `≠` on both sides and named in the header. Lanes stand beside
//! lanes when both keep their words whole, else one run above the other.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Widget};

use super::context::Context;
use super::explain::Explain;
use super::lanes::Lanes;
use super::scene::Scene;
use super::text::{truncate, width, wrap};
use crate::app::App;
use crate::compare::{Comparison, Side, differing_messages, side_step};
use crate::i18n;
use crate::trace::Timeline;

/// Below this many columns for the words beside the arrows, the two runs
/// are stacked: a narrower words column would cut most step labels.
pub const MIN_WORDS_ROOM: usize = 24;

/// One side as its panels see it: that side's run, at its own step (its
/// last, once it has ended), in the app's language and theme, with the
/// messages it holds that the other run does not hold at the same place.
fn side_scene<'a>(app: &'a App, c: &'a Comparison, side: Side) -> Scene<'a> {
    let scene = |side: Side| {
        let mut scene = Scene::of(app);
        if side == Side::Other {
            let trace = c.other.trace(app.lang);
            scene.trace = trace;
            scene.counts = &c.other.counts;
            scene.timeline = match c.other_timelines.of_run(&c.other, app.lang) {
                Some(timeline) => Cow::Borrowed(timeline),
                None => Cow::Owned(Timeline::of(trace)),
            };
        }
        scene.step = side_step(scene.trace, app.step);
        scene
    };
    let (mut one, other) = (scene(side), scene(side.flip()));
    one.differs = differing_messages(one.trace, one.step, other.trace, other.step);
    one
}

/// The side's short name: "main run" or "other run".
fn side_label(app: &App, side: Side) -> String {
    side.label().get(app.lang).to_string()
}

/// What stands in a side's place under its lines.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pane {
    /// The lanes alone.
    Lanes,
    /// The lanes, and under them the context it sent.
    LanesAndContext,
    /// The context it sent, in place of the lanes (`z`).
    Context,
}

/// Draw the comparison on `area` (at least the minimum size); returns how
/// far each side's lanes (or context, with `z`) can scroll.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) -> [u16; 2] {
    let Some(c) = app.comparing() else {
        return [0; 2];
    };
    let [header_area, body, footer] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Min(0),
        Constraint::Length(2),
    ])
    .areas(area);
    header(app, c, header_area, buf);
    super::frame::Footer::of(app).render(footer, buf);

    let sides = [
        side_scene(app, c, Side::Main),
        side_scene(app, c, Side::Other),
    ];
    let half = body.width / 2;
    let wide = sides.iter().all(|s| {
        Lanes {
            scene: s,
            mark: &[],
        }
        .words_room(half.saturating_sub(2) as usize)
            >= MIN_WORDS_ROOM
    });
    // Each side's context under its lanes where both keep room enough;
    // else `z` shows it in place of the lanes.
    let pane = match (c.contexts, wide && body.height >= 30) {
        (true, _) => Pane::Context,
        (false, true) => Pane::LanesAndContext,
        (false, false) => Pane::Lanes,
    };
    // The focused side's explanation, on a screen tall enough for it too.
    let explain_height = if wide && body.height >= 44 {
        (body.height / 5).clamp(5, 8)
    } else {
        0
    };
    let [runs, explain] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(explain_height)]).areas(body);
    let rects: [Rect; 2] = if wide {
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(runs)
    } else {
        Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(runs)
    };
    let mut limits = [0; 2];
    for side in Side::BOTH {
        let i = side.index();
        let mut rect = rects[i];
        if pane == Pane::LanesAndContext {
            let context_height = (runs.height * 2 / 5).max(8);
            let [lanes, context] =
                Layout::vertical([Constraint::Min(0), Constraint::Length(context_height)])
                    .areas(rect);
            rect = lanes;
            draw_context_box(app, c, side, &sides[i], context, buf);
        }
        limits[i] = draw_side(app, c, side, &sides[i], (rect, pane), wide, buf);
    }
    if explain_height > 0 {
        draw_explanation(app, &sides[c.focus.index()], c.focus, explain, buf);
    }
    limits
}

/// The steps marked `≠` in the lanes: where the runs first differ, and
/// where this side sends the first context that differs.
fn marks(app: &App, c: &Comparison, side: Side) -> Vec<usize> {
    let mut marks: Vec<usize> = c.first_difference(app.lang).into_iter().collect();
    if let Some(d) = c.context_difference(app.lang)
        && let Some(step) = d.steps[side.index()]
        && !marks.contains(&step)
    {
        marks.push(step);
    }
    marks
}

/// A side's context, boxed and titled with the side's name, under its
/// lanes.
fn draw_context_box(
    app: &App,
    c: &Comparison,
    side: Side,
    one: &Scene<'_>,
    area: Rect,
    buf: &mut Buffer,
) {
    let focused = c.focus == side && app.key_hints;
    let title = format!(
        " {} · {} ",
        i18n::CONTEXT.get(app.lang),
        side_label(app, side)
    );
    let block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(app.theme.border(focused))
        .title(Line::styled(
            truncate(&title, area.width.saturating_sub(2) as usize),
            app.theme.title(),
        ));
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.width > 0 && inner.height > 0 {
        Context { scene: one }.render(inner, 0, buf);
    }
}

/// Where we are, where the runs first differ, and the keys of this mode.
fn header(app: &App, c: &Comparison, area: Rect, buf: &mut Buffer) {
    let lang = app.lang;
    let theme = app.theme;
    let room = area.width as usize;
    let indicator = format!(
        " {} {}/{} ",
        i18n::STEP.get(lang),
        app.step + 1,
        app.steps()
    );
    let heading = i18n::COMPARE_HEADING.get(lang);
    let first = Line::from(vec![
        Span::styled(indicator.clone(), theme.current_marker()),
        Span::styled(
            format!(
                " {}",
                truncate(heading, room.saturating_sub(width(&indicator) + 1))
            ),
            theme.title(),
        ),
    ]);
    // The first difference, and a shorter form to make room for the
    // contexts' (the lanes mark it ≠ anyway).
    let (text, short, style) = match c.first_difference(lang) {
        Some(i) => {
            let n = i + 1;
            let (label, short) = if i == app.step {
                (i18n::COMPARE_FIRST_DIFF_HERE, i18n::COMPARE_FIRST_DIFF_HERE)
            } else {
                (i18n::COMPARE_FIRST_DIFF, i18n::COMPARE_FIRST_DIFF_SHORT)
            };
            (
                label.fill(lang, &[("n", &n)]),
                short.fill(lang, &[("n", &n)]),
                theme.error().add_modifier(Modifier::BOLD),
            )
        }
        None => {
            let same = i18n::COMPARE_NO_DIFF.get(lang).to_string();
            (same.clone(), same, theme.ok())
        }
    };
    // Where the contexts sent first differ, as long as it fits.
    let context = c.context_difference(lang).map(|d| {
        let call = d.call + 1;
        let n = d.step() + 1;
        [
            i18n::COMPARE_CONTEXT_DIFF.fill(lang, &[("call", &call), ("n", &n)]),
            i18n::COMPARE_CONTEXT_DIFF_SHORT.fill(lang, &[("call", &call)]),
        ]
    });
    let text = context
        .into_iter()
        .flat_map(|[long, brief]| {
            [
                format!("{text}{long}"),
                format!("{text}{brief}"),
                format!("{short}{brief}"),
            ]
        })
        .find(|t| width(t) < room)
        .unwrap_or(text);
    let second = Line::styled(
        format!(" {}", truncate(&text, room.saturating_sub(1))),
        style,
    );
    // What each run does at that step, in the words of its lanes: the
    // marked rows may have scrolled out of view.
    let third = match c.first_difference(lang) {
        Some(i) => {
            // With the runs named, or in their on-screen order when that
            // does not fit.
            let text = |named: bool| {
                let mut text = format!("≠ {}", i + 1);
                for side in Side::BOTH {
                    let trace = match side {
                        Side::Main => app.trace(),
                        Side::Other => c.other.trace(lang),
                    };
                    let what = match trace.steps.get(i) {
                        Some(_) => i18n::one_line(&i18n::arrow_label(trace, i)),
                        None => i18n::COMPARE_ENDED_SHORT.get(lang).to_string(),
                    };
                    text.push_str(if side == Side::Main { " · " } else { " │ " });
                    if named {
                        text.push_str(&side_label(app, side));
                        text.push_str(i18n::colon(lang));
                    }
                    text.push_str(&what);
                }
                text
            };
            let room = room.saturating_sub(1);
            let text = [text(true), text(false)]
                .into_iter()
                .find(|t| width(t) <= room)
                .unwrap_or_else(|| truncate(&text(false), room));
            Line::styled(format!(" {text}"), theme.muted())
        }
        None => Line::default(),
    };
    super::window::draw_lines(&[first, second, third], area, buf);
}

/// One run: its box, its lines, its lanes. Returns how far its lanes scroll.
fn draw_side(
    app: &App,
    c: &Comparison,
    side: Side,
    one: &Scene<'_>,
    (area, pane): (Rect, Pane),
    wide: bool,
    buf: &mut Buffer,
) -> u16 {
    let theme = app.theme;
    // A figure (no keys) marks neither run: the focus is the terminal's.
    let focused = c.focus == side && app.key_hints;
    let marker = if focused { "▶ " } else { "" };
    let title = format!(" {marker}{} · {} ", side_label(app, side), one.trace.title);
    let block = Block::new()
        // Stacked runs share the width: a top rule is border enough.
        .borders(if wide { Borders::ALL } else { Borders::TOP })
        .border_type(if focused {
            BorderType::Thick
        } else {
            BorderType::Rounded
        })
        .border_style(theme.border(focused))
        .title(Line::styled(
            truncate(&title, area.width.saturating_sub(2) as usize),
            theme.title(),
        ));
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.width == 0 || inner.height == 0 {
        return 0;
    }
    let w = inner.width as usize;
    let mut lines = if wide {
        wide_lines(app, one, w)
    } else {
        vec![stacked_line(app, one, w)]
    };
    // The run's final answer, once it has one: both answers stand on
    // screen together, whatever the panes below show.
    lines.extend(answer_line(app, one, w));
    // The lanes keep at least a few rows; the lines above give way first.
    let shown = lines.len().min((inner.height as usize).saturating_sub(4));
    let [top, lanes] =
        Layout::vertical([Constraint::Length(shown as u16), Constraint::Min(0)]).areas(inner);
    super::window::draw_lines(&lines[..shown], top, buf);
    let scroll = c.scroll[side.index()];
    if pane == Pane::Context {
        return Context { scene: one }.render(lanes, scroll, buf);
    }
    let mark = marks(app, c, side);
    Lanes {
        scene: one,
        mark: &mark,
    }
    .render(lanes, scroll, buf)
}

/// `answer: …`, the final answer of a run whose loop has ended with one,
/// in one line.
fn answer_line(app: &App, one: &Scene<'_>, w: usize) -> Option<Line<'static>> {
    let trace = one.trace;
    trace.steps[one.step].end?;
    let held = trace.messages.partition_point(|m| m.step <= one.step);
    let answer = trace
        .messages
        .slice(..held)
        .iter()
        .rev()
        .find(|m| m.role == crate::trace::Role::Assistant)
        .filter(|m| m.calls.is_empty())?;
    let lead = i18n::lead(i18n::ANSWER, app.lang);
    let room = w.saturating_sub(1 + width(&lead));
    Some(Line::from(vec![
        Span::raw(" "),
        Span::styled(lead, app.theme.muted()),
        Span::styled(
            truncate(&i18n::one_line(&answer.text), room),
            app.theme.current(),
        ),
    ]))
}

/// The step indicator of a side: `step k/N`, and once this run has ended
/// while the other goes on, that it stays on its last step.
fn step_spans(app: &App, one: &Scene<'_>, short: bool) -> Vec<Span<'static>> {
    let lang = app.lang;
    let trace = one.trace;
    let mut spans = vec![Span::styled(
        format!(
            " {} {}/{} ",
            i18n::STEP.get(lang),
            one.step + 1,
            trace.len()
        ),
        app.theme.current_marker(),
    )];
    if app.step > one.step {
        let ended = if short {
            i18n::COMPARE_ENDED_SHORT
        } else {
            i18n::COMPARE_ENDED
        };
        spans.push(Span::styled(
            format!(" {} ·", ended.get(lang)),
            app.theme.muted(),
        ));
    }
    spans
}

fn acting_spans(app: &App, one: &Scene<'_>, short: bool) -> Vec<Span<'static>> {
    let lang = app.lang;
    let who = if short {
        i18n::who_acts_short(one.trace, one.step)
    } else {
        i18n::who_acts(one.trace, one.step)
    };
    let mut spans = vec![Span::raw(" ")];
    if !short {
        spans.push(Span::styled(
            i18n::lead(i18n::ACTING, lang),
            app.theme.muted(),
        ));
    }
    spans.push(Span::styled(who, app.theme.current()));
    spans
}

/// The calls so far and their status, in one line: the pairing table in
/// brief.
fn pairing_line(app: &App, one: &Scene<'_>) -> String {
    let lang = app.lang;
    let trace = one.trace;
    let calls = trace.calls_at(one.step);
    if calls.is_empty() {
        return i18n::NO_CALLS.get(lang).to_string();
    }
    let parts: Vec<String> = calls
        .iter()
        .filter_map(|call| {
            let status = call.status_at(one.step)?;
            Some(format!(
                "{}{}{}",
                call.id,
                i18n::colon(lang),
                i18n::status_name(status, lang)
            ))
        })
        .collect();
    format!("{}{}", i18n::lead(i18n::PAIRING, lang), parts.join(" · "))
}

/// Lines above a side's lanes when the runs stand side by side.
fn wide_lines(app: &App, one: &Scene<'_>, w: usize) -> Vec<Line<'static>> {
    let lang = app.lang;
    let theme = app.theme;
    let (trace, counts) = (one.trace, one.counts);
    let mut out = Vec::new();
    let first = [(false, false), (true, false), (true, true)]
        .map(|(short_step, short_acting)| {
            let mut spans = step_spans(app, one, short_step);
            spans.extend(acting_spans(app, one, short_acting));
            Line::from(spans)
        })
        .into_iter()
        .find(|l| l.width() <= w)
        .unwrap_or_else(|| Line::from(step_spans(app, one, true)));
    out.push(first);
    // The step's own title, on two lines at most.
    let title = i18n::step_title(trace, one.step);
    let mut rows = wrap(&title, w.saturating_sub(1));
    if rows.len() > 2 {
        let rest = rows[1..].join(" ");
        rows.truncate(1);
        rows.push(truncate(&rest, w.saturating_sub(1)));
    }
    rows.resize(2, String::new());
    out.extend(
        rows.into_iter()
            .map(|r| Line::styled(format!(" {r}"), theme.current())),
    );
    let step = &trace.steps[one.step];
    // The counters on two lines at most, broken between words.
    let counters = (0..=2)
        .map(|detail| wrap(&i18n::counters_at(trace, counts, step, detail, lang), w - 1))
        .find(|rows| rows.len() <= 2)
        .unwrap_or_else(|| {
            vec![truncate(
                &i18n::counters_at(trace, counts, step, 2, lang),
                w - 1,
            )]
        });
    for row in counters {
        out.push(Line::styled(format!(" {row}"), theme.muted()));
    }
    out.push(Line::raw(format!(
        " {}",
        truncate(&pairing_line(app, one), w.saturating_sub(1))
    )));
    let outcome = [true, false]
        .map(|long| {
            Line::from(super::frame::loop_state(
                app.lang, app.theme, one.trace, one.step, long,
            ))
        })
        .into_iter()
        .find(|l| l.width() <= w)
        .unwrap_or_else(|| {
            Line::from(super::frame::loop_state(
                app.lang, app.theme, one.trace, one.step, false,
            ))
        });
    out.push(outcome);
    out
}

/// The one line above a side's lanes when the runs are stacked: the step,
/// who acts, and once the run has ended, how (all shorter as room asks).
fn stacked_line(app: &App, one: &Scene<'_>, w: usize) -> Line<'static> {
    let ended = one.trace.steps[one.step].end.is_some();
    // (short words, long task state, who acts shown), longest first.
    let candidates = [
        (false, true, true),
        (true, true, true),
        (true, false, true),
        (true, false, false),
    ];
    let build = |(short, long, acting): (bool, bool, bool)| {
        let mut spans = step_spans(app, one, short);
        if acting {
            spans.extend(acting_spans(app, one, short));
        }
        if ended {
            if acting {
                spans.push(Span::styled(" ·", app.theme.muted()));
            }
            spans.extend(super::frame::loop_state(
                app.lang, app.theme, one.trace, one.step, long,
            ));
        }
        Line::from(spans)
    };
    candidates
        .into_iter()
        .map(build)
        .find(|l| l.width() <= w)
        .unwrap_or_else(|| build((true, false, false)))
}

/// The focused side's step explained, under both runs.
fn draw_explanation(app: &App, one: &Scene<'_>, side: Side, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let title = format!(
        " {} · {} ",
        i18n::EXPLAIN.get(app.lang),
        side_label(app, side)
    );
    let block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(theme.border(false))
        .title(Line::styled(title, theme.title()));
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.width == 0 || inner.height == 0 {
        return;
    }
    let lines = Explain { scene: one }.lines(inner.width as usize);
    super::window::scrolled(app.lang, app.theme, lines, inner, 0, buf);
}
