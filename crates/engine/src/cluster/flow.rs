//! The operator's pipeline: container start, reflector actions, the informer's processing loop,
//! the event handler, the workqueue and the workers (controller-runtime
//! `pkg/internal/controller/controller.go`, client-go `tools/cache/shared_informer.go`).

use std::time::Duration;

use crate::controller::program::Step;
use crate::informer::reflector::Action;
use crate::metrics::names;
use crate::sim::{CauseNote, Context, EventKind, TerminatedReason};

use crate::informer::resync::{jittered_sync_period, DEFAULT_SYNC_PERIOD};

use super::metric_keys::Fixed;
use super::operator::{request_for, Operator};
use super::request::{Call, Origin, Reply};
use super::worker::{Job, ReconcileResult, StepOutcome, WorkerTotals};
use super::{Cluster, Ev};

/// Upper bound on program steps run back to back without waiting (a guard against a loop).
const MAX_STEPS_PER_TURN: usize = 128;

impl Cluster {
    /// The kubelet starts the container: a new, empty operator that lists and watches. Its
    /// controller starts the source, then waits for the cache to sync before it starts any
    /// worker, for at most `CacheSyncTimeout` (controller-runtime
    /// `pkg/internal/controller/controller.go` `Start`); the informer's resync period is
    /// controller-runtime's jittered default (`pkg/cache/internal/informers.go`). Its
    /// `ContainerStarted` is caused by `cause` (a termination, a new Pod template).
    pub(super) fn container_start(
        &mut self,
        ctx: &mut Context<'_, Ev>,
        cause: Option<crate::sim::EventId>,
    ) {
        if !self.operator.process.start_container(ctx.now()) {
            return;
        }
        let incarnation = self.operator.next_incarnation();
        let sync_period = jittered_sync_period(DEFAULT_SYNC_PERIOD, ctx.rng);
        let mut op = Operator::new(&self.scenario, incarnation, sync_period, ctx.now());
        op.queue.keep_causes(ctx.trace.causal().is_on());
        op.queue.reserve(self.scenario.objects.count as usize);
        let actions = op.informer.reflector.start(ctx.now(), ctx.rng);
        self.operator.running = Some(op);
        self.api.causes.operator_started();
        let kind = EventKind::ContainerStarted { incarnation };
        ctx.trace_caused(None, None, kind, cause.as_slice(), CauseNote::None);
        ctx.schedule_in(
            self.scenario.controller.cache_sync_timeout,
            Ev::CacheSyncTimeout { incarnation },
        );
        self.reflector_actions(ctx, actions);
    }

    /// The container exited (`reason` as the kubelet reports it: `OOMKilled`, `Error`):
    /// everything in the process is gone.
    pub(super) fn container_died(
        &mut self,
        ctx: &mut Context<'_, Ev>,
        restart_at: crate::time::SimTime,
        reason: TerminatedReason,
    ) {
        self.operator.retire(ctx);
        self.api
            .pending
            .retain(|_, p| matches!(p.origin, Origin::User));
        let kind = EventKind::ContainerTerminated { reason, restart_at };
        let cause = ctx.trace_caused(None, None, kind, &[], CauseNote::None);
        ctx.schedule_at(restart_at, Ev::ContainerStart { cause: Some(cause) });
    }

    /// Starts the workers once the controller's source has synced (`WaitForSync` returned):
    /// "Starting workers" in controller-runtime's log. It is asked after every informer pop and
    /// handler run, so the answer once the workers run (or while no process does) is read in
    /// line, the rest out of line.
    #[inline]
    pub(super) fn check_cache_sync(&mut self, ctx: &mut Context<'_, Ev>) {
        if self
            .operator
            .running
            .as_ref()
            .is_some_and(|op| !op.workers_started)
        {
            self.start_workers_once_synced(ctx);
        }
    }

