//! A tap recording holds more than one loop: side requests (token counting,
//! a title or a summary asked of the model without tools) and the calls of
//! several conversations (a sub-agent's loop runs beside the main one).
//! This sorts its lines, in order, into conversations and side requests,
//! before any of them reaches the builder.
//!
//! A line belongs to a conversation when its messages continue that
//! conversation's latest request: every message of that request comes first
//! in this one, as sent (Anthropic's `cache_control` marks aside, which
//! clients move to the newest message on every call). A line that continues
//! none starts a new conversation: a sub-agent, or a history the agent
//! rewrote (compacted). Side requests are the tap's `count_tokens`, and the
//! requests without tools once a request with tools has been seen; until
//! then, a request without tools waits, and a recording with no tools at
//! all is a plain conversation.

use serde::Deserialize;
use serde::de::IgnoredAny;
use std::sync::Arc;

use serde_json::Value;

use super::shape::{Lenient, Object, Present};
use crate::i18n;
use crate::scenario::Lang;

/// A line sorted: its number, its value, where it goes, and how many
/// first messages of its request the conversation's previous request sent
/// (marks aside; 0 for a request that starts a conversation or is a side
/// request): read before, they need not be read again.
#[derive(Debug)]
pub struct Placed {
    pub line: usize,
    /// Shared: a tap's running calls are read again at each batch, from
    /// the lines it holds, not copies (a long run's request is megabytes).
    pub value: Arc<Value>,
    pub place: Place,
    pub repeats: usize,
}

/// Where a line goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// Conversation `n` (0-based, in the order they started).
    Conversation(usize),
    /// A side request, listed apart.
    Side,
}

/// Is this line a tap recording's (the tap writes `path`)? Only those are
/// sorted: an `export --format requests` file is one lesson's loop, even
/// where its host compacted the history.
pub fn is_tap_line(line: &Value) -> bool {
    let line = Object::<TapLine>::of(line);
    line.request.there && line.path.0.is_some()
}

/// A tap line's fields read here: the request (there, whatever it holds;
/// read as `Request`, its history as JSON values), its `provider`, the
/// tap's `path`, its `side` mark, the response's HTTP `status`. The
/// `response` stays a JSON value, in any of the three shapes.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct TapLine<'a> {
    request: Present<IgnoredAny>,
    #[serde(borrow)]
    provider: Lenient<&'a str>,
    #[serde(borrow)]
    path: Lenient<&'a str>,
    #[serde(borrow)]
    side: Lenient<&'a str>,
    status: Lenient<u64>,
}

/// The model a request names.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Request<'a> {
    #[serde(borrow)]
    model: Lenient<&'a str>,
}

/// A line's request; null when it has none.
fn request_of(line: &Value) -> &Value {
    line.get("request").unwrap_or(&Value::Null)
}

/// A request's model, made safe for a screen.
fn model_of(request: &Request) -> Option<String> {
    request
        .model
        .0
        .map(|m| crate::safe::for_screen(m).into_owned())
}

/// One conversation while the recording is read.
#[derive(Debug, Clone, Default)]
pub struct Conversation {
    /// The API its requests go to (`provider`): a request to another API
    /// never continues it, though its messages may read the same.
    provider: Option<String>,
    /// The messages of its latest request, marks aside, each as its hash
    /// (`unmarked_hash`): kept and compared without copying the history a
    /// request repeats.
    last: Hashes,
    /// Model calls so far.
    pub calls: usize,
    pub model: Option<String>,
}

/// A side request, as the list of them shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Side {
    /// `count_tokens`, or `no_tools`.
    pub kind: &'static str,
    pub model: Option<String>,
    pub status: Option<u64>,
    /// The first text of the answer, if any (a title, a summary).
    pub reply: Option<String>,
    /// 1-based line (or call) number.
    pub line: usize,
}

/// Sorts lines as they are read.
#[derive(Debug, Clone, Default)]
pub struct Splitter {
    pub conversations: Vec<Conversation>,
    pub sides: Vec<Side>,
    /// A request with tools has been seen: a request without them is a
    /// side request from now on.
    tools_seen: bool,
    /// Requests without tools read before any with tools: kept until it is
    /// known which they are.
    held: Vec<(usize, Arc<Value>)>,
}

