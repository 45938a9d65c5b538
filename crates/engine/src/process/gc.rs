//! The Go garbage collector's pacer: when a cycle starts, and what it costs.
//!
//! ```text
//!   heap ▲        goal = live + (live + roots)·GOGC/100      (min with the GOMEMLIMIT goal)
//!        │    /|    /|    /|
//!        │   / |   / |   / |      a cycle starts when heap (live + garbage) reaches the goal;
//!        │  /  |  /  |  /  |      its garbage is reclaimed at once, its mark CPU is spent after
//!        │ /   | /   | /   |      at 25 % of GOMAXPROCS (50 % when it queues behind another)
//!        └──────────────────────▶ t
//! ```
//!
//! Sources: the Go GC guide (golang/website `_content/doc/gc-guide.html`) for the goal formula,
//! GOGC, GOMEMLIMIT, the 4 MiB minimum heap and the ~50 % GC CPU cap; golang/go
//! `src/runtime/mgcpacer.go` for `gcBackgroundUtilization = 0.25`, `defaultHeapMinimum`,
//! `memoryLimitHeapGoal` (3 % / 1 MiB headroom, never below the marked heap);
//! `src/runtime/mgclimit.go` for the GC CPU limiter (a leaky bucket that fills with GC CPU time
//! and drains with mutator time, capacity GOMAXPROCS × 1 s); `src/runtime/proc.go` for
//! `forcegcperiod` (2 min).
//!
//! Approximations, all deliberate:
//! - A cycle starts when the heap *reaches* the goal and reclaims all garbage at that instant. The
//!   real pacer triggers earlier (70–95 % of the runway) so that marking ends near the goal; the
//!   heap peaks at about the goal either way, and the sawtooth has the same shape.
//! - Mark CPU = a fixed cost per cycle + a cost per MiB marked (live heap + roots), as in the GC
//!   guide's cost model ("GC CPU time for cycle N = fixed cost + cost per byte × live heap"). The
//!   mark then runs for `cpu / (0.25 · GOMAXPROCS)` of wall time, during which
//!   [`GcPacer::gc_cpu_fraction`] is 0.25. A cycle that starts while the previous mark is still
//!   running is queued behind it and runs at 0.5 — standing in for mutator assists, which the CPU
//!   limiter caps at about 50 %.
//! - A goal reached because of GOMEMLIMIT starts a cycle only while the CPU limiter's bucket is
//!   not full; otherwise the heap keeps growing past the limit (the limit is soft). A goal reached
//!   because of GOGC always starts a cycle (assists make it effectively hard).

use std::collections::VecDeque;
use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::heap::Heap;
use super::MIB;
use crate::error::ConfigError;
use crate::time::SimTime;

/// The fraction of GOMAXPROCS the background mark workers use (`mgcpacer.go`
/// `gcBackgroundUtilization`).
pub const BACKGROUND_UTILIZATION: f64 = 0.25;

/// The GC CPU fraction the CPU limiter allows at most, which a cycle queued behind another runs at
/// (`mgclimit.go`: the bucket fills with GC time and drains with mutator time, hence ~50 %).
pub const LIMITED_UTILIZATION: f64 = 0.5;

/// The heap goal never goes below this at GOGC=100; it scales with GOGC (`mgcpacer.go`
/// `defaultHeapMinimum`, `heapMinimum = defaultHeapMinimum · GOGC/100`).
pub const DEFAULT_HEAP_MINIMUM_BYTES: u64 = 4 * MIB;

/// A GC runs if none ran for this long (`runtime/proc.go` `forcegcperiod`).
pub const FORCED_GC_PERIOD: Duration = Duration::from_secs(120);

/// Headroom under the memory limit, as a percentage of the limit-based goal (`mgcpacer.go`
/// `memoryLimitHeapGoalHeadroomPercent`).
pub const MEMORY_LIMIT_HEADROOM_PERCENT: u64 = 3;

/// The least headroom under the memory limit (`mgcpacer.go` `memoryLimitMinHeapGoalHeadroom`).
pub const MEMORY_LIMIT_MIN_HEADROOM_BYTES: u64 = MIB;

