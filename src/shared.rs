//! A list that the traces of one run in each language, and the builds of
//! a growing run, share (`engine::Told`, `Builder::finish_after`): cloning
//! a trace shares its lists. Each item is held on its own, and the items in
//! chunks of `CHUNK`: a copy made to add an item copies a pointer per
//! chunk of its latest few (`TAIL`), changing an older item a pointer per
//! chunk, and changing an item copies its chunk's pointers and that item
//! alone if another list still holds them (`Arc::make_mut`). What a
//! language does not change (the calls' ids, tools and arguments, the file
//! events, steps and messages whose words read alike) is held once; a live
//! view's build of call 2,000 shares the first 1,999 calls' items, and all
//! but the last chunks of its lists, with the build before.
//!
//! It reads as a list of its items: `iter`, `get`, `first`, `last`,
//! indexing and `&` iteration give `T`; `slice` gives a part of it
//! (`Slice`), read the same way.

use std::fmt;
use std::ops::{Bound, RangeBounds};
use std::sync::Arc;

/// Items per chunk: a copy of a long list copies one pointer per chunk.
pub const CHUNK: usize = 64;

/// Up to `CHUNK` items of a list, in order.
pub type Chunk<T> = Arc<Vec<Arc<T>>>;

/// Whole chunks a list holds at its end before they join the others.
const TAIL: usize = 16;

/// Every chunk holds `CHUNK` items but the last, which holds at least one.
/// The chunks are held in two lists: a copy made to add an item copies
/// the pointers of the latest chunks (`tail`, at most `TAIL`), not those
/// of all (`head`, whole chunks): a pointer copied is a count changed in
/// its chunk, a cache miss each, 125 for a long run's 8,000 steps.
#[derive(Clone)]
pub struct Shared<T> {
    head: Arc<Vec<Chunk<T>>>,
    tail: Arc<Vec<Chunk<T>>>,
    len: usize,
}

impl<T> Shared<T> {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Does `other` hold this very list (not a copy)?
    pub fn is_shared_with(&self, other: &Shared<T>) -> bool {
        Arc::ptr_eq(&self.head, &other.head) && Arc::ptr_eq(&self.tail, &other.tail)
    }

    /// Item `index` as held, to share.
    pub fn get_shared(&self, index: usize) -> Option<&Arc<T>> {
        self.chunk(index / CHUNK)?.get(index % CHUNK)
    }

    pub fn get(&self, index: usize) -> Option<&T> {
        self.get_shared(index).map(|item| &**item)
    }

    pub fn first(&self) -> Option<&T> {
        self.get(0)
    }

    pub fn last(&self) -> Option<&T> {
        self.get(self.len.checked_sub(1)?)
    }

    /// The items as held, to share.
    pub fn iter_shared(&self) -> Items<'_, T> {
        self.slice(..).iter_shared()
    }

    pub fn iter(&self) -> Iter<'_, T> {
        self.slice(..).iter()
    }

    /// The items in `range`.
    pub fn slice(&self, range: impl RangeBounds<usize>) -> Slice<'_, T> {
        let all = Slice {
            list: self,
            start: 0,
            end: self.len,
        };
        all.slice(range)
    }

    /// The index of the first item for which `pred` is false, the items
    /// being those it holds for first (`slice::partition_point`).
    pub fn partition_point(&self, pred: impl FnMut(&T) -> bool) -> usize {
        self.slice(..).partition_point(pred)
    }

    /// How many first items of this list and `other` are `same` (an item
    /// is the same as itself: the chunks both hold are, unread).
    pub fn alike(&self, other: &Shared<T>, same: impl Fn(&Arc<T>, &Arc<T>) -> bool) -> usize {
        let whole = self
            .chunks()
            .zip(other.chunks())
            .take_while(|(a, b)| Arc::ptr_eq(a, b))
            .count();
        let from = (whole * CHUNK).min(self.len).min(other.len);
        let rest = self.slice(from..).iter_shared();
        from + rest
            .zip(other.slice(from..).iter_shared())
            .take_while(|(a, b)| same(a, b))
            .count()
    }

    /// The chunks, in order.
    pub fn chunks(&self) -> Chunks<'_, T> {
        self.head.iter().chain(self.tail.iter())
    }

    /// How many chunks it holds.
    pub fn chunk_count(&self) -> usize {
        self.head.len() + self.tail.len()
    }

    /// Chunk `k`.
    pub fn chunk(&self, k: usize) -> Option<&Chunk<T>> {
        match k.checked_sub(self.head.len()) {
            None => self.head.get(k),
            Some(k) => self.tail.get(k),
        }
    }

    /// The index of the first chunk for which `pred` is false, the chunks
    /// being those it holds for first (`slice::partition_point`).
    pub fn chunk_partition_point(&self, mut pred: impl FnMut(&Chunk<T>) -> bool) -> usize {
        match self.head.partition_point(&mut pred) {
            k if k < self.head.len() => k,
            k => k + self.tail.partition_point(pred),
        }
    }

    /// How many items chunk `k` holds, known without reading it (a long
    /// list's chunks are read by walks that take most of them unread).
    pub fn chunk_len(&self, k: usize) -> usize {
        self.len.saturating_sub(k * CHUNK).min(CHUNK)
    }
}

