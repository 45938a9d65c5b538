//! The seed-000 incident preset reproduces the article's figures (200 simulated seconds: two OOMKills).

use std::time::Duration;

use flywheel_engine::cluster::report::RunReport;
use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::scenario::presets;

/// The workqueue series as controller-runtime v0.15 (the seed profile) labels them: `name` only
/// (`pkg/metrics/workqueue.go`).
const ADDS: &str = "workqueue_adds_total{name=\"flywheel\"}";
const DEPTH: &str = "workqueue_depth{name=\"flywheel\"}";

fn value_at(r: &RunReport, key: &str, t: f64) -> f64 {
    r.series
        .get(key)
        .and_then(|s| s.iter().take_while(|p| p.0 <= t).last())
        .map_or(0.0, |p| p.1)
}

/// The largest increase of a counter between two consecutive one-second samples.
fn peak_rate(r: &RunReport, key: &str) -> f64 {
    let points = r.series.get(key).map_or(&[][..], |s| &s[..]);
    points
        .windows(2)
        .map(|w| w[1].1 - w[0].1)
        .fold(0.0, f64::max)
}

/// How many one-second samples of a gauge are above `threshold`.
fn seconds_above(r: &RunReport, key: &str, threshold: f64) -> usize {
    r.series
        .get(key)
        .map_or(0, |s| s.iter().filter(|p| p.1 > threshold).count())
}

#[test]
fn the_incident_shows_the_articles_figures_and_the_storm_returns_after_each_restart() {
    let scenario = presets::load("seed-000-incident", &[]).expect("preset loads");
    let options = RunOptions {
        duration: Some(Duration::from_secs(200)),
        ..RunOptions::default()
    };
    let mut run = Run::new(scenario, &options).expect("run starts");
    while !run.advance(1_000_000) {}
    let r = run.report();

    let adds_per_s = peak_rate(&r, ADDS);
    assert!(
        adds_per_s > 5000.0,
        "workqueue_adds_total grows by {adds_per_s:.0}/s at most, the article saw 5000+"
    );
    let deep_s = seconds_above(&r, DEPTH, 100_000.0);
    assert!(
        deep_s > 90,
        "workqueue_depth stays over 100k for {deep_s} of 200 s, the article saw it sustained"
    );
    let throttled = r.metric("apiserver_request_total{code=\"429\",verb=\"PUT\"}");
    assert!(throttled > 0.0, "the API server answers 429");
    let first_kill = r.series["flywheel_oom_kills_total"]
        .iter()
        .find(|p| p.1 >= 1.0)
        .map_or(f64::MAX, |p| p.0);
    let mib = |owner: &str| {
        let key = format!("flywheel_heap_live_bytes{{owner=\"{owner}\"}}");
        value_at(&r, &key, first_kill - 1.0) / 1048576.0
    };
    let (fifo, store) = (mib("fifo_deltas"), mib("informer_store"));
    assert!(
        fifo > 100.0,
        "the informer falls behind the writes: {fifo:.0} MiB of deltas before the first kill"
    );
    assert!(
        store > 2.0 * fifo,
        "yet the cache ({store:.0} MiB), not the FIFO ({fifo:.0} MiB), is most of the heap"
    );
    assert!(
        r.metric("flywheel_oom_kills_total") >= 2.0,
        "OOMKilled more than once"
    );
    let reason = "kube_pod_container_status_last_terminated_reason{reason=\"OOMKilled\"}";
    assert_eq!(r.metric(reason), 1.0);
    let restarts = r.metric("kube_pod_container_status_restarts_total");
    assert!(restarts >= 2.0, "CrashLoopBackOff restarts it ({restarts})");
    let late_adds = value_at(&r, ADDS, 180.0) - value_at(&r, ADDS, 60.0);
    assert!(
        late_adds > 100_000.0,
        "after restarts the storm comes back ({late_adds} adds after 60 s)"
    );
}

#[test]
fn with_controller_runtimes_default_client_qps_the_loop_never_reaches_the_api_servers_limits() {
    let sets = [
        ("client.qps".to_owned(), "20".to_owned()),
        ("client.burst".to_owned(), "30".to_owned()),
    ];
    let scenario = presets::load("seed-000-incident", &sets).expect("preset loads");
    let options = RunOptions {
        duration: Some(Duration::from_secs(60)),
        ..RunOptions::default()
    };
    let mut run = Run::new(scenario, &options).expect("run starts");
    while !run.advance(1_000_000) {}
    let r = run.report();
    assert_eq!(
        r.metric("apiserver_request_total{code=\"429\",verb=\"PUT\"}"),
        0.0
    );
    let puts = r.metric("apiserver_request_total{code=\"200\",verb=\"PUT\"}");
    assert!(
        puts <= 20.0 * 60.0 + 30.0,
        "the token bucket caps writes at 20/s ({puts} in 60 s)"
    );
}
