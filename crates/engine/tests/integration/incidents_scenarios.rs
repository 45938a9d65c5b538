//! The incident presets' scenario fields: strict validation naming the field, and the Go code
//! each fix changes.

use flywheel_engine::controller::go_code::{render_with, GoCodeContext};
use flywheel_engine::scenario::{self, presets};

fn sets(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn go(preset: &str, pairs: &[(&str, &str)]) -> String {
    let s = presets::load(preset, &sets(pairs)).expect("loads");
    let ctx = GoCodeContext {
        kind: &s.crd.kind,
        status_subresource: s.crd.status_subresource,
        predicates: &[],
    };
    render_with(&s.reconcile, &ctx, &s.code, &s.cache).join("\n")
}

#[test]
fn bad_incident_fields_are_errors_that_name_the_field() {
    let cases = [
        ("code.pod_list", "\"everything\"", "code.pod_list"),
        ("code.placement", "\"anywhere\"", "code.placement"),
        ("pods.memory_limit", "\"0\"", "pods.memory_limit"),
        ("pods.count", "600000", "pods.count"),
        ("pods.per_object", "1000", "pods.per_object"),
        (
            "nodes.eviction_interval",
            "\"0s\"",
            "nodes.eviction_interval",
        ),
        ("code.external_timeout", "\"2h\"", "code.external_timeout"),
        ("cache.namespaced", "\"yes\"", "cache.namespaced"),
    ];
    for (key, value, field) in cases {
        let err = presets::load("list-full-scan", &sets(&[(key, value)]))
            .expect_err(&format!("{key}={value} is refused"));
        assert!(err.field.starts_with(field), "{key}: {err}");
    }
    let err = presets::load("list-full-scan", &sets(&[("objects.count", "20000")]))
        .expect_err("more owned Pods than Pods");
    assert_eq!(err.field, "pods.count", "{err}");
}

#[test]
fn a_step_with_an_out_of_range_value_names_its_index() {
    let text = presets::text("log-whole-object")
        .expect("preset")
        .replace("times = 16", "times = 0");
    let err = scenario::parse(&text, &[]).expect_err("times = 0");
    assert_eq!(err.field, "reconcile.steps[1].log_object.times", "{err}");
}

#[test]
fn each_fix_shows_in_the_go_code_it_stands_for() {
    let broken = go("list-full-scan", &[]);
    assert!(broken.contains("r.List(ctx, &pods); err != nil"));
    let fixed = go(
        "list-full-scan",
        &[
            ("code.pod_list", "field_index"),
            ("cache.namespaced", "true"),
        ],
    );
    assert!(fixed.contains("IndexField(context.Background(), &corev1.Pod{}, ownerKey"));
    assert!(fixed.contains("client.MatchingFields{ownerKey: obj.Name}"));
    assert!(fixed.contains("DefaultNamespaces"));
    assert!(go("list-full-scan", &[("cache.metadata_only", "true")]).contains("OnlyMetadata"));
    assert!(go("watch-leak", &[("code.stop_watch", "true")]).contains("defer w.Stop()"));
    assert!(go("log-whole-object", &[]).contains("\"obj\", obj"));
    assert!(
        go("log-whole-object", &[("code.log", "counts")]).contains("len(obj.Status.Conditions)")
    );
    assert!(go("no-context-timeout", &[("code.external_timeout", "5s")])
        .contains("context.WithTimeout(ctx, 5 * time.Second)"));
    assert!(go("finalizer-unsafe", &[]).contains("removing the finalizer anyway"));
    assert!(go("finalizer-unsafe", &[("code.finalizer", "safe")]).contains("keep the finalizer"));
    assert!(
        go("eviction-loop", &[("code.check_memory_pressure", "true")])
            .contains("nodeUnderMemoryPressure")
    );
    assert!(go("eviction-loop", &[]).contains("pod.Spec.NodeName = "));
    assert!(!go("eviction-loop", &[("code.placement", "scheduler")]).contains("NodeName"));
}
