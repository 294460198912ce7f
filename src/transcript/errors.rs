//! Errors at a place in a transcript file: a line, a line and column, or
//! a value that is no transcript at all.

use serde_json::Value;

use super::format::Format;
use super::text;
use crate::load::ScenarioError;

/// The file, or `(file, line, message)` for an error at a line.
pub(crate) fn error(
    file: &str,
    place: Option<String>,
    message: impl Into<String>,
) -> ScenarioError {
    ScenarioError {
        file: file.to_string(),
        place,
        message: message.into(),
    }
}

pub(crate) fn at_line(file: &str, line: usize, message: impl Into<String>) -> ScenarioError {
    error(file, Some(format!("line {line}")), message)
}

/// serde_json's error with its line and column, in plain words.
pub(crate) fn json_error(path: &str, e: &serde_json::Error) -> ScenarioError {
    let text = e.to_string();
    let text = match text.rfind(" at line ") {
        Some(i) => &text[..i],
        None => &text,
    };
    let message = match e.classify() {
        serde_json::error::Category::Eof => {
            "the JSON ends too early; expected the rest of the document (is the file cut short?)"
                .to_string()
        }
        _ if text.contains("UTF-8") || text.contains("invalid unicode code point") => {
            "invalid UTF-8 (or an invalid \\u escape); expected a UTF-8 text file".to_string()
        }
        _ => format!("not valid JSON ({text}); expected a transcript"),
    };
    error(
        path,
        Some(format!("line {}, column {}", e.line(), e.column().max(1))),
        message,
    )
}

/// A value none of the readers recognises, named by what it holds.
pub(crate) fn not_a_transcript(path: &str, line: usize, value: &Value) -> ScenarioError {
    let keys = |o: &serde_json::Map<String, Value>| {
        let mut keys: Vec<String> = o.keys().take(6).map(|k| format!("{k:?}")).collect();
        if o.len() > 6 {
            keys.push(format!("… ({} in all)", o.len()));
        }
        keys.join(", ")
    };
    let found = match value {
        Value::Object(o) => format!("recognised an object with the keys {}", keys(o)),
        Value::Array(items) if items.is_empty() => "recognised an empty list".into(),
        Value::Array(items) => match &items[0] {
            Value::Object(o) => format!(
                "recognised a list of {} items, the first an object with the keys {}, none of them messages or items",
                items.len(),
                keys(o)
            ),
            _ => format!(
                "recognised a list of {} items that are not objects",
                items.len()
            ),
        },
        _ => "recognised a JSON value that is not an object".into(),
    };
    let formats: Vec<&str> = Format::ALL
        .iter()
        .map(|f| text::format_name(*f, crate::scenario::Lang::En))
        .collect();
    at_line(
        path,
        line,
        format!(
            "not a transcript: {found}; the formats read are {} (--transcript-format forces one)",
            formats.join(", ")
        ),
    )
}
