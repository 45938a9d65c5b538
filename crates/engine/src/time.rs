//! Virtual time.
//!
//! The engine has no clock of its own: every instant is a [`SimTime`], a count of virtual
//! nanoseconds since the simulation started, and every duration is a [`std::time::Duration`].
//! Front ends decide how virtual time maps to wall time (as fast as possible in the CLI, paced by a
//! speed factor in the browser).

use std::fmt;
use std::ops::{Add, AddAssign, Sub};
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// An instant of virtual time: nanoseconds since the start of the simulation.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct SimTime(u64);

impl SimTime {
    /// The start of every simulation.
    pub const ZERO: SimTime = SimTime(0);
    /// The largest representable instant (about 584 years): used as "never".
    pub const MAX: SimTime = SimTime(u64::MAX);

    /// An instant `nanos` nanoseconds after the start.
    pub const fn from_nanos(nanos: u64) -> SimTime {
        SimTime(nanos)
    }

    /// An instant `millis` milliseconds after the start.
    pub const fn from_millis(millis: u64) -> SimTime {
        SimTime(millis.saturating_mul(1_000_000))
    }

    /// An instant `secs` seconds after the start; negative or non-finite input saturates to the range.
    pub fn from_secs_f64(secs: f64) -> SimTime {
        if secs.is_nan() || secs <= 0.0 {
            return SimTime::ZERO;
        }
        let nanos = secs * 1e9;
        if nanos >= u64::MAX as f64 {
            SimTime::MAX
        } else {
            SimTime(nanos as u64)
        }
    }

    /// Nanoseconds since the start.
    pub const fn as_nanos(self) -> u64 {
        self.0
    }

    /// Seconds since the start, as a float (for charts and reports).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e9
    }

    /// The time elapsed since `earlier`, or zero if `earlier` is later than `self`.
    pub fn saturating_since(self, earlier: SimTime) -> Duration {
        Duration::from_nanos(self.0.saturating_sub(earlier.0))
    }

    /// `self + d`, saturating at [`SimTime::MAX`].
    pub fn saturating_add(self, d: Duration) -> SimTime {
        SimTime(self.0.saturating_add(duration_nanos(d)))
    }
}

/// `d` in whole nanoseconds, saturating at `u64::MAX`: `u64::try_from(d.as_nanos())` without
/// the 128-bit product `as_nanos` forms (in WebAssembly a call to a software multiply, on every
/// event scheduled). Below [`MAX_WHOLE_SECS`] the seconds times 10⁹ fit in 64 bits; at it, adding
/// the sub-second nanoseconds may pass `u64::MAX` and saturates, as the conversion would fail.
pub fn duration_nanos(d: Duration) -> u64 {
    let secs = d.as_secs();
    if secs > MAX_WHOLE_SECS {
        return u64::MAX;
    }
    (secs * NANOS_PER_SEC).saturating_add(u64::from(d.subsec_nanos()))
}

/// `d.as_nanos() as f64` (the same rounding of the same count) without the 128-bit product
/// where the count fits in 64 bits.
pub fn duration_nanos_f64(d: Duration) -> f64 {
    if d.as_secs() < MAX_WHOLE_SECS {
        duration_nanos(d) as f64
    } else {
        d.as_nanos() as f64
    }
}

/// Nanoseconds in a second.
const NANOS_PER_SEC: u64 = 1_000_000_000;

/// The most whole seconds whose nanoseconds fit in a `u64` (about 584 years).
const MAX_WHOLE_SECS: u64 = u64::MAX / NANOS_PER_SEC;

impl Add<Duration> for SimTime {
    type Output = SimTime;

    /// Adds a duration; saturates at [`SimTime::MAX`] instead of overflowing.
    fn add(self, rhs: Duration) -> SimTime {
        self.saturating_add(rhs)
    }
}

impl AddAssign<Duration> for SimTime {
    fn add_assign(&mut self, rhs: Duration) {
        *self = *self + rhs;
    }
}

impl Sub for SimTime {
    type Output = Duration;

