//! client-go's Reflector (`tools/cache/reflector.go`) as an explicit state machine.
//!
//! ```text
//!            start                      list ok: Replace + Watch
//!  Idle ────────────▶ Listing{rv} ─────────────────────────────▶ Watching{from, timeout}
//!                      │  ▲   │ Expired/TooLarge (1st try): List{""} at once   │   ▲
//!          list error  │  │   └──────────────▶ Listing{"", retry}              │   │ closed normally:
//!                      ▼  │ backoff elapsed                                    │   │ re-watch, no relist
//!                    Backoff ◀──── 410 / VeryShortWatch / other error ─────────┤   │
//!                                                                              │   │
//!                                   429 / connection refused ──▶ WatchBackoff ─┘───┘
//! ```
//!
//! Every step takes its inputs (the current virtual time, the seeded [`Rng`]) and returns the
//! [`Action`]s the caller must perform: send a LIST or WATCH, replace or update the store, wait a
//! backoff step, arm the resync timer. Nothing here reads a clock or draws other randomness.
//!
//! Modelled at client-go v0.36. With [`ReflectorConfig::use_watch_list`] (gate `WatchListClient`,
//! on by default since v0.35) each ListAndWatch starts with a streaming watch-list instead of the
//! LIST, and falls back to the LIST when the server refuses it (see [`watch_list`]). Pagination is
//! not modelled.
//! Details where the upstream code is easy to misread, and which the model follows:
//! - the watch `timeoutSeconds` is a whole number of seconds, `int64(300 + rand·300)`;
//! - an `InternalError` ends the watch and relists unless `MaxInternalErrorRetryDuration` (default 0)
//!   allows an immediate re-watch (`retry_with_deadline.go`).

mod watch_list;

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::apiserver::ListItems;
use crate::error::ConfigError;
use crate::float_text::Shortest;
use crate::key::Key;
use crate::object::ObjectRef;
use crate::sim::Rng;
use crate::time::SimTime;

pub use watch_list::{is_initial_events_end, INITIAL_EVENTS_END_ANNOTATION};

/// `defaultMinWatchTimeout`: watches last a random whole number of seconds in [5 min, 10 min).
pub const DEFAULT_MIN_WATCH_TIMEOUT: Duration = Duration::from_secs(5 * 60);
/// `defaultBackoffInit`: the first backoff step's base.
pub const DEFAULT_BACKOFF_INIT: Duration = Duration::from_millis(800);
/// `defaultBackoffMax`: the base stops growing here (steps land in [30 s, 60 s)).
pub const DEFAULT_BACKOFF_MAX: Duration = Duration::from_secs(30);
/// `defaultBackoffReset`: the backoff restarts when this long has passed since its last reset.
pub const DEFAULT_BACKOFF_RESET: Duration = Duration::from_secs(2 * 60);
/// `defaultBackoffFactor`.
pub const DEFAULT_BACKOFF_FACTOR: f64 = 2.0;
/// `defaultBackoffJitter`: each step is `base · (1 + rand·1.0)`, i.e. in [base, 2·base).
pub const DEFAULT_BACKOFF_JITTER: f64 = 1.0;
/// A watch that closes sooner than this with no events is a `VeryShortWatchError`.
pub const VERY_SHORT_WATCH: Duration = Duration::from_secs(1);
/// `RetryWithDeadline`'s `minResetPeriod` for internal watch errors (`time.Minute`).
pub const INTERNAL_ERROR_RESET_PERIOD: Duration = Duration::from_secs(60);

/// `wait.Backoff` (apimachinery `pkg/util/wait/backoff.go`): exponential steps with jitter and a cap.
#[derive(Clone, Debug, PartialEq)]
pub struct Backoff {
    /// The current base (`Duration`).
    pub duration: Duration,
    /// Multiplier applied to the base after each step (`Factor`); 0 = constant.
    pub factor: f64,
    /// Each step adds up to `jitter · base` (`Jitter`); 0 = none.
    pub jitter: f64,
    /// Remaining steps that may still change the base (`Steps`); below 1 the base stays put.
    pub steps: u32,
    /// Ceiling for the base (`Cap`); reaching it zeroes `steps`. Zero = no cap.
    pub cap: Duration,
}

