//! Membership collections for queue items (client-go `util/workqueue/queue.go` keeps `dirty` and
//! `processing` as Go maps, `sets.Set[T]`).
//!
//! They answer only "is this item in?"; nothing iterates them, so their order can never reach a
//! trace or an output. The hasher has fixed keys, so a run behaves the same natively and in wasm32.
//! They are plain hash maps, copied whole with a checkpoint: touched several times per event, a
//! trie shared with the checkpoints cost every event more than the copy costs a checkpoint.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A set of queue items, looked up by hash instead of by comparing keys.
pub(crate) type ItemSet<T> = HashSet<T, BuildHasherDefault<ItemHasher>>;

/// A map from queue items, looked up by hash instead of by comparing keys.
pub(crate) type ItemMap<T, V> = HashMap<T, V, BuildHasherDefault<ItemHasher>>;

/// A fast, fixed hasher for short keys: eight bytes per multiply (the multiply-rotate scheme of
/// rustc's `FxHasher`). Not resistant to chosen collisions, which a simulation's own keys are not.
#[derive(Default)]
pub(crate) struct ItemHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;
/// The golden-ratio constant of Fibonacci hashing, for the final fold.
const FOLD: u64 = 0x9e37_79b9_7f4a_7c15;

impl ItemHasher {
    fn mix(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for ItemHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.mix(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.mix(u64::from_le_bytes(word));
        }
        self.mix(bytes.len() as u64);
    }

    fn write_u8(&mut self, value: u8) {
        self.mix(u64::from(value));
    }

    fn write_u32(&mut self, value: u32) {
        self.mix(u64::from(value));
    }

    fn write_u64(&mut self, value: u64) {
        self.mix(value);
    }

    fn write_usize(&mut self, value: usize) {
        self.mix(value as u64);
    }

    /// Folds the high half of a final 128-bit product into the low half: the last multiply
    /// leaves the low bits (which pick a bucket) depending only on the low bytes of the last word,
    /// so keys that differ in later digits would crowd into few buckets.
    fn finish(&self) -> u64 {
        let product = u128::from(self.0) * u128::from(FOLD);
        (product as u64) ^ ((product >> 64) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::Key;

    #[test]
    fn keys_differing_only_in_later_digits_spread_over_the_low_bits_that_pick_a_bucket() {
        use std::hash::BuildHasher;
        let build = BuildHasherDefault::<ItemHasher>::default();
        let buckets: HashSet<u64> = (0..20_000)
            .map(|i| build.hash_one(Key::of("ns-0", &format!("demo-{i}"))) & 0xffff)
            .collect();
        assert!(
            buckets.len() > 15_000,
            "20 000 keys reach {} of 65 536 buckets",
            buckets.len()
        );
    }

    #[test]
    fn an_item_set_holds_each_key_once_and_finds_it_by_an_equal_key_in_another_allocation() {
        let mut set = ItemSet::default();
        assert!(set.insert(Key::of("ns-1", "demo-1")));
        assert!(!set.insert(Key::from("ns-1/demo-1")));
        assert!(set.contains(&Key::from("ns-1/demo-1")));
        assert!(!set.contains(&Key::from("ns-1/demo-10")));
        assert!(set.remove(&Key::of("ns-1", "demo-1")));
        assert!(set.is_empty());
    }

    #[test]
    fn the_hasher_tells_apart_keys_that_differ_in_one_byte_or_in_length() {
        let hash = |text: &str| {
            let mut h = ItemHasher::default();
            h.write(text.as_bytes());
            h.finish()
        };
        assert_ne!(hash("ns-1/demo-10"), hash("ns-1/demo-11"));
        assert_ne!(hash("ns-1/demo-1"), hash("ns-1/demo-1\0"));
        assert_eq!(hash("ns-1/demo-10"), hash("ns-1/demo-10"));
    }

    #[test]
    fn an_item_map_keeps_one_value_per_key() {
        let mut map = ItemMap::default();
        map.insert(Key::of("ns-1", "demo-2"), 1);
        map.insert(Key::from("ns-1/demo-2"), 2);
        assert_eq!(map.len(), 1);
        assert_eq!(map.remove(&Key::of("ns-1", "demo-2")), Some(2));
    }
}
