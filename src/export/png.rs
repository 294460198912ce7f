//! PNG figures: the SVG figure rasterised by resvg, with the fonts
//! installed on this machine (usvg's font database of system fonts). A
//! character no installed font has would come out as an empty box, so the
//! frame's characters are checked first and a missing font is named.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use ratatui::buffer::Buffer;
use resvg::usvg::{self, fontdb};
use skrifa::MetadataProvider;

use super::boxdraw;
use super::fonts::{self, missing_message};

/// Whether face `id` of `db` has a glyph for `c`.
fn has_char(db: &fontdb::Database, id: fontdb::ID, c: char) -> bool {
    db.with_face_data(id, |data, index| {
        skrifa::FontRef::from_index(data, index).is_ok_and(|font| font.charmap().map(c).is_some())
    })
    .unwrap_or(false)
}

/// The installed fonts the SVG does not name, for the rare character
/// none of its fonts has: each found once, then read into the figure's
/// database.
struct Others {
    all: fontdb::Database,
    found: BTreeMap<char, Option<fontdb::ID>>,
}

impl Others {
    fn face_for(
        &mut self,
        c: char,
        weight: fontdb::Weight,
        db: &mut Arc<fontdb::Database>,
    ) -> Option<fontdb::ID> {
        if let Some(found) = self.found.get(&c) {
            return *found;
        }
        let mut best: Option<(u16, fontdb::ID)> = None;
        for face in self.all.faces() {
            if has_char(&self.all, face.id, c) {
                let distance = face.weight.0.abs_diff(weight.0);
                if best.is_none_or(|(d, _)| distance < d) {
                    best = Some((distance, face.id));
                }
            }
        }
        let found = best.and_then(|(_, id)| {
            let face = self.all.face(id)?;
            let index = face.index;
            let data = self.all.with_face_data(id, |data, _| data.to_vec())?;
            let ids = Arc::make_mut(db).load_font_source(fontdb::Source::Binary(Arc::new(data)));
            ids.get(index as usize).copied()
        });
        self.found.insert(c, found);
        found
    }
}

/// The fonts a figure is drawn with, loaded once per export.
pub struct Fonts {
    options: usvg::Options<'static>,
    /// For `named`: the other installed fonts, for what its fonts lack.
    others: Option<Arc<Mutex<Others>>>,
}

/// The package that has a font the SVG names, for the error when it is
/// not installed.
const PACKAGES: [(&str, &str); 2] = [
    ("DejaVu Sans Mono", "fonts-dejavu-core"),
    ("Noto Sans Mono CJK SC", "fonts-noto-cjk"),
];

impl Fonts {
    /// Every installed font, as usvg finds them; for `--embed-fonts`,
    /// which looks each character up the way a browser does.
    pub fn system() -> Fonts {
        let mut options = usvg::Options::default();
        let db = options.fontdb_mut();
        db.load_system_fonts();
        // The generic `monospace` at the end of the SVG's font list.
        db.set_monospace_family("DejaVu Sans Mono");
        Fonts {
            options,
            others: None,
        }
    }

    /// The fonts the SVG names (`fonts::FONT_FAMILIES`), read into memory
    /// once, and each character drawn as a browser draws the SVG: in the
    /// first of those families that has it, at the weight of its text
    /// (Chinese in Noto Sans Mono CJK SC, bold where the text is bold, not
    /// in the first face of a collection that has the character, which is
    /// the Japanese one). Only a character none of them has is looked for
    /// in the other installed fonts, and that font is read then, once.
    /// `need_cjk`: the figure has Chinese, so its font must be installed.
    pub fn named(need_cjk: bool) -> Result<Fonts, String> {
        let mut all = fontdb::Database::new();
        all.load_system_fonts();
        let has = |family: &str| {
            all.faces()
                .any(|f| f.families.iter().any(|(name, _)| name == family))
        };
        for (family, package) in PACKAGES {
            if (family == "DejaVu Sans Mono" || need_cjk) && !has(family) {
                // Another CJK font of the list will do for the Chinese.
                let other_cjk = fonts::FONT_FAMILIES[2..].iter().any(|f| has(f));
                if family != "DejaVu Sans Mono" && other_cjk {
                    continue;
                }
                return Err(format!(
                    "the figure is drawn in {family}, which is not installed; \
                     install the package {package} (apt-get install {package})"
                ));
            }
        }
        let mut db = fontdb::Database::new();
        let mut read = BTreeSet::new();
        for face in all.faces() {
            let named = face
                .families
                .iter()
                .any(|(name, _)| fonts::FONT_FAMILIES.contains(&name.as_str()));
            let path = match &face.source {
                fontdb::Source::File(path) | fontdb::Source::SharedFile(path, _) => path,
                fontdb::Source::Binary(_) => continue,
            };
            if named && read.insert(path.clone()) {
                let data = std::fs::read(path)
                    .map_err(|e| format!("cannot read the font {}: {e}", path.display()))?;
                db.load_font_source(fontdb::Source::Binary(Arc::new(data)));
            }
        }
        db.set_monospace_family("DejaVu Sans Mono");
        let others = Arc::new(Mutex::new(Others {
            all,
            found: BTreeMap::new(),
        }));
        let fallback = Arc::clone(&others);
        let mut options = usvg::Options {
            fontdb: Arc::new(db),
            ..usvg::Options::default()
        };
        options.font_resolver.select_fallback = Box::new(move |c, used, db| {
            let base = db.face(*used.first()?)?;
            let (weight, style, stretch) = (base.weight, base.style, base.stretch);
            for family in fonts::FONT_FAMILIES {
                let query = fontdb::Query {
                    families: &[fontdb::Family::Name(family)],
                    weight,
                    style,
                    stretch,
                };
                if let Some(id) = db.query(&query)
                    && !used.contains(&id)
                    && has_char(db, id, c)
                {
                    return Some(id);
                }
            }
            let mut others = fallback.lock().ok()?;
            others
                .face_for(c, weight, db)
                .filter(|id| !used.contains(id))
        });
        Ok(Fonts {
            options,
            others: Some(others),
        })
    }

