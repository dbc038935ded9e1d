#!/usr/bin/env bash
# The Python module's tests: installs what they need into a virtual environment
# (target/python-venv: maturin, NumPy, pytest, Pillow, OpenEXR from the package index),
# builds the module into it and the CLI it is compared with, and runs pytest. Both are built
# with the profile `cargo test` uses, so after the workspace's tests (scripts/test.sh) the
# core they link is already built; only the module itself is compiled.
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
cargo build --profile test --quiet -p texgraph-cli
(cd crates/texgraph-python && maturin develop --profile test --quiet)
export TEXGRAPH_CLI="$PWD/target/debug/texgraph"
python -m pytest -q crates/texgraph-python/tests
