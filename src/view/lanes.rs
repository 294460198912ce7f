//! The swimlanes as a sequence diagram: a lifeline per lane, one row per
//! step up to the current one, an arrow from sender to receiver. Earlier
//! rows are dimmed; the current row is bold and marked `▶` in the gutter.
//! Only the rows that fit are built, so long traces cost the same to draw.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;

use super::text::{Row, truncate, width};
use crate::app::App;
use crate::i18n::{self, lane_name};
use crate::trace::{CallStatus, FileChange, Lane, Step, ToolCall, Trace};

pub fn render(app: &App, area: Rect, scroll: u16, buf: &mut Buffer) {
    let trace = app.trace();
    let w = area.width as usize;
    let h = area.height as usize;
    let geometry = Geometry::new(w, trace.len());
    let env = environment(app, w, h);
    let rows_room = h.saturating_sub(1 + env.len());
    // With room for the whole scenario, each step gets a label row above its
    // arrow, as in a drawn sequence diagram; otherwise one row per step.
    // Decided from the trace alone (one environment row reserved), so the
    // diagram keeps its look from the first step to the last.
    let spaced = trace.len() * 2 + 2 <= h;
    let per_step = if spaced { 2 } else { 1 };

    // The window of rows ends at the current step, moved up by scrolling.
    let end = app.step.saturating_sub(scroll as usize);
    let start = (end + 1).saturating_sub(rows_room / per_step);

    let mut rows = vec![header(app, &geometry)];
    for index in start..=end {
        if rows.len() + per_step > rows_room + 1 {
            break;
        }
        rows.extend(step_rows(app, trace, index, &geometry, spaced));
    }
    // Rows are drawn cell by cell: at every step of a long trace the panel
    // is full of them, and a Paragraph would split each into graphemes.
    for (y, row) in (area.top()..area.bottom()).zip(&rows) {
        row.render(area.x, y, buf);
    }
    // The environment sits at the bottom of the panel.
    let env_top = rows.len().max(h.saturating_sub(env.len())) as u16;
    let env_area = Rect {
        y: area.y + env_top.min(area.height),
        height: area.height.saturating_sub(env_top),
        ..area
    };
    super::draw_lines(&env, env_area, buf);
}

/// Where each lane's lifeline stands.
struct Geometry {
    width: usize,
    gutter: usize,
    centers: [usize; 3],
}

impl Geometry {
    fn new(width: usize, steps: usize) -> Self {
        let gutter = steps.to_string().len() + 3;
        let lane = width.saturating_sub(gutter) / 3;
        let centers = [0, 1, 2].map(|i| gutter + lane * i + lane / 2);
        Geometry {
            width,
            gutter,
            centers,
        }
    }

    fn center(&self, lane: Lane) -> usize {
        self.centers[lane.index()]
    }
}

fn header(app: &App, g: &Geometry) -> Row {
    let theme = app.theme;
    let step = &app.trace().steps[app.step];
    let mut row = Row::new(g.width, Style::new());
    for lane in Lane::ALL {
        let acting = step.actor() == lane && step.from.is_some();
        let name = lane_name(lane, app.lang);
        // The acting lane is named in brackets, not only coloured.
        let label = if acting {
            format!("[{name}]")
        } else {
            name.to_string()
        };
        let x = g.center(lane).saturating_sub(width(&label) / 2);
        let style = theme.lane_style(lane).add_modifier(Modifier::BOLD);
        let style = if acting {
            style.add_modifier(Modifier::REVERSED)
        } else {
            style
        };
        row.put(x, &label, style);
    }
    row
}

fn step_rows(app: &App, trace: &Trace, index: usize, g: &Geometry, spaced: bool) -> Vec<Row> {
    let theme = app.theme;
    let step = &trace.steps[index];
    let current = index == app.step;
    let past = theme.history();
    let lifelines = |row: &mut Row| {
        for lane in Lane::ALL {
            let style = if current {
                theme.lane_style(lane)
            } else {
                past
            };
            row.put(g.center(lane), "│", style);
        }
    };
    let mut row = Row::new(g.width, Style::new());
    lifelines(&mut row);
    let number = format!("{:>width$}", index + 1, width = g.gutter - 3);
    if current {
        row.put(0, &format!("▶ {number}"), theme.current_marker());
    } else {
        row.put(2, &number, past);
    }
    let label = i18n::arrow_label(trace, step);
    let style = arrow_style(app, step, current);
    let is_message = step.from != Some(step.to);
    if spaced && is_message {
        // The label on its own row above the arrow, centred on it.
        let mut label_row = Row::new(g.width, Style::new());
        lifelines(&mut label_row);
        let (a, b) = span(g, step);
        let text = truncate(&format!(" {label} "), g.width - g.gutter);
        let x = ((a + b) / 2)
            .saturating_sub(width(&text) / 2)
            .max(g.gutter)
            .min(g.width - width(&text));
        label_row.put(x, &text, style);
        draw_arrow(&mut row, g, step, "", style);
        return vec![label_row, row];
    }
    let mut rows = Vec::new();
    if spaced {
        let mut blank = Row::new(g.width, Style::new());
        lifelines(&mut blank);
        rows.push(blank);
    }
    draw_arrow(&mut row, g, step, &label, style);
    rows.push(row);
    rows
}

