//! A synthetic scenario with many rules and many calls per reply: `rules`
//! rules the scripted model tries in order at every model call, none of
//! which ever holds but the last, which reads 8 files in one reply until
//! the budget of 10,000 model calls runs out (190,002 steps). Half the
//! rules look for a tool result, half for a text. Shared by
//! `benches/load.rs` and the tests.

pub const CALLS_PER_REPLY: usize = 8;
pub const BUDGET: u32 = 10_000;

/// The scenario as compact JSON (10,000 rules stay under the 1 MiB limit).
pub fn json(rules: usize) -> String {
    let text = |s: &str| serde_json::json!({ "zh": s, "en": s });
    let mut model: Vec<serde_json::Value> = (0..rules.saturating_sub(1))
        .map(|i| {
            let when = if i % 2 == 0 {
                serde_json::json!({ "has_result": { "tool": "read_file", "args": { "path": format!("m{i}") } } })
            } else {
                serde_json::json!({ "contains": format!("n{i}") })
            };
            serde_json::json!({ "when": when, "say": text("x") })
        })
        .collect();
    let calls: Vec<serde_json::Value> = (0..CALLS_PER_REPLY)
        .map(|i| serde_json::json!({ "tool": "read_file", "args": { "path": format!("f{i}") } }))
        .collect();
    model.push(serde_json::json!({ "say": text("again"), "calls": calls }));
    let files: serde_json::Map<String, serde_json::Value> = (0..CALLS_PER_REPLY)
        .map(|i| (format!("f{i}"), format!("line {i}").into()))
        .collect();
    let scenario = serde_json::json!({
        "name": "many-rules",
        "title": text("Many rules"),
        "task": text("Read the files, again and again."),
        "about": { "why": text("Load time."), "how": text("Rules."), "cost": text("Rules x messages."), "check": text("Fast.") },
        "files": files,
        "tools": [{ "name": "read_file", "description": text("Read a file"), "params": ["path"] }],
        "budget": BUDGET,
        "model": model,
        "expect": "budget_exhausted"
    });
    serde_json::to_string(&scenario).expect("a JSON value always serializes")
}

/// A scenario of `rules` rules each of which fires once (`once`): rule i
/// reads file i (there is none: an error result), so the run makes
/// `rules` tool calls, one per model call, and its output grows linearly
/// with the number of rules. The shape of the
/// hostile `transcript` input of issue 39; 10,000 rules stay under the
/// 1 MiB limit.
#[allow(dead_code)] // Not every bench or test that shares this file uses it.
pub fn once_each(rules: usize) -> String {
    let text = |s: &str| serde_json::json!({ "zh": s, "en": s });
    let mut model: Vec<serde_json::Value> = (0..rules)
        .map(|i| {
            let file =
                serde_json::json!({ "tool": "read_file", "args": { "path": format!("f{i}") } });
            serde_json::json!({ "once": true, "calls": [file] })
        })
        .collect();
    model.push(serde_json::json!({ "say": text("done") }));
    // No files: each read is an error result, and the disk line stays
    // empty, so the text of each step does not grow with the rules.
    let files = serde_json::Map::new();
    let scenario = serde_json::json!({
        "name": "once-each",
        "title": text("Each rule once"),
        "task": text("Read every file once."),
        "about": { "why": text("Length."), "how": text("Rules."), "cost": text("Steps."), "check": text("Linear.") },
        "files": files,
        "tools": [{ "name": "read_file", "description": text("Read a file"), "params": ["path"] }],
        // The budget's limit is 10,000 calls: 10,000 rules end on it.
        "budget": (rules as u32 + 1).min(BUDGET),
        "model": model,
        "expect": if rules < BUDGET as usize { "completed" } else { "budget_exhausted" }
    });
    serde_json::to_string(&scenario).expect("a JSON value always serializes")
}
