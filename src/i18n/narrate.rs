//! Texts composed from the trace's facts and the catalogue: who acts,
//! step titles, counters, the context heading, the host's words.
//!
//! Long because every sentence composed from the trace's facts lives here,
//! beside the catalogue texts it fills; step titles and arrow labels alone
//! are a quarter of it.

use std::fmt::Display;

use super::catalogue::*;
use super::label::{Label, one_line};
use crate::scenario::{EndStatus, HttpError, Lang};
use crate::tokens::Counts;
use crate::trace::{
    CallId, CallStatus, Decision, Lane, OfferedTool, Outcome, Pairing, Refusal, Said, Step,
    StepKind, TaskOutcome, ToolSays, Trace, Verdict,
};

/// A label that leads a value: "行动方：" in Chinese, "acting: " in English.
pub fn lead(label: Label, lang: Lang) -> String {
    format!("{}{}", label.get(lang), colon(lang))
}

/// The colon after a label, as each language writes it.
pub fn colon(lang: Lang) -> &'static str {
    COLON.get(lang)
}

/// The lead of the environment line: whose it is, then a colon.
pub fn environment_lead(lang: Lang) -> String {
    ENVIRONMENT_LEAD.fill(
        lang,
        &[
            ("environment", &ENVIRONMENT.get(lang)),
            ("tool", &lane_name(Lane::Tool, lang)),
        ],
    )
}

/// Who acts at a step: "Tool → Host", "Host", "user → Host".
pub fn who_acts(trace: &Trace, index: usize) -> String {
    let (step, lang) = (&trace.steps[index], trace.lang);
    // The provider's API refuses the request; the model itself never runs.
    if matches!(
        step.kind,
        StepKind::Rejected { .. } | StepKind::Throttled { .. }
    ) {
        return from_to(THE_API.get(lang), lane_name(step.to, lang), lang);
    }
    match (step.from, step.to) {
        (None, to) => from_to(user_word(trace), lane_name(to, lang), lang),
        (Some(from), to) if from == to => lane_name(from, lang).to_string(),
        (Some(from), to) => from_to(lane_name(from, lang), lane_name(to, lang), lang),
    }
}

fn from_to(from: &str, to: &str, lang: Lang) -> String {
    FROM_TO.fill(lang, &[("from", &from), ("to", &to)])
}

/// Who acts, in as few words as a narrow header allows.
pub fn who_acts_short(trace: &Trace, index: usize) -> String {
    let (step, lang) = (&trace.steps[index], trace.lang);
    if matches!(
        step.kind,
        StepKind::Rejected { .. } | StepKind::Throttled { .. }
    ) {
        return from_to(THE_API_SHORT.get(lang), lane_name(step.to, lang), lang);
    }
    who_acts(trace, index)
}

/// Who writes to the host from outside the lanes: the user, or in a
/// sub-agent's own run the agent that called it (its prompt is the task).
pub fn user_word(trace: &Trace) -> &'static str {
    match trace.sub_agents.agent {
        Some(_) => CALLER.get(trace.lang),
        None => USER.get(trace.lang),
    }
}

/// The sentence that says the loop has ended, how, and whether the task
/// is done.
pub fn loop_ended(end: EndStatus, task: TaskOutcome, lang: Lang) -> String {
    LOOP_ENDED.fill(
        lang,
        &[
            ("end", &end_name(end, lang)),
            ("task", &task_name(task, true, lang)),
        ],
    )
}

/// The line that stands for the folded rest of a long message, with the
/// key that shows it whole when `keys`.
pub fn folded(chars: usize, keys: bool, lang: Lang) -> String {
    let text = if keys { FOLDED } else { FOLDED_NO_KEYS };
    text.fill(lang, &[("chars", &chars)])
}

/// The context's size on each call so far, as a small bar chart.
pub fn growth(bars: &str, first: usize, last: usize, calls: usize, lang: Lang) -> String {
    GROWTH.fill(
        lang,
        &[
            ("bars", &bars),
            ("first", &first),
            ("last", &last),
            ("calls", &calls),
        ],
    )
}

/// "+2 more" after the files that fit on a line.
pub fn more_files(n: usize, lang: Lang) -> String {
    MORE_FILES.fill(lang, &[("n", &n)])
}

/// A result as attached to its call, with what went wrong in the pairing
/// and what answered the call said in words (the table and the plain
/// transcript say the same).
/// `id` writes the id a result was attached to (a panel cuts a long one).
pub fn result_in_words(
    call: &crate::trace::ToolCall,
    text: &str,
    id: impl Fn(&CallId) -> String,
    lang: Lang,
) -> String {
    let mut out = String::new();
    match call.pairing() {
        Some(Pairing::WrongId(to)) => out.push_str(&format!(
            "{} {} ✗ {} · ",
            ATTACHED_TO.get(lang),
            id(&to),
            WRONG_ID.get(lang)
        )),
        Some(Pairing::Dropped) => out.push_str(&format!("{} · ", DROPPED.get(lang))),
        Some(Pairing::CallDropped) => out.push_str(&format!("{} · ", CALL_DROPPED.get(lang))),
        _ => {}
    }
    match call.outcome() {
        Some(Outcome::Replayed) => out.push_str(&format!("↺ {} · ", REPLAYED.get(lang))),
        Some(
            Outcome::Error
            | Outcome::Refused
            | Outcome::OpConflict
            | Outcome::Denied
            | Outcome::Interrupted,
        ) => out.push_str("✗ "),
        _ => {}
    }
    out.push_str(text);
    out
}

/// The marker row over the lanes when earlier steps are scrolled away.
/// With `keys`, it names the key that scrolls to them.
pub fn earlier_steps(hidden: usize, keys: bool, lang: Lang) -> String {
    match (hidden, keys) {
        (1, true) => EARLIER_STEP.get(lang).to_string(),
        (1, false) => EARLIER_STEP_NO_KEYS.get(lang).to_string(),
        (n, true) => EARLIER_STEPS.fill(lang, &[("n", &n)]),
        (n, false) => EARLIER_STEPS_NO_KEYS.fill(lang, &[("n", &n)]),
    }
}

