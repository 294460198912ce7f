//! The encoder's tests: its sequences (SGR, cursor moves, tab stops,
//! erasing, scrolling) on synthetic buffers, each replayed through a
//! terminal emulator (`crate::check`) where the screen is what counts.

use std::io::{self, Write};

use ratatui::backend::Backend;
use ratatui::buffer::Buffer;
use ratatui::layout::Position;
use ratatui::style::{Color, Modifier, Style};

use crate::check::{differences, replay_buffers, replay_scrolling, scroll_faults, scrolls};
use crate::look::{Pen, sgr};
use crate::moves::{advance, cup, relative, tab_stops};
use crate::{LeanBackend, reset_scroll_region};
/// Row `n` of a list, unlike its neighbours: a letter of its own, its
/// number and `more`.
fn distinct(n: usize, more: &str) -> String {
    let letter = char::from(b'a' + (n % 26) as u8).to_string();
    format!("{} {n:02} {more}", letter.repeat(12))
}

/// Eight rows of a list from item `first` on, beside a column that stays.
fn lines(first: u16) -> Buffer {
    let mut b = Buffer::empty(ratatui::layout::Rect::new(0, 0, 30, 8));
    for y in 0..8 {
        b.set_string(0, y, distinct(usize::from(first + y), ""), Style::new());
        b.set_string(24, y, "│ x", Style::new());
    }
    b
}

/// A list on the left that moves up a row and back, beside a column
/// that stays, in a background: the rows are scrolled, the row
/// scrolled in shows the default background where nothing is drawn
/// again, and the region is reset (a line feed on the bottom row
/// scrolls the whole screen again).
#[test]
fn scrolled_rows_leave_default_blanks_and_no_region() {
    let blue = Style::new().bg(Color::Blue);
    let list = |first: usize| {
        let mut b = Buffer::empty(ratatui::layout::Rect::new(0, 0, 40, 10));
        for y in 1..9u16 {
            let item = first + usize::from(y);
            if item < 12 {
                b.set_string(0, y, distinct(item, "中文 ─"), blue);
            }
            b.set_string(30, y, format!("│ {y} stay"), Style::new());
        }
        b
    };
    let frames = [list(0), list(1), list(3), list(4), list(1), list(0)]
        .into_iter()
        .enumerate()
        .map(|(i, b)| (format!("frame {}", i + 1), b));
    let bytes = replay_buffers(40, 10, frames);
    assert!(scrolls(&bytes), "{:?}", String::from_utf8_lossy(&bytes));
    let mut parser = vt100::Parser::new(10, 40, 0);
    parser.process(&bytes);
    let before: Vec<String> = parser.screen().rows(0, 40).collect();
    parser.process(b"\x1b[10;1H\n");
    let after: Vec<String> = parser.screen().rows(0, 40).collect();
    assert_eq!(after[..9], before[1..], "the screen did not scroll whole");
}

