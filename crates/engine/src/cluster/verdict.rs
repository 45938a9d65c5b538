//! The run's verdict on the write loop: is it turning, has the run converged, or can nothing be
//! said yet (the operator is down, starting, relisting, or less than a window has passed)? The
//! CLI prints it and the page shows it in its own words; both read the same [`RunVerdict`].
//!
//! ```text
//!  Snapshot ─┐   (or the same parts read from the cluster: Cluster::verdict)
//!  series  ──┼─▶ VerdictFigures ──Verdict::of──▶ Verdict   (decided in this order:)
//!  Variant ──┘    down? starting? looping? writes outrun? relisting? < window? busy? warning?
//! ```
//!
//! A verdict never claims convergence while the operator is down, starting, waiting for its
//! cache or relisting, nor before a whole window without a self-triggered enqueue has passed
//! since its workers started.

use serde::Serialize;

use crate::metrics::names;
use crate::process::TerminationReason;
use crate::scenario::variant::Variant;
use crate::time::SimTime;

use super::expectation::LoopExpectation;
use super::memory::PodState;
use super::metric_keys::Fixed;
use super::series::SeriesSet;
use super::snapshot::{OperatorPhase, OperatorSnapshot, Snapshot};
use super::Cluster;

/// How many simulated seconds without a self-triggered enqueue it takes to call a run converged
/// (and the window of the rates the verdict reads).
pub const LOOP_WINDOW_S: usize = 10;

/// Writes per second at or above which fast writes with a waiting informer count as a loop.
const OUTRUN_WRITES_PER_S: f64 = 1.0;

/// What the figures say about the write loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Self-triggered enqueues in the last window: each write re-triggers Reconcile.
    Looping,
    /// The operator writes fast while its own events still wait in the informer.
    WritesOutrun,
    /// Less than one window has run (since the start or since the workers started).
    Watching,
    /// No self-triggered enqueue in a whole window and nothing queued or in progress.
    Converged,
    /// Quiet, but the status the operator writes is dropped by the API server.
    StatusDropped,
    /// Quiet, but every status write is answered 404.
    NoEndpoint,
    /// No self-triggered enqueue in a whole window, but the workqueue is still busy.
    Busy,
    /// The operator's container is not running (killed, or waiting out its back-off).
    Down,
    /// The operator lists its objects and its workers wait for the cache sync.
    Starting,
    /// The operator relists every object.
    Relisting,
}

