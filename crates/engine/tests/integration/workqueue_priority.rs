//! controller-runtime's priority queue, ported from
//! `pkg/controller/priorityqueue/priorityqueue_test.go`.

use std::collections::BTreeMap;
use std::time::Duration;

use flywheel_engine::sim::shared::Head;
use flywheel_engine::workqueue::{
    AddOpts, ItemExponentialFailureRateLimiter, PriorityQueue, RateLimiter, LOW_PRIORITY,
};
use flywheel_engine::SimTime;

fn new_queue() -> PriorityQueue<&'static str> {
    PriorityQueue::with_default_rate_limiter()
}

/// The depth gauge per priority, as whole numbers (the fake provider's `depth["test"]`).
fn depth<T: Ord + Clone + std::hash::Hash + Head>(q: &PriorityQueue<T>) -> BTreeMap<i32, i64> {
    q.metrics()
        .depth_by_priority
        .iter()
        .map(|(&p, g)| (p, g.value() as i64))
        .collect()
}

fn depth_of(entries: &[(i32, i64)]) -> BTreeMap<i32, i64> {
    entries.iter().copied().collect()
}

fn adds<T: Ord + Clone + std::hash::Hash + Head>(q: &PriorityQueue<T>) -> u64 {
    q.metrics().adds_total.value()
}

fn retries<T: Ord + Clone + std::hash::Hash + Head>(q: &PriorityQueue<T>) -> u64 {
    q.metrics().retries_total.value()
}

fn prio(p: i32) -> AddOpts {
    AddOpts {
        priority: Some(p),
        ..AddOpts::default()
    }
}

