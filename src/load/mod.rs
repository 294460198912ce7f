//! Loading scenarios: the shipped catalog, files, and the errors a user sees
//! when one is wrong (file, place, what was expected; never a Debug dump).
//!
//! This file holds the catalogue and the way from a name or a file to a
//! `Loaded`; `read.rs` reads a file, `errors.rs` parses JSON and rewords
//! serde's errors, `fields.rs` finds every wrong value (serde stops at the
//! first), `checks.rs` checks what JSON types cannot express, `screen.rs`
//! reads the scenario again with its texts as drawn.
//!
//! Long because the way from a file to a `Loaded` (parse, run, narrate,
//! check the quiz and the twin, each fault at its place) is one sequence
//! that calls back into itself for a twin file; the parts that stand alone
//! are the files above.

use std::path::Path;

mod anchors;
pub(crate) mod catalog;
mod checks;
mod errors;
mod fault;
mod fields;
mod interrupt_checks;
mod keys;
mod mcp_checks;
mod read;
mod retry_checks;
mod schema_checks;
mod screen;
mod sub_agent;
mod tool_checks;
mod wording;

pub use anchors::step_of as step_of_key;
pub use catalog::{CATALOG, DEFAULT_SCENARIO};
pub use errors::parse;
pub use fault::{Fault, ScenarioError, Severity};
pub use read::MAX_FILE_BYTES;

use checks::{check_fields, check_twin};
use read::read_file;

use crate::engine;
use crate::i18n;
use crate::scenario::{About, Lang, QuizStep, Scenario, Text};
use crate::trace::Trace;
use crate::wire::Provider;

/// What a run is, as the about overlay, the picker, figures and `trace`
/// say it: a lesson's own words, or what a transcript's file tells.
#[derive(Debug, Clone)]
pub struct Card {
    pub name: String,
    pub title: Text,
    pub task: Text,
    pub conditions: Vec<Text>,
    pub about: About,
}

impl Card {
    pub fn of(scenario: &Scenario) -> Self {
        Card {
            name: scenario.name.clone(),
            title: scenario.title.clone(),
            task: scenario.task.clone(),
            conditions: scenario.conditions.clone(),
            about: scenario.about.clone(),
        }
    }
}

/// A run ready to show: what it is, and its trace in each language (for a
/// lesson, its one run told in each: `engine::run_once`).
#[derive(Debug, Clone)]
pub struct Loaded {
    pub card: Card,
    /// The lesson a scripted run comes from (its rules, quiz, twin); a
    /// transcript's run has none.
    pub lesson: Option<Scenario>,
    /// One trace per written language, indexed by `Lang::index`.
    pub traces: [Trace; Lang::COUNT],
    /// The run told in the pseudo-locale, made only when asked for
    /// (`shown_in`): a run shown in a written language does not pay for it
    /// (boxed: the picker holds every lesson's `Loaded`).
    pub pseudo: Option<Box<Trace>>,
    /// What is wrong with a file that still runs: warnings, and errors that
    /// leave the run whole (an `expect` the run does not meet, narration
    /// for a step the run does not have). `check` fails on such errors;
    /// `trace`, `export` and the simulator show the run and say them.
    pub faults: Vec<Fault>,
    /// The traces' token counts where they are made when asked (a replayed
    /// run's, shared by its languages' traces, which hold the same
    /// messages); a lesson's are in its traces (`Counts::default()`).
    pub counts: crate::tokens::Counts,
    /// A lesson's sub-agent: its own run, started by a call of the parent's
    /// (`Scenario::sub_agent`), shown as a conversation of its own.
    pub sub_agent: Option<std::sync::Arc<Loaded>>,
}

impl Loaded {
    /// The trace in `lang`; in the pseudo-locale, the one `shown_in`
    /// made (every way to open a run in it goes through `shown_in`).
    pub fn trace(&self, lang: Lang) -> &Trace {
        match lang.is_written() {
            true => &self.traces[lang.index()],
            false => self
                .pseudo
                .as_deref()
                .expect("a run shown in the pseudo-locale is told in it by load::shown_in"),
        }
    }

    /// Does the file have a fault that makes `check` fail?
    pub fn has_errors(&self) -> bool {
        self.faults.iter().any(Fault::is_error)
    }

    /// Was its window read as counted before 2026-12-01, the file not
    /// saying how (`prepare_with`)?
    fn estimated_window_applied(&self) -> bool {
        let limit = self.lesson.as_ref().and_then(|s| s.context.as_ref());
        limit.is_some_and(|c| c.count_assumed)
    }
}

