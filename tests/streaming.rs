//! A streamed reply (`"stream": true`): the lesson `streaming-one-call` in
//! every provider and language. Its events add up to the response the call
//! returns whole, in each provider's own event names; the host acts on
//! nothing until a stream ends; every request asks for the stream; and
//! `check` refuses what it cannot draw.

mod common;

use std::collections::BTreeMap;

use agent_loop_sim::trace::{StepKind, Trace};
use agent_loop_sim::wire::stream::{self, Event};
use agent_loop_sim::wire::{self, Provider};
use serde_json::{Value, json};

const LESSON: &str = "streaming-one-call";

fn traces(provider: Provider) -> Vec<Trace> {
    let loaded = agent_loop_sim::load::examine_as(LESSON, Some(provider))
        .unwrap_or_else(|f| panic!("{f:?}"));
    assert_eq!(loaded.faults, [], "{provider:?}");
    loaded.traces.to_vec()
}

/// What a client assembles from a stream, as the provider's docs say to:
/// each block's text or arguments joined by its index, and why it stopped.
#[derive(Debug, Default, PartialEq)]
struct Assembled {
    texts: BTreeMap<u64, String>,
    arguments: BTreeMap<u64, String>,
    stop: Option<String>,
}

fn assemble(provider: Provider, events: &[Event]) -> Assembled {
    let mut a = Assembled::default();
    let add = |map: &mut BTreeMap<u64, String>, at: &Value, s: &Value| {
        let at = at.as_u64().expect("an index");
        map.entry(at)
            .or_default()
            .push_str(s.as_str().expect("a delta"));
    };
    for e in events {
        let d = &e.data;
        match provider {
            Provider::Chat => {
                assert_eq!(e.name, None, "Chat sends data lines only");
                assert_eq!(d["object"], "chat.completion.chunk");
                let choice = &d["choices"][0];
                if let Some(text) = choice["delta"].get("content") {
                    add(&mut a.texts, &json!(0), text);
                }
                for call in choice["delta"]["tool_calls"]
                    .as_array()
                    .into_iter()
                    .flatten()
                {
                    add(
                        &mut a.arguments,
                        &call["index"],
                        &call["function"]["arguments"],
                    );
                }
                if !choice["finish_reason"].is_null() {
                    a.stop = Some(choice["finish_reason"].as_str().unwrap().into());
                }
            }
            Provider::Responses => {
                assert_eq!(e.name, d["type"].as_str(), "the event line names its type");
                match d["type"].as_str().unwrap() {
                    "response.output_text.delta" => {
                        add(&mut a.texts, &d["output_index"], &d["delta"])
                    }
                    "response.function_call_arguments.delta" => {
                        add(&mut a.arguments, &d["output_index"], &d["delta"]);
                    }
                    "response.completed" | "response.incomplete" => {
                        a.stop = Some(d["response"]["status"].as_str().unwrap().into());
                    }
                    _ => {}
                }
            }
            Provider::Anthropic => {
                assert_eq!(e.name, d["type"].as_str(), "the event line names its type");
                match d["type"].as_str().unwrap() {
                    "content_block_delta" if d["delta"]["type"] == "text_delta" => {
                        add(&mut a.texts, &d["index"], &d["delta"]["text"]);
                    }
                    "content_block_delta" => {
                        assert_eq!(d["delta"]["type"], "input_json_delta");
                        add(&mut a.arguments, &d["index"], &d["delta"]["partial_json"]);
                    }
                    "message_delta" => {
                        a.stop = Some(d["delta"]["stop_reason"].as_str().unwrap().into());
                    }
                    _ => {}
                }
            }
        }
    }
    a
}

