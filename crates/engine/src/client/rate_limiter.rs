//! The REST client's client-side rate limiter.
//!
//! - `rest/config.go` / `rest/client.go` (`RESTClientForConfigAndClient`): QPS 0 ⇒ `DefaultQPS` 5,
//!   Burst 0 ⇒ `DefaultBurst` 10, QPS < 0 ⇒ no limiter; otherwise
//!   `flowcontrol.NewTokenBucketRateLimiter(qps, burst)`.
//! - `util/flowcontrol/throttle.go`: the bucket is golang.org/x/time `rate.Limiter` — it starts
//!   full with `burst` tokens, refills at `qps` per second up to `burst`, and `Wait` reserves a
//!   token even when none is left, going into debt: the k-th request waiting in line waits k/qps.
//! - `rest/request.go` `tryThrottleWithInfo`: the wait is observed as
//!   `rest_client_rate_limiter_duration_seconds`; a wait over 50 ms is logged at `-v=3`, one over
//!   1 s through a throttled logger at the default level, at most once per 10 s:
//!   `Waited for 1.198427306s due to client-side throttling, not priority and fairness, request:
//!   GET:https://…`.
//! - controller-runtime `pkg/client/config/config.go`: v0.14–v0.20 set QPS 20 / Burst 30 when unset;
//!   since v0.21.0 QPS −1 (no client-side limiter; the API server's priority and fairness limits).

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::ConfigError;
use crate::float_text::Shortest;
use crate::time::SimTime;

/// `rest.DefaultQPS`.
pub const DEFAULT_QPS: f32 = 5.0;

/// `rest.DefaultBurst`.
pub const DEFAULT_BURST: i32 = 10;

/// Waits longer than this are logged at `-v=3` (`rest/request.go` `longThrottleLatency`).
pub const LONG_THROTTLE_LATENCY: Duration = Duration::from_millis(50);

/// Waits longer than this are logged at the default level, throttled (`rest/request.go`
/// `extraLongThrottleLatency`): the "Waited for …" line operators see.
pub const EXTRA_LONG_THROTTLE_LATENCY: Duration = Duration::from_secs(1);

/// Buckets of `rest_client_rate_limiter_duration_seconds` (k8s.io/component-base
/// `metrics/prometheus/restclient/metrics.go`).
pub const RATE_LIMITER_DURATION_BUCKETS_S: [f64; 12] = [
    0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0,
];

/// The token bucket, or no limiter at all.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TokenBucketRateLimiter {
    bucket: Option<Bucket>,
}

/// `rate.Limiter` state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Bucket {
    qps: f64,
    burst: u32,
    tokens: f64,
    last: Option<SimTime>,
}

impl TokenBucketRateLimiter {
    /// The limiter a REST client gets from `rest.Config{QPS: qps, Burst: burst}`: QPS 0 ⇒ 5,
    /// Burst 0 ⇒ 10, QPS < 0 ⇒ disabled. Rejects a NaN or infinite QPS, and a negative burst
    /// with a positive QPS (upstream every request would fail with "exceeds limiter's burst").
    pub fn new(qps: f32, burst: i32) -> Result<TokenBucketRateLimiter, ConfigError> {
        if !qps.is_finite() {
            return Err(ConfigError::new(
                "qps",
                format!(
                    "must be a finite number: < 0 disables, 0 means {} (got {})",
                    Shortest(f64::from(DEFAULT_QPS)),
                    Shortest(f64::from(qps))
                ),
            ));
        }
        if qps < 0.0 {
            return Ok(TokenBucketRateLimiter::disabled());
        }
        let qps = if qps == 0.0 { DEFAULT_QPS } else { qps };
        let burst = if burst == 0 { DEFAULT_BURST } else { burst };
        let burst = u32::try_from(burst).map_err(|_| {
            ConfigError::new(
                "burst",
                format!("must be at least 0 (0 means {DEFAULT_BURST}) when qps > 0 (got {burst})"),
            )
        })?;
        Ok(TokenBucketRateLimiter {
            bucket: Some(Bucket {
                qps: f64::from(qps),
                burst,
                tokens: f64::from(burst),
                last: None,
            }),
        })
    }

    /// No client-side limit (QPS < 0; controller-runtime ≥ v0.21).
    pub fn disabled() -> TokenBucketRateLimiter {
        TokenBucketRateLimiter { bucket: None }
    }

