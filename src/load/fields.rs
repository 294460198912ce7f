//! Every wrong value of a file, not only the first. serde stops reading a
//! `Scenario` at the first value of the wrong type, unknown field or
//! unknown name; when it has, this reads each top-level field on its own,
//! and each item of a list field and each entry of a map field on its own,
//! so that errors in `tools[0]`, `model[3]` and an unknown top-level key are
//! all reported. Within one item the first error is the one reported.
//!
//! Each part is read from its own text in the file, so an error has the
//! line:column, path and words serde would give it in the whole file: a
//! file with one wrong value reads exactly as before. A valid file never
//! comes here (`errors::parse_all` calls it only after serde refused).

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{DeserializeOwned, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;

use crate::scenario::Scenario;

use super::fault::{ScenarioError, value_fault};
use super::wording::{
    describe_json_error, did_you_mean, is_duplicate_field, key_path, line_column,
};

/// Each wrong value of `text` (valid JSON, an object, which serde refused
/// as a `Scenario`), in file order, and whether it is serde's "duplicate
/// field" (which the scan of keys says better).
pub(super) fn value_errors(file: &str, text: &str) -> Vec<(ScenarioError, bool)> {
    let Ok(Members(members)) = serde_json::from_str::<Members>(text) else {
        return Vec::new();
    };
    let fields = fields();
    let mut found = Vec::new();
    let refused = |start: usize, path: &str, e| {
        let (fault, inner) = value_fault(file, text, start, path, e);
        (fault, is_duplicate_field(&inner))
    };
    for (key, value) in &members {
        let Some(field) = fields.iter().find(|f| f.name == key) else {
            found.push((unknown_field(file, text, key, value), false));
            continue;
        };
        let parts = match field.shape {
            Shape::Whole => Ok(vec![(key.clone(), *value)]),
            Shape::Items => read::<Vec<&RawValue>>(value.get()).map(|items| {
                let items = items.into_iter().enumerate();
                items
                    .map(|(i, item)| (format!("{key}[{i}]"), item))
                    .collect()
            }),
            Shape::Entries => read::<Members>(value.get()).map(|Members(entries)| {
                let entries = entries.into_iter();
                entries.map(|(k, v)| (key_path(key, &k), v)).collect()
            }),
        };
        match parts {
            Ok(parts) => {
                for (path, part) in parts {
                    if let Err(e) = (field.read)(part.get()) {
                        found.push(refused(start(text, part.get()), &path, e));
                    }
                }
            }
            // Not a list (or not an object) at all: serde's error for it.
            Err(e) => found.push(refused(start(text, value.get()), key, e)),
        }
    }
    // Required fields not written, in one line at serde's place for them:
    // the closing brace. One alone is said as serde says it. A field that
    // an unknown key is a misspelling of ("did you mean ...?") is not
    // missing again.
    let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
    let misspelt: Vec<&str> = members
        .iter()
        .filter(|(key, _)| !names.contains(&key.as_str()))
        .filter_map(|(key, _)| did_you_mean(key, &names))
        .collect();
    let missing: Vec<&str> = fields
        .iter()
        .filter(|f| f.required && !members.iter().any(|(key, _)| key == f.name))
        .map(|f| f.name)
        .filter(|name| !misspelt.contains(name))
        .collect();
    let message = match missing[..] {
        [] => None,
        [one] => {
            let e = <serde_json::Error as serde::de::Error>::missing_field(one);
            Some(describe_json_error(&e, ""))
        }
        [ref first @ .., last] => Some(format!(
            "missing fields {} and \"{last}\", which are required",
            first
                .iter()
                .map(|name| format!("\"{name}\""))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    };
    if let Some(message) = message {
        let (line, column) = line_column(text, text.rfind('}').unwrap_or(0));
        let place = Some(format!("{line}:{column}"));
        let file = file.to_string();
        found.push((
            ScenarioError {
                file,
                place,
                message,
            },
            false,
        ));
    }
    found
}

/// A top-level key `Scenario` does not have: serde's own words for it, at
/// serde's place, the key's closing quote.
fn unknown_field(file: &str, text: &str, key: &str, value: &RawValue) -> ScenarioError {
    let alone = format!("{{{}: 0}}", serde_json::Value::from(key));
    let e = serde_json::from_str::<Scenario>(&alone)
        .err()
        .unwrap_or_else(|| serde::de::Error::custom(format!("unknown field `{key}`")));
    let before_value = text[..start(text, value.get())].trim_end();
    let quote = before_value
        .strip_suffix(':')
        .map_or(before_value, str::trim_end)
        .rfind('"')
        .unwrap_or(0);
    let (line, column) = line_column(text, quote);
    let path = key_path("", key);
    ScenarioError {
        file: file.to_string(),
        place: Some(format!("{line}:{column} at {path}")),
        message: describe_json_error(&e, &path),
    }
}

/// Where `part`, a slice of `text`, starts in it.
fn start(text: &str, part: &str) -> usize {
    let start = (part.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    debug_assert!(start + part.len() <= text.len(), "a part of the text");
    start.min(text.len())
}

/// serde's error, with the path inside the part read.
type ReadError = serde_path_to_error::Error<serde_json::Error>;

fn read<'t, T: Deserialize<'t>>(json: &'t str) -> Result<T, ReadError> {
    serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(json))
}

/// A top-level field of `Scenario` and how to read it on its own.
struct Field {
    name: &'static str,
    /// Without `#[serde(default)]`: a file must write it.
    required: bool,
    shape: Shape,
    /// Reads the whole value, one item or one entry, as `shape` says.
    read: fn(&str) -> Result<(), ReadError>,
}

enum Shape {
    Whole,
    /// A list: each item read on its own.
    Items,
    /// An object of names to values: each value read on its own.
    Entries,
}

/// The fields of `Scenario` in the order it declares them, each read as
/// the type it has there (the accessor ties the two). The tests below fail
/// when a field is added, renamed, reordered or made optional and this
/// list does not follow.
fn fields() -> [Field; 27] {
    const REQUIRED: bool = true;
    const OPTIONAL: bool = false;
    [
        whole("name", REQUIRED, |s| &s.name),
        whole("title", REQUIRED, |s| &s.title),
        whole("task", REQUIRED, |s| &s.task),
        items("conditions", OPTIONAL, |s| &s.conditions),
        whole("about", REQUIRED, |s| &s.about),
        entries("files", OPTIONAL, |s| &s.files),
        items("tools", REQUIRED, |s| &s.tools),
        whole("budget", REQUIRED, |s| &s.budget),
        whole("harness", OPTIONAL, |s| &s.harness),
        whole("host", OPTIONAL, |s| &s.host),
        whole("verify", OPTIONAL, |s| &s.verify),
        items("model", REQUIRED, |s| &s.model),
        whole("expect", REQUIRED, |s| &s.expect),
        entries("narration", OPTIONAL, |s| &s.narration),
        items("quiz", OPTIONAL, |s| &s.quiz),
        items("quiz_steps", OPTIONAL, |s| &s.quiz_steps),
        whole("twin", OPTIONAL, |s| &s.twin),
        whole("ids", OPTIONAL, |s| &s.ids),
        whole("context", OPTIONAL, |s| &s.context),
        whole("system", OPTIONAL, |s| &s.system),
        whole("provider", OPTIONAL, |s| &s.provider),
        whole("tool_choice", OPTIONAL, |s| &s.tool_choice),
        whole("interrupt", OPTIONAL, |s| &s.interrupt),
        whole("stream", OPTIONAL, |s| &s.stream),
        items("provider_errors", OPTIONAL, |s| &s.provider_errors),
        whole("sub_agent", OPTIONAL, |s| &s.sub_agent),
        whole("mcp", OPTIONAL, |s| &s.mcp),
    ]
}

fn read_as<T: DeserializeOwned>(json: &str) -> Result<(), ReadError> {
    read::<T>(json).map(drop)
}

fn whole<T: DeserializeOwned>(name: &'static str, required: bool, _: fn(&Scenario) -> &T) -> Field {
    Field {
        name,
        required,
        shape: Shape::Whole,
        read: read_as::<T>,
    }
}

fn items<T: DeserializeOwned>(
    name: &'static str,
    required: bool,
    _: fn(&Scenario) -> &Vec<T>,
) -> Field {
    Field {
        name,
        required,
        shape: Shape::Items,
        read: read_as::<T>,
    }
}

fn entries<T: DeserializeOwned>(
    name: &'static str,
    required: bool,
    _: fn(&Scenario) -> &BTreeMap<String, T>,
) -> Field {
    Field {
        name,
        required,
        shape: Shape::Entries,
        read: read_as::<T>,
    }
}

/// The members of a JSON object in file order, each value as written.
struct Members<'t>(Vec<(String, &'t RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct Each;
        impl<'de> Visitor<'de> for Each {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }
        de.deserialize_map(Each)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::errors::parse_all;
    use crate::load::wording::backticked;

    /// serde's names for the fields of `Scenario`, from its own message.
    fn serde_names() -> Vec<String> {
        let e = serde_json::from_str::<Scenario>(r#"{"?": 0}"#).unwrap_err();
        let text = e.to_string();
        backticked(text.split_once("expected").unwrap().1)
            .into_iter()
            .map(String::from)
            .collect()
    }

    #[test]
    fn every_field_of_scenario_is_listed_in_its_order() {
        let listed: Vec<&str> = fields().iter().map(|f| f.name).collect();
        assert_eq!(listed, serde_names());
    }

    #[test]
    fn the_required_fields_are_the_ones_serde_requires() {
        let (_, source) = crate::load::CATALOG[0];
        let full: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(source).unwrap();
        for field in fields() {
            let mut without = full.clone();
            without.shift_remove(field.name);
            let read = serde_json::from_value::<Scenario>(without.into());
            let missing = format!("missing field `{}`", field.name);
            match read {
                Ok(_) => assert!(!field.required, "{} is required", field.name),
                Err(e) => {
                    assert!(field.required, "{} is optional: {e}", field.name);
                    assert_eq!(e.to_string(), missing);
                }
            }
        }
    }

    /// Every refused file of the corpus whose only fault is a wrong value
    /// (one each) reads field by field to the same fault as a whole.
    #[test]
    fn one_wrong_value_reads_as_serde_says_it() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad-scenarios");
        let mut compared = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            // Only what `parse_all` gives to `value_errors`: a JSON object.
            let Ok(text) = std::str::from_utf8(&bytes) else {
                continue;
            };
            let json = serde_json::from_str::<serde::de::IgnoredAny>(text);
            if !text.starts_with('{') || json.is_err() {
                continue;
            }
            let whole = serde_path_to_error::deserialize::<_, Scenario>(
                &mut serde_json::Deserializer::from_str(text),
            );
            let Err(e) = whole else { continue };
            if !e.inner().is_data() || is_duplicate_field(e.inner()) {
                continue;
            }
            let (fault, _) = value_fault("f", text, 0, "", e);
            let each: Vec<ScenarioError> = value_errors("f", text)
                .into_iter()
                .map(|(f, _)| f)
                .collect();
            assert_eq!(each, [fault], "{}", path.display());
            assert_eq!(parse_all("f", &bytes).faults, each, "{}", path.display());
            compared += 1;
        }
        assert!(compared >= 8, "{compared} files compared");
    }

    /// Every JSON pointer of `value`, parents before children.
    fn pointers(value: &serde_json::Value, at: String, out: &mut Vec<String>) {
        use serde_json::Value;
        let escape = |k: &str| k.replace('~', "~0").replace('/', "~1");
        match value {
            Value::Object(m) => {
                for (k, v) in m {
                    pointers(v, format!("{at}/{}", escape(k)), out);
                }
            }
            Value::Array(a) => {
                for (i, v) in a.iter().enumerate() {
                    pointers(v, format!("{at}/{i}"), out);
                }
            }
            _ => {}
        }
        out.push(at);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 256, ..Default::default()
        })]

        /// Shipped scenarios with wrong values put in: the first fault read
        /// field by field is the one serde gives for the whole file, with
        /// the same place and words, and every one has a line:column.
        #[test]
        fn the_first_wrong_value_is_serdes_own(
            scenario in 0..crate::load::CATALOG.len(),
            edits in proptest::collection::vec((0..usize::MAX, 0..6usize), 1..4),
        ) {
            use serde_json::json;
            let mut value: serde_json::Value =
                serde_json::from_str(crate::load::CATALOG[scenario].1).unwrap();
            for (at, with) in edits {
                let mut all = Vec::new();
                pointers(&value, String::new(), &mut all);
                let pointer = &all[at % all.len()];
                let new = [json!("3"), json!(-1), json!([]), json!({"zh": "x"}), json!(null),
                    json!({"x": 1})][with].clone();
                *value.pointer_mut(pointer).unwrap() = new;
            }
            // A file that is not an object is refused before (`read_text`).
            proptest::prop_assume!(value.is_object());
            let text = serde_json::to_string_pretty(&value).unwrap();
            let whole = serde_path_to_error::deserialize::<_, Scenario>(
                &mut serde_json::Deserializer::from_str(&text),
            );
            if let Err(e) = whole {
                let (fault, _) = value_fault("f", &text, 0, "", e);
                let each = value_errors("f", &text);
                proptest::prop_assert_eq!(&each[0].0, &fault);
                for (fault, _) in &each {
                    let place = fault.place.as_deref().unwrap_or_default();
                    proptest::prop_assert!(place.starts_with(|c: char| c.is_ascii_digit()), "{}", place);
                }
            }
        }
    }
}
