//! What the controller does with a reconcile's outcome (controller-runtime
//! `pkg/internal/controller/controller.go` `reconcileHandler` and `Reconcile`).
//!
//! `Reconcile` returns a `reconcile.Result` and an `error`; [`reconcile_handler`] applies the
//! queue operations upstream applies and says which `controller_runtime_*` counters to bump:
//!
//! | outcome                         | queue                          | `result` label  |
//! |---------------------------------|--------------------------------|-----------------|
//! | `Result{}, nil`                 | `Forget`                       | `success`       |
//! | `Result{Requeue: true}, nil`    | `AddRateLimited` (no `Forget`) | `requeue`       |
//! | `Result{RequeueAfter: d}, nil`  | `Forget`, `AddAfter(d)`        | `requeue_after` |
//! | `_, err`                        | `AddRateLimited`               | `error`         |
//! | `_, reconcile.TerminalError(e)` | nothing (no `Forget` either)   | `error`         |
//!
//! An error wins over `RequeueAfter` and `Requeue` (upstream logs a warning and ignores the
//! `Result`), and `RequeueAfter` wins over `Requeue`. A panic in `Reconcile` is recovered into an
//! error (and counted in `controller_runtime_reconcile_panics_total`) when `RecoverPanic` is on —
//! the default from controller-runtime v0.19 (earlier, `RecoverPanic` unset meant the panic went
//! on up the worker goroutine and the process crashed with exit code 2).
//!
//! With the priority queue (controller-runtime ≥ v0.23) every requeue keeps the priority the key
//! was handed out with (`processNextWorkItem` passes `GetWithPriority`'s priority on).

use crate::metrics::names;
use std::time::Duration;

use crate::cluster::workqueue::WorkQueue;
use crate::key::Key;
use crate::scenario::Profile;
use crate::time::SimTime;

/// How a reconcile ended: the engine's combinations of controller-runtime's `reconcile.Result`
/// and `error`, and a panic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReconcileResult {
    /// `ctrl.Result{}, nil`.
    Success,
    /// `ctrl.Result{Requeue: true}, nil`.
    Requeue,
    /// `ctrl.Result{RequeueAfter: d}, nil`.
    RequeueAfter(Duration),
    /// `ctrl.Result{}, err` (not terminal).
    Error,
    /// `ctrl.Result{RequeueAfter: d}, err`: the error wins, the `RequeueAfter` is ignored.
    ErrorWithRequeueAfter(Duration),
    /// `ctrl.Result{}, reconcile.TerminalError(err)`.
    TerminalError,
    /// `Reconcile` panicked.
    Panic,
}

/// What [`reconcile_handler`] did, for the metrics and the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handled {
    /// The `result` label of `controller_runtime_reconcile_total`; `None` when the process
    /// crashed before counting.
    pub result_label: Option<&'static str>,
    /// Bump `controller_runtime_reconcile_errors_total`.
    pub error: bool,
    /// Bump `controller_runtime_terminal_reconcile_errors_total`.
    pub terminal_error: bool,
    /// Bump `controller_runtime_reconcile_panics_total`.
    pub panic: bool,
    /// The panic was not recovered: the process exits (code 2) and the container restarts.
    pub crashed: bool,
}

/// `reconcile.Result` and whether `err` is set, as `reconcileHandler` sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Returned {
    Ok { requeue: bool, after: Duration },
    Err { terminal: bool },
}

impl ReconcileResult {
    /// When `reconcileHandler` adds the key again: `Some(ZERO)` for a rate-limited add (a
    /// `Requeue`, a non-terminal error; its back-off is the queue's), `Some(d)` for
    /// `RequeueAfter: d`, `None` when it does not.
    pub fn requeue_delay(self) -> Option<Duration> {
        match self.returned() {
            Returned::Err { terminal: false } | Returned::Ok { requeue: true, .. } => {
                Some(Duration::ZERO)
            }
            Returned::Ok { after, .. } if !after.is_zero() => Some(after),
            _ => None,
        }
    }