    /// The duration between two instants, zero if `rhs` is later.
    fn sub(self, rhs: SimTime) -> Duration {
        self.saturating_since(rhs)
    }
}

/// `cost_per_kib.mul_f64(bytes as f64 / 1024.0)`: the cost of handling `bytes` at a cost per
/// KiB. Objects of one run mostly have one size, so the informer's pops and the cache reads ask
/// the same product again and again: the last few are kept ([`kept_product`]).
pub fn per_kib(cost_per_kib: Duration, bytes: u64) -> Duration {
    PER_KIB.with(|kept| {
        kept_product(kept, cost_per_kib, bytes, || {
            cost_per_kib.mul_f64(bytes as f64 / 1024.0)
        })
    })
}

/// `d.mul_f64(factor)`. A factor of exactly 1 (the CPU not stretched by the GC: nearly every
/// step's cost) gives `d` itself without the float round trip: `Duration::from_secs_f64` rounds
/// to the nearest nanosecond, and below 2^20 s a duration's `as_secs_f64` lies within a quarter
/// nanosecond of it, so the round trip gives back `d` exactly (a test checks it); at or above
/// that, the round trip is taken as before. While the GC marks, its share of the CPU (so the
/// factor) stays the same, and the operator stretches the same few costs over and over (a
/// handler's run, an informer pop, a step's wait): the last few products are kept
/// ([`kept_product`]).
#[allow(
    clippy::float_cmp,
    reason = "only a factor of exactly one may skip the multiply"
)]
pub fn scale(d: Duration, factor: f64) -> Duration {
    if factor == 1.0 && d.as_secs() < 1 << 20 {
        return d;
    }
    STRETCHED.with(|kept| kept_product(kept, d, factor.to_bits(), || d.mul_f64(factor)))
}

/// How many products [`kept_product`] keeps for one use.
const KEPT_PRODUCTS: usize = 4;

/// Products kept for one use: a duration, the other operand (its bits) and their product,
/// the newest first.
type Kept = [std::cell::Cell<(Duration, u64, Duration)>; KEPT_PRODUCTS];

/// `Kept` before any product: the zero duration times an operand of bits 0 (0 bytes, a factor
/// of +0.0) is the zero duration, as the products would have it.
const fn no_products() -> Kept {
    [const { std::cell::Cell::new((Duration::ZERO, 0, Duration::ZERO)) }; KEPT_PRODUCTS]
}

thread_local! {
    /// [`per_kib`]'s last products.
    static PER_KIB: Kept = const { no_products() };
    /// [`scale`]'s last products.
    static STRETCHED: Kept = const { no_products() };
}

/// The product of `d` and the operand whose bits are `operand`: a kept one, else `product()`'s,
/// which is then kept in place of the oldest. A kept answer is the float product itself, not an
/// approximation of it, so nothing computed with it changes; the engine is single-threaded, here
/// and in wasm, and the products are kept per thread.
fn kept_product(
    kept: &Kept,
    d: Duration,
    operand: u64,
    product: impl FnOnce() -> Duration,
) -> Duration {
    for slot in kept {
        let (cost, bits, answer) = slot.get();
        if cost == d && bits == operand {
            return answer;
        }
    }
    let answer = product();
    for i in (1..KEPT_PRODUCTS).rev() {
        kept[i].set(kept[i - 1].get());
    }
    kept[0].set((d, operand, answer));
    answer
}

