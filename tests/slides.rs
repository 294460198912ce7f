//! `export --format slides`: the slide deck in a real browser (headless
//! Chromium over the DevTools protocol, as tests/browser.rs). It opens at
//! slide 1 with its number, the arrow keys and Home / End turn the slides,
//! `#step=5` opens slide 5, `S` opens the speaker notes in a window of
//! their own (the slide, the next one, the step's explanation) that
//! follows the deck and turns it with its own keys, and nothing outside
//! the file is asked for; in Chinese and in English. Screenshots are left
//! in `target/tmp/slides-*.png` for a person to look at.

#[path = "common/browser.rs"]
mod cdp;
mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cdp::{Page, base64_decode, find_browser, launch};
use serde_json::{Value, json};

fn export(dir: &Path, lang: &str) -> PathBuf {
    let run = common::run(&[
        "--lang",
        lang,
        "export",
        "--format",
        "slides",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let file = dir.join(format!("read-config-timeout.{lang}.slides.html"));
    assert_eq!(run.stdout.trim(), file.to_str().unwrap());
    file
}

/// The notes window the deck opened: its DevTools session.
fn notes_window(page: &mut Page, known: &[String]) -> String {
    let start = Instant::now();
    loop {
        let targets = page.send(None, "Target.getTargets", json!({}));
        let new = targets["targetInfos"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| {
                t["type"] == "page" && !known.contains(&t["targetId"].as_str().unwrap().to_string())
            })
            .cloned();
        if let Some(target) = new {
            let attached = page.send(
                None,
                "Target.attachToTarget",
                json!({"targetId": target["targetId"], "flatten": true}),
            );
            return attached["sessionId"].as_str().unwrap().to_string();
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no notes window: {targets}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn page_ids(page: &mut Page) -> Vec<String> {
    let targets = page.send(None, "Target.getTargets", json!({}));
    targets["targetInfos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["targetId"].as_str().unwrap().to_string())
        .collect()
}

fn eval_in(page: &mut Page, session: &str, expression: &str) -> Value {
    let r = page.send(
        Some(session),
        "Runtime.evaluate",
        json!({"expression": expression, "returnByValue": true}),
    );
    assert!(
        r["exceptionDetails"].is_null(),
        "{expression}: {}",
        r["exceptionDetails"]
    );
    r["result"]["value"].clone()
}

fn shot(page: &mut Page, session: &str, name: &str) {
    let shot = page.send(
        Some(session),
        "Page.captureScreenshot",
        json!({"format": "png"}),
    );
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, base64_decode(shot["data"].as_str().unwrap())).unwrap();
    eprintln!("screenshot: {}", path.display());
}

fn number(page: &mut Page) -> String {
    page.text("document.getElementById('number').textContent")
}

/// What a deck says in one language: its words for a step, the notes'
/// next slide, their heading, and the last slide.
struct Words {
    lang: &'static str,
    step: &'static str,
    next: &'static str,
    notes: &'static str,
    last: &'static str,
}

/// The steps of the slides shown.
fn shown(page: &mut Page) -> Value {
    page.eval(
        "[...document.querySelectorAll('.slide')].filter(s => !s.hidden).map(s => s.dataset.step)",
    )
}

/// The deck opens at slide 1 of 8, its figure fills the window under the
/// title, and the notes are not on the slide.
fn a_slide_fills_the_window(page: &mut Page, lang: &str) {
    assert_eq!(number(page), "1/8");
    assert_eq!(shown(page), json!(["1"]), "one slide shown");
    // The figure fills the slide under its title, inside the window.
    let fits = page.eval(
        "(() => { const r = document.querySelector('.slide:not([hidden]) svg').getBoundingClientRect(); \
         return r.width > 1000 && r.bottom <= innerHeight && r.right <= innerWidth; })()",
    );
    assert_eq!(fits, json!(true), "{lang}: the frame fits the window");
    // The notes are not on the slide.
    let notes_seen = page.eval(
        "document.querySelector('.slide:not([hidden]) .notes').getBoundingClientRect().height",
    );
    assert_eq!(notes_seen, json!(0), "notes are not shown on the slide");
    page.screenshot(&Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("slides-{lang}-1.png")));
}

/// → ← End Home turn the slides, within the deck; the address follows.
fn the_keys_turn_the_slides(page: &mut Page, step: &str) {
    page.key("ArrowRight", "ArrowRight", 39);
    assert_eq!(number(page), "2/8");
    assert_eq!(page.text("location.hash"), "#step=2");
    let heading = page.text("document.querySelector('.slide:not([hidden]) h2').textContent");
    assert!(heading.starts_with(&format!("{step} 2/8")), "{heading}");
    page.key("ArrowLeft", "ArrowLeft", 37);
    assert_eq!(number(page), "1/8");
    page.key("ArrowLeft", "ArrowLeft", 37);
    assert_eq!(number(page), "1/8", "no slide before the first");
    page.key("End", "End", 35);
    assert_eq!(number(page), "8/8");
    page.key("ArrowRight", "ArrowRight", 39);
    assert_eq!(number(page), "8/8", "no slide after the last");
    page.key("Home", "Home", 36);
    assert_eq!(number(page), "1/8");
}

/// S opens the speaker notes in a window of their own: its session, loaded.
fn open_notes(page: &mut Page) -> String {
    let known = page_ids(page);
    page.key("s", "KeyS", 83);
    let notes = notes_window(page, &known);
    let start = Instant::now();
    while eval_in(page, &notes, "document.readyState") != json!("complete") {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the notes did not load"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    page.send(
        Some(&notes),
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 1100, "height": 700, "deviceScaleFactor": 1, "mobile": false}),
    );
    notes
}

/// The text of `what` in the notes window.
fn notes_text(page: &mut Page, notes: &str, what: &str) -> String {
    eval_in(
        page,
        notes,
        &format!("document.querySelector('{what}').textContent"),
    )
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// The notes of slide 5: its count, the deck's own notes, the next
/// slide's words, and the pictures of this slide and the next.
fn the_notes_say_the_slide(page: &mut Page, notes: &str, words: &Words) {
    assert_eq!(notes_text(page, notes, ".count"), "5/8");
    let deck_notes = page.text("document.querySelector('.slide:not([hidden]) .notes').textContent");
    let said = notes_text(page, notes, ".said");
    assert!(
        said.len() > 40 && said == deck_notes,
        "{said:?} vs {deck_notes:?}"
    );
    assert!(said.contains(&format!("{} 5/8", words.step)), "{said}");
    assert!(notes_text(page, notes, ".next").starts_with(words.next));
    assert!(notes_text(page, notes, ".words").starts_with(words.notes));
    let pictures = eval_in(
        page,
        notes,
        "[...document.querySelectorAll('.shown svg title, .upcoming svg title')].map(t => t.textContent)",
    );
    let pictures: Vec<String> = serde_json::from_value(pictures).unwrap();
    assert_eq!(pictures.len(), 2, "{pictures:?}");
    assert!(
        pictures[0].contains("5/8") && pictures[1].contains("6/8"),
        "{pictures:?}"
    );
    shot(page, notes, &format!("slides-{}-notes.png", words.lang));
}

/// The deck's keys move the notes; the notes window's keys move the deck.
fn the_deck_and_the_notes_move_together(page: &mut Page, notes: &str, words: &Words) {
    page.key("ArrowRight", "ArrowRight", 39);
    assert_eq!(notes_text(page, notes, ".count"), "6/8");
    page.send(
        Some(notes),
        "Input.dispatchKeyEvent",
        json!({"type": "keyDown", "key": "End", "code": "End", "windowsVirtualKeyCode": 35}),
    );
    assert_eq!(number(page), "8/8");
    assert_eq!(notes_text(page, notes, ".count"), "8/8");
    assert!(notes_text(page, notes, ".upcoming").contains(words.last));
}

/// Closed, so the next deck's S opens a window of its own.
fn close_notes(page: &mut Page, notes: &str) {
    let ids = page_ids(page);
    eval_in(page, notes, "window.close()");
    let start = Instant::now();
    while page_ids(page).len() >= ids.len() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the notes did not close"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_slide_deck_turns_with_the_keys_and_s_opens_the_speaker_notes() {
    let test = "the_slide_deck_turns_with_the_keys_and_s_opens_the_speaker_notes";
    let Some(chromium) = find_browser() else {
        common::missing_tool(
            test,
            "no Chromium found (apt-get install chromium-headless-shell)",
        );
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("slides");
    let _ = std::fs::remove_dir_all(&dir);
    let (_browser, ws) = launch(&chromium, &dir.join("profile"));
    let mut page = Page::open(&ws);
    for words in [
        Words {
            lang: "zh",
            step: "步骤",
            next: "下一张",
            notes: "演讲者备注",
            last: "最后一张",
        },
        Words {
            lang: "en",
            step: "step",
            next: "Next slide",
            notes: "Speaker notes",
            last: "last slide",
        },
    ] {
        let file = export(&dir, words.lang);
        let html = std::fs::read_to_string(&file).unwrap();
        assert_eq!(
            html.matches("<section class=\"slide\"").count(),
            8,
            "a slide a step"
        );
        let url = format!("file://{}", file.canonicalize().unwrap().display());
        page.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": false}),
        );
        page.goto(&url);
        a_slide_fills_the_window(&mut page, words.lang);
        the_keys_turn_the_slides(&mut page, words.step);
        page.goto("about:blank");
        page.goto(&format!("{url}#step=5"));
        assert_eq!(number(&mut page), "5/8");
        assert_eq!(shown(&mut page), json!(["5"]));
        // S: the notes in their own window, of slide 5.
        let notes = open_notes(&mut page);
        the_notes_say_the_slide(&mut page, &notes, &words);
        the_deck_and_the_notes_move_together(&mut page, &notes, &words);
        close_notes(&mut page, &notes);
    }

    // Nothing but the files themselves was asked for.
    let requests = page.requests();
    assert!(!requests.is_empty(), "the network events were recorded");
    let outside: Vec<&String> = requests
        .iter()
        .filter(|u| !u.starts_with("file://") && *u != "about:blank")
        .collect();
    assert!(outside.is_empty(), "outside requests: {outside:?}");
}
