//! A tap's recording read as it grows (the live view's builder thread,
//! `tap::live`): each line read once, the calls still running read again
//! on a copy at each batch.

use std::sync::Arc;

use serde_json::Value;

use super::builder::{self, Builder};
use super::format::Format;
use super::split::{self, Hashes};
use super::{detect_document, request_line};
use crate::load::Loaded;
use crate::tokens::common_prefix;

/// A tap's calls so far, in the order they began (each the line it was
/// or will be recorded as; one still running has its request alone), as
/// one run per conversation, side requests apart (`split`). `name` is the
/// recording's file name, for titles. A conversation none of whose lines
/// can be read is left out. The same reading as `Growing` fed line by line.
pub fn live(name: &str, lines: Vec<Value>, redact: bool) -> Vec<Loaded> {
    let mut growing = Growing::new(name, redact);
    for line in lines {
        growing.push(line);
    }
    growing.runs(Vec::new())
}

/// A tap's recording read as it grows, each line once: the lines that are
/// final (calls that ended, and all before them) are read into the state
/// for good (`push`); the calls after them that may still change (one
/// running, or one that ended after another that still runs) are read on a
/// copy each time the runs are drawn (`runs`). Reading call 200 then costs
/// what reading call 10 does, plus building the traces of what is there.
#[derive(Debug, Clone)]
pub struct Growing {
    name: String,
    redact: bool,
    splitter: split::Splitter,
    /// Per conversation, in the splitter's order: its builder and format.
    conversations: Vec<(Builder, Option<Format>)>,
    /// Lines read so far.
    lines: usize,
    /// Per conversation, what its latest build left for the next
    /// (`Builder::finish_after`): the runs drawn after each call are built
    /// again, from the replay the last build kept, and most of each is
    /// what it was.
    earlier: Vec<builder::Earlier>,
    /// What reading each call still running found (by its line, as
    /// `runs` was given it), for the line it ends with (`push_ended`).
    running: Vec<(Arc<Value>, Known)>,
    /// The latest request written (`request_written`) and its history's
    /// hashes: the next request repeats most of it, byte for byte.
    written_before: Option<(Written, Hashes)>,
    to_free: ToFree,
}

/// A request as a recording writes it (compact JSON, what `to_string`
/// writes), and where each item of its history (`split::history`) ends
/// in that text.
#[derive(Debug, Clone, Default)]
pub struct Written {
    pub text: Arc<str>,
    list: &'static str,
    ends: Arc<[usize]>,
    /// Where its tool list is written, if it has one.
    tools: Option<std::ops::Range<usize>>,
    /// The request written before it (its text) and how many first bytes
    /// the two share (`after`): found by the writer, where this text is
    /// fresh in memory, not by the live view (at call 2,000, half a
    /// megabyte it would read cold, on each call).
    shared: Option<(Arc<str>, usize)>,
}

/// `request` written (`written`) after `before`, the request written
/// before it, which this one then is: how many first bytes the two share
/// is found now.
pub fn written_after(request: &Value, before: &mut Option<Written>) -> Written {
    let mut now = written(request);
    if let Some(before) = before.replace(now.clone()) {
        let shared = common_prefix(before.text.as_bytes(), now.text.as_bytes());
        now.shared = Some((before.text, shared));
    }
    now
}

/// `request` written as a recording writes it (`Written`).
pub fn written(request: &Value) -> Written {
    let (mut ends, mut tools) = (Vec::new(), None);
    let list = split::history_key(request);
    let out = write_entries(request, |out, key, value| match value {
        Value::Array(items) if key == list => {
            out.push(b'[');
            for (j, item) in items.iter().enumerate() {
                if j > 0 {
                    out.push(b',');
                }
                let _ = serde_json::to_writer(&mut *out, item);
                ends.push(out.len());
            }
            out.push(b']');
        }
        Value::Array(_) if key == "tools" => {
            let start = out.len();
            let _ = serde_json::to_writer(&mut *out, value);
            tools = Some(start..out.len());
        }
        _ => {
            let _ = serde_json::to_writer(out, value);
        }
    });
    let text = String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    Written {
        text: text.into(),
        list,
        ends: ends.into(),
        tools,
        shared: None,
    }
}