/// The columns an arrow runs between.
fn span(g: &Geometry, step: &Step) -> (usize, usize) {
    let to = g.center(step.to);
    let from = match step.from {
        Some(lane) => g.center(lane),
        None => g.center(Lane::Model) + 1,
    };
    (from.min(to), from.max(to))
}

fn arrow_style(app: &App, step: &Step, current: bool) -> Style {
    if !current {
        return app.theme.history();
    }
    let colour = match step.from {
        None => app.theme.user(),
        Some(lane) => app.theme.lane_style(lane),
    };
    colour.add_modifier(Modifier::BOLD)
}

fn draw_arrow(row: &mut Row, g: &Geometry, step: &Step, label: &str, style: Style) {
    let to = g.center(step.to);
    match step.from {
        Some(from) if from == step.to => {
            // A host action with no message: a mark on the lifeline.
            row.put(to, "◆", style);
            let room = g.width.saturating_sub(to + 2);
            row.put(to + 2, &truncate(label, room), style);
        }
        from => {
            // From the user (outside the lanes) the arrow starts left of Host.
            let (x0, source) = match from {
                Some(lane) => (g.center(lane), "●"),
                None => (g.center(Lane::Model) + 1, "─"),
            };
            let (left, right) = span(g, step);
            for x in left + 1..right {
                row.put(x, "─", style);
            }
            row.put(x0, source, style);
            row.put(to, if to > x0 { "▶" } else { "◀" }, style);
            let inside = right.saturating_sub(left + 3);
            let text = format!(" {label} ");
            if label.is_empty() {
                return;
            }
            if width(&text) <= inside {
                let x = left + 1 + (right - left - 1 - width(&text)) / 2;
                row.put(x, &text, style);
                return;
            }
            // Too long for the arrow: beside it, on the side with room.
            let after = g.width.saturating_sub(right + 2);
            let before = left.saturating_sub(g.gutter + 1);
            if width(label) <= after || after >= before {
                row.put(right + 2, &truncate(label, after), style);
            } else {
                let text = truncate(label, before);
                row.put(left - 1 - width(&text), &text, style);
            }
        }
    }
}

/// The Tool lane's environment: each file and what has been done to it.
fn environment(app: &App, w: usize, h: usize) -> Vec<Line<'static>> {
    let trace = app.trace();
    let lang = app.lang;
    let theme = app.theme;
    // A call that is running now has not finished with its file yet: say
    // so, rather than "not read" while the Tool lane is reading it.
    let running: Vec<&ToolCall> = trace
        .calls_at(app.step)
        .iter()
        .filter(|c| c.status_at(app.step) == Some(CallStatus::Running))
        .collect();
    let mut parts = Vec::new();
    for path in trace
        .files
        .iter()
        .filter(|p| trace.file_exists_at(p, app.step))
    {
        let user = running
            .iter()
            .find(|c| c.args.iter().any(|(k, v)| k == "path" && v == path));
        let state = match (user, trace.file_state_at(path, app.step)) {
            (Some(call), Some(FileChange::Written { version })) => format!(
                "{} v{version}, {}",
                i18n::WRITTEN.get(lang),
                i18n::in_use_by(&call.id, lang)
            ),
            (Some(call), _) => i18n::in_use_by(&call.id, lang),
            (None, None) => i18n::NOT_READ.get(lang).to_string(),
            (None, Some(FileChange::Read)) => i18n::READ.get(lang).to_string(),
            (None, Some(FileChange::Written { version })) => {
                format!("{} v{version}", i18n::WRITTEN.get(lang))
            }
        };
        parts.push(format!("{path}: {state}"));
    }
    let label = format!(
        "{} ({}): ",
        i18n::ENVIRONMENT.get(lang),
        lane_name(Lane::Tool, lang)
    );
    let text = format!("{label}{}", parts.join(" · "));
    let style = theme.lane_style(Lane::Tool).add_modifier(Modifier::BOLD);
    // Two or three rows at most, so the diagram keeps its room; a cut is
    // marked, never silent.
    let max = if h >= 20 { 3 } else { 2 };
    let mut rows = super::text::wrap(&text, w);
    if rows.len() > max {
        rows.truncate(max);
        if let Some(last) = rows.last_mut() {
            *last = format!("{} …", truncate(last, w.saturating_sub(2)));
        }
    }
    rows.into_iter().map(|l| Line::styled(l, style)).collect()
}
