//! Width-aware text helpers. Widths are display columns (a Chinese
//! character takes two), never `len()` or a count of chars.

use ratatui::buffer::Buffer;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

fn char_width(c: char) -> usize {
    UnicodeWidthChar::width(c).unwrap_or(0)
}

/// Cut `s` to at most `max` columns, ending with `…` when cut.
pub fn truncate(s: &str, max: usize) -> String {
    if width(s) <= max {
        return s.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = char_width(c);
        if used + w > max - 1 {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// Break text into lines of at most `max` columns: at spaces for words,
/// anywhere between CJK characters, and inside a word only when it is
/// longer than a whole line.
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        let mut used = 0;
        for unit in units(paragraph) {
            let w = width(unit);
            if unit == " " {
                if used > 0 && used < max {
                    line.push(' ');
                    used += 1;
                }
                continue;
            }
            if used + w > max && used > 0 {
                // Chinese typography: a closing mark never starts a line, so
                // the character before it moves down with it.
                let mut carry = String::new();
                if is_closing_mark(unit)
                    && let Some(last) = line.pop()
                {
                    carry.push(last);
                }
                lines.push(line.trim_end().to_string());
                used = width(&carry);
                line = carry;
            }
            if w > max {
                for c in unit.chars() {
                    let cw = char_width(c);
                    if used + cw > max {
                        lines.push(std::mem::take(&mut line));
                        used = 0;
                    }
                    line.push(c);
                    used += cw;
                }
            } else {
                line.push_str(unit);
                used += w;
            }
        }
        lines.push(line.trim_end().to_string());
    }
    lines
}

fn is_closing_mark(unit: &str) -> bool {
    matches!(
        unit,
        "，" | "。" | "、" | "；" | "：" | "？" | "！" | "）" | "」" | "』" | "》" | "”" | "’"
    )
}

/// Words of ASCII, single spaces, and single wide characters.
fn units(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        let breakable = c == ' ' || !c.is_ascii();
        if breakable {
            if let Some(st) = start.take() {
                out.push(&s[st..i]);
            }
            out.push(&s[i..i + c.len_utf8()]);
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(st) = start {
        out.push(&s[st..]);
    }
    out
}

/// `prefix` then `text` wrapped to `max` columns, later lines indented to
/// line up under the text.
pub fn hanging(
    prefix: Vec<Span<'static>>,
    text: &str,
    style: Style,
    max: usize,
) -> Vec<Line<'static>> {
    let indent: usize = prefix.iter().map(|s| s.width()).sum();
    let room = max.saturating_sub(indent).max(8);
    let mut out = Vec::new();
    for (i, piece) in wrap(text, room).into_iter().enumerate() {
        let mut spans = if i == 0 {
            prefix.clone()
        } else {
            vec![Span::raw(" ".repeat(indent))]
        };
        spans.push(Span::styled(piece, style));
        out.push(Line::from(spans));
    }
    out
}

/// A one-line grid of cells, for drawing arrows and table columns at exact
/// columns. Wide characters take two cells; the second is a placeholder.
/// A cell is a `char`, not a `String`: rows are built for every visible step
/// of every frame, and an allocation per cell was most of their cost.
pub struct Row {
    cells: Vec<(char, Style)>,
}

/// The second cell of a wide character.
const WIDE_TAIL: char = '\0';

impl Row {
    pub fn new(width: usize, style: Style) -> Self {
        Row {
            cells: vec![(' ', style); width],
        }
    }

    pub fn width(&self) -> usize {
        self.cells.len()
    }

    /// Write `text` from column `x`, clipped at the end of the row. Returns
    /// the column after the last cell written.
    pub fn put(&mut self, x: usize, text: &str, style: Style) -> usize {
        let mut x = x;
        for c in text.chars() {
            let w = char_width(c);
            if w == 0 {
                continue;
            }
            if x + w > self.cells.len() {
                break;
            }
            // Overwriting half of a wide character blanks its other half.
            if self.cells[x].0 == WIDE_TAIL && x > 0 {
                self.cells[x - 1].0 = ' ';
            }
            if x + w < self.cells.len() && self.cells[x + w].0 == WIDE_TAIL {
                self.cells[x + w].0 = ' ';
            }
            self.cells[x] = (c, style);
            if w == 2 {
                self.cells[x + 1] = (WIDE_TAIL, style);
            }
            x += w;
        }
        x
    }

    /// Restyle cells without changing their text.
    pub fn style(&mut self, from: usize, to: usize, style: Style) {
        for cell in self.cells.iter_mut().take(to).skip(from) {
            cell.1 = cell.1.patch(style);
        }
    }

    /// Draw the row from (`x`, `y`), clipped to the buffer: the same cells
    /// as a `Paragraph` of `into_line`, without splitting the text into
    /// graphemes again (the row already holds one character per cell).
    pub fn render(&self, x: u16, y: u16, buf: &mut Buffer) {
        let area = buf.area;
        if y < area.top() || y >= area.bottom() {
            return;
        }
        for (i, &(c, style)) in self.cells.iter().enumerate() {
            let Some(cx) = u16::try_from(i)
                .ok()
                .and_then(|i| x.checked_add(i))
                .filter(|cx| *cx < area.right())
            else {
                break;
            };
            if c != WIDE_TAIL {
                buf[(cx, y)].set_char(c).set_style(style);
            }
        }
    }

    pub fn into_line(self) -> Line<'static> {
        let mut spans: Vec<Span<'static>> = Vec::new();
        let mut text = String::new();
        let mut current: Option<Style> = None;
        for (s, style) in self.cells {
            if current != Some(style) {
                if let Some(cs) = current
                    && !text.is_empty()
                {
                    spans.push(Span::styled(std::mem::take(&mut text), cs));
                }
                current = Some(style);
            }
            if s != WIDE_TAIL {
                text.push(s);
            }
        }
        if let Some(cs) = current
            && !text.is_empty()
        {
            spans.push(Span::styled(text, cs));
        }
        Line::from(spans)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_counts_chinese_as_two_columns() {
        let lines = wrap("模型只能看到主机发给它的文字", 10);
        assert!(lines.iter().all(|l| width(l) <= 10), "{lines:?}");
        assert_eq!(lines.concat(), "模型只能看到主机发给它的文字");
    }

    #[test]
    fn wrap_never_starts_a_line_with_a_closing_mark() {
        let lines = wrap("一二三四五，六七", 10);
        assert_eq!(lines, ["一二三四", "五，六七"]);
    }

    #[test]
    fn wrap_breaks_english_at_spaces() {
        assert_eq!(
            wrap("the host runs the tool", 12),
            ["the host", "runs the", "tool"]
        );
    }

    #[test]
    fn truncate_respects_wide_characters() {
        assert_eq!(truncate("配置文件", 5), "配置…");
        assert_eq!(truncate("abc", 5), "abc");
    }

    #[test]
    fn row_keeps_wide_characters_whole() {
        let mut row = Row::new(5, Style::new());
        row.put(0, "主机x", Style::new());
        assert_eq!(row.into_line().width(), 5);
        let mut row = Row::new(3, Style::new());
        row.put(2, "主", Style::new());
        assert_eq!(row.into_line().to_string(), "   ");
    }
}
