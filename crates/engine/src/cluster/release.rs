//! Releasing a dead operator's memory. When the container dies, its process state is gone at
//! once for the model; the host memory that held a large informer cache and workqueue is freed
//! over the next continuation events ([`crate::sim::Context::continue_with`]), a part each, so
//! the page can draw between them. Nothing in the model can observe the parts.

use crate::informer::deltas::Deltas;
use crate::key::Key;
use crate::object::ObjectRef;
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
    /// Cached objects, let go from the last key (a step drops entries off a leaf instead of
    /// walking the tree to remove each by its key; a node a checkpoint shares goes at once).
    Objects(ObjectsLeft),
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
                self.dead
                    .push(DeadPart::Objects(indexer.into_items().into_freeing()));
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

/// A dead informer's cached objects still to be freed: its map's nodes, last first.
pub(super) type ObjectsLeft = crate::sim::shared::Freeing<Key, ObjectRef>;

/// Frees the last [`ENTRIES_PER_PART`] entries left (all of them when fewer are); the nodes a
/// checkpoint still shares are let go on the way, and stay alive there.
fn free_part(objects: &mut ObjectsLeft) {
    objects.free_some(ENTRIES_PER_PART);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::object::Object;
    use crate::sim::shared::SharedMap;
    use std::rc::{Rc, Weak};

    /// A cache of `n` objects, and a probe of each object's life.
    fn cache(n: usize) -> (SharedMap<Key, ObjectRef>, Vec<Weak<Object>>) {
        let mut cache: SharedMap<Key, ObjectRef> = SharedMap::new();
        let mut probes = Vec::new();
        for i in 0..n {
            let obj = Rc::new(Object::new("Widget", "ns", &format!("w-{i:05}")));
            probes.push(Rc::downgrade(&obj));
            cache.insert(obj.key(), obj);
        }
        (cache, probes)
    }

    fn alive(probes: &[Weak<Object>]) -> Vec<bool> {
        probes.iter().map(|p| p.strong_count() > 0).collect()
    }

    #[test]
    fn a_dead_cache_is_freed_a_part_at_a_time_from_its_last_key() {
        let (cache, probes) = cache(6_000);
        let mut left: ObjectsLeft = cache.into_freeing();
        free_part(&mut left);
        let kept = 6_000 - ENTRIES_PER_PART;
        let expected: Vec<bool> = (0..6_000).map(|i| i < kept).collect();
        assert_eq!(alive(&probes), expected, "the last keys go first");
        free_part(&mut left);
        assert!(!left.is_empty());
        free_part(&mut left);
        assert!(left.is_empty(), "the last part is what was left");
        assert!(alive(&probes).iter().all(|a| !a));
    }

    #[test]
    fn a_checkpoint_keeps_the_objects_of_a_dead_cache_and_its_shared_nodes_go_at_once() {
        let (mut cache, probes) = cache(6_000);
        let checkpoint = cache.clone();
        let replaced = Rc::new(Object::new("Widget", "ns", "w-00042"));
        let replaced_probe = Rc::downgrade(&replaced);
        cache.insert(replaced.key(), replaced);
        let mut left: ObjectsLeft = cache.into_freeing();
        free_part(&mut left);
        assert!(
            left.is_empty(),
            "a node the checkpoint shares is let go by its count"
        );
        assert_eq!(
            replaced_probe.strong_count(),
            0,
            "what the dead cache alone held is gone"
        );
        assert!(
            alive(&probes).iter().all(|a| *a),
            "the checkpoint keeps every object"
        );
        let names: Vec<String> = checkpoint
            .values()
            .map(|obj| obj.metadata.name().to_string())
            .collect();
        let expected: Vec<String> = (0..6_000).map(|i| format!("w-{i:05}")).collect();
        assert_eq!(names, expected, "a checkpoint's copy keeps every object");
    }
}
