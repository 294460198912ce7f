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
mod api;
mod builder;
mod chat;
mod claude_code;
mod clean;
mod codex;
mod errors;
mod exchange;
mod format;
mod gemini_cli;
pub mod growing;
mod jsonl;
mod mini_swe_agent;
mod openhands;
mod otel;
mod patterns;
mod progress;
#[cfg(test)]
mod read_on;
mod reader;
mod readers;
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

use serde_json::Value;

use crate::load::{Loaded, ScenarioError};
use errors::{at_line, error, json_error, not_a_transcript};
use reader::{At, Jsonl, Seen};

pub use builder::{Builder, Earlier};
pub use format::Format;
pub use readers::{detect_bytes, given_as_scenario};
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
    let mut warnings: Vec<String> = opened.warnings.clone();
    // Only a whole file: `FILE#N` opens the one conversation it names.
    if split_run(path).1.is_none() {
        for k in 2..=opened.conversations {
            let other = open_with(&format!("{path}#{k}"), forced, redact)?.loaded;
            count_in_background(&other);
            others.push(other);
        }
    }
    // A Claude Code session's sub-agents: each a conversation of its own.
    if opened.format == Format::ClaudeCode {
        for file in claude_code::subagent_files(Path::new(path)) {
            let file = file.to_string_lossy();
            let sub = open_with(&file, Some(Format::ClaudeCode), redact)?;
            warnings.extend(sub.warnings);
            count_in_background(&sub.loaded);
            others.push(sub.loaded);
        }
    }
    Ok((opened.loaded, others, warnings))
}

/// The simulator's transcript: its tokens counted on a thread of their
/// own while the first frames are drawn (shared by both languages' traces;
/// a frame counts what it needs first itself).
fn count_in_background(loaded: &Loaded) {
    if let Some(trace) = loaded.traces.first() {
        crate::wire::count_in_background(trace, &loaded.counts);
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
        // tau-bench's `traj`, or an OpenHands evaluation's `history`.
        let (said, body) = (run.get("traj").map(|t| (crate::i18n::RESULTS_FILE_RUNS, t)))
            .unwrap_or((crate::i18n::OPENHANDS_OUTPUT_RUNS, &run["history"]));
        builder.note(text::every(said, |_| {
            vec![
                ("count", count.to_string()),
                ("n", n.to_string()),
                ("label", label.clone()),
            ]
        }));
        return document(path, body, line, forced, builder);
    }
    let format = match forced {
        Some(f) => f,
        None => detect_document(value).ok_or_else(|| not_a_transcript(path, line, value))?,
    };
    builder.by_item();
    match format.reader().document {
        Some(read) => read(At::whole_file(path, line), value, builder)?,
        None => {
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

/// The format of a whole-document transcript (or of one line of a JSONL
/// of requests), from its shape.
fn detect_document(value: &Value) -> Option<Format> {
    Seen::Document.detect(value)
}

/// The runs of a results file: a list of objects that each hold a `traj`
/// (a list of messages), as tau-bench writes them, or records of an
/// OpenHands evaluation (`output.jsonl`, each line an `instance_id` and the
/// run's `history` of events).
fn runs_of(value: &Value) -> Option<&Vec<Value>> {
    let runs = value.as_array()?;
    (!runs.is_empty()
        && (runs
            .iter()
            .all(|r| r.get("traj").is_some_and(Value::is_array))
            || runs.iter().all(is_openhands_record)))
    .then_some(runs)
}

/// A line of an OpenHands evaluation's `output.jsonl`.
fn is_openhands_record(record: &Value) -> bool {
    record.get("instance_id").is_some()
        && record
            .get("history")
            .is_some_and(|h| detect_document(h) == Some(Format::new("openhands")))
}

/// " (task_id 3, reward 1.0)": what a results file says of a run.
fn run_label(run: &Value) -> String {
    let parts: Vec<String> = ["task_id", "reward", "instance_id"]
        .iter()
        .filter_map(|k| Some(format!("{k} {}", run.get(*k).filter(|v| !v.is_null())?)))
        .collect();
    match parts.is_empty() {
        true => String::new(),
        false => format!(" ({})", parts.join(", ")),
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
    let mut lines = match jsonl::Lines::new(path, reader).start()? {
        jsonl::First::Line(lines) => lines,
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
            if otel::is_sdk_span(&value) && forced.is_none_or(|f| f == Format::OtelSdk) {
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
    // The first line tells the format; it is read again with the rest.
    let Some((line, first)) = lines.first() else {
        return Err(at_line(path, 1, "the file is empty; expected a transcript"));
    };
    // An OpenHands evaluation's output: a run a line, one of them shown.
    if is_openhands_record(first) && forced.is_none_or(|f| f == Format::new("openhands")) {
        let mut records = Vec::new();
        let expected = "expected a run of an OpenHands evaluation's output, as line 1 is: an object with an \"instance_id\" and a \"history\" of events";
        lines.each(|n, record| {
            let run = is_openhands_record(&record);
            run.then(|| records.push(record))
                .ok_or_else(|| at_line(path, n, expected))
        })?;
        let format = document(path, &Value::Array(records), line, forced, builder)?;
        builder.skipped_lines(lines.truncated());
        return Ok(format);
    }
    let mut format = match forced {
        Some(f) => f,
        None => detect_line(first).ok_or_else(|| not_a_transcript(path, line, first))?,
    };
    match format.reader().jsonl {
        Jsonl::No => return Err(not_a_transcript(path, line, first)),
        Jsonl::Own(read) => read(path, &mut lines, builder)?,
        Jsonl::Requests if split::is_tap_line(first) => {
            let (count, own) = tap_lines(path, &mut lines, forced, builder)?;
            *conversations = count;
            format = own.unwrap_or(format);
        }
        Jsonl::Requests => {
            lines.each(|line, value| request_line(path, &value, line, forced, builder))?;
        }
    }
    builder.skipped_lines(lines.truncated());
    Ok(format)
}

/// A tap's recording: the one conversation of it that `FILE#N` names, side
/// requests apart. Returns how many conversations it holds, and the API of the one shown.
fn tap_lines(
    path: &str,
    lines: &mut jsonl::Lines,
    forced: Option<Format>,
    builder: &mut Builder,
) -> Result<(usize, Option<Format>), ScenarioError> {
    builder.runs_read = true;
    let shown = builder.run.unwrap_or(1);
    let mut splitter = split::Splitter::default();
    // The conversation's own API (each line names its provider): a
    // recording may hold conversations with several.
    let mut own = None;
    let mut read = |placed: Vec<split::Placed>| {
        for p in placed {
            if p.place == split::Place::Conversation(shown - 1) {
                own = own.or(forced).or_else(|| detect_document(&p.value));
                builder.repeats(p.repeats);
                request_line(path, &p.value, p.line, forced, builder)?;
                builder.repeats(0);
            }
        }
        Ok::<(), ScenarioError>(())
    };
    lines.each(|line, value| read(splitter.feed(line, value.into())))?;
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
    Ok((count.max(1), own))
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
    match format.reader().request {
        Some(read) => read(At::jsonl_line(path, line), value, builder),
        None => Err(not_a_transcript(path, line, value)),
    }
}

/// The format of a JSONL file, from its first line.
fn detect_line(value: &Value) -> Option<Format> {
    Seen::FirstLine.detect(value)
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
                "gemini-cli",
                "openhands"
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
