//! The wire shape of an [`Object`]: Kubernetes-style JSON (`metadata.resourceVersion` as a string,
//! camelCase keys, empty fields omitted like Go's `omitempty`), so merge patches read like the ones
//! controller-runtime sends.
//!
//! Departures, documented: `metadata.deletionTimestamp` is virtual nanoseconds (a number), not
//! RFC 3339; `kind` and `size_bytes` are simulation bookkeeping and are not patchable.
//!
//! The shape is the engine's [`Json`], built member by member in key order (the order Go's
//! `encoding/json` and `serde_json` write a map in): `spec` and `status` are the object's own
//! values, shared, not copies.

use std::rc::Rc;

use super::request::ApiError;
use crate::object::{Json, JsonMap, Lifecycle, Object, ObjectMeta, OwnerReference, StringMap};
use crate::time::SimTime;
use crate::vec_map::VecMap;

/// A member of a map built in key order.
fn member(key: &str, value: Json) -> (Rc<str>, Json) {
    (Rc::from(key), value)
}

/// The object as Kubernetes JSON: `{"kind", "metadata": {...}, "spec", "status"}`.
pub fn object_to_json(obj: &Object) -> Json {
    let mut root = Vec::with_capacity(4);
    root.push(member("kind", Json::from(obj.kind.to_string())));
    root.push(member("metadata", meta_to_json(&obj.metadata)));
    if !obj.spec.is_null() {
        root.push(member("spec", obj.spec.clone()));
    }
    if !obj.status.is_null() {
        root.push(member("status", obj.status.clone()));
    }
    Json::Object(JsonMap::from_sorted(root))
}

/// The metadata's members, in key order.
fn meta_to_json(m: &ObjectMeta) -> Json {
    let mut out = Vec::with_capacity(12);
    if let Some(annotations) = &m.annotations {
        out.push(member("annotations", string_map_to_json(annotations)));
    }
    // A pointer with `omitempty`: 0 is shown, only nil is left out.
    if let Some(s) = m.deletion_grace_period_s() {
        out.push(member("deletionGracePeriodSeconds", Json::from(s)));
    }
    if let Some(ts) = m.deletion_timestamp() {
        let nanos = serde_json::Number::from(ts.as_nanos());
        out.push(member("deletionTimestamp", Json::Number(nanos)));
    }
    if !m.finalizers().is_empty() {
        let items = m.finalizers().iter().map(|f| Json::from(f.as_str()));
        out.push(member("finalizers", Json::Array(items.collect())));
    }
    if m.generation != 0 {
        out.push(member("generation", Json::from(m.generation)));
    }
    if let Some(labels) = &m.labels {
        out.push(member("labels", string_map_to_json(labels)));
    }
    out.push(member("name", Json::from(m.name())));
    if !m.namespace().is_empty() {
        out.push(member("namespace", Json::from(m.namespace())));
    }
    if !m.owner_references().is_empty() {
        let refs = m.owner_references().iter().map(owner_to_json);
        out.push(member("ownerReferences", Json::Array(refs.collect())));
    }
    if m.resource_version != 0 {
        let rv = m.resource_version.to_string();
        out.push(member("resourceVersion", Json::from(rv)));
    }
    if !m.uid.is_empty() {
        out.push(member("uid", Json::from(m.uid.to_string())));
    }
    Json::Object(JsonMap::from_sorted(out))
}

/// Labels or annotations: a map of strings (a sorted map: its entries are in key order).
fn string_map_to_json(map: &VecMap<String, String>) -> Json {
    let members = map.iter().map(|(k, v)| member(k, Json::from(v.as_str())));
    Json::Object(JsonMap::from_sorted(members.collect()))
}

fn owner_to_json(o: &OwnerReference) -> Json {
    Json::Object(JsonMap::from_sorted(vec![
        member("controller", Json::from(o.controller)),
        member("kind", Json::from(o.kind.as_str())),
        member("name", Json::from(o.name.as_str())),
        member("uid", Json::from(o.uid.as_str())),
    ]))
}

