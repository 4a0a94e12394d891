"""The Cartesian evaluation compiled: System.evaluate's rate in one numba call, the projections onto the
constraints after each step (System.onto_constraints), and the explicit Runge-Kutta steps on the bodies' Lie
group (Integrator contract item 6: the stages, and `leap`'s whole steps between output samples). An output
sample takes its multipliers and rows from here too (`details`, `rows`), and so does the drift check.

System (core.dynamics.system) evaluates the equations of motion in body coordinates with a few dozen small
numpy operations per constraint: at the planetary's 6 bodies and 37 rows that is some 1.5-3 ms an
evaluation, nearly all of it the interpreter's and numpy's cost per call. Here the same evaluation runs
compiled, in the same order: the rotation matrices, the loads (gravity, joint torques, torsional springs),
the world inertias and gyroscopic terms, the rows (revolute, cylindrical gear pairs, speed motors) with their
Baumgarte terms, the multipliers with the gear flanks settled, the accelerations, and the rates of the extra
states (joint angles, phase errors, motor errors, work, dissipation).

The multipliers: J M^-1 G^T is built body by body (two rows meet only at a body both touch). Without
redundant rows it is LAPACK's LU solve, as in Python. A planetary set's redundant rows make it singular,
and Python takes numpy's lstsq (an SVD: 170 us a call at 37 rows); here the same least-squares solution of
least norm comes from an LU with rook pivoting stopped at the rank and the two null spaces it gives
(`_minimum_norm`). The flanks change only the gear rows' columns, so the other rows' columns are factored
first, once per evaluation (`_factor_fixed`), and each set of flanks finishes the factorisation (`_finish`).

One formula: each row's terms come from the functions the Python path calls, compiled from their source
(`revolute_terms`, `speed_row` and `joint_spin` of core.dynamics.constraints; `cylinder_frame`,
`cylinder_frame_rate`, `cylinder_force_parts`, `pitch_slip_rate` and `pitch_jdot_v` of
core.gearing.pitch_point; `quat_rotation`; `law_value`, `law_rate`, `spring_torque`). The steps' update
is StateSpace's: `turned` (exp(theta) q, from `quat_product` and `rotation_vector_quat`) and `dexp_inv`. What
is written here is the assembly: where each block goes, and the linear algebra.

What it covers (`CompiledCartesian` says why not otherwise, and the Python path stays): revolute joints,
rigid spur, helical and internal pairs, speed motors, joint torques and torsional springs, gravity, and at
most SPARSE_ROWS rows (the dense algebra). Lossy pairs (their modes change at events), compliant meshes, bevel
pairs, fixed joints, bearings and linear springs are not compiled. tests/core/dynamics/test_cartesian_kernel.py
holds its rates, rows and projections to the Python evaluation's to 1e-12 at states along runs of every
example it covers and of variants with every kind of time law and a spring, and off the constraints where no
row is redundant.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from core.dynamics.constraints import (GearConstraint, JointConstraint, RevoluteConstraint, SpeedConstraint,
                                       joint_spin, revolute_terms, speed_row)
from core.dynamics.fast_path_kernel import (NOT_FINITE, OK, SPRING, TORQUE, _law_rate, _law_value,
                                            _laws_table, _spring_torque, compiled_from_source, increment)
from core.dynamics.force_elements import JointTorque, TorsionalSpring
from core.dynamics.state_space import dexp_inv, turned
from core.dynamics.system import PROJECT_ITERATIONS, PROJECT_TOL, SPARSE_ROWS
from core.gearing.pitch_point import (cylinder_force_parts, cylinder_frame, cylinder_frame_rate, pitch_jdot_v,
                                      pitch_slip_rate)
from core.geometry import vec3
from core.geometry.rotations import quat_rotation

# the rows' formulas and the Lie-group update's, compiled from the source the Python path runs
(_revolute_terms, _speed_row, _joint_spin, _cylinder_frame, _cylinder_frame_rate, _cylinder_force_parts,
 _pitch_slip_rate, _pitch_jdot_v, _quat_rotation, _cross, _add, _turned, _dexp_inv) = (
    compiled_from_source(f) for f in (revolute_terms, speed_row, joint_spin, cylinder_frame, cylinder_frame_rate,
                                      cylinder_force_parts, pitch_slip_rate, pitch_jdot_v, quat_rotation,
                                      vec3.cross, vec3.add, turned, dexp_inv))

# sizes: bodies, extra states, rows, redundant rows (rows less J's rank), the work's and the dissipation's extra
# index, and how many columns of J M^-1 G^T no flank changes (the rows other than the gears', at most the rank)
N, EXTRA, ROWS, REDUNDANT, WORK, DISSIPATED, FIXED = range(7)


@njit(cache=True)
def _law(laws, tables, times, values, i, t, rate):
    """Law i of the law table (core.dynamics.fast_path_kernel._laws_table) at t [s]; its rate when `rate`."""
    p, tab = laws[i], tables[i]
    ts, vs = times[tab[0]:tab[0] + tab[1]], values[tab[0]:tab[0] + tab[1]]
    if rate:
        return _law_rate(int(p[0]), p[1], p[2], p[3], p[4], p[5], p[6], p[7], ts, vs, t)
    return _law_value(int(p[0]), p[1], p[2], p[3], p[4], p[5], p[6], p[7], ts, vs, t)


@njit(cache=True)
def _put(mat, row, b, linear, angular, sign):
    """sign * (linear, angular) into row `row`, body b's six columns of mat (nothing for the ground, b < 0)."""
    if b < 0:
        return
    for c in range(3):
        mat[row, 6 * b + c] += sign * linear[c]
        mat[row, 6 * b + 3 + c] += sign * angular[c]


@njit(cache=True)
def _rotated(r, tensor):
    """R T R^T: a tensor in body axes (3, 3) in world axes (core.geometry.rotations.world_tensors, in loops)."""
    out = np.zeros((3, 3))
    for a in range(3):
        for d in range(3):
            s = 0.0
            for b in range(3):
                for c in range(3):
                    s += r[a, b] * tensor[b, c] * r[d, c]
            out[a, d] = s
    return out


@njit(cache=True)
def _rows_by_body(touched, n):
    """The rows that touch each body, as (starts (n + 1,), rows): body k's are rows[starts[k]:starts[k + 1]]."""
    count = np.zeros(n + 1, np.int64)
    for r in range(touched.shape[0]):
        for e in range(2):
            k = touched[r, e]
            if k >= 0 and (e == 0 or k != touched[r, 0]):
                count[k + 1] += 1
    starts = np.cumsum(count)
    rows, at = np.empty(starts[n], np.int64), starts[:n].copy()
    for r in range(touched.shape[0]):
        for e in range(2):
            k = touched[r, e]
            if k >= 0 and (e == 0 or k != touched[r, 0]):
                rows[at[k]] = r
                at[k] += 1
    return starts, rows