    fn returned(self) -> Returned {
        let ok = |requeue, after| Returned::Ok { requeue, after };
        match self {
            ReconcileResult::Success => ok(false, Duration::ZERO),
            ReconcileResult::Requeue => ok(true, Duration::ZERO),
            ReconcileResult::RequeueAfter(d) => ok(false, d),
            ReconcileResult::Error
            | ReconcileResult::ErrorWithRequeueAfter(_)
            | ReconcileResult::Panic => Returned::Err { terminal: false },
            ReconcileResult::TerminalError => Returned::Err { terminal: true },
        }
    }
}

/// Whether a panic in `Reconcile` is recovered by default: controller-runtime v0.19 made
/// `RecoverPanic` default to true (`pkg/internal/controller/controller.go` `Reconcile`:
/// `c.RecoverPanic == nil || *c.RecoverPanic`); v0.15 (the seed profile) recovered only when
/// it was set.
pub fn recover_panic_default(profile: Profile) -> bool {
    match profile {
        Profile::Seed => false,
        Profile::Modern => true,
    }
}

/// Applies `outcome` of the reconcile of `key` to `queue` at `now`, as controller-runtime's
/// `reconcileHandler` does (`pkg/internal/controller/controller.go`), and says which counters to
/// bump. `recover_panic` is the controller's `RecoverPanic`. The caller still calls `Done`.
pub fn reconcile_handler(
    queue: &mut WorkQueue,
    key: &Key,
    outcome: ReconcileResult,
    recover_panic: bool,
    now: SimTime,
) -> Handled {
    let mut handled = Handled {
        result_label: None,
        error: false,
        terminal_error: false,
        panic: outcome == ReconcileResult::Panic,
        crashed: false,
    };
    if handled.panic && !recover_panic {
        handled.crashed = true;
        // v0.15 has no panics counter, and the process is gone with its registry anyway.
        handled.panic = false;
        return handled;
    }
    let priority = queue.handed_out_priority(key);
    let label = match outcome.returned() {
        Returned::Err { terminal } => {
            if !terminal {
                queue.add_rate_limited_with_priority(key.clone(), priority, now);
            }
            handled.error = true;
            handled.terminal_error = terminal;
            "error"
        }
        Returned::Ok { after, .. } if !after.is_zero() => {
            queue.forget(key);
            queue.add_after_with_priority(key.clone(), after, priority, now);
            "requeue_after"
        }
        Returned::Ok { requeue: true, .. } => {
            queue.add_rate_limited_with_priority(key.clone(), priority, now);
            "requeue"
        }
        Returned::Ok { .. } => {
            queue.forget(key);
            "success"
        }
    };
    handled.result_label = Some(label);
    handled
}

/// The `controller_runtime_*` counter series a controller creates at zero when it starts
/// (`pkg/internal/controller/controller.go` `initMetrics`): `(name, result label)` pairs, the
/// label empty for the unlabelled-by-result counters. v0.15 pre-creates the four results and the
/// error counter; v0.19 adds the terminal-error and panic counters, v0.23 the timeout counter.
pub fn initial_counters(profile: Profile) -> Vec<(&'static str, &'static str)> {
    let total = names::RECONCILE_TOTAL;
    let mut out = vec![
        (total, "error"),
        (total, "requeue_after"),
        (total, "requeue"),
        (total, "success"),
        (names::RECONCILE_ERRORS_TOTAL, ""),
    ];
    if profile == Profile::Modern {
        out.extend([
            (names::TERMINAL_RECONCILE_ERRORS_TOTAL, ""),
            (names::RECONCILE_PANICS_TOTAL, ""),
            (names::RECONCILE_TIMEOUTS_TOTAL, ""),
        ]);
    }
    out
}

#[cfg(test)]
mod tests {
    //! Cases ported from controller-runtime `pkg/internal/controller/controller_test.go`
    //! ("Processing queue items from a Controller", "Reconciler"), at v0.24.

    use super::*;
    use crate::scenario::QueueKind;

    const KEY: &str = "default/a";
    const NOW: SimTime = SimTime::ZERO;

