//! The scenario as drawn: every text of it as `safe::for_screen` makes it,
//! so what the trace holds is what a terminal draws, cell for cell, with no
//! escape sequence and no joined emoji of uncertain width. Texts the
//! model's rules match against are changed the same way, so a rule finds
//! what it names. (A short rule text such as "t" could also match the
//! letters of an escape like `\t`; a scenario without such characters is
//! unchanged.)
//!
//! It is read again from the file's JSON with every string and every key
//! made safe first (when any would change: `as_drawn`), so a field added
//! to `Scenario` later is cleaned as it is read, with nothing to remember
//! here. What is kept as written is named:
//! the keys that name steps (narration's keys, `quiz_steps`: `anchors`
//! resolves them against the run, and `check` says which name none) and
//! `twin`, a file's name (`prepare_with` sets it as found). Object keys
//! are cleaned too: struct fields are plain names (an unknown one is
//! refused before this), map keys are texts (a file's path, an argument's
//! name, a JSON schema's properties).

use serde_json::Value;

use crate::safe;
use crate::scenario::Scenario;

/// The fields of the top-level object kept as written.
const AS_WRITTEN: [&str; 2] = ["quiz_steps", "twin"];

/// The scenario of `text` (which parses as one: `errors::parse_all` read
/// it first) with every text as drawn; None when that is the scenario as
/// written (`as_drawn`), as every shipped lesson is: it is not read again.
pub(super) fn read(text: &str) -> Result<Option<Scenario>, serde_json::Error> {
    if as_drawn(text) {
        return Ok(None);
    }
    let mut value: Value = serde_json::from_str(text)?;
    if let Value::Object(top) = &mut value {
        let kept: Vec<(String, Value)> = AS_WRITTEN
            .iter()
            .filter_map(|&k| Some((k.to_string(), top.remove(k)?)))
            .collect();
        // Narration: its keys as written, its texts as drawn.
        let narration = top.remove("narration").map(|mut narration| {
            match &mut narration {
                Value::Object(texts) => texts.values_mut().for_each(clean),
                other => clean(other),
            }
            narration
        });
        clean(&mut value);
        if let Value::Object(top) = &mut value {
            top.extend(kept);
            if let Some(narration) = narration {
                top.insert("narration".into(), narration);
            }
        }
    }
    serde_json::from_value(value).map(Some)
}

/// No string of the JSON `text` changes when drawn: the text holds no
/// character `safe::for_screen` changes, and no escape but `\"`, `\\`,
/// `\/` and `\n` (a `\u`, `\t`, `\r`, `\b` or `\f` may stand for one).
fn as_drawn(text: &str) -> bool {
    let mut bytes = text.bytes();
    while let Some(b) = bytes.next() {
        if b == b'\\' && !matches!(bytes.next(), Some(b'"' | b'\\' | b'/' | b'n')) {
            return false;
        }
    }
    !changes(text)
}

