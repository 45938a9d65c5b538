//! The generic registry flows — create, get, list, update, patch, delete — in the order of apiserver
//! `pkg/registry/generic/registry/store.go` (`Store.Create`, `Store.Update`'s `tryUpdate`,
//! `Store.Delete` / `updateForGracefulDeletionAndFinalizers` / `deleteWithoutFinalizers`).
//!
//! Update order (what decides which error wins): object missing ⇒ 404; resourceVersion 0 without
//! `AllowUnconditionalUpdate` ⇒ 422; resourceVersion ≠ stored ⇒ 409 — checked before the no-op
//! test, so a stale no-op still conflicts; then `BeforeUpdate` (strategy, validation ⇒ 422); then
//! `ShouldDeleteDuringUpdate` (emptied finalizers while deleting ⇒ removed); then the storage no-op
//! rule.

use std::sync::Arc;

use super::kind::{KindFamily, ResourceKind};
use super::list_items::ListItems;
use super::patched::patched_object;
use super::request::{
    ApiError, DeleteOptions, DeleteResult, ObjectList, OPTIMISTIC_LOCK_ERROR_MSG,
};
use super::selector::LabelSelector;
use super::store::{Stored, Tried, UpdateOutcome, Updated};
use super::strategy::{self, GracefulDecision};
use super::watch_cache::WatchEventType;
use super::ApiServer;
use crate::key::Key;
use crate::object::Text;
use crate::object::{Json, Object, ObjectRef};
use crate::time::SimTime;

/// Main endpoint or `/status` subresource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Endpoint {
    /// The resource itself.
    Main,
    /// `/status`.
    Status,
}

/// The object a request addresses by URL.
#[derive(Clone, Copy, Debug)]
pub(super) struct Target<'a> {
    pub(super) kind: &'a str,
    pub(super) namespace: &'a str,
    pub(super) name: &'a str,
}

/// `ErrResourceVersionSetOnCreate` (apiserver `pkg/storage/errors.go`), a plain error the handler
/// turns into 500 / reason Unknown.
const RV_SET_ON_CREATE: &str = "resourceVersion should not be set on objects to be created";

impl ApiServer {
    pub(super) fn kind_or_404(&self, name: &str) -> Result<Arc<ResourceKind>, ApiError> {
        self.kinds
            .get_in_few(name)
            .cloned()
            .ok_or_else(ApiError::endpoint_not_found)
    }

    /// The storage key; cluster-scoped kinds ignore the namespace, namespaced ones require it.
    fn key_for(kind: &ResourceKind, namespace: &str, name: &str) -> Result<Key, ApiError> {
        Self::check_key_parts(kind, namespace, name)?;
        if !kind.namespaced {
            return Ok(Key::of("", name));
        }
        Ok(Key::of(namespace, name))
    }

    /// The storage key of `obj` (whose namespace is already cleared for a cluster-scoped kind):
    /// the object's own key, shared by everything that later holds the stored object.
    fn object_key(kind: &ResourceKind, obj: &Object) -> Result<Key, ApiError> {
        Self::check_key_parts(kind, obj.metadata.namespace(), obj.metadata.name())?;
        Ok(obj.key())
    }

    /// A name is required, and a namespace for a namespaced kind.
    fn check_key_parts(kind: &ResourceKind, namespace: &str, name: &str) -> Result<(), ApiError> {
        if name.is_empty() {
            return Err(ApiError::invalid(
                &kind.qualified_kind(),
                name,
                &["metadata.name: Required value: name or generateName is required".to_owned()],
            ));
        }
        if kind.namespaced && namespace.is_empty() {
            return Err(ApiError::bad_request(format!(
                "the namespace of the object must be set for namespaced resource {}",
                kind.qualified_resource()
            )));
        }
        Ok(())
    }

    fn stored_or_404(
        &self,
        kind: &ResourceKind,
        key: &Key,
        name: &str,
    ) -> Result<Stored, ApiError> {
        self.store
            .get(&kind.name, key)
            .cloned()
            .ok_or_else(|| ApiError::not_found(&kind.qualified_resource(), name))
    }

