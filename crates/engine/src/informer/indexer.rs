//! The informer cache: client-go's `Indexer` over a `ThreadSafeStore` (client-go
//! `tools/cache/thread_safe_store.go`, `tools/cache/index.go`, `tools/cache/store.go`), the index
//! functions controller-runtime installs (`pkg/cache/informer_cache.go` indexByField,
//! `pkg/cache/internal/cache_reader.go`), and the informer's delta processing that turns popped
//! deltas into cache writes and handler notifications (client-go `tools/cache/controller.go`
//! processDeltas, processReplacedAllInfo).
//!
//! Deviations from upstream: every listing is sorted by key (upstream ranges over Go maps and sets,
//! so its order is random — `docs/behaviour.md` §0.5); index functions cannot fail (upstream
//! panics when one returns an error); the store is keyed by `MetaNamespaceKeyFunc` only; there are
//! no locks (the engine is single-threaded) and no transformer. The `namespace` index of
//! [`Indexer::with_namespace_index`] keeps no key sets: a namespace's keys are one range of the
//! key-ordered store, read as the index (same keys, same order; see `namespace_keys`).

mod namespace_keys;

use std::borrow::Borrow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

use crate::informer::delta::{
    DeletedFinalStateUnknown, Delta, DeltaObject, DeltaType, IntoObjectRef,
};
pub use crate::informer::delta_fifo::KnownObjects;
use crate::informer::deltas::Deltas;
use crate::informer::real_fifo::AtomicItem;
use crate::key::Key;
use crate::object::{Object, ObjectRef};
use crate::sim::shared::SharedMap;
use crate::vec_map::VecMap;

/// Computes the indexed values of an object (client-go `tools/cache/index.go` `IndexFunc`). Must be
/// deterministic. Upstream may return an error; here it cannot fail.
pub type IndexFunc = Arc<dyn Fn(&Object) -> Vec<String> + Send + Sync>;

/// Index functions by index name (client-go `tools/cache/index.go` `Indexers`).
pub type Indexers = VecMap<String, IndexFunc>;

/// The name of the namespace index (client-go `tools/cache/index.go` `NamespaceIndex`); informers
/// created by controller-runtime always have it.
pub const NAMESPACE_INDEX: &str = "namespace";

/// The pseudo-namespace of field-index values that match in every namespace (controller-runtime
/// `pkg/cache/internal/cache_reader.go` `allNamespacesNamespace`).
pub const ALL_NAMESPACES_NAMESPACE: &str = "__all_namespaces";

/// Wraps a closure as an [`IndexFunc`].
pub fn index_func(f: impl Fn(&Object) -> Vec<String> + Send + Sync + 'static) -> IndexFunc {
    Arc::new(f)
}

/// Indexes an object by its namespace (`""` for cluster-scoped) (client-go `tools/cache/index.go`
/// `MetaNamespaceIndexFunc`).
pub fn namespace_index_func(obj: &Object) -> Vec<String> {
    vec![obj.metadata.namespace().to_string()]
}

/// The name of the index over a field: `field:<field>` (controller-runtime
/// `pkg/cache/internal/cache_reader.go` `FieldIndexName`).
pub fn field_index_name(field: &str) -> String {
    format!("field:{field}")
}

/// Prefixes a field-index value with its namespace, or with `__all_namespaces` when `namespace` is
/// empty (controller-runtime `pkg/cache/internal/cache_reader.go` `KeyToNamespacedKey`).
pub fn key_to_namespaced_key(namespace: &str, base_key: &str) -> String {
    let namespace = if namespace.is_empty() {
        ALL_NAMESPACES_NAMESPACE
    } else {
        namespace
    };
    format!("{namespace}/{base_key}")
}

