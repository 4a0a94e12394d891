"""What a bearing spring-damper makes: the modes of its shaft on it alone, radial and axial, beside which a mesh
frequency or a time step can be set."""

from __future__ import annotations

import math

from core.model.entities import GROUND
from core.ranges import hertz


def bearing_note(model, bearing) -> str:
    """One line on BearingSpringDamper `bearing` of `model` ('' when a body it names is not in the model): the
    radial and axial modes sqrt(k / m) / (2 pi) of body j on this bearing alone (m the two bodies' reduced mass
    where body i is not the ground), the couplings of the rest of the model left out."""
    masses = [model.bodies[b].mass if b in model.bodies else (math.inf if b == GROUND else None)
              for b in (bearing.body_i, bearing.body_j)]
    if None in masses:
        return ""
    m = 1.0 / (1.0 / masses[0] + 1.0 / masses[1])
    modes = [f"{what} {hertz(math.sqrt(k / m) / (2 * math.pi))}" for what, k in
             (("radial mode", bearing.radial_stiffness), ("axial mode", bearing.axial_stiffness)) if k > 0]
    if not modes:
        return f"no radial or axial stiffness: it holds {bearing.body_j} in no direction"
    if bearing.body_i == GROUND:
        return f"{', '.join(modes)} ({bearing.body_j} alone on it, {m:.4g} kg)"
    return f"{', '.join(modes)} ({bearing.body_j} against {bearing.body_i} on it alone, reduced mass {m:.4g} kg)"
