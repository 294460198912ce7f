//! Every reachable frame is a snapshot under the top-level `snapshots/`,
//! named `SCENARIO__WxH__LANG__step-NN` (and `__help`, `__about`, ...).
//!
//! The default lesson's frames, the ones a class sees first, are whole.
//! In the other lessons' frames the footer's row of key hints, the same on
//! nearly every frame, names the keys it shows (`⟪keys: → ← Space …⟫`),
//! and their labels are one snapshot per language
//! (`panel__footer-keys__lesson__LANG`): a word in a hint then rewrites
//! those two and the frames that stay whole, not 1,500 more, while a key
//! that appears or goes on a frame still shows in that frame's snapshot.
//! The row is named only when it is exactly those keys and labels, drawn
//! as the footer draws them.

mod common;

use agent_loop_sim::app::{Action, App};
use agent_loop_sim::frames;
use agent_loop_sim::keymap::Mode;
use agent_loop_sim::load::{self, CATALOG, DEFAULT_SCENARIO};
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::theme::Theme;
use agent_loop_sim::view::{self, frame::Footer};
use common::{app, snapshot_settings as settings};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};

fn snapshot_all_steps(name: &str, lang: Lang, (w, h): (u16, u16)) {
    let app = app(name, lang);
    let steps = app.trace().len();
    settings().bind(|| {
        for i in 0..steps {
            let frame = frames::at_step(&app, i, w, h);
            let mut text = frames::to_styled_text(&frames::render(&frame, w, h));
            if name != DEFAULT_SCENARIO {
                text = keys_named(&frame, text, w, h);
            }
            let snap = format!("{name}__{w}x{h}__{}__step-{:02}", lang.code(), i + 1);
            insta::assert_snapshot!(snap, text);
        }
    });
    if app.loaded.sub_agent.is_some() {
        snapshot_sub_agent_steps(name, lang, (w, h));
    }
}

/// A lesson's sub-agent's own run (conversation 2), every frame of it.
fn snapshot_sub_agent_steps(name: &str, lang: Lang, (w, h): (u16, u16)) {
    let mut app = app(name, lang);
    agent_loop_sim::app::update(&mut app, Action::SwitchConversation);
    assert_eq!(app.live.as_ref().map(|l| l.current), Some(1), "{name}");
    settings().bind(|| {
        for i in 0..app.trace().len() {
            let frame = frames::at_step(&app, i, w, h);
            let text = frames::to_styled_text(&frames::render(&frame, w, h));
            let text = keys_named(&frame, text, w, h);
            let snap = format!(
                "{name}__{w}x{h}__{}__sub-agent__step-{:02}",
                lang.code(),
                i + 1
            );
            insta::assert_snapshot!(snap, text);
        }
    });
}

/// The mode whose key hints `keys_named` names: the lesson, no quiz.
const LESSON_KEYS: Mode = Mode::Lesson { quiz: false };

