//! Request vocabulary: verbs, typed API errors (`metav1.Status`), delete options and responses.
//!
//! Error constructors follow apimachinery `pkg/api/errors/errors.go` (codes, reasons and message
//! formats), so a message read in a simulation trace is the one a real client would log.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::object::ObjectRef;

/// A request verb as the `verb` label of `apiserver_request_total` spells it
/// (apiserver `pkg/endpoints/metrics/metrics.go` `CleanVerb`: `LIST`, `WATCH`, `POST`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Verb {
    /// `GET` of one object.
    Get,
    /// `LIST` (a GET on a collection).
    List,
    /// `WATCH` (a long-running GET on a collection).
    Watch,
    /// `POST` (create).
    Create,
    /// `PUT` (update, main endpoint or `/status`).
    Update,
    /// `PATCH` (main endpoint or `/status`).
    Patch,
    /// `DELETE`.
    Delete,
}

impl Verb {
    /// Every verb, in label order.
    pub const ALL: [Verb; 7] = [
        Verb::Get,
        Verb::List,
        Verb::Watch,
        Verb::Create,
        Verb::Update,
        Verb::Patch,
        Verb::Delete,
    ];

    /// The metric label (`GET`, `LIST`, `WATCH`, `POST`, `PUT`, `PATCH`, `DELETE`).
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Get => "GET",
            Verb::List => "LIST",
            Verb::Watch => "WATCH",
            Verb::Create => "POST",
            Verb::Update => "PUT",
            Verb::Patch => "PATCH",
            Verb::Delete => "DELETE",
        }
    }

    /// Whether the verb mutates: everything but `get`, `list` and `watch`
    /// (apiserver `pkg/server/filters/maxinflight.go` `nonMutatingRequestVerbs`).
    pub fn is_mutating(self) -> bool {
        !matches!(self, Verb::Get | Verb::List | Verb::Watch)
    }

    /// Whether the request is long-running (a watch), which the legacy max-in-flight filter does
    /// not count (apiserver `pkg/server/filters/maxinflight.go` `longRunningRequestCheck`).
    pub fn is_long_running(self) -> bool {
        self == Verb::Watch
    }
}

impl fmt::Display for Verb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `metav1.StatusReason` values the simulated server produces
/// (apimachinery `pkg/apis/meta/v1/types.go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum StatusReason {
    /// 404: the object (or the endpoint) does not exist.
    NotFound,
    /// 409: create of a name that exists.
    AlreadyExists,
    /// 409: optimistic-concurrency or precondition failure.
    Conflict,
    /// 422: validation failed.
    Invalid,
    /// 403: refused by admission (e.g. namespace terminating).
    Forbidden,
    /// 400: malformed request.
    BadRequest,
    /// 410: the requested resource version is too old for the watch cache.
    Expired,
    /// 429: rejected by max-in-flight or API Priority and Fairness.
    TooManyRequests,
    /// 504: e.g. a watch from a resource version the cache has not reached.
    Timeout,
    /// 500: an error that is not a `metav1.Status` (upstream reason `""`).
    Unknown,
}

impl StatusReason {
    /// The reason as upstream spells it (`Unknown` is the empty reason upstream).
    pub fn as_str(self) -> &'static str {
        match self {
            StatusReason::NotFound => "NotFound",
            StatusReason::AlreadyExists => "AlreadyExists",
            StatusReason::Conflict => "Conflict",
            StatusReason::Invalid => "Invalid",
            StatusReason::Forbidden => "Forbidden",
            StatusReason::BadRequest => "BadRequest",
            StatusReason::Expired => "Expired",
            StatusReason::TooManyRequests => "TooManyRequests",
            StatusReason::Timeout => "Timeout",
            StatusReason::Unknown => "Unknown",
        }
    }
}

/// A failed request: HTTP code, reason and message, as a `metav1.Status`
/// (apimachinery `pkg/api/errors/errors.go`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiError {
    /// HTTP status code.
    pub code: u16,
    /// Machine-readable reason.
    pub reason: StatusReason,
    /// Human-readable message, formatted as upstream.
    pub message: String,
    /// `Retry-After` / `details.retryAfterSeconds`, when the server suggests one.
    pub retry_after_s: Option<u64>,
}

/// `OptimisticLockErrorMsg` (apiserver `pkg/registry/generic/registry/store.go`).
pub const OPTIMISTIC_LOCK_ERROR_MSG: &str =
    "the object has been modified; please apply your changes to the latest version and try again";

impl ApiError {
    fn new(code: u16, reason: StatusReason, message: String) -> ApiError {
        ApiError {
            code,
            reason,
            message,
            retry_after_s: None,
        }
    }

    /// 404 `<resource> "<name>" not found` (`NewNotFound`).
    pub fn not_found(resource: &str, name: &str) -> ApiError {
        Self::new(
            404,
            StatusReason::NotFound,
            format!("{resource} {name:?} not found"),
        )
    }

    /// 404 for an endpoint that is not served, e.g. `/status` of a CRD without the subresource.
    pub fn endpoint_not_found() -> ApiError {
        Self::new(
            404,
            StatusReason::NotFound,
            "the server could not find the requested resource".to_owned(),
        )
    }

