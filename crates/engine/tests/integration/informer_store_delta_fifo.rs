//! DeltaFIFO behaviour, ported from client-go `tools/cache/delta_fifo_test.go`.
//!
//! Test objects are cluster-scoped so that their key is their name, like upstream's
//! `testFifoObject`; the resource version plays the role of upstream's `val`.

use std::collections::BTreeMap;

use flywheel_engine::informer::delta::{DeletedFinalStateUnknown, Delta, DeltaObject, DeltaType};
use flywheel_engine::informer::delta_fifo::{DeltaFifo, KnownObjects, NoKnownObjects};
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

fn pop(f: &mut DeltaFifo) -> Vec<Delta> {
    f.pop().expect("the queue should have an item").1
}

fn newest_rv(f: &mut DeltaFifo) -> u64 {
    let deltas = pop(f);
    deltas
        .last()
        .expect("deltas are never empty")
        .object
        .resource_version()
}

/// The legacy queue (`Replace` emits `Sync`), as most upstream tests construct it.
fn legacy() -> DeltaFifo {
    DeltaFifo::with_emit_delta_type_replaced(false)
}

// Mirrors TestDeltaFIFO_basic: items from two producers come out in each producer's order.
#[test]
fn items_pop_in_the_order_they_were_added() {
    let mut f = legacy();
    for i in 0..50u64 {
        f.add(obj(&format!("a{i}"), i + 1));
        f.add(obj(&format!("b{i}"), 1000 + i));
    }
    let (mut last_a, mut last_b) = (0, 999);
    for _ in 0..100 {
        let (key, deltas) = f.pop().expect("item");
        let rv = deltas[0].object.resource_version();
        if key.starts_with('a') {
            assert!(rv > last_a, "{key} out of order");
            last_a = rv;
        } else {
            assert!(rv > last_b, "{key} out of order");
            last_b = rv;
        }
    }
    assert!(f.pop().is_none());
}

// Mirrors TestDeltaFIFO_replaceWithDeleteDeltaIn (kubernetes/kubernetes#83810).
#[test]
fn replace_after_a_queued_delete_still_queues_the_listed_object() {
    let (old, new) = (obj("foo", 1), obj("foo", 2));
    let known = known(std::slice::from_ref(&old));
    let mut f = legacy();
    f.delete(old.clone(), &known);
    f.replace(vec![new.clone()], 0, &known);
    assert_eq!(
        pop(&mut f),
        vec![
            delta(DeltaType::Deleted, &old),
            delta(DeltaType::Sync, &new)
        ]
    );
}

/// Runs `ops` on a fresh legacy queue with `known` and returns the single popped item.
fn single_pop_after<K: KnownObjects>(known: &K, ops: &dyn Fn(&mut DeltaFifo, &K)) -> Vec<Delta> {
    let mut f = legacy();
    ops(&mut f, known);
    let deltas = pop(&mut f);
    assert!(
        f.is_empty(),
        "expected no extra items, got {:?}",
        f.list_keys()
    );
    deltas
}

