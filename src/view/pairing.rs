//! The call_id pairing panel: a table of each call with its tool, arguments,
//! status at this step, and the result attached to it. The newest calls are
//! shown; older ones scroll up.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::scene::Scene;
use super::text::{Row, middle, truncate, width};
use crate::i18n::{self, one_line, status_name};
use crate::trace::{CallId, CallStatus, Lane, Pairing, ToolCall};

/// The call_id pairing panel of one run at its step.
pub struct PairingTable<'a> {
    pub scene: &'a Scene<'a>,
}

impl PairingTable<'_> {
    /// Draw it on `area`, scrolled `scroll` lines up from its newest;
    /// returns how far it can scroll.
    pub fn render(&self, area: Rect, scroll: u16, buf: &mut Buffer) -> u16 {
        render(self.scene, area, scroll, buf)
    }
}

/// Columns the tool, its arguments and the "now" mark keep beside the id
/// and the status, however long the ids.
const MIN_CALL: usize = 16;

fn render(s: &Scene<'_>, area: Rect, scroll: u16, buf: &mut Buffer) -> u16 {
    let trace = s.trace;
    let lang = s.lang;
    let theme = s.theme;
    let w = area.width as usize;
    let h = area.height as usize;
    let calls = trace.calls_at(s.step);
    if calls.is_empty() {
        Paragraph::new(Line::styled(
            truncate(i18n::NO_CALLS.get(lang), w),
            theme.muted(),
        ))
        .render(area, buf);
        return 0;
    }

    let id_w = calls
        .iter()
        .rev()
        .take(h)
        .map(|c| width(&c.id.0))
        .max()
        .unwrap_or(6)
        .max(7)
        + 1;
    let status_w = CallStatus::ALL
        .iter()
        .map(|s| width(status_name(*s, lang)))
        .max()
        .unwrap_or(8)
        + 1;
    // An id too long to leave the tool and its arguments room (Gemini
    // CLI's `run_shell_command-1765309910095-ad84…`) is cut in its middle,
    // as the context panel cuts it.
    let id_w = id_w.min(w.saturating_sub(status_w + MIN_CALL)).max(8);
    let columns = [0, id_w, id_w + status_w];

    // The header names the columns, in bold, not underlined: an underline falls on the `_` of `call_id`.
    let header_style = theme.muted().add_modifier(Modifier::BOLD);
    let mut head = Row::new(w, Style::new());
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
    head.render(area.x, area.y, buf);
    let room = h.saturating_sub(1);
    let scroll = scroll as usize;

    // Rows from the newest call back, as many as the window needs and a
    // screenful more to know how far it can scroll.
    let wanted = room * 2 + scroll + 1;
    let mut rows: Vec<Line<'static>> = Vec::new();
    // For each line (newest first), the call it belongs to and whether it
    // is that call's first line.
    let mut owner: Vec<(usize, bool)> = Vec::new();
    let mut next = calls.len();
    while next > 0 && rows.len() < wanted {
        next -= 1;
        let block = call_rows(s, &calls[next], &columns, w);
        owner.extend((0..block.len()).rev().map(|k| (next, k == 0)));
        rows.extend(block.into_iter().rev());
    }
    rows.reverse();
    owner.reverse();
    let win = super::window::Window::from_end(rows.len(), next > 0, room, scroll);
    // A call whose first line is scrolled away above: its id is written in
    // the empty id column of its top visible line, so a result or an
    // argument is never shown without the call it belongs to.
    if win.start < win.end
        && let (call, false) = owner[win.start]
    {
        let id = &calls[call].id;
        rows[win.start] = with_id(&rows[win.start], id, id_w, s);
    }
    let list = Rect {
        y: area.y + 1,
        height: room as u16,
        ..area
    };
    super::window::draw_window(s.lang, s.theme, &rows, win, list, buf);
    win.limit.min(super::window::MAX_SCROLL as usize) as u16
}

