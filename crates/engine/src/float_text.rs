//! Floats as text, written as the standard library writes them but without its float formatting
//! machinery (Grisu and Dragon4, their bignums and tables, about 9 KB of the page's module
//! gzipped): [`Shortest`] is `{x}` (the fewest digits that read back as the same float, as plain
//! decimals), [`Sci`] is `{x:e}`, [`Fixed`] is `{x:.N}` (the exact binary value rounded to `N`
//! places, a tie to the even digit). Every float the engine and the page write goes through
//! them: one `{x}` of an `f64` anywhere in the page's code brings the whole machinery back.
//!
//! The shortest digits come from `zmij` (which `serde_json`'s writer brings into the module
//! anyway). Where two shortest forms lie equally near the value (`1658206780088562.25`), zmij
//! takes the smaller and the standard library the larger; `shortest_digits` takes the larger.
//! The fixed places come from integer arithmetic in a `u128`.
//!
//! One deviation: a value of magnitude 2^128 (about 3.4 × 10^38) or more, which nothing the
//! engine or the page measures comes near, is written by [`Fixed`] as its shortest digits and
//! the places' zeros, not as its exact expansion. Every other value is written byte for byte as
//! the standard library writes it, in every padding form (`{:>8}`, `{:08}`, `{:+}`); the tests
//! compare the two on random values of every magnitude.

use std::fmt::{self, Write as _};

/// The most places [`Fixed`] writes; more are written as this many.
pub const MAX_PLACES: usize = 18;

/// `self.0` with `self.1` digits after the point, as `{x:.N}` writes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fixed(pub f64, pub usize);

/// `self.0` in the fewest digits that read back as the same float, as `{x}` writes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shortest(pub f64);

/// `self.0` in the fewest digits that read back as the same float, in exponent form, as `{x:e}`
/// writes it (`1.5e3`, `1e-7`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sci(pub f64);

/// `value` with `places` digits after the point, as `format!("{value:.places$}")` writes it.
pub fn fixed(value: f64, places: usize) -> String {
    Fixed(value, places).to_string()
}

/// `value` as `value.to_string()` writes it.
pub fn shortest(value: f64) -> String {
    Shortest(value).to_string()
}

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let places = self.1.min(MAX_PLACES);
        pad(self.0, f, |out, v| write_fixed(out, v, places))
    }
}

impl fmt::Display for Shortest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        pad(self.0, f, write_shortest)
    }
}

impl fmt::Display for Sci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        pad(self.0, f, write_sci)
    }
}

/// Writes `value` as a number is padded (width, fill, zeros after the sign, `+`): its magnitude as
/// `write` writes it, after its sign; NaN and the infinities as the standard library writes them.
fn pad(
    value: f64,
    f: &mut fmt::Formatter<'_>,
    write: impl FnOnce(&mut String, f64),
) -> fmt::Result {
    if !value.is_finite() {
        return non_finite(value, f);
    }
    let mut text = String::new();
    write(&mut text, value.abs());
    f.pad_integral(value.is_sign_positive(), "", &text)
}

/// NaN and the infinities, padded as the standard library pads them.
fn non_finite(value: f64, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if !value.is_nan() {
        return f.pad_integral(value > 0.0, "", "inf");
    }
    if !f.sign_plus() {
        return f.pad_integral(true, "", "NaN");
    }
    // NaN takes no sign, where `pad_integral` would write `+NaN` for `{:+}`
    let pad = f.width().unwrap_or(0).saturating_sub(3);
    if f.sign_aware_zero_pad() {
        return write!(f, "{}NaN", "0".repeat(pad));
    }
    let (before, after) = match f.align() {
        Some(fmt::Alignment::Left) => (0, pad),
        Some(fmt::Alignment::Center) => (pad / 2, pad - pad / 2),
        _ => (pad, 0),
    };
    let fill = f.fill();
    let side = |n: usize| std::iter::repeat_n(fill, n).collect::<String>();
    write!(f, "{}NaN{}", side(before), side(after))
}

/// The shortest digits of the finite, non-negative `value` in exponent form (`1.5e3`).
fn write_sci(out: &mut String, value: f64) {
    let (digits, exponent) = shortest_digits(value);
    let text = digits.to_string();
    let (first, rest) = text.split_at(1);
    let power = exponent + i32::try_from(rest.len()).unwrap_or(0);
    let point = if rest.is_empty() { "" } else { "." };
    let _ = write!(out, "{first}{point}{rest}e{power}");
}

/// The shortest digits of the finite, non-negative `value` as plain decimals.
fn write_shortest(out: &mut String, value: f64) {
    let (digits, exponent) = shortest_digits(value);
    let text = digits.to_string();
    // the value is 0.<text> × 10^point
    let point = i32::try_from(text.len()).unwrap_or(0) + exponent;
    if digits == 0 {
        out.push('0');
    } else if point <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', point.unsigned_abs() as usize));
        out.push_str(&text);
    } else {
        let point = point.unsigned_abs() as usize;
        if point >= text.len() {
            out.push_str(&text);
            out.extend(std::iter::repeat_n('0', point - text.len()));
        } else {
            out.push_str(&text[..point]);
            out.push('.');
            out.push_str(&text[point..]);
        }
    }
}