/// CPU-time capacity of the GC CPU limiter per GOMAXPROCS (`mgclimit.go` `capacityPerProc`).
pub const CPU_LIMITER_CAPACITY_PER_PROC: Duration = Duration::from_secs(1);

/// The `GOGC` setting: a percentage, or `off` (the GC guide; `SetGCPercent(-1)`).
///
/// In scenario files it is a number or the string `"off"`; a negative number also means off, as
/// in the runtime.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gogc {
    /// Proportional GC at this percentage (default 100).
    Percent(u32),
    /// No proportional GC: only GOMEMLIMIT (if set) or an explicit `runtime.GC()` collects.
    Off,
}

impl Default for Gogc {
    /// `GOGC=100`, the runtime default.
    fn default() -> Gogc {
        Gogc::Percent(100)
    }
}

impl Gogc {
    /// The percentage, or `None` when off.
    pub fn percent(self) -> Option<u32> {
        match self {
            Gogc::Percent(p) => Some(p),
            Gogc::Off => None,
        }
    }
}

impl fmt::Display for Gogc {
    /// `100` or `off`, as in the environment variable.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Gogc::Percent(p) => write!(f, "{p}"),
            Gogc::Off => f.write_str("off"),
        }
    }
}

impl Serialize for Gogc {
    /// A number, or the string `"off"`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Gogc::Percent(p) => serializer.serialize_u32(*p),
            Gogc::Off => serializer.serialize_str("off"),
        }
    }
}

/// What a scenario may write for GOGC.
#[derive(Deserialize)]
#[serde(untagged)]
enum GogcRepr {
    Number(i64),
    Text(String),
}

impl<'de> Deserialize<'de> for Gogc {
    /// A number (negative means off, as in the runtime) or `"off"` (any case).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Gogc, D::Error> {
        match GogcRepr::deserialize(deserializer)? {
            GogcRepr::Number(n) if n < 0 => Ok(Gogc::Off),
            GogcRepr::Number(n) => u32::try_from(n)
                .map(Gogc::Percent)
                .map_err(|_| serde::de::Error::custom(format!("GOGC {n} is out of range"))),
            GogcRepr::Text(s) if s.eq_ignore_ascii_case("off") => Ok(Gogc::Off),
            GogcRepr::Text(s) => Err(serde::de::Error::custom(format!(
                "GOGC must be a number or \"off\" (got {s:?})"
            ))),
        }
    }
}

/// The GC's settings: GOGC, GOMEMLIMIT, GOMAXPROCS and the cost model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GcConfig {
    /// `GOGC`: 1..=10000 or `off`. Default 100.
    pub gogc: Gogc,
    /// `GOMEMLIMIT` in bytes (a soft limit on total Go runtime memory); `None` = no limit.
    pub memory_limit_bytes: Option<u64>,
    /// `GOMAXPROCS`: 1..=1024. Default 2.
    pub gomaxprocs: u32,
    /// Mark CPU per MiB of live heap and roots, in ns (0..=10⁹). Default 1 ms per MiB, i.e. one
    /// core marks about 1 GiB/s.
    pub mark_cpu_ns_per_mib: u64,
    /// Fixed CPU per cycle, in µs (0..=10⁶). Default 100 µs.
    pub cycle_cpu_us: u64,
    /// Stop-the-world pause per cycle (sweep termination + mark termination), in µs (0..=10⁶).
    /// Default 100 µs. Observed as `go_gc_duration_seconds`.
    pub pause_us: u64,
    /// How many recent cycles to keep for chart marks (1..=100000). Default 256.
    pub history_len: usize,
}

impl Default for GcConfig {
    /// GOGC 100, no memory limit, GOMAXPROCS 2, 1 ms/MiB mark cost, 100 µs per cycle.
    fn default() -> GcConfig {
        GcConfig {
            gogc: Gogc::default(),
            memory_limit_bytes: None,
            gomaxprocs: 2,
            mark_cpu_ns_per_mib: 1_000_000,
            cycle_cpu_us: 100,
            pause_us: 100,
            history_len: 256,
        }
    }
}

