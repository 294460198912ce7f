//! A tap's recording read as it grows (the live view's builder thread,
//! `tap::live`): each line read once, the calls still running read again
//! on a copy at each batch.

use std::sync::Arc;

use serde_json::Value;

use super::builder::{self, Builder};
use super::format::Format;
use super::{detect_document, request_line, split};
use crate::load::Loaded;

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
}

/// What reading a request finds that does not change when its call ends
/// (a tap's call ends with the request it began with): its messages'
/// hashes (`split::hashes`) and its body as a trace keeps it
/// (`builder::recorded_text`). A long run's request is megabytes: read
/// when the call begins, not again when it ends.
#[derive(Debug, Clone, Default)]
struct Known {
    hashes: Option<Vec<u64>>,
    body: Option<Arc<str>>,
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
    /// be given it), is `text` as the trace keeps it
    /// (`builder::recorded_text`): a tap wrote it out for the recording
    /// as the call began, and it is not written again here.
    pub fn request_written(&mut self, line: &Arc<Value>, text: Arc<str>) {
        let known = Known {
            hashes: None,
            body: Some(text),
        };
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
            builder.body_known(known.body.clone().filter(|_| line == fed));
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
            builder.body_known(None);
        }
    }

    /// The runs: what is read for good, then `pending` (the lines after
    /// it, which may still change), as one run per conversation.
    pub fn runs(&mut self, pending: Vec<Arc<Value>>) -> Vec<Loaded> {
        let mut earlier = std::mem::take(&mut self.earlier);
        let known = std::mem::take(&mut self.running);
        // What each conversation has read for good.
        let read: Vec<_> = self.conversations.iter().map(|(b, _)| b.read()).collect();
        let mut all = self.clone();
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
