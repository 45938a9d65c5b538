//! The wire shape of an [`Object`]: Kubernetes-style JSON (`metadata.resourceVersion` as a string,
//! camelCase keys, empty fields omitted like Go's `omitempty`), so merge patches read like the ones
//! controller-runtime sends.
//!
//! Departures, documented: `metadata.deletionTimestamp` is virtual nanoseconds (a number), not
//! RFC 3339; `kind` and `size_bytes` are simulation bookkeeping and are not patchable.

use serde_json::{json, Map, Value};

use super::request::ApiError;
use crate::object::{Json, Lifecycle, Object, ObjectMeta, OwnerReference, StringMap};
use crate::time::SimTime;
use crate::vec_map::VecMap;

/// The object as Kubernetes JSON: `{"kind", "metadata": {...}, "spec", "status"}`.
pub fn object_to_value(obj: &Object) -> Value {
    let mut root = Map::new();
    root.insert("kind".into(), Value::String(obj.kind.to_string()));
    root.insert("metadata".into(), meta_to_value(&obj.metadata));
    if !obj.spec.is_null() {
        root.insert("spec".into(), Value::from(&obj.spec));
    }
    if !obj.status.is_null() {
        root.insert("status".into(), Value::from(&obj.status));
    }
    Value::Object(root)
}

fn meta_to_value(m: &ObjectMeta) -> Value {
    let mut out = Map::new();
    let mut put = |k: &str, v: Value| {
        out.insert(k.to_owned(), v);
    };
    put("name", json!(m.name()));
    if !m.namespace().is_empty() {
        put("namespace", json!(m.namespace()));
    }
    if !m.uid.is_empty() {
        put("uid", json!(m.uid));
    }
    if m.resource_version != 0 {
        put("resourceVersion", json!(m.resource_version.to_string()));
    }
    if m.generation != 0 {
        put("generation", json!(m.generation));
    }
    if let Some(labels) = &m.labels {
        put("labels", json!(labels));
    }
    if let Some(annotations) = &m.annotations {
        put("annotations", json!(annotations));
    }
    if !m.finalizers().is_empty() {
        put("finalizers", json!(m.finalizers()));
    }
    if let Some(ts) = m.deletion_timestamp() {
        put("deletionTimestamp", json!(ts.as_nanos()));
    }
    // A pointer with `omitempty`: 0 is shown, only nil is left out.
    if let Some(s) = m.deletion_grace_period_s() {
        put("deletionGracePeriodSeconds", json!(s));
    }
    if !m.owner_references().is_empty() {
        let refs: Vec<Value> = m.owner_references().iter().map(owner_to_value).collect();
        put("ownerReferences", Value::Array(refs));
    }
    Value::Object(out)
}

fn owner_to_value(o: &OwnerReference) -> Value {
    json!({"kind": o.kind, "name": o.name, "uid": o.uid, "controller": o.controller})
}

/// Decodes a patched object; `kind` and `size_bytes` come from `template` (the current object).
/// A malformed field is a 400 BadRequest naming it, as a JSON decode error would be upstream.
pub fn object_from_value(value: &Value, template: &Object) -> Result<Object, ApiError> {
    let root = value
        .as_object()
        .ok_or_else(|| ApiError::bad_request("the patched object must be a JSON object"))?;
    let mut metadata = match root.get("metadata") {
        None | Some(Value::Null) => ObjectMeta::default(),
        Some(v) => meta_from_value(v)?,
    };
    metadata.share_key_of(&template.metadata);
    Ok(Object {
        kind: template.kind.clone(),
        metadata,
        spec: root.get("spec").cloned().map_or(Json::Null, Json::from),
        status: root.get("status").cloned().map_or(Json::Null, Json::from),
        size_bytes: template.size_bytes,
    })
}

fn meta_from_value(v: &Value) -> Result<ObjectMeta, ApiError> {
    let m = v
        .as_object()
        .ok_or_else(|| bad("metadata", "must be an object"))?;
    let mut meta = ObjectMeta::named(&string_field(m, "namespace")?, &string_field(m, "name")?);
    meta.uid = string_field(m, "uid")?.into();
    meta.resource_version = resource_version_field(m)?;
    meta.generation = match m.get("generation") {
        None | Some(Value::Null) => 0,
        Some(g) => g
            .as_i64()
            .ok_or_else(|| bad("generation", "must be an integer"))?,
    };
    meta.labels = string_map_field(m, "labels")?;
    meta.annotations = string_map_field(m, "annotations")?;
    meta.lifecycle = Lifecycle::of(
        string_list_field(m, "finalizers")?,
        match m.get("deletionTimestamp") {
            None | Some(Value::Null) => None,
            Some(t) => Some(SimTime::from_nanos(t.as_u64().ok_or_else(|| {
                bad("deletionTimestamp", "must be virtual nanoseconds")
            })?)),
        },
        match m.get("deletionGracePeriodSeconds") {
            None | Some(Value::Null) => None,
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

fn string_field(m: &Map<String, Value>, key: &str) -> Result<String, ApiError> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(bad(key, "must be a string")),
    }
}

/// `resourceVersion` is a string of digits upstream; a number is accepted too, `""` means unset.
fn resource_version_field(m: &Map<String, Value>) -> Result<u64, ApiError> {
    match m.get("resourceVersion") {
        None | Some(Value::Null) => Ok(0),
        Some(Value::String(s)) if s.is_empty() => Ok(0),
        Some(Value::String(s)) => s
            .parse::<u64>()
            .map_err(|_| bad("resourceVersion", &format!("invalid value {s:?}"))),
        Some(n) => n
            .as_u64()
            .ok_or_else(|| bad("resourceVersion", "must be a string of digits")),
    }
}

fn string_map_field(m: &Map<String, Value>, key: &str) -> Result<StringMap, ApiError> {
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
    for (k, val) in members {
        let s = val
            .as_str()
            .ok_or_else(|| bad(key, "values must be strings"))?;
        out.insert(k.clone(), s.to_owned());
    }
    Ok(Some(Box::new(out)))
}

fn string_list_field(m: &Map<String, Value>, key: &str) -> Result<Vec<String>, ApiError> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
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

fn owners_field(m: &Map<String, Value>) -> Result<Vec<OwnerReference>, ApiError> {
    let items = match m.get("ownerReferences") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
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
                controller: o
                    .get("controller")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Object {
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
        let v = object_to_value(&o);
        assert_eq!(v["metadata"]["resourceVersion"], json!("42"));
        assert_eq!(v["metadata"]["deletionGracePeriodSeconds"], json!(0));
        assert_eq!(object_from_value(&v, &o).expect("decodes"), o);
    }

    #[test]
    fn a_nil_label_map_and_an_empty_one_stay_distinct() {
        let mut o = sample();
        o.metadata.labels = None;
        let back = object_from_value(&object_to_value(&o), &o).expect("decodes");
        assert_eq!(back.metadata.labels, None);
        assert_eq!(back.metadata.annotations, Some(VecMap::new().into()));
    }

    #[test]
    fn a_malformed_resource_version_is_a_bad_request_naming_the_field() {
        let o = sample();
        let mut v = object_to_value(&o);
        v["metadata"]["resourceVersion"] = json!("12abc");
        let err = object_from_value(&v, &o).expect_err("rejected");
        assert_eq!(err.code, 400);
        assert!(err.message.contains("metadata.resourceVersion"), "{err}");
    }
}
