//! A frame as an SVG figure: the terminal grid drawn as vectors.
//!
//! Every cell sits at its column: a glyph is centred on its cell (two cells
//! for a wide character) by giving each character its own `<tspan x>` with
//! `text-anchor="middle"`, so neither the font's advance width nor a CJK
//! fall-back font can push the grid out of line. Backgrounds are merged
//! rectangles, box-drawing characters are shapes (see `boxdraw`), and the
//! text stays real, selectable `<text>`. Coordinates are integers in
//! hundredths of a pixel, so the output is the same bytes on every run.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use ratatui::buffer::Buffer;
use ratatui::style::Modifier;
use unicode_width::UnicodeWidthStr;

use super::boxdraw::{self, Shape, Weight};
use super::embed::Embedded;
use super::fonts::FONT_FAMILY;
use super::frame::Frame;
use crate::theme::{Rgb, Theme, ThemeKind};
use crate::trace::Lane;

/// Hundredths of a pixel.
type Units = i32;
const PX: Units = 100;
const CELL_W: Units = 10 * PX;
const CELL_H: Units = 20 * PX;
const PAD: Units = 10 * PX;
/// A wide character's size in a PDF run, and the spacing after it: a
/// glyph's advance (1 em) and the spacing fill its two cells, and the
/// spacing (0.08 em) stays under the tenth of an em that text extraction
/// reads as a word space.
const WIDE_PDF_PX: Units = 1850;
const WIDE_PDF_SPACING: Units = 2 * CELL_W - WIDE_PDF_PX;
/// How much lower a wide run's baseline is: its ideographic box (0.88 em
/// over the baseline) then starts inside its row, as at 16 px.
const WIDE_PDF_DROP: Units = 150;
/// The text's size in pixels (`font-size`).
pub const FONT_PX: u16 = 16;
/// From the top of the cell; a 16 px font in a 20 px row.
const BASELINE: Units = 15 * PX;
const UNDERLINE_Y: Units = 17 * PX;
const UNDERLINE_H: Units = PX;
const LIGHT: Units = 120;
const HEAVY: Units = 240;
/// Double lines: each line's thickness and its distance from the centre.
const DOUBLE_T: Units = 100;
const DOUBLE_GAP: Units = 200;
/// Runs of text continue over at most this many blank cells.
const MAX_GAP: usize = 2;
/// How a figure gets its fonts with `--embed-fonts`: the embedded faces'
/// names go first in its font list, and the `@font-face` rules go into its
/// own `<style>` unless the page around it holds them once for every frame
/// (the HTML player).
#[derive(Clone, Copy)]
pub struct Fonts<'a> {
    pub embedded: &'a Embedded,
    pub with_css: bool,
}

/// A cell's resolved look: colours as RGB after `REVERSED`, flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Ink {
    fg: Rgb,
    dim: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct TextStyle {
    ink: Ink,
    bold: bool,
    italic: bool,
    crossed: bool,
}

#[derive(Clone, Copy)]
struct Cell<'a> {
    symbol: &'a str,
    /// Columns the symbol covers (1 or 2); 0 for the trailing cell of a wide one.
    width: usize,
    bg: Rgb,
    style: TextStyle,
    underline: bool,
    hidden: bool,
}

/// The frame as a complete SVG document, naming the installed fonts.
pub fn render(frame: &Frame, theme: Theme) -> String {
    render_with(frame, theme, None)
}

/// The frame as a complete SVG document; with `fonts`, the embedded faces
/// come first.
pub fn render_with(frame: &Frame, theme: Theme, fonts: Option<Fonts<'_>>) -> String {
    render_grid(frame, theme, fonts, false)
}

/// The figure for a PDF page (`pdf`): the same, except that a run of
/// adjacent wide characters is one `<tspan>`, so that a Chinese phrase can
/// be searched and copied as one. Each glyph still sits on its two cells:
/// the run is set at `WIDE_PDF_PX` with `WIDE_PDF_SPACING` between
/// glyphs, one advance a pair of cells. At 16 px a CJK glyph would stand a
/// quarter em from the next, and PDF text extraction (poppler's
/// `pdftotext`) reads a gap over a tenth of an em as a word space; at the
/// font's own advance, centred, the run would lose the grid (a wrapped
/// line's indent, the space beside Latin, brackets). So the PDF's Chinese
/// is 16 % larger than the PNG's.
pub fn render_for_pdf(frame: &Frame, theme: Theme) -> String {
    render_grid(frame, theme, None, true)
}