    /// [`Cluster::check_cache_sync`] before the workers started.
    #[inline(never)]
    fn start_workers_once_synced(&mut self, ctx: &mut Context<'_, Ev>) {
        let profile = self.scenario.profile;
        let Some(op) = self.operator.running.as_mut() else {
            return;
        };
        if op.workers_started || !op.source_synced(profile) {
            return;
        }
        op.workers_started = true;
        let workers = op.workers.len();
        let worker_count = u32::try_from(workers).unwrap_or(u32::MAX);
        ctx.trace(None, None, EventKind::StartingWorkers { worker_count });
        let started_s = ctx.now().as_secs_f64();
        self.telemetry
            .reg
            .set(names::WORKERS_STARTED_SECONDS, started_s);
        self.kick_workers(ctx);
    }

    /// `CacheSyncTimeout` ran out: if the source has not synced, the controller fails to start
    /// ("failed to wait for caches to sync"), the manager returns the error and the process
    /// exits with status 1 (a kubebuilder `main` calls `os.Exit(1)` when `mgr.Start` fails).
    pub(super) fn cache_sync_timeout(&mut self, ctx: &mut Context<'_, Ev>) {
        if self
            .operator
            .running
            .as_ref()
            .is_none_or(|op| op.workers_started)
        {
            return;
        }
        let timeout = self.scenario.controller.cache_sync_timeout;
        ctx.trace(None, None, EventKind::CacheSyncTimeout { timeout });
        let restart_at = self.operator.process.exit(1, ctx.now());
        self.container_died(ctx, restart_at, TerminatedReason::Error);
    }

    /// The reflector's resync timer fired: the processor finds which listeners are due, and the
    /// store resyncs if any is (client-go `tools/cache/reflector.go` `startResync`).
    pub(super) fn resync_timer(&mut self, ctx: &mut Context<'_, Ev>, epoch: u64) {
        let now = ctx.now();
        let Some(op) = self.operator.running.as_mut() else {
            return;
        };
        let informer = &mut op.informer;
        // `shouldResync` runs only when a live timer fires: a stale one must not move the
        // listener's next resync.
        let due = informer.reflector.is_current_resync(epoch) && informer.should_resync(now);
        let actions = informer.reflector.on_resync_timer(epoch, || due);
        self.reflector_actions(ctx, actions);
    }

    /// Carries out what the reflector asks. A `Replace` of a large LIST is queued in parts
    /// (continuation events, see [`super::REPLACE_OBJECTS_PER_EVENT`]); the actions after it run
    /// with its last part. A watch event outside a watch-list gives one action at most, passed
    /// as an `Option` (no list per event).
    pub(super) fn reflector_actions(
        &mut self,
        ctx: &mut Context<'_, Ev>,
        actions: impl IntoIterator<Item = Action>,
    ) {
        let mut actions = actions.into_iter();
        while let Some(action) = actions.next() {
            match action {
                Action::Replace { items, .. }
                    if items.len() > super::REPLACE_OBJECTS_PER_EVENT
                        && self
                            .operator
                            .running
                            .as_mut()
                            .is_some_and(|op| op.informer.begin_replace(items.len())) =>
                {
                    self.replace_part(ctx, items, 0, actions.collect());
                    return;
                }
                action => self.reflector_action(ctx, action),
            }
        }
        self.kick_informer(ctx);
        self.check_cache_sync(ctx);
    }

    /// Queues the next part of a `Replace`; continues with the rest, or finishes it and carries
    /// out the actions that followed it.
    pub(super) fn replace_part(
        &mut self,
        ctx: &mut Context<'_, Ev>,
        mut rest: crate::apiserver::ListItems,
        queued: usize,
        then: Vec<Action>,
    ) {
        let Some(op) = self.operator.running.as_mut() else {
            return;
        };
        let items = rest.take_front(super::REPLACE_OBJECTS_PER_EVENT);
        let queued = queued + items.len();
        op.informer.replace_part(items);
        if !rest.is_empty() {
            let incarnation = op.incarnation;
            ctx.continue_with(Ev::ReplacePart {
                incarnation,
                queued,
                rest: Box::new((rest, then)),
            });
            return;
        }
        op.informer.finish_replace();
        self.reflector_actions(ctx, then);
    }

