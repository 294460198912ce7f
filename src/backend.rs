//! The bytes a frame sends to the terminal: ratatui's diff of cells,
//! written with as few bytes as the terminal needs (issue 22).
//!
//! ratatui's crossterm backend moves the cursor before every cell that does
//! not follow the last one written, so after each wide character (the
//! cursor already sits two columns on) it moves it to where it already is;
//! it sends the foreground and background as one pair whenever either
//! changes, as `38;5;N` even for the sixteen named colours, and resets them
//! at the end of every frame. This backend writes the same cells and knows
//! where the cursor is and which colours are set:
//!
//! - no move where the cursor already is (after a wide character too), and
//!   the shortest move otherwise (`\r`, `ESC[nC`, `ESC[nG`, or `ESC[r;cH`),
//!   or the cells in between written again when that is shorter (what the
//!   terminal shows is kept in a copy of the screen);
//! - one SGR sequence per change of look, holding only what changed, with
//!   the named colours as ratatui defines them (`31`, `41`, `91`, …);
//! - the cursor hidden once, not on every frame.
//!
//! A character whose width terminals disagree on (a cell whose symbol is
//! measured differently as a whole than character by character) leaves the
//! cursor's place unknown, and the next cell is reached by an absolute move.
//! Everything else (queries, clearing, the size) is crossterm's.

use std::io::{self, Write};

use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::Cell;
use ratatui::crossterm::{cursor, queue, terminal};
use ratatui::layout::{Position, Size};
use ratatui::style::{Color, Modifier};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// A ratatui backend for a terminal that understands ANSI (ECMA-48)
/// sequences, writing to `W`.
pub struct LeanBackend<W: Write> {
    writer: W,
    /// The size of the screen, as last asked (or given, for tests).
    size: std::cell::Cell<Size>,
    /// Asked of the terminal (`size()`), or fixed (tests, a recording).
    fixed_size: bool,
    /// Where the terminal's cursor is, when known.
    cursor: Option<Position>,
    /// The look set on the terminal, when known.
    pen: Option<Pen>,
    hidden: Option<bool>,
    /// What the terminal shows, row by row, as this backend wrote it
    /// (`None`: not known).
    shadow: Vec<Option<Cell>>,
    /// Bytes of the frame being written, sent in one write.
    out: Vec<u8>,
}

/// The look of a cell, as SGR sets it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Pen {
    fg: Color,
    bg: Color,
    modifier: Modifier,
}

impl Pen {
    const DEFAULT: Pen = Pen {
        fg: Color::Reset,
        bg: Color::Reset,
        modifier: Modifier::empty(),
    };

    fn of(cell: &Cell) -> Pen {
        Pen {
            fg: cell.fg,
            bg: cell.bg,
            modifier: cell.modifier,
        }
    }
}

impl<W: Write> LeanBackend<W> {
    /// A backend for the terminal `writer` writes to; the size is asked of
    /// the terminal.
    pub fn new(writer: W) -> LeanBackend<W> {
        let size = terminal::size()
            .map(|(width, height)| Size { width, height })
            .unwrap_or(Size {
                width: 80,
                height: 24,
            });
        LeanBackend::build(writer, size, false)
    }

    /// A backend of a fixed size (a test, or a recording replayed later).
    pub fn with_size(writer: W, width: u16, height: u16) -> LeanBackend<W> {
        LeanBackend::build(writer, Size { width, height }, true)
    }

    fn build(writer: W, size: Size, fixed_size: bool) -> LeanBackend<W> {
        LeanBackend {
            writer,
            size: std::cell::Cell::new(size),
            fixed_size,
            cursor: None,
            pen: None,
            hidden: None,
            shadow: Vec::new(),
            out: Vec::new(),
        }
    }

    pub fn writer(&self) -> &W {
        &self.writer
    }

    pub fn writer_mut(&mut self) -> &mut W {
        &mut self.writer
    }

    /// The copy of the screen at the current size, every cell `known`.
    fn reset_shadow(&mut self, known: Option<Cell>) {
        let Size { width, height } = self.size.get();
        self.shadow.clear();
        self.shadow
            .resize(usize::from(width) * usize::from(height), known);
    }

