"""Which equations of motion a model is simulated with: Cartesian body coordinates or joint coordinates."""

from __future__ import annotations

import numpy as np

from core.dynamics.formulations.cartesian import CartesianSystem
from core.dynamics.formulations.joint import JointSystem
from core.dynamics.formulations.system import System
from core.dynamics.formulations.tree import TreeError
from core.dynamics.program.linker import Program, program
from core.errors import ModelError
from core.model.model import Model

FORMULATIONS = {"cartesian": CartesianSystem, "joint": JointSystem}


def assemble(model: Model, formulation: str | None = None, compiled: bool | str | Program = "auto",
             constant: bool = True) -> System:
    """The system of `model` in `formulation` (default: the model's setting), on the kernels' program: compiled
    (True), not (False), the given one (core.dynamics.program.linker), or "auto": compiled when the compiled
    kernels are in the cache. `constant` False keeps joint coordinates on the general path, without checking
    whether their matrices are constant: for a system assembled only to read its rows.

    Formulation "auto" takes joint coordinates when every body hangs from the ground on revolute and fixed
    joints, and Cartesian coordinates otherwise.
    """
    # the model's checks assemble models they go on to refuse (gear centres that coincide): geometry left undefined
    # there becomes NaN, which they test for, not a warning on the terminal
    with np.errstate(divide="ignore", invalid="ignore"):
        return _assemble(model, formulation, compiled, constant)


def _assemble(model: Model, formulation: str | None, compiled: bool | str | Program, constant: bool) -> System:
    name = model.settings.formulation if formulation is None else formulation
    if isinstance(compiled, Program):
        code = compiled
    elif compiled == "auto":
        code = program(program(False).cached())
    else:
        code = program(bool(compiled))
    if name == "auto":
        try:
            return JointSystem(model, code, constant)
        except TreeError:
            return CartesianSystem(model, code)
    if name not in FORMULATIONS:
        raise ModelError("formulation", f"must be one of auto, {', '.join(FORMULATIONS)}, got {name!r}")
    try:
        return JointSystem(model, code, constant) if name == "joint" else CartesianSystem(model, code)
    except TreeError as exc:
        raise ModelError("formulation", f"{exc}") from None
