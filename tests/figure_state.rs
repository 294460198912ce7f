//! Figures show the lesson, not the program's state (issue 38 item 5): a
//! still figure, a GIF's or a cast's frames and a `--panel` figure say
//! nothing of playing or paused, the dwell time, the focus or the zoom,
//! unless exported with `--keys` (the terminal's frame, as it is).

mod common;

use agent_loop_sim::app::Panel;
use agent_loop_sim::cli::ExportFormat;
use agent_loop_sim::export::{self, Options};
use agent_loop_sim::frames::{self, Framing};
use agent_loop_sim::i18n;
use agent_loop_sim::scenario::Lang;

/// The program's state as the terminal words it.
fn state_words(lang: Lang) -> Vec<String> {
    vec![
        i18n::PAUSED.get(lang).to_string(),
        i18n::PLAYING.get(lang).to_string(),
        i18n::lead(i18n::FOCUS, lang),
        i18n::DWELL.get(lang).to_string(),
        format!("[{}", i18n::ZOOMED.get(lang)),
        // The focused panel: its title marked, its border heavy.
        format!("▶ {}", i18n::LANES.get(lang)),
        format!("▶ {}", i18n::CONTEXT.get(lang)),
        format!("▶ {}", i18n::PAIRING.get(lang)),
        format!("▶ {}", i18n::EXPLAIN.get(lang)),
        "┏".to_string(),
    ]
}

#[test]
fn figures_say_nothing_of_play_focus_or_zoom_unless_keys() {
    for lang in Lang::ALL {
        let app = common::app("read-config-timeout", lang);
        let words = state_words(lang);
        for size in [(120, 40), (80, 24)] {
            for index in 0..app.steps() {
                for panel in [None, Some(Panel::Context), Some(Panel::Lanes)] {
                    let framing = Framing {
                        panel,
                        ..Framing::default()
                    };
                    let text = frames::to_text(&export::framed(&app, index, size, framing).buffer);
                    for word in &words {
                        assert!(
                            !text.contains(word.as_str()),
                            "{lang:?} {size:?} step {} {panel:?}: {word:?}\n{text}",
                            index + 1
                        );
                    }
                    // Where the step stands is the lesson's: it stays.
                    let counter = format!(" {}/{} ", index + 1, app.steps());
                    assert!(text.contains(&counter), "{counter}\n{text}");
                    // With --keys, the terminal's frame: its state and all.
                    let keys = Framing {
                        keys: true,
                        ..framing
                    };
                    let text = frames::to_text(&export::framed(&app, index, size, keys).buffer);
                    assert!(text.contains(i18n::PAUSED.get(lang)), "{text}");
                    assert!(text.contains(&i18n::lead(i18n::FOCUS, lang)), "{text}");
                    if panel.is_some() {
                        assert!(text.contains(i18n::ZOOMED.get(lang)), "{text}");
                    }
                }
            }
        }
    }
}

#[test]
fn a_cast_plays_without_saying_paused() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("figure-state-cast");
    let _ = std::fs::remove_dir_all(&out);
    for (keys, expect) in [(false, false), (true, true)] {
        let mut opts = Options::new(ExportFormat::Cast, out.clone());
        opts.framing.keys = keys;
        let files = export::export(&opts, |_| {}).unwrap();
        let cast = std::fs::read_to_string(&files[0]).unwrap();
        for word in [i18n::PAUSED.get(Lang::Zh), "焦点"] {
            assert_eq!(cast.contains(word), expect, "keys {keys}: {word}");
        }
    }
}

#[test]
fn a_comparison_figure_marks_neither_run_as_focused() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("figure-state-compare");
    let _ = std::fs::remove_dir_all(&out);
    for (keys, expect) in [(false, false), (true, true)] {
        let mut opts = Options::new(ExportFormat::Txt, out.clone());
        opts.lang = Lang::En;
        opts.scenario = "harness-drops-results".into();
        opts.compare = Some("read-config-timeout".into());
        opts.steps = Some((6, 6));
        // Tall enough for the explanation under the two runs (a body of 44 rows).
        opts.size = (120, 52);
        opts.framing.keys = keys;
        let files = export::export(&opts, |_| {}).unwrap();
        let text = std::fs::read_to_string(&files[0]).unwrap();
        assert_eq!(text.contains("▶ main run"), expect, "keys {keys}\n{text}");
        assert_eq!(text.contains('┏'), expect, "keys {keys}\n{text}");
        // The explanation still says whose step it explains.
        assert!(text.contains("Explanation · main run"), "{text}");
    }
}