    /// The `NamespaceLifecycle` admission plugin (kubernetes
    /// `plugin/pkg/admission/namespace/lifecycle/admission.go`): creating in a missing namespace
    /// ⇒ 404; in a terminating one ⇒ 403.
    fn admit_namespace_lifecycle(&self, kind: &ResourceKind, obj: &Object) -> Result<(), ApiError> {
        if !kind.namespaced {
            return Ok(());
        }
        let ns = obj.metadata.namespace();
        match self.store.get_text("Namespace", ns) {
            None => Err(ApiError::not_found("namespaces", ns)),
            Some(s) if s.object.metadata.deletion_timestamp().is_some() => {
                Err(ApiError::forbidden(
                    &kind.qualified_resource(),
                    obj.metadata.name(),
                    &format!(
                    "unable to create new content in namespace {ns} because it is being terminated"
                ),
                ))
            }
            Some(_) => Ok(()),
        }
    }

    /// `Store.Create`: admission, `WipeObjectMetaSystemFields` + `PrepareForCreate`, uid, then the
    /// storage checks (resourceVersion set ⇒ 500; name taken ⇒ 409 AlreadyExists, prefixed
    /// "object is being deleted: " when the holder is terminating), ADDED event.
    pub(super) fn do_create(
        &mut self,
        mut obj: Object,
        now: SimTime,
    ) -> Result<ObjectRef, ApiError> {
        let kind = self.kind_or_404(&obj.kind)?;
        if !kind.namespaced {
            obj.metadata.set_namespace("");
        }
        let key = Self::object_key(&kind, &obj)?;
        self.admit_namespace_lifecycle(&kind, &obj)?;
        strategy::prepare_for_create(&kind, &mut obj);
        let name_errors = super::name_validation::validate_name_and_namespace(
            obj.metadata.name(),
            obj.metadata.namespace(),
        );
        if !name_errors.is_empty() {
            let qualified = kind.qualified_kind();
            return Err(ApiError::invalid(
                &qualified,
                obj.metadata.name(),
                &name_errors,
            ));
        }
        if obj.metadata.resource_version != 0 {
            return Err(ApiError::unknown(RV_SET_ON_CREATE));
        }
        let created = match self.store.create_unless_present(&kind.name, key, obj) {
            Ok(created) => created,
            Err(existing) => {
                // the stored object has the same key, so the same name
                let name = existing.object.metadata.name();
                let mut err = ApiError::already_exists(&kind.qualified_resource(), name);
                if existing.object.metadata.deletion_timestamp().is_some() {
                    err.message = format!("object is being deleted: {}", err.message);
                }
                return Err(err);
            }
        };
        self.emit(
            &kind.name,
            WatchEventType::Added,
            ObjectRef::clone(&created),
            now,
        );
        Ok(created)
    }

    pub(super) fn do_get(
        &self,
        kind: &str,
        namespace: &str,
        name: &str,
    ) -> Result<ObjectRef, ApiError> {
        let kind = self.kind_or_404(kind)?;
        let key = Self::key_for(&kind, namespace, name)?;
        self.stored_or_404(&kind, &key, name).map(|s| s.object)
    }

    pub(super) fn do_list(
        &self,
        kind: &str,
        namespace: Option<&str>,
        selector: Option<&LabelSelector>,
    ) -> Result<ObjectList, ApiError> {
        self.do_list_head(kind, namespace, selector, usize::MAX)
    }

    /// [`ApiServer::do_list`]'s first `count` items, in the same order.
    pub(super) fn do_list_head(
        &self,
        kind: &str,
        namespace: Option<&str>,
        selector: Option<&LabelSelector>,
        count: usize,
    ) -> Result<ObjectList, ApiError> {
        let kind = self.kind_or_404(kind)?;
        let items = self
            .store
            .iter_kind(&kind.name)
            .map(|(_, s)| &s.object)
            .filter(|o| namespace.is_none_or(|ns| !kind.namespaced || o.metadata.namespace() == ns))
            .filter(|o| selector.is_none_or(|sel| sel.matches(o.metadata.labels.as_deref())))
            .take(count)
            .cloned()
            .collect();
        Ok(ObjectList {
            items,
            resource_version: self.store.revision(),
        })
    }

