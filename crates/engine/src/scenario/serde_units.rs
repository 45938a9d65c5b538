//! Serde adapters that read and write durations and sizes as text (`"50ms"`, `"512Mi"`).

use serde::{Deserialize, Deserializer, Serializer};

/// A duration read from text (`"50ms"`); a number or anything else is refused with "expected a
/// duration such as 50ms, 2.5s, 10m or 1h30m".
struct DurationText(std::time::Duration);

struct DurationVisitor;

impl serde::de::Visitor<'_> for DurationVisitor {
    type Value = DurationText;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a duration such as 50ms, 2.5s, 10m or 1h30m")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<DurationText, E> {
        crate::scenario::units::parse_duration(v)
            .map(DurationText)
            .map_err(E::custom)
    }
}

impl<'de> Deserialize<'de> for DurationText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<DurationText, D::Error> {
        d.deserialize_str(DurationVisitor)
    }
}

/// Serde adapter for a [`std::time::Duration`] written as `"50ms"`, `"10m"`, …
pub mod duration_str {
    use std::time::Duration;

    use super::{Deserialize, Deserializer, DurationText, Serializer};
    use crate::scenario::units::format_duration;

    /// Writes a duration as text.
    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format_duration(*d))
    }

    /// Reads a duration from text.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        DurationText::deserialize(d).map(|t| t.0)
    }
}

/// Serde adapter for an optional duration (absent or text).
pub mod opt_duration_str {
    use std::time::Duration;

    use super::{Deserialize, Deserializer, DurationText, Serializer};
    use crate::scenario::units::format_duration;

    /// Writes an optional duration as text (absent stays absent).
    pub fn serialize<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        match d {
            Some(d) => s.serialize_str(&format_duration(*d)),
            None => s.serialize_none(),
        }
    }

    /// Reads an optional duration from text.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        Option::<DurationText>::deserialize(d).map(|t| t.map(|t| t.0))
    }
}

/// A byte size read from a whole number or text (`"512Mi"`); anything else is refused with
/// "expected a size such as 64Ki or 2Gi", which the parser's messages turn into the field's range.
struct Size(u64);

/// The largest number of bytes a size may be written as (1P); validation bounds each field.
const MAX_SIZE_BYTES: f64 = 1e15;

struct SizeVisitor;

impl serde::de::Visitor<'_> for SizeVisitor {
    type Value = Size;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a size such as 64Ki or 2Gi")
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Size, E> {
        Ok(Size(v))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Size, E> {
        u64::try_from(v)
            .map(Size)
            .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Size, E> {
        if v.fract() == 0.0 && (0.0..=MAX_SIZE_BYTES).contains(&v) {
            Ok(Size(v as u64))
        } else {
            Err(E::invalid_value(serde::de::Unexpected::Float(v), &self))
        }
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Size, E> {
        crate::scenario::units::parse_bytes(v)
            .map(Size)
            .map_err(E::custom)
    }
}

impl<'de> Deserialize<'de> for Size {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Size, D::Error> {
        d.deserialize_any(SizeVisitor)
    }
}

/// Serde adapter for a byte size written as `"512Mi"` or a plain number.
pub mod bytes_str {
    use super::{Deserialize, Deserializer, Serializer, Size};
    use crate::scenario::units::exact_bytes;

    /// Writes a size as text with a binary unit.
    pub fn serialize<S: Serializer>(b: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&exact_bytes(*b))
    }

    /// Reads a size from a number or text.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        Size::deserialize(d).map(|s| s.0)
    }
}

/// Serde adapter for an optional byte size.
pub mod opt_bytes_str {
    use super::{Deserialize, Deserializer, Serializer, Size};
    use crate::scenario::units::exact_bytes;

    /// Writes an optional size as text.
    pub fn serialize<S: Serializer>(b: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match b {
            Some(b) => s.serialize_str(&exact_bytes(*b)),
            None => s.serialize_none(),
        }
    }

    /// Reads an optional size.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        Option::<Size>::deserialize(d).map(|s| s.map(|s| s.0))
    }
}