// Mirrors TestDeltaFIFOW_ReplaceMakesDeletionsForObjectsOnlyInQueue, with and without known
// objects.
#[test]
fn replace_tombstones_keys_that_exist_only_in_the_queue() {
    type Ops = Box<dyn Fn(&mut DeltaFifo, &dyn KnownObjects)>;
    let (o, o2) = (obj("foo", 2), obj("foo", 3));
    let cases: Vec<(&str, Ops, Vec<Delta>)> = vec![
        (
            "added object is deleted on replace",
            Box::new({
                let o = o.clone();
                move |f, k| {
                    f.add(o.clone());
                    f.replace(vec![], 0, k);
                }
            }),
            vec![delta(DeltaType::Added, &o), tombstone("foo", &o)],
        ),
        (
            "synced object has a single delete",
            Box::new({
                let o = o.clone();
                move |f, k| {
                    f.add(o.clone());
                    f.replace(vec![o.clone()], 0, k);
                    f.replace(vec![o.clone()], 0, k);
                    f.replace(vec![], 0, k);
                }
            }),
            vec![
                delta(DeltaType::Added, &o),
                delta(DeltaType::Sync, &o),
                delta(DeltaType::Sync, &o),
                tombstone("foo", &o),
            ],
        ),
        (
            "deleted object has a single delete",
            Box::new({
                let o = o.clone();
                move |f, k| {
                    f.add(o.clone());
                    f.delete(o.clone(), k);
                    f.replace(vec![], 0, k);
                }
            }),
            vec![delta(DeltaType::Added, &o), delta(DeltaType::Deleted, &o)],
        ),
        (
            "added object has a single delete over several replaces",
            Box::new({
                let o = o.clone();
                move |f, k| {
                    f.add(o.clone());
                    f.replace(vec![], 0, k);
                    f.replace(vec![], 1, k);
                }
            }),
            vec![delta(DeltaType::Added, &o), tombstone("foo", &o)],
        ),
        (
            "added, deleted and re-added object is deleted with the newest state",
            Box::new({
                let (o, o2) = (o.clone(), o2.clone());
                move |f, k| {
                    f.add(o.clone());
                    f.delete(o.clone(), k);
                    f.add(o2.clone());
                    f.replace(vec![], 0, k);
                }
            }),
            vec![
                delta(DeltaType::Added, &o),
                delta(DeltaType::Deleted, &o),
                delta(DeltaType::Added, &o2),
                tombstone("foo", &o2),
            ],
        ),
    ];
    let empty = known(&[]);
    for (name, ops, expected) in cases {
        let with_known = single_pop_after(&empty, &|f, k| ops(f, k));
        assert_eq!(with_known, expected, "{name} (empty known objects)");
        let without_known = single_pop_after(&NoKnownObjects, &|f, k| ops(f, k));
        assert_eq!(without_known, expected, "{name} (no known objects)");
    }
}

// Mirrors the emitDeltaTypeReplaced case of TestDeltaFIFOW_ReplaceMakesDeletionsForObjectsOnlyInQueue.
#[test]
fn a_replaced_object_removed_by_the_next_replace_gets_one_tombstone() {
    let o = obj("foo", 2);
    let mut f = DeltaFifo::new();
    f.add(o.clone());
    f.replace(vec![o.clone()], 0, &NoKnownObjects);
    f.replace(vec![], 0, &NoKnownObjects);
    assert_eq!(
        pop(&mut f),
        vec![
            delta(DeltaType::Added, &o),
            delta(DeltaType::Replaced, &o),
            tombstone("foo", &o)
        ]
    );
}

// Mirrors TestDeltaFIFO_addUpdate: one key, one pop, newest delta last, item removed.
#[test]
fn add_update_delete_of_one_key_pop_together_as_one_item() {
    let mut f = legacy();
    f.add(obj("foo", 10));
    f.update(obj("foo", 12));
    f.delete(obj("foo", 15), &NoKnownObjects);
    assert_eq!(f.list(), vec![DeltaObject::from(obj("foo", 15))]);
    assert_eq!(f.list_keys(), vec!["foo"]);
    assert_eq!(newest_rv(&mut f), 15);
    assert!(f.pop().is_none(), "a second value was queued");
    assert!(f.get_by_key("foo").is_none(), "item did not get removed");
}

// Mirrors TestDeltaFIFO_enqueueingNoLister.
#[test]
fn delete_of_a_key_neither_known_nor_queued_is_ignored() {
    let mut f = legacy();
    f.add(obj("foo", 10));
    f.update(obj("bar", 15));
    f.add(obj("qux", 17));
    f.delete(obj("qux", 18), &NoKnownObjects);
    let queued = f.delete(obj("baz", 20), &NoKnownObjects);
    assert!(!queued, "baz does not exist, its delete must be dropped");
    for expected in [10, 15, 18] {
        assert_eq!(newest_rv(&mut f), expected);
    }
    assert!(f.is_empty());
}

