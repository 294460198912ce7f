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

/// How the wrapper breaks lines: at the break opportunities of the Unicode
/// line-breaking algorithm (UAX #14), so a Latin word is never split, a
/// closing mark never starts a line and an opening one never ends it; a
/// word longer than a whole line is broken only then. No hyphens are added.
fn options(max: usize) -> textwrap::Options<'static> {
    textwrap::Options::new(max.max(1))
        .word_separator(textwrap::WordSeparator::UnicodeBreakProperties)
        .word_splitter(textwrap::WordSplitter::NoHyphenation)
        .break_words(true)
}

/// Cut `s` to at most `max` columns, ending with `…` when cut. The cut
/// falls at a line-break opportunity, so the text before `…` ends with a
/// whole word; only a first word wider than `max` is cut inside.
pub fn truncate(s: &str, max: usize) -> String {
    if width(s) <= max {
        return s.to_string();
    }
    if max <= 1 {
        return "…".repeat(max);
    }
    let room = max - 1;
    let latin = |t: &str| t.chars().last().is_some_and(|c| c.is_ascii() && c != ' ');
    let first_line = |room: usize| {
        textwrap::wrap(s, options(room.max(1)).break_words(false))
            .into_iter()
            .next()
            .map(|l| l.into_owned())
            .filter(|l| !l.is_empty() && width(l) <= room)
    };
    // After a Latin word the mark takes a space before it: when that space
    // does not fit, one word less.
    let kept = match first_line(room) {
        Some(l) if latin(&l) && width(&l) == room => first_line(room - 1),
        other => other,
    }
    .unwrap_or_else(|| cut_chars(s, room));
    let kept = cjk_word_end(kept, s);
    if latin(&kept) && width(&kept) < room {
        format!("{kept} …")
    } else {
        format!("{kept}…")
    }
}

/// `truncate`, but a Latin first word too wide for `max` is not cut
/// inside: `…` alone stands for the text.
pub fn truncate_words(s: &str, max: usize) -> String {
    let first = s.split_whitespace().next().map_or(0, width);
    if s.starts_with(|c: char| c.is_ascii()) && first + 2 > max {
        return "…".repeat(max.min(1));
    }
    truncate(s, max)
}

/// Between two Chinese characters any break is allowed, so a cut may split
/// a word (现为 → 现…). Back up to the nearest punctuation within a
/// few columns, where there is one; else keep the cut.
fn cjk_word_end(kept: String, s: &str) -> String {
    const BACK: usize = 8;
    let han = |c: char| matches!(c, '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}');
    let Some(rest) = s.strip_prefix(kept.as_str()) else {
        return kept;
    };
    let split = kept.chars().last().is_some_and(han) && rest.chars().next().is_some_and(han);
    if !split {
        return kept;
    }
    let mut cols = 0;
    for (i, c) in kept.char_indices().rev() {
        cols += char_width(c);
        if cols > BACK {
            break;
        }
        if "，。、：；！？）」』".contains(c) {
            return kept[..i + c.len_utf8()].to_string();
        }
        if "（「『".contains(c) {
            let before = kept[..i].trim_end();
            if !before.is_empty() {
                return before.to_string();
            }
        }
    }
    kept
}

/// The start of `s` that can fill at most `lines` lines of `max` columns,
/// and whether anything was left out: wrapping a whole 10 KB tool output
/// to show three lines of it would cost more than the frame.
pub fn head(s: &str, lines: usize, max: usize) -> (&str, bool) {
    let budget = lines.saturating_mul(max.max(1)).saturating_add(max);
    let mut used = 0;
    for (i, c) in s.char_indices() {
        used += char_width(c).max(1);
        if c == '\n' {
            used += max;
        }
        if used > budget {
            return (&s[..i], true);
        }
    }
    (s, false)
}

/// The first characters of `s` that fit in `max` columns.
fn cut_chars(s: &str, max: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = char_width(c);
        if used + w > max {
            break;
        }
        out.push(c);
        used += w;
    }
    out
}

/// A no-break space: the catalogue writes it where a key and its words
/// must stay on one line (`(f shows all)`); `wrap` also puts it around
/// `=` in a setting (`retry = 3`), whose two halves mean nothing apart.
/// Drawn as a plain space.
const GLUE: char = '\u{a0}';

/// Break text into lines of at most `max` columns, by the Unicode
/// line-breaking rules. Each `\n` starts a new line. A path (`conf/app.toml`)
/// stays whole when it fits on a line: the rules would break after a slash.
/// A setting (`retries = 3`) and words joined by a no-break space stay whole
/// too, when they fit.
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    let glued: Vec<String> = text
        .split('\n')
        .map(|paragraph| glue_settings(paragraph, max))
        .collect();
    wrap_loose(&glued.join("\n"), max)
        .into_iter()
        .map(|l| l.replace(GLUE, " "))
        .collect()
}

