//! Property tests for the work queue invariants (client-go `util/workqueue/queue.go`,
//! `delaying_queue.go`; controller-runtime `pkg/controller/priorityqueue/priorityqueue.go`, whose
//! `TestFuzzPriorityQueue` checks the same invariants with random concurrent workers).
//!
//! Each test drives a queue with a random sequence of operations next to a small model of what
//! must hold, and checks after every step that no item is handed to two workers at once, that an
//! item is handed out only if it was added since it was last handed out (once per dirty period),
//! that nothing addable is lost, and that `len` never counts parked or waiting items.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::time::Duration;

use flywheel_engine::workqueue::{AddOpts, DelayingQueue, PriorityQueue, Queue};
use flywheel_engine::SimTime;
use proptest::prelude::*;

/// One step of a random workload.
#[derive(Clone, Debug)]
enum Op {
    /// Add a key (with a delay in ms and a priority, where the queue supports them).
    Add {
        key: u8,
        delay_ms: u64,
        priority: Option<i32>,
    },
    /// A worker takes the next item.
    Get,
    /// The worker holding the `n`-th in-flight item (modulo their number) finishes it.
    Done(usize),
    /// Virtual time moves forward by this many ms.
    Advance(u64),
    /// The queue is shut down.
    ShutDown,
}

fn op_strategy(max_delay_ms: u64) -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0u8..8, 0..=max_delay_ms, proptest::option::of(-2i32..=2))
            .prop_map(|(key, delay_ms, priority)| Op::Add { key, delay_ms, priority }),
        5 => Just(Op::Get),
        4 => (0usize..16).prop_map(Op::Done),
        2 => (0u64..40).prop_map(Op::Advance),
        1 => (0u8..40).prop_map(|n| if n == 0 { Op::ShutDown } else { Op::Get }),
    ]
}

/// What the plain and delaying queues must respect.
#[derive(Default)]
struct ClassicModel {
    /// Keys added since they were last handed out (dirty), in the order they became queueable.
    pending: BTreeSet<u8>,
    /// FIFO order of keys that are dirty and not processing.
    order: VecDeque<u8>,
    /// Keys handed out and not yet done.
    in_flight: Vec<u8>,
    /// Deadlines (and creation sequence, the tie-break) of keys waiting in the delaying queue.
    waiting: BTreeMap<u8, (SimTime, u64)>,
    next_sequence: u64,
    shut_down: bool,
}

impl ClassicModel {
    fn add(&mut self, key: u8) {
        if self.shut_down || !self.pending.insert(key) {
            return;
        }
        if !self.in_flight.contains(&key) {
            self.order.push_back(key);
        }
    }

    fn handed_out(&mut self, key: u8) -> Result<(), TestCaseError> {
        prop_assert!(
            !self.in_flight.contains(&key),
            "{key} handed to two workers"
        );
        prop_assert!(
            self.pending.remove(&key),
            "{key} handed out without being added"
        );
        prop_assert_eq!(self.order.pop_front(), Some(key), "FIFO order broken");
        self.in_flight.push(key);
        Ok(())
    }

    fn done(&mut self, n: usize) -> Option<u8> {
        if self.in_flight.is_empty() {
            return None;
        }
        let key = self.in_flight.remove(n % self.in_flight.len());
        if self.pending.contains(&key) {
            self.order.push_back(key);
        }
        Some(key)
    }

    fn wait(&mut self, key: u8, at: SimTime) {
        if self.shut_down {
            return;
        }
        let sequence = self.next_sequence;
        let entry = self.waiting.entry(key).or_insert((at, sequence));
        if entry.1 == sequence {
            self.next_sequence += 1;
        }
        entry.0 = entry.0.min(at);
    }

    fn next_ready_at(&self) -> Option<SimTime> {
        self.waiting.values().map(|&(at, _)| at).min()
    }

    /// Due keys become dirty in deadline order, ties in creation order.
    fn ready_until(&mut self, now: SimTime) {
        let mut due: Vec<((SimTime, u64), u8)> = self
            .waiting
            .iter()
            .filter(|(_, &(at, _))| at <= now)
            .map(|(&k, &position)| (position, k))
            .collect();
        due.sort_unstable();
        for (_, key) in due {
            self.waiting.remove(&key);
            self.add(key);
        }
    }

