//! Settings applied to a scenario without the TOML parser: the scenario is written as a serde
//! value, each setting is put at its path, the value is read back into a [`Scenario`] and checked
//! by [`Scenario::validate`] — the validation `--set` and a scenario file go through, with the same
//! messages. The page uses this, so its module does not carry a TOML parser.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{check_path, Kind, SETTINGS};
use crate::scenario::messages::{escaped, in_user_words};
use crate::scenario::{Scenario, ScenarioError};

/// `scenario` with each `(path, value)` of `sets` applied in order, each value written as `--set`
/// takes it (`4`, `64Ki`, `true`, `field_index`, `["generation_changed"]`); an unknown path, a
/// value of the wrong form or one out of range is refused with the field and what it accepts.
pub fn apply(scenario: &Scenario, sets: &[(String, String)]) -> Result<Scenario, ScenarioError> {
    let mut doc = serde_json::to_value(scenario).map_err(|e| ScenarioError {
        field: String::new(),
        message: e.to_string(),
    })?;
    let mut out = scenario.clone();
    for (path, raw) in sets {
        check_path(path)?;
        put(&mut doc, path, value_of(raw));
        // read back after each setting, so a value of the wrong form is named by its own path
        out = serde_json::from_value(doc.clone()).map_err(|e| ScenarioError {
            field: escaped(path),
            message: escaped(&in_user_words(path, &one_line(&e), Some(raw.clone()))),
        })?;
    }
    out.validate().map_err(|mut e| {
        // a range error about a set field shows the value as it was typed (`1e-300`, `32Gi`)
        let typed = sets.iter().rev().find(|(k, _)| escaped(k) == e.field);
        if let (Some((_, raw)), Some(at)) = (typed, e.message.rfind(" (got ")) {
            if e.message.ends_with(')') {
                e.message = format!("{} (got {})", &e.message[..at], escaped(raw));
            }
        }
        e
    })?;
    Ok(out)
}

/// Every setting's value in `scenario`, by path, written as `--set` takes it (`4Ki`, `true`,
/// `field_index`, `["generation_changed"]`): what a control shows before the user changes it. A
/// setting the scenario leaves out (its default is "none" or "the profile's") is absent.
pub fn current(scenario: &Scenario) -> BTreeMap<&'static str, String> {
    let Ok(doc) = serde_json::to_value(scenario) else {
        return BTreeMap::new();
    };
    SETTINGS
        .iter()
        .filter_map(|s| Some((s.path, written(&s.kind, at(&doc, s.path)?))))
        .collect()
}

/// A value as `--set` reads it: a number, bool, quoted string or list, else the text itself.
fn value_of(raw: &str) -> Value {
    let raw = raw.trim();
    match serde_json::from_str::<Value>(raw) {
        Ok(v @ (Value::Number(_) | Value::Bool(_) | Value::String(_) | Value::Array(_))) => v,
        _ => Value::String(raw.to_owned()),
    }
}

/// Puts `value` at the dotted `path` of `doc`, making the tables on the way.
fn put(doc: &mut Value, path: &str, value: Value) {
    let mut here = doc;
    for part in path.split('.') {
        if !here.is_object() {
            *here = Value::Object(serde_json::Map::new());
        }
        let Value::Object(map) = here else {
            unreachable!("made an object just above")
        };
        here = map.entry(part.to_owned()).or_insert(Value::Null);
    }
    *here = value;
}

/// The value at a dotted path of a document, if present.
fn at<'a>(doc: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.')
        .try_fold(doc, |v, part| v.get(part))
        .filter(|v| !v.is_null())
}

/// A value as `--set` takes it: strings bare, numbers in the unit's spelling.
fn written(kind: &Kind, v: &Value) -> String {
    match (kind, v) {
        (Kind::Number(n), Value::String(s)) => n.parse(s).map_or_else(|| s.clone(), |v| n.write(v)),
        (_, Value::String(s)) => s.clone(),
        (Kind::Number(n), Value::Number(x)) => {
            x.as_f64().map_or_else(|| x.to_string(), |v| n.write(v))
        }
        (_, other) => other.to_string(),
    }
}

/// A serde message on one line.
fn one_line(e: &serde_json::Error) -> String {
    e.to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    #[test]
    fn a_preset_shows_its_own_values_in_the_files_spelling() {
        let values = current(&presets::load("flywheel", &[]).expect("preset"));
        assert_eq!(values["controller.workers"], "1");
        assert_eq!(values["crd.status_subresource"], "false");
        assert!(values["objects.size_bytes"].ends_with("Ki"));
    }

    #[test]
    fn applying_nothing_gives_the_scenario_back() {
        for name in presets::names() {
            let s = presets::load(name, &[]).expect("preset");
            assert_eq!(apply(&s, &[]).expect(name), s, "{name}");
        }
    }

    /// `(path, value)` sets the page may send: each preset's own values, and values out of
    /// range or of the wrong form.
    fn sets(name: &str) -> Vec<(String, String)> {
        let s = presets::load(name, &[]).expect("preset");
        let mut sets: Vec<_> = current(&s)
            .into_iter()
            .filter(|(path, _)| *path != "seed")
            .map(|(p, v)| (p.to_owned(), v))
            .collect();
        for (p, v) in [
            ("controller.workers", "0"),
            ("controller.workers", "1.5"),
            ("controller.workers", "many"),
            ("objects.count", "150000"),
            ("objects.size_bytes", "64Ki"),
            ("objects.size_bytes", "32Gi"),
            ("client.qps", "-1"),
            ("code.pod_list", "field_index"),
            ("code.pod_list", "sometimes"),
            ("cache.namespaced", "yes"),
            ("controller.workerz", "2"),
        ] {
            sets.push((p.to_owned(), v.to_owned()));
        }
        sets
    }

    #[cfg(feature = "toml")]
    #[test]
    fn every_value_is_accepted_or_refused_as_set_and_the_file_do() {
        for name in presets::names() {
            let base = presets::load(name, &[]).expect("preset");
            for set in sets(name) {
                let one = [set.clone()];
                let by_file = presets::load(name, &one);
                let by_value = apply(&base, &one);
                match (&by_file, &by_value) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b, "{name}: {set:?}"),
                    (Err(a), Err(b)) => assert_eq!(a.field, b.field, "{name}: {set:?}"),
                    _ => panic!("{name}: {set:?}: file {by_file:?}, value {by_value:?}"),
                }
            }
        }
    }

    #[cfg(feature = "toml")]
    #[test]
    fn a_refused_value_gets_the_files_message() {
        let base = presets::load("flywheel", &[]).expect("preset");
        for (p, v) in [
            ("controller.workers", "0"),
            ("controller.workers", "1.5"),
            ("objects.size_bytes", "32Gi"),
            ("code.pod_list", "sometimes"),
        ] {
            let one = [(p.to_owned(), v.to_owned())];
            let file = presets::load("flywheel", &one).expect_err("refused");
            let value = apply(&base, &one).expect_err("refused");
            assert_eq!(value, file, "{p}={v}");
        }
    }
}
