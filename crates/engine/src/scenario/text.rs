//! A preset's words in each language the page speaks, kept in its TOML file next to its
//! parameters (`[text.en]`, `[text.zh-CN]`): the Chinese title (the English one is the file's
//! `title`), the narration, and what to try.
//!
//! The built form of a preset (`presets_built.rs`, what the page carries) keeps no words: its
//! titles and summary are in [`PresetWords`] (`presets_words.rs`), which the page reads only
//! natively, where it writes them into its labels files; in the browser it fetches them with its
//! labels, and the narrations from `www/text/narrations.<lang>.txt`, which a test writes from
//! these files. So no preset's text sits in the WebAssembly.

use serde::{Deserialize, Serialize};

/// A preset's words in one language.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Words {
    /// The title (Chinese only; the English title is the preset's `title`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// What happens and why, in the page's narration panel.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub narration: String,
    /// What to change to see the point (names settings by their paths).
    #[serde(rename = "try", skip_serializing_if = "String::is_empty")]
    pub try_this: String,
}

/// A preset's words in English and Chinese.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PresetText {
    /// English.
    pub en: Words,
    /// Chinese (`zh-CN`).
    #[serde(rename = "zh-CN")]
    pub zh_cn: Words,
}

/// A preset's words shown beside its name: its titles and the sentence that sums it up, as its
/// TOML file has them (the file's `title` and `summary`, and `[text.zh-CN] title`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PresetWords {
    /// The preset's name.
    pub name: &'static str,
    /// The English title.
    pub title: &'static str,
    /// The Chinese title.
    pub title_zh: &'static str,
    /// What it demonstrates, in English.
    pub summary: &'static str,
}

/// The languages of [`PresetText`], by the codes the page and the files use.
pub const LANGUAGES: [&str; 2] = ["en", "zh-CN"];

impl PresetText {
    /// Whether nothing is written (a scenario that is not a preset).
    pub fn is_empty(&self) -> bool {
        *self == PresetText::default()
    }

    /// The words of the language `code` (`en`, `zh-CN`).
    pub fn get(&self, code: &str) -> Option<&Words> {
        match code {
            "en" => Some(&self.en),
            "zh-CN" => Some(&self.zh_cn),
            _ => None,
        }
    }

    /// What a preset lacks: a narration in either language, the Chinese title, an English
    /// title of its own (it is the file's `title`), or a "what to try" in one language only.
    pub fn missing(&self) -> Vec<String> {
        let mut missing = Vec::new();
        for code in LANGUAGES {
            let words = self.get(code).unwrap_or(&self.en);
            if words.narration.trim().is_empty() {
                missing.push(format!("text.{code}.narration"));
            }
        }
        if self.zh_cn.title.trim().is_empty() {
            missing.push("text.zh-CN.title".to_owned());
        }
        if !self.en.title.is_empty() {
            missing.push(
                "text.en.title must be left out (the title is the file's `title`)".to_owned(),
            );
        }
        if self.en.try_this.is_empty() != self.zh_cn.try_this.is_empty() {
            missing.push("text.<lang>.try in both languages or neither".to_owned());
        }
        missing
    }
}

/// The page's narrations file of the language `code`: a line per preset, its name, a tab, its
/// narration (and what to try, after a space), in the presets' order.
#[cfg(feature = "toml")]
pub fn narrations_file(code: &str) -> Result<String, super::ScenarioError> {
    use std::fmt::Write as _;

    let mut out = String::new();
    for name in super::presets::names() {
        let scenario = super::presets::load(name, &[])?;
        let words = scenario.text.get(code).unwrap_or(&scenario.text.en);
        let text = [words.narration.trim(), words.try_this.trim()]
            .iter()
            .filter(|t| !t.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        let _ = writeln!(out, "{name}\t{text}");
    }
    Ok(out)
}

#[cfg(all(test, feature = "toml"))]
mod tests {
    use super::*;

    /// `www/text/narrations.<lang>.txt` are written from the preset files: a stale one is
    /// rewritten with `BLESS=1 cargo test -p flywheel-engine --lib narration_files`.
    #[test]
    fn the_narration_files_are_written_from_the_presets() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        for code in LANGUAGES {
            let path = format!("{root}/www/text/narrations.{code}.txt");
            let want = narrations_file(code).expect("the presets load");
            let bless = "cargo test -p flywheel-engine --lib narration_files";
            crate::testing::bless_or_check(path.as_ref(), &want, bless);
        }
    }

    #[test]
    fn a_preset_without_chinese_is_told_what_it_lacks() {
        let mut text = PresetText::default();
        text.en.narration = "What happens.".to_owned();
        text.en.try_this = "Set code.log to counts.".to_owned();
        assert_eq!(
            text.missing(),
            [
                "text.zh-CN.narration",
                "text.zh-CN.title",
                "text.<lang>.try in both languages or neither"
            ]
        );
    }
}
