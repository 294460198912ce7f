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
//! - nothing where the screen already shows what the cell should (a
//!   blank whose foreground changed in the buffer looks the same);
//! - no move where the cursor already is (after a wide character too), and
//!   the shortest move otherwise (`\r`, `ESC[nC`, `ESC[nD`, `ESC[nG`, HT to
//!   the tab stops, BS, `ESC[nA`/`ESC[nB` then along the row, CR LF, or
//!   `ESC[r;cH`), or the cells in between written again when that is
//!   shorter, in the look set or in the one the next cell needs (what the
//!   terminal shows is kept in a copy of the screen);
//! - blanks erased rather than written where that is shorter: `ESC[nX`
//!   (ECH) for a run of them, `ESC[K` (EL) when the rest of the row is
//!   blank; the run may take in cells the screen already shows as the same
//!   blanks;
//! - one SGR sequence per change of look, holding only what changed, with
//!   the named colours as ratatui defines them (`31`, `41`, `91`, …); a
//!   blank is written, or erased, in whatever look is set when that look
//!   has its background and nothing that shows on a blank (reversed,
//!   underlined, struck, blinking): its foreground, weight and slant do not
//!   show; else in the look of the next cell on its row when that fits it;
//!   a frame leaves the look of its last cell set (the next goes on from
//!   it, and the terminal gets the default back when it is given back);
//! - the cursor hidden once, not on every frame;
//! - rows that move (the lanes and the call_id table a row a step)
//!   scrolled on the terminal rather than written again, when that leaves
//!   fewer bytes to send (`scroll`: a band of full-width rows, DECSTBM and
//!   SU or SD, the region reset at once): then every cell of those rows is
//!   compared with what ratatui's buffer holds, not just the diff, since
//!   what stayed in the buffer has moved on the screen. The plan is priced
//!   in estimates, so a frame that scrolls is written without scrolling
//!   too, and the shorter of the two is sent.
//!
//! HT relies on tab stops every 8 columns. Terminals start with them there,
//! but a user may have set others (`tabs 4`); ncurses moves by HT only when
//! built to (`--enable-hard-tabs`), and then trusts terminfo's `it#8`. This
//! backend sets them instead, column by column across the screen (HTS every
//! 8 columns, TBC of the others; about 700 bytes at 120 columns), with its
//! first frame and again after the screen is cleared whole (a resize, or a
//! suspend, in which the shell may have changed them). Other tab stops a
//! user had set on the screen's columns are not restored: every 8 columns
//! is what `tput init` and `reset` set too.
//!
//! Only blanks in the default background are erased, with the default
//! background set. Terminals with "background colour erase" (xterm,
//! iTerm2, Windows Terminal, tmux's own screen, the vt100 crate) fill erased
//! cells with the background set, those without it with the default one:
//! both give the default then, so nothing hangs on which kind it is. No
//! modifier that shows on a blank (reversed, underlined, struck, blinking)
//! is set while erasing: Windows Terminal and xterm drop the modifiers
//! from erased cells, vt100 keeps them. REP (`ESC[nb`, repeat the last
//! character) is not used: the vt100 crate (0.16), which the tests and the
//! benchmark read the screen back through, ignores it.
//!
//! A character whose width terminals disagree on (a cell whose symbol is
//! measured differently as a whole than character by character) leaves the
//! cursor's place unknown, and the next cell is reached by an absolute move.
//! Everything else (queries, clearing, the size) is crossterm's.

use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};

use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::Cell;
use ratatui::crossterm::{cursor, queue, terminal};
use ratatui::layout::{Position, Size};
use ratatui::style::{Color, Modifier};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

mod scroll;

