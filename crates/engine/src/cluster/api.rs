//! The cluster's side of the API server: maps requests onto [`crate::apiserver::ApiServer`],
//! keeps admission tickets per request, and adds etcd's write throughput.

use std::time::Duration;

use crate::apiserver::{
    list_work_seats, priority_level_max_seats, Admission, ApiError, ApiServer, ApiServerConfig,
    DeleteOptions, FlowControl, QueueOutcome, ResourceKind, Ticket, Verb, WatchEvent,
    WORKLOAD_LOW_HAND_SIZE,
};
use crate::informer::reflector::{ListRv, WatchError};
use crate::object::{Object, ObjectRef};
use crate::scenario::{FlowControlMode, Profile, Scenario, ScenarioError};
use crate::sim::id_map::IdMap;
use crate::sim::Rng;
use crate::time::SimTime;

use super::request::{Call, Reply};

/// The admission filter `a` configures.
fn flow_control_of(a: &crate::scenario::ApiServerConfig) -> FlowControl {
    match a.flow_control {
        FlowControlMode::Apf => FlowControl::Apf {
            seats: a.seats,
            queue_capacity: a.queue_capacity,
            queue_wait_ms: a.queue_wait.as_millis() as u64,
        },
        FlowControlMode::MaxInFlight => FlowControl::MaxInFlight {
            read: a.max_requests_in_flight,
            mutating: a.max_mutating_requests_in_flight,
        },
    }
}

/// What admission decided for an arriving request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admit {
    /// It executes now.
    Now,
    /// It waits in an APF queue until dispatched, or rejected at `deadline`.
    Queued {
        /// When its queue wait runs out.
        deadline: SimTime,
    },
    /// 429 with this `Retry-After`.
    Reject {
        /// Seconds.
        retry_after_s: u64,
    },
}

/// The API server as the cluster uses it.
#[derive(Clone)]
pub struct SimApiServer {
    server: ApiServer,
    kind: String,
    /// The APF ticket of each request admitted or queued, by request id.
    tickets: IdMap<Ticket>,
    /// The request id of each ticket, by ticket id.
    by_ticket: IdMap<u64>,
    etcd_write_interval: Option<Duration>,
    etcd_free_at: SimTime,
    profile: Profile,
    level_max_seats: u64,
    /// The flow control's outcomes of the release at hand (empty between events; kept for its
    /// buffer).
    outcomes: Vec<QueueOutcome>,
}

impl SimApiServer {
    /// The API server of `scenario`, serving its custom resource kind.
    pub fn new(scenario: &Scenario) -> Result<SimApiServer, ScenarioError> {
        let a = &scenario.apiserver;
        let flow_control = flow_control_of(a);
        let config = ApiServerConfig {
            latency: a.latency.clone(),
            flow_control,
            watch_cache: a.watch_cache.clone(),
            ..ApiServerConfig::default()
        };
        let mut server = ApiServer::new(config).map_err(|e| field_err("apiserver", e))?;
        let crd = &scenario.crd;
        // A kind is ASCII letters and digits (`Scenario::validate`): no Unicode case tables.
        let plural = format!("{}s", crd.kind.to_ascii_lowercase());
        let kind = ResourceKind::custom_resource(
            &crd.kind,
            &plural,
            "demo.flywheel.dev",
            true,
            crd.status_subresource,
        );
        server
            .register_kind(kind)
            .map_err(|e| field_err("crd", e))?;
        for i in 0..scenario.objects.namespaces {
            let _ = server.create(
                Object::new("Namespace", "", &format!("ns-{i}")),
                SimTime::ZERO,
            );
        }
        server.drain_events();
        let etcd_write_interval = (a.etcd_writes_per_second > 0.0)
            .then(|| Duration::from_secs_f64(1.0 / a.etcd_writes_per_second));
        Ok(SimApiServer {
            server,
            kind: crd.kind.clone(),
            tickets: IdMap::new(),
            by_ticket: IdMap::new(),
            etcd_write_interval,
            etcd_free_at: SimTime::ZERO,
            profile: scenario.profile,
            level_max_seats: priority_level_max_seats(u64::from(a.seats), WORKLOAD_LOW_HAND_SIZE),
            outcomes: Vec::new(),
        })
    }

    /// Admission of request `id` (APF or max-in-flight; kube-apiserver `pkg/server/filters`).
    pub fn admit(&mut self, id: u64, call: &Call, now: SimTime) -> Admit {
        let verb = call.verb();
        let admission = match call {
            Call::List(rv) => {
                let seats = self.list_seats(*rv);
                self.server.admit_seats(verb, seats, now)
            }
            Call::WatchList(_) => {
                let seats = self.watch_list_seats();
                self.server.admit_seats(verb, seats, now)
            }
            _ => self.server.admit(verb, now),
        };
        match admission {
            Admission::Admitted(t) => {
                self.hold(id, t);
                Admit::Now
            }
            Admission::Queued { ticket, deadline } => {
                self.hold(id, ticket);
                Admit::Queued { deadline }
            }
            Admission::Rejected { retry_after_s } => Admit::Reject { retry_after_s },
        }
    }

