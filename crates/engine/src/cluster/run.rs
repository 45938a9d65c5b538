//! Running a scenario: the facade the CLI and the page drive.

use std::time::Duration;

use crate::scenario::{Profile, Scenario, ScenarioError};
use crate::sim::Simulation;
use crate::time::SimTime;

use super::report::RunReport;
use super::snapshot::Snapshot;
use super::Cluster;

/// Overrides of a scenario's defaults for one run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunOptions {
    /// Run for this long instead of the scenario's duration.
    pub duration: Option<Duration>,
    /// Use this seed instead of the scenario's.
    pub seed: Option<u64>,
    /// Use this version profile instead of the scenario's.
    pub profile: Option<Profile>,
}

/// A scenario being run.
pub struct Run {
    sim: Simulation<Cluster>,
    end: SimTime,
    seed: u64,
}

impl Run {
    /// Prepares a run of `scenario` with `options`.
    pub fn new(mut scenario: Scenario, options: &RunOptions) -> Result<Run, ScenarioError> {
        if let Some(p) = options.profile {
            scenario.profile = p;
        }
        if let Some(d) = options.duration {
            scenario.duration = d;
        }
        scenario.validate()?;
        let seed = options.seed.unwrap_or(scenario.seed);
        let end = SimTime::ZERO + scenario.duration;
        let cluster = Cluster::new(scenario)?;
        let initial = cluster.initial_events();
        let mut sim = Simulation::new(cluster, seed);
        for (at, ev) in initial {
            sim.schedule(at, ev);
        }
        Ok(Run { sim, end, seed })
    }

    /// Handles up to `max_events` events toward the end; returns whether the run is over.
    pub fn advance(&mut self, max_events: u64) -> bool {
        self.sim.step_until_bounded(self.end, max_events);
        self.is_finished()
    }

    /// Handles events up to `deadline` (capped at the end), at most `max_events` of them;
    /// returns how many were handled. The page calls this once per frame.
    pub fn advance_to(&mut self, deadline: SimTime, max_events: u64) -> u64 {
        self.sim
            .step_until_bounded(deadline.min(self.end), max_events)
    }

    /// Handles exactly one event (the page's "step").
    pub fn step(&mut self) -> bool {
        if self.is_finished() {
            return false;
        }
        self.sim.step()
    }

    /// Whether virtual time reached the end.
    pub fn is_finished(&self) -> bool {
        self.sim.now() >= self.end
    }

    /// The current virtual time.
    pub fn now(&self) -> SimTime {
        self.sim.now()
    }

    /// When the run ends.
    pub fn end(&self) -> SimTime {
        self.end
    }

    /// How far along the run is, from 0 to 1.
    pub fn fraction_done(&self) -> f64 {
        (self.sim.now().as_secs_f64() / self.end.as_secs_f64().max(1e-9)).clamp(0.0, 1.0)
    }

    /// The seed in use.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The trace so far.
    pub fn trace(&self) -> &crate::sim::Trace {
        self.sim.trace()
    }

    /// Trace events recorded after the first `seen_total` (still in the ring), oldest first: what
    /// happened since the caller last looked. Pass [`crate::sim::Trace::total`] of the last call.
    pub fn trace_since(&self, seen_total: u64) -> impl Iterator<Item = &crate::sim::TraceEvent> {
        let trace = self.sim.trace();
        let kept = trace.events().count() as u64;
        let first_kept = trace.total() - kept;
        let skip = seen_total.saturating_sub(first_kept).min(kept) as usize;
        trace.events().skip(skip)
    }

    /// The keys of every sampled series (`name{labels}`), in order.
    pub fn series_keys(&self) -> impl Iterator<Item = &String> {
        self.sim.model().series().iter().map(|(k, _)| k)
    }

    /// One sampled series: `(t_seconds, value)` points, at most 2000, oldest first. Cheap: no copy.
    pub fn series(&self, key: &str) -> Option<&[(f64, f64)]> {
        self.sim.model().series().get(key).map(|s| s.points())
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.sim.model().scenario
    }

    /// The report: final metrics and series.
    pub fn report(&mut self) -> RunReport {
        let now = self.sim.now();
        let events = self.sim.steps();
        let hash = self.sim.trace().hash();
        self.sim.model_mut().report(now, events, self.seed, hash)
    }

    /// What the page draws now.
    pub fn snapshot(&self) -> Snapshot {
        self.sim.model().snapshot(self.sim.now())
    }
}
