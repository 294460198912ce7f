//! The whole run as plain text in reading order, for screen readers, alt
//! text beside a figure, and grep: for each step who acts, what crossed
//! which lane, the context sent on a model call, the calls and their
//! results by call_id, and the explanation. No box drawing and no layout:
//! the same trace and the same words (`i18n`) as the screen.
//!
//! A model call's context is written as `trace` writes it
//! ([`ContextShape`]): by default only the messages new on that call, the
//! ones sent before named by their numbers, so the output grows with the
//! run; `--full-context` writes every message of every context again.

use std::io::{self, Write};

use crate::i18n::{self, lead};
use crate::place::Place;
use crate::tokens::Counts;
use crate::trace::{Message, Role, StepKind, Trace};
use crate::trace_json::ContextShape;
use crate::wire::Provider;

/// Write the run of `trace` as plain text.
pub fn write(trace: &Trace, shape: ContextShape, out: &mut impl Write) -> io::Result<()> {
    write_with_quiz(trace, shape, None, out)
}

/// A lesson's sub-agent's own run, after its parent's (`parent`): which
/// call started it, then its steps.
pub fn write_sub_agent(
    parent: &Trace,
    sub: &Trace,
    shape: ContextShape,
    out: &mut impl Write,
) -> io::Result<()> {
    let lang = sub.lang;
    for (call, agent) in &parent.sub_agents.started {
        let said = i18n::SUB_AGENT_OUT.fill(
            lang,
            &[("call", call), ("agent", agent), ("k", &1), ("n", &2)],
        );
        writeln!(out, "\n{said}\n")?;
    }
    write(sub, shape, out)
}

