"""One explicit Runge-Kutta step for every tableau (rk4, dopri5, dop853) and both formulations, the leaps that
take many steps in one call, and the Newton iterations of a generalised-alpha step.

After scipy's `rk_step`: the stages k_i = f(t + c_i h, y + h sum_j a_ij k_j), here on the formulation's
state space (Munthe-Kaas: the stage is taken at retract(y, d_i) and its rate corrected by dexp^-1 of the
stage's rotation; on joint coordinates retract is addition), the increment d = h sum_j b_j k_j, and per
error row E the squared norm sum_m ((h sum_j E_j k_jm) / (atol + rtol |d_m|))^2. A step ends with the state
moved back onto the constraints. `leap` takes fixed steps and `leap_adaptive` accepted adaptive steps
(controlled by core.dynamics.integrators.control) between two output samples without a return to Python.
`implicit` iterates a generalised-alpha step (core.dynamics.integrators.implicit) to convergence, and
`leap_implicit` takes fixed generalised-alpha steps between two output samples.

`system` is the tuple (fb, ib, disc, flanks, keys, store, used): the buffers, the discrete states, the
flanks the last evaluation settled and the constant matrices' flank store. Plain Python that numba compiles.
"""

from __future__ import annotations

import numpy as np

from core.dynamics.buffers.layout import CARTESIAN, CONSTANT, FORM, N
from core.dynamics.integrators.control import (dop853_ratio, dopri5_ratio, least_change, newton_update, next_step,
                                               reaches)
from core.dynamics.kernels import cartesian, joint
from core.dynamics.state_space import correct_bodies, retract_bodies

# a kernel's status: done; the flank store is full (the caller grows it and calls again); a step whose state
# would not be finite (left to the Python step, which says so); an adaptive step left to Python's step(); Newton's
# iterations that did not converge
OK, FULL, NOT_FINITE, LEFT, NOT_CONVERGED = 0, 1, 2, 3, 4
#: compiled into their callers (the entry points) rather than as functions of their own: each compiled
#: function that calls an evaluation lowers its whole tree again
INLINE = ("general", "consistent", "onto_constraints", "stages", "step", "commit", "leap", "leap_adaptive",
          "lie_bodies", "implicit", "leap_implicit")


def lie_bodies(ib):
    """How many bodies' orientations the state holds (0 on joint coordinates: a vector space)."""
    return ib[N] if ib[FORM] == CARTESIAN else 0


def general(t, y, out, system, w):
    """The formulation's general evaluation (not the constant matrices: a sample, an event or the multipliers
    need the bodies), the multipliers and accelerations into the work space."""
    fb, ib, disc, flanks = system[0], system[1], system[2], system[3]
    if ib[FORM] == CARTESIAN:
        cartesian.evaluate(t, y, out, fb, ib, disc, flanks, w)
    else:
        joint.evaluate(t, y, out, fb, ib, disc, flanks, w)


def consistent(t, y, out, system, w):
    """y with its velocities projected onto the rows at t into `out`; the largest change [m/s, rad/s]."""
    fb, ib, disc = system[0], system[1], system[2]
    if ib[FORM] == CARTESIAN:
        return cartesian.consistent_velocities(t, y, out, fb, ib, disc, w)
    if ib[CONSTANT]:
        return joint.consistent_constant(t, y, out, fb, ib, disc)
    return joint.consistent_velocities(t, y, out, fb, ib, disc, w)


def onto_constraints(t, y, out, system, w):
    """y after a step at t moved back onto the constraints into `out` (positions, then velocities)."""
    fb, ib, disc = system[0], system[1], system[2]
    if ib[FORM] == CARTESIAN:
        cartesian.onto_constraints(t, y, out, fb, ib, disc, w)
    elif ib[CONSTANT]:  # no loop-closing joint (assembly's check): the coordinates hold, the rates are projected
        joint.consistent_constant(t, y, out, fb, ib, disc)
    else:
        joint.onto_constraints(t, y, out, fb, ib, disc, w)


