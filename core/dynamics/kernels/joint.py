"""The equations of motion in joint coordinates: one angle per revolute joint of a spanning tree.

The tree's joints hold by construction; the bodies' motion is v = T q', a = T q'' + b
(core.dynamics.kernels.bodies), so with the bodies' mass M and loads Q

    (T^T M T) q'' = T^T (Q - M b) + G_q^T lambda,   J_q q'' = gamma + s'(t) - J b - Baumgarte,

with J_q = J T and G_q = G T for the rows the tree does not hold (gear pairs, motors, loop-closing joints).
The rows and ports are the elements' own, as in Cartesian coordinates; only their mapping differs.

Constant matrices: on a gear train whose axes are parallel, or fixed in the ground, T^T M T, J_q and G_q and
the ports in the coordinates do not change as the train turns, and the velocity terms and gravity do no work
on the coordinates. Assembly checks that at random configurations (core.dynamics.formulations.joint); the rate
is then the elements' laws and a few products with matrices made once (`evaluate_constant`): the multipliers'
matrix inverted once per set of flanks, kept in a store the kernel fills.

`elements` is bound by the program's linker (core.dynamics.program.linker). Plain Python that numba compiles.
"""

from __future__ import annotations

import numpy as np

from core.dynamics.buffers.layout import (CONSTANT_C, CONSTANT_GP, CONSTANT_GS, CONSTANT_J, CONSTANT_MINV, CONSTANT_OFF,
                                          CONSTANT_POSITIONS, CONSTANT_PROJECTOR, COORD_PATH, DISSIPATED, EXTRA,
                                          GEAR_ROW_INDEX, GRAVITY_BAUMGARTE, HOLONOMIC_REDUNDANT, HOLONOMIC_ROWS,
                                          INERTIA, LOSS_POWER, MASS, NQ, PORT_BODIES, POSITIONS, REDUNDANT, ROW_BODIES,
                                          ROW_FLAGS, ROWS, PORTS, WORK, WORK_POWER, N, floats, ints)
from core.dynamics.kernels.bodies import applied_loads, tree_bodies, world_inertia
from core.dynamics.kernels.flanks import FLANK_ITERATIONS, settle, settled
from core.dynamics.kernels.linear import cholesky, cholesky_solve, inverse_rows, solve_rows
from core.dynamics.kernels.rows import baumgarte, block_rates, booked, clear_forces, switch_off

elements = None  # the registry's element loops: bound by the program's linker

# a constant-matrix evaluation's status: done, or the store of flank sets is full (the caller grows it); and
# constant_rate's: a flank set is missing from the store
OK, FULL, MISSING = 0, 1, 4
#: compiled bare (core.dynamics.program.linker): the constant-matrix rate takes its work space from its caller,
#: and each view it takes would otherwise cost a reference count up and one down
BARE = ("constant_rate",)
#: compiled into their callers (core.dynamics.program.linker): the few products of a constant-matrix rate are
#: about as costly as a call
INLINE = ("flank_side", "row_power", "finish_rate", "constant_work", "moved")


def tree_column(pos, axes, points, b, c):
    """Column c of T for body b, (a_c x (x_b - p_c), a_c): the body's COM velocity and spin per unit rate of
    coordinate c (six numbers)."""
    lx, ly, lz = pos[b, 0] - points[c, 0], pos[b, 1] - points[c, 1], pos[b, 2] - points[c, 2]
    ax, ay, az = axes[c, 0], axes[c, 1], axes[c, 2]
    return ay * lz - az * ly, az * lx - ax * lz, ax * ly - ay * lx, ax, ay, az


def coordinate_rows(ib, pos, axes, points, blocks, table, out):
    """out = blocks T: rows or ports (k, 3, 6) on the bodies, in the coordinates (k, nq)."""
    path = ints(ib, COORD_PATH)
    out[:, :] = 0.0
    for r in range(blocks.shape[0]):
        for s in range(3):
            b = table[r, s]
            if b < 0:
                continue
            for i in range(path.shape[1]):
                c = path[b, i]
                if c < 0:
                    break
                column = tree_column(pos, axes, points, b, c)
                for k in range(6):
                    out[r, c] += blocks[r, s, k] * column[k]


