#!/usr/bin/env bash
# Validates .gltf files with the Khronos glTF validator (the npm package
# gltf-validator, pinned below), reading each file's buffers and images relative to it.
# Prints each report's counts and messages; exits 1 when any file has an error or a
# warning (infos and hints are printed but accepted), 2 on bad usage.
#
#   scripts/validate-gltf.sh material.gltf [more.gltf ...]
#
# Needs node and npm. The validator is installed on first use into
# target/gltf-validator-<version> (or $TEXGRAPH_GLTF_VALIDATOR_DIR). scripts/test-gltf.sh,
# part of the README's test command, runs it on the example graphs' exports.
#
# The exporter's tests write sample documents for it when asked:
#   TEXGRAPH_GLTF_SAMPLES=/tmp/gltf cargo test -p texgraph-core --test core gltf::
#   scripts/validate-gltf.sh /tmp/gltf/*/*.gltf
set -euo pipefail

version=2.0.0-dev.3.10
here=$(cd "$(dirname "$0")" && pwd)

if [ "$#" -eq 0 ]; then
    echo "usage: $0 FILE.gltf [FILE.gltf ...]" >&2
    exit 2
fi
command -v node >/dev/null || { echo "error: node not found" >&2; exit 2; }

cache="${TEXGRAPH_GLTF_VALIDATOR_DIR:-$(dirname "$here")/target/gltf-validator-$version}"
if [ ! -f "$cache/node_modules/gltf-validator/package.json" ]; then
    command -v npm >/dev/null || { echo "error: npm not found" >&2; exit 2; }
    echo "installing gltf-validator@$version into $cache" >&2
    mkdir -p "$cache"
    npm install --prefix "$cache" --no-save --no-audit --no-fund --loglevel=error \
        "gltf-validator@$version" >&2
fi

NODE_PATH="$cache/node_modules" node "$here/validate-gltf.cjs" "$@"
