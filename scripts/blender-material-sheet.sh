#!/usr/bin/env bash
# The README's sheet of every example material on a sphere, rendered in Blender's Cycles
# through the add-on: docs/images/blender_materials.jpg. Needs blender and ImageMagick's
# montage; uses the release CLI (built if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x target/release/texgraph ] || cargo build --release -p texgraph-cli
scripts/build-blender-addon.sh target/blender >/dev/null
work=$PWD/target/blender/sheet
rm -rf "$work"
mkdir -p "$work/config" "$work/scripts" "$work/out"
path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v pyenv | paste -sd: -)
PATH=$path BLENDER_USER_CONFIG=$work/config BLENDER_USER_SCRIPTS=$work/scripts \
    blender -b --factory-startup --python-exit-code 1 \
    --python scripts/blender/material_sheet.py -- \
    "$PWD" "$PWD/target/release/texgraph" "$PWD/target/blender/texgraph_blender.zip" "$work/out" \
    | grep '^rendered '
cd "$work/out"
montage $(ls *.png | sed 's/\.png$//' | sed 's/.*/-label & &.png/') \
    -tile 5x -quality 88 -geometry 192x192+4+4 -font DejaVu-Sans -pointsize 14 -background '#202020' -fill '#dddddd' \
    "$OLDPWD/docs/images/blender_materials.jpg"
echo "wrote docs/images/blender_materials.jpg"
