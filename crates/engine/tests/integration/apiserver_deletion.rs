//! Deletion: finalizers, deletionTimestamp, graceful pod deletion and namespace termination.

use flywheel_engine::apiserver::{
    object_to_json, ApiServer, ApiServerConfig, DeleteOptions, ResourceKind, StatusReason,
    WatchEventType,
};
use flywheel_engine::object::{Object, ObjectRef};
use flywheel_engine::SimTime;
use serde_json::json;

fn server() -> ApiServer {
    let mut s = ApiServer::new(ApiServerConfig::default()).expect("default config is valid");
    s.register_kind(ResourceKind::custom_resource(
        "Flywheel",
        "flywheels",
        "demo.flywheel.dev",
        true,
        true,
    ))
    .expect("new kind");
    s
}

fn t(ms: u64) -> SimTime {
    SimTime::from_millis(ms)
}

fn with_finalizer(s: &mut ApiServer, ns: &str, name: &str) -> ObjectRef {
    let mut o = Object::new("Flywheel", ns, name);
    o.metadata
        .set_finalizers(vec!["demo.flywheel.dev/cleanup".into()]);
    let created = s.create(o, t(1)).expect("created");
    s.drain_events();
    created
}

fn delete(s: &mut ApiServer, kind: &str, ns: &str, name: &str, now: SimTime) -> bool {
    s.delete(kind, ns, name, &DeleteOptions::default(), now)
        .expect("delete accepted")
        .removed
}

fn event_types(s: &mut ApiServer) -> Vec<WatchEventType> {
    s.drain_events()
        .into_iter()
        .map(|(_, e)| e.event_type)
        .collect()
}

/// Mirrors registry store_test.go TestNonGracefulStoreHandleFinalizers.
#[test]
fn a_finalizer_holds_a_deleted_object_until_an_update_removes_it() {
    let mut s = server();
    let created = with_finalizer(&mut s, "default", "fw");

    assert!(!delete(&mut s, "Flywheel", "default", "fw", t(10)));
    let marked = s.get("Flywheel", "default", "fw").expect("still there");
    assert_eq!(marked.metadata.deletion_timestamp(), Some(t(10)));
    assert!(
        marked.metadata.generation > created.metadata.generation,
        "deletion bumps generation"
    );
    assert_eq!(event_types(&mut s), [WatchEventType::Modified]);

    // An update that keeps the finalizer keeps the object.
    let mut keep = (*marked).clone();
    keep.metadata.annotations = Some(Box::new([("x".to_owned(), "y".to_owned())].into()));
    let kept = s.update(keep, t(11)).expect("updated");
    assert!(s.get("Flywheel", "default", "fw").is_ok());

    // Removing the last finalizer deletes it: DELETED with the deletion revision.
    let mut release = (*kept).clone();
    release.metadata.finalizers_mut().clear();
    s.update(release, t(12)).expect("update accepted");
    assert!(s
        .get("Flywheel", "default", "fw")
        .expect_err("gone")
        .is_not_found());
    let events = s.drain_events();
    let deleted = &events.last().expect("an event").1;
    assert_eq!(deleted.event_type, WatchEventType::Deleted);
    assert_eq!(deleted.resource_version, s.revision());
    assert_eq!(
        deleted.object.metadata.finalizers(),
        kept.metadata.finalizers(),
        "the DELETED event carries the last stored state"
    );
}

/// Spec §1.5: a repeated DELETE re-runs markAsDeleting, produces identical bytes ⇒ no-op.
#[test]
fn a_repeated_delete_of_an_object_being_deleted_is_a_no_op() {
    let mut s = server();
    with_finalizer(&mut s, "default", "fw");
    delete(&mut s, "Flywheel", "default", "fw", t(10));
    s.drain_events();
    let rv = s.revision();
    assert!(!delete(&mut s, "Flywheel", "default", "fw", t(20)));
    assert_eq!(s.revision(), rv);
    assert!(s.drain_events().is_empty());
    let obj = s.get("Flywheel", "default", "fw").expect("still there");
    assert_eq!(
        obj.metadata.deletion_timestamp(),
        Some(t(10)),
        "timestamp kept"
    );
}

#[test]
fn deleting_without_finalizers_removes_at_once_with_a_deleted_event_at_the_deletion_revision() {
    let mut s = server();
    let created = s
        .create(Object::new("Flywheel", "default", "fw"), t(1))
        .expect("created");
    s.drain_events();
    let result = s
        .delete("Flywheel", "default", "fw", &DeleteOptions::default(), t(2))
        .expect("deleted");
    assert!(result.removed);
    assert_eq!(
        result.object.metadata.resource_version,
        created.metadata.resource_version + 1
    );
    let events = s.drain_events();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].1.event_type, WatchEventType::Deleted);
    assert_eq!(events[0].1.resource_version, s.revision());
}

