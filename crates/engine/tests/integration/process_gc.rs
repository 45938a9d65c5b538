//! The Go GC pacer: goal, minimum heap, GOGC off, GOMEMLIMIT, forced GC, CPU accounting.
//!
//! Sources: the Go GC guide (golang/website `_content/doc/gc-guide.html`), golang/go
//! `src/runtime/mgcpacer.go`, `mgclimit.go`, `proc.go`.

use std::time::Duration;

use flywheel_engine::process::gc::{BACKGROUND_UTILIZATION, FORCED_GC_PERIOD, LIMITED_UTILIZATION};
use flywheel_engine::process::{
    GcConfig, GcPacer, GcTrigger, GoProcess, GoProcessConfig, Gogc, HeapOwner, KIB, MIB,
};
use flywheel_engine::SimTime;

fn secs(s: u64) -> SimTime {
    SimTime::from_millis(s * 1000)
}

/// A process whose roots are exactly 1 MiB of stacks (128 goroutines × 8 KiB) and 1 MiB of
/// globals, as in the GC guide's example.
fn guide_process(gogc: Gogc) -> GoProcess {
    let config = GoProcessConfig {
        gc: GcConfig {
            gogc,
            ..GcConfig::default()
        },
        initial_goroutines: 128,
        stack_bytes_per_goroutine: 8 * KIB,
        globals_bytes: MIB,
        ..GoProcessConfig::default()
    };
    GoProcess::new(config, SimTime::ZERO).expect("valid config")
}

fn goal_after_marking_8_mib(gogc: Gogc) -> u64 {
    let mut process = guide_process(gogc);
    process.alloc(HeapOwner::InformerStore, 8 * MIB, SimTime::ZERO);
    process.run_gc(SimTime::ZERO);
    assert_eq!(process.roots_bytes(), 2 * MIB);
    process.pacer().gogc_goal_bytes().expect("GOGC is on")
}

#[test]
fn the_gc_goal_is_live_plus_live_plus_roots_times_gogc_over_100() {
    // GC guide: live 8 MiB, stacks 1 MiB, globals 1 MiB, GOGC=100 ⇒ 18 MiB total.
    assert_eq!(goal_after_marking_8_mib(Gogc::Percent(100)), 18 * MIB);
    assert_eq!(
        GcPacer::gogc_goal_for(Gogc::Percent(100), 8 * MIB, 2 * MIB),
        Some(18 * MIB)
    );
}

#[test]
fn halving_gogc_halves_the_new_heap_the_guide_allows_and_doubling_it_doubles_it() {
    // GC guide: GOGC=50 ⇒ 5 MiB of new heap; GOGC=200 ⇒ 20 MiB.
    assert_eq!(
        goal_after_marking_8_mib(Gogc::Percent(50)) - 8 * MIB,
        5 * MIB
    );
    assert_eq!(
        goal_after_marking_8_mib(Gogc::Percent(200)) - 8 * MIB,
        20 * MIB
    );
}

#[test]
fn the_goal_never_drops_below_four_mib_times_gogc_over_100() {
    // mgcpacer.go: heapMinimum = defaultHeapMinimum (4 MiB) · GOGC/100.
    assert_eq!(
        GcPacer::gogc_goal_for(Gogc::Percent(100), 0, 0),
        Some(4 * MIB)
    );
    assert_eq!(
        GcPacer::gogc_goal_for(Gogc::Percent(50), 0, 0),
        Some(2 * MIB)
    );
    assert_eq!(
        GcPacer::gogc_goal_for(Gogc::Percent(200), 1000, 0),
        Some(8 * MIB)
    );
}

#[test]
fn gogc_off_has_no_proportional_goal_and_never_collects_without_a_limit() {
    let mut process = guide_process(Gogc::Off);
    for i in 0..200 {
        process.alloc_transient(HeapOwner::ListCopies, MIB, secs(i));
    }
    assert_eq!(process.pacer().cycles(), 0);
    assert_eq!(process.heap().heap_bytes(), 200 * MIB);
    assert_eq!(process.heap_goal_bytes(), u64::MAX);
}

