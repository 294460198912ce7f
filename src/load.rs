//! Loading scenarios: the shipped catalog, files, and the errors a user sees
//! when one is wrong (file, place, what was expected; never a Debug dump).

use std::fmt;
use std::io::Read;
use std::path::Path;

use crate::engine::{self, BUILTIN_TOOLS};
use crate::scenario::{Lang, Scenario};
use crate::trace::Trace;

/// Scenarios compiled into the binary: (name, JSON source).
/// In teaching order: the basic loop, then one mechanism each, then the
/// harness mistakes (each the what-if twin of an earlier scenario).
pub const CATALOG: &[(&str, &str)] = &[
    (
        "read-config-timeout",
        include_str!("../scenarios/read-config-timeout.json"),
    ),
    (
        "wrong-path-first",
        include_str!("../scenarios/wrong-path-first.json"),
    ),
    (
        "explain-entry",
        include_str!("../scenarios/explain-entry.json"),
    ),
    (
        "parallel-calls-out-of-order",
        include_str!("../scenarios/parallel-calls-out-of-order.json"),
    ),
    (
        "refused-tool",
        include_str!("../scenarios/refused-tool.json"),
    ),
    (
        "path-outside-workspace",
        include_str!("../scenarios/path-outside-workspace.json"),
    ),
    (
        "patch-and-test",
        include_str!("../scenarios/patch-and-test.json"),
    ),
    (
        "verify-before-done",
        include_str!("../scenarios/verify-before-done.json"),
    ),
    (
        "budget-exhausted",
        include_str!("../scenarios/budget-exhausted.json"),
    ),
    (
        "harness-drops-results",
        include_str!("../scenarios/harness-drops-results.json"),
    ),
    (
        "harness-crashes-on-error",
        include_str!("../scenarios/harness-crashes-on-error.json"),
    ),
    (
        "harness-pairs-by-order",
        include_str!("../scenarios/harness-pairs-by-order.json"),
    ),
    (
        "harness-trusts-done",
        include_str!("../scenarios/harness-trusts-done.json"),
    ),
];

pub const DEFAULT_SCENARIO: &str = "read-config-timeout";

/// Scenario files larger than this are refused before parsing.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// A scenario that cannot be used, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError {
    /// The file as the user named it (or `<builtin:NAME>`).
    pub file: String,
    /// `line:column`, or a JSON path such as `model[2].calls[0].tool`.
    pub place: Option<String>,
    pub message: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.place {
            Some(place) => write!(f, "{}: {}: {}", self.file, place, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for ScenarioError {}

/// A scenario ready to show: the source and its trace in each language.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub scenario: Scenario,
    pub traces: [Trace; 2],
}

impl Loaded {
    pub fn trace(&self, lang: Lang) -> &Trace {
        match lang {
            Lang::Zh => &self.traces[0],
            Lang::En => &self.traces[1],
        }
    }
}

/// A shipped scenario's name, or else a path to a scenario file.
pub fn load(name_or_path: &str) -> Result<Loaded, ScenarioError> {
    if let Some((name, source)) = CATALOG.iter().find(|(n, _)| *n == name_or_path) {
        return prepare(&format!("<builtin:{name}>"), source.as_bytes());
    }
    let file = name_or_path.to_string();
    let bytes = read_file(Path::new(name_or_path)).map_err(|message| ScenarioError {
        file: file.clone(),
        place: None,
        message,
    })?;
    prepare(&file, &bytes)
}

fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => {
            "no such file, and no shipped scenario by that name (see `agent-loop-sim list`)"
                .to_string()
        }
        _ => format!("cannot read: {e}"),
    })?;
    if meta.is_dir() {
        return Err("is a directory; expected a scenario JSON file".to_string());
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "file is larger than {} KiB; a scenario is a small JSON file",
            MAX_FILE_BYTES / 1024
        ));
    }
    Ok(bytes)
}

