//! controller-runtime's priority queue, the default work queue since v0.23
//! (`pkg/controller/priorityqueue/priorityqueue.go`).
//!
//! Every key has at most one entry, either *ready* (ordered by priority, highest first, then by
//! an "added" counter, i.e. FIFO within a priority) or *waiting* (ordered by its ready time).
//! Handing out a key removes its entry and *locks* the key until `done`; a locked key may be added
//! again, and its new entry waits in the ready set (and counts in `len`) but is skipped by `get`
//! until the key is unlocked. Adding a key that already has an entry merges the two: the higher
//! priority wins (raising it moves the key to the back of its new priority), the earlier ready time
//! wins and "ready now" beats any delay. A waiting entry that becomes ready gets a fresh added
//! counter, so ready items are ordered by when they became ready.
//!
//! Deviations from upstream: no goroutines, channels or add buffer. Every call that takes a `now`
//! first moves due waiting entries to ready (what upstream's `handleWaitingItems` does when its
//! timer fires) and `get` never blocks: it returns `None` when nothing can be handed out, or once
//! the queue is shut down (upstream's `GetWithPriority` also stops handing out at shutdown).

use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::hash::Hash;
use std::time::Duration;

use crate::sim::shared::Head;
use crate::sim::EventId;
use crate::time::SimTime;
use crate::workqueue::causes::CauseIds;
use crate::workqueue::metrics::{MetricsRecorder, QueueMetrics};
use crate::workqueue::rate_limiter::{ItemExponentialFailureRateLimiter, RateLimiter};
use crate::workqueue::set::{self, ItemMap, ItemSet};

/// The priority controller-runtime's event handlers give to Create events from the initial list
/// and to resync Update events (controller-runtime `pkg/handler/eventhandler.go` `LowPriority`).
pub const LOW_PRIORITY: i32 = -100;

/// How to add an item (controller-runtime `priorityqueue.go` `AddOpts`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AddOpts {
    /// Wait this long before the item becomes ready; `None` or zero means ready now.
    pub after: Option<Duration>,
    /// Also ask the rate limiter; the smaller of its delay and a non-zero `after` is used.
    pub rate_limited: bool,
    /// The priority, higher first; `None` means 0.
    pub priority: Option<i32>,
}

/// One key's entry (controller-runtime `priorityqueue.go` `item`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    priority: i32,
    added: u64,
    ready_at: Option<SimTime>,
}

/// Order of the waiting set: earlier ready time first, then higher priority, then lower added
/// counter. The ready set is ordered by the same key with every time zero (higher priority
/// first, then lower added counter): one key type for both, so the module compiles one map.
type Order = (SimTime, Reverse<i32>, u64);

/// An entry's place: in the waiting set at its ready time, in the ready set at time zero.
fn order(entry: &Entry) -> Order {
    let at = entry.ready_at.unwrap_or(SimTime::ZERO);
    (at, Reverse(entry.priority), entry.added)
}

/// controller-runtime's priority queue (`pkg/controller/priorityqueue/priorityqueue.go`
/// `priorityqueue`).
#[derive(Clone)]
pub struct PriorityQueue<T: 'static> {
    items: ItemMap<T, Entry>,
    /// The causes of the adds merged into each key since it was last handed out ([`CauseIds`];
    /// beside the entries, which are rewritten at every merge).
    causes: ItemMap<T, CauseIds>,
    ready: BTreeMap<Order, T>,
    waiting: BTreeMap<Order, T>,
    locked: ItemSet<T>,
    added_counter: u64,
    rate_limiter: Box<dyn RateLimiter<T>>,
    metrics: MetricsRecorder<T>,
    shut_down: bool,
}

impl<T: std::fmt::Debug> std::fmt::Debug for PriorityQueue<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PriorityQueue")
            .field("ready", &self.ready)
            .field("waiting", &self.waiting)
            .field("locked", &self.locked)
            .field("shut_down", &self.shut_down)
            .finish_non_exhaustive()
    }
}

