#!/usr/bin/env bash
# Times 1000 renders of 256² marble variations (seeds 0–999) three ways: one
# `texgraph batch`, 1000 `texgraph render` processes one after another, and the same
# processes under GNU parallel (one per core). Usage: scripts/bench-batch.sh [texgraph]
set -euo pipefail
texgraph=$(realpath "${1:-target/release/texgraph}")
graph=$(realpath "$(dirname "$0")/../graphs/marble.json")
count=${COUNT:-1000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cat > sweep.json <<JSON
{ "jobs": [ { "graph": "$graph", "seeds": { "from": 0, "count": $count }, "sizes": [256],
              "name": "batch/marble_{seed}.png" } ] }
JSON
now() { date +%s.%N; }
start=$(now)
"$texgraph" batch sweep.json > /dev/null
batch=$(echo "$(now) - $start" | bc)
mkdir -p loop parallel
start=$(now)
for seed in $(seq 0 $((count - 1))); do
  "$texgraph" render "$graph" --size 256 --set turb.seed=$((7 + seed)) -o loop/marble_$seed.png > /dev/null
done
loop=$(echo "$(now) - $start" | bc)
start=$(now)
seq 0 $((count - 1)) | parallel "\"$texgraph\" render \"$graph\" --size 256 --set turb.seed=\$((7 + {})) -o parallel/marble_{}.png > /dev/null"
par=$(echo "$(now) - $start" | bc)
for seed in 0 $((count / 2)) $((count - 1)); do
  cmp batch/marble_$seed.png loop/marble_$seed.png
  cmp batch/marble_$seed.png parallel/marble_$seed.png
done
printf "%d renders of 256²: batch %.2f s, processes in a loop %.2f s (%.1fx), GNU parallel %.2f s (%.1fx)\n" \
  "$count" "$batch" "$loop" "$(echo "$loop / $batch" | bc -l)" "$par" "$(echo "$par / $batch" | bc -l)"
