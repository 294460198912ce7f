//! A frame as ANSI text: each cell's colours and emphasis as SGR escape
//! sequences, named colours as the 16 standard codes so the reader's
//! terminal palette applies. Every line ends with a reset.

use ratatui::buffer::{Buffer, Cell};
use ratatui::style::{Color, Modifier};
use unicode_width::UnicodeWidthStr;

/// The frame's rows, each a complete line without its line ending.
pub fn lines(buf: &Buffer) -> Vec<String> {
    let area = buf.area;
    let mut out = Vec::with_capacity(area.height as usize);
    for y in area.top()..area.bottom() {
        // Cells after the last visible one are left out, as in the text
        // export; a cell with a background or a mark is visible.
        let end = (area.left()..area.right())
            .rev()
            .find(|&x| visible(&buf[(x, y)]))
            .map_or(area.left(), |x| x + 1);
        let mut line = String::new();
        // The terminal starts every line in its default style.
        let mut current = (Color::Reset, Color::Reset, Modifier::empty());
        let mut x = area.left();
        while x < end {
            let cell = &buf[(x, y)];
            let symbol = cell.symbol();
            let key = (cell.fg, cell.bg, cell.modifier);
            if current != key {
                line.push_str(&sgr(cell));
                current = key;
            }
            line.push_str(symbol);
            // A wide character is written once; its trailing cell is skipped.
            x += symbol.width().max(1) as u16;
        }
        if current != (Color::Reset, Color::Reset, Modifier::empty()) {
            line.push_str("\x1b[0m");
        }
        out.push(line);
    }
    out
}

fn visible(cell: &Cell) -> bool {
    cell.symbol() != " "
        || cell.bg != Color::Reset
        || cell
            .modifier
            .intersects(Modifier::REVERSED | Modifier::UNDERLINED | Modifier::CROSSED_OUT)
}

/// One escape sequence that resets and then sets the cell's whole style, so
/// nothing leaks from the cell before.
fn sgr(cell: &Cell) -> String {
    let mut codes: Vec<String> = vec!["0".into()];
    for (modifier, code) in lean_backend::SGR_MODIFIERS {
        if cell.modifier.contains(modifier) {
            codes.push(code.into());
        }
    }
    // After the reset, the terminal's own colours need no code.
    for (c, background) in [(cell.fg, false), (cell.bg, true)] {
        if c != Color::Reset {
            codes.push(lean_backend::colour(c, background));
        }
    }
    format!("\x1b[{}m", codes.join(";"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;
    use ratatui::style::Style;

    #[test]
    fn styles_become_sgr_and_each_line_resets() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 8, 2));
        buf.set_string(0, 0, "a", Style::new().fg(Color::Red).bold());
        buf.set_string(1, 0, "b", Style::new());
        buf.set_string(0, 1, "中x", Style::new().bg(Color::White).reversed());
        let lines = lines(&buf);
        assert_eq!(lines[0], "\x1b[0;1;31ma\x1b[0mb");
        // The wide character is written once, then x, then the reset.
        assert_eq!(lines[1], "\x1b[0;7;107m中x\x1b[0m");
    }

    #[test]
    fn every_colour_has_its_code() {
        use lean_backend::colour;
        assert_eq!(colour(Color::DarkGray, false), "90");
        assert_eq!(colour(Color::Gray, true), "47");
        assert_eq!(colour(Color::Indexed(208), false), "38;5;208");
        assert_eq!(colour(Color::Rgb(1, 2, 3), true), "48;2;1;2;3");
        // After the reset, the terminal's own colours need no code.
        assert_eq!(sgr(&Cell::default()), "\x1b[0m");
    }
}
