# Shared steps of the build, serve and test scripts. Each `ensure_*` installs what is missing and
# skips what is present, so a second run is fast. Source this file; do not run it.

ROOT=${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Runs an apt-get install of the named packages, as root or through sudo; otherwise names the command.
apt_install() {
  local cmd="apt-get update && apt-get install -y $*"
  if [ "$(id -u)" = 0 ]; then
    say "installing $* (apt-get)"
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null \
      || die "'$cmd' failed"
  elif command -v sudo >/dev/null 2>&1; then
    say "installing $* (sudo apt-get)"
    sudo sh -c "$cmd" || die "'sudo sh -c \"$cmd\"' failed"
  else
    die "missing $*; install with: sudo sh -c '$cmd'"
  fi
}

ensure_rust() {
  command -v cargo >/dev/null 2>&1 || die "cargo is missing; install Rust with rustup (https://rustup.rs), then rerun"
}

ensure_wasm_target() {
  ensure_rust
  if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown || die "'rustup target add wasm32-unknown-unknown' failed"
  fi
}

# The wasm-bindgen version pinned in Cargo.lock; the CLI must match it exactly.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' "$ROOT/Cargo.lock"
}

ensure_wasm_bindgen() {
  ensure_rust
  local want have
  want=$(wasm_bindgen_version)
  [ -n "$want" ] || die "no wasm-bindgen entry in Cargo.lock"
  # `|| true`: on a fresh machine the CLI is absent, and under `set -o pipefail` its exit
  # status 127 would otherwise end the script here.
  have=$( (wasm-bindgen --version 2>/dev/null || true) | awk '{print $2}')
  if [ "$have" != "$want" ]; then
    say "installing wasm-bindgen-cli $want (found: ${have:-none}; a cold install takes about 4 minutes)"
    # --locked is not used: the registry lacks a crate that the CLI's own lock file pins.
    cargo install wasm-bindgen-cli --version "$want" --force \
      || die "'cargo install wasm-bindgen-cli --version $want' failed"
  fi
}

ensure_node() {
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    apt_install nodejs npm
  fi
  local major
  major=$(node -p 'process.versions.node.split(".")[0]')
  [ "$major" -ge 18 ] || die "node $major is too old (need 18 or newer)"
}

# npm ci in DIR when its node_modules is missing or older than its package-lock.json.
ensure_node_modules() {
  local dir=$1
  ensure_node
  if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    say "npm ci in ${dir#"$ROOT"/}"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) || die "'npm ci' in $dir failed"
  fi
}

ensure_chromium() {
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    apt_install chromium chromium-driver
  fi
  # the page's 简体中文 asks for Noto Sans CJK SC; without a CJK font the screenshots show boxes
  if ! fc-list :lang=zh 2>/dev/null | grep -q .; then
    apt_install fontconfig fonts-noto-cjk
  fi
}

# Everything a wasm build of the page needs: the target, the wasm-bindgen CLI, and binaryen's
# wasm-opt from www/tools' npm packages.
ensure_wasm_toolchain() {
  ensure_wasm_target
  ensure_wasm_bindgen
  ensure_node_modules "$ROOT/www/tools"
}

# wasm-opt -Oz on the wasm-bindgen output FILE, in place: to a fixed point, told that pointer
# arithmetic never wraps into the low 1 KiB and that memory starts zeroed, which holds (the module
# defines its own memory). The features are those the module is compiled with (SIMD by
# .cargo/config.toml).
wasm_opt_in_place() {
  "$ROOT/www/tools/node_modules/.bin/wasm-opt" -Oz --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue --enable-simd \
    --converge --low-memory-unused --zero-filled-memory "$1" -o "$1"
}
