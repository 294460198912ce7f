//! The one run, told in another language. The loop runs once
//! (`run_once`), in the default language; what a language changes is then
//! set on a clone of its trace, step for step, whose lists (steps,
//! messages, calls, file events) stay shared with the run's
//! (`trace::Shared`) unless the language changes them: only what differs
//! is written, so what both languages have alike is held once and a list
//! whose words read alike is not copied. What is set: the scenario's words
//! (the task, the model's replies, narration, tool descriptions), the host's and
//! tools' texts (facts, `Said`, worded by the caller's `Words`), and what
//! is measured from them (sizes, tokens, each message's place in the
//! requests). Nothing is decided again: which rule holds, what the host
//! allows, what the tools do and when the host compacts are the run's.
//!
//! Two decisions rest on the words. Compaction (the request's tokens
//! against the window): the run makes it on its own language's counts, and
//! `Differs` names each model call where the other language's counts
//! would decide otherwise. Which rule of the scripted model holds (a rule's
//! "contains" or "lacks" text): the run's context decides, and
//! `RuleDiffers` names the first model call where the other language's
//! context would hold another rule. `check` reports both as faults of the
//! lesson.

use std::collections::HashMap;
use std::sync::Arc;

use super::custom::offered_tools;
use super::plan::{Item, Sight};
use super::run::{Sources, Words};
use crate::rules::RuleMatcher;
use crate::scenario::{Lang, Scenario, Text};
use crate::trace::{CallId, HostInsert, Message, Role, Said, StepKind, ToolSays, Trace};
use crate::wire;

/// A run of a lesson, told in each language.
#[derive(Debug, Clone)]
pub struct Told {
    /// One trace per language, indexed by `Lang::index`: the same steps,
    /// calls and outcome in each.
    pub traces: [Trace; Lang::COUNT],
    /// Where a language's token counts would decide on compaction
    /// otherwise than the run did, in order of the run.
    pub differs: Vec<Differs>,
    /// The first model call where the other language's context would
    /// hold another rule than the run's did.
    pub rules_differ: Option<RuleDiffers>,
}

/// A model call where the scripted model's rule, chosen on the run's
/// context, is not the first that holds on the other language's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleDiffers {
    pub decided: Lang,
    pub other: Lang,
    pub model_call: u32,
    /// The model call's step (0-based).
    pub step: usize,
    /// The rule the run chose (an index of `Scenario::model`), and the
    /// one the other language's context holds, if any.
    pub chosen: usize,
    pub other_rule: Option<usize>,
}

/// A model call where the host's decision on compaction, made on the
/// run's token counts, is not the one another language's counts make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Differs {
    /// The language the run decided in, and the one that would not.
    pub decided: Lang,
    pub other: Lang,
    /// The model call (1-based) the host decides before.
    pub model_call: u32,
    /// The step (0-based) it decides at: the compaction's, or else the
    /// model call's.
    pub step: usize,
    /// The request in tokens in the run's language, then in the other:
    /// before compacting (`WouldNotCompact`, `WouldCompact`), after
    /// (`OverAfter`).
    pub tokens: [usize; 2],
    pub window: usize,
    pub how: How,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    /// The host compacts here; in the other language the request fits.
    WouldNotCompact,
    /// The host sends without compacting; in the other language the
    /// request is over the window.
    WouldCompact,
    /// Both compact here, but the other language's counts would remove
    /// other messages (this many in the run's language, then the other).
    OtherPlan { removed: [usize; 2] },
    /// After the host compacted, the other language's request is still
    /// over the window (its run would stop there).
    OverAfter,
}

