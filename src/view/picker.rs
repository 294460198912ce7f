//! The lesson picker (watching a tap: its conversations): one row per
//! lesson, its title in the screen's
//! language and, where it fits, how long its run is and how it ends; under
//! the list, how to open the highlighted one from the command line and its
//! task (or why it cannot be opened).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Block, BorderType, Borders, HighlightSpacing, List, ListItem, ListState, Padding,
    StatefulWidget, Widget,
};

use super::text::{hanging, truncate, width};
use crate::app::App;
use crate::i18n;
use crate::picker::{Lesson, Picker, Source};
use crate::safe;
use crate::scenario::Lang;
use crate::theme::Theme;

/// Rows under the list for the highlighted lesson: a rule, then its lines.
const DETAIL_ROWS: u16 = 4;

/// What the picker draws: the lessons offered and where the highlight
/// stands, in the screen's language and theme. Built from the app by
/// `of`, or by hand to draw the picker alone.
pub struct PickerView<'a> {
    pub picker: &'a Picker,
    /// Watching a tap: the rows are its conversations (`app::update`).
    pub watching: bool,
    pub lang: Lang,
    pub theme: Theme,
    /// Where each lesson was left (self-study), when progress is kept.
    pub study: Option<&'a crate::study::Kept>,
}

impl<'a> PickerView<'a> {
    /// The app's picker, as its screen shows it.
    pub fn of(app: &'a App) -> PickerView<'a> {
        PickerView {
            picker: &app.picker,
            watching: app.live.as_ref().is_some_and(|l| l.watching),
            lang: app.lang,
            theme: app.theme,
            study: app.study.as_ref(),
        }
    }

    /// Draw the picker over the screen `area`; returns how many lessons it
    /// shows at once (the rows `update` keeps the highlight within).
    pub fn render(&self, area: Rect, buf: &mut Buffer) -> u16 {
        render(self, area, buf)
    }
}

fn render(v: &PickerView<'_>, area: Rect, buf: &mut Buffer) -> u16 {
    let lessons = &v.picker.lessons;
    let (popup, detail_rows) = popup_area(lessons.len(), area);
    super::overlay::clear_popup(v.theme, popup, buf);
    // A column of margin each side, inside the border.
    let inner = Block::new()
        .borders(Borders::ALL)
        .padding(Padding::horizontal(1))
        .inner(popup);
    let rows = inner.height.saturating_sub(detail_rows);
    let top = v.picker.top_for(usize::from(rows));
    border(v, inner, (top, rows)).render(popup, buf);
    if inner.width == 0 || inner.height == 0 {
        return rows;
    }
    let room = usize::from(inner.width);
    if lessons.is_empty() {
        let text = truncate(i18n::PICKER_NO_LESSONS.get(v.lang), room);
        buf.set_stringn(inner.x, inner.y, &text, room, Style::new());
        return rows;
    }
    list(
        v,
        Rect {
            height: rows,
            ..inner
        },
        top,
        buf,
    );
    if detail_rows > 0 {
        let y = inner.bottom() - detail_rows;
        buf.set_stringn(inner.x, y, "─".repeat(room), room, v.theme.muted());
        let lines = detail_lines(v, room, usize::from(detail_rows - 1));
        super::window::draw_lines(
            &lines,
            Rect {
                y: y + 1,
                height: detail_rows - 1,
                ..inner
            },
            buf,
        );
    }
    rows
}

/// The popup over the screen `area`, as wide as the other overlays and no
/// taller than a list of `lessons` needs, and the rows of the chosen
/// lesson's details under the list (none on a short screen).
fn popup_area(lessons: usize, area: Rect) -> (Rect, u16) {
    let most = super::overlay::popup(area);
    let detail_rows = if most.height >= 2 * DETAIL_ROWS + 2 {
        DETAIL_ROWS
    } else {
        0
    };
    let wanted = (lessons.max(1) as u16)
        .saturating_add(detail_rows)
        .saturating_add(2);
    let height = most.height.min(wanted);
    let popup = Rect {
        y: most.y + (most.height - height) / 2,
        height,
        ..most
    };
    (popup, detail_rows)
}

/// The popup's border: its heading, where the list stands, the keys, and
/// whether more lessons are below. `top`: the first lesson shown, `rows`
/// how many are.
fn border(v: &PickerView<'_>, inner: Rect, (top, rows): (usize, u16)) -> Block<'static> {
    let (lang, theme, picker) = (v.lang, v.theme, v.picker);
    let lessons = &picker.lessons;
    let end = (top + usize::from(rows)).min(lessons.len());
    // Where the list stands, in words on the border: the row rows of the
    // list stay the same whatever is scrolled.
    let mut position = i18n::PICKER_POSITION.fill(
        lang,
        &[("n", &(picker.cursor + 1)), ("len", &lessons.len())],
    );
    if top > 0 {
        position = format!("{} · {position}", i18n::MORE_ABOVE.get(lang));
    }
    let (heading, hint) = match v.watching {
        true => (i18n::PICKER_CONVERSATIONS, i18n::PICKER_HINT_SWITCH),
        false => (i18n::PICKER, i18n::PICKER_HINT),
    };
    let hint = format!(" {} ", hint.get(lang));
    let below = (end < lessons.len()).then(|| format!(" {} ", i18n::MORE_BELOW.get(lang)));
    let room = usize::from(inner.width);
    let mut block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Double)
        .border_style(theme.border(true))
        .title(Line::styled(
            format!(" {} ", heading.get(lang)),
            theme.title(),
        ))
        .title(Line::styled(format!(" {position} "), theme.muted()).right_aligned());
    // The keys are also in the help (`?`); a narrow popup keeps the marker.
    let below_w = below.as_deref().map_or(0, width);
    if width(&hint) + below_w + 2 <= room {
        block = block.title_bottom(Line::styled(hint, theme.muted()));
    }
    if let Some(below) = below {
        block = block.title_bottom(Line::styled(below, theme.muted()).right_aligned());
    }
    block
}

/// The lessons from `top` in `area`, the highlighted one marked.
fn list(v: &PickerView<'_>, area: Rect, top: usize, buf: &mut Buffer) {
    let (theme, lessons) = (v.theme, &v.picker.lessons);
    let room = usize::from(area.width);
    // ratatui's `List`: the highlighted row marked "▶ " and in the current
    // marker's style across the whole row; then the number, the title, and
    // the summary right-aligned.
    let digits = lessons.len().to_string().len();
    let prefix_w = 2 + digits + 2;
    let level = summary_level(v, lessons, room.saturating_sub(prefix_w));
    let items: Vec<ListItem> = lessons
        .iter()
        .enumerate()
        .map(|(i, lesson)| ListItem::new(row(v, i, lesson, level, room, digits)))
        .collect();
    let list = List::new(items)
        .highlight_symbol("▶ ")
        .highlight_style(theme.current_marker())
        .highlight_spacing(HighlightSpacing::Always);
    let mut state = ListState::default()
        .with_offset(top)
        .with_selected(Some(v.picker.cursor));
    StatefulWidget::render(list, area, buf, &mut state);
}

/// Lesson `i`'s row after the list's mark: its number, its title cut to
/// fit, and its summary right-aligned in `room` columns (the mark's
/// included); numbers `digits` wide. The highlighted row's summary takes
/// the highlight's style.
fn row(
    v: &PickerView<'_>,
    i: usize,
    lesson: &Lesson,
    level: u8,
    room: usize,
    digits: usize,
) -> Line<'static> {
    let lang = v.lang;
    let picker = v.picker;
    let prefix_w = 2 + digits + 2;
    let chosen = i == picker.cursor;
    let (title, summary) = row_texts(v, i, lesson, level);
    let summary_w = summary.as_ref().map_or(0, |(s, _)| width(s));
    let title_room = room
        .saturating_sub(prefix_w)
        .saturating_sub(if summary_w > 0 { summary_w + 2 } else { 0 });
    // A long title is cut, never the mark of the lesson on screen.
    let title = if picker.current == Some(i) && lesson.loaded().is_ok() {
        let now = i18n::PICKER_OPEN_NOW.get(lang);
        let cut = title.strip_suffix(now).unwrap_or(&title);
        format!(
            "{}{now}",
            truncate(cut, title_room.saturating_sub(width(now)))
        )
    } else {
        truncate(&title, title_room)
    };
    let mut spans = vec![Span::raw(format!("{:>digits$}  ", i + 1)), Span::raw(title)];
    // The list's mark ("▶ " or two spaces) comes first.
    let used = 2 + spans.iter().map(Span::width).sum::<usize>();
    if let Some((summary, style)) = summary {
        spans.push(Span::raw(" ".repeat(room.saturating_sub(used + summary_w))));
        spans.push(Span::styled(
            summary,
            if chosen { Style::new() } else { style },
        ));
    }
    Line::from(spans)
}

