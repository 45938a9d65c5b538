//! The page's text in English and 简体中文: every label is a [`Msg`], every preset has a
//! narration ([`narration`]). The language follows the browser unless the URL or the switch says
//! otherwise.

use std::fmt;

/// A language of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// 简体中文.
    Zh,
}

impl Lang {
    /// The code used in the URL and the `lang` attribute.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    /// Parses `en`, `zh`, `zh-CN`, `zh-Hans`… (case-insensitive).
    pub fn parse(s: &str) -> Option<Lang> {
        let s = s.to_ascii_lowercase();
        if s == "en" || s.starts_with("en-") {
            Some(Lang::En)
        } else if s == "zh" || s.starts_with("zh-") || s.starts_with("zh_") {
            Some(Lang::Zh)
        } else {
            None
        }
    }

    /// The browser's preferred language among ours (English when none matches).
    pub fn from_browser(languages: &[String]) -> Lang {
        languages
            .iter()
            .find_map(|l| Lang::parse(l))
            .unwrap_or_default()
    }

    /// The other language (the switch).
    pub fn other(self) -> Lang {
        match self {
            Lang::En => Lang::Zh,
            Lang::Zh => Lang::En,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

macro_rules! messages {
    ($($key:ident => $en:expr, $zh:expr;)*) => {
        /// A piece of UI text.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Msg {
            $(
                #[allow(missing_docs)]
                $key,
            )*
        }

        impl Msg {
            /// Every message, for completeness tests.
            pub const ALL: &'static [Msg] = &[$(Msg::$key),*];

            /// The text in `lang`.
            pub fn text(self, lang: Lang) -> &'static str {
                match (self, lang) {
                    $(
                        (Msg::$key, Lang::En) => $en,
                        (Msg::$key, Lang::Zh) => $zh,
                    )*
                }
            }
        }
    };
}

messages! {
    Tagline => "A simulated Kubernetes API server and controller-runtime operator, running in your browser.",
        "在浏览器中运行的模拟 Kubernetes API server 与 controller-runtime operator。";
    Scenario => "Scenario", "场景";
    Fixes => "Fixes", "修复开关";
    StatusSubresource => "/status subresource on the CRD", "CRD 启用 /status 子资源";
    WriteVerb => "Status write", "状态写入方式";
    GenerationPredicate => "GenerationChangedPredicate", "GenerationChangedPredicate";
    ObservedGenerationGuard => "ObservedGeneration guard", "ObservedGeneration 守卫";
    Timestamp => "Timestamp in status", "status 中写入时间戳";
    Parameters => "Parameters", "参数";
    Objects => "Objects", "对象数";
    HeavyLogic => "Heavy-logic time", "重逻辑耗时";
    Workers => "Workers", "工作协程数";
    ClientQps => "Client QPS", "客户端 QPS";
    ClientBurst => "Client burst", "客户端突发量";
    ApfSeats => "API server seats (APF)", "API server 并发席位 (APF)";
    ApfQueue => "API server queue (APF requests waiting)", "API server 队列 (APF 排队请求数)";
    EtcdWrites => "etcd commits per second", "etcd 每秒提交数";
    ObjectSize => "Object size", "对象大小";
    MemoryLimit => "Memory limit", "内存上限";
    Profile => "Version profile", "版本配置";
    ProfileSeed => "seed (k8s 1.28, client-go 0.27)", "种子（k8s 1.28，client-go 0.27）";
    ProfileModern => "modern (k8s 1.36, client-go 0.36)", "现代（k8s 1.36，client-go 0.36）";
    Off => "off", "关闭";
    NoLimit => "none", "无";
    Play => "Play", "播放";
    Pause => "Pause", "暂停";
    Step => "Step", "单步";
    Reset => "Reset", "重置";
    Speed => "Speed", "速度";
    Seed => "Seed", "随机种子";
    Clock => "Simulated clock", "模拟时钟";
    Finished => "finished", "已结束";
    Compare => "Compare with…", "对比…";
    CompareOff => "Stop comparing", "结束对比";
    VariantB => "B variant", "B 方案";
    Language => "中文", "English";
    Theme => "Theme", "主题";
    ThemeAuto => "auto", "自动";
    ThemeLight => "light", "浅色";
    ThemeDark => "dark", "深色";
    CopyPermalink => "Copy permalink", "复制永久链接";
    CopyEmbedCode => "Copy embed code", "复制嵌入代码";
    EmbedWidth => "Width", "宽度";
    EmbedPanel => "Panel under the charts", "图表下方的面板";
    EmbedNoPanel => "none", "无";
    Copied => "Copied", "已复制";
    Embed => "Embed", "嵌入";
    EmbedHint => "Paste this into your documentation:", "将以下代码粘贴到文档中：";
    Permalink => "Permalink", "永久链接";
    Close => "Close", "关闭";
    Help => "Keyboard shortcuts", "键盘快捷键";
    KeySpace => "play / pause", "播放 / 暂停";
    KeyRight => "step one event (pauses)", "单步执行一个事件（会暂停）";
    KeyN => "step to the next Reconcile (pauses)", "单步执行到下一次 Reconcile（会暂停）";
    KeyW => "step to the next write the API server handles (pauses)", "单步执行到 API server 处理的下一次写入（会暂停）";
    KeyTabs => "on the tab bar: previous / next panel, first / last", "在标签栏上：上一个 / 下一个面板，第一个 / 最后一个";
    StepReconcile => "Next Reconcile", "下一次 Reconcile";
    StepWrite => "Next write", "下一次写入";
    KeyPlusMinus => "faster / slower", "加速 / 减速";
    KeyR => "reset the run", "重置运行";
    KeyQuestion => "this help", "显示本帮助";
    KeyEscape => "close dialogs", "关闭对话框";
    Pipeline => "Pipeline", "处理管线";
    PipelineLabel => "The operator's pipeline: API server, watch, Reflector, FIFO, Indexer, handlers and predicates, workqueue, workers, Reconcile, and the write back.",
        "operator 的处理管线：API server、watch、Reflector、FIFO、Indexer、事件处理器与 predicate、workqueue、worker、Reconcile，以及写回。";
    RequestsPerSecond => "API requests/s", "API 请求/秒";
    ReconcilesPerSecond => "Reconciles/s", "Reconcile/秒";
    LoopClosures => "Self-triggered enqueues", "自触发入队";
    Revision => "etcd revision", "etcd 修订号";
    Pod => "Pod", "Pod";
    Restarts => "restarts", "次重启";
    Memory => "Memory", "内存";
    ChartMemory => "Memory", "内存";
    ChartRequests => "API requests/s by verb", "按动词统计的 API 请求/秒";
    ChartQueue => "Workqueue", "工作队列";
    ChartReconcile => "Reconciles", "Reconcile";
    Seconds => "time (s)", "时间（秒）";
    Code => "Code", "代码";
    CodeHint => "Highlighted lines differ from the seed's broken reconciler.", "高亮行是相对种子文章中有问题的 Reconcile 代码改动过的行。";
    Inspect => "Inspect", "检查对象";
    InspectHint => "Click an object (or a token in the pipeline) to see it as kubectl get -o yaml prints it.",
        "点击一个对象（或管线中的令牌），即可看到它的 YAML，与 kubectl 的输出相同。";
    InspectNothing => "No object yet: press play.", "还没有对象：请按播放。";
    InspectDerived => "The object as the API server stores it; highlighted: changed since its previous version.",
        "API server 中存储的对象；高亮部分为相对上一个版本的变化。";
    InspectDeleted => "Deleted: this is the last state its DELETED watch event carried.",
        "已删除：这是其 DELETED watch 事件携带的最后状态。";
    EventLog => "Event log", "事件日志";
    ShowRun => "Show run", "显示运行";
    Explain => "What happens", "发生了什么";
    Myths => "Myth vs upstream", "传言与上游代码";
    FixFieldIndex => "Fix: FieldIndexer on the owner", "修复：按 owner 建 FieldIndexer";
    FixNamespacedCache => "Fix: namespace-scoped cache", "修复：按命名空间限定缓存";
    FixMetadataOnly => "Fix: metadata-only Pod cache", "修复：只缓存 Pod 元数据";
    FixStopWatch => "Fix: defer w.Stop()", "修复：defer w.Stop()";
    FixLogCounts => "Fix: log counts, not objects", "修复：只记录数量而非对象";
    FixTimeout => "Fix: 5 s context timeout", "修复：5 秒的 context 超时";
    FixSafeFinalizer => "Fix: keep the finalizer until cleanup succeeds", "修复：清理成功前保留 finalizer";
    FixPressureCheck => "Fix: check MemoryPressure before recreating", "修复：重建前检查 MemoryPressure";
    HandlerCost => "Event handler time", "事件 handler 耗时";
    MythsHint => "Claims of seeds 000 and 004 that the upstream code contradicts: what the engine does instead, and a scenario that shows it.",
        "seed 000 和 004 中与上游代码相矛盾的说法：引擎（遵循上游代码）的实际行为，以及演示它的场景。";
    MythClaim => "The claim", "说法";
    MythUpstream => "What upstream does", "上游代码的实际行为";
    MythRun => "Run", "运行";
    MythFiles => "Upstream", "上游文件";
    NoticeIgnored => "Ignored URL parameter", "已忽略的 URL 参数";
    NoticeStored => "Saved settings could not be read and were set aside (localStorage flywheel.settings.corrupt)", "已保存的设置无法读取，已另存到 localStorage 的 flywheel.settings.corrupt";
    NoticeImport => "The settings file was not imported", "设置文件未导入";
    ExportSettings => "Export settings", "导出设置";
    ImportSettings => "Import settings…", "导入设置…";
    NoticeInvalid => "The scenario rejected a parameter, using the preset's value", "场景拒绝了一个参数，已改用预设值";
    Dismiss => "Dismiss", "关闭";
    ErrorTitle => "Flywheel stopped because of an internal error", "Flywheel 因内部错误而停止";
    ErrorBody => "Reload the permalink below to start again, and please send the report.", "重新打开下面的永久链接即可重新开始，并请发送错误报告。";
    CopyReport => "Copy report", "复制报告";
    OpenFull => "Open in Flywheel", "在 Flywheel 中打开";
    AchievedSpeed => "(runs at {})", "（实际 {}）";
    AchievedSpeedWhy => "The engine simulates every object, so a large scenario cannot reach the requested speed on this machine", "引擎逐一模拟每个对象，大场景在本机上达不到所选速度";
    Converged => "converged: no write loop, the controller is idle", "已收敛：无写入循环，控制器空闲";
    Looping => "write loop: every write re-triggers Reconcile", "写入循环：每次写入都会再次触发 Reconcile";
    Watching => "watching for a write loop (10 s of samples)", "观察中：是否形成写入循环（需 10 秒样本）";
    BusyNoLoop => "no write loop in 10 s, but the workqueue is busy", "10 秒内无写入循环，但 workqueue 仍忙";
    OperatorDown => "operator not running: no write loop to judge", "operator 未运行：无从判断写入循环";
    // The verdict, the story of the switches and the run's outcome (crate::story, crate::outcome).
    VerdictDown => "operator not running: {}", "operator 未运行：{}";
    VerdictDownWhy => "{state} after {reason}, restart in {s} s", "{reason} 之后 {state}，{s} 秒后重启";
    VerdictDownNow => "{state} after {reason}", "{reason} 之后 {state}";
    VerdictStarting => "operator starting: listing the objects, the workers wait for the cache sync",
        "operator 启动中：正在 List 对象，worker 等待缓存同步";
    VerdictRelisting => "operator relisting: its watch ended and the informer lists every object again",
        "operator 正在重新 List：watch 已结束，informer 重新列出全部对象";
    VerdictSettling => "workers started {} s ago: watching for a write loop (10 s of samples)",
        "worker 在 {} 秒前启动：观察是否形成写入循环（需 10 秒样本）";
    VerdictWritesOutrun => "write loop: {} writes/s, their own events still wait in the informer",
        "写入循环：每秒 {} 次写入，它们引发的事件仍在 informer 中排队";
    VerdictStatusDropped => "no write loop, but status is never persisted (/status on, status written with {})",
        "无写入循环，但 status 从未被保存（已启用 /status，却用 {} 写 status）";
    VerdictNoEndpoint => "no write loop, but every status write fails: 404, no /status on the CRD",
        "无写入循环，但每次 status 写入都失败：404，CRD 没有 /status";
    StoryNow => "The switches now: {}.", "当前开关：{}。";
    StoryShipped => "The preset as shipped (its own switches):", "预设原本的说明（按它自己的开关）：";
    StoryNoSubresource => "no /status subresource", "无 /status 子资源";
    StoryNoTimestamp => "no timestamp", "无时间戳";
    StoryCloses => "The loop closes: {}, and {}. Each write comes back as a watch event and queues the key again.",
        "循环闭合：{}，并且{}。每次写入都会以 watch 事件返回，让 key 再次入队。";
    StoryChangeTimestamp => "the timestamp makes every status write differ from the last, so each one bumps resourceVersion",
        "时间戳让每次 status 写入都与上一次不同，于是每次都会增加 resourceVersion";
    StoryChangeGuard => "without /status, recording observedGeneration bumps generation again",
        "没有 /status 时，记录 observedGeneration 会再次增加 generation";
    StoryRequeueNoPredicate => "no predicate filters the operator's own MODIFIED event",
        "没有 predicate 过滤 operator 自己的 MODIFIED 事件";
    StoryRequeuePredicate => "GenerationChangedPredicate lets the event through, because without /status the write bumped generation",
        "GenerationChangedPredicate 放行了该事件，因为没有 /status 时写入增加了 generation";
    StoryOpens => "The loop does not close: {}.", "循环不会闭合：{}。";
    StoryOpenIdempotent => "status is the same on every write, so the second write is a no-op: no new resourceVersion, no event",
        "每次写入的 status 都相同，第二次写入是空操作：没有新的 resourceVersion，也没有事件";
    StoryOpenPredicate => "with /status the write leaves generation alone, and GenerationChangedPredicate drops the operator's own event at the gate",
        "有 /status 时写入不改变 generation，GenerationChangedPredicate 在闸门处丢弃 operator 自己的事件";
    StoryOpenGuard => "the operator's own event comes back, but Reconcile stops at the ObservedGeneration guard without writing: one extra pass, then quiet",
        "operator 自己的事件仍会回来，但 Reconcile 在 ObservedGeneration 守卫处停下、不再写入：多一轮之后就安静了";
    StoryStatusDropped => "Status is never persisted. The CRD has the /status subresource, so the API server ignores the status that {} sends to the main endpoint: the write changes nothing, no event follows, and the quiet pipeline hides an object without status. Write status with r.Status().Update or r.Status().Patch.",
        "status 从未被保存。CRD 启用了 /status 子资源，API server 会忽略 {} 发往主端点的 status：这次写入什么也没改变，也没有事件，安静的管线掩盖了一个没有 status 的对象。请用 r.Status().Update 或 r.Status().Patch 写 status。";
    StoryNoStatusEndpoint => "The CRD has no /status subresource, so {} is answered 404 Not Found: Reconcile returns the error, the key is retried with backoff, and status is never persisted.",
        "CRD 没有 /status 子资源，{} 得到 404 Not Found：Reconcile 返回错误，key 带退避重试，status 从未被保存。";
    CaptionNoStatus => "no /status", "无 /status";
    CaptionGuard => "guard", "守卫";
    OutcomeDiffers => "This run does not follow the preset's story: {}", "本次运行与预设的说明不符：{}";
    OutcomeOom => "the operator was OOMKilled {n}× (memory limit {limit}): with these settings its memory outgrows the limit, so it crash-loops and relists after every restart.",
        "operator 被 OOMKilled {n} 次（内存上限 {limit}）：在这些设置下内存超过上限，于是它崩溃循环，每次重启后都重新 List。";
    OutcomeStuck => "every worker is busy and no Reconcile finished in 10 s: the operator is stuck.",
        "所有 worker 都在忙，10 秒内没有 Reconcile 完成：operator 卡住了。";
    OutcomeConverged => "the write loop stopped by itself: no self-triggered enqueue in 10 s (a cycle shorter than the timestamp's one second writes identical status).",
        "写入循环自行停止：10 秒内没有自触发入队（一轮短于时间戳的一秒时，写入的 status 完全相同）。";
    OutcomeLooping => "a write loop turns although these switches should let the operator converge.",
        "虽然这些开关应该让 operator 收敛，写入循环却在转动。";
    CodeShow => "Show", "显示";
    CodeDiff => "A → B difference", "A → B 差异";
    CodeDiffHint => "Lines only in A are marked −, lines only in B +.", "只在 A 中的行标为 −，只在 B 中的行标为 +。";
    Settings => "Settings", "设置";
    Group => "group", "分组";
    Dropped => "dropped by predicate", "被 predicate 丢弃";
    Running => "Running", "运行中";
    OomKilled => "OOMKilled", "OOMKilled";
    WaitingForCacheSync => "waiting for cache sync", "等待缓存同步";
    CrashLoop => "CrashLoopBackOff", "CrashLoopBackOff";
    SkipToContent => "Skip to the pipeline", "跳到处理管线";
    Panels => "Panels", "面板";
    PageActions => "Page", "页面";
    Charts => "Charts", "图表";
    Footer => "client-go · controller-runtime · kube-apiserver, simulated", "模拟的 client-go · controller-runtime · kube-apiserver";
}

/// Formats a speed as `0.1×`, `10×`, `10 000×`.
pub fn format_speed(speed: f64) -> String {
    if speed < 1.0 {
        format!("{speed:.1}×")
    } else {
        let n = speed.round() as u64;
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push('\u{202f}');
            }
            out.push(c);
        }
        out.push('×');
        out
    }
}

