//! The built-in scenarios, one TOML file each under `crates/engine/scenarios/`, embedded in the
//! build so the CLI and the page carry them.

use super::{Scenario, ScenarioError};

/// Declares the presets once: their names in the order they are presented, and a lookup of each
/// one's file text. The texts are reached only through [`text`], so a build that never asks for
/// them (the page, which builds them as values) does not carry them.
macro_rules! presets {
    ($($name:literal),* $(,)?) => {
        /// The name of every preset, in the order they are presented.
        pub const PRESET_NAMES: &[&str] = &[$($name),*];

        /// The file text of a preset.
        pub fn text(name: &str) -> Option<&'static str> {
            match name {
                $($name => Some(include_str!(concat!("../../scenarios/", $name, ".toml"))),)*
                _ => None,
            }
        }
    };
}

presets!(
    "flywheel",
    "subresource-only",
    "predicate-only",
    "observed-generation-only",
    "subresource+predicate",
    "subresource+observed-generation",
    "fixed",
    "idempotent-status",
    "seed-000-incident",
    "list-full-scan",
    "list-full-scan-small",
    "finalizer-deadlock",
    "finalizer-unsafe",
    "watch-leak",
    "listener-backlog",
    "log-whole-object",
    "no-context-timeout",
    "eviction-loop",
);

/// The names of every preset.
pub fn names() -> impl Iterator<Item = &'static str> {
    PRESET_NAMES.iter().copied()
}

/// Whether `name` is a preset.
pub fn exists(name: &str) -> bool {
    PRESET_NAMES.contains(&name)
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

/// Loads a preset by name (without the `toml` feature, built as a value, with no parser; `sets`
/// then need the feature and are refused). Inline, like [`load_built`].
#[cfg(not(feature = "toml"))]
#[inline]
pub fn load(name: &str, sets: &[(String, String)]) -> Result<Scenario, ScenarioError> {
    if let Some((key, _)) = sets.first() {
        let message = "overrides need the engine's `toml` feature".to_owned();
        return Err(ScenarioError {
            field: key.clone(),
            message,
        });
    }
    load_built(name)
}

/// Loads a preset from the Rust code its TOML file is written as (`presets_built.rs`). Inline,
/// so the code is compiled in the crate that loads presets, at that crate's optimization level
/// (the page builds the engine for speed and itself for size).
#[cfg(any(test, not(feature = "toml")))]
#[inline]
pub fn load_built(name: &str) -> Result<Scenario, ScenarioError> {
    let scenario = super::presets_built::built(name).ok_or_else(|| unknown(name))?;
    scenario.validate()?;
    Ok(scenario)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_validates_and_is_named_like_its_file() {
        for name in PRESET_NAMES {
            let s = load(name, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(&s.name, name);
            assert!(
                !s.title.is_empty() && !s.summary.is_empty(),
                "{name} explains itself"
            );
        }
    }

    #[test]
    fn the_built_form_of_every_preset_equals_its_toml_form() {
        for name in names() {
            let built = load_built(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(built, load(name, &[]).expect("preset"), "{name}");
        }
        assert!(load_built("flywheeel").is_err(), "only presets are built");
    }

    #[test]
    fn every_scenario_file_is_a_registered_preset() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .expect("the scenarios directory")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter_map(|f| f.strip_suffix(".toml").map(str::to_owned))
            .collect();
        files.sort();
        let mut registered: Vec<&str> = PRESET_NAMES.to_vec();
        registered.sort_unstable();
        assert_eq!(files, registered);
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