@njit(cache=True)
def _kkt_column(jm, gmat, touched, starts, by_body, a, column):
    """Column `column` of J M^-1 G^T into a: rows r and s meet only at a body both touch, so each body that row
    `column` touches adds the products of its rows' six columns."""
    a[:, column] = 0.0
    for e in range(2):
        k = touched[column, e]
        if k >= 0 and (e == 0 or k != touched[column, 0]):
            for i in range(starts[k], starts[k + 1]):
                r = by_body[i]
                total = 0.0
                for c in range(6 * k, 6 * k + 6):
                    total += jm[r, c] * gmat[column, c]
                a[r, column] += total


@njit(cache=True)
def _sparse_times(mat, touched, vec):
    """mat @ vec for a matrix whose row r is zero but for the six columns of the bodies touched[r]."""
    out = np.zeros(mat.shape[0])
    for r in range(mat.shape[0]):
        for e in range(2):
            k = touched[r, e]
            if k >= 0 and (e == 0 or k != touched[r, 0]):
                for c in range(6 * k, 6 * k + 6):
                    out[r] += mat[r, c] * vec[c]
    return out


@njit(cache=True)
def _assemble(t, y, sizes, params, mass, inertia, inertia_inv, revolute_i, revolute_f, gear_i, gear_f, motor_i,
              motor_f, element_i, element_f, angle_i, angle_f, laws, tables, times, values):
    """Everything of an evaluation before the multipliers: the poses (body index n, one past the last, is the
    ground; -1 in the index tables), the generalised force, M^-1's blocks, the rows (J, G for Ft > 0, G's
    separating part, gamma, velocity targets, position errors, stabilise flags), the pairs' pitch points and
    tangents, and the loads' work and dissipation rates."""
    n, m = sizes[N], sizes[ROWS]
    gravity = params[2:5]
    x = y[0:3 * n].reshape(n, 3)
    q = y[3 * n:7 * n].reshape(n, 4)
    v = y[7 * n:10 * n].reshape(n, 3)
    extra = y[13 * n:]
    pos, rot, vel, spin = np.zeros((n + 1, 3)), np.zeros((n + 1, 3, 3)), np.zeros((n + 1, 3)), np.zeros((n + 1, 3))
    rot[n] = np.eye(3)
    for k in range(n):
        e = _quat_rotation(q[k, 0], q[k, 1], q[k, 2], q[k, 3])
        for a in range(3):
            for b in range(3):
                rot[k, a, b] = e[3 * a + b]
            pos[k, a], vel[k, a], spin[k, a] = x[k, a], v[k, a], y[10 * n + 3 * k + a]

    # the loads: gravity, then the joint elements in the system's order
    force, torque = np.zeros((n, 3)), np.zeros((n, 3))
    for k in range(n):
        for a in range(3):
            force[k, a] += mass[k] * gravity[a]
    work, dissipation = 0.0, 0.0
    for el in range(element_i.shape[0]):
        kind, bi, bj, ix, ia = element_i[el]
        gi, gj = bi if bi >= 0 else n, bj if bj >= 0 else n
        axis, rel = _joint_spin(rot[gi], element_f[el, 0:3], spin[gi], spin[gj])
        if kind == TORQUE:
            tau = _law(laws, tables, times, values, ix, t, False)
            work += tau * rel
        else:
            s = element_f[el]
            tau, _, lost = _spring_torque(s[3], s[4], s[5], extra[ia], rel)
            dissipation += lost
        for a in range(3):
            if bj >= 0:
                torque[bj, a] += tau * axis[a]
            if bi >= 0:
                torque[bi, a] += -tau * axis[a]

    # generalised force with the gyroscopic term, and M^-1 (block-diagonal, world axes)
    qvec = np.empty(6 * n)
    minv = np.zeros((n, 6, 6))
    for k in range(n):
        r = rot[k]
        jw, ji = _rotated(r, inertia[k]), _rotated(r, inertia_inv[k])
        h = (jw[0, 0] * spin[k, 0] + jw[0, 1] * spin[k, 1] + jw[0, 2] * spin[k, 2],
             jw[1, 0] * spin[k, 0] + jw[1, 1] * spin[k, 1] + jw[1, 2] * spin[k, 2],
             jw[2, 0] * spin[k, 0] + jw[2, 1] * spin[k, 1] + jw[2, 2] * spin[k, 2])
        gyro = _cross(spin[k], h)
        for a in range(3):
            qvec[6 * k + a] = force[k, a]
            qvec[6 * k + 3 + a] = torque[k, a] - gyro[a]
            minv[k, a, a] = 1.0 / mass[k]
            for b in range(3):
                minv[k, 3 + a, 3 + b] = ji[a, b]

    # the rows: J, G for Ft > 0 and G's separating part, gamma, velocity targets, position errors
    jac, gplus, gsep = np.zeros((m, 6 * n)), np.zeros((m, 6 * n)), np.zeros((m, 6 * n))
    gamma, target, phi = np.zeros(m), np.zeros(m), np.zeros(m)
    stab = np.ones(m, dtype=np.bool_)
    zero = (0.0, 0.0, 0.0)
    for c in range(revolute_i.shape[0]):
        bi, bj, r0 = revolute_i[c]
        gi, gj = bi if bi >= 0 else n, bj if bj >= 0 else n
        f = revolute_f[c]
        arm_i, arm_j, gam, ph, c1, c2 = _revolute_terms(pos[gi], rot[gi], spin[gi], pos[gj], rot[gj], spin[gj],
                                                        f[0:3], f[3:6], f[6:9], f[9:12], f[12:15])
        for a in range(3):
            unit = (1.0 if a == 0 else 0.0, 1.0 if a == 1 else 0.0, 1.0 if a == 2 else 0.0)
            # the angular part of -[arm_i]x and [arm_j]x, row a: (arm x e_a), (e_a x arm)
            _put(jac, r0 + a, bi, unit, _cross(arm_i, unit), 1.0)
            _put(jac, r0 + a, bj, (-unit[0], -unit[1], -unit[2]), _cross(unit, arm_j), 1.0)
        _put(jac, r0 + 3, bi, zero, c1, 1.0)
        _put(jac, r0 + 3, bj, zero, c1, -1.0)
        _put(jac, r0 + 4, bi, zero, c2, 1.0)
        _put(jac, r0 + 4, bj, zero, c2, -1.0)
        for a in range(5):
            gamma[r0 + a], phi[r0 + a] = gam[a], ph[a]
    for c in range(revolute_i.shape[0]):  # G = J for joints
        r0 = revolute_i[c, 2]
        gplus[r0:r0 + 5] = jac[r0:r0 + 5]
    n_g = gear_i.shape[0]
    points, tangents = np.empty((n_g, 3)), np.empty((n_g, 3))
    for g in range(n_g):
        b1, b2, row, err, stabilised = gear_i[g]
        g1, g2 = b1 if b1 >= 0 else n, b2 if b2 >= 0 else n
        f = gear_f[g]
        x1, r1, v1, w1 = pos[g1], rot[g1], vel[g1], spin[g1]
        x2, r2, v2, w2 = pos[g2], rot[g2], vel[g2], spin[g2]
        arm1, arm2 = r1 @ f[0:3], r2 @ f[3:6]
        cen1, cen2 = (x1[0] + arm1[0], x1[1] + arm1[1], x1[2] + arm1[2]), (x2[0] + arm2[0], x2[1] + arm2[1],
                                                                           x2[2] + arm2[2])
        ax1 = r1 @ f[6:9]
        axis1 = (ax1[0], ax1[1], ax1[2])
        point, tan, u = _cylinder_frame(f[9], f[10], cen1, axis1, cen2)
        rho1 = (point[0] - x1[0], point[1] - x1[1], point[2] - x1[2])
        rho2 = (point[0] - x2[0], point[1] - x2[1], point[2] - x2[2])
        _put(jac, row, b1, tan, _cross(rho1, tan), 1.0)
        _put(jac, row, b2, tan, _cross(rho2, tan), -1.0)
        base, sep = _cylinder_force_parts(f[11], f[12], tan, axis1, u)
        # G's blocks as the Python path sums them: (base + sep) linear, rho x base + rho x sep angular
        for b, rho, sign in ((b1, rho1, 1.0), (b2, rho2, -1.0)):
            rb, rs = _cross(rho, base), _cross(rho, sep)
            _put(gplus, row, b, (sign * base[0] + sign * sep[0], sign * base[1] + sign * sep[1],
                                 sign * base[2] + sign * sep[2]),
                 (sign * rb[0] + sign * rs[0], sign * rb[1] + sign * rs[1], sign * rb[2] + sign * rs[2]), 1.0)
            _put(gsep, row, b, sep, rs, sign)
        c1_dot = (v1[0], v1[1], v1[2])
        c1_dot = _add(c1_dot, _cross(w1, (cen1[0] - x1[0], cen1[1] - x1[1], cen1[2] - x1[2])))
        c2_dot = _add((v2[0], v2[1], v2[2]), _cross(w2, (cen2[0] - x2[0], cen2[1] - x2[1], cen2[2] - x2[2])))
        p_dot, t_dot = _cylinder_frame_rate(f[9], f[10], axis1, u, cen1, cen2, c1_dot, _cross(w1, axis1), c2_dot)
        gamma[row] = -_pitch_jdot_v(point, tan, p_dot, t_dot, x1, v1, w1, x2, v2, w2)
        phi[row] = extra[err]
        stab[row] = stabilised != 0
        for a in range(3):
            points[g, a], tangents[g, a] = point[a], tan[a]
    for mo in range(motor_i.shape[0]):
        bi, bj, row, err, law = motor_i[mo]
        gi, gj = bi if bi >= 0 else n, bj if bj >= 0 else n
        axis, coriolis = _speed_row(rot[gi], motor_f[mo], spin[gi], spin[gj])
        _put(jac, row, bi, zero, axis, -1.0)
        _put(jac, row, bj, zero, axis, 1.0)
        gplus[row] = jac[row]
        gamma[row] = _law(laws, tables, times, values, law, t, True) - coriolis
        target[row] = _law(laws, tables, times, values, law, t, False)
        phi[row] = extra[err]

    return (pos, rot, vel, spin, qvec, minv, jac, gplus, gsep, gamma, target, phi, stab, points, tangents, work,
            dissipation)


