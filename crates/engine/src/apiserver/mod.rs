//! The simulated kube-apiserver: storage with one global revision, registry strategies, the watch
//! cache, admission (max-in-flight / APF) and a latency model.
//!
//! ```text
//!  request ─▶ admit (flowcontrol) ─▶ registry (strategy rules) ─▶ store (revision, no-op rule)
//!                                                                     │ one write = one revision
//!                                                                     ▼
//!  watchers ◀── simulation fans out ◀── drain_events() ◀── watch cache per kind (410 window)
//! ```
//!
//! The server is synchronous and clock-free: every operation takes `now`, answers at once, and the
//! simulation decides when the answer arrives ([`ApiServer::request_latency`]) and when admitted
//! requests finish ([`ApiServer::release`]). Every write that changed stored bytes produced exactly
//! one watch event; a no-op produced none ([`ApiServer::drain_events`]).
//!
//! The death flywheel in one line: a full PUT that sets a status timestamp on a custom resource
//! whose CRD lacks `/status` changes a non-metadata field, so generation and resourceVersion move
//! and a MODIFIED event goes out — which triggers the next reconcile. Writing identical content is a
//! no-op that breaks the cycle.

mod config;
mod dropped_requests;
mod flowcontrol;
mod kind;
mod kind_objects;
mod latency;
mod list_items;
mod list_work_estimator;
mod merge_patch;
mod metrics;
mod name_validation;
mod namespace;
mod patched;
mod registry;
mod request;
mod selector;
mod store;
mod strategy;
mod watch_cache;
pub mod wire;

use std::sync::Arc;
use std::time::Duration;

pub use config::ApiServerConfig;
pub use dropped_requests::{DroppedRequestsTracker, MAX_RETRY_AFTER_S};
pub use flowcontrol::{
    list_seats, Admission, FlowControl, InFlight, QueueOutcome, RequestLimiter, Ticket,
    MAX_IN_FLIGHT_RETRY_AFTER_S,
};
pub use kind::{KindFamily, ResourceKind};
pub use latency::LatencyConfig;
pub use list_items::ListItems;
pub use list_work_estimator::{
    list_work_seats, priority_level_max_seats, ListCostEstimate, ListStats, WORKLOAD_LOW_HAND_SIZE,
};
pub use merge_patch::{merge_patch, MAX_PATCH_DEPTH};
pub use metrics::ApiServerMetrics;
pub use namespace::NamespaceFinalizeReport;
pub use request::{
    ApiError, DeleteOptions, DeleteResult, ObjectList, StatusReason, Verb,
    OPTIMISTIC_LOCK_ERROR_MSG,
};
pub use selector::{LabelSelector, Requirement};
pub use store::same_stored_content;
pub use strategy::{DEFAULT_POD_GRACE_PERIOD_S, NAMESPACE_FINALIZER};
pub use watch_cache::{
    WatchCache, WatchCacheConfig, WatchEvent, WatchEventType, INITIAL_EVENTS_END_ANNOTATION,
};
pub use wire::{object_from_json, object_to_json};

use crate::error::ConfigError;
use crate::key::Key;
use crate::object::{Json, Object, ObjectRef};
use crate::sim::Rng;
use crate::time::SimTime;
use crate::vec_map::VecMap;
use store::Store;

/// How long a watch from a resourceVersion the cache has not reached waits before failing with
/// "Too large resource version" (apiserver `pkg/storage/cacher/watch_cache.go` `blockTimeout`).
/// [`ApiServer::watch_from`] answers at once; the simulation should delay the error by this.
pub const WATCH_BLOCK_TIMEOUT: Duration = Duration::from_secs(3);

/// `resourceVersionTooHighRetrySeconds`.
const TOO_HIGH_RETRY_S: u64 = 1;

/// The simulated API server.
#[derive(Clone, Debug)]
pub struct ApiServer {
    config: ApiServerConfig,
    /// The served kinds by name: a few, looked up on every request by reading them in order
    /// ([`VecMap::get_in_few`]), as are `caches` and the store's objects by kind.
    kinds: VecMap<String, Arc<ResourceKind>>,
    store: Store,
    /// The watch cache of each kind, under the kind's name shared with every pending event.
    caches: VecMap<Arc<str>, WatchCache>,
    pending: Vec<(Arc<str>, WatchEvent)>,
    limiter: RequestLimiter,
    request_total: VecMap<(Verb, u16), u64>,
    /// Where in `request_total` the last request was counted: most requests repeat the verb
    /// and code of the one before (a reconcile's `PUT` answered 200, a creation's `POST`s), so
    /// the place is tried first ([`VecMap::get_or_default_near`]).
    last_counted_at: usize,
}

