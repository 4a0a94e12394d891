"""Where a pair's gear has its mid-face plane on its joint axis, and what turns with a gear (its welded piece).

A gear pair names two revolute joints; normally each joint's body_j is the
gear. On a compound shaft the second gear is a body of its own welded to
the shaft (a fixed joint), and the pair names it in `gear1`/`gear2`
(`Model.gear_body` says which body carries each gear). The
pitch point lies in the mid-face plane of the gear that meshes, so the
bearing moments come out right; the joint's own point may sit anywhere on
its axis.
"""

from __future__ import annotations

import numpy as np

from core.geometry.macro import bevel_geometry
from core.geometry.rotations import quat_matrix, rotate
from core.model.entities import GROUND, GearSource, PrimitiveSource, RevoluteJoint


def has_own_axis(body) -> bool:
    """Whether the body turns about its own z axis by its making: a generated gear, or a cylinder."""
    return isinstance(body.visual, GearSource) or (isinstance(body.visual, PrimitiveSource)
                                                    and body.visual.shape == "cylinder")


def own_axis_joint(model, body: str) -> RevoluteJoint:
    """A revolute joint from the ground to `body` about the body's own z axis through its origin (a generated
    gear's axis: a cylindrical gear's origin on its mid-face plane, a bevel gear's at its heel), named after the
    body and free in `model`."""
    b = model.bodies[body]
    axis = tuple(float(v) for v in quat_matrix(b.orientation)[:, 2])
    return RevoluteJoint(model.free_name(f"{body}_joint"), GROUND, body, b.position, axis)


def mid_face_point(body) -> np.ndarray:
    """A point of the gear's mid-face plane (world, initial pose) [m].

    A generated gear is built symmetric about its body origin's xy plane
    (helical and inner gears; a bevel gear's origin is at its heel and its
    pitch point comes from the apex instead); any other body uses its centre
    of mass.
    """
    if isinstance(body.visual, GearSource):
        return np.asarray(body.position, float)
    return np.asarray(body.position, float) + rotate(body.orientation, body.com)


def bevel_apex(body) -> np.ndarray | None:
    """The pitch apex of a generated bevel gear [m], world, initial pose: its heel's centre (the body's origin) and
    the apex distance r / tan(gamma) up its z axis; None for any other body."""
    if not isinstance(body.visual, GearSource) or body.visual.spec.kind != "bevel":
        return None
    return np.asarray(body.position, float) + bevel_geometry(body.visual.spec).apex_distance * quat_matrix(
        body.orientation) @ np.array([0.0, 0.0, 1.0])


def welded(model, a: str, b: str) -> bool:
    """True when bodies a and b are one rigid piece through fixed joints."""
    return b in model.rigid_piece(a)


def on_one_line(joint_a, joint_b, same_direction: bool = False) -> bool:
    """Whether two revolute joints turn about one line (axes parallel, each point on the other's axis); with
    `same_direction`, axes pointing the same way too."""
    a = joint_a.unit_axis()
    along = float(a @ joint_b.unit_axis())
    d = np.asarray(joint_b.position, float) - np.asarray(joint_a.position, float)
    parallel = along > 1.0 - 1e-9 or (not same_direction and along < -1.0 + 1e-9)
    return parallel and float(np.linalg.norm(d - a * (a @ d))) < 1e-9


def mesh_centre(model, pair, k: int) -> np.ndarray:
    """Gear k's centre in its mid-face plane: the joint-axis point closest to that plane (world, initial) [m]."""
    joint = model.joints[pair.joint1 if k == 1 else pair.joint2]
    a = joint.unit_axis()
    p = np.asarray(joint.position, float)
    body = model.bodies.get(model.gear_body(pair, k))
    if body is None:
        return p
    return p + a * float(a @ (mid_face_point(body) - p))


def polar_inertia(model, joint_name: str) -> float:
    """Inertia [kg m^2] about the joint axis of what turns on the joint at the initial pose: its body_j and every body
    welded to it (a compound shaft's second gear, a flywheel)."""
    joint = model.joints[joint_name]
    return sum(axial_inertia(model.bodies[b], joint.position, joint.unit_axis())
               for b in model.rigid_piece(joint.body_j) if b in model.bodies)


def axial_inertia(body, point, axis) -> float:
    """Inertia [kg m^2] of one body about the axis (unit, world) through `point` (world) [m], parallel-axis term
    included, at its initial pose."""
    a = np.asarray(axis, float)
    return float(a @ inertia_about(body, point) @ a)


def inertia_about(body, point) -> np.ndarray:
    """Inertia tensor (3, 3) [kg m^2] of one body about `point` (world) [m], world axes, at its initial pose: its
    own about its centre of mass turned into the world, and the parallel-axis term m (|d|^2 E - d d^T)."""
    r = quat_matrix(body.orientation)
    d = np.asarray(body.position) + r @ np.asarray(body.com) - np.asarray(point, float)
    return r @ np.asarray(body.inertia) @ r.T + body.mass * ((d @ d) * np.eye(3) - np.outer(d, d))
