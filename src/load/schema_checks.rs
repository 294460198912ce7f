//! Checks of a custom tool's JSON schema (types, `enum`, `items`, nested
//! objects), of `strict` tools and the calls a scripted model makes of
//! them, and of the host's `tool_choice`: what JSON types cannot express.
//! Each returns the JSON path and what was expected.

use serde_json::Value;

use crate::engine::SCHEMA_TYPES;
use crate::scenario::{Lang, Scenario, ToolChoice};

use super::wording::quoted;

type Problem = Option<(String, String)>;

/// A JSON schema as the APIs take it for a tool's parameters: an object
/// with typed properties and the names of the required ones.
pub(super) fn check_schema(schema: &Value, at: &str) -> Problem {
    let Some(object) = schema.as_object() else {
        return Some((
            at.into(),
            "expected a JSON schema object {\"type\": \"object\", \"properties\": { ... }}".into(),
        ));
    };
    if let Some(key) = object
        .keys()
        .find(|k| !["type", "properties", "required", "additionalProperties"].contains(&k.as_str()))
    {
        return Some((
            format!("{at}.{key}"),
            format!(
                "unknown schema field {}; expected type, properties, required, additionalProperties",
                quoted(key)
            ),
        ));
    }
    if object.get("type").and_then(Value::as_str) != Some("object") {
        return Some((
            format!("{at}.type"),
            "expected \"object\": a tool's arguments are a JSON object".into(),
        ));
    }
    check_members(object, at)
}

/// An object schema's `properties`, `required` and `additionalProperties`.
fn check_members(object: &serde_json::Map<String, Value>, at: &str) -> Problem {
    let Some(properties) = object.get("properties").and_then(Value::as_object) else {
        return Some((
            format!("{at}.properties"),
            "expected an object: argument name → {\"type\": ...}".into(),
        ));
    };
    for (name, property) in properties {
        if let Some(problem) = check_property(property, &format!("{at}.properties.{name}")) {
            return Some(problem);
        }
    }
    if let Some(required) = object.get("required") {
        let Some(names) = required.as_array() else {
            return Some((
                format!("{at}.required"),
                "expected a list of argument names".into(),
            ));
        };
        for (k, name) in names.iter().enumerate() {
            if !name.as_str().is_some_and(|n| properties.contains_key(n)) {
                return Some((
                    format!("{at}.required[{k}]"),
                    "expected the name of one of \"properties\"".into(),
                ));
            }
        }
    }
    if object
        .get("additionalProperties")
        .is_some_and(|a| !a.is_boolean())
    {
        return Some((
            format!("{at}.additionalProperties"),
            "expected true or false".into(),
        ));
    }
    None
}

/// One property's schema: its `type`, and what that type may carry: an
/// `enum` of values of that type, an array's `items` (required: OpenAI
/// refuses a function whose array schema has none, "array schema missing
/// items"), an object's own members.
fn check_property(property: &Value, place: &str) -> Problem {
    const FIELDS: [&str; 7] = [
        "type",
        "description",
        "enum",
        "items",
        "properties",
        "required",
        "additionalProperties",
    ];
    let Some(p) = property.as_object() else {
        return Some((
            place.into(),
            "expected an object {\"type\": \"string\", \"description\": \"...\"}".into(),
        ));
    };
    if let Some(key) = p.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Some((
            format!("{place}.{key}"),
            format!(
                "unknown field {}; expected one of: {}",
                quoted(key),
                FIELDS.join(", ")
            ),
        ));
    }
    let Some(kind) = p
        .get("type")
        .and_then(Value::as_str)
        .filter(|t| SCHEMA_TYPES.contains(t))
    else {
        return Some((
            format!("{place}.type"),
            format!("expected one of: {}", SCHEMA_TYPES.join(", ")),
        ));
    };
    if let Some(d) = p.get("description")
        && let Some(problem) = check_description(d, &format!("{place}.description"))
    {
        return Some(problem);
    }
    if let Some(problem) = check_enum(p.get("enum"), kind, place) {
        return Some(problem);
    }
    let object_fields = ["properties", "required", "additionalProperties"];
    match kind {
        "array" => match p.get("items") {
            Some(items) => return check_property(items, &format!("{place}.items")),
            None => {
                return Some((
                    place.into(),
                    "an array needs \"items\", the schema of each element, such as {\"type\": \
                     \"string\"} (OpenAI refuses a function whose array schema has none: \"array \
                     schema missing items\")"
                        .into(),
                ));
            }
        },
        "object" if p.contains_key("properties") => return check_members(p, place),
        _ => {}
    }
    let misplaced = object_fields
        .iter()
        .chain(&["items"])
        .find(|f| p.contains_key(**f));
    if let Some(field) = misplaced {
        let owner = if *field == "items" {
            "an array"
        } else {
            "an object with \"properties\""
        };
        return Some((
            format!("{place}.{field}"),
            format!(
                "only {owner} has {}; this property's type is {kind}",
                quoted(field)
            ),
        ));
    }
    None
}

