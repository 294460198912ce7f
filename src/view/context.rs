//! The context panel: the messages exactly as sent on the latest model call,
//! the tools offered, what is new since the previous call, its size, and
//! beside it what the model has not seen (the disk).
//!
//! The message list is built from the newest message backwards and only as
//! far as the panel can show, so a long context costs no more to draw.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::scene::Scene;
use super::text::{hanging, truncate, width, wrap};
use crate::i18n;
use crate::trace::{Message, Role, Trace};
use crate::wire::Provider;

/// The context panel of one run at its step: the messages of the model
/// call as sent, what is new, and what the model has not seen.
pub struct Context<'a> {
    pub scene: &'a Scene<'a>,
}

impl Context<'_> {
    /// Draw it on `area`, scrolled `scroll` lines up from its newest;
    /// returns how far it can scroll.
    pub fn render(&self, area: Rect, scroll: u16, buf: &mut Buffer) -> u16 {
        render(self.scene, area, scroll, buf)
    }
}

fn render(s: &Scene<'_>, area: Rect, scroll: u16, buf: &mut Buffer) -> u16 {
    let w = area.width as usize;
    let h = area.height as usize;
    let trace = s.trace;
    let top = top_lines(s, w);
    let disk = disk_line(s, trace, w);
    let room = h.saturating_sub(top.len() + disk.len());
    let scroll = scroll as usize;

    // Right after a compaction the list reads from the top, where the
    // host's placeholder or summary stands; the compacted list is short.
    if !s.context_anchored() {
        let (body, _, _, _) = body_lines(s, w, usize::MAX, usize::MAX, true);
        let win = super::window::Window::from_top(body.len(), room, scroll);
        return draw(s, &top, &body, win, &disk, area, buf);
    }
    // Build from the newest message back, only as many lines as the window
    // needs, and a screenful more to know how far it can scroll.
    // The newest reply is folded to fit under the markers, so it shows
    // from its first line (a long final answer does not open mid-sentence).
    let newest = room.saturating_sub(2).max(2);
    let (mut body, more, divider_at, starts) =
        body_lines(s, w, room * 2 + scroll + 1, newest, false);
    let win = super::window::Window::from_end(body.len(), more, room, scroll);
    // Messages below the divider were not sent: when it is scrolled away
    // above them, it stays pinned at the top, so they never look sent.
    let mut first = win.start;
    if let Some(d) = divider_at
        && d < win.start
        && win.start < win.end
    {
        body[win.start] = body[d].clone();
        first += 1;
    }
    // Unscrolled (every still figure, and the screen on arrival), the list
    // never opens with the tail of a message: its lines cut off at the top
    // are left empty under the marker, so what shows starts whole.
    if scroll == 0 && win.above {
        for line in body.iter_mut().take(win.end).skip(first) {
            if starts.binary_search(&first).is_ok() {
                break;
            }
            *line = Line::default();
            first += 1;
        }
    }
    draw(s, &top, &body, win, &disk, area, buf)
}

