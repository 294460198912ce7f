//! Checks for tests (the `check` feature): frames drawn through a
//! `LeanBackend` and replayed through a terminal emulator (the `vt100`
//! crate), the screen it shows compared cell by cell with the buffer
//! ratatui drew, and the bytes checked for scrolling done right.
//!
//! ```
//! use lean_backend::check::replay_buffers;
//! use ratatui::{buffer::Buffer, layout::Rect, style::Style};
//!
//! let mut frame = Buffer::empty(Rect::new(0, 0, 20, 2));
//! frame.set_string(0, 1, "中文 and text", Style::new().bold());
//! // Panics, naming the frame, if the screen differs from the buffer.
//! let bytes = replay_buffers(20, 2, [("first".to_string(), frame)]);
//! assert!(!bytes.is_empty());
//! ```

use std::collections::HashSet;

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use unicode_width::UnicodeWidthStr;

use crate::LeanBackend;

/// The emulator the checks read the screen back through.
pub use vt100;

/// The terminal's colour for a ratatui colour, as vt100 reads SGR.
fn vt_colour(c: Color) -> vt100::Color {
    let idx = |n| vt100::Color::Idx(n);
    match c {
        Color::Reset => vt100::Color::Default,
        Color::Black => idx(0),
        Color::Red => idx(1),
        Color::Green => idx(2),
        Color::Yellow => idx(3),
        Color::Blue => idx(4),
        Color::Magenta => idx(5),
        Color::Cyan => idx(6),
        Color::Gray => idx(7),
        Color::DarkGray => idx(8),
        Color::LightRed => idx(9),
        Color::LightGreen => idx(10),
        Color::LightYellow => idx(11),
        Color::LightBlue => idx(12),
        Color::LightMagenta => idx(13),
        Color::LightCyan => idx(14),
        Color::White => idx(15),
        Color::Indexed(n) => idx(n),
        Color::Rgb(r, g, b) => vt100::Color::Rgb(r, g, b),
    }
}

/// Every cell where the emulated terminal differs from the buffer
/// ratatui drew: its place, what the buffer holds, what the screen shows.
pub fn differences(screen: &vt100::Screen, buf: &Buffer) -> Vec<String> {
    differences_but(screen, buf, &HashSet::new())
}

/// `differences`, where the cells `loose` may show a blank of any look.
fn differences_but(
    screen: &vt100::Screen,
    buf: &Buffer,
    loose: &HashSet<(u16, u16)>,
) -> Vec<String> {
    let mut found = Vec::new();
    let area = buf.area;
    for y in 0..area.height {
        let mut skip = 0;
        for x in 0..area.width {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let want = &buf[(x, y)];
            skip = want.symbol().width().saturating_sub(1);
            let got = screen.cell(y, x).expect("a cell on screen");
            // A cluster ratatui keeps in one cell (Tamil "மி": a letter
            // and its vowel sign) the terminal writes letter by letter
            // into the cells it covers: what they show together counts.
            let mut shown = String::new();
            for cx in x..(x + want.symbol().width().max(1) as u16).min(area.width) {
                let c = screen.cell(y, cx).expect("a cell on screen");
                if !c.is_wide_continuation() {
                    shown.push_str(c.contents());
                }
            }
            // An erased cell (ECH, EL, a clear) reads back as "" in
            // vt100, a written space as " ": on screen they are the
            // same blank, and their looks are compared below.
            let text = match shown.as_str() {
                "" => " ",
                t => t,
            };
            let m = want.modifier;
            // vt100 keeps one intensity: bold or dim, the last one set.
            let intensity_ok = match (m.contains(Modifier::BOLD), m.contains(Modifier::DIM)) {
                (true, true) => got.bold() || got.dim(),
                (bold, dim) => got.bold() == bold && got.dim() == dim,
            };
            // A blank shows its background, an underline, and reversed,
            // its foreground; not otherwise its foreground, weight or
            // slant.
            let blank = text.trim().is_empty() && want.symbol().trim().is_empty();
            let look_ok = got.underline() == m.contains(Modifier::UNDERLINED)
                && (blank && !m.contains(Modifier::REVERSED)
                    || (vt_colour(want.fg) == got.fgcolor()
                        && intensity_ok
                        && got.italic() == m.contains(Modifier::ITALIC)));
            if loose.contains(&(x, y)) && text == " " && want.symbol() == " " {
                continue;
            }
            if text != want.symbol()
                || !look_ok
                || vt_colour(want.bg) != got.bgcolor()
                || got.inverse() != m.contains(Modifier::REVERSED)
            {
                found.push(format!(
                    "({x},{y}): drawn {:?} {:?}/{:?} {:?}, shown {:?} {:?}/{:?} bold {} dim {} inverse {}",
                    want.symbol(),
                    want.fg,
                    want.bg,
                    m,
                    got.contents(),
                    got.fgcolor(),
                    got.bgcolor(),
                    got.bold(),
                    got.dim(),
                    got.inverse()
                ));
            }
        }
    }
    found
}

/// Draw the buffers `frames` (each `width` × `height`) one after the
/// other through a backend and a terminal emulator; after each, the
/// emulator's screen must be the buffer. Everything written.
pub fn replay_buffers(
    width: u16,
    height: u16,
    frames: impl IntoIterator<Item = (String, Buffer)>,
) -> Vec<u8> {
    replay_scrolling(width, height, frames, true)
}

