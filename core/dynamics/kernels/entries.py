"""The kernels' entry points: what Python calls, compiled or not (core.dynamics.program.linker links them).

Three: `rate` (the hot path of a single evaluation), `advance` (the integrators' stages, steps and leaps, and
the projections onto the constraints) and `query` (what assembly, samples and events ask of an evaluation).
Each compiled entry point takes the whole evaluation it calls into its own optimised code, so compiling costs
in proportion to their number; the kind of work is an argument instead.

Each takes the system as separate arrays (a numba call unboxes each argument once; a tuple of them costs as
much): fb and ib (core.dynamics.buffers.layout), disc (the elements' discrete states), flanks (the gear rows'
settled flanks, +1 or -1), and the constant matrices' flank store (keys, store, used). An entry makes the work
space it needs once per call. Plain Python that numba compiles unchanged.
"""

from __future__ import annotations

import numpy as np

from core.dynamics.buffers.layout import (CARTESIAN, CONSTANT, FORM, INERTIA, MASS, N, NQ, PORT_BODIES, ROW_BODIES,
                                          floats, ints)
from core.dynamics.kernels import joint, samples, steps
from core.dynamics.kernels.bodies import applied_loads, cartesian_bodies, tree_bodies, world_inertia
from core.dynamics.kernels.rows import block_rates
from core.dynamics.kernels.work import workspace

elements = None  # the registry's element loops: bound by the program's linker

# advance's kinds of work
STAGES, STEP, LEAP, LEAP_ADAPTIVE, PROJECT, CONSISTENT, IMPLICIT, LEAP_IMPLICIT = range(8)
# query's kinds
SAMPLE, EVENTS, MULTIPLIERS, JACOBIAN, MATRICES, INITIAL_RATES, BODIES = range(7)


def rate(t, y, out, fb, ib, disc, flanks, keys, store, used):
    """The tangent rate of y at t into `out`; OK, or FULL (the flank store needs room: grow it, call again)."""
    if ib[FORM] != CARTESIAN and ib[CONSTANT]:  # the constant matrices need no work space of bodies and rows
        return joint.evaluate_constant(t, y, out, fb, ib, disc, flanks, keys, store, used)
    steps.general(t, y, out, (fb, ib, disc, flanks, keys, store, used), workspace(ib))
    return steps.OK


def advance(kind, t, y, h, t_stop, count, a, c, b, errors, k, first, stop, method, order, rtol, atol, max_step, h_min,
            max_rejections, out, d, norms, d_last, k_last, fb, ib, disc, flanks, keys, store, used):
    """The integrators' work on the kernel (core.dynamics.kernels.steps), by `kind`:

    STAGES      stages first .. stop - 1 of the tableau (a, c) from (t, y) with step h into the rows of k
    STEP        the same, then the increment d and the error rows' squared norms `norms`
    LEAP        up to `count` fixed steps, y updated in place, `out` the state before the last
    LEAP_ADAPTIVE  up to `count` accepted adaptive steps (`method`, `order`, rtol, atol, max_step, h_min and
                max_rejections as steps.leap_adaptive), y in place, `out` the state before the last, d_last and
                k_last its increment and stages
    PROJECT     y after a step at t moved back onto the constraints, into `out`
    CONSISTENT  y with its velocities projected onto the rows at t, into `out`
    IMPLICIT    Newton's iterations of a generalised-alpha step of size h (steps.implicit): the rate variable r0
                in c, the inverse of the iterations' matrix in a, (am, af, gamma) in b, newton_tol in rtol, the
                floor in atol, at most `count` iterations; the new rate variable into `out`, the increment into d
    LEAP_IMPLICIT  up to `count` fixed generalised-alpha steps (steps.leap_implicit), y and the rate variable c
                in place, `out` the state before the last, the rest as IMPLICIT with max_rejections the iterations

    Returns (status, steps taken, t, next h, t before the last step, the last step's size, evaluations,
    rejections; CONSISTENT: the largest change in place of the next h).
    """
    system = (fb, ib, disc, flanks, keys, store, used)
    w = workspace(ib)
    if kind == STAGES:
        return steps.stages(t, y, h, a, c, k, first, stop, system, w), 0, t, h, t, 0.0, 0, 0
    if kind == STEP:
        status = steps.step(t, y, h, a, c, b, errors, k, first, stop, rtol, atol, d, norms, system, w)
        return status, 0, t, h, t, 0.0, 0, 0
    if kind == LEAP:
        status, taken, t_new, t_old = steps.leap(t, y, h, count, a, c, b, k, first, out, system, w)
        return status, taken, t_new, h, t_old, h, 0, 0
    if kind == LEAP_ADAPTIVE:
        return steps.leap_adaptive(t, y, h, t_stop, count, a, c, b, errors, k, stop, first, method, order, rtol, atol,
                                   max_step, h_min, max_rejections, out, d_last, k_last, system, w)
    if kind == PROJECT:
        steps.onto_constraints(t, y, out, system, w)
        return steps.OK, 0, t, h, t, 0.0, 0, 0
    if kind == IMPLICIT:
        status, evaluations = steps.implicit(t, y, h, c, a, b, rtol, atol, count, out, d, system, w)
        return status, 0, t, h, t, 0.0, evaluations, 0
    if kind == LEAP_IMPLICIT:
        status, taken, t_new, t_old, evaluations = steps.leap_implicit(t, y, h, count, c, a, b, rtol, atol,
                                                                       max_rejections, out, system, w)
        return status, taken, t_new, h, t_old, h, evaluations, 0
    change = steps.consistent(t, y, out, system, w)
    return steps.OK, 0, t, change, t, 0.0, 0, 0