impl GcConfig {
    /// Checks every field; the error names the field and the allowed range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if let Gogc::Percent(p) = self.gogc {
            check_range("gogc", u64::from(p), 1, 10_000, " or \"off\"")?;
        }
        if self.memory_limit_bytes == Some(0) {
            return Err(ConfigError::new(
                "memory_limit_bytes",
                "must be greater than 0, or absent for no limit (got 0)",
            ));
        }
        check_range("gomaxprocs", u64::from(self.gomaxprocs), 1, 1024, "")?;
        check_range(
            "mark_cpu_ns_per_mib",
            self.mark_cpu_ns_per_mib,
            0,
            1_000_000_000,
            "",
        )?;
        check_range("cycle_cpu_us", self.cycle_cpu_us, 0, 1_000_000, "")?;
        check_range("pause_us", self.pause_us, 0, 1_000_000, "")?;
        let history = u64::try_from(self.history_len).unwrap_or(u64::MAX);
        check_range("history_len", history, 1, 100_000, "")
    }
}

/// Rejects `value` outside `min..=max`, naming `field`.
pub(crate) fn check_range(
    field: &str,
    value: u64,
    min: u64,
    max: u64,
    extra: &str,
) -> Result<(), ConfigError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(ConfigError::new(
            field,
            format!("must be in {min}..={max}{extra} (got {value})"),
        ))
    }
}

/// Why a cycle started (`runtime/mgc.go` `gcTrigger` kinds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GcTrigger {
    /// The heap reached the GOGC goal (`gcTriggerHeap`).
    HeapGoal,
    /// The heap reached the GOMEMLIMIT goal, which was below the GOGC goal (`gcTriggerHeap`).
    MemoryLimit,
    /// No cycle for [`FORCED_GC_PERIOD`] (`gcTriggerTime`, by sysmon's forcegc helper).
    Periodic,
    /// `runtime.GC()` (`gcTriggerCycle`).
    Manual,
}

/// One GC cycle, as a chart mark and a log line (`GODEBUG=gctrace=1` has the same numbers).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GcCycle {
    /// 1 for the first cycle of the process (`go_gc_duration_seconds_count` after it).
    pub number: u64,
    /// Why it started.
    pub trigger: GcTrigger,
    /// When it started (and when its garbage was reclaimed).
    pub start: SimTime,
    /// When its marking started (later than `start` if queued behind the previous cycle).
    pub mark_start: SimTime,
    /// When its marking ended.
    pub mark_end: SimTime,
    /// Live plus garbage when it started.
    pub heap_before_bytes: u64,
    /// Live heap it marked (`heapMarked`).
    pub live_bytes: u64,
    /// Garbage it reclaimed.
    pub collected_bytes: u64,
    /// The goal in force when it started (`u64::MAX` if there was none).
    pub goal_bytes: u64,
    /// The GOGC goal after it (`u64::MAX` when GOGC is off).
    pub next_goal_bytes: u64,
    /// CPU time its marking costs.
    pub mark_cpu: Duration,
    /// The fraction of GOMAXPROCS it uses while marking (0.25, or 0.5 when queued).
    pub utilization: f64,
    /// Its stop-the-world pause.
    pub pause: Duration,
}

/// What the pacer needs to know about non-heap memory to apply GOMEMLIMIT.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LimitInputs {
    /// Memory counted by the limit that cannot hold heap objects: stacks, runtime metadata
    /// (`mappedReady − heapFree − heapAlloc` in `memoryLimitHeapGoal`).
    pub non_heap_bytes: u64,
    /// Everything counted by the limit (`Sys − HeapReleased`, i.e. `mappedReady`).
    pub runtime_total_bytes: u64,
}

/// The pacer's state: the last cycle's results, the CPU limiter and the cycle history.
#[derive(Clone, Debug, PartialEq)]
pub struct GcPacer {
    config: GcConfig,
    heap_marked_bytes: u64,
    roots_bytes: u64,
    /// [`GcPacer::gogc_goal_for`] of the three above, computed when they change (at each
    /// cycle's end) instead of on every allocation that asks whether a cycle is due.
    gogc_goal: Option<u64>,
    cycles: u64,
    last_gc: Option<SimTime>,
    mark_busy_until: SimTime,
    limiter_bucket_ns: u128,
    limiter_updated_at: SimTime,
    gc_cpu_total: Duration,
    pause_total: Duration,
    history: VecDeque<GcCycle>,
}

