#!/usr/bin/env bash
# Builds the playground and serves it on http://127.0.0.1:8080 (see --help).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/tools/lib.sh"

port=8080
host=127.0.0.1
while [ $# -gt 0 ]; do
  case "$1" in
    --port) [ $# -ge 2 ] || die "--port needs a number from 1 to 65535"; port=$2; shift 2 ;;
    --port=*) port=${1#--port=}; shift ;;
    --host) [ $# -ge 2 ] || die "--host needs an address, e.g. 127.0.0.1"; host=$2; shift 2 ;;
    --host=*) host=${1#--host=}; shift ;;
    -h|--help) echo "usage: www/serve.sh [--port N (default 8080)] [--host ADDRESS (default 127.0.0.1)]"; exit 0 ;;
    *) die "unknown option '$1' (allowed: --port N, --host ADDRESS, --help)" ;;
  esac
done
case "$port" in ''|*[!0-9]*) die "--port must be a number from 1 to 65535 (got '$port')" ;; esac
[ "$port" -ge 1 ] && [ "$port" -le 65535 ] || die "--port must be a number from 1 to 65535 (got '$port')"

ensure_node
# Fail fast on a busy port, before a long build.
node "$ROOT/www/tools/serve.mjs" --check --port "$port" --host "$host"
bash "$ROOT/www/tools/build.sh"
exec node "$ROOT/www/tools/serve.mjs" --root "$ROOT/dist" --port "$port" --host "$host"
