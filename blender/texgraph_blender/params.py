"""A graph's params as Blender properties: floats and integers with their ranges, choices
as menus, booleans, colors and texts, each with its doc as the tooltip, and the values
as `texgraph render --set` takes them.

Which params a graph has is known only once it is loaded, so each graph's params become a
property group class made for them (named by a digest of the params, so the same graph
reuses it) and a pointer property of that name on materials. The params' description
(`texgraph params --json`) is kept in the material, so a saved .blend registers the same
class when it is opened again, and Blender reattaches the values it saved."""

import hashlib
import json
import struct

import bpy

# Kinds Blender can edit; ramps and curves are left to texgraph's editor.
EDITABLE_KINDS = {"float", "integer", "choice", "boolean", "color", "text", "formula", "file"}

# Node types whose params are the material's wiring rather than its look.
WIRING_NODE_TYPES = {"output"}

# Attribute prefix of the pointer properties on materials.
ATTRIBUTE_PREFIX = "texgraph_params_"

_registered = {}


def shown(described):
    """The params of a `texgraph params --json` description that the panels show, in
    order."""
    return [
        p
        for p in described["params"]
        if p["kind"] in EDITABLE_KINDS and p["type"] not in WIRING_NODE_TYPES
    ]


def key_of(described):
    """The digest naming the property group of a description's params."""
    parts = [
        [p["node"], p["param"], p["kind"], p["value"], p["min"], p["max"], p["options"], p["doc"]]
        for p in shown(described)
    ]
    text = json.dumps(parts, sort_keys=True)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def property_name(index):
    """The property of the `index`th shown param."""
    return f"p{index}"


def hex_to_rgba(text):
    """`#rrggbb` or `#rrggbbaa` as four floats in 0..1 (as written: sRGB-encoded)."""
    digits = text.lstrip("#")
    if len(digits) == 6:
        digits += "ff"
    return tuple(int(digits[i : i + 2], 16) / 255.0 for i in range(0, 8, 2))


def rgba_to_hex(rgba):
    """Four floats in 0..1 as `#rrggbb`, or `#rrggbbaa` when not opaque."""
    byte = [max(0, min(255, round(c * 255.0))) for c in rgba]
    text = "#" + "".join(f"{b:02x}" for b in byte[:3])
    return text if byte[3] == 255 else text + f"{byte[3]:02x}"


def _property(p, update):
    kind, value = p["kind"], p["value"]
    common = {"name": p["param"], "description": p["doc"], "update": update}
    if kind == "float":
        return bpy.props.FloatProperty(
            default=float(value), min=p["min"], max=p["max"], precision=3, **common
        )
    if kind == "integer":
        return bpy.props.IntProperty(default=int(value), min=int(p["min"]), max=int(p["max"]), **common)
    if kind == "choice":
        items = [(o, o.replace("_", " ").capitalize(), "") for o in p["options"]]
        return bpy.props.EnumProperty(items=items, default=value, **common)
    if kind == "boolean":
        return bpy.props.BoolProperty(default=bool(value), **common)
    if kind == "color":
        return bpy.props.FloatVectorProperty(
            subtype="COLOR_GAMMA", size=4, min=0.0, max=1.0, default=hex_to_rgba(value), **common
        )
    if kind == "file":
        return bpy.props.StringProperty(default=value, subtype="FILE_PATH", **common)
    return bpy.props.StringProperty(default=value, **common)


def ensure_registered(described, on_change):
    """Registers the property group of a description's params (once per digest) and
    returns the name of its pointer property on materials. A change to a param calls
    `on_change(material)`."""
    key = key_of(described)
    attribute = ATTRIBUTE_PREFIX + key
    if key not in _registered:

        def update(group, context):
            on_change(group.id_data)

        annotations = {
            property_name(i): _property(p, update) for i, p in enumerate(shown(described))
        }
        cls = type(
            "TEXGRAPH_PG_params_" + key,
            (bpy.types.PropertyGroup,),
            {"__annotations__": annotations},
        )
        bpy.utils.register_class(cls)
        setattr(bpy.types.Material, attribute, bpy.props.PointerProperty(type=cls))
        _registered[key] = cls
    return attribute


def unregister_all():
    """Removes every property group made for a graph (the values stay in the materials)."""
    for key, cls in _registered.items():
        attribute = ATTRIBUTE_PREFIX + key
        if hasattr(bpy.types.Material, attribute):
            delattr(bpy.types.Material, attribute)
        bpy.utils.unregister_class(cls)
    _registered.clear()


def _f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def set_text(p, value):
    """The `--set` value of param `p` at Blender's `value`, or None when it is the graph's
    own (then nothing is passed, and texgraph reads the file's value as written)."""
    kind, saved = p["kind"], p["value"]
    if kind == "float":
        return None if _f32(value) == _f32(saved) else f"{_f32(value):.9g}"
    if kind == "integer":
        return None if int(value) == int(saved) else str(int(value))
    if kind == "boolean":
        return None if bool(value) == bool(saved) else ("true" if value else "false")
    if kind == "color":
        text = rgba_to_hex(tuple(value))
        return None if hex_to_rgba(text) == hex_to_rgba(saved) else text
    if kind == "file":
        return None if value == saved else bpy.path.abspath(value)
    return None if value == saved else str(value)


def assignments(material):
    """The `node.param=value` texts of every param of `material`'s graph that differs from
    the file."""
    settings = material.texgraph
    group = getattr(material, settings.params_attribute, None)
    if not settings.params_json or group is None:
        return []
    found = []
    for i, p in enumerate(shown(json.loads(settings.params_json))):
        text = set_text(p, getattr(group, property_name(i)))
        if text is not None:
            found.append(f"{p['node']}.{p['param']}={text}")
    return found
