//! The basic work queue (client-go `util/workqueue/queue.go`, `Typed`).
//!
//! Three collections: `queue` (FIFO order of work), `dirty` (items that need processing) and
//! `processing` (items handed to a worker and not yet `done`). Every queued item is dirty and not
//! processing. Adding an item that is already dirty does nothing; adding an item that is being
//! processed only marks it dirty ("parked"): it is queued again when the worker calls `done`. So
//! no item is ever processed by two workers at once, and any number of adds while an item waits
//! collapse into one processing.
//!
//! Deviation from upstream: `get` never blocks. It returns `None` when nothing is queued; the
//! simulation decides when an idle worker polls again.
//!
//! `processing` is the metrics' `processingStartTimes`: an item is being processed exactly while
//! the metrics keep the time its processing started, so one map answers both.
//!
//! `dirty` is kept in two parts: a queued item's (the queued items themselves, found through an
//! index of their places that holds no key, [`SeqIndex`]) and a parked item's (a small map: an
//! item is parked only while a worker processes it). A get takes the head and empties its
//! place in the index by the bucket it was put in, so the item stops being dirty without a
//! lookup: at 150 000 queued keys, removing it from a hashed set read a cold line of the set at
//! every get.
//!
//! Each dirty item also holds the ids of the adds merged into it ([`CauseIds`]): an item is
//! dirty from the add that finds it clean until the get that hands it out, exactly the adds a
//! Reconcile answers. A queued item keeps its first add's; the adds merged into it later wait in
//! a map of their own (queued entries are shared with checkpoints and never written again).

use std::hash::Hash;

use crate::sim::chunked::ChunkedDeque;
use crate::sim::seq_index::{position, Place, SeqIndex};
use crate::sim::EventId;
use crate::time::SimTime;
use crate::workqueue::causes::CauseIds;
use crate::workqueue::metrics::{MetricsRecorder, QueueMetrics};
use crate::workqueue::set::{hash_of, ItemMap};

/// client-go's FIFO work queue with de-duplication (`util/workqueue/queue.go` `Typed[T]`).
///
/// An item is dirty exactly while the metrics keep its add time (`addTimes`: set by the add that
/// makes it dirty, taken by the get that cleans it), so a dirty item holds that time, with the
/// causes of the adds merged into it.
#[derive(Clone, Debug)]
pub struct Queue<T> {
    #[allow(clippy::struct_field_names, reason = "client-go's `Typed.queue`")]
    /// The queued items in hand-out order, each dirty (`queue`, and the queued part of
    /// `dirty`). Full chunks are shared with the checkpoints taken since ([`ChunkedDeque`]).
    queue: ChunkedDeque<Queued<T>>,
    /// The sequence number of the queue's head.
    head_seq: u64,
    /// The place of every queued item, by its hash.
    places: SeqIndex,
    /// Items added while being processed (the parked part of `dirty`): queued by `done`.
    parked: ItemMap<T, Dirty>,
    /// The causes of the adds merged into a queued item after the one that queued it.
    merged: ItemMap<T, CauseIds>,
    shutting_down: bool,
    drain: bool,
    metrics: MetricsRecorder<T>,
}

/// A dirty item's add time and causes.
#[derive(Clone, Debug, PartialEq)]
struct Dirty {
    /// When the item became dirty (the metrics' `addTimes`).
    since: SimTime,
    /// The adds merged into it since.
    causes: CauseIds,
}

/// A queued item, with its hash and its place in [`Queue::places`], and when and why it became
/// dirty.
#[derive(Clone, Debug)]
struct Queued<T> {
    item: T,
    hash: u64,
    place: Place,
    dirty: Dirty,
}

impl<T: Ord + Clone + Hash> Default for Queue<T> {
    fn default() -> Queue<T> {
        Queue::new()
    }
}

