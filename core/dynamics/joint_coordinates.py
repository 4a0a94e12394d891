"""The multibody system in joint (relative) coordinates: one angle per revolute joint of a spanning tree.

When every body hangs from the ground on a tree of revolute and fixed joints,
the tree joints are satisfied by construction: the coordinates are their
angles, and the body poses follow by the product of exponentials from the
initial pose (joints store their world point and axis there). Body
velocities are T(q) q' and accelerations T q'' + b(q, q'), so with the
Cartesian mass M and generalised force Q of `System`,

    (T^T M T) q'' = T^T (Q - M b) + G_q^T lambda,   J_q q'' = gamma - J b - Baumgarte,

with J_q = J T for the constraints the tree does not hold: gear pairs, speed
motors and loop-closing joints. Gear pairs on parallel or fixed axes are then
linear in the coordinates, an explicit Runge-Kutta step keeps them to
round-off, and an orbiting planet is a rotation of its carrier instead of a
chord of its orbit, so large steps stay accurate (the planetary example's
coordinates are quadratic in time, which RK4 integrates exactly).
"""

from __future__ import annotations

from collections import deque

import numpy as np
from scipy import sparse
from scipy.sparse import linalg as splinalg

from core.dynamics.constraints import FixedConstraint, RevoluteConstraint, Snapshot, cross, skew
from core.dynamics.state_space import EuclideanSpace
from core.dynamics.system import SPARSE_ROWS, System
from core.model import entities as E
from core.model.model import Model


class TreeError(ValueError):
    """The model's bodies do not all hang from the ground on revolute and fixed joints."""


class JointSpace(EuclideanSpace):
    """y = [q (nq), q' (nq), extra]: joint angles [rad], their rates [rad/s], the extra states."""

    def __init__(self, coordinates: int, extra: int):
        super().__init__(2 * coordinates + extra)
        nq = coordinates
        self.nq, self.extra = nq, extra
        self.q, self.qd = slice(0, nq), slice(nq, 2 * nq)
        self.e = self.de = slice(2 * nq, 2 * nq + extra)


class Edge:
    """A tree joint: `child` hangs from `parent` (-1: ground) and turns by sign * q[coordinate] about the axis."""

    def __init__(self, joint: str, parent: int, child: int, sign: float, axis, point, coordinate: int | None):
        self.joint, self.parent, self.child, self.sign, self.coordinate = joint, parent, child, sign, coordinate
        self.axis0 = np.asarray(axis, float) / np.linalg.norm(axis)
        self.point0 = np.asarray(point, float)
        self.k1 = skew(self.axis0)
        self.k2 = self.k1 @ self.k1
        self.subtree: list[int] = []


def spanning_tree(model: Model, index: dict[str, int]) -> list[Edge]:
    """Tree edges from the ground, breadth first, in model order; raises TreeError if a body is left over."""
    touching: dict[str, list] = {name: [] for name in index}
    for j in model.joints.values():
        touching[j.body_i].append(j)
        touching[j.body_j].append(j)
    edges, seen, queue, coordinates = [], {E.GROUND}, deque([E.GROUND]), 0
    while queue:
        here = queue.popleft()
        for j in touching[here]:
            other = j.body_j if j.body_i == here else j.body_i
            if other in seen:
                continue
            seen.add(other)
            queue.append(other)
            revolute = isinstance(j, E.RevoluteJoint)
            edges.append(Edge(j.name, index[here], index[other], 1.0 if other == j.body_j else -1.0,
                              j.axis if revolute else (0.0, 0.0, 1.0), j.position, coordinates if revolute else None))
            coordinates += revolute
    left = [name for name in model.bodies if name not in seen]
    if left:
        raise TreeError(f"body {left[0]!r} is not joined to the ground by revolute or fixed joints, "
                        "so it has no joint coordinates (use the cartesian formulation)")
    children: dict[int, list[Edge]] = {}
    for e in edges:
        children.setdefault(e.parent, []).append(e)
    for e in reversed(edges):  # leaves first: a subtree is the child and its children's subtrees
        e.subtree = [e.child] + [b for c in children.get(e.child, []) for b in c.subtree]
    return edges