impl Placed {
    fn side(line: usize, value: Arc<Value>) -> Placed {
        Placed {
            line,
            value,
            place: Place::Side,
            repeats: 0,
        }
    }
}

impl Splitter {
    /// The line `n` (1-based) and where it goes; lines held before it may
    /// come out with it, each with its place, in the order read.
    pub fn feed(&mut self, n: usize, line: Arc<Value>) -> Vec<Placed> {
        self.feed_hashed(n, line, &mut None)
    }

    /// `feed`, with the hashes of the line's messages (`hashes`) where
    /// they were found before, and kept in `hashed` where found now.
    pub fn feed_hashed(
        &mut self,
        n: usize,
        line: Arc<Value>,
        hashed: &mut Option<Hashes>,
    ) -> Vec<Placed> {
        // Its fields read once (a field read leniently is read twice).
        let tap = Object::<TapLine>::of(&line);
        let counting = tap.side.0 == Some("count_tokens");
        let provider = tap.provider.0.map(str::to_string);
        // Read in place: a field read leniently is copied first (a coding
        // agent's tool list is tens of kilobytes).
        let tools = request_of(&line)
            .get("tools")
            .and_then(Value::as_array)
            .is_some_and(|t| !t.is_empty());
        if counting {
            self.side(n, &line, "count_tokens");
            return vec![Placed::side(n, line)];
        }
        if !tools {
            if self.tools_seen {
                self.side(n, &line, "no_tools");
                return vec![Placed::side(n, line)];
            }
            self.held.push((n, line));
            return Vec::new();
        }
        let mut out = Vec::new();
        if !self.tools_seen {
            self.tools_seen = true;
            for (h, held) in std::mem::take(&mut self.held) {
                self.side(h, &held, "no_tools");
                out.push(Placed::side(h, held));
            }
        }
        out.push(self.conversation(n, line, provider, hashed));
        out
    }

    /// The end of the recording: lines still held (a recording without any
    /// request with tools) are one plain conversation, or several.
    pub fn finish(&mut self) -> Vec<Placed> {
        std::mem::take(&mut self.held)
            .into_iter()
            .map(|(n, line)| {
                let provider = Object::<TapLine>::of(&line).provider.0.map(str::to_string);
                self.conversation(n, line, provider, &mut None)
            })
            .collect()
    }

    fn side(&mut self, n: usize, line: &Value, kind: &'static str) {
        self.sides.push(Side {
            kind,
            model: model_of(&Object::<Request>::of(request_of(line))),
            status: Object::<TapLine>::of(line).status.0,
            reply: line.get("response").and_then(first_text),
            line: n,
        });
    }

    /// Line `n` placed in the conversation its request continues (the one
    /// whose latest request it extends furthest, to the same `provider`),
    /// or in a new one.
    fn conversation(
        &mut self,
        n: usize,
        line: Arc<Value>,
        provider: Option<String>,
        hashed: &mut Option<Hashes>,
    ) -> Placed {
        let request = request_of(&line);
        let messages = hashed
            .get_or_insert_with(|| hashes(&line).into_iter().collect())
            .clone();
        let continues = self
            .conversations
            .iter()
            .enumerate()
            .filter(|(_, c)| c.provider == provider && messages.starts_with(&c.last))
            .max_by_key(|(i, c)| (c.last.len(), *i))
            .map(|(i, _)| i);
        let at = continues.unwrap_or_else(|| {
            self.conversations.push(Conversation {
                provider,
                ..Conversation::default()
            });
            self.conversations.len() - 1
        });
        let c = &mut self.conversations[at];
        // All of its latest request's messages come first in this one (a
        // new conversation has none).
        let repeats = c.last.len();
        c.last = messages;
        c.calls += 1;
        if c.model.is_none() {
            c.model = model_of(&Object::<Request>::of(request));
        }
        Placed {
            line: n,
            value: line,
            place: Place::Conversation(at),
            repeats,
        }
    }
}

/// A request's messages, each as its hash (`unmarked_hash`), and with
/// each the hash of all up to it: a list starts with another where the
/// two hash their first messages alike, found without reading them all.
/// Persistent: the next request repeats most of them (a long run's,
/// thousands), and its list shares theirs.
#[derive(Debug, Clone, Default)]
pub struct Hashes(imbl::Vector<(u64, u64)>);

