"""The Python module against the CLI: the same pixels, files, params and errors.

Run by scripts/test-python.sh (the README's test command), which builds the module and
the CLI first. TEXGRAPH_CLI names the `texgraph` binary to compare with.
"""

import _thread
import ast
import json
import os
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import numpy as np
import OpenEXR
import pytest

import texgraph

REPO = Path(__file__).resolve().parents[3]
GRAPHS = REPO / "graphs"
CLI = os.environ.get("TEXGRAPH_CLI", str(REPO / "target" / "release" / "texgraph"))


def cli(*args, cwd=None):
    """Runs the CLI; returns the completed process (its output captured)."""
    return subprocess.run(
        [CLI, *map(str, args)], cwd=cwd, capture_output=True, text=True, check=False
    )


def read_exr(path):
    """An EXR's pixels as float32 (height, width, channels): Y alone, or R, G, B, A."""
    with OpenEXR.File(str(path), separate_channels=True) as f:
        channels = f.channels()
        names = ["Y"] if "Y" in channels else ["R", "G", "B", "A"]
        return np.stack([channels[n].pixels for n in names], axis=-1).astype(np.float32)


def cli_exr(tmp_path, graph, *args):
    out = tmp_path / f"cli_{len(list(tmp_path.iterdir()))}.exr"
    done = cli("render", graph, "-o", out, *args)
    assert done.returncode == 0, done.stderr
    return read_exr(out)


def same_bits(a, b):
    return a.shape == b.shape and np.array_equal(a.view(np.uint32), b.view(np.uint32))


@pytest.mark.parametrize(
    "name, output, size",
    [
        ("marble.json", None, (96, 64)),
        ("eroded_terrain.json", "height", (80, 80)),
        ("eroded_terrain.json", "normal", (80, 80)),
        ("cobblestone_floor.json", "roughness", (70, 90)),
        ("brick_wall.json", "basecolor", (48, 48)),
    ],
)
def test_a_render_is_the_bits_of_the_cli_exr(tmp_path, name, output, size):
    graph = texgraph.load(GRAPHS / name)
    image = graph.render(size=size, output=output)
    assert image.dtype == np.float32
    assert image.shape[:2] == (size[1], size[0])
    args = ["--size", f"{size[0]}x{size[1]}"] + (["--output", output] if output else [])
    assert same_bits(image, cli_exr(tmp_path, GRAPHS / name, *args))


def test_set_and_time_are_the_cli_flags(tmp_path):
    graph = texgraph.load(GRAPHS / "fire.json")
    key, value = "flame_noise.frequency", 6.5
    before = graph.render(size=64, time=0.7)
    graph.set(key, value)
    after = graph.render(size=64, time=0.7)
    assert not same_bits(before, after), "the param changes the image"
    expected = cli_exr(tmp_path, GRAPHS / "fire.json", "--size", "64", "--time", "0.7",
                       "--set", f"{key}={value!r}")
    assert same_bits(after, expected)
    assert not same_bits(after, graph.render(size=64, time=0.2)), "time moves the fire"
    # The change is in the graph's JSON, as a file would hold it.
    again = texgraph.Graph.from_json(graph.to_json())
    assert same_bits(again.render(size=64, time=0.7), after)
    assert next(p for p in again.params() if f"{p['node']}.{p['param']}" == key)["value"] == value


KINDS = """{ "format": "texgraph", "version": 1, "nodes": [
  { "id": "n", "type": "perlin" },
  { "id": "shape", "type": "curve", "inputs": { "input": "n" } },
  { "id": "steps", "type": "quantize", "inputs": { "input": "shape" } },
  { "id": "span", "type": "remap", "inputs": { "input": "steps" } },
  { "id": "ramp", "type": "gradient", "inputs": { "input": "span" } },
  { "id": "tint", "type": "color" },
  { "id": "mix", "type": "blend", "inputs": { "a": "ramp", "b": "tint" } },
  { "id": "out", "type": "output", "inputs": { "color": "mix" } } ] }"""


