//! One shared informer of the simulated operator: Reflector → DeltaFIFO or RealFIFO (plain or
//! atomic) → Indexer → the event handler's notification buffer (client-go
//! `tools/cache/shared_informer.go`). The atomic RealFIFO is popped in batches, as client-go 1.35+
//! does when `InOrderInformersBatchProcess` is on (`tools/cache/controller.go` processLoop,
//! `tools/cache/the_real_fifo.go` `PopBatch`).
//!
//! This type only holds and moves data; the cluster decides when each loop runs and what it costs.
//! It keeps byte totals of what each stage retains so the Go process model can account the heap.

use crate::informer::delta::Delta;
use crate::informer::delta_fifo::{DeltaFifo, PartialReplace};
use crate::informer::deltas::Deltas;
use crate::informer::indexer::{
    process_atomic_item, process_popped_deltas, CachedBytes, Indexer, Notification,
};
use crate::informer::listener::ProcessorListener;
use crate::informer::real_fifo::{AtomicFifo, AtomicItem, RealFifo, DEFAULT_BATCH_SIZE_ITEMS};
use crate::informer::reflector::{Reflector, StoreEvent};
use crate::key::Key;
use crate::object::ObjectRef;
use crate::scenario::FifoKind;
use crate::sim::EventId;
use crate::time::SimTime;

/// Bytes a notification costs beyond the objects it points to (the struct and ring slot).
pub const NOTIFICATION_OVERHEAD_BYTES: u64 = 96;

/// The informer's queue: client-go ≤ v0.32 `DeltaFIFO` or ≥ v0.33 `RealFIFO`.
#[derive(Clone, Debug)]
pub enum Fifo {
    /// Deltas accumulate per key.
    Delta(DeltaFifo),
    /// Every event kept in arrival order.
    Real(RealFifo),
    /// Every event kept in arrival order; a relist or resync is one atomic item.
    Atomic(AtomicFifo),
}

impl crate::sim::large::LargeParts for Fifo {
    /// The queue's keys and items.
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn crate::sim::large::Large>) {
        match self {
            Fifo::Delta(fifo) => fifo.large_parts(out),
            Fifo::Real(fifo) => fifo.large_parts(out),
            Fifo::Atomic(fifo) => fifo.large_parts(out),
        }
    }
}

/// An open watch of the reflector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenWatch {
    /// Identifies the watch (events of a closed watch are dropped).
    pub id: u64,
    /// Events received on it so far.
    pub events_received: u64,
    /// Whether the server answered with an error watcher (apiserver `pkg/storage/cacher/cacher.go`
    /// `newErrWatcher`): it carries one ERROR event and is never sent the cache's events.
    pub error_only: bool,
}

/// A shared informer for one kind.
#[derive(Clone, Debug)]
pub struct SimInformer {
    /// The kind it watches.
    pub kind: String,
    /// Lists and watches.
    pub reflector: Reflector,
    /// Holds deltas between the reflector and the processing loop.
    pub fifo: Fifo,
    /// The cache.
    pub indexer: Indexer,
    /// The controller's event handler buffer.
    pub listener: ProcessorListener<Notification>,
    /// The watch currently open, if any.
    pub watch: Option<OpenWatch>,
    /// Whether the processing loop (`processLoop` → `Pop`) is busy with an item.
    pub popping: bool,
    /// Whether the handler goroutine (`processorListener.run`) is busy.
    pub handling: bool,
    fifo_bytes: u64,
    buffer_bytes: u64,
    store_bytes: u64,
    /// Whether the listener was found due for a resync at the last resync check: the shared
    /// processor's `syncingListeners`, which only sync notifications reach.
    syncing: bool,
    /// Sync notifications the listener did not get.
    sync_skipped: u64,
    /// Initial-list notifications buffered or in the handler's hand: the handler registration's
    /// sync tracker (client-go `tools/cache/synctrack` `SingleFileTracker`).
    initial_unhandled: u64,
    /// A `Replace` being queued in parts, and the bytes its parts listed so far.
    partial: Option<(PartialReplace, u64)>,
    /// The id the trace gives the Pop under way.
    pop_id: EventId,
    /// `(resourceVersion, is sync)` of each notification the Pop under way produced.
    popped: Vec<(u64, bool)>,
    /// The notifications of the item being popped, before they are distributed (kept empty
    /// between pops, for its room).
    notified: Vec<Notification>,
    /// The Pop that produced each buffered notification, in the buffer's order.
    notification_pops: std::collections::VecDeque<EventId>,
}

