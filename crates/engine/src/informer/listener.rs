//! A shared informer's per-handler notification buffer (client-go `tools/cache/shared_informer.go`
//! `processorListener`, backed by `k8s.io/utils/buffer/ring_growing.go` `RingGrowing`).
//!
//! ```text
//!  distribute ──add()──▶ [notification in hand] ──next_notification()──▶ handler (OnAdd/OnUpdate/OnDelete)
//!                              ▲     │ (hand busy)
//!                              │     ▼
//!                        pending_notifications: RingGrowing (1024, doubles, never shrinks)
//! ```
//!
//! Upstream, `pop()` keeps one notification in a local variable while it waits for `run()` to take
//! it, and parks every further notification in `pendingNotifications`. A stalled handler therefore
//! grows the ring without bound: it is one of the things that grow until the process runs out of
//! memory. [`ProcessorListener`] reproduces that split, so `pending_len()` is the upstream
//! `pendingNotificationsLength`.

use std::time::Duration;

use crate::time::SimTime;

/// `initialBufferSize` (client-go `tools/cache/shared_informer.go`): the starting capacity of every
/// listener's `pendingNotifications` ring.
pub const INITIAL_BUFFER_SIZE: usize = 1024;

/// `defaultRingSize` (`k8s.io/utils/buffer/ring_growing.go`): the capacity a zero-sized ring grows to
/// on its first write.
pub const DEFAULT_RING_SIZE: usize = 16;

/// An unbounded FIFO ring buffer that doubles when full and never shrinks
/// (`k8s.io/utils/buffer/ring_growing.go` `TypedRingGrowing`).
///
/// The logical capacity is the Go slice length `n`: it starts at the requested size, becomes
/// [`DEFAULT_RING_SIZE`] on the first write if it was 0, and doubles whenever a write finds it full.
#[derive(Clone, Debug)]
pub struct RingGrowing<T> {
    /// Slots; `data.len()` is the capacity `n`. Read slots are reset to `None` (Go zeroes them).
    data: Vec<Option<T>>,
    /// Index of the first readable slot (`beg`).
    beg: usize,
    /// Number of readable items (`readable`).
    readable: usize,
}

impl<T> Default for RingGrowing<T> {
    /// An empty ring of capacity 0 (Go's zero value), which grows to 16 on first write.
    fn default() -> Self {
        RingGrowing::new(0)
    }
}

impl<T> RingGrowing<T> {
    /// A ring with `initial_size` pre-allocated slots (`NewTypedRingGrowing`).
    pub fn new(initial_size: usize) -> Self {
        RingGrowing {
            data: empty_slots(initial_size),
            beg: 0,
            readable: 0,
        }
    }

    /// Appends `item` at the end, doubling the capacity first if the ring is full (`WriteOne`).
    pub fn push(&mut self, item: T) {
        if self.readable == self.data.len() {
            self.grow();
        }
        let n = self.data.len();
        let at = (self.beg + self.readable) % n;
        self.data[at] = Some(item);
        self.readable += 1;
    }

    /// Removes and returns the oldest item, or `None` when empty (`ReadOne`).
    pub fn pop(&mut self) -> Option<T> {
        if self.readable == 0 {
            return None;
        }
        let item = self.data[self.beg].take();
        self.readable -= 1;
        self.beg = if self.beg + 1 == self.data.len() {
            0
        } else {
            self.beg + 1
        };
        item
    }

    /// The oldest item without removing it.
    pub fn peek(&self) -> Option<&T> {
        if self.readable == 0 {
            return None;
        }
        self.data[self.beg].as_ref()
    }

    /// Number of buffered items (`Len`).
    pub fn len(&self) -> usize {
        self.readable
    }

    /// Whether nothing is buffered.
    pub fn is_empty(&self) -> bool {
        self.readable == 0
    }

    /// The number of slots allocated (`Cap`): only ever grows.
    pub fn capacity(&self) -> usize {
        self.data.len()
    }

    /// The buffered items, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        let n = self.data.len();
        (0..self.readable).filter_map(move |i| self.data[(self.beg + i) % n].as_ref())
    }

    /// Moves the readable items, in order, to the front of a buffer twice as large (16 if empty).
    fn grow(&mut self) {
        let n = self.data.len();
        let new_n = if n == 0 {
            DEFAULT_RING_SIZE
        } else {
            n.saturating_mul(2)
        };
        let mut grown = empty_slots(new_n);
        for (i, slot) in grown.iter_mut().take(self.readable).enumerate() {
            *slot = self.data[(self.beg + i) % n].take();
        }
        self.data = grown;
        self.beg = 0;
    }
}

/// `n` empty slots.
fn empty_slots<T>(n: usize) -> Vec<Option<T>> {
    let mut v = Vec::with_capacity(n);
    v.resize_with(n, || None);
    v
}

/// One event handler's notification relay and resync bookkeeping (client-go
/// `tools/cache/shared_informer.go` `processorListener`).
///
/// `T` is the notification (add / update / delete); the listener does not look inside it.
#[derive(Clone, Debug)]
pub struct ProcessorListener<T> {
    /// The notification `pop()` holds while waiting for `run()` (the local `notification`).
    in_hand: Option<T>,
    /// Everything behind it (`pendingNotifications`).
    pending_notifications: RingGrowing<T>,
    /// The period the handler asked for, after the minimum was applied (`requestedResyncPeriod`).
    requested_resync_period: Duration,
    /// The period actually used; 0 when the informer does not resync (`resyncPeriod`).
    resync_period: Duration,
    /// The earliest instant of the next resync (`nextResync`).
    next_resync: SimTime,
    /// Notifications ever added.
    added_total: u64,
    /// Notifications ever handed to the handler.
    delivered_total: u64,
}

