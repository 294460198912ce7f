//! The host's decision on a proposed call beyond the built-in checks: a
//! tool's policy (allow, deny, ask the user), a custom tool's JSON schema,
//! arguments that are not JSON at all, and where an operation id comes
//! from. Kept apart from `host.rs` so the checks every scenario has stay
//! as they were.

use serde_json::Value;

use crate::scenario::{ApprovalDecision, OpIdSource, Policy, ToolDef};
use crate::trace::{
    CallId, Decision, Lane, Refusal, Said, StepKind, ToolCall, ToolResult, ToolSays, Verdict,
};

use super::host;
use super::run::Run;
use super::tools::arg;

/// The JSON types a schema's property may name.
pub const TYPES: [&str; 6] = ["string", "integer", "number", "boolean", "array", "object"];

impl<'a> Run<'a> {
    /// The host's verdict on a proposed call, in the order a host checks:
    /// offered, authorised, parseable, matching the schema (or the declared
    /// arguments), inside the workspace; then, for `ask`, the user's turn.
    pub(super) fn verdict(&self, index: usize) -> Verdict {
        self.verdict_of(&self.rec.trace.calls[index])
    }

    fn verdict_of(&self, call: &ToolCall) -> Verdict {
        let Some(def) = self.offered(&call.tool) else {
            return Verdict::Refused(Refusal::NotOffered);
        };
        if def.policy == Policy::Deny {
            return Verdict::Refused(Refusal::NotAuthorised);
        }
        let checked = match (&call.raw_args, &def.parameters) {
            (Some(raw), _) if parsed_object(raw).is_err() => {
                let why = parsed_object(raw).err().unwrap_or_default();
                Verdict::Refused(Refusal::InvalidJson(why))
            }
            (raw, Some(schema)) => schema_verdict(schema, call, raw.as_deref()),
            (_, None) => host::validate(&self.scenario.tools, call),
        };
        match checked {
            Verdict::Approved if def.policy == Policy::Ask => Verdict::AwaitsApproval,
            other => other,
        }
    }

    fn offered(&self, tool: &str) -> Option<&'a ToolDef> {
        let scenario = self.scenario;
        scenario.tools.iter().find(|t| t.name == tool && t.offered)
    }

    /// The host asks the user about a call; the scripted answer is a step
    /// that comes from the user. Returns whether the call may run. A
    /// denial's reason goes back to the model as the call's result.
    pub(super) fn ask_user(&mut self, index: usize) -> bool {
        let call = self.rec.trace.calls[index].clone();
        let Some(def) = self.offered(&call.tool) else {
            return false;
        };
        let approval = def
            .approvals
            .iter()
            .find(|a| args_match(&a.args, &call.args));
        let decision = match approval.map(|a| a.decision) {
            Some(ApprovalDecision::Approve) => Decision::Approved,
            Some(ApprovalDecision::Edit) => Decision::Edited(
                approval
                    .map(|a| a.edit.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                    .unwrap_or_default(),
            ),
            Some(ApprovalDecision::Deny) | None => {
                Decision::Denied(approval.and_then(|a| a.reason.clone()))
            }
        };
        let step = self.step(
            StepKind::UserDecides {
                call: call.id.clone(),
                decision: decision.clone(),
            },
            None,
            Lane::Host,
        );
        self.rec.trace.calls[index].decision = Some((step, decision.clone()));
        // The user's arguments pass the host's checks as the model's did:
        // an edit to ../etc/passwd, or "high" for an integer, is refused.
        if let Decision::Edited(_) = &decision
            && let Verdict::Refused(refusal) = self.verdict_of(&edited(&call, &decision))
        {
            let verdict = Verdict::Refused(refusal.clone());
            let checked = self.step(
                StepKind::Validates {
                    call: call.id.clone(),
                    verdict: verdict.clone(),
                },
                Some(Lane::Host),
                Lane::Host,
            );
            self.rec.trace.calls[index].verdict = Some((checked, verdict));
            let tool = call.tool.clone();
            // Saying that the user changed the arguments: the model reads
            // a refusal of values it never wrote.
            let refused = self.result(Said::Refusal { refusal, tool }, true);
            let result = self.note_edit(index, refused);
            self.attach(index, call.id, result, checked);
            return false;
        }
        if !matches!(decision, Decision::Denied(_)) {
            return true;
        }
        let reason = approval.and_then(|a| a.reason.clone());
        let result = self.result(Said::DeniedByUser { reason }, true);
        self.attach(index, call.id, result, step);
        false
    }

    /// A result of a call the user edited says so after the tool's words:
    /// the model asked for other arguments than the tool ran with.
    pub(super) fn note_edit(&self, index: usize, result: ToolResult) -> ToolResult {
        let call = &self.rec.trace.calls[index];
        let Some((_, Decision::Edited(edit))) = &call.decision else {
            return result;
        };
        let args =
            ToolCall::proposed(CallId("".into()), String::new(), edit.clone(), 0, 0).args_text();
        // `execute` always says a fact; its text is the fallback.
        let said = (result.said.clone())
            .unwrap_or_else(|| Said::Tool(ToolSays::Content(result.text.clone())));
        let said = Said::EditedByUser {
            args,
            said: Box::new(said),
        };
        ToolResult {
            replayed: result.replayed,
            ..self.result(said, result.is_error)
        }
    }

    /// The operation id of a call: its `op_id` argument, or, for a tool
    /// whose `op_id` is `derived`, one the host makes from the tool and its
    /// arguments (the same call always gets the same id).
    pub(super) fn op_id(&self, tool: &str, args: &[(String, String)]) -> Option<String> {
        let scenario = self.scenario;
        // The bug: the host keys nothing, so nothing is answered from a record.
        if scenario.harness.ignore_op_ids {
            return None;
        }
        let def = scenario.tools.iter().find(|t| t.name == tool);
        if def.is_some_and(|d| d.op_id == OpIdSource::Derived) {
            return Some(derived_op_id(tool, args));
        }
        arg(args, "op_id").map(str::to_string)
    }
}

