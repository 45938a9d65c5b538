//! Running a scenario: the facade the CLI and the page drive.

use std::time::Duration;

use crate::scenario::{Profile, Scenario, ScenarioError};
use crate::sim::Simulation;
use crate::time::SimTime;

use super::checkpoint::Checkpoint;
use super::invariants::{InvariantChecker, Violation, DEBUG_CHECK_INTERVAL};
use super::report::RunReport;
use super::snapshot::Snapshot;
use super::timeline::Timeline;
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
    /// Keep the causes of this many newest events (absent ⇒
    /// [`crate::sim::DEFAULT_CAUSAL_CAPACITY`]; 0 turns causality off).
    pub causal_capacity: Option<usize>,
    /// Fold every trace line into the run's hash (absent ⇒ yes). A caller that never reads the
    /// hash (the page) turns it off: hashing a line's text costs 2–5 % of an event, and
    /// the report's `trace_hash` is then empty.
    pub trace_hash: Option<bool>,
}

/// The event budget of a run unless [`RunOptions::max_events`] says otherwise: far above any
/// preset (the 150k-object incident handles about 30 million events in 10 minutes), low enough
/// that no input keeps a caller busy for ever.
pub const DEFAULT_MAX_EVENTS: u64 = 2_000_000_000;

/// How many entries of a large collection (a workqueue set, the DeltaFIFO's queue, the
/// informer cache's objects) a step of a checkpoint's copy, or of a freeing, handles: each
/// entry's reference count is a cache miss, and freeing a cached object whose last reference
/// goes frees the object too (about 1 µs natively at the incident's scale), so a step is a few
/// milliseconds. A hash map goes at least a shard a step (1/16 of it). The page runs steps until
/// its frame's time is spent, so small steps cost it no frames.
pub const DEFAULT_STEP_ENTRIES: usize = 5_000;

/// Everything a run's future depends on: what a checkpoint copies.
#[derive(Clone)]
pub(super) struct State {
    pub(super) sim: Simulation<Cluster>,
    pub(super) checker: Option<Box<InvariantChecker>>,
    pub(super) next_check_at: u64,
    /// The timeline markers found so far ([`super::markers`]).
    pub(super) markers: super::markers::MarkerLog,
}

/// A scenario being run.
pub struct Run {
    pub(super) state: State,
    end: SimTime,
    seed: u64,
    max_events: u64,
    /// How to check: set only where checking is turned on, so a release build that never turns it
    /// on (the page) links none of the checkers.
    check_fn: Option<fn(&mut Run)>,
    check_interval: u64,
    /// Automatic checkpoints and branches, when kept ([`Run::keep_timeline`]).
    pub(super) timeline: Option<Box<Timeline<Checkpoint>>>,
    /// How to take an automatic checkpoint, one part per call (the checkpoint once every part
    /// is copied): set only by [`Run::keep_timeline`], so a build that never keeps a timeline
    /// links no copy of the run's state.
    pub(super) checkpoint_fn: Option<fn(&mut Run) -> Option<Checkpoint>>,
    /// The parts of the due checkpoint copied so far ([`super::checkpoint_parts`]).
    pub(super) copying: Option<Box<super::checkpoint_parts::PartialCopy>>,
    /// The state a restore replaced, freed when the run next handles events (or on
    /// [`Run::release`]): freeing the incident's state costs as much as copying it, so a caller
    /// that must not block (the page) pays the two in different frames.
    pub(super) released: Option<Box<State>>,
    /// The large parts of a freed state still to free, a piece per [`Run::release_one`]
    /// ([`super::checkpoint_parts`]).
    pub(super) freeing: super::checkpoint_parts::Freeing,
    /// How many entries of a large collection one call of a checkpoint's copy in parts, or of
    /// [`Run::release_one`], copies or frees ([`Run::set_step_entries`]).
    pub(super) step_entries: usize,
    /// Whether a step returns when an automatic checkpoint comes due instead of taking it, so
    /// the caller takes it on its own ([`Run::yield_before_checkpoints`]).
    yield_for_checkpoints: bool,
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
        let causal = options
            .causal_capacity
            .unwrap_or(crate::sim::DEFAULT_CAUSAL_CAPACITY);
        let mut trace = crate::sim::Trace::default().with_causal_capacity(causal);
        if options.trace_hash == Some(false) {
            trace = trace.without_hash();
        }
        let mut sim = Simulation::new(cluster, seed).with_trace(trace);
        for (at, ev) in initial {
            sim.schedule(at, ev);
        }
        // Debug builds check the invariants as they go, at a cost that stays a small share of
        // the run (each check reads every object once).
        let check_interval = DEBUG_CHECK_INTERVAL.max(objects.saturating_mul(8));
        let run = Run {
            state: State {
                sim,
                checker: None,
                next_check_at: check_interval,
                markers: super::markers::MarkerLog::default(),
            },
            end,
            seed,
            max_events: options.max_events.unwrap_or(DEFAULT_MAX_EVENTS),
            check_fn: None,
            check_interval,
            timeline: None,
            checkpoint_fn: None,
            copying: None,
            released: None,
            freeing: super::checkpoint_parts::Freeing::default(),
            step_entries: DEFAULT_STEP_ENTRIES,
            yield_for_checkpoints: false,
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
        let state = &mut run.state;
        if let Some(checker) = state.checker.as_mut() {
            checker.check(state.sim.model(), state.sim.trace(), state.sim.now());
        }
    }

