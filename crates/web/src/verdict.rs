//! A lane's live numbers ([`LaneStats`], read once per refresh and shown by both the stats bar and
//! the pipeline drawing) and what they say about the write loop ([`Verdict`]). A verdict never
//! claims convergence while the operator is down, starting, waiting for its cache or relisting.

use crate::i18n::{Lang, Msg};
use crate::sim::Lane;
use crate::story::{go_name, LoopStory};

/// How many simulated seconds without a self-triggered enqueue it takes to call a run converged.
pub const LOOP_WINDOW_S: usize = 10;

/// Where a running operator is in its start-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Startup {
    /// The container runs but its informer has not listed yet, or the workers wait for the sync.
    Starting,
    /// The workers run but the reflector lists every object again.
    Relisting,
}

/// Live numbers of one lane.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LaneStats {
    /// API requests per second (last 3 s).
    pub rps: f64,
    /// Reconciles per second (last 3 s).
    pub reconciles: f64,
    /// Reconciles per second over the last 10 s.
    pub reconciles_10s: f64,
    /// Self-triggered enqueues so far.
    pub loops: u64,
    /// Self-triggered enqueues per second (last 10 s): the loop is turning when > 0.
    pub loop_rate: f64,
    /// Writes (PUT and PATCH) per second over the last 10 s.
    pub write_rate: f64,
    /// etcd revision.
    pub revision: u64,
    /// Pod state, back-off, last exit reason and restarts, as the stats bar shows it.
    pub pod: String,
    /// The container state (`Running`, `CrashLoopBackOff`, `OOMKilled`).
    pub pod_state: String,
    /// Seconds until the next restart while backing off.
    pub restart_in_s: Option<f64>,
    /// Why the container last exited (`OOMKilled`, `Error`).
    pub last_exit: Option<String>,
    /// OOM kills so far.
    pub oom_kills: u64,
    /// Simulated seconds so far.
    pub time_s: f64,
    /// Whether the operator runs and has nothing queued or in progress (`None`: it does not run).
    pub operator_idle: Option<bool>,
    /// Starting or relisting, when it is.
    pub startup: Option<Startup>,
    /// Simulated seconds since this container's workers started.
    pub since_workers_s: Option<f64>,
    /// Deltas and notifications the informer has not handed to the workqueue yet.
    pub informer_backlog: u64,
    /// Whether every worker is busy.
    pub workers_all_busy: bool,
    /// What the switches make of the loop.
    pub story: Option<LoopStory>,
    /// The Go call that writes status.
    pub write_go: &'static str,
}

impl LaneStats {
    /// Reads a lane.
    pub fn of(lane: &Lane) -> LaneStats {
        let s = &lane.snapshot;
        let op = s.operator.as_ref();
        let startup = op.and_then(|o| {
            if !o.workers_started {
                Some(Startup::Starting)
            } else if o.reflector_state == "listing" {
                Some(Startup::Relisting)
            } else {
                None
            }
        });
        let running = s.pod_state == "Running";
        let state = match (&lane.last_exit, running) {
            (Some(why), false) if s.pod_state != "CrashLoopBackOff" => why.clone(),
            _ => s.pod_state.clone(),
        };
        let mut pod = state;
        if let Some(r) = s.restart_in_s.filter(|_| !running) {
            pod.push_str(&format!(" {r:.0}s"));
        }
        if let Some(why) = &lane.last_exit {
            if !pod.starts_with(why.as_str()) {
                pod.push_str(&format!(" ({why})"));
            }
        }
        pod.push_str(&format!(" · {}×", s.restarts));
        LaneStats {
            rps: lane.rate_matching("apiserver_request_total{", "", 3),
            reconciles: lane.rate_matching("controller_runtime_reconcile_total{", "", 3),
            reconciles_10s: lane.rate_matching(
                "controller_runtime_reconcile_total{",
                "",
                LOOP_WINDOW_S,
            ),
            loops: lane.loop_count,
            loop_rate: lane.rate("flywheel_self_triggered_enqueues_total", LOOP_WINDOW_S),
            write_rate: lane.rate_matching(
                "apiserver_request_total{",
                "verb=\"PUT\"",
                LOOP_WINDOW_S,
            ) + lane.rate_matching(
                "apiserver_request_total{",
                "verb=\"PATCH\"",
                LOOP_WINDOW_S,
            ),
            revision: s.revision,
            pod,
            pod_state: s.pod_state.clone(),
            restart_in_s: s.restart_in_s,
            last_exit: lane.last_exit.clone(),
            oom_kills: lane.oom_kills,
            time_s: s.time_s,
            operator_idle: op.map(|o| o.queue_ready + o.queue_waiting + o.workers_busy == 0),
            startup,
            since_workers_s: lane.workers_started_s.map(|t| (s.time_s - t).max(0.0)),
            informer_backlog: op.map_or(0, |o| o.fifo_deltas + o.handler_buffer),
            workers_all_busy: op.is_some_and(|o| o.workers > 0 && o.workers_busy == o.workers),
            story: Some(LoopStory::of(lane.variant)),
            write_go: go_name(lane.variant.write),
        }
    }
}