/// The width and height in pixels of the figure of a `cols`×`rows` frame.
pub fn figure_px(cols: u16, rows: u16) -> (f32, f32) {
    let w = Units::from(cols) * CELL_W + 2 * PAD;
    let h = Units::from(rows) * CELL_H + 2 * PAD;
    (w as f32 / PX as f32, h as f32 / PX as f32)
}

fn render_grid(frame: &Frame, theme: Theme, fonts: Option<Fonts<'_>>, join_wide: bool) -> String {
    let buf = &frame.buffer;
    let (cols, rows) = (buf.area.width as usize, buf.area.height as usize);
    let width = cols as Units * CELL_W + 2 * PAD;
    let height = rows as Units * CELL_H + 2 * PAD;
    let page = theme.page();

    let grid = resolve(buf, theme);
    let mut backgrounds = Shapes::default();
    let mut lines = Shapes::default();
    let mut texts = String::new();
    for (row, cells) in grid.iter().enumerate() {
        let top = row as Units * CELL_H;
        for (col, cell) in cells.iter().enumerate() {
            let left = col as Units * CELL_W;
            if cell.bg != page {
                backgrounds.rect(
                    Ink {
                        fg: cell.bg,
                        dim: false,
                    },
                    left,
                    top,
                    CELL_W,
                    CELL_H,
                );
            }
            if cell.underline {
                lines.rect(cell.style.ink, left, top + UNDERLINE_Y, CELL_W, UNDERLINE_H);
            }
            if cell.width > 0
                && !cell.hidden
                && let Some(shape) = boxdraw::shape(cell.symbol)
            {
                draw_box(&mut lines, cell.style.ink, shape, left, top);
            }
        }
        text_runs(&mut texts, cells, top + BASELINE, theme, join_wide);
    }

    let mut svg = String::with_capacity(64 * 1024);
    svg.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" role=\"img\" xml:lang=\"{lang}\">",
        w = num(width),
        h = num(height),
        lang = frame.lang.tag()
    );
    let _ = writeln!(svg, "<title>{}</title>", escape(&frame.title));
    let _ = writeln!(svg, "<desc>{}</desc>", escape(&frame.description));
    if let Some(fonts) = fonts.filter(|f| f.with_css && !f.embedded.css.is_empty()) {
        let _ = write!(svg, "<style>\n{}</style>\n", fonts.embedded.css);
    }
    let _ = writeln!(
        svg,
        "<rect width=\"{}\" height=\"{}\" fill=\"{}\"/>",
        num(width),
        num(height),
        hex(page)
    );
    let _ = writeln!(
        svg,
        "<g transform=\"translate({} {})\">",
        num(PAD),
        num(PAD)
    );
    svg.push_str("<g shape-rendering=\"crispEdges\">\n");
    backgrounds.write(
        &mut svg,
        theme,
        |ink| format!(" fill=\"{}\"", hex(ink.fg)),
        |_| None,
    );
    svg.push_str("</g>\n");
    lines.write(
        &mut svg,
        theme,
        |ink| format!(" fill=\"{}\"", hex(ink.fg)),
        |ink| lane_dash(theme, ink),
    );
    let family = match fonts.filter(|f| !f.embedded.families.is_empty()) {
        Some(f) => format!("{}, {FONT_FAMILY}", f.embedded.families),
        None => FONT_FAMILY.to_string(),
    };
    let _ = writeln!(
        svg,
        "<g font-family=\"{family}\" font-size=\"{FONT_PX}\" text-anchor=\"middle\">"
    );
    svg.push_str(&texts);
    svg.push_str("</g>\n</g>\n</svg>\n");
    svg
}

