//! The recording: one JSON line per model call, appended when the call
//! ends, in the `export --format requests` shape plus what only the wire
//! knows (timing, status, a cut). Streams are assembled into the response
//! object the provider would have sent unstreamed.
//!
//! A stream is put back together per provider (Chat, Responses and
//! Anthropic events) in `assemble`.

use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value, json};

use super::assemble::{Assembly, Sse};
use crate::output::{self, EXIT_BAD_INPUT};
use crate::transcript::growing::{self, Written};
use crate::wire::Provider;

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// Which API a request path belongs to, and whether it is a side endpoint
/// (token counting) rather than a model call.
pub fn classify(method: &str, path: &str) -> Option<(Provider, Option<&'static str>)> {
    if !method.eq_ignore_ascii_case("POST") {
        return None;
    }
    let path = path.split('?').next().unwrap_or(path).trim_end_matches('/');
    if path.ends_with("/chat/completions") {
        Some((Provider::Chat, None))
    } else if path.ends_with("/responses") {
        Some((Provider::Responses, None))
    } else if path.ends_with("/messages/count_tokens") {
        Some((Provider::Anthropic, Some("count_tokens")))
    } else if path.ends_with("/messages") {
        Some((Provider::Anthropic, None))
    } else if path.ends_with("/responses/input_tokens") {
        Some((Provider::Responses, Some("count_tokens")))
    } else {
        None
    }
}

/// The request's path as recorded: the value of a query parameter that
/// carries a credential (`?key=`, as Google's Gemini API takes its key;
/// `access_token`, `api_key`, `sig`, …) is masked, with or without
/// `--redact`, as headers are never written.
pub fn recorded_path(path: &str) -> String {
    let Some((route, query)) = path.split_once('?') else {
        return path.to_string();
    };
    let credential = |name: &str| {
        let n = name.to_ascii_lowercase();
        matches!(n.as_str(), "key" | "sig" | "signature" | "code")
            || ["key", "token", "secret", "passw", "auth", "credential"]
                .iter()
                .any(|w| n.contains(w))
    };
    let params: Vec<String> = query
        .split('&')
        .map(|param| match param.split_once('=') {
            Some((name, value)) if credential(name) && !value.is_empty() => {
                format!("{name}=[redacted]")
            }
            _ => param.to_string(),
        })
        .collect();
    format!("{route}?{}", params.join("&"))
}

/// A call as the live view sees it: its line so far (the request alone
/// while it runs), by the order calls began in; `ended`: the line as
/// written, seen in the order the recording has them, its request left
/// null (it is the one the call began with, handed over then).
pub struct Observed {
    pub id: u64,
    pub line: Value,
    pub ended: bool,
    /// The request as the recording writes it (compact JSON), written
    /// out once as the call began: the live view keeps this text rather
    /// than writing a long run's request out again.
    pub request: Written,
}

/// One model call while it runs.
pub struct Call {
    pub provider: Provider,
    pub path: String,
    pub side: Option<String>,
    /// The request, until it began (`Recorder::begin`): then written out
    /// (`written`) and handed to the live view, or let go.
    pub request: Value,
    pub start_ms: u64,
    pub first_byte_ms: Option<u64>,
    pub status: Option<u16>,
    sse: Option<Sse>,
    body: Vec<u8>,
    assembly: Assembly,
    /// The request as the recording writes it, once it began
    /// (`Recorder::begin`).
    written: Option<Written>,
}

impl Call {
    pub fn new(provider: Provider, path: &str, request: Value, start_ms: u64) -> Call {
        Call {
            provider,
            path: path.to_string(),
            side: None,
            request,
            start_ms,
            first_byte_ms: None,
            status: None,
            sse: None,
            body: Vec::new(),
            assembly: Assembly::new(provider),
            written: None,
        }
    }

    /// The response head arrived.
    pub fn respond(&mut self, status: u16, event_stream: bool) {
        self.status = Some(status);
        self.first_byte_ms.get_or_insert_with(now_ms);
        if event_stream {
            self.sse = Some(Sse::default());
        }
    }

