"""The modes a spring-damper makes with what it holds, beside which a mesh frequency or a time step can be set, and
their damping as a share of critical (the damping an entry in N s/m gives is otherwise guesswork): a bearing's
radial, axial and tilt modes with its body alone, a torsional spring-damper's torsional mode with the gear train
that turns on its joint (core.analysis.train_ratio.train_inertia)."""

from __future__ import annotations

import math

import numpy as np

from core.analysis.train_ratio import train_inertia
from core.gearing.gear_bodies import axial_inertia, inertia_about
from core.model.entities import GROUND, RevoluteJoint
from core.ranges import DEG, hertz

#: the damping ratio whose damping an undamped bearing's note gives, as a scale for the entry
RATIO = 0.05


def bearing_note(model, bearing) -> str:
    """One line on BearingSpringDamper `bearing` of `model` ('' when a body it names is not in the model): the
    radial and axial modes sqrt(k / m) / (2 pi) of body j on this bearing alone (m the two bodies' reduced mass
    where body i is not the ground), its tilt mode sqrt(k_t / J) / (2 pi) (J about a tilt axis through the
    bearing's point: `tilt_inertia`), and their damping ratios, the couplings of the rest of the model left out."""
    bodies = [model.bodies.get(b) for b in (bearing.body_i, bearing.body_j)]
    if bodies[1] is None or (bodies[0] is None and bearing.body_i != GROUND):
        return ""
    m = reduced(*(b.mass if b is not None else math.inf for b in bodies))
    j = reduced(*(tilt_inertia(b, bearing) if b is not None else math.inf for b in bodies))
    modes = [mode(what, k, c, mass, unit) for what, k, c, mass, unit in
             (("radial mode", bearing.radial_stiffness, bearing.radial_damping, m, "N s/m"),
              ("axial mode", bearing.axial_stiffness, bearing.axial_damping, m, "N s/m"),
              ("tilt mode", bearing.tilt_stiffness, bearing.tilt_damping, j, "N m s/rad")) if k > 0]
    if not bearing.radial_stiffness > 0 and not bearing.axial_stiffness > 0:
        modes.insert(0, f"no radial or axial stiffness: it holds {bearing.body_j} in no direction")
    shares = f"{m:.4g} kg, {j:.4g} kg m^2 about a tilt axis"
    if bearing.body_i == GROUND:
        return f"{', '.join(modes)} ({bearing.body_j} alone on it, {shares})"
    return f"{', '.join(modes)} ({bearing.body_j} against {bearing.body_i} on it alone, reduced: {shares})"


def torsion_note(model, spring) -> str:
    """One line on TorsionalSpringDamper `spring` of `model` ('' when its joint is not a revolute joint of the
    model): the torsional mode sqrt(k / J) / (2 pi) of what turns on the joint and its damping ratio, and the
    torque k theta0 it starts with where its angle at rest is not the start's. J is the gear train's inertia
    referred to the joint (`train_inertia`: the gears it meshes with turn too, its meshes rigid and the bearings
    and springs that hold its members still); where the train gives none (the joint held), that of body j and
    what is welded to it alone (against body i's piece where that is not the ground: the reduced inertia about
    the axis)."""
    joint = model.joints.get(spring.joint)
    if not isinstance(joint, RevoluteJoint):
        return ""
    alone = reduced(*(turning_inertia(model, joint, b) for b in (joint.body_i, joint.body_j)))
    found = train_inertia(model, joint.name)
    train, held = found if found is not None else (None, ())
    j = alone if train is None else train
    if spring.stiffness > 0:
        what = mode("torsional mode", spring.stiffness, spring.damping, j, "N m s/rad")
    else:
        what = "no stiffness: it holds no angle" + (", its damping only slows the turn" if spring.damping > 0 else "")
    start = spring.stiffness * spring.angle0
    if start:
        what += (f"; at the start it puts {start:.6g} N m on {joint.body_j} about the axis (its angle at rest is "
                 f"{spring.angle0 * DEG['scale']:.6g} deg from the start's)")
    if train is not None and not math.isclose(train, alone, rel_tol=1e-9):
        return (f"{what} (the gear train on it: {j:.4g} kg m^2 referred to {joint.name}'s axis, its meshes rigid"
                f"{', its supports held' if held else ''})")
    who = "alone on it" if joint.body_i == GROUND else f"against {joint.body_i}, reduced"
    return f"{what} ({joint.body_j} {who}: {j:.4g} kg m^2 about {joint.name}'s axis)"


def turning_inertia(model, joint, body: str) -> float:
    """The inertia [kg m^2] about `joint`'s axis of `body` and what is welded to it (inf for the ground)."""
    piece = model.rigid_piece(body)
    if body == GROUND or GROUND in piece:
        return math.inf
    return sum(axial_inertia(model.bodies[b], joint.position, joint.unit_axis()) for b in piece if b in model.bodies)


def reduced(a: float, b: float) -> float:
    """The reduced mass or inertia of two bodies that move against each other (a of the ground: inf)."""
    return 1.0 / (1.0 / a + 1.0 / b)


def tilt_inertia(body, bearing) -> float:
    """A body's inertia [kg m^2] about a tilt axis of `bearing`, through its point, square to its axis: the larger
    of the two principal ones (the lower tilt mode; a gear's two are equal)."""
    a = np.asarray(bearing.axis, float) / np.linalg.norm(bearing.axis)
    t1 = np.cross(a, (1.0, 0.0, 0.0) if abs(a[0]) < 0.9 else (0.0, 1.0, 0.0))
    t1 /= np.linalg.norm(t1)
    plane = np.column_stack([t1, np.cross(a, t1)])
    return float(np.linalg.eigvalsh(plane.T @ inertia_about(body, bearing.position) @ plane).max())


def mode(what: str, k: float, c: float, m: float, unit: str) -> str:
    """A mode of mass (or inertia) m on stiffness k and damping c (in `unit`): its frequency sqrt(k / m) / (2 pi)
    and its damping ratio c / (2 sqrt(k m)); undamped, the damping that gives RATIO of critical."""
    critical = 2.0 * math.sqrt(k * m)
    if c > 0:
        return f"{what} {hertz(math.sqrt(k / m) / (2 * math.pi))} at {100 * c / critical:.3g} % of critical damping"
    return (f"{what} {hertz(math.sqrt(k / m) / (2 * math.pi))} undamped ({100 * RATIO:g} % of critical is "
            f"{RATIO * critical:.4g} {unit})")
