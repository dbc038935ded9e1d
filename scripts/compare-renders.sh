#!/usr/bin/env bash
# Renders every example graph with two builds of the `texgraph` CLI and compares the files
# byte for byte: every output as 16-bit PNG and 32-bit EXR, the material as glTF (PNGs,
# .gltf and .bin) and as Unity HDRP DDS and Godot KTX2 (block-compressed, with mips).
# For changes that must not move a bit, such as moving code between crates.
#
#   scripts/compare-renders.sh OLD_TEXGRAPH NEW_TEXGRAPH [SIZE]
#
# Exits non-zero, listing the files that differ, when any does.
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 OLD_TEXGRAPH NEW_TEXGRAPH [SIZE]" >&2
    exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
size=${3:-256}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# render BIN DIR GRAPH: every file the comparison covers, into DIR.
render() {
    local bin=$1 dir=$2 graph=$3
    local name
    name=$(basename "$graph" .json)
    mkdir -p "$dir/$name"
    "$bin" render "$graph" --all-outputs --size "$size" --depth 16 -o "$dir/$name/out.png" >/dev/null
    "$bin" render "$graph" --all-outputs --size "$size" -o "$dir/$name/out.exr" >/dev/null
    # Graphs without material outputs have no preset files; the CLI says so and fails.
    if "$bin" render "$graph" --preset gltf --size "$size" -o "$dir/$name/gltf/" >/dev/null 2>&1; then
        "$bin" render "$graph" --preset unity-hdrp --format dds --size "$size" -o "$dir/$name/dds/" >/dev/null
        "$bin" render "$graph" --preset godot --format ktx2 --size "$size" -o "$dir/$name/ktx2/" >/dev/null
    fi
}

count=0
for graph in graphs/*.json; do
    render "$old" "$work/old" "$graph"
    render "$new" "$work/new" "$graph"
    count=$((count + 1))
done
files=$(find "$work/old" -type f | wc -l)
if diff -r -q "$work/old" "$work/new"; then
    echo "same bytes: $files files of $count graphs at ${size}²"
else
    echo "the builds differ (above)" >&2
    exit 1
fi
