//! RealFIFO behaviour (non-atomic and atomic), ported from client-go
//! `tools/cache/the_real_fifo_test.go`.
//!
//! Test objects are cluster-scoped so that their key is their name, like upstream's
//! `testFifoObject`; the resource version plays the role of upstream's `val`.

use std::collections::BTreeMap;

use flywheel_engine::informer::delta::{DeletedFinalStateUnknown, Delta, DeltaType};
use flywheel_engine::informer::delta_fifo::NoKnownObjects;
use flywheel_engine::informer::real_fifo::{
    AtomicFifo, AtomicItem, RealFifo, DEFAULT_BATCH_SIZE_ITEMS,
};
use flywheel_engine::key::Key;
use flywheel_engine::object::{Object, ObjectRef};
use proptest::prelude::*;

fn obj(name: &str, rv: u64) -> ObjectRef {
    let mut o = Object::new("Widget", "", name);
    o.metadata.resource_version = rv;
    ObjectRef::new(o)
}

fn known(objs: &[ObjectRef]) -> BTreeMap<Key, ObjectRef> {
    objs.iter().map(|o| (o.key(), o.clone())).collect()
}

fn empty() -> BTreeMap<Key, ObjectRef> {
    BTreeMap::new()
}

fn delta(delta_type: DeltaType, o: &ObjectRef) -> Delta {
    Delta::new(delta_type, o)
}

fn tombstone(key: &str, o: &ObjectRef) -> Delta {
    let stone = DeletedFinalStateUnknown {
        key: key.into(),
        obj: Some(o.clone()),
    };
    Delta::new(DeltaType::Deleted, stone)
}

fn pop_rv(f: &mut RealFifo) -> u64 {
    f.pop()
        .expect("the queue should have an item")
        .object
        .resource_version()
}

fn drain(f: &mut RealFifo) -> Vec<Delta> {
    std::iter::from_fn(|| f.pop()).collect()
}

fn items(f: &RealFifo) -> Vec<Delta> {
    f.iter().cloned().collect()
}

// Mirrors TestRealFIFO_basic: items from two producers come out in each producer's order.
#[test]
fn every_event_pops_in_arrival_order() {
    let mut f = RealFifo::new();
    for i in 0..50u64 {
        f.add(obj(&format!("a{i}"), i + 1));
        f.add(obj(&format!("b{i}"), 1000 + i));
    }
    let popped: Vec<u64> = drain(&mut f)
        .iter()
        .map(|d| d.object.resource_version())
        .collect();
    let a: Vec<u64> = popped.iter().copied().filter(|rv| *rv < 1000).collect();
    let b: Vec<u64> = popped.iter().copied().filter(|rv| *rv >= 1000).collect();
    assert_eq!(a, (1..=50).collect::<Vec<_>>());
    assert_eq!(b, (1000..1050).collect::<Vec<_>>());
}

// Mirrors TestRealFIFO_replaceWithDeleteDeltaIn (kubernetes/kubernetes#83810).
#[test]
fn replace_after_a_queued_delete_still_queues_the_listed_object() {
    let (old, new) = (obj("foo", 1), obj("foo", 2));
    let known = known(std::slice::from_ref(&old));
    let mut f = RealFifo::new();
    f.delete(old.clone(), &known);
    f.replace(vec![new.clone()], 0, &known);
    assert_eq!(
        items(&f),
        vec![
            delta(DeltaType::Deleted, &old),
            delta(DeltaType::Replaced, &new)
        ]
    );
}