/// Parse, check and run a scenario in both languages.
pub fn prepare(file: &str, bytes: &[u8]) -> Result<Loaded, ScenarioError> {
    let scenario = parse(file, bytes)?;
    let error = |place: Option<String>, message: String| ScenarioError {
        file: file.to_string(),
        place,
        message,
    };
    if let Some((path, message)) = check_fields(&scenario) {
        return Err(error(Some(path), message));
    }
    let run = |lang: Lang| {
        engine::run(&scenario, lang)
            .map_err(|e| error(Some("model".to_string()), format!("({}) {e}", lang.code())))
    };
    let traces = [run(Lang::Zh)?, run(Lang::En)?];
    if traces[0].len() != traces[1].len() {
        return Err(error(
            Some("model".to_string()),
            format!(
                "the run takes {} steps in zh but {} in en; expected the same loop in both \
                 languages (do the rules' \"contains\" texts depend on the language?)",
                traces[0].len(),
                traces[1].len()
            ),
        ));
    }
    let steps = traces[0].len();
    if traces[0].end != scenario.expect {
        return Err(error(
            Some("expect".to_string()),
            format!(
                "the loop ends {} after {steps} steps, but the scenario expects {}",
                traces[0].end.code(),
                scenario.expect.code()
            ),
        ));
    }
    for key in scenario.narration.keys() {
        let ok = key.parse::<usize>().is_ok_and(|n| (1..=steps).contains(&n));
        if !ok {
            return Err(error(
                Some(format!("narration.{key}")),
                format!("expected a step number from 1 to {steps}"),
            ));
        }
    }
    Ok(Loaded { scenario, traces })
}

/// JSON to `Scenario`, with the line, column and JSON path of the first error.
pub fn parse(file: &str, bytes: &[u8]) -> Result<Scenario, ScenarioError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let scenario: Scenario = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let place = match (inner.line(), path.as_str()) {
            (0, ".") => None,
            (0, p) => Some(p.to_string()),
            (l, ".") => Some(format!("{l}:{}", inner.column())),
            (l, p) => Some(format!("{l}:{}: at {p}", inner.column())),
        };
        ScenarioError {
            file: file.to_string(),
            place,
            message: describe_json_error(&inner),
        }
    })?;
    de.end().map_err(|e| ScenarioError {
        file: file.to_string(),
        place: Some(format!("{}:{}", e.line(), e.column())),
        message: "unexpected data after the scenario object; expected the end of the file"
            .to_string(),
    })?;
    Ok(scenario)
}

/// serde_json's message without its own " at line L column C" suffix.
fn describe_json_error(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let text = match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    };
    match e.classify() {
        serde_json::error::Category::Eof => {
            format!("{text}; the file ends early (truncated JSON?)")
        }
        _ => text,
    }
}

/// Checks the JSON types cannot express. Returns the JSON path and message.
fn check_fields(s: &Scenario) -> Option<(String, String)> {
    let bad = |path: String, message: String| Some((path, message));
    if s.name.is_empty()
        || !s
            .name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return bad(
            "name".into(),
            "expected a short name of lowercase letters, digits and '-'".into(),
        );
    }
    if !(1..=10_000).contains(&s.budget) {
        return bad(
            "budget".into(),
            "expected a number of model calls from 1 to 10000".into(),
        );
    }
    for (path, _) in &s.files {
        if !engine::inside_workspace(path) {
            return bad(
                format!("files.{path}"),
                "expected a relative path inside the workspace".into(),
            );
        }
    }
    for (i, tool) in s.tools.iter().enumerate() {
        if s.tools[..i].iter().any(|t| t.name == tool.name) {
            return bad(format!("tools[{i}].name"), format!("tool \"{}\" is declared twice", tool.name));
        }
        if tool.offered && !BUILTIN_TOOLS.contains(&tool.name.as_str()) {
            return bad(
                format!("tools[{i}].name"),
                format!(
                    "an offered tool must be a built-in one ({}), got \"{}\"; \
                     set \"offered\": false for a tool the host should refuse",
                    BUILTIN_TOOLS.join(", "),
                    tool.name
                ),
            );
        }
    }
    if s.model.is_empty() {
        return bad("model".into(), "expected at least one rule".into());
    }
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
            if !s.tools.iter().any(|t| t.name == call.tool) {
                return bad(
                    format!("model[{i}].calls[{j}].tool"),
                    format!(
                        "unknown tool \"{}\"; expected one declared in \"tools\"",
                        call.tool
                    ),
                );
            }
        }
        let matches = [&rule.when.has_result, &rule.when.lacks_result];
        for (field, m) in ["has_result", "lacks_result"].iter().zip(matches) {
            if let Some(m) = m
                && !s.tools.iter().any(|t| t.name == m.tool)
            {
                return bad(
                    format!("model[{i}].when.{field}.tool"),
                    format!("unknown tool \"{}\"; expected one declared in \"tools\"", m.tool),
                );
            }
        }
    }
    if let Some(v) = &s.verify
        && !s.tools.iter().any(|t| t.name == v.tool && t.offered)
    {
        return bad(
            "verify.tool".into(),
            format!("expected an offered tool, got \"{}\"", v.tool),
        );
    }
    None
}
