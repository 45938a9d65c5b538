//! Where the cluster finds an event's causes as it traces it, following the code path.
//!
//! ```text
//!  Reconcile ─(Pending.cause)─▶ write rv=42 ─(rv)─▶ watch MODIFIED rv=42 ─(rv of its delta)─▶ Pop
//!      ▲                                                                                    │
//!      └── pending causes of the key (workqueue) ◀── Enqueue ◀── notification (its Pop) ◀──┘
//! ```
//!
//! A write's watch event is found by its resourceVersion (every committed write has its own),
//! a Pop's watch events by the resourceVersions of the deltas it handed to the handler, a
//! notification's Pop by the order of the handler's buffer, and a Reconcile's adds by the
//! queue's entry for its key, which holds them until the key is handed out
//! ([`super::workqueue::WorkQueue::get`]; delayed adds from
//! [`super::workqueue::WorkQueue::take_causes`]).

use super::version_log::VersionLog;
use crate::sim::{CauseNote, EventId};

/// Most writes and watch events remembered by resourceVersion (the oldest are forgotten first).
pub const MAX_TRACKED_VERSIONS: usize = super::MAX_TRACKED_OWN_WRITES;

/// The cluster's memory of which event produced each resourceVersion.
#[derive(Clone, Debug, Default)]
pub struct CauseTracker {
    /// Writes a Reconcile issued whose version no handler has seen yet: the own writes.
    own_writes: VersionLog,
    /// Writes by anyone else (a user, the kubelet, the garbage collector).
    other_writes: VersionLog,
    /// The watch event that delivered each version to the current operator.
    watch_events: VersionLog,
    /// The LIST whose items the informer queued last (a relist).
    list: Option<EventId>,
    /// The `Created` event of the scenario's objects and the revision it left the store at.
    created: Option<(u64, EventId)>,
    /// The causes of the pop being traced ([`CauseTracker::pop_causes`]), kept for its room.
    pop_scratch: Vec<EventId>,
}

/// A version's remembered writes, bounded: the oldest are forgotten first.
fn remember(map: &mut VersionLog, rv: u64, id: EventId) {
    map.insert(rv, id);
    if map.len() > MAX_TRACKED_VERSIONS {
        map.remove_first();
    }
}

impl CauseTracker {
    /// A write committed at `rv`, traced as `id`; `own` when a Reconcile issued it.
    pub fn write_done(&mut self, rv: u64, id: EventId, own: bool) {
        if own {
            remember(&mut self.own_writes, rv, id);
        } else {
            remember(&mut self.other_writes, rv, id);
        }
    }

    /// A removal or deletion mark committed at `rv` by the event `id` (a DELETE, a write taking
    /// the last finalizer off, the namespace controller): the cause of its watch event, never
    /// counted as an own write (the handler's `own_write` follows the writes that return the
    /// object).
    pub fn delete_done(&mut self, rv: u64, id: EventId) {
        remember(&mut self.other_writes, rv, id);
    }

    /// The scenario's objects were created up to revision `rv` (the `Created` event `id`).
    pub fn objects_created(&mut self, rv: u64, id: EventId) {
        self.created = Some((rv, id));
    }

    /// The event that wrote version `rv`: a traced write, or the creation of the scenario's
    /// objects for a version it left.
    pub fn write_of(&self, rv: u64) -> Option<EventId> {
        let written = self
            .own_writes
            .get(rv)
            .or_else(|| self.other_writes.get(rv));
        written.or_else(|| self.created.filter(|(at, _)| rv <= *at).map(|(_, id)| id))
    }

    /// Watch event `id` delivered version `rv` to the operator.
    pub fn watch_event(&mut self, rv: u64, id: EventId) {
        remember(&mut self.watch_events, rv, id);
    }

    /// The reflector's LIST `id` is being queued into the informer (a relist).
    pub fn listed(&mut self, id: EventId) {
        self.list = Some(id);
    }

    /// A new operator starts: the old one's watch events are gone with it.
    pub fn operator_started(&mut self) {
        self.watch_events.clear();
        self.list = None;
    }

    /// The causes of a Pop whose deltas reached the handler as notifications of these
    /// `(resourceVersion, is sync)`: the watch events that delivered them, else the relist's
    /// LIST; a sync has no event as its cause. Oldest first, each once.
    pub fn pop_causes(&mut self, popped: &[(u64, bool)]) -> (&[EventId], CauseNote) {
        let causes = &mut self.pop_scratch;
        causes.clear();
        let mut note = CauseNote::None;
        for &(rv, sync) in popped {
            let cause = match (sync, self.watch_events.get(rv)) {
                (true, _) => {
                    note = CauseNote::Sync;
                    None
                }
                (false, Some(id)) => Some(id),
                (false, None) => {
                    note = CauseNote::Relist;
                    self.list
                }
            };
            causes.extend(cause);
        }
        // nearly always in order already (versions arrive in order): an insertion sort's pass
        crate::small_sort::sort_few(causes);
        causes.dedup();
        (causes, note)
    }

    /// The handler sees version `rv`: whether a Reconcile wrote it, each own write counted once
    /// (the flywheel's closing link: the operator's own write comes back as an event).
    pub fn take_own_write(&mut self, rv: u64) -> bool {
        self.own_writes.remove(rv).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pop_is_caused_by_the_watch_events_of_its_versions_or_else_by_the_relist() {
        let mut t = CauseTracker::default();
        t.watch_event(42, EventId(7));
        t.listed(EventId(3));
        let (causes, note) = t.pop_causes(&[(42, false)]);
        assert_eq!((causes, note), (&[EventId(7)][..], CauseNote::None));
        let (causes, note) = t.pop_causes(&[(43, false), (42, false)]);
        assert_eq!(
            (causes, note),
            (&[EventId(3), EventId(7)][..], CauseNote::Relist)
        );
        let (causes, _) = t.pop_causes(&[(42, false), (42, false)]);
        assert_eq!(causes, [EventId(7)]);
        let (causes, note) = t.pop_causes(&[(42, true)]);
        assert_eq!((causes, note), (&[][..], CauseNote::Sync));
    }

    #[test]
    fn an_own_write_is_counted_once_and_other_writes_never() {
        let mut t = CauseTracker::default();
        t.write_done(10, EventId(1), true);
        t.write_done(11, EventId(2), false);
        assert_eq!(t.write_of(10), Some(EventId(1)));
        assert_eq!(t.write_of(11), Some(EventId(2)));
        assert!(t.take_own_write(10));
        assert!(!t.take_own_write(10));
        assert!(!t.take_own_write(11));
    }

    #[test]
    fn a_delete_is_the_write_of_its_version_but_never_an_own_write() {
        let mut t = CauseTracker::default();
        t.delete_done(12, EventId(4));
        assert_eq!(t.write_of(12), Some(EventId(4)));
        assert!(!t.take_own_write(12));
    }

    #[test]
    fn a_version_the_creation_left_is_written_by_the_created_event() {
        let mut t = CauseTracker::default();
        t.objects_created(50, EventId(9));
        assert_eq!(t.write_of(12), Some(EventId(9)));
        assert_eq!(t.write_of(51), None);
    }
}