/// A preset's title in `lang`: the scenario's own (English) title, or its Chinese translation.
pub fn preset_title(preset: &str, english: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return english.to_owned();
    }
    let zh = match preset {
        "eviction-loop" => "驱逐、立即重建、再被驱逐：节点内存压力循环",
        "finalizer-deadlock" => {
            "operator 崩溃循环时的 finalizer：DataJob 和命名空间卡在 Terminating"
        }
        "finalizer-unsafe" => "清理失败仍移除 finalizer：对象消失，外部资源泄漏",
        "fixed" => "种子文章的全部修复",
        "flywheel" => "死亡飞轮",
        "idempotent-status" => "幂等的 status：无变化写入规则让循环停下",
        "list-full-scan-small" => "同样的全量扫描，只有 300 个 Pod：索引无关紧要",
        "list-full-scan" => "List 全部 Pod 再在内存中过滤：5 万 Pod 的缓存、秒级 p99、OOMKilled",
        "listener-backlog" => "handler 慢于事件速率：listener 缓冲区一直增长直到 OOM",
        "log-whole-object" => "记录带 100+ 条件的整个对象：每次 Reconcile 数 MB，GC CPU 上升",
        "no-context-timeout" => "外部调用没有超时：worker 挂起，队列堆满",
        "observed-generation-only" => "只用修复 3：ObservedGeneration 守卫",
        "predicate-only" => "只用修复 2：GenerationChangedPredicate",
        "seed-000-incident" => "seed-000 事故：15 万个对象、429、OOMKilled、CrashLoopBackOff",
        "subresource+observed-generation" => "/status 子资源 + ObservedGeneration 守卫",
        "subresource+predicate" => "/status 子资源 + GenerationChangedPredicate",
        "subresource-only" => "只用修复 1：/status 子资源",
        "watch-leak" => "每次 Reconcile 开一个 watch 且从不停止：goroutine 和流缓冲直到 OOM",
        _ => return english.to_owned(),
    };
    zh.to_owned()
}

