//! Transcripts: a real agent run read from a file, turned into the same
//! `Trace` the engine records, so the lanes, panels, keys and export work on
//! it unchanged.
//!
//! Each format has its own reader (one file each); they all feed one
//! `Builder`, which decides the steps. The format is detected from the
//! content (`--transcript-format` forces it). JSONL is read line by line,
//! never whole; a single JSON document is parsed as one value.
//!
//! Honesty rules: where the file holds a request body, the context of that
//! model call is the request's messages exactly; elsewhere it is rebuilt by
//! the provider's rules and marked "reconstructed"; what the file does not
//! hold (a system prompt, tool schemas) is said to be missing. The host's
//! validation step is never invented: a transcript records none.

mod anthropic;
mod builder;
mod chat;
mod claude_code;
mod clean;
mod codex;
mod errors;
mod exchange;
mod format;
mod gemini_cli;
mod jsonl;
mod mini_swe_agent;
mod otel;
mod patterns;
mod progress;
pub(crate) mod redact;
mod responses;
mod shape;
pub use progress::{Stage, Watch};
pub mod split;
pub mod summary;
mod swe_agent;
mod text;
mod titus;

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

use crate::load::{Loaded, ScenarioError};
use errors::{at_line, error, json_error, not_a_transcript};
use shape::{Lenient, Object, Present};

pub use builder::Builder;
pub use format::Format;
pub use summary::{Summary, summary};
pub use text::unread;

/// A format's name as the screens and messages say it, in English.
pub fn format_name(format: Format) -> &'static str {
    text::format_name(format, crate::scenario::Lang::En)
}

/// A transcript ready to show, and what was skipped on the way.
#[derive(Debug, Clone)]
pub struct Opened {
    pub loaded: Loaded,
    pub format: Format,
    /// One line each, already naming the file: lines skipped and why.
    pub warnings: Vec<String>,
    /// The conversations a tap recording holds (`FILE#N` opens the N-th;
    /// 1 for any other file).
    pub conversations: usize,
}

/// Open a transcript: detect (or take) its format, read it, build traces.
pub fn open(path: &str, forced: Option<Format>) -> Result<Opened, ScenarioError> {
    open_with(path, forced, false)
}

/// `open`, masking likely secrets first when `redact` (`--redact`).
pub fn open_with(
    path: &str,
    forced: Option<Format>,
    redact: bool,
) -> Result<Opened, ScenarioError> {
    open_showing(path, forced, redact, None)
}

/// `open_with`, telling `progress` (the simulator's loading screen) how
/// far the file has been read.
fn open_showing(
    path: &str,
    forced: Option<Format>,
    redact: bool,
    progress: Option<&Watch>,
) -> Result<Opened, ScenarioError> {
    let (path, run) = split_run(path);
    let path = path.as_str();
    let meta = std::fs::metadata(path).map_err(|e| {
        error(
            path,
            None,
            match e.kind() {
                std::io::ErrorKind::NotFound => "no such file; expected a transcript file".into(),
                _ => format!("cannot read: {}", io_reason(&e)),
            },
        )
    })?;
    if !meta.is_file() {
        return Err(error(
            path,
            None,
            "is not a regular file; expected a transcript file (JSON or JSONL)",
        ));
    }
    let file = File::open(path)
        .map_err(|e| error(path, None, format!("cannot read: {}", io_reason(&e))))?;
    if let Some(watch) = progress {
        watch.reading(&file, meta.len());
    }
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let first = first_byte(&mut reader)
        .map_err(|e| error(path, None, format!("cannot read: {}", io_reason(&e))))?;
    let name = display_name(path);
    let mut builder = Builder::new(&name);
    builder.redact = redact;
    builder.run = run;
    let mut conversations = 1;
    let format = match first {
        None => {
            return Err(at_line(
                path,
                1,
                "the file is empty; expected a transcript (JSON or JSONL)",
            ));
        }
        Some(b'[') => read_document(path, reader, forced, &mut builder)?,
        Some(b'{') => read_lines(path, reader, forced, &mut builder, &mut conversations)?,
        Some(first) => {
            let holds = match first {
                b'"' => "a JSON string".to_string(),
                b'-' | b'0'..=b'9' => "a JSON number".to_string(),
                _ => {
                    let start = reader.fill_buf().unwrap_or_default();
                    let word = |w: &[u8]| {
                        start.strip_prefix(w).is_some_and(|after| {
                            after.first().is_none_or(|b| !b.is_ascii_alphanumeric())
                        })
                    };
                    if word(b"null") {
                        "JSON null".to_string()
                    } else if word(b"true") || word(b"false") {
                        "a JSON boolean".to_string()
                    } else {
                        "text that is not JSON".to_string()
                    }
                }
            };
            return Err(at_line(
                path,
                1,
                format!(
                    "the file holds {holds}; expected a transcript: a JSON document [ ... ] \
                     or JSON lines {{ ... }}"
                ),
            ));
        }
    };
    if let Some(n) = run.filter(|&n| n != 1 && !builder.runs_read) {
        return Err(error(
            path,
            None,
            format!(
                "the file holds one run; run {n} is not one of them (the file itself, or FILE#1)"
            ),
        ));
    }
    let warnings = builder.warnings(path);
    let loaded = builder.finish(format, path)?;
    Ok(Opened {
        loaded,
        format,
        warnings,
        conversations,
    })
}

