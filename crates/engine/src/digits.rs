//! Numbers as zero-padded digits without the formatting machinery, for text written on every
//! event (a trace line's hash, a status write's timestamp, an issued uid read as text).

/// The digits of a number, right-aligned in a fixed buffer.
pub struct Digits {
    buf: [u8; 20],
    start: usize,
}

impl Digits {
    /// `n` in base `radix` (10 to 16, lowercase; any other is taken as the nearest), zero-padded
    /// to at least `width` digits (at most 20, the most a `u64` needs in base 10).
    #[inline]
    pub fn new(n: u64, width: usize, radix: u64) -> Digits {
        // Bases 10 and 16 (every caller's) are passed as constants into the inlined loop, so it
        // divides by a constant: a multiply or a shift instead of a division.
        match radix.clamp(10, 16) {
            10 => Digits::fill(n, width, 10),
            16 => Digits::fill(n, width, 16),
            other => Digits::fill(n, width, other),
        }
    }

    /// The digits of `n` in base `radix` (10 to 16), at least `width` of them.
    #[allow(
        clippy::inline_always,
        reason = "inlined into each caller, the base is a constant there and the division a multiply"
    )]
    #[inline(always)]
    fn fill(mut n: u64, width: usize, radix: u64) -> Digits {
        let width = width.clamp(1, 20);
        let mut buf = [b'0'; 20];
        let mut start = buf.len();
        while n > 0 || buf.len() - start < width {
            start -= 1;
            buf[start] = SYMBOLS[(n % radix) as usize];
            n /= radix;
        }
        Digits { buf, start }
    }

    /// The digits as ASCII bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    /// The digits as text.
    pub fn as_str(&self) -> &str {
        // every byte is an ASCII digit or letter
        std::str::from_utf8(self.as_bytes()).unwrap_or("")
    }

    /// Appends the digits to `out`, a character each (ASCII: no UTF-8 check of the whole).
    #[inline]
    pub fn push_to(&self, out: &mut String) {
        out.extend(self.as_bytes().iter().map(|&b| char::from(b)));
    }
}

/// The digit symbols, lowercase.
const SYMBOLS: &[u8; 16] = b"0123456789abcdef";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_padded_to_the_width_and_never_cut() {
        assert_eq!(Digits::new(7, 3, 10).as_str(), "007");
        assert_eq!(Digits::new(0, 0, 10).as_str(), "0");
        assert_eq!(Digits::new(12_345, 2, 10).as_str(), "12345");
        assert_eq!(Digits::new(0x12d, 8, 16).as_str(), "0000012d");
        assert_eq!(Digits::new(u64::MAX, 1, 10).as_str(), u64::MAX.to_string());
        assert_eq!(Digits::new(u64::MAX, 1, 16).as_str(), "ffffffffffffffff");
        assert_eq!(Digits::new(143, 3, 12).as_str(), "0bb");
    }

    #[test]
    fn pushed_digits_append_the_same_text_as_the_str() {
        let mut out = String::from("uid-");
        Digits::new(0xbeef, 6, 16).push_to(&mut out);
        assert_eq!(out, "uid-00beef");
    }
}
