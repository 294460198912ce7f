//! Loading scenarios: the shipped catalog, files, and the errors a user sees
//! when one is wrong (file, place, what was expected; never a Debug dump).
//!
//! This file holds the catalogue and the way from a name or a file to a
//! `Loaded`; `read.rs` reads a file, `errors.rs` parses JSON and rewords
//! serde's errors, `checks.rs` checks what JSON types cannot express.

use std::fmt;
use std::path::Path;

mod anchors;
mod checks;
mod errors;
mod read;

pub use errors::parse;

use checks::check_fields;
use errors::printable;
use read::read_file;

use crate::engine;
use crate::safe;
use crate::scenario::{Lang, Scenario};
use crate::trace::Trace;

/// Scenarios compiled into the binary: (name, JSON source).
/// In teaching order: the basic loop, then one mechanism each, then the
/// harness mistakes (each the what-if twin of an earlier scenario).
pub const CATALOG: &[(&str, &str)] = &[
    (
        "read-config-timeout",
        include_str!("../../scenarios/read-config-timeout.json"),
    ),
    (
        "wrong-path-first",
        include_str!("../../scenarios/wrong-path-first.json"),
    ),
    (
        "explain-entry",
        include_str!("../../scenarios/explain-entry.json"),
    ),
    (
        "parallel-calls-out-of-order",
        include_str!("../../scenarios/parallel-calls-out-of-order.json"),
    ),
    (
        "refused-tool",
        include_str!("../../scenarios/refused-tool.json"),
    ),
    (
        "path-outside-workspace",
        include_str!("../../scenarios/path-outside-workspace.json"),
    ),
    (
        "patch-and-test",
        include_str!("../../scenarios/patch-and-test.json"),
    ),
    (
        "verify-before-done",
        include_str!("../../scenarios/verify-before-done.json"),
    ),
    (
        "budget-exhausted",
        include_str!("../../scenarios/budget-exhausted.json"),
    ),
    (
        "harness-drops-results",
        include_str!("../../scenarios/harness-drops-results.json"),
    ),
    (
        "harness-crashes-on-error",
        include_str!("../../scenarios/harness-crashes-on-error.json"),
    ),
    (
        "harness-pairs-by-order",
        include_str!("../../scenarios/harness-pairs-by-order.json"),
    ),
    (
        "harness-trusts-done",
        include_str!("../../scenarios/harness-trusts-done.json"),
    ),
    // Lessons of issue 9 items 4, 5, 8: rule conditions, event-anchored
    // narration, the context window and compaction.
    (
        "prompt-injection-in-file",
        include_str!("../../scenarios/prompt-injection-in-file.json"),
    ),
    (
        "context-compaction-summary",
        include_str!("../../scenarios/context-compaction-summary.json"),
    ),
    (
        "context-compaction-lost-fact",
        include_str!("../../scenarios/context-compaction-lost-fact.json"),
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
    /// One trace per language, indexed by `Lang::index`.
    pub traces: [Trace; Lang::COUNT],
}

impl Loaded {
    pub fn trace(&self, lang: Lang) -> &Trace {
        &self.traces[lang.index()]
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
    // Narration keyed by step number or by event (`anchors`), set on the
    // steps of both runs, which have the same steps and call ids.
    let narrated = anchors::resolve(&scenario.narration, &zh).map_err(|(p, m)| error(&p, m))?;
    let (mut zh, mut en) = (zh, en);
    for trace in [&mut zh, &mut en] {
        for &(step, text) in &narrated {
            trace.steps[step].narration = Some(text.get(trace.lang).to_string());
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
        About, CallMatch, CallSpec, Condition, ContextLimit, FileCheck, Rule, Text, ToolDef, Verify,
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
            status,
            count,
        }: CallMatch,
    ) -> CallMatch {
        CallMatch {
            tool: s(tool),
            args: map(args),
            ok,
            contains: contains.map(s),
            status,
            count,
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
        context,
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
                             model_call,
                         },
                     say,
                     calls,
                     task_done,
                     once,
                 }| Rule {
                    when: Condition {
                        has_result: has_result.map(call_match),
                        lacks_result: lacks_result.map(call_match),
                        contains: contains.map(s),
                        lacks: lacks.map(s),
                        model_call,
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
                    once,
                },
            )
            .collect(),
        expect,
        narration: narration.into_iter().map(|(k, v)| (k, text(v))).collect(),
        context: context.map(
            |ContextLimit {
                 window,
                 policy,
                 summary,
             }| ContextLimit {
                window,
                policy,
                summary: summary.map(text),
            },
        ),
    }
}
