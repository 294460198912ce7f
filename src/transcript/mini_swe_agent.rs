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
//!   the one ```` ```bash ```` (or ```` ```mswea_bash_command ````) block of
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
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

use super::builder::{Builder, Msg, text_of};
use super::chat;
use super::format::Format;
use super::reader::{Ask, At, Reader, Score};
use super::shape::{Lenient, Object, Present};
use crate::i18n;
use crate::load::ScenarioError;
use crate::provider::Provider;

/// The action blocks mini-swe-agent's text-based models parse
/// (`` ```bash `` or `` ```mswea_bash_command ``), as its regex reads them.
static ACTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?s)```(?:bash|mswea_bash_command)\s*\n(.*?)\n```").expect("a valid regex")
});

/// `<returncode>N</returncode>` at the start of an observation.
static RETURNCODE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*<returncode>(-?\d+)</returncode>").expect("a valid regex"));

/// What tells a trajectory: its `trajectory_format`, or the `info` only
/// mini-swe-agent writes (`mini_version`, `config.agent_type`). Its
/// `messages` stay JSON values, read as Chat messages.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Trajectory<'a> {
    #[serde(borrow)]
    trajectory_format: Lenient<&'a str>,
    #[serde(borrow)]
    info: Object<Info<'a>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Info<'a> {
    mini_version: Present<IgnoredAny>,
    #[serde(borrow)]
    config: Object<Config<'a>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Config<'a> {
    #[serde(borrow)]
    agent_type: Lenient<&'a str>,
}

/// A message's fields read here: its `role`, whether it carries
/// `tool_calls` (not null), its `content` when that is a text, and v2's
/// `extra` (`returncode`, the parsed `actions`). The content as drawn
/// (a text or a list of parts) stays a JSON value.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Message<'a> {
    #[serde(borrow)]
    role: Lenient<&'a str>,
    tool_calls: Option<IgnoredAny>,
    #[serde(borrow)]
    content: Lenient<&'a str>,
    extra: Object<Extra>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Extra {
    returncode: Lenient<i64>,
    /// Each stays JSON: written as it is when it has no command.
    actions: Lenient<Vec<Value>>,
}

/// A parsed action: its `command` where the key is there (of whatever
/// type), else its `action`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Action<'a> {
    #[serde(borrow)]
    command: Present<Lenient<&'a str>>,
    #[serde(borrow)]
    action: Lenient<&'a str>,
}

/// A `.traj.json`: one JSON document.
pub(crate) const READER: Reader = Reader::new(
    Format::MiniSweAgent,
    i18n::FORMAT_MINI_SWE_AGENT,
    Provider::Chat,
    "A mini-swe-agent trajectory (`.traj.json`): `messages` and `info`; text-based runs name no call (paired by position, said so)",
)
.scored(score)
.document(document);

/// A trajectory, or a bare list of its text-based messages (a run saved
/// as its messages alone), which would read as Chat replies with no calls.
fn score(value: &Value, _ask: &Ask) -> Score {
    match value {
        Value::Object(o) if is_trajectory(o) => 93,
        Value::Array(items) if text_based_list(items) => 70,
        _ => 0,
    }
}

/// Chat-shaped messages with no calls of Chat's own, where an assistant
/// message holds an action block and the user message after it is the
/// agent's observation (`<returncode>…`).
fn text_based_list(items: &[Value]) -> bool {
    fn role(m: &Value) -> Option<&str> {
        m.get("role").and_then(Value::as_str)
    }
    let text = |m: &Value| m.get("content").map(text_of).unwrap_or_default();
    let chat_calls = items
        .iter()
        .any(|m| m.get("tool_calls").is_some() || matches!(role(m), Some("tool") | None));
    !chat_calls
        && items.windows(2).any(|pair| {
            role(&pair[0]) == Some("assistant")
                && ACTION.is_match(&text(&pair[0]))
                && role(&pair[1]) == Some("user")
                && RETURNCODE.is_match(&text(&pair[1]))
        })
}

/// Is this a mini-swe-agent trajectory? Its `trajectory_format`, or the
/// `info` only it writes (`mini_version`, a `minisweagent.` agent type).
pub fn is_trajectory(o: &serde_json::Map<String, Value>) -> bool {
    if !o.get("messages").is_some_and(Value::is_array) {
        return false;
    }
    // Every field is lenient: a map always reads.
    let t = Trajectory::deserialize(o).unwrap_or_default();
    let info = t.info.0.unwrap_or_default();
    t.trajectory_format
        .0
        .is_some_and(|f| f.starts_with("mini-swe-agent"))
        || info.mini_version.there
        || info
            .config
            .0
            .and_then(|c| c.agent_type.0)
            .is_some_and(|t| t.starts_with("minisweagent."))
}

