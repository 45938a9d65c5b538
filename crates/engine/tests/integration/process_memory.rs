//! Resident memory of the Go process: heap by owner, free pages, the scavenger, goroutine stacks
//! and the metrics a dashboard shows (the GC guide: "watch RSS, not the heap").

use std::time::Duration;

use flywheel_engine::process::{
    stretch_for_gc, GcConfig, GoProcess, GoProcessConfig, Gogc, HeapOwner, KIB, MIB,
};
use flywheel_engine::SimTime;

fn secs(s: u64) -> SimTime {
    SimTime::from_millis(s * 1000)
}

fn quiet_config() -> GoProcessConfig {
    GoProcessConfig {
        initial_goroutines: 0,
        globals_bytes: 0,
        binary_bytes: 16 * MIB,
        runtime_metadata_bytes: 8 * MIB,
        heap_overhead_percent: 0,
        scavenge_rate_bytes_per_s: MIB,
        ..GoProcessConfig::default()
    }
}

#[test]
fn rss_is_heap_in_use_plus_free_pages_plus_stacks_plus_overheads() {
    let config = GoProcessConfig {
        initial_goroutines: 10,
        stack_bytes_per_goroutine: 8 * KIB,
        heap_overhead_percent: 10,
        ..quiet_config()
    };
    let mut process = GoProcess::new(config, SimTime::ZERO).expect("valid");
    process.alloc(HeapOwner::InformerStore, 30 * MIB, SimTime::ZERO);
    process.alloc_transient(HeapOwner::ListCopies, 10 * MIB, SimTime::ZERO);
    let rss = process.rss();
    // The first allocation crossed the 4 MiB minimum goal and ran a cycle (goal now ~60 MiB);
    // the transient 10 MiB is garbage, in use until the next cycle.
    assert_eq!(process.pacer().cycles(), 1);
    assert_eq!(process.heap().garbage_bytes(), 10 * MIB);
    assert_eq!(rss.heap_in_use_bytes, 40 * MIB);
    assert_eq!(rss.heap_free_bytes, 0);
    assert_eq!(rss.stack_bytes, 80 * KIB);
    assert_eq!(
        rss.heap_overhead_bytes,
        (rss.heap_in_use_bytes + rss.heap_free_bytes) / 10
    );
    assert_eq!(
        process.rss_bytes(),
        rss.heap_in_use_bytes
            + rss.heap_free_bytes
            + 80 * KIB
            + rss.heap_overhead_bytes
            + 8 * MIB
            + 16 * MIB
    );
    assert_eq!(
        process.metrics().process_resident_memory_bytes,
        process.rss_bytes()
    );
}

#[test]
fn rss_stays_up_after_a_gc_until_the_scavenger_releases_the_free_pages() {
    let mut process = GoProcess::new(quiet_config(), SimTime::ZERO).expect("valid");
    process.alloc(HeapOwner::Baseline, 10 * MIB, SimTime::ZERO);
    process.run_gc(SimTime::ZERO);
    // 10 MiB live ⇒ goal 20 MiB; allocate 9 MiB of garbage (below the goal).
    process.alloc_transient(HeapOwner::ListCopies, 9 * MIB, SimTime::ZERO);
    let before = process.rss_bytes();
    let cycle = process.run_gc(secs(1));
    assert_eq!(cycle.collected_bytes, 9 * MIB);
    assert_eq!(process.heap().heap_bytes(), 10 * MIB);
    assert_eq!(process.rss_bytes(), before, "freed pages stay resident");
    assert_eq!(process.free_pages().free_bytes, 9 * MIB);
    // The goal (20 MiB) × 110 % exceeds the 19 MiB retained: nothing to release.
    process.advance(secs(100));
    assert_eq!(process.rss_bytes(), before);
}

#[test]
fn the_scavenger_releases_at_its_rate_down_to_110_percent_of_the_goal() {
    let mut process = GoProcess::new(quiet_config(), SimTime::ZERO).expect("valid");
    process.alloc(HeapOwner::ListCopies, 100 * MIB, SimTime::ZERO);
    process.run_gc(SimTime::ZERO);
    // The relist copies are dropped; the next cycle leaves 90 MiB free with 10 MiB live.
    process.free(HeapOwner::ListCopies, 90 * MIB);
    process.run_gc(secs(1));
    assert_eq!(process.heap().live_bytes(), 10 * MIB);
    assert_eq!(process.free_pages().free_bytes, 90 * MIB);
    process.advance(secs(1));
    let rss_after_gc = process.rss_bytes();
    process.advance(secs(11));
    // 1 MiB/s for 10 s.
    assert_eq!(process.rss_bytes(), rss_after_gc - 10 * MIB);
    process.advance(secs(1000));
    // Retained heap (in use + free) ends at 110 % of the 20 MiB goal.
    let retained = process.heap().heap_bytes() + process.free_pages().free_bytes;
    assert_eq!(retained, 22 * MIB);
    assert_eq!(process.metrics().go_memstats_heap_released_bytes, 78 * MIB);
}