// Mirrors TestRealFIFOW_ReplaceMakesDeletionsForObjectsOnlyInQueue.
#[test]
fn replace_tombstones_keys_that_exist_only_in_the_queue_unless_already_deleted() {
    let (o, o2) = (obj("foo", 2), obj("foo", 3));
    let k = empty();
    let mut cases: Vec<(&str, RealFifo, Vec<Delta>)> = Vec::new();

    let mut f = RealFifo::new();
    f.add(o.clone());
    f.replace(vec![], 0, &k);
    let want = vec![delta(DeltaType::Added, &o), tombstone("foo", &o)];
    cases.push(("added object is deleted on replace", f, want));

    let mut f = RealFifo::new();
    f.add(o.clone());
    f.delete(o.clone(), &k);
    f.replace(vec![], 0, &k);
    let want = vec![delta(DeltaType::Added, &o), delta(DeltaType::Deleted, &o)];
    cases.push(("deleted object has a single delete", f, want));

    let mut f = RealFifo::new();
    f.add(o.clone());
    f.replace(vec![o.clone()], 0, &k);
    f.replace(vec![o.clone()], 0, &k);
    f.replace(vec![], 0, &k);
    let want = vec![
        delta(DeltaType::Added, &o),
        delta(DeltaType::Replaced, &o),
        delta(DeltaType::Replaced, &o),
        tombstone("foo", &o),
    ];
    cases.push(("synced object has a single delete", f, want));

    let mut f = RealFifo::new();
    f.add(o.clone());
    f.replace(vec![], 0, &k);
    f.replace(vec![], 1, &k);
    let want = vec![delta(DeltaType::Added, &o), tombstone("foo", &o)];
    cases.push((
        "added object has a single delete over several replaces",
        f,
        want,
    ));

    let mut f = RealFifo::new();
    f.add(o.clone());
    f.delete(o.clone(), &k);
    f.add(o2.clone());
    f.replace(vec![], 0, &k);
    let want = vec![
        delta(DeltaType::Added, &o),
        delta(DeltaType::Deleted, &o),
        delta(DeltaType::Added, &o2),
        tombstone("foo", &o2),
    ];
    cases.push(("added, deleted and re-added object is deleted", f, want));

    for (name, mut f, want) in cases {
        assert_eq!(drain(&mut f), want, "{name}");
        assert!(f.is_empty(), "{name}: extra items");
    }
}

// Mirrors TestRealFIFO_addUpdate: every event is kept, not only the newest.
#[test]
fn add_update_delete_of_one_key_are_three_items() {
    let mut f = RealFifo::new();
    f.add(obj("foo", 10));
    f.update(obj("foo", 12));
    f.delete(obj("foo", 15), &empty());
    let want = vec![
        delta(DeltaType::Added, &obj("foo", 10)),
        delta(DeltaType::Updated, &obj("foo", 12)),
        delta(DeltaType::Deleted, &obj("foo", 15)),
    ];
    assert_eq!(items(&f), want);
    assert_eq!(drain(&mut f), want);
    assert!(f.is_empty());
}

// Mirrors TestRealFIFO_transformer's queue content (without the transformer): relist tombstones
// carry the last queued object of each key, and a second tombstone follows a re-add.
#[test]
fn relists_tombstone_the_last_queued_state_of_every_unlisted_key() {
    let k = empty();
    let mut f = RealFifo::new();
    f.add(obj("foo", 10));
    f.add(obj("bar", 11));
    f.update(obj("foo", 12));
    f.delete(obj("foo", 15), &k);
    f.replace(vec![], 0, &k);
    f.add(obj("bar", 16));
    f.replace(vec![], 0, &k);
    let want = vec![
        delta(DeltaType::Added, &obj("foo", 10)),
        delta(DeltaType::Added, &obj("bar", 11)),
        delta(DeltaType::Updated, &obj("foo", 12)),
        delta(DeltaType::Deleted, &obj("foo", 15)),
        tombstone("bar", &obj("bar", 11)),
        delta(DeltaType::Added, &obj("bar", 16)),
        tombstone("bar", &obj("bar", 16)),
    ];
    assert_eq!(drain(&mut f), want);
}