@njit(cache=True)
def _rows(t, y, jac_out, target_out, phi_out, sizes, params, mass, inertia, inertia_inv, revolute_i, revolute_f,
          gear_i, gear_f, motor_i, motor_f, element_i, element_f, angle_i, angle_f, laws, tables, times, values,
          touched, starts, by_body, order):
    """J, the velocity targets and the position errors of the rows at (t, y) into the given arrays, as
    System._jacobian gives them."""
    parts = _assemble(t, y, sizes, params, mass, inertia, inertia_inv, revolute_i, revolute_f, gear_i, gear_f,
                      motor_i, motor_f, element_i, element_f, angle_i, angle_f, laws, tables, times, values)
    jac_out[:, :] = parts[6]
    target_out[:] = parts[10]
    phi_out[:] = parts[11]


@njit(cache=True)
def _times_minv(jac, touched, minv, jm):
    """J M^-1 into jm, on the blocks each row touches (M^-1 block-diagonal: minv (n, 6, 6))."""
    jm[:, :] = 0.0
    for r in range(jac.shape[0]):
        for e in range(2):
            k = touched[r, e]
            if k >= 0 and (e == 0 or k != touched[r, 0]):
                for a in range(6):
                    for b in range(6):
                        jm[r, 6 * k + b] += jac[r, 6 * k + a] * minv[k, a, b]


@njit(cache=True)
def _add_transposed(mat, touched, lam, out, sign):
    """out += sign mat^T lam, on the blocks each row of mat touches."""
    for r in range(mat.shape[0]):
        for e in range(2):
            k = touched[r, e]
            if k >= 0 and (e == 0 or k != touched[r, 0]):
                for c in range(6 * k, 6 * k + 6):
                    out[c] += sign * mat[r, c] * lam[r]


@njit(cache=True)
def _body_velocity(vel, spin, n):
    """The bodies' velocities (6 n,): COM velocity then spin of each."""
    velocity = np.empty(6 * n)
    for k in range(n):
        for a in range(3):
            velocity[6 * k + a], velocity[6 * k + 3 + a] = vel[k, a], spin[k, a]
    return velocity


@njit(cache=True)
def _least_norm_rows(jac, touched, starts, by_body, minv, rhs, redundant):
    """(J M^-1, lambda) with (J M^-1 J^T) lambda = rhs, of least norm when `redundant` rows make it singular:
    the solve of both projections onto the rows (System.project and consistent_velocities)."""
    m = jac.shape[0]
    jm = np.empty((m, jac.shape[1]))
    _times_minv(jac, touched, minv, jm)
    a = np.empty((m, m))
    for c in range(m):
        _kkt_column(jm, jac, touched, starts, by_body, a, c)
    return jm, _minimum_norm(a, rhs, redundant) if redundant else np.linalg.solve(a, rhs)