    pub(super) fn do_list_all(&self, kind: &str) -> Result<(ListItems, u64), ApiError> {
        let kind = self.kind_or_404(kind)?;
        let items = self.store.snapshot(&kind.name);
        Ok((items, self.store.revision()))
    }

    pub(super) fn do_update(
        &mut self,
        mut obj: ObjectRef,
        endpoint: Endpoint,
        now: SimTime,
    ) -> Result<ObjectRef, ApiError> {
        let kind = self.kind_or_404(&obj.kind)?;
        if endpoint == Endpoint::Status && !kind.status_subresource {
            return Err(ApiError::endpoint_not_found());
        }
        if !kind.namespaced && !obj.metadata.namespace().is_empty() {
            crate::sim::cow::make_mut(&mut obj)
                .metadata
                .set_namespace("");
        }
        let key = Self::object_key(&kind, &obj)?;
        // one lookup: the checks and the strategy run on the stored entry, and the write lands
        // in its place
        let updated = self
            .store
            .guaranteed_update_with(&kind.name, &key, |existing| {
                let Some(existing) = existing else {
                    let resource = kind.qualified_resource();
                    return Err(ApiError::not_found(&resource, obj.metadata.name()));
                };
                check_uid_precondition(&kind, &obj, &existing.object)?;
                try_update(&kind, existing, obj, endpoint)
            })?;
        Ok(self.finish_update(&kind, &key, updated, now))
    }

    /// `patch.go`: the merge patch is applied to the current object's wire shape; a patch without
    /// resourceVersion inherits the current one (never 409), one with a stale RV conflicts. The
    /// patched object must keep its name and namespace (400 otherwise).
    pub(super) fn do_patch(
        &mut self,
        target: Target<'_>,
        patch: &Json,
        endpoint: Endpoint,
        now: SimTime,
    ) -> Result<ObjectRef, ApiError> {
        let kind = self.kind_or_404(target.kind)?;
        if endpoint == Endpoint::Status && !kind.status_subresource {
            return Err(ApiError::endpoint_not_found());
        }
        let namespace = if kind.namespaced {
            target.namespace
        } else {
            ""
        };
        let key = Self::key_for(&kind, namespace, target.name)?;
        let existing = self.stored_or_404(&kind, &key, target.name)?;
        let current = ObjectRef::clone(&existing.object);
        let patched = patched_object(&current, patch, target.name, namespace)?;
        let updated = match try_update(&kind, &existing, ObjectRef::new(patched), endpoint)? {
            Tried::Write(new) => {
                Updated::Stored(self.store.guaranteed_update(&kind.name, &key, new))
            }
            Tried::Delete(new) => Updated::Delete(new),
        };
        Ok(self.finish_update(&kind, &key, updated, now))
    }

    /// A guaranteed update; MODIFIED event unless it was a no-op.
    pub(super) fn write(
        &mut self,
        kind: &ResourceKind,
        key: &Key,
        obj: ObjectRef,
        now: SimTime,
    ) -> ObjectRef {
        let updated = Updated::Stored(self.store.guaranteed_update(&kind.name, key, obj));
        self.finish_update(kind, key, updated, now)
    }

    /// What follows the storage's part of an update: the MODIFIED event of a write (none for a
    /// no-op), or the removal `tryUpdate` chose — `deleteWithoutFinalizers`: the DELETED event
    /// carries the last *stored* state, and the PUT answers with the object as submitted.
    fn finish_update(
        &mut self,
        kind: &ResourceKind,
        key: &Key,
        updated: Updated,
        now: SimTime,
    ) -> ObjectRef {
        match updated {
            Updated::Stored(UpdateOutcome::NoOp(o)) => o,
            Updated::Stored(UpdateOutcome::Written(o)) => {
                let event = ObjectRef::clone(&o);
                self.emit(&kind.name, WatchEventType::Modified, event, now);
                o
            }
            Updated::Delete(submitted) => {
                self.remove(kind, key, now);
                submitted
            }
        }
    }

