#!/bin/sh
# Times a Gaussian blur of a 2048² one-channel float image with libvips (`vips
# gaussblur`, float precision, one thread) at sigma 20 and 100, beside texgraph's blur
# benchmark (`cargo bench -p texgraph-core -- raster/blur`, one thread, the same size),
# and prints the ratios. Needs libvips-tools and bc (Debian: apt-get install
# libvips-tools bc).
set -eu
cd "$(dirname "$0")/.."
command -v vips >/dev/null || { echo "error: vips not found; install libvips-tools" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# The same kind of input as the benchmark: a 2048² float height, here as a vips image.
cargo run --quiet --release -p texgraph-cli -- render graphs/fbm.json --size 2048 -o "$work/in.tif" --depth 32 >/dev/null
vips extract_band "$work/in.tif" "$work/in.v" 0 2>/dev/null

# Median of five runs of a command, in seconds.
median() {
    for _ in 1 2 3 4 5; do
        start=$(date +%s.%N)
        "$@" >/dev/null
        end=$(date +%s.%N)
        echo "$end - $start" | bc -l
    done | sort -n | sed -n 3p
}

cargo bench --quiet -p texgraph-core -- 'raster/blur' >"$work/bench.txt" 2>&1
ours=$(sed -n 's/^blur, sigma  16 texels *\([0-9.]*\).*/\1/p' "$work/bench.txt")
echo "texgraph blur, 2048², 1 thread (any sigma):"
grep '^blur, sigma' "$work/bench.txt"
for sigma in 20 100; do
    seconds=$(VIPS_CONCURRENCY=1 median vips gaussblur "$work/in.v" "$work/out.v" "$sigma" --precision float)
    ns=$(echo "$seconds * 1000000000 / (2048 * 2048)" | bc -l)
    ratio=$(echo "$ns / $ours" | bc -l)
    printf 'vips gaussblur sigma %3d, float, 1 thread: %.3f s, %.1f ns/pixel: texgraph is %.0fx faster\n' \
        "$sigma" "$seconds" "$ns" "$ratio"
done
