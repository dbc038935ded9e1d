#!/usr/bin/env bash
# The Blender add-on (blender/texgraph_blender) in Blender itself, headless: builds its
# zip (scripts/build-blender-addon.sh), then runs blender/tests/test_addon.py in
# `blender -b --factory-startup` with the CLI the workspace's tests build. Installs
# Debian's blender where it is missing (apt-get, as root or through sudo). Blender's
# settings and the installed add-on go to a folder under target/, never to ~.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v blender >/dev/null; then
    if ! command -v apt-get >/dev/null; then
        echo "error: blender is not installed and there is no apt-get to install it" >&2
        exit 1
    fi
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        sudo="sudo"
    fi
    echo "installing Debian's blender"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        blender python3-numpy >/dev/null
fi
# The CLI as the workspace's tests build it (nothing to do after them).
cargo test --workspace --no-run --quiet
scripts/build-blender-addon.sh target/blender >/dev/null
work=$PWD/target/blender/test
rm -rf "$work"
mkdir -p "$work/config" "$work/scripts"
# Blender finds its Python through PATH: keep pyenv's shims out of it.
path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v pyenv | paste -sd: -)
PATH=$path BLENDER_USER_CONFIG=$work/config BLENDER_USER_SCRIPTS=$work/scripts \
    blender -b --factory-startup --python-exit-code 1 \
    --python blender/tests/test_addon.py -- \
    "$PWD" "$PWD/target/debug/texgraph" "$PWD/target/blender/texgraph_blender.zip" "$work/scene"
