//! client-go `util/flowcontrol/backoff.go` and the kubelet's CrashLoopBackOff
//! (kubernetes `pkg/kubelet/kubelet.go` `newCrashLoopBackOff`,
//! `pkg/kubelet/kuberuntime/kuberuntime_manager.go` `doBackOff`).
//!
//! The first four tests replay client-go `util/flowcontrol/backoff_test.go` (the jitter-free
//! cases) on virtual time.

use std::time::Duration;

use flywheel_engine::process::{Backoff, CrashLoopBackOff, CrashLoopConfig, HOUSEKEEPING_PERIOD};
use flywheel_engine::sim::EventKind;
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
fn a_wait_still_running_ten_minutes_after_the_last_restart_ends_at_the_housekeeping_gc() {
    // backoff.go GC drops an entry whose lastUpdate is more than 600 s old; pkg/kubelet/kubelet_pods.go
    // HandlePodCleanups calls it every housekeepingPeriod (2 s, pkg/kubelet/kubelet.go). A container
    // that ran 7 minutes with a 300 s backoff is not expired by its FinishedAt, so doBackOff alone
    // would wait the whole 300 s; the GC at the first tick past 600 s after the last restart
    // decision drops the entry, the restart finds none, and the next crash waits 10 s.
    let mut crash_loop = CrashLoopBackOff::new(&CrashLoopConfig::default()).expect("valid");
    assert_eq!(
        waits(&mut crash_loop, secs(0), d(5), 7),
        vec![0, 10, 20, 40, 80, 160, 300]
    );
    let last_restart = crash_loop.backoff().entry().expect("entry").last_update;
    assert_eq!(last_restart, secs(645));
    let finished = last_restart + d(420);
    assert_eq!(
        crash_loop.backoff().gc_at(HOUSEKEEPING_PERIOD),
        Some(secs(1246))
    );
    let restart = crash_loop.on_container_exit(finished);
    assert_eq!(
        restart,
        secs(1246),
        "the first 2 s tick more than 600 s after 645 s"
    );
    assert_eq!(crash_loop.current_backoff(), d(10));
    crash_loop.on_container_started();
    assert_eq!(
        crash_loop.on_container_exit(restart + d(5)),
        restart + d(15)
    );
}

#[test]
fn is_in_backoff_since_checks_expiry_against_the_event_time_not_the_clock() {
    // backoff.go IsInBackOffSince: hasExpired(eventTime, lastUpdate), then Clock.Since(eventTime).
    let mut b = backoff(5, 5);
    b.next(secs(100), secs(100));
    // Not expired by the event (109 − 100 ≤ 10), still within the backoff at the clock (112 − 109 < 5),
    // although the clock is past the expiry.
    assert!(b.is_in_backoff_since(secs(109), secs(112)));
    assert!(!b.is_in_backoff_since(secs(109), secs(114)));
    // Expired by the event: never in backoff.
    assert!(!b.is_in_backoff_since(secs(111), secs(111)));
    assert_eq!(b.backoff_ends(secs(109)), secs(114));
    assert_eq!(b.backoff_ends(secs(111)), secs(111));
}

#[test]
fn gc_drops_the_entry_at_the_first_housekeeping_tick_past_its_expiry() {
    // backoff.go GC: now − lastUpdate > expiry, checked on every housekeeping tick.
    let mut b = backoff(10, 300).with_expiry(d(600));
    assert_eq!(b.gc_at(HOUSEKEEPING_PERIOD), None);
    b.next(secs(7), secs(7));
    let tick = b.gc_at(HOUSEKEEPING_PERIOD).expect("an entry");
    assert_eq!(tick, secs(608));
    b.gc(secs(606));
    assert!(b.entry().is_some(), "606 s: 599 s old");
    b.gc(tick);
    assert!(b.entry().is_none(), "608 s: 601 s old");
    // An expiry that ends exactly on a tick is dropped on the tick after (the test is strict).
    b.next(secs(10), secs(10));
    assert_eq!(b.gc_at(HOUSEKEEPING_PERIOD), Some(secs(612)));
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

/// Runs the `fixed` preset with the operator killed at `kills_s`; returns the times (s) at which
/// the kubelet started its container.
fn container_starts(kills_s: &[u64], duration_s: u64) -> Vec<u64> {
    use flywheel_engine::cluster::run::{Run, RunOptions};
    use flywheel_engine::scenario::{presets, ActionKind, ScheduledAction};
    let mut scenario = presets::load("fixed", &[]).expect("preset loads");
    for &at in kills_s {
        scenario
            .actions
            .push(ScheduledAction::once(d(at), ActionKind::KillOperator));
    }
    let options = RunOptions {
        duration: Some(d(duration_s)),
        ..RunOptions::default()
    };
    let mut run = Run::new(scenario, &options).expect("run starts");
    let mut starts = Vec::new();
    while !run.is_finished() {
        let seen = run.trace().total();
        run.advance(10_000);
        starts.extend(
            run.trace_since(seen)
                .filter(|e| matches!(e.kind, EventKind::ContainerStarted { .. }))
                .map(|e| e.time.as_nanos() / 1_000_000_000),
        );
    }
    starts
}

#[test]
fn over_a_run_a_crash_after_ten_minutes_of_running_restarts_at_once_and_the_next_waits_ten_seconds()
{
    // pkg/kubelet/kubelet.go HasExpiredFunc (600 s), kuberuntime_manager.go doBackOff.
    // Kill at 30 s: restart now (entry 10 s). Kill at 40 s: wait 10 s, start at 50 s (entry 20 s).
    // Kill at 720 s, 670 s after the last restart decision: restart now (entry 10 s again).
    // Kill at 725 s: wait 10 s, start at 735 s.
    assert_eq!(
        container_starts(&[30, 40, 720, 725], 800),
        vec![0, 30, 50, 720, 735]
    );
}

#[test]
fn over_a_run_housekeeping_ends_a_five_minute_wait_ten_minutes_after_the_last_restart() {
    // client-go backoff.go GC from pkg/kubelet/kubelet_pods.go HandlePodCleanups every 2 s.
    // Quick kills until the backoff is 300 s: starts at 30, 50, 75, 120, 205, 370, 675 s.
    // The container then runs 7 minutes; killed at 1095 s it would wait until 1395 s, but the
    // entry (last updated at 675 s) is dropped at the 1276 s tick: it starts then, and the next
    // quick kill waits 10 s, not 300 s.
    let kills = [30, 40, 55, 80, 125, 210, 375, 1095, 1281];
    assert_eq!(
        container_starts(&kills, 1400),
        vec![0, 30, 50, 75, 120, 205, 370, 675, 1276, 1291]
    );
}
