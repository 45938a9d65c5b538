//! The rest of the cluster the seed-001 and seed-004 incidents need: the Pods the custom resources
//! own and the operator's Pod informer, Nodes with kubelets that evict under memory pressure,
//! namespace deletion, watches a Reconcile opens, log records, and calls to services outside the
//! cluster.
//!
//! Pods are modelled as populations, not as stored objects: 50 000 of them would only be counted
//! and sized anyway. What each step costs follows the upstream code named on it:
//!
//! - The first `List` of Pods starts a Pod informer (controller-runtime
//!   `pkg/cache/informer_cache.go` starts one on the first read of a type; its initial LIST
//!   decodes every Pod in scope); the List waits for it to sync (`WaitForCacheSync`). Its scope is
//!   every namespace, or `cache.namespaced` (`cache.Options.DefaultNamespaces`); with
//!   `cache.metadata_only` it holds `PartialObjectMetadata`.
//! - A List from the cache deep-copies every item it returns (`pkg/cache/internal/cache_reader.go`
//!   `List`: no namespace and no field selector ⇒ `indexer.List()`; `InNamespace` ⇒ the
//!   `namespace` index; `MatchingFields` ⇒ the `field:<name>` index built by `IndexField`).
//! - A watch a Reconcile opens and never stops keeps its goroutines (the `StreamWatcher`'s receive
//!   loop, the HTTP/2 stream) and, since nobody reads its result channel, the frames the server
//!   keeps sending pile up until the stream's flow-control window is full (client-go
//!   `tools/watch`/`rest/watch` `StreamWatcher`; golang.org/x/net `http2/transport.go`
//!   `transportDefaultStreamFlow = 4 MiB`).
//! - The kubelet's eviction manager (kubernetes `pkg/kubelet/eviction/eviction_manager.go`,
//!   `helpers.go` `rankMemoryPressure`): every monitoring interval it compares
//!   `memory.available` with `--eviction-hard`, sets `MemoryPressure` (kept for
//!   `--eviction-pressure-transition-period` after the signal was last seen) and evicts at most
//!   one Pod per pass, Pods using more than they requested first, the largest excess first.
//! - The taint: the node lifecycle controller turns a `MemoryPressure=True` condition into the
//!   `node.kubernetes.io/memory-pressure:NoSchedule` taint and removes it when the condition goes
//!   (`pkg/controller/nodelifecycle/node_lifecycle_controller.go`
//!   `nodeConditionToTaintKeyStatusMap`, `doNoScheduleTaintingPass`, run on each Node update, not
//!   on `nodeMonitorPeriod`). The Node update is the kubelet's next node status report
//!   (`nodeStatusUpdateFrequency`, 10 s): the taint follows the condition one eviction pass late.
//! - Placement (`code.placement`): kube-scheduler's TaintToleration filter
//!   (`pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go`) keeps a Pod off a
//!   tainted Node. Nothing tolerates the taint for an ordinary Pod: `PodTolerationRestriction`,
//!   which adds it to non-BestEffort Pods, is off by default (`pkg/kubeapiserver/options/plugins.go`
//!   `DefaultOffAdmissionPlugins`, 1.27 and 1.36), `DefaultTolerationSeconds` adds only the
//!   not-ready/unreachable NoExecute ones, and only DaemonSet Pods get it from their controller
//!   (`pkg/controller/daemon/util/daemonset_util.go`). A Pod the scheduler cannot place stays
//!   Pending and is retried when a Node update removes the taint. A Pod with `spec.nodeName`
//!   bypasses the scheduler.
//! - The kubelet's admission (`eviction_manager.go` `Admit`): under `MemoryPressure` alone it
//!   admits every Pod that is not BestEffort, and rejects a BestEffort one (it fails with reason
//!   `Evicted`; the owner sees it and creates another).

use crate::metrics::names;
use std::collections::{BTreeMap, VecDeque};
use std::time::Duration;

use crate::key::Key;
use crate::scenario::{Placement, Scenario};
use crate::sim::{CauseNote, Context, EventId, EventKind};
use crate::time::SimTime;

use super::memory::SimProcess;
use super::registry::{metric_key, Registry};
use super::worker::Job;
use super::{Cluster, Ev};

