#!/bin/sh
# Installs the shared libraries texgraph-editor loads at run time, where missing, on
# Debian or Ubuntu. Building and `cargo test` need none of them.
set -eu

packages=""
need() { # need <library file> <package>
    if ! ldconfig -p | grep -q "$1"; then
        packages="$packages $2"
    fi
}
need libX11.so.6 libx11-6
need libXcursor.so.1 libxcursor1
need libXi.so.6 libxi6
need libxkbcommon-x11.so.0 libxkbcommon-x11-0
need libGL.so.1 "libgl1 libgl1-mesa-dri"

if [ -z "$packages" ]; then
    echo "texgraph-editor: all run-time libraries are present"
    exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi
echo "texgraph-editor: installing$packages"
$sudo apt-get update
# shellcheck disable=SC2086 # the list is meant to split into package names
$sudo apt-get install -y --no-install-recommends $packages
