//! The controller's workqueue: client-go's rate-limiting queue (controller-runtime ≤ v0.22, or
//! `UsePriorityQueue=false`) or controller-runtime's priority queue (default from v0.23), as
//! `pkg/controller/controller.go` NewTypedUnmanaged chooses.

use std::time::Duration;

use crate::scenario::QueueKind;
use crate::time::SimTime;
use crate::workqueue::{
    default_controller_rate_limiter, AddOpts, PriorityQueue, QueueMetrics, RateLimitingInterface,
    RateLimitingQueue,
};

/// One of the two queues, keyed by `namespace/name`.
pub enum WorkQueue {
    /// client-go's queue with `DefaultTypedControllerRateLimiter` (max of exp 5 ms…1000 s and a
    /// 10 qps / burst 100 bucket).
    Classic(RateLimitingQueue<String>),
    /// controller-runtime's priority queue with its exponential-only limiter.
    Priority(PriorityQueue<String>),
}

impl WorkQueue {
    /// The queue the scenario asks for.
    pub fn new(kind: QueueKind) -> WorkQueue {
        match kind {
            QueueKind::Classic => {
                WorkQueue::Classic(RateLimitingQueue::new(default_controller_rate_limiter()))
            }
            QueueKind::Priority => WorkQueue::Priority(PriorityQueue::with_default_rate_limiter()),
        }
    }

    fn q(&mut self) -> &mut dyn RateLimitingInterface<String> {
        match self {
            WorkQueue::Classic(q) => q,
            WorkQueue::Priority(q) => q,
        }
    }

    fn r(&self) -> &dyn RateLimitingInterface<String> {
        match self {
            WorkQueue::Classic(q) => q,
            WorkQueue::Priority(q) => q,
        }
    }

    /// Adds a key from an event handler. With the priority queue, `low_priority` events (the
    /// initial list's creates and resyncs) get `LowPriority` (controller-runtime
    /// `pkg/handler/eventhandler.go`); the classic queue has no priorities.
    pub fn add_from_handler(&mut self, key: String, low_priority: bool, now: SimTime) {
        match self {
            WorkQueue::Classic(q) => {
                q.advance(now);
                q.add(key);
            }
            WorkQueue::Priority(q) => {
                let priority = low_priority.then_some(crate::workqueue::LOW_PRIORITY);
                q.add_with_opts(
                    key,
                    AddOpts {
                        after: None,
                        rate_limited: false,
                        priority,
                    },
                    now,
                );
            }
        }
    }

    /// `AddRateLimited`.
    pub fn add_rate_limited(&mut self, key: String, now: SimTime) {
        self.q().add_rate_limited(key, now);
    }

    /// `AddAfter`.
    pub fn add_after(&mut self, key: String, after: Duration, now: SimTime) {
        self.q().add_after(key, after, now);
    }

    /// `Forget`.
    pub fn forget(&mut self, key: &String) {
        self.q().forget(key);
    }

    /// `Get` (non-blocking), after moving due items in.
    pub fn get(&mut self, now: SimTime) -> Option<String> {
        let q = self.q();
        q.advance(now);
        q.get()
    }

    /// `Done`.
    pub fn done(&mut self, key: &String, now: SimTime) {
        let q = self.q();
        q.advance(now);
        q.done(key);
    }

    /// Moves due items in.
    pub fn advance(&mut self, now: SimTime) {
        self.q().advance(now);
    }

    /// When the next waiting item becomes ready.
    pub fn next_ready_at(&self) -> Option<SimTime> {
        self.r().next_ready_at()
    }

    /// Ready items (`Len`).
    pub fn len(&self) -> usize {
        self.r().len()
    }

    /// Whether nothing is ready.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Items waiting for their delay.
    pub fn waiting_len(&self) -> usize {
        match self {
            WorkQueue::Classic(q) => q.waiting_len(),
            WorkQueue::Priority(q) => q.waiting_len(),
        }
    }

    /// The queue's metrics.
    pub fn metrics(&self) -> &QueueMetrics {
        self.r().metrics()
    }

    /// `ShutDown`.
    pub fn shut_down(&mut self) {
        self.q().shut_down();
    }
}
