//! [`Lifecycle`]: the metadata few objects carry — finalizers, a deletion under way, owners —
//! behind one box.
//!
//! Most objects of a run have no finalizer, no owner and no deletion under way, yet every
//! object and every version an update keeps carried the four fields inline: 80 bytes, more than
//! a cache line, copied with every version and read by every drop. Behind one box they cost one
//! word when absent, and an object that has any of them pays one allocation more. They read and
//! change through [`ObjectMeta`](super::ObjectMeta)'s accessors, named as apimachinery's
//! `metav1.Object` names them (`GetFinalizers`, `SetDeletionTimestamp`, …); an absent box reads as
//! Go's zero values (no finalizers, nil timestamps, no owners), so two objects compare equal
//! whether an empty set of these fields is boxed or not.

use crate::time::SimTime;

use super::OwnerReference;

/// The rarely set part of an object's metadata (see the module's documentation).
#[derive(Clone, Default)]
pub(crate) struct Lifecycle(Option<Box<Fields>>);

// One word, natively and in wasm32: the point of the box.
const _: () = assert!(std::mem::size_of::<Lifecycle>() == std::mem::size_of::<usize>());

#[derive(Clone, Default)]
struct Fields {
    finalizers: Vec<String>,
    deletion_timestamp: Option<SimTime>,
    deletion_grace_period_s: Option<i64>,
    owner_references: Vec<OwnerReference>,
}

impl Lifecycle {
    /// The four fields given (boxed only when one of them is set).
    pub(crate) fn of(
        finalizers: Vec<String>,
        deletion_timestamp: Option<SimTime>,
        deletion_grace_period_s: Option<i64>,
        owner_references: Vec<OwnerReference>,
    ) -> Lifecycle {
        let fields = Fields {
            finalizers,
            deletion_timestamp,
            deletion_grace_period_s,
            owner_references,
        };
        let empty = fields.finalizers.is_empty()
            && fields.deletion_timestamp.is_none()
            && fields.deletion_grace_period_s.is_none()
            && fields.owner_references.is_empty();
        Lifecycle((!empty).then(|| Box::new(fields)))
    }

    /// Finalizers, in order.
    pub fn finalizers(&self) -> &[String] {
        self.0.as_deref().map_or(&[], |f| &f.finalizers)
    }

    /// Sets the finalizers (an empty list on absent fields allocates nothing).
    pub fn set_finalizers(&mut self, finalizers: Vec<String>) {
        if !finalizers.is_empty() || self.0.is_some() {
            self.fields_mut().finalizers = finalizers;
        }
    }

    /// The finalizers to change in place (boxing the fields if they were absent).
    pub fn finalizers_mut(&mut self) -> &mut Vec<String> {
        &mut self.fields_mut().finalizers
    }

    /// `deletionTimestamp`.
    pub fn deletion_timestamp(&self) -> Option<SimTime> {
        self.0.as_deref().and_then(|f| f.deletion_timestamp)
    }

    /// Sets `deletionTimestamp` (clearing an absent one allocates nothing).
    pub fn set_deletion_timestamp(&mut self, at: Option<SimTime>) {
        if at.is_some() || self.0.is_some() {
            self.fields_mut().deletion_timestamp = at;
        }
    }

    /// `deletionGracePeriodSeconds`.
    pub fn deletion_grace_period_s(&self) -> Option<i64> {
        self.0.as_deref().and_then(|f| f.deletion_grace_period_s)
    }

    /// Sets `deletionGracePeriodSeconds` (clearing an absent one allocates nothing).
    pub fn set_deletion_grace_period_s(&mut self, period_s: Option<i64>) {
        if period_s.is_some() || self.0.is_some() {
            self.fields_mut().deletion_grace_period_s = period_s;
        }
    }

    /// Owners.
    pub fn owner_references(&self) -> &[OwnerReference] {
        self.0.as_deref().map_or(&[], |f| &f.owner_references)
    }

    /// Sets the owners (an empty list on absent fields allocates nothing).
    pub fn set_owner_references(&mut self, owners: Vec<OwnerReference>) {
        if !owners.is_empty() || self.0.is_some() {
            self.fields_mut().owner_references = owners;
        }
    }

    fn fields_mut(&mut self) -> &mut Fields {
        self.0.get_or_insert_with(Box::default)
    }
}

impl PartialEq for Lifecycle {
    /// Equal fields, an absent box reading as the zero values.
    fn eq(&self, other: &Lifecycle) -> bool {
        self.finalizers() == other.finalizers()
            && self.deletion_timestamp() == other.deletion_timestamp()
            && self.deletion_grace_period_s() == other.deletion_grace_period_s()
            && self.owner_references() == other.owner_references()
    }
}

impl Eq for Lifecycle {}

#[cfg(test)]
mod tests {
    use super::*;

    fn owner() -> OwnerReference {
        OwnerReference {
            kind: "ReplicaSet".into(),
            name: "web".into(),
            uid: "u-1".into(),
            controller: true,
        }
    }

    #[test]
    fn absent_fields_read_as_go_zero_values_and_clearing_them_allocates_nothing() {
        let mut l = Lifecycle::default();
        assert!(l.finalizers().is_empty() && l.owner_references().is_empty());
        assert_eq!(
            (l.deletion_timestamp(), l.deletion_grace_period_s()),
            (None, None)
        );
        l.set_deletion_timestamp(None);
        l.set_deletion_grace_period_s(None);
        l.set_owner_references(Vec::new());
        l.set_finalizers(Vec::new());
        assert!(l.0.is_none(), "nothing was set, nothing is boxed");
        assert!(Lifecycle::of(Vec::new(), None, None, Vec::new())
            .0
            .is_none());
    }

    #[test]
    fn each_field_reads_back_what_was_set() {
        let mut l = Lifecycle::default();
        l.finalizers_mut().push("example.com/cleanup".into());
        l.set_deletion_timestamp(Some(SimTime::from_millis(5)));
        l.set_deletion_grace_period_s(Some(0));
        l.set_owner_references(vec![owner()]);
        assert_eq!(l.finalizers(), ["example.com/cleanup".to_owned()]);
        assert_eq!(l.deletion_timestamp(), Some(SimTime::from_millis(5)));
        assert_eq!(l.deletion_grace_period_s(), Some(0));
        assert_eq!(l.owner_references(), [owner()]);
        let built = Lifecycle::of(
            vec!["example.com/cleanup".into()],
            Some(SimTime::from_millis(5)),
            Some(0),
            vec![owner()],
        );
        assert!(built == l);
    }

    #[test]
    fn emptied_fields_equal_absent_ones_and_a_difference_in_any_field_is_seen() {
        let mut emptied = Lifecycle::default();
        emptied.finalizers_mut().push("f".into());
        emptied.finalizers_mut().clear();
        assert!(emptied.0.is_some());
        assert!(emptied == Lifecycle::default());
        let mut timestamped = Lifecycle::default();
        timestamped.set_deletion_timestamp(Some(SimTime::ZERO));
        assert!(timestamped != Lifecycle::default());
        let mut graced = Lifecycle::default();
        graced.set_deletion_grace_period_s(Some(0));
        assert!(graced != Lifecycle::default() && graced != timestamped);
        let mut owned = Lifecycle::default();
        owned.set_owner_references(vec![owner()]);
        assert!(owned != Lifecycle::default());
    }
}
