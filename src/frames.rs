//! Frames off-screen: the very view the TUI draws, rendered into a buffer.
//! Snapshot tests, export and benchmarks all come through here.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Borders, Widget};
use unicode_width::UnicodeWidthStr;

use crate::app::{self, Action, App, Panel};
use crate::i18n;
use crate::view;

/// The app's screen at `width`×`height`, exactly as the terminal shows it.
pub fn render(app: &App, width: u16, height: u16) -> Buffer {
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    view::render(app, area, &mut buf);
    buf
}

/// Apply an action the way the terminal does: update, draw, and hand the
/// drawn screen's scroll limits back to the app.
pub fn apply(app: &mut App, action: Action) {
    app::update(app, action);
    let (w, h) = app.size;
    let area = Rect::new(0, 0, w, h);
    let mut buf = Buffer::empty(area);
    let limits = view::render(app, area, &mut buf);
    app::update(app, Action::Drawn(limits));
}

/// `app` moved to step `index` (0-based) and sized for the frame.
pub fn at_step(app: &App, index: usize, width: u16, height: u16) -> App {
    let mut app = app.clone();
    app::update(&mut app, Action::Resize(width, height));
    app::update(&mut app, Action::GoTo(index));
    app
}

/// The frame as plain text: one line per row, trailing spaces trimmed, a
/// wide character written once (its second cell is skipped).
pub fn to_text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in area.top()..area.bottom() {
        let mut line = String::new();
        let mut skip = 0;
        for x in area.left()..area.right() {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let symbol = buf[(x, y)].symbol();
            skip = symbol.width().saturating_sub(1);
            line.push_str(symbol);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The frame as text, then its look: one row of marks per screen row,
/// a mark per cell (so a wide character, two cells, gets two), and a key
/// saying which colours and modifiers each mark stands for. The look
/// most cells share is a blank, so only what stands out is marked. A
/// snapshot of this fails when a colour or a modifier changes, not only
/// when a character does.
pub fn to_styled_text(buf: &Buffer) -> String {
    type Look = (Color, Color, Modifier);
    let area = buf.area;
    // Each row's looks, a wide character's second cell taking its first's
    // (ratatui resets that cell, though the terminal paints it as one).
    let rows: Vec<Vec<Look>> = (area.top()..area.bottom())
        .map(|y| {
            let mut row: Vec<Look> = Vec::with_capacity(area.width.into());
            let mut skip = 0;
            for x in area.left()..area.right() {
                let cell = &buf[(x, y)];
                match row.last() {
                    Some(&look) if skip > 0 => {
                        skip -= 1;
                        row.push(look);
                    }
                    _ => {
                        skip = cell.symbol().width().saturating_sub(1);
                        row.push((cell.fg, cell.bg, cell.modifier));
                    }
                }
            }
            row
        })
        .collect();
    // Looks in the order they first appear, and how many cells take each.
    let mut looks: Vec<(Look, usize)> = Vec::new();
    for look in rows.iter().flatten() {
        match looks.iter_mut().find(|(l, _)| l == look) {
            Some((_, n)) => *n += 1,
            None => looks.push((*look, 1)),
        }
    }
    let common = looks.iter().max_by_key(|(_, n)| *n).map(|(l, _)| *l);
    let mut marks = MARKS.chars();
    let key: Vec<(Look, char)> = looks
        .iter()
        .map(|(l, _)| {
            let mark = if Some(*l) == common {
                ' '
            } else {
                marks.next().unwrap_or('?')
            };
            (*l, mark)
        })
        .collect();
    let mark_of = |look: &Look| key.iter().find(|(l, _)| l == look).map_or('?', |(_, m)| *m);
    let mut out = to_text(buf);
    out.push_str("── look ──\n");
    for row in &rows {
        let marks: String = row.iter().map(mark_of).collect();
        out.push_str(marks.trim_end());
        out.push('\n');
    }
    for ((fg, bg, modifier), mark) in &key {
        let mark = if *mark == ' ' {
            "blank".to_string()
        } else {
            mark.to_string()
        };
        out.push_str(&format!("{mark}: fg {fg} · bg {bg}"));
        if !modifier.is_empty() {
            out.push_str(&format!(" · {modifier:?}"));
        }
        out.push('\n');
    }
    out
}

/// Marks for the looks of a frame, in the order they first appear.
const MARKS: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/// How an exported figure is framed for notes. The TUI always draws the
/// whole screen; a figure may leave its controls out or show one panel.
/// By default (`keys` false) a figure names no key, since none works in
/// it: the footer's row of key hints is left out and the panels' hints
/// ("scroll ↑", "f shows all", "Tab") are not drawn. Nor does it show the
/// program's state, which says nothing about the lesson: the status line
/// keeps only the progress (no "paused", dwell time or focus), and the
/// focused panel is drawn like the others (no `▶`, heavier border or
/// "[zoomed]").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Framing {
    /// The lesson alone: no key hints or status line (the footer's two
    /// rows are left out) and no focus marks (the focused panel is drawn
    /// like the others). A bare figure names no key, whatever `keys` says.
    pub bare: bool,
    /// One panel at the full size of the body: the TUI's zoom on it.
    pub panel: Option<Panel>,
    /// `--keys`: the key hints kept, exactly as the terminal shows them.
    pub keys: bool,
    /// `--lower`: the panel under the lanes where only one fits (below
    /// 100×30); None: each step's own (`view::panel_of_step`).
    pub lower: Option<Panel>,
}

impl Framing {
    /// Rows of the screen the figure leaves out: the whole footer of a
    /// bare figure, the row of key hints of one without keys.
    fn cut_rows(self) -> u16 {
        if self.bare {
            FOOTER_ROWS
        } else if self.keys {
            0
        } else {
            1
        }
    }
}

/// Rows the footer takes (key hints, then the status line).
const FOOTER_ROWS: u16 = 2;

/// `app` at step `index`, framed: the panel chosen and zoomed, the key
/// hints off unless `keys`, and a screen taller by the footer rows that
/// `render_framed` cuts.
pub fn at_step_framed(app: &App, index: usize, width: u16, height: u16, framing: Framing) -> App {
    let mut app = app.clone();
    if let Some(panel) = framing.panel {
        app.focus = panel;
        app.zoom = true;
    }
    app.key_hints = framing.keys && !framing.bare;
    let mut app = at_step(
        &app,
        index,
        width,
        height.saturating_add(framing.cut_rows()),
    );
    app.lower = Some(
        framing
            .lower
            .unwrap_or_else(|| view::panel_of_step(&app.trace().steps[app.step].kind)),
    );
    app
}

/// The framed screen of an app from `at_step_framed`, `width`×`height`.
pub fn render_framed(app: &App, width: u16, height: u16, framing: Framing) -> Buffer {
    let cut = framing.cut_rows();
    if cut == 0 {
        return render(app, width, height);
    }
    let tall = height.saturating_add(cut);
    let mut full = render(app, width, tall);
    // A figure shows the lesson, not where the terminal's focus was.
    unmark_focus(app, &mut full, Rect::new(0, 0, width, tall));
    // Without keys the status line, the last row, moves up into the place
    // of the key hints above it.
    let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
    for y in 0..height {
        let from = if !framing.bare && y + 1 == height {
            tall - 1
        } else {
            y
        };
        for x in 0..width {
            buf[(x, y)] = full[(x, from)].clone();
        }
    }
    buf
}

/// Draw the focused panel, and a panel that shares its place (its title
/// names the others and the Tab key), as a plain panel: rounded border in
/// the idle colour, its own name as the title (no `▶`, no zoom tag).
fn unmark_focus(app: &App, buf: &mut Buffer, area: Rect) {
    // Two runs compared are not laid out in panels: their focus mark (the
    // focused run's heavier frame and `▶`) stays.
    if app.comparing().is_some() {
        return;
    }
    let Some(areas) = view::areas(app, area) else {
        return;
    };
    for &(panel, rect, tabbed) in &areas.panels {
        if (panel == app.focus || tabbed) && rect.width >= 2 && rect.height >= 2 {
            plain_border(app, panel, rect, buf);
        }
    }
}

fn plain_border(app: &App, panel: Panel, rect: Rect, buf: &mut Buffer) {
    let base = app.theme.base();
    for y in rect.top()..rect.bottom() {
        for x in rect.left()..rect.right() {
            let edge = y == rect.top()
                || y == rect.bottom() - 1
                || x == rect.left()
                || x == rect.right() - 1;
            if edge {
                let cell = &mut buf[(x, y)];
                cell.reset();
                cell.set_style(base);
            }
        }
    }
    let label = match panel {
        Panel::Lanes => i18n::LANES,
        Panel::Context => i18n::CONTEXT,
        Panel::Pairing => i18n::PAIRING,
        Panel::Explain => i18n::EXPLAIN,
    };
    Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(app.theme.border(false))
        .title(Line::styled(
            format!(" {} ", label.get(app.lang)),
            app.theme.title(),
        ))
        .render(rect, buf);
}
