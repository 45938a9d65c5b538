//! The marks the timeline draws: moments of a run worth jumping to (the first 429, each OOM kill,
//! each restart of the operator), read from the engine's own markers ([`Marks::take`]), which the
//! engine finds in every trace record: none is missed however many events a frame covers.

use flywheel_engine::cluster::markers::{Marker, MarkerKind};

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
    /// How many of the run's markers were read.
    seen: usize,
}

impl Marks {
    /// Reads the run's `markers` not read yet (all of them again when the run was put back to
    /// an instant with fewer): each of the kinds the timeline draws becomes a mark, once.
    pub fn take(&mut self, markers: &[Marker]) {
        if markers.len() < self.seen {
            self.seen = 0;
        }
        for m in &markers[self.seen..] {
            let kind = match m.kind {
                MarkerKind::First429 => MarkKind::First429,
                MarkerKind::OomKilled => MarkKind::OomKilled,
                MarkerKind::BackOffEnded => MarkKind::Restart,
                _ => continue,
            };
            let mark = TimelineMark {
                at_s: m.at.as_secs_f64(),
                kind,
            };
            if !self.list.contains(&mark) && self.list.len() < MARKS_KEPT {
                self.list.push(mark);
            }
        }
        // a branch's marks land between those kept from another (at most MARKS_KEPT, nearly in
        // order: an insertion sort, not a merge sort compiled for marks alone)
        flywheel_engine::small_sort::sort_few_by(&mut self.list, |a, b| a.at_s.total_cmp(&b.at_s));
        self.seen = markers.len();
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
            seen: 0,
        }
    }

    fn marker(kind: MarkerKind, at_s: f64) -> Marker {
        Marker {
            kind,
            at: flywheel_engine::SimTime::from_secs_f64(at_s),
            event: flywheel_engine::sim::EventId(0),
            key: None,
        }
    }

    #[test]
    fn the_engines_markers_become_marks_once_each_and_a_seek_back_keeps_the_later_ones() {
        let all = [
            marker(MarkerKind::FirstSelfTriggered, 1.0),
            marker(MarkerKind::First429, 29.0),
            marker(MarkerKind::OomKilled, 76.0),
            marker(MarkerKind::Relist, 77.0),
            marker(MarkerKind::BackOffEnded, 86.0),
        ];
        let mut m = Marks::default();
        m.take(&all[..2]);
        m.take(&all);
        let kinds: Vec<_> = m.list.iter().map(|k| (k.kind, k.at_s)).collect();
        let want = [
            (MarkKind::First429, 29.0),
            (MarkKind::OomKilled, 76.0),
            (MarkKind::Restart, 86.0),
        ];
        assert_eq!(kinds, want, "the kinds the timeline draws, each once");
        // put back to 30 s: the run holds its first two markers again, and finds them again
        m.take(&all[..2]);
        m.take(&all[..3]);
        let again: Vec<_> = m.list.iter().map(|k| (k.kind, k.at_s)).collect();
        assert_eq!(again, want);
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
