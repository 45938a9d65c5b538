//! Resident memory of a Go process, and the scavenger that gives freed heap back to the OS.
//!
//! ```text
//!  RSS = heap in use        live + garbage (objects not yet reclaimed)
//!      + heap free          pages the GC freed, still resident, not yet released
//!      + stacks             goroutine stacks
//!      + heap overhead      span structures, GC bitmaps, fragmentation: a % of the resident heap
//!      + runtime metadata   the runtime's own fixed structures
//!      + binary             text, data, libc, non-Go memory (not counted by GOMEMLIMIT)
//! ```
//!
//! The GC guide ("Memory limit", "Eliminating heap overheads") says to watch RSS, not the heap:
//! freed heap stays resident until the *scavenger* releases it, so RSS falls far more slowly than
//! `go_memstats_heap_alloc_bytes` after a GC. GOMEMLIMIT counts `Sys − HeapReleased`: everything
//! above except the binary. The fixed sizes and the overhead percentage are model parameters, not
//! upstream numbers.
//!
//! Scavenger (golang/go `src/runtime/mgcscavenge.go`): the background scavenger releases free pages
//! until the retained heap (in use + free) is at most 110 % of the heap goal
//! (`retainExtraPercent = 10`), and, with a memory limit, until total memory is at most 95 % of it
//! (`reduceExtraPercent = 5`). It runs at about 1 % of one CPU (`scavengePercent`), modelled here as
//! a fixed release rate in bytes per second. When memory exceeds the limit, the allocator releases
//! memory synchronously (`mheap.grow`), modelled as an immediate release down to the limit.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The retained heap the background scavenger aims for, as a percentage over the heap goal
/// (`mgcscavenge.go` `retainExtraPercent`).
pub const SCAVENGER_RETAIN_EXTRA_PERCENT: u64 = 10;

/// With a memory limit, the background scavenger aims this far under it, in percent
/// (`mgcscavenge.go` `reduceExtraPercent`).
pub const SCAVENGER_REDUCE_EXTRA_PERCENT: u64 = 5;

/// Where the resident memory of a Go process goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RssBreakdown {
    /// Live plus garbage heap objects (`HeapAlloc`).
    pub heap_in_use_bytes: u64,
    /// Heap pages freed by the GC and still resident (`HeapIdle − HeapReleased`).
    pub heap_free_bytes: u64,
    /// Goroutine stacks (`StackInuse`).
    pub stack_bytes: u64,
    /// Heap metadata and fragmentation, proportional to the resident heap.
    pub heap_overhead_bytes: u64,
    /// The runtime's fixed structures.
    pub runtime_metadata_bytes: u64,
    /// Binary text and data, libc and other non-Go memory.
    pub binary_bytes: u64,
}

impl RssBreakdown {
    /// The sum of all parts (`process_resident_memory_bytes`).
    pub fn rss_bytes(&self) -> u64 {
        self.runtime_total_bytes().saturating_add(self.binary_bytes)
    }

    /// What GOMEMLIMIT counts (`Sys − HeapReleased`): everything but the binary.
    pub fn runtime_total_bytes(&self) -> u64 {
        self.heap_in_use_bytes
            .saturating_add(self.heap_free_bytes)
            .saturating_add(self.non_heap_bytes())
    }

    /// Counted by GOMEMLIMIT but unable to hold heap objects: stacks, overhead and metadata.
    pub fn non_heap_bytes(&self) -> u64 {
        self.stack_bytes
            .saturating_add(self.heap_overhead_bytes)
            .saturating_add(self.runtime_metadata_bytes)
    }
}

/// Heap pages that hold no objects: still resident (free) or given back to the OS (released).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FreePages {
    /// Free and resident (`HeapIdle − HeapReleased`).
    pub free_bytes: u64,
    /// Returned to the OS with `madvise` (`HeapReleased`).
    pub released_bytes: u64,
}

impl FreePages {
    /// A GC cycle freed `bytes` of heap pages: they stay resident.
    pub fn on_collect(&mut self, bytes: u64) {
        self.free_bytes = self.free_bytes.saturating_add(bytes);
    }

    /// An allocation of `bytes` reuses free pages first, then released ones (faulting them back
    /// in); what remains grows the heap. Returns how many bytes were newly made resident.
    pub fn on_alloc(&mut self, bytes: u64) -> u64 {
        let from_free = bytes.min(self.free_bytes);
        self.free_bytes -= from_free;
        let rest = bytes - from_free;
        let from_released = rest.min(self.released_bytes);
        self.released_bytes -= from_released;
        rest
    }

    /// Releases up to `bytes` of free pages to the OS; returns how many were released.
    pub fn release(&mut self, bytes: u64) -> u64 {
        let released = bytes.min(self.free_bytes);
        self.free_bytes -= released;
        self.released_bytes = self.released_bytes.saturating_add(released);
        released
    }
}

/// How much the background scavenger releases after `elapsed`: at most `rate_bytes_per_s` per
/// second, only what is free, and only down to `target_bytes` of memory it is measured against.
pub fn background_release_bytes(
    free_bytes: u64,
    measured_bytes: u64,
    target_bytes: u64,
    elapsed: Duration,
    rate_bytes_per_s: u64,
) -> u64 {
    let excess = measured_bytes.saturating_sub(target_bytes);
    let budget_ns = super::mul_div(
        u128::from(rate_bytes_per_s),
        elapsed.as_nanos(),
        1_000_000_000,
    );
    let budget = u64::try_from(budget_ns).unwrap_or(u64::MAX);
    free_bytes.min(excess).min(budget)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_reuse_free_pages_before_growing_resident_memory() {
        let mut pages = FreePages::default();
        pages.on_collect(100);
        pages.release(30);
        assert_eq!(pages.on_alloc(50), 0);
        assert_eq!(pages.free_bytes, 20);
        assert_eq!(pages.on_alloc(40), 20);
        assert_eq!(pages.released_bytes, 10);
    }

    #[test]
    fn the_scavenger_releases_at_its_rate_and_only_down_to_its_target() {
        let second = Duration::from_secs(1);
        assert_eq!(background_release_bytes(1000, 5000, 4500, second, 100), 100);
        assert_eq!(background_release_bytes(1000, 5000, 4950, second, 100), 50);
        assert_eq!(background_release_bytes(20, 5000, 0, second, 100), 20);
        assert_eq!(background_release_bytes(1000, 4000, 4500, second, 100), 0);
    }

    #[test]
    fn rss_is_the_sum_of_its_parts_and_the_limit_ignores_the_binary() {
        let rss = RssBreakdown {
            heap_in_use_bytes: 1,
            heap_free_bytes: 2,
            stack_bytes: 4,
            heap_overhead_bytes: 8,
            runtime_metadata_bytes: 16,
            binary_bytes: 32,
        };
        assert_eq!(rss.rss_bytes(), 63);
        assert_eq!(rss.runtime_total_bytes(), 31);
        assert_eq!(rss.non_heap_bytes(), 28);
    }
}
