//! The change records that flow from the reflector through a FIFO into the informer: [`DeltaType`],
//! [`Delta`] and the [`DeletedFinalStateUnknown`] tombstone (client-go `tools/cache/delta_fifo.go`).
//!
//! Upstream a delta's object is an `interface{}` that holds either the object or a
//! `DeletedFinalStateUnknown`; here that choice is the [`DeltaObject`] enum. The atomic-FIFO items
//! (`ReplacedAll`, `SyncAll`, `Bookmark`), which carry no single object, live in
//! [`crate::informer::real_fifo::AtomicItem`] instead of widening these types.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::key::Key;
use crate::object::{Object, ObjectRef};

/// The kind of change a [`Delta`] records (client-go `tools/cache/delta_fifo.go` `DeltaType`).
///
/// Upstream also defines `ReplacedAll`, `SyncAll` and `Bookmark`; those only occur in the atomic
/// RealFIFO mode and are modelled by [`crate::informer::real_fifo::AtomicItem`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum DeltaType {
    /// The object was created (a watch `ADDED` event).
    Added,
    /// The object changed (a watch `MODIFIED` event).
    Updated,
    /// The object was deleted (a watch `DELETED` event, or a tombstone made by a relist).
    Deleted,
    /// The object was part of a relist (`Replace`); it may or may not have changed.
    Replaced,
    /// A periodic resync re-delivered the object as it is in the cache.
    Sync,
}

impl DeltaType {
    /// The upstream string value, e.g. `"Added"` (client-go `tools/cache/delta_fifo.go`).
    pub fn as_str(self) -> &'static str {
        match self {
            DeltaType::Added => "Added",
            DeltaType::Updated => "Updated",
            DeltaType::Deleted => "Deleted",
            DeltaType::Replaced => "Replaced",
            DeltaType::Sync => "Sync",
        }
    }
}

impl fmt::Display for DeltaType {
    /// Writes [`DeltaType::as_str`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A deletion whose final state is unknown: made by a relist (`Replace`) for a key that is no longer
/// listed, because the watch `DELETED` event was missed (client-go `tools/cache/delta_fifo.go`
/// `DeletedFinalStateUnknown`). `obj` is the last state the informer knew, possibly stale.
#[derive(Clone, Debug, PartialEq)]
pub struct DeletedFinalStateUnknown {
    /// The informer key (`namespace/name` or `name`) of the deleted object.
    pub key: Key,
    /// The last known state: the newest queued object, else the cached one; `None` if neither.
    pub obj: Option<ObjectRef>,
}

/// The object a [`Delta`] carries: a live object, or a tombstone for a deletion seen only through a
/// relist (client-go stores either in `Delta.Object interface{}`, `tools/cache/delta_fifo.go`).
#[derive(Clone, Debug, PartialEq)]
pub enum DeltaObject {
    /// The object as it was after the change (before it, for a deletion).
    Object(ObjectRef),
    /// A `DeletedFinalStateUnknown` tombstone.
    Tombstone(DeletedFinalStateUnknown),
}

impl DeltaObject {
    /// The informer key: the object's `namespace/name`, or the tombstone's `key` (client-go
    /// `DeltaFIFO.KeyOf` and `DeletionHandlingMetaNamespaceKeyFunc`, `tools/cache/delta_fifo.go`,
    /// `tools/cache/controller.go`), shared with the object.
    pub fn key(&self) -> Key {
        match self {
            DeltaObject::Object(obj) => obj.key(),
            DeltaObject::Tombstone(tombstone) => tombstone.key.clone(),
        }
    }

    /// The object, if any: the live object, or the tombstone's last known state.
    pub fn object(&self) -> Option<&ObjectRef> {
        match self {
            DeltaObject::Object(obj) => Some(obj),
            DeltaObject::Tombstone(tombstone) => tombstone.obj.as_ref(),
        }
    }

    /// The live object; `None` for a tombstone.
    pub fn as_live(&self) -> Option<&ObjectRef> {
        match self {
            DeltaObject::Object(obj) => Some(obj),
            DeltaObject::Tombstone(_) => None,
        }
    }

    /// Whether this is a `DeletedFinalStateUnknown` tombstone.
    pub fn is_tombstone(&self) -> bool {
        matches!(self, DeltaObject::Tombstone(_))
    }

    /// The object's resource version; 0 for a tombstone without an object.
    pub fn resource_version(&self) -> u64 {
        self.object().map_or(0, |obj| obj.resource_version())
    }
}

impl From<ObjectRef> for DeltaObject {
    /// A live object.
    fn from(obj: ObjectRef) -> DeltaObject {
        DeltaObject::Object(obj)
    }
}

impl From<&ObjectRef> for DeltaObject {
    /// A live object (the `Rc` is shared, not the object copied).
    fn from(obj: &ObjectRef) -> DeltaObject {
        DeltaObject::Object(ObjectRef::clone(obj))
    }
}

impl From<Object> for DeltaObject {
    /// A live object, moved into a new `Rc`.
    fn from(obj: Object) -> DeltaObject {
        DeltaObject::Object(ObjectRef::new(obj))
    }
}

impl From<DeletedFinalStateUnknown> for DeltaObject {
    /// A tombstone.
    fn from(tombstone: DeletedFinalStateUnknown) -> DeltaObject {
        DeltaObject::Tombstone(tombstone)
    }
}

impl From<&DeltaObject> for DeltaObject {
    /// A copy (objects are shared, not copied).
    fn from(obj: &DeltaObject) -> DeltaObject {
        obj.clone()
    }
}

/// One change to one object: what happened and the object after it (before it, for a deletion)
/// (client-go `tools/cache/delta_fifo.go` `Delta`).
#[derive(Clone, Debug, PartialEq)]
pub struct Delta {
    /// What happened.
    pub delta_type: DeltaType,
    /// The object, or a tombstone (only ever with [`DeltaType::Deleted`]).
    pub object: DeltaObject,
}

impl Delta {
    /// A delta of `delta_type` for `object`.
    pub fn new(delta_type: DeltaType, object: impl Into<DeltaObject>) -> Delta {
        Delta {
            delta_type,
            object: object.into(),
        }
    }