/// `value` as compact JSON, what `to_string` writes; where it is an
/// object, each entry's value written by `entry` (given the text so far,
/// the key and the value).
pub(crate) fn write_entries(
    value: &Value,
    mut entry: impl FnMut(&mut Vec<u8>, &str, &Value),
) -> Vec<u8> {
    // Writing to a Vec cannot fail, nor can a Value's serialization.
    let Value::Object(map) = value else {
        return serde_json::to_vec(value).unwrap_or_default();
    };
    let mut out = Vec::new();
    out.push(b'{');
    for (i, (key, value)) in map.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let _ = serde_json::to_writer(&mut out, key);
        out.push(b':');
        entry(&mut out, key, value);
    }
    out.push(b'}');
    out
}

/// The hashes of the first items of `written`'s history (of `items`)
/// that the request written `before` (with its history's hashes) holds
/// byte for byte: those of its items, of the same list, that end within
/// the bytes both texts begin with.
fn kept_hashes(before: Option<&(Written, Hashes)>, written: &Written, items: usize) -> Hashes {
    match before {
        Some((before, hashes)) if before.list == written.list && written.ends.len() == items => {
            let shared = match &written.shared {
                Some((text, shared)) if Arc::ptr_eq(text, &before.text) => {
                    debug_assert_eq!(
                        *shared,
                        common_prefix(text.as_bytes(), written.text.as_bytes())
                    );
                    *shared
                }
                _ => common_prefix(before.text.as_bytes(), written.text.as_bytes()),
            };
            let whole = before.ends.partition_point(|&end| end <= shared);
            let mut kept = hashes.clone();
            kept.truncate(whole.min(hashes.len()).min(items));
            kept
        }
        _ => Hashes::default(),
    }
}

/// Requests read that no one else holds, freed on a thread of their own:
/// a long run's request is hundreds of kilobytes of JSON in tens of
/// thousands of allocations (a third of a millisecond to free at call
/// 2,000, 30 µs at call 200), and the next call waits. Handed over a few
/// megabytes at a time: waking the thread costs about 30 µs, as much as
/// freeing a short request.
#[derive(Debug, Default)]
struct ToFree {
    lines: Vec<Arc<Value>>,
    /// The bytes of their requests, as written.
    bytes: usize,
}

impl ToFree {
    /// What is held before it is handed over.
    const BATCH: usize = 4 * 1024 * 1024;

    /// Frees `line`, of a request `bytes` long, elsewhere when no one
    /// else holds it.
    fn push(&mut self, line: Arc<Value>, bytes: usize) {
        if Arc::strong_count(&line) > 1 {
            return;
        }
        self.lines.push(line);
        self.bytes += bytes;
        if self.bytes >= Self::BATCH {
            self.hand_over();
        }
    }

    fn hand_over(&mut self) {
        use std::sync::{OnceLock, mpsc};
        static FREER: OnceLock<Option<mpsc::Sender<Vec<Arc<Value>>>>> = OnceLock::new();
        let freer = FREER.get_or_init(|| {
            let (send, freed) = mpsc::channel::<Vec<Arc<Value>>>();
            let thread = std::thread::Builder::new().name("free".into());
            thread
                .spawn(move || freed.into_iter().for_each(drop))
                .ok()?;
            Some(send)
        });
        let lines = std::mem::take(&mut self.lines);
        self.bytes = 0;
        if let Some(freer) = freer {
            // Should the thread be gone, the lines come back and are freed here.
            let _ = freer.send(lines);
        }
    }
}

/// A copy holds none: what it would free is the original's.
impl Clone for ToFree {
    fn clone(&self) -> Self {
        ToFree::default()
    }
}

