//! The storage layer: objects per kind in key order, one global revision, uids — what etcd and
//! apiserver `pkg/storage/etcd3/store.go` provide to the registry.
//!
//! - Every write (create, update, delete) is one etcd transaction: the revision grows by one and
//!   the written object carries it as `metadata.resourceVersion` (`Create` / `GuaranteedUpdate`
//!   decode with `txnResp.Revision`). The revision is cluster-wide, shared by all kinds.
//! - `GuaranteedUpdate` compares the encoded new object with the stored bytes (resourceVersion is
//!   not stored: `api_object_versioner.go` `PrepareObjectForStorage` clears it); if equal it
//!   returns the stored object without a transaction: no new revision, no watch event.
//! - A delete returns the last stored state with the deletion revision as resourceVersion
//!   (`conditionalDelete` decodes `origState.data` at `txnResp.Revision`), which is also what the
//!   DELETED watch event carries.
//!
//! Each kind's objects sit in a [`KindObjects`], which keeps their count, summed size and
//! terminating count up to date on every write.

use super::kind_objects::KindObjects;
use super::list_items::ListItems;
use crate::key::Key;
use crate::object::{Object, ObjectRef, Uid};
use crate::vec_map::VecMap;

/// A stored object.
#[derive(Clone, Debug, PartialEq)]
pub struct Stored {
    /// The object, resourceVersion = revision of its last write.
    pub object: ObjectRef,
}

/// What a guaranteed update did.
#[derive(Clone, Debug, PartialEq)]
pub enum UpdateOutcome {
    /// The encoded object was unchanged: nothing written, the stored object returned.
    NoOp(ObjectRef),
    /// Written at a new revision.
    Written(ObjectRef),
}

/// What `tryUpdate` made of an update once it saw the stored object.
#[derive(Clone, Debug, PartialEq)]
pub enum Tried {
    /// Store this object: a write at the next revision, or a no-op when it encodes as the
    /// stored one.
    Write(ObjectRef),
    /// The update empties the finalizers of an object being deleted: the object is removed
    /// instead (`ShouldDeleteDuringUpdate`). Carries the object as submitted.
    Delete(ObjectRef),
}

/// What [`Store::guaranteed_update_with`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum Updated {
    /// Written or left alone.
    Stored(UpdateOutcome),
    /// To be removed by the caller ([`Tried::Delete`]); nothing was changed.
    Delete(ObjectRef),
}

/// Objects of every kind, the revision counter and the uid counter.
#[derive(Clone, Debug, Default)]
pub struct Store {
    /// Each kind's objects, by the kind's name (a few kinds: read in order).
    objects: VecMap<String, KindObjects>,
    revision: u64,
    uids_issued: u64,
}

/// Whether two objects encode to the same stored bytes: everything but resourceVersion (not
/// stored) and `size_bytes` (simulation bookkeeping).
///
/// The cheapest differences are looked at first: generation (a write that changed spec or, without
/// `/status`, status has bumped it), then status, which a controller's write changes far more often
/// than spec.
pub fn same_stored_content(a: &Object, b: &Object) -> bool {
    a.metadata.generation == b.metadata.generation
        && a.status == b.status
        && a.spec == b.spec
        && a.kind == b.kind
        && a.metadata.eq_but_resource_version(&b.metadata)
}

impl Store {
    /// An empty store at `revision`.
    pub fn new(revision: u64) -> Store {
        Store {
            objects: VecMap::new(),
            revision,
            uids_issued: 0,
        }
    }

    /// The current etcd revision.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// A fresh, deterministic uid: `{n:08x}-0000-4000-8000-{n:012x}` for the n-th one, kept as
    /// `n` ([`Uid`]).
    pub fn next_uid(&mut self) -> Uid {
        self.uids_issued += 1;
        Uid::issued(self.uids_issued)
    }

    /// The stored entry of `kind` at `key`: a [`Key`] (equal to a clone of itself without
    /// reading its text) or a key's text.
    pub fn get<Q>(&self, kind: &str, key: &Q) -> Option<&Stored>
    where
        Key: std::borrow::Borrow<Q>,
        Q: Ord + crate::sim::shared::Head + ?Sized,
    {
        self.objects.get_in_few(kind).and_then(|m| m.get(key))
    }

    /// The entry of `kind` whose key's text is `key` ([`Store::get`] by a text, compared as
    /// keys are: an object's namespace, looked up on every create).
    pub fn get_text(&self, kind: &str, key: &str) -> Option<&Stored> {
        self.objects.get_in_few(kind).and_then(|m| m.get_text(key))
    }

    /// Every entry of `kind`, in key order.
    pub fn iter_kind(&self, kind: &str) -> impl Iterator<Item = (&Key, &Stored)> {
        self.objects
            .get(kind)
            .into_iter()
            .flat_map(KindObjects::iter)
    }

