//! Tokens, counted with a real tokenizer: OpenAI's `o200k_base` encoding
//! (the GPT-4o and GPT-4.1 family), from bpe-openai (GitHub's byte-pair
//! encoder, the same encoding tiktoken has, counted faster: a 2,000-call
//! run's 20 MB of tool output is counted once at open; a test checks that
//! every text this program counts gets tiktoken's count). A request's count
//! is the texts it carries plus OpenAI's documented overhead for chat
//! messages (three tokens a message and three to prime the reply); the
//! provider's own count can differ by a few tokens. Anthropic's tokenizer
//! is not public, so for Anthropic requests the same count is labelled an
//! estimate.

/// Tokens added for each message of a chat request (the role and the
/// separators around it), as OpenAI's cookbook counts them.
pub const PER_MESSAGE: usize = 3;

/// Tokens that prime the assistant's reply, once a request.
pub const REPLY_PRIMING: usize = 3;

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Pieces (the pre-tokenizer's words, numbers, runs of punctuation or
/// space) up to this many bytes have their count remembered: a long run
/// repeats the same identifiers and words thousands of times, and a
/// piece's count depends on the piece alone.
const REMEMBERED_PIECE: usize = 32;

/// At most this many pieces are remembered (a few MB).
const REMEMBERED_PIECES: usize = 1 << 17;

/// FNV-1a: the pieces are short, and SipHash would cost about what
/// counting a short piece does.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type Pieces = HashMap<Box<[u8]>, u32, BuildHasherDefault<Fnv>>;

thread_local! {
    static PIECES: RefCell<Pieces> = RefCell::new(Pieces::default());
}

/// The number of `o200k_base` tokens in `text` (no special tokens): the
/// text split as the encoding's pattern splits it, each piece's tokens
/// summed, as `bpe_openai::Tokenizer::count` does (o200k_base has no
/// normalisation step).
pub fn count(text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    #[cfg(test)]
    tests::saw(text);
    let tokenizer = bpe_openai::o200k_base();
    PIECES.with(|pieces| {
        let mut pieces = pieces.borrow_mut();
        tokenizer
            .split(text)
            .map(|piece| {
                let bytes = piece.as_bytes();
                if bytes.len() > REMEMBERED_PIECE {
                    return tokenizer.bpe.count(bytes);
                }
                if let Some(&n) = pieces.get(bytes) {
                    return n as usize;
                }
                let n = tokenizer.bpe.count(bytes);
                if pieces.len() < REMEMBERED_PIECES {
                    pieces.insert(bytes.into(), n as u32);
                }
                n
            })
            .sum()
    })
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::path::Path;

    use super::*;

    thread_local! {
        /// Every text `count` is asked about on this thread, while a test
        /// collects them.
        static SEEN: RefCell<Option<Vec<String>>> = const { RefCell::new(None) };
    }

    pub(super) fn saw(text: &str) {
        SEEN.with(|s| {
            if let Some(seen) = s.borrow_mut().as_mut() {
                seen.push(text.to_string());
            }
        });
    }

    fn reference(text: &str) -> usize {
        assert_eq!(
            count(text),
            bpe_openai::o200k_base().count(text),
            "the remembered pieces change no count: {text:?}"
        );
        tiktoken_rs::o200k_base_singleton().count_ordinary(text)
    }

    #[test]
    fn counts_are_the_encodings() {
        // Checked against the reference tokenizer: "hello world" is two
        // tokens in o200k_base, and the empty text none.
        assert_eq!(count("hello world"), 2);
        assert_eq!(count(""), 0);
        assert!(count("读取超时配置") >= 2);
    }

    /// Texts where pre-tokenizers differ: runs of spaces before a word and
    /// at the end (tiktoken's `\s+(?!\S)`), line ends, digits, CJK,
    /// contractions, marks, emoji.
    #[test]
    fn edge_texts_count_as_tiktoken_counts_them() {
        let pieces = [
            " ",
            "  ",
            "\t",
            "\n",
            "\r\n",
            "\n\n ",
            "a",
            "Hello",
            "world's",
            "DON'T",
            "123456",
            "1,000.5",
            "读取",
            "超时配置。",
            "é",
            "e\u{301}",
            "🙂",
            "—",
            "/",
            "//",
            "{\"k\": [1]}",
            "x  ",
            "   y",
        ];
        let mut checked = 0;
        for a in pieces {
            for b in pieces {
                for c in ["", " ", "\n", "z"] {
                    let text = format!("{a}{b}{c}");
                    assert_eq!(count(&text), reference(&text), "{text:?}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, pieces.len() * pieces.len() * 4);
    }

    /// Every text counted while every lesson and every transcript fixture
    /// is opened (messages, arguments, ids, system prompts, tool schemas,
    /// summaries), in both languages: bpe-openai's count is tiktoken's.
    #[test]
    fn every_text_of_every_lesson_and_transcript_counts_as_tiktoken_counts_it() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        let mut dirs = vec![root.join("scenarios"), root.join("tests/transcripts")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path
                    .extension()
                    .is_some_and(|e| e == "json" || e == "jsonl" || e == "traj")
                {
                    files.push(path);
                }
            }
        }
        files.sort();
        SEEN.with(|s| *s.borrow_mut() = Some(Vec::new()));
        let (mut lessons, mut transcripts) = (0, 0);
        for file in &files {
            let name = file.to_string_lossy();
            if file.starts_with(root.join("scenarios")) {
                if crate::load::load(&name).is_ok() {
                    lessons += 1;
                }
            } else if crate::transcript::open(&name, None).is_ok() {
                transcripts += 1;
            }
        }
        let seen = SEEN.with(|s| s.borrow_mut().take()).unwrap();
        assert!(lessons >= 20, "{lessons} lessons opened");
        assert!(transcripts >= 30, "{transcripts} transcripts opened");
        assert!(seen.len() > 1000, "{} texts counted", seen.len());
        let mut chars = 0;
        for text in &seen {
            assert_eq!(count(text), reference(text), "{text:?}");
            chars += text.chars().count();
        }
        assert!(chars > 100_000, "{chars} characters counted");
    }
}
