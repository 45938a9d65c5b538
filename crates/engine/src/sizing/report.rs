//! What a sizing run found, in stable field names with units last.

use serde::Serialize;

use super::input::Family;
use crate::scenario::Scenario;
use crate::vec_map::VecMap;

/// The numbers a sizing run measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SizeReport {
    /// The family run.
    pub family: Family,
    /// Simulated time run.
    pub window_ms: u64,
    /// When the operator was restarted to relist.
    pub relist_at_ms: u64,
    /// Custom resources the first LIST returned (the operator's first reflector LIST).
    pub first_list_objects: u64,
    /// The first LIST's response: the listed objects' serialized bytes.
    pub first_list_bytes: u64,
    /// From sending the first LIST to its answer reaching the reflector.
    pub first_list_ms: u64,
    /// From the container's start to the controller's workers starting (its caches synced);
    /// `None` when they did not start within the window.
    pub cache_sync_ms: Option<u64>,
    /// Pods in the operator's Pod informer cache once it synced (0 when it has none).
    pub pod_cache_objects: u64,
    /// The Go heap's live bytes by owner just before the relist (`flywheel_heap_live_bytes`).
    pub cache_bytes_by_owner: VecMap<String, u64>,
    /// The process's RSS just before the relist.
    pub steady_rss_bytes: u64,
    /// The highest RSS from the relist to the end of the window.
    pub relist_peak_rss_bytes: u64,
    /// How far the relist raised the RSS above its steady value.
    pub relist_spike_bytes: u64,
    /// Requests the API server answered per second between the cache sync and the relist.
    pub steady_qps: f64,
    /// The highest RSS seen in the window (a kill resets it, so at most the limit).
    pub peak_rss_bytes: u64,
    /// The container's memory limit (`None`: no limit).
    pub memory_limit_bytes: Option<u64>,
    /// Whether the container crossed its limit (OOMKilled) in the window.
    pub limit_crossed: bool,
    /// When it was first OOMKilled.
    pub oom_killed_at_ms: Option<u64>,
    /// OOM kills in the window.
    pub oom_kills: u64,
    /// The scenario that was run.
    #[serde(skip)]
    pub(super) scenario: Scenario,
}

impl SizeReport {
    /// The scenario that was run: running it again gives the same numbers.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }
}

#[cfg(feature = "toml")]
impl SizeReport {
    /// The scenario that was run as a scenario file (TOML), for `flywheel run` to load.
    pub fn scenario_toml(&self) -> Result<String, String> {
        toml::to_string(&self.scenario).map_err(|e| e.to_string())
    }
}