/// Before scrolling, the look set shows nothing on a blank: a
/// background (here blue), reversed, or a look not known is changed (on
/// a terminal with background colour erase the rows scrolled in would
/// take them on); a foreground and bold are kept, as for erasing.
#[test]
fn the_look_before_scrolling_shows_nothing_on_a_blank() {
    let pen = |fg, bg, modifier| Some(Pen { fg, bg, modifier });
    for (set, kept) in [
        (pen(Color::Reset, Color::Blue, Modifier::empty()), false),
        (pen(Color::Reset, Color::Reset, Modifier::REVERSED), false),
        (None, false),
        (pen(Color::Cyan, Color::Reset, Modifier::BOLD), true),
    ] {
        let mut backend = LeanBackend::with_size(Vec::new(), 30, 8);
        let empty = Buffer::empty(ratatui::layout::Rect::new(0, 0, 30, 8));
        let (a, b) = (lines(0), lines(1));
        backend.draw(empty.diff(&a).into_iter()).unwrap();
        // Something else set a look.
        if let Some(p) = set {
            sgr(backend.writer_mut(), None, p);
        }
        backend.pen = set;
        let start = backend.writer().len();
        backend.draw(a.diff(&b).into_iter()).unwrap();
        let bytes = backend.writer().clone();
        let frame = String::from_utf8_lossy(&bytes[start..]).into_owned();
        assert!(scrolls(&bytes), "{frame:?}");
        assert_eq!(scroll_faults(&bytes), Vec::<String>::new(), "{set:?}");
        let before_scroll = &frame[..frame.find("r\x1b[").unwrap()];
        assert_eq!(!before_scroll.contains('m'), kept, "{set:?}: {frame:?}");
        let mut parser = vt100::Parser::new(8, 30, 0);
        parser.process(&bytes);
        assert_eq!(differences(parser.screen(), &b), Vec::<String>::new());
    }
    // What the check finds.
    for (look, fault) in [
        ("1;36", false),
        ("0;7", true),
        ("44", true),
        ("0;48;5;4", true),
    ] {
        let bytes = format!("\x1b[m\x1b[{look}m\x1b[2;5r\x1b[S\x1b[r");
        assert_eq!(
            scroll_faults(bytes.as_bytes()).len(),
            usize::from(fault),
            "{look}"
        );
    }
    assert_eq!(
        scroll_faults(b"\x1b[1m\x1b[2;5r\x1b[S\x1b[r").len(),
        1,
        "not known"
    );
}

/// A frame cut off between setting a scroll region and resetting it:
/// the region is reset when the terminal is given back, and only then.
#[test]
fn a_region_left_by_a_failed_write_is_reset() {
    struct Cut(Vec<u8>);
    impl Write for Cut {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            match buf.windows(2).position(|w| w == b"S\x1b") {
                Some(at) => {
                    self.0.extend_from_slice(&buf[..=at]);
                    Err(io::Error::other("cut"))
                }
                _ => {
                    self.0.extend_from_slice(buf);
                    Ok(buf.len())
                }
            }
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut out = Vec::new();
    let mut backend = LeanBackend::with_size(Cut(Vec::new()), 30, 8);
    let empty = Buffer::empty(ratatui::layout::Rect::new(0, 0, 30, 8));
    let (a, b) = (lines(0), lines(1));
    backend.draw(empty.diff(&a).into_iter()).unwrap();
    assert!(backend.draw(a.diff(&b).into_iter()).is_err());
    let cut = backend.writer().0.clone();
    assert_eq!(
        scroll_faults(&cut),
        vec!["a scroll region left set".to_string()]
    );
    reset_scroll_region(&mut out).unwrap();
    assert_eq!(out, b"\x1b[r");
}

/// A buffer of `width` × `height` with `rows` written from the left
/// edge: (row, text, style) each.
fn buffer(width: u16, height: u16, rows: &[(u16, &str, Style)]) -> Buffer {
    let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, width, height));
    for &(y, text, style) in rows {
        buf.set_string(0, y, text, style);
    }
    buf
}

