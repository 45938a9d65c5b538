//! The sections of a scenario file and their validation.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::bounds::{self, check_size, check_whole};
use super::messages::show_number;
use super::serde_units::{bytes_str, duration_str, opt_bytes_str, opt_duration_str};
use super::text::PresetText;
use super::workload::{CacheConfig, CodeConfig, NodesConfig, PodsConfig};
use super::ScenarioError;
use crate::apiserver::ListCostEstimate;
use crate::controller::program::{ListScope, Program, Step};

/// Versions of Kubernetes, client-go and controller-runtime whose defaults the operator follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Profile {
    /// Kubernetes 1.27–1.28, controller-runtime v0.15, client-go v0.27 (the seed incident's
    /// versions): DeltaFIFO (no `InOrderInformers`); LIST + WATCH (no `WatchListClient`; the
    /// server's `WatchList` is alpha and off); the classic workqueue with the default `MaxOf` limiter;
    /// client QPS 20 / burst 30; predicates comparing maps with `reflect.DeepEqual`; APF sizes a
    /// LIST by object count, at most 10 seats (no `SizeBasedListCostEstimate`), and sends a
    /// `resourceVersion=""` LIST to etcd (no `ConsistentListFromCache`).
    #[default]
    Seed,
    /// Kubernetes 1.36, controller-runtime v0.24, client-go v0.36: the atomic RealFIFO
    /// (`InOrderInformers` GA, `AtomicFIFO` beta and on in 1.36) popped in batches
    /// (`InOrderInformersBatchProcess`, on since 1.35); the initial sync and relists by streaming
    /// watch-list (`WatchListClient`, on since client-go v0.35; the server's `WatchList`, on since
    /// 1.34; controller-runtime v0.24 keeps bookmarks on and does not turn it off); the priority
    /// queue with an exponential-only limiter; client-side rate limiting off; `maps.Equal`; APF
    /// sizes a LIST or watch-list by bytes (`SizeBasedListCostEstimate`, on since 1.34) and serves
    /// every LIST from the watch cache (`ConsistentListFromCache`, GA in 1.34).
    Modern,
}

impl Profile {
    /// The name used in files and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Seed => "seed",
            Profile::Modern => "modern",
        }
    }

    /// The API server's list cost estimate for APF (feature gate `SizeBasedListCostEstimate`,
    /// beta and on by default since 1.34; apiserver `pkg/features/kube_features.go`).
    pub fn list_cost_estimate(self) -> ListCostEstimate {
        match self {
            Profile::Seed => ListCostEstimate::ObjectCount,
            Profile::Modern => ListCostEstimate::ObjectSize,
        }
    }

    /// Whether the watch cache serves consistent (`resourceVersion=""`) LISTs (feature gate
    /// `ConsistentListFromCache`: beta and on since 1.31, GA since 1.34; apiserver
    /// `pkg/features/kube_features.go`).
    pub fn consistent_list_from_cache(self) -> bool {
        matches!(self, Profile::Modern)
    }

    /// Whether the operator's reflectors sync with a streaming watch-list (client-go feature gate
    /// `WatchListClient`: beta and off from v0.30, on by default since v0.35, client-go
    /// `features/known_features.go`; controller-runtime v0.24 leaves it on).
    pub fn watch_list_client(self) -> bool {
        matches!(self, Profile::Modern)
    }

    /// Whether the API server serves watch-list requests (`sendInitialEvents`; feature gate
    /// `WatchList`: alpha and off in 1.27, on by default since 1.34, apiserver
    /// `pkg/features/kube_features.go`).
    pub fn apiserver_watch_list(self) -> bool {
        matches!(self, Profile::Modern)
    }

    /// Parses `seed` or `modern`.
    pub fn parse(s: &str) -> Result<Profile, String> {
        match s {
            "seed" => Ok(Profile::Seed),
            "modern" => Ok(Profile::Modern),
            _ => Err(format!("unknown profile '{s}' (allowed: seed, modern)")),
        }
    }
}

/// A controller-runtime predicate by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PredicateKind {
    /// `predicate.GenerationChangedPredicate`.
    GenerationChanged,
    /// `predicate.ResourceVersionChangedPredicate`.
    ResourceVersionChanged,
    /// `predicate.AnnotationChangedPredicate`.
    AnnotationChanged,
    /// `predicate.LabelChangedPredicate`.
    LabelChanged,
}