/// The run, ready to be shown in `lang`: in a written language as it is;
/// in the pseudo-locale, its lesson's run told in it too. Err where it
/// cannot be: a transcript (its words are made as it is read, in the
/// written languages), or a lesson whose run the pseudo-locale's longer
/// texts would decide otherwise (compact elsewhere, or hold another rule:
/// a lesson tuned to a token count).
pub fn shown_in(mut loaded: Loaded, lang: Lang) -> Result<Loaded, ScenarioError> {
    if lang.is_written() || loaded.pseudo.is_some() {
        return Ok(loaded);
    }
    let refused = |message: String| ScenarioError {
        file: loaded.card.name.clone(),
        place: Some("--lang".to_string()),
        message,
    };
    let Some(lesson) = &loaded.lesson else {
        return Err(refused(format!(
            "a transcript's run is shown in a written language only (its words are made as \
             it is read); expected --lang zh or --lang en, not --lang {}",
            lang.code()
        )));
    };
    let (mut trace, differs, rules_differ) =
        engine::tell_once(lesson, lang, i18n::said).map_err(|e| refused(e.to_string()))?;
    let runs_otherwise = match (differs.first(), &rules_differ) {
        (Some(d), _) => Some(differs_said(d)),
        (None, Some(d)) => Some(format!(
            "at step {}, model call #{}, another rule of the model holds on the context in {}",
            d.step + 1,
            d.model_call,
            d.other.code()
        )),
        (None, None) => None,
    };
    if let Some(why) = runs_otherwise {
        return Err(refused(format!(
            "the lesson runs otherwise in {}, whose texts are English's accented and a third \
             longer ({why}); \
             expected --lang zh or --lang en",
            lang.code()
        )));
    }
    let (narrated, _) = anchors::resolve(&lesson.narration, &trace);
    narrate(&mut trace, &narrated);
    // The links to a sub-agent's run are the same in every language.
    trace.sub_agents = loaded.traces[Lang::DEFAULT.index()].sub_agents.clone();
    if let Some(sub) = loaded.sub_agent.take() {
        let sub = shown_in(std::sync::Arc::unwrap_or_clone(sub), lang)?;
        loaded.sub_agent = Some(std::sync::Arc::new(sub));
    }
    loaded.pseudo = Some(Box::new(trace));
    Ok(loaded)
}

/// `load_as`, ready to be shown in `lang` (`shown_in`).
pub fn load_shown_in(
    name_or_path: &str,
    provider: Option<Provider>,
    lang: Lang,
) -> Result<Loaded, ScenarioError> {
    load_as(name_or_path, provider).and_then(|loaded| shown_in(loaded, lang))
}

/// The lesson with its quiz asked only before the steps `keys` name (step
/// numbers or step keys, as `quiz_steps` takes them), or what is wrong
/// with a key: `--quiz-steps 7,9` overrides the lesson's own choice.
pub fn with_quiz_steps(mut loaded: Loaded, keys: &[String]) -> Result<Loaded, ScenarioError> {
    let file = loaded.card.name.to_string();
    let trace = &loaded.traces[0];
    for key in keys {
        anchors::step_of(key, trace).map_err(|why| ScenarioError {
            file: file.clone(),
            place: Some("--quiz-steps".to_string()),
            message: format!("{key:?}: {why}"),
        })?;
    }
    if let Some(lesson) = &mut loaded.lesson {
        lesson.quiz_steps = keys.to_vec();
    }
    Ok(loaded)
}

/// `with_quiz_steps` where `--quiz-steps` was given; else the lesson as
/// loaded.
pub fn quiz_steps_from(loaded: Loaded, keys: Option<&[String]>) -> Result<Loaded, ScenarioError> {
    match keys {
        Some(keys) => with_quiz_steps(loaded, keys),
        None => Ok(loaded),
    }
}

/// A shipped scenario's name, or else a path to a scenario file. Err is
/// the first fault of a file that cannot be run; a file that runs is Ok,
/// with its faults in `Loaded::faults`.
pub fn load(name_or_path: &str) -> Result<Loaded, ScenarioError> {
    examine(name_or_path).map_err(first_error)
}

/// `load`, shown as `provider` receives it when given (`--provider`),
/// else as the scenario says.
pub fn load_as(name_or_path: &str, provider: Option<Provider>) -> Result<Loaded, ScenarioError> {
    examine_as(name_or_path, provider).map_err(first_error)
}

/// Like `load`, with every fault of a file that cannot be run.
pub fn examine(name_or_path: &str) -> Result<Loaded, Vec<Fault>> {
    examine_as(name_or_path, None)
}

/// `examine`, as `provider` receives it when given.
pub fn examine_as(name_or_path: &str, provider: Option<Provider>) -> Result<Loaded, Vec<Fault>> {
    if let Some((name, source)) = CATALOG.iter().find(|(n, _)| *n == name_or_path) {
        return prepare_all_as(&format!("<builtin:{name}>"), source.as_bytes(), provider);
    }
    let file = name_or_path.to_string();
    let bytes = read_file(Path::new(name_or_path)).map_err(|message| {
        vec![Fault {
            severity: Severity::Error,
            error: ScenarioError {
                file: file.clone(),
                place: None,
                message,
            },
        }]
    })?;
    prepare_file(&file, &bytes, provider)
}