// Mirrors TestRealFIFO_enqueueingNoLister: RealFIFO queues every delete, even of unknown keys.
#[test]
fn delete_of_an_unknown_key_is_still_queued() {
    let mut f = RealFifo::new();
    f.add(obj("foo", 10));
    f.update(obj("bar", 15));
    f.add(obj("qux", 17));
    f.delete(obj("qux", 18), &NoKnownObjects);
    assert!(f.delete(obj("baz", 20), &NoKnownObjects));
    for expected in [10, 15, 17, 18, 20] {
        assert_eq!(pop_rv(&mut f), expected);
    }
    assert!(f.is_empty());
}

// Mirrors TestRealFIFO_enqueueingWithLister.
#[test]
fn delete_of_a_known_key_is_queued() {
    let known = known(&[obj("foo", 5), obj("bar", 6), obj("baz", 7)]);
    let mut f = RealFifo::new();
    f.add(obj("foo", 10));
    f.update(obj("bar", 15));
    f.delete(obj("baz", 20), &known);
    for expected in [10, 15, 20] {
        assert_eq!(pop_rv(&mut f), expected);
    }
    assert!(f.is_empty());
}

// Mirrors TestRealFIFO_addReplace.
#[test]
fn an_add_then_a_replace_of_the_same_key_are_two_items() {
    let mut f = RealFifo::new();
    f.add(obj("foo", 10));
    f.replace(vec![obj("foo", 15)], 0, &empty());
    assert_eq!(pop_rv(&mut f), 10);
    assert_eq!(pop_rv(&mut f), 15);
    assert!(f.pop().is_none());
}

// Mirrors TestRealFIFO_ResyncNonExisting.
#[test]
fn resync_skips_a_known_key_that_is_queued() {
    let known = known(&[obj("foo", 5)]);
    let mut f = RealFifo::new();
    f.delete(obj("foo", 10), &known);
    f.resync(&known);
    let queued = items(&f);
    assert_eq!(queued.len(), 1);
    assert_eq!(queued[0].delta_type, DeltaType::Deleted);
}

// Mirrors TestRealFIFO_Resync.
#[test]
fn resync_queues_a_sync_for_every_known_key_not_queued() {
    let known = known(&[obj("foo", 5)]);
    let mut f = RealFifo::new();
    f.resync(&known);
    assert_eq!(items(&f), vec![delta(DeltaType::Sync, &obj("foo", 5))]);
}

// Mirrors TestRealFIFO_DeleteExistingNonPropagated.
#[test]
fn delete_of_a_queued_key_is_queued() {
    let mut f = RealFifo::new();
    f.add(obj("foo", 5));
    f.delete(obj("foo", 6), &empty());
    let queued = items(&f);
    assert_eq!(queued.len(), 2);
    assert_eq!(queued[1].delta_type, DeltaType::Deleted);
}

fn three_known() -> BTreeMap<Key, ObjectRef> {
    known(&[obj("foo", 5), obj("bar", 6), obj("baz", 7)])
}

// Mirrors TestRealFIFO_ReplaceMakesDeletions, first case (and TestRealFIFO_ReplaceMakesDeletionsReplaced):
// tombstones come before the Replaced deltas.
#[test]
fn replace_queues_tombstones_before_the_listed_objects() {
    let known = three_known();
    let mut f = RealFifo::new();
    f.delete(obj("baz", 10), &known);
    f.replace(vec![obj("foo", 5)], 0, &known);
    assert_eq!(
        drain(&mut f),
        vec![
            delta(DeltaType::Deleted, &obj("baz", 10)),
            tombstone("bar", &obj("bar", 6)),
            delta(DeltaType::Replaced, &obj("foo", 5)),
        ]
    );
}