mod kubelet;
mod step;

pub(super) use step::StepSinks;

/// Bytes a watch holds besides its buffered frames (response reader, decoder, framer).
pub const WATCH_BASE_BYTES: u64 = 8 * 1024;
/// The HTTP/2 stream flow-control window of client-go's transport (golang.org/x/net
/// `http2/transport.go` `transportDefaultStreamFlow`): what an unread stream buffers at most.
pub const WATCH_STREAM_WINDOW_BYTES: u64 = 4 << 20;
/// Goroutines an open watch keeps (the `StreamWatcher`'s receive loop and the stream's reader).
pub const WATCH_GOROUTINES: u64 = 2;
/// Goroutines a connection hung in a call keeps besides the worker (the transport's read and
/// write loops).
pub const HUNG_CALL_GOROUTINES: u64 = 2;
/// How much a `log.Info` with the whole object allocates per byte of object: zap encodes it by
/// reflection into a buffer that doubles as it grows, with the intermediate strings and maps.
pub const LOG_AMPLIFICATION: u64 = 4;
/// What a log record with counts allocates.
pub const LOG_COUNTS_BYTES: u64 = 256;
/// CPU per KiB a log record allocates (reflection-based JSON encoding).
pub const LOG_COST_PER_KIB: Duration = Duration::from_micros(2);
/// API server time per Pod of a LIST (served from the watch cache, encoded).
pub const LIST_SERVER_COST_PER_ITEM: Duration = Duration::from_micros(10);
/// CPU of the in-memory loop over one Pod's ownerReferences.
pub const FILTER_COST_PER_ITEM: Duration = Duration::from_micros(1);
/// How often the namespace controller revisits terminating namespaces.
pub const NAMESPACE_RESYNC: Duration = Duration::from_secs(5);
/// Round trip of a POST of a Pod.
pub const POD_CREATE_COST: Duration = Duration::from_millis(5);

/// Engine events of the workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkEv {
    /// The kubelets' eviction managers run.
    KubeletSync,
    /// The namespace controller revisits terminating namespaces.
    NamespaceSync,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum CacheState {
    #[default]
    Off,
    Syncing(SimTime),
    Synced,
}

/// One running owned Pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RunPod {
    node: usize,
    started: SimTime,
}

/// The workload's state; the per-process part is reset when the operator restarts.
#[derive(Clone, Debug, Default)]
pub struct Workload {
    incarnation: u64,
    cache: CacheState,
    cached_items: u64,
    cached_item_bytes: u64,
    /// Event counter value at each leaked watch's opening, oldest first (not yet full).
    leaked: VecDeque<u64>,
    leaked_full: u64,
    leaked_sum: u128,
    cr_events: u64,
    pods: BTreeMap<Key, Vec<RunPod>>,
    last_pressure: Vec<Option<SimTime>>,
    /// Whether each Node carries the `memory-pressure:NoSchedule` taint.
    tainted: Vec<bool>,
    /// Pods created but not yet scheduled, by owner.
    pending: BTreeMap<Key, u32>,
    /// Owners of Pods the kubelet rejected since the last reconcile ended.
    rejected: Vec<Key>,
    namespace_sync: bool,
    /// The newest `kubectl delete namespace`: the cause of the namespace controller's deletes.
    namespace_deletion: Option<EventId>,
    /// Whether a workload step ever ran (until then the per-event accounting is skipped).
    active: bool,
}

impl Workload {
    /// Forgets what the previous operator process held.
    fn sync_incarnation(&mut self, incarnation: u64) {
        if self.incarnation != incarnation {
            self.incarnation = incarnation;
            self.cache = CacheState::Off;
            self.cached_items = 0;
            self.leaked.clear();
            self.leaked_full = 0;
            self.leaked_sum = 0;
        }
    }

    fn leaked_count(&self) -> u64 {
        self.leaked.len() as u64 + self.leaked_full
    }

    fn leaked_bytes(&self, event_bytes: u64) -> u64 {
        let open = self.leaked.len() as u128;
        let unread = (open * u128::from(self.cr_events)).saturating_sub(self.leaked_sum);
        let buffered = (unread * u128::from(event_bytes)).min(u128::from(u64::MAX)) as u64;
        self.leaked_count() * WATCH_BASE_BYTES
            + self.leaked_full * WATCH_STREAM_WINDOW_BYTES
            + buffered
    }

