//! The fixes of the seed-001 and seed-004 presets as on/off switches (sliders with the values 0
//! and 1 in [`crate::params::PARAMS`]); each is shown only for scenarios whose Reconcile has the
//! step it changes, and maps onto one scenario field (`code.*`, `cache.*`, `controller.*`).

use std::time::Duration;

use flywheel_engine::controller::program::Step;
use flywheel_engine::scenario::{ActionKind, FinalizerMode, LogMode, PodList, Scenario};

fn has(s: &Scenario, f: fn(&Step) -> bool) -> bool {
    s.reconcile.steps.iter().any(f)
}

fn flag(on: bool) -> f64 {
    if on {
        1.0
    } else {
        0.0
    }
}

fn lists_pods(s: &Scenario) -> bool {
    has(s, |st| matches!(st, Step::ListPods))
}

/// `code.pod_list = field_index`.
pub fn get_field_index(s: &Scenario) -> Option<f64> {
    lists_pods(s).then(|| flag(s.code.pod_list == PodList::FieldIndex))
}

/// Sets `code.pod_list`.
pub fn set_field_index(s: &mut Scenario, v: f64) {
    s.code.pod_list = if v >= 0.5 {
        PodList::FieldIndex
    } else {
        PodList::AllNamespaces
    };
}

/// `cache.namespaced`.
pub fn get_namespaced(s: &Scenario) -> Option<f64> {
    lists_pods(s).then(|| flag(s.cache.namespaced))
}

/// Sets `cache.namespaced`.
pub fn set_namespaced(s: &mut Scenario, v: f64) {
    s.cache.namespaced = v >= 0.5;
}

/// `cache.metadata_only`.
pub fn get_metadata_only(s: &Scenario) -> Option<f64> {
    lists_pods(s).then(|| flag(s.cache.metadata_only))
}

/// Sets `cache.metadata_only`.
pub fn set_metadata_only(s: &mut Scenario, v: f64) {
    s.cache.metadata_only = v >= 0.5;
}

/// `code.stop_watch`.
pub fn get_stop_watch(s: &Scenario) -> Option<f64> {
    has(s, |st| matches!(st, Step::OpenWatch)).then(|| flag(s.code.stop_watch))
}

/// Sets `code.stop_watch`.
pub fn set_stop_watch(s: &mut Scenario, v: f64) {
    s.code.stop_watch = v >= 0.5;
}

/// `code.log = counts`.
pub fn get_log_counts(s: &Scenario) -> Option<f64> {
    has(s, |st| matches!(st, Step::LogObject { .. })).then(|| flag(s.code.log == LogMode::Counts))
}

/// Sets `code.log`.
pub fn set_log_counts(s: &mut Scenario, v: f64) {
    s.code.log = if v >= 0.5 {
        LogMode::Counts
    } else {
        LogMode::WholeObject
    };
}

/// `code.external_timeout` (0 or 5 s).
pub fn get_timeout(s: &Scenario) -> Option<f64> {
    has(s, |st| matches!(st, Step::ExternalCall { .. }))
        .then(|| flag(!s.code.external_timeout.is_zero()))
}

/// Sets `code.external_timeout`.
pub fn set_timeout(s: &mut Scenario, v: f64) {
    s.code.external_timeout = if v >= 0.5 {
        Duration::from_secs(5)
    } else {
        Duration::ZERO
    };
}

/// `code.finalizer = safe`.
pub fn get_safe_finalizer(s: &Scenario) -> Option<f64> {
    has(s, |st| matches!(st, Step::Finalize { .. }))
        .then(|| flag(s.code.finalizer == FinalizerMode::Safe))
}

/// Sets `code.finalizer`.
pub fn set_safe_finalizer(s: &mut Scenario, v: f64) {
    s.code.finalizer = if v >= 0.5 {
        FinalizerMode::Safe
    } else {
        FinalizerMode::RemoveOnFailure
    };
}

/// `code.check_memory_pressure`.
pub fn get_pressure_check(s: &Scenario) -> Option<f64> {
    has(s, |st| matches!(st, Step::EnsurePods)).then(|| flag(s.code.check_memory_pressure))
}

/// Sets `code.check_memory_pressure`.
pub fn set_pressure_check(s: &mut Scenario, v: f64) {
    s.code.check_memory_pressure = v >= 0.5;
}

/// `controller.handler_cost` in µs, for scenarios with a stream of annotation updates.
pub fn get_handler_cost(s: &Scenario) -> Option<f64> {
    s.actions
        .iter()
        .any(|a| a.action == ActionKind::Annotate)
        .then_some(s.controller.handler_cost.as_secs_f64() * 1e6)
}

/// Sets `controller.handler_cost`.
pub fn set_handler_cost(s: &mut Scenario, us: f64) {
    s.controller.handler_cost = Duration::from_micros(us.max(0.0) as u64);
}