@njit(cache=True)
def _consistent(t, y, out, sizes, params, mass, inertia, inertia_inv, revolute_i, revolute_f, gear_i, gear_f,
                motor_i, motor_f, element_i, element_f, angle_i, angle_f, laws, tables, times, values, touched,
                starts, by_body, order):
    """y with its speeds projected onto the rows at t into `out`, as System.consistent_velocities: the least
    change in the kinetic energy metric, v - M^-1 J^T (J M^-1 J^T)^+ (J v - s(t)). Returns the largest
    change [m/s, rad/s]."""
    parts = _assemble(t, y, sizes, params, mass, inertia, inertia_inv, revolute_i, revolute_f, gear_i, gear_f,
                      motor_i, motor_f, element_i, element_f, angle_i, angle_f, laws, tables, times, values)
    return _speeds_onto_rows(y, out, parts, sizes[N], sizes[REDUNDANT], touched, starts, by_body)


@njit(cache=True)
def _speeds_onto_rows(y, out, parts, n, redundant, touched, starts, by_body):
    """_consistent's projection from the parts _assemble gave at y (of rank rows - redundant; touched, starts and
    by_body the rows' sparsity)."""
    vel, spin, minv, jac, target = parts[2], parts[3], parts[5], parts[6], parts[10]
    rhs = _sparse_times(jac, touched, _body_velocity(vel, spin, n)) - target
    jm, lam = _least_norm_rows(jac, touched, starts, by_body, minv, rhs, redundant)
    corr = np.zeros(6 * n)  # M^-1 J^T lambda = (J M^-1)^T lambda
    _add_transposed(jm, touched, lam, corr, 1.0)
    out[:] = y
    for k in range(n):
        for a in range(3):
            out[7 * n + 3 * k + a] = vel[k, a] - corr[6 * k + a]
            out[10 * n + 3 * k + a] = spin[k, a] - corr[6 * k + 3 + a]
    return np.abs(corr).max() if n else 0.0


@njit(cache=True)
def _position_step(t, y, dq, tol, holonomic, redundant, touched, starts, by_body, sizes, params, mass, inertia,
                   inertia_inv, revolute_i, revolute_f, gear_i, gear_f, motor_i, motor_f, element_i, element_f,
                   angle_i, angle_f, laws, tables, times, values):
    """One step of System.project at y: the move dq (6 n) back onto the rows `holonomic` (their indices, of
    rank len - redundant; touched, starts and by_body their sparsity) of least change in the kinetic energy
    metric, dq = -M^-1 J^T (J M^-1 J^T)^+ Phi, into `dq`; none (and no solve) when the largest error is below
    `tol` [m, rad], where System.project stops. Returns the largest position error |Phi| before the move."""
    parts = _assemble(t, y, sizes, params, mass, inertia, inertia_inv, revolute_i, revolute_f, gear_i, gear_f,
                      motor_i, motor_f, element_i, element_f, angle_i, angle_f, laws, tables, times, values)
    return _move_onto_joints(parts, dq, tol, holonomic, redundant, touched, starts, by_body)


@njit(cache=True)
def _move_onto_joints(parts, dq, tol, holonomic, redundant, touched, starts, by_body):
    """_position_step's move from the parts _assemble gave at y."""
    minv, jac_all, phi_all = parts[5], parts[6], parts[11]
    jac, phi = jac_all[holonomic], phi_all[holonomic]
    size = np.abs(phi).max() if phi.shape[0] else 0.0
    dq[:] = 0.0
    if size >= tol:
        jm, lam = _least_norm_rows(jac, touched, starts, by_body, minv, phi, redundant)
        _add_transposed(jm, touched, lam, dq, -1.0)
    return size


