//! The simulated cluster: an API server and one controller-runtime operator in a Go process in a
//! pod with a memory limit.
//!
//! ```text
//!  user actions ─▶ ApiServer ─watch events─▶ Reflector ─▶ FIFO ─▶ Indexer ─▶ handler + predicates
//!                     ▲  │ 429 / latency / etcd                                     │
//!                     │  └──────────────── responses ─────────────┐                 ▼
//!                     └── client (token bucket, 429 retries) ◀── workers ◀── workqueue
//! ```
//!
//! [`Cluster`] is a [`crate::sim::Model`]: every stage is driven by events on the kernel's queue,
//! and every CPU cost is stretched by the Go GC's CPU share. Nothing here reaches a wall clock.
//!
//! The cluster is held in parts, each with its own state and methods; [`Cluster`]'s handlers
//! (one file per stage: `net`, `flow`, `watch_list`, `workload`, `telemetry`, …) route an event
//! to the parts it concerns and lend each part only what it needs of the others:
//!
//! ```text
//!                     Model::handle(Ev) ─▶ Cluster (scenario + the parts below)
//!        ┌──────────────────────┬───────────────┴────────┬──────────────────────────┐
//!        ▼                      ▼                        ▼                          ▼
//!  ApiSide (api_side)    OperatorSide (operator_side)  Workload (workload)     Telemetry (telemetry)
//!   SimApiServer          SimProcess (heap, GC, OOM)    Pods, Nodes, taints,    Registry, SeriesSet,
//!   pending requests      running Operator (informer,   namespaces, the Pod     workqueue totals
//!   request/watch ids       workqueue, workers)         cache, leaked watches        ▲
//!   CauseTracker          dead parts (release)          step: a Reconcile's          │ counts
//!                         kick flags                    workload steps ──────────────┤
//!                              ▲                        kubelet: evictions, taints ──┘
//!                              └── StepSinks lends the process and the registry to a step
//! ```

mod actions;
pub mod api;
mod api_side;
pub mod causality_api;
mod causes;
pub mod checkpoint;
mod checkpoint_parts;
pub mod code;
pub mod divergence;
pub mod expectation;
mod flow;
pub mod informer;
pub mod inspect;
pub mod intervention;
mod intervention_text;
pub mod invariants;
mod key_prints;
pub mod loop_report;
pub mod markers;
pub mod memory;
mod metric_keys;
mod net;
pub mod operator;
mod operator_side;
mod pending_causes;
mod queue_metrics;
mod read_model;
pub mod registry;
mod release;
pub mod report;
pub mod request;
pub mod run;
pub mod seek;
pub mod series;
pub mod snapshot;
pub mod target;
mod telemetry;
pub mod timeline;
pub mod verdict;
mod version_log;
mod watch_list;
pub mod why;
pub mod worker;
pub mod worker_slots;
pub mod workload;
pub mod workqueue;

use std::time::Duration;

use crate::apiserver::WatchEvent;
use crate::scenario::Scenario;
use crate::sim::{Context, Model};

use api_side::ApiSide;
use operator_side::OperatorSide;
use series::SeriesSet;
use telemetry::Telemetry;

/// Most resourceVersions of the operator's own writes remembered to spot the loop closing (the
/// oldest are forgotten first).
pub const MAX_TRACKED_OWN_WRITES: usize = 200_000;

/// Objects created per engine event at the start of a run: the creation of a large scenario's
/// objects is one instant of virtual time split into parts, so the page can draw between them.
/// A part of 500 takes a few milliseconds in a browser tab (each object goes through the API
/// server's create: admission, two lookups in a 150 000-entry tree, the store, the watch cache);
/// the page runs parts until its frame's time is spent.
pub const CREATE_OBJECTS_PER_EVENT: u32 = 500;

/// Listed objects the informer's `Replace` queues per engine event: a relist of a large LIST is
/// split into parts at one instant, so the page draws between them (the DeltaFIFO queues a part
/// in time linear in its size, so equal parts cost no more than one bulk build).
pub const REPLACE_OBJECTS_PER_EVENT: usize = 2_500;