/// `FILE#N`: run N (1-based) of a file that holds many runs (a tau-bench
/// results file). Only where `FILE#N` itself is not a file.
fn split_run(path: &str) -> (String, Option<usize>) {
    if Path::new(path).exists() {
        return (path.to_string(), None);
    }
    match path.rsplit_once('#') {
        Some((file, n)) if Path::new(file).is_file() => match n.parse::<usize>() {
            Ok(n) => (file.to_string(), Some(n)),
            Err(_) => (path.to_string(), None),
        },
        _ => (path.to_string(), None),
    }
}

/// Open a transcript for a command: warnings go to stderr, one line each.
pub fn load(path: &str, forced: Option<Format>, redact: bool) -> Result<Loaded, ScenarioError> {
    load_showing(path, forced, redact, None)
}

/// `load`, telling `progress` (the simulator's loading screen) how far
/// the file has been read.
pub fn load_showing(
    path: &str,
    forced: Option<Format>,
    redact: bool,
    progress: Option<&Watch>,
) -> Result<Loaded, ScenarioError> {
    let opened = open_showing(path, forced, redact, progress)?;
    for warning in &opened.warnings {
        eprintln!("{warning}");
    }
    Ok(opened.loaded)
}

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
}

impl Growing {
    pub fn new(name: &str, redact: bool) -> Growing {
        Growing {
            name: crate::safe::escape(name).into_owned(),
            redact,
            splitter: split::Splitter::default(),
            conversations: Vec::new(),
            lines: 0,
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
    pub fn push(&mut self, line: Value) {
        self.lines += 1;
        let placed = self.splitter.feed(self.lines, line);
        self.place(placed);
    }

    fn place(&mut self, placed: Vec<(usize, Value, split::Place)>) {
        for (line, value, place) in placed {
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
            let read = detect_document(&value).ok_or(()).and_then(|f| {
                request_line(&self.name, &value, line, Some(f), builder)
                    .map(|()| f)
                    .map_err(|_| ())
            });
            match read {
                Ok(f) => {
                    format.get_or_insert(f);
                }
                Err(()) => builder.skip("unreadable request", line),
            }
        }
    }

    /// The runs: what is read for good, then `pending` (the lines after
    /// it, which may still change), as one run per conversation.
    pub fn runs(&self, pending: Vec<Value>) -> Vec<Loaded> {
        let mut all = self.clone();
        for line in pending {
            all.push(line);
        }
        let held = all.splitter.finish();
        all.place(held);
        let count = all.conversations.len();
        let splitter = &all.splitter;
        let name = &all.name;
        all.conversations
            .into_iter()
            .enumerate()
            .filter_map(|(k, (mut builder, format))| {
                let title = match count {
                    1 => name.clone(),
                    _ => format!("{name}#{}", k + 1),
                };
                builder.rename(&title);
                for note in split::notes(splitter, k, split::Places::Requests) {
                    builder.note(note);
                }
                builder.finish(format?, &title).ok()
            })
            .collect()
    }
}

/// `load_showing`, and for a tap recording of several conversations the
/// others too (`FILE#2`, `FILE#3`, …), in order.
pub fn load_all(
    path: &str,
    forced: Option<Format>,
    redact: bool,
    progress: Option<&Watch>,
) -> Result<(Loaded, Vec<Loaded>), ScenarioError> {
    let (loaded, others, warnings) = open_all(path, forced, redact, progress)?;
    for warning in &warnings {
        eprintln!("{warning}");
    }
    Ok((loaded, others))
}

/// `load_all`, its warnings returned (one line each) rather than printed:
/// the simulator prints them when it gives the terminal back.
pub fn open_all(
    path: &str,
    forced: Option<Format>,
    redact: bool,
    progress: Option<&Watch>,
) -> Result<(Loaded, Vec<Loaded>, Vec<String>), ScenarioError> {
    let opened = open_showing(path, forced, redact, progress)?;
    count_in_background(&opened.loaded);
    let mut others = Vec::new();
    // Only a whole file: `FILE#N` opens the one conversation it names.
    if split_run(path).1.is_none() {
        for k in 2..=opened.conversations {
            let other = open_with(&format!("{path}#{k}"), forced, redact)?.loaded;
            count_in_background(&other);
            others.push(other);
        }
    }
    let warnings = opened.warnings.iter().map(ToString::to_string).collect();
    Ok((opened.loaded, others, warnings))
}

/// The simulator's transcript: its tokens counted on a thread of their
/// own while the first frames are drawn (shared by both languages' traces;
/// a frame counts what it needs first itself).
fn count_in_background(loaded: &Loaded) {
    if let Some(trace) = loaded.traces.first() {
        let texts = trace.messages.iter().map(|m| m.text.clone()).collect();
        let bodies = trace
            .model_calls
            .iter()
            .map(|mc| mc.body.as_ref().map(|b| b.request.clone()))
            .collect();
        trace.counts.count_in_background(texts, bodies);
    }
}

fn io_reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// The file's name without its folders, for titles (folders may be
/// private), made safe: a name is text from outside like any other (an
/// `ESC ] 0 ;` in it would retitle the window, an OSC 52 set the clipboard).
fn display_name(path: &str) -> String {
    let name = Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned());
    crate::safe::escape(&name).into_owned()
}

/// The first byte that is not whitespace or a UTF-8 byte-order mark, left
/// in the reader.
fn first_byte(reader: &mut impl BufRead) -> std::io::Result<Option<u8>> {
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(None);
        }
        if buf.starts_with(b"\xEF\xBB\xBF") {
            reader.consume(3);
            continue;
        }
        match buf.iter().position(|b| !b.is_ascii_whitespace()) {
            Some(i) => {
                let b = buf[i];
                reader.consume(i);
                return Ok(Some(b));
            }
            None => {
                let n = buf.len();
                reader.consume(n);
            }
        }
    }
}