impl ApiServer {
    /// A server serving `Namespace`, `Pod`, `Node` and the configured kinds, with the bootstrap
    /// namespaces created as initial state (no events). More kinds: [`ApiServer::register_kind`].
    pub fn new(config: ApiServerConfig) -> Result<ApiServer, ConfigError> {
        config.validate()?;
        let mut server = ApiServer {
            limiter: RequestLimiter::new(config.flow_control.clone())?,
            store: Store::new(config.initial_resource_version),
            config,
            kinds: VecMap::new(),
            caches: VecMap::new(),
            pending: Vec::new(),
            request_total: VecMap::new(),
            last_counted_at: 0,
        };
        let builtin = [
            ResourceKind::namespace(),
            ResourceKind::pod(),
            ResourceKind::node(),
        ];
        for kind in builtin.into_iter().chain(server.config.kinds.clone()) {
            server.register_kind(kind)?;
        }
        for name in server.config.bootstrap_namespaces.clone() {
            server.bootstrap_namespace(&name);
        }
        // The bootstrap objects are the caches' initial list, not history.
        let revision = server.store.revision();
        for cache in server.caches.values_mut() {
            *cache = WatchCache::new(&server.config.watch_cache, revision);
        }
        server.pending.clear();
        server.request_total.clear();
        Ok(server)
    }

    fn bootstrap_namespace(&mut self, name: &str) {
        let ns = Object::new("Namespace", "", name);
        // Creating an absent, valid namespace cannot fail; a duplicate name is simply skipped.
        let _ = self.create(ns, SimTime::ZERO);
    }

    /// Starts serving `kind` (a CRD being established); its watch cache starts at the current
    /// revision. A second kind with the same name is a [`ConfigError`].
    pub fn register_kind(&mut self, kind: ResourceKind) -> Result<(), ConfigError> {
        kind.validate()?;
        if self.kinds.contains_key(&kind.name) {
            return Err(ConfigError::new(
                "kind.name",
                format!("{} is already registered", kind.name),
            ));
        }
        let cache = WatchCache::new(&self.config.watch_cache, self.store.revision());
        self.caches.insert(Arc::from(kind.name.as_str()), cache);
        self.kinds.insert(kind.name.clone(), Arc::new(kind));
        Ok(())
    }

    /// The registered kind called `name`.
    pub fn kind(&self, name: &str) -> Option<&ResourceKind> {
        self.kinds.get_in_few(name).map(Arc::as_ref)
    }

    /// Every registered kind, by name.
    pub fn kinds(&self) -> impl Iterator<Item = &ResourceKind> {
        self.kinds.values().map(Arc::as_ref)
    }

    /// The configuration the server was built with.
    pub fn config(&self) -> &ApiServerConfig {
        &self.config
    }

    /// The current etcd revision (the newest resourceVersion handed out).
    pub fn revision(&self) -> u64 {
        self.store.revision()
    }

    /// Number of stored objects of `kind` (`apiserver_storage_objects`).
    pub fn count(&self, kind: &str) -> usize {
        self.store.count(kind)
    }

    /// The object count and average stored size of `kind`, as APF's list cost estimate reads them
    /// (apiserver `pkg/util/flowcontrol/request/object_count_tracker.go`, `storage.Stats`).
    pub fn list_stats(&self, kind: &str) -> ListStats {
        let count = self.store.count(kind) as u64;
        let bytes = self.store.total_size_bytes(kind);
        ListStats {
            object_count: count,
            average_object_size_bytes: bytes.checked_div(count).unwrap_or(0),
        }
    }

    /// Stored objects of `kind` whose deletionTimestamp is set (Terminating, held by finalizers).
    pub fn terminating(&self, kind: &str) -> usize {
        self.store.terminating(kind)
    }

