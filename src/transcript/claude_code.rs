//! Claude Code session JSONL (`~/.claude/projects/<dir>/<uuid>.jsonl`).
//! Not officially documented: read tolerantly. Lines of `type` user or
//! assistant carry `uuid` / `parentUuid` and a `message` in the Anthropic
//! Messages shape (content blocks `tool_use` / `tool_result`, `is_error`).
//! The conversation is the `parentUuid` chain that ends at the last
//! message, not the file order: side chains and abandoned branches are
//! left out (and counted).
//!
//! Claude Code 2.1.282 and later may also record each API request
//! exactly: `api-request-shape` (`shapeHash`, `shape.system`,
//! `shape.tools`), `api-request-blob` (`hash`, one `message`) and
//! `api-request` (`id`, `shapeHash`, `base`: an earlier request's id,
//! `keep`: how many of its messages come first, `tail`: the hashes of the
//! blobs after them). An assistant line's `requestRef` names its request:
//! that model call is drawn with the request's system prompt, tools and
//! size.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

use super::anthropic;
use super::builder::{Builder, Msg, offered_tools, text_of};
use super::jsonl::Lines;
use super::shape::{Lenient, Object, Usage};
use crate::load::ScenarioError;

struct Entry {
    parent: Option<String>,
    line: usize,
    msgs: Vec<Msg>,
    /// A user or assistant line of the main conversation.
    conversation: bool,
    /// A user or assistant line, on a side chain or not.
    message: bool,
    compaction: bool,
    /// `requestRef`: the `api-request` this reply answers.
    request: Option<String>,
}

/// An `api-request` line: its messages are `base`'s first `keep` and then
/// the blobs of `tail`.
struct ApiRequest {
    line: usize,
    shape: String,
    /// The request's parameters (model, max_tokens, thinking, …).
    params: Value,
    base: Option<String>,
    keep: usize,
    tail: Vec<String>,
}

/// The requests a session records, to resolve a reply's `requestRef`.
#[derive(Default)]
struct Requests {
    /// shapeHash → (system prompt as recorded, tool definitions).
    shapes: HashMap<String, (Value, Vec<Value>)>,
    /// blob hash → the wire message `{role, content}`.
    blobs: HashMap<String, Value>,
    requests: HashMap<String, ApiRequest>,
}

impl Requests {
    /// A request's messages, in order; None where a base or blob it
    /// names is missing from the file.
    fn messages(&self, id: &str, depth: usize) -> Option<Vec<&Value>> {
        let r = self.requests.get(id)?;
        let mut out = match &r.base {
            Some(base) if depth < 10_000 => {
                let mut earlier = self.messages(base, depth + 1)?;
                earlier.truncate(r.keep);
                earlier
            }
            Some(_) => return None,
            None => Vec::new(),
        };
        for hash in &r.tail {
            out.push(self.blobs.get(hash)?);
        }
        Some(out)
    }
}

