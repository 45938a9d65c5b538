//! Tests of scenario parsing, overrides and validation.

use super::*;

const MINIMAL: &str = r#"
name = "t"
title = "T"
[reconcile]
steps = ["get", { write = { verb = "update" } }]
"#;

fn set(k: &str, v: &str) -> (String, String) {
    (k.to_owned(), v.to_owned())
}

#[test]
fn a_minimal_file_gets_upstream_defaults() {
    let s = parse(MINIMAL, &[]).expect("minimal scenario parses");
    assert_eq!(
        s.controller.workers, 1,
        "MaxConcurrentReconciles defaults to 1"
    );
    assert_eq!(s.profile, Profile::Seed);
    assert_eq!(s.fifo_kind(), FifoKind::DeltaFifo);
    assert_eq!(s.queue_kind(), QueueKind::Classic);
    assert_eq!(
        s.client_rate_limit(),
        Some((20.0, 30)),
        "controller-runtime v0.15 sets QPS 20 / burst 30"
    );
    assert_eq!(s.apiserver.seats, 245, "workload-low's nominal concurrency");
}

#[test]
fn the_modern_profile_switches_fifo_queue_and_client_limiter() {
    let s = parse(MINIMAL, &[set("profile", "modern")]).expect("parses");
    // client-go v0.36 builds the atomic RealFIFO (gate `AtomicFIFO`, beta and on since 1.36;
    // client-go `features/known_features.go`, `tools/cache/controller.go` newQueueFIFO).
    assert_eq!(s.fifo_kind(), FifoKind::AtomicFifo);
    assert_eq!(s.queue_kind(), QueueKind::Priority);
    assert_eq!(
        s.client_rate_limit(),
        None,
        "controller-runtime >= v0.21 turns client-side limiting off"
    );
}

#[test]
fn an_unknown_field_is_named_with_its_path() {
    let err = parse(MINIMAL, &[set("controller.workrs", "4")]).expect_err("unknown field");
    assert_eq!(err.field, "controller.workrs");
    assert_eq!(
        err.message,
        "is not a setting (did you mean controller.workers?)"
    );
}

#[test]
fn an_out_of_range_value_names_the_field_and_the_range() {
    let err = parse(MINIMAL, &[set("controller.workers", "0")]).expect_err("zero workers");
    assert_eq!(err.field, "controller.workers");
    assert!(err.message.contains("from 1 to 1000"), "{err}");
    let err = parse(MINIMAL, &[set("objects.count", "9999999")]).expect_err("too many objects");
    assert_eq!(err.field, "objects.count");
}

#[test]
fn a_value_of_the_wrong_type_names_the_field() {
    let err = parse(MINIMAL, &[set("controller.workers", "many")]).expect_err("not a number");
    assert_eq!(err.field, "controller.workers");
    let err = parse(MINIMAL, &[set("duration", "ten minutes")]).expect_err("bad duration");
    assert_eq!(err.field, "duration");
    assert!(err.message.contains("10m"), "{err}");
}

#[test]
fn sets_reach_nested_sections_and_units() {
    let s = parse(
        MINIMAL,
        &[
            set("crd.status_subresource", "true"),
            set("process.memory_limit", "512Mi"),
            set("duration", "90s"),
        ],
    )
    .expect("parses");
    assert!(s.crd.status_subresource);
    assert_eq!(s.process.memory_limit, Some(512 * 1024 * 1024));
    assert_eq!(s.duration, std::time::Duration::from_secs(90));
}

#[test]
fn malformed_toml_is_an_error_not_a_panic() {
    for text in [
        "name = ",
        "[[[",
        "name = \"x\"\n[reconcile]\nsteps = [{ nope = 1 }]",
        "",
    ] {
        assert!(parse(text, &[]).is_err(), "{text:?}");
    }
}

#[test]
fn a_bad_set_key_is_refused() {
    assert!(split_set("novalue").is_err());
    let err = parse(MINIMAL, &[set("a..b", "1")]).expect_err("empty path part");
    assert_eq!(err.field, "a..b");
    let err = parse(MINIMAL, &[set("name.x", "1")]).expect_err("not a section");
    assert!(err.message.contains("not a section"), "{err}");
}

#[test]
fn a_reconcile_program_is_validated_with_its_step_index() {
    let text = MINIMAL.replace(
        r#"["get", { write = { verb = "update" } }]"#,
        r#"["get", { external_cleanup = { duration = "1s", failure_probability = 2.0 } }]"#,
    );
    let err = parse(&text, &[]).expect_err("probability above 1");
    assert_eq!(
        err.field,
        "reconcile.steps[1].external_cleanup.failure_probability"
    );
}

/// kubernetes `pkg/apis/core/v1/helper/qos/qos.go` `GetPodQOS`, memory only.
#[test]
fn owned_pods_qos_class_follows_their_memory_request_and_limit() {
    use super::{PodsConfig, QosClass};
    let mi = 1024 * 1024;
    let pods = |memory_request, memory_limit| PodsConfig {
        memory_request,
        memory_limit,
        memory_usage: 0,
        ..PodsConfig::default()
    };
    assert_eq!(pods(0, 0).qos_class(), QosClass::BestEffort);
    assert_eq!(pods(256 * mi, 256 * mi).qos_class(), QosClass::Guaranteed);
    assert_eq!(pods(256 * mi, 2048 * mi).qos_class(), QosClass::Burstable);
    assert_eq!(pods(0, 2048 * mi).qos_class(), QosClass::Burstable);
    assert!(pods(0, 0).validate(1, 1).is_ok(), "no request, no limit");
    let e = pods(256 * mi, 0)
        .validate(1, 1)
        .expect_err("a request without a limit");
    assert_eq!(e.field, "pods.memory_limit");
}

#[test]
fn placement_parses_from_its_snake_case_name() {
    use super::Placement;
    let p: Placement = serde_json::from_str("\"node_name\"").expect("parses");
    assert_eq!(p, Placement::NodeName);
    assert_eq!(p.as_str(), "node_name");
    assert_eq!(Placement::default(), Placement::Scheduler);
    assert!(serde_json::from_str::<Placement>("\"nodeName\"").is_err());
}

#[test]
fn each_action_is_named_as_a_scenario_file_writes_it() {
    for kind in ActionKind::ALL {
        let written = serde_json::to_value(kind).expect("an action writes out");
        assert_eq!(written.as_str(), Some(kind.as_str()), "{kind:?}");
        let back: ActionKind = serde_json::from_value(written).expect("and reads back");
        assert_eq!(back, kind);
    }
    let mut names: Vec<_> = ActionKind::ALL.iter().map(|k| k.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), ActionKind::ALL.len(), "each action once");
}