impl Backoff {
    /// A validated backoff: factor and jitter must be finite and non-negative.
    pub fn new(
        duration: Duration,
        factor: f64,
        jitter: f64,
        steps: u32,
        cap: Duration,
    ) -> Result<Backoff, ConfigError> {
        check_non_negative("backoff.factor", factor)?;
        check_non_negative("backoff.jitter", jitter)?;
        Ok(Backoff {
            duration,
            factor,
            jitter,
            steps,
            cap,
        })
    }

    /// The reflector's backoff (`NewReflectorWithOptions`): 800 ms, ×2, jitter 1.0, cap 30 s,
    /// steps = ceil(30 s / 800 ms) = 38.
    pub fn reflector_default() -> Backoff {
        let steps = DEFAULT_BACKOFF_MAX
            .as_nanos()
            .div_ceil(DEFAULT_BACKOFF_INIT.as_nanos());
        Backoff {
            duration: DEFAULT_BACKOFF_INIT,
            factor: DEFAULT_BACKOFF_FACTOR,
            jitter: DEFAULT_BACKOFF_JITTER,
            steps: u32::try_from(steps).unwrap_or(u32::MAX),
            cap: DEFAULT_BACKOFF_MAX,
        }
    }

    /// One step (`Backoff.Step` / `delay`): returns the jittered current base and advances the base
    /// by `factor` (capped). Draws from `rng` only when `jitter > 0`.
    pub fn step(&mut self, rng: &mut Rng) -> Duration {
        if self.steps < 1 {
            return self.jittered(self.duration, rng);
        }
        self.steps -= 1;
        let current = self.duration;
        if self.factor != 0.0 {
            let mut next = scale(current, self.factor);
            if !self.cap.is_zero() && next > self.cap {
                next = self.cap;
                self.steps = 0;
            }
            self.duration = next;
        }
        self.jittered(current, rng)
    }

    /// `Jitter(d, jitter)` when jitter is positive, else `d`.
    fn jittered(&self, d: Duration, rng: &mut Rng) -> Duration {
        if self.jitter > 0.0 {
            d + scale(d, rng.next_f64() * self.jitter)
        } else {
            d
        }
    }
}

/// `time.Duration(float64(d) * factor)`: truncates to whole nanoseconds, saturates.
fn scale(d: Duration, factor: f64) -> Duration {
    Duration::from_nanos((crate::time::duration_nanos_f64(d) * factor) as u64)
}

/// Rejects a negative or non-finite float.
fn check_non_negative(field: &str, value: f64) -> Result<(), ConfigError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(ConfigError::new(
            field,
            format!("must be a finite number >= 0 (got {})", Shortest(value)),
        ))
    }
}

/// The reflector's delay function (`Backoff.DelayWithReset` → `backoffManager.Step`, apimachinery
/// `pkg/util/wait/backoff.go`): steps a [`Backoff`], restarting it from the initial one when more
/// than `reset_interval` has passed since the **last reset** (`lastStart` moves only on reset, so
/// a reflector failing continuously still resets every 2 minutes).
#[derive(Clone, Debug, PartialEq)]
pub struct BackoffManager {
    /// The backoff being stepped.
    backoff: Backoff,
    /// What a reset restores.
    initial: Backoff,
    /// Reset after this long since `last_start`; zero resets on every step.
    reset_interval: Duration,
    /// When the manager was created or last reset (`lastStart`).
    last_start: SimTime,
}

impl BackoffManager {
    /// A manager created at `now` (`DelayWithReset` sets `lastStart = clock.Now()`).
    pub fn new(backoff: Backoff, reset_interval: Duration, now: SimTime) -> BackoffManager {
        BackoffManager {
            initial: backoff.clone(),
            backoff,
            reset_interval,
            last_start: now,
        }
    }

    /// The next delay (`backoffManager.Step`).
    pub fn step(&mut self, now: SimTime, rng: &mut Rng) -> Duration {
        if self.reset_interval.is_zero() {
            self.backoff = self.initial.clone();
        } else if now.saturating_since(self.last_start) > self.reset_interval {
            self.backoff = self.initial.clone();
            self.last_start = now;
        }
        self.backoff.step(rng)
    }

    /// The base the next step will jitter (before any reset).
    pub fn current_base(&self) -> Duration {
        self.backoff.duration
    }

    /// When the manager was created or last reset.
    pub fn last_start(&self) -> SimTime {
        self.last_start
    }
}