/// The call as it would run after the user's edit: the arguments with the
/// user's values, and, where the model wrote JSON, that JSON with them (a
/// value the model wrote as a number is read as JSON again, so `5` stays
/// a number and `high` is a string the schema can refuse).
fn edited(call: &ToolCall, decision: &Decision) -> ToolCall {
    let mut out = call.clone();
    out.decision = Some((call.proposed, decision.clone()));
    out.args = out.run_args();
    let Decision::Edited(edit) = decision else {
        return out;
    };
    if let Some(Ok(mut object)) = call.raw_args.as_deref().map(parsed_object) {
        for (k, v) in edit {
            let typed = object.get(k).is_some_and(|original| !original.is_string());
            let value = match serde_json::from_str::<Value>(v) {
                Ok(parsed) if typed => parsed,
                _ => Value::String(v.clone()),
            };
            object.insert(k.clone(), value);
        }
        out.raw_args = Some(Value::Object(object).to_string());
    }
    out
}

/// `op-` and 8 hex digits of an FNV-1a hash of the tool and its arguments.
pub fn derived_op_id(tool: &str, args: &[(String, String)]) -> String {
    let mut hash: u32 = 0x811c_9dc5;
    let text = std::iter::once(tool.to_string())
        .chain(
            args.iter()
                .filter(|(k, _)| k != "op_id")
                .map(|(k, v)| format!("\u{1f}{k}\u{1e}{v}")),
        )
        .collect::<String>();
    for byte in text.bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    format!("op-{hash:08x}")
}

/// Do a call's arguments have every value `wanted` names?
pub(super) fn args_match(
    wanted: &std::collections::BTreeMap<String, String>,
    args: &[(String, String)],
) -> bool {
    wanted
        .iter()
        .all(|(k, v)| args.iter().any(|(ak, av)| ak == k && av == v))
}

