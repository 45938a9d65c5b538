//! Runs a sizing scenario and reads the numbers off the run through its public API: the
//! reflector's state for the first LIST, the trace for OOMKilled, snapshots for RSS, and the
//! sampled series for the heap by owner and the request rate.

use std::time::Duration;

use super::build::{build, window};
use super::input::{Family, SizeError, SizeInput};
use super::report::SizeReport;
use crate::cluster::run::{Run, RunOptions};
use crate::informer::reflector::ReflectorState;
use crate::metrics::names;
use crate::process::HeapOwner;
use crate::scenario::Scenario;
use crate::sim::{EventKind, TerminatedReason};
use crate::time::SimTime;
use crate::vec_map::VecMap;

/// How often RSS is read between events (virtual time).
const SLICE: Duration = Duration::from_millis(100);
/// Most events handled between two looks at the trace: fewer than its ring keeps.
const CHUNK_EVENTS: u64 = 4096;

/// Builds the scenario of `input` ([`build`]), runs it and measures it.
pub fn size(input: &SizeInput) -> Result<SizeReport, SizeError> {
    measure(input.family, build(input)?)
}

/// Runs `scenario` (one that [`build`] made for `family`) and measures it.
pub fn measure(family: Family, scenario: Scenario) -> Result<SizeReport, SizeError> {
    let mut m = Measurer::new(family, scenario)?;
    m.advance(&mut || false);
    Ok(m.report())
}

/// Where a measuring run is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    /// Stepping one event at a time until the reflector sends its first LIST.
    BeforeList,
    /// Stepping until the LIST is answered (sent at the instant held).
    Listing(SimTime),
    /// Stepping to the end of the answer's instant, counting what arrived in the informer.
    Answered(SimTime),
    /// Running slices of [`SLICE`] to the end of the window, reading RSS after each.
    Slices,
}

/// A sizing run that advances a piece at a time, so a front end can draw between the pieces
/// and show [`Measurer::progress`]; [`measure`] runs one to the end at once.
///
/// ```
/// use flywheel_engine::sizing::{build, Family, Measurer, SizeInput};
///
/// let input = SizeInput::new(Family::ListFullScan);
/// let mut m = Measurer::new(input.family, build(&input).unwrap()).unwrap();
/// while !m.advance(&mut || true) {} // one piece per call
/// assert!(m.report().first_list_objects > 0);
/// ```
pub struct Measurer {
    family: Family,
    scenario: Scenario,
    run: Run,
    phase: Phase,
    window: Duration,
    relist: SimTime,
    list: FirstList,
    seen: u64,
    slice_end: Option<SimTime>,
    watch: Watch,
}

