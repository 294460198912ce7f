//! Loading never panics, whatever the bytes: arbitrary bytes, and valid
//! shipped scenarios with random damage (replaced values, dropped fields,
//! cut or spliced text). A refusal is one short printable line naming the
//! file; an accepted scenario runs to the end it expects in both languages.

use agent_loop_sim::load::{self, CATALOG};
use agent_loop_sim::scenario::Lang;
use proptest::prelude::*;
use serde_json::{Value, json};

const FILE: &str = "fuzz.json";

fn assert_sane(result: Result<load::Loaded, load::ScenarioError>) {
    match result {
        Ok(loaded) => {
            let [zh, en] = &loaded.traces;
            assert_eq!(zh.len(), en.len());
            // A run that ends otherwise than expected is shown, with its fault.
            if zh.end != loaded.lesson.as_ref().unwrap().expect {
                assert!(loaded.has_errors());
            }
            for fault in &loaded.faults {
                let shown = fault.to_string();
                assert!(shown.starts_with("fuzz.json: "), "{shown}");
                assert!(shown.chars().count() <= 600, "{shown}");
                assert!(!shown.chars().any(char::is_control), "{shown:?}");
            }
            assert!(!loaded.trace(Lang::Zh).is_empty());
        }
        Err(e) => {
            let shown = e.to_string();
            assert!(shown.starts_with("fuzz.json: "), "{shown}");
            assert!(shown.chars().count() <= 600, "{shown}");
            assert!(!shown.chars().any(char::is_control), "{shown:?}");
        }
    }
}

/// A value to put somewhere in a scenario: the wrong type, an edge value,
/// or a name the format knows (so some mutations still parse).
fn replacement() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        prop_oneof![
            Just(json!(0)),
            Just(json!(1)),
            Just(json!(2)),
            Just(json!(16)),
            Just(json!(17)),
            Just(json!(10_000)),
            Just(json!(u32::MAX)),
            Just(json!(-1)),
            Just(json!(1.5)),
        ],
        prop_oneof![
            Just(json!("")),
            Just(json!("read_file")),
            Just(json!("list_files")),
            Just(json!("patch_file")),
            Just(json!("run_tests")),
            Just(json!("publish")),
            Just(json!("config.txt")),
            Just(json!("../secrets.txt")),
            Just(json!("completed")),
            Just(json!("budget_exhausted")),
            Just(json!("crashed")),
            Just(json!("call_1")),
            "\\PC{0,12}".prop_map(Value::from),
        ],
        Just(json!([])),
        Just(json!({})),
        Just(json!({ "zh": "文", "en": "text" })),
        Just(json!({ "tool": "read_file", "args": { "path": "config.txt" } })),
    ]
}

#[derive(Debug, Clone)]
enum Damage {
    /// Replace the node reached by walking these child picks.
    Replace(Vec<usize>, Value),
    /// Remove the child reached by these picks from its object or list.
    Remove(Vec<usize>),
    /// Duplicate that child inside its list.
    Repeat(Vec<usize>),
}

fn damage() -> impl Strategy<Value = Damage> {
    let walk = prop::collection::vec(any::<usize>(), 0..6);
    prop_oneof![
        (walk.clone(), replacement()).prop_map(|(w, v)| Damage::Replace(w, v)),
        walk.clone().prop_map(Damage::Remove),
        walk.prop_map(Damage::Repeat),
    ]
}

fn children(v: &mut Value) -> usize {
    match v {
        Value::Object(m) => m.len(),
        Value::Array(a) => a.len(),
        _ => 0,
    }
}

fn child(v: &mut Value, pick: usize) -> &mut Value {
    match v {
        Value::Object(m) => {
            let n = m.len();
            m.values_mut().nth(pick % n).unwrap()
        }
        Value::Array(a) => {
            let n = a.len();
            &mut a[pick % n]
        }
        _ => unreachable!(),
    }
}

