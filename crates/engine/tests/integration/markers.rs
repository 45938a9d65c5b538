//! Timeline markers (issue 18): the instants a run pins on its timeline, the same however the
//! run is stepped, and kept per branch across seeks and forks.

use std::time::Duration;

use flywheel_engine::cluster::intervention::Intervention;
use flywheel_engine::cluster::markers::{Marker, MarkerKind};
use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::cluster::timeline::TimelineOptions;
use flywheel_engine::scenario::presets;
use flywheel_engine::SimTime;

fn run_of(preset: &str, secs: u64, sets: &[(&str, &str)]) -> Run {
    let sets: Vec<_> = sets
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let scenario = presets::load(preset, &sets).expect("preset loads");
    let options = RunOptions {
        duration: Some(Duration::from_secs(secs)),
        ..RunOptions::default()
    };
    Run::new(scenario, &options).expect("preset runs")
}

fn kinds(markers: &[Marker]) -> Vec<MarkerKind> {
    markers.iter().map(|m| m.kind).collect()
}

fn secs(s: u64) -> SimTime {
    SimTime::ZERO + Duration::from_secs(s)
}

#[test]
fn the_flywheel_marks_the_loop_closing_once_and_never_converges() {
    let mut run = run_of("flywheel", 60, &[]);
    while !run.advance(100_000) {}
    let firsts = run
        .markers()
        .iter()
        .filter(|m| m.kind == MarkerKind::FirstSelfTriggered)
        .count();
    assert_eq!(firsts, 1);
    assert!(!kinds(run.markers()).contains(&MarkerKind::Converged));
    let first = &run.markers()[0];
    assert_eq!(first.label_en(), "loop closes");
    assert!(first.key.is_some());
}

#[test]
fn a_fixed_operator_is_marked_converged_and_its_loop_never_closes() {
    let mut run = run_of("fixed", 40, &[]);
    while !run.advance(100_000) {}
    let k = kinds(run.markers());
    assert!(k.contains(&MarkerKind::Converged), "{k:?}");
    assert!(!k.contains(&MarkerKind::FirstSelfTriggered), "{k:?}");
}

#[test]
fn markers_do_not_depend_on_how_the_run_is_stepped() {
    let mut whole = run_of("flywheel", 30, &[]);
    while !whole.advance(u64::MAX) {}
    let mut frames = run_of("flywheel", 30, &[]);
    let mut t = SimTime::ZERO;
    while !frames.is_finished() {
        t += Duration::from_millis(137);
        frames.advance_to(t, 777);
    }
    let mut steps = run_of("flywheel", 30, &[]);
    for _ in 0..500 {
        steps.step();
    }
    while !steps.advance(313) {}
    assert_eq!(whole.markers(), frames.markers());
    assert_eq!(whole.markers(), steps.markers());
    assert_eq!(whole.trace().hash(), frames.trace().hash());
}

#[test]
fn a_killed_container_and_its_restart_after_the_back_off_are_marked() {
    let mut run = run_of("fixed", 30, &[]);
    run.advance_to(secs(10), u64::MAX);
    run.intervene(Intervention::parse("kill_operator").expect("parses"));
    while !run.advance(100_000) {}
    let k = kinds(run.markers());
    let killed = k.iter().position(|k| *k == MarkerKind::ContainerExited);
    let restart = k.iter().position(|k| *k == MarkerKind::BackOffEnded);
    assert!(killed.is_some() && restart > killed, "{k:?}");
}

#[test]
fn a_seek_back_drops_the_markers_of_the_future_and_a_fork_keeps_its_own() {
    let mut run = run_of("flywheel", 60, &[]);
    run.keep_timeline(TimelineOptions::default());
    while !run.advance(100_000) {}
    let at_end = run.markers().to_vec();
    assert!(at_end.iter().any(|m| m.at > secs(2)));

    run.seek(secs(2)).expect("seeks");
    assert!(run.markers().iter().all(|m| m.at <= secs(2)));
    assert!(run.markers().len() < at_end.len());

    run.intervene(Intervention::parse("rollout:fixed").expect("parses"));
    run.seek(run.end()).expect("seeks");
    let k = kinds(run.markers());
    assert!(
        k.contains(&MarkerKind::Intervention(
            flywheel_engine::scenario::ActionKind::Rollout
        )),
        "{k:?}"
    );
    assert!(k.contains(&MarkerKind::Converged), "{k:?}");
    let since = run.markers_since(at_end.len().min(run.markers().len()));
    assert!(since.len() <= run.markers().len());
}
