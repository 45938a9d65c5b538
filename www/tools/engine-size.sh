#!/usr/bin/env bash
# Measures the engine alone as the page would ship it: a module that exports nothing but a
# headless run of a preset (`Run::new`, `advance`, `report`), built with the page's profile and
# wasm-opt flags and the page's engine features (no `toml`: the presets built as values), without
# Yew or any of the page. It says how much of `dist/`'s module is the engine's and how much the
# page's (BENCHMARKS.md, "Wasm size"). Not part of the build or the tests; takes about five
# minutes.
#
#   bash www/tools/engine-size.sh                          the size
#   bash www/tools/engine-size.sh --time [PRESET [SECONDS [ROUNDS]]]
#       the same module built for Node (V8, Chromium's WebAssembly engine) and timed: ROUNDS runs
#       of PRESET for SECONDS of simulated time in one module (default seed-000-incident, 60, 3),
#       each run's wall time and trace hash; the first run also pays for V8's compiling and for
#       the heap's growing, which the page pays once per page load (BENCHMARKS.md, "The engine's
#       cost per event", tenth round). Compare two builds by running it on each checkout.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

ensure_wasm_toolchain

target_dir=${CARGO_TARGET_DIR:-$ROOT/target}
crate="$target_dir/engine-size"
rm -rf "$crate"
mkdir -p "$crate/src" "$crate/pkg" "$crate/.cargo"
cp "$ROOT/Cargo.lock" "$crate/"
# the page's target features (SIMD), wherever the target directory is
cp "$ROOT/.cargo/config.toml" "$crate/.cargo/"
profiles=$(awk '/^\[profile\.wasm-release/ { on = 1 } /^\[/ && !/^\[profile\.wasm-release/ { on = 0 } on' "$ROOT/Cargo.toml")
cat >"$crate/Cargo.toml" <<EOF
[package]
name = "engine-size"
version = "0.0.0"
edition = "2021"
publish = false

[lib]
crate-type = ["cdylib"]

[dependencies]
flywheel-engine = { path = "$ROOT/crates/engine", default-features = false }
wasm-bindgen = "=$(wasm_bindgen_version)"

$profiles

[workspace]
EOF
cat >"$crate/src/lib.rs" <<'EOF'
//! The engine alone: a headless run of a preset, as `flywheel-web`'s `bench_run`.
use flywheel_engine::cluster::run::{Run, RunOptions};
use wasm_bindgen::prelude::*;

/// Runs `preset` for `seconds` of simulated time; returns its events and trace hash length.
#[wasm_bindgen]
pub fn run(preset: &str, seconds: f64) -> Vec<f64> {
    let Ok(scenario) = flywheel_engine::scenario::presets::load(preset, &[]) else {
        return Vec::new();
    };
    let options = RunOptions {
        duration: Some(std::time::Duration::from_secs_f64(seconds.clamp(0.001, 86_400.0))),
        ..RunOptions::default()
    };
    let Ok(mut run) = Run::new(scenario, &options) else {
        return Vec::new();
    };
    while !run.advance(1_000_000) {}
    let report = run.report();
    let hash = u64::from_str_radix(&report.trace_hash, 16).unwrap_or(0);
    vec![report.events as f64, (hash >> 32) as f64, (hash & 0xffff_ffff) as f64]
}
EOF

bindgen_target=web
if [ "${1:-}" = "--time" ]; then
  bindgen_target=nodejs
fi
say "building the engine alone for wasm32 (profile wasm-release)"
(cd "$crate" && CARGO_TARGET_DIR="$target_dir" cargo build --target wasm32-unknown-unknown --profile wasm-release)
wasm-bindgen --target "$bindgen_target" --no-typescript --out-dir "$crate/pkg" \
  "$target_dir/wasm32-unknown-unknown/wasm-release/engine_size.wasm"
wasm="$crate/pkg/engine_size_bg.wasm"
wasm_opt_in_place "$wasm"
say "the engine alone: wasm $(wc -c <"$wasm") bytes raw, $(gzip -9 -c "$wasm" | wc -c) bytes gzipped"

if [ "$bindgen_target" = nodejs ]; then
  preset=${2:-seed-000-incident} seconds=${3:-60} rounds=${4:-3}
  say "timing $preset for ${seconds} s of simulated time, $rounds runs in one module (Node $(node --version))"
  node -e '
    const [pkg, preset, seconds, rounds] = process.argv.slice(1);
    const engine = require(pkg);
    for (let i = 0; i < Number(rounds); i++) {
      const start = performance.now();
      const [events, high, low] = engine.run(preset, Number(seconds));
      const wall = (performance.now() - start) / 1000;
      const hash = high.toString(16).padStart(8, "0") + low.toString(16).padStart(8, "0");
      console.log(`run ${i + 1}: ${wall.toFixed(3)} s, ${events} events, trace hash ${hash}`);
    }' "$crate/pkg/engine_size.js" "$preset" "$seconds" "$rounds"
fi