    fn reflector_action(&mut self, ctx: &mut Context<'_, Ev>, action: Action) {
        let Some(incarnation) = self.operator.incarnation() else {
            return;
        };
        match action {
            Action::List { resource_version } => {
                self.send(
                    ctx,
                    Origin::Reflector { incarnation },
                    Call::List(resource_version),
                );
            }
            Action::Watch { from, timeout } => self.open_watch(ctx, from, timeout),
            Action::WatchList {
                resource_version, ..
            } => self.send(
                ctx,
                Origin::Reflector { incarnation },
                Call::WatchList(resource_version),
            ),
            Action::Replace {
                items,
                resource_version,
            } => {
                if let Some(op) = self.operator.running.as_mut() {
                    op.informer.replace(items.into_vec(), resource_version);
                }
            }
            Action::Apply(store_event) => {
                if let Some(op) = self.operator.running.as_mut() {
                    op.informer.apply(store_event);
                }
            }
            Action::WaitBackoff(d) => ctx.schedule_in(d, Ev::ReflectorWake { incarnation }),
            Action::Resync => {
                if let Some(op) = self.operator.running.as_mut() {
                    op.informer.resync();
                }
            }
            Action::StopWatch => {
                if let Some(op) = self.operator.running.as_mut() {
                    op.informer.watch = None;
                }
            }
            Action::ScheduleResync { after, epoch } => {
                ctx.schedule_in(after, Ev::ResyncTimer { incarnation, epoch });
            }
        }
    }

    pub(super) fn reflector_wake(&mut self, ctx: &mut Context<'_, Ev>) {
        let Some(op) = self.operator.running.as_mut() else {
            return;
        };
        let actions = op.informer.reflector.on_backoff_elapsed(ctx.now(), ctx.rng);
        self.reflector_actions(ctx, actions);
    }

    /// Starts the informer's processing loop on the next FIFO item if it is idle.
    pub(super) fn kick_informer(&mut self, ctx: &mut Context<'_, Ev>) {
        let cost_per_kib = self.scenario.controller.informer_cost_per_kib;
        let Some(op) = self.operator.running.as_mut() else {
            return;
        };
        if op.informer.popping {
            return;
        }
        let Some(bytes) = op.informer.next_pop_bytes() else {
            return;
        };
        op.informer.popping = true;
        let slowdown = self.operator.process.slowdown(ctx.now());
        let cost = crate::time::scale(crate::time::per_kib(cost_per_kib, bytes), slowdown);
        ctx.schedule_in(
            cost,
            Ev::InformerPopped {
                incarnation: op.incarnation,
            },
        );
    }

    pub(super) fn informer_popped(&mut self, ctx: &mut Context<'_, Ev>) {
        if let Some(op) = self.operator.running.as_mut() {
            op.informer.popping = false;
            op.informer.begin_pop(ctx.next_event_id());
            if let Some((key, deltas)) = op.informer.pop_and_process() {
                let deltas = u32::try_from(deltas).unwrap_or(u32::MAX);
                let (causes, note) = self.api.causes.pop_causes(op.informer.popped());
                let kind = EventKind::InformerPop { deltas };
                ctx.trace_caused(Some(key), None, kind, causes, note);
            }
        }
        self.kick_informer(ctx);
        self.kick_handler(ctx);
        self.check_cache_sync(ctx);
    }

    /// Starts the event handler on the next buffered notification if it is idle.
    pub(super) fn kick_handler(&mut self, ctx: &mut Context<'_, Ev>) {
        let Some(op) = self.operator.running.as_mut() else {
            return;
        };
        if op.informer.handling || op.informer.listener.queued_len() == 0 {
            return;
        }
        op.informer.handling = true;
        let slowdown = self.operator.process.slowdown(ctx.now());
        let cost = crate::time::scale(self.scenario.controller.handler_cost, slowdown);
        ctx.schedule_in(
            cost,
            Ev::Handled {
                incarnation: op.incarnation,
            },
        );
    }

