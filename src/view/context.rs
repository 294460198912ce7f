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
use crate::trace::{Message, Role, StepKind, Trace};
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
    let scroll = scroll as usize;
    let (top, disk) = top_and_disk(s, w, h);
    let room = h.saturating_sub(top.len() + disk.len());

    // Right after a compaction the list reads from the top, where the
    // host's placeholder or summary stands; the compacted list is short.
    if !s.context_anchored() {
        let (items, _) = items(s, w, usize::MAX, usize::MAX, true);
        let (body, _, _) = flatten(&items);
        let win = super::window::Window::from_top(body.len(), room, scroll);
        // Too long even so: what must show first, as below.
        if scroll == 0 && win.below && !s.unfold {
            return draw_fitted(s, &top, &items, win, &disk, area, buf);
        }
        return draw(s, &top, &body, win, &disk, area, buf);
    }
    // Build from the newest message back, only as many lines as the window
    // needs, and a screenful more to know how far it can scroll.
    // The newest reply is folded to fit under the markers, so it shows
    // from its first line (a long final answer does not open mid-sentence).
    let newest = room.saturating_sub(2).max(2);
    let (items, more) = items(s, w, room * 2 + scroll + 1, newest, false);
    let (body, divider_at, _) = flatten(&items);
    let win = super::window::Window::from_end(body.len(), more, room, scroll);
    // Unscrolled (every still figure, and the screen on arrival) and too
    // long for the panel: each message that shows starts whole, what is
    // new at this call shows first, and older ones are folded into the
    // rows left, so no row stands empty for a message that did not fit.
    // Unfolded (`f`), messages are shown whole, to be scrolled through.
    if scroll == 0 && win.above && !s.unfold {
        return draw_fitted(s, &top, &items, win, &disk, area, buf);
    }
    // Messages below the divider were not sent: when it is scrolled away
    // above them, it stays pinned at the top, on a row of its own, so they
    // never look sent.
    if let Some(d) = divider_at
        && d < win.start
        && win.start < win.end
    {
        let mut lines = vec![body[d].clone()];
        lines.extend_from_slice(&body[win.start + 1..win.end]);
        let shown = super::window::Window {
            start: 0,
            end: lines.len(),
            ..win
        };
        return draw(s, &top, &lines, shown, &disk, area, buf);
    }
    draw(s, &top, &body, win, &disk, area, buf)
}

