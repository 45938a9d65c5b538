//! Kubernetes objects as the simulation stores and ships them.
//!
//! Objects are immutable once stored and shared as [`ObjectRef`] (`Rc<Object>`; a run lives on one
//! thread, so its counts need no atomics): the API server, watch events, FIFO deltas and the
//! informer cache hold the same allocation, the way a Go program shares pointers. What a real process would *copy* (a cache read's deep copy, a LIST response) is
//! accounted for by the process model through [`Object::size_bytes`], not by copying here.

use std::rc::Rc;

use serde::{Deserialize, Serialize};

use crate::key::Key;
use crate::time::SimTime;
use crate::vec_map::VecMap;

mod identity;
mod json;
mod layout;
mod lifecycle;
mod text;
mod uid;

pub(crate) use json::shared_text;
pub use json::{Json, JsonMap};
pub(crate) use lifecycle::Lifecycle;
pub use text::Text;
pub use uid::Uid;

/// A shared, immutable object.
pub type ObjectRef = Rc<Object>;

/// An ordered string map (labels, annotations). `None` is Go's nil map, distinct from empty.
///
/// Boxed: most objects have neither, and a box is one word where the map is three, so every
/// object (and every version an update keeps) is 32 bytes smaller and spans fewer cache lines;
/// a map that is there costs one allocation more, which `VecMap`'s buffer already was.
pub type StringMap = Option<Box<VecMap<String, String>>>;

/// A reference to an owning object (`metadata.ownerReferences[]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OwnerReference {
    /// The owner's kind.
    pub kind: String,
    /// The owner's name (same namespace as the dependent).
    pub name: String,
    /// The owner's uid.
    pub uid: String,
    /// Whether the owner is the managing controller.
    pub controller: bool,
}

/// `metadata` of an object.
///
/// The fields every write and every informer pop reads (resource version, generation, key) come
/// first in memory, so that with [`Object`]'s own such fields they share the object's first cache
/// line; it serializes and prints in the upstream field order all the same (see `layout`).
#[derive(Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(from = "layout::MetaFields")]
#[repr(C)]
pub struct ObjectMeta {
    /// The etcd revision of the last write; 0 means unset.
    pub resource_version: u64,
    /// Spec generation (see the API server's generation rules).
    pub generation: i64,
    /// The informer key, `namespace/name` (or `name` when cluster-scoped), which also holds the
    /// namespace's and the name's text ([`ObjectMeta::namespace`], [`ObjectMeta::name`]): built
    /// once with the metadata and shared by every copy.
    key: Key,
    /// The length of the namespace at the start of the key; 0 for cluster-scoped objects.
    namespace_len: u32,
    /// Unique id assigned at creation.
    pub uid: Uid,
    /// Labels; `None` is a nil map.
    pub labels: StringMap,
    /// Annotations; `None` is a nil map.
    pub annotations: StringMap,
    /// Finalizers, the deletion timestamp and grace period, owners: one word while none is set
    /// (most objects), read and changed through the accessors below.
    pub(crate) lifecycle: Lifecycle,
}

impl ObjectMeta {
    /// Whether `other` holds the same metadata but perhaps another resourceVersion (which etcd
    /// does not store in the object's bytes).
    pub(crate) fn eq_but_resource_version(&self, other: &ObjectMeta) -> bool {
        // Destructured without `..`, so a field added to `ObjectMeta` later is compared here too.
        let ObjectMeta {
            resource_version: _,
            generation,
            key,
            namespace_len,
            uid,
            labels,
            annotations,
            lifecycle,
        } = self;
        // the key holds both names: equal keys cut at the same place are equal names
        *key == other.key
            && *namespace_len == other.namespace_len
            && *uid == other.uid
            && *generation == other.generation
            && *labels == other.labels
            && *annotations == other.annotations
            && *lifecycle == other.lifecycle
    }

    /// Finalizers, in order (`GetFinalizers`).
    pub fn finalizers(&self) -> &[String] {
        self.lifecycle.finalizers()
    }

    /// Sets the finalizers (`SetFinalizers`).
    pub fn set_finalizers(&mut self, finalizers: Vec<String>) {
        self.lifecycle.set_finalizers(finalizers);
    }

    /// The finalizers to change in place.
    pub fn finalizers_mut(&mut self) -> &mut Vec<String> {
        self.lifecycle.finalizers_mut()
    }

    /// `deletionTimestamp`: set when deletion was requested while finalizers or a grace period
    /// held the object (`GetDeletionTimestamp`).
    pub fn deletion_timestamp(&self) -> Option<SimTime> {
        self.lifecycle.deletion_timestamp()
    }

    /// Sets `deletionTimestamp` (`SetDeletionTimestamp`).
    pub fn set_deletion_timestamp(&mut self, at: Option<SimTime>) {
        self.lifecycle.set_deletion_timestamp(at);
    }

