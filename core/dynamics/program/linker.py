"""The kernels as a program: the entry points linked to the element registry, run as Python or compiled by numba.

Every kernel function is plain Python (core.dynamics.kernels.*, the elements' physics, and the formulas they
call in core.gearing and core.geometry). The template modules leave one name open, ``elements``: the linker
binds it to the registry's element loops (core.dynamics.program.dispatch) in a copy of every function that
reads it, directly or through what it calls. Not compiled, those copies are the program; compiled, each copy
is handed to numba with the functions of ours it calls compiled first and put in their globals' place, so
the source is the one formula whichever way it runs.

What the element loops call is compiled bare, without numba's reference counts (numba's ``_nrt=False``): the
element physics makes no arrays, only views of the buffers it is handed, and each view taken or tuple member
read cost an atomic count up and one down, most of an evaluation's time (a compliant planetary's rate spent
64 % of it there). Bare code cannot allocate (numba refuses to compile it: "NRT required") and returns no
arrays to counted code: the loops return nothing. A function the kernels call as well gets a counted copy.
A kernel function a module names in BARE is compiled bare too, with what it calls (its caller hands it its
work space). The element functions the loops run at every evaluation (dispatch.INLINED) are compiled into the
loops.

numba caches compiled code on disk, keyed by each function's own file: a change in a function it calls, or a
different registry, would not be seen. So the compiled program lives in a cache folder of its own, named by
a digest of every source file the program is made of, the registry's loops and numba's and Python's
versions (`Program.folder`): a change of any of them compiles afresh instead of loading stale code.
"""

from __future__ import annotations

import dis
import hashlib
import importlib
import importlib.metadata
import platform
import sys
import threading
import types
from pathlib import Path

import numpy

from core.dynamics.elements.base import REGISTRY
from core.dynamics.kernels import entries
from core.dynamics.program import ahead, cache, dispatch
from core.errors import GearDynError


class CompileError(GearDynError, RuntimeError):
    """Compiling the kernels was asked for and cannot be done; the message says why (numba, or the element kind
    whose physics does not compile)."""


#: the entry points a Kernel calls (core.dynamics.kernels.entries)
ENTRIES = ("rate", "advance", "query")
#: the core package's folder
CORE = Path(__file__).resolve().parents[2]


def numba_version() -> str:
    """The installed numba's version, or "none" (a frozen app that ships its program compiled ahead of time)."""
    try:
        return importlib.metadata.version("numba")
    except importlib.metadata.PackageNotFoundError:
        return "none"


def portable(path: str) -> str:
    """A source file's name as it stays wherever GearDyn and its kernel cache are: its path inside the core
    package, else the file's own name (the generated element loops, an element kind's module of its own)."""
    try:
        return Path(path).resolve().relative_to(CORE).as_posix()
    except ValueError:
        return Path(path).name


def ours(value, modules: set[str]) -> bool:
    """Whether a function or module is part of the program: core's, an element kind's, the element loops."""
    name = value.__module__ if isinstance(value, types.FunctionType) else getattr(value, "__name__", "")
    return bool(name) and (name.startswith("core.") or name in modules)