/// `RetryWithDeadline` (client-go `tools/cache/retry_with_deadline.go`) for internal watch errors.
#[derive(Clone, Debug, PartialEq, Eq)]
struct InternalErrorRetry {
    /// `maxRetryDuration`; zero disables retries.
    max_retry_duration: Duration,
    /// `firstErrorTime` (None = Go's zero time).
    first_error: Option<SimTime>,
    /// `lastErrorTime`.
    last_error: Option<SimTime>,
}

impl InternalErrorRetry {
    /// `After(err)` for an internal error at `now`.
    fn after_internal_error(&mut self, now: SimTime) {
        let stale = self
            .last_error
            .is_none_or(|last| now.saturating_since(last) >= INTERNAL_ERROR_RESET_PERIOD);
        if stale {
            self.first_error = None;
        }
        self.first_error.get_or_insert(now);
        self.last_error = Some(now);
    }

    /// `ShouldRetry()` at `now`.
    fn should_retry(&mut self, now: SimTime) -> bool {
        if self.max_retry_duration.is_zero() {
            return false;
        }
        let first = self.first_error.unwrap_or(SimTime::ZERO);
        if now.saturating_since(first) <= self.max_retry_duration {
            return true;
        }
        self.first_error = None;
        self.last_error = None;
        false
    }
}

/// The resourceVersion parameter of a LIST.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ListRv {
    /// `"0"`: any version, served from the watch cache (the first list).
    Zero,
    /// `"<rv>"`: not older than rv (relists after a watch ended).
    Exact(u64),
    /// `""`: the latest, a consistent read (after the last RV turned out to be unavailable).
    Latest,
}

impl fmt::Display for ListRv {
    /// The wire form: `0`, the number, or the empty string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ListRv::Zero => f.write_str("0"),
            ListRv::Exact(rv) => write!(f, "{rv}"),
            ListRv::Latest => Ok(()),
        }
    }
}

/// What made a LIST or WATCH fail (an HTTP status, a transport error, or an `ERROR` watch event).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum WatchError {
    /// 410 Gone, reason Expired: the resourceVersion was compacted away.
    Expired,
    /// 429 Too Many Requests.
    TooManyRequests,
    /// "Too large resource version": the server has not reached the requested RV yet.
    TooLargeResourceVersion,
    /// Any other error.
    Other,
    /// The TCP connection was refused (apiserver down).
    ConnectionRefused,
    /// 500 Internal Server Error (e.g. etcd has no leader).
    InternalError,
}

/// LIST failures use the same error kinds as watches.
pub type ListError = WatchError;

/// The type of a watch event: the one `watch.EventType` the API server sends (apimachinery
/// `pkg/watch/watch.go`). An `ERROR` event carries a `Status`, so it arrives as
/// [`Reflector::on_watch_error`] (client-go `tools/cache/reflector.go` `handleAnyWatch` returns
/// it as an error); given to [`Reflector::on_watch_event`] it is ignored.
pub use crate::apiserver::WatchEventType;

/// A store operation from one watch event (`store.Add` / `store.Update` / `store.Delete`).
#[derive(Clone, Debug, PartialEq)]
pub enum StoreEvent {
    /// `store.Add(obj)` for an `ADDED` event.
    Added(ObjectRef),
    /// `store.Update(obj)` for a `MODIFIED` event.
    Modified(ObjectRef),
    /// `store.Delete(obj)` for a `DELETED` event (the object's last state).
    Deleted(ObjectRef),
}

/// What the caller must do after a step.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Send a LIST with this resourceVersion; answer with `on_list_ok` or `on_list_error`.
    List {
        /// The `resourceVersion` parameter.
        resource_version: ListRv,
    },
    /// Open a streaming watch-list: a WATCH with `sendInitialEvents=true`,
    /// `resourceVersionMatch=NotOlderThan`, `allowWatchBookmarks=true`; feed its events to
    /// `on_watch_event`, its end to `on_watch_closed` or `on_watch_error`.
    WatchList {
        /// The `resourceVersion` parameter (`""` or the last synced RV).
        resource_version: ListRv,
        /// The server-side timeout (a whole number of seconds).
        timeout: Duration,
    },
    /// Open a WATCH from `from` with `timeoutSeconds = timeout` and bookmarks allowed; feed its
    /// events to `on_watch_event` and its end to `on_watch_closed` or `on_watch_error`.
    Watch {
        /// The resourceVersion to watch from (exclusive).
        from: u64,
        /// The server-side timeout (a whole number of seconds).
        timeout: Duration,
    },
    /// `store.Replace(items, resourceVersion)` with a LIST result.
    Replace {
        /// The listed objects.
        items: ListItems,
        /// The list's resourceVersion.
        resource_version: u64,
    },
    /// Apply one watch event to the store.
    Apply(StoreEvent),
    /// Call `on_backoff_elapsed` after this long.
    WaitBackoff(Duration),
    /// Call `on_resync_timer(epoch, ..)` after `after` (the reflector's resync timer).
    ScheduleResync {
        /// The timer period.
        after: Duration,
        /// Identifies this timer; a timer from an earlier ListAndWatch is ignored.
        epoch: u64,
    },
    /// `store.Resync()`.
    Resync,
    /// Close the open watch (the reflector was stopped while watching).
    StopWatch,
}

