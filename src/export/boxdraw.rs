//! Box-drawing characters as geometry. In an SVG a glyph's strokes meet its
//! neighbours' only if the font's metrics match the cell exactly, which they
//! rarely do (and fall-back CJK fonts draw them wide). So the lines that make
//! the panels are drawn as shapes from the cell's centre to its edges, and
//! join perfectly whatever font the reader has.

/// The weight of one arm of a box-drawing character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weight {
    None,
    Light,
    Heavy,
}

/// How a box-drawing character is drawn in its cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Arms from the centre to the edges: up, right, down, left.
    Lines([Weight; 4]),
    /// Two parallel lines on each arm (═ ║ ╔ ╗ ╚ ╝): up, right, down, left.
    Double([bool; 4]),
    /// A rounded corner (╭ ╮ ╰ ╯): the horizontal arm goes right (else
    /// left), the vertical arm down (else up).
    Arc { right: bool, down: bool },
}

/// The shape of `symbol`, or None when it is to be drawn as text.
pub fn shape(symbol: &str) -> Option<Shape> {
    let mut chars = symbol.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return None;
    };
    use Weight::{Heavy as H, Light as L, None as N};
    let lines = |up, right, down, left| Some(Shape::Lines([up, right, down, left]));
    let double = |up, right, down, left| Some(Shape::Double([up, right, down, left]));
    match c {
        '─' => lines(N, L, N, L),
        '│' => lines(L, N, L, N),
        '┌' => lines(N, L, L, N),
        '┐' => lines(N, N, L, L),
        '└' => lines(L, L, N, N),
        '┘' => lines(L, N, N, L),
        '├' => lines(L, L, L, N),
        '┤' => lines(L, N, L, L),
        '┬' => lines(N, L, L, L),
        '┴' => lines(L, L, N, L),
        '┼' => lines(L, L, L, L),
        '━' => lines(N, H, N, H),
        '┃' => lines(H, N, H, N),
        '┏' => lines(N, H, H, N),
        '┓' => lines(N, N, H, H),
        '┗' => lines(H, H, N, N),
        '┛' => lines(H, N, N, H),
        '┣' => lines(H, H, H, N),
        '┫' => lines(H, N, H, H),
        '┳' => lines(N, H, H, H),
        '┻' => lines(H, H, N, H),
        '╋' => lines(H, H, H, H),
        '┠' => lines(H, L, H, N),
        '┨' => lines(H, N, H, L),
        '┯' => lines(N, L, H, L),
        '┷' => lines(H, L, N, L),
        '┿' => lines(H, L, H, L),
        '╂' => lines(L, H, L, H),
        '╴' => lines(N, N, N, L),
        '╵' => lines(L, N, N, N),
        '╶' => lines(N, L, N, N),
        '╷' => lines(N, N, L, N),
        '╸' => lines(N, N, N, H),
        '╹' => lines(H, N, N, N),
        '╺' => lines(N, H, N, N),
        '╻' => lines(N, N, H, N),
        '╼' => lines(N, H, N, L),
        '╾' => lines(N, L, N, H),
        '═' => double(false, true, false, true),
        '║' => double(true, false, true, false),
        '╔' => double(false, true, true, false),
        '╗' => double(false, false, true, true),
        '╚' => double(true, true, false, false),
        '╝' => double(true, false, false, true),
        '╭' => Some(Shape::Arc {
            right: true,
            down: true,
        }),
        '╮' => Some(Shape::Arc {
            right: false,
            down: true,
        }),
        '╰' => Some(Shape::Arc {
            right: true,
            down: false,
        }),
        '╯' => Some(Shape::Arc {
            right: false,
            down: false,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_border_the_view_draws_is_a_shape() {
        for c in "─│┌┐└┘├┤┬┴┼━┃┏┓┗┛╭╮╰╯╔╗╚╝═║".chars()
        {
            assert!(shape(&c.to_string()).is_some(), "{c}");
        }
        for s in ["a", "中", " ", "─a", "▶"] {
            assert_eq!(shape(s), None, "{s}");
        }
    }
}
