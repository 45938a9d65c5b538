//! The page's messages to and from its engine's Worker ([`crate::host_msg`]), field by field, in
//! the form [`crate::wire`] writes: every type a message holds, the page's and the engine's. A
//! field or variant added to one of these types must be added here too: the compiler refuses a
//! list that leaves one out.

use flywheel_engine::apiserver::{Verb, WatchEventType};
use flywheel_engine::cluster::divergence::{self, Divergence};
use flywheel_engine::cluster::expectation::LoopExpectation;
use flywheel_engine::cluster::loop_report::LoopCut;
use flywheel_engine::cluster::memory::PodState;
use flywheel_engine::cluster::snapshot::{Counts, OperatorPhase, OperatorSnapshot, Snapshot};
use flywheel_engine::cluster::verdict::{RunVerdict, Verdict, VerdictFigures};
use flywheel_engine::cluster::why::Link;
use flywheel_engine::controller::program::WriteVerb;
use flywheel_engine::informer::reflector::{ListRv, ReflectorState};
use flywheel_engine::key::Key;
use flywheel_engine::process::TerminationReason;
use flywheel_engine::scenario::variant::Variant;
use flywheel_engine::scenario::{ActionKind, FifoKind, Profile, QueueKind};
use flywheel_engine::sim::{CauseNote, EventId};
use flywheel_engine::vec_map::VecMap;
use flywheel_engine::SimTime;

use crate::chart::{ChartSpec, Line, Mark};
use crate::chart_data::ChartKind;
use crate::config::RunConfig;
use crate::ctx::LoopState;
use crate::do_steps::DoStep;
use crate::host::{Build, FrameOut, FrameTimes, HostEvent, Intervened};
use crate::host_msg::{FromHost, Known, ToHost};
use crate::i18n::Lang;
use crate::live::{InspectView, LaneView, LiveView};
use crate::marks::{MarkKind, TimelineMark};
use crate::pipe_view::{Flashes, PipeShape, PipeView};
use crate::runs::{LogLine, Side};
use crate::stepping::{StepReport, StepTarget};
use crate::tokens::{Carry, Edge, Token};
use crate::tour_run::Reached;
use crate::verdict::LaneStats;
use crate::why_state::BranchItem;
use crate::why_view::{Direction, Hop, WhyView};
use crate::wire::{put_text, take_text, wire_enum, wire_struct, Reader, Wire, WireError};

// What the page asks.
wire_enum!(ToHost {
    Build(build),
    Frame(ui, times),
    Step(side, target, anim_ms, motion),
    Seek(t_s),
    CancelSeek,
    StepBack(side),
    Why(side, id),
    WhyNow(side, key),
    Intervene(number, side, text, branches),
    SwitchBranch(branch),
});
wire_struct!(Build {
    config,
    compare,
    dos,
    t_s,
    tour
});
wire_struct!(RunConfig {
    preset,
    variant,
    params,
    profile,
    seed
});
wire_struct!(Variant {
    status_subresource,
    write,
    generation_predicate,
    observed_generation_guard,
    timestamp
});
wire_struct!(DoStep { at_s, text });
wire_struct!(LoopState {
    playing, speed, dark, lang, motion, dirty, side, selected, embed, inspecting, anim_ms,
    touring, presenter
} skip { lit });
wire_struct!(FrameTimes {
    ts,
    wall_ms,
    dt,
    anim_ms
});
wire_struct!(BranchItem { id, base_s, dos });
wire_enum!(Side { A, B });
wire_enum!(Lang { En, Zh });
wire_enum!(StepTarget {
    Event,
    Reconcile,
    Write
});
wire_enum!(WriteVerb {
    Update,
    StatusUpdate,
    StatusPatch,
    Patch
});
wire_enum!(Profile { Seed, Modern });

// What the engine's side answers.
wire_struct!(FromHost {
    frame,
    events,
    known
});
wire_struct!(Known {
    now_s,
    seeking,
    branch,
    keys
});
wire_struct!(FrameOut { pipes, live });
wire_enum!(HostEvent {
    Finished,
    Seeked(t_s),
    OnBranch(branch),
    SwitchedTo(branch),
    Branches(items, branch),
    TourReached(reached),
    Stepped(report),
    Paused,
    Why(view),
    Invalid(text),
    Intervened(number, outcome),
    SeekReached,
});
wire_enum!(Intervened { Done(at_s), NoSuchObject(key, other), Refused(text) });
wire_struct!(Reached { at_s, shown });
wire_struct!(StepReport {
    target,
    events,
    from_s,
    to_s,
    what,
    reached
});

