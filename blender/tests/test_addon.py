"""The Blender add-on, tested in Blender itself (run by scripts/test-blender.sh):

    blender -b --factory-startup --python-exit-code 1 --python blender/tests/test_addon.py \
        -- REPO TEXGRAPH ADDON_ZIP WORK_DIR

It installs and enables the add-on from its zip, imports two example materials, checks
their shader networks, changes params through the add-on's properties and holds the maps
to `texgraph render --set` byte for byte, breaks a graph and checks the report and the
kept maps, follows the frame of an animated graph, and renders a sphere in Cycles whose
mean color must be what the base color and occlusion maps predict."""

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys

import bpy

REPO, TEXGRAPH, ADDON_ZIP, WORK = sys.argv[sys.argv.index("--") + 1 :]
SIZE = 256


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def cli_render(graph, output, out, *extra):
    """`texgraph render` of one output at SIZE, as a user would run it."""
    subprocess.run(
        [TEXGRAPH, "render", graph, "--output", output, "--size", str(SIZE), "-o", out, *extra],
        check=True,
        capture_output=True,
    )
    with open(out, "rb") as f:
        return f.read()


def read(path):
    with open(path, "rb") as f:
        return f.read()


def linked_from(socket):
    """The node feeding `socket`."""
    check(socket.is_linked, f"{socket.node.name}.{socket.name} is linked")
    return socket.links[0].from_node


def pixels_digest(image):
    image.reload()
    return hashlib.sha1(bytes(memoryview(bytearray(int(v * 255) for v in image.pixels[:])))).hexdigest()


def srgb_to_linear(c):
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


# Installed and enabled as a user installs it: from the zip.
bpy.ops.preferences.addon_install(filepath=ADDON_ZIP, overwrite=True)
bpy.ops.preferences.addon_enable(module="texgraph_blender")
from texgraph_blender import jobs, params  # noqa: E402  (installed just above)

bpy.context.preferences.addons["texgraph_blender"].preferences.executable = TEXGRAPH
os.makedirs(WORK, exist_ok=True)
bpy.ops.wm.save_as_mainfile(filepath=os.path.join(WORK, "scene.blend"))
print("texgraph add-on enabled; Blender", bpy.app.version_string)

# --- brick_wall: imported onto the selected cube.
brick_graph = os.path.join(REPO, "graphs", "brick_wall.json")
bpy.ops.texgraph.import_graph(filepath=brick_graph, size=str(SIZE))
brick = bpy.data.materials["brick_wall"]
check(jobs.wait(brick), f"brick_wall renders: {brick.texgraph.error}")
check(bpy.data.objects["Cube"].active_material == brick, "the selected cube has the material")
nodes = brick.node_tree.nodes
bsdf = next(n for n in nodes if n.type == "BSDF_PRINCIPLED")
output = next(n for n in nodes if n.type == "OUTPUT_MATERIAL")


def texture(name):
    node = nodes[f"texgraph {name}"]
    check(node.type == "TEX_IMAGE" and node.image is not None, f"{name} has an image")
    return node


expected_space = {
    "basecolor": "sRGB",
    "normal": "Non-Color",
    "roughness": "Non-Color",
    "height": "Non-Color",
    "ambient_occlusion": "Non-Color",
}
for name, space in expected_space.items():
    image = texture(name).image
    check(image.colorspace_settings.name == space, f"{name} is read as {space}")
    check(image.filepath == f"//texgraph/brick_wall/brick_wall_{name}.png", f"{name}: {image.filepath}")
    check(tuple(image.size) == (SIZE, SIZE), f"{name} is loaded at {SIZE}²: {tuple(image.size)}")
    mapping = linked_from(texture(name).inputs["Vector"])
    check(mapping.type == "MAPPING", f"{name} reads through the Mapping node")
# Base color times occlusion into Base Color; roughness straight in; the normal through a
# tangent-space Normal Map; the height through a Displacement node.
mix = linked_from(bsdf.inputs["Base Color"])
check(mix.type == "MIX" and mix.blend_type == "MULTIPLY", "base color × occlusion")
fed = {linked_from(s).name for s in mix.inputs if s.is_linked}
check(fed == {"texgraph basecolor", "texgraph ambient_occlusion"}, f"the multiply reads {fed}")
check(linked_from(bsdf.inputs["Roughness"]).name == "texgraph roughness", "roughness")
check(not bsdf.inputs["Metallic"].is_linked, "brick_wall has no metallic map")
normal_map = linked_from(bsdf.inputs["Normal"])
check(normal_map.type == "NORMAL_MAP" and normal_map.space == "TANGENT", "a tangent Normal Map")
check(linked_from(normal_map.inputs["Color"]).name == "texgraph normal", "the normal map's image")
displacement = linked_from(output.inputs["Displacement"])
check(displacement.type == "DISPLACEMENT", "a Displacement node")
check(linked_from(displacement.inputs["Height"]).name == "texgraph height", "height → displacement")

