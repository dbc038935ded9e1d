#!/usr/bin/env bash
# Builds the Blender add-on's zips from blender/texgraph_blender into target/blender/:
#   texgraph_blender.zip    the add-on, for Edit › Preferences › Add-ons › Install
#                           (Blender 3.4 and later; 4.2 and later take it too, under
#                           "Install from Disk")
#   texgraph-extension.zip  the same files as a Blender 4.2+ extension
#                           (blender_manifest.toml at the top)
# The add-on runs the `texgraph` command; install that too (README, "Blender").
# Usage: scripts/build-blender-addon.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/blender}
mkdir -p "$out"
python3 - "$out" <<'PY'
import os, sys, zipfile
out = sys.argv[1]
source = "blender/texgraph_blender"
files = sorted(
    f for f in os.listdir(source)
    if f.endswith(".py") or f == "blender_manifest.toml"
)
def write(zip_path, prefix):
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as z:
        for f in files:
            # A fixed date, so the same sources make the same bytes.
            info = zipfile.ZipInfo(prefix + f, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with open(os.path.join(source, f), "rb") as data:
                z.writestr(info, data.read())
    print(f"wrote {zip_path}")
write(os.path.join(out, "texgraph_blender.zip"), "texgraph_blender/")
write(os.path.join(out, "texgraph-extension.zip"), "")
PY
