//! A [`Raw`] value as a serde deserializer, so that a setting's field is read by its own
//! deserializer (its type's, or its `duration_str` / `bytes_str` adapter) with the same results
//! and messages as a JSON value gave: a number visits as `u64`, `i64` or `f64`, text as a
//! string, a list as a sequence; an option is `None` only for `null`; an enum is named by a
//! string, or by an object of one member whose value is its data ("invalid type: integer `1`,
//! expected string or map" otherwise).

use serde::de::value::{MapDeserializer, SeqDeserializer, StringDeserializer};

use super::raw_error::Error;
use serde::de::{self, DeserializeSeed, Error as _, IntoDeserializer, Unexpected, Visitor};
use serde::forward_to_deserialize_any;

use super::raw::Raw;

impl Raw {
    /// What a deserializer's message calls this value.
    fn unexpected(&self) -> Unexpected<'_> {
        match self {
            Raw::Null => Unexpected::Unit,
            Raw::Bool(b) => Unexpected::Bool(*b),
            Raw::U64(n) => Unexpected::Unsigned(*n),
            Raw::I64(n) => Unexpected::Signed(*n),
            Raw::F64(n) => Unexpected::Float(*n),
            Raw::Str(s) => Unexpected::Str(s),
            Raw::Seq(_) => Unexpected::Seq,
            Raw::Map(_) => Unexpected::Map,
        }
    }
}

/// A list visited as a sequence that must be read to its end.
fn visit_seq<'de, V: Visitor<'de>>(items: Vec<Raw>, visitor: V) -> Result<V::Value, Error> {
    let len = items.len();
    let mut seq = SeqDeserializer::new(items.into_iter());
    let value = visitor.visit_seq(&mut seq)?;
    seq.end()
        .map_err(|_| Error::invalid_length(len, &"fewer elements in array"))?;
    Ok(value)
}

/// An object visited as a map that must be read to its end.
fn visit_map<'de, V: Visitor<'de>>(
    members: Vec<(String, Raw)>,
    visitor: V,
) -> Result<V::Value, Error> {
    let len = members.len();
    let mut map = MapDeserializer::new(members.into_iter());
    let value = visitor.visit_map(&mut map)?;
    map.end()
        .map_err(|_| Error::invalid_length(len, &"fewer elements in map"))?;
    Ok(value)
}

/// An enum named by an object's one member: the variant its name, the data its value.
struct Variant {
    name: String,
    data: Raw,
}

impl<'de> de::EnumAccess<'de> for Variant {
    type Error = Error;
    type Variant = Raw;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Raw), Error> {
        let name: StringDeserializer<Error> = self.name.into_deserializer();
        Ok((seed.deserialize(name)?, self.data))
    }
}

impl<'de> de::VariantAccess<'de> for Raw {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        serde::Deserialize::deserialize(self)
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        match self {
            Raw::Seq(items) if items.is_empty() => visitor.visit_unit(),
            Raw::Seq(items) => visit_seq(items, visitor),
            other => Err(Error::invalid_type(other.unexpected(), &"tuple variant")),
        }
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Raw::Map(members) => visit_map(members, visitor),
            other => Err(Error::invalid_type(other.unexpected(), &"struct variant")),
        }
    }
}

impl IntoDeserializer<'_, Error> for Raw {
    type Deserializer = Raw;

    fn into_deserializer(self) -> Raw {
        self
    }
}

impl<'de> de::Deserializer<'de> for Raw {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Raw::Null => visitor.visit_unit(),
            Raw::Bool(b) => visitor.visit_bool(b),
            Raw::U64(n) => visitor.visit_u64(n),
            Raw::I64(n) => visitor.visit_i64(n),
            Raw::F64(n) => visitor.visit_f64(n),
            Raw::Str(s) => visitor.visit_string(s),
            Raw::Seq(items) => visit_seq(items, visitor),
            Raw::Map(members) => visit_map(members, visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Raw::Null => visitor.visit_none(),
            other => visitor.visit_some(other),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Raw::Str(variant) => visitor.visit_enum(variant.into_deserializer()),
            Raw::Map(mut members) if members.len() == 1 => {
                let (name, data) = members.remove(0);
                visitor.visit_enum(Variant { name, data })
            }
            Raw::Map(_) => Err(Error::invalid_value(
                Unexpected::Map,
                &"map with a single key",
            )),
            other => Err(Error::invalid_type(other.unexpected(), &"string or map")),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Raw::Null => visitor.visit_unit(),
            other => Err(Error::invalid_type(other.unexpected(), &visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf seq tuple tuple_struct map struct identifier ignored_any
    }
}
