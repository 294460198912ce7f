//! The engine: runs the agent loop over a scenario and records a `Trace`.
//!
//! The loop is the real one: assemble the context, ask the scripted model,
//! validate each proposed call, execute the approved ones against the
//! in-memory workspace, pair each result with its call id and append it,
//! and repeat until a reply without calls or the end of the budget.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use crate::rules::RuleMatcher;
use crate::scenario::{EndStatus, Lang, Rule, Scenario, ToolDef};
use crate::trace::{
    CallId, Counters, FileChange, FileEvent, Lane, Message, ModelCall, OfferedTool, Refusal, Role,
    Step, StepKind, ToolCall, ToolResult, Trace, Verdict,
};

/// Tools the engine can execute. Offered tools must be one of these.
pub const BUILTIN_TOOLS: [&str; 5] = [
    "read_file",
    "list_files",
    "write_file",
    "patch_file",
    "run_tests",
];

/// The arguments each built-in tool reads. `op_id` is accepted on any call
/// besides these: it is the host's, not the tool's.
pub fn builtin_params(tool: &str) -> Option<&'static [&'static str]> {
    match tool {
        "read_file" => Some(&["path"]),
        "list_files" => Some(&[]),
        "write_file" => Some(&["path", "content"]),
        "patch_file" => Some(&["path", "find", "replace"]),
        "run_tests" => Some(&[]),
        _ => None,
    }
}

/// Past this many steps the run is refused rather than drawn.
pub const MAX_STEPS: usize = 200_000;

/// Past this many characters of messages the run is refused: every result
/// is kept in the trace, so a loop re-reading a big file would eat memory.
pub const MAX_CONTEXT_CHARS: usize = 4_000_000;

/// Why a scenario could not be run to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// No rule of the scripted model holds for the context of this call.
    NoRuleApplies { model_call: u32 },
    /// The run grew past `MAX_STEPS`.
    TooLong,
    /// The messages grew past `MAX_CONTEXT_CHARS`.
    ContextTooLarge { model_call: u32 },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::NoRuleApplies { model_call } => write!(
                f,
                "model call #{model_call}: no rule of the scripted model applies to the context it was sent \
                 (expected a last rule without \"when\", or a condition that holds)"
            ),
            EngineError::TooLong => write!(
                f,
                "the run is longer than {MAX_STEPS} steps (expected a loop that ends: \
                 lower \"budget\" or give the model a rule that answers)"
            ),
            EngineError::ContextTooLarge { model_call } => write!(
                f,
                "after model call #{model_call} the messages hold more than {MAX_CONTEXT_CHARS} \
                 characters (expected a loop that ends before the context grows that big: \
                 lower \"budget\" or use smaller files)"
            ),
        }
    }
}

impl std::error::Error for EngineError {}

/// Run the scenario's loop in one language and record every step.
pub fn run(scenario: &Scenario, lang: Lang) -> Result<Trace, EngineError> {
    let mut run = Run::new(scenario, lang);
    run.task_arrives();
    loop {
        if run.trace.steps.len() > MAX_STEPS {
            return Err(EngineError::TooLong);
        }
        if run.messages_size > MAX_CONTEXT_CHARS {
            let model_call = run.counters.model_calls;
            return Err(EngineError::ContextTooLarge { model_call });
        }
        if run.counters.model_calls >= scenario.budget {
            let budget = scenario.budget;
            run.step(
                StepKind::BudgetExhausted { budget },
                Some(Lane::Host),
                Lane::Host,
            );
            return Ok(run.finish(EndStatus::BudgetExhausted));
        }
        let number = run.model_call();
        let rule = run
            .choose_rule()
            .ok_or(EngineError::NoRuleApplies { model_call: number })?;
        if rule.calls.is_empty() {
            if let Some(end) = run.answer(number, rule) {
                return Ok(run.finish(end));
            }
        } else if let Some(end) = run.propose_and_execute(number, rule) {
            return Ok(run.finish(end));
        }
    }
}

struct Run<'a> {
    scenario: &'a Scenario,
    lang: Lang,
    trace: Trace,
    counters: Counters,
    workspace: Workspace,
    /// Call id → index in `trace.calls`, so rules need no linear search.
    call_index: HashMap<CallId, usize>,
    /// Running size of all messages appended so far.
    messages_size: usize,
    tools_size: usize,
    last_write: Option<usize>,
    last_pass: Option<usize>,
    /// Which rule of the scripted model holds (see `crate::rules`).
    rules: RuleMatcher<'a>,
}

