#!/usr/bin/env python3
"""Times every example graph's outputs at 1024², one thread, on each instruction set.

For every graph in graphs/ and each of its outputs, runs `texgraph bench --size 1024
--threads 1` with TEXGRAPH_SIMD set to avx512, avx2 and baseline in turn (the levels
alternate, so a slow spell on a shared machine falls on all three alike), and keeps the
fastest rep. Prints a Markdown table of each graph's heaviest output (by its AVX2 time),
in ms. Levels the CPU lacks are skipped. Uses target/release/texgraph (built if missing).

Usage: scripts/bench-examples.py [--reps N] [--size N] [GRAPH ...]
"""

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = ROOT / "target" / "release" / "texgraph"
LEVELS = ["avx512", "avx2", "baseline"]


def outputs(graph: Path) -> list[str]:
    """The names of a graph's outputs, in file order."""
    nodes = json.loads(graph.read_text())["nodes"]
    return [n.get("params", {}).get("name", "color") for n in nodes if n["type"] == "output"]


def fastest_ms(graph: Path, output: str, level: str, size: int, reps: int) -> float | None:
    """The fastest of `reps` renders, in ms, or None when the CPU lacks the level."""
    env = {"TEXGRAPH_SIMD": level, "PATH": "/usr/bin:/bin"}
    run = subprocess.run(
        [CLI, "bench", graph, "--size", str(size), "--threads", "1", "--reps", str(reps),
         "--output", output],
        capture_output=True, text=True, env=env, check=True)
    found = re.search(r"fastest ([0-9.]+) ms", run.stdout + run.stderr)
    if not found:
        sys.exit(f"error: {graph.name} ({output}): no timing in texgraph bench's report")
    return float(found.group(1))


def available_levels() -> list[str]:
    """The levels this CPU runs: `TEXGRAPH_SIMD` caps at what the CPU has, so a level
    the CPU lacks reports itself as a lower one; /proc/cpuinfo tells them apart."""
    flags = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    have = ["baseline"]
    if " avx2" in flags:
        have.append("avx2")
    if all(f" {f}" in flags for f in ["avx512f", "avx512bw", "avx512dq", "avx512vl"]):
        have.append("avx512")
    return [level for level in LEVELS if level in have]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("graphs", nargs="*", type=Path)
    args = parser.parse_args()
    if not CLI.exists():
        subprocess.run(["cargo", "build", "--release", "-p", "texgraph-cli"], cwd=ROOT, check=True)
    graphs = args.graphs or sorted((ROOT / "graphs").glob("*.json"))
    levels = available_levels()
    print(f"| graph (heaviest output) | {' | '.join(levels)} |")
    print(f"|---|{'---|' * len(levels)}")
    for graph in graphs:
        rows = []
        for output in outputs(graph):
            times = {level: fastest_ms(graph, output, level, args.size, args.reps)
                     for level in levels}
            rows.append((output, times))
        key = "avx2" if "avx2" in levels else levels[0]
        output, times = max(rows, key=lambda row: row[1][key])
        cells = " | ".join(f"{times[level]:.1f}" for level in levels)
        print(f"| {graph.stem} ({output}) | {cells} |", flush=True)


if __name__ == "__main__":
    main()
