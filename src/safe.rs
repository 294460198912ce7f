//! Untrusted text made safe for a terminal, an SVG or a JSON string meant
//! for a terminal. Text from a scenario, a transcript or a file name could
//! otherwise move the cursor, change the terminal's title (`ESC ] 0 ; … BEL`),
//! reverse the order of what follows (U+202E), or be drawn narrower or wider
//! than the program measured it (a flag, an emoji joined by U+200D), which
//! leaves stray cells on screen.
//!
//! Two functions, one rule of what is unsafe (`is_unsafe`):
//! - [`escape`]: one line for a message (a file name, an error): every
//!   unsafe character, line breaks included, written as `\n`, `\u{1b}`.
//! - [`for_screen`]: text to draw (scenario texts, tool results): line
//!   breaks kept, unsafe characters escaped the same way, and the sequences
//!   whose width terminals disagree on replaced visibly.

use std::borrow::Cow;

/// A character that acts on a terminal instead of being drawn, that
/// reorders what is drawn, or that is drawn as nothing and so hides what a
/// text says: C0 and C1 controls (ESC, BEL, CR, TAB, ...), DEL, the
/// bidirectional embeddings, overrides, isolates and marks (U+200E, U+200F,
/// U+061C), zero-width spaces and non-joiners (U+200B, U+200C, U+2060,
/// U+FEFF), invisible operators (U+2061–U+2064), line and paragraph
/// separators (U+2028, U+2029) and interlinear annotations (U+FFF9–U+FFFB).
/// The zero-width joiner is left to `for_screen`, which splits what it joins.
pub fn is_unsafe(c: char) -> bool {
    c.is_control() // C0, DEL and C1
        || ('\u{202A}'..='\u{202E}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
        || matches!(c,
            '\u{200B}' | '\u{200C}' | '\u{200E}' | '\u{200F}' | '\u{061C}'
            | '\u{2028}' | '\u{2029}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}')
}

/// A character whose width depends on the terminal: it joins, changes or
/// pairs with its neighbours into one glyph (ZWJ sequences, variation
/// selectors, skin-tone modifiers, tag sequences, flags).
fn width_varies(c: char) -> bool {
    matches!(c,
        '\u{200D}'                     // zero-width joiner
        | '\u{FE0E}' | '\u{FE0F}'      // text / emoji presentation selectors
        | '\u{1F3FB}'..='\u{1F3FF}'    // skin-tone modifiers
        | '\u{E0000}'..='\u{E007F}'    // tags (subdivision flags)
    ) || is_regional_indicator(c)
}

fn is_regional_indicator(c: char) -> bool {
    ('\u{1F1E6}'..='\u{1F1FF}').contains(&c)
}

/// One line, safe to print: each unsafe character (line breaks and tabs
/// too) escaped visibly, Rust-style (`\n`, `\t`, `\u{1b}`, `\u{202e}`).
/// Borrowed when there is nothing to escape.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_escaped(&mut out, c);
    }
    Cow::Owned(out)
}

fn push_escaped(out: &mut String, c: char) {
    if is_unsafe(c) {
        out.extend(c.escape_default());
    } else {
        out.push(c);
    }
}

/// Text to draw on a screen (or in a figure), safe and measured as the
/// terminal will draw it: line breaks kept; unsafe characters escaped as by
/// [`escape`]; a joiner (U+200D) dropped, so a joined emoji shows as its
/// parts; variation selectors, skin-tone modifiers and tags dropped; a flag
/// (a pair of regional indicators) written as its letters in brackets,
/// `[NL]`. Borrowed when nothing changes.
pub fn for_screen(text: &str) -> Cow<'_, str> {
    // Printable ASCII and line breaks are never unsafe and never vary in
    // width: most tool output is only that, and a byte test is much faster
    // than asking both questions of every character.
    if plain(text) {
        return Cow::Borrowed(text);
    }
    if !text
        .chars()
        .any(|c| (is_unsafe(c) && c != '\n') || width_varies(c))
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\n' {
            out.push(c);
        } else if is_regional_indicator(c) {
            out.push('[');
            out.push(indicator_letter(c));
            if let Some(second) = chars.next_if(|&n| is_regional_indicator(n)) {
                out.push(indicator_letter(second));
            }
            out.push(']');
        } else if !width_varies(c) {
            push_escaped(&mut out, c);
        }
    }
    Cow::Owned(out)
}