maps = os.path.join(WORK, "texgraph", "brick_wall")
cli_dir = os.path.join(WORK, "cli")
os.makedirs(cli_dir, exist_ok=True)
check(
    read(os.path.join(maps, "brick_wall_basecolor.png"))
    == cli_render(brick_graph, "basecolor", os.path.join(cli_dir, "as_saved.png")),
    "the imported base color is the CLI's",
)

# --- Params through the add-on's properties: a float, a choice and a color, then the seed.
described = json.loads(brick.texgraph.params_json)
group = getattr(brick, brick.texgraph.params_attribute)


def index_of(node, param):
    return next(
        i for i, p in enumerate(params.shown(described)) if p["node"] == node and p["param"] == param
    )


before = pixels_digest(texture("basecolor").image)
setattr(group, params.property_name(index_of("wall", "rows")), 9.0)
setattr(group, params.property_name(index_of("grain", "basis")), "simplex")
setattr(group, params.property_name(index_of("pit_tint", "color")), (1.0, 0.0, 0.2, 1.0))
check(jobs.wait(brick), f"the edited brick_wall renders: {brick.texgraph.error}")
sets = ["--set", "wall.rows=9", "--set", "grain.basis=simplex", "--set", "pit_tint.color=#ff0033"]
for name in ("basecolor", "normal", "height"):
    check(
        read(os.path.join(maps, f"brick_wall_{name}.png"))
        == cli_render(brick_graph, name, os.path.join(cli_dir, f"set_{name}.png"), *sets),
        f"the {name} map after the edits is `texgraph render --set`'s, byte for byte",
    )
check(pixels_digest(texture("basecolor").image) != before, "Blender shows the new base color")
# A change while a render runs supersedes it: the running render (at 4096², seconds
# long) is stopped, and the maps are the newer settings'.
brick.texgraph.size = "4096"
job = jobs._jobs[brick.texgraph.uid]
jobs._step(brick, job, job.due)
first = job.process
check(first is not None and first.poll() is None, "the 4096² render runs")
brick.texgraph.size = str(SIZE)
brick.texgraph.seed = 3
jobs._step(brick, job, job.due)
check(first._process.returncode == -signal.SIGTERM, f"it was stopped: {first._process.returncode}")
check(jobs.wait(brick), f"the reseeded brick_wall renders: {brick.texgraph.error}")
check(tuple(texture("roughness").image.size) == (SIZE, SIZE), "no 4096² map was written")
check(
    read(os.path.join(maps, "brick_wall_roughness.png"))
    == cli_render(brick_graph, "roughness", os.path.join(cli_dir, "seed.png"), *sets, "--seed", "3"),
    "the seed is `texgraph render --seed`'s",
)
print("brick_wall: network, params and seed checked")

# --- rusted_metal: the metallic map is non-color data into Metallic.
bpy.ops.texgraph.import_graph(filepath=os.path.join(REPO, "graphs", "rusted_metal.json"), size=str(SIZE))
rust = bpy.data.materials["rusted_metal"]
check(jobs.wait(rust), f"rusted_metal renders: {rust.texgraph.error}")
rust_bsdf = next(n for n in rust.node_tree.nodes if n.type == "BSDF_PRINCIPLED")
metallic = linked_from(rust_bsdf.inputs["Metallic"])
check(metallic.name == "texgraph metallic", "metallic map → Metallic")
check(metallic.image.colorspace_settings.name == "Non-Color", "metallic is Non-Color")
print("rusted_metal: network checked")

# --- A graph that breaks: texgraph's error is reported and the last good maps stay.
broken_graph = os.path.join(WORK, "broken.json")
shutil.copy(brick_graph, broken_graph)
bpy.ops.texgraph.import_graph(filepath=broken_graph, size="128")
broken = bpy.data.materials["broken"]
check(jobs.wait(broken), f"the graph renders before it breaks: {broken.texgraph.error}")
good_file = read(os.path.join(WORK, "texgraph", "broken", "broken_basecolor.png"))
broken_image = broken.node_tree.nodes["texgraph basecolor"].image
good_pixels = pixels_digest(broken_image)
with open(broken_graph, "w") as f:
    f.write('{ "format": "texgraph", "version": 4, "nodes": [ { "id": "n", "type": "no_such_node" } ] }')
jobs.schedule(broken, delay=0.0)
check(not jobs.wait(broken), "the broken graph fails")
error = broken.texgraph.error
check(error.startswith("error:") and "no_such_node" in error, f"texgraph's error is kept: {error!r}")
check(jobs.reports and jobs.reports[-1] == error, f"and reported: {jobs.reports[-1:]}")
check("Traceback" not in error, "no traceback")
check(read(os.path.join(WORK, "texgraph", "broken", "broken_basecolor.png")) == good_file, "the map file stays")
check(pixels_digest(broken_image) == good_pixels, "the image stays")
print("broken graph: reported, maps kept:", error)

