//! The one test of whether the tests run in CI, shared by `tests/common`,
//! the tap harness and the unit tests in `src/` (each includes this file).

/// Whether the tests run in CI: `CI` set, and not to `false` or `0`
/// (`.ci/run` runs with `CI=true`, as insta reads it too).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}
