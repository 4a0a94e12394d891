"""The lumped pair of Eq. (7) built from a gear pair of a GearDyn model."""

from __future__ import annotations

import math

import numpy as np

from core.chbm.lumped_model import LumpedModel, pair_model
from core.geometry.macro import pair_geometry
from core.geometry.rotations import quat_matrix
from core.model.model import Model, ModelError

# ISO 6336-1:2019, 9.3: theoretical single-pair stiffness of solid steel spur
# gears of standard basic rack, c'_th about 14 N/(mm um) per mm of face width
# (14e9 N/m per m); the mesh stiffness follows the single-pair value times
# the number of pairs in contact, as the step-gap model does.
SINGLE_PAIR_STIFFNESS_PER_WIDTH = 14e9  # N/m per m of face width
DEFAULT_DAMPING_RATIO = 0.07  # of the mean mesh stiffness and the equivalent mass


def polar_inertia(model: Model, joint_name: str) -> float:
    """Inertia [kg m^2] of the joint's gear body about the joint axis (parallel-axis term included)."""
    joint = model.joints[joint_name]
    body = model.bodies[joint.body_j]
    r = quat_matrix(body.orientation)
    inertia_world = r @ np.asarray(body.inertia) @ r.T
    a = joint.unit_axis()
    com = np.asarray(body.position) + r @ np.asarray(body.com)
    d = com - np.asarray(joint.position)
    d_perp = d - a * (a @ d)
    return float(a @ inertia_world @ a + body.mass * (d_perp @ d_perp))


def lumped_from_model(model: Model, pair_name: str, torque: float, contact_stiffness: float | None = None,
                      damping: float | None = None) -> LumpedModel:
    """Lumped pair from `pair_name`: inertias from the bodies, base radii and contact ratio from the pair.

    Parameters
    ----------
    torque : float
        Torque on gear 1 [N m].
    contact_stiffness : float, optional
        Single tooth-pair stiffness [N/m]; estimated from the face width by ISO 6336-1 when omitted.
    damping : float, optional
        Mesh damping C [N s/m]; 7 % of critical for the mean stiffness when omitted.
    """
    pair = model.gear_pairs.get(pair_name)
    if pair is None:
        raise ModelError(f"--pair: the model has no gear pair {pair_name!r} (pairs: {', '.join(model.gear_pairs) or 'none'})")
    if pair.kind != "external":
        raise ModelError(f"--pair: {pair_name!r} is a {pair.kind} pair; the lumped model covers external spur/helical pairs")
    geo = pair_geometry(pair.pair_spec())
    cr = geo.transverse_contact_ratio
    if not 1.0 < cr < 2.0:
        raise ModelError(f"{pair_name}: transverse contact ratio {cr:.4g} is outside (1, 2) where the step-gap model holds")
    notes = []
    if contact_stiffness is None:
        if pair.face_width <= 0:
            raise ModelError(f"{pair_name}.face_width: is 0; give the contact stiffness or set the face width")
        contact_stiffness = SINGLE_PAIR_STIFFNESS_PER_WIDTH * pair.face_width
        notes.append(f"contact stiffness {contact_stiffness:.4g} N/m per tooth pair from ISO 6336-1 c' = 14 N/(mm um) "
                     f"times b = {pair.face_width * 1e3:g} mm")
    if pair.helix_angle:
        notes.append("helical pair treated as spur with its transverse contact ratio (the step-gap model has no overlap)")
    r1, r2 = (r * math.cos(geo.working_pressure_angle) for r in pair.pitch_radii())
    i1, i2 = polar_inertia(model, pair.joint1), polar_inertia(model, pair.joint2)
    if damping is None:
        m_eq = i1 * i2 / (i1 * r2**2 + i2 * r1**2)
        damping = 2 * DEFAULT_DAMPING_RATIO * math.sqrt(cr * contact_stiffness * m_eq)
        notes.append(f"damping {damping:.4g} N s/m = {DEFAULT_DAMPING_RATIO:.0%} of critical for the mean mesh stiffness")
    return pair_model(i1, i2, r1, r2, damping, torque, cr, contact_stiffness,
                      description=f"{model.name}: {pair_name}, T = {torque:g} N m", notes=tuple(notes))
