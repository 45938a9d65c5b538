//! The built-in scenarios, one TOML file each under `crates/engine/scenarios/`, embedded in the
//! build so the CLI and the page carry them.

use super::{parse, Scenario, ScenarioError};

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

/// Loads a preset by name, applying `sets`.
pub fn load(name: &str, sets: &[(String, String)]) -> Result<Scenario, ScenarioError> {
    let text = text(name).ok_or_else(|| ScenarioError {
        field: String::new(),
        message: format!(
            "unknown preset '{name}' (allowed: {})",
            names().collect::<Vec<_>>().join(", ")
        ),
    })?;
    parse(text, sets)
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
    fn an_unknown_preset_lists_the_known_ones() {
        let err = load("flywheeel", &[]).expect_err("unknown preset");
        assert!(
            err.message.contains("allowed: flywheel, subresource-only"),
            "{err}"
        );
    }
}
