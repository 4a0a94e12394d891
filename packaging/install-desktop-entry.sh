#!/bin/sh
# Install GearDyn's desktop entry, icon and .gdyn file type for the current user (no root needed).
# Run it from the unpacked app folder: ./install-desktop-entry.sh   (--remove takes them out again)
# The entry starts the geardyn beside this script, wherever the folder lives; move the folder, run it again.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data=${XDG_DATA_HOME:-$HOME/.local/share}
apps=$data/applications
icons=$data/icons/hicolor/scalable/apps
mime=$data/mime/packages

if [ "${1:-}" = "--remove" ]; then
    rm -f "$apps/geardyn.desktop" "$icons/geardyn.svg" "$mime/geardyn.xml"
    echo "GearDyn's desktop entry, icon and file type removed"
else
    [ -x "$here/geardyn" ] || { echo "error: no geardyn program beside this script ($here)" >&2; exit 1; }
    mkdir -p "$apps" "$icons" "$mime"
    cp "$here/geardyn.svg" "$icons/geardyn.svg"
    # the entry as shipped, with the program's full path (a folder outside PATH still starts)
    sed "s|^Exec=geardyn |Exec=\"$here/geardyn\" |" "$here/geardyn.desktop" > "$apps/geardyn.desktop.tmp"
    mv "$apps/geardyn.desktop.tmp" "$apps/geardyn.desktop"
    cat > "$mime/geardyn.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
  <mime-type type="application/x-geardyn">
    <comment>GearDyn model</comment>
    <glob pattern="*.gdyn"/>
  </mime-type>
</mime-info>
XML
    echo "GearDyn's desktop entry is in $apps (it starts $here/geardyn)"
fi
# the desktop's menus and file types pick the change up (tools of freedesktop.org, present on most desktops)
command -v update-desktop-database >/dev/null && update-desktop-database "$apps" 2>/dev/null || true
command -v update-mime-database >/dev/null && update-mime-database "$data/mime" 2>/dev/null || true
command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q "$data/icons/hicolor" 2>/dev/null || true
