//! The HTML player in a real browser: headless Chromium driven over the
//! DevTools protocol. It opens at 1/8 and stays still, the keys step and
//! play, `#step=5` opens step 5, keys do nothing while the player lacks
//! focus, the figure fits a phone, and the page makes no request at all.
//!
//! Chromium comes from the Debian package `chromium-headless-shell` (CI
//! installs it, see `.ci/run`); where no Chromium is installed this test
//! says so and passes without running. Screenshots are left in
//! `target/tmp/browser-*.png` for a person to look at.

#[path = "common/browser.rs"]
mod cdp;
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use cdp::{Page, base64_decode, find_browser, launch, launch_with};
use common::BIN;
use serde_json::json;

#[test]
fn base64_decodes_padding() {
    assert_eq!(base64_decode("aGk="), b"hi");
    assert_eq!(base64_decode("aGV5"), b"hey");
    assert_eq!(base64_decode("aA=="), b"h");
}

#[test]
fn the_html_player_plays_in_chromium_without_any_request() {
    let Some(chromium) = find_browser() else {
        common::missing_tool(
            "the_html_player_plays_in_chromium_without_any_request",
            "no Chromium found (apt-get install chromium-headless-shell, or set \
             CHROMIUM=/path/to/chrome)",
        );
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(BIN)
        .args(["export", "--format", "html", "--dwell", "0.3", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The name carries the dwell time asked for.
    let file = dir.join("read-config-timeout.zh.0.3s.html");
    let url = format!("file://{}", file.canonicalize().unwrap().display());

    let (_browser, ws) = launch(&chromium, &dir.join("profile"));
    let mut page = Page::open(&ws);
    page.call(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false}),
    );
    page.goto(&url);
    opens_still_at_step_one(&mut page);
    keys_and_buttons_step_and_play(&mut page);
    a_link_opens_its_step(&mut page, &url);
    fits_a_phone_and_zooms_to_full_size(&mut page, &url);
    in_an_iframe_keeps_to_itself(&mut page, &dir);
    asked_for_nothing_outside(&mut page);
}

fn opens_still_at_step_one(page: &mut Page) {
    // Opens at 1/8, and stays still.
    assert_eq!(page.counter(), "1/8");
    assert_eq!(page.text("location.hash"), "");
    std::thread::sleep(Duration::from_millis(900));
    assert_eq!(page.counter(), "1/8", "the player starts still");
    assert_eq!(page.eval("document.activeElement.id"), json!("player"));
    // One frame and one step text shown; the figure has its alt text.
    assert_eq!(
        page.eval("document.querySelectorAll('.frame:not([hidden])').length"),
        json!(1)
    );
    let alt = page.text("document.querySelector('.frame:not([hidden]) svg title').textContent");
    assert!(alt.contains("步骤 1/8"), "{alt}");
    page.screenshot(&Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-desktop.png"));
}

fn keys_and_buttons_step_and_play(page: &mut Page) {
    // → and ← step; the address follows.
    page.key("ArrowRight", "ArrowRight", 39);
    assert_eq!(page.counter(), "2/8");
    assert_eq!(page.text("location.hash"), "#step=2");
    let heading = page.text("document.querySelector('.step:not([hidden]) h2').textContent");
    assert!(heading.starts_with("步骤 2/8"), "{heading}");
    page.key("ArrowLeft", "ArrowLeft", 37);
    assert_eq!(page.counter(), "1/8");
    page.key("End", "End", 35);
    assert_eq!(page.counter(), "8/8");
    page.key("Home", "Home", 36);
    assert_eq!(page.counter(), "1/8");

    // Space plays one step per dwell (0.3 s); a second Space pauses.
    page.key(" ", "Space", 32);
    std::thread::sleep(Duration::from_millis(1000));
    page.key(" ", "Space", 32);
    let paused = page.counter();
    let k: usize = paused.split('/').next().unwrap().parse().unwrap();
    assert!((2..8).contains(&k), "played to {paused}");
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(page.counter(), paused, "a second Space pauses");
    // Played from step 7, it stops on the last step.
    page.key("End", "End", 35);
    page.key("ArrowLeft", "ArrowLeft", 37);
    page.key(" ", "Space", 32);
    std::thread::sleep(Duration::from_millis(1000));
    assert_eq!(page.counter(), "8/8");
    assert_eq!(
        page.eval("document.getElementById('play').getAttribute('aria-pressed')"),
        json!("false"),
        "stopped at the end"
    );

    // The buttons are buttons and work.
    page.eval("document.getElementById('first').click()");
    assert_eq!(page.counter(), "1/8");
    page.eval("document.getElementById('next').click()");
    assert_eq!(page.counter(), "2/8");

    // Without focus, the keys are the page's: nothing moves.
    page.eval("document.activeElement.blur()");
    page.key("ArrowRight", "ArrowRight", 39);
    assert_eq!(
        page.counter(),
        "2/8",
        "keys work only when the player has focus"
    );
}

fn a_link_opens_its_step(page: &mut Page, url: &str) {
    // A link to a step opens it.
    page.goto("about:blank");
    page.goto(&format!("{url}#step=5"));
    assert_eq!(page.counter(), "5/8");
    let shown = page.text("document.querySelector('.frame:not([hidden])').dataset.step");
    assert_eq!(shown, "5");
}

fn fits_a_phone_and_zooms_to_full_size(page: &mut Page, url: &str) {
    // A phone: the figure fits the width; the zoom shows it full size.
    page.call(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 375, "height": 667, "deviceScaleFactor": 2, "mobile": true}),
    );
    page.goto("about:blank");
    page.goto(url);
    let fits = page.eval(
        "(() => { const r = document.querySelector('.frame:not([hidden]) svg').getBoundingClientRect(); \
         return r.width > 0 && r.right <= innerWidth && document.documentElement.scrollWidth <= innerWidth; })()",
    );
    assert_eq!(fits, json!(true), "the figure scales to a phone");
    page.screenshot(&Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-phone.png"));
    page.eval("document.getElementById('zoom').click()");
    let zoomed = page.eval(
        "(() => { const p = document.getElementById('player'); const r = p.getBoundingClientRect(); \
         const f = document.getElementById('figure').getBoundingClientRect(); \
         const s = p.querySelector('.frame:not([hidden]) svg').getBoundingClientRect(); \
         return getComputedStyle(p).position === 'fixed' && r.width === innerWidth \
           && f.width <= innerWidth && s.width >= 1100; })()",
    );
    assert_eq!(
        zoomed,
        json!(true),
        "the zoom fills the screen, the figure at full size in its own sideways scroll"
    );
    page.screenshot(&Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-phone-zoomed.png"));
    // Zoomed, every control is on screen and answers a tap there (nothing
    // covers it), and the step's explanation is there to read.
    let reachable = page.eval(
        "(() => { const ids = ['first', 'prev', 'play', 'next', 'last', 'dwell', 'zoom', 'jump']; \
         return ids.filter(id => { const e = document.getElementById(id); \
           const r = e.getBoundingClientRect(); \
           const x = r.left + r.width / 2, y = r.top + r.height / 2; \
           return !(r.width > 0 && x >= 0 && x <= innerWidth && y >= 0 && y <= innerHeight \
             && document.elementFromPoint(x, y) === e); }); })()",
    );
    assert_eq!(
        reachable,
        json!([]),
        "controls that cannot be tapped while zoomed"
    );
    page.eval("document.getElementById('next').click()");
    assert_eq!(page.counter(), "2/8", "Next works while zoomed");
    let words = page.eval(
        "(() => { const p = document.getElementById('player'); \
         const e = p.querySelector('.step:not([hidden]) .explanation'); \
         e.scrollIntoView(); const r = e.getBoundingClientRect(); \
         return e.textContent.length > 10 && r.top >= 0 && r.bottom <= innerHeight \
           && document.elementFromPoint(r.left + 5, r.top + 5).closest('.explanation') === e; })()",
    );
    assert_eq!(
        words,
        json!(true),
        "the explanation can be read while zoomed"
    );
    page.screenshot(&Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-phone-zoomed-words.png"));
    page.eval("document.getElementById('zoom').click()");
}

fn in_an_iframe_keeps_to_itself(page: &mut Page, dir: &Path) {
    // Inside an iframe of a page of notes: the link's step opens, the
    // player does not take the page's focus, and the page's keys stay its own.
    page.call(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false}),
    );
    let notes = dir.join("notes.html");
    std::fs::write(
        &notes,
        "<!DOCTYPE html><html><body><h1>Notes</h1>\
         <iframe id=\"f\" src=\"read-config-timeout.zh.0.3s.html#step=3\" width=\"900\" height=\"700\"></iframe>\
         </body></html>",
    )
    .unwrap();
    let notes_url = format!("file://{}", notes.canonicalize().unwrap().display());
    page.goto(&notes_url);
    let start = Instant::now();
    let frame_id = loop {
        let tree = page.call("Page.getFrameTree", json!({}));
        let child = &tree["frameTree"]["childFrames"][0]["frame"];
        if child["url"]
            .as_str()
            .is_some_and(|u| u.ends_with("read-config-timeout.zh.0.3s.html"))
        {
            break child["id"].as_str().unwrap().to_string();
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the iframe did not load: {tree}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let world = page.call(
        "Page.createIsolatedWorld",
        json!({"frameId": frame_id, "worldName": "test"}),
    );
    let context = world["executionContextId"].clone();
    let in_frame = |page: &mut Page, expression: &str| {
        let r = page.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "contextId": context}),
        );
        r["result"]["value"].clone()
    };
    let start = Instant::now();
    while in_frame(page, "document.readyState") != json!("complete") {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the player did not load"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        in_frame(page, "document.getElementById('counter').textContent"),
        json!("3/8")
    );
    assert_eq!(
        page.eval("document.activeElement === document.body"),
        json!(true),
        "the player in an iframe leaves the page's focus alone"
    );
    page.key("ArrowRight", "ArrowRight", 39);
    assert_eq!(
        in_frame(page, "document.getElementById('counter').textContent"),
        json!("3/8")
    );
    page.screenshot(&Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-iframe.png"));
}

fn asked_for_nothing_outside(page: &mut Page) {
    // The pages asked for nothing but themselves.
    let requests = page.requests();
    assert!(!requests.is_empty(), "the network events were recorded");
    let outside: Vec<&String> = requests
        .iter()
        .filter(|u| !u.starts_with("file://") && *u != "about:blank")
        .collect();
    assert!(outside.is_empty(), "outside requests: {outside:?}");
    assert_eq!(
        page.eval("performance.getEntriesByType('resource').length"),
        json!(0)
    );
}

/// A fontconfig setup with one Latin serif font and nothing else (no
/// monospace, no CJK): a reader's machine without the figure's fonts.
/// Chromium reads it (fontconfig); so would our export (fontdb reads the
/// same FONTCONFIG_FILE). With no font at all Chromium fails to load even
/// a web font, so one is kept. None where that font is not installed.
fn serif_only(dir: &Path) -> Option<PathBuf> {
    let serif = Path::new("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf");
    if !serif.is_file() {
        return None;
    }
    let fonts = dir.join("serif-only");
    std::fs::create_dir_all(&fonts).unwrap();
    std::fs::copy(serif, fonts.join("DejaVuSerif.ttf")).unwrap();
    let conf = dir.join("fonts.conf");
    std::fs::write(
        &conf,
        format!(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n\
             <fontconfig><dir>{}</dir><cachedir>{}</cachedir></fontconfig>\n",
            fonts.display(),
            dir.join("fc-cache").display()
        ),
    )
    .unwrap();
    Some(conf)
}

/// Every Unicode character a PDF's text maps to (ToUnicode bfchar and
/// bfrange entries, ActualText spans, in its Flate streams): the text a PDF
/// reader can find.
fn pdf_text_chars(pdf: &[u8]) -> std::collections::BTreeSet<char> {
    use std::io::Read as _;
    let mut chars = std::collections::BTreeSet::new();
    let hex = |s: &str| u32::from_str_radix(s.trim_matches(['<', '>']), 16).ok();
    let utf16 = |s: &str| -> Vec<char> {
        let s = s.trim_matches(['<', '>']);
        let units: Vec<u16> = (0..s.len() / 4)
            .filter_map(|i| u16::from_str_radix(&s[i * 4..i * 4 + 4], 16).ok())
            .collect();
        char::decode_utf16(units).filter_map(Result::ok).collect()
    };
    let mut rest = pdf;
    while let Some(at) = find(rest, b"stream") {
        let body = &rest[at + 6..];
        let body = body.strip_prefix(b"\r").unwrap_or(body);
        let body = body.strip_prefix(b"\n").unwrap_or(body);
        let end = find(body, b"endstream").unwrap_or(body.len());
        let mut text = String::new();
        let _ = flate2::read::ZlibDecoder::new(&body[..end]).read_to_string(&mut text);
        // A glyph drawn for one of several characters carries its text
        // itself (Skia writes an ActualText span around it).
        for span in text.split("/ActualText <FEFF").skip(1) {
            chars.extend(utf16(span.split('>').next().unwrap_or("")));
        }
        for section in ["beginbfchar", "beginbfrange"] {
            for block in text.split(section).skip(1) {
                let block = block.split("end").next().unwrap_or("");
                for line in block.lines() {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    match (section, words.as_slice()) {
                        ("beginbfchar", [_, dst]) => chars.extend(utf16(dst)),
                        ("beginbfrange", [lo, hi, dst]) if dst.starts_with('<') => {
                            if let (Some(lo), Some(hi), Some(&first)) =
                                (hex(lo), hex(hi), utf16(dst).first())
                            {
                                chars.extend(
                                    (0..=hi.saturating_sub(lo))
                                        .filter_map(|k| char::from_u32(first as u32 + k)),
                                );
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        rest = &body[(end + b"endstream".len()).min(body.len())..];
    }
    chars
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The embedded faces load, and Chromium rejects none of them.
fn the_embedded_faces_load(page: &mut Page) {
    let start = Instant::now();
    while page.text("document.fonts.status") != "loaded" {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "fonts never loaded"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // The faces the page drew with: the browser loads a face only for text
    // it draws, and fails any font it cannot read.
    let faces = page.eval(
        "[...document.fonts].map(f => f.family.replace(/[\"']/g, '') + ' ' + f.weight + ' ' + f.status)",
    );
    let faces: Vec<String> = faces
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    assert!(
        faces.iter().all(|f| !f.ends_with("error")),
        "a font Chromium rejects: {faces:?}"
    );
    for face in [
        "Embedded Noto Sans Mono CJK SC 400 loaded",
        "Embedded DejaVu Sans Mono 400 loaded",
    ] {
        assert!(faces.iter().any(|f| f == face), "{face} in {faces:?}");
    }
}

fn drawn_with_web_fonts_only(page: &mut Page) {
    // The fonts Chromium drew the page's heading and the figure's Chinese
    // with: web fonts (the embedded faces) only, never the installed serif
    // or a box.
    page.call("DOM.enable", json!({}));
    page.call("CSS.enable", json!({}));
    let root = page.call("DOM.getDocument", json!({"depth": 0}))["root"]["nodeId"].clone();
    for selector in ["h1", ".frame:not([hidden]) text"] {
        let node = page.call(
            "DOM.querySelector",
            json!({"nodeId": root, "selector": selector}),
        )["nodeId"]
            .clone();
        let used = page.call("CSS.getPlatformFontsForNode", json!({"nodeId": node}));
        let fonts = used["fonts"].as_array().unwrap();
        assert!(!fonts.is_empty(), "{selector}: no font");
        for font in fonts {
            assert_eq!(font["isCustomFont"], json!(true), "{selector}: {font}");
        }
    }
}

fn printed_to_pdf_the_text_is_text(page: &mut Page, dir: &Path) {
    // Printed to PDF, the text is text: its ToUnicode maps hold the words.
    let pdf = page.call("Page.printToPDF", json!({"printBackground": true}));
    let pdf = base64_decode(pdf["data"].as_str().unwrap());
    std::fs::write(dir.join("embedded.pdf"), &pdf).unwrap();
    let chars = pdf_text_chars(&pdf);
    for c in "模型调用timeout=30".chars() {
        assert!(
            chars.contains(&c),
            "{c} is not text in the PDF ({} characters are)",
            chars.len()
        );
    }
}

#[test]
fn embedded_fonts_draw_the_text_without_the_fonts_installed_and_print_as_text() {
    const TEST: &str = "embedded_fonts_draw_the_text_without_the_fonts_installed_and_print_as_text";
    let Some(chromium) = find_browser() else {
        common::missing_tool(
            TEST,
            "no Chromium found (apt-get install chromium-headless-shell)",
        );
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-fonts");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let export = |extra: &[&str], out: &str| {
        Command::new(BIN)
            .args(["export", "--format", "html", "--steps", "7", "--out"])
            .arg(dir.join(out))
            .args(extra)
            .output()
            .unwrap()
    };
    let made = export(&["--embed-fonts"], "embedded");
    if !made.status.success() {
        // No CJK font on this machine: the export refuses (tests/figures.rs
        // checks the message); nothing to look at in a browser.
        let err = String::from_utf8_lossy(&made.stderr);
        assert!(err.contains("fonts-noto-cjk"), "{err}");
        common::missing_tool(TEST, err.trim());
        return;
    }
    assert!(export(&[], "system").status.success());
    let Some(conf) = serif_only(&dir) else {
        common::missing_tool(
            TEST,
            "DejaVuSerif.ttf is not installed (apt-get install fonts-dejavu-core)",
        );
        return;
    };
    let (_browser, ws) = launch_with(
        &chromium,
        &dir.join("profile"),
        &[("FONTCONFIG_FILE", conf.as_path())],
    );
    let mut page = Page::open(&ws);
    page.call(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false}),
    );
    let url = |name: &str| {
        // The name says the fonts are in it (`.fonts`), and its one step.
        let file = match name {
            "embedded" => dir
                .join(name)
                .join("read-config-timeout.zh.fonts.step-07.html"),
            _ => dir.join(name).join("read-config-timeout.zh.step-07.html"),
        };
        format!("file://{}", file.canonicalize().unwrap().display())
    };

    // For comparison, a person can look at the page without embedded fonts.
    page.goto(&url("system"));
    page.screenshot(&Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-serif-only-system.png"));

    page.goto(&url("embedded"));
    the_embedded_faces_load(&mut page);
    drawn_with_web_fonts_only(&mut page);
    page.screenshot(
        &Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-serif-only-embedded.png"),
    );

    printed_to_pdf_the_text_is_text(&mut page, &dir);
}