/// Where the reflector is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReflectorState {
    /// Not started.
    Idle,
    /// A LIST is in flight.
    Listing {
        /// What was requested.
        resource_version: ListRv,
        /// Whether this is the immediate `""` retry after an Expired/TooLarge list.
        consistent_retry: bool,
    },
    /// A watch-list stream is open and its initial events are being gathered.
    WatchListing {
        /// What was requested.
        resource_version: ListRv,
        /// Its server-side timeout.
        timeout: Duration,
        /// When it was opened.
        started_at: SimTime,
    },
    /// A watch-list failed with 429 / connection refused; waiting one backoff step to retry it.
    WatchListBackoff {
        /// When the wait ends.
        until: SimTime,
    },
    /// A WATCH is open.
    Watching {
        /// The resourceVersion it started from.
        from: u64,
        /// Its server-side timeout.
        timeout: Duration,
        /// When it was opened.
        started_at: SimTime,
    },
    /// ListAndWatch returned; waiting one backoff step before the next LIST.
    Backoff {
        /// When the wait ends.
        until: SimTime,
    },
    /// A watch failed with 429 / connection refused; waiting one backoff step before re-watching.
    WatchBackoff {
        /// When the wait ends.
        until: SimTime,
    },
    /// Stopped for good.
    Stopped,
}

impl ReflectorState {
    /// A short name for displays: `idle`, `listing`, `watch-listing`, `watching`, `backoff`,
    /// `watch-backoff`, `watch-list-backoff`, `stopped`.
    pub fn name(&self) -> &'static str {
        match self {
            ReflectorState::Idle => "idle",
            ReflectorState::Listing { .. } => "listing",
            ReflectorState::WatchListing { .. } => "watch-listing",
            ReflectorState::WatchListBackoff { .. } => "watch-list-backoff",
            ReflectorState::Watching { .. } => "watching",
            ReflectorState::Backoff { .. } => "backoff",
            ReflectorState::WatchBackoff { .. } => "watch-backoff",
            ReflectorState::Stopped => "stopped",
        }
    }
}

/// Counters for metrics and the UI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReflectorCounters {
    /// LIST requests sent (including immediate `""` retries).
    pub lists: u64,
    /// LIST requests after the first one.
    pub relists: u64,
    /// LIST requests that failed.
    pub list_errors: u64,
    /// WATCH requests sent.
    pub watches: u64,
    /// Watches that ended with an error.
    pub watch_errors: u64,
    /// Watches that closed in under 1 s with no events.
    pub very_short_watches: u64,
    /// Watch events received (all types).
    pub watch_events: u64,
    /// Backoff waits requested.
    pub backoffs: u64,
    /// `store.Resync()` calls.
    pub resyncs: u64,
    /// Inputs that did not fit the current state and were ignored.
    pub ignored_inputs: u64,
    /// Watch-list requests sent (WATCH with `sendInitialEvents=true`).
    pub watch_lists: u64,
    /// Watch-lists that gave way to a LIST.
    pub watch_list_fallbacks: u64,
}

