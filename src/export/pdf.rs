//! `export --format pdf`: a printable handout, one step a page, each page
//! the step's SVG figure (`svg::render_for_pdf`) drawn by `krilla-svg` on
//! an A4 landscape page, its text kept as text: the faces the SVG names are
//! embedded as subsets, each glyph with its character in a ToUnicode map,
//! so a PDF reader finds and copies the Chinese as written. With `--quiz`
//! the handout's questions, then its answer key, follow on A4 pages of
//! their own, in the figure's monospace faces.
//!
//! krilla (a maintained PDF writer, the one Typst uses) does the PDF:
//! subsetting with `subsetter`, CID fonts, ToUnicode. `krilla-svg` draws
//! the usvg tree that `png::Fonts` parses, with the PNG's font database
//! and its choice of face by family name (both use one resvg, 0.47, the
//! version krilla-svg 0.8 is built on), so each font file is read once an
//! export and the PDF has the PNG's faces.

use std::sync::Arc;

use krilla::Document;
use krilla::color::rgb;
use krilla::destination::XyzDestination;
use krilla::geom::{Point, Size, Transform};
use krilla::metadata::Metadata;
use krilla::num::NormalizedF32;
use krilla::outline::{Outline, OutlineNode};
use krilla::page::PageSettings;
use krilla::paint::Fill;
use krilla::text::{Font, TextDirection};
use krilla_svg::{SurfaceExt, SvgSettings};
use resvg::usvg::fontdb;
use unicode_width::UnicodeWidthStr;

use super::png;
use super::svg;

/// A4 landscape for the figures, A4 portrait for the quiz, in points.
const A4_LONG: f32 = 841.89;
const A4_SHORT: f32 = 595.28;
const MARGIN: f32 = 36.0;
/// The quiz pages' text.
const TEXT_SIZE: f32 = 10.0;
const LINE_HEIGHT: f32 = 15.0;
/// Columns a quiz line wraps at (a Latin character is 0.6 em at most in
/// the monospace faces, so 80 fit between the margins).
const TEXT_COLUMNS: usize = 80;

/// The text of a strip page is at least this size: two 120-column frames
/// fit side by side on a page (5.05 pt), or three of 80 columns (5.01 pt);
/// then as many such strips as fit go one under another.
const STRIP_TEXT_MIN_PT: f32 = 5.0;

/// Points a pixel that fit a `w`×`h` pixel figure within the margins of an
/// A4 landscape page.
fn fit(w: f32, h: f32) -> f32 {
    ((A4_LONG - 2.0 * MARGIN) / w).min((A4_SHORT - 2.0 * MARGIN) / h)
}

/// `--strip` pages of `cols`×`rows` frames, `gap` columns apart in a
/// strip and strips `row_gap` rows apart: how many frames a strip holds
/// (as many as keep the text at `STRIP_TEXT_MIN_PT`, at least one), how
/// many strips a page holds one under another at that scale, and the
/// scale.
pub fn strip_pages(cols: u16, rows: u16, gap: u16, row_gap: u16) -> (usize, usize, f32) {
    let width = |n: u16| {
        n.saturating_mul(cols)
            .saturating_add((n - 1).saturating_mul(gap))
    };
    let height = |r: u16| {
        r.saturating_mul(rows)
            .saturating_add((r - 1).saturating_mul(row_gap))
    };
    let scale = |n: u16, r: u16| {
        let (w, h) = svg::figure_px(width(n), height(r));
        fit(w, h)
    };
    let mut n: u16 = 1;
    while n < 64 && scale(n + 1, 1) * f32::from(svg::FONT_PX) >= STRIP_TEXT_MIN_PT {
        n += 1;
    }
    let mut r: u16 = 1;
    while r < 64 && scale(n, r + 1) >= scale(n, 1) {
        r += 1;
    }
    (usize::from(n), usize::from(r), scale(n, 1))
}

/// A handout being written: pages are added in order, `finish` gives the
/// file's bytes.
pub struct Handout<'f> {
    document: Document,
    /// The figure's fonts, as the PNG draws it: the same database (each
    /// file read once per export) and the same choice of face.
    fonts: &'f png::Fonts,
    /// The face the quiz pages are set in.
    text_font: Font,
    /// A bookmark a step (or strip, or part of the quiz), to its page.
    outline: Outline,
    pages: usize,
}

