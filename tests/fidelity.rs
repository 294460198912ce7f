//! What every frame of every shipped scenario must keep true, whatever the
//! layout: no word cut in the middle, the user's task never drawn from a
//! lifeline, no English role word on a Chinese screen, nothing called "sent
//! on the next call" once the loop has ended, and no model call answered
//! while a tool call in its context has no result (real providers reject
//! such a request).

mod common;

use std::collections::HashSet;

use agent_loop_sim::app::App;
use agent_loop_sim::frames;
use agent_loop_sim::load::{self, CATALOG};
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::theme::Theme;
use agent_loop_sim::trace::StepKind;

const SIZES: [(u16, u16); 2] = [(120, 40), (80, 24)];

fn frames_of(name: &str, lang: Lang, (w, h): (u16, u16)) -> Vec<String> {
    let app = common::app(name, lang);
    (0..app.trace().len())
        .map(|i| frames::to_text(&frames::render(&frames::at_step(&app, i, w, h), w, h)))
        .collect()
}

fn latin_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// Every whole word the scenario can show: its own source, and every frame
/// drawn so large that nothing needs cutting.
fn whole_words(name: &str) -> HashSet<String> {
    let source = CATALOG.iter().find(|(n, _)| *n == name).unwrap().1;
    let mut words: HashSet<String> = latin_words(source).map(str::to_string).collect();
    for lang in Lang::ALL {
        for frame in frames_of(name, lang, (400, 200)) {
            words.extend(latin_words(&frame).map(str::to_string));
        }
    }
    words
}

/// The Latin token right before each `…` in a frame.
fn tokens_before_ellipsis(frame: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in frame.match_indices('…') {
        // The mark stands right after the cut, or after one space.
        let before = frame[..i].strip_suffix(' ').unwrap_or(&frame[..i]);
        let token: String = before
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if token.len() >= 2 {
            out.push(token);
        }
    }
    out
}

#[test]
fn no_word_is_cut_in_the_middle_before_an_ellipsis() {
    let mut cuts = Vec::new();
    let mut seen = 0;
    for (name, _) in CATALOG {
        let words = whole_words(name);
        for lang in Lang::ALL {
            for size in SIZES {
                for (k, frame) in frames_of(name, lang, size).iter().enumerate() {
                    for token in tokens_before_ellipsis(frame) {
                        seen += 1;
                        // A long id may be shortened, as git shortens hashes.
                        let id = ["call_", "toolu_", "fc_"]
                            .iter()
                            .any(|p| token.starts_with(p));
                        if !words.contains(&token) && !id {
                            cuts.push(format!(
                                "{name} {} {size:?} step {}: {token}…",
                                lang.code(),
                                k + 1
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(
        cuts.is_empty(),
        "{} of {seen} cut mid-word: {:#?}",
        cuts.len(),
        &cuts[..cuts.len().min(12)]
    );
}

#[test]
fn the_task_arrow_never_starts_on_a_lifeline() {
    for (name, _) in CATALOG {
        for lang in Lang::ALL {
            // The task's step: the first, or the third after an MCP
            // server's start-up steps.
            let trace = load::load(name).unwrap();
            let task = (trace.trace(lang).steps.iter())
                .position(|s| s.kind == StepKind::TaskArrives)
                .unwrap();
            let (here, there) = (format!("▶{:>2} ", task + 1), format!(" {:>2} ", task + 1));
            for size in SIZES {
                let frames = frames_of(name, lang, size);
                for (k, frame) in frames.iter().enumerate() {
                    // The task's row, wherever it is on screen.
                    let row = frame
                        .lines()
                        .find(|l| l.contains(&here) || l.contains(&there))
                        .filter(|l| l.contains('○'));
                    if let Some(row) = row {
                        assert!(!row.contains("│─"), "{name} step {}: {row}", k + 1);
                        assert!(!row.contains("●"), "{name} step {}: {row}", k + 1);
                    }
                }
                // On the task's step itself the user's mark is there.
                assert!(
                    frames[task].contains('○'),
                    "{name}: no user mark:\n{}",
                    frames[task]
                );
            }
        }
    }
}

#[test]
fn chinese_screens_name_roles_in_chinese() {
    for (name, _) in CATALOG {
        for size in SIZES {
            for (k, frame) in frames_of(name, Lang::Zh, size).iter().enumerate() {
                for line in frame.lines() {
                    let mut words = line.split_whitespace();
                    while let Some(w) = words.next() {
                        if w.trim_start_matches('+').parse::<usize>().is_ok()
                            && let Some(role) = words.clone().next()
                        {
                            assert!(
                                !["user", "assistant", "tool"].contains(&role),
                                "{name} zh step {}: {line}",
                                k + 1
                            );
                        }
                    }
                }
                for english in ["refused by host", "verification failed", "no such file"] {
                    assert!(
                        !frame.contains(english),
                        "{name} zh step {}: {english}",
                        k + 1
                    );
                }
            }
        }
    }
}

#[test]
fn nothing_is_sent_on_a_next_call_after_the_end() {
    for (name, _) in CATALOG {
        for lang in Lang::ALL {
            let app = App::new(load::load(name).unwrap(), lang, Theme::DARK);
            let last = app.trace().len() - 1;
            for size in SIZES {
                let frames = frames_of(name, lang, size);
                let frame = &frames[last];
                for stale in ["next call", "Appended since", "此后追加", "下次调用"] {
                    assert!(
                        !frame.contains(stale),
                        "{name} {} {size:?} last step: {stale}\n{frame}",
                        lang.code()
                    );
                }
            }
        }
    }
}

#[test]
fn no_model_call_with_an_unanswered_call_is_answered_by_the_model() {
    for (name, _) in CATALOG {
        for lang in Lang::ALL {
            let loaded = load::load(name).unwrap();
            let t = loaded.trace(lang);
            for mc in &t.model_calls {
                let open = t.unanswered_at(mc);
                let next = t.steps.get(mc.step + 1).map(|s| &s.kind);
                if open.is_empty() {
                    // The one other 400 a lesson draws: Anthropic's, for a
                    // reply sent back without its thinking block.
                    let thinking = matches!(next, Some(StepKind::Rejected { error, .. })
                        if error.contains("Expected `thinking` or `redacted_thinking`"));
                    assert!(
                        !matches!(next, Some(StepKind::Rejected { .. }))
                            || (thinking && t.thinking == agent_loop_sim::trace::Thinking::Dropped),
                        "{name}: #{}",
                        mc.number
                    );
                } else {
                    assert!(
                        matches!(next, Some(StepKind::Rejected { .. })),
                        "{name}: model call #{} sent with {open:?} unanswered is answered: {next:?}",
                        mc.number
                    );
                }
            }
        }
    }
}
