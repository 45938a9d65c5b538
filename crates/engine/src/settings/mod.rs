//! The settings registry: every setting a user can change, declared once — its path in a scenario
//! file (`controller.workers`), what it holds, its default, and its label and one-line help in
//! English and Chinese. `--set`, the settings file and the page's controls all read it.
//!
//! ```text
//!                    ┌─────────────── SETTINGS (table.rs) ───────────────┐
//!                    │ path · kind (bool | choice | number+unit+range)   │
//!                    │ default · label en/zh · help en/zh                │
//!                    └──────┬──────────────────┬──────────────────┬──────┘
//!                           ▼                  ▼                  ▼
//!         --set key=value (CLI)     settings file (page)     controls (page)
//!                   │                          └────────┬─────────┘
//!                   ▼                                   ▼
//!        scenario::parse (TOML)           a typed setter per path (field.rs)
//!                   └─────────────────┬─────────────────┘
//!                                     ▼
//!                Scenario::validate (field, what it accepts)
//! ```
//!
//! A path that is not in the table is refused with the nearest one it resembles
//! ([`nearest`]); a value is then checked by the scenario's validation, which names the path
//! and what it accepts.

mod apply;
mod field;
mod kind;
mod nearest;
mod raw;
mod raw_de;
mod raw_error;
mod raw_json;
mod raw_ser;
mod table;

pub use apply::{apply, current};
pub use kind::{Choice, Kind, Number, Scale, Unit};
pub use nearest::nearest;
pub use table::{SETTINGS, WORDS};

use crate::scenario::ScenarioError;

/// A text in each language the page speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Words {
    /// English.
    pub en: &'static str,
    /// Chinese (`zh-CN`).
    pub zh: &'static str,
}

/// One setting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setting {
    /// Its dotted path in a scenario file, e.g. `controller.workers`.
    pub path: &'static str,
    /// What it holds.
    pub kind: Kind,
    /// Its value when a scenario leaves it out, as the file writes it (`1`, `false`, `4Ki`);
    /// `""` when leaving it out means "none" or "the profile's" (see the help).
    pub default: &'static str,
}

/// What a setting is called and what it does, in each language the page speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SettingWords {
    /// Its short label.
    pub label: Words,
    /// One line on what it does.
    pub help: Words,
}

impl Setting {
    /// Its place in [`SETTINGS`] (`None` for a setting that is not in it); [`WORDS`] and the
    /// page's labels file list the settings' words in that order.
    pub fn index(&self) -> Option<usize> {
        SETTINGS.iter().position(|s| s.path == self.path)
    }

    /// Its label and help (`None` for a setting that is not in [`SETTINGS`]).
    pub fn words(&self) -> Option<&'static SettingWords> {
        WORDS.get(self.index()?)
    }
}

/// The sections of a scenario file that hold settings (`objects`, `controller`, `code` …): the
/// first segment of each dotted path, each once, in the registry's order.
pub fn sections() -> Vec<&'static str> {
    let mut found = Vec::new();
    for head in SETTINGS
        .iter()
        .filter_map(|s| s.path.split_once('.'))
        .map(|(h, _)| h)
    {
        if !found.contains(&head) {
            found.push(head);
        }
    }
    found
}

/// The setting at `path`.
pub fn find(path: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.path == path)
}

/// Checks that `path` names a setting; the error suggests the nearest one.
pub fn check_path(path: &str) -> Result<&'static Setting, ScenarioError> {
    find(path).ok_or_else(|| {
        let message = match nearest(path) {
            Some(s) => format!("is not a setting (did you mean {}?)", s.path),
            None => "is not a setting (settings are paths such as controller.workers)".to_owned(),
        };
        ScenarioError {
            field: crate::scenario::messages::escaped(path),
            message,
        }
    })
}

#[cfg(all(test, feature = "toml"))]
mod tests;
