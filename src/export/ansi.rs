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
    const MODIFIERS: [(Modifier, &str); 9] = [
        (Modifier::BOLD, "1"),
        (Modifier::DIM, "2"),
        (Modifier::ITALIC, "3"),
        (Modifier::UNDERLINED, "4"),
        (Modifier::SLOW_BLINK, "5"),
        (Modifier::RAPID_BLINK, "6"),
        (Modifier::REVERSED, "7"),
        (Modifier::HIDDEN, "8"),
        (Modifier::CROSSED_OUT, "9"),
    ];
    for (modifier, code) in MODIFIERS {
        if cell.modifier.contains(modifier) {
            codes.push(code.into());
        }
    }
    codes.extend(colour(cell.fg, 0));
    codes.extend(colour(cell.bg, 10));
    format!("\x1b[{}m", codes.join(";"))
}

/// SGR parameters of a colour: foreground with `offset` 0, background 10.
fn colour(color: Color, offset: u8) -> Option<String> {
    let named = |base: u8| Some((base + offset).to_string());
    match color {
        Color::Reset => None,
        Color::Black => named(30),
        Color::Red => named(31),
        Color::Green => named(32),
        Color::Yellow => named(33),
        Color::Blue => named(34),
        Color::Magenta => named(35),
        Color::Cyan => named(36),
        Color::Gray => named(37),
        Color::DarkGray => named(90),
        Color::LightRed => named(91),
        Color::LightGreen => named(92),
        Color::LightYellow => named(93),
        Color::LightBlue => named(94),
        Color::LightMagenta => named(95),
        Color::LightCyan => named(96),
        Color::White => named(97),
        Color::Indexed(i) => Some(format!("{};5;{i}", 38 + offset)),
        Color::Rgb(r, g, b) => Some(format!("{};2;{r};{g};{b}", 38 + offset)),
    }
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
        assert_eq!(colour(Color::DarkGray, 0).unwrap(), "90");
        assert_eq!(colour(Color::Gray, 10).unwrap(), "47");
        assert_eq!(colour(Color::Indexed(208), 0).unwrap(), "38;5;208");
        assert_eq!(colour(Color::Rgb(1, 2, 3), 10).unwrap(), "48;2;1;2;3");
        assert_eq!(colour(Color::Reset, 0), None);
    }
}