    /// The handler ran: predicates, then `EnqueueRequestForObject`.
    pub(super) fn handled(&mut self, ctx: &mut Context<'_, Ev>) {
        let now = ctx.now();
        let Some(op) = self.operator.running.as_mut() else {
            return;
        };
        op.informer.handling = false;
        if let Some((n, pop)) = op.informer.next_notification_with_pop() {
            let (key, low_priority) = request_for(&n);
            let rv = super::informer::notification_rv(&n);
            let own_write = self.api.causes.take_own_write(rv);
            if op.admits(&n) {
                if own_write {
                    self.telemetry.count(Fixed::SelfTriggeredEnqueues);
                }
                let kind = EventKind::HandlerEnqueue { own_write };
                let id =
                    ctx.trace_caused(Some(key.clone()), Some(rv), kind, &[pop], CauseNote::None);
                op.queue.add_from_handler(key, low_priority, now, Some(id));
            } else {
                self.telemetry.count(Fixed::PredicateDropped);
                let kind = EventKind::PredicateDropped;
                ctx.trace_caused(Some(key), Some(rv), kind, &[pop], CauseNote::None);
            }
        }
        self.kick_handler(ctx);
        self.check_cache_sync(ctx);
        self.kick_workers(ctx);
    }

    /// Hands ready keys to idle workers (none before the cache has synced).
    ///
    /// A reconcile that ends without waiting (a NotFound Get, a program that only returns) frees
    /// its worker inside this call; the worker is handed the next key by this call's own loop,
    /// not by a nested call, so 150 000 such reconciles in a row do not nest 150 000 calls deep.
    pub(super) fn kick_workers(&mut self, ctx: &mut Context<'_, Ev>) {
        if self.operator.kicking_workers {
            self.operator.kick_again = true;
            return;
        }
        self.operator.kicking_workers = true;
        loop {
            self.operator.kick_again = false;
            self.start_idle_workers(ctx);
            if !self.operator.kick_again {
                break;
            }
        }
        self.operator.kicking_workers = false;
        self.schedule_queue_wake(ctx);
    }

    /// Hands ready keys to the idle workers and runs each until it waits or finishes.
    fn start_idle_workers(&mut self, ctx: &mut Context<'_, Ev>) {
        let now = ctx.now();
        let Some(op) = self.operator.running.as_mut() else {
            return;
        };
        if !op.workers_started {
            return;
        }
        let mut started = std::mem::take(&mut self.operator.started_workers);
        let mut from = 0;
        while let Some(i) = op.workers.first_idle_from(from) {
            from = i + 1;
            let Some((key, ready)) = op.queue.get(now) else {
                break;
            };
            let worker = u32::try_from(i).unwrap_or(u32::MAX);
            let (causes, note) = op.queue.take_causes(&key, now, ready);
            let kind = EventKind::Reconcile { worker };
            let id = ctx.trace_caused(Some(key.clone()), None, kind, &causes, note);
            let mut job = Job::new(key, now);
            job.reconcile = Some(id);
            job.finalizer_mode = self.scenario.code.finalizer;
            op.worker_totals = op.worker_totals.plus(WorkerTotals::of(&job));
            op.workers.start(i, job);
            started.push(i);
        }
        for &i in &started {
            self.advance_worker(ctx, i, None);
        }
        started.clear();
        self.operator.started_workers = started;
    }

    /// Schedules a wake-up for the queue's next delayed item if none is scheduled earlier.
    pub(super) fn schedule_queue_wake(&mut self, ctx: &mut Context<'_, Ev>) {
        let Some(op) = self.operator.running.as_mut() else {
            return;
        };
        let Some(at) = op.queue.next_ready_at() else {
            return;
        };
        if op.queue_wake_at.is_some_and(|w| w <= at && w >= ctx.now()) {
            return;
        }
        op.queue_wake_at = Some(at);
        ctx.schedule_at(
            at,
            Ev::QueueWake {
                incarnation: op.incarnation,
            },
        );
    }

