//! Helpers shared by the test files: the binary and how to run it, the
//! insta settings of every snapshot, and the app opened on a scenario.
//! (Each test file compiles this module on its own and uses a part of it.)
#![allow(dead_code)]

use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

#[path = "../../benches/support/long_scenario.rs"]
pub mod long_scenario;

pub const BIN: &str = env!("CARGO_BIN_EXE_agent-loop-sim");

/// What a run of the binary printed, and how it ended.
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// The binary, run from the crate root without colour, stdin empty.
pub fn command(args: &[&str]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::null());
    cmd
}

/// Run the binary from the crate root; fail (instead of hanging) after 30 s.
pub fn run(args: &[&str]) -> Output {
    run_command(command(args), args)
}

/// Wait for a child of `run`-like tests, killing it after 30 s.
pub fn wait(child: &mut std::process::Child, args: &[&str]) -> ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("agent-loop-sim {args:?} did not finish within 30 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

mod ci;
pub use ci::in_ci;

/// A tool that a test needs (a browser, a font, python3, node…) is missing.
/// Outside CI the test is skipped with a notice on stderr; under `CI=true` it
/// fails, so CI never passes a test that did not run (`.ci/run` installs
/// every tool its tests need). Call it, then `return`.
pub fn missing_tool(test: &str, why: &str) {
    assert!(
        !in_ci(),
        "{test}: {why}. With CI set a missing tool fails: .ci/run installs it"
    );
    // Straight to stderr, not eprintln!: the test harness shows it even
    // when the test passes, so a skip is seen in a plain `cargo test`.
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
}

/// A scenario file under the test's temporary folder; its path.
pub fn scenario_file(name: &str, json: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, json).unwrap();
    path.to_str().unwrap().to_string()
}

/// Run a prepared command (see `command`) with the same timeout as `run`.
pub fn run_command(mut cmd: Command, args: &[&str]) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || std::io::read_to_string(&mut out).unwrap());
    let err = std::thread::spawn(move || std::io::read_to_string(&mut err).unwrap());
    let status = wait(&mut child, args);
    Output {
        code: status.code().expect("exited, not killed by a signal"),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// The insta settings of every snapshot: the top-level `snapshots/` folder,
/// names exactly as the test gives them (no module prefix), no expression.
pub fn snapshot_settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../snapshots");
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s
}

/// A shipped scenario, opened in the app in one language, dark theme.
pub fn app(name: &str, lang: agent_loop_sim::scenario::Lang) -> agent_loop_sim::app::App {
    app_themed(name, lang, agent_loop_sim::theme::Theme::DARK)
}

/// A shipped scenario, opened in the app in one language and theme.
pub fn app_themed(
    name: &str,
    lang: agent_loop_sim::scenario::Lang,
    theme: agent_loop_sim::theme::Theme,
) -> agent_loop_sim::app::App {
    agent_loop_sim::app::App::new(agent_loop_sim::load::load(name).unwrap(), lang, theme)
}

/// The default scenario's text with `edits` (old, new) applied, as a file.
pub fn edited_default(name: &str, edits: &[(&str, &str)]) -> String {
    let mut text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/read-config-timeout.json"),
    )
    .unwrap();
    for (old, new) in edits {
        assert!(text.contains(old), "{old:?} in the default scenario");
        text = text.replacen(old, new, 1);
    }
    scenario_file(name, &text)
}

/// A shipped scenario's JSON, to change a copy of it.
pub fn shipped_json(name: &str) -> serde_json::Value {
    let (_, source) = agent_loop_sim::load::CATALOG
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("{name} is shipped"));
    serde_json::from_str(source).unwrap()
}

/// Every fault of a scenario given as JSON, as `check` prints them.
pub fn faults_of(file: &str, scenario: &serde_json::Value) -> Vec<String> {
    let bytes = serde_json::to_vec_pretty(scenario).unwrap();
    let faults = match agent_loop_sim::load::prepare_all(file, &bytes) {
        Ok(loaded) => loaded.faults,
        Err(faults) => faults,
    };
    faults.iter().map(|f| f.to_string()).collect()
}

/// An HTML player's page with its packed steps (a run of more than 100
/// steps: gzip blocks in base64, see `export/html.rs`) unpacked after it,
/// so a test reads every step's figure and words as text.
pub fn unpacked_html(page: &str) -> String {
    use base64::Engine as _;
    use std::io::Read as _;
    let mut out = page.to_string();
    for block in page.split("class=\"packed\">").skip(1) {
        let data = block.split('<').next().unwrap_or_default();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(data)
            .expect("a packed block is base64");
        let mut text = String::new();
        flate2::read::GzDecoder::new(bytes.as_slice())
            .read_to_string(&mut text)
            .expect("a packed block is gzip of UTF-8");
        out.push_str(&text.replace('\0', "\n"));
    }
    out
}

/// A transcript summary's counts, in the order the tests compare them:
/// model replies, tool calls, paired, errors, parallel groups, unanswered,
/// orphans.
pub fn summary_counts(summary: &serde_json::Value) -> [u64; 7] {
    [
        "model_replies",
        "tool_calls",
        "paired",
        "errors",
        "parallel_groups",
        "unanswered",
        "orphans",
    ]
    .map(|k| summary[k].as_u64().unwrap())
}
