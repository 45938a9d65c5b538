//! The names of the metrics a run reports, in one place: the engine records them, the CLI prints
//! and plots them, the page charts them.
//!
//! ```text
//!  engine (Registry::inc/set) ──▶ series ──▶ CLI table / plot
//!          names::* ──────────────────────▶ page charts, verdict rates
//! ```
//!
//! Each name is the upstream metric's name where one exists (kube-apiserver, controller-runtime,
//! client-go, the Go runtime, kube-state-metrics); a `flywheel_` name counts something no upstream
//! component exports. A key with labels is `name{label="value",…}`
//! ([`crate::cluster::registry::metric_key`]).

/// Requests the API server answered, by `code` and `verb` (kube-apiserver
/// `apiserver_request_total`, `staging/src/k8s.io/apiserver/pkg/endpoints/metrics/metrics.go`).
pub const APISERVER_REQUEST_TOTAL: &str = "apiserver_request_total";

/// Finished reconciles, by `controller` and `result` (controller-runtime
/// `controller_runtime_reconcile_total`, `pkg/internal/controller/metrics/metrics.go`).
pub const RECONCILE_TOTAL: &str = "controller_runtime_reconcile_total";
/// Reconciles that returned an error (controller-runtime `controller_runtime_reconcile_errors_total`).
pub const RECONCILE_ERRORS_TOTAL: &str = "controller_runtime_reconcile_errors_total";
/// Reconciles that returned a terminal error (controller-runtime
/// `controller_runtime_terminal_reconcile_errors_total`).
pub const TERMINAL_RECONCILE_ERRORS_TOTAL: &str =
    "controller_runtime_terminal_reconcile_errors_total";
/// Reconciles that panicked (controller-runtime `controller_runtime_reconcile_panics_total`).
pub const RECONCILE_PANICS_TOTAL: &str = "controller_runtime_reconcile_panics_total";
/// How long each reconcile took, a histogram (controller-runtime
/// `controller_runtime_reconcile_time_seconds`).
pub const RECONCILE_TIME_SECONDS: &str = "controller_runtime_reconcile_time_seconds";
/// Workers running a reconcile now (controller-runtime `controller_runtime_active_workers`).
pub const ACTIVE_WORKERS: &str = "controller_runtime_active_workers";

/// Items added to the workqueue (client-go `workqueue_adds_total`,
/// `staging/src/k8s.io/client-go/util/workqueue/metrics.go`).
pub const WORKQUEUE_ADDS_TOTAL: &str = "workqueue_adds_total";
/// Rate-limited re-adds of the workqueue (client-go `workqueue_retries_total`).
pub const WORKQUEUE_RETRIES_TOTAL: &str = "workqueue_retries_total";
/// Items waiting in the workqueue (client-go `workqueue_depth`).
pub const WORKQUEUE_DEPTH: &str = "workqueue_depth";

/// Time requests waited in client-go's token bucket, a histogram (client-go
/// `rest_client_rate_limiter_duration_seconds`, `staging/src/k8s.io/client-go/tools/metrics`).
pub const CLIENT_RATE_LIMITER_DURATION_SECONDS: &str = "rest_client_rate_limiter_duration_seconds";
/// Requests client-go retried, by `code` (client-go `rest_client_request_retries_total`,
/// `staging/src/k8s.io/client-go/tools/metrics/metrics.go` `RequestRetry`): here the retries
/// after a 429 answer.
pub const CLIENT_REQUEST_RETRIES_TOTAL: &str = "rest_client_request_retries_total";

/// Goroutines of the operator's process (Go collector `go_goroutines`).
pub const GO_GOROUTINES: &str = "go_goroutines";
/// Heap bytes allocated and in use (Go collector `go_memstats_heap_alloc_bytes`).
pub const GO_HEAP_ALLOC_BYTES: &str = "go_memstats_heap_alloc_bytes";
/// The heap size at which the next GC starts (Go collector `go_memstats_next_gc_bytes`).
pub const GO_NEXT_GC_BYTES: &str = "go_memstats_next_gc_bytes";
/// GC cycles completed (the count of the Go collector's `go_gc_duration_seconds` summary).
pub const GO_GC_COUNT: &str = "go_gc_duration_seconds_count";
/// Resident memory of the operator's process (process collector `process_resident_memory_bytes`).
pub const PROCESS_RESIDENT_MEMORY_BYTES: &str = "process_resident_memory_bytes";