/// A file that starts with `[`: one JSON document, a messages or items array.
fn read_document(
    path: &str,
    reader: impl Read,
    forced: Option<Format>,
    builder: &mut Builder,
) -> Result<Format, ScenarioError> {
    let value: Value = serde_json::from_reader(reader).map_err(|e| json_error(path, &e))?;
    document(path, &value, 1, forced, builder)
}

/// One JSON value that is a whole transcript (or one line's request).
fn document(
    path: &str,
    value: &Value,
    line: usize,
    forced: Option<Format>,
    builder: &mut Builder,
) -> Result<Format, ScenarioError> {
    // A file of many runs (tau-bench results: `[{task_id, reward, traj}]`):
    // one of them, chosen with FILE#N.
    if let Some(runs) = runs_of(value) {
        builder.runs_read = true;
        let n = builder.run.unwrap_or(1);
        let Some(run) = runs.get(n.wrapping_sub(1)) else {
            return Err(at_line(
                path,
                line,
                format!(
                    "the file holds {} runs; run {n} is not one of them (FILE#1 to FILE#{})",
                    runs.len(),
                    runs.len()
                ),
            ));
        };
        let label = run_label(run);
        let count = runs.len();
        builder.note(text::every(crate::i18n::RESULTS_FILE_RUNS, |_| {
            vec![
                ("count", count.to_string()),
                ("n", n.to_string()),
                ("label", label.clone()),
            ]
        }));
        return document(path, &run["traj"], line, forced, builder);
    }
    let format = match forced {
        Some(f) => f,
        None => detect_document(value).ok_or_else(|| not_a_transcript(path, line, value))?,
    };
    builder.by_item();
    match format {
        Format::SweAgent => swe_agent::document(path, value, builder)?,
        Format::MiniSweAgent => mini_swe_agent::document(path, value, builder)?,
        Format::GeminiCli => gemini_cli::document(path, value, builder)?,
        Format::OtelSdk => {
            match value {
                Value::Array(spans) => {
                    for (i, span) in spans.iter().enumerate() {
                        otel::sdk_span(span, i + 1, builder);
                    }
                }
                span => otel::sdk_span(span, 1, builder),
            }
            otel::finish(builder);
        }
        Format::Chat => chat::document(path, value, line, true, builder)?,
        Format::Anthropic => anthropic::document(path, value, line, true, builder)?,
        Format::Responses => responses::document(path, value, line, true, builder)?,
        Format::Otel => {
            otel::document(path, value, line, true, builder)?;
            otel::finish(builder);
        }
        Format::Codex | Format::ClaudeCode => {
            return Err(at_line(
                path,
                line,
                format!(
                    "a {} file is JSON lines, one object per line; this file is one JSON document",
                    format.code()
                ),
            ));
        }
    }
    Ok(format)
}