def joint_mass_and_forces(fb, ib, bodies, bias, axes, points, force, torque, mq, qq):
    """mq = T^T M T and qq = T^T (Q - M b), from the bodies' loads Q (force, torque: gravity, ports and the
    gyroscopic term) and bias accelerations b."""
    pos, rot = bodies[0], bodies[1]
    path = ints(ib, COORD_PATH)
    mass, inertia = floats(fb, ib, MASS)[:, 0], floats(fb, ib, INERTIA)
    mq[:, :] = 0.0
    qq[:] = 0.0
    lin = np.zeros((path.shape[1], 3))
    jw = np.empty((3, 3))
    for b in range(ib[N]):
        world_inertia(rot[b], inertia, b, jw)
        m = mass[b]
        fx, fy, fz = force[b, 0] - m * bias[b, 0], force[b, 1] - m * bias[b, 1], force[b, 2] - m * bias[b, 2]
        tx = torque[b, 0] - (jw[0, 0] * bias[b, 3] + jw[0, 1] * bias[b, 4] + jw[0, 2] * bias[b, 5])
        ty = torque[b, 1] - (jw[1, 0] * bias[b, 3] + jw[1, 1] * bias[b, 4] + jw[1, 2] * bias[b, 5])
        tz = torque[b, 2] - (jw[2, 0] * bias[b, 3] + jw[2, 1] * bias[b, 4] + jw[2, 2] * bias[b, 5])
        count = 0
        for i in range(path.shape[1]):
            c = path[b, i]
            if c < 0:
                break
            v0, v1, v2, ax, ay, az = tree_column(pos, axes, points, b, c)
            lin[i, 0], lin[i, 1], lin[i, 2] = v0, v1, v2
            qq[c] += fx * v0 + fy * v1 + fz * v2 + tx * ax + ty * ay + tz * az
            count += 1
        for i in range(count):
            ci = path[b, i]
            for j in range(count):
                cj = path[b, j]
                total = m * (lin[i, 0] * lin[j, 0] + lin[i, 1] * lin[j, 1] + lin[i, 2] * lin[j, 2])
                for a in range(3):
                    for d in range(3):
                        total += axes[ci, a] * jw[a, d] * axes[cj, d]
                mq[ci, cj] += total


def geometry_and_laws(t, y, fb, ib, disc, w):
    """The bodies from the coordinates, the elements' rows and ports, their rates and the laws."""
    bodies, rows, ports, rates, forces, _, joint = w
    nq, nx = ib[NQ], ib[EXTRA]
    tree_bodies(y[:nq], y[nq:2 * nq], fb, ib, bodies, joint[0], joint[1], joint[2])
    elements.geometry(fb, ib, disc, bodies, rows, ports)
    block_rates(rows[0], ints(ib, ROW_BODIES), bodies[2], bodies[3], rates[0])
    block_rates(ports[0], ints(ib, PORT_BODIES), bodies[2], bodies[3], rates[1])
    clear_forces(forces)
    elements.law(t, fb, ib, disc, (rates[0], rates[1], ports[1], y[2 * nq:2 * nq + nx]), forces)


def coordinate_system(fb, ib, w, gamma):
    """The rows and the mass matrix in the coordinates into the work space (jq, gq, sq, mq, qq) after
    `geometry_and_laws`, and gamma_q = gamma - J b + s'(t) into `gamma`."""
    bodies, rows, _, _, forces, solve, joint = w
    bias, axes, points, mq, qq, jq, gq, sq = joint[:8]
    pos = bodies[0]
    table = ints(ib, ROW_BODIES)
    applied_loads(fb, ib, w)
    joint_mass_and_forces(fb, ib, bodies, bias, axes, points, solve[1], solve[2], mq, qq)
    rj, rgp, rgs, gam, _, _ = rows
    coordinate_rows(ib, pos, axes, points, rj, table, jq)
    coordinate_rows(ib, pos, axes, points, rgp, table, gq)
    coordinate_rows(ib, pos, axes, points, rgs, table, sq)
    tgtr = forces[2]
    for r in range(rj.shape[0]):
        total = gam[r] + tgtr[r]
        for s in range(3):
            b = table[r, s]
            if b >= 0:
                for a in range(6):
                    total -= rj[r, s, a] * bias[b, a]
        gamma[r] = total