/// `replay_buffers`, with rows that move scrolled or not.
pub fn replay_scrolling(
    width: u16,
    height: u16,
    frames: impl IntoIterator<Item = (String, Buffer)>,
    scrolling: bool,
) -> Vec<u8> {
    let backend = LeanBackend::with_size(Vec::new(), width, height).with_scrolling(scrolling);
    let mut terminal = ratatui::Terminal::new(backend).unwrap();
    let mut parser = vt100::Parser::new(height, width, 0);
    let mut all = Vec::new();
    let mut previous = Buffer::empty(ratatui::layout::Rect::new(0, 0, width, height));
    // The right halves of wide characters whose left half was written
    // over while they stayed the same in the buffer: ratatui's diff
    // leaves them to the terminal, which blanks them in the look of the
    // character written (vt100, xterm), and this backend cannot tell
    // what look the buffer holds there (it never gets those cells). Any
    // blank is taken there, until the buffer changes the cell.
    let mut loose = HashSet::new();
    for (name, buf) in frames {
        let drawn = terminal
            .draw(|frame| frame.buffer_mut().clone_from(&buf))
            .unwrap()
            .buffer
            .clone();
        for y in 0..height {
            for x in 0..width {
                if drawn[(x, y)] != previous[(x, y)] {
                    loose.remove(&(x, y));
                } else if x > 0
                    && previous[(x - 1, y)].symbol().width() > 1
                    && drawn[(x - 1, y)] != previous[(x - 1, y)]
                    && drawn[(x - 1, y)].symbol().width() < 2
                {
                    loose.insert((x, y));
                }
            }
        }
        previous = drawn.clone();
        let bytes = std::mem::take(terminal.backend_mut().writer_mut());
        parser.process(&bytes);
        all.extend_from_slice(&bytes);
        let faults = scroll_faults(&all);
        assert!(faults.is_empty(), "{name}: {faults:?}");
        let wrong = differences_but(parser.screen(), &drawn, &loose);
        assert!(
            wrong.is_empty(),
            "{name}: {} cells differ, first: {:#?}",
            wrong.len(),
            &wrong[..wrong.len().min(8)]
        );
    }
    all
}

/// What is wrong in how `bytes` (everything written, from the start)
/// scroll: a scroll (SU, SD, IL, DL) while a look other than the default
/// is set (terminals with background colour erase would fill the rows
/// scrolled in with its background, the others not), or while the look
/// is not known yet; a scroll region still set at the end.
pub fn scroll_faults(bytes: &[u8]) -> Vec<String> {
    let mut faults = Vec::new();
    let (mut look, mut region) = (None::<OnBlank>, false);
    let mut i = 0;
    while i + 1 < bytes.len() {
        if bytes[i] != 0x1b || bytes[i + 1] != b'[' {
            i += 1;
            continue;
        }
        let Some(end) = (i + 2..bytes.len()).find(|&j| (0x40..=0x7e).contains(&bytes[j])) else {
            break;
        };
        let params = &bytes[i + 2..end];
        let numeric = params.iter().all(|b| b.is_ascii_digit() || *b == b';');
        match bytes[end] {
            b'm' => {
                // Known from a reset on.
                let resets = params.is_empty() || params == b"0" || params.starts_with(b"0;");
                look = look
                    .or(resets.then(OnBlank::default))
                    .map(|l| l.apply(params));
            }
            b'S' | b'T' | b'L' | b'M' if numeric && look != Some(OnBlank::default()) => faults
                .push(format!(
                    "{} at byte {i} in a look that shows on a blank, or one not known",
                    String::from_utf8_lossy(&bytes[i..=end]),
                )),
            b'r' if numeric => region = !params.is_empty(),
            _ => {}
        }
        i = end + 1;
    }
    if region {
        faults.push("a scroll region left set".into());
    }
    faults
}

/// What of the look set shows on a blank, as SGR parameters change it:
/// a background, reversed, underlined, blinking, struck (the rows a
/// scroll brings in take it on some terminals). `None`: not known yet.
#[derive(Clone, Copy, Default, PartialEq)]
struct OnBlank {
    background: bool,
    reversed: bool,
    underlined: bool,
    blinking: bool,
    struck: bool,
}

impl OnBlank {
    fn apply(mut self, params: &[u8]) -> OnBlank {
        let params: Vec<u16> = String::from_utf8_lossy(params)
            .split(';')
            .map(|p| p.parse().unwrap_or(0))
            .collect();
        let mut i = 0;
        while i < params.len() {
            match params[i] {
                0 => self = OnBlank::default(),
                4 => self.underlined = true,
                24 => self.underlined = false,
                5 | 6 => self.blinking = true,
                25 => self.blinking = false,
                7 => self.reversed = true,
                27 => self.reversed = false,
                9 => self.struck = true,
                29 => self.struck = false,
                40..=47 | 100..=107 => self.background = true,
                49 => self.background = false,
                // A colour's own parameters: `5;n` or `2;r;g;b`.
                48 | 38 => {
                    self.background |= params[i] == 48;
                    i += if params.get(i + 1) == Some(&5) { 2 } else { 4 };
                }
                _ => {}
            }
            i += 1;
        }
        self
    }
}

/// Whether `bytes` scroll a region (SU or SD).
pub fn scrolls(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    ["S", "T"].iter().any(|end| {
        (1..=crate::scroll::MAX_SHIFT).any(|n| {
            let n = if n == 1 { String::new() } else { n.to_string() };
            text.contains(&format!("r\x1b[{n}{end}"))
        })
    })
}