// Mirrors TestDeltaFIFO_enqueueingWithLister.
#[test]
fn delete_of_a_known_key_is_queued() {
    let known = known(&[obj("foo", 5), obj("bar", 6), obj("baz", 7)]);
    let mut f = legacy();
    f.add(obj("foo", 10));
    f.update(obj("bar", 15));
    assert!(f.delete(obj("baz", 20), &known));
    for expected in [10, 15, 20] {
        assert_eq!(newest_rv(&mut f), expected);
    }
    assert!(f.is_empty());
}

// Mirrors TestDeltaFIFO_addReplace.
#[test]
fn an_add_then_a_replace_of_the_same_key_pop_as_one_item() {
    let mut f = legacy();
    f.add(obj("foo", 10));
    f.replace(vec![obj("foo", 15)], 0, &NoKnownObjects);
    assert_eq!(newest_rv(&mut f), 15);
    assert!(f.pop().is_none(), "a second value was queued");
    assert!(f.get_by_key("foo").is_none(), "item did not get removed");
}

// Mirrors TestDeltaFIFO_ResyncNonExisting.
#[test]
fn resync_skips_a_known_key_that_has_queued_deltas() {
    let known = known(&[obj("foo", 5)]);
    let mut f = legacy();
    f.delete(obj("foo", 10), &known);
    f.resync(&known);
    let deltas = f.get_by_key("foo").expect("foo is queued");
    assert_eq!(deltas.len(), 1);
    assert_eq!(deltas[0].delta_type, DeltaType::Deleted);
}

// Mirrors TestDeltaFIFO_Resync.
#[test]
fn resync_queues_a_sync_for_every_known_key_without_queued_deltas() {
    let known = known(&[obj("foo", 5)]);
    let mut f = legacy();
    f.resync(&known);
    let deltas = f.get_by_key("foo").expect("foo is queued");
    assert_eq!(deltas, &[delta(DeltaType::Sync, &obj("foo", 5))]);
}

// Mirrors TestDeltaFIFO_DeleteExistingNonPropagated.
#[test]
fn delete_of_a_queued_but_unknown_key_is_queued() {
    let mut f = legacy();
    f.add(obj("foo", 5));
    f.delete(obj("foo", 6), &known(&[]));
    let deltas = f.get_by_key("foo").expect("foo is queued");
    assert_eq!(deltas.len(), 2);
    assert_eq!(deltas[1].delta_type, DeltaType::Deleted);
}

fn three_known() -> BTreeMap<Key, ObjectRef> {
    known(&[obj("foo", 5), obj("bar", 6), obj("baz", 7)])
}

fn assert_pops(f: &mut DeltaFifo, expected: Vec<Vec<Delta>>) {
    for (i, want) in expected.into_iter().enumerate() {
        assert_eq!(pop(f), want, "pop #{i}");
    }
}

// Mirrors TestDeltaFIFO_ReplaceMakesDeletions, first case: a queued delete.
#[test]
fn replace_tombstones_known_keys_that_are_not_listed() {
    let known = three_known();
    let mut f = legacy();
    f.delete(obj("baz", 10), &known);
    f.replace(vec![obj("foo", 5)], 0, &known);
    assert_pops(
        &mut f,
        vec![
            vec![delta(DeltaType::Deleted, &obj("baz", 10))],
            vec![delta(DeltaType::Sync, &obj("foo", 5))],
            vec![tombstone("bar", &obj("bar", 6))],
        ],
    );
}

// Mirrors TestDeltaFIFO_ReplaceMakesDeletions, second case: a queued add.
#[test]
fn replace_tombstones_a_queued_add_that_is_not_listed_with_the_queued_object() {
    let known = three_known();
    let mut f = legacy();
    f.add(obj("baz", 10));
    f.replace(vec![obj("foo", 5)], 0, &known);
    assert_pops(
        &mut f,
        vec![
            vec![
                delta(DeltaType::Added, &obj("baz", 10)),
                tombstone("baz", &obj("baz", 10)),
            ],
            vec![delta(DeltaType::Sync, &obj("foo", 5))],
            vec![tombstone("bar", &obj("bar", 6))],
        ],
    );
}