/// How much of the summary column every row can show: 0 steps, ending and
/// task; 1 steps and ending; 2 steps; 3 none. One level for all rows, so
/// the column reads straight down; it leaves each title whole, or three
/// fifths of the room for a title longer than that.
fn summary_level(v: &PickerView<'_>, lessons: &[Lesson], room: usize) -> u8 {
    (0..3)
        .find(|&level| {
            lessons.iter().enumerate().all(|(i, lesson)| {
                let (title, summary) = row_texts(v, i, lesson, level);
                width(&title).min(room * 3 / 5) + summary.map_or(0, |(s, _)| width(&s) + 2) <= room
            })
        })
        .unwrap_or(3)
}

/// A row's title (with "open now" on the lesson shown) and its summary
/// at `level` (see `summary_level`), with the summary's style.
fn row_texts(
    v: &PickerView<'_>,
    i: usize,
    lesson: &Lesson,
    level: u8,
) -> (String, Option<(String, Style)>) {
    let lang = v.lang;
    let theme = v.theme;
    match lesson.loaded() {
        Ok(loaded) => {
            let trace = loaded.trace(lang);
            let mut title = trace.title.clone();
            if v.picker.current == Some(i) {
                title.push_str(i18n::PICKER_OPEN_NOW.get(lang));
            }
            let steps = trace.len();
            let unit = i18n::STEP_N.get(steps, lang);
            let end = i18n::end_name(trace.end, lang);
            let task = i18n::task_name(trace.task, false, lang);
            let values: [(&str, &dyn std::fmt::Display); 4] = [
                ("steps", &steps),
                ("unit", &unit),
                ("end", &end),
                ("task", &task),
            ];
            let summary = match level {
                0 => Some(i18n::PICKER_SUMMARY.fill(lang, &values)),
                1 => Some(i18n::PICKER_SUMMARY_SHORT.fill(lang, &values)),
                2 => Some(format!("{steps} {unit}")),
                _ => None,
            };
            // Where the learner left it, before the rest.
            let summary = match (seen(v, i), summary) {
                (Some(seen), Some(_)) if level == 2 => Some(seen),
                (Some(seen), Some(summary)) => Some(format!("{seen} · {summary}")),
                (_, summary) => summary,
            };
            (title, summary.map(|s| (s, theme.muted())))
        }
        // Said at every level: the row cannot be opened.
        Err(_) => (
            source_name(&lesson.source),
            Some((
                i18n::PICKER_CANNOT_OPEN.get(lang).to_string(),
                theme.error(),
            )),
        ),
    }
}

