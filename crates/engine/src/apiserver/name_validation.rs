//! Object names that can be a path segment (apimachinery `pkg/api/validation/path/name.go`
//! `IsValidPathSegmentName`, applied to `metadata.name` by `ValidateObjectMetaAccessor` in
//! `pkg/api/validation/objectmeta.go` for custom resources).
//!
//! A name is one segment of the resource's URL path, and an informer's key is
//! `namespace/name`: a name holding `/` would be neither.

/// Names no object may have (`NameMayNotBe`).
const NAME_MAY_NOT_BE: [&str; 2] = [".", ".."];

/// Texts no object name may contain (`NameMayNotContain`).
const NAME_MAY_NOT_CONTAIN: [&str; 2] = ["/", "%"];

/// The first byte of each of [`NAME_MAY_NOT_CONTAIN`]: a name holding none of them holds none of
/// those texts.
const FORBIDDEN_FIRST_BYTES: [u8; NAME_MAY_NOT_CONTAIN.len()] = first_bytes(NAME_MAY_NOT_CONTAIN);

/// The first byte of each of `texts` (none of them empty).
const fn first_bytes<const N: usize>(texts: [&str; N]) -> [u8; N] {
    let mut out = [0; N];
    let mut i = 0;
    while i < N {
        out[i] = texts[i].as_bytes()[0];
        i += 1;
    }
    out
}

/// What is wrong with `name` as a path segment, as upstream words it (empty when it is valid).
pub fn is_valid_path_segment_name(name: &str) -> Vec<String> {
    if let Some(bad) = NAME_MAY_NOT_BE.iter().find(|bad| **bad == name) {
        return vec![format!("may not be '{bad}'")];
    }
    // Every name of a large run is valid, and one pass over its bytes says so: no byte starts a
    // forbidden text.
    if !name.bytes().any(|b| FORBIDDEN_FIRST_BYTES.contains(&b)) {
        return Vec::new();
    }
    NAME_MAY_NOT_CONTAIN
        .iter()
        .filter(|bad| name.contains(**bad))
        .map(|bad| format!("may not contain '{bad}'"))
        .collect()
}

/// The field errors of `metadata.name` and `metadata.namespace` (`field.Invalid`:
/// `<path>: Invalid value: "<value>": <detail>`). Upstream checks a namespace as a DNS label
/// (`ValidateNamespaceName`), which is stricter; this checks only what an object's key needs, and
/// a namespace that fails it cannot exist (namespaces are named by the name rule above).
pub fn validate_name_and_namespace(name: &str, namespace: &str) -> Vec<String> {
    let field = |path: &str, value: &str, detail: String| {
        format!("{path}: Invalid value: {value:?}: {detail}")
    };
    let mut errors: Vec<String> = is_valid_path_segment_name(name)
        .into_iter()
        .map(|detail| field("metadata.name", name, detail))
        .collect();
    if !namespace.is_empty() {
        errors.extend(
            is_valid_path_segment_name(namespace)
                .into_iter()
                .map(|detail| field("metadata.namespace", namespace, detail)),
        );
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_may_not_be_a_dot_or_two_dots_nor_contain_a_slash_or_a_percent() {
        assert!(is_valid_path_segment_name("demo-1").is_empty());
        assert_eq!(is_valid_path_segment_name(".."), ["may not be '..'"]);
        assert_eq!(
            is_valid_path_segment_name("a/b%c"),
            ["may not contain '/'", "may not contain '%'"]
        );
    }

    #[test]
    fn field_errors_name_the_field_and_the_value() {
        assert_eq!(
            validate_name_and_namespace("a/b", "default"),
            [r#"metadata.name: Invalid value: "a/b": may not contain '/'"#]
        );
        assert_eq!(
            validate_name_and_namespace("a", "x/y"),
            [r#"metadata.namespace: Invalid value: "x/y": may not contain '/'"#]
        );
    }
}
