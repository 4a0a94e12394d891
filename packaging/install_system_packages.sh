#!/usr/bin/env bash
# Install the Debian packages GearDyn's GUI and tests need, when they are missing:
# Xvfb for a virtual screen, Mesa for software OpenGL (VTK), the X/xcb
# libraries Qt's xcb platform plugin loads, and a C compiler for the kernels
# compiled ahead of time (numba.pycc; Python's headers come with the interpreter
# the virtual environment is made from); for `make package`, ICU's icupkg (the
# frozen app's trimmed ICU data: packaging/icu_data.py). Needs root (CI runs as root).
set -euo pipefail
packages=(xvfb xauth libgl1-mesa-dri libglx-mesa0 libegl1 libxkbcommon-x11-0 libxcb-cursor0
  libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-xinerama0 libxcb-randr0
  libxcb-shape0 libxcb-xkb1 libdbus-1-3 libfontconfig1 xz-utils gcc libc6-dev icu-devtools)
command -v dpkg-query >/dev/null || { echo "not a Debian system: install ${packages[*]} by hand"; exit 0; }
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "missing system packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})" >&2
  exit 1
fi
echo "installing system packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
