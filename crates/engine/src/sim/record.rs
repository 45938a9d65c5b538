//! A trace record: what happened, typed, and the one stable line it reads as.
//!
//! ```text
//!   TraceEvent { time, key, resource_version, kind: EventKind::ApiRequest { verb, code } }
//!        │ write_line(sink)
//!        ├──▶ fmt::Formatter  (Display: `1.250s apiserver PUT default/demo-0 rv=42 code=200`)
//!        └──▶ FNV-1a hasher   (the running trace hash, the same bytes without a String)
//! ```
//!
//! A record is fixed-size and owns no text: the object key is a shared [`Key`], every name a
//! `&'static str` or an enum. The line is written only when someone reads it.

use std::fmt;
use std::time::Duration;

use crate::apiserver::{StatusReason, Verb, WatchEventType};
use crate::key::Key;
use crate::scenario::ActionKind;
use crate::time::SimTime;

/// One traced engine event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceEvent {
    /// When it happened.
    pub time: SimTime,
    /// The object key (`namespace/name`) it concerns, if any.
    pub key: Option<Key>,
    /// The resourceVersion involved, if any.
    pub resource_version: Option<u64>,
    /// What happened, with its typed details.
    pub kind: EventKind,
}

/// Upper bound on a record's size in bytes: a ring of 10 000 records stays under 640 KB.
pub const TRACE_EVENT_MAX_BYTES: usize = 64;

const _: () = assert!(std::mem::size_of::<TraceEvent>() <= TRACE_EVENT_MAX_BYTES);

/// Why the kubelet saw the operator's container terminate (`ContainerStateTerminated.Reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum TerminatedReason {
    /// Killed by the kernel's OOM killer at the cgroup memory limit.
    OOMKilled,
    /// Exited with a non-zero code (a panic, a failed start, a kill).
    Error,
}

impl TerminatedReason {
    /// The reason as the kubelet spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            TerminatedReason::OOMKilled => "OOMKilled",
            TerminatedReason::Error => "Error",
        }
    }
}

