//! Bounded time series for the charts.
//!
//! Each series keeps at most [`MAX_POINTS`] points: when full, neighbouring points are merged
//! pairwise (keeping the later time and the larger value, so spikes survive) and the sampling
//! stride doubles. A 24-hour run therefore costs the same memory as a 10-minute one.

use std::cell::RefCell;

use serde::Serialize;

use super::registry::{KeyOrder, Registry, HISTOGRAM_VALUES};

/// Most points a series keeps.
pub const MAX_POINTS: usize = 2000;

/// One series: `(t_seconds, value)` points, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Series {
    points: Vec<(f64, f64)>,
    stride: u32,
    skipped: u32,
    pending_max: Option<(f64, f64)>,
}

impl Series {
    /// Appends a sample (kept or folded into the next kept one, per the current stride).
    #[inline]
    pub fn push(&mut self, t: f64, v: f64) {
        if self.stride > 1 {
            self.push_strided(t, v);
            return;
        }
        // every sample kept (a series' first MAX_POINTS samples): nothing is pending
        debug_assert!(self.pending_max.is_none() && self.skipped == 0);
        self.points.push((t, v));
        if self.points.len() >= MAX_POINTS {
            self.halve();
        }
    }

    /// [`Series::push`] once the stride is above one: the sample is kept or folded into the
    /// next kept one.
    fn push_strided(&mut self, t: f64, v: f64) {
        let stride = self.stride;
        let merged = match self.pending_max {
            Some((_, pv)) if pv > v => (t, pv),
            _ => (t, v),
        };
        self.skipped += 1;
        if self.skipped < stride {
            self.pending_max = Some(merged);
            return;
        }
        self.skipped = 0;
        self.pending_max = None;
        self.points.push(merged);
        if self.points.len() >= MAX_POINTS {
            self.halve();
        }
    }

    /// Merges each two neighbouring points into one (the later time, the larger value) in
    /// place, and doubles the stride. Rare (a series reaches [`MAX_POINTS`] after thousands of
    /// samples), so kept out of line: the push every sample makes stays small.
    #[cold]
    #[inline(never)]
    fn halve(&mut self) {
        let n = self.points.len();
        for j in 0..n / 2 {
            let ((_, a), (t, b)) = (self.points[2 * j], self.points[2 * j + 1]);
            self.points[j] = (t, f64::NEG_INFINITY.max(a).max(b));
        }
        if n % 2 == 1 {
            let (t, a) = self.points[n - 1];
            self.points[n / 2] = (t, f64::NEG_INFINITY.max(a));
        }
        self.points.truncate(n.div_ceil(2));
        self.stride = self.stride.max(1) * 2;
    }

    /// The kept points.
    pub fn points(&self) -> &[(f64, f64)] {
        &self.points
    }

    /// The newest value.
    pub fn last(&self) -> Option<f64> {
        self.points.last().map(|p| p.1)
    }
}

/// Series by metric key (`name{labels}`), in key order.
#[derive(Clone, Debug, Default)]
pub struct SeriesSet {
    /// Every series, sorted by key.
    series: Vec<(String, Series)>,
    /// For the n-th value of the last sample ([`SeriesSet::sample`]), the position of its
    /// series: a sample that visits the same keys in the same order finds each series by one key
    /// comparison instead of a search.
    last_sample: Vec<usize>,
    /// The registry's key order the last sample visited, while `last_sample` holds a position
    /// for each of its keys and no series was added since ([`SeriesSet::sample_in_order`]).
    sampled_order: Option<KeyOrder>,
    /// The positions of the series each labeled rate asked for sums, found once while no series
    /// is added ([`SeriesSet::labeled_rate`]).
    labeled: RefCell<Vec<LabeledSeries>>,
}

/// The series of metric `name` with labels holding `part`: their positions, in key order.
#[derive(Clone, Debug)]
struct LabeledSeries {
    name: String,
    part: String,
    positions: Vec<usize>,
}

/// The most `(name, part)` pairs whose positions are kept; more clear them all.
const LABELED_KEPT: usize = 16;

impl PartialEq for SeriesSet {
    fn eq(&self, other: &Self) -> bool {
        self.series == other.series
    }
}

impl Serialize for SeriesSet {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        struct ByKey<'a>(&'a [(String, Series)]);
        impl Serialize for ByKey<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_map(self.0.iter().map(|(k, s)| (k, s)))
            }
        }
        let mut s = serializer.serialize_struct("SeriesSet", 1)?;
        s.serialize_field("series", &ByKey(&self.series))?;
        s.end()
    }
}

