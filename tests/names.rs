//! One name per figure: exports of different runs or settings into one
//! folder never write one name twice (issue 38 item 1), and a name says
//! where its run came from.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("names-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The file names one export wrote (as it lists them), with `out` as `--out`.
fn export(out: &Path, args: &[&str]) -> Vec<String> {
    let mut all: Vec<&str> = vec!["export", "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let run = common::run(&all);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    run.stdout
        .lines()
        .map(|l| {
            Path::new(l)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

/// Each export's names, checked to be new: no export writes a name that
/// an earlier one (of another run or setting) wrote.
fn all_distinct(out: &Path, exports: &[Vec<&str>]) -> BTreeMap<String, Vec<String>> {
    let mut by: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for args in exports {
        let names = export(out, args);
        assert!(!names.is_empty(), "{args:?} wrote nothing");
        let key = args.join(" ");
        for name in &names {
            if let Some(earlier) = seen.insert(name.clone(), key.clone()) {
                panic!("{name} written by `{earlier}` and again by `{key}`");
            }
        }
        by.insert(key, names);
    }
    let on_disk = std::fs::read_dir(out).unwrap().count();
    assert_eq!(on_disk, seen.len(), "every file written is still there");
    by
}

#[test]
fn provider_language_and_panel_are_in_every_name() {
    let out = scratch("settings");
    let by = all_distinct(
        &out,
        &[
            vec!["--format", "txt", "--steps", "3"],
            vec!["--format", "txt", "--steps", "3", "--provider", "anthropic"],
            vec!["--format", "txt", "--steps", "3", "--provider", "responses"],
            vec!["--format", "requests"],
            vec!["--format", "requests", "--lang", "en"],
            vec!["--format", "requests", "--provider", "anthropic"],
            vec!["--format", "svg", "--steps", "3", "--panel", "context"],
            vec!["--format", "svg", "--steps", "3", "--panel", "wire"],
        ],
    );
    assert_eq!(
        by["--format requests --provider anthropic"],
        ["read-config-timeout.zh.anthropic.requests.jsonl"]
    );
    assert_eq!(
        by["--format txt --steps 3 --provider anthropic"],
        ["read-config-timeout.zh.anthropic.step-03.txt"]
    );
    assert_eq!(
        by["--format svg --steps 3 --panel wire"],
        ["read-config-timeout.zh.wire.step-03.svg"]
    );
    // What the name says is what the file holds.
    let anthropic =
        std::fs::read_to_string(out.join("read-config-timeout.zh.anthropic.requests.jsonl"))
            .unwrap();
    assert!(
        anthropic.contains("\"provider\":\"anthropic\""),
        "{anthropic}"
    );
}

#[test]
fn files_from_two_folders_or_with_one_scenario_name_write_apart() {
    let root = scratch("sources");
    let lesson = load_lesson();
    let mut other = lesson.clone();
    other["task"]["en"] = "Find the timeout value in config.txt, quickly.".into();
    for (path, body) in [
        ("a/x.json", &lesson),
        ("b/x.json", &other),
        // Same "name" as x.json, in the same folder.
        ("a/y.json", &other),
    ] {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, serde_json::to_string_pretty(body).unwrap()).unwrap();
    }
    let file = |p: &str| root.join(p).to_str().unwrap().to_string();
    let (ax, bx, ay) = (file("a/x.json"), file("b/x.json"), file("a/y.json"));
    let out = root.join("figures");
    let by = all_distinct(
        &out,
        &[
            first_step(Some(&ax)),
            first_step(Some(&bx)),
            first_step(Some(&ay)),
            first_step(None),
        ],
    );
    assert_eq!(
        by[&format!("--format txt --steps 1 --lang en --scenario {ax}")],
        ["a.x.en.step-01.txt"]
    );
    assert_eq!(
        by[&format!("--format txt --steps 1 --lang en --scenario {ay}")],
        ["a.y.en.step-01.txt"]
    );
    let b = std::fs::read_to_string(out.join("b.x.en.step-01.txt")).unwrap();
    assert!(b.contains("quickly"), "{b}");
    let a = std::fs::read_to_string(out.join("a.x.en.step-01.txt")).unwrap();
    assert!(!a.contains("quickly"), "{a}");
}

/// The first step as text, in English, of `scenario` (the default lesson
/// when None).
fn first_step(scenario: Option<&str>) -> Vec<&str> {
    let mut args = vec!["--format", "txt", "--steps", "1", "--lang", "en"];
    if let Some(file) = scenario {
        args.extend(["--scenario", file]);
    }
    args
}

fn load_lesson() -> serde_json::Value {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/read-config-timeout.json"),
    )
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_redacted_export_is_never_replaced_by_the_unredacted_one() {
    let root = scratch("redact");
    let secret = "sk-proj-abcdefghijklmnop1234";
    let transcript = format!(
        r#"[{{"role":"user","content":"deploy with OPENAI_API_KEY={secret}"}},
            {{"role":"assistant","content":"Done."}}]"#
    );
    let out = root.join("figures");
    let mut exports = Vec::new();
    // A name that only a hash sets apart from the other, and one that
    // would read the same once made safe.
    for name in [
        "run-207a6e72.json",
        "run-é.json",
        "run é.json",
        "run_é.json",
    ] {
        std::fs::write(root.join(name), &transcript).unwrap();
        exports.push(root.join(name).to_str().unwrap().to_string());
    }
    let mut args: Vec<Vec<&str>> = Vec::new();
    for file in &exports {
        args.push(vec!["--format", "txt", "--transcript", file]);
    }
    args.push(vec![
        "--format",
        "txt",
        "--transcript",
        &exports[0],
        "--redact",
    ]);
    args.push(vec!["--format", "requests", "--transcript", &exports[0]]);
    args.push(vec![
        "--format",
        "requests",
        "--transcript",
        &exports[0],
        "--redact",
    ]);
    let by = all_distinct(&out, &args);
    let redacted = &by[&format!("--format txt --transcript {} --redact", exports[0])];
    assert!(
        redacted.iter().all(|n| n.contains(".redacted.")),
        "{redacted:?}"
    );
    for name in redacted {
        let text = std::fs::read_to_string(out.join(name)).unwrap();
        assert!(!text.contains("abcdefghijklmnop"), "{name}: {text}");
    }
    let names: Vec<&String> = by.values().flatten().collect();
    assert!(
        names.iter().all(|n| !n.starts_with('-') && n.is_ascii()),
        "{names:?}"
    );
}

/// `p/a/x.json` and `q/a/x.json` give one name (`a.x`); the export of the
/// second does not replace the first's figures but says so (exit code 1),
/// while the first exported again replaces its own.
#[test]
fn a_figure_of_another_source_is_never_replaced() {
    let root = scratch("same-names");
    let lesson = load_lesson();
    let mut other = lesson.clone();
    other["task"]["en"] = "Find the timeout value in config.txt, quickly.".into();
    for (path, body) in [("p/a/x.json", &lesson), ("q/a/x.json", &other)] {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, serde_json::to_string_pretty(body).unwrap()).unwrap();
    }
    let file = |p: &str| root.join(p).to_str().unwrap().to_string();
    let (p, q) = (file("p/a/x.json"), file("q/a/x.json"));
    let out = root.join("figures");
    let figure = out.join("a.x.en.step-01.txt");
    assert_eq!(export(&out, &first_step(Some(&p))), ["a.x.en.step-01.txt"]);
    let first = std::fs::read_to_string(&figure).unwrap();

    let mut args = vec!["export", "--out", out.to_str().unwrap()];
    args.extend(first_step(Some(&q)));
    let refused = common::run(&args);
    assert_eq!(refused.code, 1, "{}", refused.stderr);
    for said in [
        "a.x.en.step-01.txt",
        "../p/a/x.json",
        "../q/a/x.json",
        "own --out",
    ] {
        assert!(
            refused.stderr.contains(said),
            "{said:?} in {}",
            refused.stderr
        );
    }
    assert_eq!(std::fs::read_to_string(&figure).unwrap(), first, "kept");
    assert_eq!(
        std::fs::read_dir(&out).unwrap().count(),
        1,
        "nothing left behind"
    );

    // Its own source replaces it; so does any source a file by another
    // hand (no mark), as before.
    assert_eq!(export(&out, &first_step(Some(&p))), ["a.x.en.step-01.txt"]);
    std::fs::remove_file(&figure).unwrap();
    std::fs::write(&figure, "notes of my own").unwrap();
    assert_eq!(export(&out, &first_step(Some(&q))), ["a.x.en.step-01.txt"]);
    let second = std::fs::read_to_string(&figure).unwrap();
    assert!(second.contains("quickly"), "{second}");
}

#[test]
fn slides_and_videos_are_named_by_their_settings() {
    let out = scratch("slides");
    let by = all_distinct(
        &out,
        &[
            vec!["--format", "slides"],
            vec!["--format", "slides", "--theme", "light", "--steps", "2-4"],
            vec!["--format", "html"],
            vec!["--format", "slides", "--lang", "en", "--size", "80x24"],
        ],
    );
    assert_eq!(
        by["--format slides"],
        ["read-config-timeout.zh.slides.html"]
    );
    assert_eq!(
        by["--format slides --theme light --steps 2-4"],
        ["read-config-timeout.zh.light.steps-02-04.slides.html"]
    );
    assert_eq!(
        by["--format slides --lang en --size 80x24"],
        ["read-config-timeout.en.80x24.slides.html"]
    );
}