    fn record<T>(&mut self, verb: Verb, result: &Result<T, ApiError>, ok_code: u16) {
        let code = result.as_ref().map_or_else(|e| e.code, |_| ok_code);
        self.record_request(verb, code);
    }

    /// Counts one request outcome in `apiserver_request_total` (for requests the simulation answers
    /// without calling an operation, e.g. a client-side timeout it models).
    pub fn record_request(&mut self, verb: Verb, code: u16) {
        let near = &mut self.last_counted_at;
        *self.request_total.get_or_default_near(near, (verb, code)) += 1;
    }

    /// POST (apiserver `pkg/registry/generic/registry/store.go` `Create`): `NamespaceLifecycle`
    /// admission (404 missing / 403 terminating namespace), system fields wiped, the strategy's
    /// `PrepareForCreate` (CRs: generation 1, status dropped with `/status`), then storage:
    /// resourceVersion set ⇒ 500 "resourceVersion should not be set on objects to be created",
    /// name taken ⇒ 409 AlreadyExists; else a uid, the next revision and an ADDED event. 201.
    pub fn create(&mut self, obj: Object, now: SimTime) -> Result<ObjectRef, ApiError> {
        let result = self.do_create(obj, now);
        self.record(Verb::Create, &result, 201);
        result
    }

    /// GET of one object (`Store.Get`); 404 `<resource> "<name>" not found` when absent.
    pub fn get(&mut self, kind: &str, namespace: &str, name: &str) -> Result<ObjectRef, ApiError> {
        let result = self.do_get(kind, namespace, name);
        self.record(Verb::Get, &result, 200);
        result
    }

    /// LIST of `kind` (`Store.List`), optionally in one namespace and filtered by labels, in storage
    /// key order; the list resourceVersion is the current revision (etcd3 `store.go` `GetList`).
    pub fn list(
        &mut self,
        kind: &str,
        namespace: Option<&str>,
        selector: Option<&LabelSelector>,
    ) -> Result<ObjectList, ApiError> {
        let result = self.do_list(kind, namespace, selector);
        self.record(Verb::List, &result, 200);
        result
    }

    /// A LIST of every object of `kind` whose caller reads only the first `count` items (a user's
    /// command acting on the first few objects): counted as the LIST it is, but only the items
    /// read are handed out. [`ApiServer::list`] of `(kind, None, None)` truncated to `count`.
    pub fn list_head(&mut self, kind: &str, count: usize) -> Result<ObjectList, ApiError> {
        let result = self.do_list_head(kind, None, None, count);
        self.record(Verb::List, &result, 200);
        result
    }

    /// LIST of every object of `kind` (`Store.List` without a namespace or selector), as the
    /// reflector sends it: the items are a snapshot of the store at the list's revision, handed
    /// out a part at a time ([`ListItems`]); returns them with the list resourceVersion.
    pub fn list_all(&mut self, kind: &str) -> Result<(ListItems, u64), ApiError> {
        let result = self.do_list_all(kind);
        self.record(Verb::List, &result, 200);
        result
    }

    /// PUT on the main endpoint (`Store.Update`, order in `registry.rs`): 404 missing; 409 when a
    /// non-empty `metadata.uid` differs from the stored one (the UID storage precondition); 422
    /// without resourceVersion unless the kind allows unconditional updates; 409 on a stale one
    /// (before the no-op test); the strategy's status/generation rules; emptied finalizers while
    /// deleting ⇒ removal (DELETED); identical result ⇒ no-op (no revision, no event); else
    /// MODIFIED. A body no one else holds (an [`ObjectRef`] given up by the caller) becomes the
    /// stored object without a copy.
    pub fn update(
        &mut self,
        obj: impl Into<ObjectRef>,
        now: SimTime,
    ) -> Result<ObjectRef, ApiError> {
        let result = self.do_update(obj.into(), registry::Endpoint::Main, now);
        self.record(Verb::Update, &result, 200);
        result
    }

    /// PUT on `/status` (customresource `status_strategy.go`): only `status` is taken from the
    /// request, generation never moves; same precondition and no-op rules as [`ApiServer::update`];
    /// 404 when the kind does not serve `/status`.
    pub fn update_status(
        &mut self,
        obj: impl Into<ObjectRef>,
        now: SimTime,
    ) -> Result<ObjectRef, ApiError> {
        let result = self.do_update(obj.into(), registry::Endpoint::Status, now);
        self.record(Verb::Update, &result, 200);
        result
    }