/// What reading a request finds that does not change when its call ends
/// (a tap's call ends with the request it began with): its messages'
/// hashes (`split::hashes`) and its body as a trace keeps it
/// (`builder::recorded_text`). A long run's request is megabytes: read
/// when the call begins, not again when it ends.
#[derive(Debug, Clone, Default)]
struct Known {
    hashes: Option<Hashes>,
    body: Option<Arc<str>>,
    /// Where the body writes its tool list (`Written::tools`).
    tools: Option<std::ops::Range<usize>>,
}

impl Growing {
    pub fn new(name: &str, redact: bool) -> Growing {
        Growing {
            name: crate::safe::escape(name).into_owned(),
            redact,
            splitter: split::Splitter::default(),
            conversations: Vec::new(),
            lines: 0,
            earlier: Vec::new(),
            running: Vec::new(),
            written_before: None,
            to_free: ToFree::default(),
        }
    }

    /// Lines read for good.
    pub fn len(&self) -> usize {
        self.lines
    }

    pub fn is_empty(&self) -> bool {
        self.lines == 0
    }

    /// The next line, final: read into the state for good.
    pub fn push(&mut self, line: impl Into<Arc<Value>>) {
        self.read(line.into(), &mut Known::default());
    }

    /// The request of `line`, a call's line while it runs (as `runs` will
    /// be given it), is `written` (its text as the trace keeps it:
    /// `builder::recorded_text`): a tap wrote it out for the recording as
    /// the call began, and it is not written again here. The items of its
    /// history that the latest request written holds byte for byte are
    /// that request's, and their hashes are not made again.
    pub fn request_written(&mut self, line: &Arc<Value>, mut written: Written) {
        let request = line.get("request").unwrap_or(&Value::Null);
        let items = split::history(request);
        // The list before, shared, and those after it (at call 2,000,
        // 4,000 hashes, the last two new).
        let mut hashes = kept_hashes(self.written_before.as_ref(), &written, items.len());
        let new = items[hashes.len()..].iter().map(split::unmarked_hash);
        hashes.extend(new);
        debug_assert!(
            hashes.iter().eq(split::hashes(line)),
            "hashes kept that differ"
        );
        let known = Known {
            hashes: Some(hashes.clone()),
            body: Some(written.text.clone()),
            tools: written.tools.clone(),
        };
        // The text before is let go: it is this one that the next is
        // compared with.
        written.shared = None;
        self.written_before = Some((written, hashes));
        self.running.push((line.clone(), known));
    }

    /// The next line, final: the call that was running as `was` (a line
    /// `runs` was given) ended as `line`, with the same request. A tap
    /// hands it over without one (null): it is `was`'s, moved when no
    /// one else holds `was` (a long run's request is megabytes).
    pub fn push_ended(&mut self, mut line: Value, was: Arc<Value>) {
        let at = self.running.iter().position(|(l, _)| Arc::ptr_eq(l, &was));
        let mut known = at.map_or_else(Known::default, |at| self.running.swap_remove(at).1);
        match line.get("request") {
            None | Some(Value::Null) => {
                let request = Arc::try_unwrap(was).map_or_else(
                    |was| was.get("request").cloned(),
                    |mut was| was.get_mut("request").map(Value::take),
                );
                if let (Some(line), Some(request)) = (line.as_object_mut(), request) {
                    line.insert("request".into(), request);
                }
            }
            Some(request) => debug_assert!(
                at.is_none() || Some(request) == was.get("request"),
                "a call ended with another request"
            ),
        }
        self.read(Arc::new(line), &mut known);
    }

    /// Reads the next line; what it finds of its request is `known`.
    fn read(&mut self, line: Arc<Value>, known: &mut Known) {
        self.lines += 1;
        let placed = self
            .splitter
            .feed_hashed(self.lines, line, &mut known.hashes);
        self.place(placed, known);
    }

