//! The scenario sections of the seed-001 and seed-004 incidents: the cluster's Pods and Nodes, the
//! manager's cache options, and the switches of the Reconcile code that each incident's fix flips.
//!
//! Every fix is one scalar field, so it can be turned on with `--set` (e.g.
//! `--set code.pod_list=field_index`) and by a toggle on the page.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::bounds::{check_size, check_whole};
use super::serde_units::{bytes_str, duration_str};
use super::ScenarioError;

/// How Reconcile lists the Pods its object owns (the `list_pods` step).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PodList {
    /// `r.List(ctx, &pods)` and a loop over `OwnerReferences`: every cached Pod is deep-copied
    /// (controller-runtime `pkg/cache/internal/cache_reader.go`: no namespace and no field
    /// selector ⇒ `indexer.List()`).
    #[default]
    AllNamespaces,
    /// `r.List(ctx, &pods, client.InNamespace(obj.Namespace))` and the loop: the `namespace` index.
    Namespace,
    /// `r.List(ctx, &pods, client.InNamespace(ns), client.MatchingFields{ownerKey: obj.Name})`
    /// with a `FieldIndexer` registered on the owner's name: only the owned Pods are copied.
    FieldIndex,
}

impl PodList {
    /// The name used in files.
    pub fn as_str(self) -> &'static str {
        match self {
            PodList::AllNamespaces => "all_namespaces",
            PodList::Namespace => "namespace",
            PodList::FieldIndex => "field_index",
        }
    }
}

/// What happens when the finalizer's external cleanup fails.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinalizerMode {
    /// The safe state machine: a failed cleanup returns the error and keeps the finalizer (the
    /// key is retried with backoff); the finalizer goes only after the cleanup succeeded.
    #[default]
    Safe,
    /// The finalizer is removed even when the cleanup failed: the object vanishes and what it
    /// held outside the cluster leaks.
    RemoveOnFailure,
}

/// How Reconcile logs the object (the `log_object` step).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LogMode {
    /// `log.Info("reconciling", "obj", obj)`: the whole object is encoded by reflection.
    #[default]
    WholeObject,
    /// `log.Info("reconciling", "conditions", len(obj.Status.Conditions))`.
    Counts,
}

/// How `ensure_pods` places the Pods it creates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// `spec.nodeName` left empty: kube-scheduler places the Pod, and its TaintToleration filter
    /// (kubernetes `pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go`) keeps
    /// it off a Node tainted `node.kubernetes.io/memory-pressure:NoSchedule`, which the Pod does
    /// not tolerate; with no other Node it stays Pending.
    #[default]
    Scheduler,
    /// `spec.nodeName` set by the operator (the least requested Node that fits): the scheduler,
    /// and with it the taint, is bypassed; only the kubelet's admission
    /// (`pkg/kubelet/eviction/eviction_manager.go` `Admit`) stands in the way.
    NodeName,
}

impl Placement {
    /// The name used in files.
    pub fn as_str(self) -> &'static str {
        match self {
            Placement::Scheduler => "scheduler",
            Placement::NodeName => "node_name",
        }
    }
}

/// The switches of the Reconcile code that the incidents' fixes flip.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CodeConfig {
    /// How `list_pods` lists (seed 001's fix: `field_index`).
    pub pod_list: PodList,
    /// Whether `open_watch` stops its watch when Reconcile returns (`defer w.Stop()`).
    pub stop_watch: bool,
    /// How `log_object` logs.
    pub log: LogMode,
    /// The deadline of `external_call` (`context.WithTimeout`); `0` ⇒ none.
    #[serde(with = "duration_str")]
    pub external_timeout: Duration,
    /// What Reconcile returns when the call ran into its deadline: `RequeueAfter` this long.
    #[serde(with = "duration_str")]
    pub timeout_requeue_after: Duration,
    /// What `finalize` does when the cleanup fails.
    pub finalizer: FinalizerMode,
    /// Whether `ensure_pods` checks the Node's `MemoryPressure` condition before recreating.
    pub check_memory_pressure: bool,
    /// What `ensure_pods` returns while it waits for the pressure to go.
    #[serde(with = "duration_str")]
    pub pressure_requeue_after: Duration,
    /// How `ensure_pods` places the Pods it creates.
    pub placement: Placement,
}

impl Default for CodeConfig {
    fn default() -> Self {
        CodeConfig {
            pod_list: PodList::AllNamespaces,
            stop_watch: false,
            log: LogMode::WholeObject,
            external_timeout: Duration::ZERO,
            timeout_requeue_after: Duration::from_secs(30),
            finalizer: FinalizerMode::Safe,
            check_memory_pressure: false,
            pressure_requeue_after: Duration::from_secs(30),
            placement: Placement::Scheduler,
        }
    }
}

