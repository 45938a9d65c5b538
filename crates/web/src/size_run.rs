//! The "size it" run in budgeted pieces: the scenario the engine's sizing builds
//! ([`flywheel_engine::sizing::build`]) is run and measured the way
//! [`flywheel_engine::sizing::measure`] does — the first LIST one event at a time, then 100 ms
//! slices of simulated time in chunks of events, reading RSS, OOMKilled and the sampled series —
//! but a piece at a time, so the page keeps drawing and shows progress. The e2e test checks that
//! its numbers are the ones `flywheel size --json` prints.

use std::collections::BTreeMap;
use std::time::Duration;

use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::informer::reflector::ReflectorState;
use flywheel_engine::metrics::names;
use flywheel_engine::process::HeapOwner;
use flywheel_engine::scenario::Scenario;
use flywheel_engine::sim::{EventKind, TerminatedReason};
use flywheel_engine::sizing::{self, Family, SizeError, SizeInput};
use flywheel_engine::SimTime;

use crate::config::RunConfig;

/// How often RSS is read between events (virtual time), as the engine's sizing reads it.
const SLICE: Duration = Duration::from_millis(100);
/// Most events handled between two looks at the trace, as the engine's sizing handles them.
const CHUNK_EVENTS: u64 = 4096;

/// What a sizing run measured (the fields of the engine's `SizeReport`).
#[derive(Clone, Debug, PartialEq)]
pub struct SizeNumbers {
    /// Custom resources the first LIST returned.
    pub first_list_objects: u64,
    /// The first LIST's response bytes.
    pub first_list_bytes: u64,
    /// From sending the first LIST to its answer.
    pub first_list_ms: u64,
    /// From the start to the workers starting; `None` when they did not.
    pub cache_sync_ms: Option<u64>,
    /// Pods in the operator's Pod informer cache.
    pub pod_cache_objects: u64,
    /// Live heap bytes by owner just before the relist.
    pub cache_bytes_by_owner: BTreeMap<String, u64>,
    /// RSS just before the relist.
    pub steady_rss_bytes: u64,
    /// How far the relist raised RSS above its steady value.
    pub relist_spike_bytes: u64,
    /// Requests answered per second between the cache sync and the relist.
    pub steady_qps: f64,
    /// The highest RSS in the window.
    pub peak_rss_bytes: u64,
    /// The container's memory limit.
    pub memory_limit_bytes: Option<u64>,
    /// Whether it was OOMKilled in the window.
    pub limit_crossed: bool,
    /// OOM kills in the window.
    pub oom_kills: u64,
}

/// Where the run is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    /// Stepping until the reflector sends its first LIST.
    BeforeList,
    /// Stepping until the LIST is answered (sent at the instant held).
    Listing(SimTime),
    /// Stepping to the end of the answer's instant, counting what arrived.
    Answered(SimTime),
    /// Running slices of simulated time to the end of the window.
    Slices,
}

/// A sizing run under way.
pub struct SizeRun {
    scenario: Scenario,
    run: Run,
    phase: Phase,
    window: Duration,
    relist: SimTime,
    list_objects: u64,
    list_took: Duration,
    seen: u64,
    slice_end: Option<SimTime>,
    oom_killed_at: Option<SimTime>,
    workers_started_s: Option<f64>,
    steady_rss_bytes: u64,
    relist_peak_rss_bytes: u64,
    peak_rss_bytes: u64,
}

/// The window and relist instant of `family` (the engine's constants).
fn window(family: Family) -> (Duration, Duration) {
    match family {
        Family::Incident => (sizing::INCIDENT_WINDOW, sizing::INCIDENT_RELIST_AT),
        Family::ListFullScan => (
            sizing::LIST_FULL_SCAN_WINDOW,
            sizing::LIST_FULL_SCAN_RELIST_AT,
        ),
    }
}

impl SizeRun {
    /// Builds the scenario of `input` with the engine's sizing (its validation names the input).
    pub fn start(input: &SizeInput) -> Result<SizeRun, SizeError> {
        let scenario = sizing::build(input)?;
        let (window, relist_at) = window(input.family);
        let run = Run::new(scenario.clone(), &RunOptions::default())
            .map_err(|error| SizeError { input: "", error })?;
        Ok(SizeRun {
            scenario,
            run,
            phase: Phase::BeforeList,
            window,
            relist: SimTime::ZERO + relist_at,
            list_objects: 0,
            list_took: Duration::ZERO,
            seen: 0,
            slice_end: None,
            oom_killed_at: None,
            workers_started_s: None,
            steady_rss_bytes: 0,
            relist_peak_rss_bytes: 0,
            peak_rss_bytes: 0,
        })
    }