impl PredicateKind {
    /// The Go type name.
    pub fn go_name(self) -> &'static str {
        match self {
            PredicateKind::GenerationChanged => "GenerationChangedPredicate",
            PredicateKind::ResourceVersionChanged => "ResourceVersionChangedPredicate",
            PredicateKind::AnnotationChanged => "AnnotationChangedPredicate",
            PredicateKind::LabelChanged => "LabelChangedPredicate",
        }
    }
}

/// Which informer queue the operator uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FifoKind {
    /// client-go ≤ v0.32 `DeltaFIFO`.
    DeltaFifo,
    /// client-go v0.33–v0.35 `RealFIFO` (gate `InOrderInformers`, beta and on since 1.33): events
    /// in order, reconciled against the store's known objects.
    RealFifo,
    /// client-go ≥ v0.36 `RealFIFO` with atomic events (gate `AtomicFIFO`, beta and on since 1.36):
    /// a relist or resync is one item, and the informer pops batches of up to 1000 items (gate
    /// `InOrderInformersBatchProcess`, beta and on since 1.35).
    AtomicFifo,
}

/// Which workqueue the controller uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QueueKind {
    /// client-go's rate-limiting workqueue with the default `MaxOf` limiter.
    Classic,
    /// controller-runtime ≥ v0.23's priority queue.
    Priority,
}

/// A whole scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Short name (the preset's file name), e.g. `flywheel`.
    pub name: String,
    /// One-line title.
    pub title: String,
    /// The seed article it comes from, e.g. `seed-000`.
    #[serde(default)]
    pub group: String,
    /// A sentence on what it demonstrates.
    #[serde(default)]
    pub summary: String,
    /// The default seed of its random source.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// How long it runs by default (virtual time).
    #[serde(default = "default_duration", with = "duration_str")]
    pub duration: Duration,
    /// Version profile.
    #[serde(default)]
    pub profile: Profile,
    /// The custom resource definition.
    #[serde(default)]
    pub crd: CrdConfig,
    /// The custom resources created at the start.
    #[serde(default)]
    pub objects: ObjectsConfig,
    /// The controller.
    #[serde(default)]
    pub controller: ControllerConfig,
    /// What Reconcile does.
    pub reconcile: Program,
    /// The operator's REST client.
    #[serde(default)]
    pub client: ClientConfig,
    /// The API server.
    #[serde(default)]
    pub apiserver: ApiServerConfig,
    /// The operator's Go process and its container.
    #[serde(default)]
    pub process: ProcessConfig,
    /// Things that happen at given times.
    #[serde(default)]
    pub actions: Vec<ScheduledAction>,
    /// The switches of the Reconcile code that the seed-001/004 fixes flip.
    #[serde(default)]
    pub code: CodeConfig,
    /// The manager's cache options for Pods.
    #[serde(default)]
    pub cache: CacheConfig,
    /// The cluster's Pods.
    #[serde(default)]
    pub pods: PodsConfig,
    /// The cluster's Nodes and kubelets.
    #[serde(default)]
    pub nodes: NodesConfig,
    /// A preset's title, narration and what to try, in English and Chinese.
    #[serde(default, skip_serializing_if = "PresetText::is_empty")]
    pub text: PresetText,
}

fn default_seed() -> u64 {
    1
}

fn default_duration() -> Duration {
    Duration::from_secs(600)
}

/// The custom resource definition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CrdConfig {
    /// The kind, e.g. `MyCRD`.
    pub kind: String,
    /// Whether the CRD has the `/status` subresource.
    pub status_subresource: bool,
}

impl Default for CrdConfig {
    fn default() -> Self {
        CrdConfig {
            kind: "MyCRD".into(),
            status_subresource: false,
        }
    }
}

/// The custom resources created at the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ObjectsConfig {
    /// How many.
    pub count: u32,
    /// Spread over this many namespaces.
    pub namespaces: u32,
    /// Serialized size of each.
    #[serde(with = "bytes_str")]
    pub size_bytes: u64,
    /// When they are created: all at once at this time.
    #[serde(with = "duration_str")]
    pub create_at: Duration,
    /// Finalizers they carry from the start (put there by an earlier run of the operator).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub finalizers: Vec<String>,
}