/// Decodes a patched object; `kind` and `size_bytes` come from `template` (the current object).
/// A malformed field is a 400 BadRequest naming it, as a JSON decode error would be upstream.
pub fn object_from_json(value: &Json, template: &Object) -> Result<Object, ApiError> {
    let root = value
        .as_object()
        .ok_or_else(|| ApiError::bad_request("the patched object must be a JSON object"))?;
    let mut metadata = match root.get("metadata") {
        None | Some(Json::Null) => ObjectMeta::default(),
        Some(v) => meta_from_json(v)?,
    };
    metadata.share_key_of(&template.metadata);
    Ok(Object {
        kind: template.kind.clone(),
        metadata,
        spec: root.get("spec").cloned().unwrap_or_default(),
        status: root.get("status").cloned().unwrap_or_default(),
        size_bytes: template.size_bytes,
    })
}

fn meta_from_json(v: &Json) -> Result<ObjectMeta, ApiError> {
    let m = v
        .as_object()
        .ok_or_else(|| bad("metadata", "must be an object"))?;
    let mut meta = ObjectMeta::named(&string_field(m, "namespace")?, &string_field(m, "name")?);
    meta.uid = string_field(m, "uid")?.into();
    meta.resource_version = resource_version_field(m)?;
    meta.generation = match m.get("generation") {
        None | Some(Json::Null) => 0,
        Some(g) => g
            .as_i64()
            .ok_or_else(|| bad("generation", "must be an integer"))?,
    };
    meta.labels = string_map_field(m, "labels")?;
    meta.annotations = string_map_field(m, "annotations")?;
    meta.lifecycle = Lifecycle::of(
        string_list_field(m, "finalizers")?,
        match m.get("deletionTimestamp") {
            None | Some(Json::Null) => None,
            Some(t) => Some(SimTime::from_nanos(t.as_u64().ok_or_else(|| {
                bad("deletionTimestamp", "must be virtual nanoseconds")
            })?)),
        },
        match m.get("deletionGracePeriodSeconds") {
            None | Some(Json::Null) => None,
            Some(s) => Some(
                s.as_i64()
                    .ok_or_else(|| bad("deletionGracePeriodSeconds", "must be an integer"))?,
            ),
        },
        owners_field(m)?,
    );
    Ok(meta)
}

fn bad(field: &str, what: &str) -> ApiError {
    ApiError::bad_request(format!("metadata.{field}: {what}"))
}

fn string_field(m: &JsonMap, key: &str) -> Result<String, ApiError> {
    match m.get(key) {
        None | Some(Json::Null) => Ok(String::new()),
        Some(Json::String(s)) => Ok(s.to_string()),
        Some(_) => Err(bad(key, "must be a string")),
    }
}

/// `resourceVersion` is a string of digits upstream; a number is accepted too, `""` means unset.
fn resource_version_field(m: &JsonMap) -> Result<u64, ApiError> {
    match m.get("resourceVersion") {
        None | Some(Json::Null) => Ok(0),
        Some(Json::String(s)) if s.is_empty() => Ok(0),
        Some(Json::String(s)) => s
            .parse::<u64>()
            .map_err(|_| bad("resourceVersion", &format!("invalid value {:?}", &**s))),
        Some(n) => n
            .as_u64()
            .ok_or_else(|| bad("resourceVersion", "must be a string of digits")),
    }
}

fn string_map_field(m: &JsonMap, key: &str) -> Result<StringMap, ApiError> {
    let Some(v) = m.get(key) else {
        return Ok(None);
    };
    let Some(members) = v.as_object() else {
        return if v.is_null() {
            Ok(None)
        } else {
            Err(bad(key, "must be a map of strings"))
        };
    };
    let mut out = VecMap::new();
    for (k, val) in members.iter() {
        let s = val
            .as_str()
            .ok_or_else(|| bad(key, "values must be strings"))?;
        out.insert(k.to_owned(), s.to_owned());
    }
    Ok(Some(Box::new(out)))
}

fn string_list_field(m: &JsonMap, key: &str) -> Result<Vec<String>, ApiError> {
    match m.get(key) {
        None | Some(Json::Null) => Ok(Vec::new()),
        Some(Json::Array(items)) => items
            .iter()
            .map(|i| {
                i.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| bad(key, "items must be strings"))
            })
            .collect(),
        Some(_) => Err(bad(key, "must be a list of strings")),
    }
}