def as_cli_text(value):
    """A Python value as typed after `--set node.param=`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return json.dumps(value)
    return str(value)


def test_set_reads_every_kind_as_the_cli_does(tmp_path):
    # A float, an integer, a choice, two booleans, a color, stops and points, each set
    # from Python values and, as text, with --set.
    path = tmp_path / "kinds.json"
    path.write_text(KINDS)
    stops = [{"pos": 0.0, "color": "#102040"}, {"pos": 0.7, "color": "#f0c080"}]
    points = [{"x": 0.0, "y": 0.1}, {"x": 0.4, "y": 0.8}, {"x": 1.0, "y": 0.9}]
    values = {
        "n.frequency": 6.25,
        "n.seed": 9,
        "mix.mode": "multiply",
        "steps.dither": True,
        "span.clamp": True,
        "tint.color": "#c08040",
        "ramp.stops": stops,
        "shape.points": points,
    }
    graph = texgraph.load(path)
    before = graph.render(size=40)
    sets = []
    for key, value in values.items():
        graph.set(key, value)
        sets += ["--set", f"{key}={as_cli_text(value)}"]
    kinds = {f"{p['node']}.{p['param']}": p["kind"] for p in graph.params()}
    assert {kinds[k] for k in values} == {"float", "integer", "choice", "boolean", "color",
                                          "stops", "points"}
    after = graph.render(size=40)
    assert not same_bits(before, after)
    assert same_bits(after, cli_exr(tmp_path, path, "--size", "40", *sets))
    params = {f"{p['node']}.{p['param']}": p["value"] for p in graph.params()}
    assert params["ramp.stops"] == stops and params["steps.dither"] is True


def test_render_all_is_every_output_rendered_together(tmp_path):
    graph = texgraph.load(GRAPHS / "brick_wall.json")
    maps = graph.render_all(size=(64, 40))
    assert list(maps) == graph.outputs
    for name, image in maps.items():
        assert same_bits(image, graph.render(size=(64, 40), output=name)), name
    assert maps["roughness"].shape == (40, 64, 1)
    assert maps["basecolor"].shape == (40, 64, 4)
    # Base color is decoded to linear light unless asked for as rendered (as a PNG holds it).
    encoded = graph.render(size=(64, 40), output="basecolor", linear=False)
    rgb = encoded[..., :3]
    decoded = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    assert np.allclose(maps["basecolor"][..., :3], decoded, atol=1e-5)
    assert np.array_equal(maps["basecolor"][..., 3], encoded[..., 3])


@pytest.mark.parametrize(
    "name, args, kwargs",
    [
        ("marble.json", ["--depth", "16"], {"depth": 16}),
        ("marble.json", [], {}),
        ("eroded_terrain.json", ["--output", "height"], {"output": "height"}),
    ],
)
@pytest.mark.parametrize("ext", ["png", "tif", "exr"])
def test_exports_are_the_bytes_of_the_cli(tmp_path, name, args, kwargs, ext):
    if ext == "exr" and kwargs.get("depth") == 16:
        pytest.skip("EXR holds 32-bit floats only")
    ours, theirs = tmp_path / f"ours.{ext}", tmp_path / f"theirs.{ext}"
    graph = texgraph.load(GRAPHS / name)
    written = graph.export(ours, size=72, **kwargs)
    assert written == [str(ours)]
    done = cli("render", GRAPHS / name, "--size", "72", "-o", theirs, *args)
    assert done.returncode == 0, done.stderr
    assert ours.read_bytes() == theirs.read_bytes()


def test_all_outputs_and_presets_are_the_bytes_of_the_cli(tmp_path):
    graph = texgraph.load(GRAPHS / "brick_wall.json")
    (tmp_path / "ours").mkdir()
    (tmp_path / "theirs").mkdir()
    ours = graph.export(tmp_path / "ours" / "b.png", size=64, all_outputs=True)
    assert len(ours) == len(graph.outputs)
    done = cli("render", GRAPHS / "brick_wall.json", "--size", "64", "--all-outputs",
               "-o", tmp_path / "theirs" / "b.png")
    assert done.returncode == 0, done.stderr
    for path in ours:
        assert Path(path).read_bytes() == (tmp_path / "theirs" / Path(path).name).read_bytes()
    for preset in ["gltf", "unreal"]:
        ours = graph.export(tmp_path / f"ours_{preset}", size=64, preset=preset)
        theirs = tmp_path / f"theirs_{preset}"
        done = cli("render", GRAPHS / "brick_wall.json", "--size", "64", "--preset", preset,
                   "-o", theirs)
        assert done.returncode == 0, done.stderr
        assert sorted(Path(p).name for p in ours) == sorted(p.name for p in theirs.iterdir())
        for path in ours:
            assert Path(path).read_bytes() == (theirs / Path(path).name).read_bytes(), path


def test_errors_carry_node_field_and_the_cli_message(tmp_path):
    graph = texgraph.load(GRAPHS / "marble.json")
    p = next(p for p in graph.params() if p["kind"] == "float")
    key = f"{p['node']}.{p['param']}"
    with pytest.raises(texgraph.GraphError) as e:
        graph.set(key, p["max"] + 1000)
    assert (e.value.node, e.value.field) == (p["node"], p["param"])
    assert "out of range" in str(e.value)
    done = cli("render", GRAPHS / "marble.json", "--set", f"{key}={p['max'] + 1000}", "-o",
               tmp_path / "x.png")
    assert done.returncode == 2 and str(e.value) in done.stderr
    with pytest.raises(texgraph.GraphError) as e:
        graph.set(key, "lots")
    assert f"node '{p['node']}', field '{p['param']}': 'lots' is not a number" in str(e.value)
    with pytest.raises(texgraph.GraphError) as e:
        graph.set(f"{p['node']}.no_such_param", 1)
    assert (e.value.node, e.value.field) == (p["node"], "no_such_param")
    with pytest.raises(texgraph.GraphError) as e:
        graph.set("ghost.frequency", 1)
    assert e.value.node == "ghost" and e.value.field is None
    with pytest.raises(texgraph.GraphError) as e:
        graph.render(size=16, output="no_such_output")
    assert "no_such_output" in str(e.value)

    bad = tmp_path / "bad.json"
    bad.write_text('{ "format": "texgraph", "version": 1, "nodes": ['
                   '{ "id": "n", "type": "perlin", "params": { "frequency": "high" } },'
                   '{ "id": "out", "type": "output", "inputs": { "color": "n" } } ] }')
    with pytest.raises(texgraph.GraphError) as e:
        texgraph.load(bad).render(size=8)
    assert (e.value.node, e.value.field) == ("n", "frequency")
    assert e.value.problems[0][:2] == ("n", "frequency")
    with pytest.raises(texgraph.GraphError):
        texgraph.Graph.from_json("{ not json")
    with pytest.raises(texgraph.ExportError) as e:
        texgraph.load(tmp_path / "missing.json")
    assert "missing.json" in str(e.value)

    with pytest.raises(texgraph.ExportError) as e:
        graph.export(tmp_path / "x.png", size=8, depth=32)
    assert "cannot hold 32-bit" in str(e.value)
    with pytest.raises(texgraph.ExportError):
        graph.export(tmp_path / "x.bmp", size=8)
    # Any side out of range, negative or past 2**32 included, is named with the range.
    for size in [0, -1, (64, -5), 65537, 2**40]:
        with pytest.raises(ValueError, match="each side must be 1 to 65536 pixels"):
            graph.render(size=size)
    with pytest.raises(ValueError):
        graph.export(tmp_path / "m", size=8, preset="no_such_engine")

    # The memory check refuses before anything is allocated: a whole-plane distance at
    # 65536², 16 GiB a plane.
    far = texgraph.Graph.from_json(
        '{ "format": "texgraph", "version": 1, "nodes": ['
        '{ "id": "noise", "type": "perlin", "params": { "frequency": 6 } },'
        '{ "id": "far", "type": "distance", "inputs": { "mask": "noise" } },'
        '{ "id": "out", "type": "output", "inputs": { "color": "far" } } ] }')
    with pytest.raises(MemoryError) as e:
        far.render(size=65536)
    assert "65536x65536" in str(e.value)
    # Nothing of a failed export is left behind.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]


def test_two_threads_render_at_once_and_both_are_right():
    graph = texgraph.load(GRAPHS / "eroded_terrain.json")
    expected = {o: graph.render(size=160, output=o, threads=1) for o in ("height", "normal")}
    results, started = {}, threading.Barrier(2)

    def render(output):
        started.wait()
        results[output] = graph.render(size=160, output=output, threads=1)

    threads = [threading.Thread(target=render, args=(o,)) for o in expected]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for output, image in expected.items():
        assert same_bits(results[output], image), output


def test_the_gil_is_released_while_rendering():
    # A Python thread stamps the time over and over while the main thread renders. Had
    # the render the GIL, the thread could stamp only just before the render starts and
    # just after it ends (the main thread hands it a turn at its next bytecode), leaving
    # a gap as long as the render; released, its stamps cover the render evenly. Only
    # stamps between the render's own start and end stamps count.
    graph = texgraph.load(GRAPHS / "eroded_terrain.json")
    stamps, counting, stop = [], threading.Event(), threading.Event()

    def count():
        counting.set()
        while not stop.is_set():
            stamps.append(time.perf_counter())

    counter = threading.Thread(target=count)
    counter.start()
    counting.wait()
    try:
        start = time.perf_counter()
        graph.render(size=512, output="normal", threads=1)
        end = time.perf_counter()
    finally:
        stop.set()
        counter.join()
    took = end - start
    during = [t for t in stamps if start < t < end]
    edges = [start, *during, end]
    gap, at = max((b - a, a - start) for a, b in zip(edges, edges[1:]))
    assert len(during) > 1000, f"{len(during)} stamps during a {took:.3f} s render"
    assert gap < took / 4, (
        f"the other thread stood still for {gap:.3f} s from {at:.3f} s into a {took:.3f} s render"
    )


def test_ctrl_c_stops_a_large_render():
    # Eroded terrain's height at 16384² takes 16 times as long as at 4096²; Ctrl+C half
    # a second in stops it at its next band, long before a quarter of that, and the
    # module renders again afterwards. (Were the render not cancelled, the interrupt
    # would only be raised once it had finished.)
    graph = texgraph.load(GRAPHS / "eroded_terrain.json")
    start = time.perf_counter()
    graph.render(size=4096, output="height")
    quarter = 4 * (time.perf_counter() - start)
    # Python leaves SIGINT alone when it starts with it ignored (as in a background job),
    # and `interrupt_main` then does nothing: make Ctrl+C raise KeyboardInterrupt here.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer = threading.Timer(0.5, _thread.interrupt_main)
        start = time.perf_counter()
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            graph.render(size=16384, output="height")
        stopped = time.perf_counter() - start
        timer.join()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert stopped < quarter, f"stopped after {stopped:.1f} s; a quarter render takes {quarter:.1f} s"
    assert graph.render(size=16, output="height").shape == (16, 16, 1)


def test_nodes_lists_the_registry_as_the_cli_does():
    nodes = texgraph.nodes()
    listed = cli("nodes").stdout
    assert len(nodes) > 40
    for node in nodes:
        assert node["id"] in listed
    perlin = next(n for n in nodes if n["id"] == "perlin")
    frequency = next(p for p in perlin["params"] if p["param"] == "frequency")
    assert frequency["kind"] == "float" and frequency["min"] < frequency["default"] <= frequency["max"]
    assert perlin["outputs"][0]["type"] == "scalar"
    output = next(n for n in nodes if n["id"] == "output")
    assert [p["unconnected"] for p in output["inputs"]] == ["must be connected"]
    assert all(p["required"] for p in output["inputs"])
    blend = next(n for n in nodes if n["id"] == "blend")
    assert {p["name"]: p["unconnected"] for p in blend["inputs"]} == {
        "a": "reads 0",
        "b": "reads 0",
        "mask": "see description",
    }


def test_nodes_lists_the_library_and_a_library_graph_renders_as_a_node():
    library = [n for n in texgraph.nodes() if n["library"]]
    assert len(library) >= 40
    assert len(texgraph.nodes()) >= 150
    rust = next(n for n in library if n["id"] == "library:grunge_rust")
    assert rust["category"] == "Grunge" and rust["doc"]
    assert 2 <= len(rust["params"]) <= 6
    seed = next(p for p in rust["params"] if p["param"] == "seed")
    assert seed["kind"] == "integer"
    graph = texgraph.Graph.from_json(json.dumps({
        "format": "texgraph", "version": 5, "settings": {"tileable": True},
        "nodes": [
            {"id": "rust", "type": "graph", "params": {"file": "library:grunge_rust", "seed": 3}},
            {"id": "out", "type": "output", "inputs": {"color": "rust"}},
        ],
    }))
    image = graph.render(size=32)
    assert image.shape == (32, 32, 1) and image.max() > image.min()


OVERSHOOTING = {
    "format": "texgraph",
    "version": 1,
    "nodes": [
        {"id": "uv", "type": "coords"},
        {"id": "ramp", "type": "remap", "params": {"out_min": -0.5, "out_max": 1.5},
         "inputs": {"input": "uv.u"}},
        {"id": "height", "type": "output", "params": {"name": "height", "usage": "height"},
         "inputs": {"color": "ramp"}},
    ],
}


def test_an_export_that_clamps_warns_as_the_cli_does(tmp_path):
    path = tmp_path / "ramp.json"
    path.write_text(json.dumps(OVERSHOOTING))
    graph = texgraph.load(path)
    ours = tmp_path / "ours.png"
    with pytest.warns(UserWarning) as caught:
        graph.export(ours, size=(40, 6), depth=16)
    [warning] = [str(w.message) for w in caught]
    assert warning.startswith(f"{ours}: 120 of 240 samples (50.0%) were outside [0, 1]")
    done = cli("render", path, "--size", "40x6", "--depth", "16", "-o", tmp_path / "theirs.png")
    assert done.returncode == 0, done.stderr
    assert done.stderr == "warning: " + warning.replace(str(ours), str(tmp_path / "theirs.png")) + "\n"
    assert ours.read_bytes() == (tmp_path / "theirs.png").read_bytes()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        graph.export(tmp_path / "kept.exr", size=(40, 6))


def test_an_error_anywhere_in_the_graph_stops_an_export_as_in_the_cli(tmp_path):
    graph = texgraph.Graph.from_json(json.dumps({
        "format": "texgraph",
        "version": 4,
        "nodes": [
            {"id": "noise", "type": "perlin"},
            {"id": "tint", "type": "color", "params": {"color": "#ff0000"}},
            {"id": "main", "type": "output", "params": {"name": "main"},
             "inputs": {"color": "noise"}},
            {"id": "rough", "type": "output",
             "params": {"name": "roughness", "usage": "roughness"},
             "inputs": {"color": "tint"}},
        ],
    }))
    with pytest.raises(texgraph.GraphError, match="roughness is one channel"):
        graph.export(tmp_path / "m.png", size=16, output="main")
    assert list(tmp_path.iterdir()) == []


def test_a_half_wired_graph_renders_the_bits_of_the_cli_and_of_the_constant_wired_in(tmp_path):
    half = {
        "format": "texgraph",
        "version": 1,
        "nodes": [
            {"id": "noise", "type": "perlin", "params": {"frequency": 6}},
            {"id": "mix", "type": "blend", "inputs": {"a": "noise", "mask": "noise"}},
            {"id": "out", "type": "output", "inputs": {"color": "mix"}},
        ],
    }
    wired = json.loads(json.dumps(half))
    wired["nodes"][1]["inputs"]["b"] = "zero"
    wired["nodes"].append({"id": "zero", "type": "constant", "params": {"value": 0}})
    path = tmp_path / "half.json"
    path.write_text(json.dumps(half))
    image = texgraph.Graph.from_json(json.dumps(half)).render(size=32)
    assert same_bits(image, texgraph.Graph.from_json(json.dumps(wired)).render(size=32))
    assert same_bits(image, cli_exr(tmp_path, path, "--size", "32"))


def test_the_stub_declares_every_node_and_everything_the_module_has():
    stub = ast.parse((REPO / "crates" / "texgraph-python" / "texgraph.pyi").read_text())
    declared = {}
    for item in stub.body:
        if isinstance(item, ast.ClassDef):
            declared[item.name] = {f.name for f in item.body if isinstance(f, ast.FunctionDef)}
        elif isinstance(item, ast.FunctionDef):
            declared[item.name] = None
        elif isinstance(item, (ast.Assign, ast.AnnAssign)):
            target = item.targets[0] if isinstance(item, ast.Assign) else item.target
            declared[target.id] = item.value
    ids = [e.value for e in declared["NodeId"].slice.elts]
    assert ids == [n["id"] for n in texgraph.nodes() if not n["library"]]
    formats = [e.value for e in declared["FormatId"].slice.elts]
    assert formats == texgraph.formats()
    public = {n for n in dir(texgraph) if not n.startswith("_")} - {"texgraph"}  # itself
    assert public <= declared.keys(), public - declared.keys()
    methods = {n for n in dir(texgraph.Graph) if not n.startswith("_")}
    assert methods <= declared["Graph"], methods - declared["Graph"]


def test_the_tutorial_runs(tmp_path):
    done = subprocess.run([sys.executable, REPO / "docs" / "python_tutorial.py", tmp_path],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    from PIL import Image
    sheet = Image.open(tmp_path / "marble_seeds.png")
    assert sheet.size == (4 * 256, 4 * 256)
    # Its first tile shows what the PNG export of seed 0 holds (sRGB, not linear light).
    marble = texgraph.load(GRAPHS / "marble.json")
    marble.set("turb.seed", 0)
    marble.export(tmp_path / "seed0.png", size=256)
    exported = np.asarray(Image.open(tmp_path / "seed0.png").convert("RGB"))
    shown = np.asarray(sheet.convert("RGB"))[:256, :256]
    assert np.array_equal(shown, exported)
    frames = sorted(tmp_path.glob("fire_*.png"))
    assert len(frames) == 8


# Pipelines: batches, regions and stitching, progress, the seed rule.

def test_batch_writes_what_the_cli_batch_writes_and_skips_what_is_up_to_date(tmp_path):
    for name in ["py", "cli"]:
        (tmp_path / name).mkdir()
        (tmp_path / name / "m.json").write_text(json.dumps({"jobs": [
            {"graph": str(GRAPHS / "marble.json"), "seeds": {"from": 0, "count": 5},
             "sizes": [24], "name": "out/marble_{seed}.png"},
            {"graph": str(GRAPHS / "brick_wall.json"), "sizes": [16], "preset": "gltf",
             "name": "mat/{graph}"},
        ]}))
    events = []
    summary = texgraph.batch(tmp_path / "py" / "m.json", progress=events.append)
    assert summary == {"jobs": 6, "done": 6, "rendered": 6, "up_to_date": 0, "failed": 0,
                       "files": 5 + len(os.listdir(tmp_path / "py" / "mat" / "brick_wall")),
                       "errors": []}
    assert sorted(e["job"] for e in events if e["event"] == "start") == list(range(6))
    done = [e for e in events if e["event"] == "done"]
    assert len(done) == 6 and all(e["seconds"] >= 0 for e in done)
    assert cli("batch", "m.json", cwd=tmp_path / "cli").returncode == 0
    for folder in ["out", "mat/brick_wall"]:
        names = sorted(os.listdir(tmp_path / "cli" / folder))
        assert names == sorted(os.listdir(tmp_path / "py" / folder))
        for name in names:
            assert (tmp_path / "py" / folder / name).read_bytes() == \
                (tmp_path / "cli" / folder / name).read_bytes(), name
    # The CLI's stamps are the module's: each sees the other's jobs up to date.
    again = texgraph.batch(tmp_path / "cli" / "m.json")
    assert (again["up_to_date"], again["rendered"], again["done"], again["files"]) == (6, 0, 6, 0)
    half = texgraph.batch(tmp_path / "py" / "m.json", shard=(1, 2), force=True)
    assert (half["jobs"], half["rendered"]) == (3, 3)


def test_batch_reports_failures_and_refuses_bad_manifests(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "m_2.png").mkdir()  # a folder where job 1's file goes
    manifest = tmp_path / "m.json"
    manifest.write_text(json.dumps({"jobs": [
        {"graph": str(GRAPHS / "marble.json"), "seeds": [1, 2, 3], "sizes": [8],
         "name": "out/m_{seed}.png"}]}))
    events = []
    summary = texgraph.batch(manifest, progress=events.append)
    assert (summary["rendered"], summary["failed"]) == (2, 1)
    assert "m.json: jobs[0] (job 1, " in summary["errors"][0]
    assert "a folder is in the way" in summary["errors"][0]
    assert [e["error"] for e in events if e["event"] == "failed"] == summary["errors"]
    manifest.write_text(json.dumps({"jobs": [{"graph": str(GRAPHS / "marble.json"),
                                              "sizes": [0]}]}))
    with pytest.raises(ValueError) as e:
        texgraph.batch(manifest)
    assert "m.json: jobs[0]: field 'sizes', entry 0" in str(e.value)
    with pytest.raises(ValueError):
        texgraph.batch(manifest, shard=(2, 2))


def test_a_progress_callback_that_raises_stops_the_batch(tmp_path):
    manifest = tmp_path / "m.json"
    manifest.write_text(json.dumps({"jobs": [
        {"graph": str(GRAPHS / "eroded_terrain.json"), "seeds": {"from": 0, "count": 50},
         "sizes": [256], "name": "out/{seed}.png"}]}))

    def stop(event):
        if event["event"] == "done":
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        texgraph.batch(manifest, progress=stop)
    written = list((tmp_path / "out").glob("*.png"))
    assert 1 <= len(written) < 50
    assert not list((tmp_path / "out").glob(".*.tmp"))


def test_regions_exported_and_stitched_are_the_whole_export(tmp_path):
    graph = texgraph.load(GRAPHS / "eroded_terrain.json")
    graph.export(tmp_path / "whole.exr", size=(90, 70), output="height")
    regions = [(0, 0, 50, 70), (50, 0, 40, 33), (50, 33, 40, 37)]
    parts = []
    for k, region in enumerate(regions):
        parts.append(tmp_path / f"part{k}.exr")
        graph.export(parts[-1], size=(90, 70), output="height", region=region)
    rows = []
    out = texgraph.stitch(parts, tmp_path / "stitched.exr",
                          progress=lambda done, total: rows.append((done, total)))
    assert out == str(tmp_path / "stitched.exr")
    assert (tmp_path / "stitched.exr").read_bytes() == (tmp_path / "whole.exr").read_bytes()
    assert rows[-1] == (70, 70)
    # The CLI's regions stitch with the module's.
    assert cli("render", GRAPHS / "eroded_terrain.json", "--size", "90x70", "--output",
               "height", "--region", "50,33,40,37", "-o", tmp_path / "cli.exr").returncode == 0
    texgraph.stitch(parts[:2] + [tmp_path / "cli.exr"], tmp_path / "mixed.exr")
    assert (tmp_path / "mixed.exr").read_bytes() == (tmp_path / "whole.exr").read_bytes()
    with pytest.raises(ValueError, match="not inside the 90x70 image"):
        graph.export(tmp_path / "x.exr", size=(90, 70), region=(50, 0, 41, 10))
    with pytest.raises(texgraph.ExportError) as e:
        texgraph.stitch(parts[:2], tmp_path / "gap.exr")
    assert "nothing covers pixel" in str(e.value)
    assert not (tmp_path / "gap.exr").exists()


def test_render_and_export_report_their_rows(tmp_path):
    graph = texgraph.load(GRAPHS / "marble.json")
    seen = []
    graph.render(size=(64, 300), progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1] == (300, 300)
    assert all(total == 300 for _, total in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    seen.clear()
    graph.export(tmp_path / "m.png", size=(64, 300), progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (300, 300)

    def refuse(done, total):
        raise RuntimeError("no more")

    with pytest.raises(RuntimeError, match="no more"):
        texgraph.load(GRAPHS / "eroded_terrain.json").export(
            tmp_path / "t.png", size=4096, progress=refuse)
    assert not (tmp_path / "t.png").exists()
    assert not list(tmp_path.glob(".*.tmp"))


def test_offset_seeds_is_the_batch_seed_rule(tmp_path):
    (tmp_path / "m.json").write_text(json.dumps({"jobs": [
        {"graph": str(GRAPHS / "marble_slab.json"), "seeds": [7], "sizes": [40],
         "name": "b_{seed}.png"}]}))
    assert cli("batch", "m.json", cwd=tmp_path).returncode == 0
    graph = texgraph.load(GRAPHS / "marble_slab.json")
    graph.offset_seeds(7)
    graph.export(tmp_path / "py.png", size=40)
    assert (tmp_path / "py.png").read_bytes() == (tmp_path / "b_7.png").read_bytes()
    saved = texgraph.load(GRAPHS / "marble_slab.json")
    saved.offset_seeds(0)
    assert np.array_equal(saved.render(size=32),
                          texgraph.load(GRAPHS / "marble_slab.json").render(size=32))


def test_formulas_set_render_and_refuse_as_on_the_cli(tmp_path):
    graph = texgraph.load(GRAPHS / "terracotta_hexagons.json")
    expression = "let t = a * 0.5 + b * 0.5;\nsmoothstep(0.2, 0.8, t)"
    graph.set("hex_height.p1", 5)
    graph.set("height.expression", expression)
    ours = graph.render(size=64, output="height")
    theirs = cli_exr(tmp_path, GRAPHS / "terracotta_hexagons.json", "--size", "64",
                     "--output", "height", "--set", "hex_height.p1=5",
                     "--set", f"height.expression={expression}")
    assert same_bits(ours, theirs)
    with pytest.raises(texgraph.GraphError) as e:
        graph.set("height.expression", "sn(a)")
    assert (e.value.node, e.value.field) == ("height", "expression")
    assert 'column 1: unknown function "sn" (did you mean "sin"?)' in str(e.value)
    # The formula node is in the registry's list, with its params.
    formula = next(n for n in texgraph.nodes() if n["id"] == "formula")
    assert {"expression", "p1", "p4_max"} <= {p["param"] for p in formula["params"]}
