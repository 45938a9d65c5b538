//! Membership collections for queue items (client-go `util/workqueue/queue.go` keeps `dirty` and
//! `processing` as Go maps, `sets.Set[T]`).
//!
//! They answer only "is this item in?"; nothing iterates them in an order that reaches a trace
//! or an output. The hasher has fixed keys, so a run behaves the same natively and in wasm32.
//! They are plain hash maps, copied with a checkpoint: touched several times per event, a trie
//! shared with the checkpoints cost every event more than the copy costs a checkpoint.
//!
//! A map is [`SHARDS`] hash maps, each key in the one its hash picks, so that a copy or a free
//! can go a shard at a time ([`crate::sim::large`]): at 150 000 keys a whole map was a 45–70 ms
//! browser task, where a shard is a sixteenth of it. A shard is copied whole, which keeps its
//! layout (a copy entry by entry would hash and place every key again, ten times slower).

use std::borrow::Borrow;
use std::collections::HashSet;
use std::fmt;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};

use hashbrown::hash_table::{self, HashTable};

/// The fixed hasher of the queue collections.
pub(crate) type ItemBuildHasher = BuildHasherDefault<ItemHasher>;

/// A set of queue items, looked up by hash instead of by comparing keys.
pub(crate) type ItemSet<T> = HashSet<T, ItemBuildHasher>;

/// How many shards an [`ItemMap`] has.
pub(crate) const SHARDS: usize = 16;

/// `key`'s hash: it picks the shard and the place in it, so each operation hashes once. The
/// FIFOs' indexes of places ([`crate::sim::seq_index`]) place their entries by it too.
pub(crate) fn hash_of<Q: Hash + ?Sized>(key: &Q) -> u64 {
    ItemBuildHasher::default().hash_one(key)
}

/// The shard of a key of hash `hash`: four bits that neither the shard's bucket index (the low
/// bits) nor its control byte (the top seven) uses.
fn shard_of(hash: u64) -> usize {
    (hash >> 32) as usize % SHARDS
}

/// One shard of an [`ItemMap`]: entries placed by their key's hash, given by the map.
pub(crate) struct Shard<K, V>(HashTable<(K, V)>);

impl<K, V> Default for Shard<K, V> {
    fn default() -> Self {
        Shard(HashTable::new())
    }
}

impl<K: Clone, V: Clone> Clone for Shard<K, V> {
    fn clone(&self) -> Self {
        Shard(self.0.clone())
    }

    /// Keeps the layout of `source` (no key is hashed again) and the room already allocated.
    fn clone_from(&mut self, source: &Self) {
        self.0.clone_from(&source.0);
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for Shard<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Hash + Eq, V: PartialEq> PartialEq for Shard<K, V> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self.iter().all(|(k, v)| {
                other
                    .0
                    .find(hash_of(k), |(o, _)| o == k)
                    .is_some_and(|(_, w)| w == v)
            })
    }
}

impl<K, V> Shard<K, V> {
    /// The number of entries.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it holds no entry.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Every entry, in the order of its places.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

/// A map from queue items, looked up by hash instead of by comparing keys, in [`SHARDS`] shards.
/// Each operation hashes its key once: the hash picks the shard and the place in it.
#[derive(Clone, Debug)]
pub(crate) struct ItemMap<K, V> {
    shards: Box<[Shard<K, V>; SHARDS]>,
}

impl<K, V> Default for ItemMap<K, V> {
    fn default() -> Self {
        ItemMap {
            shards: Box::new(std::array::from_fn(|_| Shard::default())),
        }
    }
}

impl<K: Hash + Eq, V: PartialEq> PartialEq for ItemMap<K, V> {
    fn eq(&self, other: &Self) -> bool {
        self.shards == other.shards
    }
}

impl<K: Hash + Eq, V> ItemMap<K, V> {
    /// The shard of a key of hash `hash`.
    fn shard(&self, hash: u64) -> &HashTable<(K, V)> {
        &self.shards[shard_of(hash)].0
    }

    /// The shard of a key of hash `hash`, to change.
    fn shard_mut(&mut self, hash: u64) -> &mut HashTable<(K, V)> {
        &mut self.shards[shard_of(hash)].0
    }

    /// The shard of a key of hash `hash`, unless it is empty: the sets of the few items being
    /// processed or parked leave most shards empty, and an empty one answers "absent" before
    /// the table's probe.
    fn filled_shard(&self, hash: u64) -> Option<&HashTable<(K, V)>> {
        let shard = self.shard(hash);
        (!shard.is_empty()).then_some(shard)
    }

