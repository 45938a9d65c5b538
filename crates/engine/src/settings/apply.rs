//! Settings applied to a scenario without the TOML parser: each value is read as `--set` reads it
//! and put into its field by the setting's typed setter ([`super::field`]), then the scenario is
//! checked by [`Scenario::validate`] — the validation `--set` and a scenario file go through, with
//! the same messages. The page uses this, so its module carries neither a TOML parser nor a
//! (de)serializer of whole scenarios.

use std::fmt::Display;

use super::field::field;
use super::raw::Raw;
use super::{check_path, Kind, SETTINGS};
use crate::scenario::messages::{escaped, in_user_words};
use crate::scenario::{Scenario, ScenarioError};
use crate::vec_map::VecMap;

/// `scenario` with each `(path, value)` of `sets` applied in order, each value written as `--set`
/// takes it (`4`, `64Ki`, `true`, `field_index`, `["generation_changed"]`); an unknown path, a
/// value of the wrong form or one out of range is refused with the field and what it accepts.
pub fn apply(scenario: &Scenario, sets: &[(String, String)]) -> Result<Scenario, ScenarioError> {
    let mut out = scenario.clone();
    for (path, raw) in sets {
        let setting = check_path(path)?;
        let Some(field) = field(setting.path) else {
            return Err(ScenarioError {
                field: escaped(path),
                message: "is not a setting".to_owned(),
            });
        };
        // each value is read when it is set, so a value of the wrong form is named by its own path
        (field.set)(&mut out, Raw::read(raw)).map_err(|e| ScenarioError {
            field: escaped(path),
            message: escaped(&in_user_words(path, &one_line(&e), Some(raw.clone()))),
        })?;
    }
    validated(out, sets)
}

/// `scenario` once [`Scenario::validate`] accepts it; a range error about a set field shows the
/// value as it was typed (`1e-300`, `32Gi`).
fn validated(scenario: Scenario, sets: &[(String, String)]) -> Result<Scenario, ScenarioError> {
    scenario.validate().map_err(|mut e| {
        let typed = sets.iter().rev().find(|(k, _)| escaped(k) == e.field);
        if let (Some((_, raw)), Some(at)) = (typed, e.message.rfind(" (got ")) {
            if e.message.ends_with(')') {
                e.message = format!("{} (got {})", &e.message[..at], escaped(raw));
            }
        }
        e
    })?;
    Ok(scenario)
}

/// Every setting's value in `scenario`, by path, written as `--set` takes it (`4Ki`, `true`,
/// `field_index`, `["generation_changed"]`): what a control shows before the user changes it. A
/// setting the scenario leaves out (its default is "none" or "the profile's") is absent.
pub fn current(scenario: &Scenario) -> VecMap<&'static str, String> {
    // inserted one by one: collecting would compile a sort of its own for the pairs
    let mut values = VecMap::new();
    for s in SETTINGS {
        let Some(value) = field(s.path).map(|f| (f.get)(scenario)) else {
            continue;
        };
        if value != Raw::Null {
            values.insert(s.path, written(&s.kind, &value));
        }
    }
    values
}

/// A value as `--set` takes it: strings bare, numbers in the unit's spelling, anything else as
/// JSON (`true`, `["generation_changed"]`).
fn written(kind: &Kind, v: &Raw) -> String {
    match (kind, v) {
        (Kind::Number(n), Raw::Str(s)) => n.parse(s).map_or_else(|| s.clone(), |v| n.write(v)),
        (_, Raw::Str(s)) => s.clone(),
        (Kind::Number(n), x) => x.as_f64().map_or_else(|| x.json_text(), |v| n.write(v)),
        (_, other) => other.json_text(),
    }
}

