//! The error of a setting's reader and writer ([`super::raw_de`], [`super::raw_ser`]): a message,
//! as serde's `value::Error` is, with the same words. What it writes of an unexpected value
//! (`invalid type: floating point `1.5`, expected a whole number`) it writes itself, as serde's
//! `Unexpected` does: serde writes a float there through the standard library's float
//! formatting, and that one message would keep the whole of it in the page's module
//! ([`crate::float_text`] writes the same text without it).

use std::fmt;

use serde::de::{self, Expected, Unexpected};

use crate::float_text::Shortest;

/// Why a setting's value could not be read or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(Box<str>);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error(msg.to_string().into_boxed_str())
    }

    fn invalid_type(unexpected: Unexpected<'_>, expected: &dyn Expected) -> Error {
        de::Error::custom(format_args!(
            "invalid type: {}, expected {expected}",
            Value(unexpected)
        ))
    }

    fn invalid_value(unexpected: Unexpected<'_>, expected: &dyn Expected) -> Error {
        de::Error::custom(format_args!(
            "invalid value: {}, expected {expected}",
            Value(unexpected)
        ))
    }
}

impl serde::ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Error {
        <Error as de::Error>::custom(msg)
    }
}

/// An unexpected value in serde's words.
struct Value<'a>(Unexpected<'a>);

impl fmt::Display for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Unexpected::Bool(b) => write!(f, "boolean `{b}`"),
            Unexpected::Unsigned(i) => write!(f, "integer `{i}`"),
            Unexpected::Signed(i) => write!(f, "integer `{i}`"),
            Unexpected::Float(x) => {
                // serde's `WithDecimalPoint`: a finite whole number gets `.0`
                let text = Shortest(x).to_string();
                let point = if x.is_finite() && !text.contains('.') {
                    ".0"
                } else {
                    ""
                };
                write!(f, "floating point `{text}{point}`")
            }
            Unexpected::Char(c) => write!(f, "character `{c}`"),
            Unexpected::Str(s) => write!(f, "string {s:?}"),
            Unexpected::Bytes(_) => f.write_str("byte array"),
            Unexpected::Unit => f.write_str("unit value"),
            Unexpected::Option => f.write_str("Option value"),
            Unexpected::NewtypeStruct => f.write_str("newtype struct"),
            Unexpected::Seq => f.write_str("sequence"),
            Unexpected::Map => f.write_str("map"),
            Unexpected::Enum => f.write_str("enum"),
            Unexpected::UnitVariant => f.write_str("unit variant"),
            Unexpected::NewtypeVariant => f.write_str("newtype variant"),
            Unexpected::TupleVariant => f.write_str("tuple variant"),
            Unexpected::StructVariant => f.write_str("struct variant"),
            Unexpected::Other(other) => f.write_str(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::Error as _;

    #[test]
    fn every_unexpected_value_is_told_in_serde_s_own_words() {
        let values = [
            Unexpected::Bool(true),
            Unexpected::Unsigned(7),
            Unexpected::Signed(-7),
            Unexpected::Float(1.5),
            Unexpected::Float(2.0),
            Unexpected::Float(1e20),
            Unexpected::Float(-0.0),
            Unexpected::Float(f64::NAN),
            Unexpected::Float(f64::NEG_INFINITY),
            Unexpected::Char('x'),
            Unexpected::Str("a \"b\""),
            Unexpected::Bytes(b"x"),
            Unexpected::Unit,
            Unexpected::Option,
            Unexpected::NewtypeStruct,
            Unexpected::Seq,
            Unexpected::Map,
            Unexpected::Enum,
            Unexpected::UnitVariant,
            Unexpected::NewtypeVariant,
            Unexpected::TupleVariant,
            Unexpected::StructVariant,
            Unexpected::Other("something else"),
        ];
        for v in values {
            let ours = Error::invalid_type(v, &"a whole number").to_string();
            let serde = de::value::Error::invalid_type(v, &"a whole number").to_string();
            assert_eq!(ours, serde);
            let ours = Error::invalid_value(v, &"a size").to_string();
            let serde = de::value::Error::invalid_value(v, &"a size").to_string();
            assert_eq!(ours, serde);
        }
    }
}
