"""Renders in the background: each material's maps are rendered by one `texgraph render`
process at a time, started a moment after the last change (so that dragging a slider
starts one render, not one per step), cancelled when a newer change supersedes it, and
watched from a timer, so Blender's interface never waits. A finished render reloads the
material's images; a failed one reports texgraph's `error:` line and leaves the images
as they were."""

import json
import os
import time

import bpy

from . import cli, network, params

# Seconds between a change and the render it starts.
DEBOUNCE = 0.25

# Seconds between looks at the running renders.
TICK = 0.1


class _Job:
    """What is under way for one material."""

    def __init__(self):
        self.process = None  # the running render, or None
        self.command = None  # its command line
        self.started = 0.0
        self.due = None  # when to start the next render, or None
        # The command of the render whose maps are on disk. Kept here, not in the
        # material, so that undo, which restores the material, cannot make it lie.
        self.rendered = None


_jobs = {}  # material uid → _Job

# Every report made, newest last (for the interface's report operator and for tests).
reports = []


def _material(uid):
    return next((m for m in bpy.data.materials if m.texgraph.uid == uid), None)


def _job(material):
    return _jobs.setdefault(material.texgraph.uid, _Job())


def preferences():
    """The add-on's preferences (None before it is registered)."""
    addon = bpy.context.preferences.addons.get(__package__)
    return addon.preferences if addon else None


def executable():
    """The texgraph command, as the preferences set it or PATH finds it."""
    prefs = preferences()
    return cli.find_executable(prefs.executable if prefs else "")


def folder(material):
    """The absolute folder of `material`'s maps."""
    return bpy.path.abspath(material.texgraph.folder)


def stem(material):
    """The maps' file name stem: the graph's name."""
    return os.path.splitext(os.path.basename(material.texgraph.graph_path))[0]


def map_path(material, output):
    """The file of output `output`'s map."""
    return os.path.join(folder(material), f"{stem(material)}_{output}.png")


def frame_time(scene):
    """The time of the scene's current frame, in seconds."""
    return scene.frame_current * scene.render.fps_base / scene.render.fps


def command(material):
    """The `texgraph render` command that makes `material`'s maps as its settings are."""
    settings = material.texgraph
    described = json.loads(settings.params_json)
    time_ = None
    if settings.follow_frame and described.get("animated"):
        time_ = frame_time(bpy.context.scene)
    return cli.render_command(
        executable(),
        bpy.path.abspath(settings.graph_path),
        os.path.join(folder(material), stem(material)),
        int(settings.size),
        params.assignments(material),
        settings.seed,
        time_,
    )


def _report(message):
    reports.append(message)
    print(f"texgraph: {message}")
    # From a timer there is no window in the context: report in the first window's, so
    # that the message reaches its status bar and the Info log.
    windows = getattr(bpy.context.window_manager, "windows", None) or []
    try:
        if windows:
            with bpy.context.temp_override(window=windows[0]):
                bpy.ops.texgraph.report("INVOKE_DEFAULT", message=message)
        else:
            bpy.ops.texgraph.report("EXEC_DEFAULT", message=message)
    except (RuntimeError, AttributeError):
        pass  # nowhere to report: printed above
    _status_bar("texgraph: " + message.splitlines()[0])


def _status_bar(text):
    """Shows `text` in every window's status bar (None: the usual hints again)."""
    for window in getattr(bpy.context.window_manager, "windows", None) or []:
        try:
            with bpy.context.temp_override(window=window):
                bpy.context.workspace.status_text_set(text)
        except (RuntimeError, AttributeError):
            pass


def _redraw():
    for window in getattr(bpy.context.window_manager, "windows", []):
        for area in window.screen.areas:
            if area.type in {"PROPERTIES", "VIEW_3D"}:
                area.tag_redraw()


def params_changed(material):
    """A param, the size, the seed or the time of `material` changed: render soon."""
    if material.texgraph.params_json:
        schedule(material)