    /// PATCH with a JSON merge patch (apiserver `pkg/endpoints/handlers/patch.go`) applied to the
    /// current object's wire shape ([`object_to_json`]), then the [`ApiServer::update`] flow: a
    /// patch without `metadata.resourceVersion` never conflicts, one with a stale RV is 409.
    pub fn patch(
        &mut self,
        kind: &str,
        namespace: &str,
        name: &str,
        patch: &Json,
        now: SimTime,
    ) -> Result<ObjectRef, ApiError> {
        let target = registry::Target {
            kind,
            namespace,
            name,
        };
        self.patch_at(registry::Endpoint::Main, target, patch, now)
    }

    /// PATCH on `/status`: the merge patch, then the [`ApiServer::update_status`] rules; 404 when
    /// the kind does not serve `/status`.
    pub fn patch_status(
        &mut self,
        kind: &str,
        namespace: &str,
        name: &str,
        patch: &Json,
        now: SimTime,
    ) -> Result<ObjectRef, ApiError> {
        let target = registry::Target {
            kind,
            namespace,
            name,
        };
        self.patch_at(registry::Endpoint::Status, target, patch, now)
    }

    /// A PATCH on `endpoint`, recorded in the request metrics.
    fn patch_at(
        &mut self,
        endpoint: registry::Endpoint,
        target: registry::Target<'_>,
        patch: &Json,
        now: SimTime,
    ) -> Result<ObjectRef, ApiError> {
        let result = self.do_patch(target, patch, endpoint, now);
        self.record(Verb::Patch, &result, 200);
        result
    }

    /// DELETE (`Store.Delete`, `rest.BeforeDelete`): precondition mismatch ⇒ 409; finalizers
    /// pending ⇒ deletionTimestamp = now, deletionGracePeriodSeconds = 0, generation +1, MODIFIED
    /// (a repeat is a no-op); graceful kinds (pods) get deletionTimestamp = now + grace and the
    /// grace as deletionGracePeriodSeconds; otherwise removal with a DELETED event at
    /// the deletion revision. Namespaces go `Terminating` first (see
    /// [`ApiServer::namespace_finalize_step`]). 200.
    pub fn delete(
        &mut self,
        kind: &str,
        namespace: &str,
        name: &str,
        options: &DeleteOptions,
        now: SimTime,
    ) -> Result<DeleteResult, ApiError> {
        let target = registry::Target {
            kind,
            namespace,
            name,
        };
        let result = self.do_delete(target, options, now);
        self.record(Verb::Delete, &result, 200);
        result
    }

    /// WATCH from `resource_version`: `0` replays the current objects as ADDED events (legacy
    /// watch semantics); otherwise the cached events after it, 410 Expired when it fell out of the
    /// window, or 504 "Too large resource version" when it is newer than the revision.
    ///
    /// Upstream accepts the watch (HTTP 200) and delivers these errors as one ERROR event
    /// ([`WatchEvent::error`]); `apiserver_request_total` therefore counts WATCH 200 here too.
    pub fn watch_from(
        &mut self,
        kind: &str,
        resource_version: u64,
    ) -> Result<Vec<WatchEvent>, ApiError> {
        let result = self.do_watch_from(kind, resource_version);
        let code = if self.kinds.contains_key(kind) {
            200
        } else {
            404
        };
        self.record_request(Verb::Watch, code);
        result
    }

    fn do_watch_from(
        &self,
        kind: &str,
        resource_version: u64,
    ) -> Result<Vec<WatchEvent>, ApiError> {
        let kind = self.kind_or_404(kind)?;
        let revision = self.store.revision();
        if resource_version > revision {
            return Err(ApiError::timeout(
                &format!("Too large resource version: {resource_version}, current: {revision}"),
                TOO_HIGH_RETRY_S,
            ));
        }
        if resource_version == 0 {
            return Ok(self.current_state_as_added(&kind.name));
        }
        match self.caches.get(kind.name.as_str()) {
            Some(cache) => cache.events_since(resource_version),
            None => Err(ApiError::endpoint_not_found()),
        }
    }

