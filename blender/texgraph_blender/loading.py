"""Making a material from a graph: its params as properties, its maps' images in a folder
beside the .blend, its shader network, and the first render."""

import json
import os
import re
import shutil
import uuid

import bpy

from . import cli, jobs, network, params


def _safe(name):
    """`name` as a folder name."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._") or "material"


def maps_folder(material):
    """Where `material`'s maps go: `//texgraph/MATERIAL/` beside a saved .blend (relative,
    so the .blend opens anywhere with its maps), else a temporary folder, moved beside
    the .blend when it is saved."""
    if bpy.data.filepath:
        return f"//texgraph/{_safe(material.name)}/"
    return os.path.join(bpy.app.tempdir or os.path.join(os.path.expanduser("~"), ".cache"), "texgraph", material.texgraph.uid)


def _image_path(material, output_name):
    path = jobs.map_path(material, output_name)
    return bpy.path.relpath(path) if bpy.data.filepath else path


def load(material, graph_path, size=None):
    """Makes `material` the material of the graph at `graph_path` and starts rendering
    its maps. Raises cli.TexgraphError (texgraph's `error:` lines) and leaves the material
    as it was when the graph cannot be read."""
    absolute = bpy.path.abspath(graph_path)
    described = cli.graph_params(jobs.executable(), absolute)
    if not described["outputs"]:
        raise cli.TexgraphError(f"error: {absolute}: the graph has no outputs")
    settings = material.texgraph
    if not settings.uid:
        settings.uid = uuid.uuid4().hex
    settings.graph_path = graph_path
    if size is not None:
        settings.size = str(size)
    settings.params_json = json.dumps(described)
    settings.params_attribute = params.ensure_registered(described, jobs.params_changed)
    # The values of an earlier graph's params mean nothing to this one.
    material.property_unset(settings.params_attribute)
    settings.folder = maps_folder(material)
    settings.error = ""
    images = {}
    base = described.get("name") or jobs.stem(material)
    for out in described["outputs"]:
        name = f"{base}_{out['name']}"
        images[out["name"]] = network.image_for(
            name, _image_path(material, out["name"]), network.color_space(out)
        )
    settings.images_json = json.dumps({k: v.name for k, v in images.items()})
    network.build(material, described, images)
    jobs.schedule(material, delay=0.0)


def reregister_all():
    """Registers the params of every texgraph material of the open file (after a file is
    opened: the values saved with it come back with them)."""
    for material in bpy.data.materials:
        if material.texgraph.params_json:
            material.texgraph.params_attribute = params.ensure_registered(
                json.loads(material.texgraph.params_json), jobs.params_changed
            )


def move_maps_beside(blend_path):
    """Moves the maps of materials made before the .blend was first saved into
    `texgraph/MATERIAL/` beside it, and points their images there, relative to it."""
    start = os.path.dirname(blend_path)
    for material in bpy.data.materials:
        settings = material.texgraph
        if not settings.params_json or settings.folder.startswith("//"):
            continue
        name = _safe(material.name)
        target = os.path.join(start, "texgraph", name)
        os.makedirs(target, exist_ok=True)
        old = bpy.path.abspath(settings.folder)
        for file in os.listdir(old) if os.path.isdir(old) else []:
            shutil.copy2(os.path.join(old, file), os.path.join(target, file))
        settings.folder = f"//texgraph/{name}/"
        for output, image_name in json.loads(settings.images_json or "{}").items():
            image = bpy.data.images.get(image_name)
            if image is not None:
                path = os.path.join(target, f"{jobs.stem(material)}_{output}.png")
                image.filepath = "//" + os.path.relpath(path, start).replace(os.sep, "/")
