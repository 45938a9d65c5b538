//! Per-kind registry strategy rules: what create and update may set, when `metadata.generation`
//! moves, what the `/status` endpoint keeps, the finalizer and deletionTimestamp rules, and graceful
//! deletion.
//!
//! Sources: apiextensions-apiserver `pkg/registry/customresource/strategy.go` and
//! `status_strategy.go`; apiserver `pkg/registry/rest/create.go`, `update.go` (`BeforeUpdate`),
//! `delete.go` (`BeforeDelete`), `pkg/endpoints/handlers/create.go` (`WipeObjectMetaSystemFields`),
//! `pkg/registry/generic/registry/store.go` (`markAsDeleting`, `ShouldDeleteDuringUpdate`);
//! apimachinery `pkg/api/validation/objectmeta.go` (`ValidateObjectMetaAccessorUpdate`);
//! kubernetes `pkg/registry/core/pod/strategy.go`, `pkg/registry/core/namespace/strategy.go`.

use super::kind::{KindFamily, ResourceKind};
use super::request::ApiError;
use super::store::Stored;
use crate::object::{Json, JsonMap, Object, Uid};
use crate::time::SimTime;

/// The finalizer the namespace controller owns in a namespace's `spec.finalizers`
/// (`api.FinalizerKubernetes`).
pub const NAMESPACE_FINALIZER: &str = "kubernetes";

/// Pod `spec.terminationGracePeriodSeconds` default (k8s.io/api core/v1
/// `DefaultTerminationGracePeriodSeconds`).
pub const DEFAULT_POD_GRACE_PERIOD_S: i64 = 30;

/// Create-time preparation: the handler wipes system fields (uid), `rest.BeforeCreate` clears
/// deletionTimestamp and deletionGracePeriodSeconds, then the strategy's `PrepareForCreate` runs.
///
/// - Custom resources: generation = 1; `status` dropped when `/status` is served.
/// - Pods: generation = 1; status = `{"phase": "Pending"}`.
/// - Namespaces: status = `{"phase": "Active"}`; `spec.finalizers` gains `kubernetes`.
/// - Other kinds: status dropped when `/status` is served and the family is not `Node`.
pub fn prepare_for_create(kind: &ResourceKind, obj: &mut Object) {
    obj.metadata.uid = Uid::default();
    obj.metadata.set_deletion_timestamp(None);
    obj.metadata.set_deletion_grace_period_s(None);
    if kind.status_subresource && kind.family != KindFamily::Node {
        obj.status = Json::Null;
    }
    if kind.tracks_generation {
        obj.metadata.generation = 1;
    }
    match kind.family {
        KindFamily::Pod => obj.status = Json::object([("phase", Json::from("Pending"))]),
        KindFamily::Namespace => {
            obj.status = Json::object([("phase", Json::from("Active"))]);
            ensure_namespace_finalizer(&mut obj.spec);
        }
        KindFamily::CustomResource | KindFamily::Node => {}
    }
}

fn ensure_namespace_finalizer(spec: &mut Json) {
    if !spec.is_object() {
        *spec = Json::Object(JsonMap::new());
    }
    let has = namespace_spec_finalizers(spec)
        .iter()
        .any(|f| f == NAMESPACE_FINALIZER);
    if !has {
        let mut list = namespace_spec_finalizers(spec);
        list.push(NAMESPACE_FINALIZER.to_owned());
        spec["finalizers"] = list.into_iter().collect();
    }
}

