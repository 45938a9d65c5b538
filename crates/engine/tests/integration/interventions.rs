//! Interventions (issue 16 §4): each is the Kubernetes operation it names, applied at any
//! instant of a run, from `Run::intervene`, a scenario action or a fork.

use std::time::Duration;

use flywheel_engine::apiserver::WatchEventType;
use flywheel_engine::cluster::intervention::Intervention;
use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::cluster::target::Target;
use flywheel_engine::cluster::timeline::TimelineOptions;
use flywheel_engine::scenario::{self, presets};
use flywheel_engine::sim::{EventKind, TraceEvent};
use flywheel_engine::SimTime;

fn at(secs: u64) -> SimTime {
    SimTime::ZERO + Duration::from_secs(secs)
}

fn run_of(preset: &str, duration_s: u64) -> Run {
    let scenario = presets::load(preset, &[]).expect("preset loads");
    let options = RunOptions {
        duration: Some(Duration::from_secs(duration_s)),
        ..RunOptions::default()
    };
    Run::new(scenario, &options).expect("preset runs")
}

fn parse(text: &str) -> Intervention {
    Intervention::parse(text).expect("a valid --do value")
}

/// Runs to `until` (capped at the end), collecting every traced event (the ring keeps only
/// the newest, so the run goes in steps smaller than it).
fn collect_to(run: &mut Run, until: SimTime, into: &mut Vec<TraceEvent>) {
    let until = until.min(run.end());
    loop {
        into.extend(run.trace_since(into.len() as u64).cloned());
        let pending = run.now() < until;
        if !pending || run.advance_to(until, 2_000) == 0 {
            into.extend(run.trace_since(into.len() as u64).cloned());
            return;
        }
    }
}

fn count(
    events: &[TraceEvent],
    from: SimTime,
    to: SimTime,
    f: impl Fn(&EventKind) -> bool,
) -> usize {
    events
        .iter()
        .filter(|e| e.time >= from && e.time < to && f(&e.kind))
        .count()
}

fn own_write_enqueue(kind: &EventKind) -> bool {
    matches!(kind, EventKind::HandlerEnqueue { own_write: true })
}

fn reconcile(kind: &EventKind) -> bool {
    matches!(kind, EventKind::Reconcile { .. })
}

fn lines(events: &[TraceEvent], from: SimTime) -> Vec<String> {
    events
        .iter()
        .filter(|e| e.time >= from)
        .map(ToString::to_string)
        .collect()
}

#[test]
fn rolling_out_the_fixed_version_mid_flywheel_ends_the_self_triggered_loop() {
    let mut broken = run_of("flywheel", 240);
    let mut rolled = run_of("flywheel", 240);
    let (mut before, mut after) = (Vec::new(), Vec::new());
    collect_to(&mut broken, at(240), &mut before);
    collect_to(&mut rolled, at(120), &mut after);
    rolled.intervene(parse("rollout:fixed"));
    collect_to(&mut rolled, at(240), &mut after);

    let window = (at(150), at(240));
    let loop_before = count(&before, window.0, window.1, own_write_enqueue);
    assert!(
        loop_before > 100,
        "the flywheel spins without the rollout: {loop_before}"
    );
    assert_eq!(count(&after, window.0, window.1, own_write_enqueue), 0);
    assert_eq!(count(&after, window.0, window.1, reconcile), 0);
    let text = lines(&after, at(120)).join("\n");
    assert!(text.contains("kubectl Rollout"), "{text}");
    assert!(text.contains("kubelet ContainerStarted incarnation=2"));
    assert!(rolled.scenario().crd.status_subresource);
}

