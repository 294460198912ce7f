//! The class page in a real browser at a phone's size (headless Chromium
//! over the DevTools protocol, as tests/browser.rs), answering against the
//! real server: it shows the question when the teacher opens it, sends one
//! choice (changeable), says it was received, shows the reveal with the
//! right choice marked in words, switches language, and asks nothing of
//! any other address. Where no Chromium is installed it says so and passes.

#[path = "common/browser.rs"]
mod cdp;
mod common;
#[path = "common/phones.rs"]
mod phones;

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use agent_loop_sim::class::ballots::Bounds;
use agent_loop_sim::class::{Heard, Phrased, Showing, Words, server};
use agent_loop_sim::scenario::Lang;
use cdp::{Page, find_browser, launch};
use serde_json::json;

fn wait_for(page: &mut Page, what: &str, expression: &str) {
    let start = Instant::now();
    while page.eval(expression) != json!(true) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{what}: {}",
            page.eval("document.body.innerText")
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The last counts the server told, after waiting for `n` of them.
fn counts(room: &server::Room) -> Vec<u32> {
    let start = Instant::now();
    let mut last = Vec::new();
    while start.elapsed() < Duration::from_secs(20) {
        match room.heard.recv_timeout(Duration::from_millis(300)) {
            Ok(Heard::Tally { counts, .. }) => last = counts,
            Ok(_) => {}
            Err(_) if !last.is_empty() => return last,
            Err(_) => {}
        }
    }
    last
}

#[test]
fn the_class_page_answers_on_a_phone_in_chromium() {
    let Some(chromium) = find_browser() else {
        common::missing_tool(
            "the_class_page_answers_on_a_phone_in_chromium",
            "no Chromium found (apt-get install chromium-headless-shell, or set CHROMIUM=/path/to/chrome)",
        );
        return;
    };
    let listen: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let room = server::open(listen, Bounds::default()).unwrap();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("class-browser");
    let _ = std::fs::remove_dir_all(&dir);
    let (_browser, ws) = launch(&chromium, &dir.join("profile"));
    let mut page = Page::open(&ws);
    page.call(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 375, "height": 667, "deviceScaleFactor": 2, "mobile": true}),
    );
    page.goto(&room.url);
    // English from the phone's language (headless Chromium's is en-US).
    wait_for(
        &mut page,
        "waiting",
        "document.getElementById('status').textContent.startsWith('Waiting')",
    );

    a_question_opens_and_takes_a_changed_choice(&mut page, &room);
    // Reloaded (a phone that came back): the question and its choice.
    page.goto("about:blank");
    page.goto(&room.url);
    wait_for(
        &mut page,
        "picked up",
        "document.querySelectorAll('#choices button')[1]?.getAttribute('aria-pressed') === 'true'",
    );
    a_second_round_and_the_reveal(&mut page, &room);
    // The language switch.
    page.eval("document.getElementById('lang').click()");
    let status = page.text("document.getElementById('status').textContent");
    assert!(status.contains("已揭晓"), "{status}");
    assert!(
        page.text("document.querySelector('li.right').textContent")
            .contains("✓ 正确答案")
    );
    // Nothing was asked of another address.
    let origin = room.url.split("/c/").next().unwrap().to_string();
    let elsewhere: Vec<String> = page
        .requests()
        .into_iter()
        .filter(|u| !u.starts_with(&origin) && u != "about:blank")
        .collect();
    assert!(elsewhere.is_empty(), "{elsewhere:?}");
}

/// The teacher opens question 4: the phone shows it, fits, and takes a
/// choice, changed before the reveal (one vote, the new choice).
fn a_question_opens_and_takes_a_changed_choice(page: &mut Page, room: &server::Room) {
    room.show(phones::open(4, 1, 3));
    wait_for(
        page,
        "the question",
        "document.querySelectorAll('#choices button').length === 3",
    );
    assert_eq!(
        page.text("document.getElementById('prompt').textContent"),
        "en question 4"
    );
    assert_eq!(
        page.text("document.getElementById('status').textContent"),
        "Before step 5"
    );
    let fits = page.eval("document.documentElement.scrollWidth <= innerWidth");
    assert_eq!(fits, json!(true), "the page fits a phone's width");
    page.eval("document.querySelectorAll('#choices button')[0].click()");
    wait_for(
        page,
        "received",
        "document.getElementById('note').textContent.includes('Answer received')",
    );
    // Changed before the reveal: one vote, the new choice.
    page.eval("document.querySelectorAll('#choices button')[1].click()");
    wait_for(
        page,
        "pressed",
        "document.querySelectorAll('#choices button')[1].getAttribute('aria-pressed') === 'true'",
    );
    assert_eq!(counts(room), vec![0, 1, 0]);
    page.screenshot(&Path::new(env!("CARGO_TARGET_TMPDIR")).join("class-phone-open.png"));
}

/// A second round: a fresh choice; the reveal shows both rounds' votes,
/// the right choice marked in words, and the reason as text.
fn a_second_round_and_the_reveal(page: &mut Page, room: &server::Room) {
    // A second round: a fresh choice; the reveal shows both.
    room.show(phones::open(4, 2, 3));
    wait_for(
        page,
        "round 2",
        "document.getElementById('status').textContent.includes('Round 2')",
    );
    page.eval("document.querySelectorAll('#choices button')[2].click()");
    wait_for(
        page,
        "received 2",
        "document.getElementById('note').textContent.includes('Answer received')",
    );
    assert_eq!(counts(room), vec![0, 0, 1]);
    let words = |lang: &str| Words {
        prompt: format!("{lang} question 4"),
        choices: (1..=3).map(|i| format!("{lang} choice {i}")).collect(),
        why: Some(format!("{lang}: <b>the host</b> runs it")),
    };
    room.show(Showing::Revealed {
        step: 4,
        answer: 2,
        words: Phrased(Lang::ALL.map(|lang| words(lang.code()))),
        counts: vec![vec![0, 1, 0], vec![0, 0, 1]],
    });
    wait_for(
        page,
        "revealed",
        "document.querySelectorAll('li.shown').length === 3",
    );
    let right = page.text("document.querySelector('li.right').textContent");
    assert!(
        right.contains("en choice 3") && right.contains("✓ right answer"),
        "{right}"
    );
    assert!(
        right.contains("first vote: 0") && right.contains("after discussion: 1"),
        "{right}"
    );
    // Text stays text: the markup in the reason is not drawn as markup.
    assert_eq!(
        page.eval("document.querySelectorAll('#why b').length"),
        json!(0)
    );
    page.screenshot(&Path::new(env!("CARGO_TARGET_TMPDIR")).join("class-phone-revealed.png"));
}