/// How often metrics are sampled into series (virtual time).
pub const SAMPLE_INTERVAL: Duration = Duration::from_secs(1);

/// Engine events of the cluster.
#[derive(Clone, Debug)]
pub enum Ev {
    /// Create the scenario's objects from index `from` on, a part at a time
    /// ([`CREATE_OBJECTS_PER_EVENT`]).
    CreateObjects {
        /// The index of the first object this part creates.
        from: u32,
    },
    /// Free one part of a dead operator's memory (a continuation).
    ReleaseDead,
    /// The client takes a large LIST's reply: a continuation of the request's completion, so the
    /// API server's part and the client's parts of the LIST are drawn apart.
    Answer {
        /// The request.
        id: u64,
        /// The reply (boxed: a rare event need not make every event as large as a reply).
        reply: Box<request::Reply>,
    },
    /// Queue the next part of a large LIST into the informer (a continuation of `Replace`).
    ReplacePart {
        /// Operator incarnation.
        incarnation: u64,
        /// How many were queued before.
        queued: usize,
        /// The listed objects not queued yet, and the reflector's actions after the `Replace`
        /// (boxed, as [`Ev::Answer`]'s reply).
        rest: Box<(
            crate::apiserver::ListItems,
            Vec<crate::informer::reflector::Action>,
        )>,
    },
    /// Run the scenario's action with this index.
    Action(usize),
    /// Carry out an intervention ([`intervention::Intervention`]).
    Intervene(Box<intervention::Intervention>),
    /// A request reaches the API server (after client-side throttling).
    Arrive(u64),
    /// The API server finishes a request.
    Done(u64),
    /// A watch event reaches the operator.
    WatchDeliver {
        /// Operator incarnation.
        incarnation: u64,
        /// Watch id.
        watch: u64,
        /// The event.
        event: WatchEvent,
    },
    /// The server closes a watch at its timeout.
    WatchTimeout {
        /// Operator incarnation.
        incarnation: u64,
        /// Watch id.
        watch: u64,
    },
    /// The reflector's backoff elapsed.
    ReflectorWake {
        /// Operator incarnation.
        incarnation: u64,
    },
    /// The informer's processing loop finished an item.
    InformerPopped {
        /// Operator incarnation.
        incarnation: u64,
    },
    /// The event handler finished a notification.
    Handled {
        /// Operator incarnation.
        incarnation: u64,
    },
    /// A delayed workqueue item is due.
    QueueWake {
        /// Operator incarnation.
        incarnation: u64,
    },
    /// A worker's step finished.
    WorkerResume {
        /// Operator incarnation.
        incarnation: u64,
        /// Worker index.
        worker: usize,
    },
    /// An APF queue wait may have run out.
    QueueDeadline,
    /// The controller's `CacheSyncTimeout` ran out.
    CacheSyncTimeout {
        /// Operator incarnation.
        incarnation: u64,
    },
    /// The reflector's resync timer fired.
    ResyncTimer {
        /// Operator incarnation.
        incarnation: u64,
        /// The watch phase the timer belongs to.
        epoch: u64,
    },
    /// Sample metrics.
    Sample,
    /// The kubelet (re)starts the operator's container.
    ContainerStart {
        /// What made it start: the container's termination (a restart), or the new Pod
        /// template (a rollout, new resources); none for the run's first start.
        cause: Option<crate::sim::EventId>,
    },
    /// Pods, Nodes and namespaces ([`workload`]).
    Workload(workload::WorkEv),
}

/// The whole simulated world, in parts with their own state (see the module docs).
#[derive(Clone)]
pub struct Cluster {
    /// The scenario it runs.
    pub(crate) scenario: Scenario,
    /// The API server and the requests and watches on their way.
    api: ApiSide,
    /// The operator's Pod: its process and the operator running in it.
    operator: OperatorSide,
    /// Pods, Nodes and namespaces.
    work: workload::Workload,
    /// Metrics and their sampled series.
    telemetry: Telemetry,
}

