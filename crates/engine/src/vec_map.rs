//! A small ordered map: its entries in one vector, sorted by key.
//!
//! ```text
//!   [(k0, v0), (k1, v1), …, (kn, vn)]    k0 < k1 < … < kn
//!        get / insert / remove: binary search for the key, then one slot read or shifted
//! ```
//!
//! The engine's tables of a few up to a few hundred entries (metrics, counters, per-kind and
//! per-verb tables, settings, series, the ids that stay below an `IdMap`'s window) are
//! [`VecMap`]s: a lookup is a binary search of one contiguous slice, and each key and value type
//! adds far less code to the WebAssembly module than a B-tree does. It iterates, compares,
//! prints (`Debug`) and serializes exactly as a [`BTreeMap`](std::collections::BTreeMap) of the
//! same entries, so outputs and traces do not depend on which of the two holds a table.
//!
//! An insert or remove shifts the entries after its slot, so a map that can hold one entry per
//! object (stores, indexers, caches) stays a B-tree or a persistent map.

use std::borrow::Borrow;
use std::fmt;
use std::marker::PhantomData;
use std::ops::Index;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An ordered map of few entries, kept as a vector sorted by key (see the [module](self)).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct VecMap<K, V> {
    /// The entries, sorted by key, each key once.
    entries: Vec<(K, V)>,
}

impl<K, V> VecMap<K, V> {
    /// An empty map; it allocates nothing until the first insert.
    pub const fn new() -> VecMap<K, V> {
        VecMap {
            entries: Vec::new(),
        }
    }

    /// How many entries it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The entries in key order.
    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter {
            inner: self.entries.iter(),
        }
    }

    /// The entries in key order, each value mutable.
    pub fn iter_mut(&mut self) -> IterMut<'_, K, V> {
        IterMut {
            inner: self.entries.iter_mut(),
        }
    }

    /// The keys in order.
    pub fn keys(&self) -> Keys<'_, K, V> {
        Keys {
            inner: self.entries.iter(),
        }
    }

    /// The values in key order.
    pub fn values(&self) -> Values<'_, K, V> {
        Values {
            inner: self.entries.iter(),
        }
    }

    /// The values in key order, mutable.
    pub fn values_mut(&mut self) -> ValuesMut<'_, K, V> {
        ValuesMut {
            inner: self.entries.iter_mut(),
        }
    }

    /// The entry of the smallest key, if any.
    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.entries.first().map(|(k, v)| (k, v))
    }

    /// The entry of the largest key, if any.
    pub fn last_key_value(&self) -> Option<(&K, &V)> {
        self.entries.last().map(|(k, v)| (k, v))
    }

    /// Keeps only the entries for which `keep` returns true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }
}

impl<K: Ord, V> VecMap<K, V> {
    /// Where `key` is (`Ok`), or where it would be inserted to keep the order (`Err`).
    fn search<Q>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// Where text `key` is, read entry by entry, comparing for equality (two texts of different
    /// lengths differ without reading them, and equal lengths compare a word at a time in line,
    /// [`crate::key::same_text`]): for a table of a few entries looked up on every request
    /// (the API server's tables by kind), faster than a search by halves, whose every step
    /// reads a text. Only the tables that ask for it ([`VecMap::get_in_few`] and its kin)
    /// compile it.
    fn scan(&self, key: &str) -> Option<usize>
    where
        K: Borrow<str>,
    {
        self.entries
            .iter()
            .position(|(k, _)| crate::key::same_text(k.borrow(), key))
    }

    /// [`VecMap::get`] of a table of a few entries keyed by text (see [`VecMap::scan`]).
    pub fn get_in_few(&self, key: &str) -> Option<&V>
    where
        K: Borrow<str>,
    {
        self.scan(key).map(|i| &self.entries[i].1)
    }

    /// [`VecMap::get_mut`] of a table of a few entries keyed by text (see [`VecMap::scan`]).
    pub fn get_mut_in_few(&mut self, key: &str) -> Option<&mut V>
    where
        K: Borrow<str>,
    {
        self.scan(key).map(|i| &mut self.entries[i].1)
    }

    /// [`VecMap::get_key_value_mut`] of a table of a few entries keyed by text (see
    /// [`VecMap::scan`]).
    pub fn get_key_value_mut_in_few(&mut self, key: &str) -> Option<(&K, &mut V)>
    where
        K: Borrow<str>,
    {
        self.scan(key).map(|i| {
            let (k, v) = &mut self.entries[i];
            (&*k, v)
        })
    }

