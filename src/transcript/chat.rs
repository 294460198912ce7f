//! OpenAI Chat Completions: a `messages` array, a request body (`messages`
//! and `tools`), or one request (and its response) per JSONL line. Tool
//! calls are `tool_calls[].id` with `function.arguments` as a JSON string;
//! results are `role: "tool"` messages with `tool_call_id`. The format has
//! no error flag on a result, so none is guessed from its text.
//!
//! Text-based agents (mini-swe-agent, SWE-agent without function calling)
//! write Chat-shaped messages with no call of Chat's own: `by_position`
//! reads them by the agents' shared rule.

use serde::Deserialize;
use serde_json::Value;

use super::api;
use super::builder::{Builder, CallArgs, CallSpec, Msg, args_of_json_text, text_of};
use super::errors::at_line;
use super::exchange::{MessagesApi, read_messages};
use super::format::{Format, PairRule};
use super::reader::{At, Reader};
use super::shape::{Lenient, Object};
use crate::i18n::{self, Label};
use crate::load::ScenarioError;
use crate::provider::Provider;

/// OpenAI Chat Completions, told from the other APIs by its shape.
pub(crate) const READER: Reader = Reader::new(
    Format::Chat,
    i18n::FORMAT_CHAT,
    Provider::Chat,
    "OpenAI Chat Completions: a messages array, a request body, or JSONL of requests (and their responses)",
)
.scored(|value, ask| api::score(Format::Chat, value, ask))
.requests(|at, value, b| read_messages(&API, at, value, b));

/// Chat Completions as `exchange::read_messages` reads it.
const API: MessagesApi = MessagesApi {
    response_key: "choices",
    schema_key: "parameters",
    system_key: None,
    messages,
    reply: |at, r, _| response(at, r).map(|(msg, tokens)| (vec![msg], tokens)),
};

/// A chat.completion object: its first choice's message and the usage.
fn response(at: At, r: &Value) -> Result<(Msg, Option<u64>), ScenarioError> {
    let message = r
        .get("choices")
        .and_then(|c| c.get(0))
        .and_then(|c| c.get("message"))
        .ok_or_else(|| {
            at.error("response: expected \"choices\"[0].\"message\" (a chat.completion)")
        })?;
    let usage = r.get("usage").map(Object::<Usage>::of).unwrap_or_default();
    let msg = assistant(message, at.line, usage.completion_tokens.0);
    Ok((msg, usage.prompt_tokens.0))
}

/// A chat.completion's `usage`: the tokens of the prompt and of the reply.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Usage {
    prompt_tokens: Lenient<u64>,
    completion_tokens: Lenient<u64>,
}

/// What an assistant message says besides its `content` (a string or a
/// list of parts, read by `text_of`): a refusal, and its tool calls.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Reply<'a> {
    #[serde(borrow)]
    refusal: Lenient<&'a str>,
    #[serde(borrow)]
    tool_calls: Lenient<Vec<Object<ToolCall<'a>>>>,
}

/// `tool_calls[]`: `{id, type: "function", function: {name, arguments}}`,
/// the arguments a JSON text.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ToolCall<'a> {
    #[serde(borrow)]
    id: Lenient<&'a str>,
    #[serde(borrow)]
    function: Object<Function<'a>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Function<'a> {
    #[serde(borrow)]
    name: Lenient<&'a str>,
    #[serde(borrow)]
    arguments: Lenient<&'a str>,
}

pub(crate) fn assistant(m: &Value, line: usize, tokens_out: Option<u64>) -> Msg {
    let mut text = m.get("content").map(text_of).unwrap_or_default();
    // Not an object: no refusal and no calls, as for an object without them.
    let reply = Object::<Reply>::of(m);
    if let Some(refusal) = reply.refusal.0 {
        text.push_str(refusal);
    }
    let calls = reply
        .tool_calls
        .0
        .unwrap_or_default()
        .into_iter()
        .map(|c| {
            let c = c.0.unwrap_or_default();
            let f = c.function.0.unwrap_or_default();
            CallSpec {
                id: c.id.0.unwrap_or("").to_string(),
                name: f.name.0.unwrap_or("").to_string(),
                args: args_of_json_text(f.arguments.0.unwrap_or("")),
                item_id: None,
            }
        })
        .collect();
    Msg::Assistant {
        text,
        calls,
        tokens_out,
        line,
    }
}

