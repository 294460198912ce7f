//! The provider's prompt cache (`host.caches_prompt`): the lesson
//! `prompt-cache-stable-prefix` as its responses report it, a compaction
//! that breaks the cached prefix, and what `check` refuses.

mod common;

use agent_loop_sim::scenario::Lang;
use agent_loop_sim::trace::Trace;
use agent_loop_sim::wire::{self, Exchange, Provider};
use serde_json::{Value, json};

const LESSON: &str = "prompt-cache-stable-prefix";

/// Every line of `export --format requests` of a run.
fn exchanges(trace: &Trace) -> Vec<Exchange> {
    let mut out = Vec::new();
    wire::write_requests(trace, &mut out).unwrap();
    out.split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect()
}

/// Each response's cached tokens, where its provider reports them.
fn cached(e: &Exchange) -> u64 {
    let usage = &e.response.as_ref().unwrap()["usage"];
    let at = match e.provider {
        Provider::Chat => &usage["prompt_tokens_details"]["cached_tokens"],
        Provider::Responses => &usage["input_tokens_details"]["cached_tokens"],
        Provider::Anthropic => &usage["cache_read_input_tokens"],
    };
    at.as_u64()
        .unwrap_or_else(|| panic!("no cached tokens in {usage}"))
}

fn input(e: &Exchange) -> u64 {
    let usage = &e.response.as_ref().unwrap()["usage"];
    usage["prompt_tokens"]
        .as_u64()
        .or(usage["input_tokens"].as_u64())
        .unwrap()
}

/// Request `e`'s message list.
fn list(e: &Exchange) -> Vec<Value> {
    e.request[wire::list_key(e.provider)]
        .as_array()
        .cloned()
        .unwrap()
}

fn lesson_json() -> Value {
    common::shipped_json(LESSON)
}

fn traces_of(scenario: &Value, provider: Option<Provider>) -> Vec<Trace> {
    let bytes = serde_json::to_vec_pretty(scenario).unwrap();
    let loaded = agent_loop_sim::load::prepare_all_as("lesson.json", &bytes, provider)
        .unwrap_or_else(|f| panic!("{f:?}"));
    assert_eq!(loaded.faults, [], "{provider:?}");
    loaded.traces.to_vec()
}

/// Call #1 has nothing before it; call #2 shares only the system prompt,
/// tools and task, under OpenAI's 1,024 tokens; from call #3 on the hit
/// is the whole request before it, in steps of 128, and grows.
#[test]
fn the_lesson_hits_the_cache_from_the_third_call_on() {
    for trace in traces_of(&lesson_json(), None) {
        let lines = exchanges(&trace);
        let hits: Vec<u64> = lines.iter().map(cached).collect();
        assert_eq!(hits.len(), 4, "{:?}", trace.lang);
        assert_eq!(hits[..2], [0, 0], "{:?}", trace.lang);
        for k in 2..hits.len() {
            let before = input(&lines[k - 1]);
            assert!(hits[k] >= 1024 && hits[k].is_multiple_of(128), "{hits:?}");
            // The request before, but for its reply priming, rounded down.
            assert!(hits[k] <= before && before - hits[k] < 128 + 3, "{hits:?}");
            assert!(hits[k] > hits[k - 1], "{hits:?}");
            assert!(hits[k] < input(&lines[k]));
            // The earlier body really is the start of this one.
            let (earlier, now) = (list(&lines[k - 1]), list(&lines[k]));
            assert_eq!(earlier[..], now[..earlier.len()]);
        }
    }
}

/// The same lesson as Responses reports it, in its own field.
#[test]
fn responses_reports_the_same_hits() {
    let mut scenario = lesson_json();
    scenario.as_object_mut().unwrap().remove("provider");
    let chat: Vec<u64> = exchanges(&traces_of(&scenario, Some(Provider::Chat))[0])
        .iter()
        .map(cached)
        .collect();
    let responses = traces_of(&scenario, Some(Provider::Responses));
    let hits: Vec<u64> = exchanges(&responses[0]).iter().map(cached).collect();
    assert_eq!(hits.len(), chat.len());
    assert!(hits[2] >= 1024, "{hits:?}");
}

/// A compaction that summarises old turns rewrites the messages after the
/// task: the next request shares only the system prompt, tools and task
/// with any earlier one, under 1,024 tokens, and nothing is cached.
#[test]
fn a_compaction_breaks_the_cached_prefix() {
    let mut scenario = lesson_json();
    // A window between call #3's request and call #4's, in both languages:
    // the host compacts once, before call #4.
    let runs = traces_of(&scenario, None);
    let sizes = |k: usize| runs.iter().map(move |t| t.model_calls[k].context_tokens);
    let (most_3, least_4) = (sizes(2).max().unwrap(), sizes(3).min().unwrap());
    assert!(most_3 < least_4);
    let window = (most_3 + least_4) / 2;
    scenario["context"] = json!({
        "window": window,
        "policy": "summarize",
        "summary": {
            "zh": "build.log：tests/api.rs 的 timeout_default 失败，期望 30，得到 5。",
            "en": "build.log: timeout_default in tests/api.rs failed, expected 30, got 5."
        }
    });
    for trace in traces_of(&scenario, None) {
        assert_eq!(trace.compactions.len(), 1, "{:?}", trace.lang);
        let after = trace
            .model_calls
            .partition_point(|mc| mc.step < trace.compactions[0].step);
        let hits: Vec<u64> = exchanges(&trace).iter().map(cached).collect();
        assert!(hits[after - 1] >= 1024, "{hits:?}");
        assert_eq!(
            hits[after],
            0,
            "{hits:?} (compaction before call #{})",
            after + 1
        );
    }
}

/// Without `caches_prompt` a Chat response says nothing of a cache, as
/// before.
#[test]
fn without_it_no_cache_is_reported() {
    let mut scenario = lesson_json();
    scenario.as_object_mut().unwrap().remove("host");
    for trace in traces_of(&scenario, None) {
        for e in exchanges(&trace) {
            let usage = &e.response.as_ref().unwrap()["usage"];
            assert!(usage.get("prompt_tokens_details").is_none(), "{usage}");
        }
    }
}

/// The context panel states the hit and the cost at each model call.
#[test]
fn the_context_panel_states_the_hit_and_the_cost() {
    let trace = &traces_of(&lesson_json(), None)[1];
    assert_eq!(trace.lang, Lang::En);
    let counts = wire::counts_of(trace);
    let u = wire::cache::cache_use(trace, &counts, 2).unwrap();
    let line = agent_loop_sim::i18n::cache_line(&u, Lang::En);
    assert!(
        line.starts_with(&format!(
            "Prompt cache: {} of {} input tokens cached",
            u.cached, u.input
        )),
        "{line}"
    );
    assert!(u.cost() < u.cost_uncached(), "{u:?}");
}

/// Anthropic caches only what a request marks with cache_control, which
/// no lesson writes: refused, at its place, with what is expected.
#[test]
fn anthropic_is_refused_at_its_place() {
    let mut scenario = lesson_json();
    scenario["provider"] = json!("anthropic");
    scenario["ids"] = json!("anthropic");
    let faults = common::faults_of("lesson.json", &scenario);
    assert!(
        faults.iter().any(|f| f.contains("host.caches_prompt")
            && f.contains("cache_control")
            && f.contains("expected \"provider\": \"chat\" or \"responses\"")),
        "{faults:?}"
    );
}
