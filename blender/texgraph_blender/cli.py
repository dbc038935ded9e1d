"""The texgraph command line: finding it, asking it for a graph's params, and running
renders in the background. Nothing here touches Blender's data, so a render's process
can be watched from a timer without blocking the interface."""

import json
import os
import queue
import re
import shutil
import subprocess
import threading


class TexgraphError(Exception):
    """texgraph could not be run, or it failed: the message is its `error:` lines."""


def find_executable(configured):
    """The texgraph command: the path set in the preferences, else `texgraph` on PATH."""
    if configured:
        path = os.path.abspath(os.path.expanduser(configured))
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        raise TexgraphError(
            f"error: the texgraph command set in the add-on's preferences, {path}, "
            "is not an executable file"
        )
    found = shutil.which("texgraph")
    if found:
        return found
    raise TexgraphError(
        "error: the texgraph command was not found on PATH: install it "
        "(cargo install --path crates/texgraph-cli) or set its path in the add-on's preferences"
    )


def error_lines(stderr):
    """What texgraph said went wrong: its `error:` lines (every line when it said none)."""
    lines = [line for line in stderr.splitlines() if line.startswith("error:")]
    text = "\n".join(lines) if lines else stderr.strip()
    return text or "error: texgraph failed and said nothing"


def graph_params(executable, graph_path):
    """`texgraph params GRAPH --json`, parsed: the graph's settings, outputs and params."""
    try:
        done = subprocess.run(
            [executable, "params", graph_path, "--json"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise TexgraphError(f"error: cannot run {executable}: {e}") from e
    if done.returncode != 0:
        raise TexgraphError(error_lines(done.stderr))
    return json.loads(done.stdout)


def render_command(executable, graph_path, out_stem, size, sets, seed, time):
    """The `texgraph render` command that writes every output of the graph to
    `OUT_STEM_<output>.png` at `size`², with `sets` (node.param=value texts), the seed
    offset `seed` (0: as saved) and `time` (None: the graph's own)."""
    command = [
        executable,
        "render",
        graph_path,
        "--all-outputs",
        "-o",
        out_stem + ".png",
        "--size",
        str(size),
    ]
    for assignment in sets:
        command += ["--set", assignment]
    if seed:
        command += ["--seed", str(seed)]
    if time is not None:
        command += ["--time", repr(float(time))]
    return command


_PERCENT = re.compile(r": (\d+)% \(")


class RenderProcess:
    """One `texgraph render` running in the background. `poll` says whether it has ended;
    `progress` is the share done that it last reported (it reports tenths once a render
    has run for a second)."""

    def __init__(self, command, cwd):
        self.command = command
        self.progress = 0.0
        self._lines = queue.Queue()
        self._stderr = []
        try:
            self._process = subprocess.Popen(
                command,
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
        except OSError as e:
            raise TexgraphError(f"error: cannot run {command[0]}: {e}") from e
        # A thread reads stderr so that a full pipe never stalls the render.
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for line in self._process.stderr:
            self._lines.put(line)
        self._process.stderr.close()

    def _drain(self):
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            self._stderr.append(line)
            found = _PERCENT.search(line)
            if found:
                self.progress = min(int(found.group(1)), 100) / 100.0

    def poll(self):
        """None while it runs; then (True, "") when it succeeded, or (False, its error)."""
        self._drain()
        code = self._process.poll()
        if code is None:
            return None
        self._reader.join(timeout=5)
        self._drain()
        if code == 0:
            return True, ""
        return False, error_lines("".join(self._stderr))

    def wait(self, timeout=None):
        """Waits for it to end, then as `poll`."""
        try:
            self._process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None
        return self.poll()

    def cancel(self):
        """Stops it. texgraph ends cleanly on the signal: every file it was writing keeps
        its old contents."""
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
