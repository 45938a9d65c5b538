//! Metrics with upstream names, sampled into series, and the process's memory accounting.

use std::time::Duration;

use crate::error::ConfigError;
use crate::metrics::{names, Histogram};
use crate::process::HeapOwner;
use crate::sim::Context;

use crate::controller::result::{initial_counters, Handled};
use crate::scenario::Profile;

use super::metric_keys::{Fixed, MetricKeys};
use super::queue_metrics::QueueKeys;
use super::registry::{metric_key, Registry};
use super::series::SeriesSet;
use super::worker::WorkerTotals;
use super::workqueue::WorkQueue;
use super::{Cluster, Ev, SAMPLE_INTERVAL};

pub use crate::metrics::names::CONTROLLER_NAME;

/// The key of client-go's retries after a 429 answer ([`names::CLIENT_REQUEST_RETRIES_TOTAL`]).
pub const RETRIES_429: &str = "rest_client_request_retries_total{code=\"429\"}";

/// A run's registry with the series the controller creates at zero when it starts
/// (controller-runtime `pkg/internal/controller/controller.go` `initMetrics`).
fn initial_registry(profile: Profile) -> Registry {
    let mut reg = Registry::default();
    for (name, result) in initial_counters(profile) {
        let key = if result.is_empty() {
            metric_key(name, &[("controller", CONTROLLER_NAME)])
        } else {
            metric_key(name, &[("controller", CONTROLLER_NAME), ("result", result)])
        };
        reg.inc(&key, 0.0);
    }
    reg
}

/// Heap bytes per workqueue entry (the key string, map and heap slots).
const QUEUE_ENTRY_BYTES: u64 = 192;

/// controller-runtime's reconcile-time buckets (`pkg/internal/controller/metrics/metrics.go`).
fn reconcile_buckets() -> Result<Histogram, ConfigError> {
    let mut b = vec![0.005, 0.01, 0.025, 0.05];
    b.extend((2..=10).map(|i| f64::from(i) * 0.05));
    b.extend((6..=10).map(|i| f64::from(i) * 0.1));
    b.extend([
        1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0,
    ]);
    b.extend([15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 60.0]);
    Histogram::new(b)
}

/// client-go's rate-limiter latency buckets (`rest_client_rate_limiter_duration_seconds`).
fn client_wait_buckets() -> Result<Histogram, ConfigError> {
    let b = vec![
        0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0,
    ];
    Histogram::new(b)
}

/// The run's metrics: the registry the model writes, the series sampled from it, and the
/// workqueue totals of the running process last folded into the registry.
#[derive(Clone)]
pub(super) struct Telemetry {
    /// The metrics, by Prometheus key.
    pub(super) reg: Registry,
    /// Every metric sampled once per [`SAMPLE_INTERVAL`].
    pub(super) series: SeriesSet,
    /// The running process's workqueue `(adds, retries)` at the last fold.
    last_queue_totals: (f64, f64),
    /// The keys of the counters bumped on every request and reconcile, built once.
    keys: MetricKeys,
    /// The keys of the workqueue's series, built once.
    pub(super) queue_keys: QueueKeys,
}

impl Telemetry {
    /// The metrics of a run of `profile` before its first event.
    pub(super) fn new(profile: Profile) -> Telemetry {
        Telemetry {
            reg: initial_registry(profile),
            series: SeriesSet::default(),
            last_queue_totals: (0.0, 0.0),
            keys: MetricKeys::default(),
            queue_keys: QueueKeys::new(profile),
        }
    }

    /// Adds one to counter `metric`.
    pub(super) fn count(&mut self, metric: Fixed) {
        let key = self.keys.fixed(metric);
        self.reg.inc_at(key, 1.0);
    }

    /// The value of counter `metric`.
    pub(super) fn fixed_count(&self, metric: Fixed) -> f64 {
        self.reg.counter_at(self.keys.fixed_key(metric))
    }

    /// Counts an answered request (`apiserver_request_total{code,verb}`).
    pub(super) fn count_request(&mut self, verb: &'static str, code: u16) {
        let key = self.keys.request(verb, code);
        self.reg.inc_at(key, 1.0);
    }

    /// Records a client-side throttling wait.
    pub(super) fn observe_client_wait(&mut self, wait: Duration) {
        let key = self.keys.fixed(Fixed::ClientRateLimiterDuration);
        self.reg
            .observe_at(key, wait.as_secs_f64(), client_wait_buckets);
    }

    /// Records one finished reconcile: `controller_runtime_reconcile_total{result}`, the error,
    /// terminal-error and panic counters [`reconcile_handler`](crate::controller::reconcile_handler)
    /// asks for, and the reconcile time (controller-runtime `pkg/internal/controller/controller.go`
    /// `reconcileHandler`, `pkg/internal/controller/metrics/metrics.go`).
    pub(super) fn record_reconcile(&mut self, handled: &Handled, took: Duration) {
        let c = CONTROLLER_NAME;
        if let Some(result) = handled.result_label {
            let key = self.keys.reconcile_result(c, result);
            self.reg.inc_at(key, 1.0);
        }
        let counters = [
            (handled.error, names::RECONCILE_ERRORS_TOTAL),
            (
                handled.terminal_error,
                names::TERMINAL_RECONCILE_ERRORS_TOTAL,
            ),
            (handled.panic, names::RECONCILE_PANICS_TOTAL),
        ];
        for (bump, name) in counters {
            if bump {
                let key = self.keys.per_controller(name, c);
                self.reg.inc_at(key, 1.0);
            }
        }
        let key = self.keys.per_controller(names::RECONCILE_TIME_SECONDS, c);
        self.reg
            .observe_at(key, took.as_secs_f64(), reconcile_buckets);
    }