/// The run's trace `run` (made in `run.lang`) as told in `lang`, where
/// `lang`'s counts would decide on compaction otherwise, and where its
/// context would hold another rule.
pub(super) fn tell(
    run: &Trace,
    sources: &Sources,
    scenario: &Scenario,
    lang: Lang,
    words: Words,
) -> (Trace, Vec<Differs>, Option<RuleDiffers>) {
    // The lists are shared with the run's trace (`trace::Shared`): only
    // what this language changes is written, so what it does not is not
    // copied.
    let mut t = run.clone();
    t.lang = lang;
    t.title = scenario.title.get(lang).to_string();
    t.system = scenario.system.as_ref().map(|s| s.get(lang).to_string());
    t.tools = offered_tools(scenario, lang).into();
    // The host's placeholder for a removed result names that result's
    // tokens, which are the language's own: the k-th placeholder a
    // compaction writes (not one carried over from before) stands for the
    // k-th message it removed.
    let placeholder_for = placeholders(run);
    let scripted: HashMap<usize, &Text> = sources.scripted.iter().copied().collect();
    // The English words for rules, when they are not the text itself.
    let canonical = |said: &Said, text: &str| {
        (lang != Lang::En)
            .then(|| words(said, Lang::En))
            .filter(|c| c != text)
    };
    // A result and the message that carries it are one buffer in the run;
    // they stay one here: the run's text → this language's.
    let mut told: HashMap<*const u8, (Arc<str>, Option<String>)> = HashMap::new();
    // The messages whose text this language changes, to be placed again,
    // and those it changes at all (text, English words, what is said).
    let mut changed = vec![false; t.messages.len()];
    let mut touched = vec![false; t.messages.len()];
    for i in 0..t.messages.len() {
        if let Some(j) = t.messages[i].carried {
            changed[i] = changed[j];
            touched[i] = touched[j];
            if touched[j] {
                let step = t.messages[i].step;
                t.messages[i] = Message {
                    step,
                    carried: Some(j),
                    ..t.messages[j].clone()
                };
            }
            continue;
        }
        let m = &t.messages[i];
        let was: *const u8 = Arc::as_ptr(&m.text).cast();
        let (text, canonical, said): (Arc<str>, Option<String>, Option<Said>) = match &m.said {
            // Data (a file's content) reads the same in every language.
            Some(said @ Said::Tool(ToolSays::Content(_))) => {
                let canonical = canonical(said, &m.text);
                if m.canonical != canonical {
                    t.messages[i].canonical = canonical;
                    touched[i] = true;
                }
                continue;
            }
            Some(Said::Placeholder { .. }) => {
                let original = placeholder_for.get(&i).map_or(0, |&j| t.messages[j].tokens);
                let said = Said::Placeholder { tokens: original };
                let text = words(&said, lang);
                let canonical = canonical(&said, &text);
                (text.into(), canonical, Some(said))
            }
            Some(said) => {
                let text = words(said, lang);
                let canonical = canonical(said, &text);
                (text.into(), canonical, None)
            }
            None => match scripted.get(&i) {
                Some(scripted) => (scripted.get(lang).into(), None, None),
                None => continue,
            },
        };
        let m = &t.messages[i];
        let text_changes = *text != *m.text;
        let said_changes = said.as_ref().is_some_and(|s| m.said.as_ref() != Some(s));
        if text_changes || m.canonical != canonical || said_changes {
            touched[i] = true;
            let m = &mut t.messages[i];
            if text_changes {
                // Only the text differs: its ids, calls and arguments count
                // the same in every language (`wire::message_tokens` adds
                // them up).
                m.size = m.size - m.text.chars().count() + text.chars().count();
                m.tokens = m.tokens - wire::tokens::count(&m.text) + wire::tokens::count(&text);
                m.text = text;
                changed[i] = true;
            }
            m.canonical = canonical.clone();
            if said.is_some() {
                m.said = said.clone();
            }
        }
        let m = &t.messages[i];
        if m.said.is_some() && said.is_none() {
            told.insert(was, (m.text.clone(), canonical));
        }
    }
    tell_reasoning(&mut t, run.lang, sources, scenario, &mut changed);
    tell_results(&mut t, &told, lang, words);
    // A reply's tokens are its words' and its calls' (`wire::reply_tokens`).
    for &(k, say) in &sources.replies {
        let (was, is) = (say.get(run.lang), say.get(lang));
        if was != is
            && let Some(tokens) = &mut t.model_calls[k].tokens
        {
            *tokens = *tokens - wire::tokens::count(was) + wire::tokens::count(is);
        }
    }
    recount_compactions(&mut t);
    let measures = wire::measure(&t, Some(&changed));
    t.set_measures(measures);
    let differs = differs(run, &t, scenario, words);
    // With every text the same, every rule's test reads the same.
    let rules_differ = if changed.contains(&true) {
        rules_differ(run, &t, scenario, &sources.chosen)
    } else {
        None
    };
    (t, differs, rules_differ)
}

