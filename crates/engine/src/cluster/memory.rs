//! The operator's Go process in its pod, as the cluster uses them: heap accounting by owner, the
//! GC's CPU share, RSS against the container limit, OOMKilled and CrashLoopBackOff.

use std::cell::Cell;

use crate::metrics::names;
use crate::process::{
    stretch_for_gc, ContainerExit, ContainerState, GcConfig, GoProcess, GoProcessConfig, Gogc,
    HeapOwner, Pod, PodConfig, TerminationReason,
};
use crate::scenario::{Scenario, ScenarioError};
use crate::time::SimTime;

/// Goroutines a controller-runtime manager runs besides its workers (informer loops, the
/// listener's pop/run pair, metrics and health servers, leader election, the client's transports).
const BASE_GOROUTINES: u64 = 24;

/// The operator container's state as `kubectl get pod` shows it (`v1.ContainerState` reduced to
/// the STATUS column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(into = "&'static str", try_from = "std::borrow::Cow<'_, str>")]
pub enum PodState {
    /// The container runs.
    #[default]
    Running,
    /// The kubelet waits out its back-off before restarting the container.
    CrashLoopBackOff,
    /// The container terminated and restarts at once (the first crash).
    Terminated(TerminationReason),
}

impl PodState {
    /// `Running`, `CrashLoopBackOff`, or the termination's reason (`OOMKilled`, `Error`).
    pub fn as_str(self) -> &'static str {
        match self {
            PodState::Running => "Running",
            PodState::CrashLoopBackOff => "CrashLoopBackOff",
            PodState::Terminated(reason) => reason.as_str(),
        }
    }

    /// Whether the container runs.
    pub fn is_running(self) -> bool {
        self == PodState::Running
    }
}

impl From<PodState> for &'static str {
    fn from(state: PodState) -> &'static str {
        state.as_str()
    }
}

/// Reads [`PodState::as_str`]'s words back.
impl TryFrom<std::borrow::Cow<'_, str>> for PodState {
    type Error = String;

    fn try_from(text: std::borrow::Cow<'_, str>) -> Result<PodState, String> {
        use crate::process::TerminationReason as R;
        [
            PodState::Running,
            PodState::CrashLoopBackOff,
            PodState::Terminated(R::OomKilled),
            PodState::Terminated(R::Error),
            PodState::Terminated(R::Completed),
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
        .ok_or_else(|| format!("unknown container state {text}"))
    }
}

impl std::fmt::Display for PodState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the page shows of the pod.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PodView {
    /// The container's state.
    pub state: PodState,
    /// Why the container last terminated, once it has.
    pub last_exit: Option<TerminationReason>,
    /// Container restarts.
    pub restarts: u64,
    /// Seconds until the next restart while waiting.
    pub restart_in_s: Option<f64>,
    /// Go heap in use.
    pub heap_bytes: u64,
    /// Resident set size.
    pub rss_bytes: u64,
    /// The memory limit.
    pub memory_limit_bytes: Option<u64>,
}

/// `kube_pod_container_status_last_terminated_reason{reason="…"}` of `reason`, written out: it
/// is set every sample once a container has terminated.
fn last_terminated_reason_key(reason: TerminationReason) -> &'static str {
    match reason {
        TerminationReason::OomKilled => {
            "kube_pod_container_status_last_terminated_reason{reason=\"OOMKilled\"}"
        }
        TerminationReason::Error => {
            "kube_pod_container_status_last_terminated_reason{reason=\"Error\"}"
        }
        TerminationReason::Completed => {
            "kube_pod_container_status_last_terminated_reason{reason=\"Completed\"}"
        }
    }
}

/// The pod and, while its container runs, the Go process in it.
#[derive(Clone)]
pub struct SimProcess {
    config: GoProcessConfig,
    baseline_bytes: u64,
    pod: Pod,
    go: Option<GoProcess>,
    started_once: bool,
    /// The last stretch worked out: the GC's CPU share (its bits) and the factor it gave. The
    /// share holds for the length of a mark, and the factor is asked for at every step of the
    /// operator's work.
    last_slowdown: Cell<(u64, f64)>,
}

