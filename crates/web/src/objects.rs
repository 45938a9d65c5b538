//! A custom resource as `kubectl get -o yaml` prints it: the object the engine's API server
//! stores, in its wire shape (`flywheel_engine::apiserver::wire`), with map keys in sorted order
//! and strings quoted where YAML would read them as something else, as `sigs.k8s.io/yaml` does.
//! Lines that differ from the version before it (from the API server's watch cache) are marked.

use flywheel_engine::apiserver::wire::object_to_json;
use flywheel_engine::cluster::inspect::Inspected;
use flywheel_engine::cluster::worker::rfc3339_seconds;
use flywheel_engine::controller::go_code::changed_lines;
use flywheel_engine::object::{Json, JsonMap, Object};
use flywheel_engine::time::SimTime;

/// The `apiVersion` printed for the custom resource.
const API_VERSION: &str = "example.com/v1";

/// The YAML of `inspected`, and for each line whether it changed since the previous version.
pub fn yaml(inspected: &Inspected) -> (Vec<String>, Vec<bool>) {
    let now = object_yaml(&inspected.object);
    let changed = match &inspected.previous {
        Some(before) => changed_lines(&object_yaml(before), &now),
        None => vec![false; now.len()],
    };
    (now, changed)
}

/// `kubectl get -o yaml` lines of one object.
pub fn object_yaml(obj: &Object) -> Vec<String> {
    let mut value = object_to_json(obj);
    if let Some(root) = value.as_object_mut() {
        root.insert("apiVersion", Json::from(API_VERSION));
        if let Some(meta) = root.get_mut("metadata").and_then(Json::as_object_mut) {
            // The wire shape keeps the deletion time as virtual nanoseconds; kubectl prints RFC 3339.
            if let Some(ns) = meta.get("deletionTimestamp").and_then(Json::as_u64) {
                let ts = rfc3339_seconds(SimTime::from_nanos(ns));
                meta.insert("deletionTimestamp", Json::from(ts));
            }
        }
    }
    let mut out = Vec::new();
    if let Json::Object(map) = &value {
        emit_map(map, 0, &mut out);
    }
    out
}

fn emit_map(map: &JsonMap, indent: usize, out: &mut Vec<String>) {
    let pad = " ".repeat(indent);
    for (key, value) in map.iter() {
        let key = scalar(key);
        match value {
            Json::Object(m) if !m.is_empty() => {
                out.push(format!("{pad}{key}:"));
                emit_map(m, indent + 2, out);
            }
            Json::Array(items) if !items.is_empty() => {
                // kubectl (go-yaml) writes a list under a key at the key's own indentation.
                out.push(format!("{pad}{key}:"));
                emit_list(items, indent, out);
            }
            v => out.push(format!("{pad}{key}: {}", inline(v))),
        }
    }
}

fn emit_list(items: &[Json], indent: usize, out: &mut Vec<String>) {
    let pad = " ".repeat(indent);
    for item in items {
        match item {
            Json::Object(m) if !m.is_empty() => {
                let mut nested = Vec::new();
                emit_map(m, indent + 2, &mut nested);
                for (i, line) in nested.into_iter().enumerate() {
                    if i == 0 {
                        out.push(format!("{pad}- {}", &line[indent + 2..]));
                    } else {
                        out.push(line);
                    }
                }
            }
            v => out.push(format!("{pad}- {}", inline(v))),
        }
    }
}

