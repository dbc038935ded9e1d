#!/usr/bin/env bash
# The glTF exports of the example graphs against the Khronos glTF validator: renders
# every material in graphs/ (a graph with outputs of a material usage) through the gltf
# preset with the CLI the workspace's tests build, into target/gltf-examples, and
# validates each scene with scripts/validate-gltf.sh, which installs the validator from npm
# under target/ on first use. Fails on any error or warning the validator reports, on any other export error,
# and when fewer scenes than the examples' materials were written. Needs node and npm.
set -euo pipefail
cd "$(dirname "$0")/.."
# brick_wall, cobblestone_floor, lava and rusted_metal: fewer means the preset refused
# a material.
least=4
# The CLI as the workspace's tests build it (nothing to do after them).
cargo test --workspace --no-run --quiet
out=target/gltf-examples
rm -rf "$out"
mkdir -p "$out"
scenes=()
for graph in graphs/*.json; do
    stem=$(basename "$graph" .json)
    # Small maps: the validator reads the images' headers, not their looks.
    if ! error=$(target/debug/texgraph render "$graph" --preset gltf --size 64 \
        -o "$out/$stem/" 2>&1 >/dev/null); then
        case "$error" in
        *"has no material outputs"*) continue ;; # a plain image, no material
        *) echo "$graph: $error" >&2; exit 1 ;;
        esac
    fi
    if [ ! -f "$out/$stem/$stem.gltf" ]; then
        echo "error: $graph wrote no $out/$stem/$stem.gltf" >&2
        exit 1
    fi
    scenes+=("$out/$stem/$stem.gltf")
done
if [ "${#scenes[@]}" -lt "$least" ]; then
    echo "error: only ${#scenes[@]} example materials exported to glTF (${scenes[*]}); expected at least $least" >&2
    exit 1
fi
scripts/validate-gltf.sh "${scenes[@]}"
