//! `DeltaFIFO`, the informer queue of client-go ≤ v0.32 (client-go `tools/cache/delta_fifo.go`).
//!
//! Each key has one accumulator of [`Delta`]s and one place in a FIFO of keys: changes to an object
//! that is already queued are appended to its accumulator and the key keeps its original position
//! ("no line jumping"). A [`DeltaFifo::pop`] hands over every delta of the oldest key at once.
//!
//! Deviations from upstream, all forced by the engine being single-threaded and deterministic:
//! - [`DeltaFifo::pop`] does not block and takes no process callback: it returns `None` when the
//!   queue is empty, and the caller processes the returned deltas itself (upstream processes them
//!   under the queue lock, which is equivalent when nothing runs concurrently). `Close` and
//!   `IsClosed` therefore do not exist.
//! - The known objects (the informer's indexer) are passed to [`DeltaFifo::delete`],
//!   [`DeltaFifo::replace`] and [`DeltaFifo::resync`] as a [`KnownObjects`] parameter instead of
//!   being held by the queue.
//! - Iteration over Go maps (upstream `Replace` walks `items` in random order) is replaced by queue
//!   order and by the order of [`KnownObjects::list_keys`] (sorted keys for the indexer).
//! - There is no transformer (`TransformFunc`) and no key function: keys are always
//!   `MetaNamespaceKeyFunc` ([`crate::object::Object::key`]) or a tombstone's key.

use std::collections::{BTreeMap, VecDeque};

use crate::informer::delta::{
    deltas_size_bytes, DeletedFinalStateUnknown, Delta, DeltaObject, DeltaType, IntoObjectRef,
};
use crate::informer::deltas::Deltas;
use crate::key::Key;
use crate::object::ObjectRef;
use crate::sim::seq_index::{position, Place, SeqIndex};
use crate::workqueue::set::hash_of as hash_key;

/// The objects the consumer of a FIFO already knows: the informer's indexer (client-go
/// `tools/cache/delta_fifo.go` `KeyListerGetter`). It changes what `Delete`, `Replace` and `Resync`
/// do.
pub trait KnownObjects {
    /// The stored object under `key`, if any (`KeyGetter.GetByKey`).
    fn get_by_key(&self, key: &str) -> Option<ObjectRef>;
    /// Every stored key (`KeyLister.ListKeys`); the order is the order in which the FIFOs emit
    /// tombstones and syncs, so it must be deterministic.
    fn list_keys(&self) -> Vec<Key>;

    /// Visits every stored key in [`KnownObjects::list_keys`] order, without collecting them
    /// (a relist of a large cache visits them all).
    fn for_each_key(&self, visit: &mut dyn FnMut(&Key)) {
        for key in self.list_keys() {
            visit(&key);
        }
    }
}

/// No known objects: client-go's `knownObjects == nil` (client-go `tools/cache/delta_fifo.go`).
/// With it, `Delete` only checks queued items, `Replace` only tombstones queued keys and `Resync`
/// does nothing — exactly the upstream nil behaviour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoKnownObjects;

impl KnownObjects for NoKnownObjects {
    /// Always `None`.
    fn get_by_key(&self, _key: &str) -> Option<ObjectRef> {
        None
    }

    /// Always empty.
    fn list_keys(&self) -> Vec<Key> {
        Vec::new()
    }
}

impl KnownObjects for BTreeMap<Key, ObjectRef> {
    /// The object stored under `key`.
    fn get_by_key(&self, key: &str) -> Option<ObjectRef> {
        self.get(key).cloned()
    }

    /// The map's keys, sorted.
    fn list_keys(&self) -> Vec<Key> {
        self.keys().cloned().collect()
    }

    fn for_each_key(&self, visit: &mut dyn FnMut(&Key)) {
        self.keys().for_each(visit);
    }
}

/// What a pop hands over: the key, its accumulated deltas (oldest first) and whether they belong to
/// the initial list (client-go `tools/cache/delta_fifo.go` `Pop`, `PopProcessFunc`).
#[derive(Clone, Debug, PartialEq)]
pub struct PoppedDeltas {
    /// The informer key.
    pub key: Key,
    /// Every delta queued for the key, oldest first; never empty.
    pub deltas: Deltas,
    /// True while the FIFO has not synced: the item was queued by the first `Replace`.
    pub is_in_initial_list: bool,
}