    fn on_events(&mut self, n: u64, event_bytes: u64) {
        self.cr_events += n;
        let full_after = WATCH_STREAM_WINDOW_BYTES / event_bytes.max(1);
        while let Some(&at) = self.leaked.front() {
            if self.cr_events - at < full_after {
                break;
            }
            self.leaked.pop_front();
            self.leaked_sum -= u128::from(at);
            self.leaked_full += 1;
        }
    }

    fn usage(&self, scenario: &Scenario, node: usize, now: SimTime) -> u64 {
        let p = &scenario.pods;
        let warm = p.warmup.as_secs_f64();
        let pods: u64 = self
            .pods
            .values()
            .flatten()
            .filter(|r| r.node == node)
            .map(|r| pod_usage(p.memory_usage, warm, now.saturating_since(r.started)))
            .sum();
        scenario.nodes.other_usage + pods
    }

    fn under_pressure(&self, scenario: &Scenario, node: usize, now: SimTime) -> bool {
        self.last_pressure
            .get(node)
            .copied()
            .flatten()
            .is_some_and(|t| now.saturating_since(t) < scenario.nodes.pressure_transition_period)
    }

    /// The Node a new owned Pod goes to: the least requested one whose allocatable memory
    /// (capacity less what other workloads request) still fits the request; through the
    /// scheduler, only among the Nodes without the memory-pressure taint.
    fn schedule(&self, scenario: &Scenario) -> Option<usize> {
        let n = &scenario.nodes;
        let req = scenario.pods.memory_request;
        let by_scheduler = scenario.code.placement == Placement::Scheduler;
        (0..n.count as usize)
            .filter(|&node| !(by_scheduler && self.tainted.get(node).copied().unwrap_or(false)))
            .map(|node| {
                let requested = self
                    .pods
                    .values()
                    .flatten()
                    .filter(|r| r.node == node)
                    .count() as u64
                    * req;
                (requested, node)
            })
            .filter(|(requested, _)| {
                requested + req <= n.memory_capacity.saturating_sub(n.other_usage)
            })
            .min()
            .map(|(_, node)| node)
    }
}

/// The kubelet's admission of an owned Pod on `node` (`eviction_manager.go` `Admit`): under
/// memory pressure only a BestEffort Pod is rejected (it tolerates nothing).
fn pod_usage(usage: u64, warmup_s: f64, age: Duration) -> u64 {
    if warmup_s <= 0.0 {
        return usage;
    }
    (usage as f64 * (age.as_secs_f64() / warmup_s).min(1.0)) as u64
}

fn request_key(verb: &str, code: u16) -> String {
    metric_key(
        names::APISERVER_REQUEST_TOTAL,
        &[("code", &code.to_string()), ("verb", verb)],
    )
}

impl Cluster {
    /// After the custom resources exist: their Pods start on the Nodes, the kubelets run.
    pub(super) fn workload_objects_created(&mut self, ctx: &mut Context<'_, Ev>) {
        let n = &self.scenario.nodes;
        if n.count == 0 || self.scenario.pods.per_object == 0 {
            return;
        }
        self.work.last_pressure = vec![None; n.count as usize];
        self.work.tainted = vec![false; n.count as usize];
        let now = ctx.now();
        for obj in self.api.server.first_objects(None) {
            for _ in 0..self.scenario.pods.per_object {
                if let Some(node) = self.work.schedule(&self.scenario) {
                    self.work
                        .pods
                        .entry(obj.key())
                        .or_default()
                        .push(RunPod { node, started: now });
                }
            }
        }
        ctx.schedule_in(n.eviction_interval, Ev::Workload(WorkEv::KubeletSync));
    }

    /// Handles a workload event.
    pub(super) fn workload_event(&mut self, ctx: &mut Context<'_, Ev>, ev: WorkEv) {
        match ev {
            WorkEv::KubeletSync => self.kubelet_sync(ctx),
            WorkEv::NamespaceSync => self.namespace_sync(ctx),
        }
    }