/// Each cell's symbol and look. The trailing cell of a wide character takes
/// the look of the character, as a terminal paints both cells with it.
fn resolve(buf: &Buffer, theme: Theme) -> Vec<Vec<Cell<'_>>> {
    let area = buf.area;
    let mut grid = Vec::with_capacity(area.height as usize);
    for y in area.top()..area.bottom() {
        let mut row: Vec<Cell<'_>> = Vec::with_capacity(area.width as usize);
        let mut trailing = 0;
        for x in area.left()..area.right() {
            if trailing > 0 {
                trailing -= 1;
                let lead = row
                    .last()
                    .expect("a wide character before its trailing cell");
                let copy = Cell {
                    symbol: "",
                    width: 0,
                    ..*lead
                };
                row.push(copy);
                continue;
            }
            let cell = &buf[(x, y)];
            let symbol = cell.symbol();
            let width = symbol.width().max(1);
            trailing = width - 1;
            let m = cell.modifier;
            let mut fg = theme.rgb(cell.fg, true);
            let mut bg = theme.rgb(cell.bg, false);
            if m.contains(Modifier::REVERSED) {
                std::mem::swap(&mut fg, &mut bg);
            }
            row.push(Cell {
                symbol,
                width,
                bg,
                style: TextStyle {
                    ink: Ink {
                        fg,
                        dim: m.contains(Modifier::DIM),
                    },
                    bold: m.contains(Modifier::BOLD),
                    italic: m.contains(Modifier::ITALIC),
                    crossed: m.contains(Modifier::CROSSED_OUT),
                },
                underline: m.contains(Modifier::UNDERLINED),
                hidden: m.contains(Modifier::HIDDEN),
            });
        }
        grid.push(row);
    }
    grid
}

/// The row's text as `<text>` elements: one per run of same-styled glyphs,
/// each character placed at the centre of its cells.
fn text_runs(out: &mut String, cells: &[Cell<'_>], baseline: Units, theme: Theme, join_wide: bool) {
    type Run<'a> = Option<(TextStyle, Vec<(Units, &'a str)>)>;
    let mut run: Run<'_> = None;
    let mut gap: Vec<Units> = Vec::new();
    let flush = |out: &mut String, run: &mut Run<'_>| {
        if let Some((style, glyphs)) = run.take() {
            write_text(out, style, &glyphs, baseline, theme, join_wide);
        }
    };
    for (col, cell) in cells.iter().enumerate() {
        if cell.width == 0 {
            continue;
        }
        let centre = col as Units * CELL_W + cell.width as Units * CELL_W / 2;
        let blank = cell.symbol.trim().is_empty() || cell.hidden;
        if blank || boxdraw::shape(cell.symbol).is_some() {
            // Keep a word space inside the run, so copied text reads right.
            if blank && run.is_some() && gap.len() < MAX_GAP {
                gap.push(centre);
            } else {
                flush(out, &mut run);
                gap.clear();
            }
            continue;
        }
        match &mut run {
            Some((style, glyphs)) if *style == cell.style => {
                glyphs.extend(gap.drain(..).map(|x| (x, " ")));
                glyphs.push((centre, cell.symbol));
            }
            _ => {
                flush(out, &mut run);
                gap.clear();
                run = Some((cell.style, vec![(centre, cell.symbol)]));
            }
        }
    }
    flush(out, &mut run);
}

fn write_text(
    out: &mut String,
    style: TextStyle,
    glyphs: &[(Units, &str)],
    baseline: Units,
    theme: Theme,
    join_wide: bool,
) {
    // xml:space on each element: Chromium does not inherit it from a <g>,
    // and a collapsed space would put later characters out of place.
    let _ = write!(
        out,
        "<text xml:space=\"preserve\" y=\"{}\" fill=\"{}\"",
        num(baseline),
        hex(style.ink.fg)
    );
    if style.ink.dim {
        let _ = write!(out, " fill-opacity=\"{}\"", theme.dim_opacity());
    }
    if style.bold {
        out.push_str(" font-weight=\"bold\"");
    }
    if style.italic {
        out.push_str(" font-style=\"italic\"");
    }
    if style.crossed {
        out.push_str(" text-decoration=\"line-through\"");
    }
    out.push('>');
    let beside = beside_wide(glyphs);
    // One <tspan> per character with one x: librsvg (rsvg-convert, pandoc)
    // and resvg (Typst) take only the first value of an x list.
    let mut k = 0;
    while k < glyphs.len() {
        let (x, symbol) = glyphs[k];
        let mut end = k + 1;
        if join_wide && symbol.width() == 2 {
            while end < glyphs.len()
                && glyphs[end].1.width() == 2
                && glyphs[end].0 - glyphs[end - 1].0 == 2 * CELL_W
            {
                end += 1;
            }
        }
        let centre = (x + glyphs[end - 1].0) / 2;
        let text: String = glyphs[k..end].iter().map(|(_, s)| *s).collect();
        // The spacing goes between glyphs (none after the last), so the
        // run centred on its cells puts each glyph on its own two.
        // Larger, the run's glyphs sit lower (`WIDE_PDF_DROP`) to stay
        // inside their row; a y on a tspan holds for those after it, so in
        // a PDF figure every tspan says its own.
        // Punctuation against Chinese (`[模型]`) is set at the Chinese
        // size and baseline too, still centred on its own cell: poppler
        // starts a new word wherever the size or baseline changes, and
        // `pdftotext` gave `[ 模型 ]`.
        let wide = match (join_wide, symbol.width() == 2) {
            (true, true) => format!(
                " y=\"{}\" font-size=\"{}\" letter-spacing=\"{}\"",
                num(baseline + WIDE_PDF_DROP),
                num(WIDE_PDF_PX),
                num(WIDE_PDF_SPACING)
            ),
            (true, false) if beside[k] => format!(
                " y=\"{}\" font-size=\"{}\"",
                num(baseline + WIDE_PDF_DROP),
                num(WIDE_PDF_PX)
            ),
            (true, false) => format!(" y=\"{}\"", num(baseline)),
            (false, _) => String::new(),
        };
        let _ = write!(
            out,
            "<tspan x=\"{}\"{wide}>{}</tspan>",
            num(centre),
            escape(&text)
        );
        k = end;
    }
    out.push_str("</text>\n");
}

