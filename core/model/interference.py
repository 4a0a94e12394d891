"""Bodies whose solids overlap at their initial poses, found cheaply enough to check on every edit.

Each body is represented by a simple solid in its own axes: a generated gear
by the ring between its bore and its tip circle (an inner gear: between its
tip circle and its rim; a bevel gear: the same ring tapering to the apex over
its face width), a primitive by itself, an imported mesh by its bounding box.
Two bodies are compared only when their bounding spheres meet; then points on
the boundary of each solid are tested inside the other. Gears that a gear
pair couples touch at their pitch circles by design and are not compared,
nor are bodies welded by a fixed joint (one part).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.spatial import cKDTree

from core.geometry.macro import bevel_geometry, cylindrical_geometry
from core.geometry.mesh_import import MeshImportError
from core.geometry.rotations import quat_matrices
from core.model.body_shapes import source_arrays
from core.model.entities import FixedJoint, GearSource, MeshFileSource, PrimitiveSource, RigidBody
from core.model.model import Model, cached

TOLERANCE = 1e-6  # m: surfaces that only touch do not overlap
RING_POINTS = 96


@dataclass(frozen=True)
class Solid:
    """A ring (r_in to r_out, tapering linearly in z from z0 to z1) or a box (centre, half sizes), in body axes [m]."""

    kind: str
    z0: float = 0.0
    z1: float = 0.0
    r_in: float = 0.0
    r_out0: float = 0.0
    r_out1: float = 0.0
    centre: tuple = (0.0, 0.0, 0.0)
    half: tuple = (0.0, 0.0, 0.0)

    def contains(self, p: np.ndarray) -> np.ndarray:
        """Which points (n, 3), body axes, lie inside by more than TOLERANCE."""
        if self.kind == "box":
            return np.all(np.abs(p - np.asarray(self.centre)) < np.asarray(self.half) - TOLERANCE, axis=1)
        z = p[:, 2]
        s = np.clip((z - self.z0) / (self.z1 - self.z0), 0.0, 1.0)
        r_out = self.r_out0 + s * (self.r_out1 - self.r_out0)
        r = np.hypot(p[:, 0], p[:, 1])
        return ((z > self.z0 + TOLERANCE) & (z < self.z1 - TOLERANCE) & (r > self.r_in + TOLERANCE)
                & (r < r_out - TOLERANCE))

    def samples(self) -> np.ndarray:
        """Points of the solid (body axes): a ring's inner, middle and outer circles at both ends and mid-height;
        a box's corners, edge and face centres."""
        if self.kind == "box":
            g = np.array([-1.0, 0.0, 1.0])
            grid = np.array(np.meshgrid(g, g, g)).reshape(3, -1).T
            grid = grid[np.any(np.abs(grid) == 1, axis=1)]
            return np.asarray(self.centre) + grid * np.asarray(self.half)
        t = np.linspace(0.0, 2 * math.pi, RING_POINTS, endpoint=False)
        c, s = np.cos(t), np.sin(t)
        out = []
        for frac in (0.0, 0.5, 1.0):
            z = self.z0 + frac * (self.z1 - self.z0)
            r_out = self.r_out0 + frac * (self.r_out1 - self.r_out0)
            for r in (self.r_in, 0.5 * (self.r_in + r_out), r_out):  # the middle circle finds coaxial overlaps
                if r > 0:
                    out.append(np.column_stack([r * c, r * s, np.full_like(t, z)]))
        out.append(np.array([[0.0, 0.0, self.z0], [0.0, 0.0, self.z1], [0.0, 0.0, 0.5 * (self.z0 + self.z1)]]))
        return np.vstack(out)

    def sphere(self) -> tuple[np.ndarray, float]:
        """Bounding sphere: centre (body axes) and radius [m]."""
        if self.kind == "box":
            return np.asarray(self.centre, float), float(np.linalg.norm(self.half))
        return (np.array([0.0, 0.0, 0.5 * (self.z0 + self.z1)]),
                float(math.hypot(max(self.r_out0, self.r_out1), 0.5 * (self.z1 - self.z0))))