def stages(t, y, h, a, c, k, first, stop, system, w):
    """Stages first .. stop - 1 of the tableau (a, c) from (t, y) with step h into the rows of k (the earlier
    rows given). OK, or FULL."""
    n = lie_bodies(system[1])
    size = k.shape[1]
    d, z = np.empty(size), np.empty(y.shape[0])
    fb, ib, disc, flanks, keys, store, used = system
    constant = ib[FORM] != CARTESIAN and ib[CONSTANT]
    for i in range(first, stop):
        for m in range(size):
            total = 0.0
            for j in range(i):
                total += a[i, j] * k[j, m]
            d[m] = h * total
        if i == 0:
            z[:] = y
        else:
            retract_bodies(y, d, z, n)
        if constant:  # the work space is not handed on: each of its arrays would count a reference up and down
            if joint.evaluate_constant(t + c[i] * h, z, k[i], fb, ib, disc, flanks, keys, store, used) != OK:
                return FULL
        else:
            general(t + c[i] * h, z, k[i], system, w)
        if i:
            correct_bodies(d, k[i], n)
    return OK


def increment(h, b, errors, k, rtol, atol, d, norms):
    """A step's increment from its stages k: d = h sum_j b_j k_j, and per row E of `errors` the squared norm
    sum_m ((h sum_j E_j k_jm) / (atol + rtol |d_m|))^2 into `norms`."""
    n = k.shape[1]
    for m in range(n):
        total = 0.0
        for j in range(b.shape[0]):
            total += b[j] * k[j, m]
        d[m] = h * total
    for e in range(errors.shape[0]):
        total = 0.0
        for m in range(n):
            s = 0.0
            for j in range(errors.shape[1]):
                s += errors[e, j] * k[j, m]
            r = h * s / (atol + rtol * abs(d[m]))
            total += r * r
        norms[e] = total


def step(t, y, h, a, c, b, errors, k, first, stop, rtol, atol, d, norms, system, w):
    """Stages first .. stop - 1 (as `stages`), then the increment d and the error norms (as `increment`)."""
    if stages(t, y, h, a, c, k, first, stop, system, w) != OK:
        return FULL
    increment(h, b, errors, k, rtol, atol, d, norms)
    return OK


def commit(t, h, y, d, z, y_old, system, w):
    """A step's end: y_old <- y, y <- onto_constraints(t + h, retract(y, d)) (z: work space); False, with nothing
    changed, when the new state would not be finite."""
    retract_bodies(y, d, z, lie_bodies(system[1]))
    if not np.isfinite(np.sum(z)):
        return False
    y_old[:] = y
    onto_constraints(t + h, z, y, system, w)
    return True


def leap(t, y, h, steps, a, c, b, k, first, y_old, system, w):
    """Up to `steps` fixed steps of the tableau (a, b, c) with step h from (t, y), y updated in place; y_old the
    state before the last step and k its stages (k[0] given for the first step when `first` is 1). Returns
    (status, steps taken, t, t before the last step); a status other than OK stops before the step it met."""
    n = y.shape[0]
    d, z = np.empty(k.shape[1]), np.empty(n)
    norms, errors = np.empty(0), np.empty((0, b.shape[0]))
    t_old = t
    for i in range(steps):
        if step(t, y, h, a, c, b, errors, k, first if i == 0 else 0, a.shape[0], 0.0, 1.0, d, norms, system,
                w) != OK:
            return FULL, i, t, t_old
        if not commit(t, h, y, d, z, y_old, system, w):
            return NOT_FINITE, i, t, t_old
        t_old = t
        t = t + h
    return OK, steps, t, t_old


