"""What a spring-damper does at the start: how far apart its ends are, against its free length, and the tension
that gives."""

from __future__ import annotations

import numpy as np

from core.geometry.rotations import quat_matrices
from core.model.entities import GROUND


def _end(model, body: str, point) -> np.ndarray | None:
    """A point given in `body`'s axes from its origin, in world axes at the start (the ground's as it is)."""
    if body not in model.bodies:
        return np.asarray(point, float) if body == GROUND else None
    b = model.bodies[body]
    return np.asarray(b.position, float) + quat_matrices(b.orientation) @ np.asarray(point, float)


def spring_note(model, spring) -> str:
    """One line on SpringDamper `spring` of `model` at the start ('' when a body it names is not in the model)."""
    ends = [_end(model, spring.body_i, spring.point_i), _end(model, spring.body_j, spring.point_j)]
    if ends[0] is None or ends[1] is None:
        return ""
    length = float(np.linalg.norm(ends[1] - ends[0]))
    if length == 0.0:
        return "its ends meet at the start: a spring of no length has no direction and pulls nowhere there"
    tension = spring.stiffness * (length - spring.free_length)
    return (f"its ends are {length * 1e3:.6g} mm apart at the start (free length {spring.free_length * 1e3:.6g} mm): "
            f"a tension of {tension + 0.0:.6g} N")
