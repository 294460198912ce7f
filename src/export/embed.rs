//! `--embed-fonts`: the fonts a figure uses, cut down to the characters it
//! shows, inside the figure as `@font-face` rules with `data:` URLs. A
//! reader without the fonts (no CJK font, a phone, a PDF tool) then draws
//! the same glyphs, and the text stays real text: selectable, searchable,
//! and extracted from a PDF printed from it.
//!
//! Each character is looked up the way a browser resolves the SVG's font
//! list: the first family of `fonts::FONT_FAMILIES` installed here that has
//! it, in the weight the text asks for, else any installed font that has it.
//! The faces found are subset by `allsorts` (a subset with a Unicode cmap and
//! the tables browsers require; typst's `subsetter` drops the cmap, as its
//! subsets are meant for PDF writers only), and embedded under names of
//! their own, so the figure names the embedded faces first and the installed
//! ones only after them.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use allsorts::binary::read::ReadScope;
use allsorts::font_data::FontData;
use allsorts::subset::{CmapTarget, SubsetProfile};
use base64::Engine as _;
use ratatui::buffer::Buffer;
use ratatui::style::Modifier;
use resvg::usvg::fontdb;
use skrifa::MetadataProvider;

use super::boxdraw;

/// The prefix of an embedded face's family name: never the name of an
/// installed font, so the figure cannot pick the installed one by mistake.
pub const PREFIX: &str = "Embedded ";

/// Fonts for a figure or a page: the `@font-face` rules and the families
/// they declare, in the order the figure should try them.
#[derive(Debug, Clone, Default)]
pub struct Embedded {
    /// `@font-face { … }` rules, one per face.
    pub css: String,
    /// `'Embedded DejaVu Sans Mono', …` (quoted, comma-separated).
    pub families: String,
}

/// The characters a figure shows, split by weight (400 or 700).
#[derive(Debug, Clone, Default)]
pub struct Used {
    chars: BTreeMap<u16, BTreeSet<char>>,
}

impl Used {
    /// Every character drawn as text in `buffer` (box-drawing characters
    /// are shapes and hidden cells show nothing), with its weight.
    pub fn add_buffer(&mut self, buffer: &Buffer) {
        for cell in buffer.content() {
            let symbol = cell.symbol();
            if cell.modifier.contains(Modifier::HIDDEN) || boxdraw::shape(symbol).is_some() {
                continue;
            }
            let weight = if cell.modifier.contains(Modifier::BOLD) {
                700
            } else {
                400
            };
            self.add(weight, symbol);
        }
        // Runs of text keep their word spaces (see `svg::text_runs`).
        self.add(400, " ");
    }

    /// The characters of `text` at `weight`. Controls and line breaks need
    /// no glyph.
    pub fn add(&mut self, weight: u16, text: &str) {
        self.chars
            .entry(weight)
            .or_default()
            .extend(text.chars().filter(|c| !c.is_control()));
    }

    fn is_empty(&self) -> bool {
        self.chars.values().all(BTreeSet::is_empty)
    }
}

/// The faces of `db` that draw the characters of `used`, subset and
/// written as `@font-face` rules. `families` are tried first, in order, as
/// the figure's `font-family` list does. An error names the characters no
/// installed font has, and the package to install for CJK.
pub fn embed(db: &fontdb::Database, families: &[&str], used: &Used) -> Result<Embedded, String> {
    let per_face = face_of_each_char(db, families, used)?;
    if used.is_empty() {
        return Ok(Embedded::default());
    }
    font_face_rules(db, in_list_order(db, families, per_face))
}

/// A face a character: by rank in `db`, the face and the characters of
/// `used` it draws; `families` are tried first. An error names the
/// characters no face draws.
fn face_of_each_char(
    db: &fontdb::Database,
    families: &[&str],
    used: &Used,
) -> Result<BTreeMap<usize, (fontdb::ID, BTreeSet<char>)>, String> {
    // The face each character is drawn with, and what it must hold.
    let mut per_face: BTreeMap<usize, (fontdb::ID, BTreeSet<char>)> = BTreeMap::new();
    let order: Vec<fontdb::ID> = db.faces().map(|f| f.id).collect();
    let mut missing: BTreeSet<char> = BTreeSet::new();
    let mut charmaps: BTreeMap<usize, BTreeSet<char>> = BTreeMap::new();
    let has = |charmaps: &mut BTreeMap<usize, BTreeSet<char>>, rank: usize, c: char| -> bool {
        // Which characters of `used` a face has, read once per face.
        let set = charmaps.entry(rank).or_insert_with(|| {
            let all: BTreeSet<char> = used.chars.values().flatten().copied().collect();
            db.with_face_data(order[rank], |data, index| {
                skrifa::FontRef::from_index(data, index)
                    .map(|font| {
                        let map = font.charmap();
                        all.iter()
                            .copied()
                            .filter(|c| map.map(*c).is_some())
                            .collect()
                    })
                    .unwrap_or_default()
            })
            .unwrap_or_default()
        });
        set.contains(&c)
    };
    for (&weight, chars) in &used.chars {
        // The face each named family resolves to at this weight.
        let named: Vec<usize> = families
            .iter()
            .filter_map(|name| {
                db.query(&fontdb::Query {
                    families: &[fontdb::Family::Name(name)],
                    weight: fontdb::Weight(weight),
                    ..fontdb::Query::default()
                })
            })
            .filter_map(|id| order.iter().position(|o| *o == id))
            .collect();
        for &c in chars {
            let rank = named
                .iter()
                .copied()
                .find(|&r| has(&mut charmaps, r, c))
                .or_else(|| (0..order.len()).find(|&r| has(&mut charmaps, r, c)));
            match rank {
                Some(r) => {
                    per_face
                        .entry(r)
                        .or_insert_with(|| (order[r], BTreeSet::new()))
                        .1
                        .insert(c);
                }
                // A space drawn by no font is still a space.
                None if c.is_whitespace() => {}
                None => {
                    missing.insert(c);
                }
            }
        }
    }
    if !missing.is_empty() {
        return Err(super::fonts::missing_message(
            &missing.into_iter().collect::<Vec<_>>(),
        ));
    }
    Ok(per_face)
}