    /// The value of `key`, if it is in the map.
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.search(key).ok().map(|i| &self.entries[i].1)
    }

    /// Where `key` is in key order, if it is in the map (an index for [`VecMap::entry_at_mut`],
    /// valid until a key is added or removed).
    pub fn index_of<Q>(&self, key: &Q) -> Option<usize>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.search(key).ok()
    }

    /// The entry at `index` in key order.
    pub fn entry_at(&self, index: usize) -> Option<(&K, &V)> {
        self.entries.get(index).map(|(k, v)| (k, v))
    }

    /// The entry at `index` in key order, its value mutable.
    pub fn entry_at_mut(&mut self, index: usize) -> Option<(&K, &mut V)> {
        self.entries.get_mut(index).map(|(k, v)| (&*k, v))
    }

    /// The value of `key`, mutable, if it is in the map.
    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        match self.search(key) {
            Ok(i) => Some(&mut self.entries[i].1),
            Err(_) => None,
        }
    }

    /// The entries whose key is `start` or after it, in key order (`BTreeMap::range(start..)`).
    pub fn range_from<Q>(&self, start: &Q) -> Iter<'_, K, V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let i = self.search(start).unwrap_or_else(|i| i);
        Iter {
            inner: self.entries[i..].iter(),
        }
    }

    /// The entries whose key is `start` or after it, in key order, each value mutable
    /// (`BTreeMap::range_mut(start..)`).
    pub fn range_from_mut<Q>(&mut self, start: &Q) -> IterMut<'_, K, V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let i = self.search(start).unwrap_or_else(|i| i);
        IterMut {
            inner: self.entries[i..].iter_mut(),
        }
    }

    /// The key as stored and the value, mutable, of `key`, if it is in the map.
    pub fn get_key_value_mut<Q>(&mut self, key: &Q) -> Option<(&K, &mut V)>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        match self.search(key) {
            Ok(i) => {
                let (k, v) = &mut self.entries[i];
                Some((&*k, v))
            }
            Err(_) => None,
        }
    }

    /// Whether `key` is in the map.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.search(key).is_ok()
    }

    /// Sets the value of `key`; returns the value it replaced, if any. As for a `BTreeMap`, a key
    /// already in the map stays (only its value is replaced).
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.search(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    /// Removes `key`; returns its value, if it was in the map.
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.remove_entry(key).map(|(_, v)| v)
    }

    /// Removes `key`; returns its entry, if it was in the map.
    pub fn remove_entry<Q>(&mut self, key: &Q) -> Option<(K, V)>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.search(key).ok().map(|i| self.entries.remove(i))
    }

    /// The value of `key`, inserting `make()` first if the key is not in the map (what
    /// `BTreeMap::entry(key).or_insert_with(make)` does).
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.search(&key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key, make()));
                i
            }
        };
        &mut self.entries[i].1
    }

    /// The value of `key`, inserting the default value first if the key is not in the map
    /// (what `BTreeMap::entry(key).or_default()` does).
    pub fn get_or_default(&mut self, key: K) -> &mut V
    where
        V: Default,
    {
        self.get_or_insert_with(key, V::default)
    }

    /// [`VecMap::get_or_default`] for a caller that asks for the same key many times in a
    /// row: the entry at `*near` is tried first (its key compared, since an insert before it
    /// moves it), and `*near` is left where `key` is.
    pub fn get_or_default_near(&mut self, near: &mut usize, key: K) -> &mut V
    where
        V: Default,
    {
        if self.entries.get(*near).is_none_or(|(k, _)| *k != key) {
            *near = match self.search(&key) {
                Ok(i) => i,
                Err(i) => {
                    self.entries.insert(i, (key, V::default()));
                    i
                }
            };
        }
        &mut self.entries[*near].1
    }
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> VecMap<K, V> {
        VecMap::new()
    }
}

/// The value of a key that is in the map; as for a `BTreeMap`, a missing key panics.
impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> Index<&Q> for VecMap<K, V> {
    type Output = V;

    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry found for key")
    }
}

