//! The items of a LIST reply, handed to the client a part at a time.
//!
//! An unfiltered LIST of a kind answers with the store's objects at the list's revision. The
//! store keeps each kind in a persistent map ([`crate::sim::shared`]), so that answer is a
//! snapshot of the map, taken at once: later writes do not reach it. The client (the reflector's
//! `Replace`, queued in parts of [`crate::cluster::REPLACE_OBJECTS_PER_EVENT`]) takes the
//! objects out in key order a part at a time, so no single event walks all 150 000 of them. What
//! the client sees is the same list, in the same order, as a copy of every item would give.

use std::collections::VecDeque;
use std::fmt;
use std::ops::Bound;

use crate::key::Key;
use crate::object::ObjectRef;
use crate::sim::shared::SharedMap;

use super::store::Stored;

/// The objects of a LIST reply, in storage-key order, not yet taken by the client.
#[derive(Clone)]
pub struct ListItems {
    source: Source,
    size_bytes: u64,
}

#[derive(Clone)]
enum Source {
    /// Objects already in a list (a watch-list's initial events).
    Listed(VecDeque<ObjectRef>),
    /// A kind's stored objects at the list's revision; those up to `taken` (inclusive) are
    /// handed out.
    Snapshot {
        objects: SharedMap<Key, Stored>,
        taken: Option<Key>,
        left: usize,
    },
}

impl ListItems {
    /// The stored objects of a kind (`objects`, whose `size_bytes` sum to `size_bytes`).
    pub(super) fn snapshot(objects: SharedMap<Key, Stored>, size_bytes: u64) -> Self {
        let left = objects.len();
        ListItems {
            source: Source::Snapshot {
                objects,
                taken: None,
                left,
            },
            size_bytes,
        }
    }

    /// How many objects are left to take.
    pub fn len(&self) -> usize {
        match &self.source {
            Source::Listed(items) => items.len(),
            Source::Snapshot { left, .. } => *left,
        }
    }

    /// Whether every object was taken.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The summed `size_bytes` of the whole list (what the client receives), taken or not.
    pub fn size_bytes(&self) -> u64 {
        self.size_bytes
    }

    /// Takes the next `n` objects (fewer when fewer are left), in order.
    pub fn take_front(&mut self, n: usize) -> Vec<ObjectRef> {
        match &mut self.source {
            Source::Listed(items) => items.drain(..n.min(items.len())).collect(),
            Source::Snapshot {
                objects,
                taken,
                left,
            } => {
                let from = taken.clone().map_or(Bound::Unbounded, Bound::Excluded);
                let mut part = Vec::with_capacity(n.min(*left));
                for (key, stored) in objects.range((from, Bound::Unbounded)).take(n) {
                    part.push(ObjectRef::clone(&stored.object));
                    *taken = Some(key.clone());
                }
                *left -= part.len();
                part
            }
        }
    }

    /// Every object left, in order.
    pub fn into_vec(mut self) -> Vec<ObjectRef> {
        let n = self.len();
        self.take_front(n)
    }
}

impl From<Vec<ObjectRef>> for ListItems {
    /// A list of these objects.
    fn from(items: Vec<ObjectRef>) -> Self {
        let size_bytes = items.iter().map(|o| o.size_bytes).sum();
        ListItems {
            source: Source::Listed(items.into()),
            size_bytes,
        }
    }
}

impl PartialEq for ListItems {
    /// The same objects left, in the same order.
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.clone().into_vec() == other.clone().into_vec()
    }
}

impl fmt::Debug for ListItems {
    /// The objects left.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone().into_vec()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::object::Object;

    fn object(name: &str, size_bytes: u64) -> ObjectRef {
        let mut o = Object::new("Widget", "ns", name);
        o.size_bytes = size_bytes;
        ObjectRef::new(o)
    }

    fn names(items: &[ObjectRef]) -> Vec<&str> {
        items.iter().map(|o| o.metadata.name()).collect()
    }

    fn store(names: &[&str]) -> SharedMap<Key, Stored> {
        names
            .iter()
            .map(|n| {
                let object = object(n, 10);
                (object.key(), Stored { object })
            })
            .collect()
    }

    #[test]
    fn a_snapshot_is_handed_out_in_key_order_a_part_at_a_time_and_later_writes_do_not_reach_it() {
        let mut objects = store(&["e", "a", "d", "b", "c"]);
        let mut items = ListItems::snapshot(objects.clone(), 50);
        let late = object("b2", 10);
        objects.insert(late.key(), Stored { object: late });
        objects.remove(&Key::of("ns", "a"));
        assert_eq!((items.len(), items.size_bytes()), (5, 50));
        assert_eq!(names(&items.take_front(2)), ["a", "b"]);
        assert_eq!(items.len(), 3);
        assert_eq!(names(&items.take_front(2)), ["c", "d"]);
        assert_eq!(names(&items.take_front(2)), ["e"]);
        assert!(items.is_empty());
        assert!(items.take_front(2).is_empty());
        assert_eq!(items.size_bytes(), 50, "the size is the whole list's");
    }

    #[test]
    fn a_snapshot_and_a_list_of_the_same_objects_are_equal_and_give_the_same_parts() {
        let objects = store(&["a", "b", "c"]);
        let listed: Vec<ObjectRef> = objects.values().map(|s| s.object.clone()).collect();
        let mut snapshot = ListItems::snapshot(objects, 30);
        let mut list = ListItems::from(listed);
        assert_eq!(snapshot, list);
        assert_eq!(list.size_bytes(), 30, "a list sums its objects' sizes");
        assert_eq!(snapshot.take_front(2), list.take_front(2));
        assert_eq!(snapshot.into_vec(), list.into_vec());
    }
}