/// The host's counts at each compaction, in the trace's language.
fn recount_compactions(t: &mut Trace) {
    let mut upto = Vec::with_capacity(t.messages.len() + 1);
    upto.push(0usize);
    for m in &t.messages {
        upto.push(upto.last().copied().unwrap_or(0) + m.tokens);
    }
    let mut fixed = wire::fixed_tokens(t);
    // A window counted as before 2026-12-01: the counts are that estimate.
    if t.window_estimated {
        let weights = super::count::weights(t);
        upto.truncate(1);
        for w in weights {
            upto.push(upto.last().copied().unwrap_or(0) + w);
        }
        fixed = super::count::tools(t);
    }
    let mut held_from = 0;
    for c in &mut t.compactions {
        c.tokens_before = upto[c.start] - upto[held_from] + fixed;
        c.tokens_after = upto[c.start + c.messages_after] - upto[c.start] + fixed;
        held_from = c.start;
    }
}

/// The message each placeholder a compaction wrote stands for.
fn placeholders(run: &Trace) -> HashMap<usize, usize> {
    let mut placeholder_for: HashMap<usize, usize> = HashMap::new();
    for c in &run.compactions {
        let copy = c.start..c.start + c.messages_after;
        let placeholders = copy.filter(|&i| {
            let m = &run.messages[i];
            m.host_insert == Some(HostInsert::Placeholder) && m.carried.is_none()
        });
        placeholder_for.extend(placeholders.zip(c.removed.iter().copied()));
    }
    placeholder_for
}

/// Each call's result told in `lang`: a text the messages already told is
/// taken from them (one buffer, as in the run), any other is told anew.
fn tell_results(
    t: &mut Trace,
    told: &HashMap<*const u8, (Arc<str>, Option<String>)>,
    lang: Lang,
    words: Words,
) {
    let canonical = |said: &Said, text: &str| {
        (lang != Lang::En)
            .then(|| words(said, Lang::En))
            .filter(|c| c != text)
    };
    for c in 0..t.calls.len() {
        let Some(result) = t.calls[c].result.as_ref() else {
            continue;
        };
        let Some(said) = result.said.as_ref() else {
            continue;
        };
        let (text, canonical) = match said {
            Said::Tool(ToolSays::Content(_)) => {
                (result.text.clone(), canonical(said, &result.text))
            }
            _ => match told.get(&Arc::as_ptr(&result.text).cast()) {
                Some(told) => told.clone(),
                None => {
                    let text = words(said, lang);
                    let canonical = canonical(said, &text);
                    (text.into(), canonical)
                }
            },
        };
        if *text != *result.text || canonical != result.canonical {
            let result = t.calls[c].result.as_mut().expect("a result, read above");
            result.text = text;
            result.canonical = canonical;
        }
    }
}

/// Each reply's reasoning in `t.lang`: on its model call (with the
/// tokens it generated) and on the reply the host holds, whose size
/// changes with it (`changed`).
fn tell_reasoning(
    t: &mut Trace,
    run_lang: Lang,
    sources: &Sources,
    scenario: &Scenario,
    changed: &mut [bool],
) {
    for &(number, rule) in &sources.chosen {
        let Some(reasoning) = scenario.model[rule].reasoning.as_ref() else {
            continue;
        };
        let (was, is) = (reasoning.get(run_lang), reasoning.get(t.lang));
        let k = number as usize - 1;
        let mc = &mut t.model_calls[k];
        if let Some(tokens) = &mut mc.tokens {
            *tokens = *tokens - wire::tokens::count(was) + wire::tokens::count(is);
        }
        mc.reasoning = Some(is.into());
        // The reply is appended at the step after its model call's.
        let (from, step) = (mc.context_len, mc.step + 1);
        let held = (from..t.messages.len())
            .find(|&i| t.messages[i].step == step && t.messages[i].role == Role::Assistant);
        let Some(i) = held.filter(|&i| t.messages[i].reasoning.is_some()) else {
            continue;
        };
        let m = &mut t.messages[i];
        m.size = m.size - was.chars().count() + is.chars().count();
        m.tokens = m.tokens - wire::tokens::count(was) + wire::tokens::count(is);
        m.reasoning = Some(is.into());
        changed[i] = true;
    }
}

