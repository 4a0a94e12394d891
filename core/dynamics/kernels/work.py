"""The work space of an evaluation: every array one evaluation fills, allocated once per kernel call.

Plain Python that numba compiles unchanged.
"""

from __future__ import annotations

import numpy as np

from core.dynamics.buffers.layout import EXTRA, GEAR_ROWS, NQ, PORTS, POSITIONS, ROWS, N
from core.dynamics.kernels.bodies import new_bodies


def workspace(ib):
    """The arrays one evaluation fills, allocated once per kernel call:

    bodies (pos, rot, vel, spin); rows (rj, rgp, rgs, gam, phi, off: 1 for a row switched off); ports (pr,
    ppos); rates (jv, pv); forces (u, tgt, tgtr, phi, xdot, acc); solve (lam, body force, body torque, body
    accelerations (n, 6), a0, s, a, rhs, the rows' force blocks on their flanks, every row's index); joint (bias
    (n, 6), axes, points (nq, 3), mq (nq, nq), qq (nq,), jq, gq, sq (rows, nq), the Cholesky factor of mq
    (nq, nq), J_q M_q^-1 (rows, nq), a vector (nq,)).
    """
    n, m, p, nx, nq, g = ib[N], ib[ROWS], ib[PORTS], ib[EXTRA], ib[NQ], ib[GEAR_ROWS]
    bodies = new_bodies(n)
    phi = np.zeros(m)
    rows = (np.zeros((m, 3, 6)), np.zeros((m, 3, 6)), np.zeros((m, 3, 6)), np.zeros(m), phi, np.zeros(m, np.int64))
    ports = (np.zeros((p, 3, 6)), np.zeros(ib[POSITIONS]))
    rates = (np.zeros(m), np.zeros(p))
    forces = (np.zeros(p), np.zeros(m), np.zeros(m), phi, np.zeros(nx), np.zeros(3))
    solve = (np.zeros(m), np.zeros((n + 1, 3)), np.zeros((n + 1, 3)), np.zeros((n, 6)), np.zeros((m, m)),
             np.zeros((m, g)), np.zeros((m, m)), np.zeros(m), np.zeros((m, 3, 6)), np.arange(m))
    joint = (np.zeros((n, 6)), np.zeros((nq, 3)), np.zeros((nq, 3)), np.zeros((nq, nq)), np.zeros(nq),
             np.zeros((m, nq)), np.zeros((m, nq)), np.zeros((m, nq)), np.zeros((nq, nq)), np.zeros((m, nq)),
             np.zeros(nq))
    return bodies, rows, ports, rates, forces, solve, joint