/// The run as plain text; with `quiz` (the scenario's own questions), the
/// quiz as the simulator asks it: before each step its question and
/// numbered choices, after the step the answer (`transcript --quiz`, for
/// screen-reader users).
pub fn write_with_quiz(
    trace: &Trace,
    shape: ContextShape,
    quiz: Option<&crate::load::Loaded>,
    out: &mut impl Write,
) -> io::Result<()> {
    let lang = trace.lang;
    writeln!(out, "{}", trace.title)?;
    if let Some(r) = &trace.recorded
        && let Some(line) = crate::transcript::unread(&r.unread, r.by_item, lang)
    {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    let timeline = crate::trace::Timeline::of(trace);
    let at = ByStep::of(trace);
    let mut sent = SentRuns::default();
    // Each message counted once, where a replayed run counts when asked.
    let counts = crate::wire::counts_of(trace);
    for index in 0..trace.len() {
        let step = &trace.steps[index];
        let question = quiz.and_then(|loaded| crate::quiz::asked(loaded, trace, index));
        if let Some(q) = &question {
            writeln!(
                out,
                "{}",
                i18n::QUIZ_PLAIN_QUESTION.fill(lang, &[("n", &(index + 1)), ("prompt", &q.prompt)])
            )?;
            for (k, choice) in q.choices.iter().enumerate() {
                writeln!(out, "  [{}] {choice}", k + 1)?;
            }
            writeln!(out)?;
        }
        writeln!(
            out,
            "{} {}/{} — {}",
            i18n::STEP_TITLE.get(lang),
            index + 1,
            trace.len(),
            i18n::step_title(trace, index)
        )?;
        writeln!(
            out,
            "{}{}",
            lead(i18n::ACTING, lang),
            i18n::who_acts(trace, index)
        )?;
        writeln!(
            out,
            "{}{}",
            lead(i18n::CROSSED, lang),
            i18n::arrow_label(trace, index)
        )?;
        writeln!(out, "{}", i18n::counters(trace, &counts, step, false, lang))?;
        if let (StepKind::ModelCall { .. }, Some(i)) = (&step.kind, step.model_call) {
            context(trace, (i, &counts), shape, &mut sent, out)?;
        }
        reply(trace, at.reply[index], out)?;
        calls(trace, &at.changed[index], index, out)?;
        if let Some(error) = crate::wire::error_at(trace, &step.kind) {
            writeln!(out, "{}{error}", i18n::provider_says(trace.provider, lang))?;
        }
        mcp_messages(trace, index, out)?;
        if let Some(end) = step.end {
            writeln!(out, "{}", i18n::loop_ended(end, trace.task, lang))?;
        }
        let explanation = i18n::explanation(trace, index);
        writeln!(out, "{}{explanation}", lead(i18n::EXPLAIN, lang))?;
        // The inner loop, under a reply, as the explanation panel says it.
        if let StepKind::Proposes { number, .. } | StepKind::Answers { number } = step.kind
            && let Some(index) = (number as usize).checked_sub(1)
            && index < trace.model_calls.len()
        {
            let tokens = crate::wire::output_tokens(trace, &counts, index);
            writeln!(out, "{}", i18n::inner_loop(number, tokens, lang))?;
        }
        if let Some(q) = &question {
            writeln!(
                out,
                "{}",
                i18n::QUIZ_PLAIN_ANSWER.fill(
                    lang,
                    &[("k", &(q.answer + 1)), ("choice", &q.choices[q.answer])]
                )
            )?;
            if let Some(why) = &q.why {
                writeln!(out, "{}{why}", lead(i18n::QUIZ_WHY, lang))?;
            }
        }
        // What the Tool lane and the context panel say at their foot.
        if !trace.files.is_empty() {
            writeln!(
                out,
                "{}",
                crate::view::lanes::environment_text(trace, &timeline, index, usize::MAX, lang)
            )?;
            writeln!(out, "{}", disk_text(trace, &timeline, index))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// The messages exactly as sent on model call `i`, new ones marked with
/// `+`, numbered and named as the context panel numbers and names them
/// (the provider's list: a Chat system message is number 1, a Responses
/// call is an item of its own, Anthropic results join one user message);
/// the system prompt (Responses' `instructions`, Anthropic's `system`)
/// first. In the linear shape, those sent before only by their numbers
/// (`1–4, 6`), each having been written on an earlier call.
fn context(
    trace: &Trace,
    (i, counts): (usize, &Counts),
    shape: ContextShape,
    sent: &mut SentRuns,
    out: &mut impl Write,
) -> io::Result<()> {
    let lang = trace.lang;
    let mc = &trace.model_calls[i];
    let (items, new) = crate::wire::list_counts(trace, i);
    let heading = i18n::context_heading(trace, counts, mc, items, new, lang);
    writeln!(out, "{heading}")?;
    let tools = i18n::tools_offered_at(trace, mc, lang);
    writeln!(out, "  {}{}", lead(i18n::TOOLS_OFFERED, lang), tools)?;
    let colon = i18n::colon(lang);
    let system = trace.system.as_deref().filter(|s| !s.is_empty());
    let chat_system = system.is_some() && trace.provider == Provider::Chat;
    let range = mc.context_start..mc.context_len;
    // What the call before sent is not new; only the rest is asked
    // (`is_new` follows compaction copies), and in the linear shape only
    // the rest is written: a call costs what is new on it, plus one light
    // pass for the numbers of what was sent before.
    let sent_before = match i.checked_sub(1).map(|p| &trace.model_calls[p]) {
        Some(p) => p.context_start.max(range.start)..p.context_len.min(range.end),
        None => 0..0,
    };
    let new = |k: usize| {
        let m = mc.context_start + k;
        !sent_before.contains(&m) && trace.is_new(i, m)
    };
    // The part of this context the call before sent, as indices.
    let a = sent_before.start.clamp(range.start, range.end);
    let b = sent_before.end.clamp(a, range.end);
    // Each message's number in the list; None where it joins the one
    // before (it then has no number of its own).
    let fixed = u32::from(chat_system);
    let number = |k: usize| -> Option<u32> {
        let m = mc.context_start + k;
        match trace.places.get(m) {
            Some(place) if place.joins() && k > 0 => None,
            Some(place) => Some(place.number),
            None => Some(fixed + k as u32 + 1),
        }
    };
    if shape == ContextShape::Linear {
        let mut runs = Vec::new();
        if chat_system && i > 0 {
            push_run(&mut runs, (1, 1));
        }
        let outside = |ms: std::ops::Range<usize>| {
            ms.map(|m| m - range.start)
                .filter(|&k| !new(k))
                .filter_map(number)
        };
        outside(range.start..a).for_each(|n| push_run(&mut runs, (n, n)));
        let covered = sent.covering(range.start, a, b, |m| number(m - range.start));
        covered.iter().for_each(|&run| push_run(&mut runs, run));
        outside(b..range.end).for_each(|n| push_run(&mut runs, (n, n)));
        let before = written_runs(&runs);
        if !before.is_empty() {
            writeln!(
                out,
                "{}",
                i18n::SENT_BEFORE.fill(lang, &[("which", &before)])
            )?;
        }
    }
    // The system prompt, as every request sends it first: new on call #1.
    if let Some(system) = system
        && (shape == ContextShape::Full || i == 0)
    {
        let mark = if i == 0 { "+" } else { " " };
        let (number, label) = match trace.provider {
            Provider::Chat => (" 1.", i18n::ROLE_SYSTEM.get(lang)),
            Provider::Responses => ("   ", i18n::INSTRUCTIONS.get(lang)),
            Provider::Anthropic => ("   ", i18n::ROLE_SYSTEM.get(lang)),
        };
        let text = system.replace('\n', "\n       ");
        writeln!(out, "  {mark}{number} {label}{colon}{text}")?;
    }
    // The linear shape writes the new messages only: those outside what
    // the call before sent.
    let written: Box<dyn Iterator<Item = usize>> = match shape {
        ContextShape::Full => Box::new(0..range.len()),
        ContextShape::Linear => {
            let before = (range.start..a).map(|m| m - range.start);
            let after = (b..range.end).map(|m| m - range.start);
            Box::new(before.chain(after).filter(|&k| new(k)))
        }
    };
    let context = trace.context(mc);
    for k in written {
        let mark = if new(k) { "+" } else { " " };
        let place = trace.places.get(mc.context_start + k).copied();
        message(trace, &context[k], (mark, number(k)), place, out)?;
    }
    Ok(())
}

/// One message of a context as the transcript writes it: its mark, number
/// and role, its reasoning first, its text, then its calls (a Responses
/// call an item of its own, after the reply's text).
fn message(
    trace: &Trace,
    m: &Message,
    (mark, number): (&str, Option<u32>),
    place: Option<Place>,
    out: &mut impl Write,
) -> io::Result<()> {
    let lang = trace.lang;
    let colon = i18n::colon(lang);
    let role = match (trace.provider, m.role, number) {
        (Provider::Anthropic, Role::Tool, None) => "tool_result".to_string(),
        (Provider::Anthropic, Role::Tool, Some(_)) => {
            format!("{} tool_result", i18n::role_name(Role::User, lang))
        }
        (Provider::Responses, Role::Tool, _) => "function_call_output".to_string(),
        (_, role, _) => i18n::role_name(role, lang).to_string(),
    };
    // A reply's reasoning goes first (`wire::thinking`): Responses an
    // item of its own, numbered before the reply's; Anthropic a block.
    let reasoning = m.reasoning.as_deref().map(|r| r.replace('\n', "\n       "));
    let number = match (&reasoning, trace.provider) {
        (Some(r), Provider::Responses) => {
            let n = number.unwrap_or(0);
            writeln!(out, "  {mark}{n:>2}. reasoning{colon}{r}")?;
            Some(n + 1)
        }
        _ => number,
    };
    let shown = number.map_or("   ".to_string(), |n| format!("{n:>2}."));
    let id = m
        .call_id
        .as_ref()
        .map_or(String::new(), |id| format!("[{id}] "));
    let error = if m.is_error { "✗ " } else { "" };
    // Line breaks of a message stay, indented under it.
    let mut text = m.text.replace('\n', "\n       ");
    if let (Some(r), Provider::Anthropic) = (&reasoning, trace.provider) {
        text = match text.is_empty() {
            true => format!("thinking{colon}{r}"),
            false => format!("thinking{colon}{r}\n       {text}"),
        };
    }
    writeln!(out, "  {mark}{shown} {role}{colon}{id}{error}{text}")?;
    // A Responses call is an item of its own, after the reply's text.
    let calls: Vec<_> = m.calls.iter().filter_map(|id| trace.call(id)).collect();
    let first_call = match (trace.provider, place) {
        (Provider::Responses, Some(place)) => Some(place.number + place.items - calls.len() as u32),
        _ => None,
    };
    for (j, call) in calls.iter().enumerate() {
        let item = first_call.map_or(String::new(), |n| {
            format!("{}. function_call ", n + j as u32)
        });
        writeln!(
            out,
            "       → {item}{} {} {}",
            call.id,
            call.tool,
            call.args_text()
        )?;
    }
    Ok(())
}

/// The files on disk at `step` (the model never sees them directly).
fn disk_text(trace: &Trace, timeline: &crate::trace::Timeline, step: usize) -> String {
    let lang = trace.lang;
    let files: Vec<&str> = trace
        .files
        .iter()
        .filter(|f| timeline.created_at(f).is_none_or(|created| created <= step))
        .map(|f| f.as_str())
        .collect();
    let list = if files.is_empty() {
        i18n::NONE.get(lang).to_string()
    } else {
        files.join(", ")
    };
    format!("{}{list}", lead(i18n::DISK, lang))
}

/// What each step writes that is found elsewhere in the trace, looked up
/// once for the whole run (a search at every step made `transcript`
/// quadratic in the run's length, issue 39).
struct ByStep {
    /// The reply a step carries: the last assistant message of a step that
    /// proposes or answers.
    reply: Vec<Option<usize>>,
    /// The calls a step changed (proposed, judged, decided, started or
    /// finished), in proposal order.
    changed: Vec<Vec<usize>>,
}

impl ByStep {
    fn of(trace: &Trace) -> ByStep {
        let mut reply = vec![None; trace.len()];
        for (k, m) in trace.messages.iter().enumerate() {
            let replies = matches!(
                trace.steps.get(m.step).map(|s| &s.kind),
                Some(StepKind::Proposes { .. } | StepKind::Answers { .. })
            );
            if replies && m.role == Role::Assistant {
                reply[m.step] = Some(k);
            }
        }
        let mut changed = vec![Vec::new(); trace.len()];
        for (k, c) in trace.calls.iter().enumerate() {
            let mut steps = [
                Some(c.proposed),
                c.verdict.as_ref().map(|(s, _)| *s),
                c.decision.as_ref().map(|(s, _)| *s),
                c.started,
                c.finished,
            ];
            steps.sort();
            for (j, step) in steps.iter().enumerate() {
                if let Some(step) = *step
                    && step >= c.proposed
                    && steps[..j].last() != Some(&Some(step))
                    && let Some(list) = changed.get_mut(step)
                {
                    list.push(k);
                }
            }
        }
        ByStep { reply, changed }
    }
}

/// The model's reply in its own words (message `reply`), at the step it
/// arrives: a final answer is read here, not only in the next call's
/// context (there is none).
fn reply(trace: &Trace, reply: Option<usize>, out: &mut impl Write) -> io::Result<()> {
    let lang = trace.lang;
    let Some(m) = reply.map(|k| &trace.messages[k]) else {
        return Ok(());
    };
    if m.text.trim().is_empty() {
        return Ok(());
    }
    let text = m.text.replace('\n', "\n  ");
    writeln!(out, "{}{text}", lead(i18n::PLAIN_REPLY, lang))
}

/// The runs of item numbers of the messages `from..to` of a context
/// starting at `start`, kept from one model call to the next: a context
/// that grows at its end is read again only where it grew (the numbers of
/// everything sent before, read at every call, made `transcript`
/// quadratic).
#[derive(Default)]
struct SentRuns {
    start: usize,
    from: usize,
    to: usize,
    runs: Vec<(u32, u32)>,
}

impl SentRuns {
    fn covering(
        &mut self,
        start: usize,
        from: usize,
        to: usize,
        number: impl Fn(usize) -> Option<u32>,
    ) -> &[(u32, u32)] {
        if (self.start, self.from) != (start, from) || to < self.to {
            *self = SentRuns {
                start,
                from,
                to: from,
                runs: Vec::new(),
            };
        }
        for n in (self.to..to).filter_map(number) {
            push_run(&mut self.runs, (n, n));
        }
        self.to = to;
        &self.runs
    }
}

/// `run` after `runs`, joined to the last one where it follows it.
fn push_run(runs: &mut Vec<(u32, u32)>, run: (u32, u32)) {
    match runs.last_mut() {
        Some(last) if last.1 + 1 == run.0 => last.1 = run.1,
        _ => runs.push(run),
    }
}

/// Item numbers, in runs: `1–4, 6`.
#[cfg(test)]
fn numbers(list: impl IntoIterator<Item = u32>) -> String {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for n in list {
        push_run(&mut runs, (n, n));
    }
    written_runs(&runs)
}

/// Runs of item numbers as written: `1–4, 6`.
fn written_runs(runs: &[(u32, u32)]) -> String {
    runs.iter()
        .map(|&(a, b)| match a == b {
            true => a.to_string(),
            false => format!("{a}–{b}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The calls as they stand at a step that changed one of them (`changed`,
/// indices into the trace's calls), each with its status and the result
/// attached to it.
fn calls(trace: &Trace, changed: &[usize], index: usize, out: &mut impl Write) -> io::Result<()> {
    let lang = trace.lang;
    let changed = changed.iter().map(|&k| &trace.calls[k]);
    for call in changed {
        let Some(status) = trace.status_at(call, index) else {
            continue;
        };
        // From the user's edit on, the arguments the call runs with, as the
        // pairing table shows them.
        let args = call
            .run_args_text_at(index)
            .unwrap_or_else(|| call.args_text());
        write!(
            out,
            "  {} {} {} — {}",
            call.id,
            call.tool,
            args,
            i18n::status_name(status, lang)
        )?;
        match call
            .result
            .as_ref()
            .filter(|_| call.finished <= Some(index))
        {
            // Line breaks of a result stay, indented under its call.
            Some(result) => writeln!(
                out,
                " ⇒ {}",
                i18n::result_in_words(call, &result.text, |id| id.0.to_string(), lang)
                    .replace('\n', "\n    ")
            )?,
            None => writeln!(out)?,
        }
    }
    Ok(())
}

/// The JSON-RPC messages a step sends to or from an MCP server, one a
/// line, as the explanation panel shows them.
fn mcp_messages(trace: &Trace, index: usize, out: &mut impl Write) -> io::Result<()> {
    let Some(server) = crate::wire::mcp::server_at(trace, index) else {
        return Ok(());
    };
    writeln!(
        out,
        "{}",
        i18n::MCP_WIRE_LEAD.fill(trace.lang, &[("server", &server)])
    )?;
    for (sender, message) in crate::wire::mcp::messages_at(trace, index) {
        let arrow = match sender {
            crate::wire::mcp::Sender::Host => "→",
            crate::wire::mcp::Sender::Server => "←",
        };
        let text = crate::trace::spaced_json(&message);
        writeln!(out, "  {arrow} {}", crate::safe::for_screen(&text))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn numbers_are_written_in_runs() {
        let n = |list: &[u32]| super::numbers(list.iter().copied());
        assert_eq!(n(&[]), "");
        assert_eq!(n(&[1, 2, 3, 4, 6]), "1–4, 6");
        assert_eq!(n(&[2, 4, 5]), "2, 4–5");
    }
}