/// `key = value` with no-break spaces around the `=`, where the setting
/// fits on one line (a wider one is left to break at its spaces).
fn glue_settings(paragraph: &str, max: usize) -> String {
    if !paragraph.contains(" = ") {
        return paragraph.to_string();
    }
    let words: Vec<&str> = paragraph.split(' ').collect();
    let mut out = String::with_capacity(paragraph.len());
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            let setting = |eq: usize| {
                words[eq] == "="
                    && eq > 0
                    && eq + 1 < words.len()
                    && width(words[eq - 1]) + width(words[eq + 1]) + 2 <= max
            };
            // The space before `=` or after it, in a setting that fits.
            let glue = setting(i) || setting(i - 1);
            out.push(if glue { GLUE } else { ' ' });
        }
        out.push_str(w);
    }
    out
}

/// Where a word longer than a line is broken inside (an id, a hash), the
/// piece ends with this mark, so the cut never passes for the word's end.
pub const BROKEN: char = '↩';

fn wrap_loose(text: &str, max: usize) -> Vec<String> {
    text.split('\n')
        .flat_map(|paragraph| {
            // A word wider than the line is broken, with a mark.
            if max > 2 && longest_word(paragraph) > max {
                return wrap_marking(paragraph, max);
            }
            let paths_fit = paragraph
                .split_whitespace()
                .filter(|w| w.contains('/'))
                .all(|w| width(w) <= max);
            let lines = if paths_fit && paragraph.contains('/') {
                let joined = paragraph.replace('/', "/\u{2060}");
                textwrap::wrap(&joined, options(max))
                    .into_iter()
                    .map(|l| l.replace('\u{2060}', ""))
                    .collect()
            } else {
                textwrap::wrap(paragraph, options(max))
                    .into_iter()
                    .map(|l| l.into_owned())
                    .collect::<Vec<_>>()
            };
            if lines.is_empty() {
                vec![String::new()]
            } else {
                lines
            }
        })
        .collect()
}

/// The widest word of `paragraph` that the wrapper can break only inside
/// (a word with Chinese in it breaks anywhere: not counted).
fn longest_word(paragraph: &str) -> usize {
    paragraph
        .split_whitespace()
        .filter(|w| w.chars().all(|c| char_width(c) < 2))
        .map(width)
        .max()
        .unwrap_or(0)
}