/// A serde message on one line.
fn one_line(e: &impl Display) -> String {
    e.to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    use serde_json::Value;

    /// A value as `--set` read it when settings went through `serde_json`'s value type.
    fn value_of(raw: &str) -> Value {
        let raw = raw.trim();
        match serde_json::from_str::<Value>(raw) {
            Ok(v @ (Value::Number(_) | Value::Bool(_) | Value::String(_) | Value::Array(_))) => v,
            _ => Value::String(raw.to_owned()),
        }
    }

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

    /// The scenario with `sets` applied by writing it out as a serde value, putting each value at
    /// its path and reading the whole scenario back: how settings were applied before each had
    /// its own setter.
    fn by_round_trip(
        scenario: &Scenario,
        sets: &[(String, String)],
    ) -> Result<Scenario, ScenarioError> {
        let mut doc = serde_json::to_value(scenario).expect("a scenario writes out");
        let mut out = scenario.clone();
        for (path, raw) in sets {
            check_path(path)?;
            let mut here = &mut doc;
            for part in path.split('.') {
                here = here
                    .as_object_mut()
                    .expect("a table")
                    .entry(part.to_owned())
                    .or_insert(Value::Null);
            }
            *here = value_of(raw);
            out = serde_json::from_value(doc.clone()).map_err(|e| ScenarioError {
                field: escaped(path),
                message: escaped(&in_user_words(path, &one_line(&e), Some(raw.clone()))),
            })?;
        }
        validated(out, sets)
    }

    /// Values of every form for every setting: its own, each preset's, and of the wrong form.
    fn every_form(path: &str) -> Vec<String> {
        let mut values: Vec<String> = [
            "0",
            "1",
            "-1",
            "-0",
            "1.5",
            "1e3",
            "1e400",
            "4294967296",
            "18446744073709551616",
            "true",
            "yes",
            "\"quoted\"",
            "\"4Ki\"",
            "4Ki",
            "32Gi",
            "-4Ki",
            "200ms",
            "\"0\"",
            "5 m",
            "1h30m",
            "nope",
            "[]",
            "[\"generation_changed\"]",
            "[\"x\"]",
            "[1]",
            "a\nb",
            "NaN",
            "null",
            "{}",
            " 7 ",
            "",
        ]
        .iter()
        .chain(super::super::raw::FORMS)
        .map(|v| (*v).to_owned())
        .collect();
        let setting = super::super::find(path).expect("a setting");
        if let Kind::Choice(choices) | Kind::ChoiceList(choices) = setting.kind {
            values.extend(choices.iter().map(|c| c.name.to_owned()));
            values.extend(choices.iter().map(|c| format!("[\"{}\"]", c.name)));
        }
        values
    }

    #[test]
    fn a_setter_accepts_and_refuses_exactly_what_the_whole_scenario_round_trip_did() {
        for name in presets::names() {
            let base = presets::load(name, &[]).expect("preset");
            for setting in SETTINGS {
                for raw in every_form(setting.path) {
                    let one = [(setting.path.to_owned(), raw.clone())];
                    assert_eq!(
                        apply(&base, &one),
                        by_round_trip(&base, &one),
                        "{name}: {}={raw}",
                        setting.path
                    );
                }
            }
        }
    }

    #[test]
    fn several_settings_are_applied_in_order_as_the_round_trip_did() {
        let base = presets::load("flywheel", &[]).expect("preset");
        for sets in [
            vec![("controller.workers", "4"), ("controller.workers", "1.5")],
            vec![("controller.workers", "0"), ("objects.count", "many")],
            vec![("objects.count", "200"), ("objects.size_bytes", "64Ki")],
        ] {
            let sets: Vec<_> = sets
                .into_iter()
                .map(|(p, v)| (p.to_owned(), v.to_owned()))
                .collect();
            assert_eq!(apply(&base, &sets), by_round_trip(&base, &sets), "{sets:?}");
        }
    }

    #[test]
    fn every_setting_shows_the_value_the_scenario_writes_out() {
        for name in presets::names() {
            let s = presets::load(name, &[]).expect("preset");
            let doc = serde_json::to_value(&s).expect("a scenario writes out");
            let by_doc: VecMap<_, _> = SETTINGS
                .iter()
                .filter_map(|st| {
                    let v = st
                        .path
                        .split('.')
                        .try_fold(&doc, |v, part| v.get(part))
                        .filter(|v| !v.is_null())?;
                    Some((st.path, written(&st.kind, &Raw::from(v))))
                })
                .collect();
            assert_eq!(current(&s), by_doc, "{name}");
        }
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
