"""An output sample: every channel's value and every body's pose at (t, y), in one call.

The formulation's evaluation gives the bodies, the rows, the multipliers and the accelerations; the elements
write their own channels (core.dynamics.elements); here are the rest: each body's frame origin and spin, the
energies, and the reactions of the joints a joint-coordinate tree holds by its coordinates (they have no
multipliers): Newton-Euler on the joint's subtree, the sum of what each of its bodies needs beyond its
applied loads and the rows' forces. Plain Python that numba compiles unchanged.
"""

from __future__ import annotations

import numpy as np

from core.dynamics.buffers.layout import (CARTESIAN, COM, DISSIPATED, EDGE_AXES, EDGE_SIGN, EDGE_TABLE, EDGES, EXTRA,
                                          FORM, GEAR_ROW_INDEX, GRAVITY_BAUMGARTE, INERTIA, MASS, NQ, OUTPUT_BODIES,
                                          QUAT0, ROW_BODIES, SUBTREE, WORK, N, floats, ints)
from core.dynamics.kernels.bodies import world_inertia
from core.dynamics.kernels.rows import add_block_loads, on_flanks
from core.dynamics.kernels.steps import general
from core.geometry.rotations import quat_product

elements = None  # the registry's element loops: bound by the program's linker


def tree_reactions(fb, ib, flanks, w, react):
    """react[e] = (force on the joint's body j [N], moment about the joint's point [N m]) of each tree edge e,
    after a joint-coordinate evaluation into the work space."""
    bodies, rows, _, _, _, solve, _ = w
    pos, rot = bodies[0], bodies[1]
    n = ib[N]
    lam, force, torque, accel, gf = solve[0], solve[1], solve[2], solve[3], solve[8]
    # the rows' forces on the bodies join the applied loads (the evaluation kept them in the coordinates)
    on_flanks(rows[1], rows[2], ints(ib, GEAR_ROW_INDEX)[:, 0], flanks, gf)
    add_block_loads(gf, ints(ib, ROW_BODIES), lam, force, torque)
    mass, inertia = floats(fb, ib, MASS)[:, 0], floats(fb, ib, INERTIA)
    need = np.zeros((n, 6))
    jw = np.empty((3, 3))
    for b in range(n):
        world_inertia(rot[b], inertia, b, jw)
        for a in range(3):
            need[b, a] = mass[b] * accel[b, a] - force[b, a]
            # the torque holds the gyroscopic term already (applied_loads): J alpha + w x J w - tau
            need[b, 3 + a] = jw[a, 0] * accel[b, 3] + jw[a, 1] * accel[b, 4] + jw[a, 2] * accel[b, 5] - torque[b, a]
    edges, geo, sides = ints(ib, EDGE_TABLE), floats(fb, ib, EDGE_AXES), floats(fb, ib, EDGE_SIGN)[:, 0]
    subtree = ints(ib, SUBTREE)
    for e in range(edges.shape[0]):
        k = edges[e, 1]
        f, mo = np.zeros(3), np.zeros(3)
        for b in range(n):
            if subtree[e, b]:
                for a in range(3):
                    f[a] += need[b, a]
                mo[0] += need[b, 3] + pos[b, 1] * need[b, 2] - pos[b, 2] * need[b, 1]
                mo[1] += need[b, 4] + pos[b, 2] * need[b, 0] - pos[b, 0] * need[b, 2]
                mo[2] += need[b, 5] + pos[b, 0] * need[b, 1] - pos[b, 1] * need[b, 0]
        p = np.zeros(3)
        for a in range(3):
            p[a] = pos[k, a] + rot[k, a, 0] * geo[e, 6] + rot[k, a, 1] * geo[e, 7] + rot[k, a, 2] * geo[e, 8]
        side = sides[e]
        react[e, 0], react[e, 1], react[e, 2] = side * f[0], side * f[1], side * f[2]
        react[e, 3] = side * (mo[0] - (p[1] * f[2] - p[2] * f[1]))
        react[e, 4] = side * (mo[1] - (p[2] * f[0] - p[0] * f[2]))
        react[e, 5] = side * (mo[2] - (p[0] * f[1] - p[1] * f[0]))


