#!/usr/bin/env bash
# Runs every test of Flywheel: the cargo tests of every crate (native), the web crate's component
# tests in headless Chromium (wasm-bindgen-test), then the end-to-end tests of the built page
# (node --test + playwright-core driving Debian's Chromium). Installs what is missing first.
# The steps live in `.ci/steps.sh` (`just test`, `just test-browser`, `just page`, `just e2e`).
set -euo pipefail
exec bash "$(dirname "${BASH_SOURCE[0]}")/../.ci/steps.sh" test test-browser page e2e