/// Turns a raw field extractor into the index function controller-runtime registers for
/// `IndexField`: per raw value `v`, `ns/v` and `__all_namespaces/v` for a namespaced object, only
/// `__all_namespaces/v` for a cluster-scoped one (controller-runtime `pkg/cache/informer_cache.go`
/// indexByField).
pub fn field_index_func(
    extract_value: impl Fn(&Object) -> Vec<String> + Send + Sync + 'static,
) -> IndexFunc {
    index_func(move |obj| namespaced_field_values(obj.metadata.namespace(), &extract_value(obj)))
}

/// The namespaced values first, then the all-namespaces ones, as upstream lays them out
/// (controller-runtime `pkg/cache/informer_cache.go` indexByField).
fn namespaced_field_values(namespace: &str, raw_values: &[String]) -> Vec<String> {
    let mut values: Vec<String> = raw_values
        .iter()
        .map(|raw| key_to_namespaced_key(namespace, raw))
        .collect();
    if !namespace.is_empty() {
        values.extend(raw_values.iter().map(|raw| key_to_namespaced_key("", raw)));
    }
    values
}

/// Registers the field index `field:<field>` on `indexer` (controller-runtime
/// `pkg/cache/informer_cache.go` `IndexField`, indexByField).
pub fn index_by_field(
    indexer: &mut Indexer,
    field: &str,
    extract_value: impl Fn(&Object) -> Vec<String> + Send + Sync + 'static,
) -> Result<(), IndexError> {
    let indexers = Indexers::from([(field_index_name(field), field_index_func(extract_value))]);
    indexer.add_indexers(indexers)
}

/// An indexer error (client-go `tools/cache/thread_safe_store.go`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IndexError {
    /// No index function is registered under this name ("Index with name %s does not exist").
    DoesNotExist(String),
    /// `AddIndexers` named indexes that already exist ("indexer conflict: %v").
    Conflict(Vec<String>),
}

impl fmt::Display for IndexError {
    /// The upstream messages (client-go `tools/cache/thread_safe_store.go`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::DoesNotExist(name) => write!(f, "Index with name {name} does not exist"),
            IndexError::Conflict(names) => write!(f, "indexer conflict: [{}]", names.join(" ")),
        }
    }
}

impl std::error::Error for IndexError {}

/// Index value → keys, for one index (client-go `tools/cache/index.go` `index`).
type Index = BTreeMap<String, BTreeSet<Key>>;

/// client-go's `Indexer` (`tools/cache/store.go` `cache` over `tools/cache/thread_safe_store.go`
/// `threadSafeMap`): objects by key plus secondary indexes that are kept up to date on every
/// write.
#[derive(Clone, Default)]
pub struct Indexer {
    /// Objects by key (`items`), shared with the checkpoints taken since the last write
    /// ([`crate::sim::shared`]).
    items: SharedMap<Key, ObjectRef>,
    /// Index functions by name (`indexers`).
    indexers: Indexers,
    /// Index name → value → keys (`indices`); empty key sets are removed.
    indices: VecMap<String, Index>,
    /// Whether the `namespace` index is upstream's `MetaNamespaceIndexFunc`, answered from the
    /// key order of `items` instead of kept in `indices` (see `namespace_keys`).
    namespace_in_key_order: bool,
    /// The resource version of the last write (`rv`, `LastStoreSyncResourceVersion`).
    last_sync_resource_version: u64,
}

impl crate::sim::large::LargeParts for Indexer {
    /// The cached objects (a copy shares their nodes; freeing one goes leaf by leaf).
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn crate::sim::large::Large>) {
        out.push(&mut self.items);
    }
}

#[allow(
    clippy::missing_fields_in_debug,
    reason = "index functions are closures and cannot be printed"
)]
impl fmt::Debug for Indexer {
    /// Keys, index names and indices (index functions are not printable).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Indexer")
            .field("keys", &self.items.keys().collect::<Vec<_>>())
            .field("indexers", &self.indexers.keys().collect::<Vec<_>>())
            .field("indices", &self.indices)
            .field(
                "last_sync_resource_version",
                &self.last_sync_resource_version,
            )
            .finish()
    }
}