    /// The font database: the installed fonts.
    pub fn db(&self) -> &fontdb::Database {
        &self.options.fontdb
    }

    /// An error naming the package to install when a character of the
    /// frame is in no installed font.
    pub fn check(&self, buffer: &Buffer) -> Result<(), String> {
        let mut missing = missing_glyphs(&self.options.fontdb, buffer);
        if let Some(others) = &self.others
            && let Ok(others) = others.lock()
        {
            missing.retain(|&c| !others.all.faces().any(|f| has_char(&others.all, f.id, c)));
        }
        if missing.is_empty() {
            return Ok(());
        }
        Err(missing_message(&missing))
    }

    /// The SVG as a PNG, `scale` pixels per SVG pixel, with its
    /// resolution said (`with_resolution`).
    pub fn render(&self, svg: &str, scale: f32) -> Result<Vec<u8>, String> {
        let png = self
            .pixmap(svg, scale)?
            .encode_png()
            .map_err(|e| e.to_string())?;
        Ok(with_resolution(png, scale))
    }

    /// The SVG parsed, its text laid out in these fonts.
    pub fn tree(&self, svg: &str) -> Result<usvg::Tree, String> {
        usvg::Tree::from_str(svg, &self.options).map_err(|e| e.to_string())
    }

    /// The SVG drawn, `scale` pixels per SVG pixel.
    pub fn pixmap(&self, svg: &str, scale: f32) -> Result<resvg::tiny_skia::Pixmap, String> {
        let tree = self.tree(svg)?;
        let size = tree.size();
        let (w, h) = (
            (size.width() * scale).round() as u32,
            (size.height() * scale).round() as u32,
        );
        let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h)
            .ok_or_else(|| format!("a {w}x{h} image is too large"))?;
        resvg::render(
            &tree,
            resvg::tiny_skia::Transform::from_scale(scale, scale),
            &mut pixmap.as_mut(),
        );
        Ok(pixmap)
    }
}

/// An error naming what to install when a character of the frame is in
/// no font of `db`.
pub fn check_fonts(db: &fontdb::Database, buffer: &Buffer) -> Result<(), String> {
    let missing = missing_glyphs(db, buffer);
    if missing.is_empty() {
        return Ok(());
    }
    Err(missing_message(&missing))
}

/// The characters of `buffer`'s text that no font in `db` has. Spaces and
/// box-drawing characters (drawn as shapes) need no font.
pub fn missing_glyphs(db: &fontdb::Database, buffer: &Buffer) -> Vec<char> {
    let mut wanted: BTreeSet<char> = BTreeSet::new();
    for cell in buffer.content() {
        let symbol = cell.symbol();
        if boxdraw::shape(symbol).is_some() {
            continue;
        }
        wanted.extend(
            symbol
                .chars()
                .filter(|c| !c.is_whitespace() && !c.is_control()),
        );
    }
    for face in db.faces() {
        if wanted.is_empty() {
            break;
        }
        db.with_face_data(face.id, |data, index| {
            if let Ok(font) = skrifa::FontRef::from_index(data, index) {
                let charmap = font.charmap();
                wanted.retain(|c| charmap.map(*c).is_none());
            }
        });
    }
    wanted.into_iter().collect()
}

