//! How [`Object`] and [`ObjectMeta`] serialize and print: in the upstream field order
//! (`kind`, `metadata`, `spec`, `status`, then the simulation's `size_bytes`; `namespace`, `name`,
//! `uid`, `resourceVersion`, … as `ObjectMeta` declares them in apimachinery), which is no longer
//! their order in memory (hot fields first, see [`Object`]).

use std::fmt;

use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde::Deserialize;

use super::{Lifecycle, Object, ObjectMeta, OwnerReference, StringMap, Uid};
use crate::time::SimTime;

impl Serialize for Object {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Object", 5)?;
        s.serialize_field("kind", &self.kind)?;
        s.serialize_field("metadata", &self.metadata)?;
        s.serialize_field("spec", &self.spec)?;
        s.serialize_field("status", &self.status)?;
        s.serialize_field("size_bytes", &self.size_bytes)?;
        s.end()
    }
}

impl Serialize for ObjectMeta {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("ObjectMeta", 11)?;
        s.serialize_field("namespace", self.namespace())?;
        s.serialize_field("name", self.name())?;
        s.serialize_field("uid", &self.uid)?;
        s.serialize_field("resource_version", &self.resource_version)?;
        s.serialize_field("generation", &self.generation)?;
        s.serialize_field("labels", &self.labels)?;
        s.serialize_field("annotations", &self.annotations)?;
        s.serialize_field("finalizers", self.finalizers())?;
        s.serialize_field("deletion_timestamp", &self.deletion_timestamp())?;
        s.serialize_field("deletion_grace_period_s", &self.deletion_grace_period_s())?;
        s.serialize_field("owner_references", self.owner_references())?;
        s.end()
    }
}

/// [`ObjectMeta`] as it serializes: every field flat, whatever is boxed in memory.
#[derive(Deserialize)]
pub(super) struct MetaFields {
    namespace: String,
    name: String,
    uid: Uid,
    resource_version: u64,
    generation: i64,
    labels: StringMap,
    annotations: StringMap,
    finalizers: Vec<String>,
    deletion_timestamp: Option<SimTime>,
    deletion_grace_period_s: Option<i64>,
    owner_references: Vec<OwnerReference>,
}

impl From<MetaFields> for ObjectMeta {
    fn from(m: MetaFields) -> ObjectMeta {
        let mut meta = ObjectMeta::named(&m.namespace, &m.name);
        meta.resource_version = m.resource_version;
        meta.generation = m.generation;
        meta.uid = m.uid;
        meta.labels = m.labels;
        meta.annotations = m.annotations;
        meta.lifecycle = Lifecycle::of(
            m.finalizers,
            m.deletion_timestamp,
            m.deletion_grace_period_s,
            m.owner_references,
        );
        meta
    }
}

impl fmt::Debug for Object {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Object")
            .field("kind", &self.kind)
            .field("metadata", &self.metadata)
            .field("spec", &self.spec)
            .field("status", &self.status)
            .field("size_bytes", &self.size_bytes)
            .finish()
    }
}

// `lifecycle` prints as the four fields it holds, through their accessors.
#[allow(clippy::missing_fields_in_debug)]
impl fmt::Debug for ObjectMeta {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ObjectMeta")
            .field("namespace", &self.namespace())
            .field("name", &self.name())
            .field("uid", &self.uid)
            .field("resource_version", &self.resource_version)
            .field("generation", &self.generation)
            .field("labels", &self.labels)
            .field("annotations", &self.annotations)
            .field("finalizers", &self.finalizers())
            .field("deletion_timestamp", &self.deletion_timestamp())
            .field("deletion_grace_period_s", &self.deletion_grace_period_s())
            .field("owner_references", &self.owner_references())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use std::mem::{offset_of, size_of};

    use crate::key::Key;

    use super::*;

    #[test]
    fn an_object_serializes_kind_metadata_spec_status_then_its_size() {
        let mut obj = Object::new("Pod", "default", "web-0");
        obj.metadata.resource_version = 7;
        let json = serde_json::to_string(&obj).expect("serializes");
        assert_eq!(
            json,
            "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"default\",\"name\":\"web-0\",\
             \"uid\":\"\",\"resource_version\":7,\"generation\":0,\"labels\":null,\
             \"annotations\":null,\"finalizers\":[],\"deletion_timestamp\":null,\
             \"deletion_grace_period_s\":null,\"owner_references\":[]},\"spec\":null,\
             \"status\":null,\"size_bytes\":1024}"
        );
        let back: Object = serde_json::from_str(&json).expect("deserializes");
        assert_eq!(back, obj);
    }

    #[test]
    fn an_object_prints_its_fields_in_the_declared_upstream_order() {
        let printed = format!("{:?}", Object::new("Pod", "default", "web-0"));
        let at = |field: &str| printed.find(field).expect(field);
        assert!(at("kind") < at("metadata") && at("metadata") < at("spec"));
        assert!(at("namespace") < at("name:") && at("uid") < at("resource_version"));
        assert!(at("status") < at("size_bytes"));
    }

    #[test]
    fn the_fields_read_on_every_event_lie_in_the_first_48_bytes_of_an_object() {
        // with the 16-byte reference counts of its `Rc`, one 64-byte cache line
        let meta = offset_of!(Object, metadata);
        assert!(offset_of!(Object, size_bytes) < 48);
        assert!(meta + offset_of!(ObjectMeta, key) + size_of::<Key>() <= 48);
        assert!(meta + offset_of!(ObjectMeta, resource_version) < 48);
        assert!(meta + offset_of!(ObjectMeta, generation) + 8 <= 48);
    }
}
