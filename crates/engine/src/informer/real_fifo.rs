//! `RealFIFO`, the informer queue of client-go ≥ v0.33 (client-go `tools/cache/the_real_fifo.go`;
//! feature gate `InOrderInformers`, `tools/cache/controller.go` newQueueFIFO).
//!
//! Every event is one queued item, delivered strictly in arrival order: no per-key accumulation,
//! no deduplication, no filtering of deletes. Two modes, as upstream:
//! - [`RealFifo`] (non-atomic, `AtomicEvents: false`): a relist becomes tombstones followed by one
//!   `Replaced` delta per listed object; a resync one `Sync` per known key not queued.
//! - [`AtomicFifo`] (`AtomicEvents: true`, feature gate `AtomicFIFO`, beta and on in 1.36): a relist
//!   is a single [`AtomicItem::ReplacedAll`], a resync a single [`AtomicItem::SyncAll`], and
//!   bookmarks are queued as [`AtomicItem::Bookmark`]. Upstream this is a flag on one type; here it
//!   is a separate type because its items are not [`Delta`]s and it must not see known objects
//!   (upstream panics if both are configured).
//!
//! Deviations from upstream (single-threaded, deterministic engine): pops do not block and take no
//! callback (the caller processes what they return, see
//! [`crate::informer::indexer::process_deltas`]); no `Close`; no transformer; known objects are a
//! [`KnownObjects`] parameter; `UnlockWhileProcessingFIFO` has no effect without concurrency.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::informer::delta::{
    DeletedFinalStateUnknown, Delta, DeltaObject, DeltaType, IntoObjectRef,
};
pub use crate::informer::delta_fifo::KnownObjects;
use crate::key::Key;
use crate::object::ObjectRef;

/// The largest batch [`RealFifo::pop_batch`] forms in an informer (client-go
/// `tools/cache/the_real_fifo.go` `defaultBatchSize`).
pub const DEFAULT_BATCH_SIZE_ITEMS: usize = 1000;

/// The initial-population bookkeeping shared by both RealFIFO modes (client-go
/// `tools/cache/the_real_fifo.go` `populated`, `initialPopulationCount`, `checkSynced_locked`).
#[derive(Clone, Debug, Default)]
struct SyncTracker {
    /// Set by the first `Add`/`Update`/`Delete`/`Replace`.
    populated: bool,
    /// Items of the first `Replace` not yet popped.
    initial_population_count: usize,
    /// Latched once the initial population has been popped.
    synced: bool,
}

impl SyncTracker {
    /// A direct change marks the queue populated (upstream `Add`, `Update`, `Delete`).
    fn mark_populated(&mut self) {
        self.populated = true;
        self.check();
    }

    /// The first `Replace` sets the initial population to every item queued at that point
    /// (upstream `Replace`: `initialPopulationCount = len(f.items)`).
    fn after_replace(&mut self, queued_items: usize) {
        if !self.populated {
            self.populated = true;
            self.initial_population_count = queued_items;
            self.check();
        }
    }

    /// `popped` items left the queue (upstream `Pop`/`PopBatch` deferred decrement).
    fn popped(&mut self, popped: usize) {
        if self.initial_population_count > 0 {
            self.initial_population_count = self.initial_population_count.saturating_sub(popped);
            self.check();
        }
    }

    /// Removes the oldest of `items`, with whether it belonged to the initial list (upstream
    /// `Pop`: `isInInitialList` is read before the decrement).
    fn pop_front<T>(&mut self, items: &mut VecDeque<T>) -> Option<(T, bool)> {
        let is_in_initial_list = !self.synced;
        let item = items.pop_front()?;
        self.popped(1);
        Some((item, is_in_initial_list))
    }

    /// Removes the `count` oldest of `items` (upstream `PopBatch`).
    fn pop_batch<T>(&mut self, items: &mut VecDeque<T>, count: usize) -> Vec<T> {
        let batch: Vec<T> = items.drain(..count).collect();
        self.popped(batch.len());
        batch
    }

