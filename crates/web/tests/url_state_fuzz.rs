//! Fuzzing the page's URL-state parser natively with proptest: any query string — hand-edited,
//! truncated, percent-mangled — yields a state (bad parameters fall back and are named), the
//! state's URL reads back to the same state, and the scenario it describes is valid.
#![cfg(not(target_arch = "wasm32"))]

use flywheel_engine::settings::SETTINGS;
use flywheel_web::config::UrlState;
use flywheel_web::i18n::Lang;
use flywheel_web::params::LOGIC_KEY;
use flywheel_web::persist;
use proptest::prelude::*;

const KEYS: &[&str] = &[
    "preset",
    "v",
    "b",
    "profile",
    "seed",
    "speed",
    "lang",
    "theme",
    "embed",
    "autoplay",
    "tab",
    "objects",
    "logic",
    "workers",
    "zzz",
    "",
    "%",
    "%zz",
    "preset%3D",
];

const VALUES: &[&str] = &[
    "flywheel",
    "fixed",
    "subresource+predicate",
    "subresource%2Bpredicate",
    "sub.status-patch",
    "sub.pred.guard.ts",
    "modern",
    "seed",
    "0",
    "1",
    "-1",
    "1e308",
    "NaN",
    "inf",
    "-0",
    "0.1",
    "10000",
    "10000.0001",
    "18446744073709551615",
    "18446744073709551616",
    "zh",
    "en",
    "dark",
    "myths",
    "code",
    "",
    "%",
    "%E4%B8%AD",
    "%FF%FE",
    "a=b=c",
    "true",
    "2",
];

fn pair() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        4 => proptest::sample::select(KEYS).prop_map(str::to_owned),
        1 => proptest::sample::select(
            SETTINGS.iter().map(|s| s.path).chain([LOGIC_KEY]).collect::<Vec<_>>()
        )
        .prop_map(str::to_owned),
        1 => "[a-z%0-9]{0,6}",
    ];
    let value = prop_oneof![
        4 => proptest::sample::select(VALUES).prop_map(str::to_owned),
        1 => any::<f64>().prop_map(|v| v.to_string()),
        1 => ".{0,10}",
    ];
    (key, value, any::<bool>()).prop_map(|(k, v, eq)| if eq { format!("{k}={v}") } else { k })
}

fn query() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (any::<bool>(), proptest::collection::vec(pair(), 0..8))
            .prop_map(|(q, ps)| format!("{}{}", if q { "?" } else { "" }, ps.join("&"))),
        1 => ".{0,80}",
    ]
}

/// Cases per fuzzer: `FLYWHEEL_FUZZ_CASES` (set by `tests/fuzz.sh`), else CI's quick 1500.
fn cases() -> u32 {
    std::env::var("FLYWHEEL_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1500)
}

/// A settings file: the exported form of a fuzzed state, cut and spliced, or any text.
fn settings_file() -> impl Strategy<Value = String> {
    let exported = (
        query(),
        any::<proptest::sample::Index>(),
        0usize..8,
        ".{0,6}",
    )
        .prop_map(|(q, at, cut, insert)| {
            let (st, _) = UrlState::from_query(&q);
            let mut text = persist::encode(&st);
            let mut i = at.index(text.len() + 1);
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            let mut j = (i + cut).min(text.len());
            while !text.is_char_boundary(j) {
                j -= 1;
            }
            text.replace_range(i..j, &insert);
            text
        });
    prop_oneof![
        3 => exported,
        1 => query().prop_map(|q| format!("{}\n{q}\n", persist::FORMAT)),
        1 => ".{0,120}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn any_query_yields_a_valid_state_that_round_trips(q in query()) {
        let (st, ignored) = UrlState::from_query(&q);
        for i in &ignored {
            prop_assert!(!i.reason.to_string().is_empty(), "{i:?}");
        }
        // What the page keeps is valid: its scenario builds.
        if let Err(e) = st.config.scenario() {
            prop_assert!(false, "{q:?} gave an invalid scenario: {e}");
        }
        // Its URL reads back to the same state with nothing ignored.
        let (back, again) = UrlState::from_query(&st.to_query());
        prop_assert!(again.is_empty(), "{q:?} -> {} -> {again:?}", st.to_query());
        prop_assert_eq!(back, st);
    }

    /// A settings import (file or stored value) reads back to a valid state or gives one line
    /// that says what is wrong — never a panic.
    #[test]
    fn any_settings_file_reads_back_or_names_the_problem(text in settings_file()) {
        match persist::decode(&text) {
            Ok(st) => {
                if let Err(e) = st.config.scenario() {
                    prop_assert!(false, "{text:?} gave an invalid scenario: {e}");
                }
                let again = persist::decode(&persist::encode(&st));
                prop_assert_eq!(again, Ok(st));
            }
            Err(e) => {
                for lang in [Lang::En, Lang::Zh] {
                    let message = e.text(lang);
                    prop_assert!(!message.is_empty());
                    prop_assert!(!message.contains('\n'), "{message}");
                }
            }
        }
    }
}

/// Found by `tests/fuzz.sh` at 100000 cases: a speed with more digits than the URL writes read
/// back as a different state.
#[test]
fn a_speed_with_many_digits_reads_back_as_the_same_state() {
    let (st, ignored) = UrlState::from_query("speed=1.3663744226760304");
    assert!(ignored.is_empty(), "{ignored:?}");
    assert_eq!(st.speed, 1.366);
    assert_eq!(UrlState::from_query(&st.to_query()).0, st);
}
