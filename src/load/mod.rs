//! Loading scenarios: the shipped catalog, files, and the errors a user sees
//! when one is wrong (file, place, what was expected; never a Debug dump).

use std::fmt;
use std::io::Read;
use std::path::Path;

use crate::engine::{self, BUILTIN_TOOLS};
use crate::output::io_reason;
use crate::safe;
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

/// Longest message shown for one error, and longest value quoted in it:
/// an error is a line or two, whatever the file holds.
const MAX_MESSAGE_CHARS: usize = 400;
const MAX_QUOTED_CHARS: usize = 60;

/// A scenario that cannot be used, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError {
    /// The file as the user named it (or `<builtin:NAME>`).
    pub file: String,
    /// `line:column`, a JSON path such as `model[2].calls[0].tool`, or both
    /// (`12:5 at budget`).
    pub place: Option<String>,
    pub message: String,
}

impl fmt::Display for ScenarioError {
    /// One short line: the text comes from the file, so control characters
    /// are escaped (no terminal escapes get through) and length is capped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = printable(&self.file, MAX_MESSAGE_CHARS);
        let message = printable(&self.message, MAX_MESSAGE_CHARS);
        match &self.place {
            Some(place) => write!(f, "{file}: {}: {message}", printable(place, 120)),
            None => write!(f, "{file}: {message}"),
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
        _ => format!("cannot read: {}", io_reason(&e)),
    })?;
    if meta.is_dir() {
        return Err("is a directory; expected a scenario JSON file".to_string());
    }
    // A pipe or a device could block or never end: only plain files.
    if !meta.is_file() {
        return Err("is not a regular file; expected a scenario JSON file".to_string());
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_large());
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {}", io_reason(&e)))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {}", io_reason(&e)))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large());
    }
    Ok(bytes)
}

fn too_large() -> String {
    format!(
        "the file is larger than {} KiB; expected a scenario, which is a small JSON file",
        MAX_FILE_BYTES / 1024
    )
}

/// Parse, check and run a scenario in both languages.
pub fn prepare(file: &str, bytes: &[u8]) -> Result<Loaded, ScenarioError> {
    let scenario = parse(file, bytes)?;
    let error = |place: &str, message: String| ScenarioError {
        file: file.to_string(),
        place: Some(place.to_string()),
        message,
    };
    if let Some((path, message)) = check_fields(&scenario) {
        return Err(error(&path, message));
    }
    // Checked as written; run and shown as drawn (see `for_screen`).
    let scenario = for_screen(scenario);
    let zh = engine::run(&scenario, Lang::Zh).map_err(|e| error("model", e.to_string()))?;
    let en = engine::run(&scenario, Lang::En)
        .map_err(|e| error("model", format!("in the English run: {e}")))?;
    if zh.len() != en.len() {
        return Err(error(
            "model",
            format!(
                "the run takes {} steps in zh but {} in en; expected the same loop in both \
                 languages (do the rules' \"contains\" texts depend on the language?)",
                zh.len(),
                en.len()
            ),
        ));
    }
    let steps = zh.len();
    if zh.end != scenario.expect {
        return Err(error(
            "expect",
            format!(
                "the loop ends {} at step {steps}, after {} model calls, but \"expect\" says {}; \
                 see the steps with `agent-loop-sim trace FILE`",
                zh.end.code(),
                zh.model_calls.len(),
                scenario.expect.code()
            ),
        ));
    }
    for key in scenario.narration.keys() {
        let number = key.parse::<usize>().ok().filter(|n| n.to_string() == *key);
        if !number.is_some_and(|n| (1..=steps).contains(&n)) {
            return Err(error(
                &key_path("narration", key),
                format!("expected a step number from 1 to {steps}, such as \"1\""),
            ));
        }
    }
    Ok(Loaded {
        scenario,
        traces: [zh, en],
    })
}

/// Every text of the scenario as `safe::for_screen` makes it: what the
/// trace holds is what a terminal draws, cell for cell, with no escape
/// sequence and no joined emoji of uncertain width. Texts the model's rules
/// match against are changed the same way, so a rule finds what it names.
/// (A short rule text such as "t" could also match the letters of an
/// escape like `\t`; a scenario without such characters is unchanged.)
/// Every field is named, so a new field cannot be forgotten here.
fn for_screen(scenario: Scenario) -> Scenario {
    use crate::scenario::{
        About, CallMatch, CallSpec, Condition, FileCheck, Rule, Text, ToolDef, Verify,
    };
    use std::collections::BTreeMap;
    fn s(text: String) -> String {
        match safe::for_screen(&text) {
            std::borrow::Cow::Borrowed(_) => text,
            std::borrow::Cow::Owned(safe) => safe,
        }
    }
    fn text(Text { zh, en }: Text) -> Text {
        Text {
            zh: s(zh),
            en: s(en),
        }
    }
    fn map(m: BTreeMap<String, String>) -> BTreeMap<String, String> {
        m.into_iter().map(|(k, v)| (s(k), s(v))).collect()
    }
    fn call_match(
        CallMatch {
            tool,
            args,
            ok,
            contains,
        }: CallMatch,
    ) -> CallMatch {
        CallMatch {
            tool: s(tool),
            args: map(args),
            ok,
            contains: contains.map(s),
        }
    }
    let Scenario {
        name,
        title,
        task,
        conditions,
        about:
            About {
                why,
                how,
                cost,
                check,
            },
        files,
        tools,
        budget,
        harness,
        verify,
        model,
        expect,
        narration,
    } = scenario;
    Scenario {
        name: s(name),
        title: text(title),
        task: text(task),
        conditions: conditions.into_iter().map(text).collect(),
        about: About {
            why: text(why),
            how: text(how),
            cost: text(cost),
            check: text(check),
        },
        files: map(files),
        tools: tools
            .into_iter()
            .map(
                |ToolDef {
                     name,
                     description,
                     params,
                     offered,
                     checks,
                 }| ToolDef {
                    name: s(name),
                    description: text(description),
                    params: params.into_iter().map(s).collect(),
                    offered,
                    checks: checks
                        .into_iter()
                        .map(
                            |FileCheck {
                                 path,
                                 contains,
                                 line,
                             }| FileCheck {
                                path: s(path),
                                contains: contains.map(s),
                                line: line.map(s),
                            },
                        )
                        .collect(),
                },
            )
            .collect(),
        budget,
        harness,
        verify: verify.map(|Verify { tool, args }| Verify {
            tool: s(tool),
            args: map(args),
        }),
        model: model
            .into_iter()
            .map(
                |Rule {
                     when:
                         Condition {
                             has_result,
                             lacks_result,
                             contains,
                             lacks,
                         },
                     say,
                     calls,
                     task_done,
                 }| Rule {
                    when: Condition {
                        has_result: has_result.map(call_match),
                        lacks_result: lacks_result.map(call_match),
                        contains: contains.map(s),
                        lacks: lacks.map(s),
                    },
                    say: say.map(text),
                    calls: calls
                        .into_iter()
                        .map(|CallSpec { tool, args, delay }| CallSpec {
                            tool: s(tool),
                            args: map(args),
                            delay,
                        })
                        .collect(),
                    task_done,
                },
            )
            .collect(),
        expect,
        narration: narration.into_iter().map(|(k, v)| (k, text(v))).collect(),
    }
}

