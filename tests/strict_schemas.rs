//! Strict tools, richer schemas (`enum`, `items`, nested objects), typed
//! `args`, `tool_choice` and quiz questions keyed by event: the lesson
//! `strict-schema-tool-choice` as each provider receives it, and every
//! mistake `check` refuses, each at its place.

mod common;

use agent_loop_sim::scenario::{Lang, ToolChoice};
use agent_loop_sim::wire::{self, Provider};
use serde_json::{Value, json};

const LESSON: &str = "strict-schema-tool-choice";

fn lesson() -> Value {
    common::shipped_json(LESSON)
}

/// The faults of the lesson with `edit` made to its JSON.
fn faults(edit: impl FnOnce(&mut Value)) -> Vec<String> {
    let mut json = lesson();
    edit(&mut json);
    common::faults_of("s.json", &json)
}

fn has(faults: &[String], place: &str, words: &str) {
    assert!(
        faults
            .iter()
            .any(|f| f.contains(&format!("at {place}:")) && f.contains(words)),
        "no fault at {place} saying {words:?}: {faults:#?}"
    );
}

#[test]
fn each_model_call_sends_its_tool_choice_in_its_providers_shape() {
    let wanted = [
        ToolChoice::Tool("search_logs".into()),
        ToolChoice::Auto,
        ToolChoice::Auto,
        ToolChoice::None,
    ];
    for provider in [Provider::Chat, Provider::Responses, Provider::Anthropic] {
        let loaded = agent_loop_sim::load::examine_as(LESSON, Some(provider))
            .unwrap_or_else(|f| panic!("{f:?}"));
        assert_eq!(loaded.faults, [], "{provider:?}");
        for trace in &loaded.traces {
            let choices: Vec<_> = trace
                .model_calls
                .iter()
                .map(|m| m.tool_choice.clone())
                .collect();
            assert_eq!(choices, wanted.clone().map(Some), "{provider:?}");
            for (i, mc) in trace.model_calls.iter().enumerate() {
                let body = wire::request(trace, i);
                // The size the screen shows is the body's, tool_choice included.
                assert_eq!(
                    mc.context_size,
                    body.to_string().len(),
                    "{provider:?} call {i}"
                );
                let choice = &body["tool_choice"];
                let expected = match (provider, i) {
                    (Provider::Chat, 0) => {
                        json!({"type": "function", "function": {"name": "search_logs"}})
                    }
                    (Provider::Responses, 0) => json!({"type": "function", "name": "search_logs"}),
                    (Provider::Anthropic, 0) => json!({"type": "tool", "name": "search_logs"}),
                    (Provider::Anthropic, 3) => json!({"type": "none"}),
                    (Provider::Anthropic, _) => json!({"type": "auto"}),
                    (_, 3) => json!("none"),
                    (_, _) => json!("auto"),
                };
                assert_eq!(choice, &expected, "{provider:?} call {i}");
                for tool in body["tools"].as_array().unwrap() {
                    let strict = match provider {
                        Provider::Chat => &tool["function"]["strict"],
                        Provider::Responses | Provider::Anthropic => &tool["strict"],
                    };
                    assert_eq!(strict, &json!(true), "{provider:?}: {tool}");
                }
            }
        }
    }
}

