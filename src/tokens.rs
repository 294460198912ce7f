//! Tokens, counted with a real tokenizer: OpenAI's `o200k_base` encoding
//! (the GPT-4o and GPT-4.1 family), from bpe-openai (GitHub's byte-pair
//! encoder, the same encoding tiktoken has, counted faster; a test checks
//! that every text this program counts gets tiktoken's count). A lesson's
//! messages are counted as they are recorded; a transcript's when a frame
//! or a command first asks for a request's count (`Counts`): opening a
//! 2,000-call run counts none of its 20 MB of tool output. A request's count
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

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// A replayed run's token counts, counted when something first shows or
/// needs them (the context heading and counters of a step, a response's
/// `usage`, `trace` JSON) and then kept: opening a 2,000-call rollout
/// counts nothing, not even its call ids, so the tokenizer is not built
/// before the first frame; a frame counts the request it shows. Kept
/// beside the run's traces (`Loaded::counts`), never in them: a trace is
/// what was recorded, and nothing writes into it afterwards. Shared by the
/// clones (both languages' traces of a transcript hold the same messages),
/// so each message is counted once.
///
/// A lesson's counts are exact in its trace (`Counts::default()` keeps
/// none): the host compacts by them while the run is recorded, so they are
/// in its `Message::tokens` and `ModelCall::context_tokens`.
#[derive(Clone, Default)]
pub struct Counts(Option<Arc<Cells>>);

struct Cells {
    /// What every request carries besides its messages (`fixed_tokens`).
    fixed: OnceLock<usize>,
    /// Each message, whole: its text, the ids, names and arguments of its
    /// calls, the per-message overhead.
    messages: Lazy<u32>,
    /// Each model call's request.
    requests: Lazy<usize>,
    /// Each model call's reply, where the file records no output tokens.
    replies: Lazy<usize>,
    /// Messages are being counted on a thread of their own
    /// (`in_background`).
    counting: AtomicBool,
}

/// `len` cells, made a block at a time when one of them is first asked
/// for: a live view's build of call 2,000 makes counts for 4,000 messages
/// and 2,000 calls, and its frame asks for a few.
struct Lazy<T> {
    blocks: Box<[OnceLock<Block<T>>]>,
    len: usize,
}

/// Up to `Lazy::BLOCK` cells.
type Block<T> = Box<[OnceLock<T>]>;

impl<T> Lazy<T> {
    const BLOCK: usize = 256;

    fn new(len: usize) -> Self {
        let blocks = (0..len.div_ceil(Self::BLOCK)).map(|_| OnceLock::new());
        Lazy {
            blocks: blocks.collect(),
            len,
        }
    }

    /// Cell `index`, its block made if it was not.
    fn cell(&self, index: usize) -> Option<&OnceLock<T>> {
        let start = index - index % Self::BLOCK;
        let block = self.blocks.get(index / Self::BLOCK)?.get_or_init(|| {
            let len = self.len.saturating_sub(start).min(Self::BLOCK);
            (0..len).map(|_| OnceLock::new()).collect()
        });
        block.get(index % Self::BLOCK)
    }

    /// Cell `index`'s value, if it was made.
    fn get(&self, index: usize) -> Option<&T> {
        let block = self.blocks.get(index / Self::BLOCK)?.get()?;
        block.get(index % Self::BLOCK)?.get()
    }
}

impl Counts {
    /// Counts made when asked, for a run of `messages` messages and
    /// `requests` model calls recorded from a file (which do not change
    /// once recorded).
    pub fn lazy(messages: usize, requests: usize) -> Self {
        Counts(Some(Arc::new(Cells {
            fixed: OnceLock::new(),
            messages: Lazy::new(messages),
            requests: Lazy::new(requests),
            replies: Lazy::new(requests),
            counting: AtomicBool::new(false),
        })))
    }

    /// Whether counts are made when asked (a replayed run), rather than
    /// held in the trace's messages and model calls (a lesson).
    pub fn is_lazy(&self) -> bool {
        self.0.is_some()
    }

    /// The tokens every request carries, counted by `count` the first
    /// time; None for a lesson.
    pub fn fixed(&self, count: impl FnOnce() -> usize) -> Option<usize> {
        self.0.as_ref().map(|cells| *cells.fixed.get_or_init(count))
    }

    /// Message `index`'s tokens, counted by `count` the first time; None
    /// for a lesson or a message not recorded here.
    pub fn message(&self, index: usize, count: impl FnOnce() -> usize) -> Option<usize> {
        let cell = self.0.as_ref()?.messages.cell(index)?;
        Some(*cell.get_or_init(|| count() as u32) as usize)
    }