@njit(cache=True)
def _rate(t, y, out, lam_out, force_out, flanks, sizes, params, mass, inertia, inertia_inv, revolute_i, revolute_f,
          gear_i, gear_f, motor_i, motor_f, element_i, element_f, angle_i, angle_f, laws, tables, times, values,
          touched, starts, by_body, order):
    """The tangent rate of y at t into `out`, as System.evaluate gives it (see the module's docstring), and the
    multipliers into `lam_out` (rows,) and the rows' forces on the bodies G^T lambda into `force_out` (6 n,),
    as System._multipliers gives them. The flanks are settled from `flanks` (+1 or -1 per row; the last
    evaluation's, which it updates): they change only when a tooth force changes sign, so the first set tried
    is nearly always the settled one (from all +1, as Python starts, a planetary's ring rows take a second
    factorisation at every evaluation)."""
    n, m = sizes[N], sizes[ROWS]
    alpha, beta = params[0], params[1]
    (pos, rot, vel, spin, qvec, minv, jac, gplus, gsep, gamma, target, phi, stab, points, tangents, work,
     dissipation) = _assemble(t, y, sizes, params, mass, inertia, inertia_inv, revolute_i, revolute_f, gear_i,
                              gear_f, motor_i, motor_f, element_i, element_f, angle_i, angle_f, laws, tables, times,
                              values)
    n_g = gear_i.shape[0]

    # the multipliers, the gear flanks settled as System._multipliers settles them
    jv = _sparse_times(jac, touched, _body_velocity(vel, spin, n))
    minv_q = np.zeros(6 * n)
    for k in range(n):  # M^-1 Q by M^-1's blocks
        for a in range(6):
            for b in range(6):
                minv_q[6 * k + a] += minv[k, a, b] * qvec[6 * k + b]
    jm = np.empty((m, 6 * n))
    _times_minv(jac, touched, minv, jm)
    jmq = _sparse_times(jac, touched, minv_q)
    rhs = np.empty(m)
    for r in range(m):
        baumgarte = 2 * alpha * (jv[r] - target[r]) + beta * beta * phi[r] if stab[r] else 0.0
        rhs[r] = gamma[r] - baumgarte - jmq[r]
    lam = np.zeros(m)
    signs = flanks.copy()
    gmat = gplus.copy()
    a = np.empty((m, m))
    redundant, fixed = sizes[REDUNDANT], sizes[FIXED]
    lu, lu_rows, lu_cols, first = np.empty((m, m)), np.empty(m, np.int64), np.empty(m, np.int64), -1.0
    for it in range(4 if m else 0):
        for r in range(m):
            gmat[r] = gplus[r] - 2.0 * gsep[r] if signs[r] < 0 else gplus[r]
        if it == 0:
            for c in range(m):
                _kkt_column(jm, gmat, touched, starts, by_body, a, c)
            if redundant and fixed > 0:  # the columns no flank changes, factored once
                first = _factor_fixed(a, order, fixed, lu, lu_rows, lu_cols)
        else:  # the flanks change only the gear rows' columns of J M^-1 G^T
            for g in range(n_g):
                _kkt_column(jm, gmat, touched, starts, by_body, a, gear_i[g, 2])
        if not redundant:
            lam = np.linalg.solve(a, rhs)
        elif first > 0.0:
            lam = _finish(a, rhs, redundant, lu, lu_rows, lu_cols, first, fixed)
        else:
            lam = _minimum_norm(a, rhs, redundant)
        settled = True
        for g in range(n_g):
            row = gear_i[g, 2]
            new = -1.0 if lam[row] < 0 else 1.0
            if new != signs[row]:
                settled = False
            signs[row] = new
        if settled:
            break
    for r in range(m):
        gmat[r] = gplus[r] - 2.0 * gsep[r] if signs[r] < 0 else gplus[r]
    force_out[:] = 0.0
    _add_transposed(gmat, touched, lam, force_out, 1.0)
    lam_out[:] = lam
    flanks[:] = signs
    total = qvec + force_out  # Q + G^T lambda
    for k in range(n):
        acc = np.zeros(6)
        for a in range(6):
            for b in range(6):
                acc[a] += minv[k, a, b] * total[6 * k + b]
        for a in range(3):
            out[3 * k + a] = vel[k, a]
            out[3 * n + 3 * k + a] = spin[k, a]
            out[6 * n + 3 * k + a] = acc[a]
            out[9 * n + 3 * k + a] = acc[3 + a]

    # the extra states' rates
    rates = out[12 * n:]
    rates[:] = 0.0
    for j in range(angle_i.shape[0]):
        bi, bj, ia = angle_i[j]
        gi, gj = bi if bi >= 0 else n, bj if bj >= 0 else n
        rates[ia] = _joint_spin(rot[gi], angle_f[j], spin[gi], spin[gj])[1]
    for g in range(n_g):
        b1, b2, _, err, _ = gear_i[g]
        g1, g2 = b1 if b1 >= 0 else n, b2 if b2 >= 0 else n
        rates[err] = _pitch_slip_rate(points[g], tangents[g], pos[g1], vel[g1], spin[g1], pos[g2], vel[g2], spin[g2])
    motor_power = 0.0
    for mo in range(motor_i.shape[0]):
        bi, bj, row, err, law = motor_i[mo]
        gi, gj = bi if bi >= 0 else n, bj if bj >= 0 else n
        speed = _joint_spin(rot[gi], motor_f[mo], spin[gi], spin[gj])[1]
        rates[err] = speed - _law(laws, tables, times, values, law, t, False)
        motor_power += lam[row] * speed
    rates[sizes[WORK]] = work + motor_power
    rates[sizes[DISSIPATED]] = dissipation


@njit(cache=True)
def _minimum_norm(a, b, d):
    """The least-squares solution of minimum norm of a x = b for a square a of rank m - d, as
    ``np.linalg.lstsq(a, b, rcond=1e-10)`` gives it (System._multipliers) at a fraction of its cost.

    LU with rook pivoting (each pivot the largest of its row and of its column), stopped after m - d pivots:
    P a Q = L U with U = [U11 U12; 0 0] (`_eliminate`); then `_solve_factored`. When the pivots do not show
    rank m - d (a pivot at or below 1e-10 of the first, or a remainder above it) it takes lstsq itself.
    """
    m = a.shape[0]
    lu, rows, cols = a.copy(), np.arange(m), np.arange(m)
    first = _eliminate(lu, rows, cols, 0, m - d, m, 0.0)
    if first < 0.0:
        return np.linalg.lstsq(a, b, rcond=1e-10)[0]
    return _solve_factored(a, b, d, lu, rows, cols, first)


@njit(cache=True)
def _eliminate(lu, rows, cols, start, stop, last_column, first):
    """Steps start .. stop - 1 of an LU with rook pivoting on lu in place (rows and cols: the orders so far),
    each pivot's column taken from positions k .. last_column - 1, and only those columns eliminated (the
    later ones are left for `_finish`). Returns the first pivot's size (given as `first` when start > 0), or
    -1 when a pivot is at or below 1e-10 of it."""
    m = lu.shape[0]
    for k in range(start, stop):
        p, q = k, k
        big = abs(lu[k, k])
        for i in range(k, m):  # the largest of column k to start, then alternately along rows and columns
            if abs(lu[i, k]) > big:
                p, big = i, abs(lu[i, k])
        moved = True
        while moved:
            moved = False
            for j in range(k, last_column):
                if abs(lu[p, j]) > big:
                    q, big, moved = j, abs(lu[p, j]), True
            if moved:
                moved = False
                for i in range(k, m):
                    if abs(lu[i, q]) > big:
                        p, big, moved = i, abs(lu[i, q]), True
        if k == 0:
            first = big
        if big <= 1e-10 * first or big == 0.0:
            return -1.0
        if p != k:
            for j in range(m):
                lu[k, j], lu[p, j] = lu[p, j], lu[k, j]
            rows[k], rows[p] = rows[p], rows[k]
        if q != k:
            for i in range(m):
                lu[i, k], lu[i, q] = lu[i, q], lu[i, k]
            cols[k], cols[q] = cols[q], cols[k]
        for i in range(k + 1, m):
            lu[i, k] /= lu[k, k]
            f = lu[i, k]
            if f != 0.0:  # J M^-1 G^T is sparse: most rows below a pivot have nothing to eliminate
                for j in range(k + 1, last_column):
                    lu[i, j] -= f * lu[k, j]
    return first


@njit(cache=True)
def _factor_fixed(a, order, fixed, lu, rows, cols):
    """The first `fixed` steps of `_eliminate` on a with its columns in `order`, the pivots taken from the
    first `fixed` of them, into lu, rows and cols; returns the first pivot's size, or -1. Those columns (the
    rows whose multipliers act along J) do not change with the flanks, so `_finish` reuses this for every set
    of flanks."""
    m = a.shape[0]
    for i in range(m):
        for j in range(m):
            lu[i, j] = a[i, order[j]]
        rows[i], cols[i] = i, order[i]
    return _eliminate(lu, rows, cols, 0, fixed, fixed, 0.0)