/// The model's argument text as a JSON object, or the parser's words.
pub fn parsed_object(raw: &str) -> Result<serde_json::Map<String, Value>, String> {
    match serde_json::from_str::<Value>(raw) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(_) => Err("expected a JSON object { ... }".to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// A call's arguments as strings: strings as they are, other values as
/// their JSON text. Invalid JSON gives none (the host refuses it).
pub fn args_of_raw(raw: &str) -> Vec<(String, String)> {
    parsed_object(raw)
        .map(|o| {
            o.into_iter()
                .map(|(k, v)| match v {
                    Value::String(s) => (k, s),
                    other => (k, other.to_string()),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The arguments as the JSON text a model writes, compact, in this order.
pub fn json_text(args: &[(&String, &Value)]) -> String {
    let object: serde_json::Map<String, Value> = args
        .iter()
        .map(|(k, v)| ((*k).clone(), (*v).clone()))
        .collect();
    Value::Object(object).to_string()
}

/// The schema's checks: no argument it does not name, every required one
/// given, each of the type it says (with its `enum`, its `items` and its
/// nested properties); then the workspace rule for `path`.
fn schema_verdict(schema: &Value, call: &ToolCall, raw: Option<&str>) -> Verdict {
    let values: serde_json::Map<String, Value> = match raw.map(parsed_object) {
        Some(Ok(o)) => o,
        _ => call
            .args
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect(),
    };
    if let Some(refusal) = object_refusal(&values, schema, "") {
        return Verdict::Refused(refusal);
    }
    if let Some(path) = arg(&call.args, "path").filter(|p| !host::inside_workspace(p)) {
        return Verdict::Refused(Refusal::OutsideWorkspace(path.to_string()));
    }
    Verdict::Approved
}

/// Why an object's members do not fit the schema of an object, the first
/// reason found: an unknown member, a missing one, then each value in turn.
/// `at` is the object's place (`""` for the arguments, `evidence.`).
pub fn object_refusal(
    values: &serde_json::Map<String, Value>,
    schema: &Value,
    at: &str,
) -> Option<Refusal> {
    let properties = schema.get("properties").and_then(Value::as_object);
    // `additionalProperties: true` lets the model add arguments of its own.
    let open = schema.get("additionalProperties") == Some(&Value::Bool(true));
    if let Some(k) = values
        .keys()
        .find(|k| !open && properties.is_none_or(|p| !p.contains_key(*k)))
    {
        return Some(Refusal::UnknownArg(format!("{at}{k}")));
    }
    let required = schema.get("required").and_then(Value::as_array);
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        if !values.contains_key(name) {
            return Some(Refusal::MissingArg(format!("{at}{name}")));
        }
    }
    let string = serde_json::json!({ "type": "string" });
    values.iter().find_map(|(k, v)| {
        let property = properties.and_then(|p| p.get(k)).unwrap_or(&string);
        value_refusal(v, property, &format!("{at}{k}"))
    })
}

/// Why one value does not fit its schema: its type, its `enum`, each of
/// its `items`, or its own properties.
fn value_refusal(v: &Value, schema: &Value, at: &str) -> Option<Refusal> {
    let expected = schema
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("string");
    if !of_type(v, expected) {
        return Some(Refusal::WrongType {
            arg: at.to_string(),
            expected: expected.to_string(),
        });
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array)
        && !allowed.contains(v)
    {
        return Some(Refusal::NotAllowed {
            arg: at.to_string(),
            allowed: allowed.iter().map(enum_text).collect(),
        });
    }
    match v {
        Value::Array(list) => {
            let items = schema.get("items")?;
            list.iter()
                .enumerate()
                .find_map(|(i, item)| value_refusal(item, items, &format!("{at}[{i}]")))
        }
        Value::Object(members) if schema.get("properties").is_some() => {
            object_refusal(members, schema, &format!("{at}."))
        }
        _ => None,
    }
}

/// An `enum` value as a refusal names it: a string as it is, another value
/// as its JSON text.
fn enum_text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// Is `v` of the JSON schema type `kind`?
pub fn of_type(v: &Value, kind: &str) -> bool {
    match kind {
        "string" => v.is_string(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_arguments_parse_or_say_why() {
        assert_eq!(
            args_of_raw(r#"{"query": "timeout", "limit": 5}"#),
            vec![
                ("query".to_string(), "timeout".to_string()),
                ("limit".to_string(), "5".to_string())
            ]
        );
        let cut = parsed_object(r#"{"query": "timeout", "limit": 5"#).unwrap_err();
        assert!(cut.starts_with("EOF while parsing an object"), "{cut}");
        assert!(parsed_object("[1]").is_err());
        assert!(args_of_raw("{").is_empty());
    }

    #[test]
    fn a_derived_op_id_depends_on_the_call_only() {
        let a = [("scope".to_string(), "toy".to_string())];
        let b = [("scope".to_string(), "other".to_string())];
        assert_eq!(derived_op_id("patch", &a), derived_op_id("patch", &a));
        assert_ne!(derived_op_id("patch", &a), derived_op_id("patch", &b));
        assert_ne!(derived_op_id("patch", &a), derived_op_id("test", &a));
        assert_eq!(derived_op_id("patch", &a).len(), 11);
    }
}
