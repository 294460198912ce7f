//! Each panel drawn alone from its `Scene`, at fixed widths: its text is a
//! snapshot under `snapshots/` (`panel__PANEL__LESSON__step-NN__wW__LANG`),
//! and the styles that carry the lesson (the current step, the lanes'
//! colours, each call id's colour) are asserted on its cells. A panel drawn
//! alone is the panel of the whole screen, cell for cell. The rest of the
//! screen (header, footer, the wire view, the quiz, the overlays and the
//! picker) is drawn alone the same way from the small value each takes, at
//! 80 and 120 columns.

mod common;

use agent_loop_sim::action::Action;
use agent_loop_sim::app::{App, Overlay, Panel};
use agent_loop_sim::frames;
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::trace::Lane;
use agent_loop_sim::view::context::Context;
use agent_loop_sim::view::explain::Explain;
use agent_loop_sim::view::frame::{Footer, Header};
use agent_loop_sim::view::lanes::Lanes;
use agent_loop_sim::view::overlay::OverlayView;
use agent_loop_sim::view::pairing::PairingTable;
use agent_loop_sim::view::picker::PickerView;
use agent_loop_sim::view::quiz::QuizPanel;
use agent_loop_sim::view::scene::Scene;
use agent_loop_sim::view::wire::Wire;
use common::{app, snapshot_settings};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use unicode_width::UnicodeWidthStr;

/// Two calls in one reply whose results come back out of order.
const LESSON: &str = "parallel-calls-out-of-order";
const HEIGHT: u16 = 18;
const WIDTHS: [u16; 2] = [40, 64];

fn opened(lang: Lang) -> App {
    let app = app(LESSON, lang);
    let last = app.trace().len() - 1;
    frames::at_step(&app, last, 120, 40)
}

fn draw(panel: Panel, scene: &Scene, area: Rect) -> Buffer {
    let mut buf = Buffer::empty(area);
    match panel {
        Panel::Lanes => Lanes { scene, mark: &[] }.render(area, 0, &mut buf),
        Panel::Context => Context { scene }.render(area, 0, &mut buf),
        Panel::Pairing => PairingTable { scene }.render(area, 0, &mut buf),
        Panel::Explain => Explain { scene }.render(area, 0, &mut buf),
    };
    buf
}

fn name(panel: Panel) -> &'static str {
    match panel {
        Panel::Lanes => "lanes",
        Panel::Context => "context",
        Panel::Pairing => "pairing",
        Panel::Explain => "explain",
    }
}

#[test]
fn each_panel_alone_at_two_widths_in_both_languages() {
    for lang in Lang::ALL {
        let app = opened(lang);
        let scene = Scene::of(&app);
        for panel in Panel::ALL {
            for w in WIDTHS {
                let buf = draw(panel, &scene, Rect::new(0, 0, w, HEIGHT));
                let text = frames::to_styled_text(&buf);
                let snap = format!(
                    "panel__{}__{LESSON}__step-{:02}__w{w}__{}",
                    name(panel),
                    app.step + 1,
                    lang.code()
                );
                snapshot_settings().bind(|| insta::assert_snapshot!(snap, text));
            }
        }
    }
}

/// Where `text` starts on the buffer's lines.
fn find(buf: &Buffer, text: &str) -> Option<(u16, u16)> {
    frames::to_text(buf)
        .lines()
        .enumerate()
        .find_map(|(y, line)| {
            let byte = line.find(text)?;
            Some((line[..byte].width() as u16, y as u16))
        })
}

#[test]
fn a_panel_alone_is_the_panel_on_the_whole_screen() {
    for lang in Lang::ALL {
        for panel in Panel::ALL {
            let mut app = opened(lang);
            app.focus = panel;
            let screen = frames::render(&app, 120, 40);
            let areas = agent_loop_sim::view::areas(&app, Rect::new(0, 0, 120, 40)).unwrap();
            let (_, outer, _) = areas.panels.iter().find(|(p, _, _)| *p == panel).unwrap();
            // Inside the panel's border.
            let inner = Rect::new(outer.x + 1, outer.y + 1, outer.width - 2, outer.height - 2);
            let alone = draw(panel, &Scene::of(&app), inner);
            for y in inner.top()..inner.bottom() {
                for x in inner.left()..inner.right() {
                    assert_eq!(
                        screen[(x, y)],
                        alone[(x, y)],
                        "{} {lang:?} at {x},{y}",
                        name(panel)
                    );
                }
            }
        }
    }
}

