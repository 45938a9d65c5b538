//! The operator's Go process and its pod: how memory climbs to the limit, the container is
//! OOMKilled, and the kubelet restarts it with CrashLoopBackOff.
//!
//! ```text
//!  informer / FIFO / workqueue / reconciles
//!        │ alloc(owner, bytes), free(owner, bytes)
//!        ▼
//!  GoProcess ── Heap (live by owner + garbage) ── GcPacer (GOGC, GOMEMLIMIT, CPU limiter)
//!        │ rss_bytes()                                        │ gc_cpu_fraction(now)
//!        ▼                                                    ▼
//!  Pod::check_oom(rss, now) ── OOMKilled (137) ──▶ CrashLoopBackOff ──▶ restart: a new GoProcess
//! ```
//!
//! - [`heap`]: live bytes by [`HeapOwner`], garbage until the next cycle.
//! - [`gc`]: the Go ≥ 1.18 pacer (goal, minimum heap, GOMEMLIMIT, forced GC, CPU limiter).
//! - [`rss`]: what resident memory is made of, and the scavenger.
//! - [`runtime`]: [`GoProcess`], tying the three together, with goroutines and metrics.
//! - [`pod`]: the container, its memory limit, OOM kills and restart count.
//! - [`crashloop`]: client-go's `flowcontrol.Backoff` and the kubelet's CrashLoopBackOff.
//!
//! Worked example (the seed-000 incident): an operator whose FIFO piles up allocates under
//! [`HeapOwner::FifoDeltas`] faster than reconciles free; the live heap grows, each GC's goal
//! (live × 2 at GOGC=100) grows with it, RSS follows the goal, and once RSS passes the container
//! limit [`Pod::check_oom`] kills the container. The restarted process starts with an empty heap
//! and relists — the allocation spike is the caller's to model.

pub mod crashloop;
pub mod gc;
pub mod heap;
pub mod pod;
pub mod rss;
pub mod runtime;

pub use crashloop::{
    Backoff, BackoffEntry, CrashLoopBackOff, CrashLoopConfig, HOUSEKEEPING_PERIOD,
};
pub use gc::{GcConfig, GcCycle, GcPacer, GcTrigger, Gogc, LimitInputs};
pub use heap::{Heap, HeapOwner};
pub use pod::{
    ContainerExit, ContainerState, Pod, PodConfig, TerminatedState, TerminationReason,
    WaitingReason, GO_PANIC_EXIT_CODE, OOM_KILLED_EXIT_CODE,
};
pub use rss::{FreePages, RssBreakdown};
pub use runtime::{stretch_for_gc, GoMetrics, GoProcess, GoProcessConfig};

/// `a × b / divisor`, rounded down: in 64-bit arithmetic when the factors' bit lengths add up
/// to at most 64, so that their product fits (no 128-bit division, which has no hardware
/// instruction), in 128-bit otherwise. The result is the same either way. The test is on bit
/// lengths rather than an overflow-checked multiply because WebAssembly has no such multiply:
/// `u64::checked_mul` becomes a call to a 128-bit multiplication there.
#[inline]
pub(crate) fn mul_div(a: u128, b: u128, divisor: u64) -> u128 {
    if a.leading_zeros() + b.leading_zeros() >= 192 {
        // a < 2^(128 − lz(a)) and b < 2^(128 − lz(b)), so a·b < 2^(256 − lz(a) − lz(b)) ≤ 2^64
        #[allow(
            clippy::cast_possible_truncation,
            reason = "both are below 2^64: their bit lengths add up to at most 64"
        )]
        let (a, b) = (a as u64, b as u64);
        return u128::from(a * b / divisor);
    }
    a * b / u128::from(divisor)
}

/// One kibibyte.
pub const KIB: u64 = 1 << 10;

/// One mebibyte.
pub const MIB: u64 = 1 << 20;

/// One gibibyte.
pub const GIB: u64 = 1 << 30;

#[cfg(test)]
mod tests {
    use super::mul_div;

    #[test]
    fn mul_div_equals_the_128_bit_quotient_whether_or_not_the_product_fits_in_64_bits() {
        let big = u128::from(u64::MAX);
        let cases = [
            (0, 5, 100),
            (7, 13, 100),
            (big, 1, 100),
            (big, 5, 100),
            (big + 9, 110, 100),
            (1 << 40, 1 << 30, 1_000_000_000),
            (123_456_789, 987_654_321, 7),
            (u128::from(u32::MAX), u128::from(u32::MAX), 3),
            ((1 << 32) + 1, u128::from(u32::MAX), 3),
            (1 << 63, 1, 1),
            (1 << 63, 2, 1),
            (1 << 64, 1, 9),
        ];
        for (a, b, d) in cases {
            assert_eq!(mul_div(a, b, d), a * b / u128::from(d), "{a} × {b} / {d}");
        }
    }
}