/// A file a running call is working on.
pub fn in_use_by(call: &CallId, lang: Lang) -> String {
    IN_USE_BY.fill(lang, &[("call", call)])
}

/// A message's role as the screen names it: the API's role word, in the
/// screen's language.
pub fn role_name(role: crate::trace::Role, lang: Lang) -> &'static str {
    use crate::trace::Role;
    match role {
        Role::User => ROLE_USER,
        Role::Assistant => ROLE_ASSISTANT,
        Role::Tool => ROLE_TOOL,
    }
    .get(lang)
}

pub fn lane_name(lane: Lane, lang: Lang) -> &'static str {
    match lane {
        Lane::Model => LANE_MODEL,
        Lane::Host => LANE_HOST,
        Lane::Tool => LANE_TOOL,
    }
    .get(lang)
}

pub fn status_name(status: CallStatus, lang: Lang) -> &'static str {
    match status {
        CallStatus::Proposed => STATUS_PROPOSED,
        CallStatus::Approved => STATUS_APPROVED,
        CallStatus::Running => STATUS_RUNNING,
        CallStatus::Done => STATUS_DONE,
        CallStatus::Replayed => STATUS_REPLAYED,
        CallStatus::Unanswered => STATUS_UNANSWERED,
        CallStatus::NotSent => STATUS_NOT_SENT,
        CallStatus::WrongId => STATUS_WRONG_ID,
        CallStatus::Error => STATUS_ERROR,
        CallStatus::Refused => STATUS_REFUSED,
        CallStatus::AwaitingUser => STATUS_AWAITING_USER,
        CallStatus::UserApproved => STATUS_USER_APPROVED,
        CallStatus::Edited => STATUS_EDITED,
        CallStatus::Denied => STATUS_DENIED,
        CallStatus::Interrupted => STATUS_INTERRUPTED,
        CallStatus::NotRun => STATUS_NOT_RUN,
        CallStatus::Compacted => STATUS_COMPACTED,
    }
    .get(lang)
}

/// How the loop ended, apart from whether the task is done.
pub fn end_name(end: EndStatus, lang: Lang) -> &'static str {
    match end {
        EndStatus::Completed | EndStatus::VerificationMissing => END_ANSWER,
        EndStatus::BudgetExhausted => END_BUDGET,
        EndStatus::Rejected => END_REJECTED,
        EndStatus::Crashed => END_CRASHED,
    }
    .get(lang)
}

/// Whether the task is done, and how we know: short, then with the reason.
pub fn task_name(task: TaskOutcome, long: bool, lang: Lang) -> &'static str {
    let (short, reason) = match task {
        TaskOutcome::Verified => (TASK_VERIFIED, TASK_VERIFIED_WHY),
        TaskOutcome::Answered => (TASK_ANSWERED, TASK_ANSWERED_WHY),
        TaskOutcome::Unverified => (TASK_UNVERIFIED, TASK_UNVERIFIED_WHY),
        TaskOutcome::NotDone => (TASK_NOT_DONE, TASK_NOT_DONE),
        TaskOutcome::Unknown => (TASK_UNKNOWN, TASK_UNKNOWN_WHY),
    };
    if long { reason } else { short }.get(lang)
}

/// The header's counters, in words; `short` for narrow screens, `shortest`
/// without the token estimate (never a number cut from its unit).
pub fn counters(trace: &Trace, counts: &Counts, step: &Step, short: bool, lang: Lang) -> String {
    counters_at(trace, counts, step, if short { 1 } else { 0 }, lang)
}

/// The counters at a level of detail: 0 full, 1 short, 2 without tokens.
pub fn counters_at(trace: &Trace, counts: &Counts, step: &Step, detail: u8, lang: Lang) -> String {
    let c = step.counters;
    let sent = step.model_call.map(|i| (i, &trace.model_calls[i]));
    let calls = if matches!(step.kind, StepKind::Rejected { .. }) {
        CALLS_REJECTED.fill(lang, &[("used", &c.model_calls), ("budget", &trace.budget)])
    } else if trace.recorded.is_some() {
        // A replayed run had no budget the file records.
        c.model_calls.to_string()
    } else {
        format!("{}/{}", c.model_calls, trace.budget)
    };
    // A request sent again is one more HTTP request, not one more model call.
    let calls = match c.http_requests > c.model_calls {
        true => CALLS_HTTP.fill(lang, &[("calls", &calls), ("http", &c.http_requests)]),
        false => calls,
    };
    let writes = match &trace.recorded {
        Some(r) if !r.writes => WRITES_UNKNOWN.get(lang).to_string(),
        _ => c.writes.to_string(),
    };
    let runs = match c.host_checks {
        0 => c.tool_runs.to_string(),
        n => RUNS_CHECKS.fill(
            lang,
            &[
                ("runs", &c.tool_runs),
                ("n", &n),
                ("checks", &HOST_CHECK_N.get(n as usize, lang)),
            ],
        ),
    };
    let Some((index, mc)) = sent else {
        return COUNTERS_NOTHING_SENT.fill(
            lang,
            &[("calls", &calls), ("runs", &runs), ("writes", &writes)],
        );
    };
    let template = match detail {
        0 => COUNTERS_SENT,
        1 => COUNTERS_SENT_SHORT,
        _ => COUNTERS_SENT_SHORTEST,
    };
    template.fill(
        lang,
        &[
            ("calls", &calls),
            ("runs", &runs),
            ("writes", &writes),
            ("number", &mc.number),
            ("chars", &mc.context_size),
            (
                "tokens",
                &Counted(|| crate::wire::context_tokens_ready(trace, counts, index)),
            ),
        ],
    )
}

