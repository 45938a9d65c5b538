//! JSON merge patch (RFC 7386), the `application/merge-patch+json` patch type that
//! controller-runtime's `client.MergeFrom` produces and apiserver `pkg/endpoints/handlers/patch.go`
//! applies to the current object (through evanphx/json-patch `MergePatch`).
//!
//! It works on the engine's [`Json`]: a member the patch leaves alone keeps sharing its value
//! (and an object's members slice, when none of them changes) with the target.

use super::request::ApiError;
use crate::object::{Json, JsonMap};

/// Deepest nesting a patch may have; deeper input is refused instead of risking the stack.
pub const MAX_PATCH_DEPTH: usize = 128;

/// Applies `patch` to `target` as RFC 7386 `MergePatch(Target, Patch)`: an object patch merges
/// key by key (a `null` member removes the key), anything else replaces the target.
///
/// Returns 400 BadRequest when the patch nests deeper than [`MAX_PATCH_DEPTH`].
pub fn merge_patch(target: &Json, patch: &Json) -> Result<Json, ApiError> {
    merge_at_depth(target, patch, 0)
}

/// Merges `patch` into `target`, a member of the patched document's root: as [`merge_patch`] of
/// a root holding it would (its depth counted from the root).
pub(super) fn merge_member(target: &Json, patch: &Json) -> Result<Json, ApiError> {
    merge_at_depth(target, patch, 1)
}

fn merge_at_depth(target: &Json, patch: &Json, depth: usize) -> Result<Json, ApiError> {
    if depth > MAX_PATCH_DEPTH {
        return Err(ApiError::bad_request(format!(
            "merge patch nests deeper than {MAX_PATCH_DEPTH} levels"
        )));
    }
    let Json::Object(members) = patch else {
        return Ok(patch.clone());
    };
    let mut merged = match target {
        Json::Object(existing) => existing.clone(),
        _ => JsonMap::new(),
    };
    for (key, value) in members.iter() {
        if value.is_null() {
            merged.remove(key);
        } else {
            let next = merge_at_depth(merged.get(key).unwrap_or(&Json::Null), value, depth + 1)?;
            merged.insert(key, next);
        }
    }
    Ok(Json::Object(merged))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// RFC 7386 Appendix A, every example.
    #[test]
    fn merge_patch_reproduces_every_example_of_rfc_7386_appendix_a() {
        let cases = [
            (json!({"a":"b"}), json!({"a":"c"}), json!({"a":"c"})),
            (json!({"a":"b"}), json!({"b":"c"}), json!({"a":"b","b":"c"})),
            (json!({"a":"b"}), json!({"a":null}), json!({})),
            (
                json!({"a":"b","b":"c"}),
                json!({"a":null}),
                json!({"b":"c"}),
            ),
            (json!({"a":["b"]}), json!({"a":"c"}), json!({"a":"c"})),
            (json!({"a":"c"}), json!({"a":["b"]}), json!({"a":["b"]})),
            (
                json!({"a":{"b":"c"}}),
                json!({"a":{"b":"d","c":null}}),
                json!({"a":{"b":"d"}}),
            ),
            (json!({"a":[{"b":"c"}]}), json!({"a":[1]}), json!({"a":[1]})),
            (json!(["a", "b"]), json!(["c", "d"]), json!(["c", "d"])),
            (json!({"a":"b"}), json!(["c"]), json!(["c"])),
            (json!({"a":"foo"}), json!(null), json!(null)),
            (json!({"a":"foo"}), json!("bar"), json!("bar")),
            (json!({"e":null}), json!({"a":1}), json!({"e":null,"a":1})),
            (json!([1, 2]), json!({"a":"b","c":null}), json!({"a":"b"})),
            (
                json!({}),
                json!({"a":{"bb":{"ccc":null}}}),
                json!({"a":{"bb":{}}}),
            ),
        ];
        for (target, patch, expected) in cases {
            assert_eq!(
                merge_patch(&Json::from(target.clone()), &Json::from(patch.clone()))
                    .expect("patch applies"),
                expected,
                "{target} + {patch}"
            );
        }
    }

    #[test]
    fn a_merged_object_shares_every_member_the_patch_leaves_alone() {
        let target = Json::from(json!({
            "spec": {"replicas": 1, "image": "demo:1"},
            "status": {"phase": "Pending", "lastUpdated": "t0"}
        }));
        let patch = Json::from(json!({"status": {"phase": "Running"}}));
        let merged = merge_patch(&target, &patch).expect("patch applies");
        assert_eq!(
            merged,
            json!({
                "spec": {"replicas": 1, "image": "demo:1"},
                "status": {"phase": "Running", "lastUpdated": "t0"}
            })
        );
        let members = |v: &Json| v.as_object().expect("an object").members().as_ptr();
        assert_eq!(
            members(&merged["spec"]),
            members(&target["spec"]),
            "the spec is the target's, not a copy"
        );
        let (Json::String(kept), Json::String(before)) = (
            &merged["status"]["lastUpdated"],
            &target["status"]["lastUpdated"],
        ) else {
            panic!("texts");
        };
        assert!(
            std::rc::Rc::ptr_eq(kept, before),
            "an untouched text is shared"
        );
    }

    #[test]
    fn a_patch_nested_beyond_the_limit_is_a_bad_request_not_a_crash() {
        let mut patch = json!(1);
        for _ in 0..(MAX_PATCH_DEPTH + 5) {
            patch = json!({ "x": patch });
        }
        let err = merge_patch(&Json::from(json!({})), &Json::from(patch)).expect_err("too deep");
        assert_eq!(err.code, 400);
    }
}
