//! Custom tools, policies (allow / deny / ask), the user's approval, op ids
//! filled by the model or derived by the host, arguments written as JSON
//! text, and id styles: what the engine does with each, and the errors an
//! author gets for each new field.

mod common;

use agent_loop_sim::load::{self, prepare};
use agent_loop_sim::scenario::{Lang, Text};
use agent_loop_sim::trace::{
    CallStatus, Decision, Outcome, Refusal, StepKind, ToolCall, Trace, Verdict,
};
use common::{faults_of, shipped_json};
use serde_json::{Value, json};

/// A small scenario with one custom tool; `tool` and `model` replace the
/// defaults, `extra` adds top-level fields.
fn scenario(tool: Value, model: Value, extra: Value) -> Value {
    let text = |s: &str| json!({ "zh": s, "en": s });
    let mut s = json!({
        "name": "t",
        "title": text("t"),
        "task": text("do it"),
        "about": { "why": text("w"), "how": text("h"), "cost": text("c"), "check": text("k") },
        "tools": [tool],
        "budget": 5,
        "model": model,
        "expect": "completed"
    });
    for (k, v) in extra.as_object().unwrap() {
        s[k] = v.clone();
    }
    s
}

fn deploy(extra: Value) -> Value {
    let mut tool = json!({
        "name": "deploy",
        "description": { "zh": "部署", "en": "Deploy" },
        "parameters": {
            "type": "object",
            "properties": { "env": { "type": "string" }, "op_id": { "type": "string" } },
            "required": ["env"]
        },
        "side_effects": true,
        "results": [
            { "args": { "env": "prod" }, "text": { "zh": "已部署 prod", "en": "deployed prod" } },
            { "ok": false, "text": { "zh": "没有这个环境", "en": "no such environment" } }
        ]
    });
    for (k, v) in extra.as_object().unwrap() {
        tool[k] = v.clone();
    }
    tool
}

fn once_then_done(call: Value) -> Value {
    json!([
        { "when": { "has_result": { "tool": "deploy" } }, "say": { "zh": "好", "en": "ok" } },
        { "calls": [call] }
    ])
}

fn run(s: &Value) -> Result<Trace, String> {
    prepare("t.json", &serde_json::to_vec(s).unwrap())
        .map(|l| l.trace(Lang::En).clone())
        .map_err(|e| e.to_string())
}

fn error(s: &Value) -> String {
    run(s).expect_err("expected the scenario to be refused")
}

fn deploy_call(trace: &Trace) -> &ToolCall {
    trace.calls.iter().find(|c| c.tool == "deploy").unwrap()
}

#[test]
fn a_custom_tool_runs_on_the_tool_lane_with_its_scripted_result() {
    let s = scenario(
        deploy(json!({})),
        once_then_done(json!({ "tool": "deploy", "args": { "env": "prod" } })),
        json!({}),
    );
    let t = run(&s).unwrap();
    let call = deploy_call(&t);
    assert!(call.started.is_some());
    assert_eq!(&*call.result.as_ref().unwrap().text, "deployed prod");
    assert_eq!(t.steps.last().unwrap().counters.writes, 1, "a side effect");
    // Offered exactly as written, schema and all.
    let offered = &t.tools[0];
    assert_eq!(offered.signature(), "deploy(env: string, op_id?: string)");
    assert_eq!(offered.schema.as_ref().unwrap()["required"], json!(["env"]));
    // The default entry answers other arguments, as an error.
    let s = scenario(
        deploy(json!({})),
        once_then_done(json!({ "tool": "deploy", "args": { "env": "mars" } })),
        json!({}),
    );
    let t = run(&s).unwrap();
    assert_eq!(deploy_call(&t).outcome(), Some(Outcome::Error));
    assert_eq!(t.steps.last().unwrap().counters.writes, 0);
}

