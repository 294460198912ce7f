//! The exported request bodies of the shipped lessons, shared by
//! tests/wire_types.rs and tests/wire_contract.rs: every lesson that `list`
//! names, exported with `export --format requests` once per provider.
//! (Included with `#[path]` by those two files only.)
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_agent-loop-sim");
pub const PROVIDERS: [&str; 3] = ["chat", "responses", "anthropic"];

/// One run as one provider receives it: a lesson's exported JSONL.
pub struct Export {
    pub lesson: String,
    pub provider: &'static str,
    pub file: PathBuf,
    /// The requests of the lesson's sub-agent, a run of its own (its file
    /// `….sub-agent.requests.jsonl`), not the lesson's main run.
    pub sub_agent: bool,
}

fn run(args: &[&str]) -> String {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "agent-loop-sim {}: exit {:?}\n{}",
        args.join(" "),
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The shipped lessons, as `list` names them (the first word of each line).
pub fn lessons() -> Vec<String> {
    let names: Vec<String> = run(&["--lang", "en", "list"])
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    assert!(names.len() >= 10, "list named only {names:?}");
    names
}

/// Every shipped lesson exported for every provider into `dir/PROVIDER/`.
pub fn export_all(dir: &Path) -> Vec<Export> {
    let _ = std::fs::remove_dir_all(dir);
    let mut exports = Vec::new();
    for lesson in lessons() {
        for provider in providers_of(&lesson) {
            let out = dir.join(provider);
            run(&[
                "export",
                "--format",
                "requests",
                "--provider",
                provider,
                "--scenario",
                &lesson,
                "--out",
                out.to_str().unwrap(),
            ]);
            // Named by language (zh, the default) and the provider asked for.
            let file = out.join(format!("{lesson}.zh.{provider}.requests.jsonl"));
            assert!(
                file.is_file(),
                "{lesson} ({provider}): no {}",
                file.display()
            );
            exports.push(Export {
                lesson: lesson.clone(),
                provider,
                file,
                sub_agent: false,
            });
            // A lesson with a sub-agent: its requests too, another run.
            let sub = out.join(format!("{lesson}.zh.{provider}.sub-agent.requests.jsonl"));
            if sub.is_file() {
                exports.push(Export {
                    lesson: lesson.clone(),
                    provider,
                    file: sub,
                    sub_agent: true,
                });
            }
        }
    }
    exports
}

/// The providers a lesson can be shown as: all three, but a lesson that
/// names its provider (its explanations describe that API's shapes) is
/// refused in the others.
pub fn providers_of(lesson: &str) -> Vec<&'static str> {
    let source = agent_loop_sim::load::CATALOG
        .iter()
        .find(|(name, _)| *name == lesson)
        .map(|(_, source)| *source)
        .unwrap_or("{}");
    let json: serde_json::Value = serde_json::from_str(source).unwrap();
    // A lesson that names its provider is shown only as that provider.
    match json["provider"].as_str() {
        Some(pinned) => PROVIDERS.into_iter().filter(|p| *p == pinned).collect(),
        None => PROVIDERS.to_vec(),
    }
}

/// The trace of a lesson as `provider` receives it (`trace --provider`), in
/// a language (`en`, `zh`).
pub fn trace(lesson: &str, provider: &str, lang: &str) -> serde_json::Value {
    let printed = run(&["--lang", lang, "--provider", provider, "trace", lesson]);
    serde_json::from_str(&printed).unwrap()
}

/// The `error` text of the step where the provider rejects the request,
/// when the trace's loop ends `rejected`.
pub fn rejection(trace: &serde_json::Value) -> Option<String> {
    if trace["scenario"]["end"] != "rejected" {
        return None;
    }
    let name = &trace["scenario"]["name"];
    let step = trace["steps"]
        .as_array()
        .and_then(|steps| steps.iter().find(|s| s["kind"] == "rejected"))
        .unwrap_or_else(|| panic!("{name}: ends rejected without a rejected step"));
    Some(step["error"].as_str().unwrap_or_default().to_string())
}

/// The calls whose harness never appended them (`drop_calls`): the
/// trace marks each result's arrival `call_dropped`.
pub fn dropped_calls(trace: &serde_json::Value) -> Vec<String> {
    trace["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| s["call_dropped"] == true)
        .filter_map(|s| s["call"].as_str().map(str::to_string))
        .collect()
}

/// The samples in tests/wire/samples/ (hand-written lines in the export's
/// shapes, good ones and deliberately wrong ones), by file name.
pub fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/wire/samples")
        .join(name)
}

pub fn samples() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(sample(""))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files
}