    fn shadow_index(&self, x: u16, y: u16) -> Option<usize> {
        let Size { width, height } = self.size.get();
        (x < width && y < height).then(|| usize::from(y) * usize::from(width) + usize::from(x))
    }

    /// Write one cell at the cursor, which is at (x, y).
    fn put(&mut self, x: u16, y: u16, cell: &Cell) {
        let pen = Pen::of(cell);
        if self.pen != Some(pen) {
            sgr(&mut self.out, self.pen, pen);
            self.pen = Some(pen);
        }
        let symbol = cell.symbol();
        self.out.extend_from_slice(symbol.as_bytes());
        self.cursor = advance(x, y, symbol, self.size.get().width);
        if let Some(i) = self.shadow_index(x, y) {
            self.shadow[i] = Some(cell.clone());
        }
        // The cells a wide character covers are not cells to write again.
        for cx in x + 1..x.saturating_add(symbol.width().max(1) as u16) {
            if let Some(i) = self.shadow_index(cx, y) {
                self.shadow[i] = None;
            }
        }
    }

    /// Erase `blanks` (cells in a row from (x, y), where the cursor is)
    /// with ECH, in their background; the cursor stays.
    fn erase(&mut self, x: u16, y: u16, blanks: &[(u16, u16, &Cell)]) {
        let pen = Pen {
            fg: self.pen.map_or(Color::Reset, |p| p.fg),
            bg: blanks[0].2.bg,
            modifier: self.pen.map_or(Modifier::empty(), |p| p.modifier)
                & !(Modifier::REVERSED
                    | Modifier::UNDERLINED
                    | Modifier::CROSSED_OUT
                    | Modifier::SLOW_BLINK
                    | Modifier::RAPID_BLINK),
        };
        if self.pen != Some(pen) {
            sgr(&mut self.out, self.pen, pen);
            self.pen = Some(pen);
        }
        self.out
            .extend_from_slice(format!("\x1b[{}X", blanks.len()).as_bytes());
        self.cursor = Some(Position { x, y });
        // What the terminal shows there is a blank in this background, not
        // necessarily in the cells' other looks: not known for rewriting.
        for k in 0..blanks.len() as u16 {
            if let Some(i) = self.shadow_index(x + k, y) {
                self.shadow[i] = None;
            }
        }
    }

    /// Bring the cursor to (x, y) with the fewest bytes.
    fn go(&mut self, x: u16, y: u16) {
        if self.cursor == Some(Position { x, y }) {
            return;
        }
        let mut best = cup(x, y);
        if let Some(at) = self.cursor {
            for candidate in [relative(at, x, y), self.rewrite(at, x, y)]
                .into_iter()
                .flatten()
            {
                if candidate.len() < best.len() {
                    best = candidate;
                }
            }
        }
        self.out.extend_from_slice(&best);
        self.cursor = Some(Position { x, y });
    }

    /// The cells from the cursor up to (x, y) on the same row written again
    /// as the terminal already shows them, when they are known plain ASCII
    /// characters in the look already set (so nothing but their bytes is
    /// sent).
    fn rewrite(&self, at: Position, x: u16, y: u16) -> Option<Vec<u8>> {
        let pen = self.pen?;
        if at.y != y || at.x >= x || x - at.x > 8 {
            return None;
        }
        let mut bytes = Vec::new();
        for cx in at.x..x {
            let cell = self.shadow.get(self.shadow_index(cx, y)?)?.as_ref()?;
            let symbol = cell.symbol();
            let plain = symbol.len() == 1 && (symbol.as_bytes()[0] as char).is_ascii_graphic()
                || symbol == " ";
            if !plain || Pen::of(cell) != pen {
                return None;
            }
            bytes.extend_from_slice(symbol.as_bytes());
        }
        Some(bytes)
    }
}

