//! Running a scenario: the facade the CLI and the page drive.

use std::time::Duration;

use crate::scenario::{Profile, Scenario, ScenarioError};
use crate::sim::Simulation;
use crate::time::SimTime;

use super::invariants::{InvariantChecker, Violation, DEBUG_CHECK_INTERVAL};
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
    /// Stop after this many events even if virtual time has not reached the end (absent ⇒
    /// [`DEFAULT_MAX_EVENTS`]); [`Run::budget_exhausted`] then says so.
    pub max_events: Option<u64>,
}

/// The event budget of a run unless [`RunOptions::max_events`] says otherwise: far above any
/// preset (the 150k-object incident handles about 30 million events in 10 minutes), low enough
/// that no input keeps a caller busy for ever.
pub const DEFAULT_MAX_EVENTS: u64 = 2_000_000_000;

/// A scenario being run.
pub struct Run {
    sim: Simulation<Cluster>,
    end: SimTime,
    seed: u64,
    max_events: u64,
    checker: Option<Box<InvariantChecker>>,
    /// How to check: set only where checking is turned on, so a release build that never turns it
    /// on (the page) links none of the checkers.
    check_fn: Option<fn(&mut Run)>,
    check_interval: u64,
    next_check_at: u64,
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
        let objects = u64::from(scenario.objects.count);
        let cluster = Cluster::new(scenario)?;
        let initial = cluster.initial_events();
        let mut sim = Simulation::new(cluster, seed);
        for (at, ev) in initial {
            sim.schedule(at, ev);
        }
        // Debug builds check the invariants as they go, at a cost that stays a small share of
        // the run (each check reads every object once).
        let check_interval = DEBUG_CHECK_INTERVAL.max(objects.saturating_mul(8));
        let run = Run {
            sim,
            end,
            seed,
            max_events: options.max_events.unwrap_or(DEFAULT_MAX_EVENTS),
            checker: None,
            check_fn: None,
            check_interval,
            next_check_at: check_interval,
        };
        #[cfg(debug_assertions)]
        let run = {
            let mut run = run;
            run.check_invariants_every(check_interval);
            run
        };
        Ok(run)
    }

    fn run_check(run: &mut Run) {
        if let Some(checker) = run.checker.as_mut() {
            checker.check(run.sim.model(), run.sim.trace(), run.sim.now());
        }
    }

    /// Checks the invariants every `interval` events from now on (tests and the swarm; debug
    /// builds already check at a sparser interval).
    pub fn check_invariants_every(&mut self, interval: u64) {
        self.check_interval = interval.max(1);
        self.next_check_at = self.sim.steps() + self.check_interval;
        if self.checker.is_none() {
            self.checker = Some(Box::new(InvariantChecker::new()));
        }
        self.check_fn = Some(Run::run_check);
    }

    /// Checks the invariants now (if checking is on); returns the violations found so far.
    pub fn check_invariants_now(&mut self) -> &[Violation] {
        if let Some(check) = self.check_fn {
            check(self);
        }
        self.invariant_violations()
    }

    /// Invariant violations found so far (none when checking is off).
    pub fn invariant_violations(&self) -> &[Violation] {
        self.checker.as_ref().map_or(&[], |c| c.violations())
    }

    /// The invariant checker, when checking is on.
    pub fn invariant_checker(&self) -> Option<&InvariantChecker> {
        self.checker.as_deref()
    }

    /// The simulated cluster (read-only).
    pub fn cluster(&self) -> &Cluster {
        self.sim.model()
    }

    /// Steps toward `deadline`, at most `max_events` events and within the event budget,
    /// checking invariants at their interval.
    fn step_checked(&mut self, deadline: SimTime, max_events: u64) -> u64 {
        let budget_left = self.max_events.saturating_sub(self.sim.steps());
        let mut left = max_events.min(budget_left);
        let mut handled = 0;
        loop {
            let chunk = match self.check_fn {
                Some(_) => left.min(self.next_check_at.saturating_sub(self.sim.steps()).max(1)),
                None => left,
            };
            // Stops early after an event split into parts, so the page draws between them.
            let n = self.sim.step_until_yield(deadline, chunk);
            handled += n;
            left -= n;
            if let Some(check) = self
                .check_fn
                .filter(|_| self.sim.steps() >= self.next_check_at)
            {
                self.next_check_at = self.sim.steps() + self.check_interval;
                check(self);
            }
            if n < chunk || left == 0 {
                return handled;
            }
        }
    }

    /// Handles up to `max_events` events toward the end; returns whether the run is over (its
    /// end reached, or its event budget spent).
    pub fn advance(&mut self, max_events: u64) -> bool {
        self.step_checked(self.end, max_events);
        self.is_finished() || self.budget_exhausted()
    }

    /// Handles events up to `deadline` (capped at the end), at most `max_events` of them;
    /// returns how many were handled. The page calls this once per frame.
    pub fn advance_to(&mut self, deadline: SimTime, max_events: u64) -> u64 {
        self.step_checked(deadline.min(self.end), max_events)
    }

    /// Handles exactly one event (the page's "step").
    pub fn step(&mut self) -> bool {
        if self.is_finished() || self.budget_exhausted() {
            return false;
        }
        self.sim.step()
    }

    /// Whether virtual time reached the end.
    pub fn is_finished(&self) -> bool {
        self.sim.now() >= self.end
    }

    /// Whether the run spent its event budget ([`RunOptions::max_events`]) before its end.
    pub fn budget_exhausted(&self) -> bool {
        self.sim.steps() >= self.max_events && !self.is_finished()
    }

    /// Events handled so far.
    pub fn events(&self) -> u64 {
        self.sim.steps()
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
