"""The texgraph panels: in the material properties and in the 3D view's sidebar, the
graph, its render settings and its params node by node."""

import json
import textwrap

import bpy

from . import params

# Params with a range this wide are typed or dragged, not slid.
_SLIDER_SPAN = 1000.0


def _node_title(p):
    return f"{p['label']} ({p['node']})" if p.get("label") else f"{p['node']} ({p['type']})"


def _error_lines(error, graph_path, width):
    """texgraph's error lines, without the graph file's path (the panel shows it above),
    wrapped to `width` characters."""
    prefix = f"error: {bpy.path.abspath(graph_path)}: "
    lines = []
    for line in error.splitlines():
        if line.startswith(prefix):
            line = line[len(prefix) :]
        lines += textwrap.wrap(line, width) or [""]
    return lines


def draw(layout, material, width=40):
    """Draws `material`'s texgraph settings and params into `layout`, whose lines hold
    about `width` characters."""
    settings = material.texgraph
    if not settings.params_json:
        layout.operator("texgraph.load_graph", icon="FILEBROWSER")
        return
    described = json.loads(settings.params_json)
    row = layout.row(align=True)
    row.prop(settings, "graph_path", text="")
    row.operator("texgraph.reload_graph", text="", icon="FILE_REFRESH")

    row = layout.row(align=True)
    row.prop(settings, "size", text="")
    row.prop(settings, "seed")
    row.operator("texgraph.new_seed", text="", icon="FILE_REFRESH")
    layout.prop(settings, "tiling")
    if described.get("animated"):
        layout.prop(settings, "follow_frame")

    if settings.rendering:
        layout.label(text=f"Rendering… {settings.progress * 100:.0f}%", icon="RENDER_ANIMATION")
    elif settings.error:
        box = layout.box()
        box.label(text="Render failed:", icon="ERROR")
        for line in _error_lines(settings.error, settings.graph_path, width):
            box.label(text=line)
        box.label(text="The last good maps stay.")
    elif settings.status:
        layout.label(text=settings.status, icon="CHECKMARK")
    row = layout.row(align=True)
    row.operator("texgraph.render", text="Render", icon="RENDER_STILL")
    row.operator("texgraph.reset_params", text="Reset", icon="LOOP_BACK")

    group = getattr(material, settings.params_attribute, None)
    if group is None:
        return
    layout.prop(settings, "filter", icon="VIEWZOOM", text="")
    wanted = settings.filter.strip().lower()
    expanded = set(json.loads(settings.expanded or "[]"))
    box, node = None, None
    for i, p in enumerate(params.shown(described)):
        title = _node_title(p)
        if wanted and wanted not in f"{title} {p['param']}".lower():
            continue
        if p["node"] != node:
            node = p["node"]
            box = layout.box()
            # While filtering every match is shown.
            is_open = bool(wanted) or node in expanded
            header = box.row()
            toggle = header.operator(
                "texgraph.toggle_node",
                text=title,
                icon="DISCLOSURE_TRI_DOWN" if is_open else "DISCLOSURE_TRI_RIGHT",
                emboss=False,
            )
            toggle.node = node
        if not is_open:
            continue
        slider = p["min"] is not None and p["max"] - p["min"] <= _SLIDER_SPAN
        box.prop(group, params.property_name(i), slider=slider)


class MATERIAL_PT_texgraph(bpy.types.Panel):
    bl_label = "texgraph"
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "material"

    @classmethod
    def poll(cls, context):
        return context.object is not None and context.object.type == "MESH"

    def draw(self, context):
        material = context.material
        if material is None:
            self.layout.operator("texgraph.load_graph", icon="FILEBROWSER")
            return
        draw(self.layout, material, _characters(context))


class VIEW3D_PT_texgraph(bpy.types.Panel):
    bl_label = "texgraph"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "texgraph"

    @classmethod
    def poll(cls, context):
        obj = context.active_object
        return obj is not None and obj.type == "MESH"

    def draw(self, context):
        material = context.active_object.active_material
        if material is None:
            self.layout.operator("texgraph.load_graph", icon="FILEBROWSER")
            return
        draw(self.layout, material, _characters(context))


def _characters(context):
    """About how many characters a line of the panel's region holds."""
    scale = context.preferences.system.ui_scale
    return max(20, int(context.region.width / (7.5 * scale)) - 4)


classes = (MATERIAL_PT_texgraph, VIEW3D_PT_texgraph)


def register():
    for cls in classes:
        bpy.utils.register_class(cls)


def unregister():
    for cls in reversed(classes):
        bpy.utils.unregister_class(cls)
