//! A write loop found on the causal graph: a self-triggered Reconcile, how long the loop takes to
//! go round, and which fixes would cut it.
//!
//! A fix is a *set* of changes: in the death flywheel no single switch is enough (with a full
//! `Update` and no `/status`, every status write bumps `metadata.generation`, so neither
//! `GenerationChangedPredicate` nor an `ObservedGeneration` guard can tell it from a spec change).
//! The sets reported are the smallest ones that [`LoopExpectation`] says close the loop for the
//! running operator's switches — the same matrix the presets run.
//!
//! ```text
//!  Reconcile ns/a #31 ─▶ own write ─▶ MODIFIED ─▶ delta ─▶ add ─▶ Reconcile ns/a #60
//!        └──────────────── period: 60 − 31 events, t(#60) − t(#31) ───────────────┘
//! ```

use std::fmt;
use std::time::Duration;

use crate::controller::program::WriteVerb;
use crate::float_text::Fixed;
use crate::key::Key;
use crate::scenario::variant::Variant;
use crate::sim::EventId;

use super::expectation::LoopExpectation;

/// A link of the loop that a known fix cuts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum LoopCut {
    /// `predicate.GenerationChangedPredicate` drops an update whose generation did not change
    /// (controller-runtime `pkg/predicate/predicate.go`).
    GenerationChangedPredicate,
    /// The CRD's `/status` subresource: a status write no longer bumps `metadata.generation`,
    /// so the predicate can tell it from a spec change.
    StatusSubresource,
    /// Writing status only when `status.observedGeneration` differs from `metadata.generation`
    /// (the `ObservedGeneration` guard): no write, no event.
    ObservedGenerationGuard,
    /// Returning `ctrl.Result{}` once converged instead of asking for a requeue.
    NoRequeue,
    /// Writing a status that does not change when nothing changed (no `metav1.Now()` in it): a
    /// write of the same object is a no-op the API server answers without a new resourceVersion.
    IdempotentStatus,
}

/// One way to stop the loop: every change in it is needed, none alone is enough.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopFix {
    /// The changes, in the order the fix table lists them.
    pub changes: Vec<LoopCut>,
}

impl LoopFix {
    /// The switches `v` with this fix's changes made.
    pub fn applied_to(&self, v: Variant) -> Variant {
        applied(v, &self.changes)
    }
}

impl fmt::Display for LoopFix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, change) in self.changes.iter().enumerate() {
            if i > 0 {
                f.write_str("\n      together with ")?;
            }
            write!(f, "{change}")?;
        }
        Ok(())
    }
}

/// The changes a fix can make to the operator's switches.
const CHANGES: [LoopCut; 4] = [
    LoopCut::IdempotentStatus,
    LoopCut::StatusSubresource,
    LoopCut::GenerationChangedPredicate,
    LoopCut::ObservedGenerationGuard,
];

/// The smallest sets of changes that close the write loop of an operator running `v`, by the
/// switch matrix: each set works on its own, and no smaller set inside it does. Empty when `v`
/// does not loop by the matrix (the loop then comes from something the switches do not cover).
pub fn write_loop_fixes(v: Variant) -> Vec<LoopFix> {
    if !LoopExpectation::of(v).loops() {
        return Vec::new();
    }
    let mut fixes: Vec<LoopFix> = Vec::new();
    for mask in 1u8..(1 << CHANGES.len()) {
        let changes: Vec<LoopCut> = (0..CHANGES.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| CHANGES[i])
            .filter(|c| !already_on(v, *c))
            .collect();
        let smaller_works = fixes
            .iter()
            .any(|f| f.changes.iter().all(|c| changes.contains(c)));
        if changes.len() == mask.count_ones() as usize
            && !smaller_works
            && LoopExpectation::of(applied(v, &changes)) == LoopExpectation::Converges
        {
            fixes.push(LoopFix { changes });
        }
    }
    crate::small_sort::sort_few_by_key(&mut fixes, |f| f.changes.len());
    fixes
}

fn already_on(v: Variant, change: LoopCut) -> bool {
    match change {
        LoopCut::IdempotentStatus => !v.timestamp,
        LoopCut::StatusSubresource => v.status_subresource && v.write.is_status(),
        LoopCut::GenerationChangedPredicate => v.generation_predicate,
        LoopCut::ObservedGenerationGuard => v.observed_generation_guard,
        LoopCut::NoRequeue => false,
    }
}

