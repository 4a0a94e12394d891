"""Constraint rows: revolute (5), fixed (6), gear pair (1), prescribed speed (1), and their builders.

Each constraint gives, at a snapshot of the state, its velocity Jacobian
blocks per body (rows x 6: linear then angular velocity, world axes), the
blocks of the directions its multipliers act in (equal to the Jacobian except
for a gear pair, whose tooth force has radial and axial parts), gamma (the
acceleration terms -dJ/dt v), and the position-level error used by Baumgarte
stabilisation. Body index -1 is the ground.
"""

from __future__ import annotations

import numpy as np

from core.dynamics.elements import builds
from core.geometry import vec3
from core.geometry.rotations import axis_angle_matrix, skew
from core.gearing.gear_bodies import mesh_centre
from core.gearing.pitch_point import (PairGeometryData, contact_frame, contact_frame_rate, force_parts, pitch_jdot_v,
                                      pitch_slip_rate)
from core.model import entities as E


def cross(a, b) -> np.ndarray:
    """Cross product of two 3-vectors (np.cross is slow for single vectors)."""
    return np.array(vec3.cross(a, b))


class Snapshot:
    """Positions, rotations and velocities of all bodies at one instant (ground: identity, at rest).

    For output samples a snapshot may hold many instants: every array then has a leading sample axis, and
    `pose` and the formulas that read only it work on all at once.
    """

    def __init__(self, x, rot, v, w, extra):
        self.x, self.rot, self.v, self.w, self.extra = x, rot, v, w, extra
        self.frames = {}  # the gear pairs' contact frames at this instant (GearConstraint.frame), made once

    def pose(self, b: int):
        """COM position, rotation, COM velocity and angular velocity of body b (the ground's for b < 0:
        shared read-only arrays, so a caller cannot change them)."""
        if b < 0:
            return _GROUND_POSE
        return self.x[..., b, :], self.rot[..., b, :, :], self.v[..., b, :], self.w[..., b, :]


