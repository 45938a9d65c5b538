//! Releasing a dead operator's memory. When the container dies, its process state is gone at
//! once for the model; the host memory that held a large informer cache and workqueue is freed
//! over the next continuation events ([`crate::sim::Context::continue_with`]), a part each, so
//! the page can draw between them. Nothing in the model can observe the parts.

use std::collections::BTreeMap;

use crate::informer::deltas::Deltas;
use crate::key::Key;
use crate::object::ObjectRef;
use crate::sim::Context;

use super::informer::{Fifo, SimInformer};
use super::operator::Operator;
use super::operator_side::OperatorSide;
use super::workqueue::WorkQueue;
use super::Ev;

/// Map entries freed per event.
const ENTRIES_PER_PART: usize = 2_500;

/// A part of a dead operator, waiting to be freed.
#[derive(Clone)]
pub(super) enum DeadPart {
    /// The informer; freeing it hands over its cache and queue as further parts.
    Informer(Box<SimInformer>),
    /// The controller's workqueue.
    Queue(Box<WorkQueue>),
    /// Cached objects.
    Objects(BTreeMap<Key, ObjectRef>),
    /// Queued deltas.
    Deltas(Vec<(Key, Deltas)>),
}

impl OperatorSide {
    /// Takes the operator away (its container died or was replaced) and frees its large parts
    /// in the events that follow.
    pub(super) fn retire(&mut self, ctx: &mut Context<'_, Ev>) {
        let Some(op) = self.running.take() else {
            return;
        };
        let Operator {
            informer, queue, ..
        } = op;
        self.dead.push(DeadPart::Informer(Box::new(informer)));
        self.dead.push(DeadPart::Queue(Box::new(queue)));
        ctx.continue_with(Ev::ReleaseDead);
    }

    /// Frees one part of a dead operator; continues while parts remain.
    pub(super) fn release_dead(&mut self, ctx: &mut Context<'_, Ev>) {
        match self.dead.pop() {
            Some(DeadPart::Informer(informer)) => {
                let SimInformer { fifo, indexer, .. } = *informer;
                if let Fifo::Delta(fifo) = fifo {
                    push_list_parts(&mut self.dead, fifo.into_queued());
                }
                push_parts(&mut self.dead, indexer.into_items(), DeadPart::Objects);
            }
            Some(DeadPart::Queue(queue)) => drop(queue),
            Some(DeadPart::Objects(objects)) => drop(objects),
            Some(DeadPart::Deltas(deltas)) => drop(deltas),
            None => return,
        }
        if !self.dead.is_empty() {
            ctx.continue_with(Ev::ReleaseDead);
        }
    }
}

/// Splits `list` into parts of at most [`ENTRIES_PER_PART`] entries (cutting from the end) and
/// queues them to be freed.
fn push_list_parts(dead: &mut Vec<DeadPart>, mut list: Vec<(Key, Deltas)>) {
    while list.len() > ENTRIES_PER_PART {
        let tail = list.split_off(list.len() - ENTRIES_PER_PART);
        dead.push(DeadPart::Deltas(tail));
    }
    dead.push(DeadPart::Deltas(list));
}

/// Splits `map` into parts of at most [`ENTRIES_PER_PART`] entries (cutting from the end, so
/// each cut walks only the entries it takes) and queues them to be freed.
fn push_parts<V>(
    dead: &mut Vec<DeadPart>,
    mut map: BTreeMap<Key, V>,
    part: fn(BTreeMap<Key, V>) -> DeadPart,
) {
    while map.len() > ENTRIES_PER_PART {
        let Some(cut) = map.keys().nth_back(ENTRIES_PER_PART - 1).cloned() else {
            break;
        };
        let tail = map.split_off(&cut);
        dead.push(part(tail));
    }
    dead.push(part(map));
}