#[test]
fn the_lanes_mark_the_current_step_and_colour_each_lane() {
    for lang in Lang::ALL {
        let app = opened(lang);
        let scene = Scene::of(&app);
        let buf = draw(Panel::Lanes, &scene, Rect::new(0, 0, 64, HEIGHT));
        let marker = format!("▶ {}", app.step + 1);
        let (x, y) = find(&buf, &marker).expect("the current step's marker");
        let current = scene.theme.current_marker();
        assert!(
            buf[(x, y)].modifier.contains(current.add_modifier),
            "{lang:?}"
        );
        assert_eq!(buf[(x, y)].fg, current.fg.unwrap_or(buf[(x, y)].fg));
        // The lane names, each in its lane's colour, on the header row.
        for lane in [Lane::Model, Lane::Host, Lane::Tool] {
            let word = agent_loop_sim::i18n::lane_name(lane, lang);
            let (x, y) = find(&buf, word).unwrap_or_else(|| panic!("{word}"));
            assert_eq!(y, 0, "{word} on the header row");
            assert_eq!(buf[(x, y)].fg, scene.theme.lane(lane), "{lang:?} {word}");
        }
    }
}

#[test]
fn the_pairing_table_colours_each_call_id_by_its_place() {
    for lang in Lang::ALL {
        let app = opened(lang);
        let scene = Scene::of(&app);
        let buf = draw(Panel::Pairing, &scene, Rect::new(0, 0, 64, HEIGHT));
        let calls = &scene.trace.calls;
        assert!(calls.len() >= 2, "two calls to tell apart");
        let mut colours = Vec::new();
        for call in calls {
            let (x, y) = find(&buf, &call.id.0).unwrap_or_else(|| panic!("{:?}", call.id));
            let want = scene.theme.call_id(scene.trace.id_place(&call.id));
            for k in 0..call.id.0.width() as u16 {
                assert_eq!(Some(buf[(x + k, y)].fg), want.fg, "{lang:?} {:?}", call.id);
            }
            colours.push(buf[(x, y)].fg);
        }
        colours.dedup();
        assert_eq!(
            colours.len(),
            calls.len(),
            "distinct calls, distinct colours"
        );
    }
}

/// The widths the rest of the screen is drawn alone at.
const SCREEN_WIDTHS: [u16; 2] = [80, 120];
/// The height the overlays and the picker are drawn over.
const SCREEN_HEIGHT: u16 = 24;

/// The lesson at its first step with the quiz on: the question about
/// step 2 is open.
fn asking(lang: Lang) -> App {
    // Step 2: the lesson's first chosen question is about step 3.
    let mut app = frames::at_step(&app(LESSON, lang), 1, 120, 40);
    frames::apply(&mut app, Action::ToggleQuiz);
    app
}

/// The default scenario with the picker offering the catalogue, open.
fn picking(lang: Lang) -> App {
    use agent_loop_sim::picker::{self, Picker, Source};
    let name = "read-config-timeout";
    let a = app(name, lang);
    let (lessons, current) = picker::gather(Source::Shipped(name), a.loaded.clone(), &[]);
    let mut a = a.with_lessons(Picker::new(lessons, Some(current)));
    frames::apply(&mut a, Action::Resize(120, 40));
    frames::apply(&mut a, Action::TogglePicker);
    frames::apply(&mut a, Action::Scroll(2));
    a
}

/// Each part of the screen that is not one of the four panels, drawn alone
/// `w` columns wide: its name in the snapshot, the step shown, its buffer.
fn parts(lang: Lang, w: u16) -> Vec<(&'static str, usize, Buffer)> {
    let mut out = Vec::new();
    let app = opened(lang);
    let scene = Scene::of(&app);
    let mut buf = Buffer::empty(Rect::new(0, 0, w, 3));
    Header::of(&app, &scene).render(buf.area, &mut buf);
    out.push(("header", app.step, buf));
    let mut buf = Buffer::empty(Rect::new(0, 0, w, 2));
    Footer::of(&app).render(buf.area, &mut buf);
    out.push(("footer", app.step, buf));
    let mut buf = Buffer::empty(Rect::new(0, 0, w, HEIGHT));
    Wire { scene: &scene }.render(buf.area, 0, &mut buf);
    out.push(("wire", app.step, buf));
    for overlay in [Overlay::Help, Overlay::About] {
        let mut buf = Buffer::empty(Rect::new(0, 0, w, SCREEN_HEIGHT));
        OverlayView::of(&app, overlay).render(buf.area, &mut buf);
        let name = if overlay == Overlay::Help {
            "help"
        } else {
            "about"
        };
        out.push((name, app.step, buf));
    }
    let mut quiz = asking(lang);
    for name in ["quiz-asking", "quiz-answered"] {
        let scene = Scene::of(&quiz);
        let mut buf = Buffer::empty(Rect::new(0, 0, w, HEIGHT));
        QuizPanel::of(&quiz, &scene).render(buf.area, 0, &mut buf);
        out.push((name, quiz.step, buf));
        frames::apply(&mut quiz, Action::Answer(1));
    }
    let picker = picking(lang);
    let mut buf = Buffer::empty(Rect::new(0, 0, w, SCREEN_HEIGHT));
    PickerView::of(&picker).render(buf.area, &mut buf);
    out.push(("picker", picker.step, buf));
    out
}

