//! A Reconcile's workload steps (`code.*` of the seed-001 and seed-004 incidents): listing Pods
//! through the Pod informer, opening a watch, logging, calling a service outside the cluster,
//! and creating the Pods an object owns (see the parent module for the upstream code each
//! follows).

use std::time::Duration;

use crate::controller::program::Step;
use crate::key::Key;
use crate::metrics::names;
use crate::process::HeapOwner;
use crate::scenario::{LogMode, PodList, QosClass, Scenario};
use crate::sim::Context;
use crate::time::SimTime;

use super::super::memory::SimProcess;
use super::super::registry::Registry;
use super::super::worker::{Job, ReconcileResult, StepOutcome};
use super::super::Ev;
use super::{
    request_key, CacheState, RunPod, Workload, FILTER_COST_PER_ITEM, HUNG_CALL_GOROUTINES,
    LIST_SERVER_COST_PER_ITEM, LOG_AMPLIFICATION, LOG_COST_PER_KIB, LOG_COUNTS_BYTES,
    POD_CREATE_COST,
};

/// What a workload step changes outside the workload: the operator process's heap and the
/// metrics.
pub(in super::super) struct StepSinks<'a> {
    /// The operator's process (a list's copies, a log record's garbage).
    pub(in super::super) process: &'a mut SimProcess,
    /// The run's metrics.
    pub(in super::super) reg: &'a mut Registry,
}

impl Workload {
    /// Whether the kubelet of `node` admits a new Pod (`eviction_manager.go` `Admit`).
    fn admits(&self, scenario: &Scenario, node: usize, now: SimTime) -> bool {
        scenario.pods.qos_class() != QosClass::BestEffort
            || !self.under_pressure(scenario, node, now)
    }

    /// Places one new Pod of `owner`: runs it, rejects it at the kubelet, or leaves it Pending.
    pub(super) fn place_pod(
        &mut self,
        scenario: &Scenario,
        reg: &mut Registry,
        owner: &Key,
        now: SimTime,
    ) {
        match self.schedule(scenario) {
            Some(node) if self.admits(scenario, node, now) => {
                self.pods
                    .entry(owner.clone())
                    .or_default()
                    .push(RunPod { node, started: now });
            }
            Some(_) => {
                reg.inc(names::PODS_REJECTED_TOTAL, 1.0);
                self.rejected.push(owner.clone());
            }
            None => {
                reg.inc(names::PODS_UNSCHEDULABLE_TOTAL, 1.0);
                *self.pending.entry(owner.clone()).or_default() += 1;
            }
        }
    }

    /// What one workload step of a reconcile does (called from the worker loop).
    /// `incarnation` is the running operator's: a new one starts without the previous process's
    /// Pod cache and watches. The step allocates in the operator's `process` and counts in `reg`.
    pub(in super::super) fn run_step(
        &mut self,
        scenario: &Scenario,
        incarnation: u64,
        job: &mut Job,
        step: &Step,
        ctx: &mut Context<'_, Ev>,
        sinks: StepSinks<'_>,
    ) -> StepOutcome {
        let StepSinks { process, reg } = sinks;
        self.sync_incarnation(incarnation);
        self.active = true;
        let now = ctx.now();
        match step {
            Step::ListPods => self.list_pods(scenario, job, process, reg, now),
            Step::OpenWatch => {
                reg.inc(&request_key("WATCH", 200), 1.0);
                reg.inc(names::RECONCILE_WATCHES_OPENED_TOTAL, 1.0);
                if !scenario.code.stop_watch {
                    self.leaked.push_back(self.cr_events);
                    self.leaked_sum += u128::from(self.cr_events);
                }
                StepOutcome::Wait(Duration::from_millis(1))
            }
            Step::LogObject { times } => {
                let bytes = match scenario.code.log {
                    LogMode::WholeObject => {
                        let size = job
                            .orig
                            .as_ref()
                            .map_or(scenario.objects.size_bytes, |o| o.size_bytes);
                        u64::from(*times) * size * LOG_AMPLIFICATION
                    }
                    LogMode::Counts => u64::from(*times) * LOG_COUNTS_BYTES,
                };
                process.alloc_garbage(HeapOwner::Logging, bytes, now);
                reg.inc(names::LOG_BYTES_ALLOCATED_TOTAL, bytes as f64);
                StepOutcome::Wait(LOG_COST_PER_KIB.mul_f64(bytes as f64 / 1024.0))
            }
            Step::ExternalCall {
                duration,
                hang_probability,
                hang_for,
            } => {
                if let Some(result) = job.pending_finish.take() {
                    job.extra_goroutines = 0;
                    return StepOutcome::Finish(result);
                }
                let timeout = scenario.code.external_timeout;
                let hangs = ctx.rng.chance(*hang_probability);
                let takes = if hangs { *hang_for } else { *duration };
                if timeout.is_zero() || takes <= timeout {
                    if hangs {
                        reg.inc(names::EXTERNAL_CALLS_HUNG_TOTAL, 1.0);
                        job.extra_goroutines = HUNG_CALL_GOROUTINES;
                        // context.Background(): the call returns when the server gives up.
                        job.pending_finish = Some(ReconcileResult::Error);
                        job.pc -= 1;
                    }
                    return StepOutcome::Wait(takes);
                }
                reg.inc(names::EXTERNAL_CALL_TIMEOUTS_TOTAL, 1.0);
                job.pending_finish = Some(ReconcileResult::RequeueAfter(
                    scenario.code.timeout_requeue_after,
                ));
                job.pc -= 1;
                StepOutcome::Wait(timeout)
            }
            Step::EnsurePods => self.ensure_pods(scenario, job, reg, now),
            _ => StepOutcome::Continue,
        }
    }

