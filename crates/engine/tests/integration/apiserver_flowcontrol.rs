//! Admission: the legacy max-in-flight filter and API Priority and Fairness, with their 429s.

use flywheel_engine::apiserver::{
    list_seats, Admission, ApiServer, ApiServerConfig, FlowControl, QueueOutcome, Ticket, Verb,
};
use flywheel_engine::SimTime;

fn server(flow_control: FlowControl) -> ApiServer {
    ApiServer::new(ApiServerConfig {
        flow_control,
        ..ApiServerConfig::default()
    })
    .expect("valid config")
}

fn admitted(a: Admission) -> Ticket {
    match a {
        Admission::Admitted(t) => t,
        other => panic!("expected admission, got {other:?}"),
    }
}

fn t(ms: u64) -> SimTime {
    SimTime::from_millis(ms)
}

/// Mirrors maxinflight_test.go TestMaxInFlightNonMutating: reads beyond the limit get 429 with
/// Retry-After 1 while mutating requests and watches are unaffected.
#[test]
fn reads_beyond_the_read_only_limit_get_429_with_retry_after_one() {
    let mut s = server(FlowControl::MaxInFlight {
        read: 3,
        mutating: 2,
    });
    let held: Vec<Ticket> = (0..3).map(|_| admitted(s.admit(Verb::Get, t(0)))).collect();
    assert_eq!(
        s.admit(Verb::List, t(0)),
        Admission::Rejected { retry_after_s: 1 }
    );
    admitted(s.admit(Verb::Update, t(0)));
    for _ in 0..10 {
        admitted(s.admit(Verb::Watch, t(0)));
    }
    assert_eq!(s.limiter().in_flight().read, 3, "watches are not counted");
    s.release(held[0], t(1));
    admitted(s.admit(Verb::Get, t(1)));
    assert_eq!(s.metrics().requests(Verb::List, 429), 1);
}

/// Mirrors maxinflight_test.go TestMaxInFlightMutating.
#[test]
fn writes_beyond_the_mutating_limit_get_429_while_reads_still_pass() {
    let mut s = server(FlowControl::MaxInFlight {
        read: 3,
        mutating: 2,
    });
    admitted(s.admit(Verb::Create, t(0)));
    admitted(s.admit(Verb::Patch, t(0)));
    assert!(matches!(
        s.admit(Verb::Delete, t(0)),
        Admission::Rejected { retry_after_s: 1 }
    ));
    admitted(s.admit(Verb::Get, t(0)));
    let m = s.metrics();
    assert_eq!(m.in_flight.mutating, 2);
    assert_eq!(m.rejected_total.get("max-inflight"), Some(&1));
}

#[test]
fn a_zero_max_in_flight_limit_means_unlimited_as_upstream() {
    let mut s = server(FlowControl::MaxInFlight {
        read: 0,
        mutating: 1,
    });
    for _ in 0..1_000 {
        admitted(s.admit(Verb::Get, t(0)));
    }
}

#[test]
fn apf_queues_when_seats_are_busy_and_rejects_once_the_queue_is_full() {
    let mut s = server(FlowControl::Apf {
        seats: 2,
        queue_capacity: 2,
        queue_wait_ms: 15_000,
    });
    let running: Vec<Ticket> = (0..2)
        .map(|_| admitted(s.admit(Verb::Update, t(0))))
        .collect();
    assert!(matches!(
        s.admit(Verb::Update, t(0)),
        Admission::Queued { .. }
    ));
    assert!(matches!(s.admit(Verb::Get, t(0)), Admission::Queued { .. }));
    assert_eq!(
        s.admit(Verb::Update, t(0)),
        Admission::Rejected { retry_after_s: 1 }
    );
    let m = s.metrics();
    assert_eq!((m.in_flight.seats, m.in_flight.queued), (2, 2));
    assert_eq!(m.rejected_total.get("queue-full"), Some(&1));
    assert_eq!(m.requests(Verb::Update, 429), 1);

    let out = s.release(running[0], t(50));
    assert!(matches!(
        out.as_slice(),
        [QueueOutcome::Dispatched { ticket, .. }] if ticket.verb == Verb::Update
    ));
}

#[test]
fn an_apf_request_that_waits_longer_than_the_queue_wait_limit_is_rejected() {
    let mut s = server(FlowControl::Apf {
        seats: 1,
        queue_capacity: 10,
        queue_wait_ms: 15_000,
    });
    admitted(s.admit(Verb::Update, t(0)));
    let Admission::Queued { deadline, .. } = s.admit(Verb::Patch, t(0)) else {
        panic!("queued")
    };
    assert_eq!(deadline, t(15_000));
    assert!(s.expire_queued(t(14_000)).is_empty());
    let out = s.expire_queued(deadline);
    assert!(matches!(out.as_slice(), [QueueOutcome::TimedOut { .. }]));
    assert_eq!(s.metrics().requests(Verb::Patch, 429), 1);
    assert_eq!(s.metrics().rejected_total.get("time-out"), Some(&1));
}