impl Verdict {
    /// The verdict's stable name (`looping`, `writes-outrun`, `converged`, …), as the CLI prints it.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Looping => "looping",
            Verdict::WritesOutrun => "writes-outrun",
            Verdict::Watching => "watching",
            Verdict::Converged => "converged",
            Verdict::StatusDropped => "status-dropped",
            Verdict::NoEndpoint => "no-endpoint",
            Verdict::Busy => "busy",
            Verdict::Down => "down",
            Verdict::Starting => "starting",
            Verdict::Relisting => "relisting",
        }
    }

    /// The verdict for `f`.
    pub fn of(f: &VerdictFigures) -> Verdict {
        if f.operator_idle.is_none() || !f.pod_state.is_running() {
            return if f.time_s > 0.0 {
                Verdict::Down
            } else {
                Verdict::Watching
            };
        }
        if f.phase == Some(OperatorPhase::Starting) {
            return Verdict::Starting;
        }
        if f.loop_rate > 0.0 {
            return Verdict::Looping;
        }
        let loop_expected = f.loops > 0 || f.expectation.loops();
        if loop_expected && f.write_rate >= OUTRUN_WRITES_PER_S && f.informer_backlog > 0 {
            return Verdict::WritesOutrun;
        }
        if f.phase == Some(OperatorPhase::Relisting) {
            return Verdict::Relisting;
        }
        let window = LOOP_WINDOW_S as f64;
        if f.time_s < window || f.since_workers_s.is_some_and(|w| w < window) {
            return Verdict::Watching;
        }
        match (f.operator_idle, f.expectation) {
            (Some(false), _) => Verdict::Busy,
            (_, LoopExpectation::StatusDropped) => Verdict::StatusDropped,
            (_, LoopExpectation::NoStatusEndpoint) => Verdict::NoEndpoint,
            _ => Verdict::Converged,
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The figures a verdict rests on, read at one instant.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct VerdictFigures {
    /// Simulated seconds so far.
    pub time_s: f64,
    /// Self-triggered enqueues so far.
    pub loops: u64,
    /// Self-triggered enqueues per second over the window: the loop turns when > 0.
    pub loop_rate: f64,
    /// Writes (PUT and PATCH) per second over the window.
    pub write_rate: f64,
    /// Reconciles per second over the window.
    pub reconcile_rate: f64,
    /// The container's state.
    pub pod_state: PodState,
    /// Seconds until the next restart while backing off.
    pub restart_in_s: Option<f64>,
    /// Why the container last exited.
    pub last_exit: Option<TerminationReason>,
    /// OOM kills so far.
    pub oom_kills: u64,
    /// Whether the operator has nothing queued or in progress (`None`: it does not run).
    pub operator_idle: Option<bool>,
    /// Where the running operator is in its start-up.
    pub phase: Option<OperatorPhase>,
    /// Simulated seconds since the current container's workers started.
    pub since_workers_s: Option<f64>,
    /// Deltas and notifications the informer has not handed to the workqueue yet.
    pub informer_backlog: u64,
    /// Whether every worker is busy.
    pub workers_all_busy: bool,
    /// What the switches make of the loop.
    pub expectation: LoopExpectation,
}

impl Default for VerdictFigures {
    fn default() -> VerdictFigures {
        VerdictFigures {
            time_s: 0.0,
            loops: 0,
            loop_rate: 0.0,
            write_rate: 0.0,
            reconcile_rate: 0.0,
            pod_state: PodState::Running,
            restart_in_s: None,
            last_exit: None,
            oom_kills: 0,
            operator_idle: None,
            phase: None,
            since_workers_s: None,
            informer_backlog: 0,
            workers_all_busy: false,
            expectation: LoopExpectation::Converges,
        }
    }
}

/// What the verdict reads of the cluster at one instant: the parts of a [`Snapshot`] it needs.
#[derive(Clone, Copy, Debug)]
struct VerdictInputs<'a> {
    time_s: f64,
    loops: u64,
    oom_kills: u64,
    pod_state: PodState,
    restart_in_s: Option<f64>,
    last_exit: Option<TerminationReason>,
    operator: Option<&'a OperatorSnapshot>,
    workers_started_s: Option<f64>,
}

impl VerdictFigures {
    /// Reads the figures of a snapshot, the sampled series and the run's switches.
    pub fn read(s: &Snapshot, series: &SeriesSet, variant: Variant) -> VerdictFigures {
        let inputs = VerdictInputs {
            time_s: s.time_s,
            loops: s.counts.self_triggered_enqueues,
            oom_kills: s.counts.oom_kills,
            pod_state: s.pod_state,
            restart_in_s: s.restart_in_s,
            last_exit: s.last_exit,
            operator: s.operator.as_ref(),
            workers_started_s: s.workers_started_s,
        };
        VerdictFigures::of_inputs(&inputs, series, variant)
    }

    fn of_inputs(s: &VerdictInputs<'_>, series: &SeriesSet, variant: Variant) -> VerdictFigures {
        let op = s.operator;
        let w = LOOP_WINDOW_S;
        let requests = names::APISERVER_REQUEST_TOTAL;
        VerdictFigures {
            time_s: s.time_s,
            loops: s.loops,
            loop_rate: series.rate(names::SELF_TRIGGERED_ENQUEUES_TOTAL, w),
            write_rate: series.labeled_rate(requests, "verb=\"PUT\"", w)
                + series.labeled_rate(requests, "verb=\"PATCH\"", w),
            reconcile_rate: series.labeled_rate(names::RECONCILE_TOTAL, "", w),
            pod_state: s.pod_state,
            restart_in_s: s.restart_in_s,
            last_exit: s.last_exit,
            oom_kills: s.oom_kills,
            operator_idle: op.map(OperatorSnapshot::is_idle),
            phase: op.map(|o| o.phase),
            since_workers_s: s.workers_started_s.map(|t| (s.time_s - t).max(0.0)),
            informer_backlog: op.map_or(0, OperatorSnapshot::informer_backlog),
            workers_all_busy: op.is_some_and(OperatorSnapshot::all_workers_busy),
            expectation: LoopExpectation::of(variant),
        }
    }
}

/// A verdict with the window it judges over and the figures it rests on.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct RunVerdict {
    /// The verdict.
    pub verdict: Verdict,
    /// The window, in simulated seconds.
    pub window_s: usize,
    /// The figures.
    pub figures: VerdictFigures,
}