// Mirrors TestRealFIFO_ReplaceMakesDeletions, second case.
#[test]
fn replace_tombstones_a_queued_add_that_is_not_listed() {
    let known = three_known();
    let mut f = RealFifo::new();
    f.add(obj("baz", 10));
    f.replace(vec![obj("foo", 5)], 0, &known);
    assert_eq!(
        drain(&mut f),
        vec![
            delta(DeltaType::Added, &obj("baz", 10)),
            tombstone("baz", &obj("baz", 10)),
            tombstone("bar", &obj("bar", 6)),
            delta(DeltaType::Replaced, &obj("foo", 5)),
        ]
    );
}

// Mirrors TestRealFIFO_ReplaceMakesDeletions, third case.
#[test]
fn replace_tombstones_a_recreated_key_with_its_newest_queued_object() {
    let known = three_known();
    let mut f = RealFifo::new();
    f.delete(obj("bar", 6), &known);
    f.add(obj("bar", 100));
    f.replace(vec![obj("foo", 5)], 0, &known);
    assert_eq!(
        drain(&mut f),
        vec![
            delta(DeltaType::Deleted, &obj("bar", 6)),
            delta(DeltaType::Added, &obj("bar", 100)),
            tombstone("bar", &obj("bar", 100)),
            tombstone("baz", &obj("baz", 7)),
            delta(DeltaType::Replaced, &obj("foo", 5)),
        ]
    );
}

// Mirrors TestRealFIFO_ReplaceMakesDeletions, fourth case.
#[test]
fn a_second_replace_tombstones_with_the_object_of_the_first() {
    let known = three_known();
    let mut f = RealFifo::new();
    f.replace(vec![obj("bar", 100), obj("foo", 5)], 0, &known);
    f.replace(vec![obj("foo", 5)], 0, &known);
    assert_eq!(
        drain(&mut f),
        vec![
            tombstone("baz", &obj("baz", 7)),
            delta(DeltaType::Replaced, &obj("bar", 100)),
            delta(DeltaType::Replaced, &obj("foo", 5)),
            tombstone("bar", &obj("bar", 100)),
            delta(DeltaType::Replaced, &obj("foo", 5)),
        ]
    );
}

// Mirrors TestRealFIFO_ReplaceMakesDeletions, last case.
#[test]
fn replace_with_no_known_objects_only_tombstones_queued_keys() {
    let mut f = RealFifo::new();
    f.add(obj("baz", 10));
    f.replace(vec![obj("foo", 5)], 0, &empty());
    assert_eq!(
        drain(&mut f),
        vec![
            delta(DeltaType::Added, &obj("baz", 10)),
            tombstone("baz", &obj("baz", 10)),
            delta(DeltaType::Replaced, &obj("foo", 5)),
        ]
    );
}

// Mirrors TestRealFIFO_UpdateResyncRace.
#[test]
fn resync_does_not_queue_a_stale_sync_behind_a_queued_update() {
    let known = known(&[obj("foo", 5)]);
    let mut f = RealFifo::new();
    f.update(obj("foo", 6));
    f.resync(&known);
    assert_eq!(
        drain(&mut f),
        vec![delta(DeltaType::Updated, &obj("foo", 6))]
    );
}

// Mirrors TestRealFIFO_HasSyncedCorrectOnDeletion.
#[test]
fn has_synced_waits_for_the_initial_tombstones_which_are_flagged_initial() {
    let known = three_known();
    let mut f = RealFifo::new();
    f.replace(vec![obj("foo", 5)], 0, &known);
    let expected = vec![
        tombstone("bar", &obj("bar", 6)),
        tombstone("baz", &obj("baz", 7)),
        delta(DeltaType::Replaced, &obj("foo", 5)),
    ];
    for want in expected {
        assert!(!f.has_synced(), "synced too early");
        let (got, initial) = f.pop_with_initial_list().expect("item");
        assert_eq!(got, want);
        assert!(initial, "expected an initial-list item");
    }
    assert!(f.has_synced());
}

