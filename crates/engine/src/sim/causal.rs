//! The causal ring: every traced event's id and the ids of the events that caused it.
//!
//! ```text
//!   trace stream:  #0 Created … #41 PUT rv=42 ─▶ #43 MODIFIED rv=42 ─▶ #47 Pop ─▶ #48 Enqueue
//!                                   ▲                                                  │
//!                                   └── #52 Reconcile (causes: #48, #45) ◀─────────────┘
//!   CausalRing:    newest N records { event, causes, note }, older ones counted as dropped
//! ```
//!
//! An event's id is its ordinal in the trace stream (the n-th record emitted, from 0), so ids are
//! as deterministic as the trace. The ring is the trace's only store of events: each entry holds
//! an event once, with its causes and note. The trace's text lines are the newest entries up to
//! the trace's capacity, the causal view the newest up to the ring's own capacity, so a query can
//! describe what it finds even after the trace's smaller text view moved on. The ring holds as
//! many entries as the larger of the two needs; with a capacity of 0 the causal view keeps
//! nothing and its entries keep no causes.

use std::collections::VecDeque;
use std::fmt;

use super::chunked::{ChunkedDeque, CHUNK};
use super::record::TraceEvent;

/// Default number of events whose causes are kept ([`CausalRing`]): four minutes of the
/// `flywheel` preset, at about 100 bytes per event.
pub const DEFAULT_CAUSAL_CAPACITY: usize = 20_000;

/// An event's id: its ordinal in the trace stream (the first event recorded is `#0`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct EventId(pub u64);

impl fmt::Display for EventId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// What caused an event besides (or instead of) other events.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum CauseNote {
    /// Nothing beyond its cause ids.
    #[default]
    None,
    /// A sync: the informer's periodic resync, or an object a relist found unchanged
    /// (client-go delivers both as an update whose resourceVersion did not change).
    Sync,
    /// An object a relist's LIST returned (a `Replaced` delta), not a watch event.
    Relist,
    /// An add the workqueue scheduled for later (`AddAfter`, `AddRateLimited`) that came due.
    Delayed,
}

/// The causes of one event, kept inline for the common case of none or one.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Causes {
    /// No event caused it.
    None,
    /// One event caused it.
    One(EventId),
    /// Several events caused it (a reconcile whose adds were merged).
    Many(Box<[EventId]>),
}

impl Causes {
    fn of(ids: &[EventId]) -> Causes {
        match ids {
            [] => Causes::None,
            [one] => Causes::One(*one),
            many => Causes::Many(many.into()),
        }
    }

    /// Bytes of its list beside the entry (only a list of several has one).
    fn overflow_bytes(&self) -> usize {
        match self {
            Causes::Many(ids) => std::mem::size_of_val::<[EventId]>(ids),
            _ => 0,
        }
    }

    fn as_slice(&self) -> &[EventId] {
        match self {
            Causes::None => &[],
            Causes::One(id) => std::slice::from_ref(id),
            Causes::Many(ids) => ids,
        }
    }
}

/// One event of the ring with what caused it.
#[derive(Clone, Debug)]
struct Entry {
    event: TraceEvent,
    causes: Causes,
    note: CauseNote,
}

/// One kept event with its id and causes, as a query sees it.
#[derive(Clone, Copy, Debug)]
pub struct CausalRecord<'a> {
    /// The event's id.
    pub id: EventId,
    /// The event.
    pub event: &'a TraceEvent,
    /// The ids of the events that caused it (empty for an origin).
    pub causes: &'a [EventId],
    /// What else caused it.
    pub note: CauseNote,
}

/// The newest `capacity` events with their causes, and counts of what fell out of that view.
///
/// The ring may hold more entries than its causal view (the trace's text lines, when the trace
/// keeps more lines than the view keeps events); the queries see only the view.
///
/// Its entries live in shared chunks ([`ChunkedDeque`]): a copy (every checkpoint of a run
/// holds one) copies the newest partial chunk and a pointer per full one. An entry is never
/// changed once kept, so a chunk is never copied again.
#[derive(Clone, Debug)]
pub struct CausalRing {
    /// How many of the newest entries the causal view keeps.
    capacity: usize,
    /// How many entries the ring holds at most (at least `capacity`).
    held: usize,
    /// The id the next pushed event gets.
    next: u64,
    entries: ChunkedDeque<Entry>,
    /// The cause counts of each full chunk of `entries`, oldest first.
    chunk_sums: VecDeque<CauseSums>,
    /// The cause counts of the entries after the last full chunk.
    tail_sums: CauseSums,
    /// The cause counts of every event pushed: kept with its entry (capacity above 0) or, with a
    /// capacity of 0, never kept.
    pushed: CauseSums,
}