# --- An animated graph follows the scene's frame.
fire_graph = os.path.join(REPO, "graphs", "fire.json")
bpy.ops.texgraph.import_graph(filepath=fire_graph, size="128")
fire = bpy.data.materials["fire"]
check(jobs.wait(fire), f"fire renders: {fire.texgraph.error}")
fire.texgraph.follow_frame = True
scene = bpy.context.scene
scene.render.fps, scene.render.fps_base = 24, 1.0
scene.frame_set(30)
check(jobs.wait(fire), f"fire renders frame 30: {fire.texgraph.error}")
subprocess.run(
    [TEXGRAPH, "render", fire_graph, "--size", "128", "--time", "1.25", "-o", os.path.join(cli_dir, "fire.png")],
    check=True,
    capture_output=True,
)
check(
    read(os.path.join(WORK, "texgraph", "fire", "fire_color.png")) == read(os.path.join(cli_dir, "fire.png")),
    "frame 30 at 24 fps is `texgraph render --time 1.25`",
)
print("fire: follows the frame")

# --- Cycles: a sphere with the brick material under a uniform white sky. A diffuse
# surface lit evenly from every direction reflects its albedo, so the sphere's mean color
# is the mean of base color × occlusion, plus a little specular reflection.
for obj in list(bpy.data.objects):
    if obj.type == "MESH":
        bpy.data.objects.remove(obj)
bpy.ops.mesh.primitive_uv_sphere_add(segments=64, ring_count=32, radius=1.0)
sphere = bpy.context.active_object
bpy.ops.object.shade_smooth()
sphere.data.materials.append(brick)
camera = bpy.data.objects["Camera"]
camera.location = (0.0, -4.0, 0.0)
camera.rotation_euler = (1.5707963, 0.0, 0.0)
camera.data.lens = 50
for light in [o for o in bpy.data.objects if o.type == "LIGHT"]:
    bpy.data.objects.remove(light)
world = scene.world
world.use_nodes = True
background = world.node_tree.nodes["Background"]
background.inputs["Color"].default_value = (1.0, 1.0, 1.0, 1.0)
background.inputs["Strength"].default_value = 1.0
scene.render.engine = "CYCLES"
scene.cycles.device = "CPU"
scene.cycles.samples = 16
scene.cycles.use_denoising = False
scene.render.resolution_x = scene.render.resolution_y = 128
scene.render.resolution_percentage = 100
scene.render.film_transparent = True
scene.view_settings.view_transform = "Standard"
scene.view_settings.look = "None"
scene.render.image_settings.file_format = "PNG"
scene.render.image_settings.color_mode = "RGBA"


def sphere_mean(name):
    """The mean linear color of the sphere's pixels in a Cycles render."""
    path = os.path.join(WORK, name)
    scene.render.filepath = path
    bpy.ops.render.render(write_still=True)
    pixels = bpy.data.images.load(path).pixels[:]
    inside = [pixels[i : i + 4] for i in range(0, len(pixels), 4) if pixels[i + 3] > 0.999]
    check(len(inside) > 128 * 128 // 4, f"the sphere fills the frame's middle: {len(inside)} pixels")
    return [sum(srgb_to_linear(p[c]) for p in inside) / len(inside) for c in range(3)]


seen = sphere_mean("sphere.png")
# The specular part, from the same sphere with a black base color: what the sky's
# reflection adds whatever the albedo.
black = brick.copy()
black_bsdf = next(n for n in black.node_tree.nodes if n.type == "BSDF_PRINCIPLED")
for link in list(black_bsdf.inputs["Base Color"].links):
    black.node_tree.links.remove(link)
black_bsdf.inputs["Base Color"].default_value = (0.0, 0.0, 0.0, 1.0)
sphere.data.materials[0] = black
specular = sphere_mean("sphere_black.png")
sphere.data.materials[0] = brick
base = texture("basecolor").image
occlusion = texture("ambient_occlusion").image
base_pixels, ao_pixels = base.pixels[:], occlusion.pixels[:]
count = len(base_pixels) // 4
predicted = [
    sum(srgb_to_linear(base_pixels[4 * i + c]) * ao_pixels[4 * i] for i in range(count)) / count
    + specular[c]
    for c in range(3)
]
print("sphere mean (linear):", [round(v, 4) for v in seen], "predicted:", [round(v, 4) for v in predicted])
for c in range(3):
    check(
        abs(seen[c] - predicted[c]) <= 0.005 + 0.1 * predicted[c],
        f"channel {c}: the sphere's mean {seen[c]:.4f} is near the maps' {predicted[c]:.4f}",
    )
check(seen[0] > seen[2], "bricks are redder than they are blue")
bpy.ops.wm.save_mainfile()
print("blender add-on: all checks passed")
