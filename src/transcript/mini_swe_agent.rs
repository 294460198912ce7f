//! mini-swe-agent trajectories (`.traj.json`, one JSON document):
//! `{info, messages, trajectory_format}`. `messages` is the conversation as
//! the agent sent it (Chat Completions messages); `info` holds the config,
//! the cost and the exit status (not drawn, listed as not drawn).
//!
//! Two kinds of run, told apart by the messages themselves:
//!
//! - **tool calling** (v2's default): assistant messages carry `tool_calls`
//!   and each observation is a `role: "tool"` message with its
//!   `tool_call_id`, so calls pair by the file's ids, as in Chat;
//! - **text-based** (every v1 run, v2's `litellm_textbased`): the command is
//!   the one ```` ```bash ```` (v2: ```` ```mswea_bash_command ````) block of
//!   the assistant's text, or v2's `extra.actions`; the agent runs it only if
//!   there is exactly one, and appends its output as the next `user`
//!   message (`<returncode>N</returncode><output>…`). The file names no
//!   call: the pairing is the agent's rule, by position, and the ids drawn
//!   (`messages[N]`, the place of the assistant message) are ours, which a
//!   note says on screen. A reply with no single block is answered by the
//!   harness's format error, a `user` message that is context, not a result.
//!
//! The final `exit` message of v2 (exit status and submission) is listed as
//! not drawn.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::builder::{Builder, CallSpec, Msg, text_of};
use super::chat;
use super::errors::at_line;
use crate::load::ScenarioError;

/// The action blocks mini-swe-agent's text-based models parse (v1's
/// `` ```bash ``, v2's `` ```mswea_bash_command ``), as its regex reads them.
static ACTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?s)```(?:bash|mswea_bash_command)\s*\n(.*?)\n```").expect("a valid regex")
});

/// `<returncode>N</returncode>` at the start of an observation.
static RETURNCODE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*<returncode>(-?\d+)</returncode>").expect("a valid regex"));

/// Is this a mini-swe-agent trajectory? Its `trajectory_format`, or the
/// `info` only it writes (`mini_version`, a `minisweagent.` agent type).
pub fn is_trajectory(o: &serde_json::Map<String, Value>) -> bool {
    if !o.get("messages").is_some_and(Value::is_array) {
        return false;
    }
    let format = o.get("trajectory_format").and_then(Value::as_str);
    let info = o.get("info");
    format.is_some_and(|f| f.starts_with("mini-swe-agent"))
        || info.and_then(|i| i.get("mini_version")).is_some()
        || info
            .and_then(|i| i.pointer("/config/agent_type"))
            .and_then(Value::as_str)
            .is_some_and(|t| t.starts_with("minisweagent."))
}

pub fn document(path: &str, value: &Value, b: &mut Builder) -> Result<(), ScenarioError> {
    let messages = value
        .get("messages")
        .and_then(Value::as_array)
        .ok_or_else(|| at_line(path, 1, "expected \"messages\", a list of messages"))?;
    let tool_calling = messages
        .iter()
        .any(|m| m.get("tool_calls").is_some_and(|c| !c.is_null()) || role(m) == Some("tool"));
    if tool_calling {
        for mut msg in chat::messages(path, messages, 1, true, b)? {
            // Chat has no error flag; mini-swe-agent records the exit code.
            if let Msg::Tool { is_error, line, .. } = &mut msg {
                *is_error = messages
                    .get(*line - 1)
                    .and_then(returncode)
                    .is_some_and(|c| c != 0);
            }
            b.push(msg);
        }
    } else {
        b.pairing = Some(super::format::PairRule::Position);
        text_based(path, messages, b)?;
    }
    for key in ["info", "trajectory_format", "instance_id"] {
        if value.get(key).is_some() {
            b.skip(&format!("key {key:?}"), 1);
        }
    }
    Ok(())
}

fn role(m: &Value) -> Option<&str> {
    m.get("role").and_then(Value::as_str)
}

fn text_based(path: &str, messages: &[Value], b: &mut Builder) -> Result<(), ScenarioError> {
    // The call the next user message answers: its id.
    let mut pending: Option<String> = None;
    let mut task_seen = false;
    let mut calls = 0;
    for (i, m) in messages.iter().enumerate() {
        let at = i + 1;
        let text = m.get("content").map(text_of).unwrap_or_default();
        match role(m) {
            Some("system") => b.system(&text),
            Some("assistant") => {
                // An unanswered call stays unanswered: a reply came first.
                pending = None;
                let commands = actions(m, &text);
                let mut spec = Vec::new();
                if let [command] = commands.as_slice() {
                    let id = format!("messages[{i}]");
                    spec.push(CallSpec {
                        id: id.clone(),
                        name: "bash".into(),
                        args: vec![("command".to_string(), command.clone())].into(),
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
                    is_error: returncode(m).is_some_and(|c| c != 0),
                    line: at,
                }),
                // The task, then what the harness writes (a format error,
                // a limit reached, a new instruction in interactive mode).
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
                        "messages[{i}]: expected a message with a \"role\" (system, user or assistant)"
                    ),
                ));
            }
        }
    }
    if calls > 0 {
        b.note(super::text::fixed(crate::i18n::MINI_SWE_AGENT_NO_IDS));
    }
    Ok(())
}

/// An observation's exit code: v2's `extra.returncode`, else the
/// `<returncode>` its text starts with.
fn returncode(m: &Value) -> Option<i64> {
    m.pointer("/extra/returncode")
        .and_then(Value::as_i64)
        .or_else(|| {
            let text = m.get("content")?.as_str()?;
            RETURNCODE.captures(text)?[1].parse().ok()
        })
}

/// The commands of a text-based reply: v2's parsed `extra.actions`, else
/// the action blocks of its text.
fn actions(m: &Value, text: &str) -> Vec<String> {
    if let Some(list) = m.pointer("/extra/actions").and_then(Value::as_array) {
        return list
            .iter()
            .map(|a| {
                a.get("command")
                    .or_else(|| a.get("action"))
                    .and_then(Value::as_str)
                    .map_or_else(|| a.to_string(), str::to_string)
            })
            .collect();
    }
    ACTION
        .captures_iter(text)
        .map(|c| c[1].trim().to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_runs_only_with_exactly_one_action_block() {
        let one = "THOUGHT: look\n\n```bash\nls -la\n```";
        assert_eq!(actions(&Value::Null, one), ["ls -la"]);
        let two = "```bash\nls\n```\nand\n```bash\npwd\n```";
        assert_eq!(actions(&Value::Null, two).len(), 2);
        let v2 = "```mswea_bash_command\necho hi\n```";
        assert_eq!(actions(&Value::Null, v2), ["echo hi"]);
        assert!(actions(&Value::Null, "no block here").is_empty());
        let parsed = serde_json::json!({"extra": {"actions": [{"command": "cat a"}]}});
        assert_eq!(actions(&parsed, ""), ["cat a"]);
        assert_eq!(
            RETURNCODE
                .captures("<returncode>2</returncode>\n<output>")
                .map(|c| c[1].to_string()),
            Some("2".into())
        );
    }
}
