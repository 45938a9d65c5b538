//! The kubelet's container restart backoff: CrashLoopBackOff.
//!
//! ```text
//!  crash 1 ──▶ restart now        (no entry yet; entry = 10 s)
//!  crash 2 ──▶ wait 10 s          (entry = 20 s)
//!  crash 3 ──▶ wait 20 s          (entry = 40 s)   … 40, 80, 160, 300, 300 s
//!  a crash more than 10 min after the last restart decision ──▶ restart now, entry = 10 s
//!  a wait still running 10 min after the last restart decision ──▶ housekeeping drops the
//!      entry: restart at that tick, entry = 10 s
//! ```
//!
//! Three parts, as upstream:
//! - [`Backoff`]: client-go `util/flowcontrol/backoff.go` `Backoff` for one id, without jitter:
//!   `Next(eventTime)` starts at the initial duration (no entry, or expired by `eventTime`) or
//!   doubles up to the max, and stamps `lastUpdate` with the *clock*;
//!   `IsInBackOffSince(eventTime)` is `now − eventTime < backoff` unless the entry expired by
//!   `eventTime` (`eventTime − lastUpdate > expiry`, default 2 × max); `GC` drops the entry once
//!   it expired by the *clock*.
//! - [`CrashLoopBackOff`]: kubernetes `pkg/kubelet/kubelet.go` `newCrashLoopBackOff` (10 s / 300 s,
//!   `HasExpiredFunc` 600 s) driven the way `pkg/kubelet/kuberuntime/kuberuntime_manager.go`
//!   `doBackOff` does: with `t` = the exited container's `FinishedAt`, the container stays in
//!   CrashLoopBackOff while `IsInBackOffSince(t)`; when that ends the kubelet calls `Next(t)` and
//!   starts it.
//! - Housekeeping: every [`HOUSEKEEPING_PERIOD`] (`pkg/kubelet/kubelet.go` `housekeepingPeriod`)
//!   the sync loop runs `HandlePodCleanups` (`pkg/kubelet/kubelet_pods.go`), which ends with
//!   `crashLoopBackOff.GC()`. Since `IsInBackOffSince` checks expiry against `FinishedAt`, which a
//!   wait does not move, only GC ends a wait early: a 300 s wait that starts 7 minutes after the
//!   last restart decision ends at the first tick more than 600 s after it, and the restart then
//!   finds no entry, so the next crash waits 10 s. The kubelet's ticks are counted from time 0.
//!
//! The kubelet only acts on a pod sync; the time from the end of the wait to that sync is not
//! modelled (the restart happens exactly when the wait ends).

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::ConfigError;
use crate::float_text::Shortest;
use crate::time::SimTime;

/// One id's backoff state (`backoff.go` `backoffEntry`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackoffEntry {
    /// The current backoff.
    pub backoff: Duration,
    /// The clock time of the last `Next`.
    pub last_update: SimTime,
}

/// client-go's `flowcontrol.Backoff` for a single id, without jitter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Backoff {
    initial: Duration,
    max: Duration,
    expiry: Duration,
    entry: Option<BackoffEntry>,
}

impl Backoff {
    /// `NewBackOff(initial, max)`: entries expire `2 × max` after their last update
    /// (`backoff.go` default `hasExpiredFunc`). Rejects a zero `initial` or `max < initial`.
    pub fn new(initial: Duration, max: Duration) -> Result<Backoff, ConfigError> {
        if initial.is_zero() {
            return Err(ConfigError::new(
                "initial",
                "must be greater than 0 (got 0s)",
            ));
        }
        if max < initial {
            return Err(ConfigError::new(
                "max",
                format!("must be at least initial {initial:?} (got {max:?})"),
            ));
        }
        Ok(Backoff {
            initial,
            max,
            expiry: max.saturating_mul(2),
            entry: None,
        })
    }

    /// The same backoff with entries expiring `expiry` after their last update (the kubelet's
    /// `HasExpiredFunc`).
    pub fn with_expiry(mut self, expiry: Duration) -> Backoff {
        self.expiry = expiry;
        self
    }

    /// The initial backoff.
    pub fn initial(&self) -> Duration {
        self.initial
    }

    /// The maximum backoff.
    pub fn max(&self) -> Duration {
        self.max
    }

    /// How long after its last update an entry expires.
    pub fn expiry(&self) -> Duration {
        self.expiry
    }

