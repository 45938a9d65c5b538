//! The adds merged into one queued item: what the queue's de-duplication would otherwise forget.
//!
//! client-go's queue keeps an item once however often it is added (`dirty` is a set,
//! `util/workqueue/queue.go` `Add`). The simulation keeps, beside each item's entry, the ids of
//! the events whose adds merged into it since it was last handed out, so a Reconcile can name
//! every add it answers. Not part of upstream's queue: it changes nothing the queue does, and
//! the entry it lives in is the one the add looks up anyway.

use crate::sim::EventId;

/// The adds of one item, oldest first: one inline, or several in a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CauseIds {
    /// One add, without an allocation.
    One(EventId),
    /// No add, or several.
    Many(Vec<EventId>),
}

impl Default for CauseIds {
    /// No add.
    fn default() -> CauseIds {
        CauseIds::Many(Vec::new())
    }
}

impl CauseIds {
    /// The adds of an item whose first add was `cause` (`None`: an add without a known cause).
    pub fn first(cause: Option<EventId>) -> CauseIds {
        cause.map_or_else(CauseIds::default, CauseIds::One)
    }

    /// One more add, after the others.
    pub fn push(&mut self, id: EventId) {
        match self {
            CauseIds::One(first) => *self = CauseIds::Many(vec![*first, id]),
            CauseIds::Many(ids) => ids.push(id),
        }
    }

    /// The adds as a list.
    pub fn into_vec(self) -> Vec<EventId> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_add_is_held_inline_and_a_second_turns_it_into_a_list_in_order() {
        let mut ids = CauseIds::first(Some(EventId(3)));
        assert_eq!(ids, CauseIds::One(EventId(3)));
        ids.push(EventId(8));
        assert_eq!(*ids, [EventId(3), EventId(8)]);
        assert!(CauseIds::first(None).is_empty());
    }
}