/// Parse, check and run a scenario, told in both languages; Err is the
/// first fault of a file that cannot be run.
pub fn prepare(file: &str, bytes: &[u8]) -> Result<Loaded, ScenarioError> {
    prepare_all(file, bytes).map_err(first_error)
}

fn first_error(faults: Vec<Fault>) -> ScenarioError {
    let index = faults.iter().position(Fault::is_error).unwrap_or(0);
    faults
        .into_iter()
        .nth(index)
        .map(|f| f.error)
        .expect("a file that cannot be run has a fault")
}

/// Parse, check and run a scenario, told in both languages, and find
/// every fault. Ok when the run can be shown (its faults in `Loaded::faults`);
/// Err with every fault found when it cannot.
pub fn prepare_all(file: &str, bytes: &[u8]) -> Result<Loaded, Vec<Fault>> {
    prepare_all_as(file, bytes, None)
}

/// `prepare_all`, its model calls sent to `provider` when given.
pub fn prepare_all_as(
    file: &str,
    bytes: &[u8],
    provider: Option<Provider>,
) -> Result<Loaded, Vec<Fault>> {
    prepare_with(file, bytes, provider, true)
}

/// `prepare_all_as`; `with_twin`: also check the lesson's twin (a twin's
/// own twin is not looked at, so two lessons may name each other).
fn prepare_with(
    file: &str,
    bytes: &[u8],
    provider: Option<Provider>,
    with_twin: bool,
) -> Result<Loaded, Vec<Fault>> {
    prepare_counted(file, bytes, provider, with_twin, None)
}

/// A scenario file an author wrote, as `prepare_all_as` reads it; but a
/// file whose window does not say how it is counted (`context.count`) and
/// fails as counted now (o200k tokens of the whole request) is read as
/// files written before 2026-12-01 meant it (`WindowCount::Estimate`) when
/// that way it passes, with a warning that says so: it passed `check`
/// then, and keeps passing. A shipped lesson, or a text made in memory,
/// is read as counted now.
fn prepare_file(
    file: &str,
    bytes: &[u8],
    provider: Option<Provider>,
) -> Result<Loaded, Vec<Fault>> {
    let now = prepare_with(file, bytes, provider, true);
    if now.as_ref().is_ok_and(|l| !l.has_errors()) {
        return now;
    }
    let estimate = Some(crate::scenario::WindowCount::Estimate);
    match prepare_counted(file, bytes, provider, true, estimate) {
        Ok(mut then) if !then.has_errors() && then.estimated_window_applied() => {
            let first = match &now {
                Ok(l) => l.faults.iter().find(|f| f.is_error()).cloned(),
                Err(faults) => faults.iter().find(|f| f.is_error()).cloned(),
            };
            then.faults.push(counted_as_before(file, &then, first));
            Ok(then)
        }
        _ => now,
    }
}

/// The warning of a file read with its window counted as before
/// 2026-12-01: why, what to write to keep it, and the narration to re-read
/// if the window is changed instead.
fn counted_as_before(file: &str, then: &Loaded, first: Option<Fault>) -> Fault {
    let trace = then.trace(Lang::En);
    let steps: Vec<String> = trace
        .compactions
        .iter()
        .map(|c| (c.step + 1).to_string())
        .collect();
    let why = first.map_or(String::new(), |f| format!(" ({})", f.error.message));
    Fault {
        severity: Severity::Warning,
        error: ScenarioError {
            file: file.to_string(),
            place: Some("context.window".into()),
            message: format!(
                "the window is counted as before 2026-12-01 (about four characters a token, \
                 over the messages and the tools; no system prompt), since counted as now (o200k \
                 tokens of the whole request) the file fails{why}; expected \"count\": \
                 \"estimate\" in \"context\" to keep this meaning, or a window of o200k tokens, \
                 then re-read the narration at the steps where the host compacts (now {})",
                if steps.is_empty() {
                    "none".to_string()
                } else {
                    steps.join(", ")
                }
            ),
        },
    }
}