    /// The informer key of the delta's object (see [`DeltaObject::key`]).
    pub fn key(&self) -> Key {
        self.object.key()
    }

    /// The bytes the delta keeps alive: its object's, or its tombstone's last known object's, or
    /// [`TOMBSTONE_WITHOUT_OBJECT_BYTES`] for a tombstone without one.
    pub fn size_bytes(&self) -> u64 {
        match &self.object {
            DeltaObject::Object(o) => o.size_bytes,
            DeltaObject::Tombstone(t) => t
                .obj
                .as_ref()
                .map_or(TOMBSTONE_WITHOUT_OBJECT_BYTES, |o| o.size_bytes),
        }
    }
}

/// The bytes a tombstone without a last known object keeps alive.
pub const TOMBSTONE_WITHOUT_OBJECT_BYTES: u64 = 64;

/// The bytes a list of deltas keeps alive (the sum of [`Delta::size_bytes`]).
pub fn deltas_size_bytes(deltas: &[Delta]) -> u64 {
    deltas.iter().map(Delta::size_bytes).sum()
}

/// Conversion into the shared [`ObjectRef`] that the FIFOs and the indexer store: accepts an
/// `ObjectRef` (moved), a `&ObjectRef` (the `Rc` is shared) or an owned [`Object`].
pub trait IntoObjectRef {
    /// The shared object.
    fn into_object_ref(self) -> ObjectRef;
}

impl IntoObjectRef for ObjectRef {
    /// Returns the `Rc` itself.
    fn into_object_ref(self) -> ObjectRef {
        self
    }
}

impl IntoObjectRef for &ObjectRef {
    /// Shares the `Rc`.
    fn into_object_ref(self) -> ObjectRef {
        ObjectRef::clone(self)
    }
}

impl IntoObjectRef for Object {
    /// Moves the object into a new `Rc`.
    fn into_object_ref(self) -> ObjectRef {
        ObjectRef::new(self)
    }
}

/// `dedupDeltas` (client-go `tools/cache/delta_fifo.go`): if the last two deltas are both
/// [`DeltaType::Deleted`], keep one of them — the older, unless the older is a tombstone, in which
/// case the newer. Nothing else is ever merged.
pub fn dedup_deltas(deltas: &mut Vec<Delta>) {
    let n = deltas.len();
    if n < 2 {
        return;
    }
    let (older, newer) = (&deltas[n - 2], &deltas[n - 1]);
    if older.delta_type != DeltaType::Deleted || newer.delta_type != DeltaType::Deleted {
        return;
    }
    if older.object.is_tombstone() {
        deltas.swap(n - 2, n - 1);
    }
    deltas.truncate(n - 1);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(name: &str, rv: u64) -> ObjectRef {
        let mut obj = Object::new("Pod", "default", name);
        obj.metadata.resource_version = rv;
        ObjectRef::new(obj)
    }

    fn tombstone(key: &str, obj: Option<ObjectRef>) -> DeltaObject {
        DeltaObject::Tombstone(DeletedFinalStateUnknown {
            key: Key::from(key),
            obj,
        })
    }

    // Mirrors client-go tools/cache/delta_fifo_test.go TestDeltaFIFO_KeyOf.
    #[test]
    fn a_tombstone_keys_by_its_key_and_an_object_by_namespace_and_name() {
        assert_eq!(DeltaObject::from(pod("a", 1)).key(), "default/a");
        assert_eq!(tombstone("B", None).key(), "B");
        assert_eq!(
            Delta::new(DeltaType::Deleted, tombstone("D", None)).key(),
            "D"
        );
    }

    // Mirrors client-go delta_fifo.go isDeletionDup: the older non-tombstone delete is kept.
    #[test]
    fn two_consecutive_deletes_collapse_keeping_the_one_that_is_not_a_tombstone() {
        let real = Delta::new(DeltaType::Deleted, pod("a", 2));
        let stone = Delta::new(
            DeltaType::Deleted,
            tombstone("default/a", Some(pod("a", 1))),
        );
        let mut older_real = vec![real.clone(), stone.clone()];
        dedup_deltas(&mut older_real);
        assert_eq!(older_real, vec![real.clone()]);
        let mut older_stone = vec![stone, real.clone()];
        dedup_deltas(&mut older_stone);
        assert_eq!(older_stone, vec![real]);
    }

    // Mirrors client-go delta_fifo.go isDup: only deletions are ever deduplicated.
    #[test]
    fn consecutive_updates_are_never_merged() {
        let mut deltas = vec![
            Delta::new(DeltaType::Updated, pod("a", 1)),
            Delta::new(DeltaType::Updated, pod("a", 1)),
        ];
        dedup_deltas(&mut deltas);
        assert_eq!(deltas.len(), 2);
    }
}