/// Reflector settings (`ReflectorOptions`, `MaxInternalErrorRetryDuration`).
#[derive(Clone, Debug, PartialEq)]
pub struct ReflectorConfig {
    /// The store resync timer period (the informer's resync check period); 0 = none.
    pub resync_period: Duration,
    /// `MinWatchTimeout`; values not above 5 min are ignored (upstream does not honor them).
    pub min_watch_timeout: Duration,
    /// The backoff between ListAndWatch calls and before retriable re-watches.
    pub backoff: Backoff,
    /// Restart the backoff when this long has passed since its last reset.
    pub backoff_reset: Duration,
    /// `MaxInternalErrorRetryDuration`: how long internal watch errors are retried without a relist.
    pub max_internal_error_retry_duration: Duration,
    /// `useWatchList` (gate `WatchListClient`, client-go ≥ v0.35 default on): the initial sync and
    /// every relist stream a watch-list instead of sending a LIST.
    pub use_watch_list: bool,
}

impl Default for ReflectorConfig {
    /// Upstream defaults: no resync, 5 min watch timeout floor, the reflector backoff, 2 min reset;
    /// LIST + WATCH (the caller turns watch-list on for client-go ≥ v0.35).
    fn default() -> Self {
        ReflectorConfig {
            resync_period: Duration::ZERO,
            min_watch_timeout: DEFAULT_MIN_WATCH_TIMEOUT,
            backoff: Backoff::reflector_default(),
            backoff_reset: DEFAULT_BACKOFF_RESET,
            max_internal_error_retry_duration: Duration::ZERO,
            use_watch_list: false,
        }
    }
}

/// The Reflector: lists, then watches from the listed resourceVersion, and recovers from every
/// watch ending the way `tools/cache/reflector.go` does.
#[derive(Clone, Debug)]
pub struct Reflector {
    /// Settings.
    config: ReflectorConfig,
    /// Watch timeout bounds in seconds (`minWatchTimeout`, `maxWatchTimeout`).
    watch_timeout_secs: (u64, u64),
    /// Where the reflector is.
    state: ReflectorState,
    /// `lastSyncResourceVersion`; None is the empty string (nothing synced yet).
    last_sync_resource_version: Option<u64>,
    /// `isLastSyncResourceVersionUnavailable`.
    last_sync_rv_unavailable: bool,
    /// The delay function.
    backoff: BackoffManager,
    /// Internal-error retry bookkeeping for the current ListAndWatch.
    internal_retry: InternalErrorRetry,
    /// Whether RVs of ADDED events propagate (false when the watch started at RV 0).
    propagate_rv_from_start: bool,
    /// Whether the current watch saw anything but ADDED.
    event_besides_added: bool,
    /// Events in the current watch.
    events_in_watch: u64,
    /// The active resync timer, if a watch phase is running.
    resync_epoch: Option<u64>,
    /// Last epoch handed out.
    last_epoch: u64,
    /// Counters.
    counters: ReflectorCounters,
    /// The watch-list's temporary store, by key.
    temporary_store: BTreeMap<Key, ObjectRef>,
    /// Bytes of the objects in the temporary store.
    temporary_store_bytes: u64,
}

impl Default for Reflector {
    /// A reflector with upstream defaults.
    fn default() -> Self {
        Reflector::from_valid_config(ReflectorConfig::default())
    }
}

impl Reflector {
    /// A reflector with `config`, validated: backoff factor/jitter finite and ≥ 0.
    pub fn new(config: ReflectorConfig) -> Result<Reflector, ConfigError> {
        check_non_negative("reflector.backoff.factor", config.backoff.factor)?;
        check_non_negative("reflector.backoff.jitter", config.backoff.jitter)?;
        Ok(Reflector::from_valid_config(config))
    }

    /// Builds from an already validated config.
    fn from_valid_config(config: ReflectorConfig) -> Reflector {
        let min = config.min_watch_timeout.max(DEFAULT_MIN_WATCH_TIMEOUT);
        let min_secs = min.as_secs();
        let backoff =
            BackoffManager::new(config.backoff.clone(), config.backoff_reset, SimTime::ZERO);
        Reflector {
            watch_timeout_secs: (min_secs, min_secs.saturating_mul(2)),
            internal_retry: InternalErrorRetry {
                max_retry_duration: config.max_internal_error_retry_duration,
                first_error: None,
                last_error: None,
            },
            config,
            state: ReflectorState::Idle,
            last_sync_resource_version: None,
            last_sync_rv_unavailable: false,
            backoff,
            propagate_rv_from_start: true,
            event_besides_added: false,
            events_in_watch: 0,
            resync_epoch: None,
            last_epoch: 0,
            counters: ReflectorCounters::default(),
            temporary_store: BTreeMap::new(),
            temporary_store_bytes: 0,
        }
    }

