//! The controller's workqueue: client-go's rate-limiting queue (controller-runtime ≤ v0.22, or
//! `UsePriorityQueue=false`) or controller-runtime's priority queue (default from v0.23), as
//! `pkg/controller/controller.go` `NewTypedUnmanaged` chooses.

use std::time::Duration;

use crate::key::Key;
use crate::scenario::QueueKind;
use crate::sim::large::{clone_without_large, Large, LargeParts, StepCopy};
use crate::sim::{CauseNote, EventId};
use crate::time::SimTime;
use crate::workqueue::set::ItemMap;

use super::pending_causes::PendingCauses;
use crate::workqueue::{
    default_controller_rate_limiter, AddOpts, CauseIds, PriorityQueue, QueueMetrics,
    RateLimitingInterface, RateLimitingQueue,
};

/// One of the two queues, keyed by `namespace/name`, and the priority each handed-out key was
/// handed out with (what controller-runtime's `processNextWorkItem` gets from `GetWithPriority`
/// and passes to `reconcileHandler`; always 0 for the classic queue, which keeps none).
#[derive(Clone)]
pub struct WorkQueue {
    queue: Kind,
    handed_out: ItemMap<Key, i32>,
    causes: PendingCauses,
}

/// A part of a workqueue copied or freed on its own: a checkpoint's copy of a large queue
/// ([`super::checkpoint_parts`]), a dead operator's queue ([`super::release`]).
#[derive(Clone)]
pub(super) enum QueuePart {
    /// The queue with its sets and rate limiter.
    Queue(Box<Kind>),
    /// How often each key was handed out and not yet done.
    HandedOut(ItemMap<Key, i32>),
    /// The causes of pending adds.
    Causes(Box<PendingCauses>),
}

impl QueuePart {
    /// Empty parts of every kind [`WorkQueue::skeleton_part`] copies: what a queue holds once its
    /// parts are taken out to be freed one at a time.
    pub(super) fn empty_parts() -> Vec<QueuePart> {
        vec![
            QueuePart::Queue(Box::new(Kind::classic())),
            QueuePart::Causes(Box::default()),
        ]
    }

    /// An empty part of the same kind.
    pub(super) fn placeholder(&self) -> QueuePart {
        match self {
            QueuePart::Queue(_) => QueuePart::Queue(Box::new(Kind::classic())),
            QueuePart::HandedOut(_) => QueuePart::HandedOut(ItemMap::default()),
            QueuePart::Causes(_) => QueuePart::Causes(Box::default()),
        }
    }
}

impl LargeParts for QueuePart {
    /// The part's large collections.
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn Large>) {
        match self {
            QueuePart::Queue(queue) => queue.large_parts(out),
            QueuePart::HandedOut(handed_out) => handed_out.large_parts(out),
            QueuePart::Causes(causes) => causes.large_parts(out),
        }
    }
}

/// Runs `$body` with `$q` bound to the queue of whichever kind `$queue` holds: each kind's own
/// method, called directly rather than through a `dyn RateLimitingInterface` (the Go heap's
/// accounting asks the queue's lengths after every event, and a worker's cycle reaches the queue
/// several times).
macro_rules! on_each_kind {
    ($queue:expr, $q:ident => $body:expr) => {
        match $queue {
            Kind::Classic($q) => $body,
            Kind::Priority($q) => $body,
        }
    };
}

/// The queue itself.
#[derive(Clone)]
pub(super) enum Kind {
    /// client-go's queue with `DefaultTypedControllerRateLimiter` (max of exp 5 ms…1000 s and a
    /// 10 qps / burst 100 bucket).
    Classic(RateLimitingQueue<Key>),
    /// controller-runtime's priority queue with its exponential-only limiter.
    Priority(PriorityQueue<Key>),
}

impl LargeParts for Kind {
    /// The queue's sets and its rate limiter's per-item maps.
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn Large>) {
        match self {
            Kind::Classic(q) => q.large_parts(out),
            Kind::Priority(q) => q.large_parts(out),
        }
    }
}

impl Kind {
    /// client-go's queue with the controller's default rate limiter, empty.
    fn classic() -> Kind {
        Kind::Classic(RateLimitingQueue::new(default_controller_rate_limiter()))
    }
}

impl WorkQueue {
    /// The queue the scenario asks for.
    pub fn new(kind: QueueKind) -> WorkQueue {
        let queue = match kind {
            QueueKind::Classic => Kind::classic(),
            QueueKind::Priority => Kind::Priority(PriorityQueue::with_default_rate_limiter()),
        };
        WorkQueue {
            queue,
            handed_out: ItemMap::default(),
            causes: PendingCauses::default(),
        }
    }

    /// Takes the queue apart, to be freed a part at a time ([`super::release`]): the queue
    /// itself, the keys handed out and the causes of pending adds.
    pub(super) fn into_parts(self) -> Vec<QueuePart> {
        vec![
            QueuePart::Queue(Box::new(self.queue)),
            QueuePart::HandedOut(self.handed_out),
            QueuePart::Causes(Box::new(self.causes)),
        ]
    }

