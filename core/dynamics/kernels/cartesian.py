"""The equations of motion in Cartesian coordinates: every body's COM position, orientation and velocities.

Newton-Euler per body at its COM (world axes, gyroscopic term included), constraints at the acceleration
level with Baumgarte terms:

    M a = Q + G^T lambda,   J a = gamma + s'(t) - 2 alpha (J v - s(t)) - beta^2 phi,

with G = J for joints and motors, and a gear row's G the whole tooth force per unit Ft (core.dynamics.kernels.
flanks). Eliminating a: (J M^-1 G^T) lambda = rhs, assembled body by body (two rows meet only at a body both
touch). The state is y = [x (3 n), q (4 n), v (3 n), w (3 n), extra]; its rate [v, w, a, alpha, extra'] (the
orientations' part a rotation vector, core.dynamics.state_space). After each step the positions are moved back
onto the joints' rows and the velocities onto every row, in the kinetic energy metric.

`elements` is the element loops of the registry (core.dynamics.program.dispatch), bound by the program's linker
(core.dynamics.program.linker): a template function here is run only through the program. Plain Python that
numba compiles unchanged.
"""

from __future__ import annotations

import numpy as np

from core.dynamics.buffers.layout import (BODY_ROWS, BODY_ROWS_START, DISSIPATED, EXTRA, GEAR_ROW_INDEX,
                                          GRAVITY_BAUMGARTE, HOLONOMIC_REDUNDANT, HOLONOMIC_ROWS, LOSS_POWER,
                                          PORT_BODIES, REDUNDANT, ROW_BODIES, ROW_FLAGS, ROWS, WORK, WORK_POWER, N,
                                          floats, ints)
from core.dynamics.kernels.bodies import (applied_loads, body_inverse_masses, cartesian_bodies)
from core.dynamics.kernels.flanks import settle
from core.dynamics.kernels.linear import solve_rows
from core.dynamics.kernels.rows import (add_block_loads, baumgarte, block_rates, booked, clear_forces, on_flanks,
                                       switch_off)
from core.dynamics.state_space import retract_bodies

elements = None  # the registry's element loops: bound by the program's linker

#: The moves of the positions back onto the joints' rows after a step: at most this many, until the largest
#: position error [m, rad] is below the tolerance.
PROJECT_ITERATIONS, PROJECT_TOL = 3, 1e-13


def geometry_and_laws(t, y, fb, ib, disc, w):
    """The bodies from y, the elements' rows and ports, their rates and the laws: everything of an evaluation
    before the multipliers."""
    bodies, rows, ports, rates, forces, _, _ = w
    n, nx = ib[N], ib[EXTRA]
    cartesian_bodies(y, n, bodies)
    elements.geometry(fb, ib, disc, bodies, rows, ports)
    block_rates(rows[0], ints(ib, ROW_BODIES), bodies[2], bodies[3], rates[0])
    block_rates(ports[0], ints(ib, PORT_BODIES), bodies[2], bodies[3], rates[1])
    clear_forces(forces)
    elements.law(t, fb, ib, disc, (rates[0], rates[1], ports[1], y[13 * n:13 * n + nx]), forces)


def row_matrix(jrows, grows, ib, minv, out, column_of):
    """out[r, column_of[s]] = (J M^-1 G^T)[r, s] for the rows s with column_of[s] >= 0: J and G as blocks on
    bodies (rows, 3, 6), assembled body by body from the rows that meet there (BODY_ROWS)."""
    table, start = ints(ib, BODY_ROWS), ints(ib, BODY_ROWS_START)[:, 0]
    out[:, :] = 0.0
    jm = np.zeros(6)
    for b in range(start.shape[0] - 1):
        for i in range(start[b], start[b + 1]):
            r, s = table[i, 0], table[i, 1]
            for a in range(6):
                total = 0.0
                for c in range(6):
                    total += jrows[r, s, c] * minv[b, c, a]
                jm[a] = total
            for j in range(start[b], start[b + 1]):
                r2, s2 = table[j, 0], table[j, 1]
                col = column_of[r2]
                if col < 0:
                    continue
                total = 0.0
                for a in range(6):
                    total += jm[a] * grows[r2, s2, a]
                out[r, col] += total


