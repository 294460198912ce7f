//! Every text the screen shows, in every language, in one place.
//! Step titles and labels are made here from the trace's structured steps.
//!
//! A text is a `Label`: one string per language, in the order of
//! `Lang::ALL`. Texts with values in them are templates with `{name}`
//! holes, filled by `Label::fill`. Adding a language is one more string in
//! each entry of the catalogue below (the compiler points at every entry);
//! the functions that choose between texts never name a language.
//!
//! `label.rs` holds the two kinds of text (`Label`, `Plural`),
//! `catalogue.rs` every text, `narrate.rs` what composes them with the
//! trace's facts (step titles, counters, host words). The pseudo-locale's
//! texts are made from English's (`Lang::shown`, `crate::pseudo`).

/// Defines each text as a `pub const` and lists them all in `CATALOGUE`,
/// so the tests can check every text in every language.
macro_rules! catalogue {
    ($($(#[$meta:meta])* $name:ident = [$($text:expr),+ $(,)?];)*) => {
        $($(#[$meta])* pub const $name: Label = Label::new([$($text),+]);)*
        /// Every text above, by name.
        pub const CATALOGUE: &[(&str, Label)] = &[$((stringify!($name), $name)),*];
    };
}

mod catalogue;
pub mod keys;
mod label;
mod mcp;
mod narrate;
pub mod page;
mod stream;

pub use catalogue::*;
pub use label::*;
pub use mcp::mcp_server_state;
pub use narrate::*;