impl SimProcess {
    /// The pod of `scenario`'s operator (its container not yet started).
    pub fn new(scenario: &Scenario) -> Result<SimProcess, ScenarioError> {
        let p = &scenario.process;
        let gogc = if p.gogc == 0 {
            Gogc::Off
        } else {
            Gogc::Percent(p.gogc)
        };
        let config = GoProcessConfig {
            gc: GcConfig {
                gogc,
                memory_limit_bytes: p.gomemlimit,
                ..GcConfig::default()
            },
            ..GoProcessConfig::default()
        };
        config.validate().map_err(|e| field_err("process", e))?;
        let pod_config = PodConfig {
            memory_limit_bytes: p.memory_limit,
            ..PodConfig::default()
        };
        let pod = Pod::new(pod_config, SimTime::ZERO).map_err(|e| field_err("process", e))?;
        Ok(SimProcess {
            config,
            baseline_bytes: p.baseline,
            pod,
            go: None,
            started_once: false,
            last_slowdown: Cell::new((0.0_f64.to_bits(), 1.0)),
        })
    }

    /// Heap accounting errors of the running process (a free of more than was allocated).
    pub fn heap_accounting_errors(&self) -> u64 {
        self.go.as_ref().map_or(0, |g| g.heap().accounting_errors())
    }

    /// Starts the container if the kubelet may (first start, or its backoff is over).
    pub fn start_container(&mut self, now: SimTime) -> bool {
        let may = if self.started_once {
            self.pod.restart_if_due(now)
        } else {
            true
        };
        if !may {
            return false;
        }
        self.started_once = true;
        let Ok(mut go) = GoProcess::new(self.config.clone(), now) else {
            return false;
        };
        go.alloc(HeapOwner::Baseline, self.baseline_bytes, now);
        go.spawn_goroutines(BASE_GOROUTINES);
        self.go = Some(go);
        true
    }

    /// CPU work stretches by the GC's share of the CPU (mark workers and assists).
    pub fn slowdown(&self, now: SimTime) -> f64 {
        let fraction = self.go.as_ref().map_or(0.0, |g| g.gc_cpu_fraction(now));
        if fraction <= 0.0 {
            // what the stretch below gives without a GC's share (a test holds the two equal)
            return 1.0;
        }
        let (last_fraction, last_factor) = self.last_slowdown.get();
        if fraction.to_bits() == last_fraction {
            return last_factor;
        }
        let unit = std::time::Duration::from_millis(1);
        let factor = stretch_for_gc(unit, fraction).as_secs_f64() / unit.as_secs_f64();
        self.last_slowdown.set((fraction.to_bits(), factor));
        factor
    }

    /// A LIST response decoded: its buffer is garbage once the items are in the FIFO.
    pub fn list_response(&mut self, bytes: u64, now: SimTime) {
        if let Some(go) = self.go.as_mut() {
            go.alloc_transient(HeapOwner::ListCopies, bytes, now);
        }
    }

    /// `bytes` allocated by `owner` and dropped at once (garbage for the next GC cycle).
    pub fn alloc_garbage(&mut self, owner: HeapOwner, bytes: u64, now: SimTime) {
        if let Some(go) = self.go.as_mut() {
            go.alloc_transient(owner, bytes, now);
        }
    }

    /// A watch event decoded: its frame is garbage once the object is in the FIFO.
    pub fn decode_event(&mut self, bytes: u64, now: SimTime) {
        if let Some(go) = self.go.as_mut() {
            go.alloc_transient(HeapOwner::WatchBuffers, bytes, now);
        }
    }

    /// Sets each owner's live bytes (growth allocates, shrinkage becomes garbage), keeps one
    /// goroutine per worker, and lets the GC and scavenger run.
    pub fn set_owners(&mut self, owners: &[(HeapOwner, u64)], workers: u64, now: SimTime) {
        let Some(go) = self.go.as_mut() else { return };
        for (owner, target) in owners {
            let current = go.heap().live_bytes_of(*owner);
            if *target > current {
                go.alloc(*owner, target - current, now);
            } else if *target < current {
                go.free(*owner, current - target);
            }
        }
        let want = BASE_GOROUTINES + workers;
        let have = go.goroutines();
        if want > have {
            go.spawn_goroutines(want - have);
        }
        go.advance(now);
    }

