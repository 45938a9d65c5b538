//! Fuzzing the scenario parser with proptest (cargo-fuzz cannot run in CI here): arbitrary text,
//! mutated preset files and arbitrary `--set` overrides. Any input yields a scenario or an error
//! naming the bad field — never a panic — and every accepted scenario runs (bounded by the run's
//! event budget) without panicking.

use std::time::Duration;

use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::scenario::{self, presets};
use proptest::prelude::*;

/// Scenario fields worth aiming `--set` and mutations at.
const FIELDS: &[&str] = &[
    "name",
    "duration",
    "seed",
    "profile",
    "crd.kind",
    "crd.status_subresource",
    "objects.count",
    "objects.namespaces",
    "objects.size_bytes",
    "objects.create_at",
    "controller.workers",
    "controller.predicates",
    "controller.fifo",
    "controller.queue",
    "controller.handler_cost",
    "client.qps",
    "client.burst",
    "apiserver.seats",
    "apiserver.queue_capacity",
    "apiserver.queue_wait",
    "apiserver.flow_control",
    "apiserver.etcd_writes_per_second",
    "apiserver.watch_latency",
    "apiserver.latency.get_ms",
    "apiserver.latency.jitter_fraction",
    "apiserver.watch_cache.lower_capacity",
    "apiserver.watch_cache.upper_capacity",
    "apiserver.watch_cache.event_fresh_duration_s",
    "process.memory_limit",
    "process.gogc",
    "process.gomemlimit",
    "process.baseline",
    "reconcile.steps",
];

/// Values of every shape: numbers at the edges, units, strings, arrays, tables, garbage.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|v| v.to_string()),
        any::<f64>().prop_map(|v| v.to_string()),
        Just("0".to_owned()),
        Just("-1".to_owned()),
        Just("nan".to_owned()),
        Just("inf".to_owned()),
        Just("1e308".to_owned()),
        Just("18446744073709551616".to_owned()),
        Just("0s".to_owned()),
        Just("\"0s\"".to_owned()),
        Just("\"1ns\"".to_owned()),
        Just("\"9999999h\"".to_owned()),
        Just("\"1Ki\"".to_owned()),
        Just("\"16Ei\"".to_owned()),
        Just("true".to_owned()),
        Just("[]".to_owned()),
        Just("{}".to_owned()),
        Just("[\"generation_changed\", \"bogus\"]".to_owned()),
        Just("\"modern\"".to_owned()),
        "[a-z_\\.\"\\[\\]{}=0-9 -]{0,24}",
        ".{0,16}",
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(FIELDS).prop_map(str::to_owned),
        1 => "[a-z_.]{0,20}",
        1 => ".{0,12}",
    ]
}

/// Runs an accepted scenario briefly: it must start and finish within its event budget.
fn run_briefly(s: scenario::Scenario) {
    let options = RunOptions {
        duration: Some(s.duration.min(Duration::from_secs(5))),
        max_events: Some(200_000),
        ..RunOptions::default()
    };
    let name = s.name.clone();
    let mut run = match Run::new(s, &options) {
        Ok(run) => run,
        Err(e) => panic!("{name}: validated, but the run refused it: {e}"),
    };
    // A call may stop early after an event split into parts (the page draws between them), but
    // each call handles at least one event, so the event budget ends the loop.
    loop {
        let before = run.events();
        if run.advance(50_000) {
            break;
        }
        assert!(run.events() > before, "{name}: a call handled no event");
    }
    let _ = run.report();
}

