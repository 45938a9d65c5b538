//! Rate limiters: how long a failed item waits before it is retried (client-go
//! `util/workqueue/default_rate_limiters.go`).
//!
//! A limiter answers `when(item)` with a delay and counts the request: per-item limiters count
//! failures per item until `forget`, the token bucket limits the overall retry rate. Limiters take
//! the current virtual time explicitly instead of reading a clock. Constructors validate their
//! parameters and return a [`ConfigError`] naming the field; upstream accepts any value.

use std::hash::Hash;
use std::time::Duration;

use crate::error::ConfigError;
use crate::float_text::Shortest;
use crate::sim::large::Large;
use crate::time::SimTime;
use crate::workqueue::set::ItemMap;

/// Decides how long an item waits before it is added again (client-go
/// `default_rate_limiters.go` `TypedRateLimiter`).
pub trait RateLimiter<T>: CloneRateLimiter<T> {
    /// The delay for `item` at `now`; counts as one more requeue (`When`).
    fn when(&mut self, item: &T, now: SimTime) -> Duration;
    /// Stops tracking `item`, whether it finally succeeded or was given up (`Forget`).
    fn forget(&mut self, item: &T);
    /// How many times `item` has been requeued since it was last forgotten (`NumRequeues`).
    fn num_requeues(&self, item: &T) -> u32;
    /// Its per-item maps, to be copied or freed in steps ([`crate::sim::large`]); none by default.
    fn large_parts<'a>(&'a mut self, _out: &mut Vec<&'a mut dyn Large>) {}
}

/// Copies a limiter behind a `Box<dyn RateLimiter>`, counts included (a run's checkpoint copies
/// its queues); every `Clone` limiter has it.
pub trait CloneRateLimiter<T> {
    /// A boxed copy of this limiter.
    fn clone_box<'a>(&self) -> Box<dyn RateLimiter<T> + 'a>
    where
        Self: 'a;
}

impl<T, R: RateLimiter<T> + Clone> CloneRateLimiter<T> for R {
    fn clone_box<'a>(&self) -> Box<dyn RateLimiter<T> + 'a>
    where
        Self: 'a,
    {
        Box::new(self.clone())
    }
}

impl<'a, T: 'a> Clone for Box<dyn RateLimiter<T> + 'a> {
    fn clone(&self) -> Self {
        (**self).clone_box()
    }
}

impl<T, R: RateLimiter<T> + ?Sized> RateLimiter<T> for Box<R>
where
    Box<R>: Clone,
{
    /// Delegates to the boxed limiter.
    fn when(&mut self, item: &T, now: SimTime) -> Duration {
        (**self).when(item, now)
    }

    /// Delegates to the boxed limiter.
    fn forget(&mut self, item: &T) {
        (**self).forget(item);
    }

    /// Delegates to the boxed limiter.
    fn num_requeues(&self, item: &T) -> u32 {
        (**self).num_requeues(item)
    }

    /// Delegates to the boxed limiter.
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn Large>) {
        (**self).large_parts(out);
    }
}

/// Go's `time.Duration` maximum (`math.MaxInt64` nanoseconds), also `rate.InfDuration`.
const GO_MAX_DURATION_NANOS: f64 = i64::MAX as f64;

/// A duration from a float number of nanoseconds, truncated like Go's `time.Duration(f)`;
/// saturating at Go's maximum duration.
fn duration_from_nanos_f64(nanos: f64) -> Duration {
    if nanos.is_nan() || nanos <= 0.0 {
        return Duration::ZERO;
    }
    if nanos >= GO_MAX_DURATION_NANOS {
        return Duration::from_nanos(i64::MAX.unsigned_abs());
    }
    Duration::from_nanos(nanos as u64)
}

/// `base · 2^failures` per item, capped at `max` (client-go `default_rate_limiters.go`
/// `TypedItemExponentialFailureRateLimiter`).
#[derive(Clone, Debug)]
pub struct ItemExponentialFailureRateLimiter<T> {
    base_delay: Duration,
    max_delay: Duration,
    failures: ItemMap<T, u32>,
}

