//! Rows that move: when a frame scrolls a list by a row (in agent-loop-sim,
//! the lanes or the call_id table), the terminal can move the rows it
//! already shows instead of being sent them again, as ncurses does
//! (`hashmap.c` pairs old and new lines, `hardscroll.c` scrolls them into
//! place).
//!
//! ncurses pairs whole lines by their hashes; here panels on one side may
//! stay while those on the other scroll, so no row of the screen comes back
//! whole. Instead each row of the next screen is priced (about the bytes
//! its cells would cost to write: their text, a move before each run of
//! them, an SGR at each change of look, a run of blanks erased; `Price`)
//! against the row the screen shows at its own place and against those 1
//! to `MAX_SHIFT` rows above and below, and a band of full-width rows is
//! scrolled when what is left to write in it, with the bytes of the
//! scrolling itself, costs less than writing it as it is. Which bands (none overlapping) save the most is found exactly over
//! those prices, by dynamic programming over the rows: `O(rows² · shifts)`
//! sums, each `O(1)` from prefix sums.
//!
//! A band is scrolled with DECSTBM (`ESC[top;bottomr`, the region) and SU
//! (`ESC[nS`) or SD (`ESC[nT`), and the region is reset (`ESC[r`) right
//! after, in the same write, before any cell is written. SU and SD scroll
//! just the region and leave the cursor, and DECSTBM (the reset too) puts
//! it at the top left: so xterm's control sequences document them, and so
//! tmux, Windows Terminal (conhost's margins), ghostty, libvterm and the
//! vt100 crate (0.16) that the tests replay through carry them out (tmux
//! itself scrolls its outer terminal with a region and SU). The rows scrolled in are erased: in the background set on
//! terminals with "background colour erase", in the default one on the
//! others; the default look is set before scrolling, so both give blanks
//! in the default background, and that is what the copy of the screen
//! holds there (tmux sets the default look before it scrolls its outer
//! terminal for the same reason).

use ratatui::buffer::Cell;
use unicode_width::UnicodeWidthStr;

use ratatui::style::{Color, Modifier};

/// The most rows a band is scrolled by, up or down.
pub(super) const MAX_SHIFT: usize = 3;

/// What a run of cells to write costs beyond their text: the move to it.
const MOVE: usize = 3;

/// A price that no band can pay.
const NEVER: u64 = u64::MAX / 4;

/// Full-width rows `top..=bottom` scrolled by `by` rows: up (what row
/// `y + by` shows moves to row `y`; SU) when positive, down (SD) when
/// negative.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Band {
    pub top: u16,
    pub bottom: u16,
    pub by: i16,
}

impl Band {
    /// DECSTBM for the band, then SU or SD (the 1 left out).
    pub fn sequence(&self) -> Vec<u8> {
        let n = self.by.unsigned_abs();
        let end = if self.by > 0 { 'S' } else { 'T' };
        let count = if n == 1 { String::new() } else { n.to_string() };
        format!(
            "\x1b[{};{}r\x1b[{count}{end}",
            self.top + 1,
            self.bottom + 1
        )
        .into_bytes()
    }

    /// The length of `sequence`, without writing it.
    fn sequence_len(&self) -> usize {
        let digits = |n: u16| n.checked_ilog10().unwrap_or(0) as usize + 1;
        let n = self.by.unsigned_abs();
        // ESC [ top ; bottom r, then ESC [ n S (or T).
        4 + digits(self.top + 1) + digits(self.bottom + 1) + 3 + if n == 1 { 0 } else { digits(n) }
    }

    /// `rows` (`width` cells a row) as the terminal shows them after the
    /// band scrolled: its rows moved, those scrolled in `blank`.
    pub fn apply<T: Clone>(&self, rows: &mut [T], width: usize, blank: T) {
        let (top, bottom) = (usize::from(self.top), usize::from(self.bottom));
        let n = usize::from(self.by.unsigned_abs());
        let band = &mut rows[top * width..(bottom + 1) * width];
        let len = band.len();
        if self.by > 0 {
            band.rotate_left(n * width);
            band[len - n * width..].fill(blank);
        } else {
            band.rotate_right(n * width);
            band[..n * width].fill(blank);
        }
    }
}

/// What a band's row holds where ratatui's buffer is not known: the right
/// half of a wide character a cell was written over, which ratatui does
/// not send again, taking it for the blank the terminal leaves there.
pub(super) static UNSENT: Cell = Cell::EMPTY;