impl SimInformer {
    /// A stopped informer for `kind` with an empty cache, whose one handler resyncs every
    /// `resync_period` (a controller-runtime handler asks for none of its own, so it gets the
    /// informer's default period: client-go `tools/cache/shared_informer.go`
    /// `AddEventHandlerWithOptions`).
    pub fn new(
        kind: &str,
        fifo: FifoKind,
        reflector: Reflector,
        resync_period: std::time::Duration,
        now: SimTime,
    ) -> SimInformer {
        let fifo = match fifo {
            FifoKind::DeltaFifo => Fifo::Delta(DeltaFifo::new()),
            FifoKind::RealFifo => Fifo::Real(RealFifo::new()),
            FifoKind::AtomicFifo => Fifo::Atomic(AtomicFifo::new()),
        };
        SimInformer {
            kind: kind.to_owned(),
            reflector,
            fifo,
            indexer: Indexer::with_namespace_index(),
            listener: ProcessorListener::new(resync_period, resync_period, now),
            watch: None,
            popping: false,
            handling: false,
            fifo_bytes: 0,
            buffer_bytes: 0,
            store_bytes: 0,
            syncing: false,
            sync_skipped: 0,
            initial_unhandled: 0,
            partial: None,
            pop_id: EventId(0),
            popped: Vec::new(),
            notified: Vec::new(),
            notification_pops: std::collections::VecDeque::new(),
        }
    }

    /// The next Pop will be traced as `id`: its notifications remember it, and
    /// [`SimInformer::popped`] lists what it produced.
    pub fn begin_pop(&mut self, id: EventId) {
        self.pop_id = id;
        self.popped.clear();
    }

    /// `(resourceVersion, is sync)` of each notification the last Pop produced, delivered or not.
    pub fn popped(&self) -> &[(u64, bool)] {
        &self.popped
    }

    /// Applies one store event from the watch (`store.Add/Update/Delete` on the FIFO).
    pub fn apply(&mut self, event: StoreEvent) {
        let (obj, kind) = match event {
            StoreEvent::Added(o) => (o, 0),
            StoreEvent::Modified(o) => (o, 1),
            StoreEvent::Deleted(o) => (o, 2),
        };
        let before = self.pending_deltas();
        match (&mut self.fifo, kind) {
            (Fifo::Delta(f), 0) => f.add(obj.clone()),
            (Fifo::Delta(f), 1) => f.update(obj.clone()),
            (Fifo::Delta(f), _) => {
                f.delete(obj.clone(), &self.indexer);
            }
            (Fifo::Real(f), 0) => f.add(obj.clone()),
            (Fifo::Real(f), 1) => f.update(obj.clone()),
            (Fifo::Real(f), _) => {
                f.delete(obj.clone(), &self.indexer);
            }
            (Fifo::Atomic(f), 0) => f.add(obj.clone()),
            (Fifo::Atomic(f), 1) => f.update(obj.clone()),
            (Fifo::Atomic(f), _) => f.delete(obj.clone()),
        }
        let added = self.pending_deltas().saturating_sub(before) as u64;
        self.fifo_bytes += added * obj.size_bytes;
    }

    /// `store.Replace(items, rv)` after a LIST.
    pub fn replace(&mut self, items: Vec<ObjectRef>, resource_version: u64) {
        let listed_bytes: u64 = items.iter().map(|o| o.size_bytes).sum();
        match &mut self.fifo {
            Fifo::Delta(f) => f.replace(items, resource_version, &self.indexer),
            Fifo::Real(f) => f.replace(items, resource_version, &self.indexer),
            Fifo::Atomic(f) => f.replace(items, resource_version),
        }
        self.fifo_bytes += listed_bytes;
    }

    /// Starts a `store.Replace` of `listed` objects whose LIST is queued in parts (continuation
    /// events); `false` when the queue replaces only at once (RealFIFO), or one is already under
    /// way.
    pub fn begin_replace(&mut self, listed: usize) -> bool {
        match &mut self.fifo {
            Fifo::Delta(f) if self.partial.is_none() => {
                f.reserve(listed);
                self.partial = Some((f.begin_replace(), 0));
                true
            }
            _ => false,
        }
    }

