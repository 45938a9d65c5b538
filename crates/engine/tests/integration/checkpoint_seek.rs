//! Checkpoints, seek and fork of a run (issue 16 §4): a run put back to a checkpoint, or sought
//! to any instant, handles exactly the events of a run that never stopped.

use std::time::Duration;

use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::cluster::timeline::{BranchId, TimelineOptions};
use flywheel_engine::scenario::presets;
use flywheel_engine::swarm;
use flywheel_engine::SimTime;

const SEEDS: u64 = 20;

/// A run of `preset` with `seed`, as the determinism table runs it.
fn run_of(preset: &str, seed: u64) -> Run {
    run_for(preset, seed, swarm::determinism_duration(preset))
}

/// A run of `preset` with `seed` for `duration` (the incident with 300 objects).
fn run_for(preset: &str, seed: u64, duration: Duration) -> Run {
    let mut scenario = presets::load(preset, &[]).expect("preset loads");
    if preset == "seed-000-incident" {
        scenario.objects.count = 300;
    }
    let options = RunOptions {
        duration: Some(duration),
        seed: Some(seed),
        ..RunOptions::default()
    };
    Run::new(scenario, &options).expect("preset runs")
}

fn finish(run: &mut Run) -> (u64, u64) {
    while !run.advance(1_000_000) {}
    (run.trace().hash(), run.events())
}

fn fraction(run: &Run, f: f64) -> SimTime {
    SimTime::from_secs_f64(run.end().as_secs_f64() * f)
}

/// A fresh run of `preset` and `seed` sought forward to `at`: (hash, events).
fn straight_to(preset: &str, seed: u64, at: SimTime) -> (u64, u64) {
    let mut run = run_of(preset, seed);
    run.seek(at).expect("forward needs no timeline");
    (run.trace().hash(), run.events())
}

fn timeline(spacing_events: u64) -> TimelineOptions {
    TimelineOptions {
        spacing_events,
        ..TimelineOptions::default()
    }
}

#[test]
fn a_run_restored_from_a_checkpoint_reaches_the_hash_of_one_that_never_stopped() {
    for preset in presets::names() {
        for seed in 0..SEEDS {
            let straight = swarm::preset_trace_hash(preset, seed).expect("preset runs");
            let mut run = run_of(preset, seed);
            let mid = fraction(&run, 0.4);
            run.seek(mid).expect("forward");
            let checkpoint = run.checkpoint();
            assert_eq!(
                finish(&mut run),
                straight,
                "{preset} seed {seed}: checkpointed"
            );
            run.restore(&checkpoint);
            assert_eq!(run.events(), checkpoint.events(), "{preset} seed {seed}");
            assert_eq!(run.now(), mid, "{preset} seed {seed}");
            assert_eq!(finish(&mut run), straight, "{preset} seed {seed}: restored");
        }
    }
}

#[test]
fn seeking_backward_then_forward_ends_identical_to_a_straight_run() {
    for preset in ["flywheel", "fixed", "seed-000-incident", "watch-leak"] {
        for seed in 0..3 {
            let mut run = run_of(preset, seed);
            run.keep_timeline(timeline(500));
            let end = finish(&mut run);
            for f in [0.3, 0.05, 0.7, 0.69] {
                let at = fraction(&run, f);
                assert_eq!(run.seek(at), Ok(at), "{preset} seed {seed}");
                let here = (run.trace().hash(), run.events());
                assert_eq!(
                    here,
                    straight_to(preset, seed, at),
                    "{preset} seed {seed} at {at}"
                );
            }
            run.seek(run.end()).expect("forward");
            assert_eq!(
                (run.trace().hash(), run.events()),
                end,
                "{preset} seed {seed}"
            );
        }
    }
}

