//! The operator's pod: OOM kills at the memory limit, restart count, last terminated reason,
//! CrashLoopBackOff, and the whole incident of seed 000 (memory climbs to the limit, OOMKilled,
//! CrashLoopBackOff, a fresh process on restart).

use std::time::Duration;

use flywheel_engine::process::{
    ContainerExit, ContainerState, GoProcess, GoProcessConfig, HeapOwner, Pod, PodConfig,
    TerminationReason, WaitingReason, MIB, OOM_KILLED_EXIT_CODE,
};
use flywheel_engine::SimTime;

fn secs(s: u64) -> SimTime {
    SimTime::from_millis(s * 1000)
}

fn pod_with_limit(limit_bytes: u64) -> Pod {
    let config = PodConfig {
        memory_limit_bytes: Some(limit_bytes),
        ..PodConfig::default()
    };
    Pod::new(config, SimTime::ZERO).expect("valid pod")
}

#[test]
fn the_kernel_kills_at_the_limit_not_at_ninety_five_percent() {
    let limit = 100 * MIB;
    let mut pod = pod_with_limit(limit);
    // Seed 004 claims a kill above 95 % of the limit; the cgroup OOM killer acts at the limit.
    assert_eq!(pod.check_oom(limit * 96 / 100, secs(1)), None);
    assert_eq!(pod.check_oom(limit, secs(2)), None);
    assert!(pod.is_running());
    assert_eq!(pod.check_oom(limit + 1, secs(3)), Some(secs(3)));
    assert!(!pod.is_running());
    let terminated = pod.last_terminated().expect("terminated");
    assert_eq!(terminated.reason, TerminationReason::OomKilled);
    assert_eq!(terminated.exit_code, OOM_KILLED_EXIT_CODE);
    assert_eq!(terminated.exit_code, 137);
    assert_eq!(terminated.finished_at, secs(3));
    assert_eq!(pod.oom_kills(), 1);
}

#[test]
fn a_pod_without_a_memory_limit_is_never_oom_killed() {
    let mut pod = Pod::new(PodConfig::default(), SimTime::ZERO).expect("valid");
    assert_eq!(pod.check_oom(u64::MAX, secs(1)), None);
    assert!(pod.is_running());
}

#[test]
fn the_first_oom_kill_restarts_at_once_and_later_ones_wait_in_crash_loop_back_off() {
    let mut pod = pod_with_limit(10 * MIB);
    let restart = pod.check_oom(11 * MIB, secs(5)).expect("killed");
    assert_eq!(restart, secs(5));
    assert!(matches!(pod.state(), ContainerState::Terminated(_)));
    assert_eq!(pod.waiting_reason(), None);
    assert!(pod.restart_if_due(secs(5)));
    assert_eq!(pod.restart_count(), 1);
    assert_eq!(
        pod.state(),
        ContainerState::Running {
            started_at: secs(5)
        }
    );

    let restart = pod.check_oom(11 * MIB, secs(20)).expect("killed again");
    assert_eq!(restart, secs(30));
    assert_eq!(
        pod.state(),
        ContainerState::Waiting(WaitingReason::CrashLoopBackOff {
            until: secs(30),
            backoff: Duration::from_secs(10),
        })
    );
    assert_eq!(pod.waiting_reason(), Some("CrashLoopBackOff"));
    assert_eq!(pod.check_oom(11 * MIB, secs(25)), None, "not running");
    assert!(!pod.restart_if_due(secs(29)));
    assert!(pod.restart_if_due(secs(30)));
    assert_eq!(pod.restart_count(), 2);
    assert_eq!(
        pod.last_terminated_reason(),
        Some(TerminationReason::OomKilled)
    );
}

