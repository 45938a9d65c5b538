//! The event queue: pending events ordered by `(time, insertion sequence)`; a continuation of an
//! event handled earlier sorts right after that event (`(time, its sequence, continuation order)`).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::time::SimTime;

/// A pending event: due at `at`, scheduled as the `seq`-th event of the run; `sub` is 0 for an
/// event scheduled normally and orders the continuations that share an event's `seq`.
#[derive(Debug)]
struct Entry<E> {
    at: SimTime,
    seq: u64,
    sub: u64,
    event: E,
}

impl<E> Entry<E> {
    fn order(&self) -> (SimTime, u64, u64) {
        (self.at, self.seq, self.sub)
    }
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.order() == other.order()
    }
}

impl<E> Eq for Entry<E> {}

impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<E> Ord for Entry<E> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.order().cmp(&other.order())
    }
}

/// A min-queue of events. Events due at the same instant come out in the order they were
/// scheduled, so a run never depends on heap internals.
#[derive(Debug)]
pub struct EventQueue<E> {
    heap: BinaryHeap<Reverse<Entry<E>>>,
    next_seq: u64,
    next_sub: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            heap: BinaryHeap::new(),
            next_seq: 0,
            next_sub: 1,
        }
    }
}

impl<E> EventQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Schedules `event` at `at`.
    pub fn schedule(&mut self, at: SimTime, event: E) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Reverse(Entry {
            at,
            seq,
            sub: 0,
            event,
        }));
    }

    /// The due time of the earliest event.
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|Reverse(e)| e.at)
    }

    /// Removes and returns the earliest event.
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        self.pop_entry().map(|(at, _, event)| (at, event))
    }

    /// Removes and returns the earliest event with its sequence number.
    pub(crate) fn pop_entry(&mut self) -> Option<(SimTime, u64, E)> {
        self.heap.pop().map(|Reverse(e)| (e.at, e.seq, e.event))
    }

    /// Schedules `event` at `at` as a continuation of the handled event of sequence `seq`: it
    /// sorts where that event did, before every event scheduled after it, and after the
    /// continuations scheduled before it.
    pub(crate) fn schedule_continuation(&mut self, at: SimTime, seq: u64, event: E) {
        let sub = self.next_sub;
        self.next_sub += 1;
        self.heap.push(Reverse(Entry {
            at,
            seq,
            sub,
            event,
        }));
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Whether no event is pending.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// How many events were ever scheduled.
    pub fn scheduled_total(&self) -> u64 {
        self.next_seq
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_come_out_in_time_order() {
        let mut q = EventQueue::new();
        q.schedule(SimTime::from_millis(30), "c");
        q.schedule(SimTime::from_millis(10), "a");
        q.schedule(SimTime::from_millis(20), "b");
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).map(|(_, e)| e).collect();
        assert_eq!(order, ["a", "b", "c"]);
    }

    #[test]
    fn events_at_the_same_time_come_out_in_insertion_order() {
        let mut q = EventQueue::new();
        let t = SimTime::from_millis(5);
        for i in 0..100 {
            q.schedule(t, i);
        }
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).map(|(_, e)| e).collect();
        assert_eq!(order, (0..100).collect::<Vec<_>>());
    }
}