def schedule(material, delay=DEBOUNCE):
    """Renders `material`'s maps `delay` seconds from now (a later call moves it on)."""
    _job(material).due = time.monotonic() + delay
    material.texgraph.status = "Waiting to render…"
    if not bpy.app.timers.is_registered(_tick):
        bpy.app.timers.register(_tick, first_interval=TICK, persistent=True)


def _start(material, job):
    settings = material.texgraph
    if job.process is not None:
        job.process.cancel()  # superseded
        job.process = None
    try:
        job.command = command(material)
        os.makedirs(folder(material), exist_ok=True)
        job.process = cli.RenderProcess(
            job.command, cwd=os.path.dirname(bpy.path.abspath(settings.graph_path))
        )
    except cli.TexgraphError as e:
        _failed(material, str(e))
        return
    job.started = time.monotonic()
    settings.rendering = True
    settings.progress = 0.0
    settings.status = "Rendering…"


def _failed(material, message):
    settings = material.texgraph
    settings.rendering = False
    settings.error = message
    settings.status = "Failed: the maps are the last good render's"
    _report(message)


def _finish(material, job, result):
    ok, message = result
    settings = material.texgraph
    job.process = None
    if not ok:
        _failed(material, message)
        return
    for name in json.loads(settings.images_json or "{}").values():
        image = bpy.data.images.get(name)
        if image is not None:
            image.reload()
    if settings.error:
        _status_bar(None)
    settings.rendering = False
    settings.error = ""
    job.rendered = job.command[1:]
    settings.status = f"Rendered in {time.monotonic() - job.started:.1f} s"
    if material.node_tree is not None:
        material.node_tree.update_tag()


def _step(material, job, now):
    """Moves `material`'s job on: starts a render that is due, finishes one that ended.
    Returns whether anything is still under way."""
    if job.due is not None and now >= job.due:
        job.due = None
        _start(material, job)
    if job.process is not None:
        result = job.process.poll()
        if result is None:
            material.texgraph.progress = job.process.progress
        else:
            _finish(material, job, result)
    return job.process is not None or job.due is not None


def _tick():
    now = time.monotonic()
    busy = False
    for uid, job in list(_jobs.items()):
        material = _material(uid)
        if material is None:
            if job.process is not None:
                job.process.cancel()
            del _jobs[uid]
            continue
        busy |= _step(material, job, now)
    _redraw()
    return TICK if busy else None


def render_now(material):
    """Renders `material`'s maps at once, waiting for them: for a frame of a final
    render, and for scripts and tests. Returns whether it succeeded."""
    job = _job(material)
    job.due = time.monotonic()
    _step(material, job, job.due)
    return wait(material)


def wait(material, timeout=600.0):
    """Waits for `material`'s pending and running renders to end (for scripts and tests).
    Returns whether the last one succeeded."""
    job = _job(material)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if job.due is not None:
            job.due = time.monotonic()
        if not _step(material, job, time.monotonic()):
            return not material.texgraph.error
        time.sleep(0.02)
    return False


def cancel_all():
    """Stops every render (the add-on is being turned off)."""
    for job in _jobs.values():
        if job.process is not None:
            job.process.cancel()
    _jobs.clear()
    if bpy.app.timers.is_registered(_tick):
        bpy.app.timers.unregister(_tick)


def rerender_if_stale():
    """Renders every material whose settings no longer match its maps: after an undo or
    redo, which restores settings without telling the add-on."""
    for material in bpy.data.materials:
        job = _jobs.get(material.texgraph.uid)
        if job is None or job.rendered is None or not material.texgraph.params_json:
            continue
        try:
            stale = command(material)[1:] != job.rendered
        except cli.TexgraphError:
            continue
        if stale:
            schedule(material, delay=0.0)
        else:
            # Undo brought back whatever the panel said then.
            material.texgraph.status = "Rendered"
            material.texgraph.error = ""