/// A value on one line: scalars, and `{}` / `[]` for empty collections.
fn inline(v: &Json) -> String {
    match v {
        Json::Null => "null".into(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => n.to_string(),
        Json::String(s) => scalar(s),
        Json::Array(_) => "[]".into(),
        Json::Object(_) => "{}".into(),
    }
}

/// A string as go-yaml writes it: plain when it reads back as the same string, else quoted.
fn scalar(s: &str) -> String {
    if needs_quotes(s) {
        serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
    } else {
        s.to_owned()
    }
}

fn needs_quotes(s: &str) -> bool {
    const WORDS: [&str; 12] = [
        "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", "none", "nan",
    ];
    let first = s.chars().next();
    s.is_empty()
        || s.parse::<f64>().is_ok()
        || WORDS.contains(&s.to_ascii_lowercase().as_str())
        || looks_like_a_date(s)
        || s.starts_with("0x")
        || first.is_some_and(|c| "-?:,[]{}#&*!|>'\"%@` ".contains(c))
        || s.ends_with(' ')
        || s.contains(": ")
        || s.contains(" #")
        || s.contains('\n')
}

/// `YYYY-M-D…`: YAML 1.1 reads it as a timestamp, so go-yaml quotes it.
fn looks_like_a_date(s: &str) -> bool {
    let mut parts = s.splitn(3, '-');
    let leading_digits = |p: &str| p.chars().take_while(char::is_ascii_digit).count();
    let year = parts
        .next()
        .is_some_and(|y| y.len() == 4 && leading_digits(y) == 4);
    let month = parts
        .next()
        .is_some_and(|m| (1..=2).contains(&m.len()) && leading_digits(m) == m.len());
    let day = parts
        .next()
        .is_some_and(|d| (1..=2).contains(&leading_digits(d)));
    year && month && day
}

#[cfg(test)]
mod tests {
    use super::*;
    use flywheel_engine::object::ObjectRef;
    use serde_json::json;

    fn demo(rv: u64, phase: &str) -> Object {
        let mut o = Object::new("MyCRD", "ns-0", "demo-0");
        o.metadata.resource_version = rv;
        o.metadata.generation = 2;
        o.metadata.uid = "uid-1".into();
        o.metadata
            .set_finalizers(vec!["example.com/cleanup".into()]);
        o.spec = json!({"replicas": 1}).into();
        o.status = json!({"phase": phase, "lastUpdated": "2024-05-01T09:00:03Z"}).into();
        o
    }

    #[test]
    fn an_object_prints_with_sorted_keys_and_quoted_versions_and_times() {
        let y = object_yaml(&demo(42, "Running"));
        assert_eq!(
            y,
            [
                "apiVersion: example.com/v1",
                "kind: MyCRD",
                "metadata:",
                "  finalizers:",
                "  - example.com/cleanup",
                "  generation: 2",
                "  name: demo-0",
                "  namespace: ns-0",
                "  resourceVersion: \"42\"",
                "  uid: uid-1",
                "spec:",
                "  replicas: 1",
                "status:",
                "  lastUpdated: \"2024-05-01T09:00:03Z\"",
                "  phase: Running",
            ]
        );
    }

    #[test]
    fn lines_that_differ_from_the_previous_version_are_marked() {
        let inspected = Inspected {
            object: ObjectRef::new(demo(43, "Ready")),
            previous: Some(ObjectRef::new(demo(42, "Running"))),
            deleted: false,
        };
        let (lines, changed) = yaml(&inspected);
        let marked: Vec<&str> = lines
            .iter()
            .zip(&changed)
            .filter(|(_, c)| **c)
            .map(|(l, _)| l.as_str())
            .collect();
        assert_eq!(marked, ["  resourceVersion: \"43\"", "  phase: Ready"]);
    }

    #[test]
    fn a_deleted_object_prints_its_deletion_time_as_rfc_3339_and_its_grace_period() {
        let mut o = demo(44, "Running");
        o.metadata
            .set_deletion_timestamp(Some(SimTime::from_millis(5_000)));
        o.metadata.set_deletion_grace_period_s(Some(0));
        let y = object_yaml(&o);
        let meta: Vec<&str> = y
            .iter()
            .map(String::as_str)
            .filter(|l| l.starts_with("  deletion"))
            .collect();
        assert_eq!(
            meta,
            [
                "  deletionGracePeriodSeconds: 0",
                "  deletionTimestamp: \"2026-01-01T00:00:05Z\"",
            ]
        );
    }

    #[test]
    fn strings_that_would_read_as_other_types_are_quoted() {
        assert_eq!(scalar("42"), "\"42\"");
        assert_eq!(scalar("true"), "\"true\"");
        assert_eq!(scalar(""), "\"\"");
        assert_eq!(scalar("a: b"), "\"a: b\"");
        assert_eq!(scalar("Running"), "Running");
        assert_eq!(scalar("example.com/cleanup"), "example.com/cleanup");
        assert_eq!(scalar("2024-05-01T09:00:00Z"), "\"2024-05-01T09:00:00Z\"");
        assert_eq!(
            scalar("00000004-0000-4000-8000-000000000004"),
            "00000004-0000-4000-8000-000000000004",
            "a uid is not a date"
        );
    }
}
