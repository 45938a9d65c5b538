//! Metrics with upstream names and meanings.
//!
//! Plain-data stand-ins for the three Prometheus metric kinds the engine reports (`client_golang`
//! `prometheus/counter.go`, `gauge.go`, `histogram.go`): a [`Counter`] only goes up, a [`Gauge`] is
//! set or moved, a [`Histogram`] counts observations into fixed buckets. They hold no labels and no
//! registry: the component that owns a metric exposes it in its own snapshot struct (for example
//! [`crate::workqueue::QueueMetrics`]). Everything is deterministic and serialisable.

pub mod names;

use serde::Serialize;

use crate::error::ConfigError;
use crate::float_text::Shortest;

/// A monotonically increasing count, like a Prometheus counter (`client_golang`
/// `prometheus/counter.go`). Counts are whole numbers here; increments saturate instead of
/// overflowing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counter {
    value: u64,
}

impl Counter {
    /// A counter at zero.
    pub const fn new() -> Counter {
        Counter { value: 0 }
    }

    /// Adds one (`Inc`).
    pub fn inc(&mut self) {
        self.inc_by(1);
    }

    /// Adds `n` (`Add`), saturating at `u64::MAX`.
    pub fn inc_by(&mut self, n: u64) {
        self.value = self.value.saturating_add(n);
    }

    /// The current count.
    pub const fn value(&self) -> u64 {
        self.value
    }
}

/// A value that can go up and down, like a Prometheus gauge (`client_golang` `prometheus/gauge.go`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Gauge {
    value: f64,
}

impl Gauge {
    /// A gauge at zero.
    pub const fn new() -> Gauge {
        Gauge { value: 0.0 }
    }

    /// Replaces the value (`Set`).
    pub fn set(&mut self, value: f64) {
        self.value = value;
    }

    /// Adds one (`Inc`).
    pub fn inc(&mut self) {
        self.add(1.0);
    }

    /// Subtracts one (`Dec`).
    pub fn dec(&mut self) {
        self.add(-1.0);
    }

    /// Adds `delta`, which may be negative (`Add`).
    pub fn add(&mut self, delta: f64) {
        self.value += delta;
    }

    /// The current value.
    pub const fn value(&self) -> f64 {
        self.value
    }
}

/// Observations counted into buckets with fixed upper bounds, like a Prometheus histogram
/// (`client_golang` `prometheus/histogram.go`).
///
/// The `le` series of bucket `i` counts observations `v <= upper_bounds[i]`
/// ([`Histogram::cumulative_counts`]); the implicit `+Inf` bucket is [`Histogram::count`]. As
/// upstream, an observation finds its one bucket (`findBucket`) and counts there; the cumulative
/// counts are summed when read. Non-finite observations are ignored (upstream would add them to
/// the `+Inf` bucket and poison the sum); the engine only observes finite durations.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Histogram {
    upper_bounds: Vec<f64>,
    /// Observations per bucket: above bound `i - 1`, at most bound `i`. Serialized as the
    /// cumulative counts.
    #[serde(rename = "cumulative_counts", serialize_with = "serialize_cumulative")]
    bucket_counts: Vec<u64>,
    count: u64,
    sum: f64,
}

/// Per-bucket counts written as their running sums (the `le` series).
fn serialize_cumulative<S: serde::Serializer>(counts: &[u64], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(running_sums(counts))
}

/// `counts`' running sums.
fn running_sums(counts: &[u64]) -> impl Iterator<Item = u64> + '_ {
    counts.iter().scan(0u64, |total, &c| {
        *total = total.saturating_add(c);
        Some(*total)
    })
}

/// The bucket of `value` among `upper_bounds`: the first bound at least `value`, `len` above
/// them all (`client_golang` `prometheus/histogram.go` `findBucket`: a linear search under 35
/// bounds, a binary search from 35 on).
fn find_bucket(upper_bounds: &[f64], value: f64) -> usize {
    const LINEAR_BELOW: usize = 35;
    if upper_bounds.len() < LINEAR_BELOW {
        upper_bounds
            .iter()
            .position(|&bound| value <= bound)
            .unwrap_or(upper_bounds.len())
    } else {
        upper_bounds.partition_point(|&bound| bound < value)
    }
}

