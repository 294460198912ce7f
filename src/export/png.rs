//! PNG figures: the SVG figure rasterised by resvg, with the fonts
//! installed on this machine (usvg's font database of system fonts). A
//! character no installed font has would come out as an empty box, so the
//! frame's characters are checked first and a missing font is named.

use std::collections::BTreeSet;

use ratatui::buffer::Buffer;
use resvg::usvg::{self, fontdb};
use skrifa::MetadataProvider;
use unicode_width::UnicodeWidthChar;

use super::boxdraw;

/// The system fonts, loaded once per export.
pub struct Fonts {
    options: usvg::Options<'static>,
}

impl Fonts {
    pub fn system() -> Fonts {
        let mut options = usvg::Options::default();
        let db = options.fontdb_mut();
        db.load_system_fonts();
        // The generic `monospace` at the end of the SVG's font list.
        db.set_monospace_family("DejaVu Sans Mono");
        Fonts { options }
    }

    /// The font database: the installed fonts.
    pub fn db(&self) -> &fontdb::Database {
        &self.options.fontdb
    }

    /// An error naming the package to install when a character of the
    /// frame is in no installed font.
    pub fn check(&self, buffer: &Buffer) -> Result<(), String> {
        check_fonts(&self.options.fontdb, buffer)
    }

    /// The SVG as a PNG, `scale` pixels per SVG pixel.
    pub fn render(&self, svg: &str, scale: f32) -> Result<Vec<u8>, String> {
        let tree = usvg::Tree::from_str(svg, &self.options).map_err(|e| e.to_string())?;
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
        pixmap.encode_png().map_err(|e| e.to_string())
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

/// What to say when no installed font has the characters `missing`: the
/// package to install when they are CJK.
pub fn missing_message(missing: &[char]) -> String {
    let shown: Vec<String> = missing.iter().take(8).map(char::to_string).collect();
    let shown = shown.join(" ");
    let more = if missing.len() > 8 { " …" } else { "" };
    let cjk = missing.iter().any(|c| c.width() == Some(2));
    let advice = if cjk {
        "no CJK font is installed; install the package fonts-noto-cjk \
         (apt-get install fonts-noto-cjk) or export with --lang en"
    } else {
        "install a font that has them"
    };
    format!(
        "cannot draw {} character(s) of the figure with the installed fonts ({shown}{more}): {advice}",
        missing.len()
    )
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

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;

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