fn after(d: Duration) -> AddOpts {
    AddOpts {
        after: Some(d),
        ..AddOpts::default()
    }
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

const T0: SimTime = SimTime::ZERO;

#[test]
fn an_added_item_is_returned() {
    // priorityqueue_test.go "returns an item".
    let mut q = new_queue();
    q.add_with_opts("foo", AddOpts::default(), T0);
    assert_eq!(q.get_with_priority(), Some(("foo", 0)));
    assert_eq!(depth(&q), depth_of(&[(0, 0)]));
    assert_eq!(adds(&q), 1);
    assert_eq!(retries(&q), 0);
}

#[test]
fn items_of_equal_priority_are_returned_in_insertion_order() {
    // priorityqueue_test.go "returns items in order".
    let mut q = new_queue();
    q.add("foo");
    q.add("bar");
    assert_eq!(q.get(), Some("foo"));
    assert_eq!(q.get(), Some("bar"));
    assert_eq!(depth(&q), depth_of(&[(0, 0)]));
    assert_eq!(adds(&q), 2);
}

#[test]
fn a_locked_item_is_not_returned_while_another_one_is() {
    // priorityqueue_test.go "doesn't return an item that is currently locked".
    let mut q = new_queue();
    q.add("foo");
    assert_eq!(q.get(), Some("foo"));
    q.add("foo");
    q.add("bar");
    assert_eq!(q.get(), Some("bar"));
    assert_eq!(depth(&q), depth_of(&[(0, 1)]));
    assert_eq!(adds(&q), 3);
}

#[test]
fn a_locked_item_is_returned_as_soon_as_it_is_done() {
    // priorityqueue_test.go "returns an item as soon as its unlocked".
    let mut q = new_queue();
    q.add("foo");
    assert_eq!(q.get(), Some("foo"));
    q.add("foo");
    q.add("bar");
    assert_eq!(q.get(), Some("bar"));
    q.add("baz");
    assert_eq!(q.get(), Some("baz"), "foo is still locked");
    q.done(&"foo");
    assert_eq!(q.get(), Some("foo"));
    assert_eq!(depth(&q), depth_of(&[(0, 0)]));
    assert_eq!(adds(&q), 4);
}

#[test]
fn a_locked_item_is_returned_after_done_even_before_items_added_after_it() {
    // priorityqueue_test.go "returns an item as soon as its unlocked" (ordering after Done).
    let mut q = new_queue();
    q.add("foo");
    assert_eq!(q.get(), Some("foo"));
    q.add("foo");
    q.add("bar");
    assert_eq!(q.get(), Some("bar"));
    q.add("baz");
    q.done(&"foo");
    assert_eq!(q.get(), Some("foo"), "foo's new entry is older than baz");
    assert_eq!(depth(&q), depth_of(&[(0, 1)]));
    assert_eq!(adds(&q), 4);
}

#[test]
fn adding_the_same_item_twice_keeps_one_entry() {
    // priorityqueue_test.go "de-duplicates items".
    let mut q = new_queue();
    q.add("foo");
    q.add("foo");
    assert_eq!(q.len(), 1);
    assert_eq!(q.locked_len(), 0);
    assert_eq!(depth(&q), depth_of(&[(0, 1)]));
    assert_eq!(adds(&q), 1);
}

#[test]
fn a_locked_item_can_be_enqueued_and_counts_in_len() {
    // priorityqueue_test.go "enqueues a locked item".
    let mut q = new_queue();
    q.add("foo");
    assert_eq!(q.len(), 1);
    assert_eq!(q.get_with_priority(), Some(("foo", 0)));
    q.add("foo");
    assert_eq!(q.len(), 1);
    assert_eq!(q.get(), None, "locked until done");
    q.done(&"foo");
    assert_eq!(q.get_with_priority(), Some(("foo", 0)));
    assert_eq!(depth(&q), depth_of(&[(0, 0)]));
    assert_eq!(adds(&q), 2);
}

#[test]
fn re_adding_with_a_higher_priority_raises_it() {
    // priorityqueue_test.go "retains the highest priority".
    let mut q = new_queue();
    q.add_with_opts("foo", prio(1), T0);
    q.add_with_opts("foo", prio(2), T0);
    assert_eq!(q.get_with_priority(), Some(("foo", 2)));
    assert_eq!(q.len(), 0);
    assert_eq!(depth(&q), depth_of(&[(1, 0), (2, 0)]));
    assert_eq!(adds(&q), 1);
}

#[test]
fn re_adding_with_a_lower_priority_does_not_lower_it() {
    // priorityqueue_test.go "will not decrease the priority".
    let mut q = new_queue();
    q.add_with_opts("foo", prio(2), T0);
    q.add_with_opts("foo", prio(1), T0);
    assert_eq!(q.get_with_priority(), Some(("foo", 2)));
    assert_eq!(q.len(), 0);
    assert_eq!(depth(&q), depth_of(&[(2, 0)]));
    assert_eq!(adds(&q), 1);
}

#[test]
fn a_raised_priority_moves_the_item_ahead_of_lower_priorities() {
    // priorityqueue_test.go "gets pushed to the front if the priority increases".
    let mut q = new_queue();
    q.add("foo");
    q.add("bar");
    q.add("baz");
    q.add_with_opts("baz", prio(1), T0);
    assert_eq!(q.get_with_priority(), Some(("baz", 1)));
    assert_eq!(q.len(), 2);
    assert_eq!(depth(&q), depth_of(&[(0, 2), (1, 0)]));
    assert_eq!(adds(&q), 3);
}

#[test]
fn ready_now_beats_a_later_delay() {
    // priorityqueue_test.go "retains the lowest after duration".
    let mut q = new_queue();
    q.add_with_opts("foo", after(Duration::ZERO), T0);
    q.add_with_opts("foo", after(Duration::from_secs(3600)), T0);
    assert_eq!(q.get_with_priority(), Some(("foo", 0)));
    assert_eq!(q.len(), 0);
    assert_eq!(q.next_ready_at(), None);
    assert_eq!(depth(&q), depth_of(&[(0, 0)]));
    assert_eq!(adds(&q), 1);
    assert_eq!(
        retries(&q),
        1,
        "the positive delay still counted as a retry"
    );
}

#[test]
fn len_does_not_count_waiting_items() {
    // priorityqueue_test.go "doesn't include non-ready items in Len()".
    let mut q = new_queue();
    q.add_with_opts("foo", after(Duration::from_secs(60)), T0);
    q.add("baz");
    q.add_with_opts("bar", after(Duration::from_secs(60)), T0);
    q.add("bal");
    assert_eq!(q.len(), 2);
    assert_eq!(q.waiting_len(), 2);
    assert_eq!(depth(&q), depth_of(&[(0, 2)]));
}

#[test]
fn nothing_is_handed_out_or_added_after_shutdown() {
    // priorityqueue_test.go "Get from priority queue might get stuck when the priority queue is
    // shut down" and TestGetFromPriorityQueueIsUnblockedOnShutdown.
    let mut q = new_queue();
    q.add("baz");
    q.shut_down();
    q.add_with_opts("foo", after(Duration::from_secs(1)), T0);
    assert!(q.shutting_down());
    assert_eq!(q.get_with_priority(), None);
    assert_eq!(q.get_with_priority(), None);
    assert_eq!(q.waiting_len(), 0);
    assert_eq!(q.next_ready_at(), None);
}

#[test]
fn a_large_mixed_queue_drains_completely() {
    // priorityqueue_test.go "returns many items" (deterministic pseudo-random mix).
    let mut q: PriorityQueue<u32> = PriorityQueue::with_default_rate_limiter();
    let mut state: u32 = 12345;
    let mut next = || {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        (state >> 16) % 100
    };
    for round in 0..20u64 {
        let now = SimTime::from_millis(round * 1_000);
        for i in 0..1000 {
            let rn = next();
            let opts = if rn < 10 {
                after(ms(u64::from(rn)))
            } else {
                prio(rn as i32)
            };
            q.add_with_opts(i, opts, now);
        }
        q.advance(now + ms(10));
        let mut handed_out = 0;
        while let Some(item) = q.get() {
            q.done(&item);
            handed_out += 1;
        }
        assert_eq!(handed_out, 1000, "round {round}");
        assert_eq!(q.len(), 0);
    }
}

#[test]
fn depth_counts_a_waiting_item_only_once_it_is_re_added_without_delay() {
    // priorityqueue_test.go "updates metrics correctly for an item that gets initially added with
    // after and then without".
    let mut q = new_queue();
    q.add_with_opts("foo", after(Duration::from_secs(3600)), T0);
    assert_eq!(q.len(), 0);
    assert_eq!(depth(&q), depth_of(&[]));
    q.add("foo");
    assert_eq!(q.len(), 1);
    assert_eq!(depth(&q), depth_of(&[(0, 1)]));
    assert_eq!(q.get(), Some("foo"));
    assert_eq!(q.len(), 0);
    assert_eq!(depth(&q), depth_of(&[(0, 0)]));
}

#[test]
fn depth_uses_the_raised_priority_when_a_waiting_item_becomes_ready_by_re_add() {
    // priorityqueue_test.go "updates metrics correctly when an item with after is re-added with
    // higher priority and no after".
    let mut q = new_queue();
    let opts = AddOpts {
        after: Some(Duration::from_secs(3600)),
        priority: Some(0),
        ..AddOpts::default()
    };
    q.add_with_opts("foo", opts, T0);
    assert_eq!(depth(&q), depth_of(&[]));
    q.add_with_opts("foo", prio(1), T0);
    assert_eq!(q.len(), 1);
    assert_eq!(depth(&q), depth_of(&[(1, 1)]));
    assert_eq!(q.get_with_priority(), Some(("foo", 1)));
    assert_eq!(q.len(), 0);
    assert!(depth(&q).values().all(|&d| d == 0), "{:?}", depth(&q));
}

#[test]
fn an_item_whose_priority_is_raised_goes_behind_items_already_at_that_priority() {
    // priorityqueue_test.go "follows FIFO order in the new priority queue when item priority
    // changes".
    let mut q = new_queue();
    q.add_with_opts("foo", prio(0), T0);
    q.add_with_opts("bar", prio(1), T0);
    q.add_with_opts("foo", prio(1), T0);
    assert_eq!(q.len(), 2);
    assert_eq!(q.get_with_priority(), Some(("bar", 1)));
    assert_eq!(q.len(), 1);
    assert_eq!(q.get_with_priority(), Some(("foo", 1)));
    assert_eq!(q.len(), 0);
}

#[test]
fn higher_priorities_are_always_returned_first_and_fifo_within_a_priority() {
    // TestHighPriorityItemsAreReturnedBeforeLowPriorityItemMultipleTimes (after = 0 and 1 s; a
    // negative Go duration is the same as zero here).
    for delay in [Duration::ZERO, Duration::from_secs(1)] {
        let mut q: PriorityQueue<String> = PriorityQueue::with_default_rate_limiter();
        let levels = [
            ("high", 10),
            ("upperMiddle", 5),
            ("middle", 0),
            ("lowMiddle", -5),
            ("low", -10),
        ];
        const PER_PRIORITY: usize = 1000;
        for i in 0..PER_PRIORITY {
            for (name, priority) in levels {
                let opts = AddOpts {
                    after: Some(delay),
                    priority: Some(priority),
                    ..AddOpts::default()
                };
                q.add_with_opts(format!("{name}-{i}"), opts, T0);
            }
        }
        q.advance(T0 + delay);
        for (name, priority) in levels {
            for i in 0..PER_PRIORITY {
                assert_eq!(
                    q.get_with_priority(),
                    Some((format!("{name}-{i}"), priority))
                );
            }
        }
        let expected: BTreeMap<i32, i64> = levels.iter().map(|&(_, p)| (p, 0)).collect();
        assert_eq!(depth(&q), expected);
        assert_eq!(adds(&q), 5 * PER_PRIORITY as u64);
        let expected_retries = if delay.is_zero() {
            0
        } else {
            5 * PER_PRIORITY as u64
        };
        assert_eq!(retries(&q), expected_retries);
    }
}

#[test]
fn an_item_is_only_returned_after_its_delay_has_passed() {
    // TestItemIsOnlyReturnedAfterAfterHasPassed.
    let mut q = new_queue();
    q.add_with_opts("foo", after(Duration::from_secs(1)), T0);
    assert_eq!(q.next_ready_at(), Some(SimTime::from_millis(1_000)));
    assert_eq!(q.get(), None);
    q.advance(SimTime::from_millis(999));
    assert_eq!(q.get(), None);
    q.advance(SimTime::from_millis(1_000));
    assert_eq!(q.get(), Some("foo"));
    assert_eq!(depth(&q), depth_of(&[(0, 0)]));
    assert_eq!(adds(&q), 1);
    assert_eq!(retries(&q), 1);
}

#[test]
fn a_high_priority_item_that_became_ready_beats_an_older_low_priority_item() {
    // TestHighPriorityItemThatBecameReadyIsReturnedBeforeLowPriorityItem.
    let mut q = new_queue();
    q.add_with_opts("foo", prio(LOW_PRIORITY), T0);
    let opts = AddOpts {
        after: Some(Duration::from_secs(1)),
        priority: Some(0),
        ..AddOpts::default()
    };
    q.add_with_opts("prio", opts, T0);
    q.advance(SimTime::from_millis(1_000));
    assert_eq!(q.get_with_priority(), Some(("prio", 0)));
    assert_eq!(depth(&q), depth_of(&[(LOW_PRIORITY, 1), (0, 0)]));
    assert_eq!(adds(&q), 2);
    assert_eq!(retries(&q), 1);
}

#[test]
fn an_item_added_without_delay_is_returned_immediately() {
    // TestItemIsReturnedAsSoonAsPossible.
    let mut q = new_queue();
    assert_eq!(q.get(), None);
    q.add("foo");
    assert_eq!(q.get(), Some("foo"));
    assert_eq!(depth(&q), depth_of(&[(0, 0)]));
    assert_eq!(adds(&q), 1);
}

#[test]
fn a_waiting_item_is_returned_right_after_it_is_re_added_without_delay() {
    // TestWaitingItemIsReturnedRightAfterReadWithoutAfter.
    let mut q = new_queue();
    q.add_with_opts("foo", after(Duration::from_secs(60)), T0);
    assert_eq!(q.get(), None);
    q.add("foo");
    assert_eq!(q.get(), Some("foo"));
    assert_eq!(depth(&q), depth_of(&[(0, 0)]));
    assert_eq!(adds(&q), 1);
}

#[test]
fn several_delayed_items_are_returned_in_ready_time_order() {
    // TestMultipleItemsWithAfterAreReturnedInCorrectOrder.
    let mut q = new_queue();
    q.add_with_opts("foo", after(Duration::from_secs(1)), T0);
    q.add_with_opts("bar", after(ms(200)), T0);
    assert_eq!(q.next_ready_at(), Some(SimTime::from_millis(200)));
    assert_eq!(q.get(), None);
    q.advance(SimTime::from_millis(1_000));
    assert_eq!(q.get(), Some("bar"));
    assert_eq!(q.get(), Some("foo"));
    assert_eq!(depth(&q), depth_of(&[(0, 0)]));
    assert_eq!(adds(&q), 2);
}

#[test]
fn items_count_in_len_and_depth_once_they_are_ready() {
    // TestItemsAreInludedInLenAndMetricsOnceTheyAreReady.
    let mut q = new_queue();
    for round in 0..2u64 {
        let start = SimTime::from_millis(round * 10_000);
        q.add_with_opts("foo", after(ms(500)), start);
        q.add_with_opts("baz", AddOpts::default(), start);
        q.add_with_opts("bar", after(ms(500)), start);
        q.add_with_opts("bal", AddOpts::default(), start);
        assert_eq!(q.len(), 2);
        assert_eq!(depth(&q), depth_of(&[(0, 2)]));
        q.advance(start + Duration::from_secs(1));
        assert_eq!(q.len(), 4);
        assert_eq!(depth(&q), depth_of(&[(0, 4)]));
        for _ in 0..4 {
            let item = q.get().expect("four ready items");
            q.done(&item);
        }
        assert_eq!(q.len(), 0);
        assert_eq!(depth(&q), depth_of(&[(0, 0)]));
    }
}

#[test]
fn re_adding_an_item_that_already_became_ready_does_not_count_it_again() {
    // TestMetricsAreUpdatedForItemWhoseRequeueAfterExpiredThatGetsAddedAgainWithoutRequeueAfter.
    let mut q = new_queue();
    q.add_with_opts("foo", after(ms(50)), T0);
    q.advance(SimTime::from_millis(50));
    assert_eq!(q.len(), 1);
    assert_eq!(depth(&q), depth_of(&[(0, 1)]));
    q.add("foo");
    assert_eq!(q.len(), 1);
    assert_eq!(depth(&q), depth_of(&[(0, 1)]));
    assert_eq!(q.get(), Some("foo"));
    assert_eq!(q.len(), 0);
    assert_eq!(depth(&q), depth_of(&[(0, 0)]));
}

#[test]
fn rate_limited_items_added_together_each_get_their_own_backoff() {
    // TestWhenAddingMultipleItemsWithRatelimitTrueTheyDontAffectEachOther.
    let mut limiter = ItemExponentialFailureRateLimiter::new(ms(5), Duration::from_secs(1000))
        .expect("valid limiter");
    for _ in 0..7 {
        limiter.when(&"bar", T0);
    }
    let mut q = PriorityQueue::new(limiter);
    let opts = AddOpts {
        rate_limited: true,
        ..AddOpts::default()
    };
    q.add_all_with_opts(["foo", "bar"], opts, T0);
    assert_eq!(q.get(), None);
    q.advance(SimTime::from_millis(5));
    assert_eq!(q.get(), Some("foo"));
    assert_eq!(q.get(), None);
    assert_eq!(q.next_ready_at(), Some(SimTime::from_millis(640)));
    q.advance(SimTime::from_millis(640));
    assert_eq!(q.get(), Some("bar"));
    assert_eq!(depth(&q), depth_of(&[(0, 0)]));
    assert_eq!(adds(&q), 2);
    assert_eq!(retries(&q), 2);
}

#[test]
fn rate_limited_with_after_uses_the_smaller_delay() {
    // priorityqueue.go lockedAddWithOpts: `if after == 0 || rlAfter < after { after = rlAfter }`.
    let mut q = new_queue();
    let opts = AddOpts {
        after: Some(Duration::from_secs(1)),
        rate_limited: true,
        priority: None,
    };
    q.add_with_opts("a", opts, T0);
    assert_eq!(q.next_ready_at(), Some(SimTime::from_millis(5)));
    assert_eq!(q.num_requeues(&"a"), 1);
    q.forget(&"a");
    assert_eq!(q.num_requeues(&"a"), 0);
}

#[test]
fn a_waiting_entry_keeps_its_earlier_ready_time() {
    // priorityqueue.go lockedAddWithOpts: readyAt = min(existing, new).
    let mut q = new_queue();
    q.add_after("a", ms(100), T0);
    q.add_after("a", ms(300), T0);
    assert_eq!(q.next_ready_at(), Some(SimTime::from_millis(100)));
    q.add_after("a", ms(50), T0);
    assert_eq!(q.next_ready_at(), Some(SimTime::from_millis(50)));
    assert_eq!(q.waiting_len(), 1);
    assert_eq!(retries(&q), 3);
}

#[test]
fn items_that_become_ready_queue_behind_items_that_were_ready_before() {
    // priorityqueue.go handleWaitingItems: "Bump added counter so items get sorted by when they
    // became ready, not when they were added."
    let mut q = new_queue();
    q.add_after("early", ms(10), T0);
    q.add_with_opts("ready", AddOpts::default(), SimTime::from_millis(5));
    q.advance(SimTime::from_millis(10));
    assert_eq!(q.get(), Some("ready"));
    assert_eq!(q.get(), Some("early"));
}

#[test]
fn a_plain_re_add_raises_a_low_priority_item_to_zero() {
    // priorityqueue.go lockedAddWithOpts: `ptr.Deref(o.Priority, 0)` is compared with the old
    // priority, so an Add without priority lifts a LowPriority entry to 0.
    let mut q = new_queue();
    q.add_with_opts("a", prio(LOW_PRIORITY), T0);
    q.add("a");
    assert_eq!(q.priority_of(&"a"), Some(0));
    assert_eq!(depth(&q), depth_of(&[(LOW_PRIORITY, 0), (0, 1)]));
}

#[test]
fn queue_and_work_durations_use_the_queue_clock() {
    // client-go metrics.go semantics as copied by priorityqueue/metrics.go.
    let mut q = new_queue();
    q.add_with_opts("a", AddOpts::default(), SimTime::from_millis(100));
    q.set_now(SimTime::from_millis(350));
    assert_eq!(q.get(), Some("a"));
    q.set_now(SimTime::from_millis(1_100));
    // The last 500 ms tick before 1.1 s was at 1.0 s: 0.65 s of work so far.
    assert!((q.metrics().unfinished_work_seconds.value() - 0.65).abs() < 1e-12);
    assert!((q.metrics().longest_running_processor_seconds.value() - 0.65).abs() < 1e-12);
    q.done(&"a");
    let m = q.metrics();
    assert_eq!(m.queue_duration_seconds.count(), 1);
    assert!((m.queue_duration_seconds.sum() - 0.25).abs() < 1e-12);
    assert_eq!(m.work_duration_seconds.count(), 1);
    assert!((m.work_duration_seconds.sum() - 0.75).abs() < 1e-12);
}
