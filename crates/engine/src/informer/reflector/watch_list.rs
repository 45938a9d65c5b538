//! The streaming watch-list initial sync of the Reflector (client-go `tools/cache/reflector.go`
//! `watchList`, `handleListWatch`; feature gate `WatchListClient`, beta, on by default since
//! client-go v0.35 / Kubernetes 1.35).
//!
//! ```text
//!  ListAndWatch ─▶ WatchListing{rv} ── ADDED/MODIFIED/DELETED: temporary store ──┐
//!                    │   │   │        BOOKMARK k8s.io/initial-events-end ────────┴▶ Replace + Watching
//!                    │   │   └ 429 / refused: WatchListBackoff ─▶ WatchListing
//!                    │   └ 410 / too large RV: WatchListing{""} at once
//!                    └ any other error, or a watch closed at once: LIST (fallback)
//! ```
//!
//! The WATCH asks `sendInitialEvents=true`, `resourceVersionMatch=NotOlderThan`,
//! `allowWatchBookmarks=true` from `rewatchResourceVersion()` (`""` until something was synced).
//! What it streams is gathered in a temporary store, which the reflector holds until the bookmark
//! and then hands to `store.Replace` with the bookmark's resourceVersion; the same watch then
//! goes on as the regular watch.

use std::time::Duration;

use super::{Action, ListRv, Reflector, ReflectorState, WatchError, WatchEventType};
use crate::object::ObjectRef;
use crate::sim::Rng;
use crate::time::SimTime;

/// The annotation of the BOOKMARK that ends a watch-list's initial events
/// (apimachinery `metav1.InitialEventsAnnotationKey`).
pub const INITIAL_EVENTS_END_ANNOTATION: &str = "k8s.io/initial-events-end";

/// Whether `object` (a BOOKMARK's) carries `k8s.io/initial-events-end: "true"`.
pub fn is_initial_events_end(object: &ObjectRef) -> bool {
    object
        .metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get(INITIAL_EVENTS_END_ANNOTATION))
        .is_some_and(|v| v == "true")
}

impl Reflector {
    /// `rewatchResourceVersion()`: `""` after an unavailable RV or before anything was synced,
    /// else the last synced RV.
    pub fn rewatch_resource_version(&self) -> ListRv {
        match self.last_sync_resource_version {
            _ if self.last_sync_rv_unavailable => ListRv::Latest,
            None | Some(0) => ListRv::Latest,
            Some(rv) => ListRv::Exact(rv),
        }
    }

