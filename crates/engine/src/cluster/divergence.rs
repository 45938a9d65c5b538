//! Where two runs part: the first trace event at which run A and run B (the same seed, other
//! switches) differ, found incrementally as both advance, and named in a sentence from the typed
//! records.
//!
//! ```text
//!  A's trace  #0 #1 … #k-1 │ #k  handler Enqueue default/demo-3 rv=42
//!  B's trace  #0 #1 … #k-1 │ #k  handler Dropped default/demo-3 rv=42
//!             └─ compared ─┘ ▲ first difference: "B: GenerationChangedPredicate dropped
//!                DivergenceFinder keeps the cursor k     MODIFIED default/demo-3 rv=42"
//! ```
//!
//! Each call compares only the records recorded since the last one, so the page can call it
//! every frame; the records must still be in both runs' trace rings
//! ([`crate::sim::DEFAULT_TRACE_CAPACITY`] records), or the call says how many were lost.

use std::fmt;

use crate::sim::{EventId, EventKind, TraceEvent};
use crate::time::SimTime;

use super::run::Run;

/// One of the two compared runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Side {
    /// The first run.
    A,
    /// The second run.
    B,
}

impl Side {
    fn as_str(self) -> &'static str {
        match self {
            Side::A => "A",
            Side::B => "B",
        }
    }
}

/// The first event where two runs differ.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Divergence {
    /// The id both runs gave their first differing event.
    pub event: EventId,
    /// When it happened (the earlier of the two records' times).
    pub at: SimTime,
    /// The run whose record names the difference (a predicate's drop, …), when one does.
    pub side: Option<Side>,
    /// The difference, in English.
    pub en: String,
    /// The difference, in 简体中文.
    pub zh: String,
}

/// Why the runs could not be compared further.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DivergenceError {
    /// Records after the cursor left a trace ring before they were compared: call more often.
    Lost {
        /// Records compared so far.
        compared: u64,
        /// The id of the oldest record both rings still keep.
        first_kept: u64,
    },
}

impl fmt::Display for DivergenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DivergenceError::Lost {
                compared,
                first_kept,
            } => write!(
                f,
                "trace records {compared}..{first_kept} left the trace ring before they were \
                 compared: compare the runs more often"
            ),
        }
    }
}

impl std::error::Error for DivergenceError {}

/// Compares two runs as they advance, keeping a cursor.
#[derive(Clone, Debug, Default)]
pub struct DivergenceFinder {
    compared: u64,
    found: Option<Divergence>,
}

impl DivergenceFinder {
    /// A finder that has compared nothing yet.
    pub fn new() -> DivergenceFinder {
        DivergenceFinder::default()
    }

    /// Records compared so far (equal in both runs).
    pub fn compared(&self) -> u64 {
        self.compared
    }

    /// The divergence found, if any.
    pub fn found(&self) -> Option<&Divergence> {
        self.found.as_ref()
    }

    /// Compares the records both runs recorded since the last call; returns the first
    /// difference once there is one. A run sought back before the cursor moves it back too.
    pub fn advance(&mut self, a: &Run, b: &Run) -> Result<Option<&Divergence>, DivergenceError> {
        let common = a.trace().total().min(b.trace().total());
        if common < self.compared {
            self.compared = common;
            self.found = self.found.take().filter(|d| d.event.0 < common);
        }
        if self.found.is_some() {
            return Ok(self.found.as_ref());
        }
        let (ra, rb) = (a.trace_since(self.compared), b.trace_since(self.compared));
        let first_kept = a.trace().first_kept().max(b.trace().first_kept());
        if first_kept > self.compared {
            return Err(DivergenceError::Lost {
                compared: self.compared,
                first_kept,
            });
        }
        for (x, y) in ra.zip(rb).take((common - self.compared) as usize) {
            if x != y {
                self.found = Some(describe(EventId(self.compared), x, y, a, b));
                break;
            }
            self.compared += 1;
        }
        Ok(self.found.as_ref())
    }
}

/// The sentence for the first differing pair.
fn describe(event: EventId, x: &TraceEvent, y: &TraceEvent, a: &Run, b: &Run) -> Divergence {
    let at = x.time.min(y.time);
    let dropped = [(Side::A, x, a), (Side::B, y, b)]
        .into_iter()
        .find(|(_, r, _)| r.kind == EventKind::PredicateDropped);
    if let Some((side, r, run)) = dropped {
        let (en, zh) = dropped_sentence(side, r, run);
        return Divergence {
            event,
            at,
            side: Some(side),
            en,
            zh,
        };
    }
    Divergence {
        event,
        at,
        side: None,
        en: format!("A: {x}; B: {y}"),
        zh: format!("A：{x}；B：{y}"),
    }
}

/// "B: `GenerationChangedPredicate` dropped MODIFIED default/demo-3 rv=42", in both languages.
fn dropped_sentence(side: Side, r: &TraceEvent, run: &Run) -> (String, String) {
    let predicates = run
        .scenario()
        .controller
        .predicates
        .iter()
        .map(|p| p.go_name())
        .collect::<Vec<_>>()
        .join("+");
    let event_type = watched_type(r, run).unwrap_or("an event");
    let key = r.key.as_ref().map_or(String::new(), |k| format!(" {k}"));
    let rv = r
        .resource_version
        .map_or(String::new(), |rv| format!(" rv={rv}"));
    let s = side.as_str();
    let zh_type = if event_type == "an event" {
        "事件"
    } else {
        event_type
    };
    (
        format!("{s}: {predicates} dropped {event_type}{key}{rv}"),
        format!("{s}：{predicates} 丢弃了 {zh_type}{key}{rv}"),
    )
}

/// The type of the watch event that delivered the dropped object (same key and
/// resourceVersion), while the run's trace ring still keeps it.
fn watched_type(r: &TraceEvent, run: &Run) -> Option<&'static str> {
    run.trace()
        .events()
        .filter(|e| e.key == r.key && e.resource_version == r.resource_version)
        .find_map(|e| match e.kind {
            EventKind::WatchEvent { event_type, .. } => Some(event_type.as_str()),
            _ => None,
        })
}