#[test]
fn a_rollout_starts_a_new_pod_that_lists_syncs_and_runs_its_workers_with_the_new_code() {
    let mut run = run_of("flywheel", 60);
    let mut events = Vec::new();
    collect_to(&mut run, at(30), &mut events);
    run.intervene(parse("rollout:predicate=on,guard=on"));
    collect_to(&mut run, at(60), &mut events);
    let after = lines(&events, at(30));
    let position = |needle: &str| after.iter().position(|l| l.contains(needle));
    let rollout = position("kubectl Rollout").expect("traced");
    let started = position("ContainerStarted incarnation=2").expect("a new Pod");
    let listed = position("apiserver LIST").expect("the new Pod lists");
    let workers = position("StartingWorkers").expect("its workers start");
    assert!(
        rollout < started && started < listed && listed < workers,
        "{after:#?}"
    );
    let scenario = &run.scenario();
    assert!(
        !scenario.crd.status_subresource,
        "predicate and guard keep the CRD"
    );
    assert!(scenario.reconcile.has_observed_generation_guard());
}

#[test]
fn removing_the_status_subresource_makes_status_update_404() {
    let mut run = run_of("subresource+predicate", 120);
    let mut events = Vec::new();
    collect_to(&mut run, at(60), &mut events);
    let not_found = |e: &TraceEvent| {
        matches!(e.kind, EventKind::ApiRequest { code: 404, .. }) && e.to_string().contains("PUT")
    };
    assert!(!events.iter().any(not_found));
    run.intervene(parse("status_subresource:off"));
    run.intervene_at(at(70), parse("edit_spec:1"));
    collect_to(&mut run, at(120), &mut events);
    assert!(
        events.iter().any(|e| e.time >= at(70) && not_found(e)),
        "{:#?}",
        lines(&events, at(60))
    );
    assert!(lines(&events, at(60))
        .iter()
        .any(|l| l.contains("kubectl SetStatusSubresource")));
}

#[test]
fn adding_the_status_subresource_to_the_flywheel_crd_makes_its_full_updates_no_ops_and_ends_the_loop(
) {
    let mut run = run_of("flywheel", 180);
    let mut events = Vec::new();
    collect_to(&mut run, at(60), &mut events);
    assert!(count(&events, at(30), at(60), own_write_enqueue) > 0);
    run.intervene(parse("status_subresource:on"));
    collect_to(&mut run, at(180), &mut events);
    assert_eq!(count(&events, at(90), at(180), own_write_enqueue), 0);
}

#[test]
fn a_memory_limit_change_replaces_the_pod_without_a_crash() {
    let mut run = run_of("fixed", 60);
    let mut events = Vec::new();
    collect_to(&mut run, at(20), &mut events);
    run.intervene(parse("memory_limit:512Mi"));
    collect_to(&mut run, at(60), &mut events);
    let after = lines(&events, at(20));
    assert!(after.iter().any(|l| l.contains("kubectl SetResources")));
    assert!(after
        .iter()
        .any(|l| l.contains("ContainerStarted incarnation=2")));
    assert!(!after
        .iter()
        .any(|l| l.contains("kubelet Error") || l.contains("OOMKilled")));
    let limit = run.scenario().process.memory_limit;
    assert_eq!(limit, Some(512 * 1024 * 1024));
}

#[test]
fn killing_the_operator_restarts_its_container_after_an_error() {
    let mut run = run_of("fixed", 60);
    let mut events = Vec::new();
    collect_to(&mut run, at(20), &mut events);
    run.intervene(Intervention::KillOperator);
    collect_to(&mut run, at(60), &mut events);
    let after = lines(&events, at(20));
    assert!(
        after.iter().any(|l| l.contains("kubelet Error")),
        "{after:#?}"
    );
    assert!(after
        .iter()
        .any(|l| l.contains("ContainerStarted incarnation=2")));
}

#[test]
fn editing_a_spec_wakes_the_quiet_fixed_operator_once() {
    let mut run = run_of("fixed", 60);
    let mut events = Vec::new();
    collect_to(&mut run, at(20), &mut events);
    assert_eq!(count(&events, at(10), at(20), reconcile), 0);
    run.intervene(Intervention::EditSpec {
        target: Target::First(1),
    });
    collect_to(&mut run, at(60), &mut events);
    assert_eq!(count(&events, at(20), at(60), reconcile), 1);
    let after = lines(&events, at(20));
    assert!(after.iter().any(|l| l.contains("kubectl EditSpec")));
}

