//! Codex CLI rollout JSONL (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`):
//! lines `{timestamp, type, payload}` as `RolloutItem` in openai/codex
//! (codex-rs/protocol): `session_meta`, `turn_context`, `response_item`
//! (the Responses items: messages, reasoning, `function_call` /
//! `function_call_output`, `custom_tool_call` / `custom_tool_call_output`,
//! `local_shell_call`, …), `event_msg` and `compacted`.

use serde_json::Value;

use super::builder::{Builder, Msg, text_of};
use super::jsonl::Lines;
use super::responses::{self, harness_written};
use crate::load::ScenarioError;

pub fn read(
    _path: &str,
    first: (usize, Value),
    lines: &mut Lines,
    b: &mut Builder,
) -> Result<(), ScenarioError> {
    let mut next = Some(first);
    while let Some((line, value)) = next {
        one(line, &value, b);
        next = lines.next_value()?;
    }
    Ok(())
}

fn one(line: usize, v: &Value, b: &mut Builder) {
    let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
    let Some(payload) = v.get("payload") else {
        return legacy(line, v, kind, b);
    };
    match kind {
        "session_meta" => {
            let instructions = payload
                .get("instructions")
                .or_else(|| payload.pointer("/base_instructions/text"))
                .and_then(Value::as_str);
            if let Some(text) = instructions {
                b.system(text);
            }
        }
        // The turn's settings (model, cwd, policies): not a step; the
        // instructions it carries are sent to the model.
        "turn_context" => {
            for key in [
                "/base_instructions",
                "/developer_instructions",
                "/collaboration_mode/settings/developer_instructions",
            ] {
                if let Some(text) = payload.pointer(key).and_then(Value::as_str) {
                    b.system(text);
                }
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
            let kind = payload.get("type").and_then(Value::as_str);
            if kind == Some("turn_aborted") {
                let reason = payload
                    .get("reason")
                    .and_then(Value::as_str)
                    .unwrap_or("no reason given");
                b.aborted(line, reason);
            }
            // The shell's exit code, whatever the output's text says.
            if kind == Some("exec_command_end")
                && let (Some(id), Some(code)) = (
                    payload.get("call_id").and_then(Value::as_str),
                    payload.get("exit_code").and_then(Value::as_i64),
                )
            {
                b.exit_code(id, code);
            }
            if kind == Some("token_count") {
                let usage = payload.pointer("/info/last_token_usage");
                let tokens = |k: &str| usage.and_then(|u| u.get(k)).and_then(Value::as_u64);
                if usage.is_some() {
                    b.tokens(tokens("input_tokens"), tokens("output_tokens"));
                }
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
                // The context from here: that history, item by item.
                let history = items
                    .iter()
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
fn legacy(line: usize, v: &Value, kind: &str, b: &mut Builder) {
    if let Some(kind) = v.get("record_type") {
        return b.skip(&format!("record_type {kind}"), line);
    }
    if kind.is_empty() && v.get("id").is_some() && v.get("timestamp").is_some() {
        if let Some(text) = v.get("instructions").and_then(Value::as_str) {
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
    if let Ok(Value::Object(o)) = serde_json::from_str::<Value>(&text)
        && let Some(code) = o
            .get("metadata")
            .and_then(|m| m.get("exit_code"))
            .and_then(Value::as_i64)
    {
        let text = o
            .get("output")
            .and_then(Value::as_str)
            .map_or(text.clone(), str::to_string);
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
