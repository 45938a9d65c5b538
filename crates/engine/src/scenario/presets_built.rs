//! Every preset built as a value, written from `crates/engine/scenarios/*.toml` by the test
//! `scenario::construct::tests::the_built_presets_are_written_from_the_scenario_files`
//! (`cargo test -p flywheel-engine --lib construct` rewrites this file). Do not edit.

// The imports name every type a preset may hold; the presets of the day use some of them.
#![allow(unused_imports)]

use std::time::Duration;

use super::text::{PresetText, Words};
use super::workload::{FinalizerMode, LogMode, Placement, PodList};
use super::{
    ActionKind, ApiServerConfig, CacheConfig, ClientConfig, CodeConfig, ControllerConfig,
    CrdConfig, FifoKind, FlowControlMode, NodesConfig, ObjectsConfig, PodsConfig, PredicateKind,
    ProcessConfig, Profile, QueueKind, Scenario, ScheduledAction,
};
use crate::apiserver::{LatencyConfig, WatchCacheConfig};
use crate::controller::program::{ListScope, Program, ReturnValue, StatusValue, Step, WriteVerb};

/// The preset `name` as a value, or `None` for a name that is not a preset.
#[inline]
pub fn built(name: &str) -> Option<Scenario> {
    let scenario = match name {
        "flywheel" => Scenario {
            name: String::from("flywheel"),
            title: String::from("The death flywheel"),
            group: String::from("seed-000"),
            summary: String::from("Reconcile writes status with a full Update on a CRD without /status and no predicate: each write bumps resourceVersion and generation, its watch event re-queues the key, and Reconcile writes again, forever."),
            seed: 1,
            duration: Duration::from_nanos(600000000000),
            profile: Profile::Seed,
            crd: CrdConfig::default(),
            objects: ObjectsConfig::default(),
            controller: ControllerConfig::default(),
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::HeavyLogic { duration: Duration::from_nanos(200000000), alloc_bytes: 262144 },
                    Step::SetStatus { field: String::from("phase"), value: StatusValue::Constant(String::from("Running")) },
                    Step::SetStatus { field: String::from("lastUpdated"), value: StatusValue::Now },
                    Step::Write { verb: WriteVerb::Update },
                ],
            },
            client: ClientConfig::default(),
            apiserver: ApiServerConfig::default(),
            process: ProcessConfig::default(),
            actions: vec![
                ScheduledAction {
                    at: Duration::from_nanos(300000000000),
                    action: ActionKind::EditSpec,
                    count: Some(1),
                    every: None,
                    until: None,
                    memory_limit: None,
                    to: None,
                    object: None,
                },
            ],
            code: CodeConfig::default(),
            cache: CacheConfig::default(),
            pods: PodsConfig::default(),
            nodes: NodesConfig::default(),
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("死亡飞轮"),
                    ..Words::default()
                },
            },
        },
        "subresource-only" => Scenario {
            name: String::from("subresource-only"),
            title: String::from("Fix 1 alone: the /status subresource"),
            group: String::from("seed-000"),
            summary: String::from("Status().Update on a CRD with /status: generation no longer moves, but every status write still bumps resourceVersion and, with no predicate, its MODIFIED event re-queues the key: the loop goes on."),
            seed: 1,
            duration: Duration::from_nanos(600000000000),
            profile: Profile::Seed,
            crd: CrdConfig {
                status_subresource: true,
                ..CrdConfig::default()
            },
            objects: ObjectsConfig::default(),
            controller: ControllerConfig::default(),
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::HeavyLogic { duration: Duration::from_nanos(200000000), alloc_bytes: 262144 },
                    Step::SetStatus { field: String::from("phase"), value: StatusValue::Constant(String::from("Running")) },
                    Step::SetStatus { field: String::from("lastUpdated"), value: StatusValue::Now },
                    Step::Write { verb: WriteVerb::StatusUpdate },
                ],
            },
            client: ClientConfig::default(),
            apiserver: ApiServerConfig::default(),
            process: ProcessConfig::default(),
            actions: vec![
                ScheduledAction {
                    at: Duration::from_nanos(300000000000),
                    action: ActionKind::EditSpec,
                    count: Some(1),
                    every: None,
                    until: None,
                    memory_limit: None,
                    to: None,
                    object: None,
                },
            ],
            code: CodeConfig::default(),
            cache: CacheConfig::default(),
            pods: PodsConfig::default(),
            nodes: NodesConfig::default(),
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("只用修复 1：/status 子资源"),
                    ..Words::default()
                },
            },
        },
        "predicate-only" => Scenario {
            name: String::from("predicate-only"),
            title: String::from("Fix 2 alone: GenerationChangedPredicate"),
            group: String::from("seed-000"),
            summary: String::from("GenerationChangedPredicate without /status: a status change through the main endpoint bumps generation too, so the predicate lets every one of the operator's own writes through: the loop goes on."),
            seed: 1,
            duration: Duration::from_nanos(600000000000),
            profile: Profile::Seed,
            crd: CrdConfig::default(),
            objects: ObjectsConfig::default(),
            controller: ControllerConfig {
                predicates: vec![
                    PredicateKind::GenerationChanged,
                ],
                ..ControllerConfig::default()
            },
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::HeavyLogic { duration: Duration::from_nanos(200000000), alloc_bytes: 262144 },
                    Step::SetStatus { field: String::from("phase"), value: StatusValue::Constant(String::from("Running")) },
                    Step::SetStatus { field: String::from("lastUpdated"), value: StatusValue::Now },
                    Step::Write { verb: WriteVerb::Update },
                ],
            },
            client: ClientConfig::default(),
            apiserver: ApiServerConfig::default(),
            process: ProcessConfig::default(),
            actions: vec![
                ScheduledAction {
                    at: Duration::from_nanos(300000000000),
                    action: ActionKind::EditSpec,
                    count: Some(1),
                    every: None,
                    until: None,
                    memory_limit: None,
                    to: None,
                    object: None,
                },
            ],
            code: CodeConfig::default(),
            cache: CacheConfig::default(),
            pods: PodsConfig::default(),
            nodes: NodesConfig::default(),
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("只用修复 2：GenerationChangedPredicate"),
                    ..Words::default()
                },
            },
        },
        "observed-generation-only" => Scenario {
            name: String::from("observed-generation-only"),
            title: String::from("Fix 3 alone: the ObservedGeneration guard"),
            group: String::from("seed-000"),
            summary: String::from("Reconcile returns early when status.observedGeneration == generation, but without /status the write that records observedGeneration bumps generation again, so the guard never holds: the loop goes on."),
            seed: 1,
            duration: Duration::from_nanos(600000000000),
            profile: Profile::Seed,
            crd: CrdConfig::default(),
            objects: ObjectsConfig::default(),
            controller: ControllerConfig::default(),
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::GuardObservedGeneration,
                    Step::HeavyLogic { duration: Duration::from_nanos(200000000), alloc_bytes: 262144 },
                    Step::SetStatus { field: String::from("phase"), value: StatusValue::Constant(String::from("Running")) },
                    Step::SetStatus { field: String::from("lastUpdated"), value: StatusValue::Now },
                    Step::SetStatus { field: String::from("observedGeneration"), value: StatusValue::ObservedGeneration },
                    Step::Write { verb: WriteVerb::Update },
                ],
            },
            client: ClientConfig::default(),
            apiserver: ApiServerConfig::default(),
            process: ProcessConfig::default(),
            actions: vec![
                ScheduledAction {
                    at: Duration::from_nanos(300000000000),
                    action: ActionKind::EditSpec,
                    count: Some(1),
                    every: None,
                    until: None,
                    memory_limit: None,
                    to: None,
                    object: None,
                },
            ],
            code: CodeConfig::default(),
            cache: CacheConfig::default(),
            pods: PodsConfig::default(),
            nodes: NodesConfig::default(),
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("只用修复 3：ObservedGeneration 守卫"),
                    ..Words::default()
                },
            },
        },
        "subresource+predicate" => Scenario {
            name: String::from("subresource+predicate"),
            title: String::from("/status subresource + GenerationChangedPredicate"),
            group: String::from("seed-000"),
            summary: String::from("Status writes go to /status and leave generation alone, and the predicate drops the update events they cause: the loop stops. A spec edit is reconciled once, with one status write."),
            seed: 1,
            duration: Duration::from_nanos(600000000000),
            profile: Profile::Seed,
            crd: CrdConfig {
                status_subresource: true,
                ..CrdConfig::default()
            },
            objects: ObjectsConfig::default(),
            controller: ControllerConfig {
                predicates: vec![
                    PredicateKind::GenerationChanged,
                ],
                ..ControllerConfig::default()
            },
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::HeavyLogic { duration: Duration::from_nanos(200000000), alloc_bytes: 262144 },
                    Step::SetStatus { field: String::from("phase"), value: StatusValue::Constant(String::from("Running")) },
                    Step::SetStatus { field: String::from("lastUpdated"), value: StatusValue::Now },
                    Step::Write { verb: WriteVerb::StatusUpdate },
                ],
            },
            client: ClientConfig::default(),
            apiserver: ApiServerConfig::default(),
            process: ProcessConfig::default(),
            actions: vec![
                ScheduledAction {
                    at: Duration::from_nanos(300000000000),
                    action: ActionKind::EditSpec,
                    count: Some(1),
                    every: None,
                    until: None,
                    memory_limit: None,
                    to: None,
                    object: None,
                },
            ],
            code: CodeConfig::default(),
            cache: CacheConfig::default(),
            pods: PodsConfig::default(),
            nodes: NodesConfig::default(),
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("/status 子资源 + GenerationChangedPredicate"),
                    ..Words::default()
                },
            },
        },
        "subresource+observed-generation" => Scenario {
            name: String::from("subresource+observed-generation"),
            title: String::from("/status subresource + ObservedGeneration guard"),
            group: String::from("seed-000"),
            summary: String::from("With /status, recording observedGeneration does not bump generation, so the reconcile that the status write triggers returns at the guard without writing: the loop stops after one extra, empty reconcile."),
            seed: 1,
            duration: Duration::from_nanos(600000000000),
            profile: Profile::Seed,
            crd: CrdConfig {
                status_subresource: true,
                ..CrdConfig::default()
            },
            objects: ObjectsConfig::default(),
            controller: ControllerConfig::default(),
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::GuardObservedGeneration,
                    Step::HeavyLogic { duration: Duration::from_nanos(200000000), alloc_bytes: 262144 },
                    Step::SetStatus { field: String::from("phase"), value: StatusValue::Constant(String::from("Running")) },
                    Step::SetStatus { field: String::from("lastUpdated"), value: StatusValue::Now },
                    Step::SetStatus { field: String::from("observedGeneration"), value: StatusValue::ObservedGeneration },
                    Step::Write { verb: WriteVerb::StatusUpdate },
                ],
            },
            client: ClientConfig::default(),
            apiserver: ApiServerConfig::default(),
            process: ProcessConfig::default(),
            actions: vec![
                ScheduledAction {
                    at: Duration::from_nanos(300000000000),
                    action: ActionKind::EditSpec,
                    count: Some(1),
                    every: None,
                    until: None,
                    memory_limit: None,
                    to: None,
                    object: None,
                },
            ],
            code: CodeConfig::default(),
            cache: CacheConfig::default(),
            pods: PodsConfig::default(),
            nodes: NodesConfig::default(),
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("/status 子资源 + ObservedGeneration 守卫"),
                    ..Words::default()
                },
            },
        },
        "fixed" => Scenario {
            name: String::from("fixed"),
            title: String::from("All of the seed's fixes"),
            group: String::from("seed-000"),
            summary: String::from("/status subresource, GenerationChangedPredicate, the ObservedGeneration guard and Status().Patch (a merge patch without resourceVersion, so no 409s): one reconcile and one status write per spec change, then silence."),
            seed: 1,
            duration: Duration::from_nanos(600000000000),
            profile: Profile::Seed,
            crd: CrdConfig {
                status_subresource: true,
                ..CrdConfig::default()
            },
            objects: ObjectsConfig::default(),
            controller: ControllerConfig {
                predicates: vec![
                    PredicateKind::GenerationChanged,
                ],
                ..ControllerConfig::default()
            },
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::GuardObservedGeneration,
                    Step::HeavyLogic { duration: Duration::from_nanos(200000000), alloc_bytes: 262144 },
                    Step::SetStatus { field: String::from("phase"), value: StatusValue::Constant(String::from("Running")) },
                    Step::SetStatus { field: String::from("lastUpdated"), value: StatusValue::Now },
                    Step::SetStatus { field: String::from("observedGeneration"), value: StatusValue::ObservedGeneration },
                    Step::Write { verb: WriteVerb::StatusPatch },
                ],
            },
            client: ClientConfig::default(),
            apiserver: ApiServerConfig::default(),
            process: ProcessConfig::default(),
            actions: vec![
                ScheduledAction {
                    at: Duration::from_nanos(300000000000),
                    action: ActionKind::EditSpec,
                    count: Some(1),
                    every: None,
                    until: None,
                    memory_limit: None,
                    to: None,
                    object: None,
                },
            ],
            code: CodeConfig::default(),
            cache: CacheConfig::default(),
            pods: PodsConfig::default(),
            nodes: NodesConfig::default(),
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("种子文章的全部修复"),
                    ..Words::default()
                },
            },
        },
        "idempotent-status" => Scenario {
            name: String::from("idempotent-status"),
            title: String::from("Idempotent status: the no-op rule stops the loop"),
            group: String::from("seed-000"),
            summary: String::from("The same broken Update without /status or predicate, but the status carries no timestamp: the second write is byte-identical to the stored object, the API server skips it (no new resourceVersion, no watch event), and the loop stops by itself."),
            seed: 1,
            duration: Duration::from_nanos(600000000000),
            profile: Profile::Seed,
            crd: CrdConfig::default(),
            objects: ObjectsConfig::default(),
            controller: ControllerConfig::default(),
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::HeavyLogic { duration: Duration::from_nanos(200000000), alloc_bytes: 262144 },
                    Step::SetStatus { field: String::from("phase"), value: StatusValue::Constant(String::from("Running")) },
                    Step::SetStatus { field: String::from("message"), value: StatusValue::Constant(String::from("Reconcile successful")) },
                    Step::Write { verb: WriteVerb::Update },
                ],
            },
            client: ClientConfig::default(),
            apiserver: ApiServerConfig::default(),
            process: ProcessConfig::default(),
            actions: vec![
                ScheduledAction {
                    at: Duration::from_nanos(300000000000),
                    action: ActionKind::EditSpec,
                    count: Some(1),
                    every: None,
                    until: None,
                    memory_limit: None,
                    to: None,
                    object: None,
                },
            ],
            code: CodeConfig::default(),
            cache: CacheConfig::default(),
            pods: PodsConfig::default(),
            nodes: NodesConfig::default(),
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("幂等的 status：无变化写入规则让循环停下"),
                    ..Words::default()
                },
            },
        },
        "flywheel-workers" => Scenario {
            name: String::from("flywheel-workers"),
            title: String::from("The death flywheel with three workers"),
            group: String::from("seed-000"),
            summary: String::from("The broken Reconcile of the flywheel preset, run by three workers over 30 objects: each worker's write re-queues its key, so three times the workers make about three times the writes, and the loop never rests."),
            seed: 1,
            duration: Duration::from_nanos(300000000000),
            profile: Profile::Seed,
            crd: CrdConfig::default(),
            objects: ObjectsConfig {
                count: 30,
                ..ObjectsConfig::default()
            },
            controller: ControllerConfig {
                workers: 3,
                ..ControllerConfig::default()
            },
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::HeavyLogic { duration: Duration::from_nanos(200000000), alloc_bytes: 262144 },
                    Step::SetStatus { field: String::from("phase"), value: StatusValue::Constant(String::from("Running")) },
                    Step::SetStatus { field: String::from("lastUpdated"), value: StatusValue::Now },
                    Step::Write { verb: WriteVerb::Update },
                ],
            },
            client: ClientConfig::default(),
            apiserver: ApiServerConfig::default(),
            process: ProcessConfig::default(),
            actions: Vec::new(),
            code: CodeConfig::default(),
            cache: CacheConfig::default(),
            pods: PodsConfig::default(),
            nodes: NodesConfig::default(),
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("三个 worker 的死亡飞轮"),
                    ..Words::default()
                },
            },
        },
        "seed-000-incident" => Scenario {
            name: String::from("seed-000-incident"),
            title: String::from("The seed-000 incident: 150k objects, 429s, OOMKilled, CrashLoopBackOff"),
            group: String::from("seed-000"),
            summary: String::from("The death flywheel at production scale: thousands of adds per second, a workqueue over 100k deep, APF answering 429, the informer's queue and the heap growing until the kernel kills the operator, and the storm starting over after each restart."),
            seed: 1,
            duration: Duration::from_nanos(600000000000),
            profile: Profile::Seed,
            crd: CrdConfig::default(),
            objects: ObjectsConfig {
                count: 150000,
                namespaces: 50,
                create_at: Duration::from_nanos(0),
                ..ObjectsConfig::default()
            },
            controller: ControllerConfig {
                workers: 200,
                informer_cost_per_kib: Duration::from_nanos(45000),
                ..ControllerConfig::default()
            },
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::HeavyLogic { duration: Duration::from_nanos(20000000), alloc_bytes: 65536 },
                    Step::SetStatus { field: String::from("phase"), value: StatusValue::Constant(String::from("Running")) },
                    Step::SetStatus { field: String::from("lastUpdated"), value: StatusValue::Now },
                    Step::Write { verb: WriteVerb::Update },
                ],
            },
            client: ClientConfig {
                qps: Some(5000.0),
                burst: Some(10000),
            },
            apiserver: ApiServerConfig {
                seats: 60,
                queue_capacity: 30,
                etcd_writes_per_second: 8000.0,
                ..ApiServerConfig::default()
            },
            process: ProcessConfig {
                memory_limit: Some(1782579200),
                ..ProcessConfig::default()
            },
            actions: Vec::new(),
            code: CodeConfig::default(),
            cache: CacheConfig::default(),
            pods: PodsConfig::default(),
            nodes: NodesConfig::default(),
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("seed-000 事故：15 万个对象、429、OOMKilled、CrashLoopBackOff"),
                    ..Words::default()
                },
            },
        },
        "list-full-scan" => Scenario {
            name: String::from("list-full-scan"),
            title: String::from("List every Pod, filter in memory: a 50k-Pod cache, p99 in seconds, OOMKilled"),
            group: String::from("seed-001"),
            summary: String::from("Reconcile calls r.List(ctx, &pods) without a namespace or field selector: the first call starts a cluster-wide Pod informer, the cache holds all 50 000 Pods and every reconcile deep-copies them; reconciles wait seconds for the cache and the 2Gi container is OOMKilled again and again. Fix: a FieldIndexer on the owner plus a namespace-scoped cache."),
            seed: 1,
            duration: Duration::from_nanos(300000000000),
            profile: Profile::Seed,
            crd: CrdConfig {
                kind: String::from("DataJob"),
                status_subresource: true,
            },
            objects: ObjectsConfig {
                count: 500,
                namespaces: 20,
                create_at: Duration::from_nanos(0),
                ..ObjectsConfig::default()
            },
            controller: ControllerConfig {
                predicates: vec![
                    PredicateKind::GenerationChanged,
                ],
                informer_cost_per_kib: Duration::from_nanos(20000),
                ..ControllerConfig::default()
            },
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::ListPods,
                    Step::HeavyLogic { duration: Duration::from_nanos(5000000), alloc_bytes: 65536 },
                    Step::SetStatus { field: String::from("phase"), value: StatusValue::Constant(String::from("Running")) },
                    Step::SetStatus { field: String::from("observedGeneration"), value: StatusValue::ObservedGeneration },
                    Step::Write { verb: WriteVerb::StatusPatch },
                ],
            },
            client: ClientConfig::default(),
            apiserver: ApiServerConfig::default(),
            process: ProcessConfig {
                memory_limit: Some(2147483648),
                ..ProcessConfig::default()
            },
            actions: vec![
                ScheduledAction {
                    at: Duration::from_nanos(20000000000),
                    action: ActionKind::EditSpec,
                    count: Some(50),
                    every: Some(Duration::from_nanos(20000000000)),
                    until: None,
                    memory_limit: None,
                    to: None,
                    object: None,
                },
            ],
            code: CodeConfig::default(),
            cache: CacheConfig::default(),
            pods: PodsConfig {
                count: 50000,
                namespaces: 200,
                per_object: 4,
                ..PodsConfig::default()
            },
            nodes: NodesConfig::default(),
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("List 全部 Pod 再在内存中过滤：5 万 Pod 的缓存、秒级 p99、OOMKilled"),
                    ..Words::default()
                },
            },
        },
        "list-full-scan-small" => Scenario {
            name: String::from("list-full-scan-small"),
            title: String::from("The same full scan with 300 Pods: the index does not matter"),
            group: String::from("seed-001"),
            summary: String::from("The same r.List of every Pod on a cluster with 300 Pods: a few milliseconds and a few MiB per reconcile; a FieldIndexer changes nothing you would notice. The anti-pattern costs what the cluster is big, not what the operator is."),
            seed: 1,
            duration: Duration::from_nanos(300000000000),
            profile: Profile::Seed,
            crd: CrdConfig {
                kind: String::from("DataJob"),
                status_subresource: true,
            },
            objects: ObjectsConfig {
                count: 60,
                namespaces: 20,
                create_at: Duration::from_nanos(0),
                ..ObjectsConfig::default()
            },
            controller: ControllerConfig {
                predicates: vec![
                    PredicateKind::GenerationChanged,
                ],
                informer_cost_per_kib: Duration::from_nanos(20000),
                ..ControllerConfig::default()
            },
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::ListPods,
                    Step::HeavyLogic { duration: Duration::from_nanos(5000000), alloc_bytes: 65536 },
                    Step::SetStatus { field: String::from("phase"), value: StatusValue::Constant(String::from("Running")) },
                    Step::SetStatus { field: String::from("observedGeneration"), value: StatusValue::ObservedGeneration },
                    Step::Write { verb: WriteVerb::StatusPatch },
                ],
            },
            client: ClientConfig::default(),
            apiserver: ApiServerConfig::default(),
            process: ProcessConfig {
                memory_limit: Some(2147483648),
                ..ProcessConfig::default()
            },
            actions: vec![
                ScheduledAction {
                    at: Duration::from_nanos(20000000000),
                    action: ActionKind::EditSpec,
                    count: Some(10),
                    every: Some(Duration::from_nanos(20000000000)),
                    until: None,
                    memory_limit: None,
                    to: None,
                    object: None,
                },
            ],
            code: CodeConfig::default(),
            cache: CacheConfig::default(),
            pods: PodsConfig {
                count: 300,
                namespaces: 30,
                per_object: 4,
                ..PodsConfig::default()
            },
            nodes: NodesConfig::default(),
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("同样的全量扫描，只有 300 个 Pod：索引无关紧要"),
                    ..Words::default()
                },
            },
        },
        "finalizer-deadlock" => Scenario {
            name: String::from("finalizer-deadlock"),
            title: String::from("Finalizers while the operator crash-loops: DataJobs and namespaces stuck in Terminating"),
            group: String::from("seed-001"),
            summary: String::from("DataJobs with a finalizer and their namespaces are deleted while the operator is OOMKilled over and over: they stay Terminating with a deletionTimestamp. Once the operator stays up, the safe finalizer state machine (cleanup first, retry on failure and on 409) drains them without leaking anything."),
            seed: 1,
            duration: Duration::from_nanos(900000000000),
            profile: Profile::Seed,
            crd: CrdConfig {
                kind: String::from("DataJob"),
                status_subresource: true,
            },
            objects: ObjectsConfig {
                count: 500,
                namespaces: 20,
                create_at: Duration::from_nanos(0),
                finalizers: vec![
                    String::from("batch.example.com/finalizer"),
                ],
                ..ObjectsConfig::default()
            },
            controller: ControllerConfig {
                predicates: vec![
                    PredicateKind::GenerationChanged,
                ],
                informer_cost_per_kib: Duration::from_nanos(20000),
                ..ControllerConfig::default()
            },
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::Finalize { name: String::from("batch.example.com/finalizer"), cleanup: Duration::from_nanos(200000000), failure_probability: 0.2 },
                    Step::ListPods,
                    Step::HeavyLogic { duration: Duration::from_nanos(5000000), alloc_bytes: 65536 },
                    Step::SetStatus { field: String::from("phase"), value: StatusValue::Constant(String::from("Running")) },
                    Step::SetStatus { field: String::from("observedGeneration"), value: StatusValue::ObservedGeneration },
                    Step::Write { verb: WriteVerb::StatusPatch },
                ],
            },
            client: ClientConfig::default(),
            apiserver: ApiServerConfig::default(),
            process: ProcessConfig {
                memory_limit: Some(2147483648),
                ..ProcessConfig::default()
            },
            actions: vec![
                ScheduledAction {
                    at: Duration::from_nanos(60000000000),
                    action: ActionKind::DeleteNamespaces,
                    count: Some(10),
                    every: None,
                    until: None,
                    memory_limit: None,
                    to: None,
                    object: None,
                },
                ScheduledAction {
                    at: Duration::from_nanos(300000000000),
                    action: ActionKind::SetMemoryLimit,
                    count: None,
                    every: None,
                    until: None,
                    memory_limit: Some(8589934592),
                    to: None,
                    object: None,
                },
            ],
            code: CodeConfig::default(),
            cache: CacheConfig::default(),
            pods: PodsConfig {
                count: 50000,
                namespaces: 200,
                per_object: 4,
                ..PodsConfig::default()
            },
            nodes: NodesConfig::default(),
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("operator 崩溃循环时的 finalizer：DataJob 和命名空间卡在 Terminating"),
                    ..Words::default()
                },
            },
        },
        "finalizer-unsafe" => Scenario {
            name: String::from("finalizer-unsafe"),
            title: String::from("Finalizer removed on failed cleanup: objects vanish, external resources leak"),
            group: String::from("seed-001"),
            summary: String::from("Reconcile removes its finalizer even when the external cleanup failed: the 200 deleted DataJobs disappear on time, and about a third of what they held outside the cluster leaks. Fix: keep the finalizer and return the error until the cleanup succeeds."),
            seed: 1,
            duration: Duration::from_nanos(120000000000),
            profile: Profile::Seed,
            crd: CrdConfig {
                kind: String::from("DataJob"),
                status_subresource: true,
            },
            objects: ObjectsConfig {
                count: 200,
                namespaces: 4,
                create_at: Duration::from_nanos(0),
                finalizers: vec![
                    String::from("batch.example.com/finalizer"),
                ],
                ..ObjectsConfig::default()
            },
            controller: ControllerConfig {
                predicates: vec![
                    PredicateKind::GenerationChanged,
                ],
                ..ControllerConfig::default()
            },
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::Finalize { name: String::from("batch.example.com/finalizer"), cleanup: Duration::from_nanos(300000000), failure_probability: 0.3 },
                    Step::SetStatus { field: String::from("phase"), value: StatusValue::Constant(String::from("Ready")) },
                    Step::Write { verb: WriteVerb::StatusPatch },
                ],
            },
            client: ClientConfig::default(),
            apiserver: ApiServerConfig::default(),
            process: ProcessConfig::default(),
            actions: vec![
                ScheduledAction {
                    at: Duration::from_nanos(30000000000),
                    action: ActionKind::Delete,
                    count: None,
                    every: None,
                    until: None,
                    memory_limit: None,
                    to: None,
                    object: None,
                },
            ],
            code: CodeConfig {
                finalizer: FinalizerMode::RemoveOnFailure,
                ..CodeConfig::default()
            },
            cache: CacheConfig::default(),
            pods: PodsConfig::default(),
            nodes: NodesConfig::default(),
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("清理失败仍移除 finalizer：对象消失，外部资源泄漏"),
                    ..Words::default()
                },
            },
        },
        "watch-leak" => Scenario {
            name: String::from("watch-leak"),
            title: String::from("A watch per reconcile, never stopped: goroutines and stream buffers until OOM"),
            group: String::from("seed-004"),
            summary: String::from("Each reconcile opens a watch and never stops it: two goroutines and a stream buffer stay behind per reconcile, the API server keeps filling the unread streams, and go_goroutines and the heap climb until the container is OOMKilled. Fix: defer w.Stop(), or use the shared informer."),
            seed: 1,
            duration: Duration::from_nanos(300000000000),
            profile: Profile::Seed,
            crd: CrdConfig {
                status_subresource: true,
                ..CrdConfig::default()
            },
            objects: ObjectsConfig {
                count: 300,
                namespaces: 3,
                create_at: Duration::from_nanos(0),
                ..ObjectsConfig::default()
            },
            controller: ControllerConfig {
                workers: 2,
                predicates: vec![
                    PredicateKind::GenerationChanged,
                ],
                ..ControllerConfig::default()
            },
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::OpenWatch,
                    Step::HeavyLogic { duration: Duration::from_nanos(10000000), alloc_bytes: 32768 },
                    Step::SetStatus { field: String::from("syncs"), value: StatusValue::Counter },
                    Step::Write { verb: WriteVerb::StatusPatch },
                    Step::Return { value: ReturnValue::RequeueAfter { after: Duration::from_nanos(30000000000) } },
                ],
            },
            client: ClientConfig::default(),
            apiserver: ApiServerConfig::default(),
            process: ProcessConfig {
                memory_limit: Some(1073741824),
                ..ProcessConfig::default()
            },
            actions: Vec::new(),
            code: CodeConfig::default(),
            cache: CacheConfig::default(),
            pods: PodsConfig::default(),
            nodes: NodesConfig::default(),
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("每次 Reconcile 开一个 watch 且从不停止：goroutine 和流缓冲直到 OOM"),
                    ..Words::default()
                },
            },
        },
        "listener-backlog" => Scenario {
            name: String::from("listener-backlog"),
            title: String::from("A handler slower than the event rate: the listener's buffer grows until OOM"),
            group: String::from("seed-004"),
            summary: String::from("1 000 update events a second reach an event handler that needs 2 ms each: the informer keeps up, but the listener's unbounded notification buffer grows by 500 objects a second until the operator is OOMKilled. Fix: handlers only enqueue; the work happens in Reconcile."),
            seed: 1,
            duration: Duration::from_nanos(300000000000),
            profile: Profile::Seed,
            crd: CrdConfig {
                status_subresource: true,
                ..CrdConfig::default()
            },
            objects: ObjectsConfig {
                count: 2000,
                namespaces: 10,
                size_bytes: 16384,
                create_at: Duration::from_nanos(0),
                ..ObjectsConfig::default()
            },
            controller: ControllerConfig {
                workers: 4,
                predicates: vec![
                    PredicateKind::GenerationChanged,
                ],
                handler_cost: Duration::from_nanos(2000000),
                ..ControllerConfig::default()
            },
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::SetStatus { field: String::from("phase"), value: StatusValue::Constant(String::from("Ready")) },
                    Step::Write { verb: WriteVerb::StatusPatch },
                ],
            },
            client: ClientConfig::default(),
            apiserver: ApiServerConfig::default(),
            process: ProcessConfig {
                memory_limit: Some(1073741824),
                ..ProcessConfig::default()
            },
            actions: vec![
                ScheduledAction {
                    at: Duration::from_nanos(10000000000),
                    action: ActionKind::Annotate,
                    count: Some(100),
                    every: Some(Duration::from_nanos(100000000)),
                    until: None,
                    memory_limit: None,
                    to: None,
                    object: None,
                },
            ],
            code: CodeConfig::default(),
            cache: CacheConfig::default(),
            pods: PodsConfig::default(),
            nodes: NodesConfig::default(),
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("handler 慢于事件速率：listener 缓冲区一直增长直到 OOM"),
                    ..Words::default()
                },
            },
        },
        "log-whole-object" => Scenario {
            name: String::from("log-whole-object"),
            title: String::from("Logging whole objects with 100+ conditions: MBs per reconcile, GC CPU up"),
            group: String::from("seed-004"),
            summary: String::from("Reconcile logs the whole object, 256 KiB with 120 conditions, at each of its 16 phases: 16 MiB of garbage per reconcile, hundreds of GC cycles and a GC CPU share that slows every reconcile. Fix: log counts, not objects."),
            seed: 1,
            duration: Duration::from_nanos(180000000000),
            profile: Profile::Seed,
            crd: CrdConfig {
                status_subresource: true,
                ..CrdConfig::default()
            },
            objects: ObjectsConfig {
                count: 1000,
                namespaces: 10,
                size_bytes: 262144,
                create_at: Duration::from_nanos(0),
                ..ObjectsConfig::default()
            },
            controller: ControllerConfig {
                workers: 4,
                predicates: vec![
                    PredicateKind::GenerationChanged,
                ],
                ..ControllerConfig::default()
            },
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::LogObject { times: 16 },
                    Step::HeavyLogic { duration: Duration::from_nanos(10000000), alloc_bytes: 65536 },
                    Step::SetStatus { field: String::from("phase"), value: StatusValue::Constant(String::from("Ready")) },
                    Step::Write { verb: WriteVerb::StatusPatch },
                    Step::Return { value: ReturnValue::RequeueAfter { after: Duration::from_nanos(60000000000) } },
                ],
            },
            client: ClientConfig::default(),
            apiserver: ApiServerConfig::default(),
            process: ProcessConfig {
                memory_limit: Some(2147483648),
                ..ProcessConfig::default()
            },
            actions: Vec::new(),
            code: CodeConfig::default(),
            cache: CacheConfig::default(),
            pods: PodsConfig::default(),
            nodes: NodesConfig::default(),
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("记录带 100+ 条件的整个对象：每次 Reconcile 数 MB，GC CPU 上升"),
                    ..Words::default()
                },
            },
        },
        "no-context-timeout" => Scenario {
            name: String::from("no-context-timeout"),
            title: String::from("External calls without a deadline: workers hang, the queue fills"),
            group: String::from("seed-004"),
            summary: String::from("Reconcile calls a backend with no deadline; one call in a hundred never returns. Worker after worker hangs, reconciles stop and every key waits in the workqueue. Fix: context.WithTimeout and RequeueAfter."),
            seed: 1,
            duration: Duration::from_nanos(300000000000),
            profile: Profile::Seed,
            crd: CrdConfig {
                status_subresource: true,
                ..CrdConfig::default()
            },
            objects: ObjectsConfig {
                count: 200,
                namespaces: 4,
                create_at: Duration::from_nanos(0),
                ..ObjectsConfig::default()
            },
            controller: ControllerConfig {
                workers: 10,
                predicates: vec![
                    PredicateKind::GenerationChanged,
                ],
                ..ControllerConfig::default()
            },
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::ExternalCall { duration: Duration::from_nanos(100000000), hang_probability: 0.01, hang_for: Duration::from_nanos(3600000000000) },
                    Step::SetStatus { field: String::from("syncs"), value: StatusValue::Counter },
                    Step::Write { verb: WriteVerb::StatusPatch },
                    Step::Return { value: ReturnValue::RequeueAfter { after: Duration::from_nanos(30000000000) } },
                ],
            },
            client: ClientConfig::default(),
            apiserver: ApiServerConfig::default(),
            process: ProcessConfig::default(),
            actions: Vec::new(),
            code: CodeConfig::default(),
            cache: CacheConfig::default(),
            pods: PodsConfig::default(),
            nodes: NodesConfig::default(),
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("外部调用没有超时：worker 挂起，队列堆满"),
                    ..Words::default()
                },
            },
        },
        "eviction-loop" => Scenario {
            name: String::from("eviction-loop"),
            title: String::from("Evict, recreate at once, evict again: the node-pressure loop"),
            group: String::from("seed-004"),
            summary: String::from("Pods that use four times their memory request push a Node under memory.available<100Mi; the kubelet evicts one every pass, the operator recreates it at once with spec.nodeName on the same Node (bypassing the scheduler's memory-pressure taint; the kubelet admits Burstable Pods), and the pressure returns. Contrast: code.placement=scheduler keeps it Pending. Fix: check the Node's MemoryPressure condition before recreating."),
            seed: 1,
            duration: Duration::from_nanos(600000000000),
            profile: Profile::Seed,
            crd: CrdConfig {
                kind: String::from("Worker"),
                status_subresource: true,
            },
            objects: ObjectsConfig {
                count: 4,
                create_at: Duration::from_nanos(0),
                ..ObjectsConfig::default()
            },
            controller: ControllerConfig {
                predicates: vec![
                    PredicateKind::GenerationChanged,
                ],
                ..ControllerConfig::default()
            },
            reconcile: Program {
                steps: vec![
                    Step::Get,
                    Step::EnsurePods,
                ],
            },
            client: ClientConfig::default(),
            apiserver: ApiServerConfig::default(),
            process: ProcessConfig::default(),
            actions: Vec::new(),
            code: CodeConfig {
                placement: Placement::NodeName,
                ..CodeConfig::default()
            },
            cache: CacheConfig::default(),
            pods: PodsConfig {
                count: 4,
                per_object: 1,
                memory_usage: 1073741824,
                warmup: Duration::from_nanos(30000000000),
                ..PodsConfig::default()
            },
            nodes: NodesConfig {
                count: 1,
                other_usage: 12884901888,
                ..NodesConfig::default()
            },
            text: PresetText {
                en: Words::default(),
                zh_cn: Words {
                    title: String::from("驱逐、立即重建、再被驱逐：节点内存压力循环"),
                    ..Words::default()
                },
            },
        },
        _ => return None,
    };
    Some(scenario)
}
