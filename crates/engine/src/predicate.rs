//! controller-runtime predicates (`pkg/predicate/predicate.go`): filters that decide, per event,
//! whether a watch event is turned into a reconcile request.
//!
//! ```text
//!  informer handler ─▶ Event::{Create, Update, Delete, Generic} ─▶ Predicate::admits ─▶ enqueue?
//! ```
//!
//! Upstream events carry possibly-nil objects; here an update's objects are `Option`s and the
//! change predicates answer `false` when either is missing (upstream also logs an error).
//!
//! Label/annotation comparison changed across versions: through v0.17.x upstream compared with
//! `reflect.DeepEqual` (a nil map differs from an empty one); from v0.18.0 (commit a4a01640,
//! "Compare labels and annotations using maps.Equal") it uses `maps.Equal` (nil equals empty). The
//! reference file says "since v0.19.0 / ≤ v0.15"; the tags say v0.18.0 / ≤ v0.17.x, and the code
//! wins. [`MapEquality`] selects the behaviour; the default is the current one.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::object::{Object, ObjectRef, StringMap};
use crate::vec_map::VecMap;

/// A create event (`event.TypedCreateEvent`).
#[derive(Clone, Debug, PartialEq)]
pub struct CreateEvent {
    /// The created object.
    pub object: ObjectRef,
}

/// An update event (`event.TypedUpdateEvent`); either object may be missing (Go nil).
#[derive(Clone, Debug, PartialEq)]
pub struct UpdateEvent {
    /// The object before the update.
    pub object_old: Option<ObjectRef>,
    /// The object after the update.
    pub object_new: Option<ObjectRef>,
}

/// A delete event (`event.TypedDeleteEvent`).
#[derive(Clone, Debug, PartialEq)]
pub struct DeleteEvent {
    /// The deleted object (its last known state).
    pub object: ObjectRef,
    /// True when the delete was observed through a relist tombstone (`DeletedFinalStateUnknown`),
    /// so the final state may be stale.
    pub delete_state_unknown: bool,
}

/// A generic event (`event.TypedGenericEvent`): an external trigger, e.g. a channel source.
#[derive(Clone, Debug, PartialEq)]
pub struct GenericEvent {
    /// The object the trigger names.
    pub object: ObjectRef,
}

/// Any of the four events.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// An object was created (or first seen).
    Create(CreateEvent),
    /// An object changed (or was resynced: same resourceVersion on both sides).
    Update(UpdateEvent),
    /// An object was deleted.
    Delete(DeleteEvent),
    /// An external trigger.
    Generic(GenericEvent),
}

/// Filters events before their keys are enqueued (`pkg/predicate/predicate.go` `TypedPredicate`).
pub trait Predicate {
    /// Whether a create event should be processed.
    fn create(&self, e: &CreateEvent) -> bool;
    /// Whether an update event should be processed.
    fn update(&self, e: &UpdateEvent) -> bool;
    /// Whether a delete event should be processed.
    fn delete(&self, e: &DeleteEvent) -> bool;
    /// Whether a generic event should be processed.
    fn generic(&self, e: &GenericEvent) -> bool;

    /// Dispatches `event` to the matching method (what the event handler does per event type).
    fn admits(&self, event: &Event) -> bool {
        match event {
            Event::Create(e) => self.create(e),
            Event::Update(e) => self.update(e),
            Event::Delete(e) => self.delete(e),
            Event::Generic(e) => self.generic(e),
        }
    }
}

impl<P: Predicate + ?Sized> Predicate for Box<P> {
    fn create(&self, e: &CreateEvent) -> bool {
        (**self).create(e)
    }
    fn update(&self, e: &UpdateEvent) -> bool {
        (**self).update(e)
    }
    fn delete(&self, e: &DeleteEvent) -> bool {
        (**self).delete(e)
    }
    fn generic(&self, e: &GenericEvent) -> bool {
        (**self).generic(e)
    }
}

/// A filter closure over one event type.
pub type EventFn<E> = Box<dyn Fn(&E) -> bool>;

/// Optional closures, one per event type (`predicate.Funcs`); a missing closure admits everything.
#[derive(Default)]
pub struct Funcs {
    /// `CreateFunc`.
    pub create: Option<EventFn<CreateEvent>>,
    /// `UpdateFunc`.
    pub update: Option<EventFn<UpdateEvent>>,
    /// `DeleteFunc`.
    pub delete: Option<EventFn<DeleteEvent>>,
    /// `GenericFunc`.
    pub generic: Option<EventFn<GenericEvent>>,
}

