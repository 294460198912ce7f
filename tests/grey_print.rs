//! Grey print: in a light figure the lanes differ by more than hue. Their
//! colours are three greys apart (`src/theme.rs` tests), and their lines
//! are solid (Model), dashed (Host) and dotted (Tool).

mod common;

use std::path::Path;

/// The stroke colour and dash pattern of every dashed line in step 7 (the
/// host sends the context; all three lifelines are drawn in lane colours).
fn dashes(theme: &str) -> Vec<(String, String)> {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("grey-print-{theme}"));
    let _ = std::fs::remove_dir_all(&out);
    let run = common::run(&[
        "--lang",
        "en",
        "--theme",
        theme,
        "export",
        "--format",
        "svg",
        "--steps",
        "7",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(run.stdout.trim()).unwrap();
    let svg = roxmltree::Document::parse(&text).unwrap();
    let mut found: Vec<(String, String)> = svg
        .descendants()
        .filter_map(|n| {
            Some((
                n.attribute("stroke")?.to_string(),
                n.attribute("stroke-dasharray")?.to_string(),
            ))
        })
        .collect();
    found.sort();
    found.dedup();
    found
}

#[test]
fn light_figures_draw_host_lines_dashed_and_tool_lines_dotted() {
    let light = dashes("light");
    // Host blue dashed (its lifeline and its arrow to the model), Tool red
    // dotted (its lifeline); Model's lines stay solid.
    assert_eq!(
        light,
        vec![
            ("#1f4fb0".to_string(), "5 3".to_string()),
            ("#cc3300".to_string(), "1.5 2".to_string()),
        ]
    );
    // On screens (dark figures) the colours tell the lanes apart.
    assert!(dashes("dark").is_empty());
}
