//! The causes of each key's pending delayed adds: what the workqueue's de-duplication forgets.
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
//! since the key was last handed out. The queue keeps the causes of the adds made now with the
//! key's own entry ([`CauseIds`]); this list keeps those of delayed adds (a `RequeueAfter`, or a
//! rate-limited retry after its per-item back-off), each counted from the instant it comes due.
//!
//! Nothing is kept while the causal ring is off ([`PendingCauses::off`]).

use crate::key::Key;
use crate::sim::{CauseNote, EventId};
use crate::time::SimTime;
use crate::workqueue::set::ItemMap;
use crate::workqueue::CauseIds;

/// Each key's delayed adds not yet taken.
#[derive(Clone, Debug)]
pub struct PendingCauses {
    on: bool,
    delayed: ItemMap<Key, Vec<(SimTime, EventId)>>,
}

impl crate::sim::large::LargeParts for PendingCauses {
    /// The causes of delayed adds, one entry per key.
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn crate::sim::large::Large>) {
        out.push(&mut self.delayed);
    }
}

impl Default for PendingCauses {
    /// Keeps causes ([`PendingCauses::on`]).
    fn default() -> Self {
        PendingCauses::on()
    }
}

impl PendingCauses {
    /// A list that keeps every add.
    pub fn on() -> PendingCauses {
        PendingCauses {
            on: true,
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

    /// Whether causes are kept.
    pub fn is_on(&self) -> bool {
        self.on
    }

    /// Event `id` added `key` for `due` (a delayed add).
    pub fn add_after(&mut self, key: &Key, id: EventId, due: SimTime) {
        if self.on {
            self.delayed.entry(key.clone()).or_default().push((due, id));
        }
    }

    /// The key was handed out at `now` with the causes `taken` of the adds the queue merged into
    /// it: those with the delayed adds that came due, in the order they were made, and whether
    /// any was a delayed add.
    pub fn take(&mut self, key: &Key, now: SimTime, taken: CauseIds) -> (CauseIds, CauseNote) {
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
            // two runs in order (the merged adds, the delayed ones): an insertion sort suffices
            crate::small_sort::sort_few(&mut causes);
        }
        (CauseIds::from(causes), note)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_take_adds_only_the_delayed_adds_that_came_due_in_the_order_they_were_made() {
        let mut p = PendingCauses::default();
        let key = Key::from("ns/a");
        let ready = CauseIds::from(vec![EventId(5), EventId(9)]);
        p.add_after(&key, EventId(7), SimTime::from_millis(100));
        p.add_after(&key, EventId(8), SimTime::from_millis(900));
        let (causes, note) = p.take(&key, SimTime::from_millis(500), ready);
        assert_eq!(*causes, [EventId(5), EventId(7), EventId(9)]);
        assert_eq!(note, CauseNote::Delayed);
        let (causes, note) = p.take(&key, SimTime::from_millis(600), CauseIds::default());
        assert!(causes.is_empty());
        assert_eq!(note, CauseNote::None);
        let (causes, _) = p.take(&key, SimTime::from_millis(900), CauseIds::default());
        assert_eq!(*causes, [EventId(8)]);
    }

    #[test]
    fn a_take_without_delayed_adds_hands_back_the_queue_s_causes_as_they_were() {
        let mut p = PendingCauses::default();
        let key = Key::from("ns/a");
        let (causes, note) = p.take(&key, SimTime::from_millis(1), CauseIds::One(EventId(3)));
        assert_eq!(causes, CauseIds::One(EventId(3)));
        assert_eq!(note, CauseNote::None);
    }

    #[test]
    fn a_list_that_is_off_keeps_no_delayed_add() {
        let mut p = PendingCauses::off();
        let key = Key::from("ns/a");
        p.add_after(&key, EventId(7), SimTime::from_millis(100));
        let (causes, note) = p.take(&key, SimTime::from_millis(500), CauseIds::default());
        assert!(causes.is_empty());
        assert_eq!(note, CauseNote::None);
    }
}
