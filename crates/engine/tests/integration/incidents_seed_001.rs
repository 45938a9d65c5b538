//! Seed 001's incidents: the cluster-wide List of Pods and the finalizer deadlock.

use std::time::Duration;

use flywheel_engine::cluster::report::RunReport;
use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::scenario::{self, presets, Scenario};

const MIB: f64 = 1024.0 * 1024.0;

fn sets(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn run_scenario(scenario: Scenario, secs: u64) -> RunReport {
    let options = RunOptions {
        duration: Some(Duration::from_secs(secs)),
        ..RunOptions::default()
    };
    let mut run = Run::new(scenario, &options).expect("run starts");
    while !run.advance(1_000_000) {}
    run.report()
}

fn run(preset: &str, pairs: &[(&str, &str)], secs: u64) -> RunReport {
    let scenario = presets::load(preset, &sets(pairs)).expect("preset loads");
    run_scenario(scenario, secs)
}

fn peak(r: &RunReport, key: &str) -> f64 {
    r.series
        .get(key)
        .map_or(0.0, |s| s.iter().map(|p| p.1).fold(0.0, f64::max))
}

fn value_at(r: &RunReport, key: &str, t: f64) -> f64 {
    r.series
        .get(key)
        .and_then(|s| s.iter().take_while(|p| p.0 <= t).last())
        .map_or(0.0, |p| p.1)
}

const P99: &str =
    "controller_runtime_reconcile_time_seconds{controller=\"flywheel\",quantile=\"0.99\"}";
const SUCCESS: &str =
    "controller_runtime_reconcile_total{controller=\"flywheel\",result=\"success\"}";
const RSS: &str = "process_resident_memory_bytes";

#[test]
fn listing_every_pod_of_a_50k_cluster_is_oomkilled_at_2gi_with_a_p99_over_15_seconds() {
    let r = run("list-full-scan", &[], 150);
    assert!(
        r.metric("flywheel_oom_kills_total") >= 3.0,
        "OOMKilled again and again at 2Gi ({})",
        r.metric("flywheel_oom_kills_total")
    );
    let p99 = peak(&r, P99);
    assert!(
        p99 > 15.0,
        "p99 reconcile time degrades to {p99:.1} s (seed: 15 s+)"
    );
    let store = peak(&r, "flywheel_heap_live_bytes{owner=\"informer_store\"}");
    assert!(
        store > 700.0 * MIB,
        "the cache holds every Pod of the cluster ({:.0} MiB)",
        store / MIB
    );
    assert!(peak(&r, "flywheel_pod_cache_items") >= 50_000.0);
    let heap = peak(&r, "go_memstats_heap_alloc_bytes");
    assert!(
        store / heap > 0.45,
        "most of the live heap is the informer's store ({:.0} of {:.0} MiB)",
        store / MIB,
        heap / MIB
    );
}

#[test]
fn a_field_index_and_a_namespace_scoped_cache_keep_the_operator_in_the_hundreds_of_mb() {
    let r = run(
        "list-full-scan",
        &[
            ("code.pod_list", "field_index"),
            ("cache.namespaced", "true"),
        ],
        150,
    );
    assert_eq!(r.metric("flywheel_oom_kills_total"), 0.0, "never OOMKilled");
    let rss = peak(&r, RSS);
    assert!(
        (100.0 * MIB..700.0 * MIB).contains(&rss),
        "RSS stays in the hundreds of MB ({:.0} MiB)",
        rss / MIB
    );
    assert!(
        r.metric(P99) < 0.5,
        "p99 back to milliseconds ({})",
        r.metric(P99)
    );
    assert!(r.metric(SUCCESS) > 500.0);
}

#[test]
fn the_field_index_alone_stops_the_copies_but_the_cluster_wide_cache_still_holds_every_pod() {
    let r = run("list-full-scan", &[("code.pod_list", "field_index")], 150);
    assert_eq!(r.metric("flywheel_oom_kills_total"), 0.0);
    let store = peak(&r, "flywheel_heap_live_bytes{owner=\"informer_store\"}");
    assert!(store > 700.0 * MIB, "{:.0} MiB cached", store / MIB);
    let copied_per_reconcile =
        r.metric("flywheel_list_items_copied_total") / r.metric(SUCCESS).max(1.0);
    assert!(
        copied_per_reconcile <= 4.5,
        "{copied_per_reconcile} Pods copied per reconcile"
    );
}

#[test]
fn metadata_only_caching_holds_all_50k_pods_in_tens_of_mb() {
    let r = run("list-full-scan", &[("cache.metadata_only", "true")], 120);
    assert_eq!(r.metric("flywheel_oom_kills_total"), 0.0);
    let store = peak(&r, "flywheel_heap_live_bytes{owner=\"informer_store\"}");
    assert!(
        store < 60.0 * MIB,
        "{:.0} MiB for 50k PartialObjectMetadata",
        store / MIB
    );
    assert!(peak(&r, "flywheel_pod_cache_items") >= 50_000.0);
}

#[test]
fn with_300_pods_the_field_index_changes_nothing_you_would_notice() {
    let full = run("list-full-scan-small", &[], 120);
    let indexed = run(
        "list-full-scan-small",
        &[("code.pod_list", "field_index")],
        120,
    );
    for r in [&full, &indexed] {
        assert_eq!(r.metric("flywheel_oom_kills_total"), 0.0);
        assert!(r.metric(P99) < 0.25, "p99 {} s", r.metric(P99));
        assert!(peak(r, RSS) < 150.0 * MIB, "{:.0} MiB", peak(r, RSS) / MIB);
    }
    let (a, b) = (peak(&full, RSS), peak(&indexed, RSS));
    assert!(
        (a - b).abs() < 40.0 * MIB,
        "memory within tens of MiB: {:.0} vs {:.0} MiB",
        a / MIB,
        b / MIB
    );
}

#[test]
fn deleted_datajobs_stay_terminating_while_the_operator_crash_loops_and_drain_once_it_stays_up() {
    let r = run("finalizer-deadlock", &[], 900);
    let stuck = value_at(&r, "flywheel_objects_terminating", 290.0);
    assert!(
        stuck >= 150.0,
        "{stuck} DataJobs Terminating before the memory bump"
    );
    assert!(value_at(&r, "flywheel_namespaces_terminating", 290.0) >= 5.0);
    assert!(value_at(&r, "flywheel_oom_kills_total", 290.0) >= 3.0);
    assert_eq!(
        r.metric("flywheel_objects_terminating"),
        0.0,
        "drained at the end"
    );
    assert_eq!(r.metric("flywheel_namespaces_terminating"), 0.0);
    assert_eq!(r.metric("flywheel_external_resources_leaked_total"), 0.0);
    assert_eq!(r.metric("flywheel_external_cleanups_total"), 250.0);
    assert!(
        r.metric("controller_runtime_reconcile_total{controller=\"flywheel\",result=\"error\"}")
            > 0.0,
        "failed cleanups were returned as errors and retried"
    );
}

#[test]
fn removing_the_finalizer_after_a_failed_cleanup_leaks_external_resources_and_the_safe_machine_does_not(
) {
    let unsafe_run = run("finalizer-unsafe", &[], 120);
    let leaked = unsafe_run.metric("flywheel_external_resources_leaked_total");
    assert!((30.0..=100.0).contains(&leaked), "{leaked} of 200 leaked");
    assert_eq!(unsafe_run.metric("flywheel_objects_terminating"), 0.0);

    let safe = run("finalizer-unsafe", &[("code.finalizer", "safe")], 180);
    assert_eq!(safe.metric("flywheel_external_resources_leaked_total"), 0.0);
    assert_eq!(safe.metric("flywheel_external_cleanups_total"), 200.0);
    assert_eq!(safe.metric("flywheel_objects_terminating"), 0.0);
}

#[test]
fn adding_a_finalizer_without_checking_the_deletion_timestamp_is_refused_with_422() {
    let text = presets::text("finalizer-unsafe")
        .expect("preset")
        .replace(
            "{ finalize = { name = \"batch.example.com/finalizer\", cleanup = \"300ms\", failure_probability = 0.3 } },",
            "{ add_finalizer = { name = \"batch.example.com/audit\" } },",
        )
        // deleted before the operator's first reconcile could add its finalizer
        .replace("at = \"30s\"", "at = \"0\"");
    let scenario = scenario::parse(&text, &[]).expect("valid");
    let r = run_scenario(scenario, 60);
    assert!(
        r.metric("apiserver_request_total{code=\"422\",verb=\"PUT\"}") > 0.0,
        "no new finalizers can be added if the object is being deleted"
    );
}
