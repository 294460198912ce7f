//! The tokenizer's count of a text, piece by piece (the encoding's
//! pattern splits a text into pieces, and each piece is counted alone):
//! short pieces' counts remembered, and a long text counted from where a
//! text counted before, which begins as it does, leaves off. A live run's
//! request repeats the one before byte for byte and adds a few messages;
//! counting a megabyte at each call would grow with the run.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

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

/// `count` with the tokenizer, whatever the table of known counts holds.
pub(super) fn counted(text: &str) -> usize {
    counted_marked(text, 0, &mut Vec::new(), usize::MAX)
}

/// `counted`, adding to `marks` where a piece starts that a text
/// beginning as this one does far enough past it would start one too
/// (`Marked`), at most one each `every` bytes, with the tokens before
/// it; `text` begins at byte `at` of what is marked, after the tokens of
/// the last mark.
fn counted_marked(text: &str, at: usize, marks: &mut Vec<(usize, usize)>, every: usize) -> usize {
    let tokenizer = bpe_openai::o200k_base();
    let before = marks.last().map_or(0, |m| m.1);
    let mut next = marks.last().map_or(0, |m| m.0).saturating_add(every);
    let mut sum = 0;
    PIECES.with(|pieces| {
        let mut pieces = pieces.borrow_mut();
        for piece in tokenizer.split(text) {
            let bytes = piece.as_bytes();
            // Where the piece starts in `text` (a part of it).
            let start = bytes.as_ptr() as usize - text.as_ptr() as usize;
            if at + start >= next && start > 0 && safe_cut(text.as_bytes(), start) {
                marks.push((at + start, before + sum));
                next = (at + start).saturating_add(every);
            }
            sum += match bytes.len() {
                n if n > REMEMBERED_PIECE => tokenizer.bpe.count(bytes),
                _ => match pieces.get(bytes) {
                    Some(&n) => n as usize,
                    None => {
                        let n = tokenizer.bpe.count(bytes);
                        if pieces.len() < REMEMBERED_PIECES {
                            pieces.insert(bytes.into(), n as u32);
                        }
                        n
                    }
                },
            };
        }
    });
    sum
}

/// Whether the pieces before byte `at` of `text` (where a piece starts)
/// are split as they would be in any text with the same bytes up to
/// `MARGIN` past it: the encoding's pattern decides where a piece ends
/// from the few characters after it, or from a whole run of white space.
fn safe_cut(text: &[u8], at: usize) -> bool {
    let solid = |b: u8| b.is_ascii_graphic();
    solid(text[at - 1]) && text.get(at).copied().is_some_and(solid)
}

/// A text counted (`count_long`): where some pieces start and the
/// tokens before each (`counted_marked`), its count, and the byte its
/// counting began at (after a mark of a text counted before).
#[derive(Clone)]
struct Marked {
    text: Arc<str>,
    marks: Vec<(usize, usize)>,
    tokens: usize,
    #[cfg(test)]
    from: usize,
}

/// Texts at least this long are counted from where a text counted
/// before, which begins as they do, leaves off (`count_long`): a
/// recorded request, whose tools and system prompt alone are kilobytes.
pub(super) const LONG: usize = 4 * 1024;

/// Bytes between two marks of a long text (`Marked`).
const MARK_EVERY: usize = 4 * 1024;

/// Bytes a text must share past a mark for its count to go on from it.
const MARGIN: usize = 16;

/// The long texts counted latest, the latest first (`count_long`).
static LONG_TEXTS: std::sync::Mutex<Vec<Arc<Marked>>> = std::sync::Mutex::new(Vec::new());

/// How many long texts are kept: a tap's conversations, a few at once.
const LONG_KEPT: usize = 4;

/// `text` (at least `LONG` bytes) counted from the last place marked in
/// the part it shares with a long text counted before (`super::count_long`).
pub(super) fn count_after(text: &Arc<str>) -> usize {
    let kept: Vec<Arc<Marked>> = LONG_TEXTS.lock().map(|k| k.clone()).unwrap_or_default();
    let marked = Arc::new(marked_after(&kept, text, MARK_EVERY));
    let tokens = marked.tokens;
    if let Ok(mut kept) = LONG_TEXTS.lock() {
        kept.retain(|m| !Arc::ptr_eq(&m.text, text));
        kept.insert(0, marked);
        kept.truncate(LONG_KEPT);
    }
    tokens
}

/// Forgets `text`, if it was counted (`count_long`): a benchmark times
/// the counting of a request the live view has not drawn yet.
#[doc(hidden)]
pub fn forget_counted(text: &str) {
    if let Ok(mut kept) = LONG_TEXTS.lock() {
        kept.retain(|m| *m.text != *text);
    }
}

