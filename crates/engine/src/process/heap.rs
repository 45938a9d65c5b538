//! The Go heap, accounted by the part of the operator that owns each byte.
//!
//! ```text
//!  alloc(owner, n) ──▶ live[owner] += n
//!  free(owner, n)  ──▶ live[owner] -= n, garbage += n      (unreachable, still in the heap)
//!  alloc_transient ──▶ garbage += n                         (a copy dropped right away)
//!  collect()       ──▶ garbage = 0                          (a GC cycle: the sawtooth drops)
//! ```
//!
//! Go's heap holds every object until a GC cycle finds it unreachable (the GC guide, "Tracing
//! garbage collection"): a freed object keeps occupying the heap as garbage until the next mark
//! phase, which is what makes `go_memstats_heap_alloc_bytes` a sawtooth. Ownership is the
//! simulation's bookkeeping (a real heap profile attributes bytes to allocation sites, e.g.
//! `(*DeltaFIFO).queueActionLocked` in the incident of seed 000); it lets a chart show which
//! component is holding the memory.

use serde::{Deserialize, Serialize};

use crate::vec_map::VecMap;

/// Who holds a heap allocation: one operator component per variant, in chart order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HeapOwner {
    /// Objects in the informer's indexer (client-go `tools/cache/thread_safe_store.go`).
    InformerStore,
    /// Deltas waiting in the DeltaFIFO / RealFIFO (`tools/cache/delta_fifo.go`).
    FifoDeltas,
    /// Notifications buffered for event handlers (`shared_informer.go` processorListener ring).
    HandlerBuffers,
    /// Keys waiting in the workqueue (`util/workqueue`).
    WorkqueueEntries,
    /// Objects held by reconciles in flight (deep copies from the cache, request bodies).
    InflightReconciles,
    /// Decoded LIST responses during a relist (`tools/pager`, reflector `list`).
    ListCopies,
    /// Decoded watch events not yet handed to the FIFO (reflector watch handler).
    WatchBuffers,
    /// Log records and their formatting buffers.
    Logging,
    /// What the operator holds regardless of load: scheme, clients, caches of type info.
    Baseline,
    /// Anything else.
    Other,
}

impl HeapOwner {
    /// Every owner, in order.
    pub const ALL: [HeapOwner; 10] = [
        HeapOwner::InformerStore,
        HeapOwner::FifoDeltas,
        HeapOwner::HandlerBuffers,
        HeapOwner::WorkqueueEntries,
        HeapOwner::InflightReconciles,
        HeapOwner::ListCopies,
        HeapOwner::WatchBuffers,
        HeapOwner::Logging,
        HeapOwner::Baseline,
        HeapOwner::Other,
    ];

    /// The owner's position in [`HeapOwner::ALL`].
    fn index(self) -> usize {
        self as usize
    }

    /// A short `snake_case` label for charts and traces, e.g. `fifo_deltas`.
    pub fn label(self) -> &'static str {
        match self {
            HeapOwner::InformerStore => "informer_store",
            HeapOwner::FifoDeltas => "fifo_deltas",
            HeapOwner::HandlerBuffers => "handler_buffers",
            HeapOwner::WorkqueueEntries => "workqueue_entries",
            HeapOwner::InflightReconciles => "inflight_reconciles",
            HeapOwner::ListCopies => "list_copies",
            HeapOwner::WatchBuffers => "watch_buffers",
            HeapOwner::Logging => "logging",
            HeapOwner::Baseline => "baseline",
            HeapOwner::Other => "other",
        }
    }

    /// The key of the owner's `flywheel_heap_live_bytes` gauge (`{owner="<label>"}`), spelled
    /// out so that sampling it does not format.
    pub fn live_bytes_key(self) -> &'static str {
        match self {
            HeapOwner::InformerStore => "flywheel_heap_live_bytes{owner=\"informer_store\"}",
            HeapOwner::FifoDeltas => "flywheel_heap_live_bytes{owner=\"fifo_deltas\"}",
            HeapOwner::HandlerBuffers => "flywheel_heap_live_bytes{owner=\"handler_buffers\"}",
            HeapOwner::WorkqueueEntries => "flywheel_heap_live_bytes{owner=\"workqueue_entries\"}",
            HeapOwner::InflightReconciles => {
                "flywheel_heap_live_bytes{owner=\"inflight_reconciles\"}"
            }
            HeapOwner::ListCopies => "flywheel_heap_live_bytes{owner=\"list_copies\"}",
            HeapOwner::WatchBuffers => "flywheel_heap_live_bytes{owner=\"watch_buffers\"}",
            HeapOwner::Logging => "flywheel_heap_live_bytes{owner=\"logging\"}",
            HeapOwner::Baseline => "flywheel_heap_live_bytes{owner=\"baseline\"}",
            HeapOwner::Other => "flywheel_heap_live_bytes{owner=\"other\"}",
        }
    }
}

