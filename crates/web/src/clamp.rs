//! `f64::clamp` for bounds known only at run time. The standard library's asserts that the
//! bounds are in order, and its panic message formats both of them as floats: that message alone
//! would keep the float formatting machinery in the module (`flywheel_engine::float_text` writes
//! every float the page shows without it).

/// `v` within `[lo, hi]`, as `v.clamp(lo, hi)`; NaN stays NaN. Bounds out of order do not panic:
/// a value below `lo` gives `lo`, else one above `hi` gives `hi`.
pub fn clamp(v: f64, lo: f64, hi: f64) -> f64 {
    if v < lo {
        lo
    } else if v > hi {
        hi
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_held_within_its_bounds_as_the_standard_clamp_holds_it() {
        for (v, lo, hi) in [
            (5.0, 0.0, 1.0),
            (-5.0, 0.0, 1.0),
            (0.5, 0.0, 1.0),
            (1.0, 1.0, 1.0),
        ] {
            assert_eq!(clamp(v, lo, hi), v.clamp(lo, hi));
        }
        assert!(clamp(f64::NAN, 0.0, 1.0).is_nan());
        assert_eq!(
            clamp(-0.0, 0.0, 1.0).to_bits(),
            (-0.0f64).clamp(0.0, 1.0).to_bits()
        );
    }
}
