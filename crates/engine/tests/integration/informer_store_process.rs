//! The informer's delta processing (client-go `tools/cache/controller.go` processDeltas,
//! processReplacedAllInfo; `tools/cache/controller_test.go` TestReplaceEvents) and an end-to-end
//! property: whatever the FIFO, the cache converges to the server's state.

use std::collections::BTreeMap;

use flywheel_engine::informer::delta::{DeletedFinalStateUnknown, Delta, DeltaObject, DeltaType};
use flywheel_engine::informer::delta_fifo::DeltaFifo;
use flywheel_engine::informer::indexer::{
    process_atomic_item, process_delta, process_deltas, Indexer, Notification, NAMESPACE_INDEX,
};
use flywheel_engine::informer::real_fifo::{AtomicFifo, AtomicItem, RealFifo};
use flywheel_engine::key::Key;
use flywheel_engine::object::{Object, ObjectRef};
use proptest::prelude::*;

fn pod(name: &str, rv: u64) -> ObjectRef {
    let mut o = Object::new("Pod", "default", name);
    o.metadata.resource_version = rv;
    ObjectRef::new(o)
}

/// A compact record of a notification: action, key, resource version.
fn record(n: &Notification) -> (&'static str, String, u64) {
    match n {
        Notification::Add { obj, .. } => ("add", obj.key().to_string(), obj.resource_version()),
        Notification::Update { new, .. } => {
            ("update", new.key().to_string(), new.resource_version())
        }
        Notification::Delete { obj } => ("delete", obj.key().to_string(), obj.resource_version()),
    }
}

fn records(ns: &[Notification]) -> Vec<(&'static str, String, u64)> {
    ns.iter().map(record).collect()
}

fn rec(action: &'static str, name: &str, rv: u64) -> (&'static str, String, u64) {
    (action, format!("default/{name}"), rv)
}

// Mirrors controller.go processDeltas: Added on an empty cache is an add flagged with the
// initial-list bit; the same key again is an update carrying the cached object as old.
#[test]
fn an_uncached_key_is_added_and_a_cached_key_is_updated() {
    let mut cache = Indexer::with_namespace_index();
    let first = process_deltas(
        &mut cache,
        [Delta::new(DeltaType::Replaced, pod("a", 1))],
        true,
    );
    assert_eq!(
        first,
        vec![Notification::Add {
            key: Key::from("default/a"),
            obj: pod("a", 1),
            is_in_initial_list: true
        }]
    );
    let second = process_deltas(
        &mut cache,
        vec![Delta::new(DeltaType::Added, pod("a", 2))],
        false,
    );
    assert_eq!(
        second,
        vec![Notification::Update {
            key: Key::from("default/a"),
            old: pod("a", 1),
            new: pod("a", 2)
        }]
    );
    assert_eq!(cache.get("default/a"), Some(pod("a", 2)));
    assert_eq!(
        cache.index_keys(NAMESPACE_INDEX, "default").expect("ns"),
        vec!["default/a"]
    );
}

// Mirrors controller.go processDeltas, oldest to newest, on a DeltaFIFO item.
#[test]
fn a_popped_delta_list_is_applied_oldest_first() {
    let mut fifo = DeltaFifo::new();
    let mut cache = Indexer::new();
    fifo.add(pod("a", 1));
    fifo.update(pod("a", 2));
    fifo.delete(pod("a", 3), &cache);
    let popped = fifo.pop_deltas().expect("item");
    let notes = process_deltas(&mut cache, &popped.deltas, popped.is_in_initial_list);
    assert_eq!(
        records(&notes),
        vec![
            rec("add", "a", 1),
            rec("update", "a", 2),
            rec("delete", "a", 3)
        ]
    );
    assert!(cache.is_empty());
}

// Mirrors controller.go processDeltas for a Deleted tombstone and shared_informer.go OnUpdate's
// resync detection.
#[test]
fn a_tombstone_deletes_its_key_and_a_sync_is_an_update_with_equal_versions() {
    let mut cache = Indexer::new();
    cache.add(pod("a", 1));
    cache.add(pod("b", 1));
    let sync = process_delta(&mut cache, &Delta::new(DeltaType::Sync, pod("a", 1)), false);
    assert!(sync[0].is_sync());
    let update = process_delta(
        &mut cache,
        &Delta::new(DeltaType::Updated, pod("a", 2)),
        false,
    );
    assert!(!update[0].is_sync());
    let stone = DeletedFinalStateUnknown {
        key: "default/b".into(),
        obj: Some(pod("b", 1)),
    };
    let deleted = process_delta(
        &mut cache,
        &Delta::new(DeltaType::Deleted, stone.clone()),
        false,
    );
    assert_eq!(
        deleted,
        vec![Notification::Delete {
            obj: DeltaObject::Tombstone(stone)
        }]
    );
    assert_eq!(cache.list_keys(), vec!["default/a"]);
}

