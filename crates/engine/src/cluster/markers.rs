//! Timeline markers: the few instants of a run worth a pin on the page's timeline, drawn from the
//! typed trace records as the run handles them, and from the verdict at each whole second.
//!
//! ```text
//!  trace records ──scan (first-of-a-kind flags)──▶ MarkerLog { Vec<Marker> }  ──▶ Run::markers
//!  verdict at 1 s, 2 s, … ──turns converged──────▶      │ (part of the run's state:
//!                                                       │  a checkpoint keeps it, a seek
//!                                                       ▼  restores it, a fork's branch has its own)
//! ```
//!
//! The scan reads each record once and keeps a handful of flags: the markers are sparse (first
//! self-triggered reconcile, first 429, each OOM kill, restart and back-off end, relists,
//! interventions, convergence), so collecting them costs one `match` per traced event.

use std::time::Duration;

use crate::apiserver::Verb;
use crate::key::Key;
use crate::scenario::ActionKind;
use crate::sim::{EventId, EventKind, TerminatedReason, TraceEvent};
use crate::time::SimTime;

use super::key_prints::KeyPrints;
use super::run::Run;
use super::verdict::Verdict;

/// The most engine events handled between two scans: far fewer than the trace ring keeps
/// ([`crate::sim::DEFAULT_TRACE_CAPACITY`]), so no record leaves the ring unread.
pub const SCAN_EVENTS: u64 = 1_000;

/// How often the verdict is read for the convergence marker (simulated time).
pub const VERDICT_CHECK_INTERVAL: Duration = Duration::from_secs(1);

/// What a marker marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerKind {
    /// The first Reconcile of a key its own write re-queued (the loop closed).
    FirstSelfTriggered,
    /// The API server's first `429 Too Many Requests`.
    First429,
    /// The kernel killed the operator's container at its memory limit.
    OomKilled,
    /// The operator's container exited with an error.
    ContainerExited,
    /// The kubelet started the container again (its back-off ended).
    BackOffEnded,
    /// The reflector listed every object again after its watch broke.
    Relist,
    /// A person acted on the cluster (a spec edit, a delete, a rollout, new limits, …).
    Intervention(ActionKind),
    /// The verdict turned to converged.
    Converged,
}

impl MarkerKind {
    /// The kind's stable name (`first-429`, `oom-killed`, …), as the tours and the URL spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            MarkerKind::FirstSelfTriggered => "first-self-triggered",
            MarkerKind::First429 => "first-429",
            MarkerKind::OomKilled => "oom-killed",
            MarkerKind::ContainerExited => "container-exited",
            MarkerKind::BackOffEnded => "back-off-ended",
            MarkerKind::Relist => "relist",
            MarkerKind::Intervention(_) => "intervention",
            MarkerKind::Converged => "converged",
        }
    }

    /// Every name [`MarkerKind::as_str`] gives.
    pub const NAMES: &'static [&'static str] = &[
        "first-self-triggered",
        "first-429",
        "oom-killed",
        "container-exited",
        "back-off-ended",
        "relist",
        "intervention",
        "converged",
    ];

    /// A short label: (English, 简体中文).
    pub fn label(self) -> (&'static str, &'static str) {
        match self {
            MarkerKind::FirstSelfTriggered => ("loop closes", "循环闭合"),
            MarkerKind::First429 => ("first 429", "首个 429"),
            MarkerKind::OomKilled => ("OOMKilled", "OOMKilled"),
            MarkerKind::ContainerExited => ("container exited", "容器退出"),
            MarkerKind::BackOffEnded => ("restart", "重启"),
            MarkerKind::Relist => ("relist", "重新 List"),
            MarkerKind::Intervention(a) => intervention_label(a),
            MarkerKind::Converged => ("converged", "已收敛"),
        }
    }
}

