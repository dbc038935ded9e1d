"""texgraph: procedural materials from node graphs, with the engine of the texgraph CLI.

Load a graph, vary its params, render it into NumPy arrays or export it to files byte for
byte as `texgraph render` writes them. Renders release the GIL and stop on Ctrl+C.
"""

from os import PathLike
from typing import Any, Callable, Literal, Optional, TypedDict, Union

import numpy as np
import numpy.typing as npt

__version__: str

#: Every file format of the format table (`texgraph.formats()`).
FormatId = Literal["png", "exr", "tif", "dds", "ktx2", "r16"]

#: Every node type of the registry (`texgraph.nodes()` describes each).
NodeId = Literal[
    "perlin",
    "simplex",
    "value",
    "white_noise",
    "cellular",
    "anisotropic_noise",
    "fbm",
    "ridged",
    "turbulence",
    "wave",
    "checker",
    "shape",
    "bricks",
    "gradient_linear",
    "gradient_radial",
    "scatter",
    "tile_sampler",
    "splatter_circular",
    "coords",
    "transform",
    "warp",
    "directional_warp",
    "pixelate",
    "mirror",
    "symmetry",
    "polar",
    "swirl",
    "make_it_tile",
    "safe_transform",
    "levels",
    "curve",
    "gradient",
    "invert",
    "clamp",
    "brightness_contrast",
    "auto_levels",
    "split",
    "channel_shuffle",
    "merge",
    "grayscale",
    "hsl",
    "threshold",
    "remap",
    "quantize",
    "blend",
    "switch",
    "math",
    "formula",
    "buffer",
    "blur",
    "highpass",
    "sharpen",
    "normal",
    "emboss",
    "edge_detect",
    "slope_blur",
    "hydraulic_erosion",
    "thermal_erosion",
    "terrace",
    "non_uniform_blur",
    "directional_blur",
    "distance",
    "bevel",
    "histogram_select",
    "color_to_mask",
    "flood_fill",
    "fill_to_random",
    "fill_to_color",
    "fill_to_gradient",
    "fill_to_bbox_size",
    "fill_to_position",
    "fill_to_index",
    "shape_splatter",
    "histogram_scan",
    "histogram_range",
    "histogram_shift",
    "ambient_occlusion",
    "curvature",
    "normal_blend",
    "height_blend",
    "normal_invert",
    "image",
    "constant",
    "color",
    "uniform",
    "time",
    "graph_input",
    "output",
]

#: An image size: a side for a square, or (width, height); each 1 to 65536 pixels.
Size = Union[int, tuple[int, int]]

#: Called as `progress(done, total)`: rows of a render, written or stitched.
RowsProgress = Callable[[int, int], object]

class BatchEvent(TypedDict, total=False):
    """What happens to a batch job, as `texgraph batch --log-format json` prints it."""
    event: Literal["start", "done", "up_to_date", "failed"]
    job: int
    graph: str
    #: The files a job writes ("start"), or how many it wrote ("done").
    files: Union[list[str], int]
    seconds: float
    error: str

class BatchSummary(TypedDict):
    jobs: int
    #: Rendered now or up to date.
    done: int
    rendered: int
    up_to_date: int
    failed: int
    files: int
    errors: list[str]

class ParamInfo(TypedDict):
    """A param of a node type."""

    param: str
    #: float, integer, choice, color, text, formula, file, boolean, stops or points.
    kind: str
    default: Any
    #: Numbers' range; None for other kinds.
    min: Optional[float]
    max: Optional[float]
    #: A choice's words; None for other kinds.
    options: Optional[list[str]]
    doc: str

class GraphParam(ParamInfo):
    """A param of a node of a graph, with its value there."""

    node: str
    #: The node's type.
    type: NodeId
    value: Any

class PortInfo(TypedDict, total=False):
    name: str
    #: What the port takes or carries, in words, as docs/nodes.md says it.
    type: str
    #: Whether the node cannot render while the port is open (an output's input).
    required: bool
    #: What the port reads while open: "reads 0", "see description", "must be connected".
    unconnected: str
    doc: str

class NodeInfo(TypedDict):
    """A node type or a built-in library graph: what `texgraph nodes` lists."""

    #: A node type, or `library:NAME` for a library graph (the `file` of a `graph` node).
    id: Union[NodeId, str]
    label: str
    category: str
    doc: str
    inputs: list[PortInfo]
    outputs: list[PortInfo]
    params: list[ParamInfo]
    #: Whether it is a built-in library graph (added as a `graph` node).
    library: bool

