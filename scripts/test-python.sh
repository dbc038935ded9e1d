#!/usr/bin/env bash
# The Python module's tests: installs what they need into a virtual environment
# (target/python-venv: maturin, NumPy, pytest, Pillow, OpenEXR from the package index),
# builds the module into it and the CLI it is compared with, and runs pytest. The CLI is
# the one the workspace's tests build (after them, nothing to do); the module is built in
# release, since a cdylib built with the `test` profile is a test harness Python cannot
# load.
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
# The CLI as the workspace's tests build it (nothing to do after them).
cargo test --workspace --no-run --quiet
(cd crates/texgraph-python && maturin develop --release --quiet)
export TEXGRAPH_CLI="$PWD/target/debug/texgraph"
python -m pytest -q crates/texgraph-python/tests
