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
from scipy.sparse import csgraph
from scipy.sparse import linalg as splinalg

from core.dynamics.channels import Outputs
from core.dynamics.constraints import JointConstraint, Snapshot
from core.dynamics.force_elements import Loads
from core.dynamics.joint_fast_path import JointFastPath, NotCovered
from core.geometry.rotations import skew, world_tensors
from core.geometry.vec3 import cross_rows
from core.dynamics.state_space import EuclideanSpace
from core.dynamics.system import SPARSE_ROWS, System, dense
from core.model import entities as E
from core.model.model import Model


def block_inverse(m) -> sparse.csr_matrix:
    """The inverse of a sparse symmetric matrix by its independent blocks, in time linear in its size.

    The coordinates that share no entry (the branches of the tree that meet only
    at the ground: the shafts of a gear train) form the connected components of
    the matrix's pattern; the inverse is block-diagonal on them. The blocks are
    gathered from the nonzeros and inverted in batches of equal size, so a
    shallow tree of n branches costs O(n), where inverting column by column
    cost O(n^2).
    """
    m = sparse.coo_matrix(m)
    n = m.shape[0]
    count, label = csgraph.connected_components(m, directed=False)
    order = np.argsort(label, kind="stable")
    size = np.bincount(label, minlength=count)
    start = np.concatenate([[0], np.cumsum(size)[:-1]])
    local = np.empty(n, dtype=int)
    local[order] = np.arange(n) - np.repeat(start, size)
    rows, cols, vals = [], [], []
    for s in np.unique(size):
        groups = np.flatnonzero(size == s)
        slot = np.full(count, -1)
        slot[groups] = np.arange(len(groups))
        blocks = np.zeros((len(groups), s, s))
        keep = slot[label[m.row]] >= 0
        r, c = m.row[keep], m.col[keep]
        np.add.at(blocks, (slot[label[r]], local[r], local[c]), m.data[keep])
        inv = np.linalg.inv(blocks)
        members = order[(start[groups][:, None] + np.arange(s)[None, :])]  # (groups, s) global indices
        rows.append(np.repeat(members, s, axis=1).ravel())
        cols.append(np.tile(members, (1, s)).ravel())
        vals.append(inv.ravel())
    return sparse.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n))


class TreeError(ValueError):
    """The model's bodies do not all hang from the ground on revolute and fixed joints."""