/// How many cells at the start of `cells` are worth erasing with ECH
/// (`ESC [ n X`) rather than writing as spaces: blanks side by side on one
/// row in one look that shows nothing but its background (erased cells
/// take the background only), more than the sequence and the move after
/// it cost. 0 when none.
fn blank_run(cells: &[(u16, u16, &Cell)]) -> usize {
    let Some(&(x0, y0, first)) = cells.first() else {
        return 0;
    };
    let shows_on_blank = Modifier::REVERSED
        | Modifier::UNDERLINED
        | Modifier::CROSSED_OUT
        | Modifier::SLOW_BLINK
        | Modifier::RAPID_BLINK;
    if first.symbol() != " " || first.modifier.intersects(shows_on_blank) {
        return 0;
    }
    let n = cells
        .iter()
        .enumerate()
        .take_while(|(k, (x, y, c))| {
            *y == y0
                && usize::from(*x) == usize::from(x0) + k
                && c.symbol() == " "
                && c.bg == first.bg
                && !c.modifier.intersects(shows_on_blank)
        })
        .count();
    // `ESC[nX` then `ESC[nC` past them, against n spaces.
    let cost = 2 * (3 + n.to_string().len());
    if n > cost { n } else { 0 }
}

/// Where the cursor is after `symbol` was written at (x, y): unknown when
/// terminals may disagree on its width, or at the right edge (where the
/// cursor waits to wrap).
fn advance(x: u16, y: u16, symbol: &str, width: u16) -> Option<Position> {
    let by_char: usize = symbol.chars().map(|c| c.width().unwrap_or(0)).sum();
    if by_char != symbol.width() || by_char == 0 {
        return None;
    }
    let next = usize::from(x) + by_char;
    (next < usize::from(width)).then_some(Position { x: next as u16, y })
}

/// `ESC [ row ; col H`, with the 1s left out.
fn cup(x: u16, y: u16) -> Vec<u8> {
    match (x, y) {
        (0, 0) => b"\x1b[H".to_vec(),
        (0, y) => format!("\x1b[{}H", y + 1).into_bytes(),
        (x, y) => format!("\x1b[{};{}H", y + 1, x + 1).into_bytes(),
    }
}

/// The shortest move from `at` that names no row: carriage return, forward,
/// back or to a column on the same row; to the start of the next row.
fn relative(at: Position, x: u16, y: u16) -> Option<Vec<u8>> {
    let n = |d: u16, end: char| match d {
        1 => format!("\x1b[{end}"),
        d => format!("\x1b[{d}{end}"),
    };
    if at.y == y {
        let moves = [
            (x == 0).then(|| "\r".to_string()),
            (x > at.x).then(|| n(x - at.x, 'C')),
            (x < at.x).then(|| n(at.x - x, 'D')),
            Some(n(x + 1, 'G')),
        ];
        return moves
            .into_iter()
            .flatten()
            .min_by_key(String::len)
            .map(String::into_bytes);
    }
    // The row below: CR LF (LF alone, not at the bottom row, never scrolls).
    if y == at.y + 1 && x == 0 {
        return Some(b"\r\n".to_vec());
    }
    None
}

/// The SGR sequence that changes the look from `from` (unknown: anything)
/// to `to`: only what differs, or a reset and all of `to` when shorter.
fn sgr(out: &mut Vec<u8>, from: Option<Pen>, to: Pen) {
    let full = {
        let mut p = vec!["0".to_string()];
        p.extend(added(Modifier::empty(), to.modifier));
        if to.fg != Color::Reset {
            p.push(colour(to.fg, false));
        }
        if to.bg != Color::Reset {
            p.push(colour(to.bg, true));
        }
        p
    };
    let params = match from {
        None => full,
        Some(from) => {
            let diff = difference(from, to);
            if diff.join(";").len() < full.join(";").len() {
                diff
            } else {
                full
            }
        }
    };
    if params == ["0"] {
        out.extend_from_slice(b"\x1b[m");
    } else {
        out.extend_from_slice(b"\x1b[");
        out.extend_from_slice(params.join(";").as_bytes());
        out.push(b'm');
    }
}

