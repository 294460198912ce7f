//! Predict, then reveal: before a step is shown, a question about it with
//! two to four choices, made from the trace (so every scenario and every
//! replayed transcript has them) or written by the scenario's author.
//!
//! Pure: the questions are a function of the trace and the scenario's own
//! questions; `Quiz` is the part of the app's state that remembers what was
//! asked and answered. No drawing here (see `view/quiz.rs`).
//!
//! Long because a third of it is the unit tests that work out each question's
//! answer from the trace apart from the generator.

use std::collections::BTreeMap;

use crate::i18n;
use crate::scenario::{Lang, QuizItem};
use crate::trace::{CallId, Lane, Pairing, Refusal, Role, Source, StepKind, Trace, Verdict};

/// What a question asks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Who sends the step's message: a lane, the user, the provider's API.
    WhoActs,
    /// Which call id the host attaches a returning result to.
    WhichCall,
    /// Whether the loop goes on after a model reply (or a host decision),
    /// and why.
    LoopGoesOn,
    /// Which messages were appended since the previous model call.
    NewInContext,
    /// What the host does with a proposed call before anything runs.
    HostDecides,
    /// What the model's first reply with calls holds: a request, not the
    /// file.
    ReplyHolds,
    /// Who runs an approved call, and when the model sees what it gives.
    WhoRuns,
    /// A question the scenario's author wrote (`quiz` in the JSON).
    Author,
}

/// A question about step `step`, asked before it is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    /// The step asked about (0-based index into the trace).
    pub step: usize,
    pub kind: Kind,
    pub prompt: String,
    /// Two to four, distinct.
    pub choices: Vec<String>,
    /// The right choice (0-based).
    pub answer: usize,
    /// The author's reason, for an authored question. A generated
    /// question is explained by the step's own explanation.
    pub why: Option<String>,
}

