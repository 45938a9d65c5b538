//! The delaying queue (client-go `util/workqueue/delaying_queue.go`).
//!
//! A [`Queue`] plus a set of items waiting for a deadline. `add_after` with a positive delay puts
//! the item in the waiting set (one entry per item: a second deadline only ever moves it earlier);
//! when virtual time reaches the deadline the item is `add`ed to the queue, where the usual dirty
//! de-duplication applies.
//!
//! Deviations from upstream: there is no waiting goroutine, timer or 10 s heartbeat. Every call
//! that takes a `now` first moves due items into the queue, which is what upstream's loop does as
//! soon as its timer fires. Items due at the same instant are queued in deadline order, ties in
//! the order their entries were created (upstream's heap leaves ties unspecified).

use std::hash::Hash;
use std::time::Duration;

use crate::sim::shared::{Head, SharedMap};
use crate::time::SimTime;
use crate::workqueue::metrics::QueueMetrics;
use crate::workqueue::queue::Queue;

/// Position of a waiting entry: its deadline, then its creation sequence.
type WaitKey = (SimTime, u64);

/// client-go's delaying queue (`util/workqueue/delaying_queue.go` `delayingType`).
#[derive(Clone)]
pub struct DelayingQueue<T> {
    queue: Queue<T>,
    /// Shared with the checkpoints taken since ([`crate::sim::shared`]): after an outage most
    /// keys wait for a retry, and a copy of 150 000 entries would stall the page.
    waiting: SharedMap<WaitKey, T>,
    waiting_by_item: SharedMap<T, WaitKey>,
    next_sequence: u64,
}

impl<T: std::fmt::Debug> std::fmt::Debug for DelayingQueue<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DelayingQueue")
            .field("queue", &self.queue)
            .field("waiting", &self.waiting.len())
            .field("next_sequence", &self.next_sequence)
            .finish_non_exhaustive()
    }
}

impl<T: Ord + Clone + Hash + Head> Default for DelayingQueue<T> {
    fn default() -> DelayingQueue<T> {
        DelayingQueue::new()
    }
}

impl<T: Ord + Clone + Hash + Head> DelayingQueue<T> {
    /// An empty delaying queue whose clock starts at [`SimTime::ZERO`] (client-go
    /// `delaying_queue.go` `NewTypedDelayingQueueWithConfig`).
    pub fn new() -> DelayingQueue<T> {
        DelayingQueue {
            queue: Queue::new(),
            waiting: SharedMap::new(),
            waiting_by_item: SharedMap::new(),
            next_sequence: 0,
        }
    }

    /// Adds `item` once `delay` has passed after `now` (client-go `delaying_queue.go`
    /// `AddAfter`): ignored after shutdown; otherwise the retries metric goes up (even for a zero
    /// delay), a zero delay adds immediately, and a positive delay waits. An item that is already
    /// waiting keeps the earlier of its two deadlines. The deadline is `delay` after the queue's
    /// clock once moved to `now` (a `now` before the clock counts as the clock).
    pub fn add_after(&mut self, item: T, delay: Duration, now: SimTime) {
        self.advance(now);
        if self.queue.shutting_down() {
            return;
        }
        self.queue.record_retry();
        if delay.is_zero() {
            self.queue.add(item);
            return;
        }
        let ready_at = self.queue.now() + delay;
        self.insert_waiting(item, ready_at);
    }

    /// Inserts a waiting entry or moves an existing one earlier (client-go `delaying_queue.go`
    /// `insert`).
    fn insert_waiting(&mut self, item: T, ready_at: SimTime) {
        if let Some(&(old_ready_at, sequence)) = self.waiting_by_item.get(&item) {
            if ready_at < old_ready_at {
                self.waiting.remove(&(old_ready_at, sequence));
                self.waiting.insert((ready_at, sequence), item.clone());
                self.waiting_by_item.insert(item, (ready_at, sequence));
            }
            return;
        }
        let key = (ready_at, self.next_sequence);
        self.next_sequence = self.next_sequence.saturating_add(1);
        self.waiting.insert(key, item.clone());
        self.waiting_by_item.insert(item, key);
    }

    /// Moves the clock to `now` and adds every waiting item whose deadline is not after `now`,
    /// earliest first (client-go `delaying_queue.go` `waitingLoop`). Nothing moves after shutdown.
    #[inline]
    pub fn advance(&mut self, now: SimTime) {
        self.queue.set_now(now);
        if !self.waiting.is_empty() {
            self.add_ready();
        }
    }

