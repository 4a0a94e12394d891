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


#: two principal moments of inertia this close (relative to the largest) are one: a gear's n-fold symmetry (n >= 3)
#: makes them equal but for the tessellation of its file; the third must stand this far apart to be an axis
EQUAL_MOMENTS, DISTINCT_MOMENT = 1e-3, 1e-2


def made_on_z(body) -> bool:
    """Whether the body turns about its own z axis by its making: a generated gear, or a cylinder."""
    return isinstance(body.visual, GearSource) or (isinstance(body.visual, PrimitiveSource)
                                                    and body.visual.shape == "cylinder")


def symmetry_axis(body) -> np.ndarray | None:
    """The axis of symmetry of a body's inertia, world, initial pose: the principal axis whose moment stands apart
    from the two others, which are equal (EQUAL_MOMENTS), as any n-fold symmetry with n >= 3 makes them (a gear
    read from a file); its largest component positive. None where no one axis stands apart (a cube, a box)."""
    moments, axes = np.linalg.eigh(np.asarray(body.inertia, float))
    scale = moments.max()
    for k, (i, j) in ((0, (1, 2)), (2, (0, 1))):
        if moments[j] - moments[i] <= EQUAL_MOMENTS * scale and abs(moments[k] - moments[i]) >= DISTINCT_MOMENT * scale:
            axis = rotate(body.orientation, axes[:, k])
            return axis * np.sign(axis[np.argmax(np.abs(axis))])
    return None


def has_own_axis(body) -> bool:
    """Whether the body has an axis it turns about by its making (`made_on_z`) or by its inertia (an imported
    part: `symmetry_axis`)."""
    return made_on_z(body) or symmetry_axis(body) is not None


def own_axis_joint(model, body: str) -> RevoluteJoint:
    """A revolute joint from the ground to `body` about its own axis, named after the body and free in `model`:
    a generated gear's or a cylinder's z axis through its origin (a cylindrical gear's origin on its mid-face
    plane, a bevel gear's at its heel); another body's `symmetry_axis` through its centre of mass."""
    b = model.bodies[body]
    if made_on_z(b):
        axis, at = quat_matrix(b.orientation)[:, 2], b.position
    else:
        axis, at = symmetry_axis(b), np.add(b.position, rotate(b.orientation, b.com))
    return RevoluteJoint(model.free_name(f"{body}_joint"), GROUND, body, tuple(float(v) for v in at),
                         tuple(float(v) for v in axis))


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


def generated_gears(model, pair) -> list:
    """The bodies that carry `pair`'s teeth (gear 1's, then gear 2's) where they are generated gears."""
    bodies = (model.bodies.get(model.gear_body(pair, k)) for k in (1, 2))
    return [b for b in bodies if b is not None and isinstance(b.visual, GearSource)]


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
