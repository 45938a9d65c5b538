//! Seed 004's incidents: a leaked watch, a slow handler, whole objects in logs, calls without a
//! deadline, and the eviction loop — each with its fix.

use std::time::Duration;

use flywheel_engine::cluster::report::RunReport;
use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::scenario::presets;

const MIB: f64 = 1024.0 * 1024.0;

fn run(preset: &str, pairs: &[(&str, &str)], secs: u64) -> RunReport {
    let sets: Vec<(String, String)> = pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    let scenario = presets::load(preset, &sets).expect("preset loads");
    let options = RunOptions {
        duration: Some(Duration::from_secs(secs)),
        ..RunOptions::default()
    };
    let mut run = Run::new(scenario, &options).expect("run starts");
    while !run.advance(1_000_000) {}
    run.report()
}

fn peak(r: &RunReport, key: &str) -> f64 {
    r.series
        .get(key)
        .map_or(0.0, |s| s.iter().map(|p| p.1).fold(0.0, f64::max))
}

const OOM: &str = "flywheel_oom_kills_total";

#[test]
fn a_watch_opened_per_reconcile_and_never_stopped_piles_up_goroutines_and_buffers_until_oom() {
    let r = run("watch-leak", &[], 150);
    assert!(r.metric(OOM) >= 1.0, "OOMKilled");
    let goroutines = peak(&r, "go_goroutines");
    assert!(goroutines > 1000.0, "go_goroutines climbs to {goroutines}");
    let buffers = peak(&r, "flywheel_heap_live_bytes{owner=\"watch_buffers\"}");
    assert!(
        buffers > 500.0 * MIB,
        "watch buffers hold {:.0} MiB",
        buffers / MIB
    );

    let fixed = run("watch-leak", &[("code.stop_watch", "true")], 150);
    assert_eq!(fixed.metric(OOM), 0.0);
    assert!(peak(&fixed, "go_goroutines") < 50.0);
    assert_eq!(
        peak(&fixed, "flywheel_heap_live_bytes{owner=\"watch_buffers\"}"),
        0.0
    );
}

#[test]
fn a_handler_slower_than_the_event_rate_grows_the_listener_buffer_until_oom_not_the_fifo() {
    // a smaller limit shows the same OOM sooner
    let r = run(
        "listener-backlog",
        &[("process.memory_limit", "\"512Mi\"")],
        75,
    );
    assert!(r.metric(OOM) >= 1.0, "OOMKilled");
    let buffered = peak(&r, "flywheel_handler_buffer_length");
    assert!(buffered > 10_000.0, "{buffered} notifications buffered");
    let handler = peak(&r, "flywheel_heap_live_bytes{owner=\"handler_buffers\"}");
    let fifo = peak(&r, "flywheel_heap_live_bytes{owner=\"fifo_deltas\"}");
    // The FIFO's peak is the relist after a restart; the buffer's is the backlog.
    assert!(
        handler > 5.0 * fifo.max(MIB),
        "the listener's buffer ({:.0} MiB) holds the heap, not the FIFO ({:.1} MiB)",
        handler / MIB,
        fifo / MIB
    );

    let fixed = run(
        "listener-backlog",
        &[
            ("process.memory_limit", "\"512Mi\""),
            ("controller.handler_cost", "20us"),
        ],
        40,
    );
    assert_eq!(fixed.metric(OOM), 0.0);
    assert!(peak(&fixed, "flywheel_handler_buffer_length") < 1000.0);
}

/// The average of a sampled series.
fn mean(r: &RunReport, key: &str) -> f64 {
    let points = r.series.get(key).map_or(&[][..], |s| &s[..]);
    points.iter().map(|p| p.1).sum::<f64>() / points.len().max(1) as f64
}

#[test]
fn logging_whole_objects_allocates_megabytes_per_reconcile_and_multiplies_gc_cycles() {
    let r = run("log-whole-object", &[], 90);
    let reconciles = r.sum_prefix("controller_runtime_reconcile_total");
    let per_reconcile = r.metric("flywheel_log_bytes_allocated_total") / reconciles;
    assert!(
        per_reconcile > 15.0 * 1e6,
        "{:.1} MB of log garbage per reconcile (seed: > 15 MB)",
        per_reconcile / 1e6
    );
    let fixed = run("log-whole-object", &[("code.log", "counts")], 90);
    let (gc, gc_fixed) = (
        r.metric("go_gc_duration_seconds_count"),
        fixed.metric("go_gc_duration_seconds_count"),
    );
    assert!(gc > 5.0 * gc_fixed, "{gc} GC cycles against {gc_fixed}");
    // Both runs touch the 25 % background-GC share at some sample (the first GC after the
    // start); what the log garbage changes is how much of the run the GC takes.
    let (share, share_fixed) = (
        mean(&r, "flywheel_gc_cpu_fraction"),
        mean(&fixed, "flywheel_gc_cpu_fraction"),
    );
    assert!(
        share > 5.0 * share_fixed,
        "GC CPU share rises: {share:.3} against {share_fixed:.3} on average"
    );
}