    /// The scenario run (the one "Open as scenario" opens).
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// How much of the window is run (0 … 1).
    pub fn progress(&self) -> f64 {
        (self.run.now().as_secs_f64() / self.window.as_secs_f64()).clamp(0.0, 1.0)
    }

    /// Whether the whole window is run.
    pub fn is_done(&self) -> bool {
        self.phase == Phase::Slices
            && self.slice_end.is_none()
            && (self.run.is_finished() || self.run.budget_exhausted())
    }

    /// Runs pieces until done or `out_of_time` says to stop; true when done.
    pub fn advance(&mut self, out_of_time: impl Fn() -> bool) -> bool {
        while !self.is_done() {
            self.piece();
            if out_of_time() {
                break;
            }
        }
        self.is_done()
    }

    /// One piece: up to 64 single steps before the first LIST is in, else one chunk of events.
    fn piece(&mut self) {
        for _ in 0..64 {
            match self.phase {
                Phase::Slices => return self.slice_chunk(),
                Phase::BeforeList | Phase::Listing(_) | Phase::Answered(_) => self.list_step(),
            }
        }
    }

    /// Whether the reflector is listing.
    fn listing(&self) -> bool {
        self.run.snapshot().operator.is_some_and(|o| {
            matches!(
                o.reflector_state,
                ReflectorState::Listing { .. } | ReflectorState::WatchListing { .. }
            )
        })
    }

    /// One step of the first LIST's measurement.
    fn list_step(&mut self) {
        match self.phase {
            Phase::BeforeList if self.listing() => self.phase = Phase::Listing(self.run.now()),
            Phase::Listing(sent) if !self.listing() => {
                self.list_took = self.run.now().saturating_since(sent);
                self.phase = Phase::Answered(self.run.now());
            }
            Phase::Answered(answered) => {
                if let Some(o) = self.run.snapshot().operator {
                    self.list_objects = self.list_objects.max(o.fifo_len + o.cache_objects);
                }
                if self.run.now() > answered || !self.run.step() {
                    self.begin_slices();
                }
            }
            _ => {
                if !self.run.step() {
                    self.list_objects = 0;
                    self.list_took = Duration::ZERO;
                    self.begin_slices();
                }
            }
        }
    }

    fn begin_slices(&mut self) {
        self.seen = self.run.trace().total();
        self.phase = Phase::Slices;
    }

    /// One chunk of events of the current slice; the slice's end reads the snapshot.
    fn slice_chunk(&mut self) {
        if self.slice_end.is_none() {
            if self.run.is_finished() || self.run.budget_exhausted() {
                return;
            }
            self.slice_end = Some(self.run.now() + SLICE);
        }
        let end = self.slice_end.unwrap_or(self.run.now());
        let mut slice_over = self.run.now() >= end || self.run.is_finished();
        if !slice_over {
            if self.run.advance_to(end, CHUNK_EVENTS) == 0 {
                slice_over = true;
            } else {
                self.read_trace();
                self.seen = self.run.trace().total();
                slice_over = self.run.now() >= end || self.run.is_finished();
            }
        }
        if slice_over {
            self.read_snapshot();
            self.slice_end = None;
        }
    }