    pub(super) fn queue_wake(&mut self, ctx: &mut Context<'_, Ev>) {
        if let Some(op) = self.operator.running.as_mut() {
            op.queue_wake_at = None;
            op.queue.advance(ctx.now());
        }
        self.kick_workers(ctx);
    }

    /// Runs worker `w`'s program until it waits, sends a request or finishes. `reply` answers
    /// the request it was waiting for.
    pub(super) fn advance_worker(
        &mut self,
        ctx: &mut Context<'_, Ev>,
        w: usize,
        reply: Option<Reply>,
    ) {
        // The GC's stretch of the CPU as the turn starts. Only a turn that ends in a wait reads
        // it, so it is read then, unless a workload step (which may allocate) comes first.
        let mut slowdown = None;
        let read_cost = self.scenario.controller.cache_read_cost_per_kib;
        let Some(op) = self.operator.running.as_mut() else {
            return;
        };
        let incarnation = op.incarnation;
        let informer = &op.informer;
        let Some(job) = op.workers.get_mut(w) else {
            return;
        };
        let before = WorkerTotals::of(job);
        let mut outcome = match reply {
            Some(Reply::Object(o)) => job.on_write_result(Ok(o)),
            Some(_) => job.on_write_result(Err(())),
            None => StepOutcome::Continue,
        };
        let mut turns = 0;
        // a turn that runs out of steps without an end finishes the Reconcile with an error
        let end = loop {
            if turns == MAX_STEPS_PER_TURN {
                break StepOutcome::Finish(ReconcileResult::Error);
            }
            turns += 1;
            if matches!(outcome, StepOutcome::Continue) {
                let step = self.scenario.reconcile.steps.get(job.pc);
                outcome = job.step(step, ctx.now(), ctx.rng);
                continue;
            }
            match outcome {
                StepOutcome::ReadCache => {
                    let cached = informer.indexer.get(&job.key);
                    let bytes = cached.as_ref().map_or(0, |o| o.size_bytes);
                    outcome = job.read_cache(cached);
                    if matches!(outcome, StepOutcome::Continue) {
                        outcome = StepOutcome::Wait(crate::time::per_kib(read_cost, bytes));
                    }
                }
                StepOutcome::ListCache(step) => {
                    let (bytes, n) = list_from_cache(informer, &step, &job.key);
                    job.list_bytes += bytes;
                    outcome = StepOutcome::Wait(
                        crate::time::per_kib(read_cost, bytes) + Duration::from_nanos(50 * n),
                    );
                }
                StepOutcome::Workload(step) => {
                    let now = ctx.now();
                    slowdown.get_or_insert_with(|| self.operator.process.slowdown(now));
                    let sinks = super::workload::StepSinks {
                        process: &mut self.operator.process,
                        reg: &mut self.telemetry.reg,
                    };
                    let scenario = &self.scenario;
                    outcome = self
                        .work
                        .run_step(scenario, incarnation, job, &step, ctx, sinks);
                }
                StepOutcome::Wait(_) | StepOutcome::Write(_) | StepOutcome::Finish(_) => {
                    break outcome;
                }
                StepOutcome::Continue => {}
            }
        };
        op.worker_totals = op.worker_totals.minus(before).plus(WorkerTotals::of(job));
        match end {
            StepOutcome::Wait(d) => {
                let now = ctx.now();
                let slowdown = slowdown.unwrap_or_else(|| self.operator.process.slowdown(now));
                ctx.schedule_in(
                    crate::time::scale(d, slowdown),
                    Ev::WorkerResume {
                        incarnation,
                        worker: w,
                    },
                );
            }
            StepOutcome::Write(call) => {
                self.send(
                    ctx,
                    Origin::Worker {
                        incarnation,
                        worker: w,
                    },
                    call,
                );
            }
            StepOutcome::Finish(result) => self.finish_reconcile(ctx, w, result),
            _ => self.finish_reconcile(ctx, w, ReconcileResult::Error),
        }
    }