    /// Removes the object; DELETED event with the deletion revision.
    pub(super) fn remove(
        &mut self,
        kind: &ResourceKind,
        key: &Key,
        now: SimTime,
    ) -> Option<ObjectRef> {
        let gone = self.store.delete(&kind.name, key)?;
        self.emit(
            &kind.name,
            WatchEventType::Deleted,
            ObjectRef::clone(&gone),
            now,
        );
        Some(gone)
    }

    pub(super) fn do_delete(
        &mut self,
        target: Target<'_>,
        options: &DeleteOptions,
        now: SimTime,
    ) -> Result<DeleteResult, ApiError> {
        let kind = self.kind_or_404(target.kind)?;
        let key = Self::key_for(&kind, target.namespace, target.name)?;
        let existing = self.stored_or_404(&kind, &key, target.name)?;
        check_delete_preconditions(&kind, &existing.object, options)?;
        if kind.family == KindFamily::Namespace {
            return self.delete_namespace(&kind, &key, existing, options, now);
        }
        Ok(self.delete_generic(&kind, &key, existing, options, now))
    }

    /// `Store.Delete`: `BeforeDelete` (graceful strategies), then with finalizers pending or a
    /// graceful period an update (deletionTimestamp, generation +1 the first time, MODIFIED — a
    /// repeat is a byte-identical no-op), else removal (DELETED). A graceful delete with period 0
    /// and no finalizers writes the update and then removes the object, as upstream.
    pub(super) fn delete_generic(
        &mut self,
        kind: &ResourceKind,
        key: &Key,
        existing: Stored,
        options: &DeleteOptions,
        now: SimTime,
    ) -> DeleteResult {
        let decision = strategy::before_delete(kind, &existing, options.grace_period_s, now);
        let pending_finalizers = !existing.object.metadata.finalizers().is_empty();
        let graceful = matches!(decision, GracefulDecision::Graceful { .. });
        if decision == GracefulDecision::Pending {
            return not_removed(existing.object);
        }
        if !graceful && !pending_finalizers {
            return self.remove_result(kind, key, existing.object, now);
        }
        let mut obj = (*existing.object).clone();
        match decision {
            GracefulDecision::Graceful {
                deletion_timestamp,
                grace_period_s,
                first,
            } => {
                obj.metadata
                    .set_deletion_timestamp(Some(deletion_timestamp));
                obj.metadata
                    .set_deletion_grace_period_s(Some(grace_period_s));
                if first && obj.metadata.generation > 0 {
                    obj.metadata.generation = obj.metadata.generation.saturating_add(1);
                }
            }
            _ => strategy::mark_as_deleting(&mut obj, now),
        }
        let grace_period_s = obj.metadata.deletion_grace_period_s().unwrap_or(0);
        let updated = self.write(kind, key, ObjectRef::new(obj), now);
        if pending_finalizers || grace_period_s > 0 {
            return not_removed(updated);
        }
        self.remove_result(kind, key, updated, now)
    }

    fn remove_result(
        &mut self,
        kind: &ResourceKind,
        key: &Key,
        fallback: ObjectRef,
        now: SimTime,
    ) -> DeleteResult {
        DeleteResult {
            object: self.remove(kind, key, now).unwrap_or(fallback),
            removed: true,
        }
    }
}

