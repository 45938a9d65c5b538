//! Watch events and the per-kind watch cache event window.
//!
//! Follows apiserver `pkg/storage/cacher/watch_cache_history.go` (the ring buffer, its dynamic
//! capacity and `GetIntervalLocked`'s 410) and `pkg/storage/cacher/watch_cache.go`
//! (`getAllEventsSinceLocked`: RV 0 replays the current state as ADDED events).
//!
//! ```text
//!   write ──▶ event(rv) ──▶ [ oldest … newest ]  capacity 100 … 102400
//!                               ▲
//!   watch_from(r): r < oldest−1 ⇒ 410 "too old resource version: r (oldest−1)"
//!                  else        ⇒ every buffered event with rv > r
//! ```

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::request::ApiError;
use crate::error::ConfigError;
use crate::float_text::Shortest;
use crate::object::{Object, ObjectRef};
use crate::sim::chunked::ChunkedDeque;
use crate::time::SimTime;
use crate::vec_map::VecMap;

/// `watch.EventType` (apimachinery `pkg/watch/watch.go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum WatchEventType {
    /// `ADDED`.
    Added,
    /// `MODIFIED`.
    Modified,
    /// `DELETED`: the object's last state, with the deletion revision as resourceVersion.
    Deleted,
    /// `BOOKMARK`: only moves the watcher's resourceVersion.
    Bookmark,
    /// `ERROR`: carries a `metav1.Status`; the stream ends after it.
    Error,
}

impl WatchEventType {
    /// The wire spelling (`ADDED`, `MODIFIED`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            WatchEventType::Added => "ADDED",
            WatchEventType::Modified => "MODIFIED",
            WatchEventType::Deleted => "DELETED",
            WatchEventType::Bookmark => "BOOKMARK",
            WatchEventType::Error => "ERROR",
        }
    }
}

/// Annotation on the bookmark that ends a watch-list's initial events
/// (apimachinery `metav1.InitialEventsAnnotationKey`).
pub const INITIAL_EVENTS_END_ANNOTATION: &str = "k8s.io/initial-events-end";

/// One watch event.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchEvent {
    /// The event type.
    pub event_type: WatchEventType,
    /// The object; for BOOKMARK an empty object of the kind carrying only the resourceVersion, for
    /// ERROR an empty `Status` object (the error itself is in [`WatchEvent::status`]).
    pub object: ObjectRef,
    /// The event's resourceVersion (for DELETED, the deletion revision).
    pub resource_version: u64,
    /// For ERROR events, the `metav1.Status`: boxed, so that the event, which the event queue
    /// and the watch cache move and hold by the thousand, is not as large as a rare error.
    pub status: Option<Box<ApiError>>,
}

impl WatchEvent {
    /// An ADDED / MODIFIED / DELETED event for `object` at its resourceVersion.
    pub fn new(event_type: WatchEventType, object: ObjectRef) -> WatchEvent {
        WatchEvent {
            event_type,
            resource_version: object.metadata.resource_version,
            object,
            status: None,
        }
    }

    /// A BOOKMARK for `kind` at `resource_version`; `initial_events_end` adds the
    /// `k8s.io/initial-events-end: "true"` annotation that closes a watch-list's initial state.
    pub fn bookmark(kind: &str, resource_version: u64, initial_events_end: bool) -> WatchEvent {
        let mut o = Object::new(kind, "", "");
        o.metadata.resource_version = resource_version;
        o.size_bytes = 0;
        if initial_events_end {
            o.metadata.annotations = Some(Box::new(VecMap::from([(
                INITIAL_EVENTS_END_ANNOTATION.to_owned(),
                "true".to_owned(),
            )])));
        }
        WatchEvent {
            event_type: WatchEventType::Bookmark,
            object: ObjectRef::new(o),
            resource_version,
            status: None,
        }
    }