def query(kind, t, y, o1, o2, o3, o4, o5, o6, o7, o8, o9, fb, ib, disc, flanks, keys, store, used):
    """What an evaluation tells besides the rate, by `kind`, into the arrays o1 .. o9 (2-D; a vector is one row):

    SAMPLE         every channel's value (o1[0]), the body frames' origins (o2) and orientations (o3), the
                   rows' position errors (o4[0]: what the run's drift watch reads)
    EVENTS         every event function's value (o1[0])
    MULTIPLIERS    the rate (o1[0]), the multipliers (o2[0]) and the bodies' accelerations (o3: COM, angular)
    JACOBIAN       J on the formulation's velocities (o1), the rows' position errors (o2[0]), 1 for each row that
                   is switched off (o2[1]) and their velocity terms gamma = -(dJ/dt) v on the bodies (o2[2]); where
                   o3 has a row per port, the ports' rows on the same velocities (o3)
    MATRICES       joint coordinates: the mass matrix (o1), J_q, G+_q, G-sep_q (o2, o3, o4), the ports (o5),
                   the positions (o6[0]), the rows' velocity terms gamma - J b (o7[0]), T^T (- w x J w - M b) (o8[0])
                   and T^T m g (o9[0]): what the constant-matrix check compares across configurations
    INITIAL_RATES  joint coordinates: the mass matrix (o2) and T^T M v (o3[0]) for the bodies' velocities o1 (n,
                   6: COM velocity, spin): the rates that reproduce them best solve mq qd = rhs
    BODIES         the bodies' COM positions (o1), rotations (o2, n x 9), COM velocities (o3) and spins (o4)
    """
    system = (fb, ib, disc, flanks, keys, store, used)
    w = workspace(ib)
    if kind == SAMPLE:
        samples.sample(t, y, o1[0], o2, o3, o4[0], system, w)
    elif kind == EVENTS:
        samples.event_values(t, y, o1[0], system, w)
    elif kind == MULTIPLIERS:
        steps.general(t, y, o1[0], system, w)
        o2[0, :] = w[5][0]
        o3[:, :] = w[5][3]
    elif kind == JACOBIAN:
        jacobian(y, o1, o2[0], o3, fb, ib, disc, w)
        o2[1, :] = w[1][5]
        o2[2, :] = w[1][3]
    elif kind == MATRICES:
        matrices(y, o1, o2, o3, o4, o5, o6[0], o7[0], o8[0], o9[0], fb, ib, disc, w)
    elif kind == INITIAL_RATES:
        initial_rates(y, o1, o2, o3[0], fb, ib, w)
    else:
        bodies = w[0]
        if ib[FORM] == CARTESIAN:
            cartesian_bodies(y, ib[N], bodies)
        else:
            tree_bodies(y[:ib[NQ]], y[ib[NQ]:2 * ib[NQ]], fb, ib, bodies, w[6][0], w[6][1], w[6][2])
        n = ib[N]
        for k in range(n):
            for a in range(3):
                o1[k, a], o3[k, a], o4[k, a] = bodies[0][k, a], bodies[2][k, a], bodies[3][k, a]
                for b in range(3):
                    o2[k, 3 * a + b] = bodies[1][k, a, b]


