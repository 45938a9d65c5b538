//! Requests between the operator and the API server: client-side throttling, admission (APF or
//! max-in-flight), latency, 429 retries, and watch delivery.

use std::time::Duration;

use crate::apiserver::{WatchEvent, WATCH_BLOCK_TIMEOUT};
use crate::informer::reflector::WatchError;
use crate::sim::{CauseNote, Context, EventId, EventKind};
use crate::time::SimTime;

use super::api::{watch_error, Admit};
use super::informer::OpenWatch;
use super::metric_keys::Fixed;
use super::request::{Call, Origin, Pending, Reply, CLIENT_MAX_RETRIES};
use super::{Cluster, Ev};

/// One-way network delay between the operator and the API server.
pub const NETWORK_DELAY: Duration = Duration::from_micros(250);

impl Cluster {
    /// Sends a request: the operator's requests wait for client-go's token bucket first
    /// (`rest/request.go` tryThrottle; the wait is `rest_client_rate_limiter_duration_seconds`).
    pub(super) fn send(&mut self, ctx: &mut Context<'_, Ev>, origin: Origin, call: Call) {
        let cause = self.cause_of_request(ctx, origin);
        let id = self.api.track_request(Pending {
            origin,
            call,
            attempts: 0,
            sent_at: ctx.now(),
            cause,
        });
        self.dispatch(ctx, id);
    }

    /// What made `origin` send a request now: the Reconcile its worker runs, or the user action
    /// (a scenario action sends its requests, then traces itself: it is the next event traced,
    /// which [`Cluster::done`] checks); a reflector's LIST is an origin of its own.
    fn cause_of_request(&self, ctx: &Context<'_, Ev>, origin: Origin) -> Option<EventId> {
        match origin {
            Origin::Worker { worker, .. } => self
                .operator
                .running
                .as_ref()
                .and_then(|op| op.workers.get(worker)?.reconcile),
            Origin::User => Some(ctx.next_event_id()),
            Origin::Reflector { .. } => None,
        }
    }

    /// Puts a (re)try of request `id` on the wire after the client-side limiter's wait.
    fn dispatch(&mut self, ctx: &mut Context<'_, Ev>, id: u64) {
        let Some(p) = self.api.pending.get(id) else {
            return;
        };
        // client-go `rest/request.go` `tryThrottleWithInfo`: without a rate limiter the request
        // goes at once and `rest_client_rate_limiter_duration_seconds` observes nothing.
        let wait = match (
            p.origin,
            self.operator
                .running
                .as_mut()
                .and_then(|o| o.client_limiter.as_mut()),
        ) {
            (Origin::User, _) | (_, None) => None,
            (_, Some(limiter)) => Some(limiter.wait(ctx.now())),
        };
        if let Some(wait) = wait {
            self.telemetry.observe_client_wait(wait);
        }
        let wait = wait.unwrap_or(Duration::ZERO);
        ctx.schedule_in(wait + NETWORK_DELAY, Ev::Arrive(id));
    }

    /// The request reaches the API server: admission, then processing for its latency.
    pub(super) fn arrive(&mut self, ctx: &mut Context<'_, Ev>, id: u64) {
        let Some(p) = self.api.pending.get(id) else {
            return;
        };
        match self.api.server.admit(id, &p.call, ctx.now()) {
            Admit::Now => self.start_processing(ctx, id),
            Admit::Queued { deadline } => self.schedule_queue_deadline(ctx, deadline),
            Admit::Reject { retry_after_s } => self.reject(ctx, id, retry_after_s),
        }
    }

    fn start_processing(&mut self, ctx: &mut Context<'_, Ev>, id: u64) {
        let Some(p) = self.api.pending.get(id) else {
            // Its client died while it waited in the APF queue: the server drops it at once.
            self.release_seat(ctx, id);
            return;
        };
        let latency = self.api.server.latency(&p.call, ctx.now(), ctx.rng);
        ctx.schedule_in(latency, Ev::Done(id));
    }

    /// 429: client-go sleeps `Retry-After` and retries, up to 10 times, before the caller sees it.
    fn reject(&mut self, ctx: &mut Context<'_, Ev>, id: u64, retry_after_s: u64) {
        let Some(p) = self.api.pending.get_mut(id) else {
            return;
        };
        let verb = p.call.verb();
        p.attempts += 1;
        let (attempts, user) = (p.attempts, matches!(p.origin, Origin::User));
        self.telemetry.count_request(verb.as_str(), 429);
        if attempts <= CLIENT_MAX_RETRIES && !user {
            let wait = Duration::from_secs(retry_after_s.max(1));
            let kind = EventKind::Retry429 {
                verb,
                attempt: attempts,
            };
            ctx.trace(None, None, kind);
            self.telemetry.count(Fixed::Retries429);
            let after = ctx.now() + wait;
            // The retry goes through the token bucket again (tryThrottle runs per attempt).
            self.pending_retry(ctx, id, after);
        } else {
            let reply = Reply::Error {
                code: 429,
                retry_after_s,
                message: "Too many requests".into(),
            };
            self.answer(ctx, id, reply);
        }
    }