impl Indexer {
    /// An empty store without indexes (client-go `tools/cache/store.go` `NewStore`).
    pub fn new() -> Indexer {
        Indexer::default()
    }

    /// An empty store with `indexers` (client-go `tools/cache/store.go` `NewIndexer`).
    pub fn with_indexers(indexers: Indexers) -> Indexer {
        Indexer {
            indexers,
            ..Indexer::default()
        }
    }

    /// An empty store with the `namespace` index, as controller-runtime creates informers
    /// (`pkg/cache/internal/informers.go`, client-go `tools/cache/index.go` `NamespaceIndex`).
    pub fn with_namespace_index() -> Indexer {
        let namespace: IndexFunc = Arc::new(namespace_index_func);
        Indexer {
            namespace_in_key_order: true,
            ..Indexer::with_indexers(Indexers::from([(NAMESPACE_INDEX.to_owned(), namespace)]))
        }
    }

    /// Stores `obj` under its key, like `update` (client-go `tools/cache/thread_safe_store.go`
    /// `Add`).
    pub fn add(&mut self, obj: impl IntoObjectRef) {
        self.update(obj);
    }

    /// Stores `obj` under its key, re-indexing it, and records its resource version (client-go
    /// `tools/cache/thread_safe_store.go` `Update`, `updateLocked`).
    pub fn update(&mut self, obj: impl IntoObjectRef) {
        self.store(&obj.into_object_ref());
    }

    /// [`Indexer::update`], returning the object it replaced.
    fn store(&mut self, obj: &ObjectRef) -> Option<ObjectRef> {
        self.store_keyed(&obj.key(), obj)
    }

    /// [`Indexer::store`] under `key`, which must be `obj`'s key: the object is not asked.
    fn store_keyed(&mut self, key: &Key, obj: &ObjectRef) -> Option<ObjectRef> {
        self.last_sync_resource_version = obj.resource_version();
        let old = self.items.insert(key.clone(), ObjectRef::clone(obj));
        self.update_indices(old.as_deref(), Some(obj), key);
        old
    }

    /// Removes the object under `obj`'s key (a tombstone's key for a tombstone), un-indexing it. A
    /// live object also records its resource version; a tombstone does not (client-go
    /// `tools/cache/store.go` `Delete`, `tools/cache/thread_safe_store.go` `DeleteWithObject`).
    pub fn delete(&mut self, obj: impl Into<DeltaObject>) {
        self.remove_object(&obj.into());
    }

    /// [`Indexer::delete`], returning the object it removed.
    fn remove_object(&mut self, obj: &DeltaObject) -> Option<ObjectRef> {
        self.remove_object_keyed(&obj.key(), obj)
    }

    /// [`Indexer::remove_object`] under `key`, which must be `obj`'s key.
    fn remove_object_keyed(&mut self, key: &str, obj: &DeltaObject) -> Option<ObjectRef> {
        let old = self.remove(key);
        if let Some(live) = obj.as_live() {
            self.last_sync_resource_version = live.resource_version();
        }
        old
    }

    /// Removes the object under `key` without touching the resource version (client-go
    /// `tools/cache/thread_safe_store.go` `Delete`).
    pub fn delete_key(&mut self, key: &str) {
        self.remove(key);
    }

    /// [`Indexer::delete_key`], returning the object it removed.
    fn remove(&mut self, key: &str) -> Option<ObjectRef> {
        let (key, old) = self.items.remove_with_key(key)?;
        self.update_indices(Some(&old), None, &key);
        Some(old)
    }

    /// The object under `key` (client-go `tools/cache/thread_safe_store.go` `Get`).
    ///
    /// Looked up by a [`Key`] (a clone of the stored key is equal to it without reading its
    /// text) or by a key's text.
    pub fn get<Q>(&self, key: &Q) -> Option<ObjectRef>
    where
        Key: std::borrow::Borrow<Q>,
        Q: Ord + crate::sim::shared::Head + ?Sized,
    {
        self.items.get(key).cloned()
    }

