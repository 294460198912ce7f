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

#[test]
#[expect(
    clippy::too_many_lines,
    reason = "TODO(issue 33 item 4): not split yet"
)]
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
    for (lang, step, next_word, notes_word) in [
        ("zh", "步骤", "下一张", "演讲者备注"),
        ("en", "step", "Next slide", "Speaker notes"),
    ] {
        let file = export(&dir, lang);
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
        assert_eq!(number(&mut page), "1/8");
        let shown = |page: &mut Page| {
            page.eval(
                "[...document.querySelectorAll('.slide')].filter(s => !s.hidden).map(s => s.dataset.step)",
            )
        };
        assert_eq!(shown(&mut page), json!(["1"]), "one slide shown");
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
        page.screenshot(
            &Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("slides-{lang}-1.png")),
        );

        page.key("ArrowRight", "ArrowRight", 39);
        assert_eq!(number(&mut page), "2/8");
        assert_eq!(page.text("location.hash"), "#step=2");
        let heading = page.text("document.querySelector('.slide:not([hidden]) h2').textContent");
        assert!(heading.starts_with(&format!("{step} 2/8")), "{heading}");
        page.key("ArrowLeft", "ArrowLeft", 37);
        assert_eq!(number(&mut page), "1/8");
        page.key("ArrowLeft", "ArrowLeft", 37);
        assert_eq!(number(&mut page), "1/8", "no slide before the first");
        page.key("End", "End", 35);
        assert_eq!(number(&mut page), "8/8");
        page.key("ArrowRight", "ArrowRight", 39);
        assert_eq!(number(&mut page), "8/8", "no slide after the last");
        page.key("Home", "Home", 36);
        assert_eq!(number(&mut page), "1/8");

        page.goto("about:blank");
        page.goto(&format!("{url}#step=5"));
        assert_eq!(number(&mut page), "5/8");
        assert_eq!(shown(&mut page), json!(["5"]));

        // S: the notes in their own window, of slide 5.
        let known = page_ids(&mut page);
        page.key("s", "KeyS", 83);
        let notes = notes_window(&mut page, &known);
        let start = Instant::now();
        while eval_in(&mut page, &notes, "document.readyState") != json!("complete") {
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
        let read = |page: &mut Page, what: &str| {
            eval_in(
                page,
                &notes,
                &format!("document.querySelector('{what}').textContent"),
            )
            .as_str()
            .unwrap_or_default()
            .to_string()
        };
        assert_eq!(read(&mut page, ".count"), "5/8");
        let deck_notes =
            page.text("document.querySelector('.slide:not([hidden]) .notes').textContent");
        let said = read(&mut page, ".said");
        assert!(
            said.len() > 40 && said == deck_notes,
            "{said:?} vs {deck_notes:?}"
        );
        assert!(said.contains(&format!("{step} 5/8")), "{said}");
        assert!(read(&mut page, ".next").starts_with(next_word));
        assert!(read(&mut page, ".words").starts_with(notes_word));
        let pictures = eval_in(
            &mut page,
            &notes,
            "[...document.querySelectorAll('.shown svg title, .upcoming svg title')].map(t => t.textContent)",
        );
        let pictures: Vec<String> = serde_json::from_value(pictures).unwrap();
        assert_eq!(pictures.len(), 2, "{pictures:?}");
        assert!(
            pictures[0].contains("5/8") && pictures[1].contains("6/8"),
            "{pictures:?}"
        );
        shot(&mut page, &notes, &format!("slides-{lang}-notes.png"));

        // The deck's keys move the notes; the notes window's keys move the deck.
        page.key("ArrowRight", "ArrowRight", 39);
        assert_eq!(read(&mut page, ".count"), "6/8");
        page.send(
            Some(&notes),
            "Input.dispatchKeyEvent",
            json!({"type": "keyDown", "key": "End", "code": "End", "windowsVirtualKeyCode": 35}),
        );
        assert_eq!(number(&mut page), "8/8");
        assert_eq!(read(&mut page, ".count"), "8/8");
        assert!(read(&mut page, ".upcoming").contains(if lang == "zh" {
            "最后一张"
        } else {
            "last slide"
        }));
        // Closed, so the next deck's S opens a window of its own.
        let ids = page_ids(&mut page);
        eval_in(&mut page, &notes, "window.close()");
        let start = Instant::now();
        while page_ids(&mut page).len() >= ids.len() {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the notes did not close"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
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