    /// Most items a batch may take: `max_items`, never crossing the end of the initial
    /// population.
    fn batch_limit(&self, max_items: usize) -> usize {
        match self.initial_population_count {
            0 => max_items,
            initial => max_items.min(initial),
        }
    }

    /// Upstream `checkSynced_locked`.
    fn check(&mut self) {
        if self.populated && self.initial_population_count == 0 {
            self.synced = true;
        }
    }
}

/// client-go's non-atomic `RealFIFO` (`tools/cache/the_real_fifo.go`): every event kept, in order.
#[derive(Clone, Debug, Default)]
pub struct RealFifo {
    /// Queued deltas, oldest first (`items`).
    items: VecDeque<Delta>,
    /// `HasSynced` bookkeeping.
    sync: SyncTracker,
}

impl RealFifo {
    /// An empty queue.
    pub fn new() -> RealFifo {
        RealFifo::default()
    }

    /// Queues an `Added` delta (client-go `tools/cache/the_real_fifo.go` `Add`).
    pub fn add(&mut self, obj: impl IntoObjectRef) {
        self.sync.mark_populated();
        self.push(DeltaType::Added, DeltaObject::Object(obj.into_object_ref()));
    }

    /// Queues an `Updated` delta (client-go `tools/cache/the_real_fifo.go` `Update`).
    pub fn update(&mut self, obj: impl IntoObjectRef) {
        self.sync.mark_populated();
        self.push(
            DeltaType::Updated,
            DeltaObject::Object(obj.into_object_ref()),
        );
    }

    /// Queues a `Deleted` delta — always: unlike `DeltaFIFO`, upstream `RealFIFO.Delete` does not
    /// consult the known objects, so `known` is unused and only keeps the signature the same as
    /// [`crate::informer::delta_fifo::DeltaFifo::delete`]. Returns true (a delta is always queued)
    /// (client-go `tools/cache/the_real_fifo.go` `Delete`).
    pub fn delete<K: KnownObjects + ?Sized>(
        &mut self,
        obj: impl Into<DeltaObject>,
        _known: &K,
    ) -> bool {
        self.sync.mark_populated();
        self.push(DeltaType::Deleted, obj.into());
        true
    }

    /// A relist (client-go `tools/cache/the_real_fifo.go` `Replace`, `reconcileReplacement`):
    /// first a `Deleted` tombstone for every queued key that is not listed and whose last queued
    /// delta is not already `Deleted` (carrying that delta's object), in first-queued order; then one
    /// for every known key neither listed nor queued (carrying the stored object); then `Replaced`
    /// for every listed object, in list order. The first call sets the initial population to
    /// everything queued. The resource version is unused in this mode, as upstream.
    pub fn replace<K: KnownObjects + ?Sized>(
        &mut self,
        objects: Vec<ObjectRef>,
        _resource_version: u64,
        known: &K,
    ) {
        let listed_keys: BTreeSet<Key> = objects.iter().map(|obj| obj.key()).collect();
        for tombstone in self.queued_tombstones(&listed_keys) {
            self.push(DeltaType::Deleted, DeltaObject::Tombstone(tombstone));
        }
        for tombstone in self.known_tombstones(&listed_keys, known) {
            self.push(DeltaType::Deleted, DeltaObject::Tombstone(tombstone));
        }
        for obj in objects {
            self.push(DeltaType::Replaced, DeltaObject::Object(obj));
        }
        self.sync.after_replace(self.items.len());
    }

    /// A periodic resync (client-go `tools/cache/the_real_fifo.go` `Resync`): a `Sync` delta with
    /// the stored object for every known key that has no item in the queue.
    pub fn resync<K: KnownObjects + ?Sized>(&mut self, known: &K) {
        let queued: BTreeSet<Key> = self.items.iter().map(Delta::key).collect();
        known.for_each_key(&mut |key| {
            if queued.contains(key) {
                return;
            }
            if let Some(obj) = known.get_by_key(key) {
                self.push(DeltaType::Sync, DeltaObject::Object(obj));
            }
        });
    }