impl RunVerdict {
    /// The verdict on `figures`.
    pub fn of(figures: VerdictFigures) -> RunVerdict {
        RunVerdict {
            verdict: Verdict::of(&figures),
            window_s: LOOP_WINDOW_S,
            figures,
        }
    }
}

impl Cluster {
    /// The verdict at `now`.
    ///
    /// It reads what [`VerdictFigures::read`] takes from [`Cluster::snapshot`], without building
    /// the rest of the snapshot: the timeline's markers ask for it every simulated second.
    pub fn verdict(&self, now: SimTime) -> RunVerdict {
        let operator = self.operator_snapshot();
        let pod = self.operator.process.pod_view(now);
        let t = &self.telemetry;
        let inputs = VerdictInputs {
            time_s: now.as_secs_f64(),
            loops: t.fixed_count(Fixed::SelfTriggeredEnqueues) as u64,
            oom_kills: t.fixed_count(Fixed::OomKills) as u64,
            pod_state: pod.state,
            restart_in_s: pod.restart_in_s,
            last_exit: pod.last_exit,
            operator: operator.as_ref(),
            workers_started_s: self.workers_started_s(operator.as_ref()),
        };
        let figures =
            VerdictFigures::of_inputs(&inputs, &self.telemetry.series, Variant::of(&self.scenario));
        RunVerdict::of(figures)
    }