/// The first model call where `other`'s context holds another rule than
/// the one the run chose (`chosen`: model call number, rule), replaying the
/// choices as the engine makes them: the context grows until the host
/// compacts, and the matcher starts over on the compacted copy.
fn rules_differ(
    run: &Trace,
    other: &Trace,
    scenario: &Scenario,
    chosen: &[(u32, usize)],
) -> Option<RuleDiffers> {
    let index: HashMap<&CallId, usize> = (other.calls.iter().enumerate())
        .map(|(i, c)| (&c.id, i))
        .collect();
    let compacted_from: HashMap<u32, usize> = (other.steps.iter())
        .filter_map(|s| match s.kind {
            StepKind::Compacts { number, index } => Some((number, other.compactions[index].start)),
            _ => None,
        })
        .collect();
    let mut rules = RuleMatcher::new(&scenario.model);
    let mut held_from = 0;
    let mut last = 0;
    for &(number, rule) in chosen {
        // Compactions up to this call, even before a call the provider
        // refused (where no rule was chosen).
        for n in last + 1..=number {
            if let Some(&start) = compacted_from.get(&n) {
                rules.restart();
                held_from = start;
            }
        }
        last = number;
        let mc = &other.model_calls[number as usize - 1];
        let held = other.messages.slice(held_from..mc.context_len);
        let holds = rules.choose(number, held, |id| {
            &other.calls[*index.get(id).expect("a message's call was proposed")]
        });
        if holds != Some(rule) {
            return Some(RuleDiffers {
                decided: run.lang,
                other: other.lang,
                model_call: number,
                step: mc.step,
                chosen: rule,
                other_rule: holds,
            });
        }
    }
    None
}

/// Where `other`'s counts would decide on compaction otherwise than the
/// run (`run`) did: whether to compact, what to remove, and whether the
/// request then fits.
fn differs(run: &Trace, other: &Trace, scenario: &Scenario, words: Words) -> Vec<Differs> {
    let Some(limit) = scenario.context.as_ref() else {
        return Vec::new();
    };
    // A file counted as before 2026-12-01 was made before this check: its
    // run compacts where the language it is made in says, as then.
    if limit.count == Some(crate::scenario::WindowCount::Estimate) {
        return Vec::new();
    }
    let window = limit.window;
    // The plan the host makes in each language for compaction `c`, held
    // from `held_from`: the same function on each language's messages.
    let fixed = [run, other].map(wire::fixed_tokens);
    let plans = |c: usize, held_from: usize, number: u32| {
        let compaction = &run.compactions[c];
        let held: Vec<usize> = (held_from..compaction.start).collect();
        let sent_to = (number as usize)
            .checked_sub(2)
            .map_or(0, |k| run.model_calls[k].context_len);
        let summary = limit.summary(c);
        [run, other].map(|trace| {
            let sight = Sight {
                messages: &trace.messages,
                words,
                lang: trace.lang,
                weights: None,
            };
            let budget = window.saturating_sub(fixed[usize::from(trace.lang != run.lang)]);
            sight.plan(limit.policy, &held, sent_to, budget, summary)
        })
    };
    let removed = |plan: &Option<Vec<Item>>| {
        plan.iter()
            .flatten()
            .map(|item| match item {
                Item::Keep(_) => 0,
                Item::Placeholder(_) => 1,
                Item::Summary(gone) => gone.len(),
            })
            .sum::<usize>()
    };
    let mut held_from = 0;
    let compacted_before: HashMap<u32, usize> = run
        .steps
        .iter()
        .filter_map(|s| match s.kind {
            StepKind::Compacts { number, index } => Some((number, index)),
            _ => None,
        })
        .collect();
    let mut found = Vec::new();
    for (k, mc) in other.model_calls.iter().enumerate() {
        let differ = |step, tokens, how| Differs {
            decided: run.lang,
            other: other.lang,
            model_call: mc.number,
            step,
            tokens,
            window,
            how,
        };
        match compacted_before.get(&mc.number) {
            Some(&c) => {
                let (decided, told) = (&run.compactions[c], &other.compactions[c]);
                let [ours, theirs] = plans(c, held_from, mc.number);
                held_from = decided.start;
                if told.tokens_before <= window {
                    let both = [decided.tokens_before, told.tokens_before];
                    found.push(differ(decided.step, both, How::WouldNotCompact));
                } else if ours != theirs {
                    let both = [decided.tokens_before, told.tokens_before];
                    let removed = [removed(&ours), removed(&theirs)];
                    found.push(differ(decided.step, both, How::OtherPlan { removed }));
                } else if told.tokens_after > window {
                    let both = [decided.tokens_after, told.tokens_after];
                    found.push(differ(decided.step, both, How::OverAfter));
                }
            }
            None if mc.context_tokens > window => {
                let both = [run.model_calls[k].context_tokens, mc.context_tokens];
                found.push(differ(mc.step, both, How::WouldCompact));
            }
            None => {}
        }
    }
    found
}