/// Live bytes by owner plus the garbage that the next GC cycle will reclaim.
///
/// All arithmetic saturates. Freeing more than an owner holds frees only what it holds and counts
/// an accounting error (see [`Heap::accounting_errors`]), so a simulation bug shows up in an
/// invariant check instead of as a wrapped-around heap.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heap {
    live_bytes_by_owner: [u64; 10],
    live_bytes: u64,
    garbage_bytes: u64,
    allocated_bytes_by_owner: [u64; 10],
    freed_bytes_total: u64,
    collected_bytes_total: u64,
    accounting_errors: u64,
    accounting_error_bytes: u64,
}

impl Heap {
    /// An empty heap.
    pub fn new() -> Heap {
        Heap::default()
    }

    /// `owner` allocates `bytes` that stay reachable until [`Heap::free`].
    pub fn alloc(&mut self, owner: HeapOwner, bytes: u64) {
        let i = owner.index();
        self.live_bytes_by_owner[i] = self.live_bytes_by_owner[i].saturating_add(bytes);
        self.live_bytes = self.live_bytes.saturating_add(bytes);
        self.count_allocation(owner, bytes);
    }

    /// `owner` allocates `bytes` and drops them at once (e.g. the deep copy a cache read returns,
    /// dropped when the reconcile ends): they are garbage from the start.
    pub fn alloc_transient(&mut self, owner: HeapOwner, bytes: u64) {
        self.garbage_bytes = self.garbage_bytes.saturating_add(bytes);
        self.count_allocation(owner, bytes);
    }

    /// `owner` drops `bytes`: they become garbage until the next [`Heap::collect`]. Freeing more
    /// than `owner` holds frees what it holds and counts one accounting error.
    pub fn free(&mut self, owner: HeapOwner, bytes: u64) {
        let i = owner.index();
        let held = self.live_bytes_by_owner[i];
        let freed = bytes.min(held);
        if bytes > held {
            self.accounting_errors = self.accounting_errors.saturating_add(1);
            self.accounting_error_bytes = self
                .accounting_error_bytes
                .saturating_add(bytes.saturating_sub(held));
        }
        self.live_bytes_by_owner[i] = held.saturating_sub(freed);
        self.live_bytes = self.live_bytes.saturating_sub(freed);
        self.garbage_bytes = self.garbage_bytes.saturating_add(freed);
        self.freed_bytes_total = self.freed_bytes_total.saturating_add(freed);
    }

    /// A GC cycle: every garbage byte is reclaimed; returns how many.
    pub fn collect(&mut self) -> u64 {
        let collected = self.garbage_bytes;
        self.garbage_bytes = 0;
        self.collected_bytes_total = self.collected_bytes_total.saturating_add(collected);
        collected
    }

    /// Reachable bytes (what a GC cycle would mark).
    pub fn live_bytes(&self) -> u64 {
        self.live_bytes
    }

    /// Unreachable bytes still in the heap, reclaimed by the next GC cycle.
    pub fn garbage_bytes(&self) -> u64 {
        self.garbage_bytes
    }

    /// Live plus garbage: the heap the pacer compares with its goal (`runtime.MemStats.HeapAlloc`,
    /// which counts "all reachable objects and unreachable objects not yet freed").
    pub fn heap_bytes(&self) -> u64 {
        self.live_bytes.saturating_add(self.garbage_bytes)
    }

    /// Live bytes held by `owner`.
    pub fn live_bytes_of(&self, owner: HeapOwner) -> u64 {
        self.live_bytes_by_owner[owner.index()]
    }

