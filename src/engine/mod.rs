//! The engine: runs the agent loop over a scenario and records a `Trace`.
//!
//! The loop is the real one: assemble the context, ask the scripted model,
//! validate each proposed call, execute the approved ones against the
//! in-memory workspace, pair each result with its call id and append it,
//! and repeat until a reply without calls or the end of the budget.
//!
//! This file is the entry points and the loop (model calls, the provider's
//! rejection, pairing results); `run.rs` the state of a run (`Run`) and how
//! a step or a message is recorded; `host.rs` the host's checks on a
//! proposed call, its record of operation ids, and how it runs a tool for a
//! call; `tools.rs` the built-in tools and the in-memory workspace they act
//! on; `compact.rs` the host's compaction, planned in `plan.rs`;
//! `told.rs` the one run of a lesson told in the other language
//! (`run_once`). `run.rs` and `tools.rs` name no other file of the engine,
//! so the files with `impl Run` blocks take `Run` from there without a
//! cycle.

use std::fmt;

mod compact;
mod count;
pub use count::estimate_tokens;
mod custom;
mod host;
mod ids;
mod interrupt;
mod mcp;
mod plan;
mod policy;
mod retry;
mod run;
mod thinking;
mod told;
mod tools;

pub use custom::call_params;
pub use host::{inside_workspace, validate};
pub use ids::call_id;
pub use policy::{TYPES as SCHEMA_TYPES, derived_op_id, object_refusal, of_type, parsed_object};
pub use run::Words;
pub use told::{Differs, How, RuleDiffers, Told};
pub use tools::BuiltinTool;

use run::Run;
use tools::Workspace;

use crate::recorder::Recorder;
use crate::rules::RuleMatcher;
use crate::scenario::{EndStatus, Lang, Rule, Scenario, Text};
use crate::trace::{
    CallId, Lane, Role, Said, StepKind, TaskOutcome, ToolCall, ToolResult, Trace, Verdict,
};
use crate::wire;

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
    /// The rule chosen at this model call replies as the `tool_choice`
    /// the host sent does not let a model reply.
    ToolChoice {
        model_call: u32,
        rule: usize,
        why: String,
    },
    /// The next request exceeds the scenario's context window even after
    /// the host compacted all it may.
    OverWindow {
        model_call: u32,
        tokens: usize,
        window: usize,
    },
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
            EngineError::ToolChoice {
                model_call,
                rule,
                why,
            } => write!(
                f,
                "model call #{model_call}: rule model[{rule}] {why}; the provider would not \
                 return that reply (expected a rule that obeys \"tool_choice\" to hold here)"
            ),
            EngineError::OverWindow {
                model_call,
                tokens,
                window,
            } => write!(
                f,
                "model call #{model_call}: the request is {tokens} tokens (o200k_base) after the \
                 host compacted all it may, over the window of {window} (expected a larger \
                 \"context.window\", or smaller files and replies)"
            ),
        }
    }
}

impl std::error::Error for EngineError {}

/// Run the scenario's loop once and tell it in every language (`told`):
/// the run is made in the default language, whose token counts decide
/// when the host compacts; `Told::differs` says where another's would not.
pub fn run_once(scenario: &Scenario, words: Words) -> Result<Told, EngineError> {
    let mut run = Run::new(scenario, Lang::DEFAULT, words);
    let end = run.go()?;
    let sources = std::mem::take(&mut run.sources);
    let run = run.finish(end);
    let (mut differs, mut rules_differ) = (Vec::new(), None);
    let mut others = Lang::ALL.map(|lang| {
        (lang != Lang::DEFAULT).then(|| {
            let (trace, d, r) = told::tell(&run, &sources, scenario, lang, words);
            differs.extend(d);
            rules_differ = rules_differ.take().or(r);
            trace
        })
    });
    others[Lang::DEFAULT.index()] = Some(run);
    Ok(Told {
        traces: others.map(|t| t.expect("a trace in every language")),
        differs,
        rules_differ,
    })
}

/// The run `run_once` makes, told in `lang` alone: for a language shown
/// but not written (the pseudo-locale), told only when asked for, so a
/// run shown in a written language does not pay for it. With the trace,
/// where `lang`'s counts or context would decide otherwise (`Told`).
pub fn tell_once(
    scenario: &Scenario,
    lang: Lang,
    words: Words,
) -> Result<(Trace, Vec<Differs>, Option<RuleDiffers>), EngineError> {
    let mut run = Run::new(scenario, Lang::DEFAULT, words);
    let end = run.go()?;
    let sources = std::mem::take(&mut run.sources);
    let run = run.finish(end);
    Ok(told::tell(&run, &sources, scenario, lang, words))
}