/// The format of a whole-document transcript, from its shape.
fn detect_document(value: &Value) -> Option<Format> {
    match value {
        Value::Array(items) if items.first().is_some_and(is_sdk_span) => Some(Format::OtelSdk),
        Value::Array(items) if gemini_cli::is_checkpoint(items) => Some(Format::GeminiCli),
        Value::Array(items) => detect_items(items),
        Value::Object(o) => {
            if o.contains_key("resourceSpans") {
                return Some(Format::Otel);
            }
            // A line of `export --format requests` (or of `tap`) names its
            // provider.
            if o.contains_key("request")
                && let Some(p) = o.get("provider").and_then(Value::as_str)
                && let Some(format) = Format::of_provider(p)
            {
                return Some(format);
            }
            if is_sdk_span(value) {
                return Some(Format::OtelSdk);
            }
            if o.get("history").is_some_and(Value::is_array)
                && (o.contains_key("trajectory") || o.contains_key("info"))
            {
                return Some(Format::SweAgent);
            }
            if mini_swe_agent::is_trajectory(o) {
                return Some(Format::MiniSweAgent);
            }
            if gemini_cli::is_session(o) {
                return Some(Format::GeminiCli);
            }
            if let Some(request) = o.get("request").or_else(|| o.get("body")) {
                // The response's shape settles what the request leaves open.
                let response = o.get("response").map(|r| r.get("body").unwrap_or(r));
                return match (detect_document(request), response.and_then(response_format)) {
                    (Some(Format::Chat), Some(by_response)) => Some(by_response),
                    (found, by_response) => found.or(by_response),
                };
            }
            if o.contains_key("input")
                || o.get("object").and_then(Value::as_str) == Some("response")
            {
                return Some(Format::Responses);
            }
            let messages = o.get("messages")?.as_array()?;
            let anthropic_tools = o
                .get("tools")
                .and_then(Value::as_array)
                .is_some_and(|t| t.iter().any(|t| t.get("input_schema").is_some()));
            // Keys only the Messages API takes, or a Claude model.
            let anthropic_keys = ["anthropic_version", "stop_sequences", "top_k"]
                .iter()
                .any(|k| o.contains_key(*k))
                || o.get("model")
                    .and_then(Value::as_str)
                    .is_some_and(|m| m.starts_with("claude"));
            if o.contains_key("system") || anthropic_tools {
                return Some(Format::Anthropic);
            }
            match detect_items(messages) {
                Some(Format::Chat) if anthropic_keys && !chat_signals(&signals(messages)) => {
                    Some(Format::Anthropic)
                }
                found => found.or(Some(Format::Chat)),
            }
        }
        _ => None,
    }
}

