//! JSON to `Scenario`, and serde's errors reworded for an author: the
//! line, column and JSON path, no Rust type names, and what was expected.

use crate::scenario::Scenario;

use super::fault::{ScenarioError, value_fault};
use super::fields::value_errors;
use super::keys::{Keys, scan};
use super::wording::{char_column, describe_json_error, is_duplicate_field, line_column, quoted};

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

/// What reading the JSON gave: the scenario if serde could build it (as
/// written, and as drawn: `screen`), every fault found (a syntax error
/// stops at the first; wrong values, one per field or list item, and keys
/// written twice are all reported), and where each key is written.
pub(super) struct Parsed {
    pub scenario: Option<Scenario>,
    /// The scenario with its texts as drawn (`screen::read`); None when
    /// they are as written.
    pub screen: Option<Scenario>,
    pub faults: Vec<ScenarioError>,
    pub keys: Keys,
}

pub(super) fn parse_all(file: &str, bytes: &[u8]) -> Parsed {
    let refused = |faults: Vec<ScenarioError>| Parsed {
        scenario: None,
        screen: None,
        faults,
        keys: Keys::default(),
    };
    match read_json(file, bytes) {
        Ok((text, scenario)) => {
            let keys = scan(text);
            let mut faults = duplicates(file, &keys);
            let scenario = match scenario {
                Ok(scenario) => match super::screen::read(text) {
                    Ok(screen) => Some((scenario, screen)),
                    // Not expected: the same JSON, with only its texts
                    // changed, read as the same types.
                    Err(e) => {
                        faults.push(ScenarioError {
                            file: file.to_string(),
                            place: None,
                            message: format!("the scenario as drawn could not be read: {e}"),
                        });
                        None
                    }
                },
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
            let (scenario, screen) = match scenario {
                Some((scenario, screen)) => (Some(scenario), screen),
                None => (None, None),
            };
            Parsed {
                scenario,
                screen,
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
