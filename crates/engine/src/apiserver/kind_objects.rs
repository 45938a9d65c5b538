//! One kind's stored objects in key order, with the totals the API server reports kept up to date
//! on every write instead of counted by a walk.
//!
//! `apiserver_storage_objects` and APF's list cost estimate (`storage.Stats`: object count and
//! average size) are read for every LIST; upstream's `object_count_tracker.go` keeps them as
//! running numbers too. Here each create, update and delete adjusts the count, the summed size and
//! the number of objects being deleted, so reading them is a field load, not a walk over 150 000
//! objects.

use std::ops::Bound;

use crate::object::ObjectRef;

use super::list_items::ListItems;
use super::store::{same_stored_content, Stored, Tried, UpdateOutcome, Updated};
use crate::key::Key;
use crate::object::Object;
use crate::sim::shared::SharedMap;

/// The stored objects of one kind, in key order, and their totals.
#[derive(Clone, Debug, Default)]
pub(super) struct KindObjects {
    /// Shared with the checkpoints taken since the last write ([`crate::sim::shared`]).
    items: SharedMap<Key, Stored>,
    total_size_bytes: u64,
    terminating: usize,
}

impl KindObjects {
    /// The entry at `key`.
    pub(super) fn get<Q>(&self, key: &Q) -> Option<&Stored>
    where
        Key: std::borrow::Borrow<Q>,
        Q: Ord + crate::sim::shared::Head + ?Sized,
    {
        self.items.get(key)
    }

    /// The entry at the key whose text is `key`, compared a word at a time in line
    /// ([`crate::key::compare_bytes`]; `str`'s own comparison calls `memcmp` at every step, and
    /// the texts looked up this way, namespaces' names, are a few bytes long).
    pub(super) fn get_text(&self, key: &str) -> Option<&Stored> {
        self.items
            .get_by(|k| crate::key::compare_bytes(k.as_bytes(), key.as_bytes()))
    }