/// apimachinery objectmeta.go ValidateNoNewFinalizers.
#[test]
fn adding_a_finalizer_to_an_object_being_deleted_is_422() {
    let mut s = server();
    with_finalizer(&mut s, "default", "fw");
    delete(&mut s, "Flywheel", "default", "fw", t(10));
    let mut req = (*s.get("Flywheel", "default", "fw").expect("exists")).clone();
    req.metadata.finalizers_mut().push("late/one".into());
    let err = s.update(req, t(11)).expect_err("forbidden");
    assert_eq!((err.code, err.reason), (422, StatusReason::Invalid));
    assert!(
        err.message
            .contains("no new finalizers can be added if the object is being deleted"),
        "{err}"
    );
}

/// rest/update.go BeforeUpdate + ValidateImmutableField(deletionTimestamp).
#[test]
fn deletion_timestamp_cannot_be_set_or_moved_through_an_update() {
    let mut s = server();
    let created = with_finalizer(&mut s, "default", "fw");
    let mut set = (*created).clone();
    set.metadata.set_deletion_timestamp(Some(t(5)));
    let err = s.update(set, t(6)).expect_err("immutable");
    assert_eq!(err.code, 422);

    delete(&mut s, "Flywheel", "default", "fw", t(10));
    let mut moved = (*s.get("Flywheel", "default", "fw").expect("exists")).clone();
    moved.metadata.set_deletion_timestamp(Some(t(99)));
    let out = s.update(moved, t(11)).expect("old timestamp copied over");
    assert_eq!(out.metadata.deletion_timestamp(), Some(t(10)));
}

#[test]
fn delete_preconditions_that_do_not_match_are_409() {
    let mut s = server();
    let created = with_finalizer(&mut s, "default", "fw");
    let opts = DeleteOptions {
        precondition_resource_version: Some(created.metadata.resource_version + 100),
        ..DeleteOptions::default()
    };
    let err = s
        .delete("Flywheel", "default", "fw", &opts, t(2))
        .expect_err("rv precondition");
    assert!(err.is_conflict());
    let opts = DeleteOptions {
        precondition_uid: Some("someone-else".into()),
        ..DeleteOptions::default()
    };
    assert!(s
        .delete("Flywheel", "default", "fw", &opts, t(3))
        .expect_err("uid precondition")
        .is_conflict());
}

/// rest/delete.go BeforeDelete with the pod strategy's CheckGracefulDelete.
#[test]
fn a_scheduled_pod_is_deleted_gracefully_and_removed_by_a_zero_grace_delete() {
    let mut s = server();
    let mut pod = Object::new("Pod", "default", "p");
    pod.spec = json!({"nodeName": "n1"}).into();
    s.create(pod, t(0)).expect("created");
    s.drain_events();

    assert!(!delete(&mut s, "Pod", "default", "p", t(1_000)));
    let terminating = s.get("Pod", "default", "p").expect("still there");
    assert_eq!(terminating.metadata.deletion_timestamp(), Some(t(31_000)));
    assert_eq!(terminating.metadata.deletion_grace_period_s(), Some(30));
    assert_eq!(terminating.metadata.generation, 2);
    assert_eq!(event_types(&mut s), [WatchEventType::Modified]);

    assert!(
        !delete(&mut s, "Pod", "default", "p", t(2_000)),
        "pending: nothing changes"
    );
    assert!(s.drain_events().is_empty());

    let now = DeleteOptions {
        grace_period_s: Some(0),
        ..DeleteOptions::default()
    };
    let result = s
        .delete("Pod", "default", "p", &now, t(3_000))
        .expect("deleted");
    assert!(result.removed);
    assert_eq!(
        event_types(&mut s),
        [WatchEventType::Modified, WatchEventType::Deleted]
    );
}

#[test]
fn an_unscheduled_pod_is_removed_at_once() {
    let mut s = server();
    s.create(Object::new("Pod", "default", "p"), t(0))
        .expect("created");
    s.drain_events();
    assert!(delete(&mut s, "Pod", "default", "p", t(1)));
    assert_eq!(event_types(&mut s).last(), Some(&WatchEventType::Deleted));
}

#[test]
fn a_deleted_namespace_terminates_empties_and_disappears() {
    let mut s = server();
    s.create(Object::new("Namespace", "", "team"), t(0))
        .expect("created");
    s.create(Object::new("Flywheel", "team", "plain"), t(0))
        .expect("created");
    with_finalizer(&mut s, "team", "held");

    assert!(!delete(&mut s, "Namespace", "", "team", t(1)));
    let ns = s.get("Namespace", "", "team").expect("terminating");
    assert_eq!(ns.status["phase"], json!("Terminating"));
    let err = s
        .create(Object::new("Flywheel", "team", "new"), t(2))
        .expect_err("terminating namespace");
    assert_eq!(err.code, 403);
    let err = s
        .delete("Namespace", "", "team", &DeleteOptions::default(), t(2))
        .expect_err("content remains");
    assert_eq!(err.code, 409);

    let first = s.namespace_finalize_step(t(3));
    assert_eq!(first.deletes_issued.len(), 2);
    assert_eq!(first.waiting, ["team"]);
    assert!(s.get("Flywheel", "team", "plain").is_err());
    let held = s
        .get("Flywheel", "team", "held")
        .expect("held by finalizer");
    assert!(held.metadata.deletion_timestamp().is_some());

    let mut release = (*held).clone();
    release.metadata.finalizers_mut().clear();
    s.update(release, t(4)).expect("finalizer removed");
    let second = s.namespace_finalize_step(t(5));
    assert_eq!(second.removed, ["team"]);
    assert!(s.get("Namespace", "", "team").is_err());
}

