//! What the page reads: a snapshot of every stage's counts, and the run report.

use serde::Serialize;

use crate::time::SimTime;

use super::report::RunReport;
use super::Cluster;

/// The operator's pipeline, stage by stage.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct OperatorSnapshot {
    /// Container starts so far.
    pub incarnation: u64,
    /// The reflector's state (`Listing`, `Watching`, `Backoff`, …).
    pub reflector_state: String,
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
    /// Keys waiting for a backoff or RequeueAfter.
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

/// The whole cluster at one instant.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
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
    /// Container state: `Running`, `CrashLoopBackOff`, or how it terminated (`OOMKilled`,
    /// `Error`).
    pub pod_state: String,
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
        let operator = self.op.as_ref().map(|op| OperatorSnapshot {
            incarnation: op.incarnation,
            reflector_state: op.informer.reflector.state().name().to_owned(),
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
        });
        let pod = self.process.pod_view(now);
        Snapshot {
            time_s: now.as_secs_f64(),
            revision: self.api.revision(),
            objects: self.api.object_count() as u64,
            terminating: self.api.terminating() as u64,
            requests_in_flight: self.pending.len() as u64,
            operator,
            pod_state: pod.state,
            restarts: pod.restarts,
            restart_in_s: pod.restart_in_s,
            heap_bytes: pod.heap_bytes,
            rss_bytes: pod.rss_bytes,
            memory_limit_bytes: pod.memory_limit_bytes,
        }
    }

    /// The run report at `now`.
    pub fn report(&mut self, now: SimTime, events: u64, seed: u64, trace_hash: u64) -> RunReport {
        self.update_gauges(now);
        let series = self
            .series
            .iter()
            .map(|(k, s)| (k.clone(), s.points().to_vec()))
            .collect();
        RunReport {
            scenario: self.scenario.name.clone(),
            profile: self.scenario.profile.as_str().to_owned(),
            seed,
            sim_seconds: now.as_secs_f64(),
            events,
            metrics: self.reg.flatten(),
            series,
            trace_hash: format!("{trace_hash:016x}"),
        }
    }
}