    /// Queues one part of the LIST begun with [`SimInformer::begin_replace`].
    pub fn replace_part(&mut self, items: Vec<ObjectRef>) {
        let (Fifo::Delta(f), Some((replace, bytes))) = (&mut self.fifo, &mut self.partial) else {
            return;
        };
        *bytes += items.iter().map(|o| o.size_bytes).sum::<u64>();
        f.replace_part(replace, items);
    }

    /// Ends the `Replace` begun with [`SimInformer::begin_replace`]; its bytes count from now.
    pub fn finish_replace(&mut self) {
        let (Fifo::Delta(f), Some((replace, bytes))) = (&mut self.fifo, self.partial.take()) else {
            return;
        };
        f.finish_replace(replace, &self.indexer);
        self.fifo_bytes += bytes;
    }

    /// The reflector's resync timer asks whether to resync (`sharedProcessor.shouldResync`): the
    /// listener is due if its next resync has come; it then stays the one sync notifications
    /// reach until the next check (`syncingListeners` is rebuilt only here).
    pub fn should_resync(&mut self, now: SimTime) -> bool {
        self.syncing = self.listener.should_resync(now);
        if self.syncing {
            self.listener.determine_next_resync(now);
        }
        self.syncing
    }

    /// `store.Resync()`.
    pub fn resync(&mut self) {
        match &mut self.fifo {
            Fifo::Delta(f) => f.resync(&self.indexer),
            Fifo::Real(f) => f.resync(&self.indexer),
            Fifo::Atomic(f) => f.resync(),
        }
    }

    /// Size of the next item the processing loop would pop, in bytes (for its CPU cost).
    pub fn next_pop_bytes(&self) -> Option<u64> {
        match &self.fifo {
            Fifo::Delta(f) => f.peek_size_bytes(),
            Fifo::Real(f) => f.iter().next().map(Delta::size_bytes),
            Fifo::Atomic(f) => {
                let mut batch = f.peek_batch(DEFAULT_BATCH_SIZE_ITEMS).peekable();
                batch.peek()?;
                Some(batch.map(atomic_item_bytes).sum())
            }
        }
    }

    /// Pops one item, updates the indexer and buffers the resulting notifications for the
    /// handler. Returns the item's key and how many deltas it carried.
    pub fn pop_and_process(&mut self) -> Option<(Key, usize)> {
        if let Fifo::Atomic(f) = &mut self.fifo {
            let initial = f.is_in_initial_list();
            let batch = f.pop_batch(DEFAULT_BATCH_SIZE_ITEMS);
            return self.process_atomic_batch(&batch, initial);
        }
        let (key, deltas, initial, popped_bytes) = match &mut self.fifo {
            Fifo::Delta(f) => {
                let bytes = f.peek_size_bytes();
                match f.pop_deltas() {
                    Some(p) => (p.key, p.deltas, p.is_in_initial_list, bytes.unwrap_or(0)),
                    None => return None,
                }
            }
            Fifo::Real(f) => match f.pop_with_initial_list() {
                Some((d, initial)) => {
                    let bytes = d.size_bytes();
                    (d.key(), Deltas::one(d), initial, bytes)
                }
                None => return None,
            },
            Fifo::Atomic(_) => return None,
        };
        self.fifo_bytes = self.fifo_bytes.saturating_sub(popped_bytes);
        let count = deltas.len();
        let mut notifications = std::mem::take(&mut self.notified);
        let sized =
            process_popped_deltas(&mut self.indexer, &key, deltas, initial, &mut notifications);
        let CachedBytes {
            before_bytes,
            after_bytes,
        } = sized.unwrap_or_default();
        self.store_bytes = (self.store_bytes + after_bytes).saturating_sub(before_bytes);
        for notification in notifications.drain(..) {
            self.distribute(notification);
        }
        self.notified = notifications;
        Some((key, count))
    }

    /// `sharedProcessor.distribute(obj, sync)` for the one listener: a sync notification (an
    /// update whose resourceVersion did not change — a resync, or an unchanged object of a
    /// relist) reaches it only while it is due for a resync; every other notification always
    /// (client-go `tools/cache/shared_informer.go` `OnUpdate`, `distribute`).
    fn distribute(&mut self, notification: Notification) {
        let sync = notification.is_sync();
        self.popped.push((notification_rv(&notification), sync));
        if sync && !self.syncing {
            self.sync_skipped += 1;
            return;
        }
        if matches!(
            notification,
            Notification::Add {
                is_in_initial_list: true,
                ..
            }
        ) {
            self.initial_unhandled += 1;
        }
        self.buffer_bytes += notification_bytes(&notification);
        self.listener.add(notification);
        self.notification_pops.push_back(self.pop_id);
    }

