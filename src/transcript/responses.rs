//! OpenAI Responses: input and output items. `function_call` (`call_id`,
//! `name`, `arguments` as a JSON string) and `function_call_output`
//! (`call_id`, `output`); the item's own `id` is not the pairing key. The
//! Codex CLI rollout stores the same items, so `item` serves both.

use serde_json::Value;

use super::builder::{Builder, CallArgs, CallSpec, Msg, args_of_json_text, offered_tools, text_of};
use super::errors::at_line;
use super::exchange::{exchange, refusal};
use crate::load::ScenarioError;

pub fn document(
    path: &str,
    value: &Value,
    line: usize,
    whole: bool,
    b: &mut Builder,
) -> Result<(), ScenarioError> {
    let parts = exchange(path, value, line, "input", "output")?;
    if let Some(items) = parts.list {
        for (i, v) in items.iter().enumerate() {
            let at = if whole { i + 1 } else { line };
            if let Some(msg) = item(v, at, None, b) {
                b.push(msg);
            }
        }
        return Ok(());
    }
    let reply = match parts.response {
        Some(r) => {
            let output = r.get("output").and_then(Value::as_array).ok_or_else(|| {
                at_line(
                    path,
                    line,
                    "response: expected \"output\", a list of output items",
                )
            })?;
            let usage = r.get("usage");
            let tokens = |k: &str| usage.and_then(|u| u.get(k)).and_then(Value::as_u64);
            let mut msgs = Vec::new();
            let mut tokens_out = tokens("output_tokens");
            for v in output {
                if let Some(msg) = item(v, line, tokens_out.take(), b) {
                    msgs.push(msg);
                }
            }
            Some((one_reply_per_turn(msgs), tokens("input_tokens")))
        }
        None => None,
    };
    if let Some(request) = parts.request {
        if let Some(instructions) = request.get("instructions").and_then(Value::as_str) {
            b.system(instructions);
        }
        if let Some(tools) = request.get("tools").and_then(Value::as_array) {
            b.tools(offered_tools(tools, "parameters"));
        }
        let msgs = match request.get("input") {
            Some(Value::String(s)) => vec![Msg::User {
                text: s.clone(),
                line,
            }],
            Some(Value::Array(items)) => one_reply_per_turn(
                items
                    .iter()
                    .filter_map(|v| item(v, line, None, b))
                    .collect(),
            ),
            _ => {
                return Err(at_line(
                    path,
                    line,
                    "expected \"input\", a string or a list of items",
                ));
            }
        };
        let tokens_in = reply.as_ref().and_then(|r| r.1);
        match request.get("previous_response_id") {
            Some(Value::String(_)) => b.request_continuing(msgs, line, tokens_in),
            _ => {
                let refused = refusal(value);
                b.recorded_body(request);
                b.request_or_record_refused(msgs, line, tokens_in, reply.is_some(), refused)
            }
        }
    }
    for msg in reply.map(|r| r.0).unwrap_or_default() {
        b.push(msg);
    }
    Ok(())
}

/// A reply is several items (its text, then one `function_call` each):
/// consecutive assistant items are one reply of one model call.
fn one_reply_per_turn(msgs: Vec<Msg>) -> Vec<Msg> {
    let mut out: Vec<Msg> = Vec::with_capacity(msgs.len());
    for msg in msgs {
        match (out.last_mut(), msg) {
            (
                Some(Msg::Assistant {
                    text,
                    calls,
                    tokens_out,
                    ..
                }),
                Msg::Assistant {
                    text: more,
                    calls: more_calls,
                    tokens_out: more_tokens,
                    ..
                },
            ) => {
                if !more.is_empty() {
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(&more);
                }
                calls.extend(more_calls);
                *tokens_out = tokens_out.or(more_tokens);
            }
            (_, msg) => out.push(msg),
        }
    }
    out
}

