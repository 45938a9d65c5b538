//! The fixes of the seed-001 and seed-004 incidents, as settings of the registry: each is shown
//! in the Fixes panel for scenarios whose Reconcile (or workload) has the step it changes.

use flywheel_engine::controller::program::Step;
use flywheel_engine::scenario::{ActionKind, Scenario};

/// The incidents' fixes, by path, in the order the Fixes panel shows them.
pub const FIXES: &[&str] = &[
    "code.pod_list",
    "cache.namespaced",
    "cache.metadata_only",
    "code.stop_watch",
    "code.log",
    "code.external_timeout",
    "code.finalizer",
    "code.check_memory_pressure",
    "controller.handler_cost",
];

fn has(s: &Scenario, f: fn(&Step) -> bool) -> bool {
    s.reconcile.steps.iter().any(f)
}

/// Whether the fix at `path` changes something in `s`.
pub fn applies(path: &str, s: &Scenario) -> bool {
    match path {
        "code.pod_list" | "cache.namespaced" | "cache.metadata_only" => {
            has(s, |st| matches!(st, Step::ListPods))
        }
        "code.stop_watch" => has(s, |st| matches!(st, Step::OpenWatch)),
        "code.log" => has(s, |st| matches!(st, Step::LogObject { .. })),
        "code.external_timeout" => has(s, |st| matches!(st, Step::ExternalCall { .. })),
        "code.finalizer" => has(s, |st| matches!(st, Step::Finalize { .. })),
        "code.check_memory_pressure" => has(s, |st| matches!(st, Step::EnsurePods)),
        "controller.handler_cost" => s.actions.iter().any(|a| a.action == ActionKind::Annotate),
        _ => false,
    }
}

/// The incidents' fixes that change something in `s` (none for the flywheel family).
pub fn fixes_of(s: &Scenario) -> Vec<&'static str> {
    FIXES.iter().copied().filter(|p| applies(p, s)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use flywheel_engine::scenario::presets;

    #[test]
    fn every_fix_is_a_setting_and_the_flywheel_has_none() {
        for path in FIXES {
            assert!(flywheel_engine::settings::find(path).is_some(), "{path}");
        }
        let s = presets::load("flywheel", &[]).expect("preset");
        assert!(fixes_of(&s).is_empty());
    }

    #[test]
    fn some_preset_shows_each_fix() {
        let all: Vec<_> = presets::names()
            .map(|n| presets::load(n, &[]).expect("preset"))
            .collect();
        for path in FIXES {
            assert!(all.iter().any(|s| applies(path, s)), "{path}");
        }
    }
}
