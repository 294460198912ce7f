//! Self-study and a teacher's plan: where each lesson was left is kept,
//! shown in the picker and resumed (issue 35 item 14); the lessons named
//! with `--lesson`, in order, are today's plan, and the last step of one
//! offers the next (item 10).

mod common;

use agent_loop_sim::app::{Action, App};
use agent_loop_sim::frames;
use agent_loop_sim::picker::{self, Picker, Source};
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::study::{self, Kept, Progress, Study};

/// `name` opened with the picker as the binary gathers it, `extra` being
/// the `--lesson` list, and today's plan made from it.
fn opened(name: &'static str, extra: &[&str]) -> App {
    let app = common::app(name, Lang::En);
    let extra: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
    let open = Source::Shipped(name);
    let (lessons, current) = picker::gather(open.clone(), app.loaded.clone(), &extra);
    let plan = picker::plan(&lessons, &open, &extra);
    app.with_lessons(Picker::new(lessons, Some(current)).with_plan(plan))
}

fn kept(app: &App, lessons: &[(&str, Progress)]) -> Kept {
    let mut study = Study::default();
    for (name, p) in lessons {
        study.lessons.insert(name.to_string(), *p);
    }
    Kept {
        study,
        keys: app
            .picker
            .lessons
            .iter()
            .map(|l| study::key(&l.source))
            .collect(),
        path: std::path::PathBuf::from("/nonexistent/progress.json"),
    }
}

fn text(app: &App, (w, h): (u16, u16)) -> String {
    frames::to_text(&frames::render(app, w, h))
}

#[test]
fn a_lesson_left_midway_opens_where_it_was_left_and_one_read_to_the_end_from_step_1() {
    let app = opened("read-config-timeout", &[]);
    let midway = Progress {
        step: 5,
        steps: 8,
        quiz: None,
    };
    let k = kept(&app, &[("read-config-timeout", midway)]);
    assert_eq!(app.clone().with_study(k).step, 4);
    let done = Progress { step: 8, ..midway };
    let k = kept(&app, &[("read-config-timeout", done)]);
    assert_eq!(app.clone().with_study(k).step, 0);
    // From the picker too: wrong-path-first was left at step 3.
    let left = Progress {
        step: 3,
        steps: 18,
        quiz: None,
    };
    let mut app = app
        .clone()
        .with_study(kept(&app, &[("wrong-path-first", left)]));
    let to = app
        .picker
        .lessons
        .iter()
        .position(|l| l.source == Source::Shipped("wrong-path-first"))
        .unwrap();
    frames::apply(&mut app, Action::TogglePicker);
    for _ in 0..to {
        frames::apply(&mut app, Action::Scroll(1));
    }
    frames::apply(&mut app, Action::Open);
    assert_eq!(app.loaded.card.name, "wrong-path-first");
    assert_eq!(app.step, 2);
}

#[test]
fn the_step_seen_and_the_quiz_score_are_noted_and_shown_in_the_picker() {
    let app = opened("read-config-timeout", &[]);
    let mut app = app.clone().with_study(kept(&app, &[]));
    assert!(app.note_progress(), "a first note is a change");
    assert!(!app.note_progress(), "nothing moved since");
    frames::apply(&mut app, Action::ToggleQuiz);
    // On to the first question, answered (whatever the choice), and past it.
    while app.quiz.score().1 == 0 && app.step < app.last() {
        frames::apply(&mut app, Action::Next);
        if app.quiz.is_asking() {
            frames::apply(&mut app, Action::Answer(1));
        }
    }
    frames::apply(&mut app, Action::Next);
    assert!(app.note_progress());
    let (right, answered) = app.quiz.score();
    assert!(answered > 0);
    let p = *app.progress().unwrap();
    assert_eq!((p.step, p.steps), (app.step + 1, 8));
    assert_eq!(p.quiz, Some((right, answered)));
    frames::apply(&mut app, Action::TogglePicker);
    let shown = text(&app, (120, 40));
    let seen = format!("seen {}/8 · quiz {right}/{answered} right", app.step + 1);
    assert!(shown.contains(&seen), "{seen}\n{shown}");
    // Without kept progress (an export, a test), nothing of it is drawn.
    let mut plain = opened("read-config-timeout", &[]);
    frames::apply(&mut plain, Action::TogglePicker);
    assert!(!text(&plain, (120, 40)).contains("seen "));
}

#[test]
fn the_plan_is_the_lesson_opened_then_each_lesson_named_in_order() {
    let app = opened(
        "harness-drops-results",
        &[
            "read-config-timeout",
            "harness-drops-results",
            "wrong-path-first",
        ],
    );
    let names: Vec<String> = app
        .picker
        .plan
        .iter()
        .map(|&i| match &app.picker.lessons[i].source {
            Source::Shipped(name) => name.to_string(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        names,
        [
            "harness-drops-results",
            "read-config-timeout",
            "wrong-path-first"
        ]
    );
    assert!(opened("read-config-timeout", &[]).picker.plan.is_empty());
}

#[test]
fn the_last_step_offers_the_next_lesson_of_the_plan_and_next_opens_it() {
    let mut app = opened("read-config-timeout", &["wrong-path-first"]);
    for size in [(120, 40), (80, 24)] {
        assert!(!text(&app, size).contains("next lesson"));
    }
    frames::apply(&mut app, Action::Last);
    for size in [(120, 40), (80, 24)] {
        let shown = text(&app, size);
        assert!(shown.contains("→ next lesson (2/2 today): "), "{shown}");
    }
    assert!(text(&app, (120, 40)).contains("→ next lesson (2/2 today): Wrong path first"));
    frames::apply(&mut app, Action::Next);
    assert_eq!(
        (app.loaded.card.name.as_str(), app.step),
        ("wrong-path-first", 0)
    );
    // The last lesson of the plan offers nothing, and → stays.
    frames::apply(&mut app, Action::Last);
    assert!(!text(&app, (120, 40)).contains("next lesson"));
    let last = app.step;
    frames::apply(&mut app, Action::Next);
    assert_eq!(
        (app.loaded.card.name.as_str(), app.step),
        ("wrong-path-first", last)
    );
}
