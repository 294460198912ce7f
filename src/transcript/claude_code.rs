//! Claude Code session JSONL (`~/.claude/projects/<dir>/<uuid>.jsonl`).
//! Not officially documented: read tolerantly. Lines of `type` user or
//! assistant carry `uuid` / `parentUuid` and a `message` in the Anthropic
//! Messages shape (content blocks `tool_use` / `tool_result`, `is_error`).
//! The conversation is the `parentUuid` chain that ends at the last
//! message, not the file order: side chains and abandoned branches are
//! left out (and counted).

use std::collections::HashMap;

use serde_json::Value;

use super::anthropic;
use super::builder::{Builder, Msg};
use super::jsonl::Lines;
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
    let mut next = Some(first);
    while let Some((line, v)) = next {
        let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
        let uuid = v.get("uuid").and_then(Value::as_str);
        let parent = v
            .get("parentUuid")
            .and_then(Value::as_str)
            .or_else(|| v.get("logicalParentUuid").and_then(Value::as_str))
            .map(str::to_string);
        let mut entry = Entry {
            parent,
            line,
            msgs: Vec::new(),
            conversation: false,
            message: false,
            compaction: false,
        };
        match kind {
            "user" | "assistant" => {
                let sidechain = v.get("isSidechain").and_then(Value::as_bool) == Some(true);
                let api_error = v.get("isApiErrorMessage").and_then(Value::as_bool) == Some(true);
                if api_error {
                    // Written by Claude Code, not by the model.
                    b.skip("assistant line marked isApiErrorMessage", line);
                } else if let Some(message) = v.get("message") {
                    let tokens = message
                        .pointer("/usage/output_tokens")
                        .and_then(Value::as_u64);
                    let role = message.get("role").and_then(Value::as_str).unwrap_or(kind);
                    let tokens = if role == "assistant" { tokens } else { None };
                    anthropic::blocks_of(message, line, role, tokens, &mut entry.msgs, b);
                    if v.get("isMeta").and_then(Value::as_bool) == Some(true) {
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
                    entry.conversation = !sidechain;
                    entry.message = true;
                }
                entry.compaction = v.get("isCompactSummary").and_then(Value::as_bool) == Some(true);
            }
            "system" => {
                let subtype = v.get("subtype").and_then(Value::as_str);
                entry.compaction = subtype == Some("compact_boundary");
                if !entry.compaction {
                    b.skip(&format!("system/{}", subtype.unwrap_or("?")), line);
                }
            }
            // Part of the session, not of the loop: listed, not drawn.
            k if BOOKKEEPING.contains(&k) => b.skip(k, line),
            "" => b.skip("line without a type", line),
            other => b.skip(other, line),
        }
        if let Some(uuid) = uuid {
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
    for i in chain {
        let entry = &mut entries[i];
        if entry.compaction {
            b.compacted(entry.line);
        }
        for msg in std::mem::take(&mut entry.msgs) {
            b.push(msg);
        }
    }
    Ok(())
}
