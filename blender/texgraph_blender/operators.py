"""The add-on's operators: importing a graph as a material, loading one into the active
material, rendering again, a new seed, and the panels' small helpers."""

import json
import os
import random

import bpy
from bpy_extras.io_utils import ImportHelper

from . import cli, jobs, loading
from .properties import SIZES


def _load_into(operator, material, filepath, size):
    try:
        loading.load(material, filepath, size)
    except cli.TexgraphError as e:
        operator.report({"ERROR"}, str(e))
        return False
    return True


class TEXGRAPH_OT_import(bpy.types.Operator, ImportHelper):
    """Import a texgraph graph as a material, its maps rendered beside the .blend"""

    bl_idname = "texgraph.import_graph"
    bl_label = "Import texgraph graph"
    bl_options = {"REGISTER", "UNDO"}

    filename_ext = ".json"
    filter_glob: bpy.props.StringProperty(default="*.json", options={"HIDDEN"})
    size: bpy.props.EnumProperty(name="Resolution", items=SIZES, default="1024")

    def execute(self, context):
        name = os.path.splitext(os.path.basename(self.filepath))[0]
        material = bpy.data.materials.new(name)
        if not _load_into(self, material, self.filepath, int(self.size)):
            bpy.data.materials.remove(material)
            return {"CANCELLED"}
        # On the selected meshes, as a new material imported for them would be.
        for obj in context.selected_objects:
            if obj.type == "MESH":
                if obj.active_material is None or len(obj.material_slots) == 0:
                    obj.data.materials.append(material)
                else:
                    obj.active_material = material
        return {"FINISHED"}


class TEXGRAPH_OT_load(bpy.types.Operator, ImportHelper):
    """Make the active material the material of a texgraph graph"""

    bl_idname = "texgraph.load_graph"
    bl_label = "Load texgraph graph"
    bl_options = {"REGISTER", "UNDO"}

    filename_ext = ".json"
    filter_glob: bpy.props.StringProperty(default="*.json", options={"HIDDEN"})

    def execute(self, context):
        material = getattr(context, "material", None)
        obj = context.active_object
        if material is None:
            if obj is None or obj.type != "MESH":
                self.report({"ERROR"}, "Select a mesh to give the material to")
                return {"CANCELLED"}
            material = bpy.data.materials.new(os.path.splitext(os.path.basename(self.filepath))[0])
            obj.data.materials.append(material)
        return {"FINISHED"} if _load_into(self, material, self.filepath, None) else {"CANCELLED"}


def _material(context):
    material = getattr(context, "material", None)
    if material is None and context.active_object is not None:
        material = context.active_object.active_material
    return material


class TEXGRAPH_OT_render(bpy.types.Operator):
    """Render the material's maps again (after the graph file changed)"""

    bl_idname = "texgraph.render"
    bl_label = "Render maps"

    @classmethod
    def poll(cls, context):
        material = _material(context)
        return material is not None and bool(material.texgraph.params_json)

    def execute(self, context):
        jobs.schedule(_material(context), delay=0.0)
        return {"FINISHED"}


class TEXGRAPH_OT_reload(bpy.types.Operator):
    """Read the graph file again (its params and outputs) and render"""

    bl_idname = "texgraph.reload_graph"
    bl_label = "Reload graph"
    bl_options = {"REGISTER", "UNDO"}

    @classmethod
    def poll(cls, context):
        material = _material(context)
        return material is not None and bool(material.texgraph.graph_path)

    def execute(self, context):
        material = _material(context)
        ok = _load_into(self, material, material.texgraph.graph_path, None)
        return {"FINISHED"} if ok else {"CANCELLED"}


class TEXGRAPH_OT_new_seed(bpy.types.Operator):
    """Vary every noise of the graph at once: a new seed"""

    bl_idname = "texgraph.new_seed"
    bl_label = "New seed"
    bl_options = {"REGISTER", "UNDO"}

    def execute(self, context):
        material = _material(context)
        material.texgraph.seed = random.randrange(1, 100000)
        return {"FINISHED"}


class TEXGRAPH_OT_toggle_node(bpy.types.Operator):
    """Show or hide this node's params"""

    bl_idname = "texgraph.toggle_node"
    bl_label = "Show or hide"
    node: bpy.props.StringProperty()

    def execute(self, context):
        settings = _material(context).texgraph
        shown = set(json.loads(settings.expanded or "[]"))
        shown ^= {self.node}
        settings.expanded = json.dumps(sorted(shown))
        return {"FINISHED"}


class TEXGRAPH_OT_reset(bpy.types.Operator):
    """Set every param back to the graph file's value"""

    bl_idname = "texgraph.reset_params"
    bl_label = "Reset params"
    bl_options = {"REGISTER", "UNDO"}

    def execute(self, context):
        material = _material(context)
        material.property_unset(material.texgraph.params_attribute)
        jobs.params_changed(material)
        return {"FINISHED"}


class TEXGRAPH_OT_report(bpy.types.Operator):
    """Reports texgraph's error in the status bar and the Info log"""

    bl_idname = "texgraph.report"
    bl_label = "texgraph error"
    bl_options = {"INTERNAL"}
    message: bpy.props.StringProperty()

    def execute(self, context):
        self.report({"ERROR"}, self.message)
        return {"FINISHED"}

    def invoke(self, context, event):
        return self.execute(context)


def menu_import(self, context):
    self.layout.operator(TEXGRAPH_OT_import.bl_idname, text="texgraph graph (.json)")


classes = (
    TEXGRAPH_OT_import,
    TEXGRAPH_OT_load,
    TEXGRAPH_OT_render,
    TEXGRAPH_OT_reload,
    TEXGRAPH_OT_new_seed,
    TEXGRAPH_OT_toggle_node,
    TEXGRAPH_OT_reset,
    TEXGRAPH_OT_report,
)


def register():
    for cls in classes:
        bpy.utils.register_class(cls)
    bpy.types.TOPBAR_MT_file_import.append(menu_import)


def unregister():
    bpy.types.TOPBAR_MT_file_import.remove(menu_import)
    for cls in reversed(classes):
        bpy.utils.unregister_class(cls)