/// The long run the benchmarks step through, for the tests of scrolling.
#[cfg(test)]
#[path = "../benches/support/long_scenario.rs"]
mod long_scenario;

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
    /// What the screen is to show, as ratatui's buffer holds it: the cells
    /// of every frame's diff laid over the last (`None`: not known, the
    /// cells a wide character covers among them).
    target: Vec<Option<Cell>>,
    /// Bytes of the frame being written, sent in one write.
    out: Vec<u8>,
    /// Whether rows that move are scrolled (else written again).
    scrolling: bool,
    /// What ratatui's buffer holds is not known since a partial clear or
    /// lines appended (an inline viewport): no scrolling until the screen
    /// is cleared whole.
    target_lost: bool,
    /// The width the terminal's tab stops were set for (every 8 columns),
    /// which cursor moves rely on.
    tabs_for: Option<u16>,
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
            target: Vec::new(),
            out: Vec::new(),
            scrolling: true,
            target_lost: false,
            tabs_for: None,
        }
    }

    /// With rows that move scrolled on the terminal (the default), or
    /// written again (to compare).
    pub fn with_scrolling(mut self, on: bool) -> LeanBackend<W> {
        self.scrolling = on;
        self
    }

    pub fn writer(&self) -> &W {
        &self.writer
    }

    pub fn writer_mut(&mut self) -> &mut W {
        &mut self.writer
    }

    /// The copy of the screen at the current size, every cell `known`,
    /// and what it is to show, every cell `wanted`.
    fn reset_shadow(&mut self, known: Option<Cell>, wanted: Option<Cell>) {
        let Size { width, height } = self.size.get();
        let cells = usize::from(width) * usize::from(height);
        self.shadow.clear();
        self.shadow.resize(cells, known);
        self.target_lost = wanted.is_none();
        self.target.clear();
        self.target.resize(cells, wanted);
    }

    fn shadow_index(&self, x: u16, y: u16) -> Option<usize> {
        let Size { width, height } = self.size.get();
        (x < width && y < height).then(|| usize::from(y) * usize::from(width) + usize::from(x))
    }

    /// What the terminal shows at (x, y), when known.
    fn shown(&self, x: u16, y: u16) -> Option<&Cell> {
        self.shadow.get(self.shadow_index(x, y)?)?.as_ref()
    }

    fn set_shown(&mut self, x: u16, y: u16, cell: Option<Cell>) {
        if let Some(i) = self.shadow_index(x, y) {
            self.shadow[i] = cell;
        }
    }

    /// The cells from `from` up to `to` on row y are to be written or
    /// erased, in the look set: a wide character only partly among them
    /// leaves blanks on the screen in its other cells. Those are known as
    /// blanks in the default background when neither the character nor the
    /// look set has another background or anything that shows on a blank,
    /// else not known.
    fn split_wide(&mut self, from: u16, to: u16, y: u16) {
        let plain = |bg: Color, m: Modifier| bg == Color::Reset && !m.intersects(SHOWS_ON_BLANK);
        let pen_plain = self.pen.is_some_and(|p| plain(p.bg, p.modifier));
        let mut orphans = Vec::new();
        // Starting before `from` and reaching into it; starting before `to`
        // and reaching past it.
        let starts = (from.saturating_sub(2)..from).chain(to.saturating_sub(2).max(from)..to);
        for start in starts {
            let Some(c) = self.shown(start, y) else {
                continue;
            };
            let end = start.saturating_add(c.symbol().width() as u16);
            let known = (pen_plain && plain(c.bg, c.modifier)).then_some(Cell::EMPTY);
            if start < from && end > from {
                orphans.extend((start..from).map(|cx| (cx, known.clone())));
            } else if start >= from && end > to {
                orphans.extend((to..end).map(|cx| (cx, known.clone())));
            }
        }
        for (cx, cell) in orphans {
            self.set_shown(cx, y, cell);
        }
    }

    /// Set a look in which `cell` shows as it should: its own, or for a
    /// blank that shows only its background, the look already set with that
    /// background (whichever costs fewer bytes).
    fn pen_for(&mut self, cell: &Cell) {
        if self.pen.is_some_and(|pen| fits(pen, cell)) {
            return;
        }
        let own = Pen::of(cell);
        let pen = match self.pen {
            Some(pen) if plain_blank(cell) => {
                let kept = Pen {
                    fg: pen.fg,
                    bg: cell.bg,
                    modifier: pen.modifier - SHOWS_ON_BLANK,
                };
                let (mut a, mut b) = (Vec::new(), Vec::new());
                sgr(&mut a, self.pen, kept);
                sgr(&mut b, self.pen, own);
                if a.len() <= b.len() { kept } else { own }
            }
            _ => own,
        };
        sgr(&mut self.out, self.pen, pen);
        self.pen = Some(pen);
    }

    /// For a blank that the look set does not fit: the look of the next
    /// cell to write on its row y (`cells`, from the one after it), when
    /// that fits the blank too (one change of look instead of two).
    fn look_ahead(&self, blank: &Cell, y: u16, cells: &[(u16, u16, &Cell)]) -> Option<Pen> {
        if self.pen.is_some_and(|p| fits(p, blank)) {
            return None;
        }
        let next = cells
            .iter()
            .take_while(|&&(_, ny, _)| ny == y)
            .map(|&(_, _, c)| c)
            .find(|c| !plain_blank(c));
        next.map(Pen::of).filter(|&pen| fits(pen, blank))
    }

    /// Write one cell at the cursor, which is at (x, y).
    fn put(&mut self, x: u16, y: u16, cell: &Cell) {
        self.pen_for(cell);
        let symbol = cell.symbol();
        self.out.extend_from_slice(symbol.as_bytes());
        self.cursor = advance(x, y, symbol, self.size.get().width);
        self.split_wide(x, x.saturating_add(symbol.width().max(1) as u16), y);
        self.set_shown(x, y, Some(cell.clone()));
        // The cells a wide character covers are not cells to write again.
        for cx in x + 1..x.saturating_add(symbol.width().max(1) as u16) {
            self.set_shown(cx, y, None);
        }
    }

    /// Erase `n` cells from (x, y), where the cursor is, with ECH, or to the
    /// end of the row with EL (`to_end`), into blanks in the default
    /// background; the cursor stays.
    fn erase(&mut self, x: u16, y: u16, n: u16, to_end: bool) {
        let blank = Cell::EMPTY;
        // The default background set, and none of the modifiers that would
        // show on a blank (`pen_for` leaves them out).
        self.pen_for(&blank);
        if to_end {
            self.out.extend_from_slice(b"\x1b[K");
        } else {
            self.out.extend_from_slice(format!("\x1b[{n}X").as_bytes());
        }
        self.cursor = Some(Position { x, y });
        let end = if to_end { self.size.get().width } else { x + n };
        self.split_wide(x, end, y);
        for cx in x..end {
            self.set_shown(cx, y, Some(blank.clone()));
        }
    }

    /// Bring the cursor to (x, y), and set the look `look` when given, with
    /// the fewest bytes: the cells on the way may be written again, in the
    /// look set or in `look` (its SGR sent before them).
    fn go(&mut self, x: u16, y: u16, look: Option<Pen>) {
        let change = look.filter(|&pen| Some(pen) != self.pen);
        let (path, in_look) = self.path(x, y, change);
        if !in_look {
            self.out.extend_from_slice(&path);
        }
        if let Some(pen) = change {
            sgr(&mut self.out, self.pen, pen);
            self.pen = Some(pen);
        }
        if in_look {
            self.out.extend_from_slice(&path);
        }
        self.cursor = Some(Position { x, y });
    }

    /// The shortest way from the cursor to (x, y): a move, or the cells on
    /// the way written again in the look set or in `change` (then `true`:
    /// sent after its SGR). Nothing when the cursor is there.
    fn path(&self, x: u16, y: u16, change: Option<Pen>) -> (Vec<u8>, bool) {
        let Some(at) = self.cursor else {
            return (cup(x, y), false);
        };
        if at == (Position { x, y }) {
            return (Vec::new(), false);
        }
        let width = self.size.get().width;
        let kept = self.pen.and_then(|pen| self.rewrite(at, x, y, pen));
        let moves = [Some(cup(x, y)), relative(at, x, y, width), kept];
        let best = moves
            .into_iter()
            .flatten()
            .min_by_key(Vec::len)
            .unwrap_or_default();
        match change.and_then(|pen| self.rewrite(at, x, y, pen)) {
            Some(bytes) if bytes.len() < best.len() => (bytes, true),
            _ => (best, false),
        }
    }

    /// The cells from the cursor up to (x, y) on the same row written again
    /// as the terminal already shows them, when they are known, show as
    /// they should in the look `pen` (so nothing but their bytes is sent),
    /// and leave the cursor where every terminal agrees.
    fn rewrite(&self, at: Position, x: u16, y: u16, pen: Pen) -> Option<Vec<u8>> {
        if at.y != y || at.x >= x || x - at.x > 8 {
            return None;
        }
        let width = self.size.get().width;
        let mut bytes = Vec::new();
        let mut cx = at.x;
        while cx < x {
            let cell = self.shown(cx, y)?;
            if !fits(pen, cell) || cell.symbol().chars().any(char::is_control) {
                return None;
            }
            bytes.extend_from_slice(cell.symbol().as_bytes());
            cx = advance(cx, y, cell.symbol(), width)?.x;
        }
        (cx == x).then_some(bytes)
    }

    /// Whether the terminal already shows `cell` at (x, y).
    fn shows(&self, x: u16, y: u16, cell: &Cell) -> bool {
        self.shown(x, y).is_some_and(|shown| alike(shown, cell))
    }

    /// Scroll `bands` of rows on the terminal and in the copy of the
    /// screen, in a look a blank shows as the default one in (the default
    /// background and nothing that shows on a blank: the rows scrolled in
    /// are blanks in the default background on every terminal then, as for
    /// erasing), and reset the region.
    fn scroll(&mut self, bands: &[scroll::Band]) {
        self.pen_for(&Cell::EMPTY);
        let width = usize::from(self.size.get().width);
        for band in bands {
            self.out.extend_from_slice(&band.sequence());
            band.apply(&mut self.shadow, width, Some(Cell::EMPTY));
        }
        // The region reset puts the cursor at the top left.
        self.out.extend_from_slice(b"\x1b[r");
        self.cursor = Some(Position { x: 0, y: 0 });
    }

    /// Write the frame: scroll `bands`, then every cell of their rows that
    /// `target` (what the screen is to show) holds, and the cells of `diff`
    /// elsewhere.
    fn write(
        &mut self,
        diff: &[(u16, u16, &Cell)],
        bands: &[scroll::Band],
        target: &[Option<Cell>],
    ) {
        let Size { width, height } = self.size.get();
        let w = usize::from(width);
        let cells: std::borrow::Cow<[(u16, u16, &Cell)]> = if bands.is_empty() {
            diff.into()
        } else {
            self.scroll(bands);
            // Every cell of a band's rows, from what the screen is to
            // show; the diff elsewhere.
            let mut moved = vec![false; usize::from(height)];
            for band in bands {
                moved[usize::from(band.top)..=usize::from(band.bottom)].fill(true);
            }
            let mut cells = Vec::with_capacity(diff.len());
            let mut rest = diff.iter().copied().peekable();
            for y in 0..height {
                let in_row = |&(_, cy, _): &(u16, u16, &Cell)| cy == y;
                if !moved[usize::from(y)] {
                    while let Some(cell) = rest.next_if(in_row) {
                        cells.push(cell);
                    }
                    continue;
                }
                while rest.next_if(in_row).is_some() {}
                let row = &target[usize::from(y) * w..(usize::from(y) + 1) * w];
                let mut x = 0;
                while x < w {
                    let cell = row[x].as_ref().unwrap_or(&scroll::UNSENT);
                    cells.push((x as u16, y, cell));
                    x += cell.symbol().width().max(1);
                }
            }
            cells.into()
        };
        let mut i = 0;
        while i < cells.len() {
            let (x, y, cell) = cells[i];
            if self.shows(x, y, cell) {
                // ratatui's buffer changed, not what the screen shows (a
                // blank's foreground, say).
                i += 1;
                continue;
            }
            if let Some((n, to_end, next)) = self.blank_run(&cells, i) {
                self.go(x, y, self.look_ahead(&Cell::EMPTY, y, &cells[next..]));
                self.erase(x, y, n, to_end);
                i = next;
                continue;
            }
            let look = if plain_blank(cell) {
                self.look_ahead(cell, y, &cells[i + 1..])
            } else {
                Some(Pen::of(cell))
            };
            self.go(x, y, look);
            self.put(x, y, cell);
            i += 1;
        }
    }

    /// A run of blanks from `cells[i]` (where the cursor will be) worth
    /// erasing rather than writing: how many cells to erase, whether to the
    /// end of the row (EL, else ECH), and the index in `cells` after the
    /// run. The run holds blanks of the diff in the default background that
    /// show nothing else, and the cells between them that the terminal
    /// already shows as such blanks; it is erased only when the sequence and
    /// the move after it cost fewer bytes than the spaces and the move after
    /// them.
    fn blank_run(&self, cells: &[(u16, u16, &Cell)], i: usize) -> Option<(u16, bool, usize)> {
        let (x, y, first) = cells[i];
        let bg = Color::Reset;
        let in_wide = x > 0 && self.shown(x - 1, y).is_some_and(|c| c.symbol().width() > 1);
        if !plain_blank(first) || first.bg != bg || in_wide {
            return None;
        }
        let blank_here = |c: &Cell| plain_blank(c) && c.bg == bg;
        let width = self.size.get().width;
        let (mut j, mut end, mut to_end) = (i, x, true);
        // The end of a wide character the screen shows in the run, and
        // whether it shows nothing but the default background: its right
        // half turns into such a blank once its left one is erased.
        let mut wide: Option<(u16, bool)> = None;
        for cx in x..width {
            let old = self.shown(cx, y);
            let turns_blank = old.is_none() && wide.is_some_and(|(to, plain)| cx < to && plain);
            if let Some(c) = old.filter(|c| c.symbol().width() > 1) {
                let to = cx.saturating_add(c.symbol().width() as u16);
                wide = Some((to, c.bg == bg && !c.modifier.intersects(SHOWS_ON_BLANK)));
            }
            match cells.get(j) {
                Some(&(nx, ny, c)) if (nx, ny) == (cx, y) => {
                    // Erasing stops at no wide character's middle: tmux
                    // (3.3) then keeps its right half as half a character.
                    let reach = match wide {
                        Some((to, true)) => to.max(cx + 1),
                        Some((to, false)) if to > cx + 1 => {
                            to_end = false;
                            break;
                        }
                        _ => cx + 1,
                    };
                    if !blank_here(c) {
                        to_end = false;
                        break;
                    }
                    j += 1;
                    end = end.max(reach);
                }
                _ if turns_blank || old.is_some_and(blank_here) => {}
                _ => {
                    to_end = false;
                    break;
                }
            }
        }
        let n = end.min(width) - x;
        // The next cell written (not one the screen already shows).
        let next = cells[j..]
            .iter()
            .find(|&&(nx, ny, c)| !self.shows(nx, ny, c))
            .map(|&(nx, ny, _)| Position { x: nx, y: ny });
        let move_from = |at: Option<Position>| next.map_or(0, |to| move_bytes(at, to, width));
        // The spaces (the blanks between them written again), then on.
        let after = (end < width).then_some(Position { x: end, y });
        let written = usize::from(n) + move_from(after);
        let here = Some(Position { x, y });
        let ech = format!("\x1b[{n}X").len() + move_from(here);
        let el = 3 + move_from(here);
        if to_end && el < written && el <= ech {
            Some((width - x, true, j))
        } else if ech < written {
            Some((n, false, j))
        } else {
            None
        }
    }
}