impl<T> ProcessorListener<T> {
    /// A listener with the upstream buffer size ([`INITIAL_BUFFER_SIZE`]); the first resync is due
    /// at `now + resync_period` (`newProcessListener` calls `determineNextResync(now)`).
    pub fn new(requested_resync_period: Duration, resync_period: Duration, now: SimTime) -> Self {
        Self::with_buffer_size(
            requested_resync_period,
            resync_period,
            now,
            INITIAL_BUFFER_SIZE,
        )
    }

    /// As [`ProcessorListener::new`] with a chosen initial ring size (`bufferSize`).
    pub fn with_buffer_size(
        requested_resync_period: Duration,
        resync_period: Duration,
        now: SimTime,
        buffer_size: usize,
    ) -> Self {
        let mut listener = ProcessorListener {
            in_hand: None,
            pending_notifications: RingGrowing::new(buffer_size),
            requested_resync_period,
            resync_period,
            next_resync: now,
            added_total: 0,
            delivered_total: 0,
        };
        listener.determine_next_resync(now);
        listener
    }

    /// Accepts a notification (`add` + the `addCh` branch of `pop`): it goes straight into the hand
    /// if the hand is empty, else to the back of `pending_notifications`.
    pub fn add(&mut self, notification: T) {
        self.added_total += 1;
        if self.in_hand.is_none() {
            self.in_hand = Some(notification);
        } else {
            self.pending_notifications.push(notification);
        }
    }

    /// Hands the next notification to the handler (the `nextCh <- notification` branch of `pop`)
    /// and refills the hand from the ring.
    pub fn next_notification(&mut self) -> Option<T> {
        let next = self.in_hand.take()?;
        self.in_hand = self.pending_notifications.pop();
        self.delivered_total += 1;
        Some(next)
    }

    /// The ring behind the hand (`pendingNotifications`).
    pub fn pending_notifications(&self) -> &RingGrowing<T> {
        &self.pending_notifications
    }

    /// `pendingNotificationsLength`: items in the ring, not counting the one in hand.
    pub fn pending_len(&self) -> usize {
        self.pending_notifications.len()
    }

    /// Everything not yet handed to the handler: the ring plus the one in hand.
    pub fn queued_len(&self) -> usize {
        self.pending_len() + usize::from(self.in_hand.is_some())
    }

    /// Capacity of the ring: grows, never shrinks.
    pub fn buffer_capacity(&self) -> usize {
        self.pending_notifications.capacity()
    }

    /// Whether upstream `run()` would trace the handler call because more than
    /// [`INITIAL_BUFFER_SIZE`] notifications are pending.
    pub fn is_backlogged(&self) -> bool {
        self.pending_len() > INITIAL_BUFFER_SIZE
    }

    /// Notifications ever added.
    pub fn added_total(&self) -> u64 {
        self.added_total
    }

    /// Notifications ever handed to the handler.
    pub fn delivered_total(&self) -> u64 {
        self.delivered_total
    }

    /// Whether the listener is due a resync at `now` (`shouldResync`): never when the period is 0,
    /// else when `now >= next_resync`.
    pub fn should_resync(&self, now: SimTime) -> bool {
        !self.resync_period.is_zero() && now >= self.next_resync
    }

    /// Sets the next resync to `now + resync_period` (`determineNextResync`).
    pub fn determine_next_resync(&mut self, now: SimTime) {
        self.next_resync = now + self.resync_period;
    }

    /// Changes the period in use (`setResyncPeriod`); the next resync instant is kept.
    pub fn set_resync_period(&mut self, resync_period: Duration) {
        self.resync_period = resync_period;
    }

    /// The period in use; 0 = never.
    pub fn resync_period(&self) -> Duration {
        self.resync_period
    }

    /// The period the handler asked for (after the 1 s minimum).
    pub fn requested_resync_period(&self) -> Duration {
        self.requested_resync_period
    }

    /// The earliest instant of the next resync.
    pub fn next_resync(&self) -> SimTime {
        self.next_resync
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Mirrors k8s.io/utils buffer/ring_growing_test.go TestGrowthGrowing ("nonzero").
    #[test]
    fn a_ring_of_one_grows_by_doubling_and_reads_back_in_order() {
        let mut ring = RingGrowing::new(1);
        for i in 0..10 {
            assert_eq!(ring.len(), i);
            ring.push(i);
        }
        assert_eq!(ring.len(), 10);
        assert_eq!(ring.capacity(), 16);
        let read: Vec<usize> = std::iter::from_fn(|| ring.pop()).collect();
        assert_eq!(read, (0..10).collect::<Vec<_>>());
        assert_eq!(ring.capacity(), 16);
    }

    #[test]
    fn a_listener_keeps_one_notification_in_hand_and_the_rest_pending() {
        let mut l = ProcessorListener::new(Duration::ZERO, Duration::ZERO, SimTime::ZERO);
        l.add(1);
        assert_eq!((l.pending_len(), l.queued_len()), (0, 1));
        l.add(2);
        l.add(3);
        assert_eq!((l.pending_len(), l.queued_len()), (2, 3));
        assert_eq!(l.next_notification(), Some(1));
        assert_eq!(l.pending_len(), 1);
        assert_eq!(l.next_notification(), Some(2));
        assert_eq!(l.next_notification(), Some(3));
        assert_eq!(l.next_notification(), None);
    }
}