    /// The single ERROR event by which upstream reports a failure after a watch was accepted
    /// (apiserver `pkg/storage/cacher/cacher.go` `newErrWatcher`).
    pub fn error(err: ApiError) -> WatchEvent {
        let mut o = Object::new("Status", "", "");
        o.size_bytes = 0;
        WatchEvent {
            event_type: WatchEventType::Error,
            object: ObjectRef::new(o),
            resource_version: 0,
            status: Some(Box::new(err)),
        }
    }
}

/// Sizing of every kind's event window (apiserver `pkg/storage/cacher/watch_cache_history.go`,
/// `cacher.go` `DefaultEventFreshDuration`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WatchCacheConfig {
    /// Initial and lowest capacity (`defaultLowerBoundCapacity` = 100).
    pub lower_capacity: usize,
    /// Highest capacity (`defaultUpperBoundCapacity` = 100·1024).
    pub upper_capacity: usize,
    /// Events younger than this make a full window grow; a window whose newest quarter is older
    /// shrinks (`DefaultEventFreshDuration` = bookmark frequency 60 s + 15 s = 75 s; upstream
    /// refuses anything lower, the simulation allows it to make 410s easy to provoke).
    pub event_fresh_duration_s: f64,
}

impl Default for WatchCacheConfig {
    fn default() -> Self {
        WatchCacheConfig {
            lower_capacity: 100,
            upper_capacity: 100 * 1024,
            event_fresh_duration_s: 75.0,
        }
    }
}

impl WatchCacheConfig {
    /// Capacities at least 1 and ordered; fresh duration positive and finite.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.lower_capacity == 0 {
            return Err(ConfigError::new(
                "watch_cache.lower_capacity",
                "must be at least 1 (got 0)",
            ));
        }
        if self.upper_capacity < self.lower_capacity {
            return Err(ConfigError::new(
                "watch_cache.upper_capacity",
                format!(
                    "must be at least lower_capacity ({}) (got {})",
                    self.lower_capacity, self.upper_capacity
                ),
            ));
        }
        let f = self.event_fresh_duration_s;
        if !f.is_finite() || f <= 0.0 || f > 1e9 {
            return Err(ConfigError::new(
                "watch_cache.event_fresh_duration_s",
                format!("must be a positive number of seconds (got {})", Shortest(f)),
            ));
        }
        Ok(())
    }
}

/// The fresh duration as a `Duration`; a non-finite or negative value (an unvalidated config) falls
/// back to upstream's 75 s instead of panicking.
fn fresh_duration(seconds: f64) -> Duration {
    if seconds.is_finite() && seconds >= 0.0 {
        Duration::from_secs_f64(seconds.min(1e9))
    } else {
        Duration::from_secs(75)
    }
}

#[derive(Clone, Debug)]
struct CachedEvent {
    event: WatchEvent,
    record_time: SimTime,
}

/// One kind's window of recent events (`watchCacheHistory`).
#[derive(Clone, Debug)]
pub struct WatchCache {
    /// Full chunks shared with the checkpoints taken since ([`ChunkedDeque`]); an event that
    /// left the window is dropped with its chunk, a few hundred together.
    events: ChunkedDeque<CachedEvent>,
    capacity: usize,
    lower_capacity: usize,
    upper_capacity: usize,
    event_fresh: Duration,
    list_resource_version: u64,
    removed_event_since_relist: bool,
}

impl WatchCache {
    /// An empty window whose initial LIST was at `list_resource_version` (the revision when the
    /// kind started being served). The config is assumed valid ([`WatchCacheConfig::validate`]);
    /// zero capacities are raised to 1.
    pub fn new(config: &WatchCacheConfig, list_resource_version: u64) -> WatchCache {
        let lower = config.lower_capacity.max(1);
        WatchCache {
            events: ChunkedDeque::default(),
            capacity: lower,
            lower_capacity: lower,
            upper_capacity: config.upper_capacity.max(lower),
            event_fresh: fresh_duration(config.event_fresh_duration_s),
            list_resource_version,
            removed_event_since_relist: false,
        }
    }