/// Run the scenario's loop in one language, deciding on that language's
/// token counts, and record every step.
pub fn run(scenario: &Scenario, lang: Lang, words: Words) -> Result<Trace, EngineError> {
    let mut run = Run::new(scenario, lang, words);
    let end = run.go()?;
    Ok(run.finish(end))
}

/// `run`, and when the loop cannot go on, the steps recorded up to that
/// point with the reason: `check` reads them for the narration keys of a
/// file whose run stops on a fault it reports elsewhere (an undeclared
/// tool in a rule's condition).
pub fn run_to_fault(scenario: &Scenario, lang: Lang, words: Words) -> (Trace, Option<EngineError>) {
    let mut run = Run::new(scenario, lang, words);
    match run.go() {
        Ok(end) => (run.finish(end), None),
        Err(e) => (run.rec.finish(), Some(e)),
    }
}

impl<'a> Run<'a> {
    fn new(scenario: &'a Scenario, lang: Lang, words: Words) -> Self {
        let tools = custom::offered_tools(scenario, lang);
        Run {
            scenario,
            lang,
            words,
            rec: Recorder::new(Trace {
                scenario: scenario.name.clone(),
                title: scenario.title.get(lang).to_string(),
                lang,
                steps: Default::default(),
                messages: Default::default(),
                calls: Default::default(),
                unique_ids: true,
                model_calls: Default::default(),
                files: scenario.files.keys().cloned().collect(),
                file_events: Default::default(),
                tools: tools.into(),
                budget: scenario.budget,
                end: EndStatus::Completed,
                task: TaskOutcome::Answered,
                compactions: Vec::new(),
                window: scenario.context.as_ref().map(|c| c.window),
                window_estimated: scenario
                    .context
                    .as_ref()
                    .is_some_and(|c| c.count == Some(crate::scenario::WindowCount::Estimate)),
                prompt_cache: scenario.host.caches_prompt,
                thinking: scenario.thinking(),
                provider: scenario.provider(),
                system: scenario.system.as_ref().map(|t| t.get(lang).to_string()),
                stream: scenario.stream,
                places: Default::default(),
                recorded: None,
                sub_agents: Default::default(),
                mcp: scenario.mcp.clone(),
            }),
            workspace: Workspace::new(&scenario.files),
            last_write: None,
            last_pass: None,
            final_rule: None,
            rules: RuleMatcher::new(&scenario.model),
            sources: run::Sources::default(),
            held: Vec::new(),
        }
    }

    /// The loop, from the task to its end.
    fn go(&mut self) -> Result<EndStatus, EngineError> {
        let scenario = self.scenario;
        self.mcp_lists();
        self.task_arrives();
        loop {
            if self.rec.trace.steps.len() > MAX_STEPS {
                return Err(EngineError::TooLong);
            }
            if self.rec.messages_size > MAX_CONTEXT_CHARS {
                let model_call = self.rec.counters.model_calls;
                return Err(EngineError::ContextTooLarge { model_call });
            }
            if self.rec.counters.model_calls >= scenario.budget {
                let budget = scenario.budget;
                self.step(
                    StepKind::BudgetExhausted {
                        budget,
                        not_run: Vec::new(),
                    },
                    Some(Lane::Host),
                    Lane::Host,
                );
                return Ok(EndStatus::BudgetExhausted);
            }
            self.compact_if_needed()?;
            let number = self.model_call();
            self.retry_if_turned_away(number);
            if let Some(end) = self.provider_rejects(number) {
                return Ok(end);
            }
            if let Some(end) = self.thinking_rejects(number) {
                return Ok(end);
            }
            let rule = self
                .choose_rule()
                .ok_or(EngineError::NoRuleApplies { model_call: number })?;
            self.obeys_tool_choice(number, rule)?;
            if scenario.stream {
                self.stream(number, rule);
            }
            let end = if rule.calls.is_empty() {
                self.answer(number, rule)
            } else {
                self.propose_and_execute(number, rule)
            };
            if let Some(end) = end {
                return Ok(end);
            }
        }
    }

