"""Where the compiled kernels are kept, and how numba finds them wherever GearDyn is installed.

A compiled program lives in a folder named by a digest of its sources (core.dynamics.program.linker). numba's
own cache locators name their folders after the absolute path of each source file, so a cache built in one
place (the frozen app's build folder) would be missed in another (the user's copy of it). `ProgramLocator`
puts each function of a program in the program's folder under its module's name, and stamps it with the
program's digest: a cache is found after the folder has moved, and a change of any source is a new folder.

The frozen app ships no numba: its kernels travel compiled ahead of time, in `kernels/` beside its modules
(`shipped_root`; core.dynamics.program.ahead).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

from core.dynamics.program.ahead import PREFIX

#: environment variable naming the folder of compiled kernels (default: the user's cache folder)
CACHE_VARIABLE = "GEARDYN_KERNEL_CACHE"
#: numba's setting of the locators it tries, in order: ours first for the program's functions, then its own
LOCATORS = ("core.dynamics.program.cache.ProgramLocator,UserProvidedCacheLocator,InTreeCacheLocator,"
            "UserWideCacheLocator,IPythonCacheLocator,ZipCacheLocator")
#: the module-name marker of a program's function copies (core.dynamics.program.linker.Linker.home)
MARK = ".program_"

#: days a program of other sources stays in the cache unused before `prune` removes it
KEEP_DAYS = 30

_FOLDERS: dict[str, Path] = {}


def cache_root() -> Path:
    """Where compiled kernels are kept: $GEARDYN_KERNEL_CACHE, else the user's cache folder (else the temporary
    folder, when that cannot be written)."""
    given = os.environ.get(CACHE_VARIABLE)
    base = Path(given) if given else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "geardyn"
    return base if writable(base) else Path(tempfile.gettempdir()) / "geardyn-kernels"


def shipped_root() -> Path | None:
    """The kernels that travel with a frozen app (``kernels/`` in its folder), or None for an installed one."""
    base = getattr(sys, "_MEIPASS", None)
    return Path(base) / "kernels" if getattr(sys, "frozen", False) and base else None


def writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK)


def holds_program(folder: Path, entries: tuple[str, ...]) -> bool:
    """Whether `folder` holds numba's index of every entry point (a program compiled there at least once)."""
    return folder.is_dir() and sum(1 for _ in folder.rglob("entries.*.nbi")) >= len(entries)


def used(path: Path) -> None:
    """Mark a program's folder or module in the cache as used now (its time stamp: what `prune` reads); nothing
    when it cannot be written (a read-only cache)."""
    try:
        os.utime(path)
    except OSError:
        pass


def prune(root: Path, keep: set[Path], days: float = KEEP_DAYS) -> tuple[int, int]:
    """Remove from the cache `root` the programs of other sources (numba's program folders, named by 16 hex
    digits, and modules compiled ahead of time) not used for `days` days, except those in `keep`; how many and
    how many bytes. A GearDyn of other sources that still runs compiles them again at its next compiled run."""
    old = time.time() - days * 86400
    count = size = 0
    for path in root.glob("*"):
        ours = (path.is_dir() and re.fullmatch(r"[0-9a-f]{16}", path.name)) or \
            (path.is_file() and path.name.startswith(PREFIX))
        try:
            if not ours or path in keep or path.stat().st_mtime > old:
                continue
            files = [path] if path.is_file() else [f for f in path.rglob("*") if f.is_file()]
            size += sum(f.stat().st_size for f in files)
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink()
        except OSError:  # gone meanwhile, or not ours to remove: left as it is
            continue
        count += 1
    return count, size


def register(folder: Path, numba) -> None:
    """Make `folder` the cache of the program tagged with its name, and have `numba` (the module) ask
    ProgramLocator first."""
    _FOLDERS[folder.name] = folder
    numba.config.CACHE_LOCATOR_CLASSES = LOCATORS


class ProgramLocator:
    """numba's cache locator for the function copies of a compiled program (module ``<module>.program_<tag>``):
    the cache path is the program's folder and the function's module, the stamp the program's digest.

    It implements the methods numba calls on a locator (those of numba.core.caching._CacheLocator) without
    deriving from it, so that this module does not load numba for a run that does not compile.
    """

    def __init__(self, folder: Path, module: str, lineno: int):
        self._path = str(folder / module)
        self._stamp = folder.name
        self._lineno = lineno

    def ensure_cache_path(self) -> None:
        os.makedirs(self._path, exist_ok=True)
        tempfile.TemporaryFile(dir=self._path).close()  # numba's own check that the folder can be written

    def get_cache_path(self) -> str:
        return self._path

    def get_source_stamp(self) -> str:
        return self._stamp

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        module, mark, tag = py_func.__module__.rpartition(MARK)
        folder = _FOLDERS.get(tag) if mark else None
        if folder is None:
            return None  # not a program's function: numba's own locators follow
        return cls(folder, module, py_func.__code__.co_firstlineno)
