//! Texts held as `&'static str` (a predicate's Go type name, a result label, a colour) read back
//! from their serialized form. A view sent from one copy of the program to another (the page's
//! engine in a Web Worker to the page) names only texts compiled into both, so each distinct one
//! is stored once for the program's life: reading the same views again and again never grows
//! memory. Use with `#[serde(deserialize_with = "…")]` on the field.
//!
//! ```text
//!  "GenerationChangedPredicate" ──read──▶ kept? ──yes──▶ the kept &'static str
//!                                              └─no───▶ stored once, then kept
//! ```

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::BTreeSet;

use serde::{Deserialize, Deserializer};

/// A `&'static str` field read with [`one`]: spelled through this name, serde's derive does not
/// take the field for text borrowed from the input (which would tie the view to `'static`
/// input).
pub type StaticStr = &'static str;

thread_local! {
    static KEPT: RefCell<BTreeSet<&'static str>> = const { RefCell::new(BTreeSet::new()) };
}

/// The kept `&'static str` equal to `text`, stored the first time it is asked for.
pub fn intern(text: &str) -> &'static str {
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        if let Some(found) = kept.get(text) {
            return *found;
        }
        let stored: &'static str = Box::leak(text.to_owned().into_boxed_str());
        kept.insert(stored);
        stored
    })
}

/// Reads one text.
pub fn one<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    let text = Cow::<str>::deserialize(d)?;
    Ok(intern(&text))
}

/// Reads a list of texts.
pub fn list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<&'static str>, D::Error> {
    let texts = Vec::<Cow<str>>::deserialize(d)?;
    Ok(texts.iter().map(|t| intern(t)).collect())
}

/// Reads a pair of texts.
pub fn pair<'de, D: Deserializer<'de>>(d: D) -> Result<(&'static str, &'static str), D::Error> {
    let (a, b) = <(Cow<str>, Cow<str>)>::deserialize(d)?;
    Ok((intern(&a), intern(&b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_text_read_twice_is_the_one_kept_text() {
        let a = intern(&String::from("GenerationChangedPredicate"));
        let b = intern(&String::from("GenerationChangedPredicate"));
        assert_eq!(a, "GenerationChangedPredicate");
        assert!(std::ptr::eq(a, b), "one copy kept, not one per read");
        assert!(!std::ptr::eq(a, intern("requeue")));
    }

    #[test]
    fn texts_read_from_json_are_the_kept_ones() {
        #[derive(serde::Deserialize)]
        struct View {
            #[serde(deserialize_with = "one")]
            result: &'static str,
            #[serde(deserialize_with = "list")]
            predicates: Vec<&'static str>,
            #[serde(deserialize_with = "pair")]
            units: (&'static str, &'static str),
        }
        let json = r##"{"result":"requeue","predicates":["A","B"],"units":["MiB",""]}"##;
        let v: View = serde_json::from_str(json).expect("a view");
        assert!(std::ptr::eq(v.result, intern("requeue")));
        assert_eq!(v.predicates, ["A", "B"]);
        assert_eq!(v.units, ("MiB", ""));
    }
}