impl<T: Clone> Shared<T> {
    pub fn push(&mut self, item: T) {
        self.push_shared(Arc::new(item));
    }

    /// Adds an item held elsewhere too.
    pub fn push_shared(&mut self, item: Arc<T>) {
        match Arc::make_mut(&mut self.tail).last_mut() {
            Some(last) if last.len() < CHUNK => {
                Arc::make_mut(last).push(item);
                self.len += 1;
            }
            _ => {
                let mut chunk = Vec::with_capacity(CHUNK);
                chunk.push(item);
                self.push_chunk(Arc::new(chunk));
            }
        }
    }

    /// Adds a whole chunk held elsewhere too, after whole chunks.
    pub fn push_chunk(&mut self, chunk: Chunk<T>) {
        if chunk.is_empty() {
            return;
        }
        assert!(self.len.is_multiple_of(CHUNK), "a chunk after a part");
        self.len += chunk.len();
        let tail = Arc::make_mut(&mut self.tail);
        if tail.len() >= TAIL {
            // Whole chunks all, they join the head.
            Arc::make_mut(&mut self.head).append(tail);
        }
        tail.push(chunk);
    }

    pub fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        if index >= self.len {
            return None;
        }
        let k = index / CHUNK;
        let chunk = match k.checked_sub(self.head.len()) {
            None => &mut Arc::make_mut(&mut self.head)[k],
            Some(k) => &mut Arc::make_mut(&mut self.tail)[k],
        };
        Some(Arc::make_mut(&mut Arc::make_mut(chunk)[index % CHUNK]))
    }

    pub fn last_mut(&mut self) -> Option<&mut T> {
        self.get_mut(self.len.checked_sub(1)?)
    }

    /// Keeps the first `len` items.
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        let keep = len.div_ceil(CHUNK);
        match keep.checked_sub(self.head.len()) {
            Some(k) => Arc::make_mut(&mut self.tail).truncate(k),
            None => {
                // The head's chunks are whole: the last kept, if a part,
                // goes to the tail.
                let head = Arc::make_mut(&mut self.head);
                let part = head.drain(len / CHUNK..).take(keep - len / CHUNK).collect();
                self.tail = Arc::new(part);
            }
        }
        if let Some(last) = Arc::make_mut(&mut self.tail).last_mut()
            && !len.is_multiple_of(CHUNK)
        {
            Arc::make_mut(last).truncate(len % CHUNK);
        }
        self.len = len;
    }

    /// The items from `from` on, each moved out, or copied if another
    /// list holds it.
    pub fn into_items_from(self, from: usize) -> impl Iterator<Item = T> {
        let skip = from / CHUNK;
        // The chunks from the `skip`th on of a list; of one held elsewhere
        // too, only those are copied (a long run's thousands of items are
        // mostly before `from`).
        let after = |list: Arc<Vec<Chunk<T>>>, skip: usize| match Arc::try_unwrap(list) {
            Ok(mut list) => {
                list.drain(..skip.min(list.len()));
                list
            }
            Err(list) => list.get(skip..).unwrap_or_default().to_vec(),
        };
        let head = self.head.len();
        let chunks = after(self.head, skip)
            .into_iter()
            .chain(after(self.tail, skip.saturating_sub(head)));
        let mut first = true;
        chunks.flat_map(move |chunk| {
            let mut items = Arc::try_unwrap(chunk).unwrap_or_else(|c| (*c).clone());
            if std::mem::take(&mut first) {
                items.drain(..(from % CHUNK).min(items.len()));
            }
            items.into_iter().map(Arc::unwrap_or_clone)
        })
    }

    /// Every item, each moved out, or copied if another list holds it.
    pub fn into_items(self) -> impl Iterator<Item = T> {
        self.into_items_from(0)
    }

    /// Every item, each copied first if another list holds it.
    pub fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut T> {
        let tail = Arc::make_mut(&mut self.tail).iter_mut();
        Arc::make_mut(&mut self.head)
            .iter_mut()
            .chain(tail)
            .flat_map(|chunk| Arc::make_mut(chunk).iter_mut().map(Arc::make_mut))
    }
}