    /// Whether requests are limited at all.
    pub fn is_enabled(&self) -> bool {
        self.bucket.is_some()
    }

    /// Tokens per second, if enabled.
    pub fn qps(&self) -> Option<f64> {
        self.bucket.as_ref().map(|b| b.qps)
    }

    /// Bucket size, if enabled.
    pub fn burst(&self) -> Option<u32> {
        self.bucket.as_ref().map(|b| b.burst)
    }

    /// Tokens available at `now`; negative while requests queue (`rate.Limiter.TokensAt`).
    /// `f64::INFINITY` when disabled.
    pub fn tokens(&self, now: SimTime) -> f64 {
        self.bucket
            .as_ref()
            .map_or(f64::INFINITY, |b| b.tokens_at(now))
    }

    /// A request at `now` takes a token and must wait the returned delay before it is sent
    /// (`Wait`, i.e. `Reserve` then sleep). Zero when disabled.
    pub fn wait(&mut self, now: SimTime) -> Duration {
        let Some(bucket) = self.bucket.as_mut() else {
            return Duration::ZERO;
        };
        let left = bucket.tokens_at(now) - 1.0;
        bucket.tokens = left;
        bucket.last = Some(now);
        if left >= 0.0 {
            Duration::ZERO
        } else {
            duration_from_secs_truncated(-left / bucket.qps)
        }
    }

    /// Takes a token at `now` only if one is available (`TryAccept`); always true when disabled.
    pub fn try_accept(&mut self, now: SimTime) -> bool {
        let Some(bucket) = self.bucket.as_mut() else {
            return true;
        };
        let available = bucket.tokens_at(now);
        if available < 1.0 {
            return false;
        }
        bucket.tokens = available - 1.0;
        bucket.last = Some(now);
        true
    }

    /// How much of the burst is used at `now`, 0..=1, debt counting as full (`throttle.go`
    /// `Saturation` in client-go versions that had it: `(capacity − available) / capacity`).
    pub fn saturation(&self, now: SimTime) -> f64 {
        self.bucket.as_ref().map_or(0.0, |b| {
            let avail = b.tokens_at(now) / f64::from(b.burst.max(1));
            (1.0 - avail).clamp(0.0, 1.0)
        })
    }
}

impl Bucket {
    /// Tokens after refilling from the last reservation to `now`, capped at `burst`
    /// (`rate.Limiter.advance`; a bucket never used is full).
    fn tokens_at(&self, now: SimTime) -> f64 {
        let Some(last) = self.last else {
            return f64::from(self.burst);
        };
        let refill = now.saturating_since(last).as_secs_f64() * self.qps;
        (self.tokens + refill).min(f64::from(self.burst))
    }
}

/// A float number of seconds as a duration, truncated to the nanosecond like Go's
/// `time.Duration(f)`; saturating.
fn duration_from_secs_truncated(secs: f64) -> Duration {
    let nanos = secs * 1e9;
    if nanos.is_nan() || nanos <= 0.0 {
        Duration::ZERO
    } else if nanos >= u64::MAX as f64 {
        Duration::from_nanos(u64::MAX)
    } else {
        Duration::from_nanos(nanos as u64)
    }
}

/// Which client-side rate limit the operator's REST client has.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientRateLimit {
    /// Plain client-go: QPS 5, Burst 10 (`rest/config.go`).
    ClientGoDefault,
    /// controller-runtime v0.14–v0.20 (`pkg/client/config/config.go`): QPS 20, Burst 30. Seed 000's
    /// operator (v0.15) runs with this.
    ControllerRuntimeV015,
    /// controller-runtime ≥ v0.21: QPS −1, no client-side limiter.
    #[default]
    Disabled,
    /// Explicit `rest.Config` values, with the same zero / negative rules.
    Custom {
        /// `rest.Config.QPS`.
        qps: f32,
        /// `rest.Config.Burst`.
        burst: i32,
    },
}

impl ClientRateLimit {
    /// The `rest.Config` QPS and Burst this preset sets.
    pub fn qps_burst(&self) -> (f32, i32) {
        match *self {
            ClientRateLimit::ClientGoDefault => (DEFAULT_QPS, DEFAULT_BURST),
            ClientRateLimit::ControllerRuntimeV015 => (20.0, 30),
            ClientRateLimit::Disabled => (-1.0, 0),
            ClientRateLimit::Custom { qps, burst } => (qps, burst),
        }
    }