    /// Notes the first OOMKilled in the trace since the last look.
    fn read_trace(&mut self) {
        if self.oom_killed_at.is_some() {
            return;
        }
        self.oom_killed_at = self
            .run
            .trace_since(self.seen)
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

    /// Reads RSS and whether the workers started.
    fn read_snapshot(&mut self) {
        let s = self.run.snapshot();
        if self.workers_started_s.is_none() {
            self.workers_started_s = s.workers_started_s;
        }
        self.peak_rss_bytes = self.peak_rss_bytes.max(s.rss_bytes);
        if self.run.now() < self.relist {
            self.steady_rss_bytes = s.rss_bytes;
        } else {
            self.relist_peak_rss_bytes = self.relist_peak_rss_bytes.max(s.rss_bytes);
        }
    }

    /// The numbers measured (complete once [`SizeRun::is_done`]).
    pub fn numbers(&self) -> SizeNumbers {
        let series = Series(&self.run);
        let before_relist_s = self.relist.as_secs_f64() - 1.0;
        let sync_s = self.workers_started_s.unwrap_or(0.0);
        SizeNumbers {
            first_list_objects: self.list_objects,
            first_list_bytes: self.list_objects * self.scenario.objects.size_bytes,
            first_list_ms: millis(self.list_took),
            cache_sync_ms: self
                .workers_started_s
                .map(|s| millis(Duration::from_secs_f64(s))),
            pod_cache_objects: series.max(names::POD_CACHE_ITEMS) as u64,
            cache_bytes_by_owner: series.heap_by_owner(before_relist_s),
            steady_rss_bytes: self.steady_rss_bytes,
            relist_spike_bytes: self
                .relist_peak_rss_bytes
                .saturating_sub(self.steady_rss_bytes),
            steady_qps: series.request_rate(sync_s, before_relist_s),
            peak_rss_bytes: self.peak_rss_bytes,
            memory_limit_bytes: self.scenario.process.memory_limit,
            limit_crossed: self.oom_killed_at.is_some(),
            oom_kills: self.run.snapshot().counts.oom_kills,
        }
    }
}

/// The page's configuration for a sizing scenario: the family's preset with every setting the
/// numbers changed, at its path ("Open as scenario"). The sizing window and its relist are the
/// measurement's, not the scenario's, so the page runs the preset's own length.
pub fn as_config(family: Family, scenario: &Scenario) -> RunConfig {
    let base = RunConfig::preset(family.preset());
    let before = flywheel_engine::settings::current(&base.base());
    let mut config = base.clone();
    for (path, value) in flywheel_engine::settings::current(scenario) {
        if before.get(path) != Some(&value) {
            if let Ok(c) = config.with_setting(path, &value) {
                config = c;
            }
        }
    }
    config
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
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
    fn heap_by_owner(&self, t_s: f64) -> BTreeMap<String, u64> {
        HeapOwner::ALL
            .into_iter()
            .map(|owner| {
                (
                    owner.label().to_owned(),
                    self.at(owner.live_bytes_key(), t_s) as u64,
                )
            })
            .collect()
    }

    /// Requests answered per second from `from_s` to `to_s` (every verb and code).
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

#[cfg(test)]
mod tests {
    use super::*;
    use flywheel_engine::sizing::KindCount;

    #[test]
    fn the_run_in_pieces_measures_what_the_engines_sizing_measures() {
        let mut input = SizeInput::new(Family::ListFullScan);
        input.custom = Some(KindCount {
            objects: 20,
            size_bytes: 4096,
        });
        input.pods = Some(KindCount {
            objects: 400,
            size_bytes: 8192,
        });
        let want = sizing::size(&input).expect("the engine sizes it");
        let mut run = SizeRun::start(&input).expect("starts");
        let pieces = std::cell::Cell::new(0);
        while !run.advance(|| {
            pieces.set(pieces.get() + 1);
            true
        }) {}
        assert!(pieces.get() > 10, "it ran in {} pieces", pieces.get());
        let got = run.numbers();
        assert_eq!(got.first_list_objects, want.first_list_objects);
        assert_eq!(got.first_list_bytes, want.first_list_bytes);
        assert_eq!(got.first_list_ms, want.first_list_ms);
        assert_eq!(got.cache_sync_ms, want.cache_sync_ms);
        assert_eq!(got.pod_cache_objects, want.pod_cache_objects);
        assert_eq!(got.cache_bytes_by_owner, want.cache_bytes_by_owner);
        assert_eq!(got.steady_rss_bytes, want.steady_rss_bytes);
        assert_eq!(got.relist_spike_bytes, want.relist_spike_bytes);
        assert_eq!(got.steady_qps, want.steady_qps);
        assert_eq!(got.peak_rss_bytes, want.peak_rss_bytes);
        assert_eq!(got.limit_crossed, want.limit_crossed);
        assert_eq!(got.oom_kills, want.oom_kills);
        assert_eq!(run.scenario(), want.scenario());
    }

    #[test]
    fn opened_as_scenario_the_numbers_are_the_family_presets_settings() {
        let mut input = SizeInput::new(Family::Incident);
        input.workers = Some(7);
        input.memory_limit_bytes = Some(3 << 30);
        let scenario = sizing::build(&input).expect("builds");
        let config = as_config(Family::Incident, &scenario);
        assert_eq!(config.preset, "seed-000-incident");
        assert_eq!(
            config.params.get("controller.workers").map(String::as_str),
            Some("7")
        );
        assert!(
            config.params.contains_key("process.memory_limit"),
            "{:?}",
            config.params
        );
        let page = config
            .scenario()
            .expect("the page's configuration is valid");
        assert_eq!(page.controller.workers, 7);
    }
}
