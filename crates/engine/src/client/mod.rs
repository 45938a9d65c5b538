//! client-go's REST client, as far as the operator's request rate is concerned.
//!
//! ```text
//!  request ──▶ rate_limiter.wait(now) ──▶ delay ──▶ sent at now + delay ──▶ API server (APF, 429)
//!                                          │
//!                                          ├─▶ rest_client_rate_limiter_duration_seconds
//!                                          └─▶ > 1 s: "Waited for …s due to client-side throttling"
//! ```
//!
//! - [`rate_limiter`]: the token bucket (`util/flowcontrol/throttle.go`) with `rest/config.go`
//!   defaults and the controller-runtime presets, plus the throttling log of `rest/request.go`.

pub mod rate_limiter;

pub use rate_limiter::{
    go_duration_string, throttling_message, ClientRateLimit, ThrottledLogger,
    TokenBucketRateLimiter, DEFAULT_BURST, DEFAULT_QPS, EXTRA_LONG_THROTTLE_LATENCY,
    LONG_THROTTLE_LATENCY, RATE_LIMITER_DURATION_BUCKETS_S,
};
