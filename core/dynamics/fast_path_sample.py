"""An output sample of a parallel-axis train in joint coordinates, compiled (numba): the bodies' poses and
motion, the force elements' loads and channels, the joints' reactions, the tooth forces and the energy, in
three calls after the kernel's solve.

Why. With the steps compiled, a short run's output samples cost more than its steps: the time-varying
planetary's 1 s in 34 RK4 steps took 0.40 ms, and its one sample at 1 s 0.7-0.9 ms, most of it numpy's cost
per call on arrays of six bodies (the tree's kinematics alone about 0.2 ms).

The planar picture. Where every revolute axis is parallel to one unit vector a (JointFastPath's condition),
body k has turned about a by an angle phi_k = Phi_k . q, linear in the coordinates, and its displacement
since the start is z -> R(phi_k) z + c_k, with R(phi) the rotation by phi about a through the origin and

    c_k = c_p + R(phi_p) p_k - R(phi_k) p_k

for the point p_k (at the start) of the joint on which body k hangs from its parent p (phi = 0 and c = 0 for
the ground). A point z of body k (at the start) then moves with phi_k' a x R z + c_k' and accelerates with
phi_k'' a x R z + phi_k'^2 a x (a x R z) + c_k''. The general kinematics (JointCoordinateSystem.kinematics)
composes each joint's rotation with its parent's; here the rotations commute, so each body takes one.

The rest are the Python sample's formulas in loop form: the rows' forces on the bodies turned with their
carriers (JointFastPath.constraint_forces), the world inertias and the gyroscopic term (System._inertial, with
`_rotated` of core.dynamics.cartesian_kernel), Newton-Euler on each joint's subtree
(JointCoordinateSystem._reactions) and the kinetic energy (System._kinetic). The rotations and the tooth
forces are compiled from their one source (`turned`, `rotation_vector_quat`, `quat_rotation`,
`cylinder_force_components`). The multipliers and flanks come from the compiled kernel's solve.

The force elements (`_loads`). Their states are the kernel's own (`_element_forces` of
core.dynamics.fast_path_kernel, which runs the elements' formulas compiled from their source), their loads
on the bodies their inputs times the loads per unit input at the start turned with their carriers
(JointFastPath.body_elements, checked constant in the carriers' axes as the rows' are), and their channels
picks from their states (`_element_layout`, by channel name). In Python (System._loads) the loads of the
time-varying planetary's torque and damper took 29 us of a 60 us sample, a compliant mesh and two torques 84 us.

`SampleKernel` lays its channels out against the Python sample's, by name, and checks one sample against it
at a random state when it is made; a model whose channels it does not lay out, or whose check fails, keeps
the Python samples, and the reason is raised. tests/core/dynamics/test_fast_path_sample.py holds it to the
general path (the fast path off) on random states of every example it covers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from core.dynamics.cartesian_kernel import _rotated
from core.dynamics.channels import TOOTH_FORCES, Outputs
from core.dynamics.fast_path_kernel import (
    N_U,
    NQ,
    SPIN_ROWS,
    STATE_SIZE,
    _element_forces,
    _floats,
    _times_vector,
    compiled_from_source,
)
from core.dynamics.state_space import turned
from core.dynamics.system import System
from core.gearing.mesh_model import MESH_STATE
from core.gearing.pitch_point import cylinder_force_components
from core.geometry import vec3
from core.geometry.rotations import matrix_quats, quat_rotation, rotation_vector_quat

_turned = compiled_from_source(turned)
_about = compiled_from_source(rotation_vector_quat)
_matrix = compiled_from_source(quat_rotation)
_cross = compiled_from_source(vec3.cross)
_components = compiled_from_source(cylinder_force_components)

CHECK_TOL = 1e-9  # the set-up check: relative to the largest channel of the same unit,
ZERO = 1e-12  # and absolute [SI], for a unit whose every channel is zero (round-off, about 1e-16 here)


@njit(cache=True)
def _entries(e, out):
    """The rotation matrix of the unit quaternion (w, x, y, z) e into out (3, 3)."""
    r = _matrix(e[0], e[1], e[2], e[3])
    for i in range(9):
        out[i // 3, i % 3] = r[i]


@njit(cache=True)
def _moved(r, axis, rate, accel, z, pos, vel, acc):
    """A point z (at the start) turned by the rotation r (3, 3) about the axis at the angle's rate [rad/s] and
    acceleration [rad/s^2]: R z, its velocity and its acceleration added into pos, vel and acc (3,)."""
    p = (r[0, 0] * z[0] + r[0, 1] * z[1] + r[0, 2] * z[2],
         r[1, 0] * z[0] + r[1, 1] * z[1] + r[1, 2] * z[2],
         r[2, 0] * z[0] + r[2, 1] * z[1] + r[2, 2] * z[2])
    ap = _cross(axis, p)
    aap = _cross(axis, ap)
    for i in range(3):
        pos[i] += p[i]
        vel[i] += rate * ap[i]
        acc[i] += accel * ap[i] + rate * rate * aap[i]


@njit(cache=True)
def _kinematics(q, qd, qdd, axis, phi_rows, order, parent, hinge0, x0, origin0, quat0,
                x, v, acc, rot, w, alpha, hinge, origin, quat):
    """The bodies' mass centres x, velocities v and accelerations acc (n, 3) [m, m/s, m/s^2], rotations rot
    (n, 3, 3), spins w and angular accelerations alpha (n, 3), the points of the joints they hang on (n, 3),
    their frames' origins (n, 3) and orientations (n, 4, w >= 0), from the coordinates, their rates and
    accelerations (the planar picture of the module's docstring)."""
    n, nq = phi_rows.shape
    ang, rate, accel = np.zeros(n), np.zeros(n), np.zeros(n)
    for k in range(n):
        for c in range(nq):
            ang[k] += phi_rows[k, c] * q[c]
            rate[k] += phi_rows[k, c] * qd[c]
            accel[k] += phi_rows[k, c] * qdd[c]
    c0, c1, c2 = np.zeros((n, 3)), np.zeros((n, 3)), np.zeros((n, 3))  # c_k and its two rates
    turns = np.empty((n, 3, 3))  # R(phi_k), each made once (a parent's before its children's)
    zero = np.zeros(3)
    for k in order:
        p = parent[k]
        turn_k = turns[k]
        _entries(_about(ang[k] * axis[0], ang[k] * axis[1], ang[k] * axis[2]), turn_k)
        if p >= 0:  # c_p + R(phi_p) p_k, with its rates: also the point of the joint k hangs on
            c0[k], c1[k], c2[k] = c0[p], c1[p], c2[p]
            _moved(turns[p], axis, rate[p], accel[p], hinge0[k], c0[k], c1[k], c2[k])
        else:
            c0[k] = hinge0[k]
        hinge[k] = c0[k]
        # minus R(phi_k) p_k, with its rates
        back0, back1, back2 = np.zeros(3), np.zeros(3), np.zeros(3)
        _moved(turn_k, axis, rate[k], accel[k], hinge0[k], back0, back1, back2)
        c0[k] -= back0
        c1[k] -= back1
        c2[k] -= back2
        x[k], v[k], acc[k], origin[k] = c0[k], c1[k], c2[k], c0[k]
        _moved(turn_k, axis, rate[k], accel[k], x0[k], x[k], v[k], acc[k])
        _moved(turn_k, axis, 0.0, 0.0, origin0[k], origin[k], zero.copy(), zero.copy())
        b = _turned(quat0[k], (ang[k] * axis[0], ang[k] * axis[1], ang[k] * axis[2]))
        sign = -1.0 if b[0] < 0 else 1.0  # w >= 0, as matrix_quats gives it
        for i in range(4):
            quat[k, i] = sign * b[i]
        _entries(b, rot[k])
        for i in range(3):
            w[k, i] = rate[k] * axis[i]
            alpha[k, i] = accel[k] * axis[i]


@njit(cache=True)
def _add_turned(weight, c, col, rot, rot0, out):
    """weight times the loads `col` (n, 2, 3) of the start, turned with body c (-1: not turned), added into out
    (n, 2, 3): c's rotation since the start is rot[c] rot0[c]^T."""
    turn = np.empty((3, 3))
    for a in range(3):
        for b in range(3):
            if c < 0:
                turn[a, b] = 1.0 if a == b else 0.0
            else:
                turn[a, b] = rot[c, a, 0] * rot0[c, b, 0] + rot[c, a, 1] * rot0[c, b, 1] + rot[c, a, 2] * rot0[c, b, 2]
    for k in range(col.shape[0]):
        for part in range(2):
            for a in range(3):
                out[k, part, a] += weight * (turn[a, 0] * col[k, part, 0] + turn[a, 1] * col[k, part, 1]
                                             + turn[a, 2] * col[k, part, 2])


# where an element's channel comes from (SampleKernel._element_layout): its state's entry, an extra state, or
# a tooth force component of a mesh's Ft
FROM_STATE, FROM_EXTRA, FROM_TOOTH = 0, 1, 2
JOINT_ENERGY = 1  # a joint element's state: torque, energy, dissipated power (`_element_forces`)
MESH_ENERGY, MESH_FT = MESH_STATE.index("energy"), MESH_STATE.index("ft")


@njit(cache=True)
def _loads(t, y, fb, ib, x, rot, rot0, mass, gravity, carriers, cols, n_joint, spec, tans, loads, values):
    """Gravity's and the force elements' loads on the bodies into `loads` (n, 2, 3: forces [N] and moments [N m]
    about the mass centres, world), as System._loads gives them, and the elements' channels into `values` (one
    per row of `spec`: where it comes from, the element's state row, the entry; `tans` has a row per element,
    its pair's tangents for a mesh); returns the potential energy [J]. The elements' formulas are the kernel's (`_element_forces`); their loads are their inputs times their
    loads per unit input at the start (`cols`, JointFastPath.body_elements) turned with their carriers."""
    n = x.shape[0]
    nq = ib[NQ]
    extra, qd = y[2 * nq:], y[nq:2 * nq]
    spin_rows = _floats(fb, ib, SPIN_ROWS)
    spins = np.empty(spin_rows.shape[0])
    _times_vector(spin_rows, qd, spins)
    u = np.zeros(ib[N_U])
    states = np.zeros(tans.shape[0] * STATE_SIZE)
    _element_forces(t, extra, spins, u, fb, ib, states)
    states = states.reshape(tans.shape[0], STATE_SIZE)
    potential = 0.0
    for k in range(n):
        for a in range(3):
            loads[k, 0, a] = mass[k] * gravity[a]
            loads[k, 1, a] = 0.0
            potential -= mass[k] * x[k, a] * gravity[a]
    for f in range(cols.shape[0]):
        if u[f] != 0.0:
            _add_turned(u[f], carriers[f], cols[f], rot, rot0, loads)
    for e in range(states.shape[0]):
        potential += states[e, JOINT_ENERGY] if e < n_joint else states[e, MESH_ENERGY]
    for c in range(spec.shape[0]):
        kind, row, entry = spec[c, 0], spec[c, 1], spec[c, 2]
        if kind == FROM_STATE:
            values[c] = states[row, entry]
        elif kind == FROM_EXTRA:
            values[c] = extra[entry]
        else:
            values[c] = _components(states[row, MESH_FT], tans[row, 0], tans[row, 1])[entry]
    return potential


@njit(cache=True)
def _channels(y, qd, lam, flip, x, v, acc, rot, w, alpha, hinge, origin, loads,
              mass, inertia, rot0, row_carrier, gear_rows, body_plus, body_sep, edge_child, edge_sign, subtree,
              tooth_rows, tooth_tan, drift_index, angle_index, speed_rows, energy_index, out):
    """The channels the kernel lays out, into out: the tooth forces (Ft, Fr, Fa, Fc) [N] of each rigid pair,
    each pair's phase drift [m], each body's origin [m] and spin [rad/s], each joint's angle [rad] and speed
    [rad/s], each tree joint's reaction force [N] and torque [N m] on its body j about its point, and the
    kinetic energy, work and dissipated energy [J]; as SampleKernel.names lists them."""
    n, rows = x.shape[0], lam.shape[0]
    nq = qd.shape[0]
    extra = y[2 * nq:]
    # the rows' forces and moments on the bodies (JointFastPath.constraint_forces), each turned with its carrier
    flank = np.zeros(rows)
    for g in range(gear_rows.shape[0]):
        flank[gear_rows[g]] = flip[g]
    applied = np.zeros((n, 2, 3))
    for r in range(rows):
        _add_turned(lam[r], row_carrier[r], body_plus[r] - 2.0 * flank[r] * body_sep[r], rot, rot0, applied)
    # what each body needs beyond its applied loads: m a - f, and J alpha + w x J w - tau (System._inertial)
    need_f, need_t = np.empty((n, 3)), np.empty((n, 3))
    kinetic = 0.0
    for k in range(n):
        jw = _rotated(rot[k], inertia[k])
        h = (jw[0, 0] * w[k, 0] + jw[0, 1] * w[k, 1] + jw[0, 2] * w[k, 2],
             jw[1, 0] * w[k, 0] + jw[1, 1] * w[k, 1] + jw[1, 2] * w[k, 2],
             jw[2, 0] * w[k, 0] + jw[2, 1] * w[k, 1] + jw[2, 2] * w[k, 2])
        gyro = _cross(w[k], h)
        for a in range(3):
            need_f[k, a] = mass[k] * acc[k, a] - loads[k, 0, a] - applied[k, 0, a]
            need_t[k, a] = (jw[a, 0] * alpha[k, 0] + jw[a, 1] * alpha[k, 1] + jw[a, 2] * alpha[k, 2]
                            + gyro[a] - loads[k, 1, a] - applied[k, 1, a])
            kinetic += 0.5 * (mass[k] * v[k, a] * v[k, a] + w[k, a] * h[a])
    at = 0
    for p in range(tooth_rows.shape[0]):
        f = _components(lam[tooth_rows[p]], tooth_tan[p, 0], tooth_tan[p, 1])
        for i in range(4):
            out[at + i] = f[i]
        at += 4
    for g in range(drift_index.shape[0]):
        out[at] = extra[drift_index[g]]
        at += 1
    for k in range(n):
        for i in range(3):
            out[at + i] = origin[k, i]
            out[at + 3 + i] = w[k, i]
        at += 6
    for j in range(angle_index.shape[0]):
        out[at] = extra[angle_index[j]]
        s = 0.0
        for c in range(nq):
            s += speed_rows[j, c] * qd[c]
        out[at + angle_index.shape[0]] = s
        at += 1
    at += angle_index.shape[0]
    # Newton-Euler on each tree joint's subtree: the sum of the forces, and of the moments about its point
    for e in range(edge_child.shape[0]):
        force, moment = np.zeros(3), np.zeros(3)
        for k in range(n):
            if subtree[e, k] != 0.0:
                arm = _cross(x[k], need_f[k])
                for a in range(3):
                    force[a] += need_f[k, a]
                    moment[a] += need_t[k, a] + arm[a]
        arm = _cross(hinge[edge_child[e]], force)
        for a in range(3):
            out[at + a] = edge_sign[e] * force[a]
            out[at + 3 + a] = edge_sign[e] * (moment[a] - arm[a])
        at += 6
    out[at] = kinetic
    out[at + 1] = extra[energy_index[0]]
    out[at + 2] = extra[energy_index[1]]


def _tangents(pair) -> tuple[float, float]:
    """The tangents of a cylindrical pair's working transverse pressure and helix angles, as
    `cylinder_force_components` takes them."""
    return np.tan(pair.working_pressure_angle), np.tan(pair.working_helix_angle)


class SampleKernel:
    """The compiled output samples of a JointCoordinateSystem with a (dense) fast path; raises ValueError with
    the reason when it does not lay the system's channels out or its check fails."""

    def __init__(self, system, kernel):
        """`kernel`: the system's fast path compiled (CompiledFastPath): its `solve` gives the rate, multipliers
        and flanks, and its element tables the force elements' states."""
        fast = kernel.fast
        sy, self.system, self.fast, self.kernel = system, system, fast, kernel
        if fast.kkt or not fast.outputs_covered:
            raise ValueError("the fast path's samples take the general path (a large train, or tooth forces that "
                             "do not turn with their carriers)")
        edges = sy.edges
        axes = [e.axis0 for e in edges if e.coordinate is not None]
        axis = axes[0]
        if any(np.linalg.norm(np.cross(a, axis)) > 1e-12 for a in axes):
            raise ValueError("revolute axes not all parallel (its picture turns every body about one axis)")
        n, nq = sy.n, sy.nq
        phi_rows, parent, hinge0 = np.zeros((n, nq)), np.full(n, -1, np.int64), np.zeros((n, 3))
        for e in edges:  # parents first (breadth first from the ground)
            if e.parent >= 0:
                phi_rows[e.child] = phi_rows[e.parent]
            if e.coordinate is not None:
                phi_rows[e.child, e.coordinate] += e.sign * float(e.axis0 @ axis)
            parent[e.child], hinge0[e.child] = e.parent, e.point0
        origin0 = sy.x0 - np.einsum("kab,kb->ka", sy.rot0, sy.com)
        self._kin = (np.ascontiguousarray(axis, float), phi_rows, np.array([e.child for e in edges], np.int64),
                     parent, hinge0, np.ascontiguousarray(sy.x0), origin0, matrix_quats(sy.rot0).reshape(n, 4))
        rows_of = sy._rows_of()
        rigid = [name for name in sy.gears if name in rows_of]
        pairs = [sy.gears[name].pair for name in rigid]
        if any(g.kind == "bevel" for g in pairs):
            raise ValueError("a bevel pair (its tooth forces are not the cylindrical ones laid out here)")
        joints = list(sy.angle_index)
        reacting = [e.joint for e in edges]
        self.names = ([f"{name}.{f}" for name in rigid for f in TOOTH_FORCES] + [f"{name}.drift" for name in sy.gears]
                      + [f"{b}.{p}{a}" for b in sy.names for p in ("", "w") for a in "xyz"]
                      + [f"{j}.angle" for j in joints] + [f"{j}.speed" for j in joints]
                      + [f"{j}.{p}{a}" for j in reacting for p in "FT" for a in "xyz"]
                      + ["energy.kinetic", "energy.work", "energy.dissipated"])
        speed_rows = np.zeros((len(joints), nq))
        for k, j in enumerate(joints):
            speed_rows[k] = fast.extra_rows[sy.angle_index[j]]
        rows = fast.rows
        carrier = np.full(rows, -1, np.int64)  # each row's carrier, whose turn its tooth force follows
        carrier[fast._turned_rows] = fast._row_carriers
        self._rows = (carrier, np.asarray(fast.gear_rows, np.int64),
                      np.ascontiguousarray(fast._body_plus if rows else np.zeros((0, n, 2, 3))),
                      np.ascontiguousarray(fast._body_sep if rows else np.zeros((0, n, 2, 3))))
        self._tree = (np.array([e.child for e in edges], np.int64), np.array(sy._edge_sign, float),
                      np.ascontiguousarray(sy._subtree, float))
        self._layout = (np.array([rows_of[name][0] for name in rigid], np.int64).reshape(-1),
                        np.array([_tangents(g) for g in pairs], float).reshape(-1, 2),
                        np.array([gc.error_index for gc in sy.gears.values()], np.int64).reshape(-1),
                        np.array([sy.angle_index[j] for j in joints], np.int64).reshape(-1), speed_rows,
                        np.array([sy.work_index, sy.dissipated_index], np.int64))
        self._bodies = (sy.mass, np.ascontiguousarray(sy.inertia), np.ascontiguousarray(sy.rot0))
        # the force elements: their loads per unit input, and where each of their channels comes from
        self._elements = (np.asarray(fast._col_carriers, np.int64), np.ascontiguousarray(fast.body_elements),
                          len(fast.joint_elements))
        layout = self._element_layout(fast)
        tans = np.zeros((len(fast.joint_elements) + len(fast.meshes), 2))
        for m, fe in enumerate(fast.meshes):
            tans[len(fast.joint_elements) + m] = _tangents(fe.gear.pair)
        # where each channel goes in the Python sample's order: the elements' own first, then these
        y0 = sy.initial_state()
        channels = sy.outputs(0.0, y0).channels
        everything = [c.name for c in channels]
        mine = Outputs()
        sy._loads(0.0, sy.snapshot(y0), mine)
        first = [c.name for c in mine.channels]
        where = {name: k for k, name in enumerate(everything)}
        laid = list(layout) + self.names + ["energy.potential"]
        if (len(where) != len(everything) or sorted(laid) != sorted(everything)
                or everything[:len(first)] != first or sorted(first) != sorted(layout)):
            missing = sorted(set(everything) - set(laid)) or sorted(set(laid) - set(everything)) or ["a repeated name"]
            raise ValueError(f"its channels are not the Python sample's ({missing[0]})")
        self._spec = (np.array([layout[name] for name in first], np.int64).reshape(-1, 3), tans)
        self.size = len(everything)
        self._dest = np.array([where[name] for name in self.names], np.int64)
        self._potential = where["energy.potential"]
        self._gravity = np.asarray(sy.gravity, float)
        self._check(y0, np.array([c.unit for c in channels]))

    @staticmethod
    def _element_layout(fast) -> dict:
        """Each force element's channel, by name, as (where it comes from, the element's state row, the entry):
        the state rows of `_element_forces` (the joint elements', then the meshes'), each channel as the
        element's `apply` writes it (core.dynamics.force_elements); the set-up check holds the two together."""
        layout = {}
        for e, fe in enumerate(fast.joint_elements):  # JointTorque, TorsionalSpring: the torque on body j
            layout[f"{fe.name}.torque"] = (FROM_STATE, e, 0)
        for m, fe in enumerate(fast.meshes):  # CompliantMesh
            row = len(fast.joint_elements) + m
            layout.update({f"{fe.gear.name}.{label}": (FROM_TOOTH, row, i) for i, label in enumerate(TOOTH_FORCES)})
            layout[f"{fe.name}.TE"] = (FROM_EXTRA, row, fe.gear.error_index)
            layout.update({f"{fe.name}.{name}": (FROM_STATE, row, MESH_STATE.index(name))
                           for name in ("deflection", "force", "stiffness")})
        return layout

    def _check(self, y0: np.ndarray, units: np.ndarray) -> None:
        """One sample at a random state against the Python sample (System.sample), each channel within CHECK_TOL
        of the largest of its unit (`units`, one per channel) or ZERO; ValueError if they differ."""
        sy = self.system
        rng = np.random.default_rng(20261203)
        y = y0.copy()
        nq = sy.nq
        y[:nq] = rng.uniform(-np.pi, np.pi, nq)
        y[nq:2 * nq] += rng.normal(size=nq)
        y[2 * nq:] += rng.normal(scale=1e-5, size=sy.extra)  # a mesh's TE [m] loads it (2 kN at 2e8 N/m)
        y = self.fast.consistent_rates(0.5, y)
        mine, theirs = self.sample(0.5, y), System.sample(sy, 0.5, y)
        bound = np.full(len(units), ZERO)
        for u in set(units):
            of = units == u
            bound[of] += CHECK_TOL * np.abs(theirs[0][of]).max()
        off = np.abs(mine[0] - theirs[0]) > bound
        if off.any() or not np.allclose(mine[1], theirs[1], rtol=0, atol=CHECK_TOL * max(1.0, np.abs(theirs[1]).max())):
            k = int(np.flatnonzero(off)[0]) if off.any() else -1
            raise ValueError(f"its check against the Python sample failed (channel {k}: {mine[0][k]!r} against "
                             f"{theirs[0][k]!r})" if k >= 0 else "its check against the Python sample failed (poses)")
        q_mine, q_theirs = mine[2], theirs[2]
        if np.abs(np.abs(np.sum(q_mine * q_theirs, axis=1)) - 1.0).max() > CHECK_TOL:
            raise ValueError("its check against the Python sample failed (orientations)")

    def sample(self, t: float, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One output sample at (t, y), as System.sample gives it: the channels' values, the body origins (n, 3)
        [m] and orientations (n, 4)."""
        nq, n, kernel = self.system.nq, self.system.n, self.kernel
        rate, lam, flip = kernel.solve(t, y)
        x, v, acc, w, alpha, hinge, origin = (np.empty((n, 3)) for _ in range(7))
        rot, quat = np.empty((n, 3, 3)), np.empty((n, 4))
        _kinematics(y[:nq], y[nq:2 * nq], rate[nq:2 * nq], *self._kin, x, v, acc, rot, w, alpha, hinge, origin, quat)
        loads, values, laid = np.empty((n, 2, 3)), np.empty(self.size), np.empty(len(self.names))
        values[self._potential] = _loads(float(t), y, kernel.fb, kernel.ib, x, rot, self._bodies[2], self._bodies[0],
                                         self._gravity, *self._elements, *self._spec, loads, values)
        _channels(y, y[nq:2 * nq], lam, np.asarray(flip, float), x, v, acc, rot, w, alpha, hinge, origin, loads,
                  *self._bodies, *self._rows, *self._tree, *self._layout, laid)
        values[self._dest] = laid
        return values, origin, quat