impl<T: Ord + Clone + Hash + Head + 'static> PriorityQueue<T> {
    /// A queue using `rate_limiter` for rate-limited adds (controller-runtime `priorityqueue.go`
    /// `New` with `Opts.RateLimiter`); accepts a concrete limiter or a `Box<dyn RateLimiter<T>>`.
    pub fn new(rate_limiter: impl RateLimiter<T> + 'static) -> PriorityQueue<T> {
        PriorityQueue {
            items: ItemMap::default(),
            causes: ItemMap::default(),
            ready: BTreeMap::new(),
            waiting: BTreeMap::new(),
            locked: ItemSet::default(),
            added_counter: 0,
            rate_limiter: Box::new(rate_limiter),
            metrics: MetricsRecorder::new(),
            shut_down: false,
        }
    }

    /// A queue with upstream's default limiter: per-item exponential backoff from 5 ms to 1000 s
    /// and *no* overall token bucket (controller-runtime `priorityqueue.go` `New`).
    pub fn with_default_rate_limiter() -> PriorityQueue<T> {
        PriorityQueue::new(ItemExponentialFailureRateLimiter::<T>::new_unchecked(
            Duration::from_millis(5),
            Duration::from_secs(1000),
        ))
    }
}

impl<T: Ord + Clone + Hash + Head> PriorityQueue<T> {
    /// Adds `item` ready now with priority 0 (controller-runtime `priorityqueue.go` `Add`), at
    /// the queue's current clock.
    pub fn add(&mut self, item: T) {
        let now = self.now();
        self.add_with_opts(item, AddOpts::default(), now);
    }

    /// Adds `item` with priority 0 after `delay` (controller-runtime `priorityqueue.go`
    /// `AddAfter`).
    pub fn add_after(&mut self, item: T, delay: Duration, now: SimTime) {
        let opts = AddOpts {
            after: Some(delay),
            ..AddOpts::default()
        };
        self.add_with_opts(item, opts, now);
    }

    /// Adds `item` with priority 0 after the rate limiter's delay (controller-runtime
    /// `priorityqueue.go` `AddRateLimited`).
    pub fn add_rate_limited(&mut self, item: T, now: SimTime) {
        let opts = AddOpts {
            rate_limited: true,
            ..AddOpts::default()
        };
        self.add_with_opts(item, opts, now);
    }

    /// Adds every item of `items` with the same options (controller-runtime `priorityqueue.go`
    /// `AddWithOpts` with several items); each rate-limited item asks the limiter separately.
    pub fn add_all_with_opts(
        &mut self,
        items: impl IntoIterator<Item = T>,
        opts: AddOpts,
        now: SimTime,
    ) {
        for item in items {
            self.add_with_opts(item, opts, now);
        }
    }

    /// Makes room for `additional` more items at once (no rehash of the item map while they are
    /// added).
    pub fn reserve(&mut self, additional: usize) {
        self.items.reserve(additional);
    }

    /// Adds `item` (controller-runtime `priorityqueue.go` `AddWithOpts`/`lockedAddWithOpts`):
    /// ignored after shutdown; a positive delay makes it wait (and counts a retry); an existing
    /// entry is merged (max priority, min ready time, "now" beats any delay).
    pub fn add_with_opts(&mut self, item: T, opts: AddOpts, now: SimTime) {
        self.add_with_opts_caused(item, opts, now, None);
    }

    /// [`PriorityQueue::add_with_opts`], made by event `cause` (kept until the key is handed
    /// out; an ignored add after shutdown keeps nothing).
    pub fn add_with_opts_caused(
        &mut self,
        item: T,
        opts: AddOpts,
        now: SimTime,
        cause: Option<EventId>,
    ) {
        self.advance(now);
        if self.shut_down {
            return;
        }
        if let Some(id) = cause {
            match self.causes.entry(item.clone()) {
                set::Entry::Occupied(mut ids) => ids.get_mut().push(id),
                set::Entry::Vacant(ids) => {
                    ids.insert(CauseIds::One(id));
                }
            }
        }
        let delay = self.effective_delay(&item, opts);
        let ready_at = if delay.is_zero() {
            None
        } else {
            self.metrics.retry();
            Some(self.now() + delay)
        };
        let priority = opts.priority.unwrap_or(0);
        match self.items.get(&item).copied() {
            None => self.insert_new(item, priority, ready_at),
            Some(old) => self.merge(item, old, priority, ready_at),
        }
    }

