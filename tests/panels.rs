//! Each panel drawn alone from its `Scene`, at fixed widths: its text is a
//! snapshot under `snapshots/` (`panel__PANEL__LESSON__step-NN__wW__LANG`),
//! and the styles that carry the lesson (the current step, the lanes'
//! colours, each call id's colour) are asserted on its cells. A panel drawn
//! alone is the panel of the whole screen, cell for cell.

mod common;

use agent_loop_sim::app::{App, Panel};
use agent_loop_sim::frames;
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::trace::Lane;
use agent_loop_sim::view::context::Context;
use agent_loop_sim::view::explain::Explain;
use agent_loop_sim::view::lanes::Lanes;
use agent_loop_sim::view::pairing::PairingTable;
use agent_loop_sim::view::scene::Scene;
use common::{app, snapshot_settings};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
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
        Panel::Lanes => Lanes { scene, mark: None }.render(area, 0, &mut buf),
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
                let text = frames::to_text(&buf);
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
