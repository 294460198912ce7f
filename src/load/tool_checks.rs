//! Checks of what a scenario says about custom tools, policies, approvals
//! and arguments written as JSON text: what JSON types cannot express.
//! Each returns the JSON path and what was expected.

use serde_json::Value;

use crate::engine::{BuiltinTool, SCHEMA_TYPES};
use crate::scenario::{ApprovalDecision, Lang, Policy, Scenario, ToolDef};

use super::wording::quoted;

type Problem = Option<(String, String)>;

/// Every tool's custom fields, then the verify tool, then every call's
/// `arguments`: each tool's first fault, and each call's.
pub(super) fn check_custom_tools(s: &Scenario) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = s
        .tools
        .iter()
        .enumerate()
        .filter_map(|(i, tool)| check_tool(tool, i))
        .collect();
    if let Some(v) = &s.verify
        && s.tools
            .iter()
            .any(|t| t.name == v.tool && t.policy != Policy::Allow)
    {
        found.push((
            "verify.tool".into(),
            "the host runs its verification itself, without asking; expected a tool whose \
             \"policy\" is allow"
                .into(),
        ));
    }
    for (i, rule) in s.model.iter().enumerate() {
        for (j, call) in rule.calls.iter().enumerate() {
            if call.arguments.is_some() && !call.args.is_empty() {
                found.push((
                    format!("model[{i}].calls[{j}].arguments"),
                    "expected either \"args\" (name → string) or \"arguments\" (the JSON text \
                     as the model wrote it), not both"
                        .into(),
                ));
            }
        }
    }
    found
}

/// The first fault of tool `i`'s custom fields, if any.
fn check_tool(tool: &ToolDef, i: usize) -> Problem {
    let at = |field: &str| format!("tools[{i}].{field}");
    let custom = !tool.results.is_empty();
    if custom && BuiltinTool::parse(&tool.name).is_some() {
        return Some((
            at("results"),
            format!(
                "{} is a built-in tool, which the host runs itself; expected no \"results\" \
             (give a custom tool another name)",
                quoted(&tool.name)
            ),
        ));
    }
    if let Some(schema) = &tool.parameters {
        if !custom {
            return Some((
                at("parameters"),
                "only a custom tool (one with \"results\") has a JSON schema; expected \
             \"params\" for a built-in"
                    .into(),
            ));
        }
        if !tool.params.is_empty() {
            return Some((
                at("params"),
                "expected either \"params\" or \"parameters\", not both".into(),
            ));
        }
        if let Some(problem) = check_schema(schema, &at("parameters")) {
            return Some(problem);
        }
    }
    let declared = crate::engine::call_params(tool);
    if custom && let Some(problem) = check_results(tool, &declared, &at("results")) {
        return Some(problem);
    }
    if let Some(problem) = check_policy(tool, &declared, i) {
        return Some(problem);
    }
    None
}