/// The fewest digits that read back as the finite, non-negative `value`, as
/// `digits × 10^exponent` (`digits` without trailing zeros), as the standard library picks them.
fn shortest_digits(value: f64) -> (u64, i32) {
    let mut buffer = zmij::Buffer::new();
    let (mut digits, mut exponent) = significand(buffer.format_finite(value));
    if is_tie_above(value, digits, exponent) {
        // where two shortest forms are equally near, the standard library takes the larger
        digits += 1;
        while digits % 10 == 0 {
            digits /= 10;
            exponent += 1;
        }
    }
    (digits, exponent)
}

/// A number's text (`1.25e-7`, `120.0`, `0.001`) as `digits × 10^exponent`, `digits` without
/// trailing zeros (0 for zero).
fn significand(text: &str) -> (u64, i32) {
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (text, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits = whole
        .bytes()
        .chain(fraction.bytes())
        .filter(u8::is_ascii_digit)
        .fold(0u64, |n, b| n * 10 + u64::from(b - b'0'));
    if digits == 0 {
        return (0, 0);
    }
    let mut exponent = exponent - i32::try_from(fraction.len()).unwrap_or(0);
    while digits % 10 == 0 {
        digits /= 10;
        exponent += 1;
    }
    (digits, exponent)
}

/// Whether `value` lies exactly halfway between `digits × 10^exponent` and the next number of as
/// many digits above it: `2 · value = (2 · digits + 1) · 10^exponent`. With `value = m · 2^e`
/// that is `m · 2^(e + 1 − exponent) · 5^(−exponent) = 2 · digits + 1`, an odd number.
fn is_tie_above(value: f64, digits: u64, exponent: i32) -> bool {
    let (mantissa, e) = parts(value);
    let odd = 2 * u128::from(digits) + 1;
    let twos = e + 1 - exponent;
    if twos > 0 || mantissa == 0 {
        return false; // an even left side, or zero
    }
    let shift = twos.unsigned_abs();
    if shift >= 64 || mantissa.trailing_zeros() < shift {
        return false; // m · 2^twos is no integer
    }
    let m = u128::from(mantissa >> shift);
    let fives = exponent.unsigned_abs();
    if exponent <= 0 {
        // m · 5^fives = odd, with odd < 2^58: 5^fives at most that
        fives <= 25 && m * 5u128.pow(fives) == odd
    } else {
        // m = odd · 5^fives, with m < 2^53
        fives <= 23 && odd * 5u128.pow(fives) == m
    }
}

/// Writes the finite, non-negative `value` with `places` places.
fn write_fixed(out: &mut String, value: f64, places: usize) {
    let (mantissa, exponent) = parts(value);
    if exponent >= 0 {
        // a whole number: its digits, then the places' zeros
        let shift = exponent.unsigned_abs();
        match u128::from(mantissa).checked_shl(shift) {
            Some(whole) if whole >> shift == u128::from(mantissa) => {
                out.push_str(&whole.to_string());
            }
            // 2^128 or more: the shortest digits (the one deviation, above)
            _ => write_shortest(out, value),
        }
        push_point_and_zeros(out, places);
        return;
    }
    let scale = 10u128.pow(u32::try_from(places).unwrap_or(0));
    // m · 10^places < 2^53 · 10^18 < 2^113: exact in a u128
    let scaled = round_shift(u128::from(mantissa) * scale, exponent.unsigned_abs());
    out.push_str(&(scaled / scale).to_string());
    if places > 0 {
        out.push('.');
        let digits = (scaled % scale).to_string();
        out.extend(std::iter::repeat_n('0', places - digits.len()));
        out.push_str(&digits);
    }
}

/// `value` as `mantissa · 2^exponent` (the mantissa with its implicit bit).
fn parts(value: f64) -> (u64, i32) {
    let bits = value.to_bits();
    let biased = i32::try_from((bits >> 52) & 0x7ff).unwrap_or(0);
    let fraction = bits & ((1 << 52) - 1);
    if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    }
}

/// `n / 2^shift`, rounded to the nearest integer, a tie to the even one.
fn round_shift(n: u128, shift: u32) -> u128 {
    if shift >= 128 {
        // n < 2^113 ≤ 2^(shift - 1): below one half
        return 0;
    }
    let quotient = n >> shift;
    let remainder = n - (quotient << shift);
    let half = 1u128 << (shift - 1);
    if remainder > half || (remainder == half && quotient & 1 == 1) {
        quotient + 1
    } else {
        quotient
    }
}