    /// `after`, or the rate limiter's delay when asked for and `after` is zero or longer.
    fn effective_delay(&mut self, item: &T, opts: AddOpts) -> Duration {
        let after = opts.after.unwrap_or(Duration::ZERO);
        if !opts.rate_limited {
            return after;
        }
        let limited = self.rate_limiter.when(item, self.now());
        if after.is_zero() || limited < after {
            limited
        } else {
            after
        }
    }

    /// A fresh added counter.
    fn next_added(&mut self) -> u64 {
        let added = self.added_counter;
        self.added_counter = self.added_counter.saturating_add(1);
        added
    }

    /// A key without an entry gets one, ready or waiting.
    fn insert_new(&mut self, item: T, priority: i32, ready_at: Option<SimTime>) {
        let entry = Entry {
            priority,
            added: self.next_added(),
            ready_at,
        };
        if ready_at.is_none() {
            self.metrics.add(&item, Some(priority));
        }
        self.place(item, entry);
    }

    /// Merges an add into an existing entry.
    fn merge(&mut self, item: T, old: Entry, priority: i32, ready_at: Option<SimTime>) {
        let ready_at = match (old.ready_at, ready_at) {
            (Some(old_at), Some(new_at)) => Some(old_at.min(new_at)),
            _ => None,
        };
        let mut entry = Entry { ready_at, ..old };
        if priority > old.priority {
            if old.ready_at.is_none() {
                self.metrics.move_depth(old.priority, priority);
            }
            entry.priority = priority;
            entry.added = self.next_added();
        }
        if old.ready_at.is_some() && ready_at.is_none() {
            self.metrics.add(&item, Some(entry.priority));
        }
        self.unplace(old);
        self.place(item, entry);
    }

    /// Records `entry` for `item` in the items map and the ready or waiting set.
    fn place(&mut self, item: T, entry: Entry) {
        self.set_of(&entry).insert(order(&entry), item.clone());
        self.items.insert(item, entry);
    }

    /// Removes `entry` from the ready or waiting set (the items map is overwritten by `place`).
    fn unplace(&mut self, entry: Entry) {
        self.set_of(&entry).remove(&order(&entry));
    }

    /// The set `entry` belongs in: ready without a ready time, else waiting.
    fn set_of(&mut self, entry: &Entry) -> &mut BTreeMap<Order, T> {
        match entry.ready_at {
            None => &mut self.ready,
            Some(_) => &mut self.waiting,
        }
    }

    /// Moves the clock to `now` and makes every waiting entry whose ready time is not after `now`
    /// ready, in waiting order, each with a fresh added counter (controller-runtime
    /// `priorityqueue.go` `handleWaitingItems`). Nothing moves after shutdown.
    pub fn advance(&mut self, now: SimTime) {
        self.metrics.set_now(now);
        if self.shut_down {
            return;
        }
        let now = self.now();
        while let Some((&key, _)) = self.waiting.first_key_value() {
            if key.0 > now {
                break;
            }
            if let Some(item) = self.waiting.remove(&key) {
                self.make_ready(item);
            }
        }
    }

    /// A waiting entry, already out of the waiting set, becomes ready.
    fn make_ready(&mut self, item: T) {
        let Some(old) = self.items.get(&item).copied() else {
            return;
        };
        let entry = Entry {
            ready_at: None,
            added: self.next_added(),
            ..old
        };
        self.metrics.add(&item, Some(entry.priority));
        self.place(item, entry);
    }

    /// The earliest ready time among waiting entries: when the simulation should call
    /// [`PriorityQueue::advance`] next. `None` when nothing waits or after shutdown.
    pub fn next_ready_at(&self) -> Option<SimTime> {
        if self.shut_down {
            return None;
        }
        self.waiting.first_key_value().map(|(key, _)| key.0)
    }

