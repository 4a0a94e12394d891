"""An assembled system's kernel as Python calls it: the program's entry points on the system's buffers.

`Kernel` holds the buffers (core.dynamics.buffers.layout), the elements' discrete states, the flanks the last
evaluation settled, and the constant matrices' store of flank sets, which it grows when the program says it
is full. The integrators take their steps through it (core.dynamics.integrators: `stages`, `step`, `leap`,
`leap_adaptive`, `implicit`, `leap_implicit`, `project`), the run its samples and events.
"""

from __future__ import annotations

import numpy as np

from core.dynamics.buffers.layout import (CARTESIAN, EVENTS, FORM, GEAR_ROWS, NQ, OUTPUTS, ROWS, N)
from core.dynamics.kernels.entries import (BODIES, CONSISTENT, EVENTS as EVENT_VALUES, IMPLICIT, INITIAL_RATES,
                                           JACOBIAN, LEAP, LEAP_ADAPTIVE, LEAP_IMPLICIT, MATRICES, MULTIPLIERS,
                                           PROJECT, SAMPLE, STAGES, STEP)
from core.dynamics.kernels.steps import FULL, NOT_FINITE, OK

#: flank sets the store holds at first; it doubles when full
STORE_SETS = 4
NONE1, NONE2 = np.zeros(0), np.zeros((0, 0))  # arguments an entry's kind of work does not read