/// `v` with `changes` made; the `/status` subresource comes with `Status().Update`, as the fix
/// is written in practice.
fn applied(mut v: Variant, changes: &[LoopCut]) -> Variant {
    for change in changes {
        match change {
            LoopCut::IdempotentStatus => v.timestamp = false,
            LoopCut::StatusSubresource => {
                v.status_subresource = true;
                if !v.write.is_status() {
                    v.write = WriteVerb::StatusUpdate;
                }
            }
            LoopCut::GenerationChangedPredicate => v.generation_predicate = true,
            LoopCut::ObservedGenerationGuard => v.observed_generation_guard = true,
            LoopCut::NoRequeue => {}
        }
    }
    v
}

impl fmt::Display for LoopCut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LoopCut::GenerationChangedPredicate => {
                "GenerationChangedPredicate (drops the update: generation unchanged)"
            }
            LoopCut::StatusSubresource => {
                "the /status subresource (a status write stops bumping generation)"
            }
            LoopCut::ObservedGenerationGuard => {
                "the ObservedGeneration guard (no status write when nothing changed)"
            }
            LoopCut::NoRequeue => "return ctrl.Result{} once converged (no requeue)",
            LoopCut::IdempotentStatus => {
                "an idempotent status (no timestamp: a write that changes nothing is a no-op)"
            }
        })
    }
}

/// A self-triggered Reconcile and the loop it closes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopReport {
    /// The key going round.
    pub key: Key,
    /// The self-triggered Reconcile.
    pub reconcile: EventId,
    /// The same key's previous Reconcile it descends from.
    pub previous: EventId,
    /// Simulated time from the previous Reconcile to this one.
    pub period: Duration,
    /// Events traced from the previous Reconcile to this one.
    pub period_events: u64,
    /// The smallest sets of changes that would stop it, smallest first.
    pub fixes: Vec<LoopFix>,
}

impl fmt::Display for LoopReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "write loop on {}: Reconcile {} descends only from Reconcile {} \
             (period {}s, {} events)",
            self.key,
            self.reconcile,
            self.previous,
            Fixed(self.period.as_secs_f64(), 3),
            self.period_events
        )?;
        if self.fixes.is_empty() {
            f.write_str("\n  no fix in the switch matrix cuts it")?;
        }
        for fix in &self.fixes {
            write!(f, "\n  fixed by: {fix}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flywheel() -> Variant {
        Variant {
            status_subresource: false,
            write: WriteVerb::Update,
            generation_predicate: false,
            observed_generation_guard: false,
            timestamp: true,
        }
    }

    fn changes(fixes: &[LoopFix]) -> Vec<Vec<LoopCut>> {
        fixes.iter().map(|f| f.changes.clone()).collect()
    }

    #[test]
    fn no_single_switch_but_the_idempotent_status_fixes_the_flywheel() {
        let fixes = write_loop_fixes(flywheel());
        assert_eq!(
            changes(&fixes),
            vec![
                vec![LoopCut::IdempotentStatus],
                vec![
                    LoopCut::StatusSubresource,
                    LoopCut::GenerationChangedPredicate
                ],
                vec![LoopCut::StatusSubresource, LoopCut::ObservedGenerationGuard],
            ]
        );
    }

    #[test]
    fn with_the_predicate_already_on_the_status_subresource_alone_fixes_it() {
        let v = Variant {
            generation_predicate: true,
            ..flywheel()
        };
        assert_eq!(
            changes(&write_loop_fixes(v)),
            vec![
                vec![LoopCut::IdempotentStatus],
                vec![LoopCut::StatusSubresource]
            ]
        );
    }

    #[test]
    fn with_the_status_subresource_already_on_either_filter_fixes_it() {
        let v = Variant {
            status_subresource: true,
            write: WriteVerb::StatusUpdate,
            ..flywheel()
        };
        let fixes = changes(&write_loop_fixes(v));
        assert!(fixes.contains(&vec![LoopCut::GenerationChangedPredicate]));
        assert!(fixes.contains(&vec![LoopCut::ObservedGenerationGuard]));
        assert!(fixes.iter().all(|f| f.len() == 1), "{fixes:?}");
    }

    #[test]
    fn an_operator_that_does_not_loop_by_the_matrix_has_no_write_loop_fix() {
        let v = Variant {
            timestamp: false,
            ..flywheel()
        };
        assert!(write_loop_fixes(v).is_empty());
    }
}
