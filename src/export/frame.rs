//! A frame off-screen: the buffer the TUI would draw, and its words.

use ratatui::buffer::Buffer;

use crate::scenario::Lang;

/// One frame off-screen, with the words that describe it.
pub struct Frame {
    pub buffer: Buffer,
    /// Scenario title, step k/N and the step's title.
    pub title: String,
    /// Who acts and what the step means, for alt text.
    pub description: String,
    /// The language of the text, for `xml:lang`.
    pub lang: Lang,
}

/// The BCP 47 tag of the text (`xml:lang`, `<html lang>`): the Chinese is
/// in simplified characters.
pub fn lang_tag(lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => "zh-Hans",
        Lang::En => "en",
    }
}
