//! The trace: one stable line per engine event.
//!
//! A trace line reads `<time> <component> <event> [<object key>] [rv=<resourceVersion>] [<detail>]`,
//! e.g. `1.250s apiserver PUT default/demo-0 rv=42 code=200`. Tests snapshot it, the page animates
//! it, and its running hash proves that two runs (native and WebAssembly) were identical.
//! The trace keeps only the newest records (a bounded view) as typed [`TraceEvent`]s; a line's
//! text is built only when it is read. The hash and count cover every line.
//! Its records live in a [`CausalRing`], once each, with the ids of their causes; an event's id is
//! its ordinal in the stream ([`EventId`]), and neither ids nor causes reach a line or the hash.

use std::fmt;

use super::causal::{CausalRing, CauseNote, EventId};
use super::record::{LineSink, TraceEvent};

/// Default number of trace lines kept in memory.
pub const DEFAULT_TRACE_CAPACITY: usize = 10_000;

/// A bounded ring of the newest trace events, with a running hash and count of all of them.
#[derive(Clone, Debug)]
pub struct Trace {
    /// Every kept event once, with its causes: the lines are its newest `capacity` entries.
    ring: CausalRing,
    capacity: usize,
    hash: u64,
    /// Whether each line is folded into `hash` ([`Trace::without_hash`] turns it off).
    hashing: bool,
}

impl Default for Trace {
    fn default() -> Self {
        Trace::with_capacity(DEFAULT_TRACE_CAPACITY)
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Folds written text into an FNV-1a 64 hash.
struct FnvWriter(u64);

impl FnvWriter {
    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(FNV_PRIME);
        }
    }
}

impl LineSink for FnvWriter {
    fn text(&mut self, text: &str) -> fmt::Result {
        self.bytes(text.as_bytes());
        Ok(())
    }

    fn decimal(&mut self, n: u64, width: usize) -> fmt::Result {
        self.bytes(crate::digits::Digits::new(n, width, 10).as_bytes());
        Ok(())
    }
}

impl Trace {
    /// A trace that keeps at most `capacity` lines (at least one).
    pub fn with_capacity(capacity: usize) -> Trace {
        let capacity = capacity.max(1);
        Trace {
            ring: CausalRing::default().holding_lines(capacity),
            capacity,
            hash: FNV_OFFSET,
            hashing: true,
        }
    }

    /// The same trace folding no line into its hash, for a caller that never reads it: hashing
    /// a line's text byte by byte costs 2–5 % of an engine event. [`Trace::hash`] then
    /// stays at its starting value and [`Trace::hashes`] says so.
    pub fn without_hash(mut self) -> Trace {
        self.hashing = false;
        self
    }

    /// Whether every recorded line is folded into [`Trace::hash`].
    pub fn hashes(&self) -> bool {
        self.hashing
    }

    /// The same trace keeping the causes of the newest `capacity` events (0 turns causality off);
    /// events recorded before are forgotten.
    pub fn with_causal_capacity(mut self, capacity: usize) -> Trace {
        self.ring = CausalRing::with_capacity(capacity).holding_lines(self.capacity);
        self
    }

    /// Records an event that no other event caused; returns its id.
    pub fn record(&mut self, event: TraceEvent) -> EventId {
        self.record_caused(event, &[], CauseNote::None)
    }

    /// Records an event caused by the events `causes` (and `note`); returns its id.
    pub fn record_caused(
        &mut self,
        event: TraceEvent,
        causes: &[EventId],
        note: CauseNote,
    ) -> EventId {
        let id = self.ring.next_id();
        if self.hashing {
            self.hash_line(&event);
        }
        self.ring.push(event, causes, note);
        id
    }

    /// Folds an event's line into the hash.
    fn hash_line(&mut self, event: &TraceEvent) {
        // Hash the line as Display writes it, without building a String; hashing cannot fail.
        let mut hasher = FnvWriter(self.hash);
        let _ = event.write_line(&mut hasher);
        hasher.bytes(b"\n");
        self.hash = hasher.0;
    }

    /// The kept events, oldest first.
    pub fn events(&self) -> impl DoubleEndedIterator<Item = &TraceEvent> + ExactSizeIterator {
        self.ring.newest(self.capacity)
    }

    /// How many events were recorded before the oldest kept one (its id).
    pub fn first_kept(&self) -> u64 {
        self.total() - self.events().len() as u64
    }

    /// The kept events recorded after the first `seen_total` (every kept one when some between
    /// fell out of the ring), oldest first: what happened since a reader last looked, found
    /// without stepping through what it had seen.
    pub fn events_since(
        &self,
        seen_total: u64,
    ) -> impl DoubleEndedIterator<Item = &TraceEvent> + ExactSizeIterator {
        let skip = seen_total.saturating_sub(self.first_kept());
        self.ring
            .newest_after(self.capacity, usize::try_from(skip).unwrap_or(usize::MAX))
    }