fn push_point_and_zeros(out: &mut String, places: usize) {
    if places > 0 {
        out.push('.');
        out.extend(std::iter::repeat_n('0', places));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the standard library writes for `{x}` or `{x:.places}`, in each padding form.
    fn std_forms(x: f64, places: Option<usize>) -> [String; 7] {
        match places {
            None => [
                format!("{x}"),
                format!("{x:>12}"),
                format!("{x:012}"),
                format!("{x:+}"),
                format!("{x:<12}"),
                format!("{x:*^12}"),
                format!("{x:+08}"),
            ],
            Some(p) => [
                format!("{x:.p$}"),
                format!("{x:>12.p$}"),
                format!("{x:012.p$}"),
                format!("{x:+.p$}"),
                format!("{x:<12.p$}"),
                format!("{x:*^12.p$}"),
                format!("{x:+08.p$}"),
            ],
        }
    }

    fn our_forms(v: impl fmt::Display) -> [String; 7] {
        [
            format!("{v}"),
            format!("{v:>12}"),
            format!("{v:012}"),
            format!("{v:+}"),
            format!("{v:<12}"),
            format!("{v:*^12}"),
            format!("{v:+08}"),
        ]
    }

    fn same_as_std(x: f64) {
        assert_eq!(our_forms(Shortest(x)), std_forms(x, None), "{x:e}");
        for places in 0..=6 {
            let want = std_forms(x, Some(places));
            assert_eq!(our_forms(Fixed(x, places)), want, "{x:e} to {places}");
        }
    }

    /// Whether the standard library writes `x` exactly with `{x:.N}` (below 2^128).
    fn exact_range(x: f64) -> bool {
        !x.is_finite() || x.abs() < 2f64.powi(128)
    }

    #[test]
    fn ties_round_to_the_even_digit_as_the_standard_library_rounds_them() {
        for x in [
            0.5, 1.5, 2.5, 0.25, 0.125, 0.375, 2.675, 1.005, 0.045, 1e-7, 5e-324,
        ] {
            same_as_std(x);
            same_as_std(-x);
        }
        assert_eq!(fixed(2.5, 0), "2");
        assert_eq!(fixed(0.125, 2), "0.12");
        assert_eq!(fixed(0.375, 2), "0.38");
    }

    #[test]
    fn zeros_signs_and_the_values_that_are_not_numbers_are_written_as_the_standard_library_writes_them(
    ) {
        for x in [0.0, -0.0, -0.04, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            same_as_std(x);
        }
        assert_eq!(shortest(-0.0), "-0");
        assert_eq!(shortest(1.0), "1");
    }

    #[test]
    fn exponent_forms_are_written_as_the_standard_library_writes_them() {
        for x in [
            0.0,
            -0.0,
            1.0,
            1500.0,
            1e-300,
            1.5e30,
            -2.5e-7,
            5e-324,
            f64::NAN,
            f64::INFINITY,
        ] {
            assert_eq!(Sci(x).to_string(), format!("{x:e}"));
            assert_eq!(format!("{:>12}", Sci(x)), format!("{x:>12e}"));
        }
        let mut rng = crate::sim::Rng::seeded(11);
        for _ in 0..100_000 {
            let x = f64::from_bits(rng.next_u64());
            assert_eq!(Sci(x).to_string(), format!("{x:e}"));
        }
    }

    #[test]
    fn where_two_shortest_forms_are_equally_near_the_larger_is_written() {
        // 1658206780088562.25 lies halfway between …562.2 and …562.3
        assert_eq!(shortest(1_658_206_780_088_562.2), "1658206780088562.3");
        assert_eq!(shortest(-1_658_206_780_088_562.2), "-1658206780088562.3");
        let mut rng = crate::sim::Rng::seeded(3);
        for _ in 0..200_000 {
            let x = rng.next_f64() * 2f64.powi(50) + 2f64.powi(50);
            assert_eq!(shortest(x), format!("{x}"));
        }
    }

    #[test]
    fn the_shortest_digits_are_plain_decimals_at_every_magnitude() {
        for x in [
            1e-7,
            1.5e-300,
            5e-324,
            1e15,
            1e16,
            1e20,
            1.7976931348623157e308,
            0.1,
            0.3,
        ] {
            assert_eq!(shortest(x), format!("{x}"));
            assert_eq!(shortest(-x), format!("{}", -x));
        }
        assert_eq!(shortest(1e20), "100000000000000000000");
        assert_eq!(shortest(1e-7), "0.0000001");
    }

    #[test]
    fn whole_numbers_below_2_to_the_128_are_exact_and_larger_ones_keep_their_shortest_digits() {
        for x in [1.0, 1e15, 9_007_199_254_740_993.0, 1.8e19, 3.4e38] {
            same_as_std(x);
        }
        assert_eq!(fixed(1e300, 1), format!("{}.0", 1e300));
    }

    #[test]
    fn random_values_of_every_magnitude_are_written_as_the_standard_library_writes_them() {
        let mut rng = crate::sim::Rng::seeded(7);
        for _ in 0..300_000 {
            let bits = rng.next_u64();
            let x = f64::from_bits(bits);
            assert_eq!(shortest(x), format!("{x}"), "{bits:#x}");
            if exact_range(x) {
                let places = usize::try_from(bits % 7).unwrap_or(0);
                assert_eq!(fixed(x, places), format!("{x:.places$}"), "{bits:#x}");
            }
        }
        for _ in 0..100_000 {
            // the page's range: seconds, rates, sizes
            let exponent = i32::try_from(rng.next_u64() % 12).unwrap_or(0);
            same_as_std(rng.next_f64() * 10f64.powi(exponent));
        }
    }
}
