//! Namespace termination, simplified.
//!
//! - DELETE of a namespace (kubernetes `pkg/registry/core/namespace/storage/storage.go`
//!   `REST.Delete`): the first request sets deletionTimestamp and `status.phase = Terminating`
//!   (MODIFIED) and nothing else; while `spec.finalizers` still holds `kubernetes`, a later DELETE is
//!   409 Conflict; once it is empty the generic store delete runs.
//! - [`ApiServer::namespace_finalize_step`] plays the namespace controller
//!   (kubernetes `pkg/controller/namespace/deletion/namespaced_resources_deleter.go`): for each
//!   terminating namespace it deletes every object inside that is not already being deleted
//!   (ordinary DELETEs: finalizers and pod grace periods apply), and when nothing is left it
//!   removes `kubernetes` from `spec.finalizers` through `/finalize` — which deletes the namespace
//!   when no metadata finalizers remain (`ShouldDeleteNamespaceDuringUpdate`).
//!
//! Simplifications: one step does what the controller does over several resyncs; no discovery,
//! no `NamespaceDeletionContentFailure` conditions, no `Terminating` status details.

use crate::object::{Json, JsonMap, ObjectRef};

use super::kind::{KindFamily, ResourceKind};
use super::request::{ApiError, DeleteOptions, DeleteResult, Verb};
use super::store::Stored;
use super::strategy::{self, namespace_spec_finalizers, NAMESPACE_FINALIZER};
use super::ApiServer;
use crate::key::Key;
use crate::time::SimTime;

/// What one namespace-controller step did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NamespaceFinalizeReport {
    /// `(kind, key)` of every DELETE issued for content of terminating namespaces.
    pub deletes_issued: Vec<(String, String)>,
    /// Terminating namespaces still holding objects (waiting on finalizers or grace periods).
    pub waiting: Vec<String>,
    /// Namespaces whose `kubernetes` finalizer was removed but that keep metadata finalizers.
    pub finalized: Vec<String>,
    /// Namespaces removed in this step.
    pub removed: Vec<String>,
}

/// The message of the 409 a DELETE of a namespace still being emptied gets.
const NAMESPACE_PURGE_MSG: &str = "The system is ensuring all content is removed from this \
namespace.  Upon completion, this namespace will automatically be purged by the system.";

impl ApiServer {
    pub(super) fn delete_namespace(
        &mut self,
        kind: &ResourceKind,
        key: &Key,
        existing: Stored,
        options: &DeleteOptions,
        now: SimTime,
    ) -> Result<DeleteResult, ApiError> {
        let ns = &existing.object;
        if ns.metadata.deletion_timestamp().is_none() {
            let mut obj = (**ns).clone();
            obj.metadata.set_deletion_timestamp(Some(now));
            set_phase(&mut obj.status, "Terminating");
            let updated = self.write(kind, key, ObjectRef::new(obj), now);
            return Ok(DeleteResult {
                object: updated,
                removed: false,
            });
        }
        if !namespace_spec_finalizers(&ns.spec).is_empty() {
            return Err(ApiError::conflict(
                &kind.qualified_resource(),
                ns.metadata.name(),
                NAMESPACE_PURGE_MSG,
            ));
        }
        Ok(self.delete_generic(kind, key, existing, options, now))
    }

    /// One pass of the namespace controller over every terminating namespace (see the module
    /// documentation). Its DELETEs and `/finalize` PUTs count in `apiserver_request_total`.
    pub fn namespace_finalize_step(&mut self, now: SimTime) -> NamespaceFinalizeReport {
        let mut report = NamespaceFinalizeReport::default();
        let terminating: Vec<String> = self
            .store
            .iter_kind("Namespace")
            .filter(|(_, s)| s.object.metadata.deletion_timestamp().is_some())
            .map(|(k, _)| k.to_string())
            .collect();
        for ns in terminating {
            let remaining = self.delete_namespace_content(&ns, now, &mut report);
            if remaining > 0 {
                report.waiting.push(ns);
            } else {
                self.finalize_namespace(&ns, now, &mut report);
            }
        }
        report
    }

    /// Issues DELETEs for objects in `ns` not yet being deleted; returns how many remain.
    fn delete_namespace_content(
        &mut self,
        ns: &str,
        now: SimTime,
        report: &mut NamespaceFinalizeReport,
    ) -> usize {
        let namespaced: Vec<String> = self
            .kinds
            .values()
            .filter(|k| k.namespaced)
            .map(|k| k.name.clone())
            .collect();
        let mut remaining = 0;
        for kind in namespaced {
            // the namespace's objects are one range of the kind's keys; those already being
            // deleted are only counted
            let mut targets: Vec<(String, String)> = Vec::new();
            for (key, s) in self.store.iter_namespace(&kind, ns) {
                remaining += 1;
                if s.object.metadata.deletion_timestamp().is_none() {
                    targets.push((key.to_string(), s.object.metadata.name().to_string()));
                }
            }
            for (key, name) in targets {
                report.deletes_issued.push((kind.clone(), key));
                let result = self.delete(&kind, ns, &name, &DeleteOptions::default(), now);
                if matches!(result, Ok(DeleteResult { removed: true, .. })) {
                    remaining -= 1;
                }
            }
        }
        remaining
    }

    /// The `/finalize` PUT removing `kubernetes` from `spec.finalizers`.
    fn finalize_namespace(&mut self, ns: &str, now: SimTime, report: &mut NamespaceFinalizeReport) {
        let Some(kind) = self
            .kinds
            .values()
            .find(|k| k.family == KindFamily::Namespace)
            .cloned()
        else {
            return;
        };
        let key = Key::from(ns);
        let Some(existing) = self.store.get(&kind.name, &key).cloned() else {
            return;
        };
        let mut obj = (*existing.object).clone();
        let kept: Vec<String> = namespace_spec_finalizers(&obj.spec)
            .into_iter()
            .filter(|f| f != NAMESPACE_FINALIZER)
            .collect();
        if !obj.spec.is_object() {
            obj.spec = Json::Object(JsonMap::new());
        }
        obj.spec["finalizers"] = kept.into_iter().collect();
        self.record_request(Verb::Update, 200);
        if strategy::should_delete_during_update(&kind, &obj, &existing) {
            self.remove(&kind, &key, now);
            report.removed.push(ns.to_owned());
        } else {
            self.write(&kind, &key, ObjectRef::new(obj), now);
            report.finalized.push(ns.to_owned());
        }
    }
}

fn set_phase(status: &mut Json, phase: &str) {
    if !status.is_object() {
        *status = Json::Object(JsonMap::new());
    }
    status["phase"] = Json::from(phase);
}
