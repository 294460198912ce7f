//! The checks JSON types cannot express: names, paths, offered tools and
//! their arguments, the verify tool. Every fault found is reported, each
//! with its JSON path and what was expected.

use crate::engine::{self, BuiltinTool};
use crate::scenario::{Lang, Scenario, ToolDef};

use super::catalog::CATALOG;
use super::fault::Severity;
use super::wording::{BUDGET_RANGE, key_path, quoted};

/// A fault found by a check: how serious, the JSON path, what was expected.
pub(super) type Found = (Severity, String, String);

/// Every fault of the checks the JSON types cannot express, in file order.
pub(super) fn check_fields(s: &Scenario) -> Vec<Found> {
    let mut found = check_names_and_files(s);
    found.extend(check_tools(s));
    found.extend(check_reads(s));
    if !(1..=10_000).contains(&s.budget) {
        found.push(error("budget".into(), format!("expected {BUDGET_RANGE}")));
    }
    if let Some(v) = &s.verify {
        match s.tools.iter().find(|t| t.name == v.tool && t.offered) {
            None => found.push(error(
                "verify.tool".into(),
                format!("expected an offered tool, got {}", quoted(&v.tool)),
            )),
            Some(tool) => found.extend(check_verify(s, tool)),
        }
    }
    found.extend(check_rules(s));
    found.extend(check_conditions(s));
    found
}

/// The lesson's name, its title and task in every language, its files' names.
fn check_names_and_files(s: &Scenario) -> Vec<Found> {
    let mut found: Vec<Found> = Vec::new();
    let mut bad = |path: String, message: String| found.push((Severity::Error, path, message));
    // The name starts every exported file's name: a leading '-' would make
    // `rm *.svg` in that folder read it as an option.
    if s.name.is_empty()
        || s.name.len() > 64
        || s.name.starts_with('-')
        || !s
            .name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        bad(
            "name".into(),
            format!(
                "expected a short name of lowercase letters, digits and '-', \
                 starting with a letter or digit, got {}",
                quoted(&s.name)
            ),
        );
    }
    for (field, text) in [("title", &s.title), ("task", &s.task)] {
        for lang in Lang::ALL {
            if text.get(lang).trim().is_empty() {
                bad(
                    format!("{field}.{}", lang.code()),
                    "expected a non-empty text".into(),
                );
            }
        }
    }
    for path in s.files.keys() {
        // Drawn in the disk list and sent in tool results: a file name that
        // moves the cursor or reorders text is refused like any other path
        // outside what a workspace holds.
        if path.chars().any(crate::safe::is_unsafe) {
            bad(
                key_path("files", path),
                "expected a file name without control, bidirectional or invisible characters \
                 (ESC, tab, line breaks, U+202E, U+200B, …)"
                    .into(),
            );
        } else if !engine::inside_workspace(path) {
            bad(
                key_path("files", path),
                "expected a relative path inside the workspace (no leading '/', no '..')".into(),
            );
        }
    }
    found
}

/// The scripted model's rules: each says or calls something, and names
/// only declared tools.
fn check_rules(s: &Scenario) -> Vec<Found> {
    let mut found: Vec<Found> = Vec::new();
    let declared = |tool: &str| s.tools.iter().any(|t| t.name == tool);
    let unknown_tool = |tool: &str| {
        format!(
            "unknown tool {}; expected one declared in \"tools\"",
            quoted(tool)
        )
    };
    let mut bad = |path: String, message: String| found.push((Severity::Error, path, message));
    if s.model.is_empty() {
        bad("model".into(), "expected at least one rule".into());
    }
    for (i, rule) in s.model.iter().enumerate() {
        if rule.say.is_none() && rule.calls.is_empty() {
            bad(
                format!("model[{i}]"),
                "expected \"say\", \"calls\" or both".into(),
            );
        }
        if rule.calls.len() > 16 {
            bad(
                format!("model[{i}].calls"),
                "expected at most 16 calls in one reply".into(),
            );
        }
        for (j, call) in rule.calls.iter().enumerate() {
            if !declared(&call.tool) {
                bad(
                    format!("model[{i}].calls[{j}].tool"),
                    unknown_tool(&call.tool),
                );
            }
        }
        for (at, when) in rule.when.each(&format!("model[{i}].when")) {
            let matches = [&when.has_result, &when.lacks_result];
            for (field, m) in ["has_result", "lacks_result"].iter().zip(matches) {
                if let Some(m) = m
                    && !declared(&m.tool)
                {
                    bad(format!("{at}.{field}.tool"), unknown_tool(&m.tool));
                }
            }
        }
    }
    found
}