/// client-go's `DeltaFIFO` (`tools/cache/delta_fifo.go`): a FIFO of keys, each holding the deltas
/// that happened to its object since it was last popped.
///
/// Invariant (as upstream): a key is in the key queue exactly once iff it has a non-empty
/// accumulator. Upstream keeps the accumulators in a map beside the queue of keys; here each
/// accumulator sits in the queue with its key, and an index gives a key's place in the queue
/// (the sequence number of its slot, [`SeqIndex`]). A Pop takes the head slot, and its key's
/// place goes with it, as upstream's `Pop` deletes the key from `items` (the index empties the
/// bucket the slot's place was put in, [`Place`]).
#[derive(Clone, Debug)]
pub struct DeltaFifo {
    /// The place of every queued key (`items`): the sequence number of its queue slot.
    items: SeqIndex,
    /// Keys in pop order, each at most once, with their deltas (`queue`).
    queue: VecDeque<Slot>,
    /// The sequence number of the queue's head slot.
    head_seq: u64,
    /// The greatest key queued since the queue was last empty: no queued key is greater.
    greatest: Option<Key>,
    /// Set by the first `Add`/`Update`/`Delete`/`Replace` (`populated`).
    populated: bool,
    /// Items of the first `Replace` not yet popped (`initialPopulationCount`).
    initial_population_count: usize,
    /// Latched once the initial population has been popped (`syncedClosed`).
    synced: bool,
    /// Emit `Replaced` (true) or `Sync` (false) from `Replace` (`emitDeltaTypeReplaced`).
    emit_delta_type_replaced: bool,
    /// Deltas held over all keys (kept so that reading it is O(1)).
    pending: usize,
}

impl Default for DeltaFifo {
    /// Same as [`DeltaFifo::new`].
    fn default() -> DeltaFifo {
        DeltaFifo::new()
    }
}

impl DeltaFifo {
    /// An empty queue that emits `Replaced` from `Replace`, as informers configure it
    /// (`EmitDeltaTypeReplaced: true` in client-go `tools/cache/controller.go` newQueueFIFO).
    pub fn new() -> DeltaFifo {
        DeltaFifo::with_emit_delta_type_replaced(true)
    }

    /// An empty queue; `false` reproduces the legacy default of `NewDeltaFIFOWithOptions`, where
    /// `Replace` emits `Sync` deltas (client-go `tools/cache/delta_fifo.go`).
    pub fn with_emit_delta_type_replaced(emit_delta_type_replaced: bool) -> DeltaFifo {
        DeltaFifo {
            items: SeqIndex::default(),
            queue: VecDeque::new(),
            head_seq: 0,
            greatest: None,
            populated: false,
            initial_population_count: 0,
            synced: false,
            emit_delta_type_replaced,
            pending: 0,
        }
    }

    /// Queues an `Added` delta (client-go `tools/cache/delta_fifo.go` `Add`).
    pub fn add(&mut self, obj: impl IntoObjectRef) {
        self.mark_populated();
        self.queue_action(DeltaType::Added, DeltaObject::Object(obj.into_object_ref()));
    }

    /// Queues an `Updated` delta (client-go `tools/cache/delta_fifo.go` `Update`).
    pub fn update(&mut self, obj: impl IntoObjectRef) {
        self.mark_populated();
        self.queue_action(
            DeltaType::Updated,
            DeltaObject::Object(obj.into_object_ref()),
        );
    }

    /// Queues a `Deleted` delta, unless the key is neither known nor queued — then the deletion was
    /// already reported (e.g. by a relist) and is ignored. Returns whether a delta was queued
    /// (client-go `tools/cache/delta_fifo.go` `Delete`).
    pub fn delete<K: KnownObjects + ?Sized>(
        &mut self,
        obj: impl Into<DeltaObject>,
        known: &K,
    ) -> bool {
        let obj = obj.into();
        let key = obj.key();
        self.mark_populated();
        if known.get_by_key(&key).is_none() && !self.is_queued(&key) {
            return false;
        }
        self.queue_action(DeltaType::Deleted, obj);
        true
    }