/// The hash a request names a message by: SHA-256 of the wire message
/// `{role, content}` as JSON with its keys sorted, without spaces (the
/// hashes of the file's `api-request-blob` lines are made so). A request
/// names a message the conversation holds by this hash, with no blob.
fn message_hash(role: &str, content: &Value) -> String {
    use sha2::{Digest, Sha256};
    let wire = serde_json::json!({"content": sorted(content), "role": role});
    let digest = Sha256::digest(wire.to_string().as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A JSON value with every object's keys in order (the file's order is
/// kept by the parser otherwise).
fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(o) => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted(&o[k])))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// A line's fields read here, whatever its `type`: its place in the
/// conversation (`uuid`, `parentUuid`, or `logicalParentUuid` across a
/// compaction), the request it answers (`requestRef`), a message line's
/// marks, a `system` line's `subtype`, and the fields of the
/// `api-request*` lines. The `message` stays a JSON value (an Anthropic
/// Messages message, read by `anthropic::blocks_of`; a blob's is kept as
/// recorded), and so do a request's `params` and a shape's `system` and
/// tool definitions.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Line<'a> {
    #[serde(rename = "type", borrow)]
    kind: Lenient<&'a str>,
    #[serde(borrow)]
    uuid: Lenient<&'a str>,
    #[serde(rename = "parentUuid", borrow)]
    parent: Lenient<&'a str>,
    #[serde(rename = "logicalParentUuid", borrow)]
    logical_parent: Lenient<&'a str>,
    #[serde(rename = "requestRef", borrow)]
    request_ref: Lenient<&'a str>,
    #[serde(rename = "isSidechain")]
    sidechain: Lenient<bool>,
    #[serde(rename = "isApiErrorMessage")]
    api_error: Lenient<bool>,
    #[serde(rename = "isMeta")]
    meta: Lenient<bool>,
    #[serde(rename = "isCompactSummary")]
    compact_summary: Lenient<bool>,
    #[serde(borrow)]
    subtype: Lenient<&'a str>,
    /// `api-request-shape` and `api-request`: the shape's hash.
    #[serde(rename = "shapeHash", borrow)]
    shape_hash: Lenient<&'a str>,
    shape: Object<Shape>,
    /// `api-request-blob`: the hash of its `message`.
    #[serde(borrow)]
    hash: Lenient<&'a str>,
    /// `api-request`: its id, parameters, and messages (`base`'s first
    /// `keep`, then the blobs of `tail`).
    #[serde(borrow)]
    id: Lenient<&'a str>,
    params: Option<Value>,
    #[serde(borrow)]
    base: Lenient<&'a str>,
    keep: Lenient<u64>,
    #[serde(borrow)]
    tail: Lenient<Vec<Lenient<&'a str>>>,
}

/// An `api-request-shape`'s `shape`: the system prompt as recorded and
/// the tool definitions.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Shape {
    system: Option<Value>,
    tools: Lenient<Vec<Value>>,
}

/// What a message line's `message` says besides its content: the role
/// (the line's `type` when absent) and the tokens of a reply.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Message<'a> {
    #[serde(borrow)]
    role: Lenient<&'a str>,
    usage: Object<Usage>,
}

/// Line types that are part of a session but not of the loop drawn here.
const BOOKKEEPING: [&str; 7] = [
    "summary",
    "file-history-snapshot",
    "queue-operation",
    "custom-title",
    "last-prompt",
    "attachment",
    "progress",
];