def _read_only(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


_GROUND_POSE = (_read_only(np.zeros(3)), _read_only(np.eye(3)), _read_only(np.zeros(3)), _read_only(np.zeros(3)))


def _perpendiculars(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    helper = np.array([1.0, 0.0, 0.0]) if abs(a[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    b1 = cross(a, helper)
    b1 /= np.linalg.norm(b1)
    return b1, cross(a, b1)


class JointGeometry:
    """A joint's point and axis fixed in both bodies (body axes, from the COM), from the initial pose."""

    def __init__(self, bi: int, bj: int, point, axis, pose_i, pose_j):
        self.bi, self.bj = bi, bj
        (xi, ri), (xj, rj) = pose_i, pose_j
        p, a = np.asarray(point, float), np.asarray(axis, float) / np.linalg.norm(axis)
        self.si, self.sj = ri.T @ (p - xi), rj.T @ (p - xj)
        self.ai, self.aj = ri.T @ a, rj.T @ a
        b1, b2 = _perpendiculars(a)
        self.bi1, self.bi2 = ri.T @ b1, ri.T @ b2
        self.rel = rj.T @ ri  # body i axes seen in body j at the start (fixed joints)

    def points(self, s: Snapshot):
        xi, ri, vi, wi = s.pose(self.bi)
        xj, rj, vj, wj = s.pose(self.bj)
        return ri @ self.si, rj @ self.sj, (xi, ri, vi, wi), (xj, rj, vj, wj)

    def relative_speed(self, s: Snapshot) -> float:
        """Spin of body j relative to body i about the axis [rad/s]."""
        _, ri, _, wi = s.pose(self.bi)
        _, _, _, wj = s.pose(self.bj)
        if wi.ndim == wj.ndim == 1:
            return float(joint_spin(ri, self.ai, wi, wj)[1])
        # many samples: components first, (3, m) vectors and (3, 3, m) matrices; the result (m,)
        return joint_spin(np.moveaxis(ri, (-2, -1), (0, 1)), self.ai, np.moveaxis(wi, -1, 0), np.moveaxis(wj, -1, 0))[1]


def joint_spin(ri, ai, wi, wj):
    """A revolute joint's axis a = R_i a_i (world) and the spin a . (w_j - w_i) [rad/s] of body j relative to body
    i about it, from body i's rotation ri, the axis ai in body i's axes and both bodies' spins (3-sequences,
    core.geometry.vec3; the compiled Cartesian evaluation runs it too)."""
    a = vec3.rotate(ri, ai)
    return a, vec3.dot(a, vec3.sub(wj, wi))


class Constraint:
    """Rows of the constraint equations J a = gamma - Baumgarte terms, and the directions their multipliers act in.

    The contract of a constraint kind:

    1. ``name``, ``rows`` (how many equations) and ``stabilised`` (whether the
       Baumgarte terms act on its rows).
    2. ``evaluate(s)`` at a snapshot s returns ``(blocks, gamma, phi)``: blocks
       a list of (body index, J block (rows, 6), G block (rows, 6)) with linear
       then angular velocity in world axes (body -1, the ground, is skipped);
       gamma (rows,) the acceleration terms -(dJ/dt) v; phi (rows,) the
       position-level error. G = J unless the multipliers act in other
       directions (a gear pair's tooth force has radial and axial parts).
    3. It keeps no state between calls; an error that grows with time (a gear's
       phase, a motor's angle) is an extra state of the system instead.

    A constraint kind is made by a builder registered with
    ``@builds(EntityClass)`` (core.dynamics.elements).
    """

    name = ""
    rows = 0
    stabilised = True

    def evaluate(self, s: Snapshot):
        """(blocks, gamma, phi): blocks is a list of (body, J (rows, 6), G (rows, 6))."""
        raise NotImplementedError


def _point_rows(g: JointGeometry, s: Snapshot):
    ri_, rj_, (xi, _, _, wi), (xj, _, _, wj) = g.points(s)
    eye = np.eye(3)
    ji = np.hstack([eye, -skew(ri_)])
    jj = np.hstack([-eye, skew(rj_)])
    gamma = -cross(wi, cross(wi, ri_)) + cross(wj, cross(wj, rj_))
    phi = (xi + ri_) - (xj + rj_)
    return ji, jj, gamma, phi


class JointConstraint(Constraint):
    """A joint between two bodies: holonomic rows at its point (and axis) from `geometry`."""

    def __init__(self, name: str, geometry: JointGeometry):
        self.name, self.g = name, geometry


class RevoluteConstraint(JointConstraint):
    """Three point rows and two rows keeping the axes parallel; the formula is RevoluteRows' (for this joint
    alone here, for all of a system's revolute joints at once in System._jacobian)."""

    rows = 5
    _rows = None

    def evaluate(self, s):
        if self._rows is None:
            self._rows = RevoluteRows([self])
        _, _, jac_i, jac_j, gamma, phi = self._rows.evaluate(s)
        g = self.g
        return [(g.bi, jac_i[0], jac_i[0]), (g.bj, jac_j[0], jac_j[0])], gamma[0], phi[0]


class RevoluteRows:
    """The rows of many revolute joints at once, as arrays (tests/core/dynamics/test_elements.py holds them to
    central differences of the position errors along the motion).

    `evaluate(s)` returns the bodies i and j (k,) (-1 the ground), the J blocks on each (k, 5, 6), gamma and
    phi (k, 5).
    """

    def __init__(self, constraints):
        geos = [c.g for c in constraints]
        self.bi = np.array([g.bi for g in geos], dtype=int)
        self.bj = np.array([g.bj for g in geos], dtype=int)
        self.si, self.sj, self.aj, self.b1, self.b2 = (np.array([getattr(g, k) for g in geos], dtype=float).reshape(-1, 3)
                                                       for k in ("si", "sj", "aj", "bi1", "bi2"))

    def evaluate(self, s: Snapshot):
        n, k = len(s.x), len(self.bi)
        ground = np.zeros((1, 3))
        x, w = np.vstack([s.x, ground]), np.vstack([s.w, ground])  # row n: the ground
        rot = np.concatenate([s.rot, np.eye(3)[None]])
        i, j = np.where(self.bi < 0, n, self.bi), np.where(self.bj < 0, n, self.bj)
        # one component of all k joints per entry: (3, k) vectors, (3, 3, k) matrices
        arm_i, arm_j, gam, ph, c1, c2 = revolute_terms(x[i].T, rot[i].transpose(1, 2, 0), w[i].T, x[j].T,
                                                       rot[j].transpose(1, 2, 0), w[j].T, self.si.T, self.sj.T,
                                                       self.aj.T, self.b1.T, self.b2.T)
        jac_i, jac_j = np.zeros((k, 5, 6)), np.zeros((k, 5, 6))
        jac_i[:, :3, :3], jac_j[:, :3, :3] = np.eye(3), -np.eye(3)
        jac_i[:, :3, 3:], jac_j[:, :3, 3:] = -skew(np.array(arm_i).T), skew(np.array(arm_j).T)
        for m, c in enumerate((c1, c2)):
            jac_i[:, 3 + m, 3:] = np.array(c).T
            jac_j[:, 3 + m, 3:] = -jac_i[:, 3 + m, 3:]
        return self.bi, self.bj, jac_i, jac_j, np.array(gam).T, np.array(ph).T


def revolute_terms(xi, ri, wi, xj, rj, wj, si, sj, aj, b1, b2):
    """A revolute joint's rows at one instant, from body i's and j's COM x, rotation r and spin w (world) and
    the joint's point from each COM s, body j's axis aj and body i's two normals b1, b2 (body axes): the arms
    R s of both bodies, gamma (5,) (-(dJ/dt) v), phi (5,) (the point's gap, then b . a for each normal) and
    the angular J entries b x a of the two axis rows on body i (body j's are their negatives).

    Vectors are 3-sequences and matrices r[row, column] (core.geometry.vec3): numbers for one joint, arrays
    for many at once. The linear J entries are the identity (body i) and its negative; the angular ones of
    the point rows -[arm_i]x and [arm_j]x. One formula for RevoluteRows and the compiled Cartesian
    evaluation (core.dynamics.cartesian_kernel).
    """
    arm_i, arm_j = vec3.rotate(ri, si), vec3.rotate(rj, sj)
    gp = vec3.sub(vec3.cross(wj, vec3.cross(wj, arm_j)), vec3.cross(wi, vec3.cross(wi, arm_i)))
    pp = vec3.sub(vec3.add(xi, arm_i), vec3.add(xj, arm_j))
    a = vec3.rotate(rj, aj)
    wa = vec3.cross(wj, a)
    b = vec3.rotate(ri, b1)
    wb = vec3.cross(wi, b)
    gam1 = -(vec3.dot(vec3.cross(wi, wb), a) + 2.0 * vec3.dot(wb, wa) + vec3.dot(b, vec3.cross(wj, wa)))
    c1, phi1 = vec3.cross(b, a), vec3.dot(b, a)
    b = vec3.rotate(ri, b2)
    wb = vec3.cross(wi, b)
    gam2 = -(vec3.dot(vec3.cross(wi, wb), a) + 2.0 * vec3.dot(wb, wa) + vec3.dot(b, vec3.cross(wj, wa)))
    c2, phi2 = vec3.cross(b, a), vec3.dot(b, a)
    return arm_i, arm_j, (gp[0], gp[1], gp[2], gam1, gam2), (pp[0], pp[1], pp[2], phi1, phi2), c1, c2


class FixedConstraint(JointConstraint):
    rows = 6

    def evaluate(self, s):
        g = self.g
        ji, jj, gamma_p, phi_p = _point_rows(g, s)
        _, ri, _, _ = s.pose(g.bi)
        _, rj, _, _ = s.pose(g.bj)
        # orientation error: half the sum of e_k(i) x e_k(j) over the axes; its rate is w_j - w_i
        phi_r = 0.5 * sum(cross(ri[:, k], rj @ g.rel[:, k]) for k in range(3))
        zero, eye = np.zeros((3, 3)), np.eye(3)
        jbi = np.vstack([ji, np.hstack([zero, -eye])])
        jbj = np.vstack([jj, np.hstack([zero, eye])])
        return [(g.bi, jbi, jbi), (g.bj, jbj, jbj)], np.concatenate([gamma_p, np.zeros(3)]), np.concatenate([phi_p, phi_r])


class SpeedConstraint(Constraint):
    """a . (w_j - w_i) = s(t): a motor (or a brake at s = 0) on a revolute joint."""

    rows = 1

    def __init__(self, name: str, geometry: JointGeometry, law, error_index: int):
        self.name, self.g, self.law, self.error_index = name, geometry, law, error_index

    def evaluate(self, s, t: float = 0.0):
        g = self.g
        _, ri, _, wi = s.pose(g.bi)
        _, _, _, wj = s.pose(g.bj)
        a, coriolis = speed_row(ri, g.ai, wi, wj)
        a = np.array(a)
        ji = np.concatenate([np.zeros(3), -a])[None]
        jj = np.concatenate([np.zeros(3), a])[None]
        gamma = np.array([self.law.derivative(t) - coriolis])
        return [(g.bi, ji, ji), (g.bj, jj, jj)], gamma, np.array([s.extra[self.error_index]])


def speed_row(ri, ai, wi, wj):
    """A speed row a . (w_j - w_i) = s(t): its axis a = R_i a_i (the angular J entries, -a on body i and a on body
    j) and (dJ/dt) v = (w_i x a) . (w_j - w_i) (3-sequences, core.geometry.vec3; compiled too)."""
    a = vec3.rotate(ri, ai)
    return a, vec3.dot(vec3.cross(wi, a), vec3.sub(wj, wi))


class GearConstraint(Constraint):
    """No slip at the pitch point; the multiplier is Ft and acts with its radial and axial parts."""

    rows = 1

    def __init__(self, name: str, pair: PairGeometryData, joint1: JointGeometry, joint2: JointGeometry,
                 error_index: int, stabilised: bool, centres=None):
        """`centres`: each gear's centre in its mid-face plane, in its joint's body_j axes from the COM [m]
        (default: the joint points)."""
        self.name, self.pair, self.j1, self.j2 = name, pair, joint1, joint2
        self.error_index, self.stabilised = error_index, stabilised
        self.c1, self.c2 = centres if centres is not None else (joint1.sj, joint2.sj)

    def frame(self, s: Snapshot):
        found = s.frames.get(self.name)
        if found is None:
            found = s.frames[self.name] = self._frame(s)
        return found

    def _frame(self, s: Snapshot):
        g1, g2 = self.j1.bj, self.j2.bj
        x1, r1, v1, w1 = s.pose(g1)
        x2, r2, v2, w2 = s.pose(g2)
        c1, c2 = x1 + r1 @ self.c1, x2 + r2 @ self.c2
        f = contact_frame(self.pair, c1, r1 @ self.j1.aj, c2, r2 @ self.j2.aj)
        return f, (x1, v1, w1), (x2, v2, w2)

    def slip_rate(self, s: Snapshot) -> float:
        """t . (v1(P) - v2(P)) [m/s]: the rate of the pair's phase error at the pitch circle."""
        f, (x1, v1, w1), (x2, v2, w2) = self.frame(s)
        return float(pitch_slip_rate(f.point, f.t, x1, v1, w1, x2, v2, w2))

    def blocks(self, s: Snapshot):
        """Jacobian blocks, force-direction blocks without and with only the separating part, and gamma.

        The tooth force per unit Ft is base + sign(Ft) * separating (radial, and bevel thrust).
        """
        f, (x1, v1, w1), (x2, v2, w2) = self.frame(s)
        rho1, rho2 = f.point - x1, f.point - x2
        t = f.t
        j1 = np.concatenate([t, cross(rho1, t)])[None]
        j2 = -np.concatenate([t, cross(rho2, t)])[None]
        base, sep = force_parts(self.pair, f)
        blocks = [(self.j1.bj, j1, np.concatenate([base, cross(rho1, base)])[None],
                   np.concatenate([sep, cross(rho1, sep)])[None]),
                  (self.j2.bj, j2, -np.concatenate([base, cross(rho2, base)])[None],
                   -np.concatenate([sep, cross(rho2, sep)])[None])]
        # gamma = -(dJ/dt) v: written out for cylindrical pairs, a central difference along the motion for bevel
        gamma = np.array([-self._jdot_v(s, f, v1, w1, v2, w2)])
        return blocks, gamma, f

    def _jdot_v(self, s: Snapshot, f, v1, w1, v2, w2) -> float:
        """(dJ/dt) v: the change of J (the pitch point P and the tangent t) along the motion, v held
        (`pitch_jdot_v`, with P' and t' from `contact_frame_rate`; bevel pairs too: their apex differentiated)."""
        x1, r1, _, _ = s.pose(self.j1.bj)
        x2, r2, _, _ = s.pose(self.j2.bj)
        c1, c2 = (x1 + r1 @ self.c1).tolist(), (x2 + r2 @ self.c2).tolist()
        x1, x2, v1l, w1l, v2l, w2l = (a.tolist() for a in (x1, x2, v1, w1, v2, w2))
        a1 = f.a1.tolist()
        a2 = a2_dot = None
        if self.pair.kind == "bevel":  # its apex moves with both axes
            a2 = (r2 @ self.j2.aj).tolist()
            a2_dot = vec3.cross(w2l, a2)
        p_dot, t_dot = contact_frame_rate(self.pair, f, c1, c2, vec3.add(v1l, vec3.cross(w1l, vec3.sub(c1, x1))), vec3.cross(w1l, a1),
                                          vec3.add(v2l, vec3.cross(w2l, vec3.sub(c2, x2))), a2, a2_dot)
        return pitch_jdot_v(f.point.tolist(), f.t.tolist(), p_dot, t_dot, x1, v1l, w1l, x2, v2l, w2l)

    def _jdot_v_numeric(self, s: Snapshot, v1, w1, v2, w2) -> float:
        """(dJ/dt) v by central differences of the pitch-point frame (the reference in tests).

        Only the two gears move (rigidly, with their velocities) for +-eps; the
        rest of the snapshot is not needed for the frame.
        """
        eps = 1e-7
        x1, r1, _, _ = s.pose(self.j1.bj)
        x2, r2, _, _ = s.pose(self.j2.bj)
        vals = []
        for dt in (eps, -eps):
            y1, q1 = x1 + dt * v1, axis_angle_matrix(dt * w1) @ r1
            y2, q2 = x2 + dt * v2, axis_angle_matrix(dt * w2) @ r2
            fe = contact_frame(self.pair, y1 + q1 @ self.c1, q1 @ self.j1.aj, y2 + q2 @ self.c2, q2 @ self.j2.aj)
            vals.append(fe.t @ ((v1 + cross(w1, fe.point - y1)) - (v2 + cross(w2, fe.point - y2))))
        return (vals[0] - vals[1]) / (2 * eps)


# --------------------------------------------------------------------------- builders (see core.dynamics.elements)


def _joint_geometry(system, joint, axis) -> JointGeometry:
    bi, bj = system.index[joint.body_i], system.index[joint.body_j]
    geo = JointGeometry(bi, bj, joint.position, axis, system.pose0(bi), system.pose0(bj))
    system.geometry[joint.name] = geo
    return geo


@builds(E.RevoluteJoint)
def _revolute(system, joint) -> RevoluteConstraint:
    geo = _joint_geometry(system, joint, joint.axis)
    system.angle_index[joint.name] = system.new_extra()
    return RevoluteConstraint(joint.name, geo)


@builds(E.FixedJoint)
def _fixed(system, joint) -> FixedConstraint:
    return FixedConstraint(joint.name, _joint_geometry(system, joint, (0.0, 0.0, 1.0)))


@builds(E.GearPair)
def _gear_pair(system, pair) -> GearConstraint | None:
    """The pair's no-slip row; None when a compliant mesh makes the pair soft (the mesh then uses it)."""
    model = system.model
    centres = []
    for k, jn in ((1, pair.joint1), (2, pair.joint2)):
        bj = system.index[model.joints[jn].body_j]
        xj, rj = system.pose0(bj)
        centres.append(rj.T @ (mesh_centre(model, pair, k) - xj))
    gc = GearConstraint(pair.name, PairGeometryData.of(pair), system.geometry[pair.joint1],
                        system.geometry[pair.joint2], system.new_extra(), pair.stabilise, centres)
    system.gears[pair.name] = gc
    soft = any(isinstance(f, E.CompliantMesh) and f.pair == pair.name for f in model.forces.values())
    return None if soft else gc


@builds(E.SpeedMotor)
def _speed_motor(system, motor) -> SpeedConstraint:
    return SpeedConstraint(motor.name, system.geometry[motor.joint], motor.law, system.new_extra())
