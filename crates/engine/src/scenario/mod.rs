//! Scenarios: data files (TOML) that describe a cluster, an operator and what happens to them.
//!
//! A scenario is parsed strictly: an unknown field or an out-of-range value is an error that names
//! the field (`controller.workers`) and what is allowed. `--set key=value` overrides are applied to
//! the parsed document before it is checked, so they are validated exactly like the file; a key
//! must be a setting of the registry ([`crate::settings`]).

pub mod bounds;
mod config;
#[cfg(all(test, feature = "toml"))]
mod construct;
pub mod messages;
pub mod myths;
pub mod presets;
#[cfg(any(test, not(feature = "toml")))]
#[rustfmt::skip]
#[allow(
    clippy::unreadable_literal,
    clippy::duration_suboptimal_units,
    clippy::too_many_lines,
    reason = "written by a test from the preset files: nanoseconds and bytes as the generator prints them"
)]
mod presets_built;
#[rustfmt::skip]
mod presets_words;
mod serde_units;
pub mod text;
pub mod units;
pub mod variant;
pub mod workload;

use std::fmt;

pub use config::*;
pub use serde_units::{bytes_str, duration_str, opt_bytes_str, opt_duration_str};
pub use workload::{
    CacheConfig, CodeConfig, FinalizerMode, LogMode, NodesConfig, Placement, PodList, PodsConfig,
    QosClass,
};

/// Why a scenario could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// The field path (`controller.workers`), or `""` when the document itself is malformed.
    pub field: String,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

impl From<crate::error::ConfigError> for ScenarioError {
    fn from(e: crate::error::ConfigError) -> Self {
        ScenarioError {
            field: e.field,
            message: e.message,
        }
    }
}

/// Upper bound on a scenario file's size.
pub const MAX_SCENARIO_BYTES: usize = 256 * 1024;

/// Parses and validates a scenario from TOML text, applying `sets` (`key=value`) first.
#[cfg(feature = "toml")]
pub fn parse(text: &str, sets: &[(String, String)]) -> Result<Scenario, ScenarioError> {
    if text.len() > MAX_SCENARIO_BYTES {
        let message = format!(
            "a scenario file may be at most {MAX_SCENARIO_BYTES} bytes (got {})",
            text.len()
        );
        return Err(ScenarioError {
            field: String::new(),
            message,
        });
    }
    let mut doc: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| syntax_error(text, &e))?;
    for (key, value) in sets {
        set_path(&mut doc, key, value)?;
        crate::settings::check_path(key)?;
    }
    let scenario = from_table(&doc, sets)?;
    scenario.validate().map_err(|e| as_typed(e, sets))?;
    Ok(scenario)
}

/// A range error about a `--set` field shows the value as it was typed (`1e-300`, `32Gi`).
#[cfg(feature = "toml")]
fn as_typed(mut e: ScenarioError, sets: &[(String, String)]) -> ScenarioError {
    let typed = sets.iter().rev().find(|(k, _)| *k == e.field);
    if let (Some((_, value)), Some(at)) = (typed, e.message.rfind(" (got ")) {
        if e.message.ends_with(')') {
            e.message = format!("{} (got {value})", &e.message[..at]);
        }
    }
    e
}

/// Reads the document; an error names the field and says what it accepts, showing the value as
/// the user wrote it (a `--set` value verbatim).
#[cfg(feature = "toml")]
fn from_table(doc: &toml::Table, sets: &[(String, String)]) -> Result<Scenario, ScenarioError> {
    let text = toml::to_string(doc).map_err(|e| ScenarioError {
        field: String::new(),
        message: e.to_string(),
    })?;
    let de = toml::Deserializer::parse(&text).map_err(|e| ScenarioError {
        field: String::new(),
        message: one_line(&e.to_string()),
    })?;
    serde_path_to_error::deserialize(de).map_err(|e| {
        let field = e.path().to_string();
        let field = if field == "." { String::new() } else { field };
        let got = sets
            .iter()
            .rev()
            .find(|(k, _)| *k == field)
            .map(|(_, v)| v.clone())
            .or_else(|| messages::value_at(doc, &field));
        let message = clean_message(&e.into_inner().to_string());
        ScenarioError {
            message: messages::escaped(&messages::in_user_words(&field, &message, got)),
            field: messages::escaped(&field),
        }
    })
}

/// A TOML syntax error as `line 3, column 7: <what>`, without an excerpt of the file.
#[cfg(feature = "toml")]
fn syntax_error(text: &str, e: &toml::de::Error) -> ScenarioError {
    let at = e.span().map_or(0, |s| s.start).min(text.len());
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    ScenarioError {
        field: String::new(),
        message: format!(
            "line {line}, column {column}: {}",
            messages::escaped(&one_line(e.message()))
        ),
    }
}

/// The message of a toml error without its source excerpt.
#[cfg(feature = "toml")]
fn clean_message(text: &str) -> String {
    let msg = text
        .lines()
        .rfind(|l| !l.trim_start().starts_with('|') && !l.trim().is_empty());
    one_line(msg.unwrap_or(text))
}

#[cfg(feature = "toml")]
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Sets `key` (a dotted path) to `value` (a TOML value, or else a string) in `doc`.
#[cfg(feature = "toml")]
pub fn set_path(doc: &mut toml::Table, key: &str, value: &str) -> Result<(), ScenarioError> {
    let parts: Vec<&str> = key.split('.').collect();
    if parts
        .iter()
        .any(|p| p.is_empty() || !p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    {
        let message =
            "expected a dotted key of letters, digits and '_' (e.g. controller.workers)".to_owned();
        return Err(ScenarioError {
            field: key.to_owned(),
            message,
        });
    }
    let parsed = parse_value(value);
    let mut table = doc;
    for part in &parts[..parts.len() - 1] {
        let entry = table
            .entry((*part).to_owned())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        table = match entry {
            toml::Value::Table(t) => t,
            _ => {
                let message =
                    format!("'{part}' is a value, not a section, so '{key}' cannot be set");
                return Err(ScenarioError {
                    field: key.to_owned(),
                    message,
                });
            }
        };
    }
    let last = parts[parts.len() - 1].to_owned();
    table.insert(last, parsed);
    Ok(())
}

#[cfg(feature = "toml")]
fn parse_value(value: &str) -> toml::Value {
    format!("v = {value}")
        .parse::<toml::Table>()
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(value.to_owned()))
}

/// Splits `key=value` as written after `--set`.
pub fn split_set(arg: &str) -> Result<(String, String), ScenarioError> {
    match arg.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_owned(), v.trim().to_owned())),
        _ => Err(ScenarioError {
            field: arg.to_owned(),
            message: "expected key=value, e.g. controller.workers=4".to_owned(),
        }),
    }
}

#[cfg(all(test, feature = "toml"))]
mod tests;
