//! Resync bookkeeping: client-go `tools/cache/shared_informer.go` (`AddEventHandlerWithOptions`,
//! `sharedProcessor.shouldResync` / `distribute`) and controller-runtime
//! `pkg/cache/internal/informers.go` `calculateResyncPeriod`.

use std::rc::Rc;
use std::time::Duration;

use flywheel_engine::informer::resync::{
    is_sync_update, jittered_sync_period, ListenerId, SharedProcessor, DEFAULT_SYNC_PERIOD,
    MINIMUM_RESYNC_PERIOD,
};
use flywheel_engine::object::Object;
use flywheel_engine::sim::Rng;
use flywheel_engine::SimTime;

fn s(secs: u64) -> Duration {
    Duration::from_secs(secs)
}

fn at(secs: u64) -> SimTime {
    SimTime::from_millis(secs * 1000)
}

fn period_of(p: &SharedProcessor<String>, id: ListenerId) -> Duration {
    p.listener(id).expect("registered").resync_period()
}

// Mirrors TestResyncCheckPeriod: before start, each handler asking for less than the check period
// lowers it (12 h → 1 min → 55 s → 5 s) and earlier listeners keep their own periods; a handler
// with period 0 never resyncs.
#[test]
fn handlers_added_before_start_lower_the_resync_check_period() {
    let mut p = SharedProcessor::<String>::new(s(12 * 3600));
    let h1 = p.add_event_handler(Some(Duration::ZERO), SimTime::ZERO);
    assert_eq!(p.resync_check_period(), s(12 * 3600));
    assert_eq!(period_of(&p, h1), Duration::ZERO);

    let h2 = p.add_event_handler(Some(s(60)), SimTime::ZERO);
    assert_eq!(p.resync_check_period(), s(60));
    assert_eq!((period_of(&p, h1), period_of(&p, h2)), (s(0), s(60)));

    let h3 = p.add_event_handler(Some(s(55)), SimTime::ZERO);
    assert_eq!(p.resync_check_period(), s(55));
    assert_eq!(period_of(&p, h2), s(60));
    assert_eq!(period_of(&p, h3), s(55));

    let h4 = p.add_event_handler(Some(s(5)), SimTime::ZERO);
    assert_eq!(p.resync_check_period(), s(5));
    let periods: Vec<Duration> = [h1, h2, h3, h4].iter().map(|h| period_of(&p, *h)).collect();
    assert_eq!(periods, vec![s(0), s(60), s(55), s(5)]);
}

// shared_informer.go AddEventHandlerWithOptions after start: the check period stays, and the
// handler's period is raised to it (requested period included).
#[test]
fn a_handler_added_after_start_is_raised_to_the_check_period() {
    let mut p = SharedProcessor::<String>::new(s(30));
    p.start();
    let h = p.add_event_handler(Some(s(5)), at(100));
    assert_eq!(p.resync_check_period(), s(30));
    let l = p.listener(h).expect("registered");
    assert_eq!(
        (l.requested_resync_period(), l.resync_period()),
        (s(30), s(30))
    );
    assert_eq!(l.next_resync(), at(130));
}

// shared_informer.go minimumResyncPeriod: a non-zero period under 1 s becomes 1 s (and lowers the
// check period to 1 s before start).
#[test]
fn a_period_below_one_second_is_raised_to_the_minimum() {
    let mut p = SharedProcessor::<String>::new(s(10));
    let h = p.add_event_handler(Some(Duration::from_millis(10)), SimTime::ZERO);
    assert_eq!(period_of(&p, h), MINIMUM_RESYNC_PERIOD);
    assert_eq!(p.resync_check_period(), MINIMUM_RESYNC_PERIOD);
}

// shared_informer.go determineResyncPeriod: an informer created without resync (0) cannot be made to
// resync by a handler; the handler's period is forced to 0.
#[test]
fn an_informer_without_resync_gives_every_handler_period_zero() {
    let mut p = SharedProcessor::<String>::new(Duration::ZERO);
    let h = p.add_event_handler(Some(s(5)), SimTime::ZERO);
    assert_eq!(p.resync_check_period(), Duration::ZERO);
    assert_eq!(period_of(&p, h), Duration::ZERO);
    assert_eq!(
        p.listener(h).expect("registered").requested_resync_period(),
        s(5)
    );
    assert!(p.should_resync(at(1_000_000)).is_empty());
}