    /// [`ItemMap::filled_shard`], to change.
    fn filled_shard_mut(&mut self, hash: u64) -> Option<&mut HashTable<(K, V)>> {
        let shard = self.shard_mut(hash);
        (!shard.is_empty()).then_some(shard)
    }

    /// The number of entries.
    pub(crate) fn len(&self) -> usize {
        self.shards.iter().map(Shard::len).sum()
    }

    /// Whether it holds no entry: the shards' counts or-ed together, without a branch per shard
    /// (a rate limiter's `Forget` asks this of every successful reconcile).
    pub(crate) fn is_empty(&self) -> bool {
        self.shards.iter().fold(0, |any, shard| any | shard.len()) == 0
    }

    /// The value of `key`.
    pub(crate) fn get<Q: Hash + Eq + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.get_hashed(hash_of(key), key)
    }

    /// [`ItemMap::get`] of a key whose hash ([`hash_of`]) is `hash`.
    pub(crate) fn get_hashed<Q: Eq + ?Sized>(&self, hash: u64, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        let found = self
            .filled_shard(hash)?
            .find(hash, |(k, _)| k.borrow() == key);
        found.map(|(_, v)| v)
    }

    /// The value of `key`, to change.
    pub(crate) fn get_mut<Q: Hash + Eq + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.get_mut_hashed(hash_of(key), key)
    }

    /// [`ItemMap::get_mut`] of a key whose hash ([`hash_of`]) is `hash`.
    pub(crate) fn get_mut_hashed<Q: Eq + ?Sized>(&mut self, hash: u64, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        let found = self
            .filled_shard_mut(hash)?
            .find_mut(hash, |(k, _)| k.borrow() == key);
        found.map(|(_, v)| v)
    }

    /// Whether `key` is in.
    pub(crate) fn contains_key<Q: Hash + Eq + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.get(key).is_some()
    }

    /// Sets `key`'s value; returns the value it replaced.
    pub(crate) fn insert(&mut self, key: K, value: V) -> Option<V> {
        self.insert_hashed(hash_of(&key), key, value)
    }

    /// [`ItemMap::insert`] of a key whose hash ([`hash_of`]) is `hash`.
    pub(crate) fn insert_hashed(&mut self, hash: u64, key: K, value: V) -> Option<V> {
        match self.entry_hashed(hash, key) {
            Entry::Occupied(mut entry) => Some(std::mem::replace(entry.get_mut(), value)),
            Entry::Vacant(entry) => {
                entry.insert(value);
                None
            }
        }
    }

    /// Removes `key`; returns its value.
    pub(crate) fn remove<Q: Hash + Eq + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.remove_hashed(hash_of(key), key)
    }

    /// [`ItemMap::remove`] of a key whose hash ([`hash_of`]) is `hash`.
    pub(crate) fn remove_hashed<Q: Eq + ?Sized>(&mut self, hash: u64, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        let found = self
            .filled_shard_mut(hash)?
            .find_entry(hash, |(k, _)| k.borrow() == key);
        found.ok().map(|entry| entry.remove().0 .1)
    }

    /// `key`'s entry, to read or fill in place.
    pub(crate) fn entry(&mut self, key: K) -> Entry<'_, K, V> {
        self.entry_hashed(hash_of(&key), key)
    }

    /// [`ItemMap::entry`] of a key whose hash ([`hash_of`]) is `hash`.
    pub(crate) fn entry_hashed(&mut self, hash: u64, key: K) -> Entry<'_, K, V> {
        let shard = self.shard_mut(hash);
        match shard.entry(hash, |(k, _)| *k == key, |(k, _)| hash_of(k)) {
            hash_table::Entry::Occupied(entry) => Entry::Occupied(OccupiedEntry(entry)),
            hash_table::Entry::Vacant(entry) => Entry::Vacant(VacantEntry { entry, key }),
        }
    }

    /// Every entry, shard by shard.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.shards.iter().flat_map(Shard::iter)
    }

    /// Makes room for `additional` more entries, spread as the hash spreads them.
    pub(crate) fn reserve(&mut self, additional: usize) {
        for shard in self.shards.iter_mut() {
            shard
                .0
                .reserve(additional.div_ceil(SHARDS), |(k, _)| hash_of(k));
        }
    }

    /// The shards, for copies and frees a shard at a time.
    pub(crate) fn shards(&self) -> &[Shard<K, V>; SHARDS] {
        &self.shards
    }

    /// The shards, to change.
    pub(crate) fn shards_mut(&mut self) -> &mut [Shard<K, V>; SHARDS] {
        &mut self.shards
    }
}

