//! Causality (issue 16 §2): every event records what caused it, a Reconcile answers to every add
//! the workqueue merged into its key, and the flywheel shows as a loop on the causal graph.

use std::time::Duration;

use flywheel_engine::apiserver::WatchEventType;
use flywheel_engine::cluster::intervention::Intervention;
use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::cluster::timeline::TimelineOptions;
use flywheel_engine::cluster::why::Link;
use flywheel_engine::scenario::presets;
use flywheel_engine::sim::{CausalRecord, EventKind};
use flywheel_engine::SimTime;

/// A run of `preset` with `seed` for `duration`, keeping the causes of every event (the
/// incident with 300 objects).
fn run_of(preset: &str, seed: u64, duration: Duration) -> Run {
    let mut scenario = presets::load(preset, &[]).expect("preset loads");
    if preset == "seed-000-incident" {
        scenario.objects.count = 300;
    }
    let options = RunOptions {
        duration: Some(duration),
        seed: Some(seed),
        causal_capacity: Some(2_000_000),
        ..RunOptions::default()
    };
    Run::new(scenario, &options).expect("preset runs")
}

fn finished(mut run: Run) -> Run {
    while !run.advance(1_000_000) {}
    run
}

fn at_secs(s: f64) -> SimTime {
    SimTime::from_secs_f64(s)
}

fn is_add(r: &CausalRecord<'_>) -> bool {
    matches!(r.event.kind, EventKind::HandlerEnqueue { .. })
}

#[test]
fn every_enqueue_and_every_reconcile_has_a_cause_in_every_preset_over_many_seeds() {
    for preset in presets::names() {
        for seed in 0..10 {
            let run = finished(run_of(preset, seed, Duration::from_secs(20)));
            assert_eq!(
                run.causal().dropped_events(),
                0,
                "{preset} keeps every event"
            );
            for r in run.causal().records() {
                let needs_cause = is_add(&r)
                    || matches!(
                        r.event.kind,
                        EventKind::Reconcile { .. }
                            | EventKind::Reconciled { .. }
                            | EventKind::PredicateDropped
                    );
                assert!(
                    !needs_cause || !r.causes.is_empty(),
                    "{preset} seed {seed}: {} {} has no cause",
                    r.id,
                    r.event
                );
                assert!(r.causes.iter().all(|c| *c < r.id), "causes come first");
            }
        }
    }
}

#[test]
fn the_flywheel_chain_is_the_cycle_write_modified_delta_add_reconcile_write_of_one_key() {
    let run = finished(run_of("flywheel", 1, Duration::from_secs(60)));
    let report = run.loop_report().expect("the flywheel loops");
    let why = run.why(report.reconcile).expect("a kept reconcile");
    assert!(why.self_triggered(), "{why}");
    let add = why
        .adds
        .iter()
        .find(|a| matches!(a.links.last(), Some(Link::Enqueue { .. })))
        .expect("an add by the event handler");
    let kinds: Vec<&Link> = add.links.iter().collect();
    assert!(
        matches!(
            kinds.as_slice(),
            [
                Link::Reconcile { key, .. },
                Link::Write { own: true, .. },
                Link::Watch {
                    event_type: WatchEventType::Modified,
                    ..
                },
                Link::Pop { .. },
                Link::Enqueue {
                    own_write: true,
                    ..
                },
            ] if *key == why.key
        ),
        "{add}"
    );
    assert!(report.period > Duration::ZERO && report.period_events > 4);
    assert!(!report.fixes.is_empty());
    let text = why.to_string();
    assert!(text.contains("own write rv="), "{text}");
    assert!(
        text.contains("→ MODIFIED → delta → not filtered: no predicate → add"),
        "{text}"
    );
}

#[test]
fn in_fixed_the_own_writes_events_end_at_the_predicate_and_no_reconcile_is_self_triggered() {
    let run = finished(run_of("fixed", 1, Duration::from_secs(60)));
    let ring = run.causal();
    let own_writes: Vec<_> = ring
        .records()
        .filter(|r| matches!(r.event.kind, EventKind::ApiRequest { .. }))
        .filter(|r| {
            r.causes.iter().any(|&c| {
                ring.get(c)
                    .is_some_and(|c| matches!(c.event.kind, EventKind::Reconcile { .. }))
            })
        })
        .map(|r| r.id)
        .collect();
    assert!(
        !own_writes.is_empty(),
        "the fixed operator still writes status"
    );
    for write in own_writes {
        for watch in run.effects_of(write) {
            for pop in run.effects_of(watch) {
                for handled in run.effects_of(pop) {
                    let kind = ring.get(handled).map(|r| r.event.kind);
                    assert_eq!(
                        kind,
                        Some(EventKind::PredicateDropped),
                        "{write} → {handled}"
                    );
                }
            }
        }
    }
    assert_eq!(run.loop_report(), None);
}