/// Walk down while there are children, stopping one level above the end
/// so the last pick can name a child of the returned container.
fn parent_of<'v>(mut v: &'v mut Value, walk: &[usize]) -> (&'v mut Value, usize) {
    let mut picks = walk.iter().copied().peekable();
    while let Some(pick) = picks.next() {
        if children(v) == 0 {
            return (v, pick);
        }
        if picks.peek().is_none() || children(child(v, pick)) == 0 {
            return (v, pick);
        }
        v = child(v, pick);
    }
    (v, 0)
}

fn apply(root: &mut Value, damage: &Damage) {
    match damage {
        Damage::Replace(walk, value) => {
            let (parent, pick) = parent_of(root, walk);
            if children(parent) == 0 {
                *parent = value.clone();
            } else {
                *child(parent, pick) = value.clone();
            }
        }
        Damage::Remove(walk) => {
            let (parent, pick) = parent_of(root, walk);
            match parent {
                Value::Object(m) if !m.is_empty() => {
                    let key = m.keys().nth(pick % m.len()).unwrap().clone();
                    m.shift_remove(&key);
                }
                Value::Array(a) if !a.is_empty() => {
                    let n = a.len();
                    a.remove(pick % n);
                }
                _ => {}
            }
        }
        Damage::Repeat(walk) => {
            let (parent, pick) = parent_of(root, walk);
            if let Value::Array(a) = parent
                && !a.is_empty()
            {
                let n = a.len();
                let copy = a[pick % n].clone();
                a.push(copy);
            }
        }
    }
}

fn shipped(index: usize) -> Value {
    let (_, source) = CATALOG[index % CATALOG.len()];
    serde_json::from_str(source).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        assert_sane(load::prepare(FILE, &bytes));
    }

    #[test]
    fn text_that_starts_like_a_scenario_never_panics(tail in "\\PC{0,200}") {
        let text = format!("{{\"name\": \"x\", {tail}");
        assert_sane(load::prepare(FILE, text.as_bytes()));
    }

    #[test]
    fn damaged_scenarios_never_panic(
        scenario in any::<usize>(),
        damages in prop::collection::vec(damage(), 1..4),
    ) {
        let mut value = shipped(scenario);
        for d in &damages {
            apply(&mut value, d);
        }
        let text = serde_json::to_string_pretty(&value).unwrap();
        assert_sane(load::prepare(FILE, text.as_bytes()));
    }

    #[test]
    fn cut_or_spliced_scenarios_never_panic(
        scenario in any::<usize>(),
        cut in any::<prop::sample::Index>(),
        splice in prop::collection::vec(any::<u8>(), 0..8),
    ) {
        let (_, source) = CATALOG[scenario % CATALOG.len()];
        let bytes = source.as_bytes();
        let at = cut.index(bytes.len());
        let mut spliced = bytes[..at].to_vec();
        spliced.extend_from_slice(&splice);
        spliced.extend_from_slice(&bytes[at..]);
        assert_sane(load::prepare(FILE, &bytes[..at]));
        assert_sane(load::prepare(FILE, &spliced));
    }
}

#[test]
fn damage_reaches_deep_fields() {
    // The walk must be able to reach a rule's condition, or the property
    // above would only ever damage the top level.
    let mut value = shipped(0);
    let model = value
        .as_object()
        .unwrap()
        .keys()
        .position(|k| k == "model")
        .unwrap();
    apply(
        &mut value,
        &Damage::Replace(vec![model, 1, 0, 0, 0], json!("nope")),
    );
    let text = value.to_string();
    assert!(text.contains(r#""has_result":{"tool":"nope""#), "{text}");
    let error = load::prepare(FILE, text.as_bytes()).unwrap_err();
    // The text is one line: the place is its column (in characters).
    let at = text[..text.find(r#""tool":"nope""#).unwrap()]
        .chars()
        .count()
        + 1;
    assert_eq!(
        error.place,
        Some(format!("1:{at} at model[1].when.has_result.tool"))
    );
    // An untouched scenario loads.
    assert!(load::prepare(FILE, shipped(0).to_string().as_bytes()).is_ok());
}
