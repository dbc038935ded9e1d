#!/usr/bin/env python3
"""The library's contact sheets and render times, for docs/library.md.

Renders the first output of every graph in graphs/library/ at 160 px, lays them out one
sheet per category (docs/images/library_<category>.png, with ImageMagick's `montage`), and
times each at 1024 px on one thread with `texgraph bench` (the median of five). Prints the
Markdown table of times. Run from anywhere; it uses target/release/texgraph (built if it is
missing). TEXGRAPH_SIMD caps the instruction set, as for every benchmark.
"""

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = ROOT / "target" / "release" / "texgraph"


def main() -> None:
    if not CLI.exists():
        subprocess.run(["cargo", "build", "--release", "-p", "texgraph-cli"], cwd=ROOT, check=True)
    graphs = sorted((ROOT / "graphs" / "library").glob("*.json"))
    by_category: dict[str, list[tuple[Path, dict]]] = {}
    for path in graphs:
        graph = json.loads(path.read_text())
        by_category.setdefault(graph["category"], []).append((path, graph))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for category, entries in sorted(by_category.items()):
            tiles = []
            for path, graph in entries:
                tile = Path(tmp) / f"{path.stem}.png"
                subprocess.run([CLI, "render", path, "--size", "160", "-o", tile],
                               check=True, capture_output=True)
                if first_output_usage(graph) == "splat":
                    # Layer weights, not transparency: show R, G and B as engines show a
                    # splat map (the fourth layer, in alpha, is what stays black).
                    subprocess.run(["mogrify", "-alpha", "off", tile], check=True)
                tiles += ["-label", path.stem, tile]
                bench = subprocess.run(
                    [CLI, "bench", path, "--size", "1024", "--threads", "1", "--reps", "5"],
                    check=True, capture_output=True, text=True).stdout
                median = re.search(r"median:\s+([\d.]+) ms", bench).group(1)
                rows.append((category, path.stem, graph.get("name", path.stem), float(median)))
            sheet = ROOT / "docs" / "images" / f"library_{category.lower().replace(' ', '_')}.png"
            subprocess.run(["montage", "-font", "DejaVu-Sans", "-pointsize", "11", *tiles,
                            "-tile", "6x", "-geometry", "160x160+6+6", "-background", "#202020",
                            "-fill", "#e0e0e0", sheet], check=True)
            print(f"wrote {sheet.relative_to(ROOT)}", file=sys.stderr)
    print("| category | graph | name | 1024², one thread |")
    print("|---|---|---|---|")
    for category, stem, name, ms in rows:
        print(f"| {category} | `library:{stem}` | {name} | {ms:.0f} ms |")


def first_output_usage(graph: dict) -> str:
    """The usage of the graph's first output node (what `texgraph render` writes)."""
    for node in graph["nodes"]:
        if node["type"] == "output":
            return node.get("params", {}).get("usage", "color")
    return "color"


if __name__ == "__main__":
    main()
