//! `export --embed-fonts`: every character a figure draws is in a font the
//! figure carries, the fonts parse, the HTML player carries them once, and
//! a machine without a CJK font is told what to install. Chromium's use of
//! the embedded faces and print-to-PDF are in `tests/browser.rs`.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use base64::Engine as _;
use skrifa::MetadataProvider;

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("embed-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The `@font-face` rules of `css`: family → the characters its faces map.
fn embedded_faces(css: &str) -> BTreeMap<String, BTreeSet<char>> {
    let mut faces: BTreeMap<String, BTreeSet<char>> = BTreeMap::new();
    for rule in css.split("@font-face").skip(1) {
        let family = rule
            .split("font-family: '")
            .nth(1)
            .and_then(|r| r.split('\'').next())
            .expect("a family name")
            .to_string();
        let data = rule
            .split(";base64,")
            .nth(1)
            .and_then(|r| r.split(')').next())
            .expect("a data: URL");
        let font = base64::engine::general_purpose::STANDARD
            .decode(data)
            .expect("base64");
        assert!(
            font.len() > 1000,
            "{family}: a font of {} bytes",
            font.len()
        );
        let parsed = skrifa::FontRef::new(&font).unwrap_or_else(|e| panic!("{family}: {e}"));
        let chars = faces.entry(family).or_default();
        chars.extend(
            parsed
                .charmap()
                .mappings()
                .filter_map(|(c, _)| char::from_u32(c)),
        );
    }
    faces
}

/// The characters the SVG draws as text (word spaces aside).
fn drawn(svg: &roxmltree::Document<'_>) -> BTreeSet<char> {
    svg.descendants()
        .filter(|n| n.has_tag_name("tspan"))
        .filter_map(|n| n.text())
        .flat_map(str::chars)
        .filter(|c| !c.is_whitespace())
        .collect()
}

fn export(args: &[&str]) -> common::Output {
    common::run(args)
}

#[test]
fn an_embedded_svg_carries_a_font_for_every_character_it_draws() {
    for lang in ["zh", "en"] {
        let out = scratch(&format!("svg-{lang}"));
        let dir = out.to_str().unwrap();
        let run = export(&[
            "--lang",
            lang,
            "export",
            "--format",
            "svg",
            "--steps",
            "7",
            "--embed-fonts",
            "--out",
            dir,
        ]);
        if run.code != 0 {
            // Only a machine without a CJK font may refuse, and it says why.
            assert_eq!(lang, "zh", "{}", run.stderr);
            assert!(run.stderr.contains("fonts-noto-cjk"), "{}", run.stderr);
            common::missing_tool(
                "an_embedded_svg_carries_a_font_for_every_character_it_draws",
                &format!("the Chinese SVG is not checked: {}", run.stderr.trim()),
            );
            continue;
        }
        let file = PathBuf::from(run.stdout.trim());
        let text = std::fs::read_to_string(&file).unwrap();
        let svg = roxmltree::Document::parse(&text).expect("the SVG is XML");
        let style = svg
            .descendants()
            .find(|n| n.has_tag_name("style"))
            .and_then(|n| n.text())
            .expect("a <style> with the fonts");
        let faces = embedded_faces(style);
        assert!(!faces.is_empty(), "{lang}: no @font-face");
        // The text names the embedded faces first.
        let family = svg
            .descendants()
            .find_map(|n| n.attribute("font-family"))
            .unwrap();
        let first = faces.keys().map(|f| format!("'{f}'")).collect::<Vec<_>>();
        assert!(family.starts_with("'Embedded "), "{family}");
        for f in &first {
            assert!(family.contains(f.as_str()), "{f} not in {family}");
        }
        // Every character drawn is in one of them.
        let all: BTreeSet<char> = faces.values().flatten().copied().collect();
        let missing: Vec<char> = drawn(&svg).difference(&all).copied().collect();
        assert!(
            missing.is_empty(),
            "{lang}: no embedded glyph for {missing:?}"
        );
        if lang == "zh" {
            assert!(all.contains(&'模') && all.contains(&'型'));
        }
        // A subset, not the whole font: the figure stays a figure.
        assert!(text.len() < 600_000, "{lang}: {} bytes", text.len());
    }
}

#[test]
fn the_html_player_carries_the_fonts_once_for_every_frame() {
    let out = scratch("html");
    let dir = out.to_str().unwrap();
    let run = export(&[
        "--lang",
        "en",
        "export",
        "--format",
        "html",
        "--embed-fonts",
        "--out",
        dir,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let page = std::fs::read_to_string(run.stdout.trim()).unwrap();
    let head = &page[..page.find("</head>").unwrap()];
    assert_eq!(
        page.matches("@font-face").count(),
        head.matches("@font-face").count(),
        "@font-face only in the page's head, not in each frame"
    );
    let faces = embedded_faces(head);
    assert!(!faces.is_empty());
    // The page's security policy lets in fonts from data: URLs, nothing else.
    assert!(
        head.contains("default-src 'none'") && head.contains("font-src data:"),
        "{head:.400}"
    );
    // Each frame's text names the embedded faces first.
    let frames = page.matches("<g font-family=\"'Embedded ").count();
    assert_eq!(frames, 8, "every frame uses the embedded faces");
}

#[test]
fn without_the_fonts_the_export_names_the_package_and_writes_nothing() {
    // fontdb reads FONTCONFIG_FILE as fontconfig does: a setup listing one
    // empty folder is a machine with no font at all.
    let out = scratch("no-fonts");
    let empty = out.join("fonts");
    std::fs::create_dir_all(&empty).unwrap();
    let conf = out.join("fonts.conf");
    std::fs::write(
        &conf,
        format!(
            "<?xml version=\"1.0\"?>\n<fontconfig><dir>{}</dir></fontconfig>\n",
            empty.display()
        ),
    )
    .unwrap();
    let figures = out.join("figures");
    let args = [
        "export",
        "--format",
        "svg",
        "--embed-fonts",
        "--steps",
        "2",
        "--out",
        figures.to_str().unwrap(),
    ];
    let mut cmd = common::command(&args);
    cmd.env("FONTCONFIG_FILE", &conf);
    let run = common::run_command(cmd, &args);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("fonts-noto-cjk") && run.stderr.contains("--lang en"),
        "{}",
        run.stderr
    );
    let written = std::fs::read_dir(&figures).map(|d| d.count()).unwrap_or(0);
    assert_eq!(written, 0, "no figure without its fonts");
}

#[test]
fn embedding_fonts_is_for_svg_and_html_only() {
    let out = scratch("png");
    let run = export(&[
        "export",
        "--format",
        "png",
        "--embed-fonts",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("--embed-fonts") && run.stderr.contains("svg or html"),
        "{}",
        run.stderr
    );
}
