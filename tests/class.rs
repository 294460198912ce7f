//! `--class`: the room on the projector (the join panel's QR code read
//! back by a QR reader, the counts, the reveal, a second round), the
//! results file, and the real server on 127.0.0.1: its refusals, a phone
//! that comes back, and 200 phones voting on every question.

mod common;
#[path = "common/phones.rs"]
mod phones;

use std::net::SocketAddr;
use std::time::Instant;

use agent_loop_sim::app::{Action, App, Overlay};
use agent_loop_sim::class::ballots::Bounds;
use agent_loop_sim::class::server::{self, Room, Unopened};
use agent_loop_sim::class::{self as class, Class, Heard, Phrased, Showing};
use agent_loop_sim::frames;
use agent_loop_sim::load::DEFAULT_SCENARIO;
use agent_loop_sim::scenario::Lang;
use common::snapshot_settings as settings;
use phones::{PATIENCE, Phone, request};
use ratatui::buffer::Buffer;

const URL: &str = "http://192.168.1.20:8737/c/k3jq7xw2mdp5r4tzv6nyb8hcla/";

/// The default lesson with the quiz on and a room joined at `URL`.
fn class_app(lang: Lang, (w, h): (u16, u16)) -> App {
    let mut app = App::new(
        agent_loop_sim::load::load(DEFAULT_SCENARIO).unwrap(),
        lang,
        agent_loop_sim::theme::Theme::DARK,
    );
    app.class = Some(Class::new(Ok(URL.into())));
    frames::apply(&mut app, Action::Resize(w, h));
    frames::apply(&mut app, Action::ToggleQuiz);
    // On to the lesson's first question (it asks at the steps it chose).
    while app.quiz.asking.is_none() && app.step < app.last() {
        frames::apply(&mut app, Action::Next);
    }
    app
}

fn text(app: &App) -> String {
    let (w, h) = app.size;
    frames::to_text(&frames::render(app, w, h))
}

/// The QR code drawn in `buf`, read by a QR reader: its cells are the
/// white-on-black ones; each is two modules, one above the other.
fn decode(buf: &Buffer) -> Vec<String> {
    use ratatui::style::Color;
    let area = buf.area;
    let code = |x: u16, y: u16| {
        let c = &buf[(x, y)];
        c.fg == Color::White && c.bg == Color::Black
    };
    let cells: Vec<(u16, u16)> = (0..area.height)
        .flat_map(|y| (0..area.width).map(move |x| (x, y)))
        .filter(|&(x, y)| code(x, y))
        .collect();
    assert!(!cells.is_empty(), "no code drawn");
    let (x0, y0) = (
        cells.iter().map(|c| c.0).min().unwrap(),
        cells.iter().map(|c| c.1).min().unwrap(),
    );
    let (x1, y1) = (
        cells.iter().map(|c| c.0).max().unwrap(),
        cells.iter().map(|c| c.1).max().unwrap(),
    );
    let rows: Vec<String> = (y0..=y1)
        .map(|y| {
            (x0..=x1)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect()
        })
        .collect();
    let modules = class::qr::modules(&rows);
    // Four pixels a module, and a dark margin: the terminal around it.
    let (scale, margin) = (4, 8);
    let (w, h) = (
        modules[0].len() * scale + 2 * margin,
        modules.len() * scale + 2 * margin,
    );
    let mut img = rqrr::PreparedImage::prepare_from_greyscale(w, h, |x, y| {
        let (mx, my) = (
            (x.wrapping_sub(margin)) / scale,
            (y.wrapping_sub(margin)) / scale,
        );
        let light = modules
            .get(my)
            .and_then(|r| r.get(mx))
            .copied()
            .unwrap_or(false);
        if light { 255 } else { 0 }
    });
    img.detect_grids()
        .iter()
        .map(|g| g.decode().expect("a readable code").1)
        .collect()
}

