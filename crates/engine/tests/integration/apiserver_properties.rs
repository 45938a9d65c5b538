//! Properties over random request sequences: resourceVersions only grow, each write that changed
//! stored bytes yields exactly one watch event (one etcd transaction), a no-op yields none, and no
//! input makes the server panic.

use std::collections::BTreeMap;

use flywheel_engine::apiserver::{
    ApiServer, ApiServerConfig, DeleteOptions, ResourceKind, WatchCacheConfig, WatchEventType,
};
use flywheel_engine::object::{Json, Object};
use flywheel_engine::SimTime;
use proptest::prelude::*;
use serde_json::json;

#[derive(Clone, Debug)]
enum Op {
    Create(u8),
    SetSpec(u8, u8),
    SetStatusFull(u8, u8),
    SetStatus(u8, u8),
    PatchStatus(u8, u8),
    AddFinalizer(u8),
    ClearFinalizers(u8),
    Delete(u8),
    StaleUpdate(u8),
    WatchFrom(u64),
}

fn op() -> impl Strategy<Value = Op> {
    let name = 0u8..4;
    prop_oneof![
        name.clone().prop_map(Op::Create),
        (name.clone(), 0u8..3).prop_map(|(n, v)| Op::SetSpec(n, v)),
        (name.clone(), 0u8..3).prop_map(|(n, v)| Op::SetStatusFull(n, v)),
        (name.clone(), 0u8..3).prop_map(|(n, v)| Op::SetStatus(n, v)),
        (name.clone(), 0u8..3).prop_map(|(n, v)| Op::PatchStatus(n, v)),
        name.clone().prop_map(Op::AddFinalizer),
        name.clone().prop_map(Op::ClearFinalizers),
        name.clone().prop_map(Op::Delete),
        name.prop_map(Op::StaleUpdate),
        (0u64..60).prop_map(Op::WatchFrom),
    ]
}

fn server(status_subresource: bool) -> ApiServer {
    let config = ApiServerConfig {
        watch_cache: WatchCacheConfig {
            lower_capacity: 4,
            upper_capacity: 8,
            event_fresh_duration_s: 1.0,
        },
        ..ApiServerConfig::default()
    };
    let mut s = ApiServer::new(config).expect("valid config");
    s.register_kind(ResourceKind::custom_resource(
        "Flywheel",
        "flywheels",
        "demo.dev",
        true,
        status_subresource,
    ))
    .expect("new kind");
    s
}

fn name(n: u8) -> String {
    format!("fw-{n}")
}

/// Applies one op; the result is ignored (errors are legitimate answers), only effects matter.
fn apply(s: &mut ApiServer, op: &Op, now: SimTime) {
    let current = |s: &mut ApiServer, n: u8| s.get("Flywheel", "default", &name(n)).ok();
    match *op {
        Op::Create(n) => {
            let _ = s.create(Object::new("Flywheel", "default", &name(n)), now);
        }
        Op::SetSpec(n, v) | Op::SetStatusFull(n, v) | Op::SetStatus(n, v) => {
            if let Some(o) = current(s, n) {
                let mut req = (*o).clone();
                match op {
                    Op::SetSpec(..) => req.spec = json!({ "v": v }).into(),
                    _ => req.status = json!({ "v": v }).into(),
                }
                let _ = if matches!(op, Op::SetStatus(..)) {
                    s.update_status(req, now)
                } else {
                    s.update(req, now)
                };
            }
        }
        Op::PatchStatus(n, v) => {
            let _ = s.patch(
                "Flywheel",
                "default",
                &name(n),
                &Json::from(json!({"status": {"v": v}})),
                now,
            );
        }
        Op::AddFinalizer(n) | Op::ClearFinalizers(n) => {
            if let Some(o) = current(s, n) {
                let mut req = (*o).clone();
                match op {
                    Op::AddFinalizer(_) => req.metadata.finalizers_mut().push("f/x".into()),
                    _ => req.metadata.finalizers_mut().clear(),
                }
                let _ = s.update(req, now);
            }
        }
        Op::Delete(n) => {
            let _ = s.delete(
                "Flywheel",
                "default",
                &name(n),
                &DeleteOptions::default(),
                now,
            );
        }
        Op::StaleUpdate(n) => {
            if let Some(o) = current(s, n) {
                let mut req = (*o).clone();
                req.metadata.resource_version = req.metadata.resource_version.saturating_sub(1);
                req.spec = json!({"stale": true}).into();
                let _ = s.update(req, now);
            }
        }
        Op::WatchFrom(rv) => {
            let _ = s.watch_from("Flywheel", rv);
        }
    }
}