/// The label of an intervention marker: (English, 简体中文).
fn intervention_label(action: ActionKind) -> (&'static str, &'static str) {
    match action {
        ActionKind::EditSpec => ("spec edited", "修改 spec"),
        ActionKind::Label => ("labelled", "加标签"),
        ActionKind::Delete => ("deleted", "删除对象"),
        ActionKind::KillOperator => ("operator killed", "杀掉 Operator"),
        ActionKind::Annotate => ("annotated", "加注解"),
        ActionKind::DeleteNamespaces => ("namespaces deleted", "删除命名空间"),
        ActionKind::SetMemoryLimit => ("memory limit", "内存上限"),
        ActionKind::Rollout => ("rollout", "滚动发布"),
        ActionKind::SetStatusSubresource => ("/status changed", "修改 /status"),
        ActionKind::SetApiLimits => ("API limits", "API 限额"),
    }
}

/// One marker on the timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marker {
    /// What it marks.
    pub kind: MarkerKind,
    /// When.
    pub at: SimTime,
    /// The trace event it points at (for convergence: the last event before the instant).
    pub event: EventId,
    /// The object it concerns, if any.
    pub key: Option<Key>,
}

impl Marker {
    /// The short English label.
    pub fn label_en(&self) -> &'static str {
        self.kind.label().0
    }

    /// The short 简体中文 label.
    pub fn label_zh(&self) -> &'static str {
        self.kind.label().1
    }
}

/// The markers found so far and the flags the scan keeps: part of a run's state.
#[derive(Clone, Debug)]
pub struct MarkerLog {
    markers: Vec<Marker>,
    /// Trace records scanned so far.
    seen: u64,
    /// Keys re-queued by the operator's own write, until the first such key is reconciled
    /// (at the incident's scale all 150 000, copied with every checkpoint: fingerprints).
    own_write_keys: Option<KeyPrints>,
    seen_429: bool,
    /// Whether the current container's watch broke since its last LIST.
    watch_broken: bool,
    /// Whether the verdict read converged at the last check.
    converged: bool,
    /// When the verdict is read next.
    next_check_at: SimTime,
}

impl Default for MarkerLog {
    fn default() -> MarkerLog {
        MarkerLog {
            markers: Vec::new(),
            seen: 0,
            own_write_keys: Some(KeyPrints::default()),
            seen_429: false,
            watch_broken: false,
            converged: false,
            next_check_at: SimTime::ZERO + VERDICT_CHECK_INTERVAL,
        }
    }
}

impl MarkerLog {
    /// Every marker so far, oldest first.
    pub fn markers(&self) -> &[Marker] {
        &self.markers
    }

    /// Trace records scanned so far.
    pub fn seen(&self) -> u64 {
        self.seen
    }

    /// When the verdict is to be read next.
    pub fn next_check_at(&self) -> SimTime {
        self.next_check_at
    }