    /// Each kubelet's eviction manager pass: at most one eviction per Node. The taints first
    /// follow the condition of the previous pass (the kubelet's last node status report); each
    /// eviction is traced and, through the `Owns(&Pod{})` handler, adds the Pod's owner to the
    /// workqueue (the eviction is the add's cause).
    fn kubelet_sync(&mut self, ctx: &mut Context<'_, Ev>) {
        let now = ctx.now();
        let reg = &mut self.telemetry.reg;
        for (node, tainted) in self.work.update_taints(&self.scenario, reg, now) {
            ctx.trace(None, None, EventKind::NodeTaint { node, tainted });
        }
        for (node, owner) in self.work.evict(&self.scenario, reg, now) {
            let kind = EventKind::Evicted { node };
            let evicted = ctx.trace_caused(Some(owner.clone()), None, kind, &[], CauseNote::None);
            if let Some(op) = self.operator.running.as_mut() {
                op.queue.add_from_handler(owner, false, now, Some(evicted));
            }
        }
        self.kick_workers(ctx);
        ctx.schedule_in(
            self.scenario.nodes.eviction_interval,
            Ev::Workload(WorkEv::KubeletSync),
        );
    }

    /// `kubectl delete namespace` of the operator's first `count` namespaces, traced as the
    /// user's action: the cause of what the namespace controller then deletes inside them.
    pub(super) fn delete_namespaces(&mut self, ctx: &mut Context<'_, Ev>, count: u32) {
        let kind = EventKind::UserAction {
            action: crate::scenario::ActionKind::DeleteNamespaces,
        };
        let deletion = ctx.trace_caused(None, None, kind, &[], CauseNote::None);
        self.work.namespace_deletion = Some(deletion);
        for i in 0..count.min(self.scenario.objects.namespaces) {
            let code = self
                .api
                .server
                .delete_namespace(&format!("ns-{i}"), ctx.now());
            self.telemetry.count_request("DELETE", code);
        }
        if !self.work.namespace_sync {
            self.work.namespace_sync = true;
            ctx.schedule_in(Duration::from_secs(1), Ev::Workload(WorkEv::NamespaceSync));
        }
    }

    /// The namespace controller's pass over the terminating namespaces: every revision it
    /// commits (a removal, a deletionTimestamp) is caused by the namespace's deletion.
    fn namespace_sync(&mut self, ctx: &mut Context<'_, Ev>) {
        let before = self.api.server.revision();
        let (deletes, waiting) = self.api.server.namespace_step(ctx.now());
        if let Some(deletion) = self.work.namespace_deletion {
            for rv in before + 1..=self.api.server.revision() {
                self.api.causes.delete_done(rv, deletion);
            }
        }
        self.count_request_n("DELETE", 200, deletes);
        self.fan_out_events(ctx);
        if waiting > 0 {
            ctx.schedule_in(NAMESPACE_RESYNC, Ev::Workload(WorkEv::NamespaceSync));
        } else {
            self.work.namespace_sync = false;
        }
    }

    fn count_request_n(&mut self, verb: &str, code: u16, n: usize) {
        if n > 0 {
            self.telemetry.reg.inc(&request_key(verb, code), n as f64);
        }
    }

    /// `kubectl set resources` on the operator's Deployment: a new Pod under the new limit
    /// replaces the old one (a new Pod: its restart count starts at 0).
    pub(super) fn set_memory_limit(&mut self, ctx: &mut Context<'_, Ev>, limit: u64) {
        self.scenario.process.memory_limit = Some(limit);
        let kind = EventKind::SetResources {
            memory_limit: limit,
        };
        self.replace_pod(ctx, kind);
    }

    /// The operator's Deployment gets a new Pod template (traced as `kind`): the old Pod
    /// stops, and a new one under the scenario's current process, client and code starts 2 s
    /// later (its restart count at 0).
    pub(super) fn replace_pod(&mut self, ctx: &mut Context<'_, Ev>, kind: EventKind) {
        let Ok(process) = SimProcess::new(&self.scenario) else {
            return;
        };
        self.operator.process = process;
        self.operator.retire(ctx);
        self.api.drop_operator_requests();
        let cause = ctx.trace_caused(None, None, kind, &[], CauseNote::None);
        let start = Ev::ContainerStart { cause: Some(cause) };
        ctx.schedule_in(Duration::from_secs(2), start);
    }