#[test]
fn automatic_checkpoints_stay_within_the_budget_and_spread_out() {
    let two_minutes = Duration::from_secs(120);
    let mut largest = run_for("flywheel", 1, two_minutes);
    finish(&mut largest);
    // Twice what the run's last state would take sharing nothing: later checkpoints count only
    // what they add beside the one before, yet one every 200 events would not fit.
    let budget_bytes = 2 * largest.checkpoint().bytes();
    let mut run = run_for("flywheel", 1, two_minutes);
    run.keep_timeline(TimelineOptions {
        budget_bytes,
        spacing_events: 200,
        ..TimelineOptions::default()
    });
    let end = finish(&mut run);
    let timeline = run.timeline().expect("kept");
    assert!(
        timeline.bytes() <= budget_bytes,
        "{} > {budget_bytes}",
        timeline.bytes()
    );
    let marks = timeline.checkpoints(BranchId(0));
    assert!(marks.len() >= 3, "{} checkpoints", marks.len());
    let spacing = timeline.branches()[0].spacing_events;
    assert!(spacing > 200, "spacing doubled on thinning: {spacing}");
    let gaps: Vec<u64> = marks
        .windows(2)
        .map(|w| w[1].events() - w[0].events())
        .collect();
    assert!(
        gaps.iter().all(|&g| g <= spacing),
        "gaps {gaps:?} spacing {spacing}"
    );
    let at = fraction(&run, 0.5);
    run.seek(at).expect("backward");
    let mut straight = run_for("flywheel", 1, two_minutes);
    straight.seek(at).expect("forward");
    assert_eq!(
        (run.trace().hash(), run.events()),
        (straight.trace().hash(), straight.events())
    );
    run.seek(run.end()).expect("forward");
    assert_eq!((run.trace().hash(), run.events()), end);
}

#[test]
fn a_fork_keeps_the_old_branch_intact_and_switching_returns_to_where_it_was_left() {
    let mut run = run_of("flywheel", 2);
    run.keep_timeline(timeline(300));
    let left_at = fraction(&run, 0.6);
    run.seek(left_at).expect("forward");
    let left = (run.trace().hash(), run.events());
    let fork_at = fraction(&run, 0.3);
    run.seek(fork_at).expect("backward");
    let at_fork = (run.trace().hash(), run.events());
    let main = run.current_branch().expect("kept");
    let fork = run.fork("what if").expect("timeline kept");
    assert_ne!(fork, main);
    assert_eq!(run.current_branch(), Some(fork));
    run.seek(fraction(&run, 0.9)).expect("forward on the fork");
    let fork_head = (run.trace().hash(), run.events());
    run.switch_branch(main).expect("main is kept");
    assert_eq!((run.trace().hash(), run.events()), at_fork);
    assert_eq!(run.now(), fork_at);
    run.seek(left_at).expect("forward on main");
    assert_eq!((run.trace().hash(), run.events()), left);
    run.switch_branch(fork).expect("the fork is kept");
    assert_eq!((run.trace().hash(), run.events()), fork_head);
    let branches = run.branches();
    assert_eq!(branches.len(), 2);
    assert_eq!(branches[1].parent, Some(main));
    assert_eq!(branches[1].label, "what if");
}

#[test]
fn an_intervention_at_a_fork_is_replayed_by_every_seek_on_its_branch() {
    let mut other = run_of("flywheel", 7);
    other
        .seek(SimTime::ZERO + Duration::from_secs(3))
        .expect("forward");
    let swapped = other.checkpoint();
    let mut run = run_of("flywheel", 3);
    run.keep_timeline(timeline(300));
    run.seek(SimTime::ZERO + Duration::from_secs(3))
        .expect("forward");
    run.fork_with("swapped", |r| r.restore(&swapped))
        .expect("kept");
    let end = finish(&mut run);
    assert_eq!(
        end,
        finish(&mut other),
        "the branch goes on from the intervention"
    );
    run.seek(SimTime::ZERO + Duration::from_secs(5))
        .expect("backward on the branch");
    assert_eq!(run.seek(run.end()), Ok(run.end()));
    assert_eq!((run.trace().hash(), run.events()), end);
}

#[test]
fn beyond_the_branch_limit_the_oldest_other_branch_is_dropped() {
    let mut run = run_of("fixed", 0);
    run.keep_timeline(TimelineOptions {
        max_branches: 2,
        ..timeline(300)
    });
    let main = run.current_branch().expect("kept");
    run.seek(fraction(&run, 0.2)).expect("forward");
    let a = run.fork("a").expect("kept");
    run.switch_branch(main).expect("main is kept");
    run.seek(fraction(&run, 0.4)).expect("forward");
    let b = run.fork("b").expect("kept");
    let kept: Vec<BranchId> = run.branches().iter().map(|b| b.id).collect();
    assert_eq!(kept, [main, b], "main is b's parent, a is unrelated");
    assert!(run.switch_branch(a).is_err());
}

