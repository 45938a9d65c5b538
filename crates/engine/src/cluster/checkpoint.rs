//! Checkpoints of a run: a copy of its complete state that a run can be put back to.
//!
//! ```text
//!  Run ──checkpoint()──▶ Checkpoint { world, event queue, RNG, series, trace ring + hash
//!   ▲                                 (its events with their causes), invariant checker }
//!   └────restore(&cp)─────┘   then the run handles exactly the events it would have
//! ```
//!
//! Objects are shared copy-on-write ([`crate::object::ObjectRef`]), and so are the large maps and
//! queues that hold them ([`crate::sim::shared`]: the store, the watch cache, the informer's
//! cache, the workqueue's queue, the cause maps), and so is the trace's ring of events with their
//! causes, in chunks of 256 ([`crate::sim::Trace`]): taking or restoring a checkpoint copies
//! pointers to their trees and chunks, and the pending events, the metric series, the ring's
//! newest partial chunk, the workqueue's and the DeltaFIFO's hash maps and the small parts
//! outright. What a checkpoint adds to memory is what the run rewrites after it: the tree nodes
//! on the paths of every write since, which the checkpoint keeps while the run holds new ones.
//!
//! ```text
//!   cp₁ ──shares──▶ [ nodes ] ◀──shares── run       bytes(cp₂ after cp₁) ≈ copied parts
//!                      │ a write copies its path          + events between × BYTES_PER_EVENT
//!   cp₂ ──shares──▶ [ nodes' ]                          (never more than a full copy)
//! ```

use std::mem::size_of;

use crate::sim::Trace;
use crate::time::SimTime;

use super::run::{Run, State};
use super::timeline::Stamped;
use super::Ev;

/// Estimated bytes of one entry of a key-ordered map or queue that holds an object (its key, a
/// shared pointer, the tree's spare room), measured at the incident's scale by `flywheel bench`:
/// what a checkpoint would take if it shared nothing with the run.
pub const BYTES_PER_HELD_OBJECT: u64 = 48;

/// Estimated bytes of the parts of a checkpoint that do not grow with the world.
pub const FIXED_BYTES: u64 = 64 * 1024;

/// Estimated bytes a checkpoint keeps alive per event the run handles after it: the tree nodes
/// its writes copy (a leaf of up to 64 entries and the path to it, for the store, the watch
/// cache, the informer's cache, the workqueue's queue and the cause maps) and the object
/// versions they replace, measured at the incident's scale by `flywheel bench` ("checkpoint
/// resident bytes per later event": 344 over a tenth of the run from its middle).
pub const BYTES_PER_EVENT: u64 = 344;

/// Events worth handling between checkpoints per entry a checkpoint copies outright (a pending
/// event, a key of the workqueue's or the DeltaFIFO's hash maps). Copying one costs a few
/// percent of handling an event, and each checkpoint costs more after it: the first write to
/// each shared leaf of the trees copies it, and the timeline frees the checkpoints it lets go.
/// At the incident's 150 000 keys, two events per entry (a checkpoint every 300 000 events, about
/// 13 simulated seconds) ran the page about 5 % faster than one (six alternated pairs, wall time
/// until the clock showed 590 s; BENCHMARKS.md), and a seek replays at most that far.
pub const SPACING_EVENTS_PER_COPIED_ENTRY: u64 = 2;

/// A copy of a run's complete state at one instant.
#[derive(Clone)]
pub struct Checkpoint {
    state: State,
    /// Estimated bytes if it shared nothing.
    full_bytes: u64,
    /// Estimated bytes of the parts copied outright.
    copied_bytes: u64,
    /// Estimated bytes of the trace ring's chunks it shares.
    ring_shared_bytes: u64,
    /// Pending events and hash-map entries copied outright (the series and the ring's newest
    /// chunk are copied as blocks of memory).
    copied_entries: u64,
}

impl Checkpoint {
    /// A checkpoint holding `state`, of the estimated `size`.
    pub(super) fn new(state: State, size: &Size) -> Checkpoint {
        Checkpoint {
            state,
            full_bytes: size.full_bytes,
            copied_bytes: size.copied_bytes,
            ring_shared_bytes: size.ring_shared_bytes,
            copied_entries: size.copied_entries,
        }
    }

