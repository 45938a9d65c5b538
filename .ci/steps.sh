#!/usr/bin/env bash
# The steps of CI, one function each; `.ci/run`, `tests/run.sh` and the justfile all call them, so
# a newcomer runs locally exactly what CI runs. Each step installs what it needs first.
#
#   bash .ci/steps.sh STEP...      STEP: fmt clippy clippy-wasm test test-browser page e2e
#
#   fmt ─► clippy ─► clippy-wasm ─► test ─► test-browser ─► page ─► e2e
#   └──────── .ci/run: all of them ────────────────────────────────────┘
#                                   └────────── tests/run.sh ──────────┘
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../www/tools/lib.sh"
cd "$ROOT"

# A CI machine builds once from cold: incremental caches would only take disk.
if [ -n "${CI:-}" ]; then export CARGO_INCREMENTAL=0; fi

# Says how much disk is left where the build writes, so a step that runs out of it is recognised.
report_disk() {
  local target_dir=${CARGO_TARGET_DIR:-$ROOT/target}
  mkdir -p "$target_dir"
  say "disk: $(df -h --output=avail "$target_dir" | tail -1 | tr -d ' ') free; target/ $(du -sh "$target_dir" 2>/dev/null | cut -f1)"
}

step_fmt() {
  ensure_rust
  rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
  say "cargo fmt --check"
  cargo fmt --all --check
}

step_clippy() {
  ensure_rust
  rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
  say "clippy (native)"
  cargo clippy --workspace --all-targets -- -D warnings
}

step_clippy_wasm() {
  ensure_wasm_target
  rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
  say "clippy (wasm32)"
  cargo clippy -p flywheel-engine --target wasm32-unknown-unknown --lib -- -D warnings
  cargo clippy -p flywheel-web --target wasm32-unknown-unknown --all-targets -- -D warnings
}

step_test() {
  ensure_rust
  say "cargo tests (native, every crate)"
  cargo test --workspace --all-targets
  # On CI the native build is not needed again (the later steps build wasm32): free its disk.
  if [ -n "${CI:-}" ]; then
    say "CI: removing the native test build (target/debug) before the wasm32 steps"
    rm -rf "${CARGO_TARGET_DIR:-$ROOT/target}/debug"
  fi
}

step_test_browser() {
  ensure_wasm_target
  ensure_wasm_bindgen
  ensure_chromium
  say "web component tests in headless Chromium (wasm-bindgen-test)"
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  CHROMEDRIVER=/usr/bin/chromedriver \
  WASM_BINDGEN_TEST_TIMEOUT=120 \
    cargo test -p flywheel-web --target wasm32-unknown-unknown --test browser
  if [ -n "${CI:-}" ]; then
    say "CI: removing the wasm32 test build before the page's release build"
    rm -rf "${CARGO_TARGET_DIR:-$ROOT/target}/wasm32-unknown-unknown/debug"
  fi
}

step_page() {
  say "building the page"
  bash "$ROOT/www/tools/build.sh"
}

step_e2e() {
  ensure_chromium
  ensure_node_modules "$ROOT/tests"
  [ -f "$ROOT/dist/index.html" ] || die "no dist/index.html: build the page first (step 'page')"
  say "end-to-end tests (node --test, playwright-core, Chromium)"
  (cd "$ROOT/tests" && node --test --test-concurrency=1 e2e/)
}

STEPS="fmt clippy clippy-wasm test test-browser page e2e"
[ "$#" -gt 0 ] || die "name at least one step: $STEPS"
for step in "$@"; do
  case " $STEPS " in
    *" $step "*) report_disk; "step_${step//-/_}" ;;
    *) die "unknown step '$step'; the steps are: $STEPS" ;;
  esac
done
