//! Export: figures of every frame. The frames must be the TUI's own (the
//! text export equals the frame snapshots), the SVG must be valid XML with
//! every glyph at its cell, and every run must give the same bytes.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use agent_loop_sim::cli::ExportFormat;
use agent_loop_sim::export::{self, ExportError, Options};
use agent_loop_sim::frames::{self, Framing};
use agent_loop_sim::load::{self, CATALOG, DEFAULT_SCENARIO};
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::theme::Theme;
use common::{BIN, app_themed as app, snapshot_settings as settings};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

const SIZES: [(u16, u16); 2] = [(120, 40), (80, 24)];
const BOX_DRAWING: &str = "─│┌┐└┘├┤┬┴┼━┃┏┓┗┛┣┫┳┻╋╭╮╰╯╔╗╚╝═║";

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("export-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn options(format: ExportFormat, out: PathBuf) -> Options {
    Options::new(format, out)
}

/// The body of an insta snapshot: everything after the `---` header.
fn snapshot_body(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("snapshots")
        .join(format!("{name}.snap"));
    let snap = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let rest = snap.strip_prefix("---\n").expect("snapshot header");
    let end = rest.find("\n---\n").expect("end of snapshot header");
    rest[end + "\n---\n".len()..].to_string()
}

/// The text of an SVG put back on the grid: each `<tspan>` goes to the cell
/// its x names (the centre of one cell, or of two for a wide character).
fn svg_grid(svg: &str, (w, h): (u16, u16)) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("valid XML");
    let mut rows: Vec<Vec<Option<char>>> = vec![vec![None; w as usize]; h as usize];
    for text in doc.descendants().filter(|n| n.has_tag_name("text")) {
        let y: f64 = text.attribute("y").unwrap().parse().unwrap();
        let row = (y - 15.0) / 20.0;
        assert_eq!(row.fract(), 0.0, "baseline {y} is not on a row");
        for tspan in text.children().filter(|n| n.has_tag_name("tspan")) {
            let x: f64 = tspan.attribute("x").unwrap().parse().unwrap();
            let glyph = tspan.text().unwrap();
            let mut chars = glyph.chars();
            let c = chars.next().unwrap();
            assert_eq!(chars.next(), None, "one character per tspan: {glyph:?}");
            let cells = c.width().unwrap_or(1).max(1) as f64;
            let col = (x - cells * 5.0) / 10.0;
            assert_eq!(
                col.fract(),
                0.0,
                "{c:?} at x={x} is not centred on its cells"
            );
            let slot = &mut rows[row as usize][col as usize];
            assert_eq!(*slot, None, "two glyphs in one cell at {col},{row}");
            *slot = Some(c);
        }
    }
    rows.into_iter()
        .map(|cells| {
            let mut line = String::new();
            let mut skip = 0;
            for cell in cells {
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                let c = cell.unwrap_or(' ');
                skip = c.width().unwrap_or(1).saturating_sub(1);
                line.push(c);
            }
            line.trim_end().to_string()
        })
        .collect()
}