def leap_adaptive(t, y, h, t_stop, steps, a, c, b, errors, k, stop, first, method, order, rtol, atol, max_step,
                  h_min, max_rejections, y_old, d_last, k_last, system, w):
    """Up to `steps` accepted steps of an adaptive method (`method` 0 dopri5, 1 dop853: whose error ratio it
    is; `order` its controller's) from (t, y) with the next step size h, each as the Python step takes it:
    attempts of min(h, max_step), shrunk by `next_step` until one is accepted, then the step's end (`commit`).
    It stops before a step that would reach t_stop, and before one that would take more than max_rejections
    retries or fall below h_min (LEFT: Python's step() takes it and says why). y is updated in place; y_old is
    the state before the last step, d_last and k_last its increment and stages. Returns (status, steps taken,
    t, next h, t before the last step, the last step's size, evaluations, rejections)."""
    n = y.shape[0]
    z, d = np.empty(n), np.empty(k.shape[1])
    norms = np.empty(errors.shape[0])
    t_old, h_last = t, 0.0
    taken, evaluations, failed = 0, 0, 0
    while taken < steps:
        hh = min(h, max_step)
        if reaches(hh, t_stop - t):
            return OK, taken, t, h, t_old, h_last, evaluations, failed
        given, tries, spent = first, 0, 0
        while True:
            if step(t, y, hh, a, c, b, errors, k, given, stop, rtol, atol, d, norms, system, w) != OK:
                return FULL, taken, t, h, t_old, h_last, evaluations, failed
            spent += stop - given
            given = 1  # a retry reuses the first stage
            ratio = dopri5_ratio(hh, norms, d.shape[0]) if method == 0 else dop853_ratio(hh, norms, d.shape[0])
            if not np.isfinite(ratio):
                return NOT_FINITE, taken, t, h, t_old, h_last, evaluations, failed
            accepted, h_next = next_step(hh, ratio, order, tries > 0)
            if accepted:
                break
            tries += 1
            hh = h_next
            if hh < h_min or tries >= max_rejections:
                return LEFT, taken, t, h, t_old, h_last, evaluations, failed
        if not commit(t, hh, y, d, z, y_old, system, w):
            return NOT_FINITE, taken, t, h, t_old, h_last, evaluations, failed
        d_last[:] = d
        k_last[:, :] = k
        t_old, h_last = t, hh
        t = t + hh
        h = h_next
        taken += 1
        evaluations += spent
        failed += tries
        first = 0
    return OK, taken, t, h, t_old, h_last, evaluations, failed


def implicit(t, y, h, r0, inverse, coefficients, newton_tol, floor, max_newton, k, d, system, w):
    """Newton's iterations of one generalised-alpha step of size h from (t, y) and the rate variable r0, on the
    inverse of the iterations' matrix: coefficients (am, af, gamma), each iterate's state retract(y, af d) with d =
    h (r0 + gamma (k - r0)), converged when `newton_update`'s change is at most newton_tol. Returns (status,
    evaluations): OK with the new rate variable in k and the step's increment in d, NOT_CONVERGED after
    max_newton iterations, NOT_FINITE, or FULL."""
    am, af, gamma = coefficients[0], coefficients[1], coefficients[2]
    n = lie_bodies(system[1])
    fb, ib, disc, flanks, keys, store, used = system
    constant = ib[FORM] != CARTESIAN and ib[CONSTANT]
    size = r0.shape[0]
    z, f, dk = np.empty(y.shape[0]), np.empty(size), np.empty(size)
    least = least_change(y, h * gamma)
    k[:] = r0
    for i in range(max_newton):
        for m in range(size):
            dk[m] = af * h * (r0[m] + gamma * (k[m] - r0[m]))
        retract_bodies(y, dk, z, n)
        if constant:  # as in `stages`
            if joint.evaluate_constant(t + af * h, z, f, fb, ib, disc, flanks, keys, store, used) != OK:
                return FULL, i
        else:
            general(t + af * h, z, f, system, w)
        change = newton_update(r0, k, f, inverse, am, floor, dk, least)
        if change == np.inf:
            return NOT_FINITE, i + 1
        if change <= newton_tol:
            for m in range(size):
                d[m] = h * (r0[m] + gamma * (k[m] - r0[m]))
            return OK, i + 1
    return NOT_CONVERGED, max_newton


def leap_implicit(t, y, h, steps, r, inverse, coefficients, newton_tol, floor, max_newton, y_old, system, w):
    """Up to `steps` fixed generalised-alpha steps of size h from (t, y) and the rate variable r, each as
    `implicit` iterates it on the one matrix and `commit` ends it: y and r updated in place, y_old the state
    before the last step. It stops before a step whose iterations do not converge (Python's step() takes that
    one, with its fresh Jacobian). Returns (status, steps taken, t, t before the last step, evaluations)."""
    size = r.shape[0]
    k, d, z = np.empty(size), np.empty(size), np.empty(y.shape[0])
    t_old, evaluations = t, 0
    for i in range(steps):
        status, spent = implicit(t, y, h, r, inverse, coefficients, newton_tol, floor, max_newton, k, d, system, w)
        if status != OK:  # a step cut short by a full flank store is taken again, and counted then
            return status, i, t, t_old, evaluations + (0 if status == FULL else spent)
        evaluations += spent
        if not commit(t, h, y, d, z, y_old, system, w):
            return NOT_FINITE, i, t, t_old, evaluations
        r[:] = k
        t_old = t
        t = t + h
    return OK, steps, t, t_old, evaluations