/// A namespace's `spec.finalizers` (absent or malformed ⇒ empty).
pub fn namespace_spec_finalizers(spec: &Json) -> Vec<String> {
    spec.get("finalizers")
        .and_then(Json::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Json::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// The main endpoint's `PrepareForUpdate`: with `/status` served the incoming status is replaced by
/// the old one; then, for kinds that manage generation, any difference outside `metadata` bumps
/// it — so without `/status` a status change bumps generation (customresource `strategy.go`).
/// Namespaces also keep their old spec (`spec.finalizers` changes only through `/finalize`).
pub fn prepare_for_update(kind: &ResourceKind, new: &mut Object, old: &Object) {
    if kind.status_subresource {
        new.status = old.status.clone();
    }
    if kind.family == KindFamily::Namespace {
        new.spec = old.spec.clone();
    }
    // status first: a controller's write changes status far more often than spec, and the
    // first difference found settles it
    if kind.tracks_generation && (new.status != old.status || new.spec != old.spec) {
        new.metadata.generation = old.metadata.generation.saturating_add(1);
    }
}

/// The `/status` endpoint's `PrepareForUpdate`: the new object is the old one with only `status`
/// taken from the request; a request without status deletes it (customresource
/// `status_strategy.go`). Generation therefore never moves. Built-in status strategies differ in
/// which metadata they let through (Deployment: annotations); the simulation uses the CR rule.
pub fn prepare_for_status_update(new: &mut Object, old: &Object) {
    let status = std::mem::take(&mut new.status);
    let size_bytes = new.size_bytes;
    *new = old.clone();
    new.status = status;
    new.size_bytes = size_bytes;
}

/// `rest.BeforeUpdate` around a strategy's `PrepareForUpdate`: generation reset to the old value
/// first (clients cannot set it), uid defaulted from the old object, deletionTimestamp copied from
/// the old object when set, deletionGracePeriodSeconds copied when the request omits it, then
/// `ValidateObjectMetaAccessorUpdate`'s rules as 422 Invalid.
pub fn before_update(
    kind: &ResourceKind,
    new: &mut Object,
    old: &Object,
    prepare: impl FnOnce(&mut Object, &Object),
) -> Result<(), ApiError> {
    new.metadata.generation = old.metadata.generation;
    prepare(new, old);
    if new.metadata.uid.is_empty() {
        new.metadata.uid.clone_from(&old.metadata.uid);
    }
    if old.metadata.deletion_timestamp().is_some() {
        new.metadata
            .set_deletion_timestamp(old.metadata.deletion_timestamp());
    }
    if new.metadata.deletion_grace_period_s().is_none() {
        new.metadata
            .set_deletion_grace_period_s(old.metadata.deletion_grace_period_s());
    }
    let errors = validate_meta_update(new, old);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ApiError::invalid(
            &kind.qualified_kind(),
            new.metadata.name(),
            &errors,
        ))
    }
}

