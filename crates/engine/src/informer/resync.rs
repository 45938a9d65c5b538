//! Resync bookkeeping of a shared informer (client-go `tools/cache/shared_informer.go`
//! `sharedIndexInformer.AddEventHandlerWithOptions`, `sharedProcessor`) and controller-runtime's
//! jittered default sync period (`pkg/cache/internal/informers.go` `calculateResyncPeriod`).
//!
//! ```text
//!  reflector resync timer (every resync_check_period)
//!        │ should_resync(now) ─▶ listeners due (their next resync moves to now + period)
//!        ▼
//!  store.Resync() ─▶ OnUpdate(obj, obj)  (old.RV == new.RV: a *sync* notification)
//!        │ distribute(n, sync = true) ─▶ only the listeners found due at the last check
//!        ▼
//!  ordinary add/update/delete ─▶ distribute(n, sync = false) ─▶ every listener
//! ```
//!
//! Upstream keeps listeners in a Go map and iterates it in random order; here listeners are kept
//! in registration order ([`ListenerId`] order), which changes nothing observable per listener.

use std::time::Duration;

use crate::informer::listener::ProcessorListener;
use crate::object::Object;
use crate::sim::Rng;
use crate::time::SimTime;
use crate::vec_map::VecMap;

/// `minimumResyncPeriod` (client-go `tools/cache/shared_informer.go`): a handler asking for a
/// shorter, non-zero period gets this.
pub const MINIMUM_RESYNC_PERIOD: Duration = Duration::from_secs(1);

/// controller-runtime's default `SyncPeriod` (`pkg/cache/cache.go` `defaultSyncPeriod`): 10 h.
pub const DEFAULT_SYNC_PERIOD: Duration = Duration::from_secs(10 * 60 * 60);

/// controller-runtime's per-informer resync period (`pkg/cache/internal/informers.go`
/// `calculateResyncPeriod`): `base` × a factor drawn uniformly from `[0.9, 1.1)`, truncated to whole
/// nanoseconds. One draw from `rng`.
pub fn jittered_sync_period(base: Duration, rng: &mut Rng) -> Duration {
    let factor = rng.next_f64() / 5.0 + 0.9;
    let nanos = crate::time::duration_nanos_f64(base) * factor;
    Duration::from_nanos(nanos as u64)
}

/// `determineResyncPeriod` (client-go `tools/cache/shared_informer.go`): the period a listener
/// actually uses given what it asked for and the informer's check period. 0 stays 0; an informer
/// that does not resync (check period 0) forces 0; below the check period is raised to it.
pub fn determine_resync_period(desired: Duration, check: Duration) -> Duration {
    if desired.is_zero() || check.is_zero() {
        return Duration::ZERO;
    }
    desired.max(check)
}

/// Whether an update notification is a resync (`sharedIndexInformer.OnUpdate`): the old and new
/// objects carry the same resourceVersion.
pub fn is_sync_update(old: &Object, new: &Object) -> bool {
    old.resource_version() == new.resource_version()
}

/// Identifies one registered handler (upstream the `*processorListener` is the registration handle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ListenerId(pub u64);

/// A listener and whether it is currently syncing (the `map[*processorListener]bool` value).
#[derive(Clone, Debug)]
struct Entry<T> {
    listener: ProcessorListener<T>,
    syncing: bool,
}

/// The handler-side half of a `sharedIndexInformer`: its resync check period, its default handler
/// period, whether it has started, and the `sharedProcessor`'s listeners.
#[derive(Clone, Debug)]
pub struct SharedProcessor<T> {
    /// How often the reflector's resync timer fires (`resyncCheckPeriod`).
    resync_check_period: Duration,
    /// The period given to handlers that do not ask for one (`defaultEventHandlerResyncPeriod`).
    default_event_handler_resync_period: Duration,
    /// Whether the informer has started (`started`).
    started: bool,
    /// Listeners by registration order.
    listeners: VecMap<ListenerId, Entry<T>>,
    /// The next id to hand out.
    next_id: u64,
}

impl<T> SharedProcessor<T> {
    /// An informer whose check period and default handler period are both `resync_period`
    /// (`NewSharedIndexInformerWithOptions`); 0 means the informer never resyncs.
    pub fn new(resync_period: Duration) -> Self {
        SharedProcessor {
            resync_check_period: resync_period,
            default_event_handler_resync_period: resync_period,
            started: false,
            listeners: VecMap::new(),
            next_id: 0,
        }
    }

    /// Registers a handler (`AddEventHandlerWithOptions`). `resync_period: None` takes the informer
    /// default. A non-zero period below [`MINIMUM_RESYNC_PERIOD`] is raised to it; below the check
    /// period it lowers the check period (and re-derives every listener's period) before start, or
    /// is raised to the check period after start. The listener's first resync is `now + period`.
    ///
    /// After start, upstream also replays the indexer's contents to the new listener as initial-list
    /// adds; the caller does that through [`SharedProcessor::listener_mut`].
    pub fn add_event_handler(
        &mut self,
        resync_period: Option<Duration>,
        now: SimTime,
    ) -> ListenerId {
        let requested = self.adjust_requested_period(
            resync_period.unwrap_or(self.default_event_handler_resync_period),
        );
        let effective = determine_resync_period(requested, self.resync_check_period);
        let id = ListenerId(self.next_id);
        self.next_id += 1;
        let listener = ProcessorListener::new(requested, effective, now);
        self.listeners.insert(
            id,
            Entry {
                listener,
                syncing: true,
            },
        );
        id
    }

