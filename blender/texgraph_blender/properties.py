"""What the add-on keeps: its preferences, and each material's graph and render settings."""

import bpy

from . import jobs, network

SIZES = [(str(s), f"{s} × {s}", f"Render the maps at {s} × {s} pixels") for s in (128, 256, 512, 1024, 2048, 4096)]


def _render_soon(settings, context):
    jobs.params_changed(settings.id_data)


def _frame_followed(settings, context):
    if settings.follow_frame:
        jobs.params_changed(settings.id_data)


def _tiling(settings, context):
    network.set_tiling(settings.id_data)


class TexgraphPreferences(bpy.types.AddonPreferences):
    bl_idname = __package__

    executable: bpy.props.StringProperty(
        name="texgraph command",
        description="The texgraph executable; empty: `texgraph` found on PATH",
        subtype="FILE_PATH",
    )

    def draw(self, context):
        layout = self.layout
        layout.prop(self, "executable")
        from . import cli

        try:
            found = cli.find_executable(self.executable)
            layout.label(text=f"Using {found}", icon="CHECKMARK")
        except cli.TexgraphError as e:
            layout.label(text=str(e), icon="ERROR")


class TexgraphMaterial(bpy.types.PropertyGroup):
    """A material made from a texgraph graph."""

    uid: bpy.props.StringProperty(description="Which material a background render is for")
    graph_path: bpy.props.StringProperty(
        name="Graph", description="The texgraph graph file the maps are rendered from", subtype="FILE_PATH"
    )
    folder: bpy.props.StringProperty(
        name="Maps folder", description="Where the maps are written", subtype="DIR_PATH"
    )
    params_json: bpy.props.StringProperty(description="`texgraph params --json` of the graph")
    params_attribute: bpy.props.StringProperty(description="The property holding the params")
    images_json: bpy.props.StringProperty(description="Output name → image name")
    size: bpy.props.EnumProperty(
        name="Resolution", items=SIZES, default="1024", update=_render_soon,
        description="The size of the maps",
    )
    seed: bpy.props.IntProperty(
        name="Seed",
        description="Varies every noise of the graph at once (0: the graph as saved)",
        min=0,
        max=2**31 - 1,
        update=_render_soon,
    )
    follow_frame: bpy.props.BoolProperty(
        name="Follow the frame",
        description="Render the maps at the scene's current frame's time (for graphs that move with time)",
        update=_frame_followed,
    )
    tiling: bpy.props.FloatProperty(
        name="Tiling", description="How many times the maps repeat across the UVs",
        default=1.0, min=0.001, soft_max=64.0, update=_tiling,
    )
    filter: bpy.props.StringProperty(
        name="Filter", description="Show only the params whose node or name holds this text",
        options={"TEXTEDIT_UPDATE"},
    )
    expanded: bpy.props.StringProperty(description="The nodes whose params are shown")
    status: bpy.props.StringProperty()
    error: bpy.props.StringProperty()
    rendering: bpy.props.BoolProperty()
    progress: bpy.props.FloatProperty(min=0.0, max=1.0, subtype="FACTOR")


classes = (TexgraphPreferences, TexgraphMaterial)


def register():
    for cls in classes:
        bpy.utils.register_class(cls)
    bpy.types.Material.texgraph = bpy.props.PointerProperty(type=TexgraphMaterial)


def unregister():
    del bpy.types.Material.texgraph
    for cls in reversed(classes):
        bpy.utils.unregister_class(cls)