    /// Reads the lines placed; `known`: what is known of the last fed.
    fn place(&mut self, placed: Vec<split::Placed>, known: &mut Known) {
        let fed = self.lines;
        for split::Placed {
            line,
            value,
            place,
            repeats,
        } in placed
        {
            let split::Place::Conversation(k) = place else {
                continue;
            };
            while self.conversations.len() <= k {
                let mut builder = Builder::new(&self.name);
                builder.redact = self.redact;
                builder.by_request();
                self.conversations.push((builder, None));
            }
            let (builder, format) = &mut self.conversations[k];
            builder.repeats(repeats);
            if line == fed && known.body.is_none() {
                let request = value.get("request");
                known.body = request.map(|r| builder::recorded_text(r, self.redact));
            }
            let body = known.body.clone().filter(|_| line == fed);
            builder.body_known(body, known.tools.clone());
            let read = detect_document(&value).ok_or(()).and_then(|f| {
                request_line(&self.name, &value, line, Some(f), builder)
                    .map(|()| f)
                    .map_err(|_| ())
            });
            match read {
                Ok(f) => {
                    format.get_or_insert(f);
                }
                Err(()) => {
                    builder.not_a_request();
                    builder.skip("unreadable request", line);
                }
            }
            builder.repeats(0);
            builder.body_known(None, None);
            if let Some(body) = known.body.as_ref().filter(|_| line == fed) {
                self.to_free.push(value, body.len());
            }
        }
    }

