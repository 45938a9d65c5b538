//! The page's text in English and 简体中文: every label is a [`Msg`], written here and served as
//! a data file per language (`www/text/labels.<lang>.txt`, written from this table by a test; see
//! [`crate::texts`]). The page fetches its language's file before its first render, so the labels
//! are not in the WebAssembly; the same file carries every setting's label and help after the
//! messages ([`setting_words`]). The language follows the browser unless the URL or the switch
//! says otherwise.

use std::cell::Cell;
use std::fmt;

use flywheel_engine::float_text::Fixed;
use flywheel_engine::scenario::presets::{self, PRESET_NAMES};
use flywheel_engine::settings::{Setting, SETTINGS};

use crate::params::LOGIC_KEY;
use crate::texts::TextFile;

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

            /// The text in `lang` as written in this table: what the labels file of `lang`
            /// holds (the page itself reads the fetched file, through [`Msg::text`]).
            pub fn source(self, lang: Lang) -> &'static str {
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

impl Msg {
    /// The text in `lang`. In the browser it comes from the fetched labels file (the other
    /// language's while `lang`'s is on its way, empty before any arrived); natively from
    /// [`Msg::source`].
    pub fn text(self, lang: Lang) -> &'static str {
        if cfg!(target_arch = "wasm32") {
            loaded(self, lang)
        } else {
            self.source(lang)
        }
    }
}

type Table = &'static [&'static str];

thread_local! {
    static TABLES: [Cell<Option<Table>>; 2] = const { [Cell::new(None), Cell::new(None)] };
}

fn lang_index(lang: Lang) -> usize {
    match lang {
        Lang::En => 0,
        Lang::Zh => 1,
    }
}

/// How many lines a labels file has: one per message, then a label and a help per setting of the
/// registry, in its order.
pub fn label_count() -> usize {
    Msg::ALL.len() + 2 * SETTINGS.len() + 2 * PRESET_NAMES.len()
}

/// Makes a labels file what [`Msg::text`] and [`setting_words`] return for `lang`; an error unless
/// it has [`label_count`] lines. Each language's table is kept for the page's life.
pub fn install(lang: Lang, file: &TextFile) -> Result<(), String> {
    let texts: Vec<&str> = file.entries().map(|(_, text)| text).collect();
    if texts.len() != label_count() {
        return Err(format!(
            "{} labels, {} expected",
            texts.len(),
            label_count()
        ));
    }
    let kept: Vec<&'static str> = texts
        .into_iter()
        .map(|t| &*Box::leak(t.to_owned().into_boxed_str()))
        .collect();
    let table: Table = Box::leak(kept.into_boxed_slice());
    TABLES.with(|t| t[lang_index(lang)].set(Some(table)));
    Ok(())
}

/// The installed text of `msg` in `lang`, else in the other language, else empty.
fn loaded(msg: Msg, lang: Lang) -> &'static str {
    loaded_line(msg as usize, lang)
}

/// The installed line `line` of the labels in `lang`, else in the other language, else empty.
fn loaded_line(line: usize, lang: Lang) -> &'static str {
    TABLES.with(|t| {
        t[lang_index(lang)]
            .get()
            .or_else(|| t[lang_index(lang.other())].get())
            .and_then(|table| table.get(line).copied())
            .unwrap_or("")
    })
}

/// A setting's label and help in `lang`. In the browser they come from the fetched labels file
/// (two lines per setting after the messages), natively from the registry's words; the
/// heavy-logic time, which is not in the registry, has its own messages.
pub fn setting_words(setting: &Setting, lang: Lang) -> (&'static str, &'static str) {
    if setting.path == LOGIC_KEY {
        return (Msg::HeavyLogic.text(lang), Msg::HeavyLogicHelp.text(lang));
    }
    if cfg!(target_arch = "wasm32") {
        let Some(i) = setting.index() else {
            return ("", "");
        };
        let first = Msg::ALL.len() + 2 * i;
        (loaded_line(first, lang), loaded_line(first + 1, lang))
    } else {
        source_words(setting, lang)
    }
}

