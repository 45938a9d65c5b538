//! Runs a sizing scenario and reads the numbers off the run through its public API: the
//! reflector's state for the first LIST, the trace for OOMKilled, snapshots for RSS, and the
//! sampled series for the heap by owner and the request rate.

use std::collections::BTreeMap;
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
    let (window, relist_at) = window(family);
    let mut run = Run::new(scenario.clone(), &RunOptions::default())
        .map_err(|error| SizeError { input: "", error })?;
    let list = first_list(&mut run);
    let mut seen = run.trace().total();
    let mut watch = Watch::default();
    let relist = SimTime::ZERO + relist_at;
    while !run.is_finished() && !run.budget_exhausted() {
        let slice_end = run.now() + SLICE;
        while run.now() < slice_end && !run.is_finished() {
            if run.advance_to(slice_end, CHUNK_EVENTS) == 0 {
                break;
            }
            watch.read_trace(&run, seen);
            seen = run.trace().total();
        }
        watch.read_snapshot(&run, relist);
    }
    let snapshot = run.snapshot();
    let series = Series(&run);
    let before_relist_s = relist_at.as_secs_f64() - 1.0;
    let sync_s = watch.workers_started_s.unwrap_or(0.0);
    let steady_qps = series.request_rate(sync_s, before_relist_s);
    let pod_cache_objects = series.max(names::POD_CACHE_ITEMS) as u64;
    Ok(SizeReport {
        family,
        window_ms: millis(window),
        relist_at_ms: millis(relist_at),
        first_list_objects: list.objects,
        first_list_bytes: list.objects * scenario.objects.size_bytes,
        first_list_ms: millis(list.took),
        cache_sync_ms: watch
            .workers_started_s
            .map(|s| millis(Duration::from_secs_f64(s))),
        pod_cache_objects,
        cache_bytes_by_owner: series.heap_by_owner(before_relist_s),
        steady_rss_bytes: watch.steady_rss_bytes,
        relist_peak_rss_bytes: watch.relist_peak_rss_bytes,
        relist_spike_bytes: watch
            .relist_peak_rss_bytes
            .saturating_sub(watch.steady_rss_bytes),
        steady_qps,
        peak_rss_bytes: watch.peak_rss_bytes,
        memory_limit_bytes: scenario.process.memory_limit,
        limit_crossed: watch.oom_killed_at.is_some(),
        oom_killed_at_ms: watch
            .oom_killed_at
            .map(|t| millis(t.saturating_since(SimTime::ZERO))),
        oom_kills: snapshot.counts.oom_kills,
        scenario,
    })
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

/// Steps the run one event at a time until the first LIST is answered (the reflector leaves
/// `Listing`), then to the end of that instant, when the whole response is in the informer.
fn first_list(run: &mut Run) -> FirstList {
    let listing = |run: &Run| {
        run.snapshot().operator.is_some_and(|o| {
            matches!(
                o.reflector_state,
                ReflectorState::Listing { .. } | ReflectorState::WatchListing { .. }
            )
        })
    };
    while !listing(run) {
        if !run.step() {
            return FirstList::default();
        }
    }
    let sent = run.now();
    while listing(run) {
        if !run.step() {
            return FirstList::default();
        }
    }
    let answered = run.now();
    let mut objects = 0;
    loop {
        if let Some(o) = run.snapshot().operator {
            objects = objects.max(o.fifo_len + o.cache_objects);
        }
        if run.now() > answered || !run.step() {
            break;
        }
    }
    FirstList {
        objects,
        took: answered.saturating_since(sent),
    }
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
    fn heap_by_owner(&self, t_s: f64) -> BTreeMap<String, u64> {
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