impl<T: Ord + Clone + Hash> ItemExponentialFailureRateLimiter<T> {
    /// A limiter starting at `base_delay` and doubling per failure up to `max_delay`. Rejects a
    /// zero `base_delay` and `base_delay > max_delay`.
    pub fn new(
        base_delay: Duration,
        max_delay: Duration,
    ) -> Result<ItemExponentialFailureRateLimiter<T>, ConfigError> {
        if base_delay.is_zero() {
            return Err(ConfigError::new(
                "base_delay",
                "must be greater than 0 (got 0s)",
            ));
        }
        if base_delay > max_delay {
            return Err(ConfigError::new(
                "max_delay",
                format!("must be at least base_delay {base_delay:?} (got {max_delay:?})"),
            ));
        }
        Ok(ItemExponentialFailureRateLimiter::new_unchecked(
            base_delay, max_delay,
        ))
    }

    /// A limiter from parameters known to be valid.
    pub(crate) fn new_unchecked(
        base_delay: Duration,
        max_delay: Duration,
    ) -> ItemExponentialFailureRateLimiter<T> {
        ItemExponentialFailureRateLimiter {
            base_delay,
            max_delay,
            failures: ItemMap::default(),
        }
    }

    /// The delay after `failures` earlier failures: computed in floating point like upstream,
    /// `max_delay` once it exceeds the cap or Go's largest duration.
    fn backoff(&self, failures: u32) -> Duration {
        let backoff_nanos =
            crate::time::duration_nanos_f64(self.base_delay) * f64::from(failures).exp2();
        if backoff_nanos > GO_MAX_DURATION_NANOS {
            return self.max_delay;
        }
        duration_from_nanos_f64(backoff_nanos).min(self.max_delay)
    }
}

impl<T: Ord + Clone + Hash + 'static> RateLimiter<T> for ItemExponentialFailureRateLimiter<T> {
    /// `base · 2^n` where `n` counts earlier failures, then one more failure (client-go
    /// `default_rate_limiters.go` `TypedItemExponentialFailureRateLimiter.When`).
    fn when(&mut self, item: &T, _now: SimTime) -> Duration {
        let failures = self.failures.entry(item.clone()).or_insert(0);
        let exponent = *failures;
        *failures = failures.saturating_add(1);
        self.backoff(exponent)
    }

    /// Deletes the failure count. Every successful reconcile forgets its key, and most keys
    /// never failed: while none has a count, there is nothing to hash the key for.
    fn forget(&mut self, item: &T) {
        if !self.failures.is_empty() {
            self.failures.remove(item);
        }
    }

    /// The failure count.
    fn num_requeues(&self, item: &T) -> u32 {
        self.failures.get(item).copied().unwrap_or(0)
    }

    /// The failure counts.
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn Large>) {
        out.push(&mut self.failures);
    }
}

/// `fast_delay` for the first `max_fast_attempts` failures of an item, `slow_delay` afterwards
/// (client-go `default_rate_limiters.go` `TypedItemFastSlowRateLimiter`).
#[derive(Clone, Debug)]
pub struct ItemFastSlowRateLimiter<T> {
    fast_delay: Duration,
    slow_delay: Duration,
    max_fast_attempts: u32,
    failures: ItemMap<T, u32>,
}

impl<T: Ord + Clone + Hash> ItemFastSlowRateLimiter<T> {
    /// A fast/slow limiter. `max_fast_attempts` may be 0 (every retry is slow, as upstream);
    /// rejects `fast_delay > slow_delay`.
    pub fn new(
        fast_delay: Duration,
        slow_delay: Duration,
        max_fast_attempts: u32,
    ) -> Result<ItemFastSlowRateLimiter<T>, ConfigError> {
        if fast_delay > slow_delay {
            return Err(ConfigError::new(
                "fast_delay",
                format!("must not exceed slow_delay {slow_delay:?} (got {fast_delay:?})"),
            ));
        }
        Ok(ItemFastSlowRateLimiter {
            fast_delay,
            slow_delay,
            max_fast_attempts,
            failures: ItemMap::default(),
        })
    }
}

