//! The view: a pure function of the app state onto a buffer. No clock, no
//! I/O, no state changes. `render` draws the whole screen.

mod context;
mod explain;
mod frame;
mod lanes;
mod overlay;
mod pairing;
pub mod text;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph, Widget, Wrap};

use crate::app::{App, Panel};
use crate::i18n;

/// Below this size the screen says what it needs instead of drawing.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 18;
/// From this size up, all panels are shown side by side.
pub const WIDE_WIDTH: u16 = 100;
pub const WIDE_HEIGHT: u16 = 30;
/// Scroll offsets are clamped to this, and to the content when drawn.
pub const MAX_SCROLL: u16 = 10_000;

/// Where everything goes on a screen of a given size.
pub struct Areas {
    pub header: Rect,
    pub footer: Rect,
    /// Each panel shown, with its place and whether it shares it (tabs).
    pub panels: Vec<(Panel, Rect, bool)>,
}

/// The layout for `area`, or None when the screen is below the minimum.
pub fn areas(app: &App, area: Rect) -> Option<Areas> {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return None;
    }
    let [header, body, footer] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Min(0),
        Constraint::Length(2),
    ])
    .areas(area);
    let panels = if app.zoom {
        vec![(app.focus, body, false)]
    } else if area.width >= WIDE_WIDTH && area.height >= WIDE_HEIGHT {
        // The lanes and the context get the height; the table and the
        // explanation need about a dozen lines.
        let bottom_height = (body.height / 3).clamp(8, 14);
        let [top, bottom] =
            Layout::vertical([Constraint::Min(0), Constraint::Length(bottom_height)]).areas(body);
        let [lanes, context] =
            Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(top);
        let [pairing, explain] =
            Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)])
                .areas(bottom);
        vec![
            (Panel::Lanes, lanes, false),
            (Panel::Context, context, false),
            (Panel::Pairing, pairing, false),
            (Panel::Explain, explain, false),
        ]
    } else {
        // Compact: the lanes on top, one other panel below; Tab picks it.
        let lanes_height = (body.height / 2).max(8);
        let [lanes, rest] =
            Layout::vertical([Constraint::Length(lanes_height), Constraint::Min(0)]).areas(body);
        vec![
            (Panel::Lanes, lanes, false),
            (compact_lower(app), rest, true),
        ]
    };
    Some(Areas {
        header,
        footer,
        panels,
    })
}

/// Draw the whole screen for the app's current state.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    buf.set_style(area, app.theme.base());
    let Some(areas) = areas(app, area) else {
        too_small(app, area, buf);
        return;
    };
    frame::header(app, areas.header, buf);
    frame::footer(app, areas.footer, buf);
    for (panel, rect, tabbed) in areas.panels {
        draw_panel(app, panel, rect, tabbed, buf);
    }
    if let Some(o) = app.overlay {
        overlay::render(app, o, area, buf);
    }
}

fn lines_past(n: usize, room: u16) -> u16 {
    n.saturating_sub(room as usize).min(MAX_SCROLL as usize) as u16
}

/// How far the open overlay can scroll at the app's screen size.
pub fn max_overlay_scroll(app: &App) -> u16 {
    let Some(o) = app.overlay else { return 0 };
    let inner = overlay::inner(Rect::new(0, 0, app.size.0, app.size.1));
    lines_past(
        overlay::lines(app, o, inner.width as usize).len(),
        inner.height,
    )
}

/// How far a panel can scroll at the app's screen size, so `update` never
/// scrolls past the content. A panel not on screen cannot scroll.
pub fn max_scroll(app: &App, panel: Panel) -> u16 {
    let area = Rect::new(0, 0, app.size.0, app.size.1);
    let Some(areas) = areas(app, area) else {
        return 0;
    };
    let Some(&(_, rect, _)) = areas.panels.iter().find(|(p, _, _)| *p == panel) else {
        return 0;
    };
    let inner = Block::new().borders(Borders::ALL).inner(rect);
    let lines = lines_past;
    match panel {
        Panel::Lanes => app.step.min(MAX_SCROLL as usize) as u16,
        Panel::Pairing => pairing::max_scroll(app, inner.height),
        Panel::Context => context::max_scroll(app, inner),
        Panel::Explain => lines(
            explain::lines(app, inner.width as usize).len(),
            inner.height,
        ),
    }
}

/// In the compact layout, the panel under the lanes.
pub fn compact_lower(app: &App) -> Panel {
    match app.focus {
        Panel::Lanes => Panel::Explain,
        other => other,
    }
}