    fn pending_retry(&mut self, ctx: &mut Context<'_, Ev>, id: u64, at: crate::time::SimTime) {
        // Modelled as the retry leaving the client at `at`: the limiter wait is taken then.
        let delay = at.saturating_since(ctx.now());
        let wait = match self
            .operator
            .running
            .as_mut()
            .and_then(|o| o.client_limiter.as_mut())
        {
            Some(limiter) => limiter.wait(at),
            None => Duration::ZERO,
        };
        ctx.schedule_in(delay + wait + NETWORK_DELAY, Ev::Arrive(id));
    }

    /// The API server finishes: the operation takes effect, watch events go out, the seat frees.
    pub(super) fn done(&mut self, ctx: &mut Context<'_, Ev>, id: u64) {
        // The request leaves the client's table so that its body reaches the server unshared;
        // a reading request goes back for the deferred answer of a large LIST.
        let Some(p) = self.api.pending.remove(id) else {
            self.release_seat(ctx, id);
            return;
        };
        let (verb, own) = (p.call.verb(), !matches!(p.origin, Origin::User));
        let cause = p.cause.filter(|&id| own || is_user_action(ctx, id));
        let (origin, kept) = (p.origin, (!p.call.is_mutating()).then(|| p.clone()));
        let revision = self.api.server.revision();
        let reply = self.api.server.execute(p.call, ctx.now());
        self.telemetry.count_request(verb.as_str(), reply.code());
        let kind = EventKind::ApiRequest {
            verb,
            code: reply.code(),
        };
        let (key, rv) = match &reply {
            Reply::Object(o) => (Some(o.key()), Some(o.resource_version())),
            _ => (None, None),
        };
        let request = ctx.trace_caused(key, rv, kind, cause.as_slice(), CauseNote::None);
        if let Some(rv) = rv {
            self.api.causes.write_done(rv, request, own);
        }
        if matches!(
            (&reply, origin),
            (Reply::List(..), Origin::Reflector { .. })
        ) {
            self.api.causes.listed(request);
        }
        // The other revisions it committed — a DELETE's removal or deletionTimestamp, the
        // removal that follows a write taking the last finalizer off — are its effects too.
        for committed in revision + 1..=self.api.server.revision() {
            if Some(committed) != rv {
                self.api.causes.delete_done(committed, request);
            }
        }
        self.fan_out_events(ctx);
        self.release_seat(ctx, id);
        if matches!(&reply, Reply::List(items, _) if items.len() > super::REPLACE_OBJECTS_PER_EVENT)
        {
            // The client takes a large LIST in its own part, right after: same instant, same order.
            if let Some(p) = kept {
                self.api.pending.insert(id, p);
            }
            ctx.continue_with(Ev::Answer {
                id,
                reply: Box::new(reply),
            });
        } else {
            self.deliver(ctx, origin, reply);
        }
    }

    fn release_seat(&mut self, ctx: &mut Context<'_, Ev>, id: u64) {
        let mut outcomes = std::mem::take(&mut self.api.admitted);
        self.api.server.release(id, ctx.now(), &mut outcomes);
        self.queue_outcomes(ctx, &mut outcomes);
        self.api.admitted = outcomes;
    }

    /// An APF queue wait ran out: those requests get 429.
    pub(super) fn queue_deadline(&mut self, ctx: &mut Context<'_, Ev>) {
        if self.api.queue_deadline_at == Some(ctx.now()) {
            self.api.queue_deadline_at = None;
        }
        let mut outcomes = self.api.server.expire(ctx.now());
        self.queue_outcomes(ctx, &mut outcomes);
        if let Some(next) = self.api.server.next_queue_deadline() {
            self.schedule_queue_deadline(ctx, next);
        }
    }

    /// Makes sure the APF queue is looked at by `deadline`, a queued request's: one wake-up at
    /// the earliest deadline of those waiting, not one per request. A request dispatched before
    /// its deadline then leaves no event behind; each waiting request is still rejected at its
    /// own deadline, as the wake-up at the earliest one schedules the next (upstream, each
    /// waiting request's own context times out: apiserver `pkg/util/flowcontrol/fairqueuing/
    /// queueset/queueset.go`).
    fn schedule_queue_deadline(&mut self, ctx: &mut Context<'_, Ev>, deadline: SimTime) {
        let now = ctx.now();
        if self
            .api
            .queue_deadline_at
            .is_some_and(|at| at <= deadline && at >= now)
        {
            return;
        }
        self.api.queue_deadline_at = Some(deadline);
        ctx.schedule_at(deadline, Ev::QueueDeadline);
    }

