//! JSON to `Scenario`, and serde's errors reworded for an author: the
//! line, column and JSON path, no Rust type names, and what was expected.

use crate::safe;
use strum::VariantNames as _;

use crate::scenario::{EndStatus, Scenario};

use super::fields::value_errors;
use super::keys::{Keys, scan};
use super::{MAX_QUOTED_CHARS, ScenarioError};

/// JSON to `Scenario`, with the line, column and JSON path of the first
/// error, and what was expected there in words an author knows.
pub fn parse(file: &str, bytes: &[u8]) -> Result<Scenario, ScenarioError> {
    let parsed = parse_all(file, bytes);
    match (parsed.scenario, parsed.faults.into_iter().next()) {
        (Some(scenario), None) => Ok(scenario),
        (_, Some(first)) => Err(first),
        (None, None) => unreachable!("a scenario or a fault"),
    }
}

/// What reading the JSON gave: the scenario if serde could build it, every
/// fault found (a syntax error stops at the first; wrong values, one per
/// field or list item, and keys written twice are all reported), and where
/// each key is written.
pub(super) struct Parsed {
    pub scenario: Option<Scenario>,
    pub faults: Vec<ScenarioError>,
    pub keys: Keys,
}

pub(super) fn parse_all(file: &str, bytes: &[u8]) -> Parsed {
    let refused = |faults: Vec<ScenarioError>| Parsed {
        scenario: None,
        faults,
        keys: Keys::default(),
    };
    match read_json(file, bytes) {
        Ok((text, scenario)) => {
            let keys = scan(text);
            let mut faults = duplicates(file, &keys);
            let scenario = match scenario {
                Ok(scenario) => Some(scenario),
                Err((fault, duplicate_field)) => {
                    // serde stopped at the first wrong value: read the
                    // fields one by one for the others. Its "duplicate
                    // field" is said better above.
                    let said = !faults.is_empty();
                    let each: Vec<ScenarioError> = value_errors(file, text)
                        .into_iter()
                        .filter(|&(_, duplicate)| !(duplicate && said))
                        .map(|(fault, _)| fault)
                        .collect();
                    if !each.is_empty() {
                        faults.extend(each);
                    } else if !duplicate_field || !said {
                        faults.push(fault);
                    }
                    None
                }
            };
            Parsed {
                scenario,
                faults,
                keys,
            }
        }
        Err(faults) => refused(faults),
    }
}

/// Keys written twice in one object: serde_json would keep the last.
fn duplicates(file: &str, keys: &Keys) -> Vec<ScenarioError> {
    keys.duplicates
        .iter()
        .map(|d| ScenarioError {
            file: file.to_string(),
            place: Some(format!("{}:{} at {}", d.again.0, d.again.1, d.path)),
            message: format!(
                "{} appears twice in the same object (first at {}:{}); expected each key once \
                 (only the last one would count)",
                quoted(&d.key),
                d.first.0,
                d.first.1
            ),
        })
        .collect()
}

/// A value error from serde, and whether it is serde's "duplicate field".
type ValueError = (ScenarioError, bool);

/// The text as JSON: Err for text that is not valid JSON (the first syntax
/// error, after a wrong value serde met before it), else the text and
/// serde's answer for the scenario.
fn read_json<'t>(
    file: &str,
    bytes: &'t [u8],
) -> Result<(&'t str, Result<Scenario, ValueError>), Vec<ScenarioError>> {
    let text = read_text(file, bytes).map_err(|fault| vec![fault])?;
    let mut de = serde_json::Deserializer::from_str(text);
    let mut syntax = false;
    let mut duplicate_field = false;
    let scenario = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let (fault, inner) = value_fault(file, text, 0, "", e);
        syntax = !inner.is_data();
        duplicate_field = is_duplicate_field(&inner);
        fault
    });
    let at = |e: &serde_json::Error, message: String| ScenarioError {
        file: file.to_string(),
        place: Some({
            let (line, column) = char_column(text, e.line(), e.column());
            format!("{line}:{column}")
        }),
        message,
    };
    let scenario = match scenario {
        Err(fault) if syntax => return Err(vec![fault]),
        Err(fault) => {
            // serde stopped at a wrong value; the rest must still be JSON
            // before anything else is looked at.
            if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
                let syntax = at(&e, describe_json_error(&e, ""));
                return Err(vec![fault, syntax]);
            }
            return Ok((text, Err((fault, duplicate_field))));
        }
        Ok(scenario) => scenario,
    };
    de.end().map_err(|e| {
        vec![at(
            &e,
            "unexpected data after the scenario object; expected the end of the file".into(),
        )]
    })?;
    Ok((text, Ok(scenario)))
}