#[test]
fn deleting_every_object_empties_the_store() {
    let mut run = run_of("fixed", 60);
    run.advance_to(at(20), u64::MAX);
    assert_eq!(run.snapshot().objects, 10);
    run.intervene(Intervention::Delete {
        target: Target::All,
    });
    run.advance_to(at(60), u64::MAX);
    assert_eq!(run.snapshot().objects, 0);
}

#[test]
fn new_flow_control_limits_apply_at_once_and_a_new_client_qps_takes_a_new_pod() {
    let mut run = run_of("fixed", 60);
    let mut events = Vec::new();
    collect_to(&mut run, at(20), &mut events);
    run.intervene(parse("limits:seats=2"));
    collect_to(&mut run, at(30), &mut events);
    assert_eq!(run.scenario().apiserver.seats, 2);
    assert!(!lines(&events, at(20))
        .iter()
        .any(|l| l.contains("ContainerStarted")));
    run.intervene(parse("limits:client_qps=5,client_burst=10"));
    collect_to(&mut run, at(60), &mut events);
    assert_eq!(run.scenario().client.qps, Some(5.0));
    let after = lines(&events, at(30));
    assert!(after.iter().any(|l| l.contains("kubectl SetApiLimits")));
    assert!(after
        .iter()
        .any(|l| l.contains("ContainerStarted incarnation=2")));
}

#[test]
fn an_intervention_in_a_fork_leaves_the_old_branch_unchanged() {
    let mut run = run_of("flywheel", 120);
    run.keep_timeline(TimelineOptions::default());
    while !run.advance(100_000) {}
    let main_end = (run.trace().hash(), run.events());
    run.seek(at(60)).expect("timeline kept");
    let main = run.current_branch().expect("a branch");
    let fixed = run
        .fork_with("fixed at 1m", |r| {
            r.intervene(parse("rollout:fixed"));
        })
        .expect("fork");
    while !run.advance(100_000) {}
    let fixed_end = (run.trace().hash(), run.events());
    assert_ne!(fixed_end.0, main_end.0);
    run.switch_branch(main).expect("kept");
    run.seek(run.end()).expect("to the end");
    assert_eq!((run.trace().hash(), run.events()), main_end);
    run.switch_branch(fixed).expect("kept");
    run.seek(at(90)).expect("back on the fork");
    run.seek(run.end()).expect("to its end");
    assert_eq!((run.trace().hash(), run.events()), fixed_end);
}

#[test]
fn intervening_after_a_seek_back_forks_a_branch_and_keeps_the_old_future() {
    let mut run = run_of("flywheel", 120);
    run.keep_timeline(TimelineOptions::default());
    while !run.advance(100_000) {}
    let main_end = (run.trace().hash(), run.events());
    let main = run.current_branch().expect("a branch");
    run.seek(at(30)).expect("timeline kept");
    let fork = run.intervene(parse("rollout:fixed")).expect("a new branch");
    assert_eq!(run.branches().len(), 2);
    assert_eq!(run.branches()[1].label, "Rollout at 30.000s");
    while !run.advance(100_000) {}
    assert_ne!(run.trace().hash(), main_end.0);
    assert_eq!(run.current_branch(), Some(fork));
    run.switch_branch(main).expect("kept");
    run.seek(run.end()).expect("to the end");
    assert_eq!((run.trace().hash(), run.events()), main_end);
}

#[test]
fn with_a_timeline_an_intervention_starts_a_branch_whose_seeks_replay_it() {
    let mut run = run_of("flywheel", 120);
    run.keep_timeline(TimelineOptions::default());
    run.advance_to(at(30), u64::MAX);
    let branch = run.intervene(parse("rollout:fixed"));
    assert!(branch.is_some());
    assert_eq!(run.branches().len(), 2);
    while !run.advance(100_000) {}
    let end = (run.trace().hash(), run.events());
    run.seek(at(45)).expect("timeline kept");
    assert_eq!(run.current_branch(), branch);
    run.seek(run.end()).expect("to the end");
    assert_eq!((run.trace().hash(), run.events()), end);
}

