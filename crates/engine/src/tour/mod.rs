//! Guided tours as data: a tour is a TOML file under `crates/engine/tours/`, a sequence of steps
//! that each set up a state, run it to an instant or a condition, point at a part of the page
//! and say something about it in English and 简体中文 — optionally asking first ("predict, then
//! reveal") with an answer the run itself must show.
//!
//! ```text
//!  tours/<id>.toml ──parse (deny_unknown_fields)──▶ Tour ──validate──▶ steps
//!  Step { preset, set, act, seek | until+limit, point, text, question? }
//!        └── run_step ──▶ StepOutcome { reached_at, verdict, markers } ──▶ Question::holds
//! ```

#[cfg(all(test, feature = "toml"))]
mod construct;
mod parts;
mod step;
pub mod text;
#[cfg(any(test, not(feature = "toml")))]
#[rustfmt::skip]
mod tours_built;

pub use parts::{is_part, PARTS};
pub use step::{acts_of, holds, run_step, step_duration, step_scenario, StepOutcome};

use serde::Deserialize;

use crate::scenario::ScenarioError;
use crate::vec_map::VecMap;

/// A text in English and 简体中文 (both empty in a tour built as a value: the page reads the
/// tours' texts from `www/text/tours.<lang>.txt`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    /// English.
    pub en: String,
    /// 简体中文.
    pub zh: String,
}

/// A guided tour.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tour {
    /// Its id (`flywheel`), as the URL's `tour=` names it.
    pub id: String,
    /// Its title.
    pub title: Text,
    /// Its steps, in order.
    pub steps: Vec<Step>,
}

/// An intervention at an instant of a step's run (`Run::intervene`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Act {
    /// When (`"30s"`).
    pub at: String,
    /// What, as `flywheel run --do` spells it (`rollout:fixed`).
    #[serde(rename = "do")]
    pub what: String,
}

/// A condition a step runs until.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Until {
    /// A marker of this kind appears (`first-429`, `oom-killed`, …).
    pub marker: Option<String>,
    /// The verdict reads converged.
    pub converged: Option<bool>,
    /// At least this many self-triggered enqueues.
    pub self_triggered_reconciles: Option<u64>,
}

/// One choice of a question, with what the run must show when it is right.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    /// English.
    pub en: String,
    /// 简体中文.
    pub zh: String,
    /// What the run shows when this choice is right: a verdict name (`looping`, `converged`)
    /// or `marker:<kind>` (`marker:oom-killed`).
    pub shows: String,
}

/// A prediction asked before the step runs.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// The question.
    pub text: Text,
    /// The choices.
    pub choices: Vec<Choice>,
    /// The index of the right choice.
    pub answer: usize,
    /// Why, said after the run.
    pub explain: Text,
}

/// One step of a tour.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The preset it starts from.
    pub preset: String,
    /// Settings changed from the preset: registry path → value.
    #[serde(default)]
    pub set: VecMap<String, String>,
    /// Interventions during the run.
    #[serde(default)]
    pub act: Vec<Act>,
    /// Run to this instant (`"12s"`).
    pub seek: Option<String>,
    /// Or run until this condition, within `limit`.
    pub until: Option<Until>,
    /// The most simulated time `until` may take (`"60s"`).
    pub limit: Option<String>,
    /// The page part it points at ([`PARTS`] or `control.<setting path>`).
    pub point: String,
    /// What it says.
    pub text: Text,
    /// A prediction asked before it runs.
    pub question: Option<Question>,
}

fn err(field: String, message: impl Into<String>) -> ScenarioError {
    ScenarioError {
        field,
        message: message.into(),
    }
}

fn check_text(field: &str, t: &Text) -> Result<(), ScenarioError> {
    if t.en.trim().is_empty() {
        return Err(err(format!("{field}.en"), "is empty (English is required)"));
    }
    if t.zh.trim().is_empty() {
        return Err(err(
            format!("{field}.zh"),
            "is empty (简体中文 is required)",
        ));
    }
    Ok(())
}

fn check_duration(field: String, text: &str) -> Result<std::time::Duration, ScenarioError> {
    crate::scenario::units::parse_duration(text).map_err(|m| err(field, m))
}

impl Tour {
    /// Checks every field: texts in both languages, known presets, settings and page parts, one
    /// of `seek` or `until` (with a `limit`), a known marker kind, a right answer among the
    /// choices. The error names the field (`steps[2].until.marker`).
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.id.is_empty() || !self.id.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
            return Err(err("id".into(), "must be lowercase letters and '-'"));
        }
        check_text("title", &self.title)?;
        if self.steps.is_empty() {
            return Err(err("steps".into(), "needs at least one step"));
        }
        for (i, s) in self.steps.iter().enumerate() {
            s.validate(&format!("steps[{i}]"))?;
        }
        Ok(())
    }
}

impl Step {
    fn validate(&self, at: &str) -> Result<(), ScenarioError> {
        if !crate::scenario::presets::exists(&self.preset) {
            return Err(err(
                format!("{at}.preset"),
                format!("unknown preset '{}'", self.preset),
            ));
        }
        for path in self.set.keys() {
            crate::settings::check_path(path)
                .map_err(|e| err(format!("{at}.set.{}", e.field), e.message))?;
        }
        for (j, a) in self.act.iter().enumerate() {
            check_duration(format!("{at}.act[{j}].at"), &a.at)?;
            crate::cluster::intervention::Intervention::parse(&a.what)
                .map_err(|m| err(format!("{at}.act[{j}].do"), m))?;
        }
        self.validate_run(at)?;
        if !is_part(&self.point) {
            return Err(err(
                format!("{at}.point"),
                format!(
                    "unknown page part '{}' (allowed: {}, control.<setting path>)",
                    self.point,
                    PARTS.join(", ")
                ),
            ));
        }
        check_text(&format!("{at}.text"), &self.text)?;
        if let Some(q) = &self.question {
            q.validate(&format!("{at}.question"))?;
        }
        Ok(())
    }

