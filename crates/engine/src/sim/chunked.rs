//! A double-ended sequence kept in fixed-size chunks that copies share: the trace's ring of
//! events, which every checkpoint of a run holds.
//!
//! ```text
//!   full chunks (shared, never written again)          tail (the run's own)
//!   [ Rc: 0 … 255 ][ Rc: 256 … 511 ] … [ Rc: … ]        [ newest, fewer than CHUNK ]
//!        ▲ pop_front_chunk drops a whole chunk               ▲ push_back; a full tail
//!                                                              becomes a shared chunk
//! ```
//!
//! Copying the sequence copies the chunks' pointers and the tail, so a checkpoint of a run with
//! 20 000 events in its ring copies at most [`CHUNK`] of them; appending costs what appending
//! to a `Vec` costs. Entries are only appended at the back and removed a chunk at a time from the
//! front: a full chunk is never written again, so it never needs copying.
//!
//! Not [`super::shared::SharedVec`]: that persistent vector also shares its copies, but every
//! push walks and may copy its tree's path, which cost the ring more per event than copying the
//! whole ring cost each checkpoint. Here a push is a `Vec` push.

use std::collections::VecDeque;
use std::ops::Index;
use std::rc::Rc;

/// Entries per chunk.
pub const CHUNK: usize = 256;

/// A sequence appended at the back and dropped a chunk at a time at the front, whose copies
/// share every full chunk.
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
}

impl<T> Default for ChunkedDeque<T> {
    fn default() -> Self {
        ChunkedDeque {
            full: VecDeque::new(),
            tail: Vec::new(),
            spare: Vec::new(),
        }
    }
}

impl<T> ChunkedDeque<T> {
    /// Entries held.
    pub fn len(&self) -> usize {
        self.full.len() * CHUNK + self.tail.len()
    }

    /// Entries in full chunks, which copies share.
    pub fn shared_len(&self) -> usize {
        self.full.len() * CHUNK
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

    /// Drops the oldest full chunk; returns whether there was one. Its buffer is kept for the
    /// next tail when no copy holds the chunk.
    pub fn pop_front_chunk(&mut self) -> bool {
        let Some(chunk) = self.full.pop_front() else {
            return false;
        };
        if let Ok(mut buffer) = Rc::try_unwrap(chunk) {
            buffer.clear();
            self.spare = buffer;
        }
        true
    }

    /// Entry `index` (0 is the oldest), if held.
    pub fn get(&self, index: usize) -> Option<&T> {
        match self.full.get(index / CHUNK) {
            Some(chunk) => chunk.get(index % CHUNK),
            None => self.tail.get(index - self.shared_len()),
        }
    }

    /// The newest entry, if any.
    pub fn back(&self) -> Option<&T> {
        self.tail
            .last()
            .or_else(|| self.full.back().and_then(|chunk| chunk.last()))
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
}
