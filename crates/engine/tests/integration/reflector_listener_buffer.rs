//! The shared informer's per-handler buffer: `k8s.io/utils/buffer/ring_growing.go` and client-go
//! `tools/cache/shared_informer.go` `processorListener`.

use std::time::Duration;

use flywheel_engine::informer::listener::{
    ProcessorListener, RingGrowing, DEFAULT_RING_SIZE, INITIAL_BUFFER_SIZE,
};
use flywheel_engine::SimTime;
use proptest::prelude::*;

// Mirrors ring_growing_test.go TestGrowthGrowing ("implicit-zero", "explicit-zero"): a zero-sized ring
// grows to 16 on its first write, holds 10 items in order and keeps its capacity after draining.
#[test]
fn a_zero_sized_ring_grows_to_sixteen_and_keeps_fifo_order() {
    for mut g in [RingGrowing::default(), RingGrowing::new(0)] {
        assert_eq!((g.len(), g.capacity()), (0, 0));
        for i in 0..10 {
            assert_eq!(g.len(), i);
            g.push(i);
        }
        assert_eq!((g.len(), g.capacity()), (10, DEFAULT_RING_SIZE));
        let mut read = 0;
        while let Some(v) = g.pop() {
            assert_eq!(v, read);
            read += 1;
        }
        assert_eq!(read, 10);
        assert_eq!((g.len(), g.capacity()), (0, 16));
        assert_eq!(g.pop(), None);
    }
}

// shared_informer.go initialBufferSize = 1024, and RingGrowing doubles when full and never shrinks.
#[test]
fn a_listener_buffer_starts_at_1024_doubles_when_full_and_never_shrinks() {
    let mut g = RingGrowing::new(INITIAL_BUFFER_SIZE);
    for i in 0..1024 {
        g.push(i);
    }
    assert_eq!(g.capacity(), 1024);
    g.push(1024);
    assert_eq!(g.capacity(), 2048);
    for i in 1025..4097 {
        g.push(i);
    }
    assert_eq!((g.len(), g.capacity()), (4097, 8192));
    while g.pop().is_some() {}
    assert_eq!(g.capacity(), 8192, "RingGrowing never shrinks");
}

// Growth while the readable region wraps around the end of the slots keeps the order
// (the two-part copy in ring_growing.go WriteOne).
#[test]
fn growing_a_wrapped_ring_keeps_the_order() {
    let mut g = RingGrowing::new(4);
    for i in 0..4 {
        g.push(i);
    }
    assert_eq!(g.pop(), Some(0));
    assert_eq!(g.pop(), Some(1));
    g.push(4);
    g.push(5); // wraps: slots [4, 5, 2, 3]
    g.push(6); // full: grows to 8
    assert_eq!(g.capacity(), 8);
    assert_eq!(g.iter().copied().collect::<Vec<_>>(), vec![2, 3, 4, 5, 6]);
    assert_eq!(g.peek(), Some(&2));
}

// shared_informer.go processorListener.pop: a stalled handler leaves every notification after the
// first in pendingNotifications, which grows without bound (the "until OOM" comment).
#[test]
fn a_stalled_handler_grows_its_pending_notifications_without_bound() {
    let mut l = ProcessorListener::new(Duration::ZERO, Duration::ZERO, SimTime::ZERO);
    for i in 0..5000u32 {
        l.add(i);
    }
    assert_eq!(l.pending_len(), 4999);
    assert_eq!(l.queued_len(), 5000);
    assert_eq!(l.buffer_capacity(), 8192);
    assert!(l.is_backlogged());
    let drained: Vec<u32> = std::iter::from_fn(|| l.next_notification()).collect();
    assert_eq!(drained, (0..5000).collect::<Vec<_>>());
    assert_eq!((l.pending_len(), l.buffer_capacity()), (0, 8192));
    assert_eq!((l.added_total(), l.delivered_total()), (5000, 5000));
    assert!(!l.is_backlogged());
}

// shared_informer.go processorListener.shouldResync / determineNextResync: period 0 never resyncs;
// otherwise due when now >= nextResync, and the next one is now + period.
#[test]
fn a_listener_is_due_for_resync_once_its_period_has_passed() {
    let never = ProcessorListener::<u8>::new(Duration::ZERO, Duration::ZERO, SimTime::ZERO);
    assert!(!never.should_resync(SimTime::MAX));

    let p = Duration::from_secs(30);
    let mut l = ProcessorListener::<u8>::new(p, p, SimTime::from_millis(1000));
    assert_eq!(l.next_resync(), SimTime::from_millis(31_000));
    assert!(!l.should_resync(SimTime::from_millis(30_999)));
    assert!(l.should_resync(SimTime::from_millis(31_000)));
    l.determine_next_resync(SimTime::from_millis(31_500));
    assert_eq!(l.next_resync(), SimTime::from_millis(61_500));
    l.set_resync_period(Duration::ZERO);
    assert!(!l.should_resync(SimTime::MAX));
}

proptest! {
    // Any interleaving of pushes and pops reads items back in push order, across any growth.
    #[test]
    fn the_ring_keeps_fifo_order_across_growth(
        initial in 0usize..8,
        ops in proptest::collection::vec(any::<bool>(), 0..600),
    ) {
        let mut g = RingGrowing::new(initial);
        let mut model = std::collections::VecDeque::new();
        let mut next = 0u32;
        let mut last_cap = g.capacity();
        for push in ops {
            if push {
                g.push(next);
                model.push_back(next);
                next += 1;
            } else {
                prop_assert_eq!(g.pop(), model.pop_front());
            }
            prop_assert_eq!(g.len(), model.len());
            prop_assert!(g.capacity() >= g.len());
            prop_assert!(g.capacity() >= last_cap, "never shrinks");
            last_cap = g.capacity();
            prop_assert_eq!(g.iter().copied().collect::<Vec<_>>(), model.iter().copied().collect::<Vec<_>>());
        }
    }
}
