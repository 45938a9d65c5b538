//! Property tests: heap accounting never goes negative and matches a model; the heap stays
//! between the live heap and the goal plus one allocation; CrashLoopBackOff waits stay within
//! their bounds; the client rate limiter never lets more than `burst + qps·T` requests through in
//! any window of length `T`.

use std::collections::BTreeMap;
use std::time::Duration;

use flywheel_engine::client::TokenBucketRateLimiter;
use flywheel_engine::process::{
    CrashLoopBackOff, CrashLoopConfig, GcConfig, GoProcess, GoProcessConfig, Gogc, Heap, HeapOwner,
    KIB, MIB,
};
use flywheel_engine::SimTime;
use proptest::prelude::*;

/// One step of a random memory workload.
#[derive(Clone, Debug)]
enum Op {
    Alloc(usize, u64),
    Transient(usize, u64),
    Free(usize, u64),
    Advance(u64),
    Spawn(u64),
    Exit(u64),
    Gc,
}

fn op_strategy(max_bytes: u64) -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..10usize, 0..=max_bytes).prop_map(|(o, b)| Op::Alloc(o, b)),
        4 => (0..10usize, 0..=max_bytes).prop_map(|(o, b)| Op::Transient(o, b)),
        4 => (0..10usize, 0..=max_bytes).prop_map(|(o, b)| Op::Free(o, b)),
        2 => (0..200_000u64).prop_map(Op::Advance),
        1 => (0..100u64).prop_map(Op::Spawn),
        1 => (0..100u64).prop_map(Op::Exit),
        1 => Just(Op::Gc),
    ]
}