fn panel_title(panel: Panel) -> i18n::Label {
    match panel {
        Panel::Lanes => i18n::LANES,
        Panel::Context => i18n::CONTEXT,
        Panel::Pairing => i18n::PAIRING,
        Panel::Explain => i18n::EXPLAIN,
    }
}

/// `tabbed`: the panel shares its place with others (compact layout), so
/// its title names them all, the shown one marked.
fn draw_panel(app: &App, panel: Panel, area: Rect, tabbed: bool, buf: &mut Buffer) {
    let focused = app.focus == panel;
    let block = panel_block(app, panel, focused, tabbed);
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.width == 0 || inner.height == 0 {
        return;
    }
    let scroll = app.scroll[panel.index()];
    match panel {
        Panel::Lanes => lanes::render(app, inner, scroll, buf),
        Panel::Context => context::render(app, inner, scroll, buf),
        Panel::Pairing => pairing::render(app, inner, scroll, buf),
        Panel::Explain => explain::render(app, inner, scroll, buf),
    }
}

fn panel_block(app: &App, panel: Panel, focused: bool, tabbed: bool) -> Block<'static> {
    let lang = app.lang;
    let theme = app.theme;
    // The focused panel says so in words as well as with a heavier border.
    let marker = if focused { "▶ " } else { "" };
    let mut title = Vec::new();
    if tabbed {
        for tab in [Panel::Context, Panel::Pairing, Panel::Explain] {
            if tab == panel {
                title.push(Span::styled(
                    format!(" {marker}[{}] ", panel_title(tab).get(lang)),
                    theme.title(),
                ));
            } else {
                title.push(Span::styled(
                    format!(" {} ", panel_title(tab).get(lang)),
                    theme.muted(),
                ));
            }
        }
        title.push(Span::styled("(Tab) ", theme.muted()));
    } else {
        title.push(Span::styled(
            format!(" {marker}{} ", panel_title(panel).get(lang)),
            theme.title(),
        ));
    }
    if app.zoom && focused {
        title.push(Span::styled(
            format!(" [{} · z] ", i18n::ZOOMED.get(lang)),
            theme.muted(),
        ));
    }
    Block::new()
        .borders(Borders::ALL)
        .border_type(if focused {
            BorderType::Thick
        } else {
            BorderType::Rounded
        })
        .border_style(theme.border(focused))
        .title(Line::from(title))
}

/// Draw lines with a scroll offset from the top, clamped to the content,
/// with a note when there is more below or above.
fn scrolled(app: &App, lines: Vec<Line<'static>>, area: Rect, scroll: u16, buf: &mut Buffer) {
    let height = area.height as usize;
    let max = lines.len().saturating_sub(height);
    let top = (scroll as usize).min(max);
    let shown: Vec<Line<'static>> = lines.iter().skip(top).take(height).cloned().collect();
    draw_lines(&shown, area, buf);
    if lines.len() > top + height {
        more_marker(app, area, false, buf);
    } else if top > 0 {
        more_marker(app, area, true, buf);
    }
}

/// Draw lines that are already cut to width, one per row, clipped to
/// `area`. Cheaper than a `Paragraph`, which would measure them again.
fn draw_lines(lines: &[Line<'_>], area: Rect, buf: &mut Buffer) {
    for (line, y) in lines.iter().zip(area.top()..area.bottom()) {
        buf.set_line(area.x, y, line, area.width);
    }
}

fn more_marker(app: &App, area: Rect, above: bool, buf: &mut Buffer) {
    let label = if above {
        i18n::MORE_ABOVE
    } else {
        i18n::MORE_BELOW
    };
    let text = format!(" {} ", label.get(app.lang));
    let w = text::width(&text) as u16;
    if area.width <= w {
        return;
    }
    let y = if above { area.y } else { area.bottom() - 1 };
    let x = area.right() - w;
    buf.set_stringn(x, y, &text, w as usize, app.theme.current_marker());
}

fn too_small(app: &App, area: Rect, buf: &mut Buffer) {
    let lang = app.lang;
    let message = format!(
        "{}: {} {MIN_WIDTH}×{MIN_HEIGHT}, {} {}×{}",
        i18n::TOO_SMALL.get(lang),
        i18n::NEEDS.get(lang),
        i18n::NOW.get(lang),
        area.width,
        area.height
    );
    Paragraph::new(message)
        .style(Style::new())
        .wrap(Wrap { trim: true })
        .render(area, buf);
}