    fn list_pods(
        &mut self,
        scenario: &Scenario,
        job: &mut Job,
        process: &mut SimProcess,
        reg: &mut Registry,
        now: SimTime,
    ) -> StepOutcome {
        let p = &scenario.pods;
        let o = &scenario.objects;
        match self.cache {
            CacheState::Off => {
                let items = if scenario.cache.namespaced {
                    p.in_namespaces(o.count, o.namespaces)
                } else {
                    u64::from(p.count)
                };
                let item_bytes = if scenario.cache.metadata_only {
                    p.metadata_size_bytes
                } else {
                    p.size_bytes
                };
                self.cached_items = items;
                self.cached_item_bytes = item_bytes;
                let total = items * item_bytes;
                process.alloc_garbage(HeapOwner::ListCopies, total, now);
                let lists = if scenario.cache.namespaced {
                    u64::from(o.namespaces)
                } else {
                    1
                };
                reg.inc(&request_key("LIST", 200), lists as f64);
                reg.inc(names::POD_INFORMER_STARTS_TOTAL, 1.0);
                let sync = LIST_SERVER_COST_PER_ITEM.mul_f64(items as f64)
                    + scenario
                        .controller
                        .informer_cost_per_kib
                        .mul_f64(total as f64 / 1024.0);
                self.cache = CacheState::Syncing(now + sync);
                job.pc -= 1;
                StepOutcome::Wait(sync)
            }
            CacheState::Syncing(at) if now < at => {
                job.pc -= 1;
                StepOutcome::Wait(at.saturating_since(now))
            }
            _ => {
                self.cache = CacheState::Synced;
                let per_ns = p.per_namespace(o.count, o.namespaces);
                let (items, filtered) = match scenario.code.pod_list {
                    PodList::AllNamespaces => (self.cached_items, self.cached_items),
                    PodList::Namespace => (per_ns, per_ns),
                    PodList::FieldIndex => (u64::from(p.per_object), 0),
                };
                let bytes = items * self.cached_item_bytes;
                job.list_bytes += bytes;
                reg.inc(names::LIST_ITEMS_COPIED_TOTAL, items as f64);
                let cost = scenario
                    .controller
                    .cache_read_cost_per_kib
                    .mul_f64(bytes as f64 / 1024.0)
                    + FILTER_COST_PER_ITEM.mul_f64(filtered as f64);
                StepOutcome::Wait(cost)
            }
        }
    }

    fn ensure_pods(
        &mut self,
        scenario: &Scenario,
        job: &mut Job,
        reg: &mut Registry,
        now: SimTime,
    ) -> StepOutcome {
        if scenario.nodes.count == 0 || job.obj.is_none() {
            return StepOutcome::Continue;
        }
        let have = self.pods.get(&job.key).map_or(0, Vec::len) as u64
            + u64::from(self.pending.get(&job.key).copied().unwrap_or(0));
        let missing = u64::from(scenario.pods.per_object).saturating_sub(have);
        if missing == 0 {
            return StepOutcome::Continue;
        }
        if scenario.code.check_memory_pressure
            && (0..scenario.nodes.count as usize).any(|n| self.under_pressure(scenario, n, now))
        {
            reg.inc(names::POD_RECREATIONS_DEFERRED_TOTAL, 1.0);
            return StepOutcome::Finish(ReconcileResult::RequeueAfter(
                scenario.code.pressure_requeue_after,
            ));
        }
        let mut created = 0;
        for _ in 0..missing {
            self.place_pod(scenario, reg, &job.key, now);
            created += 1;
        }
        reg.inc(&request_key("POST", 201), f64::from(created));
        reg.inc(names::PODS_CREATED_TOTAL, f64::from(created));
        StepOutcome::Wait(POD_CREATE_COST * created)
    }
}
