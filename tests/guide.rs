//! Every example in scenarios/README.md (the teacher's guide) is real: the
//! complete scenarios pass `check`, the files with a mistake put in give
//! exactly the errors the guide prints, every pasted command prints what
//! the guide says, and the strings of partial snippets come from real files.
//! The checks live in tests/guide/check_examples.py, run here with the
//! binary under test (when python3 is there, as for tests/seed.rs).

mod common;

use std::path::Path;
use std::process::Command;

#[test]
fn every_example_in_the_guide_is_real() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = Path::new(env!("CARGO_TARGET_TMPDIR")).join("guide-examples");
    let output = Command::new("python3")
        .arg(root.join("tests/guide/check_examples.py"))
        .arg(root.join("scenarios/README.md"))
        .env("ALS", env!("CARGO_BIN_EXE_agent-loop-sim"))
        .env("GUIDE_RUN", &run)
        .output();
    let output = match output {
        Ok(output) => output,
        Err(e) => {
            common::missing_tool(
                "every_example_in_the_guide_is_real",
                &format!("python3 not runnable ({e}): the guide's examples are not checked"),
            );
            return;
        }
    };
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The checks did run: complete examples and commands were found.
    assert!(report.contains("complete examples checked"), "{report}");
    assert!(report.contains("commands run, output compared"), "{report}");
    assert!(report.trim_end().ends_with("OK"), "{report}");
}