/// The items a FIFO hands to the informer, normalised to notifications.
enum Fifo {
    Delta(DeltaFifo),
    Real(RealFifo),
    Atomic(AtomicFifo),
}

impl Fifo {
    fn add(&mut self, o: ObjectRef) {
        match self {
            Fifo::Delta(f) => f.add(o),
            Fifo::Real(f) => f.add(o),
            Fifo::Atomic(f) => f.add(o),
        }
    }

    fn update(&mut self, o: ObjectRef) {
        match self {
            Fifo::Delta(f) => f.update(o),
            Fifo::Real(f) => f.update(o),
            Fifo::Atomic(f) => f.update(o),
        }
    }

    fn delete(&mut self, o: ObjectRef, cache: &Indexer) {
        match self {
            Fifo::Delta(f) => {
                f.delete(o, cache);
            }
            Fifo::Real(f) => {
                f.delete(o, cache);
            }
            Fifo::Atomic(f) => f.delete(o),
        }
    }

    fn replace(&mut self, objects: Vec<ObjectRef>, rv: u64, cache: &Indexer) {
        match self {
            Fifo::Delta(f) => f.replace(objects, rv, cache),
            Fifo::Real(f) => f.replace(objects, rv, cache),
            Fifo::Atomic(f) => f.replace(objects, rv),
        }
    }

    fn resync(&mut self, cache: &Indexer) {
        match self {
            Fifo::Delta(f) => f.resync(cache),
            Fifo::Real(f) => f.resync(cache),
            Fifo::Atomic(f) => f.resync(),
        }
    }

    fn has_synced(&self) -> bool {
        match self {
            Fifo::Delta(f) => f.has_synced(),
            Fifo::Real(f) => f.has_synced(),
            Fifo::Atomic(f) => f.has_synced(),
        }
    }

    /// Pops one item and applies it; `None` when empty.
    fn process_one(&mut self, cache: &mut Indexer) -> Option<Vec<Notification>> {
        match self {
            Fifo::Delta(f) => {
                let popped = f.pop_deltas()?;
                Some(process_deltas(
                    cache,
                    popped.deltas,
                    popped.is_in_initial_list,
                ))
            }
            Fifo::Real(f) => {
                let (delta, initial) = f.pop_with_initial_list()?;
                Some(process_delta(cache, &delta, initial))
            }
            Fifo::Atomic(f) => {
                let (item, initial) = f.pop_with_initial_list()?;
                Some(process_atomic_item(cache, &item, initial))
            }
        }
    }

    fn drain(&mut self, cache: &mut Indexer) -> Vec<Notification> {
        std::iter::from_fn(|| self.process_one(cache))
            .flatten()
            .collect()
    }
}

fn all_fifos() -> Vec<(&'static str, Fifo)> {
    vec![
        ("real", Fifo::Real(RealFifo::new())),
        ("atomic", Fifo::Atomic(AtomicFifo::new())),
    ]
}