/// A setting's label and help in `lang` from the registry (what the labels file is written from).
pub fn source_words(setting: &Setting, lang: Lang) -> (&'static str, &'static str) {
    setting.words().map_or(("", ""), |w| match lang {
        Lang::En => (w.label.en, w.help.en),
        Lang::Zh => (w.label.zh, w.help.zh),
    })
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
    HeavyLogicHelp => "How long the Reconcile's heavy-logic step takes, in milliseconds",
        "Reconcile 中重逻辑步骤的耗时（毫秒）";
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
    Timeline => "Timeline", "时间线";
    TimelineValue => "{now} s of {end} s", "{now} 秒 / 共 {end} 秒";
    TimelineAfter => "after {}", "{}之后";
    MarkFirst429 => "the first 429", "首次 429";
    MarkOomKilled => "OOMKilled", "OOMKilled";
    MarkRestart => "a restart", "一次重启";
    Seeking => "Going to {} s…", "正在前往第 {} 秒…";
    CancelSeek => "Cancel", "取消";
    Parting => "A and B part at {t} s — {what}", "A 与 B 在第 {t} 秒分开 —— {what}";
    PartingEvents => "A and B part at {t} s: their events differ", "A 与 B 在第 {t} 秒分开：两边的事件不同";
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
    EmbedScenario => "Scenario", "场景";
    EmbedFixes => "A's fixes (tokens; empty: the preset's)", "A 的修复（标记；留空则用预设的）";
    EmbedFixesRefused => "Not a list of fix tokens: sub, update, status-update, status-patch, patch, pred, guard, ts", "不是修复标记列表：sub、update、status-update、status-patch、patch、pred、guard、ts";
    EmbedInstant => "Instant (simulated s; empty: from the start)", "时刻（模拟秒；留空则从头开始）";
    EmbedInstantRefused => "Seconds from 0 to 1000000", "应为 0 到 1000000 之间的秒数";
    EmbedTour => "Tour", "导览";
    EmbedStep => "Step", "步骤";
    EmbedHeight => "Height (px; empty: what the layout needs)", "高度（像素；留空则按布局所需）";
    EmbedAutoplay => "Plays on load", "加载后自动播放";
    EmbedLanguage => "Language", "语言";
    EmbedReaderLanguage => "the reader's browser's", "随读者浏览器";
    EmbedForm => "Paste as", "粘贴格式";
    EmbedFormHtml => "HTML iframe", "HTML 内嵌框架";
    EmbedFormMdx => "MDX (Docusaurus)", "MDX（Docusaurus）";
    EmbedFormMarkdown => "Markdown raw HTML block (MkDocs)", "Markdown 原始 HTML 块（MkDocs）";
    EmbedPreview => "Preview", "预览";
    CopySelected => "Selected: press Ctrl+C", "已选中：请按 Ctrl+C";
    SizeIt => "Size it: your cluster's numbers", "估算：代入你的集群的数字";
    SizeHint => "Empty keeps the preset's value (shown grey). Sizes like 512Mi or 2Gi. The engine runs these numbers for a minute of simulated time.", "留空则沿用预设的值（灰色显示）。大小写作 512Mi 或 2Gi。引擎用这些数字运行约一分钟的模拟时间。";
    SizeCustomCount => "Custom resources", "自定义资源数量";
    SizeCustomSize => "Average custom resource size", "自定义资源平均大小";
    SizePodCount => "Pods", "Pod 数量";
    SizePodSize => "Average Pod size", "Pod 平均大小";
    SizeNamespaces => "Namespaces", "命名空间数";
    SizeWorkers => "Workers", "工作协程数";
    SizeQps => "Client QPS", "客户端 QPS";
    SizeLimit => "Memory limit", "内存上限";
    SizeRun => "Run these numbers", "运行这些数字";
    SizeCancel => "Cancel", "取消";
    SizeRunning => "Running", "运行中";
    SizeNotWhole => "A whole number", "应为整数";
    SizeNotSize => "A size such as 512Mi or 2Gi", "应为大小，例如 512Mi 或 2Gi";
    SizeNotNumber => "A number", "应为数字";
    SizeFirstList => "First LIST", "首次 LIST";
    SizeObjects => "objects", "个对象";
    SizeCacheSync => "Caches synced after", "缓存同步耗时";
    SizeNotSynced => "not within the run", "运行期间未同步";
    SizePodCache => "Pods in the Pod cache", "Pod 缓存中的 Pod";
    SizeHeapByOwner => "Heap by owner before the relist", "重新 LIST 前按归属划分的堆内存";
    SizeSteadyRss => "Steady RSS", "稳定 RSS";
    SizeRelistSpike => "Relist spike", "重新 LIST 带来的 RSS 增量";
    SizeSteadyQps => "Steady request rate", "稳定请求速率";
    SizePerSecond => "req/s", "次/秒";
    SizePeak => "Peak RSS / limit", "RSS 峰值 / 上限";
    SizeNoLimit => "no limit", "无上限";
    SizeCrossed => "Limit crossed: OOMKilled", "超过上限：OOMKilled";
    SizeWithin => "Within the limit", "未超过上限";
    SizeOpen => "Open as scenario", "作为场景打开";
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
    KeyColon => "the command bar (kubectl)", "命令栏（kubectl）";
    KeyPresenter => "presenter mode; in it B blanks the screen, F goes full screen", "演示模式；其中 B 黑屏，F 全屏";
    KeyTourSteps => "with a tour open: next / previous step", "导览打开时：下一步 / 上一步";
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
    WhyTitle => "Why did this run?", "为什么会运行？";
    WhyEffects => "What did this cause?", "这引发了什么？";
    WhyClose => "Close", "关闭";
    WhyOf => "Reconcile of {key} at {at} s", "{key} 在第 {at} 秒的 Reconcile";
    WhyEffectsOf => "{what} at {at} s, and what followed", "第 {at} 秒的 {what}，及其后果";
    WhyAdds => "{} adds merged by the workqueue into this Reconcile", "工作队列把 {} 次入队合并为这次 Reconcile";
    WhySelf => "Self-triggered: every add descends from this object's previous Reconcile — the operator's own write started it again.", "自我触发：每次入队都源自该对象的上一次 Reconcile——operator 自己的写入再次触发了它。";
    WhyNotSelf => "Not self-triggered: something other than its own write added it.", "非自我触发：是它自己的写入以外的事件把它加入了队列。";
    WhyDelayed => "A delayed add (RequeueAfter or a retry) came due.", "一次延迟入队（RequeueAfter 或重试）到期。";
    WhyFixes => "Fixes that would cut this loop (any one set is enough):", "可切断此循环的修复（任选一组即可）：";
    WhyPeriod => "The loop goes round every {} s.", "循环每 {} 秒转一圈。";
    WhyChain => "Chain {}", "链 {}";
    WhyButton => "Why is this running?", "为什么在运行？";
    WhyLineHint => "Click a line: a RECONCILED line shows why it ran, any other what it caused.", "点击一行：RECONCILED 行显示它为何运行，其他行显示它引发了什么。";
    HopReconcile => "Reconcile of {}", "{} 的 Reconcile";
    HopOwnWrite => "its own write rv={rv} ({verb})", "它自己的写入 rv={rv}（{verb}）";
    HopWrite => "a write rv={rv} ({verb})", "一次写入 rv={rv}（{verb}）";
    HopGeneration => ", generation {a}→{b}", "，generation {a}→{b}";
    HopWatch => "watch event {}", "watch 事件 {}";
    HopDelta => "{} delta(s) popped by the informer", "informer 弹出 {} 个 delta";
    HopSync => "a sync delta (resync, or unchanged in a relist)", "一个 sync delta（resync，或 relist 中未变）";
    HopRelist => "a Replaced delta (relist)", "一个 Replaced delta（relist）";
    HopNoPredicate => "no predicate filters it: added to the workqueue", "没有 predicate 过滤：加入工作队列";
    HopAdmitted => "admitted by {}: added to the workqueue", "{} 放行：加入工作队列";
    HopRequeue => "a requeue (result={})", "重新入队（result={}）";
    HopCreated => "the objects were created", "对象被创建";
    HopList => "a relist (LIST)", "一次 relist（LIST）";
    HopFellOut => "… older than the events kept", "……早于保留的事件";
    CutPredicate => "GenerationChangedPredicate on the watch", "在 watch 上加 GenerationChangedPredicate";
    CutStatus => "the CRD's /status subresource", "CRD 的 /status 子资源";
    CutGuard => "write status only when observedGeneration differs", "仅在 observedGeneration 不同时写 status";
    CutNoRequeue => "return ctrl.Result{} once converged", "收敛后返回 ctrl.Result{}";
    CutIdempotent => "an idempotent status (no timestamp in it)", "幂等的 status（不含时间戳）";
    CutAnd => " + ", " + ";
    CommandOpen => "kubectl…", "kubectl…";
    CommandLabel => "Act on the cluster (kubectl)", "操作集群（kubectl）";
    CommandHint => "Tab completes · Enter runs · Esc closes", "Tab 补全 · Enter 执行 · Esc 关闭";
    CommandKnown => "Known commands", "可用命令";
    CommandUnknown => "kubectl {}: the command bar does not know this command. It knows get, edit, delete, label, annotate, exec, set, rollout and patch.", "kubectl {}：命令栏不认识这个命令。可用的有 get、edit、delete、label、annotate、exec、set、rollout 和 patch。";
    CommandNotKubectl => "Start with kubectl (for example kubectl get mycrd -w).", "请以 kubectl 开头（例如 kubectl get mycrd -w）。";
    CommandUsage => "Usage: {}", "用法：{}";
    CommandNoObjectOne => "There is no object {key} ({one} is one).", "没有对象 {key}（{one} 是其中之一）。";
    CommandNoObject => "No object is named {}.", "没有名为 {} 的对象。";
    CommandRefused => "The engine refused it: {}", "引擎拒绝了它：{}";
    CommandDone => "Done at {at} s: {what}. A new branch starts there on the timeline.", "已在第 {at} 秒执行：{what}。时间轴上从此处开出一个新分支。";
    CommandEditing => "Editing {}: change its spec with the button under its YAML.", "正在编辑 {}：用 YAML 下方的按钮修改它的 spec。";
    ActTitle => "Act on this object", "操作此对象";
    ActEdit => "Apply a new spec", "应用新的 spec";
    ActLabel => "Label it", "打标签";
    ActDelete => "Delete it", "删除";
    ActOperator => "Act on the operator and the API server", "操作 operator 与 API server";
    ActKill => "Kill the operator's container", "杀死 operator 的容器";
    ActMemory => "Memory limit 128 Mi", "内存上限 128 Mi";
    ActStatusOn => "Add /status to the CRD", "为 CRD 添加 /status";
    ActStatusOff => "Remove /status from the CRD", "从 CRD 移除 /status";
    ActRollout => "Roll out the operator with the fixes", "带着修复发布 operator";
    ActSeats => "API server: 2 seats", "API server：2 个席位";
    Branches => "Branches", "分支";
    LoopPeriod => "a turn every {} s", "每 {} 秒转一圈";
    BranchMain => "the run as it was", "原来的运行";
    BranchOf => "{what} at {at} s", "第 {at} 秒：{what}";
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
    ShowPaths => "Show setting paths", "显示设置路径";
    GroupObjects => "Custom resources", "自定义资源";
    GroupController => "Controller", "控制器";
    GroupClient => "Client", "客户端";
    GroupApiserver => "API server", "API 服务器";
    GroupProcess => "Operator process", "operator 进程";
    GroupCode => "Reconcile code", "Reconcile 代码";
    GroupCache => "Cache", "缓存";
    GroupPods => "Pods", "Pod";
    GroupNodes => "Nodes", "节点";
    GroupRun => "Run", "运行";
    NotSet => "not set", "未设置";
    Rejected => "Not accepted:", "不被接受：";
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
    NarrationLoading => "Loading the narration…", "正在加载讲解…";
    NarrationFailed => "The narration could not be loaded ({}).", "讲解加载失败（{}）。";
    MythsLoading => "Loading the cards…", "正在加载卡片…";
    MythsFailed => "The cards could not be loaded ({}).", "卡片加载失败（{}）。";
    LabelsFailed => "The page's text in this language could not be loaded ({}).", "无法加载该语言的页面文字（{}）。";
    Footer => "client-go · controller-runtime · kube-apiserver, simulated", "模拟的 client-go · controller-runtime · kube-apiserver";
    Tours => "Tours", "导览";
    TourPick => "Choose a tour", "选择导览";
    TourStepOf => "Step {} of {}", "第 {} 步，共 {} 步";
    TourBack => "Back", "上一步";
    TourNext => "Next", "下一步";
    TourClose => "Close the tour", "关闭导览";
    TourRunning => "Running the step…", "正在运行这一步…";
    TourRight => "Right: the run shows it.", "答对了：运行结果正是如此。";
    TourWrong => "Not this time: the run shows something else. A common guess!", "这次没猜中：运行结果不一样。很多人都会这么猜！";
    TourRunShows => "The run shows: {}", "运行结果：{}";
    TourNotReached => "The run did not reach this step's moment within its limit.", "在时限内，运行没有到达这一步的时刻。";
    Presenter => "Presenter", "演示模式";
    PresenterHint => "→ ← PageDown PageUp . step · B blank · F full screen · P leave", "→ ← PageDown PageUp . 翻步 · B 黑屏 · F 全屏 · P 退出";
    Blanked => "The screen is blank. Press B to show it again.", "屏幕已黑屏。按 B 恢复显示。";
}

