//! The trace hash of every preset for 100 seeds, checked against a committed table. The web
//! crate's browser test (`crates/web/tests/browser.rs`) recomputes the same table in WebAssembly
//! in Chromium, so native and WASM runs are proven identical.
//!
//! After an intended change of the engine's behaviour, rewrite the table with
//! `FLYWHEEL_BLESS=1 cargo test -p flywheel-engine --test integration determinism_table`.

use flywheel_engine::swarm;

const TABLE: &str = include_str!("../data/trace_hashes.txt");

#[test]
fn every_preset_hashes_as_in_the_committed_table() {
    let table = swarm::determinism_table().expect("every preset runs");
    if std::env::var_os("FLYWHEEL_BLESS").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/trace_hashes.txt");
        std::fs::write(path, &table).expect("write the table");
        return;
    }
    let expected: Vec<&str> = TABLE.lines().collect();
    let got: Vec<&str> = table.lines().collect();
    assert_eq!(
        expected.len(),
        got.len(),
        "rows (bless with FLYWHEEL_BLESS=1)"
    );
    let differing: Vec<String> = expected
        .iter()
        .zip(&got)
        .filter(|(e, g)| e != g)
        .take(5)
        .map(|(e, g)| format!("expected {e}, got {g}"))
        .collect();
    assert!(
        differing.is_empty(),
        "trace hashes changed (bless with FLYWHEEL_BLESS=1 if intended):\n{}",
        differing.join("\n")
    );
    assert!(
        got.iter()
            .all(|l| l.split(' ').nth(3).is_some_and(|e| e != "0")),
        "every run handled events"
    );
}