    /// Model call `index`'s request, counted by `count` the first time;
    /// None for a lesson or a call not recorded here.
    pub fn request(&self, index: usize, count: impl FnOnce() -> usize) -> Option<usize> {
        let cells = self.0.as_ref()?;
        Some(*cells.requests.cell(index)?.get_or_init(count))
    }

    /// Model call `index`'s reply, counted by `count` the first time; None
    /// for a lesson or a call not recorded here.
    pub fn reply(&self, index: usize, count: impl FnOnce() -> usize) -> Option<usize> {
        let cells = self.0.as_ref()?;
        Some(*cells.replies.cell(index)?.get_or_init(count))
    }

    /// Run `count` on a thread of its own, marked as counting until it
    /// ends, so that a frame far into a long run finds its request counted:
    /// End pressed a moment after the first frame draws at once. A frame
    /// that needs a count not made yet shows it as being counted (`ready`)
    /// or, with no thread, makes it itself. None for a lesson, or where no
    /// thread could be started.
    pub fn in_background(
        &self,
        count: impl FnOnce(&Counts) + Send + 'static,
    ) -> Option<std::thread::JoinHandle<()>> {
        let cells = self.0.as_ref()?;
        cells.counting.store(true, Ordering::Release);
        let counts = self.clone();
        let thread = std::thread::Builder::new()
            .name("count-tokens".into())
            .spawn(move || {
                count(&counts);
                if let Some(cells) = &counts.0 {
                    cells.counting.store(false, Ordering::Release);
                }
            })
            .ok();
        if thread.is_none() {
            cells.counting.store(false, Ordering::Release);
        }
        thread
    }

    /// Whether messages are still being counted on the thread of their own.
    pub fn counting(&self) -> bool {
        self.0
            .as_ref()
            .is_some_and(|cells| cells.counting.load(Ordering::Acquire))
    }

    /// Whether model call `index`'s request (its messages `range`) can be
    /// told without counting: counted already, or every message in it is,
    /// or no thread is counting them (then whoever asks counts).
    pub fn ready(&self, index: usize, range: std::ops::Range<usize>) -> bool {
        let Some(cells) = self.0.as_ref() else {
            return true;
        };
        !cells.counting.load(Ordering::Acquire)
            || cells.requests.get(index).is_some()
            || (range.end <= cells.messages.len
                && range.into_iter().all(|m| cells.messages.get(m).is_some()))
    }

    /// Whether model call `index`'s recorded body can be told without
    /// counting: counted already, or no thread is counting (then whoever
    /// asks counts).
    pub fn body_ready(&self, index: usize) -> bool {
        let Some(cells) = self.0.as_ref() else {
            return true;
        };
        !cells.counting.load(Ordering::Acquire) || cells.requests.get(index).is_some()
    }
}

/// The counts are a function of the trace's texts, which a comparison of
/// traces compares: two traces are not told apart by what was counted yet.
impl PartialEq for Counts {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Counts {}

impl std::fmt::Debug for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not what was counted yet: a trace's Debug is the same however
        // far it was looked at.
        f.write_str(match self.0 {
            None => "Counts::Exact",
            Some(_) => "Counts::Lazy",
        })
    }
}

mod known;
mod pieces;

pub(crate) use pieces::common_prefix;
use pieces::counted;
pub use pieces::forget_counted;

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
    // The shipped lessons' texts are counted already: building the
    // tokenizer costs 60 MB and most of a start-up's time.
    match known::count(text) {
        Some(n) => n as usize,
        None => counted(text),
    }
}