impl Cluster {
    /// A cluster for a validated scenario; schedule [`Cluster::initial_events`] to start it.
    pub fn new(scenario: Scenario) -> Result<Cluster, crate::scenario::ScenarioError> {
        Ok(Cluster {
            api: ApiSide::new(&scenario)?,
            operator: OperatorSide::new(&scenario)?,
            work: workload::Workload::default(),
            telemetry: Telemetry::new(scenario.profile),
            scenario,
        })
    }

    /// The events that start a run: the container, the objects, the actions, sampling.
    pub fn initial_events(&self) -> Vec<(crate::time::SimTime, Ev)> {
        let mut evs = vec![
            (
                crate::time::SimTime::ZERO,
                Ev::ContainerStart { cause: None },
            ),
            (
                crate::time::SimTime::ZERO + self.scenario.objects.create_at,
                Ev::CreateObjects { from: 0 },
            ),
            (crate::time::SimTime::ZERO, Ev::Sample),
        ];
        for (i, a) in self.scenario.actions.iter().enumerate() {
            evs.push((crate::time::SimTime::ZERO + a.at, Ev::Action(i)));
        }
        evs
    }

    /// The sampled metric series.
    pub fn series(&self) -> &SeriesSet {
        &self.telemetry.series
    }

    fn is_current(&self, incarnation: u64) -> bool {
        self.operator.is_current(incarnation)
    }
}

impl Model for Cluster {
    type Event = Ev;

    fn handle(&mut self, ctx: &mut Context<'_, Ev>, event: Ev) {
        match event {
            Ev::CreateObjects { from } => self.create_objects(ctx, from),
            Ev::ReleaseDead => self.operator.release_dead(ctx),
            Ev::Answer { id, reply } => self.answer(ctx, id, *reply),
            Ev::ReplacePart {
                incarnation,
                queued,
                rest,
            } if self.is_current(incarnation) => {
                let (rest, then) = *rest;
                self.replace_part(ctx, rest, queued, then);
            }
            Ev::Action(i) => self.run_action(ctx, i),
            Ev::Intervene(i) => self.apply_intervention(ctx, &i),
            Ev::Arrive(id) => self.arrive(ctx, id),
            Ev::Done(id) => self.done(ctx, id),
            Ev::WatchDeliver {
                incarnation,
                watch,
                event,
            } if self.is_current(incarnation) => self.watch_deliver(ctx, watch, &event),
            Ev::WatchTimeout { incarnation, watch } if self.is_current(incarnation) => {
                self.watch_timeout(ctx, watch);
            }
            Ev::ReflectorWake { incarnation } if self.is_current(incarnation) => {
                self.reflector_wake(ctx);
            }
            Ev::InformerPopped { incarnation } if self.is_current(incarnation) => {
                self.informer_popped(ctx);
            }
            Ev::Handled { incarnation } if self.is_current(incarnation) => self.handled(ctx),
            Ev::QueueWake { incarnation } if self.is_current(incarnation) => self.queue_wake(ctx),
            Ev::WorkerResume {
                incarnation,
                worker,
            } if self.is_current(incarnation) => self.advance_worker(ctx, worker, None),
            Ev::QueueDeadline => self.queue_deadline(ctx),
            Ev::CacheSyncTimeout { incarnation } if self.is_current(incarnation) => {
                self.cache_sync_timeout(ctx);
            }
            Ev::ResyncTimer { incarnation, epoch } if self.is_current(incarnation) => {
                self.resync_timer(ctx, epoch);
            }
            Ev::Sample => self.sample(ctx),
            Ev::ContainerStart { cause } => self.container_start(ctx, cause),
            Ev::Workload(ev) => self.workload_event(ctx, ev),
            _ => {} // an event of a dead incarnation: the process that would handle it is gone
        }
        self.account_memory(ctx);
    }
}