/// Which glyphs of a run are ASCII punctuation touching a wide glyph,
/// directly or through other such punctuation (`[模型]`, `模型]:`): set
/// at the wide glyphs' size in a PDF figure, they read as one word.
fn beside_wide(glyphs: &[(Units, &str)]) -> Vec<bool> {
    let wide = |k: usize| glyphs[k].1.width() == 2;
    let punct = |k: usize| {
        let mut chars = glyphs[k].1.chars();
        matches!((chars.next(), chars.next()), (Some(c), None) if c.is_ascii_punctuation())
    };
    // Cells touch when their centres are half their widths apart.
    let touch = |a: usize, b: usize| {
        let half = |k: usize| glyphs[k].1.width() as Units * CELL_W / 2;
        glyphs[b].0 - glyphs[a].0 == half(a) + half(b)
    };
    let mut beside = vec![false; glyphs.len()];
    for k in 1..glyphs.len() {
        beside[k] = punct(k) && touch(k - 1, k) && (wide(k - 1) || beside[k - 1]);
    }
    for k in (0..glyphs.len().saturating_sub(1)).rev() {
        beside[k] |= punct(k) && touch(k, k + 1) && (wide(k + 1) || beside[k + 1]);
    }
    beside
}

/// The box-drawing `shape` in the cell at (`left`, `top`).
fn draw_box(shapes: &mut Shapes, ink: Ink, shape: Shape, left: Units, top: Units) {
    let (cx, cy) = (left + CELL_W / 2, top + CELL_H / 2);
    let (right, bottom) = (left + CELL_W, top + CELL_H);
    match shape {
        Shape::Lines([up, rt, down, lt]) => {
            let t = |w: Weight| match w {
                Weight::None => 0,
                Weight::Light => LIGHT,
                Weight::Heavy => HEAVY,
            };
            // Each arm reaches past the centre by half the crossing arm's
            // thickness, so corners and joints are filled.
            let past_h = t(up).max(t(down)) / 2;
            let past_v = t(lt).max(t(rt)) / 2;
            if lt == rt && lt != Weight::None {
                shapes.rect(ink, left, cy - t(lt) / 2, CELL_W, t(lt));
            } else {
                if lt != Weight::None {
                    shapes.rect(ink, left, cy - t(lt) / 2, cx + past_h - left, t(lt));
                }
                if rt != Weight::None {
                    shapes.rect(
                        ink,
                        cx - past_h,
                        cy - t(rt) / 2,
                        right - (cx - past_h),
                        t(rt),
                    );
                }
            }
            if up == down && up != Weight::None {
                shapes.rect(ink, cx - t(up) / 2, top, t(up), CELL_H);
            } else {
                if up != Weight::None {
                    shapes.rect(ink, cx - t(up) / 2, top, t(up), cy + past_v - top);
                }
                if down != Weight::None {
                    shapes.rect(
                        ink,
                        cx - t(down) / 2,
                        cy - past_v,
                        t(down),
                        bottom - (cy - past_v),
                    );
                }
            }
        }
        Shape::Double([up, rt, down, lt]) => {
            let half = DOUBLE_T / 2;
            if lt && rt {
                for s in [-1, 1] {
                    shapes.rect(ink, left, cy + s * DOUBLE_GAP - half, CELL_W, DOUBLE_T);
                }
            }
            if up && down {
                for s in [-1, 1] {
                    shapes.rect(ink, cx + s * DOUBLE_GAP - half, top, DOUBLE_T, CELL_H);
                }
            }
            if (lt != rt) && (up != down) {
                // A corner: the outer lines meet each other, and the inner ones.
                let r = if rt { 1 } else { -1 };
                let d = if down { 1 } else { -1 };
                for s in [-1, 1] {
                    let y = cy + s * DOUBLE_GAP;
                    let x_meet = cx + s * d * r * DOUBLE_GAP;
                    let (x0, x1) = if rt {
                        (x_meet - half, right)
                    } else {
                        (left, x_meet + half)
                    };
                    shapes.rect(ink, x0, y - half, x1 - x0, DOUBLE_T);
                    let x = cx + s * DOUBLE_GAP;
                    let y_meet = cy + s * d * r * DOUBLE_GAP;
                    let (y0, y1) = if down {
                        (y_meet - half, bottom)
                    } else {
                        (top, y_meet + half)
                    };
                    shapes.rect(ink, x - half, y0, DOUBLE_T, y1 - y0);
                }
            }
        }
        Shape::Arc { right: rt, down } => {
            let (h, v) = (if rt { 1 } else { -1 }, if down { 1 } else { -1 });
            let radius = CELL_W / 2;
            let sweep = if h * v > 0 { 0 } else { 1 };
            let d = format!(
                "M{} {}A{r} {r} 0 0 {sweep} {} {}L{} {}",
                num(cx + h * radius),
                num(cy),
                num(cx),
                num(cy + v * radius),
                num(cx),
                num(cy + v * CELL_H / 2),
                r = num(radius)
            );
            shapes.path(ink, d);
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rect {
    x: Units,
    y: Units,
    w: Units,
    h: Units,
}

enum Item {
    Rect(Rect),
    /// A light stroke (the rounded corners).
    Path(String),
}

/// Shapes grouped by ink in order of first use, with touching rectangles
/// merged: a border is a few long rectangles, not one per cell, and no
/// hairline seams show between cells.
#[derive(Default)]
struct Shapes {
    groups: Vec<(Ink, Vec<Item>)>,
    /// (group, y, h, right edge) → item, to extend a run to the right.
    rows: BTreeMap<(usize, Units, Units, Units), usize>,
    /// (group, x, w, bottom edge) → item, to extend a run downwards.
    cols: BTreeMap<(usize, Units, Units, Units), usize>,
}

impl Shapes {
    fn group(&mut self, ink: Ink) -> usize {
        match self.groups.iter().position(|(i, _)| *i == ink) {
            Some(g) => g,
            None => {
                self.groups.push((ink, Vec::new()));
                self.groups.len() - 1
            }
        }
    }

    fn rect(&mut self, ink: Ink, x: Units, y: Units, w: Units, h: Units) {
        let g = self.group(ink);
        let items = &mut self.groups[g].1;
        let current = |items: &Vec<Item>, i: usize| match items[i] {
            Item::Rect(r) => Some(r),
            Item::Path(_) => None,
        };
        if let Some(&i) = self.rows.get(&(g, y, h, x))
            && let Some(r) = current(items, i).filter(|r| r.y == y && r.h == h && r.x + r.w == x)
        {
            items[i] = Item::Rect(Rect { w: r.w + w, ..r });
            self.rows.remove(&(g, y, h, x));
            self.rows.insert((g, y, h, x + w), i);
            return;
        }
        if let Some(&i) = self.cols.get(&(g, x, w, y))
            && let Some(r) = current(items, i).filter(|r| r.x == x && r.w == w && r.y + r.h == y)
        {
            items[i] = Item::Rect(Rect { h: r.h + h, ..r });
            self.cols.remove(&(g, x, w, y));
            self.cols.insert((g, x, w, y + h), i);
            return;
        }
        items.push(Item::Rect(Rect { x, y, w, h }));
        let i = items.len() - 1;
        self.rows.insert((g, y, h, x + w), i);
        self.cols.insert((g, x, w, y + h), i);
    }

    fn path(&mut self, ink: Ink, d: String) {
        let g = self.group(ink);
        self.groups[g].1.push(Item::Path(d));
    }

    /// One `<g>` per ink. A dimmed group fades as a whole, so where its
    /// shapes overlap (a corner) it is not darker.
    /// With a `dash` pattern for an ink, its rectangles are drawn as dashed
    /// strokes along their length instead.
    fn write(
        &self,
        out: &mut String,
        theme: Theme,
        paint: impl Fn(Ink) -> String,
        dash: impl Fn(Ink) -> Option<&'static str>,
    ) {
        for (ink, items) in &self.groups {
            let _ = write!(out, "<g{}", paint(*ink));
            if ink.dim {
                let _ = write!(out, " opacity=\"{}\"", theme.dim_opacity());
            }
            out.push_str(">\n");
            let dash = dash(*ink);
            for item in items {
                match item {
                    Item::Rect(r) if dash.is_some() => {
                        let d = if r.h >= r.w {
                            format!("M{} {}V{}", num(r.x + r.w / 2), num(r.y), num(r.y + r.h))
                        } else {
                            format!("M{} {}H{}", num(r.x), num(r.y + r.h / 2), num(r.x + r.w))
                        };
                        let _ = writeln!(
                            out,
                            "<path d=\"{d}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" \
                             stroke-dasharray=\"{}\"/>",
                            hex(ink.fg),
                            num(r.w.min(r.h)),
                            dash.unwrap_or_default()
                        );
                    }
                    Item::Rect(r) => {
                        let _ = writeln!(
                            out,
                            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                            num(r.x),
                            num(r.y),
                            num(r.w),
                            num(r.h)
                        );
                    }
                    Item::Path(d) => {
                        let _ = writeln!(
                            out,
                            "<path d=\"{d}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"/>",
                            hex(ink.fg),
                            num(LIGHT)
                        );
                    }
                }
            }
            out.push_str("</g>\n");
        }
    }
}

/// The dash pattern of a line in a lane's colour on paper, so the lanes
/// differ in a greyscale print by more than their grey: Model solid, Host
/// dashed, Tool dotted (lifelines, and arrows in their sender's colour).
/// The lane names above the lifelines say which is which. Dark figures are
/// for screens, where the colours tell the lanes apart.
fn lane_dash(theme: Theme, ink: Ink) -> Option<&'static str> {
    if theme.kind != ThemeKind::Light || ink.dim {
        return None;
    }
    let is = |lane: Lane| theme.rgb(theme.lane(lane), true) == ink.fg;
    if is(Lane::Host) {
        Some("5 3")
    } else if is(Lane::Tool) {
        Some("1.5 2")
    } else {
        None
    }
}

/// Hundredths of a pixel as a short decimal: 1250 → "12.5".
fn num(v: Units) -> String {
    let sign = if v < 0 { "-" } else { "" };
    let v = v.abs();
    let (whole, frac) = (v / PX, v % PX);
    match frac {
        0 => format!("{sign}{whole}"),
        f if f % 10 == 0 => format!("{sign}{whole}.{}", f / 10),
        f => format!("{sign}{whole}.{f:02}"),
    }
}

fn hex((r, g, b): Rgb) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Text for XML content and attributes. Line breaks are kept; control and
/// bidi characters are written visibly as `crate::safe::escape` writes them
/// (XML 1.0 cannot hold most controls, and a viewer would act on the rest);
/// the two non-characters become U+FFFD.
pub(super) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push(c),
            c if crate::safe::is_unsafe(c) => out.extend(c.escape_default()),
            '\u{fffe}' | '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_exact() {
        assert_eq!(num(1000), "10");
        assert_eq!(num(1250), "12.5");
        assert_eq!(num(1206), "12.06");
        assert_eq!(num(-60), "-0.6");
        assert_eq!(num(0), "0");
    }

    #[test]
    fn escape_covers_markup_and_control_characters() {
        assert_eq!(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
        assert_eq!(escape("x\u{1b}y\n\u{202e}"), "x\\u{1b}y\n\\u{202e}");
    }

    #[test]
    fn touching_rectangles_merge_across_and_down() {
        let ink = Ink {
            fg: (1, 2, 3),
            dim: false,
        };
        let mut s = Shapes::default();
        for col in 0..5 {
            s.rect(ink, col * CELL_W, 940, CELL_W, LIGHT);
        }
        for row in 0..3 {
            s.rect(ink, 9000, row * CELL_H, LIGHT, CELL_H);
        }
        let rects: Vec<Rect> = s.groups[0]
            .1
            .iter()
            .filter_map(|i| match i {
                Item::Rect(r) => Some(*r),
                Item::Path(_) => None,
            })
            .collect();
        assert_eq!(
            rects,
            vec![
                Rect {
                    x: 0,
                    y: 940,
                    w: 5 * CELL_W,
                    h: LIGHT
                },
                Rect {
                    x: 9000,
                    y: 0,
                    w: LIGHT,
                    h: 3 * CELL_H
                },
            ]
        );
    }
}
