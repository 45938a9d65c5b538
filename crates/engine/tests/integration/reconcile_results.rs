//! What the controller does with a reconcile that panics or returns a terminal error, end to end
//! (controller-runtime `pkg/internal/controller/controller.go` `Reconcile`, `reconcileHandler`).

use std::time::Duration;

use flywheel_engine::cluster::report::RunReport;
use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::controller::program::{ReturnValue, Step};
use flywheel_engine::scenario::{presets, Profile};

/// The flywheel preset whose reconcile ends with `last` after the Get.
fn run(profile: Profile, last: Step) -> RunReport {
    let mut scenario = presets::load("flywheel", &[]).expect("preset loads");
    scenario.profile = profile;
    scenario.reconcile.steps = vec![Step::Get, last];
    let options = RunOptions {
        duration: Some(Duration::from_secs(60)),
        ..RunOptions::default()
    };
    let mut run = Run::new(scenario, &options).expect("run starts");
    while !run.advance(1_000_000) {}
    run.report()
}

const PANICS: &str = "controller_runtime_reconcile_panics_total{controller=\"flywheel\"}";
const ERRORS: &str = "controller_runtime_reconcile_errors_total{controller=\"flywheel\"}";

#[test]
fn a_panic_crashes_the_v0_15_operator_and_the_container_restarts_with_reason_error() {
    let r = run(Profile::Seed, Step::Panic);
    assert!(r.metric("kube_pod_container_status_restarts_total") >= 1.0);
    assert_eq!(
        r.metric("kube_pod_container_status_last_terminated_reason{reason=\"Error\"}"),
        1.0
    );
    assert_eq!(r.metrics.get(PANICS), None, "v0.15 has no panics counter");
}

#[test]
fn a_panic_is_recovered_by_v0_24_counted_and_retried_without_a_restart() {
    let r = run(Profile::Modern, Step::Panic);
    assert_eq!(r.metric("kube_pod_container_status_restarts_total"), 0.0);
    assert!(r.metric(PANICS) > 0.0);
    assert_eq!(r.metric(PANICS), r.metric(ERRORS));
    assert!(r.sum_prefix("workqueue_retries_total{") > 0.0);
}

#[test]
fn a_terminal_error_is_counted_and_never_retried() {
    let r = run(
        Profile::Modern,
        Step::Return {
            value: ReturnValue::TerminalError,
        },
    );
    let terminal = "controller_runtime_terminal_reconcile_errors_total{controller=\"flywheel\"}";
    assert!(r.metric(terminal) > 0.0);
    assert_eq!(r.metric(terminal), r.metric(ERRORS));
    assert_eq!(r.sum_prefix("workqueue_retries_total{"), 0.0);
}

#[test]
fn the_result_series_exist_at_zero_before_any_reconcile_uses_them() {
    let r = run(
        Profile::Seed,
        Step::Return {
            value: ReturnValue::Ok,
        },
    );
    for result in ["error", "requeue", "requeue_after"] {
        let key = format!(
            "controller_runtime_reconcile_total{{controller=\"flywheel\",result=\"{result}\"}}"
        );
        assert_eq!(r.metrics.get(&key), Some(&0.0), "{key}");
    }
}

#[test]
fn every_workqueue_metric_is_exported_with_controller_runtimes_labels() {
    let r = run(
        Profile::Modern,
        Step::Return {
            value: ReturnValue::Ok,
        },
    );
    let labels = "{controller=\"flywheel\",name=\"flywheel\"}";
    for name in [
        "workqueue_adds_total",
        "workqueue_retries_total",
        "workqueue_unfinished_work_seconds",
        "workqueue_longest_running_processor_seconds",
        "workqueue_queue_duration_seconds_count",
        "workqueue_work_duration_seconds_count",
    ] {
        assert!(r.metrics.contains_key(&format!("{name}{labels}")), "{name}");
    }
    assert!(r.metric(&format!("workqueue_work_duration_seconds_count{labels}")) > 0.0);
    assert!(r
        .metrics
        .keys()
        .any(|k| k
            .starts_with("workqueue_depth{controller=\"flywheel\",name=\"flywheel\",priority=")));
}

#[test]
fn the_client_rate_limiter_wait_is_observed_only_when_the_limiter_is_on() {
    // client-go rest/request.go tryThrottleWithInfo returns before observing when rateLimiter
    // is nil; the modern profile has no client-side limiter, the seed profile 20 qps.
    let count = "rest_client_rate_limiter_duration_seconds_count";
    let seed = run_preset(Profile::Seed);
    assert!(seed.metric(count) > 0.0);
    assert_eq!(run_preset(Profile::Modern).metric(count), 0.0);
}

/// The flywheel preset as written (it writes on every reconcile) under `profile`.
fn run_preset(profile: Profile) -> RunReport {
    let mut scenario = presets::load("flywheel", &[]).expect("preset loads");
    scenario.profile = profile;
    let options = RunOptions {
        duration: Some(Duration::from_secs(30)),
        ..RunOptions::default()
    };
    let mut run = Run::new(scenario, &options).expect("run starts");
    while !run.advance(1_000_000) {}
    run.report()
}
