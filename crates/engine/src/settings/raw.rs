//! A setting's value as `--set` reads it: a number, a boolean, a string in quotes or a list,
//! written as JSON (`4`, `1.5`, `true`, `"64Ki"`, `["generation_changed"]`), else the text itself
//! (`64Ki`, `field_index`). It is put into its field by the field's own deserializer
//! ([`super::raw_de`]) and read back by its serializer ([`super::raw_ser`]), as a whole scenario
//! file would be, without a JSON library's value type.
//!
//! ```text
//!   "1.5" ──Raw::read──► F64(1.5) ──u32::deserialize──► "invalid type: floating point `1.5`, expected u32"
//!   "64Ki" ─Raw::read──► Str("64Ki") ──bytes_str::deserialize──► 65536
//! ```

use super::raw_json;

/// A value as `--set` reads it, with the kinds of JSON value a field's deserializer tells apart.
#[derive(Clone, Debug, PartialEq)]
pub enum Raw {
    /// `null` (inside a list; a field left out reads as this).
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A whole number of at least 0 (`4`).
    U64(u64),
    /// A negative whole number (`-1`).
    I64(i64),
    /// Any other number (`1.5`, `1e3`, `-0`, a whole number too large for 64 bits).
    F64(f64),
    /// Text: in quotes, or the whole value when it is not JSON (`64Ki`).
    Str(String),
    /// A list (`["generation_changed"]`).
    Seq(Vec<Raw>),
    /// A JSON object inside a list (no setting takes one), its members by name (the last of a
    /// name kept, as a JSON object type keeps it).
    Map(Vec<(String, Raw)>),
}

impl Raw {
    /// `text` as `--set` reads it: JSON when it is a number, a boolean, a string in quotes or a
    /// list; anything else (`64Ki`, `null`, `{}`, `1e400`) the trimmed text itself.
    pub fn read(text: &str) -> Raw {
        let text = text.trim();
        match raw_json::parse(text) {
            Some(
                v @ (Raw::U64(_)
                | Raw::I64(_)
                | Raw::F64(_)
                | Raw::Bool(_)
                | Raw::Str(_)
                | Raw::Seq(_)),
            ) => v,
            _ => Raw::Str(text.to_owned()),
        }
    }

    /// The value as a number, when it is one.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Raw::U64(n) => Some(n as f64),
            Raw::I64(n) => Some(n as f64),
            Raw::F64(n) => Some(n),
            _ => None,
        }
    }

    /// The value written as compact JSON (`true`, `1.5`, `["generation_changed"]`).
    pub fn json_text(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    fn write_json(&self, out: &mut String) {
        match self {
            Raw::Null => out.push_str("null"),
            Raw::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Raw::U64(n) => out.push_str(&n.to_string()),
            Raw::I64(n) => out.push_str(&n.to_string()),
            Raw::F64(n) => out.push_str(&float_text(*n)),
            Raw::Str(s) => write_string(s, out),
            Raw::Seq(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write_json(out);
                }
                out.push(']');
            }
            Raw::Map(members) => {
                out.push('{');
                for (i, (name, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(name, out);
                    out.push(':');
                    value.write_json(out);
                }
                out.push('}');
            }
        }
    }
}

/// `s` as a JSON string, appended to `out` (`serde_json`'s writer, which the page carries anyway
/// for a JSON value's encoded length).
fn write_string(s: &str, out: &mut String) {
    out.push_str(&serde_json::to_string(s).unwrap_or_default());
}

/// A finite number as JSON writes it (`1.5`, `1.0`, `1e300`); `null` when it is not finite.
fn float_text(v: f64) -> String {
    serde_json::Number::from_f64(v).map_or_else(|| "null".to_owned(), |n| n.to_string())
}

#[cfg(test)]
impl From<&serde_json::Value> for Raw {
    /// A JSON library's value as a [`Raw`] (the tests compare the two readings).
    fn from(v: &serde_json::Value) -> Raw {
        use serde_json::Value;
        match v {
            Value::Null => Raw::Null,
            Value::Bool(b) => Raw::Bool(*b),
            Value::Number(n) => n
                .as_u64()
                .map(Raw::U64)
                .or_else(|| n.as_i64().map(Raw::I64))
                .unwrap_or_else(|| Raw::F64(n.as_f64().unwrap_or(f64::NAN))),
            Value::String(s) => Raw::Str(s.clone()),
            Value::Array(items) => Raw::Seq(items.iter().map(Raw::from).collect()),
            Value::Object(members) => Raw::Map(
                members
                    .iter()
                    .map(|(k, v)| (k.clone(), Raw::from(v)))
                    .collect(),
            ),
        }
    }
}

