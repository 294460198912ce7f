//! Predict, then reveal: the quiz in the app (keys, score, never asking
//! twice), its frames as snapshots, and the scenario's own questions as the
//! loader checks them.

mod common;

use agent_loop_sim::app::{Action, App};
use agent_loop_sim::frames;
use agent_loop_sim::keymap;
use agent_loop_sim::load::DEFAULT_SCENARIO;
use agent_loop_sim::quiz;
use agent_loop_sim::scenario::Lang;
use common::snapshot_settings as settings;
use ratatui::crossterm::event::{KeyCode, KeyEvent};

/// A lesson with the quiz on, asking before every step: these tests are
/// about the quiz's keys and panel, so the lesson's own few `quiz_steps`
/// are set aside (`every_lesson_asks_three_to_six_chosen_questions` tests
/// them).
fn quiz_app(name: &str, lang: Lang, (w, h): (u16, u16)) -> App {
    let mut loaded = agent_loop_sim::load::load(name).unwrap();
    if let Some(lesson) = &mut loaded.lesson {
        lesson.quiz_steps.clear();
    }
    let mut app = App::new(loaded, lang, agent_loop_sim::theme::Theme::DARK);
    frames::apply(&mut app, Action::Resize(w, h));
    frames::apply(&mut app, Action::ToggleQuiz);
    app
}

fn apply(app: &mut App, actions: &[Action]) {
    for a in actions {
        frames::apply(app, *a);
    }
}

fn text(app: &App) -> String {
    let (w, h) = app.size;
    frames::to_text(&frames::render(app, w, h))
}

/// The right and one wrong choice (1-based) of the open question.
fn right_and_wrong(app: &App) -> (usize, usize) {
    let q = app.question().expect("a question is open");
    let right = q.answer + 1;
    (right, if right == 1 { 2 } else { 1 })
}

#[test]
fn turning_the_quiz_on_asks_about_step_2_before_showing_it() {
    let app = quiz_app(DEFAULT_SCENARIO, Lang::En, (120, 40));
    assert_eq!(app.step, 0);
    assert_eq!(app.quiz.asking, Some(1));
    let screen = text(&app);
    assert!(screen.contains("Predict step 2"), "{screen}");
    assert!(
        screen.contains("[1] ") && screen.contains("[2] "),
        "{screen}"
    );
    assert!(screen.contains("step 1/8"), "{screen}");
    assert!(screen.contains("score 0/0"), "{screen}");
}

#[test]
fn a_digit_reveals_the_step_and_scores_the_guess() {
    let mut app = quiz_app(DEFAULT_SCENARIO, Lang::En, (120, 40));
    let (right, _) = right_and_wrong(&app);
    apply(&mut app, &[Action::Answer(right)]);
    assert_eq!(app.step, 1, "the answer shows step 2");
    assert_eq!(app.quiz.asking, None);
    assert_eq!(app.quiz.score(), (1, 1));
    let screen = text(&app);
    assert!(screen.contains("✓ Right"), "{screen}");
    assert!(screen.contains("score 1/1"), "{screen}");

    // → asks about step 3; a wrong answer shows step 3 and says so.
    apply(&mut app, &[Action::Next]);
    assert_eq!((app.step, app.quiz.asking), (1, Some(2)));
    let (_, wrong3) = right_and_wrong(&app);
    apply(&mut app, &[Action::Answer(wrong3)]);
    assert_eq!(app.step, 2);
    assert_eq!(app.quiz.score(), (1, 2));
    let screen = text(&app);
    assert!(screen.contains("✗ Not this time"), "{screen}");
    assert!(screen.contains("score 1/2"), "{screen}");
}

#[test]
fn keys_in_the_table_answer_while_a_question_is_open_and_jump_otherwise() {
    let press = |c| KeyEvent::from(KeyCode::Char(c));
    assert_eq!(
        keymap::action_in(&press('2'), keymap::Mode::Asking { choices: 4 }),
        Some(Action::Answer(2))
    );
    assert_eq!(
        keymap::action_in(&press('2'), keymap::Mode::Lesson { quiz: true }),
        Some(Action::Jump(2))
    );
    assert_eq!(
        keymap::action_in(&press('7'), keymap::Mode::Asking { choices: 4 }),
        None
    );
    assert_eq!(keymap::action_for(&press('p')), Some(Action::ToggleQuiz));
    // The footer with a question open offers only what works then.
    let hints = keymap::quiz_hints(Lang::En, Some(4));
    assert_eq!(hints[0], ("1–4".to_string(), "answer"));
    // Three choices: the footer names the three digits that answer.
    let three = keymap::quiz_hints(Lang::En, Some(3));
    assert_eq!(three[0], ("1–3".to_string(), "answer"));
    // On screen: "Who acts in step 2?" has three choices.
    let app = quiz_app(DEFAULT_SCENARIO, Lang::En, (80, 24));
    assert_eq!(app.question().unwrap().choices.len(), 3);
    let footer = text(&app).lines().nth(22).unwrap().to_string();
    assert!(footer.starts_with(" 1–3 answer  Esc close"), "{footer}");
    assert!(
        hints.iter().all(|(k, _)| k != "→" && k != "Space"),
        "{hints:?}"
    );
    // And the quiz keys stay out of the footer when the quiz is off.
    assert!(keymap::footer_hints(Lang::En).iter().all(|(k, _)| k != "p"));
}

