//! client-go `util/flowcontrol/backoff.go` and the kubelet's CrashLoopBackOff
//! (kubernetes `pkg/kubelet/kubelet.go` `newCrashLoopBackOff`,
//! `pkg/kubelet/kuberuntime/kuberuntime_manager.go` `doBackOff`).
//!
//! The first four tests replay client-go `util/flowcontrol/backoff_test.go` (the jitter-free
//! cases) on virtual time.

use std::time::Duration;

use flywheel_engine::process::{Backoff, CrashLoopBackOff, CrashLoopConfig};
use flywheel_engine::SimTime;

fn secs(s: u64) -> SimTime {
    SimTime::from_millis(s * 1000)
}

fn d(s: u64) -> Duration {
    Duration::from_secs(s)
}

fn backoff(initial: u64, max: u64) -> Backoff {
    Backoff::new(d(initial), d(max)).expect("valid backoff")
}

#[test]
fn backoff_doubles_from_the_initial_duration_up_to_the_max() {
    // backoff_test.go TestSlowBackoff: 0, 1, 2, 4, 8, 16, 32, 50, 50, 50 with a 1 s step.
    let mut b = backoff(1, 50);
    let start = secs(1000);
    for (i, expected) in [0, 1, 2, 4, 8, 16, 32, 50, 50, 50].into_iter().enumerate() {
        let now = start + d(i as u64 + 1);
        assert_eq!(b.get(), d(expected), "step {i}");
        b.next(now, now);
    }
}

#[test]
fn backoff_ends_once_its_entry_is_older_than_twice_the_max() {
    // backoff_test.go TestBackoffReset.
    let mut b = backoff(1, 5);
    let mut now = secs(0);
    for _ in 0..=5 {
        now += d(1);
        b.next(now, now);
    }
    assert!(b.is_in_backoff_since(now, now));
    let last_update = now;
    now += d(11);
    assert!(!b.is_in_backoff_since(last_update, now));
}

#[test]
fn backoff_stays_at_the_max_until_the_entry_expires() {
    // backoff_test.go TestBackoffHightWaterMark.
    let mut b = backoff(1, 5);
    let mut now = secs(0);
    for _ in 0..=5 {
        now += d(1);
        b.next(now, now);
    }
    now += d(6);
    b.next(now, now);
    assert_eq!(b.get(), d(5));
}

#[test]
fn is_in_backoff_since_update_follows_the_upstream_table() {
    // backoff_test.go TestIsInBackOffSinceUpdate: (tick, in backoff, backoff value).
    let cases: [(u64, bool, u64); 39] = [
        (0, false, 0),
        (1, false, 1),
        (2, true, 2),
        (3, false, 2),
        (4, true, 4),
        (5, true, 4),
        (6, true, 4),
        (7, false, 4),
        (8, true, 8),
        (9, true, 8),
        (10, true, 8),
        (11, true, 8),
        (12, true, 8),
        (13, true, 8),
        (14, true, 8),
        (15, false, 8),
        (16, true, 10),
        (17, true, 10),
        (18, true, 10),
        (19, true, 10),
        (20, true, 10),
        (21, true, 10),
        (22, true, 10),
        (23, true, 10),
        (24, true, 10),
        (25, false, 10),
        (26, true, 10),
        (27, true, 10),
        (28, true, 10),
        (29, true, 10),
        (30, true, 10),
        (31, true, 10),
        (32, true, 10),
        (33, true, 10),
        (34, true, 10),
        (35, false, 10),
        (56, false, 0),
        (57, false, 1),
        (58, true, 2),
    ];
    let mut b = backoff(1, 10);
    let start = secs(100);
    for (tick, in_backoff, value) in cases {
        let now = start + d(tick);
        assert_eq!(b.is_in_backoff_since_update(now), in_backoff, "tick {tick}");
        if in_backoff {
            assert_eq!(b.get(), d(value), "tick {tick}");
        } else {
            b.next(now, now);
        }
    }
}

#[test]
fn backoff_gc_drops_only_expired_entries() {
    // backoff_test.go TestBackoffGC.
    let mut b = backoff(1, 5);
    let mut now = secs(0);
    for _ in 0..=5 {
        now += d(1);
        b.next(now, now);
    }
    now += d(6);
    b.gc(now);
    assert!(b.entry().is_some());
    now += d(6);
    b.gc(now);
    assert!(b.entry().is_none());
}

/// Crashes a container `run` after each restart, `n` times, starting at `start`; returns the
/// waits between each crash and its restart.
fn waits(crash_loop: &mut CrashLoopBackOff, start: SimTime, run: Duration, n: usize) -> Vec<u64> {
    let mut started = start;
    (0..n)
        .map(|_| {
            let finished = started + run;
            let restart = crash_loop.on_container_exit(finished);
            crash_loop.on_container_started();
            started = restart;
            (restart - finished).as_secs()
        })
        .collect()
}

#[test]
fn crash_loop_waits_double_from_ten_seconds_to_five_minutes() {
    let mut crash_loop = CrashLoopBackOff::new(&CrashLoopConfig::default()).expect("valid");
    assert_eq!(
        waits(&mut crash_loop, secs(0), d(5), 10),
        vec![0, 10, 20, 40, 80, 160, 300, 300, 300, 300]
    );
}

