#!/usr/bin/env bash
# Runs every fuzzer at volume (outside CI, which keeps its quick counts): scenario text, mutated
# presets, `--set` overrides, a setting's value text, CLI command lines, the page's URL state and
# settings files, and the messages between the page and its engine's Worker.
#   bash tests/fuzz.sh [CASES]     CASES per fuzzer, default 100000
# Prints the cases run, the time and the failures. A failing input is printed by proptest as its
# "minimal failing input": add it to the fuzzer's file as a regression test with its exact message
# (crates/engine/tests/integration/fuzz_scenario.rs keeps them in FOUND).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../www/tools/lib.sh"
cd "$ROOT"
ensure_rust

CASES=${1:-100000}
[[ "$CASES" =~ ^[1-9][0-9]*$ ]] || die "CASES must be a whole number of at least 1 (got '$CASES')"
export FLYWHEEL_FUZZ_CASES=$CASES

# crate|test target ('' for the crate's binaries' unit tests, 'lib' for its library's)|test name
TARGETS=(
  "flywheel-engine|lib|settings::raw::tests::any_text_of_json_pieces_is_read_as_serde_json_read_it"
  "flywheel-engine|integration|fuzz_scenario::arbitrary_text_never_panics"
  "flywheel-engine|integration|fuzz_scenario::mutated_presets_parse_or_name_the_field"
  "flywheel-engine|integration|fuzz_scenario::set_overrides_yield_a_scenario_or_name_their_field"
  "flywheel-cli||args::tests::fuzz::any_command_line_parses_or_names_the_problem"
  "flywheel-web|url_state_fuzz|any_query_yields_a_valid_state_that_round_trips"
  "flywheel-web|url_state_fuzz|any_settings_file_reads_back_or_names_the_problem"
  "flywheel-web|wire_fuzz|any_bytes_are_read_as_a_message_or_refused"
  "flywheel-web|wire_fuzz|a_damaged_message_is_read_as_a_message_or_refused"
)

say "building the fuzzers (release)"
cargo test --release -p flywheel-engine --test integration --lib --no-run -q || die "build failed"
cargo test --release -p flywheel-cli --bins --no-run -q || die "build failed"
cargo test --release -p flywheel-web --test url_state_fuzz --test wire_fuzz --no-run -q || die "build failed"

failures=0
start=$(date +%s)
for t in "${TARGETS[@]}"; do
  IFS='|' read -r crate target name <<<"$t"
  case "$target" in
    '') sel=(--bins) ;;
    lib) sel=(--lib) ;;
    *) sel=(--test "$target") ;;
  esac
  t0=$(date +%s)
  log=$(mktemp)
  if cargo test --release -q -p "$crate" "${sel[@]}" -- --exact "$name" >"$log" 2>&1 \
     && grep -q "1 passed" "$log"; then
    printf '%-60s %8s cases  ok      %5ss\n' "$name" "$CASES" "$(( $(date +%s) - t0 ))"
  else
    failures=$((failures + 1))
    printf '%-60s %8s cases  FAILED  %5ss\n' "$name" "$CASES" "$(( $(date +%s) - t0 ))"
    grep -a -E "Test failed|minimal failing input" -A12 "$log" | head -30
  fi
  rm -f "$log"
done
total=$(( $(date +%s) - start ))
echo "fuzzers: ${#TARGETS[@]}, cases each: $CASES, failures: $failures, time: ${total}s," \
  "machine: $(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
[ "$failures" = 0 ]