/// dropped_requests_tracker.go through the server: sustained rejection raises Retry-After.
#[test]
fn sustained_apf_rejections_raise_the_retry_after() {
    let mut s = server(FlowControl::Apf {
        seats: 1,
        queue_capacity: 0,
        queue_wait_ms: 15_000,
    });
    admitted(s.admit(Verb::Update, t(0)));
    let mut last = 0;
    for second in 0..6u64 {
        for _ in 0..40 {
            if let Admission::Rejected { retry_after_s } = s.admit(Verb::Update, t(second * 1000)) {
                last = retry_after_s;
            }
        }
    }
    assert!(last > 1, "retry-after grew to {last}");
    assert_eq!(s.metrics().retry_after_s, last);
}

#[test]
fn a_wide_list_waits_until_enough_seats_are_free() {
    let mut s = server(FlowControl::Apf {
        seats: 10,
        queue_capacity: 10,
        queue_wait_ms: 15_000,
    });
    let small = admitted(s.admit(Verb::Get, t(0)));
    let seats = list_seats(5_000);
    assert_eq!(seats, 10);
    assert!(matches!(
        s.admit_seats(Verb::List, seats, t(0)),
        Admission::Queued { .. }
    ));
    let out = s.release(small, t(5));
    assert!(
        matches!(out.as_slice(), [QueueOutcome::Dispatched { ticket, .. }] if ticket.seats == 10)
    );
}

#[test]
fn zero_apf_seats_in_the_server_config_are_refused_naming_the_field() {
    let err = ApiServer::new(ApiServerConfig {
        flow_control: FlowControl::Apf {
            seats: 0,
            queue_capacity: 300,
            queue_wait_ms: 15_000,
        },
        ..ApiServerConfig::default()
    })
    .expect_err("invalid");
    assert_eq!(err.field, "flow_control.seats");
}

mod limiter_properties {
    use std::collections::BTreeMap;

    use flywheel_engine::apiserver::{
        Admission, FlowControl, QueueOutcome, RequestLimiter, Ticket, Verb,
    };
    use flywheel_engine::SimTime;
    use proptest::prelude::*;

    #[derive(Clone, Debug)]
    enum Step {
        Admit(bool, u32),
        ReleaseOldest,
        Advance(u64),
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            (any::<bool>(), 1u32..5).prop_map(|(m, s)| Step::Admit(m, s)),
            Just(Step::ReleaseOldest),
            (0u64..20_000).prop_map(Step::Advance),
        ]
    }

    proptest! {
        /// Seats in use always equal the seats of the requests the caller was told are running,
        /// and never exceed the level's limit unless a single over-wide request runs alone.
        #[test]
        fn apf_seat_accounting_matches_what_the_caller_was_told(
            steps in proptest::collection::vec(step(), 1..120),
        ) {
            let limit = 4;
            let mut l = RequestLimiter::new(FlowControl::Apf {
                seats: limit,
                queue_capacity: 3,
                queue_wait_ms: 5_000,
            })
            .expect("valid");
            let mut now = SimTime::ZERO;
            let mut running: BTreeMap<u64, Ticket> = BTreeMap::new();
            let apply = |out: Vec<QueueOutcome>, running: &mut BTreeMap<u64, Ticket>| {
                for o in out {
                    if let QueueOutcome::Dispatched { ticket, .. } = o {
                        running.insert(ticket.id, ticket);
                    }
                }
            };
            for s in steps {
                match s {
                    Step::Admit(mutating, seats) => {
                        let verb = if mutating { Verb::Update } else { Verb::List };
                        if let Admission::Admitted(t) = l.try_admit_seats(verb, seats, now) {
                            running.insert(t.id, t);
                        }
                    }
                    Step::ReleaseOldest => {
                        if let Some((&id, &t)) = running.iter().next() {
                            running.remove(&id);
                            let out = l.release(t, now);
                            apply(out, &mut running);
                        }
                    }
                    Step::Advance(ms) => {
                        now += std::time::Duration::from_millis(ms);
                        let out = l.expire_queued(now);
                        apply(out, &mut running);
                    }
                }
                let seats: u32 = running.values().map(|t| t.seats).sum();
                prop_assert_eq!(l.in_flight().seats, seats);
                prop_assert!(seats <= limit || running.len() == 1, "{} seats in {:?}", seats, running);
            }
        }
    }
}