    /// Removes and returns the oldest delta; `None` when empty (client-go
    /// `tools/cache/the_real_fifo.go` `Pop`, non-blocking here). Whether it belongs to the initial
    /// list is [`RealFifo::is_in_initial_list`] read *before* the pop, or use
    /// [`RealFifo::pop_with_initial_list`].
    pub fn pop(&mut self) -> Option<Delta> {
        self.pop_with_initial_list().map(|(delta, _)| delta)
    }

    /// [`RealFifo::pop`] with the `isInInitialList` flag upstream passes to the process function.
    pub fn pop_with_initial_list(&mut self) -> Option<(Delta, bool)> {
        self.sync.pop_front(&mut self.items)
    }

    /// Pops a batch of up to `max_items` deltas (at least one; 0 is treated as 1) for batch
    /// processing (client-go `tools/cache/the_real_fifo.go` `PopBatch`, feature gate
    /// `InOrderInformersBatchProcess`). The batch ends before the first delta whose key is already
    /// in it, and never crosses the end of the initial population, so
    /// [`RealFifo::is_in_initial_list`] read before the call holds for the whole batch. Empty when
    /// the queue is empty. (The spec, §2.3, omits the initial-population boundary; upstream has it.)
    pub fn pop_batch(&mut self, max_items: usize) -> Vec<Delta> {
        let count = self.batch_len(max_items.max(1));
        self.sync.pop_batch(&mut self.items, count)
    }

    /// [`RealFifo::pop_batch`] with the `isInInitialList` flag; `None` when empty.
    pub fn pop_batch_with_initial_list(&mut self, max_items: usize) -> Option<(Vec<Delta>, bool)> {
        let is_in_initial_list = self.is_in_initial_list();
        let batch = self.pop_batch(max_items);
        (!batch.is_empty()).then_some((batch, is_in_initial_list))
    }

    /// Whether the first `Replace` (or an earlier `Add`/`Update`/`Delete`) has been fully popped
    /// (client-go `tools/cache/the_real_fifo.go` `HasSynced`). Latches true.
    pub fn has_synced(&self) -> bool {
        self.sync.synced
    }

    /// Whether the next popped item belongs to the initial list: `!has_synced()`.
    pub fn is_in_initial_list(&self) -> bool {
        !self.sync.synced
    }

    /// The number of queued deltas.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The number of queued deltas (the same as [`RealFifo::len`]; named like
    /// [`crate::informer::delta_fifo::DeltaFifo::pending_deltas`] for memory accounting).
    pub fn pending_deltas(&self) -> usize {
        self.items.len()
    }

    /// The queued deltas, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &Delta> + '_ {
        self.items.iter()
    }

    /// The keys of the queued deltas in queue order, each once (first occurrence).
    pub fn list_keys(&self) -> Vec<Key> {
        let mut seen = BTreeSet::new();
        self.items
            .iter()
            .map(Delta::key)
            .filter(|key| seen.insert(key.clone()))
            .collect()
    }

    /// Appends one delta (client-go `tools/cache/the_real_fifo.go` `addToItems_locked`).
    fn push(&mut self, delta_type: DeltaType, object: DeltaObject) {
        self.items.push_back(Delta { delta_type, object });
    }

    /// Tombstones for queued keys that are not listed and whose last queued delta is not a
    /// deletion, in first-queued order (upstream `reconcileReplacement`, first loop).
    fn queued_tombstones(&self, listed_keys: &BTreeSet<Key>) -> Vec<DeletedFinalStateUnknown> {
        let last_by_key = self.last_queued_by_key();
        self.list_keys()
            .into_iter()
            .filter(|key| !listed_keys.contains(key))
            .filter_map(|key| {
                let last = last_by_key.get(&key)?;
                (last.delta_type != DeltaType::Deleted).then(|| DeletedFinalStateUnknown {
                    obj: last.object.object().cloned(),
                    key,
                })
            })
            .collect()
    }

    /// Tombstones for known keys that are neither listed nor queued, in `list_keys` order (upstream
    /// `reconcileReplacement`, second loop).
    fn known_tombstones<K: KnownObjects + ?Sized>(
        &self,
        listed_keys: &BTreeSet<Key>,
        known: &K,
    ) -> Vec<DeletedFinalStateUnknown> {
        let queued = self.last_queued_by_key();
        known
            .list_keys()
            .into_iter()
            .filter(|key| !listed_keys.contains(key) && !queued.contains_key(key))
            .map(|key| DeletedFinalStateUnknown {
                obj: known.get_by_key(&key),
                key,
            })
            .collect()
    }

    /// The last queued delta of every queued key.
    fn last_queued_by_key(&self) -> BTreeMap<Key, &Delta> {
        // inserted one by one, a later delta of a key replacing an earlier one, as collecting
        // would (without a sort compiled for the pairs)
        let mut last = BTreeMap::new();
        for delta in &self.items {
            last.insert(delta.key(), delta);
        }
        last
    }

    /// How many leading deltas form the next batch (upstream `PopBatch` loop).
    fn batch_len(&self, max_items: usize) -> usize {
        let limit = self.sync.batch_limit(max_items);
        let mut keys = BTreeSet::new();
        self.items
            .iter()
            .take(limit)
            .take_while(|delta| keys.insert(delta.key()))
            .count()
    }
}