def solid_of(body: RigidBody, base_dir=None) -> Solid | None:
    """The simple solid standing for `body`, or None when it has no shape (or its file cannot be read)."""
    v = body.visual
    if isinstance(v, GearSource):
        spec = v.spec
        if spec.kind == "bevel":
            g = bevel_geometry(spec)
            z_back = -g.dedendum * math.sin(g.pitch_angle)
            z_front = g.apex_distance + g.inner_scale * (z_back - g.apex_distance)
            return Solid("ring", z_back, z_front, spec.bore_diameter / 2, g.outer_tip_radius,
                         g.outer_tip_radius * g.inner_scale)
        g = cylindrical_geometry(spec)
        half = spec.face_width / 2
        if spec.kind == "inner":
            return Solid("ring", -half, half, g.tip_radius, spec.rim_diameter / 2, spec.rim_diameter / 2)
        return Solid("ring", -half, half, spec.bore_diameter / 2, g.tip_radius, g.tip_radius)
    if isinstance(v, PrimitiveSource):
        if v.shape == "cylinder":
            return Solid("ring", -v.length / 2, v.length / 2, 0.0, v.radius, v.radius)
        return Solid("box", half=tuple(0.5 * s for s in v.size))
    if isinstance(v, MeshFileSource):
        try:
            vertices, _ = source_arrays(v, base_dir)
            lo, hi = vertices.min(axis=0), vertices.max(axis=0)
        except (MeshImportError, OSError, ValueError):
            return None
        return Solid("box", centre=tuple(0.5 * (lo + hi)), half=tuple(0.5 * (hi - lo)))
    return None


def _placed(body: RigidBody, base_dir):
    """(solid, rotation, origin, bounding-sphere centre, radius, the solid's sample points) in world axes, or ()
    without a shape."""
    solid = solid_of(body, base_dir)
    if solid is None:
        return ()
    rot, origin = quat_matrices(body.orientation), np.asarray(body.position, float)
    centre, radius = solid.sphere()
    return solid, rot, origin, origin + rot @ centre, radius, solid.samples() @ rot.T + origin


def reach(bodies, axis, at, base_dir=None) -> float:
    """How far the RigidBody `bodies` reach along the unit direction `axis` from the point `at` [m], by their simple
    solids (a body without one, as a mesh file that cannot be read: by its origin); -inf for no bodies."""
    farthest = -np.inf
    for body in bodies:
        entry = cached(body, f"solid_{base_dir}", lambda b: _placed(b, base_dir))
        points = entry[-1] if entry else np.asarray([body.position], float)
        farthest = max(farthest, float(((points - np.asarray(at, float)) @ np.asarray(axis, float)).max()))
    return farthest


def overlapping_bodies(model: Model, base_dir=None) -> list[tuple[str, str]]:
    """Pairs of body names whose solids overlap (beyond the gears that pairs couple and welded bodies)."""
    exempt = set()
    for p in model.gear_pairs.values():
        if p.joint1 in model.joints and p.joint2 in model.joints:
            exempt.add(frozenset((model.gear_body(p, 1), model.gear_body(p, 2))))
    for j in model.joints.values():
        if isinstance(j, FixedJoint):
            exempt.add(frozenset((j.body_i, j.body_j)))
    placed = []
    for body in model.bodies.values():
        entry = cached(body, f"solid_{base_dir}", lambda b: _placed(b, base_dir))
        if entry:
            placed.append((body.name, *entry))
    if len(placed) < 2:
        return []
    # the pairs whose bounding spheres may touch, from a k-d tree of their centres: n log n, not n^2 tests
    centres = np.array([entry[4] for entry in placed])
    radii = np.array([entry[5] for entry in placed])
    near = cKDTree(centres).query_pairs(2.0 * float(radii.max()), output_type="ndarray")
    found = []
    for i, j in sorted(map(tuple, near)):
        (na, sa, ra, oa, ca, rad_a, pa), (nb, sb, rb, ob, cb, rad_b, pb) = placed[i], placed[j]
        if frozenset((na, nb)) in exempt or np.linalg.norm(ca - cb) >= rad_a + rad_b:
            continue
        if sb.contains((pa - ob) @ rb).any() or sa.contains((pb - oa) @ ra).any():
            found.append((na, nb))
    return found
