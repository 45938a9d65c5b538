//! client-go's workqueue (`util/workqueue`) and controller-runtime's priority queue.
//!
//! The work queues decouple "something changed" from "reconcile it": event handlers add keys,
//! workers take them out one at a time. Layers, each in its own module:
//!
//! - [`Queue`] (`queue.go`): FIFO with de-duplication; a key is never handed to two workers at
//!   once, and adds while it is processed collapse into one more processing after `done`.
//! - [`DelayingQueue`] (`delaying_queue.go`): `add_after`, with deadlines in virtual time.
//! - [`RateLimiter`]s (`default_rate_limiters.go`) and [`RateLimitingQueue`]
//!   (`rate_limiting_queue.go`): per-item exponential backoff and an overall token bucket.
//! - [`PriorityQueue`] (controller-runtime `pkg/controller/priorityqueue`): the default queue of
//!   controller-runtime ≥ v0.23, with priorities and a different default rate limiter.
//! - [`QueueMetrics`] (`metrics.go`): the `workqueue_*` metrics.
//!
//! Nothing blocks and nothing reads a clock: `get` returns `None` when no item can be handed out,
//! and the simulation passes virtual time in (`set_now`, `advance`, the `now` arguments) and asks
//! `next_ready_at` when to come back. Collections are ordered (`BTreeMap`, `VecDeque`) with explicit
//! sequence numbers for ties, so runs are deterministic.

mod causes;
mod delaying;
mod interface;
mod metrics;
mod priority;
mod queue;
mod rate_limiter;
mod rate_limiting;
pub(crate) mod set;

pub use causes::CauseIds;
pub use delaying::DelayingQueue;
pub use interface::RateLimitingInterface;
pub use metrics::{duration_buckets_seconds, QueueMetrics, UNFINISHED_WORK_UPDATE_PERIOD};
pub use priority::{AddOpts, PriorityQueue, LOW_PRIORITY};
pub use queue::Queue;
pub use rate_limiter::{
    default_controller_rate_limiter, default_item_based_rate_limiter, BucketRateLimiter,
    ItemExponentialFailureRateLimiter, ItemFastSlowRateLimiter, MaxOfRateLimiter, RateLimiter,
    WithMaxWaitRateLimiter,
};
pub use rate_limiting::RateLimitingQueue;