    /// A relist (client-go `tools/cache/delta_fifo.go` `Replace`): queues `Replaced` (or `Sync`,
    /// see [`DeltaFifo::with_emit_delta_type_replaced`]) for every listed object, then a `Deleted`
    /// tombstone for every queued key that is not listed (carrying its newest queued object), then
    /// one for every known key that is neither listed nor queued (carrying the stored object).
    /// The first call (before any other change) sets the initial population that
    /// [`DeltaFifo::has_synced`] waits for: the number of distinct listed keys plus the tombstones.
    /// The resource version is unused, as upstream.
    ///
    /// Upstream counts distinct listed keys (`keys.Len()`), not `len(list)`; the two differ only
    /// for a list with duplicate keys (`docs/behaviour.md` §2.2).
    pub fn replace<K: KnownObjects + ?Sized>(
        &mut self,
        objects: Vec<ObjectRef>,
        _resource_version: u64,
        known: &K,
    ) {
        let mut replace = self.begin_replace();
        self.replace_part(&mut replace, objects);
        self.finish_replace(replace, known);
    }

    /// Starts a [`DeltaFifo::replace`] whose LIST is queued in parts
    /// ([`DeltaFifo::replace_part`], then [`DeltaFifo::finish_replace`]). Nothing else may touch
    /// the queue between the parts; then the result is that of one `Replace`.
    pub fn begin_replace(&self) -> PartialReplace {
        PartialReplace {
            queued_before: self.queue.len(),
            listed_keys: Vec::new(),
        }
    }

    /// Makes room for `additional` more queued keys at once: a LIST of `additional` objects
    /// queued in parts then never rehashes the index of places inside one part.
    pub fn reserve(&mut self, additional: usize) {
        let (queue, head_seq) = (&self.queue, self.head_seq);
        self.items
            .reserve(additional, head_seq, |seq| slot_hash(queue, head_seq, seq));
        self.queue.reserve(additional);
    }

    /// Queues one part of a LIST, in list order: a `Replaced` (or `Sync`) delta per object.
    pub fn replace_part(&mut self, replace: &mut PartialReplace, objects: Vec<ObjectRef>) {
        let action = self.replace_action();
        if replace.queued_before == 0 {
            // Nothing queued before this LIST, so nothing queued can be unlisted.
            self.queue_listing_into_empty(objects, action);
            return;
        }
        for obj in objects {
            let key = obj.key();
            replace.listed_keys.push(key.clone());
            self.queue_action_keyed(key, action, DeltaObject::Object(obj));
        }
    }

    /// Ends a [`DeltaFifo::replace`]: tombstones what the LIST did not list, and sets the initial
    /// population on the first call.
    pub fn finish_replace<K: KnownObjects + ?Sized>(&mut self, replace: PartialReplace, known: &K) {
        let (listed, unlisted_queued) = if replace.queued_before == 0 {
            (self.queue.len(), 0)
        } else {
            // keys queued before this LIST are the only ones that can be unlisted: the LIST's own
            // keys went to the back of the queue. A LIST comes in key order, so the sort only
            // checks it. The stable sort, as the indexer's set of listed keys is collected (the
            // module compiles one sort of keys, not two; the keys are distinct once deduplicated).
            let mut keys = replace.listed_keys;
            keys.sort();
            keys.dedup();
            let keys = ListedKeys(keys);
            let unlisted = self.tombstone_unlisted_queued(&keys, replace.queued_before);
            (keys.len(), unlisted)
        };
        // Every listed key is now in `items`, so a known key missing from `items` was not listed.
        let queued_deletions = unlisted_queued + self.tombstone_unlisted_known(known);
        if !self.populated {
            self.populated = true;
            self.initial_population_count = listed + queued_deletions;
            self.check_synced();
        }
    }

    /// Queues a part of a LIST into a queue that was empty when the LIST began (the relist of a
    /// restarted informer). A part in strict key order above every key queued so far, as the
    /// API server sends a LIST, is built in one pass and appended; otherwise each object is
    /// queued as `queueActionLocked` does. Either way the result is one `queueActionLocked` per
    /// object, in list order.
    fn queue_listing_into_empty(&mut self, objects: Vec<ObjectRef>, action: DeltaType) {
        let keyed: Vec<(Key, ObjectRef)> = objects.into_iter().map(|o| (o.key(), o)).collect();
        // No queued key is above `greatest`, so a part above it holds only new keys.
        let after_queued = match (&self.greatest, keyed.first()) {
            (Some(greatest), Some((first, _))) => greatest < first,
            _ => true,
        };
        if !after_queued || !keyed.windows(2).all(|w| w[0].0 < w[1].0) {
            for (key, obj) in keyed {
                self.queue_action_keyed(key, action, DeltaObject::Object(obj));
            }
            return;
        }
        self.pending += keyed.len();
        self.reserve(keyed.len());
        for (key, obj) in keyed {
            let delta = Delta {
                delta_type: action,
                object: DeltaObject::Object(obj),
            };
            self.push_slot(key, delta);
        }
    }

