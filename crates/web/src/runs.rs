//! The page's pair of runs, held outside the components: one [`Lane`] per [`Side`] (A, and B when
//! comparing), stepped together on one virtual clock within a per-frame budget.

use std::collections::VecDeque;

use flywheel_engine::apiserver::Verb;
use flywheel_engine::cluster::divergence::{Divergence, DivergenceFinder};
use flywheel_engine::cluster::markers::{Marker, MarkerKind};
use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::cluster::snapshot::Snapshot;
use flywheel_engine::cluster::timeline::TimelineOptions;
use flywheel_engine::scenario::variant::Variant;
use flywheel_engine::scenario::ScenarioError;
use flywheel_engine::sim::{EventKind, TerminatedReason, TraceEvent};
use flywheel_engine::SimTime;

use crate::config::RunConfig;
use crate::marks::Marks;
use crate::stepping::{self, StepReport, StepTarget};
use crate::tokens::Tokens;
use crate::verdict::LaneStats;

/// Most lines kept in the event log.
pub const LOG_LINES: usize = 300;
/// OOM kills whose times the memory chart keeps.
pub const KILLS_KEPT: usize = 200;
/// Events handled per call into the engine before the page checks its frame budget: a few
/// milliseconds at most even while the incident creates its 150 000 objects (the costliest
/// events in a steady stream), so a frame overruns its budget by little.
pub const CHUNK_EVENTS: u64 = 250;

/// One line of the event log (formatted when shown).
#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    /// Virtual seconds.
    pub time_s: f64,
    /// `ADDED`, `MODIFIED`, `DELETED`, `RECONCILED`, `429`, `OOMKilled`…
    pub event: String,
    /// `namespace/name`, or empty.
    pub key: String,
    /// resourceVersion, when known.
    pub rv: Option<u64>,
    /// generation, when known.
    pub generation: Option<u64>,
    /// The rest (`result=success`, `own write`).
    pub detail: String,
    /// The trace event's id (its ordinal in the run's trace).
    pub id: u64,
}

/// A run and what the page derived from its events.
pub struct Lane {
    /// The engine's run.
    pub run: Run,
    /// The fixes of this lane.
    pub variant: Variant,
    seen: u64,
    /// The run was put back to another instant and not read again yet ([`Lane::reread_later`]).
    stale: bool,
    /// Self-triggered enqueues so far (the engine's running count, read with the snapshot).
    pub loop_count: u64,
    /// What the lane noticed in the events besides the log (flashes, OOM kills, last result).
    pub notes: Notes,
    /// The numbers the stats bar and the pipeline show, read once per refresh.
    pub stats: LaneStats,
    /// Moving tokens.
    pub tokens: Tokens,
    /// The event log, newest last.
    pub log: VecDeque<LogLine>,
    /// The latest snapshot (refreshed each frame).
    pub snapshot: Snapshot,
    /// The timeline's marks, as far as the run has been.
    pub marks: Marks,
    /// The period of the write loop the engine finds among the newest Reconciles (simulated
    /// seconds), read with the stats.
    pub loop_period_s: Option<f64>,
}

impl Lane {
    /// A fresh lane of `config` with `variant`.
    pub fn new(config: &RunConfig, variant: Variant) -> Result<Lane, ScenarioError> {
        let scenario = config.scenario_with(variant)?;
        // The page never shows the trace's hash: folding each line into it would cost 2–5 % of
        // every event.
        let options = RunOptions {
            trace_hash: Some(false),
            ..RunOptions::default()
        };
        let mut run = Run::new(scenario, &options)?;
        run.keep_timeline(TimelineOptions::default());
        run.yield_before_checkpoints();
        let snapshot = run.snapshot();
        Ok(Lane {
            run,
            variant,
            seen: 0,
            stale: false,
            loop_count: 0,
            notes: Notes::default(),
            stats: LaneStats::default(),
            tokens: Tokens::default(),
            log: VecDeque::new(),
            snapshot,
            marks: Marks::default(),
            loop_period_s: None,
        })
    }

    /// Reads the trace events recorded since the last call: tokens, counters, objects, log.
    pub fn ingest(&mut self, wall_ms: f64, animate: bool) {
        if self.stale {
            // what was recorded since the run was put back is read in full, without tokens
            return self.reread();
        }
        self.read(wall_ms, animate, false);
    }