/// The same, from the response the call returns whole.
fn whole(provider: Provider, response: &Value) -> Assembled {
    let mut a = Assembled::default();
    match provider {
        Provider::Chat => {
            let m = &response["choices"][0]["message"];
            if let Some(text) = m["content"].as_str() {
                a.texts.insert(0, text.into());
            }
            for (i, c) in m["tool_calls"].as_array().into_iter().flatten().enumerate() {
                let args = c["function"]["arguments"].as_str().unwrap();
                a.arguments.insert(i as u64, args.into());
            }
            a.stop = Some(
                response["choices"][0]["finish_reason"]
                    .as_str()
                    .unwrap()
                    .into(),
            );
        }
        Provider::Responses => {
            for (i, item) in response["output"].as_array().unwrap().iter().enumerate() {
                match item["type"].as_str().unwrap() {
                    "message" => a.texts.insert(
                        i as u64,
                        item["content"][0]["text"].as_str().unwrap().into(),
                    ),
                    _ => a
                        .arguments
                        .insert(i as u64, item["arguments"].as_str().unwrap().into()),
                };
            }
            a.stop = Some(response["status"].as_str().unwrap().into());
        }
        Provider::Anthropic => {
            for (i, block) in response["content"].as_array().unwrap().iter().enumerate() {
                match block["type"].as_str().unwrap() {
                    "text" => a
                        .texts
                        .insert(i as u64, block["text"].as_str().unwrap().into()),
                    // The input as its JSON text; parsed back below.
                    _ => a.arguments.insert(i as u64, block["input"].to_string()),
                };
            }
            a.stop = Some(response["stop_reason"].as_str().unwrap().into());
        }
    }
    a
}

#[test]
fn the_stream_adds_up_to_the_response_in_every_provider() {
    for provider in Provider::ALL {
        for trace in traces(provider) {
            let counts = wire::counts_of(&trace);
            for k in 0..trace.model_calls.len() {
                let pieces = stream::events(&trace, &counts, k);
                let steps = trace
                    .steps
                    .iter()
                    .filter(|s| {
                        matches!(s.kind, StepKind::Streams { .. }) && s.model_call == Some(k)
                    })
                    .count();
                assert_eq!(
                    pieces.len(),
                    steps,
                    "{provider:?} call {k}: a step for each piece"
                );
                let events: Vec<Event> = pieces.into_iter().flatten().collect();
                let response = wire::response(&trace, &counts, k).unwrap();
                let got = assemble(provider, &events);
                let want = whole(provider, &response);
                assert_eq!(got.texts, want.texts, "{provider:?} call {k}");
                assert_eq!(got.stop, want.stop, "{provider:?} call {k}");
                for (at, args) in &want.arguments {
                    let joined: Value = serde_json::from_str(&got.arguments[at]).unwrap();
                    assert_eq!(joined, serde_json::from_str::<Value>(args).unwrap());
                }
                assert_eq!(got.arguments.len(), want.arguments.len());
                if provider == Provider::Responses {
                    let numbers: Vec<u64> = events
                        .iter()
                        .map(|e| e.data["sequence_number"].as_u64().unwrap())
                        .collect();
                    assert_eq!(numbers, (0..events.len() as u64).collect::<Vec<_>>());
                }
            }
        }
    }
}

/// Each provider's own names, in its own order (the first reply: text,
/// then one call).
#[test]
fn each_provider_streams_in_its_own_event_names() {
    let expected: [(Provider, &[&str]); 3] = [
        (Provider::Chat, &["chunk"; 7]),
        (
            Provider::Responses,
            &[
                "response.created",
                "response.in_progress",
                "response.output_item.added",
                "response.content_part.added",
                "response.output_text.delta",
                "response.output_text.delta",
                "response.output_text.done",
                "response.content_part.done",
                "response.output_item.done",
                "response.output_item.added",
                "response.function_call_arguments.delta",
                "response.function_call_arguments.delta",
                "response.function_call_arguments.done",
                "response.output_item.done",
                "response.completed",
            ],
        ),
        (
            Provider::Anthropic,
            &[
                "message_start",
                "content_block_start",
                "content_block_delta",
                "content_block_delta",
                "content_block_stop",
                "content_block_start",
                "content_block_delta",
                "content_block_delta",
                "content_block_stop",
                "message_delta",
                "message_stop",
            ],
        ),
    ];
    for (provider, names) in expected {
        let traces = traces(provider);
        let trace = &traces[0];
        let counts = wire::counts_of(trace);
        let events: Vec<Event> = stream::events(trace, &counts, 0)
            .into_iter()
            .flatten()
            .collect();
        let got: Vec<&str> = events.iter().map(|e| e.name.unwrap_or("chunk")).collect();
        assert_eq!(got, names, "{provider:?}");
    }
    // Chat: the call's id and name come first, its arguments in pieces.
    let chat = traces(Provider::Chat);
    let trace = &chat[1];
    let counts = wire::counts_of(trace);
    let events: Vec<Event> = stream::events(trace, &counts, 0)
        .into_iter()
        .flatten()
        .collect();
    let call = &events[3].data["choices"][0]["delta"]["tool_calls"][0];
    assert_eq!(call["id"], "call_1");
    assert_eq!(call["function"]["name"], "read_file");
    assert_eq!(call["function"]["arguments"], "");
    let piece = &events[4].data["choices"][0]["delta"]["tool_calls"][0];
    assert_eq!(
        piece,
        &json!({ "index": 0, "function": { "arguments": "{\"path\":\"c" } })
    );
}