impl fmt::Display for SimTime {
    /// Seconds with millisecond precision, e.g. `12.345s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let millis = self.0 / 1_000_000;
        write!(f, "{}.{:03}s", millis / 1000, millis % 1000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_duration_in_nanoseconds_is_its_128_bit_count_or_saturates_where_that_does_not_fit() {
        let edge = MAX_WHOLE_SECS;
        let durations = [
            Duration::ZERO,
            Duration::from_nanos(1),
            Duration::new(1, 999_999_999),
            Duration::new(edge - 1, 999_999_999),
            Duration::new(edge, 0),
            Duration::new(edge, 709_551_615),
            Duration::new(edge, 709_551_616),
            Duration::new(edge, 999_999_999),
            Duration::new(edge + 1, 0),
            Duration::MAX,
        ];
        for d in durations {
            let want = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
            assert_eq!(duration_nanos(d), want, "{d:?}");
            assert_eq!(duration_nanos_f64(d), d.as_nanos() as f64, "{d:?}");
        }
        assert_eq!(SimTime::from_nanos(5) + Duration::MAX, SimTime::MAX);
    }

    #[test]
    fn a_per_kib_cost_is_the_float_product_whether_asked_anew_or_again() {
        let costs = [
            Duration::from_micros(7),
            Duration::from_nanos(333),
            Duration::ZERO,
        ];
        for round in 0..2 {
            for cost in costs {
                for bytes in [0, 1, 1023, 1024, 4096, 150_000, 1 << 40] {
                    let want = cost.mul_f64(bytes as f64 / 1024.0);
                    // asked twice in a row: the second answer is the kept one
                    assert_eq!(per_kib(cost, bytes), want, "round {round}");
                    assert_eq!(per_kib(cost, bytes), want, "round {round}, kept");
                }
            }
        }
    }

    #[test]
    fn adding_a_duration_moves_time_forward_by_exactly_that_many_nanoseconds() {
        let t = SimTime::from_millis(1500) + Duration::from_micros(250);
        assert_eq!(t.as_nanos(), 1_500_250_000);
        assert!((t.as_secs_f64() - 1.50025).abs() < 1e-12);
    }

    #[test]
    fn time_arithmetic_saturates_instead_of_overflowing() {
        assert_eq!(SimTime::MAX + Duration::from_secs(1), SimTime::MAX);
        assert_eq!(SimTime::ZERO - SimTime::from_millis(5), Duration::ZERO);
        assert_eq!(SimTime::from_secs_f64(-3.0), SimTime::ZERO);
        assert_eq!(SimTime::from_secs_f64(f64::INFINITY), SimTime::MAX);
    }

    #[test]
    fn scaling_by_one_is_the_float_round_trip_it_skips() {
        // every 7919th nanosecond of seconds across the range kept, and the range's edge
        for secs in [0, 1, 59, 3_600, 86_400, (1 << 20) - 1] {
            for nanos in (0..1_000_000_000).step_by(7_919).chain([999_999_999]) {
                let d = Duration::new(secs, nanos);
                assert_eq!(scale(d, 1.0), d.mul_f64(1.0), "{d:?}");
            }
        }
        let big = Duration::from_secs(1 << 30);
        assert_eq!(scale(big, 1.0), big.mul_f64(1.0));
        let d = Duration::from_micros(1_250);
        assert_eq!(scale(d, 1.5), d.mul_f64(1.5));
    }

    #[test]
    fn a_stretched_cost_is_the_float_product_whether_asked_anew_or_again() {
        let costs = [
            Duration::from_micros(184),
            Duration::from_millis(20),
            Duration::from_micros(45),
            Duration::ZERO,
            Duration::from_nanos(1),
            Duration::from_secs(3_000_000),
        ];
        let factors = [1.25, 4.0 / 3.0, 1.0, 2.0, 0.0, 1.000_000_1];
        // more costs and factors than are kept, interleaved and repeated
        for round in 0..3 {
            for (i, factor) in factors.iter().enumerate() {
                for (j, cost) in costs.iter().enumerate() {
                    let d = costs[(i + j + round) % costs.len()];
                    assert_eq!(scale(d, *factor), d.mul_f64(*factor), "{d:?} × {factor}");
                    assert_eq!(scale(*cost, *factor), cost.mul_f64(*factor));
                }
            }
        }
    }

    #[test]
    fn display_prints_seconds_with_millisecond_precision() {
        assert_eq!(SimTime::from_millis(12_345).to_string(), "12.345s");
        assert_eq!(SimTime::ZERO.to_string(), "0.000s");
    }
}
