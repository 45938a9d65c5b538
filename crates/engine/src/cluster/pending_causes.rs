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

use std::collections::BTreeMap;

use crate::key::Key;
use crate::sim::{CauseNote, EventId};
use crate::time::SimTime;

/// Each key's adds since it was last handed out.
#[derive(Clone, Debug, Default)]
pub struct PendingCauses {
    ready: BTreeMap<Key, Vec<EventId>>,
    delayed: BTreeMap<Key, Vec<(SimTime, EventId)>>,
}

impl PendingCauses {
    /// Event `id` added `key` now.
    pub fn add(&mut self, key: &Key, id: EventId) {
        self.ready.entry(key.clone()).or_default().push(id);
    }

    /// Event `id` added `key` for `due` (a delayed add).
    pub fn add_after(&mut self, key: &Key, id: EventId, due: SimTime) {
        self.delayed.entry(key.clone()).or_default().push((due, id));
    }

    /// The key was handed out at `now`: the adds merged into it, in the order they were made,
    /// and whether any was a delayed add that came due.
    pub fn take(&mut self, key: &Key, now: SimTime) -> (Vec<EventId>, CauseNote) {
        let mut causes = self.ready.remove(key).unwrap_or_default();
        let mut note = CauseNote::None;
        if let Some(waiting) = self.delayed.get_mut(key) {
            let before = causes.len();
            waiting.retain(|&(due, id)| {
                let came = due <= now;
                if came {
                    causes.push(id);
                }
                !came
            });
            if causes.len() > before {
                note = CauseNote::Delayed;
                causes.sort_unstable();
            }
            if waiting.is_empty() {
                self.delayed.remove(key);
            }
        }
        (causes, note)
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
        assert_eq!(causes, [EventId(5), EventId(7), EventId(9)]);
        assert_eq!(note, CauseNote::Delayed);
        let (causes, note) = p.take(&key, SimTime::from_millis(600));
        assert!(causes.is_empty());
        assert_eq!(note, CauseNote::None);
        assert_eq!(p.take(&key, SimTime::from_millis(900)).0, [EventId(8)]);
    }
}