/// A PNG with a `pHYs` chunk after its header: `scale` × 96 pixels an
/// inch, the CSS pixel of the SVG, so a word processor or LaTeX places the
/// image at the size the SVG figure has (tiny-skia writes no resolution,
/// and readers then assume 72 or 96 dpi whatever the scale).
pub fn with_resolution(png: Vec<u8>, scale: f32) -> Vec<u8> {
    // Signature (8) and the IHDR chunk (4 + 4 + 13 + 4).
    const AFTER_IHDR: usize = 33;
    if png.len() < AFTER_IHDR || &png[12..16] != b"IHDR" {
        return png;
    }
    let per_metre = (f64::from(scale) * 96.0 / 0.0254).round() as u32;
    let mut chunk = Vec::with_capacity(21);
    chunk.extend_from_slice(&9u32.to_be_bytes());
    chunk.extend_from_slice(b"pHYs");
    chunk.extend_from_slice(&per_metre.to_be_bytes());
    chunk.extend_from_slice(&per_metre.to_be_bytes());
    chunk.push(1); // the unit is the metre
    let mut crc = flate2::Crc::new();
    crc.update(&chunk[4..]);
    chunk.extend_from_slice(&crc.sum().to_be_bytes());
    let mut out = Vec::with_capacity(png.len() + chunk.len());
    out.extend_from_slice(&png[..AFTER_IHDR]);
    out.extend_from_slice(&chunk);
    out.extend_from_slice(&png[AFTER_IHDR..]);
    out
}

// The tests' one reading of `CI`, shared with tests/common.
#[cfg(test)]
#[path = "../../tests/common/ci.rs"]
mod ci;

#[cfg(test)]
mod tests {
    use super::*;
    use ci::in_ci;
    use ratatui::layout::Rect;

    #[test]
    fn a_png_says_its_resolution_in_a_valid_chunk() {
        let plain = resvg::tiny_skia::Pixmap::new(3, 2)
            .unwrap()
            .encode_png()
            .unwrap();
        assert!(
            !plain.windows(4).any(|w| w == b"pHYs"),
            "tiny-skia writes none"
        );
        let png = with_resolution(plain, 2.0);
        assert_eq!(&png[37..41], b"pHYs", "right after the header");
        // 192 pixels an inch: 7559 a metre, both ways, unit the metre.
        assert_eq!(&png[41..50], &[0, 0, 29, 135, 0, 0, 29, 135, 1]);
        // The checksum is right: a strict reader still reads the image.
        let read = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
        assert_eq!((read.width(), read.height()), (3, 2));
    }

    #[test]
    fn chinese_is_drawn_in_the_simplified_chinese_mono_face_at_its_weight() {
        let fonts = match Fonts::named(true) {
            Ok(fonts) => fonts,
            // The skip goes straight to stderr, shown even when the
            // test passes.
            Err(e) if !in_ci() => {
                use std::io::Write as _;
                let _ = writeln!(std::io::stderr(), "SKIPPED: {e}");
                return;
            }
            Err(e) => panic!("CI installs the fonts: {e}"),
        };
        let mut db = Arc::clone(&fonts.options.fontdb);
        for (weight, c) in [(400, '读'), (700, '调'), (400, '说')] {
            let query = fontdb::Query {
                families: &[fontdb::Family::Name("DejaVu Sans Mono")],
                weight: fontdb::Weight(weight),
                ..fontdb::Query::default()
            };
            let base = db.query(&query).expect("DejaVu Sans Mono");
            let id = (fonts.options.font_resolver.select_fallback)(c, &[base], &mut db)
                .expect("a face for the character");
            let face = db.face(id).unwrap();
            let names: Vec<&str> = face.families.iter().map(|(n, _)| n.as_str()).collect();
            assert!(
                names.contains(&"Noto Sans Mono CJK SC"),
                "{c} at {weight}: {names:?}"
            );
            assert_eq!(face.weight.0, weight, "{c}: {names:?}");
        }
        // Only the fonts the SVG names are in memory (and the Noto CJK
        // collections' other faces, which share their files).
        for face in db.faces() {
            assert!(
                face.families
                    .iter()
                    .any(|(n, _)| n.starts_with("DejaVu Sans Mono") || n.starts_with("Noto Sans")),
                "{:?}",
                face.families
            );
        }
    }

    #[test]
    fn a_machine_without_a_cjk_font_is_told_which_package_to_install() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 20, 2));
        buf.set_string(0, 0, "──┐ 模型 ok", ratatui::style::Style::new());
        let empty = fontdb::Database::new();
        assert_eq!(missing_glyphs(&empty, &buf), vec!['k', 'o', '型', '模']);
        let err = check_fonts(&empty, &buf).unwrap_err();
        assert!(err.contains("fonts-noto-cjk"), "{err}");
        assert!(err.contains("模"), "{err}");
    }
}