/// The parameters that change `from` into `to`.
fn difference(from: Pen, to: Pen) -> Vec<String> {
    let mut p = Vec::new();
    let removed = from.modifier - to.modifier;
    let mut kept = from.modifier & to.modifier;
    // 22 ends bold and dim at once: the one that stays is set again.
    if removed.intersects(Modifier::BOLD | Modifier::DIM) {
        p.push("22".to_string());
        kept.remove(Modifier::BOLD | Modifier::DIM);
    }
    for (m, code) in [
        (Modifier::ITALIC, "23"),
        (Modifier::UNDERLINED, "24"),
        (Modifier::REVERSED, "27"),
        (Modifier::HIDDEN, "28"),
        (Modifier::CROSSED_OUT, "29"),
    ] {
        if removed.contains(m) {
            p.push(code.to_string());
        }
    }
    // 25 ends both blinks.
    if removed.intersects(Modifier::SLOW_BLINK | Modifier::RAPID_BLINK) {
        p.push("25".to_string());
        kept.remove(Modifier::SLOW_BLINK | Modifier::RAPID_BLINK);
    }
    p.extend(added(kept, to.modifier));
    if from.fg != to.fg {
        p.push(colour(to.fg, false));
    }
    if from.bg != to.bg {
        p.push(colour(to.bg, true));
    }
    p
}