/// Restarts of the operator's container (kube-state-metrics
/// `kube_pod_container_status_restarts_total`).
pub const POD_RESTARTS_TOTAL: &str = "kube_pod_container_status_restarts_total";
/// Why the container last terminated, 1 for its `reason` (kube-state-metrics
/// `kube_pod_container_status_last_terminated_reason`).
pub const POD_LAST_TERMINATED_REASON: &str = "kube_pod_container_status_last_terminated_reason";

/// Enqueues caused by the operator's own write coming back as a watch event (no upstream
/// metric: the workqueue forgets why an item was added).
pub const SELF_TRIGGERED_ENQUEUES_TOTAL: &str = "flywheel_self_triggered_enqueues_total";
/// Watch events a predicate of the `For` watch filtered out (no upstream metric).
pub const PREDICATE_DROPPED_TOTAL: &str = "flywheel_predicate_dropped_total";
/// OOM kills of the operator's container (the kubelet reports each as a termination with reason
/// `OOMKilled`; no upstream counter).
pub const OOM_KILLS_TOTAL: &str = "flywheel_oom_kills_total";
/// The container's memory limit (kube-state-metrics reports it as
/// `kube_pod_container_resource_limits{resource="memory"}`).
pub const MEMORY_LIMIT_BYTES: &str = "flywheel_memory_limit_bytes";
/// The share of the CPU the Go GC takes (mark workers and assists).
pub const GC_CPU_FRACTION: &str = "flywheel_gc_cpu_fraction";
/// Deltas waiting in the informer's FIFO.
pub const FIFO_ITEMS: &str = "flywheel_fifo_items";
/// Notifications waiting in the event handler's buffer (client-go `processorListener`).
pub const HANDLER_BUFFER_LENGTH: &str = "flywheel_handler_buffer_length";
/// The etcd revision (the latest resourceVersion).
pub const ETCD_REVISION: &str = "flywheel_etcd_revision";
/// Custom resources with a deletionTimestamp still waiting for finalizers.
pub const OBJECTS_TERMINATING: &str = "flywheel_objects_terminating";
/// When the controller's workers last started, in simulated seconds (controller-runtime logs
/// "Starting workers"; no upstream metric).
pub const WORKERS_STARTED_SECONDS: &str = "flywheel_workers_started_seconds";

/// Metrics of the workload side and the informer's watch (no upstream counterparts unless named).
/// Reconciles whose context deadline passed (controller-runtime v0.23 `ReconcileTimeouts`).
pub const RECONCILE_TIMEOUTS_TOTAL: &str = "controller_runtime_reconcile_timeouts_total";
/// How long an item waits in the workqueue before a worker gets it (client-go `queueLatency`).
pub const WORKQUEUE_QUEUE_DURATION_SECONDS: &str = "workqueue_queue_duration_seconds";
/// How long a worker holds an item (client-go `workDuration`).
pub const WORKQUEUE_WORK_DURATION_SECONDS: &str = "workqueue_work_duration_seconds";
/// Seconds of work in progress not yet done (client-go `unfinishedWorkSeconds`).
pub const WORKQUEUE_UNFINISHED_WORK_SECONDS: &str = "workqueue_unfinished_work_seconds";
/// How long the longest-running worker has held its item (client-go `longestRunningProcessor`).
pub const WORKQUEUE_LONGEST_RUNNING_PROCESSOR_SECONDS: &str =
    "workqueue_longest_running_processor_seconds";