fn owners_field(m: &JsonMap) -> Result<Vec<OwnerReference>, ApiError> {
    let items = match m.get("ownerReferences") {
        None | Some(Json::Null) => return Ok(Vec::new()),
        Some(Json::Array(items)) => items,
        Some(_) => return Err(bad("ownerReferences", "must be a list")),
    };
    items
        .iter()
        .map(|o| {
            let o = o
                .as_object()
                .ok_or_else(|| bad("ownerReferences", "items must be objects"))?;
            Ok(OwnerReference {
                kind: string_field(o, "kind")?,
                name: string_field(o, "name")?,
                uid: string_field(o, "uid")?,
                controller: o.get("controller").and_then(Json::as_bool).unwrap_or(false),
            })
        })
        .collect()
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use serde_json::json;

    /// An object with every metadata field the wire form carries set.
    pub(in crate::apiserver) fn sample() -> Object {
        let mut o = Object::new("Flywheel", "default", "fw");
        o.metadata.uid = "uid-1".into();
        o.metadata.resource_version = 42;
        o.metadata.generation = 3;
        o.metadata.labels = Some(VecMap::from([("app".into(), "demo".into())]).into());
        o.metadata.annotations = Some(VecMap::new().into());
        o.metadata.set_finalizers(vec!["demo/cleanup".into()]);
        o.metadata
            .set_deletion_timestamp(Some(SimTime::from_millis(5)));
        o.metadata.set_deletion_grace_period_s(Some(0));
        o.metadata.set_owner_references(vec![OwnerReference {
            kind: "Owner".into(),
            name: "o".into(),
            uid: "uid-0".into(),
            controller: true,
        }]);
        o.spec = json!({"replicas": 2}).into();
        o.status = json!({"lastSync": 7}).into();
        o
    }

    #[test]
    fn an_object_survives_the_round_trip_through_its_wire_shape() {
        let o = sample();
        let v = object_to_json(&o);
        assert_eq!(v["metadata"]["resourceVersion"], json!("42"));
        assert_eq!(v["metadata"]["deletionGracePeriodSeconds"], json!(0));
        assert_eq!(object_from_json(&v, &o).expect("decodes"), o);
    }

    #[test]
    fn the_wire_shape_writes_the_json_kubernetes_would_with_members_in_key_order() {
        let o = sample();
        let expected = json!({
            "kind": "Flywheel",
            "metadata": {
                "annotations": {},
                "deletionGracePeriodSeconds": 0,
                "deletionTimestamp": 5_000_000,
                "finalizers": ["demo/cleanup"],
                "generation": 3,
                "labels": {"app": "demo"},
                "name": "fw",
                "namespace": "default",
                "ownerReferences": [
                    {"controller": true, "kind": "Owner", "name": "o", "uid": "uid-0"}
                ],
                "resourceVersion": "42",
                "uid": "uid-1"
            },
            "spec": {"replicas": 2},
            "status": {"lastSync": 7}
        });
        let wire = object_to_json(&o);
        assert_eq!(wire, expected);
        assert_eq!(
            serde_json::to_string(&wire).expect("serializes"),
            serde_json::to_string(&expected).expect("serializes")
        );
    }

    #[test]
    fn a_nil_label_map_and_an_empty_one_stay_distinct() {
        let mut o = sample();
        o.metadata.labels = None;
        let back = object_from_json(&object_to_json(&o), &o).expect("decodes");
        assert_eq!(back.metadata.labels, None);
        assert_eq!(back.metadata.annotations, Some(VecMap::new().into()));
    }

    #[test]
    fn a_malformed_resource_version_is_a_bad_request_naming_the_field() {
        let o = sample();
        let mut v = object_to_json(&o);
        v["metadata"]["resourceVersion"] = Json::from("12abc");
        let err = object_from_json(&v, &o).expect_err("rejected");
        assert_eq!(err.code, 400);
        assert!(err.message.contains("metadata.resourceVersion"), "{err}");
    }
}
