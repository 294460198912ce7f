//! `export --format pdf`: the handout read back with `pdftotext` (Debian
//! poppler-utils): a page a step, each page's text that of the step's
//! figure, Chinese phrases whole, and with `--quiz` the questions and the
//! answer key after the frames.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use agent_loop_sim::cli::ExportFormat;
use agent_loop_sim::export::{self, Options};
use agent_loop_sim::scenario::Lang;

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("pdf-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The PDF's text a page at a time (`pdftotext` ends each page with a form
/// feed); None, after saying so, when pdftotext is not installed.
fn pages(test: &str, pdf: &Path, layout: bool) -> Option<Vec<String>> {
    let mut cmd = Command::new("pdftotext");
    if layout {
        cmd.arg("-layout");
    }
    let out = match cmd.args(["-enc", "UTF-8"]).arg(pdf).arg("-").output() {
        Ok(out) => out,
        Err(e) => {
            common::missing_tool(test, &format!("pdftotext (poppler-utils) cannot run: {e}"));
            return None;
        }
    };
    assert!(
        out.status.success(),
        "pdftotext {pdf:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut pages: Vec<String> = text.split('\u{c}').map(str::to_string).collect();
    // The text after the last page's form feed.
    assert_eq!(pages.pop().as_deref().map(str::trim), Some(""));
    Some(pages)
}

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// A row of a text frame as the pieces of text it shows: split at box
/// drawing and at wider gaps, without blanks.
fn pieces(row: &str) -> Vec<String> {
    row.split(|c: char| ('\u{2500}'..='\u{259f}').contains(&c) || c == '│')
        .flat_map(|part| part.split("  "))
        .map(squeeze)
        .filter(|p| p.chars().count() >= 2)
        .collect()
}

fn export_pdf(name: &str, lang: Lang, quiz: bool) -> (PathBuf, Options) {
    export_with(name, lang, |o| o.quiz = quiz)
}

/// A PDF export with the options `set` changes.
fn export_with(name: &str, lang: Lang, set: impl FnOnce(&mut Options)) -> (PathBuf, Options) {
    let dir = scratch(name);
    let mut o = Options::new(ExportFormat::Pdf, dir);
    o.lang = lang;
    set(&mut o);
    let paths = export::export(&o, |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(paths.len(), 1, "{paths:?}");
    (paths[0].clone(), o)
}

/// Every piece of text of `text` (a text frame) is on `page`.
fn assert_on_page(page: &str, text: &str, what: &str) {
    let page = squeeze(page);
    for row in text.lines() {
        for piece in pieces(row) {
            assert!(page.contains(&piece), "{what}: {piece:?} not on its page");
        }
    }
}

/// One page a step, each with every piece of text of the step's text
/// frame (`export --format txt`) on it, in reading order within its row;
/// the lesson's Chinese title found whole as pdftotext gives it.
#[test]
fn a_pdf_has_a_page_a_step_with_the_frames_text() {
    for lang in [Lang::En, Lang::Zh] {
        let test = "a_pdf_has_a_page_a_step_with_the_frames_text";
        let (pdf, o) = export_pdf(&format!("frames-{lang:?}"), lang, false);
        let bytes = std::fs::read(&pdf).unwrap();
        assert!(bytes.starts_with(b"%PDF-"), "{pdf:?}");
        // Embedded subsets with ToUnicode maps, not outlines.
        let raw = String::from_utf8_lossy(&bytes);
        assert!(raw.contains("/ToUnicode"), "no ToUnicode map");
        assert!(raw.contains("/FontFile"), "no embedded font");
        let Some(plain) = pages(test, &pdf, false) else {
            return;
        };
        let layout = pages(test, &pdf, true).unwrap();
        let app = common::app(&o.scenario, lang);
        let steps = app.steps();
        assert_eq!(plain.len(), steps, "{lang:?}: a page a step");
        assert_eq!(layout.len(), steps);
        for (index, page) in layout.iter().enumerate() {
            let text = export::txt(&app, index, o.size);
            let page = squeeze(page);
            for row in text.lines() {
                for piece in pieces(row) {
                    assert!(
                        page.contains(&piece),
                        "{lang:?} step {}: {piece:?} not on its page",
                        index + 1
                    );
                }
            }
        }
        let phrase = match lang {
            Lang::Zh => "读取超时配置",
            Lang::En | Lang::Pseudo => "Read the timeout",
        };
        assert!(
            plain.iter().all(|p| p.contains(phrase)),
            "{lang:?}: {phrase} not whole on every page:\n{}",
            plain[0]
        );
    }
}

/// With `--quiz` the PDF is the quiz: a page on how to use it, then each
/// question after the frame of the step before it (the situation it asks
/// about, never its answer), each question whole on its page, then the
/// answer key, each right choice with its reason.
#[test]
fn a_quiz_pdf_shows_the_situation_before_each_question_then_the_key() {
    let test = "a_quiz_pdf_shows_the_situation_before_each_question_then_the_key";
    for lang in [Lang::En, Lang::Zh] {
        let (plain_pdf, _) = export_pdf(&format!("noquiz-{lang:?}"), lang, false);
        let (pdf, o) = export_pdf(&format!("quiz-{lang:?}"), lang, true);
        assert!(pdf.to_str().unwrap().ends_with(".quiz.pdf"), "{pdf:?}");
        let Some(frames) = pages(test, &plain_pdf, false) else {
            return;
        };
        let all = pages(test, &pdf, false).unwrap();
        let loaded = agent_loop_sim::load::load(&o.scenario).unwrap();
        let trace = loaded.trace(lang);
        let questions: Vec<_> = (0..trace.len())
            .filter_map(|i| agent_loop_sim::quiz::asked(&loaded, trace, i))
            .collect();
        assert!(!questions.is_empty());
        let n = questions.len();
        assert!(all.len() > 1 + 2 * n, "{} pages", all.len());
        for (k, q) in questions.iter().enumerate() {
            assert_eq!(
                all[1 + 2 * k],
                frames[q.step - 1],
                "question {}: the frame before step {}",
                k + 1,
                q.step + 1
            );
            let page = squeeze(&all[2 + 2 * k]);
            assert!(page.contains(&squeeze(&q.prompt)), "{}", q.prompt);
            for c in &q.choices {
                assert!(page.contains(&squeeze(c)), "{c}");
            }
        }
        let key_word = match lang {
            Lang::Zh => "答案",
            Lang::En | Lang::Pseudo => "Answer key",
        };
        assert!(
            all[1 + 2 * n].trim_start().starts_with(key_word),
            "{}",
            all[1 + 2 * n]
        );
        let key = squeeze(&all[1 + 2 * n..].concat());
        for q in &questions {
            let line = format!("[{}]{}", q.answer + 1, squeeze(&q.choices[q.answer]));
            assert!(key.contains(&line), "{line}");
        }
        // A generated question's reason is its step's own explanation.
        let why = trace.steps[questions[0].step].narration.clone().unwrap();
        assert!(key.contains(&squeeze(&why)), "{why}");
    }
}

/// With `--strip` each page holds strips of steps side by side, as many
/// as keep the text at 5 pt (two 120-column frames a strip, three of 80
/// columns), one under another: four 120-column steps a page, nine of 80
/// columns. Each page has every piece of text of each of its steps; the
/// name says it is a strip, and which steps when they are not all.
#[test]
fn a_strip_pdf_has_the_steps_side_by_side_on_pages() {
    let test = "a_strip_pdf_has_the_steps_side_by_side_on_pages";
    for (lang, size, per_page, steps) in [
        (Lang::En, (120, 40), 4, None),
        (Lang::Zh, (120, 40), 4, None),
        (Lang::En, (80, 24), 9, None),
        (Lang::Zh, (80, 24), 9, Some((2, 6))),
    ] {
        let name = format!("strip-{lang:?}-{}x{}", size.0, size.1);
        let (pdf, o) = export_with(&name, lang, |o| {
            o.strip = true;
            o.size = size;
            o.steps = steps;
        });
        let file = pdf.file_name().unwrap().to_str().unwrap();
        let expected = match (size, steps) {
            ((120, 40), _) => format!("read-config-timeout.{}.strip.pdf", lang.code()),
            (_, None) => format!("read-config-timeout.{}.80x24.strip.pdf", lang.code()),
            (_, Some(_)) => format!(
                "read-config-timeout.{}.80x24.strip.steps-02-06.pdf",
                lang.code()
            ),
        };
        assert_eq!(file, expected);
        let Some(layout) = pages(test, &pdf, true) else {
            return;
        };
        let app = common::app(&o.scenario, lang);
        let (first, last) = steps.map_or((0, app.steps() - 1), |(a, b)| (a - 1, b - 1));
        let chosen: Vec<usize> = (first..=last).collect();
        let strips: Vec<&[usize]> = chosen.chunks(per_page).collect();
        assert_eq!(layout.len(), strips.len(), "{name}: pages of strips");
        for (page, strip) in layout.iter().zip(&strips) {
            for &index in *strip {
                let text = export::txt(&app, index, size);
                assert_on_page(page, &text, &format!("{name} step {}", index + 1));
            }
        }
        if lang == Lang::Zh {
            let plain = pages(test, &pdf, false).unwrap();
            assert!(plain.iter().all(|p| p.contains("读取超时配置")), "{name}");
        }
    }
}

/// `--compare`: a page a compared step, each with the text of the
/// comparison's figure (both runs side by side), named `A.vs.B`.
#[test]
fn a_comparison_pdf_has_a_page_a_compared_step() {
    let test = "a_comparison_pdf_has_a_page_a_compared_step";
    for lang in [Lang::En, Lang::Zh] {
        let (pdf, o) = export_with(&format!("compare-{lang:?}"), lang, |o| {
            o.scenario = "harness-drops-results".into();
            o.compare = Some("read-config-timeout".into());
        });
        assert!(
            pdf.ends_with(format!(
                "harness-drops-results.vs.read-config-timeout.{}.pdf",
                lang.code()
            )),
            "{pdf:?}"
        );
        let Some(layout) = pages(test, &pdf, true) else {
            return;
        };
        let mut app = common::app(&o.scenario, lang);
        let other = agent_loop_sim::compare::load_other("read-config-timeout", None, lang).unwrap();
        app = app.with_comparison(other);
        assert_eq!(layout.len(), app.steps(), "{lang:?}: a page a step");
        for (index, page) in layout.iter().enumerate() {
            let text = export::txt(&app, index, o.size);
            assert_on_page(page, &text, &format!("{lang:?} step {}", index + 1));
        }
    }
}

/// The PDF takes --quiz, --strip and --compare but not --embed-fonts
/// (its fonts are always embedded), nor --quiz with --strip; each refusal
/// says what was expected, exit code 2.
#[test]
fn pdf_refuses_options_it_cannot_draw() {
    let dir = scratch("refused");
    let out = dir.to_str().unwrap();
    let r = common::run(&[
        "export", "--format", "pdf", "--out", out, "--strip", "--quiz",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("expected no --strip, --panel or --compare"),
        "{}",
        r.stderr
    );
    let r = common::run(&["export", "--format", "pdf", "--out", out, "--embed-fonts"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("expected --format svg or html"),
        "{}",
        r.stderr
    );
}

/// The words of a page with their left edges, from `pdftotext -bbox`.
fn words(test: &str, pdf: &Path, page: usize) -> Option<Vec<(f64, String)>> {
    let n = page.to_string();
    let out = match Command::new("pdftotext")
        .args(["-bbox", "-f", &n, "-l", &n, "-enc", "UTF-8"])
        .arg(pdf)
        .arg("-")
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            common::missing_tool(test, &format!("pdftotext (poppler-utils) cannot run: {e}"));
            return None;
        }
    };
    let html = String::from_utf8(out.stdout).unwrap();
    Some(
        html.lines()
            .filter_map(|l| {
                let x = l.split("xMin=\"").nth(1)?.split('"').next()?.parse().ok()?;
                let word = l.split('>').nth(1)?.split('<').next()?.to_string();
                Some((x, word))
            })
            .collect(),
    )
}

/// Chinese sits on the cell grid as in the PNG, yet reads as phrases: a
/// wrapped line keeps its indent, one space stays one where Chinese meets
/// Latin, a bracket stays beside Chinese, and each page has a bookmark
/// named by its step.
#[test]
fn chinese_is_set_on_the_grid_in_phrases_with_a_bookmark_a_step() {
    let test = "chinese_is_set_on_the_grid_in_phrases_with_a_bookmark_a_step";
    let (pdf, _) = export_pdf("grid", Lang::Zh, false);
    let Some(plain) = pages(test, &pdf, false) else {
        return;
    };
    let page = &plain[2];
    for phrase in [
        "第 1 次调用的请求 534 字节",
        "行动方：模型 → 主机",
        "步骤 3/8 读取超时配置 · 模型提出工具调用 call_1",
        // The acting lane, its brackets set as the Chinese beside them.
        "[模型]",
    ] {
        assert!(page.contains(phrase), "{phrase:?} not on page 3:\n{page}");
    }
    // The system prompt wraps in the context panel: the continued line
    // starts at the column of the first.
    let words = words(test, &pdf, 3).unwrap();
    let left = |start: &str| {
        words
            .iter()
            .find(|(_, w)| w.starts_with(start))
            .unwrap_or_else(|| panic!("{start} not on page 3: {words:?}"))
            .0
    };
    let (first, continued) = (left("你是在用户项目"), left("手。你看不到"));
    assert!((first - continued).abs() < 0.2, "{first} vs {continued}");
    let bytes = std::fs::read(&pdf).unwrap();
    let raw = String::from_utf8_lossy(&bytes);
    assert_eq!(raw.matches("/Dest").count(), 8, "a bookmark a step");
    assert!(raw.contains("/Outlines"), "the outline is the document's");
}