/// Cause links, and the bytes of the lists of those kept in lists (an entry with several).
///
/// What fell out of the causal view is what was kept less what the view holds: the ring sums
/// the view when asked (at a checkpoint), a full chunk at a time, instead of reading the entry
/// leaving the view at every push (an entry written 20 000 events earlier, a cache miss each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct CauseSums {
    /// Cause links.
    causes: u64,
    /// Bytes of the lists beside the entries.
    many_bytes: u64,
}

impl CauseSums {
    fn add(&mut self, causes: &Causes) {
        self.causes += causes.as_slice().len() as u64;
        self.many_bytes += causes.overflow_bytes() as u64;
    }

    fn plus(self, other: CauseSums) -> CauseSums {
        CauseSums {
            causes: self.causes + other.causes,
            many_bytes: self.many_bytes + other.many_bytes,
        }
    }
}

impl Default for CausalRing {
    fn default() -> Self {
        CausalRing::with_capacity(DEFAULT_CAUSAL_CAPACITY)
    }
}

impl CausalRing {
    /// A ring that keeps the newest `capacity` events (0 turns causality off).
    pub fn with_capacity(capacity: usize) -> CausalRing {
        CausalRing {
            capacity,
            held: capacity,
            next: 0,
            entries: ChunkedDeque::default(),
            chunk_sums: VecDeque::new(),
            tail_sums: CauseSums::default(),
            pushed: CauseSums::default(),
        }
    }

    /// The same ring also holding the newest `lines` events for the trace's text (without their
    /// causes beyond the causal view).
    pub(super) fn holding_lines(mut self, lines: usize) -> CausalRing {
        self.held = self.capacity.max(lines);
        self
    }

    /// Whether it keeps anything.
    pub fn is_on(&self) -> bool {
        self.capacity > 0
    }

    /// How many events it keeps at most.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Keeps the next event of the stream with its causes; the oldest entry of the causal view
    /// leaves it (its causes count as dropped) when the view is full, and the oldest entry of
    /// the ring leaves the ring when the ring is full.
    pub(super) fn push(&mut self, event: TraceEvent, causes: &[EventId], note: CauseNote) {
        self.next += 1;
        let entry = if self.capacity == 0 {
            self.pushed.add(&Causes::of(causes));
            Entry {
                event,
                causes: Causes::None,
                note: CauseNote::None,
            }
        } else {
            let causes = Causes::of(causes);
            self.pushed.add(&causes);
            self.tail_sums.add(&causes);
            Entry {
                event,
                causes,
                note,
            }
        };
        self.keep(entry);
    }

    /// The cause counts of the causal view: the entries before its first chunk boundary one by
    /// one (fewer than a chunk), then the sums of the chunks after it and of the tail.
    fn view_sums(&self) -> CauseSums {
        let (start, len, shared) = (
            self.view_start(),
            self.entries.len(),
            self.entries.shared_len(),
        );
        // the chunks' sums are by index: the ring leaves only a whole chunk at a time, so its
        // chunks start at multiples of CHUNK
        debug_assert_eq!(shared % CHUNK, 0, "no entry left the ring alone");
        let boundary = start.next_multiple_of(CHUNK).min(len);
        let mut sums = CauseSums::default();
        for entry in self.entries.range_from(start).take(boundary - start) {
            sums.add(&entry.causes);
        }
        if boundary <= shared {
            let later = self.chunk_sums.iter().skip(boundary / CHUNK);
            sums = later.fold(sums, |all, chunk| all.plus(*chunk));
            sums = sums.plus(self.tail_sums);
        }
        sums
    }