/// `prepare_with`, the window counted as `count` says where the file does
/// not say.
fn prepare_counted(
    file: &str,
    bytes: &[u8],
    provider: Option<Provider>,
    with_twin: bool,
    count: Option<crate::scenario::WindowCount>,
) -> Result<Loaded, Vec<Fault>> {
    let fault = |severity: Severity, place: String, message: String| Fault {
        severity,
        error: ScenarioError {
            file: file.to_string(),
            place: Some(place),
            message,
        },
    };
    let parsed = errors::parse_all(file, bytes);
    let mut faults: Vec<Fault> = parsed
        .faults
        .into_iter()
        .map(|error| Fault {
            severity: Severity::Error,
            error,
        })
        .collect();
    let Some(mut scenario) = parsed.scenario else {
        return Err(faults);
    };
    let mut screen = parsed.screen;
    // A sub-agent's tool is checked as written, then as the custom tool
    // its final reply makes it.
    let sub_faults = sub_agent::check(&scenario);
    for s in std::iter::once(&mut scenario).chain(screen.as_mut()) {
        assume_count(s, count);
        sub_agent::stand_in(s);
    }
    let keys = parsed.keys;
    let at = |path: &str| keys.place(path);
    let errors_at = |list: Vec<(String, String)>| {
        list.into_iter()
            .map(|(path, message)| fault(Severity::Error, at(&path), message))
            .collect::<Vec<_>>()
    };
    for (severity, path, message) in check_fields(&scenario).into_iter().chain(sub_faults) {
        faults.push(fault(severity, at(&path), message));
    }
    if with_twin && let Err(message) = set_twin(&mut scenario, screen.as_mut(), file) {
        faults.push(fault(Severity::Error, at("twin"), message));
    }
    faults.extend(errors_at(written_faults(&scenario)));
    if faults.iter().any(Fault::is_error) {
        // A fault that leaves the run whole (an unknown tool in a rule: the
        // host refuses such a call, a condition on it never holds) does not
        // hide the faults only a run finds: the narration and quiz keys of
        // the run as the file stands are reported with it, so an author
        // meets them in one `check`, not one at a time.
        let whole = faults
            .iter()
            .filter(|f| f.is_error())
            .all(|f| leaves_the_run_whole(&f.error));
        if whole {
            faults.extend(errors_at(keys_of_the_run_as_it_stands(
                &scenario,
                screen.as_ref().unwrap_or(&scenario),
            )));
        }
        return Err(faults);
    }
    let error = |place: &str, message: String| {
        let mut faults = faults.clone();
        faults.push(fault(Severity::Error, at(place), message));
        faults
    };
    // Checked as written; run and shown as drawn (`screen`).
    let mut scenario = screen.unwrap_or(scenario);
    if let Err((place, message)) = shown_as(&mut scenario, provider) {
        return Err(error(place, message));
    }
    // A sub-agent runs first: its final reply is a result of the parent's.
    let sub = sub_agent::run(&mut scenario).map_err(|(place, message)| error(&place, message))?;
    // The loop runs once, and is told in each language (`engine::Told`).
    let told =
        engine::run_once(&scenario, i18n::said).map_err(|e| error("model", e.to_string()))?;
    let engine::Told {
        mut traces,
        differs,
        rules_differ,
    } = told;
    if let Err((place, message)) = sub_agent::link(&mut traces, &scenario) {
        faults.push(fault(Severity::Error, at(&place), message));
    }
    // The run: its steps, calls and outcome are the same in every language.
    let run = &traces[Lang::DEFAULT.index()];
    for (severity, path, message) in run_faults(&scenario, run, &differs, rules_differ.as_ref()) {
        faults.push(fault(severity, at(&path), message));
    }
    // A file numbered as before a replay became one step keeps its meaning.
    if !key_faults(&scenario, run).is_empty()
        && let Some((renumbered, warning)) = numbered_before_one_step_replays(&scenario, run)
        && key_faults(&renumbered, run).is_empty()
    {
        scenario = renumbered;
        faults.push(fault(Severity::Warning, at("narration"), warning));
    }
    faults.extend(errors_at(keyed_faults(&mut scenario, run)));
    // Narration keyed by step number or by event (`anchors`), set on the
    // steps of every language's trace, which have the same steps and call
    // ids; the run is shown with the narration that resolved.
    let (narrated, _) = anchors::resolve(&scenario.narration, run);
    for trace in &mut traces {
        narrate(trace, &narrated);
    }
    Ok(Loaded {
        card: Card::of(&scenario),
        lesson: Some(scenario),
        traces,
        pseudo: None,
        faults,
        counts: Default::default(),
        sub_agent: sub.map(sub_agent_loaded),
    })
}

/// The twin the file names, found, set on the scenario as checked and as
/// drawn (`screen`); or why it cannot be.
fn set_twin(
    scenario: &mut Scenario,
    screen: Option<&mut Scenario>,
    file: &str,
) -> Result<(), String> {
    if let Some(path) = twin_file(scenario, file)? {
        scenario.twin = Some(path);
    }
    if let Some(screen) = screen {
        screen.twin.clone_from(&scenario.twin);
    }
    Ok(())
}

/// A window the file does not say how to count is counted as `count`
/// says, and marked as assumed.
fn assume_count(scenario: &mut Scenario, count: Option<crate::scenario::WindowCount>) {
    if let Some(limit) = scenario.context.as_mut().filter(|c| c.count.is_none())
        && count.is_some()
    {
        limit.count = count;
        limit.count_assumed = true;
    }
}

