# Flywheel's everyday commands: each recipe is a step of CI (`.ci/steps.sh`), so `just ci` runs
# locally what CI runs. `just` is optional: `bash .ci/steps.sh STEP...` does the same.

# Lists the recipes.
default:
    @just --list

# Everything CI runs, in CI's order (`.ci/run`).
ci:
    bash .ci/run

# Checks the formatting (`cargo fmt --all --check`).
fmt:
    bash .ci/steps.sh fmt

# Clippy on every crate and target, native, warnings denied.
clippy:
    bash .ci/steps.sh clippy

# Clippy on the engine and the page for wasm32, warnings denied.
clippy-wasm:
    bash .ci/steps.sh clippy-wasm

# The cargo tests of every crate (native).
test:
    bash .ci/steps.sh test

# The page's component tests in headless Chromium.
test-browser:
    bash .ci/steps.sh test-browser

# Builds the page into `dist/`.
page:
    bash .ci/steps.sh page

# The end-to-end tests of the built page (builds it first).
e2e: page
    bash .ci/steps.sh e2e

# Every test: what `tests/run.sh` runs.
all-tests:
    bash tests/run.sh

# Formats the code (the one recipe CI does not run: CI only checks).
format:
    cargo fmt --all

# The engine's integration tests whose names contain FILTER (one binary: `tests/integration`).
engine-test FILTER="":
    CARGO_INCREMENTAL=0 cargo test -p flywheel-engine --test integration {{FILTER}}