    /// Hands out the first ready key that is not locked and locks it (controller-runtime
    /// `priorityqueue.go` `GetWithPriority`/`handleReadyItems`); `None` when there is none or
    /// the queue is shut down.
    pub fn get_with_priority(&mut self) -> Option<(T, i32)> {
        if self.shut_down {
            return None;
        }
        let (&order, _) = self
            .ready
            .iter()
            .find(|(_, item)| !self.locked.contains(*item))?;
        let item = self.ready.remove(&order)?;
        self.items.remove(&item);
        let priority = order.1 .0;
        self.metrics.get(&item, Some(priority));
        self.locked.insert(item.clone());
        Some((item, priority))
    }

    /// [`PriorityQueue::get_with_priority`], with the causes of the adds merged into the key
    /// since it was last handed out.
    pub fn get_caused(&mut self) -> Option<(T, i32, CauseIds)> {
        let (item, priority) = self.get_with_priority()?;
        let causes = self.causes.remove(&item).unwrap_or_default();
        Some((item, priority, causes))
    }

    /// [`PriorityQueue::get_with_priority`] without the priority (controller-runtime
    /// `priorityqueue.go` `Get`).
    pub fn get(&mut self) -> Option<T> {
        self.get_with_priority().map(|(item, _)| item)
    }

    /// Unlocks `item` so a new entry for it can be handed out (controller-runtime
    /// `priorityqueue.go` `Done`).
    pub fn done(&mut self, item: &T) {
        self.locked.remove(item);
        self.metrics.done(item);
    }

    /// Clears the rate limiter's count for `item` (controller-runtime `priorityqueue.go`
    /// `Forget`).
    pub fn forget(&mut self, item: &T) {
        self.rate_limiter.forget(item);
    }

    /// The rate limiter's count for `item` (controller-runtime `priorityqueue.go` `NumRequeues`).
    pub fn num_requeues(&self, item: &T) -> u32 {
        self.rate_limiter.num_requeues(item)
    }

    /// The number of ready entries, including those of locked keys; waiting entries are not
    /// counted (controller-runtime `priorityqueue.go` `Len`).
    pub fn len(&self) -> usize {
        self.ready.len()
    }

    /// Whether no entry is ready.
    pub fn is_empty(&self) -> bool {
        self.ready.is_empty()
    }

    /// The number of waiting entries.
    pub fn waiting_len(&self) -> usize {
        self.waiting.len()
    }

    /// The number of keys handed out and not yet done.
    pub fn locked_len(&self) -> usize {
        self.locked.len()
    }

    /// The priority of `item`'s entry, ready or waiting.
    pub fn priority_of(&self, item: &T) -> Option<i32> {
        self.items.get(item).map(|entry| entry.priority)
    }

    /// Shuts the queue down (controller-runtime `priorityqueue.go` `ShutDown`): adds are ignored,
    /// nothing more is handed out, waiting entries never become ready.
    pub fn shut_down(&mut self) {
        self.shut_down = true;
        self.metrics.stop();
    }

    /// Whether the queue has been shut down (controller-runtime `priorityqueue.go`
    /// `ShuttingDown`).
    pub fn shutting_down(&self) -> bool {
        self.shut_down
    }

    /// Moves the clock to `now`; the same as [`PriorityQueue::advance`].
    pub fn set_now(&mut self, now: SimTime) {
        self.advance(now);
    }

    /// The queue's clock.
    pub fn now(&self) -> SimTime {
        self.metrics.now()
    }

    /// The queue's metrics, with the depth also split by priority (controller-runtime
    /// `pkg/controller/priorityqueue/metrics.go`).
    pub fn metrics(&self) -> &QueueMetrics {
        self.metrics.snapshot()
    }
}

impl<T: Clone + Hash + Ord + Head + 'static> crate::sim::large::LargeParts for PriorityQueue<T> {
    /// The items and their causes, the ready and waiting orders, then the rate limiter's and the
    /// metrics' maps (the locked set holds at most one key per worker).
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn crate::sim::large::Large>) {
        out.push(&mut self.items);
        out.push(&mut self.causes);
        out.push(&mut self.ready);
        out.push(&mut self.waiting);
        self.rate_limiter.large_parts(out);
        crate::sim::large::LargeParts::large_parts(&mut self.metrics, out);
    }
}
