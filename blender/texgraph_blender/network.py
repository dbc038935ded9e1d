"""The shader network a graph's maps make: a Principled BSDF fed by an image texture per
output, each in the color space its usage says (base color and emissive sRGB, the rest
Non-Color), the normal through a Normal Map node (tangent space, OpenGL convention, as
texgraph writes and Blender reads), the height through a Displacement node, occlusion
multiplied into the base color (as Node Wrangler's texture setup does), opacity into
alpha, and one Mapping node, whose scale is the tiling, before every texture."""

import bpy

# The color space Blender reads each of texgraph's encodings in.
_COLOR_SPACE = {"srgb": "sRGB", "as_rendered": "sRGB", "linear": "Non-Color"}


def _input(node, *names):
    """The first of `names` that `node` has as an input (sockets were renamed in 4.0)."""
    for name in names:
        if name in node.inputs:
            return node.inputs[name]
    raise KeyError(f"{node.name} has none of the inputs {names}")


def _typed(sockets, name, kind):
    """The socket called `name` of type `kind` (the Mix node has one per data type)."""
    return next(s for s in sockets if s.name == name and s.type == kind)


def color_space(output):
    """The color space Blender reads output `output`'s map in."""
    return _COLOR_SPACE.get(output["encoding"], "Non-Color")


def title(output):
    """What a map is, for node labels: "Roughness (Non-Color)"."""
    # texgraph's name for the usage; a plain image goes by its output's name.
    name = output["name"] if output["usage"] == "color" else output["label"]
    return f"{name} ({color_space(output)})"


def build(material, described, images):
    """Replaces `material`'s nodes with the network of `described`'s outputs (as
    `texgraph params --json` describes them), reading `images` (output name → image)."""
    material.use_nodes = True
    tree = material.node_tree
    nodes, links = tree.nodes, tree.links
    nodes.clear()

    output = nodes.new("ShaderNodeOutputMaterial")
    output.location = (400, 300)
    bsdf = nodes.new("ShaderNodeBsdfPrincipled")
    bsdf.location = (0, 300)
    links.new(bsdf.outputs["BSDF"], output.inputs["Surface"])

    coordinates = nodes.new("ShaderNodeTexCoord")
    coordinates.location = (-1500, 300)
    mapping = nodes.new("ShaderNodeMapping")
    mapping.name = "texgraph tiling"
    mapping.label = "Tiling"
    mapping.location = (-1300, 300)
    tiling = material.texgraph.tiling
    mapping.inputs["Scale"].default_value = (tiling, tiling, 1.0)
    links.new(coordinates.outputs["UV"], mapping.inputs["Vector"])

    frame = nodes.new("NodeFrame")
    frame.label = f"texgraph maps: {described.get('name') or 'graph'}"
    frame.name = "texgraph maps"

    textures = {}
    for row, out in enumerate(described["outputs"]):
        image = images.get(out["name"])
        node = nodes.new("ShaderNodeTexImage")
        node.name = f"texgraph {out['name']}"
        node.label = title(out)
        node.image = image
        node.location = (-1000, 600 - 300 * row)
        node.parent = frame
        links.new(mapping.outputs["Vector"], node.inputs["Vector"])
        textures.setdefault(out["usage"], node)

    def color_of(usage):
        node = textures.get(usage)
        return node.outputs["Color"] if node else None

    base = color_of("basecolor")
    occlusion = color_of("ambient_occlusion")
    if base is not None and occlusion is not None:
        multiply = nodes.new("ShaderNodeMix")
        multiply.data_type = "RGBA"
        multiply.blend_type = "MULTIPLY"
        multiply.label = "Base color × ambient occlusion"
        multiply.location = (-400, 500)
        _typed(multiply.inputs, "Factor", "VALUE").default_value = 1.0
        links.new(base, _typed(multiply.inputs, "A", "RGBA"))
        links.new(occlusion, _typed(multiply.inputs, "B", "RGBA"))
        base = _typed(multiply.outputs, "Result", "RGBA")
    if base is not None:
        links.new(base, _input(bsdf, "Base Color"))
    for usage, socket in (("roughness", "Roughness"), ("metallic", "Metallic")):
        if color_of(usage) is not None:
            links.new(color_of(usage), _input(bsdf, socket))
    if color_of("emissive") is not None:
        links.new(color_of("emissive"), _input(bsdf, "Emission Color", "Emission"))
        if "Emission Strength" in bsdf.inputs:
            bsdf.inputs["Emission Strength"].default_value = 1.0
    if color_of("opacity") is not None:
        links.new(color_of("opacity"), _input(bsdf, "Alpha"))
        # EEVEE blends by alpha only when told to (4.2 renamed the setting).
        if hasattr(material, "surface_render_method"):
            material.surface_render_method = "BLENDED"
        else:
            material.blend_method = "BLEND"
    if color_of("normal") is not None:
        normal_map = nodes.new("ShaderNodeNormalMap")
        normal_map.space = "TANGENT"
        normal_map.label = "Normal map (OpenGL, tangent space)"
        normal_map.location = (-400, 0)
        links.new(color_of("normal"), normal_map.inputs["Color"])
        links.new(normal_map.outputs["Normal"], _input(bsdf, "Normal"))
    if color_of("height") is not None:
        displacement = nodes.new("ShaderNodeDisplacement")
        displacement.label = "Height → displacement"
        displacement.location = (0, -300)
        displacement.inputs["Midlevel"].default_value = 0.5
        displacement.inputs["Scale"].default_value = 0.05
        links.new(color_of("height"), displacement.inputs["Height"])
        links.new(displacement.outputs["Displacement"], output.inputs["Displacement"])


def set_tiling(material):
    """Makes the Mapping node's scale the material's tiling."""
    tree = material.node_tree
    mapping = tree.nodes.get("texgraph tiling") if tree else None
    if mapping is not None:
        t = material.texgraph.tiling
        mapping.inputs["Scale"].default_value = (t, t, 1.0)


def image_for(name, path, space):
    """The image called `name` reading `path` in color space `space`, made if missing. The
    file need not exist yet: it is read when a render has written it."""
    image = bpy.data.images.get(name)
    if image is None:
        image = bpy.data.images.new(name, 1, 1)
    image.source = "FILE"
    image.filepath = path
    image.colorspace_settings.name = space
    return image
