//! An MCP server (`mcp`): the host asks for its tools at start-up, before
//! the task; their descriptions reach every request in each provider's
//! shape; calls of them go to the server as `tools/call` with their own
//! JSON-RPC ids, a failed one coming back with `isError: true` as an error
//! result; a refused call never reaches the server; and `check` names the
//! place of every mistake in `mcp`.

mod common;

use agent_loop_sim::load;
use agent_loop_sim::scenario::{EndStatus, Lang};
use agent_loop_sim::trace::{StepKind, Trace};
use agent_loop_sim::wire::mcp::{Sender, messages_at};
use agent_loop_sim::wire::{self, Provider};
use serde_json::{Value, json};

const LESSON: &str = "mcp-tools-from-a-server";
const PROVIDERS: [Provider; 3] = [Provider::Chat, Provider::Responses, Provider::Anthropic];

/// Every JSON-RPC message of the run, in step order.
fn jsonrpc(trace: &Trace) -> Vec<(usize, Sender, Value)> {
    (0..trace.len())
        .flat_map(|i| {
            messages_at(trace, i)
                .into_iter()
                .map(move |(s, m)| (i, s, m))
        })
        .collect()
}

/// A tool definition's description in a request body, in its provider's
/// shape (Chat nests it under `function`).
fn description_in(body: &Value, tool: &str) -> Option<String> {
    body["tools"].as_array()?.iter().find_map(|t| {
        let def = t.get("function").unwrap_or(t);
        (def["name"] == tool).then(|| def["description"].as_str().unwrap().to_string())
    })
}

#[test]
fn the_host_lists_the_servers_tools_before_the_task_and_offers_their_descriptions() {
    for provider in PROVIDERS {
        let loaded = load::examine_as(LESSON, Some(provider)).unwrap_or_else(|f| panic!("{f:?}"));
        assert_eq!(loaded.faults, [], "{provider:?}");
        let trace = loaded.trace(Lang::En);
        assert_eq!(trace.end, EndStatus::Completed);
        let kinds: Vec<&StepKind> = trace.steps.iter().take(3).map(|s| &s.kind).collect();
        assert_eq!(
            kinds,
            [
                &StepKind::McpLists,
                &StepKind::McpListed,
                &StepKind::TaskArrives
            ]
        );
        let messages = jsonrpc(trace);
        let methods: Vec<(usize, &str)> = (messages.iter())
            .filter_map(|(i, _, m)| Some((*i, m["method"].as_str()?)))
            .collect();
        assert_eq!(
            &methods[..3],
            [
                (0, "initialize"),
                (0, "notifications/initialized"),
                (0, "tools/list")
            ]
        );
        // The server's list, as the host then offers it in every request.
        let (_, sender, listed) = &messages[4];
        assert_eq!(*sender, Sender::Server);
        let tools = listed["result"]["tools"].as_array().unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["search_notes", "get_note"]);
        assert!(
            tools[0]["description"]
                .as_str()
                .unwrap()
                .contains("~/.ssh/id_rsa")
        );
        assert_eq!(tools[1]["inputSchema"]["required"], json!(["id"]));
        for index in 0..trace.model_calls.len() {
            let body = wire::request(trace, index);
            for t in tools {
                let name = t["name"].as_str().unwrap();
                assert_eq!(
                    description_in(&body, name).as_deref(),
                    t["description"].as_str(),
                    "{provider:?} call #{}: {name}",
                    index + 1
                );
            }
        }
    }
    // The task's narration key follows the server's steps.
    let loaded = load::load(LESSON).unwrap();
    let trace = loaded.trace(Lang::En);
    assert_eq!(load::step_of_key("task", trace), Ok(2));
    assert_eq!(load::step_of_key("mcp.listed", trace), Ok(1));
}