/// A count made only where the text shows it (a transcript's tokens are
/// counted when first shown: `wire::context_tokens`); `…` while the thread
/// counting a just-opened transcript has not reached it.
struct Counted<F>(F);

impl<F: Fn() -> Option<usize>> Display for Counted<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.0)() {
            Some(n) => write!(f, "{n}"),
            None => f.write_str("…"),
        }
    }
}

/// The context panel's heading: which call, how many messages, and what
/// the size counts.
pub fn context_heading(
    trace: &Trace,
    counts: &Counts,
    mc: &crate::trace::ModelCall,
    items: usize,
    new: usize,
    lang: Lang,
) -> String {
    let counted = match trace.provider {
        crate::wire::Provider::Anthropic => TOKENS_ESTIMATED,
        crate::wire::Provider::Chat | crate::wire::Provider::Responses => TOKENS_COUNTED,
    };
    let list = match trace.provider {
        crate::wire::Provider::Responses => ITEM_N.get(items, lang),
        crate::wire::Provider::Chat | crate::wire::Provider::Anthropic => {
            MESSAGE_N.get(items, lang)
        }
    };
    let tools_unknown = trace.recorded.as_ref().is_some_and(|r| !r.tools);
    let template = if tools_unknown {
        CONTEXT_HEADING_TOOLS_UNKNOWN
    } else {
        CONTEXT_HEADING
    };
    template.fill(
        lang,
        &[
            ("number", &mc.number),
            ("provider", &provider_name(trace.provider)),
            ("len", &items),
            ("messages", &list),
            ("new", &new),
            ("chars", &mc.context_size),
            ("in_tools", &mc.tools_size),
            (
                "tokens",
                &Counted(|| {
                    crate::wire::context_tokens_ready(trace, counts, mc.number as usize - 1)
                }),
            ),
            ("counted", &counted.get(lang)),
        ],
    )
}

/// The lead before a provider's own error text.
pub fn provider_says(provider: crate::wire::Provider, lang: Lang) -> String {
    format!(
        "{}{}",
        PROVIDER_SAYS.fill(lang, &[("provider", &provider_name(provider))]),
        colon(lang)
    )
}

/// The tools a run offered, as signatures; "none" for a run that offered
/// none, "not recorded" for a replayed file that does not say.
pub fn tools_offered(trace: &Trace, lang: Lang) -> String {
    offered_where(trace, lang, |_| true)
}

/// The tools the host knows at step `step`: before its MCP server has
/// listed its tools (`McpListed`), the host's own alone.
pub fn tools_known_at(trace: &Trace, step: usize, lang: Lang) -> String {
    let listed = super::mcp::listed_by(trace, step);
    offered_where(trace, lang, |t| {
        listed || !trace.mcp.as_ref().is_some_and(|m| m.serves(&t.name))
    })
}

/// `tools_offered`, of the tools `known` keeps.
fn offered_where(trace: &Trace, lang: Lang, known: impl Fn(&OfferedTool) -> bool) -> String {
    if !trace.tools.iter().any(&known) {
        let silent = trace.recorded.as_ref().is_some_and(|r| !r.tools);
        let word = if silent { NOT_RECORDED } else { NONE };
        return word.get(lang).to_string();
    }
    let tools: Vec<String> = (trace.tools.iter().filter(|t| known(t)))
        .map(|t| match &t.builtin {
            Some(kind) if t.is_server_tool() => {
                SERVER_TOOL.fill(lang, &[("name", &t.name), ("type", kind)])
            }
            Some(kind) => BUILTIN_TOOL.fill(lang, &[("name", &t.name), ("type", kind)]),
            None => super::mcp::offered(trace, t, lang).unwrap_or_else(|| t.signature()),
        })
        .collect();
    tools.join(", ")
}

/// `tools_offered`, and the `tool_choice` model call `mc` sent with them,
/// as its provider writes it, where the host sent one.
pub fn tools_offered_at(trace: &Trace, mc: &crate::trace::ModelCall, lang: Lang) -> String {
    let tools = tools_offered(trace, lang);
    match &mc.tool_choice {
        Some(choice) => {
            let value = crate::wire::tool_choice(trace.provider, choice);
            format!("{tools} · {}{value}", lead(TOOL_CHOICE, lang))
        }
        None => tools,
    }
}

/// A provider's API by the name its docs use.
pub fn provider_name(provider: crate::wire::Provider) -> &'static str {
    match provider {
        crate::wire::Provider::Chat => "OpenAI Chat Completions",
        crate::wire::Provider::Responses => "OpenAI Responses",
        crate::wire::Provider::Anthropic => "Anthropic Messages",
    }
}

/// The placeholder result the host puts in place of a removed result.
pub fn placeholder(tokens: usize, lang: Lang) -> String {
    PLACEHOLDER.fill(lang, &[("tokens", &tokens)])
}

/// The host's summary message, marked as the host's.
pub fn summary_message(text: &str, lang: Lang) -> String {
    SUMMARY_MESSAGE.fill(lang, &[("text", &text)])
}

/// The context window and the estimate behind it, for a scenario that
/// sets one.
pub fn window_line(window: usize, estimated: bool, lang: Lang) -> String {
    match estimated {
        true => WINDOW_LINE_ESTIMATED,
        false => WINDOW_LINE,
    }
    .fill(lang, &[("window", &window)])
}

/// A model call's prompt-cache hit and what the call costs with it.
pub fn cache_line(u: &crate::wire::cache::CacheUse, lang: Lang) -> String {
    CACHE_LINE.fill(
        lang,
        &[
            ("input", &u.input),
            ("cached", &u.cached),
            ("cost", &format!("{:.5}", u.cost())),
            ("full", &format!("{:.5}", u.cost_uncached())),
        ],
    )
}