/// What happened: one variant per kind of trace line, with the line's details as typed fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// `apiserver <VERB> code=<code>`: the API server answered a request.
    ApiRequest {
        /// The request's verb.
        verb: Verb,
        /// The HTTP status code of the answer.
        code: u16,
    },
    /// `client Retry429 verb=<VERB> attempt=<n>`: client-go sleeps `Retry-After` and retries.
    Retry429 {
        /// The retried request's verb.
        verb: Verb,
        /// Which attempt was refused (1 for the first).
        attempt: u32,
    },
    /// `watch <TYPE> gen=<generation>`: the informer's watch delivered an object.
    WatchEvent {
        /// `ADDED`, `MODIFIED`, `DELETED` or `BOOKMARK`.
        event_type: WatchEventType,
        /// The object's `metadata.generation`.
        generation: i64,
    },
    /// `watch <TYPE> code=<code> reason=<reason>`: the watch ended with a `metav1.Status`.
    WatchError {
        /// `ERROR`.
        event_type: WatchEventType,
        /// The status code (410 when expired).
        code: u16,
        /// The status reason.
        reason: StatusReason,
    },
    /// `informer Pop deltas=<n>`: the informer popped a key's deltas from the DeltaFIFO.
    InformerPop {
        /// How many deltas the key had queued.
        deltas: u32,
    },
    /// `handler Enqueue [own_write=true]`: an event handler added the key to the workqueue.
    HandlerEnqueue {
        /// Whether the event came from the operator's own write.
        own_write: bool,
    },
    /// `handler Dropped predicate=false`: a predicate filtered the event out.
    PredicateDropped,
    /// `worker Reconcile worker=<i>`: a worker got the key and calls `Reconcile`.
    Reconcile {
        /// The worker's index.
        worker: u32,
    },
    /// `controller Reconciled result=<label>`: `reconcileHandler` finished with this result.
    Reconciled {
        /// The `result` label of `controller_runtime_reconcile_total`.
        result: &'static str,
    },
    /// `controller Panic recovered=false`: `Reconcile` panicked and the panic is re-raised.
    Panic,
    /// `controller StartingWorkers worker_count=<n>`: the caches synced.
    StartingWorkers {
        /// `MaxConcurrentReconciles`.
        worker_count: u32,
    },
    /// `controller CacheSyncTimeout timeout=<d>`: `WaitForSync` gave up.
    CacheSyncTimeout {
        /// The controller's `CacheSyncTimeout`.
        timeout: Duration,
    },
    /// `kubelet ContainerStarted incarnation=<n>`: the operator's container started.
    ContainerStarted {
        /// How many times the container has started, this one included.
        incarnation: u64,
    },
    /// `kubelet <Reason> restart_at=<t>`: the operator's container terminated.
    ContainerTerminated {
        /// Why it terminated.
        reason: TerminatedReason,
        /// When the kubelet restarts it (after its back-off).
        restart_at: SimTime,
    },
    /// `kubelet Evicted node=<i> reason=MemoryPressure`: a workload Pod was evicted.
    Evicted {
        /// The node's index.
        node: u32,
    },
    /// `node-lifecycle-controller Tainted|Untainted node=<i> taint=…`: the memory-pressure
    /// taint was added or removed.
    NodeTaint {
        /// The node's index.
        node: u32,
        /// Whether the taint was added.
        tainted: bool,
    },
    /// `kubectl Created objects=<n>`: the scenario's objects were created.
    Created {
        /// How many objects.
        objects: u64,
    },
    /// `kubectl SetResources memory_limit=<bytes>`: the operator's memory limit changed.
    SetResources {
        /// The new limit in bytes.
        memory_limit: u64,
    },
    /// `kubectl <Action>`: a scenario action ran.
    UserAction {
        /// Which action.
        action: ActionKind,
    },
    /// `sim <name>`: a line a toy model of the kernel writes.
    Mark {
        /// The event's name.
        name: &'static str,
    },
}