    /// Appends `entry`; once a whole chunk lies beyond the ring's size, it leaves.
    ///
    /// An old entry holds the last reference to many a key, whose count is no longer in any
    /// cache: released one per push, each release waited for its own miss; released a chunk
    /// together, the processor waits for several at once. The entries beyond the ring's size
    /// are outside every view (the lines, the causal view and their byte counts read only the
    /// newest `held`).
    fn keep(&mut self, entry: Entry) {
        if self.held == 0 {
            return;
        }
        self.entries.push_back(entry);
        if self.entries.len() == self.entries.shared_len() {
            self.chunk_sums
                .push_back(std::mem::take(&mut self.tail_sums));
        }
        if self.entries.len() >= self.held + CHUNK {
            self.entries.pop_front_chunk();
            self.chunk_sums.pop_front();
        }
    }

    /// How many entries the causal view keeps now.
    fn view_len(&self) -> usize {
        self.entries.len().min(self.capacity)
    }

    /// The index in `entries` of the causal view's oldest entry.
    fn view_start(&self) -> usize {
        self.entries.len() - self.view_len()
    }

    /// The id of the causal view's oldest entry (or of the next event, if it is empty).
    fn first(&self) -> u64 {
        self.next - self.view_len() as u64
    }

    /// Event `id` with its causes, if it is still kept.
    pub fn get(&self, id: EventId) -> Option<CausalRecord<'_>> {
        let index = usize::try_from(id.0.checked_sub(self.first())?).ok()?;
        if index >= self.view_len() {
            return None;
        }
        let entry = self.entries.get(self.view_start() + index)?;
        Some(CausalRecord {
            id,
            event: &entry.event,
            causes: entry.causes.as_slice(),
            note: entry.note,
        })
    }

    /// Every kept event, oldest first.
    pub fn records(
        &self,
    ) -> impl DoubleEndedIterator<Item = CausalRecord<'_>> + ExactSizeIterator + '_ {
        self.records_after(0)
    }

    /// Kept events from `id` on (all kept ones if `id` fell out), oldest first.
    pub fn records_from(&self, id: EventId) -> impl DoubleEndedIterator<Item = CausalRecord<'_>> {
        let skip =
            id.0.saturating_sub(self.first())
                .min(self.view_len() as u64);
        self.records_after(skip as usize)
    }

    /// The causal view's events but its oldest `skip`, oldest first. The range starts at the
    /// first one wanted: an iterator's `skip` would step through every entry before it.
    fn records_after(
        &self,
        skip: usize,
    ) -> impl DoubleEndedIterator<Item = CausalRecord<'_>> + ExactSizeIterator + '_ {
        let skip = skip.min(self.view_len());
        let first = self.first() + skip as u64;
        self.entries
            .range_from(self.view_start() + skip)
            .enumerate()
            .map(move |(i, entry)| CausalRecord {
                id: EventId(first + i as u64),
                event: &entry.event,
                causes: entry.causes.as_slice(),
                note: entry.note,
            })
    }

    /// The id of the oldest kept event, if any.
    pub fn oldest(&self) -> Option<EventId> {
        (self.view_len() > 0).then(|| EventId(self.first()))
    }

    /// The newest `n` events the ring holds (fewer if it holds fewer), oldest first, whether or
    /// not the causal view keeps them.
    pub(super) fn newest(
        &self,
        n: usize,
    ) -> impl DoubleEndedIterator<Item = &TraceEvent> + ExactSizeIterator + '_ {
        self.newest_after(n, 0)
    }

    /// The newest `n` events the ring holds but the oldest `skip` of them, oldest first; the
    /// range starts at the first one wanted (an iterator's `skip` would step through the rest).
    pub(super) fn newest_after(
        &self,
        n: usize,
        skip: usize,
    ) -> impl DoubleEndedIterator<Item = &TraceEvent> + ExactSizeIterator + '_ {
        let len = self.entries.len();
        let start = (len - n.min(self.held).min(len))
            .saturating_add(skip)
            .min(len);
        self.entries.range_from(start).map(|entry| &entry.event)
    }

    /// The newest event the ring holds, if any.
    pub(super) fn last(&self) -> Option<&TraceEvent> {
        self.entries.back().map(|entry| &entry.event)
    }

    /// The id the next pushed event gets.
    pub(super) fn next_id(&self) -> EventId {
        EventId(self.next)
    }

    /// Events that fell out of the causal view (or were never in it, with causality off).
    pub fn dropped_events(&self) -> u64 {
        self.next - self.view_len() as u64
    }

    /// Cause links that fell out with them (an entry's causes leave with it, even if the ring
    /// still holds its event for the trace's lines).
    pub fn dropped_causes(&self) -> u64 {
        self.pushed.causes - self.view_sums().causes
    }

    /// Events kept now.
    pub fn len(&self) -> usize {
        self.view_len()
    }

    /// Whether it keeps no event now.
    pub fn is_empty(&self) -> bool {
        self.view_len() == 0
    }

    /// Estimated bytes of the causal view (its entries and their overflowing cause lists).
    pub fn bytes(&self) -> usize {
        self.view_len() * ENTRY_BYTES + self.view_many_bytes()
    }

    /// Bytes of the causal view's overflowing cause lists.
    fn view_many_bytes(&self) -> usize {
        usize::try_from(self.view_sums().many_bytes).unwrap_or(usize::MAX)
    }

    /// Estimated bytes of every entry the ring holds, the trace's text lines included (the
    /// cause lists of the causal view only: the others are never read again).
    pub(super) fn held_bytes(&self) -> usize {
        self.entries.len().min(self.held) * ENTRY_BYTES + self.view_many_bytes()
    }

    /// Estimated bytes of the held entries a copy of the ring shares with the ring rather than
    /// copies (those in full chunks).
    pub(super) fn shared_bytes(&self) -> usize {
        let unshared = self.entries.len() - self.entries.shared_len();
        self.held_bytes().saturating_sub(unshared * ENTRY_BYTES)
    }
}

