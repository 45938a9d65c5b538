//! The adds merged into one queued item: what the queue's de-duplication would otherwise forget.
//!
//! client-go's queue keeps an item once however often it is added (`dirty` is a set,
//! `util/workqueue/queue.go` `Add`). The simulation keeps, with each dirty item, the ids of the
//! events whose adds merged into it since it was last handed out, so a Reconcile can name every
//! add it answers. Not part of upstream's queue: it changes nothing the queue does.

use std::rc::Rc;

use crate::sim::EventId;

/// The adds of one item, oldest first: none, one inline, or several in a list. Two words, so
/// that the workqueue's entry of a queued item, which holds it, stays small: the queue keeps one
/// per queued item, 150 000 at the incident's scale. The list is shared by its copies (the
/// queue's `get` copies the entry it hands out, and a checkpoint copies the dirty set) and
/// copied on a push only while a copy holds it.
#[derive(Clone, Debug, Default)]
pub enum CauseIds {
    /// No add.
    #[default]
    None,
    /// One add, without an allocation.
    One(EventId),
    /// Several adds.
    Many(Rc<Vec<EventId>>),
}

impl CauseIds {
    /// The adds of an item whose first add was `cause` (`None`: an add without a known cause).
    pub fn first(cause: Option<EventId>) -> CauseIds {
        cause.map_or(CauseIds::None, CauseIds::One)
    }

    /// One more add, after the others.
    pub fn push(&mut self, id: EventId) {
        match self {
            CauseIds::None => *self = CauseIds::One(id),
            CauseIds::One(first) => *self = CauseIds::Many(Rc::new(vec![*first, id])),
            CauseIds::Many(ids) => crate::sim::cow::make_mut(ids).push(id),
        }
    }

    /// The adds as a list.
    pub fn into_vec(self) -> Vec<EventId> {
        match self {
            CauseIds::None => Vec::new(),
            CauseIds::One(id) => vec![id],
            CauseIds::Many(ids) => Rc::unwrap_or_clone(ids),
        }
    }
}

impl From<Vec<EventId>> for CauseIds {
    /// These adds, oldest first.
    fn from(ids: Vec<EventId>) -> CauseIds {
        match ids.as_slice() {
            [] => CauseIds::None,
            [id] => CauseIds::One(*id),
            _ => CauseIds::Many(Rc::new(ids)),
        }
    }
}

impl PartialEq for CauseIds {
    /// The same adds in the same order, however they are held.
    fn eq(&self, other: &CauseIds) -> bool {
        **self == **other
    }
}

impl Eq for CauseIds {}

impl std::ops::Deref for CauseIds {
    type Target = [EventId];

    fn deref(&self) -> &[EventId] {
        match self {
            CauseIds::None => &[],
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
        let mut none = CauseIds::first(None);
        none.push(EventId(4));
        assert_eq!(none, CauseIds::One(EventId(4)));
        assert_eq!(CauseIds::from(vec![EventId(4)]), none);
        assert_eq!(CauseIds::from(Vec::new()), CauseIds::None);
        assert_eq!(std::mem::size_of::<CauseIds>(), 16, "two words");
    }

    #[test]
    fn a_copy_shares_the_list_and_a_push_to_either_leaves_the_other_as_it_was() {
        let mut ids = CauseIds::from(vec![EventId(1), EventId(2)]);
        let copy = ids.clone();
        ids.push(EventId(3));
        assert_eq!(*ids, [EventId(1), EventId(2), EventId(3)]);
        assert_eq!(*copy, [EventId(1), EventId(2)], "the copy keeps its adds");
        let mut second = copy.clone();
        second.push(EventId(9));
        assert_eq!(*copy, [EventId(1), EventId(2)]);
        assert_eq!(second.into_vec(), [EventId(1), EventId(2), EventId(9)]);
        assert_eq!(
            copy.into_vec(),
            [EventId(1), EventId(2)],
            "the last holder's list itself"
        );
    }
}
