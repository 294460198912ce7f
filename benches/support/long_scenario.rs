//! A synthetic long scenario for benchmarks: a model that keeps reading the
//! notes for a date that is not there, until the host's budget of model
//! calls runs out. Shared by `benches/render.rs` and
//! `examples/long_scenario.rs` (which prints it, for the real binary).

/// The scenario as JSON, with a budget of `calls` model calls. Its trace has
/// `5 * calls + 2` steps and ends `budget_exhausted`.
pub fn json(calls: u32) -> String {
    with_files(calls, 0)
}

/// `json(calls)` with `files` more files in the workspace
/// (`src/file-00001.rs`, …), which the model never reads: the disk line
/// of the context panel lists them.
#[allow(dead_code)] // The example prints `json` only.
pub fn with_files(calls: u32, files: usize) -> String {
    let text = |zh: &str, en: &str| serde_json::json!({ "zh": zh, "en": en });
    let scenario = serde_json::json!({
        "name": "long-reader",
        "title": text("一直在读的模型", "A model that keeps reading"),
        "task": text(
            "在会议记录里找出发布日期。",
            "Find the release date in the meeting notes."
        ),
        "conditions": [text(
            "为基准测试构造：记录里没有日期，模型每次都再读一遍，直到预算用尽。",
            "Made for benchmarks: the notes hold no date, so the model reads them again and again until the budget runs out."
        )],
        "about": {
            "why": text("长轨迹。", "A long trace."),
            "how": text("预算。", "The budget."),
            "cost": text("每次调用。", "Every call."),
            "check": text("预算用尽。", "The budget is used up.")
        },
        "files": {
            "notes/today.md": "Stand-up. Nothing about a release yet.",
            "notes/release.md": "release date: 2025-06-01"
        },
        "tools": [{
            "name": "read_file",
            "description": text("读取工作区中的一个文件", "Read a file in the workspace"),
            "params": ["path"]
        }],
        "budget": calls,
        "model": [
            {
                // Never holds: the model never reads release.md. It makes the
                // engine look for a paired result on every call.
                "when": { "has_result": { "tool": "read_file", "args": { "path": "notes/release.md" } } },
                "say": text("找到了。", "Found it.")
            },
            {
                "when": { "lacks": "release date:" },
                "say": text("还没找到日期，再读一遍记录。", "No date yet; reading the notes again."),
                "calls": [{ "tool": "read_file", "args": { "path": "notes/today.md" } }]
            },
            { "say": text("找到了。", "Found it.") }
        ],
        "expect": "budget_exhausted"
    });
    let mut scenario = scenario;
    for k in 1..=files {
        scenario["files"][format!("src/file-{k:05}.rs")] = "fn main() {}".into();
    }
    serde_json::to_string_pretty(&scenario).expect("a JSON value always serializes")
}