    /// The entry, if any.
    pub fn entry(&self) -> Option<BackoffEntry> {
        self.entry
    }

    /// The current backoff, 0 without an entry (`Get`; expiry is not checked, as upstream).
    pub fn get(&self) -> Duration {
        self.entry.map_or(Duration::ZERO, |e| e.backoff)
    }

    /// Whether the entry expired by `event_time` (`hasExpired(eventTime, lastUpdate, max)`).
    pub fn has_expired(&self, event_time: SimTime) -> bool {
        self.entry
            .is_some_and(|e| event_time.saturating_since(e.last_update) > self.expiry)
    }

    /// `Next(id, eventTime)` with the clock at `now`: the initial backoff if there is no entry or
    /// it expired by `event_time`, otherwise twice the backoff up to the max; `lastUpdate = now`.
    pub fn next(&mut self, event_time: SimTime, now: SimTime) {
        let backoff = match self.entry {
            Some(e) if !self.has_expired(event_time) => e.backoff.saturating_mul(2).min(self.max),
            _ => self.initial,
        };
        self.entry = Some(BackoffEntry {
            backoff,
            last_update: now,
        });
    }

    /// `IsInBackOffSince(id, eventTime)` with the clock at `now`: `now − event_time < backoff`,
    /// false without an entry or when it expired by `event_time` (not by `now`: upstream passes
    /// `eventTime` to `hasExpired`).
    pub fn is_in_backoff_since(&self, event_time: SimTime, now: SimTime) -> bool {
        match self.entry {
            Some(e) if !self.has_expired(event_time) => {
                now.saturating_since(event_time) < e.backoff
            }
            _ => false,
        }
    }

    /// `IsInBackOffSinceUpdate(id, eventTime)`: `event_time − lastUpdate < backoff`, false without
    /// an entry or when it expired by `event_time`.
    pub fn is_in_backoff_since_update(&self, event_time: SimTime) -> bool {
        match self.entry {
            Some(e) if !self.has_expired(event_time) => {
                event_time.saturating_since(e.last_update) < e.backoff
            }
            _ => false,
        }
    }

    /// The first clock time at or after `event_time` at which `is_in_backoff_since(event_time)`
    /// is false: `event_time + backoff`, or `event_time` without an entry or when it expired by
    /// `event_time`.
    pub fn backoff_ends(&self, event_time: SimTime) -> SimTime {
        match self.entry {
            Some(e) if !self.has_expired(event_time) => event_time + e.backoff,
            _ => event_time,
        }
    }

    /// The first tick of a `gc` every `period` (ticks at multiples of `period` from time 0) that
    /// drops the entry: the first one more than `expiry` after its last update. `None` without
    /// an entry.
    pub fn gc_at(&self, period: Duration) -> Option<SimTime> {
        let e = self.entry?;
        let expires = e.last_update.saturating_add(self.expiry).as_nanos();
        let period_ns = crate::time::duration_nanos(period).max(1);
        let tick = (expires / period_ns)
            .saturating_add(1)
            .saturating_mul(period_ns);
        Some(SimTime::from_nanos(tick))
    }

    /// Drops the entry if it expired by `now` (`GC`).
    pub fn gc(&mut self, now: SimTime) {
        if self.has_expired(now) {
            self.entry = None;
        }
    }

    /// Drops the entry (`Reset`).
    pub fn reset(&mut self) {
        self.entry = None;
    }
}

/// How often the kubelet's sync loop runs `HandlePodCleanups`, which garbage-collects the
/// CrashLoopBackOff entries (kubernetes `pkg/kubelet/kubelet.go` `housekeepingPeriod`).
pub const HOUSEKEEPING_PERIOD: Duration = Duration::from_secs(2);

/// The kubelet's restart backoff settings, in seconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CrashLoopConfig {
    /// The first wait, 0.001..=86400 s. Default 10 s (`initialCrashLoopBackOff`). Lowered to
    /// `max_backoff_s` if above it, as `newCrashLoopBackOff` does.
    pub initial_backoff_s: f64,
    /// The longest wait, 0.001..=86400 s. Default 300 s (`MaxContainerBackOff`;
    /// `crashLoopBackOff.maxContainerRestartPeriod` with the `KubeletCrashLoopBackOffMax` gate).
    pub max_backoff_s: f64,
    /// How long after the last restart decision a crash starts over at the initial wait, and
    /// after which housekeeping drops the entry (ending a wait still running), 0.001..=86400 s.
    /// Default 600 s (the kubelet's `HasExpiredFunc`).
    pub reset_after_s: f64,
}