    /// The object under `key` (client-go `tools/cache/store.go` `GetByKey`).
    pub fn get_by_key(&self, key: &str) -> Option<ObjectRef> {
        self.get(key)
    }

    /// The stored object with `obj`'s key (client-go `tools/cache/store.go` `Get`).
    pub fn get_object(&self, obj: &Object) -> Option<ObjectRef> {
        self.items.get(&obj.key()).cloned()
    }

    /// Whether an object is stored under `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        self.items.contains_key(key)
    }

    /// The cached objects by key, consuming the store (its indices are dropped): how a dead
    /// process's cache is handed over to be freed in parts.
    pub fn into_items(self) -> SharedMap<Key, ObjectRef> {
        self.items
    }

    /// Every stored object, sorted by key (client-go `tools/cache/thread_safe_store.go` `List`).
    /// Upstream ranges over a Go map, so the real order is random; the simulation sorts by key to
    /// stay deterministic (`docs/behaviour.md` §0.5).
    pub fn list(&self) -> Vec<ObjectRef> {
        self.items.values().cloned().collect()
    }

    /// Every stored key, sorted (client-go `tools/cache/thread_safe_store.go` `ListKeys`; random
    /// order upstream).
    pub fn list_keys(&self) -> Vec<Key> {
        self.items.keys().cloned().collect()
    }

    /// Replaces the whole content with `objects` (a later duplicate key wins), rebuilds every index
    /// and records `resource_version` (client-go `tools/cache/store.go` `Replace`,
    /// `tools/cache/thread_safe_store.go` `Replace`).
    pub fn replace(&mut self, objects: Vec<ObjectRef>, resource_version: u64) {
        self.items = objects.into_iter().map(|obj| (obj.key(), obj)).collect();
        self.last_sync_resource_version = resource_version;
        self.indices.clear();
        let names: Vec<String> = self.indexers.keys().cloned().collect();
        for name in &names {
            self.index_all_items(name);
        }
    }

    /// Records a bookmark's resource version (client-go `tools/cache/thread_safe_store.go`
    /// `Bookmark`).
    pub fn bookmark(&mut self, resource_version: u64) {
        self.last_sync_resource_version = resource_version;
    }

    /// The resource version of the last write, replace or bookmark; 0 before any (client-go
    /// `tools/cache/thread_safe_store.go` `LastStoreSyncResourceVersion`, which upstream only
    /// reports when the `AtomicFIFO` feature gate is on).
    pub fn last_store_sync_resource_version(&self) -> u64 {
        self.last_sync_resource_version
    }

    /// Registers more index functions and indexes the stored objects with them. Fails, adding
    /// nothing, if a name is already registered (client-go `tools/cache/thread_safe_store.go`
    /// `AddIndexers`).
    pub fn add_indexers(&mut self, new_indexers: Indexers) -> Result<(), IndexError> {
        let conflicts: Vec<String> = new_indexers
            .keys()
            .filter(|name| self.indexers.contains_key(*name))
            .cloned()
            .collect();
        if !conflicts.is_empty() {
            return Err(IndexError::Conflict(conflicts));
        }
        for (name, func) in new_indexers {
            self.indexers.insert(name.clone(), func);
            self.index_all_items(&name);
        }
        Ok(())
    }

    /// The registered index names, sorted (client-go `tools/cache/thread_safe_store.go`
    /// `GetIndexers`).
    pub fn index_names(&self) -> Vec<String> {
        self.indexers.keys().cloned().collect()
    }

    /// The stored objects whose values in index `name` include `value`, sorted by key (client-go
    /// `tools/cache/thread_safe_store.go` `ByIndex`; random order upstream). An unknown index is
    /// an error, never a panic.
    pub fn by_index(&self, name: &str, value: &str) -> Result<Vec<ObjectRef>, IndexError> {
        if self.in_key_order(name) {
            let entries = namespace_keys::entries_in(&self.items, value);
            return Ok(entries.map(|(_, obj)| ObjectRef::clone(obj)).collect());
        }
        let keys = self.index_keys(name, value)?;
        Ok(keys.iter().filter_map(|key| self.get(key)).collect())
    }

    /// The keys of the stored objects whose values in index `name` include `value`, sorted
    /// (client-go `tools/cache/thread_safe_store.go` `IndexKeys`).
    pub fn index_keys(&self, name: &str, value: &str) -> Result<Vec<Key>, IndexError> {
        self.require_index(name)?;
        if self.in_key_order(name) {
            let entries = namespace_keys::entries_in(&self.items, value);
            return Ok(entries.map(|(key, _)| key.clone()).collect());
        }
        let keys = self.indices.get(name).and_then(|index| index.get(value));
        Ok(keys.map_or_else(Vec::new, |keys| keys.iter().cloned().collect()))
    }

    /// The stored objects that share at least one value of index `name` with `obj`, sorted by key
    /// (client-go `tools/cache/thread_safe_store.go` `Index`).
    pub fn index(&self, name: &str, obj: &Object) -> Result<Vec<ObjectRef>, IndexError> {
        let func = self.require_index(name)?;
        if self.in_key_order(name) {
            let keys: BTreeSet<&Key> = func(obj)
                .iter()
                .flat_map(|value| namespace_keys::entries_in(&self.items, value))
                .map(|(key, _)| key)
                .collect();
            return Ok(keys.into_iter().filter_map(|key| self.get(key)).collect());
        }
        let index = self.indices.get(name);
        let keys: BTreeSet<&Key> = func(obj)
            .iter()
            .filter_map(|value| index?.get(value))
            .flatten()
            .collect();
        Ok(keys.into_iter().filter_map(|key| self.get(key)).collect())
    }

    /// Every value present in index `name`, sorted; empty for an unknown index (client-go
    /// `tools/cache/thread_safe_store.go` `ListIndexFuncValues`).
    pub fn list_index_func_values(&self, name: &str) -> Vec<String> {
        if self.in_key_order(name) {
            return namespace_keys::namespaces(&self.items);
        }
        self.indices
            .get(name)
            .map_or_else(Vec::new, |index| index.keys().cloned().collect())
    }

    /// The number of stored objects.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The index function `name`, or the upstream "does not exist" error (client-go
    /// `tools/cache/thread_safe_store.go` `getKeysByIndex`).
    fn require_index(&self, name: &str) -> Result<&IndexFunc, IndexError> {
        self.indexers
            .get(name)
            .ok_or_else(|| IndexError::DoesNotExist(name.to_owned()))
    }

    /// Whether index `name` is read from the key order rather than kept in `indices`.
    fn in_key_order(&self, name: &str) -> bool {
        self.namespace_in_key_order && name == NAMESPACE_INDEX
    }

    /// Indexes every stored object with index `name` (client-go `tools/cache/thread_safe_store.go`
    /// `AddIndexers`, `Replace`).
    fn index_all_items(&mut self, name: &str) {
        let Some(func) = self.indexers.get(name).cloned() else {
            return;
        };
        if self.in_key_order(name) {
            return;
        }
        let index = self.indices.get_or_default(name.to_owned());
        for (key, obj) in &self.items {
            for value in func(obj) {
                index.entry(value).or_default().insert(key.clone());
            }
        }
    }

    /// Moves `key` from `old`'s index values to `new`'s in every index (client-go
    /// `tools/cache/thread_safe_store.go` `updateIndices`).
    fn update_indices(&mut self, old: Option<&Object>, new: Option<&Object>, key: &Key) {
        if self.namespace_in_key_order && self.indexers.len() == 1 {
            // the namespace index alone, read from the key order: nothing is kept to update
            // (an informer as controller-runtime creates it, without field indexes)
            return;
        }
        for (name, func) in &self.indexers {
            if self.namespace_in_key_order && name == NAMESPACE_INDEX {
                continue;
            }
            let index = self.indices.get_or_default(name.clone());
            update_single_index(index, func, old, new, key);
        }
    }
}

