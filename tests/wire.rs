//! The wire: every shipped lesson, as each provider receives it, written by
//! `export --format requests` and read back with `--transcript`, gives the
//! same model calls, replies, calls and pairing as the lesson.

mod common;

use agent_loop_sim::load::{CATALOG, load_as};
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::trace::{StepKind, Trace};
use agent_loop_sim::transcript;
use agent_loop_sim::wire::{self, Provider};

/// What the round trip must keep: model calls, replies, a rejection, and
/// for each call its id, its tool, and the result a request sent under its
/// id (whether one was sent, whether it was marked failed). A harness that
/// files a result under the wrong id shows as that id answered: the wire
/// cannot tell, which is why pairing by id matters.
#[derive(Debug, PartialEq)]
struct Shape {
    model_calls: usize,
    replies: usize,
    rejected: bool,
    calls: Vec<(String, String, bool, bool)>,
}

fn shape(trace: &Trace, marks_errors: bool) -> Shape {
    let sent_to = trace.model_calls.last().map_or(0, |mc| mc.context_len);
    let answer = |id: &str| {
        trace
            .messages
            .slice(..sent_to)
            .iter()
            .find(|m| m.call_id.as_ref().is_some_and(|c| &*c.0 == id))
    };
    Shape {
        model_calls: trace.model_calls.len(),
        replies: trace
            .steps
            .iter()
            .filter(|s| matches!(s.kind, StepKind::Proposes { .. } | StepKind::Answers { .. }))
            .count(),
        rejected: trace
            .steps
            .iter()
            .any(|s| matches!(s.kind, StepKind::Rejected { .. })),
        calls: trace
            .calls
            .iter()
            .map(|c| {
                let answer = answer(&c.id.0);
                (
                    c.id.0.to_string(),
                    c.tool.clone(),
                    answer.is_some(),
                    // Only Anthropic's request marks a failed result
                    // (`is_error`); Chat and Responses carry it as text.
                    marks_errors && answer.is_some_and(|m| m.is_error),
                )
            })
            .collect(),
    }
}

/// Does the lesson name its provider (and so is shown only as that one)?
fn pinned(name: &str) -> bool {
    let (_, source) = CATALOG.iter().find(|(n, _)| *n == name).unwrap();
    let json: serde_json::Value = serde_json::from_str(source).unwrap();
    json.get("provider").is_some()
}

#[test]
fn every_lesson_round_trips_through_its_requests_in_every_provider() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("wire-round-trip");
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for (name, _) in CATALOG {
        // A reply sent back without the thinking block it came with reads,
        // in a recording, as another reply than the response's: the
        // readers take it so (a recording cannot tell a harness's drop from
        // a missed call). Not a round trip; tests/reasoning.rs checks it.
        if *name == "harness-drops-thinking" {
            continue;
        }
        for provider in Provider::ALL {
            // A lesson that names its provider is refused in the others.
            let Ok(loaded) = load_as(name, Some(provider)) else {
                assert!(pinned(name), "{name} refused as {provider:?}");
                continue;
            };
            let lesson = loaded.trace(Lang::En);
            let path = dir.join(format!("{name}.{}.requests.jsonl", provider.code()));
            let mut file = std::fs::File::create(&path).unwrap();
            wire::write_requests(lesson, &mut file).unwrap();
            drop(file);
            let opened = transcript::open(path.to_str().unwrap(), None)
                .unwrap_or_else(|e| panic!("{name} as {provider:?}: {e}"));
            let replayed = opened.loaded.trace(Lang::En);
            assert_eq!(replayed.provider, provider, "{name}");
            let marks = provider == Provider::Anthropic;
            let (want, got) = (shape(lesson, marks), shape(replayed, marks));
            assert_eq!(
                (got.model_calls, got.replies, got.rejected),
                (want.model_calls, want.replies, want.rejected),
                "{name} as {provider:?}: model calls, replies, rejection"
            );
            assert_eq!(
                got.calls, want.calls,
                "{name} as {provider:?}: calls and pairing"
            );
            // The recorded bodies are drawn at their size.
            for (a, b) in lesson.model_calls.iter().zip(&replayed.model_calls) {
                assert_eq!(
                    a.context_size, b.context_size,
                    "{name} as {provider:?} call #{}",
                    a.number
                );
            }
            checked += 1;
        }
    }
    let pinned_lessons = CATALOG.iter().filter(|(n, _)| pinned(n)).count();
    // harness-drops-thinking, pinned to Anthropic, is left out above.
    assert_eq!(checked, CATALOG.len() * 3 - 2 * pinned_lessons - 1);
}

/// Every lesson's first model call sends a system prompt, and its tools as
/// JSON schemas: the body says so, and the stated size counts them.
#[test]
fn every_request_sends_the_tools_as_schemas() {
    for (name, _) in CATALOG {
        for provider in Provider::ALL {
            let Ok(loaded) = load_as(name, Some(provider)) else {
                assert!(pinned(name), "{name} refused as {provider:?}");
                continue;
            };
            let trace = loaded.trace(Lang::En);
            let body = wire::request(trace, 0);
            let tools = body["tools"].as_array().cloned().unwrap_or_default();
            assert_eq!(tools.len(), trace.tools.len(), "{name} {provider:?}");
            for tool in &tools {
                let schema = match provider {
                    Provider::Chat => &tool["function"]["parameters"],
                    Provider::Responses => &tool["parameters"],
                    Provider::Anthropic => &tool["input_schema"],
                };
                assert_eq!(schema["type"], "object", "{name} {provider:?}: {tool}");
            }
            let sent = serde_json::to_vec(&body).unwrap().len();
            assert_eq!(
                trace.model_calls[0].context_size, sent,
                "{name} {provider:?}"
            );
            assert!(trace.model_calls[0].tools_size > 0 || tools.is_empty());
        }
    }
}

