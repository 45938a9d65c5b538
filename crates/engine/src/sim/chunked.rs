//! A double-ended sequence kept in fixed-size chunks that copies share: the trace's ring of
//! events, the watch cache's window and the workqueue's queue, which every checkpoint of a run
//! holds.
//!
//! ```text
//!   full chunks (shared, never written again)          tail (the run's own)
//!   [ Rc: ✗ ✗ 2 … 255 ][ Rc: 256 … 511 ] … [ Rc: … ]    [ newest, fewer than CHUNK ]
//!         ▲ pop_front: the front moves past an entry       ▲ push_back; a full tail
//!   ▲ pop_front_chunk, or the front's passing the last       becomes a shared chunk
//!     entry, drops a whole chunk
//! ```
//!
//! Copying the sequence copies the chunks' pointers and the tail, so a checkpoint of a run with
//! 20 000 events in its ring copies at most [`CHUNK`] of them; appending costs what appending
//! to a `Vec` costs. Entries are only appended at the back and leave at the front: one at a time
//! (the front moves past it) or a chunk at a time. A full chunk is never written again, so it
//! never needs copying, and an entry the front moved past is dropped with its chunk (or with
//! the emptied tail): many together, which waits for their cold reference counts at once.
//!
//! Not a persistent vector (a tree of chunks, which these three once were): that also shares its
//! copies, but every push and pop walks and may copy its tree's path, which cost more per event
//! than copying the tail costs each checkpoint. Here a push is a `Vec` push and a pop moves an
//! index.

use std::collections::VecDeque;
use std::ops::Index;
use std::rc::Rc;

/// Entries per chunk.
pub const CHUNK: usize = 256;

/// A sequence appended at the back and taken from the front, whose copies share every full
/// chunk.
#[derive(Clone, Debug)]
pub struct ChunkedDeque<T> {
    /// Full chunks, oldest first, each exactly [`CHUNK`] entries.
    full: VecDeque<Rc<Vec<T>>>,
    /// The newest entries, fewer than [`CHUNK`].
    tail: Vec<T>,
    /// The buffer of the last chunk that left while no copy held it, emptied: the next tail's.
    /// A chunk's buffer is large (a few KiB), and the allocator's search for one, and its
    /// release, cost more than a chunk's pushes.
    spare: Vec<T>,
    /// Entries at the start of the first full chunk (of the tail, when there is none) that
    /// have left: they are dropped with it.
    front: usize,
}

impl<T> Default for ChunkedDeque<T> {
    fn default() -> Self {
        ChunkedDeque {
            full: VecDeque::new(),
            tail: Vec::new(),
            spare: Vec::new(),
            front: 0,
        }
    }
}

impl<T> ChunkedDeque<T> {
    /// Entries held.
    pub fn len(&self) -> usize {
        self.full.len() * CHUNK + self.tail.len() - self.front
    }

    /// Whether no entry is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entries in full chunks, which copies share.
    pub fn shared_len(&self) -> usize {
        (self.full.len() * CHUNK).saturating_sub(self.front)
    }

    /// Appends `entry`.
    pub fn push_back(&mut self, entry: T) {
        if self.tail.capacity() == 0 {
            self.tail.reserve_exact(CHUNK);
        }
        self.tail.push(entry);
        if self.tail.len() == CHUNK {
            let next = match self.spare.capacity() {
                0 => Vec::with_capacity(CHUNK),
                _ => std::mem::take(&mut self.spare),
            };
            let chunk = std::mem::replace(&mut self.tail, next);
            self.full.push_back(Rc::new(chunk));
        }
    }

    /// Drops the oldest full chunk, with the entries that left from it; returns whether there
    /// was one. Its buffer is kept for the next tail when no copy holds the chunk.
    pub fn pop_front_chunk(&mut self) -> bool {
        let Some(chunk) = self.full.pop_front() else {
            return false;
        };
        self.front = 0;
        if let Ok(mut buffer) = Rc::try_unwrap(chunk) {
            buffer.clear();
            self.spare = buffer;
        }
        true
    }