    /// The current state.
    pub fn state(&self) -> &ReflectorState {
        &self.state
    }

    /// The settings.
    pub fn config(&self) -> &ReflectorConfig {
        &self.config
    }

    /// `LastSyncResourceVersion()`; None = `""`.
    pub fn last_sync_resource_version(&self) -> Option<u64> {
        self.last_sync_resource_version
    }

    /// Whether the last LIST hit Expired/TooLarge, so the next one is a consistent `""` read.
    pub fn is_last_sync_resource_version_unavailable(&self) -> bool {
        self.last_sync_rv_unavailable
    }

    /// Counters for metrics.
    pub fn counters(&self) -> ReflectorCounters {
        self.counters
    }

    /// The backoff manager (for displays).
    pub fn backoff(&self) -> &BackoffManager {
        &self.backoff
    }

    /// `relistResourceVersion()`: `""` after an unavailable RV, `"0"` before the first sync,
    /// else the last synced RV.
    pub fn relist_resource_version(&self) -> ListRv {
        match self.last_sync_resource_version {
            _ if self.last_sync_rv_unavailable => ListRv::Latest,
            None | Some(0) => ListRv::Zero,
            Some(rv) => ListRv::Exact(rv),
        }
    }

    /// `Run`: the reflector is built when its informer runs, so the backoff clock starts `now`;
    /// the first ListAndWatch starts immediately with a LIST at `"0"` (or a watch-list at `""`).
    pub fn start(&mut self, now: SimTime, rng: &mut Rng) -> Vec<Action> {
        if self.state != ReflectorState::Idle {
            return self.ignore();
        }
        self.backoff =
            BackoffManager::new(self.config.backoff.clone(), self.config.backoff_reset, now);
        vec![self.list_and_watch(now, rng)]
    }

    /// Stops the reflector; a watch in progress is closed. Every later input is ignored.
    pub fn stop(&mut self) -> Vec<Action> {
        let was_watching = matches!(
            self.state,
            ReflectorState::Watching { .. } | ReflectorState::WatchListing { .. }
        );
        self.clear_temporary_store();
        self.state = ReflectorState::Stopped;
        self.resync_epoch = None;
        if was_watching {
            vec![Action::StopWatch]
        } else {
            Vec::new()
        }
    }

    /// A LIST succeeded (`list` → `syncWith` → `watchWithResync`): replace the store, remember the
    /// list RV, arm the resync timer, open a watch from the list RV.
    pub fn on_list_ok(
        &mut self,
        items: impl Into<ListItems>,
        list_rv: u64,
        now: SimTime,
        rng: &mut Rng,
    ) -> Vec<Action> {
        if !matches!(self.state, ReflectorState::Listing { .. }) {
            return self.ignore();
        }
        self.last_sync_rv_unavailable = false;
        self.last_sync_resource_version = Some(list_rv);
        let mut actions = vec![Action::Replace {
            items: items.into(),
            resource_version: list_rv,
        }];
        actions.extend(self.arm_resync_timer());
        actions.push(self.open_watch(now, rng));
        actions
    }

    /// A LIST failed. Expired / TooLarge on the first attempt: retry at once with `""`. Otherwise
    /// ListAndWatch returns the error and the reflector waits one backoff step before relisting.
    pub fn on_list_error(&mut self, err: ListError, now: SimTime, rng: &mut Rng) -> Vec<Action> {
        let ReflectorState::Listing {
            consistent_retry, ..
        } = self.state
        else {
            return self.ignore();
        };
        self.counters.list_errors += 1;
        let unavailable = matches!(
            err,
            WatchError::Expired | WatchError::TooLargeResourceVersion
        );
        if unavailable {
            self.last_sync_rv_unavailable = true;
        }
        if unavailable && !consistent_retry {
            return vec![self.send_list(true)];
        }
        vec![self.end_list_and_watch(now, rng)]
    }

    /// One watch event (`handleAnyWatch`): ADDED/MODIFIED/DELETED become store operations; BOOKMARK
    /// only moves the resourceVersion. Each event's RV becomes the last synced RV, except ADDEDs of
    /// a watch from RV 0 before any other event type (synthetic initial events).
    /// During a watch-list the events fill the temporary store instead (see [`watch_list`]).
    pub fn on_watch_event(&mut self, event_type: WatchEventType, object: ObjectRef) -> Vec<Action> {
        if self.is_watch_listing() {
            return self.on_initial_event(event_type, object);
        }
        self.on_stream_event(event_type, object)
            .into_iter()
            .collect()
    }

