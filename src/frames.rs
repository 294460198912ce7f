//! Frames off-screen: the very view the TUI draws, rendered into a buffer.
//! Snapshot tests, export and benchmarks all come through here.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use unicode_width::UnicodeWidthStr;

use crate::app::{self, Action, App};
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
