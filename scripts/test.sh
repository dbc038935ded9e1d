#!/usr/bin/env bash
# The whole test suite, as the README gives it and CI runs it: the workspace's Rust tests,
# then the Python module's (scripts/test-python.sh), then the example materials' glTF
# exports through the Khronos validator (scripts/test-gltf.sh), then the Blender add-on in
# Blender (scripts/test-blender.sh), then the web page in Chromium (scripts/test-web.sh). It installs what the tests need where it is missing
# and prints how long each part took.
#
# Speed on a small machine: where Debian's `mold` linker can be had it links the test
# binaries (linking is a large share of a cold build), and incremental compilation, which
# only pays on the second build of a crate, is off under CI. Both set flags for this
# script's builds alone, so a plain `cargo build` keeps its own artefacts.
set -euo pipefail
cd "$(dirname "$0")/.."

parts=()
report() {
    local status=$?
    echo
    echo "test times (s):"
    printf '  %s\n' "${parts[@]}"
    exit "$status"
}
trap report EXIT

# part NAME COMMAND...: runs COMMAND and records its time under NAME.
part() {
    local name=$1 start=$SECONDS
    shift
    "$@"
    parts+=("$(printf '%-14s %5d' "$name" $((SECONDS - start)))")
}

install_mold() {
    if command -v mold >/dev/null; then
        return
    fi
    if ! command -v apt-get >/dev/null; then
        echo "mold not found and no apt-get: linking with the default linker"
        return
    fi
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        sudo="sudo"
    fi
    # Quietly, and never fatal: the tests pass with the default linker too, only slower.
    { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends mold; } \
        >/dev/null 2>&1 || echo "mold could not be installed: linking with the default linker"
}

use_mold() {
    if command -v mold >/dev/null && [ "$(uname -s)" = Linux ]; then
        local triple
        triple=$(rustc -vV | sed -n 's/^host: //p')
        triple=${triple^^}
        export "CARGO_TARGET_${triple//-/_}_RUSTFLAGS=-C link-arg=-fuse-ld=mold"
    fi
}

part setup install_mold
use_mold
if [ -n "${CI:-}" ]; then
    export CARGO_INCREMENTAL=0
fi
part "rust build" cargo test --workspace --no-run
part "rust tests" cargo test --workspace
part python scripts/test-python.sh
part gltf scripts/test-gltf.sh
part blender scripts/test-blender.sh
part web scripts/test-web.sh
