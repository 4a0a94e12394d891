"""The multibody system assembled from a model, and its equations of motion.

Newton-Euler per body at its centre of mass (world axes, gyroscopic term
included), constraints at the acceleration level with Baumgarte terms:

    M a = Q + G^T lambda,   J a = gamma - 2 alpha (J v - s) - beta^2 phi,

where G = J for joints and motors, and a gear row's G is the whole tooth force
(tangential, radial, axial) per unit Ft. Eliminating a gives
(J M^-1 G^T) lambda = rhs; redundant constraints (a planetary set's extra ring
meshes) make that matrix singular, and the least-squares solution of minimum
norm is used, so symmetric sets share the load equally. `evaluate` is a pure
function of (t, y): nothing is kept from one call to the next.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse
from scipy.sparse import linalg as splinalg

from core.dynamics.channels import TOOTH_FORCES, Outputs
from core.dynamics.constraints import (Constraint, GearConstraint, JointConstraint, JointGeometry, RevoluteConstraint,
                                       RevoluteRows, Snapshot, SpeedConstraint)
from core.dynamics.elements import build
from core.dynamics.equations import Equations
from core.dynamics.force_elements import CompliantMesh, Loads
from core.dynamics.events import Event
from core.dynamics.lossy_gear import LossyGear
from core.gearing.losses import BACKWARD, FORWARD, STUCK, LossTable
from core.gearing.pitch_point import TOOTH_FORCE_TEXT, force_components
from core.geometry.rotations import matrix_quats, world_tensors
from core.geometry.vec3 import cross_rows
from core.dynamics.state_space import StateSpace, rotation_matrices
from core.model import entities as E
from core.model.model import Model

SPARSE_ROWS = 80  # above this many constraint rows the KKT algebra goes sparse
#: The moves of System.project back onto the joints' rows after a step: at most this many, until the largest
#: position error [m, rad] is below the tolerance (the compiled steps take the same).
PROJECT_ITERATIONS, PROJECT_TOL = 3, 1e-13


def dense(m) -> np.ndarray:
    """m as a dense array (sparse matrices expanded)."""
    return m.toarray() if sparse.issparse(m) else np.asarray(m)


class System(Equations):
    """Arrays and element objects for simulating `model`."""

    def __init__(self, model: Model):
        # a copy of the containers (entities are frozen): an edit of the caller's model never reaches the system
        self.model = model = model.copy()
        st = model.settings
        self.alpha, self.beta = st.baumgarte_alpha, st.baumgarte_beta
        self.gravity = np.asarray(st.gravity, dtype=float)
        self.names = list(model.bodies)
        self.index = {name: k for k, name in enumerate(self.names)}
        self.index[E.GROUND] = -1
        bodies = list(model.bodies.values())
        n = len(bodies)
        self.n = n
        self.mass = np.array([b.mass for b in bodies])
        self.inertia = np.array([b.inertia for b in bodies], dtype=float).reshape(n, 3, 3)
        self.inertia_inv = np.linalg.inv(self.inertia) if n else np.zeros((0, 3, 3))
        self.com = np.array([b.com for b in bodies], dtype=float).reshape(n, 3)
        q0 = np.array([b.orientation for b in bodies], dtype=float).reshape(n, 4)
        self.rot0 = rotation_matrices(q0) if n else np.zeros((0, 3, 3))
        origin = np.array([b.position for b in bodies], dtype=float).reshape(n, 3)
        self.x0 = origin + np.einsum("kab,kb->ka", self.rot0, self.com)
        w0 = np.array([b.angular_velocity for b in bodies], dtype=float).reshape(n, 3)
        v0 = np.array([b.velocity for b in bodies], dtype=float).reshape(n, 3) + np.cross(w0, self.x0 - origin)
        self.q0, self.v0, self.w0 = q0, v0, w0

        self._extra = 0
        self.geometry: dict[str, JointGeometry] = {}
        self.angle_index: dict[str, int] = {}
        self.constraints = []
        self.joint_constraints = {}
        self.joint_names = list(model.joints)
        self.gears: dict[str, GearConstraint] = {}
        self.forces = []
        self.motors = []
        # every element by the builder registered for its entity (core.dynamics.elements): joints, pairs, forces
        for j in model.joints.values():
            self.joint_constraints[j.name] = c = build(self, j)
            self.constraints.append(c)
        for item in (*model.gear_pairs.values(), *model.forces.values()):
            element = build(self, item)
            if element is None:
                continue
            if isinstance(element, Constraint):
                self.constraints.append(element)
                if isinstance(element, SpeedConstraint):
                    self.motors.append(element)
            else:
                self.forces.append(element)
        # lossy pairs: their discrete state (mode, driving side) changes only at events (see lossy_gear)
        self.lossy: dict[str, LossyGear] = {}
        meshes = {fe.gear.name: fe for fe in self.forces if isinstance(fe, CompliantMesh)}
        start = Snapshot(self.x0, self.rot0, self.v0, self.w0, np.zeros(0))
        for p in model.gear_pairs.values():
            rows = p.loss_rows()
            if rows:
                lossy = LossyGear(p.name, LossTable(rows), self.gears[p.name], self.index[p.carrier], start,
                                  meshes.get(p.name))
                self.lossy[p.name] = lossy
                if p.name in meshes:
                    meshes[p.name].lossy = lossy
        self.work_index, self.dissipated_index = self.new_extra(), self.new_extra()
        self.extra = self._extra
        self._set_up_coordinates()
        self._base_constraints = list(self.constraints)
        self._refresh_rows()

    def _refresh_rows(self) -> None:
        """The constraint rows: the assembled ones and a lock row for each stuck lossy pair."""
        self.constraints = self._base_constraints + [g.lock for g in self.lossy.values() if g.mode == STUCK]
        self.rows = sum(c.rows for c in self.constraints)
        self._row_of = {name: row for name, (row, _) in self._rows_of().items()}
        self.gear_rows = np.array([row for row, c in self._rows_of().values() if isinstance(c, GearConstraint)], dtype=int)
        self.redundant = self._redundancy()

    formulation = "cartesian"

    def _set_up_coordinates(self) -> None:
        """The state layout; a formulation in other coordinates also drops the constraints they satisfy."""
        self.space = StateSpace(self.n, self.extra)

    # ------------------------------------------------------------------ set-up

    def new_extra(self) -> int:
        """Index of a new extra state (set-up only: an angle, a phase error, a motor error)."""
        self._extra += 1
        return self._extra - 1

    def pose0(self, b: int):
        """COM position [m] and rotation matrix of body b at the start (the ground: origin, identity)."""
        if b < 0:
            return np.zeros(3), np.eye(3)
        return self.x0[b], self.rot0[b]

    def initial_state(self) -> np.ndarray:
        sp = self.space
        y = np.zeros(sp.size)
        y[sp.x] = self.x0.ravel()
        y[sp.q] = self.q0.ravel()
        y[sp.v] = self.v0.ravel()
        y[sp.w] = self.w0.ravel()
        return y

    def snapshot(self, y: np.ndarray) -> Snapshot:
        sp, n = self.space, self.n
        q = y[sp.q].reshape(n, 4)
        rot = rotation_matrices(q) if n else np.zeros((0, 3, 3))
        return Snapshot(y[sp.x].reshape(n, 3), rot, y[sp.v].reshape(n, 3), y[sp.w].reshape(n, 3), y[sp.e])

    def _jacobian(self, t: float, s: Snapshot):
        """J, G (rows, 6 n) for Ft > 0, G's separating part, gamma, velocity targets, position errors, stabilise flags.

        For Ft < 0 a gear row's force direction is G - 2 * separating. The three
        matrices are sparse (CSR) above SPARSE_ROWS rows: each row touches at
        most two bodies, so building them costs in proportion to the rows.
        """
        m, n = self.rows, self.n
        jparts, gparts, sparts = [], [], []  # (first row, body, block) of J, G and G's separating part
        gamma, target, phi = np.zeros(m), np.zeros(m), np.zeros(m)
        stab = np.ones(m, dtype=bool)
        row = 0
        revolute = []  # (first row, constraint): evaluated together below
        for c in self.constraints:
            r = slice(row, row + c.rows)
            if type(c) is RevoluteConstraint:
                revolute.append((row, c))
                row += c.rows
                continue
            if isinstance(c, GearConstraint):
                blocks, gam, _ = c.blocks(s)
                if c.name in self.lossy:  # the driven gear's share of the tooth force; the rest on the carrier
                    blocks = self.lossy[c.name].scale_blocks(s, blocks)
                ph = np.array([s.extra[c.error_index]])
                for b, jb, gb, sb in blocks:
                    if b >= 0:
                        if jb is not None:
                            jparts.append((row, b, jb))
                        gparts.append((row, b, gb + sb))
                        sparts.append((row, b, sb))
            else:
                if isinstance(c, SpeedConstraint):
                    blocks, gam, ph = c.evaluate(s, t)
                    target[row] = c.law(t)
                else:
                    blocks, gam, ph = c.evaluate(s)
                for b, jb, _ in blocks:
                    if b >= 0:
                        jparts.append((row, b, jb))
                        gparts.append((row, b, jb))
            gamma[r], phi[r] = gam, ph
            stab[r] = c.stabilised
            row += c.rows
        if revolute:
            key = tuple(c for _, c in revolute)
            if self._revolute is None or self._revolute[0] != key:
                self._revolute = (key, RevoluteRows(key))
            bi, bj, jac_i, jac_j, gam, ph = self._revolute[1].evaluate(s)
            first = np.array([r0 for r0, _ in revolute])
            rows = (first[:, None] + np.arange(5)).ravel()
            gamma[rows], phi[rows] = gam.ravel(), ph.ravel()
            for k, r0 in enumerate(first.tolist()):
                for b, block in ((bi[k], jac_i[k]), (bj[k], jac_j[k])):
                    if b >= 0:
                        jparts.append((r0, b, block))
                        gparts.append((r0, b, block))
        jac, gmat, gsep = (self._matrix(p, (m, 6 * n)) for p in (jparts, gparts, sparts))
        return jac, gmat, gsep, gamma, target, phi, stab

    def _matrix(self, blocks, shape):
        """A matrix summed from (first row, body, block (k, 6)) parts: CSR above SPARSE_ROWS rows, else dense."""
        if shape[0] <= SPARSE_ROWS:
            out = np.zeros(shape)
            for r0, b, block in blocks:
                out[r0:r0 + block.shape[0], 6 * b:6 * b + 6] += block
            return out
        rows, cols, vals = [], [], []
        for r0, b, block in blocks:
            k = block.shape[0]
            rows.append(np.repeat(np.arange(r0, r0 + k), 6))
            cols.append(np.tile(np.arange(6 * b, 6 * b + 6), k))
            vals.append(block.ravel())
        if not blocks:
            return sparse.csr_matrix(shape)
        return sparse.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=shape)

    def _redundancy(self) -> int:
        if not self.rows or not self.n:
            return 0
        jac = dense(self._jacobian(0.0, self.snapshot(self.initial_state()))[0])
        sv = np.linalg.svd(jac, compute_uv=False)
        rank = int(np.sum(sv > 1e-9 * sv.max())) if sv.size else 0
        return self.rows - rank

    def consistent_initial_state(self) -> tuple[np.ndarray, float]:
        """The initial state with speeds made consistent with the constraints, and the largest change [m/s, rad/s]."""
        return self.consistent_velocities(self.initial_state())

    def consistent_velocities(self, y: np.ndarray, t: float = 0.0) -> tuple[np.ndarray, float]:
        """y with velocities projected onto the constraints at time t [s] (least change in kinetic energy; a
        motor's speed is its law's at t) and the change [m/s, rad/s]."""
        if not self.rows:
            return y, 0.0
        if self.kernel is not None:
            return self.kernel.consistent_velocities(t, y)
        s = self.snapshot(y)
        jac, target, _ = self._rows(t, y, s)
        minv = self._mass_inverse(s)
        vel = np.hstack([s.v, s.w]).ravel()
        a = dense(jac @ minv @ jac.T)
        corr = minv @ (jac.T @ np.linalg.lstsq(a, jac @ vel - target, rcond=1e-12)[0])
        new = vel - corr
        out = y.copy()
        sp = self.space
        out[sp.v] = new.reshape(self.n, 6)[:, :3].ravel()
        out[sp.w] = new.reshape(self.n, 6)[:, 3:].ravel()
        return out, float(np.abs(corr).max(initial=0.0))

    def mesh_equilibrium(self, y: np.ndarray) -> tuple[np.ndarray, str]:
        """y with each compliant mesh's deflection set so that its TE does not accelerate at the start.

        Newton on the deflection states (finite-difference Jacobian): the static
        deflection under the applied loads, so no start-up transient hides the
        response. Returns the new state and a note of what was set.
        """
        meshes = [f for f in self.forces if isinstance(f, CompliantMesh)]
        if not meshes:
            return y, ""
        sp = self.space
        idx = [sp.e.start + f.gear.error_index for f in meshes]

        def residual(yy):
            s1 = self.snapshot(yy)
            dt = 1e-7
            moved = sp.retract(yy, dt * self.evaluate(0.0, yy))
            s2 = self.snapshot(moved)
            return np.array([(f.gear.slip_rate(s2) - f.gear.slip_rate(s1)) / dt for f in meshes])

        y0 = y.copy()
        for flank in (1.0, -1.0):  # with backlash, start on the drive flanks, then on the coast flanks
            y = y0.copy()
            for f, i in zip(meshes, idx):  # just past the backlash (inside it the mesh has no stiffness)
                y[i] = flank * (0.5 * f.mesh.backlash / f.cos) * (1.0 + 1e-6)
            try:
                for _ in range(30):
                    r = residual(y)
                    jac = np.empty((len(idx), len(idx)))
                    for c, i in enumerate(idx):
                        step = 1e-9
                        yp = y.copy()
                        yp[i] += step
                        jac[:, c] = (residual(yp) - r) / step
                    dx = np.linalg.solve(jac, -r)
                    y[idx] += dx
                    if np.abs(dx).max() < 1e-15:
                        break
                break
            except np.linalg.LinAlgError:
                continue
        return y, "static equilibrium: transmission error " + ", ".join(
            f"{f.name} {y[i]:.6g} m" for f, i in zip(meshes, idx))

    def onto_constraints(self, t: float, y: np.ndarray) -> np.ndarray:
        if self.kernel is not None:  # the same two projections in one compiled call
            return self.kernel.project(t, y)
        return super().onto_constraints(t, y)

    def project(self, y: np.ndarray, iterations: int = PROJECT_ITERATIONS, tol: float = PROJECT_TOL) -> np.ndarray:
        """y moved back onto the joint constraints (positions).

        Coordinate projection after each step: the least change in the kinetic
        energy metric, dq = -M^-1 J^T (J M^-1 J^T)^+ Phi (`onto_constraints` then
        moves the velocities the same way). Explicit steps move orbiting bodies (planets) along chords;
        the projection puts them back on their circles, so the step can be large.
        """
        if not self.rows:
            return y
        sp = self.space
        holonomic = np.concatenate([np.full(c.rows, isinstance(c, JointConstraint))
                                    for c in self.constraints])
        if not holonomic.any():
            return y
        for _ in range(iterations):
            if self.kernel is not None:
                dq, size = self.kernel.position_step(y, tol)
                if size < tol:
                    break
            else:
                s = self.snapshot(y)
                jac, _, phi = self._rows(0.0, y, s)
                jh, ph = jac[np.flatnonzero(holonomic)], phi[holonomic]
                if np.abs(ph).max() < tol:
                    break
                minv = self._mass_inverse(s)
                dq = -minv @ (jh.T @ np.linalg.lstsq(dense(jh @ minv @ jh.T), ph, rcond=1e-10)[0])
            d = np.zeros(sp.tangent_size)
            dq6 = dq.reshape(self.n, 6)
            d[sp.dx] = dq6[:, :3].ravel()
            d[sp.dth] = dq6[:, 3:].ravel()
            y = sp.retract(y, d)
        return y

    def _rows(self, t: float, y: np.ndarray, s: Snapshot):
        """J, the velocity targets and the position errors at (t, y) (s its snapshot), from `_jacobian` (the
        compiled evaluation has its own: CompiledCartesian.rows)."""
        jac, _, _, _, target, phi, _ = self._jacobian(t, s)
        return jac, target, phi

    def _mass_inverse(self, s: Snapshot):
        """M^-1 (6 n, 6 n), world axes, block-diagonal: dense where the KKT algebra is (at most SPARSE_ROWS
        rows; building a sparse matrix costs more there than the whole dense one), else sparse."""
        blocks = np.zeros((self.n, 6, 6))
        blocks[:, :3, :3] = np.eye(3)[None] / self.mass[:, None, None]
        if self.n:
            blocks[:, 3:, 3:] = world_tensors(s.rot, self.inertia_inv)
        if self.rows <= SPARSE_ROWS:
            out = np.zeros((6 * self.n, 6 * self.n))
            at = 6 * np.arange(self.n)[:, None] + np.arange(6)
            out[at[:, :, None], at[:, None, :]] = blocks
            return out
        return sparse.block_diag(list(blocks), format="csr") if self.n else sparse.csr_matrix((0, 0))

    # ------------------------------------------------------------------ equations

    def evaluate(self, t: float, y: np.ndarray) -> np.ndarray:
        """Tangent rate of y at t (what the integrators call): a pure function of (t, y)."""
        if self.kernel is not None:
            return self.kernel.rate(t, y)
        return self._evaluate(t, y, None)

    kernel = None  # the evaluation and the steps compiled (core.dynamics.cartesian_kernel), once `compile` made it
    #: what `compile` compiles, in words, and the evaluations from which a run's "auto" compiles it: loading this
    #: kernel from numba's cache costs about 1.1 s in a new process (numba's import included), which the Python
    #: evaluation with its steps and samples spends in some 300-400 evaluations (RK4 runs of the planetary in new
    #: processes, compiled and not: 200 evaluations 1.39 against 0.94 s, 400 1.43-1.50 against 1.75-2.25 s, 800
    #: 1.54 against 4.14 s); twice that, for the machine's phases
    compiled_form = "the Cartesian evaluation and steps, compiled (numba)"
    compile_pays_from = 800

    def compile(self) -> str | None:
        """Take the rates from the compiled evaluation (core.dynamics.cartesian_kernel); None when done, else why
        it cannot be (an element it does not cover, numba not installed, compiling failed)."""
        try:
            from core.dynamics.cartesian_kernel import CompiledCartesian
        except ImportError as exc:
            return f"numba cannot be imported ({exc})"
        try:
            self.kernel = CompiledCartesian(self)
        except ValueError as exc:
            return str(exc)
        except Exception as exc:  # e.g. no writable cache for a frozen app: the Python evaluation gives the same
            return f"compiling failed ({type(exc).__name__}: {exc})"
        return None

    def evaluate_details(self, t: float, y: np.ndarray, channels: bool = True) -> tuple[np.ndarray, dict]:
        """The rate and what went into it: multipliers, loads, energies, snapshot, and (with `channels`) the
        elements' outputs in ``out``."""
        return self._evaluate(t, y, Outputs() if channels else False)

    def _evaluate(self, t: float, y: np.ndarray, out):
        """The rate; with `out` an Outputs collector (or False: details without channels) also the details."""
        details = out is not None
        out = out or None
        if self.kernel is not None and not details:
            return self.kernel.rate(t, y)
        s = self.snapshot(y)
        n = self.n
        loads, qvec, jw = self._applied(t, s, out)
        if self.kernel is not None:  # e.g. an output sample of a compiled run: the rate and multipliers compiled
            rate, lam, _ = self.kernel.details(t, y)
            return rate, {"lambda": lam, "loads": loads, "out": out, "kinetic": self._kinetic(s, jw), "snapshot": s,
                          "jacobian": self.kernel.rows(t, y)[0]}
        minv = self._mass_inverse(s)
        lam, constraint_force, jac = np.zeros(self.rows), np.zeros(6 * n), None
        if self.rows:
            rows = self._jacobian(t, s)
            jac = rows[0]
            lam, constraint_force = self._multipliers(t, s, minv, qvec, rows=rows)
        acc = minv @ (qvec + constraint_force)
        sp = self.space
        rate = np.zeros(sp.tangent_size)
        rate[sp.dx] = s.v.ravel()
        rate[sp.dth] = s.w.ravel()
        acc6 = acc.reshape(n, 6)
        rate[sp.dv] = acc6[:, :3].ravel()
        rate[sp.dw] = acc6[:, 3:].ravel()
        rate[sp.de] = self._extra_rates(t, s, lam, loads)
        if not details:
            return rate
        return rate, {"lambda": lam, "loads": loads, "out": out, "kinetic": self._kinetic(s, jw), "snapshot": s,
                      "jacobian": jac}

    def accelerations(self, t: float, y: np.ndarray) -> np.ndarray:
        """COM and angular accelerations of the bodies (n, 6) [m/s^2, rad/s^2], world axes."""
        rate, sp = self.evaluate(t, y), self.space
        return np.hstack([rate[sp.dv].reshape(-1, 3), rate[sp.dw].reshape(-1, 3)])

    def _applied(self, t: float, s: Snapshot, out: Outputs | None = None):
        """Loads, the generalised force (6 n,) with the gyroscopic term, and world inertias; element outputs into `out`."""
        loads = self._loads(t, s, out)
        return (loads, *self._inertial(s, loads))

    def _loads(self, t: float, s: Snapshot, out: Outputs | None = None) -> Loads:
        """Gravity and the force elements' loads at one instant; the elements' outputs into `out`."""
        loads = Loads(self.n)
        if self.n:
            loads.f += self.mass[:, None] * self.gravity[None, :]
            loads.potential -= float(np.sum(self.mass * (s.x @ self.gravity)))
        for fe in self.forces:
            fe.apply(t, s, loads, out)
        for lossy in self.lossy.values():
            lossy.apply(t, s, loads)
        return loads

    def _inertial(self, s: Snapshot, loads: Loads) -> tuple[np.ndarray, np.ndarray]:
        """The generalised force (6 n,) from the loads with the gyroscopic term, and the world inertias
        (n, 3, 3); s and the loads may hold many samples (leading axes)."""
        jw = world_tensors(s.rot, self.inertia)
        gyro = cross_rows(s.w, np.einsum("...kab,...kb->...ka", jw, s.w))
        return np.concatenate([loads.f, loads.tau - gyro], axis=-1).reshape(loads.f.shape[:-2] + (-1,)), jw

    def _kinetic(self, s: Snapshot, jw: np.ndarray):
        """Kinetic energy [J] (one per sample for a snapshot of many)."""
        return 0.5 * (np.sum(self.mass * np.sum(s.v**2, axis=-1), axis=-1)
                      + np.einsum("...ka,...kab,...kb->...", s.w, jw, s.w))

    def _extra_rates(self, t: float, s: Snapshot, lam: np.ndarray, loads: Loads) -> np.ndarray:
        """Rates of the extra states: joint angles, gear phase errors, motor errors, work, dissipation."""
        extra = np.zeros(self.extra)
        for name, idx in self.angle_index.items():
            extra[idx] = self.geometry[name].relative_speed(s)
        for gc in self.gears.values():
            extra[gc.error_index] = gc.slip_rate(s)
        motor_power = 0.0
        row = 0
        for c in self.constraints:
            if isinstance(c, SpeedConstraint):
                speed = c.g.relative_speed(s)
                extra[c.error_index] = speed - c.law(t)
                motor_power += lam[row] * speed
            row += c.rows
        extra[self.work_index] = loads.work_rate + motor_power
        extra[self.dissipated_index] = loads.dissipation + sum(
            g.loss_power(self._loss_torques(g, s, lam)) for g in self.lossy.values())
        return extra

    # ------------------------------------------------------------------ lossy pairs

    def _loss_torques(self, g: LossyGear, s: Snapshot, lam: np.ndarray) -> dict:
        tooth = float(lam[self._row_of[g.name]]) if g.name in self._row_of else 0.0
        lock = float(lam[self._row_of[g.lock.name]]) if g.lock.name in self._row_of else 0.0
        return g.torques(s, tooth, lock)

    def _loss_state(self, t: float, y: np.ndarray) -> dict:
        """Pair name -> its torques (see LossyGear.torques) at (t, y); the last state is remembered for the events."""
        key = (t, y.tobytes())
        if self._loss_cache is None or self._loss_cache[0] != key:
            _, d = self.evaluate_details(t, y, channels=False)
            s, lam = d["snapshot"], d["lambda"]
            self._loss_cache = (key, {name: self._loss_torques(g, s, lam) for name, g in self.lossy.items()})
        return self._loss_cache[1]

    _loss_cache = None
    _revolute = None  # (the revolute constraints, their RevoluteRows), made again when the rows change

    def events(self) -> list[Event]:
        """Two event functions per lossy pair ('stop' and 'flow', see lossy_gear): where its mode stops holding."""
        found = []
        for name, g in self.lossy.items():
            def margins(t, y, name=name, g=g):
                torques = self._loss_state(t, y)
                return g.margins(torques[name])
            found += g.events(margins)
        return found

    def on_event(self, i: int, t: float, y: np.ndarray) -> tuple[np.ndarray, str]:
        """The pair of event i chooses its new mode at (t, y); the state with speeds made consistent, and what changed."""
        name = list(self.lossy)[i // 2]
        g = self.lossy[name]
        if g.rolling:
            return (y, self._choose_side(g, t, y)) if i % 2 else self._settle(g, t, y)
        # stuck: the torque to hold has reached what the losses hold forwards ('stop') or backwards ('flow')
        return self._settle(g, t, y, FORWARD if i % 2 == 0 else BACKWARD)

    def _choose_side(self, g: LossyGear, t: float, y: np.ndarray) -> str:
        """The driving side of a rolling pair that is consistent with the torques it gives (the larger margin if
        both or neither are: they differ only by round-off there)."""
        margins = {}
        for side in (True, False):
            g.a_drives = side
            self._loss_cache = None
            torques = self._loss_state(t, y)
            margins[side] = g.margins(torques[g.name])[1]
        g.a_drives = margins[True] >= margins[False]
        self._loss_cache = None
        return f"gear {1 if g.a_drives else 2} drives"

    def _settle(self, g: LossyGear, t: float, y: np.ndarray, breaks: int = 0) -> tuple[np.ndarray, str]:
        """Hold the pair at rest, then let it stay stuck or start rolling from what it has to hold.

        `breaks` (FORWARD or BACKWARD) when an event found the torque at the
        limit of what the losses hold: it starts rolling that way.
        """
        g.mode = STUCK
        self._refresh_rows()
        self._loss_cache = None
        y = self.consistent_velocities(y, t)[0]
        torques = self._loss_state(t, y)
        note = g.at_rest(torques[g.name], breaks)
        if g.rolling:
            self._refresh_rows()
            note += f", {self._choose_side(g, t, y)}"
        self._loss_cache = None
        return y, note

    def start(self, y: np.ndarray) -> tuple[np.ndarray, list[str]]:
        """Choose each lossy pair's first mode at the initial state; the state and notes for pairs that start at rest."""
        notes = []
        for g in self.lossy.values():
            w_a = g.speeds(self.snapshot(y))[0]
            if abs(w_a) < 1e-12:
                y, note = self._settle(g, 0.0, y)
                if not g.rolling:
                    notes.append(f"{g.name} starts stuck: the torque it must hold at rest is within what its losses hold "
                                 f"there; {note}")
                continue
            g.mode = 1 if w_a > 0 else -1
            self._choose_side(g, 0.0, y)
        return y, notes

    def _multipliers(self, t, s, minv, qvec, transform=None, bias=None, rows=None):
        """Multipliers with the gear flanks settled: a gear row's force direction depends on the sign of Ft.

        `minv` and `qvec` are in body velocities, or with `transform` (body
        velocities = transform @ coordinate rates) and `bias` (the body
        accelerations at zero coordinate accelerations) in other coordinates;
        `rows` is `_jacobian(t, s)` when the caller has it already.
        Returns lambda and the constraint forces G^T lambda on the bodies (6 n,).
        Large systems go through sparse matrices (each row touches at most two
        bodies, so a gear train's matrix is banded and the cost grows linearly
        with its length); redundant ones through a dense minimum-norm solve.
        """
        jac, gplus, gsep, gamma, target, phi, stab = self._jacobian(t, s) if rows is None else rows
        body_g = (gplus, gsep)
        vel = np.hstack([s.v, s.w]).ravel()
        baumgarte = np.where(stab, 2 * self.alpha * (jac @ vel - target) + self.beta**2 * phi, 0.0)
        if transform is not None:
            gamma = gamma - jac @ bias
            jac, gplus, gsep = (m @ transform for m in (jac, gplus, gsep))
        use_sparse = self.rows > SPARSE_ROWS and not self.redundant
        jac, gplus, gsep = (sparse.csr_matrix(m) if use_sparse else dense(m) for m in (jac, gplus, gsep))
        rhs = gamma - baumgarte - jac @ (minv @ qvec)
        jm = jac @ minv
        signs = np.ones(self.rows)

        def flank(plus, separating):  # G for the flanks in `signs`
            flip = (signs < 0).astype(float)
            return plus - 2.0 * (sparse.diags(flip) @ separating if sparse.issparse(separating) else flip[:, None] * separating)

        for _ in range(4):
            gmat = flank(gplus, gsep)
            if use_sparse:
                lam = splinalg.splu(sparse.csc_matrix(jm @ gmat.T)).solve(rhs)
            else:
                a = dense(jm @ gmat.T)
                lam = np.linalg.lstsq(a, rhs, rcond=1e-10)[0] if self.redundant else np.linalg.solve(a, rhs)
            new = np.where(lam[self.gear_rows] < 0, -1.0, 1.0)
            if np.array_equal(new, signs[self.gear_rows]):
                break
            signs[self.gear_rows] = new
        return lam, np.asarray(flank(*body_g).T @ lam).ravel()

    # ------------------------------------------------------------------ outputs

    def outputs(self, t: float, y: np.ndarray) -> Outputs:
        """Every result channel at (t, y), in a fixed order (the same at every sample)."""
        return self._outputs(t, y)[0]

    def sample(self, t: float, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One output sample at (t, y): the channels' values, body origins (n, 3) [m] and orientations (n, 4),
        from one snapshot of the bodies (a run's samples cost as much as a few dozen evaluations)."""
        out, s = self._outputs(t, y, Outputs(records=False))
        return (out.array(), *self._poses(s))

    def samples(self, t: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Output samples at times t (m,) [s] and states y (m, size): the channels' values (m, c), body origins
        (m, n, 3) [m] and orientations (m, n, 4), as `sample` gives each. Here one by one; a formulation that
        can work them out together overrides it (output samples are most of a long run's cost)."""
        rows = [self.sample(tk, yk) for tk, yk in zip(t, y)]
        return tuple(np.array(part) for part in zip(*rows))

    @property
    def pure_samples(self) -> bool:
        """Whether a sample depends on (t, y) alone, so that a run may work its samples out later, many at
        once. A lossy pair's mode is a state outside y: its samples are taken as they come."""
        return not self.lossy

    def _outputs(self, t: float, y: np.ndarray, out: Outputs | None = None) -> tuple[Outputs, Snapshot]:
        _, d = self._evaluate(t, y, Outputs() if out is None else out)
        self._add_channels(d, y)
        return d["out"], d["snapshot"]

    def _add_channels(self, d: dict, y: np.ndarray) -> None:
        """Every channel after the force elements' into d["out"], from the details of one evaluation (one
        sample), or of many (arrays with a leading sample axis, y (m, size); no lossy pairs then)."""
        s, lam, loads, out = d["snapshot"], d["lambda"], d["loads"], d["out"]
        sp = self.space
        rows_of = self._rows_of()
        for name, gc in self.gears.items():
            if name in rows_of:
                for label, v in zip(TOOTH_FORCES, force_components(gc.pair, lam[..., rows_of[name][0]])):
                    out.add(name, label, "N", v, "gear pair", TOOTH_FORCE_TEXT[label])
            out.add(name, "drift", "m", s.extra[..., gc.error_index], "gear pair",
                    "accumulated phase error at the pitch circle")
            if name in self.lossy:
                g = self.lossy[name]
                tq = self._loss_torques(g, s, lam)
                out.add(name, "mode", "1", g.mode, "gear pair", "1 rolling forwards, 0 stuck, -1 rolling backwards")
                out.add(name, "driving", "1", 0 if not g.rolling else (1 if g.a_drives else 2), "gear pair",
                        "the gear that drives (power flows from it): 1 or 2; 0 when stuck")
                out.add(name, "loss_power", "W", g.loss_power(tq), "gear pair", "power taken by the mesh and "
                        "bearing losses")
                out.add(name, "tau_a", "N m", tq["tau_a"], "gear pair", "torque gear 1 puts into the pair, about "
                        "its axis relative to the carrier")
                out.add(name, "tau_b", "N m", tq["tau_b"], "gear pair", "torque gear 2 puts into the pair, about "
                        "its axis relative to the carrier")
                out.add(name, "w_a", "rad/s", tq["w_a"], "gear pair", "speed of gear 1 relative to the carrier")
        origin = self._origins(s)
        for k, name in enumerate(self.names):
            out.add_vector(name, "", "m", origin[..., k, :], "body", "position of the body frame's origin, world")
            out.add_vector(name, "w", "rad/s", s.w[..., k, :], "body", "angular velocity, world")
        reactions = self._reactions(d)
        for jname in self.joint_names:
            if jname in self.angle_index:
                out.add(jname, "angle", "rad", s.extra[..., self.angle_index[jname]], "joint",
                        "relative angle about the axis")
                out.add(jname, "speed", "rad/s", self.geometry[jname].relative_speed(s), "joint",
                        "relative speed about the axis")
            force, torque = reactions[jname]
            out.add_vector(jname, "F", "N", force, "joint", "reaction force on body j, world")
            out.add_vector(jname, "T", "N m", torque, "joint", "reaction torque on body j about the joint point, world")
        extra = y[..., sp.e]
        out.add("energy", "kinetic", "J", d["kinetic"], "energy")
        out.add("energy", "potential", "J", loads.potential, "energy")
        out.add("energy", "work", "J", extra[..., self.work_index], "energy", "work of the loads and motors")
        out.add("energy", "dissipated", "J", extra[..., self.dissipated_index], "energy", "energy taken by the dampers")

    def channels(self, t: float, y: np.ndarray) -> dict[str, float]:
        """Every result channel at (t, y) by its label ``name [unit]`` (for tests and scripts)."""
        out = self.outputs(t, y)
        return {c.label: v for c, v in zip(out.channels, out.values)}

    def poses(self, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Body frame origins (n, 3) [m] and orientations as unit quaternions (n, 4) at state y."""
        return self._poses(self.snapshot(y))

    def _poses(self, s: Snapshot) -> tuple[np.ndarray, np.ndarray]:
        lead = s.rot.shape[:-3]
        if not self.n:
            return np.zeros(lead + (0, 3)), np.zeros(lead + (0, 4))
        return self._origins(s), matrix_quats(s.rot.reshape(-1, 3, 3)).reshape(lead + (self.n, 4))

    def _origins(self, s: Snapshot) -> np.ndarray:
        """The body frames' origins (n, 3) [m]: the mass centres less the rotated COM offsets."""
        return s.x - np.einsum("...kab,kb->...ka", s.rot, self.com)

    def _rows_of(self) -> dict:
        """Constraint name -> (first row, constraint)."""
        rows_of, row = {}, 0
        for c in self.constraints:
            rows_of[c.name] = (row, c)
            row += c.rows
        return rows_of

    def _reactions(self, d: dict) -> dict:
        """Joint name -> (force [N], torque about the joint point [N m]) on body j, world axes, from the multipliers:
        G_j^T lambda of the joint's rows, G_j body j's block (a joint's G is its J), from the evaluation's
        Jacobian when it kept one (``d["jacobian"]``), else from the joint's own rows."""
        s, lam, jac = d["snapshot"], d["lambda"], d.get("jacobian")
        out = {}
        for name, (r0, c) in self._rows_of().items():
            if name not in self.joint_constraints:
                continue
            b, mine = c.g.bj, lam[r0:r0 + c.rows]
            if jac is not None and b >= 0:
                block = dense(jac[r0:r0 + c.rows, 6 * b:6 * b + 6])
            else:  # body j the ground (no columns in J), or no Jacobian kept
                block = next((gb for bb, _, gb in c.evaluate(s)[0] if bb == b), None)
            if block is None:
                out[name] = (np.zeros(3), np.zeros(3))
                continue
            force = block[:, :3].T @ mine
            arm = s.rot[b] @ c.g.sj if b >= 0 else np.zeros(3)
            out[name] = (force, block[:, 3:].T @ mine - cross_rows(arm, force))
        return out

    def describe(self) -> dict:
        """Bodies, joints, pairs, system size and redundancy (for `geardyn inspect`)."""
        bodies = {name: {"mass": float(self.mass[k]), "com": self.com[k].tolist(),
                         "inertia": self.inertia[k].tolist()} for k, name in enumerate(self.names)}
        joints = {j.name: {"type": type(j).__name__, "body_i": j.body_i, "body_j": j.body_j,
                           "rows": self.joint_constraints[j.name].rows} for j in self.model.joints.values()}
        pairs = {p.name: {"kind": p.kind, "ratio": p.z2 / p.z1, "joint1": p.joint1, "joint2": p.joint2,
                          "carrier": p.carrier, "rigid": p.name in {c.name for c in self.constraints}}
                 for p in self.model.gear_pairs.values()}
        return {"bodies": bodies, "joints": joints, "gear_pairs": pairs,
                "system": {"formulation": self.formulation, "bodies": self.n, "coordinates": 7 * self.n, "velocities": 6 * self.n,
                           "constraint_rows": self.rows, "redundant_constraints": self.redundant,
                           "degrees_of_freedom": 6 * self.n - (self.rows - self.redundant),
                           "extra_states": self.space.extra}}
