"""Compile the kernels into their cache: ``python -m core.dynamics.warm`` (``make venv`` runs it once); with
``--ahead FOLDER``, then also ahead of time into an extension module there (core.dynamics.program.ahead: what
``make package`` ships).

Every entry point compiles at its first call for the argument types it is given, so the surest way to compile
what runs use is to run: each example a few steps in each formulation it allows, with each integrator, and
sample it. Afterwards a run in any process loads the compiled kernels instead of compiling them.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from core.dynamics.formulations import FORMULATIONS
from core.dynamics.integrators import METHODS
from core.dynamics.program import ahead
from core.dynamics.program.linker import program
from core.dynamics.run import prepare
from core.errors import ModelError
from core.model.files import load

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def warm() -> str:
    """Compile every entry point of the registry's program (the models of resources/examples exercise them
    all); returns what was done and how long it took."""
    t0 = time.perf_counter()
    code = program(True)
    runs = 0
    paths = sorted(EXAMPLES.glob("*.gdyn"))
    if not paths:
        raise FileNotFoundError(f"no example models in {EXAMPLES}: nothing to compile the kernels on")
    for path in paths:
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
    return f"the compiled kernels are in {code.folder} ({runs} runs, {time.perf_counter() - t0:.1f} s)"


def warm_ahead(folder: Path) -> str:
    """`warm`, then the program it compiled compiled once more, ahead of time, into `folder`; what was done."""
    done = warm()
    t0 = time.perf_counter()
    path = ahead.build(program(True), folder)
    return f"{done}; ahead of time: {path} ({time.perf_counter() - t0:.1f} s)"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m core.dynamics.warm", description=__doc__.splitlines()[0])
    parser.add_argument("--ahead", type=Path, metavar="FOLDER",
                        help="also compile the program ahead of time into an extension module in FOLDER")
    args = parser.parse_args()
    print(warm() if args.ahead is None else warm_ahead(args.ahead))