impl Hashes {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn push(&mut self, hash: u64) {
        use std::hash::BuildHasher;
        let before = self.0.back().map_or(0, |&(_, upto)| upto);
        let upto = foldhash::quality::FixedState::with_seed(0).hash_one((before, hash));
        self.0.push_back((hash, upto));
    }

    pub fn truncate(&mut self, len: usize) {
        self.0.truncate(len);
    }

    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.0.iter().map(|&(hash, _)| hash)
    }

    /// Are `first`'s messages the first of these?
    pub fn starts_with(&self, first: &Hashes) -> bool {
        let at = first.len().checked_sub(1);
        let upto = |h: &Hashes, at| h.0.get(at).map(|&(_, upto)| upto);
        first.len() <= self.len() && at.is_none_or(|at| upto(self, at) == upto(first, at))
    }
}

impl Extend<u64> for Hashes {
    fn extend<I: IntoIterator<Item = u64>>(&mut self, hashes: I) {
        hashes.into_iter().for_each(|hash| self.push(hash));
    }
}

impl FromIterator<u64> for Hashes {
    fn from_iter<I: IntoIterator<Item = u64>>(hashes: I) -> Self {
        let mut list = Hashes::default();
        list.extend(hashes);
        list
    }
}

/// The hashes of a line's messages (`unmarked_hash`), as the splitter
/// compares them.
pub(crate) fn hashes(line: &Value) -> Vec<u64> {
    history(request_of(line))
        .iter()
        .map(unmarked_hash)
        .collect()
}

/// A request's history: Chat and Anthropic `messages`, Responses `input`
/// (a string input is one message).
pub(crate) fn history(request: &Value) -> &[Value] {
    match request.get(history_key(request)) {
        Some(Value::Array(items)) => items,
        Some(Value::Null) | None => &[],
        Some(other) => std::slice::from_ref(other),
    }
}

/// The key of a request's history: `messages`, or else `input`.
pub(crate) fn history_key(request: &Value) -> &'static str {
    match request.get("messages") {
        Some(_) => "messages",
        None => "input",
    }
}

/// The hash of a message as `wire::unmarked` makes it (equal messages,
/// marks aside, hash equal), without making it: keys in any order (a JSON
/// object's equality ignores their order), `cache_control` left out, a
/// content of one text block hashed as its string. 64 bits: two different
/// messages of one recording hashing alike is about as likely as 1 in
/// 10^12 for a run of thousands of calls.
pub(crate) fn unmarked_hash(v: &Value) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = hasher();
    match v {
        Value::Object(map) => {
            7u8.hash(&mut h);
            // Each entry hashed alone, summed: the order does not count.
            let mut sum = 0u64;
            for (k, v) in map.iter().filter(|(k, _)| k.as_str() != "cache_control") {
                let mut e = hasher();
                k.hash(&mut e);
                match (k.as_str(), one_text_block(v)) {
                    ("content", Some(text)) => string_hash(text),
                    _ => unmarked_hash(v),
                }
                .hash(&mut e);
                sum = sum.wrapping_add(e.finish());
            }
            sum.hash(&mut h);
        }
        Value::Array(items) => {
            8u8.hash(&mut h);
            items.len().hash(&mut h);
            for item in items {
                unmarked_hash(item).hash(&mut h);
            }
        }
        Value::String(s) => return string_hash(s),
        Value::Number(n) => (4u8, n.to_string()).hash(&mut h),
        Value::Bool(b) => (5u8, b).hash(&mut h),
        Value::Null => 6u8.hash(&mut h),
    }
    h.finish()
}

/// `unmarked_hash` of a string, without making it a `Value` (a tool
/// result's text would be copied to be hashed).
/// A hasher of fixed seed (the same message hashes alike on every line):
/// foldhash's quality one, several times faster than SipHash on the
/// hundreds of thousands of messages a long run's requests repeat.
fn hasher() -> impl std::hash::Hasher {
    use std::hash::BuildHasher;
    foldhash::quality::FixedState::with_seed(0).build_hasher()
}