impl<T: Ord + Clone + Hash + 'static> RateLimiter<T> for ItemFastSlowRateLimiter<T> {
    /// Counts the failure first, then fast while the count is at most `max_fast_attempts`
    /// (client-go `default_rate_limiters.go` `TypedItemFastSlowRateLimiter.When`).
    fn when(&mut self, item: &T, _now: SimTime) -> Duration {
        let failures = self.failures.entry(item.clone()).or_insert(0);
        *failures = failures.saturating_add(1);
        if *failures <= self.max_fast_attempts {
            self.fast_delay
        } else {
            self.slow_delay
        }
    }

    /// Deletes the failure count. Every successful reconcile forgets its key, and most keys
    /// never failed: while none has a count, there is nothing to hash the key for.
    fn forget(&mut self, item: &T) {
        if !self.failures.is_empty() {
            self.failures.remove(item);
        }
    }

    /// The failure count.
    fn num_requeues(&self, item: &T) -> u32 {
        self.failures.get(item).copied().unwrap_or(0)
    }

    /// The failure counts.
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn Large>) {
        out.push(&mut self.failures);
    }
}

/// An overall token bucket: `qps` tokens per second, at most `burst` stored, initially full
/// (client-go `default_rate_limiters.go` `TypedBucketRateLimiter` over golang.org/x/time
/// `rate/rate.go` `Limiter`).
///
/// `when` is `Reserve().Delay()`: it always takes a token, going into debt when none is left, and
/// returns how long until that token has been refilled. A `qps` of +∞ is `rate.Inf`: no limit.
#[derive(Clone, Debug, PartialEq)]
pub struct BucketRateLimiter {
    qps: f64,
    burst: u32,
    tokens: f64,
    last: SimTime,
}

impl BucketRateLimiter {
    /// A full bucket of `burst` tokens refilled at `qps` per second (`rate.NewLimiter`). Rejects
    /// a `qps` that is NaN, zero or negative and a `burst` of 0 (upstream would then never grant a
    /// token and return `InfDuration`).
    pub fn new(qps: f64, burst: u32) -> Result<BucketRateLimiter, ConfigError> {
        if qps.is_nan() || qps <= 0.0 {
            return Err(ConfigError::new(
                "qps",
                format!(
                    "must be greater than 0 (+inf means unlimited) (got {})",
                    Shortest(qps)
                ),
            ));
        }
        if burst == 0 {
            return Err(ConfigError::new("burst", "must be at least 1 (got 0)"));
        }
        Ok(BucketRateLimiter::new_unchecked(qps, burst))
    }

    /// A bucket from parameters known to be valid.
    pub(crate) fn new_unchecked(qps: f64, burst: u32) -> BucketRateLimiter {
        BucketRateLimiter {
            qps,
            burst,
            tokens: f64::from(burst),
            last: SimTime::ZERO,
        }
    }

    /// The tokens available at `now`, refilled since the last reservation and capped at `burst`
    /// (`rate.Limiter.advance`; an earlier `now` refills nothing).
    fn tokens_at(&self, now: SimTime) -> f64 {
        let elapsed = now.saturating_since(self.last);
        let refilled = self.tokens + elapsed.as_secs_f64() * self.qps;
        refilled.min(f64::from(self.burst))
    }

    /// Takes one token at `now` and returns the wait until it exists (`rate.Limiter.reserveN`
    /// with `n = 1`, then `Reservation.DelayFrom(now)`).
    pub fn reserve(&mut self, now: SimTime) -> Duration {
        if self.qps == f64::INFINITY {
            return Duration::ZERO;
        }
        let remaining = self.tokens_at(now) - 1.0;
        self.tokens = remaining;
        self.last = now;
        if remaining < 0.0 {
            duration_from_nanos_f64(-remaining / self.qps * 1e9)
        } else {
            Duration::ZERO
        }
    }
}