    /// Watch events of the custom resources reached the API server's watchers.
    pub(super) fn workload_cr_events(&mut self, n: usize) {
        if n > 0 {
            self.work
                .on_events(n as u64, self.scenario.objects.size_bytes);
        }
    }

    /// A reconcile ended: count the external resources its finalizer cleaned up or leaked; the
    /// Pods the kubelet rejected meanwhile failed, and the `Owns(&Pod{})` handler maps each
    /// failure to its owner (an add caused by the ending Reconcile, whose Pod creations the
    /// kubelet's admission answered).
    pub(super) fn workload_reconcile_finished(&mut self, job: &Job, now: SimTime) {
        let rejected = std::mem::take(&mut self.work.rejected);
        if let Some(op) = self.operator.running.as_mut() {
            for owner in rejected {
                op.queue.add_from_handler(owner, false, now, job.reconcile);
            }
        }
        if job.cleaned > 0 {
            self.telemetry
                .reg
                .inc(names::EXTERNAL_CLEANUPS_TOTAL, f64::from(job.cleaned));
        }
        if job.leaked > 0 {
            self.telemetry.reg.inc(
                names::EXTERNAL_RESOURCES_LEAKED_TOTAL,
                f64::from(job.leaked),
            );
        }
    }
}

impl Workload {
    /// Heap owners and goroutines the workload adds to the operator process of `incarnation`
    /// (none while no process runs): `(pod cache bytes, watch buffers, extra goroutines)`;
    /// `hung` is the workers' goroutines left in hung calls, `event_bytes` a watch event's size.
    pub(super) fn memory(
        &mut self,
        incarnation: Option<u64>,
        event_bytes: u64,
        hung: u64,
    ) -> (u64, u64, u64) {
        let Some(incarnation) = incarnation.filter(|_| self.active) else {
            return (0, 0, 0);
        };
        self.sync_incarnation(incarnation);
        let store = match self.cache {
            CacheState::Off => 0,
            _ => self.cached_items * self.cached_item_bytes,
        };
        let watches = self.leaked_bytes(event_bytes);
        let goroutines = hung + self.leaked_count() * WATCH_GOROUTINES;
        (store, watches, goroutines)
    }

    /// Sets the workload's gauges in `reg`; `running` says whether an operator process runs
    /// (its Pod cache and watches read 0 otherwise).
    pub(super) fn gauges(
        &self,
        scenario: &Scenario,
        running: bool,
        reg: &mut Registry,
        now: SimTime,
    ) {
        let leaked = if running { self.leaked_count() } else { 0 };
        reg.set_static(names::RECONCILE_WATCHES_OPEN, leaked as f64);
        let cached = if running && self.cache != CacheState::Off {
            self.cached_items
        } else {
            0
        };
        reg.set_static(names::POD_CACHE_ITEMS, cached as f64);
        let s = scenario;
        if s.nodes.count == 0 {
            return;
        }
        let running: usize = self.pods.values().map(Vec::len).sum();
        reg.set_static(names::PODS_RUNNING, running as f64);
        let pending: u32 = self.pending.values().sum();
        reg.set_static(names::PODS_PENDING, f64::from(pending));
        let tainted = self.tainted.iter().filter(|t| **t).count();
        let taint_key = metric_key(
            "kube_node_spec_taint",
            &[
                ("effect", "NoSchedule"),
                ("key", "node.kubernetes.io/memory-pressure"),
            ],
        );
        reg.set(&taint_key, tainted as f64);
        let mut pressured = 0;
        let mut min_available = u64::MAX;
        for node in 0..s.nodes.count as usize {
            if self.under_pressure(s, node, now) {
                pressured += 1;
            }
            let used = self.usage(s, node, now);
            min_available = min_available.min(s.nodes.memory_capacity.saturating_sub(used));
        }
        let key = metric_key(
            "kube_node_status_condition",
            &[("condition", "MemoryPressure"), ("status", "true")],
        );
        reg.set(&key, f64::from(pressured));
        reg.set_static(names::NODE_MEMORY_AVAILABLE_BYTES, min_available as f64);
    }
}