_EYE3 = np.eye(3)  # read, never written


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

    def __init__(self, model: Model, fast_path: bool = True):
        """`fast_path`: evaluate a gear train by its constant matrices (core.dynamics.joint_fast_path) when it
        qualifies; False keeps the general path (the reference the fast path is tested against)."""
        super().__init__(model)
        self._fast, self._fast_note = None, None if fast_path else "off (not asked for)"
        self.kernel = None  # the fast path compiled (core.dynamics.fast_path_kernel), once `compile` made it

    @property
    def fast_path(self) -> JointFastPath | None:
        """The fast path, set up at its first use (a system made only for checks never pays for it)."""
        if self._fast_note is None:
            try:
                self._fast = JointFastPath(self)
                self._fast_note = "on: constant matrices (gears on parallel axes or on fixed shafts)"
            except NotCovered as exc:
                self._fast_note = f"off: {exc}"
        return self._fast

    def ready(self) -> None:
        self.fast_path  # the constant matrices and their checks, before a run's first step

    @property
    def fast_path_note(self) -> str:
        """Whether the fast path is taken ('on: ...') or why not ('off: ...')."""
        self.fast_path  # sets the note
        return self._fast_note

    @property
    def compiled_form(self) -> str:
        return f"the joint fast path, compiled (numba); its output samples {self.sampler_note}"
    compile_pays_from = 30_000  # numba's 0.7 s is some 20,000-40,000 of the Python fast path's evaluations

    def compile(self) -> str | None:
        """Take the rates from the fast path compiled (core.dynamics.fast_path_kernel); None when done, else why
        it cannot be (no fast path, a large train's KKT form, numba not installed)."""
        fast = self.fast_path
        if fast is None or fast.kkt:
            return "the fast path does not cover the model" if fast is None else "a large train's sparse form"
        try:
            from core.dynamics.fast_path_kernel import CompiledFastPath
        except ImportError as exc:
            return f"numba cannot be imported ({exc})"
        try:
            self.kernel = CompiledFastPath(fast)
        except Exception as exc:  # e.g. no writable cache for a frozen app: the Python fast path gives the same
            return f"compiling failed ({type(exc).__name__}: {exc})"
        from core.dynamics.fast_path_sample import SampleKernel

        try:  # the output samples too, where it lays out every channel and its check holds
            self.sampler, self.sampler_note = SampleKernel(self, self.kernel), "compiled"
        except ValueError as exc:
            self.sampler_note = f"in Python: {exc}"
        return None

    sampler = None  # the output samples compiled (core.dynamics.fast_path_sample), once `compile` made it
    sampler_note = "in Python: not compiled"

    def sample(self, t: float, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self.sampler is not None:
            return self.sampler.sample(t, y)
        return super().sample(t, y)

    def evaluate(self, t: float, y: np.ndarray) -> np.ndarray:
        if self.kernel is not None:
            return self.kernel.rate(t, y)
        fast = self.fast_path
        return fast.rate(t, y) if fast is not None else self._evaluate(t, y, None)

    def onto_constraints(self, t: float, y: np.ndarray) -> np.ndarray:
        if self.kernel is not None:
            return self.kernel.project(t, y)
        fast = self.fast_path  # no loop-closing joints there: only the speeds to project
        return fast.consistent_rates(t, y) if fast is not None else super().onto_constraints(t, y)

    def _set_up_coordinates(self) -> None:
        self.edges = spanning_tree(self.model, self.index)
        self.tree_joints = {e.joint for e in self.edges}
        self.constraints = [c for c in self.constraints
                            if not (isinstance(c, JointConstraint) and c.name in self.tree_joints)]
        self.nq = sum(e.coordinate is not None for e in self.edges)
        self.space = JointSpace(self.nq, self.extra)
        self.sparse = self.n * self.nq > SPARSE_ROWS * SPARSE_ROWS  # T has 6 n rows and nq columns
        # the tree by depth: every edge of one level is handled in one batch of array operations
        depth = {-1: 0}
        for e in self.edges:
            depth[e.child] = depth[e.parent] + 1
        self._levels = []
        for d in range(1, max(depth.values(), default=0) + 1):
            es = [e for e in self.edges if depth[e.child] == d]
            self._levels.append({
                "parent": np.array([e.parent for e in es], dtype=int),  # -1 reads the ground row n
                "child": np.array([e.child for e in es], dtype=int),
                "coordinate": np.array([-1 if e.coordinate is None else e.coordinate for e in es], dtype=int),
                "sign": np.array([0.0 if e.coordinate is None else e.sign for e in es]),
                "axis": np.array([e.axis0 for e in es]), "point": np.array([e.point0 for e in es]),
                "k1": np.array([e.k1 for e in es]), "k2": np.array([e.k2 for e in es]),
            })
            # as columns (k, 3, 2), so that one matrix product turns both
            lv = self._levels[-1]
            lv["grounded"] = bool(np.all(lv["parent"] < 0))
            lv["axis_point"] = np.stack([lv["axis"], lv["point"]], axis=-1)
            lv["point_x0"] = np.stack([lv["point"], self.x0[lv["child"]]], axis=-1)
        # T's nonzeros: for a coordinate's edge, six rows of every body in its subtree
        pairs = [(e, b) for e in self.edges if e.coordinate is not None for b in e.subtree]
        self._pair_body = np.array([b for _, b in pairs], dtype=int)
        # the tree joints' reactions: each edge's subtree (edges x bodies, 0/1), the joint point in the child's
        # axes, and +1 where the child is the joint's body j
        self._subtree = np.zeros((len(self.edges), self.n))
        for k, e in enumerate(self.edges):
            self._subtree[k, e.subtree] = 1.0
        geos = [self.geometry[e.joint] for e in self.edges]
        self._edge_child = np.array([e.child for e in self.edges], dtype=int)
        self._edge_point = np.array([g.sj if e.child == g.bj else g.si for e, g in zip(self.edges, geos)]).reshape(-1, 3)
        self._edge_sign = np.array([1.0 if e.child == g.bj else -1.0 for e, g in zip(self.edges, geos)])
        self._pair_coordinate = np.array([e.coordinate for e, _ in pairs], dtype=int)
        self._t_pattern = ((6 * self._pair_body[:, None] + np.arange(6)).ravel(), np.repeat(self._pair_coordinate, 6))

    # ------------------------------------------------------------------ kinematics

    def kinematics(self, q: np.ndarray, qd: np.ndarray):
        """Body snapshot parts (COM x, rot, v, w), T (6 n, nq) and the bias accelerations b (6 n,).

        Row n of the work arrays is the ground (identity displacement, at rest).
        Per edge, with the parent's displacement (R_p, t_p), its spin w_p, COM
        velocity v_p, and the joint axis a and point p carried by the parent:
            w = w_p + a th',  v = v_p + w_p x (x - x_p) + th' a x (x - p),
        and their rates at th'' = 0 give the bias accelerations.
        q and qd may have leading axes (many states at once, for output samples): every result then has them
        too, and T is dense.
        """
        n, lead = self.n, q.shape[:-1]
        disp_r = np.empty(lead + (n + 1, 3, 3))
        disp_r[..., n, :, :] = _EYE3
        disp_t, x, v, w, acc, alpha = (np.zeros(lead + (n + 1, 3)) for _ in range(6))
        rot = np.empty(lead + (n, 3, 3))
        axis_of, point_of = np.zeros(lead + (self.nq, 3)), np.zeros(lead + (self.nq, 3))
        for lv in self._levels:
            p, k, c, sign = lv["parent"], lv["child"], lv["coordinate"], lv["sign"]
            th, thd = sign * q[..., c], sign * qd[..., c]  # fixed edges have sign 0
            turn = _EYE3 + np.sin(th)[..., None, None] * lv["k1"] + (1.0 - np.cos(th))[..., None, None] * lv["k2"]
            grounded = lv["grounded"]  # every parent the ground: undisplaced and at rest, its terms zero
            rp, tp = (None, 0.0) if grounded else (disp_r[..., p, :, :], disp_t[..., p, :])
            rd = turn if grounded else rp @ turn
            carried = lv["axis_point"] if grounded else rp @ lv["axis_point"]  # the parent's axis and point
            a, pt = carried[..., 0], carried[..., 1] + tp
            moved = rd @ lv["point_x0"]  # the child's rotation of the point and the mass centre
            td = pt - moved[..., 0]
            disp_r[..., k, :, :], disp_t[..., k, :] = rd, td
            xk = x[..., k, :] = moved[..., 1] + td
            rot[..., k, :, :] = rd @ self.rot0[k]
            r = xk - pt
            th_a = thd[..., None] * a
            if grounded:
                w[..., k, :] = th_a
                v[..., k, :] = cross_rows(th_a, r)
                acc[..., k, :] = cross_rows(th_a, cross_rows(th_a, r))
            else:
                wp, vp, ap, alp = w[..., p, :], v[..., p, :], acc[..., p, :], alpha[..., p, :]
                rc = xk - x[..., p, :]
                wk = w[..., k, :] = wp + th_a
                vk = v[..., k, :] = vp + cross_rows(wp, rc) + cross_rows(th_a, r)
                wa = cross_rows(wp, a)
                alpha[..., k, :] = alp + thd[..., None] * wa
                acc[..., k, :] = (ap + cross_rows(alp, rc) + cross_rows(wp, vk - vp)
                                  + thd[..., None] * cross_rows(wa, r) + cross_rows(th_a, cross_rows(wk, r)))
            moving = c >= 0
            axis_of[..., c[moving], :] = sign[moving, None] * a[..., moving, :]
            point_of[..., c[moving], :] = pt[..., moving, :]
        ax = axis_of[..., self._pair_coordinate, :]
        arm = x[..., self._pair_body, :] - point_of[..., self._pair_coordinate, :]
        vals = np.concatenate([cross_rows(ax, arm), ax], axis=-1).reshape(lead + (-1,))
        rows, cols = self._t_pattern
        shape = (6 * n, self.nq)
        if self.sparse and not lead:
            t_mat = sparse.csr_matrix((vals, (rows, cols)), shape=shape)
        else:
            t_mat = np.zeros(lead + shape)
            t_mat[..., rows, cols] = vals
        bias = np.concatenate([acc[..., :n, :], alpha[..., :n, :]], axis=-1).reshape(lead + (6 * n,))
        return (x[..., :n, :], rot, v[..., :n, :], w[..., :n, :]), t_mat, bias

    def snapshot(self, y: np.ndarray) -> Snapshot:
        return self._snapshot_and_transform(y)[0]

    def _snapshot_and_transform(self, y: np.ndarray):
        sp = self.space
        (x, rot, v, w), t_mat, bias = self.kinematics(y[..., sp.q], y[..., sp.qd])
        return Snapshot(x, rot, v, w, y[..., sp.e]), t_mat, bias

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
        blocks[:, 3:, 3:] = world_tensors(s.rot, self.inertia)
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
        """(T^T M T)^-1: dense for small systems, sparse for large trees (see `block_inverse`)."""
        return block_inverse(mq) if sparse.issparse(mq) else np.linalg.inv(mq)

    def _redundancy(self) -> int:
        if not self.rows or not self.nq:
            return 0
        s, t_mat, _ = self._snapshot_and_transform(self.initial_state())
        jac = dense(self._jacobian(0.0, s)[0] @ t_mat)
        sv = np.linalg.svd(jac, compute_uv=False)
        return self.rows - int(np.sum(sv > 1e-9 * sv.max())) if sv.size else self.rows

    # ------------------------------------------------------------------ equations

    def _evaluate(self, t: float, y: np.ndarray, out):
        details = out is not None
        fast = self.fast_path if details else None
        if fast is not None and fast.outputs_covered:
            return self._evaluate_fast(t, y, out or None, fast)
        out = out or None
        sp = self.space
        s, t_mat, bias = self._snapshot_and_transform(y)
        loads, qvec, jw = self._applied(t, s, out)
        mc = self._cartesian_mass(s)
        mq = self._joint_mass(t_mat, mc)
        minv = self._inverse(mq)
        force = np.asarray(t_mat.T @ (qvec - self._times_mass(mc, bias))).ravel()
        lam, constraint_force = np.zeros(self.rows), np.zeros(6 * self.n)
        if self.rows:
            lam, constraint_force = self._multipliers(t, s, minv, force, transform=t_mat, bias=bias)
        qdd = minv @ (force + np.asarray(t_mat.T @ constraint_force).ravel())
        rate = np.zeros(sp.tangent_size)
        rate[sp.q] = y[sp.qd]
        rate[sp.qd] = qdd
        rate[sp.e] = self._extra_rates(t, s, lam, loads)
        if not details:
            return rate
        return rate, {"lambda": lam, "loads": loads, "out": out, "kinetic": self._kinetic(s, jw), "snapshot": s,
                      "acceleration": np.asarray(t_mat @ qdd).ravel() + bias, "generalised_force": qvec,
                      "constraint_force": constraint_force}

    def _evaluate_fast(self, t, y: np.ndarray, out, fast):
        """The general path's details with the rate, multipliers and flanks from the fast path, and the
        constraints' forces on the bodies from its turned tooth forces (output samples: about half the cost).

        t (m,) and y (m, size) give the details of m samples at once, each part with a leading sample axis:
        the kinematics, inertia, energy and reactions as arrays over all of them, and only the force
        elements (into `out`, an Outputs of m samples) and the fast path's solve one sample at a time.
        """
        s, t_mat, bias = self._snapshot_and_transform(y)
        if y.ndim == 1:
            loads = self._loads(t, s, out)
            rate, lam, flip = fast.solve(t, y)
        else:
            each = []
            for k, (tk, yk) in enumerate(zip(t, y)):
                mine = Outputs(records=False)
                sk = Snapshot(s.x[k], s.rot[k], s.v[k], s.w[k], s.extra[k])
                each.append((self._loads(tk, sk, mine), mine.values, *fast.solve(tk, yk)))
            many, values, rate, lam, flip = zip(*each)
            loads, rate, lam, flip = Loads.stack(many), np.array(rate), np.array(lam), np.array(flip, dtype=bool)
            out.values.extend(np.array(values).T)
        qvec, jw = self._inertial(s, loads)
        qdd = rate[..., self.space.qd]
        return rate, {"lambda": lam, "loads": loads, "out": out, "kinetic": self._kinetic(s, jw), "snapshot": s,
                      "acceleration": np.einsum("...ij,...j->...i", t_mat, qdd) + bias,
                      "generalised_force": qvec, "constraint_force": fast.constraint_forces(s.rot, lam, flip)}

    def samples(self, t: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        fast = self.fast_path
        # compiled one by one (`sampler`) when the run is compiled (29-31 us a sample of the planetary against
        # 116-119 us in numpy's batch of 100; the compliant pair 26 against 179 us); else numpy's batch, except
        # for one sample
        if self.sampler is not None or fast is None or not fast.outputs_covered or len(t) < 2:
            return super().samples(t, y)
        t, y = np.asarray(t, float), np.asarray(y, float)
        _, d = self._evaluate_fast(t, y, Outputs(records=False, samples=len(t)), fast)
        self._add_channels(d, y)
        return (d["out"].array(), *self._poses(d["snapshot"]))

    def accelerations(self, t: float, y: np.ndarray) -> np.ndarray:
        return self.evaluate_details(t, y, channels=False)[1]["acceleration"].reshape(self.n, 6)

    def _reactions(self, d: dict) -> dict:
        """Tree joints: the wrench the joint passes to its subtree, from Newton-Euler on the subtree's bodies.

        Each body needs M a + gyroscopic - applied - (other constraints' forces); the
        sum over the subtree is what the joint carries, here as the reaction on
        body j with its moment about the joint point.
        """
        out = super()._reactions(d)
        s = d["snapshot"]
        lead = s.x.shape[:-2]  # many samples: a leading axis on every part
        acc = d["acceleration"].reshape(lead + (self.n, 6))
        jw = world_tensors(s.rot, self.inertia)
        need_f = self.mass[:, None] * acc[..., :3]
        need_t = np.einsum("...kab,...kb->...ka", jw, acc[..., 3:])
        # the generalised force holds the gyroscopic term on the torque side
        applied = (d["generalised_force"] + d["constraint_force"]).reshape(lead + (self.n, 6))
        need_f, need_t = need_f - applied[..., :3], need_t - applied[..., 3:]
        if not self.edges:
            return out
        child = self._edge_child
        point = s.x[..., child, :] + np.einsum("...kab,kb->...ka", s.rot[..., child, :, :], self._edge_point)
        # over each subtree: the sum of the forces, and of the moments about the joint point,
        # sum (x_b - p) x f_b = sum x_b x f_b - p x sum f_b
        force = self._subtree @ need_f
        torque = self._subtree @ (need_t + cross_rows(s.x, need_f)) - cross_rows(point, force)
        force, torque = self._edge_sign[:, None] * force, self._edge_sign[:, None] * torque
        for k, e in enumerate(self.edges):
            out[e.joint] = (force[..., k, :], torque[..., k, :])
        return out

    # ------------------------------------------------------------------ projections

    def _joint_rows(self, t: float, s: Snapshot, t_mat):
        jac, _, _, _, target, phi, _ = self._jacobian(t, s)
        return dense(jac @ t_mat), target, phi

    def consistent_velocities(self, y: np.ndarray, t: float = 0.0) -> tuple[np.ndarray, float]:
        """Rates projected onto the constraints at time t [s] (least change in kinetic energy); the change of
        body speeds."""
        if not self.rows or not self.nq:
            return y, 0.0
        sp = self.space
        s, t_mat, _ = self._snapshot_and_transform(y)
        jq, target, _ = self._joint_rows(t, s, t_mat)
        minv = self._inverse(self._joint_mass(t_mat, self._cartesian_mass(s)))
        qd = y[sp.qd]
        a = jq @ (minv @ jq.T)
        corr = minv @ (jq.T @ np.linalg.lstsq(np.asarray(a), jq @ qd - target, rcond=1e-12)[0])
        out = y.copy()
        out[sp.qd] = qd - corr
        return out, float(np.abs(np.asarray(t_mat @ corr)).max(initial=0.0))

    def project(self, y: np.ndarray, iterations: int = 3, tol: float = 1e-13) -> np.ndarray:
        """Angles moved back onto loop-closing joints (the tree joints cannot drift)."""
        loops = [c for c in self.constraints if isinstance(c, JointConstraint)]
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
        out["system"].update({"coordinates": self.nq, "velocities": self.nq,
                              "degrees_of_freedom": self.nq - (self.rows - self.redundant),
                              "tree_joints": sorted(self.tree_joints), "fast_path": self.fast_path_note})
        return out
