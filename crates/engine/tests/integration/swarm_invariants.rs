//! Swarm testing with the invariant checkers on: a fast subset of seeds in the normal test run,
//! the full sweep behind `--ignored` (or `flywheel swarm --seeds 10000`).

use std::time::Duration;

use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::scenario::presets;
use flywheel_engine::swarm;

fn sweep(seeds: std::ops::Range<u64>) {
    let mut failures = Vec::new();
    let mut converged = 0;
    for seed in seeds.clone() {
        let outcome = swarm::run_seed(seed);
        converged += u64::from(outcome.convergence_checks > 0);
        if !outcome.passed() {
            failures.push(outcome.failure_report());
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} seeds failed:\n{}",
        failures.len(),
        seeds.end - seeds.start,
        failures.join("\n")
    );
    assert!(
        converged * 4 > seeds.end - seeds.start,
        "the convergence check ran in only {converged} seeds: it is vacuous"
    );
}

#[test]
fn two_hundred_swarm_seeds_keep_every_invariant() {
    sweep(0..200);
}

#[test]
#[ignore = "the full sweep (minutes): cargo test --release -p flywheel-engine --test integration swarm_invariants -- --ignored"]
fn ten_thousand_swarm_seeds_keep_every_invariant() {
    sweep(0..10_000);
}

#[test]
fn every_generated_scenario_is_valid_and_the_same_seed_gives_the_same_one() {
    for seed in 0..2000 {
        let s = swarm::scenario_for(seed);
        s.validate().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(s, swarm::scenario_for(seed), "seed {seed}");
    }
}

#[test]
fn a_swarm_seed_replays_identically() {
    let (a, b) = (swarm::run_seed(42), swarm::run_seed(42));
    assert_eq!((a.events, a.trace_hash), (b.events, b.trace_hash));
    assert!(swarm::replay_command(42).contains("swarm --seed 42"));
}

#[test]
fn every_preset_keeps_every_invariant_with_checks_after_every_event() {
    // The seed-000 presets for 400 s; the larger seed-001/004 workloads for 20 s (their
    // invariants are the same code paths, and a check after every event is O(objects)).
    for name in presets::names().filter(|n| *n != "seed-000-incident") {
        let scenario = presets::load(name, &[]).expect("preset loads");
        let seconds = if scenario.group == "seed-000" {
            400
        } else {
            20
        };
        let scenario = if scenario.pods.count > 2_000 {
            let sets = [("pods.count".to_owned(), "2000".to_owned())];
            match presets::load(name, &sets) {
                Ok(s) => s,
                Err(_) => continue, // a preset whose Pods cannot shrink is covered by its own tests
            }
        } else {
            scenario
        };
        let options = RunOptions {
            duration: Some(Duration::from_secs(seconds)),
            ..RunOptions::default()
        };
        let mut run = Run::new(scenario, &options).expect("run starts");
        run.check_invariants_every(1);
        while !run.advance(100_000) {}
        let violations = run.check_invariants_now().to_vec();
        assert!(violations.is_empty(), "{name}: {violations:#?}");
        let c = run.invariant_checker().expect("checks on");
        assert!(c.checks() > 10, "{name}: {} checks", c.checks());
    }
}

#[test]
fn the_convergence_check_runs_once_a_fixed_operator_settles() {
    let scenario = presets::load("fixed", &[]).expect("preset loads");
    let options = RunOptions {
        duration: Some(Duration::from_secs(60)),
        ..RunOptions::default()
    };
    let mut run = Run::new(scenario, &options).expect("run starts");
    run.check_invariants_every(1);
    while !run.advance(100_000) {}
    let c = run.invariant_checker().expect("checks on");
    assert!(c.convergence_checks() > 10, "{}", c.convergence_checks());
    assert!(run.invariant_violations().is_empty());
}

#[test]
fn a_run_stops_at_its_event_budget_and_says_so() {
    let scenario = presets::load("flywheel", &[]).expect("preset loads");
    let options = RunOptions {
        max_events: Some(500),
        ..RunOptions::default()
    };
    let mut run = Run::new(scenario, &options).expect("run starts");
    let mut calls = 0;
    while !run.advance(64) {
        calls += 1;
        assert!(calls < 100, "advance must stop at the budget");
    }
    assert!(run.budget_exhausted());
    assert_eq!(run.events(), 500);
    assert!(!run.step(), "no step beyond the budget");
}

#[test]
#[ignore = "prints statistics of the swarm"]
fn swarm_statistics() {
    let (mut events, mut checks, mut conv, mut failed) = (0, 0, 0, 0);
    let started = std::time::Instant::now();
    for seed in 0..1000 {
        let o = swarm::run_seed(seed);
        events += o.events;
        checks += o.checks;
        conv += o.convergence_checks;
        if !o.passed() {
            failed += 1;
            println!("{}", o.failure_report());
        }
    }
    println!(
        "events {events} checks {checks} convergence {conv} failed {failed} in {:?}",
        started.elapsed()
    );
}