    /// Checks a custom QPS/Burst; the error names the field.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.limiter().map(|_| ())
    }

    /// A fresh limiter (full bucket).
    pub fn limiter(&self) -> Result<TokenBucketRateLimiter, ConfigError> {
        let (qps, burst) = self.qps_burst();
        TokenBucketRateLimiter::new(qps, burst)
    }
}

/// The log line client-go writes for a throttled request (`rest/request.go`).
pub fn throttling_message(wait: Duration, verb: &str, url: &str) -> String {
    format!(
        "Waited for {} due to client-side throttling, not priority and fairness, request: {verb}:{url}",
        go_duration_string(wait)
    )
}

/// The klog throttling of the "Waited for" line (`rest/request.go` `globalThrottledLogger`): at
/// `-v=2` or more at most once per second, otherwise at most once per 10 s. Only waits over
/// [`EXTRA_LONG_THROTTLE_LATENCY`] go through it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThrottledLogger {
    last_verbose: Option<SimTime>,
    last_default: Option<SimTime>,
}

impl ThrottledLogger {
    /// A logger that has not logged yet.
    pub fn new() -> ThrottledLogger {
        ThrottledLogger::default()
    }

    /// Whether a request that waited `wait` is logged at `now` with klog verbosity `verbosity`
    /// (the first setting enabled at that verbosity decides, as in `attemptToLog`).
    pub fn should_log(&mut self, wait: Duration, now: SimTime, verbosity: u8) -> bool {
        if wait <= EXTRA_LONG_THROTTLE_LATENCY {
            return false;
        }
        let (last, interval) = if verbosity >= 2 {
            (&mut self.last_verbose, Duration::from_secs(1))
        } else {
            (&mut self.last_default, Duration::from_secs(10))
        };
        let due = last.is_none_or(|at| now.saturating_since(at) >= interval);
        if due {
            *last = Some(now);
        }
        due
    }
}

/// Go's `time.Duration.String()`: `0s`, `850ns`, `1.5µs`, `200ms`, `1.198427306s`, `1m30s`,
/// `2h0m0s`.
pub fn go_duration_string(d: Duration) -> String {
    // below a second the count fits in 64 bits (a longer one saturates and is written from its
    // seconds): no 128-bit arithmetic or formatting compiled for a duration's text
    let nanos = crate::time::duration_nanos(d);
    if nanos == 0 {
        return "0s".to_owned();
    }
    if nanos < 1_000 {
        return format!("{nanos}ns");
    }
    if nanos < 1_000_000 {
        return format!("{}µs", decimal(nanos, 3));
    }
    if nanos < 1_000_000_000 {
        return format!("{}ms", decimal(nanos, 6));
    }
    let secs = d.as_secs();
    let (hours, minutes) = (secs / 3600, secs / 60 % 60);
    let seconds = decimal((secs % 60) * 1_000_000_000 + u64::from(d.subsec_nanos()), 9);
    match (hours, minutes) {
        (0, 0) => format!("{seconds}s"),
        (0, m) => format!("{m}m{seconds}s"),
        (h, m) => format!("{h}h{m}m{seconds}s"),
    }
}

/// `value / 10^digits` with the fraction's trailing zeros dropped.
fn decimal(value: u64, digits: u32) -> String {
    let scale = 10u64.pow(digits);
    let (whole, frac) = (value / scale, value % scale);
    if frac == 0 {
        return whole.to_string();
    }
    let frac = format!("{frac:0width$}", width = digits as usize);
    format!("{whole}.{}", frac.trim_end_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_print_like_go() {
        let d = Duration::from_nanos;
        assert_eq!(go_duration_string(d(0)), "0s");
        assert_eq!(go_duration_string(d(850)), "850ns");
        assert_eq!(go_duration_string(d(1_500)), "1.5µs");
        assert_eq!(go_duration_string(d(200_000_000)), "200ms");
        assert_eq!(go_duration_string(d(1_198_427_306)), "1.198427306s");
        assert_eq!(go_duration_string(Duration::from_secs(90)), "1m30s");
        assert_eq!(go_duration_string(Duration::from_secs(7200)), "2h0m0s");
    }
}