def reduce_rows(lower, rows, count, out):
    """out[:count] = rows[:count] M^-1, by M's Cholesky factor `lower` (each row a solve)."""
    for r in range(count):
        x = out[r]
        x[:] = rows[r]
        cholesky_solve(lower, x)


def evaluate(t, y, rate, fb, ib, disc, flanks, w):
    """The tangent rate [q', q'', extra'] of y = [q, q', extra] at t into `rate` (the general path), and the
    multipliers and the bodies' accelerations into the work space."""
    bodies, rows, ports, rates, forces, solve, joint = w
    nq, m = ib[NQ], ib[ROWS]
    geometry_and_laws(t, y, fb, ib, disc, w)
    bias, axes, points, mq, qq, jq, gq, sq, lower, jm, tmp = joint
    lam, accel, a0, s, a, rhs = solve[0], solve[3], solve[4], solve[5], solve[6], solve[7]
    coordinate_system(fb, ib, w, rhs)
    cholesky(mq, lower)
    qd, qdd = y[nq:2 * nq], rate[nq:2 * nq]
    qdd[:] = qq
    cholesky_solve(lower, qdd)
    u, tgt, tgtr, phi, xdot, acc = forces
    flags, gear_rows = ints(ib, ROW_FLAGS), ints(ib, GEAR_ROW_INDEX)[:, 0]
    work_power, loss_power = 0.0, 0.0
    if m:
        gb = floats(fb, ib, GRAVITY_BAUMGARTE)[:, 0]
        reduce_rows(lower, jq, m, jm)  # J_q M^-1
        for r in range(m):
            rhs[r] -= baumgarte(flags[r, 0], gb[3], gb[4], rates[0][r], tgt[r], phi[r]) + dot(jm[r], qq)
            for c in range(m):
                a0[r, c] = dot(jm[r], gq[c])
            for k in range(gear_rows.shape[0]):
                s[r, k] = dot(jm[r], sq[gear_rows[k]])
        switch_off(rows[5], a0, s, rhs)
        lam[:] = settle(a0, s, gear_rows, rhs, flanks, ib[REDUNDANT], a)
        tmp[:] = 0.0  # G_q^T lambda on the settled flanks, then M^-1 of it
        for r in range(m):
            side = flank_side(flags, flanks, r)
            for c in range(nq):
                tmp[c] += (gq[r, c] if side > 0 else gq[r, c] - 2.0 * sq[r, c]) * lam[r]
        cholesky_solve(lower, tmp)
        for c in range(nq):
            qdd[c] += tmp[c]
        work_power, loss_power = row_power(gq, sq, flags, flanks, lam, qd)
    finish_rate(ib, qd, xdot, acc, work_power, loss_power, rate)
    body_accelerations(ib, bodies[0], bias, axes, points, qdd, accel)


def flank_side(flags, flanks, r):
    """+1 when row r acts by G+ (not a gear row, or its flank positive), -1 when by G+ - 2 G-sep."""
    return 1.0 if flags[r, 1] < 0 or flanks[flags[r, 1]] > 0 else -1.0


def row_power(gq, sq, flags, flanks, lam, qd):
    """The power of the rows' forces (G_q on the settled flanks) at the coordinate rates qd [W]: of the rows that
    feed work in (motors), and of those that take it out (a lossy mesh: negative)."""
    work, loss = 0.0, 0.0
    for r in range(gq.shape[0]):
        kind = flags[r, 2]
        if kind == WORK_POWER or kind == LOSS_POWER:
            side = flank_side(flags, flanks, r)
            power = 0.0
            for c in range(qd.shape[0]):
                power += (gq[r, c] if side > 0 else gq[r, c] - 2.0 * sq[r, c]) * qd[c]
            work, loss = booked(kind, work, loss, lam[r] * power)
    return work, loss


def finish_rate(ib, qd, xdot, acc, work_power, loss_power, rate):
    """rate = [q', q'', extra'] given q'' in place: the coordinate rates, and the work fed in and dissipated."""
    nq = ib[NQ]
    xdot[ib[WORK]] = acc[1] + work_power
    xdot[ib[DISSIPATED]] = acc[2] - loss_power
    for i in range(nq):  # by element: an array copy may allocate, which bare code cannot (constant_rate)
        rate[i] = qd[i]
    for i in range(xdot.shape[0]):
        rate[2 * nq + i] = xdot[i]


