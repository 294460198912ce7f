//! A ratatui backend that sends the bytes a frame needs and no more:
//! ratatui's diff of cells, written with as few bytes as the terminal needs.
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
//! - rows that move (a list scrolling by a row, say) scrolled on the
//!   terminal rather than written again, when that leaves
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
use unicode_width::UnicodeWidthStr;

use look::{Pen, SHOWS_ON_BLANK, alike, fits, plain_blank, sgr};
use moves::{advance, cup, move_bytes, relative, tab_stops};

pub use look::{SGR_MODIFIERS, colour};

#[cfg(any(test, feature = "check"))]
pub mod check;
mod look;
mod moves;
mod scroll;
#[cfg(test)]
mod tests;

// The README's example, compiled as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;

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
