//! An object's identity: its namespace, its name and the key built from them.
//!
//! client-go keys an object by `namespace/name` (`tools/cache/store.go`
//! `MetaNamespaceKeyFunc`), and the engine asks an object for its key at every write, watch
//! event and informer pop. The metadata holds that key, built once, and the key's text holds the
//! namespace and the name: the namespace is the key's text up to its length, which the metadata
//! keeps, and the name the rest after the slash (all of the key for a cluster-scoped object). So
//! an object's identity is one allocation: handing out the key reads no name's text, and a copy or
//! a drop of a version touches one count (the key's) where a separate name would have added a cold
//! cache line at scale and a shared namespace a count to change. The namespace and name change
//! only through their setters, which build the key anew.

use super::ObjectMeta;
use crate::key::Key;

impl ObjectMeta {
    /// Metadata of `namespace/name` with every other field unset.
    pub fn named(namespace: &str, name: &str) -> ObjectMeta {
        ObjectMeta {
            key: Key::of(namespace, name),
            namespace_len: namespace_len(namespace),
            ..ObjectMeta::default()
        }
    }

    /// The namespace: the key's text before the name's slash; empty for cluster-scoped objects.
    pub fn namespace(&self) -> &str {
        let key = self.key.as_str();
        key.get(..self.namespace_len as usize).unwrap_or_default()
    }

    /// The name: the key's text after the namespace and its slash.
    pub fn name(&self) -> &str {
        let key = self.key.as_str();
        if self.namespace_len == 0 {
            return key;
        }
        key.get(self.namespace_len as usize + 1..)
            .unwrap_or_default()
    }

    /// Sets the namespace (and builds the key anew, unless it is the namespace already there).
    pub fn set_namespace(&mut self, namespace: &str) {
        if namespace == self.namespace() {
            return;
        }
        self.key = Key::of(namespace, self.name());
        self.namespace_len = namespace_len(namespace);
    }

    /// Sets the name (and builds the key anew, unless it is the name already there).
    pub fn set_name(&mut self, name: &str) {
        if name == self.name() {
            return;
        }
        self.key = Key::of(self.namespace(), name);
    }

    /// The informer key, as client-go's `MetaNamespaceKeyFunc`: `namespace/name`, or `name` for
    /// cluster-scoped objects (`tools/cache/store.go`), shared by every copy of this metadata.
    pub fn key(&self) -> Key {
        self.key.clone()
    }

    /// Shares `other`'s key when it is this metadata's (metadata decoded from the wire for an
    /// object the engine already holds keeps the one allocation of its key).
    pub(crate) fn share_key_of(&mut self, other: &ObjectMeta) {
        if self.key == other.key && self.namespace_len == other.namespace_len {
            self.key = other.key.clone();
        }
    }
}

/// A namespace's length as the metadata keeps it. Kubernetes bounds a namespace to a 63-character
/// DNS label; a longer text is cut off at `u32::MAX` bytes (four gigabytes: none a run can hold).
fn namespace_len(namespace: &str) -> u32 {
    u32::try_from(namespace.len()).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_is_the_keys_text_after_the_namespace_whatever_it_holds() {
        let meta = ObjectMeta::named("default", "web-0");
        assert_eq!((meta.namespace(), meta.name()), ("default", "web-0"));
        assert_eq!(meta.key(), "default/web-0");
        let cluster = ObjectMeta::named("", "team-a");
        assert_eq!(
            (cluster.name(), cluster.key().as_str()),
            ("team-a", "team-a")
        );
        // a slash in a name (which the API server's path rules refuse) still reads back whole
        let odd = ObjectMeta::named("ns", "a/b");
        assert_eq!(odd.name(), "a/b");
        let unnamed = ObjectMeta::default();
        assert_eq!((unnamed.namespace(), unnamed.name()), ("", ""));
    }

    #[test]
    fn copies_share_the_key_and_a_new_name_or_namespace_gets_its_own() {
        let meta = ObjectMeta::named("default", "web-0");
        let copy = meta.clone();
        assert!(
            std::ptr::eq(copy.key().as_str(), meta.key().as_str()),
            "one allocation"
        );
        let mut renamed = meta.clone();
        renamed.set_name("web-1");
        assert_eq!(
            (renamed.name(), renamed.key().as_str()),
            ("web-1", "default/web-1")
        );
        let mut moved = meta.clone();
        moved.set_namespace("prod");
        assert_eq!(
            (moved.name(), moved.key().as_str()),
            ("web-0", "prod/web-0")
        );
        let mut same = meta.clone();
        same.set_namespace("default");
        same.set_name("web-0");
        assert!(
            std::ptr::eq(same.key().as_str(), meta.key().as_str()),
            "the names it had already: the key is kept"
        );
        let mut cluster = meta;
        cluster.set_namespace("");
        assert_eq!((cluster.name(), cluster.key().as_str()), ("web-0", "web-0"));
    }

    #[test]
    fn a_decoded_copy_shares_the_key_only_when_its_names_match() {
        let held = ObjectMeta::named("default", "web-0");
        let mut same = ObjectMeta::named("default", "web-0");
        same.share_key_of(&held);
        assert!(std::ptr::eq(same.key().as_str(), held.key().as_str()));
        let mut other = ObjectMeta::named("default", "web-1");
        other.share_key_of(&held);
        assert_eq!(other.key(), "default/web-1");
        // "a/b-c" in no namespace and "b-c" in namespace "a" have one key text, not one identity
        let mut cluster = ObjectMeta::named("", "a/b-c");
        cluster.share_key_of(&ObjectMeta::named("a", "b-c"));
        assert_eq!((cluster.namespace(), cluster.name()), ("", "a/b-c"));
    }
}