/// Watch events delivered to the operator's informers (kube-apiserver counts them per kind as `apiserver_watch_events_total`).
pub const WATCH_EVENTS_TOTAL: &str = "flywheel_watch_events_total";
/// Pods the operator created (the workload families).
pub const PODS_CREATED_TOTAL: &str = "flywheel_pods_created_total";
/// Pods the kubelet rejected at admission (not enough allocatable memory).
pub const PODS_REJECTED_TOTAL: &str = "flywheel_pods_rejected_total";
/// Pods no node could take (every node tainted or full).
pub const PODS_UNSCHEDULABLE_TOTAL: &str = "flywheel_pods_unschedulable_total";
/// Pods the kubelet evicted under memory pressure.
pub const PODS_EVICTED_TOTAL: &str = "flywheel_pods_evicted_total";
/// Pod re-creations put off because the owner's Pod was still terminating.
pub const POD_RECREATIONS_DEFERRED_TOTAL: &str = "flywheel_pod_recreations_deferred_total";
/// Workload Pods running now.
pub const PODS_RUNNING: &str = "flywheel_pods_running";
/// Workload Pods waiting for a node now.
pub const PODS_PENDING: &str = "flywheel_pods_pending";
/// Pods in the operator's Pod informer cache.
pub const POD_CACHE_ITEMS: &str = "flywheel_pod_cache_items";
/// Times Reconcile started a Pod informer of its own (the watch-leak shape).
pub const POD_INFORMER_STARTS_TOTAL: &str = "flywheel_pod_informer_starts_total";
/// Watches Reconcile opened and did not close.
pub const RECONCILE_WATCHES_OPENED_TOTAL: &str = "flywheel_reconcile_watches_opened_total";
/// Watches opened by Reconcile still open now.
pub const RECONCILE_WATCHES_OPEN: &str = "flywheel_reconcile_watches_open";
/// Objects deep-copied out of the cache by a cluster-wide `List` in Reconcile.
pub const LIST_ITEMS_COPIED_TOTAL: &str = "flywheel_list_items_copied_total";
/// Bytes allocated to log whole objects.
pub const LOG_BYTES_ALLOCATED_TOTAL: &str = "flywheel_log_bytes_allocated_total";
/// External calls that never answered (no context timeout).
pub const EXTERNAL_CALLS_HUNG_TOTAL: &str = "flywheel_external_calls_hung_total";
/// External calls cut off by their context timeout.
pub const EXTERNAL_CALL_TIMEOUTS_TOTAL: &str = "flywheel_external_call_timeouts_total";
/// External resources a finalizer cleaned up.
pub const EXTERNAL_CLEANUPS_TOTAL: &str = "flywheel_external_cleanups_total";
/// External resources left behind when their object went without cleanup.
pub const EXTERNAL_RESOURCES_LEAKED_TOTAL: &str = "flywheel_external_resources_leaked_total";
/// Namespaces waiting for their contents to go.
pub const NAMESPACES_TERMINATING: &str = "flywheel_namespaces_terminating";
/// The least memory available on any node (the kubelet's `memory.available` signal).
pub const NODE_MEMORY_AVAILABLE_BYTES: &str = "flywheel_node_memory_available_bytes";

/// The controller's name: the `controller` label of the `controller_runtime_*` metrics and the
/// `name` (and, from controller-runtime v0.19, `controller`) label of the `workqueue_*` metrics.
pub const CONTROLLER_NAME: &str = "flywheel";

/// The first part of every key of metric `name` with labels: `name{`.
pub fn labeled_prefix(name: &str) -> String {
    format!("{name}{{")
}

/// Whether `key` is metric `name`, with or without labels.
pub fn is_metric(key: &str, name: &str) -> bool {
    key.strip_prefix(name)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('{'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_belongs_to_its_name_with_or_without_labels_but_not_to_a_longer_name() {
        assert!(is_metric(GO_GOROUTINES, GO_GOROUTINES));
        assert!(is_metric(
            "workqueue_depth{name=\"flywheel\"}",
            WORKQUEUE_DEPTH
        ));
        assert!(!is_metric(RECONCILE_TIME_SECONDS, RECONCILE_TOTAL));
        assert!(!is_metric("go_goroutines_total", GO_GOROUTINES));
    }
}