/// `Store.Update`'s `tryUpdate` for the `existing` entry: the resourceVersion rules, then the
/// strategy's `BeforeUpdate`, then `ShouldDeleteDuringUpdate`. Changes `new` in place when no
/// one else holds it.
fn try_update(
    kind: &ResourceKind,
    existing: &Stored,
    mut new: ObjectRef,
    endpoint: Endpoint,
) -> Result<Tried, ApiError> {
    let stored_rv = existing.object.metadata.resource_version;
    if new.metadata.resource_version == 0 {
        if !kind.allow_unconditional_update {
            return Err(ApiError::invalid(
                &kind.qualified_resource(),
                new.metadata.name(),
                &[
                    "metadata.resourceVersion: Invalid value: 0: must be specified for an update"
                        .to_owned(),
                ],
            ));
        }
        crate::sim::cow::make_mut(&mut new)
            .metadata
            .resource_version = stored_rv;
    }
    if new.metadata.resource_version != stored_rv {
        return Err(ApiError::conflict(
            &kind.qualified_resource(),
            new.metadata.name(),
            OPTIMISTIC_LOCK_ERROR_MSG,
        ));
    }
    let body = crate::sim::cow::make_mut(&mut new);
    if body.kind != kind.name {
        body.kind = Text::from(&kind.name);
    }
    strategy::before_update(kind, body, &existing.object, |n, o| match endpoint {
        Endpoint::Main => strategy::prepare_for_update(kind, n, o),
        Endpoint::Status => strategy::prepare_for_status_update(n, o),
    })?;
    if strategy::should_delete_during_update(kind, &new, existing) {
        return Ok(Tried::Delete(new));
    }
    Ok(Tried::Write(new))
}

fn not_removed(object: ObjectRef) -> DeleteResult {
    DeleteResult {
        object,
        removed: false,
    }
}

/// `rest.BeforeDelete`'s precondition checks ⇒ 409 Conflict.
fn check_delete_preconditions(
    kind: &ResourceKind,
    obj: &Object,
    options: &DeleteOptions,
) -> Result<(), ApiError> {
    let resource = kind.qualified_kind();
    if let Some(uid) = &options.precondition_uid {
        if obj.metadata.uid != **uid {
            return Err(ApiError::conflict(
                &resource,
                obj.metadata.name(),
                &format!(
                    "the UID in the precondition ({uid}) does not match the UID in record ({}). \
                     The object might have been deleted and then recreated",
                    obj.metadata.uid
                ),
            ));
        }
    }
    if let Some(rv) = options.precondition_resource_version {
        if rv != obj.metadata.resource_version {
            return Err(ApiError::conflict(
                &resource,
                obj.metadata.name(),
                &format!(
                    "the ResourceVersion in the precondition ({rv}) does not match the \
                     ResourceVersion in record ({}). The object might have been modified",
                    obj.metadata.resource_version
                ),
            ));
        }
    }
    Ok(())
}

/// The UID precondition of a PUT (main endpoint or `/status`): a request object that names a uid
/// makes it a storage precondition (apiserver `pkg/registry/rest/update.go`
/// `defaultUpdatedObjectInfo.Preconditions`), checked before the update function runs, so before
/// the resourceVersion check. A mismatch is `storage.NewInvalidObjError`
/// (`pkg/storage/interfaces.go` `Preconditions.Check`), which `InterpretUpdateError`
/// (`pkg/storage/errors/storage.go`) turns into 409 Conflict. A PATCH names no precondition: a
/// patched uid fails the immutability rule instead (422).
fn check_uid_precondition(
    kind: &ResourceKind,
    new: &Object,
    stored: &Object,
) -> Result<(), ApiError> {
    let (uid, stored_uid) = (&new.metadata.uid, &stored.metadata.uid);
    if uid.is_empty() || uid == stored_uid {
        return Ok(());
    }
    let key = kind.storage_key(stored.metadata.namespace(), stored.metadata.name());
    Err(ApiError::conflict(
        &kind.qualified_resource(),
        new.metadata.name(),
        &format!(
            "StorageError: invalid object, Code: 4, Key: {key}, ResourceVersion: 0, \
             AdditionalErrorMsg: Precondition failed: UID in precondition: {uid}, UID in object \
             meta: {stored_uid}"
        ),
    ))
}
