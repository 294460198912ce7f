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
//! size. A request names a message the session holds by the hash of the
//! message as the API is sent it: a reply's lines, or a turn's results,
//! are one message there.
//!
//! Since 2.1 each result of a parallel group parents its own call, and
//! results arrive in any order: the lines that hang off the chain but
//! belong to its turns are read with it (`Session::conversation`). Text the
//! CLI writes into the user's turn (`isMeta` lines, a `role: "system"`
//! message, `<system-reminder>` blocks) is context, not the user's words.
//! A session's sub-agents write files of their own (`subagent_files`); one
//! read alone is all side chain, and that is its conversation.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

use serde::Deserialize;
use serde_json::Value;

use super::anthropic;
use super::builder::{Builder, Msg, offered_tools, text_of};
use super::format::Format;
use super::jsonl::Lines;
use super::reader::{Ask, Reader, Score};
use super::shape::{Lenient, Object, Usage};
use super::text;
use crate::i18n;
use crate::load::ScenarioError;
use crate::provider::Provider;

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
    /// An assistant line's `message.id`: the lines of one reply share it.
    reply: Option<String>,
    /// A user line that holds tool results and nothing else.
    results: bool,
    /// The hash of its message `{role, content}` among the blobs: the API
    /// is sent a reply's lines, or a turn's, as one message.
    wire: Option<String>,
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
    /// An `api-request-shape`, `api-request-blob` or `api-request` line.
    fn line(&mut self, line: usize, l: Line, v: &Value) {
        match l.kind.0 {
            Some("api-request-shape") => {
                if let Some(hash) = l.shape_hash.0 {
                    let shape = l.shape.0.unwrap_or_default();
                    let tools = shape.tools.0.unwrap_or_default();
                    self.shapes
                        .insert(hash.to_string(), (shape.system.unwrap_or_default(), tools));
                }
            }
            Some("api-request-blob") => {
                if let (Some(hash), Some(message)) = (l.hash.0, v.get("message")) {
                    self.blobs.insert(hash.to_string(), message.clone());
                }
            }
            _ => {
                let Some(id) = l.id.0 else { return };
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
                self.requests.insert(id.to_string(), request);
            }
        }
    }

    /// A message the conversation holds, which a request may name by its
    /// hash without a blob.
    fn blob(&mut self, role: &str, content: &Value) -> String {
        let hash = message_hash(role, content);
        self.blobs
            .entry(hash.clone())
            .or_insert_with(|| serde_json::json!({"role": role, "content": content}));
        hash
    }

    /// The conversation's messages as the API is sent them: the lines of
    /// one reply, and a turn's consecutive user lines (its results), are
    /// one message there, named by the hash of the whole.
    fn wire_messages(&mut self, entries: &[Entry], order: &[usize]) {
        if self.requests.is_empty() {
            return;
        }
        let mut current: Option<(String, Vec<Value>, usize)> = None;
        for hash in order.iter().filter_map(|&i| entries[i].wire.as_ref()) {
            let Some(message) = self.blobs.get(hash) else {
                continue;
            };
            let role = message["role"].as_str().unwrap_or("").to_string();
            let blocks = match &message["content"] {
                Value::Array(blocks) => blocks.clone(),
                text => vec![serde_json::json!({"type": "text", "text": text})],
            };
            match &mut current {
                Some((r, merged, parts)) if *r == role => {
                    merged.extend(blocks);
                    *parts += 1;
                }
                _ => {
                    self.merged(current.take());
                    current = Some((role, blocks, 1));
                }
            }
        }
        self.merged(current);
    }

    fn merged(&mut self, message: Option<(String, Vec<Value>, usize)>) {
        if let Some((role, blocks, _)) = message.filter(|m| m.2 > 1) {
            self.blob(&role, &Value::Array(blocks));
        }
    }

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

    /// Draw the request `id` before the reply that answers it, where the
    /// file holds all of it.
    fn replay(&self, id: &str, b: &mut Builder) {
        let Some(r) = self.requests.get(id) else {
            return;
        };
        let (Some(messages), Some((system, tools))) =
            (self.messages(id, 0), self.shapes.get(&r.shape))
        else {
            return;
        };
        b.system(&text_of(system));
        b.tools(offered_tools(tools, "input_schema"));
        // The body as sent, rebuilt from the records: the parameters, the
        // shape's system prompt and tools, the messages.
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
    /// A sub-agent's lines name it (`agentId`).
    #[serde(rename = "agentId", borrow)]
    agent: Lenient<&'a str>,
    /// A Task (Agent) call's result names the sub-agent it ran.
    #[serde(rename = "toolUseResult", borrow)]
    tool_use_result: Object<ToolUseResult<'a>>,
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

/// A result's `toolUseResult`: for a Task (Agent) call, the sub-agent's id.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ToolUseResult<'a> {
    #[serde(rename = "agentId", borrow)]
    agent: Lenient<&'a str>,
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
    #[serde(borrow)]
    id: Lenient<&'a str>,
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

/// Claude Code sessions: JSON lines only, told by their first line.
pub(crate) const READER: Reader = Reader::new(
    Format::ClaudeCode,
    i18n::FORMAT_CLAUDE_CODE,
    Provider::Anthropic,
    "Claude Code session JSONL (~/.claude/projects/<dir>/<uuid>.jsonl)",
)
.scored(score)
.lines(read);

/// A first line with a `type` and a key of Claude Code's own.
fn score(value: &Value, ask: &Ask) -> Score {
    let Some(o) = ask.first_line(value) else {
        return 0;
    };
    let claude_keys = ["uuid", "parentUuid", "sessionId", "leafUuid", "messageId"];
    let typed = o.get("type").is_some_and(Value::is_string);
    if typed && claude_keys.iter().any(|k| o.contains_key(*k)) {
        110
    } else {
        0
    }
}

pub fn read(_path: &str, lines: &mut Lines, b: &mut Builder) -> Result<(), ScenarioError> {
    let mut session = Session::default();
    lines.each(|line, v| {
        session.line(line, &v, b);
        Ok(())
    })?;
    session.replay(b);
    Ok(())
}

/// A session as read so far: its lines, by `uuid`, and the requests.
#[derive(Default)]
struct Session {
    entries: Vec<Entry>,
    index: HashMap<String, usize>,
    recorded: Requests,
    /// The sub-agents the session's calls ran: (agent id, call id, line).
    agents: Vec<(String, String, usize)>,
    /// The sub-agent whose lines these are, in its own file.
    agent: Option<String>,
}

impl Session {
    fn line(&mut self, line: usize, v: &Value, b: &mut Builder) {
        let l = Object::<Line>::of(v);
        let kind = l.kind.0.unwrap_or("");
        let uuid = l.uuid.0;
        let mut entry = Entry {
            parent: l.parent.0.or(l.logical_parent.0).map(str::to_string),
            line,
            msgs: Vec::new(),
            conversation: false,
            message: false,
            compaction: false,
            request: l.request_ref.0.map(str::to_string),
            reply: None,
            results: false,
            wire: None,
        };
        match kind {
            "user" | "assistant" => {
                if l.api_error.0 == Some(true) {
                    // Written by Claude Code, not by the model.
                    b.skip("assistant line marked isApiErrorMessage", line);
                } else if let Some(message) = v.get("message") {
                    self.message(&mut entry, &l, kind, message, b);
                }
                entry.compaction = l.compact_summary.0 == Some(true);
            }
            "system" => {
                entry.compaction = l.subtype.0 == Some("compact_boundary");
                if !entry.compaction {
                    b.skip(&format!("system/{}", l.subtype.0.unwrap_or("?")), line);
                }
            }
            "api-request-shape" | "api-request-blob" | "api-request" => {
                self.recorded.line(line, l, v);
            }
            // Part of the session, not of the loop: listed, not drawn.
            k if BOOKKEEPING.contains(&k) => b.skip(k, line),
            "" => b.skip("line without a type", line),
            other => b.skip(other, line),
        }
        if let Some(uuid) = uuid {
            self.index.insert(uuid.to_string(), self.entries.len());
        }
        self.entries.push(entry);
    }

    /// A user or assistant line's message.
    fn message(
        &mut self,
        entry: &mut Entry,
        l: &Line,
        kind: &str,
        message: &Value,
        b: &mut Builder,
    ) {
        let m = Object::<Message>::of(message);
        let role = m.role.0.unwrap_or(kind);
        let content = message.get("content");
        // A request may name this message by its hash.
        if let Some(content) = content {
            entry.wire = Some(self.recorded.blob(role, content));
        }
        let tokens = if role == "assistant" {
            entry.reply = m.id.0.map(str::to_string);
            m.usage.0.and_then(|u| u.output_tokens.0)
        } else {
            None
        };
        let api_role = if role == "system" { "user" } else { role };
        anthropic::blocks_of(message, entry.line, api_role, tokens, &mut entry.msgs, b);
        // Written by Claude Code into the user's turn (command output,
        // reminders, its `system` environment message), not by the user.
        // The summary a compaction leaves is Claude Code's too.
        let harness = l.meta.0 == Some(true)
            || role == "system"
            || l.compact_summary.0 == Some(true)
            || notification(content);
        entry.msgs = std::mem::take(&mut entry.msgs)
            .into_iter()
            .flat_map(|msg| harness_apart(msg, harness))
            .collect();
        entry.results = role == "user"
            && content.and_then(Value::as_array).is_some_and(|blocks| {
                !blocks.is_empty()
                    && blocks
                        .iter()
                        .all(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
            });
        entry.conversation = l.sidechain.0 != Some(true);
        entry.message = true;
        if let Some(agent) = l.agent.0 {
            self.agent.get_or_insert_with(|| agent.to_string());
        }
        let started = l.tool_use_result.0.as_ref().and_then(|r| r.agent.0);
        let call = entry.msgs.iter().find_map(|m| match m {
            Msg::Tool { call_id, .. } => Some(call_id.clone()),
            _ => None,
        });
        if let (Some(agent), Some(call)) = (started, call) {
            self.agents.push((agent.to_string(), call, entry.line));
        }
    }

    /// The lines of the conversation drawn, in order: the `parentUuid`
    /// chain that ends at the last message, with the lines that hang off
    /// it but belong to its turns (a reply's later blocks and the results
    /// of a parallel group, each parenting its own call, in any order),
    /// each reply's lines before the results that answer it.
    fn conversation(&self) -> Vec<usize> {
        let entries = &self.entries;
        let Some(leaf) = entries.iter().rposition(|e| e.conversation) else {
            return Vec::new();
        };
        let mut on = vec![false; entries.len()];
        let mut at = leaf;
        on[at] = true;
        let mut steps = 0;
        while let Some(parent) = self.chain_parent(at) {
            steps += 1;
            if steps > entries.len() {
                break; // a cycle: stop rather than loop
            }
            on[parent] = true;
            at = parent;
        }
        // Off the chain but of its turns: a block of a reply the chain
        // holds (one API response, one message id: Claude Code runs a call
        // while the reply still streams, and its later blocks may hang off
        // a `progress` line), or a result to an included line.
        // A block the chain already holds (a copy on another branch) is
        // not one more.
        let chain = || (0..entries.len()).filter(|&i| on[i]).map(|i| &entries[i]);
        let replies: HashSet<&String> = chain().filter_map(|e| e.reply.as_ref()).collect();
        let mut blocks: HashSet<&String> = chain().filter_map(|e| e.wire.as_ref()).collect();
        for (i, e) in entries.iter().enumerate() {
            if on[i] || !e.conversation {
                continue;
            }
            let of_reply = e.reply.as_ref().is_some_and(|r| replies.contains(r))
                && e.wire.as_ref().is_none_or(|w| blocks.insert(w));
            on[i] = of_reply || (e.results && self.message_parent(i).is_some_and(|p| on[p]));
        }
        // A reply's lines come before the results held back meanwhile.
        let mut order = Vec::new();
        let mut held = Vec::new();
        let mut reply: Option<&String> = None;
        for i in (0..entries.len()).filter(|&i| on[i]) {
            let e = &entries[i];
            if e.results {
                held.push(i);
                continue;
            }
            // A `progress` line (or any without a message) between a
            // reply's blocks does not end the reply.
            if !e.message && !e.compaction {
                order.push(i);
                continue;
            }
            if e.reply.is_none() || e.reply.as_ref() != reply {
                order.append(&mut held);
                reply = e.reply.as_ref();
            }
            order.push(i);
        }
        order.append(&mut held);
        order
    }

    /// The line before entry `i` on the chain: its parent; for a
    /// compaction boundary whose parent the file does not hold (Claude
    /// Code wrote it as a `logicalParentUuid` of a line it did not keep),
    /// the nearest message line above it (`missing_parent`).
    fn chain_parent(&self, i: usize) -> Option<usize> {
        let parent = self.entries[i].parent.as_ref()?;
        self.index
            .get(parent)
            .copied()
            .or_else(|| self.missing_parent(i).map(|(before, _)| before))
    }

    /// A compaction boundary at entry `i` whose parent the file does not
    /// hold: the nearest message line above it, and the parent's id.
    fn missing_parent(&self, i: usize) -> Option<(usize, &str)> {
        let e = self.entries.get(i).filter(|e| e.compaction)?;
        let parent = e
            .parent
            .as_deref()
            .filter(|p| !self.index.contains_key(*p))?;
        let before = (0..i)
            .rev()
            .find(|&k| self.entries[k].message && self.entries[k].conversation)?;
        Some((before, parent))
    }

    /// The nearest line above entry `i` that holds a message, past lines
    /// that hold none (`progress`): what it answers or continues.
    fn message_parent(&self, i: usize) -> Option<usize> {
        let mut at = i;
        for _ in 0..self.entries.len() {
            let parent = self.entries[at].parent.as_ref()?;
            at = *self.index.get(parent)?;
            if self.entries[at].message || self.entries[at].compaction {
                return Some(at);
            }
        }
        None
    }

    /// Feed the conversation to the builder.
    fn replay(mut self, b: &mut Builder) {
        // A sub-agent's file (`agent-*.jsonl`) holds only its side chain:
        // that is its conversation.
        let alone = !self.entries.iter().any(|e| e.conversation);
        if alone {
            for e in &mut self.entries {
                e.conversation = e.message;
            }
            if let Some(agent) = &self.agent {
                // Claude Code names its compaction run `acompact-…`.
                let note = match agent.starts_with("acompact") {
                    true => i18n::CLAUDE_COMPACTION_FILE,
                    false => i18n::CLAUDE_SUBAGENT_FILE,
                };
                b.note(text::every(note, |_| vec![("agent", agent.clone())]));
            }
        }
        if !self.agents.is_empty() {
            let list: Vec<String> = self
                .agents
                .iter()
                .map(|(agent, call, line)| format!("agent-{agent} ← {call} ({line})"))
                .collect();
            b.note(text::every(i18n::CLAUDE_SUBAGENTS_STARTED, |_| {
                vec![("list", list.join(", "))]
            }));
        }
        b.sub_agents(crate::trace::SubAgents {
            started: (self.agents.iter())
                .map(|(agent, call, _)| (call.clone(), agent.clone()))
                .collect(),
            // The agent's id names this run only in its own file.
            agent: self.agent.clone().filter(|_| alone),
        });
        let order = self.conversation();
        for &i in &order {
            if let Some((before, parent)) = self.missing_parent(i) {
                let (line, before) = (self.entries[i].line, self.entries[before].line);
                b.note(text::every(i18n::CLAUDE_COMPACTION_PARENT_MISSING, |_| {
                    vec![
                        ("line", line.to_string()),
                        ("parent", parent.to_string()),
                        ("before", before.to_string()),
                    ]
                }));
            }
        }
        self.recorded.wire_messages(&self.entries, &order);
        let shown = order.iter().filter(|&&i| self.entries[i].message).count();
        let messages = self.entries.iter().filter(|e| e.message).count();
        b.off_chain(messages - shown);
        let mut sent = std::collections::HashSet::new();
        for i in order {
            let entry = &mut self.entries[i];
            if entry.compaction {
                b.compacted(entry.line);
            }
            // The first line of a reply whose request the file records.
            if let Some(id) = entry.request.take()
                && sent.insert(id.clone())
            {
                self.recorded.replay(&id, b);
            }
            for msg in std::mem::take(&mut entry.msgs) {
                b.push(msg);
            }
        }
    }
}

/// The sub-agents' own files of the session at `path`: Claude Code 2.1
/// writes them in `<session>/subagents/agent-<id>.jsonl`, earlier versions
/// beside the session as `agent-<id>.jsonl` (those of this session name
/// its id, the file's stem, as their `sessionId`). In name order.
pub fn subagent_files(path: &Path) -> Vec<PathBuf> {
    let (Some(dir), Some(stem)) = (path.parent(), path.file_stem().and_then(|s| s.to_str())) else {
        return Vec::new();
    };
    let agents = |dir: &Path| -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("agent-") && n.ends_with(".jsonl"))
                    && p.as_path() != path
            })
            .collect();
        files.sort();
        files
    };
    let mut files = agents(&dir.join(stem).join("subagents"));
    let session = format!("\"sessionId\":\"{stem}\"");
    files.extend(agents(dir).into_iter().filter(|p| {
        std::fs::File::open(p).is_ok_and(|f| {
            let mut first = String::new();
            std::io::BufRead::read_line(&mut std::io::BufReader::new(f), &mut first).is_ok()
                && first.replace(' ', "").contains(&session)
        })
    }));
    files
}

