//! Running a tour step in the animation loop: the runs (built fresh for the step) move toward
//! the step's instant, or until its condition holds, within the frame's budget; its
//! interventions are made on the way. The condition is the engine's ([`tour::holds`]).

use flywheel_engine::tour::{self, StepOutcome, Until};
use flywheel_engine::SimTime;

use crate::runs::Runs;
use crate::tour::TourAt;

/// Simulated seconds between two looks at a step's condition.
const LOOK_EVERY_S: f64 = 0.25;

/// A step under way.
#[derive(Clone, Debug)]
pub struct TourJob {
    until: Option<Until>,
    end: SimTime,
    acts: Vec<(
        SimTime,
        flywheel_engine::cluster::intervention::Intervention,
    )>,
    shows: Vec<String>,
}

/// What a step's run reached.
#[derive(Clone, Debug, PartialEq)]
pub struct Reached {
    /// When its condition held, or the instant reached (simulated seconds); `None` when the
    /// condition never held within the step's limit.
    pub at_s: Option<f64>,
    /// The first choice the run shows, if the step asked.
    pub shown: Option<usize>,
}

impl TourJob {
    /// The job of `at`'s step, when it is to run.
    pub fn of(at: &TourAt) -> Option<TourJob> {
        if !at.running() {
            return None;
        }
        TourJob::of_step(at.step())
    }

    /// The job of step `index` (counted from 0) of the tour `id`, when there is one.
    pub fn of_tour(id: &str, index: usize) -> Option<TourJob> {
        let tour = tour::load(id).ok()?;
        TourJob::of_step(tour.steps.get(index)?)
    }

    fn of_step(step: &tour::Step) -> Option<TourJob> {
        let end = SimTime::ZERO + tour::step_duration(step)?;
        let shows = step
            .question
            .iter()
            .flat_map(|q| q.choices.iter().map(|c| c.shows.clone()))
            .collect();
        Some(TourJob {
            until: step.until.clone(),
            end,
            acts: tour::acts_of(step).ok()?,
            shows,
        })
    }

    /// Runs on until the step's condition holds or its end, or `out_of_time()`; `Some` when done.
    pub fn drive(
        &mut self,
        runs: &mut Runs,
        out_of_time: &mut dyn FnMut() -> bool,
    ) -> Option<Reached> {
        loop {
            if let Some(until) = &self.until {
                if tour::holds(&runs.a.run, until) {
                    return Some(self.reached(runs, true));
                }
            }
            if runs.now() >= self.end || runs.is_finished() {
                return Some(self.reached(runs, self.until.is_none()));
            }
            self.act_due(runs);
            let next_act = self.acts.first().map_or(self.end, |(at, _)| *at);
            let look = SimTime::from_secs_f64(runs.now().as_secs_f64() + LOOK_EVERY_S);
            runs.advance(look.min(next_act).min(self.end), out_of_time);
            if out_of_time() {
                return None;
            }
        }
    }

    fn act_due(&mut self, runs: &mut Runs) {
        while let Some((at, what)) = self.acts.first().cloned() {
            if runs.now() < at {
                return;
            }
            self.acts.remove(0);
            for lane in runs.lanes_mut() {
                lane.run.intervene(what.clone());
            }
        }
    }

    fn reached(&self, runs: &mut Runs, held: bool) -> Reached {
        for lane in runs.lanes_mut() {
            lane.reread();
        }
        let run = &runs.a.run;
        let outcome = StepOutcome {
            reached_at: None,
            verdict: run.verdict().verdict,
            markers: run.markers().to_vec(),
        };
        Reached {
            at_s: held.then(|| runs.now().as_secs_f64()),
            shown: self.shows.iter().position(|s| outcome.shows(s)),
        }
    }
}