    /// Sync notifications not delivered because the listener was not due for a resync.
    pub fn sync_skipped(&self) -> u64 {
        self.sync_skipped
    }

    /// Whether the handler has handled every notification of the initial list, once the
    /// informer synced (the handler registration's `HasSynced`, client-go
    /// `tools/cache/synctrack/synctrack.go` `SingleFileTracker.HasSynced`).
    pub fn handler_synced(&self) -> bool {
        self.has_synced() && self.initial_unhandled == 0
    }

    /// Processes one popped batch of the atomic FIFO item by item (the handler's callbacks run
    /// after the store changes, as `processDeltasInBatch` and `processReplacedAllInfo` do). Returns
    /// the first item's key (`*` for a whole-store item) and the batch's length.
    fn process_atomic_batch(
        &mut self,
        batch: &[AtomicItem],
        initial: bool,
    ) -> Option<(Key, usize)> {
        let first = batch.first()?;
        let key = match first {
            AtomicItem::Delta(d) => d.key(),
            _ => Key::from("*"),
        };
        let popped_bytes: u64 = batch.iter().map(atomic_item_bytes).sum();
        self.fifo_bytes = self.fifo_bytes.saturating_sub(popped_bytes);
        for item in batch {
            let notifications = match item {
                AtomicItem::Delta(d) => {
                    let key = d.key();
                    let cached = |ix: &Indexer| ix.get_by_key(&key).map_or(0, |o| o.size_bytes);
                    let before = cached(&self.indexer);
                    let n = process_atomic_item(&mut self.indexer, item, initial);
                    self.store_bytes =
                        (self.store_bytes + cached(&self.indexer)).saturating_sub(before);
                    n
                }
                _ => {
                    let n = process_atomic_item(&mut self.indexer, item, initial);
                    self.store_bytes = self.indexer.list().iter().map(|o| o.size_bytes).sum();
                    n
                }
            };
            for notification in notifications {
                self.distribute(notification);
            }
        }
        Some((key, batch.len()))
    }

    /// Takes the next notification for the handler.
    pub fn next_notification(&mut self) -> Option<Notification> {
        self.next_notification_with_pop().map(|(n, _)| n)
    }

    /// Takes the next notification for the handler, with the Pop that produced it.
    pub fn next_notification_with_pop(&mut self) -> Option<(Notification, EventId)> {
        let n = self.listener.next_notification()?;
        let pop = self.notification_pops.pop_front().unwrap_or(self.pop_id);
        self.buffer_bytes = self.buffer_bytes.saturating_sub(notification_bytes(&n));
        if let Notification::Add {
            is_in_initial_list: true,
            ..
        } = &n
        {
            self.initial_unhandled = self.initial_unhandled.saturating_sub(1);
        }
        Some((n, pop))
    }

    /// Deltas waiting in the FIFO.
    pub fn pending_deltas(&self) -> usize {
        match &self.fifo {
            Fifo::Delta(f) => f.pending_deltas(),
            Fifo::Real(f) => f.pending_deltas(),
            Fifo::Atomic(f) => f.len(),
        }
    }

    /// Keys (DeltaFIFO) or items (RealFIFO) waiting in the FIFO.
    pub fn fifo_len(&self) -> usize {
        match &self.fifo {
            Fifo::Delta(f) => f.len(),
            Fifo::Real(f) => f.len(),
            Fifo::Atomic(f) => f.len(),
        }
    }

    /// Whether the FIFO has handed out its initial list (`HasSynced`).
    pub fn has_synced(&self) -> bool {
        match &self.fifo {
            Fifo::Delta(f) => f.has_synced(),
            Fifo::Real(f) => f.has_synced(),
            Fifo::Atomic(f) => f.has_synced(),
        }
    }

    /// Bytes retained by objects in pending FIFO deltas.
    pub fn fifo_bytes(&self) -> u64 {
        self.fifo_bytes
    }

    /// Bytes retained by the handler's notification buffer.
    pub fn buffer_bytes(&self) -> u64 {
        self.buffer_bytes
    }