/// Bytes of one entry of the ring.
pub(super) const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::EventKind;
    use crate::time::SimTime;

    fn mark(name: &'static str) -> TraceEvent {
        TraceEvent {
            time: SimTime::ZERO,
            key: None,
            resource_version: None,
            kind: EventKind::Mark { name },
        }
    }

    #[test]
    fn the_ring_keeps_the_newest_events_with_their_causes_and_counts_what_fell_out() {
        let mut ring = CausalRing::with_capacity(2);
        ring.push(mark("a"), &[], CauseNote::None);
        ring.push(mark("b"), &[EventId(0)], CauseNote::None);
        ring.push(mark("c"), &[EventId(0), EventId(1)], CauseNote::Sync);
        assert!(ring.get(EventId(0)).is_none());
        assert_eq!(
            ring.get(EventId(1)).map(|r| r.causes),
            Some(&[EventId(0)][..])
        );
        let c = ring.get(EventId(2)).expect("kept");
        assert_eq!(c.causes, [EventId(0), EventId(1)]);
        assert_eq!(c.note, CauseNote::Sync);
        assert_eq!((ring.dropped_events(), ring.dropped_causes()), (1, 0));
        assert_eq!(ring.oldest(), Some(EventId(1)));
    }

    #[test]
    fn a_ring_of_capacity_zero_keeps_nothing_and_counts_everything_as_dropped() {
        let mut ring = CausalRing::with_capacity(0);
        ring.push(mark("a"), &[], CauseNote::None);
        ring.push(mark("b"), &[EventId(0)], CauseNote::None);
        assert!(ring.is_empty());
        assert_eq!((ring.dropped_events(), ring.dropped_causes()), (2, 1));
    }

    #[test]
    fn old_entries_left_to_drop_together_are_outside_every_view_and_count() {
        let (held, pushed) = (3, 3 + CHUNK as u64);
        let mut ring = CausalRing::with_capacity(2).holding_lines(held);
        for i in 0..pushed - 1 {
            ring.push(mark("e"), &[EventId(i.saturating_sub(1))], CauseNote::None);
        }
        assert!(
            ring.entries.len() > held,
            "old entries wait to leave together"
        );
        assert_eq!(ring.newest(usize::MAX).count(), held);
        assert_eq!(ring.held_bytes(), held * ENTRY_BYTES);
        assert_eq!(ring.bytes(), 2 * ENTRY_BYTES);
        let mut many = CausalRing::with_capacity(1);
        many.push(mark("a"), &[EventId(0), EventId(1)], CauseNote::None);
        assert_eq!(
            many.bytes(),
            ENTRY_BYTES + 2 * std::mem::size_of::<EventId>()
        );
        many.push(mark("b"), &[], CauseNote::None);
        assert_eq!(
            many.bytes(),
            ENTRY_BYTES,
            "a list leaves the count with its entry"
        );
        let ids = ring.records().map(|c| c.id).collect::<Vec<_>>();
        assert_eq!(ids, [EventId(pushed - 3), EventId(pushed - 2)]);
        // every entry but the newest two left the view once, each with its one cause (the
        // first event's cause, #0 for #0, included)
        let left = pushed - 1 - 2;
        assert_eq!((ring.dropped_events(), ring.dropped_causes()), (left, left));
        ring.push(mark("e"), &[], CauseNote::None);
        assert!(ring.entries.len() < CHUNK, "the oldest chunk left at once");
        assert_eq!(ring.newest(usize::MAX).count(), held);
        assert_eq!(ring.oldest(), Some(EventId(pushed - 2)));
    }

    #[test]
    fn a_copy_shares_the_full_chunks_and_counts_them_as_shared() {
        let mut ring = CausalRing::with_capacity(2 * CHUNK);
        for _ in 0..CHUNK + 5 {
            ring.push(mark("e"), &[], CauseNote::None);
        }
        assert_eq!(ring.shared_bytes(), CHUNK * ENTRY_BYTES);
        assert_eq!(ring.held_bytes(), (CHUNK + 5) * ENTRY_BYTES);
        let copy = ring.clone();
        ring.push(mark("f"), &[], CauseNote::None);
        assert_eq!(copy.len(), CHUNK + 5);
        assert_eq!(ring.len(), CHUNK + 6);
    }

    #[test]
    fn what_fell_out_of_the_view_is_counted_exactly_across_chunks_and_copies() {
        let (capacity, lines) = (CHUNK + 44, 3 * CHUNK + 7);
        let mut ring = CausalRing::with_capacity(capacity).holding_lines(lines);
        let mut counts: Vec<usize> = Vec::new();
        let ids = [EventId(1), EventId(2), EventId(3)];
        for i in 0..6 * CHUNK + 19 {
            let n = (i * 7 + i / 5) % 4;
            ring.push(mark("e"), &ids[..n], CauseNote::None);
            counts.push(n);
            let view = &counts[counts.len() - counts.len().min(capacity)..];
            let left = &counts[..counts.len() - view.len()];
            let many: usize = view.iter().filter(|&&n| n > 1).map(|n| n * 8).sum();
            assert_eq!(ring.dropped_events(), left.len() as u64, "after push {i}");
            assert_eq!(ring.dropped_causes(), left.iter().sum::<usize>() as u64);
            assert_eq!(ring.bytes(), view.len() * ENTRY_BYTES + many);
        }
        let copy = ring.clone();
        let before = (copy.dropped_causes(), copy.bytes());
        ring.push(mark("f"), &ids, CauseNote::None);
        assert_eq!((copy.dropped_causes(), copy.bytes()), before);
        assert_ne!(ring.bytes(), before.1, "the copy and the ring count apart");
    }

    #[test]
    fn lines_held_beyond_the_causal_view_are_not_seen_by_queries() {
        let mut ring = CausalRing::with_capacity(1).holding_lines(3);
        ring.push(mark("a"), &[], CauseNote::None);
        ring.push(mark("b"), &[EventId(0)], CauseNote::None);
        ring.push(mark("c"), &[EventId(0), EventId(1)], CauseNote::None);
        assert_eq!(ring.newest(5).count(), 3);
        assert_eq!((ring.len(), ring.oldest()), (1, Some(EventId(2))));
        assert!(ring.get(EventId(1)).is_none());
        assert_eq!(
            ring.records().map(|r| r.id).collect::<Vec<_>>(),
            [EventId(2)]
        );
        assert_eq!((ring.dropped_events(), ring.dropped_causes()), (2, 1));
        assert!(ring.held_bytes() > ring.bytes());
    }
}