#[test]
fn causes_survive_a_checkpoint_and_a_seek() {
    let mut straight = run_of("flywheel", 3, Duration::from_secs(60));
    straight.keep_timeline(TimelineOptions::default());
    while !straight.advance(1_000_000) {}
    let reconcile = straight
        .reconcile_at(at_secs(45.0), None)
        .expect("a reconcile at 45 s");
    let why = straight.why(reconcile).expect("kept");
    let chain = straight.chain_back(reconcile);
    straight.seek(at_secs(20.0)).expect("seek back");
    assert_eq!(straight.why(reconcile), None, "not happened yet");
    straight.seek(straight.end()).expect("seek to the end");
    assert_eq!(straight.why(reconcile), Some(why.clone()));
    assert_eq!(straight.chain_back(reconcile), chain);

    let mut run = run_of("flywheel", 3, Duration::from_secs(60));
    run.advance_to(at_secs(30.0), u64::MAX);
    let checkpoint = run.checkpoint();
    while !run.advance(1_000_000) {}
    run.restore(&checkpoint);
    while !run.advance(1_000_000) {}
    assert_eq!(run.why(reconcile), Some(why));
}

#[test]
fn causality_off_keeps_nothing_and_leaves_the_trace_unchanged() {
    let on = finished(run_of("flywheel", 2, Duration::from_secs(20)));
    let mut scenario = presets::load("flywheel", &[]).expect("preset loads");
    scenario.duration = Duration::from_secs(20);
    let options = RunOptions {
        seed: Some(2),
        causal_capacity: Some(0),
        ..RunOptions::default()
    };
    let off = finished(Run::new(scenario, &options).expect("runs"));
    assert_eq!(on.trace().hash(), off.trace().hash());
    assert!(off.causal().is_empty());
    assert_eq!(off.causal().dropped_events(), off.trace().total());
    assert_eq!(off.loop_report(), None);
}

#[test]
fn a_small_ring_counts_what_fell_out_and_a_chain_ends_where_the_ring_does() {
    let mut scenario = presets::load("flywheel", &[]).expect("preset loads");
    scenario.duration = Duration::from_secs(60);
    let options = RunOptions {
        causal_capacity: Some(500),
        ..RunOptions::default()
    };
    let run = finished(Run::new(scenario, &options).expect("runs"));
    let ring = run.causal();
    assert_eq!(ring.len(), 500);
    assert_eq!(ring.dropped_events() + 500, run.trace().total());
    assert!(ring.dropped_causes() > 0);
    let newest = ring.records().next_back().expect("kept").id;
    let chain = run.chain_back(newest);
    let oldest = ring.oldest().expect("kept");
    assert!(chain.iter().rev().skip(1).all(|id| *id >= oldest));
}

#[test]
fn a_users_spec_edit_causes_its_write_and_is_the_origin_of_the_reconcile_it_triggers() {
    // The flywheel preset edits one object's spec at 5 minutes.
    let run = finished(run_of("flywheel", 1, Duration::from_secs(320)));
    let ring = run.causal();
    let edit = ring
        .records()
        .find(|r| matches!(r.event.kind, EventKind::UserAction { .. }))
        .expect("the edit is traced")
        .id;
    let writes = run.effects_of(edit);
    assert_eq!(writes.len(), 1, "one object edited");
    let write = ring.get(writes[0]).expect("kept");
    assert!(matches!(write.event.kind, EventKind::ApiRequest { .. }));
    let reconcile = ring
        .records_from(write.id)
        .filter(|r| matches!(r.event.kind, EventKind::Reconcile { .. }))
        .find(|r| run.chain_back(r.id).contains(&edit))
        .expect("a reconcile descends from the edit");
    let why = run.why(reconcile.id).expect("kept");
    assert!(
        why.adds
            .iter()
            .any(|a| matches!(a.links.first(), Some(Link::UserAction { .. }))),
        "{why}"
    );
}

#[test]
fn every_fix_a_loop_report_names_stops_the_loop_when_deployed_from_the_start() {
    use flywheel_engine::cluster::verdict::Verdict;
    use flywheel_engine::scenario::variant::Variant;
    for preset in [
        "flywheel",
        "predicate-only",
        "subresource-only",
        "observed-generation-only",
    ] {
        let run = finished(run_of(preset, 1, Duration::from_secs(60)));
        let report = run.loop_report().expect("the preset loops");
        assert!(!report.fixes.is_empty(), "{preset}: {report}");
        for fix in &report.fixes {
            let mut scenario = presets::load(preset, &[]).expect("preset loads");
            let fixed = fix.applied_to(Variant::of(&scenario));
            fixed.apply(&mut scenario);
            let options = RunOptions {
                duration: Some(Duration::from_secs(60)),
                ..RunOptions::default()
            };
            let mut fixed_run = Run::new(scenario, &options).expect("a valid scenario");
            while !fixed_run.advance(100_000) {}
            let verdict = fixed_run.verdict().verdict;
            assert_eq!(verdict, Verdict::Converged, "{preset} with {fix}");
        }
    }
}