/// The top lines, the window of the message list under them, and the disk
/// line at the bottom; returns how far the list can scroll.
fn draw(
    s: &Scene<'_>,
    top: &[Line<'static>],
    body: &[Line<'static>],
    win: super::window::Window,
    disk: &[Line<'static>],
    area: Rect,
    buf: &mut Buffer,
) -> u16 {
    let top_len = top.len() as u16;
    let room = area.height.saturating_sub(top_len + disk.len() as u16);
    super::window::draw_lines(top, area, buf);
    let list = Rect {
        y: area.y + top_len.min(area.height),
        height: room,
        ..area
    };
    super::window::draw_window(s.lang, s.theme, body, win, list, buf);
    let disk_area = Rect {
        y: area
            .bottom()
            .saturating_sub(disk.len() as u16)
            .max(list.bottom()),
        height: disk.len() as u16,
        ..area
    };
    super::window::draw_lines(disk, disk_area, buf);
    win.limit.min(super::window::MAX_SCROLL as usize) as u16
}

/// A message longer than this many lines is folded ...
const FOLD_OVER: usize = 14;
/// ... to this many, and a line that says how much is left.
const FOLD_KEEP: usize = 8;

/// What was sent on the latest model call, and the tools offered.
fn top_lines(s: &Scene<'_>, w: usize) -> Vec<Line<'static>> {
    let trace = s.trace;
    let lang = s.lang;
    let theme = s.theme;
    let step = &trace.steps[s.step];
    let mut top = Vec::new();
    match step.model_call {
        Some(i) => {
            let call = &trace.model_calls[i];
            let (items, new) = crate::wire::list_counts(trace, i);
            let head = i18n::context_heading(trace, call, items, new, lang);
            top.extend(hanging(vec![], &head, theme.title(), w));
            // The window, and what the host's latest compaction took out.
            if let Some(window) = trace.window {
                let mut line = i18n::window_line(window, lang);
                let latest = trace.compactions.iter().rev().find(|c| c.step <= s.step);
                if let Some(c) = latest {
                    line = format!("{line} · {}", i18n::compacted_line(c, lang));
                }
                top.extend(hanging(vec![], &line, theme.muted(), w));
            }
            // Right after a compaction its lines matter most: the growth
            // bars give their room to the compacted list.
            if i > 0 && s.context_anchored() {
                top.extend(hanging(
                    vec![],
                    &growth(trace, i, w, lang),
                    theme.muted(),
                    w,
                ));
            }
        }
        None => top.push(Line::styled(
            truncate(i18n::NOTHING_SENT.get(lang), w),
            theme.title(),
        )),
    }
    let tools = i18n::tools_offered(trace, lang);
    top.extend(hanging(
        vec![Span::styled(
            i18n::lead(i18n::TOOLS_OFFERED, lang),
            theme.muted(),
        )],
        &tools,
        Style::new(),
        w,
    ));
    top
}

/// How the context grew, call by call up to `index`: one bar per call (the
/// latest calls that fit), scaled to the largest.
fn growth(trace: &Trace, index: usize, w: usize, lang: crate::scenario::Lang) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let room = (w / 2).clamp(1, 40);
    let calls = &trace.model_calls[(index + 1).saturating_sub(room)..=index];
    let max = calls
        .iter()
        .map(|c| c.context_size)
        .max()
        .unwrap_or(1)
        .max(1);
    let bars: String = calls
        .iter()
        .map(|c| {
            BARS[(c.context_size * (BARS.len() - 1))
                .div_ceil(max)
                .min(BARS.len() - 1)]
        })
        .collect();
    let first = calls[0].context_size;
    let last = trace.model_calls[index].context_size;
    i18n::growth(&bars, first, last, index + 1, lang)
}

/// The messages the host holds at this step, newest last, built backwards
/// until `wanted` lines exist, the newest in at most `newest` lines; with
/// `compacted` (right after a compaction) all but the host's in brief.
/// Returns the lines, whether older messages were left out, where the
/// divider stands, and where each message and the divider begin (ascending).
fn body_lines(
    s: &Scene<'_>,
    w: usize,
    wanted: usize,
    newest: usize,
    compacted: bool,
) -> (Vec<Line<'static>>, bool, Option<usize>, Vec<usize>) {
    let trace = s.trace;
    let lang = s.lang;
    let theme = s.theme;
    let sent = match trace.steps[s.step].model_call {
        Some(i) => trace.model_calls[i].context_len,
        None => 0,
    };
    let held = trace.messages.partition_point(|m| m.step <= s.step);
    // After the host compacted, it holds its compacted copy only.
    let floor = trace.held_from(s.step);
    // Messages below the divider have not been sent; once the loop has
    // ended they never will be.
    let divider_label = if floor > sent {
        i18n::COMPACTED_NOT_SENT
    } else if trace.steps[s.step].end.is_some() && sent > 0 {
        i18n::APPENDED_AFTER_END
    } else if sent == 0 {
        i18n::HOST_HOLDS
    } else {
        i18n::APPENDED_SINCE
    };
    // Collected newest line first and turned round once at the end:
    // prepending each message would copy the list again for every message.
    let mut body: Vec<Line<'static>> = Vec::new();
    let mut index = held;
    let mut divider_done = held == sent;
    // Where the divider stands, counted from the newest line.
    let mut divider_from_end = None;
    // Where each message's first line stands, counted from the newest line.
    let mut starts_from_end = Vec::new();
    let current = trace.steps[s.step].model_call;
    while index > floor && body.len() < wanted {
        index -= 1;
        let new = index < sent && current.is_some_and(|i| trace.is_new(i, index));
        let block = message_lines(s, trace, index, floor, new, compacted, w);
        // A reply too tall for the panel reads from its start (a final
        // answer); a tool result keeps its end in sight, as before.
        let reply = trace.messages[index].role == Role::Assistant;
        // Under the divider it shares the rows under the marker with it.
        let most = if held > sent {
            newest.saturating_sub(1).max(2)
        } else {
            newest
        };
        let block = if index + 1 == held && reply {
            fold_to(s, trace, index, block, most, w)
        } else {
            block.lines
        };
        if !divider_done && index < sent {
            divider_from_end = Some(body.len());
            body.push(divider(divider_label.get(lang), w, theme.muted()));
            divider_done = true;
        }
        body.extend(block.into_iter().rev());
        starts_from_end.push(body.len() - 1);
    }
    if !divider_done {
        divider_from_end = Some(body.len());
        body.push(divider(divider_label.get(lang), w, theme.muted()));
    }
    // The system prompt goes first in every request.
    if index == floor && body.len() < wanted {
        body.extend(system_lines(s, trace, compacted, w).into_iter().rev());
    }
    body.reverse();
    let last = body.len().saturating_sub(1);
    let divider_at = divider_from_end.map(|d| last - d);
    let mut starts: Vec<usize> = starts_from_end
        .into_iter()
        .chain(divider_from_end)
        .map(|s| last - s)
        .collect();
    starts.sort_unstable();
    (body, index > floor, divider_at, starts)
}

/// A message too tall for the panel, in `most` lines: the first lines of
/// its text, how long the text is (`f` shows it whole), then its tool
/// calls, which stay. A message that fits is left as it is.
fn fold_to(
    s: &Scene<'_>,
    trace: &Trace,
    index: usize,
    block: Block,
    most: usize,
    w: usize,
) -> Vec<Line<'static>> {
    let Block {
        mut lines,
        text_end,
        indent,
    } = block;
    if s.unfold || lines.len() <= most.saturating_add(1) || text_end == 0 {
        return lines;
    }
    let m = &trace.messages[index];
    let note = hanging(
        vec![Span::raw(" ".repeat(indent))],
        &i18n::folded(m.text.chars().count(), s.key_hints, s.lang),
        s.theme.muted(),
        w,
    );
    let calls = lines.split_off(text_end);
    let keep = most.saturating_sub(calls.len() + note.len()).max(1);
    // Folding must leave the text shorter and the whole within `most`.
    if keep >= text_end || keep + note.len() + calls.len() > most {
        lines.extend(calls);
        return lines;
    }
    // Its own fold note, if it had one, goes with the lines cut.
    lines.truncate(keep);
    lines.extend(note);
    lines.extend(calls);
    lines
}

/// The role column fits the longest role word of the language.
fn role_width(s: &Scene<'_>) -> usize {
    [Role::User, Role::Assistant, Role::Tool]
        .map(|r| width(i18n::role_name(r, s.lang)))
        .into_iter()
        .max()
        .unwrap_or(9)
}

fn divider(label: &str, w: usize, style: Style) -> Line<'static> {
    let text = format!("── {label} ");
    let rest = w.saturating_sub(width(&text));
    Line::styled(truncate(&(text + &"─".repeat(rest)), w), style)
}

/// Fewer columns than this beside a call id, and the id takes a line of
/// its own.
const MIN_TEXT_ROOM: usize = 20;

/// A message's lines: its text first (`text_end` lines, `indent` columns
/// in), then one or more per tool call it proposes.
struct Block {
    lines: Vec<Line<'static>>,
    text_end: usize,
    indent: usize,
}

/// The system prompt, as every request sends it first: Chat's first
/// message, Responses' `instructions`, Anthropic's `system`.
fn system_lines(s: &Scene<'_>, trace: &Trace, compacted: bool, w: usize) -> Vec<Line<'static>> {
    let Some(system) = trace.system.as_deref().filter(|s| !s.is_empty()) else {
        return Vec::new();
    };
    let theme = s.theme;
    let (number, label) = match trace.provider {
        Provider::Chat => (" 1 ", i18n::ROLE_SYSTEM.get(s.lang)),
        Provider::Responses => ("   ", i18n::INSTRUCTIONS.get(s.lang)),
        Provider::Anthropic => ("   ", i18n::ROLE_SYSTEM.get(s.lang)),
    };
    let pad = " ".repeat(role_width(s).saturating_sub(width(label)));
    // New on the first model call only: every later one resends it.
    let first = trace.steps[s.step].model_call == Some(0);
    let (mark, mark_style) = if first {
        ("+", theme.new_message())
    } else {
        (" ", theme.muted())
    };
    let prefix = vec![
        Span::styled(format!("{mark}{number}"), mark_style),
        Span::styled(format!("{label}{pad} "), theme.muted()),
    ];
    let indent: usize = prefix.iter().map(|s| s.width()).sum();
    let room = w.saturating_sub(indent).max(8);
    if compacted && !s.unfold {
        let line = truncate(&i18n::one_line(system), room);
        let mut lines = hanging(prefix, &line, theme.muted(), w);
        lines.truncate(1);
        return lines;
    }
    let (shown, long) = if s.unfold {
        (system, false)
    } else {
        super::text::head(system, FOLD_OVER, room)
    };
    let mut lines = hanging(prefix, shown, theme.muted(), w);
    if !s.unfold && (long || lines.len() > FOLD_OVER) {
        lines.truncate(FOLD_KEEP);
        let note = i18n::folded(system.chars().count(), s.key_hints, s.lang);
        lines.extend(hanging(
            vec![Span::raw(" ".repeat(indent))],
            &note,
            theme.muted(),
            w,
        ));
    }
    lines
}

/// What a message is called in its provider's list: its role, or for a
/// Responses result the item's type; blank where it continues the
/// Anthropic user message before it.
fn label(s: &Scene<'_>, trace: &Trace, m: &Message, joins: bool) -> String {
    if joins {
        return String::new();
    }
    match (trace.provider, m.role) {
        (Provider::Responses, Role::Tool) => "function_call_output".to_string(),
        // Anthropic has no tool role: results go back in a user message.
        (Provider::Anthropic, Role::Tool) => i18n::role_name(Role::User, s.lang).to_string(),
        (_, role) => i18n::role_name(role, s.lang).to_string(),
    }
}

fn message_lines(
    s: &Scene<'_>,
    trace: &Trace,
    index: usize,
    floor: usize,
    new: bool,
    compacted: bool,
    w: usize,
) -> Block {
    let theme = s.theme;
    let m: &Message = &trace.messages[index];
    let place = trace.places.get(index).copied().unwrap_or_default();
    let joins = place.joins() && index > floor;
    let provider = trace.provider;
    let mark = if new { "+" } else { " " };
    let role_style = match m.role {
        Role::User => theme.user(),
        Role::Assistant => theme.lane_style(crate::trace::Lane::Model),
        Role::Tool if provider == Provider::Anthropic => theme.user(),
        Role::Tool => theme.lane_style(crate::trace::Lane::Tool),
    };
    let role = label(s, trace, m, joins);
    let role_w = role_width(s);
    let pad = " ".repeat(role_w.saturating_sub(width(&role)));
    let number_style = if new {
        theme.new_message()
    } else {
        theme.muted()
    };
    let number = if joins {
        "  ".to_string()
    } else {
        format!("{:>2}", place.number)
    };
    let mut prefix = vec![
        Span::styled(format!("{mark}{number} "), number_style),
        Span::styled(format!("{role}{pad} "), role_style),
    ];
    // Anthropic: a result is a `tool_result` block of the user message.
    if provider == Provider::Anthropic && m.role == Role::Tool {
        prefix.push(Span::styled(
            "tool_result ",
            theme.lane_style(crate::trace::Lane::Tool),
        ));
    }
    let mut lines = Vec::new();
    if let Some(id) = &m.call_id {
        // An id longer than the panel keeps its start and its end.
        let base: usize = prefix.iter().map(|s| s.width()).sum();
        let shown = middle(&id.0, w.saturating_sub(base + 3));
        let id = Span::styled(format!("[{shown}] "), theme.call_id(trace.id_place(id)));
        // A long real id (toolu_01…, 30 characters) leaves the text too
        // little room beside it: the id gets a line of its own.
        let base: usize = prefix.iter().map(|s| s.width()).sum();
        if w.saturating_sub(base + id.width()) < MIN_TEXT_ROOM {
            let mut head = prefix.clone();
            head.push(id);
            lines.push(Line::from(head));
            prefix = vec![Span::raw(" ".repeat(base))];
        } else {
            prefix.push(id);
        }
    }
    let text_style = if m.is_error {
        theme.error()
    } else {
        Style::new()
    };
    // Right after a compaction what the host put in is the point: the
    // other messages take one line each (`f` shows them whole).
    let brief = compacted && !s.unfold && m.host_insert.is_none();
    if !m.text.is_empty() || m.calls.is_empty() {
        let text = if m.is_error && m.role == Role::Tool && provider == Provider::Anthropic {
            // The only provider whose request marks a failed result.
            format!("✗ is_error: true · {}", m.text)
        } else if m.is_error && m.role == Role::Tool {
            // Chat and Responses carry a failure only in the text.
            format!("✗ {}", m.text)
        } else if m.host_insert.is_some() {
            // Written by the host in place of what it removed.
            format!("✂ {}", m.text)
        } else {
            m.text.to_string()
        };
        // A long message (a whole file, a test log) is folded to its first
        // lines, saying how long it is; `f` shows it whole. Only the shown
        // part is wrapped: a 10 KB output costs what three lines cost.
        let indent: usize = prefix.iter().map(|s| s.width()).sum();
        let room = w.saturating_sub(indent).max(8);
        let (shown, long) = if s.unfold {
            (text.as_str(), false)
        } else {
            super::text::head(&text, FOLD_OVER, room)
        };
        let mut body = hanging(prefix.clone(), shown, text_style, w);
        if brief {
            let line = truncate(&crate::i18n::one_line(&text), room);
            body = hanging(prefix.clone(), &line, text_style, w);
            body.truncate(1);
        } else if !s.unfold && (long || body.len() > FOLD_OVER) {
            body.truncate(FOLD_KEEP);
            let note = i18n::folded(m.text.chars().count(), s.key_hints, s.lang);
            body.extend(hanging(
                vec![Span::raw(" ".repeat(indent))],
                &note,
                theme.muted(),
                w,
            ));
        }
        lines.extend(body);
    }
    let indent: usize = prefix.iter().map(|s| s.width()).sum();
    let text_end = lines.len();
    // Responses: each call is an item of its own, numbered after the text.
    let mut item = place.number as usize + usize::from(!lines.is_empty());
    for id in &m.calls {
        let Some(call) = trace.call(id) else { continue };
        let mut spans = if provider == Provider::Responses {
            // The item's own id on its line, the call_id that pairs under it.
            let kind = "function_call";
            let pad = " ".repeat(role_w.saturating_sub(width(kind)));
            let mut first = vec![
                Span::styled(format!("{mark}{item:>2} "), number_style),
                Span::styled(format!("{kind}{pad} "), role_style),
            ];
            let used: usize = first.iter().map(|s| s.width()).sum();
            let item_id = format!("id {}", crate::wire::item_id(id));
            first.push(Span::styled(
                middle(&item_id, w.saturating_sub(used)),
                theme.muted(),
            ));
            lines.push(Line::from(first));
            item += 1;
            vec![
                Span::raw(" ".repeat(used)),
                Span::styled("call_id ", theme.muted()),
            ]
        } else if lines.is_empty() {
            prefix.clone()
        } else {
            vec![Span::raw(" ".repeat(indent))]
        };
        match provider {
            Provider::Chat => spans.push(Span::styled("→ ", theme.muted())),
            Provider::Anthropic => spans.push(Span::styled("→ tool_use ", theme.muted())),
            Provider::Responses => {}
        }
        let used: usize = spans.iter().map(|s| s.width()).sum();
        let shown = middle(&id.0, w.saturating_sub(used + 1));
        spans.push(Span::styled(
            format!("{shown} "),
            theme.call_id(trace.id_place(id)),
        ));
        let rest = format!("{} {}", call.tool, call.args_text());
        let used: usize = spans.iter().map(|s| s.width()).sum();
        if brief {
            spans.push(Span::raw(truncate(&rest, w.saturating_sub(used))));
            lines.push(Line::from(spans));
            continue;
        }
        if w.saturating_sub(used) < MIN_TEXT_ROOM {
            // As above: a long id on its own line, the call under it.
            lines.push(Line::from(spans));
            spans = vec![Span::raw(" ".repeat(indent + 2))];
        }
        lines.extend(hanging(spans, &rest, Style::new(), w));
    }
    Block {
        lines,
        text_end,
        indent,
    }
}

fn disk_line(s: &Scene<'_>, trace: &Trace, w: usize) -> Vec<Line<'static>> {
    // The step each file was created at, from the run's timeline (one
    // pass over the events each frame grew with the run).
    let timeline = &s.timeline;
    let exists = |f: &&String| {
        timeline
            .created_at(f)
            .is_none_or(|created| created <= s.step)
    };
    // Two lines at most, so the messages keep their room: files that do
    // not fit are counted, never cut in the middle of a path. Only the
    // files whose names could reach those two lines are kept: three lines'
    // worth of width is more than two wrapped lines can hold, whatever
    // spaces the wrapping drops.
    let lead = i18n::lead(i18n::DISK, s.lang);
    let budget = 3 * w.max(1) + width(&lead);
    let (mut parts, mut total, mut used) = (Vec::new(), 0, 0);
    for f in trace.files.iter().filter(exists) {
        total += 1;
        if used <= budget {
            used += width(f) + 2;
            parts.push(f.to_string());
        }
    }
    if parts.is_empty() {
        // A replayed file does not record the disk.
        let word = match trace.recorded {
            Some(_) => i18n::NOT_RECORDED,
            None => i18n::NONE,
        };
        parts.push(word.get(s.lang).to_string());
        total = 1;
    }
    let mut shown = parts.len();
    let mut lines = match shown == total {
        true => wrap(&format!("{lead}{}", parts.join(", ")), w),
        false => vec![String::new(); 3],
    };
    while lines.len() > 2 && shown > 1 {
        shown -= 1;
        let more = i18n::more_files(total - shown, s.lang);
        lines = wrap(&format!("{lead}{}, {more}", parts[..shown].join(", ")), w);
    }
    lines.truncate(2);
    lines
        .into_iter()
        .map(|l| Line::styled(l, s.theme.muted()))
        .collect()
}

/// An id cut in its middle to `max` columns (`fc_cb4cc…c575`): its start
/// and end identify it; the wire view (`w`) shows it whole.
fn middle(id: &str, max: usize) -> String {
    if width(id) <= max || max < 8 {
        return id.to_string();
    }
    let chars: Vec<char> = id.chars().collect();
    let tail = 4.min(chars.len());
    let head = max.saturating_sub(tail + 1);
    let start: String = chars[..head.min(chars.len())].iter().collect();
    let end: String = chars[chars.len() - tail..].iter().collect();
    format!("{start}…{end}")
}

#[cfg(test)]
mod disk_line_tests {
    use super::*;
    use crate::app::App;
    use crate::scenario::Lang;
    use crate::theme::Theme;

    fn app_with_files(names: &[String]) -> App {
        let mut s: serde_json::Value =
            serde_json::from_str(include_str!("../../scenarios/read-config-timeout.json")).unwrap();
        for name in names {
            s["files"][name] = "x".into();
        }
        let loaded = crate::load::prepare("<test>", s.to_string().as_bytes()).unwrap();
        App::new(loaded, Lang::En, Theme::DARK)
    }

    /// The line as it was computed before issue 22: every file, re-wrapped
    /// once for each file dropped.
    fn every_file_rewrapped(s: &Scene<'_>, w: usize) -> Vec<String> {
        let trace = s.trace;
        let parts: Vec<String> = trace
            .files
            .iter()
            .filter(|f| trace.file_exists_at(f, s.step))
            .cloned()
            .collect();
        let lead = i18n::lead(i18n::DISK, s.lang);
        let mut shown = parts.len();
        let mut lines = wrap(&format!("{lead}{}", parts.join(", ")), w);
        while lines.len() > 2 && shown > 1 {
            shown -= 1;
            let more = i18n::more_files(parts.len() - shown, s.lang);
            lines = wrap(&format!("{lead}{}, {more}", parts[..shown].join(", ")), w);
        }
        lines.truncate(2);
        lines
    }

    fn text(lines: &[Line]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn the_disk_line_is_what_rewrapping_every_file_gave() {
        // Names of every length, a Chinese one, a long one.
        let names: Vec<String> = (0..60)
            .map(|k| match k % 5 {
                0 => format!("f{k}"),
                1 => format!("src/deeply/nested/module_{k}/mod.rs"),
                2 => format!("文档/说明{k}.md"),
                3 => "x".repeat(k + 1),
                _ => format!("notes/{k}.txt"),
            })
            .collect();
        for n in [0, 1, 3, 10, 60] {
            let app = app_with_files(&names[..n]);
            let s = Scene::of(&app);
            for w in [8, 20, 37, 60, 80, 119, 200] {
                assert_eq!(
                    text(&disk_line(&s, s.trace, w)),
                    every_file_rewrapped(&s, w),
                    "{n} files at {w}"
                );
            }
        }
    }

    #[test]
    fn ten_thousand_files_are_counted_not_listed() {
        let names: Vec<String> = (0..10_000).map(|k| format!("src/f{k:05}.rs")).collect();
        let app = app_with_files(&names);
        let s = Scene::of(&app);
        let lines = text(&disk_line(&s, s.trace, 100));
        assert_eq!(lines.len(), 2);
        // config.txt and as many of the others as fit; the rest counted.
        assert!(lines[0].contains("config.txt"), "{lines:?}");
        let shown = 1 + lines.concat().matches(".rs").count();
        assert!(shown > 5, "{lines:?}");
        let more = 10_001 - shown;
        assert!(lines[1].ends_with(&format!("+{more} more")), "{lines:?}");
    }
}
