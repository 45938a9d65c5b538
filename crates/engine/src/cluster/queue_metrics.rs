//! The workqueue's metrics as controller-runtime registers them: `workqueue_depth`,
//! `workqueue_queue_duration_seconds`, `workqueue_work_duration_seconds`,
//! `workqueue_unfinished_work_seconds` and `workqueue_longest_running_processor_seconds` from the
//! live queue, `workqueue_adds_total` and `workqueue_retries_total` folded across restarts
//! (`super::telemetry`).
//!
//! Labels and buckets follow the profile's controller-runtime: v0.15 (`pkg/metrics/workqueue.go`)
//! labels every series `name` and uses `ExponentialBuckets(10e-9, 10, 10)` (10 ns … 10 s); v0.24
//! (`pkg/internal/metrics/workqueue.go`) labels them `name` and `controller` (both the controller's
//! name, since v0.19), uses `ExponentialBuckets(10e-9, 10, 12)` (10 ns … 1000 s), and gives
//! `workqueue_depth` a `priority` label: empty for client-go's queue, one series per priority
//! seen for the priority queue (`depthWithPriorityMetric`, since v0.21).
//!
//! The two "unfinished work" gauges are what the queue computed at its last 500 ms tick
//! (client-go `util/workqueue/queue.go` `updateUnfinishedWorkLoop`), not recomputed at sample
//! time. Histograms are the live process's: they start empty after a restart, as a scrape of a
//! restarted process shows.

use crate::metrics::names;
use crate::scenario::Profile;
use crate::workqueue::QueueMetrics;

use super::registry::{metric_key, SlottedKey};
use super::telemetry::Telemetry;
use super::telemetry::CONTROLLER_NAME;
use super::workqueue::WorkQueue;

/// Buckets of the duration histograms in controller-runtime v0.15: the first 10 of the 12 the
/// queue keeps (`ExponentialBuckets(10e-9, 10, 10)`).
const SEED_DURATION_BUCKETS: usize = 10;

/// The `name`/`controller` labels of the `workqueue_*` series, sorted by key.
pub(super) fn queue_labels(profile: Profile) -> Vec<(&'static str, &'static str)> {
    match profile {
        Profile::Seed => vec![("name", CONTROLLER_NAME)],
        Profile::Modern => vec![("controller", CONTROLLER_NAME), ("name", CONTROLLER_NAME)],
    }
}

/// The keys of the `workqueue_*` series with the profile's labels, built once per run (a run's
/// profile never changes): the sampler sets them every simulated second.
#[derive(Clone, Debug)]
pub(super) struct QueueKeys {
    /// `workqueue_adds_total`.
    pub(super) adds: SlottedKey,
    /// `workqueue_retries_total`.
    pub(super) retries: SlottedKey,
    /// `workqueue_depth` of client-go's queue (the priority queue's depth has a series per
    /// priority, [`depth_series`]).
    depth: String,
    /// The gauges of the live queue, in the order they are set.
    gauges: [String; 2],
    /// The duration histograms of the live queue.
    histograms: [String; 2],
}

impl QueueKeys {
    /// The keys of `profile`.
    pub(super) fn new(profile: Profile) -> QueueKeys {
        let labels = queue_labels(profile);
        let key = |name| metric_key(name, &labels);
        QueueKeys {
            adds: SlottedKey::new(key(names::WORKQUEUE_ADDS_TOTAL)),
            retries: SlottedKey::new(key(names::WORKQUEUE_RETRIES_TOTAL)),
            depth: depth_key(profile, ""),
            gauges: [
                key(names::WORKQUEUE_UNFINISHED_WORK_SECONDS),
                key(names::WORKQUEUE_LONGEST_RUNNING_PROCESSOR_SECONDS),
            ],
            histograms: [
                key(names::WORKQUEUE_QUEUE_DURATION_SECONDS),
                key(names::WORKQUEUE_WORK_DURATION_SECONDS),
            ],
        }
    }
}