    /// The APF width of a LIST at `rv` under the server's list cost estimate
    /// (apiserver `pkg/util/flowcontrol/request/list_work_estimator.go`). A LIST at `""` is served
    /// by the watch cache only with `ConsistentListFromCache` (on since 1.31, GA 1.34); before,
    /// it is delegated to etcd (`shouldListFromStorage` / `delegator.ShouldDelegateList`).
    fn list_seats(&self, rv: ListRv) -> u32 {
        let from_cache = rv != ListRv::Latest || self.profile.consistent_list_from_cache();
        list_work_seats(
            self.profile.list_cost_estimate(),
            self.server.list_stats(&self.kind),
            from_cache,
            self.level_max_seats,
        )
    }

    /// The APF width of a watch-list: with the `WatchList` gate the server estimates a WATCH
    /// that sends initial events like a LIST from the watch cache; without it, a WATCH takes the
    /// minimum seat (apiserver `pkg/util/flowcontrol/request/width.go`).
    fn watch_list_seats(&self) -> u32 {
        if !self.profile.apiserver_watch_list() {
            return 1;
        }
        list_work_seats(
            self.profile.list_cost_estimate(),
            self.server.list_stats(&self.kind),
            true,
            self.level_max_seats,
        )
    }

    fn hold(&mut self, id: u64, t: Ticket) {
        self.tickets.insert(id, t);
        self.by_ticket.insert(t.id, id);
    }

    /// Frees request `id`'s seats; appends to `out` the queued requests that were dispatched
    /// or timed out.
    ///
    /// Time-outs come first, then dispatches in queue order: what would have been dispatched
    /// before the seats were freed is the front of what is dispatched after, so one dispatch,
    /// after freeing, gives the same requests in the same order.
    pub fn release(&mut self, id: u64, now: SimTime, out: &mut Vec<(u64, Admit)>) {
        let mut outcomes = std::mem::take(&mut self.outcomes);
        match self.tickets.remove(id) {
            Some(t) => {
                self.by_ticket.remove(t.id);
                self.server.release_into(t, now, &mut outcomes);
            }
            None => self.server.expire_queued_into(now, &mut outcomes),
        }
        out.extend(outcomes.drain(..).filter_map(|o| self.outcome(o)));
        self.outcomes = outcomes;
    }

    /// The earliest deadline of a request waiting in an APF queue.
    pub fn next_queue_deadline(&self) -> Option<SimTime> {
        self.server.next_queue_deadline()
    }

    /// Rejects queued requests whose wait ran out by `now`.
    pub fn expire(&mut self, now: SimTime) -> Vec<(u64, Admit)> {
        let outcomes = self.server.expire_queued(now);
        outcomes
            .into_iter()
            .filter_map(|o| self.outcome(o))
            .collect()
    }

    fn outcome(&mut self, o: QueueOutcome) -> Option<(u64, Admit)> {
        match o {
            QueueOutcome::Dispatched { ticket, .. } => {
                self.by_ticket.get(ticket.id).map(|id| (*id, Admit::Now))
            }
            QueueOutcome::TimedOut {
                ticket,
                retry_after_s,
            } => {
                let id = self.by_ticket.remove(ticket.id)?;
                self.tickets.remove(id);
                Some((id, Admit::Reject { retry_after_s }))
            }
        }
    }

    /// How long the request takes: the latency model, plus waiting for etcd when writes arrive
    /// faster than it commits them.
    pub fn latency(&mut self, call: &Call, now: SimTime, rng: &mut Rng) -> Duration {
        let items = if matches!(call, Call::List(_) | Call::WatchList(_)) {
            self.object_count() as u64
        } else {
            0
        };
        // A watch-list's initial events cost the server what a LIST from the cache does.
        let verb = match call {
            Call::WatchList(_) => Verb::List,
            _ => call.verb(),
        };
        let base = self
            .server
            .request_latency(verb, call.payload_bytes(), items, rng);
        match (self.etcd_write_interval, call.is_mutating()) {
            (Some(interval), true) => {
                let commit_at = (now + base).max(self.etcd_free_at);
                self.etcd_free_at = commit_at + interval;
                commit_at.saturating_since(now)
            }
            _ => base,
        }
    }

