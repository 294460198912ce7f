//! The look of a cell (its colours and modifiers) and the SGR sequences
//! that set it.

use ratatui::buffer::Cell;
use ratatui::style::{Color, Modifier};

/// The look of a cell, as SGR sets it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Pen {
    pub(crate) fg: Color,
    pub(crate) bg: Color,
    pub(crate) modifier: Modifier,
}

impl Pen {
    pub(crate) const DEFAULT: Pen = Pen {
        fg: Color::Reset,
        bg: Color::Reset,
        modifier: Modifier::empty(),
    };

    pub(crate) fn of(cell: &Cell) -> Pen {
        Pen {
            fg: cell.fg,
            bg: cell.bg,
            modifier: cell.modifier,
        }
    }
}

/// Modifiers that show on a blank: a space with none of them shows its
/// background and nothing else, whatever its foreground, weight or slant.
pub(crate) const SHOWS_ON_BLANK: Modifier = Modifier::REVERSED
    .union(Modifier::UNDERLINED)
    .union(Modifier::CROSSED_OUT)
    .union(Modifier::SLOW_BLINK)
    .union(Modifier::RAPID_BLINK);

/// A space that shows its background and nothing else.
pub(crate) fn plain_blank(cell: &Cell) -> bool {
    cell.symbol() == " " && !cell.modifier.intersects(SHOWS_ON_BLANK)
}

/// Whether `cell` written in the look `pen` shows as it should.
pub(crate) fn fits(pen: Pen, cell: &Cell) -> bool {
    if plain_blank(cell) {
        pen.bg == cell.bg && !pen.modifier.intersects(SHOWS_ON_BLANK)
    } else {
        pen == Pen::of(cell)
    }
}

/// Whether a screen showing `shown` shows `cell` (for a blank that shows
/// only its background: a blank in that background).
pub(crate) fn alike(shown: &Cell, cell: &Cell) -> bool {
    shown.symbol() == cell.symbol()
        && if plain_blank(cell) {
            plain_blank(shown) && shown.bg == cell.bg
        } else {
            Pen::of(shown) == Pen::of(cell)
        }
}

/// The SGR sequence that changes the look from `from` (unknown: anything)
/// to `to`: only what differs, or a reset and all of `to` when shorter.
pub(crate) fn sgr(out: &mut Vec<u8>, from: Option<Pen>, to: Pen) {
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