    /// [`DelayingQueue::advance`]'s adds, when some item waits (the check is in line at each
    /// caller: in most runs nothing waits at most instants).
    #[inline(never)]
    fn add_ready(&mut self) {
        let now = self.queue.now();
        while let Some(&((ready_at, sequence), _)) = self.waiting.get_min() {
            if ready_at > now {
                break;
            }
            if let Some(item) = self.waiting.remove(&(ready_at, sequence)) {
                self.waiting_by_item.remove(&item);
                self.queue.add(item);
            }
        }
    }

    /// The earliest deadline among waiting items: when the simulation should call
    /// [`DelayingQueue::advance`] next. `None` when nothing waits (or after shutdown).
    pub fn next_ready_at(&self) -> Option<SimTime> {
        self.waiting.get_min().map(|((at, _), _)| *at)
    }

    /// The number of items waiting for their deadline.
    pub fn waiting_len(&self) -> usize {
        self.waiting.len()
    }

    /// See [`Queue::add`] (client-go `queue.go` `Add`).
    pub fn add(&mut self, item: T) {
        self.queue.add(item);
    }

    /// See [`Queue::add_caused`].
    pub fn add_caused(&mut self, item: T, cause: Option<crate::sim::EventId>) {
        self.queue.add_caused(item, cause);
    }

    /// See [`Queue::get`] (client-go `queue.go` `Get`).
    pub fn get(&mut self) -> Option<T> {
        self.queue.get()
    }

    /// See [`Queue::get_caused`].
    pub fn get_caused(&mut self) -> Option<(T, crate::workqueue::CauseIds)> {
        self.queue.get_caused()
    }

    /// See [`Queue::done`] (client-go `queue.go` `Done`).
    pub fn done(&mut self, item: &T) {
        self.queue.done(item);
    }

    /// See [`Queue::len`]: queued items only, not waiting or parked ones (client-go `queue.go`
    /// `Len`).
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Whether nothing is queued (waiting items do not count).
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// The number of items handed out and not yet done.
    pub fn processing_len(&self) -> usize {
        self.queue.processing_len()
    }

    /// Shuts the queue down (client-go `delaying_queue.go` `ShutDown`): adds are ignored and the
    /// waiting loop stops, so waiting items are dropped and never become ready.
    pub fn shut_down(&mut self) {
        self.queue.shut_down();
        self.drop_waiting();
    }

    /// See [`Queue::shut_down_with_drain`]; waiting items are dropped as with `shut_down`.
    pub fn shut_down_with_drain(&mut self) {
        self.queue.shut_down_with_drain();
        self.drop_waiting();
    }

    /// Forgets all waiting entries.
    fn drop_waiting(&mut self) {
        self.waiting.clear();
        self.waiting_by_item.clear();
    }

    /// See [`Queue::is_drained`].
    pub fn is_drained(&self) -> bool {
        self.queue.is_drained()
    }

    /// Whether the queue has been shut down (client-go `queue.go` `ShuttingDown`).
    pub fn shutting_down(&self) -> bool {
        self.queue.shutting_down()
    }

    /// Moves the clock to `now`; the same as [`DelayingQueue::advance`], because upstream's
    /// waiting loop reacts to the clock by itself.
    pub fn set_now(&mut self, now: SimTime) {
        self.advance(now);
    }

    /// The queue's clock.
    pub fn now(&self) -> SimTime {
        self.queue.now()
    }

    /// The queue's metrics; `retries_total` counts every `add_after` (client-go `metrics.go`).
    pub fn metrics(&self) -> &QueueMetrics {
        self.queue.metrics()
    }

    /// Makes room for `additional` more items at once ([`Queue::reserve`]).
    pub fn reserve(&mut self, additional: usize) {
        self.queue.reserve(additional);
    }
}