/// Offered tools are built-ins and declare the arguments the built-in
/// reads; an offered `run_tests` has something to check.
pub(super) fn check_tools(s: &Scenario) -> Vec<Found> {
    let mut found: Vec<Found> = Vec::new();
    for (i, tool) in s.tools.iter().enumerate() {
        if s.tools[..i].iter().any(|t| t.name == tool.name) {
            found.push(error(
                format!("tools[{i}].name"),
                format!("tool {} is declared twice", quoted(&tool.name)),
            ));
        }
        if !tool.checks.is_empty() && tool.name != "run_tests" {
            found.push(error(
                format!("tools[{i}].checks"),
                "only run_tests has checks; expected no \"checks\" here".into(),
            ));
        }
        for (k, check) in tool.checks.iter().enumerate() {
            if check.contains.is_some() == check.line.is_some() {
                found.push(error(
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
        if !tool.results.is_empty() {
            // A custom tool: checked in `tool_checks`.
            continue;
        }
        let Some(builtin) = BuiltinTool::parse(&tool.name) else {
            found.push(error(
                format!("tools[{i}].name"),
                format!(
                    "an offered tool must be a built-in one ({}) or a custom tool with \"results\", \
                     got {}; set \"offered\": false for a tool the host should refuse",
                    BuiltinTool::ALL.map(BuiltinTool::name).join(", "),
                    quoted(&tool.name)
                ),
            ));
            continue;
        };
        let wanted = builtin.params();
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
            found.push(error(
                format!("tools[{i}].params"),
                format!(
                    "{} reads {}; expected exactly those (\"op_id\" may be added)",
                    tool.name,
                    reads(wanted)
                ),
            ));
        }
        // Kept a warning: files with an empty run_tests ran before.
        if builtin == BuiltinTool::RunTests && tool.checks.is_empty() {
            found.push((
                Severity::Warning,
                format!("tools[{i}]"),
                "run_tests has no \"checks\", so it passes (\"0 of 0 checks\") whatever the \
                 files hold; expected at least one check such as \
                 {\"path\": \"app.toml\", \"line\": \"retries = 3\"}"
                    .into(),
            ));
        }
    }
    found
}

/// A verify that can tell a good change from a bad one. Warnings, not
/// errors: such files ran before, and still run the same.
fn check_verify(s: &Scenario, tool: &ToolDef) -> Vec<Found> {
    let mut found: Vec<Found> = Vec::new();
    let Some(v) = &s.verify else {
        return found;
    };
    let Some(builtin) = BuiltinTool::parse(&tool.name) else {
        found.extend(check_custom_verify_args(v, tool));
        return found;
    };
    match builtin {
        BuiltinTool::ReadFile | BuiltinTool::ListFiles => found.push((
            Severity::Warning,
            "verify.tool".into(),
            format!(
                "{} only reads: it passes whenever it can read, whatever the change did; \
                 expected a tool that checks the change, such as run_tests with \"checks\"",
                v.tool
            ),
        )),
        BuiltinTool::WriteFile | BuiltinTool::PatchFile => found.push((
            Severity::Warning,
            "verify.tool".into(),
            format!(
                "{} changes files: the host's check would itself be a write; expected a tool \
                 that checks the change, such as run_tests with \"checks\"",
                v.tool
            ),
        )),
        BuiltinTool::RunTests => {}
    }
    let wanted = builtin.params();
    let mut got: Vec<&str> = v
        .args
        .keys()
        .map(String::as_str)
        .filter(|k| *k != "op_id")
        .collect();
    got.sort_unstable();
    let mut expected = wanted.to_vec();
    expected.sort_unstable();
    if got != expected {
        found.push((
            Severity::Warning,
            "verify.args".into(),
            format!(
                "{} reads {}; expected \"args\" with exactly those (the host runs the verify \
                 without checking its arguments)",
                v.tool,
                reads(wanted)
            ),
        ));
    }
    found
}

/// A custom verify tool's arguments against its own: each one it names
/// must be a parameter of the tool, and each required one given (the host
/// runs the verify without checking its arguments, so a slip would only
/// show as a check that never matches).
fn check_custom_verify_args(v: &crate::scenario::Verify, tool: &ToolDef) -> Vec<Found> {
    let schema = tool.parameters.as_ref();
    let names: Vec<String> = match schema
        .and_then(|s| s.get("properties"))
        .and_then(serde_json::Value::as_object)
    {
        Some(p) => p.keys().cloned().collect(),
        None => tool.params.clone(),
    };
    let required: Vec<String> = match schema {
        Some(s) => s
            .get("required")
            .and_then(serde_json::Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default(),
        None => tool.params.clone(),
    };
    let unknown: Vec<&str> = v
        .args
        .keys()
        .filter(|k| *k != "op_id" && !names.contains(k))
        .map(String::as_str)
        .collect();
    let missing: Vec<&str> = required
        .iter()
        .filter(|r| !v.args.contains_key(*r))
        .map(String::as_str)
        .collect();
    if unknown.is_empty() && missing.is_empty() {
        return Vec::new();
    }
    let mut what = Vec::new();
    if !unknown.is_empty() {
        what.push(format!("it has no argument {}", unknown.join(", ")));
    }
    if !missing.is_empty() {
        what.push(format!("it needs {}", missing.join(", ")));
    }
    let known: Vec<&str> = names.iter().map(String::as_str).collect();
    vec![(
        Severity::Warning,
        "verify.args".into(),
        format!(
            "{}: {}; expected \"args\" among {} (the host runs the verify without checking \
             its arguments)",
            v.tool,
            what.join(", and "),
            reads(&known)
        ),
    )]
}

/// A scripted result's `args` are the tool's, and its `reads` names a
/// file the run can have: one the scenario starts with, one a scripted
/// result writes, or one a call of the script names as its `path`.
fn check_reads(s: &Scenario) -> Vec<Found> {
    let written = s
        .tools
        .iter()
        .flat_map(|t| &t.results)
        .filter_map(|r| r.writes.as_ref().map(|w| w.path.as_str()));
    let called = s
        .model
        .iter()
        .flat_map(|rule| &rule.calls)
        .filter_map(|c| c.args.get("path").and_then(serde_json::Value::as_str));
    let known: Vec<&str> = s
        .files
        .keys()
        .map(String::as_str)
        .chain(written)
        .chain(called)
        .collect();
    let mut found = Vec::new();
    for (i, tool) in s.tools.iter().enumerate() {
        for (j, result) in tool.results.iter().enumerate() {
            let place = format!("tools[{i}].results[{j}].args");
            found.extend(unknown_args(s, &tool.name, result.args.keys(), &place));
            for (k, path) in result.reads.iter().enumerate() {
                // A path outside the workspace is reported as such elsewhere.
                if engine::inside_workspace(path) && !known.contains(&path.as_str()) {
                    found.push(error(
                        format!("tools[{i}].results[{j}].reads[{k}]"),
                        format!(
                            "{} is no file of this scenario; expected a file of \"files\", or one a result writes or a call names: {}",
                            quoted(path),
                            known.iter().map(|p| quoted(p)).collect::<Vec<_>>().join(", ")
                        ),
                    ));
                }
            }
        }
    }
    found
}

/// Argument names a match or a scripted result asks about that `tool`
/// does not take: such a match can never hold, so it is a fault of the
/// file, not a mismatch at run time.
fn unknown_args<'a>(
    s: &Scenario,
    tool: &str,
    names: impl Iterator<Item = &'a String>,
    place: &str,
) -> Vec<Found> {
    let Some(def) = s.tools.iter().find(|t| t.name == tool) else {
        return Vec::new();
    };
    let schema: Vec<&str> = def
        .parameters
        .as_ref()
        .and_then(|p| p.get("properties"))
        .and_then(|p| p.as_object())
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default();
    // A built-in tool takes what the host runs it with, whatever the
    // file declares (a wrong declaration is reported by `check_tools`).
    let builtin = BuiltinTool::parse(tool).filter(|_| def.results.is_empty());
    let mut takes: Vec<&str> = match builtin {
        Some(b) => b.params().to_vec(),
        None => def.params.iter().map(String::as_str).collect(),
    };
    takes.extend(schema);
    if takes.is_empty() {
        return Vec::new();
    }
    names
        .filter(|n| !takes.contains(&n.as_str()) && n.as_str() != "op_id")
        .map(|n| {
            error(
                key_path(place, n),
                format!(
                    "tool {} has no argument {}; expected one of: {}",
                    quoted(tool),
                    quoted(n),
                    takes
                        .iter()
                        .map(|t| quoted(t))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })
        .collect()
}

fn error(path: String, message: String) -> Found {
    (Severity::Error, path, message)
}

/// `["path", "find"]`, or "no arguments".
fn reads(params: &[&str]) -> String {
    if params.is_empty() {
        return "no arguments".to_string();
    }
    format!(
        "[{}]",
        params
            .iter()
            .map(|p| format!("\"{p}\""))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The author's quiz questions: a step that exists and is not the first,
/// one question per step, two to four distinct choices, an answer among
/// them, every text in every language. Every fault of every question:
/// the question's index, the JSON path and the message.
pub(super) fn check_quiz(s: &Scenario, steps: usize) -> Vec<(usize, String, String)> {
    let mut faults = Vec::new();
    for (i, q) in s.quiz.iter().enumerate() {
        let at = |field: &str| format!("quiz[{i}].{field}");
        let mut fault = |path: String, message: String| faults.push((i, path, message));
        let empty = "expected a non-empty text".to_string();
        let step = q.step.number();
        if !(2..=steps).contains(&step) {
            fault(
                at("step"),
                format!(
                    "expected a step number from 2 to {steps} (step 1 is on screen before \
                     any question), got {step}"
                ),
            );
        }
        if let Some(j) = s.quiz[..i].iter().position(|p| p.step == q.step) {
            fault(
                at("step"),
                format!("step {step} already has a question (quiz[{j}]); expected one per step"),
            );
        }
        for lang in Lang::ALL {
            if q.question.get(lang).trim().is_empty() {
                fault(at(&format!("question.{}", lang.code())), empty.clone());
            }
            if let Some(why) = &q.why
                && why.get(lang).trim().is_empty()
            {
                fault(at(&format!("why.{}", lang.code())), empty.clone());
            }
        }
        if !(2..=4).contains(&q.choices.len()) {
            fault(
                at("choices"),
                format!("expected 2 to 4 choices, got {}", q.choices.len()),
            );
        }
        for (k, choice) in q.choices.iter().enumerate() {
            for lang in Lang::ALL {
                let text = choice.get(lang).trim();
                if text.is_empty() {
                    fault(at(&format!("choices[{k}].{}", lang.code())), empty.clone());
                } else if let Some(m) = q.choices[..k]
                    .iter()
                    .position(|c| c.get(lang).trim() == text)
                {
                    fault(
                        at(&format!("choices[{k}].{}", lang.code())),
                        format!("the same text as choices[{m}]; expected distinct choices"),
                    );
                }
            }
        }
        if !(1..=q.choices.len()).contains(&q.answer) {
            fault(
                at("answer"),
                format!(
                    "expected the number of the right choice, from 1 to {} (counted from 1, \
                     as on screen), got {}",
                    q.choices.len(),
                    q.answer
                ),
            );
        }
    }
    faults
}

/// `twin` names a shipped scenario, the same task under a correct
/// harness: Ok, or Err with what was expected (a lesson file is the other
/// choice, looked for by `twin_file`).
pub(super) fn check_twin(s: &Scenario) -> Result<(), String> {
    let Some(twin) = s.twin.as_deref() else {
        return Ok(());
    };
    if CATALOG.iter().any(|(name, _)| *name == twin) && twin != s.name {
        return Ok(());
    }
    let known: Vec<&str> = CATALOG
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| *name != s.name)
        .collect();
    Err(format!(
        "unknown twin {}; expected a lesson file (relative path) or one of: {}",
        quoted(twin),
        known.join(", ")
    ))
}

/// The rule conditions and the context window: counts and call numbers
/// from 1, a window that holds something, a summary where one is needed.
pub(super) fn check_conditions(s: &Scenario) -> Vec<Found> {
    use crate::scenario::CompactPolicy;
    let mut found: Vec<Found> = Vec::new();
    for (i, rule) in s.model.iter().enumerate() {
        for (at, when) in rule.when.each(&format!("model[{i}].when")) {
            if when.model_call == Some(0) {
                found.push(error(
                    format!("{at}.model_call"),
                    "expected a model call number from 1 (the first call is 1)".into(),
                ));
            }
            let matches = [&when.has_result, &when.lacks_result];
            for (field, m) in ["has_result", "lacks_result"].iter().zip(matches) {
                if let Some(m) = m
                    && m.count == Some(0)
                {
                    found.push(error(
                        format!("{at}.{field}.count"),
                        "expected a count from 1 (how many matching results; 1 if left out)".into(),
                    ));
                }
            }
            for (field, m) in ["has_result", "lacks_result"].iter().zip(matches) {
                if let Some(m) = m {
                    let place = format!("{at}.{field}.args");
                    found.extend(unknown_args(s, &m.tool, m.args.keys(), &place));
                }
            }
            if when.any.as_ref().is_some_and(Vec::is_empty) {
                found.push(error(
                    format!("{at}.any"),
                    "expected at least one condition in \"any\" (one of them must hold)".into(),
                ));
            }
        }
    }
    let Some(limit) = &s.context else {
        return found;
    };
    if !(1..=10_000_000).contains(&limit.window) {
        found.push(error(
            "context.window".into(),
            "expected a window from 1 to 10000000 tokens".into(),
        ));
    }
    match (limit.policy, &limit.summary) {
        (CompactPolicy::Summarize, None) => found.push(error(
            "context.summary".into(),
            "the policy \"summarize\" needs a \"summary\" (a Text the host puts in place of \
             earlier turns)"
                .into(),
        )),
        (CompactPolicy::Summarize, Some(crate::scenario::Summaries::Each(list)))
            if list.is_empty() =>
        {
            found.push(error(
                "context.summary".into(),
                "expected at least one summary in the list (one per compaction), or one text \
                 for every compaction"
                    .into(),
            ))
        }
        (CompactPolicy::DropOldestResults, Some(_)) => found.push(error(
            "context.summary".into(),
            "only the policy \"summarize\" uses a summary; expected no \"summary\" here".into(),
        )),
        _ => {}
    }
    found
}