/// Whether `r` starts a chain: a user action, the creation of the objects, a start of the
/// container, a LIST (a relist), a resync, or the kubelet's eviction.
fn is_origin(r: &CausalRecord<'_>) -> bool {
    match r.event.kind {
        EventKind::UserAction { .. }
        | EventKind::SetResources { .. }
        | EventKind::Created { .. }
        | EventKind::ContainerStarted { .. }
        | EventKind::Evicted { .. } => true,
        EventKind::ApiRequest { verb, .. } => verb == flywheel_engine::apiserver::Verb::List,
        EventKind::InformerPop { .. } => r.note == flywheel_engine::sim::CauseNote::Sync,
        _ => false,
    }
}

/// Checks that every write, watch event and enqueue of `run` has a cause, and that every
/// Reconcile's chain ends at an origin.
fn assert_every_write_and_enqueue_has_a_cause(run: &Run, what: &str) {
    let ring = run.causal();
    assert_eq!(ring.dropped_events(), 0, "{what} keeps every event");
    for r in ring.records() {
        let needs_cause = match r.event.kind {
            EventKind::ApiRequest { .. } => r.event.key.is_some(),
            EventKind::WatchEvent { .. }
            | EventKind::HandlerEnqueue { .. }
            | EventKind::PredicateDropped
            | EventKind::Reconcile { .. }
            | EventKind::Reconciled { .. } => true,
            _ => false,
        };
        assert!(
            !needs_cause || !r.causes.is_empty(),
            "{what}: {} {} has no cause",
            r.id,
            r.event
        );
        if matches!(r.event.kind, EventKind::Reconcile { .. }) {
            let chain = run.chain_back(r.id);
            let origin = chain.last().and_then(|&id| ring.get(id)).expect("kept");
            assert!(
                is_origin(&origin),
                "{what}: the chain of {} ends at {} {}",
                r.id,
                origin.id,
                origin.event
            );
        }
    }
}

#[test]
fn every_write_watch_event_and_enqueue_has_a_cause_and_every_chain_ends_at_an_origin() {
    for preset in presets::names() {
        for seed in 0..4 {
            let run = finished(run_of(preset, seed, Duration::from_secs(20)));
            assert_every_write_and_enqueue_has_a_cause(&run, &format!("{preset} seed {seed}"));
        }
    }
}

#[test]
fn an_interventions_writes_and_restarts_are_caused_by_its_kubectl_event_in_every_preset() {
    let interventions = [
        "edit_spec:3",
        "label:2",
        "delete:1",
        "delete_namespaces:1",
        "kill_operator",
        "memory_limit:512Mi",
        "status_subresource:on",
        "rollout:fixed",
        "rollout:predicate=off,guard=off",
        "limits:seats=2",
        "limits:client_qps=5,client_burst=10",
    ];
    for preset in presets::names() {
        for (seed, text) in interventions.iter().enumerate() {
            let mut run = run_of(preset, seed as u64, Duration::from_secs(20));
            let intervention = Intervention::parse(text).expect("a valid --do value");
            run.intervene_at(at_secs(6.0), intervention);
            let run = finished(run);
            assert_every_write_and_enqueue_has_a_cause(&run, &format!("{preset} --do {text}"));
        }
    }
}

#[test]
fn a_rollouts_new_container_is_started_by_the_rollout() {
    let mut run = run_of("flywheel", 1, Duration::from_secs(20));
    run.intervene_at(
        at_secs(6.0),
        Intervention::parse("rollout:fixed").expect("valid"),
    );
    let run = finished(run);
    let ring = run.causal();
    let rollout = ring
        .records()
        .find(|r| matches!(r.event.kind, EventKind::UserAction { .. }))
        .expect("the rollout is traced")
        .id;
    let started: Vec<_> = run
        .effects_of(rollout)
        .into_iter()
        .filter_map(|id| ring.get(id))
        .filter(|r| matches!(r.event.kind, EventKind::ContainerStarted { .. }))
        .map(|r| r.event.time)
        .collect();
    assert_eq!(started, [at_secs(8.0)], "the new Pod starts 2 s later");
}