#[test]
fn the_join_panel_draws_a_code_a_reader_decodes_to_its_address() {
    for lang in Lang::ALL {
        for (w, h) in [(120, 40), (80, 24)] {
            let mut app = class_app(lang, (w, h));
            frames::apply(&mut app, Action::ToggleJoin);
            assert_eq!(app.overlay, Some(Overlay::Join));
            let buf = frames::render(&app, w, h);
            assert_eq!(decode(&buf), vec![URL.to_string()], "{lang:?} {w}x{h}");
            let screen = frames::to_text(&buf);
            assert!(screen.contains(URL), "the address as text too:\n{screen}");
            let name = format!("{DEFAULT_SCENARIO}__{w}x{h}__{}__class-join", lang.code());
            settings().bind(|| insta::assert_snapshot!(name, screen));
            frames::apply(&mut app, Action::ToggleJoin);
            assert_eq!(app.overlay, None, "i again closes it");
        }
    }
}

#[test]
fn a_room_that_could_not_open_says_why_and_the_lesson_runs() {
    for lang in Lang::ALL {
        let mut app = class_app(lang, (120, 40));
        app.class = Some(Class::new(Err(Unopened::PortInUse(8737))));
        let said = match lang {
            Lang::En | Lang::Pseudo => "Port 8737 is in use",
            Lang::Zh => "端口 8737 已被占用",
        };
        // The question open: no room counts ("0 / 0 answered" would say
        // nothing true), so the panel says why, and a digit answers.
        assert!(app.quiz.asking.is_some());
        let screen = text(&app);
        let (no_room, digit) = match lang {
            Lang::En | Lang::Pseudo => ("did not open", "press 1–"),
            Lang::Zh => ("课堂没有打开", "按 1–"),
        };
        let scene = agent_loop_sim::view::scene::Scene::of(&app);
        let panel = agent_loop_sim::view::quiz::QuizPanel::of(&app, &scene);
        let flat: String = (panel.lines(60, 40).iter())
            .flat_map(|l| l.spans.iter().map(|s| s.content.to_string()))
            .collect::<String>()
            .split_whitespace()
            .collect();
        for said in [no_room, digit, said] {
            assert!(flat.contains(&said.replace(' ', "")), "{said}:\n{screen}");
        }
        assert!(!screen.contains("0 / 0"), "{screen}");
        let name = format!(
            "{DEFAULT_SCENARIO}__120x40__{}__class-unopened-asking",
            lang.code()
        );
        settings().bind(|| insta::assert_snapshot!(name, screen));
        frames::apply(&mut app, Action::Resize(80, 24));
        let name = format!(
            "{DEFAULT_SCENARIO}__80x24__{}__class-unopened-asking",
            lang.code()
        );
        settings().bind(|| insta::assert_snapshot!(name, text(&app)));
        let step = app.quiz.asking.unwrap();
        frames::apply(&mut app, Action::Answer(1));
        assert!(app.quiz.answers.contains_key(&step), "the digit answered");
        // i shows why again.
        frames::apply(&mut app, Action::ToggleJoin);
        let screen = text(&app);
        assert!(screen.contains(said), "{screen}");
        let name = format!("{DEFAULT_SCENARIO}__80x24__{}__class-unopened", lang.code());
        settings().bind(|| insta::assert_snapshot!(name, screen));
        frames::apply(&mut app, Action::Back);
        assert_eq!(app.overlay, None);
    }
}

/// The counts as the server would tell them.
fn tally(app: &mut App, step: usize, round: u8, counts: &[u32]) {
    class::heard(
        app,
        Heard::Tally {
            step,
            round,
            counts: counts.to_vec(),
        },
    );
}

/// 17 answers over `n` choices.
fn seventeen(n: usize) -> Vec<u32> {
    match n {
        2 => vec![9, 8],
        3 => vec![9, 5, 3],
        _ => counts_for(n, &[9, 5, 2, 1]),
    }
}

fn counts_for(n: usize, given: &[u32]) -> Vec<u32> {
    (0..n).map(|i| given.get(i).copied().unwrap_or(0)).collect()
}