    /// A piece of the response body (without transfer framing).
    pub fn content(&mut self, bytes: &[u8]) {
        match &mut self.sse {
            Some(sse) => {
                for (event, data) in sse.feed(bytes) {
                    self.assembly.event(&event, &data);
                }
            }
            None => self.body.extend_from_slice(bytes),
        }
    }

    /// The line of a call that has just begun: `request` (its request,
    /// masked with `--redact`), no response yet.
    fn begun(&self, request: Value, redact: bool) -> Value {
        let mut line = json!({
            "provider": self.provider.code(),
            "request": null,
            "response": null,
            "status": null,
            "path": self.path,
        });
        if let Some(side) = &self.side {
            line["side"] = json!(side);
        }
        if redact {
            crate::transcript::redact::redact_strings(&mut line);
        }
        line["request"] = request;
        line
    }

    /// The line for the recording, its request null where it began
    /// (written out then: the recording writes that text in its place).
    /// `cut` says why the call did not end
    /// as a whole response (it is then written as incomplete); a stream
    /// whose HTTP body ended without its last event was cut all the same,
    /// and one that sent its last event is whole.
    pub fn line(&self, cut: Option<&str>, redact: bool) -> Value {
        // A stream that sent its API's last event is whole, even when
        // the agent hangs up before the HTTP body's end (an SDK may stop
        // reading at the last event); one that did not is cut.
        let cut = match &self.sse {
            Some(_) => self
                .assembly
                .unfinished()
                .map(|why| cut.map_or(why, str::to_string)),
            None => cut.map(str::to_string),
        };
        let cut = cut.as_deref();
        let response = match &self.sse {
            Some(_) => self.assembly.value(),
            None if self.body.is_empty() => Value::Null,
            None => serde_json::from_slice(&self.body)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&self.body).into())),
        };
        let mut line = Map::new();
        line.insert("provider".into(), json!(self.provider.code()));
        line.insert("request".into(), self.request.clone());
        line.insert("response".into(), response);
        let mut timing = Map::new();
        timing.insert("start_ms".into(), json!(self.start_ms));
        if let Some(t) = self.first_byte_ms {
            timing.insert("first_byte_ms".into(), json!(t));
        }
        timing.insert("end_ms".into(), json!(now_ms()));
        line.insert("timing".into(), Value::Object(timing));
        line.insert("status".into(), json!(self.status));
        if self.sse.is_some() {
            line.insert("stream".into(), json!(true));
        }
        if let Some(why) = cut {
            line.insert("incomplete".into(), json!(true));
            line.insert("error".into(), json!(why));
        }
        line.insert("path".into(), json!(self.path));
        if let Some(side) = &self.side {
            line.insert("side".into(), json!(side));
        }
        let mut line = Value::Object(line);
        if redact {
            crate::transcript::redact::redact_strings(&mut line);
        }
        line
    }
}

/// The recording file and the calls in flight: a call leaves the map and
/// is written under one lock, so a call is written once, whether it ends
/// or the tap is stopped while it runs.
pub struct Recorder {
    inner: Mutex<Inner>,
    next: AtomicU64,
    redact: bool,
}

struct Inner {
    file: Option<File>,
    in_flight: HashMap<u64, Arc<Mutex<Call>>>,
    /// The live view's feed, if it watches.
    watch: Option<Box<dyn Fn(Observed) + Send>>,
    /// The model of the first call that carried tools: the agent loop's.
    loop_model: Option<String>,
    /// The latest request written, while the live view watches: the next
    /// is compared with it as it is written (`growing::written_after`).
    written_before: Option<Written>,
    written: u64,
    error: Option<String>,
}

impl Recorder {
    pub fn new(file: File, redact: bool) -> Recorder {
        Recorder {
            inner: Mutex::new(Inner {
                file: Some(file),
                in_flight: HashMap::new(),
                watch: None,
                loop_model: None,
                written_before: None,
                written: 0,
                error: None,
            }),
            next: AtomicU64::new(1),
            redact,
        }
    }