impl ObjectsConfig {
    /// The key of object `index` as the run creates it: `ns-<index mod namespaces>/demo-<index>`.
    pub fn key_of(&self, index: u32) -> String {
        format!("ns-{}/demo-{index}", index % self.namespaces.max(1))
    }

    /// Whether `key` names one of the objects the run creates; the error says why not and names
    /// one that exists.
    pub fn check_key(&self, key: &str) -> Result<(), String> {
        let index = key
            .split_once("/demo-")
            .and_then(|(_, i)| i.parse::<u32>().ok())
            .filter(|i| *i < self.count);
        match index {
            Some(i) if self.key_of(i) == key => Ok(()),
            Some(i) => Err(format!(
                "there is no object {key} at the start: demo-{i} lives in {}",
                self.key_of(i)
            )),
            None if self.count == 0 => Err(format!(
                "there is no object {key}: the scenario creates none"
            )),
            None => Err(format!(
                "there is no object {key} at the start: the run creates {} to {} (namespace/name)",
                self.key_of(0),
                self.key_of(self.count - 1)
            )),
        }
    }
}

impl Default for ObjectsConfig {
    fn default() -> Self {
        ObjectsConfig {
            count: 10,
            namespaces: 1,
            size_bytes: 4096,
            create_at: Duration::from_secs(1),
            finalizers: Vec::new(),
        }
    }
}

/// controller-runtime's default `CacheSyncTimeout` (`pkg/controller/controller.go`): 2 minutes.
pub const DEFAULT_CACHE_SYNC_TIMEOUT: Duration = Duration::from_secs(120);

/// The longest `controller.cache_sync_timeout` a scenario may set.
pub const MAX_CACHE_SYNC_TIMEOUT: Duration = Duration::from_secs(3600);

/// The controller.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ControllerConfig {
    /// `MaxConcurrentReconciles`.
    pub workers: u32,
    /// Predicates on the `For` watch.
    pub predicates: Vec<PredicateKind>,
    /// The informer queue; absent ⇒ the profile's.
    pub fifo: Option<FifoKind>,
    /// The workqueue; absent ⇒ the profile's.
    pub queue: Option<QueueKind>,
    /// CPU time the informer spends on one delta (indexer update + handler dispatch), per KiB of
    /// object.
    #[serde(with = "duration_str")]
    pub informer_cost_per_kib: Duration,
    /// CPU time an event handler spends on one notification (predicates + enqueue).
    #[serde(with = "duration_str")]
    pub handler_cost: Duration,
    /// CPU time of one cache read (the deep copy), per KiB of object.
    #[serde(with = "duration_str")]
    pub cache_read_cost_per_kib: Duration,
    /// `CacheSyncTimeout`: how long the controller waits for its sources' caches to sync before
    /// its workers start; past it the controller fails to start and the manager exits
    /// (controller-runtime `pkg/internal/controller/controller.go`; default 2 minutes, from
    /// `pkg/controller/controller.go` `NewTypedUnmanaged`).
    #[serde(with = "duration_str")]
    pub cache_sync_timeout: Duration,
}

impl Default for ControllerConfig {
    fn default() -> Self {
        ControllerConfig {
            workers: 1,
            predicates: Vec::new(),
            fifo: None,
            queue: None,
            informer_cost_per_kib: Duration::from_micros(5),
            handler_cost: Duration::from_micros(2),
            cache_read_cost_per_kib: Duration::from_micros(2),
            cache_sync_timeout: DEFAULT_CACHE_SYNC_TIMEOUT,
        }
    }
}

/// The operator's REST client.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClientConfig {
    /// Client-side QPS; absent ⇒ the profile's (seed: 20, modern: off); 0 ⇒ client-go's default
    /// 5; negative ⇒ off; else at least [`MIN_CLIENT_QPS`].
    pub qps: Option<f64>,
    /// Client-side burst; absent ⇒ the profile's (seed: 30).
    pub burst: Option<u32>,
}

/// How the API server limits concurrency.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlowControlMode {
    /// API Priority and Fairness: the operator's requests use the `workload-low` level.
    #[default]
    Apf,
    /// The legacy max-in-flight filter.
    MaxInFlight,
}

