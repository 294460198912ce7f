//! Lines through a window of rows: which show, the "more" marker rows,
//! and how far the content can scroll.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;

use super::text;
use crate::i18n;
use crate::scenario::Lang;
use crate::theme::Theme;

/// Scroll offsets are clamped to this, and to the content when drawn.
pub const MAX_SCROLL: u16 = 10_000;

/// Which lines of some content show in `h` rows, with a row of its own
/// for each "more" marker, so a marker never covers text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// The shown lines, as a range of the content's lines.
    pub start: usize,
    pub end: usize,
    pub above: bool,
    pub below: bool,
    /// How far the content can scroll.
    pub limit: usize,
}

impl Window {
    /// Content read from its first line, `scroll` lines down.
    pub fn from_top(len: usize, h: usize, scroll: usize) -> Window {
        if len <= h || h < 3 {
            let end = len.min(h);
            return Window {
                start: 0,
                end,
                above: false,
                below: end < len,
                limit: 0,
            };
        }
        // At the top and at the bottom one marker row; between them two.
        let limit = len - (h - 1);
        let top = scroll.min(limit);
        let body = if top == 0 || top == limit {
            h - 1
        } else {
            h - 2
        };
        Window {
            start: top,
            end: top + body,
            above: top > 0,
            below: top < limit,
            limit,
        }
    }

    /// Content anchored at its newest line, `scroll` lines up from it.
    /// `len` lines are known; `more` says older lines exist beyond them.
    pub fn from_end(len: usize, more: bool, h: usize, scroll: usize) -> Window {
        if !more {
            // The same as reading from the top, counted from the other end.
            let limit = Window::from_top(len, h, 0).limit;
            return Window::from_top(len, h, limit.saturating_sub(scroll));
        }
        // Too low for marker rows: the newest lines, no scrolling, as
        // reading from the top does at that height.
        if h < 3 {
            return Window {
                start: len.saturating_sub(h),
                end: len,
                above: false,
                below: false,
                limit: 0,
            };
        }
        // Older lines exist past what was built: a marker row above, and
        // at least the shown amount more to scroll.
        let below = scroll > 0;
        let body = h - 1 - usize::from(below);
        let end = len.saturating_sub(scroll);
        Window {
            start: end.saturating_sub(body),
            end,
            above: true,
            below,
            limit: scroll + h,
        }
    }
}

/// Draw `lines` through a window, with the marker rows it calls for.
pub fn draw_window(
    lang: Lang,
    theme: Theme,
    lines: &[Line<'static>],
    win: Window,
    area: Rect,
    buf: &mut Buffer,
) {
    draw_window_marked(lang, theme, lines, win, i18n::MORE_ABOVE, area, buf);
}

/// `draw_window` with the marker row above saying `above`.
pub fn draw_window_marked(
    lang: Lang,
    theme: Theme,
    lines: &[Line<'static>],
    win: Window,
    above: i18n::Label,
    area: Rect,
    buf: &mut Buffer,
) {
    let mut y = area.y;
    if win.above && area.height > 1 {
        marker_row(
            lang,
            theme,
            above,
            Rect {
                y,
                height: 1,
                ..area
            },
            buf,
        );
        y += 1;
    }
    let bottom = area.bottom() - u16::from(win.below && area.height > 1);
    let body = Rect {
        y,
        height: bottom.saturating_sub(y),
        ..area
    };
    draw_lines(&lines[win.start..win.end], body, buf);
    if win.below && area.height > 1 {
        marker_row(
            lang,
            theme,
            i18n::MORE_BELOW,
            Rect {
                y: area.bottom() - 1,
                height: 1,
                ..area
            },
            buf,
        );
    }
}

/// Draw lines read from the top, scrolled; returns how far they can scroll.
pub fn scrolled(
    lang: Lang,
    theme: Theme,
    lines: Vec<Line<'static>>,
    area: Rect,
    scroll: u16,
    buf: &mut Buffer,
) -> u16 {
    let win = Window::from_top(lines.len(), area.height as usize, scroll as usize);
    draw_window(lang, theme, &lines, win, area, buf);
    win.limit.min(MAX_SCROLL as usize) as u16
}

/// Draw lines that are already cut to width, one per row, clipped to
/// `area`. Cheaper than a `Paragraph`, which would measure them again.
pub fn draw_lines(lines: &[Line<'_>], area: Rect, buf: &mut Buffer) {
    for (line, y) in lines.iter().zip(area.top()..area.bottom()) {
        buf.set_line(area.x, y, line, area.width);
    }
}

/// A row that says there is more above or below, and how to see it.
fn marker_row(lang: Lang, theme: Theme, label: i18n::Label, area: Rect, buf: &mut Buffer) {
    let text = text::truncate(label.get(lang), area.width as usize);
    let w = text::width(&text) as u16;
    let x = area.right().saturating_sub(w);
    buf.set_stringn(x, area.y, &text, w as usize, theme.muted());
}

#[cfg(test)]
mod tests {
    use super::Window;

    /// How far a panel can scroll never depends on how far it is scrolled
    /// in a way that takes back a step: a panel too low for marker rows
    /// does not scroll at all, whether or not older lines exist.
    #[test]
    fn a_window_too_low_for_markers_does_not_scroll() {
        for h in 0..3 {
            for len in 0..12 {
                for scroll in 0..4 {
                    for more in [false, true] {
                        let w = Window::from_end(len, more, h, scroll);
                        assert_eq!(w.limit, 0, "{len} {more} {h} {scroll}");
                        assert!(w.end - w.start <= h);
                    }
                }
            }
        }
        // With room, a window over more lines than built can scroll.
        assert!(Window::from_end(10, true, 5, 0).limit > 0);
    }
}
