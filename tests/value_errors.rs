//! `check` reports every wrong value of a file (a wrong type, an unknown
//! field, an unknown name, a missing required field), not only the first
//! serde meets: one per top-level field, list item or map entry, each with
//! its line:column and JSON path, in file order.

mod common;

use common::{edited_default as edited, run};

/// `check FILE`: exit 2, nothing on stdout, and the lines on stderr
/// without the `FILE: ` each starts with.
fn refused(file: &str) -> Vec<String> {
    let out = run(&["check", file]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert_eq!(out.stdout, "");
    out.stderr
        .lines()
        .map(|line| {
            line.strip_prefix(&format!("{file}: "))
                .unwrap_or_else(|| panic!("{line:?} starts with the file"))
                .to_string()
        })
        .collect()
}

const CALLS: &str =
    "\"calls\": [ { \"tool\": \"read_file\", \"args\": { \"path\": \"config.txt\" } } ]";

#[test]
fn three_independent_wrong_values_are_all_reported() {
    let file = edited(
        "three-values.json",
        &[
            (
                "\"params\": [\"path\"]",
                "\"params\": [\"path\"], \"readonly\": true",
            ),
            (
                "\"say\": { \"zh\": \"config.txt 中",
                "\"calls\": 1, \"say\": { \"zh\": \"config.txt 中",
            ),
            ("\"expect\": \"completed\"", "\"expect\": \"done\""),
        ],
    );
    assert_eq!(
        refused(&file),
        [
            "28:36 at tools[0].readonly: unknown field \"readonly\" (unknown fields are refused; \
             expected one of: name, description, params, offered, checks, parameters, \
             side_effects, results, policy, approvals, op_id, strict)",
            "40:16 at model[1].calls: expected a list [ ... ], found the number 1",
            "43:18 at expect: unknown value \"done\"; expected one of: completed, \
             budget_exhausted, verification_missing, crashed, rejected",
        ]
    );
}

#[test]
fn two_wrong_values_in_one_item_report_the_first() {
    let file = edited(
        "one-item.json",
        &[
            (
                "\"say\": { \"zh\": \"我需要先读取",
                "\"say\": \"read it\", \"sya\": { \"zh\": \"我需要先读取",
            ),
            (CALLS, "\"calls\": \"read_file\""),
        ],
    );
    assert_eq!(
        refused(&file),
        [
            "35:22 at model[0].say: expected an object {\"zh\": \"...\", \"en\": \"...\"}, \
          found the string \"read it\""
        ]
    );
}

#[test]
fn an_unknown_top_level_key_a_map_entry_and_missing_fields_are_all_reported() {
    let file = edited(
        "top-level.json",
        &[
            ("  \"budget\": 4,\n", "  \"retries\": 2,\n"),
            ("\"model\": [", "\"modle\": ["),
            (
                "\"2\": { \"zh\": \"第 1 次模型调用",
                "\"2\": { \"en\": \"Model call #1\" }, \"3b\": { \"zh\": \"第 1 次模型调用",
            ),
            ("\"3\": {", "\"3\": 3, \"3x\": {"),
        ],
    );
    let lines = refused(&file);
    let places: Vec<&str> = lines
        .iter()
        .map(|l| l.split(": ").next().unwrap())
        .collect();
    assert_eq!(
        places,
        [
            "31:11 at retries",
            "32:9 at modle",
            "47:34 at narration.2",
            "48:10 at narration.3",
            "55:1",
        ],
        "{lines:#?}"
    );
    assert!(lines[0].contains("unknown field \"retries\" (unknown fields"));
    // A misspelt required field is said once, with its hint, not missing too.
    assert!(lines[1].contains("unknown field \"modle\"; did you mean \"model\"?"));
    assert_eq!(
        lines[2],
        "47:34 at narration.2: missing field \"zh\", which is required"
    );
    assert!(lines[3].contains("expected an object {\"zh\""));
    assert_eq!(
        lines[4],
        "55:1: missing field \"budget\", which is required"
    );
}

#[test]
fn several_missing_fields_are_one_line_at_the_closing_brace() {
    let file = common::scenario_file(
        "bare.json",
        "{\n  \"name\": \"bare\",\n  \"budget\": \"3\"\n}\n",
    );
    assert_eq!(
        refused(&file),
        [
            "3:15 at budget: expected a number of model calls from 1 to 10000, found the string \"3\"",
            "4:1: missing fields \"title\", \"task\", \"about\", \"tools\", \"model\" and \
             \"expect\", which are required",
        ]
    );
}

/// Keys written twice are still said by the scan of keys (first, as
/// before), and serde's "duplicate field" is not said again; the other
/// wrong values follow in file order.
#[test]
fn keys_written_twice_and_wrong_values_are_all_reported_once() {
    let file = edited(
        "twice.json",
        &[
            ("\"budget\": 4,", "\"budget\": 4, \"budget\": 5,"),
            (
                "\"name\": \"read_file\",",
                "\"name\": \"read_file\", \"name\": \"read\", \"offered\": \"yes\",",
            ),
            (
                CALLS,
                "\"calls\": [ { \"tool\": \"read_file\", \"delay\": -1 } ]",
            ),
        ],
    );
    let lines = refused(&file);
    let places: Vec<&str> = lines
        .iter()
        .map(|l| l.split(": ").next().unwrap())
        .collect();
    assert_eq!(
        places,
        [
            "26:28 at tools[0].name",
            "31:16 at budget",
            "36:51 at model[0].calls[0].delay"
        ],
        "{lines:#?}"
    );
    assert!(lines[0].contains("\"name\" appears twice"));
    assert!(lines[1].contains("\"budget\" appears twice"));
    assert!(lines[2].contains("found the number -1"));
}

#[test]
fn the_shipped_scenarios_load_without_a_fault() {
    for (name, _) in agent_loop_sim::load::CATALOG {
        let loaded = agent_loop_sim::load::examine(name)
            .unwrap_or_else(|faults| panic!("{name}: {faults:?}"));
        assert_eq!(loaded.faults, [], "{name}");
    }
}

/// A step in the wrong shape is said in an author's words, never in
/// Rust's (`usize`).
#[test]
fn a_quiz_step_that_is_not_a_number_is_said_in_plain_words() {
    let mut json = common::shipped_json("read-config-timeout");
    json["quiz"] = serde_json::json!([{
        "step": "two",
        "question": { "zh": "问", "en": "Q" },
        "choices": [ { "zh": "甲", "en": "a" }, { "zh": "乙", "en": "b" } ],
        "answer": 1
    }]);
    let faults = common::faults_of("q.json", &json);
    let fault = faults
        .iter()
        .find(|f| f.contains("quiz[0].step"))
        .expect("a fault at the step");
    // A text is read as an event key (`"reply.2"`), and "two" is none.
    assert!(
        fault.contains("expected a step number from 1 to 8, or an event"),
        "{fault}"
    );
    assert!(!fault.contains("usize"), "{fault}");
}
