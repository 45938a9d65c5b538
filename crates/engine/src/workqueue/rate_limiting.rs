//! The rate-limiting queue (client-go `util/workqueue/rate_limiting_queue.go`).
//!
//! A [`DelayingQueue`] plus a [`RateLimiter`]: `add_rate_limited` asks the limiter how long the
//! item should wait and then calls `add_after`; `forget` clears the limiter's memory of the item
//! (it does not touch the queue); `num_requeues` reports the limiter's count.

use std::hash::Hash;
#[cfg(test)]
use std::time::Duration;

use crate::sim::shared::Head;
use crate::time::SimTime;
use crate::workqueue::delaying::DelayingQueue;
use crate::workqueue::rate_limiter::{default_controller_rate_limiter, RateLimiter};

/// client-go's rate-limiting queue (`util/workqueue/rate_limiting_queue.go` `rateLimitingType`).
#[derive(Clone)]
pub struct RateLimitingQueue<T: 'static> {
    queue: DelayingQueue<T>,
    rate_limiter: Box<dyn RateLimiter<T>>,
}

impl<T: std::fmt::Debug> std::fmt::Debug for RateLimitingQueue<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimitingQueue")
            .field("queue", &self.queue)
            .finish_non_exhaustive()
    }
}

impl<T: Ord + Clone + Hash + Head + 'static> RateLimitingQueue<T> {
    /// A queue using `rate_limiter` (client-go `rate_limiting_queue.go`
    /// `NewTypedRateLimitingQueue`); accepts a concrete limiter or a `Box<dyn RateLimiter<T>>`.
    pub fn new(rate_limiter: impl RateLimiter<T> + 'static) -> RateLimitingQueue<T> {
        RateLimitingQueue {
            queue: DelayingQueue::new(),
            rate_limiter: Box::new(rate_limiter),
        }
    }

    /// A queue with [`default_controller_rate_limiter`], the classic controller-runtime setup
    /// (controller-runtime ≤ v0.22, or `UsePriorityQueue: false`).
    pub fn with_default_rate_limiter() -> RateLimitingQueue<T> {
        RateLimitingQueue::new(default_controller_rate_limiter())
    }
}

impl<T: Ord + Clone + Hash + Head> RateLimitingQueue<T> {
    /// Adds `item` after the limiter's delay (client-go `rate_limiting_queue.go`
    /// `AddRateLimited`). The limiter is asked first, so it counts the request even when the
    /// queue is shutting down and the add is then ignored, as upstream.
    pub fn add_rate_limited(&mut self, item: T, now: SimTime) {
        let delay = self.rate_limiter.when(&item, now);
        self.queue.add_after(item, delay, now);
    }

    /// Clears the limiter's failure count for `item` (client-go `rate_limiting_queue.go`
    /// `Forget`); the item stays wherever it is in the queue.
    pub fn forget(&mut self, item: &T) {
        self.rate_limiter.forget(item);
    }

    /// How often `item` was rate-limited since it was last forgotten (client-go
    /// `rate_limiting_queue.go` `NumRequeues`).
    pub fn num_requeues(&self, item: &T) -> u32 {
        self.rate_limiter.num_requeues(item)
    }
}

/// The delaying queue's methods (`add`, `get`, `done`, `add_after`, `len`, `shut_down`, …) are
/// the rate-limiting queue's own, as upstream's `rateLimitingType` embeds its
/// `TypedDelayingInterface` (Go's embedding, which Rust spells as `Deref`).
impl<T: 'static> std::ops::Deref for RateLimitingQueue<T> {
    type Target = DelayingQueue<T>;

    fn deref(&self) -> &DelayingQueue<T> {
        &self.queue
    }
}

impl<T: 'static> std::ops::DerefMut for RateLimitingQueue<T> {
    fn deref_mut(&mut self) -> &mut DelayingQueue<T> {
        &mut self.queue
    }
}

impl<T: Clone + Hash + Eq + 'static> crate::sim::large::LargeParts for RateLimitingQueue<T> {
    /// The delaying queue's, then the rate limiter's.
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn crate::sim::large::Large>) {
        crate::sim::large::LargeParts::large_parts(&mut self.queue, out);
        self.rate_limiter.large_parts(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workqueue::rate_limiter::ItemExponentialFailureRateLimiter;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn rate_limited_adds_wait_for_the_limiter_delay_and_forget_resets_it() {
        // client-go rate_limiting_queue_test.go TestRateLimitingQueue.
        let limiter =
            ItemExponentialFailureRateLimiter::new(ms(1), Duration::from_secs(1)).expect("valid");
        let mut q = RateLimitingQueue::new(limiter);
        let t0 = SimTime::from_millis(1_000);
        q.add_rate_limited("one", t0);
        assert_eq!(q.next_ready_at(), Some(t0 + ms(1)));
        q.advance(t0 + ms(1));
        assert_eq!(q.get(), Some("one"));
        q.done(&"one");

        q.add_rate_limited("one", t0 + ms(1));
        assert_eq!(
            q.next_ready_at(),
            Some(t0 + ms(3)),
            "second failure waits 2 ms"
        );
        assert_eq!(q.num_requeues(&"one"), 2);

        q.add_rate_limited("two", t0 + ms(1));
        q.add_rate_limited("two", t0 + ms(1));
        assert_eq!(q.num_requeues(&"two"), 2);

        q.forget(&"one");
        assert_eq!(q.num_requeues(&"one"), 0);
        assert_eq!(q.waiting_len(), 2, "forget does not touch the queue");
        q.add_rate_limited("one", t0 + ms(1));
        assert_eq!(q.num_requeues(&"one"), 1);
        assert_eq!(q.metrics().retries_total.value(), 5);
    }

    #[test]
    fn the_limiter_counts_a_rate_limited_add_even_after_shutdown() {
        let mut q = RateLimitingQueue::<&str>::with_default_rate_limiter();
        q.shut_down();
        q.add_rate_limited("a", SimTime::ZERO);
        assert_eq!(q.num_requeues(&"a"), 1);
        assert_eq!(q.waiting_len(), 0);
        assert_eq!(q.len(), 0);
    }

    #[test]
    fn a_boxed_limiter_can_be_passed_directly() {
        let boxed: Box<dyn RateLimiter<u32>> = default_controller_rate_limiter();
        let mut q = RateLimitingQueue::new(boxed);
        q.add_rate_limited(7, SimTime::ZERO);
        assert_eq!(q.next_ready_at(), Some(SimTime::from_millis(5)));
    }
}