    /// Reads what [`Lane::ingest`] reads; `rereading` (the run was put back to another instant):
    /// the flashes come only from what the trace ring still holds, the instant's recent past.
    fn read(&mut self, wall_ms: f64, animate: bool, rereading: bool) {
        let total = self.run.trace().total();
        // read in place: a copy of each event would touch its key's reference count, a cold
        // line for most of a large run's objects
        let events: Vec<&TraceEvent> = self.run.trace_since(self.seen).collect();
        self.seen = total;
        let first_id = total - events.len() as u64;
        for ev in &events {
            if animate {
                self.tokens.offer(ev, wall_ms);
            }
            self.notes.note(ev, wall_ms);
        }
        // the log keeps its newest LOG_LINES lines: only those are written
        let mut newest: Vec<LogLine> = events
            .iter()
            .enumerate()
            .rev()
            .filter_map(|(i, ev)| log_line(ev, first_id + i as u64))
            .take(LOG_LINES)
            .collect();
        newest.reverse();
        append_newest(&mut self.log, newest);
        self.marks.take(self.run.markers());
        let flash_from = if rereading { first_id } else { 0 };
        self.notes
            .take_markers(self.run.markers(), wall_ms, flash_from);
        self.snapshot = self.run.snapshot();
        self.loop_count = self.snapshot.counts.self_triggered_enqueues;
    }

    /// Reads the run again from the events it still holds, after it was put back to another
    /// instant: the log, the OOM kills and the counters show that instant; tokens stop.
    pub fn reread(&mut self) {
        self.stale = false;
        self.seen = 0;
        self.log.clear();
        self.notes.oom_times.clear();
        self.notes.markers_seen = 0;
        self.tokens = Tokens::default();
        self.notes.last_result.clear();
        self.read(0.0, false, true);
    }

    /// Marks the run as put back to another instant: it is read again by the next
    /// [`Lane::ingest`] or [`Lane::reread`], whichever comes first. A seek that reaches its
    /// instant at once reads the run once, at the instant, instead of also at the checkpoint.
    pub fn reread_later(&mut self) {
        self.stale = true;
    }

    /// Reads the numbers the stats bar and the pipeline show (once per refresh, so both agree).
    pub fn refresh_stats(&mut self) {
        self.stats = LaneStats::of(self);
        // a self-triggered Reconcile needs a self-triggered enqueue: with none counted there is no
        // loop, and the search through the newest Reconciles' causes is skipped
        self.loop_period_s = if self.loop_count == 0 {
            None
        } else {
            self.run.loop_report().map(|r| r.period.as_secs_f64())
        };
    }

    /// The newest value of a series.
    pub fn last_series(&self, key: &str) -> Option<f64> {
        self.run.series(key).and_then(|s| s.last()).map(|p| p.1)
    }

    /// The rate of a counter (per second) over its last `window` seconds of samples.
    pub fn rate(&self, key: &str, window: usize) -> f64 {
        self.run.rate(key, window)
    }

    /// Rate summed over every series of metric `name` with labels whose key contains `part`.
    pub fn labeled_rate(&self, name: &str, part: &str, window: usize) -> f64 {
        self.run.labeled_rate(name, part, window)
    }
}

/// What a lane noticed in its run's events besides the log lines.
#[derive(Clone, Debug)]
pub struct Notes {
    /// Wall ms of the last own-write enqueue (the loop edge glows after it).
    pub loop_flash_ms: f64,
    /// Wall ms of the last OOMKilled.
    pub oom_flash_ms: f64,
    /// Wall ms of the last LIST (relist).
    pub list_flash_ms: f64,
    /// Simulated seconds of the latest OOM kills (at most [`KILLS_KEPT`]).
    pub oom_times: VecDeque<f64>,
    /// Last reconcile result seen.
    pub last_result: String,
    /// How many of the run's markers were read.
    markers_seen: usize,
}

impl Default for Notes {
    fn default() -> Notes {
        Notes {
            loop_flash_ms: f64::NEG_INFINITY,
            oom_flash_ms: f64::NEG_INFINITY,
            list_flash_ms: f64::NEG_INFINITY,
            oom_times: VecDeque::new(),
            last_result: String::new(),
            markers_seen: 0,
        }
    }
}

