"""Renders every example material on a sphere in Cycles through the Blender add-on, for
the README's sheet (scripts/blender-material-sheet.sh runs it):

    blender -b --factory-startup --python scripts/blender/material_sheet.py -- \
        REPO TEXGRAPH ADDON_ZIP OUT_DIR

Each graph with a base color output is imported as a user imports it (File › Import), its
maps rendered at 512², and the sphere rendered at 256² under a soft sky and a sun."""

import glob
import json
import os
import subprocess
import sys

import bpy

REPO, TEXGRAPH, ADDON_ZIP, OUT = sys.argv[sys.argv.index("--") + 1 :]

bpy.ops.preferences.addon_install(filepath=ADDON_ZIP, overwrite=True)
bpy.ops.preferences.addon_enable(module="texgraph_blender")
from texgraph_blender import jobs  # noqa: E402  (installed just above)

bpy.context.preferences.addons["texgraph_blender"].preferences.executable = TEXGRAPH
os.makedirs(OUT, exist_ok=True)
bpy.ops.wm.save_as_mainfile(filepath=os.path.join(OUT, "sheet.blend"))

scene = bpy.context.scene
for obj in list(bpy.data.objects):
    if obj.type in {"MESH", "LIGHT"}:
        bpy.data.objects.remove(obj)
bpy.ops.mesh.primitive_uv_sphere_add(segments=96, ring_count=48, radius=1.0)
sphere = bpy.context.active_object
bpy.ops.object.shade_smooth()
camera = bpy.data.objects["Camera"]
camera.location = (0.0, -3.6, 0.0)
camera.rotation_euler = (1.5707963, 0.0, 0.0)
bpy.ops.object.light_add(type="SUN", rotation=(0.9, 0.2, -0.6))
bpy.context.active_object.data.energy = 3.0
world = scene.world
world.use_nodes = True
background = world.node_tree.nodes["Background"]
background.inputs["Color"].default_value = (0.55, 0.6, 0.7, 1.0)
background.inputs["Strength"].default_value = 0.6
scene.render.engine = "CYCLES"
scene.cycles.device = "CPU"
scene.cycles.samples = 48
scene.cycles.use_denoising = False
scene.render.resolution_x = scene.render.resolution_y = 256
scene.render.film_transparent = False
scene.view_settings.view_transform = "Filmic"

for graph in sorted(glob.glob(os.path.join(REPO, "graphs", "*.json"))):
    described = json.loads(
        subprocess.run([TEXGRAPH, "params", graph, "--json"], check=True, capture_output=True, text=True).stdout
    )
    # Materials: graphs with a base color (the others are height maps and images).
    if "basecolor" not in {o["usage"] for o in described["outputs"]}:
        continue
    name = os.path.splitext(os.path.basename(graph))[0]
    bpy.ops.texgraph.import_graph(filepath=graph, size="512")
    material = bpy.data.materials[name]
    if not jobs.wait(material):
        raise SystemExit(f"{name}: {material.texgraph.error}")
    sphere.data.materials.clear()
    sphere.data.materials.append(material)
    scene.render.filepath = os.path.join(OUT, f"{name}.png")
    bpy.ops.render.render(write_still=True)
    print(f"rendered {name}")
