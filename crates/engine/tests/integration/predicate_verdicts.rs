//! Predicates against controller-runtime `pkg/predicate/predicate_test.go`.

use std::cell::Cell;
use std::rc::Rc;

use flywheel_engine::object::{Object, ObjectRef, StringMap};
use flywheel_engine::predicate::{
    all, any, not, AnnotationChanged, CreateEvent, DeleteEvent, Event, Funcs, GenerationChanged,
    GenericEvent, LabelChanged, MapEquality, Predicate, ResourceVersionChanged, UpdateEvent,
};

fn pod() -> Object {
    Object::new("Pod", "biz", "baz")
}

fn arc(o: Object) -> ObjectRef {
    Rc::new(o)
}

fn with_rv(rv: u64) -> ObjectRef {
    let mut o = pod();
    o.metadata.resource_version = rv;
    arc(o)
}

fn with_generation(g: i64) -> ObjectRef {
    let mut o = pod();
    o.metadata.generation = g;
    arc(o)
}

fn map(pairs: &[(&str, &str)]) -> StringMap {
    Some(Box::new(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    ))
}

fn with_annotations(a: StringMap) -> ObjectRef {
    let mut o = pod();
    o.metadata.annotations = a;
    arc(o)
}

fn with_labels(l: StringMap) -> ObjectRef {
    let mut o = pod();
    o.metadata.labels = l;
    arc(o)
}

fn update(old: Option<ObjectRef>, new: Option<ObjectRef>) -> UpdateEvent {
    UpdateEvent {
        object_old: old,
        object_new: new,
    }
}

fn create() -> CreateEvent {
    CreateEvent { object: arc(pod()) }
}

fn delete() -> DeleteEvent {
    DeleteEvent {
        object: arc(pod()),
        delete_state_unknown: false,
    }
}

fn generic() -> GenericEvent {
    GenericEvent { object: arc(pod()) }
}

/// Create, Delete and Generic are always admitted by the change predicates.
fn admits_non_updates(p: &dyn Predicate) {
    assert!(p.create(&create()));
    assert!(p.delete(&delete()));
    assert!(p.generic(&generic()));
}

/// An update missing either object is refused (upstream logs and returns false).
fn refuses_missing_objects(p: &dyn Predicate, sample: ObjectRef) {
    assert!(!p.update(&update(None, Some(sample.clone()))));
    assert!(!p.update(&update(Some(sample), None)));
    assert!(!p.update(&update(None, None)));
}

// Mirrors predicate_test.go Describe("Funcs"): each set closure is called for its event type, and a
// Funcs without closures admits every event.
#[test]
fn funcs_call_the_closure_of_the_event_type_and_admit_when_it_is_missing() {
    let calls = Rc::new(Cell::new(0));
    let c = calls.clone();
    let only_create = Funcs::new().with_create(move |e| {
        c.set(c.get() + 1);
        e.object.metadata.name() == "baz"
    });
    assert!(only_create.create(&create()));
    assert_eq!(calls.get(), 1);
    assert!(only_create.update(&update(None, None)));
    assert!(only_create.delete(&delete()));
    assert!(only_create.generic(&generic()));
    assert_eq!(calls.get(), 1, "missing closures are not called");

    let refuse = Funcs {
        update: Some(Box::new(|_| false)),
        delete: Some(Box::new(|e| e.delete_state_unknown)),
        generic: Some(Box::new(|_| false)),
        ..Funcs::default()
    };
    assert!(refuse.create(&create()));
    assert!(!refuse.update(&update(None, None)));
    assert!(!refuse.delete(&delete()));
    assert!(refuse.delete(&DeleteEvent {
        delete_state_unknown: true,
        ..delete()
    }));
    assert!(!refuse.generic(&generic()));
}

// Mirrors Describe("When checking a ResourceVersionChangedPredicate").
#[test]
fn resource_version_changed_admits_only_updates_with_a_new_resource_version() {
    let p = ResourceVersionChanged;
    admits_non_updates(&p);
    refuses_missing_objects(&p, with_rv(1));
    assert!(!p.update(&update(Some(with_rv(1)), Some(with_rv(1)))));
    assert!(p.update(&update(Some(with_rv(2)), Some(with_rv(1)))));
}

// Mirrors Describe("When checking a GenerationChangedPredicate").
#[test]
fn generation_changed_admits_only_updates_with_a_new_generation() {
    let p = GenerationChanged;
    admits_non_updates(&p);
    refuses_missing_objects(&p, with_generation(1));
    assert!(!p.update(&update(Some(with_generation(1)), Some(with_generation(1)))));
    assert!(p.update(&update(Some(with_generation(1)), Some(with_generation(2)))));
    // A status-only write: new RV, same generation.
    let mut status_write = (*with_generation(1)).clone();
    status_write.metadata.resource_version = 9;
    assert!(!p.update(&update(Some(with_generation(1)), Some(arc(status_write)))));
}

// Mirrors Describe("When checking an AnnotationChangedPredicate"): empty, unchanged, value changed,
// added, removed.
#[test]
fn annotation_changed_admits_only_updates_that_change_annotations() {
    let p = AnnotationChanged::default();
    admits_non_updates(&p);
    refuses_missing_objects(&p, with_annotations(None));
    let verdict = |old, new| {
        p.update(&update(
            Some(with_annotations(old)),
            Some(with_annotations(new)),
        ))
    };
    assert!(!verdict(None, None));
    assert!(!verdict(map(&[("booz", "wooz")]), map(&[("booz", "wooz")])));
    assert!(verdict(map(&[("booz", "wooz")]), map(&[("booz", "weez")])));
    assert!(verdict(
        map(&[("booz", "wooz")]),
        map(&[("booz", "wooz"), ("zooz", "qooz")])
    ));
    assert!(verdict(
        map(&[("booz", "wooz"), ("zooz", "qooz")]),
        map(&[("booz", "wooz")])
    ));
}