    /// `deletionGracePeriodSeconds`: set with the deletionTimestamp — the graceful period a pod
    /// was given, 0 when finalizers hold an object (apiserver
    /// `pkg/registry/generic/registry/store.go` `markAsDeleting`). `None` is Go's nil.
    pub fn deletion_grace_period_s(&self) -> Option<i64> {
        self.lifecycle.deletion_grace_period_s()
    }

    /// Sets `deletionGracePeriodSeconds` (`SetDeletionGracePeriodSeconds`).
    pub fn set_deletion_grace_period_s(&mut self, period_s: Option<i64>) {
        self.lifecycle.set_deletion_grace_period_s(period_s);
    }

    /// Owners (`GetOwnerReferences`).
    pub fn owner_references(&self) -> &[OwnerReference] {
        self.lifecycle.owner_references()
    }

    /// Sets the owners (`SetOwnerReferences`).
    pub fn set_owner_references(&mut self, owners: Vec<OwnerReference>) {
        self.lifecycle.set_owner_references(owners);
    }
}

/// A Kubernetes object: kind, metadata, spec, status, and its serialized size.
///
/// What the engine reads on every write, watch event and informer pop (the size, then the resource
/// version, the generation and the key at the start of the metadata) lies in the first 64
/// bytes of the object, beside the reference count of its `Rc`: touching a cold object costs
/// one cache line, not three. It serializes and prints as `kind`, `metadata`, `spec`, `status`,
/// `size_bytes`, as declared upstream (see `layout`).
#[derive(Clone, PartialEq, Deserialize)]
#[repr(C)]
pub struct Object {
    /// Serialized size in bytes (what a copy, a LIST item or a watch event costs in memory).
    pub size_bytes: u64,
    /// Metadata.
    pub metadata: ObjectMeta,
    /// The kind, e.g. `Flywheel`, `Pod`, `Namespace`.
    pub kind: Text,
    /// The desired state.
    pub spec: Json,
    /// The observed state; `Json::Null` when absent.
    pub status: Json,
}

impl Object {
    /// A new object of `kind` named `namespace/name` with an empty spec and status.
    pub fn new(kind: &str, namespace: &str, name: &str) -> Object {
        Object::named(kind.into(), namespace, name)
    }

    /// [`Object::new`] of a kind's text already shared: objects of one kind share it, as every
    /// version of one object does.
    pub fn named(kind: Text, namespace: &str, name: &str) -> Object {
        Object {
            kind,
            metadata: ObjectMeta::named(namespace, name),
            spec: Json::Null,
            status: Json::Null,
            size_bytes: 1024,
        }
    }

    /// The informer key (see [`ObjectMeta::key`]).
    pub fn key(&self) -> Key {
        self.metadata.key()
    }

    /// `metadata.resourceVersion`.
    pub fn resource_version(&self) -> u64 {
        self.metadata.resource_version
    }

    /// `metadata.generation`.
    pub fn generation(&self) -> i64 {
        self.metadata.generation
    }
}

/// Whether [`field_values`] can read `field`.
pub fn is_indexable_field(field: &str) -> bool {
    let known = [
        ".metadata.name",
        ".metadata.namespace",
        ".metadata.ownerReferences.name",
    ];
    let paths = [".metadata.labels.", ".spec.", ".status."];
    known.contains(&field)
        || paths.iter().any(|p| {
            field.strip_prefix(p).is_some_and(|rest| {
                !rest.is_empty() && rest.split('.').all(|part| !part.is_empty())
            })
        })
}

/// The values of `field` on `obj`, as an `IndexField` extractor would return them: `.metadata.name`,
/// `.metadata.namespace`, `.metadata.ownerReferences.name`, `.metadata.labels.<key>`, or a string or
/// number under `.spec.` / `.status.` (a dotted path). Anything else has no values.
pub fn field_values(obj: &Object, field: &str) -> Vec<String> {
    let m = &obj.metadata;
    match field {
        ".metadata.name" => return vec![m.name().to_string()],
        ".metadata.namespace" => return vec![m.namespace().to_string()],
        ".metadata.ownerReferences.name" => {
            return m
                .owner_references()
                .iter()
                .map(|o| o.name.clone())
                .collect()
        }
        _ => {}
    }
    if let Some(label) = field.strip_prefix(".metadata.labels.") {
        return m
            .labels
            .as_ref()
            .and_then(|l| l.get(label))
            .cloned()
            .into_iter()
            .collect();
    }
    let (root, path) = if let Some(p) = field.strip_prefix(".spec.") {
        (&obj.spec, p)
    } else if let Some(p) = field.strip_prefix(".status.") {
        (&obj.status, p)
    } else {
        return Vec::new();
    };
    let found = path.split('.').try_fold(root, |v, part| v.get(part));
    match found {
        Some(Json::String(s)) => vec![s.to_string()],
        Some(Json::Number(n)) => vec![n.to_string()],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namespaced_objects_key_as_namespace_slash_name_and_cluster_scoped_as_name() {
        assert_eq!(
            Object::new("Pod", "default", "web-0").key(),
            "default/web-0"
        );
        assert_eq!(Object::new("Namespace", "", "team-a").key(), "team-a");
    }
}