/// Texts of every JSON form and of none, and near misses of each (the tests read them both ways).
#[cfg(test)]
pub(super) const FORMS: &[&str] = &[
    "0",
    "1",
    "-1",
    "-0",
    "-0.0",
    "01",
    "+1",
    ".5",
    "5.",
    "1.5",
    "1.50",
    "0.1",
    "0.3",
    "2.675",
    "1e3",
    "1E3",
    "1e+3",
    "1e-3",
    "1e",
    "1e400",
    "-1e400",
    // past 10^22 a short mantissa's product with a power of ten rounds: serde_json without its
    // float_roundtrip feature read this one unit in the last place away
    "11e23",
    "1e-400",
    "-1e-400",
    "123456789012345678901234567890",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "-9223372036854775809",
    "1.7976931348623157e308",
    "5e-324",
    "true",
    "false",
    "tru",
    "TRUE",
    "null",
    "nul",
    "yes",
    "\"quoted\"",
    "\"4Ki\"",
    "\"\"",
    "\"a\\\"b\"",
    "\"a\\\\b\"",
    "\"\\u0041\\u00e9\"",
    "\"\\ud83d\\ude00\"",
    "\"\\ud83d\"",
    "\"\\x\"",
    "\"\\u0001\\u001f\\b\\f\\t\\/\"",
    "\"a\nb\"",
    "\"unterminated",
    "4Ki",
    "32Gi",
    "-4Ki",
    "200ms",
    "5 m",
    "1h30m",
    "nope",
    "[]",
    "[ ]",
    "[\"generation_changed\"]",
    "[ \"a\" , \"b\" ]",
    "[\"x\",]",
    "[,]",
    "[1]",
    "[1, -1, 1.5]",
    "[null]",
    "[{}]",
    "[{\"a\": 1}]",
    "[{\"generation_changed\": null}]",
    "[{\"generation_changed\": 1}]",
    "[{\"label_changed\": []}]",
    "[{\"a\": 1, \"a\": 2}]",
    "[{\"b\": 1, \"a\": [true]}]",
    "[[\"a\"]]",
    "[",
    "]",
    "[\"a\"",
    "a\nb",
    "NaN",
    "inf",
    "{}",
    "{\"a\": 1}",
    " 7 ",
    "\t8\n",
    "",
    "   ",
    "1 2",
    "[1] x",
    "\"a\" \"b\"",
    "☃",
    "\"☃\"",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// How `--set` values were read before: with `serde_json`'s parser and value type.
    fn by_serde_json(text: &str) -> Raw {
        use serde_json::Value;
        let text = text.trim();
        match serde_json::from_str::<Value>(text) {
            Ok(v @ (Value::Number(_) | Value::Bool(_) | Value::String(_) | Value::Array(_))) => {
                Raw::from(&v)
            }
            _ => Raw::Str(text.to_owned()),
        }
    }

    #[test]
    fn a_value_is_read_as_serde_json_read_it() {
        for text in FORMS {
            assert_eq!(Raw::read(text), by_serde_json(text), "{text:?}");
        }
        for depth in [1, 100, 126, 127, 128, 129, 200, 100_000] {
            let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            assert_eq!(
                Raw::read(&deep),
                by_serde_json(&deep),
                "a list {depth} deep"
            );
        }
    }

    /// Cases of the property test: `FLYWHEEL_FUZZ_CASES` (set by `tests/fuzz.sh`), else 256.
    fn cases() -> u32 {
        std::env::var("FLYWHEEL_FUZZ_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(256)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(cases()))]

        /// Texts made of JSON's punctuation, digits and the letters of its words, in any order:
        /// each read as `serde_json` read it.
        #[test]
        fn any_text_of_json_pieces_is_read_as_serde_json_read_it(
            text in "[\\[\\]{}\",:0-9.eE+\\- \\\\tfalsenu]{0,14}"
        ) {
            proptest::prop_assert_eq!(Raw::read(&text), by_serde_json(&text), "{:?}", text);
        }
    }

    #[test]
    fn a_value_is_written_as_serde_json_wrote_it() {
        for text in FORMS {
            // a getter never writes a table, and a Raw keeps none of one
            if let Some(v) = serde_json::from_str::<serde_json::Value>(text)
                .ok()
                .filter(|_| !text.contains('{'))
            {
                assert_eq!(Raw::from(&v).json_text(), v.to_string(), "{text:?}");
            }
        }
    }
}