/// Blanks erased (ECH, EL) where the pen had another background, a
/// reversal or an underline, next to wide characters and coloured
/// blanks: the screen shows what was drawn, and the erasing sequences
/// were used (so this is their test, not the spaces').
#[test]
fn erased_blanks_take_the_right_look() {
    let red_on_blue = Style::new().fg(Color::Red).bg(Color::Blue);
    let green_bg = Style::new().bg(Color::Green);
    let reversed = Style::new()
        .fg(Color::Yellow)
        .add_modifier(Modifier::REVERSED);
    let underlined = Style::new().add_modifier(Modifier::UNDERLINED);
    let plain = Style::new();
    let bold_red = Style::new().fg(Color::Red).add_modifier(Modifier::BOLD);
    let full = "x".repeat(40);
    let wide = "中文字符".repeat(5);
    let looks = [
        (0, full.as_str(), red_on_blue),
        (1, &full, reversed),
        (2, &wide, bold_red),
        (3, &full, underlined),
        (4, &full, green_bg),
    ];
    let frames = [
        buffer(
            40,
            8,
            &[&looks[..], &[(5, "abc", plain), (6, &wide, plain)]].concat(),
        ),
        // Blanks over all of that, where the pen (blue background,
        // reversed, underlined, green background) would show on them.
        {
            let mut b = buffer(40, 8, &looks);
            for y in 0..5 {
                b.set_string(2, y, "a", red_on_blue);
                // Default blanks in the middle of the row and to its end.
                b.set_string(3, y, " ".repeat(12), plain);
                b.set_string(15, y, "b", reversed);
                b.set_string(16, y, " ".repeat(24), plain);
            }
            b.set_string(4, 6, " ".repeat(10), plain);
            b
        },
        // Coloured, reversed and underlined blanks over the erased
        // ones: written, not erased.
        buffer(
            40,
            8,
            &[
                (0, &" ".repeat(40), green_bg),
                (1, &" ".repeat(40), reversed),
                (2, &" ".repeat(40), underlined),
                (
                    3,
                    &format!("{}{}", "中".repeat(10), " ".repeat(20)),
                    bold_red,
                ),
            ],
        ),
        // And everything blank again.
        buffer(40, 8, &[]),
    ];
    let named = frames
        .into_iter()
        .enumerate()
        .map(|(i, b)| (format!("frame {}", i + 1), b));
    // Rows written, not scrolled: it is the erasing that is tested.
    let bytes = replay_scrolling(40, 8, named, false);
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.contains("\x1b[K"), "no EL in {text:?}");
    assert!(
        (1..40).any(|n| text.contains(&format!("\x1b[{n}X"))),
        "no ECH in {text:?}"
    );
}

/// Erasing over a wide character takes all of it: tmux (3.3) keeps the
/// right half of one whose left half alone was erased as half a
/// character, and the row's cells after it one column off (vt100 clears
/// both halves, so only the bytes tell).
#[test]
fn erasing_takes_a_wide_character_whole() {
    let frames = [
        buffer(20, 1, &[(0, "abcd中efgh", Style::new())]),
        buffer(20, 1, &[(0, "      efgh", Style::new())]),
    ];
    let named = frames
        .into_iter()
        .enumerate()
        .map(|(i, b)| (format!("frame {}", i + 1), b));
    let bytes = replay_buffers(20, 1, named);
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.contains("\x1b[6X"), "{text:?}");
    assert!(!text.contains("\x1b[5X"), "{text:?}");
}

/// The comparison finds an erase that leaves the wrong background:
/// cells erased while a blue background is set are blue, and the
/// buffer wants them default.
#[test]
fn a_wrong_background_from_erasing_is_found() {
    let mut parser = vt100::Parser::new(2, 10, 0);
    parser.process(b"abcdefghij\x1b[H\x1b[44m\x1b[5X\x1b[2;3H\x1b[K\x1b[m");
    let mut want = buffer(10, 2, &[(0, "     fghij", Style::new())]);
    assert_eq!(differences(parser.screen(), &want).len(), 5 + 8);
    // What the screen does show: erased cells ("" in vt100) as blue
    // blanks.
    let blue = Style::new().bg(Color::Blue);
    want.set_style(ratatui::layout::Rect::new(0, 0, 5, 1), blue);
    want.set_style(ratatui::layout::Rect::new(2, 1, 8, 1), blue);
    assert_eq!(differences(parser.screen(), &want), Vec::<String>::new());
}

mod random {
    use super::*;
    use proptest::prelude::*;

