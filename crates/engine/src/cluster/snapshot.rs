//! What the page reads: a snapshot of every stage's counts, and the run report.
//!
//! ```text
//!  Cluster ──snapshot(now)──▶ Snapshot { pod, operator { phase, reflector, queue… }, counters }
//!     │                                  ▲ running counts read from the registry
//!     └── Registry (names::*) ───────────┘
//! ```

use serde::Serialize;

use crate::informer::reflector::ReflectorState;
use crate::metrics::names;
use crate::process::TerminationReason;
use crate::time::SimTime;
use crate::vec_map::VecMap;

use super::memory::PodState;
use super::metric_keys::Fixed;
use super::report::RunReport;
use super::Cluster;

/// Where a running operator is in its start-up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum OperatorPhase {
    /// The container runs but the controller has not started its workers: its informer lists,
    /// or the workers wait for the cache to sync (controller-runtime `Controller.Start`).
    #[default]
    Starting,
    /// The workers run but the reflector lists every object again (a relist).
    Relisting,
    /// The workers run and the reflector watches (or waits to).
    Running,
}

/// The operator's pipeline, stage by stage.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct OperatorSnapshot {
    /// Container starts so far.
    pub incarnation: u64,
    /// Where the operator is in its start-up.
    pub phase: OperatorPhase,
    /// The reflector's state (listing, watching, backing off, …).
    pub reflector_state: ReflectorState,
    /// Whether a watch is open.
    pub watching: bool,
    /// Deltas waiting in the FIFO.
    pub fifo_deltas: u64,
    /// Keys (DeltaFIFO) or items (RealFIFO) waiting in the FIFO.
    pub fifo_len: u64,
    /// Objects in the informer cache.
    pub cache_objects: u64,
    /// Notifications waiting for the event handler.
    pub handler_buffer: u64,
    /// Ready keys in the workqueue.
    pub queue_ready: u64,
    /// Keys waiting for a backoff or `RequeueAfter`.
    pub queue_waiting: u64,
    /// Busy workers.
    pub workers_busy: u64,
    /// All workers.
    pub workers: u64,
    /// Whether the informer has synced its initial list.
    pub synced: bool,
    /// Whether the controller has started its workers (after the cache synced).
    pub workers_started: bool,
}

impl Default for OperatorSnapshot {
    fn default() -> OperatorSnapshot {
        OperatorSnapshot {
            incarnation: 0,
            phase: OperatorPhase::Starting,
            reflector_state: ReflectorState::Idle,
            watching: false,
            fifo_deltas: 0,
            fifo_len: 0,
            cache_objects: 0,
            handler_buffer: 0,
            queue_ready: 0,
            queue_waiting: 0,
            workers_busy: 0,
            workers: 0,
            synced: false,
            workers_started: false,
        }
    }
}

impl OperatorSnapshot {
    /// Whether nothing is queued, waiting or being reconciled.
    pub fn is_idle(&self) -> bool {
        self.queue_ready + self.queue_waiting + self.workers_busy == 0
    }

    /// Deltas and notifications the informer has not handed to the workqueue yet.
    pub fn informer_backlog(&self) -> u64 {
        self.fifo_deltas + self.handler_buffer
    }

    /// Whether every worker is busy.
    pub fn all_workers_busy(&self) -> bool {
        self.workers > 0 && self.workers_busy == self.workers
    }
}

/// Running counts of what the page would otherwise count by scanning the trace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Counts {
    /// Enqueues caused by the operator's own writes ([`names::SELF_TRIGGERED_ENQUEUES_TOTAL`]).
    pub self_triggered_enqueues: u64,
    /// Watch events a predicate dropped ([`names::PREDICATE_DROPPED_TOTAL`]).
    pub predicate_drops: u64,
    /// Requests client-go retried after a 429 answer ([`names::CLIENT_REQUEST_RETRIES_TOTAL`]).
    pub retries_429: u64,
    /// OOM kills of the operator's container ([`names::OOM_KILLS_TOTAL`]).
    pub oom_kills: u64,
}

