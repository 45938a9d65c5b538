//! `--trace FILE`: every event of a run, streamed to the file as the run goes, each line with
//! its event id and the ids of its causes.
//!
//! The format is one event a line, four fields separated by a tab:
//!
//! ```text
//! <id>  <cause ids>  <note>  <trace line>
//! 48    47           -       1.250s handler Enqueue ns-0/demo-1 rv=42 own_write=true
//! 60    48,55        delayed 1.300s worker Reconcile ns-0/demo-1 worker=0
//! ```
//!
//! - `id`: the event's ordinal in the trace stream, from 0 (the engine's `EventId`).
//! - `cause ids`: the ids of the events that caused it, comma-separated, oldest first; `-` for
//!   an origin (a user action, a start, a LIST).
//! - `note`: `sync` (a resync, or an object a relist found unchanged), `relist` (a `Replaced`
//!   delta), `delayed` (a `RequeueAfter` or rate-limited add came due), or `-`.
//! - `trace line`: the engine's stable trace line, exactly as its hash covers it.
//!
//! The run keeps a causal ring larger than the events of one step of the CLI
//! ([`STREAM_CAUSAL_CAPACITY`], [`STREAM_STEP_EVENTS`]); the writer takes what is new after each
//! step, so memory stays bounded however long the run.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use flywheel_engine::cluster::run::Run;
use flywheel_engine::sim::{CauseNote, EventId};

/// Events whose causes the run keeps while it streams its trace.
pub const STREAM_CAUSAL_CAPACITY: usize = 1 << 20;

/// Engine events handled between two writes of the stream (each traces a few records).
pub const STREAM_STEP_EVENTS: u64 = 20_000;

/// Writes a run's events to a file as they happen.
pub struct TraceStream {
    out: BufWriter<File>,
    next: u64,
    line: String,
}

impl TraceStream {
    /// Creates (or truncates) the file.
    pub fn create(path: &Path) -> Result<TraceStream, String> {
        let file =
            File::create(path).map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
        Ok(TraceStream {
            out: BufWriter::new(file),
            next: 0,
            line: String::new(),
        })
    }

    /// Writes every event recorded since the last call; fails if the ring lost some.
    pub fn write_new(&mut self, run: &Run) -> Result<(), String> {
        let ring = run.causal();
        if ring.oldest().is_some_and(|oldest| oldest.0 > self.next) {
            return Err(format!(
                "--trace: events from #{} fell out of the causal ring before they were written",
                self.next
            ));
        }
        for r in ring.records_from(EventId(self.next)) {
            self.line.clear();
            let _ = write!(self.line, "{}\t", r.id.0);
            if r.causes.is_empty() {
                self.line.push('-');
            }
            for (i, c) in r.causes.iter().enumerate() {
                let sep = if i == 0 { "" } else { "," };
                let _ = write!(self.line, "{sep}{}", c.0);
            }
            let _ = writeln!(self.line, "\t{}\t{}", note_word(r.note), r.event);
            self.out
                .write_all(self.line.as_bytes())
                .map_err(|e| format!("--trace: {e}"))?;
            self.next = r.id.0 + 1;
        }
        Ok(())
    }

    /// Flushes the file.
    pub fn finish(mut self) -> Result<(), String> {
        self.out.flush().map_err(|e| format!("--trace: {e}"))
    }
}

/// The note column's word.
fn note_word(note: CauseNote) -> &'static str {
    match note {
        CauseNote::None => "-",
        CauseNote::Sync => "sync",
        CauseNote::Relist => "relist",
        CauseNote::Delayed => "delayed",
    }
}