/// A cell as it shows, in a few words: its text (its bytes when fewer
/// than 8, else a hash), and its look (a blank that shows only its
/// background: that background alone). Two cells show alike (`alike`)
/// when their keys are equal, but for a hash shared by two long clusters,
/// which at worst misprices a row (the cells are compared themselves when
/// written).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    text: u64,
    fg: Color,
    bg: Color,
    modifier: Modifier,
}

impl Key {
    /// `blank`: whether a cell shows its background and nothing else.
    fn of(cell: &Cell, blank: fn(&Cell) -> bool) -> Key {
        let symbol = cell.symbol();
        let text = if symbol.len() < 8 {
            let mut bytes = [0u8; 8];
            bytes[..symbol.len()].copy_from_slice(symbol.as_bytes());
            bytes[7] = symbol.len() as u8;
            u64::from_le_bytes(bytes)
        } else {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            symbol.hash(&mut h);
            h.finish() | 0xff << 56
        };
        if blank(cell) {
            Key {
                text,
                fg: Color::Reset,
                bg: cell.bg,
                modifier: Modifier::empty(),
            }
        } else {
            Key {
                text,
                fg: cell.fg,
                bg: cell.bg,
                modifier: cell.modifier,
            }
        }
    }
}

/// A row of the next screen: each cell to write (not those a wide
/// character covers): its column, its key and its bytes.
fn wanted_row(want: &[Option<Cell>], blank: fn(&Cell) -> bool) -> Vec<(usize, Key, usize)> {
    let mut cells = Vec::with_capacity(want.len());
    let mut x = 0;
    while x < want.len() {
        let cell = want[x].as_ref().unwrap_or(&UNSENT);
        cells.push((x, Key::of(cell, blank), cell.symbol().len()));
        x += cell.symbol().width().max(1);
    }
    cells
}

/// The bytes writing the cells `want` of a row costs where the screen
/// shows the keys `shown` (`None`: not known), as `Price` counts them.
fn row_cost(shown: impl Fn(usize) -> Option<Key>, want: &[(usize, Key, usize)]) -> u64 {
    let mut price = Price::default();
    for &(x, key, bytes) in want {
        if shown(x) == Some(key) {
            price.skip();
        } else {
            price.write(key, bytes);
        }
    }
    price.total()
}

/// What a change of look costs (an SGR sequence), about.
const SGR: usize = 6;

/// What a run of blanks costs at most (ECH and the move after it).
const ERASE: usize = 4;

/// The bytes a row's cells cost, written left to right: each cell's
/// text, a move before each run of them, an SGR sequence at each change of
/// look, and a run of blanks in the default look erased when that is
/// shorter.
#[derive(Default)]
struct Price {
    cost: usize,
    in_run: bool,
    look: Option<(Color, Color, Modifier)>,
    blanks: usize,
}

impl Price {
    /// A cell left as the screen shows it.
    fn skip(&mut self) {
        self.in_run = false;
        self.end_blanks();
    }

    /// A cell written, its look `key` and its text `bytes` long.
    fn write(&mut self, key: Key, bytes: usize) {
        if !self.in_run {
            self.cost += MOVE;
            self.in_run = true;
        }
        if key.text == BLANK && key.fg == Color::Reset && key.bg == Color::Reset {
            self.blanks += 1;
            return;
        }
        self.end_blanks();
        let look = (key.fg, key.bg, key.modifier);
        if self.look != Some(look) {
            self.cost += SGR;
            self.look = Some(look);
        }
        self.cost += bytes;
    }

    fn end_blanks(&mut self) {
        self.cost += self.blanks.min(ERASE);
        self.blanks = 0;
    }

    fn total(mut self) -> u64 {
        self.end_blanks();
        self.cost as u64
    }
}

/// A space's text, as `Key` holds it.
const BLANK: u64 = u64::from_le_bytes([b' ', 0, 0, 0, 0, 0, 0, 1]);

/// The bytes writing `cells` (a frame's diff, row by row) costs where the
/// screen shows what `shows` says, row by row (`height` rows), priced as
/// `row_cost` prices a row.
pub(super) fn diff_cost(
    cells: &[(u16, u16, &Cell)],
    height: u16,
    shows: impl Fn(u16, u16, &Cell) -> bool,
    blank: fn(&Cell) -> bool,
) -> Vec<u64> {
    let mut rows: Vec<Price> = (0..height).map(|_| Price::default()).collect();
    let mut next = None;
    for &(x, y, cell) in cells {
        let Some(row) = rows.get_mut(usize::from(y)) else {
            continue;
        };
        if shows(x, y, cell) {
            row.skip();
            continue;
        }
        if next != Some((x, y)) {
            row.skip();
        }
        row.write(Key::of(cell, blank), cell.symbol().len());
        next = Some((x + cell.symbol().width().max(1) as u16, y));
    }
    rows.into_iter().map(Price::total).collect()
}