/// A compacted call's result in the pairing table: what the model sees
/// now, then what the result was.
pub fn compacted_result(policy: crate::scenario::CompactPolicy, text: &str, lang: Lang) -> String {
    match policy {
        crate::scenario::CompactPolicy::DropOldestResults => RESULT_COMPACTED_DROP,
        crate::scenario::CompactPolicy::Summarize => RESULT_COMPACTED_SUMMARY,
    }
    .fill(lang, &[("text", &text)])
}

/// What the latest compaction removed, for the context panel.
pub fn compacted_line(c: &crate::trace::Compaction, lang: Lang) -> String {
    match c.policy {
        crate::scenario::CompactPolicy::DropOldestResults => COMPACTED_LINE_DROP,
        crate::scenario::CompactPolicy::Summarize => COMPACTED_LINE_SUMMARY,
    }
    .fill(
        lang,
        &[
            ("step", &(c.step + 1)),
            ("removed", &c.removed.len()),
            ("messages", &MESSAGE_WORD_N.get(c.removed.len(), lang)),
            ("calls", &join_ids(&c.calls)),
            ("before", &c.tokens_before),
            ("after", &c.tokens_after),
        ],
    )
}

/// The inner-loop note under a reply.
pub fn inner_loop(number: u32, tokens: usize, lang: Lang) -> String {
    INNER_LOOP.fill(lang, &[("number", &number), ("tokens", &tokens)])
}

/// The refusal as the host writes it into the tool result the model reads.
pub fn refusal_message(r: &Refusal, tool: &str, lang: Lang) -> String {
    match r {
        Refusal::NotOffered => REFUSED_NOT_OFFERED.fill(lang, &[("tool", &tool)]),
        Refusal::MissingArg(a) => REFUSED_MISSING_ARG.fill(lang, &[("arg", a)]),
        Refusal::UnknownArg(a) => REFUSED_UNKNOWN_ARG.fill(lang, &[("arg", a)]),
        Refusal::OutsideWorkspace(p) => REFUSED_OUTSIDE.fill(lang, &[("path", p)]),
        Refusal::NotAuthorised => REFUSED_NOT_AUTHORISED.fill(lang, &[("tool", &tool)]),
        Refusal::InvalidJson(why) => REFUSED_INVALID_JSON.fill(lang, &[("why", why)]),
        Refusal::WrongType { arg, expected } => {
            REFUSED_WRONG_TYPE.fill(lang, &[("arg", arg), ("expected", expected)])
        }
        Refusal::NotAllowed { arg, allowed } => {
            let allowed = allowed.join(", ");
            REFUSED_NOT_ALLOWED.fill(lang, &[("arg", arg), ("allowed", &allowed)])
        }
    }
}

/// The host's message to the model when its own check fails.
pub fn verification_failed(tool: &str, output: &str, lang: Lang) -> String {
    VERIFICATION_FAILED.fill(lang, &[("tool", &tool), ("output", &output)])
}

/// The host's answer to an operation id reused for a different call.
pub fn op_conflict(op: &str, lang: Lang) -> String {
    OP_CONFLICT.fill(lang, &[("op", &op)])
}

/// The result the model reads when the user denies its call.
pub fn denied_by_user(reason: &str, lang: Lang) -> String {
    if reason.trim().is_empty() {
        return DENIED_NO_REASON.get(lang).to_string();
    }
    DENIED_BY_USER.fill(lang, &[("reason", &reason)])
}

/// A result of a call the user edited, saying so after the tool's words.
pub fn edited_by_user(args: &str, result: &str, lang: Lang) -> String {
    EDITED_BY_USER.fill(lang, &[("args", &args), ("result", &result)])
}

/// What the host or a tool said (`Said`), in words: the text the model
/// reads in `lang`. The engine records the fact; this is its wording.
pub fn said(fact: &Said, lang: Lang) -> String {
    match fact {
        Said::Tool(t) => tool_says(t, lang),
        Said::Refusal { refusal, tool } => refusal_message(refusal, tool, lang),
        Said::OpConflict { op } => op_conflict(op, lang),
        Said::VerificationFailed { tool, said: inner } => {
            verification_failed(tool, &said(inner, lang), lang)
        }
        Said::DeniedByUser { reason } => {
            denied_by_user(reason.as_ref().map_or("", |r| r.get(lang)), lang)
        }
        // The host refused the user's values: nothing ran.
        Said::EditedByUser { args, said: inner } if matches!(**inner, Said::Refusal { .. }) => {
            EDITED_REFUSED.fill(lang, &[("args", args), ("result", &said(inner, lang))])
        }
        Said::EditedByUser { args, said: inner } => edited_by_user(args, &said(inner, lang), lang),
        Said::Replayed(inner) => crate::trace::mark_replayed(&said(inner, lang)),
        Said::Placeholder { tokens } => placeholder(*tokens, lang),
        Said::Summary(text) => summary_message(text.as_ref().map_or("", |t| t.get(lang)), lang),
        Said::Interrupted => SAYS_INTERRUPTED.get(lang).into(),
    }
}

/// What a built-in tool says, in words. File contents stay as they are.
pub fn tool_says(said: &ToolSays, lang: Lang) -> String {
    match said {
        ToolSays::Content(text) => text.to_string(),
        ToolSays::NoSuchFile(p) => SAYS_NO_SUCH_FILE.fill(lang, &[("path", p)]),
        ToolSays::Wrote { path, version } => {
            SAYS_WROTE.fill(lang, &[("path", path), ("version", version)])
        }
        ToolSays::Patched { path, version } => {
            SAYS_PATCHED.fill(lang, &[("path", path), ("version", version)])
        }
        ToolSays::FindNotFound(p) => SAYS_FIND_NOT_FOUND.fill(lang, &[("path", p)]),
        ToolSays::TestsPassed(n) => SAYS_TESTS_PASSED.fill(lang, &[("n", n)]),
        ToolSays::TestFailed { path, wanted, line } => {
            let template = if *line {
                SAYS_NO_LINE
            } else {
                SAYS_NOT_CONTAINED
            };
            // Quoted and escaped as Rust's Debug writes a string.
            let wanted = format!("{wanted:?}");
            template.fill(lang, &[("path", path), ("wanted", &wanted)])
        }
        ToolSays::NoSuchTool(t) => SAYS_NO_SUCH_TOOL.fill(lang, &[("tool", t)]),
        ToolSays::Custom(text) => text.get(lang).to_string(),
    }
}