#[test]
fn the_heap_saws_up_to_the_goal_and_drops_to_the_live_heap_at_each_cycle() {
    let mut process = guide_process(Gogc::Percent(100));
    process.alloc(HeapOwner::InformerStore, 8 * MIB, SimTime::ZERO);
    process.run_gc(SimTime::ZERO);
    let mut peaks = Vec::new();
    let mut previous = process.heap().heap_bytes();
    for i in 1..=100u64 {
        let now = SimTime::from_millis(i * 10);
        if let Some(cycle) = process.alloc_transient(HeapOwner::InflightReconciles, MIB, now) {
            assert_eq!(cycle.trigger, GcTrigger::HeapGoal);
            assert_eq!(cycle.heap_before_bytes, 18 * MIB);
            assert_eq!(process.heap().heap_bytes(), 8 * MIB);
            peaks.push(previous + MIB);
        }
        previous = process.heap().heap_bytes();
    }
    // 10 MiB of garbage per cycle, 100 MiB allocated ⇒ 10 cycles, each at 18 MiB.
    assert_eq!(peaks.len(), 10);
    assert!(peaks.iter().all(|&p| p == 18 * MIB));
    // Plus the cycle the first allocation triggered (4 MiB minimum goal) and the manual one.
    assert_eq!(process.pacer().cycles(), 12);
}

#[test]
fn doubling_gogc_roughly_halves_the_number_of_cycles() {
    let cycles = |gogc| {
        let mut process = guide_process(Gogc::Percent(gogc));
        process.alloc(HeapOwner::InformerStore, 8 * MIB, SimTime::ZERO);
        for i in 0..1000u64 {
            process.alloc_transient(HeapOwner::Logging, MIB, SimTime::from_millis(i));
        }
        process.pacer().cycles()
    };
    let (at_100, at_200) = (cycles(100), cycles(200));
    assert!(
        at_200 * 2 <= at_100 + 2,
        "GOGC 100: {at_100}, GOGC 200: {at_200}"
    );
    assert!(
        at_200 * 2 + 2 >= at_100,
        "GOGC 100: {at_100}, GOGC 200: {at_200}"
    );
}

#[test]
fn the_memory_limit_lowers_the_goal_below_the_gogc_goal() {
    let config = GoProcessConfig {
        gc: GcConfig {
            memory_limit_bytes: Some(100 * MIB),
            ..GcConfig::default()
        },
        ..GoProcessConfig::default()
    };
    let mut process = GoProcess::new(config, SimTime::ZERO).expect("valid");
    process.alloc(HeapOwner::InformerStore, 60 * MIB, SimTime::ZERO);
    process.run_gc(SimTime::ZERO);
    let gogc_goal = process.pacer().gogc_goal_bytes().expect("on");
    assert!(gogc_goal > 120 * MIB);
    let goal = process.heap_goal_bytes();
    let non_heap = process.rss().non_heap_bytes();
    assert!(
        goal < 100 * MIB - non_heap,
        "goal {goal} non-heap {non_heap}"
    );
    let mut limit_cycles = 0;
    for i in 1..=200u64 {
        let now = SimTime::from_millis(i * 100);
        if let Some(cycle) = process.alloc_transient(HeapOwner::Other, MIB, now) {
            assert_eq!(cycle.trigger, GcTrigger::MemoryLimit);
            limit_cycles += 1;
        }
        assert!(process.rss().runtime_total_bytes() <= 100 * MIB);
    }
    assert!(limit_cycles > 0);
}

#[test]
fn under_an_impossible_memory_limit_memory_exceeds_it_and_gc_cpu_stays_near_half() {
    // GC guide: the limit is soft; GC CPU is capped at ~50 % so a live heap above the limit
    // does not thrash forever.
    let config = GoProcessConfig {
        gc: GcConfig {
            gogc: Gogc::Off,
            memory_limit_bytes: Some(64 * MIB),
            mark_cpu_ns_per_mib: 2_000_000,
            ..GcConfig::default()
        },
        ..GoProcessConfig::default()
    };
    let mut process = GoProcess::new(config, SimTime::ZERO).expect("valid");
    process.alloc(HeapOwner::FifoDeltas, 100 * MIB, SimTime::ZERO);
    let start = SimTime::ZERO;
    let end = secs(60);
    let mut now = start;
    while now < end {
        now += Duration::from_millis(1);
        process.alloc_transient(HeapOwner::InflightReconciles, 64 * KIB, now);
    }
    assert!(process.rss().runtime_total_bytes() > 64 * MIB);
    let gc_cpu = process.pacer().gc_cpu_total().as_secs_f64();
    let cpu = (end - start).as_secs_f64() * 2.0;
    let share = gc_cpu / cpu;
    assert!(share <= 0.55, "GC used {share:.2} of the CPU");
    assert!(share >= 0.3, "GC used only {share:.2} of the CPU");
    assert!(process.pacer().cycles() > 10);
}

#[test]
fn a_gc_is_forced_when_none_ran_for_two_minutes_once_one_has_run() {
    // runtime/proc.go forcegcperiod; mgc.go gcTrigger.test requires lastgc != 0.
    let mut process = guide_process(Gogc::Percent(100));
    process.alloc(HeapOwner::Baseline, MIB, SimTime::ZERO);
    assert_eq!(process.advance(secs(600)), None);
    process.run_gc(secs(600));
    assert_eq!(process.advance(secs(600) + FORCED_GC_PERIOD), None);
    let forced = process
        .advance(secs(600) + FORCED_GC_PERIOD + Duration::from_millis(1))
        .expect("forced cycle");
    assert_eq!(forced.trigger, GcTrigger::Periodic);
}

