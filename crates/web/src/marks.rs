//! The marks the timeline draws: moments of a run worth jumping to (the first 429, each OOM kill,
//! each restart of the operator). One function, [`Marks::offer`], reads them from the trace
//! events the page already reads; the engine's own markers take its place when they land.

use flywheel_engine::sim::{EventKind, TerminatedReason, TraceEvent};

use crate::i18n::{Lang, Msg};

/// Most marks kept per run (the oldest stay: they are the story's start).
pub const MARKS_KEPT: usize = 60;

/// What a mark marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarkKind {
    /// The API server answered 429 for the first time.
    First429,
    /// The operator was OOMKilled.
    OomKilled,
    /// The operator started again after it stopped.
    Restart,
}

impl MarkKind {
    /// Its name on the timeline, in `lang`.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            MarkKind::First429 => Msg::MarkFirst429.text(lang),
            MarkKind::OomKilled => Msg::MarkOomKilled.text(lang),
            MarkKind::Restart => Msg::MarkRestart.text(lang),
        }
    }

    /// Its CSS class.
    pub fn class(self) -> &'static str {
        match self {
            MarkKind::First429 => "mark-429",
            MarkKind::OomKilled => "mark-oom",
            MarkKind::Restart => "mark-restart",
        }
    }
}

/// One mark on the timeline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimelineMark {
    /// When (simulated seconds).
    pub at_s: f64,
    /// What.
    pub kind: MarkKind,
}

/// The marks of one run, gathered as far as the run has been (a seek back keeps the later ones).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Marks {
    /// The marks, oldest first.
    pub list: Vec<TimelineMark>,
    /// The newest instant whose events were read.
    until_s: f64,
    started: bool,
}

impl Marks {
    /// Reads one trace event: a mark when it is one not already kept.
    pub fn offer(&mut self, ev: &TraceEvent) {
        let at_s = ev.time.as_secs_f64();
        let kind = match ev.kind {
            EventKind::Retry429 { .. } => Some(MarkKind::First429),
            EventKind::ContainerTerminated {
                reason: TerminatedReason::OOMKilled,
                ..
            } => Some(MarkKind::OomKilled),
            EventKind::ContainerStarted { .. } => {
                let again = self.started;
                self.started = true;
                again.then_some(MarkKind::Restart)
            }
            _ => None,
        };
        let Some(kind) = kind else { return };
        let first_429_kept = self.list.iter().any(|m| m.kind == MarkKind::First429);
        let fresh = at_s > self.until_s && !(kind == MarkKind::First429 && first_429_kept);
        if fresh && self.list.len() < MARKS_KEPT {
            self.list.push(TimelineMark { at_s, kind });
        }
    }

    /// The events up to `now_s` were read (the next call to [`Marks::offer`] only adds later ones).
    pub fn read_until(&mut self, now_s: f64) {
        self.until_s = self.until_s.max(now_s);
    }

    /// Forgets which container start came first (the run was put back; its events are read again).
    pub fn rewind(&mut self) {
        self.started = false;
    }

    /// The mark before (`forward` false) or after `now_s`, if any.
    pub fn next_from(&self, now_s: f64, forward: bool) -> Option<TimelineMark> {
        const EPS_S: f64 = 1e-6;
        if forward {
            self.list.iter().find(|m| m.at_s > now_s + EPS_S).copied()
        } else {
            self.list
                .iter()
                .rev()
                .find(|m| m.at_s < now_s - EPS_S)
                .copied()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(times: &[f64]) -> Marks {
        Marks {
            list: times
                .iter()
                .map(|&at_s| TimelineMark {
                    at_s,
                    kind: MarkKind::OomKilled,
                })
                .collect(),
            until_s: 0.0,
            started: false,
        }
    }

    #[test]
    fn the_next_mark_is_the_first_strictly_after_now_and_the_previous_the_last_before() {
        let m = marks(&[2.0, 5.0, 9.0]);
        assert_eq!(m.next_from(5.0, true).map(|m| m.at_s), Some(9.0));
        assert_eq!(m.next_from(5.0, false).map(|m| m.at_s), Some(2.0));
        assert_eq!(m.next_from(9.0, true), None);
        assert_eq!(m.next_from(1.0, false), None);
    }
}