/// `text` (the frame of `app`, `w`×`h`, with its look) with the footer's
/// row of key hints replaced by the keys it shows, when it shows the
/// lesson's hints as the footer draws them (` key label`, two spaces apart)
/// and nothing else. The row's look goes too: it follows the labels.
fn keys_named(app: &App, text: String, w: u16, h: u16) -> String {
    let Some(areas) = view::areas(app, Rect::new(0, 0, w, h)) else {
        return text;
    };
    if app.mode() != LESSON_KEYS {
        return text;
    }
    let y = usize::from(areas.footer.y);
    let mut lines: Vec<&str> = text.lines().collect();
    let row = lines[y];
    // The row is the footer's own first row, drawn alone.
    let mut alone = Buffer::empty(Rect::new(0, 0, w, 2));
    Footer::of(app).render(alone.area, &mut alone);
    assert_eq!(frames::to_text(&alone).lines().next(), Some(row));
    let shown: Vec<(String, &str)> = LESSON_KEYS
        .hints(app.lang)
        .into_iter()
        .filter(|(k, l)| row.contains(&format!(" {k} {l}")))
        .collect();
    let drawn: Vec<String> = shown.iter().map(|(k, l)| format!("{k} {l}")).collect();
    if row.trim_end() != format!(" {}", drawn.join("  ")) {
        return text;
    }
    let keys: Vec<&str> = shown.iter().map(|(k, _)| k.as_str()).collect();
    let named = format!(
        " ⟪keys: {} · labels in panel__footer-keys__lesson__{}⟫",
        keys.join(" "),
        app.lang.code()
    );
    lines[y] = &named;
    // The look's rows follow the frame's `h` rows and the `── look ──` line.
    let look = usize::from(h) + 1 + y;
    if look < lines.len() {
        lines[look] = " ⟪keys⟫";
    }
    let mut out = lines.join("\n");
    if text.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// The labels of the keys the lesson's footer shows, for the frames whose
/// row of key hints names only the keys (`keys_named`).
#[test]
fn the_lesson_footers_keys_and_their_labels() {
    for lang in Lang::ALL {
        let text: Vec<String> = LESSON_KEYS
            .hints(lang)
            .into_iter()
            .map(|(k, l)| format!("{k} {l}"))
            .collect();
        let snap = format!("panel__footer-keys__lesson__{}", lang.code());
        settings().bind(|| insta::assert_snapshot!(snap, text.join("\n")));
    }
}

#[test]
fn default_scenario_every_frame_at_both_sizes_and_languages() {
    for lang in Lang::ALL {
        for size in [(120, 40), (80, 24)] {
            snapshot_all_steps(DEFAULT_SCENARIO, lang, size);
        }
    }
}

#[test]
fn every_shipped_scenario_every_frame_at_both_sizes_and_languages() {
    for (name, _) in CATALOG.iter().filter(|(n, _)| *n != DEFAULT_SCENARIO) {
        for lang in Lang::ALL {
            for size in [(120, 40), (80, 24)] {
                snapshot_all_steps(name, lang, size);
            }
        }
    }
}

fn snapshot_after(name: &str, lang: Lang, (w, h): (u16, u16), actions: &[Action]) {
    let mut app = app(DEFAULT_SCENARIO, lang);
    frames::apply(&mut app, Action::Resize(w, h));
    for a in actions {
        frames::apply(&mut app, *a);
    }
    let text = frames::to_styled_text(&frames::render(&app, w, h));
    let snap = format!("{DEFAULT_SCENARIO}__{w}x{h}__{}__{name}", lang.code());
    settings().bind(|| insta::assert_snapshot!(snap, text));
}

#[test]
fn overlays_zoom_and_focus() {
    for lang in Lang::ALL {
        for size in [(120, 40), (80, 24)] {
            snapshot_after("help", lang, size, &[Action::ToggleHelp]);
            snapshot_after("about", lang, size, &[Action::ToggleAbout]);
        }
        snapshot_after(
            "step-07-zoom-context",
            lang,
            (80, 24),
            &[Action::Jump(7), Action::FocusNext, Action::Zoom],
        );
        snapshot_after(
            "step-08-pairing-tab",
            lang,
            (80, 24),
            &[Action::Last, Action::FocusNext, Action::FocusNext],
        );
    }
}

#[test]
fn too_small_says_what_size_it_needs() {
    for (w, h) in [(59, 24), (30, 8), (80, 17)] {
        snapshot_after("too-small", Lang::En, (w, h), &[]);
        let app = app(DEFAULT_SCENARIO, Lang::Zh);
        let text = frames::to_text(&frames::render(&app, w, h));
        assert!(text.contains("60×18"), "{w}x{h}: {text}");
    }
    // Tiny sizes draw what fits and do not panic.
    let app = app(DEFAULT_SCENARIO, Lang::Zh);
    for (w, h) in [(1, 1), (2, 1), (1, 5), (0, 0)] {
        frames::render(&app, w, h);
    }
}

/// Find the cell where `needle` starts on the screen.
fn find(buf: &ratatui::buffer::Buffer, needle: &str) -> Option<(u16, u16)> {
    let text = frames::to_text(buf);
    for (y, line) in text.lines().enumerate() {
        if let Some(byte) = line.find(needle) {
            let col = unicode_width::UnicodeWidthStr::width(&line[..byte]);
            return Some((col as u16, y as u16));
        }
    }
    None
}

#[test]
fn the_current_step_is_highlighted_and_earlier_steps_dimmed() {
    let app = frames::at_step(&app(DEFAULT_SCENARIO, Lang::En), 2, 120, 40);
    let buf = frames::render(&app, 120, 40);
    // The current row's gutter reads "▶ 3" in reversed bold.
    let (x, y) = find(&buf, "▶ 3").expect("current step marker");
    let cell = &buf[(x, y)];
    assert!(cell.modifier.contains(Modifier::REVERSED | Modifier::BOLD));
    // Step 1's row, earlier, is dimmed.
    let lanes_top = find(&buf, "Lanes").unwrap().1;
    let (_, y1) = frames::to_text(&buf)
        .lines()
        .enumerate()
        .skip(lanes_top as usize)
        .find(|(_, l)| l.starts_with("┃  1"))
        .map(|(y, _)| (0, y as u16))
        .expect("row of step 1");
    let arrow_cell = (3..60)
        .map(|x| &buf[(x, y1)])
        .find(|c| c.symbol() == "─")
        .expect("step 1 arrow");
    assert!(arrow_cell.modifier.contains(Modifier::DIM));
    // The header's step indicator is reversed too.
    let (x, y) = find(&buf, "step 3/8").unwrap();
    assert!(buf[(x, y)].modifier.contains(Modifier::REVERSED));
}

#[test]
fn the_three_lanes_are_told_apart_by_colour_and_by_name() {
    let app = frames::at_step(&app(DEFAULT_SCENARIO, Lang::En), 4, 120, 40);
    let buf = frames::render(&app, 120, 40);
    // Step 5: the host executes, so Host is the acting lane, in brackets.
    let (_, row) = find(&buf, "[Host]").expect("the lanes' header row");
    let line = frames::to_text(&buf)
        .lines()
        .nth(row as usize)
        .unwrap()
        .to_string();
    let colour = |name: &str| {
        let byte = line
            .find(name)
            .unwrap_or_else(|| panic!("{name} in {line}"));
        let x = unicode_width::UnicodeWidthStr::width(&line[..byte]) as u16;
        buf[(x, row)].fg
    };
    let (model, host, tool) = (colour("Model"), colour("[Host]"), colour("Tool"));
    assert_ne!(model, host);
    assert_ne!(host, tool);
    assert_ne!(model, tool);
    assert!([model, host, tool].iter().all(|c| *c != Color::Reset));
}

/// The colours an id is drawn in, one per place on the screen where all
/// of it is written.
fn id_colours(buf: &ratatui::buffer::Buffer, id: &str) -> Vec<Color> {
    let text = frames::to_text(buf);
    let mut found = Vec::new();
    for (y, line) in text.lines().enumerate() {
        for (byte, _) in line.match_indices(id) {
            let x = unicode_width::UnicodeWidthStr::width(&line[..byte]) as u16;
            let fgs: Vec<Color> = (0..id.len() as u16)
                .map(|k| buf[(x + k, y as u16)].fg)
                .collect();
            if fgs.iter().all(|c| *c == fgs[0]) {
                found.push(fgs[0]);
            }
        }
    }
    found
}

#[test]
fn distinct_opaque_call_ids_are_drawn_in_distinct_colours() {
    for name in ["parallel-calls-anthropic", "malformed-arguments"] {
        let opened = app(name, Lang::En);
        let trace = opened.trace();
        // Opaque ids, not call_1, call_2: no number after their last `_`.
        for call in &trace.calls {
            let tail = call.id.0.rsplit('_').next().unwrap();
            assert!(tail.parse::<usize>().is_err(), "{name}: {:?}", call.id);
        }
        // The last step: the latest calls are in the pairing table and
        // the context, each id whole.
        let last = trace.len() - 1;
        let shown = frames::at_step(&opened, last, 120, 40);
        let buf = frames::render(&shown, 120, 40);
        let theme = Theme::DARK;
        let palette: Vec<Color> = (0..6).map(|k| theme.call_id(k).fg.unwrap()).collect();
        let mut seen = Vec::new();
        for (i, call) in trace.calls.iter().enumerate() {
            let want = theme.call_id(i).fg.unwrap();
            // Wherever the id has a call-id colour, it is the colour of
            // its place among the calls.
            for got in id_colours(&buf, &call.id.0) {
                if palette.contains(&got) {
                    assert_eq!(got, want, "{name}: {:?}, call {i}", call.id);
                    seen.push(got);
                }
            }
        }
        seen.dedup();
        assert!(seen.len() >= 2, "{name}: two ids in two colours, {seen:?}");
        // The current step and the lanes have the colours the theme says.
        let marker = format!("▶ {}", last + 1);
        let (x, y) = find(&buf, &marker).expect("current step marker");
        let cell = &buf[(x, y)];
        let current = theme.current_marker();
        assert!(cell.modifier.contains(current.add_modifier));
        let text = frames::to_text(&buf);
        let (row, line) = text
            .lines()
            .enumerate()
            .find(|(_, l)| l.contains("Model") && l.contains("Host") && l.contains("Tool"))
            .expect("the lanes' header row");
        for (lane, word) in [
            (agent_loop_sim::trace::Lane::Model, "Model"),
            (agent_loop_sim::trace::Lane::Host, "Host"),
            (agent_loop_sim::trace::Lane::Tool, "Tool"),
        ] {
            let x = unicode_width::UnicodeWidthStr::width(&line[..line.find(word).unwrap()]);
            assert_eq!(
                buf[(x as u16, row as u16)].fg,
                theme.lane(lane),
                "{name}: {word}"
            );
        }
    }
}

#[test]
fn no_color_keeps_every_text_marker() {
    let mut plain = app(DEFAULT_SCENARIO, Lang::En);
    plain.theme = Theme::PLAIN;
    let coloured = app(DEFAULT_SCENARIO, Lang::En);
    for i in 0..plain.trace().len() {
        let a = frames::render(&frames::at_step(&plain, i, 120, 40), 120, 40);
        let b = frames::render(&frames::at_step(&coloured, i, 120, 40), 120, 40);
        assert_eq!(frames::to_text(&a), frames::to_text(&b));
        assert!(
            a.content
                .iter()
                .all(|c| c.fg == Color::Reset && c.bg == Color::Reset)
        );
    }
}

#[test]
fn the_environment_says_when_a_running_call_is_using_a_file() {
    let app = app(DEFAULT_SCENARIO, Lang::En);
    let env_at = |step: usize| {
        let text = frames::to_text(&frames::render(
            &frames::at_step(&app, step, 120, 40),
            120,
            40,
        ));
        text.lines()
            .find(|l| l.contains("Environment (Tool)"))
            .unwrap()
            .to_string()
    };
    assert!(env_at(3).contains("config.txt: not read"), "{}", env_at(3));
    assert!(
        env_at(4).contains("config.txt: in use by call_1"),
        "{}",
        env_at(4)
    );
    assert!(env_at(5).contains("config.txt: read"), "{}", env_at(5));
}

#[test]
fn a_file_the_run_creates_appears_only_once_it_exists() {
    let text = |zh: &str, en: &str| format!(r#"{{"zh": "{zh}", "en": "{en}"}}"#);
    let t = text("写", "write");
    let source = format!(
        r#"{{
        "name": "creates-a-file", "title": {t}, "task": {t},
        "about": {{"why": {t}, "how": {t}, "cost": {t}, "check": {t}}},
        "files": {{"config.txt": "timeout=30"}},
        "tools": [{{"name": "write_file", "description": {t}, "params": ["path", "content"]}}],
        "budget": 3,
        "model": [
            {{"when": {{"lacks_result": {{"tool": "write_file"}}}},
              "calls": [{{"tool": "write_file", "args": {{"path": "notes.md", "content": "hi"}}}}]}},
            {{"say": {t}}}
        ],
        "expect": "completed"
    }}"#
    );
    let loaded = load::prepare("creates-a-file.json", source.as_bytes()).unwrap();
    let app = App::new(loaded, Lang::En, Theme::DARK);
    assert_eq!(app.trace().created_at("notes.md"), Some(5));
    let screen = |step: usize| {
        frames::to_text(&frames::render(
            &frames::at_step(&app, step, 120, 40),
            120,
            40,
        ))
    };
    let environment = |step: usize| {
        screen(step)
            .lines()
            .find(|l| l.contains("Environment (Tool)"))
            .unwrap()
            .to_string()
    };
    // Before the write the file does not exist, on screen or on disk.
    assert!(!environment(3).contains("notes.md"), "{}", environment(3));
    let disk = screen(3)
        .lines()
        .find(|l| l.contains("Disk (not sent"))
        .unwrap()
        .to_string();
    assert!(!disk.contains("notes.md"), "{disk}");
    // While call_1 writes it, and after, it is there.
    assert!(
        environment(5).contains("notes.md: written v1"),
        "{}",
        environment(5)
    );
    assert!(environment(5).contains("config.txt: not read"));
}