/// JSON to `Scenario`, with the line, column and JSON path of the first
/// error, and what was expected there in words an author knows.
pub fn parse(file: &str, bytes: &[u8]) -> Result<Scenario, ScenarioError> {
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
        let found = match first {
            '[' => "a list [ ... ]",
            '"' => "a string",
            '-' | '0'..='9' => "a number",
            _ => "text that is not JSON",
        };
        let (line, column) = line_column(text, offset);
        return Err(error(
            format!("{line}:{column}"),
            format!("expected a scenario, a JSON object {{ ... }}, but the file holds {found}"),
        ));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let scenario: Scenario = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = json_path(e.path());
        let inner = e.into_inner();
        let mut place = match inner.line() {
            0 => String::new(),
            line => {
                let (line, column) = char_column(text, line, inner.column());
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
        ScenarioError {
            file: file.to_string(),
            place: (!place.is_empty()).then_some(place),
            message: describe_json_error(&inner, &path),
        }
    })?;
    de.end().map_err(|e| {
        let (line, column) = char_column(text, e.line(), e.column());
        error(
            format!("{line}:{column}"),
            "unexpected data after the scenario object; expected the end of the file".into(),
        )
    })?;
    Ok(scenario)
}

/// 1-based line and column (in characters) of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// serde_json counts columns in bytes; an author's editor counts characters.
fn char_column(text: &str, line: usize, byte_column: usize) -> (usize, usize) {
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
fn json_path(path: &serde_path_to_error::Path) -> String {
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
fn key_path(parent: &str, key: &str) -> String {
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
fn quoted(s: &str) -> String {
    let short: String = s.chars().take(MAX_QUOTED_CHARS).collect();
    let json = serde_json::to_string(&short).unwrap_or_default();
    if short.len() < s.len() {
        format!("{}…\"", &json[..json.len() - 1])
    } else {
        json
    }
}

/// Escaped for a terminal (`safe::escape`), and cut at `max` characters.
fn printable(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", safe::escape(&s[..cut])),
        None => safe::escape(s).into_owned(),
    }
}

/// serde_json's error in an author's words: no Rust type names, values cut
/// short, and what was expected.
fn describe_json_error(e: &serde_json::Error, path: &str) -> String {
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
            format!("expected one of: {}", END_STATUSES.join(", "))
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
        Category::Data => describe_data_error(text),
    }
}

const END_STATUSES: [&str; 4] = [
    "completed",
    "budget_exhausted",
    "verification_missing",
    "crashed",
];

/// serde's "invalid type: X, expected Y", "unknown field `f`, expected one
/// of ...", "missing field `f`" and friends, reworded.
fn describe_data_error(text: &str) -> String {
    if let Some(rest) = text.strip_prefix("unknown field `") {
        let (field, expected) = rest.split_once('`').unwrap_or((rest, ""));
        let names = backticked(expected);
        let hint = names
            .iter()
            .filter(|n| edit_distance(n, field) <= 2)
            .min_by_key(|n| edit_distance(n, field))
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

/// The names inside backticks: "one of `a`, `b`" → [a, b].
fn backticked(s: &str) -> Vec<&str> {
    s.split('`').skip(1).step_by(2).collect()
}

fn expected_words(expected: &str) -> String {
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

fn found_words(found: &str) -> String {
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

/// Levenshtein distance, for "did you mean" on short field names.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(previous + 1);
        }
    }
    row[b.len()]
}

/// Checks the JSON types cannot express. Returns the JSON path and message.
fn check_fields(s: &Scenario) -> Option<(String, String)> {
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
fn check_tools(s: &Scenario) -> Option<(String, String)> {
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
        let Some(wanted) = engine::builtin_params(&tool.name) else {
            return Some((
                format!("tools[{i}].name"),
                format!(
                    "an offered tool must be a built-in one ({}), got {}; \
                     set \"offered\": false for a tool the host should refuse",
                    BUILTIN_TOOLS.join(", "),
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