impl<T> RateLimiter<T> for BucketRateLimiter {
    /// `Reserve().Delay()` at `now` (client-go `default_rate_limiters.go`
    /// `TypedBucketRateLimiter.When`).
    fn when(&mut self, _item: &T, now: SimTime) -> Duration {
        self.reserve(now)
    }

    /// A no-op: the bucket does not track items.
    fn forget(&mut self, _item: &T) {}

    /// Always 0: the bucket does not track items.
    fn num_requeues(&self, _item: &T) -> u32 {
        0
    }
}

/// The worst case of several limiters (client-go `default_rate_limiters.go`
/// `TypedMaxOfRateLimiter`): every limiter is asked, so all of them count the request.
pub struct MaxOfRateLimiter<T: 'static> {
    limiters: Vec<Box<dyn RateLimiter<T>>>,
}

impl<T> Clone for MaxOfRateLimiter<T> {
    fn clone(&self) -> Self {
        MaxOfRateLimiter {
            limiters: self.limiters.clone(),
        }
    }
}

impl<T> std::fmt::Debug for MaxOfRateLimiter<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MaxOfRateLimiter")
            .field("limiters", &self.limiters.len())
            .finish()
    }
}

impl<T> MaxOfRateLimiter<T> {
    /// The maximum of `limiters`; rejects an empty list (upstream would always answer 0).
    pub fn new(limiters: Vec<Box<dyn RateLimiter<T>>>) -> Result<MaxOfRateLimiter<T>, ConfigError> {
        if limiters.is_empty() {
            return Err(ConfigError::new(
                "limiters",
                "must contain at least one rate limiter (got none)",
            ));
        }
        Ok(MaxOfRateLimiter { limiters })
    }
}

impl<T> RateLimiter<T> for MaxOfRateLimiter<T> {
    /// The largest delay; every limiter is called (`TypedMaxOfRateLimiter.When`).
    fn when(&mut self, item: &T, now: SimTime) -> Duration {
        let mut worst = Duration::ZERO;
        for limiter in &mut self.limiters {
            worst = worst.max(limiter.when(item, now));
        }
        worst
    }

    /// Forgets the item in every limiter.
    fn forget(&mut self, item: &T) {
        for limiter in &mut self.limiters {
            limiter.forget(item);
        }
    }

    /// The largest count among the limiters.
    fn num_requeues(&self, item: &T) -> u32 {
        self.limiters
            .iter()
            .map(|l| l.num_requeues(item))
            .max()
            .unwrap_or(0)
    }

    /// Every limiter's, in order.
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn Large>) {
        for limiter in &mut self.limiters {
            limiter.large_parts(out);
        }
    }
}

/// Caps another limiter's delay at `max_delay` (client-go `default_rate_limiters.go`
/// `TypedWithMaxWaitRateLimiter`).
pub struct WithMaxWaitRateLimiter<T: 'static> {
    limiter: Box<dyn RateLimiter<T>>,
    max_delay: Duration,
}

impl<T> Clone for WithMaxWaitRateLimiter<T> {
    fn clone(&self) -> Self {
        WithMaxWaitRateLimiter {
            limiter: self.limiter.clone(),
            max_delay: self.max_delay,
        }
    }
}

impl<T> std::fmt::Debug for WithMaxWaitRateLimiter<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WithMaxWaitRateLimiter")
            .field("max_delay", &self.max_delay)
            .finish_non_exhaustive()
    }
}

impl<T> WithMaxWaitRateLimiter<T> {
    /// `limiter` with its delays capped at `max_delay`; rejects a zero `max_delay`.
    pub fn new(
        limiter: Box<dyn RateLimiter<T>>,
        max_delay: Duration,
    ) -> Result<WithMaxWaitRateLimiter<T>, ConfigError> {
        if max_delay.is_zero() {
            return Err(ConfigError::new(
                "max_delay",
                "must be greater than 0 (got 0s)",
            ));
        }
        Ok(WithMaxWaitRateLimiter { limiter, max_delay })
    }
}

