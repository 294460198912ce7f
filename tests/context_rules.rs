//! Issue 9 items 4, 5, 8: the errors of the new fields (each with its
//! place), narration anchors landing where they say, and rule conditions
//! seen through a real run.

mod common;

use agent_loop_sim::load;
use agent_loop_sim::scenario::Lang;
use common::shipped_json;
use serde_json::{Value, json};

/// The first error `check` prints for a changed copy of a scenario (a file
/// that cannot run, or one whose run is shown with its faults), with its
/// line:column checked and then left out, so the JSON path is compared.
fn error(s: &Value) -> String {
    let bytes = serde_json::to_vec_pretty(s).unwrap();
    let line = match load::prepare("my.json", &bytes) {
        Err(e) => e.to_string(),
        Ok(loaded) => loaded
            .faults
            .iter()
            .find(|f| f.is_error())
            .map(|f| f.to_string())
            .expect("an error"),
    };
    let rest = line.strip_prefix("my.json: ").expect("the file first");
    match rest.split_once(" at ") {
        Some((place, path))
            if place
                .split(':')
                .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) =>
        {
            format!("my.json: {path}")
        }
        _ => line,
    }
}

#[test]
fn each_new_field_has_its_error_with_its_place() {
    let mut s = shipped_json("prompt-injection-in-file");
    s["model"][0]["when"]["has_result"]["count"] = json!(0);
    assert_eq!(
        error(&s),
        "my.json: model[0].when.has_result.count: expected a count from 1 (how many matching results; 1 if left out)"
    );
    let mut s = shipped_json("prompt-injection-in-file");
    s["model"][0]["when"]["model_call"] = json!(0);
    assert!(
        error(&s)
            .starts_with("my.json: model[0].when.model_call: expected a model call number from 1")
    );
    let mut s = shipped_json("prompt-injection-in-file");
    s["model"][0]["when"]["has_result"]["status"] = json!("approved");
    assert!(error(&s).ends_with(
        "my.json: model[0].when.has_result.status: unknown value \"approved\"; expected one of: ok, error, refused, replayed, op_conflict, denied, interrupted, compacted"
    ));
    let mut s = shipped_json("context-compaction-summary");
    s["context"].as_object_mut().unwrap().remove("summary");
    assert!(
        error(&s)
            .starts_with("my.json: context.summary: the policy \"summarize\" needs a \"summary\"")
    );
    let mut s = shipped_json("context-compaction-lost-fact");
    s["context"]["summary"] = json!({ "zh": "x", "en": "x" });
    assert!(
        error(&s)
            .starts_with("my.json: context.summary: only the policy \"summarize\" uses a summary")
    );
    let mut s = shipped_json("context-compaction-lost-fact");
    s["context"]["window"] = json!(0);
    assert!(error(&s).starts_with("my.json: context.window: expected a window from 1"));
    let mut s = shipped_json("context-compaction-lost-fact");
    s["context"]["window"] = json!(200);
    assert_eq!(
        error(&s),
        "my.json: model: model call #2: the request is 215 tokens (o200k_base) after the host compacted all it may, \
         over the window of 200 (expected a larger \"context.window\", or smaller files and replies)"
    );
}

#[test]
fn a_narration_anchor_names_an_event_of_the_run_and_one_step_once() {
    let mut s = shipped_json("prompt-injection-in-file");
    s["narration"]["9"] = s["narration"]["call_2.result"].clone();
    assert_eq!(
        error(&s),
        "my.json: narration[\"call_2.result\"]: lands on step 9, which narration.9 also narrates; expected one narration per step"
    );
    let mut s = shipped_json("prompt-injection-in-file");
    s["narration"]["call_2.executed"] = json!({ "zh": "x", "en": "x" });
    assert!(error(&s).starts_with(
        "my.json: narration[\"call_2.executed\"]: call_2 is never executed in the run"
    ));
    let mut s = shipped_json("prompt-injection-in-file");
    s["narration"]["call_7.result"] = json!({ "zh": "x", "en": "x" });
    assert!(
        error(&s).contains(
            "\"call_7\" is not a call id or label of the run (calls are call_1 … call_2)"
        )
    );
    let mut s = shipped_json("prompt-injection-in-file");
    s["narration"]["reply.9"] = json!({ "zh": "x", "en": "x" });
    assert!(error(&s).contains("model call #9 gets no reply in the run"));
    let mut s = shipped_json("prompt-injection-in-file");
    s["narration"]["model_call.x"] = json!({ "zh": "x", "en": "x" });
    assert!(error(&s).contains("expected model_call.N with N a number from 1"));
}

#[test]
fn anchors_land_on_their_events_and_mix_with_step_numbers() {
    let mut s = shipped_json("prompt-injection-in-file");
    // Replace one anchor by its step number: the same step is narrated.
    let text = s["narration"]
        .as_object_mut()
        .unwrap()
        .remove("model_call.2")
        .unwrap();
    s["narration"]["7"] = text;
    let bytes = serde_json::to_vec(&s).unwrap();
    let loaded = load::prepare("my.json", &bytes).unwrap();
    let shipped = load::load("prompt-injection-in-file").unwrap();
    for lang in Lang::ALL {
        let (a, b) = (loaded.trace(lang), shipped.trace(lang));
        let narration = |t: &agent_loop_sim::trace::Trace| -> Vec<Option<std::sync::Arc<str>>> {
            t.steps.iter().map(|s| s.narration.clone()).collect()
        };
        assert_eq!(narration(a), narration(b));
    }
    let t = shipped.trace(Lang::En);
    assert!(
        t.steps[8]
            .narration
            .as_deref()
            .unwrap()
            .starts_with("The host refuses call_2")
    );
    assert!(
        t.steps[10]
            .narration
            .as_deref()
            .unwrap()
            .starts_with("The model answers the task")
    );
}

