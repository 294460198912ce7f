//! Figures v2: the HTML player's page, PNG, figures framed for notes
//! (`--bare`, `--panel`, `--strip`), the cast's theme, and files written
//! safely. The player's behaviour in a browser is in `tests/browser.rs`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use agent_loop_sim::app::Panel;
use agent_loop_sim::cli::ExportFormat;
use agent_loop_sim::export::{self, ExportError, Options};
use agent_loop_sim::frames::Framing;
use agent_loop_sim::i18n;
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::theme::Theme;
use common::BIN;

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("figures-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn export_one(opts: &Options) -> Vec<PathBuf> {
    export::export(opts, |_| {}).unwrap_or_else(|e| panic!("{e}"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

/// The binary with the user's colour setting (not `common::run`'s NO_COLOR).
fn run(args: &[&str]) -> (i32, String, String) {
    let mut cmd = common::command(args);
    cmd.env_remove("NO_COLOR");
    let out = common::run_command(cmd, args);
    (out.code, out.stdout, out.stderr)
}

#[test]
fn html_is_one_self_contained_page_with_every_step_and_the_about_sections() {
    for lang in Lang::ALL {
        let out = scratch(&format!("html-{}", lang.code()));
        let mut opts = Options::new(ExportFormat::Html, out.clone());
        opts.lang = lang;
        let files = export_one(&opts);
        assert_eq!(files.len(), 1);
        assert!(files[0].ends_with(format!("read-config-timeout.{}.html", lang.code())));
        let html = read(&files[0]);
        // (308 KB in zh since the context panel fills the rows it left
        // blank under "more above".)
        assert!(html.len() < 320 * 1024, "{} bytes", html.len());

        // One SVG frame per step, each with its alt text, and the first shown.
        assert_eq!(html.matches("<svg ").count(), 8);
        assert_eq!(html.matches("<div class=\"frame\"").count(), 8);
        assert_eq!(
            html.matches("<div class=\"frame\" data-step=\"1\">")
                .count(),
            1
        );
        assert_eq!(
            html.matches(" hidden>").count(),
            14,
            "7 frames and 7 texts hidden"
        );
        assert!(
            !html.contains("<?xml"),
            "the SVGs are inlined, not documents"
        );
        assert_eq!(html.matches("<title>").count(), 9);
        assert_eq!(html.matches("<desc>").count(), 8);

        // No outside resource: nothing to load, and a policy forbidding it.
        for pattern in [
            "src=", "href=", "url(", "@import", "<link", "https:", "//cdn",
        ] {
            assert!(!html.contains(pattern), "{lang:?}: {pattern}");
        }
        let http: Vec<&str> = html
            .match_indices("http://")
            .map(|(i, _)| &html[i..i + 26])
            .collect();
        assert!(
            http.iter().all(|u| *u == "http://www.w3.org/2000/svg"),
            "only the SVG namespace: {http:?}"
        );
        assert!(html.contains("Content-Security-Policy\" content=\"default-src 'none'"));

        // Real buttons, the counter, the dwell, the step's words as text.
        for id in ["first", "prev", "play", "next", "last", "zoom"] {
            assert!(
                html.contains(&format!("<button type=\"button\" id=\"{id}\"")),
                "{id}"
            );
        }
        assert!(html.contains("<output id=\"counter\""));
        assert!(html.contains(">1/8</output>"));
        assert!(html.contains("id=\"dwell\" type=\"number\""));
        assert!(html.contains("value=\"2\""), "the default dwell, 2 s");
        assert!(html.contains("tabindex=\"0\""), "the player can take focus");
        let (tag, step3) = match lang {
            Lang::Zh => ("zh-Hans", "步骤 3/8 · 模型提出工具调用 call_1"),
            Lang::En | Lang::Pseudo => ("en", "step 3/8 · The model proposes call_1"),
        };
        assert!(html.contains(&format!("<html lang=\"{tag}\">")));
        assert!(html.contains(&format!("<h2>{step3}")), "{lang:?}");

        // The about sections and the glossary, in the page's language.
        for label in [
            i18n::WHY,
            i18n::HOW,
            i18n::COST,
            i18n::CHECK,
            i18n::GLOSSARY,
        ] {
            let heading = label.get(lang);
            assert!(html.contains(&format!(">{heading}</h")), "{heading}");
        }
        for (term, _) in i18n::GLOSSARY_ENTRIES {
            assert!(html.contains(&format!("<dt>{}</dt>", term.get(lang))));
        }
        // The frames are the bare SVG figures, drawn once by the SVG
        // export: the terminal's key hints and play state would be wrong
        // in a page with its own controls.
        let mut bare = Options::new(ExportFormat::Svg, out.join("svg"));
        bare.lang = lang;
        bare.framing.bare = true;
        for svg in export_one(&bare) {
            let svg = read(&svg);
            let body = svg.split_once("?>\n").unwrap().1;
            assert!(html.contains(body), "{lang:?}: a frame is not the bare SVG");
        }
    }
}

#[test]
fn html_and_png_give_the_same_bytes_on_every_run() {
    for format in [ExportFormat::Html, ExportFormat::Png] {
        let bytes = |run: &str| {
            let mut opts = Options::new(format, scratch(&format!("same-{format:?}-{run}")));
            opts.lang = Lang::En;
            opts.steps = Some((4, 4));
            opts.scale = 1.0;
            std::fs::read(&export_one(&opts)[0]).unwrap()
        };
        assert_eq!(bytes("a"), bytes("b"), "{format:?}");
    }
}

#[test]
fn html_of_chosen_steps_counts_in_scenario_steps() {
    let mut opts = Options::new(ExportFormat::Html, scratch("html-steps"));
    opts.steps = Some((3, 5));
    opts.dwell = 0.5;
    let html = read(&export_one(&opts)[0]);
    assert_eq!(html.matches("<svg ").count(), 3);
    assert!(html.contains(">3/8</output>"));
    assert!(html.contains("var agentLoopPlayer = { total: 3, first: 3, of: 8, packed: false,"));
    assert!(html.contains("value=\"0.5\""));
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&bytes[12..16], b"IHDR");
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (be(&bytes[16..20]), be(&bytes[20..24]))
}

#[test]
fn png_is_one_readable_image_per_step_or_a_clear_font_error() {
    let out = scratch("png");
    let mut opts = Options::new(ExportFormat::Png, out.clone());
    opts.lang = Lang::En;
    let files = export_one(&opts);
    assert_eq!(files.len(), 8);
    for f in &files {
        assert!(f.extension().unwrap() == "png");
        let (w, h) = png_size(&std::fs::read(f).unwrap());
        assert_eq!((w, h), (2440, 1640), "{f:?}");
    }
    opts.scale = 1.0;
    opts.steps = Some((2, 2));
    let one = export_one(&opts);
    assert_eq!(png_size(&std::fs::read(&one[0]).unwrap()), (1220, 820));

    // Chinese: drawn where a CJK font is installed, else refused with the
    // package to install (never a figure of empty boxes); CI has the font.
    opts.lang = Lang::Zh;
    match export::export(&opts, |_| {}) {
        Ok(files) => assert_eq!(files.len(), 1),
        Err(ExportError::Missing(m)) => {
            assert!(m.contains("fonts-noto-cjk"), "{m}");
            common::missing_tool(
                "png_is_one_readable_image_per_step_or_a_clear_font_error",
                &format!("the Chinese PNG is not drawn: {m}"),
            );
        }
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn the_png_command_takes_a_scale() {
    let out = scratch("png-cli");
    let dir = out.to_str().unwrap();
    let (code, stdout, stderr) = run(&[
        "--lang", "en", "export", "--format", "png", "--out", dir, "--steps", "1", "--scale", "1.5",
    ]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let (w, _) = png_size(&std::fs::read(stdout.trim()).unwrap());
    assert_eq!(w, 1830);
    let (code, _, stderr) = run(&["export", "--format", "png", "--out", dir, "--scale", "0"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("expected a factor from 0.25 to 8"),
        "{stderr}"
    );
}

fn text_of(opts: &Options) -> String {
    let files = export_one(opts);
    assert_eq!(files.len(), 1);
    read(&files[0])
}

#[test]
fn bare_figures_have_no_key_hints_status_line_or_focus_marks() {
    for size in [(120, 40), (80, 24)] {
        let mut opts = Options::new(ExportFormat::Txt, scratch("bare"));
        opts.lang = Lang::En;
        opts.size = size;
        opts.steps = Some((3, 3));
        opts.framing.keys = true;
        let framed = text_of(&opts);
        opts.framing.keys = false;
        opts.framing.bare = true;
        let bare = text_of(&opts);
        // The full figure has them; the bare one does not.
        for (mark, what) in [
            ("q quit", "key hints"),
            ("‖ paused", "status line"),
            ("focus: ", "status line"),
            ("▶ Lanes", "focus mark"),
            ("┏", "focused border"),
        ] {
            assert!(framed.contains(mark), "{size:?} full figure lacks {what}");
            assert!(
                !bare.contains(mark),
                "{size:?} bare figure has {what}: {mark}"
            );
        }
        assert!(
            !bare.contains("(Tab)"),
            "{size:?}: no Tab hint on a shared panel"
        );
        // The same size, and the lesson is all there.
        assert_eq!(bare.lines().count(), size.1 as usize);
        assert!(bare.starts_with(" step 3/8 "), "{bare}");
        assert!(bare.contains("╭ Lanes "));
        assert!(bare.contains("call_1 read_file"));
    }
    // And in an SVG: no thick border, no ▶ beside a panel name.
    let mut opts = Options::new(ExportFormat::Svg, scratch("bare-svg"));
    opts.framing.bare = true;
    opts.steps = Some((3, 3));
    let svg = text_of(&opts);
    roxmltree::Document::parse(&svg).unwrap();
    assert!(!svg.contains("Space"), "no key hints in the SVG");
}

#[test]
fn one_panel_at_full_size_shows_the_context_at_80x24() {
    let mut opts = Options::new(ExportFormat::Txt, scratch("panel"));
    opts.lang = Lang::En;
    opts.size = (80, 24);
    opts.steps = Some((7, 7));
    // Step 7 is a model call: under the lanes, the figure shows the
    // context; `--lower explanation` shows the explanation instead.
    let plain = text_of(&opts);
    assert!(plain.contains("Call #2 → OpenAI"), "{plain}");
    assert!(plain.contains("[call_1] timeout=30"), "{plain}");
    opts.framing.lower = Some(Panel::Explain);
    let explained = text_of(&opts);
    assert!(!explained.contains("Call #2 → OpenAI"), "{explained}");
    assert!(explained.contains("╭ Explanation ─"), "{explained}");
    // Step 6 is a result: the pairing table.
    opts.framing.lower = None;
    opts.steps = Some((6, 6));
    let result = text_of(&opts);
    assert!(result.contains("╭ call_id pairing ─"), "{result}");
    opts.steps = Some((7, 7));
    opts.framing.panel = Some(Panel::Context);
    let panel = text_of(&opts);
    assert!(panel.contains("Call #2 → OpenAI"), "{panel}");
    assert!(panel.contains("[call_1] timeout=30"), "{panel}");
    assert!(panel.contains("Context"));
    assert!(!panel.contains("Lanes"), "one panel only");
    for (panel, word) in [
        (Panel::Lanes, "Environment"),
        (Panel::Pairing, "call_1"),
        (Panel::Explain, "acting"),
    ] {
        opts.framing = Framing {
            bare: true,
            panel: Some(panel),
            keys: false,
            lower: None,
        };
        let text = text_of(&opts);
        assert!(text.contains(word), "{panel:?}: {text}");
        assert!(
            !text.contains("zoomed"),
            "{panel:?}: no zoom tag in a bare figure"
        );
    }
}

#[test]
fn a_strip_puts_the_chosen_steps_side_by_side_in_one_figure() {
    let mut opts = Options::new(ExportFormat::Txt, scratch("strip"));
    opts.lang = Lang::En;
    opts.size = (80, 24);
    opts.steps = Some((3, 5));
    opts.strip = true;
    opts.framing.bare = true;
    let files = export_one(&opts);
    assert_eq!(files.len(), 1);
    assert!(files[0].ends_with("read-config-timeout.en.80x24.bare.steps-03-05.txt"));
    let text = read(&files[0]);
    assert_eq!(text.lines().count(), 24);
    let first = text.lines().next().unwrap();
    let at = |label: &str| {
        first
            .find(label)
            .unwrap_or_else(|| panic!("{label} in {first}"))
    };
    // Each step labelled at the left of its own frame, 82 columns apart.
    assert_eq!(at(" step 3/8 "), 0);
    let col = |label: &str| first[..at(label)].chars().count();
    assert_eq!(col(" step 4/8 "), 82);
    assert_eq!(col(" step 5/8 "), 164);

    // The same strip as an SVG: one figure, three frames wide.
    opts.format = ExportFormat::Svg;
    let svg = read(&export_one(&opts)[0]);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let root = doc.root_element();
    assert_eq!(root.attribute("width"), Some("2460"));
    let title = root
        .children()
        .find(|n| n.has_tag_name("title"))
        .and_then(|n| n.text())
        .unwrap();
    assert!(title.ends_with("step 3–5/8"), "{title}");

    // A strip is a still figure: not a recording or a player.
    for format in [ExportFormat::Cast, ExportFormat::Html] {
        opts.format = format;
        let err = export::export(&opts, |_| {}).unwrap_err();
        assert!(matches!(err, ExportError::BadInput(_)), "{err}");
    }
}

#[test]
fn the_cast_header_has_the_figure_colours() {
    let app = agent_loop_sim::app::App::new(
        agent_loop_sim::load::load("read-config-timeout").unwrap(),
        Lang::En,
        Theme::LIGHT,
    );
    let cast = export::cast(&app, 0..=1, (80, 24), 1.0);
    let header: serde_json::Value = serde_json::from_str(cast.lines().next().unwrap()).unwrap();
    let theme = &header["theme"];
    assert_eq!(theme["fg"], "#1a1a1a");
    assert_eq!(theme["bg"], "#ffffff");
    let palette: Vec<&str> = theme["palette"].as_str().unwrap().split(':').collect();
    assert_eq!(palette.len(), 16);
    assert!(palette.iter().all(|c| c.len() == 7 && c.starts_with('#')));
    assert_eq!(palette[0], "#1a1a1a");
}

#[test]
fn svg_root_names_its_language() {
    for (lang, tag) in [(Lang::Zh, "zh-Hans"), (Lang::En, "en")] {
        let app = agent_loop_sim::app::App::new(
            agent_loop_sim::load::load("read-config-timeout").unwrap(),
            lang,
            Theme::DARK,
        );
        let svg = export::svg(&app, 0, (80, 24));
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let root = doc.root_element();
        assert_eq!(
            root.attribute(("http://www.w3.org/XML/1998/namespace", "lang")),
            Some(tag)
        );
    }
}

#[test]
fn a_size_below_the_minimum_is_refused() {
    let out = scratch("small");
    let dir = out.to_str().unwrap();
    for size in ["59x18", "60x17", "40x10"] {
        let (code, stdout, stderr) =
            run(&["export", "--format", "svg", "--out", dir, "--size", size]);
        assert_eq!(code, 2, "{size}: {stderr}");
        assert_eq!(stdout, "");
        assert!(
            stderr.contains("expected 60..500 columns and 18..300 rows"),
            "{stderr}"
        );
    }
    assert!(!out.exists(), "nothing written");
    let mut opts = Options::new(ExportFormat::Svg, out.clone());
    opts.size = (59, 30);
    let err = export::export(&opts, |_| {}).unwrap_err();
    assert_eq!(
        err.to_string(),
        "export: --size 59x30 is below the minimum; expected at least 60x18"
    );
    opts.size = (60, 18);
    assert_eq!(export_one(&opts).len(), 8, "the minimum itself is fine");
}

#[cfg(unix)]
#[test]
fn a_planted_symlink_is_replaced_never_followed_and_figures_are_replaced() {
    let out = scratch("symlink");
    std::fs::create_dir_all(&out).unwrap();
    let victim = out.join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    let name = out.join("read-config-timeout.zh.step-01.txt");
    std::os::unix::fs::symlink(&victim, &name).unwrap();
    // An old figure of another step is replaced, whole.
    let old = out.join("read-config-timeout.zh.step-02.txt");
    std::fs::write(&old, "old figure ".repeat(10_000)).unwrap();

    let mut opts = Options::new(ExportFormat::Txt, out.clone());
    opts.steps = Some((1, 2));
    let files = export_one(&opts);
    assert_eq!(read(&victim), "keep me", "the link's target is untouched");
    let meta = std::fs::symlink_metadata(&name).unwrap();
    assert!(meta.file_type().is_file(), "the link itself was replaced");
    assert!(read(&files[0]).contains("步骤 1/8"));
    assert!(read(&old).contains("步骤 2/8") && !read(&old).contains("old figure"));
    // No temporary file is left behind.
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "read-config-timeout.zh.step-01.txt",
            "read-config-timeout.zh.step-02.txt",
            "victim.txt"
        ]
    );
}

#[test]
fn a_closed_stdout_neither_panics_nor_stops_the_export() {
    let out = scratch("closed-stdout");
    let mut child = Command::new(BIN)
        .args(["export", "--format", "txt", "--out"])
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The reader goes away at once, like `| head -1` after its line.
    drop(child.stdout.take());
    let result = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "{:?} {stderr}", result.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let count = std::fs::read_dir(&out).unwrap().count();
    assert_eq!(count, 8, "every file is still written");
}

/// The text of row `y` of `buf` within `rect`, a wide character once.
fn row_text(buf: &ratatui::buffer::Buffer, rect: ratatui::layout::Rect, y: u16) -> String {
    let mut line = String::new();
    let mut skip = 0;
    for x in rect.left() + 1..rect.right() - 1 {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        let symbol = buf[(x, y)].symbol();
        skip = unicode_width::UnicodeWidthStr::width(symbol).saturating_sub(1);
        line.push_str(symbol);
    }
    line
}

#[test]
fn a_still_figure_never_opens_the_context_panel_mid_message() {
    use agent_loop_sim::load::CATALOG;
    use ratatui::layout::Rect;
    // A message's first line has its number (`+` when new); under the
    // marker there may also stand an empty row or the divider.
    // (An Anthropic or Responses system prompt has no number: `+   系统`.)
    let first_line = regex::Regex::new(r"^[+ ](\s\d|\d\d|\s\s) \S").unwrap();
    let mut checked = 0;
    for &(name, _) in CATALOG {
        for lang in Lang::ALL {
            let app = common::app(name, lang);
            for (size, bare) in [((120, 40), true), ((120, 40), false), ((80, 24), true)] {
                let framing = Framing {
                    bare,
                    panel: None,
                    keys: !bare,
                    lower: None,
                };
                for index in 0..app.steps() {
                    let frame = export::framed(&app, index, size, framing);
                    let at = agent_loop_sim::frames::at_step_framed(
                        &app, index, size.0, size.1, framing,
                    );
                    let tall = if bare { size.1 + 2 } else { size.1 };
                    let areas = agent_loop_sim::view::areas(&at, Rect::new(0, 0, size.0, tall))
                        .expect("a frame at its size");
                    let Some(&(_, rect, _)) =
                        areas.panels.iter().find(|(p, _, _)| *p == Panel::Context)
                    else {
                        continue;
                    };
                    let marker = i18n::MORE_ABOVE.get(lang);
                    for y in rect.top() + 1..rect.bottom().min(size.1) - 1 {
                        if !row_text(&frame.buffer, rect, y).trim().ends_with(marker) {
                            continue;
                        }
                        let next = row_text(&frame.buffer, rect, y + 1);
                        checked += 1;
                        assert!(
                            next.trim().is_empty()
                                || next.starts_with("──")
                                || first_line.is_match(&next),
                            "{name} {lang:?} {size:?} bare={bare} step {}: the context \
                             opens mid-message under {marker:?}: {next:?}\n{}",
                            index + 1,
                            agent_loop_sim::frames::to_text(&frame.buffer)
                        );
                    }
                }
            }
        }
    }
    assert!(checked > 50, "the marker was seen {checked} times");
}

#[test]
fn the_final_answer_of_the_seed_lesson_shows_from_its_first_line() {
    let mut opts = Options::new(ExportFormat::Txt, scratch("seed-last"));
    opts.scenario = "seed-agent-loop".into();
    opts.framing.bare = true;
    opts.steps = Some((25, 25));
    opts.lang = Lang::En;
    let en = text_of(&opts);
    assert!(
        en.contains(" assistant completed: evidence toy:T1,"),
        "{en}"
    );
    opts.lang = Lang::Zh;
    opts.framing.bare = false;
    for keys in [false, true] {
        opts.framing.keys = keys;
        let zh = text_of(&opts);
        assert!(zh.contains(" 助手 completed：证据 toy:T1"), "{zh}");
        let lines: Vec<&str> = zh.lines().collect();
        let marker = lines
            .iter()
            .position(|l| l.contains("↑ 上方还有│"))
            .unwrap();
        assert!(
            !lines[marker + 1].contains("│                  未授权"),
            "{zh}"
        );
    }
}

/// A frame's text with each panel border (and the spaces before it) as
/// one `|`, so a note wrapped at a border can be found.
fn bordered(text: &str) -> String {
    regex::Regex::new(r" *[│┃]")
        .unwrap()
        .replace_all(text, "|")
        .into_owned()
}

/// Texts that name a key: the footer's hints and the panels' own.
fn key_mentions(lang: Lang) -> Vec<String> {
    let mut marks: Vec<String> = agent_loop_sim::keymap::footer_hints(lang)
        .into_iter()
        .map(|(k, l)| format!("{k} {l}"))
        .collect();
    marks.extend(
        // A note may wrap: its opening is enough.
        [
            "(scroll ↑)",
            "（↑ 滚动）",
            "(f shows",
            "（f 展",
            "(Tab)",
            " · z]",
        ]
        .map(String::from),
    );
    marks
}

#[test]
fn still_figures_and_casts_name_no_key_unless_asked() {
    use agent_loop_sim::load::CATALOG;
    let mut seen_in_terminal = std::collections::BTreeSet::new();
    for &(name, _) in CATALOG {
        for lang in Lang::ALL {
            let app = common::app(name, lang);
            let marks = key_mentions(lang);
            for size in [(120, 40), (80, 24)] {
                for index in 0..app.steps() {
                    for panel in [None, Some(Panel::Context)] {
                        for bare in [false, true] {
                            let framing = Framing {
                                bare,
                                panel,
                                keys: false,
                                lower: None,
                            };
                            let frame = export::framed(&app, index, size, framing);
                            let text = bordered(&agent_loop_sim::frames::to_text(&frame.buffer));
                            for mark in &marks {
                                assert!(
                                    !text.contains(mark.as_str()),
                                    "{name} {lang:?} {size:?} step {} {framing:?}: {mark:?}\n{text}",
                                    index + 1
                                );
                            }
                        }
                    }
                    // With --keys: the terminal, hints and all.
                    let keys = Framing {
                        keys: true,
                        ..Framing::default()
                    };
                    let frame = export::framed(&app, index, size, keys);
                    let text = agent_loop_sim::frames::to_text(&frame.buffer);
                    // The terminal showing, under the lanes, the panel the
                    // figure picks for the step.
                    let mut at = agent_loop_sim::frames::at_step(&app, index, size.0, size.1);
                    at.lower = Some(agent_loop_sim::view::panel_of_step(
                        &app.trace().steps[index].kind,
                    ));
                    let screen = agent_loop_sim::frames::to_text(&agent_loop_sim::frames::render(
                        &at, size.0, size.1,
                    ));
                    assert_eq!(text, screen, "{name} {lang:?} {size:?} step {}", index + 1);
                    let text = bordered(&text);
                    for mark in &marks {
                        if text.contains(mark.as_str()) {
                            seen_in_terminal.insert(mark.clone());
                        }
                    }
                }
            }
        }
    }
    // The marks are real: the terminal shows each of the panels' own.
    for mark in [
        "(scroll ↑)",
        "（↑ 滚动）",
        "(f shows",
        "（f 展",
        "(Tab)",
        "q quit",
    ] {
        assert!(seen_in_terminal.contains(mark), "{mark} never on screen");
    }
    // A cast: no key works in it, none is named.
    let out = scratch("cast-keys");
    for (keys, expect) in [(false, false), (true, true)] {
        let mut opts = Options::new(ExportFormat::Cast, out.clone());
        opts.lang = Lang::En;
        opts.scenario = "seed-agent-loop".into();
        opts.framing.keys = keys;
        let cast = text_of(&opts);
        assert_eq!(cast.contains("q quit"), expect, "keys {keys}");
        assert_eq!(cast.contains("(scroll ↑)"), expect, "keys {keys}");
    }
}

#[test]
fn the_readme_examples_write_distinct_files() {
    let readme = include_str!("../docs/figures.md");
    let section = readme
        .split("## Figures for your notes")
        .nth(1)
        .and_then(|s| s.split("Each file is printed").next())
        .expect("docs/figures.md's figure section");
    let out = scratch("readme");
    let dir = out.join("figures");
    let mut written: Vec<String> = Vec::new();
    let mut commands = 0;
    for line in section.lines() {
        let Some(command) = line.trim().strip_prefix("agent-loop-sim ") else {
            continue;
        };
        let command = command.split(" #").next().unwrap();
        let args: Vec<&str> = command
            .split_whitespace()
            .map(|a| {
                if a == "figures" {
                    dir.to_str().unwrap()
                } else {
                    a
                }
            })
            .collect();
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, 0, "{command}: {stderr}");
        written.extend(stdout.lines().map(String::from));
        commands += 1;
    }
    assert!(commands >= 10, "{commands} example commands");
    let mut unique = written.clone();
    unique.sort();
    unique.dedup();
    let on_disk = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(
        unique.len(),
        written.len(),
        "a name written twice: {written:#?}"
    );
    assert_eq!(on_disk, written.len(), "every file written is still there");
}

#[test]
fn the_player_alone_has_no_heading_about_or_glossary_and_states_its_ranges() {
    let out = scratch("player-only");
    let mut opts = Options::new(ExportFormat::Html, out.clone());
    opts.lang = Lang::En;
    let full = read(&export_one(&opts)[0]);
    opts.player_only = true;
    let files = export_one(&opts);
    assert!(
        files[0].ends_with("read-config-timeout.en.player.html"),
        "{files:?}"
    );
    let alone = read(&files[0]);
    for page in [&full, &alone] {
        // A step slider with the current step, and the dwell's range said.
        assert!(page.contains("<input id=\"jump\" type=\"range\" min=\"1\" max=\"8\""));
        assert!(page.contains("aria-valuetext=\"1/8\""));
        assert!(page.contains("(0.1 to 600 s)"));
        assert_eq!(page.matches("<svg ").count(), 8);
        assert_eq!(page.matches("<article class=\"step\"").count(), 8);
    }
    for part in ["<h1>", "class=\"about\"", "class=\"glossary\""] {
        assert!(full.contains(part), "{part}");
        assert!(!alone.contains(part), "{part}");
    }
    // Only for html.
    let (code, _, stderr) = run(&[
        "export",
        "--format",
        "svg",
        "--player-only",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("expected --format html"), "{stderr}");
}

#[test]
fn a_gif_has_one_frame_per_step_the_dwell_as_delay_and_a_pause_at_the_end() {
    let out = scratch("gif");
    let mut opts = Options::new(ExportFormat::Gif, out.clone());
    opts.scale = export::GIF_SCALE_DEFAULT;
    opts.dwell = 1.5;
    opts.lang = Lang::En;
    let files = match export::export(&opts, |_| {}) {
        Ok(files) => files,
        Err(ExportError::Missing(e)) => {
            common::missing_tool("gif", &e.to_string());
            return;
        }
        Err(e) => panic!("{e}"),
    };
    assert_eq!(files.len(), 1);
    assert!(
        files[0].ends_with("read-config-timeout.en.1.5s.gif"),
        "{files:?}"
    );
    let bytes = std::fs::read(&files[0]).unwrap();
    assert!(bytes.len() < 1024 * 1024, "{} bytes", bytes.len());
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes.as_slice()).unwrap();
    assert_eq!((decoder.width(), decoder.height()), (1220, 820));
    assert_eq!(decoder.repeat(), gif::Repeat::Infinite);
    let mut delays = Vec::new();
    let mut first = None;
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        delays.push(frame.delay);
        first.get_or_insert_with(|| frame.buffer.to_vec());
    }
    assert_eq!(delays, vec![150, 150, 150, 150, 150, 150, 150, 450]);
    // The first frame is the figure: the dark page, with lighter text.
    let rgba = first.unwrap();
    let light = rgba.chunks(4).filter(|p| p[0] > 180 && p[1] > 180).count();
    assert!(light > 1000, "{light} light pixels");
    assert_eq!(
        &rgba[..3],
        &[0x1f, 0x22, 0x28][..],
        "the page colour at the corner"
    );
    // Not with --strip.
    opts.strip = true;
    assert!(matches!(
        export::export(&opts, |_| {}),
        Err(ExportError::BadInput(_))
    ));
}