impl EventKind {
    /// The component that emitted it (`apiserver`, `watch`, `handler`, …).
    pub fn component(&self) -> &'static str {
        match self {
            EventKind::ApiRequest { .. } => "apiserver",
            EventKind::Retry429 { .. } => "client",
            EventKind::WatchEvent { .. } | EventKind::WatchError { .. } => "watch",
            EventKind::InformerPop { .. } => "informer",
            EventKind::HandlerEnqueue { .. } | EventKind::PredicateDropped => "handler",
            EventKind::Reconcile { .. } => "worker",
            EventKind::Reconciled { .. }
            | EventKind::Panic
            | EventKind::StartingWorkers { .. }
            | EventKind::CacheSyncTimeout { .. } => "controller",
            EventKind::ContainerStarted { .. }
            | EventKind::ContainerTerminated { .. }
            | EventKind::Evicted { .. } => "kubelet",
            EventKind::NodeTaint { .. } => "node-lifecycle-controller",
            EventKind::Created { .. }
            | EventKind::SetResources { .. }
            | EventKind::UserAction { .. } => "kubectl",
            EventKind::Mark { .. } => "sim",
        }
    }

    /// What happened, as the line's second word (`PUT`, `MODIFIED`, `Enqueue`, …).
    pub fn event(&self) -> &'static str {
        match self {
            EventKind::ApiRequest { verb, .. } => verb.as_str(),
            EventKind::Retry429 { .. } => "Retry429",
            EventKind::WatchEvent { event_type, .. } | EventKind::WatchError { event_type, .. } => {
                event_type.as_str()
            }
            EventKind::InformerPop { .. } => "Pop",
            EventKind::HandlerEnqueue { .. } => "Enqueue",
            EventKind::PredicateDropped => "Dropped",
            EventKind::Reconcile { .. } => "Reconcile",
            EventKind::Reconciled { .. } => "Reconciled",
            EventKind::Panic => "Panic",
            EventKind::StartingWorkers { .. } => "StartingWorkers",
            EventKind::CacheSyncTimeout { .. } => "CacheSyncTimeout",
            EventKind::ContainerStarted { .. } => "ContainerStarted",
            EventKind::ContainerTerminated { reason, .. } => reason.as_str(),
            EventKind::Evicted { .. } => "Evicted",
            EventKind::NodeTaint { tainted: true, .. } => "Tainted",
            EventKind::NodeTaint { tainted: false, .. } => "Untainted",
            EventKind::Created { .. } => "Created",
            EventKind::SetResources { .. } => "SetResources",
            EventKind::UserAction { action } => action_name(*action),
            EventKind::Mark { name } => name,
        }
    }

    /// The line's `k=v` details as text (`code=200`, `result=success`; empty when it has none),
    /// for a front end that shows them.
    pub fn detail(&self) -> Detail<'_> {
        Detail(self)
    }

    /// Writes the line's `k=v` details, each after a space (nothing when it has none).
    pub(super) fn write_detail<S: LineSink>(&self, s: &mut S) -> fmt::Result {
        match *self {
            EventKind::ApiRequest { code, .. } => pair(s, "code=", code.into()),
            EventKind::Retry429 { verb, attempt } => {
                s.text(" verb=")?;
                s.text(verb.as_str())?;
                pair(s, "attempt=", attempt.into())
            }
            EventKind::WatchEvent { generation, .. } => {
                s.text(" gen=")?;
                s.signed(generation)
            }
            EventKind::WatchError { code, reason, .. } => {
                pair(s, "code=", code.into())?;
                s.text(" reason=")?;
                s.text(reason.as_str())
            }
            EventKind::InformerPop { deltas } => pair(s, "deltas=", deltas.into()),
            EventKind::HandlerEnqueue { own_write: true } => s.text(" own_write=true"),
            EventKind::PredicateDropped => s.text(" predicate=false"),
            EventKind::Reconcile { worker } => pair(s, "worker=", worker.into()),
            EventKind::Reconciled { result } => {
                s.text(" result=")?;
                s.text(result)
            }
            EventKind::Panic => s.text(" recovered=false"),
            EventKind::StartingWorkers { worker_count } => {
                pair(s, "worker_count=", worker_count.into())
            }
            EventKind::CacheSyncTimeout { timeout } => {
                s.text(" timeout=")?;
                s.text(&crate::scenario::units::format_duration(timeout))
            }
            EventKind::ContainerStarted { incarnation } => pair(s, "incarnation=", incarnation),
            EventKind::ContainerTerminated { restart_at, .. } => {
                s.text(" restart_at=")?;
                s.time(restart_at)
            }
            EventKind::Evicted { node } => {
                pair(s, "node=", node.into())?;
                s.text(" reason=MemoryPressure")
            }
            EventKind::NodeTaint { node, .. } => {
                pair(s, "node=", node.into())?;
                s.text(" taint=node.kubernetes.io/memory-pressure:NoSchedule")
            }
            EventKind::Created { objects } => pair(s, "objects=", objects),
            EventKind::SetResources { memory_limit } => pair(s, "memory_limit=", memory_limit),
            EventKind::HandlerEnqueue { own_write: false }
            | EventKind::UserAction { .. }
            | EventKind::Mark { .. } => Ok(()),
        }
    }
}

/// An event's `k=v` details, displayed without the space that separates them from the line.
#[derive(Clone, Copy, Debug)]
pub struct Detail<'a>(&'a EventKind);

impl fmt::Display for Detail<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sink = SkipFirstSpace {
            formatter: f,
            started: false,
        };
        self.0.write_detail(&mut sink)
    }
}

/// A sink that drops the leading space of what is written to it.
struct SkipFirstSpace<'a, 'f> {
    formatter: &'a mut fmt::Formatter<'f>,
    started: bool,
}