/// Snapshots of the projector: answered so far, a second round, and the
/// reveal of one round and of two.
#[test]
fn class_frames() {
    for lang in Lang::ALL {
        for (w, h) in [(120, 40), (80, 24)] {
            let snap = |app: &App, what: &str| {
                let name = format!("{DEFAULT_SCENARIO}__{w}x{h}__{}__{what}", lang.code());
                settings().bind(|| insta::assert_snapshot!(name, text(app)));
            };
            let mut app = class_app(lang, (w, h));
            let q = app.question().expect("a question open");
            let n = q.choices.len();
            class::heard(&mut app, Heard::Present(23));
            tally(&mut app, q.step, 1, &seventeen(n));
            let screen = text(&app);
            let answered = match lang {
                Lang::En | Lang::Pseudo => "17 / 23 answered",
                Lang::Zh => "17 / 23 人已作答",
            };
            assert!(screen.contains(answered), "{screen}");
            snap(&app, "class-open");

            let mut once = app.clone();
            frames::apply(&mut once, Action::Reveal);
            assert_eq!(
                (once.step, once.quiz.asking),
                (q.step, None),
                "the step shown"
            );
            snap(&once, "class-revealed");

            frames::apply(&mut app, Action::SecondRound);
            tally(&mut app, q.step, 2, &counts_for(n, &[2, 18]));
            // A late count of the first round is not the round shown.
            tally(&mut app, q.step, 1, &counts_for(n, &[1]));
            snap(&app, "class-second-round");
            frames::apply(&mut app, Action::Reveal);
            let class = app.class.as_ref().unwrap();
            assert_eq!(
                class.tallies[&q.step],
                vec![seventeen(n), counts_for(n, &[2, 18])]
            );
            snap(&app, "class-revealed-two-rounds");
            // Revealed counts are frozen.
            tally(&mut app, q.step, 2, &counts_for(n, &[20]));
            assert_eq!(
                app.class.as_ref().unwrap().tallies[&q.step][1],
                counts_for(n, &[2, 18])
            );
        }
    }
}

#[test]
fn the_reveal_marks_the_right_choice_in_words_and_the_phones_are_told() {
    let mut app = class_app(Lang::En, (120, 40));
    let q = app.question().unwrap();
    assert!(matches!(class::showing(&app), Showing::Open { step, round: 1, .. } if step == q.step));
    tally(
        &mut app,
        q.step,
        1,
        &counts_for(q.choices.len(), &[4, 4, 4]),
    );
    frames::apply(&mut app, Action::Reveal);
    let screen = text(&app);
    let right = format!("[{}] {}", q.answer + 1, q.choices[q.answer]);
    let marked = screen
        .lines()
        .any(|l| l.contains(&right[..right.len().min(30)]) || l.contains("✓ right"));
    assert!(marked && screen.contains("✓ right"), "{screen}");
    match class::showing(&app) {
        Showing::Revealed {
            step,
            answer,
            counts,
            words: Phrased(words),
        } => {
            assert_eq!((step, answer), (q.step, q.answer));
            assert_eq!(counts, vec![counts_for(q.choices.len(), &[4, 4, 4])]);
            let en = &words[Lang::En.index()];
            assert!(en.why.as_ref().is_some_and(|w| !w.is_empty()));
        }
        other => panic!("{other:?}"),
    }
    // On to the next question: nothing revealed of it.
    for _ in 0..app.trace().len() {
        if app.quiz.asking.is_some() {
            break;
        }
        frames::apply(&mut app, Action::Next);
    }
    assert!(matches!(
        class::showing(&app),
        Showing::Open { round: 1, .. }
    ));
    // The teacher's own digit reveals for the room too.
    let q = app.question().unwrap();
    frames::apply(&mut app, Action::Answer(1));
    assert!(app.class.as_ref().unwrap().revealed.contains(&q.step));
    // Without a room the keys do nothing.
    let mut lone = class_app(Lang::En, (120, 40));
    lone.class = None;
    let before = (lone.step, lone.quiz.asking);
    frames::apply(&mut lone, Action::Reveal);
    frames::apply(&mut lone, Action::SecondRound);
    assert_eq!((lone.step, lone.quiz.asking), before);
}