/// Re-indexes `key` in one index: removes the old values (dropping emptied sets), adds the new
/// ones; skips the common single-unchanged-value case (client-go
/// `tools/cache/thread_safe_store.go` `updateSingleIndex`, `deleteKeyFromIndex`).
fn update_single_index(
    index: &mut Index,
    func: &IndexFunc,
    old: Option<&Object>,
    new: Option<&Object>,
    key: &Key,
) {
    let old_values = old.map_or_else(Vec::new, |obj| func(obj));
    let new_values = new.map_or_else(Vec::new, |obj| func(obj));
    if old_values.len() == 1 && old_values == new_values {
        return;
    }
    for value in &old_values {
        remove_key_from_index(index, value, key);
    }
    for value in new_values {
        index.entry(value).or_default().insert(key.clone());
    }
}

/// Removes `key` from the set of `value`, deleting the set when it empties (client-go
/// `tools/cache/thread_safe_store.go` `deleteKeyFromIndex`, kubernetes/kubernetes#84959).
fn remove_key_from_index(index: &mut Index, value: &str, key: &Key) {
    if let Some(keys) = index.get_mut(value) {
        keys.remove(key);
        if keys.is_empty() {
            index.remove(value);
        }
    }
}

impl KnownObjects for Indexer {
    /// [`Indexer::get_by_key`].
    fn get_by_key(&self, key: &str) -> Option<ObjectRef> {
        Indexer::get_by_key(self, key)
    }