impl Notes {
    /// Takes the OOM kills and relists among the run's `markers` not read yet (all of them again
    /// when the run was put back to an instant with fewer): the engine finds its markers in every
    /// trace record, so no kill is missed however many events went by since the last read, where
    /// a record can leave the trace ring unread. A marker flashes when its record's id is at
    /// least `flash_from`.
    fn take_markers(&mut self, markers: &[Marker], wall_ms: f64, flash_from: u64) {
        if markers.len() < self.markers_seen {
            self.markers_seen = 0;
            self.oom_times.clear();
        }
        for m in &markers[self.markers_seen..] {
            let flash = m.event.0 >= flash_from;
            match m.kind {
                MarkerKind::OomKilled => {
                    if flash {
                        self.oom_flash_ms = wall_ms;
                    }
                    if self.oom_times.len() >= KILLS_KEPT {
                        self.oom_times.pop_front();
                    }
                    self.oom_times.push_back(m.at.as_secs_f64());
                }
                // the relist's LIST flashes even when its record left the ring unread
                MarkerKind::Relist if flash => self.list_flash_ms = wall_ms,
                _ => {}
            }
        }
        self.markers_seen = markers.len();
    }

    /// Notes what `ev` changes of the loop's and the LIST's flashes and the last result.
    fn note(&mut self, ev: &TraceEvent, wall_ms: f64) {
        match ev.kind {
            EventKind::HandlerEnqueue { own_write: true } => self.loop_flash_ms = wall_ms,
            EventKind::ApiRequest {
                verb: Verb::List, ..
            } => self.list_flash_ms = wall_ms,
            EventKind::Reconciled { result } => result.clone_into(&mut self.last_result),
            _ => {}
        }
    }
}

/// The event log's line for `ev` (the trace's event `id`), if it has one.
fn log_line(ev: &TraceEvent, id: u64) -> Option<LogLine> {
    let line = |event: &str, detail: String, rv: Option<u64>, gen: Option<u64>| LogLine {
        id,
        time_s: ev.time.as_secs_f64(),
        event: event.to_owned(),
        key: ev.key_str().to_owned(),
        rv,
        generation: gen,
        detail,
    };
    let detail = || ev.kind.detail().to_string();
    match ev.kind {
        EventKind::Retry429 { .. } => Some(line("429", detail(), None, None)),
        EventKind::ContainerTerminated {
            reason: TerminatedReason::OOMKilled,
            ..
        } => Some(line("OOMKilled", detail(), None, None)),
        EventKind::ContainerStarted { .. } => Some(line("STARTED", detail(), None, None)),
        EventKind::ContainerTerminated {
            reason: TerminatedReason::Error,
            ..
        } => Some(line("EXITED", detail(), None, None)),
        EventKind::StartingWorkers { .. } => Some(line("SYNCED", detail(), None, None)),
        EventKind::CacheSyncTimeout { .. } => Some(line("SYNC TIMEOUT", detail(), None, None)),
        EventKind::WatchEvent { generation, .. } => {
            let gen = u64::try_from(generation).ok();
            Some(line(ev.event(), String::new(), ev.resource_version, gen))
        }
        EventKind::WatchError { .. } => Some(line(ev.event(), String::new(), None, None)),
        EventKind::Reconciled { .. } => Some(line("RECONCILED", detail(), None, None)),
        EventKind::Created { .. }
        | EventKind::SetResources { .. }
        | EventKind::UserAction { .. } => {
            Some(line(ev.event(), detail(), ev.resource_version, None))
        }
        _ => None,
    }
}

/// Appends `newest` (at most [`LOG_LINES`], oldest first) to `log`, which keeps its newest
/// [`LOG_LINES`].
fn append_newest(log: &mut VecDeque<LogLine>, newest: Vec<LogLine>) {
    let overflow = (log.len() + newest.len()).saturating_sub(LOG_LINES);
    log.drain(..overflow.min(log.len()));
    log.extend(newest);
}

/// One of the page's two runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Side {
    /// The run of the page's settings.
    #[default]
    A,
    /// The run compared with A (its own fixes, the same scenario and clock).
    B,
}

impl Side {
    /// Both sides, A first.
    pub const BOTH: [Side; 2] = [Side::A, Side::B];

    /// 0 for A, 1 for B.
    pub fn index(self) -> usize {
        match self {
            Side::A => 0,
            Side::B => 1,
        }
    }

    /// `A` or `B`, as captions name it.
    pub fn letter(self) -> &'static str {
        match self {
            Side::A => "A",
            Side::B => "B",
        }
    }

    /// `a` or `b`, as element ids end.
    pub fn id(self) -> &'static str {
        match self {
            Side::A => "a",
            Side::B => "b",
        }
    }
}