    /// A row of runs of text, each in one look.
    fn runs() -> impl Strategy<Value = Vec<(String, Style)>> {
        let symbol = prop::sample::select(vec![" ", " ", " ", "a", "─", "中", "│"]);
        let text = prop::collection::vec(symbol, 1..12).prop_map(|s| s.concat());
        let colour = prop::sample::select(vec![Color::Reset, Color::Red, Color::Blue]);
        let modifier = prop::sample::select(vec![
            Modifier::empty(),
            Modifier::BOLD,
            Modifier::REVERSED,
            Modifier::UNDERLINED,
        ]);
        let style = (colour.clone(), colour, modifier)
            .prop_map(|(fg, bg, m)| Style::new().fg(fg).bg(bg).add_modifier(m));
        prop::collection::vec((text, style), 0..6)
    }

    fn frame() -> impl Strategy<Value = Vec<(u16, Vec<(String, Style)>)>> {
        prop::collection::vec((0u16..6, runs()), 0..6)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// Frames of blanks, letters, box drawing and wide characters in
        /// a few looks, one over the other: each shows as drawn.
        #[test]
        fn random_frames_show_as_drawn(frames in prop::collection::vec(frame(), 1..6)) {
            let buffers = frames.iter().enumerate().map(|(i, rows)| {
                let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, 30, 6));
                for (y, runs) in rows {
                    let mut x = 0;
                    for (text, style) in runs {
                        x = buf.set_stringn(x, *y, text, 30usize.saturating_sub(usize::from(x)), *style).0;
                    }
                }
                (format!("frame {}", i + 1), buf)
            });
            replay_buffers(30, 6, buffers);
        }
    }
}

/// A blank that the look set does not fit takes the look of the next
/// cell when that fits it, and an unchanged blank on the way is written
/// again in that look rather than stepped over: one SGR, not two.
#[test]
fn a_blank_takes_the_look_of_what_follows() {
    let reversed = Style::new().red().reversed();
    let cyan = Style::new().cyan();
    let row = |a: &str, b: &str| {
        let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, 12, 1));
        buf.set_string(0, 0, a, reversed);
        buf.set_string(3, 0, b, cyan);
        buf
    };
    let mut backend = LeanBackend::with_size(Vec::new(), 12, 1);
    let empty = Buffer::empty(ratatui::layout::Rect::new(0, 0, 12, 1));
    let (first, second) = (row("AB", "x"), row("CD", "y"));
    backend.draw(empty.diff(&first).into_iter()).unwrap();
    let drawn = backend.writer().len();
    backend.draw(first.diff(&second).into_iter()).unwrap();
    let bytes = backend.writer().clone();
    assert_eq!(&bytes[drawn..], b"\r\x1b[7;31mCD\x1b[0;36m y");
    let mut parser = vt100::Parser::new(1, 12, 0);
    parser.process(&bytes);
    assert_eq!(differences(parser.screen(), &second), Vec::<String>::new());
}

/// Cursor moves by HT rely on tab stops every 8 columns: they are set
/// with the first frame, and again after the screen is cleared whole
/// (a resize, or a suspend in which the shell may have set others).
#[test]
fn tab_stops_are_set_before_they_are_relied_on() {
    let sets = |bytes: &[u8]| bytes.windows(2).any(|w| w == b"\x1bH");
    let mut backend = LeanBackend::with_size(Vec::new(), 20, 2);
    let empty = Buffer::empty(ratatui::layout::Rect::new(0, 0, 20, 2));
    let ends = |l: &str, r: &str| {
        let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, 20, 2));
        buf.set_string(0, 0, l, Style::new());
        buf.set_string(17, 1, r, Style::new());
        buf
    };
    let a = ends("a", "b");
    backend.draw(empty.diff(&a).into_iter()).unwrap();
    assert!(backend.writer().starts_with(&tab_stops(20)));
    backend.writer_mut().clear();
    let b = ends("c", "d");
    backend.draw(a.diff(&b).into_iter()).unwrap();
    assert!(!sets(backend.writer()));
    backend.clear().unwrap();
    backend.writer_mut().clear();
    backend.draw(empty.diff(&b).into_iter()).unwrap();
    assert!(backend.writer().starts_with(&tab_stops(20)));
}

