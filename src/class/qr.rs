//! The join address as a QR code drawn with half blocks: each character
//! cell holds two modules, one above the other, light drawn as the block
//! (white on black, whatever the terminal's theme), so the code reads the
//! right way round on a projector and in a text capture alike.

use qrcode::{Color, EcLevel, QrCode};

/// The rows of characters that draw `text` as a QR code with a quiet zone
/// of `quiet` light modules around it; `None` when the text is too long
/// for any code. Level L: a projected code is clean, and a smaller code
/// fits 80×24.
pub fn rows(text: &str, quiet: usize) -> Option<Vec<String>> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::L).ok()?;
    let n = code.width();
    let colors = code.to_colors();
    let side = n + 2 * quiet;
    // Light outside the code proper: the quiet zone.
    let light = |x: usize, y: usize| {
        let inside = (quiet..quiet + n).contains(&x) && (quiet..quiet + n).contains(&y);
        !inside || colors[(y - quiet) * n + (x - quiet)] == Color::Light
    };
    let rows = (0..side.div_ceil(2))
        .map(|r| {
            (0..side)
                .map(|x| {
                    let top = light(x, 2 * r);
                    // An odd side: the last row's lower half is beyond the
                    // code, drawn light like the quiet zone.
                    let bottom = 2 * r + 1 >= side || light(x, 2 * r + 1);
                    match (top, bottom) {
                        (true, true) => '█',
                        (true, false) => '▀',
                        (false, true) => '▄',
                        (false, false) => ' ',
                    }
                })
                .collect()
        })
        .collect();
    Some(rows)
}

/// The modules drawn by `rows`, read back: true for light. For tests and
/// for anyone checking a capture.
pub fn modules(rows: &[String]) -> Vec<Vec<bool>> {
    let mut out = Vec::new();
    for row in rows {
        let (top, bottom): (Vec<bool>, Vec<bool>) = row
            .chars()
            .map(|c| match c {
                '█' => (true, true),
                '▀' => (true, false),
                '▄' => (false, true),
                _ => (false, false),
            })
            .unzip();
        out.push(top);
        out.push(bottom);
    }
    out
}
