//! Where each queued key's slot is in a [`DeltaFifo`](super::delta_fifo::DeltaFifo)'s queue:
//! upstream's `items` map reduced to a hash table of slot sequence numbers.
//!
//! The table holds no key. A slot keeps its key and the key's hash, so a lookup compares the
//! sought key with the key of the slot an entry names (usually the same allocation, equal
//! without reading text), and a pop removes the head's entry by the hash its slot kept and its
//! sequence number: it reads neither the popped key's text nor any other key. An entry is eight
//! bytes where a key and its place were twenty-four, so 150 000 queued keys take a third of the
//! memory and of the cache lines, and a checkpoint copies the table as one block, touching no
//! key's reference count.
//!
//! Invariant: the table holds exactly one entry per slot in the queue, the slot's sequence
//! number, placed by the slot's hash.

use std::hash::BuildHasher;

use hashbrown::hash_table::HashTable;

use crate::key::Key;
use crate::workqueue::set::ItemBuildHasher;

/// Slot sequence numbers placed by their slot's key hash.
#[derive(Clone, Debug, Default)]
pub(super) struct SlotIndex(HashTable<u64>);

/// The hash a slot keeps for `key`: the queue collections' fixed hash of the key's text.
pub(super) fn hash_key(key: &str) -> u64 {
    ItemBuildHasher::default().hash_one(key)
}

impl SlotIndex {
    /// The sequence number of `key`'s slot (hash `hash`); `key_at` gives the key of the slot of a
    /// sequence number.
    pub(super) fn find<'a>(
        &self,
        hash: u64,
        key: &str,
        key_at: impl Fn(u64) -> Option<&'a Key>,
    ) -> Option<u64> {
        let found = self
            .0
            .find(hash, |&seq| key_at(seq).is_some_and(|k| k.as_str() == key));
        found.copied()
    }

    /// Adds the slot `seq`, whose key has hash `hash`; `hash_at` gives the hash kept by the slot
    /// of a sequence number already in (the table may grow and place them again).
    pub(super) fn insert(&mut self, hash: u64, seq: u64, hash_at: impl Fn(u64) -> u64) {
        self.0.insert_unique(hash, seq, |&s| hash_at(s));
    }

    /// Removes the slot `seq`, whose key has hash `hash`; returns whether it was in.
    pub(super) fn remove(&mut self, hash: u64, seq: u64) -> bool {
        match self.0.find_entry(hash, |&s| s == seq) {
            Ok(entry) => {
                entry.remove();
                true
            }
            Err(_) => false,
        }
    }

    /// Makes room for `additional` more slots at once.
    pub(super) fn reserve(&mut self, additional: usize, hash_at: impl Fn(u64) -> u64) {
        self.0.reserve(additional, |&s| hash_at(s));
    }

    /// The number of slots.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it holds no slot.
    #[cfg(test)]
    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
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
            self.index
                .insert(hash, seq, |s| keys[(s - head) as usize].1);
            self.keys.push((Key::from(text), hash));
        }

        fn pop(&mut self) -> bool {
            let (_, hash) = self.keys.remove(0);
            self.head += 1;
            self.index.remove(hash, self.head - 1)
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
            assert!(queue.pop(), "the head's entry is found by its slot's hash");
        }
        assert_eq!(queue.find("ns-3/demo-10"), None, "popped");
        assert_eq!(queue.find("ns-4/demo-11"), Some(11));
        queue.push("ns-3/demo-10");
        assert_eq!(
            queue.find("ns-3/demo-10"),
            Some(5_000),
            "queued again at the tail: 11 + 4 989"
        );
        assert_eq!(queue.index.len(), 4_990);
        assert!(
            !queue.index.remove(hash_key("ns-4/demo-11"), 3),
            "no slot 3"
        );
    }
}