/// The page's runs: A, and B when comparing.
pub struct Runs {
    /// The A side.
    pub a: Lane,
    /// The B side.
    pub b: Option<Lane>,
    /// Where A and B part, found as they advance (when comparing).
    pub parting: Parting,
}

/// The search for the first event where A and B differ.
#[derive(Clone, Debug, Default)]
pub struct Parting {
    finder: DivergenceFinder,
    /// The records left the trace rings before they were compared (the runs went too fast to
    /// compare): the search stops until the runs are sought back.
    lost: bool,
}

impl Parting {
    /// Compares what A and B recorded since the last call.
    fn advance(&mut self, a: &Run, b: &Run) {
        if self.lost && a.trace().total().min(b.trace().total()) > self.finder.compared() {
            return;
        }
        self.lost = self.finder.advance(a, b).is_err();
    }

    /// The first difference found, if any.
    pub fn found(&self) -> Option<&Divergence> {
        self.finder.found()
    }
}

impl Runs {
    /// Builds A from `config`, and B with `compare`'s fixes.
    pub fn new(config: &RunConfig, compare: Option<Variant>) -> Result<Runs, ScenarioError> {
        let a = Lane::new(config, config.variant)?;
        let b = match compare {
            Some(v) => Some(Lane::new(config, v)?),
            None => None,
        };
        Ok(Runs {
            a,
            b,
            parting: Parting::default(),
        })
    }

    /// The lane the panels show: B for [`Side::B`] when comparing, A otherwise.
    pub fn lane(&self, side: Side) -> &Lane {
        self.side(side).unwrap_or(&self.a)
    }

    /// The lane of `side`, if it runs.
    pub fn side(&self, side: Side) -> Option<&Lane> {
        match side {
            Side::A => Some(&self.a),
            Side::B => self.b.as_ref(),
        }
    }

    /// The lanes.
    pub fn lanes(&self) -> impl Iterator<Item = &Lane> {
        std::iter::once(&self.a).chain(self.b.as_ref())
    }

    /// The lanes, to change.
    pub fn lanes_mut(&mut self) -> impl Iterator<Item = &mut Lane> {
        std::iter::once(&mut self.a).chain(self.b.as_mut())
    }

    /// The shared clock: the slower lane's time.
    pub fn now(&self) -> SimTime {
        self.lanes()
            .map(|l| l.run.now())
            .min()
            .unwrap_or(SimTime::ZERO)
    }

    /// Whether every lane reached its end.
    pub fn is_finished(&self) -> bool {
        self.lanes().all(|l| l.run.is_finished())
    }

    /// Moves both lanes toward `deadline` until `out_of_time()` says the budget is spent;
    /// returns whether the deadline was reached. Automatic checkpoints are taken as they come due.
    pub fn advance(&mut self, deadline: SimTime, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        self.advance_until(deadline, out_of_time, false)
    }

    /// One frame of [`Runs::advance`] for the page's loop. An automatic checkpoint of the
    /// timeline gets frames of its own: copying the incident's state takes longer than a frame's
    /// budget of events, so a frame that finds one due copies pieces of it
    /// ([`Run::take_due_checkpoint`], a piece at most 5 000 entries of a large collection, or one shard of a hash map) until
    /// `no_more_pieces()` and handles no events until it is taken, and a frame that brings one
    /// due ends there. Freeing what a timeline let go (as costly as a copy) comes first, the same
    /// way. Events are handled until `out_of_time()`; the page gives pieces a budget of their own
    /// (a piece of the incident's state can take tens of ms, so a larger budget for events must
    /// not also start pieces later in the frame).
    pub fn advance_frame(
        &mut self,
        deadline: SimTime,
        out_of_time: &mut dyn FnMut() -> bool,
        no_more_pieces: &mut dyn FnMut() -> bool,
    ) -> bool {
        if self.checkpoint_work() {
            while !no_more_pieces() && self.checkpoint_work() {}
            return false;
        }
        self.advance_until(deadline, out_of_time, true)
    }

    /// Frees a piece of what a timeline let go, else copies a piece of a due checkpoint (one
    /// lane's); returns whether there was one.
    fn checkpoint_work(&mut self) -> bool {
        self.lanes_mut().any(|l| l.run.release_one())
            || self.lanes_mut().any(|l| l.run.take_due_checkpoint())
    }

