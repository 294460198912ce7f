//! Helpers shared by the test files that run the real binary.
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
    let mut child = command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // Read both pipes on threads so a large output cannot block the child.
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

/// A scenario file under the test's temporary folder; its path.
pub fn scenario_file(name: &str, json: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, json).unwrap();
    path.to_str().unwrap().to_string()
}
