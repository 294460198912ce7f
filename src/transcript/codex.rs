//! Codex CLI rollout JSONL (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`):
//! lines `{timestamp, type, payload}` as `RolloutItem` in openai/codex
//! (codex-rs/protocol): `session_meta`, `turn_context`, `response_item`
//! (the Responses items: messages, reasoning, `function_call` /
//! `function_call_output`, `custom_tool_call` / `custom_tool_call_output`,
//! `local_shell_call`, …), `event_msg` and `compacted`.

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

use super::builder::{Builder, Msg, text_of};
use super::format::Format;
use super::jsonl::Lines;
use super::reader::{Ask, Reader, Score};
use super::responses::{self, harness_written};
use super::shape::{Lenient, Object, Present, Usage};
use crate::i18n;
use crate::load::ScenarioError;
use crate::provider::Provider;

/// Codex CLI rollouts: JSON lines only, told by their first line.
pub(crate) const READER: Reader = Reader::new(
    Format::Codex,
    i18n::FORMAT_CODEX,
    Provider::Responses,
    "Codex CLI rollout JSONL (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl)",
)
.scored(score)
.lines(read);

/// A rollout's first line: `{timestamp, type, payload}`, or from before
/// the `payload` lines `{id, timestamp, instructions}` or a
/// `{"record_type": "state"}` marker.
fn score(value: &Value, ask: &Ask) -> Score {
    let Some(o) = ask.first_line(value) else {
        return 0;
    };
    let kind = o.get("type").and_then(Value::as_str);
    let current = o.contains_key("payload") && kind.is_some() && o.contains_key("timestamp");
    let legacy_header = kind.is_none() && o.contains_key("id") && o.contains_key("timestamp");
    if current || legacy_header || o.contains_key("record_type") {
        150
    } else {
        0
    }
}

pub fn read(_path: &str, lines: &mut Lines, b: &mut Builder) -> Result<(), ScenarioError> {
    lines.each(|line, value| {
        one(line, &value, b);
        Ok(())
    })
}

/// A rollout line: `{timestamp, type, payload}`; the `payload` stays a
/// JSON value, read as its `type` says. A line without a payload is of
/// the older rollouts (`legacy`): its `record_type`, or the first line's
/// `id`, `timestamp` and `instructions`, or a bare response item.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Line<'a> {
    #[serde(rename = "type", borrow)]
    kind: Lenient<&'a str>,
    /// Shown as written, JSON (`record_type "state"`).
    record_type: Present<Value>,
    id: Present<IgnoredAny>,
    timestamp: Present<IgnoredAny>,
    #[serde(borrow)]
    instructions: Lenient<&'a str>,
}

/// A `session_meta` payload's instructions: `instructions` where the key
/// is there (of whatever type), else `base_instructions.text`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct SessionMeta<'a> {
    #[serde(borrow)]
    instructions: Present<Lenient<&'a str>>,
    #[serde(borrow)]
    base_instructions: Object<Instructions<'a>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Instructions<'a> {
    #[serde(borrow)]
    text: Lenient<&'a str>,
}