/// A span as the OpenTelemetry SDKs print it: a `name`, a `context` with
/// its `span_id`, and `attributes` as an object.
fn is_sdk_span(v: &Value) -> bool {
    v.get("name").is_some_and(Value::is_string)
        && v.pointer("/context/span_id").is_some()
        && v.get("attributes").is_some_and(Value::is_object)
}

/// The runs of a results file: a list of objects that each hold a `traj`
/// (a list of messages), as tau-bench writes them.
fn runs_of(value: &Value) -> Option<&Vec<Value>> {
    let runs = value.as_array()?;
    (!runs.is_empty()
        && runs
            .iter()
            .all(|r| r.get("traj").is_some_and(Value::is_array)))
    .then_some(runs)
}

/// " (task_id 3, reward 1.0)": what a results file says of a run.
fn run_label(run: &Value) -> String {
    let parts: Vec<String> = ["task_id", "reward"]
        .iter()
        .filter_map(|k| Some(format!("{k} {}", run.get(*k).filter(|v| !v.is_null())?)))
        .collect();
    match parts.is_empty() {
        true => String::new(),
        false => format!(" ({})", parts.join(", ")),
    }
}

/// What telling the formats apart reads of a message or an item: its
/// `type` and `role`, whether it carries a key only Chat has, and the
/// blocks of its content when that is a list.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Signals<'a> {
    #[serde(rename = "type", borrow)]
    kind: Lenient<&'a str>,
    #[serde(borrow)]
    role: Lenient<&'a str>,
    tool_calls: Present<IgnoredAny>,
    tool_call_id: Present<IgnoredAny>,
    function_call: Present<IgnoredAny>,
    #[serde(borrow)]
    content: Lenient<Vec<Object<Block<'a>>>>,
}

/// A content block's `type` (there, even when not a string).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Block<'a> {
    #[serde(rename = "type", borrow)]
    kind: Present<Lenient<&'a str>>,
}

impl Signals<'_> {
    /// The content's blocks; none when it is not a list.
    fn blocks(&self) -> &[Object<Block<'_>>] {
        self.content.0.as_deref().unwrap_or_default()
    }

    /// A block of this type in its content.
    fn has_block(&self, t: &str) -> bool {
        self.blocks()
            .iter()
            .any(|b| b.0.as_ref().and_then(|b| b.kind.value.0) == Some(t))
    }
}

fn signals(items: &[Value]) -> Vec<Signals<'_>> {
    items.iter().map(Object::<Signals>::of).collect()
}