#[test]
fn the_results_are_counts_per_round_in_csv_and_json() {
    let mut app = class_app(Lang::En, (120, 40));
    let q = app.question().unwrap();
    let n = q.choices.len();
    tally(&mut app, q.step, 1, &counts_for(n, &[3, 1]));
    frames::apply(&mut app, Action::SecondRound);
    tally(&mut app, q.step, 2, &counts_for(n, &[0, 4]));
    frames::apply(&mut app, Action::Reveal);
    let json: serde_json::Value =
        serde_json::from_str(&class::results::text(&app, class::results::Format::Json)).unwrap();
    let first = &json["questions"][0];
    assert_eq!(first["step"], q.step + 1);
    assert_eq!(first["answer"], q.answer + 1);
    assert_eq!(
        first["rounds"][0]["counts"],
        serde_json::json!(counts_for(n, &[3, 1]))
    );
    assert_eq!(first["rounds"][1]["answered"], 4);
    let csv = class::results::text(&app, class::results::Format::Csv);
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(
        rows[0],
        "step,round,choice,right,count,answered,question,choice_text"
    );
    assert_eq!(rows.len(), 1 + 2 * n);
    assert!(rows[1].starts_with(&format!("{},1,1,{},3,4,", q.step + 1, q.answer == 0)));
    assert!(rows[n + 2].starts_with(&format!("{},2,2,{},4,4,", q.step + 1, q.answer == 1)));
    // Written to a file by its extension; another is refused.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join("class-results.csv");
    class::results::write(&file, &app).unwrap();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), csv);
    assert!(class::results::format_of(&dir.join("r.txt")).is_err());
}

/// The real server on a free port of 127.0.0.1.
fn room(bounds: Bounds) -> Room {
    let listen: SocketAddr = "127.0.0.1:0".parse().unwrap();
    server::open(listen, bounds).unwrap()
}

#[test]
fn the_server_refuses_what_is_not_a_vote_of_the_room() {
    let room = room(Bounds::default());
    let (addr, base) = phones::split(&room.url);
    // A wrong token, of the right length or not.
    let wrong = format!("/c/{}/", "a".repeat(26));
    assert_eq!(request(addr, "GET", &wrong, None, b"").status, 404);
    assert_eq!(request(addr, "GET", "/c/x/", None, b"").status, 404);
    assert_eq!(request(addr, "GET", "/", None, b"").status, 404);
    let phone = Phone::join(&room.url);
    let page = request(addr, "GET", &base, Some(&phone.cookie), b"");
    assert!(
        page.head
            .to_lowercase()
            .contains("content-security-policy: default-src 'none'")
    );
    assert!(page.body.contains("<script src=\"app.js\">"));
    assert_eq!(
        request(addr, "GET", &format!("{base}app.js"), None, b"").status,
        200
    );
    // Nothing open: closed.
    assert_eq!(phone.vote(1, 1, 0), 409);
    room.show(phones::open(1, 1, 3));
    let vote = format!("{base}vote");
    // No cookie, a forged one.
    let body = br#"{"step":1,"round":1,"choice":0}"#;
    assert_eq!(request(addr, "POST", &vote, None, body).status, 403);
    let forged = format!("d={:032x}", 12345u128);
    assert_eq!(
        request(addr, "POST", &vote, Some(&forged), body).status,
        403
    );
    // Not JSON, other fields, a choice that is none, another step or round.
    let me = Some(phone.cookie.as_str());
    assert_eq!(request(addr, "POST", &vote, me, b"choice=1").status, 400);
    let extra = br#"{"step":1,"round":1,"choice":0,"text":"<script>alert(1)</script>"}"#;
    assert_eq!(request(addr, "POST", &vote, me, extra).status, 400);
    assert_eq!(phone.vote(1, 1, 3), 400);
    assert_eq!(phone.vote(2, 1, 0), 409);
    assert_eq!(phone.vote(1, 2, 0), 409);
    // Too large a body.
    let big = vec![b' '; 10_000];
    assert_eq!(request(addr, "POST", &vote, me, &big).status, 413);
    // A vote, then a flood of them.
    assert_eq!(phone.vote(1, 1, 2), 204);
    let statuses: Vec<u16> = (0..20).map(|_| phone.vote(1, 1, 2)).collect();
    assert!(statuses.contains(&429), "{statuses:?}");
    // One device, one vote: the count is 1 however often it voted.
    let mut last = None;
    while let Ok(h) = room.heard.try_recv() {
        if let Heard::Tally { counts, .. } = h {
            last = Some(counts);
        }
    }
    assert_eq!(last, Some(vec![0, 0, 1]));
}

