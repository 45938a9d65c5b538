//! An object's identity: its namespace, its name and the key built from them.
//!
//! client-go keys an object by `namespace/name` (`tools/cache/store.go`
//! `MetaNamespaceKeyFunc`), and the engine asks an object for its key at every write, watch
//! event and informer pop. The key is built once and kept beside the metadata ([`KeyCache`]); a
//! copy of the metadata shares it. The namespace and name change only through their setters,
//! which let the kept key go, so a kept key is always the key of the names beside it: handing it
//! out reads neither name's text (which lives in its own allocation, a cold cache line at scale).

use std::cell::OnceCell;

use super::{ObjectMeta, Text};
use crate::key::Key;

/// Where [`ObjectMeta`] keeps its key once built.
#[derive(Clone, Default)]
pub struct KeyCache(OnceCell<Key>);

impl PartialEq for KeyCache {
    /// Always equal: the kept key is not part of an object's content.
    fn eq(&self, _: &KeyCache) -> bool {
        true
    }
}

impl Eq for KeyCache {}

impl std::fmt::Debug for KeyCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeyCache")
    }
}

impl ObjectMeta {
    /// Metadata of `namespace/name` with every other field unset.
    pub fn named(namespace: Text, name: Text) -> ObjectMeta {
        ObjectMeta {
            namespace,
            name,
            ..ObjectMeta::default()
        }
    }

    /// The namespace; empty for cluster-scoped objects.
    pub fn namespace(&self) -> &Text {
        &self.namespace
    }

    /// The name.
    pub fn name(&self) -> &Text {
        &self.name
    }

    /// Sets the namespace (the kept key goes with the old one).
    pub fn set_namespace(&mut self, namespace: Text) {
        self.namespace = namespace;
        self.key_cache = KeyCache::default();
    }

    /// Sets the name (the kept key goes with the old one).
    pub fn set_name(&mut self, name: Text) {
        self.name = name;
        self.key_cache = KeyCache::default();
    }

    /// The informer key, as client-go's `MetaNamespaceKeyFunc`: `namespace/name`, or `name` for
    /// cluster-scoped objects (`tools/cache/store.go`). Built on the first call and then shared
    /// by every copy of this metadata.
    pub fn key(&self) -> Key {
        self.key_cache
            .0
            .get_or_init(|| Key::of(&self.namespace, &self.name))
            .clone()
    }

    /// Shares `other`'s kept key when it is the key of this metadata's names (metadata decoded
    /// from the wire for an object the engine already holds keeps the allocation its key has).
    pub(crate) fn share_key_of(&mut self, other: &ObjectMeta) {
        if let Some(key) = other.key_cache.0.get() {
            if key.is_of(&self.namespace, &self.name) {
                self.key_cache = other.key_cache.clone();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_share_the_kept_key_and_a_new_name_or_namespace_gets_its_own() {
        let meta = ObjectMeta::named("default".into(), "web-0".into());
        let first = meta.key();
        let copy = meta.clone();
        assert!(
            std::ptr::eq(copy.key().as_str(), first.as_str()),
            "one allocation"
        );
        let mut renamed = meta.clone();
        renamed.set_name("web-1".into());
        assert_eq!(renamed.key(), "default/web-1");
        let mut moved = meta.clone();
        moved.set_namespace("prod".into());
        assert_eq!(moved.key(), "prod/web-0");
        let mut cluster = meta;
        cluster.set_namespace(Text::default());
        assert_eq!(cluster.key(), "web-0");
    }

    #[test]
    fn a_decoded_copy_shares_the_key_only_when_its_names_match() {
        let held = ObjectMeta::named("default".into(), "web-0".into());
        let key = held.key();
        let mut same = ObjectMeta::named("default".into(), "web-0".into());
        same.share_key_of(&held);
        assert!(std::ptr::eq(same.key().as_str(), key.as_str()));
        let mut other = ObjectMeta::named("default".into(), "web-1".into());
        other.share_key_of(&held);
        assert_eq!(other.key(), "default/web-1");
        let mut unkeyed = ObjectMeta::named("default".into(), "web-0".into());
        unkeyed.share_key_of(&ObjectMeta::named("default".into(), "web-0".into()));
        assert_eq!(unkeyed.key(), "default/web-0");
    }
}
