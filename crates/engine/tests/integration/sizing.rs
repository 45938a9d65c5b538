//! "Your cluster's numbers": the user's counts run through the engine (`flywheel_engine::sizing`).

use flywheel_engine::sizing::{measure, size, Family, KindCount, Measurer, SizeInput};

const KI: u64 = 1024;
const MI: u64 = 1024 * KI;
const GI: u64 = 1024 * MI;

fn incident(objects: u32) -> SizeInput {
    SizeInput {
        custom: Some(KindCount {
            objects,
            size_bytes: 4 * KI,
        }),
        workers: Some(4),
        ..SizeInput::new(Family::Incident)
    }
}

fn list_full_scan(pods: u32, limit_bytes: u64) -> SizeInput {
    SizeInput {
        custom: Some(KindCount {
            objects: 50,
            size_bytes: 4 * KI,
        }),
        pods: Some(KindCount {
            objects: pods,
            size_bytes: 16 * KI,
        }),
        namespaces: Some(10),
        memory_limit_bytes: Some(limit_bytes),
        ..SizeInput::new(Family::ListFullScan)
    }
}

#[test]
fn more_objects_give_a_larger_first_list_and_a_larger_cache() {
    let small = size(&incident(500)).expect("500 objects run");
    let large = size(&incident(2000)).expect("2000 objects run");
    assert_eq!(small.first_list_objects, 500);
    assert_eq!(large.first_list_objects, 2000);
    assert_eq!(large.first_list_bytes, 2000 * 4 * KI);
    assert!(large.first_list_bytes > small.first_list_bytes);
    let store = |r: &flywheel_engine::sizing::SizeReport| r.cache_bytes_by_owner["informer_store"];
    assert!(store(&large) > store(&small), "{large:?}");
    assert!(large.first_list_ms >= small.first_list_ms);
}

#[test]
fn a_limit_below_the_peak_is_crossed_and_one_above_it_is_not() {
    let roomy = size(&list_full_scan(4000, 4 * GI)).expect("runs");
    assert!(!roomy.limit_crossed, "{roomy:?}");
    assert_eq!(roomy.oom_killed_at_ms, None);
    assert!(roomy.pod_cache_objects >= 4000);
    let tight_limit = roomy.peak_rss_bytes / 2;
    let tight = size(&list_full_scan(4000, tight_limit)).expect("runs");
    assert!(tight.limit_crossed, "{tight:?}");
    assert!(tight.oom_kills >= 1);
    assert!(tight.oom_killed_at_ms.is_some_and(|t| t < tight.window_ms));
    assert!(tight.peak_rss_bytes <= tight_limit);
}

#[test]
fn the_relist_raises_memory_above_its_steady_value() {
    let r = size(&list_full_scan(4000, 4 * GI)).expect("runs");
    assert!(r.steady_rss_bytes > 0);
    assert!(r.relist_peak_rss_bytes >= r.steady_rss_bytes);
    assert!(r.cache_sync_ms.is_some());
    assert!(r.steady_qps > 0.0);
}

#[test]
fn the_reports_scenario_run_again_gives_the_same_numbers() {
    let first = size(&incident(800)).expect("runs");
    let again = measure(Family::Incident, first.scenario().clone()).expect("runs again");
    assert_eq!(first, again);
}

#[test]
fn a_number_out_of_range_names_its_input_and_setting() {
    let input = SizeInput {
        workers: Some(0),
        ..SizeInput::new(Family::Incident)
    };
    let e = size(&input).expect_err("0 workers");
    assert_eq!(e.input, "workers");
    assert_eq!(e.error.field, "controller.workers");
    assert!(e.error.message.contains("got 0"), "{e}");
}

#[test]
fn measured_a_piece_at_a_time_a_run_gives_the_numbers_of_one_run_to_the_end() {
    let input = list_full_scan(400, 2 << 30);
    let whole = size(&input).expect("sized");
    let scenario = flywheel_engine::sizing::build(&input).expect("built");
    let mut m = Measurer::new(input.family, scenario).expect("starts");
    let mut pieces = 0;
    while !m.advance(&mut || true) {
        pieces += 1;
        assert!(m.progress() <= 1.0);
    }
    assert!(pieces > 10, "it ran in {pieces} pieces");
    assert_eq!(m.report(), whole);
}
