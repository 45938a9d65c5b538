//! The bytes the page and its engine's Worker send each other ([`crate::host_msg`]): each
//! message type lists its fields once ([`wire_struct!`], [`wire_enum!`], in
//! [`crate::wire_types`]), and that one list both writes the value and reads it back, in the
//! same order. A page and its Worker run the same module, so the form needs no names, no
//! versions and no compatibility with anything else.
//!
//! ```text
//!  unsigned integer  LEB128 varint (7 bits a byte, low first); a u8 as its one byte
//!  signed integer    zigzag, then as unsigned
//!  f64               8 bytes, little-endian (every value exactly: NaN, infinities, -0)
//!  bool, Option      one byte: 0 or 1 (Option: then the value)
//!  text, list, map   the length as a varint, then the bytes or the items
//!  struct, tuple     the fields in their listed order
//!  enum              the variant's place in the list (one byte), then its fields
//! ```
//!
//! Reading never panics and never reserves room for more items than the bytes left could
//! hold: a damaged or truncated message is a [`WireError`].

use std::fmt;
use std::rc::Rc;
use std::time::Duration;

/// A message that could not be read: what was wrong with its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WireError(&'static str);

impl WireError {
    /// The bytes ended inside a value.
    pub const SHORT: WireError = WireError("the message ends inside a value");
    /// A byte that no value of the type has at that place (a variant, a flag, a varint's length).
    pub const BAD: WireError = WireError("a byte no value of its type has");
    /// Text that is not UTF-8.
    pub const TEXT: WireError = WireError("text that is not UTF-8");
    /// Bytes left after the message.
    pub const TRAILING: WireError = WireError("bytes after the end of the message");
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// The bytes of a message being read, from the front.
pub struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes }
    }

    /// How many bytes are left.
    pub fn left(&self) -> usize {
        self.bytes.len()
    }

    /// The next byte.
    pub fn byte(&mut self) -> Result<u8, WireError> {
        let (&first, rest) = self.bytes.split_first().ok_or(WireError::SHORT)?;
        self.bytes = rest;
        Ok(first)
    }

    /// The next `n` bytes.
    #[inline(never)]
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8], WireError> {
        if n > self.bytes.len() {
            return Err(WireError::SHORT);
        }
        let (taken, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(taken)
    }

    /// The next varint (at most ten bytes; the tenth holds the top bit only).
    #[inline(never)]
    pub fn varint(&mut self) -> Result<u64, WireError> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            let bits = u64::from(byte & 0x7f);
            if shift == 63 && bits > 1 {
                return Err(WireError::BAD);
            }
            value |= bits << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(WireError::BAD)
    }

    /// A length of a list of items each at least `least` bytes long (every value takes one at
    /// least): refused when the bytes left cannot hold that many, so room reserved for the items
    /// is never more than the message could fill.
    #[inline(never)]
    pub fn length(&mut self, least: usize) -> Result<usize, WireError> {
        let n = usize::try_from(self.varint()?).map_err(|_| WireError::SHORT)?;
        if n > self.left() / least.max(1) {
            return Err(WireError::SHORT);
        }
        Ok(n)
    }

    /// Reads a whole message: a value and nothing after it.
    pub fn whole<T: Wire>(bytes: &[u8]) -> Result<T, WireError> {
        let mut r = Reader::new(bytes);
        let value = T::take(&mut r)?;
        if r.left() > 0 {
            return Err(WireError::TRAILING);
        }
        Ok(value)
    }
}

/// A value written to bytes and read back from them.
pub trait Wire: Sized {
    /// The fewest bytes a value takes (what a list's length is checked against).
    const LEAST: usize = 1;

    /// Appends the value's bytes to `out`.
    fn put(&self, out: &mut Vec<u8>);

