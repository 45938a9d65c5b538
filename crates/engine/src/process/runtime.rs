//! The operator's Go process: heap, GC pacer, goroutines, free pages and the scavenger.
//!
//! ```text
//!  alloc/free ──▶ Heap ──heap ≥ goal?──▶ GcPacer::run_cycle ──▶ garbage → free pages
//!                                                                    │
//!  advance(now) ──▶ forced GC every 2 min, background scavenger ─────┘──▶ released to the OS
//! ```
//!
//! Every method takes the current virtual time; nothing reads a clock. The RSS decomposition is
//! documented in [`super::rss`], the pacer in [`super::gc`].

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::gc::{check_range, GcConfig, GcCycle, GcPacer, GcTrigger, LimitInputs};
use super::heap::{Heap, HeapOwner};
use super::rss::{
    background_release_bytes, FreePages, RssBreakdown, SCAVENGER_REDUCE_EXTRA_PERCENT,
    SCAVENGER_RETAIN_EXTRA_PERCENT,
};
use super::{KIB, MIB};
use crate::error::ConfigError;
use crate::time::SimTime;
use crate::vec_map::VecMap;

/// The process's settings: the GC's, plus the sizes of what is not heap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GoProcessConfig {
    /// GOGC, GOMEMLIMIT, GOMAXPROCS and the GC cost model.
    pub gc: GcConfig,
    /// Goroutines at start (runtime and library goroutines), 0..=10⁷. Default 8.
    pub initial_goroutines: u64,
    /// Stack per goroutine, in bytes, 2 KiB..=1 GiB. Default 8 KiB: Go starts stacks at 2 KiB
    /// (`runtime/stack.go` `stackMin`) and doubles them as they grow; 8 KiB is a typical average
    /// for client-go / controller-runtime goroutines.
    pub stack_bytes_per_goroutine: u64,
    /// Pointer-bearing globals scanned as GC roots, in bytes (≤ 1 GiB). Default 1 MiB.
    pub globals_bytes: u64,
    /// Binary text/data, libc and non-Go memory, in bytes (≤ 1 TiB). Default 16 MiB.
    pub binary_bytes: u64,
    /// The runtime's fixed structures, in bytes (≤ 1 TiB). Default 8 MiB.
    pub runtime_metadata_bytes: u64,
    /// Heap metadata and fragmentation as a percentage of the resident heap, 0..=100. Default 5.
    pub heap_overhead_percent: u64,
    /// How fast the background scavenger releases free pages, in bytes per second (≤ 1 TiB/s).
    /// Default 8 MiB/s.
    pub scavenge_rate_bytes_per_s: u64,
}

impl Default for GoProcessConfig {
    /// Defaults as documented on each field.
    fn default() -> GoProcessConfig {
        GoProcessConfig {
            gc: GcConfig::default(),
            initial_goroutines: 8,
            stack_bytes_per_goroutine: 8 * KIB,
            globals_bytes: MIB,
            binary_bytes: 16 * MIB,
            runtime_metadata_bytes: 8 * MIB,
            heap_overhead_percent: 5,
            scavenge_rate_bytes_per_s: 8 * MIB,
        }
    }
}

impl GoProcessConfig {
    /// Checks every field; the error names the field and the allowed range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        const TIB: u64 = MIB * MIB;
        self.gc.validate()?;
        check_range(
            "initial_goroutines",
            self.initial_goroutines,
            0,
            10_000_000,
            "",
        )?;
        check_range(
            "stack_bytes_per_goroutine",
            self.stack_bytes_per_goroutine,
            2 * KIB,
            1024 * MIB,
            "",
        )?;
        check_range("globals_bytes", self.globals_bytes, 0, 1024 * MIB, "")?;
        check_range("binary_bytes", self.binary_bytes, 0, TIB, "")?;
        check_range(
            "runtime_metadata_bytes",
            self.runtime_metadata_bytes,
            0,
            TIB,
            "",
        )?;
        check_range(
            "heap_overhead_percent",
            self.heap_overhead_percent,
            0,
            100,
            "",
        )?;
        check_range(
            "scavenge_rate_bytes_per_s",
            self.scavenge_rate_bytes_per_s,
            0,
            TIB,
            "",
        )
    }
}

