//! [`Text`]: an object's kind, shared between its versions.
//!
//! A Go object's strings are immutable pointers: `DeepCopy` copies the pointer and the length,
//! never the bytes. A controller's working copy of an object (the cache's copy that a Reconcile
//! changes) and every version an update stores keep the same kind, so [`Text`] shares it as Go
//! does: a copy increments a count instead of allocating and copying the string, and dropping a
//! version frees none of it. (The namespace and the name live in the text of the object's key,
//! see `identity`; the uid is a number, see [`Uid`](super::Uid).) It compares, orders, hashes, prints and serializes exactly as its text
//! does.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::rc::Rc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::key::{order_of, same_shared_text, same_text};

/// Immutable text shared between copies (reference-counted without atomics: a run lives on one
/// thread).
#[derive(Clone)]
pub struct Text(Rc<str>);

impl Text {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

thread_local! {
    /// The empty text, shared by every empty [`Text`] of the thread.
    static EMPTY: Text = Text(Rc::from(""));
}

impl Default for Text {
    /// The empty text, shared: an object's defaults allocate nothing.
    fn default() -> Text {
        EMPTY.with(Text::clone)
    }
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Text {
        Text(Rc::from(text))
    }
}

impl From<String> for Text {
    fn from(text: String) -> Text {
        Text(Rc::from(text))
    }
}

impl From<&String> for Text {
    fn from(text: &String) -> Text {
        Text::from(text.as_str())
    }
}

impl From<Text> for String {
    fn from(text: Text) -> String {
        text.0.to_string()
    }
}

impl PartialEq for Text {
    /// The same text: two copies of one text without reading it ([`same_shared_text`]).
    fn eq(&self, other: &Text) -> bool {
        same_shared_text(&self.0, &other.0)
    }
}

impl Eq for Text {}

impl Hash for Text {
    /// As its text hashes (so `Borrow<str>` lookups in hashed collections agree).
    fn hash<H: Hasher>(&self, state: &mut H) {
        (*self.0).hash(state);
    }
}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Text) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    /// The texts' byte order ([`order_of`]).
    fn cmp(&self, other: &Text) -> Ordering {
        order_of(&self.0, &other.0)
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        same_text(&self.0, other)
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        same_text(&self.0, other)
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        same_text(&self.0, other)
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        same_text(self, &other.0)
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        same_text(self, &other.0)
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        same_text(self, &other.0)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Text, D::Error> {
        String::deserialize(deserializer).map(Text::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_shares_the_text_and_compares_prints_and_serializes_as_the_string() {
        let a = Text::from("flywheel-7");
        let b = a.clone();
        assert!(
            std::ptr::eq(a.as_str(), b.as_str()),
            "a copy shares the text"
        );
        assert_eq!(a, "flywheel-7");
        assert_eq!(a.to_string(), "flywheel-7");
        assert_eq!(format!("{a:?}"), format!("{:?}", "flywheel-7"));
        assert_eq!(
            serde_json::to_string(&a).ok(),
            Some("\"flywheel-7\"".to_owned())
        );
        let back: Text = serde_json::from_str("\"x\\\"y\"").expect("a JSON string");
        assert_eq!(back, "x\"y");
        let (a, b) = (Text::from("a"), Text::from("b"));
        assert!(a < b, "ordered as the text");
        assert_eq!(Text::default(), "");
    }

    #[test]
    fn texts_apart_compare_order_and_hash_as_their_strings_do() {
        use std::hash::BuildHasher;
        let words = [
            "",
            "a",
            "b",
            "ab",
            "ns-1",
            "ns-1/demo-10",
            "ns-1/demo-1",
            "ns-1/demo-10x",
            "ns-10/demo-1",
            "00000001-0000-4000-8000-000000000001",
            "00000001-0000-4000-8000-000000000002",
            "MyCRD",
            "MyCRE",
            "ß",
            "é",
        ];
        let hasher = std::collections::hash_map::RandomState::new();
        for x in words {
            for y in words {
                // separate allocations: the compare reads the bytes
                let (a, b) = (Text::from(x), Text::from(y));
                assert_eq!(a == b, x == y, "{x:?} == {y:?}");
                assert_eq!(a == *y, x == y, "{x:?} == str {y:?}");
                let owned = String::from(y);
                assert_eq!(a == owned, x == y, "{x:?} == String {y:?}");
                assert_eq!(a.cmp(&b), x.cmp(y), "{x:?} against {y:?}");
            }
            assert_eq!(hasher.hash_one(Text::from(x)), hasher.hash_one(x), "{x:?}");
        }
    }

    #[test]
    fn empty_texts_share_one_allocation() {
        let (a, b) = (Text::default(), Text::default());
        assert!(
            std::ptr::eq(a.as_str(), b.as_str()),
            "a default text allocates nothing"
        );
    }
}