def dot(a, b):
    """a . b of two vectors of one length."""
    total = 0.0
    for i in range(a.shape[0]):
        total += a[i] * b[i]
    return total


def row_dot(a, r, b):
    """a[r] . b, without the view a[r] (compiled, a view counts a reference up and down)."""
    total = 0.0
    for i in range(b.shape[0]):
        total += a[r, i] * b[i]
    return total


def body_accelerations(ib, pos, bias, axes, points, qdd, accel):
    """accel = T q'' + b: the bodies' COM and angular accelerations (n, 6) [m/s^2, rad/s^2]."""
    path = ints(ib, COORD_PATH)
    for b in range(ib[N]):
        for a in range(6):
            accel[b, a] = bias[b, a]
        for i in range(path.shape[1]):
            c = path[b, i]
            if c < 0:
                break
            column = tree_column(pos, axes, points, b, c)
            for k in range(6):
                accel[b, k] += column[k] * qdd[c]


# --------------------------------------------------------------------------- constant matrices


def flank_factors(fb, ib, flanks, out):
    """For the flanks `flanks`: the multipliers' matrix's inverse P (rows, rows; its pseudo-inverse with redundant
    rows) and M^-1 G_q^T (nq, rows), one after the other into out."""
    m, nq = ib[ROWS], ib[NQ]
    jq, gq, sq = floats(fb, ib, CONSTANT_J), floats(fb, ib, CONSTANT_GP), floats(fb, ib, CONSTANT_GS)
    minv = floats(fb, ib, CONSTANT_MINV)
    gear_rows = ints(ib, GEAR_ROW_INDEX)[:, 0]
    gf = gq.copy()  # a C-ordered copy
    for k in range(gear_rows.shape[0]):
        if flanks[k] < 0:
            gf[gear_rows[k]] -= 2.0 * sq[gear_rows[k]]
    mg = np.ascontiguousarray(minv) @ gf.T
    a = np.ascontiguousarray(jq) @ mg
    switch_off(ints(ib, CONSTANT_OFF)[:, 0], a, np.zeros((m, 0)), np.zeros(m))
    p = inverse_rows(a, ib[REDUNDANT])
    out[:m * m] = p.ravel()
    out[m * m:m * m + nq * m] = mg.ravel()


def find_flanks(keys, used, flanks):
    """The store's entry of the flanks `flanks`, or -1."""
    for i in range(used[0]):
        same = True
        for k in range(flanks.shape[0]):
            if keys[i, k] != flanks[k]:
                same = False
                break
        if same:
            return i
    return -1


def evaluate_constant(t, y, rate, fb, ib, disc, flanks, keys, store, used):
    """The tangent rate of y at t into `rate` by the constant matrices (see the module docstring). Returns OK, or
    FULL when the flank store has no room for a new set (the flanks as they were).

    The evaluation itself is `constant_rate`, compiled bare; here its work space is made and a flank set it
    finds missing from the store is added (inverting a matrix makes arrays), and it runs again from the start."""
    size = constant_size(ib)
    scratch = np.empty(size + flanks.shape[0])
    start = scratch[size:]
    start[:] = flanks
    while True:
        status = constant_rate(t, y, rate, fb, ib, disc, flanks, keys, store, used, scratch)
        if status != MISSING:
            return status
        if used[0] == keys.shape[0]:
            flanks[:] = start
            return FULL
        i = used[0]
        keys[i, :] = flanks
        flank_factors(fb, ib, flanks, store[i])
        used[0] += 1
        flanks[:] = start


def constant_size(ib):
    """How many numbers `constant_work` lays out."""
    return 6 * ib[ROWS] + 2 * ib[PORTS] + ib[POSITIONS] + ib[EXTRA] + 3 + 2 * ib[NQ]


