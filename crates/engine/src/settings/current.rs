//! What each setting holds in a scenario, written as `--set` takes it (`4Ki`, `true`,
//! `field_index`, `["generation_changed"]`): what a control shows before the user changes it.

use std::collections::BTreeMap;

use super::{Kind, SETTINGS};
use crate::scenario::Scenario;

/// Every setting's value in `scenario`, by path; a setting the scenario leaves out (its default
/// is "none" or "the profile's") is absent.
pub fn current(scenario: &Scenario) -> BTreeMap<&'static str, String> {
    let Ok(doc) = toml::Table::try_from(scenario) else {
        return BTreeMap::new();
    };
    SETTINGS
        .iter()
        .filter_map(|s| Some((s.path, written(&s.kind, at(&doc, s.path)?))))
        .collect()
}

/// The value at a dotted path of a document, if present.
fn at<'a>(doc: &'a toml::Table, path: &str) -> Option<&'a toml::Value> {
    let (head, rest) = path
        .split_once('.')
        .map_or((path, None), |(h, r)| (h, Some(r)));
    match (doc.get(head)?, rest) {
        (toml::Value::Table(t), Some(rest)) => at(t, rest),
        (v, None) => Some(v),
        _ => None,
    }
}

/// A value as `--set` takes it: strings bare, numbers in the unit's spelling.
fn written(kind: &Kind, v: &toml::Value) -> String {
    match (kind, v) {
        (Kind::Number(n), toml::Value::String(s)) => {
            n.parse(s).map_or_else(|| s.clone(), |v| n.write(v))
        }
        (_, toml::Value::String(s)) => s.clone(),
        (Kind::Number(n), toml::Value::Integer(i)) => n.write(*i as f64),
        (Kind::Number(n), toml::Value::Float(f)) => n.write(*f),
        (_, other) => other.to_string(),
    }
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
    fn every_value_shown_is_accepted_back_by_set() {
        for name in presets::names() {
            for (path, value) in current(&presets::load(name, &[]).expect("preset")) {
                if path == "seed" {
                    continue;
                }
                let sets = [(path.to_owned(), value.clone())];
                presets::load(name, &sets)
                    .unwrap_or_else(|e| panic!("{name}: {path}={value}: {e}"));
            }
        }
    }
}