    /// `reconcileHandler`'s mapping of the result onto the queue (controller-runtime
    /// `pkg/internal/controller/controller.go`), then `Done`.
    fn finish_reconcile(&mut self, ctx: &mut Context<'_, Ev>, w: usize, result: ReconcileResult) {
        let now = ctx.now();
        let Some(op) = self.operator.running.as_mut() else {
            return;
        };
        let Some(job) = op.workers.finish(w) else {
            return;
        };
        op.worker_totals = op.worker_totals.minus(WorkerTotals::of(&job));
        let key = job.key.clone();
        let by = job.reconcile.as_slice();
        let recover = crate::controller::result::recover_panic_default(self.scenario.profile);
        let outcome_delay = result.requeue_delay();
        let handled =
            crate::controller::reconcile_handler(&mut op.queue, &key, result, recover, now);
        if handled.crashed {
            ctx.trace_caused(
                Some(key.clone()),
                None,
                EventKind::Panic,
                by,
                CauseNote::None,
            );
            // controller-runtime re-panics when `RecoverPanic` is off
            // (`pkg/internal/controller/controller.go` `Reconcile`): the process dies.
            let restart_at = self
                .operator
                .process
                .exit(crate::process::GO_PANIC_EXIT_CODE, now);
            return self.container_died(ctx, restart_at, TerminatedReason::Error);
        }
        op.queue.done(&key, now);
        self.workload_reconcile_finished(&job, now);
        let result = handled.result_label.unwrap_or("error");
        self.telemetry
            .record_reconcile(&handled, now.saturating_since(job.started_at));
        let kind = EventKind::Reconciled { result };
        let id = ctx.trace_caused(Some(key.clone()), None, kind, by, CauseNote::None);
        if let (Some(op), Some(delay)) = (self.operator.running.as_mut(), outcome_delay) {
            let due = if delay.is_zero() {
                op.queue.rate_limited_due(&key, now)
            } else {
                now + delay
            };
            op.queue.note_add_after(&key, id, due);
        }
        self.kick_workers(ctx);
    }
}

/// The bytes a cache `List` deep-copies and the number of items, per scope: every cached object,
/// those in the reconciled object's namespace (the cache's namespace index), or those whose field
/// equals the reconciled object's name (a field index, `MatchingFields`; controller-runtime
/// `pkg/cache/internal/cache_reader.go` `List`). Only the matches are copied.
fn list_from_cache(informer: &super::informer::SimInformer, step: &Step, key: &str) -> (u64, u64) {
    use crate::controller::program::ListScope;
    use crate::informer::indexer::NAMESPACE_INDEX;
    let Step::List { scope, .. } = step else {
        return (0, 0);
    };
    let (namespace, name) = key.split_once('/').unwrap_or(("", key));
    let indexer = &informer.indexer;
    let items = match scope {
        // The informer's cache has the namespace index, as controller-runtime's does.
        ListScope::Namespace => indexer
            .by_index(NAMESPACE_INDEX, namespace)
            .unwrap_or_else(|_| indexer.list()),
        _ => indexer.list(),
    };
    let matches = |o: &&crate::object::ObjectRef| match scope {
        ListScope::AllNamespaces => true,
        ListScope::Namespace => o.metadata.namespace() == namespace,
        // The simulated cache has no index for the field: it finds the matches by scanning, and
        // counts only them, as an index lookup would return.
        ListScope::FieldIndex { field } => crate::object::field_values(o, field)
            .iter()
            .any(|v| v == name),
    };
    items
        .iter()
        .filter(matches)
        .fold((0, 0), |(bytes, n), o| (bytes + o.size_bytes, n + 1))
}