    fn key() -> Key {
        Key::from(KEY)
    }

    /// A queue that has handed `KEY` out (added by a handler, `low_priority` as on the
    /// initial list).
    fn handed_out(kind: QueueKind, low_priority: bool) -> WorkQueue {
        let mut q = WorkQueue::new(kind);
        q.add_from_handler(key(), low_priority, NOW, None);
        assert_eq!(q.get(NOW).map(|(k, _)| k), Some(key()));
        q
    }

    /// Runs one reconcile of `KEY` ending with `outcome`, then `Done`, and hands it out again
    /// once it is due.
    fn reconcile(q: &mut WorkQueue, outcome: ReconcileResult) -> Handled {
        let handled = reconcile_handler(q, &key(), outcome, true, NOW);
        q.done(&key(), NOW);
        if let Some(at) = q.next_ready_at() {
            assert_eq!(q.get(at).map(|(k, _)| k), Some(key()));
        }
        handled
    }

    #[test]
    fn an_error_requeues_the_request_rate_limited_and_a_later_success_forgets_it() {
        // "should requeue a Request if there is an error and continue processing items"
        let mut q = handed_out(QueueKind::Classic, false);
        let h = reconcile_handler(&mut q, &key(), ReconcileResult::Error, true, NOW);
        assert_eq!((h.result_label, h.error), (Some("error"), true));
        assert_eq!(q.num_requeues(&key()), 1);
        assert_eq!(q.next_ready_at(), Some(NOW + Duration::from_millis(5)));
        q.done(&key(), NOW);
        assert_eq!(q.get(SimTime::from_millis(5)).map(|(k, _)| k), Some(key()));
        let h = reconcile(&mut q, ReconcileResult::Success);
        assert_eq!((h.result_label, h.error), (Some("success"), false));
        assert_eq!(q.num_requeues(&key()), 0);
        assert_eq!((q.len(), q.waiting_len()), (0, 0));
    }

    #[test]
    fn a_terminal_error_is_not_requeued_and_does_not_reset_the_backoff() {
        // "should not requeue a Request if there is a terminal error"; upstream does not call
        // Forget on a terminal error either.
        let mut q = handed_out(QueueKind::Classic, false);
        reconcile(&mut q, ReconcileResult::Error);
        let h = reconcile_handler(&mut q, &key(), ReconcileResult::TerminalError, true, NOW);
        assert_eq!(h.result_label, Some("error"));
        assert!(h.error && h.terminal_error && !h.panic);
        assert_eq!((q.len(), q.waiting_len()), (0, 0));
        assert_eq!(q.num_requeues(&key()), 1);
    }

    #[test]
    fn the_backoff_is_not_reset_until_a_result_without_error() {
        // "should not reset backoff until there's a non-error result"
        let mut q = handed_out(QueueKind::Classic, false);
        reconcile(&mut q, ReconcileResult::Error);
        reconcile(&mut q, ReconcileResult::Error);
        assert_eq!(q.num_requeues(&key()), 2);
        reconcile(&mut q, ReconcileResult::Success);
        assert_eq!(q.num_requeues(&key()), 0);
    }

    #[test]
    fn requeue_true_adds_the_request_rate_limited_without_forgetting_it() {
        // "should requeue a Request with rate limiting if the Result sets Requeue:true"
        let mut q = handed_out(QueueKind::Classic, false);
        reconcile(&mut q, ReconcileResult::Error);
        let h = reconcile_handler(&mut q, &key(), ReconcileResult::Requeue, true, NOW);
        assert_eq!((h.result_label, h.error), (Some("requeue"), false));
        assert_eq!(q.num_requeues(&key()), 2);
        assert_eq!(q.waiting_len(), 1);
    }