def constant_work(fb, ib, scratch):
    """The vectors of a constant-matrix evaluation in `scratch` (its first constant_size(ib) numbers, zeroed): the
    rows' and ports' rates (m, ports), the positions (at the start), the forces the element laws fill (u, tgt,
    tgtr, phi, xdot, acc), two coordinate vectors (nq each), the multipliers and their right-hand side (m each)."""
    nq, m, nx, npos, p_count = ib[NQ], ib[ROWS], ib[EXTRA], ib[POSITIONS], ib[PORTS]
    a1 = m + p_count
    a2 = a1 + npos
    a3 = a2 + p_count
    a6 = a3 + 3 * m
    a8 = a6 + nx + 3
    a10 = a8 + 2 * nq
    scratch[:a10 + 2 * m] = 0.0
    positions, start = scratch[a1:a2], floats(fb, ib, CONSTANT_POSITIONS)
    for i in range(npos):
        positions[i] = start[i, 0]
    forces = (scratch[a2:a3], scratch[a3:a3 + m], scratch[a3 + m:a3 + 2 * m], scratch[a3 + 2 * m:a6],
              scratch[a6:a6 + nx], scratch[a6 + nx:a8])
    return (scratch[:m], scratch[m:a1], positions, forces, scratch[a8:a8 + nq], scratch[a8 + nq:a10],
            scratch[a10:a10 + m], scratch[a10 + m:a10 + 2 * m])


def constant_rate(t, y, rate, fb, ib, disc, flanks, keys, store, used, scratch):
    """`evaluate_constant`'s evaluation in the work space `scratch` (constant_work's, then the flanks at the
    start): OK, or MISSING when a flank set it settles on is not in the store (`flanks` then holds that set)."""
    nq, m, nx = ib[NQ], ib[ROWS], ib[EXTRA]
    qd = y[nq:2 * nq]
    jq, cq = floats(fb, ib, CONSTANT_J), floats(fb, ib, CONSTANT_C)
    jv, pv, positions, forces, force_q, minv_q, lam, rhs = constant_work(fb, ib, scratch)
    for r in range(m):
        jv[r] = row_dot(jq, r, qd)
    for p in range(cq.shape[0]):
        pv[p] = row_dot(cq, p, qd)
    elements.law(t, fb, ib, disc, (jv, pv, positions, y[2 * nq:2 * nq + nx]), forces)
    u, tgt, tgtr, phi, xdot, acc = forces
    minv = floats(fb, ib, CONSTANT_MINV)
    for p in range(cq.shape[0]):
        if u[p] != 0.0:
            for c in range(nq):
                force_q[c] += cq[p, c] * u[p]
    qdd = rate[nq:2 * nq]
    for i in range(nq):
        minv_q[i] = row_dot(minv, i, force_q)
        qdd[i] = minv_q[i]
    work_power, loss_power = 0.0, 0.0
    if m:
        gb = floats(fb, ib, GRAVITY_BAUMGARTE)[:, 0]
        flags, gear_rows = ints(ib, ROW_FLAGS), ints(ib, GEAR_ROW_INDEX)[:, 0]
        off = ints(ib, CONSTANT_OFF)[:, 0]
        for r in range(m):
            rhs[r] = 0.0 if off[r] else (tgtr[r] - baumgarte(flags[r, 0], gb[3], gb[4], jv[r], tgt[r], phi[r])
                                         - row_dot(jq, r, minv_q))
        i = -1
        for it in range(FLANK_ITERATIONS):  # as `settle`, each try solved by the stored inverse of its flanks
            i = find_flanks(keys, used, flanks)
            if i < 0:
                return MISSING
            for r in range(m):
                total = 0.0
                for c in range(m):
                    total += store[i, r * m + c] * rhs[c]
                lam[r] = total
            if settled(lam, gear_rows, flanks, it == FLANK_ITERATIONS - 1):
                break
        for c in range(nq):
            total = 0.0
            for r in range(m):
                total += store[i, m * m + c * m + r] * lam[r]
            qdd[c] += total
        work_power, loss_power = row_power(floats(fb, ib, CONSTANT_GP), floats(fb, ib, CONSTANT_GS), flags, flanks,
                                           lam, qd)
    finish_rate(ib, qd, xdot, acc, work_power, loss_power, rate)
    return OK


# --------------------------------------------------------------------------- projections


