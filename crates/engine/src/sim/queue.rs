//! The event queue: pending events ordered by `(time, insertion sequence)`; a continuation of an
//! event handled earlier sorts right after that event (`(time, its sequence, continuation order)`).
//!
//! The heap holds only small `(time, sequence, slot)` keys; each event's payload waits in a slot
//! of a slab and is moved once in and once out, never while the heap sifts. An event due before
//! the heap's top when it is scheduled (nearly half of a busy run's: a reply, the next step of
//! the informer or a worker) waits instead in a short sorted line in front of the heap (a
//! vector, latest first, so the earliest leaves by a pop), and leaves without sifting through
//! the heap twice; the next event is the earlier of the two heads. Continuations wait in their own first-in-first-out line: they are always
//! asked for by the event just handled, so they sort before every pending event and in the
//! order they were asked for.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::time::SimTime;

/// A pending event's place in the order: due at `at`, scheduled as the `seq`-th event of the
/// run, its payload in `slot`. `(at, seq)` is unique, so the slot never decides the order: keys
/// are ordered (and equal) by [`Key::order`] alone.
#[derive(Clone, Copy, Debug)]
struct Key {
    at: SimTime,
    seq: u64,
    slot: u32,
}

impl Key {
    /// `(at, seq)` as one number, the time in the high half: the heap's sifting compares one
    /// 128-bit number (two words, without a branch between them) instead of two fields in turn.
    fn order(self) -> u128 {
        (u128::from(self.at.as_nanos()) << 64) | u128::from(self.seq)
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        self.order() == other.order()
    }
}

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Key) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Key) -> std::cmp::Ordering {
        self.order().cmp(&other.order())
    }
}

/// The most keys the front line holds; an event that would sort there when it is full goes into
/// the heap (the two heads are compared on every pop, so either place keeps the order). Inserting
/// into a short sorted line moves a few keys at most.
const FRONT_CAPACITY: usize = 16;

/// Payloads by slot; a freed slot is reused by the next event scheduled.
#[derive(Clone, Debug)]
struct Slab<E> {
    slots: Vec<Option<E>>,
    free: Vec<u32>,
}

impl<E> Slab<E> {
    fn insert(&mut self, event: E) -> u32 {
        match self.free.pop() {
            Some(slot) => {
                self.slots[slot as usize] = Some(event);
                slot
            }
            None => {
                let slot = u32::try_from(self.slots.len()).expect("fewer than 2^32 pending events");
                self.slots.push(Some(event));
                slot
            }
        }
    }

    fn take(&mut self, slot: u32) -> E {
        self.free.push(slot);
        self.slots[slot as usize]
            .take()
            .expect("a key's slot holds its event")
    }
}

