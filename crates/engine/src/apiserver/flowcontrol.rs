//! Request admission: the legacy max-in-flight filter or API Priority and Fairness (APF).
//!
//! - Max-in-flight (apiserver `pkg/server/filters/maxinflight.go`): two counters, read-only
//!   (`get`, `list`, `watch`) and mutating; over the limit ⇒ 429 with `Retry-After: 1`; watches are
//!   long-running and not counted; a limit of 0 disables that counter, as upstream.
//! - APF (`pkg/server/filters/priority-and-fairness.go`,
//!   `pkg/util/flowcontrol/fairqueuing/queueset/queueset.go`): the operator's service account lands
//!   in priority level `workload-low` (nominal concurrency 245 seats of the default 600). A request
//!   occupies its seats while it executes; when none are free it waits in a queue; it is rejected
//!   (429, `Retry-After` from [`DroppedRequestsTracker`]) when all seats are in use and the queue is
//!   full ("queue-full"), or when it waited longer than the queue-wait limit ("time-out", default
//!   `RequestTimeout/4` = 15 s).
//!
//! Approximation, documented: the 128 queues with shuffle sharding (hand size 6, 50 per queue) and
//! fair-queuing virtual time are folded into one FIFO bounded by `queue_capacity`. Shuffle sharding
//! deals one flow (one service account) a hand of 6 queues, so a single operator can fill at most
//! 6 × 50 = 300 slots — that, not 128 × 50, is the default capacity.

use std::collections::VecDeque;

use crate::sim::id_map::IdMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::dropped_requests::DroppedRequestsTracker;
use super::request::Verb;
use crate::error::ConfigError;
use crate::time::SimTime;
use crate::vec_map::VecMap;

/// `Retry-After` of the legacy filter (`retryAfter = "1"`).
pub const MAX_IN_FLIGHT_RETRY_AFTER_S: u64 = 1;

/// Which admission filter guards the server, with its limits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case", deny_unknown_fields)]
pub enum FlowControl {
    /// Legacy filter (`--enable-priority-and-fairness=false`); defaults 400 / 200.
    MaxInFlight {
        /// `--max-requests-inflight` (0 = unlimited).
        read: u32,
        /// `--max-mutating-requests-inflight` (0 = unlimited).
        mutating: u32,
    },
    /// APF, the priority level of the operator's requests (`workload-low`).
    Apf {
        /// Nominal concurrency in seats (workload-low: ceil(600·100/245) = 245).
        seats: u32,
        /// Waiting requests the level holds for one flow (default hand 6 × 50 per queue = 300).
        queue_capacity: u32,
        /// Longest wait in the queue before a 429 (default 15 000 ms).
        queue_wait_ms: u64,
    },
}

impl Default for FlowControl {
    fn default() -> Self {
        FlowControl::Apf {
            seats: 245,
            queue_capacity: 6 * 50,
            queue_wait_ms: 15_000,
        }
    }
}

impl FlowControl {
    /// Legacy defaults (`pkg/server/config.go` `NewConfig`: 400 read-only, 200 mutating).
    pub fn max_in_flight_defaults() -> FlowControl {
        FlowControl::MaxInFlight {
            read: 400,
            mutating: 200,
        }
    }

    /// APF needs at least one seat and a positive queue wait; max-in-flight accepts 0 (disabled).
    pub fn validate(&self) -> Result<(), ConfigError> {
        if let FlowControl::Apf {
            seats,
            queue_wait_ms,
            ..
        } = *self
        {
            if seats == 0 {
                return Err(ConfigError::new(
                    "flow_control.seats",
                    "must be at least 1 (got 0)",
                ));
            }
            if queue_wait_ms == 0 {
                return Err(ConfigError::new(
                    "flow_control.queue_wait_ms",
                    "must be at least 1 (got 0)",
                ));
            }
        }
        Ok(())
    }
}

/// Seats of a LIST of `object_count` objects: ceil(count / 100), clamped to [1, 10]
/// (apiserver `pkg/util/flowcontrol/request/list_work_estimator.go`, object-count estimate,
/// `objectsPerSeat` = 100, `MaximumListSeatsLimit` = 10).
pub fn list_seats(object_count: u64) -> u32 {
    u32::try_from(object_count.div_ceil(100).clamp(1, 10)).unwrap_or(10)
}