impl<'f> Handout<'f> {
    /// `fonts`: the figure's fonts, `png::Fonts::named`. `title` and
    /// `lang` go into the document's metadata.
    pub fn new(
        fonts: &'f png::Fonts,
        title: &str,
        lang: &str,
        zh: bool,
    ) -> Result<Handout<'f>, String> {
        let wanted = if zh {
            ["Noto Sans Mono CJK SC", "Noto Sans CJK SC"]
        } else {
            ["DejaVu Sans Mono", "DejaVu Sans Mono"]
        };
        let db = fonts.db();
        let regular = |face: &fontdb::FaceInfo, family: &str| {
            face.weight.0 == 400
                && face.style == fontdb::Style::Normal
                && face.families.iter().any(|(name, _)| name == family)
        };
        // The first family of `wanted` installed, its data shared with the
        // database (`png::Fonts::named` holds every font in memory).
        let text_font = wanted
            .iter()
            .find_map(|family| db.faces().find(|face| regular(face, family)))
            .and_then(|face| match &face.source {
                fontdb::Source::Binary(data) => Font::new(Arc::clone(data).into(), face.index),
                _ => None,
            })
            .ok_or_else(|| {
                format!(
                    "the handout's text is set in {}, which is not installed",
                    wanted[0]
                )
            })?;
        let mut document = Document::new();
        document.set_metadata(
            Metadata::new()
                .title(title.to_string())
                .language(lang.to_string())
                .creator("agent-loop-sim".to_string()),
        );
        Ok(Handout {
            document,
            fonts,
            text_font,
            outline: Outline::new(),
            pages: 0,
        })
    }

    /// One page: the SVG figure, scaled to fit an A4 landscape page, and
    /// no larger than `at_most` points a pixel (the strip pages of one
    /// handout are drawn at one scale, the last, shorter one too).
    /// `bookmark` names the page in the PDF's outline.
    pub fn figure(
        &mut self,
        svg: &str,
        at_most: Option<f32>,
        bookmark: &str,
    ) -> Result<(), String> {
        let tree = self.fonts.tree(svg)?;
        self.bookmark(bookmark);
        let (w, h) = (tree.size().width(), tree.size().height());
        let scale = at_most.map_or(fit(w, h), |s| s.min(fit(w, h)));
        let (sw, sh) = (w * scale, h * scale);
        let size = Size::from_wh(sw, sh).ok_or("the figure has no size")?;
        let settings = PageSettings::from_wh(A4_LONG, A4_SHORT).expect("A4 is a size");
        let mut page = self.document.start_page_with(settings);
        let mut surface = page.surface();
        surface.push_transform(&Transform::from_translate(
            (A4_LONG - sw) / 2.0,
            (A4_SHORT - sh) / 2.0,
        ));
        surface.draw_svg(&tree, size, SvgSettings::default());
        surface.pop();
        surface.finish();
        page.finish();
        Ok(())
    }

    /// The page about to be started, in the outline.
    fn bookmark(&mut self, text: &str) {
        let to = XyzDestination::new(self.pages, Point::from_xy(0.0, 0.0));
        self.outline
            .push_child(OutlineNode::new(text.to_string(), to));
        self.pages += 1;
    }

    /// Text on A4 portrait pages, starting on a new page: each line
    /// wrapped at `TEXT_COLUMNS` columns. `bookmark` names its first page.
    pub fn text(&mut self, text: &str, bookmark: &str) {
        self.blocks(&[text.to_string()], bookmark);
    }

    /// Blocks of text (a question with its choices, an answer with its
    /// reason) on A4 portrait pages, starting on a new page: a block that
    /// fits a page is never split over two. `bookmark` names the first page.
    pub fn blocks(&mut self, blocks: &[String], bookmark: &str) {
        let per_page = (((A4_LONG - 2.0 * MARGIN) / LINE_HEIGHT) as usize).max(1);
        let mut page: Vec<String> = Vec::new();
        let mut named = Some(bookmark);
        for block in blocks {
            let lines = wrapped(block);
            if !page.is_empty() && page.len() + lines.len() > per_page {
                self.page_of_lines(&page, named.take());
                page.clear();
            }
            page.extend(lines);
            while page.len() > per_page {
                let rest = page.split_off(per_page);
                self.page_of_lines(&page, named.take());
                page = rest;
            }
        }
        if !page.is_empty() {
            self.page_of_lines(&page, named.take());
        }
    }

    /// One A4 portrait page of lines, already wrapped; in the outline
    /// under `bookmark` if given.
    fn page_of_lines(&mut self, chunk: &[String], bookmark: Option<&str>) {
        match bookmark {
            Some(text) => self.bookmark(text),
            None => self.pages += 1,
        }
        let settings = PageSettings::from_wh(A4_SHORT, A4_LONG).expect("A4 is a size");
        let mut page = self.document.start_page_with(settings);
        let mut surface = page.surface();
        surface.set_fill(Some(Fill {
            paint: rgb::Color::new(0, 0, 0).into(),
            opacity: NormalizedF32::ONE,
            rule: Default::default(),
        }));
        for (k, line) in chunk.iter().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let y = MARGIN + TEXT_SIZE + k as f32 * LINE_HEIGHT;
            surface.draw_text(
                Point::from_xy(MARGIN, y),
                self.text_font.clone(),
                TEXT_SIZE,
                line,
                false,
                TextDirection::Auto,
            );
        }
        surface.finish();
        page.finish();
    }

    /// The PDF file.
    pub fn finish(mut self) -> Result<Vec<u8>, String> {
        self.document.set_outline(self.outline);
        self.document
            .finish()
            .map_err(|e| format!("cannot write the PDF: {e}"))
    }
}

/// A block's lines, each wrapped at `TEXT_COLUMNS` columns.
fn wrapped(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.width() <= TEXT_COLUMNS {
            lines.push(line.to_string());
            continue;
        }
        // Continued under the text: after the leading blanks and a
        // number such as "4. ".
        let blanks = line.len() - line.trim_start().len();
        let rest = &line[blanks..];
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let numbered = digits > 0 && rest[digits..].starts_with(". ");
        let indent = " ".repeat(blanks + if numbered { digits + 2 } else { 0 });
        let options = textwrap::Options::new(TEXT_COLUMNS)
            .subsequent_indent(&indent)
            .word_splitter(textwrap::WordSplitter::NoHyphenation);
        lines.extend(
            textwrap::wrap(line, options)
                .into_iter()
                .map(|l| l.into_owned()),
        );
    }
    lines
}