/// Printed as a `BTreeMap` is: `{k0: v0, k1: v1}`.
impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for VecMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// As `BTreeMap` collects: entries sorted by key; of equal keys the last one wins.
impl<K: Ord, V> FromIterator<(K, V)> for VecMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> VecMap<K, V> {
        let mut entries: Vec<(K, V)> = iter.into_iter().collect();
        // A stable sort keeps equal keys in their order; `dedup_by` keeps the first of a run, so
        // each later entry's value is swapped into it before the later one is dropped.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        entries.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                std::mem::swap(&mut later.1, &mut kept.1);
            }
            same
        });
        VecMap { entries }
    }
}

/// Inserts each entry in turn, as `BTreeMap` extends.
impl<K: Ord, V> Extend<(K, V)> for VecMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

/// As `BTreeMap::from` an array: sorted by key; of equal keys the last one wins. Inserted one
/// by one (an array is a few literal entries): a collect would compile a sort for every array
/// length it is called with.
impl<K: Ord, V, const N: usize> From<[(K, V); N]> for VecMap<K, V> {
    fn from(entries: [(K, V); N]) -> VecMap<K, V> {
        let mut map = VecMap {
            entries: Vec::with_capacity(N),
        };
        map.extend(entries);
        map
    }
}

impl<K, V> IntoIterator for VecMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    /// The entries in key order.
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a, K, V> IntoIterator for &'a VecMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;

    fn into_iter(self) -> Iter<'a, K, V> {
        self.iter()
    }
}

impl<'a, K, V> IntoIterator for &'a mut VecMap<K, V> {
    type Item = (&'a K, &'a mut V);
    type IntoIter = IterMut<'a, K, V>;

    fn into_iter(self) -> IterMut<'a, K, V> {
        self.iter_mut()
    }
}

/// Serialized as `BTreeMap` is: a map of its entries in key order.
impl<K: Serialize, V: Serialize> Serialize for VecMap<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (k, v) in self {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// Read as `BTreeMap` is: from a map, each entry inserted in turn (of equal keys the last wins).
impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Deserialize<'de> for VecMap<K, V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<VecMap<K, V>, D::Error> {
        deserializer.deserialize_map(MapVisitor(PhantomData))
    }
}

/// Builds a [`VecMap`] from a serialized map.
struct MapVisitor<K, V>(PhantomData<(K, V)>);

impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Visitor<'de> for MapVisitor<K, V> {
    type Value = VecMap<K, V>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<VecMap<K, V>, A::Error> {
        let mut map = VecMap::new();
        while let Some((k, v)) = access.next_entry()? {
            map.insert(k, v);
        }
        Ok(map)
    }
}

/// The entries of a [`VecMap`] in key order ([`VecMap::iter`]).
#[derive(Clone, Debug)]
pub struct Iter<'a, K, V> {
    inner: std::slice::Iter<'a, (K, V)>,
}

impl<'a, K, V> Iterator for Iter<'a, K, V> {
    type Item = (&'a K, &'a V);

    fn next(&mut self) -> Option<(&'a K, &'a V)> {
        self.inner.next().map(|(k, v)| (k, v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for Iter<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.inner.next_back().map(|(k, v)| (k, v))
    }
}

impl<K, V> ExactSizeIterator for Iter<'_, K, V> {}

/// The entries of a [`VecMap`] in key order, each value mutable ([`VecMap::iter_mut`]).
#[derive(Debug)]
pub struct IterMut<'a, K, V> {
    inner: std::slice::IterMut<'a, (K, V)>,
}

impl<'a, K, V> Iterator for IterMut<'a, K, V> {
    type Item = (&'a K, &'a mut V);

    fn next(&mut self) -> Option<(&'a K, &'a mut V)> {
        self.inner.next().map(|(k, v)| (&*k, v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for IterMut<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.inner.next_back().map(|(k, v)| (&*k, v))
    }
}

impl<K, V> ExactSizeIterator for IterMut<'_, K, V> {}

/// The keys of a [`VecMap`] in order ([`VecMap::keys`]).
#[derive(Clone, Debug)]
pub struct Keys<'a, K, V> {
    inner: std::slice::Iter<'a, (K, V)>,
}

impl<'a, K, V> Iterator for Keys<'a, K, V> {
    type Item = &'a K;

    fn next(&mut self) -> Option<&'a K> {
        self.inner.next().map(|(k, _)| k)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for Keys<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.inner.next_back().map(|(k, _)| k)
    }
}

impl<K, V> ExactSizeIterator for Keys<'_, K, V> {}

/// The values of a [`VecMap`] in key order ([`VecMap::values`]).
#[derive(Clone, Debug)]
pub struct Values<'a, K, V> {
    inner: std::slice::Iter<'a, (K, V)>,
}

