//! From the user's numbers to a scenario: the family's preset, each number written at its
//! settings path ([`crate::settings`]), a relist at a fixed instant, and the scenario's own
//! validation, so an error names the path and what it accepts.

use std::time::Duration;

use super::input::{Family, SizeError, SizeInput};
use crate::scenario::{presets, ActionKind, Scenario, ScenarioError, ScheduledAction};

/// How long the incident family runs: its 150 000-object cache syncs in about 30 s and its storm
/// starts; a minute of it takes a few seconds natively.
pub const INCIDENT_WINDOW: Duration = Duration::from_secs(60);
/// When the incident family's operator is restarted to relist.
pub const INCIDENT_RELIST_AT: Duration = Duration::from_secs(40);
/// How long the list-full-scan family runs: a few edit rounds (every 20 s), the Pod informer's
/// sync, and a relist with time to sync again.
pub const LIST_FULL_SCAN_WINDOW: Duration = Duration::from_secs(90);
/// When the list-full-scan family's operator is restarted to relist.
pub const LIST_FULL_SCAN_RELIST_AT: Duration = Duration::from_secs(45);

/// A number as a setting holds it.
#[derive(Clone, Copy, Debug)]
enum Value {
    Whole(u32),
    Bytes(u64),
    Rate(f64),
}

/// The window and relist instant of a family.
pub(super) fn window(family: Family) -> (Duration, Duration) {
    match family {
        Family::Incident => (INCIDENT_WINDOW, INCIDENT_RELIST_AT),
        Family::ListFullScan => (LIST_FULL_SCAN_WINDOW, LIST_FULL_SCAN_RELIST_AT),
    }
}

/// The scenario `input` runs: the family's preset with the numbers at their settings paths, run
/// for the family's window with a `kill_operator` at its relist instant. Checked by
/// [`Scenario::validate`]; the error names the input and the path.
pub fn build(input: &SizeInput) -> Result<Scenario, SizeError> {
    let mut scenario = presets::load(input.family.preset(), &[])
        .map_err(|error| SizeError { input: "", error })?;
    let sets = settings_of(input, &scenario);
    for (owner, path, value) in &sets {
        let blame = |error| SizeError {
            input: owner,
            error,
        };
        crate::settings::check_path(path).map_err(blame)?;
        assign(&mut scenario, path, *value).map_err(blame)?;
    }
    let (duration, relist_at) = window(input.family);
    scenario.duration = duration;
    scenario
        .actions
        .push(ScheduledAction::once(relist_at, ActionKind::KillOperator));
    scenario.name = format!("size-{}", input.family.as_str());
    scenario.validate().map_err(|error| SizeError {
        input: owner_of(&sets, &error.field),
        error,
    })?;
    Ok(scenario)
}

/// The input that wrote `field`, if any.
fn owner_of(sets: &[(&'static str, &'static str, Value)], field: &str) -> &'static str {
    sets.iter()
        .find(|(_, path, _)| *path == field)
        .map_or("", |(owner, _, _)| owner)
}

/// Each number as `(input, settings path, value)`. Each custom resource keeps the family's
/// Pods per object, fewer when the Pods would not hold them.
fn settings_of(input: &SizeInput, preset: &Scenario) -> Vec<(&'static str, &'static str, Value)> {
    let mut sets = Vec::new();
    if let Some(c) = input.custom {
        sets.push(("objects", "objects.count", Value::Whole(c.objects)));
        sets.push(("objects", "objects.size_bytes", Value::Bytes(c.size_bytes)));
    }
    if let Some(p) = input.pods {
        sets.push(("objects", "pods.count", Value::Whole(p.objects)));
        sets.push(("objects", "pods.size_bytes", Value::Bytes(p.size_bytes)));
        let metadata = preset.pods.metadata_size_bytes.min(p.size_bytes);
        sets.push((
            "objects",
            "pods.metadata_size_bytes",
            Value::Bytes(metadata),
        ));
    }
    let objects = input.custom.map_or(preset.objects.count, |c| c.objects);
    let pods = input.pods.map_or(preset.pods.count, |p| p.objects);
    if objects > 0 && preset.pods.per_object > 0 {
        let per_object = preset.pods.per_object.min(pods / objects);
        sets.push(("objects", "pods.per_object", Value::Whole(per_object)));
    }
    if let Some(n) = input.namespaces {
        sets.push(("namespaces", "objects.namespaces", Value::Whole(n)));
        if pods > 0 {
            sets.push(("namespaces", "pods.namespaces", Value::Whole(n)));
        }
    }
    if let Some(w) = input.workers {
        sets.push(("workers", "controller.workers", Value::Whole(w)));
    }
    if let Some(q) = input.qps {
        sets.push(("qps", "client.qps", Value::Rate(q)));
    }
    if let Some(l) = input.memory_limit_bytes {
        sets.push(("limit", "process.memory_limit", Value::Bytes(l)));
    }
    sets
}

/// Writes `value` at `path`.
fn assign(s: &mut Scenario, path: &str, value: Value) -> Result<(), ScenarioError> {
    match (path, value) {
        ("objects.count", Value::Whole(v)) => s.objects.count = v,
        ("objects.size_bytes", Value::Bytes(v)) => s.objects.size_bytes = v,
        ("objects.namespaces", Value::Whole(v)) => s.objects.namespaces = v,
        ("pods.count", Value::Whole(v)) => s.pods.count = v,
        ("pods.size_bytes", Value::Bytes(v)) => s.pods.size_bytes = v,
        ("pods.namespaces", Value::Whole(v)) => s.pods.namespaces = v,
        ("pods.per_object", Value::Whole(v)) => s.pods.per_object = v,
        ("pods.metadata_size_bytes", Value::Bytes(v)) => s.pods.metadata_size_bytes = v,
        ("controller.workers", Value::Whole(v)) => s.controller.workers = v,
        ("client.qps", Value::Rate(v)) => s.client.qps = Some(v),
        ("process.memory_limit", Value::Bytes(v)) => s.process.memory_limit = Some(v),
        _ => {
            return Err(ScenarioError {
                field: path.to_owned(),
                message: "is not a number the size panel sets".to_owned(),
            })
        }
    }
    Ok(())
}
