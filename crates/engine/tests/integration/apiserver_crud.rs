//! Create / get / list / update / patch through the simulated API server: resourceVersion,
//! optimistic concurrency, generation and the `/status` subresource.

use flywheel_engine::apiserver::{
    ApiServer, ApiServerConfig, LabelSelector, ResourceKind, StatusReason, Verb,
};
use flywheel_engine::object::{Json, Object};
use flywheel_engine::vec_map::VecMap;
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

fn flywheel(name: &str) -> Object {
    let mut o = Object::new("Flywheel", "default", name);
    o.spec = json!({"replicas": 1}).into();
    o
}

fn t(ms: u64) -> SimTime {
    SimTime::from_millis(ms)
}

#[test]
fn create_assigns_a_uid_generation_one_and_the_next_global_revision() {
    let mut s = server(true);
    let before = s.revision();
    let a = s.create(flywheel("a"), t(1)).expect("created");
    let pod = s
        .create(Object::new("Pod", "default", "p"), t(2))
        .expect("created");
    assert_eq!(a.metadata.resource_version, before + 1);
    assert_eq!(
        pod.metadata.resource_version,
        before + 2,
        "one counter for all kinds"
    );
    assert_eq!(a.metadata.generation, 1);
    assert!(!a.metadata.uid.is_empty());
    assert_ne!(a.metadata.uid, pod.metadata.uid);
    assert_eq!(
        pod.status,
        json!({"phase": "Pending"}),
        "pod strategy sets Pending"
    );
}

/// Mirrors store_tests.go RunTestCreate's `ErrResourceVersionSetOnCreate` case; the handler turns
/// that plain error into a 500 (responsewriters/status.go ErrorToAPIStatus).
#[test]
fn create_with_a_resource_version_fails_with_the_storage_error() {
    let mut s = server(true);
    let mut o = flywheel("a");
    o.metadata.resource_version = 5;
    let err = s.create(o, t(1)).expect_err("rv set");
    assert_eq!((err.code, err.reason), (500, StatusReason::Unknown));
    assert_eq!(
        err.message,
        "resourceVersion should not be set on objects to be created"
    );
}

#[test]
fn creating_a_taken_name_is_409_already_exists() {
    let mut s = server(true);
    s.create(flywheel("a"), t(1)).expect("created");
    let err = s.create(flywheel("a"), t(2)).expect_err("taken");
    assert_eq!((err.code, err.reason), (409, StatusReason::AlreadyExists));
    assert_eq!(
        err.message,
        "flywheels.demo.flywheel.dev \"a\" already exists"
    );
}

/// apimachinery `pkg/api/validation/path/name.go` `IsValidPathSegmentName`, through
/// `ValidateObjectMetaAccessor`: a name is one segment of the object's URL path.
#[test]
fn creating_a_name_with_a_slash_is_422_invalid_and_stores_nothing() {
    let mut s = server(true);
    let err = s.create(flywheel("a/b"), t(1)).expect_err("invalid name");
    assert_eq!((err.code, err.reason), (422, StatusReason::Invalid));
    assert_eq!(
        err.message,
        r#"Flywheel.demo.flywheel.dev "a/b" is invalid: metadata.name: Invalid value: "a/b": may not contain '/'"#
    );
    assert!(s
        .list("Flywheel", None, None)
        .expect("listed")
        .items
        .is_empty());
}

#[test]
fn creating_in_a_missing_namespace_is_404() {
    let mut s = server(true);
    let err = s
        .create(Object::new("Flywheel", "nowhere", "a"), t(1))
        .expect_err("no namespace");
    assert_eq!(err.code, 404);
    assert_eq!(err.message, "namespaces \"nowhere\" not found");
}

#[test]
fn a_crd_with_the_status_subresource_drops_status_on_create_and_one_without_keeps_it() {
    for (sub, expected) in [(true, json!(null)), (false, json!({"ready": true}))] {
        let mut s = server(sub);
        let mut o = flywheel("a");
        o.status = json!({"ready": true}).into();
        let created = s.create(o, t(1)).expect("created");
        assert_eq!(created.status, expected, "status subresource {sub}");
    }
}

#[test]
fn get_of_a_missing_object_is_404_with_the_upstream_message() {
    let mut s = server(true);
    let err = s.get("Flywheel", "default", "nope").expect_err("missing");
    assert!(err.is_not_found());
    assert_eq!(
        err.message,
        "flywheels.demo.flywheel.dev \"nope\" not found"
    );
    let err = s.get("Unknown", "default", "x").expect_err("no such kind");
    assert_eq!(err.code, 404);
}

