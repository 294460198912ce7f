//! OpenAI Responses: input and output items. `function_call` (`call_id`,
//! `name`, `arguments` as a JSON string) and `function_call_output`
//! (`call_id`, `output`); the item's own `id` is not the pairing key. The
//! Codex CLI rollout stores the same items, so `item` serves both.

use serde::Deserialize;
use serde_json::Value;

use super::api;
use super::builder::{Builder, CallArgs, CallSpec, Msg, args_of_json_text, text_of};
use super::exchange::{exchange, incomplete, refusal};
use super::format::Format;
use super::reader::{At, Reader};
use super::shape::{Lenient, Object, Present, Usage};
use crate::i18n;
use crate::load::ScenarioError;
use crate::provider::Provider;

/// OpenAI Responses, told from the other APIs by its shape.
pub(crate) const READER: Reader = Reader::new(
    Format::Responses,
    i18n::FORMAT_RESPONSES,
    Provider::Responses,
    "OpenAI Responses: input/output items, request bodies, responses",
)
.scored(|value, ask| api::score(Format::Responses, value, ask))
.requests(document);

pub fn document(at: At, value: &Value, b: &mut Builder) -> Result<(), ScenarioError> {
    let line = at.line;
    let parts = exchange(at, value, "input", "output")?;
    if let Some(items) = parts.list {
        for (i, v) in items.iter().enumerate() {
            if let Some(msg) = item(v, at.item(i), None, b) {
                b.push(msg);
            }
        }
        return Ok(());
    }
    let cut = incomplete(value);
    let reply = match parts.response.filter(|_| cut.is_none()) {
        Some(r) => {
            let output = r
                .get("output")
                .and_then(Value::as_array)
                .ok_or_else(|| at.error("response: expected \"output\", a list of output items"))?;
            let usage = r.get("usage").map(Object::<Usage>::of).unwrap_or_default();
            let mut msgs = Vec::new();
            let mut tokens_out = usage.output_tokens.0;
            for v in output {
                if let Some(msg) = item(v, line, tokens_out.take(), b) {
                    msgs.push(msg);
                }
            }
            Some((one_reply_per_turn(msgs), usage.input_tokens.0))
        }
        None => None,
    };
    if let Some(request) = parts.request {
        let fields = Object::<Request>::of(request);
        if let Some(instructions) = fields.instructions.0 {
            b.system(instructions);
        }
        if let Some(tools) = request.get("tools").and_then(Value::as_array) {
            b.tools_listed(tools, "parameters");
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
                return Err(at.error("expected \"input\", a string or a list of items"));
            }
        };
        let tokens_in = reply.as_ref().and_then(|r| r.1);
        match fields.previous_response_id.0 {
            Some(_) => b.request_continuing(msgs, line, tokens_in),
            None => {
                let refused = refusal(value).filter(|_| cut.is_none());
                if !parts.rebuilt {
                    b.recorded_body(request, parts.response);
                }
                let asked = reply.is_some() || cut.is_some();
                b.request_or_record_refused(msgs, line, tokens_in, asked, refused)
            }
        }
    }
    if let Some(why) = &cut {
        b.cut(line, why);
    }
    for msg in reply.map(|r| r.0).unwrap_or_default() {
        b.push(msg);
    }
    Ok(())
}

/// What a request body says besides its `input` (a string or a list of
/// items) and `tools`: the instructions, and the response it continues
/// (then the server holds the earlier context).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Request<'a> {
    #[serde(borrow)]
    instructions: Lenient<&'a str>,
    #[serde(borrow)]
    previous_response_id: Lenient<&'a str>,
}

/// An item's `type` and the fields of the types read here: a `message`'s
/// `role` (there, even null: an input message may be written without its
/// type), a call's `call_id`, `name` and `arguments` (a JSON text) or
/// `input` (a custom tool's text), a `local_shell_call`'s `action`, the
/// item's own `id`, a reasoning item's `encrypted_content`. `content`,
/// `output`, `summary` and the raw `action` stay JSON values, read where
/// they are used.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Item<'a> {
    #[serde(rename = "type", borrow)]
    kind: Lenient<&'a str>,
    #[serde(borrow)]
    role: Present<Lenient<&'a str>>,
    #[serde(borrow)]
    call_id: Lenient<&'a str>,
    #[serde(borrow)]
    id: Lenient<&'a str>,
    #[serde(borrow)]
    name: Lenient<&'a str>,
    #[serde(borrow)]
    arguments: Lenient<&'a str>,
    #[serde(borrow)]
    input: Lenient<&'a str>,
    #[serde(borrow)]
    action: Object<Action<'a>>,
    #[serde(borrow)]
    encrypted_content: Lenient<&'a str>,
}