    /// [`Indexer::list_keys`] (sorted).
    fn list_keys(&self) -> Vec<Key> {
        Indexer::list_keys(self)
    }

    fn for_each_key(&self, visit: &mut dyn FnMut(&Key)) {
        self.items.keys().for_each(visit);
    }
}

/// A handler notification produced by applying deltas to the cache (client-go
/// `tools/cache/controller.go` `ResourceEventHandler` `OnAdd`/`OnUpdate`/`OnDelete`).
#[derive(Clone, Debug, PartialEq)]
pub enum Notification {
    /// `OnAdd(obj, isInInitialList)`.
    Add {
        /// The key the cache stores the object under (the object's own key), so that the handler
        /// need not read it from the object.
        key: Key,
        /// The new object.
        obj: ObjectRef,
        /// Whether the object came from the informer's initial list.
        is_in_initial_list: bool,
    },
    /// `OnUpdate(old, new)`.
    Update {
        /// The key the cache stores the object under (the object's own key).
        key: Key,
        /// The cached object before the change.
        old: ObjectRef,
        /// The object after the change.
        new: ObjectRef,
    },
    /// `OnDelete(obj)`; the object may be a `DeletedFinalStateUnknown` tombstone.
    Delete {
        /// The deleted object or a tombstone.
        obj: DeltaObject,
    },
}

impl Notification {
    /// Whether this is an update whose old and new resource versions are equal: a resync (or an
    /// unchanged relist), which a shared informer delivers only to listeners due for resync
    /// (client-go `tools/cache/shared_informer.go` `sharedIndexInformer.OnUpdate`).
    pub fn is_sync(&self) -> bool {
        match self {
            Notification::Update { old, new, .. } => {
                old.resource_version() == new.resource_version()
            }
            _ => false,
        }
    }
}