#[test]
fn allocations_reuse_free_pages_before_rss_grows_again() {
    let mut process = GoProcess::new(quiet_config(), SimTime::ZERO).expect("valid");
    process.alloc(HeapOwner::ListCopies, 50 * MIB, SimTime::ZERO);
    process.free(HeapOwner::ListCopies, 40 * MIB);
    process.run_gc(SimTime::ZERO);
    let rss = process.rss_bytes();
    process.alloc(HeapOwner::FifoDeltas, 30 * MIB, secs(1));
    assert_eq!(process.rss_bytes(), rss);
    assert_eq!(process.free_pages().free_bytes, 10 * MIB);
}

#[test]
fn goroutines_carry_stacks_that_count_as_gc_roots() {
    let config = GoProcessConfig {
        initial_goroutines: 4,
        stack_bytes_per_goroutine: 8 * KIB,
        globals_bytes: MIB,
        ..quiet_config()
    };
    let mut process = GoProcess::new(config, SimTime::ZERO).expect("valid");
    process.spawn_goroutines(6);
    assert_eq!(process.goroutines(), 10);
    assert_eq!(process.stack_bytes(), 80 * KIB);
    process.grow_stacks(20 * KIB);
    assert_eq!(process.roots_bytes(), 100 * KIB + MIB);
    process.exit_goroutines(5);
    assert_eq!(process.goroutines(), 5);
    assert_eq!(process.stack_bytes(), 50 * KIB);
    process.exit_goroutines(50);
    assert_eq!(process.goroutines(), 0);
    assert_eq!(process.stack_bytes(), 0);
    assert_eq!(process.metrics().go_goroutines, 0);
}

#[test]
fn heap_metrics_report_the_sawtooth_and_live_bytes_by_owner() {
    let mut process = GoProcess::new(quiet_config(), SimTime::ZERO).expect("valid");
    process.alloc(HeapOwner::InformerStore, 6 * MIB, SimTime::ZERO);
    process.alloc(HeapOwner::FifoDeltas, 2 * MIB, SimTime::ZERO);
    process.alloc_transient(HeapOwner::InflightReconciles, MIB, SimTime::ZERO);
    let by_owner = process.heap_by_owner();
    assert_eq!(by_owner[&HeapOwner::InformerStore], 6 * MIB);
    assert_eq!(by_owner[&HeapOwner::FifoDeltas], 2 * MIB);
    assert_eq!(by_owner[&HeapOwner::InflightReconciles], 0);
    let metrics = process.metrics();
    assert_eq!(
        metrics.go_memstats_heap_alloc_bytes,
        process.heap().heap_bytes()
    );
    assert_eq!(metrics.go_memstats_alloc_bytes_total, 9 * MIB);
    assert_eq!(metrics.go_memstats_next_gc_bytes, process.heap_goal_bytes());
    assert_eq!(metrics.go_gc_gogc_percent, Some(100));
    assert_eq!(metrics.go_gc_gomemlimit_bytes, None);
    assert_eq!(
        metrics.go_gc_duration_seconds_count,
        process.pacer().cycles()
    );
    let pause_sum = process.pacer().cycles() as f64 * 100e-6;
    assert!((metrics.go_gc_duration_seconds_sum - pause_sum).abs() < 1e-9);
}

#[test]
fn gc_cpu_slows_mutator_work_by_its_share() {
    assert_eq!(
        stretch_for_gc(Duration::from_millis(75), 0.25),
        Duration::from_millis(100)
    );
    assert_eq!(
        stretch_for_gc(Duration::from_millis(50), 0.5),
        Duration::from_millis(100)
    );
    assert_eq!(
        stretch_for_gc(Duration::from_millis(50), 0.0),
        Duration::from_millis(50)
    );
    assert_eq!(stretch_for_gc(Duration::from_millis(1), 1.0), Duration::MAX);
}

#[test]
fn with_a_memory_limit_the_allocator_releases_free_pages_to_stay_under_it() {
    let config = GoProcessConfig {
        gc: GcConfig {
            gogc: Gogc::Off,
            memory_limit_bytes: Some(64 * MIB),
            ..GcConfig::default()
        },
        ..quiet_config()
    };
    let mut process = GoProcess::new(config, SimTime::ZERO).expect("valid");
    process.alloc(HeapOwner::Baseline, 20 * MIB, SimTime::ZERO);
    for i in 0..200u64 {
        process.alloc_transient(HeapOwner::ListCopies, MIB, SimTime::from_millis(i * 50));
        assert!(
            process.rss().runtime_total_bytes() <= 64 * MIB,
            "at {i}: {}",
            process.rss().runtime_total_bytes()
        );
    }
    assert!(process.pacer().cycles() > 0);
}

#[test]
fn invalid_process_settings_are_rejected_naming_the_field() {
    let bad = |config: GoProcessConfig| GoProcess::new(config, SimTime::ZERO).expect_err("invalid");
    assert_eq!(
        bad(GoProcessConfig {
            stack_bytes_per_goroutine: KIB,
            ..GoProcessConfig::default()
        })
        .field,
        "stack_bytes_per_goroutine"
    );
    assert_eq!(
        bad(GoProcessConfig {
            heap_overhead_percent: 101,
            ..GoProcessConfig::default()
        })
        .field,
        "heap_overhead_percent"
    );
    assert_eq!(
        bad(GoProcessConfig {
            gc: GcConfig {
                gogc: Gogc::Percent(0),
                ..GcConfig::default()
            },
            ..GoProcessConfig::default()
        })
        .field,
        "gogc"
    );
}
