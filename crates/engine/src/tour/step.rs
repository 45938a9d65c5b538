//! Running one tour step headless: the state it sets up, run to its instant or condition.

use std::time::Duration;

use crate::cluster::intervention::Intervention;
use crate::cluster::markers::Marker;
use crate::cluster::run::{Run, RunOptions};
use crate::cluster::verdict::Verdict;
use crate::scenario::units::parse_duration;
use crate::scenario::ScenarioError;
use crate::time::SimTime;

use super::{Step, Until};

/// What a step's run showed.
#[derive(Clone, Debug)]
pub struct StepOutcome {
    /// When its `until` condition held (`None`: never within the limit); for a `seek`, the
    /// instant reached.
    pub reached_at: Option<SimTime>,
    /// The verdict at the end of the step.
    pub verdict: Verdict,
    /// The markers up to the end of the step.
    pub markers: Vec<Marker>,
}

impl StepOutcome {
    /// Whether the run shows `shows`: a verdict name, or `marker:<kind>` among its markers.
    pub fn shows(&self, shows: &str) -> bool {
        match shows.strip_prefix("marker:") {
            Some(kind) => self.markers.iter().any(|m| m.kind.as_str() == kind),
            None => self.verdict.as_str() == shows,
        }
    }
}

/// Events handled between two looks at a step's condition.
const LOOK_EVERY_EVENTS: u64 = 2_000;

/// Sets up `step`'s state and runs it to its `seek` instant or until its condition (within
/// its `limit`).
pub fn run_step(step: &Step) -> Result<(Run, StepOutcome), ScenarioError> {
    let scenario = step_scenario(step)?;
    let end = step.seek.as_ref().or(step.limit.as_ref());
    let duration = end
        .map(|d| parse_duration(d))
        .transpose()
        .map_err(|m| ScenarioError {
            field: "seek".into(),
            message: m,
        })?;
    let options = RunOptions {
        duration,
        ..RunOptions::default()
    };
    let mut run = Run::new(scenario, &options)?;
    let mut acts = acts_of(step)?;
    let mut reached_at = None;
    loop {
        let next_act = acts.first().map_or(run.end(), |(at, _)| *at);
        run.advance_to(next_act, LOOK_EVERY_EVENTS);
        if let Some(until) = &step.until {
            if holds(&run, until) {
                reached_at = Some(run.now());
                break;
            }
        }
        if run.now() >= next_act && !acts.is_empty() {
            let (_, what) = acts.remove(0);
            run.intervene(what);
        }
        if run.is_finished() || run.budget_exhausted() {
            break;
        }
    }
    if step.until.is_none() {
        reached_at = Some(run.now());
    }
    let outcome = StepOutcome {
        reached_at,
        verdict: run.verdict().verdict,
        markers: run.markers().to_vec(),
    };
    Ok((run, outcome))
}

/// The scenario a step starts from: its preset with its `set` applied
/// (`settings::apply`, with or without the `toml` feature).
pub fn step_scenario(step: &Step) -> Result<crate::scenario::Scenario, ScenarioError> {
    let sets: Vec<(String, String)> = step.set.clone().into_iter().collect();
    let preset = crate::scenario::presets::load(&step.preset, &[])?;
    crate::settings::apply(&preset, &sets)
}

/// The interventions of a step, in time order.
pub fn acts_of(step: &Step) -> Result<Vec<(SimTime, Intervention)>, ScenarioError> {
    let mut acts = step
        .act
        .iter()
        .map(|a| {
            let at = parse_duration(&a.at).map_err(|m| field_err("act.at", m))?;
            let what = Intervention::parse(&a.what).map_err(|m| field_err("act.do", m))?;
            Ok((SimTime::ZERO + at, what))
        })
        .collect::<Result<Vec<_>, ScenarioError>>()?;
    crate::small_sort::sort_few_by_key(&mut acts, |(at, _)| *at);
    Ok(acts)
}

fn field_err(field: &str, message: String) -> ScenarioError {
    ScenarioError {
        field: field.to_owned(),
        message,
    }
}

/// Whether `until` holds now.
pub fn holds(run: &Run, until: &Until) -> bool {
    if let Some(kind) = &until.marker {
        return run.markers().iter().any(|m| m.kind.as_str() == kind);
    }
    if until.converged == Some(true) {
        return run.verdict().verdict == Verdict::Converged;
    }
    until
        .self_triggered_reconciles
        .is_some_and(|n| run.snapshot().counts.self_triggered_enqueues >= n)
}

/// A step's `seek` or `limit`, for a caller that sizes a run.
pub fn step_duration(step: &Step) -> Option<Duration> {
    step.seek
        .as_ref()
        .or(step.limit.as_ref())
        .and_then(|d| parse_duration(d).ok())
}
