//! Invariant checkers: properties that hold in every state of every run, whatever the scenario.
//!
//! They only read the cluster (and the trace) and never change it, so a run with checks gives the
//! same trace as one without. [`InvariantChecker::check`] is called between events: by tests and
//! the swarm after every few events, and by debug builds of [`super::run::Run`] every
//! [`DEBUG_CHECK_INTERVAL`] events or so. A broken invariant is recorded as a [`Violation`]; nothing
//! here panics.
//!
//! | invariant | what it says |
//! | --- | --- |
//! | `revision-monotonic` | the etcd revision never goes back |
//! | `object-rv-monotonic` | a key's stored resourceVersion never goes back (also across delete and re-create) |
//! | `cache-rv-monotonic` | a key's cached resourceVersion never goes back within one incarnation |
//! | `cache-not-ahead` | the cache never holds a resourceVersion the server has not issued |
//! | `cache-converges` | once every event is delivered and the FIFO and handler buffer are drained, the cache equals the server |
//! | `one-worker-per-key` | no key is reconciled by two workers at once |
//! | `workqueue-accounting` | `workqueue_adds_total` = handed out + `workqueue_depth` |
//! | `buffer-accounting` | notifications added = handed to the handler + still buffered; an empty buffer or FIFO retains 0 bytes |
//! | `heap-accounting` | the Go heap never frees more than it allocated |
//! | `finalizers` | a stored object with a deletionTimestamp still has finalizers (otherwise it would be gone) |
//! | `watch-no-duplicate` | a watch chain never delivers a resourceVersion twice or out of order |
//! | `watch-no-loss` | a watch chain never skips a write, except across a relist (410 or restart) |

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::apiserver::{Verb, WatchEventType};
use crate::float_text::Shortest;
use crate::key::Key;
use crate::sim::{EventKind, Trace};
use crate::time::SimTime;

use super::Cluster;

/// How often (in handled events) a debug build checks the invariants, at least; the interval
/// grows with the object count so the checks stay a small share of the run.
pub const DEBUG_CHECK_INTERVAL: u64 = 4096;

/// Most violations kept (the count goes on).
pub const MAX_KEPT_VIOLATIONS: usize = 100;

/// A broken invariant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Virtual time of the check that found it.
    pub at: SimTime,
    /// Which invariant (see the module table).
    pub invariant: &'static str,
    /// What was seen.
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.at, self.invariant, self.detail)
    }
}

/// Checks invariants between events and remembers what it needs from earlier checks.
#[derive(Clone, Debug, Default)]
pub struct InvariantChecker {
    violations: Vec<Violation>,
    violation_count: u64,
    checks: u64,
    convergence_checks: u64,
    last_revision: u64,
    object_rvs: BTreeMap<Key, u64>,
    incarnation: Option<u64>,
    cache_rvs: BTreeMap<Key, u64>,
    trace_seen: u64,
    watch: WatchChain,
}

/// What the trace says about the current watch chain (the deliveries since the last relist).
#[derive(Clone, Debug, Default)]
struct WatchChain {
    last_delivered: Option<u64>,
    writes: BTreeSet<u64>,
    /// A watch-list's initial events (the current state, in key order) are being delivered.
    initial_events: bool,
}

impl WatchChain {
    fn reset(&mut self) {
        self.last_delivered = None;
        self.writes.clear();
        self.initial_events = false;
    }

    /// A watch-list starts a new chain; its initial events end with a bookmark at the revision
    /// they stand for (client-go `tools/cache/reflector.go` `watchList`).
    fn start_watch_list(&mut self) {
        self.reset();
        self.initial_events = true;
    }

    /// The initial-events bookmark: the chain goes on from its revision.
    fn end_initial_events(&mut self, rv: u64) {
        self.initial_events = false;
        self.last_delivered = Some(rv);
        self.writes = self.writes.split_off(&(rv + 1));
    }
}

impl InvariantChecker {
    /// A checker that has seen nothing yet.
    pub fn new() -> InvariantChecker {
        InvariantChecker::default()
    }

    /// The violations found so far (the first [`MAX_KEPT_VIOLATIONS`]).
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// How many violations were found in all.
    pub fn violation_count(&self) -> u64 {
        self.violation_count
    }

    /// How many checks ran.
    pub fn checks(&self) -> u64 {
        self.checks
    }

    /// How many checks found the pipeline drained and compared the cache with the server.
    pub fn convergence_checks(&self) -> u64 {
        self.convergence_checks
    }

