//! A snapshot of the API server's metrics, with upstream names in the doc comments.

use super::flowcontrol::InFlight;
use super::request::Verb;
use crate::vec_map::VecMap;

/// Counters and gauges of the simulated server at one instant.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ApiServerMetrics {
    /// `apiserver_request_total{verb,code}`: every request outcome, 2xx and errors alike.
    pub request_total: VecMap<(Verb, u16), u64>,
    /// The current etcd revision (`etcd_current_revision`-like; the newest resourceVersion).
    pub resource_version: u64,
    /// `apiserver_storage_objects{resource}` by kind.
    pub objects: VecMap<String, u64>,
    /// `apiserver_watch_cache_capacity{resource}` by kind.
    pub watch_cache_capacity: VecMap<String, u64>,
    /// Events currently buffered in each kind's watch cache.
    pub watch_cache_events: VecMap<String, u64>,
    /// Watch events produced but not yet drained by the simulation.
    pub pending_watch_events: u64,
    /// `apiserver_current_inflight_requests` / APF executing seats and queued requests.
    pub in_flight: InFlight,
    /// `apiserver_flowcontrol_rejected_requests_total{reason}`.
    pub rejected_total: VecMap<String, u64>,
    /// The `Retry-After` a 429 would carry now.
    pub retry_after_s: u64,
}

impl ApiServerMetrics {
    /// Requests of `verb` answered with `code`.
    pub fn requests(&self, verb: Verb, code: u16) -> u64 {
        self.request_total.get(&(verb, code)).copied().unwrap_or(0)
    }
}
