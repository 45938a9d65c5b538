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

impl FnvWriter {
    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(FNV_PRIME);
        }
    }

    /// `n` in decimal, at least `width` digits (zero-padded), as `{n:0width$}` writes it.
    fn decimal(&mut self, mut n: u64, width: usize) {
        let mut digits = [b'0'; 20];
        let mut i = digits.len();
        while n > 0 || digits.len() - i < width.max(1) {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
        }
        self.bytes(&digits[i..]);
    }

    /// Folds in exactly the bytes of `format!("{event}\n")`, without formatting machinery.
    fn line(&mut self, e: &TraceEvent) {
        let millis = e.time.as_nanos() / 1_000_000;
        self.decimal(millis / 1000, 1);
        self.bytes(b".");
        self.decimal(millis % 1000, 3);
        self.bytes(b"s ");
        self.bytes(e.component.as_bytes());
        self.bytes(b" ");
        self.bytes(e.event.as_bytes());
        if let Some(key) = &e.key {
            self.bytes(b" ");
            self.bytes(key.as_bytes());
        }
        if let Some(rv) = e.resource_version {
            self.bytes(b" rv=");
            self.decimal(rv, 1);
        }
        if !e.detail.is_empty() {
            self.bytes(b" ");
            self.bytes(e.detail.as_bytes());
        }
        self.bytes(b"\n");
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
        hasher.line(&event);
        self.hash = hasher.0;
        self.total += 1;
        if self.ring.len() == self.capacity {
            self.ring.pop_front();
        }
        self.ring.push_back(event);
    }

    /// Records an event from its parts, writing them into the buffers of the line the ring
    /// drops (when full), so a steady run records its lines without allocating.
    pub fn record_parts(
        &mut self,
        time: SimTime,
        component: &'static str,
        event: Cow<'static, str>,
        key: Option<&str>,
        resource_version: Option<u64>,
        detail: impl fmt::Display,
    ) {
        let full = self.ring.len() == self.capacity;
        let recycled = if full { self.ring.pop_front() } else { None };
        let mut line = recycled.unwrap_or_else(|| TraceEvent {
            time,
            component: Cow::Borrowed(component),
            event: Cow::Borrowed(""),
            key: None,
            resource_version: None,
            detail: String::new(),
        });
        line.time = time;
        line.component = Cow::Borrowed(component);
        line.event = event;
        line.resource_version = resource_version;
        match (key, &mut line.key) {
            (Some(key), Some(buffer)) => {
                buffer.clear();
                buffer.push_str(key);
            }
            (key, slot) => *slot = key.map(str::to_owned),
        }
        line.detail.clear();
        // Writing into a String cannot fail.
        let _ = fmt::write(&mut line.detail, format_args!("{detail}"));
        self.record(line);
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

    /// FNV-1a 64 of `text`, byte by byte.
    fn fnv_of(text: &str) -> u64 {
        text.bytes().fold(FNV_OFFSET, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(FNV_PRIME)
        })
    }

    #[test]
    fn the_hash_folds_exactly_the_displayed_line() {
        let mut events = vec![ev(0, "ADDED"), ev(7, "PUT"), ev(61_005, "GET")];
        let mut bare = ev(u64::MAX / 1_000_000, "LIST");
        bare.key = None;
        bare.resource_version = None;
        bare.detail = String::new();
        events.push(bare);
        let mut rv0 = ev(999, "PATCH");
        rv0.resource_version = Some(0);
        events.push(rv0);
        for e in events {
            let mut t = Trace::default();
            t.record(e.clone());
            assert_eq!(t.hash(), fnv_of(&format!("{e}\n")), "{e}");
        }
    }

    #[test]
    fn lines_written_into_recycled_buffers_equal_lines_recorded_whole() {
        // a ring of 2 recycles from the third line on: a key, no key, a key again, no detail
        let lines = [
            ev(1, "PUT"),
            TraceEvent {
                key: None,
                detail: "objects=3".into(),
                ..ev(2, "LIST")
            },
            TraceEvent {
                detail: "x".repeat(300),
                ..ev(3, "GET")
            },
            TraceEvent {
                key: None,
                resource_version: None,
                ..ev(4, "WATCH")
            },
            TraceEvent {
                detail: String::new(),
                ..ev(5, "PATCH")
            },
        ];
        let mut whole = Trace::with_capacity(2);
        let mut parts = Trace::with_capacity(2);
        for line in &lines {
            whole.record(line.clone());
            let component = "apiserver";
            let event = line.event.clone();
            let key = line.key.as_deref();
            let detail = format_args!("{}", line.detail);
            parts.record_parts(
                line.time,
                component,
                event,
                key,
                line.resource_version,
                detail,
            );
        }
        assert_eq!(parts.hash(), whole.hash());
        assert_eq!(parts.total(), whole.total());
        assert_eq!(parts.to_text(), whole.to_text());
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