/// A min-queue of events. Events due at the same instant come out in the order they were
/// scheduled, so a run never depends on heap internals.
#[derive(Clone, Debug)]
pub struct EventQueue<E> {
    heap: BinaryHeap<Reverse<Key>>,
    /// Keys that sorted before the heap's top when scheduled, latest first (the earliest leaves
    /// from the end, as a `Vec` pops), at most [`FRONT_CAPACITY`].
    front: Vec<Key>,
    slab: Slab<E>,
    /// Continuations of the event handled last, with its time and sequence, in the order asked.
    continuations: VecDeque<(SimTime, u64, E)>,
    next_seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            heap: BinaryHeap::new(),
            front: Vec::new(),
            slab: Slab {
                slots: Vec::new(),
                free: Vec::new(),
            },
            continuations: VecDeque::new(),
            next_seq: 0,
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
        let slot = self.slab.insert(event);
        let key = Key { at, seq, slot };
        let before_heap = self.heap.peek().is_none_or(|Reverse(top)| key < *top);
        if before_heap && self.front.len() < FRONT_CAPACITY {
            let place = self.front.partition_point(|k| *k > key);
            self.front.insert(place, key);
        } else {
            self.heap.push(Reverse(key));
        }
    }

    /// The earliest pending key of the heap and the front line (continuations aside).
    fn peek_key(&self) -> Option<Key> {
        match (self.front.last(), self.heap.peek()) {
            (Some(f), Some(Reverse(h))) => Some(*f.min(h)),
            (Some(f), None) => Some(*f),
            (None, h) => h.map(|Reverse(h)| *h),
        }
    }

    /// Takes the earliest pending key of the heap and the front line.
    fn pop_key(&mut self) -> Option<Key> {
        match (self.front.last(), self.heap.peek()) {
            (Some(f), Some(Reverse(h))) if h < f => self.heap.pop().map(|Reverse(h)| h),
            (Some(_), _) => self.front.pop(),
            (None, _) => self.heap.pop().map(|Reverse(h)| h),
        }
    }

    /// Whether the next event is the first waiting continuation rather than the heap's top: a
    /// continuation sorts after the event it continues (`sub` > 0) and before every later one.
    fn continuation_first(&self) -> bool {
        match (self.continuations.front(), self.peek_key()) {
            (Some(_), None) => true,
            (Some(&(at, seq, _)), Some(top)) => (at, seq) < (top.at, top.seq),
            (None, _) => false,
        }
    }

    /// The due time of the earliest event.
    pub fn peek_time(&self) -> Option<SimTime> {
        if self.continuation_first() {
            self.continuations.front().map(|c| c.0)
        } else {
            self.peek_key().map(|k| k.at)
        }
    }

    /// Removes and returns the earliest event.
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        self.pop_entry().map(|(at, _, event)| (at, event))
    }

    /// Removes and returns the earliest event with its sequence number.
    pub(crate) fn pop_entry(&mut self) -> Option<(SimTime, u64, E)> {
        if self.continuation_first() {
            return self.continuations.pop_front();
        }
        let key = self.pop_key()?;
        Some((key.at, key.seq, self.slab.take(key.slot)))
    }

    /// Schedules `event` at `at` as a continuation of the handled event of sequence `seq`: it
    /// sorts where that event did, before every event scheduled after it, and after the
    /// continuations scheduled before it. `at` and `seq` are those of the event popped last
    /// (every waiting continuation shares them).
    pub(crate) fn schedule_continuation(&mut self, at: SimTime, seq: u64, event: E) {
        debug_assert!(self
            .continuations
            .back()
            .is_none_or(|&(a, s, _)| (a, s) == (at, seq)));
        self.continuations.push_back((at, seq, event));
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.heap.len() + self.front.len() + self.continuations.len()
    }

    /// Whether no event is pending.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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

    #[test]
    fn continuations_come_out_before_later_events_and_in_the_order_asked() {
        let mut q = EventQueue::new();
        let t = SimTime::from_millis(5);
        q.schedule(t, "first");
        q.schedule(t, "second");
        let (at, seq, e) = q.pop_entry().expect("two are pending");
        assert_eq!(e, "first");
        q.schedule(t, "scheduled-by-first");
        q.schedule_continuation(at, seq, "part-1");
        q.schedule_continuation(at, seq, "part-2");
        assert_eq!(q.len(), 4);
        assert_eq!(q.peek_time(), Some(t));
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).map(|(_, e)| e).collect();
        assert_eq!(order, ["part-1", "part-2", "second", "scheduled-by-first"]);
    }

    #[test]
    fn a_slot_freed_by_a_popped_event_holds_the_next_one() {
        let mut q = EventQueue::new();
        for i in 0..1000u64 {
            q.schedule(SimTime::from_millis(i), i);
            q.schedule(SimTime::from_millis(i + 1), i);
            q.pop();
            q.pop();
        }
        assert!(q.is_empty());
        assert_eq!(
            q.slab.slots.len(),
            2,
            "two events were never pending at once"
        );
    }

    #[test]
    fn events_due_before_a_distant_timer_fill_the_front_line_past_its_capacity_and_keep_order() {
        let mut q = EventQueue::new();
        q.schedule(SimTime::from_millis(1_000), "timer".to_owned());
        let mut expected = Vec::new();
        // twice the front line's capacity, due in reverse order: the line fills, then the rest
        // go into the heap beside the timer
        for i in (0..2 * FRONT_CAPACITY as u64).rev() {
            q.schedule(SimTime::from_millis(i), format!("e{i}"));
        }
        assert_eq!(q.front.len(), FRONT_CAPACITY);
        assert_eq!(q.len(), 2 * FRONT_CAPACITY + 1);
        expected.extend((0..2 * FRONT_CAPACITY as u64).map(|i| format!("e{i}")));
        expected.push("timer".to_owned());
        let order: Vec<String> = std::iter::from_fn(|| q.pop())
            .map(|(_, e)| e.to_string())
            .collect();
        assert_eq!(order, expected);
    }

    #[test]
    fn random_schedules_come_out_as_a_sort_by_time_then_sequence_would_give() {
        let mut rng = crate::sim::Rng::seeded(7);
        let mut q = EventQueue::new();
        let mut model: Vec<(SimTime, u64)> = Vec::new();
        let mut popped = Vec::new();
        let mut expected = Vec::new();
        for seq in 0..5000u64 {
            let at = SimTime::from_millis(rng.below(50));
            q.schedule(at, seq);
            model.push((at, seq));
            if rng.below(3) == 0 {
                model.sort();
                expected.push(model.remove(0).1);
                popped.push(q.pop().expect("one is pending").1);
            }
        }
        model.sort();
        expected.extend(model.iter().map(|&(_, seq)| seq));
        popped.extend(std::iter::from_fn(|| q.pop()).map(|(_, e)| e));
        assert_eq!(popped, expected);
    }
}
