//! The list of every transcript format's reader, and what needs the whole
//! list: detection (`Seen::detect`), `Format::ALL` and `Format::reader`.
//! Each format's module names `Format` and `Reader` (`format.rs`,
//! `reader.rs`) and this file names every module, so the list sits above
//! them all and no file names a file that names it back.

use std::cell::OnceCell;

use serde_json::Value;

use super::format::Format;
use super::reader::{Ask, Reader, Score, Seen};
use super::{
    anthropic, chat, claude_code, codex, gemini_cli, mini_swe_agent, openhands, otel, responses,
    swe_agent,
};

/// Every format read, in the order detection asks them.
pub(crate) const READERS: &[Reader] = &[
    chat::READER,
    responses::READER,
    anthropic::READER,
    codex::READER,
    claude_code::READER,
    otel::READER,
    otel::SDK_READER,
    swe_agent::READER,
    mini_swe_agent::READER,
    gemini_cli::READER,
    openhands::READER,
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
}
