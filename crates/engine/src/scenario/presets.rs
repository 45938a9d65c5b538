//! The built-in scenarios, one TOML file each under `crates/engine/scenarios/`, embedded in the
//! build so the CLI and the page carry them.

use super::{Scenario, ScenarioError};

include!(concat!(env!("OUT_DIR"), "/preset_json.rs"));

/// `(name, file text)` of every preset, in the order they are presented.
pub const PRESETS: &[(&str, &str)] = &[
    ("flywheel", include_str!("../../scenarios/flywheel.toml")),
    (
        "subresource-only",
        include_str!("../../scenarios/subresource-only.toml"),
    ),
    (
        "predicate-only",
        include_str!("../../scenarios/predicate-only.toml"),
    ),
    (
        "observed-generation-only",
        include_str!("../../scenarios/observed-generation-only.toml"),
    ),
    (
        "subresource+predicate",
        include_str!("../../scenarios/subresource+predicate.toml"),
    ),
    (
        "subresource+observed-generation",
        include_str!("../../scenarios/subresource+observed-generation.toml"),
    ),
    ("fixed", include_str!("../../scenarios/fixed.toml")),
    (
        "idempotent-status",
        include_str!("../../scenarios/idempotent-status.toml"),
    ),
    (
        "seed-000-incident",
        include_str!("../../scenarios/seed-000-incident.toml"),
    ),
    (
        "list-full-scan",
        include_str!("../../scenarios/list-full-scan.toml"),
    ),
    (
        "list-full-scan-small",
        include_str!("../../scenarios/list-full-scan-small.toml"),
    ),
    (
        "finalizer-deadlock",
        include_str!("../../scenarios/finalizer-deadlock.toml"),
    ),
    (
        "finalizer-unsafe",
        include_str!("../../scenarios/finalizer-unsafe.toml"),
    ),
    (
        "watch-leak",
        include_str!("../../scenarios/watch-leak.toml"),
    ),
    (
        "listener-backlog",
        include_str!("../../scenarios/listener-backlog.toml"),
    ),
    (
        "log-whole-object",
        include_str!("../../scenarios/log-whole-object.toml"),
    ),
    (
        "no-context-timeout",
        include_str!("../../scenarios/no-context-timeout.toml"),
    ),
    (
        "eviction-loop",
        include_str!("../../scenarios/eviction-loop.toml"),
    ),
];

/// The names of every preset.
pub fn names() -> impl Iterator<Item = &'static str> {
    PRESETS.iter().map(|(n, _)| *n)
}

/// The file text of a preset.
pub fn text(name: &str) -> Option<&'static str> {
    PRESETS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

fn unknown(name: &str) -> ScenarioError {
    let allowed = names().collect::<Vec<_>>().join(", ");
    ScenarioError {
        field: String::new(),
        message: format!("unknown preset '{name}' (allowed: {allowed})"),
    }
}

/// Loads a preset by name, applying `sets`.
#[cfg(feature = "toml")]
pub fn load(name: &str, sets: &[(String, String)]) -> Result<Scenario, ScenarioError> {
    super::parse(text(name).ok_or_else(|| unknown(name))?, sets)
}

/// Loads a preset by name (without the `toml` feature, from its build-time JSON form; `sets`
/// then need the feature and are refused).
#[cfg(not(feature = "toml"))]
pub fn load(name: &str, sets: &[(String, String)]) -> Result<Scenario, ScenarioError> {
    if let Some((key, _)) = sets.first() {
        let message = "overrides need the engine's `toml` feature".to_owned();
        return Err(ScenarioError {
            field: key.clone(),
            message,
        });
    }
    load_prebuilt(name)
}

/// Loads a preset from the JSON form its TOML file was converted to at build time.
pub fn load_prebuilt(name: &str) -> Result<Scenario, ScenarioError> {
    text(name).ok_or_else(|| unknown(name))?;
    let json = PRESET_JSON
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, j)| *j)
        .ok_or_else(|| unknown(name))?;
    let scenario: Scenario = serde_json::from_str(json).map_err(|e| ScenarioError {
        field: String::new(),
        message: e.to_string(),
    })?;
    scenario.validate()?;
    Ok(scenario)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_validates_and_is_named_like_its_file() {
        for (name, _) in PRESETS {
            let s = load(name, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(&s.name, name);
            assert!(
                !s.title.is_empty() && !s.summary.is_empty(),
                "{name} explains itself"
            );
        }
    }

    #[test]
    fn the_build_time_json_form_of_every_preset_equals_its_toml_form() {
        for name in names() {
            let prebuilt = load_prebuilt(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(prebuilt, load(name, &[]).expect("preset"), "{name}");
        }
        assert_eq!(
            PRESET_JSON.len(),
            PRESETS.len(),
            "every scenario file is a registered preset"
        );
    }

    #[test]
    fn an_unknown_preset_lists_the_known_ones() {
        let err = load("flywheeel", &[]).expect_err("unknown preset");
        assert!(
            err.message.contains("allowed: flywheel, subresource-only"),
            "{err}"
        );
    }
}
