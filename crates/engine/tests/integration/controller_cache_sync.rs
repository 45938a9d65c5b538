//! The controller starts its workers only after its source's cache has synced, for at most
//! `CacheSyncTimeout` (controller-runtime `pkg/internal/controller/controller.go` `Start`, and
//! `pkg/internal/source/kind.go` `WaitForSync`).

use std::time::Duration;

use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::scenario::presets;
use flywheel_engine::sim::EventKind;

fn set(key: &str, value: &str) -> (String, String) {
    (key.to_owned(), value.to_owned())
}

/// 20 000 objects exist before the operator starts, so its first LIST returns all of them.
fn preloaded(profile: &str, extra: &[(String, String)]) -> Run {
    let mut sets = vec![
        set("profile", profile),
        set("objects.count", "20000"),
        set("objects.create_at", "0s"),
        set("controller.workers", "4"),
        set("controller.informer_cost_per_kib", "50us"),
    ];
    sets.extend_from_slice(extra);
    let scenario = presets::load("flywheel", &sets).expect("preset loads");
    let options = RunOptions {
        duration: Some(Duration::from_secs(60)),
        ..RunOptions::default()
    };
    Run::new(scenario, &options).expect("run starts")
}

#[test]
fn no_reconcile_runs_before_the_informer_has_synced_its_initial_list() {
    for profile in ["seed", "modern"] {
        let mut run = preloaded(profile, &[]);
        let mut reconciled = false;
        while run.step() {
            let snap = run.snapshot();
            let Some(op) = snap.operator else { continue };
            if op.workers_busy > 0 {
                assert!(
                    op.synced && op.workers_started,
                    "{profile}: a worker is busy at {:.3} s before the cache synced",
                    snap.time_s
                );
                reconciled = true;
            }
            if reconciled && snap.time_s > 20.0 {
                break;
            }
        }
        assert!(reconciled, "{profile}: the workers start once synced");
    }
}

#[test]
fn the_workers_start_when_the_cache_holds_every_listed_object() {
    let mut run = preloaded("seed", &[]);
    let mut seen_total = 0;
    loop {
        assert!(run.step(), "the workers start within the run");
        let started = run
            .trace_since(seen_total)
            .any(|ev| matches!(ev.kind, EventKind::StartingWorkers { .. }));
        seen_total = run.trace().total();
        if started {
            break;
        }
    }
    let op = run.snapshot().operator.expect("the operator runs");
    assert_eq!(op.cache_objects, 20_000, "the cache holds the whole LIST");
    assert_eq!(
        op.fifo_deltas, 0,
        "the FIFO has handed out its initial list"
    );
}

#[test]
fn from_controller_runtime_0_23_the_workers_also_wait_for_the_handler_to_see_the_initial_list() {
    // pkg/internal/source/kind.go (v0.23+): after WaitForCacheSync, WaitForSync also waits for
    // the handler registration's HasSynced — every initial-list add has been handled, so every
    // key is in the workqueue when the first worker starts.
    let mut run = preloaded("modern", &[]);
    loop {
        assert!(run.step(), "the workers start within the run");
        let op = run.snapshot().operator;
        if let Some(op) = op.filter(|op| op.workers_started) {
            assert_eq!(op.handler_buffer, 0, "no initial notification is left");
            assert_eq!(
                op.queue_ready + op.workers_busy,
                20_000,
                "every listed key reached the workqueue"
            );
            break;
        }
    }
}

#[test]
fn a_cache_that_does_not_sync_within_the_timeout_makes_the_operator_exit_and_crash_loop() {
    // The initial list takes 20 000 × 4 KiB × 50 µs/KiB = 4 s to pop; a 1 s timeout fails the
    // controller's Start, the manager returns the error and main exits 1.
    let mut run = preloaded("seed", &[set("controller.cache_sync_timeout", "1s")]);
    while !run.advance(1_000_000) {}
    let r = run.report();
    assert_eq!(
        r.metric("controller_runtime_reconcile_total{controller=\"flywheel\",result=\"success\"}"),
        0.0,
        "no worker ever starts"
    );
    let reason = "kube_pod_container_status_last_terminated_reason{reason=\"Error\"}";
    assert_eq!(r.metric(reason), 1.0, "the container exits with Error");
    assert!(
        r.metric("kube_pod_container_status_restarts_total") >= 2.0,
        "and the kubelet restarts it with CrashLoopBackOff"
    );
}

#[test]
fn a_cache_sync_timeout_outside_one_second_to_one_hour_is_refused_naming_the_field() {
    for bad in ["0s", "2h"] {
        let err = presets::load("flywheel", &[set("controller.cache_sync_timeout", bad)])
            .expect_err("refused");
        assert_eq!(err.field, "controller.cache_sync_timeout");
        assert!(err.message.contains("from 1s to 1h"), "{}", err.message);
    }
}

#[test]
fn a_hundred_thousand_reconciles_that_end_without_waiting_run_after_the_sync() {
    // Once synced, the workqueue holds every key at once; a Reconcile that returns at once frees
    // its worker inside the same engine event, and the next key must not nest a call per key
    // (found by tests/fuzz.sh at 100 000 cases: a stack overflow).
    let text = r#"
name = "instant"
title = "Reconciles that return at once"
group = "test"
summary = "Every key is reconciled once, each Reconcile returning at once."
duration = "20s"
[objects]
count = 100000
create_at = "0s"
[reconcile]
steps = [{ return = { value = "ok" } }]
"#;
    let scenario = flywheel_engine::scenario::parse(text, &[]).expect("valid");
    let mut run = Run::new(scenario, &RunOptions::default()).expect("run starts");
    while !run.advance(1_000_000) {}
    let r = run.report();
    assert_eq!(
        r.metric("controller_runtime_reconcile_total{controller=\"flywheel\",result=\"success\"}"),
        100_000.0,
        "every key is reconciled once"
    );
}