/// Applies popped deltas to the cache, oldest first, and returns the handler notifications in
/// order (client-go `tools/cache/controller.go` processDeltas): `Sync`/`Replaced`/`Added`/`Updated`
/// update a cached key (→ `Update{old, new}`) or add a new one (→ `Add`); `Deleted` removes the key
/// (→ `Delete`, possibly with a tombstone). Accepts a `Vec<Delta>`, `&[Delta]` or `[delta]`.
///
/// A non-`Deleted` delta carrying a tombstone (which no FIFO produces) applies the tombstone's
/// object if it has one and is skipped otherwise; upstream would store the tombstone itself.
pub fn process_deltas<I>(
    indexer: &mut Indexer,
    deltas: I,
    is_in_initial_list: bool,
) -> Vec<Notification>
where
    I: IntoIterator,
    I::Item: Borrow<Delta>,
{
    process_deltas_sized(indexer, deltas, is_in_initial_list).0
}

/// The cached object's size at a popped key before and after its deltas were applied, in bytes
/// (0 where nothing was cached).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CachedBytes {
    /// Before the first delta that touched the cache.
    pub(crate) before_bytes: u64,
    /// After the last one.
    pub(crate) after_bytes: u64,
}

/// [`process_deltas`], also reporting how the cached object of the deltas' key changed in size
/// (the deltas of one pop share a key), read from what each write replaced instead of by
/// looking the key up again; `None` when no delta touched the cache.
pub(crate) fn process_deltas_sized<I>(
    indexer: &mut Indexer,
    deltas: I,
    is_in_initial_list: bool,
) -> (Vec<Notification>, Option<CachedBytes>)
where
    I: IntoIterator,
    I::Item: Borrow<Delta>,
{
    let mut notifications = Vec::new();
    let sized = process_keyed_deltas(
        indexer,
        deltas,
        is_in_initial_list,
        written_key,
        &mut notifications,
    );
    (notifications, sized)
}

/// The key a delta writes the cache under: the deleted key, or the stored object's own key.
fn written_key(delta: &Delta) -> Key {
    match (delta.delta_type, delta.object.object()) {
        (DeltaType::Deleted, _) | (_, None) => delta.key(),
        (_, Some(obj)) => obj.key(),
    }
}

/// [`process_deltas_sized`] for the deltas a FIFO popped under `key`, which every one of them
/// carries (a FIFO never queues a tombstone but for a deletion): the cache is written under that
/// key, and no object is asked for its own. The notifications are appended to `notifications`
/// (a buffer the informer keeps: a pop allocates none).
pub(crate) fn process_popped_deltas(
    indexer: &mut Indexer,
    key: &Key,
    deltas: Deltas,
    is_in_initial_list: bool,
    notifications: &mut Vec<Notification>,
) -> Option<CachedBytes> {
    process_keyed_deltas(
        indexer,
        deltas,
        is_in_initial_list,
        |_| key.clone(),
        notifications,
    )
}

/// [`process_deltas_sized`] with each delta's key given by `key_of`, appending the
/// notifications to `notifications`.
fn process_keyed_deltas<I>(
    indexer: &mut Indexer,
    deltas: I,
    is_in_initial_list: bool,
    key_of: impl Fn(&Delta) -> Key,
    notifications: &mut Vec<Notification>,
) -> Option<CachedBytes>
where
    I: IntoIterator,
    I::Item: Borrow<Delta>,
{
    let mut sized: Option<CachedBytes> = None;
    let mut saw = |old: Option<&ObjectRef>, new: Option<&ObjectRef>| {
        let bytes = |obj: Option<&ObjectRef>| obj.map_or(0, |o| o.size_bytes);
        let before_bytes = sized.map_or_else(|| bytes(old), |s| s.before_bytes);
        let after_bytes = bytes(new);
        sized = Some(CachedBytes {
            before_bytes,
            after_bytes,
        });
    };
    for delta in deltas {
        let delta = delta.borrow();
        let notification = match delta.delta_type {
            DeltaType::Deleted => {
                let old = indexer.remove_object_keyed(&key_of(delta), &delta.object);
                saw(old.as_ref(), None);
                Some(Notification::Delete {
                    obj: delta.object.clone(),
                })
            }
            _ => delta.object.object().map(|obj| {
                let key = key_of(delta);
                let old = indexer.store_keyed(&key, obj);
                saw(old.as_ref(), Some(obj));
                upsert_notification(key, old, obj, is_in_initial_list)
            }),
        };
        notifications.extend(notification);
    }
    sized
}

