//! [`Deltas`], the accumulator of one DeltaFIFO key (client-go `tools/cache/delta_fifo.go`
//! `type Deltas []Delta`), oldest first.
//!
//! Almost every queued key holds a single delta between two pops, so the first one is kept inline
//! and a buffer is allocated only when a second one arrives.

use std::ops::Deref;
use std::{iter, option, slice, vec};

use crate::informer::delta::{dedup_deltas, Delta};

/// The deltas of one key, oldest first: one inline, or more in a buffer.
#[derive(Clone, Debug, PartialEq)]
pub enum Deltas {
    /// A single delta, held without a buffer.
    One(Delta),
    /// Any number of deltas (a key that accumulated more than one since it was queued).
    Many(Vec<Delta>),
}

impl Deltas {
    /// The deltas of a freshly queued key.
    pub fn one(delta: Delta) -> Deltas {
        Deltas::One(delta)
    }

    /// The deltas as a slice, oldest first.
    pub fn as_slice(&self) -> &[Delta] {
        match self {
            Deltas::One(delta) => slice::from_ref(delta),
            Deltas::Many(deltas) => deltas,
        }
    }

    /// Appends `delta` and collapses two trailing deletions into one (client-go
    /// `tools/cache/delta_fifo.go` `queueActionInternalLocked`: `append`, then `dedupDeltas`).
    pub fn push_deduped(&mut self, delta: Delta) {
        let mut deltas = match std::mem::replace(self, Deltas::Many(Vec::new())) {
            Deltas::One(first) => {
                let mut deltas = Vec::with_capacity(2);
                deltas.push(first);
                deltas
            }
            Deltas::Many(deltas) => deltas,
        };
        deltas.push(delta);
        dedup_deltas(&mut deltas);
        *self = Deltas::Many(deltas);
    }

    /// The deltas in a vector, oldest first.
    pub fn into_vec(self) -> Vec<Delta> {
        match self {
            Deltas::One(delta) => vec![delta],
            Deltas::Many(deltas) => deltas,
        }
    }
}

impl Deref for Deltas {
    type Target = [Delta];

    /// [`Deltas::as_slice`].
    fn deref(&self) -> &[Delta] {
        self.as_slice()
    }
}

impl PartialEq<Vec<Delta>> for Deltas {
    /// Equal when the same deltas are held in the same order.
    fn eq(&self, other: &Vec<Delta>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl IntoIterator for Deltas {
    type Item = Delta;
    type IntoIter = iter::Chain<option::IntoIter<Delta>, vec::IntoIter<Delta>>;

    /// The deltas by value, oldest first.
    fn into_iter(self) -> Self::IntoIter {
        match self {
            Deltas::One(delta) => Some(delta).into_iter().chain(Vec::new()),
            Deltas::Many(deltas) => None.into_iter().chain(deltas),
        }
    }
}

impl<'a> IntoIterator for &'a Deltas {
    type Item = &'a Delta;
    type IntoIter = slice::Iter<'a, Delta>;

    /// The deltas by reference, oldest first.
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::informer::delta::{DeletedFinalStateUnknown, DeltaObject, DeltaType};
    use crate::key::Key;
    use crate::object::{Object, ObjectRef};

    fn delta(delta_type: DeltaType, rv: u64) -> Delta {
        let mut obj = Object::new("Pod", "default", "a");
        obj.metadata.resource_version = rv;
        Delta::new(delta_type, ObjectRef::new(obj))
    }

    fn rvs(deltas: &Deltas) -> Vec<u64> {
        deltas.iter().map(|d| d.object.resource_version()).collect()
    }

    #[test]
    fn one_delta_is_held_inline_and_a_second_moves_both_into_a_buffer_in_order() {
        let mut deltas = Deltas::one(delta(DeltaType::Added, 1));
        assert!(matches!(deltas, Deltas::One(_)));
        assert_eq!(rvs(&deltas), [1]);
        deltas.push_deduped(delta(DeltaType::Updated, 2));
        deltas.push_deduped(delta(DeltaType::Updated, 3));
        assert!(matches!(deltas, Deltas::Many(_)));
        assert_eq!(rvs(&deltas), [1, 2, 3]);
        let by_value: Vec<u64> = deltas
            .clone()
            .into_iter()
            .map(|d| d.object.resource_version())
            .collect();
        assert_eq!(by_value, [1, 2, 3]);
        assert_eq!(deltas.clone().into_vec().len(), 3);
        assert_eq!(deltas, deltas.as_slice().to_vec());
    }

    #[test]
    fn a_tombstone_after_an_inline_deletion_collapses_into_it() {
        let mut deltas = Deltas::one(delta(DeltaType::Deleted, 4));
        let stone = DeletedFinalStateUnknown {
            key: Key::from("default/a"),
            obj: None,
        };
        deltas.push_deduped(Delta::new(
            DeltaType::Deleted,
            DeltaObject::Tombstone(stone),
        ));
        assert_eq!(deltas, vec![delta(DeltaType::Deleted, 4)]);
        let by_value: Vec<Delta> = deltas.into_iter().collect();
        assert_eq!(by_value, [delta(DeltaType::Deleted, 4)]);
    }
}