impl fmt::Debug for Funcs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Funcs")
            .field("create", &self.create.is_some())
            .field("update", &self.update.is_some())
            .field("delete", &self.delete.is_some())
            .field("generic", &self.generic.is_some())
            .finish()
    }
}

impl Funcs {
    /// Funcs with no closures: admits every event.
    pub fn new() -> Funcs {
        Funcs::default()
    }

    /// Sets the create closure.
    pub fn with_create(mut self, f: impl Fn(&CreateEvent) -> bool + 'static) -> Funcs {
        self.create = Some(Box::new(f));
        self
    }

    /// Sets the update closure.
    pub fn with_update(mut self, f: impl Fn(&UpdateEvent) -> bool + 'static) -> Funcs {
        self.update = Some(Box::new(f));
        self
    }

    /// Sets the delete closure.
    pub fn with_delete(mut self, f: impl Fn(&DeleteEvent) -> bool + 'static) -> Funcs {
        self.delete = Some(Box::new(f));
        self
    }

    /// Sets the generic closure.
    pub fn with_generic(mut self, f: impl Fn(&GenericEvent) -> bool + 'static) -> Funcs {
        self.generic = Some(Box::new(f));
        self
    }

    /// `NewPredicateFuncs`: applies `filter` to the object of create, delete and generic events and
    /// to the new object of update events. An update without a new object is rejected (upstream
    /// would call the filter with nil).
    pub fn from_filter(filter: impl Fn(&Object) -> bool + 'static) -> Funcs {
        let filter: Arc<dyn Fn(&Object) -> bool> = Arc::new(filter);
        let (c, u, d) = (filter.clone(), filter.clone(), filter.clone());
        Funcs::new()
            .with_create(move |e| c(&e.object))
            .with_update(move |e| e.object_new.as_deref().is_some_and(|o| u(o)))
            .with_delete(move |e| d(&e.object))
            .with_generic(move |e| filter(&e.object))
    }
}

impl Predicate for Funcs {
    fn create(&self, e: &CreateEvent) -> bool {
        self.create.as_ref().is_none_or(|f| f(e))
    }
    fn update(&self, e: &UpdateEvent) -> bool {
        self.update.as_ref().is_none_or(|f| f(e))
    }
    fn delete(&self, e: &DeleteEvent) -> bool {
        self.delete.as_ref().is_none_or(|f| f(e))
    }
    fn generic(&self, e: &GenericEvent) -> bool {
        self.generic.as_ref().is_none_or(|f| f(e))
    }
}

/// Both objects of an update, or `None` when either is missing (the `isNil` checks; upstream logs
/// "Update event has no old/new object" and answers false).
fn both(e: &UpdateEvent) -> Option<(&Object, &Object)> {
    Some((e.object_old.as_deref()?, e.object_new.as_deref()?))
}

/// Implements the create/delete/generic verdicts shared by the change predicates: always true.
macro_rules! admit_all_but_update {
    () => {
        fn create(&self, _: &CreateEvent) -> bool {
            true
        }
        fn delete(&self, _: &DeleteEvent) -> bool {
            true
        }
        fn generic(&self, _: &GenericEvent) -> bool {
            true
        }
    };
}

/// `ResourceVersionChangedPredicate`: admits updates whose resourceVersion changed (so resyncs,
/// which repeat the same object, are dropped); everything else is admitted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResourceVersionChanged;

impl Predicate for ResourceVersionChanged {
    admit_all_but_update!();
    fn update(&self, e: &UpdateEvent) -> bool {
        both(e).is_some_and(|(old, new)| old.resource_version() != new.resource_version())
    }
}

/// `GenerationChangedPredicate`: admits updates whose `metadata.generation` changed (spec writes);
/// status-only and metadata-only updates are dropped. Everything else is admitted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GenerationChanged;

impl Predicate for GenerationChanged {
    admit_all_but_update!();
    fn update(&self, e: &UpdateEvent) -> bool {
        both(e).is_some_and(|(old, new)| old.generation() != new.generation())
    }
}

/// How label and annotation maps are compared (see the module docs for the version boundary).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum MapEquality {
    /// `reflect.DeepEqual` (controller-runtime ≤ v0.17.x): a nil map differs from an empty one.
    DeepEqual,
    /// `maps.Equal` (controller-runtime ≥ v0.18.0): nil and empty maps are equal.
    #[default]
    MapsEqual,
}