    /// Reads a value from the front of `r`.
    fn take(r: &mut Reader<'_>) -> Result<Self, WireError>;
}

/// Appends `value` as a varint.
#[inline(never)]
pub fn put_varint(mut value: u64, out: &mut Vec<u8>) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

macro_rules! wire_unsigned {
    ($($ty:ty),*) => {$(
        impl Wire for $ty {
            fn put(&self, out: &mut Vec<u8>) {
                put_varint(*self as u64, out);
            }

            fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
                <$ty>::try_from(r.varint()?).map_err(|_| WireError::BAD)
            }
        }
    )*};
}

wire_unsigned!(u16, u32, u64, usize);

impl Wire for u8 {
    fn put(&self, out: &mut Vec<u8>) {
        out.push(*self);
    }

    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        r.byte()
    }
}

impl Wire for i64 {
    fn put(&self, out: &mut Vec<u8>) {
        put_varint(((*self << 1) ^ (*self >> 63)) as u64, out);
    }

    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        let z = r.varint()?;
        Ok((z >> 1) as i64 ^ -((z & 1) as i64))
    }
}

impl Wire for f64 {
    const LEAST: usize = 8;

    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }

    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        let mut word = [0u8; 8];
        word.copy_from_slice(r.bytes(8)?);
        Ok(f64::from_le_bytes(word))
    }
}

impl Wire for bool {
    fn put(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }

    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        match r.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(WireError::BAD),
        }
    }
}

impl Wire for String {
    fn put(&self, out: &mut Vec<u8>) {
        put_text(self, out);
    }

    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        take_text(r).map(str::to_owned)
    }
}

/// Appends `text`: its length, then its bytes.
#[inline(never)]
pub fn put_text(text: &str, out: &mut Vec<u8>) {
    put_varint(text.len() as u64, out);
    out.extend_from_slice(text.as_bytes());
}

/// Reads a text written by [`put_text`], borrowed from the message.
#[inline(never)]
pub fn take_text<'a>(r: &mut Reader<'a>) -> Result<&'a str, WireError> {
    let n = r.length(1)?;
    std::str::from_utf8(r.bytes(n)?).map_err(|_| WireError::TEXT)
}

/// A text compiled into the program (a colour, a unit, a result label): read back as the one
/// kept copy of it ([`flywheel_engine::static_text::intern`]), so reading views again and again
/// never grows memory.
impl Wire for &'static str {
    fn put(&self, out: &mut Vec<u8>) {
        put_text(self, out);
    }

    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        take_text(r).map(flywheel_engine::static_text::intern)
    }
}

impl<T: Wire> Wire for Option<T> {
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            None => out.push(0),
            Some(value) => {
                out.push(1);
                value.put(out);
            }
        }
    }

    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        match r.byte()? {
            0 => Ok(None),
            1 => T::take(r).map(Some),
            _ => Err(WireError::BAD),
        }
    }
}

impl<T: Wire> Wire for Vec<T> {
    fn put(&self, out: &mut Vec<u8>) {
        put_varint(self.len() as u64, out);
        for item in self {
            item.put(out);
        }
    }

    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        let n = r.length(T::LEAST)?;
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            items.push(T::take(r)?);
        }
        Ok(items)
    }
}

impl<T: Wire> Wire for Box<T> {
    const LEAST: usize = T::LEAST;

    fn put(&self, out: &mut Vec<u8>) {
        (**self).put(out);
    }

    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        T::take(r).map(Box::new)
    }
}

impl<T: Wire> Wire for Rc<T> {
    const LEAST: usize = T::LEAST;

    fn put(&self, out: &mut Vec<u8>) {
        (**self).put(out);
    }

    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        T::take(r).map(Rc::new)
    }
}

impl<A: Wire, B: Wire> Wire for (A, B) {
    const LEAST: usize = A::LEAST + B::LEAST;

    fn put(&self, out: &mut Vec<u8>) {
        self.0.put(out);
        self.1.put(out);
    }

    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        Ok((A::take(r)?, B::take(r)?))
    }
}