/// The manager's cache options for Pods (controller-runtime `cache.Options`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CacheConfig {
    /// `DefaultNamespaces` set to the operator's namespaces (the first `objects.namespaces`):
    /// the Pod informer lists and watches only those.
    pub namespaced: bool,
    /// Pods are read as `metav1.PartialObjectMetadata` (`builder.OnlyMetadata`): the cache holds
    /// only their metadata.
    pub metadata_only: bool,
}

/// The Pods of the cluster (`[pods]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PodsConfig {
    /// Pods in the cluster, the operator's own included.
    pub count: u32,
    /// Namespaces they are spread over; the first `objects.namespaces` hold the custom resources.
    pub namespaces: u32,
    /// Pods each custom resource owns (ownerReference with `controller: true`), in its namespace.
    pub per_object: u32,
    /// A decoded Pod's size in the operator's heap (annotations, env, volumes, managedFields).
    #[serde(with = "bytes_str")]
    pub size_bytes: u64,
    /// A decoded `PartialObjectMetadata`'s size (metadata only).
    #[serde(with = "bytes_str")]
    pub metadata_size_bytes: u64,
    /// Memory request of each owned Pod's container.
    #[serde(with = "bytes_str")]
    pub memory_request: u64,
    /// Memory limit of each owned Pod's container; `0` ⇒ none (with a zero request the Pods are
    /// BestEffort).
    #[serde(with = "bytes_str")]
    pub memory_limit: u64,
    /// Working set each owned Pod reaches once started.
    #[serde(with = "bytes_str")]
    pub memory_usage: u64,
    /// How long an owned Pod takes to reach its working set (linear ramp).
    #[serde(with = "duration_str")]
    pub warmup: Duration,
}

impl Default for PodsConfig {
    fn default() -> Self {
        PodsConfig {
            count: 0,
            namespaces: 1,
            per_object: 0,
            size_bytes: 16 * 1024,
            metadata_size_bytes: 1024,
            memory_request: 256 * 1024 * 1024,
            memory_limit: 2 * 1024 * 1024 * 1024,
            memory_usage: 256 * 1024 * 1024,
            warmup: Duration::from_secs(20),
        }
    }
}

/// The Nodes and their kubelets (`[nodes]`); `count = 0` leaves them out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NodesConfig {
    /// Worker Nodes that run the owned Pods.
    pub count: u32,
    /// Each Node's memory capacity.
    #[serde(with = "bytes_str")]
    pub memory_capacity: u64,
    /// Memory used on each Node by everything else (system daemons, other workloads).
    #[serde(with = "bytes_str")]
    pub other_usage: u64,
    /// `--eviction-hard=memory.available<…` (kubelet default 100Mi).
    #[serde(with = "bytes_str")]
    pub eviction_hard_memory_available: u64,
    /// `--eviction-pressure-transition-period` (kubelet default 5m).
    #[serde(with = "duration_str")]
    pub pressure_transition_period: Duration,
    /// The eviction manager's monitoring interval (kubelet: 10s).
    #[serde(with = "duration_str")]
    pub eviction_interval: Duration,
}

impl Default for NodesConfig {
    fn default() -> Self {
        NodesConfig {
            count: 0,
            memory_capacity: 16 * 1024 * 1024 * 1024,
            other_usage: 4 * 1024 * 1024 * 1024,
            eviction_hard_memory_available: 100 * 1024 * 1024,
            pressure_transition_period: Duration::from_secs(300),
            eviction_interval: Duration::from_secs(10),
        }
    }
}

/// A Pod's QoS class (`v1.PodQOSClass`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QosClass {
    /// Requests equal limits.
    Guaranteed,
    /// Some request or limit, not all equal.
    Burstable,
    /// No requests and no limits.
    BestEffort,
}

/// Largest Pod count.
pub const MAX_PODS: u32 = 500_000;

fn err(field: &str, message: String) -> ScenarioError {
    ScenarioError {
        field: field.to_owned(),
        message,
    }
}

fn in_range(field: &str, v: u64, lo: u64, hi: u64, what: &str) -> Result<(), ScenarioError> {
    if (lo..=hi).contains(&v) {
        Ok(())
    } else {
        Err(err(field, format!("must be {what} (got {v})")))
    }
}

const MI: u64 = 1024 * 1024;
const GI: u64 = 1024 * MI;

impl CodeConfig {
    /// Bounds of the durations.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        let hour = Duration::from_secs(3600);
        for (field, d) in [
            ("code.external_timeout", self.external_timeout),
            ("code.timeout_requeue_after", self.timeout_requeue_after),
            ("code.pressure_requeue_after", self.pressure_requeue_after),
        ] {
            if d > hour {
                return Err(err(field, format!("must be at most 1h (got {d:?})")));
            }
        }
        Ok(())
    }
}

