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
//! as deterministic as the trace. The ring keeps its own copy of the newest N events (a record
//! shares the event's key) so that a query can describe what it finds even after the trace's
//! smaller text ring moved on. With a capacity of 0 the ring keeps nothing and costs nothing.

use std::collections::VecDeque;
use std::fmt;

use super::record::TraceEvent;

/// Default number of events whose causes are kept ([`CausalRing`]): four minutes of the
/// `flywheel` preset, at about 100 bytes per event.
pub const DEFAULT_CAUSAL_CAPACITY: usize = 20_000;

/// An event's id: its ordinal in the trace stream (the first event recorded is `#0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EventId(pub u64);

impl fmt::Display for EventId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// What caused an event besides (or instead of) other events.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
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

/// The newest `capacity` events with their causes, and counts of what fell out.
#[derive(Clone, Debug)]
pub struct CausalRing {
    capacity: usize,
    /// The id of `entries[0]`.
    first: u64,
    entries: VecDeque<Entry>,
    dropped_events: u64,
    dropped_causes: u64,
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
            first: 0,
            entries: VecDeque::with_capacity(capacity.min(1024)),
            dropped_events: 0,
            dropped_causes: 0,
        }
    }

    /// Whether it keeps anything.
    pub fn is_on(&self) -> bool {
        self.capacity > 0
    }

    /// How many events it keeps at most.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Keeps event `id` (the next id of the stream) with its causes, dropping the oldest if full.
    pub(super) fn push(
        &mut self,
        id: u64,
        event: &TraceEvent,
        causes: &[EventId],
        note: CauseNote,
    ) {
        if self.capacity == 0 {
            self.first = id + 1;
            self.dropped_events += 1;
            self.dropped_causes += causes.len() as u64;
            return;
        }
        if self.entries.is_empty() {
            self.first = id;
        }
        if self.entries.len() == self.capacity {
            if let Some(old) = self.entries.pop_front() {
                self.dropped_events += 1;
                self.dropped_causes += old.causes.as_slice().len() as u64;
            }
            self.first += 1;
        }
        self.entries.push_back(Entry {
            event: event.clone(),
            causes: Causes::of(causes),
            note,
        });
    }

    /// Event `id` with its causes, if it is still kept.
    pub fn get(&self, id: EventId) -> Option<CausalRecord<'_>> {
        let index = usize::try_from(id.0.checked_sub(self.first)?).ok()?;
        let entry = self.entries.get(index)?;
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
        self.entries
            .iter()
            .enumerate()
            .map(|(i, entry)| CausalRecord {
                id: EventId(self.first + i as u64),
                event: &entry.event,
                causes: entry.causes.as_slice(),
                note: entry.note,
            })
    }

    /// Kept events from `id` on (all kept ones if `id` fell out), oldest first.
    pub fn records_from(&self, id: EventId) -> impl DoubleEndedIterator<Item = CausalRecord<'_>> {
        let skip =
            id.0.saturating_sub(self.first)
                .min(self.entries.len() as u64);
        self.records().skip(skip as usize)
    }

    /// The id of the oldest kept event, if any.
    pub fn oldest(&self) -> Option<EventId> {
        (!self.entries.is_empty()).then_some(EventId(self.first))
    }

    /// Events that fell out of the ring (or were never kept, with causality off).
    pub fn dropped_events(&self) -> u64 {
        self.dropped_events
    }

    /// Cause links that fell out with them.
    pub fn dropped_causes(&self) -> u64 {
        self.dropped_causes
    }

    /// Events kept now.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it keeps no event now.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Estimated bytes it holds (records and their overflowing cause lists).
    pub fn bytes(&self) -> usize {
        let many: usize = self
            .entries
            .iter()
            .map(|e| match &e.causes {
                Causes::Many(ids) => ids.len() * std::mem::size_of::<EventId>(),
                _ => 0,
            })
            .sum();
        self.entries.len() * std::mem::size_of::<Entry>() + many
    }
}

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
        ring.push(0, &mark("a"), &[], CauseNote::None);
        ring.push(1, &mark("b"), &[EventId(0)], CauseNote::None);
        ring.push(2, &mark("c"), &[EventId(0), EventId(1)], CauseNote::Sync);
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
        ring.push(0, &mark("a"), &[], CauseNote::None);
        ring.push(1, &mark("b"), &[EventId(0)], CauseNote::None);
        assert!(ring.is_empty());
        assert_eq!((ring.dropped_events(), ring.dropped_causes()), (2, 1));
    }
}