/// One reflector resync tick at `now`: the due listeners get a sync update per stored object.
fn tick(p: &mut SharedProcessor<String>, now: SimTime, objects: &[&str]) -> Vec<ListenerId> {
    let due = p.should_resync(now);
    if !due.is_empty() {
        for o in objects {
            p.distribute(format!("sync {o}"), true);
        }
    }
    due
}

fn drain(p: &mut SharedProcessor<String>, id: ListenerId) -> Vec<String> {
    let l = p.listener_mut(id).expect("registered");
    std::iter::from_fn(|| l.next_notification()).collect()
}

// Mirrors TestListenerResyncPeriods: informer check period 1 s; listeners with 0, 2 s and 3 s. All get
// the initial adds; at 2 s only listener 2 gets the resync of pod1 and pod2; at 3 s only listener 3.
#[test]
fn sync_notifications_reach_only_the_listeners_due_for_resync() {
    let mut p = SharedProcessor::<String>::new(s(1));
    let l1 = p.add_event_handler(Some(Duration::ZERO), SimTime::ZERO);
    let l2 = p.add_event_handler(Some(s(2)), SimTime::ZERO);
    let l3 = p.add_event_handler(Some(s(3)), SimTime::ZERO);
    p.start();
    for o in ["pod1", "pod2"] {
        assert_eq!(p.distribute(format!("add {o}"), false), vec![l1, l2, l3]);
    }
    for l in [l1, l2, l3] {
        assert_eq!(drain(&mut p, l), vec!["add pod1", "add pod2"]);
    }

    assert!(tick(&mut p, at(1), &["pod1", "pod2"]).is_empty());
    assert_eq!(tick(&mut p, at(2), &["pod1", "pod2"]), vec![l2]);
    assert_eq!(drain(&mut p, l2), vec!["sync pod1", "sync pod2"]);
    assert!(drain(&mut p, l1).is_empty() && drain(&mut p, l3).is_empty());

    assert_eq!(tick(&mut p, at(3), &["pod1", "pod2"]), vec![l3]);
    assert_eq!(drain(&mut p, l3), vec!["sync pod1", "sync pod2"]);
    assert!(drain(&mut p, l1).is_empty() && drain(&mut p, l2).is_empty());
    assert!(p.is_syncing(l3) && !p.is_syncing(l2));

    // A non-sync notification still reaches everyone.
    assert_eq!(p.distribute("update pod1".into(), false).len(), 3);
    assert_eq!(p.total_queued(), 3);
}

// shared_informer.go sharedProcessor.addListener: a new listener starts as syncing, so it receives
// sync notifications until the next shouldResync recomputes the flags.
#[test]
fn a_new_listener_receives_sync_notifications_until_the_next_check() {
    let mut p = SharedProcessor::<String>::new(s(10));
    let a = p.add_event_handler(None, SimTime::ZERO);
    assert!(p.is_syncing(a));
    assert_eq!(p.distribute("sync x".into(), true), vec![a]);
    assert!(p.should_resync(at(5)).is_empty());
    assert!(p.distribute("sync y".into(), true).is_empty());
    assert_eq!(p.remove_event_handler(a).map(|l| l.queued_len()), Some(1));
    assert!(p.is_empty());
}

// shared_informer.go sharedIndexInformer.OnUpdate: an update whose old and new resourceVersion match
// is a sync notification.
#[test]
fn an_update_with_an_unchanged_resource_version_is_a_sync() {
    let mut old = Object::new("Pod", "ns", "a");
    old.metadata.resource_version = 7;
    let same = Rc::new(old.clone());
    let mut newer = old.clone();
    newer.metadata.resource_version = 8;
    assert!(is_sync_update(&old, &same));
    assert!(!is_sync_update(&old, &newer));
}

// controller-runtime informers.go calculateResyncPeriod: 10 h × a factor in [0.9, 1.1), drawn from the
// seeded Rng, so the same seed gives the same period and different informers differ.
#[test]
fn the_default_sync_period_is_jittered_between_nine_and_eleven_hours() {
    assert_eq!(DEFAULT_SYNC_PERIOD, s(36_000));
    let mut rng = Rng::seeded(42);
    let periods: Vec<Duration> = (0..200)
        .map(|_| jittered_sync_period(DEFAULT_SYNC_PERIOD, &mut rng))
        .collect();
    for d in &periods {
        assert!(*d >= s(32_400) && *d < s(39_600), "{d:?}");
    }
    assert!(periods.windows(2).any(|w| w[0] != w[1]));
    let mut again = Rng::seeded(42);
    assert_eq!(
        jittered_sync_period(DEFAULT_SYNC_PERIOD, &mut again),
        periods[0]
    );
}