    /// Bytes of the objects in the cache.
    pub fn store_bytes(&self) -> u64 {
        self.store_bytes
    }
}

/// The resourceVersion of the object a notification carries (0 for a delete of an object the
/// cache no longer knows).
pub fn notification_rv(n: &Notification) -> u64 {
    match n {
        Notification::Add { obj, .. } => obj.resource_version(),
        Notification::Update { new, .. } => new.resource_version(),
        Notification::Delete { obj } => obj.object().map_or(0, |o| o.resource_version()),
    }
}

/// Bytes an atomic FIFO item keeps alive: its object, or every object of a relist.
fn atomic_item_bytes(item: &AtomicItem) -> u64 {
    match item {
        AtomicItem::Delta(d) => d.size_bytes(),
        AtomicItem::ReplacedAll { objects, .. } => objects.iter().map(|o| o.size_bytes).sum(),
        AtomicItem::SyncAll | AtomicItem::Bookmark { .. } => 0,
    }
}

/// What a buffered notification keeps alive beyond the cache, plus the notification itself. The
/// handler gets the very object the indexer stores (client-go `tools/cache/controller.go`
/// `processDeltas` stores `obj`, then calls `OnAdd(obj)` / `OnUpdate(old, obj)`), so an add's
/// object is the cached one and costs nothing more; an update also holds the version the cache
/// just dropped, and a delete the object the cache removed. Under a backlog the cached version
/// moves on while the notification waits, so each buffered update then holds about one object
/// of its own — the old one counted here.
fn notification_bytes(n: &Notification) -> u64 {
    let obj = match n {
        Notification::Add { .. } => 0,
        Notification::Update { old, .. } => old.size_bytes,
        Notification::Delete { obj } => obj.object().map_or(64, |o| o.size_bytes),
    };
    obj + NOTIFICATION_OVERHEAD_BYTES
}

#[cfg(test)]
mod tests {
    use crate::object::ObjectRef;
    use std::time::Duration;

    use super::*;
    use crate::informer::reflector::ReflectorConfig;
    use crate::object::Object;

    const PERIOD: Duration = Duration::from_secs(36_000);

    fn obj(name: &str, rv: u64) -> ObjectRef {
        let mut o = Object::new("MyCRD", "default", name);
        o.metadata.resource_version = rv;
        ObjectRef::new(o)
    }

    fn informer(fifo: FifoKind) -> SimInformer {
        let reflector = Reflector::new(ReflectorConfig::default()).expect("valid");
        SimInformer::new("MyCRD", fifo, reflector, PERIOD, SimTime::ZERO)
    }

    fn drain(inf: &mut SimInformer) -> Vec<Notification> {
        while inf.pop_and_process().is_some() {}
        std::iter::from_fn(|| inf.next_notification()).collect()
    }

    // client-go tools/cache/shared_informer.go: OnUpdate marks an update whose resourceVersion did
    // not change as a sync, and distribute(obj, sync=true) reaches only the syncing listeners.
    #[test]
    fn a_relist_delivers_only_the_objects_that_changed_to_a_listener_not_due_for_resync() {
        for fifo in [FifoKind::DeltaFifo, FifoKind::RealFifo] {
            let mut inf = informer(fifo);
            inf.replace(vec![obj("a", 1), obj("b", 2)], 2);
            assert_eq!(
                drain(&mut inf).len(),
                2,
                "{fifo:?}: the initial list is delivered"
            );
            inf.replace(vec![obj("a", 1), obj("b", 3)], 3);
            let delivered = drain(&mut inf);
            assert_eq!(delivered.len(), 1, "{fifo:?}: only b changed");
            assert!(
                matches!(&delivered[0], Notification::Update { new, .. } if new.metadata.name() == "b")
            );
            assert_eq!(
                inf.sync_skipped(),
                1,
                "{fifo:?}: a's sync was not delivered"
            );
        }
    }

    #[test]
    fn a_listener_due_for_resync_gets_sync_notifications_until_the_next_check() {
        let mut inf = informer(FifoKind::DeltaFifo);
        inf.replace(vec![obj("a", 1)], 1);
        drain(&mut inf);
        let early = SimTime::ZERO + Duration::from_secs(60);
        assert!(!inf.should_resync(early), "not due before its period");
        let due = SimTime::ZERO + PERIOD;
        assert!(inf.should_resync(due), "due once the period has passed");
        inf.resync();
        assert_eq!(drain(&mut inf).len(), 1, "the resync's update is delivered");
        assert!(
            !inf.should_resync(due + Duration::from_secs(1)),
            "the next resync is a period later"
        );
    }

