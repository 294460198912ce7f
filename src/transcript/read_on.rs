//! Tests: a tap's request read on from where the one before it ended
//! (`Builder::repeated`) reads as the request read whole.

use serde_json::{Value, json};

use super::builder::Builder;
use super::split::{Place, Placed, Splitter};
use super::{detect_document, request_line};
use crate::scenario::Lang;

/// A tap line of an Anthropic call with tools: `messages`, then a reply
/// of one text.
fn said(messages: Value, reply: &str) -> Value {
    json!({"provider": "anthropic", "path": "/v1/messages", "status": 200,
           "request": {"model": "m", "messages": messages, "tools": [{"name": "Read"}]},
           "response": {"type": "message", "content": [{"type": "text", "text": reply}]}})
}

/// A line as a client may send it the next time: a text content
/// written as one block or as its string, by turns (`turn`), and
/// Anthropic's cache mark on the newest message only.
fn as_resent(mut line: Value, turn: usize) -> Value {
    let anthropic = line.pointer("/request/system").is_some();
    let Some(Value::Array(messages)) = line.pointer_mut("/request/messages") else {
        return line;
    };
    let newest = messages.len().saturating_sub(1);
    for (i, m) in messages.iter_mut().enumerate() {
        let Some(content) = m.get_mut("content") else {
            continue;
        };
        if (i + turn).is_multiple_of(2)
            && let Value::String(text) = content
        {
            *content = json!([{"type": "text", "text": text.clone()}]);
        }
        if let Value::Array(blocks) = content {
            for block in blocks.iter_mut() {
                if let Some(Value::String(text)) = block.get("content").cloned()
                    && (i + turn) % 2 == 1
                {
                    block["content"] = json!([{"type": "text", "text": text}]);
                }
            }
            if anthropic
                && i == newest
                && let Some(Value::Object(last)) = blocks.last_mut()
            {
                last.insert("cache_control".into(), json!({"type": "ephemeral"}));
            }
        }
    }
    line
}

/// One conversation's lines read in order, each request read on from
/// where the one before ended (`on`) or whole; how many were, and how
/// many repeat the one before in an API whose history is a `messages`
/// list (Chat, Anthropic: read by `exchange::read_messages`).
fn read(lines: &[&Placed], on: bool) -> (String, Vec<String>, usize, usize) {
    let mut b = Builder::new("run.jsonl");
    let mut format = None;
    let (mut gone_on, mut repeating) = (0, 0);
    for p in lines {
        let f = detect_document(&p.value).unwrap();
        if on {
            let repeats = p.repeats > 0 && f.provider() != crate::wire::Provider::Responses;
            // Read on, the messages it repeats are not read: made
            // unreadable (no role), the request still reads.
            let mut probe = b.clone();
            probe.repeats(p.repeats);
            let blanked = unreadable(&p.value, p.repeats);
            let read = request_line("run.jsonl", &blanked, p.line, Some(f), &mut probe);
            repeating += usize::from(repeats);
            gone_on += usize::from(repeats && read.is_ok());
            b.repeats(p.repeats);
        }
        request_line("run.jsonl", &p.value, p.line, Some(f), &mut b).unwrap();
        b.repeats(0);
        format.get_or_insert(f);
    }
    let warnings = b.warnings("run.jsonl");
    let loaded = b.finish(format.unwrap(), "run.jsonl").unwrap();
    (format!("{:?}", loaded.traces), warnings, gone_on, repeating)
}

/// A line with its request's first `n` messages made unreadable.
fn unreadable(line: &Value, n: usize) -> Value {
    let mut line = line.clone();
    if let Some(Value::Array(messages)) = line.pointer_mut("/request/messages") {
        messages.iter_mut().take(n).for_each(|m| *m = Value::Null);
    }
    line
}