/// serde's error for the JSON that starts at byte `start` of `text` at the
/// JSON path `prefix` (0 and "" for the whole file), as an author reads
/// it: the place in the file (line:column, then the path) and what was
/// expected. With serde's own error, to tell what kind it is.
pub(super) fn value_fault(
    file: &str,
    text: &str,
    start: usize,
    prefix: &str,
    e: serde_path_to_error::Error<serde_json::Error>,
) -> (ScenarioError, serde_json::Error) {
    let path = join_path(prefix, &json_path(e.path()));
    let inner = e.into_inner();
    let mut place = match inner.line() {
        0 => String::new(),
        line => {
            let (line, column) = in_file(text, start, line, inner.column());
            let (line, column) = char_column(text, line, column);
            format!("{line}:{column}")
        }
    };
    if !path.is_empty() {
        if !place.is_empty() {
            place.push(' ');
        }
        place.push_str("at ");
        place.push_str(&path);
    }
    let fault = ScenarioError {
        file: file.to_string(),
        place: (!place.is_empty()).then_some(place),
        message: describe_json_error(&inner, &path),
    };
    (fault, inner)
}

/// serde's "duplicate field", which the scan of keys says better.
pub(super) fn is_duplicate_field(e: &serde_json::Error) -> bool {
    e.to_string().starts_with("duplicate field")
}

/// serde_json's line and byte column within the part of `text` that starts
/// at byte `start`, as a line and byte column of the whole text.
fn in_file(text: &str, start: usize, line: usize, column: usize) -> (usize, usize) {
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
fn join_path(prefix: &str, inner: &str) -> String {
    if prefix.is_empty() || inner.is_empty() || inner.starts_with('[') {
        format!("{prefix}{inner}")
    } else {
        format!("{prefix}.{inner}")
    }
}

/// The bytes as the text of a JSON object, or why they are not one.
fn read_text<'t>(file: &str, bytes: &'t [u8]) -> Result<&'t str, ScenarioError> {
    let error = |place: String, message: String| ScenarioError {
        file: file.to_string(),
        place: Some(place),
        message,
    };
    // Editors on Windows like to start UTF-8 files with a byte-order mark.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return Err(error(
            "1:1".into(),
            "the file is UTF-16; expected UTF-8 (save it as UTF-8)".into(),
        ));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let (line, column) = line_column(&String::from_utf8_lossy(&bytes[..at]), at);
        error(
            format!("{line}:{column}"),
            format!(
                "invalid UTF-8 (byte 0x{:02X}); expected a UTF-8 text file",
                bytes[at]
            ),
        )
    })?;
    let Some((offset, first)) = text.char_indices().find(|(_, c)| !c.is_whitespace()) else {
        return Err(error(
            "1:1".into(),
            "the file is empty; expected a scenario, a JSON object { ... }".into(),
        ));
    };
    if first != '{' {
        let rest = &text[offset..];
        let literal = |word: &str| {
            rest.strip_prefix(word)
                .is_some_and(|after| !after.starts_with(|c: char| c.is_alphanumeric()))
        };
        let found = match first {
            '[' => "a list [ ... ]",
            '"' => "a string",
            '-' | '0'..='9' => "a number",
            _ if literal("null") => "null",
            _ if literal("true") || literal("false") => "a boolean (true or false)",
            _ => "text that is not JSON",
        };
        let (line, column) = line_column(text, offset);
        return Err(error(
            format!("{line}:{column}"),
            format!("expected a scenario, a JSON object {{ ... }}, but the file holds {found}"),
        ));
    }
    Ok(text)
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

/// A value from the file, JSON-quoted and cut short for an error message.
pub(super) fn quoted(s: &str) -> String {
    let short: String = s.chars().take(MAX_QUOTED_CHARS).collect();
    let json = serde_json::to_string(&short).unwrap_or_default();
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
        Category::Data if path == "budget" => describe_data_error(text).replacen(
            &expected_words("u32"),
            super::checks::BUDGET_RANGE,
            1,
        ),
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
        "u32" => "a whole number (0 or more)".into(),
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