/// The API server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ApiServerConfig {
    /// Concurrency limiting.
    pub flow_control: FlowControlMode,
    /// APF seats of the operator's priority level (workload-low: 245).
    pub seats: u32,
    /// APF queue capacity of the level (queues × queueLengthLimit; upstream 128 × 50, of which a
    /// flow's hand of 6 queues is what one operator can fill: 300).
    pub queue_capacity: u32,
    /// APF queue wait limit (upstream: a quarter of the 60 s request timeout).
    #[serde(with = "duration_str")]
    pub queue_wait: Duration,
    /// `--max-requests-inflight` (legacy mode).
    pub max_requests_in_flight: u32,
    /// `--max-mutating-requests-inflight` (legacy mode).
    pub max_mutating_requests_in_flight: u32,
    /// Writes etcd commits per second; further writes wait their turn (0 ⇒ unlimited, else at
    /// least [`MIN_ETCD_WRITES_PER_SECOND`]).
    pub etcd_writes_per_second: f64,
    /// Delay from a write to its watch event reaching a watcher.
    #[serde(with = "duration_str")]
    pub watch_latency: Duration,
    /// Per-verb latency model.
    pub latency: crate::apiserver::LatencyConfig,
    /// Watch cache window (its capacity decides when a watch gets 410 Gone).
    pub watch_cache: crate::apiserver::WatchCacheConfig,
}

impl Default for ApiServerConfig {
    fn default() -> Self {
        ApiServerConfig {
            flow_control: FlowControlMode::Apf,
            seats: 245,
            queue_capacity: 300,
            queue_wait: Duration::from_secs(15),
            max_requests_in_flight: 400,
            max_mutating_requests_in_flight: 200,
            etcd_writes_per_second: 0.0,
            watch_latency: Duration::from_millis(5),
            latency: crate::apiserver::LatencyConfig::default(),
            watch_cache: crate::apiserver::WatchCacheConfig::default(),
        }
    }
}

/// The operator's Go process and its container.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ProcessConfig {
    /// The container's memory limit; absent ⇒ none.
    #[serde(with = "opt_bytes_str")]
    pub memory_limit: Option<u64>,
    /// GOGC in percent; 0 ⇒ off.
    pub gogc: u32,
    /// GOMEMLIMIT; absent ⇒ none.
    #[serde(with = "opt_bytes_str")]
    pub gomemlimit: Option<u64>,
    /// Memory of the process before any object is cached (binary, runtime, clients).
    #[serde(with = "bytes_str")]
    pub baseline: u64,
}

impl Default for ProcessConfig {
    fn default() -> Self {
        ProcessConfig {
            memory_limit: None,
            gogc: 100,
            gomemlimit: None,
            baseline: 24 * 1024 * 1024,
        }
    }
}

/// Something that happens at a given time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduledAction {
    /// When.
    #[serde(with = "duration_str")]
    pub at: Duration,
    /// What.
    #[serde(rename = "do")]
    pub action: ActionKind,
    /// On how many of the objects (the first N); absent ⇒ all. For `delete_namespaces`: how
    /// many of the operator's namespaces (the first N).
    #[serde(default)]
    pub count: Option<u32>,
    /// Repeats the action this often after `at`.
    #[serde(
        default,
        with = "opt_duration_str",
        skip_serializing_if = "Option::is_none"
    )]
    pub every: Option<Duration>,
    /// Stops repeating at this time; absent ⇒ until the end.
    #[serde(
        default,
        with = "opt_duration_str",
        skip_serializing_if = "Option::is_none"
    )]
    pub until: Option<Duration>,
    /// For `set_memory_limit`: the operator container's new memory limit.
    #[serde(
        default,
        with = "opt_bytes_str",
        skip_serializing_if = "Option::is_none"
    )]
    pub memory_limit: Option<u64>,
    /// What `rollout`, `set_status_subresource` and `set_api_limits` change to, in the words
    /// of `flywheel run --do` after its colon ([`crate::cluster::intervention`]): `fixed`,
    /// `predicate=on,status=patch`; `on` or `off`; `seats=4,client_qps=5`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// For `edit_spec`, `label`, `annotate` and `delete`: the one object it acts on, by its key
    /// `namespace/name` (object `i` is `ns-<i mod namespaces>/demo-<i>`); instead of `count`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
}