    /// 409 `<resource> "<name>" already exists` (`NewAlreadyExists`).
    pub fn already_exists(resource: &str, name: &str) -> ApiError {
        Self::new(
            409,
            StatusReason::AlreadyExists,
            format!("{resource} {name:?} already exists"),
        )
    }

    /// 409 `Operation cannot be fulfilled on <resource> "<name>": <why>` (`NewConflict`).
    pub fn conflict(resource: &str, name: &str, why: &str) -> ApiError {
        Self::new(
            409,
            StatusReason::Conflict,
            format!("Operation cannot be fulfilled on {resource} {name:?}: {why}"),
        )
    }

    /// 422 `<kind> "<name>" is invalid: <field errors>` (`NewInvalid`).
    pub fn invalid(qualified_kind: &str, name: &str, field_errors: &[String]) -> ApiError {
        let message = if field_errors.is_empty() {
            format!("{qualified_kind} {name:?} is invalid")
        } else if field_errors.len() == 1 {
            format!("{qualified_kind} {name:?} is invalid: {}", field_errors[0])
        } else {
            format!(
                "{qualified_kind} {name:?} is invalid: [{}]",
                field_errors.join(", ")
            )
        };
        Self::new(422, StatusReason::Invalid, message)
    }

    /// 403 `<resource> "<name>" is forbidden: <why>` (`NewForbidden`).
    pub fn forbidden(resource: &str, name: &str, why: &str) -> ApiError {
        Self::new(
            403,
            StatusReason::Forbidden,
            format!("{resource} {name:?} is forbidden: {why}"),
        )
    }

    /// 400 with `message` (`NewBadRequest`).
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        Self::new(400, StatusReason::BadRequest, message.into())
    }

    /// 410 Expired with `message` (`NewResourceExpired`).
    pub fn expired(message: impl Into<String>) -> ApiError {
        Self::new(410, StatusReason::Expired, message.into())
    }

    /// 504 `Timeout: <message>` with a retry-after (`NewTimeoutError`).
    pub fn timeout(message: &str, retry_after_s: u64) -> ApiError {
        ApiError {
            retry_after_s: Some(retry_after_s),
            ..Self::new(504, StatusReason::Timeout, format!("Timeout: {message}"))
        }
    }

    /// 500 with reason `Unknown`: what the handler makes of an error that is not a `metav1.Status`
    /// (apiserver `pkg/endpoints/handlers/responsewriters/status.go` `ErrorToAPIStatus`).
    pub fn unknown(message: impl Into<String>) -> ApiError {
        Self::new(500, StatusReason::Unknown, message.into())
    }

    /// `apierrors.IsConflict`.
    pub fn is_conflict(&self) -> bool {
        self.reason == StatusReason::Conflict
    }

    /// `apierrors.IsNotFound`.
    pub fn is_not_found(&self) -> bool {
        self.reason == StatusReason::NotFound
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.code,
            self.reason.as_str(),
            self.message
        )
    }
}

impl std::error::Error for ApiError {}

/// `metav1.DeleteOptions` as far as the simulation needs them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeleteOptions {
    /// `gracePeriodSeconds`; `None` lets the strategy pick (pods: `terminationGracePeriodSeconds`).
    pub grace_period_s: Option<i64>,
    /// `preconditions.uid`.
    pub precondition_uid: Option<String>,
    /// `preconditions.resourceVersion`.
    pub precondition_resource_version: Option<u64>,
}

/// The answer to a DELETE: the object as stored last, and whether it is gone.
#[derive(Clone, Debug, PartialEq)]
pub struct DeleteResult {
    /// The removed object (with the deletion revision as resourceVersion), or the object as it
    /// now stands while finalizers or a grace period hold it.
    pub object: ObjectRef,
    /// `true` when the object was removed from storage (a DELETED event was produced).
    pub removed: bool,
}

/// The answer to a LIST.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectList {
    /// Items in storage-key order (`namespace/name`), like an etcd range read.
    pub items: Vec<ObjectRef>,
    /// The list resourceVersion: the store revision at list time, not the max item RV.
    pub resource_version: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conflict_carries_the_upstream_optimistic_lock_message() {
        let e = ApiError::conflict(
            "flywheels.demo.flywheel.dev",
            "fw",
            OPTIMISTIC_LOCK_ERROR_MSG,
        );
        assert_eq!(e.code, 409);
        assert!(e.is_conflict());
        assert_eq!(
            e.message,
            "Operation cannot be fulfilled on flywheels.demo.flywheel.dev \"fw\": the object has \
             been modified; please apply your changes to the latest version and try again"
        );
    }

    #[test]
    fn only_get_list_and_watch_are_non_mutating() {
        let mutating: Vec<&str> = Verb::ALL
            .iter()
            .filter(|v| v.is_mutating())
            .map(|v| v.as_str())
            .collect();
        assert_eq!(mutating, ["POST", "PUT", "PATCH", "DELETE"]);
    }

    #[test]
    fn an_invalid_error_lists_several_field_errors_in_brackets() {
        let e = ApiError::invalid("Flywheel.demo", "x", &["a: bad".into(), "b: bad".into()]);
        assert_eq!(e.code, 422);
        assert_eq!(
            e.message,
            "Flywheel.demo \"x\" is invalid: [a: bad, b: bad]"
        );
    }
}
