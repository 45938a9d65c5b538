//! [`Json`]: an object's spec and status, a JSON value that is small to keep and cheap to copy.
//!
//! A Go controller holds `spec` and `status` as typed structs, and `DeepCopy` copies them field by
//! field: a few words for `{"replicas": 1}`. `serde_json::Value` keeps an object in a
//! `BTreeMap<String, Value>`, whose first node alone is over 600 bytes and whose every key is a
//! separate allocation, so each stored version of each object carried more than a kilobyte of
//! heap and each status write's working copy cost several allocations. [`Json`] keeps an object
//! as one sorted slice of members that copies share until one of them changes, and its keys and
//! strings as shared text: copying a spec or status copies a pointer, changing a status of two
//! fields copies its slice once, and a version that only changed its status shares its spec and
//! every string with the one before it. Two copies sharing their members compare equal without
//! reading them (the API server's no-op test compares every written object with the stored one).
//!
//! It has the shape and the text of `serde_json::Value` — the same variants, members in key order,
//! the same serialized JSON and the same `Debug` text — and converts to and from it losslessly
//! ([`From`] both ways). The API server's wire form and merge patches are built on it, so a
//! PATCH shares every member it leaves alone with the version before it.

use std::fmt;
use std::ops::{Index, IndexMut};
use std::rc::Rc;

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Number, Value};

use crate::key::same_shared_text;

/// How many texts [`shared_text`] keeps.
const SHARED_TEXTS: usize = 16;