/// Formats a speed as `0.1×`, `10×`, `10 000×`.
pub fn format_speed(speed: f64) -> String {
    if speed < 1.0 {
        format!("{}×", Fixed(speed, 1))
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

/// A preset's title in `lang` (`preset` itself when it is not a preset). In the browser it comes
/// from the fetched labels file (two lines per preset after the settings' words), natively from
/// the engine's [`presets::words`]: the presets as the page builds them carry no words.
pub fn preset_title(preset: &str, lang: Lang) -> &str {
    let title = preset_line(preset, 0, lang);
    if title.is_empty() {
        preset
    } else {
        title
    }
}

/// A preset's summary (in English in both files: the presets have no other), shown where its
/// narration cannot be; empty for a name that is not a preset.
pub fn preset_summary(preset: &str, lang: Lang) -> &'static str {
    preset_line(preset, 1, lang)
}

/// Line `part` (0 the title, 1 the summary) of `preset`'s words in `lang`.
fn preset_line(preset: &str, part: usize, lang: Lang) -> &'static str {
    let Some(i) = PRESET_NAMES.iter().position(|n| *n == preset) else {
        return "";
    };
    if cfg!(target_arch = "wasm32") {
        loaded_line(Msg::ALL.len() + 2 * SETTINGS.len() + 2 * i + part, lang)
    } else {
        let (title, summary) = source_preset_words(PRESET_NAMES[i], lang);
        [title, summary][part]
    }
}