// Mirrors controller_test.go TestReplaceEvents: atomic and non-atomic replace give the same
// notifications (deletes first) and the same cache.
#[test]
fn atomic_and_non_atomic_relists_notify_the_same_way() {
    type Case = (
        &'static str,
        Vec<ObjectRef>,
        Vec<ObjectRef>,
        Vec<(&'static str, String, u64)>,
    );
    let cases: Vec<Case> = vec![
        (
            "create with no initial objects",
            vec![],
            vec![pod("pod-1", 1)],
            vec![rec("add", "pod-1", 1)],
        ),
        (
            "delete all objects",
            vec![pod("pod-1", 1), pod("pod-3", 2)],
            vec![],
            vec![rec("delete", "pod-1", 1), rec("delete", "pod-3", 2)],
        ),
        (
            "create, update, delete",
            vec![pod("pod-1", 1), pod("pod-2", 2), pod("pod-3", 3)],
            vec![pod("pod-1", 4), pod("pod-2", 5), pod("pod-4", 6)],
            vec![
                rec("delete", "pod-3", 3),
                rec("update", "pod-1", 4),
                rec("update", "pod-2", 5),
                rec("add", "pod-4", 6),
            ],
        ),
    ];
    for (name, initial, listed, want) in cases {
        for (mode, mut fifo) in all_fifos() {
            let mut cache = Indexer::new();
            for o in &initial {
                fifo.add(o.clone());
            }
            fifo.drain(&mut cache);
            fifo.replace(listed.clone(), 6, &cache);
            let got = fifo.drain(&mut cache);
            assert_eq!(records(&got), want, "{name} ({mode})");
            assert_eq!(cache.list(), listed, "{name} ({mode}): cache content");
        }
    }
}

// Mirrors controller.go processDeltas SyncAll and Bookmark.
#[test]
fn sync_all_updates_every_cached_object_and_a_bookmark_only_moves_the_version() {
    let mut cache = Indexer::new();
    cache.add(pod("b", 2));
    cache.add(pod("a", 1));
    let notes = process_atomic_item(&mut cache, &AtomicItem::SyncAll, false);
    assert_eq!(
        records(&notes),
        vec![rec("update", "a", 1), rec("update", "b", 2)]
    );
    assert!(notes.iter().all(Notification::is_sync));
    let none = process_atomic_item(
        &mut cache,
        &AtomicItem::Bookmark {
            resource_version: 42,
        },
        false,
    );
    assert!(none.is_empty());
    assert_eq!(cache.last_store_sync_resource_version(), 42);
    assert_eq!(cache.len(), 2);
}

#[derive(Clone, Debug)]
enum Op {
    Create(u8),
    Update(u8),
    Delete(u8),
    Disconnect,
    Relist,
    Resync,
    Pop,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0u8..6).prop_map(Op::Create),
        3 => (0u8..6).prop_map(Op::Update),
        2 => (0u8..6).prop_map(Op::Delete),
        1 => Just(Op::Disconnect),
        1 => Just(Op::Relist),
        1 => Just(Op::Resync),
        4 => Just(Op::Pop),
    ]
}

/// A fake API server, a watch that can miss events, a FIFO and the cache fed from it.
struct World {
    server: BTreeMap<String, ObjectRef>,
    rv: u64,
    connected: bool,
    fifo: Fifo,
    cache: Indexer,
}

impl World {
    fn new(fifo: Fifo) -> World {
        let mut world = World {
            server: BTreeMap::new(),
            rv: 0,
            connected: true,
            fifo,
            cache: Indexer::with_namespace_index(),
        };
        world.relist();
        world
    }

    fn relist(&mut self) {
        let objects = self.server.values().cloned().collect();
        self.fifo.replace(objects, self.rv, &self.cache);
        self.connected = true;
    }

    fn write(&mut self, k: u8) -> ObjectRef {
        self.rv += 1;
        pod(&format!("p{k}"), self.rv)
    }

    fn apply(&mut self, op: &Op) {
        let key = |k: &u8| format!("default/p{k}");
        match op {
            Op::Create(k) if !self.server.contains_key(&key(k)) => {
                let o = self.write(*k);
                self.server.insert(o.key().to_string(), o.clone());
                if self.connected {
                    self.fifo.add(o);
                }
            }
            Op::Update(k) if self.server.contains_key(&key(k)) => {
                let o = self.write(*k);
                self.server.insert(o.key().to_string(), o.clone());
                if self.connected {
                    self.fifo.update(o);
                }
            }
            Op::Delete(k) if self.server.contains_key(&key(k)) => {
                let o = self.write(*k);
                self.server.remove(o.key().as_str());
                if self.connected {
                    self.fifo.delete(o, &self.cache);
                }
            }
            Op::Disconnect => self.connected = false,
            Op::Relist => self.relist(),
            Op::Resync => self.fifo.resync(&self.cache),
            Op::Pop => {
                self.fifo.process_one(&mut self.cache);
            }
            _ => {}
        }
    }
}

fn converges(fifo: Fifo, ops: &[Op]) -> Result<(), TestCaseError> {
    let mut world = World::new(fifo);
    for op in ops {
        world.apply(op);
    }
    if !world.connected {
        world.relist();
    }
    let cache = &mut world.cache;
    world.fifo.drain(cache);
    prop_assert!(world.fifo.has_synced());
    let server: Vec<ObjectRef> = world.server.values().cloned().collect();
    prop_assert_eq!(world.cache.list(), server);
    Ok(())
}

proptest! {
    // Ours: with missed watch events repaired by relists, every FIFO leaves the cache equal to
    // the server once drained (the purpose of DeltaFIFO/RealFIFO tombstones, delta_fifo.go and
    // the_real_fifo.go Replace).
    #[test]
    fn the_cache_converges_to_the_server_through_any_fifo(ops in proptest::collection::vec(op(), 0..60)) {
        converges(Fifo::Delta(DeltaFifo::new()), &ops)?;
        converges(Fifo::Real(RealFifo::new()), &ops)?;
        converges(Fifo::Atomic(AtomicFifo::new()), &ops)?;
    }
}