class Kernel:
    """The program's entry points on one system's buffers. `program` is core.dynamics.program.linker.Program."""

    def __init__(self, program, fb: np.ndarray, ib: np.ndarray, disc: np.ndarray):
        self.program, self.fb, self.ib, self.disc = program, fb, ib, disc
        g = int(ib[GEAR_ROWS])
        self.flanks = np.ones(g)
        self.keys = np.zeros((STORE_SETS, g))
        self.store = np.zeros((STORE_SETS, int(ib[ROWS]) ** 2 + int(ib[NQ]) * int(ib[ROWS])))
        self.used = np.zeros(1, np.int64)

    @property
    def compiled(self) -> bool:
        return self.program.compiled

    def _args(self):
        return self.fb, self.ib, self.disc, self.flanks, self.keys, self.store, self.used

    def _grow(self) -> None:
        """Twice the room in the flank store (the program found it full)."""
        self.keys = np.vstack([self.keys, np.zeros_like(self.keys)])
        self.store = np.vstack([self.store, np.zeros_like(self.store)])

    def forget(self) -> None:
        """Drop the stored flank sets (after the rows changed: a mode switch)."""
        self.used[0] = 0

    def rate(self, t: float, y: np.ndarray) -> np.ndarray:
        """The tangent rate of y at t [SI]."""
        out = np.empty(self.tangent_size(y))
        while self.program.rate(float(t), y, out, *self._args()) == FULL:
            self._grow()
        return out

    def tangent_size(self, y: np.ndarray) -> int:
        """The size of a rate of y: a Cartesian state holds four numbers per orientation, its rate three."""
        return y.shape[0] - (int(self.ib[N]) if self.ib[FORM] == CARTESIAN else 0)

    # ------------------------------------------------------------------ advance

    def _advance(self, kind, t, y, h=0.0, t_stop=0.0, count=0, a=NONE2, c=NONE1, b=NONE1, errors=NONE2, k=NONE2,
                 first=0, stop=0, method=0, order=1, rtol=0.0, atol=1.0, max_step=np.inf, h_min=0.0, max_rejections=0,
                 out=NONE1, d=NONE1, norms=NONE1, d_last=NONE1, k_last=NONE2):
        """The `advance` entry (core.dynamics.kernels.entries), the flank store grown while it is full."""
        while True:
            found = self.program.advance(kind, float(t), y, float(h), float(t_stop), int(count), a, c, b, errors, k,
                                         int(first), int(stop), int(method), int(order), float(rtol), float(atol),
                                         float(max_step), float(h_min), int(max_rejections), out, d, norms, d_last,
                                         k_last, *self._args())
            if found[0] != FULL or kind in (LEAP, LEAP_ADAPTIVE, LEAP_IMPLICIT):
                return found
            self._grow()

    def project(self, t: float, y: np.ndarray) -> np.ndarray:
        """y after a step at t [s] moved back onto the constraints (positions, then velocities)."""
        out = np.empty_like(y)
        self._advance(PROJECT, t, np.ascontiguousarray(y, dtype=float), out=out)
        return out

    def consistent_velocities(self, t: float, y: np.ndarray) -> tuple[np.ndarray, float]:
        """y with its velocities projected onto the rows at t [s], and the largest change [m/s, rad/s]."""
        out = np.empty_like(y)
        found = self._advance(CONSISTENT, t, np.ascontiguousarray(y, dtype=float), out=out)
        return out, float(found[3])

    def stages(self, t, y, h, a, c, k, first, stop) -> None:
        """Stages first .. stop - 1 of an explicit tableau (a, c) from (t, y) with step h into the rows of k."""
        self._advance(STAGES, t, y, h, a=a, c=c, k=k, first=first, stop=stop)

    def step(self, t, y, h, a, c, b, errors, k, first, stop, rtol=0.0, atol=1.0) -> tuple[np.ndarray, np.ndarray]:
        """An explicit step: the stages, the increment d and the error rows' squared norms. Returns (d, norms)."""
        d, norms = np.empty(k.shape[1]), np.empty(errors.shape[0])
        self._advance(STEP, t, y, h, a=a, c=c, b=b, errors=errors, k=k, first=first, stop=stop, rtol=rtol,
                      atol=atol, d=d, norms=norms)
        return d, norms

    def implicit(self, t, y, h, r0, inverse, coefficients, newton_tol, floor, max_newton) -> tuple:
        """Newton's iterations of a generalised-alpha step (core.dynamics.kernels.steps.implicit): ((the increment,
        the new rate variable), or None when they did not converge; whether they met a value that is not finite;
        the evaluations)."""
        k, d = np.empty_like(r0), np.empty_like(r0)
        found = self._advance(IMPLICIT, t, y, h, count=max_newton, a=inverse, c=np.asarray(r0, float),
                              b=np.asarray(coefficients, float), rtol=newton_tol, atol=floor, out=k, d=d)
        return ((d, k) if found[0] == OK else None), found[0] == NOT_FINITE, int(found[6])

    def leap_implicit(self, t, y, h, steps, rate, inverse, coefficients, newton_tol, floor, max_newton) -> tuple:
        """Up to `steps` fixed generalised-alpha steps in one call while their iterations converge
        (core.dynamics.kernels.steps.leap_implicit): (steps taken, t, y, t and y before the last step, the rate
        variable, evaluations)."""
        y, y_old, rate = np.array(y, dtype=float), np.empty_like(y), np.array(rate, dtype=float)
        coefficients = np.asarray(coefficients, float)
        t, t_old, taken, evaluations = float(t), float(t), 0, 0
        while taken < steps:
            status, done, t, _, last, _, spent, _ = self._advance(
                LEAP_IMPLICIT, t, y, h, count=steps - taken, a=inverse, c=rate, b=coefficients, rtol=newton_tol,
                atol=floor, max_rejections=max_newton, out=y_old)
            if done:
                t_old = last
            taken, evaluations = taken + done, evaluations + spent
            if status != FULL:
                break
            self._grow()
        return taken, t, y, t_old, y_old, rate, evaluations

    def leap(self, t, y, h, steps, a, c, b, k, first) -> tuple[int, float, np.ndarray, float, np.ndarray]:
        """Up to `steps` fixed steps in one call: (steps taken, t, y, and t and y before the last step)."""
        y, y_old = np.array(y, dtype=float), np.empty_like(y)
        t, t_old, taken = float(t), float(t), 0
        while taken < steps:
            status, done, t, _, last, _, _, _ = self._advance(LEAP, t, y, h, count=steps - taken, a=a, c=c, b=b, k=k,
                                                               first=first if taken == 0 else 0, out=y_old)
            if done:
                t_old = last
            taken += done
            if status != FULL:
                break
            self._grow()
        return taken, t, y, t_old, y_old

    def leap_adaptive(self, t, y, h, t_stop, steps, a, c, b, errors, k, stop, first, method, order, rtol, atol,
                      max_step, h_min, max_rejections) -> tuple:
        """Up to `steps` accepted adaptive steps in one call (core.dynamics.kernels.steps.leap_adaptive): (steps
        taken, t, y, next h, t and y before the last step, its size, increment and stages, evaluations,
        rejections)."""
        y, y_old = np.array(y, dtype=float), np.empty_like(y)
        d_last, k_last = np.empty(k.shape[1]), np.empty_like(k)
        t, h, t_old, h_last = float(t), float(h), float(t), 0.0
        taken = evaluations = failed = 0
        while taken < steps:
            status, done, t, h, last, size, spent, tries = self._advance(
                LEAP_ADAPTIVE, t, y, h, t_stop, steps - taken, a, c, b, errors, k, first if taken == 0 else 0, stop,
                method, order, rtol, atol, max_step, h_min, max_rejections, out=y_old, d_last=d_last, k_last=k_last)
            if done:
                t_old, h_last = last, size
            taken, evaluations, failed = taken + done, evaluations + spent, failed + tries
            if status != FULL:
                break
            self._grow()
        return taken, t, y, h, t_old, y_old, h_last, d_last, k_last, evaluations, failed

    # ------------------------------------------------------------------ query

    def _query(self, kind, t, y, *outs) -> None:
        """The `query` entry (core.dynamics.kernels.entries) with its outputs (2-D arrays; unused ones empty)."""
        given = [np.ascontiguousarray(o) for o in outs] + [NONE2] * (9 - len(outs))
        self.program.query(kind, float(t), np.ascontiguousarray(y, dtype=float), *given, *self._args())

    def multipliers(self, t: float, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The rate, the multipliers (rows,) and the bodies' accelerations (n, 6: COM [m/s^2], angular [rad/s^2],
        world) at (t, y), by the general evaluation."""
        out, lam = np.empty((1, self.tangent_size(y))), np.empty((1, int(self.ib[ROWS])))
        accel = np.empty((int(self.ib[N]), 6))
        self._query(MULTIPLIERS, t, y, out, lam, accel)
        return out[0], lam[0], accel

    def sample(self, t: float, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every channel's value, the body frames' origins (n, 3) [m] and orientations (n, 4), and the rows'
        position errors at (t, y)."""
        n = int(self.ib[N])
        values, origins, quats = np.empty((1, int(self.ib[OUTPUTS]))), np.empty((n, 3)), np.empty((n, 4))
        phi = np.empty((1, int(self.ib[ROWS])))
        self._query(SAMPLE, t, y, values, origins, quats, phi)
        return values[0], origins, quats, phi[0]

    def events(self, t: float, y: np.ndarray) -> np.ndarray:
        """Every event function's value at (t, y)."""
        g = np.empty((1, int(self.ib[EVENTS])))
        self._query(EVENT_VALUES, t, y, g)
        return g[0]

    def jacobian(self, y: np.ndarray, columns: int,
                 ports: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """J at y on the formulation's velocities (`columns` of them), the rows' position errors, which rows are
        switched off (a lossy pair's lock while it rolls), and the rows' gamma = -(dJ/dt) v on the bodies; with
        `ports` (a zero array, ports x `columns`), the ports' rows on the same velocities into it from the same
        evaluation (a bearing's deflection rates, a spring's length rate, a joint's spin)."""
        jac, parts = np.zeros((int(self.ib[ROWS]), columns)), np.zeros((3, int(self.ib[ROWS])))
        self._query(JACOBIAN, 0.0, y, jac, parts, *(() if ports is None else (ports,)))
        return jac, parts[0], parts[1] != 0.0, parts[2]

    def matrices(self, y: np.ndarray, ports: int, positions: int) -> dict:
        """The constant-matrix check's matrices at the joint coordinates y (see entries.query)."""
        nq, m = int(self.ib[NQ]), int(self.ib[ROWS])
        out = {"mass": np.zeros((nq, nq)), "rows": np.zeros((m, nq)), "g_plus": np.zeros((m, nq)),
               "g_sep": np.zeros((m, nq)), "ports": np.zeros((ports, nq)), "positions": np.zeros((1, positions)),
               "gamma": np.zeros((1, m)), "inertial": np.zeros((1, nq)), "gravity": np.zeros((1, nq))}
        self._query(MATRICES, 0.0, y, *out.values())
        for key in ("positions", "gamma", "inertial", "gravity"):
            out[key] = out[key][0]
        return out

    def initial_rates(self, y: np.ndarray, velocities: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The joint mass matrix and T^T M v at the joint coordinates y for the bodies' velocities (n, 6)."""
        nq = int(self.ib[NQ])
        mq, rhs = np.zeros((nq, nq)), np.zeros((1, nq))
        self._query(INITIAL_RATES, 0.0, y, np.asarray(velocities, float), mq, rhs)
        return mq, rhs[0]

    def bodies(self, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The bodies' COM positions (n, 3) [m], rotations (n, 3, 3), COM velocities (n, 3) [m/s] and spins (n, 3)
        [rad/s], world axes, at y."""
        n = int(self.ib[N])
        x, rot, v, w = np.zeros((n, 3)), np.zeros((n, 9)), np.zeros((n, 3)), np.zeros((n, 3))
        self._query(BODIES, 0.0, y, x, rot, v, w)
        return x, rot.reshape(n, 3, 3), v, w
