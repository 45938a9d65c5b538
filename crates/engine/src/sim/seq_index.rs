//! Where each queued entry of a FIFO is, by its key's hash: a hash table of the entries'
//! sequence numbers, holding no key. The DeltaFIFO's index of its slots (upstream's `items`
//! map) and the workqueue's of its queued items (the queued half of upstream's `dirty` set).
//!
//! An entry keeps its key and the key's hash in the FIFO, so a lookup compares the sought key
//! with the key at a sequence number the table names (usually the same allocation, equal
//! without reading text). A table entry is eight bytes where a key and its place were twenty-four
//! or more, so 150 000 queued keys take a third of the memory and of the cache lines, and a
//! checkpoint copies the table as one block, touching no key's reference count.
//!
//! The head leaves without a lookup: the FIFO keeps, with each entry, the bucket the table put
//! it in ([`Place`]), and the head's bucket is emptied by its index, which writes the table's
//! control bytes (a byte a bucket, a small array) and reads no bucket. A lookup by hash would
//! have read the bucket to compare, and at 150 000 queued keys the bucket is a cache miss. A
//! place is good until the table places its entries again (growing, or rehashing in place);
//! the head of an entry placed before that is left in the table, stale: nothing in the FIFO has
//! its sequence number any more, so no lookup can match it. Stale entries are swept out together,
//! in the table's own order, once they are a quarter of what the table can hold, and before the
//! table would grow (growing places every entry again by its hash, which a stale entry no longer
//! has).
//!
//! Invariant: the table holds exactly one entry per entry of the FIFO, its sequence number,
//! placed by its key's hash, and [`SeqIndex::stale`] entries below the head.

use hashbrown::hash_table::HashTable;

/// The fewest stale entries a sweep waits for, however small the table.
const SWEEP_MIN: usize = 64;

/// Sequence numbers placed by their entry's key hash.
#[derive(Clone, Debug, Default)]
pub(crate) struct SeqIndex {
    table: HashTable<u64>,
    /// Entries that left the FIFO, not swept yet.
    stale: usize,
    /// Counts the times the table may have placed its entries again: a [`Place`] of an earlier
    /// layout is not to be trusted.
    layout: u32,
}

/// Where entry `seq` stands in a FIFO whose head is `head` (0 for the head); `None` for an entry
/// that left it.
pub(crate) fn position(seq: u64, head: u64) -> Option<usize> {
    usize::try_from(seq.checked_sub(head)?).ok()
}

/// The bucket an entry was put in, in the table's layout of the time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Place {
    bucket: u32,
    layout: u32,
}

impl SeqIndex {
    /// The sequence number of the entry whose key has hash `hash` and for which `is_it` holds
    /// (`is_it` compares the key at a sequence number with the sought one, and is false for
    /// one that left the FIFO).
    pub(crate) fn find(&self, hash: u64, is_it: impl Fn(u64) -> bool) -> Option<u64> {
        self.table.find(hash, |&seq| is_it(seq)).copied()
    }

    /// Adds the entry `seq`, whose key has hash `hash`; `head` is the FIFO's head sequence
    /// number, and `hash_at` gives the hash kept by the entry of a sequence number in the FIFO
    /// (the table may grow and place them again, after the stale entries are swept).
    pub(crate) fn insert(
        &mut self,
        hash: u64,
        seq: u64,
        head: u64,
        hash_at: impl Fn(u64) -> u64,
    ) -> Place {
        if self.table.len() == self.table.capacity() {
            self.sweep(head);
        }
        if self.table.len() == self.table.capacity() {
            // no room left: the insert grows the table or rehashes it in place
            self.layout = self.layout.wrapping_add(1);
        }
        let bucket = self
            .table
            .insert_unique(hash, seq, |&s| hash_at(s))
            .bucket_index();
        Place {
            bucket: u32::try_from(bucket).unwrap_or(u32::MAX),
            layout: self.layout,
        }
    }

    /// The head entry, put at `place`, left the FIFO; `head` is the new head's sequence number.
    /// Its bucket is emptied if the table kept its layout since, else the entry stays, stale,
    /// until the next sweep.
    pub(crate) fn remove_head(&mut self, place: Place, head: u64) {
        if place.layout == self.layout {
            if let Ok(entry) = self.table.get_bucket_entry(place.bucket as usize) {
                debug_assert_eq!(*entry.get() + 1, head, "the head's bucket holds the head");
                entry.remove();
                return;
            }
        }
        self.forget_head(head);
    }

