//! The operations a controller needs from its work queue, shared by the classic
//! [`RateLimitingQueue`] and the [`PriorityQueue`] (client-go `util/workqueue/rate_limiting_queue.go`
//! `TypedRateLimitingInterface`; controller-runtime `pkg/controller/priorityqueue/priorityqueue.go`
//! `PriorityQueue`).

use std::hash::Hash;
use std::time::Duration;

use crate::sim::shared::Head;
use crate::sim::EventId;
use crate::time::SimTime;
use crate::workqueue::causes::CauseIds;
use crate::workqueue::delaying::DelayingQueue;
use crate::workqueue::metrics::QueueMetrics;
use crate::workqueue::priority::{AddOpts, PriorityQueue};
use crate::workqueue::rate_limiting::RateLimitingQueue;

/// A rate-limited, delaying work queue driven by virtual time (client-go
/// `rate_limiting_queue.go` `TypedRateLimitingInterface`, with the non-blocking `get` of this
/// crate and an explicit clock).
pub trait RateLimitingInterface<T> {
    /// Marks `item` as needing processing now (`Add`).
    fn add(&mut self, item: T);
    /// Adds `item` once `delay` has passed after `now` (`AddAfter`).
    fn add_after(&mut self, item: T, delay: Duration, now: SimTime);
    /// Adds `item` after the rate limiter's delay (`AddRateLimited`).
    fn add_rate_limited(&mut self, item: T, now: SimTime);
    /// Clears the rate limiter's count for `item` (`Forget`).
    fn forget(&mut self, item: &T);
    /// The rate limiter's count for `item` (`NumRequeues`).
    fn num_requeues(&self, item: &T) -> u32;
    /// Hands out the next item, or `None` (`Get`, without blocking).
    fn get(&mut self) -> Option<T>;
    /// Hands out the next item with its priority (`GetWithPriority`); the classic queue has no
    /// priorities and reports 0.
    fn get_with_priority(&mut self) -> Option<(T, i32)> {
        self.get_caused()
            .map(|(item, priority, _)| (item, priority))
    }
    /// [`RateLimitingInterface::add`], made by event `cause`, kept with the item's entry
    /// ([`CauseIds`]).
    fn add_caused(&mut self, item: T, cause: Option<EventId>);
    /// [`RateLimitingInterface::get_with_priority`], with the causes of the adds merged into the
    /// item since it was last handed out.
    fn get_caused(&mut self) -> Option<(T, i32, CauseIds)>;
    /// Marks `item` as processed (`Done`).
    fn done(&mut self, item: &T);
    /// Items that could be handed out now (`Len`).
    fn len(&self) -> usize;
    /// Whether `len` is zero.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Stops the queue (`ShutDown`).
    fn shut_down(&mut self);
    /// Whether the queue was stopped (`ShuttingDown`).
    fn shutting_down(&self) -> bool;
    /// Moves the clock to `now` and readies due items.
    fn advance(&mut self, now: SimTime);
    /// When the next waiting item becomes ready.
    fn next_ready_at(&self) -> Option<SimTime>;
    /// The queue's metrics.
    fn metrics(&self) -> &QueueMetrics;
    /// Makes room for `additional` more items in the queue's item maps at once, so that adding
    /// them never rehashes a large map inside one event.
    fn reserve(&mut self, additional: usize);
}

impl<T: Ord + Clone + Hash + Head> RateLimitingInterface<T> for RateLimitingQueue<T> {
    fn add(&mut self, item: T) {
        DelayingQueue::add(self, item);
    }
    fn add_caused(&mut self, item: T, cause: Option<EventId>) {
        DelayingQueue::add_caused(self, item, cause);
    }
    fn get_caused(&mut self) -> Option<(T, i32, CauseIds)> {
        DelayingQueue::get_caused(self).map(|(item, causes)| (item, 0, causes))
    }
    fn add_after(&mut self, item: T, delay: Duration, now: SimTime) {
        DelayingQueue::add_after(self, item, delay, now);
    }
    fn add_rate_limited(&mut self, item: T, now: SimTime) {
        RateLimitingQueue::add_rate_limited(self, item, now);
    }
    fn forget(&mut self, item: &T) {
        RateLimitingQueue::forget(self, item);
    }
    fn num_requeues(&self, item: &T) -> u32 {
        RateLimitingQueue::num_requeues(self, item)
    }
    fn get(&mut self) -> Option<T> {
        DelayingQueue::get(self)
    }
    fn done(&mut self, item: &T) {
        DelayingQueue::done(self, item);
    }
    fn len(&self) -> usize {
        DelayingQueue::len(self)
    }
    fn shut_down(&mut self) {
        DelayingQueue::shut_down(self);
    }
    fn shutting_down(&self) -> bool {
        DelayingQueue::shutting_down(self)
    }
    fn advance(&mut self, now: SimTime) {
        DelayingQueue::advance(self, now);
    }
    fn next_ready_at(&self) -> Option<SimTime> {
        DelayingQueue::next_ready_at(self)
    }
    fn metrics(&self) -> &QueueMetrics {
        DelayingQueue::metrics(self)
    }
    fn reserve(&mut self, additional: usize) {
        DelayingQueue::reserve(self, additional);
    }
}

impl<T: Ord + Clone + Hash + Head> RateLimitingInterface<T> for PriorityQueue<T> {
    fn add(&mut self, item: T) {
        PriorityQueue::add(self, item);
    }
    fn add_caused(&mut self, item: T, cause: Option<EventId>) {
        let now = self.now();
        PriorityQueue::add_with_opts_caused(self, item, AddOpts::default(), now, cause);
    }
    fn get_caused(&mut self) -> Option<(T, i32, CauseIds)> {
        PriorityQueue::get_caused(self)
    }
    fn add_after(&mut self, item: T, delay: Duration, now: SimTime) {
        PriorityQueue::add_after(self, item, delay, now);
    }
    fn add_rate_limited(&mut self, item: T, now: SimTime) {
        PriorityQueue::add_rate_limited(self, item, now);
    }
    fn forget(&mut self, item: &T) {
        PriorityQueue::forget(self, item);
    }
    fn num_requeues(&self, item: &T) -> u32 {
        PriorityQueue::num_requeues(self, item)
    }
    fn get(&mut self) -> Option<T> {
        PriorityQueue::get(self)
    }
    fn get_with_priority(&mut self) -> Option<(T, i32)> {
        PriorityQueue::get_with_priority(self)
    }
    fn done(&mut self, item: &T) {
        PriorityQueue::done(self, item);
    }
    fn len(&self) -> usize {
        PriorityQueue::len(self)
    }
    fn shut_down(&mut self) {
        PriorityQueue::shut_down(self);
    }
    fn shutting_down(&self) -> bool {
        PriorityQueue::shutting_down(self)
    }
    fn advance(&mut self, now: SimTime) {
        PriorityQueue::advance(self, now);
    }
    fn next_ready_at(&self) -> Option<SimTime> {
        PriorityQueue::next_ready_at(self)
    }
    fn metrics(&self) -> &QueueMetrics {
        PriorityQueue::metrics(self)
    }
    fn reserve(&mut self, additional: usize) {
        PriorityQueue::reserve(self, additional);
    }
}