    fn current_state_as_added(&self, kind: &str) -> Vec<WatchEvent> {
        self.store
            .iter_kind(kind)
            .map(|(_, s)| WatchEvent::new(WatchEventType::Added, ObjectRef::clone(&s.object)))
            .collect()
    }

    /// A streaming watch-list (`sendInitialEvents=true`): ADDED for every current object, then a
    /// BOOKMARK at the current revision annotated `k8s.io/initial-events-end: "true"`
    /// (apiserver `pkg/storage/cacher/cacher.go` `setInitialEventsEndBookmarkIfRequested`).
    pub fn watch_list(&mut self, kind: &str) -> Result<Vec<WatchEvent>, ApiError> {
        let result = self.kind_or_404(kind).map(|k| {
            let mut events = self.current_state_as_added(&k.name);
            events.push(WatchEvent::bookmark(&k.name, self.store.revision(), true));
            events
        });
        self.record(Verb::Watch, &result, 200);
        result
    }

    /// A periodic BOOKMARK for watchers of `kind` at the current revision (sent about every
    /// minute upstream, `defaultBookmarkFrequency`).
    pub fn bookmark(&self, kind: &str) -> WatchEvent {
        WatchEvent::bookmark(kind, self.store.revision(), false)
    }

    /// Takes the events produced since the last drain, in commit order, each with its kind's
    /// name (shared, not copied per event). The simulation fans them out to watchers (with
    /// latency); they also sit in the watch caches.
    pub fn drain_events(&mut self) -> Vec<(Arc<str>, WatchEvent)> {
        std::mem::take(&mut self.pending)
    }