/// The update rules of apimachinery `objectmeta.go` that the simulation can break.
fn validate_meta_update(new: &Object, old: &Object) -> Vec<String> {
    let (n, o) = (&new.metadata, &old.metadata);
    let mut errors = Vec::new();
    if o.deletion_timestamp().is_some() {
        let mut added: Vec<String> = n
            .finalizers()
            .iter()
            .filter(|f| !o.finalizers().contains(f))
            .cloned()
            .collect();
        crate::small_sort::sort_few(&mut added);
        added.dedup();
        if !added.is_empty() {
            errors.push(format!(
                "metadata.finalizers: Forbidden: no new finalizers can be added if the object is \
                 being deleted, found new finalizers []string{{{}}}",
                added
                    .iter()
                    .map(|f| format!("{f:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    if n.uid != o.uid {
        errors.push(format!(
            "metadata.uid: Invalid value: {:?}: field is immutable",
            n.uid
        ));
    }
    if n.deletion_timestamp() != o.deletion_timestamp() {
        let shown = n.deletion_timestamp().map_or(0, SimTime::as_nanos);
        errors.push(format!(
            "metadata.deletionTimestamp: Invalid value: {shown}: field is immutable"
        ));
    }
    if n.deletion_grace_period_s() != o.deletion_grace_period_s() {
        let shown = n
            .deletion_grace_period_s()
            .map_or_else(|| "null".to_owned(), |s| s.to_string());
        errors.push(format!(
            "metadata.deletionGracePeriodSeconds: Invalid value: {shown}: field is immutable"
        ));
    }
    errors
}

/// `ShouldDeleteDuringUpdate`: the new object has no finalizers, the stored one is being deleted
/// and its grace period is nil or 0. Namespaces additionally need an empty `spec.finalizers`
/// (kubernetes namespace storage `ShouldDeleteNamespaceDuringUpdate`).
pub fn should_delete_during_update(kind: &ResourceKind, new: &Object, old: &Stored) -> bool {
    if !new.metadata.finalizers().is_empty() || old.object.metadata.deletion_timestamp().is_none() {
        return false;
    }
    if kind.family == KindFamily::Namespace && !namespace_spec_finalizers(&new.spec).is_empty() {
        return false;
    }
    matches!(
        old.object.metadata.deletion_grace_period_s(),
        None | Some(0)
    )
}

/// `markAsDeleting` (non-graceful deletion with finalizers pending): generation +1 the first time
/// (when it is > 0), deletionTimestamp = now unless already set and not in the future, and
/// deletionGracePeriodSeconds = 0.
pub fn mark_as_deleting(obj: &mut Object, now: SimTime) {
    let m = &mut obj.metadata;
    if m.deletion_timestamp().is_none() && m.generation > 0 {
        m.generation = m.generation.saturating_add(1);
    }
    if m.deletion_timestamp().is_none_or(|ts| ts > now) {
        m.set_deletion_timestamp(Some(now));
    }
    m.set_deletion_grace_period_s(Some(0));
}

/// What `rest.BeforeDelete` decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GracefulDecision {
    /// Not graceful (or grace already 0): finalizers decide between mark-as-deleting and removal.
    NotGraceful,
    /// A graceful deletion is already pending and this request does not shorten it: nothing to do.
    Pending,
    /// Set deletionTimestamp / grace period (generation +1 the first time).
    Graceful {
        /// The new deletionTimestamp.
        deletion_timestamp: SimTime,
        /// The new `deletionGracePeriodSeconds`.
        grace_period_s: i64,
        /// Whether this is the first deletion request (generation moves).
        first: bool,
    },
}

/// `rest.BeforeDelete` for graceful strategies; `requested` is `DeleteOptions.gracePeriodSeconds`.
pub fn before_delete(
    kind: &ResourceKind,
    stored: &Stored,
    requested: Option<i64>,
    now: SimTime,
) -> GracefulDecision {
    let requested = requested.map(|p| if p < 0 { 1 } else { p });
    if !kind.graceful_delete {
        return GracefulDecision::NotGraceful;
    }
    let obj = &stored.object;
    let Some(ts) = obj.metadata.deletion_timestamp() else {
        let period = grace_period_s(kind, obj, requested);
        return GracefulDecision::Graceful {
            deletion_timestamp: now + secs(period),
            grace_period_s: period,
            first: true,
        };
    };
    let existing = match obj.metadata.deletion_grace_period_s() {
        None | Some(0) => return GracefulDecision::NotGraceful,
        Some(g) => g.max(1),
    };
    let Some(mut period) = requested.filter(|&p| p < existing) else {
        return GracefulDecision::Pending;
    };
    let start = SimTime::from_nanos(
        ts.as_nanos()
            .saturating_sub(secs(existing).as_nanos() as u64),
    );
    let mut deletion_timestamp = start + secs(period);
    if deletion_timestamp < now {
        deletion_timestamp = now;
        if period != 0 {
            period = 1;
        }
    }
    GracefulDecision::Graceful {
        deletion_timestamp,
        grace_period_s: period,
        first: false,
    }
}

fn secs(s: i64) -> std::time::Duration {
    std::time::Duration::from_secs(u64::try_from(s).unwrap_or(0))
}

/// `CheckGracefulDelete`. Pods: the requested period, else `spec.terminationGracePeriodSeconds`
/// (default 30); 0 when `spec.nodeName` is empty or the pod `Succeeded`/`Failed`; negative ⇒ 1.
/// Other graceful kinds: the requested period, else 0.
pub fn grace_period_s(kind: &ResourceKind, obj: &Object, requested: Option<i64>) -> i64 {
    if kind.family != KindFamily::Pod {
        return requested.unwrap_or(0).max(0);
    }
    let mut period = requested.unwrap_or_else(|| {
        obj.spec
            .get("terminationGracePeriodSeconds")
            .and_then(Json::as_i64)
            .unwrap_or(DEFAULT_POD_GRACE_PERIOD_S)
    });
    let node = obj
        .spec
        .get("nodeName")
        .and_then(Json::as_str)
        .unwrap_or("");
    let phase = obj.status.get("phase").and_then(Json::as_str).unwrap_or("");
    if node.is_empty() || phase == "Succeeded" || phase == "Failed" {
        period = 0;
    }
    if period < 0 {
        period = 1;
    }
    period
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::object::ObjectRef;
    use serde_json::json;

    fn cr(status_subresource: bool) -> ResourceKind {
        ResourceKind::custom_resource(
            "Flywheel",
            "flywheels",
            "demo.dev",
            true,
            status_subresource,
        )
    }

    fn obj(spec: &str, status: Option<&str>, other_meta: &str) -> Object {
        let mut o = Object::new("Flywheel", "default", "fw");
        o.metadata.generation = 1;
        o.metadata.annotations = Some(Box::new(
            [("other".to_owned(), other_meta.to_owned())].into(),
        ));
        o.spec = json!(spec).into();
        o.status = status.map_or(Json::Null, Json::from);
        o
    }

    /// Mirrors strategy_test.go TestStrategyPrepareForUpdate (the six cases the simulated object
    /// can express; the "other top-level field" case has no counterpart since only spec and status
    /// exist outside metadata).
    #[test]
    fn prepare_for_update_follows_the_upstream_generation_table() {
        let cases = [
            // (status subresource, new spec, new status, new meta, expected generation, expected status)
            (true, "new", "old", "old", 2, "old"),
            (true, "old", "new", "old", 1, "old"),
            (true, "old", "old", "new", 1, "old"),
            (false, "new", "old", "old", 2, "old"),
            (false, "old", "new", "old", 2, "new"),
            (false, "old", "old", "new", 1, "old"),
        ];
        for (sub, spec, status, meta, generation, kept_status) in cases {
            let old = obj("old", Some("old"), "old");
            let mut new = obj(spec, Some(status), meta);
            before_update(&cr(sub), &mut new, &old, |n, o| {
                prepare_for_update(&cr(sub), n, o)
            })
            .expect("valid");
            assert_eq!(
                new.metadata.generation, generation,
                "{sub} {spec} {status} {meta}"
            );
            assert_eq!(new.status, json!(kept_status));
        }
    }

    /// Mirrors status_strategy_test.go TestPrepareForUpdate (spec ignored, status deleted when
    /// absent, status updated, status taken while other changes are dropped).
    #[test]
    fn the_status_endpoint_takes_only_status_from_the_request() {
        let old = obj("old", Some("old"), "old");
        let cases = [
            (obj("new", Some("old"), "old"), Some("old")),
            (obj("old", None, "old"), None),
            (obj("old", Some("new"), "old"), Some("new")),
            (obj("new", Some("new"), "new"), Some("new")),
        ];
        for (mut new, expected) in cases {
            prepare_for_status_update(&mut new, &old);
            assert_eq!(new.spec, json!("old"));
            assert_eq!(new.metadata, old.metadata);
            assert_eq!(new.status, expected.map_or(Json::Null, Json::from));
        }
    }

    #[test]
    fn a_crd_with_status_drops_status_on_create_and_starts_generation_at_one() {
        let mut o = obj("x", Some("set-by-client"), "m");
        o.metadata.generation = 9;
        prepare_for_create(&cr(true), &mut o);
        assert_eq!((o.status.clone(), o.metadata.generation), (Json::Null, 1));
        let mut o = obj("x", Some("kept"), "m");
        prepare_for_create(&cr(false), &mut o);
        assert_eq!(o.status, json!("kept"));
    }

    #[test]
    fn adding_a_finalizer_while_deleting_is_forbidden_but_removing_one_is_fine() {
        let mut old = obj("s", None, "m");
        old.metadata.set_finalizers(vec!["a".into()]);
        old.metadata
            .set_deletion_timestamp(Some(SimTime::from_millis(1)));
        let mut new = old.clone();
        new.metadata.set_finalizers(vec!["a".into(), "b".into()]);
        let err = before_update(&cr(true), &mut new, &old, |_, _| {}).expect_err("forbidden");
        assert_eq!(err.code, 422);
        assert!(
            err.message
                .contains("no new finalizers can be added if the object is being deleted"),
            "{err}"
        );
        let mut new = old.clone();
        new.metadata.finalizers_mut().clear();
        before_update(&cr(true), &mut new, &old, |_, _| {}).expect("removal is allowed");
    }

    #[test]
    fn an_unscheduled_pod_has_no_grace_period_and_a_scheduled_one_defaults_to_thirty_seconds() {
        let pod = ResourceKind::pod();
        let mut p = Object::new("Pod", "default", "p");
        assert_eq!(grace_period_s(&pod, &p, None), 0);
        p.spec = json!({"nodeName": "n1"}).into();
        assert_eq!(grace_period_s(&pod, &p, None), 30);
        assert_eq!(grace_period_s(&pod, &p, Some(-5)), 1);
        p.status = json!({"phase": "Succeeded"}).into();
        assert_eq!(grace_period_s(&pod, &p, Some(10)), 0);
    }

    #[test]
    fn a_shorter_grace_period_moves_the_deletion_timestamp_back_and_a_longer_one_is_ignored() {
        let pod = ResourceKind::pod();
        let mut p = Object::new("Pod", "default", "p");
        p.metadata
            .set_deletion_timestamp(Some(SimTime::from_millis(30_000)));
        p.metadata.set_deletion_grace_period_s(Some(30));
        let stored = Stored {
            object: ObjectRef::new(p),
        };
        let now = SimTime::ZERO;
        assert_eq!(
            before_delete(&pod, &stored, Some(40), now),
            GracefulDecision::Pending
        );
        assert_eq!(
            before_delete(&pod, &stored, None, now),
            GracefulDecision::Pending
        );
        assert_eq!(
            before_delete(&pod, &stored, Some(5), now),
            GracefulDecision::Graceful {
                deletion_timestamp: SimTime::from_millis(5_000),
                grace_period_s: 5,
                first: false
            }
        );
    }
}