/// What the counters say about the write loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// The verdict for a lane's counters.
    pub fn of(s: &LaneStats) -> Verdict {
        let running = s.pod_state.is_empty() || s.pod_state == "Running";
        if s.operator_idle.is_none() || !running {
            return if s.time_s > 0.0 {
                Verdict::Down
            } else {
                Verdict::Watching
            };
        }
        if s.startup == Some(Startup::Starting) {
            return Verdict::Starting;
        }
        if s.loop_rate > 0.0 {
            return Verdict::Looping;
        }
        let loop_expected = s.loops > 0 || s.story.is_some_and(LoopStory::loops);
        if loop_expected && s.write_rate >= 1.0 && s.informer_backlog > 0 {
            return Verdict::WritesOutrun;
        }
        if s.startup == Some(Startup::Relisting) {
            return Verdict::Relisting;
        }
        let window = LOOP_WINDOW_S as f64;
        if s.time_s < window || s.since_workers_s.is_some_and(|w| w < window) {
            return Verdict::Watching;
        }
        match (s.operator_idle, s.story) {
            (Some(false), _) => Verdict::Busy,
            (_, Some(LoopStory::StatusDropped)) => Verdict::StatusDropped,
            (_, Some(LoopStory::NoStatusEndpoint)) => Verdict::NoEndpoint,
            _ => Verdict::Converged,
        }
    }

    /// Its CSS class (also its `data-state`).
    pub fn class(self) -> &'static str {
        match self {
            Verdict::Looping | Verdict::WritesOutrun => "looping",
            Verdict::Watching => "watching",
            Verdict::Converged => "converged",
            Verdict::StatusDropped | Verdict::NoEndpoint => "warning",
            Verdict::Busy => "busy",
            Verdict::Down => "down",
            Verdict::Starting => "starting",
            Verdict::Relisting => "relisting",
        }
    }

    /// Its text in `lang` for the counters `s`.
    pub fn text(self, s: &LaneStats, lang: Lang) -> String {
        match self {
            Verdict::Looping => Msg::Looping.text(lang).to_owned(),
            Verdict::WritesOutrun => Msg::VerdictWritesOutrun
                .text(lang)
                .replace("{}", &format!("{:.0}", s.write_rate)),
            Verdict::Watching => match s.since_workers_s {
                Some(w) if s.time_s >= LOOP_WINDOW_S as f64 => Msg::VerdictSettling
                    .text(lang)
                    .replace("{}", &format!("{w:.0}")),
                _ => Msg::Watching.text(lang).to_owned(),
            },
            Verdict::Converged => Msg::Converged.text(lang).to_owned(),
            Verdict::StatusDropped => Msg::VerdictStatusDropped
                .text(lang)
                .replace("{}", s.write_go),
            Verdict::NoEndpoint => Msg::VerdictNoEndpoint.text(lang).to_owned(),
            Verdict::Busy => Msg::BusyNoLoop.text(lang).to_owned(),
            Verdict::Down => Msg::VerdictDown
                .text(lang)
                .replace("{}", &down_why(s, lang)),
            Verdict::Starting => with_exit(Msg::VerdictStarting.text(lang), s),
            Verdict::Relisting => with_exit(Msg::VerdictRelisting.text(lang), s),
        }
    }
}