    /// Carries out a request. A body no one else holds becomes the stored object without a copy.
    pub fn execute(&mut self, call: Call, now: SimTime) -> Reply {
        let kind = self.kind.as_str();
        let result = match call {
            Call::Create(o) => self
                .server
                .create(ObjectRef::unwrap_or_clone(o), now)
                .map(Reply::Object),
            Call::Put {
                object,
                status: false,
            } => self.server.update(object, now).map(Reply::Object),
            Call::Put {
                object,
                status: true,
            } => self.server.update_status(object, now).map(Reply::Object),
            Call::Patch(p) if !p.status => self
                .server
                .patch(kind, &p.namespace, &p.name, &p.patch, now)
                .map(Reply::Object),
            Call::Patch(p) => self
                .server
                .patch_status(kind, &p.namespace, &p.name, &p.patch, now)
                .map(Reply::Object),
            Call::Delete(target) => self
                .server
                .delete(
                    kind,
                    &target.namespace,
                    &target.name,
                    &DeleteOptions::default(),
                    now,
                )
                .map(|_| Reply::Deleted),
            Call::List(_) => self
                .server
                .list_all(kind)
                .map(|(items, rv)| Reply::List(items, rv)),
            Call::WatchList(_) => watch_list(&mut self.server, self.profile, kind),
        };
        result.unwrap_or_else(error_reply)
    }

    /// Creates an object without a request (objects that exist before the run).
    pub fn create_direct(&mut self, obj: Object, now: SimTime) {
        let _ = self.server.create(obj, now);
    }

    /// A watch from `resource_version`, accepted with HTTP 200: the cached events after it, or —
    /// when the resourceVersion is too old (410) or too new (504) — the one ERROR event carrying
    /// the `metav1.Status` by which the cacher's error watcher reports it (apiserver
    /// `pkg/storage/cacher/cacher.go` `Watch` → `newErrWatcher`, served by
    /// `pkg/endpoints/handlers/watch.go` like any watch).
    pub fn watch_from(&mut self, resource_version: u64) -> Vec<WatchEvent> {
        self.server
            .watch_from(&self.kind, resource_version)
            .unwrap_or_else(|err| vec![WatchEvent::error(err)])
    }

    /// How many watch events of the custom resource kind were produced since the last
    /// [`SimApiServer::drain_events`].
    pub fn event_count(&self) -> usize {
        let kind = &*self.kind;
        self.server
            .pending_events()
            .iter()
            .filter(|(k, _)| **k == *kind)
            .count()
    }

    /// Hands each watch event of the custom resource kind produced since the last call to
    /// `send`, in commit order; the others are dropped.
    pub fn drain_events(&mut self, mut send: impl FnMut(WatchEvent)) {
        let kind = &*self.kind;
        for (k, event) in self.server.drain_events_in_place() {
            if crate::key::same_text(&k, kind) {
                send(event);
            }
        }
    }

    /// The first `count` custom resources (all when `None`), in key order: one LIST, of which
    /// only the items read are handed out ([`ApiServer::list_head`]: a user annotating 100 of
    /// 2 000 objects reads 100).
    pub fn first_objects(&mut self, count: Option<usize>) -> Vec<ObjectRef> {
        let kind = self.kind.clone();
        self.server
            .list_head(&kind, count.unwrap_or(usize::MAX))
            .map(|l| l.items)
            .unwrap_or_default()
    }

    /// The custom resource `key` (`namespace/name`), when it is stored.
    pub fn object(&self, key: &str) -> Option<ObjectRef> {
        let (namespace, name) = key.split_once('/').unwrap_or(("", key));
        self.server.peek(&self.kind, namespace, name)
    }

    /// Takes `scenario`'s `/status` subresource and admission limits from now on (an updated CRD,
    /// new flow-control limits); an invalid limit is an error naming the field.
    pub fn reconfigure(&mut self, scenario: &Scenario) -> Result<(), ScenarioError> {
        let a = &scenario.apiserver;
        self.server
            .set_flow_control(flow_control_of(a))
            .map_err(|e| field_err("apiserver", e))?;
        self.level_max_seats = priority_level_max_seats(u64::from(a.seats), WORKLOAD_LOW_HAND_SIZE);
        self.server
            .set_status_subresource(&self.kind, scenario.crd.status_subresource);
        Ok(())
    }

    /// The API server itself (read-only).
    pub fn server(&self) -> &ApiServer {
        &self.server
    }

    /// Seats and queue occupancy.
    pub fn in_flight(&self) -> crate::apiserver::InFlight {
        self.server.limiter().in_flight()
    }

    /// The etcd revision.
    pub fn revision(&self) -> u64 {
        self.server.revision()
    }

    /// Stored custom resources.
    pub fn object_count(&self) -> usize {
        self.server.count(&self.kind)
    }

    /// `kubectl delete namespace <name>`: the HTTP status code.
    pub fn delete_namespace(&mut self, name: &str, now: SimTime) -> u16 {
        match self
            .server
            .delete("Namespace", "", name, &DeleteOptions::default(), now)
        {
            Ok(_) => 200,
            Err(e) => e.code,
        }
    }