class Linker:
    """Copies of functions of ours with ``elements`` bound to `loops`, compiled by `jit` when given (numba's njit,
    or None: plain Python); what the loops reach by `jit_bare` (without reference counts: see the module
    docstring), and into its callers by `jit_inline` what a module names in INLINE and what dispatch.INLINED's
    loops call; one copy per function and way. `files` collects the source files of everything linked."""

    def __init__(self, loops, jit=None, jit_inline=None, tag="", jit_bare=None):
        self.loops, self.jit, self.jit_inline, self.tag = loops, jit, jit_inline, tag
        self.jit_bare = jit_bare or jit
        self.modules = {loops.__name__} | {cls.__module__ for cls in REGISTRY}
        self.done: dict = {}
        self.standins: dict = {}
        self.files: set[str] = {loops.__file__}

    def __call__(self, func, bare=False, inline=False):
        bare = bare or func.__name__ in getattr(sys.modules.get(func.__module__), "BARE", ())
        found = self.done.get((func, bare, inline))
        if found is not None:
            return found
        self.files.add(func.__code__.co_filename)
        names, last = {}, None
        hot = func.__module__ == self.loops.__name__ and func.__name__ in dispatch.INLINED
        for ins in dis.get_instructions(func):
            if ins.opname == "LOAD_GLOBAL":
                last = None
                value = self.loops if ins.argval == "elements" else func.__globals__.get(ins.argval)
                if isinstance(value, types.FunctionType) and ours(value, self.modules):
                    names[ins.argval] = self(value, bare, hot)
                elif isinstance(value, types.ModuleType) and ours(value, self.modules):
                    last = names[ins.argval] = self.standin(value, bare or value is self.loops)
            elif ins.opname in ("LOAD_ATTR", "LOAD_METHOD") and last is not None:
                member = getattr(last.source, ins.argval)
                if isinstance(member, types.FunctionType) and ours(member, self.modules):
                    setattr(last, ins.argval, self(member, last.bare))
                last = None
            else:
                last = None
        copy = types.FunctionType(func.__code__, {**func.__globals__, **names}, func.__name__, func.__defaults__,
                                  func.__closure__)
        # numba's disk cache knows a function by its module, name and line, not by how it was compiled: a bare
        # copy is named apart from the counted one
        copy.__qualname__ = func.__qualname__ + ("_bare" if bare else "") + ("_inlined" if inline else "")
        copy.__module__ = self.home(func.__module__)
        if self.jit is None:
            linked = copy
        elif inline or func.__name__ in getattr(sys.modules.get(func.__module__), "INLINE", ()):
            linked = self.jit_inline(copy)
        else:
            linked = (self.jit_bare if bare else self.jit)(copy)
        self.done[(func, bare, inline)] = linked
        return linked

    def home(self, name: str) -> str:
        """The module name a copy carries. Tagged (compiled programs): numba names machine code after the module
        and a counter of the process that compiled it, so two programs loaded from their caches into one process
        could otherwise share names, and one call the other's element loops."""
        if not self.tag:
            return name
        tagged = f"{name}.program_{self.tag}"
        sys.modules.setdefault(tagged, types.ModuleType(tagged))  # numba finds a copy's module by its name
        return tagged

    def standin(self, module, bare=False):
        """A stand-in for a module of ours whose functions are read as attributes (``vec3.cross``): its linked
        functions, filled in as they are read."""
        found = self.standins.get((module, bare))
        if found is None:
            found = self.standins[(module, bare)] = types.ModuleType(module.__name__)
            found.__dict__.update({k: v for k, v in vars(module).items()  # its constants, as the module has them
                                   if not k.startswith("__")
                                   and not isinstance(v, (types.FunctionType, types.ModuleType))})
            found.source, found.bare = module, bare
        return found