/// A reply cut off at the output limit generated exactly the limit its
/// request set, and no other reply of the run generated more; a run with
/// no cut reply sets no OpenAI limit (Anthropic always sends one).
#[test]
fn every_request_states_the_output_limit_its_replies_keep() {
    let mut cut_runs = 0;
    for (name, _) in CATALOG {
        for provider in Provider::ALL {
            let Ok(loaded) = load_as(name, Some(provider)) else {
                continue;
            };
            let trace = loaded.trace(Lang::En);
            let key = match provider {
                Provider::Chat => "max_completion_tokens",
                Provider::Responses => "max_output_tokens",
                Provider::Anthropic => "max_tokens",
            };
            let cut = trace.model_calls.iter().any(|mc| mc.cut_off);
            cut_runs += usize::from(cut);
            for mc in &trace.model_calls {
                let limit = wire::request(trace, mc.number as usize - 1)[key].as_u64();
                match limit {
                    Some(limit) if mc.cut_off => {
                        assert_eq!(mc.tokens, Some(limit as usize), "{name}")
                    }
                    Some(limit) => assert!(
                        mc.tokens.unwrap_or(0) as u64 <= limit,
                        "{name} #{}",
                        mc.number
                    ),
                    None => assert!(!cut && provider != Provider::Anthropic, "{name}"),
                }
            }
        }
    }
    assert!(cut_runs >= 3, "the cut-off lesson in every provider");
}

/// A Responses response echoes its request's instructions, tools and
/// output limit, as the API does.
#[test]
fn a_responses_response_echoes_its_request() {
    for (name, _) in CATALOG {
        let Ok(loaded) = load_as(name, Some(Provider::Responses)) else {
            continue;
        };
        let trace = loaded.trace(Lang::En);
        for k in 0..trace.model_calls.len() {
            let (request, Some(response)) = (
                wire::request(trace, k),
                wire::response(trace, &loaded.counts, k),
            ) else {
                continue;
            };
            if response.get("error").is_some_and(|e| !e.is_null()) {
                continue;
            }
            for key in ["instructions", "tools", "max_output_tokens"] {
                let sent = request.get(key).cloned().unwrap_or(match key {
                    "tools" => serde_json::json!([]),
                    _ => serde_json::Value::Null,
                });
                assert_eq!(response[key], sent, "{name} call #{}: {key}", k + 1);
            }
        }
    }
}

/// The wire view (`w`) of the default lesson in every provider, both
/// sizes and languages: the request of each model call, and the response
/// under it at the reply's step. Snapshots are the truth of what users see.
#[test]
fn the_wire_view_of_every_model_call_in_every_provider() {
    use agent_loop_sim::app::{Action, App, Panel};
    use agent_loop_sim::frames;
    use agent_loop_sim::theme::Theme;
    for provider in Provider::ALL {
        let loaded = load_as("read-config-timeout", Some(provider)).unwrap();
        for lang in Lang::ALL {
            for (w, h) in [(120, 40), (80, 24)] {
                let mut app = App::new(loaded.clone(), lang, Theme::DARK);
                frames::apply(&mut app, Action::Resize(w, h));
                frames::apply(&mut app, Action::ToggleWire);
                // The context panel at full size, as a teacher zooms it.
                while app.focus != Panel::Context {
                    frames::apply(&mut app, Action::FocusNext);
                }
                frames::apply(&mut app, Action::Zoom);
                for step in [2, 3, 7, 8] {
                    let at = frames::at_step(&app, step - 1, w, h);
                    let text = frames::to_text(&frames::render(&at, w, h));
                    let name = format!(
                        "wire__read-config-timeout__{}__{w}x{h}__{}__step-{step:02}",
                        provider.code(),
                        lang.code()
                    );
                    common::snapshot_settings().bind(|| insta::assert_snapshot!(name, text));
                }
            }
        }
    }
}

/// The tap's recordings of the real Codex CLI (Responses) and Claude Code
/// (Anthropic Messages) replay as the runs they were: two model calls, one
/// tool call answered by id, a final answer. (A Responses object's
/// `"error": null` is no rejection.)
#[test]
fn the_tap_recordings_of_real_agents_replay_as_their_runs() {
    for (file, provider) in [
        ("codex.tap.jsonl", Provider::Responses),
        ("claude-code.tap.jsonl", Provider::Anthropic),
    ] {
        let path = format!(
            "{}/tests/transcripts/real/cli/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        let opened = transcript::open(&path, None).unwrap_or_else(|e| panic!("{file}: {e}"));
        let trace = opened.loaded.trace(Lang::En);
        assert_eq!(trace.provider, provider, "{file}");
        assert_eq!(trace.model_calls.len(), 2, "{file}");
        assert_eq!(
            trace.end,
            agent_loop_sim::scenario::EndStatus::Completed,
            "{file}"
        );
        assert!(
            !trace
                .steps
                .iter()
                .any(|s| matches!(s.kind, StepKind::Rejected { .. })),
            "{file}"
        );
        assert_eq!(trace.calls.len(), 1, "{file}");
        let call = &trace.calls[0];
        assert_eq!(call.paired_to.as_ref(), Some(&call.id), "{file}");
    }
}