impl<T> RateLimiter<T> for WithMaxWaitRateLimiter<T> {
    /// The inner delay, at most `max_delay` (`TypedWithMaxWaitRateLimiter.When`).
    fn when(&mut self, item: &T, now: SimTime) -> Duration {
        self.limiter.when(item, now).min(self.max_delay)
    }

    /// Delegates to the inner limiter.
    fn forget(&mut self, item: &T) {
        self.limiter.forget(item);
    }

    /// The inner limiter's.
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn Large>) {
        self.limiter.large_parts(out);
    }

    /// Delegates to the inner limiter.
    fn num_requeues(&self, item: &T) -> u32 {
        self.limiter.num_requeues(item)
    }
}

/// The classic controller limiter: the maximum of a per-item exponential backoff (5 ms … 1000 s)
/// and an overall bucket of 10 qps with burst 100 (client-go `default_rate_limiters.go`
/// `DefaultTypedControllerRateLimiter`). controller-runtime uses it only with the classic queue
/// (see [`crate::workqueue::PriorityQueue`] for the ≥ v0.23 default).
pub fn default_controller_rate_limiter<T: Ord + Clone + Hash + 'static>() -> Box<dyn RateLimiter<T>>
{
    let per_item = ItemExponentialFailureRateLimiter::<T>::new_unchecked(
        Duration::from_millis(5),
        Duration::from_secs(1000),
    );
    let overall = BucketRateLimiter::new_unchecked(10.0, 100);
    Box::new(MaxOfRateLimiter {
        limiters: vec![Box::new(per_item), Box::new(overall)],
    })
}