/// Set the provider asked for (`--provider`), or say why the lesson
/// cannot be shown so: where, and what was expected.
fn shown_as(
    scenario: &mut Scenario,
    asked: Option<Provider>,
) -> Result<(), (&'static str, String)> {
    // A lesson that names its provider is written about that provider's
    // shapes (its explanations say `tool_result`, `fc_…`): shown only so.
    if let (Some(pinned), Some(asked)) = (scenario.provider, asked)
        && pinned != asked
    {
        return Err((
            "provider",
            format!(
                "this lesson is written for {} (its explanations describe that API's requests); \
                 expected no --provider, or --provider {}, not --provider {}",
                crate::i18n::provider_name(pinned),
                pinned.code(),
                asked.code()
            ),
        ));
    }
    if asked.is_some() {
        scenario.provider = asked;
    }
    if scenario.harness.answer_with_item_id && scenario.provider() != Provider::Responses {
        return Err((
            "harness.answer_with_item_id",
            format!(
                "answering under the item's id (fc_…) is an OpenAI Responses mistake: only \
                 Responses gives a call two ids; expected \"provider\": \"responses\", not {} \
                 (--provider too)",
                scenario.provider().code()
            ),
        ));
    }
    if let Some(fault) = thinking_fault(scenario) {
        return Err(fault);
    }
    if scenario.host.caches_prompt && scenario.provider() == Provider::Anthropic {
        return Err((
            "host.caches_prompt",
            "Anthropic caches a prompt only up to the cache_control breakpoints a request \
             marks, and this simulator writes none, so every call would read 0 cached tokens; \
             expected \"provider\": \"chat\" or \"responses\" (OpenAI caches without being \
             asked), not anthropic (--provider too)"
                .to_string(),
        ));
    }
    // A streamed reply's reasoning would stream too (its own events);
    // no lesson draws them, so none claims to.
    if scenario.stream && scenario.thinking() != crate::trace::Thinking::Off {
        return Err((
            "stream",
            "a streamed reply with reasoning is not drawn (its reasoning events are not \
             modelled); expected \"stream\": false, or no rule with \"reasoning\""
                .to_string(),
        ));
    }
    Ok(())
}
/// Faults only the run finds that leave it whole: said, and the run shown.
fn run_faults(
    scenario: &Scenario,
    run: &Trace,
    differs: &[engine::Differs],
    rules_differ: Option<&engine::RuleDiffers>,
) -> Vec<(Severity, String, String)> {
    let mut faults = Vec::new();
    if let Some(d) = rules_differ {
        let other = match d.other_rule {
            Some(rule) => format!("model[{rule}]"),
            None => "no rule".to_string(),
        };
        faults.push((
            Severity::Error,
            format!("model[{}]", d.chosen),
            format!(
                "at step {}, model call #{}, model[{}] holds on the context in {} but {} holds on \
                 the context in {}; the run is made once and follows {}, so the {} trace would \
                 show a reply its own context does not call for; expected rules whose \
                 \"contains\" and \"lacks\" texts hold alike in both languages",
                d.step + 1,
                d.model_call,
                d.chosen,
                d.decided.code(),
                other,
                d.other.code(),
                d.decided.code(),
                d.other.code(),
            ),
        ));
    }
    for differ in differs {
        faults.push((
            Severity::Error,
            "context.window".to_string(),
            differs_message(differ),
        ));
    }
    // Faults that leave the run whole: the run is shown, and they are said.
    if run.end != scenario.expect {
        faults.push((
            Severity::Error,
            "expect".to_string(),
            format!(
                "the loop ends {} at step {}, after {} {}, but \"expect\" says {}; \
                 see the steps with `agent-loop-sim trace FILE`",
                run.end.code(),
                run.len(),
                run.model_calls.len(),
                crate::i18n::MODEL_CALL_N.get(run.model_calls.len(), Lang::En),
                scenario.expect.code()
            ),
        ));
    }
    let after_run = [
        interrupt_checks::check_interrupted(scenario, run),
        retry_checks::check_turned_away(scenario, run),
    ];
    for (path, message) in after_run.into_iter().flatten() {
        faults.push((Severity::Error, path, message));
    }
    // One summary per compaction: as many as the host compacts.
    if let Some(crate::scenario::Summaries::Each(list)) =
        scenario.context.as_ref().and_then(|c| c.summary.as_ref())
    {
        let compacts = run.compactions.len();
        let (severity, said) = if compacts > list.len() {
            (Severity::Error, "the later ones reuse the last")
        } else {
            (Severity::Warning, "the rest are never used")
        };
        if compacts != list.len() {
            faults.push((
                severity,
                "context.summary".to_string(),
                format!(
                    "the host compacts {compacts} {} in the run but the list has {} {} ({said}); expected one summary per compaction",
                    if compacts == 1 { "time" } else { "times" },
                    list.len(),
                    if list.len() == 1 { "summary" } else { "summaries" },
                ),
            ));
        }
    }
    faults
}