    /// [`Reflector::on_watch_event`] outside a watch-list, where an event gives one action at
    /// most: the store operation it becomes (no list of actions to allocate per event).
    pub fn on_stream_event(
        &mut self,
        event_type: WatchEventType,
        object: ObjectRef,
    ) -> Option<Action> {
        if !matches!(self.state, ReflectorState::Watching { .. }) {
            self.counters.ignored_inputs += 1;
            return None;
        }
        self.counters.watch_events += 1;
        self.events_in_watch += 1;
        if event_type != WatchEventType::Added {
            self.event_besides_added = true;
        }
        if self.propagate_rv_from_start || self.event_besides_added {
            self.last_sync_resource_version = Some(object.resource_version());
        }
        match event_type {
            WatchEventType::Added => Some(Action::Apply(StoreEvent::Added(object))),
            WatchEventType::Modified => Some(Action::Apply(StoreEvent::Modified(object))),
            WatchEventType::Deleted => Some(Action::Apply(StoreEvent::Deleted(object))),
            WatchEventType::Bookmark | WatchEventType::Error => None,
        }
    }

    /// Whether a watch-list is under way: its events fill the temporary store and may end it
    /// (see [`Reflector::on_watch_event`]).
    pub fn is_watch_listing(&self) -> bool {
        matches!(self.state, ReflectorState::WatchListing { .. })
    }

    /// The server closed the watch without an error (its timeout, or a dropped stream).
    /// Under 1 s with no events it is a `VeryShortWatchError`: backoff, then relist. Otherwise
    /// re-watch at once from the last synced RV, without relisting. `events_received` is the
    /// caller's count of events delivered on this watch.
    pub fn on_watch_closed(
        &mut self,
        now: SimTime,
        events_received: u64,
        rng: &mut Rng,
    ) -> Vec<Action> {
        if matches!(self.state, ReflectorState::WatchListing { .. }) {
            return self.on_watch_list_closed(now, events_received, rng);
        }
        let ReflectorState::Watching { started_at, .. } = self.state else {
            return self.ignore();
        };
        if now.saturating_since(started_at) < VERY_SHORT_WATCH && events_received == 0 {
            self.counters.very_short_watches += 1;
            return vec![self.end_list_and_watch(now, rng)];
        }
        vec![self.open_watch(now, rng)]
    }

    /// The watch failed (request refused, or an `ERROR` event). 429 / connection refused: wait a
    /// backoff step, then re-watch without relisting. InternalError: re-watch at once while
    /// `max_internal_error_retry_duration` allows. Anything else (410 Expired included): ListAndWatch
    /// returns, and after one backoff step the reflector relists from the last synced RV.
    ///
    /// Upstream distinguishes a refused watch request from an `ERROR` event only for internal
    /// errors (a refused request is never retried); the caller reports both here, so with a non-zero
    /// `max_internal_error_retry_duration` a refused request is retried like a stream error.
    pub fn on_watch_error(&mut self, err: WatchError, now: SimTime, rng: &mut Rng) -> Vec<Action> {
        if matches!(self.state, ReflectorState::WatchListing { .. }) {
            return self.on_watch_list_error(err, now, rng);
        }
        if !matches!(self.state, ReflectorState::Watching { .. }) {
            return self.ignore();
        }
        self.counters.watch_errors += 1;
        match err {
            WatchError::TooManyRequests | WatchError::ConnectionRefused => {
                let delay = self.step_backoff(now, rng);
                self.state = ReflectorState::WatchBackoff { until: now + delay };
                vec![Action::WaitBackoff(delay)]
            }
            WatchError::InternalError if self.retry_internal_error(now) => {
                vec![self.open_watch(now, rng)]
            }
            _ => vec![self.end_list_and_watch(now, rng)],
        }
    }

    /// A backoff wait ended: relist (after ListAndWatch returned) or re-watch (after a 429).
    pub fn on_backoff_elapsed(&mut self, now: SimTime, rng: &mut Rng) -> Vec<Action> {
        match self.state {
            ReflectorState::Backoff { .. } => vec![self.list_and_watch(now, rng)],
            ReflectorState::WatchBackoff { .. } => vec![self.open_watch(now, rng)],
            ReflectorState::WatchListBackoff { .. } => vec![self.send_watch_list(now, rng)],
            _ => self.ignore(),
        }
    }