// A lane's pipeline.
wire_struct!(PipeView {
    snapshot,
    flashes,
    last_result,
    tokens,
    rps,
    reconciles_ok_per_s,
    loop_count,
    loop_period_s,
    shape,
    first_key
});
wire_struct!(Flashes {
    loop_ms,
    oom_ms,
    list_ms
});
wire_struct!(PipeShape {
    fifo,
    queue,
    predicates,
    write_verb
});
wire_enum!(FifoKind {
    DeltaFifo,
    RealFifo,
    AtomicFifo
});
wire_enum!(QueueKind { Classic, Priority });
wire_struct!(Token {
    edge,
    carry,
    key,
    born_ms
});
wire_enum!(Edge {
    Watch,
    Pop,
    Enqueue,
    Dropped,
    Work,
    Write,
    Bounce,
    List
});
wire_enum!(Carry {
    Added,
    Modified,
    Deleted,
    Key,
    Write,
    TooMany,
    List,
    Dropped,
    OwnWrite
});
wire_struct!(Snapshot {
    time_s,
    revision,
    objects,
    terminating,
    requests_in_flight,
    operator,
    pod_state,
    last_exit,
    workers_started_s,
    counts,
    restarts,
    restart_in_s,
    heap_bytes,
    rss_bytes,
    memory_limit_bytes
});
wire_struct!(OperatorSnapshot {
    incarnation,
    phase,
    reflector_state,
    watching,
    fifo_deltas,
    fifo_len,
    cache_objects,
    handler_buffer,
    queue_ready,
    queue_waiting,
    workers_busy,
    workers,
    synced,
    workers_started
});
wire_enum!(OperatorPhase {
    Starting,
    Relisting,
    Running
});
wire_enum!(ReflectorState {
    Idle,
    Listing { resource_version, consistent_retry },
    WatchListing { resource_version, timeout, started_at },
    WatchListBackoff { until },
    Watching { from, timeout, started_at },
    Backoff { until },
    WatchBackoff { until },
    Stopped,
});
wire_enum!(ListRv { Zero, Exact(rv), Latest });
wire_struct!(Counts {
    self_triggered_enqueues,
    predicate_drops,
    retries_429,
    oom_kills
});
wire_enum!(PodState { Running, CrashLoopBackOff, Terminated(reason) });
wire_enum!(TerminationReason {
    OomKilled,
    Error,
    Completed
});

// The live view: lanes, charts, the timeline's marks, the inspect panel.
wire_struct!(LiveView {
    seq,
    lanes,
    now_s,
    end_s,
    finished,
    achieved_speed,
    charts,
    cursor_s,
    parting,
    inspect,
    reached_s,
    seek_progress,
    marks,
    branch
});
wire_struct!(LaneView {
    variant,
    stats,
    memory_limit_bytes,
    log
});
wire_struct!(LaneStats {
    rps,
    reconciles,
    revision,
    pod,
    write_go,
    verdict
});
wire_struct!(RunVerdict {
    verdict,
    window_s,
    figures
});
wire_enum!(Verdict {
    Looping,
    WritesOutrun,
    Watching,
    Converged,
    StatusDropped,
    NoEndpoint,
    Busy,
    Down,
    Starting,
    Relisting
});
wire_struct!(VerdictFigures {
    time_s,
    loops,
    loop_rate,
    write_rate,
    reconcile_rate,
    pod_state,
    restart_in_s,
    last_exit,
    oom_kills,
    operator_idle,
    phase,
    since_workers_s,
    informer_backlog,
    workers_all_busy,
    expectation
});
wire_enum!(LoopExpectation {
    Loops,
    Converges,
    StatusDropped,
    NoStatusEndpoint
});
wire_struct!(LogLine {
    time_s,
    event,
    key,
    rv,
    generation,
    detail,
    id
});
wire_enum!(ChartKind {
    Memory,
    Requests,
    Queue,
    Reconcile
});
wire_struct!(ChartSpec {
    title,
    x_label,
    x_range,
    y_range,
    y2_range,
    units,
    lines,
    limits,
    marks
});
wire_struct!(Line {
    name,
    points,
    color,
    dashed,
    secondary
});
wire_struct!(Mark { x, color, tall });
wire_struct!(Divergence {
    event,
    at,
    side,
    en,
    zh
});
wire_enum!(divergence::Side { A, B });
wire_struct!(InspectView {
    keys,
    selected,
    yaml,
    deleted,
    resource
});
wire_struct!(TimelineMark { at_s, kind });
wire_enum!(MarkKind {
    First429,
    OomKilled,
    Restart
});