    /// The runs: what is read for good, then `pending` (the lines after
    /// it, which may still change), as one run per conversation.
    pub fn runs(&mut self, pending: Vec<Arc<Value>>) -> Vec<Loaded> {
        let mut earlier = std::mem::take(&mut self.earlier);
        let known = std::mem::take(&mut self.running);
        // What each conversation has read for good.
        let read: Vec<_> = self.conversations.iter().map(|(b, _)| b.read()).collect();
        // The copy reads the pending lines, not requests written.
        let written_before = self.written_before.take();
        let mut all = self.clone();
        self.written_before = written_before;
        for line in pending {
            let found = known.iter().find(|(l, _)| Arc::ptr_eq(l, &line));
            let mut found = found.map(|(_, k)| k.clone()).unwrap_or_default();
            all.read(line.clone(), &mut found);
            self.running.push((line, found));
        }
        let held = all.splitter.finish();
        all.place(held, &mut Known::default());
        let count = all.conversations.len();
        earlier.resize_with(count, Default::default);
        let splitter = &all.splitter;
        let name = &all.name;
        let runs = all
            .conversations
            .into_iter()
            .zip(&mut earlier)
            .enumerate()
            .filter_map(|(k, ((mut builder, format), earlier))| {
                let title = match count {
                    1 => name.clone(),
                    _ => format!("{name}#{}", k + 1),
                };
                builder.rename(&title);
                builder.final_up_to(read.get(k).copied().unwrap_or_default());
                for note in split::notes(splitter, k, split::Places::Requests) {
                    builder.note(note);
                }
                builder.finish_after(format?, &title, Some(earlier)).ok()
            })
            .collect();
        self.earlier = earlier;
        runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lines_freed_elsewhere_are_freed_a_batch_at_a_time() {
        let line =
            || Arc::new(json!({"request": {"messages": [{"role": "user", "content": "hi"}]}}));
        let (first, second) = (line(), line());
        let (weak_first, weak_second) = (Arc::downgrade(&first), Arc::downgrade(&second));
        let mut to_free = ToFree::default();
        // Held elsewhere: left to the holder.
        let held = first.clone();
        to_free.push(first, 1);
        assert!(to_free.lines.is_empty());
        // Held until a batch's worth is pending, then freed elsewhere.
        to_free.push(held, 1);
        assert_eq!(weak_first.strong_count(), 1);
        to_free.push(second, ToFree::BATCH);
        assert!(to_free.lines.is_empty() && to_free.bytes == 0);
        let start = std::time::Instant::now();
        while weak_first.strong_count() + weak_second.strong_count() > 0 {
            assert!(start.elapsed().as_secs() < 10, "not freed");
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    #[test]
    fn a_request_is_written_as_its_json_with_where_each_item_of_its_history_ends() {
        let requests = [
            json!({"model": "m", "messages": [{"role": "user", "content": "a \" \\ 中"}, {"role": "assistant", "content": [{"type": "text", "text": "b"}]}], "tools": [1]}),
            json!({"input": [{"type": "message"}, {"type": "function_call", "n": 1.5}], "instructions": "x"}),
            json!({"input": "one text"}),
            json!({"messages": null, "input": [1]}),
            json!({"model": "m"}),
            json!([1, 2]),
        ];
        for request in &requests {
            let w = written(request);
            assert_eq!(*w.text, request.to_string());
            let items = split::history(request);
            let listed = request.get(w.list).is_some_and(Value::is_array);
            assert_eq!(w.ends.len(), if listed { items.len() } else { 0 });
            for (item, &end) in items.iter().zip(w.ends.iter()) {
                assert!(w.text[..end].ends_with(&item.to_string()), "{request}");
            }
            let tools = request.get("tools").filter(|t| t.is_array());
            let written_tools = w.tools.clone().map(|at| &w.text[at]);
            assert_eq!(written_tools, tools.map(Value::to_string).as_deref());
        }
    }

    #[test]
    fn a_request_masked_as_the_tap_masks_it_is_written_as_the_live_view_would_write_it() {
        // A tap with --redact writes the masked request, and its live view
        // (masking too) keeps that text: masking it again changes nothing.
        let mut request = json!({"messages": [{"role": "user", "content": "key sk-proj-abcdefghijklmnop1234 and AKIAIOSFODNN7EXAMPLE"}]});
        crate::transcript::redact::redact_strings(&mut request);
        assert!(request.to_string().contains("[redacted"), "{request}");
        for redact in [false, true] {
            assert_eq!(
                written(&request).text,
                builder::recorded_text(&request, redact)
            );
        }
    }

    #[test]
    fn a_request_takes_the_hashes_of_the_items_the_request_before_wrote_alike() {
        let message = |k: usize| json!({"role": "user", "content": format!("message {k}")});
        let marked = |k: usize| json!({"role": "user", "content": [{"type": "text", "text": format!("message {k}"), "cache_control": {"type": "ephemeral"}}]});
        let request = |items: Vec<Value>| json!({"provider": "anthropic", "request": {"model": "m", "messages": items}});
        let history: Vec<Value> = (0..6).map(message).collect();
        let mut edited = history.clone();
        edited[2] = json!({"role": "user", "content": "cleared"});
        let mut moved = history.clone();
        moved[5] = marked(5);
        let lines = [
            request(history[..3].to_vec()),
            request(history[..5].to_vec()),
            // The mark on the last item moved: hashed as before, marks aside.
            request(moved.clone()),
            request(history.clone()),
            // An item in the middle changed: it and those after are new.
            request(edited),
            request(history[..2].to_vec()),
            json!({"provider": "openai", "request": {"input": history[..4].to_vec()}}),
            // The same bytes first, but its history is another list.
            json!({"provider": "openai", "request": {"input": history[..4].to_vec(), "messages": [message(9)]}}),
            json!({"provider": "openai", "request": {"input": "one text"}}),
            request(history.clone()),
        ];
        // Compared by the live view, and by the writer (as a tap's is).
        for by_writer in [false, true] {
            let (mut growing, mut before) = (Growing::new("run.jsonl", false), None);
            let mut reused = Vec::new();
            for line in &lines {
                let line = Arc::new(line.clone());
                let w = match by_writer {
                    true => written_after(&line["request"], &mut before),
                    false => written(&line["request"]),
                };
                assert_eq!(w.shared.is_some(), by_writer && !reused.is_empty());
                let items = split::history(&line["request"]).len();
                reused.push(kept_hashes(growing.written_before.as_ref(), &w, items).len());
                growing.request_written(&line, w);
                let (_, known) = growing.running.last().unwrap();
                let hashes = known.hashes.as_ref().map(|h| h.iter().collect());
                assert_eq!(hashes, Some(split::hashes(&line)));
            }
            // The items written alike, not hashed again.
            assert_eq!(reused, [0, 3, 5, 5, 2, 2, 0, 0, 0, 0], "{by_writer}");
        }
    }
}
