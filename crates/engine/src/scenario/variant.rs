//! The seed-000 fixes as independent switches, so every combination of the matrix can be built
//! from any preset (the page's toggles).

use serde::{Deserialize, Serialize};

use super::{PredicateKind, Scenario};
use crate::controller::program::{StatusValue, Step, WriteVerb};

/// Which fixes are on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variant {
    /// The CRD has the `/status` subresource.
    pub status_subresource: bool,
    /// How Reconcile writes status.
    pub write: WriteVerb,
    /// `GenerationChangedPredicate` on the `For` watch.
    pub generation_predicate: bool,
    /// Reconcile returns early when `status.observedGeneration == generation` (and records it).
    pub observed_generation_guard: bool,
    /// The status carries a `metav1.Now()` timestamp.
    pub timestamp: bool,
}

/// The status field a timestamp is written to.
pub const TIMESTAMP_FIELD: &str = "lastUpdated";
/// The status field the observed generation is written to.
pub const OBSERVED_GENERATION_FIELD: &str = "observedGeneration";

impl Variant {
    /// The switches as `scenario` has them.
    pub fn of(scenario: &Scenario) -> Variant {
        let steps = &scenario.reconcile.steps;
        Variant {
            status_subresource: scenario.crd.status_subresource,
            write: scenario.reconcile.writes().unwrap_or(WriteVerb::Update),
            generation_predicate: scenario
                .controller
                .predicates
                .contains(&PredicateKind::GenerationChanged),
            observed_generation_guard: scenario.reconcile.has_observed_generation_guard(),
            timestamp: steps.iter().any(|s| is_status_step(s, TIMESTAMP_FIELD)),
        }
    }

    /// Rewrites `scenario` so that its switches are `self`, keeping everything else.
    pub fn apply(&self, scenario: &mut Scenario) {
        scenario.crd.status_subresource = self.status_subresource;
        let preds = &mut scenario.controller.predicates;
        preds.retain(|p| *p != PredicateKind::GenerationChanged);
        if self.generation_predicate {
            preds.insert(0, PredicateKind::GenerationChanged);
        }
        let steps = &mut scenario.reconcile.steps;
        for step in steps.iter_mut() {
            if let Step::Write { verb } = step {
                *verb = self.write;
            }
        }
        steps.retain(|s| {
            *s != Step::GuardObservedGeneration
                && !is_status_step(s, OBSERVED_GENERATION_FIELD)
                && !is_status_step(s, TIMESTAMP_FIELD)
        });
        let write_at = steps
            .iter()
            .position(|s| matches!(s, Step::Write { .. }))
            .unwrap_or(steps.len());
        let mut before_write = Vec::new();
        if self.timestamp {
            before_write.push(Step::SetStatus {
                field: TIMESTAMP_FIELD.into(),
                value: StatusValue::Now,
            });
        }
        if self.observed_generation_guard {
            before_write.push(Step::SetStatus {
                field: OBSERVED_GENERATION_FIELD.into(),
                value: StatusValue::ObservedGeneration,
            });
        }
        steps.splice(write_at..write_at, before_write);
        if self.observed_generation_guard {
            let after_get = steps
                .iter()
                .position(|s| *s == Step::Get)
                .map_or(0, |i| i + 1);
            steps.insert(after_get, Step::GuardObservedGeneration);
        }
    }
}

fn is_status_step(step: &Step, field: &str) -> bool {
    matches!(step, Step::SetStatus { field: f, .. } if f == field)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    #[test]
    fn switching_the_broken_preset_to_the_fixed_variant_reproduces_the_fixed_preset() {
        let mut broken = presets::load("flywheel", &[]).expect("preset");
        let fixed = presets::load("fixed", &[]).expect("preset");
        Variant::of(&fixed).apply(&mut broken);
        assert_eq!(broken.reconcile, fixed.reconcile);
        assert_eq!(broken.controller.predicates, fixed.controller.predicates);
        assert_eq!(broken.crd, fixed.crd);
    }

    #[test]
    fn every_preset_reads_back_the_variant_it_was_given() {
        for name in presets::names() {
            let s = presets::load(name, &[]).expect("preset");
            let v = Variant::of(&s);
            let mut copy = s.clone();
            v.apply(&mut copy);
            assert_eq!(Variant::of(&copy), v, "{name}");
        }
    }

    #[test]
    fn turning_the_timestamp_off_leaves_an_idempotent_status() {
        let mut s = presets::load("flywheel", &[]).expect("preset");
        let mut v = Variant::of(&s);
        v.timestamp = false;
        v.apply(&mut s);
        let idem = presets::load("idempotent-status", &[]).expect("preset");
        assert!(!s
            .reconcile
            .steps
            .iter()
            .any(|st| is_status_step(st, TIMESTAMP_FIELD)));
        assert_eq!(Variant::of(&s), Variant::of(&idem));
    }
}
