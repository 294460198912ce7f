//! How a fault is said to an author: the place (line:column, the JSON
//! path), serde's errors reworded without Rust type names, and values
//! quoted short and escaped.

use strum::VariantNames as _;

use crate::safe;
use crate::scenario::EndStatus;

/// Longest value quoted in an error: an error is a line or two, whatever
/// the file holds.
pub(super) const MAX_QUOTED_CHARS: usize = 60;

/// The budget a scenario may set, as the checks and serde's errors say it.
pub(super) const BUDGET_RANGE: &str = "a number of model calls from 1 to 10000";

/// serde's "duplicate field", which the scan of keys says better.
pub(super) fn is_duplicate_field(e: &serde_json::Error) -> bool {
    e.to_string().starts_with("duplicate field")
}

/// serde_json's line and byte column within the part of `text` that starts
/// at byte `start`, as a line and byte column of the whole text.
pub(super) fn in_file(text: &str, start: usize, line: usize, column: usize) -> (usize, usize) {
    let before = &text[..start];
    let lines_before = before.matches('\n').count();
    match line {
        1 => {
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            (lines_before + 1, start - line_start + column)
        }
        _ => (lines_before + line, column),
    }
}

/// A path inside a value (`calls[0].tool`) put after the value's own path
/// (`model[1]`).
pub(super) fn join_path(prefix: &str, inner: &str) -> String {
    if prefix.is_empty() || inner.is_empty() || inner.starts_with('[') {
        format!("{prefix}{inner}")
    } else {
        format!("{prefix}.{inner}")
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub(super) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// serde_json counts columns in bytes; an author's editor counts characters.
pub(super) fn char_column(text: &str, line: usize, byte_column: usize) -> (usize, usize) {
    let Some(line_text) = text.split('\n').nth(line.saturating_sub(1)) else {
        return (line, byte_column.max(1));
    };
    let mut end = byte_column.min(line_text.len());
    while !line_text.is_char_boundary(end) {
        end -= 1;
    }
    (line, line_text[..end].chars().count().max(1))
}

/// `model[2].calls[0].tool`, `files["../x"]`; empty at the top level.
pub(super) fn json_path(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } => out = key_path(&out, key),
            Segment::Enum { variant } => out = key_path(&out, variant),
            Segment::Unknown => break,
        }
    }
    out
}

/// A key appended to a JSON path, quoted unless it is a plain name.
pub(super) fn key_path(parent: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    match (plain, parent.is_empty()) {
        (true, true) => key.to_string(),
        (true, false) => format!("{parent}.{key}"),
        (false, _) => format!("{parent}[{}]", quoted(key)),
    }
}

/// A value from the file, quoted and cut short for an error message;
/// control characters escaped the one way every message escapes them
/// (`\u{1b}`, as `safe::escape`), not JSON's `\u001b`.
pub(super) fn quoted(s: &str) -> String {
    let short: String = s.chars().take(MAX_QUOTED_CHARS).collect();
    let json = format!("{short:?}");
    if short.len() < s.len() {
        format!("{}…\"", &json[..json.len() - 1])
    } else {
        json
    }
}

/// Escaped for a terminal (`safe::escape`), and cut at `max` characters.
pub(super) fn printable(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", safe::escape(&s[..cut])),
        None => safe::escape(s).into_owned(),
    }
}

/// serde_json's error in an author's words: no Rust type names, values cut
/// short, and what was expected.
pub(super) fn describe_json_error(e: &serde_json::Error, path: &str) -> String {
    use serde_json::error::Category;
    let text = e.to_string();
    // Drop serde_json's own " at line L column C": the place is shown apart.
    let text = match text.rfind(" at line ") {
        Some(i) => &text[..i],
        None => &text,
    };
    match e.classify() {
        Category::Eof => format!(
            "the file ends in the middle of {}; expected the rest of the JSON (is it truncated?)",
            text.strip_prefix("EOF while parsing ")
                .unwrap_or("the JSON")
        ),
        Category::Syntax if text == "recursion limit exceeded" => {
            "the JSON is nested too deeply; expected a scenario object".into()
        }
        Category::Syntax if text == "expected value" && path == "expect" => {
            format!("expected one of: {}", EndStatus::VARIANTS.join(", "))
        }
        Category::Syntax if text == "expected value" || text == "expected ident" => {
            "not valid JSON here; expected a value (a string in \"quotes\", a number, \
             true/false, a list [ ... ] or an object { ... })"
                .into()
        }
        Category::Syntax if text == "key must be a string" => {
            "expected a field name in \"quotes\" (is there an extra comma?)".into()
        }
        Category::Syntax if text == "trailing comma" => {
            "a comma before } or ]; JSON does not allow a trailing comma".into()
        }
        Category::Syntax if text.starts_with("control character") => {
            "a line break or control character inside a string; expected it written \
             as an escape such as \\n"
                .into()
        }
        Category::Syntax | Category::Io => text.replace('`', "\""),
        // A budget is a u32 to serde, but 0 is refused too: say the range
        // the check says, not "0 or more".
        Category::Data if path == "budget" => {
            describe_data_error(text).replacen(&expected_words("u32"), BUDGET_RANGE, 1)
        }
        Category::Data => describe_data_error(text),
    }
}