/// The faces in the order of the figure's font list: named ones first.
fn in_list_order(
    db: &fontdb::Database,
    families: &[&str],
    per_face: BTreeMap<usize, (fontdb::ID, BTreeSet<char>)>,
) -> Vec<(usize, fontdb::ID, BTreeSet<char>)> {
    let mut faces: Vec<(usize, fontdb::ID, BTreeSet<char>)> = per_face
        .into_iter()
        .map(|(r, (id, cs))| (r, id, cs))
        .collect();
    let name_rank = |id: fontdb::ID| {
        let family = family_of(db, id);
        families
            .iter()
            .position(|f| family.eq_ignore_ascii_case(f))
            .unwrap_or(families.len())
    };
    faces.sort_by_key(|(r, id, _)| (name_rank(*id), *r));
    faces
}

/// Each face subset to its characters, as an `@font-face` rule, and the
/// list of their families.
fn font_face_rules(
    db: &fontdb::Database,
    faces: Vec<(usize, fontdb::ID, BTreeSet<char>)>,
) -> Result<Embedded, String> {
    let mut out = Embedded::default();
    let mut names: Vec<String> = Vec::new();
    for (_, id, chars) in faces {
        let info = db.face(id).ok_or("a font disappeared while it was read")?;
        let family = format!("{PREFIX}{}", safe_name(&family_of(db, id)));
        let font = db
            .with_face_data(id, |data, index| subset(data, index, &chars))
            .ok_or_else(|| format!("cannot read the font file of {family}"))?
            .map_err(|e| format!("cannot subset {}: {e}", safe_name(&family_of(db, id))))?;
        let mime = if font.starts_with(b"OTTO") {
            "font/otf"
        } else {
            "font/ttf"
        };
        let _ = writeln!(
            out.css,
            "@font-face {{ font-family: '{family}'; font-weight: {}; font-style: normal; \
             src: url(data:{mime};base64,{}); }}",
            info.weight.0,
            base64::engine::general_purpose::STANDARD.encode(&font)
        );
        if !names.contains(&family) {
            names.push(family);
        }
    }
    out.families = names
        .iter()
        .map(|n| format!("'{n}'"))
        .collect::<Vec<_>>()
        .join(", ");
    Ok(out)
}

/// Face `index` of the font file `data`, cut down to the glyphs of `chars`
/// (and `.notdef`), with a Unicode cmap for them.
pub fn subset(data: &[u8], index: u32, chars: &BTreeSet<char>) -> Result<Vec<u8>, String> {
    let font = skrifa::FontRef::from_index(data, index).map_err(|e| e.to_string())?;
    let charmap = font.charmap();
    let mut glyphs: Vec<u16> = vec![0];
    for c in chars {
        if let Some(g) = charmap.map(*c) {
            let g = u16::try_from(g.to_u32()).map_err(|_| "a glyph id beyond 65535")?;
            if !glyphs.contains(&g) {
                glyphs.push(g);
            }
        }
    }
    glyphs[1..].sort_unstable();
    let file = ReadScope::new(data)
        .read::<FontData<'_>>()
        .map_err(|e| e.to_string())?;
    let provider = file
        .table_provider(index as usize)
        .map_err(|e| e.to_string())?;
    allsorts::subset::subset(
        &provider,
        &glyphs,
        &SubsetProfile::Minimal,
        CmapTarget::Unicode,
    )
    .map_err(|e| e.to_string())
}

/// The face's family name in English, as fontconfig lists it.
fn family_of(db: &fontdb::Database, id: fontdb::ID) -> String {
    db.face(id)
        .and_then(|f| f.families.first().map(|(name, _)| name.clone()))
        .unwrap_or_else(|| "font".to_string())
}

/// A family name safe inside a quoted CSS string in an XML attribute: a
/// font file names itself, so it is not trusted.
fn safe_name(name: &str) -> String {
    let kept: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.'))
        .collect();
    let kept = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    if kept.is_empty() {
        "font".to_string()
    } else {
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_names_from_font_files_cannot_break_out_of_css() {
        assert_eq!(safe_name("DejaVu Sans Mono"), "DejaVu Sans Mono");
        assert_eq!(safe_name("x'); } <script>"), "x script");
        assert_eq!(safe_name("'\""), "font");
    }
}
