"""The program compiled ahead of time: one extension module that runs the kernels without numba or LLVM.

numba's just-in-time program (core.dynamics.program.linker) needs numba and llvmlite in the process, even when
it only loads machine code from its cache: they are 160 MB of the frozen app, and some 0.5 s and 180 MB of
memory in each process that runs compiled.
`build` hands the same linked entry points to numba's ahead-of-time compiler (numba.pycc), each with the one
signature it was compiled for in this process (a warmed program: core.dynamics.warm), and writes an
extension module that needs only numpy (and scipy's LAPACK, which numba's helpers load as the JIT's do). It
is the one source compiled once more, not a second copy: the module's name carries the program's stamp (a
digest of every source it is made of, `Program.stamp`), and `find` returns it only for that stamp.

core.dynamics.warm makes it in the kernel cache (``make venv``, ``make test``), and the frozen app ships it in
``kernels/`` (packaging/geardyn.spec); a compiled program whose stamp it matches runs on it. numba.pycc is
pending deprecation since numba 0.57; without it, runs take numba's cache, and the frozen app would ship numba.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
import tempfile
import warnings
from pathlib import Path

#: what an ahead-of-time program's module is called: the prefix, then the program's stamp
PREFIX = "geardyn_kernels_"


def module_name(stamp: str) -> str:
    """The extension module's name for a program's stamp."""
    return f"{PREFIX}{stamp}"


def file_name(stamp: str) -> str:
    """The extension module's file name on this Python (its platform suffix)."""
    return module_name(stamp) + importlib.machinery.EXTENSION_SUFFIXES[0]


def find(stamp: str, folder: Path | None) -> Path | None:
    """The ahead-of-time program of `stamp` in `folder` (None: none looked for), or None when it is not there."""
    if folder is None:
        return None
    path = folder / file_name(stamp)
    return path if path.is_file() else None


class LoadError(ImportError):
    """The program compiled ahead of time is there for its stamp and cannot be loaded (a damaged file, or one made
    for another numpy); the message names the file and says why."""


def load(path: Path):
    """The extension module at `path` (a file `find` returned), imported once per process; LoadError when it
    cannot be."""
    name = path.name.split(".")[0]
    found = sys.modules.get(name)
    if found is not None:
        return found
    spec = importlib.util.spec_from_file_location(name, path,
                                                  loader=importlib.machinery.ExtensionFileLoader(name, str(path)))
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except ImportError as exc:
        where = "" if str(path) in str(exc) else f" from {path}"  # the loader's message names the file, mostly
        raise LoadError(f"the kernels compiled ahead of time cannot be loaded{where}: {exc}") from None
    sys.modules[name] = module
    return module


def build(program, folder: Path, verbose: bool = False) -> Path:
    """Compile `program` (a compiled Program whose entry points have each run once with one signature: a warmed
    one) ahead of time into `folder`; the module's path. ValueError when an entry point has run with no
    signature or with more than one (an extension module exports one per name)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba.pycc's pending-deprecation warning at import
        pycc = importlib.import_module("numba.pycc")
    cc = pycc.CC(module_name(program.stamp))
    cc.verbose = verbose
    for name in program.python:  # the entry points' names
        dispatcher = getattr(program, name)
        signatures = dispatcher.nopython_signatures
        if len(signatures) != 1:
            raise ValueError(f"entry point {name} has {len(signatures)} compiled signatures, not one: warm the "
                             f"program first (core.dynamics.warm), with the same argument types every time")
        cc.export(name, signatures[0])(dispatcher.py_func)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file_name(program.stamp)
    with tempfile.TemporaryDirectory(dir=folder) as work:  # linked there, then put in place whole: a run in
        cc.output_dir = work                               # another process never finds half a module
        cc.compile()
        os.replace(Path(work) / path.name, path)
    return path