#[test]
fn sgr_says_only_what_changed() {
    let pen = |fg, bg, modifier| Pen { fg, bg, modifier };
    let mut out = Vec::new();
    let plain = pen(Color::Reset, Color::Reset, Modifier::empty());
    sgr(
        &mut out,
        Some(plain),
        pen(Color::Red, Color::Reset, Modifier::BOLD),
    );
    assert_eq!(out, b"\x1b[1;31m");
    out.clear();
    let from = pen(Color::Red, Color::Blue, Modifier::BOLD | Modifier::DIM);
    sgr(
        &mut out,
        Some(from),
        pen(Color::Red, Color::Blue, Modifier::DIM),
    );
    assert_eq!(out, b"\x1b[22;2m");
    out.clear();
    sgr(
        &mut out,
        None,
        pen(Color::Indexed(200), Color::Rgb(1, 2, 3), Modifier::REVERSED),
    );
    assert_eq!(out, b"\x1b[0;7;38;5;200;48;2;1;2;3m");
    out.clear();
    sgr(&mut out, Some(from), plain);
    assert_eq!(out, b"\x1b[m");
}

#[test]
fn the_cursor_moves_by_the_shortest_way() {
    let at = |x, y| Position { x, y };
    assert_eq!(relative(at(5, 3), 0, 3, 80).unwrap(), b"\r");
    assert_eq!(relative(at(5, 3), 6, 3, 80).unwrap(), b"\x1b[C");
    assert_eq!(relative(at(5, 3), 9, 3, 80).unwrap(), b"\x1b[4C");
    assert_eq!(relative(at(5, 3), 0, 4, 80).unwrap(), b"\r\n");
    assert_eq!(relative(at(5, 3), 6, 5, 80).unwrap(), b"\x1b[2B\x1b[C");
    assert_eq!(relative(at(5, 3), 5, 1, 80).unwrap(), b"\x1b[2A");
    assert_eq!(relative(at(5, 3), 2, 4, 80).unwrap(), b"\x1b[B\x08\x08\x08");
    assert_eq!(relative(at(9, 3), 8, 4, 80).unwrap(), b"\r\n\t");
    // By tab stops (every 8 columns), then on or back by backspaces.
    assert_eq!(relative(at(5, 3), 16, 3, 80).unwrap(), b"\t\t");
    assert_eq!(relative(at(5, 3), 23, 3, 80).unwrap(), b"\t\t\t\x08");
    assert_eq!(relative(at(50, 3), 72, 4, 80).unwrap(), b"\x1b[B\t\t\t");
    assert_eq!(relative(at(9, 3), 6, 3, 80).unwrap(), b"\x08\x08\x08");
    // No tab stop at the right edge to come back from.
    assert_eq!(relative(at(73, 3), 79, 3, 80).unwrap(), b"\x1b[6C");
    assert_eq!(relative(at(73, 3), 79, 3, 81).unwrap(), b"\t\x08");
    let stops = String::from_utf8(tab_stops(20)).unwrap();
    assert_eq!(stops.matches("\x1b[C").count(), 19);
    assert_eq!(stops.matches("\x1bH").count(), 2);
    assert_eq!(stops.matches("\x1b[g").count(), 17);
    assert!(stops.starts_with("\r\x1b[C\x1b[g"));
    assert!(stops.contains("\x1b[C\x1b[g\x1b[C\x1bH\x1b[C\x1b[g"));
    assert_eq!(cup(0, 0), b"\x1b[H");
    assert_eq!(cup(9, 19), b"\x1b[20;10H");
    // A wide character leaves the cursor two cells on; Hangul jamo
    // measured as one syllable leave it unknown.
    assert_eq!(advance(3, 1, "中", 80), Some(at(5, 1)));
    assert_eq!(advance(78, 1, "中", 80), None);
    assert_eq!(advance(3, 1, "\u{1100}\u{1161}", 80), Some(at(5, 1)));
}
