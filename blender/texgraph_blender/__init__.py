"""texgraph in Blender: a texgraph graph as a live material. The add-on runs the
`texgraph` command (no compiled code inside Blender): it asks it for the graph's params
and outputs, renders the maps into a folder beside the .blend, builds a Principled BSDF
network from them, and renders again in the background as params change."""

bl_info = {
    "name": "texgraph",
    "author": "texgraph",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File › Import › texgraph graph; Properties › Material › texgraph; 3D view sidebar › texgraph",
    "description": "Procedural materials from texgraph graphs, with their params as live properties",
    "category": "Material",
}

from . import handlers, jobs, operators, panels, params, properties

_modules = (properties, operators, panels, handlers)


def register():
    for module in _modules:
        module.register()


def unregister():
    jobs.cancel_all()
    for module in reversed(_modules):
        module.unregister()
    params.unregister_all()