/// The messages of a list, in order; system and developer messages go to
/// the builder as instructions.
pub(crate) fn messages(
    at: At,
    items: &[Value],
    b: &mut Builder,
) -> Result<Vec<Msg>, ScenarioError> {
    let mut out = Vec::new();
    for message in at.roles(items, "system, user, assistant or tool") {
        let (at, role, m) = message?;
        let content = || m.get("content").map(text_of).unwrap_or_default();
        match role {
            "system" | "developer" => b.system(&content()),
            "user" => out.push(Msg::User {
                text: content(),
                line: at,
            }),
            "assistant" => out.push(assistant(m, at, None)),
            "tool" => out.push(Msg::Tool {
                call_id: m
                    .get("tool_call_id")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                text: content(),
                is_error: false,
                line: at,
            }),
            other => b.skip(&format!("message role {other:?}"), at),
        }
    }
    Ok(out)
}

/// What a text-based agent's messages are, for `by_position`: the rest is
/// the rule these agents share.
pub(crate) struct TextRun {
    /// The list the messages are in (`messages`, `history`): a call is
    /// drawn with the id `{list}[N]`, its reply's place there.
    pub list: &'static str,
    /// The one command a reply makes, as the agent parses it (its name and
    /// arguments); None where it runs none.
    pub call: fn(&Value, &str) -> Option<(String, CallArgs)>,
    /// Whether an observation says its command failed.
    pub failed: fn(&Value) -> bool,
    /// A message the harness put in the conversation as it is (a
    /// demonstration): context, whatever its role.
    pub harness: fn(&Value) -> bool,
    /// An item the agent never sent the model (a runtime's own event):
    /// listed as not drawn, under this name.
    pub unread: fn(&Value) -> Option<String>,
    /// Said once where a call was drawn: the rule, and whose ids these are.
    pub note: Label,
}

/// The messages of a text-based run. The file names no call: a reply that
/// makes one is answered by the next `user` message, by position, as the
/// agent itself pairs them (`PairRule::Position`). The first other user
/// message is the task; any later one is the harness's (a format error, a
/// limit reached, a new instruction), context, not a result.
pub(crate) fn by_position(
    path: &str,
    run: &TextRun,
    messages: &[Value],
    b: &mut Builder,
) -> Result<(), ScenarioError> {
    b.pairing = Some(PairRule::Position);
    // The call the next user message answers: its id.
    let mut pending: Option<String> = None;
    let mut task_seen = false;
    let mut calls = 0;
    for (i, m) in messages.iter().enumerate() {
        let at = i + 1;
        let text = m.get("content").map(text_of).unwrap_or_default();
        let role = m.get("role").and_then(Value::as_str);
        if let Some(what) = (run.unread)(m) {
            b.skip(&what, at);
            continue;
        }
        if role.is_some() && (run.harness)(m) {
            b.push(Msg::Context { text, line: at });
            continue;
        }
        match role {
            Some("system") => b.system(&text),
            Some("assistant") => {
                // An unanswered call stays unanswered: a reply came first.
                pending = None;
                let mut spec = Vec::new();
                if let Some((name, args)) = (run.call)(m, &text) {
                    let id = format!("{}[{i}]", run.list);
                    spec.push(CallSpec {
                        id: id.clone(),
                        name,
                        args,
                        item_id: None,
                    });
                    pending = Some(id);
                    calls += 1;
                }
                b.push(Msg::Assistant {
                    text,
                    calls: spec,
                    tokens_out: None,
                    line: at,
                });
            }
            Some("user") => match pending.take() {
                Some(call_id) => b.push(Msg::Tool {
                    call_id,
                    text,
                    is_error: (run.failed)(m),
                    line: at,
                }),
                None if !task_seen => {
                    task_seen = true;
                    b.push(Msg::User { text, line: at });
                }
                None => b.push(Msg::Context { text, line: at }),
            },
            Some(other) => b.skip(&format!("message role {other:?}"), at),
            None => {
                return Err(at_line(
                    path,
                    1,
                    format!(
                        "{}[{i}]: expected a message with a \"role\" (system, user or assistant)",
                        run.list
                    ),
                ));
            }
        }
    }
    if calls > 0 {
        b.note(super::text::fixed(run.note));
    }
    Ok(())
}