/// A `local_shell_call`'s `action`: `{type: "exec", command: [...]}`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Action<'a> {
    #[serde(borrow)]
    command: Lenient<Vec<Lenient<&'a str>>>,
}

/// A string field of an item, empty when absent or of another type.
fn str_of(field: &Lenient<&str>) -> String {
    field.0.unwrap_or("").to_string()
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
    // Not an object: an item of no type.
    let it = Object::<Item>::of(v);
    let kind = it.kind.0.unwrap_or(
        // An input message may be written without its type.
        if it.role.there { "message" } else { "" },
    );
    let call = |name: String, args| Msg::Assistant {
        text: String::new(),
        calls: vec![CallSpec {
            id: call_id(&it),
            name,
            args,
            // Without a `call_id` the `id` served as one (`call_id`).
            item_id: it.call_id.0.and(it.id.0).map(String::from),
        }],
        tokens_out,
        line: at,
    };
    match kind {
        "message" => message(v, &it, at, tokens_out, b),
        "function_call" => Some(call(
            str_of(&it.name),
            args_of_json_text(it.arguments.0.unwrap_or("")),
        )),
        "custom_tool_call" => Some(call(
            str_of(&it.name),
            vec![("input".to_string(), str_of(&it.input))].into(),
        )),
        "local_shell_call" => Some(call("local_shell".to_string(), shell_args(v, &it))),
        "function_call_output" | "custom_tool_call_output" | "local_shell_call_output" => {
            let (text, is_error) = output(v.get("output").unwrap_or(&Value::Null));
            Some(Msg::Tool {
                call_id: call_id(&it),
                text,
                is_error,
                line: at,
            })
        }
        "reasoning" => Some(reasoning(v, &it, at)),
        // A tool the provider runs itself: part of the reply, by its action.
        "web_search_call" | "file_search_call" | "code_interpreter_call" | "mcp_call" => {
            let action = ["action", "queries", "code", "arguments"]
                .iter()
                .find_map(|k| v.get(*k))
                .map_or(String::new(), |a| format!(" {a}"));
            Some(Msg::Assistant {
                text: format!("[{kind} {}{action}]", str_of(&it.id)),
                calls: Vec::new(),
                tokens_out,
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

/// A `message` item: a reply, the system prompt (to the builder), or the
/// user's words.
fn message(
    v: &Value,
    it: &Item,
    at: usize,
    tokens_out: Option<u64>,
    b: &mut Builder,
) -> Option<Msg> {
    let text = v.get("content").map(text_of).unwrap_or_default();
    match it.role.value.0.unwrap_or("") {
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

/// A `local_shell_call`'s arguments: its command joined, and the action
/// as the file wrote it (the command is an array).
fn shell_args(v: &Value, it: &Item) -> CallArgs {
    let command = it
        .action
        .0
        .as_ref()
        .and_then(|a| a.command.0.as_ref())
        .map(|c| {
            c.iter()
                .filter_map(|part| part.0)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default();
    CallArgs {
        pairs: vec![("command".to_string(), command)],
        raw: v.get("action").map(Value::to_string),
    }
}

/// A `reasoning` item: the summary's parts (and `content`, where a
/// provider writes the reasoning text itself); the encrypted part by its
/// size.
fn reasoning(v: &Value, it: &Item, at: usize) -> Msg {
    let summary = ["summary", "content"]
        .iter()
        .filter_map(|k| v.get(*k))
        .map(text_of)
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    let encrypted = it.encrypted_content.0.map_or(0, |e| e.chars().count());
    Msg::Reasoning {
        summary,
        encrypted,
        line: at,
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
fn call_id(it: &Item) -> String {
    it.call_id
        .0
        .or_else(|| {
            (it.kind.0 == Some("local_shell_call_output"))
                .then_some(it.id.0)
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
            Object::<Outcome>::of(v).success.0 == Some(false),
        ),
        other => (text_of(other), false),
    }
}

/// An older rollout's output object: `{content, success}`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Outcome {
    success: Lenient<bool>,
}
