//! The words drawn on the pipeline, in English and 简体中文. Names from the code (Reflector,
//! DeltaFIFO, Indexer, workqueue, Reconcile, API server, watch, predicate) stay as they are.

use crate::i18n::Lang;

/// A word or phrase of the pipeline drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Word {
    /// The operator pod's frame label.
    OperatorPod,
    /// Go heap.
    Heap,
    /// The memory limit.
    Limit,
    /// The reflector holds a watch.
    Watching,
    /// `rev` before the revision.
    Rev,
    /// Keys in the FIFO (`{}`) and deltas (`{}`).
    KeysDeltas,
    /// The cache has synced.
    Synced,
    /// The cache is still syncing.
    Syncing,
    /// The handlers box.
    Handlers,
    /// No predicate on the watch.
    NoPredicate,
    /// `{}` predicates.
    Predicates,
    /// `{}` notifications buffered.
    Buffered,
    /// `{}` keys ready and `{}` waiting.
    QueuedWaiting,
    /// `{}` keys being processed.
    Processing,
    /// The workers box.
    Workers,
    /// The workers' line while they run.
    Concurrency,
    /// The priority queue.
    PriorityQueue,
    /// etcd's revision.
    EtcdRevision,
    /// `{}` objects.
    Objects,
    /// `{}` requests in flight.
    InFlight,
    /// A LIST after a restart or a 410.
    Relist,
    /// `{}` (the HTTP verb) writes back.
    Write,
    /// The write edge when Reconcile writes no status.
    WriteBack,
    /// The loop edge's meaning.
    OwnWriteOwnEvent,
}

impl Word {
    /// The text in `lang`; `{}` marks where a number or name goes.
    pub fn text(self, lang: Lang) -> &'static str {
        let (en, zh) = match self {
            Word::OperatorPod => ("operator pod", "operator Pod"),
            Word::Heap => ("heap", "堆"),
            Word::Limit => ("limit", "上限"),
            Word::Watching => ("watching", "监听中"),
            Word::Rev => ("rev", "修订号"),
            Word::KeysDeltas => ("{} keys · {} deltas", "{} 个 key · {} 个 delta"),
            Word::Synced => ("synced", "已同步"),
            Word::Syncing => ("syncing", "同步中"),
            Word::Handlers => ("handlers", "handler"),
            Word::NoPredicate => ("no predicate", "无 predicate"),
            Word::Predicates => ("{} predicate(s)", "{} 个 predicate"),
            Word::Buffered => ("{} buffered", "缓冲 {}"),
            Word::QueuedWaiting => ("{} queued · {} waiting", "就绪 {} · 等待 {}"),
            Word::Processing => ("{} processing", "处理中 {}"),
            Word::Workers => ("workers", "worker"),
            Word::Concurrency => ("concurrency", "并发"),
            Word::PriorityQueue => ("priority queue", "优先级队列"),
            Word::EtcdRevision => ("etcd revision", "etcd 修订号"),
            Word::Objects => ("{} objects", "{} 个对象"),
            Word::InFlight => ("{} in flight", "在途 {}"),
            Word::Relist => ("LIST (relist)", "LIST（重新列举）"),
            Word::Write => ("{} (write)", "{}（写入）"),
            Word::WriteBack => ("write", "写入"),
            Word::OwnWriteOwnEvent => ("own write → own event", "自己的写入 → 自己的事件"),
        };
        match lang {
            Lang::En => en,
            Lang::Zh => zh,
        }
    }

    /// The text with its `{}` filled in order by `args`.
    pub fn with(self, lang: Lang, args: &[&dyn std::fmt::Display]) -> String {
        let mut out = String::new();
        let mut parts = self.text(lang).split("{}");
        if let Some(first) = parts.next() {
            out.push_str(first);
        }
        for (i, part) in parts.enumerate() {
            if let Some(a) = args.get(i) {
                out.push_str(&a.to_string());
            }
            out.push_str(part);
        }
        out
    }
}

/// The reflector's state (`listing`, `backoff`, …) in `lang`.
pub fn reflector_state(state: &str, lang: Lang) -> String {
    let zh = match state {
        "idle" => "空闲",
        "listing" => "列举中",
        "watching" => "监听中",
        "backoff" => "退避中",
        "watch-backoff" => "watch 退避中",
        "stopped" => "已停止",
        "down" => "未运行",
        other => return other.to_owned(),
    };
    match lang {
        Lang::En => state.to_owned(),
        Lang::Zh => zh.to_owned(),
    }
}

/// A reconcile result (`success`, `error`, `requeue`, `requeue_after`) in `lang`.
pub fn reconcile_result(result: &str, lang: Lang) -> String {
    let zh = match result {
        "success" => "成功",
        "error" => "出错",
        "requeue" => "重新入队",
        "requeue_after" => "延后重新入队",
        other => return other.to_owned(),
    };
    match lang {
        Lang::En => result.to_owned(),
        Lang::Zh => zh.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_fill_in_order() {
        assert_eq!(
            Word::QueuedWaiting.with(Lang::En, &[&3, &4]),
            "3 queued · 4 waiting"
        );
        assert_eq!(
            Word::QueuedWaiting.with(Lang::Zh, &[&3, &4]),
            "就绪 3 · 等待 4"
        );
        assert_eq!(reflector_state("listing", Lang::Zh), "列举中");
        assert_eq!(reconcile_result("success", Lang::En), "success");
    }
}