impl Default for CrashLoopConfig {
    /// 10 s, 300 s, reset after 600 s.
    fn default() -> CrashLoopConfig {
        CrashLoopConfig {
            initial_backoff_s: 10.0,
            max_backoff_s: 300.0,
            reset_after_s: 600.0,
        }
    }
}

impl CrashLoopConfig {
    /// The alpha `ReduceDefaultCrashLoopBackOffDecay` gate (Kubernetes 1.33): 1 s up to 60 s.
    pub fn reduced_decay() -> CrashLoopConfig {
        CrashLoopConfig {
            initial_backoff_s: 1.0,
            max_backoff_s: 60.0,
            ..CrashLoopConfig::default()
        }
    }

    /// Checks every field; the error names the field and the allowed range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check_seconds("initial_backoff_s", self.initial_backoff_s)?;
        check_seconds("max_backoff_s", self.max_backoff_s)?;
        check_seconds("reset_after_s", self.reset_after_s)
    }

    /// The backoff these settings describe.
    pub fn backoff(&self) -> Result<Backoff, ConfigError> {
        self.validate()?;
        let max = Duration::from_secs_f64(self.max_backoff_s);
        let initial = Duration::from_secs_f64(self.initial_backoff_s).min(max);
        let expiry = Duration::from_secs_f64(self.reset_after_s);
        Ok(Backoff::new(initial, max)?.with_expiry(expiry))
    }
}

/// Rejects a number of seconds outside 0.001..=86400 (NaN included).
fn check_seconds(field: &str, seconds: f64) -> Result<(), ConfigError> {
    if (0.001..=86_400.0).contains(&seconds) {
        Ok(())
    } else {
        Err(ConfigError::new(
            field,
            format!(
                "must be in 0.001..=86400 seconds (got {})",
                Shortest(seconds)
            ),
        ))
    }
}

/// The kubelet's CrashLoopBackOff for one container.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrashLoopBackOff {
    backoff: Backoff,
    next_restart_at: Option<SimTime>,
    last_wait: Duration,
}

impl CrashLoopBackOff {
    /// A container that has not crashed yet; rejects an invalid config.
    pub fn new(config: &CrashLoopConfig) -> Result<CrashLoopBackOff, ConfigError> {
        Ok(CrashLoopBackOff {
            backoff: config.backoff()?,
            next_restart_at: None,
            last_wait: Duration::ZERO,
        })
    }

    /// The container exited at `finished_at`: returns when the kubelet restarts it. The
    /// housekeeping GC and the restart decision (`Next(FinishedAt)` with the clock at the restart
    /// time) are applied at once, since nothing else changes the entry in between: the wait ends
    /// at `FinishedAt + backoff`, or at the first housekeeping tick before that which drops the
    /// entry (then, or if it was dropped while the container ran, `Next` finds no entry).
    pub fn on_container_exit(&mut self, finished_at: SimTime) -> SimTime {
        let waited = self.backoff.backoff_ends(finished_at);
        let restart_at = match self.backoff.gc_at(HOUSEKEEPING_PERIOD) {
            Some(gc) if gc < waited => {
                self.backoff.reset();
                gc.max(finished_at)
            }
            _ => waited,
        };
        self.last_wait = restart_at.saturating_since(finished_at);
        self.backoff.next(finished_at, restart_at);
        self.next_restart_at = Some(restart_at);
        restart_at
    }

    /// When the container restarts, while it waits.
    pub fn next_restart_at(&self) -> Option<SimTime> {
        self.next_restart_at
    }

    /// Whether the container is waiting at `now` (the `CrashLoopBackOff` waiting reason).
    pub fn is_backing_off(&self, now: SimTime) -> bool {
        self.next_restart_at.is_some_and(|at| now < at)
    }

    /// The container was started: nothing is pending any more.
    pub fn on_container_started(&mut self) {
        self.next_restart_at = None;
    }

    /// The wait before the last restart ("back-off 20s restarting failed container").
    pub fn last_wait(&self) -> Duration {
        self.last_wait
    }

    /// The backoff the next crash waits, unless the entry expires first.
    pub fn current_backoff(&self) -> Duration {
        self.backoff.get()
    }

    /// The underlying `flowcontrol.Backoff`.
    pub fn backoff(&self) -> &Backoff {
        &self.backoff
    }
}