/// A messages or items array: Responses items carry a `type`, Anthropic
/// messages carry content blocks, Chat messages a `role` (and tool roles).
fn detect_items(items: &[Value]) -> Option<Format> {
    if items.is_empty() || !items.iter().all(Value::is_object) {
        return None;
    }
    let items = signals(items);
    let typed = |t: &str| items.iter().any(|i| i.kind.0 == Some(t));
    if [
        "function_call",
        "function_call_output",
        "message",
        "reasoning",
        "custom_tool_call",
    ]
    .iter()
    .any(|t| typed(t))
    {
        return Some(Format::Responses);
    }
    if !items.iter().all(|i| i.role.0.is_some()) {
        return None;
    }
    let block = |t: &str| items.iter().any(|i| i.has_block(t));
    if ["tool_use", "tool_result", "thinking", "redacted_thinking"]
        .iter()
        .any(|t| block(t))
    {
        return Some(Format::Anthropic);
    }
    // Content as a list of typed blocks, and nothing only Chat has.
    let blocks = items.iter().any(|i| {
        i.content.0.as_ref().is_some_and(|c| {
            !c.is_empty() && c.iter().all(|b| b.0.as_ref().is_some_and(|b| b.kind.there))
        })
    });
    if blocks && !chat_signals(&items) {
        return Some(Format::Anthropic);
    }
    Some(Format::Chat)
}

/// What only OpenAI Chat messages have: system, developer and tool roles,
/// `tool_calls`, `tool_call_id`, `function_call`, and content parts of
/// Chat's own types.
fn chat_signals(items: &[Signals]) -> bool {
    items.iter().any(|i| {
        matches!(i.role.0, Some("system" | "developer" | "tool" | "function"))
            || i.tool_calls.there
            || i.tool_call_id.there
            || i.function_call.there
            || ["image_url", "input_audio", "refusal", "file"]
                .iter()
                .any(|t| i.has_block(t))
    })
}

/// A response's provider, from its shape: Chat's `choices`, the Messages
/// API's `type: "message"` with `content` blocks, Responses' `output`.
fn response_format(r: &Value) -> Option<Format> {
    if r.get("choices").is_some() {
        Some(Format::Chat)
    } else if r.get("type").and_then(Value::as_str) == Some("message") && r.get("content").is_some()
    {
        Some(Format::Anthropic)
    } else if r.get("output").is_some() {
        Some(Format::Responses)
    } else {
        None
    }
}