/// An `enum`: a list of distinct values, each of the property's type.
fn check_enum(values: Option<&Value>, kind: &str, place: &str) -> Problem {
    let values = values?;
    let at = format!("{place}.enum");
    let Some(list) = values.as_array().filter(|l| !l.is_empty()) else {
        return Some((
            at,
            format!("expected a list of the allowed values, each a {kind}"),
        ));
    };
    for (k, v) in list.iter().enumerate() {
        if !crate::engine::of_type(v, kind) {
            return Some((
                format!("{at}[{k}]"),
                format!("expected a {kind}, as the property's type says"),
            ));
        }
        if list[..k].contains(v) {
            return Some((
                format!("{at}[{k}]"),
                format!("{v} is listed twice; expected each value once"),
            ));
        }
    }
    None
}
/// A schema's description: a string (sent as written in every language)
/// or a text in each language, `{"zh": "…", "en": "…"}`, of which the
/// request in one language carries that language's.
fn check_description(d: &Value, at: &str) -> Problem {
    let expected = "expected a string, or {\"zh\": \"…\", \"en\": \"…\"} (one in each language)";
    match d {
        Value::String(_) => None,
        Value::Object(texts) => {
            if let Some(key) = texts.keys().find(|k| Lang::parse(k).is_none()) {
                return Some((
                    format!("{at}.{key}"),
                    format!("unknown language {}; {expected}", quoted(key)),
                ));
            }
            for lang in Lang::ALL {
                match texts.get(lang.code()) {
                    Some(Value::String(t)) if !t.trim().is_empty() => {}
                    Some(Value::String(_)) => {
                        return Some((
                            format!("{at}.{}", lang.code()),
                            "expected a non-empty text".into(),
                        ));
                    }
                    Some(_) => {
                        return Some((format!("{at}.{}", lang.code()), "expected a string".into()));
                    }
                    None => {
                        return Some((at.into(), format!("missing {}; {expected}", lang.code())));
                    }
                }
            }
            None
        }
        _ => Some((at.into(), expected.into())),
    }
}

/// Every `strict` tool's schema and every call the scripted model makes of
/// one; then `tool_choice`. Each fault with its place.
pub(super) fn check_strict_and_choice(s: &Scenario) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (i, tool) in s.tools.iter().enumerate() {
        if !tool.strict {
            continue;
        }
        let at = format!("tools[{i}]");
        match &tool.parameters {
            None => found.push((
                format!("{at}.strict"),
                "only a tool with a JSON schema (\"parameters\") can be strict: the provider \
                 holds the model's arguments to that schema"
                    .into(),
            )),
            Some(schema) => found.extend(closed(schema, &format!("{at}.parameters"))),
        }
    }
    for (i, rule) in s.model.iter().enumerate() {
        for (j, call) in rule.calls.iter().enumerate() {
            let Some(schema) = s
                .tools
                .iter()
                .find(|t| t.name == call.tool && t.strict)
                .and_then(|t| t.parameters.as_ref())
            else {
                continue;
            };
            if let Some(why) = unfit(call, schema) {
                found.push((
                    format!("model[{i}].calls[{j}]"),
                    format!(
                        "{} is strict, so the provider lets the model write only arguments that \
                         fit its schema, and these do not ({why}); expected arguments that fit, \
                         or \"strict\": false to show the host's own check",
                        quoted(&call.tool)
                    ),
                ));
            }
        }
    }
    found.extend(check_tool_choice(s));
    found
}