/// The process's metrics under their Prometheus names (`client_golang`'s Go and process
/// collectors, `prometheus/go_collector.go`, `process_collector.go`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoMetrics {
    /// Heap objects, live and not yet reclaimed (`HeapAlloc`).
    pub go_memstats_heap_alloc_bytes: u64,
    /// Free heap pages, resident or released (`HeapIdle`).
    pub go_memstats_heap_idle_bytes: u64,
    /// Heap pages returned to the OS (`HeapReleased`).
    pub go_memstats_heap_released_bytes: u64,
    /// Goroutine stacks (`StackInuse`).
    pub go_memstats_stack_inuse_bytes: u64,
    /// The heap goal of the next cycle (`NextGC`); `u64::MAX` when there is none.
    pub go_memstats_next_gc_bytes: u64,
    /// Bytes allocated since the start (`TotalAlloc`).
    pub go_memstats_alloc_bytes_total: u64,
    /// When the last cycle ran, in seconds of virtual time (0 before the first).
    pub go_memstats_last_gc_time_seconds: f64,
    /// Goroutines that exist.
    pub go_goroutines: u64,
    /// Cycles run (the count of the `go_gc_duration_seconds` summary).
    pub go_gc_duration_seconds_count: u64,
    /// Total stop-the-world pause (the sum of the `go_gc_duration_seconds` summary).
    pub go_gc_duration_seconds_sum: f64,
    /// CPU spent by the GC (`/cpu/classes/gc/total:cpu-seconds`).
    pub go_cpu_classes_gc_total_cpu_seconds_total: f64,
    /// GOGC, `None` when off (`go_gc_gogc_percent`).
    pub go_gc_gogc_percent: Option<u32>,
    /// GOMEMLIMIT, `None` when unset (`go_gc_gomemlimit_bytes`).
    pub go_gc_gomemlimit_bytes: Option<u64>,
    /// Resident memory (`process_resident_memory_bytes`).
    pub process_resident_memory_bytes: u64,
    /// When the process started, in seconds of virtual time.
    pub process_start_time_seconds: f64,
}

/// A simulated Go process.
#[derive(Clone, Debug, PartialEq)]
pub struct GoProcess {
    config: GoProcessConfig,
    heap: Heap,
    pacer: GcPacer,
    pages: FreePages,
    goroutines: u64,
    stack_bytes: u64,
    started_at: SimTime,
    last_advance: SimTime,
    /// [`GoProcess::retain_target_bytes`] as of the last cycle: without GOMEMLIMIT the goal
    /// moves only at a cycle, so it holds until the next one (unused with a limit).
    kept_retain_target_bytes: u64,
}

impl GoProcess {
    /// A process started at `now` with an empty heap; rejects an invalid config.
    pub fn new(config: GoProcessConfig, now: SimTime) -> Result<GoProcess, ConfigError> {
        config.validate()?;
        let pacer = GcPacer::new(config.gc.clone())?;
        let goroutines = config.initial_goroutines;
        let stack_bytes = goroutines.saturating_mul(config.stack_bytes_per_goroutine);
        let mut go = GoProcess {
            config,
            heap: Heap::new(),
            pacer,
            pages: FreePages::default(),
            goroutines,
            stack_bytes,
            started_at: now,
            last_advance: now,
            kept_retain_target_bytes: 0,
        };
        go.kept_retain_target_bytes = go.retain_target_bytes();
        Ok(go)
    }

    /// The settings.
    pub fn config(&self) -> &GoProcessConfig {
        &self.config
    }

    /// The heap (live bytes by owner, garbage).
    pub fn heap(&self) -> &Heap {
        &self.heap
    }

    /// The GC pacer (goals, cycle history, CPU limiter).
    pub fn pacer(&self) -> &GcPacer {
        &self.pacer
    }

    /// When the process started.
    pub fn started_at(&self) -> SimTime {
        self.started_at
    }

    /// `owner` allocates `bytes` that stay live; runs a GC cycle if the heap reached its goal.
    pub fn alloc(&mut self, owner: HeapOwner, bytes: u64, now: SimTime) -> Option<GcCycle> {
        self.heap.alloc(owner, bytes);
        self.after_alloc(bytes, now)
    }

    /// `owner` allocates `bytes` that are dropped at once; runs a GC cycle if the heap reached its
    /// goal.
    pub fn alloc_transient(
        &mut self,
        owner: HeapOwner,
        bytes: u64,
        now: SimTime,
    ) -> Option<GcCycle> {
        self.heap.alloc_transient(owner, bytes);
        self.after_alloc(bytes, now)
    }

    /// `owner` drops `bytes`: garbage until the next cycle.
    pub fn free(&mut self, owner: HeapOwner, bytes: u64) {
        self.heap.free(owner, bytes);
    }

    /// Moves the process to `now`: a periodic cycle if one is due, then the background scavenger.
    pub fn advance(&mut self, now: SimTime) -> Option<GcCycle> {
        let cycle = self
            .pacer
            .forced_gc_due(now)
            .then(|| self.run_cycle(GcTrigger::Periodic, now));
        self.scavenge_in_background(now);
        cycle
    }