    /// Queued = dirty and not processing; parked items are excluded.
    fn expected_len(&self) -> usize {
        self.pending
            .iter()
            .filter(|k| !self.in_flight.contains(k))
            .count()
    }
}

/// Finishes all work and checks each dirty key is handed out exactly once more.
fn drain_classic(
    get: &mut dyn FnMut() -> Option<u8>,
    done: &mut dyn FnMut(u8),
    model: &mut ClassicModel,
) -> Result<(), TestCaseError> {
    while let Some(key) = model.done(0) {
        done(key);
    }
    let expected = model.pending.clone();
    let mut seen = BTreeSet::new();
    while let Some(key) = get() {
        prop_assert!(
            seen.insert(key),
            "{key} handed out twice in one dirty period"
        );
        model.handed_out(key)?;
        let finished = model.done(0);
        prop_assert_eq!(finished, Some(key));
        done(key);
    }
    prop_assert_eq!(seen, expected);
    Ok(())
}

proptest! {
    #[test]
    fn the_queue_never_hands_an_item_to_two_workers_and_loses_nothing(
        ops in proptest::collection::vec(op_strategy(0), 0..200)
    ) {
        let mut q: Queue<u8> = Queue::new();
        let mut model = ClassicModel::default();
        for op in ops {
            match op {
                Op::Add { key, .. } => {
                    q.add(key);
                    model.add(key);
                }
                Op::Get => match q.get() {
                    Some(key) => model.handed_out(key)?,
                    None => prop_assert!(model.order.is_empty(), "a queued item was not handed out"),
                },
                Op::Done(n) => {
                    if let Some(key) = model.done(n) {
                        q.done(&key);
                    }
                }
                Op::Advance(_) => {}
                Op::ShutDown => {
                    q.shut_down();
                    model.shut_down = true;
                }
            }
            prop_assert_eq!(q.len(), model.expected_len(), "len must count queued items only");
            prop_assert_eq!(q.metrics().depth.value() as usize, model.pending.len());
        }
        let cell = std::cell::RefCell::new(q);
        drain_classic(
            &mut || cell.borrow_mut().get(),
            &mut |key| cell.borrow_mut().done(&key),
            &mut model,
        )?;
    }

    #[test]
    fn the_delaying_queue_readies_items_at_their_earliest_deadline(
        ops in proptest::collection::vec(op_strategy(50), 0..200)
    ) {
        let mut q: DelayingQueue<u8> = DelayingQueue::new();
        let mut model = ClassicModel::default();
        let mut now = SimTime::ZERO;
        for op in ops {
            match op {
                Op::Add { key, delay_ms, .. } => {
                    q.add_after(key, Duration::from_millis(delay_ms), now);
                    if delay_ms == 0 {
                        model.add(key);
                    } else {
                        model.wait(key, now + Duration::from_millis(delay_ms));
                    }
                }
                Op::Get => match q.get() {
                    Some(key) => model.handed_out(key)?,
                    None => prop_assert!(model.order.is_empty(), "a ready item was not handed out"),
                },
                Op::Done(n) => {
                    if let Some(key) = model.done(n) {
                        q.done(&key);
                    }
                }
                Op::Advance(ms) => {
                    now += Duration::from_millis(ms);
                    q.advance(now);
                    model.ready_until(now);
                }
                Op::ShutDown => {
                    q.shut_down();
                    model.shut_down = true;
                    model.waiting.clear();
                }
            }
            prop_assert_eq!(q.len(), model.expected_len());
            prop_assert_eq!(q.next_ready_at(), model.next_ready_at());
            prop_assert_eq!(q.waiting_len(), model.waiting.len());
        }
        let cell = std::cell::RefCell::new(q);
        drain_classic(
            &mut || cell.borrow_mut().get(),
            &mut |key| cell.borrow_mut().done(&key),
            &mut model,
        )?;
    }
}

/// One key's expected entry in the priority queue.
#[derive(Clone, Copy, Debug)]
struct PqEntry {
    priority: i32,
    ready_at: Option<SimTime>,
}

/// What the priority queue must respect.
#[derive(Default)]
struct PqModel {
    entries: BTreeMap<u8, PqEntry>,
    locked: Vec<u8>,
    shut_down: bool,
}

