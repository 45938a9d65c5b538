//! Serde adapters that read and write durations and sizes as text (`"50ms"`, `"512Mi"`).

use serde::{Deserialize, Deserializer, Serializer};

/// Serde adapter for a [`std::time::Duration`] written as `"50ms"`, `"10m"`, …
pub mod duration_str {
    use std::time::Duration;

    use super::*;
    use crate::scenario::units::{format_duration, parse_duration};

    /// Writes a duration as text.
    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format_duration(*d))
    }

    /// Reads a duration from text.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let text = String::deserialize(d)?;
        parse_duration(&text).map_err(serde::de::Error::custom)
    }
}

/// Serde adapter for an optional duration (absent or text).
pub mod opt_duration_str {
    use std::time::Duration;

    use super::*;
    use crate::scenario::units::{format_duration, parse_duration};

    /// Writes an optional duration as text (absent stays absent).
    pub fn serialize<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        match d {
            Some(d) => s.serialize_str(&format_duration(*d)),
            None => s.serialize_none(),
        }
    }

    /// Reads an optional duration from text.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        let text = Option::<String>::deserialize(d)?;
        text.map(|t| parse_duration(&t).map_err(serde::de::Error::custom))
            .transpose()
    }
}

/// Serde adapter for a byte size written as `"512Mi"` or a plain number.
pub mod bytes_str {
    use super::*;
    use crate::scenario::units::{format_bytes, parse_bytes};

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Number(u64),
        Text(String),
    }

    /// Writes a size as text with a binary unit.
    pub fn serialize<S: Serializer>(b: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format_bytes(*b))
    }

    /// Reads a size from a number or text.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        match Raw::deserialize(d)? {
            Raw::Number(n) => Ok(n),
            Raw::Text(t) => parse_bytes(&t).map_err(serde::de::Error::custom),
        }
    }
}

/// Serde adapter for an optional byte size.
pub mod opt_bytes_str {
    use super::*;
    use crate::scenario::units::{format_bytes, parse_bytes};

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Number(u64),
        Text(String),
    }

    /// Writes an optional size as text.
    pub fn serialize<S: Serializer>(b: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match b {
            Some(b) => s.serialize_str(&format_bytes(*b)),
            None => s.serialize_none(),
        }
    }

    /// Reads an optional size.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        match Option::<Raw>::deserialize(d)? {
            None => Ok(None),
            Some(Raw::Number(n)) => Ok(Some(n)),
            Some(Raw::Text(t)) => parse_bytes(&t).map(Some).map_err(serde::de::Error::custom),
        }
    }
}