#[test]
fn a_phone_that_comes_back_picks_up_the_question_and_its_answer() {
    let room = room(Bounds::default());
    let phone = Phone::join(&room.url);
    let mut events = phone.listen();
    assert_eq!(events.next()["state"], "wait");
    room.show(phones::open(3, 1, 4));
    let open = events.until("open", Some(3));
    assert_eq!(open["en"]["choices"][3], "en choice 4");
    assert_eq!(open["mine"], serde_json::json!([null]));
    assert_eq!(phone.vote(3, 1, 1), 204);
    drop(events);
    // Back, on a new connection: the same question, its choice kept.
    let mut events = phone.listen();
    let open = events.next();
    assert_eq!(
        (open["state"].as_str(), open["step"].as_u64()),
        (Some("open"), Some(3))
    );
    assert_eq!(open["mine"], serde_json::json!([1]));
}

/// 200 phones on 127.0.0.1 answer every question (one of them in two
/// rounds): each vote counted exactly once, and the counts on the screen.
#[test]
fn two_hundred_phones_every_vote_counted_once_and_on_screen() {
    const PHONES: usize = 200;
    let bounds = Bounds {
        devices_per_address: PHONES,
        ..Bounds::default()
    };
    let room = room(bounds);
    let started = Instant::now();
    let mut app = class_app(Lang::En, (120, 40));
    // The questions the lesson asks, as the app shows them to the room.
    let rounds: Vec<(usize, u8, usize)> = {
        let q = app.question().unwrap();
        vec![(q.step, 1, q.choices.len()), (q.step, 2, q.choices.len())]
    };
    let phones: Vec<Phone> = (0..PHONES).map(|_| Phone::join(&room.url)).collect();
    let sent = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for (i, phone) in phones.iter().enumerate() {
            let rounds = &rounds;
            let sent = &sent;
            s.spawn(move || {
                let mut events = phone.listen();
                for &(step, round, n) in rounds {
                    loop {
                        let e = events.next();
                        if e["state"] == "open" && e["step"] == step && e["round"] == round {
                            break;
                        }
                    }
                    assert_eq!(phone.vote(step, round, (i + usize::from(round)) % n), 204);
                    sent.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
            });
        }
        // The teacher: the app's state to the room; the counts to the app.
        let mut link_present = 0;
        for (k, &(step, round, _)) in rounds.iter().enumerate() {
            if k > 0 {
                frames::apply(&mut app, Action::SecondRound);
            }
            room.show(class::showing(&app));
            assert!(
                matches!(class::showing(&app), Showing::Open { step: s, round: r, .. } if s == step && r == round)
            );
            loop {
                assert!(
                    started.elapsed() < PATIENCE * 3,
                    "the votes did not all arrive"
                );
                if let Ok(h) = room.heard.recv_timeout(PATIENCE) {
                    if let Heard::Present(n) = h {
                        link_present = link_present.max(n);
                    }
                    class::heard(&mut app, h);
                }
                if app.class.as_ref().unwrap().answered(step, round) == PHONES as u32 {
                    break;
                }
            }
        }
        assert_eq!(link_present, PHONES);
    });
    assert_eq!(
        sent.load(std::sync::atomic::Ordering::Relaxed),
        PHONES * rounds.len()
    );
    let class = app.class.as_ref().unwrap();
    for &(step, round, n) in &rounds {
        let mut expected = vec![0u32; n];
        for i in 0..PHONES {
            expected[(i + usize::from(round)) % n] += 1;
        }
        assert_eq!(class.tallies[&step][usize::from(round) - 1], expected);
    }
    let screen = text(&app);
    assert!(
        screen.contains("After discussion: 200 / 200 answered"),
        "{screen}"
    );
    eprintln!("200 phones, 2 rounds: {:?}", started.elapsed());
}
