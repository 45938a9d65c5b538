//! Every preset's titles and summary, written from `crates/engine/scenarios/*.toml` by the test
//! `scenario::construct::tests::the_built_presets_are_written_from_the_scenario_files`
//! (`cargo test -p flywheel-engine --lib built_presets` rewrites this file). Do not edit.

use super::text::PresetWords;

/// Every preset's words, in the presets' order.
pub static PRESET_WORDS: &[PresetWords] = &[
    PresetWords {
        name: "flywheel",
        title: "The death flywheel",
        title_zh: "死亡飞轮",
        summary: "Reconcile writes status with a full Update on a CRD without /status and no predicate: each write bumps resourceVersion and generation, its watch event re-queues the key, and Reconcile writes again, forever.",
    },
    PresetWords {
        name: "subresource-only",
        title: "Fix 1 alone: the /status subresource",
        title_zh: "只用修复 1：/status 子资源",
        summary: "Status().Update on a CRD with /status: generation no longer moves, but every status write still bumps resourceVersion and, with no predicate, its MODIFIED event re-queues the key: the loop goes on.",
    },
    PresetWords {
        name: "predicate-only",
        title: "Fix 2 alone: GenerationChangedPredicate",
        title_zh: "只用修复 2：GenerationChangedPredicate",
        summary: "GenerationChangedPredicate without /status: a status change through the main endpoint bumps generation too, so the predicate lets every one of the operator's own writes through: the loop goes on.",
    },
    PresetWords {
        name: "observed-generation-only",
        title: "Fix 3 alone: the ObservedGeneration guard",
        title_zh: "只用修复 3：ObservedGeneration 守卫",
        summary: "Reconcile returns early when status.observedGeneration == generation, but without /status the write that records observedGeneration bumps generation again, so the guard never holds: the loop goes on.",
    },
    PresetWords {
        name: "subresource+predicate",
        title: "/status subresource + GenerationChangedPredicate",
        title_zh: "/status 子资源 + GenerationChangedPredicate",
        summary: "Status writes go to /status and leave generation alone, and the predicate drops the update events they cause: the loop stops. A spec edit is reconciled once, with one status write.",
    },
    PresetWords {
        name: "subresource+observed-generation",
        title: "/status subresource + ObservedGeneration guard",
        title_zh: "/status 子资源 + ObservedGeneration 守卫",
        summary: "With /status, recording observedGeneration does not bump generation, so the reconcile that the status write triggers returns at the guard without writing: the loop stops after one extra, empty reconcile.",
    },
    PresetWords {
        name: "fixed",
        title: "All of the seed's fixes",
        title_zh: "种子文章的全部修复",
        summary: "/status subresource, GenerationChangedPredicate, the ObservedGeneration guard and Status().Patch (a merge patch without resourceVersion, so no 409s): one reconcile and one status write per spec change, then silence.",
    },
    PresetWords {
        name: "idempotent-status",
        title: "Idempotent status: the no-op rule stops the loop",
        title_zh: "幂等的 status：无变化写入规则让循环停下",
        summary: "The same broken Update without /status or predicate, but the status carries no timestamp: the second write is byte-identical to the stored object, the API server skips it (no new resourceVersion, no watch event), and the loop stops by itself.",
    },
    PresetWords {
        name: "flywheel-workers",
        title: "The death flywheel with three workers",
        title_zh: "三个 worker 的死亡飞轮",
        summary: "The broken Reconcile of the flywheel preset, run by three workers over 30 objects: each worker's write re-queues its key, so three times the workers make about three times the writes, and the loop never rests.",
    },
    PresetWords {
        name: "seed-000-incident",
        title: "The seed-000 incident: 150k objects, 429s, OOMKilled, CrashLoopBackOff",
        title_zh: "seed-000 事故：15 万个对象、429、OOMKilled、CrashLoopBackOff",
        summary: "The death flywheel at production scale: thousands of adds per second, a workqueue over 100k deep, APF answering 429, the informer's queue and the heap growing until the kernel kills the operator, and the storm starting over after each restart.",
    },
    PresetWords {
        name: "list-full-scan",
        title: "List every Pod, filter in memory: a 50k-Pod cache, p99 in seconds, OOMKilled",
        title_zh: "List 全部 Pod 再在内存中过滤：5 万 Pod 的缓存、秒级 p99、OOMKilled",
        summary: "Reconcile calls r.List(ctx, &pods) without a namespace or field selector: the first call starts a cluster-wide Pod informer, the cache holds all 50 000 Pods and every reconcile deep-copies them; reconciles wait seconds for the cache and the 2Gi container is OOMKilled again and again. Fix: a FieldIndexer on the owner plus a namespace-scoped cache.",
    },
    PresetWords {
        name: "list-full-scan-small",
        title: "The same full scan with 300 Pods: the index does not matter",
        title_zh: "同样的全量扫描，只有 300 个 Pod：索引无关紧要",
        summary: "The same r.List of every Pod on a cluster with 300 Pods: a few milliseconds and a few MiB per reconcile; a FieldIndexer changes nothing you would notice. The anti-pattern costs what the cluster is big, not what the operator is.",
    },
    PresetWords {
        name: "finalizer-deadlock",
        title: "Finalizers while the operator crash-loops: DataJobs and namespaces stuck in Terminating",
        title_zh: "operator 崩溃循环时的 finalizer：DataJob 和命名空间卡在 Terminating",
        summary: "DataJobs with a finalizer and their namespaces are deleted while the operator is OOMKilled over and over: they stay Terminating with a deletionTimestamp. Once the operator stays up, the safe finalizer state machine (cleanup first, retry on failure and on 409) drains them without leaking anything.",
    },
    PresetWords {
        name: "finalizer-unsafe",
        title: "Finalizer removed on failed cleanup: objects vanish, external resources leak",
        title_zh: "清理失败仍移除 finalizer：对象消失，外部资源泄漏",
        summary: "Reconcile removes its finalizer even when the external cleanup failed: the 200 deleted DataJobs disappear on time, and about a third of what they held outside the cluster leaks. Fix: keep the finalizer and return the error until the cleanup succeeds.",
    },
    PresetWords {
        name: "watch-leak",
        title: "A watch per reconcile, never stopped: goroutines and stream buffers until OOM",
        title_zh: "每次 Reconcile 开一个 watch 且从不停止：goroutine 和流缓冲直到 OOM",
        summary: "Each reconcile opens a watch and never stops it: two goroutines and a stream buffer stay behind per reconcile, the API server keeps filling the unread streams, and go_goroutines and the heap climb until the container is OOMKilled. Fix: defer w.Stop(), or use the shared informer.",
    },
    PresetWords {
        name: "listener-backlog",
        title: "A handler slower than the event rate: the listener's buffer grows until OOM",
        title_zh: "handler 慢于事件速率：listener 缓冲区一直增长直到 OOM",
        summary: "1 000 update events a second reach an event handler that needs 2 ms each: the informer keeps up, but the listener's unbounded notification buffer grows by 500 objects a second until the operator is OOMKilled. Fix: handlers only enqueue; the work happens in Reconcile.",
    },
    PresetWords {
        name: "log-whole-object",
        title: "Logging whole objects with 100+ conditions: MBs per reconcile, GC CPU up",
        title_zh: "记录带 100+ 条件的整个对象：每次 Reconcile 数 MB，GC CPU 上升",
        summary: "Reconcile logs the whole object, 256 KiB with 120 conditions, at each of its 16 phases: 16 MiB of garbage per reconcile, hundreds of GC cycles and a GC CPU share that slows every reconcile. Fix: log counts, not objects.",
    },
    PresetWords {
        name: "no-context-timeout",
        title: "External calls without a deadline: workers hang, the queue fills",
        title_zh: "外部调用没有超时：worker 挂起，队列堆满",
        summary: "Reconcile calls a backend with no deadline; one call in a hundred never returns. Worker after worker hangs, reconciles stop and every key waits in the workqueue. Fix: context.WithTimeout and RequeueAfter.",
    },
    PresetWords {
        name: "eviction-loop",
        title: "Evict, recreate at once, evict again: the node-pressure loop",
        title_zh: "驱逐、立即重建、再被驱逐：节点内存压力循环",
        summary: "Pods that use four times their memory request push a Node under memory.available<100Mi; the kubelet evicts one every pass, the operator recreates it at once with spec.nodeName on the same Node (bypassing the scheduler's memory-pressure taint; the kubelet admits Burstable Pods), and the pressure returns. Contrast: code.placement=scheduler keeps it Pending. Fix: check the Node's MemoryPressure condition before recreating.",
    },
];