#[test]
fn list_filters_by_namespace_and_labels_and_carries_the_store_revision() {
    let mut s = server(true);
    let mut labelled = flywheel("b");
    labelled.metadata.labels = Some(VecMap::from([("app".into(), "demo".into())]).into());
    s.create(flywheel("a"), t(1)).expect("created");
    s.create(labelled, t(2)).expect("created");
    s.create(Object::new("Flywheel", "kube-system", "c"), t(3))
        .expect("created");
    s.create(Object::new("Pod", "default", "later"), t(4))
        .expect("created");
    let all = s.list("Flywheel", None, None).expect("listed");
    let names: Vec<&str> = all.items.iter().map(|o| o.metadata.name()).collect();
    assert_eq!(names, ["a", "b", "c"]);
    assert_eq!(
        all.resource_version,
        s.revision(),
        "list RV is the revision, not the max item RV"
    );
    let in_default = s.list("Flywheel", Some("default"), None).expect("listed");
    assert_eq!(in_default.items.len(), 2);
    let sel = LabelSelector::parse("app=demo").expect("parses");
    let selected = s.list("Flywheel", None, Some(&sel)).expect("listed");
    assert_eq!(selected.items.len(), 1);
    assert_eq!(selected.items[0].metadata.name(), "b");
}

/// A user's command on the first few objects LISTs them all; only the items it reads are handed
/// out, and the LIST is counted once, as a whole list's.
#[test]
fn a_list_read_for_its_first_items_gives_the_list_s_first_items_and_counts_one_list() {
    let mut s = server(true);
    for (i, name) in ["c", "a", "d", "b"].into_iter().enumerate() {
        s.create(flywheel(name), t(i as u64)).expect("created");
    }
    let all = s.list("Flywheel", None, None).expect("listed");
    let lists = |s: &ApiServer| s.request_total().get(&(Verb::List, 200)).copied();
    assert_eq!(lists(&s), Some(1));
    let head = s.list_head("Flywheel", 2).expect("listed");
    let names: Vec<&str> = head.items.iter().map(|o| o.metadata.name()).collect();
    assert_eq!(names, ["a", "b"]);
    assert!(head
        .items
        .iter()
        .zip(&all.items)
        .all(|(h, a)| std::rc::Rc::ptr_eq(h, a)));
    assert_eq!(head.resource_version, all.resource_version);
    assert_eq!(lists(&s), Some(2));
    assert_eq!(s.list_head("Flywheel", 10).expect("listed").items.len(), 4);
    let missing = s.list_head("Nothing", 1).expect_err("no such kind");
    assert_eq!(missing.code, 404);
    assert_eq!(s.request_total().get(&(Verb::List, 404)), Some(&1));
}

/// Spec §1.2/§1.3 order: the resourceVersion precondition runs before the no-op test.
#[test]
fn an_update_with_a_stale_resource_version_conflicts_even_when_it_would_be_a_no_op() {
    let mut s = server(true);
    let v1 = s.create(flywheel("a"), t(1)).expect("created");
    let mut changed = (*v1).clone();
    changed.spec = json!({"replicas": 2}).into();
    s.update(changed, t(2)).expect("updated");
    let err = s.update((*v1).clone(), t(3)).expect_err("stale");
    assert_eq!((err.code, err.reason), (409, StatusReason::Conflict));
    assert_eq!(
        err.message,
        "Operation cannot be fulfilled on flywheels.demo.flywheel.dev \"a\": the object has been \
         modified; please apply your changes to the latest version and try again"
    );
}

#[test]
fn a_custom_resource_put_without_resource_version_is_422_while_a_pod_put_is_unconditional() {
    let mut s = server(true);
    let created = s.create(flywheel("a"), t(1)).expect("created");
    let mut no_rv = (*created).clone();
    no_rv.metadata.resource_version = 0;
    no_rv.spec = json!({"replicas": 5}).into();
    let err = s.update(no_rv, t(2)).expect_err("CR needs RV");
    assert_eq!((err.code, err.reason), (422, StatusReason::Invalid));
    assert!(
        err.message.contains(
            "metadata.resourceVersion: Invalid value: 0: must be specified for an update"
        ),
        "{err}"
    );

    let pod = s
        .create(Object::new("Pod", "default", "p"), t(3))
        .expect("created");
    let mut pod_no_rv = (*pod).clone();
    pod_no_rv.metadata.resource_version = 0;
    pod_no_rv.spec = json!({"nodeName": "n1"}).into();
    let updated = s.update(pod_no_rv, t(4)).expect("pods allow it");
    assert_eq!(updated.metadata.generation, 2);
}

