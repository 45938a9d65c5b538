//! A setting's field written out as a [`Raw`] value by its own serializer (its type's, or its
//! `duration_str` / `bytes_str` adapter), as a JSON value type would hold it: a number that is
//! not finite and "none" are `null`, a unit variant its name, a list a sequence. A setting's
//! field is never a table, so tables and variants with data are refused.

use serde::ser::{self, Error as _, Impossible, Serialize};

use super::raw::Raw;
use super::raw_error::Error;

/// Writes a value as a [`Raw`].
pub struct RawSerializer;

/// A list being written.
pub struct RawSeq(Vec<Raw>);

fn refused(what: &str) -> Error {
    Error::custom(format!("a setting is never {what}"))
}

impl ser::Serializer for RawSerializer {
    type Ok = Raw;
    type Error = Error;
    type SerializeSeq = RawSeq;
    type SerializeTuple = RawSeq;
    type SerializeTupleStruct = Impossible<Raw, Error>;
    type SerializeTupleVariant = Impossible<Raw, Error>;
    type SerializeMap = Impossible<Raw, Error>;
    type SerializeStruct = Impossible<Raw, Error>;
    type SerializeStructVariant = Impossible<Raw, Error>;

    fn serialize_bool(self, v: bool) -> Result<Raw, Error> {
        Ok(Raw::Bool(v))
    }

    fn serialize_i8(self, v: i8) -> Result<Raw, Error> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i16(self, v: i16) -> Result<Raw, Error> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i32(self, v: i32) -> Result<Raw, Error> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i64(self, v: i64) -> Result<Raw, Error> {
        Ok(u64::try_from(v).map_or(Raw::I64(v), Raw::U64))
    }

    fn serialize_u8(self, v: u8) -> Result<Raw, Error> {
        Ok(Raw::U64(u64::from(v)))
    }

    fn serialize_u16(self, v: u16) -> Result<Raw, Error> {
        Ok(Raw::U64(u64::from(v)))
    }

    fn serialize_u32(self, v: u32) -> Result<Raw, Error> {
        Ok(Raw::U64(u64::from(v)))
    }

    fn serialize_u64(self, v: u64) -> Result<Raw, Error> {
        Ok(Raw::U64(v))
    }

    fn serialize_f32(self, v: f32) -> Result<Raw, Error> {
        self.serialize_f64(f64::from(v))
    }

    fn serialize_f64(self, v: f64) -> Result<Raw, Error> {
        Ok(if v.is_finite() {
            Raw::F64(v)
        } else {
            Raw::Null
        })
    }

    fn serialize_char(self, v: char) -> Result<Raw, Error> {
        Ok(Raw::Str(v.to_string()))
    }

    fn serialize_str(self, v: &str) -> Result<Raw, Error> {
        Ok(Raw::Str(v.to_owned()))
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<Raw, Error> {
        Ok(Raw::Seq(
            v.iter().map(|b| Raw::U64(u64::from(*b))).collect(),
        ))
    }

    fn serialize_none(self) -> Result<Raw, Error> {
        Ok(Raw::Null)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Raw, Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<Raw, Error> {
        Ok(Raw::Null)
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<Raw, Error> {
        Ok(Raw::Null)
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Raw, Error> {
        Ok(Raw::Str(variant.to_owned()))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Raw, Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<Raw, Error> {
        Err(refused("a variant with a value"))
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<RawSeq, Error> {
        Ok(RawSeq(Vec::with_capacity(len.unwrap_or(0))))
    }

    fn serialize_tuple(self, len: usize) -> Result<RawSeq, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Impossible<Raw, Error>, Error> {
        Err(refused("a tuple struct"))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Impossible<Raw, Error>, Error> {
        Err(refused("a variant with values"))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Impossible<Raw, Error>, Error> {
        Err(refused("a table"))
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Impossible<Raw, Error>, Error> {
        Err(refused("a table"))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Impossible<Raw, Error>, Error> {
        Err(refused("a variant with fields"))
    }
}

impl ser::SerializeSeq for RawSeq {
    type Ok = Raw;
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.0.push(value.serialize(RawSerializer)?);
        Ok(())
    }

    fn end(self) -> Result<Raw, Error> {
        Ok(Raw::Seq(self.0))
    }
}

impl ser::SerializeTuple for RawSeq {
    type Ok = Raw;
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result<Raw, Error> {
        ser::SerializeSeq::end(self)
    }
}