/// Every string and key of `value` as drawn.
fn clean(value: &mut Value) {
    match value {
        Value::String(text) => clean_text(text),
        Value::Array(items) => items.iter_mut().for_each(clean),
        Value::Object(map) => {
            if map.keys().any(|k| changes(k)) {
                // Keys that become one keep the first's place and the last
                // one's value, as a JSON object written twice does.
                *map = std::mem::take(map)
                    .into_iter()
                    .map(|(mut k, v)| {
                        clean_text(&mut k);
                        (k, v)
                    })
                    .collect();
            }
            map.values_mut().for_each(clean);
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

fn changes(text: &str) -> bool {
    matches!(safe::for_screen(text), std::borrow::Cow::Owned(_))
}

fn clean_text(text: &mut String) {
    if let std::borrow::Cow::Owned(safe) = safe::for_screen(text) {
        *text = safe;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_is_read_again_only_when_a_string_of_it_may_change() {
        for same in [r#"{"a": "b\n\"c\" \\ \/ 中文"}"#, "{\n  \"a\": 1\n}"] {
            assert!(as_drawn(same), "{same}");
        }
        for changed in [
            r#"{"a": "\u001b"}"#,
            r#"{"a": "\t"}"#,
            r#"{"a": "\r"}"#,
            r#"{"a": "\u00e9"}"#,
            "{\"a\": \"\u{1b}\"}",
            "{\"a\":\t1}",
            "{\"a\": \"\u{1F1F3}\u{1F1F1}\"}",
            r#"{"a": "\\\t"}"#,
        ] {
            assert!(!as_drawn(changed), "{changed}");
        }
    }

    /// An escape sequence, a bidi override and a joined emoji.
    const EVIL: &str = "\u{1b}]0;t\u{7}\u{202e}\u{1F468}\u{200D}\u{1F469}";

    /// The fields whose strings are enum names (a text added there would
    /// not parse) or kept as written.
    const NOT_TEXT: [&str; 10] = [
        "expect",
        "error",
        "ids",
        "provider",
        "policy",
        "decision",
        "op_id",
        "status",
        "quiz_steps",
        "twin",
    ];

    /// EVIL appended to every string value of `v`, but not to object keys
    /// (a struct's field names) nor under `NOT_TEXT`.
    fn poisoned(v: &mut Value) {
        match v {
            Value::String(text) => text.push_str(EVIL),
            Value::Array(items) => items.iter_mut().for_each(poisoned),
            Value::Object(map) => {
                for (k, v) in map.iter_mut() {
                    if !NOT_TEXT.contains(&k.as_str()) {
                        poisoned(v);
                    }
                }
            }
            _ => {}
        }
    }

    /// No raw escape in what the scenario holds: Debug writes a raw ESC as
    /// `\u{1b}`, and the text `safe::for_screen` writes for it as `\\u{1b}`.
    fn raw_escapes(scenario: &Scenario) -> usize {
        format!("{scenario:?}")
            .replace(r"\\u{1b}", "")
            .matches(r"\u{1b}")
            .count()
    }

    /// Every string field of every shipped lesson, poisoned, is read as
    /// drawn: a `String` field added to `Scenario` is covered as soon as a
    /// lesson uses it, with nothing to change here or in `read`.
    #[test]
    fn every_text_of_every_lesson_is_read_as_drawn() {
        for (name, source) in crate::load::CATALOG {
            let mut value: Value = serde_json::from_str(source).unwrap();
            poisoned(&mut value);
            let raw: Scenario = serde_json::from_value(value.clone())
                .unwrap_or_else(|e| panic!("{name}: {e} (a new enum field? add it to NOT_TEXT)"));
            assert!(raw_escapes(&raw) > 0, "{name}: the test poisons nothing");
            let screen = read(&value.to_string()).unwrap().unwrap();
            assert_eq!(raw_escapes(&screen), 0, "{name}: {screen:#?}");
            // As shipped: nothing to clean, not read again.
            assert!(read(source).unwrap().is_none(), "{name}");
        }
    }

    #[test]
    fn step_keys_and_the_twin_are_kept_as_written() {
        let mut value: Value = serde_json::from_str(crate::load::CATALOG[0].1).unwrap();
        let key = "2\u{1b}";
        value["narration"][key] = serde_json::json!({"zh": "甲\u{1b}", "en": "b\u{1b}"});
        value["quiz_steps"] = serde_json::json!([key]);
        value["twin"] = serde_json::json!(key);
        value["files"] = serde_json::json!({"a\u{1b}.txt": "x\u{1b}"});
        let screen = read(&value.to_string()).unwrap().unwrap();
        assert_eq!(
            screen.narration[key].get(crate::scenario::Lang::En),
            r"b\u{1b}"
        );
        assert_eq!(screen.quiz_steps, [key]);
        assert_eq!(screen.twin.as_deref(), Some(key));
        assert_eq!(screen.files[r"a\u{1b}.txt"], r"x\u{1b}");
    }
}