/// The faults of what the file keys to the run's steps (questions and
/// narration), paths and messages in that order. A question that cannot
/// be asked is left out: the run and the rest of the quiz are still shown
/// (`trace`, `transcript`), the exit code 2.
fn keyed_faults(scenario: &mut Scenario, run: &Trace) -> Vec<(String, String)> {
    let mut faults = place_quiz(scenario, run);
    faults.extend(key_faults(scenario, run));
    faults.extend(unchosen_questions(scenario, run));
    let quiz_faults = checks::check_quiz(scenario, run.len());
    let mut i = 0;
    scenario.quiz.retain(|_| {
        i += 1;
        !quiz_faults.iter().any(|(q, _, _)| *q == i - 1)
    });
    faults.extend(
        quiz_faults
            .into_iter()
            .map(|(_, path, message)| (path, message)),
    );
    faults
}

/// Ask each question keyed by event at its event's step; one whose key
/// names no step is a fault (its path and message), left out of the quiz.
fn place_quiz(scenario: &mut Scenario, run: &Trace) -> Vec<(String, String)> {
    let mut faults = Vec::new();
    let mut unplaced = Vec::new();
    for (i, q) in scenario.quiz.iter_mut().enumerate() {
        if let QuizStep::Key(key) = &q.step {
            match anchors::step_of(key, run) {
                Ok(step) => q.step = QuizStep::Number(step + 1),
                Err(message) => {
                    faults.push((format!("quiz[{i}].step"), message));
                    unplaced.push(i);
                }
            }
        }
    }
    let mut i = 0;
    scenario.quiz.retain(|_| {
        i += 1;
        !unplaced.contains(&(i - 1))
    });
    faults
}