/// The whole cluster at one instant.
#[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct Snapshot {
    /// Virtual time in seconds.
    pub time_s: f64,
    /// The etcd revision (the latest resourceVersion).
    pub revision: u64,
    /// Custom resources stored.
    pub objects: u64,
    /// Objects with a deletionTimestamp still waiting for finalizers.
    pub terminating: u64,
    /// Requests being processed or queued at the API server.
    pub requests_in_flight: u64,
    /// The operator, when its container runs.
    pub operator: Option<OperatorSnapshot>,
    /// The container's state.
    pub pod_state: PodState,
    /// Why the container last terminated, once it has.
    pub last_exit: Option<TerminationReason>,
    /// Simulated seconds at which the current container's workers started, once they have.
    pub workers_started_s: Option<f64>,
    /// Running counts.
    pub counts: Counts,
    /// Container restarts.
    pub restarts: u64,
    /// Seconds until the next restart while backing off.
    pub restart_in_s: Option<f64>,
    /// Go heap in use, bytes.
    pub heap_bytes: u64,
    /// Resident set size, bytes.
    pub rss_bytes: u64,
    /// The container's memory limit, bytes.
    pub memory_limit_bytes: Option<u64>,
}

impl Cluster {
    /// The snapshot at `now`.
    pub fn snapshot(&self, now: SimTime) -> Snapshot {
        let operator = self.operator_snapshot();
        let pod = self.operator.process.pod_view(now);
        Snapshot {
            time_s: now.as_secs_f64(),
            revision: self.api.server.revision(),
            objects: self.api.server.object_count() as u64,
            terminating: self.api.server.terminating() as u64,
            requests_in_flight: self.api.pending.len() as u64,
            pod_state: pod.state,
            last_exit: pod.last_exit,
            workers_started_s: self.workers_started_s(operator.as_ref()),
            counts: self.counts(),
            restarts: pod.restarts,
            restart_in_s: pod.restart_in_s,
            heap_bytes: pod.heap_bytes,
            rss_bytes: pod.rss_bytes,
            memory_limit_bytes: pod.memory_limit_bytes,
            operator,
        }
    }

    /// The running operator's part of the snapshot.
    pub(super) fn operator_snapshot(&self) -> Option<OperatorSnapshot> {
        self.operator.running.as_ref().map(|op| OperatorSnapshot {
            incarnation: op.incarnation,
            phase: phase(op.workers_started, op.informer.reflector.state()),
            reflector_state: *op.informer.reflector.state(),
            watching: op.informer.watch.is_some(),
            fifo_deltas: op.informer.pending_deltas() as u64,
            fifo_len: op.informer.fifo_len() as u64,
            cache_objects: op.informer.indexer.len() as u64,
            handler_buffer: op.informer.listener.queued_len() as u64,
            queue_ready: op.queue.len() as u64,
            queue_waiting: op.queue.waiting_len() as u64,
            workers_busy: op.active_workers() as u64,
            workers: op.workers.len() as u64,
            synced: op.informer.has_synced(),
            workers_started: op.workers_started,
        })
    }

    /// When the current container's workers started, once they have.
    pub(super) fn workers_started_s(&self, operator: Option<&OperatorSnapshot>) -> Option<f64> {
        operator
            .filter(|o| o.workers_started)
            .map(|_| self.telemetry.reg.gauge(names::WORKERS_STARTED_SECONDS))
    }

    /// The running counts, read from the registry.
    pub fn counts(&self) -> Counts {
        // each is a fixed key: read through its slot, as the verdict reads two of them
        let count = |metric: Fixed| self.telemetry.fixed_count(metric) as u64;
        Counts {
            self_triggered_enqueues: count(Fixed::SelfTriggeredEnqueues),
            predicate_drops: count(Fixed::PredicateDropped),
            retries_429: count(Fixed::Retries429),
            oom_kills: count(Fixed::OomKills),
        }
    }

    /// The run report at `now` (`trace_hash` absent when the run kept none).
    pub fn report(
        &mut self,
        now: SimTime,
        events: u64,
        seed: u64,
        trace_hash: Option<u64>,
    ) -> RunReport {
        self.update_gauges(now);
        // inserted one by one (in key order, each at the end): collecting would compile a sort
        // of its own for the pairs
        let mut series = VecMap::new();
        for (k, s) in self.telemetry.series.iter() {
            series.insert(k.clone(), s.points().to_vec());
        }
        RunReport {
            scenario: self.scenario.name.clone(),
            profile: self.scenario.profile.as_str().to_owned(),
            seed,
            sim_seconds: now.as_secs_f64(),
            events,
            metrics: self.telemetry.reg.flatten(),
            series,
            trace_hash: trace_hash.map_or_else(String::new, |h| format!("{h:016x}")),
            verdict: self.verdict(now),
        }
    }
}

/// The start-up phase of an operator whose workers have (or have not) started.
fn phase(workers_started: bool, reflector: &ReflectorState) -> OperatorPhase {
    match (workers_started, reflector) {
        (false, _) => OperatorPhase::Starting,
        (true, ReflectorState::Listing { .. }) => OperatorPhase::Relisting,
        (true, _) => OperatorPhase::Running,
    }
}
