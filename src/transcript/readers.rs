//! The list of every transcript format's reader, and what needs the whole
//! list: detection (`Seen::detect`), `Format::ALL` and `Format::reader`.
//! Each format's module names `Format` and `Reader` (`format.rs`,
//! `reader.rs`) and this file names every module, so the list sits above
//! them all and no file names a file that names it back.

use std::cell::OnceCell;
use std::io::Read;

use serde_json::Value;

use crate::load::ScenarioError;

use super::format::Format;
use super::reader::{Ask, Reader, Score, Seen};

/// Every format read, in the order detection asks them: a new format is
/// one line here.
pub(crate) const READERS: &[Reader] = &[
    super::chat::READER,
    super::responses::READER,
    super::anthropic::READER,
    super::codex::READER,
    super::claude_code::READER,
    super::otel::READER,
    super::otel::SDK_READER,
    super::swe_agent::READER,
    super::mini_swe_agent::READER,
    super::gemini_cli::READER,
    super::openhands::READER,
];

impl Seen {
    /// The format that recognises `value` best, if any does.
    pub(crate) fn detect(self, value: &Value) -> Option<Format> {
        let seen = self;
        let ask = Ask {
            seen,
            api: OnceCell::new(),
        };
        let mut best: Option<(Score, Format)> = None;
        for reader in READERS {
            let score = (reader.score)(value, &ask);
            if score > 0 && best.is_none_or(|(b, _)| score > b) {
                best = Some((score, reader.format));
            }
        }
        best.map(|(_, format)| format)
    }
}

/// The transcript format a file's bytes read as, from its first line (JSON
/// lines) or else the whole document; None if neither does. A scenario
/// file given where a transcript belongs is told apart by it.
pub fn detect_bytes(bytes: &[u8]) -> Option<Format> {
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    serde_json::from_slice::<Value>(first)
        .ok()
        .and_then(|v| Seen::FirstLine.detect(&v))
        .or_else(|| {
            serde_json::from_slice::<Value>(bytes)
                .ok()
                .and_then(|v| Seen::Document.detect(&v))
        })
}

/// A file given where a scenario belongs that is a transcript (`trace
/// session.jsonl`): the error that says so and how to open it, to say in
/// place of the scenario fields its first line lacks. None for any other
/// file (or a shipped scenario's name).
pub fn given_as_scenario(path: &str) -> Option<ScenarioError> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(crate::load::MAX_FILE_BYTES).read_to_end(&mut bytes))
        .ok()?;
    let format = detect_bytes(&bytes)?;
    Some(ScenarioError {
        file: path.to_string(),
        place: None,
        message: format!(
            "this is a transcript ({}), not a scenario; open it with --transcript {path}",
            super::text::format_name(format, crate::scenario::Lang::En)
        ),
    })
}

impl Format {
    /// Every format read, in the order detection asks them.
    pub const ALL: [Format; READERS.len()] = {
        let mut all = [Format::new(""); READERS.len()];
        let mut i = 0;
        while i < READERS.len() {
            all[i] = READERS[i].format;
            i += 1;
        }
        all
    };

    /// The format of this code (`chat`, `claude-code`, …), if one is read.
    pub fn named(code: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.code() == code)
    }

    /// What reads this format and says what it is.
    pub(crate) fn reader(self) -> &'static Reader {
        // Every `Format` is one of READERS' (a test checks the constants).
        READERS
            .iter()
            .find(|r| r.format == self)
            .unwrap_or(&READERS[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::reader::Jsonl;

    #[test]
    fn every_format_is_one_reader() {
        for (i, reader) in READERS.iter().enumerate() {
            assert_eq!(reader.format.reader().format, reader.format);
            assert!(
                READERS[..i].iter().all(|r| r.format != reader.format),
                "{:?} listed twice",
                reader.format
            );
            let reads = reader.document.is_some() || !matches!(reader.jsonl, Jsonl::No);
            assert!(reads, "{:?} reads nothing", reader.format);
        }
        let named = [
            Format::Chat,
            Format::Responses,
            Format::Anthropic,
            Format::Codex,
            Format::ClaudeCode,
            Format::Otel,
            Format::OtelSdk,
            Format::SweAgent,
            Format::MiniSweAgent,
            Format::GeminiCli,
        ];
        for format in named {
            assert!(Format::ALL.contains(&format), "{format:?} has no reader");
        }
    }

    /// What each reader is, as `Reader::new` and what follows it build it:
    /// the API drawn, how results pair (the API's own unless `paired`),
    /// and what it reads (a document, a line of a JSONL of model calls,
    /// JSON lines of its own or of requests).
    #[test]
    fn each_reader_is_built_as_its_format_reads() {
        use crate::transcript::format::PairRule::*;
        use crate::wire::Provider::*;
        let jsonl = |r: &Reader| match r.jsonl {
            Jsonl::No => "no",
            Jsonl::Requests => "requests",
            Jsonl::Own(_) => "own",
        };
        let built: Vec<String> = READERS
            .iter()
            .map(|r| {
                format!(
                    "{:?} {:?} {:?} document={} request={} jsonl={}",
                    r.format,
                    r.provider,
                    r.pairing,
                    r.document.is_some(),
                    r.request.is_some(),
                    jsonl(r)
                )
            })
            .collect();
        let expected = [
            (Format::Chat, Chat, ToolCallId, true, true, "requests"),
            (Format::Responses, Responses, CallId, true, true, "requests"),
            (Format::Anthropic, Anthropic, ToolUseId, true, true, "requests"),
            (Format::Codex, Responses, CallId, false, false, "own"),
            (Format::ClaudeCode, Anthropic, ToolUseId, false, false, "own"),
            (Format::Otel, Chat, PartId, true, true, "own"),
            (Format::OtelSdk, Chat, PartId, true, false, "own"),
            (Format::SweAgent, Chat, ToolCallId, true, false, "no"),
            (Format::MiniSweAgent, Chat, ToolCallId, true, false, "no"),
            (Format::GeminiCli, Chat, FunctionResponseId, true, false, "own"),
            (Format::new("openhands"), Chat, ToolCallId, true, false, "no"),
        ]
        .map(|(format, provider, pairing, document, request, jsonl)| {
            format!("{format:?} {provider:?} {pairing:?} document={document} request={request} jsonl={jsonl}")
        });
        assert_eq!(built, expected);
    }
}