/// The bands to scroll so that the screen `shown` (row by row, `width`
/// cells a row) leaves the fewest bytes to write to become `want`, or none
/// when scrolling saves nothing. `stay`: what each row costs with nothing
/// scrolled (the frame's diff: a cell not in it is not written, whatever
/// the screen shows; `diff_cost`). `blank`: whether a cell shows its
/// background and nothing else (its foreground, weight and slant do not
/// count then).
pub(super) fn plan(
    shown: &[Option<Cell>],
    want: &[Option<Cell>],
    width: u16,
    stay: &[u64],
    blank: fn(&Cell) -> bool,
) -> Vec<Band> {
    let w = usize::from(width);
    if w == 0 || shown.len() != want.len() {
        return Vec::new();
    }
    let h = want.len() / w;
    if h < 2 || stay.len() != h {
        return Vec::new();
    }
    let total: u64 = stay.iter().sum();
    // Nothing, or too little, to write for a band to pay.
    if total < 16 {
        return Vec::new();
    }
    let costs = Costs::new(shown, want, w, stay, blank);
    best_bands(h, &costs)
}

/// Running sums of a row's prices that can be paid, and counts of those
/// that cannot (`NEVER`).
struct Sums(Vec<(u64, usize)>);

impl Sums {
    fn of(prices: &[u64]) -> Sums {
        let mut p = Vec::with_capacity(prices.len() + 1);
        p.push((0u64, 0usize));
        for &c in prices {
            let (sum, never) = p[p.len() - 1];
            p.push(if c >= NEVER {
                (sum, never + 1)
            } else {
                (sum + c, never)
            });
        }
        Sums(p)
    }

    /// Rows from..to (to excluded): `NEVER` if one of them cannot be paid.
    fn rows(&self, from: usize, to: usize) -> u64 {
        let p = &self.0;
        if to <= from {
            0
        } else if p[to].1 > p[from].1 {
            NEVER
        } else {
            p[to].0 - p[from].0
        }
    }
}

/// What the rows cost: as they are (`stay`), scrolled in blank, and with
/// the row `s` below (`up[s - 1]`) or above (`down[s - 1]`) moved in.
struct Costs {
    stay: Sums,
    scrolled_in: Sums,
    up: Vec<Sums>,
    down: Vec<Sums>,
}

impl Costs {
    fn new(
        shown: &[Option<Cell>],
        want: &[Option<Cell>],
        w: usize,
        stay: &[u64],
        blank: fn(&Cell) -> bool,
    ) -> Costs {
        let h = want.len() / w;
        let shown: Vec<Option<Key>> = shown
            .iter()
            .map(|c| c.as_ref().map(|c| Key::of(c, blank)))
            .collect();
        let wanted: Vec<_> = (0..h)
            .map(|y| wanted_row(&want[y * w..(y + 1) * w], blank))
            .collect();
        // The price of a row with the one `s` rows below it (up) or above it
        // (down) moved in: every cell of a band's rows is written where the
        // screen does not show it.
        let price = |y: usize, from: usize| row_cost(|x| shown[from * w + x], &wanted[y]);
        let erased = Some(Key::of(&Cell::EMPTY, blank));
        let scrolled_in: Vec<u64> = (0..h).map(|y| row_cost(|_| erased, &wanted[y])).collect();
        // moved[s - 1][y]: row y with row y + s (up) / y - s (down) moved in.
        let mut up = vec![vec![NEVER; h]; MAX_SHIFT];
        let mut down = vec![vec![NEVER; h]; MAX_SHIFT];
        for y in 0..h {
            for s in 1..=MAX_SHIFT {
                if y + s < h {
                    up[s - 1][y] = price(y, y + s);
                }
                if y >= s {
                    down[s - 1][y] = price(y, y - s);
                }
            }
        }
        Costs {
            stay: Sums::of(stay),
            scrolled_in: Sums::of(&scrolled_in),
            up: up.iter().map(|v| Sums::of(v)).collect(),
            down: down.iter().map(|v| Sums::of(v)).collect(),
        }
    }