#[test]
fn going_back_and_forth_never_asks_again() {
    let mut app = quiz_app(DEFAULT_SCENARIO, Lang::En, (120, 40));
    let (right, _) = right_and_wrong(&app);
    apply(&mut app, &[Action::Answer(right)]);
    apply(&mut app, &[Action::Next]);
    let (_, wrong) = right_and_wrong(&app);
    apply(&mut app, &[Action::Answer(wrong)]);
    assert_eq!(app.step, 2);
    // ← to step 2 and step 1, → back to 3: no question on the way.
    apply(&mut app, &[Action::Prev, Action::Prev]);
    assert_eq!((app.step, app.quiz.asking), (0, None));
    apply(&mut app, &[Action::Next]);
    assert_eq!((app.step, app.quiz.asking), (1, None));
    // The verdict is still there when the step is seen again.
    assert!(text(&app).contains("✓ Right"));
    apply(&mut app, &[Action::Next]);
    assert_eq!((app.step, app.quiz.asking), (2, None));
    assert_eq!(app.quiz.score(), (1, 2));
    // The next new step is asked about.
    apply(&mut app, &[Action::Next]);
    assert_eq!((app.step, app.quiz.asking), (2, Some(3)));
}

#[test]
fn an_open_question_holds_next_and_play_and_esc_closes_it_unrevealed() {
    let mut app = quiz_app(DEFAULT_SCENARIO, Lang::En, (120, 40));
    apply(
        &mut app,
        &[Action::Next, Action::TogglePlay, Action::Jump(5)],
    );
    assert_eq!((app.step, app.quiz.asking), (0, Some(1)));
    assert!(!app.playing);
    assert!(text(&app).contains("answer first: press 1–"));
    // A digit with no choice only says what to press.
    apply(&mut app, &[Action::Answer(4)]);
    assert_eq!(app.quiz.asking, Some(1));
    // Esc closes the question, stays on step 1, and does not quit.
    apply(&mut app, &[Action::Back]);
    assert_eq!((app.step, app.quiz.asking, app.quit), (0, None, false));
    assert_eq!(app.quiz.score(), (0, 0));
    // → asks again: it was never answered.
    apply(&mut app, &[Action::Next]);
    assert_eq!(app.quiz.asking, Some(1));
    // p turns the quiz off: the question goes, → moves on as usual.
    apply(&mut app, &[Action::ToggleQuiz, Action::Next]);
    assert_eq!((app.step, app.quiz.asking), (1, None));
}

#[test]
fn play_stops_at_each_unanswered_question() {
    let mut app = quiz_app(DEFAULT_SCENARIO, Lang::En, (120, 40));
    apply(&mut app, &[Action::Back]);
    apply(&mut app, &[Action::TogglePlay]);
    assert!(app.playing);
    apply(&mut app, &[Action::Tick]);
    assert_eq!(
        (app.step, app.quiz.asking, app.playing),
        (0, Some(1), false)
    );
    let (right, _) = right_and_wrong(&app);
    apply(
        &mut app,
        &[Action::Answer(right), Action::TogglePlay, Action::Tick],
    );
    assert_eq!(
        (app.step, app.quiz.asking, app.playing),
        (1, Some(2), false)
    );
}

#[test]
fn a_jump_shows_the_steps_it_passes_unscored() {
    let mut app = quiz_app(DEFAULT_SCENARIO, Lang::En, (120, 40));
    apply(&mut app, &[Action::Back, Action::Jump(5)]);
    assert_eq!((app.step, app.quiz.asking), (4, None));
    assert!(text(&app).contains("Not asked (reached by a jump"));
    apply(&mut app, &[Action::Prev, Action::Next]);
    assert_eq!((app.step, app.quiz.asking), (4, None), "step 5 was shown");
    apply(&mut app, &[Action::Next]);
    assert_eq!(app.quiz.asking, Some(5), "step 6 was not");
    apply(&mut app, &[Action::Last]);
    assert_eq!((app.step, app.quiz.asking), (7, None));
    assert_eq!(app.quiz.score(), (0, 0));
}