    /// The kernel's verdict: RSS over the limit kills the container. Returns the restart time.
    pub fn check_oom(&mut self, now: SimTime) -> Option<SimTime> {
        let go = self.go.as_ref()?;
        // no limit, no verdict: the resident breakdown is not worth building after every event
        self.pod.memory_limit_bytes()?;
        let restart_at = self.pod.check_oom(go.rss_bytes(), now)?;
        self.go = None;
        Some(restart_at)
    }

    /// The container is killed (exit code 137 without OOM); returns the restart time.
    pub fn kill(&mut self, now: SimTime) -> SimTime {
        self.exit(137, now)
    }

    /// The process exits with `exit_code` (reason `Error` unless 0); returns the restart time.
    pub fn exit(&mut self, exit_code: i32, now: SimTime) -> SimTime {
        self.go = None;
        self.pod
            .on_container_exit(ContainerExit::exited(exit_code), now)
            .unwrap_or(now)
    }

    /// Visits the metric values of the process and the pod, as `(key, value)`.
    pub fn gauges(&self, now: SimTime, mut visit: impl FnMut(&'static str, f64)) {
        visit(
            names::POD_RESTARTS_TOTAL,
            f64::from(self.pod.restart_count()),
        );
        visit(
            names::MEMORY_LIMIT_BYTES,
            self.pod.memory_limit_bytes().unwrap_or(0) as f64,
        );
        if let Some(reason) = self.pod.last_terminated_reason() {
            visit(last_terminated_reason_key(reason), 1.0);
        }
        let (heap, goal, goroutines, gcs, rss, gc_cpu) = match &self.go {
            Some(g) => {
                let m = g.metrics();
                (
                    m.go_memstats_heap_alloc_bytes,
                    m.go_memstats_next_gc_bytes,
                    m.go_goroutines,
                    m.go_gc_duration_seconds_count,
                    g.rss_bytes(),
                    g.gc_cpu_fraction(now),
                )
            }
            None => (0, 0, 0, 0, 0, 0.0),
        };
        visit(names::GO_HEAP_ALLOC_BYTES, heap as f64);
        visit(names::GO_NEXT_GC_BYTES, goal as f64);
        visit(names::GO_GOROUTINES, goroutines as f64);
        visit(names::GO_GC_COUNT, gcs as f64);
        visit(names::PROCESS_RESIDENT_MEMORY_BYTES, rss as f64);
        visit(names::GC_CPU_FRACTION, gc_cpu);
        if let Some(go) = &self.go {
            for owner in HeapOwner::ALL {
                visit(
                    owner.live_bytes_key(),
                    go.heap().live_bytes_of(owner) as f64,
                );
            }
        }
    }

    /// The pod as the page shows it.
    pub fn pod_view(&self, now: SimTime) -> PodView {
        let state = match self.pod.state() {
            ContainerState::Running { .. } => PodState::Running,
            ContainerState::Waiting(_) => PodState::CrashLoopBackOff,
            ContainerState::Terminated(t) => PodState::Terminated(t.reason),
        };
        PodView {
            state,
            last_exit: self.pod.last_terminated_reason(),
            restarts: u64::from(self.pod.restart_count()),
            restart_in_s: self
                .pod
                .next_restart_at()
                .map(|t| t.saturating_since(now).as_secs_f64()),
            heap_bytes: self.go.as_ref().map_or(0, |g| g.heap().heap_bytes()),
            rss_bytes: self
                .go
                .as_ref()
                .map_or(0, super::super::process::runtime::GoProcess::rss_bytes),
            memory_limit_bytes: self.pod.memory_limit_bytes(),
        }
    }
}

fn field_err(prefix: &str, e: crate::error::ConfigError) -> ScenarioError {
    ScenarioError {
        field: format!("{prefix}.{}", e.field),
        message: e.message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_container_state_reads_back_from_its_words_and_an_unknown_one_is_named() {
        use crate::process::TerminationReason as R;
        for state in [
            PodState::Running,
            PodState::CrashLoopBackOff,
            PodState::Terminated(R::OomKilled),
            PodState::Terminated(R::Error),
            PodState::Terminated(R::Completed),
        ] {
            let text = serde_json::to_string(&state).expect("its words");
            assert_eq!(
                serde_json::from_str::<PodState>(&text).expect("read back"),
                state
            );
        }
        let err = serde_json::from_str::<PodState>("\"Sleeping\"").expect_err("unknown");
        assert!(
            err.to_string().contains("unknown container state Sleeping"),
            "{err}"
        );
    }

    #[test]
    fn a_process_without_a_gc_share_runs_at_the_speed_the_stretch_gives_for_none() {
        let unit = std::time::Duration::from_millis(1);
        for fraction in [0.0, -0.0, -0.5] {
            let stretched = stretch_for_gc(unit, fraction).as_secs_f64() / unit.as_secs_f64();
            assert_eq!(
                stretched.to_bits(),
                1.0_f64.to_bits(),
                "GC fraction {fraction}"
            );
        }
    }

    #[test]
    fn the_process_gauges_report_what_the_go_runtime_metrics_report() {
        let scenario = crate::scenario::presets::load_built("flywheel").expect("a preset");
        let mut process = SimProcess::new(&scenario).expect("its process");
        assert!(process.start_container(SimTime::ZERO));
        let owners = [
            (HeapOwner::InformerStore, 3 << 20),
            (HeapOwner::ListCopies, 1 << 20),
        ];
        process.set_owners(&owners, 4, SimTime::from_millis(5));
        // garbage enough for a few cycles, so the count and the goal are not their start values
        for ms in 10..40 {
            process.alloc_garbage(HeapOwner::ListCopies, 8 << 20, SimTime::from_millis(ms));
        }
        let now = SimTime::from_millis(50);
        let mut seen = std::collections::BTreeMap::new();
        process.gauges(now, |key, value| {
            seen.insert(key, value);
        });
        let go = process.go.as_ref().expect("running");
        let m = go.metrics();
        assert!(m.go_gc_duration_seconds_count > 0, "cycles ran");
        let expected = [
            (
                names::GO_HEAP_ALLOC_BYTES,
                m.go_memstats_heap_alloc_bytes as f64,
            ),
            (names::GO_NEXT_GC_BYTES, m.go_memstats_next_gc_bytes as f64),
            (names::GO_GOROUTINES, m.go_goroutines as f64),
            (names::GO_GC_COUNT, m.go_gc_duration_seconds_count as f64),
            (
                names::PROCESS_RESIDENT_MEMORY_BYTES,
                m.process_resident_memory_bytes as f64,
            ),
            (names::GC_CPU_FRACTION, go.gc_cpu_fraction(now)),
        ];
        for (key, value) in expected {
            assert_eq!(seen.get(key).copied(), Some(value), "{key}");
        }
    }

    #[test]
    fn the_stretch_during_a_mark_is_the_one_its_gc_share_gives_however_often_asked() {
        let scenario = crate::scenario::presets::load_built("flywheel").expect("a preset");
        let mut process = SimProcess::new(&scenario).expect("its process");
        assert!(process.start_container(SimTime::ZERO));
        let unit = std::time::Duration::from_millis(1);
        let direct = |p: &SimProcess, now: SimTime| {
            let fraction = p.go.as_ref().map_or(0.0, |g| g.gc_cpu_fraction(now));
            stretch_for_gc(unit, fraction).as_secs_f64() / unit.as_secs_f64()
        };
        let (mut stretched, mut factors) = (0, Vec::new());
        for ms in 0..4_000u64 {
            let now = SimTime::from_millis(ms);
            // garbage enough for a cycle every few milliseconds
            process.alloc_garbage(HeapOwner::ListCopies, 2 << 20, now);
            for _ in 0..2 {
                let got = process.slowdown(now);
                assert_eq!(got.to_bits(), direct(&process, now).to_bits(), "at {ms} ms");
                stretched += usize::from(got > 1.0);
                if !factors.contains(&got.to_bits()) {
                    factors.push(got.to_bits());
                }
            }
        }
        assert!(stretched > 100, "marks stretched {stretched} asks");
        assert!(factors.len() >= 2, "factors {factors:?}: one GC share only");
    }

    #[test]
    fn each_termination_reason_has_the_key_its_labels_build() {
        let reasons = [
            TerminationReason::OomKilled,
            TerminationReason::Error,
            TerminationReason::Completed,
        ];
        for reason in reasons {
            let built = super::super::registry::metric_key(
                names::POD_LAST_TERMINATED_REASON,
                &[("reason", reason.as_str())],
            );
            assert_eq!(last_terminated_reason_key(reason), built);
        }
    }
}
