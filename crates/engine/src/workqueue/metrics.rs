//! Workqueue metrics (client-go `util/workqueue/metrics.go`; names from controller-runtime
//! `pkg/metrics/workqueue.go`).
//!
//! Every queue owns a [`QueueMetrics`] snapshot that a recorder keeps up to date with the same
//! hooks as upstream's `defaultQueueMetrics`: `add` when an item becomes dirty (or ready, for the
//! priority queue), `get` when it is handed out, `done` when the worker finishes, `retry` for every
//! delayed add, and a 500 ms ticker for the two "unfinished work" gauges. Upstream records metrics
//! only for *named* queues; here every queue records them (there is no registry to skip).

use std::hash::Hash;
use std::time::Duration;

use serde::Serialize;

use crate::metrics::{exponential_series, Counter, Gauge, Histogram};
use crate::time::{duration_nanos, SimTime};
use crate::vec_map::VecMap;
use crate::workqueue::set::{hash_of, ItemMap};

/// How often the `unfinished_work_seconds` and `longest_running_processor_seconds` gauges are
/// recomputed (client-go `util/workqueue/queue.go` `defaultUnfinishedWorkUpdatePeriod`; the same
/// period in controller-runtime `pkg/controller/priorityqueue/priorityqueue.go`).
pub const UNFINISHED_WORK_UPDATE_PERIOD: Duration = Duration::from_millis(500);

/// The histogram buckets of `workqueue_queue_duration_seconds` and
/// `workqueue_work_duration_seconds`: `ExponentialBuckets(1e-8, 10, 12)`, i.e. 10 ns … 1000 s
/// (controller-runtime `pkg/metrics/workqueue.go`).
pub fn duration_buckets_seconds() -> Vec<f64> {
    exponential_series(1e-8, 10.0, 12)
}

/// A snapshot of one queue's metrics, with the meanings of client-go `util/workqueue/metrics.go`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QueueMetrics {
    /// `workqueue_depth`: items added (made dirty or ready) and not yet handed out. Counts items
    /// parked while being processed, unlike [`crate::workqueue::Queue::len`].
    pub depth: Gauge,
    /// `workqueue_depth{priority}`: the depth split by priority, kept by the priority queue only
    /// (controller-runtime `pkg/controller/priorityqueue/metrics.go` `depthWithPriority`). A
    /// priority appears once it has been used and stays, possibly at zero. Empty for the classic
    /// queues.
    pub depth_by_priority: VecMap<i32, Gauge>,
    /// `workqueue_adds_total`: adds that made an item dirty (classic) or ready (priority queue).
    pub adds_total: Counter,
    /// `workqueue_queue_duration_seconds`: time from the first add to being handed out.
    pub queue_duration_seconds: Histogram,
    /// `workqueue_work_duration_seconds`: time from being handed out to `done`.
    pub work_duration_seconds: Histogram,
    /// `workqueue_retries_total`: delayed adds (every `AddAfter` for the delaying queue; only
    /// positive delays for the priority queue).
    pub retries_total: Counter,
    /// `workqueue_unfinished_work_seconds`: at the last 500 ms tick, the summed age of all
    /// items being processed.
    pub unfinished_work_seconds: Gauge,
    /// `workqueue_longest_running_processor_seconds`: at the last 500 ms tick, the age of the
    /// oldest item being processed.
    pub longest_running_processor_seconds: Gauge,
}

impl Default for QueueMetrics {
    fn default() -> QueueMetrics {
        QueueMetrics {
            depth: Gauge::new(),
            depth_by_priority: VecMap::new(),
            adds_total: Counter::new(),
            queue_duration_seconds: Histogram::from_valid_bounds(duration_buckets_seconds()),
            work_duration_seconds: Histogram::from_valid_bounds(duration_buckets_seconds()),
            retries_total: Counter::new(),
            unfinished_work_seconds: Gauge::new(),
            longest_running_processor_seconds: Gauge::new(),
        }
    }
}

