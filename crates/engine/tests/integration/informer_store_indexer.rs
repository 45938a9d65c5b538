//! Indexer (ThreadSafeStore) behaviour, ported from client-go `tools/cache/thread_safe_store_test.go`,
//! `tools/cache/index_test.go`, `tools/cache/store_test.go`, and the field indexes of
//! controller-runtime `pkg/cache/informer_cache.go` (exercised in `pkg/cache/cache_test.go`).

use std::collections::{BTreeMap, BTreeSet};

use flywheel_engine::informer::delta::DeletedFinalStateUnknown;
use flywheel_engine::informer::indexer::{
    field_index_func, field_index_name, index_by_field, index_func, key_to_namespaced_key,
    namespace_index_func, IndexError, Indexer, Indexers, ALL_NAMESPACES_NAMESPACE, NAMESPACE_INDEX,
};
use flywheel_engine::key::Key;
use flywheel_engine::object::{Object, ObjectRef};
use proptest::prelude::*;

fn pod(namespace: &str, name: &str) -> Object {
    Object::new("Pod", namespace, name)
}

fn with_label(mut o: Object, key: &str, value: &str) -> ObjectRef {
    o.metadata
        .labels
        .get_or_insert_with(Default::default)
        .insert(key.to_owned(), value.to_owned());
    ObjectRef::new(o)
}

fn with_rv(mut o: Object, rv: u64) -> ObjectRef {
    o.metadata.resource_version = rv;
    ObjectRef::new(o)
}

fn label_values(key: &'static str) -> impl Fn(&Object) -> Vec<String> + Send + Sync {
    move |o: &Object| {
        let value = o.metadata.labels.as_ref().and_then(|l| l.get(key));
        value.map_or_else(Vec::new, |v| v.split(',').map(str::to_owned).collect())
    }
}

fn indexer_with(name: &str, key: &'static str) -> Indexer {
    Indexer::with_indexers(Indexers::from([(
        name.to_owned(),
        index_func(label_values(key)),
    )]))
}

fn names(objs: &[ObjectRef]) -> Vec<String> {
    objs.iter().map(|o| o.metadata.name().to_string()).collect()
}

// Mirrors TestThreadSafeStoreDeleteRemovesEmptySetsFromIndex.
#[test]
fn deleting_the_last_key_of_an_index_value_removes_the_value() {
    let mut store = indexer_with("by", "v");
    store.add(with_label(pod("", "k"), "v", "testKey"));
    assert_eq!(
        store.list_index_func_values("by"),
        vec!["testKey".to_owned()]
    );
    store.delete(with_label(pod("", "k"), "v", "testKey"));
    assert!(store.list_index_func_values("by").is_empty());
}

// Mirrors TestThreadSafeStoreAddKeepsNonEmptySetPostDeleteFromIndex.
#[test]
fn deleting_one_of_two_keys_keeps_the_index_value() {
    let mut store = indexer_with("by", "v");
    store.add(with_label(pod("", "retain"), "v", "shared"));
    store.add(with_label(pod("", "delete"), "v", "shared"));
    assert_eq!(store.index_keys("by", "shared").expect("index").len(), 2);
    store.delete_key("delete");
    assert_eq!(
        store.index_keys("by", "shared").expect("index"),
        vec!["retain"]
    );
}