// The why panel.
wire_struct!(WhyView {
    id,
    key,
    at_s,
    direction,
    chains,
    delayed,
    self_triggered,
    fixes,
    period_s
});
wire_enum!(Direction { Causes, Effects });
wire_struct!(Hop {
    id,
    at_s,
    link,
    key
});
wire_enum!(Link {
    Reconcile { id, key, at },
    Write { id, verb, rv, own, generation },
    Watch { id, event_type, rv },
    Pop { id, deltas, note },
    Enqueue { id, own_write, predicates },
    Requeue { id, result },
    UserAction { id, action },
    Created { id },
    List { id },
    Other { id, what },
    FellOut { id },
});
wire_enum!(Verb {
    Get,
    List,
    Watch,
    Create,
    Update,
    Patch,
    Delete
});
wire_enum!(WatchEventType {
    Added,
    Modified,
    Deleted,
    Bookmark,
    Error
});
wire_enum!(CauseNote {
    None,
    Sync,
    Relist,
    Delayed
});
wire_enum!(ActionKind {
    EditSpec,
    Label,
    Delete,
    KillOperator,
    Annotate,
    DeleteNamespaces,
    SetMemoryLimit,
    Rollout,
    SetStatusSubresource,
    SetApiLimits
});
wire_enum!(LoopCut {
    GenerationChangedPredicate,
    StatusSubresource,
    ObservedGenerationGuard,
    NoRequeue,
    IdempotentStatus
});

impl Wire for SimTime {
    fn put(&self, out: &mut Vec<u8>) {
        self.as_nanos().put(out);
    }

    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        u64::take(r).map(SimTime::from_nanos)
    }
}

impl Wire for EventId {
    fn put(&self, out: &mut Vec<u8>) {
        self.0.put(out);
    }

    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        u64::take(r).map(EventId)
    }
}

impl Wire for Key {
    fn put(&self, out: &mut Vec<u8>) {
        put_text(self, out);
    }

    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        take_text(r).map(Key::from)
    }
}