/// A choice before it is put into words: comparing these (not their
/// texts) keeps the choices distinct in every language alike.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Choice {
    Source(Source),
    /// A call id, with its tool; `None`: the result is not appended at all.
    AttachedTo(Option<CallId>),
    Loop(LoopMove),
    /// The messages appended since the previous model call, in order.
    Appended(Vec<New>),
    /// The misconception that the model keeps what it saw before.
    NothingNew,
    Host(HostMove),
    Reply(ReplyHolds),
    Runs(RunMove),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReplyHolds {
    /// Tool calls: names and arguments, a request; nothing has run.
    Request,
    /// The misconception that the reply carries the tool's output.
    Output,
    /// The misconception that the model ran the tool itself.
    ModelRan,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RunMove {
    /// The host has the Tool lane run it; the model sees the result only
    /// in the context of its next call.
    HostRuns,
    /// The misconception that the model runs its own calls.
    ModelRuns,
    /// The misconception that the result goes to the model at once.
    StraightToModel,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LoopMove {
    /// The reply has tool calls and every one of them runs.
    RunsTools,
    /// The reply has tool calls; each gets a result, but not every one
    /// runs (refused, denied by the user, answered from a record).
    AnswersEach,
    Ends,
    VerifiesFirst,
    BudgetStops,
    /// A careful host stops before running the last reply's calls.
    /// (The calls are the step's `not_run`.)
    BudgetStopsUnrun,
    CallsAgain(u32),
    ProviderRejects(u32),
    Crashes,
    ErrorAsResult,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum New {
    User,
    Reply(Vec<CallId>),
    Result(Option<CallId>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HostMove {
    /// With `path`: the call has a `path`, and the workspace rule passed.
    Approves {
        path: bool,
    },
    NotOffered,
    BadArgs,
    Outside,
    Replays,
    /// The misconception that a repeated operation id runs again.
    RunsAgain,
    OpConflict,
    NotAuthorised,
    AsksUser,
}

/// The question the simulator asks before step `index` of a scenario's
/// run: `question`, on the steps the author's `quiz_steps` names (all of
/// them when it names none).
pub fn asked(loaded: &crate::load::Loaded, trace: &Trace, index: usize) -> Option<Question> {
    let Some(lesson) = &loaded.lesson else {
        // A transcript has no author's questions: the generated ones.
        return question(trace, &[], index);
    };
    let marked = |key: &String| crate::load::step_of_key(key, trace) == Ok(index);
    if !lesson.quiz_steps.is_empty() && !lesson.quiz_steps.iter().any(marked) {
        return None;
    }
    question(trace, &lesson.quiz, index)
}

/// The question asked before step `index` is shown, if any. Step 1 is on
/// the screen before anything can be asked, so it has none.
pub fn question(trace: &Trace, authored: &[QuizItem], index: usize) -> Option<Question> {
    if index == 0 || index >= trace.len() {
        return None;
    }
    let lang = trace.lang;
    if let Some(item) = authored.iter().find(|q| q.step.number() == index + 1) {
        return Some(Question {
            step: index,
            kind: Kind::Author,
            prompt: item.question.get(lang).to_string(),
            choices: item
                .choices
                .iter()
                .map(|c| c.get(lang).to_string())
                .collect(),
            answer: item.answer.saturating_sub(1),
            why: item.why.as_ref().map(|w| w.get(lang).to_string()),
        });
    }
    // What a user will answer cannot be predicted from the run: not asked.
    if matches!(trace.steps[index].kind, StepKind::UserDecides { .. }) {
        return None;
    }
    let (kind, correct, others) = generated(trace, index)
        .filter(|(_, correct, others)| distinct(correct, others).len() > 1)
        .unwrap_or_else(|| who_acts(trace, index));
    let mut choices = distinct(&correct, &others);
    choices.truncate(4);
    let answer = place(&trace.scenario, index, choices.len());
    let first = choices.remove(0);
    choices.insert(answer, first);
    Some(Question {
        step: index,
        kind,
        prompt: prompt(trace, index, kind),
        choices: choices
            .iter()
            .map(|c| words(trace, index, c, lang))
            .collect(),
        answer,
        why: None,
    })
}

/// The right choice first, then the distractors that differ from it and
/// from each other.
fn distinct(correct: &Choice, others: &[Choice]) -> Vec<Choice> {
    let mut out = vec![correct.clone()];
    for c in others {
        if !out.contains(c) {
            out.push(c.clone());
        }
    }
    out
}

/// Where the right choice goes among `n`: a small hash of the scenario and
/// the step, so it moves from step to step, the same on every run and in
/// every language.
fn place(scenario: &str, index: usize, n: usize) -> usize {
    // FNV-1a.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in scenario.bytes().chain((index as u64).to_le_bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h % n.max(1) as u64) as usize
}

type Draft = (Kind, Choice, Vec<Choice>);

/// The most instructive question for the step's kind, if it has one.
fn generated(trace: &Trace, index: usize) -> Option<Draft> {
    let step = &trace.steps[index];
    match &step.kind {
        StepKind::ModelCall { number } if *number > 1 => new_in_context(trace, index),
        // The first reply with calls: what it holds (a request), rather
        // than whether the loop goes on, which later replies ask.
        StepKind::Proposes { number: 1, calls } if calls.len() == 1 => Some((
            Kind::ReplyHolds,
            Choice::Reply(ReplyHolds::Request),
            vec![
                Choice::Reply(ReplyHolds::Output),
                Choice::Reply(ReplyHolds::ModelRan),
            ],
        )),
        // Asked only where the model does see the result on a later call
        // (not where a harness drops it, crashes, or the budget ends first).
        StepKind::Executes { calls } if calls.len() == 1 && seen_later(trace, &calls[0]) => Some((
            Kind::WhoRuns,
            Choice::Runs(RunMove::HostRuns),
            vec![
                Choice::Runs(RunMove::ModelRuns),
                Choice::Runs(RunMove::StraightToModel),
            ],
        )),
        StepKind::Proposes { number, calls } => {
            let calls: Vec<&crate::trace::ToolCall> =
                calls.iter().filter_map(|c| trace.call(c)).collect();
            // A call that never gets a result in the run (a transcript cut
            // off, or interrupted): neither "runs" nor "answers" is sure.
            // A call the host asks the user about: whether it runs turns on
            // what the user will answer (and on the host's check of an
            // edit), which the run so far cannot tell.
            if calls
                .iter()
                .any(|c| (c.result.is_none() && c.started.is_none()) || c.decision.is_some())
            {
                return None;
            }
            let correct = if calls.iter().all(|c| c.started.is_some()) {
                LoopMove::RunsTools
            } else {
                LoopMove::AnswersEach
            };
            Some(reply(trace, *number, correct))
        }
        StepKind::Answers { number } => {
            let correct = match step.end {
                Some(_) => LoopMove::Ends,
                None => LoopMove::VerifiesFirst,
            };
            Some(reply(trace, *number, correct))
        }
        StepKind::Validates { call, verdict } => {
            let correct = match verdict {
                Verdict::Approved => HostMove::Approves {
                    path: has_path(trace, call),
                },
                Verdict::Refused(Refusal::NotOffered) => HostMove::NotOffered,
                Verdict::Refused(Refusal::OutsideWorkspace(_)) => HostMove::Outside,
                Verdict::Refused(
                    Refusal::MissingArg(_)
                    | Refusal::UnknownArg(_)
                    | Refusal::InvalidJson(_)
                    | Refusal::WrongType { .. }
                    | Refusal::NotAllowed { .. },
                ) => HostMove::BadArgs,
                Verdict::Refused(Refusal::NotAuthorised) => HostMove::NotAuthorised,
                Verdict::AwaitsApproval => HostMove::AsksUser,
            };
            Some(host_decides(trace, call, correct))
        }
        StepKind::Replays { call, conflict, .. } => {
            let correct = if *conflict {
                HostMove::OpConflict
            } else {
                HostMove::Replays
            };
            Some(host_decides(trace, call, correct))
        }
        StepKind::ResultArrives { call } => which_call(trace, index, call),
        StepKind::BudgetExhausted { not_run, .. } => Some(budget_stops(step, not_run)),
        StepKind::Crashes { .. } => Some((
            Kind::LoopGoesOn,
            Choice::Loop(LoopMove::Crashes),
            vec![Choice::Loop(LoopMove::ErrorAsResult)],
        )),
        StepKind::Rejected { number, .. } => Some((
            Kind::LoopGoesOn,
            Choice::Loop(LoopMove::ProviderRejects(*number)),
            vec![
                Choice::Loop(LoopMove::CallsAgain(*number)),
                Choice::Loop(LoopMove::BudgetStops),
            ],
        )),
        _ => None,
    }
}

/// Who sends the next step's message. The three lanes are always among the
/// choices; the user and the provider's API only where they act in this run.
fn who_acts(trace: &Trace, index: usize) -> Draft {
    let correct = trace.steps[index].source();
    let mut others: Vec<Choice> = Lane::ALL
        .iter()
        .map(|l| Choice::Source(Source::Lane(*l)))
        .collect();
    // The provider's API acts only to reject a request or turn one away.
    if trace.steps.iter().any(|s| s.source() == Source::Provider) {
        others.push(Choice::Source(Source::Provider));
    }
    (Kind::WhoActs, Choice::Source(correct), others)
}

/// Is the call's result appended and sent on a later model call?
fn seen_later(trace: &Trace, id: &CallId) -> bool {
    // A later request carries it under its own id, and the model runs on
    // it (the provider does not refuse the request).
    let runs = |mc: &crate::trace::ModelCall| trace.rejection(mc).is_none();
    trace.call(id).is_some_and(|c| {
        c.appended
            && c.finished.is_some_and(|f| {
                trace.model_calls.iter().any(|mc| {
                    mc.step > f
                        && runs(mc)
                        && trace
                            .context(mc)
                            .iter()
                            .any(|m| m.call_id.as_ref() == Some(&c.id))
                })
            })
    })
}

/// Does the call have a `path` argument (the one the workspace rule reads)?
fn has_path(trace: &Trace, call: &CallId) -> bool {
    trace
        .call(call)
        .is_some_and(|c| c.args.iter().any(|(k, _)| k == "path"))
}

/// The budget ends the loop: a careful host names the last reply's calls
/// it does not run (the words take them from the step: `words`).
fn budget_stops(step: &crate::trace::Step, not_run: &[CallId]) -> Draft {
    let again = Choice::Loop(LoopMove::CallsAgain(step.counters.model_calls + 1));
    match not_run {
        [] => (
            Kind::LoopGoesOn,
            Choice::Loop(LoopMove::BudgetStops),
            vec![again],
        ),
        _ => (
            Kind::LoopGoesOn,
            Choice::Loop(LoopMove::BudgetStopsUnrun),
            vec![Choice::Loop(LoopMove::RunsTools), again],
        ),
    }
}

/// Does the loop go on after the model's reply to call `number`?
fn reply(trace: &Trace, number: u32, correct: LoopMove) -> Draft {
    let mut others = vec![
        Choice::Loop(LoopMove::RunsTools),
        Choice::Loop(LoopMove::Ends),
    ];
    // Waiting for a check is a likely guess only where the run has one.
    if trace
        .steps
        .last()
        .is_some_and(|s| s.counters.host_checks > 0)
    {
        others.push(Choice::Loop(LoopMove::VerifiesFirst));
    }
    // On the last call the budget allows, "it stops" is the natural guess.
    if number == trace.budget && trace.recorded.is_none() {
        others.push(Choice::Loop(LoopMove::BudgetStops));
    }
    (Kind::LoopGoesOn, Choice::Loop(correct), others)
}

/// What the host does with `call` before anything runs.
fn host_decides(trace: &Trace, call: &CallId, correct: HostMove) -> Draft {
    let found = trace.call(call);
    // A replay is a likely guess only for a call that carries an op id,
    // and a wrong one only where the host does not answer this call from
    // its record after the checks (then the replay is the next step's
    // answer, not a mistake about this one).
    let has_op = found.is_some_and(|c| c.args.iter().any(|(k, _)| k == "op_id"));
    let replayed = found.is_some_and(|c| c.result.as_ref().is_some_and(|r| r.replayed))
        || trace
            .steps
            .iter()
            .any(|s| matches!(&s.kind, StepKind::Replays { call: c, .. } if c == call));
    let path = has_path(trace, call);
    let mut others = Vec::new();
    match correct {
        // Asked after the checks: the call is valid; does it run again?
        HostMove::Replays | HostMove::OpConflict => {
            others.push(HostMove::Replays);
            others.push(HostMove::RunsAgain);
            others.push(HostMove::OpConflict);
        }
        _ => {
            others.push(HostMove::Approves { path });
            others.push(HostMove::NotOffered);
            // The workspace rule reads `path`: a call without one cannot
            // break it; its arguments can be wrong instead.
            if path {
                others.push(HostMove::Outside);
            } else if found.is_some_and(|c| !c.args.is_empty()) {
                others.push(HostMove::BadArgs);
            }
            if has_op && !replayed {
                others.push(HostMove::Replays);
            }
        }
    }
    let others = others.into_iter().map(Choice::Host).collect();
    (Kind::HostDecides, Choice::Host(correct), others)
}

/// Which call id the returning result is attached to. Asked where the
/// answer is not the only call in sight: several calls wait for a result,
/// or the host pairs it wrongly or drops it.
fn which_call(trace: &Trace, index: usize, id: &CallId) -> Option<Draft> {
    let call = trace.call(id)?;
    let correct = match call.pairing()? {
        Pairing::ById => Some(id.clone()),
        Pairing::WrongId(to) => Some(to),
        Pairing::Dropped | Pairing::CallDropped => None,
    };
    // The calls still waiting just before this step: the other one is the
    // wrong-order guess. Only calls of the same reply can still wait, so
    // this costs one reply's calls, however long the run.
    let earlier = trace.calls_at(index - 1);
    let same_reply = earlier
        .iter()
        .rev()
        .take_while(|c| c.model_call == call.model_call)
        .count();
    let waiting: Vec<Choice> = earlier
        .slice(earlier.len() - same_reply..)
        .iter()
        .filter(|c| c.finished.is_none_or(|f| f >= index))
        .map(|c| Choice::AttachedTo(Some(c.id.clone())))
        .collect();
    let lesson = !matches!(call.pairing(), Some(Pairing::ById));
    if waiting.len() < 2 && !lesson {
        return None;
    }
    let mut others = vec![Choice::AttachedTo(Some(id.clone()))];
    others.extend(waiting);
    if lesson {
        others.push(Choice::AttachedTo(None));
    }
    Some((Kind::WhichCall, Choice::AttachedTo(correct), others))
}

/// Before model call #n (n ≥ 2): which messages were appended since #n−1.
fn new_in_context(trace: &Trace, index: usize) -> Option<Draft> {
    let mc_index = trace.steps[index].model_call?;
    let mc = &trace.model_calls[mc_index];
    // After the host compacted, the context is no longer the last one plus
    // what was appended: the question would have no true answer.
    let since = mc_index
        .checked_sub(1)
        .map_or(0, |prev| trace.model_calls[prev].step);
    if trace
        .compactions
        .iter()
        .any(|c| (since..=index).contains(&c.step))
    {
        return None;
    }
    let new: Vec<New> = trace
        .messages
        .slice(trace.previous_context_len(mc_index)..mc.context_len)
        .iter()
        .map(|m| match m.role {
            Role::User => New::User,
            Role::Assistant => New::Reply(m.calls.clone()),
            Role::Tool => New::Result(m.call_id.clone()),
        })
        .collect();
    if new.is_empty() || new.len() > 8 {
        return None;
    }
    let mut others = Vec::new();
    // Only the results, not the reply that asked for them.
    let results: Vec<New> = new
        .iter()
        .filter(|n| matches!(n, New::Result(_)))
        .cloned()
        .collect();
    if !results.is_empty() {
        others.push(Choice::Appended(results));
    }
    // The reply with a result for each call in it, as a sound host would
    // have appended them.
    let mut complete = Vec::new();
    for n in &new {
        if let New::Reply(calls) = n {
            complete.push(n.clone());
            for c in calls {
                complete.push(New::Result(Some(c.clone())));
            }
        } else if !matches!(n, New::Result(_)) {
            complete.push(n.clone());
        }
    }
    others.push(Choice::Appended(complete));
    // Without the results.
    let no_results: Vec<New> = new
        .iter()
        .filter(|n| !matches!(n, New::Result(_)))
        .cloned()
        .collect();
    if !no_results.is_empty() {
        others.push(Choice::Appended(no_results));
    }
    // Without what the host wrote as a user message (a failed check).
    let no_user: Vec<New> = new
        .iter()
        .filter(|n| !matches!(n, New::User))
        .cloned()
        .collect();
    if !no_user.is_empty() {
        others.push(Choice::Appended(no_user));
    }
    others.push(Choice::NothingNew);
    Some((Kind::NewInContext, Choice::Appended(new), others))
}

fn prompt(trace: &Trace, index: usize, kind: Kind) -> String {
    let lang = trace.lang;
    let n = index + 1;
    let step = &trace.steps[index];
    match (kind, &step.kind) {
        (Kind::WhichCall, StepKind::ResultArrives { call }) => {
            // Whose result it is, by what was asked, not by its id.
            let what = trace.call(call).map_or(String::new(), |c| {
                format!("{} {}", c.tool, shorten(&c.args_text(), 48))
            });
            i18n::QUIZ_WHICH_CALL.fill(lang, &[("n", &n), ("what", &what)])
        }
        (Kind::LoopGoesOn, StepKind::Proposes { number, .. } | StepKind::Answers { number }) => {
            i18n::QUIZ_LOOP_REPLY.fill(lang, &[("n", &n), ("number", number)])
        }
        (Kind::LoopGoesOn, _) => i18n::QUIZ_NEXT.fill(lang, &[("n", &n)]),
        (Kind::NewInContext, StepKind::ModelCall { number }) => i18n::QUIZ_NEW_CONTEXT.fill(
            lang,
            &[("n", &n), ("number", number), ("prev", &(number - 1))],
        ),
        (Kind::HostDecides, StepKind::Validates { call, .. }) => {
            let tool = trace.call(call).map_or("", |c| c.tool.as_str());
            i18n::QUIZ_HOST.fill(lang, &[("n", &n), ("call", call), ("tool", &tool)])
        }
        (Kind::HostDecides, StepKind::Replays { call, op, .. }) => {
            let tool = trace.call(call).map_or("", |c| c.tool.as_str());
            i18n::QUIZ_HOST_OP_ID.fill(
                lang,
                &[("n", &n), ("call", call), ("tool", &tool), ("op", op)],
            )
        }
        (Kind::ReplyHolds, StepKind::Proposes { number, .. }) => {
            i18n::QUIZ_REPLY_HOLDS.fill(lang, &[("n", &n), ("number", number)])
        }
        (Kind::WhoRuns, StepKind::Executes { calls }) => {
            let what = calls
                .first()
                .and_then(|id| trace.call(id))
                .map_or(String::new(), |c| {
                    format!("{} {} {}", c.id, c.tool, shorten(&c.args_text(), 40))
                });
            i18n::QUIZ_WHO_RUNS.fill(lang, &[("n", &n), ("what", &what)])
        }
        _ => i18n::QUIZ_WHO_ACTS.fill(lang, &[("n", &n)]),
    }
}

/// At most `max` characters of `s`, with `…` when cut.
fn shorten(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_string(),
    }
}

/// The id of the call whose result step `index` brings back (empty for
/// another kind of step).
fn result_of(trace: &Trace, index: usize) -> String {
    match &trace.steps[index].kind {
        StepKind::ResultArrives { call } => call.to_string(),
        _ => String::new(),
    }
}

fn words(trace: &Trace, index: usize, choice: &Choice, lang: Lang) -> String {
    match choice {
        Choice::Source(Source::User) => i18n::user_word(trace).to_string(),
        Choice::Source(Source::Provider) => i18n::THE_API_SHORT.get(lang).to_string(),
        Choice::Source(Source::Lane(lane)) => i18n::lane_name(*lane, lang).to_string(),
        Choice::AttachedTo(Some(id)) => match trace.call(id) {
            Some(c) => format!("{id} {}", c.tool),
            None => id.to_string(),
        },
        Choice::AttachedTo(None) => {
            let id = result_of(trace, index);
            let call_dropped = matches!(&trace.steps[index].kind,
                StepKind::ResultArrives { call } if trace.call(call).and_then(|c| c.pairing()) == Some(Pairing::CallDropped));
            let text = if call_dropped {
                i18n::QUIZ_NOT_APPENDED_CALL_DROPPED
            } else {
                i18n::QUIZ_NOT_APPENDED
            };
            text.fill(lang, &[("id", &id)])
        }
        Choice::Loop(m) => match m {
            LoopMove::RunsTools => i18n::QUIZ_RUNS_TOOLS.get(lang).to_string(),
            LoopMove::AnswersEach => i18n::QUIZ_ANSWERS_EACH.get(lang).to_string(),
            LoopMove::Ends => i18n::QUIZ_ENDS.get(lang).to_string(),
            LoopMove::VerifiesFirst => i18n::QUIZ_VERIFIES_FIRST.get(lang).to_string(),
            LoopMove::BudgetStops => {
                i18n::QUIZ_BUDGET_STOPS.fill(lang, &[("budget", &trace.budget)])
            }
            LoopMove::BudgetStopsUnrun => {
                let ids = match &trace.steps[index].kind {
                    StepKind::BudgetExhausted { not_run, .. } => not_run.as_slice(),
                    _ => &[],
                };
                let ids: Vec<&str> = ids.iter().map(|c| c.0.as_ref()).collect();
                i18n::QUIZ_BUDGET_STOPS_UNRUN.fill(lang, &[("ids", &ids.join(", "))])
            }
            LoopMove::CallsAgain(n) => i18n::QUIZ_CALLS_AGAIN.fill(lang, &[("number", n)]),
            LoopMove::ProviderRejects(n) => {
                i18n::QUIZ_PROVIDER_REJECTS.fill(lang, &[("number", n)])
            }
            LoopMove::Crashes => i18n::QUIZ_CRASHES.get(lang).to_string(),
            LoopMove::ErrorAsResult => i18n::QUIZ_ERROR_AS_RESULT.get(lang).to_string(),
        },
        Choice::Appended(items) => items
            .iter()
            .map(|n| match n {
                New::User => i18n::QUIZ_NEW_USER.get(lang).to_string(),
                New::Reply(calls) if calls.is_empty() => {
                    i18n::QUIZ_NEW_REPLY_TEXT.get(lang).to_string()
                }
                New::Reply(calls) => {
                    let ids: Vec<&str> = calls.iter().map(|c| c.0.as_ref()).collect();
                    i18n::QUIZ_NEW_REPLY.fill(lang, &[("ids", &ids.join(", "))])
                }
                New::Result(Some(id)) => i18n::QUIZ_NEW_RESULT.fill(lang, &[("id", id)]),
                New::Result(None) => i18n::QUIZ_NEW_RESULT_NO_ID.get(lang).to_string(),
            })
            .collect::<Vec<_>>()
            .join(" + "),
        Choice::NothingNew => i18n::QUIZ_NOTHING_NEW.get(lang).to_string(),
        Choice::Reply(r) => match r {
            ReplyHolds::Request => i18n::QUIZ_REPLY_REQUEST,
            ReplyHolds::Output => i18n::QUIZ_REPLY_OUTPUT,
            ReplyHolds::ModelRan => i18n::QUIZ_REPLY_MODEL_RAN,
        }
        .get(lang)
        .to_string(),
        Choice::Runs(r) => match r {
            RunMove::HostRuns => i18n::QUIZ_RUNS_HOST,
            RunMove::ModelRuns => i18n::QUIZ_RUNS_MODEL,
            RunMove::StraightToModel => i18n::QUIZ_RUNS_STRAIGHT,
        }
        .get(lang)
        .to_string(),
        Choice::Host(m) => match m {
            HostMove::Approves { path: true } => i18n::QUIZ_APPROVES.get(lang).to_string(),
            HostMove::Approves { path: false } => i18n::QUIZ_APPROVES_NO_PATH.get(lang).to_string(),
            HostMove::RunsAgain => i18n::QUIZ_RUNS_AGAIN.get(lang).to_string(),
            HostMove::NotOffered => i18n::QUIZ_NOT_OFFERED.get(lang).to_string(),
            HostMove::BadArgs => i18n::QUIZ_BAD_ARGS.get(lang).to_string(),
            HostMove::Outside => i18n::QUIZ_OUTSIDE.get(lang).to_string(),
            HostMove::Replays => i18n::QUIZ_REPLAYS.get(lang).to_string(),
            HostMove::OpConflict => i18n::QUIZ_OP_CONFLICT.get(lang).to_string(),
            HostMove::NotAuthorised => i18n::QUIZ_NOT_AUTHORISED.get(lang).to_string(),
            HostMove::AsksUser => i18n::QUIZ_ASKS_USER.get(lang).to_string(),
        },
    }
}

/// The part of the app's state that belongs to the quiz.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Quiz {
    pub on: bool,
    /// The step (0-based) whose question is open: always the step after
    /// the current one.
    pub asking: Option<usize>,
    /// The furthest step shown so far (0-based). Steps up to here are never
    /// asked about again, whether they were answered, passed by a jump or
    /// shown with the quiz off.
    pub seen: usize,
    /// The choice made for each answered step (0-based step → answer).
    pub answers: BTreeMap<usize, Answer>,
    /// A key that moves on was pressed while a question is open (or a digit
    /// with no choice), or a digit right after an answer was held: the
    /// panel says what to do.
    pub hint: bool,
    /// A digit answered a question and no other key came since: a digit
    /// now was typed as part of a step number, and is not a jump.
    pub just_answered: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Answer {
    /// 0-based.
    pub choice: usize,
    pub right: bool,
}

impl Quiz {
    /// (right answers, answers): steps passed without a question do not count.
    pub fn score(&self) -> (usize, usize) {
        let right = self.answers.values().filter(|a| a.right).count();
        (right, self.answers.len())
    }

    pub fn is_asking(&self) -> bool {
        self.asking.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{self, CATALOG, Loaded};
    use crate::scenario::EndStatus;
    use crate::trace::ToolCall;

    fn every_trace() -> Vec<(String, Loaded)> {
        let mut out: Vec<(String, Loaded)> = CATALOG
            .iter()
            .map(|(name, _)| (name.to_string(), load::load(name).unwrap()))
            .collect();
        // Replayed transcripts get questions from the same trace type.
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/transcripts");
        for name in [
            "anthropic.json",
            "chat.jsonl",
            "claude-code.jsonl",
            "codex.jsonl",
            "codex-legacy.jsonl",
            "otel.json",
            "responses.json",
        ] {
            let loaded = crate::transcript::load(&format!("{dir}/{name}"), None, false).unwrap();
            out.push((name.to_string(), loaded));
        }
        out
    }

    /// The text the right choice must have, worked out from the trace
    /// apart from the generator; None where it is checked another way.
    fn expected(trace: &Trace, index: usize, q: &Question) -> Option<String> {
        let lang = trace.lang;
        let step = &trace.steps[index];
        let source = |s: Source| match s {
            Source::User => i18n::user_word(trace).to_string(),
            Source::Provider => i18n::THE_API_SHORT.get(lang).to_string(),
            Source::Lane(l) => i18n::lane_name(l, lang).to_string(),
        };
        Some(match (q.kind, &step.kind) {
            (Kind::WhoActs, _) => source(step.source()),
            (Kind::WhichCall, StepKind::ResultArrives { call }) => which_call(trace, call),
            (Kind::LoopGoesOn, kind) => loop_goes_on(trace, step, kind, q),
            (Kind::HostDecides, StepKind::Validates { verdict, call }) => {
                host_decides(trace, verdict, call)
            }
            (Kind::ReplyHolds, StepKind::Proposes { number: 1, calls }) => {
                assert_eq!(calls.len(), 1);
                i18n::QUIZ_REPLY_REQUEST.get(lang).to_string()
            }
            (Kind::WhoRuns, StepKind::Executes { calls }) => {
                // The result reaches a later model call's context.
                let c = trace.call(&calls[0]).unwrap();
                let f = c.finished.unwrap();
                assert!(c.appended, "{q:?}");
                assert!(
                    trace.model_calls.iter().any(|mc| mc.step > f
                        && trace
                            .context(mc)
                            .iter()
                            .any(|m| m.call_id.as_ref() == Some(&c.id))),
                    "{q:?}"
                );
                i18n::QUIZ_RUNS_HOST.get(lang).to_string()
            }
            (Kind::HostDecides, StepKind::Replays { conflict, .. }) => if *conflict {
                i18n::QUIZ_OP_CONFLICT
            } else {
                i18n::QUIZ_REPLAYS
            }
            .get(lang)
            .to_string(),
            (Kind::NewInContext, StepKind::ModelCall { .. }) => {
                // One item per message appended since the previous call,
                // each result named by its id.
                let mc = step.model_call.unwrap();
                let new = trace
                    .messages
                    .slice(trace.previous_context_len(mc)..trace.model_calls[mc].context_len);
                let right = &q.choices[q.answer];
                assert_eq!(right.split(" + ").count(), new.len(), "{right}");
                for m in new {
                    if let Some(id) = &m.call_id {
                        assert!(right.contains(&*id.0), "{right} lacks {id}");
                    }
                }
                return None;
            }
            (kind, step_kind) => panic!("a {kind:?} question about a {step_kind:?} step"),
        })
    }

    /// The id a result is paired to (and its tool), or why it is not
    /// appended.
    fn which_call(trace: &Trace, call: &CallId) -> String {
        let lang = trace.lang;
        let c: &ToolCall = trace.call(call).unwrap();
        match (c.appended, &c.paired_to) {
            // The call itself was not appended either.
            (false, _) if c.call_dropped => {
                i18n::QUIZ_NOT_APPENDED_CALL_DROPPED.fill(lang, &[("id", call)])
            }
            (false, _) => i18n::QUIZ_NOT_APPENDED.fill(lang, &[("id", call)]),
            // An id no call has (a Responses item id) names no tool.
            (true, Some(to)) => match trace.call(to) {
                Some(other) => format!("{to} {}", other.tool),
                None => to.to_string(),
            },
            (true, None) => panic!("an appended result without an id"),
        }
    }

    /// What happens after a step that may end the loop.
    fn loop_goes_on(
        trace: &Trace,
        step: &crate::trace::Step,
        kind: &StepKind,
        q: &Question,
    ) -> String {
        let lang = trace.lang;
        match kind {
            StepKind::Proposes { calls, .. } => {
                // Every call runs, or each is answered without all running;
                // a call left without a result is not asked about this way.
                let calls: Vec<&ToolCall> = calls.iter().map(|c| trace.call(c).unwrap()).collect();
                if calls.iter().all(|c| c.started.is_some()) {
                    i18n::QUIZ_RUNS_TOOLS.get(lang).to_string()
                } else {
                    assert!(calls.iter().all(|c| c.result.is_some()), "{q:?}");
                    assert!(
                        q.choices
                            .contains(&i18n::QUIZ_RUNS_TOOLS.get(lang).to_string())
                    );
                    i18n::QUIZ_ANSWERS_EACH.get(lang).to_string()
                }
            }
            StepKind::Answers { .. } => match step.end {
                Some(EndStatus::Completed | EndStatus::VerificationMissing) => {
                    i18n::QUIZ_ENDS.get(lang).to_string()
                }
                None => i18n::QUIZ_VERIFIES_FIRST.get(lang).to_string(),
                Some(other) => panic!("a reply ends the loop as {other:?}"),
            },
            StepKind::BudgetExhausted { not_run, .. } => {
                assert_eq!(step.end, Some(EndStatus::BudgetExhausted));
                match not_run.as_slice() {
                    [] => i18n::QUIZ_BUDGET_STOPS.fill(lang, &[("budget", &trace.budget)]),
                    [one] => i18n::QUIZ_BUDGET_STOPS_UNRUN.fill(lang, &[("ids", one)]),
                    many => panic!("{many:?}: no lesson stops before several calls"),
                }
            }
            StepKind::Crashes { .. } => {
                assert_eq!(step.end, Some(EndStatus::Crashed));
                i18n::QUIZ_CRASHES.get(lang).to_string()
            }
            StepKind::Rejected { number, .. } => {
                assert_eq!(step.end, Some(EndStatus::Rejected));
                i18n::QUIZ_PROVIDER_REJECTS.fill(lang, &[("number", number)])
            }
            step_kind => panic!("a {:?} question about a {step_kind:?} step", q.kind),
        }
    }

    /// What the host decides about a call it validates.
    fn host_decides(trace: &Trace, verdict: &Verdict, call: &CallId) -> String {
        let lang = trace.lang;
        match verdict {
            Verdict::Approved
                if trace
                    .call(call)
                    .unwrap()
                    .args
                    .iter()
                    .any(|(k, _)| k == "path") =>
            {
                i18n::QUIZ_APPROVES
            }
            Verdict::Approved => i18n::QUIZ_APPROVES_NO_PATH,
            Verdict::Refused(Refusal::NotOffered) => i18n::QUIZ_NOT_OFFERED,
            Verdict::Refused(Refusal::OutsideWorkspace(_)) => i18n::QUIZ_OUTSIDE,
            Verdict::Refused(Refusal::NotAuthorised) => i18n::QUIZ_NOT_AUTHORISED,
            Verdict::Refused(_) => i18n::QUIZ_BAD_ARGS,
            Verdict::AwaitsApproval => i18n::QUIZ_ASKS_USER,
        }
        .get(lang)
        .to_string()
    }

    /// No choice speaks of a path for a call without one, and none offers
    /// the next step's answer as a mistake about this one.
    fn no_choice_contradicts_the_trace(trace: &Trace, index: usize, q: &Question, at: &str) {
        let lang = trace.lang;
        let text = |l: i18n::Label| l.get(lang).to_string();
        let call = match &trace.steps[index].kind {
            StepKind::Validates { call, .. } | StepKind::Replays { call, .. } => trace.call(call),
            _ => None,
        };
        if call.is_some_and(|c| !c.args.iter().any(|(k, _)| k == "path")) {
            for l in [i18n::QUIZ_APPROVES, i18n::QUIZ_OUTSIDE] {
                assert!(
                    !q.choices.contains(&text(l)),
                    "a path for a call without one: {at}"
                );
            }
        }
        if let (Some(c), StepKind::Validates { .. }) = (call, &trace.steps[index].kind) {
            let replayed = c.result.as_ref().is_some_and(|r| r.replayed);
            if replayed {
                assert!(!q.choices.contains(&text(i18n::QUIZ_REPLAYS)), "{at}");
                // The replay step asks another question, not this one again.
                let next = question(trace, &[], index + 1).unwrap();
                assert_ne!(
                    next.prompt.replace(&(index + 2).to_string(), ""),
                    q.prompt.replace(&(index + 1).to_string(), ""),
                    "{at}"
                );
            }
        }
        if matches!(trace.steps[index].kind, StepKind::Replays { .. }) {
            assert!(
                !q.choices
                    .iter()
                    .any(|c| c.starts_with(&text(i18n::QUIZ_APPROVES_NO_PATH))),
                "{at}"
            );
        }
    }

    #[test]
    fn every_step_of_every_scenario_and_transcript_has_a_true_question() {
        let mut kinds = std::collections::HashSet::new();
        for (name, loaded) in every_trace() {
            for lang in Lang::ALL {
                let trace = loaded.trace(lang);
                assert!(
                    question(trace, &[], 0).is_none(),
                    "{name}: step 1 is shown first"
                );
                for index in 1..trace.len() {
                    // What a user will answer is not predictable: never asked.
                    let user = matches!(trace.steps[index].kind, StepKind::UserDecides { .. });
                    let Some(q) = question(trace, &[], index) else {
                        assert!(user, "{name} step {}: no question", index + 1);
                        continue;
                    };
                    assert!(
                        !user,
                        "{name} step {}: asks what the user will say",
                        index + 1
                    );
                    let at = format!("{name} {lang:?} step {}: {q:?}", index + 1);
                    assert_eq!(q.step, index);
                    assert!((2..=4).contains(&q.choices.len()), "{at}");
                    assert!(q.answer < q.choices.len(), "{at}");
                    let mut seen = q.choices.clone();
                    seen.sort();
                    seen.dedup();
                    assert_eq!(seen.len(), q.choices.len(), "choices not distinct: {at}");
                    assert!(q.choices.iter().all(|c| !c.trim().is_empty()), "{at}");
                    if let Some(right) = expected(trace, index, &q) {
                        assert_eq!(q.choices[q.answer], right, "{at}");
                    }
                    no_choice_contradicts_the_trace(trace, index, &q, &at);
                    kinds.insert(q.kind);
                }
            }
        }
        for kind in [
            Kind::WhoActs,
            Kind::ReplyHolds,
            Kind::WhoRuns,
            Kind::WhichCall,
            Kind::LoopGoesOn,
            Kind::NewInContext,
            Kind::HostDecides,
        ] {
            assert!(
                kinds.contains(&kind),
                "no {kind:?} question in any scenario"
            );
        }
    }

    #[test]
    fn the_right_choice_moves_but_is_the_same_in_every_language() {
        for (name, loaded) in every_trace().into_iter().take(CATALOG.len()) {
            let places: Vec<usize> = (1..loaded.trace(Lang::Zh).len())
                .filter_map(|i| {
                    let zh = question(loaded.trace(Lang::Zh), &[], i)?;
                    let en = question(loaded.trace(Lang::En), &[], i).unwrap();
                    assert_eq!((zh.answer, zh.kind), (en.answer, en.kind), "{name} {i}");
                    Some(zh.answer)
                })
                .collect();
            let mut distinct = places.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert!(distinct.len() > 1, "{name}: always at {places:?}");
        }
        // And the same on every call.
        let loaded = load::load("parallel-calls-out-of-order").unwrap();
        let trace = loaded.trace(Lang::En);
        assert_eq!(question(trace, &[], 5), question(trace, &[], 5));
    }

    #[test]
    fn results_out_of_order_ask_for_the_id_with_the_other_call_as_distractor() {
        let loaded = load::load("parallel-calls-out-of-order").unwrap();
        let trace = loaded.trace(Lang::En);
        let (index, id) = trace
            .steps
            .iter()
            .enumerate()
            .find_map(|(i, s)| match &s.kind {
                StepKind::ResultArrives { call } => Some((i, call.clone())),
                _ => None,
            })
            .unwrap();
        let q = question(trace, &[], index).unwrap();
        assert_eq!(q.kind, Kind::WhichCall);
        assert!(q.choices[q.answer].starts_with(&*id.0));
        // The first result back is not call_1's: the call asked first is
        // the wrong-order guess among the choices.
        assert_ne!(&*id.0, "call_1");
        assert!(q.choices.iter().any(|c| c.starts_with("call_1 ")), "{q:?}");
    }

    #[test]
    fn a_harness_that_drops_results_is_asked_what_the_next_context_holds() {
        let loaded = load::load("harness-drops-results").unwrap();
        let trace = loaded.trace(Lang::En);
        let q = (1..trace.len())
            .filter_map(|i| question(trace, &[], i))
            .find(|q| q.kind == Kind::NewInContext)
            .unwrap();
        // The reply is appended, its result is not; the sound-host guess
        // (reply + result) is among the distractors.
        let right = &q.choices[q.answer];
        assert!(!right.contains("result"), "{right}");
        assert!(
            q.choices
                .iter()
                .any(|c| c.contains("reply (call_1)") && c.contains("the result for call_1")),
            "{q:?}"
        );
    }

    #[test]
    fn a_harness_that_drops_calls_says_the_call_is_not_sent_either() {
        let loaded = load::load("harness-drops-calls").unwrap();
        for lang in Lang::ALL {
            let trace = loaded.trace(lang);
            let asked: Vec<Question> = (1..trace.len())
                .filter_map(|i| question(trace, &[], i))
                .filter(|q| q.kind == Kind::WhichCall)
                .collect();
            // One for each of the three calls the budget allows.
            assert_eq!(asked.len(), 3, "{asked:?}");
            for (q, id) in asked.iter().zip(["call_1", "call_2", "call_3"]) {
                let right = &q.choices[q.answer];
                let neither = match lang {
                    Lang::Zh => format!("主机既不追加 {id} 这个调用，也不追加它的结果"),
                    _ => format!("the host appends neither {id} nor its result"),
                };
                assert!(right.contains(&neither), "{right}");
                // The sound host's answer is offered, and is wrong.
                assert!(q.choices.iter().any(|c| c.starts_with(&format!("{id} "))));
            }
        }
    }

    #[test]
    fn an_authored_question_replaces_the_generated_one() {
        let loaded = load::load("read-config-timeout").unwrap();
        let item = QuizItem {
            step: crate::scenario::QuizStep::Number(3),
            question: crate::scenario::Text::new([
                "模型会调用哪个工具？".into(),
                "Which tool will the model call?".into(),
            ]),
            choices: ["read_file", "write_file", "run_tests"]
                .map(crate::scenario::Text::same)
                .to_vec(),
            answer: 1,
            why: None,
        };
        let q = question(loaded.trace(Lang::En), std::slice::from_ref(&item), 2).unwrap();
        assert_eq!(q.kind, Kind::Author);
        assert_eq!(q.prompt, "Which tool will the model call?");
        assert_eq!((q.answer, q.choices.len()), (0, 3));
        // Other steps keep their generated questions.
        let other = question(loaded.trace(Lang::En), std::slice::from_ref(&item), 3).unwrap();
        assert_ne!(other.kind, Kind::Author);
    }
}