fn refusal_reason(r: &Refusal, lang: Lang) -> String {
    match r {
        Refusal::NotOffered => REASON_NOT_OFFERED.get(lang).into(),
        Refusal::MissingArg(a) => REASON_MISSING_ARG.fill(lang, &[("arg", a)]),
        Refusal::UnknownArg(a) => REASON_UNKNOWN_ARG.fill(lang, &[("arg", a)]),
        Refusal::OutsideWorkspace(_) => REASON_OUTSIDE.get(lang).into(),
        Refusal::NotAuthorised => REASON_NOT_AUTHORISED.get(lang).into(),
        Refusal::InvalidJson(_) => REASON_INVALID_JSON.get(lang).into(),
        Refusal::WrongType { arg, .. } => REASON_WRONG_TYPE.fill(lang, &[("arg", arg)]),
        Refusal::NotAllowed { arg, .. } => REASON_NOT_ALLOWED.fill(lang, &[("arg", arg)]),
    }
}

/// The HTTP status a provider's error starts with (`"500 api_error: …"`,
/// as the wire and the transcript readers write them); 400 if none.
pub fn error_status(error: &str) -> u16 {
    error
        .split(' ')
        .next()
        .filter(|code| code.len() == 3)
        .and_then(|code| code.parse().ok())
        .unwrap_or(400)
}

fn join_ids(ids: &[crate::trace::CallId]) -> String {
    ids.iter()
        .map(|c| c.0.as_ref())
        .collect::<Vec<_>>()
        .join(", ")
}

/// "call_1 read_file" for one call, "call_1, call_2" for several.
fn calls_named(trace: &Trace, calls: &[CallId], index: usize) -> String {
    match calls {
        [one] => trace
            .call_at(one, index)
            .map_or(one.0.to_string(), |c| format!("{} {}", c.id, c.tool)),
        many => join_ids(many),
    }
}

/// The task's arrival in words: a sub-agent's task is the prompt the
/// calling agent wrote, not the user's words.
/// A replayed run whose file names no call (`Recorded::by_position`).
fn by_position(trace: &Trace) -> bool {
    trace.recorded.as_ref().is_some_and(|r| r.by_position)
}

fn task_words(trace: &Trace, user: Label, sub_agent: Label) -> String {
    match trace.sub_agents.agent {
        Some(_) => sub_agent.get(trace.lang).into(),
        None => user.get(trace.lang).into(),
    }
}

/// The title of the host running `calls`, or sending them to its MCP
/// server.
fn executes_title(trace: &Trace, calls: &[CallId], index: usize) -> String {
    let lang = trace.lang;
    let what = calls_named(trace, calls, index);
    match super::mcp::title(trace, index, || what.clone()) {
        Some(to_server) => to_server,
        None if calls.len() == 1 => TITLE_EXECUTES_ONE.fill(lang, &[("what", &what)]),
        None => TITLE_EXECUTES_MANY.fill(lang, &[("n", &calls.len()), ("what", &what)]),
    }
}

/// The one-line title of a step, made from what the engine recorded.
pub fn step_title(trace: &Trace, index: usize) -> String {
    let lang = trace.lang;
    let step = &trace.steps[index];
    let mut title = match &step.kind {
        StepKind::TaskArrives => task_words(trace, TITLE_TASK, TITLE_SUB_AGENT_TASK),
        StepKind::UserTurn => TITLE_USER_TURN.get(lang).into(),
        StepKind::ModelCall { number } => TITLE_MODEL_CALL.fill(lang, &[("number", number)]),
        StepKind::Throttled { .. } | StepKind::Resends { .. } => retry_title(trace, step),
        StepKind::Proposes { calls, .. } => {
            let what = calls_named(trace, calls, index);
            match calls.len() {
                1 => TITLE_PROPOSES_ONE.fill(lang, &[("what", &what)]),
                n => TITLE_PROPOSES_MANY.fill(lang, &[("n", &n), ("what", &what)]),
            }
        }
        StepKind::Validates { call, verdict } => match verdict {
            Verdict::Approved => TITLE_APPROVED.fill(lang, &[("call", call)]),
            Verdict::Refused(r) => TITLE_REFUSED.fill(
                lang,
                &[("call", call), ("reason", &refusal_reason(r, lang))],
            ),
            Verdict::AwaitsApproval => TITLE_ASKS_USER.fill(lang, &[("call", call)]),
        },
        StepKind::Executes { calls } => executes_title(trace, calls, index),
        StepKind::McpLists | StepKind::McpListed => {
            super::mcp::title(trace, index, String::new).unwrap_or_default()
        }
        StepKind::ResultArrives { call } => result_title(trace, call, index, lang),
        StepKind::Replays { call, op, conflict } => {
            let template = if *conflict {
                TITLE_OP_CONFLICT
            } else {
                TITLE_REPLAYS
            };
            template.fill(lang, &[("call", call), ("op", op)])
        }
        StepKind::Rejected {
            number,
            unanswered,
            error,
        } => rejected_title(*number, unanswered, error, lang),
        StepKind::Cut { number, .. } => TITLE_CUT.fill(lang, &[("number", number)]),
        StepKind::Answers { .. } => match step.end {
            Some(EndStatus::VerificationMissing) => TITLE_UNCHECKED_DONE,
            Some(_) => TITLE_FINAL_ANSWER,
            None => TITLE_SAYS_DONE,
        }
        .get(lang)
        .into(),
        StepKind::Verifies { tool } => TITLE_VERIFIES.fill(lang, &[("tool", tool)]),
        StepKind::Verified { passed, .. } => if *passed {
            TITLE_CHECK_PASSED
        } else {
            TITLE_CHECK_FAILED
        }
        .get(lang)
        .into(),
        StepKind::BudgetExhausted { budget, not_run } => {
            let calls = MODEL_CALL_N.get(*budget as usize, lang);
            let args: [(&str, &dyn Display); 3] = [
                ("budget", budget),
                ("calls", &calls),
                ("ids", &join_ids(not_run)),
            ];
            match not_run.is_empty() {
                true => TITLE_BUDGET.fill(lang, &args),
                false => TITLE_BUDGET_NOT_RUN.fill(lang, &args),
            }
        }
        StepKind::Crashes { call } => TITLE_CRASHES.fill(lang, &[("call", call)]),
        StepKind::Interrupted { calls } => {
            let what = calls_named(trace, calls, index);
            match forgot(trace, calls) {
                true => TITLE_INTERRUPTED_FORGOT,
                false => TITLE_INTERRUPTED,
            }
            .fill(lang, &[("what", &what)])
        }
        StepKind::UserDecides { call, decision } => match decision {
            Decision::Approved => TITLE_USER_APPROVES,
            Decision::Edited(_) => TITLE_USER_EDITS,
            Decision::Denied(_) => TITLE_USER_DENIES,
        }
        .fill(lang, &[("call", call)]),
        StepKind::Compacts { index, .. } => compaction_title(&trace.compactions[*index], lang),
        StepKind::Streams { .. } => super::stream::title(trace, index),
    };
    if let Some(end) = step.end
        && !matches!(
            step.kind,
            StepKind::Answers { .. } | StepKind::BudgetExhausted { .. } | StepKind::Rejected { .. }
        )
    {
        title.push_str(TITLE_ENDED.get(lang));
        title.push_str(end_name(end, lang));
    }
    title
}

