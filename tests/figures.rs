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
        assert!(html.len() < 300 * 1024, "{} bytes", html.len());

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
            Lang::En => ("en", "step 3/8 · The model proposes call_1"),
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
    assert!(html.contains("var total = 3, first = 3, of = 8;"));
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
    // package to install (never a figure of empty boxes).
    opts.lang = Lang::Zh;
    match export::export(&opts, |_| {}) {
        Ok(files) => assert_eq!(files.len(), 1),
        Err(ExportError::Missing(m)) => assert!(m.contains("fonts-noto-cjk"), "{m}"),
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
        let framed = text_of(&opts);
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
    // Without --panel the context panel is not in an 80x24 figure.
    let plain = text_of(&opts);
    assert!(!plain.contains("Call #2 → OpenAI"), "{plain}");
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
    assert!(files[0].ends_with("read-config-timeout.en.steps-03-05.txt"));
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