    /// Current capacity (`apiserver_watch_cache_capacity`).
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Number of buffered events.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether no event is buffered.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The resourceVersion of the oldest buffered event, if any.
    pub fn oldest_resource_version(&self) -> Option<u64> {
        self.events.front().map(|e| e.event.resource_version)
    }

    /// The resourceVersion of the newest buffered event, if any (for invariant checkers).
    pub fn newest_resource_version(&self) -> Option<u64> {
        self.events.back().map(|e| e.event.resource_version)
    }

    /// Appends an event recorded at `now`, resizing first and evicting the oldest when full
    /// (`updateCache` → `resizeCacheLocked`).
    pub fn add(&mut self, event: WatchEvent, now: SimTime) {
        self.resize(now);
        if self.is_full() {
            self.evict_oldest();
            self.removed_event_since_relist = true;
        }
        self.events.push_back(CachedEvent {
            event,
            record_time: now,
        });
    }

    /// The oldest event leaves the window.
    fn evict_oldest(&mut self) {
        self.events.pop_front();
    }

    fn is_full(&self) -> bool {
        self.events.len() >= self.capacity
    }

    /// `resizeCacheLocked`: a full window whose oldest event is fresher than the fresh duration
    /// doubles (up to the upper bound); a full window whose event a quarter-capacity from the end
    /// is older than it halves (down to the lower bound), dropping the oldest events.
    ///
    /// Deliberate deviation: upstream's shrink does not set `removedEventSinceRelist`, so a watch
    /// from the initial list RV could silently miss the dropped events; here it is set, so such a
    /// watch gets the 410 and relists.
    fn resize(&mut self, now: SimTime) {
        if !self.is_full() {
            return;
        }
        let oldest = self.events.front().map_or(now, |e| e.record_time);
        if now.saturating_since(oldest) < self.event_fresh {
            let grown = self.capacity.saturating_mul(2).min(self.upper_capacity);
            self.capacity = self.capacity.max(grown);
            return;
        }
        // Upstream indexes the ring at endIndex − capacity/4, which is the oldest slot when the
        // quarter is zero.
        let quarter = self.capacity / 4;
        let index = if quarter == 0 {
            0
        } else {
            self.events.len() - quarter
        };
        let boundary = self.events.get(index).map_or(now, |e| e.record_time);
        if now.saturating_since(boundary) > self.event_fresh {
            let shrunk = (self.capacity / 2).max(self.lower_capacity);
            if shrunk < self.capacity {
                self.capacity = shrunk;
                while self.events.len() > shrunk {
                    self.evict_oldest();
                    self.removed_event_since_relist = true;
                }
            }
        }
    }

    /// The newest buffered event of the object `namespace/name` whose resourceVersion is below
    /// `before`: the version an inspector compares the current one against. `None` once the
    /// window no longer holds one.
    pub fn event_before(&self, namespace: &str, name: &str, before: u64) -> Option<&WatchEvent> {
        self.events
            .iter()
            .rev()
            .map(|e| &e.event)
            .filter(|e| e.resource_version < before)
            .find(|e| {
                e.object.metadata.name() == name && e.object.metadata.namespace() == namespace
            })
    }