    /// The head entry left the FIFO; `head` is the new head's sequence number. Its table entry
    /// stays until the next sweep.
    fn forget_head(&mut self, head: u64) {
        self.stale += 1;
        if self.stale >= SWEEP_MIN && self.stale >= self.table.capacity() / 4 {
            self.sweep(head);
        }
    }

    /// Makes room for `additional` more entries at once (see [`SeqIndex::insert`]).
    pub(crate) fn reserve(&mut self, additional: usize, head: u64, hash_at: impl Fn(u64) -> u64) {
        if self.table.capacity() - self.table.len() < additional {
            self.sweep(head);
        }
        if self.table.capacity() - self.table.len() < additional {
            self.layout = self.layout.wrapping_add(1);
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

    /// The number of entries in the FIFO.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.table.len() - self.stale
    }

    /// The number of table entries, stale ones included.
    #[cfg(test)]
    pub(crate) fn entries(&self) -> usize {
        self.table.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::Key;
    use crate::workqueue::set::hash_of as hash_key;

    /// A queue of keys from sequence number `head`, with the index over it.
    struct Queue {
        head: u64,
        keys: Vec<(Key, u64, Place)>,
        index: SeqIndex,
    }

    impl Queue {
        fn new() -> Queue {
            Queue {
                head: 0,
                keys: Vec::new(),
                index: SeqIndex::default(),
            }
        }

        fn push(&mut self, text: &str) {
            let hash = hash_key(text);
            let seq = self.head + self.keys.len() as u64;
            let (head, keys) = (self.head, &self.keys);
            // a stale entry's hash is not there to give: `s - head` underflows for it
            let place = self
                .index
                .insert(hash, seq, head, |s| keys[(s - head) as usize].1);
            self.keys.push((Key::from(text), hash, place));
        }

        fn pop(&mut self) {
            let (_, _, place) = self.keys.remove(0);
            self.head += 1;
            self.index.remove_head(place, self.head);
        }

        fn find(&self, text: &str) -> Option<u64> {
            let (head, keys) = (self.head, &self.keys);
            let key_at = |s: u64| keys.get(position(s, head)?).map(|(k, _, _)| k);
            let is_it = |s: u64| key_at(s).is_some_and(|k| k.as_str() == text);
            self.index.find(hash_key(text), is_it)
        }
    }

    fn text(i: usize) -> String {
        format!("ns-{}/demo-{i}", i % 7)
    }

    #[test]
    fn a_key_is_found_at_its_slot_until_its_slot_pops_and_a_pop_empties_its_bucket() {
        let mut queue = Queue::new();
        for i in 0..5_000 {
            queue.push(&text(i));
        }
        assert_eq!(queue.index.len(), 5_000);
        assert_eq!(queue.find("ns-3/demo-10"), Some(10));
        assert_eq!(queue.find("ns-3/demo-5000"), None);
        // the table grew as the keys came: the places of the last ones are of its last layout
        let mut fresh = Queue::new();
        fresh.index.reserve(100, 0, |_| 0);
        for i in 0..60 {
            fresh.push(&text(i));
        }
        for _ in 0..11 {
            fresh.pop();
        }
        assert_eq!(fresh.index.entries(), 49, "each pop emptied its bucket");
        assert_eq!(fresh.find("ns-3/demo-10"), None, "popped");
        assert_eq!(fresh.find("ns-4/demo-11"), Some(11));
        fresh.push("ns-3/demo-10");
        assert_eq!(
            fresh.find("ns-3/demo-10"),
            Some(60),
            "queued again at the tail: 11 + 49"
        );
        assert_eq!(fresh.index.len(), 50);
    }

    #[test]
    fn entries_placed_before_the_table_grew_go_stale_and_are_swept_before_it_grows_again() {
        let mut queue = Queue::new();
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
        assert!(
            queue.index.entries() > queue.index.len(),
            "some pops left their entries: placed before the table last grew"
        );
        // growing past the capacity places every entry again: only live ones may be left
        for i in 5_000..20_000 {
            queue.push(&text(i));
        }
        assert_eq!(queue.index.len(), 16_000);
        for i in (0..20_000).step_by(97) {
            let expected = (i >= 4_000).then_some(i as u64);
            assert_eq!(queue.find(&text(i)), expected, "{}", text(i));
        }
        for _ in 0..16_000 {
            queue.pop();
        }
        assert_eq!(queue.index.len(), 0);
        assert!(queue.index.entries() < queue.index.table.capacity() / 4);
    }

    #[test]
    fn a_short_queue_that_keeps_turning_over_stays_a_short_table() {
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
