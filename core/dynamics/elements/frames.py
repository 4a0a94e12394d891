"""A joint's point and axis fixed in both of its bodies, from the start pose: what the joint-based elements pack.

Assembly-time Python (numpy): the physics functions read the packed vectors.
"""

from __future__ import annotations

import math

import numpy as np

from core.geometry import vec3


def perpendiculars(a) -> tuple[tuple, tuple]:
    """Two unit vectors normal to the unit vector a and to each other."""
    b = vec3.cross(a, (1.0, 0.0, 0.0) if abs(a[0]) < 0.9 else (0.0, 1.0, 0.0))
    b1 = vec3.scale(1.0 / math.sqrt(vec3.dot(b, b)), b)
    return b1, vec3.cross(a, b1)


class JointFrame:
    """A joint's point p and unit axis a (world, at the start) in the axes of body i and body j (from each COM).

    Attributes: bi, bj (body indices, the ground n), si, sj (the point [m]), ai, aj (the axis), b1, b2 (two
    normals to the axis in body i's axes), rel (body i's axes seen in body j at the start).
    """

    def __init__(self, asm, body_i: str, body_j: str, point, axis):
        self.bi, self.bj = asm.index[body_i], asm.index[body_j]
        (xi, ri), (xj, rj) = asm.pose0(self.bi), asm.pose0(self.bj)
        p = np.asarray(point, float)
        a = np.asarray(axis, float) / np.linalg.norm(axis)
        self.point, self.axis = p, a
        self.si, self.sj = ri.T @ (p - xi), rj.T @ (p - xj)
        self.ai, self.aj = ri.T @ a, rj.T @ a
        n1, n2 = perpendiculars(a)
        self.b1, self.b2 = ri.T @ np.array(n1), ri.T @ np.array(n2)
        self.rel = rj.T @ ri

    def floats(self) -> list[float]:
        """si, sj, ai, aj, b1, b2: 18 floats."""
        return [*self.si, *self.sj, *self.ai, *self.aj, *self.b1, *self.b2]