// Mirrors TestDeltaFIFO_ReplaceMakesDeletions, third case: delete and re-create in the queue.
#[test]
fn replace_tombstones_a_recreated_key_with_its_newest_queued_object() {
    let known = three_known();
    let mut f = legacy();
    f.delete(obj("bar", 6), &known);
    f.add(obj("bar", 100));
    f.replace(vec![obj("foo", 5)], 0, &known);
    assert_pops(
        &mut f,
        vec![
            vec![
                delta(DeltaType::Deleted, &obj("bar", 6)),
                delta(DeltaType::Added, &obj("bar", 100)),
                tombstone("bar", &obj("bar", 100)),
            ],
            vec![delta(DeltaType::Sync, &obj("foo", 5))],
            vec![tombstone("baz", &obj("baz", 7))],
        ],
    );
}

// Mirrors TestDeltaFIFO_ReplaceMakesDeletions, fourth case: sync first, then drop from the list.
#[test]
fn a_second_replace_tombstones_with_the_object_of_the_first() {
    let known = three_known();
    let mut f = legacy();
    f.replace(vec![obj("bar", 100), obj("foo", 5)], 0, &known);
    f.replace(vec![obj("foo", 5)], 0, &known);
    assert_pops(
        &mut f,
        vec![
            vec![
                delta(DeltaType::Sync, &obj("bar", 100)),
                tombstone("bar", &obj("bar", 100)),
            ],
            vec![
                delta(DeltaType::Sync, &obj("foo", 5)),
                delta(DeltaType::Sync, &obj("foo", 5)),
            ],
            vec![tombstone("baz", &obj("baz", 7))],
        ],
    );
}

// Mirrors TestDeltaFIFO_ReplaceMakesDeletions, last case: no known objects.
#[test]
fn replace_without_known_objects_only_tombstones_queued_keys() {
    let mut f = legacy();
    f.add(obj("baz", 10));
    f.replace(vec![obj("foo", 5)], 0, &NoKnownObjects);
    assert_pops(
        &mut f,
        vec![
            vec![
                delta(DeltaType::Added, &obj("baz", 10)),
                tombstone("baz", &obj("baz", 10)),
            ],
            vec![delta(DeltaType::Sync, &obj("foo", 5))],
        ],
    );
    assert!(f.is_empty());
}

// Mirrors TestDeltaFIFO_ReplaceMakesDeletionsReplaced.
#[test]
fn replace_emits_replaced_deltas_in_informer_mode() {
    let known = three_known();
    let mut f = DeltaFifo::new();
    f.delete(obj("baz", 10), &known);
    f.replace(vec![obj("foo", 6)], 0, &known);
    assert_pops(
        &mut f,
        vec![
            vec![delta(DeltaType::Deleted, &obj("baz", 10))],
            vec![delta(DeltaType::Replaced, &obj("foo", 6))],
            vec![tombstone("bar", &obj("bar", 6))],
        ],
    );
}

// Mirrors TestDeltaFIFO_ReplaceDeltaType.
#[test]
fn a_listed_known_object_gets_a_replaced_delta() {
    let known = known(&[obj("foo", 5)]);
    let mut f = DeltaFifo::default();
    f.replace(vec![obj("foo", 5)], 0, &known);
    assert_pops(
        &mut f,
        vec![vec![delta(DeltaType::Replaced, &obj("foo", 5))]],
    );
}

// Mirrors TestDeltaFIFO_UpdateResyncRace.
#[test]
fn resync_does_not_queue_a_stale_sync_behind_a_queued_update() {
    let known = known(&[obj("foo", 5)]);
    let mut f = legacy();
    f.update(obj("foo", 6));
    f.resync(&known);
    assert_pops(
        &mut f,
        vec![vec![delta(DeltaType::Updated, &obj("foo", 6))]],
    );
    assert!(f.is_empty());
}