/// One item of an [`AtomicFifo`]: a single event, or one of the atomic items client-go 1.36 adds
/// (client-go `tools/cache/the_real_fifo.go`, `tools/cache/delta_fifo.go` `ReplacedAll`, `SyncAll`,
/// `Bookmark`, `ReplacedAllInfo`, `BookmarkInfo`, `SyncAllInfo`).
#[derive(Clone, Debug, PartialEq)]
pub enum AtomicItem {
    /// An `Added`, `Updated` or `Deleted` event.
    Delta(Delta),
    /// A whole relist as one item (`ReplacedAll` with `ReplacedAllInfo`).
    ReplacedAll {
        /// The list's resource version.
        resource_version: u64,
        /// The listed objects, in list order.
        objects: Vec<ObjectRef>,
    },
    /// A resync of every stored object as one item (`SyncAll`).
    SyncAll,
    /// A watch bookmark that only moves the store's resource version (`Bookmark`).
    Bookmark {
        /// The bookmark's resource version.
        resource_version: u64,
    },
}

/// client-go's `RealFIFO` with `AtomicEvents: true` and `EmitDeltaTypeBookmark: true`, the 1.36
/// informer default (client-go `tools/cache/the_real_fifo.go`; `tools/cache/controller.go`
/// newQueueFIFO). It has no known objects: a relist and a resync are single items that the
/// consumer reconciles against its store (see
/// [`crate::informer::indexer::process_atomic_item`]).
#[derive(Clone, Debug, Default)]
pub struct AtomicFifo {
    /// Queued items, oldest first.
    items: VecDeque<AtomicItem>,
    /// `HasSynced` bookkeeping.
    sync: SyncTracker,
}

impl AtomicFifo {
    /// An empty queue.
    pub fn new() -> AtomicFifo {
        AtomicFifo::default()
    }

    /// Queues an `Added` delta (client-go `tools/cache/the_real_fifo.go` `Add`).
    pub fn add(&mut self, obj: impl IntoObjectRef) {
        self.sync.mark_populated();
        self.push_delta(DeltaType::Added, DeltaObject::Object(obj.into_object_ref()));
    }

    /// Queues an `Updated` delta (client-go `tools/cache/the_real_fifo.go` `Update`).
    pub fn update(&mut self, obj: impl IntoObjectRef) {
        self.sync.mark_populated();
        self.push_delta(
            DeltaType::Updated,
            DeltaObject::Object(obj.into_object_ref()),
        );
    }

    /// Queues a `Deleted` delta, always (client-go `tools/cache/the_real_fifo.go` `Delete`).
    pub fn delete(&mut self, obj: impl Into<DeltaObject>) {
        self.sync.mark_populated();
        self.push_delta(DeltaType::Deleted, obj.into());
    }

