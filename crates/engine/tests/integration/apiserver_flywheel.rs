//! The death flywheel, as the API server makes it possible: an operator that writes a status
//! timestamp with a full PUT on a CR whose CRD lacks `/status` changes a non-metadata field, so
//! generation and resourceVersion move and a MODIFIED event re-triggers its own reconcile.

use flywheel_engine::apiserver::{ApiServer, ApiServerConfig, ResourceKind, WatchEventType};
use flywheel_engine::object::{Json, Object, ObjectRef};
use flywheel_engine::SimTime;
use serde_json::json;

fn server(status_subresource: bool) -> ApiServer {
    let mut s = ApiServer::new(ApiServerConfig::default()).expect("default config is valid");
    s.register_kind(ResourceKind::custom_resource(
        "Flywheel",
        "flywheels",
        "demo.flywheel.dev",
        true,
        status_subresource,
    ))
    .expect("new kind");
    s
}

fn create(s: &mut ApiServer) -> ObjectRef {
    let mut o = Object::new("Flywheel", "default", "fw");
    o.spec = json!({"replicas": 3}).into();
    let created = s.create(o, SimTime::ZERO).expect("created");
    s.drain_events();
    created
}

/// One reconcile of the naive operator: read the latest object, stamp `status.lastReconcile`, PUT.
fn reconcile_with_full_update(s: &mut ApiServer, now_ms: u64) -> ObjectRef {
    let latest = s.get("Flywheel", "default", "fw").expect("exists");
    let mut req = (*latest).clone();
    req.status = json!({"lastReconcile": now_ms, "ready": true}).into();
    s.update(req, SimTime::from_millis(now_ms))
        .expect("update accepted")
}

/// Mirrors strategy_test.go TestStrategyPrepareForUpdate
/// "/status is disabled, status changes increment generation".
#[test]
fn a_status_change_without_the_status_subresource_bumps_generation() {
    let mut s = server(false);
    let created = create(&mut s);
    let out = reconcile_with_full_update(&mut s, 1_000);
    assert_eq!(out.metadata.generation, created.metadata.generation + 1);
}

#[test]
fn a_full_update_setting_a_status_timestamp_bumps_rv_and_generation_and_emits_modified_every_time()
{
    let mut s = server(false);
    let created = create(&mut s);
    let mut previous = created;
    for i in 1..=10u64 {
        let out = reconcile_with_full_update(&mut s, i * 1_000);
        assert!(out.metadata.resource_version > previous.metadata.resource_version);
        assert_eq!(
            out.metadata.generation,
            previous.metadata.generation + 1,
            "round {i}"
        );
        let events = s.drain_events();
        assert_eq!(events.len(), 1, "round {i}");
        assert_eq!(events[0].1.event_type, WatchEventType::Modified);
        assert_eq!(events[0].1.resource_version, out.metadata.resource_version);
        assert_eq!(
            events[0].1.object.metadata.generation,
            out.metadata.generation
        );
        previous = out;
    }
    assert_eq!(previous.metadata.generation, 11);
}

/// store.go GuaranteedUpdate: identical bytes ⇒ no transaction (store_tests.go "same data").
#[test]
fn writing_the_same_status_twice_is_a_no_op_without_rv_change_or_event() {
    let mut s = server(false);
    create(&mut s);
    let first = reconcile_with_full_update(&mut s, 5_000);
    s.drain_events();
    let second = reconcile_with_full_update(&mut s, 5_000);
    assert_eq!(
        second.metadata.resource_version,
        first.metadata.resource_version
    );
    assert_eq!(second.metadata.generation, first.metadata.generation);
    assert!(s.drain_events().is_empty());
}

/// The fix: with `/status` served and the status written through it, generation stays put, so a
/// `GenerationChanged` predicate filters the operator's own writes.
#[test]
fn with_the_status_subresource_a_status_write_moves_rv_but_not_generation() {
    let mut s = server(true);
    let created = create(&mut s);
    for i in 1..=3u64 {
        let latest = s.get("Flywheel", "default", "fw").expect("exists");
        let mut req = (*latest).clone();
        req.status = json!({"lastReconcile": i}).into();
        let out = s
            .update_status(req, SimTime::from_millis(i))
            .expect("status written");
        assert_eq!(out.metadata.generation, created.metadata.generation);
        assert!(out.metadata.resource_version > latest.metadata.resource_version);
    }
}

#[test]
fn a_merge_patch_of_status_on_the_main_endpoint_without_status_subresource_bumps_generation_too() {
    let mut s = server(false);
    let created = create(&mut s);
    let out = s
        .patch(
            "Flywheel",
            "default",
            "fw",
            &Json::from(json!({"status": {"lastReconcile": 1}})),
            SimTime::from_millis(1),
        )
        .expect("patched");
    assert_eq!(out.metadata.generation, created.metadata.generation + 1);
    let again = s
        .patch(
            "Flywheel",
            "default",
            "fw",
            &Json::from(json!({"status": {"lastReconcile": 1}})),
            SimTime::from_millis(2),
        )
        .expect("patched");
    assert_eq!(
        again.metadata.resource_version,
        out.metadata.resource_version
    );
}