// Mirrors TestDeltaFIFO_HasSyncedCorrectOnDeletion.
#[test]
fn has_synced_waits_for_the_initial_tombstones_which_are_flagged_initial() {
    let known = three_known();
    let mut f = legacy();
    f.replace(vec![obj("foo", 5)], 0, &known);
    let expected = vec![
        vec![delta(DeltaType::Sync, &obj("foo", 5))],
        vec![tombstone("bar", &obj("bar", 6))],
        vec![tombstone("baz", &obj("baz", 7))],
    ];
    for want in expected {
        assert!(!f.has_synced(), "synced too early");
        let popped = f.pop_deltas().expect("item");
        assert_eq!(popped.deltas, want);
        assert!(popped.is_in_initial_list, "expected an initial-list item");
    }
    assert!(f.has_synced());
}

// Mirrors TestDeltaFIFO_HasSynced.
#[test]
fn has_synced_follows_the_first_replace_or_any_direct_change() {
    type Action = fn(&mut DeltaFifo);
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
        (vec![replace_dup, pop_one], true),
    ];
    for (i, (actions, expected)) in cases.into_iter().enumerate() {
        let mut f = legacy();
        for action in actions {
            action(&mut f);
        }
        assert_eq!(f.has_synced(), expected, "case {i}");
    }
}

// Mirrors TestDeltaFIFO_detectLineJumpers.
#[test]
fn deltas_for_one_key_accumulate_without_jumping_the_line() {
    let mut f = legacy();
    f.add(obj("foo", 10));
    f.add(obj("bar", 1));
    f.add(obj("foo", 11));
    f.add(obj("foo", 13));
    f.add(obj("zab", 30));
    assert_eq!(newest_rv(&mut f), 13);
    f.add(obj("foo", 14));
    for expected in [1, 30, 14] {
        assert_eq!(newest_rv(&mut f), expected);
    }
}

// Mirrors the isDeletionDup rule of delta_fifo.go through the public API: a watch delete followed
// by a relist tombstone keeps the watch delete.
#[test]
fn a_relist_tombstone_after_a_watch_delete_collapses_into_the_watch_delete() {
    let known = known(&[obj("foo", 5)]);
    let mut f = DeltaFifo::new();
    f.delete(obj("foo", 6), &known);
    f.replace(vec![], 7, &known);
    assert_eq!(f.pending_deltas(), 1);
    assert_eq!(pop(&mut f), vec![delta(DeltaType::Deleted, &obj("foo", 6))]);
}

// Ours: pending_deltas counts every delta while len counts keys.
#[test]
fn pending_deltas_counts_every_queued_delta_and_len_counts_keys() {
    let mut f = DeltaFifo::new();
    f.add(obj("a", 1));
    f.update(obj("a", 2));
    f.add(obj("b", 3));
    assert_eq!(f.len(), 2);
    assert_eq!(f.pending_deltas(), 3);
    f.pop();
    assert_eq!((f.len(), f.pending_deltas()), (1, 1));
}

// Ours: after the initial list is popped, later items are not flagged initial.
#[test]
fn items_after_the_initial_list_are_not_flagged_initial() {
    let mut f = DeltaFifo::new();
    f.replace(vec![obj("a", 1)], 1, &NoKnownObjects);
    assert!(f.is_in_initial_list());
    assert!(f.pop_deltas().expect("a").is_in_initial_list);
    f.add(obj("b", 2));
    assert!(!f.is_in_initial_list());
    assert!(!f.pop_deltas().expect("b").is_in_initial_list);
}

#[derive(Clone, Debug)]
enum Op {
    Add(u8, u64),
    Update(u8, u64),
    Delete(u8),
    Replace(Vec<u8>),
    Resync,
    Pop,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0u8..6, 1u64..100).prop_map(|(k, rv)| Op::Add(k, rv)),
        (0u8..6, 1u64..100).prop_map(|(k, rv)| Op::Update(k, rv)),
        (0u8..6).prop_map(Op::Delete),
        proptest::collection::vec(0u8..6, 0..4).prop_map(Op::Replace),
        Just(Op::Resync),
        Just(Op::Pop),
    ]
}