/// Cases per fuzzer: `FLYWHEEL_FUZZ_CASES` (set by `tests/fuzz.sh`), else CI's quick 256.
fn cases() -> u32 {
    std::env::var("FLYWHEEL_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

/// Words of Rust and serde that must never reach a user.
const RUST_WORDS: &[&str] = &[
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32",
    "f64", "untagged", "enum ", "struct ", "variant", "Option", "sequence", "a map", "Raw",
];

/// `message` without what it quotes (`…`, '…', "…") or shows as got: the user's own text.
fn unquoted(message: &str) -> String {
    let mut out = String::new();
    let mut close = None;
    for (i, c) in message.char_indices() {
        match close {
            Some(q) if c == q => close = None,
            Some(_) => {}
            None if "`'\"".contains(c) => close = Some(c),
            None if message[i..].starts_with("(got ") => close = Some(')'),
            None => out.push(c),
        }
    }
    out
}

/// Whether `message`, with the user's own input taken out, speaks Rust.
fn rust_word_in(message: &str, inputs: &[&str]) -> Option<&'static str> {
    let mut rest = unquoted(message);
    for input in inputs.iter().filter(|i| !i.trim().is_empty()) {
        rest = rest.replace(input.trim(), " ");
    }
    let words: Vec<&str> = rest
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    RUST_WORDS.iter().copied().find(|w| {
        if w.contains(' ') {
            rest.contains(w)
        } else {
            words.contains(w)
        }
    })
}

fn check_error(e: &scenario::ScenarioError, inputs: &[&str]) {
    assert!(!e.message.is_empty(), "an error says what is wrong: {e:?}");
    assert!(!e.message.contains('\n'), "one line: {e:?}");
    if let Some(w) = rust_word_in(&e.message, inputs) {
        panic!("'{w}' reached the user: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,400}") {
        if let Err(e) = scenario::parse(&text, &[]) {
            check_error(&e, &[&text]);
        }
    }

    #[test]
    fn mutated_presets_parse_or_name_the_field(
        preset in proptest::sample::select(presets::names().collect::<Vec<_>>()),
        edits in proptest::collection::vec((any::<proptest::sample::Index>(), 0usize..12, ".{0,8}"), 1..4),
    ) {
        let mut text = presets::text(preset).expect("preset").to_owned();
        for (at, cut, insert) in edits {
            let mut i = at.index(text.len() + 1);
            while !text.is_char_boundary(i) { i -= 1; }
            let mut j = (i + cut).min(text.len());
            while !text.is_char_boundary(j) { j -= 1; }
            text.replace_range(i..j, &insert);
        }
        match scenario::parse(&text, &[]) {
            Ok(s) if s.objects.count <= 2_000 => run_briefly(s),
            Ok(_) => {}
            Err(e) => check_error(&e, &[&text]),
        }
    }

    #[test]
    fn set_overrides_yield_a_scenario_or_name_their_field(
        preset in proptest::sample::select(presets::names().collect::<Vec<_>>()),
        sets in proptest::collection::vec((key(), value()), 1..4),
    ) {
        match presets::load(preset, &sets) {
            Ok(s) if s.objects.count <= 2_000 => run_briefly(s),
            Ok(_) => {}
            Err(e) => {
                let inputs: Vec<&str> = sets.iter().flat_map(|(k, v)| [k.as_str(), v.as_str()]).collect();
                check_error(&e, &inputs);
                // The error names one of the fields that were set (or the document).
                let named = e.field.is_empty()
                    || sets.iter().any(|(raw, _)| {
                        let k = raw.trim();
                        e.field == *raw ||
                        e.field == k || e.field.starts_with(k) || k.starts_with(&e.field)
                            || e.field.split('.').next() == k.split('.').next()
                    });
                prop_assert!(named, "{e} does not name any of {sets:?}");
            }
        }
    }
}

#[test]
fn a_queue_wait_below_a_millisecond_is_refused_by_name() {
    // Found by the swarm: `apiserver.queue_wait = "0s"` passed validation, then the API server
    // refused it under an internal name (apiserver.flow_control.queue_wait_ms).
    for v in ["\"0s\"", "\"500us\""] {
        let sets = [("apiserver.queue_wait".to_owned(), v.to_owned())];
        let e = presets::load("flywheel", &sets).expect_err(v);
        assert_eq!(e.field, "apiserver.queue_wait", "{e}");
    }
}

#[test]
fn every_validated_preset_variant_of_the_swarm_starts_a_run() {
    for seed in 0..300 {
        let s = flywheel_engine::swarm::scenario_for(seed);
        if let Err(e) = Run::new(s, &RunOptions::default()) {
            panic!("seed {seed}: validated scenario refused by the run: {e}");
        }
    }
}

/// Inputs the fuzzers (at volume) and users found, each with the exact message it must give.
const FOUND: &[(&str, &str, &str, &str)] = &[
    (
        "flywheel",
        "apiserver.etcd_writes_per_second",
        "1e-300",
        "apiserver.etcd_writes_per_second: must be 0 (unlimited) or a number from 0.001 to 10000000 (got 1e-300)",
    ),
    (
        "list-full-scan",
        "apiserver.etcd_writes_per_second",
        "0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000004661413098630603",
        "apiserver.etcd_writes_per_second: must be 0 (unlimited) or a number from 0.001 to 10000000 (got 0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000004661413098630603)",
    ),
    (
        "flywheel",
        "objects.size_bytes",
        "-1",
        "objects.size_bytes: must be a size such as 64Ki or 2Gi, from 256 to 16Mi (got -1)",
    ),
    (
        "flywheel",
        "process.memory_limit",
        "1e30",
        "process.memory_limit: must be a size such as 64Ki or 2Gi, from 16Mi to 1024Gi (got 1e30)",
    ),
    (
        "flywheel",
        "process.gogc",
        "-1",
        "process.gogc: must be a whole number from 0 to 10000 (got -1)",
    ),
    (
        "flywheel",
        "controller.workers",
        "1.5",
        "controller.workers: must be a whole number from 1 to 1000 (got 1.5)",
    ),
    (
        "flywheel",
        "apiserver.etcd_writes_per_second",
        "NaN",
        "apiserver.etcd_writes_per_second: must be 0 (unlimited) or a number from 0.001 to 10000000 (got NaN)",
    ),
    (
        "flywheel",
        "client.qps",
        "1e-300",
        "client.qps: must be a number from 0.001 to 1000000 (0: the default 5; negative turns the limiter off) (got 1e-300)",
    ),
];

/// Found by `tests/fuzz.sh` at 100000 cases: a name or a status field with a TOML `\n` escape
/// broke the message's line.
#[test]
fn a_line_break_in_a_name_or_a_status_field_is_shown_escaped_on_one_line() {
    let text = "name = \"a\\nb\"\ntitle = \"T\"\n[reconcile]\nsteps = [\"get\"]\n";
    let e = scenario::parse(text, &[]).expect_err("bad name");
    assert_eq!(
        e.to_string(),
        "name: must be letters, digits, '-', '_' or '+' (got 'a\\nb')"
    );
    let text = "name = \"a\"\ntitle = \"T\"\n[reconcile]\nsteps = [{ set_status = { field = \"x\\ny\", value = \"now\" } }]\n";
    let e = scenario::parse(text, &[]).expect_err("bad status field");
    assert_eq!(
        e.to_string(),
        "reconcile.steps[0].set_status.field: must be a field name of letters and digits (got 'x\\ny')"
    );
}

#[test]
fn every_found_input_gives_its_exact_message_in_the_users_words() {
    for (preset, key, value, message) in FOUND {
        let sets = [((*key).to_owned(), (*value).to_owned())];
        let e = presets::load(preset, &sets).expect_err(value);
        assert_eq!(e.to_string(), *message, "--set {key}={value}");
        assert_eq!(rust_word_in(&e.message, &[]), None, "{e}");
    }
}

#[test]
fn turning_gc_off_in_a_preset_that_logs_whole_objects_runs_until_its_event_budget() {
    // Found by the fuzzer at volume: the run stops early after events split into parts, so a
    // fixed number of `advance` calls did not reach the budget; the run itself is sound.
    let sets = [("process.gogc".to_owned(), "0".to_owned())];
    let s = presets::load("log-whole-object", &sets).expect("GOGC=off is valid");
    run_briefly(s);
}

#[test]
fn the_slowest_accepted_rates_run_to_the_end() {
    for (key, value) in [
        ("apiserver.etcd_writes_per_second", "0.001"),
        ("client.qps", "0.001"),
    ] {
        let sets = [(key.to_owned(), value.to_owned())];
        let s = presets::load("flywheel", &sets).expect(key);
        run_briefly(s);
    }
}