#[test]
fn the_language_switch_keeps_the_question_and_the_answers() {
    let mut app = quiz_app(DEFAULT_SCENARIO, Lang::En, (120, 40));
    let before = app.question().unwrap();
    apply(&mut app, &[Action::SwitchLanguage]);
    let after = app.question().unwrap();
    assert_eq!((before.answer, before.kind), (after.answer, after.kind));
    assert!(text(&app).contains("预测第 2 步"));
    apply(&mut app, &[Action::Answer(after.answer + 1)]);
    assert!(text(&app).contains("得分 1/1"));
}

/// Snapshots of a question open, after a right and after a wrong answer.
#[test]
fn quiz_frames() {
    for lang in Lang::ALL {
        for (w, h) in [(120, 40), (80, 24)] {
            let snap = |app: &App, what: &str| {
                let name = format!("{DEFAULT_SCENARIO}__{w}x{h}__{}__{what}", lang.code());
                settings().bind(|| insta::assert_snapshot!(name, text(app)));
            };
            let open = quiz_app(DEFAULT_SCENARIO, lang, (w, h));
            snap(&open, "quiz-question");
            let (right, wrong) = right_and_wrong(&open);
            let mut app = open.clone();
            apply(&mut app, &[Action::Answer(right)]);
            snap(&app, "quiz-right");
            let mut app = open.clone();
            apply(&mut app, &[Action::Answer(wrong)]);
            snap(&app, "quiz-wrong");
        }
    }
}

/// Every question of every shipped scenario fits both screens: each choice
/// is on screen whole (its words are not cut) in both languages.
#[test]
fn every_question_shows_every_choice_at_both_sizes() {
    for (name, _) in agent_loop_sim::load::CATALOG {
        for lang in Lang::ALL {
            for size in [(120, 40), (80, 24)] {
                let mut app = quiz_app(name, lang, size);
                let mut asked = 0;
                while app.step < app.last() {
                    // A user's answer to the host is never asked about.
                    let Some(q) = app.question() else {
                        apply(&mut app, &[Action::Next]);
                        continue;
                    };
                    asked += 1;
                    let screen = text(&app);
                    // A word too long for a line is broken with a mark.
                    let panel = quiz_panel(&app).replace(agent_loop_sim::view::text::BROKEN, "");
                    let flat: String = panel.split_whitespace().collect();
                    for (i, choice) in q.choices.iter().enumerate() {
                        let want: String = choice.split_whitespace().collect();
                        assert!(
                            flat.contains(&format!("[{}]{want}", i + 1)),
                            "{name} {lang:?} {size:?} step {}: [{}] {choice}\n{screen}",
                            q.step + 1,
                            i + 1
                        );
                    }
                    apply(&mut app, &[Action::Answer(q.answer + 1), Action::Next]);
                }
                assert_eq!(app.quiz.score(), (asked, asked), "{name}");
                assert!(asked + 3 >= app.last(), "{name}: {asked} of {}", app.last());
            }
        }
    }
}

/// The text inside the panel that holds the open question, row by row.
fn quiz_panel(app: &App) -> String {
    let (w, h) = app.size;
    let buf = frames::render(app, w, h);
    let title = match app.lang {
        Lang::Zh => "预测第",
        Lang::En | Lang::Pseudo => "Predict step",
    };
    let text = frames::to_text(&buf);
    let (y, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains(title))
        .expect("the question's panel");
    let col = unicode_width::UnicodeWidthStr::width(&line[..line.find(title).unwrap()]) as u16;
    let y = y as u16;
    let corner = |c: &str| ["╭", "┏", "╮", "┓"].contains(&c);
    let left = (0..col)
        .rev()
        .find(|x| corner(buf[(*x, y)].symbol()))
        .unwrap();
    let right = (col..w).find(|x| corner(buf[(*x, y)].symbol())).unwrap();
    let mut out = String::new();
    for row in y + 1..h {
        if ["╰", "┗"].contains(&buf[(left, row)].symbol()) {
            break;
        }
        let mut x = left + 1;
        while x < right {
            let symbol = buf[(x, row)].symbol();
            out.push_str(symbol);
            x += unicode_width::UnicodeWidthStr::width(symbol).max(1) as u16;
        }
        out.push('\n');
    }
    out
}

const GOOD: &str = r#"{
  "name": "quiz-demo",
  "title": {"zh": "测验", "en": "Quiz"},
  "task": {"zh": "读 a.txt", "en": "read a.txt"},
  "about": {"why": {"zh": "x", "en": "x"}, "how": {"zh": "x", "en": "x"},
            "cost": {"zh": "x", "en": "x"}, "check": {"zh": "x", "en": "x"}},
  "files": {"a.txt": "hello"},
  "tools": [{"name": "read_file", "description": {"zh": "读", "en": "read"}, "params": ["path"]}],
  "budget": 3,
  "model": [
    {"when": {"has_result": {"tool": "read_file"}}, "say": {"zh": "hello", "en": "hello"}},
    {"calls": [{"tool": "read_file", "args": {"path": "a.txt"}}]}
  ],
  "expect": "completed",
  "quiz": QUIZ
}"#;

