//! [`Text`]: an object's kind, namespace, name and uid, shared between its versions.
//!
//! A Go object's strings are immutable pointers: `DeepCopy` copies the pointer and the length,
//! never the bytes. A controller's working copy of an object (the cache's copy that a Reconcile
//! changes) and every version an update stores keep the same kind, namespace, name and uid, so
//! [`Text`] shares them as Go does: a copy increments a count instead of allocating and copying
//! four strings, and dropping a version frees none of them. It compares, orders, hashes, prints
//! and serializes exactly as its text does.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::rc::Rc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Immutable text shared between copies (reference-counted without atomics: a run lives on one
/// thread).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
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

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        &*self.0 == other.as_str()
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self == &*other.0
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == &*other.0
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
    fn empty_texts_share_one_allocation() {
        let (a, b) = (Text::default(), crate::object::ObjectMeta::default().uid);
        assert!(
            std::ptr::eq(a.as_str(), b.as_str()),
            "an object's defaults allocate nothing"
        );
    }
}
