"""Compile the kernels: ``python -m core.dynamics.warm`` (``make venv`` and ``make test`` run it).

Two steps. numba compiles the program into its cache: every entry point compiles at its first call for the
argument types it is given, so the surest way to compile what runs use is to run: each example a few steps in
each formulation it allows, with each integrator, and sample it. Then the same program is compiled once more,
ahead of time, into an extension module (core.dynamics.program.ahead) in the kernel cache, or with
``--ahead FOLDER`` there (what ``make package`` ships). Afterwards a compiled run in any process runs on that
module, without importing numba.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from core.dynamics.formulations import FORMULATIONS
from core.dynamics.integrators import METHODS
from core.dynamics.program import ahead
from core.dynamics.program.cache import KEEP_DAYS, cache_root, prune
from core.dynamics.program.linker import program
from core.dynamics.run import prepare
from core.errors import ModelError
from core.model.files import load

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def quiet(text: str) -> None:
    """`warm`'s default: say nothing while working."""


def warm(folder: Path | None = None, say=quiet) -> str:
    """Compile every entry point of the registry's program with numba (the models of resources/examples exercise
    them all), then ahead of time into `folder` (default: the kernel cache, where runs find it); what was done
    and how long it took. Nothing to do when the cache holds the module compiled ahead of time already.
    RuntimeError when it does and `folder` is another: this process then has no numba program to compile.
    Compiling ahead of time into the cache that fails (numba.pycc needs a C compiler) is said, not raised: runs
    then take numba's cache; into a `folder` given (a package's), it raises. `say(text)` hears what it starts on
    while it works (minutes, the first time)."""
    t0 = time.perf_counter()
    target = cache_root() if folder is None else Path(folder)
    code = program(True)
    if code.ahead is not None:
        if code.ahead.parent == target:
            return f"the kernels are compiled ahead of time in {code.ahead} (nothing to do){tidied(code)}"
        raise RuntimeError(f"the kernel cache holds the kernels compiled ahead of time ({code.ahead}): set "
                           f"GEARDYN_KERNEL_CACHE to another folder to compile them into {target}")
    runs = 0
    paths = sorted(EXAMPLES.glob("*.gdyn"))
    if not paths:
        raise FileNotFoundError(f"no example models in {EXAMPLES}: nothing to compile the kernels on")
    say(f"compiling the kernels on the {len(paths)} example models (once for these sources: a few minutes)")
    for k, path in enumerate(paths, 1):
        say(f"  {k}/{len(paths)} {path.name}")
        model = load(path)
        for formulation in FORMULATIONS:
            for integrator in METHODS:
                try:
                    run = prepare(model, t_end=2e-4, step=1e-4, output_step=1e-4, integrator=integrator,
                                  formulation=formulation, compiled="on", check=False)
                except ModelError as exc:  # a model whose bodies do not hang from the ground on a tree of joints
                    if exc.path != "formulation":
                        raise
                    break
                run.run()
                runs += 1
    t1 = time.perf_counter()
    done = f"the kernels compiled by numba are in {code.folder} ({runs} runs, {t1 - t0:.1f} s)"
    say("compiling them ahead of time into one module (under a minute)")
    try:
        path = ahead.build(code, target)
    except Exception as exc:  # noqa: BLE001  (no C compiler, no Python headers: runs take numba's cache)
        if folder is not None:
            raise
        why = str(exc).splitlines()[0] if str(exc) else ""
        return (f"{done}; they could not be compiled ahead of time ({type(exc).__name__}: {why}), so compiled runs "
                f"load numba's cache (numba.pycc needs a C compiler and Python's headers){tidied(code)}")
    return f"{done}, ahead of time in {path} ({time.perf_counter() - t1:.1f} s){tidied(code) if folder is None else ''}"


def tidied(code) -> str:
    """Prune the kernel cache of programs of other sources unused for KEEP_DAYS days (keeping `code`'s); what was
    removed, in words ('' when nothing)."""
    root = cache_root()
    count, size = prune(root, {code.folder, root / ahead.file_name(code.stamp)})
    return f"; removed {count} programs of other sources unused for {KEEP_DAYS} days ({size / 1e6:.0f} MB)" \
        if count else ""


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m core.dynamics.warm", description=__doc__.splitlines()[0])
    parser.add_argument("--ahead", type=Path, metavar="FOLDER",
                        help="compile the kernels ahead of time into FOLDER (default: the kernel cache)")
    print(warm(parser.parse_args().ahead, say=lambda text: print(text, flush=True)))
