//! JSON text read into a [`Raw`]: what `--set` accepts as JSON
//! (RFC 8259: whitespace around tokens, `\uXXXX` escapes with surrogate pairs, no trailing comma),
//! with the number rules of `serde_json` (a whole number is `U64` when at least 0, `I64` when
//! negative, `F64` otherwise and for `-0`; a number out of `f64`'s range is not JSON) and its
//! nesting limit (127 levels). A text that is not one JSON value is `None`.
//!
//! Deviation: a number with a fraction or an exponent is read correctly rounded (Rust's
//! `str::parse`, as `--set`'s TOML reads it); `serde_json` without its `float_roundtrip` feature
//! may land one unit in the last place away (`11e23` reads as `1.0999999999999999e24` there), so
//! the tests compare with `serde_json` read with that feature on.

use super::raw::Raw;

/// `serde_json`'s recursion limit: lists and objects nest fewer than this many deep.
const MAX_DEPTH: usize = 128;

/// `text` as one JSON value, or `None` when it is not exactly one.
pub fn parse(text: &str) -> Option<Raw> {
    let mut p = Parser {
        bytes: text.as_bytes(),
        at: 0,
        depth: 0,
    };
    p.skip_space();
    let v = p.value()?;
    p.skip_space();
    (p.at == p.bytes.len()).then_some(v)
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, word: &[u8]) -> bool {
        let found = self.bytes[self.at..].starts_with(word);
        if found {
            self.at += word.len();
        }
        found
    }

    fn value(&mut self) -> Option<Raw> {
        match self.peek()? {
            b'n' => self.eat(b"null").then_some(Raw::Null),
            b't' => self.eat(b"true").then_some(Raw::Bool(true)),
            b'f' => self.eat(b"false").then_some(Raw::Bool(false)),
            b'"' => self.string().map(Raw::Str),
            b'[' => self.nested(Parser::list),
            b'{' => self.nested(Parser::object),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    /// A list or an object, one level deeper.
    fn nested(&mut self, read: fn(&mut Self) -> Option<Raw>) -> Option<Raw> {
        self.depth += 1;
        if self.depth >= MAX_DEPTH {
            return None;
        }
        let v = read(self);
        self.depth -= 1;
        v
    }

    fn list(&mut self) -> Option<Raw> {
        self.at += 1;
        let mut items = Vec::new();
        self.skip_space();
        if self.eat(b"]") {
            return Some(Raw::Seq(items));
        }
        loop {
            self.skip_space();
            items.push(self.value()?);
            self.skip_space();
            if self.eat(b"]") {
                return Some(Raw::Seq(items));
            }
            if !self.eat(b",") {
                return None;
            }
        }
    }

    /// An object's members in name order, a name given twice holding its last value.
    fn object(&mut self) -> Option<Raw> {
        self.at += 1;
        let mut members: Vec<(String, Raw)> = Vec::new();
        self.skip_space();
        if self.eat(b"}") {
            return Some(Raw::Map(members));
        }
        loop {
            self.skip_space();
            if self.peek() != Some(b'"') {
                return None;
            }
            let name = self.string()?;
            self.skip_space();
            if !self.eat(b":") {
                return None;
            }
            self.skip_space();
            let value = self.value()?;
            match members.binary_search_by(|(n, _)| n.as_str().cmp(&name)) {
                Ok(i) => members[i].1 = value,
                Err(i) => members.insert(i, (name, value)),
            }
            self.skip_space();
            if self.eat(b"}") {
                return Some(Raw::Map(members));
            }
            if !self.eat(b",") {
                return None;
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        self.at - start
    }

    fn number(&mut self) -> Option<Raw> {
        let start = self.at;
        let negative = self.eat(b"-");
        let int_start = self.at;
        let int_digits = self.digits();
        if int_digits == 0 || (int_digits > 1 && self.bytes[int_start] == b'0') {
            return None;
        }
        let mut whole = true;
        if self.eat(b".") {
            whole = false;
            if self.digits() == 0 {
                return None;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            whole = false;
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return None;
            }
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).ok()?;
        if whole {
            let magnitude = std::str::from_utf8(&self.bytes[int_start..self.at]).ok()?;
            match (negative, magnitude.parse::<u64>()) {
                (false, Ok(n)) => return Some(Raw::U64(n)),
                (true, Ok(n)) if n > 0 && n <= 1 << 63 => {
                    return Some(Raw::I64(0i64.wrapping_sub_unsigned(n)))
                }
                _ => {}
            }
        }
        let v: f64 = text.parse().ok()?;
        v.is_finite().then_some(Raw::F64(v))
    }

    /// A string in quotes, its escapes decoded; `None` at a raw control character, a bad escape
    /// or a lone surrogate.
    fn string(&mut self) -> Option<String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let start = self.at;
            while matches!(self.peek(), Some(b) if b != b'"' && b != b'\\' && b >= 0x20) {
                self.at += 1;
            }
            out.push_str(std::str::from_utf8(&self.bytes[start..self.at]).ok()?);
            match self.peek()? {
                b'"' => {
                    self.at += 1;
                    return Some(out);
                }
                b'\\' => {
                    self.at += 1;
                    out.push(self.escape()?);
                }
                _ => return None,
            }
        }
    }

    fn escape(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        Some(match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return self.unicode(),
            _ => return None,
        })
    }

    fn hex4(&mut self) -> Option<u32> {
        let text = std::str::from_utf8(self.bytes.get(self.at..self.at + 4)?).ok()?;
        if !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.at += 4;
        u32::from_str_radix(text, 16).ok()
    }

    /// The character of a `\uXXXX` escape (its `\u` read), a surrogate pair joined.
    fn unicode(&mut self) -> Option<char> {
        let first = self.hex4()?;
        if !(0xD800..0xDC00).contains(&first) {
            return char::from_u32(first);
        }
        if !self.eat(b"\\u") {
            return None;
        }
        let second = self.hex4()?;
        if !(0xDC00..0xE000).contains(&second) {
            return None;
        }
        char::from_u32(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
    }
}