/// What the checks of custom tools, schemas, an interrupt, provider
/// errors and an MCP server find in the file as written: paths and messages.
fn written_faults(scenario: &Scenario) -> Vec<(String, String)> {
    [
        tool_checks::check_custom_tools(scenario),
        schema_checks::check_strict_and_choice(scenario),
        interrupt_checks::check_interrupt(scenario),
        retry_checks::check_provider_errors(scenario),
        mcp_checks::check_mcp(scenario),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// A sub-agent's run ready to show, its narration set as a lesson's is.
fn sub_agent_loaded(ran: sub_agent::Ran) -> std::sync::Arc<Loaded> {
    let sub_agent::Ran {
        scenario,
        mut traces,
    } = ran;
    let (narrated, _) = anchors::resolve(&scenario.narration, &traces[Lang::DEFAULT.index()]);
    for trace in &mut traces {
        narrate(trace, &narrated);
    }
    std::sync::Arc::new(Loaded {
        card: Card::of(&scenario),
        lesson: Some(scenario),
        traces,
        pseudo: None,
        faults: Vec::new(),
        counts: Default::default(),
        sub_agent: None,
    })
}

/// Set the lesson's narration (`anchors::resolve`) on the steps of a
/// trace, in its language.
fn narrate(trace: &mut Trace, narrated: &[(usize, &Text)]) {
    for &(step, text) in narrated {
        // Written only where it changes: the languages' traces share
        // their steps until one does (`trace::Shared`).
        let said = text.get(trace.lang);
        if trace.steps[step].narration.as_deref() != Some(said) {
            trace.steps[step].narration = Some(said.into());
        }
    }
}

/// Where the languages' token counts would compact the context at
/// different model calls: the step, and each language's count.
fn differs_message(d: &engine::Differs) -> String {
    let (decided, other) = (d.decided.code(), d.other.code());
    format!(
        "{}; the run is made once and compacts where {decided}'s counts say, so the \
         {other} trace would show what its own counts do not; expected a window at which both \
         languages compact alike, at the same model calls and removing the same messages \
         (change \"context.window\" or the texts)",
        differs_said(d)
    )
}

/// Where and how the other language's counts decide otherwise.
fn differs_said(d: &engine::Differs) -> String {
    let (decided, other) = (d.decided.code(), d.other.code());
    let [ours, theirs] = d.tokens;
    let (step, call, window) = (d.step + 1, d.model_call, d.window);
    match d.how {
        engine::How::WouldNotCompact => format!(
            "at step {step} the host compacts before model call #{call}: the request is {ours} \
             tokens in {decided}, over the window of {window}, but {theirs} in {other}, within it"
        ),
        engine::How::WouldCompact => format!(
            "at step {step}, model call #{call}, the request is {ours} tokens in {decided}, \
             within the window of {window}, but {theirs} in {other}, over it"
        ),
        engine::How::OtherPlan { removed } => format!(
            "at step {step} the host compacts before model call #{call}, the request is {ours} \
             tokens in {decided} and {theirs} in {other}, over the window of {window}: in \
             {decided} it removes {} {}, but {other}'s counts would remove {}",
            removed[0],
            if removed[0] == 1 {
                "message"
            } else {
                "messages"
            },
            removed[1],
        ),
        engine::How::OverAfter => format!(
            "after the host compacts at step {step}, before model call #{call}, the request is \
             {ours} tokens in {decided}, within the window of {window}, but {theirs} in {other}, \
             still over it"
        ),
    }
}

/// A twin that is not a shipped lesson's name is a lesson file, named
/// relative to the lesson's own file: Some(its path, as `load` reads it)
/// when it exists and passes `check`; None for a shipped name (or no
/// twin); Err when it is neither, or is this lesson, or is faulty.
fn twin_file(scenario: &Scenario, file: &str) -> Result<Option<String>, String> {
    let Some(twin) = scenario.twin.as_deref() else {
        return Ok(None);
    };
    let Err(unknown) = check_twin(scenario) else {
        // A shipped lesson: the same task, or it is no twin.
        let shipped = CATALOG.iter().find(|(name, _)| *name == twin);
        // Parsed only, not run: every load of a lesson looks at its twin.
        if let Some((name, text)) = shipped
            && let Some(other) = errors::parse_all(name, text.as_bytes()).scenario
        {
            same_task(twin, scenario, &other)?;
        }
        return Ok(None);
    };
    // A shipped lesson, or text handed over with no file, has no folder.
    let base = if file.starts_with("<") {
        Path::new("")
    } else {
        Path::new(file).parent().unwrap_or(Path::new(""))
    };
    let path = base.join(twin);
    let shown = path.display().to_string();
    let Ok(bytes) = read_file(&path) else {
        return Err(unknown);
    };
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same(&path, Path::new(file)) {
        return Err(format!(
            "{} is this lesson's own file; expected the same task in another lesson file",
            wording::quoted(twin)
        ));
    }
    match prepare_with(&shown, &bytes, None, false) {
        Ok(loaded) if !loaded.has_errors() => {
            if let Some(other) = &loaded.lesson {
                same_task(twin, scenario, other)?;
            }
            Ok(Some(shown))
        }
        Ok(loaded) => Err(twin_fault(twin, &loaded.faults)),
        Err(faults) => Err(twin_fault(twin, &faults)),
    }
}

/// A twin runs the same task (the same words, the same files at the
/// start) under another harness: Err with what differs.
fn same_task(twin: &str, scenario: &Scenario, other: &Scenario) -> Result<(), String> {
    let differs = if other.task != scenario.task {
        "the tasks"
    } else if other.files != scenario.files {
        "the files at the start"
    } else {
        return Ok(());
    };
    Err(format!(
        "the twin {} is a different task ({differs} differ); expected the same task and files under a correct harness",
        wording::quoted(twin)
    ))
}

/// The twin file's first fault, as `check` would show it.
fn twin_fault(twin: &str, faults: &[Fault]) -> String {
    let first = faults
        .iter()
        .find(|f| f.is_error())
        .map_or(String::new(), Fault::to_string);
    format!(
        "the twin file {} does not pass check: {first}; expected a lesson that runs",
        wording::quoted(twin)
    )
}

/// The scenario with its step numbers (narration keys, quiz steps) read
/// as files written before 2026-11-30 meant them, when a replayed call
/// took two steps, and the warning that says so; None when the run has
/// no replay or a number is past even the old steps.
fn numbered_before_one_step_replays(
    scenario: &Scenario,
    trace: &Trace,
) -> Option<(Scenario, String)> {
    let replays: Vec<usize> = (0..trace.len())
        .filter(|&i| matches!(trace.steps[i].kind, crate::trace::StepKind::Replays { .. }))
        .collect();
    let first = *replays.first()?;
    let old = anchors::steps_before_one_step_replays(trace);
    let mut renumbered = scenario.clone();
    renumbered.narration = anchors::renumber_narration(&scenario.narration, &old)?;
    for q in &mut renumbered.quiz {
        if let QuizStep::Number(n) = q.step {
            q.step = QuizStep::Number(anchors::renumber(n, &old)?);
        }
    }
    for key in &mut renumbered.quiz_steps {
        if let Ok(n) = key.parse::<usize>() {
            *key = anchors::renumber(n, &old)?.to_string();
        }
    }
    let warning = format!(
        "step numbers read as before 2026-11-30, when a call answered from the host's record \
         of its operation id took two steps (executes, result arrives); it takes one now, and \
         the run has {} such {}, the first at step {}; expected the run's step numbers \
         (`agent-loop-sim trace FILE`) or event keys such as ID.result",
        replays.len(),
        if replays.len() == 1 { "call" } else { "calls" },
        first + 1
    );
    Some((renumbered, warning))
}

/// The narration keys and the quiz's steps (keyed as narration is) that
/// name no step of `trace`, or land two on one step: JSON path, message.
fn key_faults(scenario: &Scenario, trace: &Trace) -> Vec<(String, String)> {
    let (_, mut bad) = anchors::resolve(&scenario.narration, trace);
    for (i, key) in scenario.quiz_steps.iter().enumerate() {
        if let Err(message) = anchors::step_of(key, trace) {
            bad.push((format!("quiz_steps[{i}]"), message));
        }
    }
    bad
}

/// The author's questions about steps `quiz_steps` leaves out: never
/// asked, so a fault rather than a silent drop.
fn unchosen_questions(scenario: &Scenario, trace: &Trace) -> Vec<(String, String)> {
    if scenario.quiz_steps.is_empty() {
        return Vec::new();
    }
    let chosen: Vec<usize> = scenario
        .quiz_steps
        .iter()
        .filter_map(|key| anchors::step_of(key, trace).ok())
        .collect();
    scenario
        .quiz
        .iter()
        .enumerate()
        .filter(|(_, q)| !chosen.contains(&q.step.number().saturating_sub(1)))
        .map(|(i, q)| {
            let step = q.step.number();
            (
                format!("quiz[{i}].step"),
                format!(
                    "step {step} is not among quiz_steps, so this question is never asked; expected \"{step}\" in quiz_steps, or another step"
                ),
            )
        })
        .collect()
}

/// The narration and quiz keys that name no step of the run as the file
/// stands. A condition on an undeclared tool never holds, so such a run
/// may stop early ("no rule applies"): the keys are then checked against
/// the steps before it stops, a bad one says where the run stops, and
/// `end`, which names a last step the run never reaches, is not checked.
fn keys_of_the_run_as_it_stands(scenario: &Scenario, screen: &Scenario) -> Vec<(String, String)> {
    match engine::run_to_fault(screen, Lang::Zh, i18n::said) {
        (trace, None) => key_faults(scenario, &trace),
        (trace, Some(_)) if trace.steps.is_empty() => Vec::new(),
        (trace, Some(stop)) => {
            let mut reached = scenario.clone();
            reached.narration.remove("end");
            reached.quiz_steps.retain(|key| key != "end");
            let why = match stop {
                engine::EngineError::NoRuleApplies { model_call } => {
                    format!("no rule of the scripted model applies to model call #{model_call}")
                }
                other => other.to_string(),
            };
            let stops = format!(
                " (the run as the file stands stops at step {}: {why})",
                trace.len()
            );
            key_faults(&reached, &trace)
                .into_iter()
                .map(|(path, message)| (path, message + &stops))
                .collect()
        }
    }
}

/// A fault of the checks after which the file still runs as written: an
/// undeclared tool named by a rule's call (the host refuses it as not
/// offered) or by a condition (it never holds).
fn leaves_the_run_whole(error: &ScenarioError) -> bool {
    let path = error.place.as_deref().unwrap_or("");
    // The place is `line:column at PATH`.
    let path = path.rsplit_once(" at ").map_or(path, |(_, p)| p);
    path.starts_with("model[") && path.ends_with(".tool")
}

/// `harness.drop_reasoning` draws Anthropic's documented 400; it needs a
/// reply with reasoning to drop, and Anthropic. What OpenAI's Responses
/// does with a stateless request that leaves a reasoning item out is not
/// documented, so no run of it is drawn.
fn thinking_fault(scenario: &Scenario) -> Option<(&'static str, String)> {
    if !scenario.harness.drop_reasoning {
        return None;
    }
    if scenario.thinking() == crate::trace::Thinking::Off {
        return Some((
            "harness.drop_reasoning",
            "no rule of the model returns \"reasoning\", so there is none to drop; expected a \
             rule with \"reasoning\""
                .to_string(),
        ));
    }
    (scenario.provider() != Provider::Anthropic).then(|| {
        (
            "harness.drop_reasoning",
            format!(
                "a reply sent back without its reasoning is refused by Anthropic (a thinking \
                 block must open it); what the other APIs do is not documented the same way; \
                 expected \"provider\": \"anthropic\", not {} (--provider too)",
                scenario.provider().code()
            ),
        )
    })
}

/// The traces of every shipped lesson and of every transcript fixture
/// (`tests/transcripts/`), each run's traces together: what tests over
/// every run read.
#[cfg(test)]
pub(crate) fn every_run() -> Vec<Vec<crate::trace::Trace>> {
    let mut runs: Vec<_> = CATALOG
        .iter()
        .map(|(name, _)| load(name).unwrap().traces.to_vec())
        .collect();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/transcripts");
    for file in std::fs::read_dir(dir).unwrap() {
        let path = file.unwrap().path();
        let name = path.to_string_lossy().into_owned();
        if path.is_file()
            && !name.ends_with(".expect.json")
            && let Ok(loaded) = crate::transcript::load(&name, None, false)
        {
            runs.push(loaded.traces.to_vec());
        }
    }
    assert!(runs.len() > 40, "{}", runs.len());
    runs
}