/// A strict schema as OpenAI requires it (Anthropic's strict tool use
/// takes it too): every object closed (`additionalProperties: false`)
/// and every one of its properties in `required`, at any depth.
fn closed(schema: &Value, at: &str) -> Option<(String, String)> {
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        if schema.get("additionalProperties") != Some(&Value::Bool(false)) {
            return Some((
                format!("{at}.additionalProperties"),
                "a strict schema closes every object: expected \"additionalProperties\": false"
                    .into(),
            ));
        }
        let required = schema.get("required").and_then(Value::as_array);
        let listed = |name: &str| required.is_some_and(|r| r.iter().any(|v| v == name));
        if let Some(name) = properties.keys().find(|n| !listed(n)) {
            return Some((
                format!("{at}.required"),
                format!(
                    "a strict schema requires every property (OpenAI: an optional one is a \
                     type that allows null); expected {} in \"required\"",
                    quoted(name)
                ),
            ));
        }
        for (name, property) in properties {
            if let Some(problem) = closed(property, &format!("{at}.properties.{name}")) {
                return Some(problem);
            }
        }
    }
    schema
        .get("items")
        .and_then(|items| closed(items, &format!("{at}.items")))
}

/// Why a scripted call's arguments do not fit its tool's schema, in the
/// host's words; None when they fit.
fn unfit(call: &crate::scenario::CallSpec, schema: &Value) -> Option<String> {
    let values = match &call.arguments {
        Some(raw) => match crate::engine::parsed_object(raw) {
            Ok(values) => values,
            Err(why) => return Some(format!("not a JSON object: {why}")),
        },
        None => call.args.clone().into_iter().collect(),
    };
    let refusal = crate::engine::object_refusal(&values, schema, "")?;
    let said = crate::i18n::refusal_message(&refusal, &call.tool, Lang::En);
    Some(
        said.strip_prefix("refused by host: ")
            .unwrap_or(&said)
            .to_string(),
    )
}

/// `tool_choice`: one choice, or a non-empty list of them, each naming
/// only a tool the model is offered.
fn check_tool_choice(s: &Scenario) -> Vec<(String, String)> {
    let Some(value) = &s.tool_choice else {
        return Vec::new();
    };
    let list: Vec<(String, &Value)> = match value {
        Value::Array(list) if list.is_empty() => {
            return vec![(
                "tool_choice".into(),
                "expected a choice, or a list of them (the Nth for model call N, the last for \
                 every call after)"
                    .into(),
            )];
        }
        Value::Array(list) => list
            .iter()
            .enumerate()
            .map(|(k, v)| (format!("tool_choice[{k}]"), v))
            .collect(),
        one => vec![("tool_choice".into(), one)],
    };
    let mut found = Vec::new();
    for (at, v) in list {
        match ToolChoice::parse(v) {
            Err(why) => found.push((at, why)),
            Ok(ToolChoice::Tool(name)) if !s.tools.iter().any(|t| t.name == name && t.offered) => {
                found.push((
                    format!("{at}.tool"),
                    format!(
                        "{} is not a tool the model is offered; expected one of \"tools\"",
                        quoted(&name)
                    ),
                ));
            }
            Ok(_) => {}
        }
    }
    found
}
