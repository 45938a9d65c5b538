//! An OOM-killed operator is gone for the model at once; the host memory of its cache and queue
//! is freed in the continuation events right after, so a page stepping with `advance_to` draws
//! between the kill and the parts.

use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::scenario::presets;

#[test]
fn the_kill_and_each_freed_part_end_a_call_of_advance_to() {
    let scenario = presets::load("watch-leak", &[]).expect("preset loads");
    let mut run = Run::new(scenario, &RunOptions::default()).expect("run starts");
    let end = run.end();
    // (events handled, the call's last trace line) of every call
    let mut calls: Vec<(u64, String)> = Vec::new();
    while !run.is_finished() {
        let seen = run.trace().total();
        let handled = run.advance_to(end, 1_000_000);
        let last = run.trace_since(seen).last().map(ToString::to_string);
        calls.push((handled, last.unwrap_or_default()));
    }
    let kills: Vec<usize> = (0..calls.len())
        .filter(|&i| calls[i].1.contains("kubelet OOMKilled"))
        .collect();
    assert!(!kills.is_empty(), "the preset is OOMKilled");
    for i in kills {
        // The queue is freed in the event after the kill, the informer in the one after that,
        // which also resumes the run.
        let (handled, line) = &calls[i + 1];
        assert_eq!(*handled, 1, "the first part is one event");
        assert!(line.is_empty(), "freeing memory traces nothing: {line}");
        assert!(calls[i + 2].0 >= 1, "the second part, then the run goes on");
    }
}