/// The frame's text with the box-drawing characters, which the SVG draws
/// as lines, blanked.
fn text_without_boxes(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| {
            l.chars()
                .map(|c| if BOX_DRAWING.contains(c) { ' ' } else { c })
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect()
}

fn strip_sgr(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("\x1b[") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        let end = after.find('m').expect("SGR ends with m");
        assert!(
            after[..end].chars().all(|c| c.is_ascii_digit() || c == ';'),
            "not an SGR sequence: {:?}",
            &after[..end]
        );
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn svg_of_step_3_matches_its_snapshot() {
    let svg = export::svg(&app(DEFAULT_SCENARIO, Lang::Zh, Theme::DARK), 2, (120, 40));
    settings().bind(|| {
        insta::assert_snapshot!("export__read-config-timeout.zh.step-03.svg", svg);
    });
}

#[test]
fn every_svg_is_valid_xml_with_every_glyph_on_its_cell_in_both_themes() {
    for theme in [Theme::DARK, Theme::LIGHT] {
        for lang in Lang::ALL {
            for size in SIZES {
                let app = app(DEFAULT_SCENARIO, lang, theme);
                for i in 0..app.trace().len() {
                    let svg = export::svg(&app, i, size);
                    let text = export::txt(&app, i, size);
                    assert_eq!(
                        svg_grid(&svg, size),
                        text_without_boxes(&text),
                        "{theme:?} {lang:?} {size:?} step {}",
                        i + 1
                    );
                }
            }
        }
    }
}

#[test]
fn svg_has_a_title_and_a_description_for_alt_text() {
    let app = app(DEFAULT_SCENARIO, Lang::Zh, Theme::LIGHT);
    let svg = export::svg(&app, 2, (120, 40));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let root = doc.root_element();
    assert!(root.has_tag_name(("http://www.w3.org/2000/svg", "svg")));
    assert_eq!(root.attribute("width"), Some("1220"));
    assert_eq!(root.attribute("height"), Some("820"));
    let child = |name: &str| {
        root.children()
            .find(|n| n.has_tag_name(name))
            .and_then(|n| n.text())
            .unwrap_or_else(|| panic!("no <{name}>"))
            .to_string()
    };
    let title = child("title");
    assert!(
        title.starts_with("读取超时配置 · 步骤 3/8 · 模型提出工具调用 call_1"),
        "{title}"
    );
    let desc = child("desc");
    assert!(desc.starts_with("行动方：模型 → 主机\n"), "{desc}");
    assert!(desc.contains("这只是一段数据"), "{desc}");
    // The quotes of the narration are escaped, and parse back.
    assert!(svg.contains("&quot;config.txt&quot;"));
    assert!(desc.contains("\"config.txt\""));
    // CJK fonts are in the stack, and the grid's own font size is set.
    assert!(svg.contains("Noto Sans Mono CJK SC"));
}

#[test]
fn svgs_show_the_call_id_and_chinese_text() {
    let app = app(DEFAULT_SCENARIO, Lang::Zh, Theme::DARK);
    for i in 0..app.trace().len() {
        let svg = export::svg(&app, i, (120, 40));
        let text = svg_grid(&svg, (120, 40)).join("\n");
        assert!(
            text.contains("泳道") && text.contains("读取超时配置"),
            "step {}",
            i + 1
        );
        // call_1 exists from step 3, when the model proposes it.
        assert_eq!(text.contains("call_1"), i >= 2, "step {}", i + 1);
    }
}

#[test]
fn svg_draws_borders_as_shapes_and_colours_from_the_theme() {
    let dark = export::svg(&app(DEFAULT_SCENARIO, Lang::En, Theme::DARK), 4, (120, 40));
    let light = export::svg(&app(DEFAULT_SCENARIO, Lang::En, Theme::LIGHT), 4, (120, 40));
    assert_ne!(dark, light);
    for svg in [&dark, &light] {
        for c in BOX_DRAWING.chars() {
            assert!(!svg.contains(c), "{c} drawn as a glyph");
        }
        assert!(svg.contains("<rect x="), "lines as rectangles");
        assert!(svg.contains("<path d=\"M"), "rounded corners as arcs");
    }
    // The page: dark grey for the screen, white for paper.
    assert!(dark.contains("<rect width=\"1220\" height=\"820\" fill=\"#1f2228\"/>"));
    assert!(light.contains("<rect width=\"1220\" height=\"820\" fill=\"#ffffff\"/>"));
    // Earlier steps are dimmed, the current lane is bold.
    assert!(dark.contains("fill-opacity=\"0.85\"") && light.contains("fill-opacity=\"0.9\""));
    assert!(light.contains("font-weight=\"bold\""));
}

#[test]
fn light_figures_print_on_white_paper() {
    // Every text colour of the light theme must read on white: a contrast
    // of at least 3:1 (WCAG large text), and no pale yellow anywhere.
    let luminance = |(r, g, b): (u8, u8, u8)| {
        let lin = |c: u8| {
            let c = c as f64 / 255.0;
            if c <= 0.03928 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    };
    let white = luminance(Theme::LIGHT.page());
    assert_eq!(Theme::LIGHT.page(), (255, 255, 255));
    let app = app(DEFAULT_SCENARIO, Lang::Zh, Theme::LIGHT);
    for i in 0..app.trace().len() {
        let svg = export::svg(&app, i, (120, 40));
        let doc = roxmltree::Document::parse(&svg).unwrap();
        for text in doc.descendants().filter(|n| n.has_tag_name("text")) {
            let fill = text.attribute("fill").unwrap();
            let rgb = u32::from_str_radix(&fill[1..], 16).unwrap();
            let rgb = ((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8);
            // Reversed text is white on a dark box, which is fine.
            if rgb == (255, 255, 255) {
                continue;
            }
            // Dimmed text is the colour faded towards the paper.
            let alpha: f64 = text
                .attribute("fill-opacity")
                .map_or(1.0, |a| a.parse().unwrap());
            let fade = |c: u8| (c as f64 * alpha + 255.0 * (1.0 - alpha)).round() as u8;
            let rgb = (fade(rgb.0), fade(rgb.1), fade(rgb.2));
            let contrast = (white + 0.05) / (luminance(rgb) + 0.05);
            assert!(
                contrast >= 3.0,
                "step {}: {fill} on white is {contrast:.1}:1",
                i + 1
            );
        }
    }
}

#[test]
fn txt_equals_the_frame_snapshots_and_fits_the_width() {
    for lang in Lang::ALL {
        for (w, h) in SIZES {
            let app = app(DEFAULT_SCENARIO, lang, Theme::DARK);
            assert_eq!(app.trace().len(), 8);
            for i in 0..app.trace().len() {
                let name = format!(
                    "{DEFAULT_SCENARIO}__{w}x{h}__{}__step-{:02}",
                    lang.code(),
                    i + 1
                );
                // With --keys, and the explanation under the lanes where
                // one panel fits there, exactly the terminal's frame.
                let keys = Framing {
                    keys: true,
                    lower: Some(agent_loop_sim::app::Panel::Explain),
                    ..Framing::default()
                };
                // The snapshot holds each cell's look too: the export draws it alike.
                let with_keys =
                    frames::to_styled_text(&export::framed(&app, i, (w, h), keys).buffer);
                let terminal = snapshot_body(&name);
                assert_eq!(with_keys, terminal, "{name}");
                // The frame's rows, without their look.
                let terminal = terminal.split("── look ──").next().unwrap();
                // By default the row of key hints is left out: the status
                // line is the last row, and the panels take the row freed.
                // It keeps the progress, not the program's state.
                let txt = export::txt(&app, i, (w, h));
                assert_eq!(txt.lines().count(), h as usize);
                let (status, shown) = (
                    txt.lines().last().unwrap(),
                    terminal.lines().last().unwrap(),
                );
                let counter = format!(" {}/8", i + 1);
                assert!(
                    status.ends_with(&counter) && shown.ends_with(&counter),
                    "{name}: {status}"
                );
                assert!(
                    !status.contains(agent_loop_sim::i18n::PAUSED.get(lang)),
                    "{name}: {status}"
                );
                let hints = terminal.lines().nth(h as usize - 2).unwrap();
                assert!(hints.contains(" q "), "{name}: {hints}");
                assert!(!txt.contains(hints), "{name}: {txt}");
                for line in txt.lines() {
                    assert!(line.width() <= w as usize, "{name}: {line}");
                }
            }
        }
    }
}

#[test]
fn ansi_is_the_text_with_colours_and_a_reset_on_every_styled_line() {
    for theme in [Theme::DARK, Theme::LIGHT] {
        let app = app(DEFAULT_SCENARIO, Lang::Zh, theme);
        for i in 0..app.trace().len() {
            let ansi = export::ansi(&app, i, (120, 40));
            let txt = export::txt(&app, i, (120, 40));
            assert!(ansi.contains("\x1b[0;1;7"), "bold reversed current step");
            for (a, t) in ansi.lines().zip(txt.lines()) {
                assert_eq!(strip_sgr(a).trim_end(), t);
                if a.contains("\x1b[0;") {
                    assert!(a.ends_with("\x1b[0m"), "no reset at the end of {a:?}");
                }
            }
            assert_eq!(ansi.lines().count(), 40);
        }
    }
    // The lane colours are the named ANSI ones: Model magenta, Host cyan, Tool yellow.
    let ansi = export::ansi(&app(DEFAULT_SCENARIO, Lang::En, Theme::DARK), 4, (120, 40));
    assert!(ansi.contains("\x1b[0;1;35mModel") && ansi.contains("\x1b[0;1;33mTool"));
    assert!(ansi.contains("\x1b[0;1;7;36m[Host]"));
}

/// The SGR parameters in force where `needle` begins on `line`.
fn sgr_before(line: &str, needle: &str) -> Option<String> {
    let at = line.find(needle)?;
    let head = &line[..at];
    let start = head.rfind("\x1b[")?;
    let end = head[start..].find('m')? + start;
    Some(head[start + 2..end].to_string())
}

#[test]
fn ansi_gives_distinct_opaque_call_ids_distinct_colours() {
    for name in ["parallel-calls-anthropic", "malformed-arguments"] {
        let out = scratch(&format!("ansi-ids-{name}"));
        let (code, stdout, stderr) = run(&[
            "--lang",
            "en",
            "--scenario",
            name,
            "export",
            "--format",
            "ansi",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{name}: {stderr}");
        let last = stdout.lines().last().expect("the files written");
        let ansi = std::fs::read_to_string(last.trim()).unwrap();
        let opened = app(name, Lang::En, Theme::DARK);
        // Bold and the bright colours of the call-id palette (theme.rs):
        // cyan, magenta, yellow, green, blue, red.
        let palette = ["96", "95", "93", "92", "94", "91"].map(|c| format!("0;1;{c}"));
        let mut seen = Vec::new();
        for (i, call) in opened.trace().calls.iter().enumerate() {
            for sgr in ansi.lines().filter_map(|l| sgr_before(l, &call.id.0)) {
                if palette.contains(&sgr) {
                    assert_eq!(sgr, palette[i % 6], "{name}: {:?}, call {i}", call.id);
                    seen.push(sgr);
                }
            }
        }
        seen.dedup();
        assert!(seen.len() >= 2, "{name}: two ids in two colours, {seen:?}");
    }
}

#[test]
fn cast_is_asciicast_v2_with_one_marker_per_step() {
    let app = app(DEFAULT_SCENARIO, Lang::Zh, Theme::DARK);
    let cast = export::cast(&app, 0..=7, (120, 40), 1.5);
    let mut lines = cast.lines();
    let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(header["version"], 2);
    assert_eq!(header["width"], 120);
    assert_eq!(header["height"], 40);
    assert_eq!(header["title"], "读取超时配置");
    assert_eq!(header["env"]["TERM"], "xterm-256color");
    assert!(
        header.get("timestamp").is_none(),
        "a timestamp would change every run"
    );
    let events: Vec<serde_json::Value> = lines.map(|l| serde_json::from_str(l).unwrap()).collect();
    let markers: Vec<(f64, &str)> = events
        .iter()
        .filter(|e| e[1] == "m")
        .map(|e| (e[0].as_f64().unwrap(), e[2].as_str().unwrap()))
        .collect();
    assert_eq!(markers.len(), 8);
    assert_eq!(markers[0], (0.0, "步骤 1/8: 用户的任务到达主机"));
    assert_eq!(markers[2].0, 3.0);
    assert!(
        markers[2]
            .1
            .starts_with("步骤 3/8: 模型提出工具调用 call_1")
    );
    assert_eq!(markers[7].0, 10.5);
    // Each step: clear the screen, then the frame, rows joined by \r\n.
    let screens: Vec<&str> = events
        .iter()
        .filter(|e| e[1] == "o")
        .map(|e| e[2].as_str().unwrap())
        .collect();
    assert_eq!(
        screens.len(),
        9,
        "8 screens and a last event that ends the recording"
    );
    for (i, screen) in screens[..8].iter().enumerate() {
        assert!(screen.contains("\x1b[H\x1b[2J"));
        assert_eq!(screen.split("\r\n").count(), 40);
        assert!(screen.contains(&format!("步骤 {}/8", i + 1)));
    }
    // Played in a terminal, each screen replaces the last and shows the frame.
    let mut terminal = vt100::Parser::new(40, 120, 0);
    for (i, screen) in screens[..8].iter().enumerate() {
        terminal.process(screen.as_bytes());
        let txt = export::txt(&app, i, (120, 40));
        assert_eq!(
            terminal.screen().contents(),
            txt.trim_end_matches('\n'),
            "step {}",
            i + 1
        );
        let corner = terminal.screen().cell(0, 1).unwrap();
        assert!(
            corner.bold() && corner.inverse(),
            "the step indicator is bold reversed"
        );
    }
    let times: Vec<f64> = events.iter().map(|e| e[0].as_f64().unwrap()).collect();
    assert!(times.windows(2).all(|t| t[0] <= t[1]));
    assert_eq!(*times.last().unwrap(), 12.0);
}

/// The `export` command removes its temporary file on Ctrl-C or `kill`
/// (tests/hostile.rs); a program exporting through the library keeps its
/// own signals: after an export, SIGINT and SIGTERM still do what they did.
#[test]
fn a_library_export_leaves_the_signal_handlers_alone() {
    let handler = |signal: libc::c_int| {
        // SAFETY: sigaction(2) with no new action only reads the current one.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            assert_eq!(libc::sigaction(signal, std::ptr::null(), &mut old), 0);
            old.sa_sigaction
        }
    };
    let before = [handler(libc::SIGINT), handler(libc::SIGTERM)];
    let out = scratch("signals");
    let files = export::export(&options(ExportFormat::Txt, out), |_| {}).unwrap();
    assert_eq!(files.len(), 8);
    assert_eq!([handler(libc::SIGINT), handler(libc::SIGTERM)], before);
    assert_eq!(before, [libc::SIG_DFL, libc::SIG_DFL]);
}

#[test]
fn every_format_gives_the_same_bytes_on_every_run() {
    for format in [
        ExportFormat::Svg,
        ExportFormat::Txt,
        ExportFormat::Ansi,
        ExportFormat::Cast,
    ] {
        let read = |run: &str| {
            let out = scratch(&format!("same-{format:?}-{run}"));
            let files = export::export(&options(format, out), |_| {}).unwrap();
            let bytes: Vec<(String, Vec<u8>)> = files
                .iter()
                .map(|p| {
                    let name = p.file_name().unwrap().to_string_lossy().into_owned();
                    (name, std::fs::read(p).unwrap())
                })
                .collect();
            bytes
        };
        let (a, b) = (read("a"), read("b"));
        assert!(!a.is_empty());
        assert_eq!(a, b, "{format:?}");
    }
}

#[test]
fn files_are_named_by_scenario_language_and_step() {
    let out = scratch("names");
    let mut heard = Vec::new();
    let mut opts = options(ExportFormat::Txt, out.clone());
    opts.lang = Lang::En;
    opts.steps = Some((2, 4));
    let files = export::export(&opts, |p| heard.push(p.to_path_buf())).unwrap();
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "read-config-timeout.en.step-02.txt",
            "read-config-timeout.en.step-03.txt",
            "read-config-timeout.en.step-04.txt",
        ]
    );
    assert_eq!(heard, files);
    assert!(out.is_dir(), "the folder is created");
    let cast = export::export(&options(ExportFormat::Cast, out), |_| {}).unwrap();
    assert!(cast[0].ends_with("read-config-timeout.zh.cast"));
}

#[test]
fn steps_out_of_range_and_bad_scenarios_are_bad_input() {
    let mut opts = options(ExportFormat::Svg, scratch("bad"));
    opts.steps = Some((2, 9));
    let err = export::export(&opts, |_| {}).unwrap_err();
    assert!(matches!(err, ExportError::BadInput(_)));
    assert_eq!(
        err.to_string(),
        "export: --steps 2-9 is out of range: scenario read-config-timeout has 8 steps; \
         expected steps within 1-8"
    );
    opts.steps = None;
    opts.scenario = "no-such-scenario".into();
    let err = export::export(&opts, |_| {}).unwrap_err();
    assert_eq!(
        err.to_string(),
        load::load("no-such-scenario").unwrap_err().to_string()
    );
    assert!(!opts.out.exists(), "nothing is created for bad input");
}

#[test]
fn every_shipped_scenario_exports_in_every_format() {
    for (name, _) in CATALOG {
        let out = scratch(&format!("catalog-{name}"));
        for format in [
            ExportFormat::Svg,
            ExportFormat::Txt,
            ExportFormat::Ansi,
            ExportFormat::Cast,
        ] {
            let mut opts = options(format, out.clone());
            opts.scenario = name.to_string();
            opts.theme = Theme::LIGHT;
            let files = export::export(&opts, |_| {}).unwrap();
            let steps = load::load(name).unwrap().trace(Lang::Zh).len();
            let expected = if format == ExportFormat::Cast {
                1
            } else {
                steps
            };
            assert_eq!(files.len(), expected, "{name} {format:?}");
            if format == ExportFormat::Svg {
                for f in &files {
                    let svg = std::fs::read_to_string(f).unwrap();
                    roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{f:?}: {e}"));
                }
            }
        }
    }
}

/// The binary with the user's colour setting (not `common::run`'s NO_COLOR).
fn run(args: &[&str]) -> (i32, String, String) {
    let mut cmd = common::command(args);
    cmd.env_remove("NO_COLOR");
    let out = common::run_command(cmd, args);
    (out.code, out.stdout, out.stderr)
}

#[test]
fn the_command_writes_the_files_and_lists_them() {
    let out = scratch("cli");
    let dir = out.join("figures");
    let dir_arg = dir.to_str().unwrap();
    let (code, stdout, stderr) = run(&[
        "export", "--format", "svg", "--out", dir_arg, "--theme", "light", "--steps", "2-3",
    ]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let listed: Vec<&str> = stdout.lines().collect();
    let expected: Vec<String> = ["02", "03"]
        .iter()
        .map(|n| {
            dir.join(format!("read-config-timeout.zh.light.step-{n}.svg"))
                .display()
                .to_string()
        })
        .collect();
    assert_eq!(listed, expected);
    // The same bytes as the library gives, in another process (no
    // hash-map order or clock can creep in).
    let app = app(DEFAULT_SCENARIO, Lang::Zh, Theme::LIGHT);
    assert_eq!(
        std::fs::read_to_string(&expected[1]).unwrap(),
        export::svg(&app, 2, (120, 40))
    );
    // NO_COLOR does not take the colours out of a figure someone asked for.
    let again = Command::new(BIN)
        .args([
            "export", "--format", "svg", "--out", dir_arg, "--theme", "light", "--steps", "3",
        ])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(again.status.success());
    assert_eq!(
        std::fs::read_to_string(&expected[1]).unwrap(),
        export::svg(&app, 2, (120, 40))
    );

    // The other options: language, size, dwell.
    let (code, stdout, _) = run(&[
        "--lang", "en", "export", "--format", "cast", "--out", dir_arg, "--size", "80x24",
        "--dwell", "0.5",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        stdout.trim(),
        dir.join("read-config-timeout.en.80x24.0.5s.cast")
            .display()
            .to_string()
    );
    let cast = std::fs::read_to_string(dir.join("read-config-timeout.en.80x24.0.5s.cast")).unwrap();
    assert!(cast.starts_with("{\"version\":2,\"width\":80,\"height\":24,"));
    assert!(cast.contains("[3.5,\"m\",\"step 8/8: Final answer"));
}

#[test]
fn the_command_reports_bad_input_and_io_errors_clearly() {
    let out = scratch("cli-errors");
    let dir = out.join("figs");
    let dir_arg = dir.to_str().unwrap();
    let (code, stdout, stderr) = run(&[
        "export", "--format", "txt", "--out", dir_arg, "--steps", "9",
    ]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("--steps 9 is out of range") && stderr.contains("1-8"),
        "{stderr}"
    );

    // A bad scenario: the very message `check` prints, and exit code 2.
    let (code, _, stderr) = run(&[
        "export",
        "--format",
        "txt",
        "--out",
        dir_arg,
        "--scenario",
        "nope.json",
    ]);
    let (check_code, _, check_stderr) = run(&["check", "nope.json"]);
    assert_eq!((code, check_code), (2, 2));
    assert_eq!(stderr, check_stderr);
    assert!(!dir.exists());

    // The folder cannot be made: a file is in the way, and it says so.
    // Exit code 1.
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(&dir, "not a folder").unwrap();
    let (code, _, stderr) = run(&["export", "--format", "svg", "--out", dir_arg]);
    assert_eq!(code, 1);
    assert!(
        stderr.starts_with("export: --out ") && stderr.contains(" is a file; expected a folder"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// `export --quiz`: a handout with every question the lesson asks, its
/// choices, and an answer key naming each right choice, as text and as one
/// HTML page; a figure format is refused.
#[test]
fn export_quiz_writes_a_handout_with_an_answer_key() {
    let loaded = load::load("patch-and-test").unwrap();
    let trace = loaded.trace(Lang::En);
    let questions: Vec<_> = (0..trace.len())
        .filter_map(|i| agent_loop_sim::quiz::asked(&loaded, trace, i))
        .collect();
    assert!((3..=6).contains(&questions.len()), "{}", questions.len());
    for format in [ExportFormat::Txt, ExportFormat::Html] {
        let dir = scratch(&format!("quiz-{format:?}"));
        let mut o = options(format, dir.clone());
        o.scenario = "patch-and-test".into();
        o.lang = Lang::En;
        o.quiz = true;
        let paths = export::export(&o, |_| {}).unwrap();
        assert_eq!(paths.len(), 1, "{paths:?}");
        let page = std::fs::read_to_string(&paths[0]).unwrap();
        let (asked, key) = page.split_once("Answer key").expect("an answer key");
        let html = format == ExportFormat::Html;
        let esc = |t: &str| {
            if html {
                t.replace('&', "&amp;")
                    .replace('<', "&lt;")
                    .replace('>', "&gt;")
                    .replace('"', "&quot;")
                    .replace('\'', "&apos;")
            } else {
                t.to_string()
            }
        };
        for (k, q) in questions.iter().enumerate() {
            assert!(asked.contains(&esc(&q.prompt)), "{}", q.prompt);
            for c in &q.choices {
                assert!(asked.contains(&esc(c)), "{c}");
            }
            let line = format!(
                "(step {}) [{}] {}",
                q.step + 1,
                q.answer + 1,
                q.choices[q.answer]
            );
            assert!(key.contains(&esc(&line)), "{k}: {line}");
            // Every answer has a reason: the author's, or the step's own words.
            let why = q
                .why
                .clone()
                .or_else(|| trace.steps[q.step].narration.as_deref().map(str::to_string));
            assert!(key.contains(&esc(&why.unwrap())), "{k}: no reason");
        }
        if format == ExportFormat::Html {
            assert!(page.starts_with("<!DOCTYPE html>") && page.trim_end().ends_with("</html>"));
        }
        // The questions of some steps go to a file of their own, not over
        // the handout of all.
        o.steps = Some((2, 4));
        let some = export::export(&o, |_| {}).unwrap();
        assert_eq!(some.len(), 1, "{some:?}");
        assert_ne!(some[0], paths[0]);
        assert!(
            some[0].to_str().unwrap().contains(".en.steps-02-04.quiz."),
            "{some:?}"
        );
        assert_eq!(
            std::fs::read_to_string(&paths[0]).unwrap(),
            page,
            "the whole handout kept"
        );
    }
    let mut o = options(ExportFormat::Svg, scratch("quiz-svg"));
    o.quiz = true;
    let err = export::export(&o, |_| {}).unwrap_err();
    assert!(
        err.to_string()
            .contains("--quiz writes a printable handout"),
        "{err}"
    );
}