/// The default scenario with the lesson picker offering the catalogue and
/// `extra` files, as `agent-loop-sim --lesson FILE...` opens it.
fn picker_app(lang: Lang, extra: &[String]) -> App {
    use agent_loop_sim::picker::{self, Picker, Source};
    let a = app(DEFAULT_SCENARIO, lang);
    let (lessons, current) =
        picker::gather(Source::Shipped(DEFAULT_SCENARIO), a.loaded.clone(), extra);
    a.with_lessons(Picker::new(lessons, Some(current)))
}

fn snapshot_picker(app: &mut App, name: &str, (w, h): (u16, u16), actions: &[Action]) -> String {
    frames::apply(app, Action::Resize(w, h));
    for a in actions {
        frames::apply(app, *a);
    }
    let text = frames::to_text(&frames::render(app, w, h));
    let snap = format!("{DEFAULT_SCENARIO}__{w}x{h}__{}__{name}", app.lang.code());
    settings().bind(|| insta::assert_snapshot!(snap, text.clone()));
    text
}

#[test]
fn the_lesson_picker_lists_every_shipped_scenario_and_opens_one() {
    for lang in Lang::ALL {
        for size in [(120, 40), (80, 24)] {
            let mut a = picker_app(lang, &[]);
            let text = snapshot_picker(&mut a, "picker", size, &[Action::TogglePicker]);
            // Every shipped title is listed at 120×40, the last ones after
            // End (the list scrolls); at 80×24 it scrolls sooner.
            if size == (120, 40) {
                let mut end = a.clone();
                frames::apply(&mut end, Action::Last);
                let rest = frames::to_text(&frames::render(&end, size.0, size.1));
                for (name, _) in CATALOG {
                    let title = load::load(name).unwrap().trace(lang).title.clone();
                    assert!(
                        text.contains(&title) || rest.contains(&title),
                        "{name} missing:\n{text}\n{rest}"
                    );
                }
            }
            // Down, Enter: the second lesson at step 1, as if just opened.
            let opened = snapshot_picker(
                &mut a,
                "picker-opened-2",
                size,
                &[Action::Scroll(1), Action::Open],
            );
            let fresh = frames::at_step(&app(CATALOG[1].0, lang), 0, size.0, size.1);
            assert_eq!(
                opened,
                frames::to_text(&frames::render(&fresh, size.0, size.1))
            );
        }
    }
}

