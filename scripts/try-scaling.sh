#!/usr/bin/env bash
# Runs the workflows of docs/scaling.md with GNU parallel at a small size: a seed sweep in
# two shards, and a render cut into strips rendered in parallel and stitched, whose hash
# must equal the single render's. Usage: scripts/try-scaling.sh [texgraph binary]
set -euo pipefail
texgraph=$(realpath "${1:-target/release/texgraph}")
graphs=$(realpath "$(dirname "$0")/../graphs")
command -v parallel > /dev/null || { echo "needs GNU parallel (apt-get install parallel)"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

echo "== a 200-seed sweep of marble at 256², two shards under GNU parallel"
cat > sweep.json <<JSON
{ "jobs": [ { "graph": "$graphs/marble.json", "seeds": { "from": 0, "count": 200 },
              "sizes": [256], "name": "sweep/marble_{seed}.png" } ] }
JSON
parallel "$texgraph" batch sweep.json --shard {}/2 ::: 0 1
count=$(ls sweep | wc -l)
[ "$count" = 200 ] || { echo "expected 200 files, found $count"; exit 1; }
"$texgraph" render "$graphs/marble.json" --size 256 --set turb.seed=$((7 + 123)) -o single.png > /dev/null
cmp single.png sweep/marble_123.png
echo "200 files; seed 123 is the bytes of a single render with the seed moved on by 123"

echo "== eroded terrain's height at 2048², 8 strips rendered by GNU parallel, stitched"
seq 0 7 | parallel -j 4 "\"$texgraph\" render \"$graphs/eroded_terrain.json\" --size 2048 \
    --output height --region 0,\$(({} * 256)),2048,256 -o strip_{}.exr > /dev/null"
"$texgraph" stitch 'strip_*.exr' -o stitched.exr
"$texgraph" render "$graphs/eroded_terrain.json" --size 2048 --output height -o whole.exr > /dev/null
sha256sum stitched.exr whole.exr
cmp stitched.exr whole.exr
echo "the stitched file is the single render, byte for byte"

echo "== the same strips as manifest tiles over 8 shards"
cat > strips.json <<JSON
{ "jobs": [ { "graph": "$graphs/eroded_terrain.json", "sizes": [2048], "tiles": "1x8",
              "outputs": ["height"], "format": "exr", "name": "tiles/height_{tile}.{ext}" } ] }
JSON
parallel -j 4 "$texgraph" batch strips.json --shard {}/8 ::: $(seq 0 7) > /dev/null
"$texgraph" stitch 'tiles/height_*.exr' -o tiles.exr
cmp tiles.exr whole.exr
echo "the same bytes again"
