//! The Reflector state machine against the behaviour of client-go `tools/cache/reflector_test.go`.

use std::rc::Rc;
use std::time::Duration;

use flywheel_engine::informer::reflector::{
    Action, Backoff, ListRv, Reflector, ReflectorConfig, ReflectorState, StoreEvent, WatchError,
    WatchEventType, INITIAL_EVENTS_END_ANNOTATION,
};
use flywheel_engine::object::{Object, ObjectRef};
use flywheel_engine::sim::Rng;
use flywheel_engine::vec_map::VecMap;
use flywheel_engine::SimTime;
use proptest::prelude::*;

fn pod(name: &str, rv: u64) -> ObjectRef {
    let mut o = Object::new("Pod", "default", name);
    o.metadata.resource_version = rv;
    Rc::new(o)
}

fn secs(s: u64) -> SimTime {
    SimTime::from_millis(s * 1000)
}

/// The one action of a step, failing the test when there is not exactly one.
fn only(actions: Vec<Action>) -> Action {
    assert_eq!(actions.len(), 1, "expected one action, got {actions:?}");
    actions.into_iter().next().expect("one action")
}

fn list_rv(action: &Action) -> ListRv {
    match action {
        Action::List { resource_version } => *resource_version,
        other => panic!("expected a LIST, got {other:?}"),
    }
}

fn watch_from(action: &Action) -> u64 {
    match action {
        Action::Watch { from, .. } => *from,
        other => panic!("expected a WATCH, got {other:?}"),
    }
}

fn backoff_of(action: &Action) -> Duration {
    match action {
        Action::WaitBackoff(d) => *d,
        other => panic!("expected a backoff wait, got {other:?}"),
    }
}

/// Starts a default reflector and completes its first list at `list_rv`; returns it watching.
fn watching_reflector(rng: &mut Rng, list_rv: u64) -> Reflector {
    let mut r = Reflector::default();
    only(r.start(SimTime::ZERO, rng));
    let actions = r.on_list_ok(vec![], list_rv, SimTime::ZERO, rng);
    assert_eq!(watch_from(actions.last().expect("a watch")), list_rv);
    r
}