    /// The bytes a band of rows top..=bottom saves scrolled by `by`: what
    /// its rows cost as they are, less what they cost moved and scrolled
    /// in, its sequences (the region reset, and the move the homed cursor
    /// needs, counted with each band) and the look reset before.
    fn saving(&self, top: usize, bottom: usize, by: i16) -> i64 {
        let n = usize::from(by.unsigned_abs());
        let before = self.stay.rows(top, bottom + 1);
        let after = if by > 0 {
            self.up[n - 1].rows(top, bottom + 1 - n)
                + self.scrolled_in.rows(bottom + 1 - n, bottom + 1)
        } else {
            self.scrolled_in.rows(top, top + n) + self.down[n - 1].rows(top + n, bottom + 1)
        };
        if before >= NEVER || after >= NEVER {
            return i64::MIN;
        }
        let band = Band {
            top: top as u16,
            bottom: bottom as u16,
            by,
        };
        let fixed = band.sequence_len() + b"\x1b[r".len() + MOVE;
        before as i64 - after as i64 - fixed as i64
    }
}

/// The bands over `h` rows that save the most, none overlapping: best[y]
/// is the most bytes saved by bands within rows 0..y, choice[y] the band
/// ending at row y - 1 that gives it, if any.
fn best_bands(h: usize, costs: &Costs) -> Vec<Band> {
    let mut best = vec![0i64; h + 1];
    let mut choice: Vec<Option<Band>> = vec![None; h + 1];
    for end in 1..=h {
        let bottom = end - 1;
        best[end] = best[end - 1];
        for top in 0..bottom {
            let rows = bottom - top + 1;
            for n in 1..=MAX_SHIFT.min(rows - 1) {
                for by in [n as i16, -(n as i16)] {
                    let s = costs.saving(top, bottom, by);
                    if s > 0 && best[top] + s > best[end] {
                        best[end] = best[top] + s;
                        choice[end] = Some(Band {
                            top: top as u16,
                            bottom: bottom as u16,
                            by,
                        });
                    }
                }
            }
        }
    }
    let mut bands = Vec::new();
    let mut end = h;
    while end > 0 {
        match choice[end] {
            Some(band) => {
                bands.push(band);
                end = usize::from(band.top);
            }
            None => end -= 1,
        }
    }
    bands.reverse();
    bands
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row's price: a move before each run written, an SGR where the
    /// look changes (not for blanks between), a run of blanks at most an
    /// erase.
    #[test]
    fn a_row_is_priced_by_its_text_moves_looks_and_blanks() {
        let blank = |c: &Cell| c.symbol() == " ";
        let cell = |s: &str, fg: Color| {
            let mut c = Cell::EMPTY;
            c.set_symbol(s).set_fg(fg);
            Key::of(&c, blank)
        };
        let red = |s| (cell(s, Color::Red), 1);
        let space = (cell(" ", Color::Reset), 1);
        let mut price = Price::default();
        for (key, bytes) in [
            red("a"),
            red("b"),
            space,
            space,
            space,
            space,
            space,
            space,
            red("c"),
        ] {
            price.write(key, bytes);
        }
        assert_eq!(price.total() as usize, MOVE + SGR + 2 + ERASE + 1);
        let mut price = Price::default();
        price.write(red("a").0, 1);
        price.skip();
        price.write(cell("b", Color::Blue), 1);
        assert_eq!(price.total() as usize, 2 * (MOVE + SGR + 1));
    }

    #[test]
    fn a_band_is_scrolled_by_its_sequence_and_moved_so_in_the_copy() {
        for (top, bottom, by) in [(0, 1, 1), (4, 23, -1), (9, 99, 3), (99, 119, -2)] {
            let band = Band { top, bottom, by };
            assert_eq!(band.sequence().len(), band.sequence_len(), "{band:?}");
        }
        let band = Band {
            top: 4,
            bottom: 23,
            by: -2,
        };
        assert_eq!(band.sequence(), b"\x1b[5;24r\x1b[2T");
        let mut rows: Vec<u8> = (0..6).collect();
        Band {
            top: 1,
            bottom: 4,
            by: 1,
        }
        .apply(&mut rows, 1, 9);
        assert_eq!(rows, [0, 2, 3, 4, 9, 5]);
        Band {
            top: 1,
            bottom: 4,
            by: -2,
        }
        .apply(&mut rows, 1, 7);
        assert_eq!(rows, [0, 7, 7, 2, 3, 5]);
    }
}
