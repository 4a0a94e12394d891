"""What a bearing spring-damper makes: the modes of its shaft on it alone, radial and axial, beside which a mesh
frequency or a time step can be set, and their damping as a share of critical (the damping an entry in N s/m
gives is otherwise guesswork)."""

from __future__ import annotations

import math

from core.model.entities import GROUND
from core.ranges import hertz

#: the damping ratio whose damping an undamped bearing's note gives, as a scale for the entry
RATIO = 0.05


def bearing_note(model, bearing) -> str:
    """One line on BearingSpringDamper `bearing` of `model` ('' when a body it names is not in the model): the
    radial and axial modes sqrt(k / m) / (2 pi) of body j on this bearing alone (m the two bodies' reduced mass
    where body i is not the ground) and their damping ratios, the couplings of the rest of the model left out."""
    masses = [model.bodies[b].mass if b in model.bodies else (math.inf if b == GROUND else None)
              for b in (bearing.body_i, bearing.body_j)]
    if None in masses:
        return ""
    m = 1.0 / (1.0 / masses[0] + 1.0 / masses[1])
    modes = [mode(what, k, c, m) for what, k, c in
             (("radial mode", bearing.radial_stiffness, bearing.radial_damping),
              ("axial mode", bearing.axial_stiffness, bearing.axial_damping)) if k > 0]
    if not modes:
        return f"no radial or axial stiffness: it holds {bearing.body_j} in no direction"
    if bearing.body_i == GROUND:
        return f"{', '.join(modes)} ({bearing.body_j} alone on it, {m:.4g} kg)"
    return f"{', '.join(modes)} ({bearing.body_j} against {bearing.body_i} on it alone, reduced mass {m:.4g} kg)"


def mode(what: str, k: float, c: float, m: float) -> str:
    """A mode of mass m [kg] on stiffness k [N/m] and damping c [N s/m]: its frequency sqrt(k / m) / (2 pi) and
    its damping ratio c / (2 sqrt(k m)); undamped, the damping that gives RATIO of critical."""
    critical = 2.0 * math.sqrt(k * m)
    if c > 0:
        return f"{what} {hertz(math.sqrt(k / m) / (2 * math.pi))} at {100 * c / critical:.3g} % of critical damping"
    return (f"{what} {hertz(math.sqrt(k / m) / (2 * math.pi))} undamped ({100 * RATIO:g} % of critical is "
            f"{RATIO * critical:.4g} N s/m)")
