//! Several steps in one figure: a strip of steps side by side (`--strip`),
//! and for a PDF page, rows of such strips one under another.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::frame::{Frame, framed, step_of};
use crate::app::App;
use crate::frames::Framing;
use crate::i18n;

/// Columns between the frames of a strip.
pub const STRIP_GAP: u16 = 2;
/// Rows between the strips of a PDF page.
pub const ROW_GAP: u16 = 1;

/// The figure of one step, or for several a strip: the steps side by side,
/// each labelled by its own header (step k/N and the step's title).
pub fn figure(app: &App, indices: &[usize], size: (u16, u16), framing: Framing) -> Frame {
    if let [one] = indices {
        return framed(app, *one, size, framing);
    }
    let (w, h) = size;
    let n = indices.len() as u16;
    let width = n * w + (n - 1) * STRIP_GAP;
    let area = Rect::new(0, 0, width, h);
    let mut buffer = Buffer::empty(area);
    buffer.set_style(area, app.theme.base());
    let mut description = String::new();
    for (k, &index) in indices.iter().enumerate() {
        let frame = framed(app, index, size, framing);
        let left = k as u16 * (w + STRIP_GAP);
        for y in 0..h {
            for x in 0..w {
                buffer[(left + x, y)] = frame.buffer[(x, y)].clone();
            }
        }
        if !description.is_empty() {
            description.push('\n');
        }
        description.push_str(&format!("{}\n{}", step_of(app, index), frame.description));
    }
    Frame {
        buffer,
        title: range_title(app, indices),
        description,
        lang: app.lang,
    }
}

/// Rows of strips, `per_row` steps a row, one under another: a `--strip`
/// PDF page, filled down as well as across. The rows are as wide as the
/// first, so a short last row keeps the scale of the others.
pub fn rows(
    app: &App,
    indices: &[usize],
    per_row: usize,
    size: (u16, u16),
    framing: Framing,
) -> Frame {
    let strips: Vec<Frame> = indices
        .chunks(per_row)
        .map(|row| figure(app, row, size, framing))
        .collect();
    let [first, ..] = strips.as_slice() else {
        return figure(app, indices, size, framing);
    };
    if strips.len() == 1 {
        return strips.into_iter().next().expect("one strip");
    }
    let width = first.buffer.area.width;
    let n = strips.len() as u16;
    let height = n * size.1 + (n - 1) * ROW_GAP;
    let area = Rect::new(0, 0, width, height);
    let mut buffer = Buffer::empty(area);
    buffer.set_style(area, app.theme.base());
    let mut description = String::new();
    for (k, strip) in strips.iter().enumerate() {
        let top = k as u16 * (size.1 + ROW_GAP);
        let from = strip.buffer.area;
        for y in 0..from.height {
            for x in 0..from.width {
                buffer[(x, top + y)] = strip.buffer[(x, y)].clone();
            }
        }
        if !description.is_empty() {
            description.push('\n');
        }
        description.push_str(&strip.description);
    }
    Frame {
        buffer,
        title: range_title(app, indices),
        description,
        lang: app.lang,
    }
}

/// The run's title (or the two compared) and the steps: "… · 步骤 3–5/8".
fn range_title(app: &App, indices: &[usize]) -> String {
    let (first, last) = (indices[0], indices[indices.len() - 1]);
    let title = match app.comparing() {
        Some(c) => i18n::COMPARE_FIGURE.fill(
            app.lang,
            &[
                ("main", &app.trace().title),
                ("other", &c.other.trace(app.lang).title),
            ],
        ),
        None => app.trace().title.clone(),
    };
    format!(
        "{title} · {} {}–{}/{}",
        i18n::STEP.get(app.lang),
        first + 1,
        last + 1,
        app.steps()
    )
}