    /// Scans the records from `first_id` on (ids `first_id`, `first_id + 1`, …) that were not
    /// scanned yet.
    pub fn scan<'a>(&mut self, first_id: u64, records: impl Iterator<Item = &'a TraceEvent>) {
        for (i, record) in records.enumerate() {
            let id = first_id + i as u64;
            if id < self.seen {
                continue;
            }
            self.seen = id + 1;
            self.observe(EventId(id), record);
        }
    }

    /// Takes whether the verdict at the check instant is converged: a turn to converged is a
    /// marker.
    pub fn check_verdict(&mut self, converged: bool, last_event: EventId) {
        if converged && !self.converged {
            self.push(MarkerKind::Converged, self.next_check_at, last_event, None);
        }
        self.converged = converged;
        self.next_check_at += VERDICT_CHECK_INTERVAL;
    }

    fn push(&mut self, kind: MarkerKind, at: SimTime, event: EventId, key: Option<Key>) {
        self.markers.push(Marker {
            kind,
            at,
            event,
            key,
        });
    }

    fn observe(&mut self, id: EventId, r: &TraceEvent) {
        let kind = match r.kind {
            EventKind::HandlerEnqueue { own_write: true } => {
                if let (Some(keys), Some(key)) = (self.own_write_keys.as_mut(), &r.key) {
                    keys.insert(key);
                }
                None
            }
            EventKind::Reconcile { .. } => self.first_self_triggered(r),
            // The API server's 429 is traced as the client's retry (`client Retry429`); a
            // request traced with its code counts too.
            EventKind::Retry429 { .. } | EventKind::ApiRequest { code: 429, .. }
                if !self.seen_429 =>
            {
                self.seen_429 = true;
                Some(MarkerKind::First429)
            }
            EventKind::ApiRequest {
                verb: Verb::List, ..
            } => std::mem::take(&mut self.watch_broken).then_some(MarkerKind::Relist),
            EventKind::WatchError { .. } => {
                self.watch_broken = true;
                None
            }
            EventKind::ContainerTerminated { reason, .. } => Some(match reason {
                TerminatedReason::OOMKilled => MarkerKind::OomKilled,
                TerminatedReason::Error => MarkerKind::ContainerExited,
            }),
            EventKind::ContainerStarted { incarnation } => {
                self.watch_broken = false;
                (incarnation > 1).then_some(MarkerKind::BackOffEnded)
            }
            EventKind::UserAction { action } => Some(MarkerKind::Intervention(action)),
            EventKind::SetResources { .. } => {
                Some(MarkerKind::Intervention(ActionKind::SetMemoryLimit))
            }
            _ => None,
        };
        if let Some(kind) = kind {
            self.push(kind, r.time, id, r.key.clone());
        }
    }

    /// A Reconcile of a key its own write re-queued, the first time: then the flag is dropped.
    fn first_self_triggered(&mut self, r: &TraceEvent) -> Option<MarkerKind> {
        let keys = self.own_write_keys.as_ref()?;
        let key = r.key.as_ref()?;
        if keys.contains(key) {
            self.own_write_keys = None;
            Some(MarkerKind::FirstSelfTriggered)
        } else {
            None
        }
    }
}

impl Run {
    /// Every timeline marker of the current branch up to now, oldest first.
    pub fn markers(&self) -> &[Marker] {
        self.state.markers.markers()
    }

    /// The markers after the first `seen` (pass the length of the last answer): what appeared
    /// since the caller last looked. After a seek back, fewer markers exist than were seen:
    /// compare [`Run::markers`]' length first.
    pub fn markers_since(&self, seen: usize) -> &[Marker] {
        let all = self.state.markers.markers();
        &all[seen.min(all.len())..]
    }

    /// Scans the trace records the markers have not seen yet.
    pub(super) fn scan_markers(&mut self) {
        let trace = self.state.sim.trace();
        let from = self.state.markers.seen().max(trace.first_kept());
        let records = trace.events_since(from);
        self.state.markers.scan(from, records);
    }

    /// Whether every event due by `t` has been handled and the clock reads `t`.
    pub(super) fn reached(&self, t: SimTime) -> bool {
        let sim = &self.state.sim;
        sim.now() >= t && sim.next_event_time().is_none_or(|at| at > t)
    }

    /// Reads the verdict for the convergence marker when `t` is its check instant.
    pub(super) fn check_marker_verdict(&mut self, t: SimTime) {
        if t == self.state.markers.next_check_at() {
            self.read_marker_verdict();
        }
    }

    /// Reads the verdict at every check instant before the next event (a single step).
    pub(super) fn check_marker_verdicts_before_next_event(&mut self) {
        while let Some(next) = self.state.sim.next_event_time() {
            if next <= self.state.markers.next_check_at() {
                return;
            }
            self.read_marker_verdict();
        }
    }