#[test]
fn typed_args_are_sent_as_json_text_with_their_types() {
    let loaded = agent_loop_sim::load::examine(LESSON).unwrap();
    let trace = &loaded.traces[Lang::En.index()];
    let ticket = trace
        .calls
        .iter()
        .find(|c| c.tool == "create_ticket")
        .unwrap();
    let raw = ticket.raw_args.as_deref().expect("sent as JSON text");
    let args: Value = serde_json::from_str(raw).unwrap();
    assert_eq!(args["evidence"]["count"], json!(412));
    assert_eq!(args["labels"], json!(["login", "timeout"]));
    // In the order the schema declares them, as a model writes them.
    assert!(raw.starts_with("{\"title\":"), "{raw}");
    let first = &trace.calls[0];
    assert_eq!(
        first.raw_args.as_deref(),
        Some(r#"{"service":"search","level":"error","limit":20}"#)
    );
}

/// The lesson with its tools not strict (the host's own check is then
/// what stops bad arguments), the first search's and the ticket's
/// arguments edited, and a way out for the model after an error: the
/// text of the first error result the host gives.
fn refused_by_host(search: Option<Value>, ticket: impl FnOnce(&mut Value)) -> String {
    let mut json = lesson();
    for tool in json["tools"].as_array_mut().unwrap() {
        tool["strict"] = json!(false);
    }
    if let Some(args) = search {
        json["model"][3]["calls"][0]["args"] = args;
    }
    ticket(&mut json["model"][1]["calls"][0]["args"]);
    let way_out = json!({
        "when": { "any": [
            { "has_result": { "tool": "search_logs", "ok": false } },
            { "has_result": { "tool": "create_ticket", "ok": false } }
        ] },
        "say": { "zh": "参数被拒绝。", "en": "My arguments were refused." }
    });
    json["model"].as_array_mut().unwrap().insert(0, way_out);
    json["tool_choice"] = json!([{ "tool": "search_logs" }, "auto"]);
    for field in ["quiz", "quiz_steps", "narration"] {
        json.as_object_mut().unwrap().remove(field);
    }
    let bytes = serde_json::to_vec(&json).unwrap();
    let loaded =
        agent_loop_sim::load::prepare_all("s.json", &bytes).unwrap_or_else(|f| panic!("{f:?}"));
    let trace = &loaded.traces[Lang::En.index()];
    let refused = trace
        .calls
        .iter()
        .filter_map(|c| c.result.as_ref())
        .find(|r| r.is_error);
    refused.map(|r| r.text.to_string()).unwrap_or_default()
}

#[test]
fn the_host_checks_enum_items_and_nested_objects() {
    let search = |args: Value| refused_by_host(Some(args), |_| {});
    assert_eq!(
        search(json!({"service": "mail", "level": "error", "limit": 20})),
        "refused by host: argument \"service\" must be one of: auth, billing, search"
    );
    assert_eq!(
        search(json!({"service": "auth", "level": "error", "limit": "20"})),
        "refused by host: argument \"limit\" must be of type integer"
    );
    assert_eq!(
        refused_by_host(None, |args| args["labels"] = json!(["login", 7])),
        "refused by host: argument \"labels[1]\" must be of type string"
    );
    assert_eq!(
        refused_by_host(None, |args| {
            args["evidence"].as_object_mut().unwrap().remove("count");
        }),
        "refused by host: missing argument \"evidence.count\""
    );
    assert_eq!(
        refused_by_host(None, |args| args["evidence"]["seen_by"] = json!("me")),
        "refused by host: unknown argument \"evidence.seen_by\""
    );
    // Unchanged, nothing is refused.
    assert_eq!(refused_by_host(None, |_| {}), "");
}

#[test]
fn check_refuses_what_a_provider_would_refuse_or_never_return() {
    has(
        &faults(|j| {
            j["tools"][1]["parameters"]["properties"]["labels"]
                .as_object_mut()
                .unwrap()
                .remove("items");
        }),
        "tools[1].parameters.properties.labels",
        "an array needs \"items\"",
    );
    has(
        &faults(|j| {
            j["tools"][0]["parameters"]["properties"]["level"]["enum"] = json!(["error", 5])
        }),
        "tools[0].parameters.properties.level.enum[1]",
        "expected a string",
    );
    has(
        &faults(|j| j["tools"][0]["parameters"]["additionalProperties"] = json!(true)),
        "tools[0].parameters.additionalProperties",
        "a strict schema closes every object",
    );
    has(
        &faults(|j| {
            j["tools"][1]["parameters"]["properties"]["evidence"]["required"] =
                json!(["service", "count"])
        }),
        "tools[1].parameters.properties.evidence.required",
        "expected \"first_seen\" in \"required\"",
    );
    has(
        &faults(|j| j["model"][3]["calls"][0]["args"]["limit"] = json!("20")),
        "model[3].calls[0]",
        "\"search_logs\" is strict, so the provider lets the model write only arguments that fit its schema, and these do not (argument \"limit\" must be of type integer)",
    );
    has(
        &faults(|j| j["tool_choice"] = json!(["auto", "sometimes"])),
        "tool_choice[1]",
        "unknown value \"sometimes\"",
    );
    has(
        &faults(|j| j["tool_choice"] = json!({"tool": "delete_ticket"})),
        "tool_choice.tool",
        "\"delete_ticket\" is not a tool the model is offered",
    );
    // The provider would not return these replies.
    has(
        &faults(|j| j["tool_choice"] = json!("none")),
        "model",
        "model call #1: rule model[3] calls a tool under tool_choice \"none\"",
    );
    has(
        &faults(|j| j["tool_choice"] = json!("required")),
        "model",
        "model call #2: rule model[2] has \"say\" words before a forced call",
    );
    has(
        &faults(|j| {
            j["tool_choice"] = json!("required");
            for rule in j["model"].as_array_mut().unwrap() {
                if rule.get("calls").is_some() {
                    rule.as_object_mut().unwrap().remove("say");
                }
            }
        }),
        "model",
        "model call #4: rule model[0] answers without a call under tool_choice \"required\"",
    );
    has(
        &faults(|j| j["model"][3]["say"] = json!({"zh": "先查日志。", "en": "Logs first."})),
        "model",
        "model call #1: rule model[3] has \"say\" words before a forced call",
    );
    has(
        &faults(|j| j["quiz"][1]["step"] = json!("first-search.answered")),
        "quiz[1].step",
        "unknown event \"answered\" of first-search; expected proposed, validated",
    );
}

#[test]
fn a_quiz_question_keyed_by_event_is_asked_at_its_step() {
    let loaded = agent_loop_sim::load::examine(LESSON).unwrap();
    let lesson = loaded.lesson.as_ref().unwrap();
    let steps: Vec<usize> = lesson.quiz.iter().map(|q| q.step.number()).collect();
    assert_eq!(steps, [3, 4, 12, 17, 18]);
}