#[test]
fn calls_go_to_the_server_as_tools_call_and_a_failure_comes_back_as_an_error_result() {
    let loaded = load::examine_as(LESSON, Some(Provider::Anthropic)).unwrap();
    let trace = loaded.trace(Lang::En);
    let messages = jsonrpc(trace);
    let calls: Vec<&Value> = (messages.iter())
        .filter(|(_, s, m)| *s == Sender::Host && m["method"] == "tools/call")
        .map(|(_, _, m)| m)
        .collect();
    // The refused read of ~/.ssh/id_rsa never reaches the server.
    let sent: Vec<(u64, &str, &Value)> = (calls.iter())
        .map(|m| {
            let p = &m["params"];
            (
                m["id"].as_u64().unwrap(),
                p["name"].as_str().unwrap(),
                &p["arguments"],
            )
        })
        .collect();
    assert_eq!(
        sent,
        [
            (3, "search_notes", &json!({"query": "release date"})),
            (4, "get_note", &json!({"id": "17"})),
            (5, "get_note", &json!({"id": "note-17"})),
        ]
    );
    assert!(
        !(messages.iter()).any(|(_, _, m)| m.to_string().contains("id_rsa\"}")),
        "no call with the key's path goes to the server"
    );
    // Each answer: the same JSON-RPC id, the text the model reads, and
    // isError on the failed one only.
    let answers: Vec<(u64, bool)> = (messages.iter())
        .filter(|(_, s, m)| *s == Sender::Server && m["result"]["content"].is_array())
        .map(|(_, _, m)| (m["id"].as_u64().unwrap(), m["result"]["isError"] == true))
        .collect();
    assert_eq!(answers, [(3, false), (4, true), (5, false)]);
    let failed = trace
        .calls
        .iter()
        .find(|c| c.args == [("id".into(), "17".into())]);
    let failed = failed.unwrap();
    assert!(failed.result.as_ref().unwrap().is_error);
    // Anthropic's tool_result for it says is_error, in the next request.
    let body = wire::request(trace, 3);
    let result = (body["messages"].as_array().unwrap().iter())
        .flat_map(|m| m["content"].as_array().into_iter().flatten())
        .find(|b| b["tool_use_id"] == *failed.id.0)
        .unwrap();
    assert_eq!(result["is_error"], true);
    // The explanation and the transcript show the messages as sent.
    let out = common::run(&["transcript", LESSON, "--lang", "en"]);
    let text = out.stdout;
    assert!(
        text.contains(r#"→ {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "get_note", "arguments": {"id": "17"}}}"#),
        "{text}"
    );
    assert!(text.contains(r#""isError": true}}"#), "{text}");
}

#[test]
fn a_lesson_without_a_server_sends_no_jsonrpc_and_starts_with_its_task() {
    let loaded = load::load("prompt-injection-in-file").unwrap();
    let trace = loaded.trace(Lang::En);
    assert_eq!(trace.steps[0].kind, StepKind::TaskArrives);
    assert!(jsonrpc(trace).is_empty());
    assert!(load::step_of_key("mcp.list", trace).is_err());
}

#[test]
fn check_names_each_mistake_in_mcp() {
    let mut lesson = common::shipped_json(LESSON);
    lesson["mcp"] = json!({
        "server": " ",
        "tools": ["search_notes", "read_file", "nope", "search_notes"],
    });
    let faults = common::faults_of("mcp.json", &lesson);
    let expected = [
        "at mcp.server: expected the server's name",
        "at mcp.tools[1]: \"read_file\" is a built-in tool, which the host runs itself",
        "at mcp.tools[2]: \"nope\" is not a tool of \"tools\"",
        "at mcp.tools[3]: \"search_notes\" is listed twice",
    ];
    for e in expected {
        assert!(faults.iter().any(|f| f.contains(e)), "{e}\n{faults:#?}");
    }
    // No tools listed; a listed tool the host does not offer.
    let mut unoffered = common::shipped_json(LESSON);
    unoffered["tools"][2]["offered"] = json!(false);
    let cases = [
        (lesson, json!([]), "at mcp.tools: expected the names"),
        (
            unoffered,
            json!(["get_note"]),
            "at mcp.tools[0]: \"get_note\" is not offered",
        ),
    ];
    for (mut lesson, tools, expected) in cases {
        lesson["mcp"] = json!({ "server": "team-notes", "tools": tools });
        let faults = common::faults_of("mcp.json", &lesson);
        assert!(
            faults.iter().any(|f| f.contains(expected)),
            "{expected}\n{faults:#?}"
        );
    }
}

#[test]
fn the_tool_lane_says_it_is_the_mcp_server_connecting_then_serving() {
    use agent_loop_sim::frames;
    let app = common::app(LESSON, Lang::En);
    let frame = |step: usize| {
        frames::to_text(&frames::render(
            &frames::at_step(&app, step, 120, 40),
            120,
            40,
        ))
    };
    assert!(
        frame(0).contains("MCP server team-notes (connecting)"),
        "{}",
        frame(0)
    );
    // The names wrap to the environment's next row at this width.
    let serving = "MCP server team-notes (connected, serving";
    assert!(frame(1).contains(serving), "{}", frame(1));
    assert!(frame(22).contains(serving), "{}", frame(22));
}