#[test]
fn a_long_lesson_list_scrolls_and_shows_why_a_file_cannot_be_opened() {
    let extra: Vec<String> = (1..=12)
        .map(|i| format!("missing-lesson-{i:02}.json"))
        .collect();
    let mut a = picker_app(Lang::En, &extra);
    let text = snapshot_picker(
        &mut a,
        "picker-long-list-end",
        (80, 24),
        &[Action::TogglePicker, Action::Last],
    );
    assert!(text.contains("missing-lesson-12.json"), "{text}");
    assert!(text.contains("no such file"), "{text}");
    assert!(text.contains("↑ more above"), "{text}");
    assert!(!text.contains("Read the timeout (open now)"), "{text}");
    // Back up the list: the window follows only once the highlight leaves it.
    let text = snapshot_picker(
        &mut a,
        "picker-long-list-up",
        (80, 24),
        &vec![Action::Scroll(-1); CATALOG.len() + 12 - 5],
    );
    assert!(text.contains("▶  5"), "{text}");
    assert!(text.contains("↓ more below"), "{text}");
}

/// At the host's compaction and at the model call that first sends the
/// compacted context, the context panel shows what the host put in (the
/// placeholder or the summary, marked ✂) without any scrolling, on a wide
/// screen in both languages. Later steps go back to the newest lines.
#[test]
fn a_compaction_shows_what_the_host_put_in_without_scrolling() {
    for name in ["context-compaction-summary", "context-compaction-lost-fact"] {
        for lang in Lang::ALL {
            let a = app(name, lang);
            let t = a.trace().clone();
            let c = &t.compactions[0];
            for step in [c.step, c.step + 1] {
                assert!(t.just_compacted(step), "{name} step {}", step + 1);
                let frame = frames::at_step(&a, step, 120, 40);
                let text = frames::to_text(&frames::render(&frame, 120, 40));
                // The context panel is the right-hand column of the top half.
                let panel: String = text
                    .lines()
                    .take(22)
                    .map(|l| l.chars().skip(72).collect::<String>() + "\n")
                    .collect();
                assert!(
                    panel.contains("✂ ["),
                    "{name} {lang:?} step {}:\n{panel}",
                    step + 1
                );
            }
            assert!(!t.just_compacted(c.step + 2), "{name}");
        }
    }
}