proptest! {
    #[test]
    fn revisions_only_grow_and_each_transaction_yields_exactly_one_event(
        ops in proptest::collection::vec(op(), 1..60),
        status_subresource in any::<bool>(),
    ) {
        let mut s = server(status_subresource);
        let mut last_event_rv = s.revision();
        let mut object_rvs: BTreeMap<flywheel_engine::key::Key, u64> = BTreeMap::new();
        for (i, op) in ops.iter().enumerate() {
            let before = s.revision();
            apply(&mut s, op, SimTime::from_millis(i as u64 * 400));
            let after = s.revision();
            prop_assert!(after >= before, "revision went back on {op:?}");
            let events = s.drain_events();
            // One CR write is one transaction: at most one event per op, exactly one per revision.
            prop_assert_eq!(events.len() as u64, after - before, "op {:?}", op);
            prop_assert!(events.len() <= 1, "op {:?} produced {:?}", op, events);
            for (kind, e) in &events {
                prop_assert_eq!(&**kind, "Flywheel");
                prop_assert!(e.resource_version > last_event_rv);
                last_event_rv = e.resource_version;
                prop_assert_eq!(e.resource_version, e.object.metadata.resource_version);
                let key = e.object.key();
                if e.event_type == WatchEventType::Deleted {
                    object_rvs.remove(&key);
                } else {
                    let previous = object_rvs.insert(key, e.resource_version);
                    prop_assert!(previous.is_none_or(|p| p < e.resource_version));
                }
            }
        }
        // The store agrees with what the events said.
        let listed = s.list("Flywheel", None, None).expect("lists");
        let stored: BTreeMap<flywheel_engine::key::Key, u64> = listed
            .items
            .iter()
            .map(|o| (o.key(), o.metadata.resource_version))
            .collect();
        prop_assert_eq!(stored, object_rvs);
    }

    #[test]
    fn an_identical_rewrite_of_any_object_is_a_no_op(
        ops in proptest::collection::vec(op(), 1..40),
    ) {
        let mut s = server(false);
        for (i, op) in ops.iter().enumerate() {
            apply(&mut s, op, SimTime::from_millis(i as u64));
        }
        s.drain_events();
        let listed = s.list("Flywheel", None, None).expect("lists");
        for o in listed.items {
            let before = s.revision();
            let out = s.update((*o).clone(), SimTime::from_millis(10_000)).expect("same object");
            prop_assert_eq!(out.metadata.resource_version, o.metadata.resource_version);
            prop_assert_eq!(s.revision(), before);
        }
        prop_assert!(s.drain_events().is_empty());
    }
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        "[a-z]{0,3}".prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..3).prop_map(serde_json::Value::from),
            proptest::collection::btree_map(
                prop_oneof![
                    Just("metadata".to_owned()),
                    Just("spec".to_owned()),
                    Just("status".to_owned()),
                    Just("labels".to_owned()),
                    Just("finalizers".to_owned()),
                    Just("resourceVersion".to_owned()),
                    Just("name".to_owned()),
                    "[a-z]{1,3}",
                ],
                inner,
                0..4,
            )
            .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn arbitrary_merge_patches_get_an_answer_never_a_panic(
        patches in proptest::collection::vec(json_value(), 1..12),
    ) {
        let mut s = server(false);
        s.create(Object::new("Flywheel", "default", "fw"), SimTime::ZERO).expect("created");
        s.drain_events();
        for (i, p) in patches.iter().enumerate() {
            let before = s.revision();
            let now = SimTime::from_millis(i as u64);
            for result in [
                s.patch("Flywheel", "default", "fw", &Json::from(p.clone()), now),
                s.patch("Flywheel", "default", "fw", &Json::from(json!({ "metadata": p })), now),
            ] {
                if let Err(e) = result {
                    prop_assert!([400, 404, 409, 422].contains(&e.code), "{}", e);
                }
            }
            prop_assert_eq!(s.drain_events().len() as u64, s.revision() - before);
        }
    }
}