fn with_quiz(quiz: &str) -> String {
    GOOD.replace("QUIZ", quiz)
}

#[test]
fn a_scenario_adds_its_own_question() {
    let json = with_quiz(
        r#"[{"step": 3, "question": {"zh": "模型会调用哪个工具？", "en": "Which tool will the model call?"},
             "choices": [{"zh": "write_file", "en": "write_file"}, {"zh": "read_file", "en": "read_file"}],
             "answer": 2, "why": {"zh": "只提供了 read_file。", "en": "Only read_file is offered."}}]"#,
    );
    let path = common::scenario_file("quiz-good.json", &json);
    let out = common::run(&["check", &path]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let loaded = agent_loop_sim::load::load(&path).unwrap();
    let q = quiz::question(
        loaded.trace(Lang::En),
        &loaded.lesson.as_ref().unwrap().quiz,
        2,
    )
    .unwrap();
    assert_eq!(q.kind, quiz::Kind::Author);
    assert_eq!(q.choices[q.answer], "read_file");
    // Answered in the app, the author's reason is shown with the step's.
    let mut app = App::new(loaded, Lang::En, agent_loop_sim::theme::Theme::DARK);
    apply(
        &mut app,
        &[Action::Resize(120, 40), Action::Next, Action::ToggleQuiz],
    );
    assert_eq!(app.quiz.asking, Some(2));
    apply(&mut app, &[Action::Answer(2)]);
    let screen = text(&app);
    assert!(screen.contains("✓ Right: [2] read_file"), "{screen}");
    assert!(screen.contains("Only read_file is offered."), "{screen}");
}