    fn violate(&mut self, at: SimTime, invariant: &'static str, detail: String) {
        self.violation_count += 1;
        if self.violations.len() < MAX_KEPT_VIOLATIONS {
            self.violations.push(Violation {
                at,
                invariant,
                detail,
            });
        }
    }

    /// Checks every invariant on `cluster` at `now`, reading the trace lines recorded since the
    /// last check.
    pub fn check(&mut self, cluster: &Cluster, trace: &Trace, now: SimTime) {
        self.checks += 1;
        self.check_server(cluster, now);
        self.check_operator(cluster, now);
        self.check_trace(trace, now);
    }

    fn check_server(&mut self, cluster: &Cluster, now: SimTime) {
        let revision = cluster.api.server.revision();
        if revision < self.last_revision {
            let detail = format!("revision went from {} to {revision}", self.last_revision);
            self.violate(now, "revision-monotonic", detail);
        }
        self.last_revision = self.last_revision.max(revision);
        for obj in cluster.api.server.objects() {
            let key = obj.key();
            let rv = obj.resource_version();
            if rv > revision {
                let detail = format!("{key} has rv {rv} above the revision {revision}");
                self.violate(now, "object-rv-monotonic", detail);
            }
            match self.object_rvs.get_mut(&key) {
                Some(last) if rv < *last => {
                    let detail = format!("{key}: rv went from {last} to {rv}");
                    *last = rv;
                    self.violate(now, "object-rv-monotonic", detail);
                }
                Some(last) => *last = rv,
                None => {
                    self.object_rvs.insert(key.clone(), rv);
                }
            }
            let meta = &obj.metadata;
            if meta.deletion_timestamp().is_some() && meta.finalizers().is_empty() {
                let detail = format!("{key} is stored with a deletionTimestamp and no finalizers");
                self.violate(now, "finalizers", detail);
            }
        }
        let errors = cluster.operator.process.heap_accounting_errors();
        if errors > 0 {
            let detail = format!("{errors} frees of more than was allocated");
            self.violate(now, "heap-accounting", detail);
        }
    }

    // One block per operator-side invariant, each reading the same borrowed operator.
    #[allow(clippy::too_many_lines)]
    fn check_operator(&mut self, cluster: &Cluster, now: SimTime) {
        let Some(op) = cluster.operator.running.as_ref() else {
            self.incarnation = None;
            self.cache_rvs.clear();
            return;
        };
        if self.incarnation != Some(op.incarnation) {
            self.incarnation = Some(op.incarnation);
            self.cache_rvs.clear();
        }
        let revision = cluster.api.server.revision();

        // One worker per key.
        let mut busy = BTreeSet::new();
        for job in op.workers.jobs() {
            if !busy.insert(job.key.as_str()) {
                let detail = format!("{} is reconciled by two workers", job.key);
                self.violate(now, "one-worker-per-key", detail);
            }
        }

        // Workqueue: every counted add is either handed out or still counted in the depth.
        let m = op.queue.metrics();
        let adds = m.adds_total.value();
        let handed_out = m.queue_duration_seconds.count();
        let depth = m.depth.value();
        if depth < 0.0 || (adds as f64 - handed_out as f64 - depth).abs() > 0.5 {
            let detail = format!(
                "adds {adds} != handed out {handed_out} + depth {}",
                Shortest(depth)
            );
            self.violate(now, "workqueue-accounting", detail);
        }

        // Informer FIFO and handler buffer.
        let inf = &op.informer;
        let l = &inf.listener;
        if l.added_total() != l.delivered_total() + l.queued_len() as u64 {
            let detail = format!(
                "added {} != delivered {} + buffered {}",
                l.added_total(),
                l.delivered_total(),
                l.queued_len()
            );
            self.violate(now, "buffer-accounting", detail);
        }
        if l.queued_len() == 0 && inf.buffer_bytes() != 0 {
            let detail = format!("empty handler buffer retains {} bytes", inf.buffer_bytes());
            self.violate(now, "buffer-accounting", detail);
        }
        if inf.pending_deltas() == 0 && inf.fifo_bytes() != 0 {
            let detail = format!("empty FIFO retains {} bytes", inf.fifo_bytes());
            self.violate(now, "buffer-accounting", detail);
        }

        // The cache: never ahead of the server, never backward.
        let cached = inf.indexer.list();
        for obj in &cached {
            let key = obj.key();
            let rv = obj.resource_version();
            if rv > revision {
                let detail = format!("{key} cached at rv {rv} above the revision {revision}");
                self.violate(now, "cache-not-ahead", detail);
            }
            match self.cache_rvs.get_mut(&key) {
                Some(last) if rv < *last => {
                    let detail = format!("{key}: cached rv went from {last} to {rv}");
                    *last = rv;
                    self.violate(now, "cache-rv-monotonic", detail);
                }
                Some(last) => *last = rv,
                None => {
                    self.cache_rvs.insert(key, rv);
                }
            }
        }

        // Convergence once everything is drained.
        let drained = inf.watch.is_some()
            && inf.pending_deltas() == 0
            && l.queued_len() == 0
            && !inf.popping
            && cluster.api.server.undelivered_events() == 0
            && inf.has_synced();
        let newest = cluster.api.server.newest_event_rv();
        let caught_up = match (newest, inf.reflector.last_sync_resource_version()) {
            (Some(n), Some(seen)) => seen >= n,
            (None, _) => true,
            (Some(_), None) => false,
        };
        if drained && caught_up {
            self.convergence_checks += 1;
            let server: BTreeMap<Key, u64> = cluster
                .api
                .server
                .objects()
                .iter()
                .map(|o| (o.key(), o.resource_version()))
                .collect();
            let cache: BTreeMap<Key, u64> = cached
                .iter()
                .map(|o| (o.key(), o.resource_version()))
                .collect();
            if server != cache {
                let differing = server
                    .iter()
                    .filter(|(k, v)| cache.get(*k) != Some(v))
                    .map(|(k, v)| format!("{k}: server {v}, cache {:?}", cache.get(k)))
                    .chain(
                        cache
                            .iter()
                            .filter(|(k, _)| !server.contains_key(*k))
                            .map(|(k, v)| format!("{k}: server none, cache {v}")),
                    )
                    .take(3)
                    .collect::<Vec<_>>()
                    .join("; ");
                self.violate(now, "cache-converges", differing);
            }
        }
    }

