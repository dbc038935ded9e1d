#!/usr/bin/env bash
# The Python module's tests: installs what they need into a virtual environment
# (target/python-venv: NumPy, pytest, Pillow, OpenEXR from the package index) and runs
# pytest against the module and the CLI the workspace's tests build (`cargo test
# --workspace` builds the module beside the CLI, with the test profile's optimisation;
# after the Rust tests, nothing is left to build). `pip install crates/texgraph-python`
# builds the same module as a wheel.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/python-venv
python=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check \
    -r crates/texgraph-python/tests/requirements.txt
export VIRTUAL_ENV="$PWD/$venv" PATH="$PWD/$venv/bin:$PATH"
# The CLI and the module as the workspace's tests build them (nothing to do after them);
# cargo names the module's file among the artefacts it reports.
built=$(cargo test --workspace --no-run --quiet --message-format=json | python -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and "cdylib" in m["target"]["kind"]:
        # The web page'"'"'s crate is a cdylib too (empty off the web).
        for f in m["filenames"]:
            if f.endswith((".so", ".dylib")) and "texgraph-python" in m["package_id"]:
                print(f)
')
if [ -z "$built" ]; then
    echo "error: cargo built no Python module (the cdylib of crates/texgraph-python)" >&2
    exit 1
fi
module=target/python-module
rm -rf "$module"
mkdir -p "$module"
cp "$built" "$module/texgraph.so"
cp crates/texgraph-python/texgraph.pyi "$module/"
export PYTHONPATH="$PWD/$module${PYTHONPATH:+:$PYTHONPATH}"
export TEXGRAPH_CLI="$PWD/target/debug/texgraph"
python -m pytest -q crates/texgraph-python/tests
