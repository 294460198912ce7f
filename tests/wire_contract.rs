//! The call contract of every exported run, which the SDK types cannot see
//! (tests/wire_types.rs checks the types): read from the same
//! `export --format requests` JSONL, one line per model call.
//!
//! Per request:
//! - every tool call in the history is answered: Chat, by `tool` messages
//!   with its id right after the assistant message (before the next message
//!   of another role); Responses, by a `function_call_output` with its
//!   `call_id`; Anthropic, by a `tool_result` with its id in the *next* user
//!   message, all `tool_result` blocks first in that message;
//! - no result without its call, none answered twice, no call id twice.
//!
//! Per run: a tool-call id is proposed once; the response of call k proposes
//! exactly the calls that are new in request k+1.
//!
//! A lesson whose point is that the provider rejects the request (its loop
//! ends `rejected`) is exempt at the rejected call, the last one: there the
//! request must break the contract, and the rejection text must be the
//! provider's real 400 text for that break.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

#[path = "common/wire.rs"]
mod wire;

// ---- the wire shapes, as far as the contract reads them ----

/// One line of the export: one model call.
#[derive(Deserialize)]
struct Call {
    provider: String,
    request: Value,
    /// null where the run records no reply.
    #[serde(default)]
    response: Value,
}

#[derive(Deserialize)]
struct ChatRequest {
    messages: Vec<ChatMessage>,
}

#[derive(Deserialize)]
#[serde(tag = "role", rename_all = "lowercase")]
enum ChatMessage {
    System {},
    Developer {},
    User {},
    Assistant {
        tool_calls: Option<Vec<ChatToolCall>>,
    },
    Tool {
        tool_call_id: String,
    },
}

#[derive(Deserialize)]
struct ChatToolCall {
    id: String,
}

#[derive(Deserialize)]
struct ChatResponse {
    choices: Vec<ChatChoice>,
}

#[derive(Deserialize)]
struct ChatChoice {
    message: ChatReply,
}

#[derive(Deserialize)]
struct ChatReply {
    tool_calls: Option<Vec<ChatToolCall>>,
}