#[test]
fn gogc_off_disables_the_periodic_gc_too() {
    let mut process = guide_process(Gogc::Off);
    process.run_gc(SimTime::ZERO);
    assert_eq!(process.advance(secs(3600)), None);
}

#[test]
fn marking_uses_a_quarter_of_gomaxprocs_for_a_time_proportional_to_the_live_heap() {
    let config = GoProcessConfig {
        gc: GcConfig {
            gomaxprocs: 4,
            mark_cpu_ns_per_mib: 1_000_000,
            cycle_cpu_us: 0,
            ..GcConfig::default()
        },
        initial_goroutines: 0,
        globals_bytes: 0,
        ..GoProcessConfig::default()
    };
    let mut process = GoProcess::new(config, SimTime::ZERO).expect("valid");
    process.alloc(HeapOwner::InformerStore, 500 * MIB, SimTime::ZERO);
    let cycle = process.run_gc(secs(1));
    assert_eq!(cycle.mark_cpu, Duration::from_millis(500));
    assert_eq!(cycle.utilization, BACKGROUND_UTILIZATION);
    // 0.5 CPU-s at 0.25 × 4 cores = 0.5 s of wall time.
    assert_eq!(
        cycle.mark_end - cycle.mark_start,
        Duration::from_millis(500)
    );
    assert_eq!(
        process.gc_cpu_fraction(secs(1) + Duration::from_millis(499)),
        0.25
    );
    assert_eq!(
        process.gc_cpu_fraction(secs(1) + Duration::from_millis(500)),
        0.0
    );
    let queued = process.run_gc(secs(1) + Duration::from_millis(100));
    assert_eq!(queued.mark_start, cycle.mark_end);
    assert_eq!(queued.utilization, LIMITED_UTILIZATION);
}

#[test]
fn the_last_gc_times_are_kept_for_chart_marks() {
    let config = GoProcessConfig {
        gc: GcConfig {
            history_len: 3,
            ..GcConfig::default()
        },
        ..GoProcessConfig::default()
    };
    let mut process = GoProcess::new(config, SimTime::ZERO).expect("valid");
    for s in 1..=5 {
        process.run_gc(secs(s));
    }
    assert_eq!(
        process.pacer().recent_gc_times(),
        vec![secs(3), secs(4), secs(5)]
    );
    assert_eq!(process.pacer().cycles(), 5);
    assert_eq!(process.metrics().go_gc_duration_seconds_count, 5);
}

#[test]
fn invalid_gc_settings_are_rejected_naming_the_field_and_range() {
    let bad = |gc: GcConfig| GcPacer::new(gc).expect_err("invalid");
    let e = bad(GcConfig {
        gogc: Gogc::Percent(0),
        ..GcConfig::default()
    });
    assert_eq!(e.field, "gogc");
    assert!(e.message.contains("1..=10000"), "{}", e.message);
    let e = bad(GcConfig {
        gogc: Gogc::Percent(10_001),
        ..GcConfig::default()
    });
    assert_eq!(e.field, "gogc");
    let e = bad(GcConfig {
        memory_limit_bytes: Some(0),
        ..GcConfig::default()
    });
    assert_eq!(e.field, "memory_limit_bytes");
    let e = bad(GcConfig {
        gomaxprocs: 0,
        ..GcConfig::default()
    });
    assert_eq!(e.field, "gomaxprocs");
    let e = bad(GcConfig {
        history_len: 0,
        ..GcConfig::default()
    });
    assert_eq!(e.field, "history_len");
}

#[test]
fn gc_settings_parse_with_defaults_and_reject_unknown_fields() {
    let config: GcConfig =
        serde_json::from_str(r#"{"gogc": "off", "memory_limit_bytes": 1048576}"#).expect("parse");
    assert_eq!(config.gogc, Gogc::Off);
    assert_eq!(config.memory_limit_bytes, Some(MIB));
    assert_eq!(config.gomaxprocs, GcConfig::default().gomaxprocs);
    assert!(serde_json::from_str::<GcConfig>(r#"{"gogc": 100, "gomemlimit": 5}"#).is_err());
    let process: GoProcessConfig =
        serde_json::from_str(r#"{"gc": {"gogc": 50}, "initial_goroutines": 3}"#).expect("parse");
    assert_eq!(process.gc.gogc, Gogc::Percent(50));
    assert!(serde_json::from_str::<GoProcessConfig>(r#"{"goroutines": 3}"#).is_err());
}