#[test]
fn the_main_endpoint_ignores_status_when_the_crd_serves_status_so_the_put_is_a_no_op() {
    let mut s = server(true);
    let created = s.create(flywheel("a"), t(1)).expect("created");
    s.drain_events();
    let mut with_status = (*created).clone();
    with_status.status = json!({"lastSync": 123}).into();
    let out = s.update(with_status, t(2)).expect("accepted");
    assert_eq!(out.status, json!(null), "status change dropped");
    assert_eq!(
        out.metadata.resource_version,
        created.metadata.resource_version
    );
    assert!(s.drain_events().is_empty());
}

#[test]
fn update_status_is_404_when_the_crd_lacks_the_status_subresource() {
    let mut s = server(false);
    let created = s.create(flywheel("a"), t(1)).expect("created");
    let err = s
        .update_status((*created).clone(), t(2))
        .expect_err("no /status");
    assert_eq!((err.code, err.reason), (404, StatusReason::NotFound));
    let err = s
        .patch_status(
            "Flywheel",
            "default",
            "a",
            &Json::from(json!({"status": {}})),
            t(3),
        )
        .expect_err("no /status");
    assert_eq!(err.code, 404);
}

/// Mirrors status_strategy_test.go TestPrepareForUpdate end to end.
#[test]
fn update_status_takes_only_status_and_keeps_generation() {
    let mut s = server(true);
    let created = s.create(flywheel("a"), t(1)).expect("created");
    let mut req = (*created).clone();
    req.status = json!({"observedGeneration": 1}).into();
    req.spec = json!({"replicas": 99}).into();
    req.metadata.labels = Some(VecMap::from([("ignored".into(), "yes".into())]).into());
    let out = s.update_status(req, t(2)).expect("status written");
    assert_eq!(out.status, json!({"observedGeneration": 1}));
    assert_eq!(out.spec, json!({"replicas": 1}));
    assert_eq!(out.metadata.labels, None);
    assert_eq!(out.metadata.generation, 1);
    assert!(out.metadata.resource_version > created.metadata.resource_version);
}

#[test]
fn a_metadata_only_change_moves_the_resource_version_but_not_generation() {
    let mut s = server(false);
    let created = s.create(flywheel("a"), t(1)).expect("created");
    let mut req = (*created).clone();
    req.metadata.annotations = Some(VecMap::from([("touched".into(), "1".into())]).into());
    let out = s.update(req, t(2)).expect("updated");
    assert_eq!(out.metadata.generation, 1);
    assert!(out.metadata.resource_version > created.metadata.resource_version);
}

/// rest/update.go BeforeUpdate: "Ensure requests cannot update generation".
#[test]
fn a_client_cannot_set_generation() {
    let mut s = server(true);
    let created = s.create(flywheel("a"), t(1)).expect("created");
    let mut req = (*created).clone();
    req.metadata.generation = 99;
    let out = s.update(req, t(2)).expect("accepted");
    assert_eq!(out.metadata.generation, 1);
    assert_eq!(
        out.metadata.resource_version, created.metadata.resource_version,
        "no-op"
    );
}

/// controller-runtime `client.MergeFrom` sends no resourceVersion: never a conflict.
#[test]
fn a_merge_patch_without_resource_version_never_conflicts() {
    let mut s = server(true);
    s.create(flywheel("a"), t(1)).expect("created");
    for i in 0..3 {
        let out = s
            .patch(
                "Flywheel",
                "default",
                "a",
                &Json::from(json!({"spec": {"replicas": 10 + i}})),
                t(2 + i),
            )
            .expect("patched");
        assert_eq!(out.spec, json!({"replicas": 10 + i}));
        assert_eq!(out.metadata.generation, 2 + i as i64);
    }
}

/// controller-runtime `MergeFromWithOptimisticLock` puts the original RV in the patch.
#[test]
fn a_merge_patch_carrying_a_stale_resource_version_conflicts() {
    let mut s = server(true);
    let v1 = s.create(flywheel("a"), t(1)).expect("created");
    s.patch(
        "Flywheel",
        "default",
        "a",
        &Json::from(json!({"spec": {"replicas": 2}})),
        t(2),
    )
    .expect("patched");
    let stale = json!({
        "metadata": {"resourceVersion": v1.metadata.resource_version.to_string()},
        "spec": {"replicas": 3}
    });
    let err = s
        .patch("Flywheel", "default", "a", &Json::from(stale.clone()), t(3))
        .expect_err("stale");
    assert!(err.is_conflict(), "{err}");
}

