//! `export --quiz`: the quiz as a printable handout, its questions first
//! (each before the step it asks about, with numbered choices) and an
//! answer key after them, as plain text or one self-contained HTML page.
//! The questions are the simulator's own (`quiz::question`), so the paper
//! and the screen ask the same.

use crate::i18n;
use crate::load::Loaded;
use crate::quiz::{self, Question};
use crate::trace::Trace;

/// The questions asked before the steps chosen (0-based indices). A
/// question the simulator made has no author's reason: the key gives the
/// step's own explanation, as the screen does after the answer.
pub fn questions(
    trace: &Trace,
    loaded: &Loaded,
    steps: std::ops::RangeInclusive<usize>,
) -> Vec<Question> {
    steps
        .filter_map(|index| quiz::asked(loaded, trace, index))
        .map(|mut q| {
            if q.why.is_none() {
                q.why = Some(i18n::explanation(trace, q.step));
            }
            q
        })
        .collect()
}

/// The handout's title and how to use it.
pub fn heading(trace: &Trace) -> String {
    let lang = trace.lang;
    format!(
        "{}\n\n{}\n",
        i18n::HANDOUT_TITLE.fill(lang, &[("title", &trace.title)]),
        i18n::HANDOUT_INTRO.get(lang)
    )
}

/// Each question with its choices, as a block of text.
pub fn question_blocks(trace: &Trace, questions: &[Question]) -> Vec<String> {
    let lang = trace.lang;
    questions
        .iter()
        .enumerate()
        .map(|(k, q)| {
            let mut out = format!(
                "{}. {}\n",
                k + 1,
                i18n::HANDOUT_BEFORE.fill(lang, &[("n", &(q.step + 1)), ("prompt", &q.prompt)])
            );
            for (c, choice) in q.choices.iter().enumerate() {
                out.push_str(&format!("   [{}] {choice}\n", c + 1));
            }
            out
        })
        .collect()
}

/// The answer key's heading, then each answer with its reason, as blocks.
pub fn key_blocks(trace: &Trace, questions: &[Question]) -> Vec<String> {
    let lang = trace.lang;
    let answers = questions.iter().enumerate().map(|(k, q)| {
        let mut out = format!(
            "{}. ({}) [{}] {}\n",
            k + 1,
            i18n::HANDOUT_STEP.fill(lang, &[("n", &(q.step + 1))]),
            q.answer + 1,
            q.choices[q.answer]
        );
        if let Some(why) = &q.why {
            out.push_str(&format!("   {why}\n"));
        }
        out
    });
    std::iter::once(format!("{}\n", i18n::HANDOUT_KEY.get(lang)))
        .chain(answers)
        .collect()
}

/// The handout as plain text.
pub fn text(trace: &Trace, questions: &[Question]) -> String {
    let mut out = heading(trace);
    out.push('\n');
    for block in question_blocks(trace, questions) {
        out.push_str(&block);
        out.push('\n');
    }
    out.push_str(&key_blocks(trace, questions).concat());
    out
}

/// The handout as one HTML page for print: the questions, then (on a page
/// of its own when printed) the answer key.
pub fn html(trace: &Trace, questions: &[Question]) -> String {
    let lang = trace.lang;
    let e = super::svg::escape;
    let title = i18n::HANDOUT_TITLE.fill(lang, &[("title", &trace.title)]);
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n\
         <style>\nbody{{font-family:{fonts}, sans-serif;max-width:46em;margin:2em auto;line-height:1.45}}\n\
         ol.choices{{list-style:none;padding-left:1.5em}}\nli.q{{margin-bottom:1.2em;break-inside:avoid}}\n\
         section.key{{break-before:page}}\n</style>\n</head>\n<body>\n<h1>{}</h1>\n<p>{}</p>\n<ol>\n",
        // Named as the player names them: Chromium draws `sans-serif`
        // Chinese in the Japanese forms of Noto Sans CJK.
        lang.tag(),
        e(&title),
        e(&title),
        e(i18n::HANDOUT_INTRO.get(lang)),
        fonts = super::html::BODY_FONTS,
    );
    for q in questions {
        out.push_str(&format!(
            "<li class=\"q\">{}\n<ol class=\"choices\">\n",
            e(&i18n::HANDOUT_BEFORE.fill(lang, &[("n", &(q.step + 1)), ("prompt", &q.prompt)]))
        ));
        for (c, choice) in q.choices.iter().enumerate() {
            out.push_str(&format!("<li>[{}] {}</li>\n", c + 1, e(choice)));
        }
        out.push_str("</ol>\n</li>\n");
    }
    out.push_str(&format!(
        "</ol>\n<section class=\"key\">\n<h2>{}</h2>\n<ol>\n",
        e(i18n::HANDOUT_KEY.get(lang))
    ));
    for q in questions {
        out.push_str(&format!(
            "<li>({}) [{}] {}",
            e(&i18n::HANDOUT_STEP.fill(lang, &[("n", &(q.step + 1))])),
            q.answer + 1,
            e(&q.choices[q.answer])
        ));
        if let Some(why) = &q.why {
            out.push_str(&format!("<br>{}", e(why)));
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ol>\n</section>\n</body>\n</html>\n");
    out
}
