//! A large scenario's objects are created at one instant in parts, so a front end stepping with
//! `advance_to` can draw between them; the run is otherwise the same as one creation event.

use std::time::Duration;

use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::cluster::{CREATE_OBJECTS_PER_EVENT, REPLACE_OBJECTS_PER_EVENT};
use flywheel_engine::scenario::presets;
use flywheel_engine::sim::EventKind;
use flywheel_engine::SimTime;

fn run_with(objects: u32) -> Run {
    let mut s = presets::load("fixed", &[]).expect("preset loads");
    s.objects.count = objects;
    s.objects.create_at = Duration::ZERO;
    let options = RunOptions {
        duration: Some(Duration::from_secs(5)),
        ..RunOptions::default()
    };
    Run::new(s, &options).expect("run starts")
}

fn stored(run: &Run) -> usize {
    run.object_keys(usize::MAX).len()
}

#[test]
fn each_call_creates_one_part_of_the_objects_at_time_zero() {
    let total = 2 * CREATE_OBJECTS_PER_EVENT + CREATE_OBJECTS_PER_EVENT / 2;
    let mut run = run_with(total);
    let deadline = SimTime::from_millis(5_000);
    run.advance_to(deadline, 1_000_000);
    assert_eq!(stored(&run), CREATE_OBJECTS_PER_EVENT as usize);
    assert_eq!(
        run.now(),
        SimTime::ZERO,
        "the clock waits for the other parts"
    );
    run.advance_to(deadline, 1_000_000);
    assert_eq!(stored(&run), 2 * CREATE_OBJECTS_PER_EVENT as usize);
    assert_eq!(run.advance_to(deadline, 1), 1, "the last part");
    assert_eq!(stored(&run), total as usize);
    let created: Vec<String> = run
        .trace()
        .events()
        .filter_map(|e| match e.kind {
            EventKind::Created { objects } => Some(format!("{} objects={objects}", e.time)),
            _ => None,
        })
        .collect();
    assert_eq!(
        created,
        [format!("0.000s objects={total}")],
        "one creation, at 0 s"
    );
    while !run.advance(1_000_000) {}
    assert_eq!(run.now(), deadline);
}

#[test]
fn the_invariants_hold_between_the_parts_of_a_creation_while_the_operator_runs() {
    let total = 2 * CREATE_OBJECTS_PER_EVENT + 1;
    let mut s = presets::load("fixed", &[]).expect("preset loads");
    s.objects.count = total;
    s.objects.create_at = Duration::from_secs(1);
    let options = RunOptions {
        duration: Some(Duration::from_secs(5)),
        ..RunOptions::default()
    };
    let mut run = Run::new(s, &options).expect("run starts");
    let created = SimTime::from_millis(1_000);
    // the operator starts, lists an empty cluster and watches before the objects come
    run.advance_to(SimTime::from_millis(999), 1_000_000);
    run.check_invariants_every(1);
    while stored(&run) < total as usize {
        run.advance_to(created, 1_000_000);
    }
    assert_eq!(run.now(), created);
    let violations = run.check_invariants_now();
    assert!(violations.is_empty(), "{violations:?}");
}

#[test]
fn a_large_list_reaches_the_informer_in_parts_that_each_end_a_call() {
    let part = REPLACE_OBJECTS_PER_EVENT as u32;
    let total = 2 * part + part / 2;
    let mut run = run_with(total);
    let deadline = SimTime::from_millis(5_000);
    // (events handled, the call's last trace line) of every call
    let mut calls: Vec<(u64, String)> = Vec::new();
    while run.now() < deadline {
        let seen = run.trace().total();
        let handled = run.advance_to(deadline, 1_000_000);
        let last = run.trace_since(seen).last().map(ToString::to_string);
        calls.push((handled, last.unwrap_or_default()));
    }
    let list = calls
        .iter()
        .position(|(_, line)| line.contains("apiserver LIST") && line.contains("code=200"))
        .expect("the informer's LIST of every object ends a call");
    // the client takes the reply, then two whole parts; the last half part ends the Replace and
    // the run goes on
    for (handled, line) in &calls[list + 1..list + 3] {
        assert_eq!(*handled, 1, "one part per call");
        assert!(line.is_empty(), "queueing a part traces nothing: {line}");
    }
    assert!(calls[list + 3].0 > 1, "the last part, then the run goes on");
    let synced = run.snapshot();
    assert_eq!(
        synced.operator.map(|o| o.cache_objects),
        Some(u64::from(total))
    );
}
