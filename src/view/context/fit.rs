//! The context list fitted to the rows of a panel, unscrolled: what the
//! step is about first, older messages folded into the rows left, each
//! starting with its number and role, never a row left empty for them.

use ratatui::text::{Line, Span};

use super::super::text::{hanging, truncate_words, width};
use super::list::{Item, What, fold_block, message_lines};
use crate::i18n;
use crate::view::scene::Scene;
use crate::view::text::middle;

/// The list unscrolled in `rows` rows under the "more above" marker,
/// oldest first: the items that must show (the messages new at this
/// call, the divider and what was appended since) first, each whole where
/// it fits and else folded, then as many older ones as the rows left
/// hold, the oldest folded to fill them. Also whether some of the items
/// that must show did not fit (the marker then says new ones are above),
/// and how many items show.
pub(super) fn fitted(
    s: &Scene<'_>,
    items: &[Item],
    rows: usize,
    w: usize,
) -> (Vec<Line<'static>>, bool, usize) {
    // Every item up to the oldest that must show keeps its least rows,
    // so nothing between two shown items is left out unmarked.
    let must = items.iter().rposition(|i| i.must).map_or(0, |p| p + 1);
    let least: Vec<usize> = items[..must].iter().map(|i| least_rows(s, i)).collect();
    // Too many to give each its rows: the newest of them that fit.
    let mut fit = must;
    while fit > 0 && least[..fit].iter().sum::<usize>() > rows {
        fit -= 1;
    }
    let cut_short = fit < must;
    let mut left = rows;
    let mut out: Vec<Vec<Line<'static>>> = Vec::new();
    for (k, item) in items.iter().enumerate() {
        // Past those, the rows left go on to older items, cut to fit.
        if left == 0 {
            break;
        }
        let reserve: usize = least
            .get(k + 1..fit.max(k + 1))
            .map_or(0, |l| l.iter().sum());
        let give = left.saturating_sub(reserve).max(1);
        let lines = fit_item(s, item, give, w);
        left -= lines.len().min(left);
        out.push(lines);
    }
    let shown = out.len();
    (out.into_iter().rev().flatten().collect(), cut_short, shown)
}

/// The fewest rows an item shows in: a row for a message's text and one
/// for each of its calls (two for a Responses call: its item's id and the
/// call_id).
pub(super) fn least_rows(s: &Scene<'_>, item: &Item) -> usize {
    let call = match s.trace.provider {
        crate::wire::Provider::Responses => 2,
        _ => 1,
    };
    let b = &item.block;
    let text = usize::from(b.text_end > 0 || b.calls.is_empty());
    (text + call * b.calls.len()).min(b.lines.len()).max(1)
}