    /// Checks the invariants every `interval` events from now on (tests and the swarm; debug
    /// builds already check at a sparser interval).
    pub fn check_invariants_every(&mut self, interval: u64) {
        self.check_interval = interval.max(1);
        self.state.next_check_at = self.state.sim.steps() + self.check_interval;
        if self.state.checker.is_none() {
            self.state.checker = Some(Box::new(InvariantChecker::new()));
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
        self.state.checker.as_ref().map_or(&[], |c| c.violations())
    }

    /// The invariant checker, when checking is on.
    pub fn invariant_checker(&self) -> Option<&InvariantChecker> {
        self.state.checker.as_deref()
    }

    /// The simulated cluster (read-only), for the engine's own checks and tests; front ends read
    /// a run through [`Run::snapshot`], [`Run::verdict`], [`Run::object_keys`], [`Run::inspect`]
    /// and [`Run::go_code`].
    pub fn cluster(&self) -> &Cluster {
        self.state.sim.model()
    }

    /// Steps toward `deadline`, at most `max_events` events and within the event budget,
    /// checking invariants and taking automatic checkpoints at their intervals.
    fn step_checked(&mut self, deadline: SimTime, max_events: u64) -> u64 {
        self.release();
        self.mark_if_due();
        let budget_left = self.max_events.saturating_sub(self.state.sim.steps());
        let mut left = max_events.min(budget_left);
        let mut handled = 0;
        loop {
            let chunk = left
                .min(self.events_to_next_stop())
                .min(super::markers::SCAN_EVENTS);
            // Stops at each verdict check of the markers, every event before it handled.
            let stop_at = deadline.min(self.state.markers.next_check_at());
            // Stops early after an event split into parts, so the page draws between them.
            let n = self.state.sim.step_until_yield(stop_at, chunk);
            handled += n;
            left -= n;
            self.at_stop();
            if self.yield_for_checkpoints && self.checkpoint_due() {
                return handled;
            }
            if self.reached(stop_at) {
                self.check_marker_verdict(stop_at);
                if stop_at < deadline {
                    continue;
                }
            }
            if n < chunk || left == 0 {
                return handled;
            }
        }
    }

    /// Events until the next invariant check or automatic checkpoint (at least one).
    fn events_to_next_stop(&self) -> u64 {
        let steps = self.state.sim.steps();
        let check = self.check_fn.map(|_| self.state.next_check_at);
        let mark = self.timeline.as_ref().map(|t| t.next_due_events());
        [check, mark]
            .into_iter()
            .flatten()
            .map(|at| at.saturating_sub(steps).max(1))
            .min()
            .unwrap_or(u64::MAX)
    }

    /// Checks the invariants and takes a checkpoint when they are due.
    fn at_stop(&mut self) {
        let steps = self.state.sim.steps();
        if let Some(check) = self.check_fn.filter(|_| steps >= self.state.next_check_at) {
            self.state.next_check_at = steps + self.check_interval;
            check(self);
        }
        self.scan_markers();
        if !self.yield_for_checkpoints {
            self.mark_if_due();
        }
    }

    /// From now on, a step that brings an automatic checkpoint due returns without taking it;
    /// the caller takes it with [`Run::take_due_checkpoint`] (or the next step does, first).
    /// The page does this so that the copy of a large state is a browser task of its own
    /// instead of the end of a frame that already spent its budget on events.
    pub fn yield_before_checkpoints(&mut self) {
        self.yield_for_checkpoints = true;
    }

    /// How many entries of a large collection one call of [`Run::take_due_checkpoint`] or
    /// [`Run::release_one`] copies or frees (at least one; [`DEFAULT_STEP_ENTRIES`] until set).
    pub fn set_step_entries(&mut self, entries: usize) {
        self.step_entries = entries.max(1);
    }

    /// Whether the timeline's next automatic checkpoint is due.
    pub fn checkpoint_due(&self) -> bool {
        let steps = self.state.sim.steps();
        self.checkpoint_fn.is_some()
            && self
                .timeline
                .as_ref()
                .is_some_and(|t| steps >= t.next_due_events())
    }

    /// Copies one part of the automatic checkpoint if it is due, and takes it once every part
    /// is copied; returns whether it did either. A caller that must not block (the page) calls
    /// it once per task, handling no event until the checkpoint is taken (no longer
    /// [`Run::checkpoint_due`]): at the incident's scale the whole copy is longer than a frame,
    /// each part is not.
    pub fn take_due_checkpoint(&mut self) -> bool {
        let Some(take) = self.checkpoint_fn.filter(|_| self.checkpoint_due()) else {
            return false;
        };
        if let Some(mark) = take(self) {
            self.push_checkpoint(mark);
        }
        true
    }

    /// Takes an automatic checkpoint, all its parts at once, when the timeline says one is
    /// due; returns whether it did.
    fn mark_if_due(&mut self) -> bool {
        let Some(take) = self.checkpoint_fn.filter(|_| self.checkpoint_due()) else {
            return false;
        };
        let mark = loop {
            if let Some(mark) = take(self) {
                break mark;
            }
        };
        self.push_checkpoint(mark);
        true
    }

    fn push_checkpoint(&mut self, mark: Checkpoint) {
        if let Some(t) = self.timeline.as_mut() {
            t.push(mark);
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
        self.release();
        self.check_marker_verdicts_before_next_event();
        let stepped = self.state.sim.step();
        self.scan_markers();
        self.mark_if_due();
        stepped
    }

    /// Whether virtual time reached the end.
    pub fn is_finished(&self) -> bool {
        self.state.sim.now() >= self.end
    }

    /// Whether the run spent its event budget ([`RunOptions::max_events`]) before its end.
    pub fn budget_exhausted(&self) -> bool {
        self.state.sim.steps() >= self.max_events && !self.is_finished()
    }

    /// Events handled so far.
    pub fn events(&self) -> u64 {
        self.state.sim.steps()
    }

    /// The current virtual time.
    pub fn now(&self) -> SimTime {
        self.state.sim.now()
    }

    /// When the run ends.
    pub fn end(&self) -> SimTime {
        self.end
    }

    /// How far along the run is, from 0 to 1.
    pub fn fraction_done(&self) -> f64 {
        (self.state.sim.now().as_secs_f64() / self.end.as_secs_f64().max(1e-9)).clamp(0.0, 1.0)
    }

    /// The seed in use.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The trace so far.
    pub fn trace(&self) -> &crate::sim::Trace {
        self.state.sim.trace()
    }

    /// Trace events recorded after the first `seen_total` (still in the ring), oldest first: what
    /// happened since the caller last looked. Pass [`crate::sim::Trace::total`] of the last call.
    pub fn trace_since(&self, seen_total: u64) -> impl Iterator<Item = &crate::sim::TraceEvent> {
        self.state.sim.trace().events_since(seen_total)
    }

    /// The keys of every sampled series (`name{labels}`), in order.
    pub fn series_keys(&self) -> impl Iterator<Item = &String> {
        self.state.sim.model().series().iter().map(|(k, _)| k)
    }

    /// One sampled series: `(t_seconds, value)` points, at most 2000, oldest first. Cheap: no copy.
    pub fn series(&self, key: &str) -> Option<&[(f64, f64)]> {
        self.state
            .sim
            .model()
            .series()
            .get(key)
            .map(super::series::Series::points)
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.state.sim.model().scenario
    }

    /// The report: final metrics and series.
    pub fn report(&mut self) -> RunReport {
        let now = self.state.sim.now();
        let events = self.state.sim.steps();
        let trace = self.state.sim.trace();
        let hash = trace.hashes().then(|| trace.hash());
        self.state
            .sim
            .model_mut()
            .report(now, events, self.seed, hash)
    }

    /// What the page draws now.
    pub fn snapshot(&self) -> Snapshot {
        self.state.sim.model().snapshot(self.state.sim.now())
    }
}
