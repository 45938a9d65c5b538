//! client-go's client-side rate limiter: `util/flowcontrol/throttle.go` (golang.org/x/time/rate
//! token bucket), `rest/config.go` defaults, controller-runtime presets, and the throttling log
//! of `rest/request.go`. The first three tests replay `util/flowcontrol/throttle_test.go` on
//! virtual time.

use std::time::Duration;

use flywheel_engine::client::{
    throttling_message, ClientRateLimit, ThrottledLogger, TokenBucketRateLimiter, DEFAULT_BURST,
    DEFAULT_QPS, EXTRA_LONG_THROTTLE_LATENCY, LONG_THROTTLE_LATENCY,
    RATE_LIMITER_DURATION_BUCKETS_S,
};
use flywheel_engine::SimTime;

fn limiter(qps: f32, burst: i32) -> TokenBucketRateLimiter {
    TokenBucketRateLimiter::new(qps, burst).expect("valid limiter")
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

const T0: SimTime = SimTime::from_millis(5_000);

#[test]
fn a_full_bucket_accepts_burst_requests_at_once_then_refuses() {
    // throttle_test.go TestBasicThrottle: NewTokenBucketRateLimiter(1, 3).
    let mut r = limiter(1.0, 3);
    for i in 0..3 {
        assert!(r.try_accept(T0), "request {i}");
    }
    assert!(!r.try_accept(T0));
}

#[test]
fn an_empty_bucket_refills_at_qps() {
    // throttle_test.go TestIncrementThrottle: NewTokenBucketRateLimiter(1, 1), sleep 2 s.
    let mut r = limiter(1.0, 1);
    assert!(r.try_accept(T0));
    assert!(!r.try_accept(T0));
    assert!(!r.try_accept(T0 + ms(999)));
    assert!(r.try_accept(T0 + ms(2000)));
}

#[test]
fn requests_beyond_the_burst_wait_one_token_interval_each() {
    // throttle_test.go TestThrottle: (10, 5), 16 requests: 5 at once, the other 11 take ≥ 1 s.
    let mut r = limiter(10.0, 5);
    let waits: Vec<Duration> = (0..16).map(|_| r.wait(T0)).collect();
    assert!(waits[..5].iter().all(|w| w.is_zero()));
    for (k, wait) in waits[5..].iter().enumerate() {
        let expected = ms(100 * (k as u64 + 1));
        assert!(
            wait.abs_diff(expected) <= Duration::from_nanos(1),
            "request {}: {wait:?} vs {expected:?}",
            k + 5
        );
    }
    assert!(waits[15] >= Duration::from_secs(1));
}

#[test]
fn zero_qps_and_burst_mean_client_go_defaults_of_five_and_ten() {
    // rest/config.go DefaultQPS 5, DefaultBurst 10; rest/client.go fills in zeros.
    let r = limiter(0.0, 0);
    assert_eq!(r.qps(), Some(f64::from(DEFAULT_QPS)));
    assert_eq!(r.qps(), Some(5.0));
    assert_eq!(r.burst(), Some(10));
    assert_eq!(DEFAULT_BURST, 10);
    let r = limiter(0.0, 3);
    assert_eq!((r.qps(), r.burst()), (Some(5.0), Some(3)));
    let r = limiter(7.0, 0);
    assert_eq!((r.qps(), r.burst()), (Some(7.0), Some(10)));
}

#[test]
fn negative_qps_disables_the_limiter() {
    let mut r = limiter(-1.0, 0);
    assert!(!r.is_enabled());
    for _ in 0..1000 {
        assert_eq!(r.wait(T0), Duration::ZERO);
        assert!(r.try_accept(T0));
    }
    assert_eq!(r.qps(), None);
}

#[test]
fn the_client_go_default_queues_a_burst_of_thirty_requests_for_four_seconds() {
    let mut r = ClientRateLimit::ClientGoDefault
        .limiter()
        .expect("valid preset");
    let waits: Vec<Duration> = (0..30).map(|_| r.wait(T0)).collect();
    assert!(waits[..10].iter().all(|w| w.is_zero()));
    assert_eq!(waits[10], ms(200));
    assert_eq!(waits[29], ms(4000));
    // The 16th request waits 1.2 s: the first one client-go logs at the default level.
    let first_logged = waits
        .iter()
        .position(|w| *w > EXTRA_LONG_THROTTLE_LATENCY)
        .expect("some wait is long");
    assert_eq!(first_logged, 15);
}

#[test]
fn controller_runtime_presets_follow_its_versions() {
    // c-r pkg/client/config/config.go: v0.14–v0.20 QPS 20 / Burst 30; v0.21+ QPS −1.
    assert_eq!(
        ClientRateLimit::ControllerRuntimeV015.qps_burst(),
        (20.0, 30)
    );
    let r = ClientRateLimit::ControllerRuntimeV015
        .limiter()
        .expect("valid");
    assert_eq!((r.qps(), r.burst()), (Some(20.0), Some(30)));
    assert!(!ClientRateLimit::Disabled
        .limiter()
        .expect("valid")
        .is_enabled());
    assert_eq!(ClientRateLimit::default(), ClientRateLimit::Disabled);
    let custom = ClientRateLimit::Custom {
        qps: 50.0,
        burst: 100,
    };
    assert_eq!(custom.limiter().expect("valid").burst(), Some(100));
}

#[test]
fn idle_time_refills_the_bucket_only_up_to_the_burst() {
    let mut r = limiter(5.0, 10);
    for _ in 0..10 {
        r.wait(T0);
    }
    let later = T0 + Duration::from_secs(3600);
    assert_eq!(r.tokens(later), 10.0);
    let waits: Vec<Duration> = (0..11).map(|_| r.wait(later)).collect();
    assert!(waits[..10].iter().all(|w| w.is_zero()));
    assert_eq!(waits[10], ms(200));
}

#[test]
fn a_waiting_request_holds_its_token_so_later_requests_queue_behind_it() {
    let mut r = limiter(2.0, 1);
    assert_eq!(r.wait(T0), Duration::ZERO);
    assert_eq!(r.wait(T0), ms(500));
    assert!(r.tokens(T0) < 0.0);
    // 250 ms later the queue still holds one token of debt.
    assert_eq!(r.wait(T0 + ms(250)), ms(750));
    assert!(!r.try_accept(T0 + ms(1000)));
    assert!((r.saturation(T0) - 1.0).abs() < 1e-12);
}

#[test]
fn invalid_limits_are_rejected_naming_the_field() {
    let e = TokenBucketRateLimiter::new(f32::NAN, 10).expect_err("NaN");
    assert_eq!(e.field, "qps");
    let e = TokenBucketRateLimiter::new(f32::INFINITY, 10).expect_err("inf");
    assert_eq!(e.field, "qps");
    let e = TokenBucketRateLimiter::new(5.0, -1).expect_err("negative burst");
    assert_eq!(e.field, "burst");
    // A negative burst does not matter when the limiter is disabled.
    assert!(TokenBucketRateLimiter::new(-1.0, -1).is_ok());
    let bad = ClientRateLimit::Custom {
        qps: 1.0,
        burst: -5,
    };
    assert_eq!(bad.validate().expect_err("negative burst").field, "burst");
}

#[test]
fn rate_limits_parse_from_scenarios_and_reject_unknown_fields() {
    let parse = |s: &str| serde_json::from_str::<ClientRateLimit>(s);
    assert_eq!(
        parse("\"client_go_default\"").expect("preset"),
        ClientRateLimit::ClientGoDefault
    );
    assert_eq!(
        parse("\"controller_runtime_v015\"").expect("preset"),
        ClientRateLimit::ControllerRuntimeV015
    );
    assert_eq!(
        parse(r#"{"custom": {"qps": 50, "burst": 100}}"#).expect("custom"),
        ClientRateLimit::Custom {
            qps: 50.0,
            burst: 100
        }
    );
    assert!(parse(r#"{"custom": {"qps": 50, "burst": 100, "jitter": 1}}"#).is_err());
}

#[test]
fn long_waits_are_logged_with_client_go_wording() {
    assert_eq!(LONG_THROTTLE_LATENCY, ms(50));
    assert_eq!(EXTRA_LONG_THROTTLE_LATENCY, Duration::from_secs(1));
    assert_eq!(
        throttling_message(
            Duration::from_nanos(1_198_427_306),
            "GET",
            "https://10.0.0.1:6443/apis/events.k8s.io/v1beta1"
        ),
        "Waited for 1.198427306s due to client-side throttling, not priority and fairness, \
         request: GET:https://10.0.0.1:6443/apis/events.k8s.io/v1beta1"
    );
    assert_eq!(RATE_LIMITER_DURATION_BUCKETS_S.len(), 12);
    assert_eq!(RATE_LIMITER_DURATION_BUCKETS_S[5], 1.0);
}

#[test]
fn the_throttled_logger_logs_long_waits_at_most_every_ten_seconds_by_default() {
    let mut logger = ThrottledLogger::new();
    let long = ms(1500);
    assert!(!logger.should_log(EXTRA_LONG_THROTTLE_LATENCY, T0, 0));
    assert!(logger.should_log(long, T0, 0));
    assert!(!logger.should_log(long, T0 + ms(9_999), 0));
    assert!(logger.should_log(long, T0 + ms(10_000), 0));
    // At -v=2 the 1 s setting decides.
    assert!(logger.should_log(long, T0 + ms(10_000), 2));
    assert!(!logger.should_log(long, T0 + ms(10_500), 2));
    assert!(logger.should_log(long, T0 + ms(11_000), 2));
}