    /// [`ApiServer::drain_events`] without giving up the buffer: it keeps its room for the next
    /// write's event, so a run of writes allocates none.
    pub fn drain_events_in_place(&mut self) -> std::vec::Drain<'_, (Arc<str>, WatchEvent)> {
        self.pending.drain(..)
    }

    /// Events produced and not yet drained.
    pub fn pending_events(&self) -> &[(Arc<str>, WatchEvent)] {
        &self.pending
    }

    /// The stored object, without counting a request (for snapshots and invariant checkers).
    pub fn peek(&self, kind: &str, namespace: &str, name: &str) -> Option<ObjectRef> {
        let k = self.kinds.get(kind)?;
        let ns = if k.namespaced { namespace } else { "" };
        self.store
            .get(kind, &Key::of(ns, name))
            .map(|s| ObjectRef::clone(&s.object))
    }

    /// The keys of the stored objects of `kind` in key order, without counting a request.
    pub fn keys<'a>(&'a self, kind: &str) -> impl Iterator<Item = &'a Key> + 'a {
        self.store.iter_kind(kind).map(|(k, _)| k)
    }

    /// Every stored object of `kind` in key order, without counting a request.
    pub fn snapshot(&self, kind: &str) -> Vec<ObjectRef> {
        self.store
            .iter_kind(kind)
            .map(|(_, s)| ObjectRef::clone(&s.object))
            .collect()
    }

    /// The watch cache of `kind`.
    pub fn watch_cache(&self, kind: &str) -> Option<&WatchCache> {
        self.caches.get(kind)
    }

    /// Records a committed change in `kind`'s watch cache and as a pending event.
    fn emit(&mut self, kind: &str, event_type: WatchEventType, object: ObjectRef, now: SimTime) {
        let event = WatchEvent::new(event_type, object);
        let name = match self.caches.get_key_value_mut_in_few(kind) {
            Some((name, cache)) => {
                cache.add(event.clone(), now);
                Arc::clone(name)
            }
            None => Arc::from(kind),
        };
        self.pending.push((name, event));
    }

    /// Runs a one-seat request through admission; a rejection is counted as a 429.
    pub fn admit(&mut self, verb: Verb, now: SimTime) -> Admission {
        self.admit_seats(verb, 1, now)
    }

    /// Runs a request of `seats` (see [`list_seats`]) through admission
    /// ([`RequestLimiter::try_admit_seats`]); call [`ApiServer::expire_queued`] at the deadline of
    /// every [`Admission::Queued`].
    pub fn admit_seats(&mut self, verb: Verb, seats: u32, now: SimTime) -> Admission {
        let admission = self.limiter.try_admit_seats(verb, seats, now);
        if let Admission::Rejected { .. } = admission {
            self.record_request(verb, 429);
        }
        admission
    }

    /// Marks an admitted request finished; returns queued requests that got dispatched or timed
    /// out (the latter counted as 429s).
    pub fn release(&mut self, ticket: Ticket, now: SimTime) -> Vec<QueueOutcome> {
        let mut out = Vec::new();
        self.release_into(ticket, now, &mut out);
        out
    }

    /// [`ApiServer::release`], its outcomes appended to `out`.
    pub fn release_into(&mut self, ticket: Ticket, now: SimTime, out: &mut Vec<QueueOutcome>) {
        let start = out.len();
        self.limiter.release_into(ticket, now, out);
        self.record_timeouts(&out[start..]);
    }

    /// The earliest deadline of a request waiting in an APF queue, if one waits.
    pub fn next_queue_deadline(&self) -> Option<SimTime> {
        self.limiter.next_queue_deadline()
    }

    /// Rejects queued requests whose wait ran out (counted as 429s) and reports any request their
    /// removal let start.
    pub fn expire_queued(&mut self, now: SimTime) -> Vec<QueueOutcome> {
        let mut out = Vec::new();
        self.expire_queued_into(now, &mut out);
        out
    }

    /// [`ApiServer::expire_queued`], its outcomes appended to `out`.
    pub fn expire_queued_into(&mut self, now: SimTime, out: &mut Vec<QueueOutcome>) {
        let start = out.len();
        self.limiter.expire_queued_into(now, out);
        self.record_timeouts(&out[start..]);
    }

    fn record_timeouts(&mut self, outcomes: &[QueueOutcome]) {
        for o in outcomes {
            if let QueueOutcome::TimedOut { ticket, .. } = o {
                self.record_request(ticket.verb, 429);
            }
        }
    }

    /// Adds or removes `kind`'s `/status` subresource, as an update of its CRD does: from now on
    /// the main resource's Update keeps the stored status (with `/status`) and `/status`
    /// requests are 404 (without). Returns whether the kind is served.
    pub fn set_status_subresource(&mut self, kind: &str, enabled: bool) -> bool {
        let Some(current) = self.kinds.get_mut(kind) else {
            return false;
        };
        let mut changed = ResourceKind::clone(current);
        changed.status_subresource = enabled;
        *current = Arc::new(changed);
        true
    }

    /// Changes the admission limits ([`RequestLimiter::set_mode`]).
    pub fn set_flow_control(&mut self, mode: FlowControl) -> Result<(), ConfigError> {
        self.limiter.set_mode(mode)
    }

    /// The admission filter.
    pub fn limiter(&self) -> &RequestLimiter {
        &self.limiter
    }

    /// Samples how long a request takes ([`LatencyConfig::sample`]).
    pub fn request_latency(
        &self,
        verb: Verb,
        payload_bytes: u64,
        list_items: u64,
        rng: &mut Rng,
    ) -> Duration {
        self.config
            .latency
            .sample(verb, payload_bytes, list_items, rng)
    }

    /// `apiserver_request_total{verb,code}`.
    pub fn request_total(&self) -> &VecMap<(Verb, u16), u64> {
        &self.request_total
    }

    /// A snapshot of every metric.
    pub fn metrics(&self) -> ApiServerMetrics {
        let per_kind = |f: &dyn Fn(&str) -> u64| -> VecMap<String, u64> {
            self.kinds.keys().map(|k| (k.clone(), f(k))).collect()
        };
        let cache_stat = |k: &str, cap: bool| {
            self.caches
                .get(k)
                .map_or(0, |c| if cap { c.capacity() } else { c.len() }) as u64
        };
        ApiServerMetrics {
            request_total: self.request_total.clone(),
            resource_version: self.store.revision(),
            objects: per_kind(&|k| self.store.count(k) as u64),
            watch_cache_capacity: per_kind(&|k| cache_stat(k, true)),
            watch_cache_events: per_kind(&|k| cache_stat(k, false)),
            pending_watch_events: self.pending.len() as u64,
            in_flight: self.limiter.in_flight(),
            rejected_total: self
                .limiter
                .rejected_total()
                .iter()
                .map(|(k, v)| ((*k).to_owned(), *v))
                .collect(),
            retry_after_s: self.limiter.retry_after_s(),
        }
    }
}