/// A per-item exponential backoff from 1 ms to 1000 s (client-go `default_rate_limiters.go`
/// `DefaultTypedItemBasedRateLimiter`).
pub fn default_item_based_rate_limiter<T: Ord + Clone + Hash + 'static>() -> Box<dyn RateLimiter<T>>
{
    Box::new(ItemExponentialFailureRateLimiter::<T>::new_unchecked(
        Duration::from_millis(1),
        Duration::from_secs(1000),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: SimTime = SimTime::ZERO;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn exp(base: Duration, max: Duration) -> ItemExponentialFailureRateLimiter<&'static str> {
        ItemExponentialFailureRateLimiter::new(base, max).expect("valid parameters")
    }

    #[test]
    fn exponential_backoff_doubles_per_failure_and_forget_resets_it() {
        // client-go default_rate_limiters_test.go TestItemExponentialFailureRateLimiter.
        let mut l = exp(ms(1), Duration::from_secs(1));
        for expected in [1, 2, 4, 8, 16] {
            assert_eq!(l.when(&"one", T0), ms(expected));
        }
        assert_eq!(l.num_requeues(&"one"), 5);
        assert_eq!(l.when(&"two", T0), ms(1));
        assert_eq!(l.when(&"two", T0), ms(2));
        assert_eq!(l.num_requeues(&"two"), 2);
        l.forget(&"one");
        assert_eq!(l.num_requeues(&"one"), 0);
        assert_eq!(l.when(&"one", T0), ms(1));
    }

    #[test]
    fn exponential_backoff_is_capped_at_max_even_when_the_power_overflows() {
        // client-go default_rate_limiters_test.go TestItemExponentialFailureRateLimiterOverFlow.
        let mut l = exp(ms(1), Duration::from_secs(1000));
        for _ in 0..5 {
            l.when(&"one", T0);
        }
        assert_eq!(l.when(&"one", T0), ms(32));
        for _ in 0..1000 {
            l.when(&"overflow1", T0);
        }
        assert_eq!(l.when(&"overflow1", T0), Duration::from_secs(1000));

        let mut l = exp(Duration::from_secs(60), Duration::from_secs(1000 * 3600));
        for _ in 0..2 {
            l.when(&"two", T0);
        }
        assert_eq!(l.when(&"two", T0), Duration::from_secs(240));
        for _ in 0..1000 {
            l.when(&"overflow2", T0);
        }
        assert_eq!(l.when(&"overflow2", T0), Duration::from_secs(1000 * 3600));
    }

    #[test]
    fn fast_slow_switches_to_slow_after_the_fast_attempts() {
        // client-go default_rate_limiters_test.go TestItemFastSlowRateLimiter.
        let mut l = ItemFastSlowRateLimiter::new(ms(5), Duration::from_secs(10), 3).expect("valid");
        for expected in [
            ms(5),
            ms(5),
            ms(5),
            Duration::from_secs(10),
            Duration::from_secs(10),
        ] {
            assert_eq!(l.when(&"one", T0), expected);
        }
        assert_eq!(l.num_requeues(&"one"), 5);
        assert_eq!(l.when(&"two", T0), ms(5));
        assert_eq!(l.when(&"two", T0), ms(5));
        assert_eq!(l.num_requeues(&"two"), 2);
        l.forget(&"one");
        assert_eq!(l.num_requeues(&"one"), 0);
        assert_eq!(l.when(&"one", T0), ms(5));
    }

    #[test]
    fn max_of_returns_the_worst_delay_and_the_highest_count() {
        // client-go default_rate_limiters_test.go TestMaxOfRateLimiter.
        let fast_slow: Box<dyn RateLimiter<&str>> =
            Box::new(ItemFastSlowRateLimiter::new(ms(5), Duration::from_secs(3), 3).expect("ok"));
        let exponential: Box<dyn RateLimiter<&str>> = Box::new(exp(ms(1), Duration::from_secs(1)));
        let mut l = MaxOfRateLimiter::new(vec![fast_slow, exponential]).expect("valid");
        let three_s = Duration::from_secs(3);
        for expected in [ms(5), ms(5), ms(5), three_s, three_s] {
            assert_eq!(l.when(&"one", T0), expected);
        }
        assert_eq!(l.num_requeues(&"one"), 5);
        assert_eq!(l.when(&"two", T0), ms(5));
        assert_eq!(l.when(&"two", T0), ms(5));
        assert_eq!(l.num_requeues(&"two"), 2);
        l.forget(&"one");
        assert_eq!(l.num_requeues(&"one"), 0);
        assert_eq!(l.when(&"one", T0), ms(5));
    }

    /// A limiter that answers `base` for the first `threshold` calls, then `max` (client-go
    /// default_rate_limiters_test.go `StepRateLimiter`).
    #[derive(Clone)]
    struct StepRateLimiter {
        count: u32,
        threshold: u32,
        base: Duration,
        max: Duration,
    }

    impl RateLimiter<u32> for StepRateLimiter {
        fn when(&mut self, _item: &u32, _now: SimTime) -> Duration {
            self.count += 1;
            if self.count <= self.threshold {
                self.base
            } else {
                self.max
            }
        }
        fn forget(&mut self, _item: &u32) {}
        fn num_requeues(&self, _item: &u32) -> u32 {
            0
        }
    }

    #[test]
    fn with_max_wait_caps_the_inner_delay() {
        // client-go default_rate_limiters_test.go TestWithMaxWaitRateLimiter.
        let step = StepRateLimiter {
            count: 0,
            threshold: 100,
            base: ms(5),
            max: Duration::from_secs(1000),
        };
        let mut l =
            WithMaxWaitRateLimiter::new(Box::new(step), Duration::from_secs(500)).expect("valid");
        for i in 0..100 {
            assert_eq!(l.when(&i, T0), ms(5));
        }
        for i in 100..200 {
            assert_eq!(l.when(&i, T0), Duration::from_secs(500));
        }
    }

    #[test]
    fn the_bucket_grants_the_burst_at_once_then_one_token_per_interval() {
        // golang.org/x/time rate/rate.go reserveN: a full bucket, then debt paid back at qps.
        let mut b = BucketRateLimiter::new(10.0, 3).expect("valid");
        for _ in 0..3 {
            assert_eq!(b.reserve(T0), Duration::ZERO);
        }
        assert_eq!(b.reserve(T0), ms(100));
        assert_eq!(
            b.reserve(T0),
            ms(200),
            "each call takes a token, even when delayed"
        );
        // 250 ms later 2.5 tokens were refilled against a debt of 2: 0.5 left, then -0.5.
        assert_eq!(b.reserve(SimTime::from_millis(250)), ms(50));
    }

    #[test]
    fn the_bucket_refills_continuously_but_never_above_burst() {
        let mut b = BucketRateLimiter::new(2.0, 2).expect("valid");
        b.reserve(T0);
        b.reserve(T0);
        // An hour later the bucket holds 2 tokens, not 7200.
        let later = SimTime::from_millis(3_600_000);
        assert_eq!(b.reserve(later), Duration::ZERO);
        assert_eq!(b.reserve(later), Duration::ZERO);
        assert_eq!(b.reserve(later), ms(500));
    }

    #[test]
    fn an_infinite_qps_bucket_never_delays() {
        let mut b = BucketRateLimiter::new(f64::INFINITY, 1).expect("rate.Inf is allowed");
        for _ in 0..1000 {
            assert_eq!(b.reserve(T0), Duration::ZERO);
        }
    }

    #[test]
    fn the_default_controller_limiter_combines_backoff_and_bucket() {
        let mut l = default_controller_rate_limiter::<u32>();
        // 100 distinct items use up the burst; the exponential part answers 5 ms each.
        for i in 0..100 {
            assert_eq!(l.when(&i, T0), ms(5));
        }
        // The 101st token is 100 ms away at 10 qps, more than the 5 ms backoff.
        assert_eq!(l.when(&100, T0), ms(100));
        assert_eq!(l.num_requeues(&7), 1);
        let mut item_based = default_item_based_rate_limiter::<u32>();
        assert_eq!(item_based.when(&1, T0), ms(1));
        assert_eq!(item_based.when(&1, T0), ms(2));
    }

    #[test]
    fn constructors_reject_invalid_parameters_with_the_field_name() {
        let field = |e: ConfigError| e.field;
        assert_eq!(
            exp_err(Duration::ZERO, ms(1)).map(|_| ()).map_err(field),
            Err("base_delay".into())
        );
        assert_eq!(
            exp_err(ms(2), ms(1)).map(|_| ()).map_err(field),
            Err("max_delay".into())
        );
        for qps in [0.0, -1.0, f64::NAN, f64::NEG_INFINITY] {
            let err = BucketRateLimiter::new(qps, 1).expect_err("bad qps");
            assert_eq!(err.field, "qps");
        }
        assert_eq!(
            BucketRateLimiter::new(1.0, 0).map_err(field),
            Err("burst".into())
        );
        assert!(ItemFastSlowRateLimiter::<u8>::new(ms(2), ms(1), 1).is_err());
        assert!(MaxOfRateLimiter::<u8>::new(Vec::new()).is_err());
        let inner: Box<dyn RateLimiter<u8>> = Box::new(BucketRateLimiter::new(1.0, 1).expect("ok"));
        assert!(WithMaxWaitRateLimiter::new(inner, Duration::ZERO).is_err());
    }

    fn exp_err(
        base: Duration,
        max: Duration,
    ) -> Result<ItemExponentialFailureRateLimiter<u8>, ConfigError> {
        ItemExponentialFailureRateLimiter::new(base, max)
    }

    #[test]
    fn extreme_parameters_saturate_instead_of_panicking() {
        let huge = Duration::MAX;
        let mut l =
            ItemExponentialFailureRateLimiter::new(Duration::from_nanos(1), huge).expect("valid");
        for _ in 0..100 {
            l.when(&1u8, T0);
        }
        assert_eq!(l.when(&1u8, T0), huge);
        let mut b = BucketRateLimiter::new(1e-300, 1).expect("valid");
        b.reserve(T0);
        assert_eq!(
            b.reserve(SimTime::MAX),
            Duration::from_nanos(i64::MAX as u64)
        );
    }
}