    #[test]
    fn requeue_after_forgets_the_request_and_adds_it_after_the_delay() {
        // "should requeue a Request after a duration (but not rate-limited) if the Result sets
        // RequeueAfter"
        let mut q = handed_out(QueueKind::Classic, false);
        reconcile(&mut q, ReconcileResult::Error);
        let (after, now) = (Duration::from_secs(30), SimTime::from_millis(5));
        let h = reconcile_handler(
            &mut q,
            &key(),
            ReconcileResult::RequeueAfter(after),
            true,
            now,
        );
        assert_eq!(h.result_label, Some("requeue_after"));
        assert_eq!(q.num_requeues(&key()), 0);
        assert_eq!(q.next_ready_at(), Some(now + after));
    }

    #[test]
    fn an_error_wins_over_requeue_after() {
        // "should perform error behavior if error is not nil, regardless of RequeueAfter"
        let mut q = handed_out(QueueKind::Classic, false);
        let outcome = ReconcileResult::ErrorWithRequeueAfter(Duration::from_secs(30));
        let h = reconcile_handler(&mut q, &key(), outcome, true, NOW);
        assert_eq!((h.result_label, h.error), (Some("error"), true));
        assert_eq!(q.num_requeues(&key()), 1);
        assert_eq!(q.next_ready_at(), Some(NOW + Duration::from_millis(5)));
    }

    #[test]
    fn a_recovered_panic_is_an_error_and_counted_as_a_panic() {
        // "should recover panic if RecoverPanic is true by default" (v0.19 and later)
        assert!(recover_panic_default(Profile::Modern));
        let mut q = handed_out(QueueKind::Priority, false);
        let h = reconcile_handler(&mut q, &key(), ReconcileResult::Panic, true, NOW);
        assert_eq!(h.result_label, Some("error"));
        assert!(h.error && h.panic && !h.crashed && !h.terminal_error);
        assert_eq!(q.num_requeues(&key()), 1);
    }

    #[test]
    fn an_unrecovered_panic_crashes_without_touching_the_queue() {
        // "should not recover panic if RecoverPanic is false"; v0.15 left it unset, i.e. off.
        assert!(!recover_panic_default(Profile::Seed));
        let mut q = handed_out(QueueKind::Classic, false);
        let h = reconcile_handler(&mut q, &key(), ReconcileResult::Panic, false, NOW);
        assert!(h.crashed && !h.error && !h.panic);
        assert_eq!(h.result_label, None);
        assert_eq!((q.num_requeues(&key()), q.waiting_len()), (0, 0));
    }

    #[test]
    fn every_requeue_keeps_the_priority_the_request_was_handed_out_with() {
        // "should retain the priority when the reconciler requests a requeue", "... with
        // RequeueAfter", "... when there was an error" (v0.23 and later).
        let outcomes = [
            ReconcileResult::Requeue,
            ReconcileResult::RequeueAfter(Duration::from_secs(1)),
            ReconcileResult::Error,
        ];
        for outcome in outcomes {
            let mut q = handed_out(QueueKind::Priority, true);
            assert_eq!(q.handed_out_priority(KEY), crate::workqueue::LOW_PRIORITY);
            reconcile_handler(&mut q, &key(), outcome, true, NOW);
            let priority = q.queued_priority(&key());
            assert_eq!(
                priority,
                Some(crate::workqueue::LOW_PRIORITY),
                "{outcome:?}"
            );
        }
    }

    #[test]
    fn a_request_added_with_the_default_priority_is_requeued_at_zero() {
        let mut q = handed_out(QueueKind::Priority, false);
        reconcile_handler(&mut q, &key(), ReconcileResult::Requeue, true, NOW);
        assert_eq!(q.queued_priority(&key()), Some(0));
    }

    #[test]
    fn the_result_series_are_created_at_start_and_v0_19_adds_the_panic_counter() {
        let seed = initial_counters(Profile::Seed);
        let results: Vec<&str> = seed
            .iter()
            .map(|(_, r)| *r)
            .filter(|r| !r.is_empty())
            .collect();
        assert_eq!(results, ["error", "requeue_after", "requeue", "success"]);
        let has = |list: &[(&str, &str)], name| list.iter().any(|(n, _)| *n == name);
        let panics = "controller_runtime_reconcile_panics_total";
        assert!(!has(&seed, panics));
        assert!(has(&initial_counters(Profile::Modern), panics));
    }
}