@njit(cache=True)
def _finish(a, b, d, lu0, rows0, cols0, first, fixed):
    """_minimum_norm's solution from the `_factor_fixed` (lu0, rows0, cols0, first) of an earlier a that differs
    from this one only in the columns after the first `fixed` of its order: those columns brought through the
    fixed steps (the row order and L's columns so far), then the remaining steps and `_solve_factored`; lstsq
    itself as _minimum_norm."""
    m = a.shape[0]
    lu, rows, cols = lu0.copy(), rows0.copy(), cols0.copy()
    for j in range(fixed, m):
        for i in range(m):
            lu[i, j] = a[rows[i], cols[j]]
        for k in range(fixed):
            f = lu[k, j]
            if f != 0.0:  # as in _eliminate: a sparse column has nothing to bring through most steps
                for i in range(k + 1, m):
                    lu[i, j] -= lu[i, k] * f
    first = _eliminate(lu, rows, cols, fixed, m - d, m, first)
    if first < 0.0:
        return np.linalg.lstsq(a, b, rcond=1e-10)[0]
    return _solve_factored(a, b, d, lu, rows, cols, first)


@njit(cache=True)
def _solve_factored(a, b, d, lu, rows, cols, first):
    """The least-squares solution of least norm from an LU stopped at rank r = m - d (P a Q = L U, U = [U11 U12;
    0 0]; rows and cols: P and Q as orders). It gives a's left null space N_l and right null space N_r (d
    vectors each, made orthonormal); b less its part along N_l is in a's range, a particular solution follows
    by the two triangular solves, and less its part along N_r it is the solution of least norm. lstsq itself
    when the remainder is above 1e-10 of the first pivot."""
    m = a.shape[0]
    r = m - d
    for i in range(r, m):
        for j in range(r, m):
            if abs(lu[i, j]) > 1e-10 * first:
                return np.linalg.lstsq(a, b, rcond=1e-10)[0]
    right, left = np.zeros((m, d)), np.zeros((m, d))
    x = np.empty(m)
    for e in range(d):
        # right: U11 x1 = -U12 e (back substitution), x2 = e, in a's column order
        for i in range(r - 1, -1, -1):
            s = -lu[i, r + e]
            for j in range(i + 1, r):
                s -= lu[i, j] * x[j]
            x[i] = s / lu[i, i]
        for i in range(r, m):
            x[i] = 1.0 if i == r + e else 0.0
        for i in range(m):
            right[cols[i], e] = x[i]
        # left: L11^T w1 = -L21^T e (L unit lower), w2 = e, in a's row order
        for i in range(r - 1, -1, -1):
            s = -lu[r + e, i]
            for j in range(i + 1, r):
                s -= lu[j, i] * x[j]
            x[i] = s
        for i in range(r, m):
            x[i] = 1.0 if i == r + e else 0.0
        for i in range(m):
            left[rows[i], e] = x[i]
    _orthonormal(right)
    _orthonormal(left)
    reach = b.copy()  # b in a's range: less its parts along the left null space
    _remove(left, reach)
    z = np.empty(r)  # L11 z = (P reach)[:r], then U11 x1 = z
    for i in range(r):
        s = reach[rows[i]]
        for j in range(i):
            s -= lu[i, j] * z[j]
        z[i] = s
    for i in range(r - 1, -1, -1):
        s = z[i]
        for j in range(i + 1, r):
            s -= lu[i, j] * x[j]
        x[i] = s / lu[i, i]
    out = np.zeros(m)
    for i in range(r):
        out[cols[i]] = x[i]
    _remove(right, out)  # the least norm: less its parts along the right null space
    return out


@njit(cache=True)
def _remove(basis, x):
    """x less its parts along the orthonormal columns of basis, in place."""
    for e in range(basis.shape[1]):
        s = 0.0
        for i in range(x.shape[0]):
            s += basis[i, e] * x[i]
        for i in range(x.shape[0]):
            x[i] -= s * basis[i, e]


@njit(cache=True)
def _orthonormal(basis):
    """The columns of basis made orthonormal in place (modified Gram-Schmidt)."""
    for e in range(basis.shape[1]):
        for f in range(e):
            s = 0.0
            for i in range(basis.shape[0]):
                s += basis[i, f] * basis[i, e]
            for i in range(basis.shape[0]):
                basis[i, e] -= s * basis[i, f]
        s = 0.0
        for i in range(basis.shape[0]):
            s += basis[i, e] * basis[i, e]
        s = np.sqrt(s)
        for i in range(basis.shape[0]):
            basis[i, e] /= s


@njit(cache=True)
def _retract(y, d, out, n):
    """y moved along the tangent increment d into `out`, as StateSpace.retract: the orientations turned by the
    exponential map (`turned`), the rest added."""
    for i in range(3 * n):
        out[i] = y[i] + d[i]
    for k in range(n):
        q, th = 3 * n + 4 * k, 3 * n + 3 * k
        out[q], out[q + 1], out[q + 2], out[q + 3] = _turned((y[q], y[q + 1], y[q + 2], y[q + 3]),
                                                             (d[th], d[th + 1], d[th + 2]))
    for i in range(y.shape[0] - 7 * n):  # speeds, spins and extra states: after the quaternions in y
        out[7 * n + i] = y[7 * n + i] + d[6 * n + i]


@njit(cache=True)
def _correct(inc, rate, n):
    """A stage's rate corrected in place for the stage's rotation increment `inc`, as StateSpace.correct
    (Munthe-Kaas: the spins by dexp^-1)."""
    for k in range(n):
        th = 3 * n + 3 * k
        rate[th], rate[th + 1], rate[th + 2] = _dexp_inv((inc[th], inc[th + 1], inc[th + 2]),
                                                         (rate[th], rate[th + 1], rate[th + 2]))


@njit(cache=True)
def _stages(t, y, h, a, c, k, first, stop, flanks, args):
    """Stages first .. stop - 1 of an explicit Runge-Kutta tableau (a, c) from (t, y) with step h into the rows
    of k (the earlier rows given), as Integrator._stages takes them on the bodies' Lie group: k_i = the rate at
    retract(y, d_i), d_i = h sum_j a_ij k_j, corrected for d_i. `flanks` and `args` are _rate's."""
    n = args[0][N]
    size = k.shape[1]
    d, z = np.empty(size), np.empty(y.shape[0])
    lam, force = np.empty(args[0][ROWS]), np.empty(6 * n)
    for i in range(first, stop):
        for m in range(size):
            s = 0.0
            for j in range(i):
                s += a[i, j] * k[j, m]
            d[m] = h * s
        if i == 0:  # no increment: the rate at y itself
            z[:] = y
        else:
            _retract(y, d, z, n)
        _rate(t + c[i] * h, z, k[i], lam, force, flanks, *args)
        if i:
            _correct(d, k[i], n)