/// A file that starts with `{`: JSON lines, or one multi-line document.
fn read_lines(
    path: &str,
    reader: BufReader<File>,
    forced: Option<Format>,
    builder: &mut Builder,
    conversations: &mut usize,
) -> Result<Format, ScenarioError> {
    let (mut lines, first) = match jsonl::Lines::new(path, reader).start()? {
        jsonl::First::Line(lines, line, value) => (lines, (line, value)),
        jsonl::First::Document(mut reader) => {
            // The first line is not a whole JSON value: one pretty-printed
            // document, or (as the OpenTelemetry console exporter prints
            // them) pretty-printed spans one after another. Read as text:
            // a request body written out whole is kept as written.
            let mut text = String::new();
            reader
                .read_to_string(&mut text)
                .map_err(|e| error(path, None, format!("cannot read: {}", io_reason(&e))))?;
            let mut values = serde_json::Deserializer::from_str(&text).into_iter::<Value>();
            let value = match values.next() {
                Some(v) => v.map_err(|e| json_error(path, &e))?,
                None => return Err(at_line(path, 1, "the file is empty; expected a transcript")),
            };
            if is_sdk_span(&value) && forced.is_none_or(|f| f == Format::OtelSdk) {
                otel::sdk_span(&value, 1, builder);
                builder.by_item();
                for (i, v) in values.enumerate() {
                    otel::sdk_span(&v.map_err(|e| json_error(path, &e))?, i + 2, builder);
                }
                otel::finish(builder);
                return Ok(Format::OtelSdk);
            }
            let format = document(path, &value, 1, forced, builder)?;
            builder.written_whole(&value, &text);
            return Ok(format);
        }
    };
    let mut format = match forced {
        Some(f) => f,
        None => detect_line(&first.1).ok_or_else(|| not_a_transcript(path, first.0, &first.1))?,
    };
    match format {
        Format::OtelSdk => {
            let mut next = Some(first);
            while let Some((line, value)) = next {
                otel::sdk_span(&value, line, builder);
                next = lines.next_value()?;
            }
            otel::finish(builder);
        }
        Format::SweAgent | Format::MiniSweAgent => {
            return Err(not_a_transcript(path, first.0, &first.1));
        }
        Format::GeminiCli => gemini_cli::read(path, first, &mut lines, builder)?,
        Format::Codex => codex::read(path, first, &mut lines, builder)?,
        Format::ClaudeCode => claude_code::read(path, first, &mut lines, builder)?,
        Format::Otel => {
            otel::document(path, &first.1, first.0, false, builder)?;
            while let Some((line, value)) = lines.next_value()? {
                otel::document(path, &value, line, false, builder)?;
            }
            otel::finish(builder);
        }
        Format::Chat | Format::Responses | Format::Anthropic if split::is_tap_line(&first.1) => {
            // A tap's recording: one conversation of it, side requests apart.
            builder.runs_read = true;
            let shown = builder.run.unwrap_or(1);
            let mut splitter = split::Splitter::default();
            // The conversation's own API (each line names its provider):
            // a recording may hold conversations with several.
            let mut own = None;
            let mut read = |placed: Vec<(usize, Value, split::Place)>| {
                for (line, value, place) in placed {
                    if place == split::Place::Conversation(shown - 1) {
                        own = own.or(forced).or_else(|| detect_document(&value));
                        request_line(path, &value, line, forced, builder)?;
                    }
                }
                Ok::<(), ScenarioError>(())
            };
            let mut next = Some(first);
            while let Some((line, value)) = next.take() {
                read(splitter.feed(line, value))?;
                next = lines.next_value()?;
            }
            read(splitter.finish())?;
            let count = splitter.conversations.len();
            if shown > count.max(1) {
                return Err(error(
                    path,
                    None,
                    format!(
                        "the recording holds {count} conversations; conversation {shown} is not one of them (FILE#1 to FILE#{count})"
                    ),
                ));
            }
            for note in split::notes(&splitter, shown - 1, split::Places::Lines) {
                builder.note(note);
            }
            if count > 1 {
                // Titled as the live view titles it, and as it is opened.
                builder.rename(&format!("{}#{shown}", display_name(path)));
            }
            *conversations = count.max(1);
            format = own.unwrap_or(format);
        }
        Format::Chat | Format::Responses | Format::Anthropic => {
            let mut next = Some(first);
            while let Some((line, value)) = next {
                request_line(path, &value, line, forced, builder)?;
                next = lines.next_value()?;
            }
        }
    }
    builder.skipped_lines(lines.truncated());
    Ok(format)
}

/// One line of a JSONL of model calls: a request body, `{request, response}`
/// or a batch line `{custom_id, body}`. Each line's provider is its own.
fn request_line(
    path: &str,
    value: &Value,
    line: usize,
    forced: Option<Format>,
    builder: &mut Builder,
) -> Result<(), ScenarioError> {
    let format = match forced {
        Some(f) => f,
        None => detect_document(value).ok_or_else(|| not_a_transcript(path, line, value))?,
    };
    match format {
        Format::Chat => chat::document(path, value, line, false, builder),
        Format::Anthropic => anthropic::document(path, value, line, false, builder),
        Format::Responses => responses::document(path, value, line, false, builder),
        Format::Otel => otel::document(path, value, line, false, builder),
        Format::Codex
        | Format::ClaudeCode
        | Format::OtelSdk
        | Format::SweAgent
        | Format::MiniSweAgent
        | Format::GeminiCli => Err(not_a_transcript(path, line, value)),
    }
}