    /// Whether the resync timer `epoch` belongs to the running watch phase (a stale timer is
    /// ignored by [`Reflector::on_resync_timer`]).
    pub fn is_current_resync(&self, epoch: u64) -> bool {
        self.resync_epoch == Some(epoch)
    }

    /// The resync timer `epoch` fired (`startResync`). If it belongs to the running watch phase,
    /// `should_resync` is consulted (the shared processor's `shouldResync`, called only here) and
    /// on true the store is resynced; the timer is re-armed. A stale timer is ignored.
    pub fn on_resync_timer(
        &mut self,
        epoch: u64,
        should_resync: impl FnOnce() -> bool,
    ) -> Vec<Action> {
        if self.resync_epoch != Some(epoch) {
            return self.ignore();
        }
        let mut actions = Vec::new();
        if should_resync() {
            self.counters.resyncs += 1;
            actions.push(Action::Resync);
        }
        actions.push(Action::ScheduleResync {
            after: self.config.resync_period,
            epoch,
        });
        actions
    }

    /// Starts one ListAndWatch: a fresh internal-error budget and a LIST, or a watch-list when
    /// `use_watch_list` is on.
    fn list_and_watch(&mut self, now: SimTime, rng: &mut Rng) -> Action {
        self.internal_retry.first_error = None;
        self.internal_retry.last_error = None;
        if self.config.use_watch_list {
            return self.send_watch_list(now, rng);
        }
        self.send_list(false)
    }

    /// Sends a LIST at `relistResourceVersion()`.
    fn send_list(&mut self, consistent_retry: bool) -> Action {
        if self.counters.lists > 0 {
            self.counters.relists += 1;
        }
        self.counters.lists += 1;
        let resource_version = self.relist_resource_version();
        self.state = ReflectorState::Listing {
            resource_version,
            consistent_retry,
        };
        Action::List { resource_version }
    }

    /// Opens a watch from the last synced RV with a random whole-second timeout in [min, max).
    fn open_watch(&mut self, now: SimTime, rng: &mut Rng) -> Action {
        let from = self.last_sync_resource_version.unwrap_or(0);
        let timeout = self.random_watch_timeout(rng);
        self.counters.watches += 1;
        self.propagate_rv_from_start = from != 0;
        self.event_besides_added = false;
        self.events_in_watch = 0;
        self.state = ReflectorState::Watching {
            from,
            timeout,
            started_at: now,
        };
        Action::Watch { from, timeout }
    }

    /// `int64(min + rand·(max − min))` seconds.
    fn random_watch_timeout(&self, rng: &mut Rng) -> Duration {
        let (min, max) = self.watch_timeout_secs;
        let span = max.saturating_sub(min) as f64;
        Duration::from_secs((min as f64 + rng.next_f64() * span) as u64)
    }

    /// ListAndWatch returned: stop the resync timer and wait one backoff step before relisting.
    fn end_list_and_watch(&mut self, now: SimTime, rng: &mut Rng) -> Action {
        self.resync_epoch = None;
        let delay = self.step_backoff(now, rng);
        self.state = ReflectorState::Backoff { until: now + delay };
        Action::WaitBackoff(delay)
    }

    /// One step of the delay function.
    fn step_backoff(&mut self, now: SimTime, rng: &mut Rng) -> Duration {
        self.counters.backoffs += 1;
        self.backoff.step(now, rng)
    }

    /// `retry.After(err)` then `retry.ShouldRetry()` for an internal error.
    fn retry_internal_error(&mut self, now: SimTime) -> bool {
        self.internal_retry.after_internal_error(now);
        self.internal_retry.should_retry(now)
    }

    /// Starts the resync timer of a new watch phase, if resync is on.
    fn arm_resync_timer(&mut self) -> Option<Action> {
        if self.config.resync_period.is_zero() {
            self.resync_epoch = None;
            return None;
        }
        self.last_epoch += 1;
        self.resync_epoch = Some(self.last_epoch);
        Some(Action::ScheduleResync {
            after: self.config.resync_period,
            epoch: self.last_epoch,
        })
    }

    /// Counts an input that does not fit the state.
    fn ignore(&mut self) -> Vec<Action> {
        self.counters.ignored_inputs += 1;
        Vec::new()
    }
}