impl Histogram {
    /// A histogram with the given finite, strictly increasing upper bounds. A trailing `+Inf` is
    /// accepted and dropped (it is always implied), as in `client_golang` `newHistogram`.
    pub fn new(upper_bounds: Vec<f64>) -> Result<Histogram, ConfigError> {
        let mut bounds = upper_bounds;
        if bounds.last() == Some(&f64::INFINITY) {
            bounds.pop();
        }
        validate_bounds(&bounds)?;
        Ok(Histogram::from_valid_bounds(bounds))
    }

    /// A histogram from bounds already known to be finite and strictly increasing.
    pub(crate) fn from_valid_bounds(upper_bounds: Vec<f64>) -> Histogram {
        let bucket_counts = vec![0; upper_bounds.len()];
        Histogram {
            upper_bounds,
            bucket_counts,
            count: 0,
            sum: 0.0,
        }
    }

    /// Records one observation (`Observe`); non-finite values are ignored.
    pub fn observe(&mut self, value: f64) {
        if !value.is_finite() {
            return;
        }
        self.count = self.count.saturating_add(1);
        self.sum += value;
        let bucket = find_bucket(&self.upper_bounds, value);
        if let Some(count) = self.bucket_counts.get_mut(bucket) {
            *count = count.saturating_add(1);
        }
    }

    /// The same observations with only the first `n` upper bounds (the others fold into `+Inf`):
    /// what a histogram registered with fewer buckets of the same series would show.
    pub fn first_buckets(&self, n: usize) -> Histogram {
        let n = n.min(self.upper_bounds.len());
        Histogram {
            upper_bounds: self.upper_bounds[..n].to_vec(),
            bucket_counts: self.bucket_counts[..n].to_vec(),
            count: self.count,
            sum: self.sum,
        }
    }

    /// The finite upper bounds (the `le` labels without `+Inf`).
    pub fn upper_bounds(&self) -> &[f64] {
        &self.upper_bounds
    }

    /// For each upper bound, how many observations were at most that bound.
    pub fn cumulative_counts(&self) -> Vec<u64> {
        running_sums(&self.bucket_counts).collect()
    }

    /// The number of observations (the `+Inf` bucket, `_count`).
    pub const fn count(&self) -> u64 {
        self.count
    }

    /// The sum of all observations (`_sum`).
    pub const fn sum(&self) -> f64 {
        self.sum
    }

    /// The `q`-quantile estimated from the buckets exactly like PromQL `histogram_quantile`
    /// (prometheus `promql/quantile.go` `bucketQuantile`): linear interpolation inside the bucket
    /// that holds rank `q·count`, a lower bound of 0 for the first bucket (unless its upper bound
    /// is ≤ 0, which is then returned), and the highest finite bound when the rank falls into
    /// `+Inf`. NaN when there are no observations, no finite bucket or `q` is NaN; −∞ for `q < 0`
    /// and +∞ for `q > 1`.
    pub fn quantile(&self, q: f64) -> f64 {
        if q.is_nan() {
            return f64::NAN;
        }
        if q < 0.0 {
            return f64::NEG_INFINITY;
        }
        if q > 1.0 {
            return f64::INFINITY;
        }
        if self.upper_bounds.is_empty() || self.count == 0 {
            return f64::NAN;
        }
        self.interpolate(q * self.count as f64)
    }

    /// [`Histogram::quantile`] of each of `qs`, which must be in increasing order, in one walk
    /// of the buckets: the ranks increase with the quantiles, so each search starts at the
    /// bucket where the one before it ended. Each value equals what `quantile` gives for it.
    pub fn quantiles<const N: usize>(&self, qs: [f64; N]) -> [f64; N] {
        debug_assert!(
            qs.windows(2).all(|w| w[0] <= w[1]),
            "quantiles in increasing order"
        );
        if self.upper_bounds.is_empty()
            || self.count == 0
            || qs.iter().any(|q| !(0.0..=1.0).contains(q))
        {
            return qs.map(|q| self.quantile(q));
        }
        let count = self.count as f64;
        let mut out = [0.0; N];
        let (mut b, mut below, mut cumulative) = (0, 0u64, self.bucket_counts[0]);
        for (slot, q) in out.iter_mut().zip(qs) {
            let rank = q * count;
            while (cumulative as f64) < rank && b + 1 < self.bucket_counts.len() {
                b += 1;
                below = cumulative;
                cumulative = cumulative.saturating_add(self.bucket_counts[b]);
            }
            *slot = if cumulative as f64 >= rank {
                self.interpolate_in(b, below, cumulative, rank)
            } else {
                self.upper_bounds[self.upper_bounds.len() - 1]
            };
        }
        out
    }