impl SeriesSet {
    /// The position of `key`'s series, created empty when missing.
    fn position(&mut self, key: &str) -> usize {
        match self.series.binary_search_by(|(k, _)| k.as_str().cmp(key)) {
            Ok(i) => i,
            Err(i) => {
                self.series.insert(i, (key.to_owned(), Series::default()));
                // every position from `i` on has moved
                self.sampled_order = None;
                self.labeled.get_mut().clear();
                i
            }
        }
    }

    /// Records `value` for `key` at `t`.
    pub fn record(&mut self, key: &str, t: f64, value: f64) {
        let i = self.position(key);
        self.series[i].1.push(t, value);
    }

    /// Starts recording one sample at `t`: its values are recorded through the returned
    /// [`Sample`], in the same key order each time, as [`Registry::for_each_value`] visits them.
    ///
    /// [`Registry::for_each_value`]: super::registry::Registry::for_each_value
    pub fn sample(&mut self, t: f64) -> Sample<'_> {
        self.sampled_order = None;
        Sample {
            set: self,
            t,
            visited: 0,
        }
    }

    /// Records every value of `reg` at `t`, as [`Registry::for_each_value`] visits them. While
    /// the registry's keys are in the order the last sample visited ([`Registry::key_order`])
    /// and no series was added since, the n-th value goes to the last sample's n-th position:
    /// its values alone are read, in one pass, without their keys. Otherwise each value finds
    /// its series by its key, and the positions are kept for the next sample.
    pub fn sample_registry(&mut self, t: f64, reg: &Registry) {
        let order = reg.key_order();
        if self.sampled_order == Some(order) && reg.value_count() == self.last_sample.len() {
            debug_assert!(
                self.visits_in_last_order(reg),
                "the same order, the same keys"
            );
            let series = &mut self.series;
            let (scalars, rest) = self.last_sample.split_at(reg.scalar_count());
            for (&i, value) in scalars.iter().zip(reg.scalar_values()) {
                series[i].1.push(t, value);
            }
            for (at, values) in rest
                .chunks_exact(HISTOGRAM_VALUES)
                .zip(reg.histogram_values())
            {
                for (&i, value) in at.iter().zip(values) {
                    series[i].1.push(t, value);
                }
            }
            return;
        }
        let mut sample = self.sample(t);
        // kept unless a series is added while recording, which moves the positions after it
        sample.set.sampled_order = Some(order);
        reg.for_each_value(|key, value| sample.record(key, value));
    }

    /// Whether `reg`'s n-th value names the series at the last sample's n-th position, for
    /// every n (a check of [`SeriesSet::sample_registry`]'s shortcut in debug builds).
    fn visits_in_last_order(&self, reg: &Registry) -> bool {
        let mut n = 0;
        let mut same = true;
        reg.for_each_value(|key, _| {
            let at = self.last_sample.get(n).and_then(|&i| self.series.get(i));
            same &= at.is_some_and(|(k, _)| k == key);
            n += 1;
        });
        same && n == self.last_sample.len()
    }

    /// The series of `key`.
    pub fn get(&self, key: &str) -> Option<&Series> {
        self.series
            .binary_search_by(|(k, _)| crate::key::order_of(k, key))
            .ok()
            .map(|i| &self.series[i].1)
    }

    /// Every series, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Series)> {
        self.series.iter().map(|(k, s)| (k, s))
    }

    /// The per-second rate of counter `key` over its last `window` samples (0 when absent).
    pub fn rate(&self, key: &str, window: usize) -> f64 {
        self.get(key).map_or(0.0, |s| rate_of(s.points(), window))
    }

    /// The rate summed over every series of metric `name` with labels (keys `name{…}`) whose
    /// key contains `part`.
    /// The series are found by their keys once, then by their kept positions until a series
    /// is added.
    pub fn labeled_rate(&self, name: &str, part: &str, window: usize) -> f64 {
        let mut kept = self.labeled.borrow_mut();
        let found = kept.iter().position(|l| l.name == name && l.part == part);
        let at = found.unwrap_or_else(|| {
            if kept.len() >= LABELED_KEPT {
                kept.clear();
            }
            kept.push(LabeledSeries {
                name: name.to_owned(),
                part: part.to_owned(),
                positions: self.labeled_positions(name, part),
            });
            kept.len() - 1
        });
        // folded from +0.0: an empty f64 `sum()` is -0.0, which prints as "-0.0"
        kept[at].positions.iter().fold(0.0, |acc, &i| {
            acc + rate_of(self.series[i].1.points(), window)
        })
    }

    /// The positions, in key order, of the series of metric `name` with labels holding `part`.
    /// The keys are sorted, so only the range of the name is read.
    fn labeled_positions(&self, name: &str, part: &str) -> Vec<usize> {
        let labeled = |key: &str| key[name.len()..].starts_with('{') && key.contains(part);
        let start = self.series.partition_point(|(k, _)| k.as_str() < name);
        self.series[start..]
            .iter()
            .take_while(|(k, _)| k.starts_with(name))
            .enumerate()
            .filter(|(_, (k, _))| labeled(k))
            .map(|(i, _)| start + i)
            .collect()
    }
}

