//! The object a PATCH leaves: apiserver `pkg/endpoints/handlers/patch.go` applies the merge patch
//! to the current object's JSON and decodes the result.
//!
//! ```text
//!   patch {"status": {...}}            ──► spec / status merged in place of the object's own
//!   any other patch (metadata, kind)   ──► the wire form ─merge─► decoded back (wire.rs)
//! ```
//!
//! A patch of `spec` and `status` only (what `client.MergeFrom` sends for a status change, and
//! every patch the operator sends) leaves the metadata as the current object has it; since the
//! wire form carries every metadata field and decodes it back unchanged, merging those two members
//! into the current object gives the object the round trip would, without writing the metadata
//! out and reading it back. The payload's size changes by the change of the encoded length, which
//! for those members is their own (`,"status":` and the value), the rest of the text being equal.

use super::merge_patch::{merge_member, merge_patch};
use super::request::ApiError;
use super::wire::{object_from_json, object_to_json};
use crate::object::{Json, Object};

/// The members a patch may carry for the short way: each is one of the object's own values.
const PAYLOAD: [&str; 2] = ["spec", "status"];

/// `current` with `patch` applied, its `size_bytes` moved by the change of its encoded length.
/// `name` and `namespace` are the URL's: a patch that moves the object elsewhere is a 400.
pub(super) fn patched_object(
    current: &Object,
    patch: &Json,
    name: &str,
    namespace: &str,
) -> Result<Object, ApiError> {
    if let Some(members) = patch.as_object() {
        if members.iter().all(|(k, _)| PAYLOAD.contains(&k)) {
            return payload_patched(current, patch);
        }
    }
    wire_patched(current, patch, name, namespace)
}

/// The short way: `spec` and `status` merged as the wire form's members would be.
fn payload_patched(current: &Object, patch: &Json) -> Result<Object, ApiError> {
    let mut patched = current.clone();
    let mut delta = 0_i64;
    for (field, value) in [("spec", &mut patched.spec), ("status", &mut patched.status)] {
        let Some(change) = patch.get(field) else {
            continue;
        };
        let next = if change.is_null() {
            Json::Null
        } else {
            merge_member(value, change)?
        };
        delta += member_len(field, &next) - member_len(field, value);
        *value = next;
    }
    patched.size_bytes = resized(current.size_bytes, delta);
    Ok(patched)
}

/// The encoded length of the wire form's member `field` holding `value`: `,"field":` and the
/// value after the members before it, or nothing when the value is null (the member is left out).
fn member_len(field: &str, value: &Json) -> i64 {
    if value.is_null() {
        return 0;
    }
    (field.len() + 4 + value.encoded_len()) as i64
}

/// A payload of `size_bytes` changed by `delta` bytes of its encoding (at least one byte).
fn resized(size_bytes: u64, delta: i64) -> u64 {
    size_bytes.saturating_add_signed(delta).max(1)
}

/// The long way: the wire form, merged, decoded back.
fn wire_patched(
    current: &Object,
    patch: &Json,
    name: &str,
    namespace: &str,
) -> Result<Object, ApiError> {
    let before = object_to_json(current);
    let merged = merge_patch(&before, patch)?;
    let mut patched = object_from_json(&merged, current)?;
    if patched.metadata.name() != name || patched.metadata.namespace() != namespace {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({}) does not match the name on the URL ({name})",
            patched.metadata.name(),
        )));
    }
    let delta = merged.encoded_len() as i64 - before.encoded_len() as i64;
    patched.size_bytes = resized(current.size_bytes, delta);
    Ok(patched)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The wire form's sample object (every metadata field set) with `spec` and `status`.
    fn current(spec: serde_json::Value, status: serde_json::Value) -> Object {
        let mut o = super::super::wire::tests::sample();
        o.spec = spec.into();
        o.status = status.into();
        o.size_bytes = 4096;
        o
    }

    #[test]
    fn a_patch_of_spec_and_status_leaves_what_the_wire_form_s_round_trip_would() {
        let objects = [
            current(json!({"replicas": 1}), json!({"phase": "Pending", "n": 1})),
            current(json!(null), json!(null)),
            current(json!({"a": {"b": [1, 2]}}), json!("odd")),
        ];
        let patches = [
            json!({}),
            json!({"status": {"phase": "Running"}}),
            json!({"status": {"n": null, "lastUpdated": "2026-01-01T00:00:05Z"}}),
            json!({"status": null}),
            json!({"spec": {"replicas": 2, "a": {"b": null, "c": "é\"\n"}}}),
            json!({"spec": 7, "status": [1, {"x": null}]}),
            json!({"spec": null, "status": {"phase": "Running"}}),
        ];
        for o in &objects {
            for p in &patches {
                let p = Json::from(p.clone());
                let short = payload_patched(o, &p).expect("applies");
                let long = wire_patched(o, &p, "fw", "default").expect("applies");
                assert_eq!(short, long, "{p:?} on {:?}", o.status);
                assert_eq!(short.size_bytes, long.size_bytes, "{p:?} on {:?}", o.status);
            }
        }
    }

    #[test]
    fn a_patch_of_metadata_goes_the_long_way_and_a_move_is_refused() {
        let o = current(json!({"replicas": 1}), json!(null));
        let labelled = Json::from(json!({"metadata": {"labels": {"app": "other"}}}));
        let patched = patched_object(&o, &labelled, "fw", "default").expect("applies");
        let labels = patched.metadata.labels.as_deref().expect("labels");
        assert_eq!(labels.get("app").map(String::as_str), Some("other"));
        let moved = Json::from(json!({"metadata": {"name": "elsewhere"}}));
        let err = patched_object(&o, &moved, "fw", "default").expect_err("moved");
        assert_eq!(err.code, 400);
    }

    #[test]
    fn a_payload_patch_nested_beyond_the_limit_is_refused_as_the_long_way_refuses_it() {
        let mut deep = json!(1);
        for _ in 0..super::super::merge_patch::MAX_PATCH_DEPTH {
            deep = json!({ "x": deep });
        }
        let o = current(json!(null), json!(null));
        let patch = Json::from(json!({ "status": deep }));
        let short = payload_patched(&o, &patch).map_err(|e| e.code);
        let long = wire_patched(&o, &patch, "fw", "default").map_err(|e| e.code);
        assert_eq!(short.as_ref().err(), Some(&400));
        assert_eq!(short.map(|_| ()), long.map(|_| ()));
    }
}