impl<T: Ord + Clone + Hash> Queue<T> {
    /// An empty queue whose clock starts at [`SimTime::ZERO`] (client-go `queue.go`
    /// `NewTypedWithConfig`).
    pub fn new() -> Queue<T> {
        Queue {
            queue: ChunkedDeque::default(),
            head_seq: 0,
            places: SeqIndex::default(),
            parked: ItemMap::default(),
            merged: ItemMap::default(),
            shutting_down: false,
            drain: false,
            metrics: MetricsRecorder::new(),
        }
    }

    /// Marks `item` as needing processing (client-go `queue.go` `Add`): ignored after shutdown
    /// and while the item is already dirty; otherwise it becomes dirty and is queued at the tail,
    /// unless it is being processed, in which case it is parked until [`Queue::done`].
    pub fn add(&mut self, item: T) {
        self.add_caused(item, None);
    }

    /// [`Queue::add`], made by event `cause`: an item already dirty keeps the add's cause with
    /// those of the adds merged into it before (an ignored add after shutdown keeps nothing).
    pub fn add_caused(&mut self, item: T, cause: Option<EventId>) {
        if self.shutting_down {
            return;
        }
        let hash = hash_of(&item);
        if self.is_queued(hash, &item) {
            if let Some(id) = cause {
                self.merged.entry_hashed(hash, item).or_default().push(id);
            }
            return;
        }
        if let Some(parked) = self.parked.get_mut_hashed(hash, &item) {
            if let Some(id) = cause {
                parked.causes.push(id);
            }
            return;
        }
        let dirty = Dirty {
            since: self.metrics.now(),
            causes: CauseIds::first(cause),
        };
        self.metrics.add_keeping_time_elsewhere(None);
        if self.metrics.is_processing_hashed(hash, &item) {
            self.parked.insert_hashed(hash, item, dirty);
        } else {
            self.push_queued(item, hash, dirty);
        }
    }

    /// Whether `item` (hash `hash`) is queued.
    fn is_queued(&self, hash: u64, item: &T) -> bool {
        let (queue, head_seq) = (&self.queue, self.head_seq);
        let is_it = |seq| queued_at(queue, head_seq, seq).is_some_and(|q| q.item == *item);
        self.places.find(hash, is_it).is_some()
    }

    /// Queues dirty `item` (hash `hash`) at the tail.
    fn push_queued(&mut self, item: T, hash: u64, dirty: Dirty) {
        let (queue, head_seq) = (&self.queue, self.head_seq);
        let tail_seq = head_seq + queue.len() as u64;
        let place = self.places.insert(hash, tail_seq, head_seq, |seq| {
            queued_hash(queue, head_seq, seq)
        });
        self.queue.push_back(Queued {
            item,
            hash,
            place,
            dirty,
        });
    }

    /// Makes room for `additional` more queued items at once (no rehash of the index of places
    /// while they are added).
    pub fn reserve(&mut self, additional: usize) {
        let (queue, head_seq) = (&self.queue, self.head_seq);
        self.places.reserve(additional, head_seq, |seq| {
            queued_hash(queue, head_seq, seq)
        });
    }

    /// Hands out the head of the queue (client-go `queue.go` `Get`): the item stops being dirty
    /// and starts being processed; the caller must call [`Queue::done`] with it. After shutdown
    /// the remaining items are still handed out. Never blocks: `None` when nothing is queued.
    pub fn get(&mut self) -> Option<T> {
        self.get_caused().map(|(item, _)| item)
    }

    /// [`Queue::get`], with the causes of the adds merged into the item since it was last handed
    /// out, oldest first.
    pub fn get_caused(&mut self) -> Option<(T, CauseIds)> {
        let Queued {
            item,
            hash,
            place,
            dirty,
        } = self.queue.front()?.clone();
        self.queue.pop_front();
        self.head_seq += 1;
        self.places.remove_head(place, self.head_seq);
        let mut causes = dirty.causes;
        if let Some(more) = self.merged.remove_hashed(hash, &item) {
            for id in more.iter() {
                causes.push(*id);
            }
        }
        self.metrics
            .get_added_at_hashed(hash, &item, Some(dirty.since), None);
        Some((item, causes))
    }