/// Applies one item of an [`crate::informer::real_fifo::AtomicFifo`] to the cache (client-go
/// `tools/cache/controller.go` processDeltas): a single delta as [`process_deltas`]; `ReplacedAll`
/// as processReplacedAllInfo (the store is replaced first, then `Delete` tombstones for every
/// cached key not listed, then `Update`/`Add` per listed object in list order); `SyncAll` as an
/// `Update{obj, obj}` for every cached object (sorted by key; random order upstream); `Bookmark`
/// only records the resource version.
pub fn process_atomic_item(
    indexer: &mut Indexer,
    item: &AtomicItem,
    is_in_initial_list: bool,
) -> Vec<Notification> {
    match item {
        AtomicItem::Delta(delta) => process_deltas(indexer, [delta], is_in_initial_list),
        AtomicItem::ReplacedAll {
            resource_version,
            objects,
        } => process_replaced_all(indexer, objects, *resource_version, is_in_initial_list),
        AtomicItem::SyncAll => indexer
            .items
            .iter()
            .map(|(key, obj)| Notification::Update {
                key: key.clone(),
                old: ObjectRef::clone(obj),
                new: ObjectRef::clone(obj),
            })
            .collect(),
        AtomicItem::Bookmark { resource_version } => {
            indexer.bookmark(*resource_version);
            Vec::new()
        }
    }
}

/// Upstream processReplacedAllInfo (client-go `tools/cache/controller.go`), which reuses
/// reconcileReplacement (`tools/cache/the_real_fifo.go`) against the store.
fn process_replaced_all(
    indexer: &mut Indexer,
    objects: &[ObjectRef],
    resource_version: u64,
    is_in_initial_list: bool,
) -> Vec<Notification> {
    let listed: BTreeSet<Key> = objects.iter().map(|obj| obj.key()).collect();
    let deletions = indexer
        .list_keys()
        .into_iter()
        .filter(|key| !listed.contains(key))
        .map(|key| Notification::Delete {
            obj: DeltaObject::Tombstone(DeletedFinalStateUnknown {
                obj: indexer.get(&key),
                key,
            }),
        });
    let replacements = objects.iter().map(|obj| {
        upsert_notification(obj.key(), indexer.get_object(obj), obj, is_in_initial_list)
    });
    let notifications: Vec<Notification> = deletions.chain(replacements).collect();
    indexer.replace(objects.to_vec(), resource_version);
    notifications
}

/// The notification of a write that stored `obj` over `old` (client-go
/// `tools/cache/controller.go` processDeltas, `Sync`/`Replaced`/`Added`/`Updated`): an update of a
/// cached key, or an add of a new one.
fn upsert_notification(
    key: Key,
    old: Option<ObjectRef>,
    obj: &ObjectRef,
    is_in_initial_list: bool,
) -> Notification {
    match old {
        Some(old) => Notification::Update {
            key,
            old,
            new: ObjectRef::clone(obj),
        },
        None => Notification::Add {
            key,
            obj: ObjectRef::clone(obj),
            is_in_initial_list,
        },
    }
}

/// `process_deltas` for the single delta a [`crate::informer::real_fifo::RealFifo`] pops.
pub fn process_delta(
    indexer: &mut Indexer,
    delta: &Delta,
    is_in_initial_list: bool,
) -> Vec<Notification> {
    process_deltas(indexer, [delta], is_in_initial_list)
}