impl PqModel {
    fn add(&mut self, key: u8, priority: i32, ready_at: Option<SimTime>) {
        if self.shut_down {
            return;
        }
        let merged = match self.entries.get(&key) {
            None => PqEntry { priority, ready_at },
            Some(old) => PqEntry {
                priority: old.priority.max(priority),
                ready_at: match (old.ready_at, ready_at) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    _ => None,
                },
            },
        };
        self.entries.insert(key, merged);
    }

    fn ready_until(&mut self, now: SimTime) {
        if self.shut_down {
            return;
        }
        for entry in self.entries.values_mut() {
            if entry.ready_at.is_some_and(|at| at <= now) {
                entry.ready_at = None;
            }
        }
    }

    fn best_available_priority(&self) -> Option<i32> {
        self.entries
            .iter()
            .filter(|(k, e)| e.ready_at.is_none() && !self.locked.contains(k))
            .map(|(_, e)| e.priority)
            .max()
    }

    fn handed_out(&mut self, key: u8, priority: i32) -> Result<(), TestCaseError> {
        prop_assert!(!self.locked.contains(&key), "{key} handed out while locked");
        prop_assert_eq!(
            self.best_available_priority(),
            Some(priority),
            "not the highest priority"
        );
        let entry = self.entries.remove(&key);
        prop_assert!(
            entry.is_some_and(|e| e.ready_at.is_none()),
            "{key} was not ready"
        );
        prop_assert_eq!(
            entry.map(|e| e.priority),
            Some(priority),
            "max priority not kept"
        );
        self.locked.push(key);
        Ok(())
    }

    fn ready_len(&self) -> usize {
        self.entries
            .values()
            .filter(|e| e.ready_at.is_none())
            .count()
    }

    fn ready_by_priority(&self) -> BTreeMap<i32, i64> {
        let mut depths = BTreeMap::new();
        for entry in self.entries.values().filter(|e| e.ready_at.is_none()) {
            *depths.entry(entry.priority).or_insert(0) += 1;
        }
        depths
    }
}

proptest! {
    #[test]
    fn the_priority_queue_hands_out_the_highest_ready_unlocked_key_once(
        ops in proptest::collection::vec(op_strategy(50), 0..200)
    ) {
        let mut q: PriorityQueue<u8> = PriorityQueue::with_default_rate_limiter();
        let mut model = PqModel::default();
        let mut now = SimTime::ZERO;
        for op in ops {
            match op {
                Op::Add { key, delay_ms, priority } => {
                    let opts = AddOpts {
                        after: Some(Duration::from_millis(delay_ms)),
                        rate_limited: false,
                        priority,
                    };
                    q.add_with_opts(key, opts, now);
                    let ready_at = (delay_ms > 0).then(|| now + Duration::from_millis(delay_ms));
                    model.add(key, priority.unwrap_or(0), ready_at);
                }
                Op::Get => match q.get_with_priority() {
                    Some((key, priority)) => model.handed_out(key, priority)?,
                    None => prop_assert!(
                        model.shut_down || model.best_available_priority().is_none(),
                        "a ready unlocked key was not handed out"
                    ),
                },
                Op::Done(n) => {
                    if !model.locked.is_empty() {
                        let key = model.locked.remove(n % model.locked.len());
                        q.done(&key);
                    }
                }
                Op::Advance(ms) => {
                    now += Duration::from_millis(ms);
                    q.advance(now);
                    model.ready_until(now);
                }
                Op::ShutDown => {
                    q.shut_down();
                    model.shut_down = true;
                }
            }
            prop_assert_eq!(q.len(), model.ready_len(), "len counts ready entries only");
            prop_assert_eq!(q.metrics().depth.value() as usize, model.ready_len());
            let depths: BTreeMap<i32, i64> = q
                .metrics()
                .depth_by_priority
                .iter()
                .map(|(&p, g)| (p, g.value() as i64))
                .filter(|&(_, d)| d != 0)
                .collect();
            prop_assert_eq!(depths, model.ready_by_priority());
            let next = if model.shut_down {
                None
            } else {
                model.entries.values().filter_map(|e| e.ready_at).min()
            };
            prop_assert_eq!(q.next_ready_at(), next);
        }
    }
}