impl ScheduledAction {
    /// `action` once at `at`, on every object, with no other field set.
    pub fn once(at: Duration, action: ActionKind) -> ScheduledAction {
        ScheduledAction {
            at,
            action,
            count: None,
            every: None,
            until: None,
            memory_limit: None,
            to: None,
            object: None,
        }
    }
}

/// What a scheduled action does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// A user edits the spec (a kubectl apply): generation goes up.
    EditSpec,
    /// A user adds a label (metadata only).
    Label,
    /// A user deletes the objects.
    Delete,
    /// The operator's container is killed.
    KillOperator,
    /// Another controller writes an annotation with a new value on the objects (an update event
    /// each time, no spec change).
    Annotate,
    /// A user deletes the operator's namespaces (`kubectl delete namespace`): the namespace
    /// controller deletes what is inside.
    DeleteNamespaces,
    /// `kubectl set resources --limits=memory=…` on the operator's Deployment: its Pod is
    /// replaced with one under the new limit.
    SetMemoryLimit,
    /// A new version of the operator is rolled out (its Deployment's Pod template changes):
    /// a new Pod with other fixes replaces the old one.
    Rollout,
    /// The CRD is updated to add or remove its `/status` subresource.
    SetStatusSubresource,
    /// The API server's admission limits or the operator's client QPS change.
    SetApiLimits,
}

impl ActionKind {
    /// Every action, in declaration order.
    pub const ALL: [ActionKind; 10] = [
        ActionKind::EditSpec,
        ActionKind::Label,
        ActionKind::Delete,
        ActionKind::KillOperator,
        ActionKind::Annotate,
        ActionKind::DeleteNamespaces,
        ActionKind::SetMemoryLimit,
        ActionKind::Rollout,
        ActionKind::SetStatusSubresource,
        ActionKind::SetApiLimits,
    ];

    /// The action's name as a scenario file writes it (`edit_spec`).
    pub fn as_str(self) -> &'static str {
        match self {
            ActionKind::EditSpec => "edit_spec",
            ActionKind::Label => "label",
            ActionKind::Delete => "delete",
            ActionKind::KillOperator => "kill_operator",
            ActionKind::Annotate => "annotate",
            ActionKind::DeleteNamespaces => "delete_namespaces",
            ActionKind::SetMemoryLimit => "set_memory_limit",
            ActionKind::Rollout => "rollout",
            ActionKind::SetStatusSubresource => "set_status_subresource",
            ActionKind::SetApiLimits => "set_api_limits",
        }
    }
}

/// Largest object count a scenario may ask for.
pub const MAX_OBJECTS: u32 = 200_000;
/// Largest worker count.
pub const MAX_WORKERS: u32 = 1_000;
/// Slowest client-side QPS other than 0 (the default) or negative (off): one request in 1000 s.
pub const MIN_CLIENT_QPS: f64 = 0.001;
/// Slowest etcd write rate other than 0 (unlimited): one write in 1000 s.
pub const MIN_ETCD_WRITES_PER_SECOND: f64 = 0.001;
/// Longest scenario duration.
pub const MAX_DURATION: Duration = Duration::from_secs(7 * 24 * 3600);

fn range_err(field: &str, allowed: &str, got: impl std::fmt::Display) -> ScenarioError {
    ScenarioError {
        field: field.to_owned(),
        message: format!("must be {allowed} (got {got})"),
    }
}

fn check_u32(field: &str, v: u32) -> Result<(), ScenarioError> {
    check_whole(field, u64::from(v))
}

fn check_duration(field: &str, d: Duration, max: Duration) -> Result<(), ScenarioError> {
    if d <= max {
        Ok(())
    } else {
        Err(range_err(
            field,
            &format!("at most {}", super::units::format_duration(max)),
            super::units::format_duration(d),
        ))
    }
}

impl Scenario {
    /// Checks every range; the error names the field and the allowed range, on one line (a
    /// control character the user wrote is shown escaped).
    pub fn validate(&self) -> Result<(), ScenarioError> {
        self.validate_all().map_err(|e| ScenarioError {
            field: super::messages::escaped(&e.field),
            message: super::messages::escaped(&e.message),
        })
    }