#[test]
fn a_bad_quiz_field_names_the_file_and_the_place() {
    let q = |step: &str, choices: &str, answer: &str| {
        format!(
            r#"[{{"step": {step}, "question": {{"zh": "问", "en": "Q"}}, "choices": {choices}, "answer": {answer}}}]"#
        )
    };
    let two = r#"[{"zh": "甲", "en": "A"}, {"zh": "乙", "en": "B"}]"#;
    let cases = [
        (q("1", two, "1"), "quiz[0].step", "from 2 to 8"),
        (q("9", two, "1"), "quiz[0].step", "from 2 to 8"),
        (q("2", two, "3"), "quiz[0].answer", "from 1 to 2"),
        (q("2", two, "0"), "quiz[0].answer", "from 1 to 2"),
        (
            q("2", r#"[{"zh": "甲", "en": "A"}]"#, "1"),
            "quiz[0].choices",
            "2 to 4 choices, got 1",
        ),
        (
            q("2", r#"[{"zh": "甲", "en": "A"}, {"zh": "乙", "en": "A"}]"#, "1"),
            "quiz[0].choices[1].en",
            "distinct",
        ),
        (
            q("2", r#"[{"zh": "甲", "en": "A"}, {"zh": "", "en": "B"}]"#, "1"),
            "quiz[0].choices[1].zh",
            "non-empty",
        ),
        (q("2", two, "\"2\""), "quiz[0].answer", "expected"),
        (
            r#"[{"step": 2, "question": {"zh": "问", "en": "Q"}, "choices": [], "answer": 1, "hint": 1}]"#
                .to_string(),
            "quiz[0]",
            "hint",
        ),
    ];
    for (i, (quiz, place, words)) in cases.iter().enumerate() {
        let path = common::scenario_file(&format!("quiz-bad-{i}.json"), &with_quiz(quiz));
        let out = common::run(&["check", &path]);
        assert_eq!(out.code, 2, "{quiz}: {}", out.stderr);
        let line = out.stderr.lines().next().unwrap_or("");
        assert!(line.contains(&path), "{line}");
        assert!(line.contains(place), "{quiz}: {line}");
        assert!(line.contains(words), "{quiz}: {line}");
    }
    // Two questions for one step.
    let two_q = format!(
        "[{}, {}]",
        q("2", two, "1").trim_matches(['[', ']']),
        q("2", two, "2").trim_matches(['[', ']'])
    );
    let path = common::scenario_file("quiz-bad-twice.json", &with_quiz(&two_q));
    let out = common::run(&["check", &path]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("quiz[1].step") && out.stderr.contains("already has a question"),
        "{}",
        out.stderr
    );
}

/// Every faulty question is reported, not only the first; and the run is
/// still printed by `transcript` and `trace`, with the good questions, the
/// faults on stderr and exit code 2 (issue 35 item 15).
#[test]
fn every_quiz_fault_is_reported_and_the_rest_is_still_printed() {
    let good = r#"{"step": 3, "question": {"zh": "模型会调用哪个工具？", "en": "Which tool will the model call?"},
         "choices": [{"zh": "write_file", "en": "write_file"}, {"zh": "read_file", "en": "read_file"}], "answer": 2}"#;
    let late = r#"{"step": 30, "question": {"zh": "问", "en": "Q"},
         "choices": [{"zh": "甲", "en": "A"}, {"zh": "乙", "en": "B"}], "answer": 1}"#;
    let wrong = r#"{"step": 4, "question": {"zh": "问", "en": "Q"},
         "choices": [{"zh": "甲", "en": "A"}, {"zh": "乙", "en": "B"}], "answer": 5}"#;
    let path = common::scenario_file(
        "quiz-bad-several.json",
        &with_quiz(&format!("[{good}, {late}, {wrong}]")),
    );
    let out = common::run(&["check", &path]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("quiz[1].step"), "{}", out.stderr);
    assert!(out.stderr.contains("quiz[2].answer"), "{}", out.stderr);
    let out = common::run(&["transcript", "--quiz", &path, "--lang", "en"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("quiz[1].step"), "{}", out.stderr);
    assert!(out.stderr.contains("quiz[2].answer"), "{}", out.stderr);
    assert!(out.stdout.contains("Step 8/8"), "{}", out.stdout);
    assert!(
        out.stdout.contains("Which tool will the model call?"),
        "{}",
        out.stdout
    );
    let out = common::run(&["trace", &path, "--lang", "en"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stdout.contains("\"steps\""), "{}", out.stdout);
}

/// At the narrowest screen the score and the step counter both stay whole.
#[test]
fn the_score_stays_on_a_narrow_screen() {
    for lang in Lang::ALL {
        let mut app = quiz_app("patch-and-test", lang, (60, 18));
        apply(&mut app, &[Action::Back, Action::Jump(1), Action::Jump(2)]);
        assert_eq!(app.step, 11);
        apply(&mut app, &[Action::FocusPrev, Action::DwellLonger]);
        for _ in 0..3 {
            let q = app.question().unwrap_or_else(|| {
                apply(&mut app, &[Action::Next]);
                app.question().unwrap()
            });
            apply(&mut app, &[Action::Answer(q.answer + 1)]);
        }
        let screen = text(&app);
        let status = screen.lines().last().unwrap();
        let score = match lang {
            Lang::Zh => "得分 3/3",
            Lang::En | Lang::Pseudo => "score 3/3",
        };
        assert!(status.contains(score), "{status}");
        assert!(status.trim_end().ends_with("15/22"), "{status}");
    }
}

/// At 80×24 the question shares its place with the context and the table:
/// it shows when it opens, and Tab still reaches the context meanwhile.
#[test]
fn at_80x24_the_question_shows_and_tab_still_reaches_the_context() {
    let mut app = quiz_app(DEFAULT_SCENARIO, Lang::En, (80, 24));
    apply(&mut app, &[Action::Back, Action::FocusNext]);
    assert!(text(&app).contains("[Context]"));
    apply(&mut app, &[Action::Next]);
    let screen = text(&app);
    assert!(screen.contains("[Predict step 2]"), "{screen}");
    assert!(screen.contains("Tab panel"), "{screen}");
    apply(&mut app, &[Action::FocusNext, Action::FocusNext]);
    let screen = text(&app);
    assert!(screen.contains("▶ [Context]"), "{screen}");
    assert!(
        screen.contains("Predict step 2"),
        "the tab is still named: {screen}"
    );
    assert_eq!(app.quiz.asking, Some(1));
}

/// What a teacher checks: with a question open, no key under the help,
/// about or picker overlay answers it, moves the lesson or changes the
/// score; the keys are read as the event loop reads them, in the app's mode.
#[test]
fn keys_under_an_overlay_neither_answer_nor_move_the_lesson() {
    use agent_loop_sim::app::Overlay;
    let presses = [
        KeyCode::Char('1'),
        KeyCode::Char('2'),
        KeyCode::Char('3'),
        KeyCode::Char('4'),
        KeyCode::Char('7'),
        KeyCode::PageDown,
        KeyCode::Right,
        KeyCode::Left,
        KeyCode::Char(' '),
        KeyCode::End,
        KeyCode::Char('l'),
    ];
    for (open, overlay) in [
        (Action::ToggleHelp, Overlay::Help),
        (Action::ToggleAbout, Overlay::About),
        (Action::TogglePicker, Overlay::Picker),
    ] {
        let mut app = quiz_app(DEFAULT_SCENARIO, Lang::En, (120, 40));
        let (right, _) = right_and_wrong(&app);
        apply(&mut app, &[Action::Answer(right), Action::Next]);
        let before = (app.step, app.quiz.asking, app.quiz.score());
        assert_eq!(before, (1, Some(2), (1, 1)));
        apply(&mut app, &[open]);
        assert_eq!(app.overlay, Some(overlay));
        for code in presses {
            if let Some(action) = keymap::action_in(&KeyEvent::from(code), app.mode()) {
                apply(&mut app, &[action]);
            }
            apply(&mut app, &[Action::Tick]);
            assert_eq!(app.overlay, Some(overlay), "{code:?} closed {overlay:?}");
            assert_eq!(
                (app.step, app.quiz.asking, app.quiz.score()),
                before,
                "{code:?} under {overlay:?}"
            );
        }
        // Esc closes the overlay; the question is still there to answer.
        apply(&mut app, &[Action::Back]);
        assert_eq!((app.overlay, app.quiz.asking), (None, Some(2)));
        assert!(!app.quit);
    }
}

/// In the picker the cursor starts on the open lesson, and Enter there
/// goes back to it as it was: a stray Enter wipes no score.
#[test]
fn enter_on_the_open_lesson_in_the_picker_keeps_the_step_and_the_score() {
    let mut app = quiz_app(DEFAULT_SCENARIO, Lang::En, (120, 40));
    let (right, _) = right_and_wrong(&app);
    apply(&mut app, &[Action::Answer(right)]);
    let lessons = agent_loop_sim::picker::gather(
        agent_loop_sim::picker::Source::Shipped(DEFAULT_SCENARIO),
        app.loaded.clone(),
        &[],
    );
    let mut app = app.with_lessons(agent_loop_sim::picker::Picker::new(
        lessons.0,
        Some(lessons.1),
    ));
    let before = (app.step, app.quiz.score(), app.loaded.card.name.clone());
    apply(&mut app, &[Action::TogglePicker]);
    let enter = keymap::action_in(&KeyEvent::from(KeyCode::Enter), app.mode());
    assert_eq!(enter, Some(Action::Open));
    apply(&mut app, &[Action::Open]);
    assert_eq!(app.overlay, None);
    assert_eq!(
        (app.step, app.quiz.score(), app.loaded.card.name.clone()),
        before
    );
}

/// Two runs side by side draw no question, so none is asked or scored;
/// Esc goes back to one run (it does not quit), and the quiz asks again.
#[test]
fn a_comparison_asks_nothing_and_esc_goes_back_to_one_run() {
    let mut app = quiz_app("harness-drops-results", Lang::En, (120, 40));
    assert!(app.quiz.asking.is_some());
    // `c` with a question open is held: two runs would step past it.
    apply(&mut app, &[Action::ToggleCompare]);
    assert!(app.comparing().is_none() && app.quiz.asking.is_some());
    assert!(text(&app).contains("answer first"));
    apply(&mut app, &[Action::Back, Action::ToggleCompare]);
    assert!(app.comparing().is_some());
    assert_eq!(app.quiz.asking, None);
    for code in [KeyCode::Char('1'), KeyCode::Char('2'), KeyCode::Right] {
        if let Some(action) = keymap::action_in(&KeyEvent::from(code), app.mode()) {
            apply(&mut app, &[action]);
        }
        assert_eq!((app.quiz.asking, app.quiz.score()), (None, (0, 0)));
    }
    assert!(!text(&app).contains("Predict step"));
    let esc = keymap::action_in(&KeyEvent::from(KeyCode::Esc), app.mode()).unwrap();
    apply(&mut app, &[esc]);
    assert!(!app.quit, "Esc in a comparison quit the program");
    assert!(app.comparing().is_none());
    apply(&mut app, &[Action::Next]);
    assert!(app.quiz.asking.is_some(), "one run again: the quiz asks");
    // --quiz --compare: the same, from the start.
    let other = agent_loop_sim::load::load("read-config-timeout").unwrap();
    let app = quiz_app(DEFAULT_SCENARIO, Lang::En, (120, 40)).with_comparison(other);
    assert_eq!(app.quiz.asking, None);
}

/// The footer of each mode shows that mode's keys: the picker's shows
/// no "→ next", an overlay's no stepping keys.
#[test]
fn each_mode_has_its_own_footer() {
    let mut app = quiz_app(DEFAULT_SCENARIO, Lang::En, (120, 40));
    apply(&mut app, &[Action::Back, Action::TogglePicker]);
    let footer = |app: &App| text(app).lines().nth(38).unwrap().to_string();
    let picker = footer(&app);
    assert!(
        picker.contains("↑↓ choose") && picker.contains("Enter open"),
        "{picker}"
    );
    assert!(
        !picker.contains("→ next") && !picker.contains("← prev"),
        "{picker}"
    );
    apply(&mut app, &[Action::Back, Action::ToggleHelp]);
    let help = footer(&app);
    assert!(
        help.contains("Esc close") && !help.contains("→ next"),
        "{help}"
    );
}

/// "What has been appended since call #1?" is not answered by the screen:
/// at 120×40 the context panel beside the question would list exactly
/// those messages; it is covered until the question is answered.
#[test]
fn the_context_panel_does_not_show_the_answer_to_what_was_appended() {
    let mut app = quiz_app(DEFAULT_SCENARIO, Lang::En, (120, 40));
    apply(&mut app, &[Action::Back, Action::GoTo(5), Action::Next]);
    let q = app.question().expect("a question about step 7");
    assert_eq!(q.kind, quiz::Kind::NewInContext);
    let screen = text(&app);
    assert!(screen.contains("Hidden until you answer"), "{screen}");
    assert!(!screen.contains("Appended since"), "{screen}");
    // Answered, the step is shown, context and all.
    apply(&mut app, &[Action::Answer(q.answer + 1)]);
    assert!(!text(&app).contains("Hidden until you answer"));
}

/// The author marks the steps worth a pause (`quiz_steps`, narration
/// keys): the quiz asks about those only; a key that names no step is a
/// fault with its place.
#[test]
fn quiz_steps_limit_the_quiz_to_the_marked_steps() {
    let mut json = common::shipped_json("read-config-timeout");
    json["quiz_steps"] = serde_json::json!(["model_call.2", "reply.2"]);
    let loaded =
        agent_loop_sim::load::prepare("<quiz_steps>", &serde_json::to_vec(&json).unwrap()).unwrap();
    assert!(loaded.faults.is_empty(), "{:?}", loaded.faults);
    let trace = loaded.trace(Lang::En);
    let asked: Vec<usize> = (0..trace.len())
        .filter(|&i| quiz::asked(&loaded, trace, i).is_some())
        .map(|i| i + 1)
        .collect();
    assert_eq!(asked, [7, 8]);
    // In the simulator: → shows steps 2–6 unasked, then asks about step 7.
    let mut app = App::new(loaded, Lang::En, agent_loop_sim::theme::Theme::DARK);
    apply(&mut app, &[Action::ToggleQuiz]);
    assert_eq!(app.quiz.asking, None);
    for _ in 0..6 {
        apply(&mut app, &[Action::Next]);
    }
    assert_eq!((app.step, app.quiz.asking), (5, Some(6)));
    // A key for no step of the run.
    json["quiz_steps"] = serde_json::json!(["reply.2", "reply.9"]);
    let faults = common::faults_of("q.json", &json);
    assert!(
        faults
            .iter()
            .any(|f| f.contains("quiz_steps[1]") && f.contains("model call #9 gets no reply")),
        "{faults:?}"
    );
}

/// At 80×24 a digit typed while another panel is tabbed over the question
/// does not answer it unseen: it brings the question back.
#[test]
fn at_80x24_a_digit_answers_only_a_question_on_screen() {
    let mut app = quiz_app(DEFAULT_SCENARIO, Lang::En, (80, 24));
    apply(&mut app, &[Action::FocusNext, Action::FocusNext]);
    assert!(!text(&app).contains("▶ [Predict step 2]"));
    let (right, _) = right_and_wrong(&app);
    apply(&mut app, &[Action::Answer(right)]);
    assert_eq!((app.step, app.quiz.asking), (0, Some(1)), "answered unseen");
    let screen = text(&app);
    assert!(screen.contains("▶ [Predict step 2]"), "{screen}");
    assert!(screen.contains("answer first"), "{screen}");
    apply(&mut app, &[Action::Answer(right)]);
    assert_eq!((app.step, app.quiz.score()), (1, (1, 1)));
}

/// `1 1` typed for step 11 while a question is open: the first digit
/// answers, the second is held (not a jump to step 1) and says why.
#[test]
fn a_digit_right_after_an_answer_is_not_a_jump() {
    let mut app = quiz_app("patch-and-test", Lang::En, (120, 40));
    apply(&mut app, &[Action::Answer(1), Action::Jump(1)]);
    assert_eq!(app.step, 1, "the second digit jumped");
    let screen = text(&app);
    assert!(screen.contains("did not jump"), "{screen}");
    // Another key in between: digits jump again.
    apply(
        &mut app,
        &[Action::Next, Action::Back, Action::Jump(1), Action::Jump(1)],
    );
    assert_eq!(app.step, 10);
}

/// Every shipped lesson asks a few chosen questions (3 to 6, its
/// `quiz_steps`), each of which is asked; none asks what a user will answer.
#[test]
fn every_lesson_asks_three_to_six_chosen_questions() {
    for (name, _) in agent_loop_sim::load::CATALOG {
        let loaded = agent_loop_sim::load::load(name).unwrap();
        for lang in Lang::ALL {
            let trace = loaded.trace(lang);
            let asked: Vec<usize> = (0..trace.len())
                .filter(|&i| quiz::asked(&loaded, trace, i).is_some())
                .collect();
            assert!(
                (3..=6).contains(&asked.len()),
                "{name}: {} questions",
                asked.len()
            );
            let steps = &loaded.lesson.as_ref().unwrap().quiz_steps;
            assert_eq!(
                asked.len(),
                steps.len(),
                "{name}: a chosen step asks nothing"
            );
            for i in asked {
                let user = matches!(
                    trace.steps[i].kind,
                    agent_loop_sim::trace::StepKind::UserDecides { .. }
                );
                assert!(
                    !user,
                    "{name}: asks what the user will answer at step {}",
                    i + 1
                );
            }
        }
    }
}

/// `--quiz-steps` asks before the steps it names instead of the lesson's
/// own; a key that names no step is refused with its place, exit 2.
#[test]
fn quiz_steps_on_the_command_line_override_the_lessons() {
    let out = common::run(&[
        "transcript",
        "read-config-timeout",
        "--quiz",
        "--quiz-steps",
        "4,reply.2",
        "--lang",
        "en",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = &out.stdout;
    let asked: Vec<&str> = text.lines().filter(|l| l.starts_with("Quiz:")).collect();
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert!(asked[0].contains("Step 4"), "{asked:?}");
    let out = common::run(&[
        "transcript",
        "read-config-timeout",
        "--quiz",
        "--quiz-steps",
        "99",
    ]);
    assert_eq!(out.code, 2);
    let err = &out.stderr;
    assert!(
        err.contains("--quiz-steps") && err.contains("\"99\""),
        "{err}"
    );
    let out = common::run(&["transcript", "read-config-timeout", "--quiz-steps", "4"]);
    assert_eq!(out.code, 2);
}

/// An author's question about a step `quiz_steps` leaves out would never
/// be asked: `check` says so, with the question's place, instead of "ok".
#[test]
fn a_question_outside_quiz_steps_is_a_fault() {
    let mut json = common::shipped_json("read-config-timeout");
    json["quiz_steps"] = serde_json::json!(["3", "7"]);
    json["quiz"] = serde_json::json!([{
        "step": 5,
        "question": { "zh": "谁运行它？", "en": "Who runs it?" },
        "choices": [ { "zh": "工具", "en": "the tool" }, { "zh": "模型", "en": "the model" } ],
        "answer": 1
    }]);
    let faults = common::faults_of("q.json", &json);
    assert!(
        faults
            .iter()
            .any(|f| f.contains("quiz[0].step") && f.contains("not among quiz_steps")),
        "{faults:?}"
    );
    json["quiz_steps"] = serde_json::json!(["3", "5", "7"]);
    assert!(common::faults_of("q.json", &json).is_empty());
}

/// A step the lesson does not ask about says so, not "reached by a jump".
#[test]
fn a_step_the_lesson_does_not_ask_about_says_so() {
    let mut app = common::app(DEFAULT_SCENARIO, Lang::En);
    apply(&mut app, &[Action::Resize(120, 40), Action::ToggleQuiz]);
    // The default lesson asks first about step 3: step 2 is not asked.
    apply(&mut app, &[Action::Next]);
    assert_eq!((app.step, app.quiz.asking), (1, None));
    assert!(text(&app).contains("No question here"));
    apply(&mut app, &[Action::Next]);
    assert_eq!((app.step, app.quiz.asking), (1, Some(2)));
    let (right, _) = right_and_wrong(&app);
    apply(&mut app, &[Action::Answer(right), Action::Next]);
    assert_eq!((app.step, app.quiz.asking), (3, None));
    let screen = text(&app);
    assert!(screen.contains("No question here"), "{screen}");
    assert!(!screen.contains("reached by a jump"), "{screen}");
}

/// Whether a reply's calls run turns on what the user answers when the
/// host asks about one (and on the host's check of an edit): no generated
/// key predicts it. Here the user edits patch_file's path out of the
/// workspace, the host refuses it, and the reply is not asked about.
#[test]
fn no_key_predicts_what_the_user_will_answer() {
    let mut json = common::shipped_json("approve-side-effects");
    let tools = json["tools"].as_array_mut().unwrap();
    let patch = tools
        .iter_mut()
        .find(|t| t["name"] == "patch_file")
        .unwrap();
    patch["approvals"][0]["edit"] = serde_json::json!({ "path": "../etc/passwd" });
    let loaded = agent_loop_sim::load::prepare_all("<edit>", json.to_string().as_bytes())
        .unwrap_or_else(|faults| panic!("{faults:?}"));
    for lang in Lang::ALL {
        let trace = loaded.trace(lang);
        let mut replies = 0;
        for index in 1..trace.len() {
            let agent_loop_sim::trace::StepKind::Proposes { calls, .. } = &trace.steps[index].kind
            else {
                continue;
            };
            let asks_user = calls
                .iter()
                .any(|c| trace.call(c).is_some_and(|c| c.decision.is_some()));
            let q = quiz::question(trace, &[], index);
            let goes_on = q.as_ref().is_some_and(|q| q.kind == quiz::Kind::LoopGoesOn);
            if asks_user {
                assert!(!goes_on, "step {}: {q:?}", index + 1);
                replies += 1;
            }
        }
        // The lesson has such replies (write_file, patch_file, publish).
        assert!(replies >= 3, "{lang:?}");
    }
}