// Mirrors TestThreadSafeStoreIndexingFunctionsWithMultipleValues.
#[test]
fn updates_move_keys_between_multiple_index_values() {
    let mut store = indexer_with("by", "v");
    let set = |store: &mut Indexer, name: &str, values: &str| {
        store.update(with_label(pod("", name), "v", values));
    };
    let keys = |store: &Indexer, value: &str| store.index_keys("by", value).expect("index");
    let want = |v: &[&'static str]| v.to_vec();
    set(&mut store, "key1", "foo");
    set(&mut store, "key2", "bar");
    assert_eq!(keys(&store, "foo"), want(&["key1"]));
    assert_eq!(keys(&store, "bar"), want(&["key2"]));
    set(&mut store, "key2", "foo,bar");
    assert_eq!(keys(&store, "foo"), want(&["key1", "key2"]));
    assert_eq!(keys(&store, "bar"), want(&["key2"]));
    set(&mut store, "key1", "foo,bar");
    assert_eq!(keys(&store, "bar"), want(&["key1", "key2"]));
    set(&mut store, "key3", "foo,bar,baz");
    assert_eq!(keys(&store, "foo"), want(&["key1", "key2", "key3"]));
    assert_eq!(keys(&store, "baz"), want(&["key3"]));
    set(&mut store, "key1", "foo");
    assert_eq!(keys(&store, "bar"), want(&["key2", "key3"]));
    set(&mut store, "key2", "bar");
    assert_eq!(keys(&store, "foo"), want(&["key1", "key3"]));
    assert_eq!(keys(&store, "bar"), want(&["key2", "key3"]));
    store.delete_key("key1");
    assert_eq!(keys(&store, "foo"), want(&["key3"]));
    store.delete_key("key3");
    assert!(keys(&store, "foo").is_empty());
    assert_eq!(keys(&store, "bar"), want(&["key2"]));
    assert!(keys(&store, "baz").is_empty());
}

// Mirrors TestThreadSafeStoreRV: the store remembers the resource version of the last write.
#[test]
fn the_store_records_the_resource_version_of_the_last_write() {
    let mut store = Indexer::new();
    assert_eq!(store.last_store_sync_resource_version(), 0);
    store.add(with_rv(pod("", "key1"), 10));
    assert_eq!(store.last_store_sync_resource_version(), 10);
    store.add(with_rv(pod("", "key4"), 20));
    assert_eq!(store.last_store_sync_resource_version(), 20);
    store.delete(with_rv(pod("", "key4"), 30));
    assert_eq!(store.last_store_sync_resource_version(), 30);
    store.add(with_rv(pod("", "key6"), 40));
    store.delete_key("key6");
    assert_eq!(
        store.last_store_sync_resource_version(),
        40,
        "a bare key delete keeps the RV"
    );
    let stone = DeletedFinalStateUnknown {
        key: "key1".into(),
        obj: None,
    };
    store.delete(stone);
    assert_eq!(
        store.last_store_sync_resource_version(),
        40,
        "a tombstone has no RV"
    );
    assert!(
        store.get("key1").is_none(),
        "the tombstone's key is deleted"
    );
    store.replace(
        vec![with_rv(pod("", "key3"), 40), with_rv(pod("", "key2"), 30)],
        50,
    );
    assert_eq!(store.last_store_sync_resource_version(), 50);
    store.bookmark(60);
    assert_eq!(store.last_store_sync_resource_version(), 60);
}

// Mirrors TestGetIndexFuncValues.
#[test]
fn list_index_func_values_returns_each_value_once() {
    let mut index = indexer_with("testmodes", "foo");
    index.add(with_label(pod("", "one"), "foo", "bar"));
    index.add(with_label(pod("", "two"), "foo", "bar"));
    index.add(with_label(pod("", "tre"), "foo", "biz"));
    assert_eq!(
        index.list_index_func_values("testmodes"),
        vec!["bar", "biz"]
    );
}

// Mirrors TestMultiIndexKeys.
#[test]
fn by_index_finds_objects_by_any_of_their_values() {
    let mut index = indexer_with("byUser", "users");
    let p1 = with_label(pod("", "one"), "users", "ernie,bert");
    let p2 = with_label(pod("", "two"), "users", "bert,oscar");
    let p3 = with_label(pod("", "tre"), "users", "ernie,elmo");
    for p in [&p1, &p2, &p3] {
        index.add(p);
    }
    let expected: BTreeMap<&str, Vec<&str>> = BTreeMap::from([
        ("ernie", vec!["one", "tre"]),
        ("bert", vec!["one", "two"]),
        ("elmo", vec!["tre"]),
        ("oscar", vec!["two"]),
        ("elmo1", vec![]),
    ]);
    for (user, want) in expected {
        let found: BTreeSet<String> = names(&index.by_index("byUser", user).expect("index"))
            .into_iter()
            .collect();
        let want: BTreeSet<String> = want.into_iter().map(str::to_owned).collect();
        assert_eq!(found, want, "user {user}");
    }
    index.delete(&p3);
    assert_eq!(
        names(&index.by_index("byUser", "ernie").expect("index")),
        vec!["one"]
    );
    assert!(index.by_index("byUser", "elmo").expect("index").is_empty());
    index.update(with_label(pod("", "two"), "users", "oscar"));
    assert_eq!(
        names(&index.by_index("byUser", "bert").expect("index")),
        vec!["one"]
    );
}

// Mirrors store_test.go doTestStore: add, update, delete, list, replace.
#[test]
fn the_store_adds_updates_deletes_lists_and_replaces() {
    let mut store = Indexer::new();
    store.add(with_rv(pod("", "foo"), 1));
    assert_eq!(store.get("foo").expect("foo").resource_version(), 1);
    store.update(with_rv(pod("", "foo"), 2));
    assert_eq!(store.get_by_key("foo").expect("foo").resource_version(), 2);
    store.delete(with_rv(pod("", "foo"), 3));
    assert!(store.get("foo").is_none());
    for name in ["c", "a", "b"] {
        store.add(with_rv(pod("", name), 1));
    }
    assert_eq!(
        store.list_keys(),
        vec!["a", "b", "c"],
        "listing is sorted by key"
    );
    assert_eq!(names(&store.list()), vec!["a", "b", "c"]);
    store.replace(
        vec![with_rv(pod("", "foo"), 1), with_rv(pod("", "bar"), 2)],
        5,
    );
    assert_eq!(store.list_keys(), vec!["bar", "foo"]);
    assert_eq!(store.len(), 2);
    assert!(store.get_object(&pod("", "bar")).is_some());
}

// Mirrors store_test.go doTestIndex: the namespace index after add, update and replace.
#[test]
fn the_namespace_index_follows_adds_moves_and_replaces() {
    let mut store = Indexer::with_namespace_index();
    store.add(pod("a", "x"));
    store.add(pod("a", "y"));
    store.add(pod("b", "z"));
    store.add(pod("", "cluster"));
    assert_eq!(
        store.index_keys(NAMESPACE_INDEX, "a").expect("ns"),
        vec!["a/x", "a/y"]
    );
    assert_eq!(
        store.index_keys(NAMESPACE_INDEX, "").expect("ns"),
        vec!["cluster"]
    );
    assert_eq!(
        names(
            &store
                .index(NAMESPACE_INDEX, &pod("b", "other"))
                .expect("ns")
        ),
        vec!["z"]
    );
    store.replace(vec![ObjectRef::new(pod("b", "w"))], 9);
    assert!(store
        .index_keys(NAMESPACE_INDEX, "a")
        .expect("ns")
        .is_empty());
    assert_eq!(store.list_index_func_values(NAMESPACE_INDEX), vec!["b"]);
    assert_eq!(namespace_index_func(&pod("q", "n")), vec!["q"]);
}

// Mirrors thread_safe_store.go getKeysByIndex: an unknown index is an error, not a panic.
#[test]
fn an_unknown_index_is_an_error_with_the_upstream_message() {
    let store = Indexer::new();
    let err = store.by_index("nope", "x").expect_err("unknown index");
    assert_eq!(err, IndexError::DoesNotExist("nope".to_owned()));
    assert_eq!(err.to_string(), "Index with name nope does not exist");
    assert!(store.index_keys("nope", "x").is_err());
    assert!(store.index("nope", &pod("", "a")).is_err());
    assert!(store.list_index_func_values("nope").is_empty());
}

// Mirrors thread_safe_store.go AddIndexers: existing items are indexed, a conflict adds nothing.
#[test]
fn add_indexers_indexes_existing_items_and_rejects_conflicts() {
    let mut store = Indexer::new();
    store.add(with_label(pod("", "a"), "app", "web"));
    let by_app = || Indexers::from([("app".to_owned(), index_func(label_values("app")))]);
    store.add_indexers(by_app()).expect("new index");
    assert_eq!(store.index_keys("app", "web").expect("app"), vec!["a"]);
    let mixed = Indexers::from([
        ("app".to_owned(), index_func(label_values("app"))),
        ("tier".to_owned(), index_func(label_values("tier"))),
    ]);
    let err = store.add_indexers(mixed).expect_err("conflict");
    assert_eq!(err, IndexError::Conflict(vec!["app".to_owned()]));
    assert_eq!(err.to_string(), "indexer conflict: [app]");
    assert_eq!(
        store.index_names(),
        vec!["app"],
        "nothing added on conflict"
    );
}

// Mirrors controller-runtime informer_cache.go indexByField and cache_reader.go FieldIndexName /
// KeyToNamespacedKey (cache_test.go "should be able to index an object field then retrieve objects
// by that field", namespaced and cluster-scoped).
#[test]
fn field_indexes_hold_namespaced_and_all_namespaces_values() {
    assert_eq!(
        field_index_name("spec.restartPolicy"),
        "field:spec.restartPolicy"
    );
    assert_eq!(key_to_namespaced_key("ns", "v"), "ns/v");
    assert_eq!(
        key_to_namespaced_key("", "v"),
        format!("{ALL_NAMESPACES_NAMESPACE}/v")
    );
    let func = field_index_func(label_values("policy"));
    let namespaced = with_label(pod("ns1", "p"), "policy", "Always,Never");
    assert_eq!(
        func(&namespaced),
        vec![
            "ns1/Always",
            "ns1/Never",
            "__all_namespaces/Always",
            "__all_namespaces/Never"
        ]
    );
    let cluster = with_label(pod("", "n"), "policy", "Always");
    assert_eq!(func(&cluster), vec!["__all_namespaces/Always"]);
}

// Mirrors controller-runtime cache_test.go field-index listing: per namespace and across all.
#[test]
fn a_field_index_answers_per_namespace_and_across_namespaces() {
    let mut store = Indexer::with_namespace_index();
    index_by_field(&mut store, "spec.restartPolicy", label_values("policy")).expect("index");
    store.add(with_label(pod("a", "p1"), "policy", "Always"));
    store.add(with_label(pod("b", "p2"), "policy", "Always"));
    store.add(with_label(pod("b", "p3"), "policy", "Never"));
    let name = field_index_name("spec.restartPolicy");
    let in_b = store
        .by_index(&name, &key_to_namespaced_key("b", "Always"))
        .expect("field");
    assert_eq!(names(&in_b), vec!["p2"]);
    let all = store
        .by_index(&name, &key_to_namespaced_key("", "Always"))
        .expect("field");
    assert_eq!(names(&all), vec!["p1", "p2"]);
    let again = index_by_field(&mut store, "spec.restartPolicy", label_values("policy"));
    assert!(matches!(again, Err(IndexError::Conflict(_))));
}

#[derive(Clone, Debug)]
enum Op {
    Upsert(u8, u8, u8),
    Delete(u8, u8),
    Replace(Vec<(u8, u8, u8)>),
}

fn make(ns: u8, name: u8, app: u8) -> ObjectRef {
    with_label(
        pod(&format!("ns{ns}"), &format!("p{name}")),
        "app",
        &format!("a{app},shared"),
    )
}

proptest! {
    // Ours: after any sequence of writes every index answers exactly what a scan of list() would.
    #[test]
    fn indexes_always_agree_with_a_full_scan(
        ops in proptest::collection::vec(
            prop_oneof![
                (0u8..3, 0u8..5, 0u8..3).prop_map(|(n, p, a)| Op::Upsert(n, p, a)),
                (0u8..3, 0u8..5).prop_map(|(n, p)| Op::Delete(n, p)),
                proptest::collection::vec((0u8..3, 0u8..5, 0u8..3), 0..6).prop_map(Op::Replace),
            ],
            0..40,
        ),
    ) {
        let mut store = Indexer::with_namespace_index();
        store.add_indexers(Indexers::from([("app".to_owned(), index_func(label_values("app")))])).expect("app");
        for op in &ops {
            match op {
                Op::Upsert(n, p, a) => store.update(make(*n, *p, *a)),
                Op::Delete(n, p) => store.delete_key(&format!("ns{n}/p{p}")),
                Op::Replace(items) => store.replace(items.iter().map(|(n, p, a)| make(*n, *p, *a)).collect(), 1),
            }
            let all = store.list();
            for value in ["a0", "a1", "a2", "shared", "none"] {
                let scan: Vec<Key> = all.iter().filter(|o| label_values("app")(o).contains(&value.to_owned())).map(|o| o.key()).collect();
                prop_assert_eq!(store.index_keys("app", value).expect("app"), scan);
            }
            for ns in ["ns0", "ns1", "ns2"] {
                let scan: Vec<Key> = all.iter().filter(|o| o.metadata.namespace() == ns).map(|o| o.key()).collect();
                prop_assert_eq!(store.index_keys(NAMESPACE_INDEX, ns).expect("ns"), scan);
            }
            let values: BTreeSet<String> = all.iter().map(|o| o.metadata.namespace().to_string()).collect();
            prop_assert_eq!(store.list_index_func_values(NAMESPACE_INDEX), values.into_iter().collect::<Vec<_>>());
        }
    }
}