/// The host compacted the context: how, and from how many tokens to how many.
fn compaction_title(c: &crate::trace::Compaction, lang: Lang) -> String {
    let template = match c.policy {
        crate::scenario::CompactPolicy::DropOldestResults => TITLE_COMPACTS_DROP,
        crate::scenario::CompactPolicy::Summarize => TITLE_COMPACTS_SUMMARY,
    };
    template.fill(
        lang,
        &[
            ("before", &c.tokens_before),
            ("window", &c.window),
            ("n", &c.removed.len()),
            ("after", &c.tokens_after),
            ("results", &RESULT_N.get(c.removed.len(), lang)),
            ("messages", &MESSAGE_WORD_N.get(c.removed.len(), lang)),
        ],
    )
}

/// The provider answered model call `number` with an error.
fn rejected_title(number: u32, unanswered: &[CallId], error: &str, lang: Lang) -> String {
    match error_status(error) {
        // A refusal for results missing from the context.
        400 if !unanswered.is_empty() => {
            TITLE_REJECTED.fill(lang, &[("number", &number), ("ids", &join_ids(unanswered))])
        }
        // Any other error answer (a recorded 429 or 500, a 400 for another reason).
        status => TITLE_PROVIDER_ERROR.fill(lang, &[("number", &number), ("status", &status)]),
    }
}

fn result_title(trace: &Trace, id: &CallId, index: usize, lang: Lang) -> String {
    let Some(call) = trace.call_at(id, index) else {
        return RESULT_ORPHAN.fill(lang, &[("id", id)]);
    };
    match (call.pairing(), call.outcome()) {
        (Some(Pairing::Dropped), _) => RESULT_DROPPED.fill(lang, &[("id", id)]),
        (Some(Pairing::CallDropped), _) => RESULT_CALL_DROPPED.fill(lang, &[("id", id)]),
        // Another call's id (paired by order), or an id no call has.
        (Some(Pairing::WrongId(to)), _) if trace.call(&to).is_none() => {
            RESULT_ITEM_ID.fill(lang, &[("id", id), ("to", &to)])
        }
        (Some(Pairing::WrongId(to)), _) => RESULT_WRONG_ID.fill(lang, &[("id", id), ("to", &to)]),
        _ if trace
            .appended_at(call)
            .is_some_and(|at| Some(at) > call.finished) =>
        {
            RESULT_HELD.fill(lang, &[("id", id)])
        }
        _ if trace.appended_by(index).len() > 1 => {
            let ids: Vec<&str> = trace
                .appended_by(index)
                .iter()
                .map(|c| c.0.as_ref())
                .collect();
            RESULT_IN_CALL_ORDER.fill(lang, &[("id", id), ("ids", &ids.join(", "))])
        }
        (_, outcome) => {
            let error = outcome == Some(Outcome::Error);
            match super::mcp::server_answering(trace, call) {
                Some(server) => match error {
                    true => TITLE_MCP_IS_ERROR,
                    false => TITLE_MCP_RESULT,
                }
                .fill(lang, &[("id", id), ("server", &server)]),
                // A file that names no call pairs by position.
                None if by_position(trace) => match error {
                    true => RESULT_ERROR_BY_POSITION,
                    false => RESULT_PAIRED_BY_POSITION,
                }
                .fill(lang, &[("id", id)]),
                None if error => RESULT_ERROR.fill(lang, &[("id", id)]),
                None => RESULT_PAIRED.fill(lang, &[("id", id)]),
            }
        }
    }
}

/// The words beside a step's arrow in the lanes.
/// A shorter arrow label where the full one has parts a narrow lane can
/// drop: the proposals by their ids alone, so "(proposed)", the lesson of
/// the step, is never the part cut off.
pub fn arrow_label_short(trace: &Trace, step: &Step) -> Option<String> {
    let lang = trace.lang;
    match &step.kind {
        StepKind::Proposes { calls, .. } => {
            let ids: Vec<&str> = calls.iter().map(|id| id.0.as_ref()).collect();
            Some(ARROW_PROPOSED.fill(lang, &[("what", &ids.join(", "))]))
        }
        _ => None,
    }
}