    // client-go tools/cache/synctrack/synctrack.go SingleFileTracker: the handler registration
    // has synced once the informer has and every initial-list notification was handled.
    #[test]
    fn the_handler_syncs_after_the_informer_once_it_handled_the_initial_list() {
        let mut inf = informer(FifoKind::DeltaFifo);
        inf.replace(vec![obj("a", 1), obj("b", 2)], 2);
        while inf.pop_and_process().is_some() {}
        assert!(inf.has_synced());
        assert!(!inf.handler_synced(), "two notifications still buffered");
        inf.next_notification();
        assert!(!inf.handler_synced(), "one notification still buffered");
        inf.next_notification();
        assert!(inf.handler_synced());
    }

    #[test]
    fn the_store_bytes_follow_the_cached_object_through_an_update_and_a_delete() {
        let sized = |name: &str, rv: u64, size_bytes: u64| {
            let mut o = Object::new("MyCRD", "default", name);
            o.metadata.resource_version = rv;
            o.size_bytes = size_bytes;
            ObjectRef::new(o)
        };
        let mut inf = informer(FifoKind::DeltaFifo);
        inf.replace(vec![sized("a", 1, 1000), sized("b", 2, 500)], 2);
        drain(&mut inf);
        assert_eq!(inf.store_bytes(), 1500);
        inf.apply(StoreEvent::Modified(sized("a", 3, 1200)));
        inf.apply(StoreEvent::Modified(sized("a", 4, 1600)));
        assert_eq!(inf.pop_and_process(), Some((Key::from("default/a"), 2)));
        assert_eq!(inf.store_bytes(), 2100, "a grew from 1000 to 1600 bytes");
        inf.apply(StoreEvent::Deleted(sized("b", 5, 400)));
        inf.pop_and_process();
        assert_eq!(
            inf.store_bytes(),
            1600,
            "the 500 cached bytes of b are gone"
        );
    }

    // The atomic RealFIFO as the informer drives it (client-go `tools/cache/the_real_fifo.go`
    // PopBatch, `tools/cache/controller.go` processLoop with `InOrderInformersBatchProcess`).

    fn widget(name: &str, rv: u64) -> ObjectRef {
        let mut o = Object::new("Widget", "ns-0", name);
        o.metadata.resource_version = rv;
        o.size_bytes = 1000;
        ObjectRef::new(o)
    }

    fn atomic_informer() -> SimInformer {
        SimInformer::new(
            "Widget",
            FifoKind::AtomicFifo,
            Reflector::default(),
            PERIOD,
            SimTime::ZERO,
        )
    }

    #[test]
    fn an_atomic_informer_pops_a_relist_as_one_item_and_adds_every_object() {
        let mut inf = atomic_informer();
        inf.replace(vec![widget("a", 1), widget("b", 2), widget("c", 3)], 3);
        assert_eq!((inf.fifo_len(), inf.fifo_bytes()), (1, 3000));
        assert_eq!(inf.next_pop_bytes(), Some(3000));
        assert_eq!(inf.pop_and_process(), Some((Key::from("*"), 1)));
        assert!(inf.has_synced());
        assert_eq!((inf.fifo_bytes(), inf.store_bytes()), (0, 3000));
        assert_eq!(inf.listener.queued_len(), 3);
    }

    #[test]
    fn an_atomic_informer_pops_watch_events_of_distinct_keys_in_one_batch() {
        let mut inf = atomic_informer();
        inf.replace(vec![], 0);
        inf.pop_and_process();
        inf.apply(StoreEvent::Added(widget("a", 4)));
        inf.apply(StoreEvent::Added(widget("b", 5)));
        inf.apply(StoreEvent::Modified(widget("a", 6)));
        // The batch closes before the second event of `a`.
        assert_eq!(inf.pop_and_process(), Some((Key::from("ns-0/a"), 2)));
        assert_eq!(inf.pop_and_process(), Some((Key::from("ns-0/a"), 1)));
        assert_eq!(inf.pop_and_process(), None);
        assert_eq!(inf.store_bytes(), 2000);
    }
}