proptest! {
    #[test]
    fn heap_accounting_never_goes_negative_and_matches_a_model(
        ops in proptest::collection::vec(op_strategy(10 * MIB), 0..300)
    ) {
        let mut heap = Heap::new();
        let mut live: BTreeMap<HeapOwner, u64> = BTreeMap::new();
        let mut garbage = 0u64;
        let mut errors = 0u64;
        for op in ops {
            match op {
                Op::Alloc(o, b) => {
                    let owner = HeapOwner::ALL[o];
                    heap.alloc(owner, b);
                    *live.entry(owner).or_default() += b;
                }
                Op::Transient(o, b) => {
                    heap.alloc_transient(HeapOwner::ALL[o], b);
                    garbage += b;
                }
                Op::Free(o, b) => {
                    let owner = HeapOwner::ALL[o];
                    heap.free(owner, b);
                    let held = live.entry(owner).or_default();
                    if b > *held {
                        errors += 1;
                    }
                    let freed = b.min(*held);
                    *held -= freed;
                    garbage += freed;
                }
                Op::Gc => {
                    prop_assert_eq!(heap.collect(), garbage);
                    garbage = 0;
                }
                Op::Advance(_) | Op::Spawn(_) | Op::Exit(_) => {}
            }
            for owner in HeapOwner::ALL {
                prop_assert_eq!(heap.live_bytes_of(owner), live.get(&owner).copied().unwrap_or(0));
            }
            prop_assert_eq!(heap.live_bytes(), heap.by_owner().values().sum::<u64>());
            prop_assert_eq!(heap.garbage_bytes(), garbage);
            prop_assert_eq!(heap.accounting_errors(), errors);
            prop_assert!(heap.live_bytes() <= heap.heap_bytes());
        }
    }

    #[test]
    fn live_never_exceeds_the_heap_and_the_heap_never_exceeds_the_goal_plus_one_allocation(
        gogc in 1u32..=400,
        ops in proptest::collection::vec(op_strategy(20 * MIB), 0..300)
    ) {
        let config = GoProcessConfig {
            gc: GcConfig { gogc: Gogc::Percent(gogc), ..GcConfig::default() },
            ..GoProcessConfig::default()
        };
        let mut process = GoProcess::new(config, SimTime::ZERO).expect("valid");
        let mut now = SimTime::ZERO;
        for op in ops {
            let goal_before = process.heap_goal_bytes();
            let mut allocation = 0;
            match op {
                Op::Alloc(o, b) => {
                    allocation = b;
                    process.alloc(HeapOwner::ALL[o], b, now);
                }
                Op::Transient(o, b) => {
                    allocation = b;
                    process.alloc_transient(HeapOwner::ALL[o], b, now);
                }
                Op::Free(o, b) => {
                    let held = process.heap().live_bytes_of(HeapOwner::ALL[o]);
                    process.free(HeapOwner::ALL[o], b.min(held));
                }
                Op::Advance(ms) => {
                    now += Duration::from_millis(ms);
                    process.advance(now);
                }
                Op::Spawn(n) => process.spawn_goroutines(n),
                Op::Exit(n) => process.exit_goroutines(n),
                Op::Gc => { process.run_gc(now); }
            }
            let heap = process.heap();
            prop_assert!(heap.live_bytes() <= heap.heap_bytes());
            prop_assert!(heap.heap_bytes() <= process.heap_goal_bytes().max(goal_before) + allocation);
            prop_assert!(heap.heap_bytes() <= process.heap_goal_bytes());
            prop_assert_eq!(heap.accounting_errors(), 0);
            let rss = process.rss();
            prop_assert_eq!(process.rss_bytes(), rss.runtime_total_bytes() + rss.binary_bytes);
            prop_assert!(process.gc_cpu_fraction(now) <= 0.5);
        }
    }

    #[test]
    fn a_memory_limit_never_lets_the_heap_grow_past_the_gogc_goal(
        limit_mib in 16u64..512,
        ops in proptest::collection::vec(op_strategy(8 * MIB), 0..300)
    ) {
        let config = GoProcessConfig {
            gc: GcConfig { memory_limit_bytes: Some(limit_mib * MIB), ..GcConfig::default() },
            ..GoProcessConfig::default()
        };
        let mut process = GoProcess::new(config, SimTime::ZERO).expect("valid");
        let mut now = SimTime::ZERO;
        for op in ops {
            match op {
                Op::Alloc(o, b) => { process.alloc(HeapOwner::ALL[o], b, now); }
                Op::Transient(o, b) => { process.alloc_transient(HeapOwner::ALL[o], b, now); }
                Op::Free(o, b) => process.free(HeapOwner::ALL[o], b),
                Op::Advance(ms) => {
                    now += Duration::from_millis(ms);
                    process.advance(now);
                }
                Op::Spawn(n) => process.spawn_goroutines(n),
                Op::Exit(n) => process.exit_goroutines(n),
                Op::Gc => { process.run_gc(now); }
            }
            let heap = process.heap();
            let gogc_goal = process.pacer().gogc_goal_bytes().expect("GOGC on");
            prop_assert!(heap.live_bytes() <= heap.heap_bytes());
            prop_assert!(heap.heap_bytes() <= gogc_goal);
            prop_assert!(process.gc_cpu_fraction(now) <= 0.5);
        }
    }

    #[test]
    fn huge_allocations_saturate_instead_of_panicking(
        sizes in proptest::collection::vec(any::<u64>(), 1..20)
    ) {
        let mut process = GoProcess::new(GoProcessConfig::default(), SimTime::ZERO).expect("valid");
        for (i, size) in sizes.into_iter().enumerate() {
            let now = SimTime::from_millis(i as u64);
            process.alloc(HeapOwner::Other, size, now);
            process.alloc_transient(HeapOwner::Logging, size, now);
            process.free(HeapOwner::Other, size);
            process.spawn_goroutines(size);
            process.grow_stacks(size);
            process.advance(SimTime::MAX);
            let _ = process.metrics();
            let _ = process.rss_bytes();
        }
    }

    #[test]
    fn crash_loop_waits_never_exceed_the_max_and_a_restart_never_precedes_its_crash(
        runs_s in proptest::collection::vec(0u64..1500, 1..40),
        initial_s in 1u64..60,
        max_s in 1u64..600,
    ) {
        let config = CrashLoopConfig {
            initial_backoff_s: initial_s as f64,
            max_backoff_s: max_s as f64,
            ..CrashLoopConfig::default()
        };
        let mut crash_loop = CrashLoopBackOff::new(&config).expect("valid");
        let mut started = SimTime::from_millis(1000);
        let mut previous_wait = Duration::ZERO;
        let mut previous_run = 0;
        for run in runs_s {
            let finished = started + Duration::from_secs(run);
            let restart = crash_loop.on_container_exit(finished);
            crash_loop.on_container_started();
            prop_assert!(restart >= finished);
            let wait = restart - finished;
            prop_assert!(wait <= Duration::from_secs(max_s));
            prop_assert!(crash_loop.current_backoff() <= Duration::from_secs(max_s));
            // A short run never shortens the wait, unless a run and its wait outlasted the
            // 10-minute reset: the kubelet's housekeeping GC (client-go
            // `util/flowcontrol/backoff.go` `GC`, from `pkg/kubelet/kubelet_pods.go`
            // `HandlePodCleanups`) then drops the entry mid-wait, and the next wait starts over.
            if previous_run + max_s < 600 && run + max_s < 600 && previous_wait > Duration::ZERO {
                prop_assert!(wait >= previous_wait);
            }
            previous_wait = wait;
            previous_run = run;
            started = restart;
        }
    }

    #[test]
    fn the_rate_limiter_never_sends_more_than_burst_plus_qps_times_the_window(
        qps in 1u32..50,
        burst in 1i32..40,
        gaps_ms in proptest::collection::vec(0u64..400, 1..200)
    ) {
        let mut limiter = TokenBucketRateLimiter::new(qps as f32, burst).expect("valid");
        let mut now = SimTime::from_millis(10_000);
        let mut sent = Vec::new();
        for gap in gaps_ms {
            now += Duration::from_millis(gap);
            let wait = limiter.wait(now);
            sent.push(now + wait);
        }
        prop_assert!(sent.windows(2).all(|w| w[0] <= w[1]));
        for i in 0..sent.len() {
            for j in i..sent.len() {
                let window = (sent[j] - sent[i]).as_secs_f64();
                let allowed = f64::from(burst) + f64::from(qps) * window + 1e-6;
                prop_assert!(((j - i + 1) as f64) <= allowed, "{} requests in {window}s", j - i + 1);
            }
        }
    }
}

#[test]
fn stacks_and_kib_constants_agree() {
    assert_eq!(KIB * 1024, MIB);
}
