//! A teacher's plan file (`--plan FILE`): today's lessons in order, as
//! `--lesson` gives them; a file that cannot be read or names nothing is
//! refused before the terminal is taken.

mod common;

use std::path::{Path, PathBuf};

use agent_loop_sim::picker::read_plan;

/// An empty folder of this test's own.
fn folder(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("plan-file")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_plan_lists_names_and_files_relative_to_it_in_order() {
    let dir = folder("names");
    let plan = dir.join("tuesday.txt");
    std::fs::write(
        &plan,
        "# Tuesday, 50 minutes\nread-config-timeout   # warm-up\n\nmine/budget.json\nbudget-exhausted\n",
    )
    .unwrap();
    let lessons = read_plan(&plan).unwrap();
    let mine = dir.join("mine/budget.json").display().to_string();
    assert_eq!(
        lessons,
        ["read-config-timeout", mine.as_str(), "budget-exhausted"]
    );
}

#[test]
fn a_plan_that_cannot_be_used_is_refused_with_exit_2() {
    let dir = folder("refused");
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "# nothing yet\n\n").unwrap();
    let missing = dir.join("missing.txt");
    for (plan, said) in [(&empty, "no lessons in it"), (&missing, "cannot read it")] {
        let out = common::run(&["--plan", plan.to_str().unwrap()]);
        assert_eq!(out.code, 2, "{}", out.stderr);
        let want = format!("--plan {}: {said}", plan.display());
        assert!(out.stderr.contains(&want), "{}", out.stderr);
    }
}