/// The `workqueue_depth` series: `(key, value)`; the priority queue has none until a priority
/// is first used.
fn depth_series(profile: Profile, priority_queue: bool, m: &QueueMetrics) -> Vec<(String, f64)> {
    if !depth_by_priority(profile, priority_queue) {
        return vec![(depth_key(profile, ""), m.depth.value())];
    }
    m.depth_by_priority
        .iter()
        .map(|(p, g)| (depth_key(profile, &p.to_string()), g.value()))
        .collect()
}

/// Whether `workqueue_depth` has a series per priority: the priority queue's, since v0.21.
fn depth_by_priority(profile: Profile, priority_queue: bool) -> bool {
    profile == Profile::Modern && priority_queue
}

/// The key of `workqueue_depth` in `profile`, of the series of `priority` where the profile
/// labels one (empty for client-go's queue).
fn depth_key(profile: Profile, priority: &str) -> String {
    let mut labels = queue_labels(profile);
    if profile == Profile::Modern {
        labels.push(("priority", priority));
    }
    metric_key(names::WORKQUEUE_DEPTH, &labels)
}

impl Telemetry {
    /// Copies the live queue's gauges and histograms into the registry; while no process runs
    /// (`queue` is none), the gauges read 0.
    pub(super) fn export_queue_metrics(&mut self, profile: Profile, queue: Option<&WorkQueue>) {
        let Some(queue) = queue else {
            self.reg.zero_gauges("workqueue_");
            return;
        };
        let m = queue.metrics();
        if depth_by_priority(profile, queue.is_priority()) {
            for (key, value) in depth_series(profile, true, m) {
                self.reg.set(&key, value);
            }
        } else {
            self.reg.set(&self.queue_keys.depth, m.depth.value());
        }
        let gauges = [
            m.unfinished_work_seconds.value(),
            m.longest_running_processor_seconds.value(),
        ];
        for (key, value) in self.queue_keys.gauges.iter().zip(gauges) {
            self.reg.set(key, value);
        }
        let histograms = [&m.queue_duration_seconds, &m.work_duration_seconds];
        let buckets = match profile {
            Profile::Seed => SEED_DURATION_BUCKETS,
            Profile::Modern => usize::MAX,
        };
        for (key, h) in self.queue_keys.histograms.iter().zip(histograms) {
            self.reg.set_histogram_first_buckets(key, h, buckets);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v0_15_labels_the_depth_by_name_only() {
        // controller-runtime v0.15 pkg/metrics/workqueue.go
        let m = QueueMetrics::default();
        let keys: Vec<String> = depth_series(Profile::Seed, false, &m)
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(keys, ["workqueue_depth{name=\"flywheel\"}"]);
    }

    #[test]
    fn v0_24_labels_the_depth_by_controller_name_and_priority() {
        // controller-runtime v0.24 pkg/internal/metrics/workqueue.go: client-go's queue has an
        // empty priority, the priority queue one series per priority seen.
        let mut m = QueueMetrics::default();
        m.depth.set(3.0);
        let classic = depth_series(Profile::Modern, false, &m);
        let want = "workqueue_depth{controller=\"flywheel\",name=\"flywheel\",priority=\"\"}";
        assert_eq!(classic, [(want.to_owned(), 3.0)]);
        assert_eq!(depth_series(Profile::Modern, true, &m), []);
        m.depth_by_priority.get_or_default(-100).set(2.0);
        m.depth_by_priority.get_or_default(0).set(1.0);
        let by_priority = depth_series(Profile::Modern, true, &m);
        let key = |p| {
            format!("workqueue_depth{{controller=\"flywheel\",name=\"flywheel\",priority=\"{p}\"}}")
        };
        assert_eq!(by_priority, [(key(-100), 2.0), (key(0), 1.0)]);
    }

    #[test]
    fn v0_15_histograms_end_at_ten_seconds_and_keep_count_and_sum() {
        let mut h = QueueMetrics::default().queue_duration_seconds;
        h.observe(0.5);
        h.observe(100.0);
        let seed = h.first_buckets(SEED_DURATION_BUCKETS);
        assert!((seed.upper_bounds()[9] - 10.0).abs() < 1e-9);
        assert_eq!((seed.count(), seed.cumulative_counts()[9]), (2, 1));
        assert_eq!(seed.sum(), 100.5);
    }
}
