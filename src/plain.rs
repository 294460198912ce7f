//! The whole run as plain text in reading order, for screen readers, alt
//! text beside a figure, and grep: for each step who acts, what crossed
//! which lane, the context sent on a model call, the calls and their
//! results by call_id, and the explanation. No box drawing and no layout:
//! the same trace and the same words (`i18n`) as the screen.

use std::io::{self, Write};

use crate::i18n::{self, lead};
use crate::trace::{StepKind, Trace};

/// Write the run of `trace` as plain text.
pub fn write(trace: &Trace, out: &mut impl Write) -> io::Result<()> {
    let lang = trace.lang;
    writeln!(out, "{}", trace.title)?;
    if let Some(r) = &trace.recorded
        && let Some(line) = crate::transcript::unread(&r.unread, r.by_item, lang)
    {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    for index in 0..trace.len() {
        let step = &trace.steps[index];
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
            i18n::who_acts(step, lang)
        )?;
        writeln!(
            out,
            "{}{}",
            lead(i18n::CROSSED, lang),
            i18n::arrow_label(trace, step)
        )?;
        writeln!(out, "{}", i18n::counters(trace, step, false, lang))?;
        if let (StepKind::ModelCall { .. }, Some(i)) = (&step.kind, step.model_call) {
            context(trace, i, out)?;
        }
        calls(trace, index, out)?;
        if let StepKind::Rejected { error, .. } = &step.kind {
            writeln!(out, "{}{error}", lead(i18n::PROVIDER_SAYS, lang))?;
        }
        if let Some(end) = step.end {
            writeln!(out, "{}", i18n::loop_ended(end, trace.task, lang))?;
        }
        let explanation = step
            .narration
            .clone()
            .unwrap_or_else(|| i18n::generic_explanation(trace, index));
        writeln!(out, "{}{explanation}", lead(i18n::EXPLAIN, lang))?;
        writeln!(out)?;
    }
    Ok(())
}

/// The messages exactly as sent on model call `i`, numbered, new ones
/// marked with `+`.
fn context(trace: &Trace, i: usize, out: &mut impl Write) -> io::Result<()> {
    let lang = trace.lang;
    let mc = &trace.model_calls[i];
    let (items, new) = crate::wire::list_counts(trace, i);
    let heading = i18n::context_heading(trace, mc, items, new, lang);
    writeln!(out, "{heading}")?;
    let mut tools: Vec<String> = trace.tools.iter().map(|t| t.signature()).collect();
    if tools.is_empty() {
        let silent = trace.recorded.as_ref().is_some_and(|r| !r.tools);
        let word = if silent {
            i18n::NOT_RECORDED
        } else {
            i18n::NONE
        };
        tools.push(word.get(lang).to_string());
    }
    writeln!(
        out,
        "  {}{}",
        lead(i18n::TOOLS_OFFERED, lang),
        tools.join(", ")
    )?;
    for (k, m) in trace.context(mc).iter().enumerate() {
        let mark = if trace.is_new(i, mc.context_start + k) {
            "+"
        } else {
            " "
        };
        let role = i18n::role_name(m.role, lang);
        let id = m
            .call_id
            .as_ref()
            .map_or(String::new(), |id| format!("[{id}] "));
        let error = if m.is_error { "✗ " } else { "" };
        // Line breaks of a message stay, indented under it.
        let text = m.text.replace('\n', "\n       ");
        let colon = i18n::colon(lang);
        writeln!(out, "  {mark}{:>2}. {role}{colon}{id}{error}{text}", k + 1)?;
        for call in m.calls.iter().filter_map(|id| trace.call(id)) {
            writeln!(
                out,
                "       → {} {} {}",
                call.id,
                call.tool,
                call.args_text()
            )?;
        }
    }
    Ok(())
}

/// The calls as they stand at a step that changed one of them, each with
/// its status and the result attached to it.
fn calls(trace: &Trace, index: usize, out: &mut impl Write) -> io::Result<()> {
    let lang = trace.lang;
    let changed = trace.calls_at(index).iter().filter(|c| {
        [
            Some(c.proposed),
            c.verdict.as_ref().map(|(s, _)| *s),
            c.started,
            c.finished,
        ]
        .contains(&Some(index))
    });
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
            Some(result) => writeln!(
                out,
                " ⇒ {}",
                i18n::result_in_words(call, &result.text, lang)
            )?,
            None => writeln!(out)?,
        }
    }
    Ok(())
}
