//! The trace: one stable line per engine event.
//!
//! A trace line reads `<time> <component> <event> [<object key>] [rv=<resourceVersion>] [<detail>]`,
//! e.g. `1.250s apiserver PUT default/demo-0 rv=42 code=200`. Tests snapshot it, the page animates
//! it, and its running hash proves that two runs (native and WebAssembly) were identical.
//! The ring keeps only the newest lines (a bounded buffer); the hash and count cover every line.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::time::SimTime;

/// One traced engine event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceEvent {
    /// When it happened.
    pub time: SimTime,
    /// Which component emitted it (`apiserver`, `reflector`, `workqueue`, …); a static name, so
    /// recording an event does not allocate for it.
    pub component: Cow<'static, str>,
    /// What happened (`PUT`, `ADDED`, `Get`, `Reconcile`, …); static except for rare events.
    pub event: Cow<'static, str>,
    /// The object key (`namespace/name`) it concerns, if any.
    pub key: Option<String>,
    /// The resourceVersion involved, if any.
    pub resource_version: Option<u64>,
    /// Free-form `k=v` details.
    pub detail: String,
}

impl fmt::Display for TraceEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.time, self.component, self.event)?;
        if let Some(key) = &self.key {
            write!(f, " {key}")?;
        }
        if let Some(rv) = self.resource_version {
            write!(f, " rv={rv}")?;
        }
        if !self.detail.is_empty() {
            write!(f, " {}", self.detail)?;
        }
        Ok(())
    }
}

/// Default number of trace lines kept in memory.
pub const DEFAULT_TRACE_CAPACITY: usize = 10_000;

/// A bounded ring of the newest trace events, with a running hash and count of all of them.
#[derive(Clone, Debug)]
pub struct Trace {
    ring: VecDeque<TraceEvent>,
    capacity: usize,
    total: u64,
    hash: u64,
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

impl fmt::Write for FnvWriter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for b in s.bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(FNV_PRIME);
        }
        Ok(())
    }
}

impl Trace {
    /// A trace that keeps at most `capacity` lines (at least one).
    pub fn with_capacity(capacity: usize) -> Trace {
        let capacity = capacity.max(1);
        Trace {
            ring: VecDeque::with_capacity(capacity.min(1024)),
            capacity,
            total: 0,
            hash: FNV_OFFSET,
        }
    }

    /// Records an event: folds its line into the hash and keeps it in the ring.
    pub fn record(&mut self, event: TraceEvent) {
        // Hash the line as Display writes it, without building a String.
        let mut hasher = FnvWriter(self.hash);
        let _ = fmt::Write::write_fmt(&mut hasher, format_args!("{event}\n"));
        self.hash = hasher.0;
        self.total += 1;
        if self.ring.len() == self.capacity {
            self.ring.pop_front();
        }
        self.ring.push_back(event);
    }

    /// The kept events, oldest first.
    pub fn events(&self) -> impl Iterator<Item = &TraceEvent> {
        self.ring.iter()
    }

    /// The kept events as text, one line each.
    pub fn to_text(&self) -> String {
        self.ring.iter().map(|e| format!("{e}\n")).collect()
    }

    /// How many events were recorded in all (kept or not).
    pub fn total(&self) -> u64 {
        self.total
    }

    /// FNV-1a 64 hash of every line ever recorded: equal hashes mean equal runs.
    pub fn hash(&self) -> u64 {
        self.hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(ms: u64, event: &'static str) -> TraceEvent {
        TraceEvent {
            time: SimTime::from_millis(ms),
            component: "apiserver".into(),
            event: event.into(),
            key: Some("default/demo".into()),
            resource_version: Some(7),
            detail: "code=200".into(),
        }
    }

    #[test]
    fn a_trace_line_has_time_component_event_key_rv_and_detail() {
        assert_eq!(
            ev(1250, "PUT").to_string(),
            "1.250s apiserver PUT default/demo rv=7 code=200"
        );
    }

    #[test]
    fn the_ring_keeps_only_the_newest_lines_but_the_hash_covers_all() {
        let mut small = Trace::with_capacity(2);
        let mut big = Trace::with_capacity(100);
        for i in 0..5 {
            small.record(ev(i, "PUT"));
            big.record(ev(i, "PUT"));
        }
        assert_eq!(small.events().count(), 2);
        assert_eq!(small.total(), 5);
        assert_eq!(small.hash(), big.hash());
    }

    #[test]
    fn different_events_give_different_hashes() {
        let mut a = Trace::default();
        let mut b = Trace::default();
        a.record(ev(1, "PUT"));
        b.record(ev(1, "PATCH"));
        assert_ne!(a.hash(), b.hash());
    }
}