pub fn document(at: At, value: &Value, b: &mut Builder) -> Result<(), ScenarioError> {
    let messages = match value {
        Value::Array(messages) => messages,
        _ => value
            .get("messages")
            .and_then(Value::as_array)
            .ok_or_else(|| at.error("expected \"messages\", a list of messages"))?,
    };
    let tool_calling = messages
        .iter()
        .map(Object::<Message>::of)
        .any(|m| m.tool_calls.is_some() || m.role.0 == Some("tool"));
    if tool_calling {
        for mut msg in chat::messages(at, messages, b)? {
            // Chat has no error flag; mini-swe-agent records the exit code.
            if let Msg::Tool { is_error, line, .. } = &mut msg {
                *is_error = messages
                    .get(*line - 1)
                    .and_then(|m| returncode(&Object::<Message>::of(m)))
                    .is_some_and(|c| c != 0);
            }
            // v2 writes what stopped a step as a user message of its own,
            // `extra.interrupt_type` naming why (a reply with no tool call
            // is a FormatError): the harness's words, not the user's.
            let interrupt = |line: usize| {
                (messages.get(line - 1))
                    .is_some_and(|m| m.pointer("/extra/interrupt_type").is_some())
            };
            b.push(match msg {
                Msg::User { text, line } if interrupt(line) => Msg::Context { text, line },
                msg => msg,
            });
        }
    } else {
        chat::by_position(at.path, &TEXT_RUN, messages, b)?;
    }
    for key in ["info", "trajectory_format", "instance_id"] {
        if value.get(key).is_some() {
            b.skip_key(key);
        }
    }
    Ok(())
}

/// mini-swe-agent's text-based runs: a reply runs its one action block
/// (or v2's one parsed action) as `bash`; an observation with a non-zero
/// exit code failed.
const TEXT_RUN: chat::TextRun = chat::TextRun {
    list: "messages",
    call: |m, text| match actions(&Object::<Message>::of(m), text).as_slice() {
        [command] => Some((
            "bash".into(),
            vec![("command".to_string(), command.clone())].into(),
        )),
        _ => None,
    },
    failed: |m| returncode(&Object::<Message>::of(m)).is_some_and(|c| c != 0),
    harness: |_| false,
    unread: |_| None,
    note: crate::i18n::MINI_SWE_AGENT_NO_IDS,
};

/// An observation's exit code: v2's `extra.returncode`, else the
/// `<returncode>` its text starts with.
fn returncode(m: &Message) -> Option<i64> {
    m.extra.0.as_ref().and_then(|e| e.returncode.0).or_else(|| {
        let text = m.content.0?;
        RETURNCODE.captures(text)?[1].parse().ok()
    })
}

/// The commands of a text-based reply: v2's parsed `extra.actions`, else
/// the action blocks of its text.
fn actions(m: &Message, text: &str) -> Vec<String> {
    if let Some(list) = m.extra.0.as_ref().and_then(|e| e.actions.0.as_ref()) {
        return list
            .iter()
            .map(|a| {
                let action = Object::<Action>::of(a);
                let command = if action.command.there {
                    action.command.value.0
                } else {
                    action.action.0
                };
                command.map_or_else(|| a.to_string(), str::to_string)
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
        assert_eq!(actions(&Message::default(), one), ["ls -la"]);
        let two = "```bash\nls\n```\nand\n```bash\npwd\n```";
        assert_eq!(actions(&Message::default(), two).len(), 2);
        let v2 = "```mswea_bash_command\necho hi\n```";
        assert_eq!(actions(&Message::default(), v2), ["echo hi"]);
        assert!(actions(&Message::default(), "no block here").is_empty());
        let parsed = serde_json::json!({"extra": {"actions": [{"command": "cat a"}]}});
        assert_eq!(actions(&Object::<Message>::of(&parsed), ""), ["cat a"]);
        assert_eq!(
            RETURNCODE
                .captures("<returncode>2</returncode>\n<output>")
                .map(|c| c[1].to_string()),
            Some("2".into())
        );
    }
}