    /// A periodic resync (client-go `tools/cache/delta_fifo.go` `Resync`, `syncKeyLocked`): queues
    /// a `Sync` delta with the stored object for every known key that has no queued deltas (a key
    /// with queued deltas is skipped so the resync cannot deliver an older state).
    pub fn resync<K: KnownObjects + ?Sized>(&mut self, known: &K) {
        known.for_each_key(&mut |key| {
            let Some(obj) = known.get_by_key(key) else {
                return;
            };
            if self.is_queued(&obj.key()) {
                return;
            }
            self.queue_action(DeltaType::Sync, DeltaObject::Object(obj));
        });
    }

    /// Removes the oldest key and returns it with all its deltas, oldest first; `None` when empty
    /// (client-go `tools/cache/delta_fifo.go` `Pop`, non-blocking here). Whether the item belongs to
    /// the initial list is [`DeltaFifo::is_in_initial_list`] read *before* the pop, or use
    /// [`DeltaFifo::pop_deltas`].
    pub fn pop(&mut self) -> Option<(Key, Vec<Delta>)> {
        self.pop_deltas()
            .map(|popped| (popped.key, popped.deltas.into_vec()))
    }

    /// [`DeltaFifo::pop`] with the `isInInitialList` flag that upstream passes to the process
    /// function (client-go `tools/cache/delta_fifo.go` `Pop`).
    pub fn pop_deltas(&mut self) -> Option<PoppedDeltas> {
        let is_in_initial_list = self.is_in_initial_list();
        let Slot {
            key, deltas, place, ..
        } = self.queue.pop_front()?;
        self.head_seq += 1;
        self.items.remove_head(place, self.head_seq);
        if self.initial_population_count > 0 {
            self.initial_population_count -= 1;
            self.check_synced();
        }
        if self.queue.is_empty() {
            self.greatest = None;
        }
        self.pending = self.pending.saturating_sub(deltas.len());
        Some(PoppedDeltas {
            key,
            deltas,
            is_in_initial_list,
        })
    }

    /// Whether the first `Replace` (or an earlier `Add`/`Update`/`Delete`) has been fully popped
    /// (client-go `tools/cache/delta_fifo.go` `HasSynced`). Latches true.
    pub fn has_synced(&self) -> bool {
        self.synced
    }

    /// Whether the next popped item belongs to the initial list: `!has_synced()` (client-go
    /// `tools/cache/delta_fifo.go` `Pop`, `isInInitialList`).
    pub fn is_in_initial_list(&self) -> bool {
        !self.synced
    }

    /// The number of queued keys.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Whether no key is queued.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// The total number of queued deltas over all keys (for memory accounting).
    pub fn pending_deltas(&self) -> usize {
        self.pending
    }

    /// The key that would pop next and its deltas, without popping.
    pub fn peek(&self) -> Option<(&str, &[Delta])> {
        let slot = self.queue.front()?;
        Some((slot.key.as_str(), slot.deltas.as_slice()))
    }

    /// The bytes the deltas that would pop next keep alive ([`deltas_size_bytes`]), kept as they
    /// are queued so that reading it touches no object.
    pub fn peek_size_bytes(&self) -> Option<u64> {
        self.queue.front().map(|slot| slot.size_bytes)
    }

    /// The queued deltas by key in pop order, consuming the queue without building a map: how a
    /// dead process's queue is handed over to be freed in parts.
    pub fn into_queued(self) -> Vec<(Key, Deltas)> {
        self.queue
            .into_iter()
            .map(|slot| (slot.key, slot.deltas))
            .collect()
    }

    /// The queued keys in pop order (client-go `tools/cache/delta_fifo_test.go` `listKeys`).
    pub fn list_keys(&self) -> Vec<Key> {
        self.queue.iter().map(|slot| slot.key.clone()).collect()
    }