    /// Real providers refuse a request whose context holds a tool call
    /// without its result, each in its own words (`wire::rejection`).
    /// The model never runs.
    fn provider_rejects(&mut self, number: u32) -> Option<EndStatus> {
        if self.rec.unanswered().is_empty() {
            return None;
        }
        let unanswered = self.rec.unanswered().to_vec();
        // A request can break two rules at once (harness-answers-with-item-id:
        // call_… has no output, and the output names fc_…, which no call
        // has). Which one a provider names first is not documented; the
        // engine names the call without its result, as the step's title
        // says (the other text is quoted in that lesson's about card).
        let error = wire::rejection(&self.rec.trace, &unanswered);
        self.step(
            StepKind::Rejected {
                number,
                unanswered,
                error,
            },
            Some(Lane::Model),
            Lane::Host,
        );
        Some(EndStatus::Rejected)
    }

    fn task_arrives(&mut self) {
        let step = self.current_step();
        let task = self.scenario.task.get(self.lang).to_string();
        let index = self.rec.trace.messages.len();
        self.sources.scripted.push((index, &self.scenario.task));
        self.append(self.message(Role::User, task, step));
        self.step(StepKind::TaskArrives, None, Lane::Host);
    }

    fn model_call(&mut self) -> u32 {
        let number = self.rec.model_call(None);
        if let Some(mc) = self.rec.trace.model_calls.last_mut() {
            mc.tool_choice = self.scenario.tool_choice_at(number);
        }
        number
    }

    /// A provider returns only replies its `tool_choice` allows: under
    /// `none` no call, under `required` at least one, under a named tool
    /// exactly one call of it; and a forced call comes without words
    /// (Anthropic prefills the reply with the call: "Define tools").
    fn obeys_tool_choice(&self, model_call: u32, rule: &Rule) -> Result<(), EngineError> {
        use crate::scenario::ToolChoice;
        let Some(choice) = self.scenario.tool_choice_at(model_call) else {
            return Ok(());
        };
        let why = match &choice {
            ToolChoice::None if !rule.calls.is_empty() => {
                "calls a tool under tool_choice \"none\"".to_string()
            }
            ToolChoice::Required if rule.calls.is_empty() => {
                "answers without a call under tool_choice \"required\"".to_string()
            }
            ToolChoice::Tool(name) if rule.calls.len() != 1 || rule.calls[0].tool != *name => {
                format!("does not make exactly one call of {name:?}, which tool_choice names")
            }
            forced if forced.forces_a_call() && rule.say.is_some() => {
                "has \"say\" words before a forced call (a forced reply is the call alone)"
                    .to_string()
            }
            _ => return Ok(()),
        };
        let rule = self.sources.chosen.last().map_or(0, |(_, r)| *r);
        Err(EngineError::ToolChoice {
            model_call,
            rule,
            why,
        })
    }

