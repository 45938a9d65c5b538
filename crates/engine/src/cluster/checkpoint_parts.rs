//! A checkpoint copied in parts, so that no one piece of the copy is long.
//!
//! At the incident's scale most of a checkpoint's copy is the hash-map-based parts of the
//! running operator that stay plain (touched several times per event, a shared structure would
//! cost every event more): the informer's DeltaFIFO, the controller's workqueue and the causes of
//! its pending adds. The page copies each in a browser task of its own, then the rest of the
//! state with those set aside, and handles no event in between, so the parts and the rest are of
//! one instant.
//!
//! ```text
//!  task 1: copy the FIFO   task 2: the workqueue   task 3: its pending   task 4: set them aside,
//!                                                          causes        copy the rest, put the
//!  (no event handled between the tasks)                                  copies in → Checkpoint
//! ```
//!
//! Freeing a state (a checkpoint the timeline let go, the state a restore replaced) is as long
//! as copying it, and longest where it owns most: the informer's cache, which holds the object
//! versions only that state still points to. It is taken apart the same way: the cache, the FIFO
//! and the workqueue's parts are set aside and freed a task each, after the rest.

use crate::informer::delta_fifo::DeltaFifo;
use crate::informer::indexer::Indexer;

use super::checkpoint::Checkpoint;
use super::informer::Fifo;
use super::run::Run;
use super::workqueue::QueuePart;
use super::Cluster;

/// One part of the running operator that a checkpoint copies on its own.
pub(super) enum Part {
    /// The informer's queue between the reflector and the processing loop.
    Fifo(Fifo),
    /// A part of the controller's workqueue (the queue, or the causes of its pending adds).
    Queue(QueuePart),
    /// The informer's cache (shared with the checkpoints, so never copied on its own).
    Indexer(Box<Indexer>),
}

impl Part {
    /// An empty part of the same kind: what the run holds for an instant while the rest of its
    /// state is copied.
    fn placeholder(&self) -> Part {
        match self {
            Part::Fifo(_) => Part::Fifo(empty_fifo()),
            Part::Queue(queue) => Part::Queue(queue.placeholder()),
            Part::Indexer(_) => Part::Indexer(Box::default()),
        }
    }
}

/// An empty informer queue, held in a part's place.
fn empty_fifo() -> Fifo {
    Fifo::Delta(DeltaFifo::default())
}

/// A checkpoint being copied: the parts copied so far, at the event count they were copied at.
pub(super) struct PartialCopy {
    events: u64,
    parts: Vec<Part>,
}

impl Cluster {
    /// A copy of the running operator's part number `i` (none past the last part, or while no
    /// operator runs).
    fn copy_part(&self, i: usize) -> Option<Part> {
        let op = self.operator.running.as_ref()?;
        match i {
            0 => Some(Part::Fifo(op.informer.fifo.clone())),
            1 | 2 => op.queue.copy_part(i - 1).map(Part::Queue),
            _ => None,
        }
    }

    /// Swaps `part` with the running operator's part of the same kind.
    fn swap_part(&mut self, part: &mut Part) {
        let Some(op) = self.operator.running.as_mut() else {
            return;
        };
        match part {
            Part::Fifo(fifo) => std::mem::swap(&mut op.informer.fifo, fifo),
            Part::Queue(part) => op.queue.swap_part(part),
            Part::Indexer(indexer) => std::mem::swap(&mut op.informer.indexer, &mut **indexer),
        }
    }

    /// Takes the running operator's cache, FIFO and workqueue out (empty ones in their place),
    /// to be freed one at a time.
    pub(super) fn take_parts(&mut self) -> Vec<Part> {
        if self.operator.running.is_none() {
            return Vec::new();
        }
        let mut parts: Vec<Part> = QueuePart::empty_parts()
            .into_iter()
            .map(Part::Queue)
            .collect();
        parts.push(Part::Fifo(empty_fifo()));
        parts.push(Part::Indexer(Box::default()));
        for part in &mut parts {
            self.swap_part(part);
        }
        parts
    }
}

impl Run {
    /// Copies the next part of a checkpoint of the current state; returns the checkpoint once
    /// every part and the rest are copied. Parts copied at an earlier event count, or before a
    /// restore, are copied again.
    pub(super) fn checkpoint_in_parts(&mut self) -> Option<Checkpoint> {
        let events = self.events();
        let mut copy = self
            .copying
            .take()
            .filter(|c| c.events == events)
            .unwrap_or_else(|| {
                Box::new(PartialCopy {
                    events,
                    parts: Vec::new(),
                })
            });
        if let Some(part) = self.cluster().copy_part(copy.parts.len()) {
            copy.parts.push(part);
            self.copying = Some(copy);
            return None;
        }
        Some(self.checkpoint_with(copy.parts))
    }

    /// A checkpoint of the current state into which `parts` (copies of this instant's parts)
    /// go: the run's own parts are set aside while the rest is copied, so they are not copied
    /// twice.
    fn checkpoint_with(&mut self, mut parts: Vec<Part>) -> Checkpoint {
        let size = super::checkpoint::estimate_size(self);
        let mut held: Vec<Part> = parts.iter().map(Part::placeholder).collect();
        self.swap_parts(&mut held);
        let mut checkpoint = Checkpoint::new(self.state.clone(), &size);
        self.swap_parts(&mut held);
        for part in &mut parts {
            checkpoint.cluster_mut().swap_part(part);
        }
        checkpoint
    }

    fn swap_parts(&mut self, parts: &mut [Part]) {
        let cluster = self.state.sim.model_mut();
        for part in parts {
            cluster.swap_part(part);
        }
    }

    /// Forgets the parts of a checkpoint copied so far (the state they were copied from is
    /// replaced).
    pub(super) fn forget_partial_copy(&mut self) {
        self.copying = None;
    }
}
