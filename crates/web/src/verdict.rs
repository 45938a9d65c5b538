//! A lane's live numbers ([`LaneStats`], read once per refresh and shown by both the stats bar and
//! the pipeline drawing) and the engine's verdict on the write loop in the page's words. The
//! engine decides the verdict ([`flywheel_engine::cluster::verdict`]); this module only names it.

use flywheel_engine::cluster::memory::PodState;
use flywheel_engine::cluster::verdict::{RunVerdict, Verdict};
use flywheel_engine::float_text::{fixed, Fixed};
use flywheel_engine::metrics::names;
use flywheel_engine::process::TerminationReason;

use crate::i18n::{Lang, Msg};
use crate::runs::Lane;
use crate::story::go_name;

pub use flywheel_engine::cluster::verdict::LOOP_WINDOW_S;

/// Live numbers of one lane.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneStats {
    /// API requests per second (last 3 s).
    pub rps: f64,
    /// Reconciles per second (last 3 s).
    pub reconciles: f64,
    /// etcd revision.
    pub revision: u64,
    /// Pod state, back-off, last exit reason and restarts, as the stats bar shows it.
    pub pod: String,
    /// The Go call that writes status.
    pub write_go: flywheel_engine::static_text::StaticStr,
    /// The engine's verdict and the figures it rests on.
    pub verdict: RunVerdict,
}

impl Default for LaneStats {
    fn default() -> LaneStats {
        LaneStats {
            rps: 0.0,
            reconciles: 0.0,
            revision: 0,
            pod: String::new(),
            write_go: "",
            verdict: RunVerdict::of(Default::default()),
        }
    }
}

impl LaneStats {
    /// Reads a lane.
    pub fn of(lane: &Lane) -> LaneStats {
        let s = &lane.snapshot;
        LaneStats {
            rps: lane.run.labeled_rate(names::APISERVER_REQUEST_TOTAL, "", 3),
            reconciles: lane.run.labeled_rate(names::RECONCILE_TOTAL, "", 3),
            revision: s.revision,
            pod: pod_text(s.pod_state, s.last_exit, s.restart_in_s, s.restarts),
            write_go: go_name(lane.variant.write),
            verdict: lane.run.verdict(),
        }
    }

    /// The verdict.
    pub fn verdict(&self) -> Verdict {
        self.verdict.verdict
    }
}

/// `CrashLoopBackOff 20s (OOMKilled) · 3×`.
fn pod_text(
    state: PodState,
    last_exit: Option<TerminationReason>,
    restart_in_s: Option<f64>,
    restarts: u64,
) -> String {
    let running = state.is_running();
    let why = last_exit.map(TerminationReason::as_str);
    let mut pod = match (why, state) {
        (Some(why), PodState::Terminated(_)) => why.to_owned(),
        _ => state.as_str().to_owned(),
    };
    if let Some(r) = restart_in_s.filter(|_| !running) {
        pod.push_str(&format!(" {}s", Fixed(r, 0)));
    }
    if let Some(why) = why {
        if !pod.starts_with(why) {
            pod.push_str(&format!(" ({why})"));
        }
    }
    pod.push_str(&format!(" · {restarts}×"));
    pod
}

/// The page's words for a verdict.
pub trait VerdictWords {
    /// Its CSS class (also its `data-state`).
    fn class(self) -> &'static str;
    /// Its text in `lang` for the lane numbers `s`.
    fn text(self, s: &LaneStats, lang: Lang) -> String;
}

impl VerdictWords for Verdict {
    fn class(self) -> &'static str {
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

    fn text(self, s: &LaneStats, lang: Lang) -> String {
        let f = &s.verdict.figures;
        match self {
            Verdict::Looping => Msg::Looping.text(lang).to_owned(),
            Verdict::WritesOutrun => Msg::VerdictWritesOutrun
                .text(lang)
                .replace("{}", &fixed(f.write_rate, 0)),
            Verdict::Watching => match f.since_workers_s {
                Some(w) if f.time_s >= LOOP_WINDOW_S as f64 => {
                    Msg::VerdictSettling.text(lang).replace("{}", &fixed(w, 0))
                }
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
    let f = &s.verdict.figures;
    match f.last_exit {
        Some(why) => format!("{text} ({}, {}×)", why.as_str(), f.oom_kills.max(1)),
        None => text.to_owned(),
    }
}

/// `CrashLoopBackOff after OOMKilled, restart in 20 s`.
fn down_why(s: &LaneStats, lang: Lang) -> String {
    let f = &s.verdict.figures;
    let state = f.pod_state.as_str();
    let Some(reason) = f.last_exit.map(TerminationReason::as_str) else {
        return state.to_owned();
    };
    if f.pod_state != PodState::CrashLoopBackOff {
        return reason.to_owned();
    }
    let msg = match f.restart_in_s {
        Some(_) => Msg::VerdictDownWhy,
        None => Msg::VerdictDownNow,
    };
    msg.text(lang)
        .replace("{state}", state)
        .replace("{reason}", reason)
        .replace("{s}", &fixed(f.restart_in_s.unwrap_or(0.0), 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use flywheel_engine::cluster::verdict::VerdictFigures;

    #[test]
    fn back_off_names_the_reason_and_the_time_to_the_restart() {
        let f = VerdictFigures {
            time_s: 120.0,
            loop_rate: 40.0,
            pod_state: PodState::CrashLoopBackOff,
            last_exit: Some(TerminationReason::OomKilled),
            restart_in_s: Some(19.6),
            ..VerdictFigures::default()
        };
        let s = LaneStats {
            verdict: RunVerdict::of(f),
            ..LaneStats::default()
        };
        assert_eq!(s.verdict(), Verdict::Down);
        assert_eq!(
            Verdict::Down.text(&s, Lang::En),
            "operator not running: CrashLoopBackOff after OOMKilled, restart in 20 s"
        );
    }

    #[test]
    fn a_status_dropped_warning_is_drawn_as_a_warning() {
        assert_eq!(Verdict::StatusDropped.class(), "warning");
        assert_eq!(Verdict::WritesOutrun.class(), "looping");
    }

    #[test]
    fn the_pod_line_names_the_exit_the_wait_and_the_restarts() {
        let oom = Some(TerminationReason::OomKilled);
        let killed = PodState::Terminated(TerminationReason::OomKilled);
        assert_eq!(pod_text(killed, oom, None, 1), "OOMKilled · 1×");
        assert_eq!(
            pod_text(PodState::CrashLoopBackOff, oom, Some(19.6), 2),
            "CrashLoopBackOff 20s (OOMKilled) · 2×"
        );
        assert_eq!(pod_text(PodState::Running, None, None, 0), "Running · 0×");
        assert_eq!(
            pod_text(PodState::Running, oom, None, 3),
            "Running (OOMKilled) · 3×"
        );
    }
}
