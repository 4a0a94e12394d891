"""Atomic file writing: a temporary file in the same folder, then a rename.

Every file GearDyn writes (models, CSV, results files, images, video) goes
through `atomic_target`, so a reader sees the old file or the whole new one,
never a part; a symbolic link is written through to its target; and the
temporary files an interrupted save left behind are removed by the next save
of the same file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path


def _temp_prefix(path: Path) -> str:
    return f".{path.name}."


def remove_stale_temporaries(path: str | os.PathLike, keep: str | None = None) -> list[str]:
    """Remove the temporary files interrupted saves of `path` left in its folder; their names.

    A save killed between creating its temporary file and the rename leaves
    ``.<name>.<random>.tmp<suffix>`` behind (as large as the file).
    """
    path = Path(path)
    prefix, removed = _temp_prefix(path), []
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return removed
    for entry in entries:
        if entry.name.startswith(prefix) and ".tmp" in entry.name[len(prefix):] and entry.path != keep:
            try:
                if entry.is_file(follow_symlinks=False):
                    os.unlink(entry.path)
                    removed.append(entry.name)
            except OSError:
                pass  # gone already, or not ours to remove
    return removed


@contextlib.contextmanager
def atomic_target(path: str | os.PathLike, suffix: str = ""):
    """Yield a temporary path next to `path`; when the block ends without error it becomes `path`.

    Parameters
    ----------
    path : path-like
        The file to write. A symbolic link is resolved: its target is replaced
        and the link stays a link.
    suffix : str
        Ending of the temporary name after ``.tmp`` (writers that choose the
        format by the file's ending need the real one, e.g. ``.png``).

    On an error (or a cancel raised as an exception) the temporary file is
    removed and the old file is untouched. After a successful rename the
    temporaries of earlier interrupted saves of the same file are removed.
    """
    path = Path(os.path.realpath(path))
    if path.exists() and not path.is_file():  # the rename would replace a device node or a FIFO with a file
        raise OSError(errno.EINVAL, "not a regular file (a device, FIFO, socket or folder)", str(path))
    fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(path), suffix=".tmp" + suffix, dir=path.parent)
    os.close(fd)
    try:
        # mkstemp makes the file private; give it the mode a plain write would.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~umask)
        yield Path(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    remove_stale_temporaries(path)


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write `data` to `path` atomically (flushed to disk before the rename)."""
    with atomic_target(path) as tmp:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write `text` (UTF-8) to `path` so that readers see the old file or the whole new one, never a part."""
    atomic_write_bytes(path, text.encode("utf-8"))