    /// The deltas queued for `key`, oldest first (client-go `tools/cache/delta_fifo_test.go`
    /// `getByKey`).
    pub fn get_by_key(&self, key: &str) -> Option<&[Delta]> {
        self.slot(key).map(Deltas::as_slice)
    }

    /// The newest delta object of every queued key, in pop order (client-go
    /// `tools/cache/delta_fifo_test.go` `list`).
    pub fn list(&self) -> Vec<DeltaObject> {
        self.queue
            .iter()
            .filter_map(|slot| slot.deltas.last())
            .map(|delta| delta.object.clone())
            .collect()
    }

    /// The deltas queued for `key`, found through its place in the queue.
    fn slot(&self, key: &str) -> Option<&Deltas> {
        let index = self.place(key)?;
        self.queue.get(index).map(|slot| &slot.deltas)
    }

    /// The position in `queue` of `key`'s slot, if it is queued.
    fn place(&self, key: &str) -> Option<usize> {
        self.place_hashed(hash_key(key), key)
    }

    /// [`DeltaFifo::place`] of `key`, whose hash is `hash`.
    fn place_hashed(&self, hash: u64, key: &str) -> Option<usize> {
        let (queue, head_seq) = (&self.queue, self.head_seq);
        let is_it =
            |seq| slot_at(queue, head_seq, seq).is_some_and(|slot| slot.key.as_str() == key);
        let seq = self.items.find(hash, is_it)?;
        position(seq, head_seq)
    }

    /// Whether `key` has queued deltas.
    fn is_queued(&self, key: &str) -> bool {
        self.place(key).is_some()
    }

    /// Queues `key` at the tail with its first delta (the key must not be queued).
    fn push_slot(&mut self, key: Key, delta: Delta) {
        let hash = hash_key(&key);
        self.append_slot(key, hash, delta);
    }

    /// Appends `key`'s slot (hash `hash`) at the tail and gives it its place in `items`.
    fn append_slot(&mut self, key: Key, hash: u64, delta: Delta) {
        let (queue, head_seq) = (&self.queue, self.head_seq);
        let tail_seq = head_seq + queue.len() as u64;
        let place = self.items.insert(hash, tail_seq, head_seq, |seq| {
            slot_hash(queue, head_seq, seq)
        });
        if self
            .greatest
            .as_ref()
            .is_none_or(|greatest| *greatest < key)
        {
            self.greatest = Some(key.clone());
        }
        self.queue.push_back(Slot {
            key,
            hash,
            place,
            size_bytes: delta.size_bytes(),
            deltas: Deltas::one(delta),
        });
    }

    /// `Replaced` or, in legacy mode, `Sync` (client-go `tools/cache/delta_fifo.go` `Replace`).
    fn replace_action(&self) -> DeltaType {
        if self.emit_delta_type_replaced {
            DeltaType::Replaced
        } else {
            DeltaType::Sync
        }
    }

    /// Tombstones every queued key that is not listed; returns how many (client-go
    /// `tools/cache/delta_fifo.go` `Replace`, "deletion detection against objects in the queue").
    fn tombstone_unlisted_queued(
        &mut self,
        listed_keys: &ListedKeys,
        queued_before: usize,
    ) -> usize {
        let unlisted: Vec<Key> = self
            .queue
            .iter()
            .take(queued_before)
            .map(|slot| &slot.key)
            .filter(|key| !listed_keys.contains(key))
            .cloned()
            .collect();
        for key in &unlisted {
            let newest = self.newest_object(key);
            self.queue_tombstone(key.clone(), newest);
        }
        unlisted.len()
    }

    /// Tombstones every known key that is neither listed nor queued; returns how many (client-go
    /// `tools/cache/delta_fifo.go` `Replace`, "objects not present in the queue").
    fn tombstone_unlisted_known<K: KnownObjects + ?Sized>(&mut self, known: &K) -> usize {
        let mut count = 0;
        known.for_each_key(&mut |key| {
            if self.is_queued(key) {
                return;
            }
            let stored = known.get_by_key(key);
            self.queue_tombstone(key.clone(), stored);
            count += 1;
        });
        count
    }

    /// The object of the newest queued delta for `key`, unwrapping a tombstone (client-go
    /// `tools/cache/delta_fifo.go` `Replace`).
    fn newest_object(&self, key: &str) -> Option<ObjectRef> {
        let newest = self.slot(key)?.last()?;
        newest.object.object().cloned()
    }