/// Only printable ASCII and line breaks: text `for_screen` keeps as it
/// is, told by bytes. In blocks, each tested whole (a test the compiler
/// does many bytes at a time), so a long tool output is read quickly.
pub fn plain(text: &str) -> bool {
    let ok = |b: &u8| *b == b'\n' || (b' '..=b'~').contains(b);
    let mut blocks = text.as_bytes().chunks_exact(64);
    blocks
        .by_ref()
        .all(|block| block.iter().fold(true, |all, b| all & ok(b)))
        && blocks.remainder().iter().all(ok)
}

/// U+1F1E6 REGIONAL INDICATOR SYMBOL LETTER A → 'A', and so on to Z.
fn indicator_letter(c: char) -> char {
    char::from(b'A' + (u32::from(c) - 0x1F1E6) as u8)
}

/// A name for files from a file's name, without its extension
/// (`file_part` of the stem): a transcript's run is named so.
pub fn stem_part(file: &str) -> String {
    let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
    file_part(stem)
}

/// A part of a file name made from outside text (a file's, a folder's): ASCII letters, digits, '-' and '_', not starting
/// with '-' (`rm *` would read `-rf.zh.step-01.svg` as an option), at most
/// 64 characters. A name that had to change (`résumé`, `a b`, `a.b`,
/// `-rf`) keeps what it can and gains `+` and a short hash of the whole
/// name: `+` is never kept, so a changed name never equals one that was
/// kept (`run-207a6e72` and `run-é` stay apart), and two changed names
/// differ by their hashes.
pub fn file_part(name: &str) -> String {
    use sha2::{Digest, Sha256};
    let kept = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    let plain = !name.is_empty()
        && name.chars().count() <= 64
        && !name.starts_with('-')
        && name.chars().all(kept);
    if plain {
        return name.to_string();
    }
    let part: String = name
        .chars()
        .map(|c| if kept(c) { c } else { '-' })
        .take(64)
        .collect();
    let part = match part.trim_matches('-') {
        "" => "file",
        part => part,
    };
    let hash = Sha256::digest(name.as_bytes());
    let hex: String = hash[..4].iter().map(|b| format!("{b:02x}")).collect();
    format!("{part}+{hex}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_width::UnicodeWidthStr;

    #[test]
    fn escape_writes_every_control_visibly() {
        assert_eq!(escape("plain 文件.json"), "plain 文件.json");
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));
        assert_eq!(escape("a\u{1b}]0;owned\u{7}b"), "a\\u{1b}]0;owned\\u{7}b");
        assert_eq!(escape("x\ny\tz\r"), "x\\ny\\tz\\r");
        assert_eq!(escape("\u{7f}\u{9b}31m"), "\\u{7f}\\u{9b}31m");
        assert_eq!(escape("abc\u{202e}fdp.exe"), "abc\\u{202e}fdp.exe");
        assert_eq!(escape("\u{2066}x\u{2069}"), "\\u{2066}x\\u{2069}");
        assert_eq!(escape("a\u{200b}b\u{feff}c"), "a\\u{200b}b\\u{feff}c");
        assert_eq!(escape("\u{200f}\u{2028}"), "\\u{200f}\\u{2028}");
    }

    #[test]
    fn escaped_text_holds_no_unsafe_character() {
        let all: String = (0..0x250u32)
            .chain(0x2000..0x2100)
            .filter_map(char::from_u32)
            .collect();
        assert!(!escape(&all).chars().any(is_unsafe));
        assert!(!for_screen(&all).chars().any(|c| c != '\n' && is_unsafe(c)));
    }

    #[test]
    fn for_screen_keeps_line_breaks_and_escapes_the_rest() {
        assert_eq!(for_screen("line 1\nline 2"), "line 1\nline 2");
        assert_eq!(for_screen("a\tb\u{1b}[2J"), "a\\tb\\u{1b}[2J");
    }

    /// The byte test that lets plain ASCII through untouched agrees with
    /// the rule: every ASCII character it lets through is neither unsafe
    /// nor of varying width, and every other one is still escaped.
    #[test]
    fn plain_ascii_is_borrowed_and_every_other_ascii_byte_still_escaped() {
        let plain: String = (b' '..=b'~').map(char::from).chain(['\n']).collect();
        assert!(matches!(for_screen(&plain), Cow::Borrowed(_)));
        assert!(
            !plain
                .chars()
                .any(|c| (c != '\n' && is_unsafe(c)) || width_varies(c))
        );
        for c in (0u8..0x80).map(char::from).filter(|c| !plain.contains(*c)) {
            let text = format!("ok{c}ok");
            assert_eq!(
                for_screen(&text),
                format!("ok{}ok", c.escape_default()),
                "{c:?}"
            );
        }
    }

    /// Read in blocks, `plain` still sees an unsafe byte wherever it
    /// falls: first or last in a block, or in the bytes after the last.
    #[test]
    fn plain_sees_a_byte_anywhere_in_a_long_text() {
        for len in [1, 63, 64, 65, 128, 130, 200] {
            assert!(plain(&"a\n".repeat(len)[..len]));
            for at in 0..len {
                let mut text = vec![b'a'; len];
                text[at] = 0x1b;
                let text = String::from_utf8(text).unwrap();
                assert!(!plain(&text), "ESC at {at} of {len}");
                assert!(matches!(for_screen(&text), Cow::Owned(_)));
            }
        }
    }

    #[test]
    fn for_screen_splits_joined_emoji_and_spells_flags() {
        // Family: man ZWJ woman ZWJ girl → the three people.
        assert_eq!(
            for_screen("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"),
            "\u{1F468}\u{1F469}\u{1F467}"
        );
        // Heart with VS16, thumbs up with a skin tone.
        assert_eq!(
            for_screen("\u{2764}\u{FE0F}\u{1F44D}\u{1F3FD}"),
            "\u{2764}\u{1F44D}"
        );
        // The Netherlands' flag, then a lone indicator.
        assert_eq!(for_screen("\u{1F1F3}\u{1F1F1} \u{1F1F3}"), "[NL] [N]");
        // Scotland: black flag + tags + cancel tag.
        assert_eq!(
            for_screen("\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"),
            "\u{1F3F4}"
        );
    }

    #[test]
    fn what_is_left_is_measured_as_the_sum_of_its_characters() {
        // The width the program assumes (unicode-width of the whole string)
        // is the width of its characters one by one: no sequence for a
        // terminal to draw differently.
        let text = "\u{1F468}\u{200D}\u{1F469} \u{2764}\u{FE0F} \u{1F1E8}\u{1F1F3} 中文";
        let safe = for_screen(text);
        let one_by_one: usize = safe
            .chars()
            .map(|c| unicode_width::UnicodeWidthChar::width(c).unwrap_or(0))
            .sum();
        assert_eq!(safe.width(), one_by_one, "{safe}");
    }

    #[test]
    fn a_changed_name_never_equals_a_kept_one() {
        assert_eq!(file_part("run-207a6e72"), "run-207a6e72");
        let accented = file_part("run-é");
        assert!(accented.starts_with("run+"), "{accented}");
        assert_ne!(accented, file_part("run-207a6e72"));
        // Two names that read alike once made safe stay apart.
        assert_ne!(file_part("a b"), file_part("a-b"));
        assert_ne!(file_part("a b"), file_part("a.b"));
        assert_ne!(file_part("-rf"), file_part("rf"));
        assert!(!file_part("-rf").starts_with('-'));
        assert!(
            file_part("会话").starts_with("file+"),
            "{}",
            file_part("会话")
        );
        let long = "a".repeat(70);
        assert_ne!(file_part(&long), file_part(&"a".repeat(71)));
    }
}