    fn validate_all(&self) -> Result<(), ScenarioError> {
        if self.name.is_empty()
            || !self
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_+".contains(c))
        {
            return Err(range_err(
                "name",
                "letters, digits, '-', '_' or '+'",
                format!("'{}'", self.name),
            ));
        }
        if self.duration.is_zero() || self.duration > MAX_DURATION {
            return Err(range_err(
                "duration",
                "more than 0 and at most 168h",
                super::units::format_duration(self.duration),
            ));
        }
        self.validate_objects()?;
        self.validate_controller()?;
        self.validate_client()?;
        self.validate_apiserver()?;
        self.validate_process()?;
        self.reconcile.validate("reconcile.steps")?;
        self.validate_list_kinds()?;
        for (i, a) in self.actions.iter().enumerate() {
            check_duration(&format!("actions[{i}].at"), a.at, MAX_DURATION)?;
            if let Some(every) = a.every {
                if every < Duration::from_millis(100) || every > MAX_DURATION {
                    return Err(range_err(
                        &format!("actions[{i}].every"),
                        "from 100ms to 168h",
                        super::units::format_duration(every),
                    ));
                }
            }
            if let Some(count) = a.count {
                check_u32(&format!("actions[{i}].count"), count)?;
            }
            if let Some(key) = &a.object {
                self.objects
                    .check_key(key)
                    .map_err(|message| ScenarioError {
                        field: format!("actions[{i}].object"),
                        message,
                    })?;
            }
            if a.action == ActionKind::SetMemoryLimit {
                let limit = a.memory_limit.unwrap_or(0);
                check_size(&format!("actions[{i}].memory_limit"), limit)?;
            }
            crate::cluster::intervention::Intervention::of_action(a).map_err(|e| {
                ScenarioError {
                    field: format!("actions[{i}].{}", e.field),
                    message: e.message,
                }
            })?;
        }
        self.code.validate()?;
        self.pods
            .validate(self.objects.count, self.objects.namespaces)?;
        self.nodes.validate()?;
        for (i, f) in self.objects.finalizers.iter().enumerate() {
            if f.is_empty() || f.len() > 253 || !f.contains('/') {
                return Err(range_err(
                    &format!("objects.finalizers[{i}]"),
                    "a qualified name such as batch.example.com/finalizer",
                    format!("'{f}'"),
                ));
            }
        }
        Ok(())
    }

