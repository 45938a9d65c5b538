//! The table of every setting. Ranges are what the scenario's validation accepts (its bounds are
//! in `scenario::bounds` and `Scenario::validate`; a test checks that both agree at the ends and
//! that every preset's value lies inside).

use super::kind::{Choice, Kind, Number, Scale, Unit};
use super::{Setting, SettingWords, Words};

const KI: f64 = 1024.0;
const MI: f64 = 1024.0 * KI;
const GI: f64 = 1024.0 * MI;
const HOUR_MS: f64 = 3_600_000.0;

const fn w(en: &'static str, zh: &'static str) -> Words {
    Words { en, zh }
}

const fn c(name: &'static str, en: &'static str, zh: &'static str) -> Choice {
    Choice { name, en, zh }
}

const fn num(unit: Unit, min: f64, max: f64, step: f64, scale: Scale) -> Kind {
    Kind::Number(Number {
        unit,
        min,
        max,
        step,
        scale,
    })
}

const fn count(min: f64, max: f64, scale: Scale) -> Kind {
    num(Unit::Plain, min, max, 1.0, scale)
}

const fn duration_ms(min: f64, max: f64, step: f64, scale: Scale) -> Kind {
    num(Unit::Duration, min, max, step, scale)
}

const fn bytes(min: f64, max: f64) -> Kind {
    num(Unit::Bytes, min, max, KI, Scale::Log)
}

const fn millis(max: f64) -> Kind {
    num(Unit::Millis, 0.0, max, 0.5, Scale::Linear)
}

/// Declares the settings once, each as `s(path, kind, default, label, help)`: their table
/// ([`SETTINGS`]) and, apart, their words ([`WORDS`]), so a build that never reads the words
/// (the page, which fetches them with its labels) does not carry them.
macro_rules! settings {
    ($(s($path:literal, $kind:expr, $default:literal, $label:expr, $help:expr $(,)?)),* $(,)?) => {
        /// Every setting, grouped by section in the order of a scenario file.
        pub static SETTINGS: &[Setting] = &[$(
            Setting {
                path: $path,
                kind: $kind,
                default: $default,
            }
        ),*];

        /// Every setting's label and help, in the order of [`SETTINGS`].
        pub static WORDS: &[SettingWords] = &[$(
            SettingWords {
                label: $label,
                help: $help,
            }
        ),*];
    };
}

const PROFILES: &[Choice] = &[
    c(
        "seed",
        "Kubernetes 1.27, controller-runtime v0.15",
        "Kubernetes 1.27，controller-runtime v0.15",
    ),
    c(
        "modern",
        "Kubernetes 1.36, controller-runtime v0.24",
        "Kubernetes 1.36，controller-runtime v0.24",
    ),
];

const FIFOS: &[Choice] = &[
    c(
        "delta_fifo",
        "DeltaFIFO (client-go ≤ v0.32)",
        "DeltaFIFO（client-go ≤ v0.32）",
    ),
    c(
        "real_fifo",
        "RealFIFO (client-go v0.33–v0.35)",
        "RealFIFO（client-go v0.33–v0.35）",
    ),
    c(
        "atomic_fifo",
        "atomic RealFIFO (client-go ≥ v0.36)",
        "原子 RealFIFO（client-go ≥ v0.36）",
    ),
];

const QUEUES: &[Choice] = &[
    c("classic", "rate-limiting workqueue", "限速工作队列"),
    c(
        "priority",
        "priority queue (controller-runtime ≥ v0.23)",
        "优先级队列（controller-runtime ≥ v0.23）",
    ),
];

const PREDICATES: &[Choice] = &[
    c(
        "generation_changed",
        "GenerationChangedPredicate",
        "GenerationChangedPredicate",
    ),
    c(
        "resource_version_changed",
        "ResourceVersionChangedPredicate",
        "ResourceVersionChangedPredicate",
    ),
    c(
        "annotation_changed",
        "AnnotationChangedPredicate",
        "AnnotationChangedPredicate",
    ),
    c(
        "label_changed",
        "LabelChangedPredicate",
        "LabelChangedPredicate",
    ),
];

