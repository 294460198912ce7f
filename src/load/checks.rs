//! The checks JSON types cannot express: names, paths, offered tools and
//! their arguments, the verify tool. Each returns the JSON path and what
//! was expected.

use crate::engine::{self, BuiltinTool};
use crate::scenario::{Lang, Scenario};

use super::errors::{key_path, quoted};

/// Checks the JSON types cannot express. Returns the JSON path and message.
pub(super) fn check_fields(s: &Scenario) -> Option<(String, String)> {
    let bad = |path: String, message: String| Some((path, message));
    if s.name.is_empty()
        || s.name.len() > 64
        || !s
            .name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return bad(
            "name".into(),
            format!(
                "expected a short name of lowercase letters, digits and '-', got {}",
                quoted(&s.name)
            ),
        );
    }
    for (field, text) in [("title", &s.title), ("task", &s.task)] {
        for lang in Lang::ALL {
            if text.get(lang).trim().is_empty() {
                return bad(
                    format!("{field}.{}", lang.code()),
                    "expected a non-empty text".into(),
                );
            }
        }
    }
    if !(1..=10_000).contains(&s.budget) {
        return bad(
            "budget".into(),
            "expected a number of model calls from 1 to 10000".into(),
        );
    }
    for path in s.files.keys() {
        if !engine::inside_workspace(path) {
            return bad(
                key_path("files", path),
                "expected a relative path inside the workspace (no leading '/', no '..')".into(),
            );
        }
    }
    if let Some(problem) = check_tools(s) {
        return Some(problem);
    }
    if s.model.is_empty() {
        return bad("model".into(), "expected at least one rule".into());
    }
    let declared = |tool: &str| s.tools.iter().any(|t| t.name == tool);
    let unknown_tool = |tool: &str| {
        format!(
            "unknown tool {}; expected one declared in \"tools\"",
            quoted(tool)
        )
    };
    for (i, rule) in s.model.iter().enumerate() {
        if rule.say.is_none() && rule.calls.is_empty() {
            return bad(
                format!("model[{i}]"),
                "expected \"say\", \"calls\" or both".into(),
            );
        }
        if rule.calls.len() > 16 {
            return bad(
                format!("model[{i}].calls"),
                "expected at most 16 calls in one reply".into(),
            );
        }
        for (j, call) in rule.calls.iter().enumerate() {
            if !declared(&call.tool) {
                return bad(
                    format!("model[{i}].calls[{j}].tool"),
                    unknown_tool(&call.tool),
                );
            }
        }
        let matches = [&rule.when.has_result, &rule.when.lacks_result];
        for (field, m) in ["has_result", "lacks_result"].iter().zip(matches) {
            if let Some(m) = m
                && !declared(&m.tool)
            {
                return bad(
                    format!("model[{i}].when.{field}.tool"),
                    unknown_tool(&m.tool),
                );
            }
        }
    }
    if let Some(problem) = check_conditions(s) {
        return Some(problem);
    }
    if let Some(v) = &s.verify
        && !s.tools.iter().any(|t| t.name == v.tool && t.offered)
    {
        return bad(
            "verify.tool".into(),
            format!("expected an offered tool, got {}", quoted(&v.tool)),
        );
    }
    None
}

/// Offered tools are built-ins and declare the arguments the built-in reads.
pub(super) fn check_tools(s: &Scenario) -> Option<(String, String)> {
    for (i, tool) in s.tools.iter().enumerate() {
        if s.tools[..i].iter().any(|t| t.name == tool.name) {
            return Some((
                format!("tools[{i}].name"),
                format!("tool {} is declared twice", quoted(&tool.name)),
            ));
        }
        if !tool.checks.is_empty() && tool.name != "run_tests" {
            return Some((
                format!("tools[{i}].checks"),
                "only run_tests has checks; expected no \"checks\" here".into(),
            ));
        }
        for (k, check) in tool.checks.iter().enumerate() {
            if check.contains.is_some() == check.line.is_some() {
                return Some((
                    format!("tools[{i}].checks[{k}]"),
                    "expected exactly one of \"contains\" (a text in the file) or \"line\" \
                     (a whole line of the file)"
                        .into(),
                ));
            }
        }
        if !tool.offered {
            continue;
        }
        let Some(wanted) = BuiltinTool::parse(&tool.name).map(BuiltinTool::params) else {
            return Some((
                format!("tools[{i}].name"),
                format!(
                    "an offered tool must be a built-in one ({}), got {}; \
                     set \"offered\": false for a tool the host should refuse",
                    BuiltinTool::ALL.map(BuiltinTool::name).join(", "),
                    quoted(&tool.name)
                ),
            ));
        };
        let mut got: Vec<&str> = tool
            .params
            .iter()
            .map(String::as_str)
            .filter(|p| *p != "op_id")
            .collect();
        got.sort_unstable();
        let mut expected = wanted.to_vec();
        expected.sort_unstable();
        if got != expected || tool.params.iter().filter(|p| *p == "op_id").count() > 1 {
            return Some((
                format!("tools[{i}].params"),
                format!(
                    "{} reads {}; expected exactly those (\"op_id\" may be added)",
                    tool.name,
                    if wanted.is_empty() {
                        "no arguments".to_string()
                    } else {
                        format!(
                            "[{}]",
                            wanted
                                .iter()
                                .map(|p| format!("\"{p}\""))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    }
                ),
            ));
        }
    }
    None
}

/// The rule conditions and the context window: counts and call numbers
/// from 1, a window that holds something, a summary where one is needed.
pub(super) fn check_conditions(s: &Scenario) -> Option<(String, String)> {
    use crate::scenario::CompactPolicy;
    for (i, rule) in s.model.iter().enumerate() {
        if rule.when.model_call == Some(0) {
            return Some((
                format!("model[{i}].when.model_call"),
                "expected a model call number from 1 (the first call is 1)".into(),
            ));
        }
        let matches = [&rule.when.has_result, &rule.when.lacks_result];
        for (field, m) in ["has_result", "lacks_result"].iter().zip(matches) {
            if let Some(m) = m
                && m.count == Some(0)
            {
                return Some((
                    format!("model[{i}].when.{field}.count"),
                    "expected a count from 1 (how many matching results; 1 if left out)".into(),
                ));
            }
        }
    }
    let Some(limit) = &s.context else {
        return None;
    };
    if !(1..=10_000_000).contains(&limit.window) {
        return Some((
            "context.window".into(),
            "expected a window from 1 to 10000000 estimated tokens".into(),
        ));
    }
    match (limit.policy, &limit.summary) {
        (CompactPolicy::Summarize, None) => Some((
            "context.summary".into(),
            "the policy \"summarize\" needs a \"summary\" (a Text the host puts in place of \
             earlier turns)"
                .into(),
        )),
        (CompactPolicy::DropOldestResults, Some(_)) => Some((
            "context.summary".into(),
            "only the policy \"summarize\" uses a summary; expected no \"summary\" here".into(),
        )),
        _ => None,
    }
}