#[test]
fn calls_without_a_deadline_wedge_every_worker_and_a_timeout_with_requeue_after_frees_them() {
    let r = run("no-context-timeout", &[], 240);
    assert_eq!(
        r.metric("controller_runtime_active_workers"),
        10.0,
        "all hung"
    );
    assert!(r.sum_prefix("workqueue_depth{") > 150.0, "every key waits");
    assert!(r.metric("go_goroutines") > peak(&r, "go_goroutines") - 1.0);

    let fixed = run(
        "no-context-timeout",
        &[("code.external_timeout", "5s")],
        240,
    );
    assert!(fixed.metric("flywheel_external_call_timeouts_total") > 0.0);
    assert!(fixed.metric("controller_runtime_active_workers") < 10.0);
    let total = |r: &RunReport| r.sum_prefix("controller_runtime_reconcile_total");
    assert!(
        total(&fixed) > 1.5 * total(&r),
        "{} reconciles with the deadline against {}",
        total(&fixed),
        total(&r)
    );
}

const PRESSURE: &str = "kube_node_status_condition{condition=\"MemoryPressure\",status=\"true\"}";
const TAINT: &str =
    "kube_node_spec_taint{effect=\"NoSchedule\",key=\"node.kubernetes.io/memory-pressure\"}";

/// kubernetes `pkg/kubelet/eviction/eviction_manager.go` (`synchronize`, `Admit`): with
/// `spec.nodeName` the recreated Burstable Pod skips the scheduler and the kubelet admits it
/// under MemoryPressure, so it lands on the pressured Node again.
#[test]
fn the_kubelet_evicts_and_the_operator_recreates_at_once_until_it_checks_memory_pressure() {
    let r = run("eviction-loop", &[], 600);
    let evicted = r.metric("flywheel_pods_evicted_total");
    assert!(evicted >= 12.0, "{evicted} evictions in 10 minutes");
    assert!(r.metric("flywheel_pods_created_total") >= evicted - 1.0);
    assert_eq!(r.metric(PRESSURE), 1.0);
    assert_eq!(r.metric(TAINT), 1.0, "tainted, but nodeName bypasses it");
    assert_eq!(r.metric("flywheel_pods_rejected_total"), 0.0, "Burstable");

    let fixed = run(
        "eviction-loop",
        &[("code.check_memory_pressure", "true")],
        600,
    );
    let fixed_evicted = fixed.metric("flywheel_pods_evicted_total");
    assert!(
        fixed_evicted * 4.0 <= evicted,
        "{fixed_evicted} evictions with the check against {evicted}"
    );
    assert!(fixed.metric("flywheel_pod_recreations_deferred_total") > 0.0);
}

/// kubernetes `pkg/controller/nodelifecycle/node_lifecycle_controller.go` (MemoryPressure ⇒
/// `node.kubernetes.io/memory-pressure:NoSchedule`) and
/// `pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go`: through the scheduler,
/// a recreated Pod that does not tolerate the taint stays Pending while the only Node is tainted.
#[test]
fn through_the_scheduler_the_memory_pressure_taint_keeps_recreated_pods_pending() {
    let looping = run("eviction-loop", &[], 600).metric("flywheel_pods_evicted_total");
    let r = run("eviction-loop", &[("code.placement", "scheduler")], 600);
    let evicted = r.metric("flywheel_pods_evicted_total");
    assert!(
        evicted * 4.0 <= looping,
        "{evicted} evictions through the scheduler against {looping} with nodeName"
    );
    assert!(r.metric("flywheel_pods_unschedulable_total") >= 1.0);
    assert!(peak(&r, "flywheel_pods_pending") >= 1.0);
    assert!(peak(&r, TAINT) >= 1.0);
}

/// kubernetes `pkg/kubelet/eviction/eviction_manager.go` `Admit`: under MemoryPressure a
/// BestEffort Pod that does not tolerate the taint is rejected, so a `spec.nodeName` Pod without
/// requests or limits fails at once instead of running until it is evicted.
#[test]
fn under_memory_pressure_the_kubelet_rejects_best_effort_pods_placed_by_node_name() {
    let best_effort = [
        ("pods.memory_request", "\"0\""),
        ("pods.memory_limit", "\"0\""),
    ];
    let r = run("eviction-loop", &best_effort, 120);
    let rejected = r.metric("flywheel_pods_rejected_total");
    assert!(rejected > 100.0, "{rejected} Pods rejected at admission");
    assert!(r.metric("flywheel_pods_evicted_total") <= 2.0);
    assert!(r.metric("flywheel_pods_running") < 4.0);
}