    /// The kept events as text, one line each.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        self.events().fold(String::new(), |mut out, e| {
            let _ = writeln!(out, "{e}");
            out
        })
    }

    /// How many events were recorded in all (kept or not).
    pub fn total(&self) -> u64 {
        self.ring.next_id().0
    }

    /// FNV-1a 64 hash of every line ever recorded: equal hashes mean equal runs (a trace built
    /// [`Trace::without_hash`] folds no line and keeps the FNV offset basis).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The id the next recorded event gets.
    pub fn next_id(&self) -> EventId {
        self.ring.next_id()
    }

    /// The newest event with its id, if any was recorded.
    pub fn last(&self) -> Option<(EventId, &TraceEvent)> {
        let event = self.ring.last()?;
        Some((EventId(self.total() - 1), event))
    }

    /// The newest events with the ids of their causes.
    pub fn causal(&self) -> &CausalRing {
        &self.ring
    }

    /// Estimated bytes of the kept events, with their causes.
    pub fn bytes(&self) -> usize {
        self.ring.held_bytes()
    }

    /// Of [`Trace::bytes`], those a copy of the trace shares with it instead of copying (the
    /// ring's full chunks).
    pub fn shared_bytes(&self) -> usize {
        self.ring.shared_bytes()
    }

    /// Estimated bytes each newly recorded event adds to the ring.
    pub const BYTES_PER_EVENT: usize = super::causal::ENTRY_BYTES;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apiserver::Verb;
    use crate::key::Key;
    use crate::sim::EventKind;
    use crate::time::SimTime;

    fn ev(ms: u64, verb: Verb) -> TraceEvent {
        TraceEvent {
            time: SimTime::from_millis(ms),
            key: Some(Key::from("default/demo")),
            resource_version: Some(7),
            kind: EventKind::ApiRequest { verb, code: 200 },
        }
    }

    #[test]
    fn a_trace_line_has_time_component_event_key_rv_and_detail() {
        assert_eq!(
            ev(1250, Verb::Update).to_string(),
            "1.250s apiserver PUT default/demo rv=7 code=200"
        );
    }

    #[test]
    fn a_trace_without_hash_keeps_its_lines_but_folds_none_into_the_hash() {
        let mut hashed = Trace::with_capacity(10);
        let mut plain = Trace::with_capacity(10).without_hash();
        let untouched = plain.hash();
        for i in 0..3 {
            hashed.record(ev(i, Verb::Update));
            plain.record(ev(i, Verb::Update));
        }
        assert!(hashed.hashes() && !plain.hashes());
        assert_eq!(plain.to_text(), hashed.to_text());
        assert_eq!(plain.total(), 3);
        assert_eq!(plain.hash(), untouched);
        assert_ne!(hashed.hash(), untouched);
    }

    #[test]
    fn the_ring_keeps_only_the_newest_lines_but_the_hash_covers_all() {
        let mut small = Trace::with_capacity(2);
        let mut big = Trace::with_capacity(100);
        for i in 0..5 {
            small.record(ev(i, Verb::Update));
            big.record(ev(i, Verb::Update));
        }
        assert_eq!(small.events().count(), 2);
        assert_eq!(small.total(), 5);
        assert_eq!(small.hash(), big.hash());
        assert_eq!(
            small.to_text(),
            "0.003s apiserver PUT default/demo rv=7 code=200\n\
             0.004s apiserver PUT default/demo rv=7 code=200\n"
        );
    }

    #[test]
    fn events_since_gives_what_came_after_the_count_seen_or_every_kept_line_if_some_fell_out() {
        let mut trace = Trace::with_capacity(4).with_causal_capacity(2);
        for i in 0..10 {
            trace.record(ev(i, Verb::Update));
        }
        let times = |seen: u64| -> Vec<u64> {
            trace
                .events_since(seen)
                .map(|e| e.time.as_nanos() / 1_000_000)
                .collect()
        };
        assert_eq!(times(8), [8, 9], "the two after the eight seen");
        assert_eq!(times(10), Vec::<u64>::new(), "nothing new");
        assert_eq!(
            times(2),
            [6, 7, 8, 9],
            "lines 2 to 5 fell out: every kept one"
        );
        assert_eq!(times(99), Vec::<u64>::new(), "a count beyond the total");
        assert_eq!(trace.events_since(7).rev().count(), 3);
    }

    /// FNV-1a 64 of `text`, byte by byte.
    fn fnv_of(text: &str) -> u64 {
        text.bytes().fold(FNV_OFFSET, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(FNV_PRIME)
        })
    }

    #[test]
    fn the_hash_folds_exactly_the_displayed_line() {
        let mut events = vec![
            ev(0, Verb::Create),
            ev(7, Verb::Update),
            ev(61_005, Verb::Get),
        ];
        let mut bare = ev(u64::MAX / 1_000_000, Verb::List);
        bare.key = None;
        bare.resource_version = None;
        bare.kind = EventKind::Mark { name: "LIST" };
        events.push(bare);
        let mut rv0 = ev(999, Verb::Patch);
        rv0.resource_version = Some(0);
        events.push(rv0);
        let mut negative = ev(5, Verb::Watch);
        negative.kind = EventKind::WatchEvent {
            event_type: crate::apiserver::WatchEventType::Added,
            generation: -12,
        };
        events.push(negative);
        for e in events {
            let mut t = Trace::default();
            t.record(e.clone());
            assert_eq!(t.hash(), fnv_of(&format!("{e}\n")), "{e}");
        }
    }

    #[test]
    fn different_events_give_different_hashes() {
        let mut a = Trace::default();
        let mut b = Trace::default();
        a.record(ev(1, Verb::Update));
        b.record(ev(1, Verb::Patch));
        assert_ne!(a.hash(), b.hash());
    }
}
