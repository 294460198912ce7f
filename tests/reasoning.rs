//! Reasoning that travels with the tool calls (`reasoning` on a rule,
//! `harness.drop_reasoning`): the lesson `reasoning-travels-with-calls` as
//! each provider receives it, its twin `harness-drops-thinking` ending on
//! Anthropic's 400, and what `check` refuses.

mod common;

use agent_loop_sim::scenario::EndStatus;
use agent_loop_sim::trace::{StepKind, Trace};
use agent_loop_sim::wire::{self, Provider};
use serde_json::{Value, json};

const LESSON: &str = "reasoning-travels-with-calls";
const TWIN: &str = "harness-drops-thinking";

fn traces(name: &str, provider: Option<Provider>) -> Vec<Trace> {
    let loaded =
        agent_loop_sim::load::examine_as(name, provider).unwrap_or_else(|f| panic!("{f:?}"));
    assert_eq!(loaded.faults, [], "{name} {provider:?}");
    loaded.traces.to_vec()
}

/// Request `i`'s list (`messages` or `input`).
fn list(trace: &Trace, i: usize) -> Vec<Value> {
    let body = wire::request(trace, i);
    body[wire::list_key(trace.provider)]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[test]
fn each_provider_sends_the_reasoning_back_where_its_api_takes_it() {
    for provider in [Provider::Chat, Provider::Responses, Provider::Anthropic] {
        for trace in traces(LESSON, Some(provider)) {
            let counts = wire::counts_of(&trace);
            let lang = trace.lang;
            for (i, mc) in trace.model_calls.iter().enumerate() {
                // The size the screen shows is the body's, reasoning included.
                let body = wire::request(&trace, i);
                assert_eq!(
                    mc.context_size,
                    body.to_string().len(),
                    "{provider:?} {lang:?} #{i}"
                );
                // Every reply came with reasoning, in the run's language.
                let returned = mc.reasoning.as_deref().expect("a reply with reasoning");
                assert!(!returned.is_empty());
            }
            let first = wire::response(&trace, &counts, 0).unwrap();
            let second = wire::request(&trace, 1);
            let third = list(&trace, 2);
            match provider {
                Provider::Responses => {
                    assert_eq!(second["store"], json!(false));
                    assert_eq!(second["include"], json!(["reasoning.encrypted_content"]));
                    // Sent back exactly as returned, right before its call.
                    let item = &first["output"][0];
                    assert_eq!(item["type"], "reasoning");
                    assert!(item["encrypted_content"].as_str().unwrap().len() >= 80);
                    assert_eq!(second["input"][1], *item);
                    assert_eq!(second["input"][2]["type"], "function_call");
                    let reasoning = third.iter().filter(|v| v["type"] == "reasoning").count();
                    assert_eq!(reasoning, 2, "both replies' reasoning at call #3");
                }
                Provider::Anthropic => {
                    assert_eq!(second["thinking"]["type"], "enabled");
                    let budget = second["thinking"]["budget_tokens"].as_u64().unwrap();
                    assert!(second["max_tokens"].as_u64().unwrap() > budget);
                    let block = &first["content"][0];
                    assert_eq!(block["type"], "thinking");
                    assert!(block["signature"].as_str().is_some());
                    assert_eq!(second["messages"][1]["content"][0], *block);
                    assert_eq!(second["messages"][1]["content"][1]["type"], "tool_use");
                    assert_eq!(third[3]["content"][0]["type"], "thinking");
                }
                Provider::Chat => {
                    // Nothing to send back: only a count in the response.
                    assert_eq!(second["reasoning_effort"], "medium");
                    let tokens = &first["usage"]["completion_tokens_details"]["reasoning_tokens"];
                    assert!(tokens.as_u64().unwrap() > 0);
                    let sent = wire::request(&trace, 2).to_string();
                    for mc in &trace.model_calls {
                        assert!(!sent.contains(mc.reasoning.as_deref().unwrap()));
                    }
                    assert!(first["choices"][0]["message"].get("reasoning").is_none());
                }
            }
        }
    }
}

#[test]
fn a_reply_sent_back_without_its_thinking_block_gets_anthropics_400() {
    for trace in traces(TWIN, None) {
        assert_eq!(trace.provider, Provider::Anthropic);
        assert_eq!(trace.end, EndStatus::Rejected);
        let counts = wire::counts_of(&trace);
        // The provider returned the block; the host did not keep it.
        let first = wire::response(&trace, &counts, 0).unwrap();
        assert_eq!(first["content"][0]["type"], "thinking");
        assert_eq!(list(&trace, 1)[1]["content"][0]["type"], "tool_use");
        let Some(StepKind::Rejected { error, number, .. }) = trace.steps.last().map(|s| &s.kind)
        else {
            panic!("the run ends rejected");
        };
        assert_eq!(*number, 2);
        assert_eq!(
            error,
            "400 invalid_request_error: messages.1.content.0.type: Expected `thinking` or \
             `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final \
             `assistant` message must start with a thinking block (preceeding the lastmost set \
             of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks \
             from previous turns. To avoid this requirement, disable `thinking`. Please consult \
             our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
        );
        assert_eq!(wire::status(&trace, 1), 400);
    }
    // The same rules with the reasoning kept: the loop goes on.
    let mut json = common::shipped_json(TWIN);
    json["harness"]["drop_reasoning"] = json!(false);
    let faults = common::faults_of("t.json", &json);
    assert!(
        faults
            .iter()
            .any(|f| f.contains("at expect:") && f.contains("ends completed")),
        "{faults:#?}"
    );
}

#[test]
fn check_refuses_a_dropped_reasoning_it_cannot_draw() {
    let mut json = common::shipped_json(TWIN);
    json["provider"] = json!("responses");
    let faults = common::faults_of("r.json", &json);
    assert!(
        faults
            .iter()
            .any(|f| f.contains("at harness.drop_reasoning:")
                && f.contains("expected \"provider\": \"anthropic\", not responses")),
        "{faults:#?}"
    );
    let mut json = common::shipped_json(TWIN);
    for rule in json["model"].as_array_mut().unwrap() {
        rule.as_object_mut().unwrap().remove("reasoning");
    }
    let faults = common::faults_of("n.json", &json);
    assert!(
        faults
            .iter()
            .any(|f| f.contains("at harness.drop_reasoning:")
                && f.contains("no rule of the model returns \"reasoning\"")),
        "{faults:#?}"
    );
}