    /// Queues one `ReplacedAll` item holding the whole list (client-go
    /// `tools/cache/the_real_fifo.go` `Replace`, `addReplaceToItemsLocked`). The first call sets
    /// the initial population to everything queued.
    pub fn replace(&mut self, objects: Vec<ObjectRef>, resource_version: u64) {
        self.items.push_back(AtomicItem::ReplacedAll {
            resource_version,
            objects,
        });
        self.sync.after_replace(self.items.len());
    }

    /// Queues one `SyncAll` item (client-go `tools/cache/the_real_fifo.go` `Resync`,
    /// `addResyncToItemsLocked`).
    pub fn resync(&mut self) {
        self.items.push_back(AtomicItem::SyncAll);
    }

    /// Queues a `Bookmark` item (client-go `tools/cache/the_real_fifo.go` `Bookmark`).
    pub fn bookmark(&mut self, resource_version: u64) {
        self.items
            .push_back(AtomicItem::Bookmark { resource_version });
    }

    /// Removes and returns the oldest item; `None` when empty (client-go
    /// `tools/cache/the_real_fifo.go` `Pop`, non-blocking here).
    pub fn pop(&mut self) -> Option<AtomicItem> {
        self.pop_with_initial_list().map(|(item, _)| item)
    }

    /// [`AtomicFifo::pop`] with the `isInInitialList` flag.
    pub fn pop_with_initial_list(&mut self) -> Option<(AtomicItem, bool)> {
        self.sync.pop_front(&mut self.items)
    }

    /// Pops up to `max_items` items (at least one): a run of single deltas with distinct keys, or a
    /// lone non-batchable item, never crossing the initial population (client-go
    /// `tools/cache/the_real_fifo.go` `PopBatch`). Empty when the queue is empty.
    pub fn pop_batch(&mut self, max_items: usize) -> Vec<AtomicItem> {
        let count = self.batch_len(max_items.max(1));
        self.sync.pop_batch(&mut self.items, count)
    }

    /// The items [`AtomicFifo::pop_batch`] would pop next, without popping them.
    pub fn peek_batch(&self, max_items: usize) -> impl Iterator<Item = &AtomicItem> + '_ {
        self.items.iter().take(self.batch_len(max_items.max(1)))
    }

    /// Whether the first `Replace` (or an earlier `Add`/`Update`/`Delete`) has been popped
    /// (client-go `tools/cache/the_real_fifo.go` `HasSynced`).
    pub fn has_synced(&self) -> bool {
        self.sync.synced
    }

    /// Whether the next popped item belongs to the initial list: `!has_synced()`.
    pub fn is_in_initial_list(&self) -> bool {
        !self.sync.synced
    }

    /// The number of queued items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The queued items, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &AtomicItem> + '_ {
        self.items.iter()
    }

    /// Appends one delta item.
    fn push_delta(&mut self, delta_type: DeltaType, object: DeltaObject) {
        self.items
            .push_back(AtomicItem::Delta(Delta { delta_type, object }));
    }

    /// How many leading items form the next batch (upstream `PopBatch` loop).
    fn batch_len(&self, max_items: usize) -> usize {
        let limit = self.sync.batch_limit(max_items);
        let mut keys = BTreeSet::new();
        let mut count = 0;
        for item in self.items.iter().take(limit) {
            let AtomicItem::Delta(delta) = item else {
                return if count == 0 { 1 } else { count };
            };
            if !keys.insert(delta.key()) {
                break;
            }
            count += 1;
        }
        count
    }
}

impl crate::sim::large::LargeParts for RealFifo {
    /// The events in arrival order.
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn crate::sim::large::Large>) {
        out.push(&mut self.items);
    }
}

impl crate::sim::large::LargeParts for AtomicFifo {
    /// The items in arrival order.
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn crate::sim::large::Large>) {
        out.push(&mut self.items);
    }
}
