#!/usr/bin/env bash
# Runs every test of Flywheel: the cargo tests of every crate (native), the web crate's component
# tests in headless Chromium (wasm-bindgen-test), then the end-to-end tests of the built page
# (node --test + playwright-core driving Debian's Chromium). Installs what is missing first.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../www/tools/lib.sh"
cd "$ROOT"

ensure_wasm_target
ensure_wasm_bindgen
ensure_chromium
ensure_node_modules "$ROOT/tests"

say "cargo tests (native, every crate)"
cargo test --workspace --all-targets

say "web component tests in headless Chromium (wasm-bindgen-test)"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
CHROMEDRIVER=/usr/bin/chromedriver \
WASM_BINDGEN_TEST_TIMEOUT=120 \
  cargo test -p flywheel-web --target wasm32-unknown-unknown --test browser

say "building the page"
bash "$ROOT/www/tools/build.sh"

say "end-to-end tests (node --test, playwright-core, Chromium)"
cd "$ROOT/tests"
node --test --test-concurrency=1 e2e/