    /// `runtime.GC()`: a cycle now, whatever the goal.
    pub fn run_gc(&mut self, now: SimTime) -> GcCycle {
        self.run_cycle(GcTrigger::Manual, now)
    }

    /// `n` goroutines start, each with the default stack.
    pub fn spawn_goroutines(&mut self, n: u64) {
        self.goroutines = self.goroutines.saturating_add(n);
        let added = n.saturating_mul(self.config.stack_bytes_per_goroutine);
        self.stack_bytes = self.stack_bytes.saturating_add(added);
    }

    /// `n` goroutines exit, each freeing the average stack (all of them at most).
    pub fn exit_goroutines(&mut self, n: u64) {
        let n = n.min(self.goroutines);
        if n == 0 {
            return;
        }
        let average = self.stack_bytes / self.goroutines;
        let freed = if n == self.goroutines {
            self.stack_bytes
        } else {
            average.saturating_mul(n)
        };
        self.goroutines -= n;
        self.stack_bytes = self.stack_bytes.saturating_sub(freed);
    }

    /// Stacks grow by `bytes` (deep call chains: the runtime copies a stack to one twice its size,
    /// `runtime/stack.go` `newstack`).
    pub fn grow_stacks(&mut self, bytes: u64) {
        self.stack_bytes = self.stack_bytes.saturating_add(bytes);
    }

    /// Goroutines that exist (`go_goroutines`).
    pub fn goroutines(&self) -> u64 {
        self.goroutines
    }

    /// Bytes of goroutine stacks.
    pub fn stack_bytes(&self) -> u64 {
        self.stack_bytes
    }

    /// GC roots: stacks plus globals.
    pub fn roots_bytes(&self) -> u64 {
        self.stack_bytes.saturating_add(self.config.globals_bytes)
    }

    /// Where the resident memory goes.
    pub fn rss(&self) -> RssBreakdown {
        let heap_in_use_bytes = self.heap.heap_bytes();
        let resident_heap = heap_in_use_bytes.saturating_add(self.pages.free_bytes);
        let overhead = super::mul_div(
            u128::from(resident_heap),
            u128::from(self.config.heap_overhead_percent),
            100,
        );
        RssBreakdown {
            heap_in_use_bytes,
            heap_free_bytes: self.pages.free_bytes,
            stack_bytes: self.stack_bytes,
            heap_overhead_bytes: u64::try_from(overhead).unwrap_or(u64::MAX),
            runtime_metadata_bytes: self.config.runtime_metadata_bytes,
            binary_bytes: self.config.binary_bytes,
        }
    }

    /// Resident memory (`process_resident_memory_bytes`): what the kernel charges the container.
    pub fn rss_bytes(&self) -> u64 {
        self.rss().rss_bytes()
    }

    /// Free heap pages, resident and released.
    pub fn free_pages(&self) -> FreePages {
        self.pages
    }

    /// The goal reported as `go_memstats_next_gc_bytes`.
    pub fn heap_goal_bytes(&self) -> u64 {
        self.pacer.heap_goal_bytes(self.limit_inputs())
    }

    /// The fraction of CPU the GC takes at `now`, to slow the operator down.
    pub fn gc_cpu_fraction(&self, now: SimTime) -> f64 {
        self.pacer.gc_cpu_fraction(now)
    }

    /// Live bytes by owner.
    pub fn heap_by_owner(&self) -> VecMap<HeapOwner, u64> {
        self.heap.by_owner()
    }

    /// A snapshot of the process's metrics.
    pub fn metrics(&self) -> GoMetrics {
        let rss = self.rss();
        GoMetrics {
            go_memstats_heap_alloc_bytes: rss.heap_in_use_bytes,
            go_memstats_heap_idle_bytes: self
                .pages
                .free_bytes
                .saturating_add(self.pages.released_bytes),
            go_memstats_heap_released_bytes: self.pages.released_bytes,
            go_memstats_stack_inuse_bytes: self.stack_bytes,
            go_memstats_next_gc_bytes: self.heap_goal_bytes(),
            go_memstats_alloc_bytes_total: self.heap.allocated_bytes_total(),
            go_memstats_last_gc_time_seconds: self
                .pacer
                .last_gc_at()
                .map_or(0.0, SimTime::as_secs_f64),
            go_goroutines: self.goroutines,
            go_gc_duration_seconds_count: self.pacer.cycles(),
            go_gc_duration_seconds_sum: self.pacer.pause_total().as_secs_f64(),
            go_cpu_classes_gc_total_cpu_seconds_total: self.pacer.gc_cpu_total().as_secs_f64(),
            go_gc_gogc_percent: self.config.gc.gogc.percent(),
            go_gc_gomemlimit_bytes: self.config.gc.memory_limit_bytes,
            process_resident_memory_bytes: rss.rss_bytes(),
            process_start_time_seconds: self.started_at.as_secs_f64(),
        }
    }