// Mirrors TestRealFIFO_detectLineJumpers: every event is delivered in order.
#[test]
fn events_for_one_key_are_delivered_in_arrival_order_between_other_keys() {
    let mut f = RealFifo::new();
    f.add(obj("foo", 10));
    f.add(obj("bar", 1));
    f.add(obj("foo", 11));
    f.add(obj("foo", 13));
    f.add(obj("zab", 30));
    assert_eq!(pop_rv(&mut f), 10);
    f.add(obj("foo", 14));
    for expected in [1, 11, 13, 30, 14] {
        assert_eq!(pop_rv(&mut f), expected);
    }
}

// Mirrors TestRealFIFO_HasSynced.
#[test]
fn has_synced_counts_every_initial_item_including_duplicates() {
    type Action = fn(&mut RealFifo);
    let add_a: Action = |f| f.add(obj("a", 1));
    let replace_empty: Action = |f| f.replace(vec![], 0, &NoKnownObjects);
    let replace_two: Action = |f| f.replace(vec![obj("a", 1), obj("b", 2)], 0, &NoKnownObjects);
    let replace_dup: Action = |f| f.replace(vec![obj("a", 1), obj("a", 2)], 0, &NoKnownObjects);
    let pop_one: Action = |f| {
        f.pop();
    };
    let cases: Vec<(Vec<Action>, bool)> = vec![
        (vec![], false),
        (vec![add_a], true),
        (vec![replace_empty], true),
        (vec![replace_two], false),
        (vec![replace_two, pop_one], false),
        (vec![replace_two, pop_one, pop_one], true),
        (vec![replace_dup, pop_one], false),
        (vec![replace_dup, pop_one, pop_one], true),
    ];
    for (i, (actions, expected)) in cases.into_iter().enumerate() {
        let mut f = RealFifo::new();
        for action in actions {
            action(&mut f);
        }
        assert_eq!(f.has_synced(), expected, "case {i}");
    }
}

/// Replaces with `initial` (known objects = `initial`), applies `updates`, then pops batches of
/// `batch` until empty, returning each batch and whether it was flagged initial.
fn batches(initial: &[ObjectRef], updates: &[ObjectRef], batch: usize) -> Vec<(Vec<Delta>, bool)> {
    let known = known(initial);
    let mut f = RealFifo::new();
    f.replace(initial.to_vec(), 123, &known);
    for o in updates {
        f.update(o.clone());
    }
    std::iter::from_fn(|| f.pop_batch_with_initial_list(batch)).collect()
}