const FLOW_CONTROL: &[Choice] = &[
    c("apf", "API Priority and Fairness", "API 优先级与公平性"),
    c(
        "max_in_flight",
        "max-in-flight filter",
        "max-in-flight 过滤器",
    ),
];

const POD_LISTS: &[Choice] = &[
    c("all_namespaces", "every cached Pod", "缓存中的全部 Pod"),
    c("namespace", "the object's namespace", "对象所在的命名空间"),
    c(
        "field_index",
        "a field index on the owner",
        "按属主的字段索引",
    ),
];

const LOG_MODES: &[Choice] = &[
    c("whole_object", "the whole object", "整个对象"),
    c("counts", "a count of conditions", "条件的数量"),
];

const FINALIZERS: &[Choice] = &[
    c("safe", "keep it until cleanup succeeds", "清理成功后才移除"),
    c(
        "remove_on_failure",
        "remove it even when cleanup fails",
        "清理失败也移除",
    ),
];

const PLACEMENTS: &[Choice] = &[
    c(
        "scheduler",
        "kube-scheduler places the Pod",
        "由 kube-scheduler 调度",
    ),
    c(
        "node_name",
        "spec.nodeName set by the operator",
        "operator 直接设置 spec.nodeName",
    ),
];

settings! {
    s("seed", count(0.0, 18_446_744_073_709_551_615.0, Scale::Linear), "1",
        w("Seed", "随机种子"),
        w("The seed of the run's one random source: the same seed gives the same run.", "运行唯一随机源的种子：相同种子得到相同的运行。")),
    s("duration", duration_ms(1.0, 168.0 * HOUR_MS, 1000.0, Scale::Log), "10m",
        w("Duration", "时长"),
        w("How long the run lasts in simulated time.", "运行持续的模拟时间。")),
    s("profile", Kind::Choice(PROFILES), "seed",
        w("Version profile", "版本配置"),
        w("Whose defaults the operator and the API server follow.", "operator 与 API server 采用哪一组版本的默认值。")),
    s("crd.status_subresource", Kind::Bool, "false",
        w("/status subresource", "/status 子资源"),
        w("Whether the CRD has the /status subresource, so status writes leave generation alone.", "CRD 是否启用 /status 子资源，使 status 写入不改变 generation。")),
    s("objects.count", count(0.0, 200_000.0, Scale::Log), "10",
        w("Objects", "对象数"),
        w("Custom resources created at the start.", "开始时创建的自定义资源数量。")),
    s("objects.namespaces", count(1.0, 10_000.0, Scale::Log), "1",
        w("Namespaces", "命名空间数"),
        w("Namespaces the custom resources are spread over.", "自定义资源分布的命名空间数量。")),
    s("objects.size_bytes", bytes(256.0, 16.0 * MI), "4Ki",
        w("Object size", "对象大小"),
        w("Serialized size of each custom resource.", "每个自定义资源序列化后的大小。")),
    s("objects.create_at", duration_ms(0.0, 168.0 * HOUR_MS, 1000.0, Scale::Linear), "1s",
        w("Created at", "创建时间"),
        w("When the custom resources are created, all at once.", "自定义资源被一次性创建的时间。")),
    s("controller.workers", count(1.0, 1000.0, Scale::Log), "1",
        w("Workers", "工作协程数"),
        w("MaxConcurrentReconciles: how many Reconciles run at once.", "MaxConcurrentReconciles：同时运行的 Reconcile 数。")),
    s("controller.predicates", Kind::ChoiceList(PREDICATES), "[]",
        w("Predicates", "谓词"),
        w("Predicates on the For watch; an event they drop never reaches the workqueue.", "主资源监听（builder.For）上的谓词；被丢弃的事件不会进入工作队列。")),
    s("controller.fifo", Kind::Choice(FIFOS), "",
        w("Informer queue", "informer 队列"),
        w("The informer's queue; left out, the profile's.", "informer 的队列；不设置时取版本配置的。")),
    s("controller.queue", Kind::Choice(QUEUES), "",
        w("Workqueue", "工作队列"),
        w("The controller's workqueue; left out, the profile's.", "控制器的工作队列；不设置时取版本配置的。")),
    s("controller.informer_cost_per_kib", duration_ms(0.0, 1000.0, 0.001, Scale::Linear), "5us",
        w("Informer cost per KiB", "informer 每 KiB 开销"),
        w("CPU time the informer spends on one delta, per KiB of object.", "informer 处理一个 delta 的 CPU 时间，按对象每 KiB 计。")),
    s("controller.handler_cost", duration_ms(0.0, 1000.0, 0.01, Scale::Linear), "2us",
        w("Handler cost", "事件处理器开销"),
        w("CPU time an event handler spends on one notification.", "事件处理器处理一次通知的 CPU 时间。")),
    s("controller.cache_read_cost_per_kib", duration_ms(0.0, 1000.0, 0.001, Scale::Linear), "2us",
        w("Cache read cost per KiB", "缓存读取每 KiB 开销"),
        w("CPU time of one cache read (the deep copy), per KiB of object.", "一次缓存读取（深拷贝）的 CPU 时间，按对象每 KiB 计。")),
    s("controller.cache_sync_timeout", duration_ms(1000.0, HOUR_MS, 1000.0, Scale::Log), "2m",
        w("Cache sync timeout", "缓存同步超时"),
        w("CacheSyncTimeout: how long the workers wait for the caches before the manager gives up.", "CacheSyncTimeout：worker 等待缓存同步的最长时间，超时则 manager 退出。")),
    s("client.qps", num(Unit::PerSecond, -1.0, 1_000_000.0, 1.0, Scale::Linear), "",
        w("Client QPS", "客户端 QPS"),
        w("Client-side rate limit; left out, the profile's (20 or off); 0 is client-go's 5; negative is off.", "客户端限速；不设置时取版本配置的（20 或关闭）；0 为 client-go 默认的 5；负数为关闭。")),
    s("client.burst", count(1.0, 10_000_000.0, Scale::Log), "",
        w("Client burst", "客户端突发"),
        w("Client-side burst; left out, the profile's (30).", "客户端突发量；不设置时取版本配置的（30）。")),
    s("apiserver.flow_control", Kind::Choice(FLOW_CONTROL), "apf",
        w("Flow control", "流量控制"),
        w("How the API server limits concurrency.", "API server 如何限制并发。")),
    s("apiserver.seats", count(1.0, 100_000.0, Scale::Log), "245",
        w("APF seats", "APF 席位"),
        w("Seats of the operator's priority level (workload-low: 245).", "operator 所在优先级的席位数（workload-low：245）。")),
    s("apiserver.queue_capacity", count(0.0, 1_000_000.0, Scale::Log), "300",
        w("APF queue", "APF 队列"),
        w("Requests the level's queues hold before it answers 429.", "该优先级的队列在返回 429 之前能容纳的请求数。")),
    s("apiserver.queue_wait", duration_ms(1.0, 60_000.0, 1000.0, Scale::Log), "15s",
        w("APF queue wait", "APF 排队等待"),
        w("How long a request may wait in an APF queue.", "请求在 APF 队列中最长的等待时间。")),
    s("apiserver.max_requests_in_flight", count(1.0, 100_000.0, Scale::Log), "400",
        w("Max requests in flight", "最大并发请求"),
        w("--max-requests-inflight (max-in-flight mode).", "--max-requests-inflight（max-in-flight 模式）。")),
    s("apiserver.max_mutating_requests_in_flight", count(1.0, 100_000.0, Scale::Log), "200",
        w("Max mutating requests in flight", "最大并发写请求"),
        w("--max-mutating-requests-inflight (max-in-flight mode).", "--max-mutating-requests-inflight（max-in-flight 模式）。")),
    s("apiserver.etcd_writes_per_second", num(Unit::PerSecond, 0.0, 10_000_000.0, 10.0, Scale::Linear), "0",
        w("etcd writes/s", "etcd 写入/秒"),
        w("Writes etcd commits per second; 0 is unlimited.", "etcd 每秒提交的写入数；0 为不限。")),
    s("apiserver.watch_latency", duration_ms(0.0, 60_000.0, 1.0, Scale::Linear), "5ms",
        w("Watch latency", "Watch 延迟"),
        w("Delay from a write to its watch event reaching a watcher.", "从写入到其 watch 事件到达监听者的延迟。")),
    s("apiserver.latency.get_ms", millis(HOUR_MS), "2",
        w("GET latency (ms)", "GET 延迟（毫秒）"),
        w("Base latency of a GET.", "GET 的基础延迟。")),
    s("apiserver.latency.list_ms", millis(HOUR_MS), "5",
        w("LIST latency (ms)", "LIST 延迟（毫秒）"),
        w("Base latency of a LIST.", "LIST 的基础延迟。")),
    s("apiserver.latency.watch_ms", millis(HOUR_MS), "3",
        w("WATCH latency (ms)", "WATCH 延迟（毫秒）"),
        w("Base latency of opening a watch.", "建立 watch 的基础延迟。")),
    s("apiserver.latency.create_ms", millis(HOUR_MS), "8",
        w("CREATE latency (ms)", "CREATE 延迟（毫秒）"),
        w("Base latency of a create.", "CREATE 请求的基础延迟。")),
    s("apiserver.latency.update_ms", millis(HOUR_MS), "8",
        w("UPDATE latency (ms)", "UPDATE 延迟（毫秒）"),
        w("Base latency of an update.", "UPDATE 请求的基础延迟。")),
    s("apiserver.latency.patch_ms", millis(HOUR_MS), "9",
        w("PATCH latency (ms)", "PATCH 延迟（毫秒）"),
        w("Base latency of a patch.", "PATCH 请求的基础延迟。")),
    s("apiserver.latency.delete_ms", millis(HOUR_MS), "8",
        w("DELETE latency (ms)", "DELETE 延迟（毫秒）"),
        w("Base latency of a delete.", "DELETE 请求的基础延迟。")),
    s("apiserver.latency.per_kib_ms", millis(HOUR_MS), "0.02",
        w("Latency per KiB (ms)", "每 KiB 延迟（毫秒）"),
        w("Latency added per KiB of object sent or received.", "每收发 1 KiB 对象增加的延迟。")),
    s("apiserver.latency.per_list_item_ms", millis(HOUR_MS), "0.01",
        w("Latency per listed item (ms)", "每个列出项延迟（毫秒）"),
        w("Latency added per item of a LIST.", "LIST 每多一项增加的延迟。")),
    s("apiserver.latency.jitter_fraction", num(Unit::Fraction, 0.0, 0.99, 0.01, Scale::Linear), "0.2",
        w("Latency jitter", "延迟抖动"),
        w("Random spread of every latency, as a fraction of it.", "每个延迟的随机浮动，占其比例。")),
    s("apiserver.watch_cache.lower_capacity", count(1.0, 10_000_000.0, Scale::Log), "100",
        w("Watch cache lower capacity", "Watch 缓存容量下限"),
        w("Events the watch cache keeps at least.", "watch 缓存至少保留的事件数。")),
    s("apiserver.watch_cache.upper_capacity", count(1.0, 10_000_000.0, Scale::Log), "102400",
        w("Watch cache upper capacity", "Watch 缓存容量上限"),
        w("Events the watch cache keeps at most; older ones answer 410 Gone.", "watch 缓存最多保留的事件数；请求更早的事件时返回 410（已过期）。")),
    s("apiserver.watch_cache.event_fresh_duration_s", num(Unit::Seconds, 0.001, 1e9, 1.0, Scale::Log), "75",
        w("Watch cache fresh duration (s)", "Watch 缓存保鲜时长（秒）"),
        w("How long an event counts as fresh when the cache resizes.", "缓存调整容量时，事件被视为新鲜的时长。")),
    s("process.memory_limit", bytes(16.0 * MI, 1024.0 * GI), "",
        w("Memory limit", "内存上限"),
        w("The container's memory limit; left out, none.", "容器的内存上限；不设置则无上限。")),
    s("process.gogc", num(Unit::Percent, 0.0, 10_000.0, 10.0, Scale::Linear), "100",
        w("GOGC", "GOGC"),
        w("Heap growth before a GC, in percent; 0 turns the GC off.", "触发 GC 前的堆增长百分比；0 关闭 GC。")),
    s("process.gomemlimit", bytes(MI, 1024.0 * GI), "",
        w("GOMEMLIMIT", "GOMEMLIMIT"),
        w("The Go runtime's soft memory limit; left out, none.", "Go 运行时的软内存上限；不设置则无。")),
    s("process.baseline", bytes(0.0, 4.0 * GI), "24Mi",
        w("Baseline memory", "基础内存"),
        w("Memory of the process before any object is cached.", "缓存任何对象之前进程占用的内存。")),
    s("code.pod_list", Kind::Choice(POD_LISTS), "all_namespaces",
        w("List Pods by", "列出 Pod 的方式"),
        w("How Reconcile lists the Pods it owns (seed 001's fix: field_index).", "Reconcile 如何列出它拥有的 Pod（seed 001 的修复：field_index）。")),
    s("code.stop_watch", Kind::Bool, "false",
        w("Stop the watch", "停止 watch"),
        w("Whether Reconcile stops the watch it opened (defer w.Stop()).", "Reconcile 是否停止它打开的 watch（defer w.Stop()）。")),
    s("code.log", Kind::Choice(LOG_MODES), "whole_object",
        w("Log", "日志"),
        w("What Reconcile logs: the whole object or a count.", "Reconcile 记录什么：整个对象还是数量。")),
    s("code.external_timeout", duration_ms(0.0, HOUR_MS, 1000.0, Scale::Linear), "0",
        w("External call timeout", "外部调用超时"),
        w("The deadline of the external call (context.WithTimeout); 0 is none.", "外部调用的截止时间（context.WithTimeout）；0 为无。")),
    s("code.timeout_requeue_after", duration_ms(0.0, HOUR_MS, 1000.0, Scale::Linear), "30s",
        w("Requeue after a timeout", "超时后重新入队"),
        w("RequeueAfter returned when the call ran into its deadline.", "调用超时后返回的 RequeueAfter。")),
    s("code.finalizer", Kind::Choice(FINALIZERS), "safe",
        w("Finalizer", "终结器"),
        w("What the finalizer does when the cleanup fails.", "清理失败时终结器（finalizer）的做法。")),
    s("code.check_memory_pressure", Kind::Bool, "false",
        w("Check memory pressure", "检查内存压力"),
        w("Whether Reconcile checks the Node's MemoryPressure before recreating a Pod.", "Reconcile 重建 Pod 前是否检查节点的 MemoryPressure。")),
    s("code.pressure_requeue_after", duration_ms(0.0, HOUR_MS, 1000.0, Scale::Linear), "30s",
        w("Requeue under pressure", "压力下重新入队"),
        w("RequeueAfter returned while the Node is under memory pressure.", "节点有内存压力时返回的 RequeueAfter。")),
    s("code.placement", Kind::Choice(PLACEMENTS), "scheduler",
        w("Pod placement", "Pod 放置"),
        w("How the operator places the Pods it creates.", "operator 如何放置它创建的 Pod。")),
    s("cache.namespaced", Kind::Bool, "false",
        w("Namespaced cache", "按命名空间缓存"),
        w("DefaultNamespaces: the Pod informer watches only the operator's namespaces.", "DefaultNamespaces：Pod informer 只监听 operator 的命名空间。")),
    s("cache.metadata_only", Kind::Bool, "false",
        w("Metadata-only cache", "只缓存元数据"),
        w("OnlyMetadata: the cache keeps only each Pod's metadata.", "OnlyMetadata：缓存只保留每个 Pod 的元数据。")),
    s("pods.count", count(0.0, 500_000.0, Scale::Log), "0",
        w("Pods", "Pod 数"),
        w("Pods in the cluster, the operator's own included.", "集群中的 Pod 数，包括 operator 自己的。")),
    s("pods.namespaces", count(1.0, 10_000.0, Scale::Log), "1",
        w("Pod namespaces", "Pod 命名空间数"),
        w("Namespaces the Pods are spread over.", "Pod 分布的命名空间数量。")),
    s("pods.per_object", count(0.0, 100.0, Scale::Linear), "0",
        w("Pods per object", "每个对象的 Pod 数"),
        w("Pods each custom resource owns.", "每个自定义资源拥有的 Pod 数。")),
    s("pods.size_bytes", bytes(256.0, 2.0 * MI), "16Ki",
        w("Pod size", "Pod 大小"),
        w("A decoded Pod's size in the operator's heap.", "解码后的 Pod 在 operator 堆中的大小。")),
    s("pods.metadata_size_bytes", bytes(128.0, 2.0 * MI), "1Ki",
        w("Pod metadata size", "Pod 元数据大小"),
        w("A decoded PartialObjectMetadata's size (at most pods.size_bytes).", "解码后的 PartialObjectMetadata 大小（不超过 pods.size_bytes）。")),
    s("pods.memory_request", bytes(0.0, 1024.0 * GI), "256Mi",
        w("Pod memory request", "Pod 内存请求"),
        w("Memory request of each owned Pod's container.", "每个被拥有 Pod 容器的内存请求。")),
    s("pods.memory_limit", bytes(0.0, 1024.0 * GI), "2Gi",
        w("Pod memory limit", "Pod 内存上限"),
        w("Memory limit of each owned Pod's container; 0 is none.", "每个被拥有 Pod 容器的内存上限；0 为无。")),
    s("pods.memory_usage", bytes(0.0, 1024.0 * GI), "256Mi",
        w("Pod memory usage", "Pod 内存用量"),
        w("Working set each owned Pod reaches once started.", "每个被拥有 Pod 启动后达到的工作集。")),
    s("pods.warmup", duration_ms(0.0, HOUR_MS, 1000.0, Scale::Linear), "20s",
        w("Pod warm-up", "Pod 预热"),
        w("How long an owned Pod takes to reach its working set.", "被拥有 Pod 达到工作集所需的时间。")),
    s("nodes.count", count(0.0, 1000.0, Scale::Linear), "0",
        w("Nodes", "节点数"),
        w("Worker Nodes that run the owned Pods; 0 leaves Nodes out.", "运行被拥有 Pod 的工作节点；0 表示不模拟节点。")),
    s("nodes.memory_capacity", bytes(256.0 * MI, 4096.0 * GI), "16Gi",
        w("Node memory", "节点内存"),
        w("Each Node's memory capacity.", "每个节点的内存容量。")),
    s("nodes.other_usage", bytes(0.0, 4096.0 * GI), "4Gi",
        w("Other usage on the Node", "节点其他用量"),
        w("Memory used on each Node by everything else.", "每个节点上其他一切占用的内存。")),
    s("nodes.eviction_hard_memory_available", bytes(0.0, 4096.0 * GI), "100Mi",
        w("Eviction threshold", "驱逐阈值"),
        w("--eviction-hard=memory.available<… (kubelet default 100Mi).", "--eviction-hard=memory.available<…（kubelet 默认 100Mi）。")),
    s("nodes.pressure_transition_period", duration_ms(0.0, HOUR_MS, 1000.0, Scale::Linear), "5m",
        w("Pressure transition period", "压力状态转换期"),
        w("--eviction-pressure-transition-period (kubelet default 5m).", "--eviction-pressure-transition-period（kubelet 默认 5 分钟）。")),
    s("nodes.eviction_interval", duration_ms(1000.0, 600_000.0, 1000.0, Scale::Linear), "10s",
        w("Eviction interval", "驱逐检查间隔"),
        w("How often the eviction manager checks (kubelet: 10s).", "驱逐管理器检查的频率（kubelet 默认 10 秒）。")),
}