/// A JSON schema as the APIs take it for a tool's parameters: an object
/// with typed properties and the names of the required ones.
fn check_schema(schema: &Value, at: &str) -> Problem {
    let bad = |place: String, message: &str| Some((place, message.to_string()));
    let Some(object) = schema.as_object() else {
        return bad(
            at.into(),
            "expected a JSON schema object {\"type\": \"object\", \"properties\": { ... }}",
        );
    };
    for key in object.keys() {
        if !["type", "properties", "required", "additionalProperties"].contains(&key.as_str()) {
            return Some((
                format!("{at}.{key}"),
                format!(
                    "unknown schema field {}; expected type, properties, required, additionalProperties",
                    quoted(key)
                ),
            ));
        }
    }
    if object.get("type").and_then(Value::as_str) != Some("object") {
        return bad(
            format!("{at}.type"),
            "expected \"object\": a tool's arguments are a JSON object",
        );
    }
    let Some(properties) = object.get("properties").and_then(Value::as_object) else {
        return bad(
            format!("{at}.properties"),
            "expected an object: argument name → {\"type\": ...}",
        );
    };
    for (name, property) in properties {
        let place = format!("{at}.properties.{name}");
        let Some(p) = property.as_object() else {
            return bad(
                place,
                "expected an object {\"type\": \"string\", \"description\": \"...\"}",
            );
        };
        if let Some(key) = p
            .keys()
            .find(|k| !["type", "description"].contains(&k.as_str()))
        {
            return Some((
                format!("{place}.{key}"),
                format!("unknown field {}; expected type, description", quoted(key)),
            ));
        }
        if !p
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| SCHEMA_TYPES.contains(&t))
        {
            return Some((
                format!("{place}.type"),
                format!("expected one of: {}", SCHEMA_TYPES.join(", ")),
            ));
        }
        if let Some(d) = p.get("description")
            && let Some(problem) = check_description(d, &format!("{place}.description"))
        {
            return Some(problem);
        }
    }
    if let Some(required) = object.get("required") {
        let Some(names) = required.as_array() else {
            return bad(
                format!("{at}.required"),
                "expected a list of argument names",
            );
        };
        for (k, name) in names.iter().enumerate() {
            if !name.as_str().is_some_and(|n| properties.contains_key(n)) {
                return bad(
                    format!("{at}.required[{k}]"),
                    "expected the name of one of \"properties\"",
                );
            }
        }
    }
    if object
        .get("additionalProperties")
        .is_some_and(|a| !a.is_boolean())
    {
        return bad(
            format!("{at}.additionalProperties"),
            "expected true or false",
        );
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

fn check_results(tool: &ToolDef, declared: &[String], at: &str) -> Problem {
    let last = tool.results.len() - 1;
    for (k, result) in tool.results.iter().enumerate() {
        let place = format!("{at}[{k}]");
        if let Some(name) = result.args.keys().find(|a| !declared.contains(a)) {
            return Some((
                format!("{place}.args"),
                format!(
                    "{} is not an argument of {}; expected one of its parameters",
                    quoted(name),
                    tool.name
                ),
            ));
        }
        if let Some(w) = &result.writes {
            if !tool.side_effects {
                return Some((
                    format!("{place}.writes"),
                    "only a tool with \"side_effects\": true writes; expected no \"writes\" here"
                        .into(),
                ));
            }
            if !crate::engine::inside_workspace(&w.path) {
                return Some((
                    format!("{place}.writes.path"),
                    "expected a relative path inside the workspace (no leading '/', no '..')"
                        .into(),
                ));
            }
        }
        for (r, path) in result.reads.iter().enumerate() {
            if !crate::engine::inside_workspace(path) {
                return Some((
                    format!("{place}.reads[{r}]"),
                    "expected a relative path inside the workspace (no leading '/', no '..')"
                        .into(),
                ));
            }
        }
        for (c, check) in result.files.iter().enumerate() {
            if check.contains.is_some() == check.line.is_some() {
                return Some((
                    format!("{place}.files[{c}]"),
                    "expected exactly one of \"contains\" or \"line\"".into(),
                ));
            }
        }
        if k == last && (!result.args.is_empty() || !result.files.is_empty()) {
            return Some((
                place,
                "the last result is the default: expected it without \"args\" and \"files\", \
                 so every call gets an answer"
                    .into(),
            ));
        }
    }
    None
}

fn check_policy(tool: &ToolDef, declared: &[String], i: usize) -> Problem {
    let at = format!("tools[{i}].approvals");
    if tool.policy != Policy::Ask {
        return (!tool.approvals.is_empty()).then(|| {
            (
                at,
                "only a tool whose \"policy\" is ask has approvals; expected none here".into(),
            )
        });
    }
    let Some(last) = tool.approvals.last() else {
        return Some((
            at,
            "a tool whose \"policy\" is ask needs the user's answers: expected a list such as \
             [{\"decision\": \"approve\"}]"
                .into(),
        ));
    };
    if !last.args.is_empty() {
        return Some((
            format!("{at}[{}]", tool.approvals.len() - 1),
            "the last approval is the default: expected it without \"args\"".into(),
        ));
    }
    for (k, approval) in tool.approvals.iter().enumerate() {
        let place = format!("{at}[{k}]");
        let unknown = approval
            .args
            .keys()
            .chain(approval.edit.keys())
            .find(|a| !declared.contains(a));
        if let Some(name) = unknown {
            return Some((
                place,
                format!(
                    "{} is not an argument of {}; expected one of its parameters",
                    quoted(name),
                    tool.name
                ),
            ));
        }
        match approval.decision {
            ApprovalDecision::Edit if approval.edit.is_empty() => {
                return Some((
                    format!("{place}.edit"),
                    "an edit changes some arguments: expected {\"name\": \"value\"}".into(),
                ));
            }
            ApprovalDecision::Approve | ApprovalDecision::Deny if !approval.edit.is_empty() => {
                return Some((
                    format!("{place}.edit"),
                    "only \"decision\": \"edit\" changes arguments; expected no \"edit\" here"
                        .into(),
                ));
            }
            _ => {}
        }
    }
    None
}