/// A request holding (or waiting for) capacity; hand it back with [`RequestLimiter::release`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ticket {
    /// Unique per limiter.
    pub id: u64,
    /// The request's verb.
    pub verb: Verb,
    /// Seats it occupies (1 unless a wide LIST).
    pub seats: u32,
}

/// What happened to an arriving request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    /// Executing now; release the ticket when the response is sent.
    Admitted(Ticket),
    /// Waiting in the APF queue; it is dispatched by a later [`RequestLimiter::release`] or
    /// rejected at `deadline` by [`RequestLimiter::expire_queued`].
    Queued {
        /// The waiting request.
        ticket: Ticket,
        /// When its queue wait runs out.
        deadline: SimTime,
    },
    /// 429 Too Many Requests with this `Retry-After`.
    Rejected {
        /// Seconds the client is told to wait.
        retry_after_s: u64,
    },
}

/// What became of a queued request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueOutcome {
    /// It got its seats and executes from now on.
    Dispatched {
        /// The request.
        ticket: Ticket,
        /// How long it waited.
        waited: Duration,
    },
    /// It waited past its deadline: 429 with this `Retry-After`.
    TimedOut {
        /// The request.
        ticket: Ticket,
        /// Seconds the client is told to wait.
        retry_after_s: u64,
    },
}

/// Observable occupancy (`apiserver_current_inflight_requests`,
/// `apiserver_flowcontrol_current_executing_seats`, `…_current_inqueue_requests`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InFlight {
    /// Executing read-only requests (watches excluded under max-in-flight).
    pub read: u32,
    /// Executing mutating requests.
    pub mutating: u32,
    /// Seats in use (APF; equals read + mutating under max-in-flight).
    pub seats: u32,
    /// Requests waiting in the APF queue.
    pub queued: u32,
}

#[derive(Clone, Copy, Debug)]
struct Waiting {
    ticket: Ticket,
    arrived: SimTime,
    deadline: SimTime,
}

/// The admission filter's state.
#[derive(Clone, Debug)]
pub struct RequestLimiter {
    mode: FlowControl,
    /// The requests being served, by ticket id (ids come in order: no tree to walk).
    executing: IdMap<Ticket>,
    queue: VecDeque<Waiting>,
    in_flight: InFlight,
    dropped: DroppedRequestsTracker,
    rejected_total: VecMap<&'static str, u64>,
    next_id: u64,
}

impl RequestLimiter {
    /// A limiter for `mode`; invalid limits are a [`ConfigError`] naming the field.
    pub fn new(mode: FlowControl) -> Result<RequestLimiter, ConfigError> {
        mode.validate()?;
        Ok(RequestLimiter {
            mode,
            executing: IdMap::new(),
            queue: VecDeque::new(),
            in_flight: InFlight::default(),
            dropped: DroppedRequestsTracker::new(),
            rejected_total: VecMap::new(),
            next_id: 1,
        })
    }

    /// The configured mode.
    pub fn mode(&self) -> &FlowControl {
        &self.mode
    }

    /// Changes the limits from now on, as a new `PriorityLevelConfiguration` (APF) or restarted
    /// flags (max-in-flight) do; requests already executing keep their seats.
    pub fn set_mode(&mut self, mode: FlowControl) -> Result<(), ConfigError> {
        mode.validate()?;
        self.mode = mode;
        Ok(())
    }

    /// Current occupancy.
    pub fn in_flight(&self) -> InFlight {
        self.in_flight
    }

