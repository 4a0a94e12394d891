"""The joint-coordinate equations of a gear train as constant matrices: the fast path.

When every revolute axis of the tree is parallel, or a gear turns on a shaft
fixed to the ground at any angle (a bevel pair, a right-angle drive), the
joint-coordinate picture of a gear train stops depending on where the gears are:

- the joint mass matrix T^T M T is constant (a gear's spin inertia about its
  axis does not change as it turns; a planet's m r^2 about the carrier
  does not change as the carrier turns),
- so are the gear pairs' rows J T and tooth-force directions G T (a pair's
  geometry is fixed in its carrier's frame), the motors' rows and the joints'
  relative spins,
- the gyroscopic and centripetal forces and gravity (along the axes, or on
  mass centres that stay put) do no work on the coordinates, the tooth forces'
  separating parts move none, and gamma - J b is zero for a gear row and the
  law's rate for a motor row.

The rate is then affine in a handful of inputs (the elements' torques and
tooth forces, the coordinate rates, the stabilised errors, the motors' targets
and their rates), one matrix per set of flanks in contact:

    [lambda]                [element forces   ]
    [      ] = K(flanks) *  [q'               ],   q'' = M^-1 (C f + G^T lambda).
    [ q''  ]                [phi, s(t), s'(t) ]

Assembly computes these matrices from the general path (System._jacobian and
JointCoordinateSystem.kinematics at the start) and checks at random
configurations and speeds that they do not change, so a model the argument does
not cover (bodies whose mass centres are off their axes on a moving carrier,
gravity that works on the coordinates, gears on a swinging arm) keeps the general path; the
reason is kept in `reason`. Flanks, the minimum-norm multipliers of redundant
sets and every element's formula are the general path's own
(tests/core/dynamics/test_joint_fast_path.py holds the two paths to 1e-12 on
random states of every example).

The output samples take the multipliers and accelerations from here too
(`solve`); the tooth forces on the bodies, which the joint reactions need in
world axes, are those at the start turned with each pair's carrier
(`constraint_forces`): a pair's contact frame and its gears' mass centres are
fixed in the carrier's frame. So are the force elements' loads per unit
input (`body_elements`, for the compiled samples). That too is checked at the
random configurations; where it does not hold, `outputs_covered` is False and the samples take the
general path (the rates stay here).

Covered: rigid gear pairs, speed motors, joint torques, torsional
spring-dampers and compliant meshes on a tree of revolute and fixed joints.
Lossy pairs (their modes), loop-closing joints, bearings and linear springs
take the general path.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse
from scipy.sparse import linalg as splinalg

from core.dynamics.constraints import GearConstraint, Snapshot, SpeedConstraint
from core.dynamics.force_elements import CompliantMesh, JointTorque, TorsionalSpring
from core.dynamics.system import dense
from core.geometry.rotations import world_tensors

CHECKS = 3  # random configurations the constant matrices are checked at
TOLERANCE = 1e-11  # relative change allowed at them (round-off of the general path is about 1e-15)


class NotCovered(Exception):
    """The model is outside what the fast path covers; the message says why."""


def _rel_row(system, geometry, s) -> np.ndarray:
    """The joint's relative spin a . (w_j - w_i) as a row in the bodies' velocities (6 n,): also the loads of a
    unit torque about its axis on body j, with its reaction on body i."""
    rot = s.rot[geometry.bi] if geometry.bi >= 0 else np.eye(3)
    a = rot @ geometry.ai
    row = np.zeros(6 * system.n)
    row[6 * geometry.bj + 3:6 * geometry.bj + 6] = a
    if geometry.bi >= 0:
        row[6 * geometry.bi + 3:6 * geometry.bi + 6] -= a
    return row


def _gear_rows(system, gear: GearConstraint, s):
    """A gear pair's slip row J, its tooth force per unit Ft for Ft > 0 (G: the forces and moments on the
    bodies) and G's separating part, each in the bodies' velocities (6 n,)."""
    parts = [p for p in gear.blocks(s)[0] if p[0] >= 0]
    shape = (1, 6 * system.n)
    rows = (system._matrix([(0, b, jb) for b, jb, _, _ in parts], shape),
            system._matrix([(0, b, gb + sb) for b, _, gb, sb in parts], shape),
            system._matrix([(0, b, sb) for b, _, _, sb in parts], shape))
    return tuple(dense(m)[0] for m in rows)


class JointFastPath:
    """The rate of a JointCoordinateSystem from constant matrices; raises NotCovered at assembly if it cannot."""

    def __init__(self, system):
        self.system = sy = system
        if sy.sparse and (sy.redundant or not sy.rows):
            raise NotCovered("large system with redundant rows or none (the sparse form solves a KKT matrix)")
        if sy.lossy:
            raise NotCovered(f"lossy gear pair {next(iter(sy.lossy))!r} (its modes change the rows)")
        for c in sy.constraints:
            if not isinstance(c, (GearConstraint, SpeedConstraint)):
                raise NotCovered(f"constraint {c.name!r} ({type(c).__name__}) closes a loop")
        for fe in sy.forces:
            if type(fe) not in (JointTorque, TorsionalSpring, CompliantMesh):
                raise NotCovered(f"force element {fe.name!r} ({type(fe).__name__})")
        if all(e.coordinate is None for e in sy.edges):
            raise NotCovered("no joint coordinates")
        self.nq, self.rows = sy.nq, sy.rows
        self.meshes = [fe for fe in sy.forces if isinstance(fe, CompliantMesh)]
        self.joint_elements = [fe for fe in sy.forces if not isinstance(fe, CompliantMesh)]
        # the joints whose relative spin an element or an extra state reads, by (role, name)
        self._spin_geometries = {
            **{("element", fe.name): fe.g for fe in self.joint_elements},
            **{("joint", name): sy.geometry[name] for name in sy.angle_index},
            **{("motor", c.name): c.g for c in sy.constraints if isinstance(c, SpeedConstraint)},
            **{("mesh", fe.name): fe.gear.j1 for fe in self.meshes}}
        def turned_with(name: str) -> int:  # gear pair `name`'s carrier body (-1: the ground)
            pair = sy.model.gear_pairs.get(name)
            return sy.index.get(pair.carrier, -1) if pair is not None and pair.carrier else -1

        # each row's carrier (-1: the ground): a gear row's contact frame turns with it, a motor row's with nothing
        carrier = np.array([turned_with(c.name) if isinstance(c, GearConstraint) else -1 for c in sy.constraints],
                           dtype=int)
        self._turned_rows, self._row_carriers = np.flatnonzero(carrier >= 0), carrier[carrier >= 0]
        # each element input's carrier (-1: none): a compliant mesh's Ft on either flank turns with its pair's
        self._col_carriers = np.array([-1] * len(self.joint_elements)
                                      + [c for fe in self.meshes for c in (2 * [turned_with(fe.gear.name)] + [-1])],
                                      dtype=int)
        mats = self._matrices(np.zeros(self.nq), np.zeros(self.nq))
        # the flanks then move no coordinate, so the multipliers and the settled flanks are the same from any
        # start (the compiled kernel starts from the last evaluation's); so on parallel axes and fixed shafts
        if sy.rows and np.abs(mats["g_sep"]).max() > TOLERANCE * np.abs(mats["g_plus"]).max():
            raise NotCovered("a tooth force's separating part acts on the coordinates")
        self.outputs_covered = not sy.sparse  # the large trains' KKT form keeps the general path for samples
        rng = np.random.default_rng(20261202)
        scale = max(1.0, float(np.abs(sy.initial_state()[sy.space.qd]).max(initial=0.0)))
        for _ in range(CHECKS):
            q, qd = rng.uniform(-np.pi, np.pi, self.nq), scale * rng.normal(size=self.nq)
            other = self._matrices(q, qd)
            for key, value in mats.items():
                if key == "gravity":  # the rate leaves gravity out: it must do no work on the coordinates
                    if max(np.abs(value).max(initial=0.0), np.abs(other[key]).max(initial=0.0)) > TOLERANCE:
                        raise NotCovered("gravity acts on the coordinates (across the axes of a moving mass centre)")
                    continue
                if key.startswith("body_"):  # the tooth forces on the bodies in their carriers' axes
                    size = max(np.abs(value).max(initial=0.0), 1e-300)
                    self.outputs_covered &= bool(np.allclose(other[key], value, rtol=0.0, atol=TOLERANCE * size))
                    continue
                if key == "work":
                    # the gyroscopic, centripetal and gamma - J b terms: none on the coordinates
                    size = np.abs(mats["mass"]).max() * (qd @ qd) + np.abs(other["rows"]).max(initial=0.0) * (qd @ qd)
                    if np.abs(other[key]).max(initial=0.0) > TOLERANCE * size:
                        raise NotCovered("the velocity terms act on the coordinates (a mass centre off its axis)")
                    continue
                # a tooth force's separating part may be zero on the coordinates: scaled by the whole force
                size = max(np.abs(mats["g_plus" if key in ("rows", "g_plus", "g_sep") and sy.rows else key])
                           .max(initial=0.0), np.abs(value).max(initial=0.0), 1e-300)
                if not np.allclose(other[key], value, rtol=0.0, atol=TOLERANCE * size):
                    raise NotCovered(f"the {key} change with the configuration")
        self._assemble(mats)

    def _matrices(self, q, qd) -> dict:
        """The matrices the argument says are constant, and the velocity terms it says vanish, at (q, q')."""
        sy = self.system
        (x, rot, v, w), t_mat, bias = sy.kinematics(q, qd)
        t_mat = dense(t_mat)
        s = Snapshot(x, rot, v, w, np.zeros(sy.extra))
        mc = sy._cartesian_mass(s)
        out = {"mass": dense(sy._joint_mass(t_mat, mc))}
        if sy.rows:
            jac, gplus, gsep, gamma, _, _, _ = sy._jacobian(0.0, s)
            out["rows"] = dense(jac @ t_mat)
            out["g_plus"], out["g_sep"] = dense(gplus @ t_mat), dense(gsep @ t_mat)
            back = self._turns(rot).transpose(0, 2, 1)
            for key, g in (("body_plus", gplus), ("body_sep", gsep)):
                out[key] = np.einsum("rab,rnkb->rnka", back, dense(g).reshape(sy.rows, sy.n, 2, 3))
            motor = np.zeros(sy.rows)
            row = 0
            for c in sy.constraints:
                if isinstance(c, SpeedConstraint):
                    motor[row] = c.law.derivative(0.0)
                row += c.rows
            drift = gamma - dense(jac) @ bias - motor
        else:
            out["rows"] = np.zeros((0, self.nq))
            drift = np.zeros(0)
        jw = world_tensors(rot, sy.inertia)
        gyro = np.cross(w, np.einsum("kab,kb->ka", jw, w))
        inertial = np.hstack([np.zeros_like(gyro), -gyro]).ravel() - sy._times_mass(mc, bias)
        out["work"] = np.concatenate([np.asarray(t_mat.T @ inertial).ravel(), drift])
        weight = np.hstack([sy.mass[:, None] * sy.gravity[None, :], np.zeros((sy.n, 3))])
        # T^T (m g) relative to the largest weight times the largest lever (a mass centre's travel per radian,
        # or the model's size): zero but for round-off where gravity does no work on the coordinates
        lever = max(float(np.abs(t_mat.reshape(sy.n, 6, -1)[:, :3]).max(initial=0.0)),
                    float(np.abs(sy.x0).max(initial=0.0)), 1e-3)
        out["gravity"] = (t_mat.T @ weight.ravel()) / max(float(np.abs(weight).max(initial=0.0)) * lever, 1e-300)
        spins = {key: _rel_row(sy, geo, s) for key, geo in self._spin_geometries.items()}
        out["spins"] = np.array([row @ t_mat for row in spins.values()]).reshape(-1, self.nq)
        mesh_rows = [_gear_rows(sy, fe.gear, s) for fe in self.meshes]
        out["meshes"] = np.array([row @ t_mat for rows in mesh_rows for row in rows]).reshape(-1, 3, self.nq)
        # the element inputs' loads on the bodies, per unit input (the columns C before T, in the inputs' order
        # of _assemble), each turned back with its carrier: a tooth force turns with its pair's, a torque about
        # its joint's axis with nothing (the check at random configurations holds them to it)
        cols = [spins["element", fe.name] for fe in self.joint_elements]
        for fe, (_, gp, gs) in zip(self.meshes, mesh_rows):
            cols += [gp, gp - 2.0 * gs, spins["mesh", fe.name]]
        cols = np.array(cols).reshape(-1, sy.n, 2, 3)
        turns = rot[self._col_carriers] @ sy.rot0[self._col_carriers].transpose(0, 2, 1)
        turns[self._col_carriers < 0] = np.eye(3)
        out["body_elements"] = np.einsum("fba,fnkb->fnka", turns, cols)
        return out

    def _turns(self, rot: np.ndarray) -> np.ndarray:
        """Each row's carrier's rotation since the start (rows, 3, 3), from the bodies' rotations (n, 3, 3)
        (with a leading sample axis on both for many samples)."""
        sy = self.system
        turns = np.zeros(rot.shape[:-3] + (self.rows, 3, 3))
        turns[:] = np.eye(3)
        c = self._row_carriers
        turns[..., self._turned_rows, :, :] = rot[..., c, :, :] @ sy.rot0[c].transpose(0, 2, 1)
        return turns

    def constraint_forces(self, rot: np.ndarray, lam: np.ndarray, flip) -> np.ndarray:
        """G^T lambda (6 n,): the rows' forces and moments on the bodies [N, N m] (world, about the mass
        centres) for the flanks `flip`, from the bodies' rotations (n, 3, 3); as System._multipliers gives them.
        Many samples: rot (m, n, 3, 3), lam (m, rows) and flip (m, gear rows) give (m, 6 n)."""
        sy = self.system
        lead = rot.shape[:-3]
        if not self.rows:
            return np.zeros(lead + (6 * sy.n,))
        f = np.zeros(lead + (self.rows,))
        f[..., self.gear_rows] = np.asarray(flip, dtype=float)
        g_body = self._body_plus - 2.0 * f[..., None, None, None] * self._body_sep
        return np.einsum("...r,...rab,...rnkb->...nka", lam, self._turns(rot), g_body).reshape(lead + (-1,))

    def _assemble(self, m: dict) -> None:
        sy, nq, rows = self.system, self.nq, self.rows
        self._body_plus, self._body_sep = m.get("body_plus"), m.get("body_sep")
        self.body_elements = m["body_elements"]  # (n_f, n, 2, 3): per unit element input, in its carrier's axes
        spin = dict(zip(self._spin_geometries, m["spins"]))
        self.minv = np.linalg.inv(m["mass"])
        # element inputs f and their columns C: a joint torque, a spring, a mesh's Ft on each flank and its
        # potential torque
        cols = [spin["element", fe.name] for fe in self.joint_elements]
        for fe, (_, gp, gs) in zip(self.meshes, m["meshes"]):
            cols += [gp, gp - 2.0 * gs, spin["mesh", fe.name]]
        self.n_f = len(cols)
        c_mat = np.array(cols).reshape(-1, nq).T
        self.minv_c = self.minv @ c_mat
        # the rows: gear slips and motor spins, the extra state each one's error is, stabilised or not
        self.jq, self.g_plus, self.g_sep = m["rows"], m.get("g_plus"), m.get("g_sep")
        motor_rows, phi_index, stab, self.motors = [], [], [], []
        row = 0
        for c in sy.constraints:
            phi_index.append(c.error_index)
            stab.append(c.stabilised)
            if isinstance(c, SpeedConstraint):
                motor_rows.append(row)
                self.motors.append(c)
            row += c.rows
        self.phi_index = np.array(phi_index, dtype=int)
        self.gear_rows = sy.gear_rows
        self._stab = np.array(stab, dtype=float)
        self._em = np.zeros((rows, len(self.motors)))
        self._em[motor_rows, np.arange(len(self.motors))] = 1.0
        self.motor_rows = np.array(motor_rows, dtype=int)
        self._k = {}  # flanks -> (K, M^-1 G^T)
        if rows and not sy.sparse:  # the speeds' projection: M^-1 J^T (J M^-1 J^T)^+
            self._projector = self.minv @ self.jq.T @ np.linalg.pinv(self.jq @ self.minv @ self.jq.T, rcond=1e-12)
        # the inputs: [f, q', phi, s(t), s'(t)]
        nm = len(self.motors)
        self._u = (slice(0, self.n_f), slice(self.n_f, self.n_f + nq), slice(self.n_f + nq, self.n_f + nq + rows),
                   slice(self.n_f + nq + rows, self.n_f + nq + rows + nm), slice(self.n_f + nq + rows + nm, None))
        self.n_u = self.n_f + nq + rows + 2 * nm
        # the extra states' rates: linear in q' (angles, gear errors, motor errors) less the motors' targets
        ex_rows = np.zeros((sy.extra, nq))
        covered = {sy.work_index, sy.dissipated_index}
        for name, idx in sy.angle_index.items():
            ex_rows[idx] = spin["joint", name]
            covered.add(idx)
        mesh_slip = {fe.gear.name: jrow for fe, (jrow, _, _) in zip(self.meshes, m["meshes"])}
        row = 0
        for c in sy.constraints:
            ex_rows[c.error_index] = self.jq[row] if isinstance(c, GearConstraint) else spin["motor", c.name]
            covered.add(c.error_index)
            row += c.rows
        for name, gc in sy.gears.items():
            if name in mesh_slip:
                ex_rows[gc.error_index] = mesh_slip[name]
                covered.add(gc.error_index)
        missing = sorted(set(range(sy.extra)) - covered)
        if missing:
            raise NotCovered(f"extra states {missing} of an element it does not know")
        self.extra_rows = ex_rows
        self.motor_error_index = np.array([c.error_index for c in self.motors], dtype=int)
        # what the elements read: joint spins, mesh slips and angles
        self.spin_rows = np.array([spin["element", fe.name] for fe in self.joint_elements]
                                  + [mesh_slip[fe.gear.name] for fe in self.meshes]
                                  + [spin["motor", c.name] for c in self.motors]).reshape(-1, nq)
        self._drive_flanks = (False,) * len(self.gear_rows)
        # a large train (System.sparse): K would be dense, so its cost would grow as N^2; the KKT matrix
        # [[M, -G^T], [J, 0]] is as sparse as the train, and one LU per set of flanks keeps each rate O(N)
        self.kkt = sy.sparse
        if self.kkt:
            csr = sparse.csr_matrix
            self._sp = {"c": csr(c_mat), "j": csr(self.jq), "gp": csr(self.g_plus), "gs": csr(self.g_sep),
                        "m": csr(m["mass"]), "x": csr(ex_rows), "spin": csr(self.spin_rows)}
            self._gamma_rows = np.zeros(rows)
        self.work_index, self.dissipated_index = sy.work_index, sy.dissipated_index

    def _kkt(self, flip: tuple):
        """The LU of [[M, -G^T], [J, 0]] for the gear rows' flanks (True: Ft < 0), and M's (large trains)."""
        found = self._k.get(flip)
        if found is None:
            sp = self._sp
            f = np.zeros(self.rows)
            f[self.gear_rows] = np.array(flip, dtype=float)
            gq = sp["gp"] - 2.0 * sparse.diags(f) @ sp["gs"]
            kkt = sparse.bmat([[sp["m"], -gq.T], [sp["j"], None]], format="csc")
            found = self._k[flip] = (splinalg.splu(kkt), gq)
        return found

    def _rate_kkt(self, t, y, f, work, dissipation, spins):
        nq, rows, sp = self.nq, self.rows, self._sp
        qd, extra = y[nq:2 * nq], y[2 * nq:]
        target, gamma = self._at_motor_rows(t)
        sys_ = self.system
        rhs = np.concatenate([sp["c"] @ f, gamma - self._stab * (2.0 * sys_.alpha * (sp["j"] @ qd - target)
                                                                 + sys_.beta**2 * extra[self.phi_index])])
        flip = self._drive_flanks
        sol = self._kkt(flip)[0].solve(rhs)
        for _ in range(4 if rows else 0):  # as System._multipliers
            new = tuple(sol[nq + self.gear_rows] < 0)
            if new == flip:
                break
            flip, last = new, sol
            sol = self._kkt(flip)[0].solve(rhs)
        else:
            if rows:  # no settled flanks: the last multipliers with the last flanks
                lam = last[nq:]
                sol = np.concatenate([splinalg.spsolve(sp["m"].tocsc(), rhs[:nq] + self._kkt(flip)[1].T @ lam), lam])
        lam = sol[nq:]
        for row, speed in zip(self.motor_rows, spins[len(spins) - len(self.motors):]):
            work += lam[row] * speed
        rate = np.empty(y.shape[0])
        rate[:nq] = qd
        rate[nq:2 * nq] = sol[:nq]
        ex = sp["x"] @ qd
        ex[self.motor_error_index] -= target[self.motor_rows]
        ex[self.work_index] = work
        ex[self.dissipated_index] = dissipation
        rate[2 * nq:] = ex
        return rate

    def _at_motor_rows(self, t: float) -> tuple[np.ndarray, np.ndarray]:
        """The motors' speeds s(t) [rad/s] and their rates s'(t) at their rows (zero elsewhere)."""
        target, rate = np.zeros(self.rows), np.zeros(self.rows)
        for row, c in zip(self.motor_rows, self.motors):
            target[row], rate[row] = c.law(t), c.law.derivative(t)
        return target, rate

    def consistent_rates(self, t: float, y: np.ndarray) -> np.ndarray:
        """y with the coordinate rates projected onto the rows at time t [s], as
        JointCoordinateSystem.consistent_velocities does (least change in kinetic energy)."""
        if not self.rows:
            return y
        nq = self.nq
        target = self._at_motor_rows(t)[0]
        out = y.copy()
        if self.kkt:  # M x - J^T mu = 0, J x = J q' - s(t): x = M^-1 J^T (J M^-1 J^T)^-1 (J q' - s(t))
            if self._velocity_lu is None:
                sp = self._sp
                self._velocity_lu = splinalg.splu(sparse.bmat([[sp["m"], -sp["j"].T], [sp["j"], None]], format="csc"))
            rhs = np.concatenate([np.zeros(nq), self._sp["j"] @ y[nq:2 * nq] - target])
            out[nq:2 * nq] -= self._velocity_lu.solve(rhs)[:nq]
        else:
            out[nq:2 * nq] -= self._projector @ (self.jq @ y[nq:2 * nq] - target)
        return out

    _velocity_lu = None

    def _flank_matrices(self, flip: tuple):
        """K (rows + nq + extra, n_u) for the gear rows' flanks (True: Ft < 0): u -> [lambda, q'', extra rates]
        (the extra rates without work and dissipation); and M^-1 G^T."""
        found = self._k.get(flip)
        if found is not None:
            return found
        sy, rows, nq = self.system, self.rows, self.nq
        u_f, u_v, u_phi, u_s, u_ds = self._u
        k = np.zeros((rows + nq + sy.extra, self.n_u))
        k_lam, k_qdd, k_ex = k[:rows], k[rows:rows + nq], k[rows + nq:]
        k_qdd[:, u_f] = self.minv_c
        if rows:
            f = np.zeros(rows)
            f[self.gear_rows] = np.array(flip, dtype=float)
            gq = self.g_plus - 2.0 * f[:, None] * self.g_sep
            a = self.jq @ self.minv @ gq.T
            p = np.linalg.pinv(a, rcond=1e-10) if sy.redundant else np.linalg.inv(a)
            ps = p * self._stab[None, :]
            k_lam[:, u_f] = -p @ (self.jq @ self.minv_c)
            k_lam[:, u_v] = -2.0 * sy.alpha * (ps @ self.jq)
            k_lam[:, u_phi] = -sy.beta**2 * ps
            k_lam[:, u_s] = 2.0 * sy.alpha * (ps @ self._em)
            k_lam[:, u_ds] = p @ self._em
            k_qdd += (self.minv @ gq.T) @ k_lam
        k_ex[:, u_v] = self.extra_rows
        k_ex[self.motor_error_index, u_s] = -1.0 * np.eye(len(self.motors))
        self._k[flip] = found = (k, self.minv @ gq.T if rows else None)
        return found

    def rate(self, t: float, y: np.ndarray) -> np.ndarray:
        """The tangent rate of y at t [SI], as JointCoordinateSystem.evaluate's general path gives it."""
        return self.solve(t, y)[0]

    def solve(self, t: float, y: np.ndarray) -> tuple[np.ndarray, np.ndarray | None, tuple | None]:
        """The rate, the multipliers and the flanks their forces act on (True: Ft < 0) at (t, y); the large
        trains' KKT form gives the rate only (None, None)."""
        nq, rows = self.nq, self.rows
        qd, extra = y[nq:2 * nq], y[2 * nq:]
        u = np.empty(self.n_u)
        u_f, u_v, u_phi, u_s, u_ds = self._u
        f = u[u_f]
        k = 0
        work = dissipation = 0.0
        spins = ((self._sp["spin"] if self.kkt else self.spin_rows) @ qd).tolist()  # the joint elements' spins, the meshes' slips, the motors' spins
        for fe in self.joint_elements:
            spin = spins[k]
            if type(fe) is JointTorque:
                tau = fe.law(t)
                work += tau * spin
            else:
                tau, _, lost = fe.torque(extra[fe.ia], spin)
                dissipation += lost
            f[k] = tau
            k += 1
        j = k
        for fe in self.meshes:
            *_, ft, tau, lost = fe.state(extra[fe.gear.error_index], spins[j], extra[fe.ia])
            f[k:k + 3] = (ft, 0.0, tau) if ft >= 0 else (0.0, ft, tau)
            dissipation += lost
            k += 3
            j += 1
        if self.kkt:
            return self._rate_kkt(t, y, f, work, dissipation, spins), None, None
        u[u_v] = qd
        u[u_phi] = extra[self.phi_index]
        m = u_s.start
        for c in self.motors:
            u[m] = c.law(t)
            u[m + len(self.motors)] = c.law.derivative(t)
            m += 1
        flip = self._drive_flanks
        out = self._flank_matrices(flip)[0] @ u
        for _ in range(4 if rows else 0):  # as System._multipliers: start on the drive flanks, at most 4 changes
            new = tuple(out[self.gear_rows] < 0)
            if new == flip:
                break
            flip = new
            last = out
            out = self._flank_matrices(flip)[0] @ u
        else:
            if rows:  # no settled flanks: the general path keeps the last multipliers with the last flanks
                out = last.copy()
                out[rows:rows + nq] = self.minv_c @ f + self._flank_matrices(flip)[1] @ last[:rows]
        for c, speed in zip(self.motor_rows, spins[j:]):
            work += out[c] * speed
        rate = np.empty(y.shape[0])
        rate[:nq] = qd
        rate[nq:] = out[rows:]
        rate[2 * nq + self.work_index] = work
        rate[2 * nq + self.dissipated_index] = dissipation
        return rate, out[:rows], flip