def consistent_constant(t, y, out, fb, ib, disc):
    """`consistent_velocities` by the constant matrices, qd - P (J_q qd - s(t)) with the packed projector P, in a
    work space of its own (the whole one handed on would count a reference up and down for each of its arrays)."""
    nq, m = ib[NQ], ib[ROWS]
    out[:] = y
    if m == 0 or nq == 0:
        return 0.0
    jq, proj = floats(fb, ib, CONSTANT_J), floats(fb, ib, CONSTANT_PROJECTOR)
    qd = y[nq:2 * nq]
    residual, port_rates, positions, forces, change, _, _, _ = constant_work(fb, ib, np.empty(constant_size(ib)))
    for r in range(m):
        residual[r] = row_dot(jq, r, qd)
    elements.law(t, fb, ib, disc, (residual, port_rates, positions, y[2 * nq:2 * nq + ib[EXTRA]]), forces)
    for r in range(m):
        residual[r] -= forces[1][r]
    for c in range(nq):
        change[c] = row_dot(proj, c, residual)
    return moved(out, nq, change)


def moved(out, nq, change):
    """out's coordinate rates less `change`; the largest change [rad/s]."""
    largest = 0.0
    for c in range(nq):
        out[nq + c] -= change[c]
        largest = max(largest, abs(change[c]))
    return largest


def consistent_velocities(t, y, out, fb, ib, disc, w):
    """y with its coordinate rates projected onto the rows at t into `out` (the least change in kinetic energy,
    qd - M^-1 J^T (J M^-1 J^T)^+ (J qd - s(t))); the largest change of a rate [rad/s]."""
    nq, m = ib[NQ], ib[ROWS]
    out[:] = y
    if m == 0 or nq == 0:
        return 0.0
    _, _, _, rates, forces, solve, joint = w
    geometry_and_laws(t, y, fb, ib, disc, w)
    coordinate_system(fb, ib, w, solve[7])
    mq, jq, lower, jm, change = joint[3], joint[5], joint[8], joint[9], joint[10]
    cholesky(mq, lower)
    reduce_rows(lower, jq, m, jm)
    residual, a = solve[7], solve[6]
    for r in range(m):
        residual[r] = rates[0][r] - forces[1][r]
        for c in range(m):
            a[r, c] = dot(jm[r], jq[c])
    switch_off(w[1][5], a, solve[5], residual)
    lam = solve_rows(a, residual, ib[REDUNDANT])
    change[:] = 0.0  # M^-1 J_q^T lambda
    for r in range(m):
        for c in range(nq):
            change[c] += jm[r, c] * lam[r]
    return moved(out, nq, change)


def onto_constraints(t, y, out, fb, ib, disc, w):
    """y after a step moved back onto the constraints into `out`: the coordinates onto the loop-closing joints'
    rows (HOLONOMIC_ROWS; the tree's joints hold by construction), then the rates onto every row."""
    nq = ib[NQ]
    holonomic = ints(ib, HOLONOMIC_ROWS)[:, 0]
    z = y.copy()
    if holonomic.shape[0]:
        _, rows, _, _, _, _, joint = w
        for _ in range(3):
            geometry_and_laws(t, z, fb, ib, disc, w)
            phi = rows[4]
            size = 0.0
            for i in range(holonomic.shape[0]):
                size = max(size, abs(phi[holonomic[i]]))
            if size < 1e-13:
                break
            coordinate_system(fb, ib, w, w[5][7])
            mq, jq, lower, jm = joint[3], joint[5], joint[8], joint[9]
            h = holonomic.shape[0]
            jh, ph, a = np.empty((h, nq)), np.empty(h), np.empty((h, h))
            for i in range(h):
                jh[i] = jq[holonomic[i]]
                ph[i] = phi[holonomic[i]]
            cholesky(mq, lower)
            reduce_rows(lower, jh, h, jm)
            for i in range(h):
                for j in range(h):
                    a[i, j] = dot(jm[i], jh[j])
            lam = solve_rows(a, ph, ib[HOLONOMIC_REDUNDANT])
            for i in range(h):
                for c in range(nq):
                    z[c] -= jm[i, c] * lam[i]
    consistent_velocities(t, z, out, fb, ib, disc, w)