impl<T> Default for Shared<T> {
    fn default() -> Self {
        Shared {
            head: Arc::new(Vec::new()),
            tail: Arc::new(Vec::new()),
            len: 0,
        }
    }
}

impl<T: Clone> From<Vec<T>> for Shared<T> {
    fn from(list: Vec<T>) -> Self {
        let mut shared = Shared::default();
        for item in list {
            shared.push(item);
        }
        shared
    }
}

impl<T> std::ops::Index<usize> for Shared<T> {
    type Output = T;
    fn index(&self, index: usize) -> &T {
        match self.get(index) {
            Some(item) => item,
            None => panic!("index {index} out of a list of {}", self.len),
        }
    }
}

impl<T: Clone> std::ops::IndexMut<usize> for Shared<T> {
    fn index_mut(&mut self, index: usize) -> &mut T {
        let len = self.len;
        match self.get_mut(index) {
            Some(item) => item,
            None => panic!("index {index} out of a list of {len}"),
        }
    }
}

/// Two lists are equal when their items are; chunks both hold are not
/// read.
impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len
            && self
                .chunks()
                .zip(other.chunks())
                .all(|(a, b)| Arc::ptr_eq(a, b) || a == b)
    }
}

impl<T: Eq> Eq for Shared<T> {}

impl<T: fmt::Debug> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, T> IntoIterator for &'a Shared<T> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;
    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

/// Items `start..end` of a shared list.
pub struct Slice<'a, T> {
    list: &'a Shared<T>,
    start: usize,
    end: usize,
}

impl<T> Clone for Slice<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Slice<'_, T> {}

impl<'a, T> Slice<'a, T> {
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    pub fn get(&self, index: usize) -> Option<&'a T> {
        (index < self.len()).then(|| &self.list[self.start + index])
    }

    pub fn first(&self) -> Option<&'a T> {
        self.get(0)
    }

    pub fn last(&self) -> Option<&'a T> {
        self.get(self.len().checked_sub(1)?)
    }

    pub fn iter_shared(&self) -> Items<'a, T> {
        Items::of(self.list, self.start, self.end)
    }

    pub fn iter(&self) -> Iter<'a, T> {
        let item: fn(&'a Arc<T>) -> &'a T = |item| item;
        self.iter_shared().map(item)
    }

    /// The items in `range` of this part.
    pub fn slice(&self, range: impl RangeBounds<usize>) -> Slice<'a, T> {
        let start = match range.start_bound() {
            Bound::Included(&s) => s,
            Bound::Excluded(&s) => s + 1,
            Bound::Unbounded => 0,
        };
        let end = match range.end_bound() {
            Bound::Included(&e) => e + 1,
            Bound::Excluded(&e) => e,
            Bound::Unbounded => self.len(),
        };
        assert!(
            start <= end && end <= self.len(),
            "range {start}..{end} out of a list of {}",
            self.len()
        );
        Slice {
            list: self.list,
            start: self.start + start,
            end: self.start + end,
        }
    }

    /// `slice::partition_point` of this part.
    pub fn partition_point(&self, mut pred: impl FnMut(&T) -> bool) -> usize {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let mid = low + (high - low) / 2;
            if pred(&self.list[self.start + mid]) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        low
    }
}

impl<T> std::ops::Index<usize> for Slice<'_, T> {
    type Output = T;
    fn index(&self, index: usize) -> &T {
        assert!(
            index < self.len(),
            "index {index} out of a part of {}",
            self.len()
        );
        &self.list[self.start + index]
    }
}

impl<'a, T> IntoIterator for Slice<'a, T> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;
    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<'a, T> IntoIterator for &Slice<'a, T> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;
    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<T: fmt::Debug> fmt::Debug for Slice<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The items of a list as held (`Shared::iter_shared`): each chunk's
/// part of the range in turn.
pub struct Items<'a, T> {
    items: std::iter::Flatten<Parts<'a, T>>,
    left: usize,
}

impl<T> Clone for Items<'_, T> {
    fn clone(&self) -> Self {
        Items {
            items: self.items.clone(),
            left: self.left,
        }
    }
}