/// A start-up text, followed by why the last container exited.
fn with_exit(text: &str, s: &LaneStats) -> String {
    match &s.last_exit {
        Some(why) => format!("{text} ({why}, {}×)", s.oom_kills.max(1)),
        None => text.to_owned(),
    }
}

/// `CrashLoopBackOff after OOMKilled, restart in 20 s`.
fn down_why(s: &LaneStats, lang: Lang) -> String {
    let state = if s.pod_state.is_empty() {
        "Terminated"
    } else {
        s.pod_state.as_str()
    };
    let Some(reason) = s.last_exit.as_deref() else {
        return state.to_owned();
    };
    if state != "CrashLoopBackOff" {
        return reason.to_owned();
    }
    let msg = match s.restart_in_s {
        Some(_) => Msg::VerdictDownWhy,
        None => Msg::VerdictDownNow,
    };
    msg.text(lang)
        .replace("{state}", state)
        .replace("{reason}", reason)
        .replace("{s}", &format!("{:.0}", s.restart_in_s.unwrap_or(0.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(loop_rate: f64, time_s: f64, operator_idle: Option<bool>) -> LaneStats {
        LaneStats {
            loop_rate,
            revision: 1,
            pod_state: "Running".into(),
            time_s,
            operator_idle,
            since_workers_s: Some(time_s),
            ..LaneStats::default()
        }
    }

    #[test]
    fn a_run_is_not_called_converged_before_a_whole_window_has_passed() {
        assert_eq!(
            Verdict::of(&stats(0.0, 1.3, Some(false))),
            Verdict::Watching
        );
        assert_eq!(Verdict::of(&stats(0.0, 1.3, Some(true))), Verdict::Watching);
        assert_eq!(
            Verdict::of(&stats(0.0, 10.0, Some(true))),
            Verdict::Converged
        );
    }

    #[test]
    fn a_loop_shows_as_soon_as_it_turns_and_a_busy_queue_is_not_converged() {
        assert_eq!(Verdict::of(&stats(4.0, 2.0, Some(false))), Verdict::Looping);
        assert_eq!(Verdict::of(&stats(0.0, 30.0, Some(false))), Verdict::Busy);
    }

    #[test]
    fn a_stopped_operator_is_down_not_converged() {
        assert_eq!(Verdict::of(&stats(0.0, 300.0, None)), Verdict::Down);
        // before the clock starts the container has not started either
        assert_eq!(Verdict::of(&stats(0.0, 0.0, None)), Verdict::Watching);
    }

    #[test]
    fn a_restarted_operator_is_not_converged_until_its_workers_ran_a_whole_window() {
        let mut s = stats(0.0, 57.0, Some(true));
        s.startup = Some(Startup::Starting);
        assert_eq!(Verdict::of(&s), Verdict::Starting);
        s.startup = None;
        s.since_workers_s = Some(3.0);
        assert_eq!(Verdict::of(&s), Verdict::Watching);
        s.since_workers_s = Some(12.0);
        assert_eq!(Verdict::of(&s), Verdict::Converged);
    }

    #[test]
    fn back_off_names_the_reason_and_the_time_to_the_restart_and_is_never_a_loop() {
        let mut s = stats(40.0, 120.0, None);
        s.pod_state = "CrashLoopBackOff".into();
        s.last_exit = Some("OOMKilled".into());
        s.restart_in_s = Some(19.6);
        assert_eq!(Verdict::of(&s), Verdict::Down);
        assert_eq!(
            Verdict::Down.text(&s, Lang::En),
            "operator not running: CrashLoopBackOff after OOMKilled, restart in 20 s"
        );
    }

    #[test]
    fn fast_writes_whose_events_wait_in_the_informer_are_a_loop_not_a_busy_queue() {
        let mut s = stats(0.0, 200.0, Some(false));
        s.loops = 5000;
        s.write_rate = 2500.0;
        s.informer_backlog = 90_000;
        assert_eq!(Verdict::of(&s), Verdict::WritesOutrun);
    }

    #[test]
    fn a_quiet_run_whose_status_is_dropped_is_a_warning_not_converged() {
        let mut s = stats(0.0, 60.0, Some(true));
        s.story = Some(LoopStory::StatusDropped);
        assert_eq!(Verdict::of(&s), Verdict::StatusDropped);
        assert_eq!(Verdict::StatusDropped.class(), "warning");
    }
}