// Mirrors Describe("When checking a LabelChangedPredicate").
#[test]
fn label_changed_admits_only_updates_that_change_labels() {
    let p = LabelChanged::default();
    admits_non_updates(&p);
    refuses_missing_objects(&p, with_labels(None));
    let verdict = |old, new| p.update(&update(Some(with_labels(old)), Some(with_labels(new))));
    assert!(!verdict(None, None));
    assert!(!verdict(map(&[("foo", "bar")]), map(&[("foo", "bar")])));
    assert!(verdict(map(&[("foo", "bar")]), map(&[("foo", "baz")])));
    assert!(verdict(
        map(&[("foo", "bar")]),
        map(&[("foo", "bar"), ("a", "b")])
    ));
    assert!(verdict(
        map(&[("foo", "bar"), ("a", "b")]),
        map(&[("foo", "bar")])
    ));
}

// predicate.go history: through v0.17.x labels/annotations were compared with reflect.DeepEqual (nil
// map ≠ empty map, so nil → {} is a change); from v0.18.0 with maps.Equal (nil == empty). The default
// is the current behaviour.
#[test]
fn a_nil_to_empty_map_is_a_change_only_under_deep_equal() {
    assert_eq!(MapEquality::default(), MapEquality::MapsEqual);
    let empty = map(&[]);
    for (eq, changed) in [
        (MapEquality::DeepEqual, true),
        (MapEquality::MapsEqual, false),
    ] {
        let ann = AnnotationChanged::new(eq);
        let lab = LabelChanged::new(eq);
        let a = update(
            Some(with_annotations(None)),
            Some(with_annotations(empty.clone())),
        );
        let l = update(Some(with_labels(empty.clone())), Some(with_labels(None)));
        assert_eq!(ann.update(&a), changed, "{eq:?}");
        assert_eq!(lab.update(&l), changed, "{eq:?}");
        // Both rules agree on real differences.
        let real = update(
            Some(with_labels(None)),
            Some(with_labels(map(&[("k", "v")]))),
        );
        assert!(lab.update(&real));
    }
}

fn fixed(pass: bool) -> Box<dyn Predicate> {
    Box::new(
        Funcs::new()
            .with_create(move |_| pass)
            .with_update(move |_| pass)
            .with_delete(move |_| pass)
            .with_generic(move |_| pass),
    )
}

fn verdicts(p: &dyn Predicate) -> [bool; 4] {
    [
        p.create(&create()),
        p.update(&update(None, None)),
        p.delete(&delete()),
        p.generic(&generic()),
    ]
}

// Mirrors Context("With a boolean predicate"): And, Or and Not over every event type.
#[test]
fn and_or_not_combine_verdicts_for_every_event_type() {
    assert_eq!(verdicts(&all(vec![fixed(true), fixed(false)])), [false; 4]);
    assert_eq!(verdicts(&all(vec![fixed(true), fixed(true)])), [true; 4]);
    assert_eq!(verdicts(&any(vec![fixed(true), fixed(false)])), [true; 4]);
    assert_eq!(verdicts(&any(vec![fixed(false), fixed(false)])), [false; 4]);
    assert_eq!(verdicts(&not(fixed(true))), [false; 4]);
    assert_eq!(verdicts(&not(fixed(false))), [true; 4]);
    assert_eq!(verdicts(&all(vec![])), [true; 4]);
    assert_eq!(verdicts(&any(vec![])), [false; 4]);
}

// predicate.go and/or: evaluation stops at the first deciding predicate.
#[test]
fn and_stops_at_the_first_refusal_and_or_at_the_first_admission() {
    let calls = Rc::new(Cell::new(0));
    let counting = |pass: bool| {
        let c = calls.clone();
        Box::new(Funcs::new().with_create(move |_| {
            c.set(c.get() + 1);
            pass
        })) as Box<dyn Predicate>
    };
    assert!(!all(vec![counting(false), counting(true)]).create(&create()));
    assert_eq!(calls.get(), 1);
    assert!(any(vec![counting(true), counting(false)]).create(&create()));
    assert_eq!(calls.get(), 2);
}

// A typical operator setup: Or(GenerationChanged, LabelChanged) drops resyncs and status writes.
#[test]
fn generation_or_label_change_drops_resyncs_and_status_writes() {
    let p = any(vec![
        Box::new(GenerationChanged),
        Box::new(LabelChanged::default()),
    ]);
    let base = with_generation(3);
    let resync = Event::Update(update(Some(base.clone()), Some(base.clone())));
    assert!(!p.admits(&resync));
    let mut relabeled = (*base).clone();
    relabeled.metadata.labels = map(&[("tier", "web")]);
    assert!(p.admits(&Event::Update(update(Some(base), Some(arc(relabeled))))));
    assert!(p.admits(&Event::Create(create())));
}

// Mirrors Describe("NewPredicateFuncs with a namespace filter function").
#[test]
fn a_filter_predicate_applies_to_the_object_and_to_the_new_object_of_updates() {
    let p = Funcs::from_filter(|o| o.metadata.namespace() == "biz");
    assert_eq!(
        verdicts(&p),
        [true, false, true, true],
        "an update without a new object is refused"
    );
    let other = arc(Object::new("Pod", "other", "baz"));
    assert!(p.update(&update(Some(other.clone()), Some(arc(pod())))));
    assert!(!p.update(&update(Some(arc(pod())), Some(other.clone()))));
    assert!(!p.create(&CreateEvent { object: other }));
}