/// serde's "invalid type: X, expected Y", "unknown field `f`, expected one
/// of ...", "missing field `f`" and friends, reworded.
pub(super) fn describe_data_error(text: &str) -> String {
    if let Some(rest) = text.strip_prefix("unknown field `") {
        let (field, expected) = rest.split_once('`').unwrap_or((rest, ""));
        let names = backticked(expected);
        let hint = did_you_mean(field, &names)
            .map(|n| format!("; did you mean \"{n}\"?"))
            .unwrap_or_default();
        return format!(
            "unknown field {}{hint} (unknown fields are refused; expected one of: {})",
            quoted(field),
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        );
    }
    if let Some(rest) = text.strip_prefix("unknown variant `") {
        let (value, expected) = rest.split_once('`').unwrap_or((rest, ""));
        return format!(
            "unknown value {}; expected one of: {}",
            quoted(value),
            backticked(expected).join(", ")
        );
    }
    if let Some(rest) = text.strip_prefix("missing field `") {
        let field = rest.trim_end_matches('`');
        return format!("missing field \"{field}\", which is required");
    }
    if let Some(rest) = text.strip_prefix("duplicate field `") {
        let field = rest.trim_end_matches('`');
        return format!("field \"{field}\" appears twice; expected it once");
    }
    let rest = text
        .strip_prefix("invalid type: ")
        .or_else(|| text.strip_prefix("invalid value: "))
        .or_else(|| text.strip_prefix("invalid length "));
    if let Some((found, expected)) = rest.and_then(|r| r.rsplit_once(", expected ")) {
        return format!(
            "expected {}, found {}",
            expected_words(expected),
            found_words(found)
        );
    }
    text.replace('`', "\"")
}

/// The name an unknown field is most likely a misspelling of, if any.
pub(super) fn did_you_mean<'n>(field: &str, names: &[&'n str]) -> Option<&'n str> {
    names
        .iter()
        .copied()
        .filter(|n| strsim::levenshtein(n, field) <= 2)
        .min_by_key(|n| strsim::levenshtein(n, field))
}

/// The names inside backticks: "one of `a`, `b`" → [a, b].
pub(super) fn backticked(s: &str) -> Vec<&str> {
    s.split('`').skip(1).step_by(2).collect()
}

pub(super) fn expected_words(expected: &str) -> String {
    match expected {
        // Rust's names for numbers are no words for an author.
        "u8" | "u16" | "u32" | "u64" | "usize" => "a whole number (0 or more)".into(),
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".into(),
        "f32" | "f64" => "a number".into(),
        "a boolean" => "true or false".into(),
        "a sequence" => "a list [ ... ]".into(),
        "a map" => "an object { ... }".into(),
        "struct Text" => "an object {\"zh\": \"...\", \"en\": \"...\"}".into(),
        e if e.starts_with("struct ") => "an object { ... }".into(),
        e => e.replace('`', "\""),
    }
}

pub(super) fn found_words(found: &str) -> String {
    let value = |prefix: &str| {
        found
            .strip_prefix(prefix)
            .map(|v| v.trim_matches('`').to_string())
    };
    if let Some(s) = found.strip_prefix("string ") {
        // serde prints the string Debug-quoted; show it JSON-quoted and short.
        let inner = s.strip_prefix('"').and_then(|s| s.strip_suffix('"'));
        return format!("the string {}", quoted(inner.unwrap_or(s)));
    }
    if let Some(v) = value("integer ").or_else(|| value("floating point ")) {
        let short: String = v.chars().take(MAX_QUOTED_CHARS).collect();
        return format!("the number {short}");
    }
    if let Some(v) = value("boolean ") {
        return v;
    }
    match found {
        "map" => "an object { ... }".into(),
        "sequence" => "a list [ ... ]".into(),
        "null" => "null".into(),
        f => f.replace('`', "\""),
    }
}