impl<'a, K, V> Iterator for Values<'a, K, V> {
    type Item = &'a V;

    fn next(&mut self) -> Option<&'a V> {
        self.inner.next().map(|(_, v)| v)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for Values<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.inner.next_back().map(|(_, v)| v)
    }
}

impl<K, V> ExactSizeIterator for Values<'_, K, V> {}

/// The values of a [`VecMap`] in key order, mutable ([`VecMap::values_mut`]).
#[derive(Debug)]
pub struct ValuesMut<'a, K, V> {
    inner: std::slice::IterMut<'a, (K, V)>,
}

impl<'a, K, V> Iterator for ValuesMut<'a, K, V> {
    type Item = &'a mut V;

    fn next(&mut self) -> Option<&'a mut V> {
        self.inner.next().map(|(_, v)| v)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for ValuesMut<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.inner.next_back().map(|(_, v)| v)
    }
}

impl<K, V> ExactSizeIterator for ValuesMut<'_, K, V> {}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::VecMap;

    fn sample() -> VecMap<String, u64> {
        VecMap::from([
            ("b".to_owned(), 2),
            ("a".to_owned(), 1),
            ("c".to_owned(), 3),
        ])
    }

    #[test]
    fn a_count_near_the_last_place_lands_on_its_own_key_whatever_was_inserted_before_it() {
        let mut map: VecMap<u32, u64> = VecMap::new();
        let mut near = 0;
        let mut expected = BTreeMap::new();
        // runs of one key, keys that sort before the remembered place, and a stale place
        for key in [5, 5, 3, 5, 1, 1, 9, 5, 3, 3, 0, 9] {
            *map.get_or_default_near(&mut near, key) += 1;
            assert_eq!(map.entry_at(near).map(|(k, _)| *k), Some(key));
            *expected.entry(key).or_insert(0) += 1;
        }
        near = 99;
        *map.get_or_default_near(&mut near, 1) += 1;
        *expected.entry(1).or_insert(0) += 1;
        let counted: Vec<_> = map.iter().map(|(k, v)| (*k, *v)).collect();
        assert_eq!(counted, expected.into_iter().collect::<Vec<_>>());
    }

    #[test]
    fn entries_come_out_in_key_order_whatever_order_they_went_in() {
        let mut m = VecMap::new();
        for k in [5, 1, 4, 2, 3] {
            m.insert(k, k * 10);
        }
        assert_eq!(m.keys().copied().collect::<Vec<_>>(), [1, 2, 3, 4, 5]);
        assert_eq!(
            m.values().copied().collect::<Vec<_>>(),
            [10, 20, 30, 40, 50]
        );
        assert_eq!(
            m.iter().rev().map(|(k, _)| *k).collect::<Vec<_>>(),
            [5, 4, 3, 2, 1]
        );
        assert_eq!(
            m.into_iter().map(|(k, _)| k).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5]
        );
    }

    #[test]
    fn inserting_an_existing_key_replaces_its_value_and_keeps_the_order() {
        let mut m = sample();
        assert_eq!(m.insert("b".to_owned(), 20), Some(2));
        assert_eq!(m.insert("d".to_owned(), 4), None);
        assert_eq!(m.len(), 4);
        let entries: Vec<(&str, u64)> = m.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(entries, [("a", 1), ("b", 20), ("c", 3), ("d", 4)]);
    }

    #[test]
    fn a_key_is_found_by_a_borrowed_form_and_a_missing_key_is_not() {
        let mut m = sample();
        assert_eq!(m.get("a"), Some(&1));
        assert_eq!(m.get("z"), None);
        assert!(m.contains_key("c"));
        assert!(!m.contains_key("bb"));
        *m.get_mut("c").expect("c is in the map") += 1;
        assert_eq!(m.get("c"), Some(&4));
        assert!(m.get_mut("zz").is_none());
    }

    #[test]
    fn a_table_of_a_few_entries_read_in_order_finds_what_a_search_by_halves_finds() {
        for n in [0_u64, 1, 3, 8, 40] {
            let mut map: VecMap<String, u64> = VecMap::new();
            for i in 0..n {
                map.insert(format!("k{}", i * 7), i);
            }
            // keys of equal and of different lengths, present and missing
            for probe in (0..n * 7 + 2).map(|i| format!("k{i}")) {
                let want = map.get(probe.as_str()).copied();
                assert_eq!(
                    map.get_in_few(probe.as_str()).copied(),
                    want,
                    "{probe} of {n}"
                );
                assert_eq!(map.get_mut_in_few(probe.as_str()).map(|v| *v), want);
                let found = map.get_key_value_mut_in_few(probe.as_str());
                assert_eq!(
                    found.map(|(k, v)| (k.clone(), *v)),
                    want.map(|v| (probe.clone(), v))
                );
            }
        }
    }

    #[test]
    fn removing_a_key_returns_its_value_and_leaves_the_rest_in_order() {
        let mut m = sample();
        assert_eq!(m.remove("b"), Some(2));
        assert_eq!(m.remove("b"), None);
        assert_eq!(m.remove_entry("a"), Some(("a".to_owned(), 1)));
        assert_eq!(m.keys().map(String::as_str).collect::<Vec<_>>(), ["c"]);
        m.clear();
        assert!(m.is_empty());
    }

    #[test]
    fn get_or_insert_with_makes_a_value_only_for_a_missing_key() {
        let mut m: VecMap<&str, u64> = VecMap::new();
        *m.get_or_insert_with("x", || 5) += 1;
        *m.get_or_insert_with("x", || unreachable!("x is in the map")) += 1;
        *m.get_or_default("a") += 3;
        assert_eq!(m, VecMap::from([("a", 3), ("x", 7)]));
    }

    #[test]
    fn collecting_sorts_by_key_and_the_last_of_equal_keys_wins_as_in_a_btreemap() {
        let input = [(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e'), (3, 'f')];
        let vec_map: VecMap<i32, char> = input.into_iter().collect();
        let btree: BTreeMap<i32, char> = input.into_iter().collect();
        assert!(vec_map.iter().eq(btree.iter()));
        let mut extended = VecMap::new();
        extended.extend(input);
        assert_eq!(extended, vec_map);
        assert_eq!(VecMap::from(input), vec_map);
    }

    #[test]
    fn retain_and_iter_mut_see_every_entry_in_key_order() {
        let mut m: VecMap<u32, u32> = (0..10).map(|k| (k, k)).collect();
        let mut seen = Vec::new();
        m.retain(|k, v| {
            seen.push(*k);
            *v *= 2;
            k % 3 == 0
        });
        assert_eq!(seen, (0..10).collect::<Vec<_>>());
        for (_, v) in &mut m {
            *v += 1;
        }
        m.values_mut().for_each(|v| *v += 1);
        assert_eq!(m, VecMap::from([(0, 2), (3, 8), (6, 14), (9, 20)]));
        assert_eq!(m.first_key_value(), Some((&0, &2)));
        assert_eq!(m.last_key_value(), Some((&9, &20)));
    }

    #[test]
    fn it_prints_and_serializes_exactly_as_a_btreemap_of_the_same_entries() {
        let m = sample();
        let b: BTreeMap<String, u64> = m.clone().into_iter().collect();
        assert_eq!(format!("{m:?}"), format!("{b:?}"));
        assert_eq!(format!("{m:#?}"), format!("{b:#?}"));
        let json = serde_json::to_string(&m).expect("serializes");
        assert_eq!(json, serde_json::to_string(&b).expect("serializes"));
        assert_eq!(json, r#"{"a":1,"b":2,"c":3}"#);
        let empty: VecMap<String, u64> = VecMap::new();
        assert_eq!(serde_json::to_string(&empty).expect("serializes"), "{}");
    }

    #[test]
    fn it_reads_back_what_a_btreemap_wrote_and_the_last_of_repeated_keys_wins() {
        let m: VecMap<String, u64> =
            serde_json::from_str(r#"{"c":3,"a":1,"b":2,"a":4}"#).expect("a map");
        let b: BTreeMap<String, u64> =
            serde_json::from_str(r#"{"c":3,"a":1,"b":2,"a":4}"#).expect("a map");
        assert!(m.iter().eq(b.iter()));
        let back: VecMap<String, u64> =
            serde_json::from_str(&serde_json::to_string(&b).expect("serializes")).expect("a map");
        assert_eq!(back, m);
        assert!(serde_json::from_str::<VecMap<String, u64>>("[1]").is_err());
    }
}
