//! A and B on one clock (issue 18): the first event where two runs of the same seed part, found
//! as both advance, and named from the typed records.

use std::time::Duration;

use flywheel_engine::cluster::divergence::{DivergenceFinder, Side};
use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::scenario::presets;
use flywheel_engine::sim::EventKind;

fn run_of(preset: &str, seconds: u64) -> Run {
    let scenario = presets::load(preset, &[]).expect("preset loads");
    let options = RunOptions {
        duration: Some(Duration::from_secs(seconds)),
        seed: Some(7),
        ..RunOptions::default()
    };
    Run::new(scenario, &options).expect("preset runs")
}

#[test]
fn subresource_runs_with_and_without_the_predicate_part_at_the_first_modified_it_drops() {
    let (mut a, mut b) = (
        run_of("subresource-only", 30),
        run_of("subresource+predicate", 30),
    );
    let mut finder = DivergenceFinder::new();
    let mut calls = 0;
    while finder.found().is_none() && !(a.is_finished() && b.is_finished()) {
        a.advance(20);
        b.advance(20);
        finder.advance(&a, &b).expect("compared in time");
        calls += 1;
    }
    assert!(calls > 1, "found incrementally");
    let d = finder.found().expect("the runs part").clone();
    assert_eq!(d.side, Some(Side::B));
    assert!(
        d.en.starts_with("B: GenerationChangedPredicate dropped MODIFIED "),
        "{}",
        d.en
    );
    assert!(d.en.contains(" rv="), "{}", d.en);
    assert!(
        d.zh.contains("GenerationChangedPredicate 丢弃了 MODIFIED"),
        "{}",
        d.zh
    );
    let b_record = b.trace_since(d.event.0).next().expect("kept").clone();
    assert_eq!(b_record.kind, EventKind::PredicateDropped);
    assert_eq!(finder.compared(), d.event.0);
}

#[test]
fn two_runs_of_the_same_preset_and_seed_never_part() {
    let (mut a, mut b) = (run_of("flywheel", 30), run_of("flywheel", 30));
    let mut finder = DivergenceFinder::new();
    while !a.advance(2_000) {
        b.advance(2_000);
        assert_eq!(finder.advance(&a, &b).expect("compared in time"), None);
    }
    assert_eq!(finder.compared(), a.trace().total().min(b.trace().total()));
}

#[test]
fn a_finder_called_too_rarely_says_the_records_were_lost() {
    // Ten simulated minutes of the flywheel trace far more records than the ring keeps.
    let (mut a, mut b) = (run_of("flywheel", 600), run_of("flywheel", 600));
    while !a.advance(u64::MAX) {}
    while !b.advance(u64::MAX) {}
    let err = DivergenceFinder::new().advance(&a, &b).expect_err("lost");
    assert!(
        err.to_string().contains("compare the runs more often"),
        "{err}"
    );
}