    /// Follows the watch chain in the trace lines recorded since the last check.
    fn check_trace(&mut self, trace: &Trace, now: SimTime) {
        let first_kept = trace.first_kept();
        if self.trace_seen < first_kept {
            // Lines were dropped from the ring before we saw them: start a new chain.
            self.watch.reset();
            self.trace_seen = first_kept;
        }
        let mut found = Vec::new();
        for e in trace.events_since(self.trace_seen) {
            match e.kind {
                EventKind::ContainerStarted { .. }
                | EventKind::ApiRequest {
                    verb: Verb::List, ..
                } => self.watch.reset(),
                EventKind::ApiRequest {
                    verb: Verb::Watch, ..
                } => self.watch.start_watch_list(),
                EventKind::WatchEvent {
                    event_type: WatchEventType::Bookmark,
                    ..
                } if self.watch.initial_events => {
                    if let Some(rv) = e.resource_version {
                        self.watch.end_initial_events(rv);
                    }
                }
                EventKind::WatchEvent { .. } | EventKind::WatchError { .. }
                    if self.watch.initial_events => {}
                EventKind::ApiRequest { code, .. } if (200..300).contains(&code) => {
                    if let Some(rv) = e.resource_version {
                        if self.watch.last_delivered.is_none_or(|last| rv > last) {
                            self.watch.writes.insert(rv);
                        }
                    }
                }
                EventKind::WatchEvent {
                    event_type:
                        WatchEventType::Added | WatchEventType::Modified | WatchEventType::Deleted,
                    ..
                } => {
                    let Some(rv) = e.resource_version else {
                        continue;
                    };
                    let key = e.key.clone().unwrap_or_default();
                    if let Some(last) = self.watch.last_delivered {
                        if rv <= last {
                            found.push((
                                "watch-no-duplicate",
                                format!("{key} rv {rv} delivered after rv {last}"),
                            ));
                        } else if let Some(lost) = self.watch.writes.range(last + 1..rv).next() {
                            found.push((
                                "watch-no-loss",
                                format!("write rv {lost} skipped between rv {last} and rv {rv}"),
                            ));
                        }
                    }
                    self.watch.writes = self.watch.writes.split_off(&(rv + 1));
                    let last = self.watch.last_delivered.unwrap_or(0).max(rv);
                    self.watch.last_delivered = Some(last);
                }
                _ => {}
            }
        }
        self.trace_seen = trace.total();
        for (invariant, detail) in found {
            self.violate(now, invariant, detail);
        }
    }
}