#[test]
fn a_null_in_a_merge_patch_removes_the_key() {
    let mut s = server(true);
    let mut o = flywheel("a");
    o.metadata.labels =
        Some(VecMap::from([("keep".into(), "1".into()), ("drop".into(), "1".into())]).into());
    s.create(o, t(1)).expect("created");
    let out = s
        .patch(
            "Flywheel",
            "default",
            "a",
            &Json::from(json!({"metadata": {"labels": {"drop": null}}})),
            t(2),
        )
        .expect("patched");
    assert_eq!(
        out.metadata.labels,
        Some(VecMap::from([("keep".into(), "1".into())]).into())
    );
    assert_eq!(out.metadata.generation, 1, "metadata only");
}

#[test]
fn a_patch_renaming_the_object_is_a_bad_request() {
    let mut s = server(true);
    s.create(flywheel("a"), t(1)).expect("created");
    let err = s
        .patch(
            "Flywheel",
            "default",
            "a",
            &Json::from(json!({"metadata": {"name": "b"}})),
            t(2),
        )
        .expect_err("rename");
    assert_eq!(err.code, 400);
}

#[test]
fn every_request_outcome_is_counted_by_verb_and_code() {
    let mut s = server(true);
    let created = s.create(flywheel("a"), t(1)).expect("created");
    let _ = s.create(flywheel("a"), t(2));
    let _ = s.get("Flywheel", "default", "a");
    let _ = s.get("Flywheel", "default", "missing");
    let mut stale = (*created).clone();
    stale.metadata.resource_version -= 1;
    let _ = s.update(stale, t(3));
    let mut no_rv = (*created).clone();
    no_rv.metadata.resource_version = 0;
    let _ = s.update(no_rv, t(4));
    let m = s.metrics();
    assert_eq!(m.requests(Verb::Create, 201), 1);
    assert_eq!(m.requests(Verb::Create, 409), 1);
    assert_eq!(m.requests(Verb::Get, 200), 1);
    assert_eq!(m.requests(Verb::Get, 404), 1);
    assert_eq!(m.requests(Verb::Update, 409), 1);
    assert_eq!(m.requests(Verb::Update, 422), 1);
    assert_eq!(m.objects.get("Flywheel"), Some(&1));
    assert_eq!(
        m.objects.get("Namespace"),
        Some(&2),
        "default and kube-system"
    );
    assert_eq!(m.resource_version, s.revision());
}

#[test]
fn kinds_declared_in_the_config_are_served_from_the_start_and_duplicates_are_refused() {
    let fw = ResourceKind::custom_resource("Flywheel", "flywheels", "demo.dev", true, false);
    let mut s = ApiServer::new(ApiServerConfig {
        kinds: vec![fw.clone()],
        ..ApiServerConfig::default()
    })
    .expect("valid config");
    assert_eq!(s.kind("Flywheel"), Some(&fw));
    s.create(flywheel("a"), t(1)).expect("served");
    let err = ApiServer::new(ApiServerConfig {
        kinds: vec![fw.clone(), fw],
        ..ApiServerConfig::default()
    })
    .expect_err("duplicate");
    assert_eq!(err.field, "kind.name");
}

/// apiserver `pkg/registry/generic/registry/store.go` `Update`: the request's uid becomes a storage
/// precondition (`pkg/registry/rest/update.go` `defaultUpdatedObjectInfo.Preconditions`), checked
/// by `GuaranteedUpdate` before the update function — so before the resourceVersion check — and
/// `pkg/storage/errors/storage.go` `InterpretUpdateError` turns the `NewInvalidObjError` into 409.
#[test]
fn a_put_naming_another_uid_is_a_409_conflict_before_the_resource_version_is_checked() {
    let mut s = server(true);
    let created = s.create(flywheel("a"), t(1)).expect("created");
    let mut other = (*created).clone();
    other.metadata.uid = "someone-else".into();
    // A stale resourceVersion as well: the uid precondition answers first.
    other.metadata.resource_version += 7;
    let err = s.update(other.clone(), t(2)).expect_err("uid precondition");
    assert_eq!((err.code, err.reason), (409, StatusReason::Conflict));
    assert_eq!(
        err.message,
        format!(
            "Operation cannot be fulfilled on flywheels.demo.flywheel.dev \"a\": StorageError: \
             invalid object, Code: 4, Key: /registry/demo.flywheel.dev/flywheels/default/a, \
             ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: \
             someone-else, UID in object meta: {}",
            created.metadata.uid
        )
    );
    // The /status PUT goes through the same `Store.Update`.
    let err = s.update_status(other, t(3)).expect_err("uid precondition");
    assert_eq!(err.code, 409);
    assert_eq!(s.request_total().get(&(Verb::Update, 409)), Some(&2));
    // An empty uid names no precondition: it is taken from the stored object.
    let mut no_uid = (*created).clone();
    no_uid.metadata.uid = "".into();
    no_uid.metadata.labels = Some(VecMap::from([("k".into(), "v".into())]).into());
    let updated = s.update(no_uid, t(4)).expect("no precondition");
    assert_eq!(updated.metadata.uid, created.metadata.uid);
}

