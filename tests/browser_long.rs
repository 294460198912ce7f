//! The HTML exports in headless Chromium, for what issue 38 asked of them:
//! a long run's player opens at once and draws the step asked for from its
//! packed frames, `#step=N` past the end shows the last step and says so,
//! the player alone fits an 800×640 iframe, and the quiz handout draws its
//! Chinese in the simplified (SC) face.
//!
//! Screenshots are left in `target/tmp/browser-long-*.png`.

#[path = "common/browser.rs"]
mod cdp;
mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cdp::{Page, find_browser, launch};
use serde_json::json;

fn export(dir: &Path, args: &[&str]) -> PathBuf {
    let mut all = vec!["export", "--out", dir.to_str().unwrap()];
    all.extend_from_slice(args);
    let out = common::run(&all);
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    PathBuf::from(out.stdout.lines().last().unwrap().trim())
}

fn url(file: &Path, hash: &str) -> String {
    format!("file://{}{hash}", file.canonicalize().unwrap().display())
}

/// Wait until `expression` is true in the page (20 s at most).
fn wait_for(page: &mut Page, expression: &str) {
    let start = Instant::now();
    while page.eval(expression) != json!(true) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "never true: {expression}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The title of the frame shown ('' while none is).
const SHOWN: &str = "(document.querySelector('.frame svg title') || {textContent: ''}).textContent";

/// Open `url` whose page may change its own address (`#step=999` becomes
/// the step shown).
fn open(page: &mut Page, url: &str) {
    page.goto("about:blank");
    page.call("Page.navigate", json!({ "url": url }));
    wait_for(
        page,
        "document.readyState === 'complete' && !!document.getElementById('counter')",
    );
}

fn chromium(test: &str) -> Option<PathBuf> {
    let found = find_browser();
    if found.is_none() {
        common::missing_tool(
            test,
            "no Chromium found (apt-get install chromium-headless-shell, or set \
             CHROMIUM=/path/to/chrome)",
        );
    }
    found
}

#[test]
fn a_long_run_opens_at_once_and_draws_each_step_from_its_packed_frames() {
    let Some(chromium) = chromium("a_long_run_opens_at_once") else {
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-long");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // 60 model calls: 302 steps, packed in blocks.
    let lesson = dir.join("long.json");
    std::fs::write(&lesson, common::long_scenario::json(60)).unwrap();
    let file = export(
        &dir,
        &[
            "--format",
            "html",
            "--lang",
            "en",
            "--scenario",
            lesson.to_str().unwrap(),
        ],
    );
    let html = std::fs::read_to_string(&file).unwrap();
    assert_eq!(html.matches("<svg ").count(), 1, "the first frame alone");
    assert!(html.contains("<script type=\"text/plain\" id=\"p9\""));
    let (_browser, ws) = launch(&chromium, &dir.join("profile"));
    let mut page = Page::open(&ws);
    page.call(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false}),
    );
    page.goto(&url(&file, "#step=150"));
    // The frame shown is step 150's, its words too.
    wait_for(&mut page, &format!("{SHOWN}.includes('step 150/302')"));
    assert_eq!(page.counter(), "150/302");
    let heading = page.text("document.querySelector('.step h2').textContent");
    assert!(heading.starts_with("step 150/302"), "{heading}");
    // Next, then across a block, then the last.
    page.eval("document.getElementById('next').click()");
    wait_for(&mut page, &format!("{SHOWN}.includes('step 151/302')"));
    page.eval("document.getElementById('last').click()");
    wait_for(&mut page, &format!("{SHOWN}.includes('step 302/302')"));
    let heading = page.text("document.querySelector('.step h2').textContent");
    assert!(heading.starts_with("step 302/302"), "{heading}");
    assert_eq!(page.requests().len(), 1, "the page alone, nothing else");
    page.screenshot(&dir.join("../browser-long-packed.png"));

    // A step the player does not have: the last one, and a note saying so.
    open(&mut page, &url(&file, "#step=999"));
    wait_for(&mut page, &format!("{SHOWN}.includes('step 302/302')"));
    assert_eq!(page.counter(), "302/302");
    let note = page.text("document.getElementById('note').textContent");
    assert_eq!(note, "There is no step 999 here; this is step 302.");
    assert_eq!(
        page.eval("document.getElementById('note').hidden"),
        json!(false)
    );
    page.eval("document.getElementById('prev').click()");
    assert_eq!(
        page.eval("document.getElementById('note').hidden"),
        json!(true)
    );
}

#[test]
fn a_step_past_the_end_of_a_short_player_shows_the_last_and_says_so() {
    let Some(chromium) = chromium("a_step_past_the_end") else {
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-short");
    let _ = std::fs::remove_dir_all(&dir);
    let file = export(&dir, &["--format", "html", "--player-only"]);
    let (_browser, ws) = launch(&chromium, &dir.join("profile"));
    let mut page = Page::open(&ws);
    // The player alone in an 800×640 iframe: everything in view.
    page.call(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 800, "height": 640, "deviceScaleFactor": 1, "mobile": false}),
    );
    open(&mut page, &url(&file, "#step=99"));
    assert_eq!(page.counter(), "8/8");
    let note = page.text("document.getElementById('note').textContent");
    assert_eq!(note, "这里没有第 99 步，显示的是第 8 步。");
    page.screenshot(&dir.join("../browser-long-iframe.png"));
    for id in ["jump", "next", "zoom", "note"] {
        let bottom = page.eval(&format!(
            "document.getElementById('{id}').getBoundingClientRect().bottom"
        ));
        assert!(bottom.as_f64().unwrap() <= 640.0, "{id} at {bottom}");
    }
    let words = page.eval(
        "(function () { var s = document.querySelector('.step:not([hidden])').getBoundingClientRect(); \
         return s.top < 640 && s.bottom <= 640; })()",
    );
    assert_eq!(words, json!(true), "the step's words in view");
}

#[test]
fn the_quiz_handout_draws_chinese_in_the_simplified_face() {
    let Some(chromium) = chromium("the_quiz_handout_draws_chinese") else {
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-quiz");
    let _ = std::fs::remove_dir_all(&dir);
    let file = export(
        &dir,
        &["--format", "html", "--quiz", "--scenario", "patch-and-test"],
    );
    let html = std::fs::read_to_string(&file).unwrap();
    assert!(html.contains("<html lang=\"zh-Hans\">"));
    let (_browser, ws) = launch(&chromium, &dir.join("profile"));
    let mut page = Page::open(&ws);
    page.goto(&url(&file, ""));
    page.call("DOM.enable", json!({}));
    page.call("CSS.enable", json!({}));
    let root = page.call("DOM.getDocument", json!({}));
    let h1 = page.call(
        "DOM.querySelector",
        json!({"nodeId": root["root"]["nodeId"], "selector": "h1"}),
    );
    let fonts = page.call(
        "CSS.getPlatformFontsForNode",
        json!({"nodeId": h1["nodeId"]}),
    );
    let families: Vec<String> = fonts["fonts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["familyName"].as_str().unwrap().to_string())
        .collect();
    assert!(
        families.iter().any(|f| f.contains("CJK SC")),
        "{families:?}"
    );
    assert!(
        families.iter().all(|f| !f.contains("CJK JP")),
        "{families:?}"
    );
}
