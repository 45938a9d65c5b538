//! The causes of each key's pending adds: what the workqueue's de-duplication forgets.
//!
//! ```text
//!  Enqueue #48 ─┐
//!  Enqueue #51 ─┼─▶ queue holds "ns/a" once ──Get──▶ Reconcile #60 (causes #48, #51, #55)
//!  Reconciled #55 (RequeueAfter 0s, due) ─┘
//! ```
//!
//! client-go's workqueue keeps a key once however often it is added (`dirty` is a set,
//! `util/workqueue/queue.go` `Add`), and a delayed add only puts the key in when its time comes
//! (`delaying_queue.go` `waitingLoop`). So a Reconcile answers to every add merged into its key
//! since the key was last handed out; this list keeps them beside the queue. A delayed add (a
//! `RequeueAfter`, or a rate-limited retry after its per-item back-off) counts from the instant
//! it comes due.
//!
//! Nothing is kept while the causal ring is off ([`PendingCauses::off`]), and a key with one
//! pending add — the common case — holds it inline, without an allocation.

use crate::key::Key;
use crate::sim::{CauseNote, EventId};
use crate::time::SimTime;
use crate::workqueue::set::ItemMap;

/// Each key's adds since it was last handed out.
#[derive(Clone, Debug)]
pub struct PendingCauses {
    on: bool,
    ready: ItemMap<Key, CauseIds>,
    delayed: ItemMap<Key, Vec<(SimTime, EventId)>>,
}

impl crate::sim::large::LargeParts for PendingCauses {
    /// The causes of ready and of delayed adds, one entry per key.
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn crate::sim::large::Large>) {
        out.push(&mut self.ready);
        out.push(&mut self.delayed);
    }
}

impl Default for PendingCauses {
    /// Keeps causes ([`PendingCauses::on`]).
    fn default() -> Self {
        PendingCauses::on()
    }
}

/// The adds of one key, oldest first: one inline, or several in a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CauseIds {
    /// One add, without an allocation.
    One(EventId),
    /// No add, or several.
    Many(Vec<EventId>),
}

impl CauseIds {
    fn push(&mut self, id: EventId) {
        match self {
            CauseIds::One(first) => *self = CauseIds::Many(vec![*first, id]),
            CauseIds::Many(ids) => ids.push(id),
        }
    }

    fn into_vec(self) -> Vec<EventId> {
        match self {
            CauseIds::One(id) => vec![id],
            CauseIds::Many(ids) => ids,
        }
    }
}

impl std::ops::Deref for CauseIds {
    type Target = [EventId];

    fn deref(&self) -> &[EventId] {
        match self {
            CauseIds::One(id) => std::slice::from_ref(id),
            CauseIds::Many(ids) => ids,
        }
    }
}

impl PendingCauses {
    /// A list that keeps every add.
    pub fn on() -> PendingCauses {
        PendingCauses {
            on: true,
            ready: ItemMap::default(),
            delayed: ItemMap::default(),
        }
    }

    /// A list that keeps nothing (the causal ring is off): every take finds no cause.
    pub fn off() -> PendingCauses {
        PendingCauses {
            on: false,
            ..PendingCauses::on()
        }
    }

    /// Makes room for `additional` more keys at once (nothing while off).
    pub fn reserve(&mut self, additional: usize) {
        if self.on {
            self.ready.reserve(additional);
        }
    }

    /// Event `id` added `key` now.
    pub fn add(&mut self, key: &Key, id: EventId) {
        if !self.on {
            return;
        }
        if let Some(ids) = self.ready.get_mut(key) {
            ids.push(id);
        } else {
            self.ready.insert(key.clone(), CauseIds::One(id));
        }
    }

    /// Event `id` added `key` for `due` (a delayed add).
    pub fn add_after(&mut self, key: &Key, id: EventId, due: SimTime) {
        if self.on {
            self.delayed.entry(key.clone()).or_default().push((due, id));
        }
    }

    /// The key was handed out at `now`: the adds merged into it, in the order they were made,
    /// and whether any was a delayed add that came due.
    pub fn take(&mut self, key: &Key, now: SimTime) -> (CauseIds, CauseNote) {
        let taken = self.ready.remove(key).unwrap_or(CauseIds::Many(Vec::new()));
        let Some(waiting) = self.delayed.get_mut(key) else {
            return (taken, CauseNote::None);
        };
        let mut causes = taken.into_vec();
        let before = causes.len();
        waiting.retain(|&(due, id)| {
            let came = due <= now;
            if came {
                causes.push(id);
            }
            !came
        });
        if waiting.is_empty() {
            self.delayed.remove(key);
        }
        let mut note = CauseNote::None;
        if causes.len() > before {
            note = CauseNote::Delayed;
            causes.sort_unstable();
        }
        (CauseIds::Many(causes), note)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_get_takes_every_add_merged_since_the_last_get_and_only_due_delayed_ones() {
        let mut p = PendingCauses::default();
        let key = Key::from("ns/a");
        p.add(&key, EventId(5));
        p.add(&key, EventId(9));
        p.add_after(&key, EventId(7), SimTime::from_millis(100));
        p.add_after(&key, EventId(8), SimTime::from_millis(900));
        let (causes, note) = p.take(&key, SimTime::from_millis(500));
        assert_eq!(*causes, [EventId(5), EventId(7), EventId(9)]);
        assert_eq!(note, CauseNote::Delayed);
        let (causes, note) = p.take(&key, SimTime::from_millis(600));
        assert!(causes.is_empty());
        assert_eq!(note, CauseNote::None);
        assert_eq!(*p.take(&key, SimTime::from_millis(900)).0, [EventId(8)]);
    }

    #[test]
    fn one_pending_add_is_held_inline() {
        let mut p = PendingCauses::default();
        let key = Key::from("ns/a");
        p.add(&key, EventId(3));
        let (causes, note) = p.take(&key, SimTime::from_millis(1));
        assert_eq!(causes, CauseIds::One(EventId(3)));
        assert_eq!(note, CauseNote::None);
    }

    #[test]
    fn a_list_that_is_off_finds_no_cause_for_any_add() {
        let mut p = PendingCauses::off();
        let key = Key::from("ns/a");
        p.add(&key, EventId(5));
        p.add_after(&key, EventId(7), SimTime::from_millis(100));
        let (causes, note) = p.take(&key, SimTime::from_millis(500));
        assert!(causes.is_empty());
        assert_eq!(note, CauseNote::None);
    }
}