    /// The oldest entry leaves; returns whether there was one. It is dropped once every entry
    /// before the end of its chunk (or of the tail) has left too.
    pub fn pop_front(&mut self) -> bool {
        if self.is_empty() {
            return false;
        }
        self.front += 1;
        if self.full.is_empty() {
            if self.front == self.tail.len() {
                self.tail.clear();
                self.front = 0;
            }
        } else if self.front == CHUNK {
            self.pop_front_chunk();
        }
        true
    }

    /// Entry `index` (0 is the oldest), if held.
    pub fn get(&self, index: usize) -> Option<&T> {
        let at = index.checked_add(self.front)?;
        match self.full.get(at / CHUNK) {
            Some(chunk) => chunk.get(at % CHUNK),
            None => self.tail.get(at - self.full.len() * CHUNK),
        }
    }

    /// The oldest entry, if any.
    pub fn front(&self) -> Option<&T> {
        self.get(0)
    }

    /// The newest entry, if any.
    pub fn back(&self) -> Option<&T> {
        if self.is_empty() {
            return None;
        }
        self.tail
            .last()
            .or_else(|| self.full.back().and_then(|chunk| chunk.last()))
    }

    /// Every entry, oldest first: the first chunk's from the front, the other chunks', then
    /// the tail's.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + '_ {
        let (head, tail): (&[T], &[T]) = match self.full.front() {
            Some(first) => (&first[self.front..], &self.tail),
            None => (&self.tail[self.front..], &[]),
        };
        let middle = self.full.iter().skip(1).flat_map(|chunk| chunk.iter());
        head.iter().chain(middle).chain(tail.iter())
    }

    /// The entries from `start` on, oldest first (none if `start` is past the end).
    pub fn range_from(
        &self,
        start: usize,
    ) -> impl DoubleEndedIterator<Item = &T> + ExactSizeIterator + '_ {
        (start.min(self.len())..self.len()).map(move |i| &self[i])
    }
}

impl<T> Index<usize> for ChunkedDeque<T> {
    type Output = T;