/// `text` counted and marked (each `every` bytes), from the last mark of
/// a text of `kept` that it shares the most first bytes with.
fn marked_after(kept: &[Arc<Marked>], text: &Arc<str>, every: usize) -> Marked {
    // The very text (a live call's request, drawn as it runs and again
    // as it ends): not compared byte by byte.
    if let Some(m) = kept.iter().find(|m| Arc::ptr_eq(&m.text, text)) {
        return Marked::clone(m);
    }
    let shared = |m: &Marked| common_prefix(m.text.as_bytes(), text.as_bytes());
    let best = kept.iter().map(|m| (shared(m), m)).max_by_key(|(n, _)| *n);
    let mut marks = Vec::new();
    if let Some((n, m)) = best {
        if n == text.len() && n == m.text.len() {
            return Marked::clone(m);
        }
        let go_on = m.marks.partition_point(|&(at, _)| at + MARGIN <= n);
        marks.extend_from_slice(&m.marks[..go_on]);
    }
    let (from, before) = marks.last().copied().unwrap_or((0, 0));
    let tokens = before + counted_marked(&text[from..], from, &mut marks, every);
    Marked {
        text: text.clone(),
        marks,
        tokens,
        #[cfg(test)]
        from,
    }
}

/// How many first bytes `a` and `b` share.
pub(crate) fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 4096;
    let n = a.len().min(b.len());
    let mut at = 0;
    // Block by block first (a comparison of memory), then byte by byte.
    while at + BLOCK <= n && a[at..at + BLOCK] == b[at..at + BLOCK] {
        at += BLOCK;
    }
    at + a[at..n]
        .iter()
        .zip(&b[at..n])
        .take_while(|(x, y)| x == y)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text of words, numbers, runs of space of every length, line
    /// ends, punctuation and CJK, as `seed` picks them, `len` bytes or
    /// a little more.
    fn mixed_text(seed: &mut u64, len: usize) -> String {
        let parts = [
            "hello",
            "World",
            "don't",
            "I'll",
            "ABCdef",
            "12345",
            "\n",
            "\r\n",
            "\t",
            "{\"role\":\"user\",\"content\":\"",
            "\"},{",
            "中文字",
            "🙂",
            "'s",
            ".",
            "x",
        ];
        let mut text = String::new();
        while text.len() < len {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let pick = (*seed >> 33) as usize;
            match pick % 4 {
                0 => text.push_str(&" ".repeat(1 + pick / 4 % 300)),
                _ => text.push_str(parts[pick / 4 % parts.len()]),
            }
        }
        text
    }

    #[test]
    fn a_long_text_counted_after_one_it_begins_as_counts_as_counted_alone() {
        let mut seed = 7;
        let base: Arc<str> = mixed_text(&mut seed, LONG + 20_000).into();
        let kept = [Arc::new(marked_after(&[], &base, MARK_EVERY))];
        assert_eq!(kept[0].tokens, counted(&base));
        let mut went_on = 0;
        for _ in 0..120 {
            // Cut anywhere past the first marks, then another ending.
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            let mut cut = MARK_EVERY + (seed >> 33) as usize % (base.len() - MARK_EVERY);
            while !base.is_char_boundary(cut) {
                cut -= 1;
            }
            let tail = mixed_text(&mut seed, 3_000);
            let text: Arc<str> = format!("{}{tail}", &base[..cut]).into();
            let marked = marked_after(&kept, &text, MARK_EVERY);
            assert_eq!(marked.tokens, counted(&text), "cut at {cut}");
            went_on += usize::from(marked.from > 0);
            // And the next text after this one.
            let next: Arc<str> = format!("{text}{tail}").into();
            let after = marked_after(&[Arc::new(marked)], &next, MARK_EVERY);
            assert_eq!(after.tokens, counted(&next), "cut at {cut}, then grown");
            assert!(after.from + MARK_EVERY + 3_000 >= text.len(), "{cut}");
        }
        assert!(went_on > 100, "went on from a mark {went_on} times of 120");
        // The same text again: its count, not counted again.
        assert_eq!(
            marked_after(&kept, &base, MARK_EVERY).tokens,
            kept[0].tokens
        );
    }

    #[test]
    fn a_text_counted_from_any_mark_it_shares_counts_as_counted_alone() {
        // Every place that may be marked, in a text with runs of space of
        // every length: a text that shares `MARGIN` bytes past it, then
        // goes on otherwise, counts from there as it does whole.
        let mut seed = 11;
        let base = mixed_text(&mut seed, 6_000);
        let mut marks = Vec::new();
        counted_marked(&base, 0, &mut marks, 1);
        assert!(marks.len() > 80, "{} marks", marks.len());
        for (k, &(at, before)) in marks.iter().enumerate() {
            let mut shared = (at + MARGIN + k % 3).min(base.len());
            while !base.is_char_boundary(shared) {
                shared += 1;
            }
            for tail in ["\n", " ", "   x", "y", "'ll", "7", "中"] {
                let text = format!("{}{tail}", &base[..shared]);
                let from_mark = before + counted_marked(&text[at..], at, &mut Vec::new(), 1);
                assert_eq!(from_mark, counted(&text), "{at} {tail:?}");
            }
        }
    }
}
