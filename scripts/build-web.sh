#!/usr/bin/env bash
# Builds the editor as a static web page: scripts/build-web.sh [OUT] (default target/web).
# OUT then holds index.html, texgraph_web.js and texgraph_web_bg.wasm; any static server
# serves it (see README, "In the browser").
#
# It installs what it needs: the wasm32-unknown-unknown target (rustup), and
# wasm-bindgen-cli at the version Cargo.lock pins for the wasm-bindgen crate (the two
# must match), under target/tools. wasm-bindgen-cli rather than trunk: the page is one
# HTML file, and wasm-bindgen is the one tool trunk would run for it.
#
# The kernels build with WebAssembly's 128-bit SIMD: the portable (baseline) code,
# vectorized, so a render has the bits of the CLI's.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/web}

if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi

version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
bindgen=target/tools/bin/wasm-bindgen
if ! "$bindgen" --version 2>/dev/null | grep -qx "wasm-bindgen $version"; then
    echo "installing wasm-bindgen-cli $version"
    installing=$SECONDS
    cargo install --quiet --root target/tools wasm-bindgen-cli --version "$version"
    echo "installed wasm-bindgen-cli in $((SECONDS - installing)) s"
fi

export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128"
cargo build -p texgraph-web --target wasm32-unknown-unknown --profile web
mkdir -p "$out"
"$bindgen" --target web --no-typescript --out-dir "$out" \
    target/wasm32-unknown-unknown/web/texgraph_web.wasm
cp web/index.html "$out/"

wasm=$out/texgraph_web_bg.wasm
printf 'web page in %s: %s KiB of WebAssembly, %s KiB gzipped\n' "$out" \
    $(( $(wc -c <"$wasm") / 1024 )) $(( $(gzip -9 -c "$wasm" | wc -c) / 1024 ))