    /// Live bytes by owner, every owner present (zero included), in [`HeapOwner`] order.
    pub fn by_owner(&self) -> VecMap<HeapOwner, u64> {
        HeapOwner::ALL
            .iter()
            .map(|&owner| (owner, self.live_bytes_of(owner)))
            .collect()
    }

    /// Bytes allocated by each owner since the start, transient ones included (what pprof's
    /// `alloc_space` shows, as opposed to `inuse_space`).
    pub fn allocated_bytes_by_owner(&self) -> VecMap<HeapOwner, u64> {
        HeapOwner::ALL
            .iter()
            .map(|&owner| (owner, self.allocated_bytes_by_owner[owner.index()]))
            .collect()
    }

    /// Bytes allocated since the start (`go_memstats_alloc_bytes_total`).
    pub fn allocated_bytes_total(&self) -> u64 {
        self.allocated_bytes_by_owner
            .iter()
            .fold(0u64, |sum, &b| sum.saturating_add(b))
    }

    /// Bytes reclaimed by GC cycles since the start.
    pub fn collected_bytes_total(&self) -> u64 {
        self.collected_bytes_total
    }

    /// How many frees asked for more than their owner held (0 in a correct simulation).
    pub fn accounting_errors(&self) -> u64 {
        self.accounting_errors
    }

    /// The bytes those frees asked for beyond what their owners held.
    pub fn accounting_error_bytes(&self) -> u64 {
        self.accounting_error_bytes
    }

    fn count_allocation(&mut self, owner: HeapOwner, bytes: u64) {
        let i = owner.index();
        self.allocated_bytes_by_owner[i] = self.allocated_bytes_by_owner[i].saturating_add(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freed_bytes_stay_in_the_heap_as_garbage_until_a_collection() {
        let mut heap = Heap::new();
        heap.alloc(HeapOwner::FifoDeltas, 1000);
        heap.free(HeapOwner::FifoDeltas, 400);
        assert_eq!(heap.live_bytes(), 600);
        assert_eq!(heap.garbage_bytes(), 400);
        assert_eq!(heap.heap_bytes(), 1000);
        assert_eq!(heap.collect(), 400);
        assert_eq!(heap.heap_bytes(), 600);
    }

    #[test]
    fn a_transient_allocation_is_garbage_from_the_start_but_counts_as_allocated() {
        let mut heap = Heap::new();
        heap.alloc_transient(HeapOwner::InflightReconciles, 300);
        assert_eq!(heap.live_bytes(), 0);
        assert_eq!(heap.garbage_bytes(), 300);
        assert_eq!(heap.allocated_bytes_total(), 300);
    }

    #[test]
    fn freeing_more_than_an_owner_holds_saturates_and_counts_an_accounting_error() {
        let mut heap = Heap::new();
        heap.alloc(HeapOwner::Logging, 10);
        heap.alloc(HeapOwner::Other, 50);
        heap.free(HeapOwner::Logging, 25);
        assert_eq!(heap.live_bytes_of(HeapOwner::Logging), 0);
        assert_eq!(heap.live_bytes(), 50);
        assert_eq!(heap.garbage_bytes(), 10);
        assert_eq!(heap.accounting_errors(), 1);
        assert_eq!(heap.accounting_error_bytes(), 15);
    }

    #[test]
    fn each_live_bytes_key_names_its_owner_label() {
        for owner in HeapOwner::ALL {
            let expected = format!("flywheel_heap_live_bytes{{owner=\"{}\"}}", owner.label());
            assert_eq!(owner.live_bytes_key(), expected);
        }
    }

    #[test]
    fn by_owner_lists_every_owner_in_order() {
        let mut heap = Heap::new();
        heap.alloc(HeapOwner::Other, 7);
        heap.alloc(HeapOwner::InformerStore, 3);
        let owners: Vec<_> = heap.by_owner().into_iter().collect();
        assert_eq!(owners.len(), HeapOwner::ALL.len());
        assert_eq!(owners[0], (HeapOwner::InformerStore, 3));
        assert_eq!(owners[9], (HeapOwner::Other, 7));
    }
}