fn apply(f: &mut DeltaFifo, known: &BTreeMap<Key, ObjectRef>, op: &Op) {
    let name = |k: &u8| format!("k{k}");
    match op {
        Op::Add(k, rv) => f.add(obj(&name(k), *rv)),
        Op::Update(k, rv) => f.update(obj(&name(k), *rv)),
        Op::Delete(k) => {
            f.delete(obj(&name(k), 0), known);
        }
        Op::Replace(keys) => f.replace(keys.iter().map(|k| obj(&name(k), 1)).collect(), 1, known),
        Op::Resync => f.resync(known),
        Op::Pop => {
            f.pop();
        }
    }
}

proptest! {
    // Ours (the invariant stated in delta_fifo.go on `queue`): no key is queued twice, and a key is
    // queued iff it has deltas; no two consecutive deletes remain.
    #[test]
    fn delta_fifo_never_holds_a_key_twice_in_its_queue(
        ops in proptest::collection::vec(op(), 0..60),
        known_keys in proptest::collection::btree_set(0u8..6, 0..4),
    ) {
        let known = known(&known_keys.iter().map(|k| obj(&format!("k{k}"), 1)).collect::<Vec<_>>());
        let mut f = DeltaFifo::new();
        for op in &ops {
            apply(&mut f, &known, op);
            let keys = f.list_keys();
            let unique: std::collections::BTreeSet<&Key> = keys.iter().collect();
            prop_assert_eq!(unique.len(), keys.len());
            let mut total = 0;
            for key in &keys {
                let deltas = f.get_by_key(key).expect("a queued key has deltas");
                prop_assert!(!deltas.is_empty());
                prop_assert!(deltas.iter().all(|d| &d.key() == key));
                let double_delete = deltas.windows(2).any(|w| {
                    w[0].delta_type == DeltaType::Deleted && w[1].delta_type == DeltaType::Deleted
                });
                prop_assert!(!double_delete);
                total += deltas.len();
            }
            prop_assert_eq!(total, f.pending_deltas());
        }
    }

    // Ours: a LIST queued in parts (begin_replace, replace_part…, finish_replace) leaves the queue
    // exactly as one Replace does, whatever was queued before, however the list is ordered or
    // split, and with keys listed twice.
    #[test]
    fn a_replace_in_parts_equals_one_replace(
        queued in proptest::collection::vec(0u8..8, 0..4),
        listed in proptest::collection::vec(0u8..12, 0..24),
        sorted in any::<bool>(),
        cuts in proptest::collection::vec(0usize..24, 0..4),
        known_keys in proptest::collection::btree_set(0u8..12, 0..5),
    ) {
        let known = known(&known_keys.iter().map(|k| obj(&format!("k{k:02}"), 1)).collect::<Vec<_>>());
        let mut list: Vec<ObjectRef> = listed
            .iter()
            .enumerate()
            .map(|(i, k)| obj(&format!("k{k:02}"), 10 + i as u64))
            .collect();
        if sorted {
            list.sort_by_key(|o| o.key());
        }
        let prepare = || {
            let mut f = DeltaFifo::new();
            for k in &queued {
                f.add(obj(&format!("k{k:02}"), 5));
            }
            f
        };
        let mut whole = prepare();
        whole.replace(list.clone(), 0, &known);
        let mut parts = prepare();
        let mut replace = parts.begin_replace();
        let mut bounds: Vec<usize> = cuts.iter().map(|c| c % (list.len() + 1)).collect();
        bounds.push(0);
        bounds.push(list.len());
        bounds.sort_unstable();
        for w in bounds.windows(2) {
            parts.replace_part(&mut replace, list[w[0]..w[1]].to_vec());
        }
        parts.finish_replace(replace, &known);
        prop_assert_eq!(drain(&mut whole), drain(&mut parts));
    }

    // Ours: with only adds and updates (nothing to deduplicate) every event pops exactly once, in
    // arrival order per key, and keys pop in first-arrival order.
    #[test]
    fn every_added_or_updated_event_pops_exactly_once(
        events in proptest::collection::vec((0u8..5, any::<bool>()), 0..40),
    ) {
        let mut f = DeltaFifo::new();
        let mut pushed: BTreeMap<Key, Vec<Delta>> = BTreeMap::new();
        let mut first_seen = Vec::new();
        for (i, (k, is_add)) in events.iter().enumerate() {
            let o = obj(&format!("k{k}"), i as u64 + 1);
            let t = if *is_add { DeltaType::Added } else { DeltaType::Updated };
            if *is_add { f.add(o.clone()) } else { f.update(o.clone()) }
            let entry = pushed.entry(o.key()).or_default();
            if entry.is_empty() {
                first_seen.push(o.key());
            }
            entry.push(delta(t, &o));
        }
        let mut popped_keys = Vec::new();
        while let Some((key, deltas)) = f.pop() {
            prop_assert_eq!(Some(&deltas), pushed.get(&key));
            popped_keys.push(key);
        }
        prop_assert_eq!(popped_keys, first_seen);
    }
}