// Mirrors TestRealFIFO_PopMultipleDeltaInBatch.
#[test]
fn pop_batch_splits_at_repeated_keys_batch_size_and_the_end_of_the_initial_list() {
    let (o1, o2, o3, o4) = (
        obj("foo1", 5),
        obj("foo2", 5),
        obj("foo3", 5),
        obj("foo4", 5),
    );
    let r = |o: &ObjectRef| delta(DeltaType::Replaced, o);
    let u = |o: &ObjectRef| delta(DeltaType::Updated, o);
    let unlimited = 999_999;
    /// Name, initial list, later updates, batch size, expected batches.
    type Case = (
        &'static str,
        Vec<ObjectRef>,
        Vec<ObjectRef>,
        usize,
        Vec<Vec<Delta>>,
    );
    let cases: Vec<Case> = vec![
        (
            "unique items form one batch",
            vec![o1.clone(), o2.clone(), o3.clone()],
            vec![],
            unlimited,
            vec![vec![r(&o1), r(&o2), r(&o3)]],
        ),
        (
            "the initial list ends a batch",
            vec![o1.clone(), o2.clone()],
            vec![o3.clone(), o4.clone()],
            2,
            vec![vec![r(&o1), r(&o2)], vec![u(&o3), u(&o4)]],
        ),
        (
            "a repeated key ends a batch (1)",
            vec![o1.clone()],
            vec![o1.clone(), o1.clone()],
            unlimited,
            vec![vec![r(&o1)], vec![u(&o1)], vec![u(&o1)]],
        ),
        (
            "a repeated key ends a batch (2)",
            vec![o1.clone(), o2.clone()],
            vec![o2.clone(), o3.clone()],
            unlimited,
            vec![vec![r(&o1), r(&o2)], vec![u(&o2), u(&o3)]],
        ),
        (
            "a repeated key ends a batch (3)",
            vec![o1.clone(), o2.clone(), o3.clone()],
            vec![o2.clone()],
            unlimited,
            vec![vec![r(&o1), r(&o2), r(&o3)], vec![u(&o2)]],
        ),
        (
            "the batch size splits the initial list",
            vec![o1.clone(), o2.clone(), o3.clone()],
            vec![],
            2,
            vec![vec![r(&o1), r(&o2)], vec![r(&o3)]],
        ),
        (
            "the batch size splits later events",
            vec![],
            vec![o1.clone(), o2.clone(), o3.clone()],
            2,
            vec![vec![u(&o1), u(&o2)], vec![u(&o3)]],
        ),
        (
            "mixed initial and later items",
            vec![o1.clone(), o2.clone(), o3.clone()],
            vec![o4.clone()],
            2,
            vec![vec![r(&o1), r(&o2)], vec![r(&o3)], vec![u(&o4)]],
        ),
    ];
    for (name, initial, updates, batch, want) in cases {
        let got = batches(&initial, &updates, batch);
        let got_deltas: Vec<Vec<Delta>> = got.iter().map(|(b, _)| b.clone()).collect();
        assert_eq!(got_deltas, want, "{name}");
        let initial_items: Vec<ObjectRef> = got
            .iter()
            .filter(|(_, is_initial)| *is_initial)
            .flat_map(|(b, _)| b.iter().filter_map(|d| d.object.as_live().cloned()))
            .collect();
        assert_eq!(initial_items, initial, "{name}: initial-list items");
    }
}

// Ours: the informer batch size constant matches upstream defaultBatchSize.
#[test]
fn the_default_batch_size_is_one_thousand_items() {
    assert_eq!(DEFAULT_BATCH_SIZE_ITEMS, 1000);
    let mut f = RealFifo::new();
    for i in 0..1500 {
        f.add(obj(&format!("k{i}"), 1));
    }
    assert_eq!(f.pop_batch(DEFAULT_BATCH_SIZE_ITEMS).len(), 1000);
    assert_eq!(f.pop_batch(DEFAULT_BATCH_SIZE_ITEMS).len(), 500);
    assert!(f.pop_batch(DEFAULT_BATCH_SIZE_ITEMS).is_empty());
}

fn atomic_drain(f: &mut AtomicFifo) -> Vec<AtomicItem> {
    std::iter::from_fn(|| f.pop()).collect()
}

// Mirrors TestRealFIFO_ReplaceAtomic.
#[test]
fn an_atomic_replace_is_one_replaced_all_item_in_order_with_other_events() {
    let o = obj("foo", 2);
    let all = |rv: u64, objects: Vec<ObjectRef>| AtomicItem::ReplacedAll {
        resource_version: rv,
        objects,
    };
    let mut f = AtomicFifo::new();
    f.replace(vec![], 123);
    assert_eq!(atomic_drain(&mut f), vec![all(123, vec![])]);

    let mut f = AtomicFifo::new();
    f.add(o.clone());
    f.replace(vec![o.clone()], 10);
    f.replace(vec![o.clone()], 20);
    f.replace(vec![], 56);
    assert_eq!(
        atomic_drain(&mut f),
        vec![
            AtomicItem::Delta(delta(DeltaType::Added, &o)),
            all(10, vec![o.clone()]),
            all(20, vec![o.clone()]),
            all(56, vec![]),
        ]
    );

    let mut f = AtomicFifo::new();
    f.bookmark(123);
    f.replace(vec![], 1234);
    assert_eq!(
        atomic_drain(&mut f),
        vec![
            AtomicItem::Bookmark {
                resource_version: 123
            },
            all(1234, vec![])
        ]
    );
    assert!(f.is_empty());
}

