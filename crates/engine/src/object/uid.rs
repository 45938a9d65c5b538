//! [`Uid`]: an object's `metadata.uid`, kept as the number the API server issued it by.
//!
//! The API server names the n-th object it creates `{n:08x}-0000-4000-8000-{n:012x}` (a UUID v4
//! layout, deterministic). Such a uid is kept as `n` and written out only when it is read as
//! text (serialized, printed, compared with a text): an object carries no allocation for it, and
//! copying or dropping one of its versions touches no memory of the uid's own, which at the
//! incident's 150 000 objects is a cold cache line fewer on every copy and every release. A uid
//! a client gave in another form, or one past the 2³²nd (which a run never reaches), stays text:
//! a 32-bit number fits beside a text's pointer, so a uid is no larger than a [`Text`] (natively
//! and in wasm32).
//!
//! It compares, prints and serializes exactly as its text does: a text that reads as an issued
//! uid becomes that number, so two uids are equal exactly when their texts are.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Text;
use crate::digits::Digits;

/// The fixed middle of an issued uid, between the counter's low 8 and low 12 hexadecimal digits.
const ISSUED_MIDDLE: &str = "-0000-4000-8000-";

/// `metadata.uid`: the API server's n-th, or a text a client gave (empty when unset).
#[derive(Clone, PartialEq, Eq)]
pub struct Uid(Repr);

#[derive(Clone, PartialEq, Eq)]
enum Repr {
    /// The n-th uid the API server issued, below 2³².
    Issued(u32),
    /// Any other text, the empty one included.
    Given(Text),
}

/// A uid costs an object no more than a [`Text`] did.
const _: () = assert!(std::mem::size_of::<Uid>() <= std::mem::size_of::<Text>());

impl Uid {
    /// The API server's `n`-th uid: `{n:08x}-0000-4000-8000-{n:012x}` (wider digits when `n`
    /// needs them).
    pub fn issued(n: u64) -> Uid {
        match u32::try_from(n) {
            Ok(small) => Uid(Repr::Issued(small)),
            Err(_) => {
                let mut text = String::new();
                let _ = write_issued(n, &mut text);
                Uid(Repr::Given(Text::from(text.as_str())))
            }
        }
    }

    /// Whether the uid is unset (empty).
    pub fn is_empty(&self) -> bool {
        match &self.0 {
            Repr::Issued(_) => false,
            Repr::Given(text) => text.is_empty(),
        }
    }
}

impl Default for Uid {
    fn default() -> Self {
        Uid(Repr::Given(Text::default()))
    }
}

/// Writes the `n`-th issued uid to `out`.
fn write_issued(n: u64, out: &mut impl fmt::Write) -> fmt::Result {
    out.write_str(Digits::new(n, 8, 16).as_str())?;
    out.write_str(ISSUED_MIDDLE)?;
    out.write_str(Digits::new(n, 12, 16).as_str())
}

/// Whether `text` is exactly the `n`-th issued uid, compared as it is written (no allocation).
fn is_issued_text(n: u64, text: &str) -> bool {
    let mut rest = Rest(text);
    write_issued(n, &mut rest).is_ok() && rest.0.is_empty()
}

/// What a text has left to match: a written piece that is not its next part fails the write.
struct Rest<'a>(&'a str);

impl fmt::Write for Rest<'_> {
    fn write_str(&mut self, piece: &str) -> fmt::Result {
        self.0 = self.0.strip_prefix(piece).ok_or(fmt::Error)?;
        Ok(())
    }
}

/// The number of the issued uid that `text` is, if it is one.
fn issued_number(text: &str) -> Option<u64> {
    let (_, tail) = text.split_once(ISSUED_MIDDLE)?;
    let n = u64::from_str_radix(tail, 16).ok()?;
    is_issued_text(n, text).then_some(n)
}

impl From<&str> for Uid {
    fn from(text: &str) -> Uid {
        match issued_number(text).and_then(|n| u32::try_from(n).ok()) {
            Some(n) => Uid(Repr::Issued(n)),
            None => Uid(Repr::Given(Text::from(text))),
        }
    }
}

impl From<String> for Uid {
    fn from(text: String) -> Uid {
        Uid::from(text.as_str())
    }
}

impl PartialEq<str> for Uid {
    fn eq(&self, other: &str) -> bool {
        match &self.0 {
            Repr::Issued(n) => is_issued_text(u64::from(*n), other),
            Repr::Given(text) => text.as_str() == other,
        }
    }
}

impl PartialEq<&str> for Uid {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl fmt::Display for Uid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Issued(n) => write_issued(u64::from(*n), f),
            Repr::Given(text) => f.write_str(text),
        }
    }
}

impl fmt::Debug for Uid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            // hexadecimal digits and dashes: nothing to escape
            Repr::Issued(_) => write!(f, "\"{self}\""),
            Repr::Given(text) => fmt::Debug::fmt(text.as_str(), f),
        }
    }
}

impl Serialize for Uid {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Repr::Issued(_) => serializer.collect_str(self),
            Repr::Given(text) => serializer.serialize_str(text),
        }
    }
}

impl<'de> Deserialize<'de> for Uid {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Uid, D::Error> {
        String::deserialize(deserializer).map(Uid::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The issued uid's text, as the API server has always written it.
    fn reference_text(n: u64) -> String {
        format!("{n:08x}-0000-4000-8000-{n:012x}")
    }

    #[test]
    fn an_issued_uid_reads_as_the_uuid_v4_layout_of_its_number() {
        for n in [1, 0x12d, 0xffff_ffff, 1 << 32, 0xfedc_ba98_7654, u64::MAX] {
            let uid = Uid::issued(n);
            assert_eq!(uid.to_string(), reference_text(n));
            assert_eq!(format!("{uid:?}"), format!("{:?}", reference_text(n)));
            assert_eq!(
                serde_json::to_value(&uid).ok(),
                Some(reference_text(n).into())
            );
            assert!(!uid.is_empty());
        }
    }

    #[test]
    fn a_text_that_reads_as_an_issued_uid_is_that_uid_and_any_other_stays_text() {
        for n in [0, 1, 0x12d, 1 << 32, u64::MAX] {
            let text = reference_text(n);
            assert_eq!(Uid::from(text.as_str()), Uid::issued(n), "{text}");
            assert!(Uid::issued(n) == text.as_str());
        }
        for other in [
            "uid-1",
            "",
            "0000012D-0000-4000-8000-00000000012D",
            "0000012d-0000-4000-8000-00000000012e",
            "12d-0000-4000-8000-00000000012d",
            "0000012d-0000-4000-8000-+0000000012d",
            "0000012d-0000-4000-8000-00000000012d ",
        ] {
            let uid = Uid::from(other);
            assert!(uid == other, "{other:?}");
            assert_eq!(uid.to_string(), other);
            assert_ne!(uid, Uid::issued(0x12d), "{other:?}");
            assert_eq!(format!("{uid:?}"), format!("{other:?}"));
        }
        assert!(Uid::default().is_empty() && Uid::from("").is_empty());
        assert!(Uid::issued(0x12d) != "0000012d-0000-4000-8000-00000000012");
    }

    #[test]
    fn a_uid_survives_a_round_trip_through_json_unchanged() {
        for uid in [Uid::issued(7), Uid::from("someone-else"), Uid::default()] {
            let json = serde_json::to_string(&uid).unwrap_or_default();
            let back: Option<Uid> = serde_json::from_str(&json).ok();
            assert_eq!(back, Some(uid));
        }
    }
}