    /// The scripted model reads only the context it was sent: at a model
    /// call that is every message appended so far.
    fn choose_rule(&mut self) -> Option<&'a Rule> {
        let rec = &self.rec;
        let number = rec.counters.model_calls;
        let held = rec.trace.messages.slice(rec.held_from..);
        let rule = self.rules.choose(number, held, |id| {
            rec.call(id).expect("a message's call was proposed")
        })?;
        self.sources.chosen.push((number, rule));
        Some(&self.scenario.model[rule])
    }

    /// The reply's generated tokens, and whether it stopped at the limit.
    /// `say`: the reply's words in both languages, if it has any.
    fn set_tokens(&mut self, say: Option<&'a Text>, reply: &str, calls: &[CallId], cut_off: bool) {
        let calls: Vec<&ToolCall> = calls.iter().filter_map(|id| self.rec.call(id)).collect();
        let generated = wire::reply_tokens(reply, &calls);
        self.rec.reply_tokens(Some(generated), cut_off);
        if let Some(say) = say {
            let model_call = self.rec.trace.model_calls.len() - 1;
            self.sources.replies.push((model_call, say));
        }
    }

    /// The chosen reply as its stream: one step for each piece
    /// (`wire::stream`), the model lane sending, the host assembling,
    /// before the step that takes the whole reply.
    fn stream(&mut self, number: u32, rule: &Rule) {
        let has_text = rule
            .say
            .as_ref()
            .is_some_and(|t| !t.get(self.lang).is_empty());
        for piece in 0..wire::stream::piece_count(has_text, rule.calls.len()) {
            self.step(
                StepKind::Streams { number, piece },
                Some(Lane::Model),
                Lane::Host,
            );
        }
    }

    /// A reply without tool calls. Returns how the loop ends, or None when
    /// the host's verification failed and the loop goes on.
    fn answer(&mut self, number: u32, rule: &'a Rule) -> Option<EndStatus> {
        let text = rule
            .say
            .as_ref()
            .map_or("", |t| t.get(self.lang))
            .to_string();
        self.set_tokens(rule.say.as_ref(), &text, &[], rule.cut_off);
        self.final_rule = Some(rule);
        let step = self.current_step();
        if let Some(say) = &rule.say {
            let index = self.rec.trace.messages.len();
            self.sources.scripted.push((index, say));
        }
        let mut message = self.message(Role::Assistant, text, step);
        self.reasoning(rule, &mut message);
        self.append(message);
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
            self.rec.trace.steps[answer].end = Some(EndStatus::VerificationMissing);
            return Some(EndStatus::VerificationMissing);
        }
        let tool = verify.tool.clone();
        let args: Vec<(String, String)> = verify
            .args
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        self.rec.counters.tool_runs += 1;
        self.rec.counters.host_checks += 1;
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
                // `execute` always says a fact; its text is the fallback.
                output: (result.said.clone()).unwrap_or(Said::Tool(
                    crate::trace::ToolSays::Content(result.text.clone()),
                )),
            },
            Some(Lane::Tool),
            Lane::Host,
        );
        if passed {
            self.last_pass = Some(step);
            return Some(EndStatus::Completed);
        }
        // The failure goes back to the model, as the host's own message.
        let said = Said::VerificationFailed {
            tool,
            // `execute` always says a fact; its text is the fallback.
            said: Box::new(
                (result.said).unwrap_or(Said::Tool(crate::trace::ToolSays::Content(result.text))),
            ),
        };
        let (text, canonical) = self.said(&said);
        let mut message = self.message(Role::User, text, step);
        message.is_error = true;
        message.canonical = canonical;
        message.said = Some(said);
        self.append(message);
        self.final_rule = None;
        None
    }

    /// A reply with tool calls: propose, validate, execute, pair, append;
    /// a host that appends in call order appends the reply's results
    /// last, at the step the last of them came.
    fn propose_and_execute(&mut self, number: u32, rule: &'a Rule) -> Option<EndStatus> {
        let end = self.handle_calls(number, rule);
        let mut held = std::mem::take(&mut self.held);
        let last = held.iter().map(|(_, m)| m.step).max();
        held.sort_by_key(|(index, _)| *index);
        for (_, mut message) in held {
            message.step = last.unwrap_or(message.step);
            self.append(message);
        }
        end
    }

    /// Model call `number`'s reply proposes its calls (at step
    /// `proposed`): each gets its id, and its arguments in the order the
    /// tool declares them.
    fn propose_calls(&mut self, number: u32, rule: &Rule, proposed: usize) -> Vec<CallId> {
        let mut ids = Vec::new();
        for spec in &rule.calls {
            let n = self.rec.trace.calls.len() + 1;
            let id = call_id(self.scenario.ids, &self.scenario.name, n);
            // Arguments in the order the tool declares them (path, find,
            // replace), extras such as op_id last, as a reader expects.
            let declared = self.scenario.tools.iter().find(|t| t.name == spec.tool);
            let params = declared.map(custom::param_names).unwrap_or_default();
            let position = |k: &str| params.iter().position(|p| p == k).unwrap_or(usize::MAX);
            let mut typed: Vec<(&String, &serde_json::Value)> = spec.args.iter().collect();
            typed.sort_by_key(|(k, _)| position(k));
            // A value that is not a string (an integer, a list) is sent as
            // the JSON text of the arguments, as the model writes it.
            let raw = spec.arguments.clone().or_else(|| {
                let typed_values = typed.iter().any(|(_, v)| !v.is_string());
                typed_values.then(|| policy::json_text(&typed))
            });
            let mut args: Vec<(String, String)> = typed
                .iter()
                .map(|(k, v)| ((*k).clone(), v.as_str().unwrap_or_default().to_string()))
                .collect();
            // Arguments as the model wrote them: the text stays exactly so.
            if let Some(raw) = &raw {
                args = policy::args_of_raw(raw);
            }
            let mut call =
                ToolCall::proposed(id.clone(), spec.tool.clone(), args, number, proposed);
            call.raw_args = raw;
            call.label = spec.label.clone();
            ids.push(self.rec.propose(call));
        }
        ids
    }

    /// The reply that proposed `ids` (at step `proposed`) appended to the
    /// messages: its words, its calls and its reasoning.
    fn append_reply(&mut self, rule: &'a Rule, ids: &[CallId], proposed: usize) {
        let text = rule
            .say
            .as_ref()
            .map_or("", |t| t.get(self.lang))
            .to_string();
        self.set_tokens(rule.say.as_ref(), &text, ids, rule.cut_off);
        let mut message = self.message(Role::Assistant, text, proposed);
        message.calls = ids.to_vec();
        self.reasoning(rule, &mut message);
        // The bug: the reply's calls are never appended (its words are), so
        // no result is owed; `attach` drops the results too.
        let drop_calls = self.scenario.harness.drop_calls;
        if drop_calls {
            message.calls.clear();
            for id in ids {
                if let Some(i) = self.rec.index_of(id) {
                    self.rec.trace.calls[i].call_dropped = true;
                }
            }
        }
        if !(drop_calls && message.text.is_empty()) {
            if let Some(say) = &rule.say {
                let index = self.rec.trace.messages.len();
                self.sources.scripted.push((index, say));
            }
            self.append(message);
        }
    }

    /// A call whose operation id the host has recorded is answered from
    /// the record, by the host alone: no tool runs, nothing is written.
    /// The approved calls left to run.
    fn replay_recorded(&mut self, approved: Vec<usize>) -> Vec<usize> {
        let mut to_run = Vec::new();
        for index in approved {
            match self.recorded(index) {
                Some((op, result, conflict)) => {
                    let call = self.rec.trace.calls[index].id.clone();
                    let step = self.step(
                        StepKind::Replays {
                            call: call.clone(),
                            op,
                            conflict,
                        },
                        Some(Lane::Host),
                        Lane::Host,
                    );
                    self.attach(index, call, result, step);
                }
                None => to_run.push(index),
            }
        }
        to_run
    }

    /// The host's verdict on each proposed call, a step each: the indices
    /// of the calls it approves (a user asked first where the policy says
    /// so); a refused call gets its refusal as its result.
    fn validate_all(&mut self, ids: &[CallId]) -> Vec<usize> {
        let mut approved = Vec::new();
        for id in ids {
            let index = self.rec.index_of(id).expect("just proposed");
            let verdict = self.verdict(index);
            let step = self.step(
                StepKind::Validates {
                    call: id.clone(),
                    verdict: verdict.clone(),
                },
                Some(Lane::Host),
                Lane::Host,
            );
            self.rec.trace.calls[index].verdict = Some((step, verdict.clone()));
            match verdict {
                Verdict::Approved => approved.push(index),
                Verdict::AwaitsApproval => {
                    if self.ask_user(index) {
                        approved.push(index);
                    }
                }
                Verdict::Refused(refusal) => {
                    // A refusal is a result too: the model reads it, nothing ran.
                    let tool = self.rec.trace.calls[index].tool.clone();
                    let result = self.result(Said::Refusal { refusal, tool }, true);
                    self.attach(index, id.clone(), result, step);
                }
            }
        }
        approved
    }

    fn handle_calls(&mut self, number: u32, rule: &'a Rule) -> Option<EndStatus> {
        let proposed = self.current_step();
        let ids = self.propose_calls(number, rule, proposed);
        self.append_reply(rule, &ids, proposed);
        self.step(
            StepKind::Proposes {
                number,
                calls: ids.clone(),
            },
            Some(Lane::Model),
            Lane::Host,
        );

        // A careful host runs nothing no model call is left to read: it
        // stops here and tells the user what it did not run.
        let budget = self.scenario.budget;
        if self.scenario.host.checks_budget_before_running && number >= budget {
            let not_run = ids.clone();
            let kind = StepKind::BudgetExhausted { budget, not_run };
            let step = self.step(kind, Some(Lane::Host), Lane::Host);
            for id in &ids {
                let index = self.rec.index_of(id).expect("just proposed");
                self.rec.trace.calls[index].not_run = Some(step);
            }
            return Some(EndStatus::BudgetExhausted);
        }

        // The host decides on each call before anything runs.
        let approved = self.validate_all(&ids);

        let approved = self.replay_recorded(approved);
        if approved.is_empty() {
            return None;
        }

        self.rec.counters.tool_runs += approved.len() as u32;
        let started = self.step(
            StepKind::Executes {
                calls: approved
                    .iter()
                    .map(|&i| self.rec.trace.calls[i].id.clone())
                    .collect(),
            },
            Some(Lane::Host),
            Lane::Tool,
        );
        for &i in &approved {
            self.rec.trace.calls[i].started = Some(started);
        }

        // Results arrive in order of how long each tool takes.
        let mut arrival = approved.clone();
        let delay_of = |i: usize| {
            let position = ids.iter().position(|id| *id == self.rec.trace.calls[i].id);
            position.map_or(0, |p| rule.calls[p].delay)
        };
        arrival.sort_by_key(|&i| delay_of(i));

        for (k, &index) in arrival.iter().enumerate() {
            if self.interrupts_at(index) {
                self.interrupt(&arrival[k..]);
                return None;
            }
            let (tool, args) = {
                let call = &self.rec.trace.calls[index];
                (call.tool.clone(), call.run_args())
            };
            let step = self.current_step();
            let result = self.run_tool(&tool, &args, step);
            let result = self.note_edit(index, result);
            let id = self.rec.trace.calls[index].id.clone();
            // The bug: attach the k-th arrival to the k-th call asked for.
            let paired_to = if self.scenario.harness.pair_by_order {
                self.rec.trace.calls[approved[k]].id.clone()
            } else {
                id.clone()
            };
            let is_error = result.is_error;
            self.attach(index, paired_to, result, step);
            self.step(
                StepKind::ResultArrives { call: id.clone() },
                Some(Lane::Tool),
                Lane::Host,
            );
            if is_error && self.scenario.harness.crash_on_tool_error {
                self.step(StepKind::Crashes { call: id }, Some(Lane::Host), Lane::Host);
                return Some(EndStatus::Crashed);
            }
        }
        None
    }

    /// Attach a result to a call under `paired_to` and, unless the
    /// harness drops results, append it to the messages.
    fn attach(&mut self, index: usize, paired_to: CallId, result: ToolResult, step: usize) {
        let harness = self.scenario.harness;
        let appended = !harness.drop_results && !harness.drop_calls;
        // The bug: the item's own id where the API wants the call's id.
        let paired_to = if self.scenario.harness.answer_with_item_id {
            CallId(wire::item_id(&paired_to).into())
        } else {
            paired_to
        };
        if appended && self.scenario.host.results_in_call_order {
            let message = self.rec.answer_held(index, paired_to, result, step);
            self.held.push((index, message));
        } else {
            self.rec.answer(index, paired_to, result, step, appended);
        }
    }

    fn finish(self, end: EndStatus) -> Trace {
        let checked = matches!((self.last_write, self.last_pass), (Some(w), Some(p)) if p > w);
        let task = match end {
            EndStatus::Completed | EndStatus::VerificationMissing => {
                if self.last_write.is_some() {
                    if checked {
                        TaskOutcome::Verified
                    } else {
                        TaskOutcome::Unverified
                    }
                } else if self.final_rule.and_then(|r| r.task_done) == Some(false) {
                    TaskOutcome::NotDone
                } else {
                    TaskOutcome::Answered
                }
            }
            EndStatus::BudgetExhausted | EndStatus::Rejected | EndStatus::Crashed => {
                TaskOutcome::NotDone
            }
        };
        let mut rec = self.rec;
        rec.end(end);
        rec.trace.task = task;
        rec.finish()
    }
}

#[cfg(test)]
mod tests {
    /// The engine records facts (`Said`); their wording is i18n's, handed
    /// in as `Words`: no file of the engine names the catalogue.
    #[test]
    fn the_engine_imports_no_wording() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine");
        // Spelled in two parts so this test does not find itself.
        let catalogue = ["i18", "n"].concat();
        let mut files = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            files += 1;
            for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
                assert!(!line.contains(&catalogue), "{}: {line}", path.display());
            }
        }
        assert!(files >= 7, "{files} files in {}", dir.display());
    }
}
