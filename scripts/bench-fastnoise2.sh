#!/usr/bin/env bash
# texgraph against FastNoise2 1.1.1 on the same noises, one thread, 2048², ns per sample,
# at each instruction set: texgraph's TEXGRAPH_SIMD against FastNoise2's matching feature
# set (avx512, avx2, and the baseline against SSE2). The noises: Perlin 2D, fBm of 6
# Perlin octaves, value, simplex 2D, and Perlin and simplex 3D at z = half a cell, all 8
# cells across; cellular F1 (jitter 1) at 16 and 256 cells, and in 3D at 16 cells. Each round runs every pair back to back,
# alternating, each side the fastest of 11 reps; at the end one table per level gives
# each side's fastest over the rounds and their ratio (below 1: texgraph is faster).
# texgraph's figure is a whole `texgraph bench` render, writing the image included;
# FastNoise2's is GenUniformGrid2D (3D for the 3D noises) into a buffer
# (scripts/fastnoise2/bench.cpp). Run a few rounds on a quiet machine.
#
# Needs git, cmake and a C++17 compiler. FastNoise2 and the FastSIMD commit it pins are
# cloned from GitHub into target/fastnoise2, or taken from FASTNOISE2_SRC and FASTSIMD_SRC
# (local clones) when set. Usage: scripts/bench-fastnoise2.sh [rounds]; NOISES="simplex3d
# cellular16_3d" runs only those.
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
if [ ! -f "$work/build/CMakeCache.txt" ]; then
  cmake -S "$work/FastNoise2" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
    -DFASTNOISE2_TOOLS=OFF -DFASTNOISE2_TESTS=OFF -DCPM_FastSIMD_SOURCE="$work/FastSIMD" > /dev/null
  cmake --build "$work/build" -j"$(nproc)" > /dev/null
fi
if [ ! -x "$work/bench" ] || [ "$root/scripts/fastnoise2/bench.cpp" -nt "$work/bench" ]; then
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
node perlin '{ "id": "n", "type": "perlin", "params": { "frequency": 8 } }'
node fbm '{ "id": "n", "type": "fbm", "params": { "frequency": 8, "octaves": 6 } }'
node value '{ "id": "n", "type": "value", "params": { "frequency": 8 } }'
node simplex '{ "id": "n", "type": "simplex", "params": { "frequency": 8 } }'
node perlin3d '{ "id": "n", "type": "perlin", "params": { "frequency": 8, "z": 0.5 } }'
node cellular16 '{ "id": "n", "type": "cellular", "params": { "frequency": 16, "jitter": 1 } }'
node cellular256 '{ "id": "n", "type": "cellular", "params": { "frequency": 256, "jitter": 1 } }'
node simplex3d '{ "id": "n", "type": "simplex", "params": { "frequency": 8, "dimensions": "3d", "z": 0.5 } }'
node cellular16_3d '{ "id": "n", "type": "cellular", "params": { "frequency": 16, "jitter": 1, "dimensions": "3d", "z": 0.5 } }'
noises=${NOISES:-"perlin fbm value simplex perlin3d simplex3d cellular16 cellular256 cellular16_3d"}
ours() { # ours LEVEL NOISE: ns per sample, the fastest of 11 renders
  TEXGRAPH_SIMD=$1 "$texgraph" bench "$graphs/$2.json" --size 2048 --threads 1 --reps 11 2>&1 |
    sed -n 's/.*fastest \([0-9.]*\) ms;.*/\1/p' | awk '{ printf "%.2f", $1 * 1e6 / (2048 * 2048) }'
}
theirs() { "$work/bench" "$1" "$2" 11 | awk '{ print $3 }'; }
results=$graphs/results
for round in $(seq "$rounds"); do
  for pair in "avx512 avx512" "avx2 avx2" "baseline sse2"; do
    set -- $pair
    line="round $round, texgraph $1 against FastNoise2 $2:"
    for noise in $noises; do
      a=$(ours "$1" $noise)
      b=$(theirs "$2" $noise)
      echo "$1 $2 $noise $a $b" >> "$results"
      line="$line $noise $a / $b;"
    done
    echo "$line"
  done
done
for level in avx512 avx2 baseline; do
  awk -v level=$level '
    $1 == level {
      if (!($3 in ours) || $4 < ours[$3]) ours[$3] = $4
      if (!($3 in theirs) || $5 < theirs[$3]) theirs[$3] = $5
      if (!($3 in seen)) { order[++n] = $3; seen[$3] = 1 }
      them = $2
    }
    END {
      printf "\n| noise | FastNoise2 %s | texgraph %s | ratio |\n|---|---|---|---|\n", them, level
      for (i = 1; i <= n; i++) {
        k = order[i]
        printf "| %s | %.2f | %.2f | %.2f |\n", k, theirs[k], ours[k], ours[k] / theirs[k]
      }
    }' "$results"
done