impl<'a> Run<'a> {
    fn new(scenario: &'a Scenario, lang: Lang) -> Self {
        let tools: Vec<OfferedTool> = scenario
            .tools
            .iter()
            .filter(|t| t.offered)
            .map(|t| OfferedTool {
                name: t.name.clone(),
                params: t.params.clone(),
                description: t.description.get(lang).to_string(),
            })
            .collect();
        let tools_size = tools
            .iter()
            .map(|t| t.signature().chars().count() + t.description.chars().count())
            .sum();
        Run {
            scenario,
            lang,
            trace: Trace {
                scenario: scenario.name.clone(),
                title: scenario.title.get(lang).to_string(),
                lang,
                steps: Vec::new(),
                messages: Vec::new(),
                calls: Vec::new(),
                model_calls: Vec::new(),
                files: scenario.files.keys().cloned().collect(),
                file_events: Vec::new(),
                tools,
                budget: scenario.budget,
                end: EndStatus::Completed,
            },
            counters: Counters::default(),
            workspace: Workspace::new(&scenario.files),
            call_index: HashMap::new(),
            messages_size: 0,
            tools_size,
            last_write: None,
            last_pass: None,
            rules: RuleMatcher::new(&scenario.model),
        }
    }

    /// Record a step; returns its index.
    fn step(&mut self, kind: StepKind, from: Option<Lane>, to: Lane) -> usize {
        let index = self.trace.steps.len();
        let narration = self
            .scenario
            .narration
            .get(&(index + 1).to_string())
            .map(|t| t.get(self.lang).to_string());
        self.trace.steps.push(Step {
            kind,
            from,
            to,
            counters: self.counters,
            model_call: self.trace.model_calls.len().checked_sub(1),
            end: None,
            narration,
        });
        index
    }

    fn current_step(&self) -> usize {
        self.trace.steps.len()
    }

    fn append(&mut self, mut message: Message) {
        message.size = message.text.chars().count()
            + message.call_id.as_ref().map_or(0, |id| id.0.len())
            + message
                .calls
                .iter()
                .map(|id| {
                    let call = &self.trace.calls[self.call_index[id]];
                    id.0.len() + call.tool.len() + call.args_text().chars().count()
                })
                .sum::<usize>();
        self.messages_size += message.size;
        self.trace.messages.push(message);
    }

    fn task_arrives(&mut self) {
        let step = self.current_step();
        self.append(Message {
            role: Role::User,
            text: self.scenario.task.get(self.lang).to_string(),
            calls: Vec::new(),
            call_id: None,
            is_error: false,
            step,
            size: 0,
        });
        self.step(StepKind::TaskArrives, None, Lane::Host);
    }

    fn model_call(&mut self) -> u32 {
        self.counters.model_calls += 1;
        let number = self.counters.model_calls;
        let context_size = self.messages_size + self.tools_size;
        self.counters.context_size = context_size;
        self.trace.model_calls.push(ModelCall {
            number,
            step: self.current_step(),
            context_len: self.trace.messages.len(),
            context_size,
            tokens: 0,
        });
        self.step(
            StepKind::ModelCall { number },
            Some(Lane::Host),
            Lane::Model,
        );
        number
    }

