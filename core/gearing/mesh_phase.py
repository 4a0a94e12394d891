"""Where a gear pair's mesh cycle stands: the reference gear whose teeth count the mesh periods, and the phase at the
start, from the geometry. One source for the multibody compliant mesh and the lumped train (core.chbm).

The mesh phase (a fraction of a mesh period) is z theta / 2 pi + phase0 with theta the reference gear's angle on
its joint since the start. The reference gear is the one that turns on the pair's carrier (a planet, directly
or through a hub on a bearing), else gear 1. phase0 = z (beta - lambda) / 2 pi: beta the angle of the gear's
body x axis, where a generated gear has a tooth (the body that carries the teeth: a gear welded to a compound
shaft, named in the pair's gear1/gear2), and lambda the direction from its centre to the pitch point,
both about the joint axis. So a tooth of the reference gear on the line to the pitch point is phase 0, and
equally spaced planets come out at Parker's z_s psi_n / 2 pi of a period from one another.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from core.geometry.rotations import quat_matrix
from core.model.entities import GROUND, BearingSpringDamper, GearPair


@dataclass(frozen=True)
class MeshPhase:
    """joint: the reference gear's joint; teeth: its number of teeth; phase0: the mesh phase at the start [-]."""

    joint: str
    teeth: int
    phase0: float


def seat_of(model, body: str) -> str:
    """The body `body` sits on: its bearing's housing if it is on a bearing, else its joint's body_i ('' if none)."""
    for f in model.forces.values():
        if isinstance(f, BearingSpringDamper) and f.body_j == body:
            return f.body_i
    for j in model.joints.values():
        if j.body_j == body:
            return j.body_i
    return ""


def rides_on(model, body: str, carrier: str) -> bool:
    """Whether `body` sits on `carrier`, directly or through hubs."""
    seen = set()
    while body and body != GROUND and body not in seen:
        seen.add(body)
        body = seat_of(model, body)
        if body == carrier:
            return True
    return False


def mesh_rate(model, pair: GearPair) -> tuple[str, str, np.ndarray]:
    """How fast the pair's mesh cycle runs: (gear 1's body, the carrier (GROUND for none), Hz per rad/s (3,)).

    The mesh frequency is |per . (w_gear - w_carrier)| [Hz] with the two bodies' angular velocities [rad/s]: z1
    tooth passes per turn of gear 1 about its joint's axis relative to the carrier (the same rate as the
    reference gear's, whose phase `mesh_phase` gives, while the teeth roll on one another).
    """
    joint = model.joints[pair.joint1]
    return joint.body_j, pair.carrier, pair.z1 / (2 * math.pi) * joint.unit_axis()


def mesh_phase(model, pair: GearPair) -> MeshPhase:
    """The pair's reference gear and its mesh phase at the start (see the module docstring)."""
    j1, j2 = model.joints[pair.joint1], model.joints[pair.joint2]
    second = pair.carrier != GROUND and rides_on(model, j2.body_j, pair.carrier) and not rides_on(
        model, j1.body_j, pair.carrier)
    ref, other, teeth = (j2, j1, pair.z2) if second else (j1, j2, pair.z1)
    axis = ref.unit_axis()
    e1 = np.cross(axis, [0.0, 0.0, 1.0]) if abs(axis[2]) < 0.9 else np.cross([0.0, 1.0, 0.0], axis)
    e1 = e1 / np.linalg.norm(e1)
    e2 = np.cross(axis, e1)
    toward = np.asarray(other.position, float) - np.asarray(ref.position, float)
    if pair.kind == "internal" and ref is j1:  # the pitch point lies beyond the pinion, away from the ring's centre
        toward = -toward
    lam = math.atan2(toward @ e2, toward @ e1)
    teeth_body = model.gear_body(pair, 2 if second else 1)  # a gear welded to a compound shaft carries its own teeth
    x_axis = quat_matrix(model.bodies[teeth_body].orientation) @ np.array([1.0, 0.0, 0.0])
    beta = math.atan2(x_axis @ e2, x_axis @ e1)
    phase = (teeth * (beta - lam) / (2 * math.pi)) % 1.0
    return MeshPhase(ref.name, teeth, 0.0 if abs(phase - 1.0) < 1e-12 else phase)