def times_rows(blocks, table, minv, load_force, load_torque, out):
    """out[r] = blocks[r] . (M^-1 (force, torque)) per body: J M^-1 Q."""
    for r in range(blocks.shape[0]):
        total = 0.0
        for s in range(3):
            b = table[r, s]
            if b >= 0:
                for a in range(6):
                    total += blocks[r, s, a] * inverse_mass_times(minv, load_force, load_torque, b, a)
        out[r] = total


def inverse_mass_times(minv, force, torque, k, a):
    """Component a of M^-1 (force, torque) on body k: its COM (a < 3) or angular (a >= 3) acceleration under
    the load [m/s^2, rad/s^2]."""
    total = 0.0
    for c in range(3):
        total += minv[k, a, c] * force[k, c] + minv[k, a, 3 + c] * torque[k, c]
    return total


def evaluate(t, y, rate, fb, ib, disc, flanks, w):
    """The tangent rate of y at t into `rate`, and the multipliers, body loads and accelerations into the work
    space (see the module docstring)."""
    bodies, rows, ports, rates, forces, solve, _ = w
    n, m = ib[N], ib[ROWS]
    geometry_and_laws(t, y, fb, ib, disc, w)
    applied_loads(fb, ib, w)
    minv = body_inverse_masses(fb, ib, bodies[1])
    lam, force, torque, accel, a0, s, a, rhs, gf, every = solve
    rj, rgp, rgs, gam, phi, off = rows
    u, tgt, tgtr, _, xdot, acc = forces
    table, flags, gear_rows = ints(ib, ROW_BODIES), ints(ib, ROW_FLAGS), ints(ib, GEAR_ROW_INDEX)[:, 0]
    if m:
        gb = floats(fb, ib, GRAVITY_BAUMGARTE)[:, 0]
        times_rows(rj, table, minv, force, torque, rhs)
        for r in range(m):
            rhs[r] = gam[r] + tgtr[r] - baumgarte(flags[r, 0], gb[3], gb[4], rates[0][r], tgt[r], phi[r]) - rhs[r]
        row_matrix(rj, rgp, ib, minv, a0, every)
        row_matrix(rj, rgs, ib, minv, s, flags[:, 1])
        switch_off(off, a0, s, rhs)
        lam[:] = settle(a0, s, gear_rows, rhs, flanks, ib[REDUNDANT], a)
        on_flanks(rgp, rgs, gear_rows, flanks, gf)
        add_block_loads(gf, table, lam, force, torque)
    for k in range(n):
        for a_ in range(6):
            accel[k, a_] = inverse_mass_times(minv, force, torque, k, a_)
    vel, spin = bodies[2], bodies[3]
    for k in range(n):
        for a_ in range(3):
            rate[3 * k + a_] = vel[k, a_]
            rate[3 * n + 3 * k + a_] = spin[k, a_]
            rate[6 * n + 3 * k + a_] = accel[k, a_]
            rate[9 * n + 3 * k + a_] = accel[k, 3 + a_]
    power_work, power_loss = constraint_power(gf, table, flags, lam, vel, spin)
    xdot[ib[WORK]] = acc[1] + power_work
    xdot[ib[DISSIPATED]] = acc[2] - power_loss
    rate[12 * n:] = xdot


def constraint_power(grows, table, flags, lam, vel, spin):
    """The power of the rows' forces (G on the settled flanks, `grows`) on the bodies [W]: of the rows that feed
    work in (motors), and of those that take it out (a lossy mesh: negative)."""
    work, loss = 0.0, 0.0
    for r in range(grows.shape[0]):
        kind = flags[r, 2]
        if kind == WORK_POWER or kind == LOSS_POWER:
            total = 0.0
            for s in range(3):
                b = table[r, s]
                if b >= 0:
                    for a in range(3):
                        total += grows[r, s, a] * vel[b, a] + grows[r, s, 3 + a] * spin[b, a]
            work, loss = booked(kind, work, loss, lam[r] * total)
    return work, loss