    /// The scripted model reads only the context it was sent: at a model
    /// call that is every message appended so far.
    fn choose_rule(&mut self) -> Option<&'a Rule> {
        let (calls, index) = (&self.trace.calls, &self.call_index);
        let rule = self
            .rules
            .choose(&self.trace.messages, |id| &calls[index[id]])?;
        Some(&self.scenario.model[rule])
    }

    fn set_tokens(&mut self, reply: &str, calls: &[CallId]) {
        let mut generated = estimate_tokens(reply);
        for id in calls {
            let call = &self.trace.calls[self.call_index[id]];
            generated += estimate_tokens(&call.tool) + estimate_tokens(&call.args_text()) + 1;
        }
        if let Some(last) = self.trace.model_calls.last_mut() {
            last.tokens = generated;
        }
    }

    /// A reply without tool calls. Returns how the loop ends, or None when
    /// the host's verification failed and the loop goes on.
    fn answer(&mut self, number: u32, rule: &Rule) -> Option<EndStatus> {
        let text = rule
            .say
            .as_ref()
            .map_or("", |t| t.get(self.lang))
            .to_string();
        self.set_tokens(&text, &[]);
        let step = self.current_step();
        self.append(Message {
            role: Role::Assistant,
            text,
            calls: Vec::new(),
            call_id: None,
            is_error: false,
            step,
            size: 0,
        });
        let answer = self.step(StepKind::Answers { number }, Some(Lane::Model), Lane::Host);
        let unverified_change = match (self.last_write, self.last_pass) {
            (Some(w), Some(p)) => p < w,
            (Some(_), None) => true,
            (None, _) => false,
        };
        let Some(verify) = self.scenario.verify.as_ref().filter(|_| unverified_change) else {
            return Some(EndStatus::Completed);
        };
        if self.scenario.harness.trust_done {
            self.trace.steps[answer].end = Some(EndStatus::VerificationMissing);
            return Some(EndStatus::VerificationMissing);
        }
        let tool = verify.tool.clone();
        let args: Vec<(String, String)> = verify
            .args
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        self.counters.tool_runs += 1;
        self.step(
            StepKind::Verifies { tool: tool.clone() },
            Some(Lane::Host),
            Lane::Tool,
        );
        let result = self.execute(&tool, &args);
        let passed = !result.is_error;
        let step = self.step(
            StepKind::Verified {
                passed,
                output: result.text.clone(),
            },
            Some(Lane::Tool),
            Lane::Host,
        );
        if passed {
            self.last_pass = Some(step);
            return Some(EndStatus::Completed);
        }
        // The failure goes back to the model, as the host's own message.
        self.append(Message {
            role: Role::User,
            text: format!("verification failed ({tool}): {}", result.text),
            calls: Vec::new(),
            call_id: None,
            is_error: true,
            step,
            size: 0,
        });
        None
    }

    /// A reply with tool calls: propose, validate, execute, pair, append.
    fn propose_and_execute(&mut self, number: u32, rule: &Rule) -> Option<EndStatus> {
        let proposed = self.current_step();
        let mut ids = Vec::new();
        for spec in &rule.calls {
            let id = CallId(format!("call_{}", self.trace.calls.len() + 1));
            self.call_index.insert(id.clone(), self.trace.calls.len());
            // Arguments in the order the tool declares them (path, find,
            // replace), extras such as op_id last, as a reader expects.
            let declared = self.scenario.tools.iter().find(|t| t.name == spec.tool);
            let position = |k: &str| {
                declared
                    .and_then(|t| t.params.iter().position(|p| p == k))
                    .unwrap_or(usize::MAX)
            };
            let mut args: Vec<(String, String)> = spec
                .args
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            args.sort_by_key(|(k, _)| position(k));
            self.trace.calls.push(ToolCall {
                id: id.clone(),
                tool: spec.tool.clone(),
                args,
                model_call: number,
                proposed,
                verdict: None,
                started: None,
                finished: None,
                result: None,
                paired_to: None,
                appended: false,
            });
            ids.push(id);
        }
        let text = rule
            .say
            .as_ref()
            .map_or("", |t| t.get(self.lang))
            .to_string();
        self.set_tokens(&text, &ids);
        self.append(Message {
            role: Role::Assistant,
            text,
            calls: ids.clone(),
            call_id: None,
            is_error: false,
            step: proposed,
            size: 0,
        });
        self.step(
            StepKind::Proposes {
                number,
                calls: ids.clone(),
            },
            Some(Lane::Model),
            Lane::Host,
        );

        // The host decides on each call before anything runs.
        let mut approved = Vec::new();
        for id in &ids {
            let index = self.call_index[id];
            let verdict = validate(&self.scenario.tools, &self.trace.calls[index]);
            let step = self.step(
                StepKind::Validates {
                    call: id.clone(),
                    verdict: verdict.clone(),
                },
                Some(Lane::Host),
                Lane::Host,
            );
            self.trace.calls[index].verdict = Some((step, verdict.clone()));
            match verdict {
                Verdict::Approved => approved.push(index),
                Verdict::Refused(refusal) => {
                    // A refusal is a result too: the model reads it, nothing ran.
                    let text = refusal.message(&self.trace.calls[index].tool);
                    let call = &mut self.trace.calls[index];
                    call.finished = Some(step);
                    call.paired_to = Some(id.clone());
                    call.appended = !self.scenario.harness.drop_results;
                    call.result = Some(ToolResult {
                        text: text.clone(),
                        is_error: true,
                        replayed: false,
                    });
                    if call.appended {
                        self.append(Message {
                            role: Role::Tool,
                            text,
                            calls: Vec::new(),
                            call_id: Some(id.clone()),
                            is_error: true,
                            step,
                            size: 0,
                        });
                    }
                }
            }
        }
        if approved.is_empty() {
            return None;
        }

        self.counters.tool_runs += approved.len() as u32;
        let started = self.step(
            StepKind::Executes {
                calls: approved
                    .iter()
                    .map(|&i| self.trace.calls[i].id.clone())
                    .collect(),
            },
            Some(Lane::Host),
            Lane::Tool,
        );
        for &i in &approved {
            self.trace.calls[i].started = Some(started);
        }

        // Results arrive in order of how long each tool takes.
        let mut arrival = approved.clone();
        let delay_of = |i: usize| {
            let position = ids.iter().position(|id| *id == self.trace.calls[i].id);
            position.map_or(0, |p| rule.calls[p].delay)
        };
        arrival.sort_by_key(|&i| delay_of(i));

        for (k, &index) in arrival.iter().enumerate() {
            let (tool, args) = {
                let call = &self.trace.calls[index];
                (call.tool.clone(), call.args.clone())
            };
            let step = self.current_step();
            let result = self.run_tool(&tool, &args, step);
            let id = self.trace.calls[index].id.clone();
            // The bug: attach the k-th arrival to the k-th call asked for.
            let paired_to = if self.scenario.harness.pair_by_order {
                self.trace.calls[approved[k]].id.clone()
            } else {
                id.clone()
            };
            let appended = !self.scenario.harness.drop_results;
            {
                let call = &mut self.trace.calls[index];
                call.finished = Some(step);
                call.result = Some(result.clone());
                call.paired_to = Some(paired_to.clone());
                call.appended = appended;
            }
            if appended {
                self.append(Message {
                    role: Role::Tool,
                    text: result.text.clone(),
                    calls: Vec::new(),
                    call_id: Some(paired_to),
                    is_error: result.is_error,
                    step,
                    size: 0,
                });
            }
            self.step(
                StepKind::ResultArrives { call: id.clone() },
                Some(Lane::Tool),
                Lane::Host,
            );
            if result.is_error && self.scenario.harness.crash_on_tool_error {
                self.step(StepKind::Crashes { call: id }, Some(Lane::Host), Lane::Host);
                return Some(EndStatus::Crashed);
            }
        }
        None
    }

    /// Run a tool for a model's call, honouring operation ids, and record
    /// what it did to the workspace at `step`.
    fn run_tool(&mut self, tool: &str, args: &[(String, String)], step: usize) -> ToolResult {
        let op_id = arg(args, "op_id").map(str::to_string);
        if let Some(earlier) = op_id.as_ref().and_then(|op| self.workspace.ops.get(op)) {
            return ToolResult {
                text: earlier.text.clone(),
                is_error: earlier.is_error,
                replayed: true,
            };
        }
        let result = self.execute(tool, args);
        if let Some(op) = op_id {
            self.workspace.ops.insert(op, result.clone());
        }
        if tool == self.verify_tool() && !result.is_error {
            self.last_pass = Some(step);
        }
        result
    }

    fn verify_tool(&self) -> &str {
        self.scenario
            .verify
            .as_ref()
            .map_or("", |v| v.tool.as_str())
    }

    /// Execute a built-in tool against the in-memory workspace.
    fn execute(&mut self, tool: &str, args: &[(String, String)]) -> ToolResult {
        let step = self.current_step();
        let outcome = match tool {
            "read_file" => self.workspace.read(arg(args, "path").unwrap_or("")),
            "list_files" => Ok(self
                .workspace
                .files
                .keys()
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")),
            "write_file" => self.workspace.write(
                arg(args, "path").unwrap_or(""),
                arg(args, "content").unwrap_or(""),
            ),
            "patch_file" => self.workspace.patch(
                arg(args, "path").unwrap_or(""),
                arg(args, "find").unwrap_or(""),
                arg(args, "replace").unwrap_or(""),
            ),
            "run_tests" => {
                let def = self.scenario.tools.iter().find(|t| t.name == tool);
                self.workspace.test(def.map_or(&[][..], |d| &d.checks))
            }
            other => Err(format!("error: no tool named \"{other}\"")),
        };
        for (path, change) in self.workspace.events.drain(..) {
            if matches!(change, FileChange::Written { .. }) {
                self.counters.writes += 1;
                self.last_write = Some(step);
                if !self.trace.files.contains(&path) {
                    self.trace.files.push(path.clone());
                }
            }
            self.trace
                .file_events
                .push(FileEvent { step, path, change });
        }
        match outcome {
            Ok(text) => ToolResult {
                text,
                is_error: false,
                replayed: false,
            },
            Err(text) => ToolResult {
                text,
                is_error: true,
                replayed: false,
            },
        }
    }

    fn finish(mut self, end: EndStatus) -> Trace {
        if let Some(last) = self.trace.steps.last_mut() {
            last.end = Some(end);
        }
        self.trace.end = end;
        self.trace
    }
}

