//! Watch: replay from a resourceVersion, 410 Gone below the window, "too large" above the
//! revision, RV 0 and watch-list initial state, and draining events for fan-out.

use flywheel_engine::apiserver::{
    ApiServer, ApiServerConfig, DeleteOptions, ResourceKind, StatusReason, Verb, WatchCacheConfig,
    WatchEvent, WatchEventType, INITIAL_EVENTS_END_ANNOTATION,
};
use std::time::Duration;

use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::object::Object;
use flywheel_engine::scenario::presets;
use flywheel_engine::sim::EventKind;
use flywheel_engine::SimTime;
use serde_json::json;

fn server_with(watch_cache: WatchCacheConfig) -> ApiServer {
    let config = ApiServerConfig {
        watch_cache,
        ..ApiServerConfig::default()
    };
    let mut s = ApiServer::new(config).expect("valid config");
    s.register_kind(ResourceKind::custom_resource(
        "Flywheel",
        "flywheels",
        "demo.flywheel.dev",
        true,
        false,
    ))
    .expect("new kind");
    s
}

fn server() -> ApiServer {
    server_with(WatchCacheConfig::default())
}

fn t(ms: u64) -> SimTime {
    SimTime::from_millis(ms)
}

fn bump(s: &mut ApiServer, name: &str, replicas: u64, now: SimTime) {
    let mut o = (*s.get("Flywheel", "default", name).expect("exists")).clone();
    o.spec = json!({ "replicas": replicas }).into();
    s.update(o, now).expect("updated");
}

fn types(events: &[WatchEvent]) -> Vec<WatchEventType> {
    events.iter().map(|e| e.event_type).collect()
}

#[test]
fn a_watch_replays_every_event_after_its_resource_version_in_commit_order() {
    let mut s = server();
    let start = s.revision();
    s.create(Object::new("Flywheel", "default", "a"), t(1))
        .expect("created");
    bump(&mut s, "a", 2, t(2));
    s.delete("Flywheel", "default", "a", &DeleteOptions::default(), t(3))
        .expect("deleted");
    let events = s.watch_from("Flywheel", start).expect("in window");
    assert_eq!(
        types(&events),
        [
            WatchEventType::Added,
            WatchEventType::Modified,
            WatchEventType::Deleted
        ]
    );
    let rvs: Vec<u64> = events.iter().map(|e| e.resource_version).collect();
    assert_eq!(rvs, [start + 1, start + 2, start + 3]);
    assert_eq!(s.watch_from("Flywheel", start + 2).expect("tail").len(), 1);
}

/// Mirrors watch_cache_test.go TestEvents' "expected error too old" through the server.
#[test]
fn a_watch_from_below_the_window_is_410_expired_with_the_upstream_message() {
    let mut s = server_with(WatchCacheConfig {
        lower_capacity: 3,
        upper_capacity: 3,
        event_fresh_duration_s: 75.0,
    });
    s.create(Object::new("Flywheel", "default", "a"), t(0))
        .expect("created");
    let first = s.revision();
    for i in 1..=5 {
        bump(&mut s, "a", i, t(i));
    }
    // Window holds the last 3 events: revisions first+3 ..= first+5; oldest-1 = first+2.
    let err = s.watch_from("Flywheel", first).expect_err("too old");
    assert_eq!((err.code, err.reason), (410, StatusReason::Expired));
    assert_eq!(
        err.message,
        format!("too old resource version: {first} ({})", first + 2)
    );
    assert_eq!(s.watch_from("Flywheel", first + 2).expect("edge").len(), 3);
    // Upstream delivers it inside the accepted stream as one ERROR event.
    let ev = WatchEvent::error(err);
    assert_eq!(ev.event_type, WatchEventType::Error);
    assert_eq!(ev.status.map(|e| e.code), Some(410));
}

#[test]
fn a_watch_from_a_resource_version_newer_than_the_revision_is_too_large() {
    let mut s = server();
    let future = s.revision() + 10;
    let err = s.watch_from("Flywheel", future).expect_err("too large");
    assert_eq!((err.code, err.reason), (504, StatusReason::Timeout));
    assert!(
        err.message
            .starts_with("Timeout: Too large resource version"),
        "{err}"
    );
    assert_eq!(err.retry_after_s, Some(1));
}

#[test]
fn a_kind_registered_later_has_no_history_before_its_registration() {
    let mut s = server();
    let early = s.revision();
    s.create(Object::new("Pod", "default", "p"), t(1))
        .expect("created");
    s.register_kind(ResourceKind::custom_resource(
        "Late", "lates", "demo.dev", true, true,
    ))
    .expect("new kind");
    assert!(s
        .watch_from("Late", s.revision())
        .expect("from now")
        .is_empty());
    assert_eq!(s.watch_from("Late", early).map_err(|e| e.code), Err(410));
}

#[test]
fn a_watch_from_zero_starts_with_the_current_objects_as_added() {
    let mut s = server();
    s.create(Object::new("Flywheel", "default", "b"), t(1))
        .expect("created");
    s.create(Object::new("Flywheel", "default", "a"), t(2))
        .expect("created");
    bump(&mut s, "a", 7, t(3));
    let events = s.watch_from("Flywheel", 0).expect("current state");
    assert_eq!(
        types(&events),
        [WatchEventType::Added, WatchEventType::Added]
    );
    assert_eq!(events[0].object.metadata.name(), "a");
    assert_eq!(events[0].object.spec, json!({"replicas": 7}));
}

