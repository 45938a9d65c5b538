//! An object's key, shared instead of copied.
//!
//! client-go identifies an object in its stores, DeltaFIFO and workqueue by its key
//! (`tools/cache/store.go` `MetaNamespaceKeyFunc`: `namespace/name`, or `name` for a
//! cluster-scoped object). A Go string is an immutable pointer and length, so passing a key from
//! the FIFO to the indexer to the workqueue copies two words. [`Key`] gives the engine the same
//! cost: a clone copies a pointer, and two clones of one key compare equal without reading their
//! text. It orders, hashes and prints exactly as its text does, so a map keyed by [`Key`] iterates
//! in the same order as one keyed by `String`.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::rc::Rc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::sim::shared::Head;

/// An object key (`namespace/name`), cheap to clone and compare. Reference-counted without
/// atomics (`Rc`): a run lives on one thread, natively and in the page.
#[derive(Clone)]
pub struct Key(Rc<str>);

impl Key {
    /// The key of `namespace/name`, as client-go's `MetaNamespaceKeyFunc` builds it.
    pub fn of(namespace: &str, name: &str) -> Key {
        if namespace.is_empty() {
            return Key::from(name);
        }
        // Most keys fit a stack buffer: the key text is then allocated once, in its `Rc`.
        let len = namespace.len() + 1 + name.len();
        let mut buf = [0u8; 96];
        if let Some(text) = buf.get_mut(..len) {
            let (ns, rest) = text.split_at_mut(namespace.len());
            ns.copy_from_slice(namespace.as_bytes());
            rest[0] = b'/';
            rest[1..].copy_from_slice(name.as_bytes());
            if let Ok(text) = std::str::from_utf8(text) {
                return Key::from(text);
            }
        }
        let mut text = String::with_capacity(len);
        text.push_str(namespace);
        text.push('/');
        text.push_str(name);
        Key::from(text)
    }

    /// The key's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for Key {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Key {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Key {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        same_shared_text(&self.0, &other.0)
    }
}

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Key) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Key) -> Ordering {
        if Rc::ptr_eq(&self.0, &other.0) {
            return Ordering::Equal;
        }
        order_of(&self.0, &other.0)
    }
}

/// `a == b` for shared texts: one allocation is equal to itself without reading it, else
/// [`same_text`]. Keys, an object's [`crate::object::Text`]s and JSON texts compare this way.
pub(crate) fn same_shared_text(a: &Rc<str>, b: &Rc<str>) -> bool {
    Rc::ptr_eq(a, b) || same_text(a, b)
}

/// `a == b`, through [`compare_bytes`] in wasm (see there), eight bytes at a time natively
/// ([`same_bytes`]): for the short texts an object holds (keys, kinds, names, uids, JSON member
/// names and values), a call of `memcmp` costs more than the compare, and wasm's compares a byte
/// at a time.
pub(crate) fn same_text(a: &str, b: &str) -> bool {
    same_bytes(a.as_bytes(), b.as_bytes())
}

/// `a == b` for byte strings, as [`same_text`]: in wasm through [`compare_bytes`]; natively
/// eight bytes at a time, the last word read ending at the end (overlapping bytes already found
/// equal), since a key's parts are a few to a few dozen bytes, where a call of the C library's
/// `memcmp` costs more than the compare (0.5 % of the incident's instructions; in wasm this loop
/// ran no faster than [`compare_bytes`]).
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if cfg!(target_arch = "wasm32") {
        return compare_bytes(a, b) == Ordering::Equal;
    }
    if n < 8 {
        return same_short(a, b);
    }
    let mut at = 0;
    while at + 8 < n {
        if word_at(a, at) != word_at(b, at) {
            return false;
        }
        at += 8;
    }
    word_at(a, n - 8) == word_at(b, n - 8)
}

/// `a.cmp(b)`, through [`compare_bytes`] in wasm (see there). Natively, texts whose shorter
/// one has 8 to 16 bytes (an object's key, `ns-23/demo-54923`) are compared in line as two
/// big-endian words, the second ending where the shorter text ends (overlapping bytes the first
/// found equal): where two texts' first differing byte lies in a word, the words order as the
/// bytes do, and texts equal that far order by length. Others go to `memcmp` (the C library's
/// vector `memcmp` runs fewer instructions than a word loop over a long text, but its call costs
/// more than two words).
pub(crate) fn order_of(a: &str, b: &str) -> Ordering {
    if cfg!(target_arch = "wasm32") {
        return compare_bytes(a.as_bytes(), b.as_bytes());
    }
    let (left, right) = (a.as_bytes(), b.as_bytes());
    let common = left.len().min(right.len());
    if (8..=16).contains(&common) {
        for start in [0, common - 8] {
            let words = (word_be_at(left, start), word_be_at(right, start));
            if words.0 != words.1 {
                return words.0.cmp(&words.1);
            }
        }
        return left.len().cmp(&right.len());
    }
    a.cmp(b)
}