/// A user message's text with Claude Code's own parts apart: a whole
/// message the harness wrote (`harness`), and `<system-reminder>` blocks
/// it puts into the user's turn, are context, not the user's words.
fn harness_apart(msg: Msg, harness: bool) -> Vec<Msg> {
    let Msg::User { text, line } = msg else {
        return vec![msg];
    };
    if harness {
        return vec![Msg::Context { text, line }];
    }
    let reminders: Vec<&str> = REMINDER.find_iter(&text).map(|m| m.as_str()).collect();
    if reminders.is_empty() {
        return vec![Msg::User { text, line }];
    }
    let own = REMINDER.replace_all(&text, "").trim().to_string();
    let mut out = vec![Msg::Context {
        text: reminders.join("\n"),
        line,
    }];
    if !own.is_empty() {
        out.push(Msg::User { text: own, line });
    }
    out
}

/// A user message Claude Code writes when a background task it ran ends
/// (`<task-notification>…`, queued and sent in the user's turn).
fn notification(content: Option<&Value>) -> bool {
    let text = match content {
        Some(Value::String(text)) => Some(text.as_str()),
        Some(Value::Array(blocks)) => blocks
            .first()
            .and_then(|b| b.get("text"))
            .and_then(Value::as_str),
        _ => None,
    };
    text.is_some_and(|t| t.trim_start().starts_with("<task-notification>"))
}

/// A `<system-reminder>` block Claude Code adds to a user message.
static REMINDER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?s)<system-reminder>.*?</system-reminder>").expect("a valid regex")
});
