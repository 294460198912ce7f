//! `export --format pdf`: a printable handout, one step a page, each page
//! the step's SVG figure (`svg::render_for_pdf`) drawn by `krilla-svg` on
//! an A4 landscape page, its text kept as text: the faces the SVG names are
//! embedded as subsets, each glyph with its character in a ToUnicode map,
//! so a PDF reader finds and copies the Chinese as written. With `--quiz`
//! the handout's questions, then its answer key, follow on A4 pages of
//! their own, in the figure's monospace faces.
//!
//! krilla (a maintained PDF writer, the one Typst uses) does the PDF:
//! subsetting with `subsetter`, CID fonts, ToUnicode. It reads SVG through
//! its own usvg (0.47), so the fonts are read into that usvg's database
//! from the ones `png::Fonts::named` found, with the same choice of face
//! by family name for a character DejaVu Sans Mono lacks.

use std::sync::Arc;

use krilla::Document;
use krilla::color::rgb;
use krilla::geom::{Point, Size, Transform};
use krilla::metadata::Metadata;
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::Fill;
use krilla::text::{Font, TextDirection};
use krilla_svg::{SurfaceExt, SvgSettings};
use unicode_width::UnicodeWidthStr;
use usvg47 as usvg;
use usvg47::fontdb;

use super::{fonts, png};

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

/// A handout being written: pages are added in order, `finish` gives the
/// file's bytes.
pub struct Handout {
    document: Document,
    options: usvg::Options<'static>,
    /// The face the quiz pages are set in.
    text_font: Font,
}

impl Handout {
    /// `fonts`: the figure's fonts, `png::Fonts::named`. `title` and
    /// `lang` go into the document's metadata.
    pub fn new(fonts: &png::Fonts, title: &str, lang: &str, zh: bool) -> Result<Handout, String> {
        let mut db = fontdb::Database::new();
        let mut text_font = None;
        let wanted = if zh {
            ["Noto Sans Mono CJK SC", "Noto Sans CJK SC"]
        } else {
            ["DejaVu Sans Mono", "DejaVu Sans Mono"]
        };
        let source = fonts.db();
        let regular = |face: &resvg::usvg::fontdb::FaceInfo, family: &str| {
            face.weight.0 == 400
                && face.style == resvg::usvg::fontdb::Style::Normal
                && face.families.iter().any(|(name, _)| name == family)
        };
        // The first family of `wanted` installed.
        let text_face = wanted
            .iter()
            .find_map(|family| source.faces().find(|face| regular(face, family)))
            .map(|face| face.id);
        for face in source.faces() {
            let is_text = Some(face.id) == text_face;
            // A collection's faces share its file: read it once.
            if face.index != 0 && !is_text {
                continue;
            }
            let Some(data) = source.with_face_data(face.id, |data, _| data.to_vec()) else {
                continue;
            };
            let data = Arc::new(data);
            if is_text {
                text_font = Font::new(Arc::clone(&data).into(), face.index);
            }
            if face.index == 0 {
                db.load_font_source(fontdb::Source::Binary(data));
            }
        }
        db.set_monospace_family("DejaVu Sans Mono");
        let text_font = text_font.ok_or_else(|| {
            format!(
                "the handout's text is set in {}, which is not installed",
                wanted[0]
            )
        })?;
        let mut options = usvg::Options {
            fontdb: Arc::new(db),
            ..usvg::Options::default()
        };
        // The faces by family name, in the figure's order, as in
        // `png::Fonts::named`: not the first face of a collection that has
        // the character, which is the Japanese one.
        options.font_resolver.select_fallback = Box::new(|c, used, db| {
            let base = db.face(*used.first()?)?;
            for family in fonts::FONT_FAMILIES {
                let query = fontdb::Query {
                    families: &[fontdb::Family::Name(family)],
                    weight: base.weight,
                    style: base.style,
                    stretch: base.stretch,
                };
                if let Some(id) = db.query(&query)
                    && !used.contains(&id)
                    && db
                        .with_face_data(id, |data, index| {
                            skrifa::FontRef::from_index(data, index).is_ok_and(|font| {
                                skrifa::MetadataProvider::charmap(&font).map(c).is_some()
                            })
                        })
                        .unwrap_or(false)
                {
                    return Some(id);
                }
            }
            None
        });
        let mut document = Document::new();
        document.set_metadata(
            Metadata::new()
                .title(title.to_string())
                .language(lang.to_string())
                .creator("agent-loop-sim".to_string()),
        );
        Ok(Handout {
            document,
            options,
            text_font,
        })
    }

    /// One page: the SVG figure, scaled to fit an A4 landscape page.
    pub fn figure(&mut self, svg: &str) -> Result<(), String> {
        let tree = usvg::Tree::from_str(svg, &self.options).map_err(|e| e.to_string())?;
        let (w, h) = (tree.size().width(), tree.size().height());
        let scale = ((A4_LONG - 2.0 * MARGIN) / w).min((A4_SHORT - 2.0 * MARGIN) / h);
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

    /// Text on A4 portrait pages, starting on a new page: each line
    /// wrapped at `TEXT_COLUMNS` columns.
    pub fn text(&mut self, text: &str) {
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
        let per_page = ((A4_LONG - 2.0 * MARGIN) / LINE_HEIGHT) as usize;
        for chunk in lines.chunks(per_page.max(1)) {
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
    }

    /// The PDF file.
    pub fn finish(self) -> Result<Vec<u8>, String> {
        self.document
            .finish()
            .map_err(|e| format!("cannot write the PDF: {e}"))
    }
}
