//! Every exported request body, as the providers' own TypeScript definitions
//! see it: every shipped lesson (`list`) × chat, responses and anthropic,
//! exported with `export --format requests`, then tests/wire/check.mjs
//! writes one .ts file with each body as a constant typed by the official
//! SDK (`openai`, `@anthropic-ai/sdk`, exact versions in
//! tests/wire/package.json) and runs `tsc --strict --noEmit` once over it.
//! An error names the JSONL file, its line and the JSON path.
//!
//! Needs Node and `npm ci` in tests/wire/ (.ci/run does both); without them
//! the tests skip with a notice, and fail under `CI=true`.

mod common;
#[path = "common/wire.rs"]
mod wire;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// `node` and the installed TypeScript, or why not.
fn checker_missing() -> Option<String> {
    let node = Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .status();
    if !node.is_ok_and(|s| s.success()) {
        return Some("node is not runnable (apt-get install nodejs npm)".into());
    }
    let tsc = Path::new(ROOT).join("tests/wire/node_modules/typescript/bin/tsc");
    if !tsc.is_file() {
        return Some(format!(
            "{} is missing (run `npm ci` in tests/wire)",
            tsc.display()
        ));
    }
    None
}

struct Checked {
    code: i32,
    printed: String,
}

/// tests/wire/check.mjs over `files`, writing into `out`.
fn check(files: &[PathBuf], out: &Path) -> Checked {
    let output = Command::new("node")
        .arg("tests/wire/check.mjs")
        .arg("--out")
        .arg(out)
        .args(files)
        .current_dir(ROOT)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    Checked {
        code: output.status.code().unwrap_or(-1),
        printed: format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    }
}

fn lines_in(files: &[PathBuf]) -> usize {
    files
        .iter()
        .map(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .filter(|l| !l.trim().is_empty())
                .count()
        })
        .sum()
}

#[test]
fn every_exported_request_body_type_checks_against_the_official_sdk_types() {
    const TEST: &str = "every_exported_request_body_type_checks_against_the_official_sdk_types";
    if let Some(why) = checker_missing() {
        common::missing_tool(TEST, &why);
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("wire-types");
    let exports = wire::export_all(&dir.join("exports"));
    let files: Vec<PathBuf> = exports.iter().map(|e| e.file.clone()).collect();
    let bodies = lines_in(&files);
    assert!(
        bodies >= files.len(),
        "{bodies} bodies in {} files",
        files.len()
    );
    // Every call answered with a 200 has its response checked too.
    let answered: usize = files
        .iter()
        .map(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .filter(|l| l.contains("\"status\":200"))
                .count()
        })
        .sum();
    assert!(answered * 2 > bodies, "{answered} of {bodies} answered");
    let run = check(&files, &dir.join("ts"));
    assert_eq!(
        run.code, 0,
        "tsc --strict over the SDK types:\n{}",
        run.printed
    );
    // streaming-one-call's lines carry their stream events, checked too.
    let said = format!("{bodies} request bodies, {answered} responses and ");
    let end = format!("stream events type-check ({} files)", files.len());
    assert!(
        run.printed
            .lines()
            .any(|l| l.starts_with(&said) && l.ends_with(&end)),
        "{}",
        run.printed
    );
}