thread_local! {
    /// The texts [`shared_text`] handed out last, the newest at the end.
    static SHARED: std::cell::RefCell<Vec<Rc<str>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `text` as shared text: one allocation for the same text among the last few asked for. A
/// status write names the same few members (and often the same constant) on every object; a Go
/// struct's field names cost nothing per object either. What it keeps changes no result: equal
/// texts are equal whether or not they share.
pub(crate) fn shared_text(text: &str) -> Rc<str> {
    SHARED.with(|kept| {
        let mut kept = kept.borrow_mut();
        if let Some(found) = kept.iter().rev().find(|k| crate::key::same_text(k, text)) {
            return Rc::clone(found);
        }
        let made: Rc<str> = Rc::from(text);
        if kept.len() == SHARED_TEXTS {
            kept.remove(0);
        }
        kept.push(Rc::clone(&made));
        made
    })
}

/// A JSON value: what an object's `spec` or `status` holds. `Json::Null` when absent.
#[derive(Clone, Default)]
pub enum Json {
    /// `null`, and an absent spec or status.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, kept as `serde_json` keeps it (unsigned, signed or float).
    Number(Number),
    /// A string, shared between copies.
    String(Rc<str>),
    /// An array.
    Array(Vec<Json>),
    /// An object: members in key order.
    Object(JsonMap),
}

/// A JSON object's members, sorted by key (the order `serde_json`'s map and Go's
/// `encoding/json` write them in). Copies share the members until one of them changes (a
/// Reconcile's working copy changes its status, never its spec), and keys are shared text. The
/// members are one allocation with their counts (a shared slice, not a shared vector: a status
/// version costs one allocation and one pointer to follow fewer); a member added or removed
/// makes a new one, a value changed changes it in place when this copy is its only holder.
#[derive(Clone)]
pub struct JsonMap {
    members: Rc<[(Rc<str>, Json)]>,
}

thread_local! {
    /// The members of every empty map, shared: a status made an object before its first field is
    /// set allocates nothing.
    static NO_MEMBERS: Rc<[(Rc<str>, Json)]> = Rc::from([]);
}

impl Default for JsonMap {
    /// An empty object, sharing the one empty slice of members.
    fn default() -> JsonMap {
        JsonMap {
            members: NO_MEMBERS.with(Rc::clone),
        }
    }
}

impl PartialEq for JsonMap {
    /// Equal members; two copies sharing them are equal without reading them (a JSON number is
    /// never NaN, so a value always equals itself).
    fn eq(&self, other: &JsonMap) -> bool {
        Rc::ptr_eq(&self.members, &other.members)
            || (self.members.len() == other.members.len()
                && self
                    .members
                    .iter()
                    .zip(other.members.iter())
                    .all(|((ka, va), (kb, vb))| same_shared_text(ka, kb) && va == vb))
    }
}

impl PartialEq for Json {
    /// The same value (`serde_json::Value`'s equality); texts compared as [`same_shared_text`].
    fn eq(&self, other: &Json) -> bool {
        match (self, other) {
            (Json::Null, Json::Null) => true,
            (Json::Bool(a), Json::Bool(b)) => a == b,
            (Json::Number(a), Json::Number(b)) => a == b,
            (Json::String(a), Json::String(b)) => same_shared_text(a, b),
            (Json::Array(a), Json::Array(b)) => a == b,
            (Json::Object(a), Json::Object(b)) => a == b,
            _ => false,
        }
    }
}

impl JsonMap {
    /// An empty object.
    pub fn new() -> JsonMap {
        JsonMap::default()
    }

    /// The value of member `key`.
    pub fn get(&self, key: &str) -> Option<&Json> {
        self.position(key).ok().map(|i| &self.members[i].1)
    }

    /// The value of member `key`, to change in place.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        let i = self.position(key).ok()?;
        Some(&mut self.members_mut()[i].1)
    }

    /// Sets member `key` to `value`, in key order; returns the value it replaced.
    pub fn insert(&mut self, key: &str, value: Json) -> Option<Json> {
        match self.position(key) {
            Ok(i) => Some(std::mem::replace(&mut self.members_mut()[i].1, value)),
            Err(i) => {
                self.insert_at(i, shared_text(key), value);
                None
            }
        }
    }

    /// A map of `members`, given in key order (each key before the next, none twice).
    pub fn from_sorted(members: Vec<(Rc<str>, Json)>) -> JsonMap {
        debug_assert!(
            members
                .windows(2)
                .all(|w| crate::key::order_of(&w[0].0, &w[1].0).is_lt()),
            "members in key order"
        );
        if members.is_empty() {
            return JsonMap::new();
        }
        JsonMap {
            members: Rc::from(members),
        }
    }

    /// The members in key order, their keys as the shared texts they are.
    pub fn members(&self) -> &[(Rc<str>, Json)] {
        &self.members
    }

    /// Removes member `key`; returns its value.
    pub fn remove(&mut self, key: &str) -> Option<Json> {
        let i = self.position(key).ok()?;
        let (before, after) = self.members.split_at(i);
        let removed = after[0].1.clone();
        self.members = before.iter().chain(&after[1..]).cloned().collect();
        Some(removed)
    }

    /// Puts a new member at `i`: a new slice of the members (the copies of the others share
    /// their keys and values).
    fn insert_at(&mut self, i: usize, key: Rc<str>, value: Json) {
        let old = &self.members;
        let mut new = Some((key, value));
        // by index over a range, whose length the slice's allocation is sized by
        self.members = (0..=old.len())
            .map(|j| match j.cmp(&i) {
                std::cmp::Ordering::Less => old[j].clone(),
                std::cmp::Ordering::Equal => new.take().unwrap_or_else(|| unreachable!("once")),
                std::cmp::Ordering::Greater => old[j - 1].clone(),
            })
            .collect();
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether there are no members.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The members in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Json)> {
        self.members.iter().map(|(k, v)| (&**k, v))
    }

    /// The members to change: this copy's own (copied first if other copies share them).
    fn members_mut(&mut self) -> &mut [(Rc<str>, Json)] {
        Rc::make_mut(&mut self.members)
    }

    fn position(&self, key: &str) -> Result<usize, usize> {
        self.members
            .binary_search_by(|(k, _)| crate::key::order_of(k, key))
    }
}

impl Json {
    /// An object of `members`, given in key order, their keys as shared text.
    pub fn object<const N: usize>(members: [(&str, Json); N]) -> Json {
        let members = members.into_iter().map(|(k, v)| (shared_text(k), v));
        Json::Object(JsonMap::from_sorted(members.collect()))
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }

    /// Whether this is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Json::Object(_))
    }

    /// The members, if this is an object.
    pub fn as_object(&self) -> Option<&JsonMap> {
        match self {
            Json::Object(map) => Some(map),
            _ => None,
        }
    }

    /// The members to change in place, if this is an object.
    pub fn as_object_mut(&mut self) -> Option<&mut JsonMap> {
        match self {
            Json::Object(map) => Some(map),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The text, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number as an `i64`, if it is an integer that fits (as `Value::as_i64`).
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Json::Number(n) => n.as_i64(),
            _ => None,
        }
    }

    /// The number as a `u64`, if it is a non-negative integer that fits (as `Value::as_u64`).
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Number(n) => n.as_u64(),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The length of this value written as compact JSON (`serde_json::to_string`), counted as it
    /// is written: nothing is kept.
    pub fn encoded_len(&self) -> usize {
        /// A writer that keeps only the count of bytes written to it.
        struct Counted(usize);
        impl std::io::Write for Counted {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.0 += bytes.len();
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut counted = Counted(0);
        serde_json::to_writer(&mut counted, self).map_or(0, |()| counted.0)
    }

    /// Member `key`, if this is an object that has it (as `Value::get`).
    pub fn get(&self, key: &str) -> Option<&Json> {
        self.as_object().and_then(|map| map.get(key))
    }
}

const NULL: Json = Json::Null;

/// `json["key"]`: the member, or `null` when absent or when this is not an object (as `Value`).
impl Index<&str> for Json {
    type Output = Json;

    fn index(&self, key: &str) -> &Json {
        self.get(key).unwrap_or(&NULL)
    }
}

/// `json["key"] = v`: a `null` becomes an empty object first, as with `Value`; indexing any other
/// non-object panics, as with `Value` (callers check first).
impl IndexMut<&str> for Json {
    fn index_mut(&mut self, key: &str) -> &mut Json {
        if self.is_null() {
            *self = Json::Object(JsonMap::new());
        }
        let Json::Object(map) = self else {
            panic!("cannot index a non-object JSON value with {key:?}");
        };
        let i = match map.position(key) {
            Ok(i) => i,
            Err(i) => {
                map.insert_at(i, shared_text(key), Json::Null);
                i
            }
        };
        &mut map.members_mut()[i].1
    }
}

impl From<Value> for Json {
    fn from(value: Value) -> Json {
        match value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(b),
            Value::Number(n) => Json::Number(n),
            Value::String(s) => Json::String(Rc::from(s)),
            Value::Array(items) => Json::Array(items.into_iter().map(Json::from).collect()),
            Value::Object(map) => Json::Object(JsonMap {
                // a `serde_json` map iterates in key order: the slice is sorted as it is built
                members: map
                    .into_iter()
                    .map(|(k, v)| (Rc::from(k), Json::from(v)))
                    .collect(),
            }),
        }
    }
}

impl From<&Json> for Value {
    fn from(json: &Json) -> Value {
        match json {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.clone()),
            Json::String(s) => Value::String(s.to_string()),
            Json::Array(items) => Value::Array(items.iter().map(Value::from).collect()),
            Json::Object(map) => {
                // inserted one by one: collecting would compile a sort of its own for the pairs
                let mut object = serde_json::Map::new();
                for (k, v) in map.iter() {
                    object.insert(k.to_owned(), Value::from(v));
                }
                Value::Object(object)
            }
        }
    }
}

impl From<&str> for Json {
    fn from(text: &str) -> Json {
        Json::String(Rc::from(text))
    }
}

impl From<Rc<str>> for Json {
    /// A string value sharing `s`.
    fn from(s: Rc<str>) -> Json {
        Json::String(s)
    }
}

impl From<String> for Json {
    fn from(text: String) -> Json {
        Json::String(Rc::from(text))
    }
}

impl From<i64> for Json {
    fn from(n: i64) -> Json {
        Json::Number(Number::from(n))
    }
}

impl From<bool> for Json {
    fn from(b: bool) -> Json {
        Json::Bool(b)
    }
}

/// An array of the items, as `serde_json::Value` collects one.
impl<T: Into<Json>> FromIterator<T> for Json {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Json {
        Json::Array(items.into_iter().map(Into::into).collect())
    }
}

/// `json == serde_json::json!(…)`: equal when the conversion of one is the other.
impl PartialEq<Value> for Json {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Json::Null, Value::Null) => true,
            (Json::Bool(a), Value::Bool(b)) => a == b,
            (Json::Number(a), Value::Number(b)) => a == b,
            (Json::String(a), Value::String(b)) => **a == **b,
            (Json::Array(a), Value::Array(b)) => a.len() == b.len() && a.iter().eq(b.iter()),
            (Json::Object(a), Value::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((ka, va), (kb, vb))| ka == kb && va == vb)
            }
            _ => false,
        }
    }
}

