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
use crate::i18n::{self, first_line, status_name};
use crate::trace::{CallStatus, Lane, ToolCall};

pub fn render(app: &App, area: Rect, scroll: u16, buf: &mut Buffer) {
    let trace = app.trace();
    let lang = app.lang;
    let theme = app.theme;
    let w = area.width as usize;
    let h = area.height as usize;
    let calls: Vec<&ToolCall> = trace.calls_at(app.step).collect();
    if calls.is_empty() {
        Paragraph::new(Line::styled(
            truncate(i18n::NO_CALLS.get(lang), w),
            theme.muted(),
        ))
        .render(area, buf);
        return;
    }

    let rows_room = h.saturating_sub(1).max(1);
    let end = calls
        .len()
        .saturating_sub(scroll as usize)
        .max(rows_room.min(calls.len()));
    let start = end.saturating_sub(rows_room);
    let shown = &calls[start..end];

    let id_w = shown
        .iter()
        .map(|c| width(&c.id.0))
        .max()
        .unwrap_or(6)
        .max(7)
        + 1;
    let tool_w = shown
        .iter()
        .map(|c| width(&c.tool))
        .max()
        .unwrap_or(4)
        .max(5)
        + 1;
    let status_w = [
        CallStatus::Proposed,
        CallStatus::Approved,
        CallStatus::Running,
        CallStatus::Done,
        CallStatus::Error,
        CallStatus::Refused,
    ]
    .iter()
    .map(|s| width(status_name(*s, lang)))
    .max()
    .unwrap_or(8)
        + 1;
    let rest = w.saturating_sub(id_w + tool_w + status_w);
    let args_max = shown
        .iter()
        .map(|c| width(&c.args_text()))
        .max()
        .unwrap_or(2)
        + 1;
    // Arguments get their full width when the result keeps a dozen columns.
    let args_w = args_max.min(rest.saturating_sub(14)).max(rest / 3);
    let columns = [
        0,
        id_w,
        id_w + tool_w,
        id_w + tool_w + args_w,
        id_w + tool_w + args_w + status_w,
    ];

    let mut lines = Vec::new();
    let mut head = Row::new(w, theme.muted().add_modifier(Modifier::UNDERLINED));
    for (x, label) in columns.iter().zip([
        i18n::COL_ID,
        i18n::COL_TOOL,
        i18n::COL_ARGS,
        i18n::COL_STATUS,
        i18n::COL_RESULT,
    ]) {
        head.put(
            *x,
            label.get(lang),
            theme.muted().add_modifier(Modifier::UNDERLINED),
        );
    }
    lines.push(head.into_line());

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
        row.put(
            columns[0],
            &truncate(&call.id.0, id_w - 1),
            theme.call_id(&call.id.0),
        );
        row.put(columns[1], &truncate(&call.tool, tool_w - 1), Style::new());
        row.put(
            columns[2],
            &truncate(&call.args_text(), args_w.saturating_sub(1)),
            theme.muted(),
        );
        row.put(
            columns[3],
            &truncate(status_name(status, lang), status_w - 1),
            status_style(app, status),
        );
        let result = result_text(app, call, status);
        row.put(
            columns[4],
            &truncate(&result, w.saturating_sub(columns[4])),
            result_style(app, call, status),
        );
        if changed_now {
            // What changed at this step stands out, and says so with a mark.
            row.style(0, w, Style::new().add_modifier(Modifier::BOLD));
            row.put(w.saturating_sub(1), "◀", theme.current());
        }
        lines.push(row.into_line());
    }
    Paragraph::new(lines).render(area, buf);
    if start > 0 {
        super::more_marker(app, area, true, buf);
    }
    if end < calls.len() {
        super::more_marker(app, area, false, buf);
    }
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

fn result_text(app: &App, call: &ToolCall, status: CallStatus) -> String {
    let lang = app.lang;
    let Some(result) = call.result.as_ref().filter(|_| {
        matches!(
            status,
            CallStatus::Done | CallStatus::Error | CallStatus::Refused
        )
    }) else {
        return "—".to_string();
    };
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
    text.push_str(&first_line(&result.text));
    text
}
