#!/usr/bin/env bash
# Builds the playground into dist/: the web crate for wasm32 (profile wasm-release), its JS glue
# with wasm-bindgen, wasm-opt -Oz from npm's binaryen (to a fixed point; told that pointer
# arithmetic never wraps into the low 1 KiB and that memory starts zeroed, which holds: the module
# defines its own memory), then index.html, the static assets and the per-language text files.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

ensure_wasm_toolchain

say "building flywheel-web for wasm32 (profile wasm-release)"
cargo build -p flywheel-web --target wasm32-unknown-unknown --profile wasm-release

out="$ROOT/dist"
target_dir=${CARGO_TARGET_DIR:-$ROOT/target}
stage="$target_dir/dist.staging"
rm -rf "$stage"
mkdir -p "$stage/pkg" "$stage/www"
wasm-bindgen --target web --no-typescript --out-dir "$stage/pkg" \
  "$target_dir/wasm32-unknown-unknown/wasm-release/flywheel_web.wasm"

say "optimizing the wasm (wasm-opt -Oz)"
wasm_opt_in_place "$stage/pkg/flywheel_web_bg.wasm"

cp "$ROOT/index.html" "$stage/"
# the example documentation page with two embeds, beside the page it embeds
cp "$ROOT/www/docs-example.html" "$stage/"
find "$ROOT/www" -maxdepth 1 -type f \( -name '*.css' -o -name '*.js' -o -name '*.svg' -o -name '*.png' \) \
  -exec cp {} "$stage/www/" \;
# the page's texts (labels, myth cards, narrations), a file per kind and language, fetched by the
# page when it first needs them
cp -r "$ROOT/www/text" "$stage/www/text"
rm -rf "$out"
mv "$stage" "$out"

wasm="$out/pkg/flywheel_web_bg.wasm"
say "dist/ ready: wasm $(wc -c <"$wasm") bytes raw, $(gzip -9 -c "$wasm" | wc -c) bytes gzipped"