@njit(cache=True)
def _onto_constraints(t, y, out, holonomic, sparsity, data, iterations, tol):
    """y after a step at t [s] moved back onto the constraints into `out`, as System.onto_constraints: the
    positions onto the joints' rows (`holonomic`: _position_step's arguments before the model's `data`), at
    most `iterations` moves until the error is below `tol`, then the speeds onto every row (`sparsity`: their
    touched, starts and by_body). Each state is assembled once: the check after a move and the speeds'
    projection share it (the joints' rows do not depend on t)."""
    n = data[0][N]
    z, moved = y.copy(), np.empty(y.shape[0])
    parts = _assemble(t, z, *data)
    if holonomic[0].shape[0]:
        dq, d = np.empty(6 * n), np.zeros(12 * n + y.shape[0] - 13 * n)
        for _ in range(iterations):
            if _move_onto_joints(parts, dq, tol, *holonomic) < tol:
                break
            for b in range(n):
                for e in range(3):
                    d[3 * b + e] = dq[6 * b + e]
                    d[3 * n + 3 * b + e] = dq[6 * b + 3 + e]
            _retract(z, d, moved, n)
            z[:] = moved
            parts = _assemble(t, z, *data)
    return _speeds_onto_rows(z, out, parts, n, data[0][REDUNDANT], *sparsity)


@njit(cache=True)
def _leap(t, y, h, steps, a, c, b, k, first, y_old, flanks, holonomic, sparsity, args, data, iterations, tol):
    """Up to `steps` steps of the explicit tableau (a, b, c) with step h from (t, y), each as Integrator.step
    takes it: y <- onto_constraints(t + h, retract(y, d)). y is updated in place, y_old is the state before the
    last step and k its stages (k[0] given for the first step when `first` is 1). Returns (status, steps
    taken, t, t before the last step); NOT_FINITE stops before a step whose state would not be finite."""
    size = k.shape[1]
    d, z = np.empty(size), np.empty(y.shape[0])
    norms, errors = np.empty(0), np.empty((0, b.shape[0]))
    n = data[0][N]
    t_old = t
    for i in range(steps):
        _stages(t, y, h, a, c, k, first if i == 0 else 0, a.shape[0], flanks, args)
        increment(h, b, errors, k, 0.0, 1.0, d, norms)
        _retract(y, d, z, n)
        if not np.isfinite(z.sum()):
            return NOT_FINITE, i, t, t_old
        y_old[:] = y
        t_old = t
        t = t + h
        _onto_constraints(t, z, y, holonomic, sparsity, data, iterations, tol)
    return OK, steps, t, t_old


