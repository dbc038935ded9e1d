#!/bin/sh
# Times a Gaussian blur of a 2048² one-channel float image with libvips (`vips
# gaussblur`, float precision, one thread, its own .v files in and out) at sigma 20 and
# 100, beside texgraph's blur benchmark (`cargo bench -p texgraph-core -- raster/blur`,
# one thread, the same size), and prints the ratios. Then whole processes at sigma 20:
# texgraph making the same fBm height and blurring it (`texgraph bench --reps 1`, no
# file; and `texgraph render` into a 16-bit gray PNG and a 32-bit RGBA TIFF) against
# vips's blur alone. Needs libvips-tools and bc (Debian: apt-get install libvips-tools
# bc).
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

# Whole processes at sigma 20 pixels: texgraph starts, loads, makes the fBm and blurs it
# (radius 20 / 2048 of the width), writing nothing or a file; vips blurs a ready image.
cat >"$work/blur.json" <<'GRAPH'
{ "format": "texgraph", "version": 4, "name": "blur",
  "nodes": [
    { "id": "fbm", "type": "fbm", "params": { "frequency": 4, "octaves": 6 }, "pos": [0, 0] },
    { "id": "blur", "type": "blur", "params": { "radius": 0.009765625 }, "inputs": { "input": "fbm" }, "pos": [300, 0] },
    { "id": "out", "type": "output", "params": { "name": "height", "usage": "height" }, "inputs": { "color": "blur" }, "pos": [600, 0] } ] }
GRAPH
texgraph=target/release/texgraph
vips20=$(VIPS_CONCURRENCY=1 median vips gaussblur "$work/in.v" "$work/out.v" 20 --precision float)
echo "whole processes at sigma 20, 2048², 1 thread, median of 5 (vips gaussblur: $vips20 s):"
whole() {
    seconds=$(median "$@")
    printf '  %-44s %.3f s: vips takes %.1fx as long\n' "$label" "$seconds" \
        "$(echo "$vips20 / $seconds" | bc -l)"
}
label="texgraph bench --reps 1 (no file)" whole "$texgraph" bench "$work/blur.json" --size 2048 --threads 1 --reps 1
label="texgraph render, 16-bit gray PNG" whole "$texgraph" render "$work/blur.json" --size 2048 --threads 1 --depth 16 -o "$work/out.png"
label="texgraph render, 32-bit RGBA TIFF (64 MiB)" whole "$texgraph" render "$work/blur.json" --size 2048 --threads 1 --depth 32 -o "$work/out.tif"
