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
//!  tasks 1…: copy the FIFO   tasks …: the workqueue   tasks …: its pending   last task: set them
//!                                                               causes        aside, copy the rest,
//!  (no event handled between the tasks)                                       put the copies in
//! ```
//!
//! Each part is itself copied in steps of at most [`Run::step_entries`] entries of its large
//! collections ([`crate::sim::large`]): at 150 000 keys one map alone was a 45–70 ms task.
//!
//! Freeing a state (a checkpoint the timeline let go, the state a restore replaced) is as long
//! as copying it, and longest where it owns most: the informer's cache, which holds the object
//! versions only that state still points to. It is taken apart the same way: the cache, the FIFO
//! and the workqueue's parts are set aside and freed a task each, after the rest, and each
//! part's large collections a step of entries at a time.

use crate::informer::delta_fifo::DeltaFifo;
use crate::informer::indexer::Indexer;
use crate::sim::large::{clone_without_large, Large, LargeParts, StepCopy, StepFree};

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

impl LargeParts for Part {
    /// The part's own (the cache's objects are never copied on their own: its copies share
    /// their nodes; they are freed in steps like the rest).
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn Large>) {
        match self {
            Part::Fifo(fifo) => fifo.large_parts(out),
            Part::Queue(queue) => queue.large_parts(out),
            Part::Indexer(indexer) => indexer.large_parts(out),
        }
    }
}

/// An empty informer queue, held in a part's place.
fn empty_fifo() -> Fifo {
    Fifo::Delta(DeltaFifo::default())
}

/// A checkpoint being copied: the parts copied so far, at the event count they were copied at,
/// and the part being copied with how far its copy has come.
pub(super) struct PartialCopy {
    events: u64,
    parts: Vec<Part>,
    current: Option<(Part, StepCopy)>,
}

/// What is left to free of a state taken apart: its parts, then each part's large collections.
#[derive(Default)]
pub(super) struct Freeing {
    parts: Vec<Part>,
    entries: StepFree,
}

impl Freeing {
    /// Frees the next piece: up to `budget` entries of a large collection set aside, else the
    /// next part with its large collections set aside for the steps that follow. Returns whether
    /// anything was left to free.
    pub(super) fn step(&mut self, budget: usize) -> bool {
        if self.entries.step(budget) {
            return true;
        }
        let Some(mut part) = self.parts.pop() else {
            return false;
        };
        self.entries.take_from(&mut part);
        drop(part);
        true
    }

    /// Whether nothing is left to free.
    pub(super) fn is_empty(&self) -> bool {
        self.parts.is_empty() && self.entries.is_empty()
    }

    /// How many non-empty large collections the parts not yet taken apart hold, and how many
    /// entries in all.
    #[cfg(test)]
    pub(super) fn large_in_parts(&mut self) -> (usize, usize) {
        let mut collections = 0;
        let mut entries = 0;
        for part in &mut self.parts {
            let mut large = Vec::new();
            part.large_parts(&mut large);
            collections += large.iter().filter(|l| l.entries() > 0).count();
            entries += large.iter().map(|l| l.entries()).sum::<usize>();
        }
        (collections, entries)
    }
}

impl Cluster {
    /// A copy of the running operator's part number `i` without its large collections, to be
    /// filled by [`Cluster::copy_step`] (none past the last part, or while no operator runs).
    fn skeleton_part(&mut self, i: usize) -> Option<Part> {
        let op = self.operator.running.as_mut()?;
        match i {
            0 => Some(Part::Fifo(clone_without_large(&mut op.informer.fifo))),
            1 | 2 => op.queue.skeleton_part(i - 1).map(Part::Queue),
            _ => None,
        }
    }

    /// Copies up to `budget` more entries of the running operator's part into `copy` (a
    /// skeleton of it); returns whether `copy` is complete.
    fn copy_step(&mut self, copy: &mut Part, progress: &mut StepCopy, budget: usize) -> bool {
        let Some(op) = self.operator.running.as_mut() else {
            return true;
        };
        match copy {
            Part::Fifo(fifo) => progress.step(&mut op.informer.fifo, fifo, budget),
            Part::Queue(queue) => op.queue.copy_step(queue, progress, budget),
            Part::Indexer(_) => true,
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
    pub(super) fn take_parts(&mut self) -> Freeing {
        if self.operator.running.is_none() {
            return Freeing::default();
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
        Freeing {
            parts,
            entries: StepFree::default(),
        }
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
                    current: None,
                })
            });
        let next = copy.parts.len();
        let current = match copy.current.take() {
            Some(current) => current,
            None => match self.state.sim.model_mut().skeleton_part(next) {
                Some(skeleton) => (skeleton, StepCopy::default()),
                None => return Some(self.checkpoint_with(copy.parts)),
            },
        };
        let (mut part, mut progress) = current;
        let budget = self.step_entries;
        if self
            .state
            .sim
            .model_mut()
            .copy_step(&mut part, &mut progress, budget)
        {
            copy.parts.push(part);
        } else {
            copy.current = Some((part, progress));
        }
        self.copying = Some(copy);
        None
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