fn arg<'a>(args: &'a [(String, String)], name: &str) -> Option<&'a str> {
    args.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// The host's checks on a proposed call: it must be offered, carry exactly
/// the declared arguments, and stay inside the workspace.
pub fn validate(tools: &[ToolDef], call: &ToolCall) -> Verdict {
    let Some(def) = tools.iter().find(|t| t.name == call.tool && t.offered) else {
        return Verdict::Refused(Refusal::NotOffered);
    };
    // op_id is the host's idempotency key, accepted on any tool.
    if let Some((k, _)) = call
        .args
        .iter()
        .find(|(k, _)| k != "op_id" && !def.params.contains(k))
    {
        return Verdict::Refused(Refusal::UnknownArg(k.clone()));
    }
    if let Some(p) = def
        .params
        .iter()
        .find(|p| *p != "op_id" && !call.args.iter().any(|(k, _)| k == *p))
    {
        return Verdict::Refused(Refusal::MissingArg(p.clone()));
    }
    if let Some(path) = arg(&call.args, "path").filter(|p| !inside_workspace(p)) {
        return Verdict::Refused(Refusal::OutsideWorkspace(path.to_string()));
    }
    Verdict::Approved
}

/// A relative path that never climbs out with `..`.
pub fn inside_workspace(path: &str) -> bool {
    !path.is_empty()
        && !path.starts_with('/')
        && !path.starts_with('~')
        && !path.contains('\\')
        && !path.split('/').any(|part| part == "..")
}