#[test]
fn a_seek_in_small_chunks_ends_identical_to_one_seek() {
    for preset in ["flywheel", "seed-000-incident"] {
        let mut whole = run_of(preset, 3);
        whole.keep_timeline(timeline(2_000));
        finish(&mut whole);
        let mut chunked = run_of(preset, 3);
        chunked.keep_timeline(timeline(2_000));
        finish(&mut chunked);
        for f in [0.3, 0.8, 0.1] {
            let at = fraction(&whole, f);
            let reached = whole.seek(at).expect("timeline kept");
            let to = chunked.begin_seek(at).expect("timeline kept");
            let mut calls = 0;
            while !chunked.continue_seek(to, 97) {
                calls += 1;
            }
            assert_eq!(to, reached, "{preset} at {f}");
            assert_eq!(chunked.now(), whole.now(), "{preset} at {f}");
            assert_eq!(
                (chunked.trace().hash(), chunked.events()),
                (whole.trace().hash(), whole.events()),
                "{preset} at {f} after {calls} chunks"
            );
        }
    }
}

#[test]
fn a_run_that_yields_before_checkpoints_takes_the_same_ones_each_in_a_call_of_its_own() {
    let two_minutes = Duration::from_secs(120);
    let mut plain = run_for("flywheel", 3, two_minutes);
    plain.keep_timeline(timeline(200));
    let plain_end = finish(&mut plain);
    let mut yielding = run_for("flywheel", 3, two_minutes);
    yielding.keep_timeline(timeline(200));
    yielding.yield_before_checkpoints();
    let mut taken_alone = 0;
    let mut most_calls = 0;
    loop {
        let mut calls = 0;
        while yielding.take_due_checkpoint() {
            calls += 1;
            assert!(calls <= 4, "three parts copied alone, then the rest");
        }
        if calls > 0 {
            taken_alone += 1;
            most_calls = most_calls.max(calls);
            assert!(!yielding.checkpoint_due(), "taking it leaves none due");
        }
        if yielding.advance(1_000_000) {
            break;
        }
        assert!(
            yielding.checkpoint_due(),
            "a step ends early only when a checkpoint comes due"
        );
    }
    let marks = |run: &Run| -> Vec<u64> {
        let timeline = run.timeline().expect("timeline kept");
        let branch = run.current_branch().expect("a branch");
        timeline
            .checkpoints(branch)
            .iter()
            .map(|c| c.events())
            .collect()
    };
    assert_eq!(
        (yielding.trace().hash(), yielding.events()),
        plain_end,
        "yielding changes no event"
    );
    assert!(taken_alone >= 2, "checkpoints were taken by the caller");
    assert_eq!(
        most_calls, 4,
        "a running operator's checkpoint is copied in four calls"
    );
    let (p, y) = (marks(&plain), marks(&yielding));
    // the plain run takes a checkpoint due after its last step; the yielding one leaves it due
    assert_eq!(
        y.as_slice(),
        &p[..y.len()],
        "the same checkpoints, at the same events"
    );
    assert!(p.len() - y.len() <= 1, "at most the last one is left due");
}

#[test]
fn a_checkpoint_copied_in_parts_puts_a_run_back_exactly_even_when_interrupted() {
    let two_minutes = Duration::from_secs(120);
    let plain_end = finish(&mut run_for("seed-000-incident", 5, two_minutes));
    let mut run = run_for("seed-000-incident", 5, two_minutes);
    run.keep_timeline(timeline(500));
    run.yield_before_checkpoints();
    // A few entries per step, so that the large collections of 300 keys are copied (and the
    // checkpoints let go freed) over several calls each, and interrupted within a part.
    run.set_step_entries(7);
    let mut interrupted = 0;
    while !run.advance(1_000_000) {
        assert!(run.take_due_checkpoint(), "a part is copied");
        match interrupted {
            // events handled between the parts: the step takes the rest of it first
            0 => {}
            // the state replaced between the parts: what was copied is copied again
            1 => {
                let back = SimTime::from_secs_f64(run.now().as_secs_f64() / 2.0);
                run.seek(back).expect("a checkpoint before");
            }
            _ => while run.take_due_checkpoint() {},
        }
        interrupted += 1;
    }
    assert!(interrupted > 2, "several checkpoints came due");
    assert_eq!(
        (run.trace().hash(), run.events()),
        plain_end,
        "the run handles the events of one that never stopped"
    );
    for f in [0.9, 0.6, 0.3] {
        let at = fraction(&run, f);
        run.seek(at).expect("within the run");
        assert_eq!(
            finish(&mut run),
            plain_end,
            "put back by a checkpoint copied in parts, at {f} of the run"
        );
    }
}
