#!/usr/bin/env bash
# texgraph against FastNoise2 1.1.1 on the same noises, one thread, 2048², ns per sample:
# simplex 2D at 8 cells across and cellular F1 (jitter 1) at 16 and 256 cells, at each
# instruction set (texgraph's TEXGRAPH_SIMD against FastNoise2's matching feature set:
# avx512, avx2, and the baseline against SSE2). Each round runs every pair back to back,
# alternating, and prints the fastest of 11 reps of each; run a few rounds on a quiet
# machine. texgraph's figure is a whole `texgraph bench` render; FastNoise2's is
# GenUniformGrid2D into a buffer (scripts/fastnoise2/bench.cpp).
#
# Needs git, cmake and a C++17 compiler. FastNoise2 and the FastSIMD commit it pins are
# cloned from GitHub into target/fastnoise2, or taken from FASTNOISE2_SRC and FASTSIMD_SRC
# (local clones) when set. Usage: scripts/bench-fastnoise2.sh [rounds]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3}
work=$root/target/fastnoise2
texgraph=$root/target/release/texgraph
mkdir -p "$work"
fetch() { # fetch NAME URL REV LOCAL
  if [ ! -d "$work/$1" ]; then
    git clone -q "${4:-$2}" "$work/$1"
  fi
  git -C "$work/$1" checkout -q "$3"
}
fetch FastNoise2 https://github.com/Auburn/FastNoise2 v1.1.1 "${FASTNOISE2_SRC:-}"
fetch FastSIMD https://github.com/Auburn/FastSIMD 16450dae9528727e500e7254f635a671f9c7ee2d "${FASTSIMD_SRC:-}"
if [ ! -x "$work/bench" ]; then
  cmake -S "$work/FastNoise2" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
    -DFASTNOISE2_TOOLS=OFF -DFASTNOISE2_TESTS=OFF -DCPM_FastSIMD_SOURCE="$work/FastSIMD" > /dev/null
  cmake --build "$work/build" -j"$(nproc)" > /dev/null
  c++ -O3 -std=c++17 "$root/scripts/fastnoise2/bench.cpp" -o "$work/bench" \
    -I"$work/FastNoise2/include" -I"$work/FastSIMD/include" \
    -I"$work/build/src/fastsimd/FastSIMD_FastNoise/include" \
    $(find "$work/build" -name '*.a')
fi
[ -x "$texgraph" ] || cargo build --release -p texgraph-cli --manifest-path "$root/Cargo.toml"
graphs=$(mktemp -d)
trap 'rm -rf "$graphs"' EXIT
node() { # node FILE JSON-NODE
  printf '{ "format": "texgraph", "version": 4, "nodes": [ %s,\n  { "id": "out", "type": "output", "inputs": { "color": "n" } } ] }\n' "$2" > "$graphs/$1.json"
}
node simplex '{ "id": "n", "type": "simplex", "params": { "frequency": 8 } }'
node cellular16 '{ "id": "n", "type": "cellular", "params": { "frequency": 16, "jitter": 1 } }'
node cellular256 '{ "id": "n", "type": "cellular", "params": { "frequency": 256, "jitter": 1 } }'
ours() { # ours LEVEL NOISE: ns per sample, the fastest of 11 renders
  TEXGRAPH_SIMD=$1 "$texgraph" bench "$graphs/$2.json" --size 2048 --threads 1 --reps 11 2>&1 |
    sed -n 's/.*fastest \([0-9.]*\) ms;.*/\1/p' | awk '{ printf "%.2f", $1 * 1e6 / (2048 * 2048) }'
}
theirs() { "$work/bench" "$1" "$2" 11 | awk '{ print $3 }'; }
for round in $(seq "$rounds"); do
  for pair in "avx512 avx512" "avx2 avx2" "baseline sse2"; do
    set -- $pair
    line="round $round, texgraph $1 against FastNoise2 $2:"
    for noise in simplex cellular16 cellular256; do
      line="$line $noise $(ours "$1" $noise) / $(theirs "$2" $noise);"
    done
    echo "$line"
  done
done
