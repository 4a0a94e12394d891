"""The bodies' state from a formulation's coordinates: Cartesian coordinates as they are, joint coordinates by
the tree's kinematics.

Every formulation hands the elements the same arrays of n + 1 bodies (the ground last, at rest at the
origin): COM position pos [m], rotation rot (body to world), COM velocity vel [m/s] and spin [rad/s], world
axes. Plain Python on arrays that numba compiles unchanged.

Joint coordinates: the bodies hang from the ground on a tree of revolute and fixed joints (the edges, parents
first). Each edge turns its child by sign * q[coordinate] about the joint's axis, carried by the parent's
displacement since the start, through the joint's point:

    w = w_p + th' a,   v = v_p + w_p x (x - x_p) + th' a x (x - p),

and their rates at q'' = 0 are the bias accelerations b, so that the bodies' accelerations are T q'' + b
with T's column c, for a body that coordinate c moves, (a_c x (x - p_c), a_c): the `tree` pairs.
"""

from __future__ import annotations

import numpy as np

from core.dynamics.buffers.layout import (EDGE_AXES, EDGE_SIGN, EDGE_TABLE, GRAVITY_BAUMGARTE, INERTIA, INERTIA_INV,
                                          MASS, PORT_BODIES, ROT0, X0, N, floats, ints)
from core.dynamics.kernels.rows import add_block_loads
from core.geometry import vec3
from core.geometry.rotations import quat_rotation


def new_bodies(n):
    """Empty body arrays for n bodies and the ground: (pos, rot, vel, spin), the ground's set."""
    pos, vel, spin = np.zeros((n + 1, 3)), np.zeros((n + 1, 3)), np.zeros((n + 1, 3))
    rot = np.zeros((n + 1, 3, 3))
    for a in range(3):
        rot[n, a, a] = 1.0
    return pos, rot, vel, spin


def cartesian_bodies(y, n, bodies):
    """The bodies' arrays from a Cartesian state y = [x (3 n), q (4 n), v (3 n), w (3 n), extra]."""
    pos, rot, vel, spin = bodies
    for k in range(n):
        e = quat_rotation(y[3 * n + 4 * k], y[3 * n + 4 * k + 1], y[3 * n + 4 * k + 2], y[3 * n + 4 * k + 3])
        for a in range(3):
            for b in range(3):
                rot[k, a, b] = e[3 * a + b]
            pos[k, a] = y[3 * k + a]
            vel[k, a] = y[7 * n + 3 * k + a]
            spin[k, a] = y[10 * n + 3 * k + a]


def tree_bodies(q, qd, fb, ib, bodies, bias, axes, points):
    """The bodies' arrays, their bias accelerations bias (n, 6) (linear, angular) and each coordinate's world
    axis (signed) and point (nq, 3), from the joint coordinates q [rad] and their rates qd [rad/s]."""
    pos, rot, vel, spin = bodies
    n = ib[N]
    edges, geo, signs = ints(ib, EDGE_TABLE), floats(fb, ib, EDGE_AXES), floats(fb, ib, EDGE_SIGN)[:, 0]
    x0, rot0 = floats(fb, ib, X0), floats(fb, ib, ROT0)
    disp = np.zeros((n + 1, 3, 3))  # each body's rotation since the start (the ground's: the identity)
    shift = np.zeros((n + 1, 3))  # and translation: a point z of the body at the start is now disp z + shift
    acc, alpha = np.zeros((n + 1, 3)), np.zeros((n + 1, 3))
    turn = np.zeros((3, 3))
    for a in range(3):
        disp[n, a, a] = 1.0
    for e in range(edges.shape[0]):
        p, k, c = edges[e, 0], edges[e, 1], edges[e, 2]
        p = n if p < 0 else p
        th = signs[e] * q[c] if c >= 0 else 0.0
        thd = signs[e] * qd[c] if c >= 0 else 0.0
        a0 = (geo[e, 0], geo[e, 1], geo[e, 2])
        rotation_about(a0, th, turn)
        # the child's displacement: the turn about the joint's axis at the start, then the parent's displacement
        for i in range(3):
            for j in range(3):
                disp[k, i, j] = disp[p, i, 0] * turn[0, j] + disp[p, i, 1] * turn[1, j] + disp[p, i, 2] * turn[2, j]
        a = vec3.rotate(disp[p], a0)  # the axis and point, carried by the parent
        pt = vec3.add(vec3.rotate(disp[p], (geo[e, 3], geo[e, 4], geo[e, 5])), (shift[p, 0], shift[p, 1], shift[p, 2]))
        moved = vec3.rotate(disp[k], (geo[e, 3], geo[e, 4], geo[e, 5]))
        for i in range(3):
            shift[k, i] = pt[i] - moved[i]
        xk = vec3.add(vec3.rotate(disp[k], (x0[k, 0], x0[k, 1], x0[k, 2])), (shift[k, 0], shift[k, 1], shift[k, 2]))
        for i in range(3):
            pos[k, i] = xk[i]
            for j in range(3):
                rot[k, i, j] = (disp[k, i, 0] * rot0[k, j] + disp[k, i, 1] * rot0[k, 3 + j]
                                + disp[k, i, 2] * rot0[k, 6 + j])
        wp, vp = (spin[p, 0], spin[p, 1], spin[p, 2]), (vel[p, 0], vel[p, 1], vel[p, 2])
        r = vec3.sub(xk, pt)
        rc = vec3.sub(xk, (pos[p, 0], pos[p, 1], pos[p, 2]))
        th_a = vec3.scale(thd, a)
        wk = vec3.add(wp, th_a)
        vk = vec3.add(vec3.add(vp, vec3.cross(wp, rc)), vec3.cross(th_a, r))
        wa = vec3.cross(wp, a)
        alp, ap = (alpha[p, 0], alpha[p, 1], alpha[p, 2]), (acc[p, 0], acc[p, 1], acc[p, 2])
        ak = vec3.add(vec3.add(vec3.add(ap, vec3.cross(alp, rc)), vec3.cross(wp, vec3.sub(vk, vp))),
                      vec3.add(vec3.scale(thd, vec3.cross(wa, r)), vec3.cross(th_a, vec3.cross(wk, r))))
        for i in range(3):
            spin[k, i], vel[k, i] = wk[i], vk[i]
            alpha[k, i] = alp[i] + thd * wa[i]
            acc[k, i] = ak[i]
        if c >= 0:
            for i in range(3):
                axes[c, i] = signs[e] * a[i]
                points[c, i] = pt[i]
    for k in range(n):
        for i in range(3):
            bias[k, i], bias[k, 3 + i] = acc[k, i], alpha[k, i]