impl GcPacer {
    /// A pacer before its first cycle; rejects an invalid config.
    pub fn new(config: GcConfig) -> Result<GcPacer, ConfigError> {
        config.validate()?;
        Ok(GcPacer {
            gogc_goal: GcPacer::gogc_goal_for(config.gogc, 0, 0),
            config,
            heap_marked_bytes: 0,
            roots_bytes: 0,
            cycles: 0,
            last_gc: None,
            mark_busy_until: SimTime::ZERO,
            limiter_bucket_ns: 0,
            limiter_updated_at: SimTime::ZERO,
            gc_cpu_total: Duration::ZERO,
            pause_total: Duration::ZERO,
            history: VecDeque::new(),
        })
    }

    /// The settings.
    pub fn config(&self) -> &GcConfig {
        &self.config
    }

    /// The GOGC goal for a given live heap and roots (the GC guide: "Target heap memory = Live
    /// heap + (Live heap + GC roots) · GOGC/100", Go ≥ 1.18), never below the minimum heap
    /// `4 MiB · GOGC/100`. `None` when GOGC is off.
    pub fn gogc_goal_for(gogc: Gogc, live_bytes: u64, roots_bytes: u64) -> Option<u64> {
        let percent = u128::from(gogc.percent()?);
        let live = u128::from(live_bytes);
        let scannable = live + u128::from(roots_bytes);
        let goal = live + super::mul_div(scannable, percent, 100);
        let minimum = super::mul_div(u128::from(DEFAULT_HEAP_MINIMUM_BYTES), percent, 100);
        Some(saturate(goal.max(minimum)))
    }

    /// The GOGC goal from the last cycle's marked heap and roots (`gcPercentHeapGoal`).
    pub fn gogc_goal_bytes(&self) -> Option<u64> {
        self.gogc_goal
    }

    /// The GOMEMLIMIT goal (`mgcpacer.go` `memoryLimitHeapGoal`): the limit minus non-heap memory
    /// and any overage, minus max(3 %, 1 MiB) headroom, never below the marked heap. `None`
    /// without a limit.
    pub fn memory_limit_goal_bytes(&self, inputs: LimitInputs) -> Option<u64> {
        let limit = self.config.memory_limit_bytes?;
        let overage = inputs.runtime_total_bytes.saturating_sub(limit);
        let reserved = inputs.non_heap_bytes.saturating_add(overage);
        if reserved >= limit {
            return Some(self.heap_marked_bytes);
        }
        let goal = limit - reserved;
        let headroom =
            (goal / 100 * MEMORY_LIMIT_HEADROOM_PERCENT).max(MEMORY_LIMIT_MIN_HEADROOM_BYTES);
        let goal = if goal < headroom.saturating_mul(2) {
            headroom
        } else {
            goal - headroom
        };
        Some(goal.max(self.heap_marked_bytes))
    }

    /// The goal reported as `go_memstats_next_gc_bytes`: the smaller of the GOGC and GOMEMLIMIT
    /// goals, `u64::MAX` when neither applies.
    pub fn heap_goal_bytes(&self, inputs: LimitInputs) -> u64 {
        let gogc = self.gogc_goal_bytes().unwrap_or(u64::MAX);
        let limit = self.memory_limit_goal_bytes(inputs).unwrap_or(u64::MAX);
        gogc.min(limit)
    }

    /// Whether a heap of `heap_bytes` starts a cycle at `now`, and why.
    pub fn trigger(&self, heap_bytes: u64, inputs: LimitInputs, now: SimTime) -> Option<GcTrigger> {
        if self
            .gogc_goal_bytes()
            .is_some_and(|goal| heap_bytes >= goal)
        {
            return Some(GcTrigger::HeapGoal);
        }
        let limit_goal = self.memory_limit_goal_bytes(inputs)?;
        (heap_bytes >= limit_goal && !self.cpu_limiter_engaged(now))
            .then_some(GcTrigger::MemoryLimit)
    }