#[test]
fn a_scenario_action_rolls_out_as_run_intervene_does() {
    let text = presets::text("flywheel").expect("preset text");
    let with_rollout =
        format!("{text}\n[[actions]]\nat = \"2m\"\ndo = \"rollout\"\nto = \"fixed\"\n");
    let scenario = scenario::parse(&with_rollout, &[]).expect("valid");
    let options = RunOptions {
        duration: Some(Duration::from_secs(240)),
        ..RunOptions::default()
    };
    let mut by_action = Run::new(scenario, &options).expect("runs");
    let mut by_call = run_of("flywheel", 240);
    by_call.intervene_at(at(120), parse("rollout:fixed"));
    let (mut a, mut b) = (Vec::new(), Vec::new());
    collect_to(&mut by_action, at(240), &mut a);
    collect_to(&mut by_call, at(240), &mut b);
    assert_eq!(lines(&a, SimTime::ZERO), lines(&b, SimTime::ZERO));
}

#[test]
fn scenario_actions_name_the_field_and_what_it_allows() {
    let text = presets::text("flywheel").expect("preset text");
    let cases = [
        (
            "do = \"rollout\"",
            "actions[1].to",
            "is required by rollout",
        ),
        (
            "do = \"edit_spec\"\nto = \"x\"",
            "actions[1].to",
            "only for rollout",
        ),
        (
            "do = \"rollout\"\nto = \"nope\"",
            "actions[1].to",
            "must name a preset",
        ),
        (
            "do = \"set_status_subresource\"\nto = \"maybe\"",
            "actions[1].to",
            "on or off",
        ),
        (
            "do = \"set_api_limits\"\nto = \"seats=0\"",
            "actions[1].to",
            "seats must be",
        ),
        (
            "do = \"set_api_limits\"\nto = \"speed=1\"",
            "actions[1].to",
            "limits keys are",
        ),
    ];
    for (action, field, words) in cases {
        let doc = format!("{text}\n[[actions]]\nat = \"1m\"\n{action}\n");
        let err = scenario::parse(&doc, &[]).expect_err(action);
        assert_eq!(err.field, field, "{action}");
        assert!(err.message.contains(words), "{action}: {}", err.message);
    }
}

fn deleted_keys(events: &[TraceEvent], from: SimTime) -> Vec<String> {
    let mut keys: Vec<String> = events
        .iter()
        .filter(|e| e.time >= from)
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::WatchEvent {
                    event_type: WatchEventType::Deleted,
                    ..
                }
            )
        })
        .map(|e| e.key_str().to_owned())
        .collect();
    keys.dedup();
    keys
}

#[test]
fn deleting_ns_0_demo_3_in_the_flywheel_removes_exactly_that_object() {
    let mut run = run_of("flywheel", 40);
    let mut events = Vec::new();
    collect_to(&mut run, at(3), &mut events);
    let before = run.object_keys(usize::MAX);
    assert!(before.contains(&"ns-0/demo-3".to_owned()), "{before:?}");
    run.intervene(parse("delete:ns-0/demo-3"));
    collect_to(&mut run, at(10), &mut events);
    assert_eq!(deleted_keys(&events, at(3)), vec!["ns-0/demo-3".to_owned()]);
    let after = run.object_keys(usize::MAX);
    let kept: Vec<String> = before.into_iter().filter(|k| k != "ns-0/demo-3").collect();
    assert_eq!(after, kept);
}