impl PodsConfig {
    /// Bounds, and that the owned Pods fit in `count` and their namespaces in `namespaces`.
    pub fn validate(&self, objects: u32, object_namespaces: u32) -> Result<(), ScenarioError> {
        check_whole("pods.count", u64::from(self.count))?;
        check_whole("pods.namespaces", u64::from(self.namespaces))?;
        check_whole("pods.per_object", u64::from(self.per_object))?;
        let owned = u64::from(objects) * u64::from(self.per_object);
        if owned > u64::from(self.count) {
            return Err(err(
                "pods.count",
                format!(
                    "must hold the owned Pods, objects.count × pods.per_object = {owned} (got {})",
                    self.count
                ),
            ));
        }
        if self.count > 0 && self.namespaces < object_namespaces {
            return Err(err(
                "pods.namespaces",
                format!(
                    "must be at least objects.namespaces = {object_namespaces} (got {})",
                    self.namespaces
                ),
            ));
        }
        check_size("pods.size_bytes", self.size_bytes)?;
        in_range(
            "pods.metadata_size_bytes",
            self.metadata_size_bytes,
            128,
            self.size_bytes.max(128),
            "from 128 to pods.size_bytes",
        )?;
        in_range(
            "pods.memory_request",
            self.memory_request,
            0,
            1024 * GI,
            "at most 1024Gi",
        )?;
        if self.memory_limit != 0 || self.memory_request != 0 {
            in_range(
                "pods.memory_limit",
                self.memory_limit,
                self.memory_request.max(MI),
                1024 * GI,
                "from pods.memory_request (at least 1Mi) to 1024Gi, or 0 with a 0 request",
            )?;
        }
        in_range(
            "pods.memory_usage",
            self.memory_usage,
            0,
            if self.memory_limit == 0 {
                1024 * GI
            } else {
                self.memory_limit
            },
            "at most pods.memory_limit (1024Gi without a limit)",
        )?;
        if self.warmup > Duration::from_secs(3600) {
            return Err(err(
                "pods.warmup",
                format!("must be at most 1h (got {:?})", self.warmup),
            ));
        }
        Ok(())
    }

    /// The owned Pods' QoS class from their memory request and limit (kubernetes
    /// `pkg/apis/core/v1/helper/qos/qos.go` `GetPodQOS`, with memory as the only resource):
    /// neither ⇒ BestEffort, request = limit ⇒ Guaranteed, otherwise Burstable.
    pub fn qos_class(&self) -> QosClass {
        match (self.memory_request, self.memory_limit) {
            (0, 0) => QosClass::BestEffort,
            (r, l) if r == l => QosClass::Guaranteed,
            _ => QosClass::Burstable,
        }
    }

    /// Pods owned by the custom resources.
    pub fn owned(&self, objects: u32) -> u64 {
        u64::from(objects) * u64::from(self.per_object)
    }

    /// Pods in the first `namespaces` namespaces: the owned ones plus their share of the rest.
    pub fn in_namespaces(&self, objects: u32, namespaces: u32) -> u64 {
        let owned = self.owned(objects);
        let others = u64::from(self.count).saturating_sub(owned);
        owned + others * u64::from(namespaces.min(self.namespaces)) / u64::from(self.namespaces)
    }

    /// Pods in one of the operator's namespaces.
    pub fn per_namespace(&self, objects: u32, object_namespaces: u32) -> u64 {
        self.in_namespaces(objects, object_namespaces) / u64::from(object_namespaces.max(1))
    }
}

impl NodesConfig {
    /// Bounds.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        check_whole("nodes.count", u64::from(self.count))?;
        check_size("nodes.memory_capacity", self.memory_capacity)?;
        in_range(
            "nodes.other_usage",
            self.other_usage,
            0,
            self.memory_capacity,
            "at most nodes.memory_capacity",
        )?;
        in_range(
            "nodes.eviction_hard_memory_available",
            self.eviction_hard_memory_available,
            0,
            self.memory_capacity,
            "at most nodes.memory_capacity",
        )?;
        if self.pressure_transition_period > Duration::from_secs(3600) {
            return Err(err(
                "nodes.pressure_transition_period",
                "must be at most 1h".to_owned(),
            ));
        }
        if self.eviction_interval < Duration::from_secs(1)
            || self.eviction_interval > Duration::from_secs(600)
        {
            return Err(err(
                "nodes.eviction_interval",
                format!("must be from 1s to 10m (got {:?})", self.eviction_interval),
            ));
        }
        Ok(())
    }
}
