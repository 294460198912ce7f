//! Checks of what a scenario says about custom tools, policies, approvals
//! and arguments written as JSON text: what JSON types cannot express.
//! Each returns the JSON path and what was expected.

use crate::engine::BuiltinTool;
use crate::scenario::{ApprovalDecision, Policy, Scenario, ToolDef};

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
        if let Some(problem) = super::schema_checks::check_schema(schema, &at("parameters")) {
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
        if result.attempt == Some(0) {
            return Some((
                format!("{place}.attempt"),
                "runs are counted from 1: expected 1 for the first run, 2 for the second, …".into(),
            ));
        }
        if k == last
            && (!result.args.is_empty() || !result.files.is_empty() || result.attempt.is_some())
        {
            return Some((
                place,
                "the last result is the default: expected it without \"args\", \"files\" and \
                 \"attempt\", so every call gets an answer"
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
