//! The APF width (seats) of a LIST, and of a WATCH that starts with the contents of a LIST
//! (apiserver `pkg/util/flowcontrol/request/list_work_estimator.go`, `width.go`, `config.go`;
//! the priority level's cap from `pkg/util/flowcontrol/apf_controller.go`).
//!
//! Two formulas, chosen by the feature gate `SizeBasedListCostEstimate` (beta and on since 1.34;
//! absent before):
//! - [`ListCostEstimate::ObjectCount`] (≤ 1.33): one seat per 100 objects the request processes
//!   (all stored objects from the watch cache, twice that from etcd), at most 10 seats.
//! - [`ListCostEstimate::ObjectSize`] (≥ 1.34): one seat per 100 000 bytes the request holds in
//!   memory at once (the stored objects times their average size), capped at 1 MB for a request the
//!   watch cache streams, at most 100 seats.
//!
//! Both are clamped to the priority level's own cap. Upstream reads the object count and average
//! size from the `ObjectCountTracker`, refreshed from storage about every minute; here the caller
//! passes the store's current figures. Requests with limits, selectors, continue tokens or a name
//! are not modelled (the operator's reflector sends none).

/// `objectsPerSeat` (`config.go`).
pub const OBJECTS_PER_SEAT: u64 = 100;
/// `bytesPerSeat` (`list_work_estimator.go`).
pub const BYTES_PER_SEAT: u64 = 100_000;
/// `cacheWithStreamingMaxMemoryUsage`: a list served by the watch cache costs at most this much.
pub const CACHE_STREAMING_MAX_MEMORY_BYTES: u64 = 1_000_000;
/// `maxObjectSize`: the average assumed when the tracker knows a count but no size.
pub const MAX_OBJECT_SIZE_BYTES: u64 = 1_500_000;
/// `MaximumListSeatsLimit` without `SizeBasedListCostEstimate`.
pub const MAX_LIST_SEATS_BY_COUNT: u64 = 10;
/// `MaximumListSeatsLimit` with `SizeBasedListCostEstimate`.
pub const MAX_LIST_SEATS_BY_SIZE: u64 = 100;
/// `priorityLevelMaxSeatsPercent` (`apf_controller.go`).
pub const PRIORITY_LEVEL_MAX_SEATS_PERCENT: f64 = 0.15;
/// The hand size of `workload-low` (apiserver `pkg/apis/flowcontrol/bootstrap/default.go`).
pub const WORKLOAD_LOW_HAND_SIZE: u64 = 6;

/// Which list cost estimate the API server uses (feature gate `SizeBasedListCostEstimate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListCostEstimate {
    /// `seatsBasedOnObjectCount` (gate absent or off: Kubernetes ≤ 1.33).
    ObjectCount,
    /// `seatsBasedOnObjectSize` (gate on by default since 1.34).
    ObjectSize,
}

impl ListCostEstimate {
    /// `MaximumListSeatsLimit` (`config.go` `DefaultWorkEstimatorConfig`).
    pub fn max_list_seats(self) -> u64 {
        match self {
            ListCostEstimate::ObjectCount => MAX_LIST_SEATS_BY_COUNT,
            ListCostEstimate::ObjectSize => MAX_LIST_SEATS_BY_SIZE,
        }
    }
}

/// What the object count tracker knows of a resource (`storage.Stats`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ListStats {
    /// `ObjectCount`.
    pub object_count: u64,
    /// `EstimatedAverageObjectSizeBytes`.
    pub average_object_size_bytes: u64,
}

/// The most seats a request of a priority level may take: `max(1, min(ceil(0.15 · limit),
/// limit / handSize))` for a level of `concurrency_limit` seats (`apf_controller.go`).
pub fn priority_level_max_seats(concurrency_limit: u64, hand_size: u64) -> u64 {
    let by_percent = (concurrency_limit as f64 * PRIORITY_LEVEL_MAX_SEATS_PERCENT).ceil() as u64;
    let by_hand = concurrency_limit / hand_size.max(1);
    by_percent.min(by_hand).max(1)
}

