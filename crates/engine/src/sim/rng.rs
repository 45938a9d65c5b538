//! The one random source of a simulation.
//!
//! Every random choice in the engine (reflector backoff jitter, watch timeouts, failure injection, …)
//! draws from a single [`Rng`] seeded from the scenario, so the same seed always gives the same run.
//! The generator is xoshiro256** seeded through SplitMix64: small, fast, identical on every target,
//! and its whole state is four integers that serialize.

use serde::{Deserialize, Serialize};

/// A seeded pseudo-random generator (xoshiro256**) with serializable state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator whose whole future is determined by `seed`.
    pub fn seeded(seed: u64) -> Rng {
        let mut sm = seed;
        let mut next = || {
            sm = sm.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = sm;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        Rng {
            s: [next(), next(), next(), next()],
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A float uniformly drawn from `[0, 1)`, like Go's `rand.Float64`.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// An integer uniformly drawn from `[0, bound)`; `bound == 0` returns 0.
    pub fn below(&mut self, bound: u64) -> u64 {
        if bound == 0 {
            return 0;
        }
        // Lemire's multiply-shift (the high word of the product); the tiny bias is irrelevant
        // for a simulation.
        super::wide::wide_product(self.next_u64(), bound).1
    }

    /// `true` with probability `p` (clamped to `[0, 1]`).
    pub fn chance(&mut self, p: f64) -> bool {
        self.next_f64() < p.clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_sequence() {
        let mut a = Rng::seeded(42);
        let mut b = Rng::seeded(42);
        let xs: Vec<u64> = (0..100).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..100).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
    }

    #[test]
    fn different_seeds_give_different_sequences() {
        let mut a = Rng::seeded(1);
        let mut b = Rng::seeded(2);
        assert_ne!(a.next_u64(), b.next_u64());
    }

    #[test]
    fn floats_stay_in_the_unit_interval_and_cover_it() {
        let mut r = Rng::seeded(7);
        let xs: Vec<f64> = (0..10_000).map(|_| r.next_f64()).collect();
        assert!(xs.iter().all(|x| (0.0..1.0).contains(x)));
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        assert!((mean - 0.5).abs() < 0.02, "mean {mean}");
    }

    #[test]
    fn below_never_reaches_its_bound() {
        let mut r = Rng::seeded(9);
        assert!((0..10_000).all(|_| r.below(7) < 7));
        assert_eq!(r.below(0), 0);
    }

    #[test]
    fn a_restored_state_continues_the_same_sequence() {
        let mut r = Rng::seeded(3);
        r.next_u64();
        let json = serde_json::to_string(&r).expect("rng state serializes");
        let mut restored: Rng = serde_json::from_str(&json).expect("rng state deserializes");
        assert_eq!(r.next_u64(), restored.next_u64());
    }
}