impl<'a, T> Items<'a, T> {
    fn of(list: &'a Shared<T>, start: usize, end: usize) -> Items<'a, T> {
        let chunks = start / CHUNK..end.div_ceil(CHUNK);
        let parts = Parts {
            list,
            chunks,
            start,
            end,
        };
        Items {
            items: parts.flatten(),
            left: end - start,
        }
    }
}

impl<'a, T> Iterator for Items<'a, T> {
    type Item = &'a Arc<T>;
    fn next(&mut self) -> Option<&'a Arc<T>> {
        let item = self.items.next()?;
        self.left -= 1;
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<'a, T> DoubleEndedIterator for Items<'a, T> {
    fn next_back(&mut self) -> Option<&'a Arc<T>> {
        let item = self.items.next_back()?;
        self.left -= 1;
        Some(item)
    }
}

impl<T> ExactSizeIterator for Items<'_, T> {}

/// The part of each chunk `chunks` of `list` within `start..end`.
pub struct Parts<'a, T> {
    list: &'a Shared<T>,
    chunks: std::ops::Range<usize>,
    start: usize,
    end: usize,
}

impl<'a, T> Parts<'a, T> {
    fn part(&self, k: usize) -> std::slice::Iter<'a, Arc<T>> {
        let first = k * CHUNK;
        let (from, to) = (self.start.max(first), self.end.min(first + CHUNK));
        match self.list.chunk(k) {
            Some(chunk) => chunk[from - first..to - first].iter(),
            None => [].iter(),
        }
    }
}

impl<'a, T> Iterator for Parts<'a, T> {
    type Item = std::slice::Iter<'a, Arc<T>>;
    fn next(&mut self) -> Option<Self::Item> {
        let k = self.chunks.next()?;
        Some(self.part(k))
    }
}

impl<T> DoubleEndedIterator for Parts<'_, T> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let k = self.chunks.next_back()?;
        Some(self.part(k))
    }
}

impl<T> Clone for Parts<'_, T> {
    fn clone(&self) -> Self {
        Parts {
            chunks: self.chunks.clone(),
            ..*self
        }
    }
}

/// The chunks of a list (`Shared::chunks`).
pub type Chunks<'a, T> =
    std::iter::Chain<std::slice::Iter<'a, Chunk<T>>, std::slice::Iter<'a, Chunk<T>>>;

