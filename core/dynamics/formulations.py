"""Which equations of motion a model is simulated with: Cartesian body coordinates or joint coordinates."""

from __future__ import annotations

from core.dynamics.joint_coordinates import JointCoordinateSystem, TreeError
from core.dynamics.system import System
from core.model.model import Model, ModelError

FORMULATIONS = {"cartesian": System, "joint": JointCoordinateSystem}


def assemble(model: Model, formulation: str | None = None) -> System:
    """The system of `model` in `formulation` (default: the model's setting).

    "auto" takes joint coordinates when every body hangs from the ground on
    revolute and fixed joints, and Cartesian coordinates otherwise.
    """
    name = model.settings.formulation if formulation is None else formulation
    if name == "auto":
        try:
            return JointCoordinateSystem(model)
        except TreeError:
            return System(model)
    if name not in FORMULATIONS:
        raise ModelError(f"formulation: must be one of auto, {', '.join(FORMULATIONS)}, got {name!r}")
    try:
        return FORMULATIONS[name](model)
    except TreeError as exc:
        raise ModelError(f"formulation: {exc}") from None
