//! The result of a run: final metric values and their time series, in upstream names.

use serde::Serialize;

use super::verdict::RunVerdict;
use crate::vec_map::VecMap;

/// What a finished (or paused) run reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunReport {
    /// The scenario's name.
    pub scenario: String,
    /// The version profile in effect.
    pub profile: String,
    /// The seed of the random source.
    pub seed: u64,
    /// Simulated seconds run.
    pub sim_seconds: f64,
    /// Engine events handled.
    pub events: u64,
    /// Final values: `name{labels}` → value (histograms also as `{quantile="0.99"}`).
    pub metrics: VecMap<String, f64>,
    /// The same keys → `[[t_seconds, value], …]` (at most 2000 points each).
    pub series: VecMap<String, Vec<(f64, f64)>>,
    /// FNV-1a hash of the whole trace, in hex: equal hashes mean identical runs (empty when the
    /// run was told to keep none, [`super::run::RunOptions::trace_hash`]).
    pub trace_hash: String,
    /// The verdict on the write loop at the end.
    pub verdict: RunVerdict,
}

impl RunReport {
    /// A metric's final value (0 when absent).
    pub fn metric(&self, key: &str) -> f64 {
        self.metrics.get(key).copied().unwrap_or(0.0)
    }

    /// Sum of every metric whose key starts with `prefix` (e.g. all codes of a verb).
    pub fn sum_prefix(&self, prefix: &str) -> f64 {
        self.metrics
            .range_from(prefix)
            .take_while(|(k, _)| k.starts_with(prefix))
            .map(|(_, v)| v)
            .sum()
    }
}
