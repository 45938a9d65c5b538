//! Releasing a dead operator's memory. When the container dies, its process state is gone at
//! once for the model; the host memory that held a large informer cache and workqueue is freed
//! over the next continuation events ([`crate::sim::Context::continue_with`]), a part each, so
//! the page can draw between them. Nothing in the model can observe the parts.

use crate::informer::deltas::Deltas;
use crate::key::Key;
use crate::object::ObjectRef;
use crate::sim::shared::SharedMap;
use crate::sim::Context;

use super::informer::{Fifo, SimInformer};
use super::operator::Operator;
use super::operator_side::OperatorSide;
use super::workqueue::{QueuePart, WorkQueue};
use super::Ev;

/// Map entries freed per event.
const ENTRIES_PER_PART: usize = 2_500;

/// A part of a dead operator, waiting to be freed.
#[derive(Clone)]
pub(super) enum DeadPart {
    /// The informer; freeing it hands over its cache and queue as further parts.
    Informer(Box<SimInformer>),
    /// The controller's workqueue; freeing it hands over its parts.
    Queue(Box<WorkQueue>),
    /// A part of the workqueue.
    QueuePart(QueuePart),
    /// Cached objects.
    Objects(SharedMap<Key, ObjectRef>),
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
                self.dead.push(DeadPart::Objects(indexer.into_items()));
            }
            Some(DeadPart::Queue(queue)) => {
                let parts = queue.into_parts().into_iter().map(DeadPart::QueuePart);
                self.dead.extend(parts);
            }
            Some(DeadPart::QueuePart(part)) => drop(part),
            Some(DeadPart::Objects(mut objects)) => {
                free_part(&mut objects);
                if !objects.is_empty() {
                    self.dead.push(DeadPart::Objects(objects));
                }
            }
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

/// Frees the last [`ENTRIES_PER_PART`] entries of `map` (all of them when it has fewer); the
/// nodes a checkpoint still shares stay alive there.
fn free_part<V: Clone>(map: &mut SharedMap<Key, V>) {
    for _ in 0..ENTRIES_PER_PART {
        let Some(last) = map.get_max().map(|(key, _)| key.clone()) else {
            return;
        };
        map.remove(&last);
    }
}