    /// Its cluster, to put parts copied on their own into it ([`super::checkpoint_parts`]).
    pub(super) fn cluster_mut(&mut self) -> &mut super::Cluster {
        self.state.sim.model_mut()
    }

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

    /// Its estimated size in bytes if it shared nothing with the run or another checkpoint: the
    /// entries of the maps and queues that hold objects ([`BYTES_PER_HELD_OBJECT`]), the trace's
    /// ring of events with their causes, the pending events, the metric series and
    /// [`FIXED_BYTES`].
    pub fn bytes(&self) -> u64 {
        self.full_bytes
    }

    /// The estimated bytes it adds to memory beside `earlier`, a checkpoint of the same branch
    /// taken before it: the parts it copied outright, [`BYTES_PER_EVENT`] for each event
    /// handled between the two (the nodes those events rewrote, which `earlier` keeps), and the
    /// trace ring's chunks of those events; never more than [`Checkpoint::bytes`].
    pub fn bytes_after(&self, earlier: &Checkpoint) -> u64 {
        let between = self.events().saturating_sub(earlier.events());
        let ring = between
            .saturating_mul(Trace::BYTES_PER_EVENT as u64)
            .min(self.ring_shared_bytes);
        let shared = self
            .copied_bytes
            .saturating_add(between.saturating_mul(BYTES_PER_EVENT))
            .saturating_add(ring);
        shared.min(self.full_bytes)
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

    fn bytes_after(&self, earlier: &Self) -> u64 {
        Checkpoint::bytes_after(self, earlier)
    }

    fn min_spacing_events(&self) -> u64 {
        self.copied_entries * SPACING_EVENTS_PER_COPIED_ENTRY
    }
}

/// Estimated sizes of a checkpoint of `run`.
pub(super) struct Size {
    full_bytes: u64,
    copied_bytes: u64,
    ring_shared_bytes: u64,
    copied_entries: u64,
}

/// Estimates a checkpoint of `run`: what it copies outright (the pending events, the metric
/// series, the newest partial chunk of the trace's ring, the fixed parts) and what it would
/// take if it shared nothing.
pub(super) fn estimate_size(run: &Run) -> Size {
    let snap = run.snapshot();
    let op = snap.operator.unwrap_or_default();
    // The API server's store and watch cache hold every object; the informer's indexer, its
    // FIFO and the workqueue hold the operator's share.
    let held = 2 * snap.objects
        + op.cache_objects
        + op.fifo_deltas
        + op.handler_buffer
        + op.queue_ready
        + op.queue_waiting;
    // The workqueue's index of places and the causes of its pending adds (an entry per queued
    // or waiting item) are hash tables copied outright, and the DeltaFIFO's queue of slots with
    // the index of their places is copied too: touched several times per event, a shared trie
    // cost every event more than copying them costs a checkpoint.
    let item_entries = 2 * (op.queue_ready + op.queue_waiting) + op.fifo_deltas;
    let ring_shared = run.trace().shared_bytes();
    let ring_copied = run.trace().bytes() - ring_shared;
    let pending = run.state.sim.pending();
    let series_points: usize = run
        .series_keys()
        .filter_map(|k| run.series(k))
        .map(<[(f64, f64)]>::len)
        .sum();
    let copied = pending * size_of::<Ev>() + series_points * size_of::<(f64, f64)>() + ring_copied;
    let copied_bytes = FIXED_BYTES + copied as u64 + item_entries * BYTES_PER_HELD_OBJECT;
    Size {
        full_bytes: copied_bytes + ring_shared as u64 + held * BYTES_PER_HELD_OBJECT,
        copied_bytes,
        ring_shared_bytes: ring_shared as u64,
        copied_entries: pending as u64 + item_entries,
    }
}

impl Run {
    /// A checkpoint of the complete state: world, event queue, random source, metric series,
    /// trace ring and hash, invariant checker. Objects, and the maps and queues that hold them,
    /// are shared, not copied.
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint::new(self.state.clone(), &estimate_size(self))
    }