/// The words beside the arrow of step `index` of `trace`.
pub fn arrow_label(trace: &Trace, index: usize) -> String {
    let lang = trace.lang;
    let step = &trace.steps[index];
    // Which step this is, for an id a transcript reuses in a later turn.
    let index = Some(index);
    let call_of = |id: &CallId| match index {
        Some(i) => trace.call_at(id, i),
        None => trace.call(id),
    };
    match &step.kind {
        StepKind::TaskArrives => task_words(trace, ARROW_TASK, ARROW_SUB_AGENT_TASK),
        StepKind::UserTurn => ARROW_USER_TURN.get(lang).into(),
        StepKind::ModelCall { number } => model_call_arrow(trace, step, *number),
        StepKind::Throttled {
            error, retry_after, ..
        } => {
            let status = crate::wire::turned_away(trace.provider, *error, *retry_after).status;
            ARROW_THROTTLED.fill(lang, &[("status", &status), ("seconds", retry_after)])
        }
        StepKind::Resends { number } => ARROW_RESENDS.fill(lang, &[("number", number)]),
        StepKind::Proposes { calls, .. } => {
            let what: Vec<String> = calls
                .iter()
                .map(|id| call_of(id).map_or(id.0.to_string(), |c| format!("{id} {}", c.tool)))
                .collect();
            ARROW_PROPOSED.fill(lang, &[("what", &what.join(", "))])
        }
        StepKind::Validates { call, verdict } => match verdict {
            Verdict::Approved => ARROW_APPROVED.fill(lang, &[("call", call)]),
            Verdict::Refused(r) => ARROW_REFUSED.fill(
                lang,
                &[("call", call), ("reason", &refusal_reason(r, lang))],
            ),
            Verdict::AwaitsApproval => ARROW_ASKS_USER.fill(lang, &[("call", call)]),
        },
        StepKind::Executes { calls } => index
            .and_then(|i| super::mcp::arrow(trace, i, || join_ids(calls)))
            .unwrap_or_else(|| ARROW_RUN.fill(lang, &[("ids", &join_ids(calls))])),
        StepKind::McpLists | StepKind::McpListed => index
            .and_then(|i| super::mcp::arrow(trace, i, String::new))
            .unwrap_or_default(),
        StepKind::ResultArrives { call } => result_arrow(call, call_of(call), lang),
        StepKind::Replays { call, op, conflict } => {
            let template = if *conflict {
                ARROW_OP_CONFLICT
            } else {
                ARROW_REPLAYS
            };
            template.fill(lang, &[("call", call), ("op", op)])
        }
        StepKind::Rejected {
            unanswered, error, ..
        } => match unanswered.is_empty() {
            // Refused for another reason than a missing result.
            true => ARROW_PROVIDER_ERROR.fill(lang, &[("status", &error_status(error))]),
            false => ARROW_REJECTED.fill(lang, &[("ids", &join_ids(unanswered))]),
        },
        StepKind::Cut { .. } => ARROW_CUT.get(lang).into(),
        StepKind::Answers { .. } => if step.end.is_some() {
            ARROW_FINAL_ANSWER
        } else {
            ARROW_SAYS_DONE
        }
        .get(lang)
        .into(),
        StepKind::Verifies { tool } => ARROW_VERIFY.fill(lang, &[("tool", tool)]),
        StepKind::Verified { passed, .. } => if *passed {
            ARROW_CHECK_PASSED
        } else {
            ARROW_CHECK_FAILED
        }
        .get(lang)
        .into(),
        StepKind::BudgetExhausted { not_run, .. } if !not_run.is_empty() => {
            ARROW_BUDGET_TELLS_USER.fill(lang, &[("ids", &join_ids(not_run))])
        }
        StepKind::BudgetExhausted { .. } => ARROW_BUDGET.get(lang).into(),
        StepKind::Crashes { .. } => ARROW_CRASHES.get(lang).into(),
        StepKind::Interrupted { calls } => {
            ARROW_INTERRUPTED.fill(lang, &[("ids", &join_ids(calls))])
        }
        StepKind::UserDecides { call, decision } => match decision {
            Decision::Approved => ARROW_USER_APPROVES.fill(lang, &[("call", call)]),
            Decision::Edited(edit) => {
                // The names only: a value rarely fits beside the lanes; the
                // table shows the values the call runs with.
                let names: Vec<&str> = edit.iter().map(|(k, _)| k.as_str()).collect();
                ARROW_USER_EDITS.fill(lang, &[("call", call), ("names", &names.join(", "))])
            }
            Decision::Denied(reason) => {
                let reason = reason.as_ref().map_or("", |r| r.get(lang));
                ARROW_USER_DENIES.fill(lang, &[("call", call), ("reason", &one_line(reason))])
            }
        },
        StepKind::Compacts { index, .. } => {
            let c = &trace.compactions[*index];
            ARROW_COMPACTS.fill(
                lang,
                &[("before", &c.tokens_before), ("after", &c.tokens_after)],
            )
        }
        StepKind::Streams { .. } => super::stream::arrow(trace, index),
    }
}

/// A model call's arrow: its number and the request's list as its
/// provider counts it (items or messages).
fn model_call_arrow(trace: &Trace, step: &Step, number: u32) -> String {
    let lang = trace.lang;
    let len = step
        .model_call
        .map_or(0, |i| crate::wire::list_counts(trace, i).0);
    let items = match trace.provider {
        crate::wire::Provider::Responses => ITEM_N,
        crate::wire::Provider::Chat | crate::wire::Provider::Anthropic => MESSAGE_N,
    };
    ARROW_MODEL_CALL.fill(
        lang,
        &[
            ("number", &number),
            ("len", &len),
            ("messages", &items.get(len, lang)),
        ],
    )
}