/// The per-second rate over the last `window` samples of a cumulative counter (`rate()` in
/// PromQL over that range, without extrapolation).
pub fn rate_of(s: &[(f64, f64)], window: usize) -> f64 {
    if s.len() < 2 {
        return 0.0;
    }
    let last = s[s.len() - 1];
    let first = s[s.len().saturating_sub(window + 1)];
    let dt = last.0 - first.0;
    if dt <= 0.0 {
        0.0
    } else {
        ((last.1 - first.1) / dt).max(0.0)
    }
}

/// One sample being recorded into a [`SeriesSet`].
pub struct Sample<'a> {
    set: &'a mut SeriesSet,
    t: f64,
    visited: usize,
}

impl Sample<'_> {
    /// Records `value` for `key` at the sample's time.
    pub fn record(&mut self, key: &str, value: f64) {
        let n = self.visited;
        self.visited += 1;
        let set = &mut *self.set;
        let i = match set.last_sample.get(n) {
            Some(&i)
                if set
                    .series
                    .get(i)
                    .is_some_and(|(k, _)| crate::key::same_text(k, key)) =>
            {
                i
            }
            _ => {
                let i = set.position(key);
                set.last_sample.truncate(n);
                set.last_sample.push(i);
                i
            }
        };
        set.series[i].1.push(self.t, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_is_the_difference_over_the_time_between_the_window_ends() {
        let s = [(0.0, 0.0), (1.0, 5.0), (2.0, 15.0), (3.0, 30.0)];
        assert_eq!(rate_of(&s, 1), 15.0);
        assert_eq!(rate_of(&s, 3), 10.0);
        assert_eq!(rate_of(&s, 100), 10.0);
        assert_eq!(rate_of(&s[..1], 3), 0.0);
    }

    #[test]
    fn a_series_never_holds_more_than_its_bound() {
        let mut s = Series::default();
        for i in 0..100_000 {
            s.push(i as f64, (i % 7) as f64);
        }
        assert!(s.points().len() <= MAX_POINTS);
        assert!(s.points().len() >= MAX_POINTS / 4);
        assert!(
            s.points().windows(2).all(|w| w[0].0 < w[1].0),
            "times stay increasing"
        );
    }

    #[test]
    fn a_full_series_merges_each_two_neighbours_into_the_later_time_and_the_larger_value() {
        let value = |i: usize| ((i * 37) % 11) as f64;
        let mut s = Series::default();
        for i in 0..MAX_POINTS {
            s.push(i as f64, value(i));
        }
        let expected: Vec<(f64, f64)> = (0..MAX_POINTS / 2)
            .map(|j| ((2 * j + 1) as f64, value(2 * j).max(value(2 * j + 1))))
            .collect();
        assert_eq!(s.points(), expected);
        assert_eq!(s.stride, 2);
        // an odd count keeps its last point alone
        let mut odd = Series {
            points: vec![(1.0, 4.0), (2.0, 9.0), (3.0, -2.0)],
            ..Series::default()
        };
        odd.halve();
        assert_eq!(odd.points(), [(2.0, 9.0), (3.0, -2.0)]);
    }

    #[test]
    fn downsampling_keeps_a_single_spike_visible() {
        let mut s = Series::default();
        for i in 0..50_000 {
            s.push(i as f64, if i == 31_337 { 1000.0 } else { 1.0 });
        }
        let max = s.points().iter().map(|p| p.1).fold(0.0, f64::max);
        assert_eq!(max, 1000.0);
    }

    #[test]
    fn a_sample_records_each_value_under_its_key_even_when_the_keys_change() {
        let mut by_sample = SeriesSet::default();
        let mut one_by_one = SeriesSet::default();
        let samples: [&[(&str, f64)]; 4] = [
            &[("b", 1.0), ("d", 2.0)],
            &[("b", 3.0), ("d", 4.0)],
            &[("a", 5.0), ("b", 6.0), ("c", 7.0), ("d", 8.0)],
            &[("b", 9.0), ("d", 10.0), ("e", 11.0)],
        ];
        for (t, values) in samples.iter().enumerate() {
            let mut sample = by_sample.sample(t as f64);
            for &(key, value) in values.iter() {
                sample.record(key, value);
                one_by_one.record(key, t as f64, value);
            }
        }
        assert_eq!(by_sample, one_by_one);
        let keys: Vec<&String> = by_sample.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["a", "b", "c", "d", "e"]);
        assert_eq!(
            by_sample.get("d").expect("d was sampled").points(),
            [(0.0, 2.0), (1.0, 4.0), (2.0, 8.0), (3.0, 10.0)]
        );
        let json = serde_json::to_string(&by_sample).expect("series serialize");
        assert!(
            json.starts_with("{\"series\":{\"a\":{\"points\":[[2.0,5.0]]"),
            "{json}"
        );
    }

    #[test]
    fn a_labeled_rate_sums_the_series_of_one_metric_with_labels_that_hold_the_part() {
        let mut set = SeriesSet::default();
        let keys = [
            ("req", 100.0),
            ("req_other{verb=\"PUT\"}", 1_000.0),
            ("req{code=\"200\",verb=\"PUT\"}", 10.0),
            ("req{code=\"429\",verb=\"PUT\"}", 20.0),
            ("req{code=\"200\",verb=\"GET\"}", 40.0),
            ("reqs{verb=\"PUT\"}", 2_000.0),
        ];
        for t in 0..3 {
            for (key, per_second) in keys {
                set.record(key, f64::from(t), per_second * f64::from(t));
            }
        }
        assert_eq!(set.labeled_rate("req", "verb=\"PUT\"", 2), 30.0);
        assert_eq!(set.labeled_rate("req", "", 2), 70.0);
        assert_eq!(
            set.labeled_rate("re", "", 2),
            0.0,
            "no series of metric `re`"
        );
        assert_eq!(set.labeled_rate("reqs", "", 2), 2_000.0);
        // a series added after a rate was read is summed by the next read, and the positions
        // of the series after it, which moved, still give their own rates
        for t in 0..3 {
            set.record(
                "req{code=\"201\",verb=\"PUT\"}",
                f64::from(t),
                5.0 * f64::from(t),
            );
        }
        assert_eq!(set.labeled_rate("req", "verb=\"PUT\"", 2), 35.0);
        assert_eq!(set.labeled_rate("req", "", 2), 75.0);
        assert_eq!(set.labeled_rate("reqs", "", 2), 2_000.0);
    }

    #[test]
    fn a_sample_in_a_registry_order_records_what_a_checked_sample_records() {
        use crate::cluster::registry::Registry;
        let mut reg = Registry::default();
        let (mut in_order, mut checked) = (SeriesSet::default(), SeriesSet::default());
        for t in 0..12 {
            reg.inc("b_total", 1.0);
            reg.set("d", f64::from(t));
            // a histogram's five values follow the counters' and gauges'
            let buckets = || crate::metrics::Histogram::new(vec![0.5, 2.0, 8.0]);
            reg.observe("e_seconds", f64::from(t) / 2.0, buckets);
            if t == 5 {
                reg.observe("ab_seconds", 1.0, buckets); // a histogram that sorts first
            }
            if t >= 3 {
                reg.inc("a_total", 2.0); // a counter that sorts first appears at 3
            }
            match t {
                6 => reg.set("c", 7.0),
                8 => in_order.record("bb", f64::from(t), 1.0), // a series added between samples
                _ => {}
            }
            in_order.sample_registry(f64::from(t), &reg);
            let mut sample = checked.sample(f64::from(t));
            reg.for_each_value(|key, value| sample.record(key, value));
        }
        checked.record("bb", 8.0, 1.0);
        assert_eq!(in_order, checked);
        assert_eq!(in_order.get("d").map(|s| s.points().len()), Some(12));
        assert_eq!(
            in_order.get("a_total").map(Series::last),
            Some(Some(2.0 * 9.0))
        );
        assert_eq!(
            in_order.get("e_seconds_count").map(Series::last),
            Some(Some(12.0))
        );
        assert_eq!(
            in_order.get("ab_seconds_sum").map(|s| s.points().len()),
            Some(7)
        );
    }
}