#[test]
fn a_watch_list_ends_its_initial_events_with_an_annotated_bookmark_at_the_revision() {
    let mut s = server();
    s.create(Object::new("Flywheel", "default", "a"), t(1))
        .expect("created");
    let events = s.watch_list("Flywheel").expect("listed");
    assert_eq!(
        types(&events),
        [WatchEventType::Added, WatchEventType::Bookmark]
    );
    let bookmark = &events[1];
    assert_eq!(bookmark.resource_version, s.revision());
    let annotations = bookmark
        .object
        .metadata
        .annotations
        .as_ref()
        .expect("annotated");
    assert_eq!(
        annotations
            .get(INITIAL_EVENTS_END_ANNOTATION)
            .map(String::as_str),
        Some("true")
    );
    assert_eq!(s.bookmark("Flywheel").resource_version, s.revision());
}

#[test]
fn drained_events_come_once_in_commit_order_with_their_kind() {
    let mut s = server();
    s.create(Object::new("Flywheel", "default", "a"), t(1))
        .expect("created");
    s.create(Object::new("Pod", "default", "p"), t(2))
        .expect("created");
    let drained = s.drain_events();
    let kinds: Vec<&str> = drained.iter().map(|(k, _)| &**k).collect();
    assert_eq!(kinds, ["Flywheel", "Pod"]);
    assert!(drained[0].1.resource_version < drained[1].1.resource_version);
    assert!(s.drain_events().is_empty());
    assert_eq!(s.metrics().watch_cache_events.get("Pod"), Some(&1));
}

#[test]
fn bootstrap_namespaces_are_initial_state_not_events() {
    let mut s = server();
    assert!(s.drain_events().is_empty());
    assert_eq!(s.watch_from("Namespace", 0).expect("state").len(), 2);
    assert!(s
        .watch_from("Namespace", s.revision())
        .expect("no history")
        .is_empty());
}

fn run_flywheel(sets: &[(&str, &str)], seconds: u64) -> Run {
    let sets: Vec<(String, String)> = sets
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    let scenario = presets::load("flywheel", &sets).expect("preset loads");
    let options = RunOptions {
        duration: Some(Duration::from_secs(seconds)),
        ..RunOptions::default()
    };
    let mut run = Run::new(scenario, &options).expect("run starts");
    while !run.advance(100_000) {}
    run
}

fn watch_requests(run: &Run, code: &str) -> f64 {
    let key = format!("apiserver_request_total{{code=\"{code}\",verb=\"WATCH\"}}");
    run.series(&key).and_then(|s| s.last()).map_or(0.0, |p| p.1)
}

/// apiserver `pkg/storage/cacher/cacher.go` `Watch`: a resourceVersion older than the window is
/// answered by `newErrWatcher` — the watch is accepted (HTTP 200, so `apiserver_request_total`
/// counts WATCH 200, never 410) and carries one ERROR event with the 410 Expired status; client-go
/// `tools/cache/reflector.go` `handleAnyWatch` ends the watch on it and, after one backoff step,
/// relists. A one-event window and a slow watch stream make the re-watch at the watch timeout
/// fall behind the window.
#[test]
fn a_watch_from_behind_the_window_opens_with_200_and_its_error_event_makes_the_reflector_relist() {
    let run = run_flywheel(
        &[
            ("apiserver.watch_cache.lower_capacity", "1"),
            ("apiserver.watch_cache.upper_capacity", "1"),
            ("apiserver.watch_latency", "1s"),
        ],
        660,
    );
    assert_eq!(watch_requests(&run, "410"), 0.0, "a WATCH is never a 410");
    assert!(watch_requests(&run, "200") >= 1.0);
    let events: Vec<_> = run.trace().events().collect();
    let error = events
        .iter()
        .position(|e| matches!(e.kind, EventKind::WatchError { .. }))
        .expect("an ERROR watch event");
    assert!(
        matches!(
            events[error].kind,
            EventKind::WatchError {
                code: 410,
                reason: StatusReason::Expired,
                ..
            }
        ),
        "{}",
        events[error]
    );
    assert!(
        events[error..].iter().any(|e| matches!(
            e.kind,
            EventKind::ApiRequest {
                verb: Verb::List,
                ..
            }
        )),
        "the reflector relists after the ERROR event"
    );
}

/// Without the error, a watch is counted once the server ends it at its timeout (apiserver
/// `pkg/endpoints/metrics/metrics.go` `InstrumentRouteFunc` records after the handler returns).
#[test]
fn a_streaming_watch_is_counted_as_a_200_when_the_server_closes_it() {
    let short = run_flywheel(&[], 60);
    assert_eq!(watch_requests(&short, "200"), 0.0, "still open");
    let long = run_flywheel(&[], 660);
    assert!(watch_requests(&long, "200") >= 1.0);
    assert!(!long
        .trace()
        .events()
        .any(|e| matches!(e.kind, EventKind::WatchError { .. })));
}
