//! A write loop found on the causal graph: a self-triggered Reconcile, how long the loop takes to
//! go round, and which link a fix would cut.
//!
//! ```text
//!  Reconcile ns/a #31 ─▶ own write ─▶ MODIFIED ─▶ delta ─▶ add ─▶ Reconcile ns/a #60
//!        └──────────────── period: 60 − 31 events, t(#60) − t(#31) ───────────────┘
//! ```

use std::fmt;
use std::time::Duration;

use crate::key::Key;
use crate::sim::EventId;

/// A link of the loop that a known fix cuts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopCut {
    /// `predicate.GenerationChangedPredicate` drops an update whose generation did not change
    /// (controller-runtime `pkg/predicate/predicate.go`).
    GenerationChangedPredicate,
    /// The CRD's `/status` subresource: a status write no longer bumps `metadata.generation`,
    /// so the predicate can tell it from a spec change.
    StatusSubresource,
    /// Writing status only when `status.observedGeneration` differs from `metadata.generation`
    /// (the ObservedGeneration guard): no write, no event.
    ObservedGenerationGuard,
    /// Returning `ctrl.Result{}` once converged instead of asking for a requeue.
    NoRequeue,
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
    /// What a fix would cut, most direct first.
    pub cuts: Vec<LoopCut>,
}

impl fmt::Display for LoopReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "write loop on {}: Reconcile {} descends only from Reconcile {} \
             (period {:.3}s, {} events)",
            self.key,
            self.reconcile,
            self.previous,
            self.period.as_secs_f64(),
            self.period_events
        )?;
        for cut in &self.cuts {
            write!(f, "\n  cut by: {cut}")?;
        }
        Ok(())
    }
}