/// A `turn_context` payload's instructions, sent to the model.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct TurnContext<'a> {
    #[serde(borrow)]
    base_instructions: Lenient<&'a str>,
    #[serde(borrow)]
    developer_instructions: Lenient<&'a str>,
    #[serde(borrow)]
    collaboration_mode: Object<CollaborationMode<'a>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct CollaborationMode<'a> {
    #[serde(borrow)]
    settings: Object<Settings<'a>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Settings<'a> {
    #[serde(borrow)]
    developer_instructions: Lenient<&'a str>,
}

/// An `event_msg` payload: its `type`, and the fields of the events read
/// here (`turn_aborted`'s reason, `exec_command_end`'s call and exit
/// code, `token_count`'s last usage).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Event<'a> {
    #[serde(rename = "type", borrow)]
    kind: Lenient<&'a str>,
    #[serde(borrow)]
    reason: Lenient<&'a str>,
    #[serde(borrow)]
    call_id: Lenient<&'a str>,
    exit_code: Lenient<i64>,
    info: Object<TokenInfo>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct TokenInfo {
    /// There, even null: a count of no tokens known.
    last_token_usage: Present<Object<Usage>>,
}

fn one(line: usize, v: &Value, b: &mut Builder) {
    let l = Object::<Line>::of(v);
    let kind = l.kind.0.unwrap_or("");
    let Some(payload) = v.get("payload") else {
        return legacy(line, l, kind, v, b);
    };
    match kind {
        "session_meta" => {
            let meta = Object::<SessionMeta>::of(payload);
            let instructions = if meta.instructions.there {
                meta.instructions.value.0
            } else {
                meta.base_instructions.0.and_then(|i| i.text.0)
            };
            if let Some(text) = instructions {
                b.system(text);
            }
        }
        // The turn's settings (model, cwd, policies): not a step; the
        // instructions it carries are sent to the model.
        "turn_context" => {
            let turn = Object::<TurnContext>::of(payload);
            let collaboration = turn
                .collaboration_mode
                .0
                .and_then(|c| c.settings.0)
                .and_then(|s| s.developer_instructions.0);
            for text in [
                turn.base_instructions.0,
                turn.developer_instructions.0,
                collaboration,
            ]
            .into_iter()
            .flatten()
            {
                b.system(text);
            }
        }
        "response_item" => {
            if let Some(msg) = responses::item(payload, line, None, b) {
                b.push(harness_written(exit_code(msg)));
            }
        }
        "event_msg" => {
            // Most events repeat the response items for the UI; the token
            // counts are the ones the items do not hold.
            let event = Object::<Event>::of(payload);
            let kind = event.kind.0;
            if kind == Some("turn_aborted") {
                b.aborted(line, event.reason.0.unwrap_or("no reason given"));
            }
            // The shell's exit code, whatever the output's text says.
            if kind == Some("exec_command_end")
                && let (Some(id), Some(code)) = (event.call_id.0, event.exit_code.0)
            {
                b.exit_code(id, code);
            }
            if kind == Some("token_count")
                && let Some(info) = event.info.0
                && info.last_token_usage.there
            {
                let usage = info.last_token_usage.value.0.unwrap_or_default();
                b.tokens(usage.input_tokens.0, usage.output_tokens.0);
            }
            // The rest repeat the items for the UI, or are not part of
            // the loop: listed by type, not drawn.
            if !matches!(
                kind,
                Some("turn_aborted" | "token_count" | "exec_command_end")
            ) {
                b.skip(&format!("event_msg/{}", kind.unwrap_or("?")), line);
            }
        }
        "compacted" => match payload.get("replacement_history").and_then(Value::as_array) {
            Some(items) => {
                let chars = items
                    .iter()
                    .flat_map(|i| ["content", "output", "arguments"].map(|k| i.get(k)))
                    .map(|v| v.map_or(0, |v| text_of(v).chars().count()))
                    .sum();
                // The context from here: that history, item by item. A
                // `compaction` item in it (the summary the Responses API's
                // compaction returns) is this same compaction, not another.
                let history = items
                    .iter()
                    .filter(|i| {
                        let kind = i.get("type").and_then(Value::as_str);
                        !matches!(kind, Some("compaction" | "compaction_summary"))
                    })
                    .filter_map(|i| responses::item(i, line, None, b))
                    .map(exit_code)
                    .collect();
                b.compacted_to(line, items.len(), chars, history);
            }
            None => b.compacted(line),
        },
        "" => b.skip("line without a type", line),
        other => b.skip(other, line),
    }
}

/// Rollouts written before the `{timestamp, type, payload}` lines (2025):
/// a first line `{id, timestamp, instructions}`, then bare response items
/// and `{"record_type": "state"}` markers.
fn legacy(line: usize, l: Line, kind: &str, v: &Value, b: &mut Builder) {
    if l.record_type.there {
        return b.skip(&format!("record_type {}", l.record_type.value), line);
    }
    if kind.is_empty() && l.id.there && l.timestamp.there {
        if let Some(text) = l.instructions.0 {
            b.system(text);
        }
        return;
    }
    if kind.is_empty() {
        return b.skip("line without a type", line);
    }
    if let Some(msg) = responses::item(v, line, None, b) {
        b.push(harness_written(exit_code(msg)));
    }
}

/// An older shell output, as JSON: `{"output": …, "metadata": {"exit_code": N}}`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ShellOutput<'a> {
    #[serde(borrow)]
    output: Lenient<&'a str>,
    metadata: Object<Metadata>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Metadata {
    exit_code: Lenient<i64>,
}

/// The exit code and the output of a shell output written as such JSON.
fn shell_output(text: &str) -> Option<(i64, Option<String>)> {
    let json = serde_json::from_str::<Value>(text)
        .ok()
        .filter(Value::is_object)?;
    let out = Object::<ShellOutput>::of(&json);
    let code = out.metadata.0?.exit_code.0?;
    Some((code, out.output.0.map(str::to_string)))
}

/// A shell call's output records its exit code: as JSON
/// `{"output": …, "metadata": {"exit_code": N}}` in older rollouts, or in
/// the lines before `Output:`, as `Exit code: N` (the shell tool) or
/// `Process exited with code N` (unified exec). Non-zero is an error
/// result (so is a non-zero `exec_command_end.exit_code`, `Builder::exit_code`).
fn exit_code(msg: Msg) -> Msg {
    let Msg::Tool {
        call_id,
        text,
        is_error,
        line,
    } = msg
    else {
        return msg;
    };
    if let Some((code, output)) = shell_output(&text) {
        let text = output.unwrap_or_else(|| text.clone());
        return Msg::Tool {
            call_id,
            text,
            is_error: is_error || code != 0,
            line,
        };
    }
    let code = text
        .lines()
        .take(8)
        .take_while(|l| l.trim_end() != "Output:")
        .find_map(|l| {
            l.strip_prefix("Exit code: ")
                .or_else(|| l.strip_prefix("Process exited with code "))
        })
        .and_then(|c| c.trim().parse::<i64>().ok());
    Msg::Tool {
        call_id,
        is_error: is_error || code.is_some_and(|c| c != 0),
        text,
        line,
    }
}