    /// What GOMEMLIMIT's goal reads; zeros without a limit, where the pacer reads none of it (it
    /// runs after every event, and the resident breakdown costs a 128-bit multiply).
    fn limit_inputs(&self) -> LimitInputs {
        if self.config.gc.memory_limit_bytes.is_none() {
            return LimitInputs::default();
        }
        let rss = self.rss();
        LimitInputs {
            non_heap_bytes: rss.non_heap_bytes(),
            runtime_total_bytes: rss.runtime_total_bytes(),
        }
    }

    #[allow(
        clippy::inline_always,
        reason = "runs for every owner's growth after every event (`SimProcess::set_owners`); \
                  left to itself LLVM stopped inlining it after unrelated changes elsewhere, \
                  which cost the incident's minute 89 million instructions (1.1 %, cachegrind)"
    )]
    #[inline(always)]
    fn after_alloc(&mut self, bytes: u64, now: SimTime) -> Option<GcCycle> {
        self.pages.on_alloc(bytes);
        if bytes == 0 {
            return None;
        }
        let trigger = self
            .pacer
            .trigger(self.heap.heap_bytes(), self.limit_inputs(), now)?;
        Some(self.run_cycle(trigger, now))
    }

    fn run_cycle(&mut self, trigger: GcTrigger, now: SimTime) -> GcCycle {
        let goal = self.pacer.heap_goal_bytes(self.limit_inputs());
        let roots = self.roots_bytes();
        let cycle = self
            .pacer
            .run_cycle(now, trigger, &mut self.heap, roots, goal);
        self.pages.on_collect(cycle.collected_bytes);
        self.scavenge_to_limit();
        self.kept_retain_target_bytes = self.retain_target_bytes();
        cycle
    }

    /// Over the memory limit, the allocator releases free pages at once (`mheap.grow`).
    fn scavenge_to_limit(&mut self) {
        let Some(limit) = self.config.gc.memory_limit_bytes else {
            return;
        };
        let excess = self.rss().runtime_total_bytes().saturating_sub(limit);
        self.pages.release(excess);
    }

    fn scavenge_in_background(&mut self, now: SimTime) {
        let elapsed = now.saturating_since(self.last_advance);
        self.last_advance = self.last_advance.max(now);
        let retained = self.heap.heap_bytes().saturating_add(self.pages.free_bytes);
        let unlimited = self.config.gc.memory_limit_bytes.is_none();
        debug_assert!(!unlimited || self.kept_retain_target_bytes == self.retain_target_bytes());
        if unlimited && retained <= self.kept_retain_target_bytes {
            // nothing above the target: nothing to release (nearly every event of a run)
            return;
        }
        let rate = self.config.scavenge_rate_bytes_per_s;
        let retain_target = self.retain_target_bytes();
        let mut release = background_release_bytes(
            self.pages.free_bytes,
            retained,
            retain_target,
            elapsed,
            rate,
        );
        if let Some(limit) = self.config.gc.memory_limit_bytes {
            let target = limit / 100 * (100 - SCAVENGER_REDUCE_EXTRA_PERCENT);
            let total = self.rss().runtime_total_bytes();
            let for_limit =
                background_release_bytes(self.pages.free_bytes, total, target, elapsed, rate);
            release = release.max(for_limit);
        }
        self.pages.release(release);
    }

    /// 110 % of the heap goal (the scavenger's `gcPercentGoal`); none when there is no goal.
    /// Read at a cycle, at the start and under GOMEMLIMIT: kept out of line, one copy.
    #[inline(never)]
    fn retain_target_bytes(&self) -> u64 {
        let goal = u128::from(self.heap_goal_bytes());
        let extra = super::mul_div(goal, u128::from(SCAVENGER_RETAIN_EXTRA_PERCENT), 100);
        u64::try_from(goal + extra).unwrap_or(u64::MAX)
    }
}

/// The CPU a piece of mutator work really takes when the GC uses `gc_cpu_fraction` of the CPU:
/// `work / (1 − fraction)` (saturating; a fraction ≥ 1 stalls the work).
pub fn stretch_for_gc(work: Duration, gc_cpu_fraction: f64) -> Duration {
    let share = 1.0 - gc_cpu_fraction.clamp(0.0, 1.0);
    if share <= 0.0 {
        return Duration::MAX;
    }
    Duration::try_from_secs_f64(work.as_secs_f64() / share).unwrap_or(Duration::MAX)
}