    /// Whether the verdict at this instant may be [`Verdict::Converged`]: only with an operator
    /// running and no self-triggered enqueue in the window ([`Verdict::of`] calls a run without
    /// one down or watching, and a run with them looping). The timeline's convergence marker
    /// asks every simulated second and reads the whole verdict only when this holds: a looping
    /// run answers from one series.
    pub fn may_be_converged(&self) -> bool {
        let loop_rate = self
            .telemetry
            .series
            .rate(names::SELF_TRIGGERED_ENQUEUES_TOTAL, LOOP_WINDOW_S);
        // `Verdict::of` calls a rate above zero looping: anything else, not a number included,
        // may still be converged
        let looping = loop_rate.partial_cmp(&0.0) == Some(std::cmp::Ordering::Greater);
        self.operator.running.is_some() && !looping
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(loop_rate: f64, time_s: f64, operator_idle: Option<bool>) -> VerdictFigures {
        VerdictFigures {
            loop_rate,
            time_s,
            operator_idle,
            phase: operator_idle.map(|_| OperatorPhase::Running),
            since_workers_s: Some(time_s),
            ..VerdictFigures::default()
        }
    }

    #[test]
    fn a_run_is_not_called_converged_before_a_whole_window_has_passed() {
        let of = |t, idle| Verdict::of(&figures(0.0, t, idle));
        assert_eq!(of(1.3, Some(false)), Verdict::Watching);
        assert_eq!(of(1.3, Some(true)), Verdict::Watching);
        assert_eq!(of(10.0, Some(true)), Verdict::Converged);
    }

    #[test]
    fn a_loop_shows_as_soon_as_it_turns_and_a_busy_queue_is_not_converged() {
        assert_eq!(
            Verdict::of(&figures(4.0, 2.0, Some(false))),
            Verdict::Looping
        );
        assert_eq!(Verdict::of(&figures(0.0, 30.0, Some(false))), Verdict::Busy);
    }

    /// What `Cluster::may_be_converged` relies on to skip the whole verdict: without an
    /// operator, or with a loop in the window, no other figure makes a verdict converged.
    #[test]
    fn no_operator_or_a_loop_in_the_window_is_never_converged_whatever_the_rest() {
        let phases = [
            None,
            Some(OperatorPhase::Running),
            Some(OperatorPhase::Relisting),
        ];
        let expectations = [
            LoopExpectation::Loops,
            LoopExpectation::Converges,
            LoopExpectation::StatusDropped,
            LoopExpectation::NoStatusEndpoint,
        ];
        for (idle, loop_rate) in [
            (None, 0.0),
            (None, 3.0),
            (Some(true), 0.5),
            (Some(true), 1e-9),
        ] {
            for (phase, expectation) in phases.iter().flat_map(|p| expectations.map(|e| (*p, e))) {
                for time_s in [0.0, 5.0, 60.0, 3600.0] {
                    let mut f = figures(loop_rate, time_s, idle);
                    (f.phase, f.expectation) = (phase, expectation);
                    assert_ne!(Verdict::of(&f), Verdict::Converged, "{f:?}");
                }
            }
        }
        assert_eq!(
            Verdict::of(&figures(0.0, 60.0, Some(true))),
            Verdict::Converged
        );
    }

    #[test]
    fn a_stopped_operator_is_down_not_converged() {
        assert_eq!(Verdict::of(&figures(0.0, 300.0, None)), Verdict::Down);
        // before the clock starts the container has not started either
        assert_eq!(Verdict::of(&figures(0.0, 0.0, None)), Verdict::Watching);
    }

    #[test]
    fn a_restarted_operator_is_not_converged_until_its_workers_ran_a_whole_window() {
        let mut f = figures(0.0, 57.0, Some(true));
        f.phase = Some(OperatorPhase::Starting);
        assert_eq!(Verdict::of(&f), Verdict::Starting);
        f.phase = Some(OperatorPhase::Running);
        f.since_workers_s = Some(3.0);
        assert_eq!(Verdict::of(&f), Verdict::Watching);
        f.since_workers_s = Some(12.0);
        assert_eq!(Verdict::of(&f), Verdict::Converged);
    }

    #[test]
    fn a_container_backing_off_is_down_and_never_a_loop() {
        let mut f = figures(40.0, 120.0, None);
        f.pod_state = PodState::CrashLoopBackOff;
        f.last_exit = Some(TerminationReason::OomKilled);
        f.restart_in_s = Some(19.6);
        assert_eq!(Verdict::of(&f), Verdict::Down);
    }

    #[test]
    fn fast_writes_whose_events_wait_in_the_informer_are_a_loop_not_a_busy_queue() {
        let mut f = figures(0.0, 200.0, Some(false));
        f.loops = 5000;
        f.write_rate = 2500.0;
        f.informer_backlog = 90_000;
        assert_eq!(Verdict::of(&f), Verdict::WritesOutrun);
    }

    #[test]
    fn a_quiet_run_whose_status_is_dropped_is_a_warning_not_converged() {
        let mut f = figures(0.0, 60.0, Some(true));
        f.expectation = LoopExpectation::StatusDropped;
        assert_eq!(Verdict::of(&f), Verdict::StatusDropped);
    }

    #[test]
    fn a_relisting_operator_is_relisting_unless_its_writes_outrun_the_informer() {
        let mut f = figures(0.0, 60.0, Some(true));
        f.phase = Some(OperatorPhase::Relisting);
        assert_eq!(Verdict::of(&f), Verdict::Relisting);
        f.expectation = LoopExpectation::Loops;
        f.write_rate = 50.0;
        f.informer_backlog = 10;
        assert_eq!(Verdict::of(&f), Verdict::WritesOutrun);
    }
}
