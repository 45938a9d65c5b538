//! Membership collections for queue items (client-go `util/workqueue/queue.go` keeps `dirty` and
//! `processing` as Go maps, `sets.Set[T]`).
//!
//! They answer only "is this item in?"; nothing iterates them, so their order can never reach a
//! trace or an output. The hasher has fixed keys, so a run behaves the same natively and in wasm32.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, DefaultHasher};

/// A set of queue items, looked up by hash instead of by comparing keys.
pub(crate) type ItemSet<T> = HashSet<T, BuildHasherDefault<DefaultHasher>>;

/// A map from queue items, looked up by hash instead of by comparing keys.
pub(crate) type ItemMap<T, V> = HashMap<T, V, BuildHasherDefault<DefaultHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::Key;

    #[test]
    fn an_item_set_holds_each_key_once_and_finds_it_by_an_equal_key_in_another_allocation() {
        let mut set = ItemSet::default();
        assert!(set.insert(Key::of("ns-1", "demo-1")));
        assert!(!set.insert(Key::from("ns-1/demo-1")));
        assert!(set.contains(&Key::from("ns-1/demo-1")));
        assert!(!set.contains(&Key::from("ns-1/demo-10")));
        assert!(set.remove(&Key::of("ns-1", "demo-1")));
        assert!(set.is_empty());
    }

    #[test]
    fn an_item_map_keeps_one_value_per_key() {
        let mut map = ItemMap::default();
        map.insert(Key::of("ns-1", "demo-2"), 1);
        map.insert(Key::from("ns-1/demo-2"), 2);
        assert_eq!(map.len(), 1);
        assert_eq!(map.remove(&Key::of("ns-1", "demo-2")), Some(2));
    }
}