#[test]
fn deny_is_offered_but_refused_as_not_authorised() {
    let s = scenario(
        deploy(json!({ "policy": "deny" })),
        once_then_done(json!({ "tool": "deploy", "args": { "env": "prod" } })),
        json!({}),
    );
    let t = run(&s).unwrap();
    assert_eq!(t.tools.len(), 1, "offered");
    let call = deploy_call(&t);
    assert!(matches!(
        call.verdict,
        Some((_, Verdict::Refused(Refusal::NotAuthorised)))
    ));
    assert!(call.started.is_none());
    let result = call.result.as_ref().unwrap();
    assert!(result.is_error);
    assert_eq!(
        &*result.text,
        "refused by host: tool \"deploy\" is not authorised"
    );
}

#[test]
fn ask_waits_for_the_user_who_approves_denies_or_edits() {
    let approvals = json!([
        { "args": { "env": "prod" }, "decision": "deny", "reason": { "zh": "不行", "en": "not on a Friday" } },
        { "args": { "env": "test" }, "decision": "edit", "edit": { "env": "prod" } },
        { "decision": "approve" }
    ]);
    let tool = deploy(json!({ "policy": "ask", "approvals": approvals }));
    for (env, decision) in [
        ("prod", "denied"),
        ("test", "edited"),
        ("stage", "approved"),
    ] {
        let s = scenario(
            tool.clone(),
            once_then_done(json!({ "tool": "deploy", "args": { "env": env } })),
            json!({}),
        );
        let t = run(&s).unwrap();
        let call = deploy_call(&t);
        let (asked, _) = call.verdict.clone().unwrap();
        assert_eq!(call.status_at(asked), Some(CallStatus::AwaitingUser));
        let (decided, how) = call.decision.clone().unwrap();
        assert_eq!(decided, asked + 1, "the user answers right after");
        let step = &t.steps[decided];
        assert!(matches!(step.kind, StepKind::UserDecides { .. }));
        assert_eq!(step.from, None, "the user is not a lane");
        match decision {
            "denied" => {
                assert_eq!(
                    how,
                    Decision::Denied(Some(Text::new(["不行".into(), "not on a Friday".into()])))
                );
                assert!(call.started.is_none());
                assert_eq!(call.outcome(), Some(Outcome::Denied));
                assert_eq!(call.status_at(decided), Some(CallStatus::Denied));
                let text = &*call.result.as_ref().unwrap().text;
                assert_eq!(text, "denied by the user: not on a Friday");
                // The reason is in the next context, under the call's id.
                let next = &t.model_calls[1];
                assert!(
                    t.context(next)
                        .iter()
                        .any(|m| m.call_id.as_ref() == Some(&call.id) && *m.text == *text)
                );
            }
            "edited" => {
                assert_eq!(call.status_at(decided), Some(CallStatus::Edited));
                assert_eq!(call.run_args(), vec![("env".into(), "prod".into())]);
                let text = &*call.result.as_ref().unwrap().text;
                assert_eq!(
                    text,
                    "deployed prod (before it ran, the user changed these arguments: {\"env\": \"prod\"})"
                );
            }
            _ => {
                assert_eq!(call.status_at(decided), Some(CallStatus::UserApproved));
                assert!(call.started.is_some());
                assert_eq!(call.outcome(), Some(Outcome::Error), "no stage env");
            }
        }
    }
}