/// The items of a list (`Shared::iter`).
pub type Iter<'a, T> = std::iter::Map<Items<'a, T>, fn(&'a Arc<T>) -> &'a T>;

#[cfg(test)]
mod tests {
    use super::*;

    /// Lengths to try: within the first chunk, at its end, past it, and
    /// past the chunks the tail holds (`TAIL`).
    const LENGTHS: [usize; 9] = [
        0,
        1,
        CHUNK - 1,
        CHUNK,
        CHUNK + 1,
        3 * CHUNK + 5,
        TAIL * CHUNK,
        TAIL * CHUNK + 1,
        2 * TAIL * CHUNK + 5,
    ];

    /// A list of `n` numbers, as pushed.
    fn numbers(n: usize) -> Shared<usize> {
        (0..n).collect::<Vec<_>>().into()
    }

    #[test]
    fn each_chunk_is_as_long_as_said_unread_at_every_length() {
        for n in LENGTHS {
            let mut list = numbers(n);
            for cut in [n, n / 2, 1, 0] {
                list.truncate(cut);
                for k in 0..=list.chunk_count() {
                    let held = list.chunk(k).map_or(0, |c| c.len());
                    assert_eq!(list.chunk_len(k), held, "{n} cut to {cut}, chunk {k}");
                }
            }
        }
    }

    #[test]
    fn it_reads_as_the_list_it_was_made_of_at_every_length() {
        for n in LENGTHS {
            let list = numbers(n);
            let all: Vec<usize> = (0..n).collect();
            assert_eq!(list.len(), n);
            assert_eq!(list.iter().copied().collect::<Vec<_>>(), all);
            assert_eq!(list.iter().rev().copied().collect::<Vec<_>>(), {
                let mut r = all.clone();
                r.reverse();
                r
            });
            assert_eq!(list.last(), all.last());
            assert_eq!(list.partition_point(|&x| x < n / 2), n / 2);
            let part = list.slice(n / 3..n);
            assert_eq!(part.iter().copied().collect::<Vec<_>>(), all[n / 3..]);
            assert_eq!(
                part.slice(1.min(part.len())..).len(),
                all[n / 3..].len().saturating_sub(1)
            );
            for from in [0, 1, CHUNK, n] {
                let from = from.min(n);
                let moved: Vec<usize> = list.clone().into_items_from(from).collect();
                assert_eq!(moved, all[from..]);
            }
            let mut cut = list.clone();
            cut.truncate(n / 2);
            assert_eq!(cut.iter().copied().collect::<Vec<_>>(), all[..n / 2]);
            cut.push(7);
            assert_eq!(cut.len(), n / 2 + 1);
            assert_eq!(list.len(), n, "the list cut was a copy");
        }
    }

    #[test]
    fn a_part_read_from_both_ends_meets_in_the_middle() {
        let n = 3 * CHUNK + 5;
        let list = numbers(n);
        for (start, end) in [
            (0, n),
            (1, CHUNK),
            (CHUNK - 1, CHUNK + 1),
            (5, 2 * CHUNK + 3),
            (n, n),
        ] {
            let mut items = list.slice(start..end).iter();
            let (mut front, mut back) = (Vec::new(), Vec::new());
            let mut turn = 0;
            loop {
                assert_eq!(items.len(), end - start - front.len() - back.len());
                turn += 1;
                let next = if turn % 3 == 0 {
                    items.next_back()
                } else {
                    items.next()
                };
                match next {
                    Some(&x) if turn % 3 == 0 => back.push(x),
                    Some(&x) => front.push(x),
                    None => break,
                }
            }
            back.reverse();
            front.extend(back);
            assert_eq!(front, (start..end).collect::<Vec<_>>(), "{start}..{end}");
        }
    }

    #[test]
    fn a_copy_changed_shares_all_but_the_chunk_it_changed() {
        let list = numbers(3 * CHUNK);
        let mut copy = list.clone();
        copy[CHUNK + 1] = 0;
        copy.push(1);
        assert_eq!(list[CHUNK + 1], CHUNK + 1);
        assert!(Arc::ptr_eq(list.chunk(0).unwrap(), copy.chunk(0).unwrap()));
        assert!(!Arc::ptr_eq(list.chunk(1).unwrap(), copy.chunk(1).unwrap()));
        assert!(Arc::ptr_eq(list.chunk(2).unwrap(), copy.chunk(2).unwrap()));
        assert!(Arc::ptr_eq(
            list.get_shared(CHUNK).unwrap(),
            copy.get_shared(CHUNK).unwrap()
        ));
        let mut again = Shared::default();
        again.push_chunk(list.chunk(0).unwrap().clone());
        again.push(CHUNK);
        assert_eq!(
            again.iter().copied().collect::<Vec<_>>(),
            (0..=CHUNK).collect::<Vec<_>>()
        );
    }

    /// A copy made to add an item, or a chunk, shares the list's whole
    /// chunks but the latest few without copying their pointers; lists
    /// of the same items are equal however their chunks are held.
    #[test]
    fn a_copy_grown_shares_the_head_of_its_chunks() {
        let n = 2 * TAIL * CHUNK + 5;
        let list = numbers(n);
        assert!(list.head.len() >= TAIL && list.tail.len() <= TAIL);
        let mut copy = list.clone();
        copy.push(n);
        assert!(Arc::ptr_eq(&list.head, &copy.head));
        assert_eq!(copy.len(), n + 1);
        let mut cut = list.clone();
        cut.truncate(CHUNK + 3);
        assert_eq!(cut, numbers(CHUNK + 3));
        assert_ne!(cut, numbers(CHUNK + 4));
        cut.truncate(0);
        assert_eq!(cut, numbers(0));
        for m in [0, 1, CHUNK * 3, n / 2, n] {
            let below = |c: &Chunk<usize>| c.last().is_some_and(|x| **x < m);
            let count = list.chunks().take_while(|c| below(c)).count();
            assert_eq!(list.chunk_partition_point(below), count, "{m}");
        }
    }

    #[test]
    fn two_lists_are_alike_as_far_as_their_items_are() {
        // Copies that share chunks and lists made apart, each changed at
        // an item or cut or grown, are alike as far as item by item.
        let naive = |a: &Shared<usize>, b: &Shared<usize>| {
            a.iter().zip(b.iter()).take_while(|(x, y)| x == y).count()
        };
        for n in LENGTHS.into_iter().chain([5000]) {
            let list = numbers(n);
            let mut others = vec![list.clone(), numbers(n)];
            for at in [0, n / 2, n.saturating_sub(1), n] {
                let mut changed = list.clone();
                if at < n {
                    changed[at] = usize::MAX;
                }
                changed.push(7);
                let mut cut = list.clone();
                cut.truncate(at);
                others.extend([changed, cut]);
            }
            for a in [&list].into_iter().chain(&others) {
                for b in &others {
                    assert_eq!(a.alike(b, |x, y| x == y), naive(a, b), "{n}");
                }
            }
        }
    }
}
