//! The token counts of every text the shipped lessons count, made once by
//! the tokenizer and kept in `known.bin`: a lesson then starts without
//! building the tokenizer (tens of milliseconds and about 60 MB). A text
//! is known by its length and a 64-bit FNV-1a hash of its bytes; a text not
//! in the table is counted by the tokenizer, so the table changes no
//! count. `every_text_the_lessons_count_is_known_and_right` checks it and,
//! with `KNOWN_TOKENS=write`, writes it again.

/// Records of 16 bytes, sorted: the key (8, little-endian), the count
/// (4), and 4 bytes of padding that keep the records aligned for reading.
static TABLE: &[u8] = include_bytes!("known.bin");

const RECORD: usize = 16;

/// A text's key: its FNV-1a hash with its length mixed in.
pub(super) fn key(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in text.as_bytes() {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    hash ^ (text.len() as u64).rotate_left(32)
}

fn record(at: usize) -> (u64, u32) {
    let r = &TABLE[at * RECORD..(at + 1) * RECORD];
    let key = u64::from_le_bytes(r[..8].try_into().unwrap_or_default());
    let count = u32::from_le_bytes(r[8..12].try_into().unwrap_or_default());
    (key, count)
}

/// The count of `text`, if the table holds it.
pub(super) fn count(text: &str) -> Option<u32> {
    let key = key(text);
    let (mut lo, mut hi) = (0, TABLE.len() / RECORD);
    while lo < hi {
        let mid = (lo + hi) / 2;
        let (k, n) = record(mid);
        match k.cmp(&key) {
            std::cmp::Ordering::Equal => return Some(n),
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
        }
    }
    None
}

/// The table for these texts and counts, sorted by key, each key once.
#[cfg(test)]
pub(super) fn table(counts: impl IntoIterator<Item = (String, usize)>) -> Vec<u8> {
    let mut records: Vec<(u64, u32)> = counts
        .into_iter()
        .map(|(text, n)| (key(&text), n as u32))
        .collect();
    records.sort_unstable();
    records.dedup();
    let mut out = Vec::with_capacity(records.len() * RECORD);
    for (k, n) in records {
        out.extend_from_slice(&k.to_le_bytes());
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(&[0; 4]);
    }
    out
}