// Mirrors TestReflectorListAndWatch ("UseWatchList disabled"): one LIST at RV "0", then one WATCH
// from the list's RV, whose events reach the store in order.
#[test]
fn the_first_list_asks_for_rv_zero_and_the_watch_starts_from_the_listed_rv() {
    let mut rng = Rng::seeded(1);
    let mut r = Reflector::default();
    assert_eq!(*r.state(), ReflectorState::Idle);
    let first = only(r.start(SimTime::ZERO, &mut rng));
    assert_eq!(list_rv(&first), ListRv::Zero);
    assert_eq!(first_list_wire(&first), "0");

    let foo = pod("foo", 1);
    let actions = r.on_list_ok(vec![foo.clone()], 1, SimTime::ZERO, &mut rng);
    assert_eq!(
        actions[0],
        Action::Replace {
            items: vec![foo].into(),
            resource_version: 1
        }
    );
    assert_eq!(watch_from(&actions[1]), 1);
    assert_eq!(actions.len(), 2, "no resync timer without a resync period");

    let mut applied = Vec::new();
    let events = [
        (WatchEventType::Modified, pod("foo", 2)),
        (WatchEventType::Added, pod("bar", 3)),
        (WatchEventType::Added, pod("baz", 4)),
        (WatchEventType::Added, pod("qux", 5)),
        (WatchEventType::Added, pod("zoo", 6)),
    ];
    for (t, o) in events {
        applied.extend(r.on_watch_event(t, o));
    }
    let rvs: Vec<u64> = applied
        .iter()
        .map(|a| match a {
            Action::Apply(StoreEvent::Added(o) | StoreEvent::Modified(o)) => o.resource_version(),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(rvs, vec![2, 3, 4, 5, 6]);
    assert_eq!(r.last_sync_resource_version(), Some(6));
    assert_eq!((r.counters().lists, r.counters().watches), (1, 1));
}

fn first_list_wire(action: &Action) -> String {
    list_rv(action).to_string()
}

// Mirrors TestReflectorWatchHandler: DELETED, MODIFIED(55), ADDED(32) become store operations, and the
// last synced RV is the RV of the last event (32), even though an earlier one was higher.
#[test]
fn watch_events_become_store_operations_and_the_last_event_sets_the_synced_rv() {
    let mut rng = Rng::seeded(2);
    let mut r = watching_reflector(&mut rng, 10);
    let del = only(r.on_watch_event(WatchEventType::Deleted, pod("foo", 11)));
    assert!(matches!(del, Action::Apply(StoreEvent::Deleted(ref o)) if o.metadata.name() == "foo"));
    let m = only(r.on_watch_event(WatchEventType::Modified, pod("bar", 55)));
    assert!(matches!(m, Action::Apply(StoreEvent::Modified(ref o)) if o.resource_version() == 55));
    let a = only(r.on_watch_event(WatchEventType::Added, pod("baz", 32)));
    assert!(matches!(a, Action::Apply(StoreEvent::Added(ref o)) if o.metadata.name() == "baz"));
    assert_eq!(r.last_sync_resource_version(), Some(32));
}

// Mirrors TestReflectorResourceVersionUpdate: ADDED 10, MODIFIED 20, BOOKMARK 30, DELETED 40 each move
// the RV; the bookmark produces no store operation.
#[test]
fn a_bookmark_moves_only_the_resource_version() {
    let mut rng = Rng::seeded(3);
    let mut r = watching_reflector(&mut rng, 10);
    let mut seen = Vec::new();
    let mut store_ops = 0;
    for (t, rv) in [
        (WatchEventType::Added, 10),
        (WatchEventType::Modified, 20),
        (WatchEventType::Bookmark, 30),
        (WatchEventType::Deleted, 40),
    ] {
        store_ops += r.on_watch_event(t, pod("p", rv)).len();
        seen.push(r.last_sync_resource_version().expect("synced"));
    }
    assert_eq!(seen, vec![10, 20, 30, 40]);
    assert_eq!(store_ops, 3);
    assert!(r
        .on_watch_event(WatchEventType::Bookmark, pod("", 50))
        .is_empty());
    assert_eq!(r.last_sync_resource_version(), Some(50));
}

// Mirrors the watch-start branch of reflector.go watch(): from RV "0" the server replays synthetic
// ADDED events out of RV order, so their RVs are not recorded until another event type arrives.
#[test]
fn added_events_of_a_watch_from_rv_zero_do_not_move_the_rv_until_another_type_arrives() {
    let mut rng = Rng::seeded(4);
    let mut r = watching_reflector(&mut rng, 0);
    r.on_watch_event(WatchEventType::Added, pod("a", 7));
    r.on_watch_event(WatchEventType::Added, pod("b", 5));
    assert_eq!(r.last_sync_resource_version(), Some(0));
    r.on_watch_event(WatchEventType::Bookmark, pod("", 9));
    assert_eq!(r.last_sync_resource_version(), Some(9));
    r.on_watch_event(WatchEventType::Added, pod("c", 12));
    assert_eq!(r.last_sync_resource_version(), Some(12));

    // reflector.go relistResourceVersion: a last synced RV of "0" relists with "0" again.
    let mut z = watching_reflector(&mut rng, 0);
    only(z.on_watch_error(WatchError::Expired, secs(1), &mut rng));
    assert_eq!(
        list_rv(&only(z.on_backoff_elapsed(secs(3), &mut rng))),
        ListRv::Zero
    );
}

// Mirrors the watch() loop of reflector.go (a nil error from handleWatch loops to a new watch) as
// exercised by TestReflectorListAndWatchWithErrors: a watch the server times out is reopened from the
// last synced RV at once, with no LIST and no backoff.
#[test]
fn a_watch_closed_by_the_server_is_reopened_without_a_relist() {
    let mut rng = Rng::seeded(5);
    let mut r = watching_reflector(&mut rng, 100);
    r.on_watch_event(WatchEventType::Modified, pod("a", 101));
    let reopen = only(r.on_watch_closed(secs(400), 1, &mut rng));
    assert_eq!(watch_from(&reopen), 101);
    // A quiet watch that lasted its full timeout is also simply reopened.
    let again = only(r.on_watch_closed(secs(900), 0, &mut rng));
    assert_eq!(watch_from(&again), 101);
    let c = r.counters();
    assert_eq!((c.lists, c.relists, c.watches, c.backoffs), (1, 0, 3, 0));
}

// Mirrors TestReflectorHandleWatchResultChanClosedBefore / ...After: a watch closed in under a second
// with no events is a VeryShortWatchError; ListAndWatch returns, one backoff step, then a relist.
#[test]
fn a_watch_closed_within_a_second_without_events_backs_off_and_relists() {
    let mut rng = Rng::seeded(6);
    let mut r = watching_reflector(&mut rng, 100);
    let wait = backoff_of(&only(r.on_watch_closed(
        SimTime::from_millis(999),
        0,
        &mut rng,
    )));
    assert!(wait >= Duration::from_millis(800) && wait < Duration::from_millis(1600));
    assert!(matches!(r.state(), ReflectorState::Backoff { .. }));
    assert_eq!(r.counters().very_short_watches, 1);
    let relist = only(r.on_backoff_elapsed(SimTime::from_millis(999) + wait, &mut rng));
    assert_eq!(list_rv(&relist), ListRv::Exact(100));
    assert_eq!(r.counters().relists, 1);
}

// The two halves of the VeryShortWatch condition: a short watch with events, or a quiet watch of at
// least one second, is reopened (reflector.go handleAnyWatch).
#[test]
fn a_short_watch_with_events_or_a_quiet_one_second_watch_is_not_very_short() {
    let mut rng = Rng::seeded(7);
    let mut r = watching_reflector(&mut rng, 100);
    r.on_watch_event(WatchEventType::Modified, pod("a", 101));
    let a = only(r.on_watch_closed(SimTime::from_millis(10), 1, &mut rng));
    assert_eq!(watch_from(&a), 101);
    let b = only(r.on_watch_closed(SimTime::from_millis(1010), 0, &mut rng));
    assert_eq!(watch_from(&b), 101);
    assert_eq!(r.counters().very_short_watches, 0);
}

// Mirrors TestReflectorResyncWithResourceVersion: a 410 on the watch ends ListAndWatch; after one
// backoff step the relist asks for the last synced RV (not "0", not "").
#[test]
fn a_410_on_the_watch_relists_from_the_last_synced_rv_after_one_backoff_step() {
    let mut rng = Rng::seeded(8);
    let mut r = watching_reflector(&mut rng, 10);
    let wait = backoff_of(&only(r.on_watch_error(
        WatchError::Expired,
        secs(60),
        &mut rng,
    )));
    assert!(wait >= Duration::from_millis(800));
    assert!(!r.is_last_sync_resource_version_unavailable());
    let relist = only(r.on_backoff_elapsed(secs(62), &mut rng));
    assert_eq!(list_rv(&relist), ListRv::Exact(10));
    let actions = r.on_list_ok(vec![pod("a", 3)], 11, secs(62), &mut rng);
    assert_eq!(watch_from(actions.last().expect("watch")), 11);
}

// Mirrors TestReflectorExpiredExactResourceVersion: list RVs "0", then "10" (Expired), then at once "".
#[test]
fn an_expired_relist_is_retried_at_once_as_a_consistent_list() {
    let mut rng = Rng::seeded(9);
    let mut r = watching_reflector(&mut rng, 10);
    only(r.on_watch_error(WatchError::Expired, secs(1), &mut rng));
    let mut rvs = vec![ListRv::Zero];
    rvs.push(list_rv(&only(r.on_backoff_elapsed(secs(3), &mut rng))));
    rvs.push(list_rv(&only(r.on_list_error(
        WatchError::Expired,
        secs(3),
        &mut rng,
    ))));
    assert_eq!(rvs, vec![ListRv::Zero, ListRv::Exact(10), ListRv::Latest]);
    assert_eq!(
        r.counters().backoffs,
        1,
        "the consistent retry is immediate"
    );
    r.on_list_ok(vec![], 11, secs(3), &mut rng);
    assert!(!r.is_last_sync_resource_version_unavailable());
    assert_eq!(r.relist_resource_version(), ListRv::Exact(11));
}

// Mirrors TestReflectorFullListIfTooLarge: a "too large resource version" list is retried at once with "".
#[test]
fn a_too_large_rv_relist_is_retried_at_once_as_a_consistent_list() {
    let mut rng = Rng::seeded(10);
    let mut r = watching_reflector(&mut rng, 30);
    only(r.on_watch_error(WatchError::Other, secs(1), &mut rng));
    assert_eq!(
        list_rv(&only(r.on_backoff_elapsed(secs(3), &mut rng))),
        ListRv::Exact(30)
    );
    let retry = only(r.on_list_error(WatchError::TooLargeResourceVersion, secs(3), &mut rng));
    assert_eq!(list_rv(&retry), ListRv::Latest);
}

// reflector.go list(): the "" retry happens once per list(); if it fails too, ListAndWatch returns,
// and since the RV is still marked unavailable the next list after the backoff is "" again.
#[test]
fn when_the_consistent_retry_fails_too_the_next_list_after_backoff_is_consistent() {
    let mut rng = Rng::seeded(11);
    let mut r = watching_reflector(&mut rng, 10);
    only(r.on_watch_error(WatchError::Expired, secs(1), &mut rng));
    only(r.on_backoff_elapsed(secs(3), &mut rng));
    only(r.on_list_error(WatchError::Expired, secs(3), &mut rng));
    let wait = backoff_of(&only(r.on_list_error(
        WatchError::Expired,
        secs(3),
        &mut rng,
    )));
    assert!(wait > Duration::ZERO);
    let next = only(r.on_backoff_elapsed(secs(3) + wait, &mut rng));
    assert_eq!(list_rv(&next), ListRv::Latest);
    assert_eq!(r.counters().list_errors, 2);
}

// Mirrors TestReflectorListAndWatchWithErrors ("a list error"): a failed list ends ListAndWatch; the
// reflector waits a backoff step and lists again with the same RV.
#[test]
fn a_failed_list_is_retried_after_one_backoff_step() {
    let mut rng = Rng::seeded(12);
    let mut r = Reflector::default();
    only(r.start(SimTime::ZERO, &mut rng));
    let wait = backoff_of(&only(r.on_list_error(
        WatchError::Other,
        SimTime::ZERO,
        &mut rng,
    )));
    assert!(wait >= Duration::from_millis(800) && wait < Duration::from_millis(1600));
    let again = only(r.on_backoff_elapsed(SimTime::ZERO + wait, &mut rng));
    assert_eq!(list_rv(&again), ListRv::Zero);
    assert_eq!(r.last_sync_resource_version(), None);
}

// Mirrors TestNoRelistOnTooManyRequests: four 429s on the watch, then a working watch — one LIST,
// five WATCHes, one backoff wait per 429.
#[test]
fn a_429_on_the_watch_waits_one_backoff_step_and_rewatches_without_relisting() {
    let mut rng = Rng::seeded(13);
    let mut r = watching_reflector(&mut rng, 1);
    let mut now = SimTime::ZERO;
    for _ in 0..4 {
        let wait = backoff_of(&only(r.on_watch_error(
            WatchError::TooManyRequests,
            now,
            &mut rng,
        )));
        assert!(matches!(r.state(), ReflectorState::WatchBackoff { .. }));
        now += wait;
        assert_eq!(watch_from(&only(r.on_backoff_elapsed(now, &mut rng))), 1);
    }
    let c = r.counters();
    assert_eq!((c.lists, c.watches, c.backoffs), (1, 5, 4));
}

// Mirrors TestBackoffOnTooManyRequests: a 429 refusing the watch and a 429 arriving as an ERROR event
// each cost one backoff step and neither relists.
#[test]
fn a_429_as_an_error_event_also_backs_off_and_rewatches() {
    let mut rng = Rng::seeded(14);
    let mut r = watching_reflector(&mut rng, 1);
    let w1 = backoff_of(&only(r.on_watch_error(
        WatchError::TooManyRequests,
        SimTime::ZERO,
        &mut rng,
    )));
    only(r.on_backoff_elapsed(SimTime::ZERO + w1, &mut rng));
    r.on_watch_event(WatchEventType::Modified, pod("x", 2));
    let w2 = backoff_of(&only(r.on_watch_error(
        WatchError::TooManyRequests,
        secs(5),
        &mut rng,
    )));
    assert!(w2 >= Duration::from_millis(1600), "the second step doubles");
    assert_eq!(
        watch_from(&only(r.on_backoff_elapsed(secs(9), &mut rng))),
        2
    );
    assert_eq!(r.counters().relists, 0);
}

fn custom_reflector(backoff: Backoff, reset: Duration) -> Reflector {
    Reflector::new(ReflectorConfig {
        backoff,
        backoff_reset: reset,
        ..ReflectorConfig::default()
    })
    .expect("valid config")
}

/// Runs `fails` refused watches and returns the total time spent waiting.
fn refused_watches(r: &mut Reflector, fails: u32, rng: &mut Rng) -> Duration {
    only(r.start(SimTime::ZERO, rng));
    r.on_list_ok(vec![], 1, SimTime::ZERO, rng);
    let mut now = SimTime::ZERO;
    for _ in 0..fails {
        let wait = backoff_of(&only(r.on_watch_error(
            WatchError::ConnectionRefused,
            now,
            rng,
        )));
        now += wait;
        assert_eq!(watch_from(&only(r.on_backoff_elapsed(now, rng))), 1);
    }
    assert_eq!(r.counters().lists, 1);
    now.saturating_since(SimTime::ZERO)
}

// Mirrors TestNewReflectorWithCustomBackoff ("custom backoff"): 10 ms, ×2, no jitter, cap 100 ms —
// five refused watches wait 10 + 20 + 40 + 80 + 100 = 250 ms, without relisting.
#[test]
fn refused_watches_back_off_exponentially_up_to_the_cap_without_relisting() {
    let backoff = Backoff::new(
        Duration::from_millis(10),
        2.0,
        0.0,
        100,
        Duration::from_millis(100),
    )
    .expect("valid");
    let mut r = custom_reflector(backoff, Duration::from_secs(120));
    let total = refused_watches(&mut r, 5, &mut Rng::seeded(15));
    assert_eq!(total, Duration::from_millis(250));
}

// Mirrors TestReflectorListAndWatchInitConnBackoff (5 failures): 1 ms, ×2, jitter 1.0, cap 50 ms —
// the total lies in [1+2+4+8+16, 2·(1+2+4+8+16)) ms.
#[test]
fn jittered_refused_watch_backoff_stays_within_its_bounds() {
    let backoff = Backoff::new(
        Duration::from_millis(1),
        2.0,
        1.0,
        1000,
        Duration::from_millis(50),
    )
    .expect("valid");
    for seed in 0..20 {
        let mut r = custom_reflector(backoff.clone(), Duration::from_millis(100));
        let total = refused_watches(&mut r, 5, &mut Rng::seeded(seed));
        assert!(total >= Duration::from_millis(31), "{total:?}");
        assert!(total < Duration::from_millis(62), "{total:?}");
    }
}

/// Drives internal errors one second apart (the watch takes a second each, as in the upstream test);
/// `rewind_at` adds a minute before that watch. Returns the number of immediate re-watches.
fn internal_error_retries(max: Duration, rewind_at: Option<u32>) -> u32 {
    let mut rng = Rng::seeded(16);
    let mut r = Reflector::new(ReflectorConfig {
        max_internal_error_retry_duration: max,
        ..ReflectorConfig::default()
    })
    .expect("valid");
    only(r.start(SimTime::ZERO, &mut rng));
    r.on_list_ok(vec![], 1, SimTime::ZERO, &mut rng);
    let mut now = SimTime::ZERO;
    for counter in 1..1000 {
        if rewind_at == Some(counter) {
            now += Duration::from_secs(60);
        }
        now += Duration::from_secs(1);
        match only(r.on_watch_error(WatchError::InternalError, now, &mut rng)) {
            Action::Watch { .. } => continue,
            Action::WaitBackoff(_) => return counter - 1,
            other => panic!("unexpected {other:?}"),
        }
    }
    panic!("never stopped retrying")
}

// Mirrors TestRetryInternalError: retries off ⇒ 0; 30 s window, all fail ⇒ 31; with a one-minute gap
// before the 10th watch the window restarts ⇒ 40.
#[test]
fn internal_watch_errors_are_retried_without_relist_only_within_the_retry_window() {
    assert_eq!(internal_error_retries(Duration::ZERO, None), 0);
    assert_eq!(internal_error_retries(Duration::from_secs(30), None), 31);
    assert_eq!(
        internal_error_retries(Duration::from_secs(30), Some(10)),
        40
    );
}

fn watch_timeout(min: Duration, seed: u64) -> Duration {
    let mut rng = Rng::seeded(seed);
    let mut r = Reflector::new(ReflectorConfig {
        min_watch_timeout: min,
        ..ReflectorConfig::default()
    })
    .expect("valid");
    only(r.start(SimTime::ZERO, &mut rng));
    match r.on_list_ok(vec![], 10, SimTime::ZERO, &mut rng).pop() {
        Some(Action::Watch { timeout, .. }) => timeout,
        other => panic!("expected a watch, got {other:?}"),
    }
}

// Mirrors TestWatchTimeout: default and a 1 s minimum (not honored) give [300, 600) s; a 30 min
// minimum gives [1800, 3600) s; always a whole number of seconds.
#[test]
fn the_watch_timeout_is_a_whole_number_of_seconds_between_the_minimum_and_twice_it() {
    for seed in 0..50 {
        for (min, lo) in [
            (Duration::ZERO, 300),
            (Duration::from_secs(1), 300),
            (Duration::from_secs(1800), 1800),
        ] {
            let t = watch_timeout(min, seed);
            assert_eq!(t.subsec_nanos(), 0);
            assert!(t.as_secs() >= lo && t.as_secs() < 2 * lo, "{t:?}");
        }
    }
}

// Mirrors TestReflectorResync: with a resync period the timer fires repeatedly during the watch and
// calls store.Resync() whenever ShouldResync says so; the timer stops when ListAndWatch returns.
#[test]
fn the_resync_timer_resyncs_when_listeners_are_due_and_stops_with_list_and_watch() {
    let mut rng = Rng::seeded(17);
    let period = Duration::from_millis(1);
    let mut r = Reflector::new(ReflectorConfig {
        resync_period: period,
        ..ReflectorConfig::default()
    })
    .expect("valid");
    only(r.start(SimTime::ZERO, &mut rng));
    let actions = r.on_list_ok(vec![], 0, SimTime::ZERO, &mut rng);
    let epoch = match actions[1] {
        Action::ScheduleResync { after, epoch } => {
            assert_eq!(after, period);
            epoch
        }
        ref other => panic!("expected the resync timer, got {other:?}"),
    };
    let fired = r.on_resync_timer(epoch, || true);
    assert_eq!(fired[0], Action::Resync);
    assert!(matches!(fired[1], Action::ScheduleResync { epoch: e, .. } if e == epoch));
    let quiet = only(r.on_resync_timer(epoch, || false));
    assert!(matches!(quiet, Action::ScheduleResync { .. }));
    assert_eq!(r.counters().resyncs, 1);

    only(r.on_watch_error(WatchError::Expired, secs(1), &mut rng));
    let mut consulted = false;
    assert!(r
        .on_resync_timer(epoch, || {
            consulted = true;
            true
        })
        .is_empty());
    assert!(!consulted, "a stale timer must not consult ShouldResync");
}

// reflector.go RunWithContext: after every return of ListAndWatch one backoff step is waited, and the
// steps grow 0.8 s, 1.6 s, 3.2 s … while the failures continue.
#[test]
fn consecutive_list_and_watch_failures_wait_growing_backoff_steps() {
    let mut rng = Rng::seeded(18);
    let mut r = Reflector::default();
    only(r.start(SimTime::ZERO, &mut rng));
    let mut now = SimTime::ZERO;
    let mut base = Duration::from_millis(800);
    for _ in 0..6 {
        let wait = backoff_of(&only(r.on_list_error(WatchError::Other, now, &mut rng)));
        assert!(wait >= base && wait < 2 * base, "{wait:?} vs {base:?}");
        now += wait;
        only(r.on_backoff_elapsed(now, &mut rng));
        base *= 2;
    }
}

// Inputs that do not fit the state are ignored and counted, never panicking.
#[test]
fn inputs_out_of_order_are_ignored() {
    let mut rng = Rng::seeded(19);
    let mut r = Reflector::default();
    assert!(r.on_list_ok(vec![], 5, SimTime::ZERO, &mut rng).is_empty());
    assert!(r
        .on_watch_event(WatchEventType::Added, pod("a", 1))
        .is_empty());
    assert!(r.on_backoff_elapsed(SimTime::ZERO, &mut rng).is_empty());
    assert_eq!(r.counters().ignored_inputs, 3);
    assert_eq!(*r.state(), ReflectorState::Idle);
    only(r.start(SimTime::ZERO, &mut rng));
    assert!(r.start(SimTime::ZERO, &mut rng).is_empty());
    r.on_list_ok(vec![], 5, SimTime::ZERO, &mut rng);
    assert_eq!(r.stop(), vec![Action::StopWatch]);
    assert!(r.on_watch_closed(secs(5), 3, &mut rng).is_empty());
    assert_eq!(*r.state(), ReflectorState::Stopped);
}

#[test]
fn a_config_with_a_negative_or_nan_backoff_factor_is_rejected() {
    let mut bad = ReflectorConfig::default();
    bad.backoff.factor = -1.0;
    assert!(Reflector::new(bad).is_err());
    let mut nan = ReflectorConfig::default();
    nan.backoff.jitter = f64::NAN;
    assert_eq!(
        Reflector::new(nan).expect_err("NaN").field,
        "reflector.backoff.jitter"
    );
}

/// One input to the reflector, for the random-sequence property.
#[derive(Clone, Debug)]
enum Input {
    ListOk(u64),
    ListErr(u8),
    Event(u8, u64),
    Closed(u64),
    WatchErr(u8),
    BackoffElapsed,
    Resync(u64),
}

fn error_kind(i: u8) -> WatchError {
    [
        WatchError::Expired,
        WatchError::TooManyRequests,
        WatchError::TooLargeResourceVersion,
        WatchError::Other,
        WatchError::ConnectionRefused,
        WatchError::InternalError,
    ][usize::from(i % 6)]
}

fn input() -> impl Strategy<Value = Input> {
    prop_oneof![
        (0u64..50).prop_map(Input::ListOk),
        any::<u8>().prop_map(Input::ListErr),
        (any::<u8>(), 0u64..100).prop_map(|(t, rv)| Input::Event(t, rv)),
        (0u64..3).prop_map(Input::Closed),
        any::<u8>().prop_map(Input::WatchErr),
        Just(Input::BackoffElapsed),
        (0u64..4).prop_map(Input::Resync),
    ]
}

proptest! {
    // Any sequence of inputs, in or out of order: no panic, every wait is in [0.8 s, 60 s), every
    // LIST/WATCH leaves the matching state, and a Watch always starts from the last synced RV.
    #[test]
    fn any_input_sequence_keeps_the_state_machine_consistent(
        seed in any::<u64>(),
        inputs in proptest::collection::vec((input(), 0u64..5_000), 0..120),
    ) {
        let mut rng = Rng::seeded(seed);
        let mut r = Reflector::new(ReflectorConfig {
            resync_period: Duration::from_secs(1),
            max_internal_error_retry_duration: Duration::from_secs(5),
            ..ReflectorConfig::default()
        })
        .expect("valid");
        let mut now = SimTime::ZERO;
        let mut actions = r.start(now, &mut rng);
        for (inp, gap_ms) in inputs {
            for a in &actions {
                match a {
                    Action::WaitBackoff(d) => {
                        prop_assert!(*d >= Duration::from_millis(800) && *d < Duration::from_secs(60));
                        let waiting = matches!(r.state(), ReflectorState::Backoff { .. } | ReflectorState::WatchBackoff { .. });
                        prop_assert!(waiting, "waiting in {:?}", r.state());
                    }
                    Action::List { resource_version } => {
                        let listing = matches!(r.state(), ReflectorState::Listing { resource_version: rv, .. } if rv == resource_version);
                        prop_assert!(listing, "listing in {:?}", r.state());
                    }
                    Action::Watch { from, timeout } => {
                        prop_assert_eq!(Some(*from), r.last_sync_resource_version());
                        prop_assert!(timeout.as_secs() >= 300 && timeout.as_secs() < 600);
                    }
                    _ => {}
                }
            }
            now += Duration::from_millis(gap_ms);
            actions = match inp {
                Input::ListOk(rv) => r.on_list_ok(vec![pod("p", rv)], rv, now, &mut rng),
                Input::ListErr(e) => r.on_list_error(error_kind(e), now, &mut rng),
                Input::Event(t, rv) => {
                    let t = [WatchEventType::Added, WatchEventType::Modified, WatchEventType::Deleted, WatchEventType::Bookmark][usize::from(t % 4)];
                    r.on_watch_event(t, pod("p", rv))
                }
                Input::Closed(n) => r.on_watch_closed(now, n, &mut rng),
                Input::WatchErr(e) => r.on_watch_error(error_kind(e), now, &mut rng),
                Input::BackoffElapsed => r.on_backoff_elapsed(now, &mut rng),
                Input::Resync(epoch) => r.on_resync_timer(epoch, || true),
            };
        }
        let c = r.counters();
        prop_assert!(c.relists + 1 >= c.lists);
    }
}

// client-go tools/cache/reflector.go: an ERROR event ends handleAnyWatch with
// `apierrors.FromObject(event.Object)` before the VeryShortWatchError check, and the watch loop's
// `isExpiredError` case does not call setIsLastSyncResourceVersionUnavailable. So a 410 ERROR
// event arriving at once on a fresh, empty watch is not a very short watch, and the relist after
// one backoff step asks for the last synced RV, not "".
#[test]
fn an_expired_error_event_at_once_on_a_new_watch_relists_from_the_last_synced_rv() {
    let mut rng = Rng::seeded(12);
    let mut r = watching_reflector(&mut rng, 40);
    let wait = backoff_of(&only(r.on_watch_error(
        WatchError::Expired,
        SimTime::from_millis(5),
        &mut rng,
    )));
    let c = r.counters();
    assert_eq!((c.watch_errors, c.very_short_watches), (1, 0));
    assert!(!r.is_last_sync_resource_version_unavailable());
    let relist = only(r.on_backoff_elapsed(SimTime::from_millis(5) + wait, &mut rng));
    assert_eq!(list_rv(&relist), ListRv::Exact(40));
}

// ---- Streaming watch-list (client-go `tools/cache/reflector.go` `watchList`, `handleListWatch`,
// `ListAndWatchWithContext` fallbackToList; `reflector_watchlist_test.go`).

fn watch_list_reflector() -> Reflector {
    Reflector::new(ReflectorConfig {
        use_watch_list: true,
        ..ReflectorConfig::default()
    })
    .expect("valid config")
}

fn initial_events_end(rv: u64) -> ObjectRef {
    let mut o = Object::new("Pod", "", "");
    o.metadata.resource_version = rv;
    o.metadata.annotations =
        Some(VecMap::from([(INITIAL_EVENTS_END_ANNOTATION.to_owned(), "true".to_owned())]).into());
    Rc::new(o)
}

fn watch_list_rv(action: &Action) -> ListRv {
    match action {
        Action::WatchList {
            resource_version, ..
        } => *resource_version,
        other => panic!("expected a watch-list, got {other:?}"),
    }
}

// watchList: the first sync is a WATCH from "" (rewatchResourceVersion before any sync); its ADDED
// events fill the temporary store only; the initial-events-end bookmark replaces the store at the
// bookmark's RV and the same watch goes on (no second WATCH).
#[test]
fn a_watch_list_gathers_initial_events_and_replaces_the_store_at_the_bookmark() {
    let mut rng = Rng::seeded(21);
    let mut r = watch_list_reflector();
    let first = only(r.start(SimTime::ZERO, &mut rng));
    assert_eq!(watch_list_rv(&first), ListRv::Latest);
    assert_eq!(r.state().name(), "watch-listing");
    let (a, b) = (pod("a", 3), pod("b", 5));
    assert!(r
        .on_watch_event(WatchEventType::Added, a.clone())
        .is_empty());
    assert!(r
        .on_watch_event(WatchEventType::Added, b.clone())
        .is_empty());
    assert_eq!(r.temporary_store().count(), 2);
    assert_eq!(r.temporary_store_bytes(), a.size_bytes + b.size_bytes);
    assert_eq!(r.last_sync_resource_version(), None, "nothing synced yet");
    // A bookmark without the annotation does not end the initial events.
    assert!(r
        .on_watch_event(WatchEventType::Bookmark, pod("", 6))
        .is_empty());
    let actions = r.on_watch_event(WatchEventType::Bookmark, initial_events_end(7));
    assert_eq!(
        actions,
        vec![Action::Replace {
            items: vec![a, b].into(),
            resource_version: 7
        }]
    );
    assert_eq!(r.last_sync_resource_version(), Some(7));
    assert_eq!(r.temporary_store_bytes(), 0);
    assert!(matches!(
        *r.state(),
        ReflectorState::Watching { from: 7, .. }
    ));
    let next = only(r.on_watch_event(WatchEventType::Modified, pod("a", 8)));
    assert!(matches!(next, Action::Apply(StoreEvent::Modified(_))));
    assert_eq!((r.counters().lists, r.counters().watch_lists), (0, 1));
}

// ListAndWatchWithContext: a watch-list that fails with an error that is neither retriable nor an
// expired/too-large RV falls back to the regular LIST (at relistResourceVersion "0").
#[test]
fn a_refused_watch_list_falls_back_to_a_list() {
    let mut rng = Rng::seeded(22);
    let mut r = watch_list_reflector();
    only(r.start(SimTime::ZERO, &mut rng));
    r.on_watch_event(WatchEventType::Added, pod("a", 3));
    let fallback = only(r.on_watch_error(WatchError::Other, SimTime::ZERO, &mut rng));
    assert_eq!(list_rv(&fallback), ListRv::Zero);
    assert_eq!(
        r.temporary_store().count(),
        0,
        "the gathered objects are dropped"
    );
    assert_eq!(r.counters().watch_list_fallbacks, 1);
    let actions = r.on_list_ok(vec![pod("a", 3)], 4, SimTime::ZERO, &mut rng);
    assert_eq!(watch_from(actions.last().expect("a watch")), 4);
}

// watchList isErrorRetriableWithSideEffectsFn: 410 / too large RV retry the watch-list at once from
// ""; a retriable error (429) waits one backoff step and retries it — neither falls back to LIST.
#[test]
fn an_expired_watch_list_retries_from_latest_and_a_throttled_one_after_a_backoff() {
    let mut rng = Rng::seeded(23);
    let mut r = watch_list_reflector();
    only(r.start(SimTime::ZERO, &mut rng));
    let retry = only(r.on_watch_error(WatchError::Expired, SimTime::ZERO, &mut rng));
    assert_eq!(watch_list_rv(&retry), ListRv::Latest);
    assert!(r.is_last_sync_resource_version_unavailable());
    let wait = backoff_of(&only(r.on_watch_error(
        WatchError::TooManyRequests,
        SimTime::ZERO,
        &mut rng,
    )));
    assert_eq!(r.state().name(), "watch-list-backoff");
    let again = only(r.on_backoff_elapsed(SimTime::ZERO + wait, &mut rng));
    assert_eq!(watch_list_rv(&again), ListRv::Latest);
    assert_eq!((r.counters().lists, r.counters().watch_lists), (0, 3));
}

// After a synced watch fails, the next ListAndWatch streams a watch-list again, from the last synced
// RV (rewatchResourceVersion), rather than sending a LIST.
#[test]
fn a_relist_with_watch_list_streams_from_the_last_synced_rv() {
    let mut rng = Rng::seeded(24);
    let mut r = watch_list_reflector();
    only(r.start(SimTime::ZERO, &mut rng));
    r.on_watch_event(WatchEventType::Bookmark, initial_events_end(9));
    let wait = backoff_of(&only(r.on_watch_error(
        WatchError::Other,
        secs(60),
        &mut rng,
    )));
    let relist = only(r.on_backoff_elapsed(secs(60) + wait, &mut rng));
    assert_eq!(watch_list_rv(&relist), ListRv::Exact(9));
}

// handleAnyWatch: a stream closed within a second with no events is a VeryShortWatchError, which
// watchList does not retry, so ListAndWatch falls back to LIST.
#[test]
fn a_watch_list_closed_at_once_falls_back_to_a_list() {
    let mut rng = Rng::seeded(25);
    let mut r = watch_list_reflector();
    only(r.start(SimTime::ZERO, &mut rng));
    let fallback = only(r.on_watch_closed(SimTime::from_millis(10), 0, &mut rng));
    assert_eq!(list_rv(&fallback), ListRv::Zero);
}
