//! The reflector's backoff (apimachinery `pkg/util/wait/backoff.go`: `Backoff.Step`, `delay`,
//! `DelayWithReset` / `backoffManager`).

use std::time::Duration;

use flywheel_engine::informer::reflector::{Backoff, BackoffManager, DEFAULT_BACKOFF_RESET};
use flywheel_engine::sim::Rng;
use flywheel_engine::SimTime;
use proptest::prelude::*;

const MS: fn(u64) -> Duration = Duration::from_millis;

/// The base of the k-th step (0-based) with no reset: 0.8 s doubling, capped at 30 s.
fn expected_base(k: u32) -> Duration {
    let base = 800u64.saturating_mul(1u64 << k.min(20));
    MS(base.min(30_000))
}

// Mirrors the default reflector backoff in reflector.go NewReflectorWithOptions with wait.Backoff's
// delay(): without jitter the steps are exactly 0.8, 1.6, 3.2, 6.4, 12.8, 25.6, then 30 s forever.
#[test]
fn without_jitter_the_reflector_backoff_doubles_from_800ms_to_a_30s_cap() {
    let mut b = Backoff::reflector_default();
    assert_eq!(b.steps, 38);
    b.jitter = 0.0;
    let mut rng = Rng::seeded(1);
    let steps: Vec<u64> = (0..9)
        .map(|_| b.step(&mut rng).as_millis() as u64)
        .collect();
    assert_eq!(
        steps,
        vec![800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000]
    );
    assert_eq!(b.steps, 0, "reaching the cap ends the steps");
}

// wait.Backoff.Step with Steps exhausted keeps the base and still jitters it (delay, steps < 1).
#[test]
fn with_steps_exhausted_the_base_stays_and_is_still_jittered() {
    let mut b = Backoff::new(MS(100), 2.0, 1.0, 1, Duration::ZERO).expect("valid");
    let mut rng = Rng::seeded(2);
    let first = b.step(&mut rng);
    assert!(first >= MS(100) && first < MS(200));
    for _ in 0..20 {
        let d = b.step(&mut rng);
        assert!(d >= MS(200) && d < MS(400), "{d:?}");
    }
}

// backoffManager.Step: lastStart moves only on reset, so continuous failures still reset the backoff
// once more than 2 minutes have passed since the last reset (not since the last failure).
#[test]
fn the_backoff_resets_two_minutes_after_its_last_reset_even_while_failing() {
    let mut b = Backoff::reflector_default();
    b.jitter = 0.0;
    let mut m = BackoffManager::new(b, DEFAULT_BACKOFF_RESET, SimTime::ZERO);
    let mut rng = Rng::seeded(3);
    let mut now = SimTime::ZERO;
    let mut seen = Vec::new();
    // A failure every 10 s: never 2 minutes without a failure.
    for _ in 0..14 {
        seen.push(m.step(now, &mut rng).as_millis() as u64);
        now += Duration::from_secs(10);
    }
    // t = 0..120 s: no reset (120 s is not more than 2 min); t = 130 s: reset.
    assert_eq!(
        seen,
        vec![
            800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000, 30000, 30000, 30000, 30000,
            800
        ]
    );
    assert_eq!(m.last_start(), SimTime::from_millis(130_000));
}

// backoffManager.Step: the reset interval counts from construction (lastStart = clock.Now() in
// DelayWithReset), so a first failure long after start begins at the initial step anyway.
#[test]
fn a_long_quiet_period_restarts_the_backoff_at_800ms() {
    let mut b = Backoff::reflector_default();
    b.jitter = 0.0;
    let mut m = BackoffManager::new(b, DEFAULT_BACKOFF_RESET, SimTime::ZERO);
    let mut rng = Rng::seeded(4);
    for _ in 0..5 {
        m.step(SimTime::ZERO, &mut rng);
    }
    assert_eq!(m.current_base(), MS(25_600));
    assert_eq!(
        m.step(SimTime::from_millis(121_000), &mut rng),
        MS(800),
        "more than 2 min since the last reset"
    );
}

// DelayWithReset with a zero reset interval: every step starts again from the initial backoff.
#[test]
fn a_zero_reset_interval_restarts_every_step() {
    let b = Backoff::new(MS(800), 2.0, 0.0, 38, MS(30_000)).expect("valid");
    let mut m = BackoffManager::new(b, Duration::ZERO, SimTime::ZERO);
    let mut rng = Rng::seeded(5);
    for _ in 0..5 {
        assert_eq!(m.step(SimTime::ZERO, &mut rng), MS(800));
    }
}

#[test]
fn a_backoff_with_a_negative_or_infinite_parameter_is_rejected() {
    assert!(Backoff::new(MS(1), -2.0, 1.0, 1, MS(1)).is_err());
    assert!(Backoff::new(MS(1), 2.0, f64::INFINITY, 1, MS(1)).is_err());
    assert!(Backoff::new(MS(1), 2.0, 1.0, 1, MS(1)).is_ok());
}

proptest! {
    // Every step with no time passing lies in [base_k, 2·base_k) for the k-th base, never ≥ 60 s.
    #[test]
    fn every_reflector_backoff_step_is_in_base_to_twice_base(seed in any::<u64>(), n in 1u32..80) {
        let mut m = BackoffManager::new(Backoff::reflector_default(), DEFAULT_BACKOFF_RESET, SimTime::ZERO);
        let mut rng = Rng::seeded(seed);
        for k in 0..n {
            let d = m.step(SimTime::ZERO, &mut rng);
            let base = expected_base(k);
            prop_assert!(d >= base && d < 2 * base, "step {} = {:?}, base {:?}", k, d, base);
            prop_assert!(d < Duration::from_secs(60));
        }
    }

    // With arbitrary gaps between failures, each step is in [b, 2b) of the base it started from
    // (0.8 s right after a reset), that base is one of 0.8·2^k or 30 s, and no step reaches 60 s.
    #[test]
    fn backoff_steps_stay_in_bounds_across_resets(
        seed in any::<u64>(),
        gaps_ms in proptest::collection::vec(0u64..200_000, 1..60),
    ) {
        let mut m = BackoffManager::new(Backoff::reflector_default(), DEFAULT_BACKOFF_RESET, SimTime::ZERO);
        let mut rng = Rng::seeded(seed);
        let mut now = SimTime::ZERO;
        let allowed: Vec<Duration> = (0..7).map(expected_base).collect();
        for gap in gaps_ms {
            now += MS(gap);
            let before = m.last_start();
            let base_before = m.current_base();
            let d = m.step(now, &mut rng);
            let base = if m.last_start() != before { MS(800) } else { base_before };
            prop_assert!(allowed.contains(&base), "base {:?}", base);
            prop_assert!(d >= base && d < 2 * base, "{:?} not in [{:?}, 2x)", d, base);
            prop_assert!(d >= MS(800) && d < Duration::from_secs(60));
        }
    }
}