/// A text's first sixteen bytes as one big-endian number, zero bytes after a shorter text's end
/// (a [`Head`] of keys): where two texts' numbers differ, the first differing byte or the
/// shorter text's end lies among the sixteen, and the numbers order as the texts do.
pub(crate) fn text_head(bytes: &[u8]) -> u128 {
    if let Some(first) = bytes.first_chunk::<16>() {
        return u128::from_be_bytes(*first);
    }
    let mut word = [0u8; 16];
    word[..bytes.len()].copy_from_slice(bytes);
    u128::from_be_bytes(word)
}

impl Head for Key {
    fn head(&self) -> u128 {
        text_head(self.0.as_bytes())
    }
}

/// The eight bytes of `bytes` from `start`, big-endian: words read so order as their bytes do.
fn word_be_at(bytes: &[u8], start: usize) -> u64 {
    word_at(bytes, start).swap_bytes()
}

/// `a.cmp(b)` for byte strings, eight bytes at a time. Where two words differ, the lowest set
/// bit of their difference (read little-endian) falls in the first byte that differs, and that
/// byte decides. The last word of the common prefix is read ending at its end, overlapping bytes
/// already found equal. In wasm, `[u8]::cmp` calls a `memcmp` that compares a byte at a time,
/// and a key lookup in a map of 150 000 objects compares keys about seventeen times.
pub(crate) fn compare_bytes(a: &[u8], b: &[u8]) -> Ordering {
    let common = a.len().min(b.len());
    if common < 8 {
        // in line: `[u8]::cmp` would call wasm's `memcmp` for as much
        return compare_short(&a[..common], &b[..common]).then(a.len().cmp(&b.len()));
    }
    let mut at = 0;
    loop {
        let start = at.min(common - 8);
        let (x, y) = (word_at(a, start), word_at(b, start));
        if x != y {
            let byte = start + (x ^ y).trailing_zeros() as usize / 8;
            return a[byte].cmp(&b[byte]);
        }
        if start + 8 == common {
            return a.len().cmp(&b.len());
        }
        at = start + 8;
    }
}

/// `a == b` for two byte strings of one length under eight: from four bytes on, as two four-byte
/// words (the second ending at the end, overlapping the first), else a byte at a time.
fn same_short(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n >= 4 {
        return half_at(a, 0) == half_at(b, 0) && half_at(a, n - 4) == half_at(b, n - 4);
    }
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// `a.cmp(b)` for two byte strings of one length under eight, as [`same_short`] reads them; where
/// two words differ, the lowest set bit of their difference falls in the first byte that differs
/// (as in [`compare_bytes`]).
fn compare_short(a: &[u8], b: &[u8]) -> Ordering {
    let len = a.len();
    if len >= 4 {
        for start in [0, len - 4] {
            let differ = half_at(a, start) ^ half_at(b, start);
            if differ != 0 {
                let byte = start + differ.trailing_zeros() as usize / 8;
                return a[byte].cmp(&b[byte]);
            }
        }
        return Ordering::Equal;
    }
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return x.cmp(y);
        }
    }
    Ordering::Equal
}

/// The four bytes of `bytes` from `start`, little-endian.
fn half_at(bytes: &[u8], start: usize) -> u32 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&bytes[start..start + 4]);
    u32::from_le_bytes(word)
}

/// The eight bytes of `bytes` from `start`, little-endian.
fn word_at(bytes: &[u8], start: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[start..start + 8]);
    u64::from_le_bytes(word)
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // as `str` hashes, so that `Borrow<str>` lookups in hashed collections agree
        (*self.0).hash(state);
    }
}