impl<T: Clone + Hash + Eq + 'static> crate::sim::large::LargeParts for DelayingQueue<T> {
    /// The queue's (the waiting items are shared with the checkpoints).
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn crate::sim::large::Large>) {
        crate::sim::large::LargeParts::large_parts(&mut self.queue, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn at(n: u64) -> SimTime {
        SimTime::from_millis(n)
    }

    #[test]
    fn a_delayed_item_is_queued_only_once_its_delay_has_passed() {
        // client-go delaying_queue_test.go TestSimpleQueue.
        let mut q = DelayingQueue::new();
        q.add_after("foo", ms(50), at(0));
        assert_eq!(q.len(), 0);
        assert_eq!(q.next_ready_at(), Some(at(50)));
        q.advance(at(49));
        assert_eq!(q.len(), 0);
        q.advance(at(60));
        assert_eq!(q.len(), 1);
        let item = q.get().expect("foo became ready");
        q.done(&item);
        q.advance(at(10_060));
        assert_eq!(q.len(), 0, "nothing is added again after the heartbeat");
        assert_eq!(q.next_ready_at(), None);
    }

    #[test]
    fn a_later_deadline_for_a_waiting_item_is_ignored_and_an_earlier_one_wins() {
        // client-go delaying_queue_test.go TestDeduping.
        let mut q = DelayingQueue::new();
        q.add_after("foo", ms(50), at(0));
        q.add_after("foo", ms(70), at(0));
        assert_eq!(q.waiting_len(), 1);
        q.advance(at(60));
        assert_eq!(q.len(), 1);
        let item = q.get().expect("ready at 50 ms");
        q.done(&item);
        q.advance(at(80));
        assert_eq!(q.len(), 0, "the 70 ms deadline was merged away");

        q.add_after("foo", ms(50), at(80));
        q.add_after("foo", ms(30), at(80));
        assert_eq!(q.next_ready_at(), Some(at(110)));
        q.advance(at(120));
        assert_eq!(q.len(), 1);
        let item = q.get().expect("ready at 110 ms");
        q.done(&item);
        q.advance(at(140));
        assert_eq!(q.len(), 0);
    }

    #[test]
    fn items_become_ready_in_deadline_order_not_insertion_order() {
        // client-go delaying_queue_test.go TestAddTwoFireEarly.
        let mut q = DelayingQueue::new();
        q.add_after("foo", ms(1_000), at(0));
        q.add_after("bar", ms(50), at(0));
        q.advance(at(60));
        assert_eq!(q.get(), Some("bar"));
        q.add_after("baz", ms(2_000), at(60));
        q.advance(at(1_060));
        assert_eq!(q.get(), Some("foo"));
        q.advance(at(3_060));
        assert_eq!(q.get(), Some("baz"));
    }

    #[test]
    fn several_items_due_at_once_are_queued_earliest_deadline_first() {
        // client-go delaying_queue_test.go TestCopyShifting.
        let mut q = DelayingQueue::new();
        q.add_after("foo", ms(1_000), at(0));
        q.add_after("bar", ms(500), at(0));
        q.add_after("baz", ms(250), at(0));
        assert_eq!(q.len(), 0);
        q.advance(at(2_000));
        assert_eq!(q.len(), 3);
        assert_eq!(q.get(), Some("baz"));
        assert_eq!(q.get(), Some("bar"));
        assert_eq!(q.get(), Some("foo"));
    }

    #[test]
    fn equal_deadlines_become_ready_in_insertion_order() {
        let mut q = DelayingQueue::new();
        for name in ["c", "a", "b"] {
            q.add_after(name, ms(10), at(0));
        }
        q.advance(at(10));
        assert_eq!(q.get(), Some("c"));
        assert_eq!(q.get(), Some("a"));
        assert_eq!(q.get(), Some("b"));
    }

    #[test]
    fn every_add_after_counts_as_a_retry_even_without_delay() {
        // client-go delaying_queue.go AddAfter: metrics.retry() before the duration check.
        let mut q = DelayingQueue::new();
        q.add_after("a", Duration::ZERO, at(0));
        q.add_after("a", ms(5), at(0));
        assert_eq!(q.metrics().retries_total.value(), 2);
        assert_eq!(q.len(), 1, "a zero delay adds immediately");
        q.shut_down();
        q.add_after("a", ms(5), at(1));
        assert_eq!(
            q.metrics().retries_total.value(),
            2,
            "ignored after shutdown"
        );
    }

    #[test]
    fn waiting_items_never_become_ready_after_shutdown() {
        let mut q = DelayingQueue::new();
        q.add_after("a", ms(5), at(0));
        q.shut_down();
        q.advance(at(10));
        assert_eq!(q.len(), 0);
        assert_eq!(q.next_ready_at(), None);
    }

    #[test]
    fn a_delayed_item_that_is_already_dirty_is_not_queued_twice() {
        let mut q = DelayingQueue::new();
        q.add("a");
        q.add_after("a", ms(5), at(0));
        q.advance(at(5));
        assert_eq!(q.len(), 1);
        assert_eq!(q.metrics().adds_total.value(), 1);
    }
}
