//! Powers of ten for the charts' axes and the speed slider, without the C library's `pow`: a
//! whole power is one of the powers a double holds exactly, or one over it, and a fractional one
//! is `eˣ` of `x · ln 10`. With no `powf` left in the page, `pow`'s code is not in the module.

/// The powers of ten a double holds exactly: 10⁰ to 10²² (5²² < 2⁵³).
const EXACT: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `10ⁿ`: for `|n| ≤ 22` the exact power or its correctly rounded reciprocal (what
/// `10f64.powf(n)` gives), beyond that by repeated multiplication (within a few units in the last
/// place; no axis reaches it).
pub fn pow10(n: i32) -> f64 {
    let exact = usize::try_from(n.unsigned_abs())
        .ok()
        .and_then(|k| EXACT.get(k));
    match exact {
        Some(&p) if n >= 0 => p,
        Some(&p) => 1.0 / p,
        None => 10f64.powi(n),
    }
}

/// `10ˣ` for a fractional `x`, as `eˣ ˡⁿ ¹⁰`: the product's rounding is magnified by the
/// exponential, so the result is within `(|x| ln 10 + 2)` units of the last place of
/// `10f64.powf(x)` (ten at most for the speed slider's `x` in −1…4, whose speeds are then rounded
/// to two significant digits).
pub fn pow10_f(x: f64) -> f64 {
    (x * std::f64::consts::LN_10).exp()
}

/// `⌊log₁₀ x⌋` for a positive finite `x`, as a whole exponent for [`pow10`].
pub fn decade(x: f64) -> i32 {
    // a double's log₁₀ lies within ±324, so the conversion is exact
    x.log10().floor() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_powers_equal_what_powf_gives_across_the_exact_range() {
        for n in -22..=22 {
            assert_eq!(pow10(n), 10f64.powf(f64::from(n)), "10^{n}");
        }
    }

    #[test]
    fn powers_beyond_the_exact_range_stay_close_and_reach_the_limits() {
        for n in [-300, -60, -23, 23, 60, 300] {
            let want = 10f64.powf(f64::from(n));
            assert!(
                ((pow10(n) - want) / want).abs() < 1e-14,
                "10^{n}: {} against {want}",
                pow10(n)
            );
        }
        assert_eq!(pow10(400), f64::INFINITY);
        assert_eq!(pow10(-400), 0.0);
    }

    #[test]
    fn fractional_powers_are_as_close_to_powf_as_the_product_allows() {
        for i in -400..=400 {
            let x = f64::from(i) / 100.0;
            let (got, want) = (pow10_f(x), 10f64.powf(x));
            let ulps = x.abs() * std::f64::consts::LN_10 + 2.0;
            assert!(
                (got - want).abs() <= ulps * f64::EPSILON * want,
                "10^{x}: {got} against {want}"
            );
        }
    }

    #[test]
    fn the_decade_is_the_whole_part_of_the_log() {
        assert_eq!(decade(1.0), 0);
        assert_eq!(decade(999.9), 2);
        assert_eq!(decade(1000.0), 3);
        assert_eq!(decade(0.05), -2);
    }
}