    /// A copy of the queue's part number `i` (the queue with its sets and rate limiter, then
    /// the causes of pending adds) without its large collections, to be filled by
    /// [`WorkQueue::copy_step`]; none past the last.
    pub(super) fn skeleton_part(&mut self, i: usize) -> Option<QueuePart> {
        match i {
            0 => Some(QueuePart::Queue(Box::new(clone_without_large(
                &mut self.queue,
            )))),
            1 => Some(QueuePart::Causes(Box::new(clone_without_large(
                &mut self.causes,
            )))),
            _ => None,
        }
    }

    /// Copies up to `budget` more entries of this queue's part into `copy` (a skeleton of it);
    /// returns whether `copy` is complete.
    pub(super) fn copy_step(
        &mut self,
        copy: &mut QueuePart,
        progress: &mut StepCopy,
        budget: usize,
    ) -> bool {
        match copy {
            QueuePart::Queue(queue) => progress.step(&mut self.queue, &mut **queue, budget),
            QueuePart::HandedOut(handed_out) => {
                progress.step(&mut self.handed_out, handed_out, budget)
            }
            QueuePart::Causes(causes) => progress.step(&mut self.causes, &mut **causes, budget),
        }
    }

    /// Swaps `part` with this queue's part of the same kind.
    pub(super) fn swap_part(&mut self, part: &mut QueuePart) {
        match part {
            QueuePart::Queue(queue) => std::mem::swap(&mut self.queue, &mut **queue),
            QueuePart::HandedOut(handed_out) => std::mem::swap(&mut self.handed_out, handed_out),
            QueuePart::Causes(causes) => std::mem::swap(&mut self.causes, &mut **causes),
        }
    }

    /// Adds a key from an event handler, an add made by event `cause` (kept with the key's
    /// entry while causes are kept). With the priority queue, `low_priority` events (the
    /// initial list's creates and resyncs) get `LowPriority` (controller-runtime
    /// `pkg/handler/eventhandler.go`); the classic queue has no priorities.
    pub fn add_from_handler(
        &mut self,
        key: Key,
        low_priority: bool,
        now: SimTime,
        cause: Option<EventId>,
    ) {
        let cause = cause.filter(|_| self.causes.is_on());
        match &mut self.queue {
            Kind::Classic(q) => {
                q.advance(now);
                q.add_caused(key, cause);
            }
            Kind::Priority(q) => {
                let priority = low_priority.then_some(crate::workqueue::LOW_PRIORITY);
                let opts = AddOpts {
                    after: None,
                    rate_limited: false,
                    priority,
                };
                q.add_with_opts_caused(key, opts, now, cause);
            }
        }
    }

    /// `AddRateLimited`.
    pub fn add_rate_limited(&mut self, key: Key, now: SimTime) {
        on_each_kind!(&mut self.queue, q => q.add_rate_limited(key, now));
    }

    /// `AddAfter`.
    pub fn add_after(&mut self, key: Key, after: Duration, now: SimTime) {
        on_each_kind!(&mut self.queue, q => q.add_after(key, after, now));
    }

    /// `AddWithOpts{RateLimited: true, Priority: &priority}` (controller-runtime
    /// `pkg/internal/controller/controller.go` `reconcileHandler`); the classic queue has no
    /// priorities and does a plain `AddRateLimited` (`priorityQueueWrapper.AddWithOpts`).
    pub fn add_rate_limited_with_priority(&mut self, key: Key, priority: i32, now: SimTime) {
        self.add_with_priority(key, None, priority, now);
    }

    /// `AddWithOpts{After: after, Priority: &priority}`; a plain `AddAfter` on the classic queue.
    pub fn add_after_with_priority(
        &mut self,
        key: Key,
        after: Duration,
        priority: i32,
        now: SimTime,
    ) {
        self.add_with_priority(key, Some(after), priority, now);
    }

    /// Rate-limited when `after` is `None`, else delayed by `after`.
    fn add_with_priority(
        &mut self,
        key: Key,
        after: Option<Duration>,
        priority: i32,
        now: SimTime,
    ) {
        match (&mut self.queue, after) {
            (Kind::Priority(q), _) => {
                let opts = AddOpts {
                    after,
                    rate_limited: after.is_none(),
                    priority: Some(priority),
                };
                q.add_with_opts(key, opts, now);
            }
            (Kind::Classic(q), None) => q.add_rate_limited(key, now),
            (Kind::Classic(q), Some(d)) => q.add_after(key, d, now),
        }
    }

    /// Whether this is controller-runtime's priority queue.
    pub fn is_priority(&self) -> bool {
        matches!(self.queue, Kind::Priority(_))
    }