/// A preset's title in `lang` and its summary, from the engine (what the labels file is written
/// from); empty for a name that is not a preset.
pub fn source_preset_words(preset: &str, lang: Lang) -> (&'static str, &'static str) {
    presets::words(preset).map_or(("", ""), |w| match lang {
        Lang::En => (w.title, w.summary),
        Lang::Zh => (w.title_zh, w.summary),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_has_a_title_in_each_language_and_a_summary() {
        for name in presets::names() {
            let (en, zh) = (preset_title(name, Lang::En), preset_title(name, Lang::Zh));
            assert!(en != name && !en.is_empty(), "{name} has an English title");
            assert!(zh != name && zh != en, "{name} has a Chinese title: {zh}");
            assert!(!preset_summary(name, Lang::Zh).is_empty(), "{name}");
        }
        assert_eq!(
            preset_title("mine", Lang::Zh),
            "mine",
            "a name that is not a preset"
        );
        assert_eq!(preset_summary("mine", Lang::En), "");
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
    fn an_installed_labels_file_is_read_by_position_and_the_other_language_stands_in() {
        assert_eq!(loaded(Msg::Tagline, Lang::Zh), "", "nothing installed yet");
        let file: String = (0..label_count())
            .map(|i| format!("{i}\tzh {i}\n"))
            .collect();
        let file = TextFile::parse(&file).expect("a line per message");
        install(Lang::Zh, &file).expect("complete");
        assert_eq!(loaded(Msg::Scenario, Lang::Zh), "zh 1");
        assert_eq!(
            loaded(Msg::Scenario, Lang::En),
            "zh 1",
            "English not installed yet"
        );
        let short = TextFile::parse("Tagline\tonly one\n").expect("parses");
        assert_eq!(
            install(Lang::En, &short),
            Err(format!("1 labels, {} expected", label_count()))
        );
    }

    #[test]
    fn messages_are_numbered_in_declaration_order() {
        for (i, m) in Msg::ALL.iter().enumerate() {
            assert_eq!(*m as usize, i, "{m:?}");
        }
    }

    #[test]
    fn speeds_are_short() {
        assert_eq!(format_speed(0.1), "0.1×");
        assert_eq!(format_speed(100.0), "100×");
        assert_eq!(format_speed(10_000.0), "10\u{202f}000×");
    }
}