    fn advance_until(
        &mut self,
        deadline: SimTime,
        out_of_time: &mut dyn FnMut() -> bool,
        end_when_checkpoint_due: bool,
    ) -> bool {
        loop {
            let mut behind = false;
            for lane in self.lanes_mut() {
                let before = lane.run.now();
                if before < deadline.min(lane.run.end()) {
                    crate::heap::grow_ahead();
                    lane.run.advance_to(deadline, CHUNK_EVENTS);
                    behind |= lane.run.now() < deadline.min(lane.run.end());
                }
            }
            if !behind {
                return true;
            }
            let due = || self.lanes().any(|l| l.run.checkpoint_due());
            if out_of_time() || (end_when_checkpoint_due && due()) {
                return false;
            }
        }
    }

    /// Steps the lane shown on `side` (B only when comparing) to `target`, then brings the
    /// other lane to the same simulated time.
    pub fn step_to(
        &mut self,
        side: Side,
        target: StepTarget,
        out_of_time: &mut dyn FnMut() -> bool,
    ) -> StepReport {
        let (a, b) = (&mut self.a, self.b.as_mut());
        let (main, other) = match (side, b) {
            (Side::B, Some(b)) => (b, Some(a)),
            (_, b) => (a, b),
        };
        let report = stepping::step_run(&mut main.run, target, out_of_time);
        if let Some(o) = other {
            let t = main.run.now();
            while o.run.now() < t.min(o.run.end()) && o.run.advance_to(t, CHUNK_EVENTS) > 0 {
                crate::heap::grow_ahead();
            }
        }
        report
    }

    /// Reads the stats of every lane (see [`Lane::refresh_stats`]).
    pub fn refresh_stats(&mut self) {
        for lane in self.lanes_mut() {
            lane.refresh_stats();
        }
    }