/// Every lesson's requests in every provider, as clients resend them
/// (`as_resent`), and the real CLIs' recordings.
fn sent_runs() -> Vec<(String, Vec<Value>)> {
    use crate::load::{CATALOG, load_as};
    let mut runs: Vec<(String, Vec<Value>)> = Vec::new();
    for (name, _) in CATALOG {
        for provider in crate::wire::Provider::ALL {
            let Ok(loaded) = load_as(name, Some(provider)) else {
                continue;
            };
            let mut out = Vec::new();
            crate::wire::write_requests(loaded.trace(Lang::En), &mut out).unwrap();
            let lines = String::from_utf8(out).unwrap();
            let lines = lines.lines().enumerate();
            let lines = lines.map(|(i, l)| as_resent(serde_json::from_str(l).unwrap(), i));
            runs.push((format!("{name} {provider:?}"), lines.collect()));
        }
    }
    for file in ["claude-code.tap.jsonl", "codex.tap.jsonl"] {
        let root = env!("CARGO_MANIFEST_DIR");
        let text = std::fs::read_to_string(format!("{root}/tests/transcripts/real/cli/{file}"));
        let lines = text
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        runs.push((file.to_string(), lines));
    }
    runs
}

/// Requests of shapes the lessons do not send.
fn odd_runs() -> Vec<(String, Vec<Value>)> {
    let mut runs: Vec<(String, Vec<Value>)> = Vec::new();
    // A harness that left a reply out of the history it sends (the
    // request is not the history; the next is read whole), and a reply
    // the model went on from (Anthropic's prefill: the next request's
    // two assistant messages are one reply).
    let user = |t: &str| json!({"role": "user", "content": t});
    let model = |t: &str| json!({"role": "assistant", "content": t});
    runs.push((
        "a reply left out".into(),
        vec![
            said(json!([user("one")]), "first"),
            said(json!([user("one"), user("two")]), "second"),
            said(
                json!([user("one"), user("two"), model("second"), user("3")]),
                "third",
            ),
        ],
    ));
    runs.push((
        "a reply gone on from".into(),
        vec![
            said(json!([user("one"), model("Let me")]), "see"),
            said(
                json!([user("one"), model("Let me"), model("see"), user("2")]),
                "done",
            ),
        ],
    ));
    // A result sent twice after a call cut short (the second is the
    // first again), and a block of a type not drawn (left unread, and
    // said so for each request that sends it).
    let call = json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "Read", "input": {}}]});
    let result = json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "x"}]});
    let mut asked = said(json!([user("one")]), "");
    asked["response"]["content"] = call["content"].clone();
    let mut cut = said(json!([user("one"), call, result]), "");
    cut["response"] = Value::Null;
    runs.push((
        "a result sent twice".into(),
        vec![
            asked,
            cut,
            said(json!([user("one"), call, result, result]), "two"),
            said(
                json!([user("one"), call, result, result, model("two"), user("3")]),
                "done",
            ),
        ],
    ));
    let odd =
        json!({"role": "user", "content": [{"type": "text", "text": "one"}, {"type": "widget"}]});
    runs.push((
        "a block not drawn".into(),
        vec![
            said(json!([odd]), "first"),
            said(json!([odd, model("first"), user("2")]), "done"),
        ],
    ));
    runs
}

#[test]
fn a_request_read_on_from_the_last_reads_as_one_read_whole() {
    let mut runs = sent_runs();
    runs.extend(odd_runs());
    let (mut repeating, mut gone_on) = (0, 0);
    for (name, lines) in runs {
        let mut s = Splitter::default();
        let mut placed = Vec::new();
        for (i, line) in lines.into_iter().enumerate() {
            placed.extend(s.feed(i + 1, line.into()));
        }
        placed.extend(s.finish());
        for k in 0..s.conversations.len() {
            let lines: Vec<&Placed> = placed
                .iter()
                .filter(|p| p.place == Place::Conversation(k))
                .collect();
            let (whole, whole_warnings, ..) = read(&lines, false);
            let (on, on_warnings, n, of) = read(&lines, true);
            assert!(whole == on, "{name} #{k}: read on, not as read whole");
            assert_eq!(whole_warnings, on_warnings, "{name} #{k}");
            gone_on += n;
            repeating += of;
        }
    }
    // A request that repeats the one before is read on from it, but
    // where the one before was not read whole and in order (a harness
    // that dropped a call, and so changed the history it sends).
    assert!(gone_on * 10 > repeating * 9, "{gone_on} of {repeating}");
}