/// The narration of a preset: what to watch for, why it happens, which upstream rule causes it.
/// `None` for a preset without one (the page then shows the scenario's own summary).
pub fn narration(preset: &str, lang: Lang) -> Option<&'static str> {
    let (en, zh) = match preset {
        "flywheel" => (
            "Watch the orange loop edge. Reconcile sets status.lastUpdated and sends the whole object \
             with Update. The CRD has no /status subresource, so the API server treats status like \
             spec: resourceVersion and generation go up on every write. The operator's own informer \
             receives that MODIFIED event, no predicate filters it, and the key goes straight back \
             into the workqueue. Requests/s and reconciles/s never fall, the self-triggered counter \
             grows without end. Rule: without the status subresource, a CR is versioned as one \
             document (apiextensions-apiserver, customresource strategy).",
            "注意橙色的回环边。Reconcile 设置 status.lastUpdated 并用 Update 发送整个对象。\
             CRD 没有 /status 子资源，API server 把 status 当作 spec 一样对待：每次写入都会增加 \
             resourceVersion 和 generation。operator 自己的 informer 收到这条 MODIFIED 事件，\
             没有 predicate 过滤，key 立刻又回到 workqueue。请求/秒和 Reconcile/秒不会下降，\
             自触发计数无限增长。规则：没有 status 子资源时，CR 作为一个整体文档计版本\
             （apiextensions-apiserver 的 customresource 策略）。",
        ),
        "subresource-only" => (
            "The CRD now has /status and Reconcile writes with Status().Update. Status writes no \
             longer bump generation, but they still bump resourceVersion, so every write still \
             comes back as a watch event and re-queues the key. With a timestamp in status each \
             write differs from the last, so the loop keeps turning at the same pace. The subresource \
             alone is not a fix: something must also drop the operator's own events.",
            "CRD 现在有 /status，Reconcile 用 Status().Update 写入。status 写入不再增加 generation，\
             但仍会增加 resourceVersion，所以每次写入依然以 watch 事件返回并让 key 重新入队。\
             status 里有时间戳，每次写入都和上一次不同，循环以同样的速度继续转动。\
             仅有子资源并不能修复问题：还需要丢弃 operator 自己产生的事件。",
        ),
        "predicate-only" => (
            "GenerationChangedPredicate drops update events whose metadata.generation did not \
             change. But without /status, the status write itself bumps generation, so the \
             predicate lets every one of them through: watch the gate stay open. A predicate only \
             helps when status writes leave generation alone (controller-runtime \
             pkg/predicate/predicate.go).",
            "GenerationChangedPredicate 会丢弃 metadata.generation 未变化的更新事件。\
             但没有 /status 时，status 写入本身就会增加 generation，所以 predicate 放行了每一个事件：\
             看，闸门一直是开的。只有当 status 写入不改变 generation 时 predicate 才有用\
             （controller-runtime pkg/predicate/predicate.go）。",
        ),
        "observed-generation-only" => (
            "Reconcile returns early when status.observedGeneration equals generation. Without \
             /status, writing observedGeneration bumps generation again, so the guard never \
             matches: the next reconcile sees a newer generation and writes once more. The guard \
             chases a number that its own write moves.",
            "当 status.observedGeneration 等于 generation 时 Reconcile 会提前返回。\
             没有 /status 时，写入 observedGeneration 又会增加 generation，守卫永远不会命中：\
             下一次 Reconcile 看到更新的 generation，又写一次。守卫在追逐一个被自己的写入推动的数字。",
        ),
        "subresource+predicate" => (
            "The usual fix. Status writes go to /status and leave generation alone, and \
             GenerationChangedPredicate drops the resulting events at the gate (watch the tokens \
             stop there). After the first pass over the objects, the queue drains and the operator \
             goes quiet until someone edits a spec, which bumps generation and passes the gate.",
            "常见的修复方式。status 写入走 /status，不改变 generation，GenerationChangedPredicate \
             在闸门处丢弃由此产生的事件（看令牌停在那里）。第一次处理完所有对象后，队列清空，\
             operator 安静下来，直到有人修改 spec：generation 增加，事件通过闸门。",
        ),
        "subresource+observed-generation" => (
            "Status writes go to /status, and Reconcile records observedGeneration and returns \
             early when it already handled this generation. The operator's own events still reach \
             the workqueue (no predicate), but each such reconcile stops at the guard without \
             writing, so the loop breaks after one extra pass.",
            "status 写入走 /status，Reconcile 记录 observedGeneration，如果已处理过当前 generation \
             就提前返回。operator 自己的事件仍会进入 workqueue（没有 predicate），\
             但这类 Reconcile 在守卫处停止、不再写入，循环在多一轮之后就断开了。",
        ),
        "fixed" => (
            "Every fix at once: /status subresource, Status().Patch (a merge patch without \
             resourceVersion, so no 409 conflicts), GenerationChangedPredicate and the \
             ObservedGeneration guard. The timestamp stays in status and does no harm: its write \
             no longer comes back as work. Each object is reconciled once; the only later work is \
             the spec edit at 5 minutes. This is what a well-behaved operator looks like here.",
            "所有修复同时启用：/status 子资源、Status().Patch（不带 resourceVersion 的合并补丁，\
             不会出现 409 冲突）、GenerationChangedPredicate 和 ObservedGeneration 守卫。\
             status 里的时间戳仍然保留，但已无害：它的写入不再变成新的工作。每个对象只 Reconcile \
             一次；之后唯一的工作是第 5 分钟的 spec 修改。这就是一个行为良好的 operator 的样子。",
        ),
        "idempotent-status" => (
            "No fix at all, except that status carries no timestamp: Reconcile writes the same \
             status every time. The first write changes the object, the second one sends identical \
             bytes, and the API server skips a no-op update without bumping resourceVersion, so no \
             watch event follows and the loop stops by itself. Any value that changes on every \
             write (a timestamp, a counter) restarts the flywheel. Note that metav1.Time keeps \
             whole seconds: a timestamp changes only when a cycle spans a second boundary.",
            "没有任何修复，只是 status 中没有时间戳：Reconcile 每次写入相同的 status。\
             第一次写入改变了对象，第二次发送的内容完全相同，API server 会跳过这种无变化的更新，\
             不增加 resourceVersion，因此没有 watch 事件，循环自行停止。任何每次写入都会变化的值\
             （时间戳、计数器）都会让飞轮重新转起来。注意 metav1.Time 只精确到秒：\
             只有当一轮跨过整秒时，时间戳才会变化。",
        ),
        "seed-000-incident" => (
            "The flywheel at production scale: 150 000 objects, 200 workers and a client whose QPS \
             limit was raised. Each start first lists every object and waits for the cache to sync \
             (watch the workers box): the DeltaFIFO holds the whole list, then the workqueue fills \
             with 150k keys before the first Reconcile. Then the workers write faster than the \
             informer's single loop can take the events back: adds run past 5000/s, APF answers 429, \
             deltas pile up in the DeltaFIFO and RSS climbs until the kernel kills the container at \
             the 1700Mi limit. At the kill most of the heap is the cache, not the FIFO (see Myth vs \
             upstream). CrashLoopBackOff waits 10 s, 20 s, 40 s… and every restart starts the storm \
             again. Try the fixes: the sync still costs memory, but the loop never starts.",
            "生产规模的死亡飞轮：15 万个对象、200 个 worker，以及被调高了 QPS 限制的客户端。\
             每次启动都先 List 全部对象并等待缓存同步（看 worker 方框）：DeltaFIFO 先装下整个列表，\
             然后在第一次 Reconcile 之前 workqueue 被 15 万个 key 填满。之后 worker 写入的速度超过了 \
             informer 唯一的处理循环把事件取回的速度：每秒入队超过 5000 次，APF 返回 429，delta 在 \
             DeltaFIFO 里堆积，RSS 不断上涨，直到在 1700Mi 的限制处被内核杀掉。被杀时堆的大头是缓存，\
             而不是 FIFO（见“传言与上游代码”）。CrashLoopBackOff 依次等待 10 秒、20 秒、40 秒……每次重启风暴\
             都会重来。试试打开修复：同步仍然占内存，但循环不会再开始。",
        ),
        "list-full-scan" => (
            "Reconcile asks the cache for every Pod and keeps the four it owns. That first List of \
             Pods makes controller-runtime start a Pod informer for the whole cluster: the initial \
             LIST decodes 50 000 Pods (about 800 MiB), and every reconcile waits for it, over 15 \
             seconds. Then each List deep-copies all 50 000 Pods again. The cache plus one copy \
             fills most of the 2Gi limit, the garbage of the next copy crosses it, and the kernel \
             kills the container; after the restart the informer lists everything again. Try \
             code.pod_list = field_index (List with MatchingFields on the owner) together with \
             cache.namespaced (DefaultNamespaces): a few Pods copied, a few thousand cached, a \
             heap in the hundreds of MB. cache.metadata_only keeps 1 KiB per Pod.",
            "Reconcile 向缓存要全部 Pod，再从中挑出自己拥有的四个。第一次 List Pod 会让 \
             controller-runtime 为整个集群启动一个 Pod informer：初始 LIST 要解码 5 万个 Pod（约 \
             800MiB），每次 Reconcile 都要等它完成，超过 15 秒。之后每次 List 又把 5 万个 Pod \
             深拷贝一遍。缓存加上一份拷贝占满了 2Gi limit 的大部分，下一份拷贝的垃圾就会越过它，\
             内核杀掉容器；重启后 informer 又要全部重新 List。试试 code.pod_list = field_index\
             （按 owner 用 MatchingFields 查询）再加上 cache.namespaced（DefaultNamespaces）：\
             只拷贝几个 Pod，只缓存几千个，堆内存保持在几百 MB。cache.metadata_only 让每个 Pod \
             只占 1KiB。",
        ),
        "list-full-scan-small" => (
            "The same Reconcile on a cluster with 300 Pods. Listing all of them copies under 5 MiB \
             and takes milliseconds; the cache is just as small. Switch on the field index and \
             almost nothing changes: p99 and memory stay where they were. The full scan is not \
             wrong because of the code alone, it is wrong because its cost grows with the cluster, \
             not with the operator's own objects. That is why it passes every test on a laptop and \
             fails in production.",
            "同样的 Reconcile，运行在只有 300 个 Pod 的集群上。List 全部 Pod 拷贝不到 5MiB，\
             只需几毫秒；缓存也同样小。打开字段索引几乎没有变化：p99 和内存都和原来一样。全量扫描\
             的问题不在代码本身，而在于它的代价随集群规模增长，而不是随 operator 自己的对象增长。\
             所以它在笔记本上能通过所有测试，到了生产环境就会出问题。",
        ),
        "finalizer-deadlock" => (
            "The DataJobs carry a finalizer, and the operator is crash-looping on the full Pod \
             scan. At 1 minute ten namespaces are deleted: the namespace controller deletes the \
             DataJobs inside, which only sets their deletionTimestamp, because the finalizer is \
             still there. Nobody removes it, so the objects and their namespaces stay Terminating: \
             watch the terminating counters sit still while the pod restarts. At 5 minutes the \
             memory limit is raised and the operator stays up, yet each live DataJob still costs a \
             full scan, so the queue reaches the deleting ones late. Then the safe state machine \
             drains them: cleanup first, the finalizer only after it succeeded, failures and 409s \
             retried. Nothing leaks.",
            "DataJob 带有 finalizer，而 operator 正因全量扫描 Pod 而不断崩溃重启。第 1 分钟删除了 \
             10 个命名空间：命名空间控制器删除其中的 DataJob，但由于 finalizer 还在，这只会设置 \
             deletionTimestamp。没有人移除 finalizer，于是这些对象和它们的命名空间一直处于 \
             Terminating：看，Pod 不断重启时，Terminating 计数纹丝不动。第 5 分钟内存 limit 被调高，\
             operator 不再崩溃，但每个未删除的 DataJob 仍要做一次全量扫描，队列要过很久才轮到正在\
             删除的对象。之后安全的状态机把它们清空：先清理，清理成功后才移除 finalizer，失败和 409 \
             都会重试。没有任何资源泄漏。",
        ),
        "finalizer-unsafe" => (
            "All 200 DataJobs are deleted at 30 seconds. This Reconcile removes its finalizer even \
             when the external cleanup failed, so every object disappears on time, and about a \
             third of what they held outside the cluster is never cleaned up: the leaked counter \
             climbs. Switch code.finalizer to safe: a failed cleanup returns its error, the \
             finalizer stays, the key is retried with backoff until the cleanup succeeds, and the \
             leak counter stays at zero. The objects simply go a few seconds later.",
            "全部 200 个 DataJob 在第 30 秒被删除。这个 Reconcile 即使外部清理失败也会移除 \
             finalizer，于是每个对象都按时消失，但它们在集群外持有的资源约有三分之一永远没有被清理：\
             泄漏计数不断上升。把 code.finalizer 切换为 safe：清理失败时返回错误，finalizer 保留，\
             key 带退避重试直到清理成功，泄漏计数保持为零。对象只是晚几秒消失。",
        ),
        "watch-leak" => (
            "Every reconcile opens a watch on the custom resources and returns without calling \
             Stop. Each forgotten watch keeps two goroutines, and since nobody reads it, the API \
             server's events pile up in its HTTP/2 stream until the 4 MiB window is full. Ten \
             reconciles a second means ten more watches a second: go_goroutines climbs into the \
             thousands and the heap, owned by watch buffers, grows until the container is \
             OOMKilled. Switch on code.stop_watch (defer w.Stop()): goroutines stay flat. Better \
             still, read through the manager's shared informer.",
            "每次 Reconcile 都会对自定义资源打开一个 watch，返回时却不调用 Stop。每个被遗忘的 watch \
             都占着两个 goroutine，而且因为没人读取，API server 发来的事件会堆积在它的 HTTP/2 流里，\
             直到 4MiB 的窗口被填满。每秒 10 次 Reconcile 就是每秒多 10 个 watch：go_goroutines \
             涨到数千，由 watch 缓冲区占用的堆不断增长，直到容器被 OOMKilled。打开 \
             code.stop_watch（defer w.Stop()）：goroutine 数量保持平稳。更好的做法是通过 manager 的\
             共享 informer 读取。",
        ),
        "listener-backlog" => (
            "Another controller sends 1 000 updates a second, and this event handler needs two \
             milliseconds for each. The informer's own loop keeps up, so the FIFO stays nearly \
             empty; the backlog forms in the handler's notification buffer, a ring that doubles \
             whenever it is full and never shrinks. It gains 500 objects a second, the \
             heap owner handler_buffers grows, and the operator is OOMKilled. This is the real \
             mechanism behind 'the DeltaFIFO is full of deltas'. Set controller.handler_cost to \
             20us: a handler should only filter and enqueue a key; the work belongs in Reconcile.",
            "另一个控制器每秒发出 1000 次更新，而这个事件 handler 处理每个事件需要 2 毫秒。\
             informer 自己的循环跟得上，所以 FIFO 几乎是空的；积压出现在 handler 的通知缓冲区里，\
             这是一个满了就翻倍、从不收缩的环形缓冲区。它每秒多出 500 个对象，handler_buffers \
             占用的堆不断增长，operator 被 OOMKilled。这才是“DeltaFIFO 里塞满了 delta”背后真正的\
             机制。把 controller.handler_cost 设为 20us：handler 只应该过滤并把 key 入队，\
             真正的工作应放在 Reconcile 里。",
        ),
        "log-whole-object" => (
            "The objects carry 120 status conditions, 256 KiB each, and Reconcile logs the whole \
             object at each of its 16 phases. The logger encodes it by reflection every time, \
             about four times its size in short-lived garbage: 16 MiB per reconcile. The live \
             heap barely moves, but the allocation rate makes the GC run hundreds of times and \
             take CPU from every reconcile. Switch code.log to counts: log the number of \
             conditions, not the object, and the GC goes quiet.",
            "这些对象带有 120 个 status condition，每个 256KiB，而 Reconcile 在 16 个阶段中的每一个\
             都把整个对象写进日志。日志库每次都通过反射编码它，产生约四倍于对象大小的短命垃圾：\
             每次 Reconcile 16MiB。存活的堆几乎不变，但分配速率让 GC 运行数百次，从每次 Reconcile \
             里抢走 CPU。把 code.log 切换为 counts：只记录 condition 的数量而不是整个对象，\
             GC 就安静下来了。",
        ),
        "no-context-timeout" => (
            "Reconcile calls a backend without a deadline, and one call in a hundred is accepted \
             but never answered. Such a call holds its worker for as long as the server keeps the \
             connection. Watch the active workers climb to ten and stay there: reconciles stop, \
             every key waits in the workqueue, and the hung connections keep their goroutines. Set \
             code.external_timeout to 5s: the call runs under context.WithTimeout, fails after five \
             seconds, and Reconcile returns RequeueAfter so the object is tried again later while \
             the workers keep moving.",
            "Reconcile 调用一个没有截止时间的后端，每一百次调用中有一次被接受却永远得不到应答。\
             这样的调用会一直占着它的 worker，直到服务器放弃连接为止。看，活跃 worker 涨到 10 个后\
             就不再下降：Reconcile 停止，所有 key 都在 workqueue 里等待，挂起的连接也占着它们的 \
             goroutine。把 code.external_timeout 设为 5s：调用在 context.WithTimeout 下进行，\
             五秒后失败，Reconcile 返回 RequeueAfter，稍后再试，worker 则继续运转。",
        ),
        "eviction-loop" => (
            "Four Pods request 256 MiB but use 1 GiB once warmed up, on a Node whose other \
             workloads already use 12 of its 16 GiB. memory.available drops below the kubelet's \
             100Mi threshold: the node reports MemoryPressure, the node lifecycle controller taints \
             it memory-pressure:NoSchedule, and the eviction manager evicts the Pod furthest above \
             its request. The operator recreates it at once with spec.nodeName set to that Node, \
             so the scheduler and its taint filter are never asked; the kubelet admits it because \
             it is Burstable (only BestEffort Pods are turned away under memory pressure), it warms \
             up, and is evicted again. Set code.placement to scheduler: the new Pod does not \
             tolerate the taint and stays Pending until the condition clears, five minutes after \
             the last pressure. code.check_memory_pressure does the same from inside Reconcile. The \
             lasting fix is requests that match real usage.",
            "四个 Pod 的内存 request 是 256MiB，预热后却要用 1GiB，而节点 16GiB 内存中已有 12GiB \
             被其他负载占用。memory.available 跌破 kubelet 的 100Mi 阈值：节点报告 MemoryPressure，\
             节点生命周期控制器给它打上 memory-pressure:NoSchedule 污点，驱逐管理器驱逐超出 request \
             最多的 Pod。operator 立刻重建 Pod，并把 spec.nodeName 直接设成这个节点，调度器和它的污点\
             过滤根本没有参与；kubelet 的准入只拒绝 BestEffort Pod，这个 Pod 是 Burstable，于是被接纳，\
             预热后再次被驱逐。把 code.placement 改成 scheduler：新 Pod 不容忍该污点，一直 Pending，\
             直到最后一次压力五分钟后条件解除。code.check_memory_pressure 则在 Reconcile 里做同样的\
             等待。根本的修复是让 request 与真实用量相符。",
        ),
        _ => return None,
    };
    Some(match lang {
        Lang::En => en,
        Lang::Zh => zh,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_has_a_chinese_title() {
        for name in flywheel_engine::scenario::presets::names() {
            let zh = preset_title(name, "untranslated", Lang::Zh);
            assert_ne!(zh, "untranslated", "{name} has no Chinese title");
            assert_eq!(preset_title(name, "English", Lang::En), "English");
        }
    }

    #[test]
    fn languages_parse_from_browser_tags() {
        assert_eq!(Lang::parse("zh-CN"), Some(Lang::Zh));
        assert_eq!(Lang::parse("ZH"), Some(Lang::Zh));
        assert_eq!(Lang::parse("en-GB"), Some(Lang::En));
        assert_eq!(Lang::parse("fr"), None);
        assert_eq!(Lang::from_browser(&["fr".into(), "zh-TW".into()]), Lang::Zh);
        assert_eq!(Lang::from_browser(&[]), Lang::En);
    }

    #[test]
    fn speeds_are_short() {
        assert_eq!(format_speed(0.1), "0.1×");
        assert_eq!(format_speed(100.0), "100×");
        assert_eq!(format_speed(10_000.0), "10\u{202f}000×");
    }
}