    /// Every call from now on, as it begins (its request) and as it ends
    /// (its line, as written), in that order, for the live view.
    pub fn watch(&self, watch: impl Fn(Observed) + Send + 'static) {
        self.lock().watch = Some(Box::new(watch));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A call begins: it is told apart as a side request when it is one
    /// (token counting, or a call without tools once a call with tools has
    /// been seen) and kept until it ends.
    pub fn begin(&self, mut call: Call) -> (u64, Arc<Mutex<Call>>) {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let mut inner = self.lock();
        if call.side.is_none() {
            let tools = call
                .request
                .get("tools")
                .and_then(Value::as_array)
                .is_some_and(|t| !t.is_empty());
            let model = call
                .request
                .get("model")
                .and_then(Value::as_str)
                .map(str::to_string);
            // A request with tools to another model is a loop too: a
            // sub-agent's (Claude Code runs its Explore agent on a smaller
            // model). The reader tells conversations apart.
            match (&inner.loop_model, tools) {
                (None, true) => inner.loop_model = model,
                (Some(_), false) => call.side = Some("no_tools".into()),
                _ => {}
            }
        }
        // Written out once, as the call begins: the recording's line and
        // the live view take this text, and the view the request itself
        // (a long run's request is megabytes, at every call), and how
        // much of it the request before wrote alike.
        let mut request = std::mem::take(&mut call.request);
        if self.redact {
            crate::transcript::redact::redact_strings(&mut request);
        }
        let written = match inner.watch {
            Some(_) => growing::written_after(&request, &mut inner.written_before),
            None => growing::written(&request),
        };
        call.written = Some(written.clone());
        if let Some(watch) = &inner.watch {
            watch(Observed {
                id,
                line: call.begun(request, self.redact),
                ended: false,
                request: written,
            });
        }
        let call = Arc::new(Mutex::new(call));
        inner.in_flight.insert(id, call.clone());
        (id, call)
    }

    /// A call ended (`cut` says how, when it did not end whole): its line
    /// is appended and flushed.
    pub fn end(&self, id: u64, cut: Option<&str>) {
        let mut inner = self.lock();
        if let Some(call) = inner.in_flight.remove(&id) {
            let call = call.lock().unwrap_or_else(|e| e.into_inner());
            let line = call.line(cut, self.redact);
            let written = call.written.clone().unwrap_or_default();
            inner.write(&line, &written.text);
            if let Some(watch) = &inner.watch {
                watch(Observed {
                    id,
                    line,
                    ended: true,
                    request: written,
                });
            }
        }
    }

    /// The tap stops: every call still in flight is written as incomplete,
    /// and nothing is written after.
    pub fn close(&self, why: &str) -> (u64, Option<String>) {
        let mut inner = self.lock();
        let mut open: Vec<(u64, Arc<Mutex<Call>>)> = inner.in_flight.drain().collect();
        open.sort_by_key(|(id, _)| *id);
        for (_, call) in open {
            let call = call.lock().unwrap_or_else(|e| e.into_inner());
            let line = call.line(Some(why), self.redact);
            let written = call.written.as_ref().map_or("", |w| &w.text);
            inner.write(&line, written);
        }
        inner.file = None;
        (inner.written, inner.error.clone())
    }

    pub fn in_flight(&self) -> usize {
        self.lock().in_flight.len()
    }
}

/// How long the tap waits, after the agent ended, for calls still being
/// answered before it writes them as incomplete.
pub const GRACE: Duration = Duration::from_secs(2);

/// The agent's command could not be started: say why, close the recording.
pub fn cannot_start(recorder: &Recorder, program: &str, e: &std::io::Error) -> ExitCode {
    output::error(format_args!(
        "tap: cannot start {program:?}: {}",
        output::io_reason(e)
    ));
    stop(recorder, "the tap stopped");
    ExitCode::from(EXIT_BAD_INPUT)
}

/// Close the recording and say how many calls it holds.
pub fn stop(recorder: &Recorder, why: &str) {
    let (written, error) = recorder.close(why);
    if let Some(e) = error {
        output::error(format_args!("tap: could not write the recording: {e}"));
    }
    let calls = crate::i18n::MODEL_CALL_N.get(written as usize, crate::scenario::Lang::En);
    output::error(format_args!("tap: {written} {calls} recorded"));
}

impl Inner {
    /// Appends `line`, its request written as `request` where that is its
    /// text (`Recorder::begin` wrote it out).
    fn write(&mut self, line: &Value, request: &str) {
        let Some(file) = &mut self.file else { return };
        let mut text = line_text(line, request);
        text.push(b'\n');
        match file.write_all(&text).and_then(|()| file.flush()) {
            Ok(()) => self.written += 1,
            Err(e) => {
                if self.error.is_none() {
                    self.error = Some(crate::output::io_reason(&e));
                }
            }
        }
    }
}

/// `line` as compact JSON, what `to_string` writes, its request taken
/// from `request` when that is not empty.
fn line_text(line: &Value, request: &str) -> Vec<u8> {
    crate::transcript::growing::write_entries(line, |out, key, value| {
        match (key, request.is_empty()) {
            ("request", false) => out.extend_from_slice(request.as_bytes()),
            _ => {
                let _ = serde_json::to_writer(out, value);
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assembled(provider: Provider, stream: &str, pieces: usize) -> Value {
        let mut call = Call::new(provider, "/v1/x", json!({}), 0);
        call.respond(200, true);
        for part in stream.as_bytes().chunks(pieces) {
            call.content(part);
        }
        call.line(None, false)["response"].clone()
    }

    /// The line of a streamed call whose HTTP body ended after `stream`.
    fn ended_after(provider: Provider, stream: &str) -> Value {
        let mut call = Call::new(provider, "/v1/x", json!({}), 0);
        call.respond(200, true);
        call.content(stream.as_bytes());
        call.line(None, false)
    }

    #[test]
    fn a_stream_whose_body_ends_before_its_last_event_is_written_as_cut() {
        let chat_head =
            "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n";
        let chat_end = "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n";
        let responses_head = "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"r1\",\"status\":\"in_progress\",\"output\":[]}}\n\n";
        let responses_end = "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"r1\",\"status\":\"completed\",\"output\":[]}}\n\n";
        let anthropic_head = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m1\",\"type\":\"message\",\"content\":[]}}\n\n";
        let anthropic_error = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
        let anthropic_end = "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        for (provider, head, last) in [
            (Provider::Chat, chat_head, "data: [DONE]"),
            (Provider::Responses, responses_head, "response.completed"),
            (Provider::Anthropic, anthropic_head, "message_stop"),
        ] {
            let line = ended_after(provider, head);
            assert_eq!(line["incomplete"], true, "{line}");
            let error = line["error"].as_str().unwrap();
            assert!(
                error.contains(last) && error.contains("upstream closed"),
                "{error}"
            );
        }
        for (provider, whole) in [
            (Provider::Chat, format!("{chat_head}data: [DONE]\n\n")),
            // A finish_reason on every choice is a whole reply, [DONE] or not.
            (Provider::Chat, format!("{chat_head}{chat_end}")),
            (
                Provider::Responses,
                format!("{responses_head}{responses_end}"),
            ),
            (
                Provider::Anthropic,
                format!("{anthropic_head}{anthropic_end}"),
            ),
        ] {
            let line = ended_after(provider, &whole);
            assert!(line.get("incomplete").is_none(), "{line}");
        }
        let line = ended_after(
            Provider::Anthropic,
            &format!("{anthropic_head}{anthropic_error}"),
        );
        assert_eq!(
            line["error"],
            "the stream ended with an error event, without message_stop"
        );
        // An unstreamed body is whole when its framing says so.
        let mut call = Call::new(Provider::Chat, "/v1/x", json!({}), 0);
        call.respond(200, false);
        call.content(b"{}");
        assert!(call.line(None, false).get("incomplete").is_none());
    }

    #[test]
    fn a_chat_stream_assembles_into_a_chat_completion_in_any_pieces() {
        let stream = concat!(
            "data: {\"id\":\"c1\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n",
            "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n",
            "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"}}]}\n\n",
            "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"read\",\"arguments\":\"\"}}]}}]}\n\n",
            "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"p\\\":1}\"}}]}}]}\n\n",
            "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n",
            "data: [DONE]\n\n"
        );
        for pieces in [1, 5, 1000] {
            let r = assembled(Provider::Chat, stream, pieces);
            assert_eq!(r["object"], "chat.completion");
            let m = &r["choices"][0]["message"];
            assert_eq!(m["content"], "Hello");
            assert_eq!(m["tool_calls"][0]["id"], "call_1");
            assert_eq!(m["tool_calls"][0]["function"]["arguments"], "{\"p\":1}");
            assert_eq!(r["choices"][0]["finish_reason"], "tool_calls");
        }
    }

