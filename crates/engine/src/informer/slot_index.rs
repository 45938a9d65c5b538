//! Where each queued key's slot is in a [`DeltaFifo`](super::delta_fifo::DeltaFifo)'s queue:
//! upstream's `items` map reduced to a hash table of slot sequence numbers.
//!
//! The table holds no key. A slot keeps its key and the key's hash, so a lookup compares the
//! sought key with the key of the slot an entry names (usually the same allocation, equal
//! without reading text). An entry is eight bytes where a key and its place were twenty-four,
//! so 150 000 queued keys take a third of the memory and of the cache lines, and a checkpoint
//! copies the table as one block, touching no key's reference count.
//!
//! A pop does not remove the head's entry: it only moves the head on. Every entry below the
//! head is stale — no slot has its sequence number any more, so no lookup can match it — and
//! stale entries are swept out together, in the table's own order, once they are a quarter of
//! what the table can hold, and before the table would grow (growing places every entry again
//! by its slot's hash, which a stale entry no longer has). Removing each at its pop read a line
//! of the table that the pop had no other reason to read: at 150 000 queued keys a cache miss,
//! 3 % of the incident's time.
//!
//! Invariant: the table holds exactly one entry per slot in the queue, the slot's sequence
//! number, placed by the slot's hash, and [`SlotIndex::stale`] entries below the head.

use std::hash::BuildHasher;

use hashbrown::hash_table::HashTable;

use crate::key::Key;
use crate::workqueue::set::ItemBuildHasher;

/// The fewest stale entries a sweep waits for, however small the table.
const SWEEP_MIN: usize = 64;

/// Slot sequence numbers placed by their slot's key hash.
#[derive(Clone, Debug, Default)]
pub(super) struct SlotIndex {
    table: HashTable<u64>,
    /// Entries of slots that left the queue, not swept yet.
    stale: usize,
}

/// The hash a slot keeps for `key`: the queue collections' fixed hash of the key's text.
pub(super) fn hash_key(key: &str) -> u64 {
    ItemBuildHasher::default().hash_one(key)
}