    /// Starts or rejects each queued request `outcomes` names, leaving it empty.
    fn queue_outcomes(&mut self, ctx: &mut Context<'_, Ev>, outcomes: &mut Vec<(u64, Admit)>) {
        for (queued_id, outcome) in outcomes.drain(..) {
            match outcome {
                Admit::Now => self.start_processing(ctx, queued_id),
                Admit::Reject { retry_after_s } => self.reject(ctx, queued_id, retry_after_s),
                Admit::Queued { .. } => {}
            }
        }
    }

    /// Routes a reply to whoever sent the request.
    pub(super) fn answer(&mut self, ctx: &mut Context<'_, Ev>, id: u64, reply: Reply) {
        let Some(p) = self.api.pending.remove(id) else {
            return;
        };
        self.deliver(ctx, p.origin, reply);
    }

    /// Hands `reply` to the client that sent the request, if it is still running.
    fn deliver(&mut self, ctx: &mut Context<'_, Ev>, origin: Origin, reply: Reply) {
        match origin {
            Origin::Worker {
                incarnation,
                worker,
            } if self.is_current(incarnation) => {
                self.advance_worker(ctx, worker, Some(reply));
            }
            Origin::Reflector { incarnation } if self.is_current(incarnation) => {
                self.list_answered(ctx, reply);
            }
            _ => {}
        }
    }

    fn list_answered(&mut self, ctx: &mut Context<'_, Ev>, reply: Reply) {
        if self.awaiting_watch_list() {
            return self.watch_list_answered(ctx, reply);
        }
        let Some(op) = self.operator.running.as_mut() else {
            return;
        };
        let actions = match reply {
            Reply::List(items, rv) => {
                self.operator
                    .process
                    .list_response(items.size_bytes(), ctx.now());
                op.informer
                    .reflector
                    .on_list_ok(items, rv, ctx.now(), ctx.rng)
            }
            Reply::Error { code: 410, .. } => {
                op.informer
                    .reflector
                    .on_list_error(WatchError::Expired, ctx.now(), ctx.rng)
            }
            Reply::Error { code: 429, .. } => {
                op.informer
                    .reflector
                    .on_list_error(WatchError::TooManyRequests, ctx.now(), ctx.rng)
            }
            _ => op
                .informer
                .reflector
                .on_list_error(WatchError::Other, ctx.now(), ctx.rng),
        };
        self.reflector_actions(ctx, actions);
    }

    /// Opens the reflector's watch from `from`; the server accepts it (HTTP 200) and replays what
    /// the watch cache holds after `from`, or — `from` older than the cache's window (410) or
    /// newer than its revision (504, after `WATCH_BLOCK_TIMEOUT`) — sends one ERROR event and ends
    /// the watch (apiserver `pkg/storage/cacher/cacher.go` `newErrWatcher`). A watch is counted in
    /// `apiserver_request_total` when the server ends it (apiserver
    /// `pkg/endpoints/metrics/metrics.go` `InstrumentRouteFunc` → `MonitorRequest`): an error
    /// watch at once, a streaming one at its timeout.
    pub(super) fn open_watch(&mut self, ctx: &mut Context<'_, Ev>, from: u64, timeout: Duration) {
        if self.operator.running.is_none() {
            return;
        }
        let replay = self.api.server.watch_from(from);
        let error = replay
            .first()
            .and_then(|e| e.status.as_ref())
            .map(|status| status.code);
        if error.is_some() {
            self.telemetry.count_request("WATCH", 200);
        }
        let mut delay = self.scenario.apiserver.watch_latency;
        if error == Some(504) {
            delay += WATCH_BLOCK_TIMEOUT;
        }
        let ends_at = if error.is_none() { Some(timeout) } else { None };
        self.open_stream(ctx, replay, delay, ends_at);
    }

    /// Registers a stream the server accepted as the informer's open watch, delivers `events`
    /// after `delay` and, when `timeout` is given, closes it then; without one it carries only an
    /// ERROR event. Events committed later follow on the same watch.
    pub(super) fn open_stream(
        &mut self,
        ctx: &mut Context<'_, Ev>,
        events: Vec<WatchEvent>,
        delay: Duration,
        timeout: Option<Duration>,
    ) {
        let Some(op) = self.operator.running.as_mut() else {
            return;
        };
        let incarnation = op.incarnation;
        let watch = self.api.new_watch_id();
        op.informer.watch = Some(OpenWatch {
            id: watch,
            events_received: 0,
            error_only: timeout.is_none(),
        });
        for event in events {
            deliver_after(ctx, delay, (incarnation, watch), event);
        }
        if let Some(timeout) = timeout {
            ctx.schedule_in(timeout, Ev::WatchTimeout { incarnation, watch });
        }
    }