    #[test]
    fn an_anthropic_stream_assembles_into_a_message_and_a_cut_one_keeps_what_came() {
        let stream = concat!(
            "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n",
            "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Let me\"}}\n\n",
            "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
            "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"Read\",\"input\":{}}}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"file_path\\\":\"}}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\\\"a\\\"}\"}}\n\n",
            "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n",
            "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":9}}\n\n",
            "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
        );
        for pieces in [1, 7, 10_000] {
            let r = assembled(Provider::Anthropic, stream, pieces);
            assert_eq!(r["content"][0]["text"], "Let me");
            assert_eq!(r["content"][1]["input"], json!({"file_path": "a"}));
            assert_eq!(r["stop_reason"], "tool_use");
            assert_eq!(r["usage"], json!({"input_tokens": 3, "output_tokens": 9}));
        }
        let cut = &stream[..stream.find("event: content_block_stop").unwrap()];
        let r = assembled(Provider::Anthropic, cut, 3);
        assert_eq!(r["content"][0]["text"], "Let me");
        assert_eq!(r["stop_reason"], Value::Null);
    }

    #[test]
    fn a_responses_stream_takes_the_completed_response_or_the_items_so_far() {
        let head = concat!(
            "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"r1\",\"status\":\"in_progress\",\"output\":[]}}\n\n",
            "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"type\":\"function_call\",\"call_id\":\"call_1\",\"name\":\"exec\",\"arguments\":\"\"}}\n\n",
            "event: response.function_call_arguments.delta\ndata: {\"type\":\"response.function_call_arguments.delta\",\"output_index\":0,\"delta\":\"{\\\"cmd\\\"\"}\n\n",
        );
        let r = assembled(Provider::Responses, head, 4);
        assert_eq!(r["status"], "in_progress");
        assert_eq!(r["output"][0]["arguments"], "{\"cmd\"");
        let whole = format!(
            "{head}event: response.completed\ndata: {{\"type\":\"response.completed\",\"response\":{{\"id\":\"r1\",\"status\":\"completed\",\"output\":[{{\"type\":\"function_call\",\"call_id\":\"call_1\",\"name\":\"exec\",\"arguments\":\"{{}}\"}}]}}}}\n\n"
        );
        let r = assembled(Provider::Responses, &whole, 9);
        assert_eq!(r["status"], "completed");
        assert_eq!(r["output"][0]["arguments"], "{}");
    }

    #[test]
    fn redaction_masks_strings_in_the_bodies() {
        let call = Call::new(
            Provider::Chat,
            "/v1/chat/completions",
            json!({"messages": [{"role": "user", "content": "my key is sk-proj-abcdefghijklmnop1234"}]}),
            0,
        );
        let line = call.line(None, true);
        assert_eq!(
            line["request"]["messages"][0]["content"],
            "my key is [redacted: key]"
        );
        assert_eq!(
            call.line(None, false)["request"]["messages"][0]["content"],
            "my key is sk-proj-abcdefghijklmnop1234"
        );
    }

    #[test]
    fn side_requests_are_told_apart_once_a_call_with_tools_was_seen_and_each_call_is_written_once()
    {
        let path = std::env::temp_dir().join(format!("als-tap-side-{}.jsonl", std::process::id()));
        let recorder = Recorder::new(File::create(&path).unwrap(), false);
        let tools = json!([{"type": "function", "name": "f"}]);
        let calls = [
            json!({"model": "small", "messages": []}),
            json!({"model": "big", "tools": tools}),
            json!({"model": "small", "messages": []}),
            json!({"model": "small", "tools": tools}),
            json!({"model": "big", "tools": tools}),
        ];
        let ids: Vec<u64> = calls
            .into_iter()
            .map(|req| {
                recorder
                    .begin(Call::new(Provider::Responses, "/v1/responses", req, 0))
                    .0
            })
            .collect();
        for id in &ids[..4] {
            recorder.end(*id, None);
            recorder.end(*id, None);
        }
        assert_eq!(recorder.close("stopped"), (5, None));
        let lines: Vec<Value> = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let sides: Vec<Value> = lines
            .iter()
            .map(|l| l.get("side").cloned().unwrap_or(Value::Null))
            .collect();
        // Before any call with tools nothing is known, so the first is kept in the loop.
        assert_eq!(
            sides,
            [
                Value::Null,
                Value::Null,
                json!("no_tools"),
                Value::Null,
                Value::Null
            ]
        );
        assert_eq!(lines[4]["incomplete"], true);
        assert_eq!(lines[4]["error"], "stopped");
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_line_is_written_as_its_json_with_the_request_written_once_as_the_call_began() {
        let path = std::env::temp_dir().join(format!("als-tap-text-{}.jsonl", std::process::id()));
        for redact in [false, true] {
            let recorder = Recorder::new(File::create(&path).unwrap(), redact);
            let seen = Arc::new(Mutex::new(Vec::new()));
            let into = seen.clone();
            recorder.watch(move |o| into.lock().unwrap().push((o.line, o.request)));
            let request = json!({"model": "m", "messages": [
                {"role": "user", "content": "quote \" slash \\ tab \t 中文 \u{1} key sk-proj-abcdefghijklmnop1234"},
                {"role": "user", "content": [{"type": "text", "text": "x", "n": 1.5e300}]}]});
            let (id, _) = recorder.begin(Call::new(
                Provider::Chat,
                "/v1/chat/completions",
                request,
                0,
            ));
            recorder.end(id, None);
            let (stopped, _) =
                recorder.begin(Call::new(Provider::Chat, "/v1/x", json!({"a": []}), 0));
            assert_eq!(recorder.close("stopped"), (2, None));
            let text = std::fs::read_to_string(&path).unwrap();
            let written: Vec<&str> = text.lines().collect();
            assert_eq!(written.len(), 2);
            for line in &written {
                let value: Value = serde_json::from_str(line).unwrap();
                assert_eq!(*line, value.to_string(), "redact: {redact}");
            }
            let seen = seen.lock().unwrap();
            // Begun, ended; then the call stopped, begun. A call ends
            // with the request it began with, handed over then.
            assert_eq!(seen.len(), 3);
            for (k, (line, request)) in seen.iter().enumerate() {
                let request_there = match k {
                    1 => Value::Null.to_string(),
                    _ => request.text.to_string(),
                };
                assert_eq!(request_there, line["request"].to_string());
                let text = &request.text;
                assert!(written[k / 2].contains(&format!("\"request\":{text},")));
            }
            assert_eq!(seen[0].1.text, seen[1].1.text);
            assert_eq!(
                seen[0].0["request"]["messages"][0]["content"]
                    .as_str()
                    .unwrap()
                    .contains("sk-proj"),
                !redact
            );
            assert!(stopped > id);
        }
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn credentials_in_the_query_are_masked_in_the_recorded_path() {
        assert_eq!(
            recorded_path("/v1beta/models/g:generateContent?key=AIzaSyFAKE&alt=sse"),
            "/v1beta/models/g:generateContent?key=[redacted]&alt=sse"
        );
        assert_eq!(
            recorded_path("/v1/x?access_token=ya29.x&api-version=2024"),
            "/v1/x?access_token=[redacted]&api-version=2024"
        );
        assert_eq!(recorded_path("/v1/messages"), "/v1/messages");
        assert_eq!(recorded_path("/v1/models?limit=5"), "/v1/models?limit=5");
    }

    #[test]
    fn paths_name_their_provider_and_side_endpoints() {
        assert_eq!(
            classify("POST", "/v1/chat/completions"),
            Some((Provider::Chat, None))
        );
        assert_eq!(
            classify("POST", "/v1/responses"),
            Some((Provider::Responses, None))
        );
        assert_eq!(
            classify("POST", "/v1/messages?beta=true"),
            Some((Provider::Anthropic, None))
        );
        assert_eq!(
            classify("POST", "/v1/messages/count_tokens?beta=true"),
            Some((Provider::Anthropic, Some("count_tokens")))
        );
        assert_eq!(classify("GET", "/v1/models"), None);
        assert_eq!(classify("POST", "/v1/embeddings"), None);
    }
}