impl LineSink for SkipFirstSpace<'_, '_> {
    fn text(&mut self, text: &str) -> fmt::Result {
        let text = if self.started {
            text
        } else {
            text.strip_prefix(' ').unwrap_or(text)
        };
        self.started = true;
        self.formatter.write_str(text)
    }

    fn decimal(&mut self, n: u64, width: usize) -> fmt::Result {
        self.started = true;
        self.formatter.decimal(n, width)
    }
}

/// ` <name><n>`: one numeric detail after the separating space.
fn pair<S: LineSink>(s: &mut S, name: &str, n: u64) -> fmt::Result {
    s.text(" ")?;
    s.text(name)?;
    s.decimal(n, 1)
}

/// The action's name as the trace spells it (its Rust variant name, as `{:?}` prints it).
fn action_name(action: ActionKind) -> &'static str {
    match action {
        ActionKind::EditSpec => "EditSpec",
        ActionKind::Label => "Label",
        ActionKind::Delete => "Delete",
        ActionKind::KillOperator => "KillOperator",
        ActionKind::Annotate => "Annotate",
        ActionKind::DeleteNamespaces => "DeleteNamespaces",
        ActionKind::SetMemoryLimit => "SetMemoryLimit",
        ActionKind::Rollout => "Rollout",
        ActionKind::SetStatusSubresource => "SetStatusSubresource",
        ActionKind::SetApiLimits => "SetApiLimits",
    }
}

/// Where a line is written: a formatter (to read it) or the trace's hasher.
pub(super) trait LineSink {
    /// Writes text as is.
    fn text(&mut self, text: &str) -> fmt::Result;

    /// Writes `n` in decimal, at least `width` digits (zero-padded), as `{n:0width$}` does.
    fn decimal(&mut self, n: u64, width: usize) -> fmt::Result;

    /// Writes a signed number in decimal, as `{n}` does.
    fn signed(&mut self, n: i64) -> fmt::Result {
        if n < 0 {
            self.text("-")?;
        }
        self.decimal(n.unsigned_abs(), 1)
    }

    /// Writes an instant as [`SimTime`]'s `Display` does (`12.345s`).
    fn time(&mut self, t: SimTime) -> fmt::Result {
        let millis = t.as_nanos() / 1_000_000;
        self.decimal(millis / 1000, 1)?;
        self.text(".")?;
        self.decimal(millis % 1000, 3)?;
        self.text("s")
    }
}

impl LineSink for fmt::Formatter<'_> {
    fn text(&mut self, text: &str) -> fmt::Result {
        self.write_str(text)
    }

    fn decimal(&mut self, n: u64, width: usize) -> fmt::Result {
        write!(self, "{n:0width$}")
    }
}

impl TraceEvent {
    /// The component that emitted it.
    pub fn component(&self) -> &'static str {
        self.kind.component()
    }

    /// What happened, as the line's second word.
    pub fn event(&self) -> &'static str {
        self.kind.event()
    }

    /// The key's text, or `""` when the event concerns no object.
    pub fn key_str(&self) -> &str {
        self.key.as_deref().unwrap_or("")
    }

    /// Writes the line: `<time> <component> <event> [<key>] [rv=<rv>] [<detail>]`.
    pub(super) fn write_line<S: LineSink>(&self, s: &mut S) -> fmt::Result {
        s.time(self.time)?;
        s.text(" ")?;
        s.text(self.kind.component())?;
        s.text(" ")?;
        s.text(self.kind.event())?;
        if let Some(key) = &self.key {
            s.text(" ")?;
            s.text(key)?;
        }
        if let Some(rv) = self.resource_version {
            s.text(" rv=")?;
            s.decimal(rv, 1)?;
        }
        self.kind.write_detail(s)
    }
}