/// `paragraph` wrapped to `max` columns, a line at a time: where a line
/// ends inside a word (a break the wrapper had to make), its last
/// character goes to the next line and `BROKEN` takes its place. Lines
/// that break where the text may break are as `wrap` makes them. A very
/// long paragraph (wrapped again from each line on) is wrapped a column
/// narrower and marked after.
fn wrap_marking(paragraph: &str, max: usize) -> Vec<String> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let mut out = Vec::new();
    let mut rest = paragraph;
    while !rest.is_empty() {
        let narrow = rest.len() > 4096;
        let lines = textwrap::wrap(rest, options(if narrow { max - 1 } else { max }));
        let Some(first) = lines.first().map(|l| l.to_string()) else {
            break;
        };
        let (Some(at), false) = (rest.find(first.as_str()), narrow || lines.len() == 1) else {
            // The last line, or too long to go a line at a time.
            out.extend(lines.iter().map(|l| l.to_string()));
            if narrow {
                let end = out.len();
                for k in 0..end.saturating_sub(1) {
                    if out[k].ends_with(word) && out[k + 1].starts_with(word) {
                        out[k].push(BROKEN);
                    }
                }
            }
            break;
        };
        let end = at + first.len();
        let next = rest[end..].chars().next();
        let last = first.chars().last().unwrap_or(' ');
        if first.chars().count() > 1 && word(last) && next.is_some_and(word) {
            let keep = first.len() - last.len_utf8();
            out.push(format!("{}{BROKEN}", &first[..keep]));
            rest = &rest[at + keep..];
        } else {
            out.push(first);
            rest = rest[end..].trim_start_matches(' ');
        }
    }
    if out.is_empty() {
        out.push(String::new());
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

/// An id cut in its middle to `max` columns (`fc_cb4cc…c575`): its start
/// and end identify it; the wire view (`w`) shows it whole.
pub fn middle(id: &str, max: usize) -> String {
    if width(id) <= max || max < 8 {
        return id.to_string();
    }
    let chars: Vec<char> = id.chars().collect();
    let tail = 4.min(chars.len());
    let head = max.saturating_sub(tail + 1);
    let start: String = chars[..head.min(chars.len())].iter().collect();
    let end: String = chars[chars.len() - tail..].iter().collect();
    format!("{start}…{end}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fits(lines: &[String], max: usize) {
        assert!(lines.iter().all(|l| width(l) <= max), "{lines:?}");
    }

    #[test]
    fn a_setting_and_glued_words_stay_on_one_line_when_they_fit() {
        // Cut between `retry =` and `3`, the lesson (retry vs retries) is lost.
        for max in 12..40 {
            let lines = wrap("\"find\": \"retry = 3\", \"replace\": \"retries = 3\"", max);
            fits(&lines, max);
            assert!(
                lines
                    .iter()
                    .all(|l| !l.ends_with('=') && !l.starts_with('=')),
                "{max}: {lines:?}"
            );
            assert!(lines.iter().all(|l| !l.contains('\u{a0}')), "{lines:?}");
        }
        // A setting wider than the line still breaks, at its spaces.
        let lines = wrap("log_dir = /var/log/weather", 12);
        fits(&lines, 12);
        assert_eq!(lines[0], "log_dir = /", "{lines:?}");
        // A no-break space from the catalogue keeps a key with its words.
        let lines = wrap("folded: 219 chars in all (f\u{a0}shows\u{a0}all)", 28);
        assert_eq!(lines, ["folded: 219 chars in all", "(f shows all)"]);
    }

    #[test]
    fn wrap_counts_chinese_as_two_columns() {
        let lines = wrap("模型只能看到主机发给它的文字", 10);
        fits(&lines, 10);
        assert_eq!(lines.concat(), "模型只能看到主机发给它的文字");
    }

    #[test]
    fn wrap_never_starts_a_line_with_a_closing_mark() {
        let lines = wrap("一二三四五，六七", 10);
        assert_eq!(lines, ["一二三四", "五，六七"]);
        for max in 8..30 {
            for line in wrap("主机拒绝了（路径在工作区之外），结果发回给模型。", max)
            {
                assert!(!line.starts_with(['，', '）', '。']), "{max}: {line}");
                assert!(!line.ends_with('（'), "{max}: {line}");
            }
        }
    }

    #[test]
    fn wrap_breaks_english_at_spaces() {
        assert_eq!(
            wrap("the host runs the tool", 12),
            ["the host", "runs the", "tool"]
        );
    }

    #[test]
    fn wrap_keeps_accented_words_whole() {
        for max in 6..16 {
            let lines = wrap("a naïve café résumé", max);
            fits(&lines, max);
            for word in ["naïve", "café", "résumé"] {
                assert!(lines.iter().any(|l| l.contains(word)), "{max}: {lines:?}");
            }
        }
    }

    #[test]
    fn wrap_breaks_a_long_path_only_where_it_must() {
        let path = "deploy/production/settings/database.env";
        let lines = wrap(&format!("read {path} now"), 20);
        fits(&lines, 20);
        assert_eq!(lines.concat().replace(' ', ""), format!("read{path}now"));
        // Never inside a word of the path when a break after a slash fits.
        for line in &lines {
            assert!(
                !line.ends_with("produc") && !line.ends_with("datab"),
                "{lines:?}"
            );
        }
    }

    #[test]
    fn wrap_keeps_a_path_whole_when_it_fits() {
        let lines = wrap("Disk: conf/config.txt, src/index.ts", 20);
        fits(&lines, 20);
        assert!(
            lines.iter().any(|l| l.contains("conf/config.txt")),
            "{lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.contains("src/index.ts")),
            "{lines:?}"
        );
    }

    #[test]
    fn wrap_json_arguments_between_fields() {
        let json = r#"{"path": "app.toml", "find": "retries = 0", "replace": "retries = 3"}"#;
        let lines = wrap(json, 30);
        fits(&lines, 30);
        // Values stay whole: no line ends inside a quoted word.
        for word in ["\"app.toml\",", "\"retries", "\"replace\":"] {
            assert!(lines.iter().any(|l| l.contains(word)), "{word}: {lines:?}");
        }
    }

    #[test]
    fn a_chinese_cut_backs_up_to_punctuation_nearby() {
        // 现为 would be split: the cut moves before the bracket.
        assert_eq!(
            truncate("已写入 VERSION（现为 v2）", 18),
            "已写入 VERSION …"
        );
        // No punctuation near: the cut stays where it fell.
        assert_eq!(truncate("一二三四五六七八九十一二三四五六", 9), "一二三四…");
        // After punctuation, the cut keeps it.
        assert_eq!(truncate("主机拒绝：参数不是合法的对象", 14), "主机拒绝：…");
    }

    #[test]
    fn truncate_cuts_between_words() {
        assert_eq!(
            truncate("error: no such file: config.yml", 22),
            "error: no such file: …"
        );
        assert_eq!(truncate("PORT=8080 TIMEOUT=5", 15), "PORT=8080 …");
        let cut = truncate("The result for call_1 comes back", 20);
        assert!(cut.ends_with('…') && width(&cut) <= 20, "{cut}");
        assert!("The result for call_1 comes back".starts_with(cut.trim_end_matches(['…', ' '])));
        assert!(cut.trim_end_matches(['…', ' ']).ends_with("for"), "{cut}");
    }

    #[test]
    fn truncate_respects_wide_characters() {
        assert_eq!(truncate("配置文件", 5), "配置…");
        assert_eq!(truncate("abc", 5), "abc");
        assert_eq!(truncate("abc", 0), "");
    }

    #[test]
    fn truncate_cuts_inside_only_a_word_wider_than_the_room() {
        assert_eq!(truncate("toolu_01ABCDEFGHIJ", 10), "toolu_01A…");
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