    /// Every entry, in key order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&Key, &Stored)> {
        self.items.iter()
    }

    /// The entries of namespace `ns`, in key order: one range of the key-ordered map, since the
    /// keys of `ns` are exactly those that begin `ns/` (and `/` sorts just before `0`).
    pub(super) fn in_namespace(&self, ns: &str) -> impl Iterator<Item = (&Key, &Stored)> {
        let (from, to) = (format!("{ns}/"), format!("{ns}0"));
        let bounds = (Bound::Included(from.as_str()), Bound::Excluded(to.as_str()));
        self.items.range::<_, str>(bounds)
    }

    /// Every entry as a LIST hands it out ([`ListItems`]): a snapshot, taken at once.
    pub(super) fn snapshot(&self) -> ListItems {
        ListItems::snapshot(self.items.clone(), self.total_size_bytes)
    }

    /// Number of entries.
    pub(super) fn len(&self) -> usize {
        self.items.len()
    }

    /// The summed `size_bytes` of every entry.
    pub(super) fn total_size_bytes(&self) -> u64 {
        self.total_size_bytes
    }

    /// Entries whose object has a deletionTimestamp.
    pub(super) fn terminating(&self) -> usize {
        self.terminating
    }

    /// Stores `stored` at `key`, in place of the entry there if any; returns the replaced entry.
    pub(super) fn insert(&mut self, key: Key, stored: Stored) -> Option<Stored> {
        self.count(&stored.object, true);
        let old = self.items.insert(key, stored)?;
        self.count(&old.object, false);
        Some(old)
    }

    /// `GuaranteedUpdate` on the entry at `key`, found once: `try_update` sees it and decides;
    /// a write is a no-op when the object encodes as the stored one, else it is stored at the
    /// next `revision` (in place when no one else holds it: a request's body becomes the stored
    /// object without a copy). Gives `try_update` back, not called, when `key` is absent.
    pub(super) fn update_with<E, F>(
        &mut self,
        key: &Key,
        revision: &mut u64,
        try_update: F,
    ) -> Result<Result<Updated, E>, F>
    where
        F: FnOnce(Option<&Stored>) -> Result<Tried, E>,
    {
        let Some(slot) = self.items.get_mut(key) else {
            return Err(try_update);
        };
        let mut object = match try_update(Some(slot)) {
            Ok(Tried::Write(object)) => object,
            Ok(Tried::Delete(object)) => return Ok(Ok(Updated::Delete(object))),
            Err(e) => return Ok(Err(e)),
        };
        if same_stored_content(&object, &slot.object) {
            let stored = ObjectRef::clone(&slot.object);
            return Ok(Ok(Updated::Stored(UpdateOutcome::NoOp(stored))));
        }
        *revision += 1;
        crate::sim::cow::make_mut(&mut object)
            .metadata
            .resource_version = *revision;
        let old = std::mem::replace(&mut slot.object, ObjectRef::clone(&object));
        self.count(&object, true);
        self.count(&old, false);
        Ok(Ok(Updated::Stored(UpdateOutcome::Written(object))))
    }

    /// Removes the entry at `key`.
    pub(super) fn remove(&mut self, key: &Key) -> Option<Stored> {
        let removed = self.items.remove(key)?;
        self.count(&removed.object, false);
        Some(removed)
    }

    /// Adds (`added`) or takes away an object's share of the totals.
    fn count(&mut self, object: &Object, added: bool) {
        let size = object.size_bytes;
        let deleting = usize::from(object.metadata.deletion_timestamp().is_some());
        if added {
            self.total_size_bytes = self.total_size_bytes.wrapping_add(size);
            self.terminating += deleting;
        } else {
            self.total_size_bytes = self.total_size_bytes.wrapping_sub(size);
            self.terminating = self.terminating.saturating_sub(deleting);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimTime;

    fn stored(name: &str, size_bytes: u64) -> Stored {
        Stored {
            object: ObjectRef::new(object(name, size_bytes)),
        }
    }

    fn object(name: &str, size_bytes: u64) -> Object {
        let mut o = Object::new("Pod", "ns", name);
        o.size_bytes = size_bytes;
        o
    }

    /// A write of `object` at `key`, as `GuaranteedUpdate` with nothing to check; `Err(())` when
    /// the key is absent.
    fn update(
        objects: &mut KindObjects,
        key: &str,
        object: Object,
        revision: &mut u64,
    ) -> Result<UpdateOutcome, ()> {
        let write = |_: Option<&Stored>| Ok::<_, ()>(Tried::Write(object.into()));
        match objects.update_with(&Key::from(key), revision, write) {
            Ok(Ok(Updated::Stored(outcome))) => Ok(outcome),
            _ => Err(()),
        }
    }

    fn totals(objects: &KindObjects) -> (usize, u64, usize) {
        (
            objects.len(),
            objects.total_size_bytes(),
            objects.terminating(),
        )
    }

    #[test]
    fn a_scan_yields_the_objects_in_key_order_whatever_order_they_were_stored_in() {
        let mut objects = KindObjects::default();
        for name in ["b", "a10", "c", "a2"] {
            assert!(objects
                .insert(Key::of("ns", name), stored(name, 1))
                .is_none());
        }
        let keys: Vec<&str> = objects.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["ns/a10", "ns/a2", "ns/b", "ns/c"]);
        assert!(objects.get(&Key::from("ns/a2")).is_some());
        assert!(objects.get(&Key::from("ns/a")).is_none());
    }

    #[test]
    fn the_count_size_and_terminating_totals_follow_every_create_update_and_delete() {
        let mut objects = KindObjects::default();
        let mut revision = 1;
        objects.insert(Key::of("ns", "a"), stored("a", 100));
        objects.insert(Key::of("ns", "b"), stored("b", 20));
        assert_eq!(totals(&objects), (2, 120, 0));
        let mut deleting = object("a", 30);
        deleting
            .metadata
            .set_deletion_timestamp(Some(SimTime::ZERO));
        let out = update(&mut objects, "ns/a", deleting, &mut revision);
        assert!(matches!(out, Ok(UpdateOutcome::Written(o)) if o.metadata.resource_version == 2));
        assert_eq!(totals(&objects), (2, 50, 1));
        objects.insert(Key::of("ns", "b"), stored("b", 5));
        assert_eq!(totals(&objects), (2, 35, 1));
        objects.remove(&Key::from("ns/a"));
        assert_eq!(totals(&objects), (1, 5, 0));
        assert!(objects.remove(&Key::from("ns/a")).is_none());
        assert_eq!(totals(&objects), (1, 5, 0));
    }

    #[test]
    fn an_unchanged_update_leaves_revision_and_totals_alone_and_a_missing_key_is_not_tried() {
        let mut objects = KindObjects::default();
        let mut revision = 7;
        objects.insert(Key::of("ns", "a"), stored("a", 10));
        let same = update(&mut objects, "ns/a", object("a", 10), &mut revision);
        assert!(matches!(same, Ok(UpdateOutcome::NoOp(_))));
        assert_eq!((revision, totals(&objects)), (7, (1, 10, 0)));
        let mut tried = false;
        let missing = objects.update_with(&Key::from("ns/z"), &mut revision, |_| {
            tried = true;
            Ok::<_, ()>(Tried::Write(object("z", 10).into()))
        });
        assert!(missing.is_err(), "the try is given back");
        assert!(!tried, "and never called");
        assert_eq!(revision, 7);
    }

    #[test]
    fn a_refused_or_deleting_try_changes_nothing_and_sees_the_stored_object() {
        let mut objects = KindObjects::default();
        let mut revision = 3;
        objects.insert(Key::of("ns", "a"), stored("a", 10));
        let refused = objects.update_with(&Key::from("ns/a"), &mut revision, |seen| {
            assert_eq!(seen.map(|s| s.object.size_bytes), Some(10));
            Err::<Tried, _>("conflict")
        });
        assert!(matches!(refused, Ok(Err("conflict"))));
        let deleting = objects.update_with(&Key::from("ns/a"), &mut revision, |_| {
            Ok::<_, ()>(Tried::Delete(object("a", 99).into()))
        });
        assert!(matches!(deleting, Ok(Ok(Updated::Delete(o))) if o.size_bytes == 99));
        assert_eq!((revision, totals(&objects)), (3, (1, 10, 0)));
    }
}