    /// Marks `item` as finished (client-go `queue.go` `Done`); if it was added again while being
    /// processed it goes back to the tail of the queue. Deviation: `done` for an item that is not
    /// being processed is ignored (upstream would queue a dirty item a second time).
    pub fn done(&mut self, item: &T) {
        let hash = hash_of(item);
        if !self.metrics.done_hashed(hash, item) {
            return;
        }
        if let Some(dirty) = self.parked.remove_hashed(hash, item) {
            self.push_queued(item.clone(), hash, dirty);
        }
    }

    /// The number of queued items, excluding parked ones (client-go `queue.go` `Len`).
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Whether nothing is queued (parked and processing items do not count).
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// The number of items handed out and not yet done.
    pub fn processing_len(&self) -> usize {
        self.metrics.processing_len()
    }

    /// Whether `item` has been handed out and not yet done.
    pub fn is_processing(&self, item: &T) -> bool {
        self.metrics.is_processing(item)
    }

    /// Stops accepting adds (client-go `queue.go` `ShutDown`). Queued items can still be taken
    /// with [`Queue::get`]; the unfinished-work metric ticker stops.
    pub fn shut_down(&mut self) {
        self.drain = false;
        self.shutting_down = true;
        self.metrics.stop();
    }

    /// Like [`Queue::shut_down`], but asks to drain (client-go `queue.go` `ShutDownWithDrain`).
    /// Upstream blocks until every handed-out item is done; here the caller polls
    /// [`Queue::is_drained`] instead.
    pub fn shut_down_with_drain(&mut self) {
        self.shut_down();
        self.drain = true;
    }

    /// After [`Queue::shut_down_with_drain`]: whether every handed-out item is done, i.e. the
    /// point where upstream's `ShutDownWithDrain` returns. Always `true` without a drain request.
    pub fn is_drained(&self) -> bool {
        !self.drain || self.metrics.processing_len() == 0
    }

    /// Whether the queue has been shut down (client-go `queue.go` `ShuttingDown`).
    pub fn shutting_down(&self) -> bool {
        self.shutting_down
    }

    /// Moves the queue's clock to `now`, the equivalent of upstream's injected clock: it stamps
    /// add/processing times and runs the 500 ms unfinished-work ticks that fell due. The clock
    /// never goes backwards; an earlier instant is ignored.
    #[inline]
    pub fn set_now(&mut self, now: SimTime) {
        self.metrics.set_now(now);
    }

    /// The queue's clock.
    pub fn now(&self) -> SimTime {
        self.metrics.now()
    }

    /// The queue's metrics (client-go `util/workqueue/metrics.go`).
    pub fn metrics(&self) -> &QueueMetrics {
        self.metrics.snapshot()
    }

    /// Counts one delayed add (used by the delaying queue, which shares this recorder).
    pub(crate) fn record_retry(&mut self) {
        self.metrics.retry();
    }
}

impl<T: Clone + Hash + Eq + 'static> crate::sim::large::LargeParts for Queue<T> {
    /// The parked items, the merged adds' causes and the metrics' maps (the queue itself is
    /// shared with the checkpoints, and the index of its places holds no key: it is copied as
    /// one block with the rest).
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn crate::sim::large::Large>) {
        out.push(&mut self.parked);
        out.push(&mut self.merged);
        self.metrics.large_parts(out);
    }
}

/// The queued item of sequence number `seq` in `queue`, whose head has `head_seq`.
fn queued_at<T>(queue: &ChunkedDeque<Queued<T>>, head_seq: u64, seq: u64) -> Option<&Queued<T>> {
    queue.get(position(seq, head_seq)?)
}