#[test]
fn the_first_crash_restarts_right_away_and_sets_the_backoff_to_ten_seconds() {
    let mut crash_loop = CrashLoopBackOff::new(&CrashLoopConfig::default()).expect("valid");
    let restart = crash_loop.on_container_exit(secs(42));
    assert_eq!(restart, secs(42));
    assert_eq!(crash_loop.current_backoff(), d(10));
    assert!(!crash_loop.is_backing_off(secs(42)));
}

#[test]
fn waits_are_measured_from_the_crash_not_from_the_restart() {
    let mut crash_loop = CrashLoopBackOff::new(&CrashLoopConfig::default()).expect("valid");
    crash_loop.on_container_exit(secs(0));
    crash_loop.on_container_started();
    // Runs 30 s, crashes at 30 s: waits 10 s from the crash.
    assert_eq!(crash_loop.on_container_exit(secs(30)), secs(40));
    assert!(crash_loop.is_backing_off(secs(39)));
    assert!(!crash_loop.is_backing_off(secs(40)));
}

#[test]
fn a_container_that_ran_ten_minutes_restarts_its_backoff_at_ten_seconds() {
    let mut crash_loop = CrashLoopBackOff::new(&CrashLoopConfig::default()).expect("valid");
    let quick = waits(&mut crash_loop, secs(0), d(5), 6);
    assert_eq!(quick, vec![0, 10, 20, 40, 80, 160]);
    assert_eq!(crash_loop.current_backoff(), d(300));
    let last_restart = crash_loop.backoff().entry().expect("entry").last_update;
    // It now runs a little over 10 minutes: the entry has expired, so it restarts at once…
    let finished = last_restart + d(601);
    assert_eq!(crash_loop.on_container_exit(finished), finished);
    crash_loop.on_container_started();
    // …and the next quick crash waits 10 s again.
    assert_eq!(crash_loop.current_backoff(), d(10));
    assert_eq!(
        crash_loop.on_container_exit(finished + d(5)),
        finished + d(15)
    );
}

#[test]
fn an_entry_expires_ten_minutes_after_the_last_restart_decision_even_mid_wait() {
    // doBackOff checks expiry against the clock: a container that ran 7 minutes with a 300 s
    // backoff waits only until 600 s after its last restart decision, and keeps its 300 s entry.
    let mut crash_loop = CrashLoopBackOff::new(&CrashLoopConfig::default()).expect("valid");
    waits(&mut crash_loop, secs(0), d(5), 7);
    let last_restart = crash_loop.backoff().entry().expect("entry").last_update;
    let finished = last_restart + d(420);
    let restart = crash_loop.on_container_exit(finished);
    assert_eq!(restart, last_restart + d(600) + Duration::from_nanos(1));
    assert_eq!(crash_loop.current_backoff(), d(300));
}

#[test]
fn the_reduced_decay_gate_waits_one_second_doubling_to_one_minute() {
    let mut crash_loop = CrashLoopBackOff::new(&CrashLoopConfig::reduced_decay()).expect("valid");
    assert_eq!(
        waits(&mut crash_loop, secs(0), d(1), 9),
        vec![0, 1, 2, 4, 8, 16, 32, 60, 60]
    );
}

#[test]
fn an_initial_backoff_above_the_max_is_lowered_to_the_max() {
    // newCrashLoopBackOff: "initial is lowered to max if max < initial".
    let config = CrashLoopConfig {
        initial_backoff_s: 30.0,
        max_backoff_s: 20.0,
        ..CrashLoopConfig::default()
    };
    let crash_loop = CrashLoopBackOff::new(&config).expect("valid");
    assert_eq!(crash_loop.backoff().initial(), d(20));
}

#[test]
fn crash_loop_settings_are_validated_and_parsed_strictly() {
    for (field, config) in [
        (
            "initial_backoff_s",
            CrashLoopConfig {
                initial_backoff_s: 0.0,
                ..CrashLoopConfig::default()
            },
        ),
        (
            "max_backoff_s",
            CrashLoopConfig {
                max_backoff_s: f64::NAN,
                ..CrashLoopConfig::default()
            },
        ),
        (
            "reset_after_s",
            CrashLoopConfig {
                reset_after_s: -1.0,
                ..CrashLoopConfig::default()
            },
        ),
    ] {
        let e = CrashLoopBackOff::new(&config).expect_err("invalid");
        assert_eq!(e.field, field);
        assert!(e.message.contains("0.001..=86400"), "{}", e.message);
    }
    let config: CrashLoopConfig = serde_json::from_str(r#"{"max_backoff_s": 60}"#).expect("parse");
    assert_eq!(config.initial_backoff_s, 10.0);
    assert!(serde_json::from_str::<CrashLoopConfig>(r#"{"max_backoff": 60}"#).is_err());
}

#[test]
fn backoff_rejects_a_zero_initial_and_a_max_below_the_initial() {
    assert_eq!(
        Backoff::new(Duration::ZERO, d(1)).expect_err("zero").field,
        "initial"
    );
    assert_eq!(
        Backoff::new(d(2), d(1)).expect_err("max < initial").field,
        "max"
    );
}