#[test]
fn the_rest_of_the_screen_alone_at_80_and_120_columns_in_both_languages() {
    for lang in Lang::ALL {
        for w in SCREEN_WIDTHS {
            for (part, step, buf) in parts(lang, w) {
                let lesson = if part == "picker" {
                    "read-config-timeout"
                } else {
                    LESSON
                };
                let snap = format!(
                    "panel__{part}__{lesson}__step-{:02}__w{w}__{}",
                    step + 1,
                    lang.code()
                );
                let text = frames::to_styled_text(&buf);
                snapshot_settings().bind(|| insta::assert_snapshot!(snap, text));
            }
        }
    }
}

#[test]
fn the_header_and_footer_alone_are_those_of_the_whole_screen() {
    for lang in Lang::ALL {
        let app = opened(lang);
        let screen = frames::render(&app, 120, 40);
        let areas = agent_loop_sim::view::areas(&app, Rect::new(0, 0, 120, 40)).unwrap();
        let scene = Scene::of(&app);
        let mut alone = Buffer::empty(Rect::new(0, 0, 120, 40));
        alone.set_style(alone.area, app.theme.base());
        Header::of(&app, &scene).render(areas.header, &mut alone);
        Footer::of(&app).render(areas.footer, &mut alone);
        for area in [areas.header, areas.footer] {
            for y in area.top()..area.bottom() {
                for x in area.left()..area.right() {
                    assert_eq!(screen[(x, y)], alone[(x, y)], "{lang:?} at {x},{y}");
                }
            }
        }
    }
}

#[test]
fn the_header_marks_the_step_and_colours_who_acts_by_lane() {
    use agent_loop_sim::trace::Source;
    for lang in Lang::ALL {
        let base = app(LESSON, lang);
        for step in 0..base.trace().len() {
            let app = frames::at_step(&base, step, 120, 40);
            let scene = Scene::of(&app);
            let mut buf = Buffer::empty(Rect::new(0, 0, 120, 3));
            Header::of(&app, &scene).render(buf.area, &mut buf);
            let marker = scene.theme.current_marker().add_modifier;
            let counter = format!("{}/{}", step + 1, app.trace().len());
            let (x, y) = find(&buf, &counter).expect("the step counter");
            assert_eq!(y, 0);
            assert!(buf[(x, y)].modifier.contains(marker), "{lang:?} {step}");
            let shown = &app.trace().steps[step];
            let who = agent_loop_sim::i18n::who_acts(app.trace(), step);
            // On the second line (the step's title above may name it too).
            let y = 1;
            let line = frames::to_text(&buf).lines().nth(1).unwrap().to_string();
            let byte = line.find(&who).unwrap_or_else(|| panic!("{who} in {line}"));
            let x = line[..byte].width() as u16;
            assert!(buf[(x, y)].modifier.contains(Modifier::BOLD));
            if let Source::Lane(lane) = shown.source() {
                assert_eq!(buf[(x, y)].fg, scene.theme.lane(lane), "{lang:?} {who}");
            }
        }
    }
}

#[test]
fn the_picker_highlights_the_chosen_row_only() {
    for lang in Lang::ALL {
        let picker = picking(lang);
        let mut buf = Buffer::empty(Rect::new(0, 0, 120, SCREEN_HEIGHT));
        PickerView::of(&picker).render(buf.area, &mut buf);
        let chosen = picker.picker.cursor;
        let (x, y) = find(&buf, "▶ ").expect("the highlight symbol");
        let reversed = |x: u16, y: u16| buf[(x, y)].modifier.contains(Modifier::REVERSED);
        let text = frames::to_text(&buf);
        let line = text.lines().nth(y as usize).unwrap();
        assert!(
            line.contains(&format!("▶ {:>2}  ", chosen + 1)),
            "{lang:?}: {line}"
        );
        // The whole row, to its last column inside the margin, and no other.
        let right = buf.area.width - 1;
        let last = (0..right).rev().find(|&c| reversed(c, y)).unwrap();
        assert!(reversed(x, y) && reversed(last, y) && last > x + 60);
        for other in [y - 1, y + 1] {
            assert!(
                !(0..right).any(|c| reversed(c, other)),
                "{lang:?} row {other}"
            );
        }
    }
}