    fn index(&self, index: usize) -> &T {
        match self.get(index) {
            Some(entry) => entry,
            None => panic!("index {index} of a sequence of {}", self.len()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled(n: usize) -> ChunkedDeque<usize> {
        let mut d = ChunkedDeque::default();
        for i in 0..n {
            d.push_back(i);
        }
        d
    }

    #[test]
    fn entries_read_back_in_order_across_chunks_and_the_tail() {
        let d = filled(2 * CHUNK + 7);
        assert_eq!(d.len(), 2 * CHUNK + 7);
        assert_eq!(d.shared_len(), 2 * CHUNK);
        assert!(d.range_from(0).copied().eq(0..2 * CHUNK + 7));
        assert!(d
            .range_from(CHUNK - 1)
            .rev()
            .copied()
            .eq((CHUNK - 1..2 * CHUNK + 7).rev()));
        assert_eq!(d.range_from(10 * CHUNK).len(), 0);
        assert_eq!(
            (d.get(2 * CHUNK + 7), d.back()),
            (None, Some(&(2 * CHUNK + 6)))
        );
    }

    #[test]
    fn a_full_tail_becomes_a_chunk_and_the_oldest_chunk_leaves_whole() {
        let mut d = filled(CHUNK);
        assert_eq!((d.shared_len(), d.back()), (CHUNK, Some(&(CHUNK - 1))));
        d.push_back(CHUNK);
        assert!(d.pop_front_chunk());
        assert_eq!((d.len(), d.get(0)), (1, Some(&CHUNK)));
        assert!(!d.pop_front_chunk(), "the tail never leaves as a chunk");
    }

    #[test]
    fn a_copy_shares_the_full_chunks_and_goes_its_own_way_after() {
        let mut d = filled(CHUNK + 3);
        let copy = d.clone();
        assert!(
            Rc::ptr_eq(&d.full[0], &copy.full[0]),
            "full chunks are shared"
        );
        d.push_back(1_000);
        d.pop_front_chunk();
        assert_eq!(copy.len(), CHUNK + 3);
        assert!(copy.range_from(0).copied().eq(0..CHUNK + 3));
        assert_eq!(
            d.range_from(0).copied().collect::<Vec<_>>(),
            [CHUNK, CHUNK + 1, CHUNK + 2, 1_000]
        );
    }

    #[test]
    fn a_chunk_no_copy_holds_leaves_its_buffer_to_the_next_tail_and_a_shared_one_does_not() {
        let mut d = filled(2 * CHUNK);
        let first = Rc::as_ptr(&d.full[0]);
        let buffer = d.full[0].as_ptr();
        assert!(d.pop_front_chunk());
        assert_eq!(d.spare.capacity(), CHUNK, "the emptied buffer is kept");
        for i in 0..CHUNK {
            d.push_back(i);
        }
        assert_eq!(d.tail.as_ptr(), buffer, "the next tail is the kept buffer");
        assert!(d.spare.capacity() == 0 && d.tail.capacity() == CHUNK);
        assert!(d
            .range_from(0)
            .copied()
            .eq((CHUNK..2 * CHUNK).chain(0..CHUNK)));
        let copy = d.clone();
        assert!(d.pop_front_chunk());
        assert_eq!(
            d.spare.capacity(),
            0,
            "a chunk a copy holds stays the copy's"
        );
        assert!(copy
            .range_from(0)
            .copied()
            .eq((CHUNK..2 * CHUNK).chain(0..CHUNK)));
        assert_ne!(Rc::as_ptr(&copy.full[0]), first);
    }

    /// Pushes, pops one at a time and copies, checked against a `VecDeque` after every step:
    /// the length, every entry by index, both ends and the iterator both ways, in a copy too.
    #[test]
    fn entries_leave_one_at_a_time_as_from_a_vecdeque_and_copies_keep_theirs() {
        let (mut d, mut model) = (ChunkedDeque::default(), VecDeque::new());
        let mut copies: Vec<(ChunkedDeque<u64>, VecDeque<u64>)> = Vec::new();
        let (mut state, mut emptied) = (7u64, 0);
        for step in 0..20_000u64 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            // pushes slightly outnumber pops: the sequence empties now and then near the start
            // and grows past several chunks later
            match (state >> 33) % 9 {
                0..=4 => {
                    d.push_back(step);
                    model.push_back(step);
                }
                _ => assert_eq!(d.pop_front(), model.pop_front().is_some()),
            }
            emptied += u32::from(model.is_empty());
            if step % 997 == 0 {
                copies.push((d.clone(), model.clone()));
            }
            if step % 101 == 0 {
                assert_matches(&d, &model);
            }
        }
        assert!(model.len() > 2 * CHUNK, "the run reached several chunks");
        assert!(emptied > 1, "and emptied on the way");
        for (copy, model) in &copies {
            assert_matches(copy, model);
        }
        while d.pop_front() {}
        assert!(d.is_empty() && d.front().is_none() && d.back().is_none());
    }

    fn assert_matches(d: &ChunkedDeque<u64>, model: &VecDeque<u64>) {
        assert_eq!(d.len(), model.len());
        assert_eq!((d.front(), d.back()), (model.front(), model.back()));
        assert!(d.iter().eq(model.iter()));
        assert!(d.iter().rev().eq(model.iter().rev()));
        assert!((0..model.len()).all(|i| d.get(i) == model.get(i)));
        assert_eq!(d.get(model.len()), None);
        assert!(d.range_from(0).eq(model.iter()));
    }

    #[test]
    fn a_chunk_whose_entries_all_left_is_dropped_and_its_buffer_reused() {
        let mut d = filled(2 * CHUNK + 1);
        for _ in 0..CHUNK - 1 {
            d.pop_front();
        }
        assert_eq!(
            (d.full.len(), d.spare.capacity()),
            (2, 0),
            "one entry still held"
        );
        d.pop_front();
        assert_eq!(
            (d.full.len(), d.spare.capacity()),
            (1, CHUNK),
            "the chunk went"
        );
        assert_eq!(d.front(), Some(&CHUNK));
    }
}