/// Pops every item as `(key, deltas)`, noting whether the queue had synced before each pop.
fn drain(f: &mut DeltaFifo) -> Vec<(Key, Vec<Delta>, bool)> {
    let mut out = Vec::new();
    loop {
        let synced = f.has_synced();
        let Some((key, deltas)) = f.pop() else {
            return out;
        };
        out.push((key, deltas, synced));
    }
}

// Ours: a relist into an empty queue (a restarted informer) queues a Sync delta per listed object,
// keys in list order, and tombstones known keys it does not list, whether or not the LIST is in
// key order or repeats a key (only consecutive deletes are deduplicated, as upstream).
#[test]
fn a_list_into_an_empty_queue_queues_its_objects_in_list_order_and_tombstones_the_rest() {
    let listed: Vec<ObjectRef> = ["a", "b", "c", "d"].iter().map(|n| obj(n, 5)).collect();
    let mut known_objs = listed[..2].to_vec();
    known_objs.push(obj("zz-deleted", 3));
    let known = known(&known_objs);
    for order in [vec![0, 1, 2, 3], vec![3, 1, 0, 2], vec![1, 1, 2]] {
        let list: Vec<ObjectRef> = order.iter().map(|&i| listed[i].clone()).collect();
        let mut f = legacy();
        f.replace(list.clone(), 0, &known);
        let popped = drain(&mut f);
        let mut expected_keys: Vec<flywheel_engine::key::Key> = Vec::new();
        for o in &list {
            if !expected_keys.contains(&o.key()) {
                expected_keys.push(o.key());
            }
        }
        let listed_count = expected_keys.len();
        let unlisted: Vec<&ObjectRef> = known
            .values()
            .filter(|o| !expected_keys.contains(&o.key()))
            .collect();
        expected_keys.extend(unlisted.iter().map(|o| o.key()));
        let keys: Vec<&str> = popped.iter().map(|(k, _, _)| k.as_str()).collect();
        assert_eq!(keys, expected_keys, "order {order:?}");
        for (key, deltas, synced) in &popped[..listed_count] {
            let times = list.iter().filter(|o| o.key() == *key).count();
            assert_eq!(
                deltas.len(),
                times,
                "{key}: a Sync delta each time it is listed"
            );
            assert!(deltas.iter().all(|d| d.delta_type == DeltaType::Sync));
            assert!(!synced, "not synced before the initial list is popped");
        }
        for ((key, deltas, _), o) in popped[listed_count..].iter().zip(&unlisted) {
            assert_eq!(deltas, &vec![tombstone(key, o)], "{key} is tombstoned");
        }
        assert!(
            f.has_synced(),
            "synced once the initial list and its deletion are popped"
        );
    }
}
