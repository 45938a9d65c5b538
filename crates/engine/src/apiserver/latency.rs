//! How long the server takes to answer: a base latency per verb, a cost per KiB of payload and a
//! cost per listed object, with optional uniform jitter.
//!
//! This is a model, not an upstream constant: the defaults are orders of magnitude of a healthy
//! single-replica control plane (reads from the watch cache in a few ms, writes paying an etcd
//! commit, LIST cost growing with the number and size of objects as apiserver
//! `pkg/util/flowcontrol/request/list_work_estimator.go` assumes). Scenarios override them.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::request::Verb;
use crate::error::ConfigError;
use crate::float_text::Shortest;
use crate::sim::Rng;

/// Per-verb latency parameters, in milliseconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LatencyConfig {
    /// GET of one object.
    pub get_ms: f64,
    /// LIST, before per-object costs.
    pub list_ms: f64,
    /// Setting up a WATCH (until the first byte of the stream).
    pub watch_ms: f64,
    /// POST.
    pub create_ms: f64,
    /// PUT.
    pub update_ms: f64,
    /// PATCH.
    pub patch_ms: f64,
    /// DELETE.
    pub delete_ms: f64,
    /// Added per KiB of request plus response payload (encoding, copying, etcd write).
    pub per_kib_ms: f64,
    /// Added per object a LIST returns (filtering, conversion).
    pub per_list_item_ms: f64,
    /// Uniform jitter: the latency is scaled by a factor drawn from `[1 − j, 1 + j)`; 0 draws
    /// nothing from the random source.
    pub jitter_fraction: f64,
}

impl Default for LatencyConfig {
    fn default() -> Self {
        LatencyConfig {
            get_ms: 2.0,
            list_ms: 5.0,
            watch_ms: 3.0,
            create_ms: 8.0,
            update_ms: 8.0,
            patch_ms: 9.0,
            delete_ms: 8.0,
            per_kib_ms: 0.02,
            per_list_item_ms: 0.01,
            jitter_fraction: 0.2,
        }
    }
}

/// Upper bound of any single latency parameter (one hour), to keep sums finite.
const MAX_LATENCY_MS: f64 = 3_600_000.0;

impl LatencyConfig {
    /// Every parameter finite and in `[0, 1 h]`; jitter in `[0, 1)`.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let fields = [
            ("latency.get_ms", self.get_ms),
            ("latency.list_ms", self.list_ms),
            ("latency.watch_ms", self.watch_ms),
            ("latency.create_ms", self.create_ms),
            ("latency.update_ms", self.update_ms),
            ("latency.patch_ms", self.patch_ms),
            ("latency.delete_ms", self.delete_ms),
            ("latency.per_kib_ms", self.per_kib_ms),
            ("latency.per_list_item_ms", self.per_list_item_ms),
        ];
        for (field, v) in fields {
            if !v.is_finite() || !(0.0..=MAX_LATENCY_MS).contains(&v) {
                return Err(ConfigError::new(
                    field,
                    format!(
                        "must be between 0 and {} ms (got {})",
                        Shortest(MAX_LATENCY_MS),
                        Shortest(v)
                    ),
                ));
            }
        }
        let j = self.jitter_fraction;
        if !j.is_finite() || !(0.0..1.0).contains(&j) {
            return Err(ConfigError::new(
                "latency.jitter_fraction",
                format!("must be in [0, 1) (got {})", Shortest(j)),
            ));
        }
        Ok(())
    }

    /// The base latency of `verb`, in ms.
    pub fn base_ms(&self, verb: Verb) -> f64 {
        match verb {
            Verb::Get => self.get_ms,
            Verb::List => self.list_ms,
            Verb::Watch => self.watch_ms,
            Verb::Create => self.create_ms,
            Verb::Update => self.update_ms,
            Verb::Patch => self.patch_ms,
            Verb::Delete => self.delete_ms,
        }
    }

    /// The latency without jitter, in ms: base + payload KiB · `per_kib` + items · `per_list_item`.
    pub fn mean_ms(&self, verb: Verb, payload_bytes: u64, list_items: u64) -> f64 {
        let kib = payload_bytes as f64 / 1024.0;
        let items = if verb == Verb::List {
            list_items as f64
        } else {
            0.0
        };
        self.base_ms(verb) + kib * self.per_kib_ms + items * self.per_list_item_ms
    }

    /// Samples the latency of one request: [`LatencyConfig::mean_ms`] scaled by the jitter factor
    /// (one draw from `rng` when `jitter_fraction > 0`, none otherwise).
    pub fn sample(
        &self,
        verb: Verb,
        payload_bytes: u64,
        list_items: u64,
        rng: &mut Rng,
    ) -> Duration {
        let mean = self.mean_ms(verb, payload_bytes, list_items);
        let factor = if self.jitter_fraction > 0.0 {
            1.0 + self.jitter_fraction * (2.0 * rng.next_f64() - 1.0)
        } else {
            1.0
        };
        let ms = mean * factor;
        if ms.is_finite() && ms > 0.0 {
            Duration::from_secs_f64((ms / 1000.0).min(1e9))
        } else {
            Duration::ZERO
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_costs_more_the_more_and_the_larger_objects_it_returns() {
        let c = LatencyConfig {
            jitter_fraction: 0.0,
            ..LatencyConfig::default()
        };
        let mut rng = Rng::seeded(1);
        let small = c.sample(Verb::List, 10 * 1024, 10, &mut rng);
        let many = c.sample(Verb::List, 10 * 1024, 10_000, &mut rng);
        let big = c.sample(Verb::List, 100 * 1024 * 1024, 10, &mut rng);
        assert!(small < many && small < big, "{small:?} {many:?} {big:?}");
        assert_eq!(
            small,
            Duration::from_secs_f64((5.0 + 10.0 * 0.02 + 10.0 * 0.01) / 1000.0)
        );
    }

    #[test]
    fn jitter_stays_within_its_fraction_and_is_reproducible_from_the_seed() {
        let c = LatencyConfig::default();
        let draw = |seed| {
            let mut rng = Rng::seeded(seed);
            (0..200)
                .map(|_| c.sample(Verb::Update, 2048, 0, &mut rng))
                .collect::<Vec<_>>()
        };
        let mean = c.mean_ms(Verb::Update, 2048, 0) / 1000.0;
        assert_eq!(draw(7), draw(7));
        assert!(draw(7)
            .iter()
            .all(|d| (d.as_secs_f64() - mean).abs() <= mean * 0.2 + 1e-12));
    }

    #[test]
    fn a_negative_or_infinite_latency_is_rejected_naming_the_field() {
        let c = LatencyConfig {
            patch_ms: -1.0,
            ..LatencyConfig::default()
        };
        assert_eq!(
            c.validate().map_err(|e| e.field),
            Err("latency.patch_ms".into())
        );
        let c = LatencyConfig {
            jitter_fraction: 1.0,
            ..LatencyConfig::default()
        };
        assert_eq!(
            c.validate().map_err(|e| e.field),
            Err("latency.jitter_fraction".into())
        );
    }
}
