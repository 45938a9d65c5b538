//! Checkpoints of a run: a copy of its complete state that a run can be put back to.
//!
//! ```text
//!  Run ──checkpoint()──▶ Checkpoint { world, event queue, RNG, series, trace ring + hash,
//!   ▲                                 causal ring, invariant checker }
//!   └────restore(&cp)─────┘   then the run handles exactly the events it would have
//! ```
//!
//! Objects are shared copy-on-write ([`crate::object::ObjectRef`]), so a checkpoint copies the
//! maps and queues that hold them, not the objects: its bytes grow with the number of entries.

use std::mem::size_of;

use crate::sim::TraceEvent;
use crate::time::SimTime;

use super::run::{Run, State};
use super::timeline::Stamped;

/// Estimated bytes of one entry of a key-ordered map or queue that holds an object (its key, a
/// shared pointer, the tree's spare room), measured at the incident's scale by `flywheel bench`.
pub const BYTES_PER_HELD_OBJECT: u64 = 48;

/// Estimated bytes of the parts of a checkpoint that do not grow with the world.
pub const FIXED_BYTES: u64 = 64 * 1024;

/// Events worth handling between checkpoints per map or queue entry a checkpoint copies:
/// copying an entry costs a few percent of handling an event, measured at the incident's scale.
pub const SPACING_EVENTS_PER_HELD_OBJECT: u64 = 1;

/// A copy of a run's complete state at one instant.
#[derive(Clone)]
pub struct Checkpoint {
    state: State,
    bytes: u64,
    held: u64,
}

impl Checkpoint {
    /// The simulated time it was taken at.
    pub fn at(&self) -> SimTime {
        self.state.sim.now()
    }

    /// Events the run had handled.
    pub fn events(&self) -> u64 {
        self.state.sim.steps()
    }

    /// The trace hash of the run at that instant.
    pub fn trace_hash(&self) -> u64 {
        self.state.sim.trace().hash()
    }

    /// Its estimated size in bytes: the entries of the maps and queues it copies, the trace ring
    /// and the metric series ([`BYTES_PER_HELD_OBJECT`], [`FIXED_BYTES`]).
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

impl Stamped for Checkpoint {
    fn at(&self) -> SimTime {
        Checkpoint::at(self)
    }

    fn events(&self) -> u64 {
        Checkpoint::events(self)
    }

    fn bytes(&self) -> u64 {
        Checkpoint::bytes(self)
    }

    fn min_spacing_events(&self) -> u64 {
        self.held * SPACING_EVENTS_PER_HELD_OBJECT
    }
}

/// Estimated size of a copy of `run`'s state: (bytes, map and queue entries holding objects).
fn estimate_size(run: &Run) -> (u64, u64) {
    let snap = run.snapshot();
    let op = snap.operator.unwrap_or_default();
    // The API server's store and watch cache hold every object; the informer's indexer, its
    // FIFO and the workqueue hold the operator's share.
    let held = 2 * snap.objects
        + op.cache_objects
        + op.fifo_deltas
        + op.handler_buffer
        + op.queue_ready
        + op.queue_waiting
        + run.state.sim.pending() as u64;
    let trace =
        run.trace().events().count() * size_of::<TraceEvent>() + run.trace().causal().bytes();
    let series: usize = run
        .series_keys()
        .filter_map(|k| run.series(k))
        .map(std::mem::size_of_val)
        .sum();
    let bytes = FIXED_BYTES + held * BYTES_PER_HELD_OBJECT + (trace + series) as u64;
    (bytes, held)
}

impl Run {
    /// A checkpoint of the complete state: world, event queue, random source, metric series,
    /// trace ring and hash, invariant checker. Objects are shared, not copied.
    pub fn checkpoint(&self) -> Checkpoint {
        let (bytes, held) = estimate_size(self);
        Checkpoint {
            state: self.state.clone(),
            bytes,
            held,
        }
    }

    /// Puts the run back to `checkpoint`, which must come from this run (or one of the same
    /// scenario and options): from there it handles exactly the events it handled after the
    /// checkpoint was taken. With a timeline kept, the state counts as the current branch's.
    pub fn restore(&mut self, checkpoint: &Checkpoint) {
        self.state = checkpoint.state.clone();
    }
}