class TexgraphError(Exception):
    """Base class of texgraph's own errors."""

class GraphError(TexgraphError):
    """A problem with the graph."""

    #: The node concerned, or None for the whole graph.
    node: Optional[str]
    #: The field (param, input, setting) concerned, or None for the whole node.
    field: Optional[str]
    #: Every problem found, as (node, field, message).
    problems: list[tuple[Optional[str], Optional[str], str]]

class ExportError(TexgraphError):
    """A file that cannot be written or read."""

    path: str

class RenderError(TexgraphError):
    """A render the machine cannot or should not carry out."""

class Graph:
    """A texgraph graph: nodes, their params and outputs."""

    @staticmethod
    def from_json(text: str) -> Graph:
        """A graph from the text of a graph file (JSON)."""
    def to_json(self) -> str:
        """The graph as the text of a graph file, with every `set` applied."""
    @property
    def path(self) -> Optional[str]:
        """The file the graph was loaded from, or None."""
    @property
    def outputs(self) -> list[str]:
        """The names of the graph's outputs, in order."""
    def params(self) -> list[GraphParam]:
        """Every param of every node (a subgraph node's `file` and the params its graph
        exposes), with its value in this graph: what `texgraph params --json` lists."""
    def set(self, key: str, value: Any) -> None:
        """Sets `node.param` as `texgraph render --set node.param=value` does."""
    def render(
        self,
        size: Size = 1024,
        output: Optional[str] = None,
        time: Optional[float] = None,
        threads: Optional[int] = None,
        linear: bool = True,
        progress: Optional[RowsProgress] = None,
    ) -> npt.NDArray[np.float32]:
        """One output as a float32 array (height, width, channels): 1 channel for scalar
        outputs, 4 (RGBA) for colors; with `linear`, base color and emissive in linear
        light as EXR files hold them, else as rendered (as PNGs hold them)."""
    def render_all(
        self,
        size: Size = 1024,
        time: Optional[float] = None,
        threads: Optional[int] = None,
        linear: bool = True,
        progress: Optional[RowsProgress] = None,
    ) -> dict[str, npt.NDArray[np.float32]]:
        """Every output, rendered together as one program, by name."""
    def export(
        self,
        path: Union[str, PathLike[str]],
        size: Size = 1024,
        depth: Optional[Literal[8, 16, 32]] = None,
        output: Optional[str] = None,
        all_outputs: bool = False,
        preset: Optional[str] = None,
        format: Optional[FormatId] = None,
        time: Optional[float] = None,
        threads: Optional[int] = None,
        region: Optional[tuple[int, int, int, int]] = None,
        progress: Optional[RowsProgress] = None,
    ) -> list[str]:
        """Writes files as `texgraph render` does, byte for byte; returns their paths.

        `region=(x, y, w, h)` writes only that part, for `stitch`. Samples outside
        [0, 1] written into an 8- or 16-bit file are clamped, with a `UserWarning` naming
        the file and how many were."""
    def offset_seeds(self, seed: int) -> None:
        """Moves every seed param on by `seed`, wrapping: a batch manifest's seed rule."""
    def __copy__(self) -> Graph: ...
    def __deepcopy__(self, memo: Any) -> Graph: ...

def load(path: Union[str, PathLike[str]]) -> Graph:
    """Reads a graph file."""

def formats() -> list[FormatId]:
    """The ids of the file formats `Graph.export` writes, as its `format` takes them."""

def nodes() -> list[NodeInfo]:
    """Every node type of the registry, then every built-in library graph, as plain data."""

def batch(
    manifest: Union[str, PathLike[str]],
    shard: Optional[tuple[int, int]] = None,
    force: bool = False,
    progress: Optional[Callable[[BatchEvent], object]] = None,
) -> BatchSummary:
    """Runs a batch manifest's jobs as `texgraph batch` does (the same files), skipping
    those up to date unless `force`; `shard=(i, n)` runs every n-th from the i-th."""

def stitch(
    files: list[Union[str, PathLike[str]]],
    out: Union[str, PathLike[str]],
    progress: Optional[RowsProgress] = None,
) -> str:
    """Assembles region files into the whole image, as `texgraph stitch` does."""