/// A rough, deterministic token count: about four ASCII characters a token,
/// one token per CJK character. Labelled as an estimate wherever shown.
pub fn estimate_tokens(s: &str) -> usize {
    let ascii = s.chars().filter(char::is_ascii).count();
    let other = s.chars().count() - ascii;
    ascii.div_ceil(4) + other
}

/// The in-memory files, with a version per file, and the results of
/// operation ids already applied.
struct Workspace {
    files: BTreeMap<String, (String, u32)>,
    ops: HashMap<String, ToolResult>,
    events: Vec<(String, FileChange)>,
}

impl Workspace {
    fn new(files: &BTreeMap<String, String>) -> Self {
        Workspace {
            files: files
                .iter()
                .map(|(k, v)| (k.clone(), (v.clone(), 1)))
                .collect(),
            ops: HashMap::new(),
            events: Vec::new(),
        }
    }

    fn read(&mut self, path: &str) -> Result<String, String> {
        let (content, _) = self
            .files
            .get(path)
            .ok_or_else(|| format!("error: no such file: {path}"))?;
        self.events.push((path.to_string(), FileChange::Read));
        Ok(content.clone())
    }

    fn write(&mut self, path: &str, content: &str) -> Result<String, String> {
        let entry = self
            .files
            .entry(path.to_string())
            .or_insert((String::new(), 0));
        entry.0 = content.to_string();
        entry.1 += 1;
        let version = entry.1;
        self.events
            .push((path.to_string(), FileChange::Written { version }));
        Ok(format!("wrote {path} (now v{version})"))
    }

    fn patch(&mut self, path: &str, find: &str, replace: &str) -> Result<String, String> {
        let (content, version) = self
            .files
            .get_mut(path)
            .ok_or_else(|| format!("error: no such file: {path}"))?;
        if find.is_empty() || !content.contains(find) {
            return Err(format!("error: text to replace not found in {path}"));
        }
        *content = content.replacen(find, replace, 1);
        *version += 1;
        let version = *version;
        self.events
            .push((path.to_string(), FileChange::Written { version }));
        Ok(format!("patched {path} (now v{version})"))
    }

    fn test(&mut self, checks: &[crate::scenario::FileCheck]) -> Result<String, String> {
        for check in checks {
            let ok = self
                .files
                .get(&check.path)
                .is_some_and(|(c, _)| c.contains(&check.contains));
            if !ok {
                return Err(format!(
                    "FAILED: {} does not contain {:?}",
                    check.path, check.contains
                ));
            }
        }
        Ok(format!(
            "passed: {} of {} checks",
            checks.len(),
            checks.len()
        ))
    }
}