#[test]
fn labelling_and_editing_a_named_object_change_that_object_only() {
    let mut run = run_of("fixed", 40);
    run.advance_to(at(10), u64::MAX);
    run.intervene(parse("label:ns-0/demo-3"));
    run.advance_to(at(15), u64::MAX);
    run.intervene(parse("edit_spec:ns-0/demo-3"));
    run.advance_to(at(20), u64::MAX);
    let labelled = |key: &str| {
        let object = run.inspect(key).expect("stored").object;
        let label = object
            .metadata
            .labels
            .as_ref()
            .and_then(|l| l.get("touched-by").cloned());
        (label, object.spec["replicas"].as_i64())
    };
    let (label, replicas) = labelled("ns-0/demo-3");
    assert_eq!(label.as_deref(), Some("kubectl"));
    let (other_label, other_replicas) = labelled("ns-0/demo-0");
    assert_eq!(other_label, None);
    assert_eq!(replicas, other_replicas.map(|r| r + 1));
}

#[test]
fn an_intervention_on_an_unknown_key_is_refused_naming_it_and_one_that_exists() {
    let mut run = run_of("flywheel", 40);
    run.advance_to(at(3), u64::MAX);
    let err = run
        .check(&parse("delete:ns-0/demo-99"))
        .expect_err("no such object");
    assert!(err.contains("ns-0/demo-99"), "{err}");
    assert!(err.contains("ns-0/demo-0"), "{err}");
    assert!(run.check(&parse("delete:ns-0/demo-3")).is_ok());
    assert!(run.check(&parse("delete:1")).is_ok());
}

/// The flywheel preset's file with its one action replaced by `action` (TOML lines).
fn flywheel_with_action(action: &str) -> Result<scenario::Scenario, scenario::ScenarioError> {
    let text = presets::text("flywheel").expect("a preset");
    let head = text
        .split("[[actions]]")
        .next()
        .expect("text before the actions");
    let tail = text
        .split_once("\n[text.en]")
        .map(|(_, t)| t)
        .expect("texts");
    scenario::parse(
        &format!("{head}[[actions]]\n{action}\n\n[text.en]{tail}"),
        &[],
    )
}

#[test]
fn a_scenario_action_naming_an_object_deletes_that_object_only() {
    let scenario = flywheel_with_action("at = \"3s\"\ndo = \"delete\"\nobject = \"ns-0/demo-3\"")
        .expect("a valid scenario");
    let options = RunOptions {
        duration: Some(Duration::from_secs(10)),
        ..RunOptions::default()
    };
    let mut run = Run::new(scenario, &options).expect("runs");
    let mut events = Vec::new();
    collect_to(&mut run, at(10), &mut events);
    assert_eq!(deleted_keys(&events, at(3)), vec!["ns-0/demo-3".to_owned()]);
    assert!(!run
        .object_keys(usize::MAX)
        .contains(&"ns-0/demo-3".to_owned()));
    assert!(run
        .object_keys(usize::MAX)
        .contains(&"ns-0/demo-2".to_owned()));
}

#[test]
fn a_scenario_action_naming_an_object_that_the_run_never_creates_is_refused_on_its_field() {
    let err = flywheel_with_action("at = \"3s\"\ndo = \"label\"\nobject = \"ns-0/demo-99\"")
        .expect_err("the flywheel creates ten objects");
    assert_eq!(err.field, "actions[0].object");
    assert!(err.message.contains("ns-0/demo-99"), "{}", err.message);
    assert!(err.message.contains("ns-0/demo-0"), "{}", err.message);
}

#[test]
fn a_scenario_action_naming_an_object_refuses_a_count_beside_it_and_actions_on_no_object() {
    let both =
        flywheel_with_action("at = \"3s\"\ndo = \"delete\"\nobject = \"ns-0/demo-3\"\ncount = 2")
            .expect_err("object and count");
    assert_eq!(both.field, "actions[0].object");
    assert!(both.message.contains("count"), "{}", both.message);
    let kill =
        flywheel_with_action("at = \"3s\"\ndo = \"kill_operator\"\nobject = \"ns-0/demo-3\"")
            .expect_err("kill_operator acts on no object");
    assert_eq!(kill.field, "actions[0].object");
    assert!(kill.message.contains("kill_operator"), "{}", kill.message);
}