impl Wire for Duration {
    const LEAST: usize = 2;

    fn put(&self, out: &mut Vec<u8>) {
        put_varint(self.as_secs(), out);
        put_varint(u64::from(self.subsec_nanos()), out);
    }

    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        let secs = r.varint()?;
        let nanos = u32::take(r)?;
        if nanos >= 1_000_000_000 {
            return Err(WireError::BAD);
        }
        Ok(Duration::new(secs, nanos))
    }
}

/// A struct whose fields are written and read in the order listed; the fields after `skip` are
/// not sent and read back as their default. The list must name every field (the compiler checks).
macro_rules! wire_struct {
    ($ty:ty { $($f:ident),* $(,)? } $(skip { $($s:ident),* })?) => {
        impl $crate::wire::Wire for $ty {
            fn put(&self, out: &mut Vec<u8>) {
                let Self { $($f,)* $($($s: _,)*)? } = self;
                $($crate::wire::Wire::put($f, out);)*
            }

            fn take(r: &mut $crate::wire::Reader<'_>) -> Result<Self, $crate::wire::WireError> {
                Ok(Self {
                    $($f: $crate::wire::Wire::take(r)?,)*
                    $($($s: Default::default(),)*)?
                })
            }
        }
    };
}

/// An enum whose variants are listed in any order, each with its fields (named for a tuple
/// variant): a variant is written as its place in the list, then its fields. The list must name
/// every variant (the compiler checks).
macro_rules! wire_enum {
    (@take $t:ident, $r:ident) => {
        $crate::wire::Wire::take($r)?
    };
    ($ty:ty { $($v:ident $(( $($t:ident),* ))? $({ $($f:ident),* })?),* $(,)? }) => {
        impl $crate::wire::Wire for $ty {
            fn put(&self, out: &mut Vec<u8>) {
                #[allow(non_camel_case_types, clippy::enum_variant_names)]
                enum Tag { $($v),* }
                match self {
                    $(Self::$v $(( $($t),* ))? $({ $($f),* })? => {
                        out.push(Tag::$v as u8);
                        $($($crate::wire::Wire::put($t, out);)*)?
                        $($($crate::wire::Wire::put($f, out);)*)?
                    })*
                }
            }

            fn take(r: &mut $crate::wire::Reader<'_>) -> Result<Self, $crate::wire::WireError> {
                #[allow(non_camel_case_types, clippy::enum_variant_names)]
                enum Tag { $($v),* }
                let tag = r.byte()?;
                $(if tag == Tag::$v as u8 {
                    return Ok(Self::$v
                        $(( $($crate::wire::wire_enum!(@take $t, r)),* ))?
                        $({ $($f: $crate::wire::Wire::take(r)?),* })?);
                })*
                Err($crate::wire::WireError::BAD)
            }
        }
    };
}

pub(crate) use {wire_enum, wire_struct};

#[cfg(test)]
mod tests {
    use super::*;

    fn back<T: Wire>(value: &T) -> Result<T, WireError> {
        let mut out = Vec::new();
        value.put(&mut out);
        Reader::whole(&out)
    }

    #[test]
    fn integers_read_back_at_their_edges() {
        for n in [
            0,
            1,
            127,
            128,
            300,
            u64::from(u32::MAX),
            u64::MAX - 1,
            u64::MAX,
        ] {
            assert_eq!(back(&n), Ok(n));
        }
        for n in [0, -1, 1, 63, -64, 64, i64::MIN, i64::MAX] {
            assert_eq!(back(&n), Ok(n));
        }
        assert_eq!(back(&u32::MAX), Ok(u32::MAX));
        // a u64 read where a u32 is expected: too large, refused
        let mut out = Vec::new();
        put_varint(u64::from(u32::MAX) + 1, &mut out);
        assert_eq!(Reader::whole::<u32>(&out), Err(WireError::BAD));
    }