    /// Queues `Deleted(DeletedFinalStateUnknown{key, obj})`.
    fn queue_tombstone(&mut self, key: Key, obj: Option<ObjectRef>) {
        let tombstone = DeletedFinalStateUnknown { key, obj };
        self.queue_action(DeltaType::Deleted, DeltaObject::Tombstone(tombstone));
    }

    /// Appends a delta to its key's accumulator, deduplicates, and queues the key if it was not
    /// queued (client-go `tools/cache/delta_fifo.go` `queueActionInternalLocked`).
    fn queue_action(&mut self, delta_type: DeltaType, object: DeltaObject) {
        self.queue_action_keyed(object.key(), delta_type, object);
    }

    /// [`DeltaFifo::queue_action`] with the object's key already computed.
    fn queue_action_keyed(&mut self, key: Key, delta_type: DeltaType, object: DeltaObject) {
        let delta = Delta { delta_type, object };
        // The key hashed once: for its place, and kept by a new slot.
        let hash = hash_key(&key);
        match self
            .place_hashed(hash, &key)
            .and_then(|i| self.queue.get_mut(i))
        {
            Some(slot) => {
                let before = slot.deltas.len();
                let added_bytes = delta.size_bytes();
                slot.deltas.push_deduped(delta);
                slot.size_bytes = if slot.deltas.len() > before {
                    slot.size_bytes + added_bytes
                } else {
                    deltas_size_bytes(&slot.deltas)
                };
                self.pending = self.pending + slot.deltas.len() - before;
            }
            None => {
                self.pending += 1;
                self.append_slot(key, hash, delta);
            }
        }
    }

    /// Marks the queue populated by a direct change (client-go `tools/cache/delta_fifo.go` `Add`,
    /// `Update`, `Delete`).
    fn mark_populated(&mut self) {
        self.populated = true;
        self.check_synced();
    }

    /// Latches `synced` once populated and the initial population is popped (client-go
    /// `tools/cache/delta_fifo.go` `checkSynced_locked`).
    fn check_synced(&mut self) {
        if self.populated && self.initial_population_count == 0 {
            self.synced = true;
        }
    }
}

/// One queued key with its deltas, oldest first, and the bytes they keep alive.
#[derive(Clone, Debug)]
struct Slot {
    key: Key,
    /// The key's hash, by which the slot's place is in `items`.
    hash: u64,
    /// Its place's bucket in `items`.
    place: Place,
    deltas: Deltas,
    size_bytes: u64,
}

/// The slot of sequence number `seq` in `queue`, whose head slot has `head_seq`.
fn slot_at(queue: &VecDeque<Slot>, head_seq: u64, seq: u64) -> Option<&Slot> {
    queue.get(position(seq, head_seq)?)
}

/// The hash kept by the slot of sequence number `seq` (every sequence number in `items` has
/// its slot).
fn slot_hash(queue: &VecDeque<Slot>, head_seq: u64, seq: u64) -> u64 {
    slot_at(queue, head_seq, seq).map_or(0, |slot| slot.hash)
}

/// A `Replace` in progress (see [`DeltaFifo::begin_replace`]).
#[derive(Clone, Debug)]
pub struct PartialReplace {
    queued_before: usize,
    listed_keys: Vec<Key>,
}

/// The keys of a LIST, sorted, for the deletion detection of `Replace`.
struct ListedKeys(Vec<Key>);

impl ListedKeys {
    fn contains(&self, key: &Key) -> bool {
        self.0.binary_search(key).is_ok()
    }

    fn len(&self) -> usize {
        self.0.len()
    }
}

