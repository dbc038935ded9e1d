"""What the add-on does when Blender opens or saves a file, undoes, or changes frame."""

import bpy
from bpy.app.handlers import persistent

from . import jobs, loading

# Whether a final render (F12) is under way: its frames' maps are rendered before the
# frame is, and waited for.
_final_render = False


@persistent
def _loaded(*_):
    loading.reregister_all()


@persistent
def _saving(*args):
    path = args[0] if args and isinstance(args[0], str) and args[0] else bpy.data.filepath
    if path:
        loading.move_maps_beside(path)


@persistent
def _undone(*_):
    jobs.rerender_if_stale()


@persistent
def _frame_changed(scene, *_):
    for material in bpy.data.materials:
        settings = material.texgraph
        if not (settings.follow_frame and settings.params_json):
            continue
        if _final_render:
            jobs.render_now(material)
        else:
            jobs.schedule(material, delay=0.0)


@persistent
def _render_started(*_):
    global _final_render
    _final_render = True


@persistent
def _render_ended(*_):
    global _final_render
    _final_render = False


_HANDLERS = (
    (bpy.app.handlers.load_post, _loaded),
    (bpy.app.handlers.save_pre, _saving),
    (bpy.app.handlers.undo_post, _undone),
    (bpy.app.handlers.redo_post, _undone),
    (bpy.app.handlers.frame_change_pre, _frame_changed),
    (bpy.app.handlers.render_init, _render_started),
    (bpy.app.handlers.render_complete, _render_ended),
    (bpy.app.handlers.render_cancel, _render_ended),
)


def register():
    for handlers, handler in _HANDLERS:
        handlers.append(handler)


def unregister():
    for handlers, handler in _HANDLERS:
        if handler in handlers:
            handlers.remove(handler)