def jacobian(y, out, phi, port_out, fb, ib, disc, w):
    """J at y into `out`: on the bodies' velocities (rows, 6 n) in Cartesian coordinates, on the coordinate rates
    (rows, nq) in joint coordinates; the rows' position errors (the joints': a point's gap [m], an axis' [rad])
    into `phi`; and, where `port_out` has a row per port, the ports' rows on the same velocities into it."""
    bodies, rows, ports, _, _, _, jw = w
    ports_too = port_out.shape[0] == ports[0].shape[0]
    if ib[FORM] == CARTESIAN:
        cartesian_bodies(y, ib[N], bodies)
        elements.geometry(fb, ib, disc, bodies, rows, ports)
        phi[:] = rows[4]
        on_bodies(rows[0], ints(ib, ROW_BODIES), out)
        if ports_too:
            on_bodies(ports[0], ints(ib, PORT_BODIES), port_out)
        return
    nq = ib[NQ]
    tree_bodies(y[:nq], y[nq:2 * nq], fb, ib, bodies, jw[0], jw[1], jw[2])
    elements.geometry(fb, ib, disc, bodies, rows, ports)
    phi[:] = rows[4]
    joint.coordinate_rows(ib, bodies[0], jw[1], jw[2], rows[0], ints(ib, ROW_BODIES), out)
    if ports_too:
        joint.coordinate_rows(ib, bodies[0], jw[1], jw[2], ports[0], ints(ib, PORT_BODIES), port_out)


def on_bodies(blocks, table, out):
    """out = rows or ports (k, 3, 6) on their bodies' slots, on the bodies' velocities (k, 6 n): Cartesian."""
    out[:, :] = 0.0
    for r in range(blocks.shape[0]):
        for s in range(3):
            b = table[r, s]
            if b >= 0:
                out[r, 6 * b:6 * b + 6] += blocks[r, s]


def matrices(y, mq, jq, gq, sq, cq, positions, gamma, inertial, gravity, fb, ib, disc, w):
    """The constant-matrix check's matrices at y (see `query`)."""
    bodies, rows, ports, rates, _, solve, jw = w
    bias, axes, points = jw[0], jw[1], jw[2]
    nq = ib[NQ]
    tree_bodies(y[:nq], y[nq:2 * nq], fb, ib, bodies, bias, axes, points)
    elements.geometry(fb, ib, disc, bodies, rows, ports)
    block_rates(rows[0], ints(ib, ROW_BODIES), bodies[2], bodies[3], rates[0])
    positions[:] = ports[1]
    joint.coordinate_system(fb, ib, w, gamma)  # with no port forces: the loads are gravity and the velocity terms
    mq[:, :] = jw[3]
    jq[:, :], gq[:, :], sq[:, :] = jw[5], jw[6], jw[7]
    joint.coordinate_rows(ib, bodies[0], axes, points, ports[0], ints(ib, PORT_BODIES), cq)
    total = jw[4].copy()  # T^T (m g - w x J w - M b)
    force, torque = solve[1], solve[2]
    applied_loads(fb, ib, w)  # gravity and the gyroscopic term, with the ports' forces zero
    torque[:, :] = 0.0
    jw[0][:, :] = 0.0  # no bias: T^T m g alone
    joint.joint_mass_and_forces(fb, ib, bodies, jw[0], axes, points, force, torque, jw[3], gravity)
    inertial[:] = total - gravity


def initial_rates(y, velocities, mq, rhs, fb, ib, w):
    """The joint mass matrix mq and rhs = T^T M v at the coordinates y for the bodies' velocities (n, 6)."""
    bodies, _, _, _, _, solve, jw = w
    nq, n = ib[NQ], ib[N]
    tree_bodies(y[:nq], np.zeros(nq), fb, ib, bodies, jw[0], jw[1], jw[2])
    mass, inertia = floats(fb, ib, MASS)[:, 0], floats(fb, ib, INERTIA)
    force, torque = solve[1], solve[2]
    jwk = np.empty((3, 3))
    for k in range(n):
        world_inertia(bodies[1][k], inertia, k, jwk)
        for a in range(3):
            force[k, a] = mass[k] * velocities[k, a]
            torque[k, a] = jwk[a, 0] * velocities[k, 3] + jwk[a, 1] * velocities[k, 4] + jwk[a, 2] * velocities[k, 5]
    joint.joint_mass_and_forces(fb, ib, bodies, np.zeros((n, 6)), jw[1], jw[2], force, torque, mq, rhs)