/// Keeps a [`QueueMetrics`] up to date and owns the queue's clock (client-go
/// `util/workqueue/metrics.go` `defaultQueueMetrics`, controller-runtime
/// `pkg/controller/priorityqueue/metrics.go`).
#[derive(Clone, Debug)]
pub(crate) struct MetricsRecorder<T> {
    snapshot: QueueMetrics,
    add_times: ItemMap<T, SimTime>,
    /// Looked up by hash; summed in item order (as the ordered map it replaces was), so the
    /// gauge's floating-point sum does not depend on the hasher.
    processing_start_times: ItemMap<T, SimTime>,
    now: SimTime,
    next_update_at: SimTime,
    stopped: bool,
}

impl<T: Ord + Clone + Hash> MetricsRecorder<T> {
    /// A recorder whose clock starts at zero, with its first unfinished-work tick 500 ms later.
    pub(crate) fn new() -> MetricsRecorder<T> {
        MetricsRecorder {
            snapshot: QueueMetrics::default(),
            add_times: ItemMap::default(),
            processing_start_times: ItemMap::default(),
            now: SimTime::ZERO,
            next_update_at: SimTime::ZERO + UNFINISHED_WORK_UPDATE_PERIOD,
            stopped: false,
        }
    }

    /// The current metrics.
    pub(crate) fn snapshot(&self) -> &QueueMetrics {
        &self.snapshot
    }

    /// The queue's clock.
    pub(crate) fn now(&self) -> SimTime {
        self.now
    }

    /// Moves the clock forward (an earlier instant is ignored) and runs the unfinished-work
    /// ticks that fell due, the last one at the latest multiple of 500 ms not after `now`.
    #[inline]
    pub(crate) fn set_now(&mut self, now: SimTime) {
        if now <= self.now {
            return;
        }
        self.now = now;
        if self.stopped || now < self.next_update_at {
            return;
        }
        self.tick_unfinished_work(now);
    }

    /// [`MetricsRecorder::set_now`]'s ticks, once one fell due (every 500 ms at most).
    #[inline(never)]
    fn tick_unfinished_work(&mut self, now: SimTime) {
        let period_nanos = duration_nanos(UNFINISHED_WORK_UPDATE_PERIOD);
        let missed = (now.as_nanos() - self.next_update_at.as_nanos()) / period_nanos;
        let tick = SimTime::from_nanos(
            self.next_update_at
                .as_nanos()
                .saturating_add(missed.saturating_mul(period_nanos)),
        );
        self.update_unfinished_work(tick);
        self.next_update_at = tick + UNFINISHED_WORK_UPDATE_PERIOD;
    }

    /// Stops the unfinished-work ticker, as upstream does on shutdown.
    pub(crate) fn stop(&mut self) {
        self.stopped = true;
    }

    /// `add`: adds and depth go up; the add time is kept only if the item has none yet.
    pub(crate) fn add(&mut self, item: &T, priority: Option<i32>) {
        self.add_keeping_time_elsewhere(priority);
        if !self.add_times.contains_key(item) {
            self.add_times.insert(item.clone(), self.now);
        }
    }

    /// `add` for a queue that keeps the add times itself (see [`MetricsRecorder::get_added_at`]):
    /// adds and depth go up.
    pub(crate) fn add_keeping_time_elsewhere(&mut self, priority: Option<i32>) {
        self.snapshot.adds_total.inc();
        self.snapshot.depth.inc();
        if let Some(p) = priority {
            self.snapshot.depth_by_priority.get_or_default(p).inc();
        }
    }

    /// `get`: depth goes down, processing starts now, the queue duration is observed.
    pub(crate) fn get(&mut self, item: &T, priority: Option<i32>) {
        let added = self.add_times.remove(item);
        self.get_added_at(item, added, priority);
    }

    /// `get` for an item whose add time (`addTimes[item]`, if any) the queue kept itself.
    pub(crate) fn get_added_at(&mut self, item: &T, added: Option<SimTime>, priority: Option<i32>) {
        self.get_added_at_hashed(hash_of(item), item, added, priority);
    }