/// The newest reply in the context panel shows from its first line: a
/// final answer longer than the panel is folded, not cut at its start.
#[test]
fn the_newest_message_shows_from_its_first_line() {
    for name in CATALOG.iter().map(|(n, _)| *n) {
        for lang in Lang::ALL {
            let a = app(name, lang);
            let last = a.last();
            let t = a.trace().clone();
            let newest = t
                .messages
                .iter()
                .rfind(|m| m.step <= last)
                .expect("a message");
            // Tool results keep their end in sight; a reply reads from its start.
            if newest.role != agent_loop_sim::trace::Role::Assistant {
                continue;
            }
            let frame = frames::at_step(&a, last, 120, 40);
            let buf = frames::render(&frame, 120, 40);
            // The context panel: the right-hand column of the top half.
            let panel: String = (0..22u16)
                .map(|y| {
                    let row: String = (72..120u16).map(|x| buf[(x, y)].symbol()).collect();
                    row + "\n"
                })
                .collect();
            // The first few characters of its text, as wrapped on screen.
            let start: String = newest.text.chars().take(6).collect();
            let flat: String = panel.split_whitespace().collect();
            let want: String = start.split_whitespace().collect();
            assert!(
                flat.contains(&want),
                "{name} {lang:?}: {start:?} not in\n{panel}"
            );
        }
    }
}