/// The format of a JSONL file, from its first line.
fn detect_line(value: &Value) -> Option<Format> {
    let o = value.as_object()?;
    let kind = o.get("type").and_then(Value::as_str);
    if o.contains_key("payload") && kind.is_some() && o.contains_key("timestamp") {
        return Some(Format::Codex);
    }
    // A Codex rollout from before the `payload` lines: `{id, timestamp,
    // instructions}` first, or a `{"record_type": "state"}` marker.
    let legacy_header = kind.is_none() && o.contains_key("id") && o.contains_key("timestamp");
    if legacy_header || o.contains_key("record_type") {
        return Some(Format::Codex);
    }
    if o.contains_key("resourceSpans") {
        return Some(Format::Otel);
    }
    if is_sdk_span(value) {
        return Some(Format::OtelSdk);
    }
    // A Gemini CLI JSONL session's metadata line (no `type`, unlike
    // Claude Code's lines, which also name a `sessionId`).
    if kind.is_none() && gemini_cli::is_session(o) {
        return Some(Format::GeminiCli);
    }
    let claude_keys = ["uuid", "parentUuid", "sessionId", "leafUuid", "messageId"];
    if kind.is_some() && claude_keys.iter().any(|k| o.contains_key(*k)) {
        return Some(Format::ClaudeCode);
    }
    detect_document(value)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::clean::{clean, clean_json};
    use super::*;

    #[test]
    fn a_format_has_one_name_on_the_command_line_and_in_file_names() {
        use clap::ValueEnum as _;
        let names: Vec<&str> = Format::ALL.map(Format::code).to_vec();
        assert_eq!(
            names,
            [
                "chat",
                "responses",
                "anthropic",
                "codex",
                "claude-code",
                "otel",
                "otel-sdk",
                "swe-agent",
                "mini-swe-agent",
                "gemini-cli"
            ]
        );
        for format in Format::ALL {
            let value = format.to_possible_value().unwrap();
            assert_eq!(value.get_name(), format.code());
        }
    }

    #[test]
    fn the_format_is_told_from_the_shape() {
        let chat = json!([{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "a", "content": "x"}]);
        assert_eq!(detect_document(&chat), Some(Format::Chat));
        let anthropic =
            json!([{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a"}]}]);
        assert_eq!(detect_document(&anthropic), Some(Format::Anthropic));
        let body = json!({"system": "s", "messages": [{"role": "user", "content": "hi"}]});
        assert_eq!(detect_document(&body), Some(Format::Anthropic));
        let items =
            json!([{"role": "user", "content": "hi"}, {"type": "function_call", "call_id": "c"}]);
        assert_eq!(detect_document(&items), Some(Format::Responses));
        assert_eq!(
            detect_document(&json!({"input": "hi"})),
            Some(Format::Responses)
        );
        assert_eq!(
            detect_document(&json!({"resourceSpans": []})),
            Some(Format::Otel)
        );
        assert_eq!(detect_document(&json!({"name": "x", "version": "1"})), None);
        assert_eq!(detect_document(&json!([])), None);
        let codex = json!({"timestamp": "t", "type": "session_meta", "payload": {}});
        assert_eq!(detect_line(&codex), Some(Format::Codex));
        let claude = json!({"type": "summary", "summary": "s", "leafUuid": "u"});
        assert_eq!(detect_line(&claude), Some(Format::ClaudeCode));
    }

    #[test]
    fn escapes_and_bidi_controls_are_shown_not_obeyed() {
        assert_eq!(clean("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(clean("\u{202e}evil"), "\\u{202e}evil");
        assert_eq!(clean("tab\there\r\nnext"), "tab    here\nnext");
        assert_eq!(clean("中文 ok"), "中文 ok");
        // Arguments: escapes in JSON strings are what the trace will show.
        assert_eq!(
            clean_json(r#"{"path": "a\u009b2J\u202eb", "n": 1}"#),
            r#"{"path":"a\\u{9b}2J\\u{202e}b","n":1}"#
        );
        assert_eq!(
            clean_json(r#"{"p\u001b": ["\u200b"]}"#),
            r#"{"p\\u{1b}":["\\u{200b}"]}"#
        );
        assert_eq!(clean_json(r#"{"path": "ok"}"#), r#"{"path": "ok"}"#);
        assert_eq!(clean_json("not json \u{1b}"), "not json \\u{1b}");
    }
}
