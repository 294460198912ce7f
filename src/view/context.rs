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
use crate::trace::{StepKind, Trace};
use fit::{fitted, least_rows};
use list::{Item, What, flatten, fold_newest_reply, items};

/// The context panel of one run at its step: the messages of the model
/// call as sent, what is new, and what the model has not seen.
pub struct Context<'a> {
    pub scene: &'a Scene<'a>,
}

mod fit;
mod list;
mod thinking;

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
    // Right after a compaction the list reads from the top, where the
    // host's placeholder or summary stands; the compacted list is short
    // and built whole. Else it is built from the newest message back,
    // only as many lines as the window needs, and a screenful more to know
    // how far it can scroll.
    let compacted = !s.context_anchored();
    let wanted = if compacted {
        usize::MAX
    } else {
        h * 2 + scroll + 1
    };
    let (mut items, more) = items(s, w, wanted, compacted);
    let (top, disk) = top_and_disk(s, w, h, &items, more);
    let room = h.saturating_sub(top.len() + disk.len());
    if compacted {
        let (body, _, _) = flatten(&items);
        let win = super::window::Window::from_top(body.len(), room, scroll);
        // Too long even so: what must show first, as below.
        if scroll == 0 && win.below && !s.unfold {
            return draw_fitted(s, &top, (&items, false), win, &disk, area, buf);
        }
        return draw(s, &top, &body, win, &disk, area, buf);
    }
    // The newest reply is folded to fit under the markers (and the
    // divider, when it stands under it), so it shows from its first line.
    let newest = room.saturating_sub(2).max(2);
    let under_divider = items.iter().any(|i| matches!(i.what, What::Divider));
    let most = if under_divider {
        newest.saturating_sub(1).max(2)
    } else {
        newest
    };
    fold_newest_reply(s, &mut items, most, w);
    let (body, divider_at, _) = flatten(&items);
    let win = super::window::Window::from_end(body.len(), more, room, scroll);
    // Unscrolled (every still figure, and the screen on arrival) and too
    // long for the panel: each message that shows starts whole, what is
    // new at this call shows first, and older ones are folded into the
    // rows left, so no row stands empty for a message that did not fit.
    // Unfolded (`f`), messages are shown whole, to be scrolled through.
    if scroll == 0 && win.above && !s.unfold {
        return draw_fitted(s, &top, (&items, more), win, &disk, area, buf);
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
/// `more`: older items exist than `items` holds.
fn draw_fitted(
    s: &Scene<'_>,
    top: &[Line<'static>],
    (items, more): (&[Item], bool),
    win: super::window::Window,
    disk: &[Line<'static>],
    area: Rect,
    buf: &mut Buffer,
) -> u16 {
    let room = (area.height as usize).saturating_sub(top.len() + disk.len());
    let w = area.width as usize;
    // Every item folded into the rows, the first one too: no marker, since
    // nothing is above.
    let (all, _, shown) = fitted(s, items, room, w);
    let (lines, cut_short, above) = if !more && shown == items.len() {
        (all, false, false)
    } else {
        let (lines, cut_short, _) = fitted(s, items, room.saturating_sub(1), w);
        (lines, cut_short, true)
    };
    let shown = super::window::Window {
        start: 0,
        end: lines.len(),
        above,
        below: false,
        limit: win.limit,
    };
    // Some that must show did not fit: new ones at a model call.
    let at_call = matches!(s.trace.steps[s.step].kind, StepKind::ModelCall { .. });
    let label = match (cut_short, at_call) {
        (true, true) => i18n::NEW_ABOVE,
        (true, false) => i18n::APPENDED_ABOVE,
        _ => i18n::MORE_ABOVE,
    };
    draw_marked(s, top, &lines, shown, label, disk, area, buf)
}

/// The lines over the list and the disk line under it, as tight as the
/// list needs: a row for each message that must show (what is new at
/// this call, or appended since), one for the divider and one for the
/// marker above them, and at least four in all where the list has them.
fn top_and_disk(
    s: &Scene<'_>,
    w: usize,
    h: usize,
    items: &[Item],
    more: bool,
) -> (Vec<Line<'static>>, Vec<Line<'static>>) {
    // Every item up to the oldest that must show keeps a row at least,
    // so nothing between two shown items is left out unmarked.
    let must = items.iter().rposition(|i| i.must).map_or(0, |p| p + 1);
    let least: usize = items[..must].iter().map(|i| least_rows(s, i)).sum();
    let total: usize = items.iter().map(|i| i.block.lines.len()).sum::<usize>() + usize::from(more);
    let want = total.min((least + 1).max(4));
    let mut tight = 0;
    loop {
        let top = top_lines(s, w, tight);
        let mut disk = disk_line(s, s.trace, w);
        if tight >= 2 {
            disk.truncate(1);
        }
        if tight >= 4 || h.saturating_sub(top.len() + disk.len()) >= want {
            return (top, disk);
        }
        tight += 1;
    }
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
    draw_marked(s, top, body, win, i18n::MORE_ABOVE, disk, area, buf)
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

/// What was sent on the latest model call, and the tools offered.
/// At `tight` 1 and up the growth bars are left out; at 2 and up the
/// window line and the tools offered take one line each, cut with `…`;
/// at 3 the heading takes two; at 4 the tools offered are left out (`w`
/// shows them): a low panel keeps its rows for the messages.
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
            let head = i18n::context_heading(trace, s.counts, call, items, new, lang);
            let head = hanging(vec![], &head, theme.title(), w);
            top.extend(if tight >= 3 { cut(head, 2) } else { head });
            // The window, and what the host's latest compaction took out.
            if let Some(window) = trace.window {
                let mut line = i18n::window_line(window, trace.window_estimated, lang);
                let latest = trace.compactions.iter().rev().find(|c| c.step <= s.step);
                if let Some(c) = latest {
                    line = format!("{line} · {}", i18n::compacted_line(c, lang));
                }
                let line = hanging(vec![], &line, theme.muted(), w);
                top.extend(if tight >= 2 { cut(line, 1) } else { line });
            }
            // How much of this request the provider's cache served.
            if let Some(u) = crate::wire::cache::cache_use(trace, s.counts, i) {
                let line = hanging(vec![], &i18n::cache_line(&u, lang), theme.muted(), w);
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
    if tight >= 4 {
        return top;
    }
    let tools = match step.model_call {
        Some(i) => i18n::tools_offered_at(trace, &trace.model_calls[i], lang),
        None => i18n::tools_known_at(trace, s.step, lang),
    };
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
    let calls = trace
        .model_calls
        .slice((index + 1).saturating_sub(room)..=index);
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