#[derive(Deserialize)]
struct ResponsesRequest {
    input: ResponsesInput,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ResponsesInput {
    Text(#[allow(dead_code)] String),
    Items(Vec<ResponsesItem>),
}

/// An input or output item; a message may come without `type`.
#[derive(Deserialize)]
struct ResponsesItem {
    #[serde(rename = "type")]
    kind: Option<String>,
    id: Option<String>,
    call_id: Option<String>,
}

#[derive(Deserialize)]
struct ResponsesResponse {
    output: Vec<ResponsesItem>,
}

#[derive(Deserialize)]
struct AnthropicRequest {
    messages: Vec<AnthropicMessage>,
    /// Extended thinking, when the request turns it on.
    #[serde(default)]
    thinking: Option<Value>,
}

#[derive(Deserialize)]
struct AnthropicMessage {
    role: String,
    content: AnthropicContent,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum AnthropicContent {
    Text(#[allow(dead_code)] String),
    Blocks(Vec<AnthropicBlock>),
}

#[derive(Deserialize)]
struct AnthropicBlock {
    #[serde(rename = "type")]
    kind: String,
    id: Option<String>,
    tool_use_id: Option<String>,
}

#[derive(Deserialize)]
struct AnthropicResponse {
    content: Vec<AnthropicBlock>,
}

/// `{"error": {"message": …}}` (OpenAI) or `{"type": "error", "error": {…}}`
/// (Anthropic): the body of a rejected request's 400.
#[derive(Deserialize)]
struct ErrorBody {
    error: ErrorDetail,
}

#[derive(Deserialize)]
struct ErrorDetail {
    message: String,
}

// ---- what can be wrong ----

#[derive(Debug, Clone, PartialEq)]
enum Break {
    /// A call with no result where the provider wants one. `at` is the index
    /// of the message (or input item) holding the call.
    Unanswered { at: usize },
    /// Anthropic: the result is in the next user message, but after a block
    /// that is not a `tool_result`.
    ResultNotFirst { at: usize },
    /// A result whose call is not where the provider looks for it. `at` is
    /// the message or item, `block` the content block (Anthropic).
    Orphan { at: usize, block: usize },
    /// A second result for the same call.
    AnsweredTwice,
    /// The same call id twice in one request's history.
    CallTwice,
    /// Proposed again by a later response of the run.
    ProposedTwice { first: usize },
    /// Proposed by response k, missing from request k+1.
    NotCarried,
    /// New in request k+1, never proposed by response k.
    NotProposed,
    /// Anthropic with thinking on: the final assistant message, whose
    /// tool_use the last tool_result answers, opens with a `found` block,
    /// not a thinking block ("Building with extended thinking").
    ThinkingNotFirst { at: usize, found: String },
}

#[derive(Debug, Clone)]
struct Fault {
    /// The model call (1-based line of the JSONL) whose request is at fault,
    /// or whose response, for `NotCarried` / `ProposedTwice`.
    call: usize,
    id: String,
    what: Break,
    /// The request's list that `at` counts in: `messages` or `input`.
    list: &'static str,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (call, id, list) = (self.call, &self.id, self.list);
        match &self.what {
            Break::Unanswered { at } => write!(
                f,
                "model call {call}: {id} ({list}[{at}]) has no result where the provider wants it"
            ),
            Break::ResultNotFirst { at } => write!(
                f,
                "model call {call}: the tool_result for {id} is not first in the user message {list}[{at}]"
            ),
            Break::Orphan { at, .. } => write!(
                f,
                "model call {call}: the result at {list}[{at}] answers {id}, which no call there made"
            ),
            Break::AnsweredTwice => write!(f, "model call {call}: {id} is answered twice"),
            Break::CallTwice => write!(f, "model call {call}: the call id {id} appears twice"),
            Break::ProposedTwice { first } => write!(
                f,
                "model call {call}: the response proposes {id} again (first proposed by call {first})"
            ),
            Break::NotCarried => write!(
                f,
                "model call {call}: the response proposes {id}, but request {} does not carry it",
                call + 1
            ),
            Break::NotProposed => write!(
                f,
                "model call {call}: the request carries the new call {id}, which response {} never proposed",
                call - 1
            ),
            Break::ThinkingNotFirst { at, found } => write!(
                f,
                "model call {call}: thinking is on, and {list}[{at}] (the reply that made {id}) opens with {found}, not a thinking block"
            ),
        }
    }
}

// ---- reading a run ----

fn read_run(file: &Path) -> Vec<Call> {
    let text = std::fs::read_to_string(file)
        .unwrap_or_else(|e| panic!("{}: cannot read: {e}", file.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("{}:{}: {e}", file.display(), i + 1))
        })
        .collect()
}

/// `run` names the lesson and provider in the message of a bad shape.
fn parse<T: serde::de::DeserializeOwned>(run: &str, value: &Value, what: &str, call: usize) -> T {
    T::deserialize(value).unwrap_or_else(|e| {
        panic!("{run}: model call {call}: the {what} is not in its wire shape: {e}")
    })
}

/// The error text of a 400 body, if the response is one.
fn error_text(response: &Value) -> Option<String> {
    ErrorBody::deserialize(response)
        .ok()
        .map(|b| b.error.message)
}

/// The call ids of a request's history, in order, and its breaks.
fn check_request(
    run: &str,
    provider: &str,
    request: &Value,
    call: usize,
) -> (Vec<String>, Vec<Fault>) {
    match provider {
        "chat" => check_chat(&parse::<ChatRequest>(run, request, "request", call), call),
        "responses" => {
            let (calls, mut faults) = check_responses(
                &parse::<ResponsesRequest>(run, request, "request", call),
                call,
            );
            for f in &mut faults {
                f.list = "input";
            }
            (calls, faults)
        }
        "anthropic" => check_anthropic(
            &parse::<AnthropicRequest>(run, request, "request", call),
            call,
        ),
        other => panic!("{run}: model call {call}: unknown provider {other:?}"),
    }
}

/// The call ids a response proposes, in order (none without a reply).
fn proposed(run: &str, provider: &str, response: &Value, call: usize) -> Vec<String> {
    if response.is_null() {
        return Vec::new();
    }
    match provider {
        "chat" => parse::<ChatResponse>(run, response, "response", call)
            .choices
            .into_iter()
            .flat_map(|c| c.message.tool_calls.unwrap_or_default())
            .map(|c| c.id)
            .collect(),
        "responses" => parse::<ResponsesResponse>(run, response, "response", call)
            .output
            .into_iter()
            .filter(|i| i.kind.as_deref() == Some("function_call"))
            .map(|i| i.call_id.unwrap_or_default())
            .collect(),
        "anthropic" => parse::<AnthropicResponse>(run, response, "response", call)
            .content
            .into_iter()
            .filter(|b| b.kind == "tool_use")
            .map(|b| b.id.unwrap_or_default())
            .collect(),
        other => panic!("{run}: model call {call}: unknown provider {other:?}"),
    }
}

fn fault(call: usize, id: &str, what: Break) -> Fault {
    Fault {
        call,
        id: id.to_string(),
        what,
        list: "messages",
    }
}

/// A call id seen twice in one history is a fault; the list keeps order.
fn note_call(calls: &mut Vec<String>, faults: &mut Vec<Fault>, call: usize, id: &str) {
    if calls.iter().any(|c| c == id) {
        faults.push(fault(call, id, Break::CallTwice));
    }
    calls.push(id.to_string());
}

fn check_chat(request: &ChatRequest, call: usize) -> (Vec<String>, Vec<Fault>) {
    let (mut calls, mut faults) = (Vec::new(), Vec::new());
    // The assistant message whose tool messages may follow: its index, its
    // call ids and the ones answered so far.
    let mut open: Option<(usize, Vec<String>, BTreeSet<String>)> = None;
    let close = |open: &mut Option<(usize, Vec<String>, BTreeSet<String>)>,
                 faults: &mut Vec<Fault>| {
        if let Some((at, ids, answered)) = open.take() {
            for id in ids.iter().filter(|id| !answered.contains(*id)) {
                faults.push(fault(call, id, Break::Unanswered { at }));
            }
        }
    };
    for (at, message) in request.messages.iter().enumerate() {
        match message {
            ChatMessage::Tool { tool_call_id } => match &mut open {
                Some((_, ids, answered)) if ids.contains(tool_call_id) => {
                    if !answered.insert(tool_call_id.clone()) {
                        faults.push(fault(call, tool_call_id, Break::AnsweredTwice));
                    }
                }
                _ => faults.push(fault(call, tool_call_id, Break::Orphan { at, block: 0 })),
            },
            other => {
                close(&mut open, &mut faults);
                if let ChatMessage::Assistant {
                    tool_calls: Some(tool_calls),
                } = other
                    && !tool_calls.is_empty()
                {
                    for c in tool_calls {
                        note_call(&mut calls, &mut faults, call, &c.id);
                    }
                    let ids = tool_calls.iter().map(|c| c.id.clone()).collect();
                    open = Some((at, ids, BTreeSet::new()));
                }
            }
        }
    }
    close(&mut open, &mut faults);
    (calls, faults)
}

fn check_responses(request: &ResponsesRequest, call: usize) -> (Vec<String>, Vec<Fault>) {
    let (mut calls, mut faults) = (Vec::new(), Vec::new());
    let ResponsesInput::Items(items) = &request.input else {
        return (calls, faults);
    };
    // call_id → (index of its function_call, answered?)
    let mut made: BTreeMap<String, (usize, bool)> = BTreeMap::new();
    let mut item_ids = BTreeSet::new();
    for (at, item) in items.iter().enumerate() {
        let call_id = item.call_id.clone().unwrap_or_default();
        match item.kind.as_deref() {
            Some("function_call") => {
                note_call(&mut calls, &mut faults, call, &call_id);
                made.entry(call_id.clone()).or_insert((at, false));
                // The item's own id (fc_…) is a second id, unique as well.
                if let Some(id) = &item.id
                    && !item_ids.insert(id.clone())
                {
                    faults.push(fault(call, id, Break::CallTwice));
                }
            }
            Some("function_call_output") => match made.get_mut(&call_id) {
                Some((_, answered)) if *answered => {
                    faults.push(fault(call, &call_id, Break::AnsweredTwice));
                }
                Some((_, answered)) => *answered = true,
                None => faults.push(fault(call, &call_id, Break::Orphan { at, block: 0 })),
            },
            _ => {}
        }
    }
    for id in &calls {
        if let Some(&(at, false)) = made.get(id) {
            faults.push(fault(call, id, Break::Unanswered { at }));
            made.insert(id.clone(), (at, true));
        }
    }
    (calls, faults)
}

fn blocks(message: &AnthropicMessage) -> &[AnthropicBlock] {
    match &message.content {
        AnthropicContent::Blocks(b) => b,
        AnthropicContent::Text(_) => &[],
    }
}

fn check_anthropic(request: &AnthropicRequest, call: usize) -> (Vec<String>, Vec<Fault>) {
    let (mut calls, mut faults) = (Vec::new(), Vec::new());
    let tool_uses = |m: &AnthropicMessage| -> Vec<String> {
        if m.role != "assistant" {
            return Vec::new();
        }
        blocks(m)
            .iter()
            .filter(|b| b.kind == "tool_use")
            .map(|b| b.id.clone().unwrap_or_default())
            .collect()
    };
    for (at, message) in request.messages.iter().enumerate() {
        let uses = tool_uses(message);
        for id in &uses {
            note_call(&mut calls, &mut faults, call, id);
        }
        // The results of this message's calls: in the next message, a user
        // message, as its leading tool_result blocks.
        if !uses.is_empty() {
            let next = request.messages.get(at + 1).filter(|m| m.role == "user");
            let next_blocks = next.map(blocks).unwrap_or_default();
            let leading: Vec<&str> = next_blocks
                .iter()
                .take_while(|b| b.kind == "tool_result")
                .filter_map(|b| b.tool_use_id.as_deref())
                .collect();
            for id in &uses {
                if leading.contains(&id.as_str()) {
                    continue;
                }
                let later = next_blocks
                    .iter()
                    .any(|b| b.kind == "tool_result" && b.tool_use_id.as_deref() == Some(id));
                let what = if later {
                    Break::ResultNotFirst { at: at + 1 }
                } else {
                    Break::Unanswered { at }
                };
                faults.push(fault(call, id, what));
            }
        }
        // Every result answers a call of the message right before it.
        if message.role == "user" {
            let before = at
                .checked_sub(1)
                .map(|i| tool_uses(&request.messages[i]))
                .unwrap_or_default();
            let mut answered = BTreeSet::new();
            for (block, b) in blocks(message).iter().enumerate() {
                if b.kind != "tool_result" {
                    continue;
                }
                let id = b.tool_use_id.clone().unwrap_or_default();
                if !before.contains(&id) {
                    faults.push(fault(call, &id, Break::Orphan { at, block }));
                } else if !answered.insert(id.clone()) {
                    faults.push(fault(call, &id, Break::AnsweredTwice));
                }
            }
        }
    }
    // Thinking on: the final assistant message opens with its thinking.
    let thinking = request
        .thinking
        .as_ref()
        .is_some_and(|t| t["type"] == "enabled");
    let last = request.messages.iter().rposition(|m| m.role == "assistant");
    if let Some(at) = last.filter(|_| thinking) {
        let first = blocks(&request.messages[at]).first();
        let uses = tool_uses(&request.messages[at]);
        let opens = first.map_or("text", |b| b.kind.as_str());
        if !uses.is_empty() && !matches!(opens, "thinking" | "redacted_thinking") {
            let what = Break::ThinkingNotFirst {
                at,
                found: opens.to_string(),
            };
            faults.push(fault(call, &uses[0], what));
        }
    }
    (calls, faults)
}

/// Every break of a run: per request, then between a response and the next
/// request. A rejected call (its response a 400 body) must be the last.
fn check_run(run: &str, calls: &[Call]) -> Vec<Fault> {
    let mut faults = Vec::new();
    let mut first_proposed: BTreeMap<String, usize> = BTreeMap::new();
    let mut previous: Option<(Vec<String>, Vec<String>)> = None; // (history, proposed)
    for (i, c) in calls.iter().enumerate() {
        let call = i + 1;
        assert_eq!(
            c.provider, calls[0].provider,
            "{run}: model call {call}: another provider"
        );
        let (history, request_faults) = check_request(run, &c.provider, &c.request, call);
        faults.extend(request_faults);
        if let Some((before, proposed)) = &previous {
            let new: Vec<&String> = history.iter().filter(|id| !before.contains(id)).collect();
            for id in proposed.iter().filter(|id| !new.contains(id)) {
                faults.push(fault(call - 1, id, Break::NotCarried));
            }
            for id in new.iter().filter(|id| !proposed.contains(id)) {
                faults.push(fault(call, id, Break::NotProposed));
            }
        }
        if error_text(&c.response).is_some() {
            assert_eq!(
                call,
                calls.len(),
                "{run}: model call {call} is rejected but not the last"
            );
            break;
        }
        let now = proposed(run, &c.provider, &c.response, call);
        // Responses: each function_call item's own id (fc_…) is unique too.
        let item_ids: Vec<String> = if c.provider == "responses" && !c.response.is_null() {
            parse::<ResponsesResponse>(run, &c.response, "response", call)
                .output
                .into_iter()
                .filter(|i| i.kind.as_deref() == Some("function_call"))
                .filter_map(|i| i.id)
                .collect()
        } else {
            Vec::new()
        };
        for id in now.iter().chain(&item_ids) {
            if let Some(&first) = first_proposed.get(id) {
                faults.push(fault(call, id, Break::ProposedTwice { first }));
            } else {
                first_proposed.insert(id.clone(), call);
            }
        }
        previous = Some((history, now));
    }
    faults
}

// ---- the providers' real 400 texts ----

/// The provider's real 400 message for this break, as its API returns it in
/// `error.message` (seen in public bug reports); more than one where the
/// exact wording is not known. None: no provider text for this break.
/// - Chat: "An assistant message with 'tool_calls' must be followed by tool
///   messages responding to each 'tool_call_id'. The following tool_call_ids
///   did not have response messages: call_…"; for a result without its call,
///   "Invalid parameter: messages with role 'tool' must be a response to a
///   preceeding message with 'tool_calls'." (the API's spelling).
/// - Anthropic: "messages.N: `tool_use` ids were found without `tool_result`
///   blocks immediately after: toolu_…. Each `tool_use` block must have a
///   corresponding `tool_result` block in the next message."; for a result
///   without its call, "messages.N.content.M: unexpected `tool_use_id` found
///   in `tool_result` blocks: toolu_…. Each `tool_result` block must have a
///   corresponding `tool_use` block in the previous message."
/// - Responses: "No tool output found for function call call_…."; for an
///   output without its call, "No tool call found for function call output
///   with call_id …."
fn real_texts(provider: &str, faults: &[Fault], f: &Fault) -> Vec<String> {
    // The calls of one assistant message that the provider names together
    // (Anthropic's not-first results stand in the message after the call).
    let siblings = |at: usize| {
        faults
            .iter()
            .filter(|g| {
                g.call == f.call
                    && match g.what {
                        Break::Unanswered { at: a } => a == at,
                        Break::ResultNotFirst { at: a } => a == at + 1,
                        _ => false,
                    }
            })
            .map(|g| g.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (provider, &f.what) {
        ("chat", Break::Unanswered { at }) => vec![format!(
            "An assistant message with 'tool_calls' must be followed by tool messages responding \
             to each 'tool_call_id'. The following tool_call_ids did not have response messages: {}",
            siblings(*at)
        )],
        ("chat", Break::Orphan { .. }) => vec![
            "Invalid parameter: messages with role 'tool' must be a response to a preceeding \
             message with 'tool_calls'."
                .to_string(),
        ],
        ("anthropic", Break::Unanswered { at } | Break::ResultNotFirst { at }) => {
            let assistant = match f.what {
                Break::ResultNotFirst { at } => at - 1,
                _ => *at,
            };
            let tail = format!(
                "`tool_use` ids were found without `tool_result` blocks immediately after: {}. \
                 Each `tool_use` block must have a corresponding `tool_result` block in the next \
                 message.",
                siblings(assistant)
            );
            // "messages.N: " names the message; which one of the pair the API
            // counts is not documented, so either is accepted.
            [assistant, assistant + 1]
                .iter()
                .map(|n| format!("messages.{n}: {tail}"))
                .collect()
        }
        ("anthropic", Break::Orphan { at, block }) => vec![format!(
            "messages.{at}.content.{block}: unexpected `tool_use_id` found in `tool_result` \
             blocks: {}. Each `tool_result` block must have a corresponding `tool_use` block in \
             the previous message.",
            f.id
        )],
        // As quoted from Anthropic's 400 in Kilo-Org/kilocode#5219 and
        // deepset-ai/haystack-core-integrations#2146.
        ("anthropic", Break::ThinkingNotFirst { at, found }) => vec![format!(
            "messages.{at}.content.0.type: Expected `thinking` or `redacted_thinking`, but found \
             `{found}`. When `thinking` is enabled, a final `assistant` message must start with a \
             thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). \
             We recommend you include thinking blocks from previous turns. To avoid this \
             requirement, disable `thinking`. Please consult our documentation at \
             https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
        )],
        ("responses", Break::Unanswered { .. }) => {
            vec![format!("No tool output found for function call {}.", f.id)]
        }
        ("responses", Break::Orphan { .. }) => vec![format!(
            "No tool call found for function call output with call_id {}.",
            f.id
        )],
        _ => Vec::new(),
    }
}

/// Does the trace's rejection (shown to the learner, perhaps after "400 …:")
/// hold the real text of one of the rejected request's breaks?
fn told_truly(provider: &str, breaks: &[Fault], text: &str) -> bool {
    breaks.iter().any(|f| {
        real_texts(provider, breaks, f)
            .iter()
            .any(|t| text.contains(t.as_str()))
    })
}

/// The exported 400 body: the provider's error shape, `error.message` exactly
/// the real text of one of the breaks. Why not, if it is not.
fn body_fault(provider: &str, breaks: &[Fault], body: &Value) -> Option<String> {
    let kind = &body["error"]["type"];
    if kind != "invalid_request_error" {
        return Some(format!(
            "error.type is {kind}, not \"invalid_request_error\""
        ));
    }
    if provider == "anthropic" && body["type"] != "error" {
        return Some(format!(
            "type is {}, not \"error\" as Anthropic sends it",
            body["type"]
        ));
    }
    let message = body["error"]["message"].as_str().unwrap_or_default();
    let real = breaks
        .iter()
        .any(|f| real_texts(provider, breaks, f).iter().any(|t| t == message));
    (!real).then(|| format!("error.message is not exactly the real text: {message:?}"))
}

/// What is wrong with a run, as lines naming the lesson and provider; empty
/// when it keeps the contract (or is a rejection told truly).
/// `rejection`: the lesson's rejection text when its loop ends `rejected`.
fn problems(lesson: &str, file: &Path, rejection: Option<&str>) -> Vec<String> {
    problems_dropping(lesson, file, rejection, &[])
}

/// `problems`, for a run whose harness never appended the calls `dropped`
/// (`drop_calls`): each is proposed by its response and missing from the
/// next request, which is the lesson, and every request still keeps the
/// providers' contract (no call without its result). Any other call not
/// carried, or a dropped call that is carried, is a problem.
fn problems_dropping(
    lesson: &str,
    file: &Path,
    rejection: Option<&str>,
    dropped: &[String],
) -> Vec<String> {
    let calls = read_run(file);
    let provider = calls
        .first()
        .map(|c| c.provider.clone())
        .unwrap_or_default();
    let name = format!("{lesson} ({provider})");
    let mut faults = check_run(&name, &calls);
    let mut not_carried: Vec<String> = Vec::new();
    faults.retain(|f| {
        let expected = matches!(f.what, Break::NotCarried) && dropped.contains(&f.id);
        if expected {
            not_carried.push(f.id.clone());
        }
        !expected
    });
    // Each dropped call but the last reply's (no request follows it) is
    // missing from the request after its response.
    let last_proposed = calls
        .last()
        .filter(|c| error_text(&c.response).is_none())
        .map(|c| proposed(&name, &c.provider, &c.response, calls.len()))
        .unwrap_or_default();
    let mut out_of_place: Vec<String> = dropped
        .iter()
        .filter(|id| !not_carried.contains(id) && !last_proposed.contains(id))
        .map(|id| format!("{name}: {id} is dropped by the harness but carried into a request"))
        .collect();
    let last = calls.len();
    let Some(rejection) = rejection else {
        let mut out: Vec<String> = faults.iter().map(|f| format!("{name}: {f}")).collect();
        out.append(&mut out_of_place);
        if let Some(text) = calls.last().and_then(|c| error_text(&c.response)) {
            out.push(format!(
                "{name}: model call {last} is answered with a 400 ({text}), but the lesson does not end rejected"
            ));
        }
        return out;
    };
    // Exempt at the rejected call only: every earlier call keeps the contract.
    let (before, at_last): (Vec<&Fault>, Vec<&Fault>) = faults.iter().partition(|f| f.call < last);
    let mut out: Vec<String> = before.iter().map(|f| format!("{name}: {f}")).collect();
    out.append(&mut out_of_place);
    if at_last.is_empty() {
        out.push(format!(
            "{name}: model call {last} is rejected, but its request keeps the contract"
        ));
        return out;
    }
    let breaks: Vec<Fault> = at_last.into_iter().cloned().collect();
    let told: Vec<String> = breaks.iter().map(ToString::to_string).collect();
    if !told_truly(&provider, &breaks, rejection) {
        out.push(format!(
            "{name}: model call {last}: the rejection is not the {provider} API's real 400 text \
             for {}: {rejection:?}",
            told.join("; ")
        ));
    }
    match calls.last().map(|c| &c.response) {
        Some(body) if error_text(body).is_some() => {
            if let Some(why) = body_fault(&provider, &breaks, body) {
                out.push(format!(
                    "{name}: model call {last}: the exported 400 body for {}: {why}",
                    told.join("; ")
                ));
            }
        }
        _ => out.push(format!(
            "{name}: model call {last} is rejected, but its exported response is no 400 body"
        )),
    }
    out
}

// ---- the tests ----

#[test]
fn every_shipped_lesson_keeps_the_call_contract_in_every_provider() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("wire-contract");
    let mut all = Vec::new();
    let mut rejected = 0;
    let mut dropping = 0;
    let mut sub_agents = 0;
    for export in wire::export_all(&dir) {
        let trace = wire::trace(&export.lesson, export.provider, "en");
        if export.sub_agent {
            // A sub-agent's run: one line per model call of its own run, and
            // its own requests keep the contract alone.
            sub_agents += 1;
            let lines = read_run(&export.file).len();
            let model_calls = &trace["sub_agent"]["scenario"]["model_calls"];
            if model_calls != lines {
                all.push(format!(
                    "{} ({}): its sub-agent's {lines} lines for {model_calls} model calls",
                    export.lesson, export.provider
                ));
            }
            all.extend(problems(&export.lesson, &export.file, None));
            continue;
        }
        // One line per model call, or the contract reads a different run.
        let lines = read_run(&export.file).len();
        let model_calls = &trace["scenario"]["model_calls"];
        if model_calls != lines {
            all.push(format!(
                "{} ({}): {lines} lines for {model_calls} model calls",
                export.lesson, export.provider
            ));
        }
        let rejection = wire::rejection(&trace);
        rejected += usize::from(rejection.is_some());
        let dropped = wire::dropped_calls(&trace);
        dropping += usize::from(!dropped.is_empty());
        all.extend(problems_dropping(
            &export.lesson,
            &export.file,
            rejection.as_deref(),
            &dropped,
        ));
        if rejection.is_some() {
            // The API's text is English on a Chinese screen too.
            let zh = wire::rejection(&wire::trace(&export.lesson, export.provider, "zh"));
            all.extend(problems(&export.lesson, &export.file, zh.as_deref()));
        }
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
    // harness-drops-results, as each provider rejects it.
    assert!(rejected >= 3, "only {rejected} rejected runs");
    // harness-drops-calls, which each provider accepts.
    assert!(dropping >= 3, "only {dropping} runs drop calls");
    // sub-agent-own-context's sub-agent, in each provider.
    assert!(sub_agents >= 3, "only {sub_agents} sub-agent runs");
}

fn sample_problems(name: &str) -> Vec<String> {
    problems(name, &wire::sample(name), None)
}

#[test]
fn the_good_samples_keep_the_contract() {
    for name in [
        "good.chat.jsonl",
        "good.responses.jsonl",
        "good.anthropic.jsonl",
    ] {
        assert_eq!(sample_problems(name), Vec::<String>::new(), "{name}");
    }
}

/// Each deliberately wrong sample fails with the lesson, the provider, the
/// call and the id in its message.
#[test]
fn each_broken_sample_fails_with_the_call_and_the_id() {
    let cases = [
        (
            "contract-unanswered.chat.jsonl",
            "contract-unanswered.chat.jsonl (chat): model call 3: call_2 (messages[4]) has no result where the provider wants it",
        ),
        (
            "contract-orphan.chat.jsonl",
            "contract-orphan.chat.jsonl (chat): model call 3: the result at messages[6] answers call_9, which no call there made",
        ),
        (
            "contract-orphan.chat.jsonl",
            "contract-orphan.chat.jsonl (chat): model call 3: call_2 (messages[4]) has no result",
        ),
        (
            "contract-late-result.chat.jsonl",
            "(chat): model call 3: the result at messages[7] answers call_2, which no call there made",
        ),
        (
            "contract-late-result.chat.jsonl",
            "(chat): model call 3: call_2 (messages[4]) has no result",
        ),
        (
            "contract-reused-id.chat.jsonl",
            "(chat): model call 2: the response proposes call_1 again (first proposed by call 1)",
        ),
        (
            "contract-reused-id.chat.jsonl",
            "(chat): model call 3: the call id call_1 appears twice",
        ),
        (
            "contract-unproposed.chat.jsonl",
            "(chat): model call 1: the response proposes call_1, but request 2 does not carry it",
        ),
        (
            "contract-unproposed.chat.jsonl",
            "(chat): model call 2: the request carries the new call call_7, which response 1 never proposed",
        ),
        (
            "contract-item-id.responses.jsonl",
            "(responses): model call 3: the result at input[7] answers fc_02, which no call there made",
        ),
        (
            "contract-item-id.responses.jsonl",
            "(responses): model call 3: call_a2 (input[4]) has no result",
        ),
        (
            "contract-reused-item-id.responses.jsonl",
            "(responses): model call 2: the response proposes fc_01 again (first proposed by call 1)",
        ),
        (
            "contract-reused-item-id.responses.jsonl",
            "(responses): model call 3: the call id fc_01 appears twice",
        ),
        (
            "contract-result-not-first.anthropic.jsonl",
            "(anthropic): model call 3: the tool_result for toolu_01C is not first in the user message messages[4]",
        ),
        (
            "contract-split-results.anthropic.jsonl",
            "(anthropic): model call 3: toolu_01B (messages[3]) has no result where the provider wants it",
        ),
        (
            "contract-split-results.anthropic.jsonl",
            "(anthropic): model call 3: the result at messages[6] answers toolu_01B, which no call there made",
        ),
    ];
    for (name, expected) in cases {
        let found = sample_problems(name);
        assert!(
            found.iter().any(|p| p.contains(expected)),
            "{name}: expected a problem containing\n  {expected}\nfound:\n  {}",
            found.join("\n  ")
        );
    }
    // And every broken sample is caught by something.
    for file in wire::samples() {
        let name = file.file_name().unwrap().to_str().unwrap();
        if name.starts_with("contract-") {
            assert!(!sample_problems(name).is_empty(), "{name} passes");
        }
    }
}

#[test]
fn a_rejected_run_is_exempt_only_with_the_real_400_text() {
    let name = "rejected.chat.jsonl";
    let file = wire::sample(name);
    let real = "An assistant message with 'tool_calls' must be followed by tool messages \
                responding to each 'tool_call_id'. The following tool_call_ids did not have \
                response messages: call_1";
    let shown = format!("400 invalid_request_error: {real}");
    assert_eq!(problems(name, &file, Some(&shown)), Vec::<String>::new());

    // Not exempt: the break is reported, and so is the 400 of a lesson that
    // does not end rejected.
    let found = problems(name, &file, None);
    assert!(
        found.iter().any(|p| p.contains(
            "rejected.chat.jsonl (chat): model call 2: call_1 (messages[2]) has no result"
        )),
        "{found:?}"
    );
    assert!(
        found.iter().any(|p| p.contains("does not end rejected")),
        "{found:?}"
    );

    // A made-up text, the right text with the wrong id, or another
    // provider's text is refused.
    for wrong in [
        "400: call_1 has no result".to_string(),
        shown.replace("call_1", "call_2"),
        "messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: \
         call_1. Each `tool_use` block must have a corresponding `tool_result` block in the next \
         message."
            .to_string(),
    ] {
        let found = problems(name, &file, Some(&wrong));
        assert!(
            found.iter().any(|p| p.contains(
                "rejected.chat.jsonl (chat): model call 2: the rejection is not the chat API's real 400 text for model call 2: call_1"
            )),
            "{wrong}: {found:?}"
        );
    }

    // A good run cannot pass as rejected.
    let found = problems("good", &wire::sample("good.chat.jsonl"), Some(&shown));
    assert!(
        found
            .iter()
            .any(|p| p.contains("is rejected, but its request keeps the contract")),
        "{found:?}"
    );
}

#[test]
fn the_exported_400_body_is_the_providers_own() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("wire-contract-bodies");
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(wire::sample("rejected.chat.jsonl")).unwrap();
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let real = lines[1]["response"]["error"]["message"].clone();
    let shown = format!("400 invalid_request_error: {}", real.as_str().unwrap());
    let with = |lines: &[Value], edit: &dyn Fn(&mut Value)| {
        let mut copy = lines.to_vec();
        edit(&mut copy[1]["response"]);
        let file = dir.join("rejected.chat.jsonl");
        let text: Vec<String> = copy.iter().map(ToString::to_string).collect();
        std::fs::write(&file, text.join("\n")).unwrap();
        problems("rejected", &file, Some(&shown))
    };
    assert_eq!(with(&lines, &|_| {}), Vec::<String>::new());
    // The message as the API sends it: no "400 …:" before it.
    let found = with(&lines, &|r| {
        r["error"]["message"] = Value::String(shown.clone())
    });
    assert!(
        found.iter().any(|p| p.contains(
            "rejected (chat): model call 2: the exported 400 body for model call 2: call_1 (messages[2]) has no result where the provider wants it: error.message is not exactly the real text"
        )),
        "{found:?}"
    );
    let found = with(&lines, &|r| {
        r["error"]["type"] = Value::String("server_error".into())
    });
    assert!(
        found
            .iter()
            .any(|p| p.contains("error.type is \"server_error\", not \"invalid_request_error\"")),
        "{found:?}"
    );
    // A rejected call needs a 400 body at all.
    lines[1]["response"] = lines[0]["response"].clone();
    let found = with(&lines, &|_| {});
    assert!(
        found
            .iter()
            .any(|p| p
                .contains("model call 2 is rejected, but its exported response is no 400 body")),
        "{found:?}"
    );
}

#[test]
fn the_real_texts_of_each_provider_are_recognised() {
    let f = fault(2, "toolu_01A", Break::Unanswered { at: 1 });
    let one = std::slice::from_ref(&f);
    let anthropic = "messages.1: `tool_use` ids were found without `tool_result` blocks immediately \
                     after: toolu_01A. Each `tool_use` block must have a corresponding `tool_result` \
                     block in the next message.";
    assert!(told_truly("anthropic", one, anthropic));
    assert!(told_truly(
        "anthropic",
        one,
        &anthropic.replace("messages.1", "messages.2")
    ));
    assert!(!told_truly(
        "anthropic",
        one,
        &anthropic.replace("messages.1", "messages.3")
    ));
    assert!(!told_truly(
        "anthropic",
        one,
        &anthropic.replace("01A", "01B")
    ));
    assert!(!told_truly("chat", one, anthropic));
    let body = serde_json::json!({
        "type": "error",
        "error": {"type": "invalid_request_error", "message": anthropic},
    });
    assert_eq!(body_fault("anthropic", one, &body), None);
    let mut openai_shaped = body.clone();
    openai_shaped.as_object_mut().unwrap().remove("type");
    assert!(
        body_fault("anthropic", one, &openai_shaped).is_some_and(|w| w.contains("not \"error\""))
    );

    let f = fault(2, "toolu_01A", Break::Orphan { at: 2, block: 0 });
    let text = "messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: \
                toolu_01A. Each `tool_result` block must have a corresponding `tool_use` block in \
                the previous message.";
    assert!(told_truly("anthropic", std::slice::from_ref(&f), text));

    let f = fault(3, "call_a2", Break::Unanswered { at: 4 });
    let text = "No tool output found for function call call_a2.";
    assert!(told_truly("responses", std::slice::from_ref(&f), text));
    let f = fault(3, "fc_02", Break::Orphan { at: 7, block: 0 });
    let text = "No tool call found for function call output with call_id fc_02.";
    assert!(told_truly("responses", std::slice::from_ref(&f), text));

    // Two calls of one message left unanswered are named together.
    let two = [
        fault(2, "call_1", Break::Unanswered { at: 2 }),
        fault(2, "call_2", Break::Unanswered { at: 2 }),
    ];
    assert!(real_texts("chat", &two, &two[1])[0].ends_with("messages: call_1, call_2"));

    // A break no provider has a text for is never a rejection told truly.
    let f = fault(2, "call_1", Break::CallTwice);
    assert!(!told_truly("chat", std::slice::from_ref(&f), "anything"));
}

/// A run said to drop a call (`drop_calls`) must not carry it: the good
/// sample carries call_1 into its next request, so calling call_1 dropped
/// is a problem.
#[test]
fn a_dropped_call_that_is_carried_is_a_problem() {
    let file = wire::sample("good.chat.jsonl");
    assert_eq!(problems("good", &file, None), Vec::<String>::new());
    let found = problems_dropping("good", &file, None, &["call_1".to_string()]);
    assert_eq!(
        found,
        ["good (chat): call_1 is dropped by the harness but carried into a request"]
    );
}
