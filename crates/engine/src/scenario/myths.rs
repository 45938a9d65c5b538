//! "Myth vs upstream": claims of seeds 000 and 004 that the upstream code contradicts. Each card holds the
//! claim, what the engine does instead (following the upstream file named), and the preset that
//! shows it. The seed's figures that are right are reproduced by the presets; these are the ones
//! that are explained rather than tuned in.

/// One card, in English and Simplified Chinese.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Myth {
    /// A stable id (used in the page's element ids).
    pub id: &'static str,
    /// The claim as the seed makes it (English).
    pub claim_en: &'static str,
    /// The claim (简体中文).
    pub claim_zh: &'static str,
    /// What upstream does, and so what the engine does (English).
    pub upstream_en: &'static str,
    /// What upstream does (简体中文).
    pub upstream_zh: &'static str,
    /// The preset that demonstrates it.
    pub preset: &'static str,
    /// The upstream files, `repository: path`.
    pub files: &'static [&'static str],
}

/// Every card, in the order the page shows them.
pub static MYTHS: &[Myth] = &[
    Myth {
        id: "resync-zero",
        claim_en: "resyncPeriod = 0 disables the periodic resync, so expired objects stay in the informer's store forever; set 5 minutes to evict stale objects.",
        claim_zh: "resyncPeriod=0 会禁用周期性重新同步，过期对象会永远留在 informer 的 Store 里；应设为 5 分钟来驱逐陈旧对象。",
        upstream_en: "A resync evicts nothing: it re-delivers the objects already in the cache as Update events with the same resourceVersion. Objects leave the store through the watch's DELETED events, and after a watch gap the relist's Replace turns every missing key into a DeletedFinalStateUnknown delete. Run the preset: 200 objects are deleted at 30 s and leave the cache as soon as their finalizers go, with no resync at all (controller-runtime resyncs every 10 h).",
        upstream_zh: "重新同步不会驱逐任何对象：它只是把缓存里已有的对象以相同 resourceVersion 的 Update 事件再投递一次。对象通过 watch 的 DELETED 事件离开 Store；watch 中断后，重新 List 时的 Replace 会把缺失的 key 变成 DeletedFinalStateUnknown 删除。运行这个预设：200 个对象在 30 秒时被删除，finalizer 一移除就离开缓存，完全不需要重新同步（controller-runtime 每 10 小时才重新同步一次）。",
        preset: "finalizer-unsafe",
        files: &[
            "kubernetes/client-go: tools/cache/delta_fifo.go (Resync, Replace)",
            "kubernetes/client-go: tools/cache/reflector.go (watchHandler)",
        ],
    },
    Myth {
        id: "kubelet-oom-95",
        claim_en: "The kubelet samples every 10 s and OOM-kills a container once usage/limit > 0.95 and memory.failcnt grows — ignoring the request.",
        claim_zh: "kubelet 每 10 秒采样一次，一旦 usage/limit > 0.95 且 memory.failcnt 增长就 OOM kill 容器——与 request 无关。",
        upstream_en: "The kubelet does not OOM-kill containers. It writes the limit into the container's cgroup (memory.max); when the cgroup cannot reclaim memory below that limit, the kernel's OOM killer kills a process in it, and the kubelet only reports the exit as OOMKilled. There is no 95 % rule: the engine kills when RSS reaches the limit itself. Run the preset: RSS climbs to the 2Gi limit before each kill.",
        upstream_zh: "kubelet 不会 OOM kill 容器。它把 limit 写进容器的 cgroup（memory.max）；当 cgroup 无法把内存回收到 limit 以下时，由内核的 OOM killer 杀掉其中的进程，kubelet 只是把这次退出报告为 OOMKilled。不存在 95% 的规则：引擎在 RSS 达到 limit 本身时才杀掉容器。运行这个预设：每次被杀之前，RSS 都会涨到 2Gi 的 limit。",
        preset: "list-full-scan",
        files: &[
            "kubernetes/kubernetes: pkg/kubelet/kuberuntime/kuberuntime_container_linux.go (memory limit → cgroup)",
            "torvalds/linux: mm/memcontrol.c (memory cgroup OOM)",
        ],
    },
    Myth {
        id: "oom-score-priority",
        claim_en: "A PriorityClass sets oom_score_adj = −1000 + priority and overrides the QoS class; Burstable pods get −998 to 1000.",
        claim_zh: "PriorityClass 会把 oom_score_adj 设为 −1000 + priority 并覆盖 QoS 等级；Burstable Pod 的取值为 −998 到 1000。",
        upstream_en: "oom_score_adj comes from the QoS class: Guaranteed −997, BestEffort 1000, Burstable 1000 − 1000·request/capacity clamped to [3, 999]; node-critical pods get −997. Priority plays its part elsewhere: in the kubelet's eviction ranking, after 'uses more than it requested', and in scheduler preemption. Run the preset: the kubelet evicts the Pods that exceed their requests, the largest excess first.",
        upstream_zh: "oom_score_adj 由 QoS 等级决定：Guaranteed 为 −997，BestEffort 为 1000，Burstable 为 1000 − 1000·request/capacity，并限制在 [3, 999]；节点关键 Pod 为 −997。优先级在别处起作用：在 kubelet 的驱逐排序中排在“用量超过 request”之后，以及调度器的抢占。运行这个预设：kubelet 先驱逐超出 request 的 Pod，超出最多的最先。",
        preset: "eviction-loop",
        files: &[
            "kubernetes/kubernetes: pkg/kubelet/qos/policy.go (GetContainerOOMScoreAdjust)",
            "kubernetes/kubernetes: pkg/kubelet/eviction/helpers.go (rankMemoryPressure)",
        ],
    },
    Myth {
        id: "informer-rate-limiter",
        claim_en: "Without a RateLimiter on the ListWatch, event floods pour into the DeltaFIFO; give the informer a rate limiter and a bounded queue.",
        claim_zh: "ListWatch 不配置 RateLimiter，事件洪峰就会涌入 DeltaFIFO；应给 informer 配置限流器和有界队列。",
        upstream_en: "Informers have no rate limiter: one loop pops the FIFO, updates the indexer and hands each notification to every handler's listener. A slow handler does not slow that loop — its notifications wait in the listener's pendingNotifications ring buffer, which grows without bound. The workqueue's rate limiter only delays the retries of keys after Reconcile errors. Run the preset: the FIFO stays empty while the handler buffer grows to OOM.",
        upstream_zh: "informer 没有限流器：一个循环从 FIFO 取出对象、更新 indexer，再把每条通知交给每个 handler 的 listener。慢的 handler 不会拖慢这个循环——它的通知在 listener 的 pendingNotifications 环形缓冲区里等待，而这个缓冲区没有上限。workqueue 的限流器只会推迟 Reconcile 出错后 key 的重试。运行这个预设：FIFO 一直是空的，handler 缓冲区却一直增长到 OOM。",
        preset: "listener-backlog",
        files: &[
            "kubernetes/client-go: tools/cache/shared_informer.go (processorListener)",
            "kubernetes/client-go: util/workqueue/default_rate_limiters.go",
        ],
    },
    Myth {
        id: "log-15mb",
        claim_en: "A single log.Info of an object with 100+ conditions allocates more than 15 MB.",
        claim_zh: "对一个含 100+ 个 condition 的对象调用一次 log.Info，会产生超过 15MB 的临时分配。",
        upstream_en: "One record allocates a small multiple of the object's encoded size, and an object is at most 1.5 MiB in etcd (the API server refuses larger requests), so one call cannot reach 15 MB. The figure is right per reconcile when the object is logged at every phase: the preset logs a 256 KiB object 16 times, 16 MiB of garbage per reconcile, and the GC runs by the hundred.",
        upstream_zh: "一条日志的分配量是对象编码大小的几倍，而 etcd 中的对象最大 1.5MiB（API server 会拒绝更大的请求），所以一次调用到不了 15MB。如果在每个阶段都记录一次对象，这个数字按每次 Reconcile 计算是对的：预设把一个 256KiB 的对象记录 16 次，每次 Reconcile 产生 16MiB 垃圾，GC 运行数百次。",
        preset: "log-whole-object",
        files: &[
            "etcd-io/etcd: server/embed/config.go (DefaultMaxRequestBytes = 1.5 MiB)",
            "go-logr/zapr: zapr.go (values encoded by zap's reflection encoder)",
        ],
    },
    Myth {
        id: "heap-in-deltafifo",
        claim_en: "Before the OOM, the heap profile shows almost all memory in DeltaFIFO.Queue: the informer's event queue was stuffed full.",
        claim_zh: "OOM 之前的 heap profile 显示内存几乎全部在 DeltaFIFO.Queue 中：informer 的事件队列被彻底塞满了。",
        upstream_en: "The DeltaFIFO is what grows — the informer's single processing loop pops about 5 500 events a second here and the 200 workers write faster — but it is not most of the heap. The cache holds every one of the 150 000 objects all the time; the FIFO holds only the versions not popped yet. Run the preset: a second before the first OOMKilled the live heap is about 590 MiB of cache, 160 MiB of FIFO deltas and 20 MiB of workqueue. Also, a Go heap profile charges each live byte to the code that allocated it — the decoding of the watch stream — not to the queue that still holds it. And a restarted controller starts no worker until its cache has synced, so each restart first fills the FIFO with the whole LIST and then the workqueue with every key.",
        upstream_zh: "不断增长的确实是 DeltaFIFO——这里 informer 唯一的处理循环每秒大约只能取出 5500 个事件，而 200 个 worker 写得更快——但它并不是堆的大头。缓存始终持有全部 15 万个对象；FIFO 只持有尚未取出的那些版本。运行这个预设：第一次 OOMKilled 前一秒，存活堆里大约 590MiB 是缓存，160MiB 是 FIFO 中的 delta，20MiB 是 workqueue。另外，Go 的 heap profile 把每个存活字节记在分配它的代码上——也就是解码 watch 流的地方——而不是仍然持有它的队列上。而且重启后的 controller 在缓存同步完成之前不会启动任何 worker，所以每次重启都先把整个 LIST 灌进 FIFO，再把每个 key 放进 workqueue。",
        preset: "seed-000-incident",
        files: &[
            "kubernetes/client-go: tools/cache/delta_fifo.go (queueActionLocked, Pop)",
            "kubernetes/client-go: tools/cache/shared_informer.go (HandleDeltas)",
            "kubernetes-sigs/controller-runtime: pkg/internal/controller/controller.go (Start)",
            "golang/go: src/runtime/pprof/pprof.go (heap profile: inuse_space by allocation stack)",
        ],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_myth_demonstrates_a_preset_that_exists_and_names_its_upstream_files() {
        for m in MYTHS {
            assert!(super::super::presets::text(m.preset).is_some(), "{}", m.id);
            assert!(!m.files.is_empty() && !m.claim_zh.is_empty() && !m.upstream_zh.is_empty());
        }
    }
}