    /// Whether sysmon forces a cycle at `now`: GOGC is on, a cycle has run, and the last one was
    /// more than [`FORCED_GC_PERIOD`] ago (`runtime/mgc.go` `gcTrigger.test` for `gcTriggerTime`).
    pub fn forced_gc_due(&self, now: SimTime) -> bool {
        self.next_forced_gc_at().is_some_and(|at| now >= at)
    }

    /// The first instant a periodic cycle is due, if one can be.
    pub fn next_forced_gc_at(&self) -> Option<SimTime> {
        self.config.gogc.percent()?;
        let last = self.last_gc?;
        Some(last + FORCED_GC_PERIOD + Duration::from_nanos(1))
    }

    /// Runs a cycle at `now`: reclaims the heap's garbage, records the marked heap and `roots_bytes`
    /// (stacks + globals) for the next goal, charges the mark CPU, and returns the cycle.
    pub fn run_cycle(
        &mut self,
        now: SimTime,
        trigger: GcTrigger,
        heap: &mut Heap,
        roots_bytes: u64,
        goal_bytes: u64,
    ) -> GcCycle {
        let heap_before_bytes = heap.heap_bytes();
        let collected_bytes = heap.collect();
        let live_bytes = heap.live_bytes();
        self.heap_marked_bytes = live_bytes;
        self.roots_bytes = roots_bytes;
        self.gogc_goal = GcPacer::gogc_goal_for(self.config.gogc, live_bytes, roots_bytes);
        let mark_cpu = self.mark_cpu(live_bytes, roots_bytes);
        let (mark_start, utilization) = self.mark_slot(now);
        let mark_end = mark_start + self.mark_wall(mark_cpu, utilization);
        self.charge(now, mark_cpu, mark_end);
        let cycle = GcCycle {
            number: self.cycles,
            trigger,
            start: now,
            mark_start,
            mark_end,
            heap_before_bytes,
            live_bytes,
            collected_bytes,
            goal_bytes,
            next_goal_bytes: self.gogc_goal_bytes().unwrap_or(u64::MAX),
            mark_cpu,
            utilization,
            pause: Duration::from_micros(self.config.pause_us),
        };
        self.remember(cycle.clone());
        cycle
    }

    /// The fraction of the process's CPU the GC uses at `now` (0 outside marking): what the
    /// simulation takes away from reconciles.
    pub fn gc_cpu_fraction(&self, now: SimTime) -> f64 {
        // Marks run one after another (a cycle's mark starts no earlier than the previous one
        // ends), so only the newest mark that has started can cover `now`.
        self.history
            .iter()
            .rev()
            .find(|c| c.mark_start <= now)
            .filter(|c| now < c.mark_end)
            .map_or(0.0, |c| c.utilization)
    }

    /// Whether the GC CPU limiter's bucket is full at `now`: GC has used more than about half the
    /// CPU lately, so the memory limit gives way (`mgclimit.go` `limiting`).
    pub fn cpu_limiter_engaged(&self, now: SimTime) -> bool {
        self.bucket_at(now) >= self.limiter_capacity_ns()
    }

    /// When the last (possibly queued) mark ends.
    pub fn mark_busy_until(&self) -> SimTime {
        self.mark_busy_until
    }

    /// Cycles run so far (`go_gc_duration_seconds_count`).
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// When the last cycle started.
    pub fn last_gc_at(&self) -> Option<SimTime> {
        self.last_gc
    }

    /// The live heap the last cycle marked.
    pub fn heap_marked_bytes(&self) -> u64 {
        self.heap_marked_bytes
    }

    /// The start times of the most recent cycles, oldest first: marks for a memory chart.
    pub fn recent_gc_times(&self) -> Vec<SimTime> {
        self.history.iter().map(|c| c.start).collect()
    }

    /// Total CPU spent marking (Go's `/cpu/classes/gc/total:cpu-seconds`).
    pub fn gc_cpu_total(&self) -> Duration {
        self.gc_cpu_total
    }