/// Frames that scroll a region of the screen being written, or whose
/// write failed (each resets the region at once, but a write that fails
/// halfway may leave it set). A count, not a flag, for backends drawing at
/// once (tests).
static REGION_SET: AtomicUsize = AtomicUsize::new(0);

/// When the terminal is given back: reset the scroll region should a
/// frame's write have stopped between setting it and resetting it (a
/// region left set would keep the shell from scrolling). Writes nothing
/// otherwise: the reset also moves the cursor.
pub fn reset_scroll_region(writer: &mut impl Write) -> io::Result<()> {
    if REGION_SET.swap(0, Ordering::SeqCst) > 0 {
        writer.write_all(b"\x1b[r")?;
        writer.flush()?;
    }
    Ok(())
}

/// Modifiers that show on a blank: a space with none of them shows its
/// background and nothing else, whatever its foreground, weight or slant.
const SHOWS_ON_BLANK: Modifier = Modifier::REVERSED
    .union(Modifier::UNDERLINED)
    .union(Modifier::CROSSED_OUT)
    .union(Modifier::SLOW_BLINK)
    .union(Modifier::RAPID_BLINK);

/// A space that shows its background and nothing else.
fn plain_blank(cell: &Cell) -> bool {
    cell.symbol() == " " && !cell.modifier.intersects(SHOWS_ON_BLANK)
}