    /// Applies the minimum and the check-period rules to a requested period.
    fn adjust_requested_period(&mut self, period: Duration) -> Duration {
        if period.is_zero() {
            return period;
        }
        let period = period.max(MINIMUM_RESYNC_PERIOD);
        if period >= self.resync_check_period {
            return period;
        }
        if self.started {
            return self.resync_check_period;
        }
        self.resync_check_period = period;
        self.resync_check_period_changed();
        period
    }

    /// `resyncCheckPeriodChanged`: every listener's period is re-derived from what it asked for.
    fn resync_check_period_changed(&mut self) {
        let check = self.resync_check_period;
        for entry in self.listeners.values_mut() {
            let period = determine_resync_period(entry.listener.requested_resync_period(), check);
            entry.listener.set_resync_period(period);
        }
    }

    /// Unregisters a handler (`RemoveEventHandler`), returning its listener; unknown ids are ignored.
    pub fn remove_event_handler(&mut self, id: ListenerId) -> Option<ProcessorListener<T>> {
        self.listeners.remove(&id).map(|e| e.listener)
    }

    /// Marks the informer started: later handlers can no longer lower the check period.
    pub fn start(&mut self) {
        self.started = true;
    }

    /// The reflector's resync timer period (`resyncCheckPeriod`); 0 = no resync timer.
    pub fn resync_check_period(&self) -> Duration {
        self.resync_check_period
    }

    /// The period given to handlers registered without one.
    pub fn default_event_handler_resync_period(&self) -> Duration {
        self.default_event_handler_resync_period
    }

    /// `sharedProcessor.shouldResync`: checks every listener at `now`, records which are syncing,
    /// moves each due listener's next resync to `now + period`, and returns the due ones (empty =
    /// the reflector skips `store.Resync()`).
    pub fn should_resync(&mut self, now: SimTime) -> Vec<ListenerId> {
        let mut due = Vec::new();
        for (id, entry) in &mut self.listeners {
            entry.syncing = entry.listener.should_resync(now);
            if entry.syncing {
                entry.listener.determine_next_resync(now);
                due.push(*id);
            }
        }
        due
    }

    /// Whether `id` is currently syncing (receives sync notifications). New listeners start syncing.
    pub fn is_syncing(&self, id: ListenerId) -> bool {
        self.listeners.get(&id).is_some_and(|e| e.syncing)
    }

    /// The listeners a notification goes to (`distribute`): all of them, or for a sync notification
    /// only those currently syncing.
    pub fn recipients(&self, sync: bool) -> Vec<ListenerId> {
        self.listeners
            .iter()
            .filter(|(_, e)| !sync || e.syncing)
            .map(|(id, _)| *id)
            .collect()
    }

    /// One listener.
    pub fn listener(&self, id: ListenerId) -> Option<&ProcessorListener<T>> {
        self.listeners.get(&id).map(|e| &e.listener)
    }

    /// One listener, mutably (to hand notifications to its handler, or to replay the cache to it).
    pub fn listener_mut(&mut self, id: ListenerId) -> Option<&mut ProcessorListener<T>> {
        self.listeners.get_mut(&id).map(|e| &mut e.listener)
    }

    /// All listeners in registration order.
    pub fn listeners(&self) -> impl Iterator<Item = (ListenerId, &ProcessorListener<T>)> + '_ {
        self.listeners.iter().map(|(id, e)| (*id, &e.listener))
    }

    /// Number of registered listeners.
    pub fn len(&self) -> usize {
        self.listeners.len()
    }

    /// Whether no listener is registered.
    pub fn is_empty(&self) -> bool {
        self.listeners.is_empty()
    }

    /// Notifications not yet handed to any handler, summed over listeners.
    pub fn total_queued(&self) -> usize {
        self.listeners
            .values()
            .map(|e| e.listener.queued_len())
            .sum()
    }
}

impl<T: Clone> SharedProcessor<T> {
    /// `sharedProcessor.distribute`: adds `notification` to every listener, or for a sync
    /// notification only to the listeners currently syncing. Returns the recipients.
    pub fn distribute(&mut self, notification: T, sync: bool) -> Vec<ListenerId> {
        let recipients = self.recipients(sync);
        for id in &recipients {
            if let Some(entry) = self.listeners.get_mut(id) {
                entry.listener.add(notification.clone());
            }
        }
        recipients
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn determine_resync_period_keeps_zero_and_raises_to_the_check_period() {
        let s = Duration::from_secs;
        assert_eq!(determine_resync_period(s(0), s(10)), s(0));
        assert_eq!(determine_resync_period(s(5), s(0)), s(0));
        assert_eq!(determine_resync_period(s(5), s(10)), s(10));
        assert_eq!(determine_resync_period(s(50), s(10)), s(50));
    }
}
