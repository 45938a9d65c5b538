//! Inspecting a custom resource reads the API server's stored object and the version before it
//! from the watch cache, without counting a request; a deleted one shows what its DELETED event
//! carried.

use std::time::Duration;

use flywheel_engine::apiserver::object_to_json;
use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::scenario::presets;

fn run(preset: &str, seconds: u64) -> Run {
    let options = RunOptions {
        duration: Some(Duration::from_secs(seconds)),
        ..RunOptions::default()
    };
    let scenario = presets::load(preset, &[]).expect("preset loads");
    let mut run = Run::new(scenario, &options).expect("run starts");
    while !run.advance(100_000) {}
    run
}

fn requests(run: &Run) -> f64 {
    run.series_keys()
        .filter(|k| k.starts_with("apiserver_request_total"))
        .filter_map(|k| run.series(k).and_then(|s| s.last()).map(|p| p.1))
        .sum()
}

#[test]
fn the_flywheel_object_shows_its_stored_generation_and_the_version_before_it() {
    let run = run("flywheel", 30);
    let keys = run.object_keys(3);
    assert_eq!(keys.len(), 3, "the first three keys of ten");
    let before = requests(&run);
    let seen = run.inspect(&keys[0]).expect("stored");
    assert_eq!(requests(&run), before, "inspecting counts no request");
    assert!(!seen.deleted);
    let previous = seen
        .previous
        .expect("the watch cache holds the version before");
    assert!(previous.metadata.resource_version < seen.object.metadata.resource_version);
    assert_eq!(
        previous.metadata.generation + 1,
        seen.object.metadata.generation,
        "without /status, the status Update bumped generation"
    );
    assert!(run.inspect("ns-0/no-such-object").is_none());
}

#[test]
fn a_deleted_object_shows_the_state_its_deleted_event_carried() {
    let run = run("finalizer-unsafe", 120);
    let stored = run.object_keys(200).len();
    assert!(stored < 200, "the DataJobs were deleted: {stored} left");
    let deleted = (0..200)
        .flat_map(|i| (0..4).map(move |ns| format!("ns-{ns}/demo-{i}")))
        .filter_map(|k| run.inspect(&k))
        .find(|seen| seen.deleted)
        .expect("a deletion still in the watch cache");
    assert!(deleted.object.metadata.deletion_timestamp().is_some());
    // `markAsDeleting` (apiserver `pkg/registry/generic/registry/store.go`) set the grace period to 0
    // with the timestamp; the inspector's wire form shows it as `kubectl get -o yaml` would.
    assert_eq!(deleted.object.metadata.deletion_grace_period_s(), Some(0));
    let wire = object_to_json(&deleted.object);
    assert_eq!(
        wire["metadata"]["deletionGracePeriodSeconds"].as_i64(),
        Some(0)
    );
    // `deleteWithoutFinalizers`: the Update that emptied the finalizers is never stored, so the
    // DELETED event carries the last stored state, finalizer included.
    assert_eq!(
        deleted.object.metadata.finalizers(),
        ["batch.example.com/finalizer"]
    );
}