impl fmt::Display for TraceEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_line(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: u64, key: Option<&str>, rv: Option<u64>, kind: EventKind) -> String {
        TraceEvent {
            time: SimTime::from_millis(ms),
            key: key.map(Key::from),
            resource_version: rv,
            kind,
        }
        .to_string()
    }

    #[test]
    fn each_kind_of_record_reads_as_its_stable_line() {
        let k = Some("ns-0/demo-1");
        let cases = [
            (
                at(
                    1250,
                    k,
                    Some(42),
                    EventKind::ApiRequest {
                        verb: Verb::Update,
                        code: 200,
                    },
                ),
                "1.250s apiserver PUT ns-0/demo-1 rv=42 code=200",
            ),
            (
                at(
                    0,
                    None,
                    None,
                    EventKind::ApiRequest {
                        verb: Verb::List,
                        code: 429,
                    },
                ),
                "0.000s apiserver LIST code=429",
            ),
            (
                at(
                    3,
                    None,
                    None,
                    EventKind::Retry429 {
                        verb: Verb::Patch,
                        attempt: 2,
                    },
                ),
                "0.003s client Retry429 verb=PATCH attempt=2",
            ),
            (
                at(
                    61_005,
                    k,
                    Some(7),
                    EventKind::WatchEvent {
                        event_type: WatchEventType::Modified,
                        generation: -3,
                    },
                ),
                "61.005s watch MODIFIED ns-0/demo-1 rv=7 gen=-3",
            ),
            (
                at(
                    9,
                    None,
                    None,
                    EventKind::WatchError {
                        event_type: WatchEventType::Error,
                        code: 410,
                        reason: StatusReason::Expired,
                    },
                ),
                "0.009s watch ERROR code=410 reason=Expired",
            ),
            (
                at(1, k, Some(8), EventKind::HandlerEnqueue { own_write: true }),
                "0.001s handler Enqueue ns-0/demo-1 rv=8 own_write=true",
            ),
            (
                at(
                    1,
                    k,
                    Some(8),
                    EventKind::HandlerEnqueue { own_write: false },
                ),
                "0.001s handler Enqueue ns-0/demo-1 rv=8",
            ),
            (
                at(
                    2,
                    k,
                    None,
                    EventKind::Reconciled {
                        result: "requeue_after",
                    },
                ),
                "0.002s controller Reconciled ns-0/demo-1 result=requeue_after",
            ),
            (
                at(
                    2,
                    None,
                    None,
                    EventKind::ContainerTerminated {
                        reason: TerminatedReason::OOMKilled,
                        restart_at: SimTime::from_millis(12_345),
                    },
                ),
                "0.002s kubelet OOMKilled restart_at=12.345s",
            ),
            (
                at(
                    2,
                    None,
                    None,
                    EventKind::NodeTaint {
                        node: 1,
                        tainted: false,
                    },
                ),
                "0.002s node-lifecycle-controller Untainted node=1 \
                 taint=node.kubernetes.io/memory-pressure:NoSchedule",
            ),
            (
                at(
                    2,
                    None,
                    None,
                    EventKind::CacheSyncTimeout {
                        timeout: Duration::from_secs(120),
                    },
                ),
                "0.002s controller CacheSyncTimeout timeout=2m",
            ),
        ];
        for (line, want) in cases {
            assert_eq!(line, want);
        }
    }

    #[test]
    fn the_detail_is_the_line_after_its_key_and_resource_version() {
        let kind = EventKind::Retry429 {
            verb: Verb::Update,
            attempt: 3,
        };
        assert_eq!(kind.detail().to_string(), "verb=PUT attempt=3");
        assert_eq!(
            EventKind::Reconcile { worker: 4 }.detail().to_string(),
            "worker=4"
        );
        let enqueue = EventKind::HandlerEnqueue { own_write: false };
        assert_eq!(enqueue.detail().to_string(), "");
    }

    #[test]
    fn a_user_action_is_named_as_its_debug_spelling() {
        for action in ActionKind::ALL {
            assert_eq!(
                EventKind::UserAction { action }.event(),
                format!("{action:?}")
            );
        }
    }
}