#[test]
fn other_exits_are_recorded_as_error_or_completed_and_back_off_the_same_way() {
    let mut pod = pod_with_limit(10 * MIB);
    pod.on_container_exit(ContainerExit::exited(2), secs(1));
    assert_eq!(pod.last_terminated_reason(), Some(TerminationReason::Error));
    assert_eq!(TerminationReason::Error.as_str(), "Error");
    assert!(pod.restart_if_due(secs(1)));
    let restart = pod.on_container_exit(ContainerExit::exited(0), secs(3));
    assert_eq!(restart, Some(secs(13)));
    assert_eq!(
        pod.last_terminated_reason(),
        Some(TerminationReason::Completed)
    );
    assert_eq!(
        pod.on_container_exit(ContainerExit::exited(1), secs(4)),
        None
    );
}

#[test]
fn termination_reasons_serialize_as_the_api_shows_them() {
    assert_eq!(
        serde_json::to_string(&TerminationReason::OomKilled).expect("ser"),
        "\"OOMKilled\""
    );
    assert_eq!(TerminationReason::OomKilled.as_str(), "OOMKilled");
}

#[test]
fn a_zero_memory_limit_is_rejected_and_unknown_fields_too() {
    let e = Pod::new(
        PodConfig {
            memory_limit_bytes: Some(0),
            ..PodConfig::default()
        },
        SimTime::ZERO,
    )
    .expect_err("zero limit");
    assert_eq!(e.field, "memory_limit_bytes");
    let config: PodConfig =
        serde_json::from_str(r#"{"memory_limit_bytes": 268435456}"#).expect("parse");
    assert_eq!(config.memory_limit_bytes, Some(256 * MIB));
    assert!(serde_json::from_str::<PodConfig>(r#"{"limit": 1}"#).is_err());
}

/// Drives a leaking operator: every second it keeps 2 MiB more of FIFO deltas and allocates 4 MiB
/// of transient copies. Returns the OOM kill times and the restarts over `duration`.
fn run_leaking_operator(limit_bytes: u64, duration: SimTime) -> (Vec<SimTime>, u32, Vec<u64>) {
    let mut pod = pod_with_limit(limit_bytes);
    let mut process = GoProcess::new(GoProcessConfig::default(), SimTime::ZERO).expect("valid");
    let mut kills = Vec::new();
    let mut peak_rss = Vec::new();
    let mut max_rss = 0;
    let mut now = SimTime::ZERO;
    while now < duration {
        now += Duration::from_secs(1);
        if !pod.is_running() {
            // A restarted process starts allocating on the next tick.
            if pod.restart_if_due(now) {
                process = GoProcess::new(GoProcessConfig::default(), now).expect("valid");
                peak_rss.push(std::mem::take(&mut max_rss));
            }
            continue;
        }
        process.alloc(HeapOwner::FifoDeltas, 2 * MIB, now);
        process.alloc_transient(HeapOwner::InflightReconciles, 4 * MIB, now);
        process.advance(now);
        max_rss = max_rss.max(process.rss_bytes());
        if pod.check_oom(process.rss_bytes(), now).is_some() {
            kills.push(now);
            if pod.restart_if_due(now) {
                process = GoProcess::new(GoProcessConfig::default(), now).expect("valid");
                peak_rss.push(std::mem::take(&mut max_rss));
            }
        }
    }
    (kills, pod.restart_count(), peak_rss)
}

#[test]
fn a_leaking_operator_climbs_to_the_limit_is_oom_killed_and_crash_loops() {
    let limit = 256 * MIB;
    let (kills, restarts, peaks) = run_leaking_operator(limit, secs(3600));
    assert!(kills.len() >= 5, "kills: {kills:?}");
    // Each run leaks 2 MiB/s from an empty heap, so every run lasts as long as the first; the
    // gaps between kills are that run plus the kubelet's wait: 0, 10, 20, 40 … 300 s.
    let gaps: Vec<u64> = kills.windows(2).map(|w| (w[1] - w[0]).as_secs()).collect();
    let waits: Vec<u64> = gaps.iter().map(|g| g - gaps[0]).collect();
    assert_eq!(
        waits[..9],
        [0, 10, 20, 40, 80, 160, 300, 300, 300],
        "gaps: {gaps:?}"
    );
    assert_eq!(restarts as usize, peaks.len());
    assert!(peaks.iter().all(|&p| p > limit * 95 / 100));
}