fn string_hash(s: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = hasher();
    (3u8, s).hash(&mut h);
    h.finish()
}

/// A content of one text block (marks aside): its text.
fn one_text_block(content: &Value) -> Option<&str> {
    let [Value::Object(block)] = content.as_array()?.as_slice() else {
        return None;
    };
    let keys = block
        .keys()
        .filter(|k| k.as_str() != "cache_control")
        .count();
    (keys == 2 && block.get("type").and_then(Value::as_str) == Some("text"))
        .then(|| block.get("text").and_then(Value::as_str))
        .flatten()
}

/// The first text of a response in any of the three shapes, made safe for
/// a screen and cut to one short line.
fn first_text(response: &Value) -> Option<String> {
    let chat = response
        .pointer("/choices/0/message/content")
        .and_then(Value::as_str);
    let anthropic = || {
        response
            .get("content")?
            .as_array()?
            .iter()
            .find_map(|b| b.get("text").and_then(Value::as_str))
    };
    let responses = || {
        response
            .get("output")?
            .as_array()?
            .iter()
            .filter_map(|i| i.get("content").and_then(Value::as_array))
            .flatten()
            .find_map(|c| c.get("text").and_then(Value::as_str))
    };
    let text = chat.or_else(anthropic).or_else(responses)?;
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.is_empty() {
        return None;
    }
    let mut cut: String = line.chars().take(60).collect();
    if cut.len() < line.len() {
        cut.push('…');
    }
    Some(crate::safe::for_screen(&cut).into_owned())
}

/// How a side request's place is named: a line of the file (a replay), or
/// the order the requests began in (the live view).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Places {
    Lines,
    Requests,
}

/// At most this many side requests or conversations are named one by one.
const LISTED: usize = 12;

