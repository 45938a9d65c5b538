//! Releasing a dead operator's memory. When the container dies, its process state is gone at
//! once for the model; the host memory that held a large informer cache and workqueue is freed
//! over the next continuation events ([`crate::sim::Context::continue_with`]), a part each, so
//! the page can draw between them. Nothing in the model can observe the parts.

use crate::sim::Context;

use super::informer::SimInformer;
use super::operator::Operator;
use super::workqueue::WorkQueue;
use super::{Cluster, Ev};

/// A large part of a dead operator, waiting to be freed.
pub(super) enum DeadPart {
    /// The informer: reflector, FIFO, indexer, listener buffer.
    Informer(Box<SimInformer>),
    /// The controller's workqueue.
    Queue(Box<WorkQueue>),
}

impl Cluster {
    /// Takes the operator away (its container died or was replaced) and frees its large parts
    /// in the events that follow.
    pub(super) fn retire_operator(&mut self, ctx: &mut Context<'_, Ev>) {
        let Some(op) = self.op.take() else {
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
            Some(DeadPart::Informer(informer)) => drop(informer),
            Some(DeadPart::Queue(queue)) => drop(queue),
            None => return,
        }
        if !self.dead.is_empty() {
            ctx.continue_with(Ev::ReleaseDead);
        }
    }
}