    /// Objects gathered by the watch-list in progress (its temporary store).
    pub fn temporary_store(&self) -> impl Iterator<Item = &ObjectRef> + '_ {
        self.temporary_store.values()
    }

    /// Bytes the temporary store holds.
    pub fn temporary_store_bytes(&self) -> u64 {
        self.temporary_store_bytes
    }

    /// Empties the temporary store.
    pub(super) fn clear_temporary_store(&mut self) {
        self.temporary_store.clear();
        self.temporary_store_bytes = 0;
    }

    /// Opens a watch-list stream with a fresh temporary store.
    pub(super) fn send_watch_list(&mut self, now: SimTime, rng: &mut Rng) -> Action {
        self.clear_temporary_store();
        let resource_version = self.rewatch_resource_version();
        let timeout = self.random_watch_timeout(rng);
        self.counters.watch_lists += 1;
        self.events_in_watch = 0;
        self.state = ReflectorState::WatchListing {
            resource_version,
            timeout,
            started_at: now,
        };
        Action::WatchList {
            resource_version,
            timeout,
        }
    }

    /// One event of the initial stream: applied to the temporary store; the initial-events-end
    /// bookmark completes the sync (`store.Replace`, then the watch goes on as the regular one).
    pub(super) fn on_initial_event(
        &mut self,
        event_type: WatchEventType,
        object: ObjectRef,
    ) -> Vec<Action> {
        let ReflectorState::WatchListing {
            timeout,
            started_at,
            ..
        } = self.state
        else {
            return self.ignore();
        };
        self.counters.watch_events += 1;
        self.events_in_watch += 1;
        match event_type {
            WatchEventType::Added | WatchEventType::Modified => {
                self.temporary_store_bytes += object.size_bytes;
                let old = self.temporary_store.insert(object.key(), object);
                self.drop_temporary_bytes(old);
            }
            WatchEventType::Deleted => {
                let old = self.temporary_store.remove(&object.key());
                self.drop_temporary_bytes(old);
            }
            WatchEventType::Bookmark if is_initial_events_end(&object) => {
                return self.finish_watch_list(object.resource_version(), timeout, started_at);
            }
            WatchEventType::Bookmark | WatchEventType::Error => {}
        }
        Vec::new()
    }

    /// The bookmark arrived: replace the store with what was gathered at the bookmark's RV, arm
    /// the resync timer, and keep the stream (opened at `started_at`) open as the watch.
    fn finish_watch_list(
        &mut self,
        rv: u64,
        timeout: Duration,
        started_at: SimTime,
    ) -> Vec<Action> {
        let items: Vec<ObjectRef> = std::mem::take(&mut self.temporary_store)
            .into_values()
            .collect();
        self.temporary_store_bytes = 0;
        self.last_sync_rv_unavailable = false;
        self.last_sync_resource_version = Some(rv);
        let mut actions = vec![Action::Replace {
            items: items.into(),
            resource_version: rv,
        }];
        actions.extend(self.arm_resync_timer());
        self.propagate_rv_from_start = true;
        self.event_besides_added = false;
        self.events_in_watch = 0;
        self.state = ReflectorState::Watching {
            from: rv,
            timeout,
            started_at,
        };
        actions
    }

    /// The watch-list request failed or its stream sent an ERROR. Retriable (429, connection
    /// refused): one backoff step, then a new watch-list. Expired / too large RV: a new watch-list
    /// at once from `""`. Anything else: fall back to a LIST in the same ListAndWatch.
    pub(super) fn on_watch_list_error(
        &mut self,
        err: WatchError,
        now: SimTime,
        rng: &mut Rng,
    ) -> Vec<Action> {
        self.counters.watch_errors += 1;
        self.clear_temporary_store();
        match err {
            WatchError::TooManyRequests | WatchError::ConnectionRefused => {
                let delay = self.step_backoff(now, rng);
                self.state = ReflectorState::WatchListBackoff { until: now + delay };
                vec![Action::WaitBackoff(delay)]
            }
            WatchError::Expired | WatchError::TooLargeResourceVersion => {
                self.last_sync_rv_unavailable = true;
                vec![self.send_watch_list(now, rng)]
            }
            _ => self.fall_back_to_list(),
        }
    }

    /// The stream closed before the bookmark: at once with no events it is a
    /// `VeryShortWatchError` (not retriable: fall back to a LIST); otherwise a new watch-list.
    pub(super) fn on_watch_list_closed(
        &mut self,
        now: SimTime,
        events_received: u64,
        rng: &mut Rng,
    ) -> Vec<Action> {
        let ReflectorState::WatchListing { started_at, .. } = self.state else {
            return self.ignore();
        };
        self.clear_temporary_store();
        if now.saturating_since(started_at) < super::VERY_SHORT_WATCH && events_received == 0 {
            self.counters.very_short_watches += 1;
            return self.fall_back_to_list();
        }
        vec![self.send_watch_list(now, rng)]
    }

    /// Stops counting a replaced or removed object.
    fn drop_temporary_bytes(&mut self, old: Option<ObjectRef>) {
        let bytes = old.map_or(0, |o| o.size_bytes);
        self.temporary_store_bytes = self.temporary_store_bytes.saturating_sub(bytes);
    }

    /// `fallbackToList`: the regular LIST of this ListAndWatch.
    fn fall_back_to_list(&mut self) -> Vec<Action> {
        self.counters.watch_list_fallbacks += 1;
        vec![self.send_list(false)]
    }
}