    /// Events with resourceVersion > `resource_version`, or 410 Expired
    /// `too old resource version: <rv> (<oldest-1>)` when `resource_version < oldest − 1`
    /// (`GetIntervalLocked`). `oldest` is the initial list RV + 1 while nothing was evicted,
    /// else the oldest buffered event's RV.
    pub fn events_since(&self, resource_version: u64) -> Result<Vec<WatchEvent>, ApiError> {
        let oldest = if self.list_resource_version > 0 && !self.removed_event_since_relist {
            self.list_resource_version.saturating_add(1)
        } else if let Some(rv) = self.oldest_resource_version() {
            rv
        } else {
            return Err(ApiError::unknown("watch cache isn't correctly initialized"));
        };
        let floor = oldest.saturating_sub(1);
        if resource_version < floor {
            return Err(ApiError::expired(format!(
                "too old resource version: {resource_version} ({floor})"
            )));
        }
        Ok(self
            .events
            .iter()
            .filter(|e| e.event.resource_version > resource_version)
            .map(|e| e.event.clone())
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(rv: u64) -> WatchEvent {
        let mut o = Object::new("Pod", "ns", "pod");
        o.metadata.resource_version = rv;
        WatchEvent::new(WatchEventType::Modified, ObjectRef::new(o))
    }

    fn cache(lower: usize, upper: usize, list_rv: u64) -> WatchCache {
        let cfg = WatchCacheConfig {
            lower_capacity: lower,
            upper_capacity: upper,
            event_fresh_duration_s: 75.0,
        };
        WatchCache::new(&cfg, list_rv)
    }

    /// Mirrors watch_cache_test.go TestEvents (fixed capacity 5, no list RV).
    #[test]
    fn a_full_fixed_window_answers_410_below_its_oldest_event_and_replays_the_rest() {
        let mut c = cache(5, 5, 0);
        c.add(event(3), SimTime::ZERO);
        assert_eq!(c.events_since(1).map_err(|e| e.code), Err(410));
        assert_eq!(c.events_since(2).expect("in window").len(), 1);
        for rv in 4..10 {
            c.add(event(rv), SimTime::ZERO);
        }
        let err = c.events_since(3).expect_err("evicted");
        assert_eq!(err.message, "too old resource version: 3 (4)");
        let rvs: Vec<u64> = c
            .events_since(4)
            .expect("in window")
            .iter()
            .map(|e| e.resource_version)
            .collect();
        assert_eq!(rvs, [5, 6, 7, 8, 9]);
    }

    /// Mirrors watch_cache_test.go TestCacheIncreaseDoesNotBreakWatch.
    #[test]
    fn growing_the_window_after_an_eviction_still_reports_the_evicted_range_as_too_old() {
        let mut c = cache(2, 100, 10);
        let later = SimTime::ZERO + Duration::from_secs(150);
        c.add(event(20), SimTime::ZERO);
        c.add(event(30), later);
        c.add(event(40), later);
        c.add(event(50), later + Duration::from_secs(1));
        let err = c.events_since(15).expect_err("rv 20 was evicted");
        assert!(err.message.contains("too old resource version"), "{err}");
    }

    /// Mirrors watch_cache_test.go TestDynamicCache ("events inside DefaultEventFreshDuration
    /// cause cache expanding" / "quarter of recent events outside … cause cache shrinking").
    #[test]
    fn a_full_window_doubles_while_fresh_and_halves_when_its_newest_quarter_is_stale() {
        let mut c = cache(4, 16, 1);
        for rv in 2..6 {
            c.add(event(rv), SimTime::from_millis(rv));
        }
        assert_eq!(c.capacity(), 4);
        c.add(event(6), SimTime::from_millis(6));
        assert_eq!((c.capacity(), c.len()), (8, 5), "fresh and full: doubled");
        for rv in 7..10 {
            c.add(event(rv), SimTime::from_millis(rv));
        }
        assert_eq!(c.len(), 8);
        c.add(event(10), SimTime::ZERO + Duration::from_secs(200));
        assert_eq!(c.capacity(), 4, "stale quarter: halved");
        assert_eq!(c.oldest_resource_version(), Some(7));
        assert_eq!(c.events_since(5).map_err(|e| e.code), Err(410));
    }

    #[test]
    fn with_nothing_evicted_the_window_reaches_back_to_the_initial_list_version() {
        let mut c = cache(100, 100, 7);
        c.add(event(9), SimTime::ZERO);
        assert_eq!(c.events_since(7).expect("from list rv").len(), 1);
        assert_eq!(c.events_since(6).map_err(|e| e.code), Err(410));
    }

    #[test]
    fn a_zero_lower_capacity_is_rejected_naming_the_field() {
        let cfg = WatchCacheConfig {
            lower_capacity: 0,
            ..WatchCacheConfig::default()
        };
        assert_eq!(
            cfg.validate().map_err(|e| e.field),
            Err("watch_cache.lower_capacity".into())
        );
    }
}