    /// Total stop-the-world pause (`go_gc_duration_seconds_sum`).
    pub fn pause_total(&self) -> Duration {
        self.pause_total
    }

    fn mark_cpu(&self, live_bytes: u64, roots_bytes: u64) -> Duration {
        let scanned = u128::from(live_bytes) + u128::from(roots_bytes);
        let per_byte = u128::from(self.config.mark_cpu_ns_per_mib) * scanned / u128::from(MIB);
        let fixed = u128::from(self.config.cycle_cpu_us) * 1000;
        Duration::from_nanos(saturate(per_byte + fixed))
    }

    /// When this cycle's marking can start and at what utilization.
    fn mark_slot(&self, now: SimTime) -> (SimTime, f64) {
        if now < self.mark_busy_until {
            (self.mark_busy_until, LIMITED_UTILIZATION)
        } else {
            (now, BACKGROUND_UTILIZATION)
        }
    }

    fn mark_wall(&self, cpu: Duration, utilization: f64) -> Duration {
        let cores = utilization * f64::from(self.config.gomaxprocs);
        Duration::try_from_secs_f64(cpu.as_secs_f64() / cores).unwrap_or(Duration::MAX)
    }

    fn charge(&mut self, now: SimTime, mark_cpu: Duration, mark_end: SimTime) {
        let drained = self.bucket_at(now);
        self.limiter_bucket_ns = drained.saturating_add(2 * mark_cpu.as_nanos());
        self.limiter_updated_at = now;
        self.mark_busy_until = mark_end;
        self.cycles = self.cycles.saturating_add(1);
        self.last_gc = Some(now);
        self.gc_cpu_total = self.gc_cpu_total.saturating_add(mark_cpu);
        self.pause_total = self
            .pause_total
            .saturating_add(Duration::from_micros(self.config.pause_us));
    }

    /// The limiter bucket at `now`. Filling it with twice the GC CPU and draining it with all CPU
    /// time is the same as filling with GC time and draining with mutator time.
    fn bucket_at(&self, now: SimTime) -> u128 {
        let elapsed = now.saturating_since(self.limiter_updated_at).as_nanos();
        let drain = elapsed.saturating_mul(u128::from(self.config.gomaxprocs));
        self.limiter_bucket_ns.saturating_sub(drain)
    }

    fn limiter_capacity_ns(&self) -> u128 {
        CPU_LIMITER_CAPACITY_PER_PROC.as_nanos() * u128::from(self.config.gomaxprocs)
    }

    fn remember(&mut self, cycle: GcCycle) {
        while self.history.len() >= self.config.history_len {
            self.history.pop_front();
        }
        self.history.push_back(cycle);
    }
}

/// A `u128` clamped to `u64`.
fn saturate(value: u128) -> u64 {
    u64::try_from(value).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gogc_reads_numbers_off_and_negative_numbers() {
        let parse = |s: &str| serde_json::from_str::<Gogc>(s);
        assert_eq!(parse("50").expect("number"), Gogc::Percent(50));
        assert_eq!(parse("\"off\"").expect("off"), Gogc::Off);
        assert_eq!(parse("\"OFF\"").expect("OFF"), Gogc::Off);
        assert_eq!(parse("-1").expect("negative"), Gogc::Off);
        assert!(parse("\"sometimes\"").is_err());
        assert_eq!(serde_json::to_string(&Gogc::Off).expect("ser"), "\"off\"");
    }

    #[test]
    fn the_limit_goal_keeps_three_percent_headroom_and_never_drops_below_the_marked_heap() {
        let config = GcConfig {
            memory_limit_bytes: Some(200 * MIB),
            ..GcConfig::default()
        };
        let pacer = GcPacer::new(config).expect("valid");
        let inputs = LimitInputs {
            non_heap_bytes: 100 * MIB,
            runtime_total_bytes: 150 * MIB,
        };
        assert_eq!(
            pacer.memory_limit_goal_bytes(inputs),
            Some(100 * MIB - 100 * MIB / 100 * 3)
        );
    }
}