/// `count`, for a text that may begin as one counted before: a live run's
/// request repeats the one before byte for byte and adds a few messages
/// (at call 2,000, a megabyte and a few kilobytes). Counted from the last
/// place marked in the part the two share, not from the start
/// (`pieces::count_after`).
pub fn count_long(text: &Arc<str>) -> usize {
    if text.len() < pieces::LONG {
        return count(text);
    }
    #[cfg(test)]
    tests::saw(text);
    pieces::count_after(text)
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

    /// A cell's block is made when one of its cells is asked for, and a
    /// value set is kept; an index past the end has no cell.
    #[test]
    fn lazy_cells_are_made_a_block_at_a_time() {
        let block = Lazy::<u32>::BLOCK;
        let cells = Lazy::<u32>::new(block + 3);
        assert_eq!(cells.blocks.len(), 2);
        assert!(cells.blocks.iter().all(|b| b.get().is_none()));
        assert_eq!(cells.cell(block + 2).map(|c| *c.get_or_init(|| 7)), Some(7));
        assert!(cells.blocks[0].get().is_none(), "the first block made");
        assert_eq!(cells.blocks[1].get().map(|b| b.len()), Some(3));
        assert_eq!(cells.get(block + 2), Some(&7));
        assert_eq!(cells.get(block + 1), None);
        assert_eq!(cells.get(0), None);
        assert!(cells.cell(block + 3).is_none() && cells.get(block + 3).is_none());
        assert!(cells.cell(5 * block).is_none());
        let counts = Counts::lazy(block + 3, 1);
        assert_eq!(counts.message(block, || 4), Some(4));
        assert_eq!(counts.message(block, || 5), Some(4), "counted once");
        assert_eq!(counts.message(block + 3, || 5), None);
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

    /// Every text a shipped lesson counts, in each provider it runs in, is
    /// in the table of known counts with the tokenizer's count: opening a
    /// lesson never builds the tokenizer. `KNOWN_TOKENS=write` writes the
    /// table again (after a lesson's texts change).
    #[test]
    fn every_text_the_lessons_count_is_known_and_right() {
        use crate::wire::Provider;
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<_> = std::fs::read_dir(root.join("scenarios"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        SEEN.with(|s| *s.borrow_mut() = Some(Vec::new()));
        let providers = [
            None,
            Some(Provider::Chat),
            Some(Provider::Responses),
            Some(Provider::Anthropic),
        ];
        let mut runs = 0;
        for file in &files {
            for provider in providers {
                runs +=
                    usize::from(crate::load::load_as(&file.to_string_lossy(), provider).is_ok());
            }
        }
        let seen = SEEN.with(|s| s.borrow_mut().take()).unwrap();
        assert!(runs > files.len(), "{runs} runs of {} lessons", files.len());
        let mut counts: Vec<(String, usize)> = seen
            .into_iter()
            .map(|text| {
                let n = counted(&text);
                (text, n)
            })
            .collect();
        counts.sort();
        counts.dedup();
        let path = root.join("src/tokens/known.bin");
        if std::env::var("KNOWN_TOKENS").as_deref() == Ok("write") {
            std::fs::write(&path, known::table(counts.clone())).unwrap();
            return;
        }
        // One key a text: two texts of one key would share a count.
        let mut keys: Vec<u64> = counts.iter().map(|(t, _)| known::key(t)).collect();
        keys.sort_unstable();
        let len = keys.len();
        keys.dedup();
        assert_eq!(keys.len(), len, "two texts share a key");
        let wrong: Vec<&(String, usize)> = counts
            .iter()
            .filter(|(text, n)| known::count(text) != Some(*n as u32))
            .collect();
        assert!(
            wrong.is_empty(),
            "{} of {} texts the lessons count are missing from {} or counted otherwise there \
             (first: {:?}); write it again: KNOWN_TOKENS=write cargo test --lib known_and_right",
            wrong.len(),
            counts.len(),
            path.display(),
            wrong[0],
        );
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
            } else if let Ok(opened) = crate::transcript::open(&name, None) {
                // A transcript counts when asked: ask for every count.
                let counts = &opened.loaded.counts;
                for trace in &opened.loaded.traces {
                    for index in 0..trace.model_calls.len() {
                        crate::wire::context_tokens(trace, counts, index);
                    }
                    for index in 0..trace.compactions.len() {
                        crate::wire::compaction_tokens(trace, counts, index);
                    }
                }
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

    /// Opening a transcript counts nothing; asking for a request's count
    /// counts the texts it sends, once, for both languages' traces.
    #[test]
    fn a_transcript_counts_a_text_when_a_request_that_sends_it_is_asked_for() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let path = root.join("tests/transcripts/codex.jsonl");
        SEEN.with(|s| *s.borrow_mut() = Some(Vec::new()));
        let opened = crate::transcript::open(&path.to_string_lossy(), None).unwrap();
        let at_open = SEEN.with(|s| s.borrow_mut().replace(Vec::new())).unwrap();
        // Nothing at all: not a call id or an argument either, so opening
        // a long run does not build the tokenizer.
        assert!(at_open.is_empty(), "counted at open: {at_open:?}");
        let [zh, en] = &opened.loaded.traces;
        let counts = &opened.loaded.counts;
        let outputs: Vec<&str> = zh
            .messages
            .iter()
            .filter(|m| m.role == crate::trace::Role::Tool && !m.text.is_empty())
            .map(|m| &*m.text)
            .collect();
        assert!(outputs.len() >= 2, "{} tool outputs", outputs.len());
        for output in &outputs {
            assert!(
                !at_open.iter().any(|t| t == output),
                "counted at open: {output:?}"
            );
        }
        // The first request sends no tool output yet; the last sends them.
        crate::wire::context_tokens(zh, counts, 0);
        let first = SEEN.with(|s| s.borrow_mut().replace(Vec::new())).unwrap();
        assert!(outputs.iter().all(|o| !first.contains(&o.to_string())));
        let last = zh.model_calls.len() - 1;
        let zh_count = crate::wire::context_tokens(zh, counts, last);
        let asked = SEEN.with(|s| s.borrow_mut().replace(Vec::new())).unwrap();
        let sent = zh.context(&zh.model_calls[last]);
        for output in outputs
            .iter()
            .filter(|o| sent.iter().any(|m| &*m.text == **o))
        {
            assert_eq!(
                asked.iter().filter(|t| t == output).count(),
                1,
                "{output:?}"
            );
        }
        // Kept, and shared with the other language's trace.
        assert_eq!(crate::wire::context_tokens(zh, counts, last), zh_count);
        assert_eq!(crate::wire::context_tokens(en, counts, last), zh_count);
        let again = SEEN.with(|s| s.borrow_mut().take()).unwrap();
        assert!(again.is_empty(), "counted again: {again:?}");
    }

    /// A request whose body the file records is counted as that body: on
    /// the thread, first, and not ready while the thread has not reached it.
    #[test]
    fn a_recorded_body_is_counted_on_the_thread_first() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let path = root.join("tests/transcripts/cases/tap-sdk-gpt5.jsonl");
        let opened = crate::transcript::open(&path.to_string_lossy(), None).unwrap();
        let (trace, counts) = (&opened.loaded.traces[0], &opened.loaded.counts);
        let bodies: Vec<&str> = trace
            .model_calls
            .iter()
            .filter_map(|mc| mc.body.as_ref().map(|b| &*b.request))
            .collect();
        assert_eq!(bodies.len(), trace.model_calls.len());
        let cells = counts.0.as_ref().unwrap();
        cells.counting.store(true, Ordering::Release);
        assert_eq!(crate::wire::context_tokens_ready(trace, counts, 1), None);
        crate::wire::count_in_background(trace, counts)
            .unwrap()
            .join()
            .unwrap();
        for (k, body) in bodies.iter().enumerate() {
            assert_eq!(
                crate::wire::context_tokens_ready(trace, counts, k),
                Some(count(body))
            );
        }
    }

    /// While the thread counts a just-opened transcript, a request whose
    /// messages it has not reached is not ready (the screen shows `…` and
    /// draws it when the thread is done, instead of a key waiting); one
    /// whose messages are counted is; with no thread, whoever asks counts.
    #[test]
    fn a_request_is_ready_when_counted_or_when_no_thread_counts() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let path = root.join("tests/transcripts/codex.jsonl");
        let opened = crate::transcript::open(&path.to_string_lossy(), None).unwrap();
        let (trace, counts) = (&opened.loaded.traces[0], &opened.loaded.counts);
        let last = trace.model_calls.len() - 1;
        // As `in_background` marks it, before its thread counts.
        let cells = counts.0.as_ref().unwrap();
        cells.counting.store(true, Ordering::Release);
        assert!(counts.counting());
        assert_eq!(crate::wire::context_tokens_ready(trace, counts, last), None);
        // The first request's messages counted (a frame asked for them).
        let first = crate::wire::context_tokens(trace, counts, 0);
        assert_eq!(
            crate::wire::context_tokens_ready(trace, counts, 0),
            Some(first)
        );
        assert_eq!(crate::wire::context_tokens_ready(trace, counts, last), None);
        // The thread done: every request can be told.
        cells.counting.store(false, Ordering::Release);
        let all = crate::wire::context_tokens(trace, counts, last);
        assert_eq!(
            crate::wire::context_tokens_ready(trace, counts, last),
            Some(all)
        );
        // A real thread ends marked done, every message counted.
        let other = crate::transcript::open(&path.to_string_lossy(), None).unwrap();
        let (trace, counts) = (&other.loaded.traces[0], &other.loaded.counts);
        crate::wire::count_in_background(trace, counts)
            .unwrap()
            .join()
            .unwrap();
        assert!(!counts.counting());
        assert!(counts.ready(last, 0..trace.messages.len()));
        assert_eq!(crate::wire::context_tokens(trace, counts, last), all);
    }
}