class CompiledCartesian:
    """A System's rate (System.evaluate), compiled. ValueError (its message says why) for a system it does
    not cover (see the module's docstring)."""

    def __init__(self, system):
        sy = self.system = system
        if sy.lossy:
            raise ValueError("lossy pairs are not compiled (their modes change at events)")
        if sy.rows > SPARSE_ROWS:
            raise ValueError(f"more than {SPARSE_ROWS} rows (the sparse algebra is not compiled)")
        laws = []
        revolute_i, revolute_f, gear_i, gear_f, motor_i, motor_f = [], [], [], [], [], []
        for name, (row, c) in sy._rows_of().items():
            if type(c) is RevoluteConstraint:
                g = c.g
                revolute_i.append([g.bi, g.bj, row])
                revolute_f.append([*g.si, *g.sj, *g.aj, *g.bi1, *g.bi2])
            elif type(c) is GearConstraint and c.pair.kind in ("external", "internal"):
                p = c.pair
                gear_i.append([c.j1.bj, c.j2.bj, row, c.error_index, int(c.stabilised)])
                gear_f.append([*c.c1, *c.c2, *c.j1.aj, -1.0 if p.kind == "internal" else 1.0, p.r1,
                               np.tan(p.working_helix_angle), np.tan(p.working_pressure_angle)])
            elif type(c) is SpeedConstraint:
                motor_i.append([c.g.bi, c.g.bj, row, c.error_index, len(laws)])
                motor_f.append(list(c.g.ai))
                laws.append(c.law)
            else:
                what = f"a {c.pair.kind} pair" if isinstance(c, GearConstraint) else f"a {type(c).__name__}"
                raise ValueError(f"{name}: {what} is not compiled")
        element_i, element_f = [], []
        for fe in sy.forces:
            g = getattr(fe, "g", None)
            if type(fe) is JointTorque:
                element_i.append([TORQUE, g.bi, g.bj, len(laws), -1])
                element_f.append([*g.ai, 0.0, 0.0, 0.0])
                laws.append(fe.law)
            elif type(fe) is TorsionalSpring:
                element_i.append([SPRING, g.bi, g.bj, -1, fe.ia])
                element_f.append([*g.ai, fe.k, fe.c, fe.angle0])
            else:
                raise ValueError(f"{fe.name}: a {type(fe).__name__} is not compiled")
        angle_i, angle_f = [], []
        for name, ia in sy.angle_index.items():
            g = sy.geometry[name]
            angle_i.append([g.bi, g.bj, ia])
            angle_f.append(list(g.ai))
        law_rows, tables, times, values = _laws_table(laws)

        def ints(rows, width):
            return np.ascontiguousarray(np.reshape(np.array(rows, np.int64), (-1, width)))

        def floats(rows, width):
            return np.ascontiguousarray(np.reshape(np.array(rows, float), (-1, width)))

        # the bodies each row touches (-1: none, the ground): J's sparsity, fixed at assembly
        touched = np.full((sy.rows, 2), -1, np.int64)
        for bi, bj, r0 in revolute_i:
            touched[r0:r0 + 5] = (bi, bj)
        for bi, bj, row, *_ in (*gear_i, *motor_i):
            touched[row] = (bi, bj)
        # the columns of J M^-1 G^T: the rows other than the gears' first (no flank changes them), then the gears'
        gear_rows = [g[2] for g in gear_i]
        order = np.array([r for r in range(sy.rows) if r not in gear_rows] + gear_rows, np.int64)
        fixed = min(sy.rows - len(gear_rows), sy.rows - sy.redundant)
        self._data = (np.array([sy.n, sy.extra, sy.rows, sy.redundant, sy.work_index, sy.dissipated_index, fixed],
                               np.int64),
                      np.array([sy.alpha, sy.beta, *sy.gravity], float), np.ascontiguousarray(sy.mass, float),
                      np.ascontiguousarray(sy.inertia, float), np.ascontiguousarray(sy.inertia_inv, float),
                      ints(revolute_i, 3), floats(revolute_f, 15), ints(gear_i, 5), floats(gear_f, 13),
                      ints(motor_i, 5), floats(motor_f, 3), ints(element_i, 5), floats(element_f, 6),
                      ints(angle_i, 3), floats(angle_f, 3), np.ascontiguousarray(law_rows), tables,
                      np.ascontiguousarray(times), np.ascontiguousarray(values))
        self._sparsity = (touched, *_rows_by_body(touched, sy.n))  # the rows' bodies, and the rows by body
        self._args = (*self._data, *self._sparsity, order)
        self._flanks = np.ones(sy.rows)  # the flanks the last evaluation settled (see _rate)
        self.size = sy.space.tangent_size
        # the joints' rows, which System.project moves the positions back onto: their sparsity, and how many
        # are redundant
        y0 = sy.initial_state()
        holonomic = np.array([row + i for row, c in sy._rows_of().values() if isinstance(c, JointConstraint)
                              for i in range(c.rows)], np.int64)
        redundant = 0
        if len(holonomic):
            jac, _, _ = sy._rows(0.0, y0, sy.snapshot(y0))
            sv = np.linalg.svd(np.asarray(jac)[holonomic], compute_uv=False)
            redundant = len(holonomic) - int(np.sum(sv > 1e-9 * sv.max()))
        self._holonomic = (holonomic, redundant, touched[holonomic], *_rows_by_body(touched[holonomic], sy.n))
        # numba loads (or compiles) each kernel at its first call: here, so that a run goes at full speed
        self.rate(0.0, y0)
        self.rows(0.0, y0)
        self.consistent_velocities(0.0, y0)
        self.position_step(y0)
        self.project(0.0, y0)
        tableau = np.zeros((1, 1)), np.zeros(1), np.ones(1)
        self.step(0.0, y0, 0.0, *tableau, np.zeros((0, 1)), np.empty((1, self.size)), 0, 1)
        self.leap(0.0, y0, 0.0, 0, *tableau, np.empty((1, self.size)), 0)

    def rows(self, t: float, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """J (rows, 6 n), the velocity targets and the position errors at (t, y) [SI], as System._jacobian."""
        m = self.system.rows
        jac, target, phi = np.empty((m, 6 * self.system.n)), np.empty(m), np.empty(m)
        _rows(float(t), np.ascontiguousarray(y, dtype=float), jac, target, phi, *self._args)
        return jac, target, phi

    def position_step(self, y: np.ndarray, tol: float = 0.0) -> tuple[np.ndarray, float]:
        """One step of System.project at y: the move dq (6 n) [m, rad] back onto the joints' rows (none when
        the largest position error is below `tol` [m, rad]), and the largest position error before it."""
        dq = np.empty(6 * self.system.n)
        size = _position_step(0.0, np.ascontiguousarray(y, dtype=float), dq, float(tol), *self._holonomic,
                              *self._data)
        return dq, float(size)

    def consistent_velocities(self, t: float, y: np.ndarray) -> tuple[np.ndarray, float]:
        """y with its speeds projected onto the rows at t [s] and the largest change [m/s, rad/s], as
        System.consistent_velocities."""
        out = np.empty(self.system.space.size)
        change = _consistent(float(t), np.ascontiguousarray(y, dtype=float), out, *self._args)
        return out, float(change)

    def rate(self, t: float, y: np.ndarray) -> np.ndarray:
        """The tangent rate of y at t [SI], as System.evaluate."""
        return self.details(t, y)[0]

    def details(self, t: float, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The tangent rate of y at t [SI], the multipliers (rows,) and the rows' forces on the bodies G^T lambda
        (6 n,) [N, N m], as System._evaluate and System._multipliers give them."""
        out, lam, force = np.empty(self.size), np.empty(self.system.rows), np.empty(6 * self.system.n)
        _rate(float(t), np.ascontiguousarray(y, dtype=float), out, lam, force, self._flanks, *self._args)
        return out, lam, force

    def project(self, t: float, y: np.ndarray) -> np.ndarray:
        """y after a step at t [s] moved back onto the constraints, as System.onto_constraints: positions, then
        speeds."""
        out = np.empty(self.system.space.size)
        _onto_constraints(float(t), np.ascontiguousarray(y, dtype=float), out, self._holonomic, self._sparsity,
                          self._data, PROJECT_ITERATIONS, PROJECT_TOL)
        return out

    def stages(self, t: float, y: np.ndarray, h: float, a: np.ndarray, c: np.ndarray, k: np.ndarray, first: int,
               stop: int) -> None:
        """Stages first .. stop - 1 of the explicit Runge-Kutta tableau (a, c) [-] from (t, y) with step h [s]
        into the rows of k (the earlier rows given), on the bodies' Lie group as Integrator._stages takes them
        (Munthe-Kaas), in one call."""
        _stages(float(t), np.ascontiguousarray(y, dtype=float), float(h), a, c, k, first, stop, self._flanks,
                self._args)

    def step(self, t: float, y: np.ndarray, h: float, a: np.ndarray, c: np.ndarray, b: np.ndarray,
             errors: np.ndarray, k: np.ndarray, first: int, stop: int, rtol: float = 0.0,
             atol: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        """An explicit Runge-Kutta step of the tableau (a, b, c) [-] from (t, y) with step h [s] in one call:
        the stages (as `stages`), the increment d = h sum_j b_j k_j and per row E of `errors` the squared norm
        sum_m ((h sum_j E_j k_jm) / (atol + rtol |d_m|))^2. Returns (d, norms)."""
        self.stages(t, y, h, a, c, k, first, stop)
        d, norms = np.empty(self.size), np.empty(errors.shape[0])
        increment(float(h), b, errors, k, float(rtol), float(atol), d, norms)
        return d, norms

    def leap(self, t: float, y: np.ndarray, h: float, steps: int, a: np.ndarray, c: np.ndarray, b: np.ndarray,
             k: np.ndarray, first: int) -> tuple[int, float, np.ndarray, float, np.ndarray]:
        """Up to `steps` steps of the explicit tableau (a, b, c) [-] with step h [s] from (t, y) in one call,
        each y <- project(t + h, retract(y, d)) as Integrator.step takes it; k is the stages' work space, its row
        0 given for the first step when `first` is 1. It stops early before a step whose state would not be
        finite. Returns (steps taken, t, y, and t and y before the last step)."""
        y, y_old = np.array(y, dtype=float), np.empty(self.system.space.size)
        status, taken, t, t_old = _leap(float(t), y, float(h), steps, a, c, b, k, first, y_old, self._flanks,
                                        self._holonomic, self._sparsity, self._args, self._data,
                                        PROJECT_ITERATIONS, PROJECT_TOL)
        return taken, t, y, (t_old if taken else float(t)), y_old
