//! Reading one custom resource for display, as `kubectl get -o yaml` would, without counting a
//! request: the stored object (or, once deleted, the final state its DELETED watch event carried)
//! and the version before it from the API server's watch cache (`watchCacheHistory`,
//! `staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go`).

use super::Cluster;
use crate::apiserver::WatchEventType;
use crate::object::ObjectRef;

/// One object as an inspector shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Inspected {
    /// The object now, or its final state when it was deleted.
    pub object: ObjectRef,
    /// The version before it, while the watch cache still holds one.
    pub previous: Option<ObjectRef>,
    /// Whether the object is gone from the store.
    pub deleted: bool,
}

impl Cluster {
    /// The keys (`namespace/name`) of the first `limit` stored custom resources, in key order.
    pub fn object_keys(&self, limit: usize) -> Vec<String> {
        self.object_keys_borrowed(limit)
            .map(str::to_owned)
            .collect()
    }

    /// [`Cluster::object_keys`] as borrowed texts, for a reader that compares them with what it
    /// has before it copies any.
    pub fn object_keys_borrowed(&self, limit: usize) -> impl Iterator<Item = &str> {
        self.api
            .server
            .server()
            .keys(&self.scenario.crd.kind)
            .take(limit)
            .map(crate::key::Key::as_str)
    }

    /// The custom resource `key` (`namespace/name`) for display; `None` when it never existed
    /// or its deletion has left the watch cache.
    pub fn inspect(&self, key: &str) -> Option<Inspected> {
        let (namespace, name) = key.split_once('/').unwrap_or(("", key));
        let server = self.api.server.server();
        let kind = &self.scenario.crd.kind;
        let cache = server.watch_cache(kind);
        // A DELETED event carries the last stored state at the deletion's revision.
        let (object, before, deleted) = match server.peek(kind, namespace, name) {
            Some(o) => {
                let rv = o.metadata.resource_version;
                (o, rv, false)
            }
            None => {
                let last = cache?.event_before(namespace, name, u64::MAX)?;
                if last.event_type != WatchEventType::Deleted {
                    return None;
                }
                (ObjectRef::clone(&last.object), last.resource_version, true)
            }
        };
        let previous = cache
            .and_then(|c| c.event_before(namespace, name, before))
            .map(|e| ObjectRef::clone(&e.object));
        Some(Inspected {
            object,
            previous,
            deleted,
        })
    }
}