def consistent_velocities(t, y, out, fb, ib, disc, w):
    """y with its velocities projected onto every row at t into `out`: the least change in the kinetic energy
    metric, v - M^-1 J^T (J M^-1 J^T)^+ (J v - s(t)). Returns the largest change [m/s, rad/s]."""
    bodies, rows, _, rates, forces, solve, _ = w
    n, m = ib[N], ib[ROWS]
    out[:] = y
    if m == 0:
        return 0.0
    geometry_and_laws(t, y, fb, ib, disc, w)
    minv = body_inverse_masses(fb, ib, bodies[1])
    rj = rows[0]
    a = solve[4]
    row_matrix(rj, rj, ib, minv, a, solve[9])
    residual = rates[0] - forces[1]
    switch_off(rows[5], a, solve[5], residual)
    lam = solve_rows(a, residual, ib[REDUNDANT])
    return move_velocities(rj, ints(ib, ROW_BODIES), minv, lam, n, out)


def move_velocities(rj, table, minv, lam, n, out):
    """out's velocities less M^-1 J^T lambda; the largest change."""
    force, torque = np.zeros((n + 1, 3)), np.zeros((n + 1, 3))
    add_block_loads(rj, table, lam, force, torque)
    largest = 0.0
    for k in range(n):
        for a in range(6):
            change = inverse_mass_times(minv, force, torque, k, a)
            at = 7 * n + 3 * k + a if a < 3 else 10 * n + 3 * k + a - 3
            out[at] -= change
            largest = max(largest, abs(change))
    return largest


def position_step(y, dq, fb, ib, disc, w):
    """One move of the positions back onto the joints' rows (HOLONOMIC_ROWS) into dq (6 n: translation and
    rotation vector per body), of least change in the kinetic energy metric, dq = -M^-1 J^T (J M^-1 J^T)^+ phi.
    Returns the largest position error before it [m, rad]; no move (dq = 0) below PROJECT_TOL."""
    bodies, rows, ports, _, _, _, _ = w
    n = ib[N]
    holonomic = ints(ib, HOLONOMIC_ROWS)[:, 0]
    h = holonomic.shape[0]
    dq[:] = 0.0
    if h == 0:
        return 0.0
    cartesian_bodies(y, n, bodies)
    elements.geometry(fb, ib, disc, bodies, rows, ports)
    rj, phi = rows[0], rows[4]
    size = 0.0
    for i in range(h):
        size = max(size, abs(phi[holonomic[i]]))
    if size < PROJECT_TOL:
        return size
    minv = body_inverse_masses(fb, ib, bodies[1])
    index = np.full(ib[ROWS], -1)
    for i in range(h):
        index[holonomic[i]] = i
    among = np.zeros((ib[ROWS], h))
    row_matrix(rj, rj, ib, minv, among, index)
    a, rhs = np.empty((h, h)), np.empty(h)
    for i in range(h):
        rhs[i] = phi[holonomic[i]]
        a[i, :] = among[holonomic[i], :]
    lam_h = solve_rows(a, rhs, ib[HOLONOMIC_REDUNDANT])
    lam = np.zeros(ib[ROWS])
    for i in range(h):
        lam[holonomic[i]] = -lam_h[i]
    force, torque = np.zeros((n + 1, 3)), np.zeros((n + 1, 3))
    add_block_loads(rj, ints(ib, ROW_BODIES), lam, force, torque)
    for k in range(n):
        for a_ in range(6):
            dq[6 * k + a_] = inverse_mass_times(minv, force, torque, k, a_)
    return size


def onto_constraints(t, y, out, fb, ib, disc, w):
    """y after a step at t moved back onto the constraints into `out`: the positions onto the joints' rows (at
    most PROJECT_ITERATIONS moves), then the velocities onto every row."""
    n = ib[N]
    z, moved = y.copy(), np.empty(y.shape[0])
    dq = np.zeros(6 * n)
    d = np.zeros(12 * n + y.shape[0] - 13 * n)
    for _ in range(PROJECT_ITERATIONS):
        if position_step(z, dq, fb, ib, disc, w) < PROJECT_TOL:
            break
        for k in range(n):
            for a in range(3):
                d[3 * k + a] = dq[6 * k + a]
                d[3 * n + 3 * k + a] = dq[6 * k + 3 + a]
        retract_bodies(z, d, moved, n)
        z[:] = moved
    consistent_velocities(t, z, out, fb, ib, disc, w)