#[test]
fn arguments_as_json_text_are_checked_against_the_schema() {
    let cases = [
        (
            r#"{"env": "prod""#,
            "refused by host: the arguments are not a valid JSON object (EOF while parsing an object at line 1 column 14)",
        ),
        (
            r#"["prod"]"#,
            "refused by host: the arguments are not a valid JSON object (expected a JSON object { ... })",
        ),
        (r#"{}"#, "refused by host: missing argument \"env\""),
        (
            r#"{"env": "prod", "region": "eu"}"#,
            "refused by host: unknown argument \"region\"",
        ),
        (
            r#"{"env": 5}"#,
            "refused by host: argument \"env\" must be of type string",
        ),
    ];
    for (arguments, said) in cases {
        let s = scenario(
            deploy(json!({})),
            once_then_done(json!({ "tool": "deploy", "arguments": arguments })),
            json!({}),
        );
        let t = run(&s).unwrap();
        let call = deploy_call(&t);
        assert_eq!(call.raw_args.as_deref(), Some(arguments));
        assert_eq!(call.outcome(), Some(Outcome::Refused), "{arguments}");
        assert_eq!(&*call.result.as_ref().unwrap().text, said);
        assert!(call.started.is_none());
    }
    // A schema open to other arguments lets them through.
    let mut open = deploy(json!({}));
    open["parameters"]["additionalProperties"] = json!(true);
    let s = scenario(
        open,
        once_then_done(
            json!({ "tool": "deploy", "arguments": "{\"env\": \"prod\", \"region\": \"eu\"}" }),
        ),
        json!({}),
    );
    assert_eq!(deploy_call(&run(&s).unwrap()).outcome(), Some(Outcome::Ok));
    // Valid text runs, and its values are matched as written.
    let s = scenario(
        deploy(json!({})),
        once_then_done(json!({ "tool": "deploy", "arguments": "{\"env\": \"prod\"}" })),
        json!({}),
    );
    let t = run(&s).unwrap();
    assert_eq!(
        &*deploy_call(&t).result.as_ref().unwrap().text,
        "deployed prod"
    );
}

#[test]
fn a_derived_op_id_answers_the_same_call_from_the_record() {
    let model = json!([
        { "when": { "contains": "again" }, "say": { "zh": "好", "en": "done" } },
        { "when": { "has_result": { "tool": "deploy" } }, "say": { "zh": "again", "en": "again" },
          "calls": [{ "tool": "deploy", "args": { "env": "prod" } }] },
        { "calls": [{ "tool": "deploy", "args": { "env": "prod" } }] }
    ]);
    let s = scenario(deploy(json!({ "op_id": "derived" })), model, json!({}));
    let t = run(&s).unwrap();
    let second = &t.calls[1];
    assert_eq!(second.outcome(), Some(Outcome::Replayed));
    assert!(second.started.is_none());
    let op = agent_loop_sim::engine::derived_op_id("deploy", &second.args);
    assert!(
        t.steps.iter().any(
            |s| matches!(&s.kind, StepKind::Replays { op: o, conflict: false, .. } if *o == op)
        )
    );
    assert_eq!(t.steps.last().unwrap().counters.writes, 1);
}

#[test]
fn shipped_traces_show_both_real_id_styles() {
    let openai = load::load("malformed-arguments").unwrap();
    let anthropic = load::load("approve-side-effects").unwrap();
    for lang in Lang::ALL {
        for call in &openai.trace(lang).calls {
            assert_eq!(call.id.0.len(), 29, "{}", call.id);
            assert!(call.id.0.starts_with("call_"));
        }
        for call in &anthropic.trace(lang).calls {
            assert_eq!(call.id.0.len(), 30, "{}", call.id);
            assert!(call.id.0.starts_with("toolu_01"));
        }
    }
    // The same ids in both languages and on every load: the host echoes
    // back exactly what the API gave.
    let again = load::load("approve-side-effects").unwrap();
    assert_eq!(
        anthropic.trace(Lang::Zh).calls,
        anthropic.trace(Lang::Zh).calls
    );
    let ids = |t: &Trace| t.calls.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
    assert_eq!(
        ids(anthropic.trace(Lang::Zh)),
        ids(anthropic.trace(Lang::En))
    );
    assert_eq!(ids(again.trace(Lang::En)), ids(anthropic.trace(Lang::En)));
    for t in [anthropic.trace(Lang::En), openai.trace(Lang::En)] {
        for m in &t.messages {
            if let Some(id) = &m.call_id {
                assert!(t.calls.iter().any(|c| &c.id == id), "echoed exactly");
            }
        }
    }
}

#[test]
fn the_approval_lesson_approves_one_edits_one_and_returns_the_denial_to_the_model() {
    let t = load::load("approve-side-effects")
        .unwrap()
        .trace(Lang::En)
        .clone();
    let decided: Vec<(&str, &Decision)> = t
        .calls
        .iter()
        .filter_map(|c| c.decision.as_ref().map(|(_, d)| (c.tool.as_str(), d)))
        .collect();
    assert_eq!(decided.len(), 3);
    assert_eq!(decided[0], ("write_file", &Decision::Approved));
    assert!(matches!(decided[1], ("patch_file", Decision::Edited(_))));
    assert_eq!(decided[2].0, "publish_release");

    // The edited patch runs with the user's line; the model's call keeps its own.
    let edited = t
        .calls
        .iter()
        .find(|c| matches!(c.decision, Some((_, Decision::Edited(_)))))
        .unwrap();
    let arg = |args: &[(String, String)], k: &str| {
        args.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
    };
    assert!(
        arg(&edited.args, "replace")
            .unwrap()
            .contains("faster start-up")
    );
    let replace = arg(&edited.run_args(), "replace").unwrap();
    assert!(replace.contains("fixes the crash on an empty config"));
    let last = t.steps.len() - 1;
    let shown = edited.run_args_text_at(last).unwrap();
    assert!(
        shown.starts_with("{\"replace\": ✎ \"## 1.2\\n- fixes the crash"),
        "{shown}"
    );
    assert!(
        shown.ends_with(", \"path\": \"CHANGELOG.md\", \"find\": \"## 1.1\"}"),
        "{shown}"
    );
    assert!(edited.run_args_text_at(edited.proposed).is_none());
    assert_eq!(edited.outcome(), Some(Outcome::Ok));
    // The next model call reads the model's own call and the noted result.
    let after = t.context(&t.model_calls[3]);
    let reply = after
        .iter()
        .find(|m| m.calls.contains(&edited.id))
        .expect("the model's own call is in its context");
    assert_eq!(reply.role, agent_loop_sim::trace::Role::Assistant);
    let result = after
        .iter()
        .find(|m| m.call_id.as_ref() == Some(&edited.id))
        .unwrap();
    assert!(
        result
            .text
            .starts_with("patched CHANGELOG.md (now v2) (before it ran, the user changed these arguments: {\"replace\": ")
            && result.text.ends_with("fixes the crash on an empty config\\n\\n## 1.1\"})"),
        "{}",
        result.text
    );

    let publish = t
        .calls
        .iter()
        .find(|c| c.tool == "publish_release")
        .unwrap();
    assert!(publish.started.is_none());
    let last = t.model_calls.last().unwrap();
    assert!(
        t.context(last)
            .iter()
            .any(|m| m.call_id.as_ref() == Some(&publish.id)
                && m.is_error
                && m.text.contains("Monday"))
    );
    assert_eq!(t.steps.last().unwrap().counters.writes, 2);
}

#[test]
fn every_new_field_has_its_error_with_a_place() {
    let call = json!({ "tool": "deploy", "args": { "env": "prod" } });
    let cases: Vec<(Value, Value, &str)> = vec![
        (
            deploy(json!({ "parameters": { "type": "array", "properties": {} } })),
            once_then_done(call.clone()),
            "tools[0].parameters.type: expected \"object\"",
        ),
        (
            deploy(
                json!({ "parameters": { "type": "object", "properties": { "env": { "type": "text" } } } }),
            ),
            once_then_done(call.clone()),
            "tools[0].parameters.properties.env.type: expected one of: string, integer, number, boolean, array, object",
        ),
        (
            deploy(
                json!({ "parameters": { "type": "object", "properties": {}, "required": ["env"] } }),
            ),
            once_then_done(call.clone()),
            "tools[0].parameters.required[0]: expected the name of one of \"properties\"",
        ),
        (
            deploy(
                json!({ "results": [{ "args": { "env": "prod" }, "text": { "zh": "a", "en": "a" } }] }),
            ),
            once_then_done(call.clone()),
            "tools[0].results[0]: the last result is the default",
        ),
        (
            deploy(
                json!({ "side_effects": false, "results": [{ "text": { "zh": "a", "en": "a" }, "writes": { "path": "a", "content": "b" } }] }),
            ),
            once_then_done(call.clone()),
            "tools[0].results[0].writes: only a tool with \"side_effects\": true writes",
        ),
        (
            deploy(json!({ "policy": "ask" })),
            once_then_done(call.clone()),
            "tools[0].approvals: a tool whose \"policy\" is ask needs the user's answers",
        ),
        (
            deploy(json!({ "approvals": [{ "decision": "approve" }] })),
            once_then_done(call.clone()),
            "tools[0].approvals: only a tool whose \"policy\" is ask has approvals",
        ),
        (
            deploy(json!({ "policy": "ask", "approvals": [{ "decision": "edit" }] })),
            once_then_done(call.clone()),
            "tools[0].approvals[0].edit: an edit changes some arguments",
        ),
        (
            deploy(json!({ "policy": "maybe" })),
            once_then_done(call.clone()),
            "at tools[0].policy: unknown value \"maybe\"; expected one of: allow, deny, ask",
        ),
        (
            deploy(json!({ "name": "read_file" })),
            json!([{ "say": { "zh": "好", "en": "ok" } }]),
            "tools[0].results: \"read_file\" is a built-in tool",
        ),
        (
            deploy(json!({})),
            once_then_done(
                json!({ "tool": "deploy", "args": { "env": "prod" }, "arguments": "{}" }),
            ),
            "model[1].calls[0].arguments: expected either \"args\" (name → string) or \"arguments\"",
        ),
    ];
    for (tool, model, wanted) in cases {
        let got = error(&scenario(tool, model, json!({})));
        assert!(got.contains(wanted), "got: {got}\nwanted: {wanted}");
        assert!(got.starts_with("t.json: "), "{got}");
    }
    let got = error(&scenario(
        deploy(json!({})),
        once_then_done(call),
        json!({ "ids": "uuid" }),
    ));
    assert!(
        got.contains(
            "at ids: unknown value \"uuid\"; expected one of: sequential, openai, anthropic"
        ),
        "{got}"
    );
}

/// Each tool's custom fields are checked on their own: a fault in one tool
/// does not hide a fault in another, and both come with their place.
#[test]
fn faults_in_two_tools_are_both_reported() {
    let mut s = shipped_json("seed-agent-loop");
    s["tools"][0]["parameters"]["properties"]["scope"]["type"] = json!("str");
    s["tools"][3]["approvals"] = json!([{ "decision": "approve" }]);
    let lines = faults_of("two.json", &s);
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(
        lines[0].contains(" at tools[0].parameters.properties.scope.type: expected one of"),
        "{lines:#?}"
    );
    assert!(
        lines[1].contains(" at tools[3].approvals: only a tool whose \"policy\" is ask"),
        "{lines:#?}"
    );
}

/// A custom tool's answer that names the files it read marks them read, as
/// a built-in read would: the search in malformed-arguments reads
/// src/config.ts, and the environment line says so from then on.
#[test]
fn a_custom_answer_marks_the_files_it_read() {
    use agent_loop_sim::trace::FileChange;
    let loaded = load::load("malformed-arguments").unwrap();
    let t = loaded.trace(Lang::En);
    let search = t
        .calls
        .iter()
        .find(|c| c.outcome() == Some(Outcome::Ok))
        .expect("the fixed search runs");
    let reads: Vec<usize> = t
        .file_events
        .iter()
        .filter(|e| e.path == "src/config.ts" && e.change == FileChange::Read)
        .map(|e| e.step)
        .collect();
    assert_eq!(reads, [search.finished.unwrap()]);
}

/// `reads` names files inside the workspace, or `check` says where not.
#[test]
fn a_read_outside_the_workspace_is_refused_with_its_place() {
    let mut s = shipped_json("malformed-arguments");
    s["tools"][0]["results"][0]["reads"] = json!(["../etc/passwd"]);
    let lines = faults_of("reads.json", &s);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(
        lines[0].contains(
            " at tools[0].results[0].reads[0]: expected a relative path inside the workspace"
        ),
        "{lines:#?}"
    );
}

/// A failed result with `writes`: the change was made, then the answer
/// failed (a timeout after the write). The file changes and the write is
/// counted; the model reads an error. A failure without `writes` changes
/// nothing.
#[test]
fn a_failed_result_can_still_write() {
    let tool = deploy(json!({
        "results": [
            {
                "ok": false,
                "text": { "zh": "超时", "en": "timed out" },
                "writes": { "path": "DEPLOYED", "content": "prod\n" }
            }
        ]
    }));
    let s = scenario(
        tool,
        once_then_done(json!({ "tool": "deploy", "args": { "env": "prod" } })),
        json!({}),
    );
    let t = run(&s).unwrap();
    let call = deploy_call(&t);
    assert_eq!(call.outcome(), Some(Outcome::Error));
    assert_eq!(
        t.steps.last().unwrap().counters.writes,
        1,
        "the write landed"
    );
    assert!(t.files.iter().any(|f| f == "DEPLOYED"), "{:?}", t.files);
}

/// A custom verify tool called with arguments it does not take, or without
/// one it needs, gets a warning at `verify.args` naming both.
#[test]
fn a_custom_verify_with_wrong_arguments_is_warned_about() {
    let audit = json!({
        "name": "audit",
        "description": { "zh": "检查", "en": "Check" },
        "parameters": {
            "type": "object",
            "properties": { "scope": { "type": "string" } },
            "required": ["scope"]
        },
        "results": [ { "text": { "zh": "通过", "en": "passed" } } ]
    });
    let model = json!([{ "say": { "zh": "好", "en": "done" } }]);
    let s = scenario(
        audit.clone(),
        model.clone(),
        json!({ "verify": { "tool": "audit", "args": { "scop": "toy" } } }),
    );
    let faults = faults_of("t.json", &s);
    assert!(
        faults.iter().any(|f| f.contains("verify.args")
            && f.contains("it has no argument scop")
            && f.contains("it needs scope")),
        "{faults:?}"
    );
    // Right arguments: no warning.
    let s = scenario(
        audit,
        model,
        json!({ "verify": { "tool": "audit", "args": { "scope": "toy" } } }),
    );
    assert!(
        faults_of("t.json", &s)
            .iter()
            .all(|f| !f.contains("verify.args"))
    );
}

/// A schema's description may be a text in each language: a run in one
/// language sends that one's string; a plain string (as before) is sent
/// in every language; a text missing a language is refused at its path.
#[test]
fn a_schema_description_in_both_languages_is_sent_in_the_runs_language() {
    use agent_loop_sim::wire;
    let tool = |env: Value| {
        deploy(json!({ "parameters": {
            "type": "object",
            "properties": { "env": env, "op_id": { "type": "string" } },
            "required": ["env"]
        } }))
    };
    let call = json!({ "tool": "deploy", "args": { "env": "prod" } });
    let both = json!({ "type": "string", "description": { "zh": "环境：staging 或 prod", "en": "the environment: staging or prod" } });
    let s = scenario(tool(both), once_then_done(call.clone()), json!({}));
    let loaded = prepare("t.json", &serde_json::to_vec(&s).unwrap()).unwrap();
    for (lang, said, not) in [
        (Lang::Zh, "环境：staging 或 prod", "the environment"),
        (Lang::En, "the environment: staging or prod", "环境"),
    ] {
        let body = wire::request(loaded.trace(lang), 0);
        let env = body["tools"][0]["function"]["parameters"]["properties"]["env"].clone();
        assert_eq!(env["description"], said, "{lang:?}: {env}");
        assert!(!body.to_string().contains(not), "{lang:?}");
    }
    // A plain string, as files wrote it before: the same in both.
    let plain = json!({ "type": "string", "description": "staging or prod" });
    let s = scenario(tool(plain), once_then_done(call.clone()), json!({}));
    let loaded = prepare("t.json", &serde_json::to_vec(&s).unwrap()).unwrap();
    for lang in Lang::ALL {
        let body = wire::request(loaded.trace(lang), 0);
        assert_eq!(
            body["tools"][0]["function"]["parameters"]["properties"]["env"]["description"],
            "staging or prod"
        );
    }
    // One language missing, or one that is not ours.
    let half = json!({ "type": "string", "description": { "zh": "环境" } });
    let err = error(&scenario(
        tool(half),
        once_then_done(call.clone()),
        json!({}),
    ));
    assert!(
        err.contains("tools[0].parameters.properties.env.description: missing en; expected a string, or {\"zh\""),
        "{err}"
    );
    let other =
        json!({ "type": "string", "description": { "zh": "环境", "en": "env", "fr": "env" } });
    let err = error(&scenario(tool(other), once_then_done(call), json!({})));
    assert!(
        err.contains("tools[0].parameters.properties.env.description.fr: unknown language \"fr\""),
        "{err}"
    );
}