    /// When a rate-limited add of `key` made at `now` comes due: the default controller rate
    /// limiter's per-item back-off, 5 ms doubled for each requeue counted before it, at most
    /// 1000 s (client-go `util/workqueue/default_rate_limiters.go`
    /// `DefaultTypedControllerRateLimiter`); its overall token bucket (10 qps, burst 100) is
    /// taken as not binding.
    pub fn rate_limited_due(&self, key: &Key, now: SimTime) -> SimTime {
        let before = self.num_requeues(key).saturating_sub(1).min(32);
        let backoff_ms = (5u64 << before).min(1_000_000);
        now + Duration::from_millis(backoff_ms)
    }

    /// `NumRequeues`: the rate limiter's count for `key`.
    pub fn num_requeues(&self, key: &Key) -> u32 {
        on_each_kind!(&self.queue, q => q.num_requeues(key))
    }

    /// The priority of `key`'s entry in the priority queue (ready or waiting); `None` when it has
    /// none or the queue is client-go's.
    pub fn queued_priority(&self, key: &Key) -> Option<i32> {
        match &self.queue {
            Kind::Classic(_) => None,
            Kind::Priority(q) => q.priority_of(key),
        }
    }

    /// The priority `key` was handed out with (0 if it is not being processed).
    pub fn handed_out_priority(&self, key: &str) -> i32 {
        self.handed_out.get(key).copied().unwrap_or(0)
    }

    /// `Forget`.
    pub fn forget(&mut self, key: &Key) {
        on_each_kind!(&mut self.queue, q => q.forget(key));
    }

    /// `GetWithPriority` (non-blocking), after moving due items in, with the causes of the adds
    /// merged into the key since it was last handed out; the priority is kept until `Done`
    /// ([`WorkQueue::handed_out_priority`]).
    pub fn get(&mut self, now: SimTime) -> Option<(Key, CauseIds)> {
        self.advance(now);
        match &mut self.queue {
            Kind::Classic(q) => q.get_caused().map(|(key, _, causes)| (key, causes)),
            Kind::Priority(q) => {
                let (key, priority, causes) = q.get_caused()?;
                self.handed_out.insert(key.clone(), priority);
                Some((key, causes))
            }
        }
    }

    /// Event `id` added `key` for `due` (a `RequeueAfter` or a rate-limited retry).
    pub fn note_add_after(&mut self, key: &Key, id: EventId, due: SimTime) {
        self.causes.add_after(key, id, due);
    }

    /// The adds merged into `key` since it was last handed out, `ready` (what [`WorkQueue::get`]
    /// handed out with it) and the delayed adds that came due ([`PendingCauses`]): the causes of
    /// the Reconcile it is handed out for now.
    pub fn take_causes(
        &mut self,
        key: &Key,
        now: SimTime,
        ready: CauseIds,
    ) -> (CauseIds, CauseNote) {
        self.causes.take(key, now, ready)
    }

    /// Makes room for `additional` keys at once: a queue that will hold every object of a large
    /// scenario never rehashes its item maps inside one event.
    pub fn reserve(&mut self, additional: usize) {
        on_each_kind!(&mut self.queue, q => q.reserve(additional));
    }

    /// Keeps the causes of pending adds (`on`, the default) or nothing (the causal ring is off).
    pub fn keep_causes(&mut self, on: bool) {
        self.causes = if on {
            PendingCauses::on()
        } else {
            PendingCauses::off()
        };
    }

    /// `Done`.
    pub fn done(&mut self, key: &Key, now: SimTime) {
        if !self.handed_out.is_empty() {
            self.handed_out.remove(key);
        }
        on_each_kind!(&mut self.queue, q => {
            q.advance(now);
            q.done(key);
        });
    }

    /// Moves due items in.
    pub fn advance(&mut self, now: SimTime) {
        on_each_kind!(&mut self.queue, q => q.advance(now));
    }

    /// When the next waiting item becomes ready.
    pub fn next_ready_at(&self) -> Option<SimTime> {
        on_each_kind!(&self.queue, q => q.next_ready_at())
    }

    /// Ready items (`Len`).
    pub fn len(&self) -> usize {
        on_each_kind!(&self.queue, q => q.len())
    }

    /// Whether nothing is ready.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Items waiting for their delay.
    pub fn waiting_len(&self) -> usize {
        on_each_kind!(&self.queue, q => q.waiting_len())
    }

    /// The queue's metrics.
    pub fn metrics(&self) -> &QueueMetrics {
        on_each_kind!(&self.queue, q => q.metrics())
    }

    /// `ShutDown`.
    pub fn shut_down(&mut self) {
        on_each_kind!(&mut self.queue, q => q.shut_down());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_limited_add_comes_due_after_five_ms_doubled_per_earlier_requeue() {
        let mut q = WorkQueue::new(QueueKind::Classic);
        let key = Key::from("ns/a");
        let now = SimTime::from_millis(1_000);
        q.add_rate_limited(key.clone(), now);
        assert_eq!(q.rate_limited_due(&key, now), SimTime::from_millis(1_005));
        q.add_rate_limited(key.clone(), now);
        q.add_rate_limited(key.clone(), now);
        assert_eq!(q.rate_limited_due(&key, now), SimTime::from_millis(1_020));
    }
}