/// The hash kept by the queued item of sequence number `seq` (every sequence number the index
/// places has its item).
fn queued_hash<T>(queue: &ChunkedDeque<Queued<T>>, head_seq: u64, seq: u64) -> u64 {
    queued_at(queue, head_seq, seq).map_or(0, |q| q.hash)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn every_add_merged_into_an_item_gives_its_cause_to_the_get_whether_it_waited_queued_or_parked()
    {
        let mut q = Queue::new();
        q.add_caused("a", Some(EventId(1)));
        q.add_caused("b", Some(EventId(2)));
        q.add_caused("a", Some(EventId(3)));
        q.add_caused("a", None);
        q.add_caused("a", Some(EventId(4)));
        assert_eq!(q.len(), 2);
        let (item, causes) = q.get_caused().expect("a is queued");
        assert_eq!(item, "a");
        assert_eq!(*causes, [EventId(1), EventId(3), EventId(4)]);
        q.add_caused("a", Some(EventId(5)));
        q.add_caused("a", Some(EventId(6)));
        assert_eq!(q.len(), 1, "b is queued, a is parked");
        let (item, causes) = q.get_caused().expect("b is queued");
        assert_eq!((item, &*causes), ("b", &[EventId(2)][..]));
        q.done(&"a");
        let (item, causes) = q.get_caused().expect("done queued a again");
        assert_eq!(item, "a");
        assert_eq!(*causes, [EventId(5), EventId(6)]);
        q.done(&"a");
        q.add_caused("a", Some(EventId(7)));
        let (_, causes) = q.get_caused().expect("a added afresh");
        assert_eq!(
            *causes,
            [EventId(7)],
            "no cause of an earlier get is left over"
        );
    }

    #[test]
    fn a_long_queue_turned_over_many_times_holds_each_item_once_and_keeps_few_stale_places() {
        let mut q = Queue::new();
        for round in 0..30 {
            for i in 0..1000 {
                q.add(i);
                q.add(i);
            }
            assert_eq!(q.len(), 1000, "round {round}");
            for i in 0..1000 {
                assert_eq!(q.get(), Some(i), "round {round}");
                q.done(&i);
            }
            assert_eq!(q.get(), None);
            assert_eq!(q.places.len(), 0);
            assert!(
                q.places.entries() < 500,
                "round {round}: {} places kept for no queued item",
                q.places.entries()
            );
        }
    }

    #[test]
    fn len_counts_each_distinct_queued_item_once() {
        // client-go queue_test.go TestLen.
        let mut q = Queue::new();
        q.add("foo");
        assert_eq!(q.len(), 1);
        q.add("bar");
        assert_eq!(q.len(), 2);
        q.add("foo");
        assert_eq!(q.len(), 2);
    }

    #[test]
    fn an_item_added_while_processing_is_handed_out_again_after_done() {
        // client-go queue_test.go TestReinsert.
        let mut q = Queue::new();
        q.add("foo");
        let item = q.get().expect("foo is queued");
        assert_eq!(item, "foo");
        q.add(item);
        assert_eq!(q.len(), 0, "a parked item is not counted");
        assert_eq!(q.get(), None, "a parked item is not handed out");
        q.done(&item);
        assert_eq!(q.get(), Some("foo"));
        q.done(&"foo");
        assert_eq!(q.len(), 0);
    }

    #[test]
    fn two_adds_before_get_collapse_into_one_processing() {
        // client-go queue_test.go TestCollapse.
        let mut q = Queue::new();
        q.add("bar");
        q.add("bar");
        assert_eq!(q.get(), Some("bar"));
        q.done(&"bar");
        assert_eq!(q.len(), 0);
        assert_eq!(q.get(), None);
    }

    #[test]
    fn many_adds_while_processing_collapse_into_one_more_processing() {
        // client-go queue_test.go TestCollapseWhileProcessing.
        let mut q = Queue::new();
        q.add("foo");
        assert_eq!(q.get(), Some("foo"));
        q.add("foo");
        q.add("foo");
        assert_eq!(q.get(), None, "a second worker must wait until done");
        q.done(&"foo");
        assert_eq!(q.get(), Some("foo"));
        q.done(&"foo");
        assert_eq!(q.len(), 0);
        assert_eq!(q.get(), None);
    }

    #[test]
    fn every_worker_re_adding_once_leaves_the_queue_empty_and_processes_each_item_twice() {
        // client-go queue_test.go TestAddWhileProcessing (workers interleaved deterministically).
        let mut q = Queue::new();
        for i in 0..50 {
            q.add(i);
        }
        let mut handed_out = [0u32; 50];
        let mut in_flight: Vec<i32> = Vec::new();
        loop {
            while in_flight.len() < 10 {
                let Some(item) = q.get() else { break };
                handed_out[item as usize] += 1;
                if handed_out[item as usize] < 2 {
                    q.add(item);
                }
                in_flight.push(item);
            }
            if in_flight.is_empty() {
                break;
            }
            let item = in_flight.remove(0);
            q.done(&item);
        }
        q.shut_down();
        assert_eq!(q.len(), 0);
        assert!(handed_out.iter().all(|&n| n == 2), "{handed_out:?}");
    }

    #[test]
    fn adds_after_shutdown_are_ignored_but_queued_items_still_drain() {
        // client-go queue_test.go TestBasic ("added after shutdown!") and
        // TestQueueDrainageUsingShutDownWithDrain.
        let mut q = Queue::new();
        q.add("foo");
        q.add("bar");
        let first = q.get().expect("foo");
        q.shut_down_with_drain();
        q.add("added after shutdown!");
        assert!(q.shutting_down());
        assert_eq!(q.get(), Some("bar"));
        assert_eq!(q.get(), None);
        assert!(!q.is_drained(), "two items are still processing");
        q.done(&first);
        q.done(&"bar");
        assert!(q.is_drained());
    }

    #[test]
    fn a_dirty_item_is_requeued_by_done_even_while_draining() {
        // client-go queue_test.go TestQueueDrainageUsingShutDownWithDrainWithDirtyItem.
        let mut q = Queue::new();
        q.add("foo");
        let gotten = q.get().expect("foo");
        q.add("foo");
        q.shut_down_with_drain();
        assert_eq!(q.get(), None);
        q.done(&gotten);
        let again = q.get().expect("done re-queued the dirty item");
        q.done(&again);
        assert_eq!(q.get(), None);
        assert!(q.is_drained());
    }

    #[test]
    fn shut_down_does_not_wait_for_items_in_flight() {
        // client-go queue_test.go TestNoQueueDrainageUsingShutDown and
        // TestForceQueueShutdownUsingShutDown.
        let mut q = Queue::new();
        q.add("foo");
        q.add("bar");
        q.get();
        q.get();
        q.shut_down_with_drain();
        assert!(!q.is_drained());
        q.shut_down();
        assert!(q.is_drained(), "a plain shut down cancels the drain");
    }

    #[test]
    fn done_for_an_item_that_is_not_processing_changes_nothing() {
        let mut q = Queue::new();
        q.add("foo");
        q.done(&"foo");
        assert_eq!(q.len(), 1);
        assert_eq!(q.get(), Some("foo"));
        assert_eq!(q.get(), None);
    }

    #[test]
    fn metrics_follow_adds_gets_and_dones_with_the_injected_clock() {
        // client-go metrics_test.go TestMetrics (500 ms ticker instead of the test's 1 ms).
        let mut q = Queue::new();
        q.add("foo");
        assert_eq!(q.metrics().adds_total.value(), 1);
        assert_eq!(q.metrics().depth.value(), 1.0);

        q.set_now(SimTime::ZERO + Duration::from_micros(50));
        assert_eq!(q.get(), Some("foo"));
        let latency = &q.metrics().queue_duration_seconds;
        assert_eq!(latency.count(), 1);
        assert!((latency.sum() - 5e-5).abs() < 1e-15);

        for _ in 0..5 {
            q.add("foo");
        }
        assert_eq!(q.metrics().adds_total.value(), 2);
        assert_eq!(q.metrics().depth.value(), 1.0);

        q.set_now(SimTime::ZERO + Duration::from_micros(75));
        q.done(&"foo");
        let work = &q.metrics().work_duration_seconds;
        assert_eq!(work.count(), 1);
        assert!((work.sum() - 2.5e-5).abs() < 1e-15);
        assert_eq!(q.metrics().depth.value(), 1.0);

        assert_eq!(q.get(), Some("foo"));
        let latency = &q.metrics().queue_duration_seconds;
        assert_eq!(latency.count(), 2);
        assert!((latency.sum() - 7.5e-5).abs() < 1e-15);

        q.set_now(SimTime::from_millis(500));
        let unfinished = q.metrics().unfinished_work_seconds.value();
        assert!((unfinished - (0.5 - 75e-6)).abs() < 1e-12, "{unfinished}");
        let longest = q.metrics().longest_running_processor_seconds.value();
        assert!((longest - (0.5 - 75e-6)).abs() < 1e-12, "{longest}");

        q.done(&"foo");
        let work = &q.metrics().work_duration_seconds;
        assert_eq!(work.count(), 2);
        assert!((work.sum() - 2.5e-5 - (0.5 - 75e-6)).abs() < 1e-12);
    }

    #[test]
    fn unfinished_work_is_recomputed_at_the_last_due_tick_and_stops_after_shutdown() {
        // client-go metrics_test.go TestMetricShutdown.
        let mut q = Queue::new();
        q.add("a");
        q.get();
        q.set_now(SimTime::from_millis(1_700));
        // Ticks at 0.5 s, 1.0 s, 1.5 s: the gauge reflects the 1.5 s tick.
        assert_eq!(q.metrics().unfinished_work_seconds.value(), 1.5);
        q.shut_down();
        q.set_now(SimTime::from_millis(3_600_000));
        assert_eq!(q.metrics().unfinished_work_seconds.value(), 1.5);
    }

    #[test]
    fn unfinished_work_sums_the_ages_in_item_order_whatever_the_hand_out_order() {
        // 0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1 differ in their last bit; the gauge is the former.
        let mut q = Queue::new();
        for (item, started_ms) in [("c", 200), ("b", 300), ("a", 400)] {
            q.add(item);
            q.set_now(SimTime::from_millis(started_ms));
            assert_eq!(q.get(), Some(item));
        }
        q.set_now(SimTime::from_millis(500));
        let in_item_order = 0.1 + 0.2 + 0.3;
        assert_ne!(in_item_order, 0.3 + 0.2 + 0.1);
        assert_eq!(q.metrics().unfinished_work_seconds.value(), in_item_order);
    }

    #[test]
    fn the_queue_duration_runs_from_the_add_that_made_the_item_dirty_even_while_it_was_parked() {
        let mut q = Queue::new();
        q.add("a");
        q.set_now(SimTime::from_millis(10));
        q.add("a");
        q.set_now(SimTime::from_millis(30));
        assert_eq!(q.get(), Some("a"));
        q.set_now(SimTime::from_millis(40));
        q.add("a");
        q.set_now(SimTime::from_millis(50));
        q.add("a");
        q.done(&"a");
        q.set_now(SimTime::from_millis(100));
        assert_eq!(q.get(), Some("a"));
        let waited = &q.metrics().queue_duration_seconds;
        assert_eq!(waited.count(), 2);
        assert_eq!(waited.sum(), 0.03 + 0.06);
        assert_eq!(q.metrics().adds_total.value(), 2);
    }
}