    /// Copies `other`'s observations with only its first `n` upper bounds, as
    /// [`Histogram::first_buckets`] does, into this histogram, reusing its room.
    pub fn assign_first_buckets(&mut self, other: &Histogram, n: usize) {
        let n = n.min(other.upper_bounds.len());
        if self.upper_bounds[..] != other.upper_bounds[..n] {
            self.upper_bounds.clear();
            self.upper_bounds
                .extend_from_slice(&other.upper_bounds[..n]);
        }
        self.bucket_counts.clear();
        self.bucket_counts
            .extend_from_slice(&other.bucket_counts[..n]);
        self.count = other.count;
        self.sum = other.sum;
    }

    /// Linear interpolation of `rank` inside the first bucket whose cumulative count reaches it.
    /// The cumulative counts are summed while searching, with no list built: the series sample
    /// three quantiles of every histogram each simulated second.
    fn interpolate(&self, rank: f64) -> f64 {
        let mut below = 0u64;
        for (b, cumulative) in running_sums(&self.bucket_counts).enumerate() {
            if cumulative as f64 >= rank {
                return self.interpolate_in(b, below, cumulative, rank);
            }
            below = cumulative;
        }
        self.upper_bounds[self.upper_bounds.len() - 1]
    }

    /// [`Histogram::interpolate`] inside bucket `b`, whose cumulative count is `cumulative` and
    /// that of the bucket below `below`.
    fn interpolate_in(&self, b: usize, below: u64, cumulative: u64, rank: f64) -> f64 {
        let end = self.upper_bounds[b];
        if b == 0 && end <= 0.0 {
            return end;
        }
        let (start, below) = if b == 0 {
            (0.0, 0.0)
        } else {
            (self.upper_bounds[b - 1], below as f64)
        };
        let in_bucket = cumulative as f64 - below;
        start + (end - start) * ((rank - below) / in_bucket)
    }
}

/// Checks that histogram bounds are finite and strictly increasing.
fn validate_bounds(bounds: &[f64]) -> Result<(), ConfigError> {
    if let Some(bad) = bounds.iter().find(|b| !b.is_finite()) {
        return Err(ConfigError::new(
            "upper_bounds",
            format!(
                "must be finite numbers, except a trailing +Inf (got {})",
                Shortest(*bad)
            ),
        ));
    }
    if let Some(&[first, next]) = bounds.windows(2).find(|w| w[0] >= w[1]) {
        return Err(ConfigError::new(
            "upper_bounds",
            format!(
                "must be strictly increasing (got {} followed by {})",
                Shortest(first),
                Shortest(next)
            ),
        ));
    }
    Ok(())
}

/// `count` bucket bounds starting at `start`, each `factor` times the previous one, computed like
/// `client_golang` `prometheus/histogram.go` `ExponentialBuckets` (repeated multiplication). Rejects
/// `count == 0`, `start <= 0` and `factor <= 1` (upstream panics), and non-finite values.
pub fn exponential_buckets(start: f64, factor: f64, count: usize) -> Result<Vec<f64>, ConfigError> {
    if count == 0 {
        return Err(ConfigError::new("count", "must be at least 1 (got 0)"));
    }
    if !(start > 0.0 && start.is_finite()) {
        return Err(ConfigError::new(
            "start",
            format!(
                "must be a finite number greater than 0 (got {})",
                Shortest(start)
            ),
        ));
    }
    if !(factor > 1.0 && factor.is_finite()) {
        return Err(ConfigError::new(
            "factor",
            format!(
                "must be a finite number greater than 1 (got {})",
                Shortest(factor)
            ),
        ));
    }
    let buckets = exponential_series(start, factor, count);
    validate_bounds(&buckets)?;
    Ok(buckets)
}

/// The exponential series without validation (for constant, known-good parameters).
pub(crate) fn exponential_series(start: f64, factor: f64, count: usize) -> Vec<f64> {
    let mut buckets = Vec::with_capacity(count);
    let mut bound = start;
    for _ in 0..count {
        buckets.push(bound);
        bound *= factor;
    }
    buckets
}