impl crate::sim::large::LargeParts for DeltaFifo {
    /// The queue of slots: 150 000 keys at the incident's scale. The index of their places
    /// holds no key and is copied as one block with the rest.
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn crate::sim::large::Large>) {
        out.push(&mut self.queue);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::object::Object;

    fn obj(name: &str, rv: u64) -> ObjectRef {
        let mut o = Object::new("Widget", "", name);
        o.metadata.resource_version = rv;
        ObjectRef::new(o)
    }

    fn rvs(deltas: &[Delta]) -> Vec<u64> {
        deltas.iter().map(|d| d.object.resource_version()).collect()
    }

    #[test]
    fn a_key_queued_after_pops_keeps_its_deltas_in_its_own_slot_and_the_head_is_peeked() {
        let mut f = DeltaFifo::new();
        f.add(obj("a", 1));
        f.add(obj("b", 2));
        f.pop();
        f.add(obj("c", 3));
        f.update(obj("a", 4));
        f.update(obj("c", 5));
        assert_eq!(f.peek().map(|(k, d)| (k, rvs(d))), Some(("b", vec![2])));
        assert_eq!(f.get_by_key("c").map(rvs), Some(vec![3, 5]));
        assert_eq!(f.get_by_key("a").map(rvs), Some(vec![4]));
        let order: Vec<(Key, Vec<u64>)> = std::iter::from_fn(|| f.pop())
            .map(|(k, d)| (k, rvs(&d)))
            .collect();
        assert_eq!(
            order,
            vec![
                (Key::from("b"), vec![2]),
                (Key::from("c"), vec![3, 5]),
                (Key::from("a"), vec![4]),
            ]
        );
        assert_eq!(f.pending_deltas(), 0);
    }

    #[test]
    fn a_listing_into_a_queue_drained_between_parts_queues_every_key_in_list_order() {
        let mut f = DeltaFifo::new();
        let mut replace = f.begin_replace();
        f.replace_part(&mut replace, vec![obj("b", 1), obj("d", 2)]);
        f.pop();
        f.pop();
        f.replace_part(&mut replace, vec![obj("a", 3), obj("c", 4)]);
        f.replace_part(&mut replace, vec![obj("e", 5)]);
        f.finish_replace(replace, &NoKnownObjects);
        let keys: Vec<Key> = f.list_keys();
        assert_eq!(keys, ["a", "c", "e"].map(Key::from).to_vec());
        assert_eq!(f.get_by_key("c").map(rvs), Some(vec![4]));
        let queued: Vec<Key> = f.into_queued().into_iter().map(|(k, _)| k).collect();
        assert_eq!(queued, keys);
    }

    #[test]
    fn the_head_byte_total_follows_its_deltas_through_updates_and_a_collapsed_double_delete() {
        let sized = |name: &str, rv: u64, size_bytes: u64| {
            let mut o = Object::new("Widget", "", name);
            o.metadata.resource_version = rv;
            o.size_bytes = size_bytes;
            ObjectRef::new(o)
        };
        let mut f = DeltaFifo::new();
        assert_eq!(f.peek_size_bytes(), None);
        f.add(sized("a", 1, 100));
        f.update(sized("a", 2, 250));
        f.add(sized("b", 3, 40));
        assert_eq!(f.peek_size_bytes(), Some(350));
        f.delete(sized("a", 4, 300), &NoKnownObjects);
        let stone = DeletedFinalStateUnknown {
            key: Key::from("a"),
            obj: None,
        };
        f.delete(DeltaObject::Tombstone(stone), &NoKnownObjects);
        let (_, head) = f.peek().expect("a is queued");
        assert_eq!(head.len(), 3, "the tombstone collapsed into the delete");
        assert_eq!(f.peek_size_bytes(), Some(deltas_size_bytes(head)));
        assert_eq!(f.peek_size_bytes(), Some(650));
        f.pop();
        assert_eq!(f.peek_size_bytes(), Some(40));
    }

    #[test]
    fn a_popped_key_is_no_longer_queued_and_few_places_outlive_the_pops() {
        let mut f = DeltaFifo::new();
        for round in 0..20u64 {
            for i in 0..1000u64 {
                f.add(obj(&format!("k{round}-{i}"), i + 1));
            }
            while f.pop().is_some() {}
            assert_eq!(f.items.len(), 0, "round {round}: no key is queued");
            assert!(
                f.items.entries() < 500,
                "round {round}: {} places left of the {} popped keys",
                f.items.entries(),
                (round + 1) * 1000
            );
        }
        assert!(!f.delete(obj("k19-999", 5), &NoKnownObjects));
        assert!(f.get_by_key("k19-999").is_none());
        f.add(obj("k19-999", 6));
        f.update(obj("k19-999", 7));
        assert_eq!(f.get_by_key("k19-999").map(rvs), Some(vec![6, 7]));
        assert_eq!(f.len(), 1);
    }
}
