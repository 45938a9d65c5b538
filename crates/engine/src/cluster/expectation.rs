//! What a run is expected to do, before it runs: whether its switches close the write loop, and
//! which story its preset tells. The verdict compares a run against the first; front ends compare
//! it against the second.
//!
//! ```text
//!  Variant ──▶ LoopExpectation { Loops | Converges | StatusDropped | NoStatusEndpoint }
//!  preset  ──▶ PresetStory     { WriteLoop | OomKill | Stuck | Other }
//! ```

use serde::Serialize;

use crate::scenario::variant::Variant;

/// What the switches make of the write loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum LoopExpectation {
    /// Each write changes the object and its event re-enqueues the key: the loop closes.
    Loops,
    /// The writes stop (idempotent status, a generation predicate or an observedGeneration guard
    /// with `/status`): the loop stays open.
    Converges,
    /// `/status` is on but status goes to the main resource: the API server drops the status
    /// change (kube-apiserver's strategy `PrepareForUpdate` keeps the stored status).
    StatusDropped,
    /// `/status` is off but status goes to `/status`: every write is answered 404.
    NoStatusEndpoint,
}

impl LoopExpectation {
    /// The expectation for the switches `v`.
    pub fn of(v: Variant) -> LoopExpectation {
        let sub = v.status_subresource;
        match (sub, v.write.is_status()) {
            (true, false) => return LoopExpectation::StatusDropped,
            (false, true) => return LoopExpectation::NoStatusEndpoint,
            _ => {}
        }
        let changes_object = v.timestamp || (v.observed_generation_guard && !sub);
        let filtered = sub && (v.generation_predicate || v.observed_generation_guard);
        if changes_object && !filtered {
            LoopExpectation::Loops
        } else {
            LoopExpectation::Converges
        }
    }

    /// Whether the operator's own writes keep re-triggering Reconcile.
    pub fn loops(self) -> bool {
        self == LoopExpectation::Loops
    }
}

/// The story a preset tells, so a front end can say when a run departs from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum PresetStory {
    /// The write loop and its fixes: the switches decide loop or not.
    WriteLoop,
    /// An OOM kill.
    OomKill,
    /// An operator stuck with every worker busy.
    Stuck,
    /// Something else (finalizers, evictions, logging).
    Other,
}

/// Presets whose story is the write loop and its fixes.
const WRITE_LOOP: &[&str] = &[
    "flywheel",
    "subresource-only",
    "predicate-only",
    "observed-generation-only",
    "subresource+predicate",
    "subresource+observed-generation",
    "fixed",
    "idempotent-status",
];

/// Presets whose story is an OOM kill.
const OOM_KILL: &[&str] = &[
    "seed-000-incident",
    "list-full-scan",
    "finalizer-deadlock",
    "watch-leak",
    "listener-backlog",
];

/// Presets whose story is a stuck operator.
const STUCK: &[&str] = &["no-context-timeout"];

impl PresetStory {
    /// The story of the preset named `preset` ([`PresetStory::Other`] for any other name).
    pub fn of(preset: &str) -> PresetStory {
        if WRITE_LOOP.contains(&preset) {
            PresetStory::WriteLoop
        } else if OOM_KILL.contains(&preset) {
            PresetStory::OomKill
        } else if STUCK.contains(&preset) {
            PresetStory::Stuck
        } else {
            PresetStory::Other
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    fn variant(name: &str) -> Variant {
        Variant::of(&presets::load(name, &[]).expect("preset"))
    }

    #[test]
    fn every_name_a_story_lists_is_a_preset() {
        for name in WRITE_LOOP.iter().chain(OOM_KILL).chain(STUCK) {
            assert!(presets::exists(name), "{name}");
        }
    }

    #[test]
    fn the_flywheel_and_the_single_fixes_loop_and_the_fixed_presets_converge() {
        for name in ["flywheel", "subresource-only", "predicate-only"] {
            assert_eq!(
                LoopExpectation::of(variant(name)),
                LoopExpectation::Loops,
                "{name}"
            );
        }
        for name in ["fixed", "idempotent-status", "subresource+predicate"] {
            let e = LoopExpectation::of(variant(name));
            assert_eq!(e, LoopExpectation::Converges, "{name}");
        }
    }

    #[test]
    fn status_sent_to_the_main_resource_of_a_crd_with_status_is_dropped() {
        let mut v = variant("flywheel");
        v.status_subresource = true;
        v.write = crate::controller::program::WriteVerb::Update;
        assert_eq!(LoopExpectation::of(v), LoopExpectation::StatusDropped);
    }
}