/// Each modifier's SGR code (also the ANSI export's).
pub const SGR_MODIFIERS: [(Modifier, &str); 9] = [
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

/// The codes that set the modifiers of `to` not in `has`.
fn added(has: Modifier, to: Modifier) -> Vec<String> {
    let new = to - has;
    SGR_MODIFIERS
        .into_iter()
        .filter(|(m, _)| new.contains(*m))
        .map(|(_, code)| code.to_string())
        .collect()
}

/// A colour's SGR parameters, as ratatui documents them (`Color::Red` is
/// 31 and 41, `Color::LightRed` 91 and 101).
/// The SGR parameters of a colour, foreground or background (also the
/// ANSI export's).
pub fn colour(c: Color, background: bool) -> String {
    let base = |n: u8| (n + if background { 10 } else { 0 }).to_string();
    let extended = if background { "48" } else { "38" };
    match c {
        Color::Reset => base(39),
        Color::Black => base(30),
        Color::Red => base(31),
        Color::Green => base(32),
        Color::Yellow => base(33),
        Color::Blue => base(34),
        Color::Magenta => base(35),
        Color::Cyan => base(36),
        Color::Gray => base(37),
        Color::DarkGray => base(90),
        Color::LightRed => base(91),
        Color::LightGreen => base(92),
        Color::LightYellow => base(93),
        Color::LightBlue => base(94),
        Color::LightMagenta => base(95),
        Color::LightCyan => base(96),
        Color::White => base(97),
        Color::Indexed(n) => format!("{extended};5;{n}"),
        Color::Rgb(r, g, b) => format!("{extended};2;{r};{g};{b}"),
    }
}

impl<W: Write> Backend for LeanBackend<W> {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        let Size { width, height } = self.size.get();
        if self.shadow.len() != usize::from(width) * usize::from(height) {
            // A screen of another size: nothing known of what it shows.
            self.reset_shadow(None);
            self.cursor = None;
        }
        let cells: Vec<(u16, u16, &Cell)> = content.collect();
        let mut i = 0;
        while i < cells.len() {
            let (x, y, cell) = cells[i];
            self.go(x, y);
            let blanks = blank_run(&cells[i..]);
            if blanks > 0 {
                self.erase(x, y, &cells[i..i + blanks]);
                i += blanks;
            } else {
                self.put(x, y, cell);
                i += 1;
            }
        }
        // The terminal's look is left as found, for whatever writes next.
        if self.pen.is_some_and(|p| p != Pen::DEFAULT) {
            sgr(&mut self.out, self.pen, Pen::DEFAULT);
            self.pen = Some(Pen::DEFAULT);
        }
        self.writer.write_all(&self.out)?;
        self.out.clear();
        Ok(())
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        if self.hidden != Some(true) {
            queue!(self.writer, cursor::Hide)?;
            self.hidden = Some(true);
        }
        self.writer.flush()
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        if self.hidden != Some(false) {
            queue!(self.writer, cursor::Show)?;
            self.hidden = Some(false);
        }
        self.writer.flush()
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        cursor::position()
            .map(|(x, y)| Position { x, y })
            .map_err(io::Error::other)
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        let Position { x, y } = position.into();
        queue!(self.writer, cursor::MoveTo(x, y))?;
        self.cursor = Some(Position { x, y });
        self.writer.flush()
    }

    fn clear(&mut self) -> io::Result<()> {
        self.clear_region(ClearType::All)
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        use terminal::ClearType as C;
        let kind = match clear_type {
            ClearType::All => C::All,
            ClearType::AfterCursor => C::FromCursorDown,
            ClearType::BeforeCursor => C::FromCursorUp,
            ClearType::CurrentLine => C::CurrentLine,
            ClearType::UntilNewLine => C::UntilNewLine,
        };
        // Cleared cells take the current background: set none first.
        if self.pen != Some(Pen::DEFAULT) {
            sgr(&mut self.out, self.pen, Pen::DEFAULT);
            self.pen = Some(Pen::DEFAULT);
            self.writer.write_all(&self.out)?;
            self.out.clear();
        }
        queue!(self.writer, terminal::Clear(kind))?;
        match clear_type {
            ClearType::All => self.reset_shadow(Some(Cell::EMPTY)),
            // What a partial clear leaves is not tracked.
            _ => self.reset_shadow(None),
        }
        self.writer.flush()
    }

    fn append_lines(&mut self, n: u16) -> io::Result<()> {
        for _ in 0..n {
            self.writer.write_all(b"\n")?;
        }
        self.cursor = None;
        self.reset_shadow(None);
        self.writer.flush()
    }

    fn size(&self) -> io::Result<Size> {
        if !self.fixed_size {
            let (width, height) = terminal::size()?;
            self.size.set(Size { width, height });
        }
        Ok(self.size.get())
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        let terminal::WindowSize {
            columns,
            rows,
            width,
            height,
        } = terminal::window_size()?;
        Ok(WindowSize {
            columns_rows: Size {
                width: columns,
                height: rows,
            },
            pixels: Size { width, height },
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Action, App};
    use crate::load;
    use crate::scenario::Lang;
    use crate::theme::Theme;
    use ratatui::buffer::Buffer;

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
    pub(crate) fn differences(screen: &vt100::Screen, buf: &Buffer) -> Vec<String> {
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
                let look_ok = text.trim().is_empty() && want.symbol().trim().is_empty()
                    // a blank shows only its background and its reversal
                    || (vt_colour(want.fg) == got.fgcolor()
                        && intensity_ok
                        && got.italic() == m.contains(Modifier::ITALIC)
                        && got.underline() == m.contains(Modifier::UNDERLINED));
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

    /// Draw `frames` one after the other through a backend and a terminal
    /// emulator; after each, the emulator's screen must be the buffer.
    /// The bytes written in all.
    pub(crate) fn replay(
        width: u16,
        height: u16,
        frames: impl IntoIterator<Item = (String, App)>,
    ) -> usize {
        let backend = LeanBackend::with_size(Vec::new(), width, height);
        let mut terminal = ratatui::Terminal::new(backend).unwrap();
        let mut parser = vt100::Parser::new(height, width, 0);
        let mut total = 0;
        for (name, app) in frames {
            let drawn = terminal
                .draw(|frame| {
                    crate::view::render(&app, frame.area(), frame.buffer_mut());
                })
                .unwrap()
                .buffer
                .clone();
            let bytes = std::mem::take(terminal.backend_mut().writer_mut());
            total += bytes.len();
            parser.process(&bytes);
            let wrong = differences(parser.screen(), &drawn);
            assert!(
                wrong.is_empty(),
                "{name}: {} cells differ, first: {:#?}",
                wrong.len(),
                &wrong[..wrong.len().min(8)]
            );
        }
        total
    }

    fn steps_of(app: &App, width: u16, height: u16) -> Vec<(String, App)> {
        (0..app.steps())
            .map(|i| {
                let at = crate::frames::at_step(app, i, width, height);
                (format!("step {}", i + 1), at)
            })
            .collect()
    }

    #[test]
    fn every_frame_of_a_lesson_shows_on_a_terminal_as_drawn() {
        for name in [
            "read-config-timeout",
            "parallel-calls-out-of-order",
            "patch-and-test",
        ] {
            for lang in [Lang::Zh, Lang::En] {
                for (w, h) in [(120, 40), (80, 24)] {
                    let app = App::new(load::load(name).unwrap(), lang, Theme::DARK);
                    let mut frames = steps_of(&app, w, h);
                    // Back again, and the help overlay over the last step.
                    frames.extend(steps_of(&app, w, h).into_iter().rev().skip(1));
                    let mut help = crate::frames::at_step(&app, app.last(), w, h);
                    crate::app::update(&mut help, Action::ToggleHelp);
                    frames.push(("help".into(), help));
                    for theme in [Theme::LIGHT, Theme::PLAIN] {
                        let mut other = crate::frames::at_step(&app, 2, w, h);
                        other.theme = theme;
                        frames.push((format!("{theme:?}"), other));
                    }
                    replay(w, h, frames);
                }
            }
        }
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
        assert_eq!(relative(at(5, 3), 0, 3).unwrap(), b"\r");
        assert_eq!(relative(at(5, 3), 6, 3).unwrap(), b"\x1b[C");
        assert_eq!(relative(at(5, 3), 9, 3).unwrap(), b"\x1b[4C");
        assert_eq!(relative(at(5, 3), 0, 4).unwrap(), b"\r\n");
        assert_eq!(relative(at(5, 3), 6, 5), None);
        assert_eq!(cup(0, 0), b"\x1b[H");
        assert_eq!(cup(9, 19), b"\x1b[20;10H");
        // A wide character leaves the cursor two cells on; Hangul jamo
        // measured as one syllable leave it unknown.
        assert_eq!(advance(3, 1, "中", 80), Some(at(5, 1)));
        assert_eq!(advance(78, 1, "中", 80), None);
        assert_eq!(advance(3, 1, "\u{1100}\u{1161}", 80), Some(at(5, 1)));
    }
}

#[cfg(test)]
mod scripts {
    use super::tests::replay;
    use crate::app::App;
    use crate::scenario::Lang;
    use crate::theme::Theme;

    /// Tamil (vowel signs that join or sit before their consonant) and
    /// Hangul jamo (a syllable spelled letter by letter, leading
    /// consonants that pile up) in the lanes' words, the context and the
    /// disk: every frame, replayed through a terminal emulator, shows what
    /// ratatui drew, with no stray glyph left by an earlier frame.
    #[test]
    fn tamil_and_hangul_jamo_leave_no_stray_glyphs() {
        let names = [
            "தமிழ்-கொ-கெ-கை.txt",
            "\u{1100}\u{1161}\u{11A8}-\u{1100}\u{1100}\u{1161}-\u{1161}\u{11A8}.txt",
            "ஸ்ரீ-\u{115F}\u{1160}-x.txt",
        ];
        let mut s: serde_json::Value =
            serde_json::from_str(include_str!("../scenarios/read-config-timeout.json")).unwrap();
        for name in names {
            s["files"][name] = "தமிழ் \u{1100}\u{1161}\u{11A8}\u{1100}\u{1100}".into();
        }
        s["task"]["en"] = format!("Find the timeout in config.txt. {}", names.join(" ")).into();
        s["task"]["zh"] = format!("找出 config.txt 里 timeout 的值。{}", names.join(" ")).into();
        let loaded = crate::load::prepare("<scripts>", s.to_string().as_bytes()).unwrap();
        for lang in [Lang::En, Lang::Zh] {
            let app = App::new(loaded.clone(), lang, Theme::DARK);
            for (w, h) in [(120, 40), (80, 24)] {
                let frames: Vec<_> = (0..app.steps())
                    .chain((0..app.steps()).rev())
                    .map(|i| {
                        (
                            format!("{lang:?} step {}", i + 1),
                            crate::frames::at_step(&app, i, w, h),
                        )
                    })
                    .collect();
                replay(w, h, frames);
            }
        }
    }
}