    /// [`MetricsRecorder::get_added_at`] of an item whose hash ([`hash_of`]) is `hash`.
    pub(crate) fn get_added_at_hashed(
        &mut self,
        hash: u64,
        item: &T,
        added: Option<SimTime>,
        priority: Option<i32>,
    ) {
        self.snapshot.depth.dec();
        if let Some(p) = priority {
            self.snapshot.depth_by_priority.get_or_default(p).dec();
        }
        self.processing_start_times
            .insert_hashed(hash, item.clone(), self.now);
        if let Some(added) = added {
            let waited = self.now.saturating_since(added).as_secs_f64();
            self.snapshot.queue_duration_seconds.observe(waited);
        }
    }

    /// `done`: the work duration is observed if the item was being processed. Says whether it
    /// was.
    pub(crate) fn done(&mut self, item: &T) -> bool {
        self.done_hashed(hash_of(item), item)
    }

    /// [`MetricsRecorder::done`] of an item whose hash ([`hash_of`]) is `hash`.
    pub(crate) fn done_hashed(&mut self, hash: u64, item: &T) -> bool {
        let Some(started) = self.processing_start_times.remove_hashed(hash, item) else {
            return false;
        };
        let worked = self.now.saturating_since(started).as_secs_f64();
        self.snapshot.work_duration_seconds.observe(worked);
        true
    }

    /// Whether `item` has been handed out (`get`) and is not yet `done`.
    pub(crate) fn is_processing(&self, item: &T) -> bool {
        self.is_processing_hashed(hash_of(item), item)
    }

    /// [`MetricsRecorder::is_processing`] of an item whose hash ([`hash_of`]) is `hash`.
    pub(crate) fn is_processing_hashed(&self, hash: u64, item: &T) -> bool {
        self.processing_start_times.get_hashed(hash, item).is_some()
    }

    /// The number of items handed out and not yet done.
    pub(crate) fn processing_len(&self) -> usize {
        self.processing_start_times.len()
    }

    /// `retry`: one more delayed add.
    pub(crate) fn retry(&mut self) {
        self.snapshot.retries_total.inc();
    }

    /// `updateDepthWithPriorityMetric`: a ready item moved from one priority to another.
    pub(crate) fn move_depth(&mut self, old_priority: i32, new_priority: i32) {
        let depths = &mut self.snapshot.depth_by_priority;
        depths.get_or_default(old_priority).dec();
        depths.get_or_default(new_priority).inc();
    }

    /// `updateUnfinishedWork` evaluated at `at`.
    fn update_unfinished_work(&mut self, at: SimTime) {
        if self.processing_start_times.len() <= 1 {
            // one item or none (a single worker's queue): no order to keep, nothing to collect
            let age = self
                .processing_start_times
                .iter()
                .next()
                .map_or(0.0, |(_, &started)| {
                    at.saturating_since(started).as_secs_f64()
                });
            self.snapshot.unfinished_work_seconds.set(age);
            self.snapshot.longest_running_processor_seconds.set(age);
            return;
        }
        // Sorting the items themselves shares `[T]::sort` with the engine's other sorts of the
        // same type (the keys of a relist); sorting (item, time) pairs would compile a sort of
        // its own. The items are distinct: stable or not, the order is the same.
        let mut items: Vec<T> = self
            .processing_start_times
            .iter()
            .map(|(item, _)| item.clone())
            .collect();
        items.sort();
        let mut total = 0.0;
        let mut oldest: f64 = 0.0;
        for item in &items {
            let Some(&started) = self.processing_start_times.get(item) else {
                continue;
            };
            let age = at.saturating_since(started).as_secs_f64();
            total += age;
            oldest = oldest.max(age);
        }
        self.snapshot.unfinished_work_seconds.set(total);
        self.snapshot.longest_running_processor_seconds.set(oldest);
    }
}

impl<T: Clone + Hash + Eq + 'static> crate::sim::large::LargeParts for MetricsRecorder<T> {
    /// The add and processing start times, one per item.
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn crate::sim::large::Large>) {
        out.push(&mut self.add_times);
        out.push(&mut self.processing_start_times);
    }
}
