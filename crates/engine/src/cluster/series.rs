//! Bounded time series for the charts.
//!
//! Each series keeps at most [`MAX_POINTS`] points: when full, neighbouring points are merged
//! pairwise (keeping the later time and the larger value, so spikes survive) and the sampling
//! stride doubles. A 24-hour run therefore costs the same memory as a 10-minute one.

use std::collections::BTreeMap;

use serde::Serialize;

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
    pub fn push(&mut self, t: f64, v: f64) {
        let stride = self.stride.max(1);
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

    fn halve(&mut self) {
        let merged: Vec<(f64, f64)> = self
            .points
            .chunks(2)
            .map(|c| {
                c.iter()
                    .copied()
                    .fold((0.0, f64::NEG_INFINITY), |a, p| (p.0, a.1.max(p.1)))
            })
            .collect();
        self.points = merged;
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
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SeriesSet {
    series: BTreeMap<String, Series>,
}

impl SeriesSet {
    /// Records `value` for `key` at `t`.
    pub fn record(&mut self, key: &str, t: f64, value: f64) {
        match self.series.get_mut(key) {
            Some(s) => s.push(t, value),
            None => {
                let mut s = Series::default();
                s.push(t, value);
                self.series.insert(key.to_owned(), s);
            }
        }
    }

    /// The series of `key`.
    pub fn get(&self, key: &str) -> Option<&Series> {
        self.series.get(key)
    }

    /// Every series, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Series)> {
        self.series.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn downsampling_keeps_a_single_spike_visible() {
        let mut s = Series::default();
        for i in 0..50_000 {
            s.push(i as f64, if i == 31_337 { 1000.0 } else { 1.0 });
        }
        let max = s.points().iter().map(|p| p.1).fold(0.0, f64::max);
        assert_eq!(max, 1000.0);
    }
}
