//! The two kinds of text: a `Label` (one string per language) and a
//! `Plural` (the forms of a word that changes with a count).

use std::fmt::{Display, Write as _};

use crate::scenario::Lang;

/// A fixed text in every language, indexed by `Lang::index`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Label(pub [&'static str; Lang::COUNT]);

impl Label {
    /// Refuses (at compile time, for a `const`) a text missing in a language.
    pub const fn new(texts: [&'static str; Lang::COUNT]) -> Self {
        let mut i = 0;
        while i < Lang::COUNT {
            assert!(!texts[i].is_empty(), "a text is empty in one language");
            i += 1;
        }
        Label(texts)
    }

    pub fn get(self, lang: Lang) -> &'static str {
        lang.shown(self.0[lang.written().index()])
    }

    /// The text in `lang` with each `{name}` hole replaced by the value of
    /// that name. A hole with no value stays as written (a test checks that
    /// every language of a template has the same holes).
    pub fn fill(self, lang: Lang, values: &[(&str, &dyn Display)]) -> String {
        let text = self.get(lang);
        let mut out = String::with_capacity(text.len() + 16);
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            match after.find('}') {
                Some(close) => {
                    let name = &after[..close];
                    match values.iter().find(|(n, _)| *n == name) {
                        Some((_, v)) => {
                            let _ = write!(out, "{v}");
                        }
                        None => out.push_str(&rest[open..open + close + 2]),
                    }
                    rest = &after[close + 1..];
                }
                None => {
                    out.push_str(&rest[open..]);
                    rest = "";
                }
            }
        }
        out.push_str(rest);
        out
    }
}

/// A word that changes with a count. Which form a count takes is the
/// language's own rule (`Lang::plural`); Chinese writes one form for every
/// count, so its two texts are the same.
#[derive(Debug, Clone, Copy)]
pub struct Plural {
    pub one: Label,
    pub other: Label,
}

impl Plural {
    pub fn get(self, n: usize, lang: Lang) -> &'static str {
        self.of(n, lang).get(lang)
    }

    /// The form for `n` in `lang`, e.g. to fill a whole sentence that
    /// changes with it.
    pub fn of(self, n: usize, lang: Lang) -> Label {
        match lang.plural(n) {
            Form::One => self.one,
            Form::Other => self.other,
        }
    }
}

/// The forms a count can take (CLDR's plural categories, of which our
/// languages need two; a language with more adds them here).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    One,
    Other,
}

impl Lang {
    /// The form of a word after the count `n` (CLDR: Chinese has only
    /// "other"; English "one" for 1 and "other" for the rest; the
    /// pseudo-locale, made from English, English's).
    pub fn plural(self, n: usize) -> Form {
        match self {
            Lang::Zh => Form::Other,
            Lang::En | Lang::Pseudo if n == 1 => Form::One,
            Lang::En | Lang::Pseudo => Form::Other,
        }
    }
}

pub(super) const fn l(texts: [&'static str; Lang::COUNT]) -> Label {
    Label::new(texts)
}

/// A multi-line text on one line, each line break shown as ↵.
pub fn one_line(s: &str) -> String {
    s.lines().collect::<Vec<_>>().join(" ↵ ")
}