/// The check can fail: each deliberately wrong sample is refused, at its
/// line and JSON path, and the right ones (good, contract-only faults and a
/// rejected run) pass the same run.
#[test]
fn the_sdk_types_refuse_each_wrong_sample_at_its_line_and_path() {
    const TEST: &str = "the_sdk_types_refuse_each_wrong_sample_at_its_line_and_path";
    if let Some(why) = checker_missing() {
        common::missing_tool(TEST, &why);
        return;
    }
    let files: Vec<PathBuf> = wire::samples()
        .into_iter()
        .map(|f| f.strip_prefix(ROOT).unwrap().to_path_buf())
        .collect();
    let run = check(
        &files,
        &Path::new(env!("CARGO_TARGET_TMPDIR")).join("wire-types-samples"),
    );
    assert_eq!(run.code, 1, "{}", run.printed);
    let s = "tests/wire/samples/";
    let expected = [
        // A field name the type does not have.
        "types-field-name.chat.jsonl:2: $.request.messages[3].tool_call_ids (chat): TS2353",
        // Arguments are a JSON string in Chat, not an object.
        "types-arguments-object.chat.jsonl:2: $.request.messages[2].tool_calls[0].function.arguments (chat): TS2322",
        // A Responses function_call_output carries `output`.
        "types-output-field.responses.jsonl:2: $.request.input[3].content (responses): TS2353",
        // A Chat-style tool (nested `function`) in a Responses request.
        "types-chat-tool.responses.jsonl:1: $.request.tools[0].function (responses): TS2353",
        // Anthropic tools take `input_schema`.
        "types-parameters.anthropic.jsonl:1: $.request.tools[0].parameters (anthropic): TS2353",
        // max_tokens is required by Anthropic.
        "types-no-max-tokens.anthropic.jsonl:2: $.request (anthropic): TS2741: Property 'max_tokens' is missing",
        // is_error is a boolean.
        "types-is-error-string.anthropic.jsonl:2: $.request.messages[2].content[0].is_error (anthropic): TS2322",
        // A response: Anthropic stops for `tool_use`, not Chat's `tool_calls`.
        "types-response-stop-reason.anthropic.jsonl:1: $.response.stop_reason (anthropic): TS2322",
    ];
    for e in expected {
        assert!(
            run.printed
                .lines()
                .any(|l| l.starts_with(&format!("{s}{e}"))),
            "no error starting {s}{e}:\n{}",
            run.printed
        );
    }
    for f in &files {
        let name = f.file_name().unwrap().to_str().unwrap();
        let named = run.printed.contains(&format!("{s}{name}:"));
        assert_eq!(
            named,
            name.starts_with("types-"),
            "{name}: only the types- samples may fail here:\n{}",
            run.printed
        );
    }
}

#[test]
fn bad_input_to_the_checker_names_the_file_and_line() {
    const TEST: &str = "bad_input_to_the_checker_names_the_file_and_line";
    if let Some(why) = checker_missing() {
        common::missing_tool(TEST, &why);
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("wire-types-bad");
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "not-json.jsonl",
            "{\"provider\": \"chat\", \"request\": {}}\n\n{nope\n",
            ":3: not JSON",
        ),
        (
            "provider.jsonl",
            "{\"provider\": \"gemini\", \"request\": {}}\n",
            ":1: $.provider: expected one of chat, responses, anthropic, found \"gemini\"",
        ),
        (
            "request.jsonl",
            "{\"provider\": \"chat\", \"request\": [1]}\n",
            ":1: $.request: expected the request body, an object",
        ),
    ];
    for (name, text, expected) in cases {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        let run = check(std::slice::from_ref(&file), &dir.join("ts"));
        assert_eq!(run.code, 2, "{name}: {}", run.printed);
        assert!(
            run.printed
                .contains(&format!("error: {}{expected}", file.display())),
            "{name}: {}",
            run.printed
        );
    }
}

/// The SDK types are those of exact versions, locked: a new SDK release
/// changes what is checked only when someone changes these lines.
#[test]
fn the_sdk_versions_are_exact_and_locked() {
    let read = |name: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(Path::new(ROOT).join("tests/wire").join(name)).unwrap();
        serde_json::from_str(&text).unwrap()
    };
    let package = read("package.json");
    let lock = read("package-lock.json");
    let deps = package["dependencies"].as_object().unwrap();
    for name in ["typescript", "openai", "@anthropic-ai/sdk"] {
        let version = deps[name].as_str().unwrap();
        assert!(
            version.split('.').count() == 3 && version.split('.').all(|p| p.parse::<u32>().is_ok()),
            "{name}: {version} is not an exact version"
        );
        let locked = &lock["packages"][format!("node_modules/{name}")]["version"];
        assert_eq!(locked, version, "{name}: package-lock.json has {locked}");
    }
}