    fn validate_objects(&self) -> Result<(), ScenarioError> {
        let o = &self.objects;
        check_u32("objects.count", o.count)?;
        check_u32("objects.namespaces", o.namespaces)?;
        check_size("objects.size_bytes", o.size_bytes)?;
        if !self
            .crd
            .kind
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_uppercase())
            || !self.crd.kind.chars().all(|c| c.is_ascii_alphanumeric())
        {
            return Err(range_err(
                "crd.kind",
                "a Go type name such as MyCRD",
                format!("'{}'", self.crd.kind),
            ));
        }
        check_duration("objects.create_at", o.create_at, MAX_DURATION)
    }

    /// A `list` step reads the custom resource's own cache; Pods are listed by `list_pods`, whose
    /// informer, scopes and memory are modelled separately.
    fn validate_list_kinds(&self) -> Result<(), ScenarioError> {
        for (i, step) in self.reconcile.steps.iter().enumerate() {
            if let Step::List { kind, scope } = step {
                if let ListScope::FieldIndex { field } = scope {
                    if !crate::object::is_indexable_field(field) {
                        let f = format!("reconcile.steps[{i}].list.scope.field_index.field");
                        let allowed = ".metadata.name, .metadata.namespace, .metadata.ownerReferences.name, .metadata.labels.<key>, .spec.<path> or .status.<path>";
                        return Err(range_err(&f, allowed, format!("{field:?}")));
                    }
                }
                if *kind != self.crd.kind {
                    let allowed = format!(
                        "the custom resource's kind {:?} (Pods are listed by the list_pods step)",
                        self.crd.kind
                    );
                    let field = format!("reconcile.steps[{i}].list.kind");
                    return Err(range_err(&field, &allowed, format!("{kind:?}")));
                }
            }
        }
        Ok(())
    }

    fn validate_controller(&self) -> Result<(), ScenarioError> {
        let c = &self.controller;
        check_u32("controller.workers", c.workers)?;
        let max_cost = Duration::from_secs(1);
        check_duration(
            "controller.informer_cost_per_kib",
            c.informer_cost_per_kib,
            max_cost,
        )?;
        check_duration("controller.handler_cost", c.handler_cost, max_cost)?;
        check_duration(
            "controller.cache_read_cost_per_kib",
            c.cache_read_cost_per_kib,
            max_cost,
        )?;
        let timeout = c.cache_sync_timeout;
        if timeout < Duration::from_secs(1) || timeout > MAX_CACHE_SYNC_TIMEOUT {
            return Err(range_err(
                "controller.cache_sync_timeout",
                "a duration from 1s to 1h",
                super::units::format_duration(timeout),
            ));
        }
        Ok(())
    }

    fn validate_client(&self) -> Result<(), ScenarioError> {
        if let Some(qps) = self.client.qps {
            let slow = qps > 0.0 && qps < MIN_CLIENT_QPS;
            if !qps.is_finite() || qps > 1e6 || slow {
                return Err(bounds::out_of_range("client.qps", show_number(qps)));
            }
        }
        if let Some(burst) = self.client.burst {
            check_u32("client.burst", burst)?;
        }
        Ok(())
    }

    fn validate_apiserver(&self) -> Result<(), ScenarioError> {
        let a = &self.apiserver;
        check_u32("apiserver.seats", a.seats)?;
        check_u32("apiserver.queue_capacity", a.queue_capacity)?;
        if a.queue_wait < Duration::from_millis(1) || a.queue_wait > Duration::from_secs(60) {
            return Err(range_err(
                "apiserver.queue_wait",
                "from 1ms to 1m",
                super::units::format_duration(a.queue_wait),
            ));
        }
        check_u32("apiserver.max_requests_in_flight", a.max_requests_in_flight)?;
        check_u32(
            "apiserver.max_mutating_requests_in_flight",
            a.max_mutating_requests_in_flight,
        )?;
        let etcd = a.etcd_writes_per_second;
        if etcd != 0.0 && !(MIN_ETCD_WRITES_PER_SECOND..=1e7).contains(&etcd) {
            let field = "apiserver.etcd_writes_per_second";
            return Err(bounds::out_of_range(field, show_number(etcd)));
        }
        check_duration(
            "apiserver.watch_latency",
            a.watch_latency,
            Duration::from_secs(60),
        )?;
        let prefixed = |e: crate::error::ConfigError| ScenarioError {
            field: format!("apiserver.{}", e.field),
            message: e.message,
        };
        a.latency.validate().map_err(prefixed)?;
        a.watch_cache.validate().map_err(prefixed)
    }

    fn validate_process(&self) -> Result<(), ScenarioError> {
        let p = &self.process;
        check_u32("process.gogc", p.gogc)?;
        if let Some(limit) = p.memory_limit {
            check_size("process.memory_limit", limit)?;
        }
        if let Some(limit) = p.gomemlimit {
            check_size("process.gomemlimit", limit)?;
        }
        check_size("process.baseline", p.baseline)
    }

    /// The informer queue in effect (the file's choice, else the profile's).
    pub fn fifo_kind(&self) -> FifoKind {
        self.controller.fifo.unwrap_or(match self.profile {
            Profile::Seed => FifoKind::DeltaFifo,
            Profile::Modern => FifoKind::AtomicFifo,
        })
    }

    /// The workqueue in effect.
    pub fn queue_kind(&self) -> QueueKind {
        self.controller.queue.unwrap_or(match self.profile {
            Profile::Seed => QueueKind::Classic,
            Profile::Modern => QueueKind::Priority,
        })
    }

    /// The client-side limiter in effect: `None` when off, else `(qps, burst)`
    /// (client-go `rest/config.go`; controller-runtime `pkg/client/config/config.go`).
    pub fn client_rate_limit(&self) -> Option<(f64, u32)> {
        let (qps, burst) = match self.profile {
            Profile::Seed => (20.0, 30),
            Profile::Modern => (-1.0, 0),
        };
        let qps = self.client.qps.unwrap_or(qps);
        let burst = self
            .client
            .burst
            .unwrap_or(if burst == 0 { 10 } else { burst });
        if qps < 0.0 {
            None
        } else if qps == 0.0 {
            Some((5.0, 10))
        } else {
            Some((qps, burst))
        }
    }
}
