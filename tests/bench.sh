#!/usr/bin/env bash
# Flywheel's benchmarks (not part of the test command's pass/fail): the engine against a bare
# event loop, WebAssembly against native on the same build, the page's speed, frame times, size
# and start-up. Prints one table and writes tests/artifacts/bench.json. See BENCHMARKS.md.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../www/tools/lib.sh"
cd "$ROOT"

ensure_chromium
ensure_node_modules "$ROOT/tests"
say "building the CLI (release) and the page"
cargo build --release -p flywheel-cli
bash "$ROOT/www/tools/build.sh"
mkdir -p "$ROOT/tests/artifacts"
say "native figures (flywheel bench)"
"${CARGO_TARGET_DIR:-$ROOT/target}/release/flywheel" bench --format json > "$ROOT/tests/artifacts/bench-native.json"
say "browser figures (headless Chromium)"
FLYWHEEL_BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/flywheel" node "$ROOT/tests/bench/page.mjs"
