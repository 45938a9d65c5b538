//! The built-in scenarios, one TOML file each under `crates/engine/scenarios/`, embedded in the
//! build so the CLI and the page carry them.

use super::text::PresetWords;
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
    "flywheel-workers",
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

/// A preset's titles and summary (the built form leaves them out), or `None` for a name that is
/// not a preset.
pub fn words(name: &str) -> Option<&'static PresetWords> {
    super::presets_words::PRESET_WORDS
        .iter()
        .find(|w| w.name == name)
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
    load_built(name)
}

/// Loads a preset from the Rust code its TOML file is written as (`presets_built.rs`). Not
/// inline: the engine loads presets too (sizing, rollouts), so an inline copy in the page's crate
/// would be a second copy of the presets' code.
#[cfg(any(test, not(feature = "toml")))]
pub fn load_built(name: &str) -> Result<Scenario, ScenarioError> {
    let scenario = super::presets_built::built(name).ok_or_else(|| unknown(name))?;
    scenario.validate()?;
    Ok(scenario)
}

/// A preset as its built form holds it: without its words (titles, summary, narrations), which
/// `presets_words.rs` and the page's text files hold.
#[cfg(test)]
pub(super) fn without_words(scenario: &Scenario) -> Scenario {
    Scenario {
        title: String::new(),
        summary: String::new(),
        text: super::text::PresetText::default(),
        ..scenario.clone()
    }
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
            let parsed = load(name, &[]).expect("preset");
            assert_eq!(
                built,
                without_words(&parsed),
                "{name}: the built form is the file, its words left out"
            );
            let kept = words(name).expect("every preset's words are kept");
            let want = (kept.title, kept.title_zh, kept.summary);
            let have = (&*parsed.title, &*parsed.text.zh_cn.title, &*parsed.summary);
            assert_eq!(want, have, "{name}: the words kept are the file's");
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
    fn every_preset_speaks_both_languages_and_names_only_known_settings() {
        for name in PRESET_NAMES {
            let s = load(name, &[]).expect("preset");
            assert_eq!(s.text.missing(), Vec::<String>::new(), "{name}");
            let zh = &s.text.zh_cn;
            for text in [&zh.title, &zh.narration] {
                assert!(
                    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                    "{name}: {text}"
                );
            }
            for (code, words) in [("en", &s.text.en), ("zh-CN", zh)] {
                for path in setting_paths(&format!("{} {}", words.narration, words.try_this)) {
                    assert!(
                        crate::settings::find(&path).is_some(),
                        "{name} ({code}) names {path}, which is not a setting"
                    );
                }
            }
        }
    }

    /// The words that look like a setting path (`code.pod_list`, `controller.handler_cost`):
    /// a known section, a dot, a lowercase name.
    fn setting_paths(text: &str) -> Vec<String> {
        let sections = crate::settings::sections();
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .map(|w| w.trim_end_matches('.'))
            .filter(|w| {
                w.split_once('.').is_some_and(|(head, rest)| {
                    sections.contains(&head)
                        && !rest.is_empty()
                        && rest
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c == '_' || c == '.')
                })
            })
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn a_path_in_a_narration_is_found_and_a_go_call_is_not() {
        assert_eq!(
            setting_paths("Set code.pod_list = field_index, then w.Stop() and pods.count."),
            ["code.pod_list", "pods.count"]
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