/// `item` in at most `rows` rows (at least one): whole if it fits; else
/// a message's text folded with its tool calls kept; else its text and
/// each call cut to share the rows (a row each at least, the calls served
/// first: what the model asked for is the point, and a call cut to one
/// row keeps its id); else a row each for as many as fit.
fn fit_item(s: &Scene<'_>, item: &Item, rows: usize, w: usize) -> Vec<Line<'static>> {
    let b = &item.block;
    if b.lines.len() <= rows {
        return b.lines.clone();
    }
    let (index, new) = match item.what {
        What::Message { index, new } => (index, new),
        What::System => {
            let chars = s.trace.system.as_deref().map_or(0, |t| t.chars().count());
            return cut_text(s, &b.lines, chars, b.indent, rows, w);
        }
        What::Divider | What::Reasoning => return b.lines[..rows.min(b.lines.len())].to_vec(),
    };
    let folded = fold_block(s, s.trace, index, b.clone(), rows, w);
    if folded.len() <= rows {
        return folded;
    }
    let chars = super::thinking::drawn_chars(&s.trace.messages[index]);
    let (text, calls) = b.lines.split_at(b.text_end);
    let mut groups: Vec<&[Line<'static>]> = Vec::new();
    let mut ends = b.calls.iter().skip(1).copied().chain([calls.len()]);
    for &start in &b.calls {
        let end = ends.next().unwrap_or(calls.len());
        groups.push(&calls[start.min(end)..end]);
    }
    // A call in one row: the brief form, whose id is cut in its middle.
    let floor = s.trace.held_from(s.step);
    let brief = message_lines(s, s.trace, index, floor, new, true, w);
    // A call in its fewest rows: the brief form's, whose id is cut in its
    // middle (a Responses call: its item's line and its call_id's).
    let brief_call = |k: usize| -> Vec<Line<'static>> {
        let start = brief.text_end + brief.calls.get(k).copied().unwrap_or(k);
        let end = brief
            .calls
            .get(k + 1)
            .map_or(brief.lines.len(), |&e| brief.text_end + e);
        brief.lines[start.min(end)..end].to_vec()
    };
    let per_call = brief_call(0).len().max(1);
    let parts = usize::from(!text.is_empty()) + per_call * groups.len();
    if rows < parts {
        let mut firsts: Vec<Line<'static>> = match one_row(s, index, text, 1, w) {
            Some(line) => vec![line],
            None => text.iter().take(1).cloned().collect(),
        };
        firsts.extend((0..groups.len()).flat_map(brief_call));
        return cut_lines(s, firsts, rows, w);
    }
    let mut extra = rows - parts;
    let mut shown_calls = Vec::new();
    for (k, g) in groups.iter().enumerate() {
        let give = (per_call + extra).min(g.len());
        extra -= give.saturating_sub(per_call);
        if give <= per_call && g.len() > give {
            shown_calls.extend(brief_call(k));
        } else {
            shown_calls.extend(cut_lines(s, g.to_vec(), give, w));
        }
    }
    let mut lines = if text.is_empty() {
        Vec::new()
    } else {
        match one_row(s, index, text, 1 + extra, w) {
            Some(line) => vec![line],
            None => cut_text(s, text, chars, b.indent, 1 + extra, w),
        }
    };
    lines.extend(shown_calls);
    lines
}

/// A result in one row whose id stands on a line of its own in `text`:
/// its number and role, the id cut in its middle, then as much of its
/// text as fits (the pairing is the point: the id stays).
fn one_row(
    s: &Scene<'_>,
    index: usize,
    text: &[Line<'static>],
    rows: usize,
    w: usize,
) -> Option<Line<'static>> {
    let m = &s.trace.messages[index];
    let id = m.call_id.as_ref()?;
    if rows != 1 || text.len() < 2 {
        return None;
    }
    // The number, the role (and Anthropic's block type) before the id.
    let head: Vec<Span<'static>> = text[0]
        .spans
        .iter()
        .take_while(|sp| !sp.content.starts_with('['))
        .cloned()
        .collect();
    let used: usize = head.iter().map(|sp| sp.width()).sum();
    let id_style = text[0]
        .spans
        .iter()
        .find(|sp| sp.content.starts_with('['))
        .map_or(s.theme.muted(), |sp| sp.style);
    let shown = middle(&id.0, 14.min(w.saturating_sub(used + 3)));
    let mut spans = head;
    spans.push(Span::styled(format!("[{shown}] "), id_style));
    let used: usize = spans.iter().map(|sp| sp.width()).sum();
    let rest = i18n::one_line(m.text.trim_end());
    let room = w.saturating_sub(used);
    spans.push(Span::raw(truncate_words(&rest, room)));
    Some(Line::from(spans))
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
    // Indented too far to keep any of its text: the note alone, indented
    // as far as it fits.
    let indent = line
        .spans
        .iter()
        .take_while(|sp| sp.content.trim().is_empty())
        .map(|sp| sp.width())
        .sum::<usize>();
    if indent > 0 && indent + 4 > room {
        let pad = indent.min(w.saturating_sub(width(note) + 2));
        return Line::from(vec![
            Span::raw(" ".repeat(pad)),
            Span::styled(format!("… {note}"), s.theme.muted()),
        ]);
    }
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
        out.push(Span::styled(truncate_words(content, room), span.style));
        break;
    }
    out
}
