//! The classic rate-limiting queue and the priority queue behind one interface, as a controller
//! uses them (client-go `util/workqueue/rate_limiting_queue.go` `TypedRateLimitingInterface`,
//! controller-runtime `pkg/controller/priorityqueue/priorityqueue.go` `PriorityQueue`).

use flywheel_engine::workqueue::{
    PriorityQueue, QueueMetrics, RateLimitingInterface, RateLimitingQueue,
};
use flywheel_engine::SimTime;

/// A reconcile loop that fails `key` `failures` times, then succeeds; returns the instants at
/// which the key was handed out.
fn run_failing_reconciles(
    q: &mut dyn RateLimitingInterface<&'static str>,
    key: &'static str,
    failures: u32,
) -> Vec<SimTime> {
    let mut handed_out_at = Vec::new();
    let mut now = SimTime::ZERO;
    q.add(key);
    loop {
        q.advance(now);
        if let Some((item, _priority)) = q.get_with_priority() {
            handed_out_at.push(now);
            if q.num_requeues(&item) < failures {
                q.add_rate_limited(item, now);
            } else {
                q.forget(&item);
            }
            q.done(&item);
            continue;
        }
        match q.next_ready_at() {
            Some(at) => now = at,
            None => return handed_out_at,
        }
    }
}

#[test]
fn both_queues_back_off_exponentially_from_five_milliseconds() {
    // controller-runtime controller.go reconcileHandler: error ⇒ AddRateLimited, success ⇒ Forget.
    let mut classic = RateLimitingQueue::<&str>::with_default_rate_limiter();
    let mut priority = PriorityQueue::<&str>::with_default_rate_limiter();
    let expected: Vec<SimTime> = [0, 5, 15, 35, 75]
        .iter()
        .map(|&ms| SimTime::from_millis(ms))
        .collect();
    assert_eq!(run_failing_reconciles(&mut classic, "a", 4), expected);
    assert_eq!(run_failing_reconciles(&mut priority, "a", 4), expected);
    assert_eq!(classic.num_requeues(&"a"), 0, "forgotten after success");
    assert_eq!(
        RateLimitingInterface::metrics(&classic)
            .retries_total
            .value(),
        4
    );
    assert_eq!(
        RateLimitingInterface::metrics(&priority)
            .retries_total
            .value(),
        4
    );
}

#[test]
fn the_classic_queue_reports_priority_zero() {
    let mut q = RateLimitingQueue::<u32>::with_default_rate_limiter();
    RateLimitingInterface::add(&mut q, 9);
    assert_eq!(
        RateLimitingInterface::get_with_priority(&mut q),
        Some((9, 0))
    );
    assert!(RateLimitingInterface::is_empty(&q));
    RateLimitingInterface::shut_down(&mut q);
    assert!(RateLimitingInterface::shutting_down(&q));
}

#[test]
fn queue_metrics_serialize_with_upstream_names() {
    let mut q = PriorityQueue::<&str>::with_default_rate_limiter();
    q.add("a");
    let metrics: &QueueMetrics = q.metrics();
    let json = serde_json::to_value(metrics).expect("serializable");
    for field in [
        "depth",
        "adds_total",
        "queue_duration_seconds",
        "work_duration_seconds",
        "retries_total",
        "unfinished_work_seconds",
        "longest_running_processor_seconds",
    ] {
        assert!(json.get(field).is_some(), "missing {field}");
    }
    assert_eq!(json["adds_total"]["value"], 1);
    assert_eq!(json["depth_by_priority"]["0"]["value"], 1.0);
    let bounds = &json["queue_duration_seconds"]["upper_bounds"];
    assert_eq!(bounds.as_array().map(Vec::len), Some(12));
}