    /// The entries of `kind` in namespace `ns`, in key order (a namespaced kind's).
    pub fn iter_namespace<'a>(
        &'a self,
        kind: &str,
        ns: &'a str,
    ) -> impl Iterator<Item = (&'a Key, &'a Stored)> {
        self.objects
            .get(kind)
            .into_iter()
            .flat_map(move |objects| objects.in_namespace(ns))
    }

    /// Every stored object of `kind`, as a LIST hands it out.
    pub(super) fn snapshot(&self, kind: &str) -> ListItems {
        self.objects
            .get(kind)
            .map_or_else(|| ListItems::from(Vec::new()), KindObjects::snapshot)
    }

    /// Number of stored objects of `kind` (`apiserver_storage_objects`).
    pub fn count(&self, kind: &str) -> usize {
        self.objects.get(kind).map_or(0, KindObjects::len)
    }

    /// The summed `size_bytes` of the stored objects of `kind`.
    pub fn total_size_bytes(&self, kind: &str) -> u64 {
        self.objects
            .get(kind)
            .map_or(0, KindObjects::total_size_bytes)
    }

    /// Stores a new object at the next revision.
    pub fn create(&mut self, kind: &str, key: Key, mut object: Object) -> ObjectRef {
        self.revision += 1;
        object.metadata.resource_version = self.revision;
        let object = ObjectRef::new(object);
        let entry = Stored {
            object: ObjectRef::clone(&object),
        };
        match self.objects.get_mut_in_few(kind) {
            Some(objects) => {
                objects.insert(key, entry);
            }
            None => {
                let mut objects = KindObjects::default();
                objects.insert(key, entry);
                self.objects.insert(kind.to_owned(), objects);
            }
        }
        object
    }

    /// A create's storing (etcd3 `store.go` `Create`: a transaction that writes only if the key
    /// is absent): `object` gets the next uid and is stored at the next revision unless an
    /// entry is at `key`; then the store is left as it was (that entry, the revision, the uids
    /// issued) and the entry comes back.
    ///
    /// One walk of the kind's tree where a lookup and then an insert took two: the insert is
    /// tried first, and undone in the rare case it replaced an entry.
    pub fn create_unless_present(
        &mut self,
        kind: &str,
        key: Key,
        mut object: Object,
    ) -> Result<ObjectRef, Stored> {
        let Some(objects) = self.objects.get_mut_in_few(kind) else {
            object.metadata.uid = self.next_uid();
            return Ok(self.create(kind, key, object));
        };
        self.uids_issued += 1;
        self.revision += 1;
        object.metadata.uid = Uid::issued(self.uids_issued);
        object.metadata.resource_version = self.revision;
        let object = ObjectRef::new(object);
        let entry = Stored {
            object: ObjectRef::clone(&object),
        };
        let Some(existing) = objects.insert(key.clone(), entry) else {
            return Ok(object);
        };
        objects.insert(key, existing.clone());
        self.uids_issued -= 1;
        self.revision -= 1;
        Err(existing)
    }

    /// `GuaranteedUpdate`'s write step: no-op when the content is unchanged, else a write at the
    /// next revision. The caller has checked the key exists.
    pub fn guaranteed_update(&mut self, kind: &str, key: &Key, object: ObjectRef) -> UpdateOutcome {
        let tried = self.guaranteed_update_with(kind, key, |_| {
            Ok::<_, std::convert::Infallible>(Tried::Write(object))
        });
        match tried {
            Ok(Updated::Stored(outcome)) => outcome,
            // the try above never asks for a removal: whatever comes back is left as it is
            Ok(Updated::Delete(object)) => UpdateOutcome::NoOp(object),
            Err(never) => match never {},
        }
    }

    /// `GuaranteedUpdate` with its `tryUpdate`: finds the entry at `key` once, gives it to
    /// `try_update` (`None` when there is none) and carries out what that decides — the
    /// storage's no-op rule, else a write at the next revision in the same place, with no
    /// second lookup. Through the registry a missing key is a 404 from `try_update`; a write to
    /// one is stored as a create would.
    pub fn guaranteed_update_with<E>(
        &mut self,
        kind: &str,
        key: &Key,
        try_update: impl FnOnce(Option<&Stored>) -> Result<Tried, E>,
    ) -> Result<Updated, E> {
        let try_update = match self.objects.get_mut_in_few(kind) {
            Some(objects) => match objects.update_with(key, &mut self.revision, try_update) {
                Ok(done) => return done,
                Err(missing) => missing,
            },
            None => try_update,
        };
        match try_update(None)? {
            Tried::Write(object) => {
                let object = ObjectRef::unwrap_or_clone(object);
                let created = self.create(kind, key.clone(), object);
                Ok(Updated::Stored(UpdateOutcome::Written(created)))
            }
            Tried::Delete(object) => Ok(Updated::Delete(object)),
        }
    }

    /// Objects of `kind` whose deletionTimestamp is set, kept up to date on every write.
    pub fn terminating(&self, kind: &str) -> usize {
        self.objects.get(kind).map_or(0, KindObjects::terminating)
    }

    /// Removes the object at the next revision; returns its last state stamped with that revision.
    pub fn delete(&mut self, kind: &str, key: &Key) -> Option<ObjectRef> {
        let removed = self.objects.get_mut(kind)?.remove(key)?;
        self.revision += 1;
        let mut last = (*removed.object).clone();
        last.metadata.resource_version = self.revision;
        Some(ObjectRef::new(last))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(name: &str) -> Object {
        let mut o = Object::new("Flywheel", "default", name);
        o.spec = json!({"replicas": 1}).into();
        o
    }

    #[test]
    fn uids_are_the_issue_count_in_hex_in_the_uuid_v4_layout() {
        let mut s = Store::new(0);
        assert_eq!(s.next_uid(), "00000001-0000-4000-8000-000000000001");
        for _ in 1..300 {
            s.next_uid();
        }
        assert_eq!(s.next_uid(), "0000012d-0000-4000-8000-00000000012d");
        s.uids_issued = 0xffff_fffe;
        assert_eq!(s.next_uid(), "ffffffff-0000-4000-8000-0000ffffffff");
        assert_eq!(s.next_uid(), "100000000-0000-4000-8000-000100000000");
        s.uids_issued = 0xfedc_ba98_7654 - 1;
        assert_eq!(s.next_uid(), "fedcba987654-0000-4000-8000-fedcba987654");
    }

    /// Mirrors store_tests.go RunTestCreate's "existing key" case: the second create of a key
    /// fails and changes nothing (the stored object, the revision, the next uid).
    #[test]
    fn a_create_of_a_present_key_leaves_the_store_as_it_was_and_gives_the_entry_back() {
        let mut s = Store::new(10);
        let first = s.create_unless_present("Flywheel", Key::from("default/a"), obj("a"));
        let first = first.unwrap_or_else(|_| panic!("an absent key is created"));
        assert_eq!(first.metadata.resource_version, 11);
        assert_eq!(first.metadata.uid, "00000001-0000-4000-8000-000000000001");
        let mut again = obj("a");
        again.spec = json!({"replicas": 2}).into();
        let Err(existing) = s.create_unless_present("Flywheel", Key::from("default/a"), again)
        else {
            panic!("a present key is not created again");
        };
        assert!(ObjectRef::ptr_eq(&existing.object, &first));
        let stored = s
            .get("Flywheel", "default/a")
            .map(|e| ObjectRef::clone(&e.object));
        assert!(stored.is_some_and(|o| ObjectRef::ptr_eq(&o, &first)));
        assert_eq!((s.revision(), s.count("Flywheel")), (11, 1));
        let next = s.create_unless_present("Flywheel", Key::from("default/b"), obj("b"));
        let next = next.unwrap_or_else(|_| panic!("another key is created"));
        assert_eq!(next.metadata.resource_version, 12);
        assert_eq!(next.metadata.uid, "00000002-0000-4000-8000-000000000002");
    }

    /// Mirrors store_tests.go RunTestGuaranteedUpdate "same data" (no new RV) and "existing key"
    /// with a changed field (new RV).
    #[test]
    fn an_update_with_unchanged_content_keeps_the_revision_and_a_change_bumps_it() {
        let mut s = Store::new(10);
        let created = s.create("Flywheel", Key::from("default/a"), obj("a"));
        assert_eq!(created.metadata.resource_version, 11);
        let same = s.guaranteed_update(
            "Flywheel",
            &Key::from("default/a"),
            ObjectRef::clone(&created),
        );
        assert!(matches!(same, UpdateOutcome::NoOp(_)));
        assert_eq!(s.revision(), 11);
        let mut changed = (*created).clone();
        changed.metadata.annotations = Some(VecMap::from([("a".into(), "b".into())]).into());
        let out = s.guaranteed_update("Flywheel", &Key::from("default/a"), changed.into());
        assert!(matches!(&out, UpdateOutcome::Written(o) if o.metadata.resource_version == 12));
    }

    #[test]
    fn the_revision_is_shared_by_all_kinds_and_a_delete_takes_one_too() {
        let mut s = Store::new(1);
        s.create("Flywheel", Key::from("default/a"), obj("a"));
        let pod = s.create(
            "Pod",
            Key::from("default/p"),
            Object::new("Pod", "default", "p"),
        );
        assert_eq!(pod.metadata.resource_version, 3);
        let gone = s
            .delete("Flywheel", &Key::from("default/a"))
            .expect("exists");
        assert_eq!(gone.metadata.resource_version, 4);
        assert_eq!(s.count("Flywheel"), 0);
        assert!(s.delete("Flywheel", &Key::from("default/a")).is_none());
        assert_eq!(s.revision(), 4);
    }

    #[test]
    fn uids_are_unique_and_deterministic() {
        let mut a = Store::new(1);
        let mut b = Store::new(1);
        let xs: Vec<Uid> = (0..3).map(|_| a.next_uid()).collect();
        let ys: Vec<Uid> = (0..3).map(|_| b.next_uid()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs[0], xs[1]);
    }
}