/// `once`: without it the tempted rule would fire again after the refusal
/// if it came first; with it, it fires once. `model_call`: a rule that
/// names call #1 holds there only.
#[test]
fn once_and_model_call_shape_the_run() {
    let mut s = shipped_json("prompt-injection-in-file");
    let rules = s["model"].as_array_mut().unwrap();
    let tempted = rules.remove(1);
    rules.insert(0, tempted);
    let bytes = serde_json::to_vec(&s).unwrap();
    let t = load::prepare("my.json", &bytes)
        .unwrap()
        .trace(Lang::En)
        .clone();
    assert_eq!(t.calls.len(), 2, "the tempted read is proposed once");
    let mut s = shipped_json("prompt-injection-in-file");
    s["model"][1].as_object_mut().unwrap().remove("once");
    let rules = s["model"].as_array_mut().unwrap();
    let tempted = rules.remove(1);
    rules.insert(0, tempted);
    s["expect"] = json!("budget_exhausted");
    let bytes = serde_json::to_vec(&s).unwrap();
    let t = load::prepare("my.json", &bytes)
        .unwrap()
        .trace(Lang::En)
        .clone();
    assert_eq!(t.calls.len(), 4, "without once it asks at every call");
    let mut s = shipped_json("prompt-injection-in-file");
    s["model"].as_array_mut().unwrap().insert(
        0,
        json!({ "when": { "model_call": 1 }, "say": { "zh": "不读了。", "en": "Not reading." } }),
    );
    s["narration"] = json!({});
    let bytes = serde_json::to_vec(&s).unwrap();
    let t = load::prepare("my.json", &bytes)
        .unwrap()
        .trace(Lang::En)
        .clone();
    assert_eq!(t.len(), 3, "call #1 answers at once");
}

/// `ID.decided` names the user's answer to the host about call ID.
#[test]
fn a_decided_anchor_lands_on_the_users_answer() {
    use agent_loop_sim::trace::StepKind;
    let loaded = load::load("approve-side-effects").unwrap();
    let t = loaded.trace(Lang::En);
    let (at, id) = t
        .steps
        .iter()
        .enumerate()
        .find_map(|(i, s)| match &s.kind {
            StepKind::UserDecides { call, .. } => Some((i, call.0.clone())),
            _ => None,
        })
        .expect("the lesson asks the user");
    let mut s = shipped_json("approve-side-effects");
    // Only the anchor narrates: no other key can land on its step.
    s["narration"] = json!({});
    s["narration"][format!("{id}.decided")] =
        json!({ "zh": "用户作答。", "en": "The user answers." });
    let bytes = serde_json::to_vec_pretty(&s).unwrap();
    let after = load::prepare("my.json", &bytes).unwrap();
    assert!(after.faults.is_empty(), "{:?}", after.faults);
    assert_eq!(
        after.trace(Lang::En).steps[at].narration.as_deref(),
        Some("The user answers.")
    );
    // An event the call never has is an error with its place.
    let mut s = shipped_json("approve-side-effects");
    let first = &t.calls[0].id.0;
    s["narration"][format!("{first}.decidd")] = json!({ "zh": "x", "en": "x" });
    assert!(
        error(&s).contains("expected proposed, validated, decided, executed, result or compacted")
    );
}

/// `ID.decided` is the user's answer to a call the host asked about: the
/// step right after the host's check, and, for a denial, also the step of
/// its result. A call the host never asked about is never decided.
#[test]
fn the_decided_anchor_is_the_users_answer() {
    let shipped_file = load::load("approve-side-effects").unwrap();
    let t = shipped_file.trace(Lang::En);
    for call in t.calls.iter().filter(|c| c.decision.is_some()) {
        let (decided, _) = call.decision.clone().unwrap();
        let (validated, _) = call.verdict.clone().unwrap();
        assert_eq!(decided, validated + 1, "{}", call.id);
        assert!(t.steps[decided].narration.is_some());
    }
    let publish = t
        .calls
        .iter()
        .find(|c| c.tool == "publish_release")
        .unwrap();
    assert_eq!(publish.finished, publish.decision.as_ref().map(|(s, _)| *s));

    let read = t.calls[0].id.0.clone();
    let mut s = shipped_json("approve-side-effects");
    s["narration"][format!("{read}.decided")] = json!({ "zh": "x", "en": "x" });
    assert!(
        error(&s).starts_with(&format!(
            "my.json: narration[\"{read}.decided\"]: {read} is never decided in the run"
        )),
        "{}",
        error(&s)
    );
    let mut s = shipped_json("approve-side-effects");
    let id = publish.id.0.clone();
    s["narration"][format!("{id}.result")] = json!({ "zh": "x", "en": "x" });
    assert!(error(&s).contains("which narration"), "{}", error(&s));
}