impl Measurer {
    /// A run of `scenario` (one that [`build`] made for `family`), not yet started.
    pub fn new(family: Family, scenario: Scenario) -> Result<Measurer, SizeError> {
        let (window, relist_at) = window(family);
        let run = Run::new(scenario.clone(), &RunOptions::default())
            .map_err(|error| SizeError { input: "", error })?;
        Ok(Measurer {
            family,
            scenario,
            run,
            phase: Phase::BeforeList,
            window,
            relist: SimTime::ZERO + relist_at,
            list: FirstList::default(),
            seen: 0,
            slice_end: None,
            watch: Watch::default(),
        })
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// How much of the window has run (0 … 1).
    pub fn progress(&self) -> f64 {
        (self.run.now().as_secs_f64() / self.window.as_secs_f64()).clamp(0.0, 1.0)
    }

    /// Whether the window has run to its end (or the run stopped).
    pub fn is_done(&self) -> bool {
        self.phase == Phase::Slices
            && self.slice_end.is_none()
            && (self.run.is_finished() || self.run.budget_exhausted())
    }

    /// Runs pieces (a few dozen events, or one chunk of a slice) until done or `out_of_time()`;
    /// returns whether it is done.
    pub fn advance(&mut self, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        while !self.is_done() {
            self.piece();
            if out_of_time() {
                break;
            }
        }
        self.is_done()
    }

    /// What was measured so far (the whole report once [`Measurer::is_done`]).
    pub fn report(&self) -> SizeReport {
        let (window, relist_at) = window(self.family);
        let series = Series(&self.run);
        let before_relist_s = relist_at.as_secs_f64() - 1.0;
        let watch = &self.watch;
        let sync_s = watch.workers_started_s.unwrap_or(0.0);
        SizeReport {
            family: self.family,
            window_ms: millis(window),
            relist_at_ms: millis(relist_at),
            first_list_objects: self.list.objects,
            first_list_bytes: self.list.objects * self.scenario.objects.size_bytes,
            first_list_ms: millis(self.list.took),
            cache_sync_ms: watch
                .workers_started_s
                .map(|s| millis(Duration::from_secs_f64(s))),
            pod_cache_objects: series.max(names::POD_CACHE_ITEMS) as u64,
            cache_bytes_by_owner: series.heap_by_owner(before_relist_s),
            steady_rss_bytes: watch.steady_rss_bytes,
            relist_peak_rss_bytes: watch.relist_peak_rss_bytes,
            relist_spike_bytes: watch
                .relist_peak_rss_bytes
                .saturating_sub(watch.steady_rss_bytes),
            steady_qps: series.request_rate(sync_s, before_relist_s),
            peak_rss_bytes: watch.peak_rss_bytes,
            memory_limit_bytes: self.scenario.process.memory_limit,
            limit_crossed: watch.oom_killed_at.is_some(),
            oom_killed_at_ms: watch
                .oom_killed_at
                .map(|t| millis(t.saturating_since(SimTime::ZERO))),
            oom_kills: self.run.snapshot().counts.oom_kills,
            scenario: self.scenario.clone(),
        }
    }

    /// One piece: up to 64 single steps of the first LIST, or one chunk of a slice.
    fn piece(&mut self) {
        for _ in 0..64 {
            if self.phase == Phase::Slices {
                return self.slice_chunk();
            }
            self.list_step();
        }
    }

    fn listing(&self) -> bool {
        self.run.snapshot().operator.is_some_and(|o| {
            matches!(
                o.reflector_state,
                ReflectorState::Listing { .. } | ReflectorState::WatchListing { .. }
            )
        })
    }

    /// One step of the first LIST: the instant it is sent, the instant it is answered, then
    /// what arrived by the end of that instant.
    fn list_step(&mut self) {
        match self.phase {
            Phase::BeforeList if self.listing() => self.phase = Phase::Listing(self.run.now()),
            Phase::Listing(sent) if !self.listing() => {
                self.list.took = self.run.now().saturating_since(sent);
                self.phase = Phase::Answered(self.run.now());
            }
            Phase::Answered(answered) => {
                if let Some(o) = self.run.snapshot().operator {
                    self.list.objects = self.list.objects.max(o.fifo_len + o.cache_objects);
                }
                if self.run.now() > answered || !self.run.step() {
                    self.begin_slices();
                }
            }
            _ => {
                if !self.run.step() {
                    self.list = FirstList::default();
                    self.begin_slices();
                }
            }
        }
    }

    fn begin_slices(&mut self) {
        self.seen = self.run.trace().total();
        self.phase = Phase::Slices;
    }

    /// Up to [`CHUNK_EVENTS`] events of the current slice; RSS is read when the slice ends.
    fn slice_chunk(&mut self) {
        let end = match self.slice_end {
            Some(end) => end,
            None if self.run.is_finished() || self.run.budget_exhausted() => return,
            None => *self.slice_end.insert(self.run.now() + SLICE),
        };
        let mut over = self.run.now() >= end || self.run.is_finished();
        if !over {
            if self.run.advance_to(end, CHUNK_EVENTS) == 0 {
                over = true;
            } else {
                self.watch.read_trace(&self.run, self.seen);
                self.seen = self.run.trace().total();
                over = self.run.now() >= end || self.run.is_finished();
            }
        }
        if over {
            self.watch.read_snapshot(&self.run, self.relist);
            self.slice_end = None;
        }
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The operator's first LIST: what it returned and how long it took.
#[derive(Default)]
struct FirstList {
    objects: u64,
    took: Duration,
}

/// What the stepping loop keeps.
#[derive(Default)]
struct Watch {
    oom_killed_at: Option<SimTime>,
    workers_started_s: Option<f64>,
    steady_rss_bytes: u64,
    relist_peak_rss_bytes: u64,
    peak_rss_bytes: u64,
}

impl Watch {
    /// Notes the first OOMKilled among the trace events after `seen`.
    fn read_trace(&mut self, run: &Run, seen: u64) {
        if self.oom_killed_at.is_some() {
            return;
        }
        self.oom_killed_at = run
            .trace_since(seen)
            .find(|e| {
                matches!(
                    e.kind,
                    EventKind::ContainerTerminated {
                        reason: TerminatedReason::OOMKilled,
                        ..
                    }
                )
            })
            .map(|e| e.time);
    }

    /// Reads the RSS and whether the workers started.
    fn read_snapshot(&mut self, run: &Run, relist: SimTime) {
        let s = run.snapshot();
        if self.workers_started_s.is_none() {
            self.workers_started_s = s.workers_started_s;
        }
        self.peak_rss_bytes = self.peak_rss_bytes.max(s.rss_bytes);
        if run.now() < relist {
            self.steady_rss_bytes = s.rss_bytes;
        } else {
            self.relist_peak_rss_bytes = self.relist_peak_rss_bytes.max(s.rss_bytes);
        }
    }
}

/// The run's sampled series.
struct Series<'a>(&'a Run);

impl Series<'_> {
    /// The last sample of `key` at or before `t_s` (0 when none).
    fn at(&self, key: &str, t_s: f64) -> f64 {
        self.0
            .series(key)
            .and_then(|points| points.iter().rev().find(|(t, _)| *t <= t_s))
            .map_or(0.0, |(_, v)| *v)
    }

    /// The highest sample of `key` (0 when none).
    fn max(&self, key: &str) -> f64 {
        self.0
            .series(key)
            .map_or(0.0, |points| points.iter().map(|p| p.1).fold(0.0, f64::max))
    }

    /// Live heap bytes by owner at `t_s`.
    fn heap_by_owner(&self, t_s: f64) -> VecMap<String, u64> {
        HeapOwner::ALL
            .into_iter()
            .map(|owner| {
                let bytes = self.at(owner.live_bytes_key(), t_s) as u64;
                (owner.label().to_owned(), bytes)
            })
            .collect()
    }

    /// Requests the API server answered per second from `from_s` to `to_s` (every verb and code).
    fn request_rate(&self, from_s: f64, to_s: f64) -> f64 {
        if to_s <= from_s {
            return 0.0;
        }
        let prefix = names::labeled_prefix(names::APISERVER_REQUEST_TOTAL);
        let total = |t_s: f64| -> f64 {
            self.0
                .series_keys()
                .filter(|k| k.starts_with(&prefix))
                .map(|k| self.at(k, t_s))
                .sum()
        };
        (total(to_s) - total(from_s)) / (to_s - from_s)
    }
}
