//! JSON merge patch (RFC 7386), the `application/merge-patch+json` patch type that
//! controller-runtime's `client.MergeFrom` produces and apiserver `pkg/endpoints/handlers/patch.go`
//! applies to the current object (through evanphx/json-patch `MergePatch`).

use serde_json::{Map, Value};

use super::request::ApiError;

/// Deepest nesting a patch may have; deeper input is refused instead of risking the stack.
pub const MAX_PATCH_DEPTH: usize = 128;

/// Applies `patch` to `target` as RFC 7386 `MergePatch(Target, Patch)`: an object patch merges
/// key by key (a `null` member removes the key), anything else replaces the target.
///
/// Returns 400 BadRequest when the patch nests deeper than [`MAX_PATCH_DEPTH`].
pub fn merge_patch(target: &Value, patch: &Value) -> Result<Value, ApiError> {
    merge_at_depth(target, patch, 0)
}

fn merge_at_depth(target: &Value, patch: &Value, depth: usize) -> Result<Value, ApiError> {
    if depth > MAX_PATCH_DEPTH {
        return Err(ApiError::bad_request(format!(
            "merge patch nests deeper than {MAX_PATCH_DEPTH} levels"
        )));
    }
    let Value::Object(members) = patch else {
        return Ok(patch.clone());
    };
    let mut merged = match target {
        Value::Object(existing) => existing.clone(),
        _ => Map::new(),
    };
    for (key, value) in members {
        if value.is_null() {
            merged.remove(key);
        } else {
            let current = merged.get(key).unwrap_or(&Value::Null);
            let next = merge_at_depth(current, value, depth + 1)?;
            merged.insert(key.clone(), next);
        }
    }
    Ok(Value::Object(merged))
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
                merge_patch(&target, &patch).expect("patch applies"),
                expected,
                "{target} + {patch}"
            );
        }
    }

    #[test]
    fn a_patch_nested_beyond_the_limit_is_a_bad_request_not_a_crash() {
        let mut patch = json!(1);
        for _ in 0..(MAX_PATCH_DEPTH + 5) {
            patch = json!({ "x": patch });
        }
        let err = merge_patch(&json!({}), &patch).expect_err("too deep");
        assert_eq!(err.code, 400);
    }
}
