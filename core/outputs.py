"""Where a command's results go: output paths checked before any computation, and a fallback file when the
write fails after it (a disk filled or a folder vanished during a long run), so nothing computed is lost.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
import time
from pathlib import Path


def output_problem(path: str) -> str:
    """Why `path` cannot take an output file, or "": it must be a regular file or a new name in a folder this
    process can create files in. Devices, FIFOs, sockets and folders are refused (an atomic write would replace
    a device node with a regular file); the folder is probed by creating and removing a file in it."""
    if not path:
        return "needs a file name"
    real = Path(os.path.realpath(path))
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        return f"{path!r} cannot be examined ({exc.strerror or exc})"
    if mode is not None and stat.S_ISDIR(mode):
        return f"{path!r} is a folder; give a file name"
    if mode is not None and not stat.S_ISREG(mode):
        return f"{path!r} is not a regular file (a device, FIFO or socket): give a file name"
    folder = real.parent
    if not folder.is_dir():
        return f"the folder {str(Path(path).parent)!r} does not exist"
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".probe", dir=folder)
    except OSError as exc:
        return f"the folder {str(Path(path).parent)!r} is not writable ({exc.strerror or exc})"
    os.close(fd)
    os.unlink(probe)
    return ""


def write_or_fallback(write, path: str, what: str) -> bool:
    """write(path); if that fails, write(fallback) to a file in the temporary, home or current folder and say
    both on stderr. True when `path` got it."""
    try:
        write(path)
        return True
    except OSError as first:
        reason = first.strerror or str(first)
        if first.filename and str(first.filename) != str(path):  # another file than `path`: say which
            reason = f"{reason}: {first.filename}"
    stem, suffix = Path(path).stem or "geardyn", Path(path).suffix
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for folder in (tempfile.gettempdir(), Path.home(), Path.cwd()):
        fallback = Path(folder) / f"geardyn-{stem}-{stamp}-{os.getpid()}{suffix}"
        try:
            write(str(fallback))
        except OSError:
            continue
        print(f"error: cannot write {what} to {path} ({reason}); it was written to {fallback}", file=sys.stderr)
        return False
    print(f"error: cannot write {what} to {path} ({reason}), nor to a fallback file in the temporary folder, "
          "the home folder or the current folder", file=sys.stderr)
    return False