/// `line`, a continuation line, with `id` in its empty id column (cut to
/// fit); unchanged if that column is not empty.
fn with_id(line: &Line<'static>, id: &CallId, id_w: usize, s: &Scene<'_>) -> Line<'static> {
    let Some(first) = line.spans.first() else {
        return line.clone();
    };
    let blank = first.content.chars().all(|c| c == ' ');
    let indent = width(&first.content);
    if !blank || indent < id_w {
        return line.clone();
    }
    let shown = fit_id(&id.0, id_w.saturating_sub(1));
    let pad = id_w - width(&shown);
    let mut spans = vec![
        Span::styled(shown, s.theme.call_id(s.timeline.id_place(s.trace, id))),
        Span::raw(" ".repeat(pad + indent - id_w)),
    ];
    spans.extend(line.spans[1..].iter().cloned());
    Line::from(spans)
}

/// An id in `max` columns: cut in its middle, or at its end where the
/// room is too narrow for that.
fn fit_id(id: &str, max: usize) -> String {
    truncate(&middle(id, max), max)
}

/// A call's row, and under it its result as attached, wrapped to at most
/// three lines so the values being compared stay whole.
fn call_rows(s: &Scene<'_>, call: &ToolCall, columns: &[usize; 3], w: usize) -> Vec<Line<'static>> {
    let theme = s.theme;
    let lang = s.lang;
    let Some(status) = s.trace.status_at(call, s.step) else {
        return Vec::new();
    };
    let changed_now = [
        Some(call.proposed),
        call.verdict.as_ref().map(|(s, _)| *s),
        call.decision.as_ref().map(|(s, _)| *s),
        call.started,
        call.finished,
    ]
    .contains(&Some(s.step));
    let mut row = Row::new(w, Style::new());
    row.put(
        columns[0],
        &fit_id(&call.id.0, columns[1].saturating_sub(1)),
        theme.call_id(s.timeline.id_place(s.trace, &call.id)),
    );
    row.put(
        columns[1],
        status_name(status, lang),
        status_style(s, status),
    );
    // What changed at this step stands out, and says so in words.
    let now = i18n::CHANGED_NOW.get(lang);
    let mark = if changed_now { width(now) + 1 } else { 0 };
    // A name too long for its room is cut with a mark, never by the "now"
    // mark or the edge (an MCP server's tools have long names).
    let tool = truncate(&call.tool, w.saturating_sub(columns[2] + mark));
    let end = row.put(columns[2], &tool, Style::new());
    // The arguments wrap under the tool, up to three lines, rather than
    // lose a value; continuation lines share one indent and width.
    let indent = columns[2] + 2;
    let first_room = w.saturating_sub(end + 1 + mark);
    let rest_room = w.saturating_sub(indent);
    // Once the user has edited the call, the arguments it runs with, the
    // user's values marked; the model's own stay in the context panel.
    let edited = call.run_args_text_at(s.step);
    // An edited call gets a line more, so the user's values show whole.
    let most_more = if edited.is_some() { 3 } else { 2 };
    let args = edited.unwrap_or_else(|| call.args_text());
    // A first word that does not fit the room beside a long id starts on
    // the next line, whole, rather than cut in two.
    let first_word = args.split(' ').next().unwrap_or("");
    let first = if width(first_word) > first_room {
        String::new()
    } else {
        super::text::wrap(&args, first_room)
            .into_iter()
            .next()
            .unwrap_or_default()
    };
    let rest = args[first.len()..].trim_start();
    row.put(end + 1, &first, theme.muted());
    if changed_now {
        row.style(0, w, Style::new().add_modifier(Modifier::BOLD));
        row.put(w.saturating_sub(width(now)), now, theme.current());
    }
    let mut lines = vec![row.into_line()];
    if !rest.is_empty() {
        let mut more = super::text::wrap(rest, rest_room);
        if more.len() > most_more {
            let tail = more[most_more - 1..].join(" ");
            more.truncate(most_more - 1);
            more.push(truncate(&tail, rest_room));
        }
        for piece in more {
            lines.push(Line::from(vec![
                Span::raw(" ".repeat(indent)),
                Span::styled(piece, theme.muted()),
            ]));
        }
    }
    if let Some(result) = result_text(s, call, status) {
        let style = result_style(s, call, status);
        // Continuation lines sit two columns in: wrap to the narrower room.
        let room = w.saturating_sub(columns[1] + 2);
        // A compacted result is history: two lines, so that the rows of
        // every compacted call stay in sight together.
        let most = if status == CallStatus::Compacted {
            2
        } else {
            3
        };
        let (shown, cut) = super::text::head(&result, most, room);
        let text = format!("⇒ {shown}{}", if cut { " …" } else { "" });
        let mut wrapped = super::text::wrap(&text, room);
        if wrapped.len() > most {
            let rest = wrapped[most - 1..].join(" ");
            wrapped.truncate(most - 1);
            wrapped.push(truncate(&rest, room));
        }
        for (k, piece) in wrapped.into_iter().enumerate() {
            let indent = columns[1] + if k == 0 { 0 } else { 2 };
            lines.push(Line::from(vec![
                Span::raw(" ".repeat(indent)),
                Span::styled(piece, style),
            ]));
        }
    }
    lines
}

fn status_style(s: &Scene<'_>, status: CallStatus) -> Style {
    let theme = s.theme;
    match status {
        CallStatus::Proposed => theme.lane_style(Lane::Model),
        CallStatus::Approved
        | CallStatus::Replayed
        | CallStatus::Compacted
        | CallStatus::NotRun => theme.lane_style(Lane::Host),
        CallStatus::Running => theme.lane_style(Lane::Tool),
        CallStatus::Done => theme.ok(),
        CallStatus::Error
        | CallStatus::Refused
        | CallStatus::Unanswered
        | CallStatus::NotSent
        | CallStatus::WrongId
        | CallStatus::Denied
        | CallStatus::Interrupted => theme.error(),
        CallStatus::AwaitingUser | CallStatus::UserApproved | CallStatus::Edited => theme.user(),
    }
}

fn result_style(s: &Scene<'_>, call: &ToolCall, status: CallStatus) -> Style {
    let wrong = !matches!(call.pairing(), Some(Pairing::ById));
    match status {
        CallStatus::Error
        | CallStatus::Refused
        | CallStatus::Unanswered
        | CallStatus::NotSent
        | CallStatus::WrongId
        | CallStatus::Denied
        | CallStatus::Interrupted => s.theme.error(),
        CallStatus::Done | CallStatus::Replayed if wrong => s.theme.error(),
        _ => Style::new(),
    }
}

/// The result as attached, with what went wrong in the pairing said in
/// words; None while the call has no result yet.
fn result_text(s: &Scene<'_>, call: &ToolCall, status: CallStatus) -> Option<String> {
    let result = call.result.as_ref().filter(|_| {
        matches!(
            status,
            CallStatus::Done
                | CallStatus::Replayed
                | CallStatus::Unanswered
                | CallStatus::NotSent
                | CallStatus::WrongId
                | CallStatus::Error
                | CallStatus::Refused
                | CallStatus::Denied
                | CallStatus::Interrupted
                | CallStatus::Compacted
        )
    })?;
    // The id beside the result is the table's own row: cut in its middle,
    // so the result text keeps its lines.
    let text = i18n::result_in_words(
        call,
        &one_line(&result.text),
        |id| middle(&id.0, 16),
        s.lang,
    );
    if status != CallStatus::Compacted {
        return Some(text);
    }
    // What the model sees of it now is the host's, not this result.
    let trace = s.trace;
    let policy = trace
        .compactions
        .iter()
        .find(|c| c.calls.contains(&call.id))
        .map(|c| c.policy)?;
    Some(i18n::compacted_result(policy, &text, s.lang))
}