impl MapEquality {
    /// Whether two label/annotation maps are equal under this rule.
    pub fn equal(self, a: &StringMap, b: &StringMap) -> bool {
        match self {
            MapEquality::DeepEqual => a == b,
            MapEquality::MapsEqual => entries(a) == entries(b),
        }
    }
}

/// The entries of a possibly-nil map (nil reads as empty, as in Go).
fn entries(m: &StringMap) -> Option<&VecMap<String, String>> {
    m.as_deref().filter(|m| !m.is_empty())
}

/// `AnnotationChangedPredicate`: admits updates whose annotations changed; everything else is admitted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnnotationChanged {
    /// The map comparison in use.
    pub equality: MapEquality,
}

impl AnnotationChanged {
    /// With an explicit comparison rule.
    pub fn new(equality: MapEquality) -> AnnotationChanged {
        AnnotationChanged { equality }
    }
}

impl Predicate for AnnotationChanged {
    admit_all_but_update!();
    fn update(&self, e: &UpdateEvent) -> bool {
        both(e).is_some_and(|(old, new)| {
            !self
                .equality
                .equal(&old.metadata.annotations, &new.metadata.annotations)
        })
    }
}

/// `LabelChangedPredicate`: admits updates whose labels changed; everything else is admitted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LabelChanged {
    /// The map comparison in use.
    pub equality: MapEquality,
}

impl LabelChanged {
    /// With an explicit comparison rule.
    pub fn new(equality: MapEquality) -> LabelChanged {
        LabelChanged { equality }
    }
}

impl Predicate for LabelChanged {
    admit_all_but_update!();
    fn update(&self, e: &UpdateEvent) -> bool {
        both(e).is_some_and(|(old, new)| {
            !self
                .equality
                .equal(&old.metadata.labels, &new.metadata.labels)
        })
    }
}

/// `predicate.And`: admits when every inner predicate admits (an empty `And` admits everything);
/// evaluation stops at the first refusal.
pub struct And(pub Vec<Box<dyn Predicate>>);

/// `predicate.Or`: admits when any inner predicate admits (an empty `Or` refuses everything);
/// evaluation stops at the first admission.
pub struct Or(pub Vec<Box<dyn Predicate>>);

/// `predicate.Not`: inverts the inner predicate for every event type.
pub struct Not(pub Box<dyn Predicate>);

/// `predicate.And(predicates...)`.
pub fn all(predicates: Vec<Box<dyn Predicate>>) -> And {
    And(predicates)
}

/// `predicate.Or(predicates...)`.
pub fn any(predicates: Vec<Box<dyn Predicate>>) -> Or {
    Or(predicates)
}

/// `predicate.Not(predicate)`.
pub fn not(predicate: impl Predicate + 'static) -> Not {
    Not(Box::new(predicate))
}

impl fmt::Debug for And {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "And({} predicates)", self.0.len())
    }
}

impl fmt::Debug for Or {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Or({} predicates)", self.0.len())
    }
}

impl fmt::Debug for Not {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Not(..)")
    }
}

impl Predicate for And {
    fn create(&self, e: &CreateEvent) -> bool {
        self.0.iter().all(|p| p.create(e))
    }
    fn update(&self, e: &UpdateEvent) -> bool {
        self.0.iter().all(|p| p.update(e))
    }
    fn delete(&self, e: &DeleteEvent) -> bool {
        self.0.iter().all(|p| p.delete(e))
    }
    fn generic(&self, e: &GenericEvent) -> bool {
        self.0.iter().all(|p| p.generic(e))
    }
}

impl Predicate for Or {
    fn create(&self, e: &CreateEvent) -> bool {
        self.0.iter().any(|p| p.create(e))
    }
    fn update(&self, e: &UpdateEvent) -> bool {
        self.0.iter().any(|p| p.update(e))
    }
    fn delete(&self, e: &DeleteEvent) -> bool {
        self.0.iter().any(|p| p.delete(e))
    }
    fn generic(&self, e: &GenericEvent) -> bool {
        self.0.iter().any(|p| p.generic(e))
    }
}

impl Predicate for Not {
    fn create(&self, e: &CreateEvent) -> bool {
        !self.0.create(e)
    }
    fn update(&self, e: &UpdateEvent) -> bool {
        !self.0.update(e)
    }
    fn delete(&self, e: &DeleteEvent) -> bool {
        !self.0.delete(e)
    }
    fn generic(&self, e: &GenericEvent) -> bool {
        !self.0.generic(e)
    }
}