/// A key's place in an [`ItemMap`], found with one hash: taken or free.
pub(crate) enum Entry<'a, K, V> {
    /// The key is in the map.
    Occupied(OccupiedEntry<'a, K, V>),
    /// The key is not in the map.
    Vacant(VacantEntry<'a, K, V>),
}

/// The entry of a key that is in an [`ItemMap`].
pub(crate) struct OccupiedEntry<'a, K, V>(hash_table::OccupiedEntry<'a, (K, V)>);

/// The free place of a key that is not in an [`ItemMap`], with the key.
pub(crate) struct VacantEntry<'a, K, V> {
    entry: hash_table::VacantEntry<'a, (K, V)>,
    key: K,
}

impl<'a, K, V> Entry<'a, K, V> {
    /// The value, `default` put in first if the key was not in.
    pub(crate) fn or_insert(self, default: V) -> &'a mut V {
        match self {
            Entry::Occupied(entry) => entry.into_mut(),
            Entry::Vacant(entry) => entry.insert(default),
        }
    }

    /// The value, `V::default()` put in first if the key was not in.
    pub(crate) fn or_default(self) -> &'a mut V
    where
        V: Default,
    {
        self.or_insert(V::default())
    }
}

impl<'a, K, V> OccupiedEntry<'a, K, V> {
    /// The value, to change.
    pub(crate) fn get_mut(&mut self) -> &mut V {
        &mut self.0.get_mut().1
    }

    /// The value, to change, for as long as the map is borrowed.
    pub(crate) fn into_mut(self) -> &'a mut V {
        &mut self.0.into_mut().1
    }
}

impl<'a, K, V> VacantEntry<'a, K, V> {
    /// Puts the key in with `value`; returns the value, to change.
    pub(crate) fn insert(self, value: V) -> &'a mut V {
        &mut self.entry.insert((self.key, value)).into_mut().1
    }
}

impl<K: Hash + Eq, V> FromIterator<(K, V)> for ItemMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut map = ItemMap::default();
        for (k, v) in iter {
            map.insert(k, v);
        }
        map
    }
}

impl<K: Hash + Eq, V> Extend<(K, V)> for ItemMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

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
        let (low, high) = crate::sim::wide::wide_product(self.0, FOLD);
        low ^ high
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

    #[test]
    fn an_item_map_entry_fills_a_free_place_once_and_then_changes_it_in_place() {
        let mut map: ItemMap<Key, u32> = ItemMap::default();
        match map.entry(Key::of("ns-1", "demo-3")) {
            Entry::Occupied(_) => panic!("an empty map has no entry"),
            Entry::Vacant(free) => *free.insert(1) += 1,
        }
        *map.entry(Key::from("ns-1/demo-3")).or_insert(10) += 1;
        *map.entry(Key::of("ns-1", "demo-4")).or_default() += 5;
        assert_eq!(map.get("ns-1/demo-3"), Some(&3));
        assert_eq!(map.get("ns-1/demo-4"), Some(&5));
        assert_eq!(map.insert(Key::of("ns-1", "demo-4"), 7), Some(5));
        assert_eq!(map.len(), 2);
    }

    #[test]
    fn lookups_answer_alike_in_empty_and_filled_shards() {
        // three keys fill at most three of the sixteen shards: every other key's shard is empty
        let held = ["ns-0/demo-1", "ns-0/demo-2", "ns-1/demo-3"];
        let mut map: ItemMap<Key, usize> = held.iter().map(|k| Key::from(*k)).zip(0..).collect();
        let empty_shards = map.shards().iter().filter(|s| s.is_empty()).count();
        assert!(empty_shards >= SHARDS - held.len());
        for i in 0..200 {
            let key = format!("ns-{}/demo-{i}", i % 3);
            let at = held.iter().position(|k| *k == key);
            assert_eq!(map.get(key.as_str()).copied(), at, "{key}");
            assert_eq!(map.get_mut(key.as_str()).copied(), at, "{key}");
        }
        for (at, key) in held.iter().enumerate() {
            assert_eq!(map.remove(*key), Some(at));
            assert_eq!(map.remove(*key), None, "{key} is gone");
        }
        assert!(map.is_empty());
    }

    #[test]
    fn item_maps_with_the_same_entries_are_equal_whatever_order_filled_them() {
        let keys: Vec<Key> = (0..200)
            .map(|i| Key::of("ns-0", &format!("demo-{i}")))
            .collect();
        let forward: ItemMap<Key, usize> = keys.iter().cloned().zip(0..200).collect();
        let backward: ItemMap<Key, usize> = keys.iter().cloned().zip(0..200).rev().collect();
        assert_eq!(forward, backward);
        let mut changed = backward.clone();
        changed.insert(keys[7].clone(), 1_000);
        assert_ne!(forward, changed);
        changed.remove(&keys[7]);
        assert_ne!(forward, changed, "one entry fewer");
    }
}