// Mirrors TestRealFIFO_ReplaceAtomicPop and the atomic has-synced bookkeeping: the first replace
// counts the items queued so far.
#[test]
fn an_atomic_initial_list_is_one_item_and_syncs_when_popped() {
    let mut f = AtomicFifo::new();
    f.replace(vec![obj("foo", 15), obj("bar", 3)], 20);
    assert!(!f.has_synced());
    let (item, initial) = f.pop_with_initial_list().expect("replaced all");
    assert!(initial);
    assert!(
        matches!(item, AtomicItem::ReplacedAll { resource_version: 20, ref objects } if objects.len() == 2)
    );
    assert!(f.has_synced());
}

// Mirrors TestRealFIFO_ResyncAtomic.
#[test]
fn an_atomic_resync_is_one_sync_all_item_after_earlier_events() {
    let o = obj("foo", 2);
    let mut f = AtomicFifo::new();
    f.resync();
    assert_eq!(atomic_drain(&mut f), vec![AtomicItem::SyncAll]);
    f.add(o.clone());
    f.resync();
    assert_eq!(
        atomic_drain(&mut f),
        vec![
            AtomicItem::Delta(delta(DeltaType::Added, &o)),
            AtomicItem::SyncAll
        ]
    );
}

// Mirrors the `batchable` table of the_real_fifo.go: atomic items are popped alone.
#[test]
fn atomic_items_never_join_a_batch() {
    let mut f = AtomicFifo::new();
    f.add(obj("a", 1));
    f.add(obj("b", 2));
    f.resync();
    f.add(obj("c", 3));
    assert_eq!(f.pop_batch(10).len(), 2);
    assert_eq!(f.pop_batch(10), vec![AtomicItem::SyncAll]);
    assert_eq!(f.pop_batch(10).len(), 1);
    assert!(f.pop_batch(10).is_empty());
}

#[derive(Clone, Debug)]
enum Event {
    Add(u8),
    Update(u8),
    Delete(u8),
}

proptest! {
    // Ours: every pushed event pops exactly once, in arrival order, whatever the batch sizes.
    #[test]
    fn every_pushed_event_pops_exactly_once_in_order(
        events in proptest::collection::vec(
            prop_oneof![
                (0u8..5).prop_map(Event::Add),
                (0u8..5).prop_map(Event::Update),
                (0u8..5).prop_map(Event::Delete),
            ],
            0..50,
        ),
        batch_sizes in proptest::collection::vec(0usize..5, 1..10),
    ) {
        let mut f = RealFifo::new();
        let mut pushed = Vec::new();
        for (i, event) in events.iter().enumerate() {
            let rv = i as u64 + 1;
            let (t, k) = match event {
                Event::Add(k) => (DeltaType::Added, k),
                Event::Update(k) => (DeltaType::Updated, k),
                Event::Delete(k) => (DeltaType::Deleted, k),
            };
            let o = obj(&format!("k{k}"), rv);
            match t {
                DeltaType::Added => f.add(o.clone()),
                DeltaType::Updated => f.update(o.clone()),
                _ => {
                    f.delete(o.clone(), &NoKnownObjects);
                }
            }
            pushed.push(delta(t, &o));
        }
        prop_assert_eq!(f.pending_deltas(), pushed.len());
        let mut popped = Vec::new();
        for size in batch_sizes.iter().cycle() {
            let batch = f.pop_batch(*size);
            if batch.is_empty() {
                break;
            }
            let keys: std::collections::BTreeSet<Key> = batch.iter().map(Delta::key).collect();
            prop_assert_eq!(keys.len(), batch.len(), "a batch repeats a key");
            prop_assert!(batch.len() <= (*size).max(1));
            popped.extend(batch);
        }
        prop_assert_eq!(popped, pushed);
    }
}