/// What the about overlay (and the warnings) say of the conversations and
/// side requests, with conversation `shown` (0-based) on screen.
pub fn notes(s: &Splitter, shown: usize, places: Places) -> Vec<[String; Lang::COUNT]> {
    let mut out = Vec::new();
    let model = |m: &Option<String>, lang: Lang| match m {
        Some(m) => m.clone(),
        None => i18n::TAP_NO_MODEL.get(lang).to_string(),
    };
    let n = s.conversations.len();
    if let Some(current) = s.conversations.get(shown).filter(|_| n > 1) {
        out.push(Lang::ALL.map(|lang| {
            let mut others: Vec<String> = s
                .conversations
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != shown)
                .take(LISTED)
                .map(|(i, c)| {
                    i18n::TAP_CONVERSATION_ITEM.fill(
                        lang,
                        &[
                            ("k", &(i + 1)),
                            ("calls", &c.calls),
                            ("model", &model(&c.model, lang)),
                        ],
                    )
                })
                .collect();
            if n - 1 > LISTED {
                others.push(i18n::TAP_MORE.fill(lang, &[("n", &(n - 1 - LISTED))]));
            }
            i18n::TAP_CONVERSATIONS.fill(
                lang,
                &[
                    ("n", &n),
                    ("k", &(shown + 1)),
                    ("calls", &current.calls),
                    ("model", &model(&current.model, lang)),
                    ("others", &others.join(i18n::LIST_SEPARATOR.get(lang))),
                ],
            )
        }));
    }
    if !s.sides.is_empty() {
        out.push(Lang::ALL.map(|lang| {
            let mut list: Vec<String> = s
                .sides
                .iter()
                .take(LISTED)
                .map(|side| {
                    let place = match places {
                        Places::Lines => i18n::TAP_PLACE_LINE,
                        Places::Requests => i18n::TAP_PLACE_REQUEST,
                    }
                    .fill(lang, &[("n", &side.line)]);
                    let kind = match side.kind {
                        "count_tokens" => i18n::TAP_SIDE_COUNT_TOKENS,
                        _ => i18n::TAP_SIDE_NO_TOOLS,
                    }
                    .get(lang);
                    let status = match side.status {
                        Some(code) => code.to_string(),
                        None => i18n::TAP_NO_STATUS.get(lang).to_string(),
                    };
                    let mut item = i18n::TAP_SIDE_ITEM.fill(
                        lang,
                        &[
                            ("place", &place),
                            ("kind", &kind),
                            ("model", &model(&side.model, lang)),
                            ("status", &status),
                        ],
                    );
                    if let Some(reply) = &side.reply {
                        item.push_str(&i18n::TAP_SIDE_REPLY.fill(lang, &[("reply", reply)]));
                    }
                    item
                })
                .collect();
            if s.sides.len() > LISTED {
                list.push(i18n::TAP_MORE.fill(lang, &[("n", &(s.sides.len() - LISTED))]));
            }
            i18n::TAP_SIDES.fill(
                lang,
                &[
                    ("n", &s.sides.len()),
                    ("list", &list.join(i18n::LIST_SEPARATOR.get(lang))),
                ],
            )
        }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn line(model: &str, tools: bool, messages: Value) -> Value {
        let mut request = json!({"model": model, "messages": messages});
        if tools {
            request["tools"] = json!([{"name": "Read"}]);
        }
        json!({"provider": "anthropic", "path": "/v1/messages", "request": request, "status": 200,
               "response": {"type": "message", "content": [{"type": "text", "text": "A  short\ntitle"}]}})
    }

    fn places(lines: Vec<Value>) -> (Vec<(usize, Place)>, Splitter) {
        let mut s = Splitter::default();
        let mut out = Vec::new();
        for (i, l) in lines.into_iter().enumerate() {
            out.extend(
                s.feed(i + 1, l.into())
                    .into_iter()
                    .map(|p| (p.line, p.place)),
            );
        }
        out.extend(s.finish().into_iter().map(|p| (p.line, p.place)));
        (out, s)
    }

    #[test]
    fn a_sub_agent_is_a_conversation_of_its_own_and_calls_without_tools_are_side_requests() {
        let task = json!({"role": "user", "content": "fix the test"});
        let call = json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Task", "input": {}}]});
        let sub = json!({"role": "user", "content": "find the test file"});
        let sub_call = json!({"role": "assistant", "content": [{"type": "tool_use", "id": "s1", "name": "Read", "input": {}}]});
        let sub_result = json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "s1", "content": "x"}]});
        let result = json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "found"}]});
        // The newest message carries the cache mark; the next request moves it.
        let marked = json!({"role": "user", "content": [{"type": "text", "text": "fix the test", "cache_control": {"type": "ephemeral"}}]});
        let unmarked_task =
            json!({"role": "user", "content": [{"type": "text", "text": "fix the test"}]});
        let (placed, s) = places(vec![
            line(
                "haiku",
                false,
                json!([{"role": "user", "content": "quota"}]),
            ),
            line("opus", true, json!([marked])),
            line("opus", true, json!([unmarked_task, call])),
            line("haiku", true, json!([sub])),
            line("haiku", true, json!([sub, sub_call, sub_result])),
            line("haiku", false, json!([task])),
            line("opus", true, json!([unmarked_task, call, result])),
        ]);
        assert_eq!(
            placed,
            [
                (1, Place::Side),
                (2, Place::Conversation(0)),
                (3, Place::Conversation(0)),
                (4, Place::Conversation(1)),
                (5, Place::Conversation(1)),
                (6, Place::Side),
                (7, Place::Conversation(0)),
            ]
        );
        assert_eq!(s.conversations.len(), 2);
        assert_eq!((s.conversations[0].calls, s.conversations[1].calls), (3, 2));
        assert_eq!(s.conversations[1].model.as_deref(), Some("haiku"));
        assert_eq!(s.sides.len(), 2);
        assert_eq!(s.sides[0].kind, "no_tools");
        assert_eq!(s.sides[0].reply.as_deref(), Some("A short title"));
    }

    #[test]
    fn requests_to_different_apis_are_different_conversations_though_their_messages_match() {
        let ask = json!([{"role": "user", "content": "What is the limit in config.txt?"}]);
        let mut chat = line("gpt", true, ask.clone());
        chat["provider"] = json!("chat");
        let mut responses = line("gpt", true, ask.clone());
        responses["provider"] = json!("responses");
        let (placed, s) = places(vec![responses, chat, line("claude", true, ask)]);
        assert_eq!(
            placed,
            [
                (1, Place::Conversation(0)),
                (2, Place::Conversation(1)),
                (3, Place::Conversation(2)),
            ]
        );
        assert_eq!(s.conversations.len(), 3);
    }

    #[test]
    fn a_recording_without_tools_is_one_plain_conversation_and_counting_is_always_apart() {
        let a = json!({"role": "user", "content": "hi"});
        let b = json!({"role": "assistant", "content": "hello"});
        let mut count = line("m", false, json!([a]));
        count["side"] = json!("count_tokens");
        let (placed, s) = places(vec![
            line("m", false, json!([a])),
            count,
            line("m", false, json!([a, b, a])),
        ]);
        assert_eq!(
            placed,
            [
                (2, Place::Side),
                (1, Place::Conversation(0)),
                (3, Place::Conversation(0)),
            ]
        );
        assert_eq!(s.sides[0].kind, "count_tokens");
    }

    #[test]
    fn the_real_clis_recordings_are_each_one_conversation() {
        for file in ["claude-code.tap.jsonl", "codex.tap.jsonl"] {
            let path = format!(
                "{}/tests/transcripts/real/cli/{file}",
                env!("CARGO_MANIFEST_DIR")
            );
            let lines: Vec<Value> = std::fs::read_to_string(path)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            assert!(lines.iter().all(is_tap_line));
            let (placed, s) = places(lines);
            assert_eq!(placed.len(), 2, "{file}");
            assert!(
                placed.iter().all(|(_, p)| *p == Place::Conversation(0)),
                "{file}: {placed:?}"
            );
            assert!(s.sides.is_empty());
        }
    }

    /// A message's hash is equal where `wire::unmarked` makes the messages
    /// equal, and differs where it does not.
    #[test]
    fn a_messages_hash_is_its_unmarked_forms() {
        let same = [
            (
                json!({"role": "user", "content": "hi"}),
                json!({"content": "hi", "role": "user"}),
            ),
            (
                json!({"role": "user", "content": [{"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}]}),
                json!({"role": "user", "content": "hi"}),
            ),
            (
                json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": [{"type": "text", "text": "x"}]}]}),
                json!({"role": "user", "content": [{"tool_use_id": "t", "type": "tool_result", "content": "x"}]}),
            ),
        ];
        let differ = [
            (
                json!({"role": "user", "content": "hi"}),
                json!({"role": "user", "content": "hi!"}),
            ),
            (
                json!({"role": "user", "content": "hi"}),
                json!({"role": "assistant", "content": "hi"}),
            ),
            (json!({"n": 1}), json!({"n": 1.0})),
            (json!([1, 2]), json!([2, 1])),
            (
                json!({"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}),
                json!({"content": "ab"}),
            ),
        ];
        for (a, b) in same {
            assert_eq!(crate::wire::unmarked(&a), crate::wire::unmarked(&b));
            assert_eq!(unmarked_hash(&a), unmarked_hash(&b), "{a} {b}");
        }
        for (a, b) in differ {
            assert_ne!(crate::wire::unmarked(&a), crate::wire::unmarked(&b));
            assert_ne!(unmarked_hash(&a), unmarked_hash(&b), "{a} {b}");
        }
    }

    #[test]
    fn a_list_of_hashes_starts_with_another_where_its_first_hashes_are_those() {
        let list = |hashes: &[u64]| hashes.iter().copied().collect::<Hashes>();
        let lists = [
            list(&[]),
            list(&[1]),
            list(&[1, 2, 3]),
            list(&[1, 2, 4]),
            list(&[2, 1, 3]),
            list(&[1, 2, 3, 5]),
            // Grown from a copy, and cut, as a tap's requests are.
            {
                let mut grown = list(&[1, 2, 3]);
                grown.extend([5]);
                grown
            },
            {
                let mut cut = list(&[1, 2, 3, 5]);
                cut.truncate(2);
                cut
            },
        ];
        for a in &lists {
            for b in &lists {
                let (a_items, b_items): (Vec<u64>, Vec<u64>) =
                    (a.iter().collect(), b.iter().collect());
                assert_eq!(
                    a.starts_with(b),
                    a_items.starts_with(&b_items),
                    "{a_items:?} {b_items:?}"
                );
            }
        }
    }
}