impl PartialEq<str> for Key {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Key {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<Key> for str {
    fn eq(&self, other: &Key) -> bool {
        self == &*other.0
    }
}

impl PartialEq<Key> for &str {
    fn eq(&self, other: &Key) -> bool {
        *self == &*other.0
    }
}

impl From<&str> for Key {
    fn from(text: &str) -> Key {
        Key(Rc::from(text))
    }
}

impl From<String> for Key {
    fn from(text: String) -> Key {
        Key(Rc::from(text))
    }
}

impl From<&String> for Key {
    fn from(text: &String) -> Key {
        Key::from(text.as_str())
    }
}

impl From<Key> for String {
    fn from(key: Key) -> String {
        key.0.to_string()
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

thread_local! {
    /// The empty key, shared by every empty [`Key`] of the thread.
    static EMPTY: Key = Key::from("");
}

impl Default for Key {
    /// The empty key, shared: default metadata allocates nothing.
    fn default() -> Key {
        EMPTY.with(Key::clone)
    }
}

impl Serialize for Key {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Key, D::Error> {
        String::deserialize(deserializer).map(Key::from)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    #[test]
    fn a_namespaced_key_is_namespace_slash_name_and_a_cluster_scoped_key_is_the_name() {
        assert_eq!(Key::of("default", "web-0"), "default/web-0");
        assert_eq!(Key::of("", "node-1"), "node-1");
        let long_name = "n".repeat(200);
        assert_eq!(
            Key::of("ns", &long_name).as_str(),
            format!("ns/{long_name}")
        );
        assert_eq!(Key::of("命名空间", "名字"), "命名空间/名字");
    }

    #[test]
    fn keys_order_as_their_text_so_maps_iterate_as_string_keyed_ones() {
        let texts = ["ns-1/demo-10", "ns-1/demo-2", "ns-1/demo-1", "a"];
        let by_key: BTreeMap<Key, usize> = texts.iter().map(|t| (Key::from(*t), 0)).collect();
        let by_string: BTreeMap<String, usize> = texts.iter().map(|t| (t.to_string(), 0)).collect();
        let keys: Vec<&str> = by_key.keys().map(Key::as_str).collect();
        let strings: Vec<&str> = by_string.keys().map(String::as_str).collect();
        assert_eq!(keys, strings);
    }

    #[test]
    fn a_key_map_is_looked_up_by_text() {
        let mut map = BTreeMap::new();
        map.insert(Key::of("default", "a"), 1);
        assert_eq!(map.get("default/a"), Some(&1));
        assert_eq!(map.get("default/b"), None);
    }

    #[test]
    fn equal_texts_in_separate_allocations_are_equal_keys() {
        let a = Key::of("default", "a");
        assert_eq!(a, Key::from("default/a"));
        assert_eq!(a.clone(), a);
        assert_ne!(a, Key::from("default/b"));
    }

    #[test]
    fn a_key_hashes_as_its_text_so_hashed_sets_are_looked_up_by_text() {
        use std::hash::BuildHasher;
        let std_hasher = std::collections::hash_map::RandomState::new();
        let item_hasher = crate::workqueue::set::ItemBuildHasher::default();
        for text in ["", "default/a", "a-namespace-of-some-length/a-name"] {
            let key = Key::from(text);
            assert_eq!(std_hasher.hash_one(&key), std_hasher.hash_one(text));
            assert_eq!(item_hasher.hash_one(&key), item_hasher.hash_one(text));
        }
    }

    #[test]
    fn a_key_serializes_as_its_text() {
        let key = Key::of("default", "a");
        let json = serde_json::to_string(&key).expect("serializes");
        assert_eq!(json, "\"default/a\"");
        let back: Key = serde_json::from_str(&json).expect("deserializes");
        assert_eq!(back, key);
    }

    #[test]
    fn keys_order_and_compare_as_their_texts_do_natively_and_a_word_at_a_time_as_in_wasm() {
        let texts = [
            "",
            "a",
            "ns",
            "ns/",
            "ns/a",
            "ns/b",
            "ns-1/demo-9",
            "ns-1/demo-10",
            "ns-10/demo-1",
            "ns-1/demo-1",
            "ns-1/demo-1x",
            "ns-12345/demo-123456",
            "ns-12345/demo-123457",
            "ns-12345/demo-12345",
            "ns-12345/demo-1234567",
            "ns-12345/demo-123456\u{e9}",
            "zzzzzzzzzzzzzzzzzzzzzzzz",
            "zzzzzzzzzzzzzzzzzzzzzzzy",
            "zzzzzzzz",
        ];
        for x in texts {
            for y in texts {
                let (kx, ky) = (Key::from(x), Key::from(y));
                assert_eq!(kx.cmp(&ky), x.cmp(y), "{x:?} against {y:?}");
                assert_eq!(kx == ky, x == y, "{x:?} against {y:?}");
                let words = compare_bytes(x.as_bytes(), y.as_bytes());
                assert_eq!(words, x.cmp(y), "{x:?} against {y:?}, a word at a time");
            }
        }
    }

    fn as_text(bytes: &[u8]) -> &str {
        std::str::from_utf8(bytes).expect("ASCII")
    }

    /// Both word compares ([`compare_bytes`], wasm's, and [`order_of`]'s two big-endian words,
    /// the native one) around every word boundary up to 20 bytes.
    #[test]
    fn texts_compared_a_word_at_a_time_order_as_their_first_differing_byte() {
        for len in 0..=20 {
            let text: Vec<u8> = (0..len).map(|i| b'c' + (i % 20) as u8).collect();
            assert_eq!(compare_bytes(&text, &text.clone()), Ordering::Equal);
            for at in 0..len {
                for byte in [b'a', b'~'] {
                    let mut other = text.clone();
                    other[at] = byte;
                    // a later byte that differs the other way must not decide
                    if at + 1 < len {
                        other[at + 1] = if byte == b'a' { b'~' } else { b'a' };
                    }
                    assert_eq!(
                        compare_bytes(&text, &other),
                        text.cmp(&other),
                        "length {len}, byte {at} set to {byte}"
                    );
                    assert_eq!(compare_bytes(&other, &text), other.cmp(&text));
                    let (t, o) = (as_text(&text), as_text(&other));
                    assert_eq!(order_of(t, o), t.cmp(o), "{t:?} against {o:?}");
                    assert_eq!(order_of(o, t), o.cmp(t), "{o:?} against {t:?}");
                }
            }
            for shorter in 0..len {
                assert_eq!(compare_bytes(&text[..shorter], &text), Ordering::Less);
                assert_eq!(compare_bytes(&text, &text[..shorter]), Ordering::Greater);
                let (short, long) = (as_text(&text[..shorter]), as_text(&text));
                assert_eq!(order_of(short, long), Ordering::Less);
                assert_eq!(order_of(long, short), Ordering::Greater);
            }
        }
    }

    /// A head never orders two texts otherwise than they order: texts differing at every byte
    /// position up to 20 bytes, a byte set to zero (what pads a short text's head) among them,
    /// and every shorter prefix.
    #[test]
    fn texts_whose_heads_differ_order_as_their_heads_do() {
        let agrees = |a: &[u8], b: &[u8]| {
            let (ha, hb) = (text_head(a), text_head(b));
            ha == hb || ha.cmp(&hb) == a.cmp(b)
        };
        for len in 0..=20 {
            let text: Vec<u8> = (0..len).map(|i| b'c' + (i % 20) as u8).collect();
            assert_eq!(text_head(&text), as_text(&text).head());
            for at in 0..len {
                for byte in [0, b'a', b'~'] {
                    let mut other = text.clone();
                    other[at] = byte;
                    assert!(
                        agrees(&text, &other),
                        "length {len}, byte {at} set to {byte}"
                    );
                    assert!(agrees(&other, &text));
                    // within the first sixteen bytes a difference shows in the heads
                    assert_eq!(text_head(&text) == text_head(&other), at >= 16);
                }
            }
            for shorter in 0..len {
                assert!(agrees(&text[..shorter], &text));
                let mut zeros = text[..shorter].to_vec();
                zeros.resize(len, 0);
                assert!(
                    agrees(&text[..shorter], &zeros),
                    "a text and itself padded with zeros"
                );
            }
        }
        let key = Key::of("ns-12", "demo-123456");
        assert_eq!(key.head(), "ns-12/demo-123456".head());
    }

    #[test]
    fn texts_a_word_at_a_time_are_equal_only_when_every_byte_is() {
        for len in 0..=40 {
            let text: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(same_bytes(&text, &text.clone()), "length {len}");
            for at in 0..len {
                let mut other = text.clone();
                other[at] = b'-';
                assert!(
                    !same_bytes(&text, &other),
                    "length {len}, byte {at} differs"
                );
            }
            if len > 0 {
                assert!(
                    !same_bytes(&text, &text[..len - 1]),
                    "length {len}, one shorter"
                );
            }
        }
    }
}