    /// Sends the API server's new watch events to the operator's open watch.
    pub(super) fn fan_out_events(&mut self, ctx: &mut Context<'_, Ev>) {
        // The creation of the scenario's objects traces itself, then sends its watch events.
        if let Some((id, e)) = ctx.trace.last() {
            if let (EventKind::Created { .. }, Some(rv)) = (e.kind, e.resource_version) {
                self.api.causes.objects_created(rv, id);
            }
        }
        self.workload_cr_events(self.api.server.event_count());
        let watching = self.operator.running.as_ref().and_then(|op| {
            let watch = op.informer.watch.filter(|w| !w.error_only)?;
            Some((op.incarnation, watch.id))
        });
        let delay = self.scenario.apiserver.watch_latency;
        self.api.server.drain_events(|event| {
            if let Some(to) = watching {
                deliver_after(ctx, delay, to, event);
            }
        });
    }

    pub(super) fn watch_deliver(
        &mut self,
        ctx: &mut Context<'_, Ev>,
        watch: u64,
        event: &WatchEvent,
    ) {
        let Some(op) = self.operator.running.as_mut() else {
            return;
        };
        let Some(open) = op.informer.watch.as_mut().filter(|w| w.id == watch) else {
            return;
        };
        if let Some(status) = &event.status {
            // `handleAnyWatch` returns `apierrors.FromObject(event.Object)`: the watch ends and
            // the reflector's `watch` loop decides (client-go `tools/cache/reflector.go`).
            let kind = EventKind::WatchError {
                event_type: event.event_type,
                code: status.code,
                reason: status.reason,
            };
            ctx.trace(None, None, kind);
            let err = watch_error(status);
            op.informer.watch = None;
            let actions = op
                .informer
                .reflector
                .on_watch_error(err, ctx.now(), ctx.rng);
            self.reflector_actions(ctx, actions);
            return;
        }
        open.events_received += 1;
        // an ERROR event ended the watch above: what is left is the reflector's
        let event_type = event.event_type;
        let object = event.object.clone();
        // `kubectl get -w` shows the generation next to the resourceVersion; so does the trace.
        let kind = EventKind::WatchEvent {
            event_type: event.event_type,
            generation: object.metadata.generation,
        };
        let rv = event.resource_version;
        let write = self.api.causes.write_of(rv);
        let id = ctx.trace_caused(
            Some(object.key()),
            Some(rv),
            kind,
            write.as_slice(),
            CauseNote::None,
        );
        self.api.causes.watch_event(rv, id);
        self.operator
            .process
            .decode_event(object.size_bytes, ctx.now());
        self.telemetry.count(Fixed::WatchEvents);
        let reflector = &mut op.informer.reflector;
        if reflector.is_watch_listing() {
            let actions = reflector.on_watch_event(event_type, object);
            self.reflector_actions(ctx, actions);
        } else {
            let action = reflector.on_stream_event(event_type, object);
            self.reflector_actions(ctx, action);
        }
    }

    pub(super) fn watch_timeout(&mut self, ctx: &mut Context<'_, Ev>, watch: u64) {
        let Some(op) = self.operator.running.as_mut() else {
            return;
        };
        let Some(open) = op.informer.watch.filter(|w| w.id == watch) else {
            return;
        };
        op.informer.watch = None;
        let actions =
            op.informer
                .reflector
                .on_watch_closed(ctx.now(), open.events_received, ctx.rng);
        self.telemetry.count_request("WATCH", 200);
        self.reflector_actions(ctx, actions);
    }
}

/// Whether the kept event `id` is a user action.
fn is_user_action(ctx: &Context<'_, Ev>, id: EventId) -> bool {
    ctx.trace
        .causal()
        .get(id)
        .is_some_and(|r| matches!(r.event.kind, EventKind::UserAction { .. }))
}

/// Schedules `event`'s arrival at watch `(incarnation, watch id)` after `delay`.
fn deliver_after(ctx: &mut Context<'_, Ev>, delay: Duration, to: (u64, u64), event: WatchEvent) {
    let (incarnation, watch) = to;
    ctx.schedule_in(
        delay,
        Ev::WatchDeliver {
            incarnation,
            watch,
            event,
        },
    );
}