def rotation_about(a, th, out):
    """The rotation by th [rad] about the unit axis a into out (3, 3): I + sin(th) [a]x + (1 - cos(th)) [a]x^2."""
    s, c = np.sin(th), 1.0 - np.cos(th)
    for i in range(3):
        for j in range(3):
            out[i, j] = c * a[i] * a[j] + (1.0 - c if i == j else 0.0)
    out[0, 1] -= s * a[2]
    out[0, 2] += s * a[1]
    out[1, 0] += s * a[2]
    out[1, 2] -= s * a[0]
    out[2, 0] -= s * a[1]
    out[2, 1] += s * a[0]


def world_inertia(rot, tensor, k, out):
    """R T R^T of body k's tensor (INERTIA or INERTIA_INV row, 9 entries) and rotation rot (3, 3) into out (3, 3),
    which it returns."""
    for a in range(3):
        for d in range(3):
            total = 0.0
            for b in range(3):
                for c in range(3):
                    total += rot[a, b] * tensor[k, 3 * b + c] * rot[d, c]
            out[a, d] = total
    return out


def applied_loads(fb, ib, w):
    """The bodies' loads (gravity, the ports' forces, less the gyroscopic term) into the work space's body force
    and torque [N, N m]."""
    bodies, _, ports, _, forces, solve, _ = w
    _, rot, _, spin = bodies
    force, torque = solve[1], solve[2]
    n = ib[N]
    gravity = floats(fb, ib, GRAVITY_BAUMGARTE)[:, 0]
    mass, inertia = floats(fb, ib, MASS)[:, 0], floats(fb, ib, INERTIA)
    force[:, :] = 0.0
    torque[:, :] = 0.0
    add_block_loads(ports[0], ints(ib, PORT_BODIES), forces[0], force, torque)
    jw = np.empty((3, 3))
    for k in range(n):
        world_inertia(rot[k], inertia, k, jw)
        h0 = jw[0, 0] * spin[k, 0] + jw[0, 1] * spin[k, 1] + jw[0, 2] * spin[k, 2]
        h1 = jw[1, 0] * spin[k, 0] + jw[1, 1] * spin[k, 1] + jw[1, 2] * spin[k, 2]
        h2 = jw[2, 0] * spin[k, 0] + jw[2, 1] * spin[k, 1] + jw[2, 2] * spin[k, 2]
        torque[k, 0] -= spin[k, 1] * h2 - spin[k, 2] * h1
        torque[k, 1] -= spin[k, 2] * h0 - spin[k, 0] * h2
        torque[k, 2] -= spin[k, 0] * h1 - spin[k, 1] * h0
        for a in range(3):
            force[k, a] += mass[k] * gravity[a]


def body_inverse_masses(fb, ib, rot):
    """M^-1 per body (n, 6, 6), world axes."""
    n = ib[N]
    mass, inertia_inv = floats(fb, ib, MASS)[:, 0], floats(fb, ib, INERTIA_INV)
    minv = np.zeros((n, 6, 6))
    ji = np.empty((3, 3))
    for k in range(n):
        world_inertia(rot[k], inertia_inv, k, ji)
        for a in range(3):
            minv[k, a, a] = 1.0 / mass[k]
            for b in range(3):
                minv[k, 3 + a, 3 + b] = ji[a, b]
    return minv