/// The seats of a LIST (or of a WATCH with initial events) over `stats`: `from_cache` when the
/// watch cache serves it, `level_max_seats` the priority level's cap (0 = none), clamped to
/// [1, min(level cap, `MaximumListSeatsLimit`)] (`listWorkEstimator.estimate`).
#[allow(
    clippy::similar_names,
    reason = "`seats` and `stats` are upstream's names"
)]
pub fn list_work_seats(
    estimate: ListCostEstimate,
    stats: ListStats,
    from_cache: bool,
    level_max_seats: u64,
) -> u32 {
    let limit = estimate.max_list_seats();
    let max_seats = if level_max_seats == 0 || level_max_seats > limit {
        limit
    } else {
        level_max_seats
    };
    let seats = match estimate {
        ListCostEstimate::ObjectCount => seats_by_object_count(stats, from_cache),
        ListCostEstimate::ObjectSize => seats_by_object_size(stats, from_cache),
    };
    u32::try_from(seats.clamp(1, max_seats)).unwrap_or(u32::MAX)
}

/// `seatsBasedOnObjectCount` without limit or selectors: the stored objects from the cache,
/// twice as many from etcd, one seat per 100.
fn seats_by_object_count(stats: ListStats, from_cache: bool) -> u64 {
    let processed = if from_cache {
        stats.object_count
    } else {
        stats.object_count.saturating_mul(2)
    };
    processed.div_ceil(OBJECTS_PER_SEAT)
}

/// `seatsBasedOnObjectSize` without limit or selectors: every stored object at its average size,
/// at most 1 MB from the cache, one seat per 100 000 bytes.
fn seats_by_object_size(stats: ListStats, from_cache: bool) -> u64 {
    let average = if stats.average_object_size_bytes == 0 && stats.object_count != 0 {
        MAX_OBJECT_SIZE_BYTES
    } else {
        stats.average_object_size_bytes
    };
    let mut memory_bytes = stats.object_count.saturating_mul(average);
    if from_cache {
        memory_bytes = memory_bytes.min(CACHE_STREAMING_MAX_MEMORY_BYTES);
    }
    memory_bytes.div_ceil(BYTES_PER_SEAT)
}

#[cfg(test)]
mod tests {
    //! Against the formulas of apiserver `pkg/util/flowcontrol/request/list_work_estimator.go`.

    use super::*;

    fn stats(object_count: u64, average_object_size_bytes: u64) -> ListStats {
        ListStats {
            object_count,
            average_object_size_bytes,
        }
    }

    #[test]
    fn workload_low_caps_a_request_at_37_seats() {
        assert_eq!(priority_level_max_seats(245, WORKLOAD_LOW_HAND_SIZE), 37);
        assert_eq!(priority_level_max_seats(1, WORKLOAD_LOW_HAND_SIZE), 1);
    }

    #[test]
    fn by_count_a_cached_list_takes_one_seat_per_hundred_objects_up_to_ten() {
        let seats = |n| list_work_seats(ListCostEstimate::ObjectCount, stats(n, 4096), true, 37);
        assert_eq!(
            [0, 1, 100, 101, 950, 5_000].map(seats),
            [1, 1, 1, 2, 10, 10]
        );
    }

    #[test]
    fn by_count_a_list_from_etcd_counts_every_object_twice() {
        let seats = list_work_seats(ListCostEstimate::ObjectCount, stats(300, 4096), false, 37);
        assert_eq!(seats, 6);
    }

    #[test]
    fn by_size_a_cached_list_costs_its_bytes_but_at_most_one_megabyte() {
        let seats = |n| list_work_seats(ListCostEstimate::ObjectSize, stats(n, 4096), true, 37);
        // 10 × 4096 B = 1 seat; 100 × 4096 B = 409 600 B → 5; 1 000 × 4096 B → 1 MB → 10.
        assert_eq!([10, 100, 1_000, 100_000].map(seats), [1, 5, 10, 10]);
    }

    #[test]
    fn by_size_a_list_from_etcd_is_capped_by_the_priority_level_not_at_ten() {
        // 1 000 × 4096 B = 4 096 000 B → 41 seats, above workload-low's 37.
        let seats =
            |cap| list_work_seats(ListCostEstimate::ObjectSize, stats(1_000, 4096), false, cap);
        assert_eq!(seats(37), 37);
        assert_eq!(seats(0), 41);
        assert_eq!(
            list_work_seats(
                ListCostEstimate::ObjectSize,
                stats(1_000_000, 4096),
                false,
                0
            ),
            100
        );
    }

    #[test]
    fn by_size_an_unknown_average_counts_as_the_largest_object() {
        // 3 objects × 1 500 000 B = 45 seats from etcd.
        let seats = list_work_seats(ListCostEstimate::ObjectSize, stats(3, 0), false, 0);
        assert_eq!(seats, 45);
    }
}
