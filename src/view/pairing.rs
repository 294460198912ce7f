//! The call_id pairing panel: a table of each call with its tool, arguments,
//! status at this step, and the result attached to it. The newest calls are
//! shown; older ones scroll up.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use super::text::{Row, truncate, width};
use crate::app::App;
use crate::i18n::{self, one_line, status_name};
use crate::trace::{CallStatus, Lane, ToolCall};

pub fn render(app: &App, area: Rect, scroll: u16, buf: &mut Buffer) {
    let trace = app.trace();
    let lang = app.lang;
    let theme = app.theme;
    let w = area.width as usize;
    let h = area.height as usize;
    let calls = trace.calls_at(app.step);
    if calls.is_empty() {
        Paragraph::new(Line::styled(
            truncate(i18n::NO_CALLS.get(lang), w),
            theme.muted(),
        ))
        .render(area, buf);
        return;
    }

    // Scrolling moves the window up by whole calls from the newest.
    let end = calls.len().saturating_sub(scroll as usize).max(1);
    let start = first_shown(app, &calls[..end], h);
    let shown = &calls[start..end];

    let id_w = shown
        .iter()
        .map(|c| width(&c.id.0))
        .max()
        .unwrap_or(6)
        .max(7)
        + 1;
    let status_w = ALL_STATUSES
        .iter()
        .map(|s| width(status_name(*s, lang)))
        .max()
        .unwrap_or(8)
        + 1;
    let columns = [0, id_w, id_w + status_w];

    let header_style = theme.muted().add_modifier(Modifier::UNDERLINED);
    let mut head = Row::new(w, header_style);
    let call_label = format!(
        "{} {} → {}",
        i18n::COL_TOOL.get(lang),
        i18n::COL_ARGS.get(lang),
        i18n::COL_RESULT.get(lang)
    );
    for (x, label) in columns.iter().zip([
        i18n::COL_ID.get(lang),
        i18n::COL_STATUS.get(lang),
        call_label.as_str(),
    ]) {
        head.put(*x, label, header_style);
    }
    let mut rows = vec![head];

    for call in shown {
        let Some(status) = call.status_at(app.step) else {
            continue;
        };
        let changed_now = [
            Some(call.proposed),
            call.verdict.as_ref().map(|(s, _)| *s),
            call.started,
            call.finished,
        ]
        .contains(&Some(app.step));
        let mut row = Row::new(w, Style::new());
        row.put(columns[0], &call.id.0, theme.call_id(&call.id.0));
        row.put(
            columns[1],
            status_name(status, lang),
            status_style(app, status),
        );
        let end = row.put(columns[2], &call.tool, Style::new());
        let room = w.saturating_sub(end + 2);
        row.put(end + 1, &truncate(&call.args_text(), room), theme.muted());
        if changed_now {
            // What changed at this step stands out, and says so with a mark.
            row.style(0, w, Style::new().add_modifier(Modifier::BOLD));
            row.put(w.saturating_sub(1), "◀", theme.current());
        }
        rows.push(row);
        if let Some(result) = result_text(app, call, status) {
            // The result on its own line under the call it is attached to.
            let mut row = Row::new(w, Style::new());
            let text = format!("⇒ {result}");
            let room = w.saturating_sub(columns[1]);
            row.put(
                columns[1],
                &truncate(&text, room),
                result_style(app, call, status),
            );
            rows.push(row);
        }
    }
    // Cell by cell, like the lanes: no need to split rows into graphemes.
    for (y, row) in (area.top()..area.bottom()).zip(&rows) {
        row.render(area.x, y, buf);
    }
    if start > 0 {
        super::more_marker(app, area, true, buf);
    }
    if end < calls.len() {
        super::more_marker(app, area, false, buf);
    }
}

const ALL_STATUSES: [CallStatus; 6] = [
    CallStatus::Proposed,
    CallStatus::Approved,
    CallStatus::Running,
    CallStatus::Done,
    CallStatus::Error,
    CallStatus::Refused,
];

/// Lines a call takes: itself, and its result once there is one.
fn height(app: &App, call: &ToolCall) -> usize {
    match call.status_at(app.step) {
        Some(status) if result_text(app, call, status).is_some() => 2,
        _ => 1,
    }
}

/// The first of `calls` that fits when the last one sits at the bottom of
/// `h` lines (one of them the header).
fn first_shown(app: &App, calls: &[ToolCall], h: usize) -> usize {
    let mut used = 1;
    let mut start = calls.len();
    while start > 0 && used + height(app, &calls[start - 1]) <= h.max(2) {
        used += height(app, &calls[start - 1]);
        start -= 1;
    }
    start.min(calls.len().saturating_sub(1))
}

/// How many calls the table can scroll up in an area of `h` lines.
pub fn max_scroll(app: &App, h: u16) -> u16 {
    let calls = app.trace().calls_at(app.step);
    let visible = calls.len() - first_shown(app, calls, h as usize);
    (calls.len() - visible).min(super::MAX_SCROLL as usize) as u16
}

fn status_style(app: &App, status: CallStatus) -> Style {
    let theme = app.theme;
    match status {
        CallStatus::Proposed => theme.lane_style(Lane::Model),
        CallStatus::Approved => theme.lane_style(Lane::Host),
        CallStatus::Running => theme.lane_style(Lane::Tool),
        CallStatus::Done => theme.ok(),
        CallStatus::Error | CallStatus::Refused => theme.error(),
    }
}

fn result_style(app: &App, call: &ToolCall, status: CallStatus) -> Style {
    let wrong = call.paired_to.as_ref().is_some_and(|p| p != &call.id) || !call.appended;
    match status {
        CallStatus::Error | CallStatus::Refused => app.theme.error(),
        CallStatus::Done if wrong => app.theme.error(),
        _ => Style::new(),
    }
}

/// The result as attached, with what went wrong in the pairing said in
/// words; None while the call has no result yet.
fn result_text(app: &App, call: &ToolCall, status: CallStatus) -> Option<String> {
    let lang = app.lang;
    let result = call.result.as_ref().filter(|_| {
        matches!(
            status,
            CallStatus::Done | CallStatus::Error | CallStatus::Refused
        )
    })?;
    let mut text = String::new();
    if let Some(to) = call.paired_to.as_ref().filter(|to| **to != call.id) {
        text.push_str(&format!(
            "{} {to} ✗ {} · ",
            i18n::ATTACHED_TO.get(lang),
            i18n::WRONG_ID.get(lang)
        ));
    }
    if !call.appended {
        text.push_str(&format!("{} · ", i18n::NOT_APPENDED.get(lang)));
    }
    if result.replayed {
        text.push_str(&format!("↺ {} · ", i18n::REPLAYED.get(lang)));
    }
    if result.is_error {
        text.push_str("✗ ");
    }
    text.push_str(&one_line(&result.text));
    Some(text)
}