impl SlotIndex {
    /// The sequence number of `key`'s slot (hash `hash`); `key_at` gives the key of the slot of a
    /// sequence number, `None` for one that left the queue.
    pub(super) fn find<'a>(
        &self,
        hash: u64,
        key: &str,
        key_at: impl Fn(u64) -> Option<&'a Key>,
    ) -> Option<u64> {
        let found = self
            .table
            .find(hash, |&seq| key_at(seq).is_some_and(|k| k.as_str() == key));
        found.copied()
    }

    /// Adds the slot `seq`, whose key has hash `hash`; `head` is the queue's head sequence
    /// number, and `hash_at` gives the hash kept by the slot of a sequence number in the queue
    /// (the table may grow and place them again, after the stale entries are swept).
    pub(super) fn insert(&mut self, hash: u64, seq: u64, head: u64, hash_at: impl Fn(u64) -> u64) {
        if self.table.len() == self.table.capacity() {
            self.sweep(head);
        }
        self.table.insert_unique(hash, seq, |&s| hash_at(s));
    }

    /// The head slot left the queue; `head` is the new head's sequence number. Its entry stays
    /// until the next sweep.
    pub(super) fn forget_head(&mut self, head: u64) {
        self.stale += 1;
        if self.stale >= SWEEP_MIN && self.stale >= self.table.capacity() / 4 {
            self.sweep(head);
        }
    }

    /// Makes room for `additional` more slots at once (see [`SlotIndex::insert`]).
    pub(super) fn reserve(&mut self, additional: usize, head: u64, hash_at: impl Fn(u64) -> u64) {
        if self.table.capacity() - self.table.len() < additional {
            self.sweep(head);
        }
        self.table.reserve(additional, |&s| hash_at(s));
    }

    /// Removes every entry below `head`.
    fn sweep(&mut self, head: u64) {
        if self.stale > 0 {
            self.table.retain(|&mut seq| seq >= head);
            self.stale = 0;
        }
    }

    /// The number of slots in the queue.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.table.len() - self.stale
    }

    /// The number of entries, stale ones included.
    #[cfg(test)]
    pub(super) fn entries(&self) -> usize {
        self.table.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A queue of keys from sequence number `head`, with the index over it.
    struct Queue {
        head: u64,
        keys: Vec<(Key, u64)>,
        index: SlotIndex,
    }

    impl Queue {
        fn new() -> Queue {
            Queue {
                head: 0,
                keys: Vec::new(),
                index: SlotIndex::default(),
            }
        }

        fn push(&mut self, text: &str) {
            let hash = hash_key(text);
            let seq = self.head + self.keys.len() as u64;
            let (head, keys) = (self.head, &self.keys);
            // a stale entry's hash is not there to give: `s - head` underflows for it
            self.index
                .insert(hash, seq, head, |s| keys[(s - head) as usize].1);
            self.keys.push((Key::from(text), hash));
        }

        fn pop(&mut self) {
            self.keys.remove(0);
            self.head += 1;
            self.index.forget_head(self.head);
        }

        fn find(&self, text: &str) -> Option<u64> {
            let (head, keys) = (self.head, &self.keys);
            let key_at = |s: u64| {
                let i = usize::try_from(s.checked_sub(head)?).ok()?;
                keys.get(i).map(|(k, _)| k)
            };
            self.index.find(hash_key(text), text, key_at)
        }
    }

    #[test]
    fn a_key_is_found_at_its_slot_until_its_slot_pops_and_the_table_grows_without_losing_one() {
        let mut queue = Queue::new();
        let texts: Vec<String> = (0..5_000)
            .map(|i| format!("ns-{}/demo-{i}", i % 7))
            .collect();
        for text in &texts {
            queue.push(text);
        }
        assert_eq!(queue.index.len(), 5_000);
        assert_eq!(queue.find("ns-3/demo-10"), Some(10));
        assert_eq!(queue.find("ns-3/demo-5000"), None);
        for _ in 0..11 {
            queue.pop();
        }
        assert_eq!(
            queue.index.entries(),
            5_000,
            "popped entries wait for a sweep"
        );
        assert_eq!(queue.find("ns-3/demo-10"), None, "popped");
        assert_eq!(queue.find("ns-4/demo-11"), Some(11));
        queue.push("ns-3/demo-10");
        assert_eq!(
            queue.find("ns-3/demo-10"),
            Some(5_000),
            "queued again at the tail: 11 + 4 989, its stale entry passed over"
        );
        assert_eq!(queue.index.len(), 4_990);
    }

    #[test]
    fn stale_entries_are_swept_before_the_table_grows_and_once_they_are_a_quarter_of_it() {
        let mut queue = Queue::new();
        let text = |i: usize| format!("ns-{}/demo-{i}", i % 7);
        for i in 0..5_000 {
            queue.push(&text(i));
        }
        for _ in 0..4_000 {
            queue.pop();
        }
        let capacity = queue.index.table.capacity();
        assert!(
            queue.index.stale < capacity / 4,
            "swept at a quarter: {} stale of {capacity}",
            queue.index.stale
        );
        // growing past the capacity places every entry again: only live ones may be left
        for i in 5_000..20_000 {
            queue.push(&text(i));
        }
        assert_eq!(queue.index.len(), 16_000);
        assert!(queue.index.entries() < 16_000 + capacity / 4);
        for i in (0..20_000).step_by(97) {
            let expected = (i >= 4_000).then_some(i as u64);
            assert_eq!(queue.find(&text(i)), expected, "{}", text(i));
        }
        // a short queue that keeps turning over stays a short table
        let mut turning = Queue::new();
        for i in 0..100_000 {
            turning.push(&text(i % 10));
            if i >= 3 {
                turning.pop();
            }
        }
        assert_eq!(turning.index.len(), 3);
        assert!(turning.index.entries() <= 3 + 4 * SWEEP_MIN);
        assert!(turning.index.table.capacity() <= 8 * SWEEP_MIN);
    }
}