/// How far lesson `i` was read, and its quiz score, when progress is kept.
fn seen(v: &PickerView<'_>, i: usize) -> Option<String> {
    let p = v.study?.of(i)?;
    Some(match p.quiz {
        Some((right, answered)) => i18n::PICKER_SEEN_QUIZ.fill(
            v.lang,
            &[
                ("step", &p.step),
                ("steps", &p.steps),
                ("right", &right),
                ("answered", &answered),
            ],
        ),
        None => i18n::PICKER_SEEN.fill(v.lang, &[("step", &p.step), ("steps", &p.steps)]),
    })
}

/// The lesson as the command line names it, safe to draw.
fn source_name(source: &Source) -> String {
    match source {
        Source::Shipped(name) => (*name).to_string(),
        Source::File(path) | Source::Transcript(path) => safe::escape(path).into_owned(),
    }
}

/// The highlighted lesson: how to open it from the command line, then its
/// task; or why it cannot be opened. At most `max` lines.
fn detail_lines(v: &PickerView<'_>, w: usize, max: usize) -> Vec<Line<'static>> {
    let lang = v.lang;
    let theme = v.theme;
    let Some(lesson) = v.picker.lessons.get(v.picker.cursor) else {
        return Vec::new();
    };
    let option = match lesson.source {
        Source::Shipped(_) | Source::File(_) => "--scenario",
        Source::Transcript(_) => "--transcript",
    };
    let mut out = match lesson.loaded() {
        Ok(loaded) => {
            let mut head = format!("{option} {}", source_name(&lesson.source));
            if let Source::Transcript(_) = lesson.source {
                head = format!("{head} · {}", i18n::PICKER_TRANSCRIPT.get(lang));
            }
            let mut out = vec![Line::styled(truncate(&head, w), theme.muted())];
            out.extend(hanging(
                vec![Span::styled(i18n::lead(i18n::TASK, lang), theme.title())],
                loaded.card.task.get(lang),
                Style::new(),
                w,
            ));
            out
        }
        Err(error) => hanging(
            vec![Span::styled(
                i18n::lead(i18n::PICKER_CANNOT_OPEN, lang),
                theme.error(),
            )],
            error,
            Style::new(),
            w,
        ),
    };
    if out.len() > max {
        out.truncate(max);
        if let Some(last) = out.last_mut() {
            end_with_ellipsis(last, w);
        }
    }
    out
}

/// Mark a line as cut: `…` at its end, within `w` columns.
fn end_with_ellipsis(line: &mut Line<'static>, w: usize) {
    while line.width() + 1 > w {
        let Some(span) = line.spans.last_mut() else {
            break;
        };
        let mut text = span.content.to_string();
        if text.pop().is_none() {
            line.spans.pop();
            continue;
        }
        span.content = text.into();
    }
    line.spans.push(Span::raw("…"));
}