/// Nothing is parsed, validated or run while a reply streams: the counters
/// stand still, and the step that takes the whole reply comes right after
/// the stream's end.
#[test]
fn the_host_acts_on_nothing_until_the_stream_ends() {
    for trace in traces(Provider::Chat) {
        let steps = &trace.steps;
        let mut streamed = 0;
        for (i, step) in steps.iter().enumerate() {
            let StepKind::Streams { number, piece } = step.kind else {
                continue;
            };
            streamed += 1;
            let before = &steps[i - 1];
            assert_eq!(step.counters, before.counters, "step {}", i + 1);
            assert_eq!(step.counters.model_calls, number, "step {}", i + 1);
            // Every call of this reply is proposed after its stream.
            for call in trace.calls.iter().filter(|c| c.model_call == number) {
                assert!(
                    call.proposed > i,
                    "{} proposed at step {}",
                    call.id,
                    call.proposed + 1
                );
            }
            let next = &steps[i + 1];
            if !matches!(next.kind, StepKind::Streams { .. }) {
                assert!(
                    matches!(
                        next.kind,
                        StepKind::Proposes { .. } | StepKind::Answers { .. }
                    ),
                    "after the end (piece {piece}): {:?}",
                    next.kind
                );
            }
        }
        assert_eq!(streamed, 8);
    }
}

#[test]
fn every_request_asks_for_the_stream_and_no_other_lesson_does() {
    for provider in Provider::ALL {
        for trace in traces(provider) {
            for k in 0..trace.model_calls.len() {
                assert_eq!(
                    wire::request(&trace, k)["stream"],
                    json!(true),
                    "{provider:?}"
                );
            }
        }
    }
    let default = agent_loop_sim::load::load("read-config-timeout").unwrap();
    let trace = default.trace(agent_loop_sim::scenario::Lang::En);
    assert!(
        trace
            .steps
            .iter()
            .all(|s| !matches!(s.kind, StepKind::Streams { .. }))
    );
    assert_eq!(wire::request(trace, 0).get("stream"), None);
}

#[test]
fn export_requests_carries_each_calls_events() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("streaming-export");
    let _ = std::fs::remove_dir_all(&dir);
    let out = common::run(&[
        "export",
        "--format",
        "requests",
        "--scenario",
        LESSON,
        "--provider",
        "anthropic",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let file = dir.join(format!("{LESSON}.zh.anthropic.requests.jsonl"));
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    for line in &lines {
        assert_eq!(line["request"]["stream"], json!(true));
        let events = line["stream"].as_array().unwrap();
        assert_eq!(events.first().unwrap()["type"], "message_start");
        assert_eq!(events.last().unwrap()["type"], "message_stop");
    }
}

#[test]
fn a_stream_steps_title_shows_what_has_come_so_far() {
    let chat = traces(Provider::Chat);
    let trace = &chat[1];
    assert_eq!(trace.lang, agent_loop_sim::scenario::Lang::En);
    let title = |step: usize| agent_loop_sim::i18n::step_title(trace, step - 1);
    assert!(title(5).contains("call_1 read_file"), "{}", title(5));
    assert!(title(5).contains("{\"path\":\"c,"), "{}", title(5));
    assert!(title(5).contains("not yet whole JSON"), "{}", title(5));
    assert!(
        title(6).contains("together {\"path\":\"config.txt\"}"),
        "{}",
        title(6)
    );
    assert!(title(7).contains("stopped for tool calls"), "{}", title(7));
}

#[test]
fn check_refuses_a_stream_with_reasoning() {
    let mut json = common::shipped_json("reasoning-travels-with-calls");
    json["stream"] = json!(true);
    let faults = common::faults_of("stream.json", &json);
    assert!(
        faults
            .iter()
            .any(|f| f.contains("at stream:") && f.contains("reasoning")),
        "{faults:?}"
    );
}