    /// Puts the run back to `checkpoint`, which must come from this run (or one of the same
    /// scenario and options): from there it handles exactly the events it handled after the
    /// checkpoint was taken. With a timeline kept, the state counts as the current branch's.
    ///
    /// The state replaced is freed when the run next handles events, or on [`Run::release`].
    pub fn restore(&mut self, checkpoint: &Checkpoint) {
        self.forget_partial_copy();
        let replaced = std::mem::replace(&mut self.state, checkpoint.state.clone());
        self.released = Some(Box::new(replaced));
    }

    /// Frees the state the last restore replaced and the checkpoints the timeline let go to
    /// keep its budget, if the run has not yet done so; returns whether there was any.
    pub fn release(&mut self) -> bool {
        let parts = !std::mem::take(&mut self.freeing).is_empty();
        let replaced = self.released.take().is_some();
        let dropped = self.timeline.as_mut().is_some_and(|t| t.free_dropped());
        parts || replaced || dropped
    }

    /// Like [`Run::release`], one piece at a time: the state the last restore replaced, else
    /// one checkpoint the timeline let go, each in parts (the rest of it first, then its
    /// informer's cache, FIFO and workqueue parts, a call each, then their large collections
    /// [`Run::set_step_entries`] entries per call: [`super::checkpoint_parts`]); returns
    /// whether it freed anything. The page calls it once per frame, before handling events, so
    /// each piece is a browser task of its own.
    pub fn release_one(&mut self) -> bool {
        if self.freeing.step(self.step_entries) {
            return true;
        }
        if let Some(mut state) = self.released.take() {
            self.freeing = state.sim.model_mut().take_parts();
            return true;
        }
        let dropped = self.timeline.as_mut().and_then(|t| t.take_one_dropped());
        if let Some(mut checkpoint) = dropped {
            self.freeing = checkpoint.cluster_mut().take_parts();
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::run::RunOptions;
    use crate::scenario::presets;
    use std::time::Duration;

    #[test]
    fn a_restore_frees_the_state_it_replaced_only_when_the_run_next_handles_events() {
        let scenario = presets::load("flywheel", &[]).expect("preset");
        let options = RunOptions {
            duration: Some(Duration::from_secs(10)),
            ..RunOptions::default()
        };
        let mut run = Run::new(scenario, &options).expect("run");
        let start = run.checkpoint();
        run.advance(2_000);
        run.restore(&start);
        assert!(
            run.released.is_some(),
            "the replaced state waits to be freed"
        );
        assert_eq!(
            run.events(),
            start.events(),
            "the restored state is the checkpoint's"
        );
        run.advance_to(SimTime::from_secs_f64(1.0), 10);
        assert!(run.released.is_none(), "handling events frees it first");
        run.restore(&start);
        run.release();
        assert!(run.released.is_none(), "release frees it at once");
    }

    #[test]
    fn release_one_frees_a_replaced_state_in_parts_the_cache_fifo_and_workqueue_last() {
        let scenario = presets::load("flywheel", &[]).expect("preset");
        let mut run = Run::new(scenario, &RunOptions::default()).expect("run");
        let start = run.checkpoint();
        run.advance_to(SimTime::from_secs_f64(30.0), u64::MAX);
        assert!(
            run.cluster().operator.running.is_some(),
            "the operator runs"
        );
        let (collections, entries) = run
            .state
            .clone()
            .sim
            .model_mut()
            .take_parts()
            .large_in_parts();
        assert!(collections > 0, "the FIFO and the workqueue hold keys");
        run.restore(&start);
        run.set_step_entries(1);
        let mut calls = 0;
        while run.release_one() {
            calls += 1;
            assert!(run.released.is_none(), "the rest goes first");
        }
        // The rest, then the cache, the FIFO, the workqueue and its pending causes, then their
        // large collections (the cache's objects among them) an entry (a hash map: a shard) per
        // call.
        assert!(
            (5 + collections..=5 + entries).contains(&calls),
            "{calls} calls free {collections} collections of {entries} entries"
        );
        assert!(run.freeing.is_empty());
        assert!(!run.release(), "nothing is left to free");
    }
}