    #[test]
    fn a_varint_longer_than_64_bits_is_refused() {
        let eleven = [0x80u8; 10].iter().copied().chain([1]).collect::<Vec<_>>();
        assert_eq!(Reader::whole::<u64>(&eleven), Err(WireError::BAD));
        let mut top = vec![0xffu8; 9];
        top.push(0x02);
        assert_eq!(Reader::whole::<u64>(&top), Err(WireError::BAD));
    }

    #[test]
    fn floats_read_back_bit_for_bit() {
        for x in [
            0.0,
            -0.0,
            1.5,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
        ] {
            assert_eq!(back(&x).map(f64::to_bits), Ok(x.to_bits()));
        }
        assert!(back(&f64::NAN).is_ok_and(f64::is_nan));
    }

    #[test]
    fn texts_options_lists_and_durations_read_back() {
        let value = (
            vec![Some(String::from("ns-1/demo-0")), None, Some(String::new())],
            Duration::new(7, 999_999_999),
        );
        assert_eq!(back(&value), Ok(value.clone()));
        assert_eq!(back(&Box::new(true)), Ok(Box::new(true)));
        assert_eq!(back(&Rc::new(3u16)), Ok(Rc::new(3)));
    }

    #[test]
    fn a_kept_text_reads_back_as_the_one_copy() {
        let a = back(&"#d55e00").expect("read");
        let b = back(&"#d55e00").expect("read");
        assert!(std::ptr::eq(a, b));
    }

    #[test]
    fn bad_flags_text_and_trailing_bytes_are_refused() {
        assert_eq!(Reader::whole::<bool>(&[2]), Err(WireError::BAD));
        assert_eq!(Reader::whole::<Option<u8>>(&[2, 0]), Err(WireError::BAD));
        assert_eq!(
            Reader::whole::<String>(&[2, 0xff, 0xfe]),
            Err(WireError::TEXT)
        );
        assert_eq!(Reader::whole::<u8>(&[1, 2]), Err(WireError::TRAILING));
        assert_eq!(
            Reader::whole::<Duration>(&[0, 0xff, 0xff, 0xff, 0xff, 0x0f]),
            Err(WireError::BAD)
        );
    }

    #[test]
    fn a_list_longer_than_its_bytes_is_refused_before_room_is_reserved() {
        // 2^40 floats claimed, four bytes given
        let huge = [0x80u8, 0x80, 0x80, 0x80, 0x80, 0x20, 1, 2, 3, 4];
        assert_eq!(Reader::whole::<Vec<f64>>(&huge), Err(WireError::SHORT));
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    struct Sample {
        a: u64,
        b: String,
        kept: Option<u8>,
    }
    wire_struct!(Sample { b, a } skip { kept });

    #[derive(Clone, Debug, PartialEq)]
    enum Shape {
        Unit,
        Pair(u32, String),
        Named { x: f64, y: Option<bool> },
    }
    wire_enum!(Shape { Named { x, y }, Unit, Pair(n, s) });

    #[test]
    fn a_listed_struct_and_enum_read_back_and_skipped_fields_come_back_as_defaults() {
        let s = Sample {
            a: 9,
            b: "x".into(),
            kept: Some(4),
        };
        assert_eq!(
            back(&s),
            Ok(Sample {
                kept: None,
                ..s.clone()
            })
        );
        for shape in [
            Shape::Unit,
            Shape::Pair(3, "p".into()),
            Shape::Named {
                x: 1.5,
                y: Some(false),
            },
        ] {
            assert_eq!(back(&shape), Ok(shape.clone()));
        }
        // the variant's place in the list, not in the declaration
        let mut out = Vec::new();
        Shape::Unit.put(&mut out);
        assert_eq!(out, [1]);
        assert_eq!(Reader::whole::<Shape>(&[3]), Err(WireError::BAD));
    }
}