/// Whether `cell` written in the look `pen` shows as it should.
fn fits(pen: Pen, cell: &Cell) -> bool {
    if plain_blank(cell) {
        pen.bg == cell.bg && !pen.modifier.intersects(SHOWS_ON_BLANK)
    } else {
        pen == Pen::of(cell)
    }
}

/// Whether a screen showing `shown` shows `cell` (for a blank that shows
/// only its background: a blank in that background).
fn alike(shown: &Cell, cell: &Cell) -> bool {
    shown.symbol() == cell.symbol()
        && if plain_blank(cell) {
            plain_blank(shown) && shown.bg == cell.bg
        } else {
            Pen::of(shown) == Pen::of(cell)
        }
}

/// The bytes of the shortest move from `at` (`None`: unknown) to `to`,
/// not counting cells written again.
fn move_bytes(at: Option<Position>, to: Position, width: u16) -> usize {
    match at {
        Some(at) if at == to => 0,
        Some(at) => relative(at, to.x, to.y, width).map_or(usize::MAX, |m| m.len()),
        None => usize::MAX,
    }
    .min(cup(to.x, to.y).len())
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

/// The terminal's tab stops set every 8 columns across `width`, where
/// terminals start with them but a user may have set others (`tabs 4`):
/// column by column, HTS at each multiple of 8 and TBC of that column
/// elsewhere. Columns past `width` are left as they are (TBC of them all
/// would leave a terminal widened later with none there).
fn tab_stops(width: u16) -> Vec<u8> {
    let mut out = b"\r".to_vec();
    for x in 1..width {
        out.extend_from_slice(b"\x1b[C");
        out.extend_from_slice(if x % 8 == 0 { b"\x1bH" } else { b"\x1b[g" });
    }
    out
}

/// `ESC [ row ; col H`, with the 1s left out.
fn cup(x: u16, y: u16) -> Vec<u8> {
    match (x, y) {
        (0, 0) => b"\x1b[H".to_vec(),
        (0, y) => format!("\x1b[{}H", y + 1).into_bytes(),
        (x, y) => format!("\x1b[{};{}H", y + 1, x + 1).into_bytes(),
    }
}

/// The shortest move from `at` that names no row: carriage return,
/// forward, back or to a column on the same row; up or down (CUU, CUD) and
/// then along the row; CR LF to the next row. (LF alone is not used: a
/// Windows console without `DISABLE_NEWLINE_AUTO_RETURN` also returns the
/// carriage on it.)
fn relative(at: Position, x: u16, y: u16, width: u16) -> Option<Vec<u8>> {
    let n = |d: u16, end: char| match d {
        1 => format!("\x1b[{end}"),
        d => format!("\x1b[{d}{end}"),
    };
    // Back: by backspaces, or CUB.
    let left = |d: u16| {
        let bs = "\x08".repeat(usize::from(d));
        let cub = n(d, 'D');
        if bs.len() <= cub.len() { bs } else { cub }
    };
    // Forward by tab stops (every 8 columns), then on or back.
    let tabs = |from: u16| {
        if x <= from {
            return [None, None];
        }
        let stops = x / 8 - from / 8;
        let landed = x / 8 * 8;
        let on = (stops > 0).then(|| {
            "\t".repeat(usize::from(stops))
                + &match x - landed {
                    0 => String::new(),
                    d => n(d, 'C'),
                }
        });
        let past = (x / 8 + 1) * 8;
        let back = (!x.is_multiple_of(8) && past < width)
            .then(|| "\t".repeat(usize::from(stops) + 1) + &left(past - x));
        [on, back]
    };
    // Along a row, from column `from`.
    let along = |from: u16| {
        let [on, back] = tabs(from);
        [
            (x == from).then(String::new),
            (x == 0).then(|| "\r".to_string()),
            (x > from).then(|| n(x - from, 'C')),
            (x < from).then(|| left(from - x)),
            Some(n(x + 1, 'G')),
            on,
            back,
        ]
        .into_iter()
        .flatten()
        .min_by_key(String::len)
        .unwrap_or_default()
    };
    let moves = [
        (at.y == y).then(|| along(at.x)),
        (y > at.y).then(|| n(y - at.y, 'B') + &along(at.x)),
        (y < at.y).then(|| n(at.y - y, 'A') + &along(at.x)),
        // The row below: CR LF (not from the bottom row, so it never scrolls).
        (y == at.y + 1).then(|| "\r\n".to_string() + &along(0)),
    ];
    moves
        .into_iter()
        .flatten()
        .min_by_key(String::len)
        .map(String::into_bytes)
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
        if self.shadow.is_empty() {
            // The first frame: ratatui's buffer starts blank, and its diff
            // leaves out the blanks, taking the screen for blank (as the
            // alternate screen is on entering it): so does this copy.
            self.reset_shadow(Some(Cell::EMPTY), Some(Cell::EMPTY));
        } else if self.shadow.len() != usize::from(width) * usize::from(height) {
            // A screen of another size: nothing known of what it shows;
            // ratatui's buffer starts blank (and is blanked again when it
            // clears the screen after a resize).
            self.reset_shadow(None, Some(Cell::EMPTY));
            self.cursor = None;
        }
        if self.tabs_for != Some(width) {
            self.out.extend_from_slice(&tab_stops(width));
            self.cursor = None;
            self.tabs_for = Some(width);
        }
        let diff: Vec<(u16, u16, &Cell)> = content.collect();
        let w = usize::from(width);
        for &(x, y, cell) in &diff {
            if let Some(i) = self.shadow_index(x, y) {
                self.target[i] = Some(cell.clone());
                // The cells it covers: ratatui sends none of them.
                let end = (usize::from(x) + cell.symbol().width().max(1)).min(w);
                for covered in &mut self.target[i + 1..i - usize::from(x) + end] {
                    *covered = None;
                }
            }
        }
        // The right half of a wide character that a cell was written over
        // (the cell just after it), which ratatui leaves out when its
        // buffer holds the same there: the screen is to go on showing
        // whatever it shows there once this frame is written (a blank the
        // terminal left), which is all ratatui asks.
        let halves: Vec<usize> = diff
            .iter()
            .filter_map(|&(x, y, cell)| {
                let after = usize::from(x) + cell.symbol().width().max(1);
                self.shadow_index(u16::try_from(after).ok()?, y)
            })
            .filter(|&i| self.target[i].is_none())
            .collect();
        // Bands of rows that the terminal moves, so fewer cells are sent.
        let bands = if self.scrolling && !self.target_lost {
            let stay = scroll::diff_cost(&diff, height, |x, y, c| self.shows(x, y, c), plain_blank);
            scroll::plan(&self.shadow, &self.target, width, &stay, plain_blank)
        } else {
            Vec::new()
        };
        let target = std::mem::take(&mut self.target);
        // The plan's prices are estimates: when it scrolls, the frame is
        // written without scrolling too, and whichever sends fewer bytes is
        // sent.
        // (What `out` already holds, the tab stops, is sent either way.)
        let start = self.out.len();
        let unscrolled = (!bands.is_empty()).then(|| (self.shadow.clone(), self.cursor, self.pen));
        self.write(&diff, &bands, &target);
        let bands = match unscrolled {
            None => bands,
            Some((shadow, cursor, pen)) => {
                let scrolled = (
                    self.out.split_off(start),
                    std::mem::replace(&mut self.shadow, shadow),
                    self.cursor,
                    self.pen,
                );
                (self.cursor, self.pen) = (cursor, pen);
                self.write(&diff, &[], &target);
                if scrolled.0.len() < self.out.len() - start {
                    self.out.truncate(start);
                    self.out.extend_from_slice(&scrolled.0);
                    (self.shadow, self.cursor, self.pen) = (scrolled.1, scrolled.2, scrolled.3);
                    bands
                } else {
                    Vec::new()
                }
            }
        };
        self.target = target;
        for i in halves {
            if self.target[i].is_none() {
                self.target[i] = self.shadow[i].clone();
            }
        }
        if !bands.is_empty() {
            // Reset in this very write; should the write fail halfway,
            // `reset_scroll_region` resets it when the terminal is given
            // back.
            REGION_SET.fetch_add(1, Ordering::SeqCst);
        }
        let written = self.writer.write_all(&self.out);
        self.out.clear();
        written?;
        if !bands.is_empty() {
            let _ = REGION_SET.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                Some(n.saturating_sub(1))
            });
        }
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
        // Cleared cells take the current background: set none first, in
        // full (after a suspend the shell may have set another look than
        // the one this backend left).
        self.writer.write_all(b"\x1b[m")?;
        self.pen = Some(Pen::DEFAULT);
        queue!(self.writer, terminal::Clear(kind))?;
        match clear_type {
            ClearType::All => {
                self.reset_shadow(Some(Cell::EMPTY), Some(Cell::EMPTY));
                // Cleared on a resize and after a suspend (when the shell
                // may have set other tab stops): set again with the next
                // frame.
                self.tabs_for = None;
            }
            // What a partial clear leaves is not tracked.
            _ => self.reset_shadow(None, None),
        }
        self.writer.flush()
    }

    fn append_lines(&mut self, n: u16) -> io::Result<()> {
        for _ in 0..n {
            self.writer.write_all(b"\n")?;
        }
        self.cursor = None;
        self.reset_shadow(None, None);
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
    use ratatui::style::Style;

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
        differences_but(screen, buf, &std::collections::HashSet::new())
    }

    /// `differences`, where the cells `loose` may show a blank of any look.
    fn differences_but(
        screen: &vt100::Screen,
        buf: &Buffer,
        loose: &std::collections::HashSet<(u16, u16)>,
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

    /// Draw `frames` one after the other through a backend and a terminal
    /// emulator; after each, the emulator's screen must be the buffer.
    /// The bytes written in all.
    pub(crate) fn replay(
        width: u16,
        height: u16,
        frames: impl IntoIterator<Item = (String, App)>,
    ) -> usize {
        let buffers = frames.into_iter().map(|(name, app)| {
            let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, width, height));
            crate::view::render(&app, buf.area, &mut buf);
            (name, buf)
        });
        replay_buffers(width, height, buffers).len()
    }

    /// Draw the buffers `frames` (each `width` × `height`) one after the
    /// other through a backend and a terminal emulator; after each, the
    /// emulator's screen must be the buffer. Everything written.
    pub(crate) fn replay_buffers(
        width: u16,
        height: u16,
        frames: impl IntoIterator<Item = (String, Buffer)>,
    ) -> Vec<u8> {
        replay_scrolling(width, height, frames, true)
    }

    /// `replay_buffers`, with rows that move scrolled or not.
    fn replay_scrolling(
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
        let mut loose = std::collections::HashSet::new();
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
    pub(crate) fn scroll_faults(bytes: &[u8]) -> Vec<String> {
        let mut faults = Vec::new();
        let (mut look, mut region) = (None::<OnBlank>, false);
        let mut i = 0;
        while i + 1 < bytes.len() {
            if bytes[i] != 0x1b || bytes[i + 1] != b'[' {
                i += 1;
                continue;
            }
            let Some(end) = (i + 2..bytes.len()).find(|&j| (0x40..=0x7e).contains(&bytes[j]))
            else {
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
                    // Frames far apart: the first step after the plain
                    // theme's third, the last after the first, and the
                    // other language's second.
                    frames.push(("first".into(), crate::frames::at_step(&app, 0, w, h)));
                    frames.push((
                        "last".into(),
                        crate::frames::at_step(&app, app.last(), w, h),
                    ));
                    let other = if lang == Lang::Zh { Lang::En } else { Lang::Zh };
                    let app = App::new(load::load(name).unwrap(), other, Theme::DARK);
                    frames.push((format!("{other:?}"), crate::frames::at_step(&app, 1, w, h)));
                    replay(w, h, frames);
                }
            }
        }
    }

    /// Row `n` of a list, unlike its neighbours: a letter of its own, its
    /// number and `more`.
    fn distinct(n: usize, more: &str) -> String {
        let letter = char::from(b'a' + (n % 26) as u8).to_string();
        format!("{} {n:02} {more}", letter.repeat(12))
    }

    /// Whether `bytes` scroll a region (SU or SD).
    fn scrolls(bytes: &[u8]) -> bool {
        let text = String::from_utf8_lossy(bytes);
        ["S", "T"].iter().any(|end| {
            (1..=scroll::MAX_SHIFT).any(|n| {
                let n = if n == 1 { String::new() } else { n.to_string() };
                text.contains(&format!("r\x1b[{n}{end}"))
            })
        })
    }

    /// A long run stepped forward and back (the lanes and the call_id
    /// table move a row a step): every frame shows as drawn with rows
    /// scrolled, scrolling is used, and it sends fewer bytes than writing
    /// the rows again.
    #[test]
    fn rows_that_move_are_scrolled() {
        let loaded = load::prepare("<long>", super::long_scenario::json(20).as_bytes())
            .expect("the long run");
        for lang in [Lang::Zh, Lang::En] {
            let app = App::new(loaded.clone(), lang, Theme::DARK);
            for (w, h) in [(120, 40), (80, 24)] {
                let steps: Vec<usize> = (10..45).chain((10..44).rev()).collect();
                let frames = || {
                    steps.iter().map(|&i| {
                        let at = crate::frames::at_step(&app, i, w, h);
                        let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, w, h));
                        crate::view::render(&at, buf.area, &mut buf);
                        (format!("{lang:?} {w}x{h} step {}", i + 1), buf)
                    })
                };
                let scrolled = replay_scrolling(w, h, frames(), true);
                let written = replay_scrolling(w, h, frames(), false);
                assert!(scrolls(&scrolled), "{lang:?} {w}x{h}: no scrolling");
                assert!(!scrolls(&written));
                assert!(
                    scrolled.len() < written.len(),
                    "{lang:?} {w}x{h}: {} bytes scrolled, {} written",
                    scrolled.len(),
                    written.len()
                );
            }
        }
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
        let lines = |first: u16| {
            let mut b = Buffer::empty(ratatui::layout::Rect::new(0, 0, 30, 8));
            for y in 0..8 {
                b.set_string(0, y, distinct(usize::from(first + y), ""), Style::new());
                b.set_string(24, y, "│ x", Style::new());
            }
            b
        };
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
        let lines = |first: u16| {
            let mut b = Buffer::empty(ratatui::layout::Rect::new(0, 0, 30, 8));
            for y in 0..8 {
                b.set_string(0, y, distinct(usize::from(first + y), ""), Style::new());
                b.set_string(24, y, "│ x", Style::new());
            }
            b
        };
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
        let frames = [
            buffer(
                40,
                8,
                &[
                    (0, &full, red_on_blue),
                    (1, &full, reversed),
                    (2, &wide, bold_red),
                    (3, &full, underlined),
                    (4, &full, green_bg),
                    (5, "abc", plain),
                    (6, &wide, plain),
                ],
            ),
            // Blanks over all of that, where the pen (blue background,
            // reversed, underlined, green background) would show on them.
            {
                let mut b = buffer(
                    40,
                    8,
                    &[
                        (0, &full, red_on_blue),
                        (1, &full, reversed),
                        (2, &wide, bold_red),
                        (3, &full, underlined),
                        (4, &full, green_bg),
                    ],
                );
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