#[test]
fn the_quiz_numbers_its_choices_and_a_waiting_hint_is_an_error() {
    for lang in Lang::ALL {
        let app = asking(lang);
        let scene = Scene::of(&app);
        let mut panel = QuizPanel::of(&app, &scene);
        let choices = panel
            .question
            .as_ref()
            .expect("a question open")
            .choices
            .len();
        for hint in [false, true] {
            panel.hint = hint;
            let mut buf = Buffer::empty(Rect::new(0, 0, 80, HEIGHT));
            panel.render(buf.area, 0, &mut buf);
            for n in 1..=choices {
                let (x, y) = find(&buf, &format!("[{n}]")).unwrap();
                assert_eq!(buf[(x, y)].modifier, scene.theme.current().add_modifier);
            }
            let said = if hint {
                agent_loop_sim::i18n::QUIZ_WAITING
            } else {
                agent_loop_sim::i18n::QUIZ_ANSWER_WITH
            };
            let said = said.fill(lang, &[("max", &choices)]);
            // The hint is the panel's last text: its start, on the lowest line.
            let start: String = said.chars().take(6).collect();
            let text = frames::to_text(&buf);
            let (x, y) = text
                .lines()
                .enumerate()
                .filter_map(|(y, line)| {
                    let byte = line.find(&start)?;
                    Some((line[..byte].width() as u16, y as u16))
                })
                .last()
                .unwrap_or_else(|| panic!("{said}"));
            let want = if hint {
                scene.theme.error()
            } else {
                scene.theme.muted()
            };
            assert_eq!(Some(buf[(x, y)].fg), want.fg, "{lang:?} hint {hint}");
        }
    }
}

#[test]
fn the_wire_view_marks_the_new_items_in_the_new_messages_colour() {
    for lang in Lang::ALL {
        let app = opened(lang);
        let scene = Scene::of(&app);
        let mut buf = Buffer::empty(Rect::new(0, 0, 80, 40));
        Wire { scene: &scene }.render(buf.area, 0, &mut buf);
        let new = scene.theme.new_message();
        let marked: Vec<u16> = (0..40).filter(|&y| buf[(0, y)].symbol() == "+").collect();
        assert!(
            !marked.is_empty(),
            "{lang:?}: the newest call sent new items"
        );
        for y in marked {
            assert_eq!(Some(buf[(0, y)].fg), new.fg, "{lang:?} line {y}");
        }
    }
}

#[test]
fn the_compact_layouts_tabs_mark_the_panel_shown_and_mute_the_others() {
    use agent_loop_sim::i18n;
    let tabs = [
        (Panel::Context, i18n::CONTEXT),
        (Panel::Pairing, i18n::PAIRING),
        (Panel::Explain, i18n::EXPLAIN),
    ];
    for lang in Lang::ALL {
        for (shown, _) in tabs {
            let mut app = opened(lang);
            app.focus = shown;
            let buf = frames::render(&app, 80, 24);
            let areas = agent_loop_sim::view::areas(&app, Rect::new(0, 0, 80, 24)).unwrap();
            let (panel, rect, tabbed) = areas.panels[1];
            assert!(tabbed && panel == shown, "{lang:?} {shown:?}");
            let text = frames::to_text(&buf);
            let row = text.lines().nth(rect.y as usize).unwrap();
            let muted = app.theme.muted();
            for (tab, label) in tabs {
                let name = label.get(lang);
                let marked = format!("▶ [{name}]");
                let (needle, skip) = if tab == shown {
                    (marked.as_str(), 3)
                } else {
                    (name, 0)
                };
                let byte = row
                    .find(needle)
                    .unwrap_or_else(|| panic!("{needle} in {row}"));
                let x = rect.x + row[..byte].width() as u16 + skip;
                let cell = &buf[(x, rect.y)];
                if tab == shown {
                    assert!(cell.modifier.contains(Modifier::BOLD), "{lang:?} {name}");
                    assert_ne!(Some(cell.fg), muted.fg, "{lang:?} {name}");
                } else {
                    assert_eq!(Some(cell.fg), muted.fg, "{lang:?} {name}");
                }
            }
            assert!(row.contains("(Tab)"), "{row}");
        }
    }
}