pub fn read(
    _path: &str,
    first: (usize, Value),
    lines: &mut Lines,
    b: &mut Builder,
) -> Result<(), ScenarioError> {
    let mut entries: Vec<Entry> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut recorded = Requests::default();
    let mut next = Some(first);
    while let Some((line, v)) = next {
        let l = Object::<Line>::of(&v);
        let kind = l.kind.0.unwrap_or("");
        let mut entry = Entry {
            parent: l.parent.0.or(l.logical_parent.0).map(str::to_string),
            line,
            msgs: Vec::new(),
            conversation: false,
            message: false,
            compaction: false,
            request: l.request_ref.0.map(str::to_string),
        };
        match kind {
            "user" | "assistant" => {
                if l.api_error.0 == Some(true) {
                    // Written by Claude Code, not by the model.
                    b.skip("assistant line marked isApiErrorMessage", line);
                } else if let Some(message) = v.get("message") {
                    let m = Object::<Message>::of(message);
                    let role = m.role.0.unwrap_or(kind);
                    // A request may name this message by its hash.
                    if let Some(content) = message.get("content") {
                        recorded
                            .blobs
                            .entry(message_hash(role, content))
                            .or_insert_with(
                                || serde_json::json!({"role": role, "content": content}),
                            );
                    }
                    let tokens = if role == "assistant" {
                        m.usage.0.and_then(|u| u.output_tokens.0)
                    } else {
                        None
                    };
                    anthropic::blocks_of(message, line, role, tokens, &mut entry.msgs, b);
                    if l.meta.0 == Some(true) {
                        // Written by Claude Code into the user's turn
                        // (command output, reminders), not by the user.
                        for msg in &mut entry.msgs {
                            if let Msg::User { text, line } = msg {
                                *msg = Msg::Context {
                                    text: std::mem::take(text),
                                    line: *line,
                                };
                            }
                        }
                    }
                    entry.conversation = l.sidechain.0 != Some(true);
                    entry.message = true;
                }
                entry.compaction = l.compact_summary.0 == Some(true);
            }
            "system" => {
                entry.compaction = l.subtype.0 == Some("compact_boundary");
                if !entry.compaction {
                    b.skip(&format!("system/{}", l.subtype.0.unwrap_or("?")), line);
                }
            }
            "api-request-shape" => {
                if let Some(hash) = l.shape_hash.0 {
                    let shape = l.shape.0.unwrap_or_default();
                    let tools = shape.tools.0.unwrap_or_default();
                    recorded
                        .shapes
                        .insert(hash.to_string(), (shape.system.unwrap_or_default(), tools));
                }
            }
            "api-request-blob" => {
                if let (Some(hash), Some(message)) = (l.hash.0, v.get("message")) {
                    recorded.blobs.insert(hash.to_string(), message.clone());
                }
            }
            "api-request" => {
                if let Some(id) = l.id.0 {
                    let request = ApiRequest {
                        line,
                        shape: l.shape_hash.0.unwrap_or_default().to_string(),
                        params: l.params.unwrap_or_default(),
                        base: l.base.0.map(str::to_string),
                        keep: l.keep.0.unwrap_or(0) as usize,
                        tail: l
                            .tail
                            .0
                            .unwrap_or_default()
                            .into_iter()
                            .filter_map(|hash| hash.0.map(str::to_string))
                            .collect(),
                    };
                    recorded.requests.insert(id.to_string(), request);
                }
            }
            // Part of the session, not of the loop: listed, not drawn.
            k if BOOKKEEPING.contains(&k) => b.skip(k, line),
            "" => b.skip("line without a type", line),
            other => b.skip(other, line),
        }
        if let Some(uuid) = l.uuid.0 {
            index.insert(uuid.to_string(), entries.len());
        }
        entries.push(entry);
        next = lines.next_value()?;
    }
    // The conversation: from the last message back along parentUuid.
    let Some(leaf) = entries.iter().rposition(|e| e.conversation) else {
        return Ok(());
    };
    let mut chain = vec![leaf];
    let mut at = leaf;
    while let Some(&parent) = entries[at].parent.as_ref().and_then(|p| index.get(p)) {
        if chain.len() > entries.len() {
            break; // a cycle: stop rather than loop
        }
        chain.push(parent);
        at = parent;
    }
    chain.reverse();
    let on_chain = chain.iter().filter(|&&i| entries[i].message).count();
    let messages = entries.iter().filter(|e| e.message).count();
    b.off_chain(messages - on_chain);
    let mut sent = std::collections::HashSet::new();
    for i in chain {
        let entry = &mut entries[i];
        if entry.compaction {
            b.compacted(entry.line);
        }
        // The first line of a reply whose request the file records.
        if let Some(id) = entry.request.take()
            && sent.insert(id.clone())
            && let Some(r) = recorded.requests.get(&id)
            && let Some(messages) = recorded.messages(&id, 0)
            && let Some((system, tools)) = recorded.shapes.get(&r.shape)
        {
            b.system(&text_of(system));
            b.tools(offered_tools(tools, "input_schema"));
            // The body as sent, rebuilt from the records: the parameters,
            // the shape's system prompt and tools, the messages.
            let mut body = match &r.params {
                Value::Object(o) => o.clone(),
                _ => serde_json::Map::new(),
            };
            body.insert("system".into(), system.clone());
            body.insert("tools".into(), Value::Array(tools.clone()));
            let count = messages.len();
            body.insert(
                "messages".into(),
                Value::Array(messages.into_iter().cloned().collect()),
            );
            b.recorded_request(r.line, count, &Value::Object(body));
        }
        for msg in std::mem::take(&mut entry.msgs) {
            b.push(msg);
        }
    }
    Ok(())
}