    fn validate_run(&self, at: &str) -> Result<(), ScenarioError> {
        match (&self.seek, &self.until, &self.limit) {
            (Some(seek), None, None) => check_duration(format!("{at}.seek"), seek).map(|_| ()),
            (None, Some(until), Some(limit)) => {
                check_duration(format!("{at}.limit"), limit)?;
                until.validate(&format!("{at}.until"))
            }
            (None, Some(_), None) => Err(err(format!("{at}.limit"), "is required with `until`")),
            _ => Err(err(
                at.to_owned(),
                "needs either `seek` or `until` with `limit`",
            )),
        }
    }
}

impl Until {
    fn validate(&self, at: &str) -> Result<(), ScenarioError> {
        let set = [
            self.marker.is_some(),
            self.converged.is_some(),
            self.self_triggered_reconciles.is_some(),
        ];
        if set.iter().filter(|s| **s).count() != 1 {
            return Err(err(
                at.to_owned(),
                "needs exactly one of marker, converged, self_triggered_reconciles",
            ));
        }
        if self.converged == Some(false) {
            return Err(err(format!("{at}.converged"), "must be true"));
        }
        if let Some(m) = &self.marker {
            check_marker(&format!("{at}.marker"), m)?;
        }
        Ok(())
    }
}

fn check_marker(field: &str, name: &str) -> Result<(), ScenarioError> {
    use crate::cluster::markers::MarkerKind;
    if MarkerKind::NAMES.contains(&name) {
        Ok(())
    } else {
        let allowed = MarkerKind::NAMES.join(", ");
        Err(err(
            field.to_owned(),
            format!("unknown marker '{name}' (allowed: {allowed})"),
        ))
    }
}

/// The verdict names a choice may show.
const VERDICTS: &[&str] = &[
    "looping",
    "writes-outrun",
    "watching",
    "converged",
    "status-dropped",
    "no-endpoint",
    "busy",
    "down",
    "starting",
    "relisting",
];

impl Question {
    fn validate(&self, at: &str) -> Result<(), ScenarioError> {
        check_text(&format!("{at}.text"), &self.text)?;
        check_text(&format!("{at}.explain"), &self.explain)?;
        if self.choices.len() < 2 {
            return Err(err(format!("{at}.choices"), "needs at least two choices"));
        }
        for (i, c) in self.choices.iter().enumerate() {
            let field = format!("{at}.choices[{i}]");
            check_text(
                &field,
                &Text {
                    en: c.en.clone(),
                    zh: c.zh.clone(),
                },
            )?;
            match c.shows.strip_prefix("marker:") {
                Some(m) => check_marker(&format!("{field}.shows"), m)?,
                None if VERDICTS.contains(&c.shows.as_str()) => {}
                None => {
                    return Err(err(
                        format!("{field}.shows"),
                        format!(
                            "'{}' is neither a verdict ({}) nor marker:<kind>",
                            c.shows,
                            VERDICTS.join(", ")
                        ),
                    ))
                }
            }
        }
        if self.answer >= self.choices.len() {
            return Err(err(
                format!("{at}.answer"),
                format!("must be a choice's index, 0 to {}", self.choices.len() - 1),
            ));
        }
        Ok(())
    }
}

/// Declares the tours once: their ids in order and each one's file text.
macro_rules! tours {
    ($($id:literal),* $(,)?) => {
        /// The id of every tour, in the order they are presented.
        pub const TOUR_IDS: &[&str] = &[$($id),*];

        /// The file text of a tour.
        pub fn text(id: &str) -> Option<&'static str> {
            match id {
                $($id => Some(include_str!(concat!("../../tours/", $id, ".toml"))),)*
                _ => None,
            }
        }
    };
}

tours!("flywheel", "incident", "list-vs-index", "informer-myths");

/// Parses and validates a tour file; errors name the field.
#[cfg(feature = "toml")]
pub fn parse(text: &str) -> Result<Tour, ScenarioError> {
    let de = toml::Deserializer::parse(text).map_err(|e| err(String::new(), e.to_string()))?;
    let tour: Tour = serde_path_to_error::deserialize(de)
        .map_err(|e| err(e.path().to_string(), e.into_inner().to_string()))?;
    tour.validate()?;
    Ok(tour)
}

fn unknown(id: &str) -> ScenarioError {
    err(
        String::new(),
        format!("unknown tour '{id}' (allowed: {})", TOUR_IDS.join(", ")),
    )
}

/// Loads the tour `id`.
#[cfg(feature = "toml")]
pub fn load(id: &str) -> Result<Tour, ScenarioError> {
    parse(text(id).ok_or_else(|| unknown(id))?)
}

/// Loads the tour `id` (without the `toml` feature, built as a value from `tours_built.rs`, its
/// texts left out: the page reads them from `www/text/tours.<lang>.txt`). Not validated again:
/// the tests that write the built tours check that each equals its tour file, which `parse`
/// validates.
#[cfg(not(feature = "toml"))]
pub fn load(id: &str) -> Result<Tour, ScenarioError> {
    tours_built::built(id).ok_or_else(|| unknown(id))
}