impl PartialEq<Json> for Value {
    fn eq(&self, other: &Json) -> bool {
        other == self
    }
}

/// The same text as `serde_json::Value`'s `Debug`.
impl fmt::Debug for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&Value::from(self), f)
    }
}

/// Serializes as `serde_json::Value` does: members in key order.
impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(map) => {
                let mut out = serializer.serialize_map(Some(map.len()))?;
                for (k, v) in map.iter() {
                    out.serialize_entry(k, v)?;
                }
                out.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        Value::deserialize(deserializer).map(Json::from)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn shared_text_hands_out_one_allocation_per_recent_text_and_always_the_same_text() {
        let a = shared_text("observedGeneration");
        let b = shared_text("observedGeneration");
        assert!(Rc::ptr_eq(&a, &b));
        for n in 0..2 * SHARED_TEXTS {
            assert_eq!(&*shared_text(&format!("field{n}")), format!("field{n}"));
        }
        let c = shared_text("observedGeneration");
        assert_eq!(c, a);
        assert!(
            !Rc::ptr_eq(&a, &c),
            "forgotten after more texts than are kept"
        );
        let mut map = JsonMap::new();
        map.insert("phase", Json::from("Running"));
        let mut other = JsonMap::new();
        other.insert("phase", Json::from("Pending"));
        assert!(Rc::ptr_eq(&map.members[0].0, &other.members[0].0));
    }

    use serde_json::json;

    use super::*;

    fn samples() -> Vec<Value> {
        vec![
            json!(null),
            json!(true),
            json!(7),
            json!(-3),
            json!(2.5),
            json!("Running"),
            json!([1, "a", null, {"b": [true]}]),
            json!({"replicas": 1}),
            json!({"z": 1, "a": {"m": "x", "b": [2, 3]}, "lastUpdated": "2024-05-01T09:00:03Z"}),
        ]
    }

    #[test]
    fn a_value_converted_and_back_is_the_same_value_with_the_same_json_and_debug_text() {
        for value in samples() {
            let json = Json::from(value.clone());
            assert_eq!(Value::from(&json), value);
            assert_eq!(json, value);
            let text = serde_json::to_string(&value).expect("a value serializes");
            assert_eq!(serde_json::to_string(&json).expect("serializes"), text);
            assert_eq!(format!("{json:?}"), format!("{value:?}"));
            let back: Json = serde_json::from_str(&text).expect("its own JSON parses");
            assert_eq!(back, json);
            assert_eq!(json.encoded_len(), text.len(), "{text}");
        }
    }

    #[test]
    fn an_object_built_from_members_in_key_order_is_the_value_serde_json_builds() {
        let built = Json::object([
            ("a", Json::from("x")),
            ("b", Json::from(true)),
            ("observedGeneration", Json::from(3)),
        ]);
        assert_eq!(built, json!({"observedGeneration": 3, "b": true, "a": "x"}));
        assert_eq!(built.get("b").and_then(Json::as_bool), Some(true));
        assert_eq!(built["observedGeneration"].as_u64(), Some(3));
        assert_eq!(Json::from(-1).as_u64(), None);
        assert!(Json::object([]).as_object().is_some_and(JsonMap::is_empty));
    }

    #[test]
    fn two_values_built_apart_are_equal_exactly_when_serde_json_finds_them_equal() {
        let mut values = samples();
        values.extend([
            json!("Runnin"),
            json!("2024-05-01T09:00:04Z"),
            json!([1, "a", null, {"b": [false]}]),
            json!({"z": 1, "a": {"m": "x", "b": [2, 3]}, "lastUpdated": "2024-05-01T09:00:04Z"}),
            json!({"z": 1, "a": {"m": "x", "b": [2, 3]}, "lastUpdatee": "2024-05-01T09:00:03Z"}),
            json!({"replicas": 1.0}),
        ]);
        for x in &values {
            for y in &values {
                // converted separately: no text or member list is shared between the two
                let (a, b) = (Json::from(x.clone()), Json::from(y.clone()));
                assert_eq!(a == b, x == y, "{x} against {y}");
            }
        }
    }

    #[test]
    fn members_inserted_in_any_order_are_kept_in_key_order_and_replace_by_key() {
        let mut map = JsonMap::new();
        assert_eq!(map.insert("phase", Json::from("Pending")), None);
        map.insert("lastUpdated", Json::from("t1"));
        map.insert("count", Json::from(1));
        let old = map.insert("phase", Json::from("Running"));
        assert_eq!(old, Some(Json::from("Pending")));
        let keys: Vec<&str> = map.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["count", "lastUpdated", "phase"]);
        assert_eq!(map.remove("count"), Some(Json::from(1)));
        assert_eq!(map.get("count"), None);
        assert_eq!(
            Json::Object(map),
            json!({"lastUpdated": "t1", "phase": "Running"})
        );
    }

    #[test]
    fn a_new_member_goes_in_at_the_front_the_middle_or_the_end_with_every_value_kept() {
        let mut map = JsonMap::new();
        for (key, n) in [("m", 1), ("z", 2), ("a", 3), ("q", 4), ("c", 5)] {
            map.insert(key, Json::from(n));
        }
        let shared = map.clone();
        map.insert("n", Json::from(6));
        let members: Vec<(&str, &Json)> = map.iter().collect();
        let want = [("a", 3), ("c", 5), ("m", 1), ("n", 6), ("q", 4), ("z", 2)];
        assert_eq!(members.len(), want.len());
        for ((key, value), (want_key, want_n)) in members.into_iter().zip(want) {
            assert_eq!((key, value), (want_key, &Json::from(want_n)));
        }
        assert_eq!(shared.len(), 5, "a copy taken before keeps its members");
    }

    #[test]
    fn a_value_changed_in_a_map_held_once_is_changed_in_place() {
        let mut map = JsonMap::new();
        map.insert("b", Json::from(2));
        map.insert("a", Json::from(1));
        let before = Rc::as_ptr(&map.members);
        map.insert("b", Json::from(3));
        assert!(std::ptr::eq(before, Rc::as_ptr(&map.members)), "no copy");
        let mut status = Json::Object(map);
        status["c"] = Json::from("new");
        assert_eq!(status, json!({"a": 1, "b": 3, "c": "new"}));
    }

    #[test]
    fn a_copy_shares_the_members_until_either_side_changes_them() {
        let original = Json::from(json!({"phase": "Pending", "spec": {"replicas": 1}}));
        let mut copy = original.clone();
        let members = |j: &Json| j.as_object().map(|m| Rc::as_ptr(&m.members));
        assert_eq!(members(&copy), members(&original), "a copy shares");
        assert_eq!(copy, original);
        copy["phase"] = Json::from("Running");
        assert_ne!(members(&copy), members(&original), "a change copies first");
        assert_eq!(
            original,
            json!({"phase": "Pending", "spec": {"replicas": 1}})
        );
        assert_eq!(copy, json!({"phase": "Running", "spec": {"replicas": 1}}));
        let mut again = original.clone();
        if let Some(map) = again.as_object_mut() {
            map.remove("phase");
            if let Some(spec) = map.get_mut("spec") {
                spec["replicas"] = Json::from(2);
            }
        }
        assert_eq!(
            original,
            json!({"phase": "Pending", "spec": {"replicas": 1}})
        );
        assert_eq!(again, json!({"spec": {"replicas": 2}}));
    }

    #[test]
    fn indexing_reads_null_for_a_missing_member_and_writing_turns_null_into_an_object() {
        let mut status = Json::Null;
        assert!(status["phase"].is_null());
        status["phase"] = Json::from("Terminating");
        assert_eq!(status, json!({"phase": "Terminating"}));
        assert_eq!(
            status.get("phase").and_then(Json::as_str),
            Some("Terminating")
        );
        assert_eq!(Json::from(json!({"n": 3}))["n"].as_i64(), Some(3));
    }

    #[test]
    fn strings_collected_into_json_make_an_array_in_their_order() {
        let finalizers: Json = ["kubernetes".to_owned(), "example.com/x".to_owned()]
            .into_iter()
            .collect();
        assert_eq!(finalizers, json!(["kubernetes", "example.com/x"]));
    }

    #[test]
    fn values_that_differ_in_kind_order_or_number_type_are_unequal() {
        assert_ne!(Json::from(json!(1)), json!(1.0));
        assert_ne!(Json::from(json!({"a": 1})), json!({"a": 1, "b": 2}));
        assert_ne!(Json::from(json!([1, 2])), json!([2, 1]));
        assert_ne!(Json::from(json!("1")), json!(1));
    }
}