/// apiserver `pkg/endpoints/handlers/patch.go` hands `rest.DefaultUpdatedObjectInfo(nil, …)` to
/// `Store.Update`, so a PATCH has no uid precondition: a patched uid fails
/// `ValidateObjectMetaUpdate`'s immutability rule instead (apimachinery
/// `pkg/api/validation/objectmeta.go`), a 422.
#[test]
fn a_merge_patch_changing_the_uid_is_422_field_is_immutable() {
    let mut s = server(true);
    s.create(flywheel("a"), t(1)).expect("created");
    let err = s
        .patch(
            "Flywheel",
            "default",
            "a",
            &Json::from(json!({"metadata": {"uid": "someone-else"}})),
            t(2),
        )
        .expect_err("immutable");
    assert_eq!((err.code, err.reason), (422, StatusReason::Invalid));
    assert!(
        err.message
            .contains("metadata.uid: Invalid value: \"someone-else\": field is immutable"),
        "{err}"
    );
}

/// A PUT's body that no one else holds is stored as it is (stamped with the new revision in
/// place), and a body still shared with the caller is copied: the caller's object never changes.
#[test]
fn an_update_stores_a_body_no_one_else_holds_without_copying_it_and_copies_a_shared_one() {
    use flywheel_engine::object::ObjectRef;
    let mut s = server(true);
    let created = s.create(flywheel("a"), t(1)).expect("created");
    let mut body = (*created).clone();
    body.status = json!({"phase": "Running"}).into();
    let body = ObjectRef::new(body);
    let at = ObjectRef::as_ptr(&body);
    let stored = s.update_status(body, t(2)).expect("updated");
    assert_eq!(
        ObjectRef::as_ptr(&stored),
        at,
        "the body became the stored object"
    );
    assert_eq!(
        stored.metadata.resource_version,
        created.metadata.resource_version + 1
    );

    let mut shared = (*stored).clone();
    shared.status = json!({"phase": "Done"}).into();
    let shared = ObjectRef::new(shared);
    let kept = ObjectRef::clone(&shared);
    let written = s.update_status(shared, t(3)).expect("updated");
    assert_ne!(ObjectRef::as_ptr(&written), ObjectRef::as_ptr(&kept));
    assert_eq!(
        kept.metadata.resource_version, stored.metadata.resource_version,
        "the caller's copy keeps the revision it was sent with"
    );
    assert_eq!(
        written.metadata.resource_version,
        stored.metadata.resource_version + 1
    );
}

#[test]
fn request_totals_count_each_verb_and_code_whatever_order_they_come_in() {
    let mut s = server(true);
    let before: Vec<_> = s.request_total().iter().map(|(k, v)| (*k, *v)).collect();
    // runs of one key, keys that sort before the last one counted, and back again
    let calls = [
        (Verb::Update, 200),
        (Verb::Update, 200),
        (Verb::Create, 201),
        (Verb::Get, 200),
        (Verb::Update, 200),
        (Verb::Update, 409),
        (Verb::Get, 404),
        (Verb::Update, 200),
        (Verb::Create, 201),
    ];
    let mut expected = std::collections::BTreeMap::new();
    for (key, count) in before {
        expected.insert(key, count);
    }
    for (verb, code) in calls {
        s.record_request(verb, code);
        *expected.entry((verb, code)).or_insert(0) += 1;
    }
    let counted: Vec<_> = s.request_total().iter().map(|(k, v)| (*k, *v)).collect();
    assert_eq!(counted, expected.into_iter().collect::<Vec<_>>());
}