/// The namespace controller deletes the content of the terminating namespace only: not that of
/// namespaces whose names it begins (`team-a`, `team0`), nor of one that sorts just after it.
#[test]
fn a_terminating_namespace_s_content_is_deleted_and_its_neighbours_kept() {
    let mut s = server();
    for ns in ["team", "team-a", "team0", "teamz", "tea"] {
        s.create(Object::new("Namespace", "", ns), t(0))
            .expect("created");
        s.create(Object::new("Flywheel", ns, "x"), t(0))
            .expect("created");
    }
    s.create(Object::new("Flywheel", "team", "y"), t(0))
        .expect("created");
    assert!(!delete(&mut s, "Namespace", "", "team", t(1)));
    let first = s.namespace_finalize_step(t(2));
    let issued: Vec<&str> = first
        .deletes_issued
        .iter()
        .map(|(_, k)| k.as_str())
        .collect();
    assert_eq!(issued, ["team/x", "team/y"], "in key order");
    assert_eq!(
        first.removed,
        ["team"],
        "emptied, then finalized in the same pass"
    );
    for ns in ["team-a", "team0", "teamz", "tea"] {
        assert!(s.get("Flywheel", ns, "x").is_ok(), "{ns}'s object kept");
        assert!(s.get("Namespace", "", ns).is_ok(), "{ns} kept");
    }
}

/// apiserver `pkg/registry/generic/registry/store.go` `markAsDeleting`: a DELETE held by a finalizer
/// sets deletionGracePeriodSeconds to 0 together with the deletionTimestamp, and the wire form
/// (what `kubectl get -o yaml` shows) carries it — 0 is shown, only nil is left out.
#[test]
fn a_finalizer_held_delete_sets_deletion_grace_period_seconds_to_zero_with_the_timestamp() {
    let mut s = server();
    let created = with_finalizer(&mut s, "default", "fw");
    assert_eq!(created.metadata.deletion_grace_period_s(), None);
    let live = object_to_json(&created);
    assert!(live["metadata"].get("deletionGracePeriodSeconds").is_none());

    delete(&mut s, "Flywheel", "default", "fw", t(10));
    let marked = s.get("Flywheel", "default", "fw").expect("held");
    assert_eq!(marked.metadata.deletion_timestamp(), Some(t(10)));
    assert_eq!(marked.metadata.deletion_grace_period_s(), Some(0));
    let wire = object_to_json(&marked);
    assert_eq!(wire["metadata"]["deletionGracePeriodSeconds"], json!(0));
    let events = s.drain_events();
    assert_eq!(
        events[0].1.object.metadata.deletion_grace_period_s(),
        Some(0)
    );
}

/// apiserver `pkg/registry/rest/update.go` `BeforeUpdate` copies deletionGracePeriodSeconds when the
/// request leaves it out; apimachinery `pkg/api/validation/objectmeta.go`
/// `ValidateObjectMetaUpdate` makes it immutable (422) — alongside the finalizer rule.
#[test]
fn deletion_grace_period_seconds_survives_an_update_that_omits_it_and_cannot_be_changed() {
    let mut s = server();
    with_finalizer(&mut s, "default", "fw");
    delete(&mut s, "Flywheel", "default", "fw", t(10));
    let marked = s.get("Flywheel", "default", "fw").expect("held");

    let mut omitted = (*marked).clone();
    omitted.metadata.set_deletion_grace_period_s(None);
    omitted.metadata.annotations = Some(Box::new([("x".to_owned(), "y".to_owned())].into()));
    let kept = s
        .update(omitted, t(11))
        .expect("copied from the stored object");
    assert_eq!(kept.metadata.deletion_grace_period_s(), Some(0));

    let mut changed = (*kept).clone();
    changed.metadata.set_deletion_grace_period_s(Some(30));
    let err = s.update(changed, t(12)).expect_err("immutable");
    assert_eq!((err.code, err.reason), (422, StatusReason::Invalid));
    assert!(
        err.message
            .contains("metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable"),
        "{err}"
    );

    // A live object cannot be given one either.
    let live = s
        .create(Object::new("Flywheel", "default", "live"), t(13))
        .expect("created");
    let mut set = (*live).clone();
    set.metadata.set_deletion_grace_period_s(Some(5));
    assert_eq!(s.update(set, t(14)).expect_err("immutable").code, 422);
}