    /// One pass of the namespace controller: `(DELETEs issued, namespaces still waiting)`.
    pub fn namespace_step(&mut self, now: SimTime) -> (usize, usize) {
        let report = self.server.namespace_finalize_step(now);
        (report.deletes_issued.len(), report.waiting.len())
    }

    /// Namespaces with a deletionTimestamp.
    pub fn namespaces_terminating(&self) -> usize {
        self.server.terminating("Namespace")
    }

    /// Every stored custom resource in key order, without counting a request (invariant checks).
    pub fn objects(&self) -> Vec<ObjectRef> {
        self.server.snapshot(&self.kind)
    }

    /// The resourceVersion of the newest watch event of the custom resource kind, if any.
    pub fn newest_event_rv(&self) -> Option<u64> {
        self.server
            .watch_cache(&self.kind)
            .and_then(crate::apiserver::WatchCache::newest_resource_version)
    }

    /// Watch events produced but not yet sent to watchers.
    pub fn undelivered_events(&self) -> usize {
        self.server.pending_events().len()
    }

    /// Custom resources with a deletionTimestamp.
    pub fn terminating(&self) -> usize {
        self.server.terminating(&self.kind)
    }
}

/// A watch-list: the initial events and the initial-events-end bookmark, or 422 when the
/// server's `WatchList` gate is off (apimachinery `pkg/apis/meta/internalversion/validation`
/// forbids `sendInitialEvents` then).
fn watch_list(server: &mut ApiServer, profile: Profile, kind: &str) -> Result<Reply, ApiError> {
    if !profile.apiserver_watch_list() {
        let why = "sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch \
                   unless the WatchList feature gate is enabled";
        return Err(ApiError::invalid(
            "ListOptions.meta.k8s.io",
            "",
            &[why.to_owned()],
        ));
    }
    server.watch_list(kind).map(Reply::WatchStream)
}

fn error_reply(e: ApiError) -> Reply {
    Reply::Error {
        code: e.code,
        retry_after_s: e.retry_after_s.unwrap_or(0),
        message: e.message,
    }
}

fn field_err(prefix: &str, e: crate::error::ConfigError) -> ScenarioError {
    ScenarioError {
        field: format!("{prefix}.{}", e.field),
        message: e.message,
    }
}

/// The error an ERROR watch event ends the reflector's watch with (client-go
/// `tools/cache/reflector.go` `handleAnyWatch`: `apierrors.FromObject(event.Object)`), classified
/// as the reflector's `watch` loop does: `isExpiredError` (410 Expired or Gone), 429, internal
/// error (500), a too-large resourceVersion (504), anything else.
pub fn watch_error(status: &ApiError) -> WatchError {
    match status.code {
        410 => WatchError::Expired,
        429 => WatchError::TooManyRequests,
        504 => WatchError::TooLargeResourceVersion,
        500 => WatchError::InternalError,
        _ => WatchError::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::object::Object;
    use crate::scenario::{presets, FlowControlMode};

    /// An API server with `seats` APF seats, a queue of ten and a one-second queue wait.
    fn server(seats: u32) -> SimApiServer {
        let mut scenario = presets::load("flywheel", &[]).expect("the flywheel preset loads");
        let a = &mut scenario.apiserver;
        (a.flow_control, a.seats, a.queue_capacity) = (FlowControlMode::Apf, seats, 10);
        a.queue_wait = Duration::from_secs(1);
        SimApiServer::new(&scenario).expect("the API server starts")
    }

    fn create(name: &str) -> Call {
        Call::Create(ObjectRef::new(Object::new("Widget", "ns-0", name)))
    }

    #[test]
    fn a_release_times_out_the_expired_first_then_dispatches_the_queue_in_order_once_freed() {
        let mut api = server(1);
        let at = SimTime::from_millis;
        assert_eq!(api.admit(1, &create("a"), at(0)), Admit::Now);
        assert!(matches!(
            api.admit(2, &create("b"), at(0)),
            Admit::Queued { .. }
        ));
        assert!(matches!(
            api.admit(3, &create("c"), at(900)),
            Admit::Queued { .. }
        ));
        assert!(matches!(
            api.admit(4, &create("d"), at(900)),
            Admit::Queued { .. }
        ));
        let mut out = Vec::new();
        api.release(1, at(1_500), &mut out);
        assert!(
            matches!(out[..], [(2, Admit::Reject { .. }), (3, Admit::Now)]),
            "{out:?}: b waited past its second; c takes the one freed seat, d still waits"
        );
        out.clear();
        api.release(3, at(1_600), &mut out);
        assert_eq!(out, [(4, Admit::Now)]);
        out.clear();
        api.release(99, at(1_700), &mut out);
        assert!(out.is_empty(), "an unknown request frees nothing");
    }
}
