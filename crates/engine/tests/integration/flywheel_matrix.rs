//! The seed-000 matrix: which combinations of fixes keep the death flywheel turning, and which
//! stop it. Each preset edits one object's spec at 5 minutes; the tests read the run's series.

use flywheel_engine::cluster::report::RunReport;
use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::scenario::presets;

fn run(name: &str) -> RunReport {
    let scenario = presets::load(name, &[]).expect("preset loads");
    let mut run = Run::new(scenario, &RunOptions::default()).expect("run starts");
    while !run.advance(100_000) {}
    run.report()
}

/// Sum over every series whose key starts with `prefix`, at the last sample at or before `t`.
fn total_at(r: &RunReport, prefix: &str, t: f64) -> f64 {
    r.series
        .iter()
        .filter(|(k, _)| k.starts_with(prefix))
        .map(|(_, s)| {
            s.iter()
                .take_while(|p| p.0 <= t)
                .last()
                .map_or(0.0, |p| p.1)
        })
        .sum()
}

fn reconciles_between(r: &RunReport, from: f64, to: f64) -> f64 {
    let key = "controller_runtime_reconcile_total";
    total_at(r, key, to) - total_at(r, key, from)
}

fn status_writes_between(r: &RunReport, from: f64, to: f64) -> f64 {
    let puts = "apiserver_request_total{code=\"200\",verb=\"PUT\"}";
    let patches = "apiserver_request_total{code=\"200\",verb=\"PATCH\"}";
    total_at(r, puts, to) + total_at(r, patches, to)
        - total_at(r, puts, from)
        - total_at(r, patches, from)
}

fn assert_keeps_looping(name: &str) {
    let r = run(name);
    let early = reconciles_between(&r, 60.0, 120.0);
    let late = reconciles_between(&r, 540.0, 600.0);
    assert!(
        early > 100.0 && late > 100.0,
        "{name}: reconciles per minute early {early}, late {late}"
    );
    assert!(
        status_writes_between(&r, 540.0, 600.0) > 100.0,
        "{name}: the API server keeps taking writes"
    );
    let own = r.metric("flywheel_self_triggered_enqueues_total");
    assert!(
        own > 1000.0,
        "{name}: the operator's own writes re-enqueue it ({own})"
    );
}

fn assert_converges(name: &str) {
    let r = run(name);
    assert_eq!(
        reconciles_between(&r, 120.0, 299.0),
        0.0,
        "{name}: quiet before the spec edit"
    );
    let after_edit = reconciles_between(&r, 299.0, 600.0);
    assert!(
        (1.0..=2.0).contains(&after_edit),
        "{name}: {after_edit} reconciles after one spec edit"
    );
    let writes = status_writes_between(&r, 299.5, 600.0);
    assert_eq!(
        writes, 2.0,
        "{name}: the user's spec edit, then exactly one status write"
    );
    assert_eq!(
        status_writes_between(&r, 400.0, 600.0),
        0.0,
        "{name}: then API write QPS is 0"
    );
}

#[test]
fn the_seeds_broken_operator_reconciles_forever() {
    assert_keeps_looping("flywheel");
}

#[test]
fn the_status_subresource_alone_does_not_stop_the_loop_because_resource_version_still_moves() {
    assert_keeps_looping("subresource-only");
}

#[test]
fn generation_changed_predicate_alone_does_not_stop_the_loop_because_status_bumps_generation_without_status_subresource(
) {
    assert_keeps_looping("predicate-only");
}

#[test]
fn the_observed_generation_guard_alone_does_not_stop_the_loop_because_its_own_write_bumps_generation(
) {
    assert_keeps_looping("observed-generation-only");
}

#[test]
fn status_subresource_with_generation_changed_predicate_converges() {
    assert_converges("subresource+predicate");
}

#[test]
fn status_subresource_with_observed_generation_guard_converges_after_one_empty_reconcile() {
    assert_converges("subresource+observed-generation");
}

#[test]
fn all_the_seeds_fixes_converge_with_one_status_patch_per_spec_change() {
    assert_converges("fixed");
    let r = run("fixed");
    assert!(
        r.metric("apiserver_request_total{code=\"200\",verb=\"PATCH\"}") > 0.0,
        "fixed writes with PATCH"
    );
    assert_eq!(
        r.metric("apiserver_request_total{code=\"409\",verb=\"PATCH\"}"),
        0.0,
        "merge patches never conflict"
    );
}

#[test]
fn an_idempotent_status_write_is_a_no_op_that_stops_the_loop_by_itself() {
    let r = run("idempotent-status");
    assert_eq!(
        reconciles_between(&r, 120.0, 299.0),
        0.0,
        "the loop stopped without any fix"
    );
    let writes = r.metric("apiserver_request_total{code=\"200\",verb=\"PUT\"}");
    let revision = r.metric("flywheel_etcd_revision");
    assert!(
        writes > revision - 20.0,
        "identical PUTs answered 200 without a new revision: {writes} vs {revision}"
    );
}

#[test]
fn the_same_seed_gives_the_same_trace_and_metrics_twice() {
    let (a, b) = (run("flywheel"), run("flywheel"));
    assert_eq!(a.trace_hash, b.trace_hash);
    assert_eq!(a.metrics, b.metrics);
}