class JointCoordinateSystem(System):
    """`System` with the tree joints eliminated; the state is the joint angles and rates plus the extra states."""

    formulation = "joint"

    def _set_up_coordinates(self) -> None:
        self.edges = spanning_tree(self.model, self.index)
        self.tree_joints = {e.joint for e in self.edges}
        self.constraints = [c for c in self.constraints
                            if not (isinstance(c, (RevoluteConstraint, FixedConstraint)) and c.name in self.tree_joints)]
        self.nq = sum(e.coordinate is not None for e in self.edges)
        self.space = JointSpace(self.nq, self.extra)
        self.sparse = 6 * self.n * self.nq > 6 * SPARSE_ROWS * SPARSE_ROWS
        rows, cols = [], []
        for e in self.edges:
            if e.coordinate is not None:
                for b in e.subtree:
                    rows.extend(range(6 * b, 6 * b + 6))
                    cols.extend([e.coordinate] * 6)
        self._t_pattern = (np.array(rows, dtype=int), np.array(cols, dtype=int))

    # ------------------------------------------------------------------ kinematics

    def kinematics(self, q: np.ndarray, qd: np.ndarray):
        """Body snapshot parts (COM x, rot, v, w), T (6 n, nq) and the bias accelerations b (6 n,)."""
        n = self.n
        x, rot = np.empty((n, 3)), np.empty((n, 3, 3))
        v, w = np.empty((n, 3)), np.empty((n, 3))
        acc, alpha = np.empty((n, 3)), np.empty((n, 3))
        disp_r, disp_t = np.empty((n, 3, 3)), np.empty((n, 3))
        axes, points = {}, {}
        zero, eye = np.zeros(3), np.eye(3)
        for e in self.edges:
            p = e.parent
            if p < 0:
                rp, tp, wp, vp, cp, ap, alp = eye, zero, zero, zero, zero, zero, zero
            else:
                rp, tp, wp, vp, cp, ap, alp = disp_r[p], disp_t[p], w[p], v[p], x[p], acc[p], alpha[p]
            k = e.child
            if e.coordinate is None:
                rd, td, thd = rp, tp, 0.0
                a = pt = zero
            else:
                th, thd = e.sign * q[e.coordinate], e.sign * qd[e.coordinate]
                turn = eye + np.sin(th) * e.k1 + (1.0 - np.cos(th)) * e.k2
                rd = rp @ turn
                td = rp @ (e.point0 - turn @ e.point0) + tp
                a, pt = rp @ e.axis0, rp @ e.point0 + tp
                axes[e.coordinate], points[e.coordinate] = e.sign * a, pt
            disp_r[k], disp_t[k] = rd, td
            x[k] = rd @ self.x0[k] + td
            rot[k] = rd @ self.rot0[k]
            r, rc = x[k] - pt, x[k] - cp
            w[k] = wp + thd * a
            v[k] = vp + cross(wp, rc) + thd * cross(a, r)
            wa = cross(wp, a)
            alpha[k] = alp + thd * wa
            acc[k] = (ap + cross(alp, rc) + cross(wp, v[k] - vp)
                      + thd * (cross(wa, r) + cross(a, cross(w[k], r))))
        rows, cols = self._t_pattern
        vals = np.empty(rows.size)
        at = 0
        for e in self.edges:
            if e.coordinate is None:
                continue
            a, pt = axes[e.coordinate], points[e.coordinate]
            for b in e.subtree:
                vals[at:at + 3] = cross(a, x[b] - pt)
                vals[at + 3:at + 6] = a
                at += 6
        shape = (6 * n, self.nq)
        if self.sparse:
            t_mat = sparse.csr_matrix((vals, (rows, cols)), shape=shape)
        else:
            t_mat = np.zeros(shape)
            t_mat[rows, cols] = vals
        bias = np.hstack([acc, alpha]).ravel()
        return (x, rot, v, w), t_mat, bias

    def snapshot(self, y: np.ndarray) -> Snapshot:
        return self._snapshot_and_transform(y)[0]

    def _snapshot_and_transform(self, y: np.ndarray):
        sp = self.space
        (x, rot, v, w), t_mat, bias = self.kinematics(y[sp.q], y[sp.qd])
        return Snapshot(x, rot, v, w, y[sp.e]), t_mat, bias

    def initial_state(self) -> np.ndarray:
        """Zero angles; rates that best reproduce the bodies' given velocities (mass metric)."""
        sp = self.space
        y = np.zeros(sp.size)
        s, t_mat, _ = self._snapshot_and_transform(y)
        vel0 = np.hstack([self.v0, self.w0]).ravel()
        if self.nq:
            mc = self._cartesian_mass(s)
            y[sp.qd] = self._solve(self._joint_mass(t_mat, mc), np.asarray(t_mat.T @ self._times_mass(mc, vel0)).ravel())
        return y

    def consistent_initial_state(self) -> tuple[np.ndarray, float]:
        y0, change = super().consistent_initial_state()
        _, t_mat, _ = self._snapshot_and_transform(y0)
        given = np.hstack([self.v0, self.w0]).ravel()
        return y0, max(change, float(np.abs(np.asarray(t_mat @ y0[self.space.qd]).ravel() - given).max(initial=0.0)))

    # ------------------------------------------------------------------ mass metric

    def _cartesian_mass(self, s: Snapshot):
        """M (6 n, 6 n): a sparse matrix for large systems, else its (n, 6, 6) blocks."""
        blocks = np.zeros((self.n, 6, 6))
        blocks[:, :3, :3] = np.eye(3)[None] * self.mass[:, None, None]
        blocks[:, 3:, 3:] = np.einsum("kab,kbc,kdc->kad", s.rot, self.inertia, s.rot)
        return sparse.block_diag(list(blocks), format="csr") if self.sparse else blocks

    def _times_mass(self, mc, mat):
        """M @ mat for mat (6 n,) or (6 n, k)."""
        if self.sparse:
            return mc @ mat
        return np.einsum("kab,kb...->ka...", mc, mat.reshape(self.n, 6, *mat.shape[1:])).reshape(mat.shape)

    def _joint_mass(self, t_mat, mc):
        m = t_mat.T @ self._times_mass(mc, t_mat)
        return m.tocsc() if sparse.issparse(m) else np.asarray(m)

    def _solve(self, mq, rhs):
        return splinalg.spsolve(mq, rhs) if sparse.issparse(mq) else np.linalg.solve(mq, rhs)

    def _inverse(self, mq):
        """(T^T M T)^-1: dense for small systems, sparse for large trees (shallow trees keep it sparse)."""
        return splinalg.inv(mq).tocsr() if sparse.issparse(mq) else np.linalg.inv(mq)

    def _redundancy(self) -> int:
        if not self.rows or not self.nq:
            return 0
        s, t_mat, _ = self._snapshot_and_transform(self.initial_state())
        jac = np.asarray(self._jacobian(0.0, s)[0] @ t_mat)
        sv = np.linalg.svd(jac, compute_uv=False)
        return self.rows - int(np.sum(sv > 1e-9 * sv.max())) if sv.size else self.rows

    # ------------------------------------------------------------------ equations

    def evaluate(self, t: float, y: np.ndarray, details: bool = False):
        sp = self.space
        s, t_mat, bias = self._snapshot_and_transform(y)
        loads, out, qvec, jw = self._applied(t, s)
        mc = self._cartesian_mass(s)
        mq = self._joint_mass(t_mat, mc)
        minv = self._inverse(mq)
        force = np.asarray(t_mat.T @ (qvec - self._times_mass(mc, bias))).ravel()
        lam = np.zeros(self.rows)
        if self.rows:
            lam, gq, _ = self._multipliers(t, s, minv, force, transform=t_mat, bias=bias)
            qdd = minv @ (force + gq.T @ lam)
        else:
            qdd = minv @ force
        rate = np.zeros(sp.tangent_size)
        rate[sp.q] = y[sp.qd]
        rate[sp.qd] = qdd
        rate[sp.e] = self._extra_rates(t, s, lam, loads)
        if not details:
            return rate
        return rate, {"lambda": lam, "loads": loads, "out": out, "kinetic": self._kinetic(s, jw), "snapshot": s,
                      "acceleration": np.asarray(t_mat @ qdd).ravel() + bias, "generalised_force": qvec}

    def accelerations(self, t: float, y: np.ndarray) -> np.ndarray:
        return self.evaluate(t, y, details=True)[1]["acceleration"].reshape(self.n, 6)

    def _reactions(self, d: dict) -> dict:
        """Tree joints: the wrench the joint passes to its subtree, from Newton-Euler on the subtree's bodies.

        Each body needs M a + gyroscopic - applied - (other constraints' forces); the
        sum over the subtree is what the joint carries, here as the reaction on
        body j with its moment about the joint point.
        """
        out = super()._reactions(d)
        s = d["snapshot"]
        acc = d["acceleration"].reshape(self.n, 6)
        jw = np.einsum("kab,kbc,kdc->kad", s.rot, self.inertia, s.rot)
        need_f = self.mass[:, None] * acc[:, :3]
        need_t = np.einsum("kab,kb->ka", jw, acc[:, 3:])
        # the generalised force holds the gyroscopic term on the torque side
        applied = d["generalised_force"].reshape(self.n, 6) + self._multiplier_forces(d)
        need_f, need_t = need_f - applied[:, :3], need_t - applied[:, 3:]
        for e in self.edges:
            geo = self.geometry[e.joint]
            point = s.x[e.child] + s.rot[e.child] @ (geo.sj if e.child == geo.bj else geo.si)
            sub = e.subtree
            force = need_f[sub].sum(axis=0)
            torque = need_t[sub].sum(axis=0) + np.cross(s.x[sub] - point, need_f[sub]).sum(axis=0)
            child_is_j = e.child == geo.bj
            out[e.joint] = (force, torque) if child_is_j else (-force, -torque)
        return out

    def _multiplier_forces(self, d: dict) -> np.ndarray:
        """Forces and torques (n, 6) of the constraints the tree does not hold, from their multipliers."""
        if not self.rows:
            return np.zeros((self.n, 6))
        s = d["snapshot"]
        jac, gplus, gsep, *_ = self._jacobian(0.0, s)
        lam = d["lambda"]
        gmat = gplus - 2.0 * ((lam < 0)[:, None] * gsep)
        return (gmat.T @ lam).reshape(self.n, 6)

    # ------------------------------------------------------------------ projections

    def _joint_rows(self, t: float, s: Snapshot, t_mat):
        jac, _, _, _, target, phi, _ = self._jacobian(t, s)
        return np.asarray(jac @ t_mat), target, phi

    def consistent_velocities(self, y: np.ndarray) -> tuple[np.ndarray, float]:
        """Rates projected onto the constraints (least change in kinetic energy); the change of body speeds."""
        if not self.rows or not self.nq:
            return y, 0.0
        sp = self.space
        s, t_mat, _ = self._snapshot_and_transform(y)
        jq, target, _ = self._joint_rows(0.0, s, t_mat)
        minv = self._inverse(self._joint_mass(t_mat, self._cartesian_mass(s)))
        qd = y[sp.qd]
        a = jq @ (minv @ jq.T)
        corr = minv @ (jq.T @ np.linalg.lstsq(np.asarray(a), jq @ qd - target, rcond=1e-12)[0])
        out = y.copy()
        out[sp.qd] = qd - corr
        return out, float(np.abs(np.asarray(t_mat @ corr)).max(initial=0.0))

    def project(self, y: np.ndarray, iterations: int = 3, tol: float = 1e-13) -> np.ndarray:
        """Angles moved back onto loop-closing joints (the tree joints cannot drift)."""
        loops = [c for c in self.constraints if isinstance(c, (RevoluteConstraint, FixedConstraint))]
        if not loops:
            return y
        sp = self.space
        holonomic = np.concatenate([np.full(c.rows, c in loops) for c in self.constraints])
        for _ in range(iterations):
            s, t_mat, _ = self._snapshot_and_transform(y)
            jq, _, phi = self._joint_rows(0.0, s, t_mat)
            jh, ph = jq[holonomic], phi[holonomic]
            if np.abs(ph).max() < tol:
                break
            minv = self._inverse(self._joint_mass(t_mat, self._cartesian_mass(s)))
            y = y.copy()
            y[sp.q] -= minv @ (jh.T @ np.linalg.lstsq(np.asarray(jh @ (minv @ jh.T)), ph, rcond=1e-10)[0])
        return y

    def describe(self) -> dict:
        out = super().describe()
        out["system"].update({"formulation": "joint", "coordinates": self.nq, "velocities": self.nq,
                              "degrees_of_freedom": self.nq - (self.rows - self.redundant),
                              "tree_joints": sorted(self.tree_joints)})
        return out