/// A map as its entries in key order; read back by inserting them (a repeated key keeps the last).
impl<K: Wire + Ord, V: Wire> Wire for VecMap<K, V> {
    fn put(&self, out: &mut Vec<u8>) {
        crate::wire::put_varint(self.len() as u64, out);
        for (key, value) in self.iter() {
            key.put(out);
            value.put(out);
        }
    }

    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        let n = r.length(K::LEAST + V::LEAST)?;
        let mut map = VecMap::new();
        for _ in 0..n {
            let key = K::take(r)?;
            map.insert(key, V::take(r)?);
        }
        Ok(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host_msg::{decode, encode};

    fn hop(id: u64, link: Link) -> Hop {
        Hop {
            id,
            at_s: Some(id as f64 / 8.0),
            link,
            key: format!("ns-{id}/demo-{id}"),
        }
    }

    /// A why view whose hops hold every kind of link.
    fn why_view() -> WhyView {
        let (id, at) = (EventId(7), SimTime::from_nanos(1_500_000_000));
        let links = vec![
            Link::Reconcile {
                id,
                key: Key::from("ns-0/demo-1"),
                at,
            },
            Link::Write {
                id,
                verb: Verb::Update,
                rv: 9,
                own: true,
                generation: Some((-1, 4)),
            },
            Link::Watch {
                id,
                event_type: WatchEventType::Bookmark,
                rv: 10,
            },
            Link::Pop {
                id,
                deltas: 3,
                note: CauseNote::Relist,
            },
            Link::Enqueue {
                id,
                own_write: false,
                predicates: vec!["GenerationChangedPredicate"],
            },
            Link::Requeue {
                id,
                result: "requeue",
            },
            Link::UserAction {
                id,
                action: ActionKind::SetApiLimits,
            },
            Link::Created { id },
            Link::List { id },
            Link::Other {
                id,
                what: ("kill", "operator"),
            },
            Link::FellOut { id },
        ];
        WhyView {
            id: 7,
            key: "ns-0/demo-1".into(),
            at_s: 1.5,
            direction: Direction::Effects,
            chains: vec![links
                .into_iter()
                .enumerate()
                .map(|(i, l)| hop(i as u64, l))
                .collect()],
            delayed: true,
            self_triggered: true,
            fixes: vec![vec![LoopCut::IdempotentStatus, LoopCut::NoRequeue]],
            period_s: Some(0.25),
        }
    }

    #[test]
    fn every_event_the_engine_side_tells_reads_back_as_it_was() {
        let events = vec![
            HostEvent::Finished,
            HostEvent::Seeked(-0.0),
            HostEvent::OnBranch(3),
            HostEvent::SwitchedTo(u32::MAX),
            HostEvent::Branches(
                vec![BranchItem {
                    id: 2,
                    base_s: 12.5,
                    dos: vec![DoStep {
                        at_s: 12.5,
                        text: "kill operator".into(),
                    }],
                }],
                2,
            ),
            HostEvent::TourReached(Reached {
                at_s: Some(3.0),
                shown: None,
            }),
            HostEvent::Stepped(StepReport {
                target: StepTarget::Write,
                events: 41,
                from_s: 1.0,
                to_s: 1.25,
                what: Some(("PUT".into(), "ns-0/demo-1".into())),
                reached: true,
            }),
            HostEvent::Paused,
            HostEvent::Why(Some(why_view())),
            HostEvent::Why(None),
            HostEvent::Invalid("controller.workers: must be at least 1".into()),
            HostEvent::Intervened(1, Intervened::Done(4.0)),
            HostEvent::Intervened(
                2,
                Intervened::NoSuchObject("ns-9/x".into(), Some("ns-0/demo-0".into())),
            ),
            HostEvent::Intervened(3, Intervened::Refused("no".into())),
            HostEvent::SeekReached,
        ];
        let answer = FromHost {
            events: events.clone(),
            ..FromHost::default()
        };
        let back: FromHost = decode(&encode(&answer)).expect("read back");
        assert_eq!(back.events, events);
    }

    #[test]
    fn every_request_the_page_makes_reads_back_as_it_was() {
        let mut config = RunConfig::preset("flywheel");
        config
            .params
            .insert("controller.workers".into(), "4".into());
        config.params.insert("client.qps".into(), "20".into());
        let asks = [
            ToHost::Build(Box::new(Build {
                config,
                compare: Some(Variant::of(
                    &flywheel_engine::scenario::presets::load("fixed", &[]).expect("preset"),
                )),
                dos: vec![DoStep {
                    at_s: 1.0,
                    text: "delete mycrd ns-0/demo-0".into(),
                }],
                t_s: Some(30.0),
                tour: Some(("flywheel".into(), 2)),
            })),
            ToHost::Frame(
                Box::new(LoopState {
                    lang: Lang::Zh,
                    side: Side::B,
                    selected: Some("k".into()),
                    ..LoopState::default()
                }),
                FrameTimes {
                    ts: 1.0,
                    wall_ms: 2.0,
                    dt: 3.0,
                    anim_ms: 4.0,
                },
            ),
            ToHost::Step(Side::B, StepTarget::Reconcile, 16.0, false),
            ToHost::Seek(f64::INFINITY),
            ToHost::CancelSeek,
            ToHost::StepBack(Side::A),
            ToHost::Why(Side::B, u64::MAX),
            ToHost::WhyNow(Side::A, Some("ns-0/demo-1".into())),
            ToHost::Intervene(
                5,
                Side::A,
                "kill operator".into(),
                vec![BranchItem {
                    id: 0,
                    base_s: 0.0,
                    dos: Vec::new(),
                }],
            ),
            ToHost::SwitchBranch(1),
        ];
        for ask in asks {
            let bytes = crate::host_msg::encode_ask(&ask, Side::B);
            let (back, side): (ToHost, Side) = decode(&bytes).expect("read back");
            assert_eq!((encode(&(back, side)), side), (bytes, Side::B), "{ask:?}");
        }
    }

    #[test]
    fn a_reflector_in_every_state_reads_back_as_it_was() {
        use std::time::Duration;
        let (at, timeout) = (SimTime::from_nanos(5), Duration::from_millis(300_500));
        for state in [
            ReflectorState::Idle,
            ReflectorState::Listing {
                resource_version: ListRv::Exact(42),
                consistent_retry: true,
            },
            ReflectorState::WatchListing {
                resource_version: ListRv::Latest,
                timeout,
                started_at: at,
            },
            ReflectorState::WatchListBackoff { until: at },
            ReflectorState::Watching {
                from: 9,
                timeout,
                started_at: at,
            },
            ReflectorState::Backoff { until: at },
            ReflectorState::WatchBackoff { until: at },
            ReflectorState::Stopped,
        ] {
            assert_eq!(decode::<ReflectorState>(&encode(&state)), Ok(state));
        }
    }
}