/// A result's arrow: its call id and its text on one line, marked when it
/// failed, was paired to a wrong id or dropped; `c` its call, None for an
/// orphan.
fn result_arrow(call: &CallId, c: Option<&crate::trace::ToolCall>, lang: Lang) -> String {
    let Some(c) = c else {
        return ARROW_ORPHAN.fill(lang, &[("call", call)]);
    };
    let text = c
        .result
        .as_ref()
        .map_or(String::new(), |r| one_line(&r.text));
    let mark = if c.outcome() == Some(Outcome::Error) {
        "✗ "
    } else {
        ""
    };
    match c.pairing() {
        Some(Pairing::WrongId(to)) => {
            ARROW_WRONG_ID.fill(lang, &[("call", call), ("to", &to), ("text", &text)])
        }
        Some(Pairing::Dropped | Pairing::CallDropped) => {
            ARROW_DROPPED.fill(lang, &[("call", call), ("mark", &mark), ("text", &text)])
        }
        _ => format!("{call} ⇐ {mark}{text}"),
    }
}

pub fn first_line(s: &str) -> String {
    let mut lines = s.lines();
    let first = lines.next().unwrap_or("").to_string();
    if lines.next().is_some() {
        first + " …"
    } else {
        first
    }
}

/// A step's explanation: its narration, else `generic_explanation`.
pub fn explanation(trace: &Trace, index: usize) -> String {
    match &trace.steps[index].narration {
        Some(told) => told.to_string(),
        None => generic_explanation(trace, index),
    }
}

/// A plain explanation for a step the author did not narrate.
pub fn generic_explanation(trace: &Trace, index: usize) -> String {
    let step = &trace.steps[index];
    if let Some(why) = super::mcp::why(trace, index) {
        return why.get(trace.lang).into();
    }
    match &step.kind {
        StepKind::McpLists => WHY_MCP_LISTS,
        StepKind::McpListed => WHY_MCP_LISTED,
        StepKind::TaskArrives => WHY_TASK,
        StepKind::UserTurn => WHY_USER_TURN,
        StepKind::ModelCall { .. } => WHY_MODEL_CALL,
        StepKind::Throttled {
            error: HttpError::RateLimit,
            ..
        } => WHY_RATE_LIMITED,
        StepKind::Throttled {
            error: HttpError::Overloaded,
            ..
        } => WHY_OVERLOADED,
        StepKind::Resends { .. } => WHY_RESENDS,
        StepKind::Proposes { .. } => WHY_PROPOSES,
        StepKind::Validates { verdict, .. } => match verdict {
            Verdict::Approved => WHY_APPROVED,
            Verdict::Refused(_) => WHY_REFUSED,
            Verdict::AwaitsApproval => WHY_ASKS_USER,
        },
        StepKind::Executes { calls } if calls.len() > 1 => WHY_PARALLEL,
        StepKind::Executes { .. } => WHY_EXECUTES,
        StepKind::ResultArrives { .. } => WHY_RESULT,
        StepKind::Answers { .. } => WHY_ANSWERS,
        StepKind::Verifies { .. } => WHY_VERIFIES,
        StepKind::Verified { passed: true, .. } => WHY_CHECK_PASSED,
        StepKind::Verified { passed: false, .. } => WHY_CHECK_FAILED,
        StepKind::BudgetExhausted { .. } => WHY_BUDGET,
        StepKind::Crashes { .. } => WHY_CRASHES,
        StepKind::Interrupted { calls } if forgot(trace, calls) => WHY_INTERRUPTED_FORGOT,
        StepKind::Interrupted { .. } => WHY_INTERRUPTED,
        StepKind::Replays {
            conflict: false, ..
        } => WHY_REPLAYS,
        StepKind::Replays { conflict: true, .. } => WHY_OP_CONFLICT,
        StepKind::Rejected { .. } => WHY_REJECTED,
        StepKind::Cut { .. } => WHY_CUT,
        StepKind::UserDecides { decision, .. } => match decision {
            Decision::Approved => WHY_USER_APPROVES,
            Decision::Edited(_) => WHY_USER_EDITS,
            Decision::Denied(_) => WHY_USER_DENIES,
        },
        StepKind::Compacts { index, .. } => match trace.compactions[*index].policy {
            crate::scenario::CompactPolicy::DropOldestResults => WHY_COMPACTS_DROP,
            crate::scenario::CompactPolicy::Summarize => WHY_COMPACTS_SUMMARY,
        },
        StepKind::Streams { .. } => super::stream::why(trace, index),
    }
    .get(trace.lang)
    .into()
}

/// Did the host append no result for the calls the user stopped
/// (`harness.forget_interrupted`)?
fn forgot(trace: &Trace, calls: &[CallId]) -> bool {
    calls
        .iter()
        .filter_map(|id| trace.call(id))
        .any(|c| !c.appended)
}

/// The title of a request turned away, or of the host sending it again.
fn retry_title(trace: &Trace, step: &Step) -> String {
    let lang = trace.lang;
    match &step.kind {
        StepKind::Throttled {
            number,
            error,
            retry_after,
        } => {
            let status = crate::wire::turned_away(trace.provider, *error, *retry_after).status;
            let template = match error {
                HttpError::RateLimit => TITLE_RATE_LIMITED,
                HttpError::Overloaded => TITLE_OVERLOADED,
            };
            template.fill(
                lang,
                &[
                    ("number", number),
                    ("status", &status),
                    ("seconds", retry_after),
                ],
            )
        }
        StepKind::Resends { number } => TITLE_RESENDS.fill(
            lang,
            &[("number", number), ("http", &step.counters.http_requests)],
        ),
        _ => String::new(),
    }
}