    fn read_marker_verdict(&mut self) {
        let at = self.state.markers.next_check_at();
        let cluster = self.state.sim.model();
        let converged =
            cluster.may_be_converged() && cluster.verdict(at).verdict == Verdict::Converged;
        let last = EventId(self.state.sim.trace().total().saturating_sub(1));
        self.state.markers.check_verdict(converged, last);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apiserver::Verb;

    fn record(t_ms: u64, key: Option<&str>, kind: EventKind) -> TraceEvent {
        TraceEvent {
            time: SimTime::ZERO + Duration::from_millis(t_ms),
            key: key.map(Key::from),
            resource_version: None,
            kind,
        }
    }

    #[test]
    fn only_the_first_429_and_the_first_self_triggered_reconcile_are_marked() {
        let records = [
            record(1, Some("default/a"), EventKind::Reconcile { worker: 0 }),
            record(
                2,
                Some("default/a"),
                EventKind::HandlerEnqueue { own_write: true },
            ),
            record(3, Some("default/b"), EventKind::Reconcile { worker: 0 }),
            record(4, Some("default/a"), EventKind::Reconcile { worker: 1 }),
            record(5, Some("default/a"), EventKind::Reconcile { worker: 1 }),
            record(
                6,
                None,
                EventKind::ApiRequest {
                    verb: Verb::Update,
                    code: 429,
                },
            ),
            record(
                7,
                None,
                EventKind::ApiRequest {
                    verb: Verb::Update,
                    code: 429,
                },
            ),
        ];
        let mut log = MarkerLog::default();
        log.scan(0, records.iter());
        let kinds: Vec<_> = log.markers().iter().map(|m| (m.kind, m.event.0)).collect();
        assert_eq!(
            kinds,
            [
                (MarkerKind::FirstSelfTriggered, 3),
                (MarkerKind::First429, 5)
            ]
        );
    }

    #[test]
    fn a_record_scanned_twice_is_marked_once() {
        let r = [record(
            1,
            None,
            EventKind::UserAction {
                action: ActionKind::EditSpec,
            },
        )];
        let mut log = MarkerLog::default();
        log.scan(0, r.iter());
        log.scan(0, r.iter());
        assert_eq!(log.markers().len(), 1);
        assert_eq!(log.markers()[0].label_zh(), "修改 spec");
    }

    #[test]
    fn a_list_after_a_broken_watch_is_a_relist_and_the_first_list_is_not() {
        let list = EventKind::ApiRequest {
            verb: Verb::List,
            code: 200,
        };
        let broken = EventKind::WatchError {
            event_type: crate::apiserver::WatchEventType::Error,
            code: 410,
            reason: crate::apiserver::StatusReason::Expired,
        };
        let r = [
            record(1, None, list),
            record(2, None, broken),
            record(3, None, list),
        ];
        let mut log = MarkerLog::default();
        log.scan(0, r.iter());
        let kinds: Vec<_> = log.markers().iter().map(|m| m.kind).collect();
        assert_eq!(kinds, [MarkerKind::Relist]);
    }

    #[test]
    fn convergence_is_marked_when_the_verdict_turns_converged() {
        let mut log = MarkerLog::default();
        log.check_verdict(false, EventId(1));
        log.check_verdict(true, EventId(2));
        log.check_verdict(true, EventId(3));
        assert_eq!(log.markers().len(), 1);
        assert_eq!(log.markers()[0].at, SimTime::ZERO + Duration::from_secs(2));
        assert_eq!(log.next_check_at(), SimTime::ZERO + Duration::from_secs(4));
    }

    /// The marker's short cut may only skip verdicts that are not converged: at every whole
    /// second of a converging run and of a looping one, a converged verdict has an operator
    /// running and no loop in its window.
    #[test]
    fn only_a_verdict_that_may_be_converged_is_converged() {
        for (preset, seconds) in [("fixed", 90), ("flywheel", 30), ("finalizer-deadlock", 60)] {
            let scenario = crate::scenario::presets::load(preset, &[]).expect("a preset");
            let mut run = Run::new(scenario, &Default::default()).expect("a run");
            let (mut converged, mut skipped) = (0, 0);
            for s in 1..=seconds {
                let at = SimTime::ZERO + Duration::from_secs(s);
                run.advance_to(at, u64::MAX);
                let cluster = run.cluster();
                let verdict = cluster.verdict(at).verdict;
                if verdict == Verdict::Converged {
                    converged += 1;
                    assert!(cluster.may_be_converged(), "{preset} at {s} s");
                }
                skipped += u64::from(!cluster.may_be_converged());
            }
            match preset {
                "fixed" => assert!(converged > 0, "the fixed run converges"),
                "flywheel" => assert!(skipped > seconds / 2, "a loop skips the whole verdict"),
                _ => {}
            }
        }
    }
}