    /// Rejections by reason (`apiserver_flowcontrol_rejected_requests_total{reason}`:
    /// `queue-full`, `time-out`; `max-inflight` for the legacy filter).
    pub fn rejected_total(&self) -> &VecMap<&'static str, u64> {
        &self.rejected_total
    }

    /// The `Retry-After` APF would put on a 429 now.
    pub fn retry_after_s(&self) -> u64 {
        match self.mode {
            FlowControl::MaxInFlight { .. } => MAX_IN_FLIGHT_RETRY_AFTER_S,
            FlowControl::Apf { .. } => self.dropped.retry_after_s(),
        }
    }

    /// Admits a one-seat request (see [`RequestLimiter::try_admit_seats`]).
    pub fn try_admit(&mut self, verb: Verb, now: SimTime) -> Admission {
        self.try_admit_seats(verb, 1, now)
    }

    /// Admits, queues or rejects a request needing `seats` (APF width; ignored by max-in-flight).
    ///
    /// Queued requests past their deadline do not count against the queue capacity here, but they
    /// are only reported (and their 429 counted) by [`RequestLimiter::expire_queued`] or
    /// [`RequestLimiter::release`]: call `expire_queued` at each [`Admission::Queued`] deadline.
    pub fn try_admit_seats(&mut self, verb: Verb, seats: u32, now: SimTime) -> Admission {
        let ticket = Ticket {
            id: self.next_id,
            verb,
            seats: seats.max(1),
        };
        self.next_id = self.next_id.wrapping_add(1);
        match self.mode {
            FlowControl::MaxInFlight { read, mutating } => {
                self.admit_max_in_flight(ticket, read, mutating)
            }
            FlowControl::Apf { queue_wait_ms, .. } => {
                self.admit_apf(ticket, now, Duration::from_millis(queue_wait_ms))
            }
        }
    }

    fn admit_max_in_flight(&mut self, ticket: Ticket, read: u32, mutating: u32) -> Admission {
        if ticket.verb.is_long_running() {
            return Admission::Admitted(ticket);
        }
        let (count, limit) = if ticket.verb.is_mutating() {
            (self.in_flight.mutating, mutating)
        } else {
            (self.in_flight.read, read)
        };
        if limit != 0 && count >= limit {
            *self.rejected_total.get_or_default("max-inflight") += 1;
            return Admission::Rejected {
                retry_after_s: MAX_IN_FLIGHT_RETRY_AFTER_S,
            };
        }
        self.start(ticket);
        Admission::Admitted(ticket)
    }

    /// `rejectOrEnqueueToBoundLocked` then `dispatchAsMuchAsPossibleLocked`.
    fn admit_apf(&mut self, ticket: Ticket, now: SimTime, wait: Duration) -> Admission {
        let (limit, capacity) = self.apf_limits();
        // the queue is counted only when every seat is taken (the common case has one free)
        if self.in_flight.seats >= limit
            && self.queue.iter().filter(|w| w.deadline > now).count() >= capacity
        {
            return Admission::Rejected {
                retry_after_s: self.drop_request("queue-full", now),
            };
        }
        let deadline = now + wait;
        self.queue.push_back(Waiting {
            ticket,
            arrived: now,
            deadline,
        });
        self.in_flight.queued = self.queue.len() as u32;
        // Without a release or an expiry since the last dispatch, only the new request can start.
        let mut admitted = false;
        self.dispatch_as_much_as_possible(|w| admitted |= w.ticket.id == ticket.id);
        if admitted {
            Admission::Admitted(ticket)
        } else {
            Admission::Queued { ticket, deadline }
        }
    }

    fn apf_limits(&self) -> (u32, usize) {
        match self.mode {
            FlowControl::Apf {
                seats,
                queue_capacity,
                ..
            } => (seats, queue_capacity as usize),
            FlowControl::MaxInFlight { .. } => (u32::MAX, 0),
        }
    }

    /// `canAccommodateSeatsLocked`: a request wider than the whole level runs only alone.
    fn can_accommodate(&self, seats: u32, limit: u32) -> bool {
        if seats > limit {
            return self.executing.is_empty();
        }
        self.in_flight.seats.saturating_add(seats) <= limit
    }

    /// `dispatchAsMuchAsPossibleLocked`, FIFO: start queue heads while their seats fit; each
    /// started one goes to `started`, in order.
    fn dispatch_as_much_as_possible(&mut self, mut started: impl FnMut(Waiting)) {
        let (limit, _) = self.apf_limits();
        while let Some(head) = self.queue.front().copied() {
            if self.in_flight.seats >= limit || !self.can_accommodate(head.ticket.seats, limit) {
                break;
            }
            self.queue.pop_front();
            self.start(head.ticket);
            started(head);
        }
        self.in_flight.queued = self.queue.len() as u32;
    }

    /// Dispatches what it can, each dispatched request appended to `out`.
    fn dispatch_outcomes(&mut self, now: SimTime, out: &mut Vec<QueueOutcome>) {
        self.dispatch_as_much_as_possible(|w| {
            out.push(QueueOutcome::Dispatched {
                ticket: w.ticket,
                waited: now.saturating_since(w.arrived),
            });
        });
    }

    fn start(&mut self, ticket: Ticket) {
        self.executing.insert(ticket.id, ticket);
        if ticket.verb.is_mutating() {
            self.in_flight.mutating = self.in_flight.mutating.saturating_add(1);
        } else {
            self.in_flight.read = self.in_flight.read.saturating_add(1);
        }
        self.in_flight.seats = self.in_flight.seats.saturating_add(ticket.seats);
    }

    fn drop_request(&mut self, reason: &'static str, now: SimTime) -> u64 {
        *self.rejected_total.get_or_default(reason) += 1;
        self.dropped.record_dropped_request(now);
        self.dropped.retry_after_s()
    }

    /// Frees the seats of a finished request and dispatches waiting ones (FIFO). A ticket that is
    /// not executing (released twice, never admitted, exempt watch) changes nothing. Requests whose
    /// queue wait ran out are reported as timed out.
    pub fn release(&mut self, ticket: Ticket, now: SimTime) -> Vec<QueueOutcome> {
        let mut out = Vec::new();
        self.release_into(ticket, now, &mut out);
        out
    }

    /// [`RequestLimiter::release`], its outcomes appended to `out` (a buffer the caller keeps:
    /// a request finishing is a per-request event).
    pub fn release_into(&mut self, ticket: Ticket, now: SimTime, out: &mut Vec<QueueOutcome>) {
        self.remove_expired(now, out);
        if let Some(t) = self.executing.remove(ticket.id) {
            if t.verb.is_mutating() {
                self.in_flight.mutating = self.in_flight.mutating.saturating_sub(1);
            } else {
                self.in_flight.read = self.in_flight.read.saturating_sub(1);
            }
            self.in_flight.seats = self.in_flight.seats.saturating_sub(t.seats);
        }
        self.dispatch_outcomes(now, out);
    }

    /// Rejects every queued request whose deadline is at or before `now` (queueset `wait`:
    /// "time-out"), each counted as a drop for the `Retry-After`; removing them can unblock a
    /// queue head, so requests dispatched as a result are reported too.
    pub fn expire_queued(&mut self, now: SimTime) -> Vec<QueueOutcome> {
        let mut out = Vec::new();
        self.expire_queued_into(now, &mut out);
        out
    }

    /// [`RequestLimiter::expire_queued`], its outcomes appended to `out`.
    pub fn expire_queued_into(&mut self, now: SimTime, out: &mut Vec<QueueOutcome>) {
        self.remove_expired(now, out);
        self.dispatch_outcomes(now, out);
    }

    /// The earliest deadline of a waiting request (each waits at most until its own).
    pub fn next_queue_deadline(&self) -> Option<SimTime> {
        self.queue.iter().map(|w| w.deadline).min()
    }

    /// Takes every queued request whose deadline is at or before `now` out of the queue and
    /// appends its time-out to `out`.
    fn remove_expired(&mut self, now: SimTime, out: &mut Vec<QueueOutcome>) {
        if self.queue.iter().all(|w| w.deadline > now) {
            return;
        }
        let expired: Vec<Ticket> = self
            .queue
            .iter()
            .filter(|w| w.deadline <= now)
            .map(|w| w.ticket)
            .collect();
        self.queue.retain(|w| w.deadline > now);
        self.in_flight.queued = self.queue.len() as u32;
        for ticket in expired {
            let retry_after_s = self.drop_request("time-out", now);
            out.push(QueueOutcome::TimedOut {
                ticket,
                retry_after_s,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apf(seats: u32, queue_capacity: u32) -> RequestLimiter {
        RequestLimiter::new(FlowControl::Apf {
            seats,
            queue_capacity,
            queue_wait_ms: 15_000,
        })
        .expect("valid")
    }

    #[test]
    fn list_seats_grow_with_the_object_count_between_one_and_ten() {
        assert_eq!(
            [0, 1, 100, 101, 950, 100_000].map(list_seats),
            [1, 1, 1, 2, 10, 10]
        );
    }

    #[test]
    fn zero_apf_seats_are_a_config_error_naming_the_field() {
        let err = RequestLimiter::new(FlowControl::Apf {
            seats: 0,
            queue_capacity: 1,
            queue_wait_ms: 1,
        })
        .expect_err("rejected");
        assert_eq!(err.field, "flow_control.seats");
    }

    #[test]
    fn an_apf_request_without_free_seats_waits_and_is_dispatched_when_one_frees() {
        let mut l = apf(1, 10);
        let Admission::Admitted(first) = l.try_admit(Verb::Update, SimTime::ZERO) else {
            panic!("first request runs")
        };
        let second = l.try_admit(Verb::Update, SimTime::ZERO);
        assert!(matches!(second, Admission::Queued { .. }), "{second:?}");
        assert_eq!(l.in_flight().queued, 1);
        let out = l.release(first, SimTime::from_millis(30));
        assert!(matches!(
            out.as_slice(),
            [QueueOutcome::Dispatched { waited, .. }] if *waited == Duration::from_millis(30)
        ));
        assert_eq!((l.in_flight().seats, l.in_flight().queued), (1, 0));
    }

    #[test]
    fn a_queued_request_past_its_wait_limit_is_rejected_as_timed_out() {
        let mut l = apf(1, 10);
        l.try_admit(Verb::Get, SimTime::ZERO);
        l.try_admit(Verb::Get, SimTime::ZERO);
        assert!(l.expire_queued(SimTime::from_millis(14_999)).is_empty());
        let out = l.expire_queued(SimTime::from_millis(15_000));
        assert!(matches!(
            out.as_slice(),
            [QueueOutcome::TimedOut {
                retry_after_s: 1,
                ..
            }]
        ));
        assert_eq!(l.rejected_total().get("time-out"), Some(&1));
    }

    #[test]
    fn the_next_queue_deadline_is_the_earliest_wait_left_and_none_once_the_queue_empties() {
        let mut l = apf(1, 10);
        let Admission::Admitted(first) = l.try_admit(Verb::Get, SimTime::ZERO) else {
            panic!("first request runs")
        };
        assert_eq!(l.next_queue_deadline(), None);
        l.try_admit(Verb::Get, SimTime::from_millis(1_000));
        l.try_admit(Verb::Get, SimTime::from_millis(2_000));
        assert_eq!(l.next_queue_deadline(), Some(SimTime::from_millis(16_000)));
        l.release(first, SimTime::from_millis(3_000));
        assert_eq!(
            l.next_queue_deadline(),
            Some(SimTime::from_millis(17_000)),
            "the dispatched request's deadline no longer counts"
        );
        l.expire_queued(SimTime::from_millis(17_000));
        assert_eq!(l.next_queue_deadline(), None);
    }

    #[test]
    fn expiring_a_blocked_wide_head_lets_the_requests_behind_it_start() {
        let mut l = apf(2, 10);
        l.try_admit(Verb::Get, SimTime::ZERO);
        let wide = l.try_admit_seats(Verb::List, 10, SimTime::ZERO);
        assert!(
            matches!(wide, Admission::Queued { .. }),
            "waits for an idle level"
        );
        let narrow = l.try_admit(Verb::Get, SimTime::from_millis(1_000));
        assert!(
            matches!(narrow, Admission::Queued { .. }),
            "FIFO behind the wide one"
        );
        let out = l.expire_queued(SimTime::from_millis(15_000));
        assert!(
            matches!(
                out.as_slice(),
                [
                    QueueOutcome::TimedOut { ticket: a, .. },
                    QueueOutcome::Dispatched { ticket: b, waited }
                ] if a.seats == 10 && b.seats == 1 && *waited == Duration::from_millis(14_000)
            ),
            "{out:?}"
        );
    }

    #[test]
    fn queued_requests_past_their_deadline_do_not_fill_the_queue() {
        let mut l = apf(1, 1);
        l.try_admit(Verb::Get, SimTime::ZERO);
        l.try_admit(Verb::Get, SimTime::ZERO);
        let late = l.try_admit(Verb::Get, SimTime::from_millis(20_000));
        assert!(matches!(late, Admission::Queued { .. }), "{late:?}");
        let out = l.expire_queued(SimTime::from_millis(20_000));
        assert!(matches!(out.as_slice(), [QueueOutcome::TimedOut { .. }]));
        assert_eq!(l.in_flight().queued, 1);
    }

    #[test]
    fn releasing_a_ticket_twice_frees_its_seat_only_once() {
        let mut l = apf(2, 0);
        let Admission::Admitted(a) = l.try_admit(Verb::Get, SimTime::ZERO) else {
            panic!("admitted")
        };
        l.try_admit(Verb::Get, SimTime::ZERO);
        l.release(a, SimTime::ZERO);
        l.release(a, SimTime::ZERO);
        assert_eq!(l.in_flight().seats, 1);
    }
}