/// `items` fitted under the "more above" marker (`fitted`), `win` saying
/// how far the whole list can scroll.
fn draw_fitted(
    s: &Scene<'_>,
    top: &[Line<'static>],
    items: &[Item],
    win: super::window::Window,
    disk: &[Line<'static>],
    area: Rect,
    buf: &mut Buffer,
) -> u16 {
    let room = (area.height as usize).saturating_sub(top.len() + disk.len());
    let (lines, new_above) = fitted(s, items, room.saturating_sub(1), area.width as usize);
    let shown = super::window::Window {
        start: 0,
        end: lines.len(),
        above: true,
        below: false,
        limit: win.limit,
    };
    let label = if new_above {
        i18n::NEW_ABOVE
    } else {
        i18n::MORE_ABOVE
    };
    draw_marked(s, top, &lines, shown, label, disk, area, buf)
}

/// The lines over the list and the disk line under it, as tight as the
/// list needs: a row for each message that must show (what is new at
/// this call, or appended since), one for the divider and one for the
/// marker above them, and at least four in all where the list has them.
fn top_and_disk(s: &Scene<'_>, w: usize, h: usize) -> (Vec<Line<'static>>, Vec<Line<'static>>) {
    let (items, more) = items(s, w, h, h, !s.context_anchored());
    // Every item up to the oldest that must show keeps a row at least,
    // so nothing between two shown items is left out unmarked.
    let must = items.iter().rposition(|i| i.must).map_or(0, |p| p + 1);
    let total: usize = items.iter().map(|i| i.lines.len()).sum::<usize>() + usize::from(more);
    let want = total.min((must + 1).max(4));
    let mut tight = 0;
    loop {
        let top = top_lines(s, w, tight);
        let mut disk = disk_line(s, s.trace, w);
        if tight >= 2 {
            disk.truncate(1);
        }
        if tight >= 3 || h.saturating_sub(top.len() + disk.len()) >= want {
            return (top, disk);
        }
        tight += 1;
    }
}

/// The list unscrolled in `rows` rows under the "more above" marker,
/// oldest first: the items that must show (the messages new at this
/// call, the divider and what was appended since) first, each whole where
/// it fits and else folded, then as many older ones as the rows left
/// hold, the oldest folded to fill them. Also whether some of the items
/// that must show did not fit (the marker then says new ones are above).
fn fitted(s: &Scene<'_>, items: &[Item], rows: usize, w: usize) -> (Vec<Line<'static>>, bool) {
    // Every item up to the oldest that must show keeps a row at least,
    // so nothing between two shown items is left out unmarked.
    let must = items.iter().rposition(|i| i.must).map_or(0, |p| p + 1);
    // Too many to give each a row: the newest of them, a row each.
    let (must, new_above) = if must > rows {
        (rows, true)
    } else {
        (must, false)
    };
    let mut left = rows;
    let mut out: Vec<Vec<Line<'static>>> = Vec::new();
    for (k, item) in items.iter().enumerate() {
        if left == 0 || (new_above && k >= must) {
            break;
        }
        // Each older item that must show keeps at least one row.
        let reserve = must.saturating_sub(k + 1);
        let give = left.saturating_sub(reserve).max(1);
        let lines = fit_item(s, item, give, w);
        left -= lines.len();
        out.push(lines);
    }
    (out.into_iter().rev().flatten().collect(), new_above)
}

/// `item` in at most `rows` rows (at least one): whole if it fits; else
/// a message's text folded with its tool calls kept; else its text and
/// each call cut to share the rows (a row each at least, the calls served
/// first: what the model asked for is the point, and a call cut to one
/// row keeps its id); else a row each for as many as fit.
fn fit_item(s: &Scene<'_>, item: &Item, rows: usize, w: usize) -> Vec<Line<'static>> {
    if item.lines.len() <= rows {
        return item.lines.clone();
    }
    let index = match item.what {
        What::Message { index } => index,
        What::System => {
            let chars = s.trace.system.as_deref().map_or(0, |t| t.chars().count());
            return cut_text(s, &item.lines, chars, item.indent, rows, w);
        }
        What::Divider => return item.lines[..rows.min(item.lines.len())].to_vec(),
    };
    let block = Block {
        lines: item.lines.clone(),
        text_end: item.text_end,
        indent: item.indent,
        calls: item.calls.clone(),
    };
    let folded = fold_block(s, s.trace, index, block, rows, w);
    if folded.len() <= rows {
        return folded;
    }
    let chars = s.trace.messages[index].text.chars().count();
    let (text, calls) = item.lines.split_at(item.text_end);
    let mut groups: Vec<&[Line<'static>]> = Vec::new();
    let mut ends = item.calls.iter().skip(1).copied().chain([calls.len()]);
    for &start in &item.calls {
        let end = ends.next().unwrap_or(calls.len());
        groups.push(&calls[start.min(end)..end]);
    }
    // A call in one row: the brief form, whose id is cut in its middle.
    let floor = s.trace.held_from(s.step);
    let brief = message_lines(s, s.trace, index, floor, false, true, w);
    let brief_call = |k: usize| {
        let mut line = brief.lines[brief.text_end + k].clone();
        if let Some(first) = line.spans.first_mut()
            && let Some(group) = groups.get(k)
            && let Some(mark) = group[0].spans.first()
        {
            // The `+` of a new message, as on its other lines.
            if first.content.starts_with(' ') && mark.content.starts_with('+') {
                *first = mark.clone();
            }
        }
        line
    };
    let parts = usize::from(!text.is_empty()) + groups.len();
    if rows < parts {
        let mut firsts: Vec<Line<'static>> = text.iter().take(1).cloned().collect();
        firsts.extend((0..groups.len()).map(brief_call));
        return cut_lines(s, firsts, rows, w);
    }
    let mut extra = rows - parts;
    let mut shown_calls = Vec::new();
    for (k, g) in groups.iter().enumerate() {
        let give = (1 + extra).min(g.len());
        extra -= give - 1;
        if give == 1 && g.len() > 1 {
            shown_calls.push(brief_call(k));
        } else {
            shown_calls.extend(cut_lines(s, g.to_vec(), give, w));
        }
    }
    let mut lines = if text.is_empty() {
        Vec::new()
    } else {
        cut_text(s, text, chars, item.indent, 1 + extra, w)
    };
    lines.extend(shown_calls);
    lines
}

/// A text of `chars` characters, drawn as `lines` (their last ones maybe
/// a fold note already), in `rows` rows: its first lines, then a note of
/// how long it is; in one row, its first line cut with that count.
fn cut_text(
    s: &Scene<'_>,
    lines: &[Line<'static>],
    chars: usize,
    indent: usize,
    rows: usize,
    w: usize,
) -> Vec<Line<'static>> {
    if lines.len() <= rows {
        return lines.to_vec();
    }
    let note = hanging(
        vec![Span::raw(" ".repeat(indent))],
        &i18n::folded(chars, s.key_hints, s.lang),
        s.theme.muted(),
        w,
    );
    // A note the text had already is not text.
    let mut text = lines.to_vec();
    if text.ends_with(&note) {
        text.truncate(text.len() - note.len());
    }
    if rows > note.len() {
        let mut out = text[..(rows - note.len()).min(text.len())].to_vec();
        out.extend(note);
        return out;
    }
    let short = i18n::CHARS_IN_ALL.fill(s.lang, &[("chars", &chars)]);
    let mut out = text[..rows.saturating_sub(1)].to_vec();
    out.push(with_note(
        s,
        text[rows.saturating_sub(1)].clone(),
        &short,
        w,
    ));
    out
}

/// The first of `lines` in `rows` rows, the last of them saying how many
/// lines were left out.
fn cut_lines(
    s: &Scene<'_>,
    mut lines: Vec<Line<'static>>,
    rows: usize,
    w: usize,
) -> Vec<Line<'static>> {
    if lines.len() <= rows {
        return lines;
    }
    let rows = rows.max(1);
    let left_out = lines.len() - rows;
    let note = i18n::LINES_LEFT_OUT.fill(
        s.lang,
        &[
            ("n", &left_out),
            ("lines", &i18n::LINE_N.get(left_out, s.lang)),
        ],
    );
    lines.truncate(rows);
    let last = lines.pop().unwrap_or_default();
    lines.push(with_note(s, last, &note, w));
    lines
}

/// `line` cut to leave room for `note` after it, one `…` between them:
/// the cut's own, or one put there.
fn with_note(s: &Scene<'_>, line: Line<'static>, note: &str, w: usize) -> Line<'static> {
    let room = w.saturating_sub(width(note) + 3);
    let mut spans = cut_spans(line, room);
    let cut = spans.last().is_some_and(|l| l.content.ends_with('…'));
    let lead = if cut { " " } else { " … " };
    spans.push(Span::styled(format!("{lead}{note}"), s.theme.muted()));
    Line::from(spans)
}

/// A line's spans cut to `max` columns, ending with `…` where cut; never
/// inside a word: a span whose first word does not fit is left out.
fn cut_spans(line: Line<'static>, max: usize) -> Vec<Span<'static>> {
    if line.width() <= max {
        return line.spans;
    }
    let mut out = Vec::new();
    let mut used = 0;
    for span in line.spans {
        let wd = span.width();
        if used + wd < max {
            used += wd;
            out.push(span);
            continue;
        }
        let room = max.saturating_sub(used);
        let content = span.content.trim_end();
        let first = content.split_whitespace().next().map_or(0, width);
        let ascii = content.chars().next().is_some_and(|c| c.is_ascii());
        if ascii && first + 2 > room {
            out.push(Span::styled("…", span.style));
        } else {
            out.push(Span::styled(truncate(content, room), span.style));
        }
        break;
    }
    out
}

/// Lines with the marker row `label` above them, the top lines over them
/// and the disk line under them.
#[allow(clippy::too_many_arguments)]
fn draw_marked(
    s: &Scene<'_>,
    top: &[Line<'static>],
    body: &[Line<'static>],
    win: super::window::Window,
    label: i18n::Label,
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
    super::window::draw_window_marked(s.lang, s.theme, body, win, label, list, buf);
    draw_disk(disk, list, area, buf);
    win.limit.min(super::window::MAX_SCROLL as usize) as u16
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
    draw_disk(disk, list, area, buf);
    win.limit.min(super::window::MAX_SCROLL as usize) as u16
}

/// The disk line at the bottom of `area`, under the list, never past
/// the panel (a panel too low for it shows what fits).
fn draw_disk(disk: &[Line<'static>], list: Rect, area: Rect, buf: &mut Buffer) {
    let y = area
        .bottom()
        .saturating_sub(disk.len() as u16)
        .max(list.bottom());
    let disk_area = Rect {
        y,
        height: (disk.len() as u16).min(area.bottom().saturating_sub(y)),
        ..area
    };
    super::window::draw_lines(disk, disk_area, buf);
}

/// A message longer than this many lines is folded ...
const FOLD_OVER: usize = 14;
/// ... to this many, and a line that says how much is left.
const FOLD_KEEP: usize = 8;

/// What was sent on the latest model call, and the tools offered.
/// At `tight` 1 and up the growth bars are left out; at 2 and up the
/// window line and the tools offered take one line each, cut with `…`;
/// at 3 the heading takes two: a low panel keeps its rows for the
/// messages.
fn top_lines(s: &Scene<'_>, w: usize, tight: u8) -> Vec<Line<'static>> {
    let trace = s.trace;
    let cut = |mut lines: Vec<Line<'static>>, most: usize| {
        if lines.len() > most {
            let style = lines[most - 1].style;
            // The rest as one line again: a space where a Latin word ended.
            let mut text = String::new();
            for l in &lines[most - 1..] {
                let l = l.to_string();
                if text.ends_with(|c: char| c.is_ascii_graphic()) {
                    text.push(' ');
                }
                text.push_str(l.trim());
            }
            lines.truncate(most - 1);
            lines.push(Line::styled(truncate(&text, w), style));
        }
        lines
    };
    let lang = s.lang;
    let theme = s.theme;
    let step = &trace.steps[s.step];
    let mut top = Vec::new();
    match step.model_call {
        Some(i) => {
            let call = &trace.model_calls[i];
            let (items, new) = crate::wire::list_counts(trace, i);
            let head = i18n::context_heading(trace, call, items, new, lang);
            let head = hanging(vec![], &head, theme.title(), w);
            top.extend(if tight >= 3 { cut(head, 2) } else { head });
            // The window, and what the host's latest compaction took out.
            if let Some(window) = trace.window {
                let mut line = i18n::window_line(window, lang);
                let latest = trace.compactions.iter().rev().find(|c| c.step <= s.step);
                if let Some(c) = latest {
                    line = format!("{line} · {}", i18n::compacted_line(c, lang));
                }
                let line = hanging(vec![], &line, theme.muted(), w);
                top.extend(if tight >= 2 { cut(line, 1) } else { line });
            }
            // Right after a compaction its lines matter most: the growth
            // bars give their room to the compacted list.
            if i > 0 && s.context_anchored() && tight == 0 {
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
    let lead = i18n::lead(i18n::TOOLS_OFFERED, lang);
    if tight >= 2 {
        let line = truncate(&format!("{lead}{tools}"), w);
        let rest = line
            .strip_prefix(lead.as_str())
            .unwrap_or(&line)
            .to_string();
        top.push(Line::from(vec![
            Span::styled(lead, theme.muted()),
            Span::raw(rest),
        ]));
        return top;
    }
    top.extend(hanging(
        vec![Span::styled(lead, theme.muted())],
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

/// One entry of the context list: a message, the divider between what
/// was sent and what was appended since, or the system prompt.
struct Item {
    /// As the scrolled list shows it.
    lines: Vec<Line<'static>>,
    /// A message's lines of text before its tool calls, and their indent.
    text_end: usize,
    indent: usize,
    /// Where each tool call's lines begin, counted from `text_end`.
    calls: Vec<usize>,
    what: What,
    /// It must show unscrolled: new at this call, the divider, or
    /// appended since (`fitted`).
    must: bool,
}

#[derive(Debug, Clone, Copy)]
enum What {
    Message { index: usize },
    Divider,
    System,
}

/// The messages the host holds at this step, newest first, built
/// backwards until `wanted` lines exist and every item that must show is
/// there, the newest in at most `newest` lines; with `compacted` (right
/// after a compaction) all but the host's in brief. Also whether older
/// messages were left out.
fn items(
    s: &Scene<'_>,
    w: usize,
    wanted: usize,
    newest: usize,
    compacted: bool,
) -> (Vec<Item>, bool) {
    let trace = s.trace;
    let lang = s.lang;
    let theme = s.theme;
    let current = trace.steps[s.step].model_call;
    let sent = current.map_or(0, |i| trace.model_calls[i].context_len);
    let held = trace.messages.partition_point(|m| m.step <= s.step);
    // After the host compacted, it holds its compacted copy only.
    let floor = trace.held_from(s.step);
    // What must show unscrolled: at a model call what is new at it, after
    // it what was appended since; built at least back to there.
    let at_call = matches!(trace.steps[s.step].kind, StepKind::ModelCall { .. });
    let new_from = match current {
        Some(i) if at_call && i > 0 => trace.model_calls[i - 1].context_len.max(floor),
        Some(_) if at_call => floor,
        _ => sent.max(floor),
    };
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
    let divider_item = || Item {
        lines: vec![divider(divider_label.get(lang), w, theme.muted())],
        text_end: 0,
        indent: 0,
        calls: Vec::new(),
        what: What::Divider,
        must: true,
    };
    let mut items = Vec::new();
    let mut lines = 0;
    let mut index = held;
    let mut divider_done = held == sent;
    // Every item takes a row at least when the list is fitted unscrolled
    // (`fitted`): as many items as `wanted` rows, besides the lines.
    while index > floor && (lines < wanted || items.len() < wanted || index > new_from) {
        index -= 1;
        let new = index < sent && current.is_some_and(|i| trace.is_new(i, index));
        let brief = compacted && !s.unfold && trace.messages[index].host_insert.is_none();
        let block = message_lines(s, trace, index, floor, new, brief, w);
        // A reply too tall for the panel reads from its start (a final
        // answer); a tool result keeps its end in sight, as before.
        let reply = trace.messages[index].role == Role::Assistant;
        // Under the divider it shares the rows under the marker with it.
        let most = if held > sent {
            newest.saturating_sub(1).max(2)
        } else {
            newest
        };
        let (calls, indent) = (block.lines.len() - block.text_end, block.indent);
        let call_starts = block.calls.clone();
        let block_lines = if index + 1 == held && reply {
            fold_to(s, trace, index, block, most, w)
        } else {
            block.lines
        };
        // Folding shortens the text; the calls stay under it.
        let text_end = block_lines.len() - calls;
        if !divider_done && index < sent {
            items.push(divider_item());
            lines += 1;
            divider_done = true;
        }
        lines += block_lines.len();
        items.push(Item {
            lines: block_lines,
            text_end,
            indent,
            calls: call_starts,
            what: What::Message { index },
            // Right after a compaction, what the host put in too.
            must: if at_call { new } else { index >= sent }
                || (compacted && trace.messages[index].host_insert.is_some()),
        });
    }
    if !divider_done {
        items.push(divider_item());
        lines += 1;
    }
    // The system prompt goes first in every request.
    if index == floor && lines < wanted {
        let system = system_lines(s, trace, compacted, w);
        if !system.is_empty() {
            items.push(Item {
                lines: system,
                text_end: 0,
                // The mark, the number's room and the role column.
                indent: 4 + role_width(s) + 1,
                calls: Vec::new(),
                what: What::System,
                must: at_call && current == Some(0),
            });
        }
    }
    (items, index > floor)
}

/// The items (newest first) as one list of lines, oldest first; where the
/// divider stands, and where each item begins.
fn flatten(items: &[Item]) -> (Vec<Line<'static>>, Option<usize>, Vec<usize>) {
    let mut body = Vec::new();
    let mut divider_at = None;
    let mut starts = Vec::new();
    for item in items.iter().rev() {
        starts.push(body.len());
        if matches!(item.what, What::Divider) {
            divider_at = Some(body.len());
        }
        body.extend(item.lines.iter().cloned());
    }
    (body, divider_at, starts)
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
    if s.unfold {
        return block.lines;
    }
    fold_block(s, trace, index, block, most, w)
}

/// `fold_to` whether or not the screen unfolds messages: to fit a panel.
fn fold_block(
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
        ..
    } = block;
    if lines.len() <= most.saturating_add(1) || text_end == 0 {
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
    /// Where each tool call's lines begin, counted from `text_end`.
    calls: Vec<usize>,
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
    brief: bool,
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
    if !m.text.is_empty() || m.calls.is_empty() {
        // The simulator's marks stand before the text, in a style of their
        // own (the glossary names them): the text is exactly what was sent.
        let mut text_prefix = prefix.clone();
        if m.is_error && m.role == Role::Tool {
            text_prefix.push(Span::styled("✗", theme.sim_mark(true)));
            text_prefix.push(Span::raw(" "));
            if provider == Provider::Anthropic {
                // The only provider whose request marks a failed result:
                // a field of the block, not words of the text.
                text_prefix.push(Span::styled("is_error: true · ", theme.muted()));
            }
        } else if m.host_insert.is_some() {
            // Written by the host in place of what it removed.
            text_prefix.push(Span::styled("✂", theme.sim_mark(false)));
            text_prefix.push(Span::raw(" "));
        }
        // The marks leave the text too little room beside them: they stand
        // on the line of the id, the text under them.
        let marked: usize = text_prefix.iter().map(|s| s.width()).sum();
        if text_prefix.len() > prefix.len() && w.saturating_sub(marked) < MIN_TEXT_ROOM {
            let base: usize = prefix.iter().map(|s| s.width()).sum();
            lines.push(Line::from(std::mem::take(&mut text_prefix)));
            text_prefix = vec![Span::raw(" ".repeat(base))];
        }
        let text: &str = &m.text;
        // A long message (a whole file, a test log) is folded to its first
        // lines, saying how long it is; `f` shows it whole. Only the shown
        // part is wrapped: a 10 KB output costs what three lines cost.
        let indent: usize = text_prefix.iter().map(|s| s.width()).sum();
        let room = w.saturating_sub(indent).max(8);
        let (shown, long) = if s.unfold {
            (text, false)
        } else {
            super::text::head(text, FOLD_OVER, room)
        };
        let shown = tidy(shown);
        let mut body = hanging(text_prefix.clone(), &shown, text_style, w);
        if brief {
            let line = truncate(&crate::i18n::one_line(text), room);
            body = hanging(text_prefix, &line, text_style, w);
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
    let mut call_starts = Vec::new();
    for id in &m.calls {
        let Some(call) = trace.call(id) else { continue };
        call_starts.push(lines.len() - text_end);
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
            // The tool's name whole or not at all: `…` stands for it.
            let room = w.saturating_sub(used);
            let name = rest.split_whitespace().next().map_or(0, width);
            let shown = if name + 2 > room {
                "…".to_string()
            } else {
                truncate(&rest, room)
            };
            spans.push(Span::raw(shown));
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
        calls: call_starts,
    }
}

/// A message's text as the list shows it: no blank lines at its end, and
/// one blank line at most in a row (`w` shows the text exactly).
fn tidy(text: &str) -> std::borrow::Cow<'_, str> {
    let text = text.trim_end();
    let blank = |l: &str| l.trim().is_empty();
    let lines: Vec<&str> = text.split('\n').collect();
    if !lines.windows(2).any(|p| blank(p[0]) && blank(p[1])) {
        return text.into();
    }
    let kept: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|&(i, l)| !(blank(l) && i > 0 && blank(lines[i - 1])))
        .map(|(_, l)| *l)
        .collect();
    kept.join("\n").into()
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
