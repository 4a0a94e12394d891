"""Where a model's joints, pitch points, pitch circles and spring-dampers are at given body poses: what an
animation draws besides the bodies.

Joints store their point and axis in world axes at the initial pose; here they
are carried into the axes of their gear (body j) once, so any later pose of
the bodies places them by one rotation. Pitch points and tooth-force
directions come from the same core.gearing formulas the solver uses.
"""

from __future__ import annotations

import numpy as np

from core.gearing.gear_bodies import mesh_centre
from core.gearing.pitch_point import PairGeometryData, contact_frame, force_direction
from core.geometry.rotations import quat_matrices
from core.model.entities import GROUND, RevoluteJoint, SpringDamper
from core.model.model import Model


class Scene:
    """Joint axes, tooth forces, pitch circles and spring-damper ends of `model` at poses given in the order
    `bodies`."""

    def __init__(self, model: Model, bodies: list[str]):
        index = {name: k for k, name in enumerate(bodies)}
        self.joints: dict[str, tuple[int, np.ndarray, np.ndarray]] = {}
        for j in model.joints.values():
            if not isinstance(j, RevoluteJoint) or j.body_j == GROUND or j.body_j not in index:
                continue
            body = model.bodies[j.body_j]
            rot0 = quat_matrices(body.orientation)
            self.joints[j.name] = (index[j.body_j], rot0.T @ (np.asarray(j.position) - np.asarray(body.position)),
                                   rot0.T @ j.unit_axis())
        self.springs = {f.name: ((index.get(f.body_i, -1), np.asarray(f.point_i, float)),
                                 (index.get(f.body_j, -1), np.asarray(f.point_j, float)))
                        for f in model.forces.values() if isinstance(f, SpringDamper)}
        self.pairs = {}
        for p in model.gear_pairs.values():
            if p.joint1 in self.joints and p.joint2 in self.joints:
                centres = []
                for k, jn in ((1, p.joint1), (2, p.joint2)):
                    body = model.bodies[model.joints[jn].body_j]
                    rot0 = quat_matrices(body.orientation)
                    centres.append(rot0.T @ (mesh_centre(model, p, k) - np.asarray(body.position)))
                self.pairs[p.name] = (p.joint1, p.joint2, PairGeometryData.of(p), centres)

    def joint_axes(self, positions: np.ndarray, orientations: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """{joint: (point [m], unit axis)} in world axes."""
        rot = quat_matrices(orientations)
        return {name: (positions[k] + rot[k] @ p, rot[k] @ a) for name, (k, p, a) in self.joints.items()}

    def spring_ends(self, positions: np.ndarray, orientations: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """{spring-damper: (its end on body i, its end on body j) [m]} in world axes (a point is in its body's axes
        from the body's origin; the ground's stands where it is)."""
        rot = quat_matrices(orientations) if len(orientations) else np.zeros((0, 3, 3))

        def end(k, point):
            return point if k < 0 else positions[k] + rot[k] @ point

        return {name: (end(*i), end(*j)) for name, (i, j) in self.springs.items()}

    def tooth_forces(self, positions: np.ndarray, orientations: np.ndarray, ft: dict[str, float]):
        """{pair: (pitch point [m], tooth force on gear 2 [N])} for the pairs with a tangential force in `ft`."""
        return {name: (frame.point, force) for name, frame, force in self._forces(positions, orientations, ft)}

    def tooth_force_parts(self, positions: np.ndarray, orientations: np.ndarray, ft: dict[str, float]):
        """{pair: (pitch point [m], {'Ft', 'Fr', 'Fa': vector [N]})}: the tooth force on gear 2 split along gear 1's
        pitch-circle tangent (Ft), its axis (Fa) and the rest (Fr, the radial part), world axes."""
        out = {}
        for name, frame, force in self._forces(positions, orientations, ft):
            tangential, axial = np.dot(force, frame.t) * frame.t, np.dot(force, frame.a1) * frame.a1
            out[name] = (frame.point, {"Ft": tangential, "Fr": force - tangential - axial, "Fa": axial})
        return out

    def pitch_circles(self, positions: np.ndarray, orientations: np.ndarray):
        """{pair: ((centre [m], unit axis, radius [m]) of gear 1, of gear 2)}, world: each gear's working pitch
        circle about its axis in its mid-face plane, so a gap or an overlap between a pair's two shows a gear off
        its centre distance; a bevel pair's mean cone circles, through its pitch point."""
        out = {}
        for name, geo, frame, (c1, a1), (c2, a2) in self._frames(positions, orientations, self.pairs):
            if geo.kind == "bevel":
                out[name] = tuple(_through(frame.point, c, a) for c, a in ((c1, a1), (c2, a2)))
            else:
                out[name] = ((c1, a1, geo.r1), (c2, a2, geo.r2))
        return out

    def _forces(self, positions, orientations, ft):
        """(pair, its contact frame, tooth force on gear 2 [N]) for the pairs with a tangential force in `ft`."""
        for name, geo, frame, _, _ in self._frames(positions, orientations, ft):
            f = ft[name]
            yield name, frame, -f * force_direction(geo, frame, 1.0 if f >= 0 else -1.0)

    def _frames(self, positions, orientations, names):
        """(pair, its geometry, its contact frame, (gear 1's mid-face centre, axis), (gear 2's)) for the pairs of
        this scene in `names`, world."""
        axes = self.joint_axes(positions, orientations)
        rot = quat_matrices(orientations)
        for name, (j1, j2, geo, (m1, m2)) in self.pairs.items():
            if name not in names:
                continue
            (_, a1), (_, a2) = axes[j1], axes[j2]
            k1, k2 = self.joints[j1][0], self.joints[j2][0]
            c1, c2 = positions[k1] + rot[k1] @ m1, positions[k2] + rot[k2] @ m2
            yield name, geo, contact_frame(geo, c1, a1, c2, a2), (c1, a1), (c2, a2)


def _through(point: np.ndarray, centre: np.ndarray, axis: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The circle about the axis through `centre` along unit `axis` that passes through `point`: (its centre,
    the axis, its radius)."""
    foot = centre + axis * float(axis @ (point - centre))
    return foot, axis, float(np.linalg.norm(point - foot))