    /// Workqueue counters live in the process and restart from zero with it; the run's totals
    /// add each incarnation's increase (what Prometheus `increase()` does across resets).
    fn fold_queue_counters(&mut self, queue: Option<&WorkQueue>) {
        let (adds, retries) = match queue {
            Some(q) => (
                q.metrics().adds_total.value() as f64,
                q.metrics().retries_total.value() as f64,
            ),
            None => (0.0, 0.0),
        };
        let (last_adds, last_retries) = self.last_queue_totals;
        let d_adds = if adds >= last_adds {
            adds - last_adds
        } else {
            adds
        };
        let d_retries = if retries >= last_retries {
            retries - last_retries
        } else {
            retries
        };
        self.reg.inc_at(&mut self.queue_keys.adds, d_adds);
        self.reg.inc_at(&mut self.queue_keys.retries, d_retries);
        self.last_queue_totals = (adds, retries);
    }

    /// Folds the running process's queue counters in and copies its queue gauges.
    pub(super) fn update_queue_metrics(&mut self, profile: Profile, queue: Option<&WorkQueue>) {
        self.fold_queue_counters(queue);
        self.export_queue_metrics(profile, queue);
    }
}

impl Cluster {
    /// Brings the heap's per-owner totals in line with what the operator holds, then lets the
    /// GC run and the kernel judge the container's RSS against its limit.
    pub(super) fn account_memory(&mut self, ctx: &mut Context<'_, Ev>) {
        let now = ctx.now();
        let Some(op) = self.operator.running.as_ref() else {
            return;
        };
        // running totals: this runs after every event
        let totals = op.worker_totals;
        debug_assert_eq!(totals, WorkerTotals::scan(op.workers.as_slice()));
        let incarnation = Some(op.incarnation);
        let event_bytes = self.scenario.objects.size_bytes;
        let (pod_store, watch_buffers, goroutines) =
            self.work
                .memory(incarnation, event_bytes, totals.hung_goroutines);
        let Some(op) = self.operator.running.as_ref() else {
            return;
        };
        let (active, list_copies, inflight) = (totals.active, totals.list_bytes, totals.held_bytes);
        let queue_entries = (op.queue.len() + op.queue.waiting_len() + active) as u64;
        let owners = [
            (
                HeapOwner::InformerStore,
                op.informer.store_bytes()
                    + op.informer.reflector.temporary_store_bytes()
                    + pod_store,
            ),
            (HeapOwner::ListCopies, list_copies),
            (HeapOwner::WatchBuffers, watch_buffers),
            (HeapOwner::FifoDeltas, op.informer.fifo_bytes()),
            (HeapOwner::HandlerBuffers, op.informer.buffer_bytes()),
            (
                HeapOwner::WorkqueueEntries,
                queue_entries * QUEUE_ENTRY_BYTES,
            ),
            (HeapOwner::InflightReconciles, inflight),
        ];
        let workers = op.workers.len() as u64 + goroutines;
        self.operator.process.set_owners(&owners, workers, now);
        if let Some(restart_at) = self.operator.process.check_oom(now) {
            self.telemetry.count(Fixed::OomKills);
            self.container_died(ctx, restart_at, crate::sim::TerminatedReason::OOMKilled);
        }
    }

    /// Samples every metric into its series and schedules the next sample.
    pub(super) fn sample(&mut self, ctx: &mut Context<'_, Ev>) {
        self.update_gauges(ctx.now());
        let t = ctx.now().as_secs_f64();
        let telemetry = &mut self.telemetry;
        telemetry.series.sample_registry(t, &telemetry.reg);
        ctx.schedule_in(SAMPLE_INTERVAL, Ev::Sample);
    }

    /// Refreshes gauges and the run-cumulative copies of per-process counters.
    pub(super) fn update_gauges(&mut self, now: crate::time::SimTime) {
        self.telemetry.reg.begin_gauge_pass();
        let queue = self.operator.running.as_ref().map(|op| &op.queue);
        self.telemetry
            .update_queue_metrics(self.scenario.profile, queue);
        let (fifo, buffer, active) = match &self.operator.running {
            Some(op) => (
                op.informer.pending_deltas() as f64,
                op.informer.listener.queued_len() as f64,
                op.active_workers() as f64,
            ),
            None => (0.0, 0.0, 0.0),
        };
        self.telemetry.reg.set_static(names::FIFO_ITEMS, fifo);
        self.telemetry
            .reg
            .set_static(names::HANDLER_BUFFER_LENGTH, buffer);
        self.telemetry.reg.set_static(names::ACTIVE_WORKERS, active);
        self.telemetry
            .reg
            .set_static(names::ETCD_REVISION, self.api.server.revision() as f64);
        self.telemetry.reg.set_static(
            names::OBJECTS_TERMINATING,
            self.api.server.terminating() as f64,
        );
        self.telemetry.reg.set_static(
            names::NAMESPACES_TERMINATING,
            self.api.server.namespaces_terminating() as f64,
        );
        let running = self.operator.running.is_some();
        let reg = &mut self.telemetry.reg;
        self.work.gauges(&self.scenario, running, reg, now);
        let reg = &mut self.telemetry.reg;
        self.operator
            .process
            .gauges(now, |key, value| reg.set_static(key, value));
    }
}