/// `count` bucket bounds starting at `start`, each `width` above the previous one, computed like
/// `client_golang` `prometheus/histogram.go` `LinearBuckets` (repeated addition). Rejects
/// `count == 0` (upstream panics), `width <= 0` and non-finite values.
pub fn linear_buckets(start: f64, width: f64, count: usize) -> Result<Vec<f64>, ConfigError> {
    if count == 0 {
        return Err(ConfigError::new("count", "must be at least 1 (got 0)"));
    }
    if !start.is_finite() {
        return Err(ConfigError::new(
            "start",
            format!("must be a finite number (got {})", Shortest(start)),
        ));
    }
    if !(width > 0.0 && width.is_finite()) {
        return Err(ConfigError::new(
            "width",
            format!(
                "must be a finite number greater than 0 (got {})",
                Shortest(width)
            ),
        ));
    }
    let mut buckets = Vec::with_capacity(count);
    let mut bound = start;
    for _ in 0..count {
        buckets.push(bound);
        bound += width;
    }
    validate_bounds(&buckets)?;
    Ok(buckets)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn histogram(bounds: &[f64]) -> Histogram {
        Histogram::new(bounds.to_vec()).expect("valid bounds")
    }

    #[test]
    fn quantiles_in_one_walk_equal_each_quantile_asked_alone() {
        let qs = [0.0, 0.5, 0.9, 0.99, 1.0];
        let mut h = histogram(&[0.001, 0.01, 0.1, 1.0, 10.0]);
        assert_eq!(
            h.quantiles(qs).map(f64::to_bits),
            qs.map(|q| h.quantile(q).to_bits())
        );
        // observations spread unevenly, some above every bound, checked after each one
        let mut x = 7u64;
        for _ in 0..500 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let v = (x >> 40) as f64 / f64::from(1u32 << 24) * 20.0;
            h.observe(if x % 3 == 0 { v / 1000.0 } else { v });
            let one_walk = h.quantiles(qs).map(f64::to_bits);
            assert_eq!(one_walk, qs.map(|q| h.quantile(q).to_bits()));
        }
        let out_of_range = h.quantiles([-0.5, 2.0]);
        assert_eq!(out_of_range, [f64::NEG_INFINITY, f64::INFINITY]);
    }

    #[test]
    fn assigning_the_first_buckets_gives_what_first_buckets_builds() {
        let mut source = histogram(&[1.0, 2.0, 4.0, 8.0]);
        for v in [0.5, 1.5, 3.0, 3.5, 7.0, 100.0] {
            source.observe(v);
        }
        let mut into = histogram(&[5.0]);
        for n in [2, 4, 9, 0] {
            into.assign_first_buckets(&source, n);
            assert_eq!(into, source.first_buckets(n));
        }
    }

    #[test]
    fn a_counter_counts_up_and_saturates_instead_of_overflowing() {
        let mut c = Counter::new();
        c.inc();
        c.inc_by(2);
        assert_eq!(c.value(), 3);
        c.inc_by(u64::MAX);
        assert_eq!(c.value(), u64::MAX);
    }

    #[test]
    fn a_gauge_moves_both_ways_and_can_be_set() {
        let mut g = Gauge::new();
        g.inc();
        g.inc();
        g.dec();
        assert_eq!(g.value(), 1.0);
        g.set(0.25);
        g.add(-1.0);
        assert_eq!(g.value(), -0.75);
    }

    #[test]
    fn exponential_buckets_match_client_golang_for_the_workqueue_parameters() {
        // client_golang histogram_test.go TestBuckets: ExponentialBuckets(100, 1.2, 3).
        let got = exponential_buckets(100.0, 1.2, 3).expect("valid");
        assert_eq!(got, vec![100.0, 120.0, 144.0]);
        let wq = exponential_buckets(1e-8, 10.0, 12).expect("valid");
        assert_eq!(wq.len(), 12);
        assert_eq!(wq[0], 1e-8);
        assert!((wq[11] - 1000.0).abs() < 1e-9);
    }

    #[test]
    fn linear_buckets_step_by_the_width() {
        // client_golang histogram_test.go TestBuckets: LinearBuckets(-15, 5, 6).
        let got = linear_buckets(-15.0, 5.0, 6).expect("valid");
        assert_eq!(got, vec![-15.0, -10.0, -5.0, 0.0, 5.0, 10.0]);
    }

    #[test]
    fn bucket_generators_reject_parameters_upstream_would_panic_on() {
        assert_eq!(
            exponential_buckets(1.0, 2.0, 0).map_err(|e| e.field),
            Err("count".to_string())
        );
        assert_eq!(
            exponential_buckets(0.0, 2.0, 3).map_err(|e| e.field),
            Err("start".to_string())
        );
        assert_eq!(
            exponential_buckets(1.0, 1.0, 3).map_err(|e| e.field),
            Err("factor".to_string())
        );
        assert_eq!(
            exponential_buckets(1.0, f64::NAN, 3).map_err(|e| e.field),
            Err("factor".to_string())
        );
        assert_eq!(
            linear_buckets(0.0, 0.0, 3).map_err(|e| e.field),
            Err("width".to_string())
        );
        // Overflowing to +Inf is caught by the bounds check instead of producing a bad histogram.
        assert!(exponential_buckets(1e300, 1e10, 3).is_err());
    }

    #[test]
    fn histogram_bounds_must_be_strictly_increasing_and_finite() {
        assert!(Histogram::new(vec![1.0, 1.0]).is_err());
        assert!(Histogram::new(vec![2.0, 1.0]).is_err());
        assert!(Histogram::new(vec![f64::NAN]).is_err());
        let h = Histogram::new(vec![1.0, f64::INFINITY]).expect("trailing +Inf is allowed");
        assert_eq!(h.upper_bounds(), &[1.0]);
    }

    #[test]
    fn the_le_series_count_every_observation_at_most_their_bound_with_few_or_many_bounds() {
        // under 35 bounds an observation's bucket is found by a linear search, from 35 on by a
        // binary one; either way each `le` series counts the observations at most its bound
        for n in [3_u32, 34, 35, 80] {
            let bounds: Vec<f64> = (1..=n).map(|i| f64::from(i) * 0.5).collect();
            let mut h = histogram(&bounds);
            let values: Vec<f64> = (0..=2 * n + 3).map(|i| f64::from(i) * 0.25).collect();
            values.iter().for_each(|&v| h.observe(v));
            let naive: Vec<u64> = bounds
                .iter()
                .map(|&b| values.iter().filter(|&&v| v <= b).count() as u64)
                .collect();
            assert_eq!(h.cumulative_counts(), naive, "{n} bounds");
            assert_eq!(h.count(), values.len() as u64);
        }
    }

    #[test]
    fn observations_are_counted_cumulatively_per_upper_bound() {
        let mut h = histogram(&[1.0, 2.0, 4.0]);
        for v in [0.5, 1.0, 1.5, 3.0, 10.0] {
            h.observe(v);
        }
        h.observe(f64::NAN);
        assert_eq!(h.cumulative_counts(), &[2, 3, 4]);
        assert_eq!(h.count(), 5);
        assert_eq!(h.sum(), 16.0);
    }

    #[test]
    fn quantiles_interpolate_linearly_inside_the_bucket_like_histogram_quantile() {
        // Cases from prometheus promql testdata histograms.test (bucketQuantile semantics).
        let mut h = histogram(&[0.1, 0.2]);
        for v in [0.05, 0.15, 0.15, 0.15] {
            h.observe(v);
        }
        // rank 2 of 4: first bucket holds 1, second 3 ⇒ 0.1 + 0.1 · (1/3).
        assert!((h.quantile(0.5) - (0.1 + 0.1 / 3.0)).abs() < 1e-12);
        // rank 0.4 inside the first bucket: 0 + 0.1 · 0.4.
        assert!((h.quantile(0.1) - 0.04).abs() < 1e-12);
        assert_eq!(h.quantile(1.0), 0.2);
    }

    #[test]
    fn quantiles_in_the_inf_bucket_return_the_highest_finite_bound() {
        let mut h = histogram(&[1.0, 2.0]);
        h.observe(0.5);
        h.observe(5.0);
        h.observe(6.0);
        assert_eq!(h.quantile(0.9), 2.0);
    }

    #[test]
    fn quantile_edge_cases_follow_promql() {
        let mut h = histogram(&[-1.0, 1.0]);
        assert!(h.quantile(0.5).is_nan());
        h.observe(-2.0);
        assert_eq!(h.quantile(0.5), -1.0);
        assert_eq!(h.quantile(-0.1), f64::NEG_INFINITY);
        assert_eq!(h.quantile(1.1), f64::INFINITY);
        assert!(h.quantile(f64::NAN).is_nan());
        assert!(Histogram::new(vec![])
            .expect("empty is valid")
            .quantile(0.5)
            .is_nan());
    }

    #[test]
    fn metrics_serialize_as_plain_data() {
        let mut h = histogram(&[1.0]);
        h.observe(0.5);
        let json = serde_json::to_string(&h).expect("serialize");
        assert_eq!(
            json,
            r#"{"upper_bounds":[1.0],"cumulative_counts":[1],"count":1,"sum":0.5}"#
        );
    }
}
