//! Cursor moves: absolute, relative (CR, CR LF, CUF, CUB, CHA, CUU, CUD,
//! HT to the tab stops, BS), and the tab stops they rely on.

use ratatui::layout::Position;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The bytes of the shortest move from `at` (`None`: unknown) to `to`,
/// not counting cells written again.
pub(crate) fn move_bytes(at: Option<Position>, to: Position, width: u16) -> usize {
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
pub(crate) fn advance(x: u16, y: u16, symbol: &str, width: u16) -> Option<Position> {
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
pub(crate) fn tab_stops(width: u16) -> Vec<u8> {
    let mut out = b"\r".to_vec();
    for x in 1..width {
        out.extend_from_slice(b"\x1b[C");
        out.extend_from_slice(if x % 8 == 0 { b"\x1bH" } else { b"\x1b[g" });
    }
    out
}

/// `ESC [ row ; col H`, with the 1s left out.
pub(crate) fn cup(x: u16, y: u16) -> Vec<u8> {
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
pub(crate) fn relative(at: Position, x: u16, y: u16, width: u16) -> Option<Vec<u8>> {
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