    /// Reads new trace events on every lane.
    pub fn ingest(&mut self, wall_ms: f64, animate: bool) {
        for lane in self.lanes_mut() {
            lane.tokens.begin_frame(wall_ms);
            lane.ingest(wall_ms, animate);
        }
        if let Some(b) = &self.b {
            self.parting.advance(&self.a.run, &b.run);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flywheel_engine::metrics::names;

    #[test]
    fn a_rate_over_no_series_reads_plus_zero_not_minus_zero() {
        let e = Runs::new(&RunConfig::preset("flywheel"), None).expect("engine");
        let r = e.a.labeled_rate(names::RECONCILE_TOTAL, "", 3);
        assert_eq!(format!("{r:.1}"), "0.0");
    }

    #[test]
    fn a_lane_keeps_its_trace_lines_without_folding_them_into_a_hash_it_never_shows() {
        let mut runs = Runs::new(&RunConfig::preset("flywheel"), None).expect("engine");
        runs.advance(SimTime::from_secs_f64(5.0), &mut || false);
        let trace = runs.a.run.trace();
        assert!(!trace.hashes());
        assert!(trace.total() > 0 && trace.events().next().is_some());
    }

    #[test]
    fn the_log_holds_the_newest_lines_in_order_however_many_a_frame_brings() {
        let config = RunConfig::preset("flywheel");
        let (mut every_second, mut at_once) = (
            Runs::new(&config, None).expect("engine"),
            Runs::new(&config, None).expect("engine"),
        );
        for s in 1..=120 {
            every_second.advance(SimTime::from_secs_f64(f64::from(s)), &mut || false);
            every_second.ingest(0.0, false);
        }
        at_once.advance(SimTime::from_secs_f64(120.0), &mut || false);
        at_once.ingest(0.0, false);
        let (a, b) = (&every_second.a, &at_once.a);
        assert_eq!(
            a.log.len(),
            LOG_LINES,
            "two minutes of the flywheel fill the log"
        );
        assert_eq!(a.log, b.log);
        assert!(a
            .log
            .iter()
            .zip(a.log.iter().skip(1))
            .all(|(x, y)| x.id < y.id));
        assert_eq!(a.notes.last_result, b.notes.last_result);
        assert!(!a.notes.last_result.is_empty());
    }

    #[test]
    fn the_memory_chart_keeps_every_oom_kill_however_many_events_a_read_covers() {
        let mut config = RunConfig::preset("list-full-scan");
        config
            .params
            .insert("duration".to_owned(), "1200s".to_owned());
        let (mut every_ten_s, mut at_once) = (
            Runs::new(&config, None).expect("engine"),
            Runs::new(&config, None).expect("engine"),
        );
        let end_s = 1200.0;
        for s in 1..=120 {
            every_ten_s.advance(SimTime::from_secs_f64(f64::from(s) * 10.0), &mut || false);
            every_ten_s.ingest(0.0, false);
        }
        at_once.advance(SimTime::from_secs_f64(end_s), &mut || false);
        at_once.ingest(1.0, false);
        let trace = at_once.a.run.trace();
        assert!(
            trace.total() > trace.events().len() as u64,
            "the run's first records left the trace ring before the one read"
        );
        let kills = &every_ten_s.a.notes.oom_times;
        assert!(
            kills.len() >= 3,
            "the full scan is OOMKilled again and again: {kills:?}"
        );
        assert!(kills[0] < 30.0, "the first kill comes early: {kills:?}");
        assert_eq!(&at_once.a.notes.oom_times, kills);
        assert_eq!(
            at_once.a.notes.oom_flash_ms, 1.0,
            "the read flashes the kills it found"
        );
    }

    #[test]
    fn a_reread_keeps_every_oom_kill_and_flashes_none_whose_record_left_the_ring() {
        let config = RunConfig::preset("listener-backlog");
        let mut runs = Runs::new(&config, None).expect("engine");
        runs.advance(SimTime::from_secs_f64(150.0), &mut || false);
        runs.a.reread_later();
        runs.ingest(5.0, false);
        let lane = &runs.a;
        let oldest_kept_s = lane
            .run
            .trace()
            .events()
            .next()
            .expect("kept")
            .time
            .as_secs_f64();
        let kills = &lane.notes.oom_times;
        assert!(
            kills.len() >= 2,
            "the backlog is OOMKilled twice: {kills:?}"
        );
        assert!(
            kills.iter().all(|&k| k < oldest_kept_s),
            "no kill is in the ring: {kills:?}, the ring from {oldest_kept_s} s"
        );
        assert_eq!(
            lane.notes.oom_flash_ms,
            f64::NEG_INFINITY,
            "a run put back to an instant shows no banner for a kill long before it"
        );
    }

    #[test]
    fn compared_runs_part_where_the_predicate_drops_the_own_write() {
        let c = RunConfig::preset("subresource-only");
        let b = RunConfig::preset("subresource+predicate").variant;
        // the URL the page's e2e test opens this comparison with
        assert_eq!(
            crate::config::variant_to_str(&b),
            "sub.status-update.pred.ts"
        );
        let mut runs = Runs::new(&c, Some(b)).expect("engine");
        for s in 1..=10 {
            runs.advance(SimTime::from_secs_f64(f64::from(s)), &mut || false);
            runs.ingest(0.0, false);
        }
        let d = runs.parting.found().expect("the runs part");
        assert!(
            d.en.starts_with("B: GenerationChangedPredicate dropped MODIFIED"),
            "{}",
            d.en
        );
    }

    /// Frames of the flywheel to 300 s, each handling events until `events_out_of_time` and
    /// starting pieces of a checkpoint until `pieces_out_of_time`: (all, those that completed a
    /// checkpoint, those that handled no event, those that ended neither at a due checkpoint nor
    /// by completing one).
    fn checkpoint_frames(
        events_out_of_time: bool,
        pieces_out_of_time: bool,
    ) -> (usize, usize, usize, usize) {
        let mut runs = Runs::new(&RunConfig::preset("flywheel"), None).expect("engine");
        let end = SimTime::from_secs_f64(300.0);
        let (mut frames, mut checkpoint_frames, mut copy_frames, mut elsewhere) = (0, 0, 0, 0);
        loop {
            let before = (runs.a.run.events(), runs.a.run.timeline().map(count_marks));
            let reached =
                runs.advance_frame(end, &mut || events_out_of_time, &mut || pieces_out_of_time);
            let after = (runs.a.run.events(), runs.a.run.timeline().map(count_marks));
            frames += 1;
            copy_frames += usize::from(after.0 == before.0);
            if after.1 > before.1 {
                checkpoint_frames += 1;
                assert_eq!(after.0, before.0, "a frame that copies handles no event");
            }
            if reached {
                break;
            }
            elsewhere += usize::from(!runs.a.run.checkpoint_due() && after.1 <= before.1);
        }
        assert_eq!(runs.now(), end);
        assert!(checkpoint_frames >= 2, "{checkpoint_frames} of {frames}");
        (frames, checkpoint_frames, copy_frames, elsewhere)
    }

    #[test]
    fn a_due_checkpoint_gets_a_frame_of_its_own() {
        let (frames, checkpoint_frames, copy_frames, elsewhere) = checkpoint_frames(false, false);
        assert_eq!(
            elsewhere, 0,
            "a frame never out of time ends only at a checkpoint"
        );
        assert_eq!(
            frames - copy_frames,
            checkpoint_frames + 1,
            "step, copy, …, step"
        );
        assert_eq!(
            copy_frames, checkpoint_frames,
            "with time to spare a frame copies every part"
        );
    }

    #[test]
    fn a_frame_out_of_time_copies_one_part_of_a_due_checkpoint() {
        let (_, checkpoint_frames, copy_frames, _) = checkpoint_frames(true, true);
        // the FIFO, the workqueue, its pending causes, then the rest, each in a frame (one frame
        // without an operator)
        assert!(
            (checkpoint_frames..=4 * checkpoint_frames).contains(&copy_frames),
            "{copy_frames} frames copied {checkpoint_frames} checkpoints"
        );
        assert!(copy_frames > checkpoint_frames, "some were copied in parts");
    }

    #[test]
    fn a_frame_with_time_left_for_events_starts_no_piece_past_the_pieces_budget() {
        let one_piece_each = checkpoint_frames(true, true);
        let events_to_spare = checkpoint_frames(false, true);
        assert_eq!(
            (events_to_spare.1, events_to_spare.2),
            (one_piece_each.1, one_piece_each.2),
            "as many checkpoints, each in as many frames of one piece"
        );
        assert!(
            events_to_spare.0 < one_piece_each.0,
            "fewer frames of events"
        );
    }

    fn count_marks(
        t: &flywheel_engine::cluster::timeline::Timeline<
            flywheel_engine::cluster::checkpoint::Checkpoint,
        >,
    ) -> usize {
        t.checkpoints(t.current()).len()
    }

    #[test]
    fn the_loop_edge_has_a_period_only_while_the_operator_triggers_itself() {
        let mut runs = Runs::new(
            &RunConfig::preset("flywheel"),
            Some(RunConfig::preset("fixed").variant),
        )
        .expect("engine");
        runs.advance(SimTime::from_secs_f64(30.0), &mut || false);
        runs.ingest(0.0, false);
        runs.a.refresh_stats();
        let b = runs.b.as_mut().expect("B");
        b.refresh_stats();
        assert!(runs.a.loop_period_s.is_some_and(|p| p > 0.0));
        assert_eq!(runs.b.as_ref().and_then(|b| b.loop_period_s), None);
    }

    #[test]
    fn the_flywheel_loops_and_the_fixed_variant_converges() {
        let c = RunConfig::preset("flywheel");
        let fixed = RunConfig::preset("fixed").variant;
        let mut e = Runs::new(&c, Some(fixed)).expect("engine");
        e.advance(SimTime::from_secs_f64(60.0), &mut || false);
        e.ingest(0.0, true);
        assert!(e.a.loop_count > 50, "A loops: {}", e.a.loop_count);
        let b = e.b.as_ref().expect("B");
        assert_eq!(b.loop_count, 0, "B converged");
        use flywheel_engine::cluster::verdict::Verdict;
        assert_eq!(LaneStats::of(&e.a).verdict(), Verdict::Looping);
        assert_eq!(LaneStats::of(b).verdict(), Verdict::Converged);
        assert_eq!(e.now(), SimTime::from_secs_f64(60.0));
        let keys = e.a.run.object_keys(100);
        assert_eq!(keys.len(), 10);
        let a = e.a.run.inspect(&keys[0]).expect("object");
        assert!(
            a.object.metadata.generation > 10,
            "every full Update bumps generation: {}",
            a.object.metadata.generation
        );
        let b = b.run.inspect(&keys[0]).expect("object");
        assert_eq!(
            b.object.metadata.generation, 1,
            "status writes leave generation alone"
        );
        let gens: Vec<u64> = e.a.log.iter().filter_map(|l| l.generation).collect();
        assert!(
            gens.windows(2).any(|w| w[1] > w[0]),
            "the log shows generation rising"
        );
    }
}
