//! The namespace index read from the store's key order.
//!
//! An object's key is `namespace/name` (client-go `tools/cache/store.go` `MetaNamespaceKeyFunc`),
//! and neither a namespace nor a name may contain `/` (apimachinery `path.IsValidPathSegmentName`),
//! so the keys of one namespace are exactly the keys that start with `namespace/`: one range of a
//! key-ordered store. Reading that range gives the same keys, in the same order, as the key sets
//! upstream keeps per namespace (client-go `tools/cache/thread_safe_store.go` `index`) without a
//! second entry per object. Cluster-scoped objects (namespace `""`) have keys without a `/`.

use std::ops::Bound::{Excluded, Included, Unbounded};

use crate::key::Key;
use crate::sim::shared::SharedMap;

/// The smallest text above every key that starts with `namespace/` (`/` + 1 is `0`).
fn end_of(namespace: &str) -> String {
    let mut end = String::with_capacity(namespace.len() + 1);
    end.push_str(namespace);
    end.push('0');
    end
}

/// The first key of `namespace`'s range: `namespace/`.
fn start_of(namespace: &str) -> String {
    let mut start = String::with_capacity(namespace.len() + 1);
    start.push_str(namespace);
    start.push('/');
    start
}

/// The entries of `items` in `namespace`, in key order.
pub(super) fn entries_in<'a, V>(
    items: &'a SharedMap<Key, V>,
    namespace: &str,
) -> Box<dyn Iterator<Item = (&'a Key, &'a V)> + 'a> {
    if namespace.is_empty() {
        return Box::new(items.iter().filter(|(key, _)| !key.contains('/')));
    }
    let (start, end) = (start_of(namespace), end_of(namespace));
    Box::new(items.range::<_, str>((Included(start.as_str()), Excluded(end.as_str()))))
}

/// The namespace of a key: the text before its `/`, or `""` for a cluster-scoped key.
fn namespace_of(key: &str) -> &str {
    key.split_once('/').map_or("", |(namespace, _)| namespace)
}

/// Every namespace that holds at least one entry of `items`, sorted; one lookup per namespace.
pub(super) fn namespaces<V>(items: &SharedMap<Key, V>) -> Vec<String> {
    let mut namespaces = std::collections::BTreeSet::new();
    let mut next = items.keys().next();
    while let Some(key) = next {
        let namespace = namespace_of(key);
        let after = if namespace.is_empty() {
            items
                .range::<_, str>((Excluded(key.as_str()), Unbounded))
                .next()
        } else {
            let end = end_of(namespace);
            items
                .range::<_, str>((Included(end.as_str()), Unbounded))
                .next()
        };
        namespaces.insert(namespace.to_owned());
        next = after.map(|(key, _)| key);
    }
    namespaces.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(keys: &[&str]) -> SharedMap<Key, ()> {
        keys.iter().map(|key| (Key::from(*key), ())).collect()
    }

    fn keys_in(items: &SharedMap<Key, ()>, namespace: &str) -> Vec<String> {
        entries_in(items, namespace)
            .map(|(key, _)| key.to_string())
            .collect()
    }

    #[test]
    fn a_namespace_holds_exactly_the_keys_that_start_with_it_and_a_slash() {
        let items = store(&["ns", "ns/a", "ns-1/a", "ns/b", "ns0/a", "ns1/a", "nt/a"]);
        assert_eq!(keys_in(&items, "ns"), ["ns/a", "ns/b"]);
        assert_eq!(keys_in(&items, "ns0"), ["ns0/a"]);
        assert_eq!(keys_in(&items, "n"), Vec::<String>::new());
    }

    #[test]
    fn the_empty_namespace_holds_the_cluster_scoped_keys() {
        let items = store(&["node-1", "ns/a", "a", "z"]);
        assert_eq!(keys_in(&items, ""), ["a", "node-1", "z"]);
    }

    #[test]
    fn every_namespace_with_an_object_is_listed_once_and_sorted() {
        let items = store(&["ns/a", "ns/b", "ns0/a", "node-1", "ns-1/a", "a"]);
        assert_eq!(namespaces(&items), ["", "ns", "ns-1", "ns0"]);
        assert!(namespaces(&store(&[])).is_empty());
    }
}