/// One item as a message (reasoning as reasoning); None for items of a
/// type not drawn (reported as skipped).
pub fn item(v: &Value, at: usize, tokens_out: Option<u64>, b: &mut Builder) -> Option<Msg> {
    let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let kind = v.get("type").and_then(Value::as_str).unwrap_or(
        // An input message may be written without its type.
        if v.get("role").is_some() {
            "message"
        } else {
            ""
        },
    );
    let call = |name: String, args| Msg::Assistant {
        text: String::new(),
        calls: vec![CallSpec {
            id: call_id(v),
            name,
            args,
        }],
        tokens_out,
        line: at,
    };
    match kind {
        "message" => {
            let text = v.get("content").map(text_of).unwrap_or_default();
            match s("role").as_str() {
                "assistant" => Some(Msg::Assistant {
                    text,
                    calls: Vec::new(),
                    tokens_out,
                    line: at,
                }),
                "system" | "developer" => {
                    b.system(&text);
                    None
                }
                // Codex's own user-role texts (its environment, AGENTS.md)
                // are the harness's, in a request body as in a rollout.
                _ => Some(harness_written(Msg::User { text, line: at })),
            }
        }
        "function_call" => Some(call(s("name"), args_of_json_text(&s("arguments")))),
        "custom_tool_call" => Some(call(
            s("name"),
            vec![("input".to_string(), s("input"))].into(),
        )),
        "local_shell_call" => {
            let command = v
                .pointer("/action/command")
                .and_then(Value::as_array)
                .map(|c| {
                    c.iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .unwrap_or_default();
            // The action as the file wrote it (the command is an array).
            let args = CallArgs {
                pairs: vec![("command".to_string(), command)],
                raw: v.get("action").map(Value::to_string),
            };
            Some(call("local_shell".to_string(), args))
        }
        "function_call_output" | "custom_tool_call_output" | "local_shell_call_output" => {
            let (text, is_error) = output(v.get("output").unwrap_or(&Value::Null));
            Some(Msg::Tool {
                call_id: call_id(v),
                text,
                is_error,
                line: at,
            })
        }
        "reasoning" => {
            // The summary's parts (and `content`, where a provider writes
            // the reasoning text itself); the encrypted part by its size.
            let summary = ["summary", "content"]
                .iter()
                .filter_map(|k| v.get(*k))
                .map(text_of)
                .filter(|t| !t.is_empty())
                .collect::<Vec<_>>()
                .join("\n");
            let encrypted = v
                .get("encrypted_content")
                .and_then(Value::as_str)
                .map_or(0, |e| e.chars().count());
            Some(Msg::Reasoning {
                summary,
                encrypted,
                line: at,
            })
        }
        // A reference by id to an item the server keeps: nothing to draw.
        "item_reference" => {
            b.skip("item_reference", at);
            None
        }
        "compaction" | "compaction_summary" => {
            b.compacted(at);
            None
        }
        other => {
            b.skip(
                if other.is_empty() {
                    "item without a type"
                } else {
                    other
                },
                at,
            );
            None
        }
    }
}

/// The user-role messages Codex writes itself, at the start of a session
/// and when the settings change: the environment (`<environment_context>`)
/// and the project's instructions (`<user_instructions>`, `# AGENTS.md
/// instructions for …`). Sent to the model, but not the user's words.
const HARNESS_OPENINGS: [&str; 3] = [
    "<environment_context>",
    "<user_instructions>",
    "# AGENTS.md instructions for ",
];

pub(super) fn harness_written(msg: Msg) -> Msg {
    match msg {
        Msg::User { text, line }
            if HARNESS_OPENINGS
                .iter()
                .any(|o| text.trim_start().starts_with(o)) =>
        {
            Msg::Context { text, line }
        }
        other => other,
    }
}

/// The pairing key: `call_id`, never the item's own `id` (except for a
/// `local_shell_call_output`, which the API keys by the call's id).
fn call_id(v: &Value) -> String {
    v.get("call_id")
        .and_then(Value::as_str)
        .or_else(|| {
            (v.get("type").and_then(Value::as_str) == Some("local_shell_call_output"))
                .then(|| v.get("id").and_then(Value::as_str))
                .flatten()
        })
        .unwrap_or("")
        .to_string()
}

/// An output: a string, a list of content parts, or (older Codex rollouts)
/// an object `{content, success}`; an error only where `success` is false.
pub fn output(v: &Value) -> (String, bool) {
    match v {
        Value::Object(o) if o.contains_key("content") => (
            text_of(&o["content"]),
            o.get("success").and_then(Value::as_bool) == Some(false),
        ),
        other => (text_of(other), false),
    }
}
