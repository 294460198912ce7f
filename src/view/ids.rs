//! Long opaque call ids on a narrow screen. A real id (`toolu_01…`, 30
//! characters) takes most of the room of a lane's words or the header's
//! title; where the words do not fit, each long id is shortened the way
//! git shortens a hash (`toolu_01kZrT…`), so the words after it stay. The
//! pairing table and the context panel show every id whole.

use crate::trace::Step;

/// Ids longer than this are shortened.
const LONG_ID: usize = 16;
/// How many characters of a long id are kept.
const KEPT: usize = 12;

/// `text` with each long call id of `step` shortened.
pub fn shorten_ids(text: &str, step: &Step) -> String {
    let mut out = text.to_string();
    for id in step.kind.call_ids() {
        if id.0.chars().count() > LONG_ID {
            let short: String = id.0.chars().take(KEPT).collect();
            out = out.replace(&*id.0, &format!("{short}…"));
        }
    }
    out
}