class Program:
    """The entry points (ENTRIES) linked to the registry as it stands, as Python functions or compiled ones.

    `stamp` is a digest of its sources (see the module docstring) and of Python's and numpy's versions, and
    `folder` where numba caches it (named by the stamp and numba's version); `cached()` says whether the compiled
    program is at hand. Compiled, it runs on the module compiled ahead of time for its stamp (`ahead`: its path,
    or None), which a frozen app ships (`shipped`: the same path, or None) and core.dynamics.warm makes in the
    cache; else numba is imported here, and the entry points compile at their first call (or load from the
    cache).
    """

    def __init__(self, compiled: bool):
        text = dispatch.source()
        self.compiled = compiled
        root = cache.cache_root()
        self.loops = dispatch.load(root / "loops", text)
        python = Linker(self.loops)
        self.python = {name: python(getattr(entries, name)) for name in ENTRIES}
        digest = hashlib.sha256()
        made_by = {__file__, dispatch.__file__, cache.__file__}  # how the program is made
        for name, path in sorted((portable(path), path) for path in python.files | made_by):
            digest.update(name.encode())  # what, not where: a cache that moved with GearDyn is still found
            digest.update(Path(path).read_bytes())
        for part in (sys.version, platform.machine(), numpy.__version__):
            digest.update(part.encode())
        self.stamp = digest.hexdigest()[:16]
        digest.update(numba_version().encode())
        self.folder = root / digest.hexdigest()[:16]
        # the program compiled ahead of time for these sources (core.dynamics.program.ahead), shipped with a
        # frozen app or made in the cache by core.dynamics.warm: compiled, it runs on that, and numba is not imported
        self.shipped = ahead.find(self.stamp, cache.shipped_root())
        self.ahead = self.shipped or ahead.find(self.stamp, root)
        # whether its entry points have run (loaded or compiled): `loaded` gives it to work that must not wait
        self.ready = not compiled or self.ahead is not None
        if not compiled:
            self.note = "Python (not compiled)"
            for name, func in self.python.items():
                setattr(self, name, func)
            return
        if self.ahead is not None:
            module = ahead.load(self.ahead)
            for name in ENTRIES:
                setattr(self, name, getattr(module, name))
            where = "shipped with the app" if self.shipped else "kept"
            self.note = f"compiled ahead of time, {where} in {self.ahead}"
            if not self.shipped:  # the app's own folder is not the cache: left untouched
                cache.used(self.ahead)
            return
        numba = importlib.import_module("numba")
        cached = cache.writable(self.folder)
        if cached:
            cache.register(self.folder, numba)
            cache.used(self.folder)
        jit = numba.njit(cache=cached, error_model="numpy")  # a division by 0 gives inf or NaN, as numpy's
        link = Linker(self.loops, jit, numba.njit(cache=cached, error_model="numpy", inline="always"),
                      tag=self.folder.name, jit_bare=numba.njit(cache=cached, error_model="numpy", _nrt=False))
        for name in ENTRIES:
            setattr(self, name, link(getattr(entries, name)))
        self.note = (f"compiled by numba {numba.__version__}, kept in {self.folder}" if cached else
                     f"compiled by numba {numba.__version__}; not kept: {self.folder} cannot be written")

    def culprit(self, exc: Exception) -> str:
        """What a compile failure was about, in a line: the element kind whose module the error names, if any."""
        text = str(exc)
        for k, cls in enumerate(REGISTRY):
            module = sys.modules[cls.__module__]
            if module.__file__ in text or f"_{k}(" in text or f"{cls.__module__}." in text:
                return f"the {cls.__name__} element ({cls.__module__}) does not compile: {text.splitlines()[0]}"
        return f"numba could not compile the kernels: {text.splitlines()[0] if text else type(exc).__name__}"

    _cached = False

    def cached(self) -> bool:
        """Whether the compiled program is at hand: compiled ahead of time, or in its cache folder (numba's index
        files of the entry points; once found, not looked for again)."""
        if not self._cached:
            self._cached = self.ahead is not None or cache.holds_program(self.folder, ENTRIES)
        return self._cached


_PROGRAMS: dict = {}
_MAKING = threading.Lock()  # a run's thread and the app's kernel loading may ask at once


def program(compiled: bool) -> Program:
    """The program for the registry as it stands, made once per registry and form in a process (thread-safe)."""
    key = (tuple(REGISTRY), compiled)
    with _MAKING:
        found = _PROGRAMS.get(key)
        if found is None:
            found = _PROGRAMS[key] = Program(compiled)
    return found


def loaded() -> Program:
    """The compiled program if this process has it ready (its entry points have run: a compiled run, or
    checks.load_compiled), else the Python one: for work whose result does not depend on it, and which should
    neither load numba nor wait for a compile (the checks of a model after each edit)."""
    compiled = _PROGRAMS.get((tuple(REGISTRY), True))
    return compiled if compiled is not None and compiled.ready else program(False)
