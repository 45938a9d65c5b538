//! A `list` step on the custom resource copies only what its scope selects from the cache.

use std::time::Duration;

use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::controller::program::{ListScope, Step};
use flywheel_engine::scenario::{presets, Scenario};

const LIST_COPIES: &str = "flywheel_heap_live_bytes{owner=\"list_copies\"}";

/// The converging preset with 400 objects of 256 KiB in 20 namespaces and a `list` after `Get`.
fn scenario(scope: Option<ListScope>) -> Scenario {
    let mut s = presets::load("fixed", &[]).expect("preset loads");
    s.objects.count = 400;
    s.objects.namespaces = 20;
    s.objects.size_bytes = 256 * 1024;
    if let Some(scope) = scope {
        let kind = s.crd.kind.clone();
        s.reconcile.steps.insert(1, Step::List { kind, scope });
    }
    s
}

/// The most heap that List copies held at once over a 20-second run.
fn peak_list_copies_bytes(scope: Option<ListScope>) -> f64 {
    let options = RunOptions {
        duration: Some(Duration::from_secs(20)),
        ..RunOptions::default()
    };
    let mut run = Run::new(scenario(scope), &options).expect("run starts");
    while !run.advance(1_000_000) {}
    let report = run.report();
    let series = report
        .series
        .get(LIST_COPIES)
        .expect("list copies are sampled");
    series.iter().map(|p| p.1).fold(0.0, f64::max)
}

#[test]
fn a_cluster_wide_list_copies_every_object_a_namespaced_one_its_namespace_an_indexed_one_its_match()
{
    const OBJECT: f64 = 256.0 * 1024.0;
    let none = peak_list_copies_bytes(None);
    let all = peak_list_copies_bytes(Some(ListScope::AllNamespaces));
    let namespace = peak_list_copies_bytes(Some(ListScope::Namespace));
    let indexed = peak_list_copies_bytes(Some(ListScope::FieldIndex {
        field: ".metadata.name".into(),
    }));
    assert_eq!(none, 0.0, "no List, no copies");
    // the copies of one reconcile at a time (one worker): 400 objects, the 20 of one
    // namespace, the one whose name matches
    assert!(all >= 300.0 * OBJECT, "all: {all} bytes");
    assert!(
        (19.0 * OBJECT..=21.0 * OBJECT).contains(&namespace),
        "namespace: {namespace}"
    );
    assert!(
        (0.9 * OBJECT..=1.1 * OBJECT).contains(&indexed),
        "indexed: {indexed}"
    );
}

#[test]
fn a_list_step_of_another_kind_is_refused_and_points_at_list_pods() {
    let mut s = scenario(None);
    s.reconcile.steps.push(Step::List {
        kind: "Pod".into(),
        scope: ListScope::AllNamespaces,
    });
    let err = s
        .validate()
        .expect_err("a list of Pods is not the custom resource's cache");
    let text = err.to_string();
    assert!(text.contains(".list.kind"), "{text}");
    assert!(text.contains("list_pods"), "{text}");
}

#[test]
fn a_field_index_on_a_field_that_cannot_be_read_is_refused_naming_the_field() {
    let mut s = scenario(None);
    let kind = s.crd.kind.clone();
    let scope = ListScope::FieldIndex {
        field: "spec.owner".into(),
    };
    s.reconcile.steps.push(Step::List { kind, scope });
    let text = s
        .validate()
        .expect_err("a field without its leading dot")
        .to_string();
    assert!(text.contains("field_index.field"), "{text}");
    assert!(text.contains("\"spec.owner\""), "{text}");
}

#[test]
fn field_values_reads_metadata_labels_and_spec_paths() {
    use flywheel_engine::object::{field_values, Object};
    let mut o = Object::new("MyCRD", "ns-1", "demo-0");
    o.spec = serde_json::json!({ "owner": { "name": "parent" }, "replicas": 3 }).into();
    assert_eq!(field_values(&o, ".metadata.name"), ["demo-0"]);
    assert_eq!(field_values(&o, ".spec.owner.name"), ["parent"]);
    assert_eq!(field_values(&o, ".spec.replicas"), ["3"]);
    assert!(field_values(&o, ".spec.missing").is_empty());
    assert!(field_values(&o, ".metadata.labels.app").is_empty());
}
