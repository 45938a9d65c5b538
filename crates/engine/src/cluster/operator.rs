//! The operator's in-process state: one informer, the workqueue, the workers, the event handler's
//! predicates and the REST client's rate limiter. Rebuilt empty on every container start.

use std::rc::Rc;

use crate::client::rate_limiter::TokenBucketRateLimiter;
use crate::informer::delta::DeltaObject;
use crate::informer::indexer::Notification;
use crate::informer::reflector::{Reflector, ReflectorConfig};
use crate::key::Key;
use crate::predicate::{
    AnnotationChanged, CreateEvent, DeleteEvent, GenerationChanged, LabelChanged, MapEquality,
    Predicate, ResourceVersionChanged, UpdateEvent,
};
use crate::scenario::{PredicateKind, Profile, Scenario};
use crate::time::SimTime;

use super::informer::SimInformer;
use super::worker::WorkerTotals;
use super::worker_slots::WorkerSlots;
use super::workqueue::WorkQueue;

/// The operator process's controller state.
#[derive(Clone)]
pub struct Operator {
    /// Counts container starts; events of an earlier incarnation are ignored.
    pub incarnation: u64,
    /// When this incarnation started.
    pub started_at: SimTime,
    /// The informer of the custom resource (`For`).
    pub informer: SimInformer,
    /// The controller's workqueue.
    pub queue: WorkQueue,
    /// `MaxConcurrentReconciles` workers, each idle or running a job.
    pub workers: WorkerSlots,
    /// What the busy `workers` hold, kept up to date as jobs start, step and finish.
    pub worker_totals: WorkerTotals,
    /// Predicates of the `For` watch (all must admit: `builder.WithPredicates` ANDs them);
    /// stateless, so a copy of the operator shares them.
    pub predicates: Rc<[Box<dyn Predicate>]>,
    /// client-go's token bucket, or `None` when client-side limiting is off.
    pub client_limiter: Option<TokenBucketRateLimiter>,
    /// When the queue's next waiting item is due and a wake-up is scheduled for it.
    pub queue_wake_at: Option<SimTime>,
    /// Whether the controller has started its workers: only once its source's cache has synced
    /// (controller-runtime `pkg/internal/controller/controller.go` `Start`).
    pub workers_started: bool,
}

impl Operator {
    /// A freshly started operator for `scenario` (empty cache, empty queue, workers waiting for
    /// the cache to sync) whose informer resyncs every `sync_period`.
    pub fn new(
        scenario: &Scenario,
        incarnation: u64,
        sync_period: std::time::Duration,
        now: SimTime,
    ) -> Operator {
        let config = ReflectorConfig {
            resync_period: sync_period,
            use_watch_list: scenario.profile.watch_list_client(),
            ..ReflectorConfig::default()
        };
        let reflector = Reflector::new(config).unwrap_or_default();
        let informer = SimInformer::new(
            &scenario.crd.kind,
            scenario.fifo_kind(),
            reflector,
            sync_period,
            now,
        );
        let client_limiter = scenario
            .client_rate_limit()
            .and_then(|(qps, burst)| {
                TokenBucketRateLimiter::new(qps as f32, i32::try_from(burst).unwrap_or(i32::MAX))
                    .ok()
            })
            .filter(TokenBucketRateLimiter::is_enabled);
        Operator {
            incarnation,
            started_at: now,
            informer,
            queue: WorkQueue::new(scenario.queue_kind()),
            workers: WorkerSlots::new(scenario.controller.workers as usize),
            worker_totals: WorkerTotals::default(),
            predicates: build_predicates(&scenario.controller.predicates, scenario.profile).into(),
            client_limiter,
            queue_wake_at: None,
            workers_started: false,
        }
    }

    /// Whether the controller's source has synced, as its version's `Kind.WaitForSync` waits for
    /// it (`pkg/internal/source/kind.go`): the informer's cache up to controller-runtime v0.22
    /// (the seed's v0.15), and from v0.23 on also the handler registration, i.e. the handler has
    /// handled every object of the initial list.
    pub fn source_synced(&self, profile: Profile) -> bool {
        match profile {
            Profile::Seed => self.informer.has_synced(),
            Profile::Modern => self.informer.handler_synced(),
        }
    }

    /// Whether every predicate admits the notification (the handler's filter).
    pub fn admits(&self, n: &Notification) -> bool {
        self.predicates.iter().all(|p| match n {
            Notification::Add { obj, .. } => p.create(&CreateEvent {
                object: obj.clone(),
            }),
            Notification::Update { old, new, .. } => p.update(&UpdateEvent {
                object_old: Some(old.clone()),
                object_new: Some(new.clone()),
            }),
            Notification::Delete { obj } => match obj.object() {
                Some(o) => p.delete(&DeleteEvent {
                    object: o.clone(),
                    delete_state_unknown: obj.is_tombstone(),
                }),
                None => true,
            },
        })
    }

    /// Busy workers.
    pub fn active_workers(&self) -> usize {
        self.workers.busy()
    }
}

/// The predicates by name; the profile picks the map comparison of the label and annotation
/// predicates (controller-runtime ≤ v0.17 `reflect.DeepEqual`, later `maps.Equal`).
fn build_predicates(kinds: &[PredicateKind], profile: Profile) -> Vec<Box<dyn Predicate>> {
    let equality = match profile {
        Profile::Seed => MapEquality::DeepEqual,
        Profile::Modern => MapEquality::MapsEqual,
    };
    kinds
        .iter()
        .map(|k| -> Box<dyn Predicate> {
            match k {
                PredicateKind::GenerationChanged => Box::new(GenerationChanged),
                PredicateKind::ResourceVersionChanged => Box::new(ResourceVersionChanged),
                PredicateKind::AnnotationChanged => Box::new(AnnotationChanged { equality }),
                PredicateKind::LabelChanged => Box::new(LabelChanged { equality }),
            }
        })
        .collect()
}

/// The key a notification enqueues (`handler.EnqueueRequestForObject`), and whether it is a
/// low-priority one for the priority queue (an initial-list create, or a resync update).
pub fn request_for(n: &Notification) -> (Key, bool) {
    match n {
        Notification::Add {
            key,
            is_in_initial_list,
            ..
        } => (key.clone(), *is_in_initial_list),
        Notification::Update { key, old, new } => (
            key.clone(),
            old.resource_version() == new.resource_version(),
        ),
        Notification::Delete { obj } => (delete_key(obj), false),
    }
}

/// The key of a deleted object or of a `DeletedFinalStateUnknown` tombstone
/// (`DeletionHandlingMetaNamespaceKeyFunc`, client-go `tools/cache/controller.go`).
fn delete_key(obj: &DeltaObject) -> Key {
    match obj {
        DeltaObject::Object(o) => o.key(),
        DeltaObject::Tombstone(t) => t.key.clone(),
    }
}
