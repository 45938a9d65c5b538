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
            title: String::new(),
            group: String::from("seed-000"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        "subresource-only" => Scenario {
            name: String::from("subresource-only"),
            title: String::new(),
            group: String::from("seed-000"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        "predicate-only" => Scenario {
            name: String::from("predicate-only"),
            title: String::new(),
            group: String::from("seed-000"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        "observed-generation-only" => Scenario {
            name: String::from("observed-generation-only"),
            title: String::new(),
            group: String::from("seed-000"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        "subresource+predicate" => Scenario {
            name: String::from("subresource+predicate"),
            title: String::new(),
            group: String::from("seed-000"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        "subresource+observed-generation" => Scenario {
            name: String::from("subresource+observed-generation"),
            title: String::new(),
            group: String::from("seed-000"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        "fixed" => Scenario {
            name: String::from("fixed"),
            title: String::new(),
            group: String::from("seed-000"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        "idempotent-status" => Scenario {
            name: String::from("idempotent-status"),
            title: String::new(),
            group: String::from("seed-000"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        "flywheel-workers" => Scenario {
            name: String::from("flywheel-workers"),
            title: String::new(),
            group: String::from("seed-000"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        "seed-000-incident" => Scenario {
            name: String::from("seed-000-incident"),
            title: String::new(),
            group: String::from("seed-000"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        "list-full-scan" => Scenario {
            name: String::from("list-full-scan"),
            title: String::new(),
            group: String::from("seed-001"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        "list-full-scan-small" => Scenario {
            name: String::from("list-full-scan-small"),
            title: String::new(),
            group: String::from("seed-001"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        "finalizer-deadlock" => Scenario {
            name: String::from("finalizer-deadlock"),
            title: String::new(),
            group: String::from("seed-001"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        "finalizer-unsafe" => Scenario {
            name: String::from("finalizer-unsafe"),
            title: String::new(),
            group: String::from("seed-001"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        "watch-leak" => Scenario {
            name: String::from("watch-leak"),
            title: String::new(),
            group: String::from("seed-004"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        "listener-backlog" => Scenario {
            name: String::from("listener-backlog"),
            title: String::new(),
            group: String::from("seed-004"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        "log-whole-object" => Scenario {
            name: String::from("log-whole-object"),
            title: String::new(),
            group: String::from("seed-004"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        "no-context-timeout" => Scenario {
            name: String::from("no-context-timeout"),
            title: String::new(),
            group: String::from("seed-004"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        "eviction-loop" => Scenario {
            name: String::from("eviction-loop"),
            title: String::new(),
            group: String::from("seed-004"),
            summary: String::new(),
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
            text: PresetText::default(),
        },
        _ => return None,
    };
    Some(scenario)
}