def tree_quaternions(q, fb, ib, quats):
    """Each body's orientation (n, 4) on joint coordinates q: its start's turned by its edges' turns, composed
    as the kinematics composes their matrices (core.dynamics.kernels.bodies.tree_bodies)."""
    n = ib[N]
    edges, geo, sides = ints(ib, EDGE_TABLE), floats(fb, ib, EDGE_AXES), floats(fb, ib, EDGE_SIGN)[:, 0]
    quat0 = floats(fb, ib, QUAT0)
    disp = np.zeros((n + 1, 4))
    disp[n, 0] = 1.0
    for e in range(edges.shape[0]):
        p, k, c = edges[e, 0], edges[e, 1], edges[e, 2]
        p = n if p < 0 else p
        half = 0.5 * sides[e] * q[c] if c >= 0 else 0.0
        s = np.sin(half)
        disp[k, 0], disp[k, 1], disp[k, 2], disp[k, 3] = quat_product(
            disp[p, 0], disp[p, 1], disp[p, 2], disp[p, 3], np.cos(half), s * geo[e, 0], s * geo[e, 1], s * geo[e, 2])
        quats[k, 0], quats[k, 1], quats[k, 2], quats[k, 3] = quat_product(
            disp[k, 0], disp[k, 1], disp[k, 2], disp[k, 3], quat0[k, 0], quat0[k, 1], quat0[k, 2], quat0[k, 3])


def sample(t, y, values, origins, quats, phi, system, w):
    """Every channel's value into `values`, the body frames' origins (n, 3) [m] and orientations (n, 4), and the
    rows' position errors into `phi` (the joints': a point's gap [m], an axis' [rad]) at (t, y)."""
    fb, ib, disc, flanks = system[0], system[1], system[2], system[3]
    n, nx = ib[N], ib[EXTRA]
    cart = ib[FORM] == CARTESIAN
    general(t, y, np.empty(12 * n + nx if cart else 2 * ib[NQ] + nx), system, w)
    bodies, rows, ports, rates, forces, solve, _ = w
    pos, rot, vel, spin = bodies
    phi[:] = rows[4]
    extra = y[y.shape[0] - nx:]
    react = np.zeros((ib[EDGES], 6))
    if not cart and ib[EDGES]:
        tree_reactions(fb, ib, flanks, w, react)
    elements.outputs(t, fb, ib, disc, bodies, rows, ports, (rates[0], rates[1], ports[1], extra), forces, solve[0],
                     react, values)
    at = ints(ib, OUTPUT_BODIES)[:, 0]
    com = floats(fb, ib, COM)
    mass, inertia = floats(fb, ib, MASS)[:, 0], floats(fb, ib, INERTIA)
    gravity = floats(fb, ib, GRAVITY_BAUMGARTE)[:, 0]
    kinetic, potential = 0.0, forces[5][0]
    jw = np.empty((3, 3))
    for k in range(n):
        world_inertia(rot[k], inertia, k, jw)
        for a in range(3):
            origins[k, a] = pos[k, a] - (rot[k, a, 0] * com[k, 0] + rot[k, a, 1] * com[k, 1] + rot[k, a, 2] * com[k, 2])
            values[at[0] + 6 * k + a] = origins[k, a]
            values[at[0] + 6 * k + 3 + a] = spin[k, a]
            kinetic += 0.5 * mass[k] * vel[k, a] * vel[k, a]
            potential -= mass[k] * pos[k, a] * gravity[a]
            for d in range(3):
                kinetic += 0.5 * spin[k, a] * jw[a, d] * spin[k, d]
    values[at[1]] = kinetic
    values[at[1] + 1] = potential
    values[at[1] + 2] = extra[ib[WORK]]
    values[at[1] + 3] = extra[ib[DISSIPATED]]
    if cart:
        for k in range(n):
            for a in range(4):
                quats[k, a] = y[3 * n + 4 * k + a]
    else:
        tree_quaternions(y[:ib[NQ]], fb, ib, quats)


def event_values(t, y, g, system, w):
    """Every event function's value at (t, y) into g (the elements' with modes: each positive while its mode
    holds)."""
    fb, ib, disc = system[0], system[1], system[2]
    nx = ib[EXTRA]
    general(t, y, np.empty(12 * ib[N] + nx if ib[FORM] == CARTESIAN else 2 * ib[NQ] + nx), system, w)
    _, _, ports, rates, forces, solve, _ = w
    elements.events(t, fb, ib, disc, (rates[0], rates[1], ports[1], y[y.shape[0] - nx:]), forces, solve[0], g)
